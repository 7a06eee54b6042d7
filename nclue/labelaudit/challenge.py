"""The targeted residual-qrel challenge's rules (supplement section 10.5; docs/label-audit.md#the-residual-qrel-challenge).

Pure functions, no files; the stand-in's simulated challenge
(:mod:`nclue.builder.simulated_challenge`) and the analysis that re-scores it
from its records (:mod:`nclue.analyses.audit_challenge`) both use them.

**Targets.** For the contrast fusion minus BM25-AND in gold-only NDCG@10 on
the challenge's starting copy (S0): every already-judged subset (grade 1 to
n - 1) in the union of the two systems' frozen top 10 whose promotion to gold
would lower that query's fusion - BM25 difference.  Promotion adds the
document to the query's gold set; the change is

    [NDCG_f(G + d) - NDCG_b(G + d)] - [NDCG_f(G) - NDCG_b(G)]

(gold-only NDCG@10 of :func:`nclue.core.metrics.gold_ndcg`), and a target is
a pair where it is negative.

**Controls.** ``ceil(targets / 5)`` judged pairs that cannot move the contrast
(in neither system's top 10), drawn with the stated seeded rule of the
simulation.

**Decisions.** Every condition of a pair is read under the binary
necessary-evidence rule by two response streams (after duplicate exports are
collapsed); a condition on which the streams agree takes their value, the
others take the tie-break's.  The pair's grade is the number of supported
conditions, except that a would-be gold whose supporting pages admit no
distinct-page assignment stays at ``n - 1`` (the distinct-page gate).
"""

from ..core.metrics import gold_ndcg
from ..core.verify import distinct_page_valid

DEPTH = 10
CONTROL_RATIO = 5          # one control per five targets (rounded up)


def gap_change(fusion, bm25, gold, docid, k=DEPTH):
    """Change of the per-query fusion - BM25 gold-only NDCG@k when ``docid`` joins ``gold``.

    >>> gap_change(["x", "d"], ["d", "x"], {"x"}, "d") < 0      # BM25 ranks d higher: promotion helps BM25 more
    True
    >>> gap_change(["d", "x"], ["x", "d"], {"x"}, "d") > 0
    True
    """
    promoted = set(gold) | {docid}
    before = gold_ndcg(fusion, gold, k) - gold_ndcg(bm25, gold, k)
    after = gold_ndcg(fusion, promoted, k) - gold_ndcg(bm25, promoted, k)
    return after - before


def targets(queries, qrels, fusion, bm25, k=DEPTH):
    """``[(qid, docid, change)]`` sorted by (qid, docid): the challenge targets (see module doc).

    ``queries``: ``{qid: n}`` (the starting copy's evaluation queries); ``qrels``: ``{qid: {docid: grade}}``;
    ``fusion``, ``bm25``: ``{qid: [docid, ...]}`` frozen rankings (missing query: empty)."""
    out = []
    for qid in sorted(queries):
        n = queries[qid]
        grades = qrels.get(qid, {})
        gold = {d for d, g in grades.items() if g == n}
        top_f, top_b = list(fusion.get(qid, ()))[:k], list(bm25.get(qid, ()))[:k]
        for docid in sorted(set(top_f) | set(top_b)):
            if 1 <= grades.get(docid, 0) < n:
                change = gap_change(top_f, top_b, gold, docid, k)
                if change < 0:
                    out.append((qid, docid, change))
    return out


def control_frame(queries, qrels, fusion, bm25, k=DEPTH):
    """Judged pairs ``(qid, docid)`` of the evaluation queries in neither system's top k (sorted)."""
    out = []
    for qid in sorted(queries):
        top = set(list(fusion.get(qid, ()))[:k]) | set(list(bm25.get(qid, ()))[:k])
        out += [(qid, d) for d in sorted(qrels.get(qid, {})) if d not in top]
    return out


def n_controls(n_targets):
    """``ceil(n_targets / CONTROL_RATIO)``.

    >>> n_controls(125), n_controls(0), n_controls(6)
    (25, 0, 2)
    """
    return -(-n_targets // CONTROL_RATIO)


def final_grade(n, decided):
    """``(grade, blocked)`` of one pair: ``decided`` is per condition ``(positive, pages)``; a
    would-be gold without a distinct-page assignment stays at ``n - 1`` (``blocked`` True).

    >>> final_grade(2, [(True, [3]), (True, [3])])
    (1, True)
    >>> final_grade(2, [(True, [3]), (True, [3, 4])])
    (2, False)
    """
    grade = sum(1 for positive, _ in decided if positive)
    if grade == n and not distinct_page_valid([tuple(pages) for _, pages in decided]):
        return n - 1, True
    return grade, False
