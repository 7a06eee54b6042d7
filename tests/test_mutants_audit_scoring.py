"""labelaudit/audit_scoring worked by hand on small audit records built in memory (no files): every counter,
share, kappa, table key and first-problem message the scoring functions return, on pairs chosen so that each
counter is at least 2 and the counters differ -- the kills of the mutants mutmut left alive in
labelaudit/audit_scoring.py (docs/recipes.md#mutation-testing).

Pages of document ``d1``..``d3`` (both releases): page 1 "The quick brown fox jumps", page 2 "over the lazy dog
today", page 3 "nothing to see here at all", pages 4-12 filler ending "the quick brown fox".  ``GOOD1`` is on
pages 1 and 4-12, ``GOOD2`` on page 2, ``GOOD3`` on page 3; ``BAD`` is on no page; ``SHORT`` is a trivial quote.
The initial responders are A and E, the adjudication responders R1, R2, R3."""

from types import SimpleNamespace

import pytest

from nclue.labelaudit import audit_scoring
from nclue.labelaudit.audit_records import AuditRecords, ConditionDecision, Pair
from nclue.labelaudit.rules import Answer
from nclue.stats.agreement import wilson

SHOWN = (1, 2, 3)
POOL9 = (1, 2, 3, 4, 5, 6, 7, 8, 9)
TEXT = {1: "The quick brown fox jumps", 2: "over the lazy dog today", 3: "nothing to see here at all"}
TEXT.update({pg: "filler words of page %d: the quick brown fox" % pg for pg in range(4, 13)})
GOOD1, GOOD2, GOOD3 = "quick brown fox", "the lazy dog", "nothing to see here"
BAD, SHORT = "not on any page", "fox"
ADJ = ("R1", "R2", "R3")


def Y(pages, quote=GOOD1, shown=SHOWN):
    return Answer(True, pages, quote, shown)


def N(pages=(), quote="", shown=SHOWN):
    return Answer(False, pages, quote, shown)


def mkpair(pid, n=2, g0=1, release="v2", source="S1", docid="d1", a=None, e=None, decision=None):
    p = Pair(pid, release, source, "gold" if g0 == n else "subset", "q-" + pid, docid, n, g0)
    p.cids = tuple("c%d" % (i + 1) for i in range(n))
    p.labels = tuple("label %d" % (i + 1) for i in range(n))
    p.shown = (SHOWN,) * n
    if a is not None:
        p.initial = {"A": list(a), "E": list(e)}
    p.decision = decision
    return p


def queue(p, cid, pool=SHOWN, votes=(), decision=None):
    """Queue condition ``cid`` of ``p`` with adjudication answers ``votes`` (R1, R2, R3) and its decision."""
    p.queue[cid] = tuple(pool)
    if votes:
        p.adjudication[cid] = dict(zip(ADJ, votes))
    if decision is not None:
        p.condition_decisions[cid] = decision


def cd(votes, majority, override=None, pages=(), reason="", final=False):
    return ConditionDecision(votes, majority, override, tuple(pages), reason, final, 7)


def records(pairs, adj=ADJ):
    pages = {(r, d, pg): t for r in ("v1", "v2") for d in ("d1", "d2", "d3") for pg, t in TEXT.items()}
    return AuditRecords({p.pair: p for p in pairs}, pages, ("A", "E"), adj)


# --- integrity -------------------------------------------------------------------------------------------


def _integrity_records():
    p0 = mkpair("p0", a=[Y((1,)), N()], e=[Y((1, 2)), N()])
    # adjudication recorded c2 first: the table reads it in condition order, so c1's failure is the first one
    p0.adjudication = {
        "c2": {"R1": Y((2,), GOOD2), "R2": N(), "R3": Y((3,), BAD)},
        "c1": {"R1": N(), "R2": Y((1,), SHORT), "R3": N()},
    }
    p1 = mkpair("p1", a=[Y((1, 2)), Y((3,), BAD)], e=[N(), Y((2, 3), "  ")])
    return records([p0, p1])


def _tally(pos, neg, pages, quotes, exact, page_quotes, page_exact, failures):
    return {
        "positive": pos,
        "negative": neg,
        "pages": pages,
        "quotes": quotes,
        "quotes_exact": exact,
        "page_quotes": page_quotes,
        "page_quotes_exact": page_exact,
        "gate_failures": failures,
    }


def test_integrity_counts_per_stage_and_responder():
    """A: p0 c1 (1 page, passes), p1 c1 (2 pages, passes), p1 c2 (1 page, a quote on no page); E: p0 c1 (2 pages,
    passes), p1 c2 (2 pages, a blank quote: no quote, fails); R1-R3 answer p0's two queued conditions.  The
    first failure is p0's adjudication of c1 (conditions in order), R2's trivial quote."""
    table, first = audit_scoring.integrity(_integrity_records())
    assert list(table.items()) == [
        (("adjudication", "R1"), _tally(1, 1, 1, 1, 1, 1, 1, 0)),
        (("adjudication", "R2"), _tally(1, 1, 1, 1, 0, 1, 0, 1)),
        (("adjudication", "R3"), _tally(1, 1, 1, 1, 0, 1, 0, 1)),
        (("adjudication", "all"), _tally(3, 3, 3, 3, 1, 3, 1, 2)),
        (("initial", "A"), _tally(3, 1, 4, 3, 2, 4, 3, 1)),
        (("initial", "E"), _tally(2, 2, 4, 1, 1, 2, 2, 1)),
        (("initial", "all"), _tally(5, 3, 8, 4, 3, 6, 5, 2)),
    ]
    assert first == "pair p0, c1, responder R2: the quote is trivial (fewer than 3 words)"


def test_integrity_first_failure_is_the_first_in_reading_order():
    """Two failing initial answers: the message names the first (p1's A on c2), not the later E answer."""
    rec = _integrity_records()
    del rec.pairs["p0"]
    table, first = audit_scoring.integrity(rec)
    assert first == "pair p1, c2, responder A: the quote is not on any selected page"
    assert sorted(table) == [("initial", "A"), ("initial", "E"), ("initial", "all")]


def test_integrity_of_clean_answers_has_no_failure():
    """Every answer passes the gate: no failure message and no gate failures."""
    p = mkpair("p", a=[Y((1,)), Y((2,), GOOD2)], e=[Y((1,)), N()])
    table, first = audit_scoring.integrity(records([p]))
    assert first == ""
    assert table[("initial", "all")] == _tally(3, 1, 3, 3, 3, 3, 3, 0)


# --- packet structure ------------------------------------------------------------------------------------


def test_packet_structure_counts_pairs_conditions_contexts_and_cells():
    """Three pairs: v1/S1 gold with n=2 (shown 3 + 2 pages), v2/S2 subset n=3 (1 + 2 + 3), v2/S2 subset n=2
    (3 + 3): 7 conditions, 17 page contexts, 1 pre-gold, 2 pre-subset, 1 pair with three conditions."""
    a = mkpair("a", g0=2, release="v1")
    a.shown = ((1, 2, 3), (4, 5))
    b = mkpair("b", n=3, source="S2")
    b.shown = ((1,), (1, 2), (1, 2, 3))
    c = mkpair("c", source="S2")
    out = audit_scoring.packet_structure(records([a, b, c]))
    assert list(out.items()) == [
        ("conditions", 7),
        ("n3_pairs", 1),
        ("page_contexts", 17),
        ("pairs", 3),
        ("pre_gold", 1),
        ("pre_subset", 2),
        ("v1_S1_gold", 1),
        ("v2_S2_subset", 2),
    ]


# --- agreement -------------------------------------------------------------------------------------------


def _agreement_records():
    return records(
        [
            mkpair("g1", a=[Y((1,)), Y((2,), GOOD2)], e=[Y((1,)), N()]),  # grades 2, 1
            mkpair("g2", a=[N(), N()], e=[N(), N()]),  # 0, 0
            mkpair("g3", n=3, a=[Y((1,)), N(), Y((2,), GOOD2)], e=[Y((1, 2)), N(), Y((2,), GOOD2)]),  # 2, 2
            mkpair("g4", a=[Y((1, 2)), N()], e=[Y((2, 1)), N()]),  # 1, 1
        ]
    )


def test_agreement_worked_by_hand():
    """Grades agree on 3 of 4 pairs; conditions on 8 of 9 (g1's c2 splits); 4 conditions both positive, 3 with
    the same page set (g3's c1 differs; g4's c1 is the same set in another order); 4 both negative.  Confusion
    m[A][E]: (2,1), (0,0), (2,2), (1,1): kappa (3/4 - 5/16) / (11/16) = 7/11, linear kappa 1 - (1/12)/(7/24)
    = 5/7; the condition table [[4, 0], [1, 4]]: kappa (8/9 - 40/81) / (41/81) = 32/41."""
    out = audit_scoring.agreement(_agreement_records())
    lo, hi = wilson(3, 4)
    clo, chi = wilson(8, 9)
    expect = {
        "pairs": 4,
        "conditions": 9,
        "grade_agree": 3,
        "grade_agreement": 75.0,
        "condition_agree": 8,
        "condition_agreement": 800 / 9,
        "both_positive": 4,
        "page_set_agree": 3,
        "page_set_agreement": 75.0,
        "page_set_agree_all": 7,
        "page_set_agreement_all": 700 / 9,
        "positive_A": 5,
        "positive_E": 4,
        "grade_agreement_wilson": [100.0 * lo, 100.0 * hi],
        "confusion": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 0]],
        "grade_kappa_linear": pytest.approx(5 / 7, abs=1e-12),
        "grade_kappa": pytest.approx(7 / 11, abs=1e-12),
        "condition_agreement_wilson": [100.0 * clo, 100.0 * chi],
        "condition_kappa": pytest.approx(32 / 41, abs=1e-12),
        "condition_table": [[4, 0], [1, 4]],
    }
    assert out == expect
    assert sorted(out) == sorted(expect)
    assert 0 < lo < 0.75 < hi < 1


def test_agreement_over_chosen_pairs_and_over_none():
    """``pairs`` narrows the statistics (g1 and g2: grades agree on g2 only, conditions on 3 of 4, the one
    both-positive condition on the same page); no pairs at all gives counts 0, shares None and no intervals."""
    rec = _agreement_records()
    out = audit_scoring.agreement(rec, [rec.pairs["g1"], rec.pairs["g2"]])
    assert (out["pairs"], out["conditions"], out["grade_agreement"], out["condition_agreement"]) == (2, 4, 50.0, 75.0)
    assert (out["page_set_agreement"], out["page_set_agreement_all"]) == (100.0, 75.0)
    assert (out["positive_A"], out["positive_E"]) == (2, 1)
    assert out["confusion"] == [[1, 0, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]]
    assert out["grade_kappa"] == pytest.approx(1 / 3, abs=1e-12)  # (1/2 - 1/4) / (3/4)
    assert audit_scoring.agreement(rec, []) == {
        "pairs": 0,
        "conditions": 0,
        "grade_agree": 0,
        "grade_agreement": None,
        "condition_agree": 0,
        "condition_agreement": None,
        "both_positive": 0,
        "page_set_agree": 0,
        "page_set_agreement": None,
        "page_set_agree_all": 0,
        "page_set_agreement_all": None,
        "positive_A": 0,
        "positive_E": 0,
    }


# --- the policy ------------------------------------------------------------------------------------------


def _policy_pairs(s, decisions=True):
    """Five pairs (suffix ``s``): keep (pk), accept-increase (pi), a split adjudicated to gold with an override
    (ps), a gold blocked by the distinct-page gate (pb), a gold decreased to 0 (pz)."""
    pk = mkpair("pk" + s, a=[Y((1,)), N()], e=[Y((2,), GOOD2), N()], decision=(2, "adjudicated"))
    pi = mkpair(
        "pi" + s,
        source="S2",
        a=[Y((1,)), Y((2,), GOOD2)],
        e=[Y((1,)), Y((2, 3), GOOD2)],
        decision=(2, "accept-increase"),
    )
    ps = mkpair(
        "ps" + s,
        n=3,
        g0=2,
        docid="d2",
        a=[Y((1,)), Y((2,), GOOD2), N()],
        e=[Y((1,)), N(), N()],
        decision=(3, "adjudicated"),
    )
    queue(ps, "c2", (1, 2, 3, 4, 5, 6), [Y((2,), GOOD2), Y((3,), GOOD3), N()], cd(2, True, final=True))
    queue(
        ps, "c3", (1, 2, 3, 4, 5, 6, 7), [N(), Y((3,), GOOD3), Y((3,), GOOD3)], cd(2, True, True, (3,), "admin", True)
    )
    pb = mkpair("pb" + s, release="v1", a=[Y((1,)), Y((1,))], e=[Y((1,)), Y((1,))], decision=(1, "adjudicated"))
    queue(pb, "c2", POOL9[:6], [Y((2,), GOOD2), N(), N()], cd(1, False))
    pz = mkpair(
        "pz" + s, g0=2, release="v1", source="S2", docid="d3", a=[N(), N()], e=[N(), N()], decision=(1, "adjudicated")
    )
    queue(pz, "c1", POOL9[:8], [N(), N(), N()], cd(0, False))
    queue(pz, "c2", POOL9, [N(), N(), N()], cd(0, False))
    return [pk, pi, ps, pb, pz]


def test_decide_worked_by_hand():
    """Each pair's decision and support: ps's c1 is locked (1), c2 has two valid votes (pages 2 and 3), c3 the
    override's page 3: gold on pages 1, 2, 3; pb's two locked conditions share page 1, so gold is blocked."""
    rec = records(_policy_pairs(""))
    got = {pid: audit_scoring.decide(rec, p) for pid, p in rec.pairs.items()}
    assert got == {
        "pk": (1, "keep", False, None),
        "pi": (2, "accept-increase", False, ((1,), (2, 3))),
        "ps": (3, "adjudicated", False, ((1,), (2, 3), (3,))),
        "pb": (1, "adjudicated", True, ((1,), (1,))),
        "pz": (0, "adjudicated", False, ((), ())),
    }


def test_decide_without_the_override_takes_the_votes():
    """ps without its condition records: c3 has two valid votes for page 3 (R2, R3); with R3's quote off its
    page only one, and c3 is negative (grade 2)."""
    rec = records(_policy_pairs(""))
    ps = rec.pairs["ps"]
    ps.condition_decisions = {}
    assert audit_scoring.decide(rec, ps) == (3, "adjudicated", False, ((1,), (2, 3), (3,)))
    ps.adjudication["c3"]["R3"] = Y((3,), BAD)
    assert audit_scoring.decide(rec, ps) == (2, "adjudicated", False, ((1,), (2, 3), ()))
    ps.condition_decisions["c3"] = cd(1, False, True, (2, 3), "admin", True)
    assert audit_scoring.decide(rec, ps) == (3, "adjudicated", False, ((1,), (2, 3), (2, 3)))
    ps.condition_decisions["c2"] = cd(2, True, False, (), "admin", False)
    assert audit_scoring.decide(rec, ps) == (2, "adjudicated", False, ((1,), (), (2, 3)))


def test_decide_checks_the_quotes_on_the_pairs_own_pages():
    """The consensus increase passes the gate on the pair's pages; without them (a document whose pages are
    not in the page file) the quotes fail and, with nothing queued, the pair needs adjudication."""
    rec = records(_policy_pairs(""))
    pi = rec.pairs["pi"]
    assert audit_scoring.decide(rec, pi)[:2] == (2, "accept-increase")
    pi.docid = "d9"
    assert audit_scoring.decide(rec, pi) == (1, "needs-adjudication", False, None)
    pi.docid, pi.release = "d1", "v3"
    assert audit_scoring.decide(rec, pi) == (1, "needs-adjudication", False, None)


def test_policy_worked_by_hand():
    """Two copies of the five pairs: routes keep 2, accept 2, adjudicated 6; consensus increases pi, pb (4),
    decrease pz (2), split ps (2); queued conditions ps c2 (split), ps c3, pz c1, pz c2 (both negative), pb c2
    (both positive); locked ps c1, pb c1; pb blocked; pk and pz disagree with decisions.jsonl (4), the first
    message pk-a's."""
    out, decided = audit_scoring.policy(records(_policy_pairs("-a") + _policy_pairs("-b")))
    assert decided == {
        "pk-a": 1,
        "pi-a": 2,
        "ps-a": 3,
        "pb-a": 1,
        "pz-a": 0,
        "pk-b": 1,
        "pi-b": 2,
        "ps-b": 3,
        "pb-b": 1,
        "pz-b": 0,
    }
    assert out == {
        "keep": 2,
        "accept_increase": 2,
        "adjudicated_pairs": 6,
        "unresolved_pairs": 0,
        "consensus_increase": 4,
        "consensus_decrease": 2,
        "split": 2,
        "queued_pairs": 6,
        "queued_conditions": 10,
        "queued_split_conditions": 2,
        "queued_both_negative_conditions": 6,
        "queued_both_positive_conditions": 2,
        "locked_conditions": 4,
        "gate_blocked": 2,
        "decision_mismatches": 4,
        "first_mismatch": "pair pk-a: the records give grade 1 (keep), decisions.jsonl says 2 (adjudicated)",
        "transitions": {"1->1": 4, "1->2": 2, "2->0": 2, "2->3": 2},
        "transition_splits": {
            "1->2": {"to_gold": 2, "partial": 0},
            "2->0": {"to_gold": 0, "partial": 2},
            "2->3": {"to_gold": 2, "partial": 0},
        },
        "strata": {
            ("v1", "S1"): {"sampled": 2, "corrected": 0},
            ("v1", "S2"): {"sampled": 2, "corrected": 2},
            ("v1", "all"): {"sampled": 4, "corrected": 2},
            ("v2", "S1"): {"sampled": 4, "corrected": 2},
            ("v2", "S2"): {"sampled": 2, "corrected": 2},
            ("v2", "all"): {"sampled": 6, "corrected": 4},
        },
        "changed": 6,
        "to_gold": 4,
        "from_gold": 2,
        "to_zero": 2,
        "net_gold": 2,
    }
    assert list(out["transitions"]) == ["1->1", "1->2", "2->0", "2->3"]
    assert list(out["strata"]) == sorted(out["strata"])
    assert list(out["transition_splits"]) == ["1->2", "2->0", "2->3"]


def test_policy_counts_a_decrease_to_partial_and_an_unresolved_pair():
    """A gold decreased by consensus with nothing queued stays unresolved (its grade kept): the message says it
    needs adjudication; a pair whose decision matches adds no mismatch."""
    pu = mkpair("pu", g0=2, a=[Y((1,)), N()], e=[Y((1,)), N()], decision=(2, "keep"))
    pv = mkpair("pv", g0=2, a=[Y((1,)), N()], e=[Y((1,)), N()], decision=(2, "keep"))
    pk = mkpair("pk", a=[Y((1,)), N()], e=[Y((2,), GOOD2), N()], decision=(1, "keep"))
    out, decided = audit_scoring.policy(records([pk, pu, pv]))
    assert decided == {"pk": 1, "pu": 2, "pv": 2}
    assert (out["keep"], out["unresolved_pairs"], out["consensus_decrease"]) == (1, 2, 2)
    assert out["decision_mismatches"] == 2
    assert out["first_mismatch"] == "pair pu needs adjudication but has no queued responses"
    assert out["transitions"] == {"1->1": 1, "2->2": 2} and out["transition_splits"] == {}
    assert (out["changed"], out["to_gold"], out["from_gold"], out["to_zero"], out["net_gold"]) == (0, 0, 0, 0, 0)


def test_policy_splits_a_changed_grade_into_gold_and_partial():
    """Two pairs increased 0 -> 1 of 2 (partial) and one 1 -> 2 (gold): the split counts each once."""
    p1 = mkpair("p1", g0=0, a=[Y((1,)), N()], e=[Y((1,)), N()], decision=(1, "accept-increase"))
    p2 = mkpair("p2", g0=0, a=[N(), Y((2,), GOOD2)], e=[N(), Y((2,), GOOD2)], decision=(1, "accept-increase"))
    p3 = mkpair("p3", a=[Y((1,)), Y((2,), GOOD2)], e=[Y((1,)), Y((2,), GOOD2)], decision=(2, "accept-increase"))
    out, _ = audit_scoring.policy(records([p1, p2, p3]))
    assert out["transition_splits"] == {"0->1": {"to_gold": 0, "partial": 2}, "1->2": {"to_gold": 1, "partial": 0}}
    assert (out["accept_increase"], out["consensus_increase"], out["decision_mismatches"]) == (3, 3, 0)
    assert (out["changed"], out["to_gold"], out["from_gold"], out["net_gold"]) == (3, 1, 0, 1)


def test_repaired_pairs_and_their_gold_support():
    """v2's repaired pairs are pi (1 -> 2) and ps (2 -> 3); v1's pz (2 -> 0).  The gold support joins each
    condition's inventory pages (pi's c1: pages 5 and 1 of d1; ps's c3: page 9 of d2) with the decision's;
    a repaired pair whose query has another n (ps-a, a query of n = 4 here) is not a gold."""
    rec = records(_policy_pairs("-a") + _policy_pairs("-b"))
    assert audit_scoring.repaired_pairs(rec, "v2") == {
        ("q-pi-a", "d1"): (1, 2, ((1,), (2, 3))),
        ("q-ps-a", "d2"): (2, 3, ((1,), (2, 3), (3,))),
        ("q-pi-b", "d1"): (1, 2, ((1,), (2, 3))),
        ("q-ps-b", "d2"): (2, 3, ((1,), (2, 3), (3,))),
    }
    assert audit_scoring.repaired_pairs(rec, "v1") == {
        ("q-pz-a", "d3"): (2, 0, ((), ())),
        ("q-pz-b", "d3"): (2, 0, ((), ())),
    }

    def query(n):
        return SimpleNamespace(n=n, conditions=[SimpleNamespace(cid="c%d" % (i + 1)) for i in range(n)])

    queries = {
        "q-pi-a": query(2),
        "q-ps-a": query(4),
        "q-pi-b": query(2),
        "q-ps-b": query(3),
        "q-pz-a": query(2),
        "q-pz-b": query(2),
    }
    inventory = {
        ("d1", "c1"): SimpleNamespace(pages=(5, 1)),
        ("d2", "c3"): SimpleNamespace(pages=(9,)),
        ("d3", "c1"): SimpleNamespace(pages=(4,)),
    }
    assert audit_scoring.repaired_gold_support(rec, "v2", queries, inventory) == {
        ("q-pi-a", "d1"): [[1, 5], [2, 3]],
        ("q-pi-b", "d1"): [[1, 5], [2, 3]],
        ("q-ps-b", "d2"): [[1], [2, 3], [3, 9]],
    }
    assert audit_scoring.repaired_gold_support(rec, "v1", queries, inventory) == {}


# --- condition decisions ---------------------------------------------------------------------------------


def _decision_pairs(s):
    """ps-like pair: c2 two valid votes (record right), c3 one valid vote (R1's quote is off its page) and a
    positive override (right); qm: c1 queued without a record, c2 three valid votes but the record says 2,
    no majority and a negative override, final True."""
    ps = mkpair("ps" + s, n=3, g0=2, a=[Y((1,)), Y((2,), GOOD2), N()], e=[Y((1,)), N(), N()])
    queue(ps, "c2", SHOWN, [Y((2,), GOOD2), Y((3,), GOOD3), N()], cd(2, True, final=True))
    queue(ps, "c3", SHOWN, [Y((2,), BAD), N(), Y((3,), GOOD3)], cd(1, False, True, (3,), "admin", True))
    qm = mkpair("qm" + s, a=[N(), N()], e=[N(), N()])
    queue(qm, "c1", SHOWN, [N(), N(), N()])
    queue(qm, "c2", SHOWN, [Y((1,)), Y((2,), GOOD2), Y((3,), GOOD3)], cd(2, False, False, (), "admin", True))
    return [ps, qm]


def test_condition_decisions_counted_by_hand():
    """Two copies: 6 recorded conditions, 2 missing, 2 vote, 2 majority and 2 final mismatches, 4 overrides
    (2 to positive, 2 to negative); the first problem is qm-a's missing record."""
    out, first = audit_scoring.condition_decisions(records(_decision_pairs("-a") + _decision_pairs("-b")))
    assert out == {
        "conditions": 6,
        "missing": 2,
        "vote_mismatches": 2,
        "majority_mismatches": 2,
        "final_mismatches": 2,
        "overrides": 4,
        "overrides_to_positive": 2,
        "overrides_to_negative": 2,
    }
    assert first == "pair qm-a / c1: queued but has no decision record"


@pytest.mark.parametrize(
    "record, message",
    [
        (cd(2, True, final=True), "pair q / c2: 3 valid positive answers, the record says 2"),
        (cd(3, False, final=True), "pair q / c2: majority is True, the record says False"),
        (cd(3, True, final=False), "pair q / c2: final should be True, the record says False"),
        (cd(3, True, False, (), "admin", True), "pair q / c2: final should be False, the record says True"),
    ],
)
def test_condition_decision_messages(record, message):
    """One queued condition with three valid positive votes and one wrong field of its record (after a queued
    condition decided right, and an unqueued one): the message names the pair, the condition and the values."""
    q = mkpair("q", n=3, g0=2, a=[Y((1,)), N(), N()], e=[Y((1,)), N(), N()])
    queue(q, "c3", SHOWN, [N(), N(), N()], cd(0, False))
    queue(q, "c2", SHOWN, [Y((1,)), Y((2,), GOOD2), Y((3,), GOOD3)], record)
    out, first = audit_scoring.condition_decisions(records([q]))
    assert first == message
    assert out["conditions"] == 2 and out["missing"] == 0
    assert out["vote_mismatches"] + out["majority_mismatches"] + out["final_mismatches"] == 1


def test_condition_decisions_majority_message_at_two_votes():
    """Exactly two valid votes are a majority: a record saying there is none is named with "majority is True"."""
    q = mkpair("q", a=[N(), N()], e=[N(), N()])
    queue(q, "c2", SHOWN, [Y((1,)), N(), Y((2,), GOOD2)], cd(2, False, final=True))
    out, first = audit_scoring.condition_decisions(records([q]))
    assert first == "pair q / c2: majority is True, the record says False"
    assert (out["vote_mismatches"], out["majority_mismatches"], out["final_mismatches"]) == (0, 1, 0)


def test_condition_decisions_vote_needs_the_gate():
    """Two positive votes of which one fails the gate: one valid vote, no majority; a record saying so is
    right, one saying two votes is a vote and a majority mismatch."""
    q = mkpair("q", a=[N(), N()], e=[N(), N()])
    queue(q, "c1", SHOWN, [Y((1,)), Y((2,), BAD), N()], cd(1, False))
    assert audit_scoring.condition_decisions(records([q]))[1] == ""
    q.condition_decisions["c1"] = cd(2, True, final=True)
    out, first = audit_scoring.condition_decisions(records([q]))
    assert first == "pair q / c1: 1 valid positive answers, the record says 2"
    assert (out["vote_mismatches"], out["majority_mismatches"], out["final_mismatches"]) == (1, 1, 1)


# --- adjudication agreement ------------------------------------------------------------------------------


def test_adjudication_agreement_worked_by_hand():
    """Queued items: ps c2 [T,T,F], ps c3 [F,T,T], pb c2 [T,F,F], pz c1 and c2 [F,F,F]: 2 unanimous of 5,
    5 positive votes; Fleiss: P_i 1/3, 1/3, 1/3, 1, 1 (mean 3/5), P_e = (1/3)^2 + (2/3)^2 = 5/9, kappa
    (3/5 - 5/9) / (4/9) = 1/10; pairwise R1-R2 3/5, R1-R3 2/5, R2-R3 4/5; pools of 6, 7, 6, 8, 9 pages."""
    out = audit_scoring.adjudication(records(_policy_pairs("")))
    assert out == {
        "pairs": 3,
        "conditions": 5,
        "unanimous": 2,
        "non_unanimous": 3,
        "unanimous_share": 40.0,
        "positive_votes": 5,
        "fleiss_kappa": pytest.approx(0.1, abs=1e-12),
        "pairwise_agreement": {"R1-R2": 60.0, "R1-R3": 40.0, "R2-R3": 80.0},
        "pool_pages": [6, 9],
        "displayed_pages": 36,
    }
    assert list(out["pairwise_agreement"]) == ["R1-R2", "R1-R3", "R2-R3"]


def test_adjudication_without_three_responders_or_items():
    """Two adjudication responders, or nothing queued: only the pair and condition counts."""
    assert audit_scoring.adjudication(records(_policy_pairs(""), adj=("R1", "R2"))) == {"pairs": 3, "conditions": 5}
    assert audit_scoring.adjudication(records([mkpair("x", a=[N(), N()], e=[N(), N()])])) == {
        "pairs": 0,
        "conditions": 0,
    }


# --- revised qrels and their differences -----------------------------------------------------------------


def test_revised_applies_the_decisions_of_one_release():
    """v2's pairs: q-a's d1 raised to 2, q-b's d1 removed (grade 0), q-c (not in the qrels) gets d1 at 1, q-d's
    d1 removed though absent; the v1 pair is left alone and the initial qrels are not changed."""
    pairs = [mkpair("e", release="v1"), mkpair("a"), mkpair("b"), mkpair("c"), mkpair("d")]
    initial = {"q-a": {"d1": 1, "d7": 2}, "q-b": {"d1": 1}, "q-d": {"d5": 1}, "q-e": {"d1": 1}}
    decided = {"a": 2, "b": 0, "c": 1, "d": 0, "e": 0}
    out = audit_scoring.revised(initial, records(pairs), decided, "v2")
    assert out == {"q-a": {"d1": 2, "d7": 2}, "q-b": {}, "q-c": {"d1": 1}, "q-d": {"d5": 1}, "q-e": {"d1": 1}}
    assert initial == {"q-a": {"d1": 1, "d7": 2}, "q-b": {"d1": 1}, "q-d": {"d5": 1}, "q-e": {"d1": 1}}


def test_qrel_differences_sorted_with_absent_as_zero():
    """An explicit 0 equals an absent pair; a query on one side only differs in every graded pair."""
    derived = {"q2": {"d2": 1, "d1": 0}, "q1": {"d1": 2, "d3": 1}}
    released = {"q1": {"d1": 1, "d3": 1, "d4": 1}, "q3": {"d1": 2}}
    assert audit_scoring.qrel_differences(derived, released) == [
        ("q1", "d1", 2, 1),
        ("q1", "d4", 0, 1),
        ("q2", "d2", 1, 0),
        ("q3", "d1", 0, 2),
    ]
    assert audit_scoring.qrel_differences(released, released) == []
    assert audit_scoring.qrel_differences({"q1": {}}, {"q1": {"d1": 0}, "q2": {"d2": 0}}) == []


# --- the expanded pool -----------------------------------------------------------------------------------

CAND1 = {
    "prior_selected": [2, 1, 4],
    "construction": [5],
    "original_shown": [1, 2, 3],
    "lexical": [6, 7],
    "bm25": [7],
    "ocr_fuzzy": [8],
    "random_fill": [9],
}
POOL1 = (2, 1, 4, 5, 3, 6, 7)  # merge(CAND1) = 2 1 4 5 3 6 7 8 9, cut at 7


def _pool_pairs():
    """e1: c1 queued (pool POOL1); e2: c2 queued, no construction pages (pool of 6, nothing proposed beyond the
    shown pages and bm25's three); e3: c1 and c2 queued, pools of 9 (every route) and 6; e4: nothing queued."""
    e1 = mkpair("e1", a=[Y((2, 1)), N()], e=[Y((1, 4)), N()])
    e1.queue = {"c1": POOL1}
    e1.candidates = {"c1": CAND1}
    e2 = mkpair("e2", a=[N(), N()], e=[N(), N()])
    e2.queue = {"c2": (1, 2, 3, 10, 11, 12)}
    e2.candidates = {"c2": {"original_shown": [1, 2, 3], "bm25": [10, 11, 12]}}
    e3 = mkpair("e3", a=[Y((3,)), Y((1,))], e=[N(), Y((2,))])
    e3.queue = {"c1": (3, 4, 1, 2, 5, 7, 9, 6, 8), "c2": (1, 2, 3, 4, 5, 6)}
    e3.candidates = {
        "c1": {
            "prior_selected": [3],
            "construction": [4],
            "original_shown": [1, 2, 3],
            "lexical": [5, 6],
            "bm25": [7, 8],
            "ocr_fuzzy": [9, 10],
        },
        "c2": {"prior_selected": [1, 2], "construction": [], "original_shown": [1, 2, 3], "random_fill": [4, 5, 6]},
    }
    e4 = mkpair("e4", a=[N(), N()], e=[N(), N()])
    return [e1, e2, e3, e4]


CONSTRUCTION = {("v2", "d1", "c1"): (5,), ("v2", "d1", "x"): (1,)}


def test_expanded_pool_of_valid_records():
    """Four queued conditions, pools of 7, 6, 9 and 6 pages (28 displayed, mean 7); memberships summed over
    the pools: prior 3 + 1 + 2, construction 1 + 1, shown 3 + 3 + 3 + 3, lexical 2 + 2, bm25 1 + 3 + 2,
    ocr 0 + 1 (e3's c1 pool stops at 9, before 10)."""
    pairs = _pool_pairs()
    for p in pairs:  # e3's construction: page 4 for c1, none for c2
        p.docid = "d3" if p.pair == "e3" else p.docid
    construction = dict(CONSTRUCTION)
    construction[("v2", "d3", "c1")] = (4,)
    out, first = audit_scoring.expanded_pool(records(pairs), construction)
    assert first == ""
    assert out == {
        "pairs": 3,
        "conditions": 4,
        "pool_mismatches": 0,
        "size_out_of_range": 0,
        "prior_mismatches": 0,
        "shown_mismatches": 0,
        "construction_mismatches": 0,
        "unproposed_pages": 0,
        "displayed_pages": 28,
        "pages_min": 6,
        "pages_mean": 7.0,
        "pages_max": 9,
        "memberships": {
            "prior_selected": 6,
            "construction": 2,
            "original_shown": 12,
            "lexical": 4,
            "bm25": 6,
            "ocr_fuzzy": 1,
        },
    }


@pytest.mark.parametrize(
    "damage, key, why",
    [
        (lambda c, q: c.update(lexical=[7, 6]), "pool_mismatches", "the pool is not the merged candidates"),
        (
            lambda c, q: c.update(prior_selected=[2, 1, 4, 4]),
            "prior_mismatches",
            "prior_selected is not the initial evaluators' pages",
        ),
        (
            lambda c, q: c.update(original_shown=[1, 2, 3, 4]),
            "shown_mismatches",
            "original_shown is not the packet's shown pages",
        ),
        (
            lambda c, q: c.update(construction=[5, 5]),
            "construction_mismatches",
            "construction is not the inventory's pages",
        ),
        (lambda c, q: q.update(c1=POOL1[:5]), "size_out_of_range", "pool of 5 pages"),
    ],
)
def test_expanded_pool_names_each_problem(damage, key, why):
    """One damage of e1's c1 (after the valid e4 and e2): its counter is 1, the others 0, and the message names
    the pair, the condition and the problem."""
    pairs = _pool_pairs()
    e1 = pairs[0]
    e1.candidates = {"c1": {k: list(v) for k, v in CAND1.items()}}
    damage(e1.candidates["c1"], e1.queue)
    out, first = audit_scoring.expanded_pool(records([pairs[3], pairs[1], e1]), CONSTRUCTION)
    assert first == "pair e1 / c1: %s" % why
    problems = (
        "pool_mismatches",
        "size_out_of_range",
        "prior_mismatches",
        "shown_mismatches",
        "construction_mismatches",
        "unproposed_pages",
    )
    assert {k: out[k] for k in problems} == {k: int(k == key) for k in problems}


def test_expanded_pool_a_page_no_route_proposes():
    """A pool of 10 pages, the last one proposed by no route: out of range, not the merge, unproposed."""
    e = mkpair("e", a=[N(), N()], e=[N(), N()])
    e.queue = {"c2": (1, 2, 3, 4, 5, 6, 7, 8, 9, 12)}
    e.candidates = {"c2": {"original_shown": [1, 2, 3], "random_fill": [4, 5, 6, 7, 8, 9, 10]}}
    out, first = audit_scoring.expanded_pool(records([e]), {})
    assert first == "pair e / c2: the pool is not the merged candidates"
    assert (out["pool_mismatches"], out["size_out_of_range"], out["unproposed_pages"]) == (1, 1, 1)
    assert (out["prior_mismatches"], out["shown_mismatches"], out["construction_mismatches"]) == (0, 0, 0)
    e.queue = {"c2": (1, 2, 3, 4, 5, 12)}
    e.candidates["c2"]["random_fill"] = [4, 5, 12]
    out, first = audit_scoring.expanded_pool(records([e]), {})
    assert (first, out["unproposed_pages"], out["pages_mean"]) == ("", 0, 6.0)


def test_expanded_pool_counts_every_problem_of_every_condition():
    """Two conditions with empty candidates and pools of 5 and 10 pages: every check fails twice; the first
    message is the first check of the first condition."""
    b = mkpair("b", a=[Y((1,)), Y((3,), GOOD3)], e=[Y((2,), GOOD2), N()])
    b.queue = {"c1": (1, 2, 3, 4, 5), "c2": POOL9 + (10,)}
    b.candidates = {"c1": {}, "c2": {}}
    out, first = audit_scoring.expanded_pool(records([b]), {("v2", "d1", "c1"): (5,), ("v2", "d1", "c2"): (6,)})
    assert first == "pair b / c1: the pool is not the merged candidates"
    assert out == {
        "pairs": 1,
        "conditions": 2,
        "pool_mismatches": 2,
        "size_out_of_range": 2,
        "prior_mismatches": 2,
        "shown_mismatches": 2,
        "construction_mismatches": 2,
        "unproposed_pages": 2,
        "displayed_pages": 15,
        "pages_min": 5,
        "pages_mean": 7.5,
        "pages_max": 10,
        "memberships": {
            r: 0 for r in ("prior_selected", "construction", "original_shown", "lexical", "bm25", "ocr_fuzzy")
        },
    }


def test_expanded_pool_of_nothing_queued():
    """No queued pair: no pages, no extremes, every membership 0."""
    out, first = audit_scoring.expanded_pool(records([mkpair("x", a=[N(), N()], e=[N(), N()])]), {})
    assert first == "" and out["pairs"] == 0 and out["displayed_pages"] == 0
    assert (out["pages_min"], out["pages_mean"], out["pages_max"]) == (None, None, None)
    assert out["memberships"] == {
        "prior_selected": 0,
        "construction": 0,
        "original_shown": 0,
        "lexical": 0,
        "bm25": 0,
        "ocr_fuzzy": 0,
    }


# --- the held-out recall check ---------------------------------------------------------------------------

RC = {
    "construction": [1],
    "original_shown": [2, 3],
    "lexical": [4, 5, 6],
    "bm25": [7],
    "ocr_fuzzy": [8],
    "random_fill": [9, 10, 11],
}
RPOOL = (1, 2, 3, 4, 7, 8, 5, 6, 9)  # merge(RC): 1 2 3 | 4 7 8 5 6 | 9 10 11, cut at 9


SHOWN12 = tuple(range(1, 13))


def _quote(pages):
    """A quote found on one of ``pages``."""
    return GOOD1 if any(pg == 1 or pg >= 4 for pg in pages) else GOOD2 if 2 in pages else GOOD3


def _recall_pair(pid, a_pages, e_pages, submitted=None, pool=RPOOL, cand=RC):
    """A queued pair (c2 queued) whose c1 both initial answers make positive with good quotes: its recall
    record, submitted pages ``submitted`` (default: both answers' pages)."""
    p = mkpair(pid)
    p.shown = (SHOWN12, SHOWN)
    p.initial = {"A": [Y(a_pages, _quote(a_pages), SHOWN12), N()], "E": [Y(e_pages, _quote(e_pages), SHOWN12), N()]}
    queue(p, "c2")
    sub = sorted(set(a_pages) | set(e_pages)) if submitted is None else submitted
    p.recall = {"c1": (cand, tuple(pool), tuple(sub))}
    return p


def test_pool_recall_counted_by_hand():
    """Four locked positives: pages 1 (rank 1), 5 (rank 7) with 1, 6 (rank 8) alone, 9 (rank 9) with 3 (rank 3):
    found by rank 6 in r1, r2, r4; by rank 9 in all; all submitted pages by rank 9 in all four."""
    pairs = [
        _recall_pair("r1", (1,), (1,)),
        _recall_pair("r2", (5,), (1, 5)),
        _recall_pair("r3", (6,), (6,)),
        _recall_pair("r4", (9,), (3,)),
    ]
    out, first = audit_scoring.pool_recall(records(pairs))
    assert first == ""
    assert out == {
        "conditions": 4,
        "missing": 0,
        "unexpected": 0,
        "pool_mismatches": 0,
        "submitted_mismatches": 0,
        "recovered_by_6": 3,
        "recovered_by_9": 4,
        "all_submitted_by_9": 4,
    }


def test_pool_recall_rank_boundaries():
    """Page 5 at rank 7 (r1: by 9 only); page 8 at rank 6 (r2: by 6); page 9 at rank 9 (r3: by 9 only); page 10
    beyond the pool (r4: neither, not all by 9); pages 2 (rank 2) and 10 (r5: by 6, not all by 9)."""
    pairs = [
        _recall_pair("r1", (5,), (5,)),
        _recall_pair("r2", (8,), (8,)),
        _recall_pair("r3", (9,), (9,)),
        _recall_pair("r4", (10,), (10,)),
        _recall_pair("r5", (2,), (10,)),
    ]
    out, first = audit_scoring.pool_recall(records(pairs))
    assert first == ""
    assert (out["conditions"], out["recovered_by_6"], out["recovered_by_9"], out["all_submitted_by_9"]) == (5, 2, 4, 3)


def test_pool_recall_gate_and_queue_decide_the_locked_positives():
    """A locked positive needs a queued pair and both initial quotes passing the gate: a recall record of an
    unqueued pair, or of a condition whose E quote fails the gate, is unexpected (the first in condition order
    named)."""
    u = _recall_pair("u", (1,), (1,))
    u.queue = {}
    out, first = audit_scoring.pool_recall(records([u]))
    assert (out["unexpected"], out["conditions"], first) == (
        1,
        0,
        "pair u / c1: checked but not a locked positive of a queued pair",
    )
    v = _recall_pair("v", (1,), (1,))
    v.initial["E"][0] = Y((1,), BAD, SHOWN12)
    out, first = audit_scoring.pool_recall(records([v]))
    assert (out["unexpected"], out["conditions"]) == (1, 0)
    w = _recall_pair("w", (1,), (1,))
    w.initial["A"][0] = Y((1,), BAD, SHOWN12)
    assert audit_scoring.pool_recall(records([w]))[0]["unexpected"] == 1
    y = _recall_pair("y", (1,), (1,))
    y.initial["E"][0] = N(shown=SHOWN12)
    assert audit_scoring.pool_recall(records([y]))[0]["unexpected"] == 1
    x = _recall_pair("x", (1,), (1,))
    x.recall = {"c2": x.recall["c1"], "c1": x.recall["c1"]}
    x.queue = {}
    out, first = audit_scoring.pool_recall(records([x]))
    assert (out["unexpected"], first) == (2, "pair x / c1: checked but not a locked positive of a queued pair")


@pytest.mark.parametrize(
    "change, message, counts",
    [
        ({"recall": {}}, "locked positive without a recall record", (0, 1, 0, 0)),
        ({"pool": RPOOL[:8] + (10,)}, "the recall pool is not the merged candidates", (1, 0, 1, 0)),
        ({"submitted": (1, 2)}, "submitted is not the initial evaluators' pages", (1, 0, 0, 1)),
        ({"pool": RPOOL[::-1], "submitted": (4,)}, "the recall pool is not the merged candidates", (1, 0, 1, 1)),
    ],
)
def test_pool_recall_problems(change, message, counts):
    """One locked positive of pair b (after a valid one of pair a) with a missing record, a pool that is not the
    merge cut at 9, or submitted pages that are not the initial answers' (1): counts (conditions, missing, pool,
    submitted) after a, and the message."""
    a = _recall_pair("a", (1,), (1,))
    b = _recall_pair("b", (1,), (1,), submitted=change.get("submitted"), pool=change.get("pool", RPOOL))
    if "recall" in change:
        b.recall = {}
    out, first = audit_scoring.pool_recall(records([a, b]))
    assert first == "pair b / c1: " + message
    got = (out["conditions"] - 1, out["missing"], out["pool_mismatches"], out["submitted_mismatches"])
    assert got == counts


def test_pool_recall_counts_every_problem_past_the_first():
    """Every locked positive is counted, not only those before the first problem (``first = first or
    _check_recall(...)`` stopped counting there): two pairs missing their record, two with a pool that is not the
    merge, two with other submitted pages, then a valid one; each count is 2 and the message is the first pair's."""
    missing = [_recall_pair(pid, (1,), (1,)) for pid in ("a", "b")]
    for p in missing:
        p.recall = {}
    pools = [_recall_pair(pid, (1,), (1,), pool=RPOOL[:8] + (10,)) for pid in ("c", "d")]
    submitted = [_recall_pair(pid, (1,), (1,), submitted=(1, 2)) for pid in ("e", "f")]
    out, first = audit_scoring.pool_recall(records(missing + pools + submitted + [_recall_pair("g", (1,), (1,))]))
    assert first == "pair a / c1: locked positive without a recall record"
    assert (out["missing"], out["pool_mismatches"], out["submitted_mismatches"], out["conditions"]) == (2, 2, 2, 5)


def test_pool_recall_submitted_is_the_union_in_any_order():
    """Submitted pages are compared as sorted lists with the initial answers' pages, repeated pages once."""
    p = _recall_pair("p", (3, 1), (1, 2), submitted=(2, 3, 1))
    out, first = audit_scoring.pool_recall(records([p]))
    assert (first, out["submitted_mismatches"], out["conditions"]) == ("", 0, 1)


def test_pool_recall_all_submitted_when_the_evaluators_chose_the_whole_pool():
    """A selects pages 1-5 and E pages 6-9: the submitted pages are exactly the nine pool pages, all found by 9."""
    p = _recall_pair("p", (1, 2, 3, 4, 5), (6, 7, 8, 9))
    out, first = audit_scoring.pool_recall(records([p]))
    assert (first, out["conditions"], out["all_submitted_by_9"], out["recovered_by_6"]) == ("", 1, 1, 1)


def test_pool_recall_without_locked_positives():
    """No queued pair and no recall record: nothing counted and an empty (not a missing) first problem."""
    out, first = audit_scoring.pool_recall(records([mkpair("x", a=[Y((1,)), N()], e=[Y((1,)), N()])]))
    assert first == "" and first is not None
    assert out == {"conditions": 0, "missing": 0, "unexpected": 0, "pool_mismatches": 0, "submitted_mismatches": 0,
                   "recovered_by_6": 0, "recovered_by_9": 0, "all_submitted_by_9": 0}
