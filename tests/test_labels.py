"""Label-audit rules: the quote gate and every branch of the repair policy, on hand-built cases."""

from nclue.labelaudit.rules import Answer, gate, normalise, repair

PAGES = {3: "The Grievance Redress Mechanism is described in detail on this page.",
         5: "Resettlement policy:  the framework applies to all\nsubprojects.",
         7: "Nothing relevant here."}


def _gate(answer, shown=(3, 5)):
    return gate(answer, set(shown), PAGES.__getitem__)


def test_quote_gate():
    assert _gate(Answer(True, [3], "grievance redress mechanism is described")) == (True, "")
    assert _gate(Answer(True, [5], "the framework applies to ALL subprojects"))[0]     # normalised
    ok, why = _gate(Answer(True, [3], "the framework applies to all"))
    assert not ok and "not on any selected page" in why                              # quote from another page
    ok, why = _gate(Answer(True, [7], "nothing relevant here"))
    assert not ok and "not shown" in why                                             # unshown page
    assert not _gate(Answer(True, [], "grievance redress mechanism"))[0]
    assert not _gate(Answer(True, [3], "grievance"))[0]                               # trivial
    assert _gate(Answer(False)) == (True, "")
    assert not _gate(Answer(False, [3], ""))[0]
    assert normalise("A\u2014B") == "a-b"


def test_the_quote_gate_boundary_is_three_words():
    """MIN_QUOTE_WORDS = 3 (supplement 10.2.1's "nontrivial quote"): three words pass, two do not."""
    assert _gate(Answer(True, [3], "grievance redress mechanism")) == (True, "")
    assert _gate(Answer(True, [3], "  Grievance\n redress   MECHANISM ")) == (True, "")     # counted normalised
    ok, why = _gate(Answer(True, [3], "redress mechanism"))
    assert not ok and "fewer than 3 words" in why


Y1 = Answer(True, [3], "q one two three")
Y2 = Answer(True, [5], "q four five six")
Y1b = Answer(True, [3], "q seven eight nine")
N = Answer(False)


def test_keep_when_both_agree_with_the_qrel():
    assert repair(1, 2, [Y1, N], [Y1, N]) == (1, "keep")


def test_consensus_increase_accepted_with_distinct_pages():
    assert repair(1, 2, [Y1, Y2], [Y1, Y2]) == (2, "accept-increase")


def test_consensus_increase_on_one_shared_page_is_not_accepted():
    # both conditions supported only on page 3: no distinct-page assignment -> adjudication
    assert repair(1, 2, [Y1, Y1b], [Y1, Y1b]) == (1, "needs-adjudication")


def test_consensus_increase_with_an_invalid_quote_goes_to_adjudication():
    def bad(ans):
        return ans is not Y2
    assert repair(1, 2, [Y1, Y2], [Y1, Y2], gate_ok=bad) == (1, "needs-adjudication")


def test_split_and_decrease_are_adjudicated():
    assert repair(1, 2, [Y1, Y2], [Y1, N]) == (1, "needs-adjudication")      # split
    assert repair(2, 2, [Y1, N], [Y1, N]) == (2, "needs-adjudication")       # consensus decrease


def test_adjudication_majority_and_locks():
    adj = [None, [Y2, Y2, N]]
    assert repair(1, 2, [Y1, Y2], [Y1, N], adj) == (2, "adjudicated")        # locked c1 + 2/3 on c2
    adj = [None, [Y2, N, N]]
    assert repair(1, 2, [Y1, Y2], [Y1, N], adj) == (1, "adjudicated")        # 1/3 is not enough
    adj = [[N, N, N], [N, N, Y2]]
    assert repair(2, 2, [Y1, N], [Y1, N], adj) == (1, "adjudicated")         # decrease confirmed


def test_distinct_page_gate_is_enforced_at_the_end():
    # both conditions supported by adjudication, but only on page 3 (the J061 case): stays partial
    adj = [[Y1, Y1, N], [Y1b, Y1b, Y1b]]
    assert repair(1, 2, [N, N], [Y1, N], adj) == (1, "adjudicated")
