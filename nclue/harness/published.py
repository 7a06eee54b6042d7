"""Published results against this run's recomputed values (docs/paper-audit.md#published-results).

For every transcribed paper number a rule of :mod:`nclue.paperaudit.results` binds, one check
``published:<number id>`` (group ``published``):

* on a **synthetic** instrument (MANIFEST ``synthetic: true``): ``skip``, reason "synthetic stand-in:
  published value applies to the original release", with the stand-in's own value beside the
  published one (never a verdict);
* otherwise: ``pass`` when the recomputed value, in the paper's unit, displays as the published
  number (:meth:`nclue.paperaudit.solve.Num.shows`), else ``fail`` naming table, row and column;
* a binding whose row the crosswalk blocks, or whose claim this run did not compute, is a ``skip``
  saying so.

Every configuration the crosswalk lists as blocked is a ``skip`` ``published.config:<id>`` with its
reason, so what the instrument cannot run is never absent.  :func:`summary` gives the counts the
headline and the JSON report carry: bound and unbound numbers by table, verified, failed, skipped.
"""

from fractions import Fraction

from ..paperaudit import results
from ..paperaudit.check import load_numbers
from ..paperaudit.crosswalk import load as load_crosswalk
from .checks import Check

SYNTHETIC = "synthetic stand-in: published value applies to the original release"


def _where(row):
    bits = ["Table %s" % row["table"] if row["table"][:1].isdigit() or row["table"][:1] == "S" else row["table"]]
    if row.get("row"):
        bits.append("row %s" % row["row"])
    if row.get("column"):
        bits.append("column %s" % row["column"])
    return ", ".join(bits)


def _show(value, decimals):
    return ("%." + str(max(decimals, 0)) + "f") % value


def build(root, checks, synthetic):
    """``(checks, summary)`` for the published results (see module doc)."""
    numbers = load_numbers(root)
    crosswalk = load_crosswalk(root)
    observed = {c.id: c.observed for c in checks if c.observed is not None}
    out, bindings = [], []
    by_table = {}
    for nid in sorted(numbers):
        num, row = numbers[nid]
        table = by_table.setdefault(row["table"], {"numbers": 0, "bound": 0, "verified": 0, "failed": 0,
                                                   "skipped": 0})
        table["numbers"] += 1
        rule, key = results.rule_for(nid)
        if rule is None:
            bindings.append({"number": nid, "table": row["table"], "bound": False,
                             "reason": results.unbound_reason(nid)})
            continue
        table["bound"] += 1
        claim, why = results.resolve(rule, key, crosswalk.rows, observed)
        value = None if claim is None else results.claim_value(rule, claim, observed)
        entry = {"number": nid, "table": row["table"], "bound": True, "claim": claim, "scale": rule.scale,
                 "published": row["text"], "decimals": num.decimals, "recomputed": value}
        cid = "published:" + nid
        where = _where(row)
        if claim is None:
            status, reason = "skip", "%s: %s (%s)" % (where, why, crosswalk.notes.get((rule.namespace, key), ""))
        elif value is None:
            status, reason = "skip", "%s: claim %s was not computed in this run" % (where, claim)
        elif synthetic:
            status = "skip"
            reason = "%s: %s (published %s; the stand-in's %s = %s)" % (where, SYNTHETIC, row["text"], claim,
                                                                     _show(value, num.decimals + 2))
        else:
            exact = Fraction(value)
            ok, tie = num.shows(exact), num.at_tie(exact)
            status = "pass" if ok or tie else "fail"
            reason = "%s: published %s, recomputed %s (claim %s%s)%s" % (
                where, row["text"], _show(value, num.decimals + 2), claim,
                "" if rule.scale == 1 else ", x %s" % rule.scale,
                "; a rounding tie: the value sits on the edge of the published number's display interval"
                if tie and not ok else "")
        table[{"pass": "verified", "fail": "failed", "skip": "skipped"}[status]] += 1
        if status == "skip":
            kind = "skipped_blocked" if claim is None else "skipped_not_computed" if value is None else \
                "skipped_synthetic"
            table[kind] = table.get(kind, 0) + 1
        entry["status"] = status
        bindings.append(entry)
        cause = None
        if status == "skip":
            cause = "blocked configurations" if claim is None and "blocked" in why else (
                SYNTHETIC if synthetic and value is not None else None)
        out.append(Check(cid, "published", status, reason, cause=cause))
    for b in crosswalk.blocked:
        out.append(Check("published.config:" + b["id"], "published", "skip",
                         "configuration %s: blocked on this instrument: %s" % (b["id"], b["reason"]),
                         cause="blocked configurations"))
    for t in crosswalk.table2:
        unplayed = t["paper_runs"] - len(t["stand_in_systems"])
        if unplayed > 0:
            out.append(Check("published.table2:" + t["block"], "published", "skip",
                             "Table 2 block %s: %d of the paper's %d runs have no stand-in run: %s" % (
                                 t["block"], unplayed, t["paper_runs"], t["reason_unplayed"]),
                             cause="blocked configurations"))
    summary = {"numbers": len(numbers), "bound": sum(t["bound"] for t in by_table.values()),
               "verified": sum(t["verified"] for t in by_table.values()),
               "failed": sum(t["failed"] for t in by_table.values()),
               "skipped": sum(t["skipped"] for t in by_table.values()),
               "skipped_synthetic": sum(t.get("skipped_synthetic", 0) for t in by_table.values()),
               "skipped_blocked": sum(t.get("skipped_blocked", 0) for t in by_table.values()),
               "skipped_not_computed": sum(t.get("skipped_not_computed", 0) for t in by_table.values()),
               "synthetic": synthetic, "by_table": {k: by_table[k] for k in sorted(by_table)},
               "unbound_by_reason": _by_reason(bindings)}
    return out, {"summary": summary, "bindings": bindings}


def _by_reason(bindings):
    out = {}
    for b in bindings:
        if not b["bound"]:
            out[b["reason"]] = out.get(b["reason"], 0) + 1
    return {k: out[k] for k in sorted(out)}
