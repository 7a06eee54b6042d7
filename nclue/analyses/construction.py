"""Construction level: the independent verifier and Table 1 re-derived (paper 3.2)."""

from ..core import layout
from ..core.errors import InputError
from ..core.jsonio import read_json
from ..core.structure import table1
from ..core.verify import verify
from .base import Analysis, Unit, Value

SOURCE = "paper section 3.2 and Table 1; supplement 1.1"
CORE = [layout.CORPUS, layout.CONDITIONS, layout.INVENTORY, layout.QUERIES, layout.QRELS]


def _core(inst):
    return [p for p in CORE if p != layout.CONDITIONS or inst.exists(layout.CONDITIONS)]


def _verifier(inst):
    diffs = verify(inst.queries(), inst.inventory(), inst.qrels())
    by_kind = {}
    for d in diffs:
        by_kind[d.kind] = by_kind.get(d.kind, 0) + 1
    detail = "; ".join(str(d) for d in diffs[:8]) + (" ... (%d in all)" % len(diffs) if len(diffs) > 8 else "")
    out = [Value("v1.construction.rederived_qrel_differences", len(diffs), source=SOURCE, detail=detail)]
    for kind in ("missing qrel", "extra qrel", "wrong grade", "gold fails gate", "query without gold"):
        cnt = by_kind.get(kind, 0)
        rows = "; ".join(str(d) for d in diffs if d.kind == kind)[:600]
        out.append(Value("v1.construction.%s" % kind.replace(" ", "_"), cnt, source=SOURCE, detail=rows))
    return out


def _table1(inst):
    stats = table1(inst.queries(), inst.corpus(), inst.qrels(), inst.inventory())
    return [Value("v1.table1.%s" % key, stats[key], source="Table 1 (stand-in)") for key in sorted(stats)]


def stats_file_disagreements(inst, rel, key, stats):
    """Rows of a released stats file (``{statistic, stand_in, paper?}`` under ``key``) whose ``stand_in``
    value is not the recomputed ``stats[statistic]`` (and statistics missing from either side)."""
    rows = read_json(inst.path(rel), rel).get(key)
    if not isinstance(rows, list):
        raise InputError(rel, "must be a list", field=key)
    wrong = []
    released = {}
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("statistic"), str) or "stand_in" not in row:
            raise InputError(rel, "must be {statistic, stand_in, ...}", field="%s[%d]" % (key, i))
        if row["statistic"] in released:
            raise InputError(rel, "statistic %r listed twice" % row["statistic"], field="%s[%d]" % (key, i))
        released[row["statistic"]] = row["stand_in"]
    for name in sorted(set(stats) | set(released)):
        if released.get(name, "absent") != stats.get(name, "absent"):
            wrong.append("%s: file %r, recomputed %r" % (name, released.get(name, "absent"), stats.get(name, "absent")))
    return wrong


def _stats_file(inst):
    """The released stats.json must equal Table 1 recomputed from the released records."""
    stats = table1(inst.queries(), inst.corpus(), inst.qrels(), inst.inventory())
    wrong = stats_file_disagreements(inst, layout.STATS, "table1", stats)
    return [Value("v1.construction.stats_file_disagreements", len(wrong), source="data/v1/stats.json",
                  detail="; ".join(wrong[:6]))]


def _units(inst):
    core = _core(inst)
    return [
        Unit("verifier", core, lambda: _verifier(inst)),
        Unit("table1", core, lambda: _table1(inst)),
        Unit("stats-file", core + [layout.STATS], lambda: _stats_file(inst)),
    ]


ANALYSES = [Analysis("v1.construction", "construction", SOURCE, _units)]
