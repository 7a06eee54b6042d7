"""The kinds of relation the paper audit checks, each a constructor of a :class:`Relation` (docs/paper-audit.md).

A relation names the numbers it involves, whether it *determines* them
(``identity``: sums, differences, equal values, recombination, recomputed
statistics -- a wrong digit breaks it) or only *bounds* them (``bound``: an
interval contains a point, an ordering, "at least"), and a check that
returns a :class:`~nclue.paperaudit.solve.Verdict`.  Shares over N queries
are checked on the integer counts their displayed values allow
(GRIM-style).  The relations themselves are declared, one literal row each,
in :mod:`nclue.paperaudit.relations`.

Coefficients and scales may be written as fraction strings (``"1/100"``).

>>> from nclue.paperaudit.solve import Num
>>> values = {"a": Num({"id": "a", "text": "26.8", "kind": "pct", "denominator": 1000}),
...           "b": Num({"id": "b", "text": "30.4", "kind": "pct", "denominator": 1000}),
...           "c": Num({"id": "c", "text": "42.8", "kind": "pct", "denominator": 1000})}
>>> r = total("x", ["a", "b", "c"], 100, "outcomes sum to 100", n=1000)
>>> r.kind, r.ids, r.fn(values).ok
('identity', ['a', 'b', 'c'], True)
"""

from fractions import Fraction
from itertools import product as _cartesian

from ..stats import agreement
from .solve import Verdict, feasible_le, linear, linear_counts, value_shows
from .solve import share as share_verdict


class Relation:
    """``determines``: the numbers a wrong digit in which breaks the relation (all of ``ids`` for
    sums, differences and equalities; only the result for a recomputed statistic or an extreme;
    none for a bound)."""

    __slots__ = ("id", "description", "ids", "kind", "fn", "source", "determines")

    def __init__(self, id, description, ids, fn, kind="identity", source="", determines=None):
        self.id, self.description, self.ids, self.fn, self.kind, self.source = id, description, list(ids), fn, kind, source
        if determines is None:
            determines = list(ids) if kind == "identity" else []
        self.determines = list(determines)


def _frac(x):
    return Fraction(x) if isinstance(x, str) else x


def _int(v, i):
    return int(v[i].value)


# ---- sums, differences, equalities (linear identities) ------------------------------------------

def _linear_check(terms, const=0, n=None):
    """sum(c * x) == const, on integer counts over n when every term allows it."""
    def fn(v):
        nums = [(Fraction(_frac(c)), v[i]) for c, i in terms]
        if n is not None:
            verdict = linear_counts(nums, Fraction(const) * n / 100, n)
            if verdict is not None:
                return verdict
        return linear(nums, Fraction(const))
    return fn


def equal(id, a, b, description, n=None):
    """``a == b`` (two displays of one quantity)."""
    return Relation(id, description, [a, b], _linear_check([(1, a), (-1, b)], 0, n))


def difference(id, a, b, d, description, n=None):
    """``a - b == d``."""
    return Relation(id, description, [a, b, d], _linear_check([(1, a), (-1, b), (-1, d)], 0, n))


def total(id, parts, value, description, n=None):
    """``sum(parts) == value`` for a literal value."""
    return Relation(id, description, list(parts), _linear_check([(1, p) for p in parts], value, n))


def sums_to(id, parts, target, description, n=None):
    """``sum(parts) == target`` for a transcribed target."""
    return Relation(id, description, list(parts) + [target],
                    _linear_check([(1, p) for p in parts] + [(-1, target)], 0, n))


def weighted(id, terms, description, kind="identity"):
    """``sum(c * x) == 0`` with literal coefficients (fraction strings allowed), no integer counts."""
    return Relation(id, description, [i for _, i in terms], _linear_check(terms), kind=kind)


def constant(id, target, value, description):
    """``target`` shows the literal ``value``."""
    return Relation(id, description, [target], lambda v: value_shows(v[target], Fraction(value), description))


# ---- shares and counts --------------------------------------------------------------------------

def recombine(id, parts, whole, description):
    """Integer counts k_i of shares over N_i add up to the whole's count over N (``parts``: [(id, N)])."""
    def fn(v):
        ranges = []
        for pid, size in parts:
            r = v[pid].counts(size)
            if r is None:
                return Verdict(False, "%s allows no integer count over %d" % (pid, size))
            ranges.append(range(r[0], r[1] + 1))
        wid, wsize = whole
        wr = v[wid].counts(wsize)
        if wr is None:
            return Verdict(False, "%s allows no integer count over %d" % (wid, wsize))
        for ks in _cartesian(*ranges):
            if wr[0] <= sum(ks) <= wr[1]:
                counts = {pid: k for (pid, _), k in zip(parts, ks)}
                counts[wid] = sum(ks)
                strict = all(v[pid].shows(Fraction(100 * k, s)) for (pid, s), k in zip(parts, ks)) and \
                    v[wid].shows(Fraction(100 * sum(ks), wsize))
                text = " + ".join("%d/%d" % (k, s) for (_, s), k in zip(parts, ks))
                return Verdict(True, "%s = %d/%d" % (text, sum(ks), wsize), boundary=not strict, counts=counts)
        return Verdict(False, "no counts: %s cannot add up to %s's k in %d..%d" % (
            ", ".join("%s k in %d..%d over %d" % (p, r.start, r.stop - 1, s) for (p, s), r in zip(parts, ranges)),
            wid, wr[0], wr[1]))
    return Relation(id, description, [p for p, _ in parts] + [whole[0]], fn)


def share(id, k, n, pct, description):
    """Count ``k`` of ``n`` displays as the percentage ``pct`` (k, n: ids or literal ints)."""
    def fn(v):
        kk = _int(v, k) if isinstance(k, str) else k
        nn = _int(v, n) if isinstance(n, str) else n
        return share_verdict(v[pct], kk, nn)
    ids = [x for x in (k, n, pct) if isinstance(x, str)]
    return Relation(id, description, ids, fn, determines=[pct])


def count_exists(id, pct, n, description):
    """Some integer count ``k`` of ``n`` (an id or a literal int) displays as the percentage ``pct``
    (GRIM-style: a share whose population is known but whose count is not published)."""
    def fn(v):
        nn = _int(v, n) if isinstance(n, str) else n
        r = v[pct].counts(nn)
        if r is None:
            return Verdict(False, "no integer count over %d displays as %s%%" % (nn, v[pct].text))
        return Verdict(True, "%s%% of %d is %s/%d" % (v[pct].text, nn, r[0] if r[0] == r[1] else "%d..%d" % r, nn),
                       counts={pct: r[0]} if r[0] == r[1] else {})
    return Relation(id, description, [x for x in (pct, n) if isinstance(x, str)], fn, kind="bound")


# ---- bounds -------------------------------------------------------------------------------------

def contains(id, lo, x, hi, description):
    """``lo <= x <= hi`` (an interval contains a point estimate)."""
    def fn(v):
        a, b = feasible_le(v[lo], v[x]), feasible_le(v[x], v[hi])
        return Verdict(a.ok and b.ok, "%s; %s" % (a.detail, b.detail))
    return Relation(id, description, [lo, x, hi], fn, kind="bound")


def order(id, a, b, description, strict=True):
    """``a < b`` (``strict``) or ``a <= b`` for some values the displays allow."""
    return Relation(id, description, [a, b], lambda v: feasible_le(v[a], v[b], strict), kind="bound")


def at_most_sum(id, a, parts, description):
    """``a <= sum(parts)`` for some values the displays allow (a part of several counts is at most their sum)."""
    def fn(v):
        top = sum(v[p].hi for p in parts)
        ok = v[a].lo <= top
        return Verdict(ok, "%s <= %s = %s is %s" % (v[a].text, " + ".join(v[p].text for p in parts), _show_sum(top),
                                                   "possible" if ok else "impossible"))
    return Relation(id, description, [a] + list(parts), fn, kind="bound")


def _show_sum(x):
    return str(x.numerator) if x.denominator == 1 else "%.6g" % float(x)


def extreme(id, target, members, which, description, scale=1):
    """target == min (or max) of members (members possibly rescaled, e.g. points -> proportion)."""
    factor = _frac(scale)

    def fn(v):
        ends = [sorted((v[m].lo * factor, v[m].hi * factor)) for m in members]
        los = [e[0] for e in ends]
        his = [e[1] for e in ends]
        lo, hi = (min(los), min(his)) if which == "min" else (max(los), max(his))
        t = v[target]
        ok = t.lo <= hi and lo <= t.hi
        inner = t.lo < hi and lo < t.hi
        return Verdict(ok, "%s of %s lies in [%.6g, %.6g]; %s stands for [%.6g, %.6g]" % (
            which, ",".join(members), float(lo), float(hi), t.text, float(t.lo), float(t.hi)),
            boundary=ok and not inner)
    return Relation(id, description, [target] + list(members), fn, determines=[target])


# ---- statistics recomputed from other published numbers -----------------------------------------

def _confusion(v, cells):
    return [[_int(v, cells[4 * a + e]) for e in range(4)] for a in range(4)]


FORMULAS = {
    # name: (inputs, params) -> function of the values
    "quotient": lambda ids, p: lambda v: v[ids[0]].value / v[ids[1]].value,
    "product_minus": lambda ids, p: lambda v: v[ids[0]].value * v[ids[1]].value - v[ids[2]].value,
    "linear": lambda ids, p: lambda v: sum(_frac(c) * v[i].value for c, i in zip(p["coefficients"], ids)),
    "confusion_total": lambda ids, p: lambda v: sum(sum(r) for r in _confusion(v, ids)),
    "confusion_diagonal": lambda ids, p: lambda v: sum(_confusion(v, ids)[i][i] for i in range(4)),
    "confusion_off_diagonal": lambda ids, p: lambda v: (sum(sum(r) for r in _confusion(v, ids))
                                                        - sum(_confusion(v, ids)[i][i] for i in range(4))),
    "confusion_linear_kappa": lambda ids, p: lambda v: agreement.cohen_kappa(_confusion(v, ids), "linear"),
    "fleiss_binary": lambda ids, p: lambda v: agreement.fleiss_binary(_int(v, ids[0]), 3, _int(v, ids[1]),
                                                                      _int(v, ids[2])),
}


def statistic(id, inputs, formula, target, description, **params):
    """``target`` shows ``FORMULAS[formula]`` computed from ``inputs`` (see :data:`FORMULAS`)."""
    compute = FORMULAS[formula](list(inputs), params)
    return Relation(id, description, list(inputs) + [target],
                    lambda v: value_shows(v[target], Fraction(compute(v)), description), determines=[target])


# ---- bespoke relations --------------------------------------------------------------------------

def holm_feasible(id, p_ids, blocks, draws, description):
    """Displayed Sel.+Holm p-values admit raw p-values on the (1 + c) / (draws + 1) grid (Holm step-down
    over ``blocks``)."""
    def fn(v):
        nums = sorted((v[i] for i in p_ids), key=lambda x: (x.value, x.id))
        grid = Fraction(1, draws + 1)
        prev_p = Fraction(0)
        prev_adj_hi = Fraction(0)
        chosen = []
        for rank, num in enumerate(nums):
            factor = blocks - rank
            lo, hi = max(num.lo, Fraction(0)), num.hi
            # adjusted_i = min(1, max(prev_adj, factor * p_i)); find the smallest grid p_i >= prev_p
            c0 = max(0, -(-((prev_p / grid) - 1).numerator // ((prev_p / grid) - 1).denominator)) if prev_p else 0
            found = None
            for c in range(int(c0), draws + 1):
                p = (1 + c) * grid
                if p < prev_p:
                    continue
                adj = min(Fraction(1), max(prev_adj_hi if rank else Fraction(0), factor * p))
                if lo <= adj <= hi:
                    found = (p, adj)
                    break
                if factor * p > hi and adj > hi:
                    break
            if found is None:
                return Verdict(False, "no raw p on the 1/(%d+1) grid gives Holm-adjusted %s at rank %d (factor %d)" % (
                    draws, num.text, rank + 1, factor))
            prev_p, prev_adj_hi = found
            chosen.append("%s<-p=%d/%d" % (num.text, int(found[0] * (draws + 1)), draws + 1))
        return Verdict(True, "raw p-values consistent with Holm over %d blocks: %s" % (blocks, ", ".join(chosen)))
    return Relation(id, description, list(p_ids), fn, kind="bound")


def least_gap(id, target, slices, size, description):
    """'At least <target> points' on a slice: the smallest exact hit - score gap over the listed systems,
    from counts over ``size`` (``slices``: [(system, hit id, score id)])."""
    def fn(v):
        gaps = []
        for system, hit, score in slices:
            h, sc = v[hit].counts(size), v[score].counts(size)
            if h is None or sc is None:
                return Verdict(False, "%s long-slice values allow no count over %d" % (system, size))
            gaps.append((Fraction(100 * (h[0] - sc[1]), size), Fraction(100 * (h[1] - sc[0]), size), system))
        low = min(g[0] for g in gaps)
        high_of_min = min(g[1] for g in gaps)
        t = v[target]
        ok = high_of_min >= t.lo
        strict = high_of_min >= t.value
        return Verdict(ok, "smallest long-slice gap lies in [%.4f, %.4f] (%s); 'at least %s' %s" % (
            float(low), float(high_of_min), min(gaps)[2], t.text,
            "holds" if strict else ("holds only as a rounded statement" if ok else "fails")), boundary=ok and not strict)
    ids = [target] + [i for _, hit, score in slices for i in (hit, score)]
    return Relation(id, description, ids, fn, kind="bound")


def coverage_split(id, support, full, full_n2, full_n3, queries, queries_n3, description):
    """Gold+Support successes = full-coverage successes among hit queries, overall and split by n:
    find hit counts H = H2 + H3 and successes a2 + a3 = support count consistent with every shown share."""
    queries_n2 = queries - queries_n3

    def fn(v):
        sup = v[support].counts(queries)
        if sup is None:
            return Verdict(False, "Gold+Support allows no count over 1,000")
        f_all, f2, f3 = v[full], v[full_n2], v[full_n3]
        for a in range(sup[0], sup[1] + 1):
            for h3 in range(0, queries_n3 + 1):
                for a3 in range(0, min(a, h3) + 1):
                    if h3 and not f3.lo <= Fraction(100 * a3, h3) <= f3.hi:
                        continue
                    if not h3 and a3:
                        continue
                    a2 = a - a3
                    # h2 from a2 / h2 in f2's interval
                    if a2 == 0:
                        continue
                    h2_lo = int(-(-100 * a2 // f2.hi)) if f2.hi else 0
                    h2_hi = int(100 * a2 // f2.lo) if f2.lo > 0 else queries_n2
                    for h2 in range(max(h2_lo, a2), min(h2_hi, queries_n2) + 1):
                        if not f2.lo <= Fraction(100 * a2, h2) <= f2.hi:
                            continue
                        if f_all.lo <= Fraction(100 * a, h2 + h3) <= f_all.hi:
                            return Verdict(True, "support %d/1000; hits %d = %d (n=2) + %d (n=3); full %d/%d = %.2f%%, "
                                                 "n=2 %d/%d = %.2f%%, n=3 %d/%d = %.2f%%" % (
                                                     a, h2 + h3, h2, h3, a, h2 + h3, 100.0 * a / (h2 + h3), a2, h2,
                                                     100.0 * a2 / h2, a3, h3, 100.0 * a3 / h3 if h3 else 0.0),
                                           counts={"hits": h2 + h3, "hits_n2": h2, "hits_n3": h3, "success": a})
        return Verdict(False, "no hit counts make full coverage %s, its n-split %s / %s and Gold+Support %s agree" % (
            f_all.text, f2.text, f3.text, v[support].text))
    return Relation(id, description, [support, full, full_n2, full_n3], fn, kind="bound")


def wilson_interval(id, k, n, lo, hi, description):
    """The displayed 95% Wilson interval of ``k`` of ``n`` (in percent)."""
    def fn(v):
        a, b = agreement.wilson(_int(v, k), _int(v, n))
        va, vb = value_shows(v[lo], Fraction(100 * a), "Wilson low"), value_shows(v[hi], Fraction(100 * b), "Wilson high")
        return Verdict(va.ok and vb.ok, "Wilson(%d/%d) = [%.3f, %.3f]%%: %s; %s" % (
            _int(v, k), _int(v, n), 100 * a, 100 * b, va.detail, vb.detail), boundary=va.boundary or vb.boundary)
    return Relation(id, description, [k, n, lo, hi], fn)


def binary_kappa(id, items, agree, a_positive, e_positive, kappa, description):
    """Cohen's kappa of two binary raters from items, agreements and each rater's positives (the 2x2
    table they imply)."""
    def fn(v):
        n, ag, a_pos, e_pos = _int(v, items), _int(v, agree), _int(v, a_positive), _int(v, e_positive)
        both = (a_pos + e_pos - (n - ag))
        if both % 2:
            return Verdict(False, "A+E positives and disagreements have odd parity: no 2x2 table")
        both //= 2
        table = [[both, a_pos - both], [e_pos - both, n - a_pos - e_pos + both]]
        if min(min(r) for r in table) < 0:
            return Verdict(False, "negative cell in the implied 2x2 table %s" % table)
        verdict = value_shows(v[kappa], Fraction(agreement.cohen_kappa(table)), "binary kappa of %s" % table)
        verdict.counts = {"both_positive": both, "A_only": table[0][1], "E_only": table[1][0], "both_negative": table[1][1]}
        return verdict
    return Relation(id, description, [items, agree, a_positive, e_positive, kappa], fn)


def agreement_by_n(id, agree, pairs, share_n2, share_n3, cells, description):
    """Agreements split over the n=2 and n=3 pairs at the displayed shares; grade-3 pairs (row and column
    3 of the 4x4 confusion matrix ``cells``) are n=3."""
    def fn(v):
        m = _confusion(v, cells)
        min_n3 = sum(m[3]) + sum(m[i][3] for i in range(3))
        ag, total_pairs = _int(v, agree), _int(v, pairs)
        p2, p3 = v[share_n2], v[share_n3]
        for n3 in range(min_n3, total_pairs + 1):
            n2 = total_pairs - n3
            for a3 in range(0, n3 + 1):
                a2 = ag - a3
                if 0 <= a2 <= n2 and n2 and p2.lo <= Fraction(100 * a2, n2) <= p2.hi and p3.lo <= Fraction(100 * a3, n3) <= p3.hi:
                    return Verdict(True, "n=2: %d/%d = %.2f%%, n=3: %d/%d = %.2f%% (at least %d n=3 pairs from grade 3)" % (
                        a2, n2, 100.0 * a2 / n2, a3, n3, 100.0 * a3 / n3, min_n3),
                        counts={"pairs_n2": n2, "pairs_n3": n3, "agree_n2": a2, "agree_n3": a3})
        return Verdict(False, "no split of 300 pairs and 254 agreements gives 85.3% (n=2) and 83.6% (n=3)")
    return Relation(id, description, [agree, pairs, share_n2, share_n3] + list(cells), fn, kind="bound")


def pairwise_splits(id, pair_shares, unanimous, items, n, description):
    """With three raters, each non-unanimous binary item disagrees in exactly two of the three pairs:
    the pairwise disagreements (from the displayed shares over ``n``) equal twice the split items."""
    def fn(v):
        ks = []
        for i in pair_shares:
            r = v[i].counts(n)
            if r is None:
                return Verdict(False, "%s allows no count over %d" % (i, n))
            ks.append(range(r[0], r[1] + 1))
        split = _int(v, items) - _int(v, unanimous)
        for combo in _cartesian(*ks):
            if sum(n - k for k in combo) == 2 * split:
                return Verdict(True, "pairwise agreements %s/%d: disagreements %d = 2 x %d split items" % (
                    "/".join(str(k) for k in combo), n, sum(n - k for k in combo), split),
                    counts=dict(zip(("pair1", "pair2", "pair3"), combo)))
        return Verdict(False, "pairwise disagreements cannot equal 2 x %d" % split)
    return Relation(id, description, list(pair_shares) + [unanimous, items], fn)


def count_difference(id, a, b, expected, text, description):
    """``a - b`` equals ``expected`` (a literal int, or the id of a count); ``text`` is the arithmetic
    shown in the verdict, with ``%d`` for the computed difference (and for the expected count)."""
    def fn(v):
        got = _int(v, a) - _int(v, b)
        if isinstance(expected, str):
            return Verdict(got == _int(v, expected), text % (got, _int(v, expected)))
        return Verdict(got == expected, text % got)
    ids = [a, b] + ([expected] if isinstance(expected, str) else [])
    return Relation(id, description, ids, fn)


def components_fit(id, components, queries, largest, description):
    """A graph's component count is at most 1 + the queries outside its largest component."""
    def fn(v):
        outside = _int(v, queries) - _int(v, largest)
        return Verdict(_int(v, components) <= 1 + outside, "%d components, %d queries outside the largest" % (
            _int(v, components), outside))
    return Relation(id, description, [components, queries, largest], fn, kind="bound")


def weighted_mean(id, values, weights, divisor, target, description):
    """``target`` = sum of ``values`` weighted by the counts ``weights`` / ``divisor`` (on the display
    intervals of the values)."""
    def fn(v):
        return linear([(v[w].value / divisor, v[x]) for x, w in zip(values, weights)] + [(Fraction(-1), v[target])])
    return Relation(id, description, list(values) + list(weights) + [target], fn, kind="bound")


def spearman_one_tie(id, rho, scores, max_move, description):
    """Spearman's rho between two rankings of the ``scores``' systems, each score moved by at most ``max_move``
    between them.  Untied, rho is ``1 - 6 d2 / (n (n^2 - 1))`` for an even ``d2``; with one tied pair and the
    order otherwise kept it is the Pearson correlation of the average ranks, ``sqrt((S - 1/2) / S)`` with
    ``S = n (n^2 - 1) / 12``.  When only the tie shows as the displayed rho, a pair of scores must be able to
    meet: their display intervals at most ``2 max_move`` apart.

    >>> S = Fraction(13 * 168, 12)
    >>> round(float(((S - Fraction(1, 2)) / S) ** 0.5), 4)
    0.9986
    """
    def fn(v):
        r, move, n = v[rho], v[max_move], len(scores)
        denom = n * (n * n - 1)
        untied = [d2 for d2 in range(0, denom // 3 + 1, 2) if r.lo <= 1 - Fraction(6 * d2, denom) <= r.hi]
        if untied:
            return Verdict(True, "rho = 1 - 6 x %d / %d shows as %s with untied ranks" % (untied[0], denom, r.text))
        big_s = Fraction(denom, 12)
        squared = (big_s - Fraction(1, 2)) / big_s
        if not (r.lo >= 0 and r.lo ** 2 <= squared <= r.hi ** 2):
            return Verdict(False, "no untied ranking and no single tie of %d ranks gives rho = %s" % (n, r.text))
        reach = 2 * move.hi
        pairs = []
        for i, a in enumerate(scores):
            for b in scores[i + 1:]:
                gap = max(Fraction(0), max(v[a].lo, v[b].lo) - min(v[a].hi, v[b].hi))
                if gap <= reach:
                    pairs.append("%s/%s" % (v[a].text, v[b].text))
        return Verdict(bool(pairs), "rho = sqrt((%s - 1/2) / %s) = %.5f needs exactly one tied pair of %d ranks; pairs "
                                    "of scores that moves of at most %s can tie: %s" % (
                                        big_s, big_s, float(squared) ** 0.5, n, move.text, ", ".join(pairs) or "none"))
    return Relation(id, description, [rho, max_move] + list(scores), fn, kind="bound")


def spearman_grid(id, rho, n, description, extra_ids=(), max_shift=None):
    """Spearman's rho over ``n`` untied ranks is ``1 - 6 d2 / (n (n^2 - 1))`` for an even integer ``d2``;
    some such value must show as the displayed rho (and allow a movement of ``max_shift`` ranks)."""
    def fn(v):
        r = v[rho]
        denom = n * (n * n - 1)
        sols = [d2 for d2 in range(0, denom // 3 + 1, 2) if r.lo <= 1 - Fraction(6 * d2, denom) <= r.hi]
        if max_shift is not None:
            sols = [d for d in sols if d >= max_shift ** 2]
        if not sols:
            return Verdict(False, "no even sum of squared rank differences gives rho = %s for n = %d untied ranks" % (
                r.text, n))
        return Verdict(True, "rho = 1 - 6 x %s / %d shows as %s" % ("/".join(map(str, sols[:4])), denom, r.text),
                       counts={"sum_d2": sols[0]})
    return Relation(id, description, [rho] + list(extra_ids), fn, kind="bound")


# ---- implied bounds, signs and words (the relations of issue 56) ---------------------------------

def slack_even(id, terms, total, description):
    """``total - sum(c * x)`` is non-negative and even, on counts: a whole that the terms use up in pairs
    (Table S9's grade gaps against the 47 A/E splits: a pair whose grades differ by k splits at least k
    conditions, and splits that cancel within a pair come two at a time)."""
    def fn(v):
        used = sum(_frac(c) * _int(v, i) for c, i in terms)
        slack = _int(v, total) - used
        ok = slack >= 0 and slack % 2 == 0
        return Verdict(ok, "%s - (%s) = %s, %s" % (
            v[total].text, " + ".join("%s x %s" % (c, v[i].text) for c, i in terms), _show_sum(slack),
            "non-negative and even" if ok else "not a non-negative even number"))
    return Relation(id, description, [i for _, i in terms] + [total], fn, kind="bound")


def linear_le(id, left, right, description):
    """``sum(c * x for left) <= sum(c * x for right)`` for some values the displays allow (literal non-negative
    coefficients; ``[(c, id)]`` on each side): "at least one page a positive answer, at most nine".

    >>> from nclue.paperaudit.solve import Num
    >>> v = {"p": Num({"id": "p", "text": "76", "kind": "count"}),
    ...      "q": Num({"id": "q", "text": "201", "kind": "count"})}
    >>> linear_le("x", [(1, "p")], [(1, "q")], "").fn(v).ok, linear_le("x", [(1, "q")], [(2, "p")], "").fn(v).ok
    (True, False)
    """
    def side(v, terms, end):
        return sum(_frac(c) * getattr(v[i], end) for c, i in terms)

    def text(v, terms):
        return " + ".join(("%s x %s" % (c, v[i].text)) if _frac(c) != 1 else v[i].text for c, i in terms)

    def fn(v):
        low, high = side(v, left, "lo"), side(v, right, "hi")
        ok = low <= high
        return Verdict(ok, "%s <= %s: %s <= %s is %s" % (text(v, left), text(v, right), _show_sum(low),
                                                       _show_sum(high), "possible" if ok else "impossible"))
    return Relation(id, description, [i for _, i in left] + [i for _, i in right], fn, kind="bound")


def signs(id, ids, sign, description):
    """Every value can have the stated sign (``+1``: above zero; ``-1``: below), as the paper's words say
    ("keeps its positive direction")."""
    def fn(v):
        wrong = [i for i in ids if not (v[i].hi > 0 if sign > 0 else v[i].lo < 0)]
        return Verdict(not wrong, "%s %s" % (", ".join("%s = %s" % (i, v[i].text) for i in ids),
                                             "all %s" % ("positive" if sign > 0 else "negative") if not wrong
                                             else "-- not %s: %s" % ("positive" if sign > 0 else "negative",
                                                                     ", ".join(wrong))))
    return Relation(id, description, list(ids), fn, kind="bound")


def mixed_signs(id, ids, description):
    """Some value is above zero and some other below ("the Qwen3 text reranker is mixed")."""
    def fn(v):
        up = [i for i in ids if v[i].hi > 0]
        down = [i for i in ids if v[i].lo < 0]
        ok = bool(up) and bool(down) and (len(ids) > 1)
        return Verdict(ok, "%s: %s" % (", ".join("%s = %s" % (i, v[i].text) for i in ids),
                                       "mixed" if ok else "one sign only"))
    return Relation(id, description, list(ids), fn, kind="bound")


def direction_word(id, a, b, word, description):
    """Table 7's direction word against its two signed cells: ``same`` when both can share a sign, ``flip``
    when they can have opposite signs."""
    def fn(v):
        same = (v[a].hi > 0 and v[b].hi > 0) or (v[a].lo < 0 and v[b].lo < 0)
        flip = (v[a].hi > 0 and v[b].lo < 0) or (v[a].lo < 0 and v[b].hi > 0)
        ok = same if word == "same" else flip
        return Verdict(ok, "%s and %s read '%s'" % (v[a].text, v[b].text, word))
    return Relation(id, description, [a, b], fn, kind="bound")


def threshold(id, x, limit, below, description):
    """``x < limit`` (``below``) or ``x >= limit``, for some value the display allows: a p-value against the
    level its sentence names ("survives correction")."""
    def fn(v):
        lim = _frac(limit)
        ok = v[x].lo < lim if below else v[x].hi > lim
        return Verdict(ok, "%s %s %s" % (v[x].text, "<" if below else ">=", limit))
    return Relation(id, description, [x], fn, kind="bound")


def rows_counted(id, target, rows, description):
    """``target`` shows the number of ``rows``, the ids of one column of a table (one per row: "all 8 pairs"
    against Table 5's eight rows); every row must be transcribed, so a row added or lost changes the count."""
    def fn(v):
        return value_shows(v[target], Fraction(len(rows)), "%d rows: %s" % (len(rows), ", ".join(rows)))
    return Relation(id, description, [target] + list(rows), fn, determines=[target])
