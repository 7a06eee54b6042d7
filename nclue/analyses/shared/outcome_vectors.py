"""Per-query outcome vectors of a ranking under a qrel copy, the gold/subset sets and ideal DCGs they are
scored against, the query factors, and the claim values read from a summary -- memoised on the instrument.

Outcome vectors are computed once per (ranking, qrel copy) and instrument by
:func:`nclue.core.metrics.evaluate` (paper section 3.2; docs/metrics.md); every analysis reads them from here.
"""

from ...core import layout
from ...core.metrics import evaluate, ideal_graded_dcg
from ...core.structure import gold_and_subsets
from ...core.structure import query_factors as structure_query_factors
from ..base import Value

# what scoring on the final CrossPage copy reads: the corpus, the queries with their condition catalog, the
# copy, and its genealogy (the evaluation queries)
SCORE_INPUTS = [layout.CORPUS, layout.CONDITIONS, layout.QUERIES, layout.GENEALOGY, layout.QRELS]


def gold_sets(inst, copy=None):
    """``{qid: (gold, subsets)}`` of a release under one qrel copy (a :class:`~nclue.core.layout.QrelCopy`;
    default: the release's last)."""
    copy = copy or inst.copy()
    return inst.memo("sets:" + copy.path, lambda: gold_and_subsets(inst.evaluation_queries(copy), inst.qrels(copy)))


def ideals(inst, copy):
    """Ideal graded DCG@10 per query of one qrel copy (computed once per instrument)."""
    qrels = inst.qrels(copy)
    return inst.memo("ideals:" + copy.path, lambda: {q: ideal_graded_dcg(g) for q, g in qrels.items()})


def outcomes(inst, rel, copy=None):
    """Per-query outcome vectors of one ranking file under a qrel copy (a :class:`~nclue.core.layout.QrelCopy`;
    default: the release's last) over that copy's evaluation queries, memoised per instrument."""
    copy = copy or inst.copy()
    return inst.memo("outcomes:%s|%s" % (rel, copy.path), lambda: evaluate(
        inst.ranking(rel), inst.evaluation_queries(copy), inst.qrels(copy), gold_sets(inst, copy),
        ideals=ideals(inst, copy)))


def query_factors(inst):
    """Per query: n, shortest gold length L_min (pages) and positive pool size |D+| (memoised)."""
    return inst.memo("query-factors", lambda: structure_query_factors(inst.evaluation_queries(), inst.corpus(), inst.qrels(),
                                                                 gold_sets(inst)))


def measure_values(claim, summ, measures, source, **parts):
    """One Value per measure, read from a :func:`nclue.core.metrics.summary`: its id ``claim`` (a claim-id template,
    bound to its release or copy) with ``parts`` and the measure's name."""
    return [Value(claim(measure=m.name, **parts), summ[m.key], source=source) for m in measures]


def delta(base_summary, variant_summary, key):
    """Variant minus base of one summary field (None when either is None)."""
    a, b = base_summary[key], variant_summary[key]
    return None if a is None or b is None else b - a
