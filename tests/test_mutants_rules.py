"""labelaudit/rules.py worked by hand: the quote gate's every message, the grade, and each route of the repair
policy.  The mutants mutmut left alive (docs/recipes.md#mutation-testing) are killed here or listed as equivalent in
tests/mutants_equivalent_stats.txt."""

from nclue.labelaudit.rules import MIN_QUOTE_WORDS, Answer, derived_grade, gate, normalise, repair, repair_detail

PAGES = {1: "Intro.", 3: "The plan is described here in full.", 4: "A  SECOND\n page   says so, twice.",
         5: "Nothing relevant.", 6: "and again it is said"}


def _text(page):
    return PAGES.get(page)


def test_normalise_folds_every_typographic_form():
    assert normalise("\u2018a\u2019 \u201cb\u201d c\u2013d e\u2014f g\u00a0h") == "'a' \"b\" c-d e-f g h"
    assert normalise("  Two\t\n  Words  ") == "two words"
    assert normalise("") == ""


def test_gate_on_a_negative_answer():
    assert gate(Answer(False), {1}, _text) == (True, "")
    assert gate(Answer(False, quote="   "), {1}, _text) == (True, "")
    assert gate(Answer(False, [1]), {1}, _text) == (False, "a negative answer must have no page and no quote")
    assert gate(Answer(False, quote="a quote"), {1}, _text) == (False, "a negative answer must have no page and no "
                                                                       "quote")


def test_gate_on_a_positive_answer_message_by_message():
    assert gate(Answer(True, [], "the plan is"), {3}, _text) == (False, "a positive answer needs at least one "
                                                                        "selected page")
    assert gate(Answer(True, [3, 7, 8], "the plan is"), {3}, _text) == (False, "selected page 7 was not shown to "
                                                                               "the evaluator")
    assert MIN_QUOTE_WORDS == 3
    assert gate(Answer(True, [3], "the  plan"), {3}, _text) == (False, "the quote is trivial (fewer than 3 words)")
    assert gate(Answer(True, [3, 9, 10], "the plan is"), {3, 9, 10}, _text) == (
        False, "the text of selected page 9 is not in the audit's page file")
    assert gate(Answer(True, [3], "the plan is absent"), {3}, _text) == (False, "the quote is not on any selected "
                                                                               "page")


def test_gate_passes_a_folded_quote_on_any_selected_page():
    """Three words exactly; the quote is found on the second selected page after folding case and white space."""
    assert gate(Answer(True, [3], "the plan is"), {3}, _text) == (True, "")
    assert gate(Answer(True, [5, 4], "second PAGE\tsays"), {4, 5}, _text) == (True, "")
    assert gate(Answer(True, [3], "\u201cThe plan\u201d is"), {3}, _text)[0] is False     # quotes stay characters


def test_derived_grade_counts_positive_conditions():
    assert derived_grade([Answer(True, [1], "x y z"), Answer(False), Answer(True)]) == 2
    assert derived_grade([]) == 0


YES3 = Answer(True, [3], "the plan is", shown=[3, 1])
YES4 = Answer(True, [4], "a second page", shown=[4])
YES5 = Answer(True, [5], "nothing relevant here", shown=[5])
YES6 = Answer(True, [6], "and again it", shown=[6, 3])
NO = Answer(False)


def test_keep_when_both_derive_the_original_grade():
    assert repair_detail(1, 2, [YES3, NO], [NO, YES4]) == (1, "keep", False, None)
    assert repair(0, 2, [NO, NO], [NO, NO]) == (0, "keep")


def test_a_consensus_increase_is_accepted_with_merged_support():
    """Both say 2 on the same conditions, quotes pass, pages distinct: accepted; the support is each condition's
    union of pages, sorted."""
    assert repair_detail(1, 2, [YES3, YES4], [YES6, YES5]) == (2, "accept-increase", False, ((3, 6), (4, 5)))
    assert repair(0, 3, [YES3, NO, NO], [YES4, NO, NO]) == (1, "accept-increase")
    assert repair_detail(0, 3, [YES3, NO, YES5], [YES4, NO, YES5]) == (2, "accept-increase", False,
                                                                        ((3, 4), (), (5,)))


def test_a_consensus_increase_on_different_conditions_needs_adjudication():
    """A supports condition 0, E condition 1: both grade 1 but no condition both support."""
    assert repair_detail(0, 2, [YES3, NO], [NO, YES4]) == (0, "needs-adjudication", False, None)


def test_a_consensus_increase_whose_quote_fails_the_gate_needs_adjudication():
    def fails4(ans):
        return (4 not in ans.pages)
    assert repair_detail(0, 2, [YES3, NO], [YES4, NO], gate_ok=fails4) == (0, "needs-adjudication", False, None)
    assert repair_detail(0, 2, [YES4, NO], [YES3, NO], gate_ok=fails4) == (0, "needs-adjudication", False, None)
    assert repair_detail(0, 2, [YES3, NO], [YES6, NO], gate_ok=fails4)[1] == "accept-increase"


def test_a_would_be_gold_on_one_page_is_not_accepted():
    """Both conditions supported only on page 3: no distinct-page assignment, so the increase to n is
    adjudicated; adjudication keeps every condition (both support it) but the gate holds the grade at n - 1."""
    same = Answer(True, [3], "the plan is")
    assert repair_detail(1, 2, [same, same], [same, same]) == (1, "needs-adjudication", False, None)
    votes = [[NO, NO, NO], [NO, NO, NO]]
    assert repair_detail(1, 2, [same, same], [same, same], votes) == (1, "adjudicated", True, ((3,), (3,)))


def test_a_split_is_adjudicated_by_the_majority_of_valid_votes():
    """Condition 0: both positive, locked.  Condition 1: A yes, E no; votes yes (page 4), yes (page 5, fails the
    gate), no: one valid positive vote, so negative.  Condition 2: two valid yes votes, merged (pages 4, 6; the
    first vote's quote)."""
    def gate5(ans):
        return (5 not in ans.pages)
    votes = [None, [YES4, YES5, NO], [YES4, NO, YES6]]
    got = repair_detail(1, 3, [YES3, YES4, NO], [YES3, NO, NO], votes, gate_ok=gate5)
    assert got == (2, "adjudicated", False, ((3,), (), (4, 6)))
    assert repair(1, 3, [YES3, YES4, NO], [YES3, NO, NO], votes, gate_ok=gate5) == (2, "adjudicated")
    # with every vote valid, condition 1 has two positive votes too: grade 3 on distinct pages 3, 4/5, 4/6
    assert repair_detail(1, 3, [YES3, YES4, NO], [YES3, NO, NO], [None, [YES4, YES5, NO], [YES4, NO, YES6]]) == (
        3, "adjudicated", False, ((3,), (4, 5), (4, 6)))


def test_a_locked_condition_needs_both_quotes_to_pass():
    """Both positive on condition 0, but A's quote fails: not locked; its votes (none) make it negative."""
    def gate3(ans):
        return (ans is not YES3)
    got = repair_detail(0, 2, [YES3, NO], [YES6, NO], [[NO, NO, NO], [NO, NO, NO]], gate_ok=gate3)
    assert got == (0, "adjudicated", False, ((), ()))
    got = repair_detail(0, 2, [YES6, NO], [YES3, NO], [[NO, NO, NO], [NO, NO, NO]], gate_ok=gate3)
    assert got == (0, "adjudicated", False, ((), ()))


def test_a_consensus_decrease_is_adjudicated_and_overrides_replace_the_majority():
    """g0 = 2, both now say 1: adjudicated.  Condition 1's override (positive, page 5) replaces its votes (all
    negative); condition 0 is locked."""
    votes = [[NO, NO, NO], [NO, NO, NO]]
    assert repair_detail(2, 2, [YES3, NO], [YES3, NO], votes) == (1, "adjudicated", False, ((3,), ()))
    assert repair_detail(2, 2, [YES3, NO], [YES3, NO], votes, overrides={1: YES5}) == (
        2, "adjudicated", False, ((3,), (5,)))
    # an override that puts a would-be gold on the locked condition's only page is held at n - 1
    assert repair_detail(2, 2, [YES3, NO], [YES3, NO], votes, overrides={1: Answer(True, [3], "the plan is")}) == (
        1, "adjudicated", True, ((3,), (3,)))
    # a locked condition is not overridden
    assert repair_detail(2, 2, [YES3, NO], [YES3, NO], votes, overrides={0: NO})[0] == 1


def test_merged_answers_union_pages_and_shown_pages():
    """The merged support of a three-vote majority is the union of all three's pages."""
    votes = [[YES4, YES5, YES6]]
    assert repair_detail(0, 1, [NO], [NO], None) == (0, "keep", False, None)
    assert repair_detail(1, 1, [NO], [NO], votes) == (1, "adjudicated", False, ((4, 5, 6),))
    assert repair_detail(1, 1, [NO], [NO], [[YES6, YES4, NO]]) == (1, "adjudicated", False, ((4, 6),))


def test_a_negative_override_supports_nothing_whatever_pages_it_names():
    """The support of a condition decided negative is empty, even when the negative answer carries pages."""
    votes = [[NO, NO, NO], [YES4, YES6, NO]]
    got = repair_detail(2, 2, [YES3, NO], [YES3, NO], votes, overrides={1: Answer(False, [5])})
    assert got == (1, "adjudicated", False, ((3,), ()))
