"""Structure of an instrument derived from its records (no rankings needed).

* gold set ``G_q`` = documents with ``grade == n``; subset set ``S_q`` =
  ``0 < grade < n`` (docs/schema.md#qrelsjsonl-and-qrels_constructionjsonl);
* exact-gold-set families: queries with the identical gold set (paper
  section 3.4: 453 families; the unit the bootstrap resamples);
* the gold-membership graph: bipartite queries--gold documents; its
  connected components (paper: 995/1,000 queries in one component);
* the stand-in's own Table 1 (paper section 3.2).
"""

from __future__ import annotations

import math
from typing import Any

from .verify import distinct_page_valid, single_page_solvable


def gold_and_subsets(queries: dict[str, Any], qrels: dict[str, Any]) -> dict[str, Any]:
    """``{qid: (gold frozenset, subset frozenset)}``."""
    out = {}
    for qid, query in queries.items():
        grades = qrels.get(qid, {})
        gold = frozenset(d for d, g in grades.items() if g == query.n)
        subset = frozenset(d for d, g in grades.items() if 0 < g < query.n)
        out[qid] = (gold, subset)
    return out


def families(sets: dict[str, Any]) -> list[Any]:
    """Exact-gold-set families: a list of sorted qid lists, ordered by their first qid.

    >>> from collections import namedtuple
    >>> families({"q1": (frozenset({"a"}), frozenset()), "q2": (frozenset({"a"}), frozenset()),
    ...           "q3": (frozenset({"b"}), frozenset())})
    [['q1', 'q2'], ['q3']]
    """
    groups: dict[Any, Any] = {}
    for qid in sorted(sets):
        key = tuple(sorted(sets[qid][0]))
        groups.setdefault(key, []).append(qid)
    return sorted(groups.values(), key=lambda g: g[0])


def gold_graph_components(sets: dict[str, Any]) -> list[Any]:
    """Components of the bipartite query--gold-document graph, as sorted qid lists,
    largest first (ties by first qid).  A query with no gold is its own component."""
    parent: dict[Any, Any] = {}

    def find(x: tuple[Any, ...]) -> tuple[Any, ...]:
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for qid in sorted(sets):
        parent.setdefault(("q", qid), ("q", qid))
        for d in sorted(sets[qid][0]):
            parent.setdefault(("d", d), ("d", d))
            a, b = find(("q", qid)), find(("d", d))
            if a != b:
                parent[max(a, b)] = min(a, b)
    comps: dict[Any, Any] = {}
    for qid in sorted(sets):
        comps.setdefault(find(("q", qid)), []).append(qid)
    return sorted(comps.values(), key=lambda c: (-len(c), c[0]))


# Table 6's task-factor slices (paper section 4.3): key, label, predicate on a query's factors
SLICES = (
    ("n2", "n = 2", lambda f: f["n"] == 2), ("n3", "n = 3", lambda f: f["n"] == 3),
    ("lmin_le30", "L_min <= 30", lambda f: f["lmin"] is not None and f["lmin"] <= 30),
    ("lmin_gt100", "L_min > 100", lambda f: f["lmin"] is not None and f["lmin"] > 100),
    ("pool_le25", "|D+| <= 25", lambda f: f["pool"] <= 25), ("pool_gt50", "|D+| > 50", lambda f: f["pool"] > 50),
)


def query_factors(queries: dict[str, Any], corpus: dict[str, Any], qrels: dict[str, Any],
                  sets: dict[str, Any]) -> dict[str, Any]:
    """Per query: ``n``, the shortest gold's length ``lmin`` (pages; None without a gold) and the positive
    pool size ``pool`` = |D+| (its nonzero qrels)."""
    out = {}
    for qid, q in queries.items():
        gold = sets[qid][0]
        out[qid] = {"n": q.n, "lmin": min(corpus[d].pages for d in gold) if gold else None,
                    "pool": len(qrels.get(qid, {}))}
    return out


def density_matched_pairs(factors: dict[str, Any]) -> list[Any]:
    """Density matching of supplement section 9 (docs/analyses.md#v1diagnostics): every n = 3 query is
    matched, without replacement, to the unmatched n = 2 query nearest in positive-pool size |D+|
    (``factors[q]["pool"]``).  n = 3 queries are taken by |D+| descending (ties by qid); among equally
    near n = 2 queries the smaller |D+| and then the smaller qid wins.  Returns ``[(n3 qid, n2 qid)]``
    in that order; n = 3 queries left when the n = 2 queries run out are unmatched.

    >>> f = {"a": {"n": 3, "pool": 10}, "b": {"n": 3, "pool": 4}, "c": {"n": 2, "pool": 9},
    ...      "d": {"n": 2, "pool": 11}, "e": {"n": 2, "pool": 5}}
    >>> density_matched_pairs(f)
    [('a', 'c'), ('b', 'e')]
    """
    three = sorted((q for q, f in factors.items() if f["n"] == 3), key=lambda q: (-factors[q]["pool"], q))
    two = sorted((q for q, f in factors.items() if f["n"] == 2), key=lambda q: (factors[q]["pool"], q))
    used, out = set(), []
    for q in three:
        best = None
        for c in two:
            if c in used:
                continue
            key = (abs(factors[c]["pool"] - factors[q]["pool"]), factors[c]["pool"], c)
            if best is None or key < best:
                best = key
        if best is None:
            break
        used.add(best[2])
        out.append((q, best[2]))
    return out


def median(values: list[Any]) -> float:
    """Median of a non-empty list (mean of the two middle values for even length)."""
    s = sorted(values)
    m = len(s) // 2
    if len(s) % 2:
        return s[m]
    return (s[m - 1] + s[m]) / 2


def _gold_counts(queries: dict[str, Any], corpus: dict[str, Any], qrels: dict[str, Any], inventory: dict[Any, Any],
                 support: dict[Any, Any], sets: dict[str, Any]) -> dict[str, Any]:
    """Table 1's qrel counts: golds and subsets (by grade), distinct gold documents, golds by source, each
    query's shortest gold, and the golds that are single-page solvable and distinct-page valid on their page
    sets (the inventory's, or ``support``'s for a repaired gold)."""
    c: dict[str, Any] = {"gold": 0, "subset": 0, "grade1": 0, "grade2": 0, "docs": set(), "by_source": {},
                         "shortest": [], "sps": 0, "dpv": 0}
    for qid, query in queries.items():
        gold, subset = sets[qid]
        c["gold"] += len(gold)
        c["subset"] += len(subset)
        for d in subset:
            g = qrels[qid][d]
            c["grade1"] += g == 1
            c["grade2"] += g == 2
        c["docs"] |= gold
        for d in gold:
            src = corpus[d].source
            c["by_source"][src] = c["by_source"].get(src, 0) + 1
            page_sets = support.get((qid, d)) or [inventory[(d, cond.cid)].pages if (d, cond.cid) in inventory
                                                  else () for cond in query.conditions]
            c["sps"] += single_page_solvable(page_sets)
            c["dpv"] += distinct_page_valid(page_sets)
        if gold:
            c["shortest"].append(min(corpus[d].pages for d in gold))
    return c


def table1(queries: dict[str, Any], corpus: dict[str, Any], qrels: dict[str, Any], inventory: dict[Any, Any],
           support: dict[Any, Any] | None = None) -> dict[str, Any]:
    """The instrument's Table 1 (paper section 3.2) from its records.

    Single-page-solvable and distinct-page-valid gold counts use the gate
    functions of :mod:`nclue.core.verify` (the independent verifier), on each
    gold's inventory page sets -- or, for a gold in ``support``
    (``{(qid, docid): [page set per condition]}``: golds a label repair made),
    on the page sets given there.
    """
    sets = gold_and_subsets(queries, qrels)
    pages = [d.pages for d in corpus.values()]
    c = _gold_counts(queries, corpus, qrels, inventory, support or {}, sets)
    n_gold, n_subset, g1, g2 = c["gold"], c["subset"], c["grade1"], c["grade2"]
    gold_docs, gold_by_source, shortest, sps, dpv = c["docs"], c["by_source"], c["shortest"], c["sps"], c["dpv"]
    sources: dict[Any, Any] = {}
    for d in corpus.values():
        sources[d.source] = sources.get(d.source, 0) + 1
    fams = families(sets)
    comps = gold_graph_components(sets)
    stats = {
        "queries": len(queries),
        "queries_n2": sum(1 for q in queries.values() if q.n == 2),
        "queries_n3": sum(1 for q in queries.values() if q.n == 3),
        "documents": len(corpus),
        "pages": sum(pages),
        "pages_mean": math.fsum(pages) / len(pages),
        "pages_median": median(pages),
        "pages_max": max(pages),
        "shortest_gold_mean": math.fsum(shortest) / len(shortest) if shortest else None,
        "shortest_gold_median": median(shortest) if shortest else None,
        "queries_without_gold": len(queries) - len(shortest),
        "gold_qrels": n_gold,
        "subset_qrels": n_subset,
        "subset_grade1": g1,
        "subset_grade2": g2,
        "qrel_rows": n_gold + n_subset,
        "distinct_gold_documents": len(gold_docs),
        "single_page_solvable_golds": sps,
        "distinct_page_valid_golds": dpv,
        "gold_families": len(fams),
        "gold_graph_components": len(comps),
        "gold_graph_largest_component_queries": len(comps[0]) if comps else 0,
    }
    factors = query_factors(queries, corpus, qrels, sets)
    for key, _, predicate in SLICES[2:]:
        stats["slice_" + key] = sum(1 for f in factors.values() if predicate(f))
    for src in sorted(sources):
        stats["documents_" + src] = sources[src]
        stats["gold_qrels_" + src] = gold_by_source.get(src, 0)
    return stats



def sourceshift_table(inst: Any) -> dict[str, Any]:
    """Scale of a SourceShift release (supplement section 8): the evaluation queries of S by source
    and n, documents by source, and for each qrel copy of ``layout.SOURCESHIFT.copies`` (suffix ``_construction``,
    ``_s0``, none for S) its evaluation queries, rows, golds, subsets, distinct gold documents and
    evaluation queries without a gold."""
    corpus = inst.corpus()
    queries = inst.evaluation_queries(inst.copy())
    out = {"queries": len(queries), "documents": len(corpus),
           "queries_n2": sum(1 for q in queries.values() if q.n == 2),
           "queries_n3": sum(1 for q in queries.values() if q.n == 3),
           "condition_records": sum(q.n for q in queries.values()),
           "pages": sum(d.pages for d in corpus.values())}
    for src in sorted({d.source for d in corpus.values()}):
        out["documents_" + src] = sum(1 for d in corpus.values() if d.source == src)
        out["queries_" + src] = sum(1 for q in queries.values() if q.source == src)
    for copy in inst.copies():
        out.update(_copy_scale(inst, copy))
    return out


def _copy_scale(inst: Any, copy: Any) -> dict[str, Any]:
    """One SourceShift qrel copy's evaluation queries (not for S, whose are the table's), rows, golds,
    subsets, distinct gold documents and queries without a gold, with the copy's suffix."""
    suffix = copy.variant("_")
    copy_queries = inst.evaluation_queries(copy)
    qrels = inst.qrels(copy)
    sets = gold_and_subsets(copy_queries, qrels)
    out = {"queries" + suffix: len(copy_queries)} if suffix else {}
    out["qrel_rows" + suffix] = sum(len(v) for v in qrels.values())
    out["gold_qrels" + suffix] = sum(len(g) for g, _ in sets.values())
    out["subset_qrels" + suffix] = sum(len(s) for _, s in sets.values())
    out["distinct_gold_documents" + suffix] = len({d for g, _ in sets.values() for d in g})
    out["zero_gold_queries" + suffix] = sum(1 for g, _ in sets.values() if not g)
    return out
