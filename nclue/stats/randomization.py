"""Paired randomization by whole-family sign flips, and selection-aware max-|T|
(paper section 3.4; docs/statistics.md#paired-randomization).

For a contrast, ``d_f`` is family ``f``'s summed per-query difference (variant
minus base) as an **integer**: success and hit differences are counts, and a
float metric is first put on a fixed-point grid (``round(x * 10**12)`` per
query), so ties in ``|T*| >= |T_obs|`` are decided exactly.

A draw is a random sign per family: the bits of ``getrandbits(F)``; bit 1 keeps
``d_f``, bit 0 flips it.  ``T* = sum_f +-d_f``, computed with one lookup per 8
families: for each byte of the mask a precomputed table of the 256 signed sums
of that byte's families.  ``T_obs = sum_f d_f``; the two-sided p-value is
``(1 + #{|T*| >= |T_obs|}) / (draws + 1)``.

Shared flips: one list of masks serves every contrast, so a block's
endpoints are tested on the same draws; max-|T| compares each endpoint's
``|T_obs|`` with the per-draw maximum over the block's endpoints.

>>> flips = draw_masks(Stream(11), 3, 2000)
>>> t = SignFlipTest([2, 2, 2], flips)
>>> t.observed, round(t.p_value(), 2)
(6, 0.26)
"""

from __future__ import annotations

import array
import math
import sys
from itertools import product as _cartesian
from operator import getitem, lshift
from typing import Any

from ..core.errors import StatisticsError
from ..core.rng import Stream  # noqa: F401  (doctest)
from . import protocol

DRAWS = protocol.RANDOMIZATION.n_draws      # declared in nclue/stats/protocol.py
FIXED_POINT = 10 ** 12


def to_integer_units(values: list[Any] | tuple[Any, ...]) -> list[Any]:
    """Per-query values on the fixed-point grid (ints pass through unchanged)."""
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return list(values)
    return [int(round(v * FIXED_POINT)) for v in values]


def family_differences(design: Any, base: list[Any] | tuple[Any, ...],
                       variant: list[Any] | tuple[Any, ...]) -> list[Any]:
    """Integer ``d_f`` (variant minus base) summed over each family's queries."""
    b, v = to_integer_units(base), to_integer_units(variant)
    return [sum(v[i] - b[i] for i in members) for members in design.members]


class Masks:
    """Shared sign-flip draws: for each draw, its mask's bytes (least significant first); byte ``c``
    selects one of the 256 signed sums of families ``8c .. 8c + 7``."""

    def __init__(self, n_families: int, masks: list[Any]) -> None:
        self.n_families = n_families
        self.n_bytes = (n_families + 7) // 8
        self.n_draws = len(masks)
        n_bytes = self.n_bytes
        self.bytes = [mask.to_bytes(n_bytes, "little") for mask in masks]


def draw_masks(stream: Stream, n_families: int, n_draws: int = DRAWS) -> Masks:
    """``n_draws`` sign vectors of ``n_families`` bits each (:meth:`nclue.core.rng.Stream.bits`)."""
    return Masks(n_families, [stream.bits(n_families) for _ in range(n_draws)])


def _chunk_tables(diffs: list[Any], n_bytes: int) -> list[Any]:
    """For each 8-family chunk, the 256 signed sums ``sum_j (bit j ? d_j : -d_j)``."""
    tables = []
    for c in range(n_bytes):
        chunk = diffs[8 * c: 8 * c + 8]
        total = sum(chunk)
        subset = [0]                 # subset[m] = sum of the chunk's items at the set bits of m
        for x in chunk + [0] * (8 - len(chunk)):
            subset += [v + x for v in subset]
        tables.append([2 * v - total for v in subset])
    return tables


class SignFlipTest:
    """One contrast's null distribution on shared masks (see module doc)."""

    def __init__(self, diffs: list[Any], masks: Masks, null: list[Any] | None = None) -> None:
        if len(diffs) != masks.n_families:
            raise StatisticsError("one difference per family expected")
        self.diffs = list(diffs)
        self.observed = sum(self.diffs)
        if null is None:
            tables = _chunk_tables(self.diffs, masks.n_bytes)
            null = [sum(map(getitem, tables, row)) for row in masks.bytes]
        self.null = null

    def p_value(self) -> float:
        obs = abs(self.observed)
        count = sum(1 for t in self.null if abs(t) >= obs)
        return (1 + count) / (len(self.null) + 1)


def sign_flip_tests(diff_lists: list[Any], masks: Masks) -> list[Any]:
    """Tests of many contrasts on the same masks, computed together in packed lanes
    (:mod:`nclue.stats.lanes`): one big-integer sum per draw for all contrasts.

    Lane ``j`` of family ``f``'s packed item holds ``d_f`` of contrast ``j`` (signed: a packed integer
    ``sum_j v_j 2**(j w)`` is exact for any signed ``v_j``); the 256-entry byte tables are built on the
    packed items, so one table serves every contrast, and each draw's packed total plus a bias of
    ``B = max_j sum_f |d_f|`` per lane has every lane in ``0 .. 2B``, read back exactly (by an
    ``array`` of the lane width when it is 8, 16, 32 or 64 bits)."""
    if not diff_lists:
        return []
    diffs = [list(d) for d in diff_lists]
    if any(len(d) != masks.n_families for d in diffs):
        raise StatisticsError("one difference per family expected")
    lanes = len(diffs)
    bound = max(sum(map(abs, d)) for d in diffs)
    code = next((c for c in "BHILQ" if (2 * bound).bit_length() <= 8 * array.array(c).itemsize), None)
    width = 8 * array.array(code).itemsize if code else (2 * bound).bit_length()
    shifts = range(0, width * lanes, width)
    items = [sum(map(lshift, column, shifts)) for column in zip(*diffs)]
    tables = _chunk_tables(items, masks.n_bytes)
    totals = [sum(map(getitem, tables, row)) for row in masks.bytes]
    offset = sum(bound << s for s in shifts)
    if code:
        size = width // 8 * lanes
        words = array.array(code, b"".join([(t + offset).to_bytes(size, "little") for t in totals]))
        if sys.byteorder == "big":
            words.byteswap()
        nulls = [[x - bound for x in words[j::lanes]] for j in range(lanes)]
    else:
        lane_mask = (1 << width) - 1
        nulls = [[(((t + offset) >> s) & lane_mask) - bound for t in totals] for s in shifts]
    return [SignFlipTest(d, masks, null) for d, null in zip(diffs, nulls)]


def max_t_p_values(tests: list[Any], studentize: bool = False, one_sided: bool = False) -> list[Any]:
    """Single-step max-|T|: ``p_e = (1 + #{max_e' |T*_e'| >= |T_obs,e|}) / (draws + 1)`` on shared draws.

    ``studentize``: each contrast's statistic is divided by its own permutation standard deviation
    ``sqrt(sum_f d_f^2)`` (the exact SD of ``T* = sum_f s_f d_f`` under random signs) before the maximum is
    taken, so that contrasts on different scales weigh alike (Westfall and Young's studentized max-T): a
    high-variance contrast added to the set no longer dominates the others' adjusted p.  A contrast with
    every ``d_f = 0`` has no spread; it takes no part in the maximum and its adjusted p is 1.  The paper's
    blocks use the plain statistic (their endpoints share one metric and one family design); ``score``
    compares a run with references of any kind and uses the studentized one (docs/statistics.md).

    >>> class T:
    ...     def __init__(self, diffs, null):
    ...         self.diffs, self.observed, self.null = diffs, sum(diffs), null
    >>> a = T([1, 1], [2, 0, 0, -2])            # the four sign vectors (+,+), (+,-), (-,+), (-,-)
    >>> b = T([30, -10], [20, 40, -40, -20])    # a noisy contrast
    >>> max_t_p_values([a, b]), max_t_p_values([a, b], studentize=True)
    ([1.0, 1.0], [0.6, 1.0])

    ``one_sided``: each endpoint's statistic is taken in its own observed direction, ``s_e T*_e`` with ``s_e``
    the sign of ``T_obs,e`` (the one-sided procedure a two-sided p is told apart from;
    docs/claims.md#monte-carlo-verdicts).

    >>> max_t_p_values([a, b], one_sided=True)
    [0.6, 0.6]
    """
    draws = len(tests[0].null)
    nulls, observed = _max_t_statistics(tests, studentize, one_sided)
    peak = [0] * draws
    for null in nulls:
        if null is not None:
            peak = [p if p >= x else x for p, x in zip(peak, null)]
    out = []
    for obs in observed:
        out.append(1.0 if obs is None else (1 + sum(1 for p in peak if p >= obs)) / (draws + 1))
    return out


def _max_t_statistics(tests: list[Any], studentize: bool, one_sided: bool) -> tuple[Any, ...]:
    """``(nulls, observed)`` of :func:`max_t_p_values`: each test's null statistics and observed statistic
    (None for a studentized test without spread)."""
    if one_sided:
        signs = [-1 if t.observed < 0 else 1 for t in tests]
        return [[s * x for x in t.null] for t, s in zip(tests, signs)], [abs(t.observed) for t in tests]
    if studentize:
        scale = [math.sqrt(math.fsum(d * d for d in t.diffs)) for t in tests]
        return ([[abs(x) / s for x in t.null] if s else None for t, s in zip(tests, scale)],
                [abs(t.observed) / s if s else None for t, s in zip(tests, scale)])
    return [[abs(x) for x in t.null] for t in tests], [abs(t.observed) for t in tests]


def sign_flip_distribution(diffs: list[Any]) -> dict[Any, Any]:
    """The exact null distribution of ``T = sum_f s_f d_f`` over all ``2**F`` sign vectors, for integer
    ``d_f``: ``{t: number of sign vectors}``, from the generating function ``prod_f (x^d_f + x^-d_f)``.

    Since ``x^d + x^-d = x^-d (1 + x^2d)``, the distribution is that of ``prod_f (1 + y^|d_f|)`` with
    ``y = x^2``: exponent ``k`` stands for ``T = 2k - sum |d_f|``.  The product is computed on one big
    integer, one ``w``-bit lane per coefficient (``w = F + 2`` bits: no coefficient exceeds ``2**F``);
    each factor is one shift and one addition (``P + (P << |d_f| w)``), and a zero ``d_f`` doubles
    every coefficient.

    >>> sorted(sign_flip_distribution([1, 2]).items())
    [(-3, 1), (-1, 1), (1, 1), (3, 1)]
    >>> sign_flip_distribution([0, 2]) == {-2: 2, 2: 2}
    True
    """
    values = [abs(int(d)) for d in diffs]
    if any(v != d and v != -d for v, d in zip(values, diffs)):
        raise StatisticsError("exact sign-flip distributions need integer differences")
    width = len(values) + 2
    poly = 1
    for v in values:
        poly = poly << 1 if v == 0 else poly + (poly << (v * width))
    total = sum(values)
    mask = (1 << width) - 1
    out = {}
    for k in range(total + 1):
        count = (poly >> (k * width)) & mask
        if count:
            out[2 * k - total] = count
    return out


def exact_sign_flip_p(diffs: list[Any]) -> float:
    """Exact two-sided p over all ``2**F`` sign vectors, ``#{|T| >= |T_obs|} / 2**F``
    (:func:`sign_flip_distribution`; any number of families).

    >>> exact_sign_flip_p([2, 2, 2])
    0.25
    """
    obs = abs(sum(int(d) for d in diffs))
    dist = sign_flip_distribution(diffs)
    extreme = sum(count for t, count in dist.items() if abs(t) >= obs)
    return extreme / (1 << len(diffs))


def brute_force_sign_flip_p(diffs: Any) -> Any:
    """:func:`exact_sign_flip_p` by enumerating every sign vector (a reference for small ``F``)."""
    obs = abs(sum(diffs))
    count = total = 0
    for signs in _cartesian((1, -1), repeat=len(diffs)):
        total += 1
        if abs(sum(s * d for s, d in zip(signs, diffs))) >= obs:
            count += 1
    return count / total


def within_monte_carlo_error(p_mc: float, p_exact: float, n_draws: int, k: float = 3.0) -> bool:
    """Does the Monte Carlo ``p = (1 + c)/(B + 1)`` agree with the exact p within ``k`` Monte Carlo
    standard errors?  The count ``c`` of extreme draws is Binomial(``B`` = ``n_draws``, ``p_exact``), so the check is
    ``|c - B p| <= k sqrt(B p (1 - p)) + 1`` (the 1 allows for ``c`` being an integer).

    >>> within_monte_carlo_error(0.0501, 0.05, 10000), within_monte_carlo_error(0.08, 0.05, 10000)
    (True, False)
    >>> within_monte_carlo_error(2 / 10001, 2.6e-6, 10000)      # one extreme draw of a tiny p
    True
    """
    count = p_mc * (n_draws + 1) - 1
    return abs(count - n_draws * p_exact) <= k * math.sqrt(n_draws * p_exact * (1.0 - p_exact)) + 1.0 + 1e-9


def holm_steps(p_values: list[Any]) -> list[Any]:
    """Holm's step-down adjustment with what sets each adjusted value: ``[(adjusted, multiplier, index)]`` in
    the input order, where ``adjusted = min(1, multiplier * p_values[index])`` is the running maximum that
    defines it (``multiplier`` = ``m - rank``; the index of the p-value behind the maximum).  The multiplier is
    what an adjusted p's Monte Carlo standard error is scaled by (:mod:`nclue.stats.montecarlo`).

    >>> holm_steps([0.01, 0.04, 0.03])
    [(0.03, 3, 0), (0.06, 2, 2), (0.06, 2, 2)]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    out: list[Any] = [None] * m
    running = (0.0, 1, order[0] if order else 0)
    for rank, i in enumerate(order):
        value = min(1.0, (m - rank) * p_values[i])
        if value > running[0]:
            running = (value, m - rank, i)
        out[i] = running
    return out


def holm(p_values: list[Any]) -> list[Any]:
    """Holm's step-down adjusted p-values, in the input order.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    return [step[0] for step in holm_steps(p_values)]


def one_sided_counts(test: SignFlipTest) -> tuple[Any, ...]:
    """``(count, draws)`` of a test's one-sided extreme draws in the observed direction: ``#{s T* >= |T_obs|}``
    with ``s`` the observed sign (the plausible wrong procedure a two-sided p is told apart from)."""
    obs = test.observed
    sign = -1 if obs < 0 else 1
    return sum(1 for t in test.null if sign * t >= abs(obs)), len(test.null)


def exact_one_sided_p(diffs: list[Any]) -> float:
    """Exact one-sided p in the observed direction over all ``2**F`` sign vectors, ``#{s T >= |T_obs|} / 2**F``
    (:func:`sign_flip_distribution`).

    >>> exact_one_sided_p([2, 2, 2])
    0.125
    """
    obs = sum(int(d) for d in diffs)
    sign = -1 if obs < 0 else 1
    dist = sign_flip_distribution(diffs)
    return sum(count for t, count in dist.items() if sign * t >= abs(obs)) / (1 << len(diffs))
