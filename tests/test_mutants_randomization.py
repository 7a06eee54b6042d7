"""stats/randomization.py worked by hand: the mutants mutmut left alive or uncovered
(docs/recipes.md#mutation-testing), each killed here or listed as equivalent in tests/mutants_equivalent_stats.txt."""

import array
import itertools
import math
from types import SimpleNamespace

import pytest

from nclue.core.errors import StatisticsError
from nclue.stats import randomization
from nclue.stats.bootstrap import FamilyDesign
from nclue.stats.randomization import Masks, SignFlipTest, max_t_p_values, sign_flip_tests

ONE_PER_FAMILY = r"^one difference per family expected$"


def _all_masks(n_families):
    """Every sign vector once (bit f of the mask: 1 keeps d_f, 0 flips it)."""
    return Masks(n_families, list(range(1 << n_families)))


class _T:
    """A test as max_t_p_values reads it: diffs, observed, null (the doctest's stand-in)."""

    def __init__(self, diffs, null):
        self.diffs, self.observed, self.null = diffs, sum(diffs), null


# --- integer units, masks, single tests ----------------------------------------------------------------------------

def test_integer_units_and_family_differences():
    """Ints (not bools) pass unchanged; floats go to the 1e-12 grid, rounded to the nearest unit."""
    assert randomization.to_integer_units([3, -2, 0]) == [3, -2, 0]
    assert randomization.to_integer_units([0.5, 1e-12, -0.25]) == [500000000000, 1, -250000000000]
    assert randomization.to_integer_units([True, 2]) == [1000000000000, 2000000000000]
    assert randomization.to_integer_units([1.4e-12, 2]) == [1, 2000000000000]
    design = FamilyDesign(["a", "b", "c"], [["a", "c"], ["b"]])
    assert randomization.family_differences(design, [1, 0, 0], [1, 1, 1]) == [1, 1]
    assert randomization.family_differences(design, [0.5, 0.0, 0.0], [0.25, 0.0, 1.0]) == [750000000000, 0]


def test_masks_hold_whole_bytes_per_draw():
    assert Masks(8, [255, 1]).n_bytes == 1 and Masks(8, [255, 1]).bytes == [b"\xff", b"\x01"]
    assert Masks(9, [256]).n_bytes == 2 and Masks(17, [1 << 16, 5]).n_bytes == 3
    assert Masks(17, [1 << 16, 5]).bytes == [b"\x00\x00\x01", b"\x05\x00\x00"]
    assert Masks(17, [1 << 16, 5]).n_draws == 2 and Masks(0, []).n_bytes == 0


def test_a_sign_flip_test_needs_one_difference_per_family():
    with pytest.raises(StatisticsError, match=ONE_PER_FAMILY):
        SignFlipTest([1, 2], _all_masks(3))
    with pytest.raises(StatisticsError, match=ONE_PER_FAMILY):
        sign_flip_tests([[1, 2, 3], [1, 2]], _all_masks(3))
    assert sign_flip_tests([], _all_masks(3)) == []


def test_sign_flip_test_over_every_sign_vector_by_hand():
    """d = (2, 1): the masks 0..3 give T* = -3, 1, -1, 3; T_obs = 3, so p = (1 + 2) / 5."""
    t = SignFlipTest([2, 1], _all_masks(2))
    assert t.null == [-3, 1, -1, 3] and t.observed == 3 and t.p_value() == 0.6


# --- many tests in packed lanes ------------------------------------------------------------------------------------

@pytest.mark.parametrize("diff_lists", [
    [[100]],                                   # 2B = 200: an unsigned byte lane holding values above 127
    [[100], [-3]],
    [[120, 7, -1], [0, 0, 0], [-60, 60, 1]],
    [[30000, -1, 2], [1, 1, 1]],               # 16-bit lanes past 2^15
    [[2 ** 30, 5, -7]],                        # 32-bit lanes past 2^31
    [[2 ** 62, 1, -1], [3, 0, 1]],             # 64-bit lanes past 2^63
    [[2 ** 70, 3, 1], [5, -2 ** 69, 0]],       # no array type: lanes of (2B).bit_length() bits, masked
    [[2 ** 70 + 1, 2, 1], [4, 2 ** 68 + 3, 1]],
])
def test_packed_tests_equal_one_test_at_a_time(diff_lists):
    """sign_flip_tests reads every contrast's T* back exactly from its lane: the same null and p as SignFlipTest on
    each contrast alone, over all 2^F sign vectors."""
    masks = _all_masks(len(diff_lists[0]))
    packed = sign_flip_tests(diff_lists, masks)
    for d, t in zip(diff_lists, packed):
        alone = SignFlipTest(d, masks)
        assert t.null == alone.null and t.observed == alone.observed == sum(d) and t.diffs == d


class _BigEndianArray(array.array):
    """array.array as a big-endian host reads bytes: an array built from bytes holds big-endian words."""

    def __new__(cls, code, init=()):
        out = array.array.__new__(cls, code, init)
        if isinstance(init, (bytes, bytearray)):
            out.byteswap()
        return out


def test_packed_lanes_are_byteswapped_on_a_big_endian_host(monkeypatch):
    """With this module's array and sys.byteorder as on a big-endian host, the lanes are swapped back to the
    little-endian words they were written as: the same nulls (16-bit lanes: a byte lane has nothing to swap)."""
    diff_lists = [[300, -20, 3], [1, 2, 3]]
    masks = _all_masks(3)
    expected = [t.null for t in sign_flip_tests(diff_lists, masks)]
    monkeypatch.setattr(randomization, "array", SimpleNamespace(array=_BigEndianArray))
    monkeypatch.setattr(randomization, "sys", SimpleNamespace(byteorder="big"))
    assert [t.null for t in sign_flip_tests(diff_lists, masks)] == expected


# --- max-|T| ---------------------------------------------------------------------------------------------------------

A = _T([1, 1], [2, 0, 0, -2])                 # the four sign vectors (+,+), (+,-), (-,+), (-,-)
B = _T([30, -10], [20, 40, -40, -20])         # a noisy contrast
ZERO = _T([0, 0], [0, 0, 0, 0])               # no spread


def test_max_t_plain_studentized_and_one_sided_worked_by_hand():
    """Plain: peak |T*| = 20, 40, 40, 20 swamps A (p 1).  Studentized (A / sqrt 2, B / sqrt 1000): peaks 1.41, 1.26,
    1.26, 1.41 against A's 1.41 (2 of 4) and B's 0.63 (4 of 4).  One-sided in the observed directions: A's
    2, 0, 0, -2 and B's 20, 40, -40, -20, peaks 20, 40, 0, 0 (as the module's example)."""
    assert max_t_p_values([A, B]) == [1.0, 1.0]
    assert max_t_p_values([A, B], studentize=True) == [0.6, 1.0]
    assert max_t_p_values([A, B], one_sided=True) == [0.6, 0.6]


def test_max_t_studentized_leaves_a_contrast_without_spread_out():
    """A contrast with every d_f = 0 takes no part in the maximum and its adjusted p is 1."""
    assert max_t_p_values([A, ZERO, B], studentize=True) == [0.6, 1.0, 1.0]
    assert max_t_p_values([ZERO], studentize=True) == [1.0]
    assert max_t_p_values([A, ZERO], studentize=True) == [0.6, 1.0]


def test_max_t_peak_starts_at_zero():
    """A null of zeros against an observed 1: no draw reaches it, p = 1 / (4 + 1)."""
    assert max_t_p_values([_T([1], [0, 0, 0, 0])]) == [0.2]
    assert max_t_p_values([_T([1], [0.5, 0.5, 0.5, 0.5])], studentize=True) == [0.2]


def test_max_t_one_sided_takes_each_contrast_in_its_own_direction():
    """C observed -2 with null -2, 0, 0, 2 counts as 2, 0, 0, -2 (the sign -1, not -2 or +1); a contrast observed 0
    keeps its null's sign (+1): its 3 lifts the peak of the second draw, so A's p is (1 + 2) / 5."""
    c = _T([-1, -1], [-2, 0, 0, 2])
    assert max_t_p_values([c], one_sided=True) == [0.4]
    assert max_t_p_values([A, c], one_sided=True) == [0.4, 0.4]
    flat = _T([1, -1], [0, 3, 0, 0])
    assert max_t_p_values([A, flat], one_sided=True) == [0.6, 1.0]
    assert max_t_p_values([_T([2], [1, 1, 3, 0])], one_sided=True) == [0.4]       # sign +1, not +2
    assert max_t_p_values([_T([-2], [-1, -3, 0, 1])], one_sided=True) == [0.4]    # sign -1, not -2: only -3


# --- exact p-values --------------------------------------------------------------------------------------------------

def test_exact_one_sided_p_by_hand():
    """d = (2, 1, 1): T over the 8 sign vectors is -4, -2, -2, 0, 0, 2, 2, 4; observed 4: one at or above, 1/8.
    Observed -4 (all negated): in its own direction the same 1/8; d = (1, -1): observed 0, every T >= 0 counts."""
    assert randomization.exact_one_sided_p([2, 1, 1]) == 0.125
    assert randomization.exact_one_sided_p([-2, -1, -1]) == 0.125
    assert randomization.exact_one_sided_p([1, -1]) == 0.75               # T = -2, 0, 0, 2: three >= 0
    assert randomization.exact_one_sided_p([3, -1]) == 0.5                # observed 2: T = -4, -2, 2, 4 -> 2, 4
    assert randomization.exact_one_sided_p([-3, 1]) == 0.5
    assert randomization.exact_sign_flip_p([3, -1]) == 1.0                # |T| >= 2 always
    with pytest.raises(StatisticsError, match=r"^exact sign-flip distributions need integer differences$"):
        randomization.exact_one_sided_p([0.5, 1])


def test_one_sided_counts_by_hand():
    """The draws' T* taken in the observed direction: observed 3 counts T* >= 3; observed -3 counts T* <= -3."""
    masks = _all_masks(2)
    assert randomization.one_sided_counts(SignFlipTest([2, 1], masks)) == (1, 4)        # null -3, 1, -1, 3
    assert randomization.one_sided_counts(SignFlipTest([-2, -1], masks)) == (1, 4)      # null 3, -1, 1, -3
    assert randomization.one_sided_counts(SignFlipTest([1, -1], masks)) == (3, 4)       # observed 0: T* >= 0
    assert randomization.one_sided_counts(_T([-2], [-1, -3, 0, 1])) == (1, 4)          # -T* >= 2: only -3
    assert randomization.one_sided_counts(_T([1, -1], [1, 2, -1])) == (2, 3)           # observed 0: T* >= 0
    assert randomization.one_sided_counts(_T([2], [1, 2, 3])) == (2, 3)                # T* >= 2, not 2 T* >= 2


def test_sign_flip_distribution_with_zero_and_repeated_differences():
    """prod (x^d + x^-d): (0, 0, 1) gives T = +-1 with 4 sign vectors each; (1, 1, 2) gives -4, -2 (2), 0 (2), 2 (2),
    4; a float that is an integer is taken as one."""
    assert randomization.sign_flip_distribution([0, 0, 1]) == {-1: 4, 1: 4}
    assert randomization.sign_flip_distribution([1, 1, 2]) == {-4: 1, -2: 2, 0: 2, 2: 2, 4: 1}
    assert randomization.sign_flip_distribution([2.0, -1]) == {-3: 1, -1: 1, 1: 1, 3: 1}
    assert randomization.sign_flip_distribution([]) == {0: 1}


def test_exact_p_equals_brute_force_on_small_families():
    for diffs in ([1, 2, 3], [5, -1, 0, 2], [1, 1, 1, 1, 1], [7, -7, 3, 3, -1, 2]):
        assert randomization.exact_sign_flip_p(diffs) == randomization.brute_force_sign_flip_p(diffs)


# --- Monte Carlo agreement, Holm ----------------------------------------------------------------------------------

def test_within_monte_carlo_error_by_hand():
    """B = 10,000, p = 0.05: sd of the count sqrt(475) = 21.79, so k = 3 allows |c - 500| <= 66.4 (+ 1).
    c = 566 passes, c = 568 does not; k = 1 allows 22.8; p = 0 allows only the integer slack of 1."""
    b = 10000
    p_of = lambda c: (1 + c) / (b + 1)                                     # noqa: E731
    assert randomization.within_monte_carlo_error(p_of(566), 0.05, b)
    assert not randomization.within_monte_carlo_error(p_of(568), 0.05, b)
    assert randomization.within_monte_carlo_error(p_of(522), 0.05, b, k=1.0)
    assert not randomization.within_monte_carlo_error(p_of(524), 0.05, b, k=1.0)
    assert randomization.within_monte_carlo_error(p_of(1), 0.0, b)
    assert not randomization.within_monte_carlo_error(p_of(2), 0.0, b)
    assert randomization.within_monte_carlo_error(p_of(0), 0.0, b)
    assert randomization.within_monte_carlo_error(p_of(b - 1), 1.0, b)
    bound = 1.0 + 1e-9                           # p = 0: no spread, only the integer slack; B + 1 = 1024 keeps c exact
    assert randomization.within_monte_carlo_error((1 + bound) / 1024, 0.0, 1023)
    sd = math.sqrt(b * 0.05 * 0.95)
    edge = 500 + 3 * sd + 1.0                                              # exactly on the bound (up to 1e-9)
    assert randomization.within_monte_carlo_error((1 + edge) / (b + 1), 0.05, b)
    assert not randomization.within_monte_carlo_error((1 + edge + 1e-6) / (b + 1), 0.05, b)


def test_holm_steps_by_hand():
    """Holm on 0.01, 0.04, 0.03 (m = 3): 3 * 0.01 = 0.03; 2 * 0.03 = 0.06; 1 * 0.04 = 0.04 < 0.06 keeps 0.06 from
    the index 2 p with multiplier 2.  Ties in p go by index; values cap at 1."""
    assert randomization.holm_steps([0.01, 0.04, 0.03]) == [(0.03, 3, 0), (0.06, 2, 2), (0.06, 2, 2)]
    assert randomization.holm([0.01, 0.04, 0.03]) == [0.03, 0.06, 0.06]
    assert randomization.holm_steps([0.2, 0.2]) == [(0.4, 2, 0), (0.4, 2, 0)]
    assert randomization.holm_steps([0.6, 0.1]) == [(0.6, 1, 0), (0.2, 2, 1)]
    assert randomization.holm_steps([0.5, 0.7, 0.3]) == [(1.0, 2, 0), (1.0, 2, 0), (0.8999999999999999, 3, 2)]
    assert randomization.holm_steps([0.0]) == [(0.0, 1, 0)]
    assert randomization.holm_steps([]) == [] and randomization.holm([]) == []
    assert randomization.holm([0.01, 0.02]) == [0.02, 0.02]
    assert randomization.holm_steps([0.5, 0.0]) == [(0.5, 1, 0), (0.0, 1, 1)]   # a 0 keeps the start, its own index
    assert randomization.holm([0.6, 0.9]) == [1.0, 1.0]                       # 2 * 0.6 capped at 1
    assert randomization.holm_steps([0.1, 0.2]) == [(0.2, 2, 0), (0.2, 2, 0)]   # 1 * 0.2 only equals 2 * 0.1


def test_holm_equals_its_definition_on_every_order():
    """adjusted_(i) = max over j <= i of min(1, (m - j) p_(j)), the running maximum along the sorted p."""
    ps = [0.04, 0.01, 0.3, 0.02, 0.5]
    for perm in itertools.permutations(ps):
        order = sorted(range(5), key=lambda i: (perm[i], i))
        want, running = [None] * 5, 0.0
        for rank, i in enumerate(order):
            running = max(running, min(1.0, (5 - rank) * perm[i]))
            want[i] = running
        assert randomization.holm(list(perm)) == want
