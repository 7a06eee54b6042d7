"""Table 8's stored-page evidence of a page-scored system (paper section 4.4; docs/metrics.md#goldsupport10-and-page-coverage), for
any release (``<release>.evidence``)."""

from ...core.claim_ids import EVIDENCE
from ...core.metrics import gold_support
from ..base import Value
from .outcome_vectors import gold_sets


def evidence_values(inst, sid):
    """Table 8's page evidence of one page-scored system of ``inst``'s release (all queries, n = 2, n = 3)."""
    claim = EVIDENCE.on(inst.spec.name)
    rel, prel = inst.spec.ranking(sid), inst.spec.page_scores(sid)
    queries = inst.evaluation_queries()
    sets = gold_sets(inst)
    support = {key: row.pages for key, row in inst.inventory().items()}
    ranking, pages = inst.ranking(rel), inst.page_scores(prel, rel)
    values = []
    for key, subset in (("all", None), ("n2", 2), ("n3", 3)):
        qs = queries if subset is None else {q: v for q, v in queries.items() if v.n == subset}
        r = gold_support(ranking, pages, qs, sets, support)
        for statistic, field in (("gold_support_at_10", "gold_support"), ("condition_coverage", "condition_coverage"),
                                 ("full_coverage", "full_coverage"), ("hit_queries", "hit_queries")):
            values.append(Value(claim(system=sid, slice=key, statistic=statistic), r[field],
                                source="Table 8 stored-page evidence"))
    return values
