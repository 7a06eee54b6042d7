r"""Reading a TREC run file (``qid Q0 docno rank score tag``) as a ranking.

Order (docs/usage.md#run-formats): trec_eval ignores the rank column and orders each
query's documents by score descending, breaking ties by docno *descending*;
that is the default here (``ties="trec"``), so numbers agree with trec_eval.
``ties="file"`` keeps the file's order instead (the released JSONL rule).
Either way the first ``depth`` documents are kept.  Malformed lines raise
:class:`~nclue.core.errors.InputError` with the line number and the column.

Fields are read by trec_eval's rules: columns are separated by ASCII white space (space, tab, vertical
tab, form feed; a CRLF line end is accepted) -- a no-break space or another Unicode separator is part of a field, not between
two; the score is a C floating-point literal in ASCII digits (no ``1_000``, no fullwidth digits, no
``inf`` or ``nan``); the rank an ASCII integer.  The tag (sixth column) names the run.

>>> read_trec_run(None, "r.txt", {"q": None}, {"d1", "d2"}, text="q Q0 d1 1 2.5 mine\nq Q0 d2 2 1e0 mine\n")
{'q': RankingRow(qid='q', docids=('d1', 'd2'), scores=(2.5, 1.0))}
>>> read_trec_run(None, "r.txt", {"q": None}, {"d1"}, text="q Q0 d1 1 1_0 mine\n")
Traceback (most recent call last):
...
nclue.core.errors.InputError: r.txt:1: field 'score': not a number: '1_0'
"""

from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

from .errors import InputError, UnknownQuery
from .jsonio import read_bytes_text
from .records import RankingRow

ORDERS = ("trec", "file")
_SPLIT = re.compile(r"[ \t\v\f\r]+")       # C's isspace(): trec_eval's sscanf("%s") separators
_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
_INT = re.compile(r"[+-]?[0-9]+\Z")
_SHOWN = 40


def _show(text: Any) -> Any:
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN - 3] + "...")


def read_trec_run(path: Any, where: Any, queries: Any, corpus: Any, ties: Any = "trec", depth: Any = 10,
                  text: Any = None, tags: Any = None) -> Any:
    """``{qid: RankingRow}`` of a TREC run (see module doc); ``text``: the decoded file when the caller read
    it; ``tags``: a set that receives the run's tags.  The duplicate check is a set per query (linear)."""
    if ties not in ORDERS:
        raise ValueError("ties must be one of %s" % (ORDERS,))
    if text is None:
        text = read_bytes_text(path, where)
    per_query: dict[str, Any] = {}
    seen: dict[str, Any] = {}
    for number, parts in _lines(text):
        if len(parts) != 6:
            raise InputError(where, "expected 6 columns 'qid Q0 docno rank score tag' separated by ASCII spaces or "
                             "tabs, got %d" % len(parts), line=number)
        qid, _, docno, rank, score, tag = parts
        if qid not in queries:
            raise UnknownQuery(where, "unknown query %s" % _show(qid), qid, line=number, field="qid")
        if docno not in corpus:
            raise InputError(where, "unknown document %s" % _show(docno), line=number, field="docno")
        if not _FLOAT.match(score):
            try:
                finite = math.isfinite(float(score))
            except ValueError:
                finite = True
            raise InputError(where, "%s: %s" % ("not a number" if finite else "not finite", _show(score)),
                             line=number, field="score")
        value = float(score)
        if not math.isfinite(value):
            raise InputError(where, "not finite: %s" % _show(score), line=number, field="score")
        if not _INT.match(rank):
            raise InputError(where, "not an integer: %s" % _show(rank), line=number, field="rank")
        docs = seen.setdefault(qid, set())
        if docno in docs:
            raise InputError(where, "document %s ranked twice for %s" % (_show(docno), qid), line=number,
                             field="docno")
        docs.add(docno)
        if tags is not None:
            tags.add(tag)
        per_query.setdefault(qid, []).append((docno, value, number))
    out = {}
    for qid, rows in per_query.items():
        if ties == "trec":
            rows = sorted(rows, key=lambda t: t[0], reverse=True)          # docno descending ...
            rows = sorted(rows, key=lambda t: t[1], reverse=True)          # ... within score descending (stable)
        rows = rows[:depth]
        out[qid] = RankingRow(qid, tuple(d for d, _, _ in rows), tuple(s for _, s, _ in rows))
    return out


def _lines(text: Any) -> Any:
    """``(line number, columns)`` of every non-blank line, split as trec_eval splits them (see module doc).
    Lines end at "\n" only (str.splitlines would also split at form feeds and shift every later line
    number); a CRLF end is accepted."""
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip(" \t\v\f\r")
        if stripped:
            yield number, _SPLIT.split(stripped)


def read_trec_qrels(where: Any, queries: Any, corpus: Any, text: Any) -> Any:
    """``{qid: {docno: grade}}`` of a TREC qrels file (``qid iteration docno grade``), the judged pairs with a
    nonzero grade, under this benchmark's grade rule (docs/usage.md#your-own-qrels): a query's grades are
    0..n, n = its number of conditions; n is gold, 1..n-1 a subset, 0 judged non-relevant.  Every query the
    file names is evaluated (a query with only grade-0 rows has no gold).  Refused with file, line and field:
    a line of another width, an unknown query or document, a grade that is not an ASCII integer or lies
    outside 0..n, a pair judged twice, a file with no row.

    >>> read_trec_qrels("q.txt", {"q": _Query(2)}, {"d1", "d2"}, "q 0 d1 2\\nq 0 d2 0\\n")
    {'q': {'d1': 2}}
    >>> read_trec_qrels("q.txt", {"q": _Query(2)}, {"d1"}, "q 0 d1 3\\n")
    Traceback (most recent call last):
    ...
    nclue.core.errors.InputError: q.txt:1: field 'grade': grade 3 is outside 0..2 (q has 2 conditions: gold is grade 2)
    """
    out: dict[Any, Any] = {}
    first: dict[Any, Any] = {}
    for number, parts in _lines(text):
        if len(parts) != 4:
            raise InputError(where, "expected 4 columns 'qid iteration docno grade' separated by ASCII spaces or "
                             "tabs, got %d" % len(parts), line=number)
        qid, _, docno, grade = parts
        if qid not in queries:
            raise UnknownQuery(where, "unknown query %s" % _show(qid), qid, line=number, field="qid")
        if docno not in corpus:
            raise InputError(where, "unknown document %s" % _show(docno), line=number, field="docno")
        if not _INT.match(grade):
            raise InputError(where, "not an integer: %s" % _show(grade), line=number, field="grade")
        n = queries[qid].n
        value = int(grade) if len(grade) <= 12 else None        # no conversion of a 5,000-digit number
        if value is None or not 0 <= value <= n:
            raise InputError(where, "grade %s is outside 0..%d (%s has %d conditions: gold is grade %d)" % (
                _show(grade) if len(grade) > 12 else grade, n, qid, n, n), line=number, field="grade")
        if (qid, docno) in first:
            raise InputError(where, "(%s, %s) is judged twice (first at line %d)" % (qid, _show(docno), first[
                qid, docno]), line=number, field="docno")
        first[qid, docno] = number
        grades = out.setdefault(qid, {})
        if value:
            grades[docno] = value
    if not out:
        raise InputError(where, "no qrel rows (a qrels file lists at least one judged pair)")
    return out


class _Query(NamedTuple):            # stands for a released query in the doctest
    n: int
