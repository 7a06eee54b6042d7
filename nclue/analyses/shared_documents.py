"""Table S1i (supplement section 4; docs/analyses.md#table-s1i), shared by the CrossPage column
(``v1.sensitivity.shared_documents``) and the SourceShift column (``v2.sensitivity``): the fusion minus
BM25 gold-only NDCG@10 gap and its dependence on shared documents.
"""

import math

from ..core.structure import gold_and_subsets, gold_graph_components
from ..stats import protocol
from ..stats.robustness import crossed_intervals, drop_top_degree, leave_one_document_range
from .base import Value
from .common import outcomes

S1I_PAIR = ("rrf_bm25and_pagetop3", "bm25_and")
S1I_SOURCE = "supplement Table S1i (shared-document dependence; gold-only NDCG@10 gap, 0-1 units)"


def shared_document_values(inst, variant_rel, base_rel, prefix, seed_label):
    """Table S1i (supplement section 4; docs/analyses.md#table-s1i) for one release's variant - base
    **gold-only NDCG@10** gap (per-query differences in 0-1 units, on the release's evaluation
    queries and final qrels): queries and distinct gold documents; then for gold memberships and for
    all judged memberships, the membership graph's components and largest, the crossed query x
    document 95% interval (:func:`nclue.stats.robustness.crossed_bootstrap`, ``protocol.SHARED_DOCUMENTS.n_draws`` draws,
    ``scale=1``), the leave-one-document range, and the gap after removing every query of the 20
    highest-degree documents with the number of queries left."""
    queries, qrels = inst.evaluation_queries(), inst.qrels()
    sets = gold_and_subsets(queries, qrels)
    qids = sorted(queries)
    v, b = outcomes(inst, variant_rel).gold_ndcg, outcomes(inst, base_rel).gold_ndcg
    delta = [x - y for x, y in zip(v, b)]
    src = S1I_SOURCE
    out = [Value(prefix + ".gold_ndcg_gap", math.fsum(delta) / len(delta), source=src),
           Value(prefix + ".queries", len(qids), source=src),
           Value(prefix + ".distinct_gold_documents", len({d for q in qids for d in sets[q][0]}), source=src)]
    doc_index = {d: i for i, d in enumerate(sorted(inst.corpus()))}
    for label in ("gold", "judged"):
        member_sets = [sorted(sets[q][0]) if label == "gold" else sorted(qrels[q]) for q in qids]
        graph = {q: (frozenset(m), frozenset()) for q, m in zip(qids, member_sets)}
        comps = gold_graph_components(graph)
        stream = protocol.stream(protocol.SHARED_DOCUMENTS, release=seed_label, label=label)
        members = [[doc_index[d] for d in m] for m in member_sets]
        lo, hi = crossed_intervals([delta], members, len(doc_index), stream, protocol.SHARED_DOCUMENTS.n_draws,
                                   scale=1.0)[0]
        l_lo, l_hi, _, _ = leave_one_document_range(delta, member_sets, sorted({d for m in member_sets for d in m}),
                                                    scale=1.0)
        dropped, left, _ = drop_top_degree(delta, member_sets, 20, scale=1.0)
        out += [Value("%s.%s.components" % (prefix, label), len(comps), source=src),
                Value("%s.%s.largest_component" % (prefix, label), len(comps[0]), source=src),
                Value("%s.%s.crossed_ci_low" % (prefix, label), lo, source=src),
                Value("%s.%s.crossed_ci_high" % (prefix, label), hi, source=src),
                Value("%s.%s.leave_one_doc_min" % (prefix, label), l_lo, source=src),
                Value("%s.%s.leave_one_doc_max" % (prefix, label), l_hi, source=src),
                Value("%s.%s.drop_top20.gold_ndcg_gap" % (prefix, label), dropped, source=src),
                Value("%s.%s.drop_top20.queries" % (prefix, label), left, source=src)]
    return out
