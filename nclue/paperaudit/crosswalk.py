"""The released crosswalk ``data/crosswalk.json``: its loader and completeness check
(docs/paper-audit.md#the-crosswalk).  The stand-in's own table is declared in
:mod:`nclue.builder.crosswalk_writer`; the harness reads only the released file.
"""

from typing import NamedTuple, Optional

from ..core import layout
from ..core.errors import InputError
from ..core.jsonio import Row, read_json

NAMESPACES = ("system", "original", "block", "direction", "ss_contrast", "mask", "page_run", "paraphrase")
TABLE2_TOTAL = "T2.total"


class Crosswalk(NamedTuple):
    table2: tuple        # ({block, paper_runs, stand_in_systems, reason_unplayed}, ...)
    rows: dict           # namespace -> {paper key: instrument id or None}
    notes: dict          # (namespace, paper key) -> note (the reason when blocked)
    blocked: tuple       # ({id, reason}, ...)
    synthetic: Optional[bool]


def load(root):
    rel = layout.CROSSWALK
    obj = read_json(layout.abspath(root, rel), rel)
    top = Row(obj, rel, None)
    table2 = []
    for i, entry in enumerate(top.list("table2")):
        if not isinstance(entry, dict):
            raise InputError(rel, "must be an object", field="table2[%d]" % i)
        row = Row(entry, rel, None)
        try:
            systems = row.list("stand_in_systems")
            if not all(isinstance(s, str) for s in systems):
                raise row.error("stand_in_systems", "must be a list of system ids")
            table2.append({"block": row.str("block"), "paper_runs": row.int("paper_runs", 0, 10 ** 6),
                           "stand_in_systems": tuple(systems), "reason_unplayed": row.str("reason_unplayed")})
        except InputError as exc:
            raise InputError(rel, exc.message, field="table2[%d].%s" % (i, exc.field)) from exc
    rows, notes = {ns: {} for ns in NAMESPACES}, {}
    for i, entry in enumerate(top.list("rows")):
        if not isinstance(entry, dict):
            raise InputError(rel, "must be an object", field="rows[%d]" % i)
        row = Row(entry, rel, None)
        try:
            ns = row.str("namespace", choices=NAMESPACES)
            key = row.str("paper")
            sid = row.get("stand_in")
            if sid is not None and not isinstance(sid, str):
                raise row.error("stand_in", "must be a system id or null")
            note = row.str("note")
            if sid is None and not note.strip():
                raise row.error("note", "a blocked row must say why")
        except InputError as exc:
            raise InputError(rel, exc.message, field="rows[%d].%s" % (i, exc.field)) from exc
        if key in rows[ns]:
            raise InputError(rel, "row %s / %s listed twice" % (ns, key), field="rows[%d].paper" % i)
        rows[ns][key] = sid
        notes[(ns, key)] = note
    blocked = []
    for i, entry in enumerate(top.list("blocked")):
        row = Row(entry, rel, None) if isinstance(entry, dict) else None
        if row is None:
            raise InputError(rel, "must be an object", field="blocked[%d]" % i)
        try:
            blocked.append({"id": row.str("id"), "reason": row.str("reason")})
        except InputError as exc:
            raise InputError(rel, exc.message, field="blocked[%d].%s" % (i, exc.field)) from exc
    synthetic = obj.get("synthetic")
    return Crosswalk(tuple(table2), rows, notes, tuple(blocked), synthetic if isinstance(synthetic, bool) else None)


def unknown_ids(crosswalk, known_ids):
    """Ids the crosswalk names that the instrument does not have (``known_ids``: system, block and
    contrast ids of its systems.json files), as messages."""
    problems = []
    for t in crosswalk.table2:
        unknown = [s for s in t["stand_in_systems"] if s not in known_ids]
        if unknown:
            problems.append("Table 2 block %s names unknown system %s" % (t["block"], unknown[0]))
    for ns in NAMESPACES:
        for key, sid in sorted(crosswalk.rows[ns].items()):
            if sid is not None and sid not in known_ids:
                problems.append("row %s / %s names unknown id %s" % (ns, key, sid))
    return problems


def completeness(crosswalk, numbers):
    """Problems of the crosswalk against the transcribed paper: every Table 2 block with its run count
    (``T2.<block>``) and their total (``T2.total``).  Returns a list of messages (empty: complete)."""
    problems = []
    want = {nid.split(".", 1)[1]: num for nid, num in numbers.items()
            if nid.startswith("T2.") and nid not in (TABLE2_TOTAL, "T2.fair", "T2.nonfair")}
    have = {t["block"]: t for t in crosswalk.table2}
    for block in sorted(set(want) - set(have)):
        problems.append("Table 2 block %s (%g runs) is not in the crosswalk" % (block, want[block]))
    for block in sorted(set(have) - set(want)):
        problems.append("crosswalk block %s is not a block of Table 2" % block)
    for block in sorted(set(want) & set(have)):
        if have[block]["paper_runs"] != want[block]:
            problems.append("Table 2 block %s: the paper reports %g runs, the crosswalk %d" % (
                block, want[block], have[block]["paper_runs"]))
    total = numbers.get(TABLE2_TOTAL)
    if total is not None and sum(t["paper_runs"] for t in crosswalk.table2) != total:
        problems.append("the crosswalk's Table 2 runs sum to %d, the paper's total is %g" % (
            sum(t["paper_runs"] for t in crosswalk.table2), total))
    return problems
