"""The qrel genealogies re-derived (docs/analyses.md#the-qrel-genealogies).

``v1.genealogy`` (derivation level; paper section 3.2, supplement 1.1 and 10.4): CrossPage's final copy
``qrels.jsonl`` is the construction copy (which ``v1.construction`` re-derives from the inventory) with the
stratified audit's v1 decisions applied:

* ``final``: the construction copy plus the decisions re-derived from the audit records by the repair
  policy (not read from ``repairs.jsonl``), with the zero-gold removal rule, against ``qrels.jsonl`` and the
  removals recorded in ``genealogy.json``;
* ``gates``: every gold of the final copy passes both page gates -- on its inventory page sets, or for a
  gold the repair made, on the inventory pages joined with the audit's supporting pages;
* ``record``: every count of ``data/v1/genealogy.json`` recomputed.

``v2.genealogy`` (derivation level):

* ``construction``: the construction copy re-derived from ``data/v2/inventory.jsonl`` by the
  independent verifier (:func:`nclue.core.verify.verify`), 0 differences expected;
* ``s0``: the construction copy plus the stratified audit's decisions re-derived from its records,
  with the zero-gold removal rule (:func:`nclue.labelaudit.copy_derivation.apply_stage`), against
  ``qrels_s0.jsonl`` and the removals recorded in ``genealogy.json``;
* ``s``: S0 plus the challenge's decisions re-derived from its records, against ``qrels.jsonl``;
* ``record``: every count of ``genealogy.json`` (queries, rows, grades changed) recomputed.
"""

from ..core import layout
from ..core.claim_ids import GENEALOGY, GENEALOGY_COPY
from ..core.verify import derive_qrels, distinct_page_valid, single_page_solvable, verify
from ..labelaudit import audit_scoring, challenge_score
from ..labelaudit.copy_derivation import apply_stage
from .base import Analysis, Unit, Value
from .shared.audit_inputs import (
    AUDIT_FILES,
    AUDIT_INPUTS,
    CHALLENGE_FILES,
    audit_present,
    audit_records,
    challenge_records,
    final_support,
)

SRC = "supplement sections 8 and 10.5-10.6 (SourceShift qrel genealogy)"
V1_SRC = "paper section 3.2, supplement 1.1 and 10.4 (CrossPage qrel genealogy)"
V2_BASE = [layout.V2_CORPUS, layout.V2_CONDITIONS, layout.V2_QUERIES, layout.V2_GENEALOGY]
V1_BASE = [layout.CORPUS, layout.QUERIES, layout.GENEALOGY]


def _detail(diffs, rel):
    if not diffs:
        return ""
    qid, docid, derived, released = diffs[0]
    return "%s / %s: re-derived grade %d, %s has %d (%d differences)" % (qid, docid, derived, rel, released,
                                                                        len(diffs))


def rederived_construction(release):
    """A release's construction copy re-derived from its inventory (the verifier's rule): each stage of a
    genealogy is re-derived from its re-derived parent, so a damaged copy is named itself, never its child."""
    return release.memo("genealogy:construction", lambda: derive_qrels(release.queries(), release.inventory()))


def derived_s0(inst):
    """``(qrels, removed, changed)`` of S0 re-derived from the re-derived construction copy and the audit records."""
    def build():
        v2 = inst.release(layout.SOURCESHIFT)
        rec = audit_records(inst)
        _, decided = audit_scoring.policy(rec)
        changed = {(p.qid, p.docid): decided[p.pair] for p in rec.pairs.values()
                   if p.release == "v2" and decided[p.pair] != p.grade_before}
        qrels, removed = apply_stage(rederived_construction(v2), v2.queries(), changed)
        return qrels, removed, len(changed)
    return inst.memo("genealogy:s0", build)


def derived_s(inst):
    """``(qrels, removed, changed)`` of S re-derived from the re-derived S0 and the challenge records."""
    def build():
        v2 = inst.release(layout.SOURCESHIFT)
        rec = challenge_records(inst)
        decided = challenge_score.decide(rec)[0]
        if decided is None:
            decided = {p.pair: (p.grade_before, False) for p in rec.pairs.values()}
        changed = challenge_score.changes(rec, decided)
        s0, s0_removed, _ = derived_s0(inst)
        queries = {q: v for q, v in v2.queries().items() if q not in set(s0_removed)}
        qrels, removed = apply_stage(s0, queries, changed)
        return qrels, removed, len(changed)
    return inst.memo("genealogy:s", build)


def derived_final(inst):
    """``(qrels, removed, changed)`` of CrossPage's final copy re-derived from the re-derived construction copy
    and the audit records (the policy re-run: :func:`nclue.labelaudit.audit_scoring.repaired_pairs`)."""
    def build():
        v1 = inst.release(layout.CROSSPAGE)
        changed = {pair: after for pair, (_, after, _) in
                   audit_scoring.repaired_pairs(audit_records(inst), "v1").items()}
        qrels, removed = apply_stage(rederived_construction(v1), v1.queries(), changed)
        return qrels, removed, len(changed)
    return inst.memo("genealogy:final", build)


def _compare(derived, removed, changed, release, copy, src=SRC):
    """The claims of one re-derived copy against its file and its genealogy record."""
    claim = GENEALOGY_COPY.on(release.spec.name).bind(copy=copy.name)
    diffs = audit_scoring.qrel_differences(derived, release.qrels(copy))
    stage = release.genealogy()[copy.name]
    recorded = sorted(stage.removed_queries)
    genealogy = copy.genealogy
    out = [Value(claim("rederived_rows"), sum(len(g) for g in derived.values()), source=src),
           Value(claim("qrel_differences"), len(diffs), source=src, detail=_detail(diffs, copy.path)),
           Value(claim("removed_queries"), len(removed), source=src, detail=", ".join(removed[:8])),
           Value(claim("removed_queries_differences"), len(set(removed) ^ set(recorded)), source=src,
                 detail="" if removed == recorded else "re-derived %s, %s lists %s" % (
                     removed[:4], genealogy, recorded[:4])),
           Value(claim("grades_changed"), changed, source=src)]
    return out


def _record(release, changed, src):
    """Every count of a release's genealogy.json recomputed: ``changed`` is ``{copy: grades changed}``."""
    stages = release.genealogy()
    wrong = []
    for copy in release.copies():
        stage = stages[copy.name]
        found = {"queries": len(release.evaluation_queries(copy)),
                 "rows": sum(len(g) for g in release.qrels(copy).values()), "grades_changed": changed[copy.name]}
        for field, value in sorted(found.items()):
            if getattr(stage, field) != value:
                wrong.append("%s.%s: file %d, recomputed %d" % (copy.name, field, getattr(stage, field), value))
    return [Value(GENEALOGY.on(release.spec.name)(statistic="record_disagreements"), len(wrong),
                  source=release.spec.genealogy, detail="; ".join(wrong[:6]))]


def _final_gates(inst):
    """Every gold of the final copy against both page gates (a repaired gold on its support)."""
    v1 = inst.release(layout.CROSSPAGE)
    queries, inventory, support = v1.evaluation_queries(v1.copy()), v1.inventory(), final_support(inst)
    golds = sps = failing = repaired = 0
    first = ""
    for qid in sorted(queries):
        query = queries[qid]
        for docid, grade in sorted(v1.qrels(v1.copy()).get(qid, {}).items()):
            if grade != query.n:
                continue
            golds += 1
            sets = support.get((qid, docid))
            repaired += sets is not None
            if sets is None:
                sets = [inventory[(docid, c.cid)].pages if (docid, c.cid) in inventory else () for c in query.conditions]
            solvable, valid = single_page_solvable(sets), distinct_page_valid(sets)
            sps += solvable
            failing += solvable or not valid
            if (solvable or not valid) and not first:
                first = "%s / %s: %s" % (qid, docid, "single-page-solvable" if solvable else
                                         "no distinct-page assignment")
    claim = GENEALOGY_COPY.on(v1.spec.name).bind(copy="final")
    return [Value(claim("golds"), golds, source=V1_SRC),
            Value(claim("repaired_golds"), repaired, source=V1_SRC),
            Value(claim("single_page_solvable_golds"), sps, source=V1_SRC, detail=first),
            Value(claim("golds_failing_a_gate"), failing, source=V1_SRC, detail=first)]


def _v1_units(inst):
    v1 = inst.release(layout.CROSSPAGE)
    copies = {c.name: c for c in layout.CROSSPAGE.copies}

    def final():
        qrels, removed, changed = derived_final(inst)
        return _compare(qrels, removed, changed, v1, copies["final"], V1_SRC)

    def record():
        return _record(v1, {"construction": 0, "final": derived_final(inst)[2]}, V1_SRC)

    if not audit_present(inst):         # the final copy follows from the audit's records
        return []
    inputs = sorted(set(V1_BASE + [layout.INVENTORY, layout.QRELS_CONSTRUCTION, layout.QRELS] + AUDIT_INPUTS +
                        ([layout.CONDITIONS] if v1.exists(layout.CONDITIONS) else [])))
    return [Unit("final", inputs, final),
            Unit("gates", inputs, lambda: _final_gates(inst)),
            Unit("record", inputs, record)]


def _units(inst):
    v2 = inst.release(layout.SOURCESHIFT)
    copies = {c.name: c for c in layout.SOURCESHIFT.copies}

    def construction():
        diffs = verify(v2.queries(), v2.inventory(), v2.qrels(copies["construction"]))
        detail = "; ".join(str(d) for d in diffs[:8])
        claim = GENEALOGY_COPY.on(v2.spec.name).bind(copy="construction")
        return [Value(claim("rederived_qrel_differences"), len(diffs), source=SRC, detail=detail),
                Value(claim("queries"), len(v2.queries()), source=SRC)]

    def s0():
        qrels, removed, changed = derived_s0(inst)
        return _compare(qrels, removed, changed, v2, copies["s0"])

    def s():
        qrels, removed, changed = derived_s(inst)
        return _compare(qrels, removed, changed, v2, copies["s"])

    def record():
        return _record(v2, {"construction": 0, "s0": derived_s0(inst)[2], "s": derived_s(inst)[2]}, SRC)

    construction_inputs = [rel for rel in V2_BASE if rel != layout.V2_GENEALOGY] + [layout.V2_INVENTORY,
                                                                                   layout.V2_QRELS_CONSTRUCTION]
    s0_inputs = sorted(set(V2_BASE + [layout.V2_INVENTORY, layout.V2_QRELS_CONSTRUCTION, layout.V2_QRELS_S0] +
                           AUDIT_INPUTS))
    s_inputs = sorted(set(s0_inputs + [layout.V2_QRELS] + CHALLENGE_FILES))
    units = [Unit("construction", construction_inputs, construction)]
    if inst.exists(AUDIT_FILES[0]):         # the audit part is present: S0 and S follow from its records
        units += [Unit("s0", s0_inputs, s0), Unit("s", s_inputs, s),
                  Unit("record", sorted(set(s0_inputs + s_inputs)), record)]
    return units


def _has_v2(inst):
    return inst.exists(layout.V2_QUERIES) or inst.exists(layout.V2_SYSTEMS)


ANALYSES = [Analysis(GENEALOGY.analysis_on(layout.CROSSPAGE.name), "derivation", V1_SRC, _v1_units),
            Analysis(GENEALOGY.analysis_on(layout.SOURCESHIFT.name), "derivation", SRC,
                     lambda inst: _units(inst) if _has_v2(inst) else [])]
