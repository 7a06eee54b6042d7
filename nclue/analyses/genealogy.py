"""SourceShift's qrel copies re-derived (supplement sections 8, 10.5-10.6; docs/analyses.md#v2genealogy).

``v2.genealogy`` (construction level):

* ``construction``: the construction copy re-derived from ``data/v2/inventory.jsonl`` by the
  independent verifier (:func:`nclue.core.verify.verify`), 0 differences expected;
* ``s0``: the construction copy plus the stratified audit's decisions re-derived from its records,
  with the zero-gold removal rule (:func:`nclue.labelaudit.genealogy.apply_stage`), against
  ``qrels_s0.jsonl`` and the removals recorded in ``genealogy.json``;
* ``s``: S0 plus the challenge's decisions re-derived from its records, against ``qrels.jsonl``;
* ``record``: every count of ``genealogy.json`` (queries, rows, grades changed) recomputed.
"""

from ..core import layout
from ..core.verify import verify
from ..labelaudit import challenge_score
from ..labelaudit import score as audit_scoring
from ..labelaudit.genealogy import apply_stage
from .base import Analysis, Unit, Value
from .challenge import CHALLENGE_FILES, challenge_records
from .label_audit import AUDIT_FILES, audit_records

SRC = "supplement sections 8 and 10.5-10.6 (SourceShift qrel genealogy)"
V2_BASE = [layout.V2_CORPUS, layout.V2_CONDITIONS, layout.V2_QUERIES, layout.V2_GENEALOGY]


def _detail(diffs, rel):
    if not diffs:
        return ""
    qid, docid, derived, released = diffs[0]
    return "%s / %s: re-derived grade %d, %s has %d (%d differences)" % (qid, docid, derived, rel, released,
                                                                        len(diffs))


def derived_s0(inst):
    """``(qrels, removed, changed)`` of S0 re-derived from the construction copy and the audit records."""
    def build():
        v2 = inst.v2()
        rec = audit_records(inst)
        _, decided = audit_scoring.policy(rec)
        construction = v2.qrels(layout.V2_QRELS_CONSTRUCTION)
        changed = {(p.qid, p.docid): decided[p.pair] for p in rec.pairs.values()
                   if p.release == "v2" and decided[p.pair] != p.grade_before}
        qrels, removed = apply_stage(construction, v2.evaluation_queries(layout.V2_QRELS_CONSTRUCTION), changed)
        return qrels, removed, len(changed)
    return inst.memo("genealogy:s0", build)


def derived_s(inst):
    """``(qrels, removed, changed)`` of S re-derived from the released S0 and the challenge records."""
    def build():
        v2 = inst.v2()
        rec = challenge_records(inst)
        decided = challenge_score.decide(rec)[0]
        if decided is None:
            decided = {p.pair: (p.grade_before, False) for p in rec.pairs.values()}
        changed = challenge_score.changes(rec, decided)
        qrels, removed = apply_stage(v2.qrels(layout.V2_QRELS_S0), v2.evaluation_queries(layout.V2_QRELS_S0),
                                     changed)
        return qrels, removed, len(changed)
    return inst.memo("genealogy:s", build)


def _compare(prefix, derived, removed, changed, inst, copy):
    v2 = inst.v2()
    diffs = audit_scoring.qrel_differences(derived, v2.qrels(copy.path))
    stage = v2.genealogy()[copy.copy]
    recorded = sorted(stage.removed_queries)
    out = [Value(prefix + ".rederived_rows", sum(len(g) for g in derived.values()), source=SRC),
           Value(prefix + ".qrel_differences", len(diffs), source=SRC, detail=_detail(diffs, copy.path)),
           Value(prefix + ".removed_queries", len(removed), source=SRC, detail=", ".join(removed[:8])),
           Value(prefix + ".removed_queries_differences", len(set(removed) ^ set(recorded)), source=SRC,
                 detail="" if removed == recorded else "re-derived %s, %s lists %s" % (
                     removed[:4], layout.V2_GENEALOGY, recorded[:4])),
           Value(prefix + ".grades_changed", changed, source=SRC)]
    return out


def _units(inst):
    v2 = inst.v2()
    copies = {c.copy: c for c in layout.V2_COPIES}

    def construction():
        diffs = verify(v2.queries(), v2.inventory(), v2.qrels(layout.V2_QRELS_CONSTRUCTION))
        detail = "; ".join(str(d) for d in diffs[:8])
        return [Value("v2.genealogy.construction.rederived_qrel_differences", len(diffs), source=SRC, detail=detail),
                Value("v2.genealogy.construction.queries", len(v2.queries()), source=SRC)]

    def s0():
        qrels, removed, changed = derived_s0(inst)
        return _compare("v2.genealogy.s0", qrels, removed, changed, inst, copies["s0"])

    def s():
        qrels, removed, changed = derived_s(inst)
        return _compare("v2.genealogy.s", qrels, removed, changed, inst, copies["s"])

    def record():
        stages = v2.genealogy()
        wrong = []
        changed = {"construction": 0, "s0": derived_s0(inst)[2], "s": derived_s(inst)[2]}
        for copy in layout.V2_COPIES:
            stage = stages[copy.copy]
            found = {"queries": len(v2.evaluation_queries(copy.path)),
                     "rows": sum(len(g) for g in v2.qrels(copy.path).values()), "grades_changed": changed[copy.copy]}
            for field, value in sorted(found.items()):
                if getattr(stage, field) != value:
                    wrong.append("%s.%s: file %d, recomputed %d" % (copy.copy, field, getattr(stage, field), value))
        return [Value("v2.genealogy.record_disagreements", len(wrong), source=layout.V2_GENEALOGY,
                      detail="; ".join(wrong[:6]))]

    construction_inputs = V2_BASE + [layout.V2_INVENTORY, layout.V2_QRELS_CONSTRUCTION]
    s0_inputs = V2_BASE + [layout.V2_QRELS_CONSTRUCTION, layout.V2_QRELS_S0, layout.CORPUS, layout.QUERIES,
                           layout.QRELS] + AUDIT_FILES
    s_inputs = V2_BASE + [layout.V2_QRELS_S0, layout.V2_QRELS] + AUDIT_FILES + CHALLENGE_FILES
    units = [Unit("construction", construction_inputs, construction)]
    if inst.exists(AUDIT_FILES[0]):         # the audit part is present: S0 and S follow from its records
        units += [Unit("s0", s0_inputs, s0), Unit("s", s_inputs, s),
                  Unit("record", sorted(set(s0_inputs + s_inputs)), record)]
    return units


def _has_v2(inst):
    return inst.exists(layout.V2_QUERIES) or inst.exists(layout.V2_SYSTEMS)


ANALYSES = [Analysis("v2.genealogy", "construction", SRC, lambda inst: _units(inst) if _has_v2(inst) else [])]
