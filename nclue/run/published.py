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

import math
import os
from fractions import Fraction
from json import dumps as json_quote

from ..core import claim_ids, layout
from ..core.errors import NclueError
from ..paperaudit import assignments, places, results
from ..paperaudit.consistency import load_numbers
from ..paperaudit.crosswalk import load as load_crosswalk
from ..stats import montecarlo, protocol
from .checks import Check

SYNTHETIC = "synthetic stand-in: published value applies to the original release"


def table_label(nid, row):
    """How a reviewer names the place of a number (:func:`nclue.paperaudit.results.place`)."""
    return results.place(nid, row["table"])


def paper_order(place):
    """A sort key of a place (:func:`table_label`) giving the paper's order: the abstract, the main tables (a
    caption with its table), the supplementary tables, the main paper's prose sections, then the supplement's
    (numerically).

    >>> sorted(["section 4.3", "Table S14", "Table 5", "Table S2b", "the abstract", "supplement section 10.2.1",
    ...         "Table 1 caption", "supplement section 8", "supplement section 2's capability-matrix table"],
    ...        key=paper_order)  # doctest: +NORMALIZE_WHITESPACE
    ['the abstract', 'Table 1 caption', 'Table 5', 'Table S2b', 'Table S14', 'section 4.3',
     "supplement section 2's capability-matrix table", 'supplement section 8', 'supplement section 10.2.1']
    """
    if place == "the abstract":
        return (0, ())
    supplement = place.startswith("supplement ")
    kind, _, name = place[len("supplement "):].partition(" ") if supplement else place.partition(" ")
    if kind == "section":
        number = name.split(" ")[0].split("'")[0]
        return (4 if supplement else 3, tuple(int(p) if p.isdigit() else 0 for p in number.split(".")))
    name = name.replace(" caption", "")
    if name.startswith("S"):
        digits = "".join(ch for ch in name[1:] if ch.isdigit())
        return (2, (int(digits) if digits else 0, name))
    return (1, (int(name) if name.isdigit() else 0, name))


STATEMENT_CHARS = 70


def _statement(row):
    """The opening of the sentence a prose number is printed in, as a reviewer finds it in the paper."""
    quote = " ".join(str(row.get("quote") or "").split())
    return quote if len(quote) <= STATEMENT_CHARS else quote[:STATEMENT_CHARS].rsplit(" ", 1)[0] + " ..."


def _where(nid, row):
    """Where a number is printed: table, row and column; for prose, the section and the statement."""
    place = table_label(nid, row)
    if nid.startswith("X."):
        statement = _statement(row)
        return "%s, %s%s" % (place, "the %s of " % row["column"] if row.get("column") else "", (
            "the statement %s" % json_quote(statement)) if statement else "number %s" % nid)
    row_label, column, part = places.cell(nid, row)
    shown_row = row_label if row_label.startswith("(") else json_quote(row_label)    # an unlabelled row, described
    return "%s, row %s, column %s%s" % (place, shown_row, json_quote(column),
                                       " (%s)" % part if part else "")


def _show(value, decimals):
    return ("%." + str(max(decimals, 0)) + "f") % value


def number_kind(rule, num, row, estimate=None):
    """What a bound number is, for the headline (docs/paper-audit.md#kinds-of-published-numbers): ``design`` (a
    design count or a size: holds by the instrument's construction), ``monte_carlo`` (a resampled estimate: its
    claim declares a :class:`nclue.stats.montecarlo.Estimate`), ``floor`` (a Monte Carlo p-value published at
    the floor ``1 / (B + 1)`` of the paper's stated draws ``B``: a data result all the same) or ``result`` (an
    exact value; a measured zero is a result)."""
    if rule.design:
        return "design"
    if isinstance(estimate, montecarlo.Estimate):
        if estimate.statistic == "p" and num.shows(Fraction(1, estimate.paper_draws + 1)):
            return "floor"
        return "monte_carlo"
    return "result"


def _tally_computed(claim, observed):
    """True when a claim's tally ran in this run: the analysis whose templates build the claim
    (:func:`nclue.core.claim_ids.analysis_of`) computed some claim.  An absent cell of a computed tally is zero;
    of a tally that did not run (its level not requested), unknown."""
    analysis = claim_ids.analysis_of(claim)
    return analysis is not None and any(claim_ids.analysis_of(cid) == analysis for cid in observed)


NOT_COMPUTED = "not computed in this run"
KINDS = ("result", "monte_carlo", "floor", "design")
MONTE_CARLO_KINDS = ("monte_carlo", "floor")


def build(root, checks, synthetic, recomputed=None):
    """``(checks, summary)`` for the published results (see module doc): every transcribed number bound
    (:func:`_bind`) and judged (:func:`_verdict`), the blocked configurations and unplayed Table 2 runs,
    and the tallies (:func:`_summary`).  ``recomputed``: ``{claim id: (value, estimate JSON)}`` computed again
    with more draws (``reproduce --draws-multiplier``), used for the Monte Carlo numbers in place of the run's."""
    numbers = load_numbers(root)
    crosswalk = load_crosswalk(root)
    observed = {c.id: c.observed for c in checks if c.observed is not None}
    estimates = {c.id: c.estimate for c in checks if c.estimate is not None}
    for cid, (value, estimate) in sorted((recomputed or {}).items()):
        observed[cid], estimates[cid] = value, estimate
    out, bindings, by_table = [], [], {}
    assigned = _assigned(numbers, observed)
    position = {nid: i for i, nid in enumerate(numbers)}       # the transcription's order, the paper's
    frozen = FrozenEstimates(root)
    for nid in sorted(numbers):
        num, row = numbers[nid]
        table = by_table.setdefault(table_label(nid, row), {"numbers": 0, "bound": 0, "verified": 0, "failed": 0,
                                                            "skipped": 0})
        table["numbers"] += 1
        entry, check = _bind(nid, num, row, crosswalk, observed, estimates, synthetic, assigned.get(nid),
                             frozen)
        entry["position"] = position[nid]
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


class FrozenEstimates:
    """``{claim id: estimate JSON}`` read from the frozen claims, one claim file at a time as asked: what a claim
    this run did not compute declares itself to be (a Monte Carlo estimate or exact)."""

    def __init__(self, root):
        self.root, self.files = root, {}

    def get(self, claim):
        analysis = claim_ids.analysis_of(claim)
        if analysis is None:
            return None
        if analysis not in self.files:
            from .claims import load_claim_file
            rel = layout.claim_file(analysis)
            try:
                document = load_claim_file(self.root, rel) if os.path.isfile(layout.abspath(self.root, rel)) else {}
            except NclueError:
                document = {}      # a damaged claim file fails in its own check; here it declares nothing
            self.files[analysis] = {c["id"]: c.get("estimate") for c in document.get("claims", ())}
        return self.files[analysis].get(claim)


def _declared(rule, claim, estimates):
    """The claim's Monte Carlo or tie-order declaration in the paper's unit (None for an exact claim)."""
    obj = estimates.get(claim) if claim is not None else None
    if obj is None:
        return None
    return montecarlo.from_json(obj).scaled(results.scale_value(1, rule.scale))


def _assigned(numbers, observed):
    """``{number id: (claim, note)}`` of the numbers whose order the paper leaves open
    (:data:`nclue.paperaudit.assignments.ASSIGNMENTS`): of the assignments consistent with the paper's
    marginals, the first under which every number of the group shows its recomputed value, else the first
    consistent one, else the default order; the note names the consistent assignments and the one taken."""
    out = {}
    for group in assignments.ASSIGNMENTS:
        needed = group.numbers + (group.items,) + tuple(nid for _, nid in group.positives)
        if any(nid not in numbers for nid in needed):
            continue
        n = int(numbers[group.items][0].value)
        agreements = {}
        for nid in group.numbers:
            lo, hi = numbers[nid][0].counts(n) or (1, 0)
            agreements[nid] = range(lo, hi + 1)
        positives = {who: int(numbers[nid][0].value) for who, nid in group.positives}
        orders = assignments.consistent_assignments(group.numbers, group.pairs, agreements, positives, n)

        def shown(order, group=group):
            values = [observed.get(group.claim_of(pair)) for pair in order]
            return all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                       and numbers[nid][0].shows(Fraction(v)) for nid, v in zip(group.numbers, values))
        chosen = next((order for order in orders if shown(order)), orders[0] if orders else group.pairs)
        text = lambda order: "/".join("%s-%s" % pair for pair in order)      # noqa: E731
        note = "%s. Consistent with the marginals: %s; bound as %s" % (
            group.note, ", ".join(text(o) for o in orders) or "none", text(chosen))
        for nid, pair in zip(group.numbers, chosen):
            out[nid] = (group.claim_of(pair), note)
    return out


def _reading(rule, claim, num, observed):
    """``(claim, rule)`` of a number whose claim the paper's text leaves open between ``claim`` and
    ``rule.readings`` (docs/paper-audit.md#binding-decisions): the first reading whose recomputed value shows the
    published number, else ``claim``; the note names the readings and the one taken."""
    readings = (claim,) + tuple(rule.readings)

    def shows(cid):
        value = results.claim_value(rule, cid, observed)
        return value is not None and num.shows(Fraction(value))
    chosen = next((cid for cid in readings if shows(cid)), claim)
    return chosen, rule._replace(note="%s. Readings: %s; bound as %s" % (rule.note, ", ".join(readings), chosen))


def _bind(nid, num, row, crosswalk, observed, estimates, synthetic, assigned=None, frozen=None):
    """``(binding, check)`` of one transcribed number: unbound (check None) with its declared reason, or bound
    to a claim (through the crosswalk for a system role; ``assigned``, ``(claim, note)``, for a number of an
    assignment group, :func:`_assigned`), its recomputed value and the verdict."""
    rule, key = results.rule_for(nid)
    if rule is None:
        return {"number": nid, "table": table_label(nid, row), "bound": False,
                "reason": results.unbound_reason(nid)}, None
    claim, rule, why = _claim_of(rule, key, num, crosswalk, observed, assigned)
    value = None
    if claim is not None and (not rule.absent_zero or claim in observed or _tally_computed(claim, observed)):
        value = results.claim_value(rule, claim, observed)
    declared = _declared(rule, claim, estimates) if value is not None else None
    # a number whose claim this run did not compute keeps the kind its frozen claim declares (issue 57: --only paper)
    kind = number_kind(rule, num, row, declared if value is not None else _declared(rule, claim, frozen))
    judged = _Judged(nid, num, row, rule, claim, value, declared)
    status, reason = judged.verdict(why, crosswalk.notes.get((rule.namespace, key), ""), synthetic)
    if status == "pass":
        status, reason = _with_other_cells(status, reason, _also_bound(nid, num, row, crosswalk, observed, estimates,
                                                                       synthetic, claim))
    cause = _skip_cause(status, claim, why, value, synthetic)
    entry = {"number": nid, "table": table_label(nid, row), "bound": True, "claim": claim, "scale": rule.scale,
             "published": row["text"], "published_value": float(num.value), "decimals": num.decimals,
             "recomputed": value, "kind": kind,
             "note": rule.note, "status": status,
             # a table number's row and column as the paper prints them, each with its part (docs/paper-audit.md#places)
             "cell": None if nid.startswith("X.") else list(places.grid(nid, row))}
    entry.update(judged.entry())
    return entry, Check("published:" + nid, "published", status, reason, cause=cause)


def _claim_of(rule, key, num, crosswalk, observed, assigned):
    """``(claim, rule, why)`` of a bound number: the rule's claim through the crosswalk, or the assignment group's
    (``assigned``: ``(claim, note)``), or the reading that shows the number (:func:`_reading`); ``why`` says why
    there is none (a blocked role)."""
    claim, why = results.resolve(rule, key, crosswalk.rows, observed)
    if assigned is not None:
        claim, rule = assigned[0], rule._replace(note=assigned[1])
    if rule.readings and claim is not None:
        claim, rule = _reading(rule, claim, num, observed)
    return claim, rule, why


def _with_other_cells(status, reason, also):
    """A passing number fails when the same published number fails for another cell it is bound to."""
    for other_status, other_reason in also:
        if other_status == "fail":
            return "fail", "%s; the same published number for another cell: %s" % (reason, other_reason)
    return status, reason


def _skip_cause(status, claim, why, value, synthetic):
    """Why a skipped number skips, the bucket the headline counts it in: a blocked configuration, the synthetic
    stand-in's own value, or a claim this run did not compute."""
    if status != "skip":
        return None
    if claim is None and "blocked" in why:
        return "blocked configurations"
    return SYNTHETIC if synthetic and value is not None else NOT_COMPUTED if value is None else None


def _also_bound(nid, num, row, crosswalk, observed, estimates, synthetic, primary):
    """The verdicts ``(status, reason)`` of a number's further bindings (:func:`nclue.paperaudit.results.rules_for`
    beyond the first) whose claims this run computed: each must pass too."""
    out = []
    for rule, key in results.rules_for(nid)[1:]:
        claim, why = results.resolve(rule, key, crosswalk.rows, observed)
        if claim is None or claim == primary or claim not in observed:
            continue
        value = results.claim_value(rule, claim, observed)
        if value is None:
            continue
        judged = _Judged(nid, num, row, rule, claim, value, _declared(rule, claim, estimates))
        out.append(judged.verdict(why, "", synthetic))
    return out


MC_CONSISTENT = "consistent within Monte Carlo error"
MC_UNRESOLVED = "consistent, not resolvable at %s draws"
MC_INCONSISTENT = "inconsistent beyond Monte Carlo error"


def _draws(n):
    return "{:,}".format(n)


class _Judged:
    """One bound number's verdict (:meth:`verdict`) and what the binding records of it (:meth:`entry`): the
    display rule for an exact value, the Monte Carlo rule for an estimate (:func:`nclue.stats.montecarlo.judge`),
    the admissible tie orders for a value the paper's order leaves open."""

    def __init__(self, nid, num, row, rule, claim, value, declared):
        self.nid, self.num, self.row, self.rule, self.claim, self.value = nid, num, row, rule, claim, value
        self.declared = declared
        self.mc = None

    def verdict(self, why, note, synthetic):
        """``(status, reason)``: skip when the claim is blocked or was not computed, or on a synthetic instrument
        (whose values are its own); else the verdict of the number's kind."""
        where = _where(self.nid, self.row)
        if self.claim is None:
            return "skip", "%s: %s (%s)" % (where, why, note)
        if self.value is None:
            return "skip", "%s: claim %s was %s" % (where, self.claim, NOT_COMPUTED)
        if synthetic:
            played = " (the stand-in system that plays the role, not the paper's model)" if self.rule.namespace else ""
            est = self.declared
            extra = "" if not isinstance(est, montecarlo.Estimate) else "; a Monte Carlo estimate: SE %s at its %s " \
                "draws, %s at the paper's %s" % (_se(est.se), _draws(est.n_draws), _se(est.se_paper),
                                                 _draws(est.paper_draws))
            return "skip", "%s: %s (published %s; the stand-in's own %s = %s%s%s)" % (
                where, SYNTHETIC, self.row["text"], self.claim, _show(self.value, self.num.decimals + 2), played, extra)
        if isinstance(self.declared, montecarlo.Estimate):
            self.mc = montecarlo.judge(float(self.num.value), self.num.decimals, self.declared)
            return self._monte_carlo(where)
        if isinstance(self.declared, montecarlo.TieOrders):
            return self._tie_orders(where)
        return self._display(where)

    def _display(self, where):
        exact = Fraction(self.value)
        ok, tie = self.num.shows(exact), self.num.at_tie(exact)
        return ("pass" if ok or tie else "fail"), "%s: published %s, recomputed %s (%s unrounded; claim %s%s)%s" % (
            where, self.row["text"], _show(self.value, self.num.decimals), _show(self.value, self.num.decimals + 4),
            self.claim, "" if self.rule.scale == 1 else ", x %s" % self.rule.scale,
            "; a rounding tie: the value sits on the edge of the published number's display interval"
            if tie and not ok else "")

    def _monte_carlo(self, where):
        est, v = self.declared, self.mc
        status = "pass" if v.consistent else "fail"
        word = (MC_CONSISTENT if v.resolvable else MC_UNRESOLVED % _draws(est.paper_draws)) if v.consistent else \
            MC_INCONSISTENT
        expected = "" if est.expected == self.value and not est.exact else ", the paper's estimator at its %s draws " \
            "expects %s%s" % (_draws(est.paper_draws), _show(est.expected, self.num.decimals + 2),
                              " (from the exact p)" if est.exact else "")
        inside = "" if not v.inside else "; %s %s within the tolerance too" % (
            " and ".join("%s (%s)" % (name, _show(dict(est.alternatives)[name], self.num.decimals + 2))
                         for name in v.inside), "lies" if len(v.inside) == 1 else "lie")
        distance = "n/a" if v.distance is None else "%.2f" % v.distance
        return status, "%s: %s: published %s, recomputed %s%s; SE paper %s (%s draws), SE run %s (%s draws%s); " \
            "|difference| %s = %s SE, tolerance %s (half a display unit + %g SE; claim %s%s)%s" % (
                where, word, self.row["text"], _show(self.value, self.num.decimals + 2), expected, _se(est.se_paper),
                _draws(est.paper_draws), _se(est.se), _draws(est.n_draws), ", exact p" if est.exact else "",
                _se(v.difference), distance, _se(v.tolerance), protocol.MONTE_CARLO_Z, self.claim,
                "" if self.rule.scale == 1 else ", x %s" % self.rule.scale, inside)

    def _tie_orders(self, where):
        ties = self.declared
        matches = [x for x in ties.values if self.num.shows(Fraction(x)) or self.num.at_tie(Fraction(x))]
        orders = "%d admissible orders of the %d documents tied at rank %d (%d of them in the cut)" % (
            ties.orders, ties.tied, ties.rank, ties.slots) + ("" if ties.enumerated else
                                                             ", of which the first and last by id were computed")
        shown = ", ".join(_show(x, self.num.decimals) for x in ties.values[:8]) + (
            ", ..." if len(ties.values) > 8 else "")
        if matches:
            return "pass", "%s: published %s, recomputed %s under one admissible tie order: the paper does not " \
                "state the order, and %s give %s (claim %s, ties by document id: %s)" % (
                    where, self.row["text"], _show(matches[0], self.num.decimals), orders, shown, self.claim,
                    _show(self.value, self.num.decimals))
        return "fail", "%s: published %s matches no admissible tie order: %s give %s (claim %s)" % (
            where, self.row["text"], orders, shown, self.claim)

    def entry(self):
        """What the binding records beyond the common fields."""
        if isinstance(self.declared, montecarlo.TieOrders):
            return {"tie_orders": self.declared.as_json()}
        if not isinstance(self.declared, montecarlo.Estimate):
            return {}
        est, v = self.declared, self.mc
        out = {"monte_carlo": {"resampling": est.resampling, "statistic": est.statistic, "n_draws": est.n_draws,
                               "paper_draws": est.paper_draws, "expected": est.expected, "se_run": est.se,
                               "se_paper": est.se_paper, "exact": est.exact,
                               "alternatives": [list(a) for a in est.alternatives]}}
        if v is not None:
            out["monte_carlo"].update({
                "distance_se": None if v.distance is None else montecarlo.reported(v.distance),
                "tolerance": montecarlo.reported(v.tolerance), "alternatives_inside": list(v.inside),
                "verdict": (MC_CONSISTENT if v.resolvable else MC_UNRESOLVED % _draws(est.paper_draws))
                if v.consistent else MC_INCONSISTENT})
        return out


def _se(x):
    return "%.2g" % x if x else "0"


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
    """The tallies of the published results: bound, verified by kind (results, Monte Carlo numbers, design
    counts that hold by construction), failed and skipped (by cause), by table and the unbound by reason."""
    verified = {k: sum(1 for b in bindings if b.get("status") == "pass" and b["kind"] == k) for k in KINDS}

    def total(key):
        return sum(t.get(key, 0) for t in by_table.values())
    return {"numbers": len(numbers), "bound": total("bound"), "verified": total("verified"),
            "verified_results": verified["result"],
            "verified_by_construction": verified["design"],
            "verified_by_kind": verified,
            "bound_by_kind": {k: sum(1 for b in bindings if b.get("kind") == k) for k in KINDS},
            "monte_carlo": _monte_carlo_tally(bindings),
            "tie_ambiguous": sum(1 for b in bindings if "tie_orders" in b),
            "failed": total("failed"), "skipped": total("skipped"), "skipped_synthetic": total("skipped_synthetic"),
            "skipped_blocked": total("skipped_blocked"), "skipped_not_computed": total("skipped_not_computed"),
            "synthetic": synthetic, "by_table": {k: by_table[k] for k in sorted(by_table)},
            "unbound_by_reason": _by_reason(bindings)}


def _monte_carlo_tally(bindings):
    """The Monte Carlo numbers' tallies: bound, at a floor, judged, consistent (of them not resolvable) and
    inconsistent, with the protocol's z."""
    mc = [b for b in bindings if b.get("kind") in MONTE_CARLO_KINDS]
    verdicts = [b["monte_carlo"]["verdict"] for b in mc if "verdict" in b.get("monte_carlo", {})]
    return {"numbers": len(mc), "floors": sum(1 for b in mc if b["kind"] == "floor"), "judged": len(verdicts),
            "consistent": sum(1 for v in verdicts if v != MC_INCONSISTENT),
            "not_resolvable": sum(1 for v in verdicts if v.startswith("consistent, not")),
            "inconsistent": sum(1 for v in verdicts if v == MC_INCONSISTENT), "z": protocol.MONTE_CARLO_Z}


def _by_reason(bindings):
    out = {}
    for b in bindings:
        if not b["bound"]:
            reason = b["reason"] or "(no declared reason)"
            out[reason] = out.get(reason, 0) + 1
    return {k: out[k] for k in sorted(out)}
