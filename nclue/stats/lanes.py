"""Many integer sums at once: fixed-width lanes packed into one Python int.

Summing the same selection of items for many vectors (every system's success
counts over one bootstrap draw, every endpoint's signed flips over one mask)
costs one big-integer addition per item instead of one per item per vector:
lane ``j`` of a packed int holds ``value_j + bias`` in ``width`` bits.  Widths
are chosen so no lane can overflow into the next, so unpacking is exact.

>>> packed = pack([[1, 2], [3, -4]], bias=8, width=8)
>>> unpack(packed[0] + packed[1], lanes=2, width=8, bias=8, count=2)
[4, -2]
"""

from __future__ import annotations

from operator import add, lshift
from typing import Any


def pack(rows: Any, bias: Any, width: Any) -> Any:
    """``rows[i]`` = the lane values of item ``i``; returns one int per item."""
    shifts = range(0, width * max(map(len, rows), default=0), width)
    biases = [bias] * len(shifts)
    # lanes never overlap, so the sum of the shifted lanes is their bitwise OR
    return [sum(map(lshift, map(add, row, biases), shifts)) for row in rows]


def unpack(total: Any, lanes: Any, width: Any, bias: Any, count: Any) -> Any:
    """Lane sums of ``count`` packed items (each lane carried ``count`` biases)."""
    mask = (1 << width) - 1
    offset = bias * count
    return [((total >> (j * width)) & mask) - offset for j in range(lanes)]


def width_for(max_abs_item: int, bias: int, count: int) -> int:
    """Bits per lane so that ``count`` items of magnitude <= ``max_abs_item`` never overflow."""
    return ((bias + max_abs_item) * count).bit_length() + 1
