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


def _stats_file(inst):
    """The released stats.json must equal Table 1 recomputed from the released records."""
    obj = read_json(inst.path(layout.STATS), layout.STATS)
    rows = obj.get("table1")
    if not isinstance(rows, list):
        raise InputError(layout.STATS, "must be a list", field="table1")
    stats = table1(inst.queries(), inst.corpus(), inst.qrels(), inst.inventory())
    wrong = []
    released = {}
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("statistic"), str) or "stand_in" not in row:
            raise InputError(layout.STATS, "must be {statistic, stand_in, ...}", field="table1[%d]" % i)
        released[row["statistic"]] = row["stand_in"]
    for key in sorted(set(stats) | set(released)):
        if released.get(key, "absent") != stats.get(key, "absent"):
            wrong.append("%s: file %r, recomputed %r" % (key, released.get(key, "absent"), stats.get(key, "absent")))
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
