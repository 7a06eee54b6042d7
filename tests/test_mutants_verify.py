"""core/verify (the independent construction verifier, paper section 3.2) worked by hand on two or three queries:
each gate at its boundary (no page set, a one-page set, Hall's condition failing only on the full set), the
re-derived grades, and every Difference with its text -- the kills of the mutants mutmut left alive in
core/verify.py (docs/recipes.md#mutation-testing)."""

import pytest

from nclue.core.records import InventoryRow, Query, QueryCondition
from nclue.core.verify import (
    DIFFERENCE_KINDS,
    Difference,
    derive_qrels,
    distinct_page_valid,
    is_gold,
    single_page_solvable,
    verify,
)


def _query(qid, *cids):
    return Query(qid, len(cids), tuple(QueryCondition(c, "section", c.upper()) for c in cids), {})


def _inventory(rows):
    """``{(docid, cid): InventoryRow}`` from ``(docid, cid, pages)``."""
    return {(d, c): InventoryRow(d, c, tuple(p)) for d, c, p in rows}


def test_single_page_solvable_needs_a_page_shared_by_every_nonempty_set():
    assert single_page_solvable([]) is False
    assert single_page_solvable([(4,)]) is True                     # one condition: its page establishes it
    assert single_page_solvable([(1,), (1,)]) is True
    assert single_page_solvable([(1, 2), (2, 3), (2,)]) is True
    assert single_page_solvable([(1, 2), (2, 3), (3, 1)]) is False
    assert single_page_solvable([(1,), ()]) is False
    assert single_page_solvable([(), ()]) is False


def test_distinct_page_valid_is_halls_condition_on_every_subset():
    assert distinct_page_valid([]) is False
    assert distinct_page_valid([()]) is False
    assert distinct_page_valid([(1,), ()]) is False
    assert distinct_page_valid([(5,)]) is True
    assert distinct_page_valid([(1,), (2,)]) is True
    assert distinct_page_valid([(1,), (1,)]) is False                   # a pair touching one page
    assert distinct_page_valid([(1, 2), (1, 2)]) is True                 # a pair touching exactly two
    assert distinct_page_valid([(1, 2), (1, 2), (1, 2)]) is False        # only the full set of three fails
    assert distinct_page_valid([(1, 2), (2, 3), (3, 1)]) is True         # the full set touches exactly three
    assert distinct_page_valid([(9,), (1, 2), (1, 2), (1, 2)]) is False  # fails on a subset of size 3 of 4
    assert distinct_page_valid([(1, 2), (1, 2), (1, 2), (9,)]) is False
    assert distinct_page_valid([(1, 2, 3), (1, 2, 3), (1, 2, 3), (3, 4)]) is True


def test_is_gold_is_every_gate_together():
    assert is_gold([(1,), (2,)]) is True
    assert is_gold([(1, 2), (2, 3), (3, 1)]) is True
    assert is_gold([(1,), (1, 2)]) is False                              # single-page-solvable
    assert is_gold([(1,), (1,), (2,)]) is False                          # Hall fails
    assert is_gold([(1,), ()]) is False
    assert is_gold([(1, 2), ()]) is False


def test_the_difference_kinds_in_the_order_the_claims_count_them():
    assert DIFFERENCE_KINDS == ("missing qrel", "extra qrel", "wrong grade", "gold fails gate",
                                "query without gold")


def test_a_difference_reads_as_one_line_with_its_detail_after_a_semicolon():
    plain = Difference("wrong grade", "q1", "d1", 1, 2)
    assert (plain.kind, plain.qid, plain.docid, plain.released, plain.derived, plain.detail) == (
        "wrong grade", "q1", "d1", 1, 2, "")
    assert str(plain) == "wrong grade: q1 / d1 (released 1, derived 2)"
    detailed = Difference("extra qrel", "q2", "d9", 3, None, "why")
    assert str(detailed) == "extra qrel: q2 / d9 (released 3, derived None); why"


def test_derive_qrels_counts_the_conditions_each_document_supports():
    queries = {"q1": _query("q1", "a", "b"), "q2": _query("q2", "c"), "q3": _query("q3", "z")}
    inventory = _inventory([("d1", "a", [1]), ("d1", "b", [2]), ("d2", "a", [3]), ("d2", "c", [1]),
                            ("d3", "b", [1, 2])])
    assert derive_qrels(queries, inventory) == {"q1": {"d1": 2, "d2": 1, "d3": 1}, "q2": {"d2": 1}, "q3": {}}
    assert derive_qrels({}, inventory) == {}


def test_verify_finds_nothing_when_the_qrels_re_derive():
    queries = {"q1": _query("q1", "a", "b")}
    inventory = _inventory([("d1", "a", [1]), ("d1", "b", [2]), ("d2", "a", [3])])
    assert verify(queries, inventory, {"q1": {"d1": 2, "d2": 1}}) == []


def test_verify_reports_missing_extra_and_wrong_rows_in_docid_order():
    queries = {"q2": _query("q2", "a", "b"), "q1": _query("q1", "a", "b")}
    inventory = _inventory([("d1", "a", [1]), ("d1", "b", [2]), ("d3", "a", [3]), ("d4", "b", [4])])
    released = {"q2": {"d1": 2, "d2": 1, "d3": 2}, "q1": {"d1": 2, "d3": 1}}
    diffs = verify(queries, inventory, released)
    assert str(diffs.pop(0)) == "missing qrel: q1 / d4 (released None, derived 1)"
    assert [str(d) for d in diffs] == [
        "extra qrel: q2 / d2 (released 1, derived None); no condition of the query in the inventory",
        "wrong grade: q2 / d3 (released 2, derived 1)",
        "missing qrel: q2 / d4 (released None, derived 1)"]
    assert [(d.kind, d.qid, d.docid, d.released, d.derived) for d in diffs] == [
        ("extra qrel", "q2", "d2", 1, None), ("wrong grade", "q2", "d3", 2, 1), ("missing qrel", "q2", "d4", None, 1)]


def test_verify_checks_the_gates_of_every_derived_gold():
    """Three derived golds (grade 3 = n): d1's three page sets meet on page 7 (single-page-solvable), d2 puts two
    conditions on page 1 alone (Hall fails; released with grade 2, also a wrong grade), d3 passes both gates."""
    queries = {"q1": _query("q1", "a", "b", "c")}
    inventory = _inventory([("d1", "a", [5, 7]), ("d1", "b", [7, 9]), ("d1", "c", [3, 5, 7]),   # page 7 in all three
                            ("d2", "a", [1]), ("d2", "b", [1]), ("d2", "c", [2]),               # Hall fails
                            ("d3", "a", [1]), ("d3", "b", [2]), ("d3", "c", [3])])              # gold
    diffs = verify(queries, inventory, {"q1": {"d1": 3, "d2": 2, "d3": 3}})
    assert [str(d) for d in diffs] == [
        "gold fails gate: q1 / d1 (released 3, derived 3); "
        "single-page-solvable: page 7 establishes every condition",
        "wrong grade: q1 / d2 (released 2, derived 3)",
        "gold fails gate: q1 / d2 (released 2, derived 3); no distinct-page assignment (Hall's condition fails)"]
    assert diffs[1].detail == "" and diffs[2].detail == "no distinct-page assignment (Hall's condition fails)"


def test_verify_names_the_lowest_shared_page():
    queries = {"q1": _query("q1", "a", "b")}
    inventory = _inventory([("d1", "a", [9, 4, 6]), ("d1", "b", [6, 4])])
    diffs = verify(queries, inventory, {"q1": {"d1": 2}})
    assert [d.detail for d in diffs] == ["single-page-solvable: page 4 establishes every condition"]


def test_a_missing_gold_row_is_still_gated():
    queries = {"q1": _query("q1", "a", "b")}
    inventory = _inventory([("d1", "a", [1]), ("d1", "b", [1]), ("d2", "a", [1]), ("d2", "b", [2])])
    assert [str(d) for d in verify(queries, inventory, {})] == [
        "missing qrel: q1 / d1 (released None, derived 2)",
        "gold fails gate: q1 / d1 (released None, derived 2); single-page-solvable: page 1 establishes every "
        "condition",
        "missing qrel: q1 / d2 (released None, derived 2)"]


def test_a_query_without_gold_is_reported_once_after_its_rows():
    queries = {"q1": _query("q1", "a", "b"), "q0": _query("q0", "e", "f")}
    inventory = _inventory([("d1", "a", [1]), ("d2", "b", [2]), ("d3", "e", [5]), ("d3", "f", [6])])
    diffs = verify(queries, inventory, {"q1": {"d1": 1, "d2": 1}, "q0": {"d3": 2}})
    assert [str(d) for d in diffs] == [
        "query without gold: q1 / - (released None, derived None); no document supports every condition"]
    assert (diffs[0].kind, diffs[0].qid, diffs[0].docid, diffs[0].released, diffs[0].derived) == (
        "query without gold", "q1", "-", None, None)
    empty = verify({"q9": _query("q9", "x")}, inventory, {})
    assert [str(d) for d in empty] == [
        "query without gold: q9 / - (released None, derived None); no document supports every condition"]


@pytest.mark.parametrize("grade", [0, 3])
def test_a_grade_other_than_n_is_no_gold(grade):
    """A document whose released grade is n but whose derived grade is not is no gold: only the derived count is
    gated, and a released n on a derived 1 is a wrong grade."""
    queries = {"q1": _query("q1", "a", "b")}
    inventory = _inventory([("d1", "a", [1]), ("d1", "b", [2]), ("d2", "a", [1])])
    diffs = verify(queries, inventory, {"q1": {"d1": 2, "d2": grade}})
    assert [str(d) for d in diffs] == ["wrong grade: q1 / d2 (released %d, derived 1)" % grade]
