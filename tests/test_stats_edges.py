"""Boundaries of the statistics kernels worked by hand: the mutants mutmut left alive in stats/rank, stats/agreement
and stats/quantiles (docs/recipes.md#mutation-testing), each killed here or listed as equivalent in
tests/mutants_equivalent.txt."""

import pytest

from nclue.core.errors import StatisticsError
from nclue.stats.agreement import fleiss_binary, fleiss_kappa
from nclue.stats.quantiles import erfc, quantile
from nclue.stats.rank import pearson


def test_quantile_interpolates_up_to_the_last_value_and_names_its_errors():
    assert quantile([0.0, 10.0], 0.5) == 5.0                   # lo = 0, hi = 1 = len - 1
    assert quantile([10.0, 0.0, 20.0], 0.75) == 15.0           # h = 1.5 between the last two
    assert quantile([0.0, 10.0], 1.0) == 10.0 and quantile([3.0], 0.0) == 3.0
    with pytest.raises(StatisticsError, match=r"^quantile of no values$"):
        quantile([], 0.5)
    for p in (-0.01, 1.01, 2.0):
        with pytest.raises(StatisticsError, match=r"^p must lie in \[0, 1\]$"):
            quantile([1.0, 2.0], p)


def test_erfc_at_zero_and_beyond_its_cut():
    assert erfc(0.0) == 1.0 and erfc(-0.0) == 1.0
    assert erfc(30.0) == 0.0 and erfc(35.0) == 0.0 and erfc(-30.0) == 2.0
    assert abs(erfc(29.0) - 0.0) < 1e-300


def test_pearson_of_a_constant_list_is_undefined_and_a_unit_variance_list_is_not():
    assert pearson([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]) is None
    assert pearson([1.0, 2.0, 3.0], [2.0, 2.0, 2.0]) is None
    assert pearson([0.0, 0.0, 1.0, 1.0], [0.0, 1.0, 0.0, 1.0]) == 0.0      # each variance sum is exactly 1
    assert pearson([0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]) == 0.0


def test_fleiss_kappa_guards_by_hand():
    assert fleiss_kappa([[2, 0], [0, 2]]) == 1.0                             # two raters are enough
    assert abs(fleiss_kappa([[2, 1]]) - (-0.5)) < 1e-12        # one item: P = 1/3, P_e = 5/9
    assert abs(fleiss_kappa([[2, 1], [0, 3], [3, 0]]) - 0.55) < 1e-12       # P_bar 7/9, P_e 41/81: 22/40
    for bad in ([], [[1, 0], [0, 1]], [[2, 0], [1, 0]], [[1, 0]]):
        with pytest.raises(StatisticsError, match=r"^every item needs the same number \(>= 2\) of ratings$"):
            fleiss_kappa(bad)
    with pytest.raises(StatisticsError, match=r"^the marginal form needs three raters$"):
        fleiss_binary(10, 4, 5, 20)
