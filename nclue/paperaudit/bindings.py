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


class Binding(NamedTuple):
    number: str          # numbers.json id
    claim: str           # the claim id that computes it
    scale: object = 1    # claim value x scale = the paper's unit (an int or a fraction string)


STRUCTURE = (
    # ---- Table 1 (paper section 3.2)
    Binding("T1.queries", "v1.table1.queries"),
    Binding("T1.queries_n2", "v1.table1.queries_n2"),
    Binding("T1.queries_n3", "v1.table1.queries_n3"),
    Binding("T1.documents", "v1.table1.documents"),
    Binding("X.s32.wb_docs", "v1.table1.documents_wb"),
    Binding("X.s32.pmc_docs", "v1.table1.documents_pmc"),
    Binding("T1.pages", "v1.table1.pages"),
    Binding("T1.pages_mean", "v1.table1.pages_mean"),
    Binding("T1.pages_median", "v1.table1.pages_median"),
    Binding("T1.pages_max", "v1.table1.pages_max"),
    Binding("T1.shortest_gold_mean", "v1.table1.shortest_gold_mean"),
    Binding("T1.shortest_gold_median", "v1.table1.shortest_gold_median"),
    Binding("T1.gold", "v1.table1.gold_qrels"),
    Binding("T1.subset", "v1.table1.subset_qrels"),
    Binding("T1.grade1", "v1.table1.subset_grade1"),
    Binding("T1.grade2", "v1.table1.subset_grade2"),
    Binding("T1.distinct_gold", "v1.table1.distinct_gold_documents"),
    Binding("T1.gold_wb", "v1.table1.gold_qrels_wb"),
    Binding("T1.gold_pmc", "v1.table1.gold_qrels_pmc"),
    Binding("T1.single_page", "v1.table1.single_page_solvable_golds"),
    Binding("T1.distinct_valid", "v1.table1.distinct_page_valid_golds"),
    Binding("X.s11.rows", "v1.table1.qrel_rows"),
    Binding("X.s34.families", "v1.table1.gold_families"),
    Binding("S1i.cp.components", "v1.table1.gold_graph_components"),
    Binding("S1i.cp.largest", "v1.table1.gold_graph_largest_component_queries"),
    Binding("T6.size.lmin_le30", "v1.table1.slice_lmin_le30"),
    Binding("T6.size.lmin_gt100", "v1.table1.slice_lmin_gt100"),
    Binding("T6.size.pool_le25", "v1.table1.slice_pool_le25"),
    Binding("T6.size.pool_gt50", "v1.table1.slice_pool_gt50"),
    # ---- SourceShift's scale (supplement section 8)
    Binding("X.s8.queries", "v2.structure.queries"),
    Binding("X.s8.n2", "v2.structure.queries_n2"),
    Binding("X.s8.n3", "v2.structure.queries_n3"),
    Binding("X.s8.arxiv", "v2.structure.queries_arxiv"),
    Binding("X.s8.eric", "v2.structure.queries_eric"),
    Binding("X.s8.fedreg", "v2.structure.queries_fedreg"),
    Binding("X.s8.pmc", "v2.structure.queries_pmc"),
    Binding("X.s8.docs", "v2.structure.documents"),
    Binding("X.s8.per_source", "v2.structure.documents_arxiv"),
    Binding("X.s8.per_source", "v2.structure.documents_eric"),
    Binding("X.s8.per_source", "v2.structure.documents_fedreg"),
    Binding("X.s8.per_source", "v2.structure.documents_pmc"),
    Binding("X.s8.condition_records", "v2.structure.condition_records"),
    Binding("S14.ss_queries.c", "v2.structure.queries_construction"),
    Binding("S14.ss_qrels.c", "v2.structure.qrel_rows_construction"),
    Binding("X.s8.s0_queries", "v2.structure.queries_s0"),
    Binding("X.s8.s0_qrels", "v2.structure.qrel_rows_s0"),
    Binding("X.s8.qrels", "v2.structure.qrel_rows"),
    Binding("X.s8.gold", "v2.structure.gold_qrels"),
    Binding("X.s8.gold_docs", "v2.structure.distinct_gold_documents"),
    # ---- the label audit's packet (supplement 10.1, Table S7)
    Binding("S7.all.pairs", "audit.packet.pairs"),
    Binding("X.s101.conditions", "audit.packet.conditions"),
    Binding("X.s1021.page_contexts", "audit.packet.page_contexts"),
    Binding("S7.all.gold", "audit.packet.pre_gold"),
    Binding("S7.all.subset", "audit.packet.pre_subset"),
    Binding("S7.cp_wb.gold", "audit.packet.v1_wb_gold"),
    Binding("S7.cp_wb.subset", "audit.packet.v1_wb_subset"),
    Binding("S7.cp_pmc.subset", "audit.packet.v1_pmc_subset"),
    Binding("S7.ss_arxiv.gold", "audit.packet.v2_arxiv_gold"),
    Binding("S7.ss_arxiv.subset", "audit.packet.v2_arxiv_subset"),
    Binding("S7.ss_eric.gold", "audit.packet.v2_eric_gold"),
    Binding("S7.ss_eric.subset", "audit.packet.v2_eric_subset"),
    Binding("S7.ss_fedreg.gold", "audit.packet.v2_fedreg_gold"),
    Binding("S7.ss_fedreg.subset", "audit.packet.v2_fedreg_subset"),
    Binding("S7.ss_pmc.gold", "audit.packet.v2_pmc_gold"),
    Binding("S7.ss_pmc.subset", "audit.packet.v2_pmc_subset"),
)

BY_CLAIM = {b.claim: b for b in STRUCTURE}
