"""core/metrics' outcome vectors and summary on four queries worked by hand (docs/metrics.md): every field of
:class:`Outcomes` and every count of :func:`summary`, over all queries and under a mask -- the mutants mutmut
left alive in core/metrics (docs/recipes.md#mutation-testing)."""

from types import SimpleNamespace

import pytest

from nclue.core.measures import MEASURES
from nclue.core.metrics import INF, aggregate, evaluate, summary

QUERIES = {"q1": SimpleNamespace(n=2), "q2": SimpleNamespace(n=3), "q3": SimpleNamespace(n=2),
           "q4": SimpleNamespace(n=2)}
SETS = {"q1": ({"g1"}, {"s1"}), "q2": ({"g2"}, {"s2"}), "q3": ({"g3"}, set()), "q4": ({"g4"}, set())}
QRELS = {"q1": {"g1": 2, "s1": 1}, "q2": {"g2": 3, "s2": 2}, "q3": {"g3": 2}, "q4": {"g4": 2, "z": 0}}
RANKING = {"q1": SimpleNamespace(docids=("s1", "g1")),      # a subset first: a hit, no success
           "q2": SimpleNamespace(docids=("g2", "s2")),      # complete first
           "q4": SimpleNamespace(docids=("z", "g4"))}       # no subset judged: the gold at 2 succeeds; q3 unranked


def test_every_outcome_field_by_hand():
    out = evaluate(RANKING, QUERIES, QRELS, SETS)
    assert out.qids == ("q1", "q2", "q3", "q4")
    assert out.n == (2, 3, 2, 2)
    assert out.success == (0, 1, 0, 1) and out.hit == (1, 1, 0, 1)
    assert out.first_gold == (2, 1, INF, 2) and out.first_subset == (1, 2, INF, INF)
    # gold-only NDCG: one gold at rank 2 is 1/log2(3); at rank 1, 1
    assert out.gold_ndcg == pytest.approx((0.6309297535714575, 1.0, 0.0, 0.6309297535714575))
    # graded NDCG, gain = grade: q1 (1 + 2/log2 3) / (2 + 1/log2 3); q2 the ideal; q4 the gold at 2
    assert out.graded_ndcg == pytest.approx(((1 + 2 * 0.6309297535714575) / (2 + 0.6309297535714575), 1.0, 0.0,
                                             0.6309297535714575))
    assert out.auc == (0.0, 1.0, None, None)           # AUC only where a gold and a subset are both judged


def test_summary_counts_over_all_queries_and_under_a_mask():
    out = evaluate(RANKING, QUERIES, QRELS, SETS)
    s = summary(out)
    assert (s["queries"], s["success_count"], s["hit_count"], s["subset_first_count"], s["no_gold_count"]) == \
        (4, 2, 3, 1, 1)
    assert s["nclue_score"] == 50.0 and s["gold_hit"] == 75.0 and s["pairwise_auc"] == 0.5 and s["auc_queries"] == 2
    assert (s["complete_first"], s["subset_first"], s["no_gold"]) == (50.0, 25.0, 25.0)
    masked = summary(out, mask=[True, True, False, False])
    assert (masked["queries"], masked["success_count"], masked["hit_count"], masked["subset_first_count"],
            masked["no_gold_count"]) == (2, 1, 2, 1, 0)
    assert masked["nclue_score"] == 50.0 and masked["gold_hit"] == 100.0
    last = summary(out, mask=[False, False, False, True])
    assert (last["queries"], last["success_count"], last["pairwise_auc"], last["auc_queries"]) == (1, 1, None, 0)


def test_an_unknown_aggregate_names_itself():
    odd = MEASURES["nclue_score_at_10"]._replace(aggregate="median")
    with pytest.raises(ValueError, match=r"^unknown aggregate 'median' of measure nclue_score_at_10$"):
        aggregate(odd, [1, 0])


def test_the_depth_reaches_every_measure_at_k_3():
    """Every per-query measure honours the depth it is given, not the default 10 (``score`` reports @3 too)."""
    from nclue.core.metrics import graded_ndcg, ideal_graded_dcg, standard_values

    docids = ("x", "y", "z", "g")                          # the gold at rank 4: inside 10, outside 3
    out3 = evaluate({"q1": SimpleNamespace(docids=docids)}, {"q1": SimpleNamespace(n=2)}, {"q1": {"g": 2}},
                    {"q1": ({"g"}, set())}, k=3)
    assert (out3.success, out3.hit, out3.gold_ndcg, out3.graded_ndcg) == ((0,), (0,), (0.0,), (0.0,))
    out10 = evaluate({"q1": SimpleNamespace(docids=docids)}, {"q1": SimpleNamespace(n=2)}, {"q1": {"g": 2}},
                     {"q1": ({"g"}, set())})
    assert out10.success == (1,) and out10.gold_ndcg == pytest.approx((1 / 2.321928094887362,))
    grades = {"a": 3, "b": 2, "c": 1, "d": 1}
    assert ideal_graded_dcg(grades, 2) == pytest.approx(3 + 2 / 1.584962500721156)
    assert graded_ndcg(["d", "c", "b", "a"], grades, 2) == pytest.approx(
        (1 + 1 / 1.584962500721156) / (3 + 2 / 1.584962500721156))
    assert standard_values(["x", "x2", "x3", "a"], {"a": 1}, 3) == (0.0, 0.0, 0.0, 0.0)
    # at depth 1 neither is ranked: a tie, 0.5 (at depth 10 the gold precedes the subset: 1.0)
    assert evaluate({"q1": SimpleNamespace(docids=("x", "g", "s"))}, {"q1": SimpleNamespace(n=2)},
                    {"q1": {"g": 2, "s": 1}}, {"q1": ({"g"}, {"s"})}, k=1).auc == (0.5,)


def test_no_positive_grade_gives_zero_and_a_judged_zero_is_not_relevant():
    from nclue.core.metrics import graded_ndcg, standard_values

    assert graded_ndcg(["a"], {"a": 0}) == 0.0 and graded_ndcg([], {}) == 0.0
    assert standard_values([], {}) == (0.0, 0.0, 0.0, 0.0) and standard_values(["z"], {"z": 0}) == (
        0.0, 0.0, 0.0, 0.0)
    # one relevant document of two judged: recall 1 and AP 1, not halves
    assert standard_values(["a"], {"a": 1, "z": 0}) == (0.1, 1.0, 1.0, 1.0)


def test_standard_outcomes_of_an_unranked_query_and_one_without_judgements():
    from nclue.core.metrics import STANDARD_FIELDS, standard_outcomes

    out = standard_outcomes({"q2": SimpleNamespace(docids=("a",))}, {"q1": None, "q2": None, "q3": None},
                            {"q1": {"a": 1}, "q2": {"a": 1}}, k=3)
    assert list(out) == list(STANDARD_FIELDS)
    assert out["precision"] == (0.0, 1 / 3, 0.0) and out["recall"] == (0.0, 1.0, 0.0)


def test_pairwise_wins_add_up_over_several_ranked_subsets():
    from nclue.core.metrics import mean, pairwise_auc

    assert pairwise_auc(["g", "s1", "s2"], {"g"}, {"s1", "s2"}) == 1.0     # both pairs won: 1 + 1, not 1
    assert pairwise_auc(["s1", "g", "s2"], {"g"}, {"s1", "s2"}) == 0.5
    assert mean([]) is None and mean([1.0, 2.0]) == 1.5


def test_precomputed_ideals_are_used_as_given():
    out = evaluate(RANKING, QUERIES, QRELS, SETS, ideals={"q1": 10.0, "q2": 10.0, "q3": 10.0, "q4": 10.0})
    assert out.graded_ndcg == pytest.approx(((1 + 2 * 0.6309297535714575) / 10.0, (3 + 2 * 0.6309297535714575) / 10,
                                            0.0, 2 * 0.6309297535714575 / 10))


def test_a_query_without_judgements_scores_zero_graded_ndcg():
    out = evaluate(RANKING, QUERIES, {q: g for q, g in QRELS.items() if q != "q2"}, SETS)
    assert out.graded_ndcg[1] == 0.0 and out.success[1] == 1        # the gold sets still decide success
