"""Logistic regression by iteratively reweighted least squares, with Wald tests.

Model: ``P(y = 1 | x) = 1 / (1 + exp(-x . beta))`` with an intercept column.
IRLS (Newton-Raphson): ``beta <- beta + (X' W X)^-1 X' (y - p)``, ``W =
diag(p (1 - p))``, from ``beta = 0`` until the largest step is below 1e-12
(at most 100 iterations).  Standard errors are the square roots of the
diagonal of ``(X' W X)^-1`` at the solution; ``z = beta / SE``; two-sided
normal p-values.  Linear algebra is Gauss-Jordan elimination with partial
pivoting on the small normal-equation matrix; every sum is ``math.fsum``.
"""

from __future__ import annotations

import math
from operator import mul
from typing import Any

from ..core.errors import StatisticsError
from .quantiles import two_sided_normal_p


class FitError(StatisticsError):
    """The normal equations are singular (collinear covariates or separation)."""


def _invert(a: list[Any]) -> list[Any]:
    n = len(a)
    m = [list(row) + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: (abs(m[r][col]), -r))
        if abs(m[pivot][col]) < 1e-300:
            raise FitError("singular normal equations (collinear covariates or complete separation)")
        m[col], m[pivot] = m[pivot], m[col]
        inv = 1.0 / m[col][col]
        m[col] = [v * inv for v in m[col]]
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                f = m[r][col]
                m[r] = [a_ - f * b_ for a_, b_ in zip(m[r], m[col])]
    return [row[n:] for row in m]


def _sigmoid(t: float) -> float:
    if t >= 0:
        return 1.0 / (1.0 + math.exp(-t))
    e = math.exp(t)
    return e / (1.0 + e)


def logistic_fit(rows: list[Any], y: list[Any], max_iter: int = 100, tol: float = 1e-12,
                 trials: list[Any] | None = None) -> dict[str, Any]:
    """Fit on ``rows`` (covariate lists, intercept added first) and 0/1 ``y``.

    With ``trials`` (a positive count per row), ``y`` is the number of successes out of
    ``trials`` (binomial logistic regression): ``W = m p (1 - p)`` and the score is
    ``y - m p``.  This is the same likelihood, estimate and Wald SEs as the 0/1 fit on the rows
    repeated ``m`` times with ``y`` ones, computed on one row per covariate pattern.

    Returns ``{"coef", "se", "z", "p", "iterations", "converged"}``, lists with
    the intercept first.

    >>> fit = logistic_fit([[0], [1]], [1, 3], trials=[4, 4])
    >>> [round(c, 6) for c in fit["coef"]]     # logit(1/4) and logit(3/4) - logit(1/4)
    [-1.098612, 2.197225]
    """
    x = [[1.0] + [float(v) for v in r] for r in rows]
    m = [1.0] * len(x) if trials is None else [float(t) for t in trials]
    if len(m) != len(x) or any(not t > 0 for t in m):
        raise StatisticsError("trials must give a positive count per row")
    cols = [[xi[a] for xi in x] for a in range(len(x[0]))]
    beta, iterations, converged = _newton(x, cols, m, y, max_iter, tol)
    cov = _invert(_information(m, cols, _probabilities(x, beta)))
    if any(cov[a][a] <= 0 for a in range(len(beta))):
        raise FitError("non-positive variance estimate")
    se = [math.sqrt(cov[a][a]) for a in range(len(beta))]
    z = [b / s for b, s in zip(beta, se)]
    return {"coef": beta, "se": se, "z": z, "p": [two_sided_normal_p(v) for v in z],
            "iterations": iterations, "converged": converged}


def _information(m: list[Any], cols: list[Any], p: list[Any]) -> list[Any]:
    """X'WX with ``W = m p (1 - p)``, entry (a, b) = fsum of (w_i x_ia) x_ib: the same products in the same order
    as one row at a time, summed by fsum (exactly rounded), so the value does not depend on the order."""
    w = [mi * pi * (1.0 - pi) for mi, pi in zip(m, p)]
    k = len(cols)
    return [[math.fsum(map(mul, map(mul, w, cols[a]), cols[b])) for b in range(k)] for a in range(k)]


def _probabilities(x: list[Any], beta: list[Any]) -> list[Any]:
    return [_sigmoid(math.fsum(map(mul, beta, xi))) for xi in x]


def _newton(x: list[Any], cols: list[Any], m: list[Any], y: list[Any], max_iter: int, tol: float) -> tuple[Any, ...]:
    """Newton-Raphson (iteratively reweighted least squares) from ``beta = 0``: ``(beta, iterations, converged)``,
    converged when the largest step is below ``tol``."""
    k = len(cols)
    beta = [0.0] * k
    iterations, converged = 0, False
    for iterations in range(1, max_iter + 1):  # noqa: B007 -- its last value is the count returned
        p = _probabilities(x, beta)
        residual = [yi - mi * pi for yi, mi, pi in zip(y, m, p)]
        grad = [math.fsum(map(mul, residual, cols[a])) for a in range(k)]
        cov = _invert(_information(m, cols, p))
        step = [math.fsum(cov[a][b] * grad[b] for b in range(k)) for a in range(k)]
        beta = [b + s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < tol:
            converged = True
            break
    return beta, iterations, converged
