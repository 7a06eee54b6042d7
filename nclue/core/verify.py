"""Independent construction verifier (paper section 3.2, supplement 1.1;
docs/schema.md#qrelsjsonl-and-qrels_constructionjsonl).

Written apart from the constructor (:mod:`nclue.builder.construct`), on another
code path: it works on per-document dictionaries of page sets rather than
bit sets, and checks the distinct-page gate with **Hall's condition** (every
subset ``S`` of conditions must touch at least ``|S|`` distinct pages)
instead of augmenting paths.  From ``queries`` and ``inventory`` alone it
re-derives, for each query:

* the union of documents with a nonempty page set for at least one condition,
  and each one's exact clue count (the qrel grade);
* for each all-condition document, the two gold gates: empty all-condition
  intersection (not single-page-solvable) and a distinct-page assignment.

It then compares with the released qrels row by row and reports every
difference (missing row, extra row, wrong grade) and every gold that fails a
gate.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any


def single_page_solvable(page_sets: list[Any]) -> bool:
    """True iff one page establishes every condition (nonempty intersection).

    >>> single_page_solvable([(1,), (1, 2)])
    True
    >>> single_page_solvable([(1,), (2,)])
    False
    """
    if not page_sets or any(len(s) == 0 for s in page_sets):
        return False
    return bool(set.intersection(*(set(s) for s in page_sets)))


def distinct_page_valid(page_sets: list[Any]) -> bool:
    """True iff conditions can be assigned distinct pages (Hall's condition).

    >>> distinct_page_valid([(1,), (1,), (1, 2)])
    False
    >>> distinct_page_valid([(1,), (1, 2)])
    True
    """
    if not page_sets or any(len(s) == 0 for s in page_sets):
        return False
    n = len(page_sets)
    for size in range(1, n + 1):
        for subset in combinations(range(n), size):
            touched = set()
            for i in subset:
                touched.update(page_sets[i])
            if len(touched) < size:
                return False
    return True


def is_gold(page_sets: list[Any]) -> bool:
    """The gold gates together: all nonempty, not single-page-solvable, distinct-page valid."""
    return (all(len(s) > 0 for s in page_sets) and not single_page_solvable(page_sets)
            and distinct_page_valid(page_sets))


# the kinds of :class:`Difference`, in the order the construction claims count them
DIFFERENCE_KINDS = ("missing qrel", "extra qrel", "wrong grade", "gold fails gate", "query without gold")


class Difference:
    """One row-level disagreement between released qrels and the re-derivation (its ``kind`` one of
    :data:`DIFFERENCE_KINDS`)."""

    __slots__ = ("kind", "qid", "docid", "released", "derived", "detail")

    def __init__(self, kind: Any, qid: Any, docid: Any, released: Any, derived: Any, detail: Any = "") -> None:
        self.kind, self.qid, self.docid = kind, qid, docid
        self.released, self.derived, self.detail = released, derived, detail

    def __str__(self) -> Any:
        text = "%s: %s / %s (released %s, derived %s)" % (self.kind, self.qid, self.docid, self.released, self.derived)
        return text + ("; " + self.detail if self.detail else "")


def derive_qrels(queries: dict[str, Any], inventory: dict[Any, Any]) -> dict[str, Any]:
    """Re-derived compact qrels ``{qid: {docid: grade}}`` from the inventory."""
    by_cid: dict[Any, Any] = {}
    for (docid, cid) in inventory:
        by_cid.setdefault(cid, set()).add(docid)
    out = {}
    for qid, query in queries.items():
        counts: dict[Any, Any] = {}
        for cond in query.conditions:
            for docid in by_cid.get(cond.cid, ()):
                counts[docid] = counts.get(docid, 0) + 1
        out[qid] = counts
    return out


def verify(queries: dict[str, Any], inventory: dict[Any, Any], qrels: dict[str, Any]) -> list[Any]:
    """All differences, in (qid, docid) order; an empty list means the qrels re-derive exactly."""
    derived = derive_qrels(queries, inventory)
    diffs = []
    for qid in sorted(queries):
        query = queries[qid]
        released = qrels.get(qid, {})
        mine = derived[qid]
        for docid in sorted(set(released) | set(mine)):
            r, m = released.get(docid), mine.get(docid)
            if r is None:
                diffs.append(Difference("missing qrel", qid, docid, None, m))
            elif m is None:
                diffs.append(Difference("extra qrel", qid, docid, r, None, "no condition of the query in the inventory"))
            elif r != m:
                diffs.append(Difference("wrong grade", qid, docid, r, m))
            if m == query.n:
                sets = [inventory[(docid, c.cid)].pages for c in query.conditions]
                if single_page_solvable(sets):
                    diffs.append(Difference("gold fails gate", qid, docid, r, m,
                                            "single-page-solvable: page %s establishes every condition"
                                            % min(set.intersection(*(set(s) for s in sets)))))
                elif not distinct_page_valid(sets):
                    diffs.append(Difference("gold fails gate", qid, docid, r, m,
                                            "no distinct-page assignment (Hall's condition fails)"))
        if not any(g == query.n for g in mine.values()):
            diffs.append(Difference("query without gold", qid, "-", None, None,
                                    "no document supports every condition"))
    return diffs
