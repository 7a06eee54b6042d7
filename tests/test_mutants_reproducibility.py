"""stats/reproducibility.py worked by hand: the mutants mutmut left alive (docs/recipes.md#mutation-testing), each
killed here or listed as equivalent in tests/mutants_equivalent_stats.txt."""

import pytest

from nclue.stats.reproducibility import (
    delta_relative_improvement,
    effect_ratio,
    kendall_tau_union,
    rank_biased_overlap,
    relative_improvement,
    rmse,
)

RBO_ERROR = r"^rank-biased overlap needs 0 < p <= 1 and depth >= 1$"


def test_kendall_tau_union_of_one_swap_by_hand():
    """a b c against a c b: positions (0, 1, 2) and (0, 2, 1); pairs +1 +1 -1, so tau = 1/3."""
    assert kendall_tau_union(["a", "b", "c"], ["a", "c", "b"]) == pytest.approx(1 / 3, abs=1e-15)
    assert kendall_tau_union(["a"], ["a", "b"]) is None


def test_rbo_with_persistence_one_is_the_mean_overlap_fraction():
    """p = 1 is allowed: every depth weighs 1.  a b c against b a d: overlaps 0/1, 2/2, 2/3 -> (0 + 1 + 2/3) / 3."""
    assert rank_biased_overlap(["a", "b", "c"], ["b", "a", "d"], p=1.0, depth=3) == pytest.approx(5 / 9, abs=1e-15)


def test_rbo_weights_are_powers_of_p():
    """p = 1/2, depth 3: weights 1, 1/2, 1/4 (not 1, 1/2, 1/2).  Overlap fractions 0, 1, 2/3:
    (0 + 1/2 + 1/6) / (7/4) = 8/21."""
    assert rank_biased_overlap(["a", "b", "c"], ["b", "a", "d"], p=0.5, depth=3) == pytest.approx(8 / 21, abs=1e-15)


def test_rbo_at_depth_one_is_whether_the_tops_agree():
    assert rank_biased_overlap(["a", "b"], ["a", "c"], depth=1) == 1.0
    assert rank_biased_overlap(["a", "b"], ["b", "a"], depth=1) == 0.0


def test_rbo_refuses_p_and_depth_outside_their_ranges_by_name():
    for p, depth in ((0.0, 10), (1.5, 10), (-0.5, 10), (0.9, 0), (0.9, -1)):
        with pytest.raises(ValueError, match=RBO_ERROR):
            rank_biased_overlap(["a"], ["a"], p=p, depth=depth)


def test_rmse_by_hand_and_its_length_check():
    assert rmse([0.0, 1.0], [1.0, 1.0]) == pytest.approx(0.5 ** 0.5, abs=1e-15)
    assert rmse([], []) is None
    with pytest.raises(ValueError, match=r"^rmse of sequences of different lengths$"):
        rmse([1.0], [1.0, 2.0])


def test_effect_ratio_by_hand():
    """Original improvement mean(0.4 - 0.2, 0.6 - 0.2) = 0.3; re-run mean(0.35 - 0.2, 0.35 - 0.2) = 0.15; ER = 1/2."""
    er = effect_ratio([0.2, 0.2], [0.4, 0.6], [0.2, 0.2], [0.35, 0.35])
    assert er == pytest.approx(0.5, abs=1e-12)
    assert effect_ratio([1.0, 1.0], [3.0, 5.0], [1.0, 2.0], [1.5, 3.0]) == 0.25    # 0.75 / 3
    assert effect_ratio([1.0], [1.0], [0.0], [1.0]) is None


def test_relative_improvement_by_hand():
    """RI = (mean variant - mean base) / mean base: (0.6 - 0.4) / 0.4 = 0.5; each mean over its own length."""
    assert relative_improvement([0.4, 0.4], [0.5, 0.7]) == pytest.approx(0.5, abs=1e-12)
    assert relative_improvement([1.0, 1.0], [3.0]) == 2.0                # means 1 and 3
    assert relative_improvement([0.1, 0.1, 0.1], [0.1, 1.0, 1.0]) == 6.0  # (0.7 - 0.1) / 0.1, the means divided by 3
    assert relative_improvement([0.0, 0.0], [1.0, 1.0]) is None
    assert delta_relative_improvement([0.4, 0.4], [0.5, 0.7], [1.0, 1.0], [3.0]) == pytest.approx(-1.5, abs=1e-12)


def test_rbo_weights_start_at_one_even_in_the_subnormal_range():
    """p = 1e-155: only the third depth overlaps ({a, c} of 3), so RBO = (2/3) p^2 / (1 + p + p^2), about 6.7e-311,
    a subnormal float.  Weights 1, p, p^2 give it correctly rounded (checked with exact fractions); weights twice as
    large round p^2 differently in the subnormal range."""
    from fractions import Fraction
    p = Fraction(1e-155)
    exact = float(Fraction(2, 3) * p * p / (1 + p + p * p))
    assert rank_biased_overlap(["a", "b", "c"], ["c", "d", "a"], p=1e-155, depth=3) == exact
