"""stats/montecarlo.py worked by hand: the mutants mutmut left alive or uncovered (docs/recipes.md#mutation-testing),
each killed here or listed as equivalent in tests/mutants_equivalent_stats.txt.

The Maritz-Jarrett weights are cached per (n, q) in a module dict; the tests of their computation start from an
empty cache (``fresh``), so that they compute rather than read what an earlier test left there."""

import math

import pytest

from nclue.core.errors import StatisticsError
from nclue.stats import montecarlo, protocol
from nclue.stats.montecarlo import Estimate, TieOrders


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(montecarlo, "_WEIGHTS", {})


# --- reported, p_value_se, translated ------------------------------------------------------------------------------

def test_reported_passes_none_and_keeps_12_digits():
    assert montecarlo.reported(None) is None
    assert montecarlo.reported(1.0 / 3.0) == 0.333333333333
    assert montecarlo.reported(2.5e-20 / 3) == 8.33333333333e-21


def test_p_value_se_by_hand_and_its_guards():
    """sqrt(p (1 - p) / B) times the multiplier; p clamped to [0, 1]; one draw is enough, none is refused."""
    assert montecarlo.p_value_se(0.5, 1) == 0.5
    assert montecarlo.p_value_se(0.5, 100, 3) == pytest.approx(0.15, abs=1e-15)
    assert montecarlo.p_value_se(1.5, 100) == 0.0 and montecarlo.p_value_se(-0.2, 100) == 0.0
    for bad in (0, -5):
        with pytest.raises(StatisticsError, match=r"^a Monte Carlo p needs at least one draw$"):
            montecarlo.p_value_se(0.5, bad)


def test_translated_p_with_no_extreme_draw():
    """p = 1 / (B + 1) is c = 0 extreme draws: the paper's estimator at 1,000 draws expects 1 / 1001."""
    assert montecarlo.translated(1 / 101, 100, 1000) == pytest.approx(1 / 1001, abs=1e-15)
    assert montecarlo.translated(0.5 / 101, 100, 1000) == pytest.approx(1 / 1001, abs=1e-15)   # c < 0 clamps to 0


# --- the Maritz-Jarrett weights ------------------------------------------------------------------------------------

def test_log_choose_is_the_log_binomial_coefficient():
    for n, k in ((0, 0), (5, 0), (5, 5), (5, 1), (5, 2), (5, 3), (10, 7), (40, 13), (1000, 25), (1000, 975)):
        assert montecarlo._log_choose(n, k) == pytest.approx(math.log(math.comb(n, k)), rel=1e-13, abs=1e-13)
    assert montecarlo._log_choose(7, 0) == 0.0


def test_beta_cdfs_of_small_integer_parameters_by_hand():
    """I_x(1, 1) = x, I_x(2, 1) = x^2, I_x(1, 2) = 1 - (1 - x)^2, I_x(2, 2) = 3x^2 - 2x^3; 0 at or below 0 and 1 at or
    above 1."""
    xs = [-0.5, 0.0, 0.1, 0.25, 0.5, 0.9, 1.0, 1.5]
    cases = ((1, 1, lambda x: x), (2, 1, lambda x: x * x), (1, 2, lambda x: 1 - (1 - x) ** 2),
             (2, 2, lambda x: 3 * x * x - 2 * x ** 3), (3, 1, lambda x: x ** 3), (1, 3, lambda x: 1 - (1 - x) ** 3))
    for a, b, f in cases:
        got = montecarlo._beta_cdfs_integer(xs, a, b)
        assert got[:2] == [0.0, 0.0] and got[-2:] == [1.0, 1.0], (a, b)
        assert got[2:-2] == pytest.approx([f(x) for x in xs[2:-2]], rel=1e-14, abs=1e-15), (a, b)


def test_beta_cdfs_equal_scipy_in_both_tails():
    special = pytest.importorskip("scipy.special")
    xs = [i / 40 for i in range(1, 40)]
    for a, b in ((3, 40), (40, 3), (24, 975), (975, 24), (10, 10), (7, 8), (8, 7), (1, 50), (50, 1)):
        got = montecarlo._beta_cdfs_integer(xs, a, b)
        want = [float(special.betainc(a, b, x)) for x in xs]
        assert got == pytest.approx(want, rel=1e-11, abs=1e-14), (a, b)     # 1 - tail: 1e-16 absolute


def test_maritz_jarrett_weights_by_hand(fresh):
    """n = 3, q = 1/2: m = 2, I_x(1, 1) = x, weights 1/3 each.  n = 4, q = 1/2: m = 2, I_x(1, 2) = 1 - (1 - x)^2 at
    0, 1/4, 1/2, 3/4, 1 is 0, 7/16, 12/16, 15/16, 1: weights 7, 5, 3, 1 sixteenths."""
    first, w = montecarlo.maritz_jarrett_weights(3, 0.5)
    assert first == 0 and w == pytest.approx([1 / 3] * 3, abs=1e-15)
    first, w = montecarlo.maritz_jarrett_weights(4, 0.5)
    assert first == 0 and w == pytest.approx([7 / 16, 5 / 16, 3 / 16, 1 / 16], abs=1e-15)
    # n = 5, q = 0.5: m = 3, I_x(2, 2) = 3x^2 - 2x^3 at i / 5: 0, 13, 56, 104, 112, 125 (/125) before differencing
    first, w = montecarlo.maritz_jarrett_weights(5, 0.5)
    assert first == 0 and w == pytest.approx([13 / 125, 31 / 125, 37 / 125, 31 / 125, 13 / 125], abs=1e-15)


def test_maritz_jarrett_weights_are_trimmed_to_the_non_negligible_window(fresh):
    """n = 1000, q = 0.025 (m = 25): the weights are the increments of I_{i/n}(24, 975) (scipy; to 1e-14, the
    absolute accuracy of 1 - tail), the window's ends are above 1e-17 and what lies outside it is negligible."""
    special = pytest.importorskip("scipy.special")
    first, w = montecarlo.maritz_jarrett_weights(1000, 0.025)
    cdf = [float(special.betainc(24, 975, i / 1000)) for i in range(1001)]
    full = [max(0.0, cdf[i] - cdf[i - 1]) for i in range(1, 1001)]
    last = first + len(w) - 1
    assert 0 < first < 25 < last < 999
    assert w[0] > 1e-17 and w[-1] > 1e-17
    assert all(v <= 1e-14 for v in full[:first]) and all(v <= 1e-14 for v in full[last + 1:])
    assert w == pytest.approx(full[first:last + 1], rel=1e-9, abs=1e-14)
    assert math.fsum(w) == pytest.approx(1.0, abs=1e-12)


def test_maritz_jarrett_weights_are_cached_per_n_and_q(fresh):
    hit = montecarlo.maritz_jarrett_weights(50, 0.5)
    assert montecarlo.maritz_jarrett_weights(50, 0.5) is hit
    assert montecarlo.maritz_jarrett_weights(50, 0.25) is not hit and montecarlo.maritz_jarrett_weights(51, 0.5)[1] \
        != hit[1]


def test_maritz_jarrett_weights_need_a_quantile_inside_the_sample(fresh):
    """m = floor(q n + 1/2) must satisfy 2 <= m <= n - 1, and n >= 3; the message names n and q."""
    for n, q in ((2, 0.5), (10, 0.1), (10, 0.14), (10, 0.95), (100, 0.0), (100, 1.0)):
        with pytest.raises(StatisticsError, match=r"^a Maritz-Jarrett standard error needs 2 <= q n \+ 1/2 < n "
                                                  r"\(n = %d, q = %g\)$" % (n, q)):
            montecarlo.maritz_jarrett_weights(n, q)
    assert montecarlo.maritz_jarrett_weights(10, 0.15)[0] >= 0          # m = 2
    assert montecarlo.maritz_jarrett_weights(10, 0.94)[0] >= 0          # m = 9 = n - 1
    assert montecarlo.maritz_jarrett_weights(3, 0.5)[0] == 0            # n = 3, m = 2


def test_maritz_jarrett_se_by_hand(fresh):
    """n = 3, q = 1/2 (weights 1/3): 1, 2, 3 gives C1 = 2, C2 - C1^2 = 2/3.  n = 4 (weights 7, 5, 3, 1 /16) on
    0, 0, 0, 16: C1 = 1, C2 - C1^2 = 16 - 1 = 15."""
    assert montecarlo.maritz_jarrett_se([3.0, 1.0, 2.0], 0.5) == pytest.approx(math.sqrt(2 / 3), abs=1e-15)
    assert montecarlo.maritz_jarrett_se([16.0, 0.0, 0.0, 0.0], 0.5) == pytest.approx(math.sqrt(15), abs=1e-14)
    assert montecarlo.maritz_jarrett_se([float(i) for i in range(1, 101)], 0.5) == pytest.approx(5.0081, abs=5e-5)


def test_maritz_jarrett_se_normalises_by_the_weights_total(monkeypatch):
    """The trimmed weights need not sum to 1; the moments are taken over their total.  With weights 1 and 3 on the
    window x_(2), x_(3) = 1, 2: C1 = 7/4, the variance (1 * 0.75^2 + 3 * 0.25^2) / 4 = 3/16."""
    monkeypatch.setattr(montecarlo, "_WEIGHTS", {(4, 0.5): (1, [1.0, 3.0])})
    assert montecarlo.maritz_jarrett_se([10.0, 2.0, 0.0, 1.0], 0.5) == math.sqrt(3 / 16)


# --- Estimate, TieOrders, from_json ---------------------------------------------------------------------------------

def test_an_estimate_keeps_reported_values_and_drops_idle_alternatives():
    """exact defaults to False; an alternative of None or equal (to 12 digits) to the expected value is dropped."""
    e = Estimate("bootstrap", "percentile", 1000, 1000, expected=1.0 / 3, se=0.1 + 0.2, se_paper=0.2,
                 alternatives=[("none", None), ("same", 0.3333333333331), ("other", 0.5), ("x", 1)])
    assert e.exact is False
    assert e.alternatives == (("other", 0.5), ("x", 1.0))
    assert (e.expected, e.se, e.se_paper) == (0.333333333333, 0.3, 0.2)
    with pytest.raises(StatisticsError, match=r"^unknown Monte Carlo statistic 'mean'$"):
        Estimate("bootstrap", "mean", 1000, 1000, 1.0, 0.1, 0.1)


def test_an_estimate_in_json_and_back():
    e = Estimate("randomization", "p", 20000.0, 10000, expected=0.25, se=0.01, se_paper=0.02, exact=1,
                 alternatives=[(7, 0.5)])
    obj = e.as_json()
    assert obj == {"kind": "monte_carlo", "resampling": "randomization", "statistic": "p", "n_draws": 20000,
                   "paper_draws": 10000, "expected": 0.25, "se": 0.01, "se_paper": 0.02, "exact": True,
                   "alternatives": [["7", 0.5]]}
    back = montecarlo.from_json(obj)
    assert isinstance(back, Estimate) and back.as_json() == obj
    assert Estimate.from_json(obj).as_json() == obj


def test_an_estimate_scaled_to_another_unit():
    """Every value times the factor, every standard error times its absolute value; the rest kept."""
    e = Estimate("bootstrap", "percentile", 1000, 500, expected=0.25, se=0.01, se_paper=0.02, exact=True,
                 alternatives=[("a", 0.5)])
    s = e.scaled(-100)
    assert s.as_json() == {"kind": "monte_carlo", "resampling": "bootstrap", "statistic": "percentile",
                           "n_draws": 1000, "paper_draws": 500, "expected": -25.0, "se": 1.0, "se_paper": 2.0,
                           "exact": True, "alternatives": [["a", -50.0]]}


def test_tie_orders_by_hand():
    """The values distinct, sorted and reported to 12 digits, None dropped; counts as ints."""
    t = TieOrders([0.5, None, 0.25, 0.5, 1 / 3], 3.0, 20, 4, 2.0, enumerated=0)
    assert t.values == (0.25, 0.333333333333, 0.5)
    obj = t.as_json()
    assert obj == {"kind": "tie_orders", "values": [0.25, 0.333333333333, 0.5], "orders": 3, "rank": 20,
                   "tied": 4, "slots": 2, "enumerated": False}
    assert TieOrders([1.0], 1, 5, 0, 0).enumerated is True
    back = montecarlo.from_json(obj)
    assert isinstance(back, TieOrders) and back.as_json() == obj and TieOrders.from_json(obj).as_json() == obj
    scaled = t.scaled(100)
    assert scaled.as_json() == {"kind": "tie_orders", "values": [25.0, 33.3333333333, 50.0], "orders": 3,
                                "rank": 20, "tied": 4, "slots": 2, "enumerated": False}
    assert montecarlo.from_json(None) is None


# --- judge ---------------------------------------------------------------------------------------------------------

def _exact(expected, alternatives=()):
    return Estimate("randomization", "p", 10000, 10000, expected=expected, se=0.0, se_paper=0.0,
                    alternatives=alternatives)


def test_judge_uses_the_z_it_is_given():
    """se 0.003 and 0.004 combine to 0.005; with z = 1 the tolerance is 0.0005 + 0.005."""
    e = Estimate("randomization", "p", 10000, 10000, expected=0.1, se=0.003, se_paper=0.004)
    v = montecarlo.judge(0.11, 3, e, z=1.0)
    assert v.tolerance == pytest.approx(0.0055) and not v.consistent
    assert v.combined_se == pytest.approx(0.005) and v.difference == pytest.approx(0.01)
    assert montecarlo.judge(0.11, 3, e).consistent                                   # z = 3 by default


def test_judge_slack_is_relative_beyond_one_and_absolute_below():
    """Exact estimates shown with 0 decimals: tolerance 0.5.  The slack is 1e-12 * max(1, |published|): at 1000.5
    plus 5e-10 it is 1e-9 (consistent), at 0.5 + 1.5e-12 it is 1e-12 (not)."""
    assert montecarlo.judge(1000.0 + 0.5 + 5e-10, 0, _exact(1000.0)).consistent
    assert not montecarlo.judge(0.5 + 1.5e-12, 0, _exact(0.0)).consistent
    assert montecarlo.judge(0.5 + 0.5e-12, 0, _exact(0.0)).consistent


def test_judge_boundaries_are_inclusive_for_the_estimate_and_the_alternatives():
    """A difference of exactly tolerance + slack is consistent, and an alternative at exactly that distance is
    inside; one half a slack closer is inside too."""
    at = 0.5 + 1e-12                       # tolerance 0.5 + slack 1e-12, the same float the verdict computes
    assert montecarlo.judge(at, 0, _exact(0.0)).consistent
    v = montecarlo.judge(at, 0, _exact(5.0, [("alt", 0.0)]))
    assert v.inside == ("alt",) and not v.resolvable and not v.consistent
    v = montecarlo.judge(0.5 + 0.5e-12, 0, _exact(5.0, [("alt", 0.0)]))
    assert v.inside == ("alt",)


# --- declaring estimates -------------------------------------------------------------------------------------------

def test_p_estimate_from_an_exact_p():
    """Expected: the paper's estimator (1 + B p) / (B + 1) at B = 10,000, 5001 / 10001; se 0; se_paper binomial at
    the exact p, sqrt(0.25 / 10000)."""
    e = montecarlo.p_estimate(0.3, protocol.RANDOMIZATION, 20000, exact=0.5, alternatives=[("one-sided", 0.25)])
    assert e.as_json() == {"kind": "monte_carlo", "resampling": "randomization", "statistic": "p",
                           "n_draws": 20000, "paper_draws": 10000, "expected": 0.500049995, "se": 0.0, "se_paper": 0.005,
                           "exact": True, "alternatives": [["one-sided", 0.25]]}
    e = montecarlo.p_estimate(0.3, protocol.RANDOMIZATION, 20000, exact=0.0)
    assert e.expected == montecarlo.reported(1 / 10001)


def test_p_estimate_from_a_monte_carlo_p():
    """B = 10,000 = the paper's: expected is p itself, se = se_paper = the binomial SE (multiplier 1 by default)."""
    e = montecarlo.p_estimate(0.2, protocol.RANDOMIZATION, 10000, alternatives=[("raw", 0.1)])
    assert e.as_json() == {"kind": "monte_carlo", "resampling": "randomization", "statistic": "p",
                           "n_draws": 10000, "paper_draws": 10000, "expected": 0.2, "se": 0.004,
                           "se_paper": 0.004, "exact": False, "alternatives": [["raw", 0.1]]}


def test_p_estimate_with_a_given_expectation_and_a_determining_p():
    """A Holm-adjusted p (multiplier 3) whose raw p is 0.1 at 40,000 draws against the paper's 10,000: se = 3 *
    sqrt(0.09 / 40000) = 0.0045; the raw p seen at 10,000 draws is (1 + 10000 c / 40000) / 10001 with
    c = 0.1 * 40001 - 1, and se_paper is 3 times its binomial SE there."""
    e = montecarlo.p_estimate(0.3, protocol.RANDOMIZATION, 40000, expected=0.31, multiplier=3, determining=0.1)
    assert e.expected == 0.31 and e.se == pytest.approx(0.0045, abs=1e-15)
    seen = (1 + 10000 * (0.1 * 40001 - 1) / 40000) / 10001
    assert e.se_paper == montecarlo.reported(3 * math.sqrt(seen * (1 - seen) / 10000))
    default = montecarlo.p_estimate(0.3, protocol.RANDOMIZATION, 40000)
    seen = (1 + 10000 * (0.3 * 40001 - 1) / 40000) / 10001
    assert default.expected == montecarlo.reported(seen)
    assert default.se == montecarlo.reported(math.sqrt(0.3 * 0.7 / 40000))


def test_percentile_estimate_of_a_small_distribution(fresh):
    """1..100 at q = 1/2 (the module's example): the type-7 median 50.5, the Maritz-Jarrett SE at 100 draws, and the
    paper's (1,000 draws) SE sqrt(100 / 1000) of it."""
    dist = [float(i) for i in range(100, 0, -1)]
    se = montecarlo.maritz_jarrett_se(dist, 0.5)
    e = montecarlo.percentile_estimate(dist, 0.5, protocol.BOOTSTRAP, alternatives=[("query", 48.0)])
    assert e.as_json() == {"kind": "monte_carlo", "resampling": "bootstrap", "statistic": "percentile",
                           "n_draws": 100, "paper_draws": 1000, "expected": 50.5, "se": montecarlo.reported(se),
                           "se_paper": montecarlo.reported(se * math.sqrt(0.1)), "exact": False,
                           "alternatives": [["query", 48.0]]}
    assert e.se == pytest.approx(5.0081, abs=5e-5)


def test_log_choose_is_exactly_symmetric():
    """C(n, k) = C(n, n - k): the shorter product is taken either way, so the two logs are the same float, and
    log C(n, n - 1) is log n itself."""
    for n in range(1, 60):
        for k in range(n + 1):
            assert montecarlo._log_choose(n, k) == montecarlo._log_choose(n, n - k), (n, k)
        assert montecarlo._log_choose(n, n - 1) == math.log(n)


def test_beta_cdfs_sum_the_tail_that_is_small():
    """For a <= b the lower tail is summed and I = 1 - it: within an ulp of scipy where I is near 1 (a = b, and
    a = b - 1).  For a > b (a = b + 1) the upper tail is I itself: accurate to 1e-13 relative where I is tiny."""
    special = pytest.importorskip("scipy.special")
    for a, b, xs in ((10, 10, (0.8, 0.85, 0.9)), (9, 10, (0.8, 0.9))):
        got = montecarlo._beta_cdfs_integer(list(xs), a, b)
        for x, g in zip(xs, got):
            want = float(special.betainc(a, b, x))
            assert abs(g - want) <= math.ulp(want), (a, b, x)
    xs = [0.05, 0.1, 0.15]
    got = montecarlo._beta_cdfs_integer(xs, 11, 10)
    assert got == pytest.approx([float(special.betainc(11, 10, x)) for x in xs], rel=1e-13, abs=0)


def test_weights_of_at_most_1e_17_are_trimmed(monkeypatch, fresh):
    """The window starts and ends at the first and last weight above 1e-17: weights of exactly 1e-17 at either end
    are left out (the incomplete beta replaced by a scripted one: increments 1e-17, 0.5, 0, 1e-17)."""
    monkeypatch.setattr(montecarlo, "_beta_cdfs_integer", lambda xs, a, b: [0.0, 1e-17, 0.5, 0.0, 1e-17])
    assert montecarlo.maritz_jarrett_weights(4, 0.5) == (1, [0.5])


def test_enumerated_tie_orders_stay_enumerated_through_json_and_scaling():
    t = TieOrders([0.5], 2, 20, 2, 1, enumerated=True)
    assert TieOrders.from_json(t.as_json()).enumerated is True
    assert t.scaled(2).enumerated is True and t.scaled(2).values == (1.0,)
