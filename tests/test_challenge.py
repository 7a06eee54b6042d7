"""SourceShift's residual-qrel challenge and qrel genealogy (supplement 8, 10.5-10.6): the rules by hand,
hostile challenge records and genealogy files (file:line:field, no traceback), and the acceptance test
that a changed challenge response or tie-break answer changes S and fails ``reproduce.py``."""

import json
import math
import os
import shutil

import pytest
from conftest import read_rows, released, reproduce_report, resign, write_rows

from nclue.core.errors import InputError
from nclue.labelaudit import challenge as rules
from nclue.labelaudit.copy_derivation import apply_stage

# --- the rules by hand ---------------------------------------------------------------------------------

def _ndcg1(rank):
    """Gold-only NDCG@10 of a query with one gold at ``rank`` (1-based; None: not in the top 10)."""
    return 0.0 if rank is None else 1.0 / math.log2(rank + 1)


def test_gap_change_worked_by_hand():
    # gold g; fusion ranks [g, d], BM25 ranks [d, g]: before, fusion 1.0 and BM25 1/log2(3)
    fusion, bm25 = ["g", "d"], ["d", "g"]
    before = 1.0 - _ndcg1(2)
    # with d promoted the ideal DCG is 1 + 1/log2(3) and both lists hold both golds at ranks 1 and 2
    after = 0.0
    assert rules.gap_change(fusion, bm25, {"g"}, "d") == pytest.approx(after - before, abs=1e-12)
    # a document at rank 11 of both lists changes nothing at depth 10
    long = ["x%d" % i for i in range(10)] + ["d"]
    assert rules.gap_change(long, long, {"x0"}, "d") == 0.0


def test_targets_are_judged_subsets_in_the_union_whose_promotion_lowers_the_gap():
    queries = {"q1": 2, "q2": 3}
    qrels = {"q1": {"g": 2, "a": 1, "b": 1, "far": 1}, "q2": {"h": 3, "c": 2, "e": 0}}
    fusion = {"q1": ["g", "a", "b"], "q2": ["c", "h"]}
    bm25 = {"q1": ["a", "g", "b"], "q2": ["h", "x", "c"]}
    got = rules.targets(queries, qrels, fusion, bm25)
    assert [(q, d) for q, d, _ in got] == [("q1", "a"), ("q1", "b")]
    # q1/a: fusion's ideal-ranked gold stays, BM25 gains a gold at rank 1: both lists become ideal -> gap 0
    before = 1.0 - _ndcg1(2)
    assert got[0][2] == pytest.approx(0.0 - before, abs=1e-12)
    # q1/b (rank 3 in both): fusion golds at ranks 1, 3; BM25 at 2, 3; ideal DCG 1 + 1/log2(3)
    ideal = 1.0 + _ndcg1(2)
    after = (1.0 + _ndcg1(3)) / ideal - (_ndcg1(2) + _ndcg1(3)) / ideal
    assert got[1][2] == pytest.approx(after - before, abs=1e-12)
    # q2/c: fusion ranks c first, so promotion raises the gap: not a target; "far" is in neither top 10;
    # grade 0 (q2/e) is not an already-judged subset
    assert rules.control_frame(queries, qrels, fusion, bm25) == [("q1", "far"), ("q2", "e")]


def test_control_count_and_final_grade_boundaries():
    assert [rules.n_controls(t) for t in (0, 1, 5, 6, 10, 125, 328)] == [0, 1, 1, 2, 2, 25, 66]
    assert rules.final_grade(3, [(True, [1]), (True, [2]), (False, [])]) == (2, False)
    assert rules.final_grade(3, [(True, [1]), (True, [1]), (True, [1])]) == (2, True)      # distinct-page gate
    assert rules.final_grade(3, [(True, [1, 2]), (True, [1]), (True, [2, 3])]) == (3, False)
    assert rules.final_grade(2, [(False, []), (False, [])]) == (0, False)


def test_apply_stage_removes_zero_gold_queries_with_their_rows():
    from collections import namedtuple

    Q = namedtuple("Q", "n")
    queries = {"q1": Q(2), "q2": Q(2), "q3": Q(3)}
    parent = {"q1": {"a": 2, "b": 1}, "q2": {"c": 2, "d": 1}, "q3": {"e": 3}}
    qrels, removed = apply_stage(parent, queries, {("q1", "a"): 1, ("q2", "d"): 0, ("q3", "f"): 2})
    assert removed == ["q1"]                          # its only gold demoted: the query and its rows go
    assert qrels == {"q2": {"c": 2}, "q3": {"e": 3, "f": 2}}
    assert parent["q1"] == {"a": 2, "b": 1}           # the parent is not modified


# --- hostile records (the shipped release: the mini challenge has no tie-break rows) ---------------------

def _load(root):
    from nclue.analyses.shared.audit_inputs import challenge_records
    from nclue.core.instrument import Instrument

    return challenge_records(Instrument(root))


@pytest.fixture(scope="session")
def challenge_release(release_template):
    return release_template


def _damage(name, edit):
    def apply(root):
        path = os.path.join(root, "data", "audit", name + ".jsonl")
        rows = read_rows(path)
        edit(rows)
        write_rows(path, rows)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text.replace('"NONFINITE"', "-1e400"))       # a number that parses to -infinity
        return released("audit", "%s.jsonl") % name
    return apply


def _first(edit):
    def apply(rows):
        edit(rows[0])
    return apply


HOSTILE = {
    "tiebreak wrong type": (_damage("challenge_tiebreak", _first(lambda r: r.update(positive="yes"))),
                            ":1: field 'positive'"),
    "tiebreak unknown pair": (_damage("challenge_tiebreak", _first(lambda r: r.update(pair="C9999"))),
                              ":1: field 'pair'"),
    "tiebreak unknown condition": (_damage("challenge_tiebreak", _first(lambda r: r.update(cid="ent:nowhere"))),
                                   ":1: field 'cid'"),
    "tiebreak unknown stream": (_damage("challenge_tiebreak", _first(lambda r: r.update(selects="Z"))),
                                ":1: field 'selects'"),
    "tiebreak responder is a stream": (_damage("challenge_tiebreak", _first(lambda r: r.update(responder="H"))),
                                       ":1: field 'responder'"),
    "tiebreak duplicate row": (_damage("challenge_tiebreak", lambda rows: rows.insert(1, dict(rows[0]))),
                               ":2: field 'cid'"),
    "tiebreak page beyond the document": (_damage("challenge_tiebreak", _first(lambda r: r.update(pages=[10 ** 6]))),
                                          ":1: field 'pages"),
    "key non-finite gap change": (_damage("challenge_key", _first(lambda r: r.update(gap_change="NONFINITE"))),
                                  ":1: field 'gap_change'"),
    "key unknown query": (_damage("challenge_key", _first(lambda r: r.update(qid="shift_9999"))), ":1: field 'qid'"),
    "key grade not S0's": (_damage("challenge_key", _first(lambda r: r.update(grade_before=r["n"]))),
                           ":1: field 'grade_before'"),
    "key control with a gap change": (_damage("challenge_key", lambda rows: next(
        r for r in rows if r["role"] == "control").update(gap_change=-0.5)), ": field 'gap_change'"),
    "responses missing a stream": (_damage("challenge_responses", lambda rows: rows.pop(0)), ": pair C"),
    "decisions missing a pair": (_damage("challenge_decisions", lambda rows: rows.pop()), ": pair C"),
    "decisions grade out of range": (_damage("challenge_decisions", _first(lambda r: r.update(grade_after=7))),
                                     ":1: field 'grade_after'"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_challenge_records_name_file_line_and_field(challenge_release, tmp_path, case):
    root = str(tmp_path / "release")
    shutil.copytree(challenge_release, root, symlinks=True)
    damage, expect = HOSTILE[case]
    rel = damage(root)
    with pytest.raises(InputError) as info:
        _load(root)
    text = str(info.value)
    assert text.startswith(rel) and expect in text, text


GENEALOGY = {
    "unknown removed query": (lambda g: g["copies"][1]["removed_queries"].append("shift_9999"),
                              "copies[1].removed_queries[0]"),
    "copies out of order": (lambda g: g["copies"].reverse(), "copies[0].copy"),
    "wrong file": (lambda g: g["copies"][2].update(file=released("v2", "qrels_s0.jsonl")), "copies[2].file"),
    "count of the wrong type": (lambda g: g["copies"][0].update(rows="8363"), "copies[0].rows"),
    "a copy missing": (lambda g: g["copies"].pop(), "copies"),
}


@pytest.mark.parametrize("case", sorted(GENEALOGY))
def test_hostile_genealogy_names_the_field(challenge_release, tmp_path, case):
    from nclue.core.instrument import Instrument

    root = str(tmp_path / "release")
    shutil.copytree(challenge_release, root, symlinks=True)
    path = os.path.join(root, "data", "v2", "genealogy.json")
    obj = json.load(open(path, encoding="utf-8"))
    edit, field = GENEALOGY[case]
    edit(obj)
    open(path, "w", encoding="utf-8").write(json.dumps(obj))
    with pytest.raises(InputError) as info:
        Instrument(root).release("v2").genealogy()
    assert str(info.value).startswith(released("v2", "genealogy.json")) and field in str(info.value), str(info.value)


def test_a_wrong_genealogy_count_fails_reproduce(challenge_release, tmp_path):
    root = str(tmp_path / "release")
    shutil.copytree(challenge_release, root, symlinks=True)
    path = os.path.join(root, "data", "v2", "genealogy.json")
    obj = json.load(open(path, encoding="utf-8"))
    obj["copies"][2]["grades_changed"] += 1
    open(path, "w", encoding="utf-8").write(json.dumps(obj, indent=1, sort_keys=True) + "\n")
    resign(root)
    code, out, _, _, fails = reproduce_report(root, "--only", "derivation")
    assert code == 1 and "Traceback" not in out
    assert "v2.genealogy.record_disagreements" in fails and "s.grades_changed" in fails[
        "v2.genealogy.record_disagreements"]["reason"]


# --- acceptance: a changed response or tie-break answer changes S and fails ------------------------------

def _changed_tiebreak(root):
    """Flip one tie-break answer from positive to negative (selecting the other stream), on a pair whose
    grade then drops; returns the pair."""
    rec = _load(root)
    path = os.path.join(root, "data", "audit", "challenge_tiebreak.jsonl")
    rows = read_rows(path)
    for r in rows:
        p = rec.pairs[r["pair"]]
        _, blocked = p.decision
        if r["positive"] and not blocked:
            unique = [s for s in rec.stream_names if s != "G-copy"]
            r.update(positive=False, pages=[], quote="", selects=next(s for s in unique if s != r["selects"]))
            write_rows(path, rows)
            return p
    raise AssertionError("no positive tie-break answer on an unblocked pair")


def _changed_response(root):
    """Make every stream deny one condition that all streams supported; returns the pair."""
    rec = _load(root)
    path = os.path.join(root, "data", "audit", "challenge_responses.jsonl")
    rows = read_rows(path)
    for p in rec.pairs.values():
        if p.decision[1]:
            continue
        for i, cid in enumerate(p.cids):
            if all(p.streams[s][i].positive for s in rec.stream_names) and cid not in p.tiebreak:
                for r in rows:
                    if r["pair"] == p.pair:
                        r["answers"][i] = {"cid": cid, "positive": False, "pages": [], "quote": ""}
                write_rows(path, rows)
                return p
    raise AssertionError("no condition every stream supported")


@pytest.mark.parametrize("change", [_changed_tiebreak, _changed_response], ids=["tie-break", "response"])
def test_a_changed_challenge_answer_changes_s_and_fails(challenge_release, tmp_path, change):
    from nclue.analyses.genealogy import derived_s
    from nclue.core.instrument import Instrument
    from nclue.labelaudit import audit_scoring

    root = str(tmp_path / "release")
    shutil.copytree(challenge_release, root, symlinks=True)
    p = change(root)
    qrels, _, _ = derived_s(Instrument(root))
    diffs = audit_scoring.qrel_differences(qrels, Instrument(root).release("v2").qrels())
    assert [(d[0], d[1]) for d in diffs] == [(p.qid, p.docid)]
    resign(root)
    code, out, _, _, fails = reproduce_report(root, "--only", "derivation")
    assert code == 1 and "Traceback" not in out
    assert "v2.genealogy.s.qrel_differences" in fails and p.qid in fails["v2.genealogy.s.qrel_differences"]["reason"]
    assert "audit.challenge.decisions.decision_mismatches" in fails


# --- the protocol's decisions by hand (nclue.labelaudit.challenge_score.decide) -------------------------

_PAGES = {3: "the plan sets out the grievance procedure in full.", 5: "a second page on the grievance procedure here.",
          7: "the resettlement framework is described on this page."}


def _hand_records(streams, tiebreak=None, n=2):
    """One challenge pair ``C001`` of document ``d`` with conditions ``c1..cn``; ``streams``: ``{name: [(positive,
    pages)]}``; ``tiebreak``: ``{cid: (selects, positive, pages)}``.  Quotes are taken from the selected page."""
    from nclue.labelaudit.challenge_records import ChallengePair, ChallengeRecords
    from nclue.labelaudit.rules import Answer

    pool = (3, 5, 7)

    def answer(positive, pages, offset=0):
        words = _PAGES[pages[0]].split() if positive else []
        return Answer(positive, pages, " ".join(words[offset:offset + 4]), pool)
    p = ChallengePair("C001", "q", "d", n, "arxiv", "target", n - 1, 1, 2, -0.1)
    p.cids = tuple("c%d" % (i + 1) for i in range(n))
    p.pools = (pool,) * n
    # each stream quotes its own words (a copy of a stream quotes the same ones, and collapses)
    p.streams = {name: [answer(*a, offset=sorted(set(x.split("-")[0] for x in streams)).index(name.split("-")[0]))
                        for a in answers] for name, answers in streams.items()}
    p.tiebreak = {cid: ("T", selects, answer(positive, pages)) for cid, (selects, positive, pages) in
                  (tiebreak or {}).items()}
    p.decision = (n - 1, False)
    pages = {("v2", "d", page): text for page, text in _PAGES.items()}
    return ChallengeRecords({"C001": p}, pages, tuple(sorted(streams)))


def test_agreed_pages_are_the_union_of_both_streams():
    """c1 is supported on page 3 by G and on page 5 by H, c2 on page 3 by both: the union {3, 5} lets c1 take page
    5 and c2 page 3 (gold); one stream's pages alone ({3}, {3}) would leave no distinct-page assignment."""
    from nclue.labelaudit import challenge_score
    rec = _hand_records({"G": [(True, [3]), (True, [3])], "H": [(True, [5]), (True, [3])]})
    decided, tally, picks, duplicates = challenge_score.decide(rec)
    assert decided == {"C001": (2, False)} and tally["agreeing_conditions"] == 2 and duplicates == {}
    rec = _hand_records({"G": [(True, [3]), (True, [3])], "H": [(True, [3]), (True, [3])]})
    assert challenge_score.decide(rec)[0] == {"C001": (1, True)}         # the distinct-page gate stops it


def test_duplicate_streams_collapse_and_the_tie_break_selects_a_stream():
    from nclue.labelaudit import challenge_score
    g = [(True, [3]), (False, [])]
    rec = _hand_records({"G": g, "G-copy": g, "H": [(True, [5]), (True, [7])]},
                        tiebreak={"c2": ("H", True, [7])})
    decided, tally, picks, duplicates = challenge_score.decide(rec)
    assert duplicates == {"G-copy": "G"} and tally["unique_streams"] == 2
    assert tally["tiebreak_conditions"] == 1 and tally["tiebreak_selection_mismatches"] == 0
    assert picks == {"G": 0, "H": 1} and decided == {"C001": (2, False)}
    # a tie-break answer that disagrees with the stream its record names is counted
    rec = _hand_records({"G": g, "G-copy": g, "H": [(True, [5]), (True, [7])]},
                        tiebreak={"c2": ("G", True, [7])})
    assert challenge_score.decide(rec)[1]["tiebreak_selection_mismatches"] == 1
    # a negative tie-break sides with G: c2 unsupported, grade 1
    rec = _hand_records({"G": g, "G-copy": g, "H": [(True, [5]), (True, [7])]},
                        tiebreak={"c2": ("G", False, [])})
    decided, _, picks, _ = challenge_score.decide(rec)
    assert decided == {"C001": (1, False)} and picks == {"G": 1, "H": 0}
    # a disagreement without a tie-break is counted, and decided negative
    rec = _hand_records({"G": g, "H": [(True, [5]), (True, [7])]})
    decided, tally, _, _ = challenge_score.decide(rec)
    assert tally["tiebreak_missing"] == 1 and decided == {"C001": (1, False)}


def test_a_changed_response_is_named_by_file_and_line(challenge_release, tmp_path):
    from nclue.analyses.shared.audit_inputs import challenge_records
    from nclue.core.instrument import Instrument
    from nclue.labelaudit import challenge_score

    root = str(tmp_path / "inst")
    shutil.copytree(challenge_release, root)
    path = os.path.join(root, "data", "audit", "challenge_responses.jsonl")
    rows = read_rows(path)
    # a pair whose every stream supports its first condition; flipping all of them keeps the streams in
    # agreement (no tie-break) and lowers the decided grade by one, so the decisions file no longer follows
    by_pair = {}
    for i, r in enumerate(rows):
        by_pair.setdefault(r["pair"], []).append(i)
    pair = next(p for p, idx in sorted(by_pair.items()) if all(rows[i]["answers"][0]["positive"] for i in idx))
    for i in by_pair[pair]:
        rows[i]["answers"][0] = {"cid": rows[i]["answers"][0]["cid"], "positive": False, "pages": [], "quote": ""}
    write_rows(path, rows)
    resign(root)
    rec = challenge_records(Instrument(root))
    decided = challenge_score.decide(rec)[0]
    _, _, first = challenge_score.outcomes(rec, decided)
    assert first.startswith(pair + ":") and (released("audit", "challenge_responses.jsonl") + ":") in first
    assert all(str(i + 1) in first for i in by_pair[pair])
