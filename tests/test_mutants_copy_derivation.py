"""labelaudit/copy_derivation.py worked by hand: the mutants mutmut left alive (docs/recipes.md#mutation-testing),
each killed here or listed as equivalent in tests/mutants_equivalent_stats.txt."""

from collections import namedtuple

from nclue.labelaudit.copy_derivation import apply_stage

Q = namedtuple("Q", "n")


def test_a_query_the_parent_lacks_is_removed_not_an_error():
    """q2 is in the evaluation set but has no row in the parent: no gold, so it is removed."""
    qrels, removed = apply_stage({"q1": {"a": 2}}, {"q1": Q(2), "q2": Q(2)}, {})
    assert qrels == {"q1": {"a": 2}} and removed == ["q2"]


def test_removing_a_row_that_is_not_there_changes_nothing():
    """Grade 0 for a document the query never had, and for a query outside the evaluation set: both no-ops."""
    qrels, removed = apply_stage({"q1": {"a": 2, "b": 1}}, {"q1": Q(2)}, {("q1", "zz"): 0, ("q9", "x"): 0})
    assert qrels == {"q1": {"a": 2, "b": 1}} and removed == []


def test_a_stage_that_promotes_and_demotes_by_hand():
    """q1 loses its gold a (grade 1 now) but gains b as gold (grade 2); q2 loses its only gold (removed with its
    other row); gold is the grade equal to the query's n (q3: n = 3)."""
    parent = {"q1": {"a": 2, "b": 1}, "q2": {"c": 2, "d": 1}, "q3": {"e": 3, "f": 2}}
    queries = {"q1": Q(2), "q2": Q(2), "q3": Q(3)}
    qrels, removed = apply_stage(parent, queries, {("q1", "a"): 1, ("q1", "b"): 2, ("q2", "c"): 1})
    assert qrels == {"q1": {"a": 1, "b": 2}, "q3": {"e": 3, "f": 2}} and removed == ["q2"]
    assert parent["q1"] == {"a": 2, "b": 1}                   # the parent is not changed
