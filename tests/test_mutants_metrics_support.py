"""core/metrics' Gold+Support@k and common-support ordering (paper section 4.4, Table 8; docs/metrics.md) worked by
hand on five queries: the page cut at three distinct pages, a non-gold before a gold, the best-covered gold of a
query, queries with no row, no page scores or no top-k gold, and the common queries of two systems -- the kills of
the mutants mutmut left alive in gold_support and common_support (docs/recipes.md#mutation-testing)."""

import math
from types import SimpleNamespace

import pytest

from nclue.core.metrics import (
    INF,
    Outcomes,
    common_support,
    gold_support,
    ideal_graded_dcg,
    length_bin,
    length_matched_auc,
    standard_outcomes,
    standard_values,
    top_pages,
)


def _query(*cids):
    return SimpleNamespace(n=len(cids), conditions=tuple(SimpleNamespace(cid=c) for c in cids))


def _row(*docids):
    return SimpleNamespace(docids=tuple(docids))


def _pages(*pages):
    """A best-first page score row: ``pages`` in order, with falling scores."""
    return SimpleNamespace(pages=tuple((p, 1.0 - i / 100) for i, p in enumerate(pages)))


QUERIES = {"q1": _query("a", "b"), "q2": _query("a", "b"), "q3": _query("a", "b", "c"), "q4": _query("a", "b"),
           "q5": _query("a", "b")}
SETS = {"q1": ({"g1", "h1"}, {"s1"}), "q2": ({"g2"}, set()), "q3": ({"g3"}, set()), "q4": ({"g4"}, set()),
        "q5": ({"g5"}, {"s5"})}
RANKING = {
    "q1": _row("x", "s1", "g1", "h1"),    # a non-gold and a subset first; g1 covers one condition, h1 both
    "q2": _row("g2"),                     # a gold without page scores: it covers nothing
    "q3": _row("g3"),                     # two of three conditions
    "q5": _row("s5", "y"),                # no gold in the ranking; q4 has no row at all
}
PAGE_SCORES = {
    ("q1", "g1"): _pages(1, 1, 2, 3, 4),  # distinct pages 1, 2, 3; page 4 (the fourth) is cut
    ("q1", "h1"): _pages(6, 5),
    ("q3", "g3"): _pages(7, 8, 9),
    ("q5", "s5"): _pages(1),
}
SUPPORT = {("g1", "a"): (3,), ("g1", "b"): (4,), ("h1", "a"): (5, 50), ("h1", "b"): (6,),
           ("g3", "a"): (7,), ("g3", "b"): (9, 8), ("g3", "c"): (10,), ("g2", "a"): (1,), ("s5", "a"): (1,)}


def test_top_pages_keeps_the_first_three_distinct_pages():
    assert top_pages([(1, .9), (1, .8), (2, .7), (3, .6), (4, .5)]) == [1, 2, 3]
    assert top_pages([(5, .9), (5, .8)]) == [5]
    assert top_pages([]) == []
    assert top_pages([(1, .9), (2, .8), (3, .7)], limit=2) == [1, 2]
    assert top_pages([(1, .9), (1, .8), (2, .7)], limit=1) == [1]


def test_gold_support_by_hand():
    """q1: g1's three pages 1, 2, 3 meet condition a (page 3) but not b (page 4 is the fourth distinct page), h1's
    pages 6, 5 meet both: its best gold covers 2 of 2.  q2: 0 of 2.  q3: pages 7, 8, 9 meet a and b, not c: 2 of 3.
    q4 and q5: no top-k gold.  Success 1 of 5 queries; 3 queries with a gold; coverage (1 + 0 + 2/3) / 3."""
    r = gold_support(RANKING, PAGE_SCORES, QUERIES, SETS, SUPPORT)
    assert (r["queries"], r["success_count"], r["hit_queries"]) == (5, 1, 3)
    assert r["gold_support"] == 20.0
    assert r["condition_coverage"] == pytest.approx(100.0 * (1 + 0 + 2 / 3) / 3, rel=1e-12)
    assert r["full_coverage"] == pytest.approx(100.0 / 3, rel=1e-12)
    assert sorted(r) == ["condition_coverage", "full_coverage", "gold_support", "hit_queries", "queries",
                         "success_count"]


def test_the_best_gold_wins_whatever_its_rank():
    """Only the gold covering most counts: h1 (both) after g1 (one), or g1 after h1."""
    for order in (("g1", "h1"), ("h1", "g1")):
        r = gold_support({"q1": _row(*order)}, PAGE_SCORES, {"q1": QUERIES["q1"]}, SETS, SUPPORT)
        assert (r["success_count"], r["hit_queries"], r["condition_coverage"], r["full_coverage"]) == (
            1, 1, 100.0, 100.0)
    r = gold_support({"q1": _row("g1", "x")}, PAGE_SCORES, {"q1": QUERIES["q1"]}, SETS, SUPPORT)
    assert (r["success_count"], r["hit_queries"], r["condition_coverage"], r["full_coverage"]) == (0, 1, 50.0, 0.0)


def test_gold_support_cuts_the_ranking_at_k():
    queries = {"q1": QUERIES["q1"]}
    r = gold_support(RANKING, PAGE_SCORES, queries, SETS, SUPPORT, k=3)               # x, s1, g1: g1 only
    assert (r["success_count"], r["hit_queries"], r["condition_coverage"], r["full_coverage"]) == (0, 1, 50.0, 0.0)
    r = gold_support(RANKING, PAGE_SCORES, queries, SETS, SUPPORT, k=2)
    assert (r["success_count"], r["gold_support"], r["hit_queries"]) == (0, 0.0, 0)
    assert r["condition_coverage"] is None and r["full_coverage"] is None
    late = {"q1": _row(*["x%d" % i for i in range(10)] + ["h1"])}                   # h1 at rank 11
    assert gold_support(late, PAGE_SCORES, queries, SETS, SUPPORT)["hit_queries"] == 0
    at10 = {"q1": _row(*["x%d" % i for i in range(9)] + ["h1"])}
    assert gold_support(at10, PAGE_SCORES, queries, SETS, SUPPORT)["success_count"] == 1


def test_gold_support_of_no_queries_is_undefined():
    assert gold_support({}, {}, {}, {}, {}) == {"queries": 0, "success_count": 0, "gold_support": None,
                                                 "hit_queries": 0, "condition_coverage": None,
                                                 "full_coverage": None}


def test_a_single_full_query_counts_once():
    queries = {"q3": QUERIES["q3"]}
    support = dict(SUPPORT)
    support[("g3", "c")] = (9,)
    r = gold_support(RANKING, PAGE_SCORES, queries, SETS, support)
    assert r == {"queries": 1, "success_count": 1, "gold_support": 100.0, "hit_queries": 1,
                 "condition_coverage": 100.0, "full_coverage": 100.0}


def _outcomes(success, hit):
    count = len(success)
    return Outcomes(tuple("q%d" % i for i in range(count)), (2,) * count, tuple(success), tuple(hit),
                    tuple(1 if h else INF for h in hit), (INF,) * count, (0.0,) * count, (0.0,) * count,
                    (None,) * count)


def test_common_support_by_hand():
    """Both systems find a gold on q0 and q1 only: D_base = 1/2, D_variant = 2/2 (q2's and q3's successes do not
    count); M/P/G over all four queries: base hit 3, success 2; variant hit 3, success 3."""
    base = _outcomes(success=(1, 0, 0, 1), hit=(1, 1, 0, 1))
    variant = _outcomes(success=(1, 1, 1, 0), hit=(1, 1, 1, 0))
    cs = common_support(base, variant)
    assert cs == {"common_queries": 2, "D_base": 50.0, "D_variant": 100.0, "delta_D": 50.0,
                  "base": {"M": 25.0, "P": 25.0, "G": 50.0}, "variant": {"M": 25.0, "P": 0.0, "G": 75.0}}
    back = common_support(variant, base)
    assert (back["D_base"], back["D_variant"], back["delta_D"]) == (100.0, 50.0, -50.0)


def test_common_support_without_common_queries_is_undefined():
    base = _outcomes(success=(1, 0), hit=(1, 0))
    variant = _outcomes(success=(0, 1), hit=(0, 1))
    cs = common_support(base, variant)
    assert (cs["common_queries"], cs["D_base"], cs["D_variant"], cs["delta_D"]) == (0, None, None, None)
    assert cs["base"] == {"M": 50.0, "P": 0.0, "G": 50.0} and cs["variant"] == {"M": 50.0, "P": 0.0, "G": 50.0}


def test_queries_without_a_gold_before_and_after_are_passed_over():
    """q0 (no row) sorts before q1 and q1b, both fully covered: 2 successes of 3, 2 full coverages of 2 hits."""
    queries = {"q0": QUERIES["q4"], "q1": QUERIES["q1"], "q1b": QUERIES["q1"], "q9": QUERIES["q5"]}
    sets = dict(SETS, q0=SETS["q4"], q1b=SETS["q1"], q9=SETS["q5"])
    ranking = {"q1": _row("h1"), "q1b": _row("h1"), "q9": RANKING["q5"]}
    pages = {("q1", "h1"): PAGE_SCORES[("q1", "h1")], ("q1b", "h1"): PAGE_SCORES[("q1", "h1")]}
    r = gold_support(ranking, pages, queries, sets, SUPPORT)
    assert r == {"queries": 4, "success_count": 2, "gold_support": 50.0, "hit_queries": 2,
                 "condition_coverage": 100.0, "full_coverage": 100.0}


# -- the standard measures and the ideal DCG (their survivors with this selection of tests)


def test_standard_values_by_hand():
    """Relevant a, b, c (grade >= 1; z has 0); ranked x, a, z, b: found at 2 and 4.  P@10 = 2/10, RR = 1/2,
    AP@10 = (1/2 + 2/4) / 3, R@10 = 2/3."""
    grades = {"a": 1, "b": 2, "c": 1, "z": 0}
    assert standard_values(["x", "a", "z", "b"], grades) == (0.2, 0.5, (0.5 + 0.5) / 3, 2 / 3)
    assert standard_values(["x", "a", "z", "b"], grades, k=2) == (0.5, 0.5, 0.5 / 3, 1 / 3)
    assert standard_values(["b", "a", "c"], grades) == (0.3, 1.0, 1.0, 1.0)
    assert standard_values(["x", "y", "z"], grades) == (0.0, 0.0, 0.0, 0.0)
    assert standard_values(["a"], {"z": 0}) == (0.0, 0.0, 0.0, 0.0)
    assert standard_values(["x", "y", "c"], {"c": 1, "d": 1, "e": 1, "f": 1}) == (0.1, 1 / 3, (1 / 3) / 4, 0.25)


def test_standard_outcomes_cut_at_ten_by_default():
    queries = {"q2": None, "q1": None, "q3": None}
    late = ["x%d" % i for i in range(10)] + ["a"]                       # a at rank 11
    ranking = {"q1": _row(*late), "q2": _row("a", "x", "b")}
    qrels = {"q1": {"a": 1}, "q2": {"a": 1, "b": 1}, "q3": {"a": 1}}
    assert standard_outcomes(ranking, queries, qrels) == {
        "precision": (0.0, 0.2, 0.0), "reciprocal_rank": (0.0, 1.0, 0.0),
        "average_precision": (0.0, (1 + 2 / 3) / 2, 0.0), "recall": (0.0, 1.0, 0.0)}
    assert standard_outcomes(ranking, queries, qrels, k=11)["recall"] == (1.0, 1.0, 0.0)


def test_ideal_graded_dcg_takes_ten_grades_by_default():
    grades = {"d%d" % i: 1 for i in range(11)}
    grades["z"] = 0
    ten = sum(1 / math.log2(i + 1) for i in range(1, 11))
    assert ideal_graded_dcg(grades) == pytest.approx(ten, rel=1e-12)
    assert ideal_graded_dcg(grades, k=11) == pytest.approx(ten + 1 / math.log2(12), rel=1e-12)
    assert ideal_graded_dcg({"a": 1, "b": 3}, k=1) == 3.0 and ideal_graded_dcg({"z": 0}) == 0.0


# -- the length-matched AUC (docs/analyses.md#v1diagnostics): outside the selected tests of the earlier runs


def test_length_bin_is_twice_log2_rounded_down():
    """floor(2 log2 p): 1 -> 0, 2 -> 2, 3 -> 3 (2 log2 3 = 3.17), 4 -> 4, 5 and 6 -> 4 and 5, 8 -> 6, 11 -> 6
    (6.92), 12 -> 7 (7.17), 1024 -> 20."""
    assert [length_bin(p) for p in (1, 2, 3, 4, 5, 6, 8, 11, 12, 1024)] == [0, 2, 3, 4, 4, 5, 6, 6, 7, 20]


def test_length_matched_auc_counts_pairs_within_a_bin_only():
    bins = {"g": 3, "h": 5, "s": 3, "t": 5, "u": 9}
    # bin 3: s (rank 1) before g (rank 2): lost; bin 5: h ranked, t not: won; u has no gold in its bin
    assert length_matched_auc(["s", "g", "h"], {"g", "h"}, {"s", "t", "u"}, bins) == (0.5, 2)
    assert length_matched_auc([], {"g"}, {"u"}, bins) == (None, 0)
    assert length_matched_auc(["g"], set(), {"s"}, bins) == (None, 0)


def test_length_matched_auc_over_bins_of_several_documents():
    """Bin 1: golds a, b x subset s (2 pairs), a ranked, b and s not: a wins (2), b ties s (1) -> 3 of 4 halves.
    Bin 2: gold c x subsets t, u, v (3 pairs), ranked t, c, u: c loses to t, beats u and v -> 4 of 6 halves.
    In all: 7 halves of 2 * 5 pairs."""
    bins = {"a": 1, "b": 1, "s": 1, "c": 2, "t": 2, "u": 2, "v": 2}
    assert length_matched_auc(["a", "t", "c", "u"], {"a", "b", "c"}, {"s", "t", "u", "v"}, bins) == (0.7, 5)


def test_length_matched_auc_cuts_the_ranking_at_ten_by_default():
    bins = {"g": 1, "s": 1}
    late = ["x%d" % i for i in range(10)] + ["g"]           # g at rank 11: unranked, a tie with s
    assert length_matched_auc(late, {"g"}, {"s"}, bins) == (0.5, 1)
    assert length_matched_auc(late, {"g"}, {"s"}, bins, k=11) == (1.0, 1)
    assert length_matched_auc(late[1:], {"g"}, {"s"}, bins) == (1.0, 1)
