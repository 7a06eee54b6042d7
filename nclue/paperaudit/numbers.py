"""Displayed numbers: extraction from text, the interval a displayed value stands for,
and the integer counts a displayed share over N queries allows (GRIM-style).

A value shown with ``d`` decimals stands for the closed interval
``[v - h, v + h]`` with ``h = 0.5 * 10**-d`` (closed, so a relation that holds
only at a rounding boundary is still found -- and reported as such).

>>> numbers_in("| BM25-AND | 26.8 | 57.2 | 1,000 (814 / 186) |")
['26.8', '57.2', '1,000', '814', '186']
>>> numbers_in("0.0 [$-2.7$,2.8] | Qwen3-Emb. 0.6B | top-3")
['0.0', '-2.7', '2.8', '0.6']
>>> counts_for(26.8, 1, 1000)
(268, 268)
>>> counts_for(53.2, 1, 186)
(99, 99)
"""

import math
import re
from fractions import Fraction

_NUMBER = re.compile(r"(?<![A-Za-z0-9_.\-])[-+]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)")


def clean(text):
    return (text.replace("$", "").replace("\\rightarrow", " ").replace("−", "-").replace("^{*}", "*")
            .replace("\\!", "").replace("\\leq", " <= ").replace("\\geq", " >= "))


def numbers_in(text):
    """Every displayed number in ``text`` (after removing TeX dollar signs), in order."""
    return _NUMBER.findall(clean(text))


def parse(text):
    """``(value as Fraction, decimals)`` of a displayed number such as ``-2.7``, ``.801``, ``1,000``."""
    t = text.replace(",", "")
    decimals = len(t.split(".", 1)[1]) if "." in t else 0
    return Fraction(t), decimals


def interval(value, decimals):
    """The closed interval a value displayed with ``decimals`` decimals stands for (exact Fractions)."""
    h = Fraction(1, 2 * 10 ** decimals)
    v = Fraction(value)
    return v - h, v + h


def counts_for(percent, decimals, n):
    """Integers ``k`` with ``100 k / n`` inside the displayed interval: ``(k_min, k_max)`` or None."""
    lo, hi = interval(Fraction(str(percent)) if not isinstance(percent, Fraction) else percent, decimals)
    k_lo = math.ceil(lo * n / 100)
    k_hi = math.floor(hi * n / 100)
    return (k_lo, k_hi) if k_lo <= k_hi else None
