"""Agreement statistics (one implementation each; used by the paper audit and the label audit).

Each function takes plain integers (a confusion matrix, marginals, counts)
and returns the statistic as a float.  Definitions:

* Wilson score interval (Wilson 1927) for ``k`` successes in ``n``;
* Cohen's kappa, unweighted and linearly weighted (weights ``|i - j| / (K - 1)``
  on the full ordinal label set);
* Fleiss' kappa for binary ratings from the number of unanimous items and the
  total positive votes (that is all it depends on for three raters and two
  categories).
"""

from __future__ import annotations

import math
from typing import Any

from ..core.errors import StatisticsError
from .protocol import INTERVAL_LEVEL
from .quantiles import norm_ppf


def wilson(k: int, n: int, level: float = INTERVAL_LEVEL) -> tuple[Any, ...]:
    z = norm_ppf(1 - (1 - level) / 2)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def cohen_kappa(matrix: list[Any], weights: str = "none") -> float:
    """Cohen's kappa of a square confusion matrix (rows: rater 1, columns: rater 2)."""
    k = len(matrix)
    n = sum(sum(r) for r in matrix)
    rows = [sum(r) for r in matrix]
    cols = [sum(matrix[i][j] for i in range(k)) for j in range(k)]

    def w(i: int, j: int) -> float:
        if weights == "linear":
            return abs(i - j) / (k - 1)
        return 0.0 if i == j else 1.0

    observed = math.fsum(w(i, j) * matrix[i][j] for i in range(k) for j in range(k)) / n
    expected = math.fsum(w(i, j) * rows[i] * cols[j] for i in range(k) for j in range(k)) / (n * n)
    return 1.0 - observed / expected


def fleiss_binary(items: int, raters: int, unanimous: int, positives: int) -> float:
    """Fleiss' kappa for binary ratings: ``items`` rated by ``raters`` each, ``unanimous`` items with
    all raters agreeing, ``positives`` positive votes in all.  Valid for three raters, where every
    non-unanimous item splits 2-1 and has per-item agreement 1/3."""
    if raters != 3:
        raise StatisticsError("the marginal form needs three raters")
    split = items - unanimous
    p_bar = (unanimous + split / 3.0) / items
    p_pos = positives / (items * raters)
    p_e = p_pos ** 2 + (1 - p_pos) ** 2
    return (p_bar - p_e) / (1 - p_e)


def fleiss_kappa(table: list[Any]) -> float:
    """Fleiss' kappa from an items x categories table of rating counts (each row sums to the raters).

    ``P_i = (sum_j n_ij^2 - r) / (r (r - 1))``, ``P_bar`` their mean,
    ``p_j = sum_i n_ij / (N r)``, ``P_e = sum_j p_j^2``; kappa = ``(P_bar - P_e) / (1 - P_e)``.

    >>> round(fleiss_kappa([[3, 0], [0, 3], [2, 1], [3, 0]]), 4)
    0.625
    """
    n_items = len(table)
    r = sum(table[0]) if table else 0
    if n_items == 0 or r < 2 or any(sum(row) != r for row in table):
        raise StatisticsError("every item needs the same number (>= 2) of ratings")
    p_bar = math.fsum((sum(x * x for x in row) - r) / (r * (r - 1)) for row in table) / n_items
    k = len(table[0])
    p = [sum(row[j] for row in table) / (n_items * r) for j in range(k)]
    p_e = math.fsum(x * x for x in p)
    return (p_bar - p_e) / (1 - p_e)
