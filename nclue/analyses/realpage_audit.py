"""RealPage's qrel genealogy re-derived (``v3.genealogy``; docs/realpage.md#the-audit; paper section 3.2,
supplement 10.4).

From the released files alone (no page text): the audit's records (``data/v3/audit.jsonl``), validated
against the policy (:mod:`nclue.labelaudit.realpage_policy`), are applied to the construction copy with code
written apart from the builder's: a repair raises its pair's grade, a drop removes its query, and a query
whose repaired gold fails a page gate (:func:`nclue.core.verify.is_gold`, Hall's condition) is removed.  The
result must equal the released final copy ``qrels.jsonl`` row by row and the genealogy's removals and counts.
Every final gold is checked against both page gates.
"""

from collections import Counter

from ..core import layout
from ..core.claim_ids import GENEALOGY, GENEALOGY_COPY
from ..core.jsonio import read_json
from ..core.verify import is_gold
from ..labelaudit.realpage_policy import EVIDENCE, load_findings
from .base import Analysis, Unit, Value
from .shared.construction_checks import declared_gates

SOURCE = "docs/realpage.md#the-audit (RealPage, data/v3): the final copy from the construction copy and the audit"
INPUTS = [layout.REALPAGE.corpus, layout.REALPAGE.conditions, layout.REALPAGE.inventory, layout.REALPAGE.queries,
          layout.REALPAGE.copy("construction").path, layout.REALPAGE.audit_records, layout.REALPAGE.qrels, layout.REALPAGE.genealogy]


def derive_final(queries, construction, inventory, findings, cap):
    """``(grades, removed)``: the final copy ``{qid: {docid: grade}}`` and ``{qid: "drop" | "gate" | "cap"}``,
    from the construction copy and the audit's findings (see module doc).  ``cap``: build.json's
    ``max_gold_queries``; a query whose repair makes an RFC gold in more final queries than that is removed."""
    removed = {f.qid: "drop" for f in findings.values() if f.decision == "drop"}
    gained = {}
    for f in findings.values():
        if f.decision == "repair":
            gained.setdefault((f.qid, f.docid), {})[f.cid] = (f.page,)
    grades, promoted = {}, {}
    for qid in sorted(queries):
        if qid not in removed:
            own, raised, gated = _repaired_grades(queries[qid], construction.get(qid, {}), inventory, gained)
            if gated:
                removed[qid] = "gate"
            else:
                grades[qid] = own
                if raised:
                    promoted[qid] = raised
    _apply_cap(queries, construction, grades, promoted, removed, cap)
    return grades, removed


def _repaired_grades(query, construction_grades, inventory, gained):
    """``(grades, promoted, gated)`` of one query: its construction grades raised by the repairs, the
    RFCs a repair made gold, and whether such an RFC fails the page gate with the repairs' pages."""
    own, promoted, gated = {}, set(), False
    for docid, grade in construction_grades.items():
        extra = gained.get((query.qid, docid), {})
        own[docid] = grade + len(extra)
        if extra and own[docid] == query.n:
            promoted.add(docid)
            sets = [inventory[(docid, c.cid)].pages if (docid, c.cid) in inventory else extra[c.cid]
                    for c in query.conditions]
            gated = gated or not is_gold(sets)
    return own, promoted, gated


def _apply_cap(queries, construction, grades, promoted, removed, cap):
    """Remove, in query order, each promoted query whose repair would make an RFC gold in ``cap`` or more
    final queries (counting the construction golds of the kept queries and the promotions kept so far)."""
    gold_in = {}
    for qid in grades:
        for docid in _construction_golds(queries[qid], construction[qid]):
            gold_in[docid] = gold_in.get(docid, 0) + 1
    for qid in sorted(promoted):
        if max(gold_in.get(docid, 0) for docid in promoted[qid]) >= cap:
            removed[qid] = "cap"
            for docid in _construction_golds(queries[qid], construction[qid]):
                gold_in[docid] -= 1
            del grades[qid]
        else:
            for docid in promoted[qid]:
                gold_in[docid] = gold_in.get(docid, 0) + 1


def _construction_golds(query, construction_grades):
    return [docid for docid, grade in construction_grades.items() if grade == query.n]


def _differences(derived, released):
    out = []
    for qid in sorted(set(derived) | set(released)):
        mine, theirs = derived.get(qid), released.get(qid)
        if mine is None or theirs is None:
            out.append("%s: %s" % (qid, "in the final copy (%s) but removed by the audit" % layout.REALPAGE.qrels
                                   if mine is None else "kept by the audit but absent from the final copy (%s)"
                                   % layout.REALPAGE.qrels))
            continue
        for docid in sorted(set(mine) | set(theirs)):
            if mine.get(docid) != theirs.get(docid):
                out.append("%s / %s: released %s, derived %s" % (qid, docid, theirs.get(docid), mine.get(docid)))
    return out


def _gate_failures(queries, final, inventory, findings):
    """Final golds that fail a page gate, with the repairs' pages counted."""
    repaired = {(f.qid, f.docid, f.cid): (f.page,) for f in findings.values() if f.decision == "repair"}
    out = []
    for qid, grades in sorted(final.items()):
        query = queries[qid]
        for docid, grade in sorted(grades.items()):
            if grade == query.n:
                sets = [inventory[(docid, c.cid)].pages if (docid, c.cid) in inventory
                        else repaired.get((qid, docid, c.cid), ()) for c in query.conditions]
                if not is_gold(sets):
                    out.append("%s / %s" % (qid, docid))
    return out


class Derivation:
    """The released copies and findings of data/v3, and the final copy re-derived from them."""

    def __init__(self, inst):
        v3 = inst.release(layout.REALPAGE)
        construction_copy, final_copy = layout.REALPAGE.copies
        self.queries, self.inventory = v3.queries(), v3.inventory()
        self.construction = v3.qrels(construction_copy)
        self.findings = load_findings(inst.root, layout.REALPAGE.audit_records, self.queries, v3.corpus(), v3.conditions(),
                                      self.inventory, self.construction)
        self.build = read_json(inst.path(layout.REALPAGE.build), layout.REALPAGE.build)
        self.cap = declared_gates(inst)["max_gold_queries"]
        self.derived, self.removed = derive_final(self.queries, self.construction, self.inventory, self.findings,
                                                  self.cap)
        kept = v3.evaluation_queries(final_copy)
        # every query the released final copy has a row of, and every query it evaluates: a removed query's rows
        # written back into qrels.jsonl are a difference, not filtered away
        self.released = {qid: grades for qid, grades in v3.qrels(final_copy).items() if grades or qid in kept}
        self.stages = v3.genealogy()
        self.rows = sum(len(g) for g in self.derived.values())
        repaired_pairs = {(f.qid, f.docid) for f in self.findings.values() if f.decision == "repair"}
        self.raised = sum(1 for qid, _ in repaired_pairs if qid not in self.removed)

    def count_differences(self):
        """The genealogy's declared counts that the re-derivation does not give."""
        final, construction = self.stages["final"], self.stages["construction"]
        return [name for name, declared, found in (
            ("queries", final.queries, len(self.derived)), ("rows", final.rows, self.rows),
            ("grades_changed", final.grades_changed, self.raised),
            ("construction queries", construction.queries, len(self.queries)),
            ("construction rows", construction.rows, sum(len(g) for g in self.construction.values())))
            if declared != found]

    def count(self, **match):
        return sum(1 for f in self.findings.values() if all(getattr(f, k) == v for k, v in match.items()))


def _value(statistic, number, detail=""):
    return Value(GENEALOGY.on(layout.REALPAGE.name)(statistic=statistic), number, source=SOURCE, detail=detail)


def _genealogy_values(inst):
    d = Derivation(inst)
    diffs = _differences(d.derived, d.released)
    removal_diffs = sorted(set(d.stages["final"].removed_queries) ^ set(d.removed))
    count_diffs = d.count_differences()
    gates = _gate_failures(d.queries, d.derived, d.inventory, d.findings)
    gold_in = Counter(docid for qid, g in d.derived.items() for docid, grade in g.items() if grade == d.queries[qid].n)
    golds = sum(gold_in.values())
    over_cap = ["%s (%d)" % (docid, n) for docid, n in sorted(gold_in.items()) if n > d.cap]
    repairs = d.count(decision="repair")
    values = [_value("rederived_differences", len(diffs), "; ".join(diffs[:6])),
              _value("removal_differences", len(removal_diffs), ", ".join(removal_diffs[:10])),
              _value("count_differences", len(count_diffs), ", ".join(count_diffs)),
              _value("final_gold_gate_failures", len(gates), ", ".join(gates[:10])),
              _value("final_golds_over_cap", len(over_cap), ", ".join(over_cap[:10])),
              _value("findings", len(d.findings)), _value("repairs", repairs), _value("drops", d.count(decision="drop")),
              _value("queries_removed_by_drop", sum(1 for why in d.removed.values() if why == "drop")),
              _value("queries_removed_by_gate", sum(1 for why in d.removed.values() if why == "gate")),
              _value("queries_removed_by_cap", sum(1 for why in d.removed.values() if why == "cap")),
              _value("pairs_with_grades_raised", d.raised)]
    values += [_value("findings_%s" % kind, d.count(evidence=kind)) for kind in EVIDENCE]
    values += [Value(GENEALOGY_COPY.on(layout.REALPAGE.name)(copy="final", statistic=statistic), number, source=SOURCE)
               for statistic, number in (("queries", len(d.derived)), ("rows", d.rows), ("golds", golds),
                                         ("subsets", d.rows - golds))]
    build = d.build.get("audit") or {}
    declared = {"findings": build.get("findings"), "repairs": build.get("repairs")}
    found = {"findings": len(d.findings), "repairs": repairs}
    values.append(_value("build_record_disagreements", sum(1 for k in declared if declared[k] != found[k]),
                         "build.json audit %s, records %s" % (declared, found) if declared != found else ""))
    return values


def _units(inst):
    if not inst.exists(layout.REALPAGE.audit_records):
        return []
    return [Unit("genealogy", INPUTS + [layout.REALPAGE.build], lambda: _genealogy_values(inst))]


ANALYSES = [Analysis(GENEALOGY.analysis_on(layout.REALPAGE.name), "derivation", SOURCE, _units)]
