"""Reading a TREC run file (``qid Q0 docno rank score tag``) as a ranking.

Order (docs/usage.md#run-formats): trec_eval ignores the rank column and orders each
query's documents by score descending, breaking ties by docno *descending*;
that is the default here (``ties="trec"``), so numbers agree with trec_eval.
``ties="file"`` keeps the file's order instead (the released JSONL rule).
Either way the first ``depth`` documents are kept.  Malformed lines raise
:class:`~nclue.core.errors.InputError` with the line number and the column.
"""

import math

from .errors import InputError
from .jsonio import read_bytes_text
from .records import RankingRow

ORDERS = ("trec", "file")


def read_trec_run(path, where, queries, corpus, ties="trec", depth=10):
    if ties not in ORDERS:
        raise ValueError("ties must be one of %s" % (ORDERS,))
    text = read_bytes_text(path, where)
    per_query = {}
    # split on "\n" only (str.splitlines also splits on form feeds and other separators, and
    # would shift every line number after one); a CRLF line end is accepted
    for number, line in enumerate(text.split("\n"), 1):
        if line.endswith("\r"):
            line = line[:-1]
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 6:
            raise InputError(where, "expected 6 columns 'qid Q0 docno rank score tag', got %d" % len(parts), line=number)
        qid, _, docno, rank, score, _ = parts
        if qid not in queries:
            raise InputError(where, "unknown query %r" % qid, line=number, field="qid")
        if docno not in corpus:
            raise InputError(where, "unknown document %r" % docno, line=number, field="docno")
        try:
            value = float(score)
        except ValueError:
            raise InputError(where, "not a number: %r" % score, line=number, field="score")
        if not math.isfinite(value):
            raise InputError(where, "not finite: %r" % score, line=number, field="score")
        try:
            int(rank)
        except ValueError:
            raise InputError(where, "not an integer: %r" % rank, line=number, field="rank")
        rows = per_query.setdefault(qid, [])
        if any(d == docno for d, _, _ in rows):
            raise InputError(where, "document %r ranked twice for %s" % (docno, qid), line=number, field="docno")
        rows.append((docno, value, number))
    out = {}
    for qid, rows in per_query.items():
        if ties == "trec":
            rows = sorted(rows, key=lambda t: t[0], reverse=True)          # docno descending ...
            rows = sorted(rows, key=lambda t: t[1], reverse=True)          # ... within score descending (stable)
        rows = rows[:depth]
        out[qid] = RankingRow(qid, tuple(d for d, _, _ in rows), tuple(s for _, s, _ in rows))
    return out
