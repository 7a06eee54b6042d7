"""labelaudit/challenge.py worked by hand: the mutants mutmut left alive (docs/recipes.md#mutation-testing), each
killed here or listed as equivalent in tests/mutants_equivalent_stats.txt."""

import math

import pytest

from nclue.labelaudit.challenge import control_frame, gap_change, targets

D2 = 1 / math.log2(3)          # the discount at rank 2


def test_gap_change_at_depth_two_by_hand():
    """Fusion a, d, x and BM25 d, a, x with gold {x} at k = 2: no gold in either top 2 before (0 - 0); after d joins
    the gold (ideal 1 + D2): fusion has d at 2, BM25 d at 1, so the change is (D2 - 1) / (1 + D2).  At depth 10 every
    term would differ (x at rank 3 counts)."""
    change = gap_change(["a", "d", "x"], ["d", "a", "x"], {"x"}, "d", k=2)
    assert change == pytest.approx((D2 - 1) / (1 + D2), abs=1e-15)
    assert gap_change(["a", "d", "x"], ["d", "a", "x"], {"x"}, "d") == pytest.approx(
        ((D2 + 0.5) - 1.5) / (1 + D2) - (0.5 - 0.5), abs=1e-15)


def test_targets_at_depth_one_with_more_golds_than_k():
    """n = 2, golds x and y, subset d.  k = 1: fusion's top is x, BM25's is d.  Promoting d: before 1 - 0, after
    1 - 1 (ideal at depth 1 is one gold), change -1.  At depth 10 the ideal would hold all golds."""
    got = targets({"q": 2}, {"q": {"x": 2, "y": 2, "d": 1}}, {"q": ["x", "y"]}, {"q": ["d", "x"]}, k=1)
    assert got == [("q", "d", -1.0)]


def test_targets_take_the_union_of_the_two_tops_and_skip_missing_queries():
    """d is a subset only in BM25's top (not fusion's): it is still a candidate.  q2 has no qrels, q3 no rankings:
    neither gives a target nor an error."""
    queries = {"q1": 2, "q2": 2, "q3": 2}
    qrels = {"q1": {"x": 2, "d": 1}, "q3": {"x": 2, "d": 1}}
    got = targets(queries, qrels, {"q1": ["x"], "q2": ["x"]}, {"q1": ["d", "x"], "q2": ["x"]})
    (qid, docid, change), = got
    # before: fusion 1 (x at 1), BM25 D2 (x at 2); after (ideal 1 + D2): fusion 1 / (1 + D2), BM25 1
    assert (qid, docid) == ("q1", "d") and change == pytest.approx((1 / (1 + D2) - 1) - (1 - D2), abs=1e-15)
    # no fusion ranking for q: before 0 - D2, after 0 - 1
    (qid, docid, change), = targets({"q": 2}, {"q": {"x": 2, "d": 1}}, {}, {"q": ["d", "x"]})
    assert (qid, docid) == ("q", "d") and change == pytest.approx(D2 - 1, abs=1e-15)


def test_a_promotion_that_leaves_the_gap_unchanged_is_no_target():
    """Identical rankings: promotion moves both systems alike, the change is exactly 0, not a target."""
    assert targets({"q": 2}, {"q": {"x": 2, "d": 1}}, {"q": ["d", "x"]}, {"q": ["d", "x"]}) == []


def test_control_frame_leaves_out_either_system_s_top():
    """q1's judged documents: a (fusion's top), b (BM25's top), c (neither): only c; q2 has no rankings, all its
    judged pairs are controls; q3 has no qrels."""
    queries = {"q1": 2, "q2": 2, "q3": 2}
    qrels = {"q1": {"a": 2, "b": 1, "c": 1}, "q2": {"e": 1, "d": 2}}
    frame = control_frame(queries, qrels, {"q1": ["a", "z"]}, {"q1": ["b"], "q3": ["a"]})
    assert frame == [("q1", "c"), ("q2", "d"), ("q2", "e")]
    assert control_frame({"q": 2}, {"q": {"a": 1, "b": 1}}, {"q": ["x", "a"]}, {"q": ["b"]}, k=1) == [("q", "a")]
