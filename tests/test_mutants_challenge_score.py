"""labelaudit/challenge_score.py worked by hand on in-memory challenge records: every tally of the protocol, the
first problem named, the outcomes and the changes.  The mutants mutmut left alive or uncovered
(docs/recipes.md#mutation-testing) are killed here or listed as equivalent in tests/mutants_equivalent_stats.txt."""

from conftest import released

from nclue.labelaudit import challenge_score
from nclue.labelaudit.challenge_records import ChallengePair, ChallengeRecords
from nclue.labelaudit.rules import Answer

POOL = (3, 5, 7)
TEXT = {3: "The plan sets out the grievance procedure in full.", 5: "A second page on the grievance procedure here.",
        7: "The resettlement framework is described on this page."}
Y3 = Answer(True, [3], "the plan sets out", POOL)
Y5 = Answer(True, [5], "a second page on", POOL)
Y7 = Answer(True, [7], "the resettlement framework is", POOL)
Y35 = Answer(True, [3, 5], "the plan sets out", POOL)      # two selected pages, the quote on the first
BAD = Answer(True, [3], "words that are not there", POOL)  # fails the quote gate
N = Answer(False, (), "", POOL)
RESPONSES = released("audit", "challenge_responses.jsonl")


def _pair(pid, qid, g, h, tiebreak=(), role="target", before=1, decision=None, lines=None, n=2):
    p = ChallengePair(pid, qid, "d", n, "arxiv", role, before, None, None, None)
    p.cids = tuple("c%d" % (i + 1) for i in range(n))
    p.streams = {"G": list(g), "G2": list(g), "H": list(h)}
    p.tiebreak = {cid: ("T", selects, answer) for cid, selects, answer in tiebreak}
    p.decision = decision
    p.lines = lines or {}
    return p


def _records(*pairs, streams=("G", "G2", "H")):
    for p in pairs:
        p.streams = {name: p.streams[name] for name in streams if name in p.streams} or p.streams
    pages = {("v2", "d", page): text for page, text in TEXT.items()}
    return ChallengeRecords({p.pair: p for p in pairs}, pages, tuple(streams))


def _six():
    """P1: agree on c1, c2 tie-broken for G (named through its duplicate G2).  P2: both fail c1 (G's quote fails the
    gate) yet a tie-break is recorded; c2 disagrees with none.  P3: c1's tie-break answer fails the gate, so it sides
    with H although the record selects G; c2's positive tie-break (two pages) sides with H.  P4: c1 disagrees with no
    tie-break, c2 both fail the gate with a tie-break recorded.  P5: c1's tie-break sides with G but names H; c2
    agrees.  P6: both support both conditions on page 3 only (the distinct-page gate)."""
    return [
        _pair("P1", "q1", [Y3, Y7], [Y5, N], [("c2", "G2", Y7)], decision=(2, False)),
        _pair("P2", "q2", [BAD, N], [N, Y5], [("c1", "H", N)], role="control", decision=(1, False),
              lines={"b.jsonl": [7], "a.jsonl": [1, 2]}),
        _pair("P3", "q3", [Y35, N], [N, Y7], [("c1", "G", BAD), ("c2", "H", Y35)], decision=(1, False)),
        _pair("P4", "q4", [N, BAD], [Y3, BAD], [("c2", "G", N)], role="control", decision=(1, False)),
        _pair("P5", "q5", [Y3, Y5], [N, Y5], [("c1", "H", Y3)], decision=(2, False)),
        _pair("P6", "q6", [Y3, Y3], [Y3, Y3], role="control", decision=(1, True)),
    ]


def test_decide_tallies_every_step_of_the_protocol():
    decided, tally, picks, duplicates = challenge_score.decide(_records(*_six()))
    assert duplicates == {"G2": "G"} and picks == {"G": 2, "H": 2}
    assert decided == {"P1": (2, False), "P2": (0, False), "P3": (1, False), "P4": (0, False), "P5": (2, False),
                       "P6": (1, True)}
    assert tally == {"streams": 3, "unique_streams": 2, "duplicate_streams_collapsed": 1, "conditions": 12,
                     "agreeing_conditions": 6, "tiebreak_conditions": 6, "tiebreak_pairs": 5, "tiebreak_missing": 2,
                     "tiebreak_unneeded": 2, "tiebreak_selection_mismatches": 2, "tiebreak_positive_answers": 4,
                     "tiebreak_quotes_on_page": 3, "tiebreak_selected_quotes": 5,
                     "tiebreak_selected_quotes_on_page": 4, "gate_failures": 4,
                     "first_problem": "P2 / c1: tie-broken although the streams agree"}


def test_decided_pages_are_the_union_of_the_supporting_answers():
    """A tie-broken condition is decided on the pages of the stream it sides with and the tie-break answer's: here c1
    on H's 7 (and the tie-break's 7), c2 on G's 3 and the tie-break's 5."""
    p = _pair("P", "q", [N, Y3], [Y7, N], [("c1", "H", Y7), ("c2", "G", Y5)], n=2)
    decided, tally, picks, _ = challenge_score.decide(_records(p))
    assert decided == {"P": (2, False)} and picks == {"G": 1, "H": 1}
    # c1 agreed on {3}, c2 on {3} | {5}: distinct only through the union (an intersection would leave c2 no page)
    q = _pair("Q", "q", [Y3, Y3], [Y3, N], [("c2", "G", Y5)])
    assert challenge_score.decide(_records(q))[0] == {"Q": (2, False)}       # c1 {3}, c2 {3, 5}: 3 and 5


def test_the_first_problem_of_each_kind():
    missing = _pair("M", "q", [Y3, N], [N, N])
    assert challenge_score.decide(_records(missing))[1]["first_problem"] == \
        "M / c1: the streams disagree and no tie-break is recorded"
    wrong = _pair("W", "q", [Y3, N], [N, N], [("c1", "H", Y3)])
    tally = challenge_score.decide(_records(wrong))[1]
    assert tally["first_problem"] == "W / c1: records select H, the tie-break answer selects G"
    both = [_pair("A", "q", [Y3, N], [N, N], [("c1", "H", Y3)]), _pair("B", "r", [Y3, N], [N, N])]
    assert challenge_score.decide(_records(*both))[1]["first_problem"] == \
        "A / c1: records select H, the tie-break answer selects G"
    clean = challenge_score.decide(_records(_pair("C", "q", [Y3, N], [Y35, N])))    # agree (different pages)
    assert clean[0] == {"C": (1, False)} and clean[1]["first_problem"] == ""


def test_three_unique_streams_are_refused_with_the_near_duplicate_named():
    p = _pair("P", "q", [Y3, N], [N, N])
    p.streams["K"] = [Y5, N]
    decided, tally, picks, duplicates = challenge_score.decide(_records(p, streams=("G", "H", "K")))
    near = ("streams G and H agree on 0 of 1 pairs and differ on P (%s): a duplicate export that was changed, or "
            "streams swapped for that pair" % RESPONSES)
    assert decided is None and picks == {"G": 0, "H": 0, "K": 0} and duplicates == {}
    assert tally["error"] == ("expected two unique response streams after collapsing duplicates, found 3 (G, H, K)"
                              "; " + near)
    assert tally["first_problem"] == near and tally["streams"] == 3 and tally["unique_streams"] == 3
    assert tally["conditions"] == 0 and tally["gate_failures"] == 0
    only = _pair("P", "q", [Y3, N], [Y3, N])
    decided, tally, picks, duplicates = challenge_score.decide(_records(only, streams=("G", "H")))
    assert decided is None and duplicates == {"H": "G"} and picks == {"G": 0}
    assert tally["error"] == "expected two unique response streams after collapsing duplicates, found 1 (G)"
    assert tally["first_problem"] == "" and tally["duplicate_streams_collapsed"] == 1


def _many(n_pairs, differ):
    pairs = []
    for i in range(n_pairs):
        p = _pair("P%03d" % i, "q%03d" % i, [Y3, N], [Y3, N])
        if i in differ:
            p.streams["H"] = [N, N]
        pairs.append(p)
    return pairs


def test_near_duplicates_are_streams_that_differ_on_at_most_one_pair_in_a_hundred():
    """200 pairs: two streams that differ on 2 of them are a near duplicate (1 in 100), on 3 they are not; the
    message names at most three pairs."""
    recs = _records(*_many(200, {5, 9}), streams=("G", "H"))
    assert challenge_score.near_duplicate(recs, ["G", "H"]) == (
        "; streams G and H agree on 198 of 200 pairs and differ on P005, P009 (%s): a duplicate export that was "
        "changed, or streams swapped for that pair" % RESPONSES)
    assert challenge_score.near_duplicate(_records(*_many(200, {5, 9, 11}), streams=("G", "H")), ["G", "H"]) == ""
    assert challenge_score.near_duplicate(_records(*_many(3, set()), streams=("G", "H")), ["G", "H"]) == ""
    assert challenge_score.near_duplicate(_records(*_many(3, {0, 1}), streams=("G", "H")), ["G", "H"]) == ""
    assert challenge_score.near_duplicate(_records(*_many(3, {1}), streams=("G", "H")), ["G", "H"]) != ""
    recs = _records(*_many(400, {1, 2, 3, 4}), streams=("G", "H"))
    assert "differ on P001, P002, P003 (" in challenge_score.near_duplicate(recs, ["G", "H"])


def test_collapse_needs_identity_on_pages_and_quote_too():
    """A stream equal to G except for one quote, or one page, is its own stream."""
    p = _pair("P", "q", [Y3, N], [N, N])
    p.streams["J"] = [Answer(True, [3], "the plan sets", POOL), N]
    p.streams["K"] = [Answer(True, [5], "the plan sets out", POOL), N]
    p.streams["L"] = [Y3, N]
    unique, duplicates = challenge_score.collapse(_records(p, streams=("G", "G2", "H", "J", "K", "L")))
    assert unique == ["G", "H", "J", "K"] and duplicates == {"G2": "G", "L": "G"}


def test_outcomes_and_changes_by_hand():
    pairs = _six()
    recs = _records(*pairs)
    decided = challenge_score.decide(recs)[0]
    out, transitions, first = challenge_score.outcomes(recs, decided)
    assert out == {"targets": 3, "controls": 3, "targets_changed": 2, "targets_to_gold": 2, "controls_retained": 1,
                   "distinct_page_blocked": 1, "decision_mismatches": 2, "pairs": 6, "conditions": 12}
    assert transitions == {"target": {"1->2": 2, "1->1": 1}, "control": {"1->0": 2, "1->1": 1}}
    assert first == ("P2: the responses give grade 0 (blocked False), the decisions file 1 (blocked False); records: "
                     "a.jsonl:1, 2; b.jsonl:7")
    assert challenge_score.changes(recs, decided) == {("q1", "d"): 2, ("q2", "d"): 0, ("q4", "d"): 0,
                                                      ("q5", "d"): 2}


def test_a_tie_broken_condition_takes_the_pages_of_the_stream_it_sides_with():
    """c1 agreed on page 3.  c2: the tie-break (page 3) sides with the stream that gave page 5, so c2 stands on 3 and
    5 and the pair is gold on distinct pages; the other stream (no page) would leave c2 on 3 only (blocked)."""
    first = _pair("F", "q", [Y3, Y5], [Y3, N], [("c2", "G", Y3)])
    assert challenge_score.decide(_records(first))[0] == {"F": (2, False)}
    second = _pair("S", "q", [Y3, N], [Y3, Y5], [("c2", "H", Y3)])
    assert challenge_score.decide(_records(second))[0] == {"S": (2, False)}


def test_outcomes_count_every_blocked_pair_and_every_retained_control():
    """Two controls kept at grade 1 by the distinct-page gate, then a target raised to gold: blocked 2, retained 2,
    no mismatch (the first problem is empty)."""
    y3b = Answer(True, [3], "sets out the grievance", POOL)              # another quote on page 3: H is its own stream
    pairs = [_pair("C1", "q1", [Y3, Y3], [y3b, y3b], role="control", decision=(1, True)),
             _pair("C2", "q2", [Y5, Y5], [Y5, Y5], role="control", decision=(1, True)),
             _pair("T1", "q3", [Y3, Y5], [Y3, Y5], decision=(2, False))]
    recs = _records(*pairs)
    decided = challenge_score.decide(recs)[0]
    out, transitions, first = challenge_score.outcomes(recs, decided)
    assert out == {"targets": 1, "controls": 2, "targets_changed": 1, "targets_to_gold": 1, "controls_retained": 2,
                   "distinct_page_blocked": 2, "decision_mismatches": 0, "pairs": 3, "conditions": 6}
    assert transitions == {"target": {"1->2": 1}, "control": {"1->1": 2}} and first == ""
