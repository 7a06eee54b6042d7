"""Construction level: the independent verifier and Table 1 re-derived (paper 3.2)."""

from ..core import layout
from ..core.claim_ids import CONSTRUCTION, TABLE1
from ..core.structure import table1
from .base import Analysis, Unit, Value
from .shared.audit_inputs import final_support, support_inputs
from .shared.construction_checks import form_disagreements, verifier_values
from .shared.stats_file_check import stats_file_disagreements

SOURCE = "paper section 3.2 and Table 1; supplement 1.1"
CORE = [layout.CORPUS, layout.CONDITIONS, layout.INVENTORY, layout.QUERIES, layout.QRELS_CONSTRUCTION]
FINAL = [layout.CORPUS, layout.CONDITIONS, layout.INVENTORY, layout.QUERIES, layout.GENEALOGY, layout.QRELS]


def _present(inst, paths):
    return [p for p in paths if p != layout.CONDITIONS or inst.exists(layout.CONDITIONS)]


def final_table1(inst):
    """Table 1 on the final copy, as the paper's ("The final CrossPage inventory has 2,176 gold and 48,819
    subset qrels", supplement 1.1): a repaired gold's page gates are checked on its inventory pages and the
    audit's supporting pages (:func:`nclue.analyses.shared.audit_inputs.final_support`)."""
    return inst.memo("table1:final", lambda: table1(inst.evaluation_queries(inst.copy()), inst.corpus(),
                                                     inst.qrels(inst.copy()), inst.inventory(), final_support(inst)))


def _table1(inst):
    stats = final_table1(inst)
    out = [Value(TABLE1.on(inst.spec.name)(statistic=key), stats[key], source="Table 1 (stand-in, final qrels)")
           for key in sorted(stats)]
    # "The other 1,970,005 query-document pairs have clue count zero" (supplement 11): queries x documents - rows
    zero = stats["queries"] * stats["documents"] - stats["qrel_rows"]
    return out + [Value(CONSTRUCTION.on(inst.spec.name)(statistic="zero_grade_pairs"), zero,
                        source="supplement section 11 (final qrels)")]


def _stats_file(inst):
    """The released stats.json must equal Table 1 recomputed from the released records."""
    stats = final_table1(inst)
    wrong = stats_file_disagreements(inst, layout.STATS, "table1", stats)
    return [Value(CONSTRUCTION.on(inst.spec.name)(statistic="stats_file_disagreements"), len(wrong),
                  source=layout.STATS, detail="; ".join(wrong[:6]))]


def _units(inst):
    core = _present(inst, CORE)
    final = _present(inst, FINAL) + support_inputs(inst)
    return [
        Unit("verifier", core, lambda: verifier_values(inst, SOURCE)),
        Unit("table1", final, lambda: _table1(inst)),
        Unit("stats-file", final + [layout.STATS], lambda: _stats_file(inst)),
        Unit("forms", _present(inst, [layout.CONDITIONS, layout.QUERIES]), lambda: form_disagreements(inst, SOURCE)),
    ]


ANALYSES = [Analysis(CONSTRUCTION.analysis_on(layout.CROSSPAGE.name), "derivation", SOURCE, _units)]
