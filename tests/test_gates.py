"""Gold gates worked by hand, on both the constructor and the independent verifier."""

import pytest

from nclue.builder.construct import distinct_page_matching, passes_gates
from nclue.core.verify import distinct_page_valid, is_gold, single_page_solvable

# (page sets, single-page-solvable, distinct-page-valid, gold)
CASES = [
    # two conditions supported only on one shared page -> not gold (both gates fail)
    ([(1,), (1,)], True, False, False),
    # {1} and {1,2}: a distinct assignment exists (c1->1, c2->2) but page 1 establishes
    # both conditions, so the all-condition intersection is not empty -> not gold (docs/schema.md#qrelsjsonl-and-qrels_constructionjsonl)
    ([(1,), (1, 2)], True, True, False),
    # disjoint pages -> gold
    ([(1,), (2,)], False, True, True),
    ([(3, 7), (7, 9)], True, True, False),
    ([(3, 7), (8, 9)], False, True, True),
    # three conditions on {1},{1},{1,2}: shared page 1 and Hall fails -> not gold
    ([(1,), (1,), (1, 2)], True, False, False),
    # empty intersection but c1, c2 compete for page 1 -> Hall fails -> not gold
    ([(1,), (1,), (2,)], False, False, False),
    # empty intersection and an assignment 1,2,3 -> gold
    ([(1, 2), (2, 3), (3, 1)], False, True, True),
    ([(1, 2), (1, 2), (1, 2)], True, False, False),
    # a condition with an empty page set -> not gold (the document is a subset)
    ([(1,), ()], False, False, False),
]


@pytest.mark.parametrize("sets,sps,dpv,gold", CASES)
def test_verifier_gates(sets, sps, dpv, gold):
    assert single_page_solvable(sets) is sps
    assert distinct_page_valid(sets) is dpv
    assert is_gold(sets) is gold


@pytest.mark.parametrize("sets,sps,dpv,gold", CASES)
def test_constructor_agrees_with_verifier(sets, sps, dpv, gold):
    assert passes_gates(sets) is gold
    matching = distinct_page_matching(sets) if all(sets) else None
    assert (matching is not None) is dpv
    if matching is not None:
        assert len(set(matching)) == len(sets)
        assert all(page in s for page, s in zip(matching, sets))
