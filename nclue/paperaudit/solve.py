"""Granularity-aware arithmetic on displayed numbers (docs/paper-audit.md).

A displayed number is the closed interval it rounds from; a share over ``N``
queries is additionally one of the integers ``k`` with ``100 k / N`` in that
interval.  A relation holds when some assignment of true values consistent
with every displayed number satisfies it.  Each check returns a
:class:`Verdict`: ``ok``, ``boundary`` (satisfiable only at a rounding
boundary: some value must sit exactly on the edge of its interval), the
integer counts it recovered, and the arithmetic as text.
"""

from fractions import Fraction
from itertools import product as _cartesian

from .numbers import counts_for, interval, parse


class Num:
    """One transcribed number with its exact value, interval and (when a share) count range."""

    __slots__ = ("id", "text", "value", "decimals", "kind", "denominator", "lo", "hi")

    def __init__(self, record):
        self.id = record["id"]
        self.text = record["text"]
        self.value, self.decimals = parse(record["text"])
        self.kind = record["kind"]
        self.denominator = record.get("denominator")
        if self.kind == "count":
            self.lo = self.hi = self.value          # counts are shown exactly, not rounded
        else:
            self.lo, self.hi = interval(self.value, self.decimals)

    def counts(self, n=None):
        n = n or self.denominator
        if n is None or self.kind not in ("pct", "pts"):
            return None
        return counts_for(self.value, self.decimals, n)

    def shows(self, x):
        """Does exact ``x`` display as this number (round half up, half-open interval)?"""
        if self.kind == "count":
            return x == self.value
        return self.lo <= x < self.hi

    def at_tie(self, x):
        """Is exact ``x`` an edge of this number's display interval -- a tie that another rounding convention
        (half away from zero, half even) displays as this number although round half up does not always?"""
        return self.kind != "count" and (x == self.lo or x == self.hi)

    def __repr__(self):
        return "%s=%s" % (self.id, self.text)


class Verdict:
    def __init__(self, ok, detail, boundary=False, counts=None):
        self.ok, self.detail, self.boundary, self.counts = ok, detail, boundary, counts or {}


def _fmt(x):
    return "%.6g" % float(x)


def linear(terms, const=Fraction(0), label=""):
    """``sum c_i x_i == const`` with every ``x_i`` in its display interval.

    Display intervals are half-open ``[lo, hi)`` (round half up) and counts are
    exact.  The relation passes when some values inside the half-open
    intervals satisfy it; it passes *at a rounding boundary* when only the
    closed intervals allow it (some value must sit exactly on an edge).
    """
    lo = hi = Fraction(0)
    lo_in = hi_in = True
    for c, num in terms:
        exact = num.kind == "count"
        if c >= 0:
            lo, hi = lo + c * num.lo, hi + c * num.hi
            hi_in = hi_in and exact
        else:
            lo, hi = lo + c * num.hi, hi + c * num.lo
            lo_in = lo_in and exact
    closed = lo <= const <= hi
    strict = (lo < const < hi) or (const == lo and lo_in) or (const == hi and hi_in)
    text = "%s: sum in [%s, %s] %s %s" % (label or "linear", _fmt(lo), _fmt(hi), "contains" if closed else "excludes", _fmt(const))
    return Verdict(closed, text, boundary=closed and not strict)


def linear_counts(terms, const_count, n):
    """Integer form of :func:`linear` for shares over the same ``n``: ``sum c_i k_i == const_count``.

    Each term's ``k_i`` ranges over the integers its displayed value allows.
    Returns a verdict with one solution (the recovered counts) when it exists;
    falls back to None when a term has no denominator.
    """
    ranges = []
    for _c, num in terms:
        if num.kind not in ("pct", "pts"):
            return None
        r = num.counts(n)
        if r is None:        # GRIM: no integer k / n displays as this value
            return _grim_failure(terms, num, const_count, n)
        ranges.append(range(r[0], r[1] + 1))
    sizes = 1
    for r in ranges:
        sizes *= max(1, len(r))
    if sizes > 200000:
        return None
    strict, loose = _search_counts(terms, ranges, const_count, n)
    if any(len(r) == 0 for r in ranges):
        empty = [num.id for (c, num), r in zip(terms, ranges) if len(r) == 0]
        return Verdict(False, "no integer count k with 100k/%d displaying as %s" % (n, ", ".join(empty)))
    found = strict or loose
    if found is None:
        desc = ", ".join("%s in k=%d..%d" % (num.id, r.start, r.stop - 1) for (c, num), r in zip(terms, ranges))
        return Verdict(False, "no integer counts over N=%d satisfy the relation (%s)" % (n, desc))
    counts = {num.id: k for (_, num), k in zip(terms, found)}
    detail = "counts over N=%d: %s" % (n, ", ".join("%s=%d (%.4g%%)" % (i, k, 100.0 * k / n) for i, k in counts.items()))
    return Verdict(True, detail, boundary=strict is None, counts=counts)


def _search_counts(terms, ranges, const_count, n):
    """``(strict, loose)``: the first counts in ``ranges`` satisfying ``sum c_i k_i == const_count`` whose
    shares all display as published (``strict``), else the first satisfying it at all (``loose``)."""
    loose = None
    for ks in _cartesian(*ranges):
        if sum(c * k for (c, _), k in zip(terms, ks)) != const_count:
            continue
        if all(num.shows(Fraction(100 * k, n)) for (_, num), k in zip(terms, ks)):
            return ks, loose
        if loose is None:
            loose = ks
    return None, loose


def _grim_failure(terms, bad, const_count, n):
    """Explain a share no integer count can show, with the value the other terms imply when they pin it."""
    text = "no integer count k with 100k/%d displaying as %s (%s)" % (n, bad.text, bad.id)
    others, coef = [], None
    for c, num in terms:
        if num is bad:
            coef = c
            continue
        r = num.counts(n)
        if r is None or r[0] != r[1]:
            return Verdict(False, text)
        others.append((c, num, r[0]))
    rest = const_count - sum(c * k for c, _, k in others)
    implied = Fraction(rest, 1) / coef
    if implied.denominator == 1:
        x = Fraction(100 * implied, n)
        shown = ", ".join("%s -> %d/%d" % (num.text, k, n) for _, num, k in others)
        text += "; %s imply %d/%d = %.4f%%, which shows as %.1f" % (shown, int(implied), n, float(x), float(x))
    return Verdict(False, text)


def share(num, k, n):
    """Does ``k / n`` display as ``num`` (a percentage)?"""
    x = Fraction(100 * k, n)
    if num.shows(x):
        return Verdict(True, "%d/%d = %.4f%% shows as %s" % (k, n, float(x), num.text), counts={num.id: k})
    if num.lo <= x <= num.hi:
        return Verdict(True, "%d/%d = %.4f%% shows as %s only at the boundary" % (k, n, float(x), num.text), boundary=True)
    return Verdict(False, "%d/%d = %.4f%% does not show as %s" % (k, n, float(x), num.text))


def value_shows(num, x, what):
    x = Fraction(x)
    if num.shows(x):
        return Verdict(True, "%s = %.6f shows as %s" % (what, float(x), num.text))
    if num.lo <= x <= num.hi:
        return Verdict(True, "%s = %.6f shows as %s only at the boundary" % (what, float(x), num.text), boundary=True)
    return Verdict(False, "%s = %.6f does not show as %s (interval [%s, %s])" % (what, float(x), num.text, _fmt(num.lo), _fmt(num.hi)))


def feasible_le(a, b, strict=False):
    """``a <= b`` (or ``a < b``) for some values in the two display intervals."""
    closed = a.lo < b.hi if strict else a.lo <= b.hi
    inner = a.lo < b.hi or (not strict and a.lo == b.hi and b.kind == "count")
    return Verdict(closed, "%s %s %s is %s" % (a.text, "<" if strict else "<=", b.text, "possible" if closed else "impossible"),
                   boundary=closed and not inner)
