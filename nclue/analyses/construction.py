"""Construction level: the independent verifier and Table 1 re-derived (paper 3.2)."""

from ..core import layout
from ..core.structure import table1
from ..core.verify import verify
from .base import Analysis, Unit, Value
from .shared.audit_inputs import final_support, support_inputs
from .shared.stats_file_check import stats_file_disagreements

SOURCE = "paper section 3.2 and Table 1; supplement 1.1"
CORE = [layout.CORPUS, layout.CONDITIONS, layout.INVENTORY, layout.QUERIES, layout.QRELS_CONSTRUCTION]
FINAL = [layout.CORPUS, layout.CONDITIONS, layout.INVENTORY, layout.QUERIES, layout.GENEALOGY, layout.QRELS]


def _present(inst, paths):
    return [p for p in paths if p != layout.CONDITIONS or inst.exists(layout.CONDITIONS)]


def _verifier(inst):
    """The construction copy re-derived from the inventory: the paper's independent verifier (3.2)."""
    diffs = verify(inst.queries(), inst.inventory(), inst.qrels(inst.copy("construction")))
    by_kind = {}
    for d in diffs:
        by_kind[d.kind] = by_kind.get(d.kind, 0) + 1
    detail = "; ".join(str(d) for d in diffs[:8]) + (" ... (%d in all)" % len(diffs) if len(diffs) > 8 else "")
    detail = "%s: %s" % (layout.QRELS_CONSTRUCTION, detail) if diffs else ""
    out = [Value("v1.construction.rederived_qrel_differences", len(diffs), source=SOURCE, detail=detail)]
    for kind in ("missing qrel", "extra qrel", "wrong grade", "gold fails gate", "query without gold"):
        cnt = by_kind.get(kind, 0)
        rows = "; ".join(str(d) for d in diffs if d.kind == kind)[:600]
        out.append(Value("v1.construction.%s" % kind.replace(" ", "_"), cnt, source=SOURCE, detail=rows))
    return out


def final_table1(inst):
    """Table 1 on the final copy, as the paper's ("The final CrossPage inventory has 2,176 gold and 48,819
    subset qrels", supplement 1.1): a repaired gold's page gates are checked on its inventory pages and the
    audit's supporting pages (:func:`nclue.analyses.shared.audit_inputs.final_support`)."""
    return inst.memo("table1:final", lambda: table1(inst.evaluation_queries(inst.copy()), inst.corpus(),
                                                     inst.qrels(inst.copy()), inst.inventory(), final_support(inst)))


def _table1(inst):
    stats = final_table1(inst)
    out = [Value("v1.table1.%s" % key, stats[key], source="Table 1 (stand-in, final qrels)") for key in sorted(stats)]
    # "The other 1,970,005 query-document pairs have clue count zero" (supplement 11): queries x documents - rows
    zero = stats["queries"] * stats["documents"] - stats["qrel_rows"]
    return out + [Value("v1.construction.zero_grade_pairs", zero, source="supplement section 11 (final qrels)")]


def _stats_file(inst):
    """The released stats.json must equal Table 1 recomputed from the released records."""
    stats = final_table1(inst)
    wrong = stats_file_disagreements(inst, layout.STATS, "table1", stats)
    return [Value("v1.construction.stats_file_disagreements", len(wrong), source=layout.STATS,
                  detail="; ".join(wrong[:6]))]


def _units(inst):
    core = _present(inst, CORE)
    final = _present(inst, FINAL) + support_inputs(inst)
    return [
        Unit("verifier", core, lambda: _verifier(inst)),
        Unit("table1", final, lambda: _table1(inst)),
        Unit("stats-file", final + [layout.STATS], lambda: _stats_file(inst)),
    ]


ANALYSES = [Analysis("v1.construction", "construction", SOURCE, _units)]
