"""Paper level: the audit of the paper's published numbers (docs/paper-audit.md).

Reads only ``reference_metrics/paper/numbers.json`` (the transcription); the
verdict of every relation and the status of every number are frozen claims,
so the audit itself is reproduced and any change to the transcription or
the checker shows up as a fail.  An inconsistency *in the paper* is a
finding the audit reports (status ``fail`` of that relation), not a failure
of the harness.
"""

import re

from ..core import layout
from ..core.claim_ids import (
    CROSSWALK,
    CROSSWALK_KIND,
    PAPER_BINDINGS,
    PAPER_CROSSWALK,
    PAPER_NUMBER,
    PAPER_RELATION,
    PAPER_SUMMARY,
)
from ..paperaudit import results as result_rules
from ..paperaudit import roles
from ..paperaudit.consistency import NUMBERS, audit, load_numbers
from ..paperaudit.crosswalk import completeness, unknown_ids
from ..paperaudit.crosswalk import load as load_crosswalk
from .base import Analysis, Unit, Value

SOURCE = "paper audit (reference_metrics/paper/numbers.json)"


def verdict_text(row):
    return row["status"] + (" (boundary)" if row["boundary"] else "")


def result(inst):
    return inst.memo("paper:audit", lambda: audit(load_numbers(inst.root)))


def _values(inst):
    res = result(inst)
    out = []
    for row in res.relations:
        out.append(Value(PAPER_RELATION(relation=row["id"]), verdict_text(row), source=SOURCE, detail=row["detail"]))
    for nid, row in res.numbers.items():
        out.append(Value(PAPER_NUMBER(number=nid), row["status"], source=SOURCE, detail=row["reason"]))
    rc, nc = res.counts("relations"), res.counts("numbers")
    for status in ("pass", "fail", "skip"):
        out.append(Value(PAPER_SUMMARY("relations_" + status), rc[status], source=SOURCE))
        out.append(Value(PAPER_SUMMARY("numbers_" + status), nc[status], source=SOURCE))
    out.append(Value(PAPER_SUMMARY("numbers"), len(res.numbers), source=SOURCE))
    out.append(Value(PAPER_SUMMARY("numbers_determined"), sum(1 for r in res.numbers.values() if r["determined"]),
                     source=SOURCE))
    return out


CROSSWALK_SOURCE = "the crosswalk (data/crosswalk.json) against Table 2 and the systems"


def _known_ids(inst):
    """Every id a crosswalk row may name: systems, controlled blocks and SourceShift contrast /
    direction ids of both releases' systems.json."""
    ids = set()
    for part in (inst.release(layout.CROSSPAGE), inst.release(layout.SOURCESHIFT)):
        if not part.exists(part.SYSTEMS):
            continue
        systems, lists = part.systems()
        ids.update(systems)
        ids.update(c["block"] for c in lists.contrasts)
        ids.update(c["id"] for c in lists.source_shift_contrasts + lists.directions)
    return ids


def _crosswalk_values(inst):
    """The crosswalk against the transcription (Table 2) and the bound share by table."""
    cw = load_crosswalk(inst.root)
    numbers = {nid: float(num.value) for nid, (num, _) in load_numbers(inst.root).items()}
    problems = completeness(cw, numbers)
    out = [Value(PAPER_CROSSWALK("problems"), len(problems), source=CROSSWALK_SOURCE, detail="; ".join(problems[:4])),
           Value(PAPER_CROSSWALK("table2_blocks"), len(cw.table2), source=CROSSWALK_SOURCE),
           Value(PAPER_CROSSWALK("table2_runs"), sum(t["paper_runs"] for t in cw.table2), source=CROSSWALK_SOURCE)]
    bound = {}
    for nid, (_num, row) in load_numbers(inst.root).items():
        b = bound.setdefault(result_rules.place_key(nid, row["table"]), [0, 0])
        b[0] += 1
        b[1] += result_rules.rule_for(nid)[0] is not None
    for table in sorted(bound):
        out += [Value(PAPER_BINDINGS(location=table, statistic="numbers"), bound[table][0], source=SOURCE),
                Value(PAPER_BINDINGS(location=table, statistic="bound"), bound[table][1], source=SOURCE)]
    return out


def _system_classes(inst):
    """``({system id: (block, operation)}, {namespace: {contrast id: (base, [variants])}})`` of both releases'
    systems.json, for the crosswalk's semantic check (:func:`nclue.paperaudit.roles.mismatches`)."""
    systems, contrasts = {}, {"block": {}, "direction": {}, "ss_contrast": {}}
    for part in (inst.release(layout.CROSSPAGE), inst.release(layout.SOURCESHIFT)):
        if not part.exists(part.SYSTEMS):
            continue
        found, lists = part.systems()
        systems.update({sid: (s.block, s.operation) for sid, s in found.items()})
        for c in lists.contrasts:
            contrasts["block"][c["block"]] = (c["base"], list(c["variants"]))
        for ns, listed in (("direction", lists.directions), ("ss_contrast", lists.source_shift_contrasts)):
            for c in listed:
                contrasts[ns][c["id"]] = (c["base"], [c["variant"]])
    return systems, contrasts


_ROW = re.compile(r"^row (\S+ / \S+?)(?::| plays)")


def _named(messages, shown=4):
    """A crosswalk check's detail: the file a reader must open and the rows at fault first (a report cuts a long
    reason), then the messages.

    >>> print(_named(["row block / f plays x", "row system / y: no such row"]))
    data/crosswalk.json (row block / f; row system / y): row block / f plays x; row system / y: no such row
    >>> print(_named(["unknown id 'z'"]))
    data/crosswalk.json: unknown id 'z'
    """
    if not messages:
        return ""
    rows = []
    for message in messages:
        found = _ROW.match(message)
        if found and found.group(1) not in rows:
            rows.append(found.group(1))
    where = "%s (%s)" % (layout.CROSSWALK, "; ".join("row " + r for r in rows)) if rows else layout.CROSSWALK
    return "%s: %s" % (where, "; ".join(messages[:shown]))


def _release_crosswalk_values(inst):
    """The released crosswalk against the instrument: every id it names exists; every row plays a run of the
    paper configuration's Table 2 block and operation class, every contrast row the paper's base and variant
    (:mod:`nclue.paperaudit.roles`); counts by namespace."""
    cw = load_crosswalk(inst.root)
    problems = unknown_ids(cw, _known_ids(inst))
    classes = _system_classes(inst)
    semantic = roles.mismatches(cw.rows, *classes) + roles.table2_mismatches(cw.table2, classes[0])
    out = [Value(CROSSWALK("unknown_ids"), len(problems), source=CROSSWALK_SOURCE, detail=_named(problems)),
           Value(CROSSWALK("role_mismatches"), len(semantic), source=CROSSWALK_SOURCE + " (the paper's roles)",
                 detail=_named(semantic)),
           Value(CROSSWALK("blocked_configurations"), len(cw.blocked), source=CROSSWALK_SOURCE)]
    for ns in sorted(cw.rows):
        rows = cw.rows[ns]
        out += [Value(CROSSWALK_KIND(kind=ns, statistic="played"), sum(1 for v in rows.values() if v is not None),
                      source=CROSSWALK_SOURCE),
                Value(CROSSWALK_KIND(kind=ns, statistic="blocked"), sum(1 for v in rows.values() if v is None),
                      source=CROSSWALK_SOURCE)]
    return out


def _crosswalk_units(inst):
    if not inst.exists(layout.CROSSWALK):
        return []
    return [Unit("crosswalk", [layout.CROSSWALK, layout.SYSTEMS, layout.V2_SYSTEMS],
                 lambda: _release_crosswalk_values(inst))]


def _units(inst):
    units = [Unit("audit", [NUMBERS], lambda: _values(inst))]
    if inst.exists(layout.CROSSWALK):
        units.append(Unit("crosswalk", [NUMBERS, layout.CROSSWALK], lambda: _crosswalk_values(inst)))
    return units


ANALYSES = [Analysis(PAPER_SUMMARY.analysis, "paper", SOURCE, _units),
            Analysis(CROSSWALK.analysis, "derivation", CROSSWALK_SOURCE, _crosswalk_units)]
