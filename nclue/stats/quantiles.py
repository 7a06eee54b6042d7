"""Quantiles and the normal distribution, standard library only.

``quantile`` is Hyndman and Fan's type 7 (linear interpolation between order
statistics), the default of numpy and of ``scipy.stats.quantile``, so our
percentile intervals equal scipy's on the same bootstrap distribution.

>>> quantile([1.0, 2.0, 3.0, 4.0], 0.25)
1.75
>>> round(norm_ppf(0.975), 6), round(norm_cdf(1.959964), 6)
(1.959964, 0.975)
"""

import math
from statistics import NormalDist

_STD = NormalDist()


def quantile(values, p):
    """Type-7 quantile of ``values`` (need not be sorted) at ``p`` in [0, 1]."""
    xs = sorted(values)
    if not xs:
        raise ValueError("quantile of no values")
    if not 0.0 <= p <= 1.0:
        raise ValueError("p must lie in [0, 1]")
    h = (len(xs) - 1) * p
    lo = math.floor(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])


def norm_cdf(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def norm_ppf(p):
    return _STD.inv_cdf(p)


def two_sided_normal_p(z):
    """``2 * (1 - Phi(|z|))`` computed as ``erfc(|z| / sqrt 2)``."""
    return math.erfc(abs(z) / math.sqrt(2.0))
