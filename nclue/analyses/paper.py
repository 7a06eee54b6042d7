"""Paper level: the audit of the paper's published numbers (docs/paper-audit.md).

Reads only ``reference_metrics/paper/numbers.json`` (the transcription); the
verdict of every relation and the status of every number are frozen claims,
so the audit itself is reproduced and any change to the transcription or
the checker shows up as a fail.  An inconsistency *in the paper* is a
finding the audit reports (status ``fail`` of that relation), not a failure
of the harness.
"""

from ..paperaudit.check import NUMBERS, audit, load_numbers
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
        out.append(Value("paper.relation.%s" % row["id"], verdict_text(row), source=SOURCE, detail=row["detail"]))
    for nid, row in res.numbers.items():
        out.append(Value("paper.number.%s" % nid, row["status"], source=SOURCE, detail=row["reason"]))
    rc, nc = res.counts("relations"), res.counts("numbers")
    for status in ("pass", "fail", "skip"):
        out.append(Value("paper.summary.relations_%s" % status, rc[status], source=SOURCE))
        out.append(Value("paper.summary.numbers_%s" % status, nc[status], source=SOURCE))
    out.append(Value("paper.summary.numbers", len(res.numbers), source=SOURCE))
    out.append(Value("paper.summary.numbers_determined", sum(1 for r in res.numbers.values() if r["determined"]), source=SOURCE))
    return out


ANALYSES = [Analysis("paper.audit", "paper", SOURCE, lambda inst: [Unit("audit", [NUMBERS], lambda: _values(inst))])]
