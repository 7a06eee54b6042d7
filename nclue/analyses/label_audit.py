"""Label-audit analyses (paper section 3.2; supplement section 10, Tables S8-S14).

* ``audit.integrity``: the quote gate on every initial and adjudication
  answer, per responder (Tables S8, S11);
* ``audit.agreement``: exact derived-grade agreement with its Wilson
  interval, linearly weighted and unweighted grade kappa, condition agreement
  with Wilson and binary kappa, page-set agreement, the grade confusion
  matrix (Table S9), strata by n and release, and the adjudication poll's
  unanimity, Fleiss' kappa and pairwise agreement (10.3.2);
* ``audit.policy``: the evidence-asymmetric policy re-run on the records
  (routes, queue, locked conditions, the distinct-page gate), the decisions
  file checked against it, transitions (Table S12), corrections by stratum
  (Table S13), and the revised qrels re-derived from the records and compared
  with the released ``data/v2/qrels.jsonl`` and ``data/v1/repairs.jsonl``;
* ``audit.impact``: every system's scores before and after repair, the
  largest change and the Spearman rho of the system order, on v1 (raw matrix
  and clean scorecard) and v2 (13 systems x 3 forms; Table S14).
"""

from ..core import layout
from ..core.metrics import evaluate_changed, summary
from ..core.structure import gold_and_subsets
from ..labelaudit import score as audit_scoring
from ..labelaudit.records import FILES as AUDIT_RECORD_NAMES
from ..labelaudit.records import load as load_audit_records
from ..labelaudit.records import path_of as audit_path
from ..stats.rank import spearman
from .base import Analysis, Unit, Value
from .common import form_systems, outcomes
from .construction import stats_file_disagreements
from .sourceshift import FORMS, v2_path

AUDIT_FILES = [audit_path(name) for name in AUDIT_RECORD_NAMES]
AUDIT_STATS = layout.AUDIT_STATS
RELEASE_INPUTS = [layout.CORPUS, layout.QUERIES, layout.QRELS, layout.V2_CORPUS, layout.V2_CONDITIONS, layout.V2_QUERIES, layout.V2_QRELS_S0]
INPUTS = AUDIT_FILES + RELEASE_INPUTS
SRC = "supplement section 10 (label audit; synthetic responses)"


def audit_records(inst):
    v1, v2 = inst.v1(), inst.v2()

    def load():
        releases = {"v1": (v1.queries(), v1.corpus(), v1.qrels()),
                    "v2": (v2.queries(), v2.corpus(), v2.qrels(layout.V2_QRELS_S0))}
        return load_audit_records(inst.root, releases)
    return inst.memo("audit:records", load)


def _present(inst):
    return inst.exists(audit_path("key"))


def _flat(prefix, obj, src):
    """Values for every scalar / list leaf of a nested dict, ids joined with dots."""
    out = []
    for key in sorted(obj):
        value = obj[key]
        if isinstance(value, dict):
            out += _flat("%s.%s" % (prefix, key), value, src)
        elif key == "first_mismatch" or key == "first_failure":
            continue
        elif isinstance(value, list) and value and isinstance(value[0], float):
            out += [Value("%s.%s_low" % (prefix, key), value[0], source=src),
                    Value("%s.%s_high" % (prefix, key), value[1], source=src)]
        else:
            out.append(Value("%s.%s" % (prefix, key), value, source=src))
    return out


def _integrity_units(inst):
    def compute():
        rec = audit_records(inst)
        table, first = audit_scoring.integrity(rec)
        failures = sum(t["gate_failures"] for t in table.values())
        return _flat("audit.integrity", table, SRC) + [
            Value("audit.integrity.pairs", len(rec.pairs), source=SRC),
            Value("audit.integrity.conditions", sum(p.n for p in rec.pairs.values()), source=SRC),
            Value("audit.integrity.displayed_pages", len(rec.pages), source=SRC),
            Value("audit.integrity.gate_failures", failures, source=SRC, detail=first)]
    def packet():
        structure = audit_scoring.packet_structure(audit_records(inst))
        out = [Value("audit.packet.%s" % k, v, source=SRC + ", Table S7") for k, v in structure.items()]
        if inst.exists(AUDIT_STATS):
            wrong = stats_file_disagreements(inst, AUDIT_STATS, "table", structure)
            out.append(Value("audit.packet.stats_file_disagreements", len(wrong), source=AUDIT_STATS,
                              detail="; ".join(wrong[:6])))
        return out
    if not _present(inst):
        return []
    return [Unit("integrity", INPUTS, compute),
            Unit("packet", INPUTS + ([AUDIT_STATS] if inst.exists(AUDIT_STATS) else []), packet)]


def _agreement_units(inst):
    def compute():
        rec = audit_records(inst)
        pairs = list(rec.pairs.values())
        out = _flat("audit.agreement.initial", audit_scoring.agreement(rec), SRC + ", Tables S8-S9")
        for name, subset in (("n2", [p for p in pairs if p.n == 2]), ("n3", [p for p in pairs if p.n == 3]),
                             ("v1", [p for p in pairs if p.release == "v1"]),
                             ("v2", [p for p in pairs if p.release == "v2"])):
            a = audit_scoring.agreement(rec, subset)
            out += [Value("audit.agreement.strata.%s.pairs" % name, a["pairs"], source=SRC),
                    Value("audit.agreement.strata.%s.grade_agreement" % name, a["grade_agreement"], source=SRC)]
        out += _flat("audit.agreement.adjudication", audit_scoring.adjudication(rec), SRC + ", 10.3.2")
        return out
    return [Unit("agreement", INPUTS, compute)] if _present(inst) else []


def _policy_units(inst):
    def compute():
        rec = audit_records(inst)
        pol, decided = audit_scoring.policy(rec)
        v1, v2 = inst.v1(), inst.v2()
        src = SRC + ", 10.2.2 and 10.4, Tables S12-S13"
        out = [Value("audit.policy.decision_mismatches", pol.pop("decision_mismatches"), source=src,
                     detail=pol.pop("first_mismatch"))]
        transitions = pol.pop("transitions")
        strata = pol.pop("strata")
        out += _flat("audit.policy", pol, src)
        out += [Value("audit.policy.transition.%s" % k.replace("->", "_to_"), v, source=src)
                for k, v in sorted(transitions.items())]
        out += _flat("audit.policy.strata", strata, src)
        derived = audit_scoring.revised(v2.qrels(layout.V2_QRELS_S0), rec, decided, "v2")
        diffs = audit_scoring.qrel_differences(derived, v2.qrels())
        out += [Value("audit.policy.v2_qrel_rows_derived", sum(len(g) for g in derived.values()), source=src),
                Value("audit.policy.v2_qrels_differences", len(diffs), source=src, detail=_diff_detail(
                    diffs, layout.V2_QRELS))]
        released = {(r.qid, r.docid): (r.grade_before, r.grade_after) for r in v1.repairs().values()}
        mine = {(p.qid, p.docid): (p.grade_before, decided[p.pair]) for p in rec.pairs.values()
                if p.release == "v1" and decided[p.pair] != p.grade_before}
        bad = sorted(k for k in set(released) | set(mine) if released.get(k) != mine.get(k))
        detail = "" if not bad else "%s / %s: records give %s, %s gives %s" % (
            bad[0][0], bad[0][1], mine.get(bad[0]), layout.REPAIRS, released.get(bad[0]))
        out += [Value("audit.policy.v1_repairs", len(mine), source=src),
                Value("audit.policy.v1_repairs_differences", len(bad), source=src, detail=detail)]
        return out
    inputs = INPUTS + [layout.V2_QRELS, layout.REPAIRS]
    return [Unit("policy", inputs, compute)] if _present(inst) else []


def _diff_detail(diffs, rel):
    if not diffs:
        return ""
    qid, d, derived, released = diffs[0]
    return "%s / %s: the records give grade %d, %s has %d" % (qid, d, derived, rel, released)


def _repaired_v1(inst):
    def build():
        qrels = {qid: dict(g) for qid, g in inst.qrels().items()}
        for r in inst.repairs().values():
            row = qrels.setdefault(r.qid, {})
            if r.grade_after == 0:
                row.pop(r.docid, None)
            else:
                row[r.docid] = r.grade_after
        return qrels, gold_and_subsets(inst.queries(), qrels)
    return inst.memo("audit:repaired-v1", build)


def _impact(before, after, src, prefix):
    """Largest absolute change and Spearman rho of the system order, as Values."""
    changes = [abs(a - b) for a, b in zip(after, before)]
    return [Value(prefix + ".max_abs_change", max(changes), source=src),
            Value(prefix + ".spearman_rho", spearman(before, after) if len(set(before)) > 1 else None, source=src)]


def _impact_units(inst):
    units = []
    v1 = inst.v1()

    def v1_compute():
        qrels, sets = _repaired_v1(v1)
        systems, _ = v1.systems()
        src = "paper section 3.2 / Table S5b (v1 audit repairs; reversal = before vs after)"
        out = []
        for label, sids, form in (("matrix", sorted(systems), None), ("scorecard", form_systems(v1), "clean_v2")):
            before, after = [], []
            changed = {r.qid for r in v1.repairs().values()}
            for sid in sids:
                rel = layout.ranking_path(sid, form)
                out_before = outcomes(v1, rel)
                b = summary(out_before)["nclue_score"]
                a = summary(evaluate_changed(out_before, v1.ranking(rel), v1.queries(), qrels, sets, changed))[
                    "nclue_score"]
                before.append(b)
                after.append(a)
                out.append(Value("audit.impact.v1.%s.%s.nclue_score_repaired" % (label, sid), a, source=src))
            out += _impact(before, after, src, "audit.impact.v1.%s" % label)
        return out
    v1_files = sorted({layout.ranking_path(s) for s in _v1_systems(v1)} |
                      {layout.ranking_path(s, "clean_v2") for s in form_systems(v1)})
    units.append(Unit("v1", [layout.CORPUS, layout.QUERIES, layout.QRELS, layout.SYSTEMS, layout.REPAIRS] + v1_files, v1_compute))

    if inst.exists(layout.V2_SYSTEMS):
        v2 = inst.v2()
        sids = form_systems(v2)

        def v2_compute():
            src = "supplement Table S14 (v2: S0 before, S after)"
            out = []
            s0 = v2.qrels(layout.V2_QRELS_S0)
            s0_sets = gold_and_subsets(v2.queries(), s0)
            final = v2.qrels()
            changed = {q for q in set(s0) | set(final) if s0.get(q, {}) != final.get(q, {})}
            for form in FORMS:
                before, after = [], []
                for sid in sids:
                    rel = v2_path(sid, form)
                    out_after = outcomes(v2, rel)
                    b = summary(evaluate_changed(out_after, v2.ranking(rel), v2.queries(), s0, s0_sets, changed))
                    a = summary(out_after)
                    before.append(b["nclue_score"])
                    after.append(a["nclue_score"])
                    out += [Value("audit.impact.v2.%s.%s.nclue_score_s0" % (sid, form), b["nclue_score"], source=src),
                            Value("audit.impact.v2.%s.%s.gold_ndcg_s0" % (sid, form), b["gold_ndcg"], source=src)]
                out += _impact(before, after, src, "audit.impact.v2.%s" % form)
            # Table S14's headline: the fusion - BM25 gold-only NDCG@10 gap on S0 and on S (raw form)
            if "rrf_bm25and_pagetop3" in sids and "bm25_and" in sids:
                for label, copy in (("s0", layout.V2_QRELS_S0), ("s", None)):
                    fus = summary(outcomes(v2, v2_path("rrf_bm25and_pagetop3", "raw"), copy))["gold_ndcg"]
                    bm = summary(outcomes(v2, v2_path("bm25_and", "raw"), copy))["gold_ndcg"]
                    out.append(Value("audit.impact.v2.raw.fusion_minus_bm25_gold_ndcg_%s" % label, fus - bm,
                                     source=src))
            return out
        files = [v2_path(s, f) for s in sids for f in FORMS]
        units.append(Unit("v2", [layout.V2_CORPUS, layout.V2_CONDITIONS, layout.V2_QUERIES, layout.V2_QRELS_S0, layout.V2_QRELS,
                                 layout.V2_SYSTEMS] + files, v2_compute))
    return units


def _v1_systems(v1):
    if not v1.exists(layout.SYSTEMS):
        return []
    systems, _ = v1.systems()
    return sorted(systems)


def _when_repairs(fn):
    def units(inst):
        return fn(inst) if inst.exists(layout.REPAIRS) or _present(inst) else []
    return units


ANALYSES = [
    Analysis("audit.integrity", "construction", SRC + ", Tables S8 and S11", _integrity_units),
    Analysis("audit.agreement", "construction", SRC + ", Tables S8-S9, 10.3.2", _agreement_units),
    Analysis("audit.policy", "construction", SRC + ", 10.2.2, 10.4, Tables S12-S13", _policy_units),
    Analysis("audit.impact", "sensitivity", "paper section 3.2; supplement Table S14", _when_repairs(_impact_units)),
]
