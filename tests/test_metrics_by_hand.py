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
