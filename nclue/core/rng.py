"""The package's one random generator (docs/statistics.md#the-random-generator).

Definition.  A stream is CPython's Mersenne Twister, ``random.Random(int_seed)``,
used only through ``getrandbits`` (and nothing else): its seeding from an
integer and its 32-bit output words are the parts of :mod:`random` that Python
keeps stable across versions and that PyPy reproduces.  Everything else --
``randbelow``, uniform floats, shuffles, weighted draws -- is written here, so
no Python release can change an output.

* ``randbelow(n)``: let ``k = n.bit_length()``; draw ``r = getrandbits(k)`` until
  ``r < n`` (rejection, exact uniform on ``0..n-1``).
* ``uniform()``: ``getrandbits(53) / 2**53`` (exact, in [0, 1)).
* Seeds are derived from a label path with SHA-256, so independent streams
  (``derive(11, "bootstrap", "v1")``) never overlap by accident.

>>> s = Stream(11)
>>> [s.randbelow(10) for _ in range(10)]
[7, 8, 7, 7, 8, 9, 3, 2, 8, 7]
"""

from __future__ import annotations

import array
import functools
import hashlib
import random
import re
import sys
from typing import Any

from .errors import StatisticsError

_TWO53 = float(1 << 53)


@functools.lru_cache(maxsize=None)
def _rejected_characters(n: int, k: int) -> re.Pattern[str]:
    """A pattern matching the characters ``chr(n) .. chr(2**k - 1)`` (the rejected words)."""
    return re.compile("[%s-%s]+" % (re.escape(chr(n)), re.escape(chr((1 << k) - 1))))


def _accepted(raw: int, w: int, k: int, n: int) -> array.array[Any]:
    """The words of :meth:`Stream.randbelow_batch`'s definition kept from ``raw`` (``w`` 16-bit words,
    least significant first): low ``k`` bits of each, those ``< n``, in order (an ``array("H")``)."""
    if k >= 16:                 # 32768 < n <= 65536: every bit of a word is kept
        words = array.array("H", raw.to_bytes(2 * w, "little"))
        if sys.byteorder == "big":
            words.byteswap()
        return words if n == 1 << 16 else array.array("H", [x for x in words if x < n])
    low = (1 << k) - 1
    raw &= int.from_bytes(low.to_bytes(2, "little") * w, "little")
    text = _rejected_characters(n, k).sub("", raw.to_bytes(2 * w, "little").decode("utf-16-le"))
    words = array.array("H", text.encode("utf-16-le"))
    if sys.byteorder == "big":
        words.byteswap()
    return words


def derive(*parts: int) -> int:
    """Return a 64-bit seed derived from ``parts`` (ints or strings) by SHA-256.

    >>> derive(11, "x") == derive(11, "x") != derive(11, "y")
    True
    """
    text = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


class Stream:
    """A deterministic stream of random integers and floats (see module doc)."""

    __slots__ = ("_bits",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise StatisticsError("seed must be a non-negative int")
        self._bits = random.Random(seed).getrandbits

    @classmethod
    def derived(cls, *parts: int) -> Stream:
        return cls(derive(*parts))

    def bits(self, k: int) -> int:
        return self._bits(k)

    def randbelow(self, n: Any) -> Any:
        """Uniform integer in ``0..n-1`` by rejection on ``n.bit_length()`` bits."""
        if n <= 0:
            raise StatisticsError("randbelow needs n > 0")
        k = n.bit_length()
        bits = self._bits
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r

    def randbelow_batch(self, n: int, count: int) -> list[Any]:
        """``count`` uniform integers in ``0..n-1`` (``n <= 2**16``), drawn in bulk (a list).

        Definition: take ``w = (need * 2**k) // n + need // 8 + 16`` 16-bit words
        (``k = n.bit_length()``, ``need`` = values still missing) from one
        ``getrandbits(16 * w)`` (least significant word first), keep each word's
        low ``k`` bits, reject values ``>= n``, and repeat with a
        fresh batch until ``count`` values are kept.  A different (but fully
        specified) stream from ``count`` calls of :meth:`randbelow`.

        How (the values are those of the definition; tests/test_stats.py compares them with a
        word-by-word loop): the low bits are kept by one big-integer AND for all words, and for
        ``n <= 2**15`` the rejection runs in C -- the words, all below ``2**15`` after the AND,
        are read as the UTF-16 code units of a string and one regular expression deletes the
        characters ``>= n``.

        >>> Stream(3).randbelow_batch(7, 5)
        [5, 3, 2, 2, 2]
        """
        if not 0 < n <= 1 << 16:
            raise StatisticsError("randbelow_batch needs 0 < n <= 65536")
        k = n.bit_length()
        out = array.array("H")
        while len(out) < count:
            need = count - len(out)
            w = (need << k) // n + need // 8 + 16
            out += _accepted(self._bits(16 * w), w, k, n)
        del out[count:]
        return out.tolist()

    def uniform(self) -> Any:
        """Uniform float in [0, 1) with 53 random bits."""
        return self._bits(53) / _TWO53

    def pick(self, seq: Any) -> Any:
        """One element of a non-empty sequence, uniformly."""
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items: Any) -> Any:
        """Fisher-Yates in place, from the end, with ``randbelow``."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def weighted_index(self, cumulative: Any, total: Any) -> Any:
        """Index ``i`` with probability ``w_i / total`` given integer cumulative weights."""
        r = self.randbelow(total)
        lo, hi = 0, len(cumulative) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if cumulative[mid] > r:
                hi = mid
            else:
                lo = mid + 1
        return lo

    def sample_distinct(self, n: Any, k: Any) -> Any:
        """``k`` distinct integers from ``0..n-1`` in draw order (partial Fisher-Yates)."""
        pool = list(range(n))
        out = []
        for i in range(k):
            j = i + self.randbelow(n - i)
            pool[i], pool[j] = pool[j], pool[i]
            out.append(pool[i])
        return out

    def normal(self) -> Any:
        """Standard normal by Box-Muller on two uniforms (cos branch only)."""
        import math

        u1 = 1.0 - self.uniform()
        u2 = self.uniform()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
