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
from ..paperaudit.consistency import load_numbers
from ..paperaudit.crosswalk import load as load_crosswalk
from .checks import Check

SYNTHETIC = "synthetic stand-in: published value applies to the original release"


def table_label(nid, row):
    """How a reviewer names the place of a number (:func:`nclue.paperaudit.results.place`)."""
    return results.place(nid, row["table"])


def paper_order(place):
    """A sort key of a place (:func:`table_label`) giving the paper's order: the abstract, the main tables,
    the supplementary tables, then the prose sections (numerically).

    >>> sorted(["section 4.3", "Table S14", "Table 5", "Table S2b", "the abstract", "section 10.2.1"], key=paper_order)
    ['the abstract', 'Table 5', 'Table S2b', 'Table S14', 'section 4.3', 'section 10.2.1']
    """
    if place == "the abstract":
        return (0, ())
    kind, _, name = place.partition(" ")
    if kind == "section":
        return (3, tuple(int(p) if p.isdigit() else 0 for p in name.split(".")))
    if name.startswith("S"):
        digits = "".join(ch for ch in name[1:] if ch.isdigit())
        return (2, (int(digits) if digits else 0, name))
    return (1, (int(name) if name.isdigit() else 0, name))


def _cell(nid, row):
    """Row and column of a number; for a transcription without them, the id's segments."""
    parts = nid.split(".")
    row_name = row.get("row") or (parts[1] if len(parts) > 2 else None)
    column = row.get("column") or (parts[-1] if len(parts) > 2 else None)
    return row_name, column


def _where(nid, row):
    bits = [table_label(nid, row)]
    row_name, column = _cell(nid, row)
    if row_name:
        bits.append("row %s" % row_name)
    if column:
        bits.append("column %s" % column)
    return ", ".join(bits)


def _show(value, decimals):
    return ("%." + str(max(decimals, 0)) + "f") % value


P_FLOOR = Fraction(1, 10001)       # (1 + 0) / (10,000 + 1): the smallest p the 10,000-draw tests can give


def number_kind(rule, num, row):
    """What a bound number is, for the headline: ``design`` (a design count or a size: holds by the
    instrument's construction), ``floor`` (a p-value at the randomization tests' floor, 1/(B+1)), ``zero``
    (a published zero) or ``result``."""
    if rule.design:
        return "design"
    if row.get("kind") == "p" and num.shows(P_FLOOR):
        return "floor"
    if num.value == 0:
        return "zero"
    return "result"


def _tally_computed(claim, observed):
    """True when a claim's tally ran in this run: some claim of its family (the id without its last two
    segments: ``audit.policy.transition.`` for ``audit.policy.transition.2_to_1.partial``) was computed. An
    absent cell of a computed tally is zero; of a tally that did not run (its level not requested), unknown."""
    family = claim.rsplit(".", 2)[0] + "."
    return any(cid.startswith(family) for cid in observed)


NOT_COMPUTED = "not computed in this run"
KINDS = ("result", "design", "floor", "zero")


def build(root, checks, synthetic):
    """``(checks, summary)`` for the published results (see module doc)."""
    numbers = load_numbers(root)
    crosswalk = load_crosswalk(root)
    observed = {c.id: c.observed for c in checks if c.observed is not None}
    out, bindings = [], []
    by_table = {}
    verified = {k: 0 for k in KINDS}
    for nid in sorted(numbers):
        num, row = numbers[nid]
        table = by_table.setdefault(table_label(nid, row), {"numbers": 0, "bound": 0, "verified": 0, "failed": 0,
                                                            "skipped": 0})
        table["numbers"] += 1
        rule, key = results.rule_for(nid)
        if rule is None:
            bindings.append({"number": nid, "table": table_label(nid, row), "bound": False,
                             "reason": results.unbound_reason(nid)})
            continue
        table["bound"] += 1
        claim, why = results.resolve(rule, key, crosswalk.rows, observed)
        value = None
        if claim is not None and (not rule.absent_zero or claim in observed or _tally_computed(claim, observed)):
            value = results.claim_value(rule, claim, observed)
        kind = number_kind(rule, num, row)
        entry = {"number": nid, "table": table_label(nid, row), "bound": True, "claim": claim, "scale": rule.scale,
                 "published": row["text"], "decimals": num.decimals, "recomputed": value, "kind": kind,
                 "note": rule.note}
        cid = "published:" + nid
        where = _where(nid, row)
        if claim is None:
            status, reason = "skip", "%s: %s (%s)" % (where, why, crosswalk.notes.get((rule.namespace, key), ""))
        elif value is None:
            status, reason = "skip", "%s: claim %s was %s" % (where, claim, NOT_COMPUTED)
        elif synthetic:
            status = "skip"
            played = " (the stand-in system that plays the role, not the paper's model)" if rule.namespace else ""
            reason = "%s: %s (published %s; the stand-in's own %s = %s%s)" % (
                where, SYNTHETIC, row["text"], claim, _show(value, num.decimals + 2), played)
        else:
            exact = Fraction(value)
            ok, tie = num.shows(exact), num.at_tie(exact)
            status = "pass" if ok or tie else "fail"
            reason = "%s: published %s, recomputed %s (%s unrounded; claim %s%s)%s" % (
                where, row["text"], _show(value, num.decimals), _show(value, num.decimals + 4), claim,
                "" if rule.scale == 1 else ", x %s" % rule.scale,
                "; a rounding tie: the value sits on the edge of the published number's display interval"
                if tie and not ok else "")
        table[{"pass": "verified", "fail": "failed", "skip": "skipped"}[status]] += 1
        if status == "pass":
            verified[kind] += 1
        if status == "skip":
            skipped = "skipped_blocked" if claim is None else "skipped_not_computed" if value is None else \
                "skipped_synthetic"
            table[skipped] = table.get(skipped, 0) + 1
        entry["status"] = status
        bindings.append(entry)
        cause = None
        if status == "skip":
            cause = "blocked configurations" if claim is None and "blocked" in why else (
                SYNTHETIC if synthetic and value is not None else NOT_COMPUTED if value is None else None)
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
               "verified_results": verified["result"],
               "verified_by_construction": verified["design"] + verified["floor"] + verified["zero"],
               "verified_by_kind": verified,
               "bound_by_kind": {k: sum(1 for b in bindings if b.get("kind") == k) for k in KINDS},
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
            reason = b["reason"] or "(no declared reason)"
            out[reason] = out.get(reason, 0) + 1
    return {k: out[k] for k in sorted(out)}
