"""Bindings: which claim computes each published number (docs/paper-audit.md#bindings).

A :class:`Binding` says that the transcribed paper number ``number`` (an id of
``reference_metrics/paper/numbers.json``) is what the claim ``claim``
computes, after multiplying the claim's value by ``scale`` (the unit
conversion: 1 when both are in the same unit, 1/100 for a claim in points
bound to a proportion).  Every row is literal so that ``grep`` finds a
number's binding.

The structural rows below also serve a consistency check: the ``paper``
column of ``data/v1/stats.json`` and ``data/v2/stats.json`` must show, for
each statistic, the transcribed number bound to its claim
(``v1.table1.<statistic>``, ``v2.structure.<statistic>``).
"""

from typing import NamedTuple

from ..core import claim_ids
from ..core.claim_ids import PACKET, V2_STRUCTURE
from ..core.layout import CROSSPAGE

TABLE1 = claim_ids.TABLE1.on(CROSSPAGE.name)        # the paper's Table 1 is CrossPage's


class Binding(NamedTuple):
    number: str          # numbers.json id
    claim: str           # the claim id that computes it
    scale: object = 1    # claim value x scale = the paper's unit (an int or a fraction string)


STRUCTURE = (
    # ---- Table 1 (paper section 3.2)
    Binding("T1.queries", TABLE1(statistic="queries")),
    Binding("T1.queries_n2", TABLE1(statistic="queries_n2")),
    Binding("T1.queries_n3", TABLE1(statistic="queries_n3")),
    Binding("T1.documents", TABLE1(statistic="documents")),
    Binding("X.s32.wb_docs", TABLE1(statistic="documents_wb")),
    Binding("X.s32.pmc_docs", TABLE1(statistic="documents_pmc")),
    Binding("T1.pages", TABLE1(statistic="pages")),
    Binding("T1.pages_mean", TABLE1(statistic="pages_mean")),
    Binding("T1.pages_median", TABLE1(statistic="pages_median")),
    Binding("T1.pages_max", TABLE1(statistic="pages_max")),
    Binding("T1.shortest_gold_mean", TABLE1(statistic="shortest_gold_mean")),
    Binding("T1.shortest_gold_median", TABLE1(statistic="shortest_gold_median")),
    Binding("T1.gold", TABLE1(statistic="gold_qrels")),
    Binding("T1.subset", TABLE1(statistic="subset_qrels")),
    Binding("T1.grade1", TABLE1(statistic="subset_grade1")),
    Binding("T1.grade2", TABLE1(statistic="subset_grade2")),
    Binding("T1.distinct_gold", TABLE1(statistic="distinct_gold_documents")),
    Binding("T1.gold_wb", TABLE1(statistic="gold_qrels_wb")),
    Binding("T1.gold_pmc", TABLE1(statistic="gold_qrels_pmc")),
    Binding("T1.single_page", TABLE1(statistic="single_page_solvable_golds")),
    Binding("T1.distinct_valid", TABLE1(statistic="distinct_page_valid_golds")),
    Binding("X.s11.rows", TABLE1(statistic="qrel_rows")),
    Binding("X.s34.families", TABLE1(statistic="gold_families")),
    Binding("S1i.cp.components", TABLE1(statistic="gold_graph_components")),
    Binding("S1i.cp.largest", TABLE1(statistic="gold_graph_largest_component_queries")),
    Binding("T6.size.lmin_le30", TABLE1(statistic="slice_lmin_le30")),
    Binding("T6.size.lmin_gt100", TABLE1(statistic="slice_lmin_gt100")),
    Binding("T6.size.pool_le25", TABLE1(statistic="slice_pool_le25")),
    Binding("T6.size.pool_gt50", TABLE1(statistic="slice_pool_gt50")),
    # ---- SourceShift's scale (supplement section 8)
    Binding("X.s8.queries", V2_STRUCTURE(statistic="queries")),
    Binding("X.s8.n2", V2_STRUCTURE(statistic="queries_n2")),
    Binding("X.s8.n3", V2_STRUCTURE(statistic="queries_n3")),
    Binding("X.s8.arxiv", V2_STRUCTURE(statistic="queries_arxiv")),
    Binding("X.s8.eric", V2_STRUCTURE(statistic="queries_eric")),
    Binding("X.s8.fedreg", V2_STRUCTURE(statistic="queries_fedreg")),
    Binding("X.s8.pmc", V2_STRUCTURE(statistic="queries_pmc")),
    Binding("X.s8.docs", V2_STRUCTURE(statistic="documents")),
    Binding("X.s8.per_source", V2_STRUCTURE(statistic="documents_arxiv")),
    Binding("X.s8.per_source", V2_STRUCTURE(statistic="documents_eric")),
    Binding("X.s8.per_source", V2_STRUCTURE(statistic="documents_fedreg")),
    Binding("X.s8.per_source", V2_STRUCTURE(statistic="documents_pmc")),
    Binding("X.s8.condition_records", V2_STRUCTURE(statistic="condition_records")),
    Binding("S14.ss_queries.c", V2_STRUCTURE(statistic="queries_construction")),
    Binding("S14.ss_qrels.c", V2_STRUCTURE(statistic="qrel_rows_construction")),
    Binding("X.s8.s0_queries", V2_STRUCTURE(statistic="queries_s0")),
    Binding("X.s8.s0_qrels", V2_STRUCTURE(statistic="qrel_rows_s0")),
    Binding("X.s8.qrels", V2_STRUCTURE(statistic="qrel_rows")),
    Binding("X.s8.gold", V2_STRUCTURE(statistic="gold_qrels")),
    Binding("X.s8.gold_docs", V2_STRUCTURE(statistic="distinct_gold_documents")),
    # ---- the label audit's packet (supplement 10.1, Table S7)
    Binding("S7.all.pairs", PACKET(statistic="pairs")),
    Binding("X.s101.conditions", PACKET(statistic="conditions")),
    Binding("X.s1021.page_contexts", PACKET(statistic="page_contexts")),
    Binding("S7.all.gold", PACKET(statistic="pre_gold")),
    Binding("S7.all.subset", PACKET(statistic="pre_subset")),
    Binding("S7.cp_wb.gold", PACKET(statistic="v1_wb_gold")),
    Binding("S7.cp_wb.subset", PACKET(statistic="v1_wb_subset")),
    Binding("S7.cp_pmc.subset", PACKET(statistic="v1_pmc_subset")),
    Binding("S7.ss_arxiv.gold", PACKET(statistic="v2_arxiv_gold")),
    Binding("S7.ss_arxiv.subset", PACKET(statistic="v2_arxiv_subset")),
    Binding("S7.ss_eric.gold", PACKET(statistic="v2_eric_gold")),
    Binding("S7.ss_eric.subset", PACKET(statistic="v2_eric_subset")),
    Binding("S7.ss_fedreg.gold", PACKET(statistic="v2_fedreg_gold")),
    Binding("S7.ss_fedreg.subset", PACKET(statistic="v2_fedreg_subset")),
    Binding("S7.ss_pmc.gold", PACKET(statistic="v2_pmc_gold")),
    Binding("S7.ss_pmc.subset", PACKET(statistic="v2_pmc_subset")),
)

BY_CLAIM = {b.claim: b for b in STRUCTURE}
