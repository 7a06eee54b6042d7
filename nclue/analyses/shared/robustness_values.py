"""Claim values of the shared-document robustness checks (supplement section 4): Table S1i for either
release, the crossed query x document interval declared as Monte Carlo estimates, and the top-degree
removal declared with its tie orders (docs/analyses.md#table-s1i, docs/statistics.md).
"""

import math

from ...core.claim_ids import SHARED_DOCUMENTS, SHARED_DOCUMENTS_DROP, SHARED_DOCUMENTS_MEMBERSHIP
from ...core.structure import gold_and_subsets, gold_graph_components
from ...stats import bootstrap, montecarlo, protocol
from ...stats.robustness import (
    crossed_and_query_only,
    drop_top_degree,
    drop_top_degree_orders,
    leave_one_document_range,
)
from ..base import Value
from .outcome_vectors import outcomes

S1I_PAIR = ("rrf_bm25and_pagetop3", "bm25_and")
S1I_GAP = "fusion_minus_bm25"          # the pair's name in the claim ids


S1I_SOURCE = "supplement Table S1i (shared-document dependence; gold-only NDCG@10 gap, 0-1 units)"


def shared_document_values(inst, variant_rel, base_rel, pair):
    """Table S1i (supplement section 4; docs/analyses.md#table-s1i) for one release's variant - base
    **gold-only NDCG@10** gap (per-query differences in 0-1 units, on the release's evaluation
    queries and final qrels): queries and distinct gold documents; then for gold memberships and for
    all judged memberships, the membership graph's components and largest, the crossed query x
    document 95% interval (:func:`nclue.stats.robustness.crossed_bootstrap`, ``protocol.SHARED_DOCUMENTS.n_draws`` draws,
    ``scale=1``), the leave-one-document range, and the gap after removing every query of the 20
    highest-degree documents with the number of queries left.  Ids: :data:`~nclue.core.claim_ids.SHARED_DOCUMENTS`
    and its membership templates on ``inst``'s release, for the gap ``pair`` names."""
    release = inst.spec.name
    whole = SHARED_DOCUMENTS.on(release).bind(pair=pair)
    queries, qrels = inst.evaluation_queries(), inst.qrels()
    sets = gold_and_subsets(queries, qrels)
    qids = sorted(queries)
    v, b = outcomes(inst, variant_rel).gold_ndcg, outcomes(inst, base_rel).gold_ndcg
    delta = [x - y for x, y in zip(v, b)]
    src = S1I_SOURCE
    out = [Value(whole("gold_ndcg_gap"), math.fsum(delta) / len(delta), source=src),
           Value(whole("queries"), len(qids), source=src),
           Value(whole("distinct_gold_documents"), len({d for q in qids for d in sets[q][0]}), source=src)]
    doc_index = {d: i for i, d in enumerate(sorted(inst.corpus()))}
    for label in ("gold", "judged"):
        member_sets = [sorted(sets[q][0]) if label == "gold" else sorted(qrels[q]) for q in qids]
        graph = {q: (frozenset(m), frozenset()) for q, m in zip(qids, member_sets)}
        comps = gold_graph_components(graph)
        member = SHARED_DOCUMENTS_MEMBERSHIP.on(release).bind(pair=pair, membership=label)
        stream = protocol.stream(protocol.SHARED_DOCUMENTS, release=release, label=label)
        members = [[doc_index[d] for d in m] for m in member_sets]
        crossed, query_only = crossed_and_query_only([delta], members, len(doc_index), stream,
                                                     protocol.draws(protocol.SHARED_DOCUMENTS), scale=1.0)
        l_lo, l_hi, _, _ = leave_one_document_range(delta, member_sets, sorted({d for m in member_sets for d in m}),
                                                    scale=1.0)
        out += [Value(member("components"), len(comps), source=src),
                Value(member("largest_component"), len(comps[0]), source=src)]
        out += crossed_interval_values(member, "crossed_ci", crossed[0], query_only[0], protocol.SHARED_DOCUMENTS, src)
        out += [Value(member("leave_one_doc_min"), l_lo, source=src),
                Value(member("leave_one_doc_max"), l_hi, source=src)]
        out += drop_top_values(SHARED_DOCUMENTS_DROP.on(release).bind(pair=pair, membership=label), "gold_ndcg_gap",
                               delta, member_sets, 1.0, src)
    return out


def crossed_interval_values(claim, stem, crossed, query_only, resampling, source):
    """``claim(stem + "_low")`` / ``claim(stem + "_high")`` (``claim``: a template with its statistic left): the
    percentile interval of a crossed bootstrap distribution, each endpoint
    declared a Monte Carlo estimate told apart from the same draws' query-only interval
    (:func:`nclue.stats.robustness.crossed_and_query_only`)."""
    lo, hi = bootstrap.percentile_interval(crossed)
    q_lo, q_hi = bootstrap.percentile_interval(query_only)
    alpha = (1.0 - protocol.INTERVAL_LEVEL) / 2.0
    name = "query-only bootstrap (documents not crossed)"
    return [Value(claim(stem + "_low"), lo, source=source,
                  estimate=montecarlo.percentile_estimate(crossed, alpha, resampling, [(name, q_lo)])),
            Value(claim(stem + "_high"), hi, source=source,
                  estimate=montecarlo.percentile_estimate(crossed, 1.0 - alpha, resampling, [(name, q_hi)]))]


def drop_top_values(claim, measure, delta, member_sets, scale, source, k=20):
    """``claim(measure)`` and ``claim("queries")`` (``claim``: a template with its statistic left): the difference after removing every query of the ``k``
    highest-degree documents (ties by document id), and the queries left; when a degree tie straddles rank
    ``k`` each is declared with every admissible order's value (:class:`nclue.stats.montecarlo.TieOrders`)."""
    value, left, _ = drop_top_degree(delta, member_sets, k, scale=scale)
    values, lefts, orders, tied, slots, enumerated = drop_top_degree_orders(delta, member_sets, k, scale=scale)
    ties = (lambda vs: montecarlo.TieOrders(vs, orders, k, tied, slots, enumerated)) if orders > 1 else (
        lambda vs: None)
    return [Value(claim(measure), value, source=source, estimate=ties(values)),
            Value(claim("queries"), left, source=source, estimate=ties(lefts))]
