"""Label-audit analyses (paper section 3.2; supplement section 10, Tables S8-S14).

* ``audit.integrity``: the quote gate on every initial and adjudication
  answer, per responder (Tables S8, S11);
* ``audit.agreement``: exact derived-grade agreement with its Wilson
  interval, linearly weighted and unweighted grade kappa, condition agreement
  with Wilson and binary kappa, page-set agreement, the grade confusion
  matrix (Table S9), strata by n and release, and the adjudication poll's
  unanimity, Fleiss' kappa and pairwise agreement (10.3.2);
* ``audit.pool``: the expanded-page pool (Table S10): pairs and conditions,
  displayed pages, pages per condition, route memberships, every pool
  re-derived from its recorded candidates, the fixed routes checked against
  the initial answers, the packet and the inventories; and the held-out
  recall check on the locked positives (recovered by rank 6 and 9);
* ``audit.policy``: the evidence-asymmetric policy re-run on the records
  (routes, queue, locked conditions, the distinct-page gate, any recorded
  administrative override), the per-condition decision records and the
  decisions file checked against it, transitions (Table S12), corrections by stratum
  (Table S13), and v1's repairs re-derived from the records and compared
  with ``data/v1/repairs.jsonl`` (v2's S0 is re-derived by ``v2.genealogy``,
  :mod:`nclue.analyses.genealogy`; Table S14 is ``audit.impact``,
  :mod:`nclue.analyses.validation_stages`).
"""

import json

from ..core import layout
from ..core.claim_ids import (
    AGREEMENT,
    AGREEMENT_PAIRWISE,
    AGREEMENT_STRATUM,
    INTEGRITY,
    INTEGRITY_RESPONDER,
    PACKET,
    POLICY,
    POLICY_SECTION,
    POLICY_STRATUM,
    POLICY_TRANSITION,
    POOL,
    POOL_SECTION,
)
from ..core.jsonio import read_json
from ..labelaudit import audit_scoring
from .base import Analysis, Unit, Value
from .shared.audit_inputs import AUDIT_INPUTS, audit_present, audit_records
from .shared.stats_file_check import stats_file_disagreements

AUDIT_STATS = layout.AUDIT_STATS
AUDIT_DESCRIPTION = layout.AUDIT_DESCRIPTION
INPUTS = AUDIT_INPUTS
SRC = "supplement section 10 (label audit; synthetic responses)"
_present = audit_present


def _flat(claim, obj, src, path=()):
    """Values for every scalar / list leaf of a nested dict: ``claim(*path, leaf)`` gives the id of the leaf
    reached through the keys ``path`` (a tuple key adds each of its parts; an interval ``[low, high]`` is two
    leaves, ``<name>_low`` and ``<name>_high``)."""
    out = []
    for key in sorted(obj):
        value = obj[key]
        if isinstance(value, dict):
            out += _flat(claim, value, src, path + (key if isinstance(key, tuple) else (key,)))
        elif key == "first_mismatch" or key == "first_failure":
            continue
        elif isinstance(value, list) and value and isinstance(value[0], float):
            out += [Value(claim(*path, key + "_low"), value[0], source=src),
                    Value(claim(*path, key + "_high"), value[1], source=src)]
        else:
            out.append(Value(claim(*path, key), value, source=src))
    return out


def _positional(template, *parts):
    """``template`` called with its parts in order: how :func:`_flat` fills a template from a path."""
    return template(**dict(zip(template.parts, parts)))


def _integrity_units(inst):
    def compute():
        rec = audit_records(inst)
        table, first = audit_scoring.integrity(rec)
        failures = sum(t["gate_failures"] for key, t in table.items() if key[1] != audit_scoring.ALL)
        return _flat(lambda *path: _positional(INTEGRITY_RESPONDER, *path), table, SRC) + [
            Value(INTEGRITY("pairs"), len(rec.pairs), source=SRC),
            Value(INTEGRITY("conditions"), sum(p.n for p in rec.pairs.values()), source=SRC),
            Value(INTEGRITY("displayed_pages"), len(rec.pages), source=SRC),
            Value(INTEGRITY("gate_failures"), failures, source=SRC, detail=first)]
    def packet():
        structure = audit_scoring.packet_structure(audit_records(inst))
        out = [Value(PACKET(k), v, source=SRC + ", Table S7") for k, v in structure.items()]
        cells = {}
        for key, count in structure.items():        # <release>_<source>_<stratum>: a cell's pairs, Table S7
            parts = key.rsplit("_", 1)
            if len(parts) == 2 and parts[1] in ("gold", "subset") and key.count("_") == 2:
                cells[parts[0]] = cells.get(parts[0], 0) + count
        out += [Value(PACKET(cell + "_pairs"), cells[cell], source=SRC + ", Table S7") for cell in sorted(cells)]
        by_release = {}
        for cell, count in cells.items():
            by_release[cell.split("_", 1)[0]] = by_release.get(cell.split("_", 1)[0], 0) + count
        out += [Value(PACKET(r + "_pairs"), by_release[r], source=SRC + ", section 10.1")
                for r in sorted(by_release)]
        if inst.exists(AUDIT_STATS):
            wrong = stats_file_disagreements(inst, AUDIT_STATS, "table", structure)
            out.append(Value(PACKET("stats_file_disagreements"), len(wrong), source=AUDIT_STATS,
                              detail="; ".join(wrong[:6])))
        if inst.exists(AUDIT_DESCRIPTION):
            wrong = design_disagreements(read_json(inst.path(AUDIT_DESCRIPTION), AUDIT_DESCRIPTION),
                                         audit_records(inst), lambda p: inst.release(p.release).corpus()[p.docid].pages)
            out.append(Value(PACKET("design_disagreements"), len(wrong), source=AUDIT_DESCRIPTION,
                             detail="; ".join(wrong[:4])))
        return out
    if not _present(inst):
        return []
    extra = [rel for rel in (AUDIT_STATS, AUDIT_DESCRIPTION) if inst.exists(rel)]
    return [Unit("integrity", INPUTS, compute), Unit("packet", INPUTS + extra, packet)]


def design_disagreements(design, rec, pages_of):
    """Where ``data/audit/audit.json``'s description of the audit disagrees with its records, as messages: the
    responders (the initial and adjudication streams), the three-condition pairs, the pairs per (release, source,
    stratum) cell, the pages shown per initial condition and the pages of each adjudication pool (``pool_pages``:
    between its bounds, fewer only for a document with fewer pages; ``pages_of(pair)``: the document's pages).
    (The responders' reading rates are parameters of the simulation; no record states them.)"""
    pairs = list(rec.pairs.values())
    names = design.get("responders")
    declared = sorted(r.get("name") for r in names if isinstance(r, dict)) if isinstance(names, list) else names
    shown = sorted({len(ans.shown) for p in pairs for answers in p.initial.values() for ans in answers})
    out = _disagreement("responders", declared, sorted(set(rec.initial_responders) | set(rec.adjudication_responders)))
    out += _disagreement("n3_pairs", design.get("n3_pairs"), sum(1 for p in pairs if p.n == 3))
    out += _strata_disagreement(design.get("strata"), pairs)
    out += _disagreement("shown_pages", design.get("shown_pages"), shown[-1] if shown else None)
    return out + _pool_disagreement(design.get("pool_pages"), pairs, pages_of)


def _disagreement(field, declared, found):
    if declared == found:
        return []
    return ["%s: field %r says %s, the records give %s" % (AUDIT_DESCRIPTION, field, json.dumps(declared, sort_keys=True),
                                                           json.dumps(found, sort_keys=True))]


def _strata_disagreement(strata, pairs):
    """The pairs per (release, source) cell and stratum against audit.json's ``strata`` (a cell the sample left
    empty counts zero pairs)."""
    cells = {}
    for p in pairs:
        cell = cells.setdefault((p.release, p.source), {"release": p.release, "source": p.source, "gold": 0,
                                                        "subset": 0})
        cell[p.stratum] = cell.get(p.stratum, 0) + 1
    if not (isinstance(strata, list) and all(isinstance(s, dict) for s in strata)):
        return _disagreement("strata", strata, [cells[k] for k in sorted(cells)])
    declared = {(str(s.get("release")), str(s.get("source"))): s for s in strata}
    for key in sorted(set(declared) - set(cells)):
        cells[key] = {"release": key[0], "source": key[1], "gold": 0, "subset": 0}
    return _disagreement("strata", [declared[k] for k in sorted(declared)], [cells[k] for k in sorted(cells)])


def _pool_disagreement(bounds, pairs, pages_of):
    """The first adjudication pool outside audit.json's ``pool_pages`` bounds (fewer pages only for a shorter
    document)."""
    if not (isinstance(bounds, list) and len(bounds) == 2 and all(isinstance(b, int) for b in bounds)):
        return ["%s: field 'pool_pages' says %s, not a [lowest, highest] page count" % (
            AUDIT_DESCRIPTION, json.dumps(bounds))]
    for p in pairs:
        for cid, pool in sorted(p.queue.items()):
            if not min(bounds[0], pages_of(p)) <= len(pool) <= bounds[1]:
                return ["%s: field 'pool_pages' says %s, but the pool of %s / %s holds %d pages (document of %d)" % (
                    AUDIT_DESCRIPTION, json.dumps(bounds), p.pair, cid, len(pool), pages_of(p))]
    return []


def _agreement_units(inst):
    def compute():
        rec = audit_records(inst)
        pairs = list(rec.pairs.values())
        out = _flat(AGREEMENT.bind(stage="initial"), audit_scoring.agreement(rec), SRC + ", Tables S8-S9")
        for name, subset in (("n2", [p for p in pairs if p.n == 2]), ("n3", [p for p in pairs if p.n == 3]),
                             ("v1", [p for p in pairs if p.release == "v1"]),
                             ("v2", [p for p in pairs if p.release == "v2"])):
            a = audit_scoring.agreement(rec, subset)
            stratum = AGREEMENT_STRATUM.bind(stratum=name)
            out += [Value(stratum("pairs"), a["pairs"], source=SRC),
                    Value(stratum("grade_agreement"), a["grade_agreement"], source=SRC)]
        adjudication = audit_scoring.adjudication(rec)
        pairwise = adjudication.pop("pairwise_agreement", {})
        out += _flat(AGREEMENT.bind(stage="adjudication"), adjudication, SRC + ", 10.3.2")
        out += _flat(AGREEMENT_PAIRWISE, pairwise, SRC + ", 10.3.2")
        return out
    return [Unit("agreement", INPUTS, compute)] if _present(inst) else []


def _policy_units(inst):
    def compute():
        rec = audit_records(inst)
        pol, decided = audit_scoring.policy(rec)
        v1 = inst.release(layout.CROSSPAGE)
        src = SRC + ", 10.2.2 and 10.4, Tables S12-S13"
        out = [Value(POLICY("decision_mismatches"), pol.pop("decision_mismatches"), source=src,
                     detail=pol.pop("first_mismatch"))]
        transitions = pol.pop("transitions")
        splits = pol.pop("transition_splits")
        strata = pol.pop("strata")
        out += _flat(POLICY, pol, src)
        transition = POLICY_SECTION.bind(section="transition")
        out += [Value(transition(k.replace("->", "_to_")), v, source=src) for k, v in sorted(transitions.items())]
        out += [Value(POLICY_TRANSITION(step=k.replace("->", "_to_"), statistic=end), n, source=src)
                for k, split in sorted(splits.items()) for end, n in sorted(split.items())]
        out += _flat(lambda *path: _positional(POLICY_STRATUM, *path), strata, src)
        table, first = audit_scoring.condition_decisions(rec)
        decisions = POLICY_SECTION.bind(section="condition_decisions")
        out += [Value(decisions(k), v, source=src + ", 10.4 (per-condition decisions)",
                      detail=first if k.endswith(("mismatches", "missing")) else "") for k, v in sorted(table.items())]
        released = {(r.qid, r.docid): (r.grade_before, r.grade_after) for r in v1.repairs().values()}
        mine = {(p.qid, p.docid): (p.grade_before, decided[p.pair]) for p in rec.pairs.values()
                if p.release == "v1" and decided[p.pair] != p.grade_before}
        bad = sorted(k for k in set(released) | set(mine) if released.get(k) != mine.get(k))
        detail = "" if not bad else "%s / %s: records give %s, %s gives %s" % (
            bad[0][0], bad[0][1], mine.get(bad[0]), layout.REPAIRS, released.get(bad[0]))
        out += [Value(POLICY("v1_repairs"), len(mine), source=src),
                Value(POLICY("v1_repairs_differences"), len(bad), source=src, detail=detail)]
        return out
    inputs = INPUTS + [layout.REPAIRS]
    return [Unit("policy", inputs, compute)] if _present(inst) else []


def _pool_units(inst):
    src = SRC + ", 10.3.1, Table S10"

    def construction():
        out = {}
        for part in (inst.release(layout.CROSSPAGE), inst.release(layout.SOURCESHIFT)):
            for (docid, cid), row in part.inventory().items():
                out[(part.spec.name, docid, cid)] = list(row.pages)
        return out

    def pool():
        table, first = audit_scoring.expanded_pool(audit_records(inst), construction())
        members = table.pop("memberships")
        out = [Value(POOL(k), v, source=src, detail=first if k.endswith(("mismatches", "pages")) else "")
               for k, v in sorted(table.items())]
        memberships = POOL_SECTION.bind(section="memberships")
        out += [Value(memberships(k), v, source=src) for k, v in sorted(members.items())]
        return out

    def recall():
        table, first = audit_scoring.pool_recall(audit_records(inst))
        recall_of = POOL_SECTION.bind(section="recall")
        return [Value(recall_of(k), v, source=src + " (held-out recall check)",
                      detail=first if k.endswith(("mismatches", "missing", "unexpected")) else "")
                for k, v in sorted(table.items())]
    inputs = INPUTS + [layout.INVENTORY, layout.V2_INVENTORY]
    return [Unit("pool", inputs, pool), Unit("recall", INPUTS, recall)] if _present(inst) else []


ANALYSES = [
    Analysis(INTEGRITY.analysis, "derivation", SRC + ", Tables S8 and S11", _integrity_units),
    Analysis(AGREEMENT.analysis, "derivation", SRC + ", Tables S8-S9, 10.3.2", _agreement_units),
    Analysis(POLICY.analysis, "derivation", SRC + ", 10.2.2, 10.4, Tables S12-S13", _policy_units),
    Analysis(POOL.analysis, "derivation", SRC + ", 10.3.1, Table S10", _pool_units),
]
