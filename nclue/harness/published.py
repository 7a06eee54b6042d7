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
    """``(checks, summary)`` for the published results (see module doc): every transcribed number bound
    (:func:`_bind`) and judged (:func:`_verdict`), the blocked configurations and unplayed Table 2 runs,
    and the tallies (:func:`_summary`)."""
    numbers = load_numbers(root)
    crosswalk = load_crosswalk(root)
    observed = {c.id: c.observed for c in checks if c.observed is not None}
    out, bindings, by_table = [], [], {}
    for nid in sorted(numbers):
        num, row = numbers[nid]
        table = by_table.setdefault(table_label(nid, row), {"numbers": 0, "bound": 0, "verified": 0, "failed": 0,
                                                            "skipped": 0})
        table["numbers"] += 1
        entry, check = _bind(nid, num, row, crosswalk, observed, synthetic)
        bindings.append(entry)
        if check is None:
            continue
        table["bound"] += 1
        table[{"pass": "verified", "fail": "failed", "skip": "skipped"}[check.status]] += 1
        if check.status == "skip":
            skipped = "skipped_blocked" if entry["claim"] is None else "skipped_not_computed" if \
                entry["recomputed"] is None else "skipped_synthetic"
            table[skipped] = table.get(skipped, 0) + 1
        out.append(check)
    out += _configuration_checks(crosswalk)
    return out, {"summary": _summary(numbers, by_table, bindings, synthetic), "bindings": bindings}


def _bind(nid, num, row, crosswalk, observed, synthetic):
    """``(binding, check)`` of one transcribed number: unbound (check None) with its declared reason, or bound
    to a claim (through the crosswalk for a system role), its recomputed value and the verdict."""
    rule, key = results.rule_for(nid)
    if rule is None:
        return {"number": nid, "table": table_label(nid, row), "bound": False,
                "reason": results.unbound_reason(nid)}, None
    claim, why = results.resolve(rule, key, crosswalk.rows, observed)
    value = None
    if claim is not None and (not rule.absent_zero or claim in observed or _tally_computed(claim, observed)):
        value = results.claim_value(rule, claim, observed)
    kind = number_kind(rule, num, row)
    status, reason = _verdict(nid, num, row, rule, claim, why, value, crosswalk.notes.get((rule.namespace, key), ""),
                              synthetic)
    cause = None
    if status == "skip":
        cause = "blocked configurations" if claim is None and "blocked" in why else (
            SYNTHETIC if synthetic and value is not None else NOT_COMPUTED if value is None else None)
    entry = {"number": nid, "table": table_label(nid, row), "bound": True, "claim": claim, "scale": rule.scale,
             "published": row["text"], "decimals": num.decimals, "recomputed": value, "kind": kind,
             "note": rule.note, "status": status}
    return entry, Check("published:" + nid, "published", status, reason, cause=cause)


def _verdict(nid, num, row, rule, claim, why, value, note, synthetic):
    """``(status, reason)`` of a bound number: skip when its claim is blocked or was not computed, or on a
    synthetic instrument (whose values are its own); else pass when the recomputed value shows as the
    published number (or sits on a rounding tie), fail otherwise."""
    where = _where(nid, row)
    if claim is None:
        return "skip", "%s: %s (%s)" % (where, why, note)
    if value is None:
        return "skip", "%s: claim %s was %s" % (where, claim, NOT_COMPUTED)
    if synthetic:
        played = " (the stand-in system that plays the role, not the paper's model)" if rule.namespace else ""
        return "skip", "%s: %s (published %s; the stand-in's own %s = %s%s)" % (
            where, SYNTHETIC, row["text"], claim, _show(value, num.decimals + 2), played)
    exact = Fraction(value)
    ok, tie = num.shows(exact), num.at_tie(exact)
    return ("pass" if ok or tie else "fail"), "%s: published %s, recomputed %s (%s unrounded; claim %s%s)%s" % (
        where, row["text"], _show(value, num.decimals), _show(value, num.decimals + 4), claim,
        "" if rule.scale == 1 else ", x %s" % rule.scale,
        "; a rounding tie: the value sits on the edge of the published number's display interval"
        if tie and not ok else "")


def _configuration_checks(crosswalk):
    """One skip per configuration blocked on this instrument and per Table 2 block with unplayed runs."""
    out = []
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
    return out


def _summary(numbers, by_table, bindings, synthetic):
    """The tallies of the published results: bound, verified (results apart from numbers that hold by
    construction), failed and skipped (by cause), by table and the unbound by reason."""
    verified = {k: sum(1 for b in bindings if b.get("status") == "pass" and b["kind"] == k) for k in KINDS}

    def total(key):
        return sum(t.get(key, 0) for t in by_table.values())
    return {"numbers": len(numbers), "bound": total("bound"), "verified": total("verified"),
            "verified_results": verified["result"],
            "verified_by_construction": verified["design"] + verified["floor"] + verified["zero"],
            "verified_by_kind": verified,
            "bound_by_kind": {k: sum(1 for b in bindings if b.get("kind") == k) for k in KINDS},
            "failed": total("failed"), "skipped": total("skipped"), "skipped_synthetic": total("skipped_synthetic"),
            "skipped_blocked": total("skipped_blocked"), "skipped_not_computed": total("skipped_not_computed"),
            "synthetic": synthetic, "by_table": {k: by_table[k] for k in sorted(by_table)},
            "unbound_by_reason": _by_reason(bindings)}


def _by_reason(bindings):
    out = {}
    for b in bindings:
        if not b["bound"]:
            reason = b["reason"] or "(no declared reason)"
            out[reason] = out.get(reason, 0) + 1
    return {k: out[k] for k in sorted(out)}
