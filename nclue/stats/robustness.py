"""Sensitivity analyses for a contrast (supplement sections 3-4).

All functions take per-query vectors in one fixed query order plus the
membership structure; none reads files.
"""

from __future__ import annotations

import math
import sys
from array import array
from collections.abc import Callable, Iterable
from fractions import Fraction
from itertools import combinations
from typing import Any

from ..core.errors import StatisticsError
from .bootstrap import percentile_interval
from .protocol import INTERVAL_LEVEL


def crossed_bootstrap(deltas: Any, memberships: Any, n_docs: Any, stream: Any, n_draws: Any, scale: Any = 100.0) -> Any:
    """Pigeonhole (crossed query x document) bootstrap of mean differences.

    Each draw gives every query a weight ``w_q`` (its count among ``Q`` draws
    with replacement) and every document a weight ``v_d`` (its count among
    ``n_docs`` draws); a query is weighted ``W_q = w_q * mean(v_d for d in its
    memberships)`` (a query with no memberships -- e.g. one left without a gold after
    label repair -- keeps its query weight: document factor 1, the expected mean of
    ``v_d``).  For each per-query difference vector in ``deltas`` (any real
    values: differences of 0/1 outcomes, or of NDCG) the statistic is
    ``scale * sum_q W_q delta_q / sum_q W_q``; all vectors share the draws.
    Returns one distribution per vector.

    A hand-worked case: two queries, two documents, query 0 on document 0 and query 1
    on document 1, differences 1 and 0.  A draw that picks query 0 twice (w = 2, 0)
    and document 0 twice (v = 2, 0) weighs query 0 by 2 * 2 = 4 and query 1 by 0:
    the statistic is 100 * 4 * 1 / 4 = 100 (tests/test_stats.py works every draw).
    """
    _check_deltas(deltas, len(memberships))
    return crossed_statistics(deltas, crossed_weights(memberships, n_docs, stream, n_draws), scale=scale)


def _check_deltas(deltas: list[Any], q: int) -> None:
    if any(len(d) != q for d in deltas):
        raise StatisticsError("crossed_bootstrap needs one difference per query in every vector")
    if any(not math.isfinite(x) for d in deltas for x in d):
        raise StatisticsError("crossed_bootstrap needs finite differences")


def crossed_weights(memberships: Any, n_docs: Any, stream: Any, n_draws: Any) -> Any:
    """The query weights ``W_q`` of every draw of :func:`crossed_bootstrap` (one ``array('d')`` per draw):
    they depend only on the memberships and the stream, so every difference vector -- every block's
    contrast -- can be summarised on them separately, with the same numbers as together.

    How it is computed (the numbers are the definition's): the draws are taken in stream order, query
    counts then document counts per draw; each document's counts over all draws are packed into one
    integer (a fixed-width lane per draw), so a query's member sums for every draw are one big-integer sum
    over its documents, read back lane by lane.  The sums are exact integers either way.

    >>> from nclue.core.rng import Stream
    >>> [list(w) for w in crossed_weights([[0], [0, 1]], 2, Stream(5), 2)]
    [[0.0, 2.0], [0.0, 2.0]]
    """
    return crossed_draws(memberships, n_docs, stream, n_draws)[0]


def crossed_draws(memberships: list[Any], n_docs: int, stream: Any, n_draws: int) -> tuple[Any, ...]:
    """``(weights, query_weights)``: :func:`crossed_weights`, and the same draws' query counts ``w_q`` alone
    (one ``array('d')`` per draw): the weights of the query-only bootstrap that leaves the documents uncrossed,
    the wrong procedure a crossed interval is told apart from (docs/claims.md#monte-carlo-verdicts)."""
    q = len(memberships)
    sizes = [len(m) for m in memberships]
    query_counts, doc_counts = [], []
    for _ in range(n_draws):
        wq = [0] * q
        for i in stream.randbelow_batch(q, q):
            wq[i] += 1
        vd = [0] * n_docs
        for i in stream.randbelow_batch(n_docs, n_docs):
            vd[i] += 1
        query_counts.append(wq)
        doc_counts.append(vd)
    member_sums = _member_sums(memberships, doc_counts, n_docs, n_draws)
    out = []
    for draw, wq in enumerate(query_counts):
        out.append(array("d", [(wq[i] * member_sums[i][draw] / sizes[i] if sizes[i] else float(wq[i]))
                               if wq[i] else 0.0 for i in range(q)]))
    return out, [array("d", wq) for wq in query_counts]


def _member_sums(memberships: list[Any], doc_counts: list[Any], n_docs: int, n_draws: int) -> list[Any]:
    """For each query, the sum of its documents' counts on every draw: document counts packed across draws
    (``array('I')`` lanes; a sum never exceeds ``n_docs``), one big-integer addition per member."""
    width = array("I").itemsize
    if n_docs >= 1 << (8 * width) or not n_draws:
        return [[sum(vd[d] for d in m) for vd in doc_counts] for m in memberships]
    swap = sys.byteorder == "big"
    packed = []
    for column in zip(*doc_counts):          # one document's counts over the draws
        lanes = array("I", column)
        if swap:
            lanes.byteswap()
        packed.append(int.from_bytes(lanes.tobytes(), "little"))
    out = []
    for members in memberships:
        total = sum(map(packed.__getitem__, members))
        lanes = array("I")
        lanes.frombytes(total.to_bytes(width * n_draws, "little"))
        if swap:
            lanes.byteswap()
        out.append(lanes)
    return out


def crossed_statistics(deltas: list[Any], weights: list[Any], scale: float = 100.0,
                       totals: list[Any] | None = None) -> list[Any]:
    """``scale * sum_q W_q delta_q / sum_q W_q`` of each difference vector on each draw's weights
    (:func:`crossed_weights`); one distribution per vector.  ``totals``: each draw's ``fsum`` of its
    weights, when the caller keeps them with the weights (they are the same for every vector)."""
    if weights:
        _check_deltas(deltas, len(weights[0]))
    numerators = _weighted_sums(deltas)
    out: list[list[float]] = [[] for _ in deltas]
    if totals is None:
        totals = [math.fsum(w) for w in weights]
    for w, total in zip(weights, totals):
        for j, numerator in enumerate(numerators):
            out[j].append(scale * numerator(w) / total if total else 0.0)
    return out


def _weighted_sums(deltas: list[Any]) -> list[Any]:
    """For each difference vector, a function of one draw's weights giving ``sum_q W_q delta_q`` exactly as
    ``math.fsum`` rounds it: for vectors of -1, 0 and 1 (when every vector is one) the sum of the weights of
    the positive queries minus that of the negative ones, else the sum of the weighted non-zero terms."""
    if all(x in (-1, 0, 1) for d in deltas for x in d):
        def signed(plus: list[Any], minus: list[Any]) -> Callable[..., Any]:
            return lambda w: math.fsum(map(w.__getitem__, plus)) - math.fsum(map(w.__getitem__, minus))
        return [signed([i for i, x in enumerate(d) if x > 0], [i for i, x in enumerate(d) if x < 0]) for d in deltas]

    def weighted(values: list[Any]) -> Callable[..., Any]:
        return lambda w: math.fsum(w[i] * x for i, x in values)
    return [weighted([(i, float(x)) for i, x in enumerate(d) if x]) for d in deltas]


def crossed_intervals(deltas: Any, memberships: Any, n_docs: Any, stream: Any, n_draws: Any,
                      level: Any = INTERVAL_LEVEL, scale: Any = 100.0) -> Any:
    """95% percentile intervals of :func:`crossed_bootstrap` (one per difference vector)."""
    return [percentile_interval(d, level)
            for d in crossed_bootstrap(deltas, memberships, n_docs, stream, n_draws, scale=scale)]


def crossed_and_query_only(deltas: list[Any], memberships: list[Any], n_docs: int, stream: Any, n_draws: int,
                           scale: float = 100.0) -> tuple[Any, ...]:
    """``(crossed, query_only)``: for each difference vector, its :func:`crossed_bootstrap` distribution and the
    same draws' query-only distribution (documents not crossed: :func:`crossed_draws`)."""
    _check_deltas(deltas, len(memberships))
    weights, query_weights = crossed_draws(memberships, n_docs, stream, n_draws)
    return crossed_statistics(deltas, weights, scale=scale), crossed_statistics(deltas, query_weights, scale=scale)


def _mean_delta(delta: list[Any], keep: list[Any], scale: float = 100.0) -> tuple[Any, ...]:
    idx = [i for i in range(len(delta)) if keep[i]]
    return (scale * math.fsum(delta[i] for i in idx) / len(idx)) if idx else None, len(idx)


def leave_one_document_range(delta: list[Any], gold_sets: list[Any], docs: list[Any],
                             scale: float = 100.0) -> tuple[Any, ...]:
    """Min and max of ``scale`` times the mean difference when the queries whose gold set contains one
    document are left out, over every gold document (returns (min, max, doc at min, doc at max)).

    >>> leave_one_document_range([1, 0, 1], [{"a"}, {"b"}, {"a", "b"}], ["a", "b"], scale=1.0)
    (0.0, 1.0, 'a', 'b')
    """
    total, n = math.fsum(delta), len(delta)
    by_doc: dict[Any, Any] = {}
    for i, gold in enumerate(gold_sets):
        for d in gold:
            by_doc.setdefault(d, []).append(i)
    lo: Any = None       # (value, document) of the lowest and the highest removal so far
    hi: Any = None
    for d in sorted(docs):
        rows = by_doc.get(d, [])
        if len(rows) == n:
            continue
        value = scale * (total - math.fsum(delta[i] for i in rows)) / (n - len(rows))
        if lo is None or value < lo[0]:
            lo = (value, d)
        if hi is None or value > hi[0]:
            hi = (value, d)
    return lo[0], hi[0], lo[1], hi[1]


def _degrees(gold_sets: list[Any]) -> dict[str, Any]:
    degree: dict[Any, Any] = {}
    for gold in gold_sets:
        for d in gold:
            degree[d] = degree.get(d, 0) + 1
    return degree


def _dropped(delta: list[Any], gold_sets: list[Any], banned: set[Any], scale: float) -> tuple[Any, ...]:
    keep = [not (set(g) & banned) for g in gold_sets]
    return _mean_delta(delta, keep, scale)


def drop_top_degree(delta: list[Any], gold_sets: list[Any], k: int = 20, scale: float = 100.0) -> tuple[Any, ...]:
    """Mean difference after removing every query that involves one of the ``k`` highest-degree
    gold documents (degree = number of queries it is gold for; ties by document ID)."""
    degree = _degrees(gold_sets)
    top = [d for d, _ in sorted(degree.items(), key=lambda t: (-t[1], t[0]))[:k]]
    value, left = _dropped(delta, gold_sets, set(top), scale)
    return value, left, top


MAX_TIE_ORDERS = 5000


def drop_top_degree_orders(delta: list[Any], gold_sets: list[Any], k: int = 20, scale: float = 100.0,
                           max_orders: int = MAX_TIE_ORDERS) -> tuple[Any, ...]:
    """:func:`drop_top_degree` under every admissible tie order.  "The ``k`` highest-degree documents" is one
    set only when no degree tie straddles rank ``k``; otherwise the documents above the tied degree are removed
    and ``slots`` of the ``tied`` documents at it, in any of ``C(tied, slots)`` ways.  Returns
    ``(values, lefts, orders, tied, slots, enumerated)``: the mean difference and the queries left under every
    choice (all of them when there are at most ``max_orders``; else the choices of the first and the last
    ``slots`` tied documents by id, ``enumerated`` False).

    >>> drop_top_degree_orders([1, 0, 1], [{"a"}, {"b"}, {"c"}], k=1, scale=1.0)
    ([0.5, 1.0, 0.5], [2, 2, 2], 3, 3, 1, True)
    """
    degree = _degrees(gold_sets)
    ranked = sorted(degree.items(), key=lambda t: (-t[1], t[0]))
    if len(ranked) <= k or k <= 0:
        value, left = _dropped(delta, gold_sets, set(degree) if k > 0 else set(), scale)
        return [value], [left], 1, 0, 0, True
    cut = ranked[k - 1][1]
    above = [d for d, n in ranked if n > cut]
    tied = [d for d, n in ranked if n == cut]
    slots = k - len(above)
    orders = math.comb(len(tied), slots)
    if orders <= max_orders:
        choices: Iterable[Any]
        choices, enumerated = combinations(tied, slots), True
    else:
        choices, enumerated = (tied[:slots], tied[len(tied) - slots:]), False
    queries_of: dict[Any, Any] = {}
    for i, gold in enumerate(gold_sets):
        for d in gold:
            queries_of.setdefault(d, set()).add(i)
    base = set().union(*(queries_of[d] for d in above)) if above else set()
    # the kept sum exactly (a Fraction of the floats), so each order's mean is the one _mean_delta rounds
    total = sum(map(Fraction, delta), Fraction(0))
    values, lefts = [], []
    for chosen in choices:
        dropped = base.union(*(queries_of[d] for d in chosen))
        left = len(delta) - len(dropped)
        kept = float(total - sum((Fraction(delta[i]) for i in dropped), Fraction(0)))
        values.append(scale * kept / left if left else None)
        lefts.append(left)
    return values, lefts, orders, len(tied) if orders > 1 else 0, slots if orders > 1 else 0, enumerated


def _succeeds(docids: list[Any], gold: frozenset[Any], subset: frozenset[Any],
              promoted: set[Any] | tuple[Any, ...]) -> bool:
    for d in docids:
        if d in gold or d in promoted:
            return True
        if d in subset:
            return False
    return False


def promotion_bounds(base_lists: list[Any], variant_lists: list[Any], gold_sets: list[Any], subset_sets: list[Any],
                     k_max: int = 3) -> list[Any]:
    """Exact adversarial promotion bounds: for k = 0..k_max, the minimum over per-query choices of
    at most k judged subsets promoted to gold of ``100 * mean(succ_variant - succ_base)``.

    Only subsets in the base's top 10 are candidates (success is monotone in
    promotion, so promoting anything else can only help the variant); each
    query is minimised exhaustively, so the bound is exact.
    """
    n = len(base_lists)
    totals = [0] * (k_max + 1)
    for b, v, gold, subset in zip(base_lists, variant_lists, gold_sets, subset_sets):
        sb0, sv0 = _succeeds(b, gold, subset, ()), _succeeds(v, gold, subset, ())
        best = [int(sv0) - int(sb0)] * (k_max + 1)
        if not sb0:
            cands = [d for d in b if d in subset]
            current = best[0]
            for k in range(1, k_max + 1):
                if current > -1:
                    for combo in combinations(cands, k):
                        p = set(combo)
                        value = int(_succeeds(v, gold, subset, p)) - int(_succeeds(b, gold, subset, p))
                        if value < current:
                            current = value
                            if current == -1:
                                break
                best[k] = current
        for k in range(k_max + 1):
            totals[k] += best[k]
    return [100.0 * t / n for t in totals]
