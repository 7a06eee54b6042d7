"""Measures of how closely a re-run reproduces a released run (docs/statistics.md#reproduction-measures).

These are the measures of Breuer et al. (SIGIR 2020, "How to Measure the Reproducibility of
System-Oriented IR Experiments"), defined as repro_eval (the authors' library) computes them, so that
``nclue reproduce-run`` and repro_eval give the same numbers on the same rankings:

* **Kendall's tau union** (:func:`kendall_tau_union`): the union of the two top-k lists, sorted by docid;
  each list becomes the sequence of its documents' positions in that sorted union; tau is Kendall's tau-b
  between the two sequences, position by position.  (Within one list every document is distinct, so
  there are no ties and tau-b is (C - D) / (n(n-1)/2).)
* **Rank-biased overlap** (:func:`rank_biased_overlap`): Clarke et al.'s normalised truncated form that
  repro_eval uses, ``sum_{d<k} p^d |A_{:d+1} & B_{:d+1}| / (d+1)`` divided by ``sum_{d<k} p^d``.
* **RMSE** (:func:`rmse`) between the per-query values of a measure.
* **Effect ratio** and **Delta RI** (:func:`effect_ratio`, :func:`delta_relative_improvement`) of a
  baseline + advanced pair: ER = mean per-query improvement of the re-run / that of the original;
  Delta RI = RI_original - RI_re-run, RI = (mean advanced - mean baseline) / mean baseline.

Where repro_eval's definition is undefined, these return None instead of a NaN or an exception: tau of lists
shorter than two (one of them cut to the other's length when they differ, which repro_eval refuses), ER
when the original improvement is 0, RI when the baseline's mean is 0.

>>> kendall_tau_union(["a", "b", "c"], ["a", "b", "c"]), kendall_tau_union(["a", "b", "c"], ["c", "b", "a"])
(1.0, -1.0)
>>> round(rank_biased_overlap(["a", "b"], ["b", "a"], p=0.5, depth=2), 6)
0.333333
>>> effect_ratio([1, 1], [2, 2], [1, 1], [1.5, 1.5])
0.5
"""

from __future__ import annotations

import math
from typing import Any

RBO_P = 0.95          # repro_eval's default persistence
DEPTH = 10            # every list is a top-10 here (nclue.core.measures.DEPTH)


def kendall_tau_union(original: Any, rerun: Any, depth: Any = DEPTH) -> Any:
    """Kendall's tau union of two ranked lists of distinct docids, each cut at ``depth`` (module doc); None
    when fewer than two positions remain."""
    a, b = list(original)[:depth], list(rerun)[:depth]
    n = min(len(a), len(b))
    if n < 2:
        return None
    union = sorted(set(a) | set(b))
    where = {doc: i for i, doc in enumerate(union)}
    x, y = [where[d] for d in a[:n]], [where[d] for d in b[:n]]
    score = 0
    for i in range(n):
        for j in range(i + 1, n):
            s = (x[i] - x[j]) * (y[i] - y[j])
            score += (s > 0) - (s < 0)
    return score / (n * (n - 1) / 2)


def rank_biased_overlap(original: Any, rerun: Any, p: Any = RBO_P, depth: Any = DEPTH) -> Any:
    """Normalised truncated rank-biased overlap of two ranked lists at ``depth`` with persistence ``p``
    (module doc).  Symmetric in its two lists; 1.0 for identical lists of length ``depth``."""
    if not 0 < p <= 1 or depth < 1:
        raise ValueError("rank-biased overlap needs 0 < p <= 1 and depth >= 1")
    seen_a, seen_b = set(), set()
    total = norm = 0.0
    weight = 1.0
    for d in range(depth):
        if d < len(original):
            seen_a.add(original[d])
        if d < len(rerun):
            seen_b.add(rerun[d])
        total += weight * len(seen_a & seen_b) / (d + 1)
        norm += weight
        weight *= p
    return total / norm


def rmse(original: Any, rerun: Any) -> Any:
    """Root mean square error between two equal-length sequences of per-query values (None for none)."""
    if len(original) != len(rerun):
        raise ValueError("rmse of sequences of different lengths")
    if not original:
        return None
    return math.sqrt(math.fsum((a - b) ** 2 for a, b in zip(original, rerun)) / len(original))


def _mean(values: Any) -> Any:
    return math.fsum(values) / len(values)


def effect_ratio(original_base: Any, original_variant: Any, rerun_base: Any, rerun_variant: Any) -> Any:
    """ER = mean(rerun_variant - rerun_base) / mean(original_variant - original_base), per-query values over
    the same queries; None when the original improvement is 0."""
    denominator = _mean([v - b for b, v in zip(original_base, original_variant)])
    if denominator == 0:
        return None
    return _mean([v - b for b, v in zip(rerun_base, rerun_variant)]) / denominator


def relative_improvement(base: Any, variant: Any) -> Any:
    """RI = (mean variant - mean base) / mean base; None when the base's mean is 0."""
    mean_base = _mean(base)
    if mean_base == 0:
        return None
    return (_mean(variant) - mean_base) / mean_base


def delta_relative_improvement(original_base: Any, original_variant: Any, rerun_base: Any, rerun_variant: Any) -> Any:
    """Delta RI = RI(original) - RI(re-run); None when either RI is undefined."""
    ri_original = relative_improvement(original_base, original_variant)
    ri_rerun = relative_improvement(rerun_base, rerun_variant)
    if ri_original is None or ri_rerun is None:
        return None
    return ri_original - ri_rerun
