"""stats/bootstrap.py worked by hand: the mutants mutmut left alive (docs/recipes.md#mutation-testing), each killed
here or listed as equivalent in tests/mutants_equivalent_stats.txt."""

from types import SimpleNamespace

import pytest

from nclue.stats import bootstrap
from nclue.stats.bootstrap import FamilyDesign, _from_lanes, _lane_bytes

BIG = 2 ** 53 + 1          # the smallest int a float cannot hold


def _singletons(n):
    qids = ["q%d" % i for i in range(n)]
    return FamilyDesign(qids, [[q] for q in qids])


def test_float_family_sums_are_exactly_rounded_and_int_ones_exact():
    """fsum for floats: 0.1 + 0.2 + 0.3 is 0.6 (a plain sum gives 0.6000000000000001); ints stay ints."""
    design = FamilyDesign(["a", "b", "c"], [["a", "b", "c"]])
    assert design.family_sums([0.1, 0.2, 0.3]) == [0.6]
    assert design.family_sums([BIG, BIG, BIG]) == [3 * BIG] and isinstance(design.family_sums([1, 2, 3])[0], int)


def test_distribution_sums_floats_with_fsum_and_ints_exactly():
    """Three singleton families drawn once each: 100 * 0.6 / 3 = 20.0 with fsum (20.000000000000004 by a plain sum).
    Ints are summed as ints: 3 * (2^53 + 1) is rounded once, not each term to 2^53 first."""
    assert bootstrap.distribution(_singletons(3), [0.1, 0.2, 0.3], [[0, 1, 2]]) == [20.0]
    assert bootstrap.distribution(_singletons(1), [BIG], [[0, 0, 0]], scale=1.0) == [float(3 * BIG) / 3]
    assert float(3 * BIG) / 3 != float(3 * 2 ** 53) / 3


def test_jackknife_by_hand():
    """Leave one family out: families {a, b} (sum 1) and {c} (sum 1) of [1, 0, 1]: without the first 1/1, without
    the second 1/2, times 100."""
    design = FamilyDesign(["a", "b", "c"], [["a", "b"], ["c"]])
    assert bootstrap.jackknife_family(design, [1, 0, 1]) == [100.0, 50.0]
    assert bootstrap.jackknife_family(design, [1, 0, 1], scale=1.0) == [1.0, 0.5]
    # floats with fsum: the total 0.1 + 0.2 + 0.3 = 0.6 exactly rounded; leaving 0.3 out leaves 0.3 over 2 queries
    floats = _singletons(3)
    assert bootstrap.jackknife_family(floats, [0.1, 0.2, 0.3], scale=1.0)[2] == (0.6 - 0.3) / 2


def test_jackknife_int_total_is_exact():
    """Integer family sums are totalled as ints: leaving out 2^54 + 6 leaves exactly 3 (a float total rounds
    2^54 + 9 to 2^54 + 8 and would leave 0), and leaving out 3 leaves 2^54 + 6, rounded once."""
    design = _singletons(2)
    big = 2 ** 54 + 6
    assert bootstrap.jackknife_family(design, [big, 3], scale=1.0) == [3.0, float(big)]


def test_draw_sums_of_a_vector_with_negative_values():
    """The module's example: families {a, b} (sum 1) and {c} (sum -1); draws (0, 0), (1, 0), (1, 1)."""
    design = FamilyDesign(["a", "b", "c"], [["a", "b"], ["c"]])
    assert bootstrap.draw_sums(design, [[1, 0, -1]], [[0, 0], [1, 0], [1, 1]]) == [[2, 0, -2]]
    assert bootstrap.draw_sums(design, [[-3, 0, -5], [2, 2, 7]], [[0, 1, 1], [1]]) == [[-13, -5], [18, 7]]


def test_draw_sums_with_no_draws_or_no_families():
    """No draws: an empty list per vector.  No families: a 0 per draw for every vector (each one, not just the
    first)."""
    design = FamilyDesign(["a"], [["a"]])
    assert bootstrap.draw_sums(design, [[1], [2]], []) == [[], []]
    empty = FamilyDesign([], [])
    assert bootstrap.draw_sums(empty, [[], []], [[], []]) == [[0, 0], [0, 0]]


@pytest.mark.parametrize("bits", [1, 2, 31, 62, 63, 64, 65, 66, 100, 127, 128, 129, 200])
def test_draw_sums_equal_direct_sums_at_every_lane_width(bits):
    """Family sums of up to 2^bits (so lanes of 8, 16, 24, 32 bytes), negative and positive: each draw's sum
    equals the direct sum of the drawn family sums."""
    design = FamilyDesign(["a", "b", "c", "d"], [["a"], ["b", "c"], ["d"]])
    vectors = [[2 ** bits, 0, 1, 3], [-(2 ** bits), 5, -7, 2 ** (bits // 2)], [0, 0, 0, 0]]
    draws = [[0, 0, 0], [1, 2, 0], [2, 2, 2], [1, 1, 0]]
    expect = [[sum(fs[f] for f in idx) for idx in draws] for fs in map(design.family_sums, vectors)]
    assert bootstrap.draw_sums(design, vectors, draws) == expect


def test_draw_count_lanes_are_cached_per_draw_list_and_width():
    """The docstring's promise: every vector reuses one packing per draw list and width (the same object), a second
    draw list or another width gets its own, and the first is still reused afterwards."""
    design = FamilyDesign(["a", "b"], [["a"], ["b"]])
    first, second = [[0, 1], [1, 1]], [[0, 0], [1, 0]]
    lanes = bootstrap.draw_count_lanes(design, first, 8)
    assert lanes == [1, 1 + (2 << 64)]            # family 0: once in draw 0; family 1: once in draw 0, twice in 1
    assert bootstrap.draw_count_lanes(design, first, 8) is lanes
    wide = bootstrap.draw_count_lanes(design, first, 16)
    assert wide == [1, 1 + (2 << 128)]
    assert bootstrap.draw_count_lanes(design, second, 8) == [2 + (1 << 64), 1 << 64]
    assert bootstrap.draw_count_lanes(design, first, 8) is lanes
    assert bootstrap.draw_count_lanes(design, first, 16) is wide


def test_lane_bytes_round_trip_at_8_9_and_16_bytes():
    """Little-endian unsigned lanes; the full 8-byte range (2^64 - 1 is not a signed 8-byte value)."""
    top = 2 ** 64 - 1
    assert _lane_bytes([1, top], 8) == b"\x01" + bytes(7) + b"\xff" * 8
    assert _from_lanes(b"\x01" + bytes(7) + b"\xff" * 8, 8, 2) == [1, top]
    assert _lane_bytes([1, 2], 9) == b"\x01" + bytes(8) + b"\x02" + bytes(8)
    assert _from_lanes(b"\x01" + bytes(8) + b"\x02" + bytes(8), 9, 2) == [1, 2]
    assert _lane_bytes([1, 2 ** 100], 16) == b"\x01" + bytes(15) + (2 ** 100).to_bytes(16, "little")
    assert _from_lanes(_lane_bytes([3, 2 ** 100, 7], 16), 16, 3) == [3, 2 ** 100, 7]


def test_lanes_are_byteswapped_on_a_big_endian_platform(monkeypatch):
    """On a big-endian host the 8-byte array path swaps its native words to little-endian and back: with
    sys.byteorder reading "big" here, the swap shows (a big-endian word) and the round trip still holds."""
    monkeypatch.setattr(bootstrap, "sys", SimpleNamespace(byteorder="big"))      # this module's view only
    raw = _lane_bytes([1, 2], 8)
    assert raw == bytes(7) + b"\x01" + bytes(7) + b"\x02"
    assert _from_lanes(raw, 8, 2) == [1, 2]


def test_percentile_interval_by_hand():
    """Type-7 quantiles at 0.025 and 0.975 of 1, 2, 3, 4: 1 + 3 * 0.025 and 1 + 3 * 0.975."""
    lo, hi = bootstrap.percentile_interval([4.0, 1.0, 3.0, 2.0])
    assert lo == pytest.approx(1.075, abs=1e-12) and hi == pytest.approx(3.925, abs=1e-12)


def test_bca_is_undefined_when_theta_lies_outside_the_distribution():
    """z0 = Phi^-1(0) or Phi^-1(1) is infinite: None when every draw is above or every draw is below theta."""
    assert bootstrap.bca_interval([1.0, 2.0, 3.0], 0.5, [1.0, 2.0, 3.0]) is None
    assert bootstrap.bca_interval([1.0, 2.0, 3.0], 3.5, [1.0, 2.0, 3.0]) is None
    assert bootstrap.bca_interval([1.0, 2.0, 3.0], 0.0, [1.0, 2.0, 3.0]) is None     # frac = 0 exactly


def test_bca_with_a_constant_jackknife_is_the_percentile_interval():
    """Theta at the median (#below + #at-or-below = 2 + 2 of 2B = 8: z0 = 0) and a constant jackknife (no spread:
    acceleration 0, not a division by 0): the BCa levels are Phi(+-1.96) = 0.025, 0.975, the percentile interval."""
    lo, hi = bootstrap.bca_interval([1.0, 2.0, 3.0, 4.0], 2.5, [5.0, 5.0, 5.0])
    assert lo == pytest.approx(1.075, abs=1e-9) and hi == pytest.approx(3.925, abs=1e-9)


def test_bca_acceleration_is_the_exactly_rounded_skewness_of_the_jackknife():
    """a = sum d^3 / (6 (sum d^2)^1.5), d = mean - t over the jackknife (the (n - 1) factor cancels).  For
    6, 0, 18, 18, 15 (n = 5: the factor 4 is exact in binary) a is worked in 50-digit decimals; theta at the median
    of 0..10 gives z0 = 0, and the endpoints are the quantiles at Phi(z + z / (1 - a z)), z = -+1.96."""
    from decimal import Decimal, localcontext
    from fractions import Fraction

    from nclue.stats.quantiles import norm_cdf, norm_ppf, quantile
    jackknife = [6.0, 0.0, 18.0, 18.0, 15.0]
    mean = Fraction(57, 5)
    d = [mean - Fraction(t) for t in jackknife]
    s2, s3 = sum(x * x for x in d), sum(x ** 3 for x in d)
    with localcontext() as ctx:
        ctx.prec = 50
        dec = [Decimal(q.numerator) / Decimal(q.denominator) for q in (s2, s3)]
        a = float(dec[1] / (6 * dec[0] ** Decimal("1.5")))
    dist = [float(i) for i in range(11)]
    za = norm_ppf((1.0 - 0.95) / 2.0)          # alpha as the module computes it: 0.025000000000000022
    lo, hi = norm_cdf(za / (1 - a * za)), norm_cdf(-za / (1 + a * za))
    assert bootstrap.bca_interval(dist, 5.0, jackknife) == (quantile(dist, lo), quantile(dist, hi))
    assert a == pytest.approx(0.0406322537578087, abs=1e-15)
