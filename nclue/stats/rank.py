"""Average ranks and Spearman's rho (Pearson correlation of average ranks).

>>> average_ranks([10, 20, 20, 30])
[1.0, 2.5, 2.5, 4.0]
>>> round(spearman([1, 2, 3, 4], [1, 3, 2, 4]), 12)
0.8
"""

from __future__ import annotations

import math
from typing import Any


def average_ranks(values: list[Any]) -> list[Any]:
    order = sorted(range(len(values)), key=lambda i: (values[i], i))
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        avg = (i + j) / 2.0 + 1.0
        for t in range(i, j + 1):
            ranks[order[t]] = avg
        i = j + 1
    return ranks


def pearson(a: list[Any], b: list[Any]) -> float | None:
    n = len(a)
    ma, mb = math.fsum(a) / n, math.fsum(b) / n
    cov = math.fsum((x - ma) * (y - mb) for x, y in zip(a, b))
    va = math.fsum((x - ma) ** 2 for x in a)
    vb = math.fsum((y - mb) ** 2 for y in b)
    if va == 0 or vb == 0:
        return None
    return cov / math.sqrt(va * vb)


def spearman(a: list[Any], b: list[Any]) -> float | None:
    return pearson(average_ranks(a), average_ranks(b))
