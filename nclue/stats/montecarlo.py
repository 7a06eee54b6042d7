"""Monte Carlo error: how far a resampled estimate may lie from another estimate of the same quantity
(paper section 3.4; docs/statistics.md#monte-carlo-error; docs/claims.md#monte-carlo-verdicts).

A p-value ``(1 + c) / (B + 1)`` from ``B`` random draws and a percentile endpoint of ``B`` bootstrap
replicates are estimates: a faithful re-run with another generator gives other digits.  A claim that is
such an estimate declares it with an :class:`Estimate` (its resampling, its statistic, this run's draws
and the paper's, its standard error at both, the value the paper's estimator has in expectation given
this run, and the values plausible wrong procedures give), and a published estimate is judged by
:func:`judge`:

    ``|published - expected| <= half a display unit + z * sqrt(se_paper**2 + se_run**2)``

with ``z`` = :data:`nclue.stats.protocol.MONTE_CARLO_Z`.  The standard errors:

* a p-value's count ``c`` is Binomial(B, p): ``se = m * sqrt(p (1 - p) / B)`` (:func:`p_value_se`), where ``m``
  is the Holm multiplier of an adjusted p (:func:`nclue.stats.randomization.holm_steps`; a max-|T| p is
  itself a count and needs none).  Where the run has the exact p (integer statistics:
  :func:`nclue.stats.randomization.exact_sign_flip_p`), ``se_run`` is 0 and the expected published value is
  that of the paper's estimator, ``(1 + B p) / (B + 1)`` (:func:`paper_estimator`);
* a percentile endpoint's standard error is the Maritz-Jarrett estimate from the replicates themselves
  (:func:`maritz_jarrett_se`, as ``scipy.stats.mstats.mjci`` computes it), and scales as ``1 / sqrt(B)``, so
  the paper's is ``se_run * sqrt(B_run / B_paper)``.

>>> round(p_value_se(0.05, 10000), 6), round(paper_estimator(0.0, 10000), 6)
(0.002179, 0.0001)
>>> e = Estimate("randomization", "p", 10000, 10000, expected=0.05, se=0.0022, se_paper=0.0022)
>>> judge(0.052, 3, e).consistent, judge(0.07, 3, e).consistent
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..core.errors import StatisticsError
from . import protocol
from .quantiles import quantile

STATISTICS = ("p", "percentile")
SIGNIFICANT = 12          # an estimate's reported floats keep 12 significant digits (byte-identical reports)


def reported(x: float) -> float:
    """``x`` rounded to :data:`SIGNIFICANT` significant digits (None passes through), so that the last bits
    of a standard error computed with ``math.exp`` and ``math.log`` never reach a report.

    >>> reported(0.1 + 0.2), reported(None)
    (0.3, None)
    """
    return None if x is None else float("%.*g" % (SIGNIFICANT, x))


def p_value_se(p: float, n_draws: int, multiplier: int = 1) -> float:
    """The Monte Carlo standard error of a p-value estimated from ``n_draws`` draws: ``multiplier`` times
    the binomial ``sqrt(p (1 - p) / B)``, ``p`` clamped to [0, 1]."""
    if n_draws <= 0:
        raise StatisticsError("a Monte Carlo p needs at least one draw")
    p = min(1.0, max(0.0, p))
    return multiplier * math.sqrt(p * (1.0 - p) / n_draws)


def count_of(p: Any, n_draws: Any) -> Any:
    """The count ``c`` of extreme draws behind ``p = (1 + c) / (B + 1)`` (a float: an adjusted p need not be
    one count)."""
    return p * (n_draws + 1) - 1


def paper_estimator(p: float, paper_draws: int) -> float:
    """What ``(1 + c) / (B + 1)`` with ``c`` ~ Binomial(``B`` = ``paper_draws``, ``p``) is in expectation:
    ``(1 + B p) / (B + 1)``.  A run's Monte Carlo p from ``B_run`` draws maps to the paper's estimator through
    ``p = c / B_run`` (:func:`translated`); on equal draws the two are the same number."""
    return (1.0 + paper_draws * p) / (paper_draws + 1.0)


def translated(p: float, n_draws: int, paper_draws: int) -> float:
    """A run's ``(1 + c) / (B_run + 1)`` as the paper's estimator at ``paper_draws`` would show it in
    expectation (:func:`paper_estimator` of ``c / B_run``).

    >>> translated(0.25, 3, 3), round(translated(11 / 10001, 10000, 1000), 6)
    (0.25, 0.001998)
    """
    if n_draws == paper_draws:
        return p
    return paper_estimator(max(0.0, count_of(p, n_draws)) / n_draws, paper_draws)


# -- Maritz-Jarrett: the standard error of a sample quantile from the sample itself

_WEIGHTS: dict[Any, Any] = {}
_NEGLIGIBLE = 1e-17


def _log_choose(n: int, k: int) -> float:
    k = min(k, n - k)
    return math.fsum(math.log((n - k + j) / j) for j in range(1, k + 1))


def _beta_cdfs_integer(xs: list[Any], a: int, b: int) -> list[Any]:
    """The regularized incomplete beta ``I_x(a, b)`` at each ``x`` of ``xs``, for integers ``a, b >= 1``:
    ``P(Binomial(a + b - 1, x) >= a)``, summed over the shorter tail in logarithms (the binomial coefficients
    computed once for every ``x``)."""
    n = a + b - 1
    lower = a <= n - a + 1
    ks = range(a) if lower else range(a, n + 1)
    log_choose = [_log_choose(n, k) for k in ks]
    out = []
    for x in xs:
        if x <= 0.0 or x >= 1.0:
            out.append(0.0 if x <= 0.0 else 1.0)
            continue
        lx, l1x = math.log(x), math.log1p(-x)
        tail = math.fsum(math.exp(c + k * lx + (n - k) * l1x) for c, k in zip(log_choose, ks))
        out.append(1.0 - tail if lower else tail)
    return out


def maritz_jarrett_weights(n: int, q: float) -> tuple[Any, ...]:
    """The weights ``W_i = I_{i/n}(m - 1, n - m) - I_{(i-1)/n}(m - 1, n - m)``, ``m = floor(q n + 1/2)``, of the
    Maritz-Jarrett estimate (Wilcox, *Introduction to Robust Estimation*, 3.5.2; ``scipy.stats.mstats.mjci``),
    as ``(first index, [weights])`` with the negligible ends trimmed; cached per ``(n, q)``."""
    key = (n, q)
    hit = _WEIGHTS.get(key)
    if hit is not None:
        return hit
    m = int(q * n + 0.5)
    if n < 3 or not 2 <= m <= n - 1:
        raise StatisticsError("a Maritz-Jarrett standard error needs 2 <= q n + 1/2 < n (n = %d, q = %g)" % (n, q))
    a, b = m - 1, n - m
    cdf = _beta_cdfs_integer([i / n for i in range(n + 1)], a, b)
    weights = [max(0.0, cdf[i] - cdf[i - 1]) for i in range(1, n + 1)]
    first = next(i for i, w in enumerate(weights) if w > _NEGLIGIBLE)
    last = max(i for i, w in enumerate(weights) if w > _NEGLIGIBLE)
    hit = (first, weights[first:last + 1])
    _WEIGHTS[key] = hit
    return hit


def maritz_jarrett_se(values: list[Any], q: float) -> float:
    """The Maritz-Jarrett standard error of the ``q`` quantile of ``values``: ``sqrt(C2 - C1**2)`` with
    ``Ck = sum_i W_i x_(i)**k`` (:func:`maritz_jarrett_weights`), computed about ``C1`` for accuracy.

    >>> round(maritz_jarrett_se([float(i) for i in range(1, 101)], 0.5), 4)
    5.0081
    """
    xs = sorted(values)
    first, weights = maritz_jarrett_weights(len(xs), q)
    window = xs[first:first + len(weights)]
    total = math.fsum(weights)
    c1 = math.fsum(w * x for w, x in zip(weights, window)) / total
    return math.sqrt(math.fsum(w * (x - c1) ** 2 for w, x in zip(weights, window)) / total)


# -- the declaration a claim carries, and the verdict on a published estimate

class Estimate:
    """A claim that is a Monte Carlo estimate (see module doc): ``resampling`` (the protocol row's name),
    ``statistic`` (``p`` or ``percentile``), this run's ``n_draws`` and the paper's ``paper_draws``,
    ``expected`` (the value the paper's estimator has in expectation given this run), ``se`` and ``se_paper``,
    ``exact`` (the expectation comes from an exact p: ``se`` is 0) and ``alternatives``: ``(name, value)``
    pairs, the values plausible wrong procedures give, on the same scale as ``expected``.  An alternative whose
    value is the expected value itself is left out: for that number the two procedures are the same (a block
    with one endpoint has max-|T| p = raw p), so there is nothing to tell apart."""

    kind = "monte_carlo"
    __slots__ = ("resampling", "statistic", "n_draws", "paper_draws", "expected", "se", "se_paper", "exact",
                 "alternatives")

    def __init__(self, resampling: str, statistic: str, n_draws: int, paper_draws: int, expected: float, se: float,
                 se_paper: float, exact: bool = False, alternatives: Sequence[Any] = ()) -> None:
        if statistic not in STATISTICS:
            raise StatisticsError("unknown Monte Carlo statistic %r" % (statistic,))
        self.resampling, self.statistic = resampling, statistic
        self.n_draws, self.paper_draws = int(n_draws), int(paper_draws)
        self.expected, self.se, self.se_paper = reported(expected), reported(se), reported(se_paper)
        self.exact = bool(exact)
        self.alternatives = tuple((str(name), reported(value)) for name, value in alternatives
                                  if value is not None and reported(value) != reported(expected))

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "resampling": self.resampling, "statistic": self.statistic,
                "n_draws": self.n_draws, "paper_draws": self.paper_draws, "expected": self.expected, "se": self.se,
                "se_paper": self.se_paper, "exact": self.exact,
                "alternatives": [[name, value] for name, value in self.alternatives]}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Estimate:
        return cls(obj["resampling"], obj["statistic"], obj["n_draws"], obj["paper_draws"], obj["expected"],
                   obj["se"], obj["se_paper"], obj["exact"], [tuple(a) for a in obj["alternatives"]])

    def scaled(self, factor: int) -> Estimate:
        """The same estimate in another unit (``factor`` times every value and standard error)."""
        f = abs(factor)
        return Estimate(self.resampling, self.statistic, self.n_draws, self.paper_draws, self.expected * factor,
                        self.se * f, self.se_paper * f, self.exact,
                        [(name, value * factor) for name, value in self.alternatives])


class TieOrders:
    """A value that depends on an order the paper does not state (documents tied at a cut-off): every
    admissible order's value (``values``, distinct and sorted), how many orders there are, and the cut
    (``rank``: the cut-off, ``tied``: the documents tied across it, ``slots``: how many of them it takes).
    A published number agrees when it shows as one of the values."""

    kind = "tie_orders"
    __slots__ = ("values", "orders", "rank", "tied", "slots", "enumerated")

    def __init__(self, values: list[Any], orders: int, rank: int, tied: int, slots: int,
                 enumerated: bool = True) -> None:
        self.values = tuple(sorted({reported(v) for v in values if v is not None}))
        self.orders, self.rank, self.tied, self.slots = int(orders), int(rank), int(tied), int(slots)
        self.enumerated = bool(enumerated)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "values": list(self.values), "orders": self.orders, "rank": self.rank,
                "tied": self.tied, "slots": self.slots, "enumerated": self.enumerated}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> TieOrders:
        return cls(obj["values"], obj["orders"], obj["rank"], obj["tied"], obj["slots"], obj["enumerated"])

    def scaled(self, factor: int) -> TieOrders:
        return TieOrders([v * factor for v in self.values], self.orders, self.rank, self.tied, self.slots,
                         self.enumerated)


KINDS: dict[str, Any] = {Estimate.kind: Estimate, TieOrders.kind: TieOrders}


def from_json(obj: dict[str, Any]) -> Estimate | TieOrders | None:
    """The declaration a frozen or reported claim carries (None for an exact claim)."""
    if obj is None:
        return None
    return KINDS[obj["kind"]].from_json(obj)


class Verdict:
    """:func:`judge`'s answer: ``consistent``; ``resolvable`` (no plausible wrong procedure is consistent too);
    ``distance`` (|published - expected| in combined standard errors; None when they are 0); ``tolerance``;
    ``combined_se``; ``inside`` (the alternatives within the tolerance)."""

    __slots__ = ("consistent", "resolvable", "distance", "tolerance", "combined_se", "inside", "difference")

    def __init__(self, consistent: Any, resolvable: Any, distance: Any, tolerance: Any, combined_se: Any, inside: Any,
                 difference: Any) -> None:
        self.consistent, self.resolvable, self.distance = consistent, resolvable, distance
        self.tolerance, self.combined_se, self.inside, self.difference = tolerance, combined_se, inside, difference


def half_unit(decimals: Any) -> Any:
    """Half a display unit of a number shown with ``decimals`` decimals."""
    return 0.5 * 10.0 ** (-decimals)


def judge(published: Any, decimals: Any, estimate: Any, z: Any = None) -> Any:
    """The Monte Carlo verdict on a published estimate shown with ``decimals`` decimals (see module doc)."""
    z = protocol.MONTE_CARLO_Z if z is None else z
    combined = math.sqrt(estimate.se ** 2 + estimate.se_paper ** 2)
    tolerance = half_unit(decimals) + z * combined
    difference = abs(published - estimate.expected)
    slack = 1e-12 * max(1.0, abs(published))
    consistent = difference <= tolerance + slack
    inside = tuple(name for name, value in estimate.alternatives if abs(published - value) <= tolerance + slack)
    distance = difference / combined if combined > 0 else None
    return Verdict(consistent, not inside, distance, tolerance, combined, inside, difference)


# -- declaring an estimate (the analyses' side)

def percentile_estimate(distribution: list[Any], q: float, resampling: Any,
                        alternatives: Sequence[Any] = ()) -> Estimate:
    """The :class:`Estimate` of the ``q`` percentile endpoint of a bootstrap ``distribution`` drawn by the
    protocol row ``resampling``: its Maritz-Jarrett standard error at this run's draws, scaled to the paper's
    (``sqrt(B_run / B_paper)``); ``alternatives``: ``(name, endpoint)`` of plausible wrong procedures."""
    n = len(distribution)
    se = maritz_jarrett_se(distribution, q)
    return Estimate(resampling.name, "percentile", n, resampling.paper_draws, expected=_type7(distribution, q),
                    se=se, se_paper=se * math.sqrt(n / resampling.paper_draws), alternatives=alternatives)


def _type7(values: list[Any], q: float) -> float:
    return quantile(values, q)


def p_estimate(p: float, resampling: Any, n_draws: int, expected: float | None = None, multiplier: int = 1,
               determining: float | None = None, exact: float | None = None,
               alternatives: Sequence[Any] = ()) -> Estimate:
    """The :class:`Estimate` of a p-value from ``n_draws`` draws of the protocol row ``resampling``.

    ``exact``: the exact p of the same test, when the run has it: the expected published value is then the
    paper's estimator's, ``(1 + B p) / (B + 1)``, and this run's standard error is 0.  Otherwise ``expected``
    (default: ``p`` as the paper's draws would show it, :func:`translated`) and the binomial standard error of
    ``determining`` (the raw p behind an adjusted one; default ``p``) times ``multiplier`` (Holm's).
    ``alternatives``: ``(name, value)`` of plausible wrong procedures, on the paper's estimator's scale."""
    paper = resampling.paper_draws
    if exact is not None:
        return Estimate(resampling.name, "p", n_draws, paper, expected=paper_estimator(exact, paper), se=0.0,
                        se_paper=p_value_se(exact, paper), exact=True, alternatives=alternatives)
    base = p if determining is None else determining
    return Estimate(resampling.name, "p", n_draws, paper,
                    expected=translated(p, n_draws, paper) if expected is None else expected,
                    se=p_value_se(base, n_draws, multiplier),
                    se_paper=p_value_se(translated(base, n_draws, paper), paper, multiplier),
                    alternatives=alternatives)
