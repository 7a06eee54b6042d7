"""stats/robustness.py worked by hand: the mutants mutmut left alive or uncovered (docs/recipes.md#mutation-testing),
each killed here or listed as equivalent in tests/mutants_equivalent_stats.txt."""

from array import array
from types import SimpleNamespace

import pytest
from conftest import ScriptedStream

from nclue.core.errors import StatisticsError
from nclue.core.rng import Stream
from nclue.stats import robustness
from nclue.stats.robustness import (
    crossed_and_query_only,
    crossed_bootstrap,
    crossed_intervals,
    crossed_statistics,
    crossed_weights,
    drop_top_degree,
    drop_top_degree_orders,
    leave_one_document_range,
    promotion_bounds,
)

# --- the crossed bootstrap ------------------------------------------------------------------------------------------

def test_crossed_bootstrap_passes_its_scale_on():
    """One draw, w = (2, 0), v = (2, 0): W = (4, 0), so the statistic is scale * 0.3."""
    dist = crossed_bootstrap([[0.3, -0.1]], [[0], [1]], 2, ScriptedStream([[0, 0], [0, 0]]), 1, scale=1.0)
    assert dist == [[0.3]]


def test_crossed_differences_are_checked_by_name():
    with pytest.raises(StatisticsError, match=r"^crossed_bootstrap needs one difference per query in every vector$"):
        crossed_bootstrap([[1, 0, 1]], [[0], [1]], 2, Stream(1), 2)
    for bad in (float("nan"), float("inf")):
        with pytest.raises(StatisticsError, match=r"^crossed_bootstrap needs finite differences$"):
            crossed_bootstrap([[1, bad]], [[0], [1]], 2, Stream(1), 2)
    with pytest.raises(StatisticsError, match=r"^crossed_bootstrap needs one difference per query in every vector$"):
        crossed_statistics([[1.0]], [array("d", [1.0, 1.0])])


def test_crossed_and_query_only_by_hand():
    """Draw 1: w = (1, 1), v = (2, 0): crossed W = (1 * 2, 1 * 0) = (2, 0) -> 100 * 0.3; query-only (1, 1) ->
    100 * (0.3 - 0.1) / 2.  Draw 2: w = (0, 2), v = (1, 1): crossed (0, 2) and query-only (0, 2) -> 100 * -0.1."""
    stream = ScriptedStream([[0, 1], [0, 0], [1, 1], [0, 1]])
    crossed, query_only = crossed_and_query_only([[0.3, -0.1]], [[0], [1]], 2, stream, 2)
    assert crossed == [pytest.approx([30.0, -10.0], abs=1e-12)]
    assert query_only == [pytest.approx([10.0, -10.0], abs=1e-12)]
    stream = ScriptedStream([[0, 1], [0, 0]])
    assert crossed_and_query_only([[0.3, -0.1]], [[0], [1]], 2, stream, 1, scale=1.0) == (
        [[0.3]], [[(0.3 - 0.1) / 2]])
    with pytest.raises(StatisticsError, match=r"^crossed_bootstrap needs one difference per query in every vector$"):
        crossed_and_query_only([[0.3]], [[0], [1]], 2, Stream(1), 1)


def test_crossed_weights_when_member_sums_pass_255():
    """A query on all 300 documents: its member sum is the whole draw, 300 (more than a byte), so W = w_q exactly;
    the other query is on document 0 alone (W = w_q * v_0)."""
    stream = Stream(3)
    weights = crossed_weights([list(range(300)), [0]], 300, stream, 4)
    replay = Stream(3)
    for w in weights:
        wq = [0, 0]
        for i in replay.randbelow_batch(2, 2):
            wq[i] += 1
        v0 = replay.randbelow_batch(300, 300).count(0)
        assert list(w) == [float(wq[0]), float(wq[1] * v0)]


class _BigEndianArray(array):
    """array('I') as a big-endian host stores it: bytes out and in are big-endian words."""

    def tobytes(self):
        copy = array(self.typecode, self)
        copy.byteswap()
        return copy.tobytes()

    def frombytes(self, raw):
        tmp = array(self.typecode)
        tmp.frombytes(raw)
        tmp.byteswap()
        self.extend(tmp)


def test_member_sums_swap_their_lanes_on_a_big_endian_host(monkeypatch):
    """On a big-endian host the packed lanes are byteswapped to little-endian and back: the weights are the same
    numbers as on a little-endian one (member sums past 255, so an unswapped lane would carry into the next)."""
    expected = [list(w) for w in crossed_weights([list(range(300)), [0, 1]], 300, Stream(4), 3)]
    monkeypatch.setattr(robustness, "array", _BigEndianArray)
    monkeypatch.setattr(robustness, "sys", SimpleNamespace(byteorder="big"))     # this module's view only
    assert [list(w) for w in crossed_weights([list(range(300)), [0, 1]], 300, Stream(4), 3)] == expected


def test_crossed_statistics_default_scale_and_zero_total():
    w = [array("d", [1.0, 3.0]), array("d", [0.0, 0.0])]
    assert crossed_statistics([[1, 0]], w) == [[25.0, 0.0]]
    assert crossed_statistics([[1, 0]], w, scale=1.0, totals=[2.0, 0.0]) == [[0.5, 0.0]]


def test_signed_differences_are_the_positive_weights_minus_the_negative_ones():
    """Vectors of -1, 0, 1: fsum(W+) - fsum(W-) = fsum(0.1, 0.2) - 0.3 = 0.30000000000000004 - 0.3 (5.55e-17), not
    the exactly rounded fsum(0.1, 0.2, -0.3) = 2.78e-17 of the general branch; a vector with a 2 takes that one."""
    w = [array("d", [0.1, 0.2, 0.3, 0.5])]
    assert crossed_statistics([[1, 1, -1, 0]], w, scale=1.0, totals=[1.0]) == [[(0.1 + 0.2) - 0.3]]
    assert crossed_statistics([[0, 1, 1, -1]], w, scale=1.0, totals=[1.0]) == [[(0.2 + 0.3) - 0.5]]
    assert crossed_statistics([[1, 1, -1, 2]], w, scale=1.0, totals=[1.0]) == [[2.7755575615628914e-17 + 1.0]]
    assert crossed_statistics([[-2, 0, 1, 0]], w, scale=1.0, totals=[1.0]) == [[-0.2 + 0.3]]


def test_crossed_intervals_pass_level_and_scale_on():
    """One draw, statistic scale * 0.3 (as above): the interval is that single value at any level."""
    stream = ScriptedStream([[0, 0], [0, 0], [0, 1], [0, 1]])
    lo, hi = crossed_intervals([[0.3, -0.1]], [[0], [1]], 2, stream, 2, level=0.5, scale=1.0)[0]
    # draws: 0.3 and (0.3 - 0.1) / 2 = 0.1; type-7 quantiles at 0.25 and 0.75 of (0.1, 0.3)
    assert lo == pytest.approx(0.15, abs=1e-12) and hi == pytest.approx(0.25, abs=1e-12)


# --- leave one document out, drop the top degrees --------------------------------------------------------------------

def test_leave_one_document_range_with_an_ungolded_document_and_ties():
    """Documents in sorted order: a is gold for every query (skipped, and the next ones still visited), x is
    gold for none (leaving it out leaves the whole mean), b and c tie at the highest value (the first one is
    named)."""
    delta = [1, 0, 1, 0]
    gold = [{"a", "b"}, {"a", "c"}, {"a"}, {"a", "d"}]
    lo, hi, at_lo, at_hi = leave_one_document_range(delta, gold, ["x", "a", "b", "c", "d"], scale=1.0)
    # b: [0, 1, 0] -> 1/3; c: [1, 1, 0] -> 2/3; d: [1, 0, 1] -> 2/3; x: 1/2
    assert (lo, at_lo, at_hi) == (pytest.approx(1 / 3), "b", "c") and hi == pytest.approx(2 / 3)
    tied = leave_one_document_range([1, 1, 0], [{"p"}, {"q"}, {"r"}], ["p", "q", "r"], scale=1.0)
    assert tied == (0.5, 1.0, "p", "r")


def test_drop_top_degree_ranks_by_degree_then_id():
    """Degrees z: 3, b: 2, a: 2, c: 1.  The top 1 is z (not the first id a); the top 2 breaks the a/b tie by id."""
    gold = [{"z"}, {"z", "b"}, {"z", "a"}, {"a"}, {"b"}, {"c"}, set()]
    delta = [1, 1, 1, 0, 1, 0, 1]
    value, left, top = drop_top_degree(delta, gold, 1)
    assert top == ["z"] and left == 4 and value == 50.0                 # kept: 0, 1, 0, 1
    value, left, top = drop_top_degree(delta, gold, 2, scale=1.0)
    assert top == ["z", "a"] and left == 3 and value == pytest.approx(2 / 3)   # kept: 1, 0, 1
    gold_order = [{"b"}, {"a"}]
    assert drop_top_degree([1, 0], gold_order, 1)[2] == ["a"]           # tie at degree 1: a before b


def test_drop_top_degree_default_k_is_20():
    """25 documents of degrees 25..1 (document i gold for queries i..24): the default k = 20 drops the first 20
    documents, so only queries 0..23 involving them go and query 24 ... every query involves document 0: None."""
    ids = ["d%02d" % i for i in range(25)]
    gold = [set(ids[:24 - q]) for q in range(24)] + [set()]    # degree of d_i: 24 - i, query 24 has no gold
    delta = [0] * 24 + [1]
    value, left, top = drop_top_degree(delta, gold)
    assert top == ids[:20] and left == 1 and value == 100.0


def test_drop_top_degree_with_every_query_dropped_is_undefined():
    assert drop_top_degree([1, 0], [{"a"}, {"a"}], 1) == (None, 0, ["a"])


# --- every tie order -------------------------------------------------------------------------------------------------

def test_tie_orders_of_the_module_example():
    assert drop_top_degree_orders([1, 0, 1], [{"a"}, {"b"}, {"c"}], k=1, scale=1.0) == \
        ([0.5, 1.0, 0.5], [2, 2, 2], 3, 3, 1, True)


def test_tie_orders_with_documents_above_the_tied_degree():
    """Degrees a: 3, b: 2, c: 2, d: 1; k = 2 drops a and one of b, c.  Queries: 0 {a}, 1 {a, b}, 2 {a, c}, 3 {b},
    4 {c}, 5 {d}, 6 {} with differences 1, 1, 1, 1, 0, 0, 1.  Dropping a and b keeps 4, 5, 6 (0, 0, 1); dropping a
    and c keeps 3, 5, 6 (1, 0, 1)."""
    gold = [{"a"}, {"a", "b"}, {"a", "c"}, {"b"}, {"c"}, {"d"}, set()]
    delta = [1, 1, 1, 1, 0, 0, 1]
    values, lefts, orders, tied, slots, enumerated = drop_top_degree_orders(delta, gold, k=2)
    assert values == pytest.approx([100 / 3, 200 / 3]) and lefts == [3, 3]
    assert (orders, tied, slots, enumerated) == (2, 2, 1, True)
    # k = 1: only a, no tie straddles the cut: one order, reported as no tie
    assert drop_top_degree_orders(delta, gold, k=1, scale=1.0) == ([0.5], [4], 1, 0, 0, True)
    # k = 3: a, b, c (d below): one order
    assert drop_top_degree_orders(delta, gold, k=3, scale=1.0) == ([0.5], [2], 1, 0, 0, True)


def test_tie_orders_at_the_edges_of_k():
    """k at least the number of gold documents drops every one of them (one order); k <= 0 drops nothing."""
    gold = [{"a"}, {"b"}, set()]
    assert drop_top_degree_orders([1, 0, 0.5], gold, k=2, scale=1.0) == ([0.5], [1], 1, 0, 0, True)
    assert drop_top_degree_orders([1, 0, 0.5], gold, k=5, scale=1.0) == ([0.5], [1], 1, 0, 0, True)
    assert drop_top_degree_orders([1, 0, 0.5], gold, k=0, scale=1.0) == ([0.5], [3], 1, 0, 0, True)
    assert drop_top_degree_orders([1, 0, 0.5], gold, k=-1) == ([50.0], [3], 1, 0, 0, True)
    assert drop_top_degree_orders([1, 0], [{"a"}, {"b"}], k=2) == ([None], [0], 1, 0, 0, True)
    assert drop_top_degree_orders([1, 0], [{"a"}, {"a"}], k=1) == ([None], [0], 1, 0, 0, True)


def test_tie_orders_beyond_max_orders_take_the_first_and_last_by_id():
    """Five documents tied at degree 1, k = 2: C(5, 2) = 10 orders.  With max_orders = 9 only {a, b} and {d, e};
    with max_orders = 10 all ten, in combinations order."""
    gold = [{"e"}, {"d"}, {"c"}, {"b"}, {"a"}]
    delta = [1.0, 2.0, 3.0, 4.0, 5.0]
    values, lefts, orders, tied, slots, enumerated = drop_top_degree_orders(delta, gold, k=2, scale=1.0,
                                                                            max_orders=9)
    assert values == [2.0, 4.0] and lefts == [3, 3] and (orders, tied, slots, enumerated) == (10, 5, 2, False)
    values, lefts, orders, tied, slots, enumerated = drop_top_degree_orders(delta, gold, k=2, scale=1.0,
                                                                            max_orders=10)
    assert enumerated is True and orders == 10 and len(values) == 10 and lefts == [3] * 10
    assert values[0] == 2.0 and values[-1] == 4.0 and values[1] == pytest.approx(7 / 3)   # {a, c}: keeps 1, 2, 4
    assert drop_top_degree_orders(delta, gold, k=2)[3:] == (5, 2, True)                    # the default cap: 5000


def test_tie_order_means_are_rounded_once_from_the_exact_kept_sum():
    """The kept sum is exact: 0.1 + 0.2 + 0.3 with 0.7 dropped gives 0.6 / 3 = 0.19999999999999998 (a running float
    sum, 0.1 + 0.2 + 0.3 + 0.7 - 0.7, would give 0.6000000000000001 / 3)."""
    gold = [set(), set(), set(), {"a"}, {"b"}]
    delta = [0.1, 0.2, 0.3, 0.7, 0.0]
    values, lefts, *_ = drop_top_degree_orders(delta, gold, k=1, scale=1.0)
    assert values == [0.6 / 4, (0.1 + 0.2 + 0.3 + 0.7) / 4] and lefts == [4, 4]
    assert values[0] == drop_top_degree(delta, gold, 1, scale=1.0)[0]


# --- promotion bounds ------------------------------------------------------------------------------------------------

def test_promotion_bounds_default_depth_and_a_list_with_neither_gold_nor_subset():
    """k_max = 3 by default (four bounds).  A base list with no gold and no subset document fails, so the variant's
    success counts +1 and nothing in the base can be promoted."""
    gold, subset = {"g"}, {"s"}
    assert promotion_bounds([["x", "y"]], [["g"]], [gold], [subset]) == [100.0, 100.0, 100.0, 100.0]
    assert promotion_bounds([["x"]], [["x"]], [gold], [subset], k_max=1) == [0.0, 0.0]


def test_promotion_bounds_read_the_base_past_a_document_that_is_neither():
    """Base x, s (x neither gold nor subset), variant u, g: both fail at k = 0 (the variant meets the subset u
    first).  Promoting s makes the base succeed, read past x, while the variant still fails: -1 at k = 1.  Base t, s,
    u against the same variant: promoting t (the first candidate) gives -1 at once."""
    gold, subset = {"g"}, {"s", "t", "u"}
    assert promotion_bounds([["x", "s"]], [["u", "g"]], [gold], [subset], k_max=1) == [0.0, -100.0]
    assert promotion_bounds([["t", "s", "u"]], [["u", "g"]], [gold], [subset], k_max=2) == [0.0, -100.0, -100.0]


def test_no_draws_give_no_weights():
    """n_draws = 0: no weights and empty distributions, for queries with members too (the direct sum over no
    draws, not the packed lanes, which have no column to index)."""
    assert crossed_weights([[0], [0, 1]], 2, Stream(1), 0) == []
    assert crossed_and_query_only([[1, 0]], [[0], [0, 1]], 2, Stream(1), 0) == ([[]], [[]])


def test_tie_orders_rank_by_degree_not_by_id():
    """z is gold for 3 queries, b and c for 2, a for 1: k = 1 is z alone (no tie), though a comes first by id."""
    gold = [{"z"}, {"z", "b"}, {"z", "c"}, {"b"}, {"c"}, {"a"}]
    delta = [1, 1, 1, 0, 0, 1]
    assert drop_top_degree_orders(delta, gold, k=1, scale=1.0) == ([1 / 3], [3], 1, 0, 0, True)


def test_tie_orders_with_k_zero_and_unequal_degrees_drop_nothing():
    assert drop_top_degree_orders([1, 0, 0], [{"a"}, {"a"}, {"b"}], k=0, scale=3.0) == ([1.0], [3], 1, 0, 0, True)


def test_tie_orders_that_drop_every_query_are_undefined():
    """a and b tie at degree 2 and each is gold for both queries: either choice drops everything."""
    assert drop_top_degree_orders([1, 0], [{"a", "b"}, {"a", "b"}], k=1) == ([None, None], [0, 0], 2, 2, 1, True)


def test_tie_orders_default_k_is_20():
    """21 documents of degree 1 (one query each) and a query with no gold: k = 20 leaves C(21, 20) = 21 orders
    of 20 of them, each keeping 2 queries; k = 21 would drop all 21 in one order."""
    gold = [{"d%02d" % i} for i in range(21)] + [set()]
    delta = [0] * 21 + [1]
    values, lefts, orders, tied, slots, enumerated = drop_top_degree_orders(delta, gold)
    assert (orders, tied, slots, enumerated) == (21, 21, 20, True) and lefts == [2] * 21
    assert values == [50.0] * 21


def test_promotion_bounds_at_depth_zero_are_the_plain_difference():
    """k_max = 0: no promotion at all, one bound; the base fails (a subset first), the variant succeeds."""
    assert promotion_bounds([["s", "g"], ["g"]], [["g"], ["g"]], [{"g"}, {"g"}], [{"s"}, {"s"}], k_max=0) == [50.0]
