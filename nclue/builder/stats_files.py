"""``data/v1/stats.json`` and ``data/v2/stats.json``: the stand-in's structure beside the paper's
(docs/schema.md#buildjson-and-statsjson).  Both are computed by the harness's own functions
(:func:`nclue.core.structure.table1`, :func:`~nclue.core.structure.sourceshift_table`) on the files as
re-loaded by the harness's loaders, so the builder's output is validated on the way."""


from ..core import layout
from ..core.instrument import Instrument
from ..core.jsonio import write_json
from ..core.structure import sourceshift_table, table1
from ..labelaudit.audit_scoring import packet_structure
from .config import PAPER_TABLE1
from .sourceshift_instrument import PAPER_V2


def beside_paper(stats, paper):
    """``[{statistic, stand_in, paper?}]`` in statistic order: a stand-in table beside the paper's."""
    rows = []
    for key in sorted(stats):
        entry = {"statistic": key, "stand_in": stats[key]}
        if key in paper:
            entry["paper"] = paper[key]
        rows.append(entry)
    return rows


def _write(out_root, rel, table_key, stats, paper, note):
    write_json(layout.abspath(out_root, rel), {
        "synthetic": True, "note": note, table_key: beside_paper(stats, paper)})
    return rel


def v1_table1(inst):
    """Table 1 of the instrument on its final copy, a repaired gold's gates on the audit's support (the
    harness's ``v1.construction``, :func:`nclue.analyses.construction.final_table1`, computes the same)."""
    from ..labelaudit.audit_records import load_for, path_of
    from ..labelaudit.audit_scoring import repaired_gold_support
    v1 = inst.release(layout.CROSSPAGE)
    support = {}
    if inst.exists(path_of("key")):
        support = repaired_gold_support(load_for(inst), "v1", v1.queries(), v1.inventory())
    return table1(v1.evaluation_queries(v1.copy()), v1.corpus(), v1.qrels(v1.copy()), v1.inventory(), support)


def write_stats(out_root, config_name):
    """``data/v1/stats.json``: the stand-in's Table 1 on its final copy beside the paper's (full config only)."""
    stats = v1_table1(Instrument(out_root))
    return _write(out_root, layout.STATS, "table1", stats, PAPER_TABLE1 if config_name == "full" else {},
                  "Stand-in structure on the final qrel copy (qrels.jsonl), as the paper's Table 1 (section 3.2); "
                  "the paper column is that table. Only structural counts were targeted; no result number of the "
                  "paper was.")


PAPER_PACKET = {"pairs": 300, "conditions": 710, "pre_gold": 147, "pre_subset": 153,
                "v1_wb_gold": 50, "v1_wb_subset": 48, "v1_pmc_subset": 2, "v2_arxiv_gold": 25, "v2_arxiv_subset": 25,
                "v2_eric_gold": 25, "v2_eric_subset": 25, "v2_fedreg_gold": 25, "v2_fedreg_subset": 25,
                "v2_pmc_gold": 22, "v2_pmc_subset": 28,
                "page_contexts": 2130}   # "2,130 nonempty page contexts" (10.2.1): three shown pages per condition
# a paper column holds only transcribed numbers (release.consistency binds each to one): the 110 three-condition
# pairs are implied by 710 conditions over 300 pairs, not stated, so the note says them instead


def write_stats_audit(out_root, config_name):
    """``data/audit/stats.json``: the realised packet design beside the paper's Table S7 (full config)."""
    from ..labelaudit.audit_records import load_for
    records = load_for(Instrument(out_root))
    return _write(out_root, layout.AUDIT_STATS, "table", packet_structure(records),
                  PAPER_PACKET if config_name == "full" else {},
                  "The simulated audit's packet as drawn; the paper column is supplement Table S7 and sections 10.1 and 10.2.1. "
                  "The design (cells, pre-gold / pre-subset numbers, and the 110 three-condition pairs that 710 conditions over "
                  "300 pairs imply) is the paper's.")


def write_stats_v2(out_root, config_name):
    """``data/v2/stats.json``: the stand-in SourceShift's scale beside the paper's (full config)."""
    stats = sourceshift_table(Instrument(out_root).release(layout.SOURCESHIFT))
    return _write(out_root, layout.V2_STATS, "table", stats, PAPER_V2 if config_name == "full" else {},
                  "Stand-in SourceShift scale; the paper column is supplement section 8. Only the document, "
                  "query, source and n counts are targets; qrel counts come from construction.")
