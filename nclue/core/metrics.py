"""Every metric of docs/metrics.md (paper section 3.1), one implementation each.

Notation: ``rank(d)`` is the 1-based position of ``d`` in a ranking (absent =
infinity), ``G_q`` the gold set, ``S_q`` the subset set, ``r_G = min rank over
G_q``, ``r_S = min rank over S_q``; ``k = 10`` unless said.

The per-query outcome vectors (:class:`Outcomes`) are the interface the
statistics use: integer 0/1 vectors for success and hit, floats for NDCG.
Aggregates are ``100 * count / |Q|`` from integer counts, and float means use
:func:`math.fsum`, so results are identical on every interpreter.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import accumulate
from typing import Any, NamedTuple, Tuple

from .measures import MEASURES

INF = float("inf")
_DISCOUNT = [0.0] + [1.0 / math.log2(i + 1) for i in range(1, 1001)]
_BINARY_IDEAL = list(accumulate(_DISCOUNT))     # [m]: 0.0 + discount 1 + ... + discount m, added in order


def first_ranks(docids: tuple[Any, ...], gold: frozenset[Any], subset: frozenset[Any], k: int) -> tuple[Any, ...]:
    """``(r_G, r_S)`` over the first ``k`` entries (infinity when absent).  ``gold`` and ``subset`` are
    disjoint sets (grades ``n`` and ``1..n-1``), so each rank is the first position of its own set.

    >>> first_ranks(["x", "s", "g", "t"], {"g"}, {"s", "t"}, 10), first_ranks(["g"], {"g"}, {"s"}, 10)
    ((3, 2), (1, inf))
    """
    top = docids[:k]
    r_gold = r_subset = INF
    if not gold.isdisjoint(top):
        r_gold = min(map(top.index, gold.intersection(top))) + 1
    if not subset.isdisjoint(top):
        r_subset = min(map(top.index, subset.intersection(top))) + 1
    return r_gold, r_subset


def is_success(r_gold: float, r_subset: float, k: int = 10) -> bool:
    """n-Clue success: a top-k gold precedes every subset (``r_G <= k and r_G < r_S``).

    >>> is_success(2, 1), is_success(1, 3), is_success(11, INF, 10), is_success(1, INF)
    (False, True, False, True)
    """
    return r_gold <= k and r_gold < r_subset


def gold_ndcg(docids: list[Any] | tuple[Any, ...], gold: frozenset[Any] | set[Any], k: int = 10) -> float:
    """Binary-gain NDCG@k: gain 1 for gold; ideal from ``min(k, |G|)`` golds.

    >>> round(gold_ndcg(["s", "g"], {"g"}), 6)
    0.63093
    >>> gold_ndcg([], set())
    0.0
    """
    if not gold:
        return 0.0
    dcg = 0.0
    top = docids[:k]
    if not gold.isdisjoint(top):
        for pos, d in enumerate(top, 1):
            if d in gold:
                dcg += _DISCOUNT[pos]
    return dcg / _BINARY_IDEAL[min(k, len(gold))]


def ideal_graded_dcg(grades: dict[str, Any], k: int = 10) -> float:
    """The ideal DCG@k of one query's grades (all nonzero qrels sorted by grade); 0.0 if none."""
    ideal = 0.0
    for pos, g in enumerate(sorted((g for g in grades.values() if g > 0), reverse=True)[:k], 1):
        ideal += g * _DISCOUNT[pos]
    return ideal


def graded_ndcg(docids: tuple[Any, ...], grades: dict[str, Any], k: int = 10, ideal: float | None = None) -> float:
    """Graded NDCG@k as trec_eval's ``ndcg_cut.k``: linear gain = grade, discount
    ``1/log2(rank+1)``, ideal from all nonzero qrels sorted by grade (``ideal``: that
    value precomputed by :func:`ideal_graded_dcg`).

    >>> round(graded_ndcg(["a", "b"], {"a": 1, "b": 2}), 6)
    0.859719
    """
    if ideal is None:
        ideal = ideal_graded_dcg(grades, k)
    if not ideal:
        return 0.0
    dcg = 0.0
    get = grades.get
    for pos, d in enumerate(docids[:k], 1):
        g = get(d, 0)
        if g > 0:
            dcg += g * _DISCOUNT[pos]
    return dcg / ideal


def standard_values(docids: Any, grades: Any, k: Any = 10) -> Any:
    """The standard IR measures of one ranked list as trec_eval computes them on graded qrels, where every grade
    of at least 1 is relevant (a subset as much as a gold; docs/metrics.md#standard-measures), at depth ``k``:
    ``(P@k, RR, AP@k, R@k)`` -- precision at k (``P.k``), the reciprocal rank of the first relevant document in the
    top k (``recip_rank`` of a list cut at k), average precision over the top k divided by all relevant
    documents (``map_cut.k``) and recall at k (``recall.k``).  A query with no relevant document gives 0s.

    >>> standard_values(["a", "x", "b"], {"a": 2, "b": 1, "c": 1, "z": 0}, k=10)
    (0.2, 1.0, 0.5555555555555555, 0.6666666666666666)
    >>> standard_values([], {"a": 1}), standard_values(["x"], {})
    ((0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0))
    """
    relevant = sum(1 for g in grades.values() if g > 0)
    found, first, precision_sum = 0, 0.0, 0.0
    get = grades.get
    for pos, d in enumerate(docids[:k], 1):
        if get(d, 0) > 0:
            found += 1
            precision_sum += found / pos
            if not first:
                first = 1.0 / pos
    if not relevant:
        return 0.0, 0.0, 0.0, 0.0
    return found / k, first, precision_sum / relevant, found / relevant


STANDARD_FIELDS = ("precision", "reciprocal_rank", "average_precision", "recall")


def standard_outcomes(ranking: Any, queries: Any, qrels: Any, k: Any = 10) -> Any:
    """``{field: per-query tuple}`` of :func:`standard_values` for a ranking ``{qid: RankingRow}``, in sorted-qid
    order as :class:`Outcomes` (an absent query is an empty list); the fields are :data:`STANDARD_FIELDS`."""
    columns: list[list[Any]] = [[] for _ in STANDARD_FIELDS]
    no_grades: dict[Any, Any] = {}
    for qid in sorted(queries):
        row = ranking.get(qid)
        values = standard_values(row.docids if row is not None else (), qrels.get(qid, no_grades), k)
        for column, value in zip(columns, values):
            column.append(value)
    return dict(zip(STANDARD_FIELDS, (tuple(c) for c in columns)))


def _auc_wins2(docids: list[Any] | tuple[Any, ...], gold: frozenset[Any] | set[Any], subset: frozenset[Any] | set[Any],
               k: int) -> int:
    """Twice the pairwise wins of ``gold`` over ``subset`` in ``docids[:k]`` (an integer)."""
    top = docids[:k]
    ranked_gold = ranked_subset = 0
    gold_first = 0           # ranked (g, s) pairs with g ranked first
    if subset.isdisjoint(top):
        ranked_gold = len(gold.intersection(top))
    elif gold.isdisjoint(top):
        ranked_subset = len(subset.intersection(top))
    else:
        for d in top:
            if d in gold:
                ranked_gold += 1
            elif d in subset:
                ranked_subset += 1
                gold_first += ranked_gold
    unranked_gold = len(gold) - ranked_gold
    unranked_subset = len(subset) - ranked_subset
    # ranked-before-ranked and ranked-before-unranked count 2, unranked ties 1
    return 2 * (gold_first + ranked_gold * unranked_subset) + unranked_gold * unranked_subset


def pairwise_auc(docids: tuple[Any, ...], gold: frozenset[Any], subset: frozenset[Any], k: int = 10) -> float | None:
    """Mean over ``(g, s)`` in ``G x S`` of ``1[rank(g) < rank(s)]``, 0.5 when both are
    unranked; None when either set is empty.  Counted, not enumerated.

    >>> pairwise_auc(["g", "s"], {"g", "h"}, {"s", "t"})
    0.625
    """
    if not gold or not subset:
        return None
    return _auc_wins2(docids, gold, subset, k) / (2 * len(gold) * len(subset))


def length_bin(pages: int) -> int:
    """Half-octave length bin of a document: the largest ``b`` with ``2 ** (b / 2) <= pages``, i.e.
    ``floor(2 * log2(pages))``, computed exactly on integers (docs/analyses.md#v1diagnostics).

    >>> [length_bin(p) for p in (1, 2, 3, 4, 5, 6, 8, 11, 12)]
    [0, 2, 3, 4, 4, 5, 6, 6, 7]
    """
    return (pages * pages).bit_length() - 1


def length_matched_auc(docids: list[Any], gold: frozenset[Any], subset: frozenset[Any], bins: dict[str, Any],
                       k: int = 10) -> tuple[Any, ...]:
    """:func:`pairwise_auc` over the length-matched gold x subset pairs only: pairs whose documents share
    a :func:`length_bin` (``bins``: ``{docid: bin}``).  Returns ``(auc, matched_pairs)``; ``auc`` is None
    when no pair is matched.  Counted per bin, not enumerated.

    >>> bins = {"g": 3, "h": 5, "s": 3, "t": 5, "u": 9}
    >>> length_matched_auc(["s", "g", "h"], {"g", "h"}, {"s", "t", "u"}, bins)   # (g, s) lost, (h, t) won
    (0.5, 2)
    """
    gold_by: dict[str, Any] = {}
    subset_by: dict[str, Any] = {}
    for d in gold:
        gold_by.setdefault(bins[d], set()).add(d)
    for d in subset:
        subset_by.setdefault(bins[d], set()).add(d)
    wins2 = pairs = 0
    top = docids[:k]
    for b in sorted(set(gold_by) & set(subset_by)):
        g, s = gold_by[b], subset_by[b]
        wins2 += _auc_wins2(top, g, s, k)
        pairs += len(g) * len(s)
    return (None, 0) if not pairs else (wins2 / (2 * pairs), pairs)


class Outcomes(NamedTuple):
    """Per-query outcome vectors of one ranking, in sorted-qid order."""
    qids: Tuple[str, ...]
    n: Tuple[int, ...]
    success: Tuple[int, ...]
    hit: Tuple[int, ...]
    first_gold: Tuple[float, ...]
    first_subset: Tuple[float, ...]
    gold_ndcg: Tuple[float, ...]
    graded_ndcg: Tuple[float, ...]
    auc: Tuple[object, ...]          # float or None


def evaluate(ranking: dict[str, Any], queries: dict[str, Any], qrels: dict[str, Any], sets: dict[str, Any], k: int = 10,
             ideals: dict[str, Any] | None = None) -> Outcomes:
    """Outcome vectors for a ranking ``{qid: RankingRow}``; every query is scored
    (a query absent from the ranking counts as an empty list).  ``ideals``: optional
    ``{qid: ideal_graded_dcg}`` shared by every ranking scored against the same qrels."""
    qids = tuple(sorted(queries))
    n, success, hit, first_gold, first_subset, gold_gain, graded_gain, auc = ([] for _ in range(8))
    no_grades: dict[Any, Any] = {}
    for qid in qids:
        gold, subset = sets[qid]
        row = ranking.get(qid)
        docids = row.docids if row is not None else ()
        rg, rs = first_ranks(docids, gold, subset, k)
        n.append(queries[qid].n)
        success.append(1 if is_success(rg, rs, k) else 0)
        hit.append(1 if rg <= k else 0)
        first_gold.append(rg)
        first_subset.append(rs)
        gold_gain.append(gold_ndcg(docids, gold, k))
        graded_gain.append(graded_ndcg(docids, qrels.get(qid, no_grades), k,
                                       None if ideals is None else ideals.get(qid)))
        auc.append(pairwise_auc(docids, gold, subset, k))
    return Outcomes(qids, tuple(n), tuple(success), tuple(hit), tuple(first_gold), tuple(first_subset),
                    tuple(gold_gain), tuple(graded_gain), tuple(auc))


def percent(count: int, total: int) -> float | None:
    """``100 * count / total`` (None for an empty denominator)."""
    return None if total == 0 else 100.0 * count / total


def mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return math.fsum(values) / len(values) if values else None


def aggregate(measure: Any, values: list[Any] | tuple[Any, ...]) -> float | None:
    """One measure's value (docs/metrics.md) from its per-query ``values`` (:class:`nclue.core.measures.Measure`):
    ``count`` sums them; ``mean`` is ``scale`` times their mean over every query (a measure of 0/1 counts,
    ``integer``, exactly as ``scale * count / n``; else ``scale * (fsum / n)``); ``mean_defined`` the same
    over the values that are not None; None for no values.

    >>> from nclue.core.measures import MEASURES
    >>> aggregate(MEASURES["nclue_score_at_10"], [1, 0, 0, 1]), aggregate(MEASURES["pairwise_auc"], [0.5, None, 1.0])
    (50.0, 0.75)
    >>> aggregate(MEASURES["success_count"], [1, 0, 1]), aggregate(MEASURES["gold_ndcg_at_10"], [])
    (2, None)
    """
    if measure.aggregate == "count":
        return sum(values)
    if measure.aggregate == "mean_defined":
        values = [v for v in values if v is not None]
    elif measure.aggregate != "mean":
        raise ValueError("unknown aggregate %r of measure %s" % (measure.aggregate, measure.name))
    if not values:
        return None
    if measure.integer:
        return measure.scale * sum(values) / len(values)
    return measure.scale * (math.fsum(values) / len(values))


def summary(out: Outcomes, mask: list[Any] | None = None) -> dict[str, Any]:
    """Every measure of :data:`nclue.core.measures.MEASURES` but the standard ones (on request only) over all
    queries (or those with ``mask[i]`` true), by its ``key``, aggregated from its per-query column (:func:`aggregate`), and the counts
    ``queries``, ``subset_first_count`` and ``no_gold_count``: n-Clue Score@k, Gold Hit@k, the three
    outcomes (complete first = success, subset first = hit - success, no top-k gold), Gold-NDCG@k (x100),
    graded NDCG@k (0-1), and macro pairwise AUC over queries with gold and subsets.
    """
    idx = [i for i in range(len(out.qids)) if mask is None or mask[i]]
    out_values: dict[str, Any] = {}
    for measure in MEASURES.values():
        if measure.kind == "standard":      # on request, from their own columns (score -m P@10)
            continue
        values = measure.values(out)
        out_values[measure.key] = aggregate(measure, [values[i] for i in idx] if mask is not None else values)
    q = len(idx)
    out_values["queries"] = q
    out_values["subset_first_count"] = out_values["hit_count"] - out_values["success_count"]
    out_values["no_gold_count"] = q - out_values["hit_count"]
    return out_values


def top_pages(page_list: tuple[Any, ...], limit: int = 3) -> list[Any]:
    """The first ``limit`` distinct page IDs of a best-first ``[(page, score)]`` list."""
    out = []
    for page, _ in page_list:
        if page not in out:
            out.append(page)
            if len(out) == limit:
                break
    return out


def gold_support(ranking: dict[str, Any], page_scores: dict[Any, Any], queries: dict[str, Any], sets: dict[str, Any],
                 support: dict[Any, Any], k: int = 10) -> dict[str, Any]:
    """Gold+Support@k and conditional page coverage (paper section 4.4, Table 8).

    For each top-k gold take its three highest-scoring distinct surfaced pages;
    a condition is covered when those pages meet its stored support
    (``support[(docid, cid)]``).  A query succeeds when some top-k gold covers
    every condition (denominator: all queries).  Conditional coverage uses, per
    query with a top-k gold, the best-covered gold (most conditions covered,
    then best rank): condition coverage = mean covered share, full coverage =
    share of such queries whose best gold covers all.
    """
    success = 0
    hit_queries = 0
    covered_shares = []
    full = 0
    for qid in sorted(queries):
        query = queries[qid]
        gold = sets[qid][0]
        row = ranking.get(qid)
        docids = row.docids[:k] if row is not None else ()
        best = None
        for d in docids:
            if d not in gold:
                continue
            entry = page_scores.get((qid, d))
            pages = set(top_pages(entry.pages if entry is not None else ()))
            covered = sum(1 for c in query.conditions if pages & set(support.get((d, c.cid), ())))
            if best is None or covered > best:
                best = covered
        if best is None:
            continue
        hit_queries += 1
        covered_shares.append(best / query.n)
        if best == query.n:
            full += 1
            success += 1
    return {
        "queries": len(queries),
        "success_count": success,
        "gold_support": percent(success, len(queries)),
        "hit_queries": hit_queries,
        "condition_coverage": None if not covered_shares else 100.0 * (math.fsum(covered_shares) / len(covered_shares)),
        "full_coverage": percent(full, hit_queries),
    }


def common_support(out_a: Outcomes, out_b: Outcomes) -> dict[str, Any]:
    """Common-support ordering between systems A (base) and B (variant).

    On queries where both have a top-10 gold, D = share where no subset
    precedes the first gold (= success among hits); returns D_A, D_B, Delta D
    = D_B - D_A (in points), the number of common queries, and each system's
    unconditional M/P/G (miss / subset first / complete first) percentages.
    """
    both = [i for i in range(len(out_a.qids)) if out_a.hit[i] and out_b.hit[i]]
    da = percent(sum(out_a.success[i] for i in both), len(both))
    db = percent(sum(out_b.success[i] for i in both), len(both))

    def mpg(out: Outcomes) -> dict[str, Any]:
        s = summary(out)
        return {"M": s["no_gold"], "P": s["subset_first"], "G": s["complete_first"]}

    return {"common_queries": len(both), "D_base": da, "D_variant": db,
            "delta_D": None if da is None or db is None else db - da, "base": mpg(out_a), "variant": mpg(out_b)}
