"""Family-clustered percentile (and BCa) bootstrap (paper section 3.4).

Queries are grouped into exact-gold-set families.  One draw takes ``F``
families with replacement (``F`` = number of families; ``randbelow(F)`` from
the package stream) and recomputes the statistic over **all queries of the
drawn families**: for a per-query vector ``x`` and family sums ``s_f`` and
sizes ``n_f``, the statistic is ``scale * sum_draw s_f / sum_draw n_f``.
Paired intervals use the same draws for both systems (the statistic is the
difference vector's).  The 95% percentile interval is the type-7 quantile
(:func:`nclue.stats.quantiles.quantile`) at 0.025 and 0.975 of the 1,000
draws.

Integer vectors (success, hit) are summed exactly as integers; float vectors
(NDCG) with :func:`math.fsum`, so every draw is exact and portable.
"""

from __future__ import annotations

import math
import sys
from array import array
from operator import mul
from typing import Any

from . import protocol
from .lanes import width_for
from .quantiles import norm_cdf, norm_ppf, quantile

DRAWS = protocol.BOOTSTRAP.n_draws      # declared in nclue/stats/protocol.py
LEVEL = protocol.INTERVAL_LEVEL


class FamilyDesign:
    """Family index of each query (in the outcome vectors' query order)."""

    def __init__(self, qids: list[Any], families: list[Any]) -> None:
        position = {q: i for i, q in enumerate(qids)}
        self.members = [[position[q] for q in fam] for fam in families]
        self.sizes = [len(m) for m in self.members]
        self.n_families = len(self.members)

    def family_sums(self, vector: list[Any]) -> list[Any]:
        out = []
        is_int = all(isinstance(v, int) for v in vector)
        for members in self.members:
            vals = [vector[i] for i in members]
            out.append(sum(vals) if is_int else math.fsum(vals))
        return out


def draw_indices(stream: Any, n_families: int, n_draws: int = DRAWS) -> list[Any]:
    """``n_draws`` lists of ``n_families`` family indices drawn with replacement
    (:meth:`nclue.core.rng.Stream.randbelow_batch`, one batch per draw): the draws."""
    return [stream.randbelow_batch(n_families, n_families) for _ in range(n_draws)]


def distribution(design: Any, vector: Any, draws: Any, scale: Any = 100.0) -> Any:
    """The bootstrap distribution of ``scale * mean(vector)`` over the given draws."""
    sums = design.family_sums(vector)
    sizes = design.sizes
    exact = all(isinstance(v, int) for v in sums)
    out = []
    for idx in draws:
        total = sum(map(sums.__getitem__, idx)) if exact else math.fsum(map(sums.__getitem__, idx))
        n = sum(map(sizes.__getitem__, idx))
        out.append(scale * total / n)
    return out


def draw_denominators(design: FamilyDesign, draws: list[Any]) -> list[Any]:
    """Number of queries in each draw (the same for every vector)."""
    sizes = design.sizes
    return [sum(map(sizes.__getitem__, idx)) for idx in draws]


def draw_count_lanes(design: FamilyDesign, draws: list[Any], lane_bytes: int) -> list[Any]:
    """For each family ``f``, one int holding in lane ``d`` (``lane_bytes`` bytes, little-endian) the
    number of times draw ``d`` took ``f``: the draws as counts, packed across draws.  Cached on the
    design per draw list and width, so every vector (every system, every metric) reuses one packing."""
    cache = design.__dict__.setdefault("_count_lanes", {})
    key = (id(draws), lane_bytes)
    hit = cache.get(key)
    if hit is not None and hit[0] is draws:
        return hit[1]
    n_families, n_draws = design.n_families, len(draws)
    counts = [[0] * n_draws for _ in range(n_families)]
    for d, idx in enumerate(draws):
        for f in idx:
            counts[f][d] += 1
    lanes = [int.from_bytes(_lane_bytes(row, lane_bytes), "little") for row in counts]
    cache[key] = (draws, lanes)
    return lanes


_ARRAY_LANES = array("Q").itemsize == 8       # an unsigned 8-byte array type (every common platform)


def _lane_bytes(values: list[Any], lane_bytes: int) -> bytes:
    """Non-negative ints as consecutive little-endian lanes of ``lane_bytes`` bytes (8: one array call)."""
    if lane_bytes == 8 and _ARRAY_LANES:
        packed = array("Q", values)
        if sys.byteorder == "big":
            packed.byteswap()
        return packed.tobytes()
    return b"".join(v.to_bytes(lane_bytes, "little") for v in values)


def _from_lanes(raw: bytes, lane_bytes: int, count: int) -> list[Any]:
    """The ``count`` lanes of :func:`_lane_bytes` back as ints."""
    if lane_bytes == 8 and _ARRAY_LANES:
        lanes = array("Q")
        lanes.frombytes(raw)
        if sys.byteorder == "big":
            lanes.byteswap()
        return lanes.tolist()
    return [int.from_bytes(raw[d * lane_bytes:(d + 1) * lane_bytes], "little") for d in range(count)]


def draw_sums(design: FamilyDesign, vectors: list[Any], draws: list[Any]) -> list[Any]:
    """For each integer vector, its sum over the queries of each draw.

    A draw's sum is ``sum_f c_df * s_f`` (``c_df``: how often draw ``d`` took family ``f``; ``s_f``: the
    family sum).  The counts are packed across draws into one int per family
    (:func:`draw_count_lanes`, shared by every vector), so a vector costs ``F`` big-integer
    multiply-adds and one unpacking, and its result does not depend on which other vectors are summed
    with it: a system's intervals read only its own ranking.  Exact integer arithmetic: identical to
    summing each draw directly (tests/test_stats.py).

    >>> design = FamilyDesign(["a", "b", "c"], [["a", "b"], ["c"]])
    >>> draw_sums(design, [[1, 0, -1]], [[0, 0], [1, 0], [1, 1]])
    [[2, 0, -2]]
    """
    out = []
    n_draws = len(draws)
    sizes = [len(idx) for idx in draws]
    for vector in vectors:
        fam = design.family_sums(vector)
        if not fam or not n_draws:
            out.append([0] * n_draws)
            continue
        lo, hi = min(fam), max(fam)
        bias = -lo if lo < 0 else 0
        # whole 8-byte lanes, so that nearly every vector shares one packing of the draws
        lane_bytes = 8 * ((width_for(max(abs(lo), abs(hi)), bias, max(sizes)) + 63) // 64)
        lanes = draw_count_lanes(design, draws, lane_bytes)
        total = sum(map(mul, [v + bias for v in fam], lanes))
        raw = total.to_bytes(lane_bytes * n_draws, "little")
        out.append([v - bias * n for v, n in zip(_from_lanes(raw, lane_bytes, n_draws), sizes)])
    return out


def percentile_interval(dist: list[Any], level: float = LEVEL) -> tuple[Any, ...]:
    alpha = (1.0 - level) / 2.0
    return quantile(dist, alpha), quantile(dist, 1.0 - alpha)


def jackknife_family(design: Any, vector: Any, scale: Any = 100.0) -> Any:
    """Leave-one-family-out statistics (for the BCa acceleration)."""
    sums = design.family_sums(vector)
    exact = all(isinstance(v, int) for v in sums)
    total = sum(sums) if exact else math.fsum(sums)
    n = sum(design.sizes)
    return [scale * (total - s) / (n - k) for s, k in zip(sums, design.sizes)]


def bca_interval(dist: Any, theta_hat: Any, jackknife: Any, level: Any = LEVEL) -> Any:
    """Bias-corrected and accelerated interval (Efron and Tibshirani 1993, 14.3), as scipy computes it:
    ``z0 = Phi^-1((#{t < theta} + #{t <= theta}) / 2B)``, acceleration from the jackknife."""
    b = len(dist)
    below = sum(1 for t in dist if t < theta_hat) + sum(1 for t in dist if t <= theta_hat)
    frac = below / (2 * b)
    if frac <= 0.0 or frac >= 1.0:
        return None
    z0 = norm_ppf(frac)
    mean_j = math.fsum(jackknife) / len(jackknife)
    n = len(jackknife)
    u = [(n - 1) * (mean_j - t) for t in jackknife]
    num = math.fsum(x ** 3 for x in u) / n ** 3
    den = (math.fsum(x * x for x in u) / n ** 2) ** 1.5
    a = num / den / 6.0 if den else 0.0
    alpha = (1.0 - level) / 2.0
    za = norm_ppf(alpha)
    lo = norm_cdf(z0 + (z0 + za) / (1 - a * (z0 + za)))
    hi = norm_cdf(z0 + (z0 - za) / (1 - a * (z0 - za)))
    return quantile(dist, lo), quantile(dist, hi)
