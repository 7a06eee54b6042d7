"""stats/logistic.py worked by hand: the mutants mutmut left alive (docs/recipes.md#mutation-testing), each killed here
or listed as equivalent in tests/mutants_equivalent_stats.txt."""

import math
from decimal import Decimal, localcontext

import pytest

from nclue.core.errors import StatisticsError
from nclue.stats.logistic import FitError, _invert, _sigmoid, logistic_fit

SINGULAR = r"^singular normal equations \(collinear covariates or complete separation\)$"


def test_invert_pivots_on_the_largest_remaining_row():
    """Gauss-Jordan with partial pivoting, by hand: the identity (whose last row has a zero first entry), an upper
    triangle (whose finished first row holds the larger entry of column 2), a row with a 1.0 to eliminate."""
    assert _invert([[1.0, 0.0], [0.0, 1.0]]) == [[1.0, 0.0], [0.0, 1.0]]
    assert _invert([[1.0, 5.0], [0.0, 1.0]]) == [[1.0, -5.0], [0.0, 1.0]]
    assert _invert([[2.0, 0.0], [1.0, 1.0]]) == [[0.5, 0.0], [-0.5, 1.0]]
    assert _invert([[0.0, 1.0], [1.0, 0.0]]) == [[0.0, 1.0], [1.0, 0.0]]


def test_invert_breaks_a_pivot_tie_by_the_first_row():
    """[[1, 1], [1, 7]] has inverse [[7, -1], [-1, 1]] / 6; taking the first of the two rows tied at |1| gives it
    correctly rounded and symmetric (the later row gives 1.1666666666666665 and an asymmetric result)."""
    assert _invert([[1.0, 1.0], [1.0, 7.0]]) == [[7 / 6, -1 / 6], [-1 / 6, 1 / 6]]


def test_invert_refuses_a_pivot_below_1e_300_only():
    """The cut is strict: a pivot of exactly 1e-300 is inverted, a pivot of 0 is refused by name."""
    assert _invert([[1e-300]]) == [[1 / 1e-300]]
    assert _invert([[0.5]]) == [[2.0]]
    with pytest.raises(FitError, match=SINGULAR):
        _invert([[0.0]])


def test_collinear_covariates_are_refused_by_name():
    """A covariate equal to the intercept column makes X'WX singular at the first step."""
    with pytest.raises(FitError, match=SINGULAR):
        logistic_fit([[1.0], [1.0], [1.0]], [0, 1, 1])


def test_sigmoid_at_and_just_above_zero():
    """sigma(0) = 1/2; for 0 <= t the value is 1 / (1 + exp(-t)), correctly rounded at these points (checked against
    60-digit decimal arithmetic)."""
    assert _sigmoid(0.0) == 0.5
    with localcontext() as ctx:
        ctx.prec = 60
        for t in (0.0625, 0.1875, 0.6875):
            exact = float(1 / (1 + (-Decimal(t)).exp()))
            assert _sigmoid(t) == exact == 1.0 / (1.0 + math.exp(-t))
    assert _sigmoid(-0.0625) == math.exp(-0.0625) / (1.0 + math.exp(-0.0625))


def test_the_fit_at_its_solution_stops_after_one_step():
    """2 of 4 in both groups: p = 1/2, so beta = 0 is the solution, the first Newton step is exactly 0 and the fit
    converges at iteration 1.  X'WX = [[2, 1], [1, 1]] (w = 4/4 per row), its inverse [[1, -1], [-1, 2]]."""
    fit = logistic_fit([[0], [1]], [2, 2], trials=[4, 4])
    assert fit == {"coef": [0.0, 0.0], "se": [1.0, math.sqrt(2.0)], "z": [0.0, 0.0], "p": [1.0, 1.0],
                   "iterations": 1, "converged": True}
    assert fit["converged"] is True
    one = logistic_fit([[0], [1]], [2, 2], trials=[4, 4], max_iter=1)
    assert one["iterations"] == 1 and one["converged"] is True


def test_the_iteration_cap_and_the_strict_tolerance():
    """tol = 0: a step of exactly 0 is not below it, so the fit runs to its cap -- 100 by default -- unconverged;
    max_iter = 0 runs no step (beta = 0, iterations 0, not converged)."""
    fit = logistic_fit([[0], [1]], [2, 2], trials=[4, 4], tol=0.0)
    assert fit["iterations"] == 100 and fit["converged"] is False and fit["coef"] == [0.0, 0.0]
    capped = logistic_fit([[0], [1]], [2, 2], trials=[4, 4], tol=0.0, max_iter=3)
    assert capped["iterations"] == 3 and capped["converged"] is False
    zero = logistic_fit([[0], [1]], [2, 2], trials=[4, 4], max_iter=0)
    assert zero["iterations"] == 0 and zero["converged"] is False and zero["coef"] == [0.0, 0.0]


def test_a_fit_that_needs_more_steps_is_cut_at_max_iter():
    """1 of 4 against 3 of 4 needs several Newton steps: with max_iter = 1 it stops unconverged after one, at
    beta = (X'WX)^-1 X'(y - m/2) = [[1, -1], [-1, 2]] [0, 1] = [-1, 2]."""
    fit = logistic_fit([[0], [1]], [1, 3], trials=[4, 4], max_iter=1)
    assert fit["iterations"] == 1 and fit["converged"] is False
    assert fit["coef"] == [-1.0, 2.0]
    full = logistic_fit([[0], [1]], [1, 3], trials=[4, 4])
    assert full["converged"] is True and 1 < full["iterations"] < 100
    assert full["coef"] == pytest.approx([-math.log(3.0), 2 * math.log(3.0)], abs=1e-12)


def test_trials_must_be_positive_and_one_per_row():
    """A zero or negative count, or one count too few or too many, is refused with the same message."""
    for trials in ([4, 0], [4, -1], [4], [4, 4, 4]):
        with pytest.raises(StatisticsError, match=r"^trials must give a positive count per row$"):
            logistic_fit([[0], [1]], [1, 1], trials=trials)


def test_a_variance_that_underflows_to_zero_is_refused():
    """A covariate of 1e160 squares past the float range: X'WX's last diagonal entry is inf and the variance of
    its coefficient, the inverse's diagonal, comes out exactly 0.0 -- refused as non-positive (no division by a
    zero standard error)."""
    with pytest.raises(FitError, match=r"^non-positive variance estimate$"):
        logistic_fit([[0], [1e150], [1e160]], [2, 1, 0], trials=[1e300, 1.0, 1e10])
