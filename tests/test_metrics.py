"""Metrics on rankings worked by hand, and graded NDCG against trec_eval (pytrec_eval)."""

import math

import pytest
from conftest import REPO

from nclue.core import layout
from nclue.core.instrument import Instrument
from nclue.core.metrics import (
    INF,
    common_support,
    evaluate,
    first_ranks,
    gold_ndcg,
    gold_support,
    graded_ndcg,
    is_success,
    pairwise_auc,
    summary,
)
from nclue.core.records import PageScoreRow, Query, QueryCondition, RankingRow
from nclue.core.structure import families, gold_and_subsets, gold_graph_components

G, S = {"g1", "g2"}, {"s1", "s2", "s3"}


@pytest.mark.parametrize("ranking,success,hit,rg,rs", [
    (["g1", "s1"], True, True, 1, 2),               # gold first
    (["s1", "g1"], False, True, 2, 1),              # subset before gold
    (["x", "y"], False, False, INF, INF),           # no gold, no subset
    (["s1", "x"], False, False, INF, 1),            # subset only
    (["x"] * 0 + ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "g1"], False, False, INF, INF),  # gold at k+1
    (["x", "g2", "g1", "s2"], True, True, 2, 4),    # several golds
])
def test_success_and_hit(ranking, success, hit, rg, rs):
    got_rg, got_rs = first_ranks(ranking, G, S, 10)
    assert (got_rg, got_rs) == (rg, rs)
    assert is_success(got_rg, got_rs, 10) is success
    assert (got_rg <= 10) is hit


def test_zero_golds_never_succeed():
    assert first_ranks(["s1", "x"], set(), S, 10) == (INF, 1)
    assert gold_ndcg(["s1"], set()) == 0.0
    assert pairwise_auc(["s1"], set(), S) is None


def test_gold_ndcg_by_hand():
    # golds at ranks 2 and 3 of |G| = 2: (1/log2 3 + 1/log2 4) / (1 + 1/log2 3)
    expected = (1 / math.log2(3) + 0.5) / (1 + 1 / math.log2(3))
    assert gold_ndcg(["s1", "g1", "g2"], G) == pytest.approx(expected, abs=1e-15)
    # ideal uses min(k, |G|) golds
    many = {"g%d" % i for i in range(15)}
    assert gold_ndcg(sorted(many)[:10], many) == pytest.approx(1.0)


def test_graded_ndcg_by_hand():
    grades = {"g1": 2, "s1": 1}
    # ranking s1, g1: DCG = 1 + 2/log2(3); ideal = 2 + 1/log2(3)
    assert graded_ndcg(["s1", "g1"], grades) == pytest.approx((1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)))


def test_pairwise_auc_by_hand():
    # pairs (g, s): g1 ranked 1 beats everything: 3 wins; g2 unranked: vs s1 (ranked 2) loses,
    # vs s2, s3 unranked: 0.5 each -> (3 + 0 + 1) / 6
    assert pairwise_auc(["g1", "s1"], G, S) == pytest.approx(4 / 6)
    # brute force agreement on a shuffled case
    ranking = ["s2", "g2", "x", "s1", "g1"]
    rank = {d: i for i, d in enumerate(ranking, 1)}
    brute = []
    for g in sorted(G):
        for s in sorted(S):
            rg, rs = rank.get(g, INF), rank.get(s, INF)
            brute.append(0.5 if rg == rs == INF else float(rg < rs))
    assert pairwise_auc(ranking, G, S) == pytest.approx(sum(brute) / len(brute))


def _toy():
    conds = (QueryCondition("a", "section", "A"), QueryCondition("b", "entity", "B"))
    queries = {q: Query(q, 2, conds, {}) for q in ("q1", "q2", "q3", "q4")}
    qrels = {"q1": {"g1": 2, "s1": 1}, "q2": {"g1": 2, "s2": 1}, "q3": {"g2": 2}, "q4": {"g3": 2, "s1": 1}}
    return queries, qrels


def test_outcomes_sum_to_100_and_subset_first_is_hit_minus_score():
    queries, qrels = _toy()
    sets = gold_and_subsets(queries, qrels)
    ranking = {"q1": RankingRow("q1", ("g1",), (1.0,)), "q2": RankingRow("q2", ("s2", "g1"), (2.0, 1.0)),
               "q3": RankingRow("q3", ("x",), (1.0,))}                  # q4 absent: empty ranking
    out = evaluate(ranking, queries, qrels, sets)
    s = summary(out)
    assert (s["success_count"], s["hit_count"]) == (1, 2)
    assert s["nclue_score"] == 25.0 and s["gold_hit"] == 50.0
    assert s["complete_first"] + s["subset_first"] + s["no_gold"] == 100.0
    assert s["subset_first"] == s["gold_hit"] - s["nclue_score"]


def test_families_and_gold_graph():
    queries, qrels = _toy()
    sets = gold_and_subsets(queries, qrels)
    assert families(sets) == [["q1", "q2"], ["q3"], ["q4"]]
    comps = gold_graph_components(sets)
    assert comps == [["q1", "q2"], ["q3"], ["q4"]]


def test_gold_support_by_hand():
    queries, qrels = _toy()
    sets = gold_and_subsets(queries, qrels)
    support = {("g1", "a"): (3,), ("g1", "b"): (9,), ("g2", "a"): (1,), ("g2", "b"): (2,)}
    ranking = {"q1": RankingRow("q1", ("g1",), (1.0,)), "q2": RankingRow("q2", ("g1",), (1.0,)),
               "q3": RankingRow("q3", ("g2",), (1.0,)), "q4": RankingRow("q4", ("s1",), (1.0,))}
    pages = {
        ("q1", "g1"): PageScoreRow("q1", "g1", ((3, .9), (3, .8), (5, .7), (9, .6))),  # 3 distinct: 3,5,9 -> both
        ("q2", "g1"): PageScoreRow("q2", "g1", ((3, .9), (4, .8), (5, .7), (9, .6))),  # 3,4,5 -> only a
        ("q3", "g2"): PageScoreRow("q3", "g2", ((7, .9),)),                             # none
    }
    r = gold_support(ranking, pages, queries, sets, support)
    assert r["success_count"] == 1 and r["gold_support"] == 25.0
    assert r["hit_queries"] == 3
    assert r["condition_coverage"] == pytest.approx(100 * (1 + 0.5 + 0) / 3)
    assert r["full_coverage"] == pytest.approx(100 / 3)


def test_common_support_by_hand():
    queries, qrels = _toy()
    sets = gold_and_subsets(queries, qrels)
    a = evaluate({"q1": RankingRow("q1", ("s1", "g1"), (2., 1.)), "q2": RankingRow("q2", ("g1",), (1.,))},
                 queries, qrels, sets)
    b = evaluate({"q1": RankingRow("q1", ("g1",), (1.,)), "q2": RankingRow("q2", ("g1",), (1.,)),
                  "q3": RankingRow("q3", ("g2",), (1.,))}, queries, qrels, sets)
    cs = common_support(a, b)
    assert cs["common_queries"] == 2 and cs["D_base"] == 50.0 and cs["D_variant"] == 100.0
    assert cs["delta_D"] == 50.0
    assert cs["variant"] == {"M": 25.0, "P": 0.0, "G": 75.0}


@pytest.mark.parametrize("system", ["bm25_and", "bm25_or"])
def test_graded_ndcg_equals_pytrec_eval_on_shipped_runs(system):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    inst = Instrument(REPO)
    queries, qrels = inst.queries(), inst.qrels()
    ranking = inst.ranking(layout.CROSSPAGE.ranking(system))
    out = evaluate(ranking, queries, qrels, gold_and_subsets(queries, qrels))
    # trec_eval sorts by score (ties by docno descending); give it file order as strictly falling scores
    run = {q: {d: float(10 - i) for i, d in enumerate(row.docids)} for q, row in ranking.items() if row.docids}
    evaluator = pytrec_eval.RelevanceEvaluator({q: dict(g) for q, g in qrels.items()}, {"ndcg_cut.10"})
    ref = evaluator.evaluate(run)
    checked = 0
    for i, qid in enumerate(out.qids):
        expected = ref[qid]["ndcg_cut_10"] if qid in ref else 0.0
        assert out.graded_ndcg[i] == pytest.approx(expected, abs=1e-12), qid
        checked += 1
    assert checked == len(queries) == 1000


# ---- the rank 10 / rank 11 boundary, for every @10 metric ------------------------------------------------

FILL = ["x%d" % i for i in range(1, 10)]           # nine non-relevant documents


def _at(position, doc, k_fill=FILL):
    """A ranking with ``doc`` at 1-based ``position`` (10 or 11) behind non-relevant documents."""
    fill = list(k_fill) + ["x10"]
    return fill[:position - 1] + [doc]


def test_a_gold_at_rank_10_counts_and_at_rank_11_does_not():
    at10, at11 = _at(10, "g1"), _at(11, "g1")
    assert len(at10) == 10 and len(at11) == 11
    assert first_ranks(at10, G, S, 10) == (10, INF) and first_ranks(at11, G, S, 10) == (INF, INF)
    assert is_success(*first_ranks(at10, G, S, 10), 10) and not is_success(*first_ranks(at11, G, S, 10), 10)
    assert is_success(10, INF, 10) and not is_success(11, INF, 10)       # the rule itself, apart from the cut
    # Gold-NDCG: one gold at rank 10 of |G| = 2 -> (1/log2 11) / (1 + 1/log2 3); at rank 11 -> 0
    assert gold_ndcg(at10, G) == pytest.approx((1 / math.log2(11)) / (1 + 1 / math.log2(3)), abs=1e-15)
    assert gold_ndcg(at11, G) == 0.0
    # graded NDCG: grade 2 at rank 10 -> 2/log2(11) over the ideal 2 + 1/log2(3) (grades 2 and 1)
    grades = {"g1": 2, "s1": 1}
    assert graded_ndcg(at10, grades) == pytest.approx((2 / math.log2(11)) / (2 + 1 / math.log2(3)), abs=1e-15)
    assert graded_ndcg(at11, grades) == 0.0
    # pairwise AUC: a gold at 10 beats the three unranked subsets; at 11 it is unranked (ties 0.5 each)
    assert pairwise_auc(at10, G, S) == pytest.approx((3 + 1.5) / 6)
    assert pairwise_auc(at11, G, S) == pytest.approx((1.5 + 1.5) / 6)


def test_a_subset_at_rank_10_blocks_and_at_rank_11_does_not():
    before_gold_10 = FILL[:8] + ["s1", "g1"]              # subset 9, gold 10: subset first
    assert first_ranks(before_gold_10, G, S, 10) == (10, 9) and not is_success(10, 9, 10)
    gold_then_subset = ["g1"] + FILL + ["s1"]              # subset at 11 does not matter
    assert first_ranks(gold_then_subset, G, S, 10) == (1, INF)
    assert pairwise_auc(gold_then_subset, G, S) == pytest.approx((3 + 1.5) / 6)


def test_evaluate_and_summary_cut_at_rank_10():
    queries, qrels = _toy()
    sets = gold_and_subsets(queries, qrels)
    ranking = {"q1": RankingRow("q1", tuple(_at(10, "g1")), tuple(range(10, 0, -1))),
               "q2": RankingRow("q2", tuple(_at(11, "g1")), tuple(range(11, 0, -1)))}
    out = evaluate(ranking, queries, qrels, sets)
    assert out.success[:2] == (1, 0) and out.hit[:2] == (1, 0)
    assert out.first_gold[:2] == (10, INF)
    assert out.gold_ndcg[1] == 0.0 and out.graded_ndcg[1] == 0.0
    s = summary(out)
    assert (s["success_count"], s["hit_count"]) == (1, 1)


def test_gold_support_counts_a_gold_at_rank_10_only():
    queries, qrels = _toy()
    sets = gold_and_subsets(queries, qrels)
    support = {("g1", "a"): (3,), ("g1", "b"): (9,)}
    pages = {("q1", "g1"): PageScoreRow("q1", "g1", ((3, .9), (9, .8)))}
    at10 = {"q1": RankingRow("q1", tuple(_at(10, "g1")), tuple(range(10, 0, -1)))}
    at11 = {"q1": RankingRow("q1", tuple(_at(11, "g1")), tuple(range(11, 0, -1)))}
    assert gold_support(at10, pages, queries, sets, support)["success_count"] == 1
    r11 = gold_support(at11, pages, queries, sets, support)
    assert r11["success_count"] == 0 and r11["hit_queries"] == 0


def test_rank_10_boundary_agrees_with_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {"q": {"g1": 2, "g2": 2, "s1": 1}}
    for position in (10, 11):
        docs = _at(position, "g1")
        run = {"q": {d: float(100 - i) for i, d in enumerate(docs)}}
        ref = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_10"}).evaluate(run)["q"]["ndcg_cut_10"]
        assert graded_ndcg(docs, qrels["q"]) == pytest.approx(ref, abs=1e-12), position
        gold_only = {"q": {"g1": 1, "g2": 1}}
        ref = pytrec_eval.RelevanceEvaluator(gold_only, {"ndcg_cut_10"}).evaluate(run)["q"]["ndcg_cut_10"]
        assert gold_ndcg(docs, {"g1", "g2"}) == pytest.approx(ref, abs=1e-12), position


# where a list of measures may be spelled: the table, and the paper's own column layouts, which the paper audit
# binds cell by cell (a new measure adds no published column)
MEASURE_LISTS_ALLOWED = ("nclue/core/measures.py", "nclue/paperaudit/results.py")


def _measure_lists(source, names):
    """Lines of literal collections (or of text) naming four or more measures: a hand-kept list of them."""
    import ast
    import re
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
            words = {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
            if len(words & names) >= 4:
                found.add(node.lineno)
    for number, line in enumerate(source.splitlines(), 1):
        if len(set(re.findall(r"\w+", line)) & names) >= 4:
            found.add(number)
    return sorted(found)


def test_no_module_or_test_keeps_its_own_list_of_the_measures():
    """The metric recipe is one row of nclue/core/measures.py (docs/recipes.md#a-metric): no other module and
    no test lists the measures by name, so a new row needs no edit elsewhere (re-followed for issue 38, where a
    doctest and three assertions of tests/test_score.py did)."""
    import os

    from nclue.core.measures import MEASURES
    names = set(MEASURES)
    offences = []
    for folder in ("nclue", "tests"):
        for root, _, files in sorted(os.walk(os.path.join(REPO, folder))):
            for name in sorted(files):
                rel = os.path.relpath(os.path.join(root, name), REPO).replace(os.sep, "/")
                if name.endswith(".py") and rel not in MEASURE_LISTS_ALLOWED and rel != "tests/test_metrics.py":
                    with open(os.path.join(root, name), encoding="utf-8") as handle:
                        offences += ["%s:%d" % (rel, n) for n in _measure_lists(handle.read(), names)]
    assert offences == []
    probe = 'rows = ("nclue_score_at_10", "gold_hit_at_10", "gold_ndcg_at_10", "pairwise_auc")\n'
    assert _measure_lists(probe, names) == [1]
    assert _measure_lists('"""is not one of nclue_score_at_10, success_count, gold_hit_at_10, hit_count"""', names) == [1]
