"""SourceShift's qrel genealogy re-derived (supplement sections 8, 10.5-10.6; docs/schema.md#genealogyjson).

A copy is its parent with a stage's changed grades applied (grade 0 removes the row), and then every
query left without a gold removed together with its qrels -- the zero-gold removal rule.
"""


def apply_stage(parent, queries, changed):
    """``(qrels, removed)``: ``parent`` (``{qid: {docid: grade}}``) with ``changed``
    (``{(qid, docid): grade}``) applied, restricted to the queries that keep a gold; ``removed``: the
    other queries of ``queries`` (``{qid: Query}``, the parent's evaluation set), sorted.

    >>> from collections import namedtuple
    >>> Q = namedtuple("Q", "n")
    >>> apply_stage({"a": {"x": 2, "y": 1}, "b": {"z": 2}}, {"a": Q(2), "b": Q(2)}, {("b", "z"): 1, ("a", "y"): 0})
    ({'a': {'x': 2}}, ['b'])
    """
    out = {qid: dict(parent.get(qid, {})) for qid in queries}
    for (qid, docid), grade in changed.items():
        row = out.setdefault(qid, {})
        if grade == 0:
            row.pop(docid, None)
        else:
            row[docid] = grade
    removed = sorted(q for q in queries if not any(g == queries[q].n for g in out.get(q, {}).values()))
    return {q: out[q] for q in sorted(out) if q not in set(removed) and out[q]}, removed
