"""labelaudit/challenge_records.py on a small challenge written here (two pairs, no release copy): a sound set loads
field by field, and every cross-file check names its file, line and field with the whole message.  The mutants
mutmut left alive (docs/recipes.md#mutation-testing) are killed here or listed as equivalent in
tests/mutants_equivalent_stats.txt."""

import copy
import json
import os
import re
from types import SimpleNamespace

import pytest
from conftest import released

from nclue.core.errors import InputError
from nclue.labelaudit import challenge_records
from nclue.labelaudit.rules import Answer

QUERIES = {"q1": SimpleNamespace(qid="q1", n=2, conditions=[SimpleNamespace(cid="c1"), SimpleNamespace(cid="c2")]),
           "q2": SimpleNamespace(qid="q2", n=3, conditions=[SimpleNamespace(cid="c1"), SimpleNamespace(cid="c2"), SimpleNamespace(cid="c3")])}
CORPUS = {"d1": SimpleNamespace(pages=9, source="arxiv"), "d2": SimpleNamespace(pages=8, source="web")}
S0 = {"q1": {"d1": 1}, "q2": {"d2": 2}}
PAGES = {("v2", "d1", 1): "page one text"}


def _answer(positive, pages=(), quote=""):
    return {"cid": None, "positive": positive, "pages": list(pages), "quote": quote}


def _answers(cids, *answers):
    return [dict(a, cid=cid) for cid, a in zip(cids, answers)]


def _sound():
    yes1, no = _answer(True, [1], "page one text"), _answer(False)
    return {
        "challenge_key": [
            {"pair": "C001", "qid": "q1", "docid": "d1", "n": 2, "grade_before": 1, "source": "arxiv",
             "role": "target", "fusion_rank": 3, "bm25_rank": None, "gap_change": -0.25},
            {"pair": "C002", "qid": "q2", "docid": "d2", "n": 3, "grade_before": 2, "source": "web",
             "role": "control", "fusion_rank": None, "bm25_rank": 10, "gap_change": None}],
        "challenge_packet": [
            {"pair": "C001", "docid": "d1", "n": 2, "conditions": [
                {"cid": "c1", "label": "one", "pool": [1, 2, 3, 4, 5, 6]},
                {"cid": "c2", "label": "two", "pool": [2, 3, 4, 5, 6, 7]}]},
            {"pair": "C002", "docid": "d2", "n": 3, "conditions": [
                {"cid": "c%d" % i, "label": "l%d" % i, "pool": [1, 2, 3, 4, 5, 8]} for i in (1, 2, 3)]}],
        "challenge_responses": [
            {"pair": "C001", "stream": "H", "answers": _answers(["c1", "c2"], yes1, no)},
            {"pair": "C001", "stream": "G", "answers": _answers(["c1", "c2"], yes1, _answer(True, [7], "x y z"))},
            {"pair": "C002", "stream": "G", "answers": _answers(["c1", "c2", "c3"], no, no, no)},
            {"pair": "C002", "stream": "H", "answers": _answers(["c1", "c2", "c3"], no, no, no)}],
        "challenge_tiebreak": [
            {"pair": "C001", "cid": "c2", "responder": "T", "selects": "H", "positive": False, "pages": [],
             "quote": ""}],
        "challenge_decisions": [
            {"pair": "C002", "grade_before": 2, "grade_after": 2, "distinct_page_blocked": False},
            {"pair": "C001", "grade_before": 1, "grade_after": 1, "distinct_page_blocked": True}],
    }


def _load(tmp_path, files):
    folder = os.path.join(tmp_path, "data", "audit")
    os.makedirs(folder, exist_ok=True)
    for name, rows in files.items():
        with open(os.path.join(folder, name + ".jsonl"), "w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(r) + "\n" for r in rows)
    return challenge_records.load(str(tmp_path), QUERIES, CORPUS, S0, PAGES)


def _fails(tmp_path, message, change):
    files = _sound()
    change(files)
    with pytest.raises(InputError, match="^" + re.escape(message) + "$"):
        _load(tmp_path, files)


def _set(name, index, **fields):
    def change(files):
        files[name][index].update(fields)
    return change


def test_a_sound_challenge_loads_field_by_field(tmp_path):
    rec = _load(tmp_path, _sound())
    assert list(rec.pairs) == ["C001", "C002"] and rec.stream_names == ("G", "H")
    p, c = rec.pairs["C001"], rec.pairs["C002"]
    assert (p.pair, p.qid, p.docid, p.n, p.source, p.role, p.grade_before) == ("C001", "q1", "d1", 2, "arxiv",
                                                                              "target", 1)
    assert (p.fusion_rank, p.bm25_rank, p.gap_change) == (3, None, -0.25)
    assert (c.role, c.fusion_rank, c.bm25_rank, c.gap_change) == ("control", None, 10, None)
    assert p.cids == ("c1", "c2") and p.labels == ("one", "two") and p.pools == ((1, 2, 3, 4, 5, 6), (2, 3, 4, 5, 6, 7))
    g = p.streams["G"]
    assert [(a.positive, a.pages, a.quote, a.shown) for a in g] == [
        (True, (1,), "page one text", (1, 2, 3, 4, 5, 6)), (True, (7,), "x y z", (2, 3, 4, 5, 6, 7))]
    who, selects, answer = p.tiebreak["c2"]
    assert (who, selects) == ("T", "H") and isinstance(answer, Answer)
    assert (answer.positive, answer.pages, answer.quote, answer.shown) == (False, (), "", (2, 3, 4, 5, 6, 7))
    assert p.decision == (1, True) and c.decision == (2, False)
    assert p.lines == {released("audit", "challenge_responses.jsonl"): [1, 2], released("audit", "challenge_tiebreak.jsonl"): [1],
                       released("audit", "challenge_decisions.jsonl"): [2]}
    assert p.where() == (released("audit", "challenge_decisions.jsonl") + ":2; "
                         + released("audit", "challenge_responses.jsonl") + ":1, 2; "
                         + released("audit", "challenge_tiebreak.jsonl") + ":1")
    assert rec.text("d1")(1) == "page one text" and rec.text("d1")(2) is None and rec.text("d2")(1) is None
    assert challenge_records.path_of("challenge_key") == released("audit", "challenge_key.jsonl")


KEY = (released("audit", "challenge_key.jsonl") + ":")


@pytest.mark.parametrize("change,message", [
    (_set("challenge_key", 0, pair="bad pair!"), KEY + "1: field 'pair': not a valid pair identifier: 'bad pair!'"),
    (_set("challenge_key", 0, pair="x" * 33), KEY + "1: field 'pair': not a valid pair identifier: '" + "x" * 33 + "'"),
    (_set("challenge_key", 1, pair="C001"), KEY + "2: field 'pair': duplicate pair 'C001'"),
    (_set("challenge_key", 0, qid="q9"), KEY + "1: field 'qid': unknown S0 query 'q9'"),
    (_set("challenge_key", 0, docid="d9"), KEY + "1: field 'docid': unknown v2 document 'd9'"),
    (_set("challenge_key", 1, qid="q1", docid="d1", n=2, grade_before=1, source="arxiv"),
     KEY + "2: field 'docid': query-document pair q1 / d1 listed twice"),
    (_set("challenge_key", 0, n=3), KEY + "1: field 'n': is 3 but query q1 has n = 2"),
    (_set("challenge_key", 0, grade_before=2), KEY + "1: field 'grade_before': is 2 but S0 ("
                                                     + released("v2", "qrels_s0.jsonl") + ") gives 1"),
    (_set("challenge_key", 0, source="web"), KEY + "1: field 'source': is 'web' but d1 is from 'arxiv'"),
    (_set("challenge_key", 0, gap_change=0.0), KEY + "1: field 'gap_change': a target's gap change must be negative"),
    (_set("challenge_key", 1, gap_change=-0.5), KEY + "2: field 'gap_change': must be null for a control"),
    (_set("challenge_key", 1, gap_change=0), KEY + "2: field 'gap_change': must be null for a control"),
    (_set("challenge_key", 0, fusion_rank=11), KEY + "1: field 'fusion_rank': out of range 1..10, got 11"),
    (_set("challenge_key", 1, bm25_rank=0), KEY + "2: field 'bm25_rank': out of range 1..10, got 0"),
    (_set("challenge_key", 0, role="witness"), KEY + "1: field 'role': must be one of control/target, got "
                                                     "\"witness\""),
])
def test_key_defects(tmp_path, change, message):
    _fails(tmp_path, message, change)


def test_an_empty_key(tmp_path):
    _fails(tmp_path, (released("audit", "challenge_key.jsonl") + ": no challenge pairs"),
           lambda files: files["challenge_key"].clear())


PACKET = (released("audit", "challenge_packet.jsonl") + ":")


@pytest.mark.parametrize("change,message", [
    (_set("challenge_packet", 1, pair="C001"), PACKET + "2: field 'pair': pair 'C001' repeated"),
    (_set("challenge_packet", 0, pair="C404"), PACKET + "1: field 'pair': unknown pair 'C404' (not in "
                                                        + released("audit", "challenge_key.jsonl") + ")"),
    (_set("challenge_packet", 0, docid="d2"), PACKET + "1: field 'docid': does not match the key for pair C001"),
    (_set("challenge_packet", 0, n=3), PACKET + "1: field 'n': does not match the key for pair C001"),
    (lambda files: files["challenge_packet"].pop(), released("audit", "challenge_packet.jsonl")
                                                    + ": pair C002 of the key has no packet row"),
])
def test_packet_defects(tmp_path, change, message):
    _fails(tmp_path, message, change)


RESP = released("audit", "challenge_responses.jsonl")


def _drop_stream(name):
    def change(files):
        files["challenge_responses"] = [r for r in files["challenge_responses"] if r["stream"] != name]
        files["challenge_tiebreak"].clear()
    return change


@pytest.mark.parametrize("change,message", [
    (_set("challenge_responses", 0, stream="H H"), RESP + ":1: field 'stream': not a valid stream name: 'H H'"),
    (_set("challenge_responses", 1, stream="H"), RESP + ":2: field 'stream': stream H repeated for pair C001"),
    (_drop_stream("H"), RESP + ": needs at least two response streams, found ['G']"),
    (lambda files: files["challenge_responses"].pop(), RESP + ": pair C002 lacks a response from stream H"),
])
def test_response_defects(tmp_path, change, message):
    _fails(tmp_path, message, change)


def test_a_third_stream_missing_from_a_pair_is_named(tmp_path):
    def change(files):
        extra = copy.deepcopy(files["challenge_responses"][0])
        extra["stream"] = "K"
        files["challenge_responses"].append(extra)
    _fails(tmp_path, RESP + ": pair C002 lacks a response from stream K", change)


TIE = (released("audit", "challenge_tiebreak.jsonl") + ":")


@pytest.mark.parametrize("change,message", [
    (_set("challenge_tiebreak", 0, responder="G"), TIE + "1: field 'responder': the tie-break responder must be "
                                                         "fresh, not response stream 'G'"),
    (_set("challenge_tiebreak", 0, selects="T"), TIE + "1: field 'selects': must be one of G/H, got \"T\""),
    (_set("challenge_tiebreak", 0, cid="c9"), TIE + "1: field 'cid': pair C001 has no condition 'c9'"),
    (lambda files: files["challenge_tiebreak"].append(dict(files["challenge_tiebreak"][0])),
     TIE + "2: field 'cid': condition c2 of pair C001 tie-broken twice"),
])
def test_tiebreak_defects(tmp_path, change, message):
    _fails(tmp_path, message, change)


DEC = released("audit", "challenge_decisions.jsonl")


@pytest.mark.parametrize("change,message", [
    (lambda files: files["challenge_decisions"].append(dict(files["challenge_decisions"][0])),
     DEC + ":3: field 'pair': pair 'C002' decided twice"),
    (_set("challenge_decisions", 0, grade_before=1), DEC + ":1: field 'grade_before': does not match the key for "
                                                          "pair C002"),
    (lambda files: files["challenge_decisions"].pop(), DEC + ": pair C001 has no decision"),
    (_set("challenge_decisions", 1, grade_after=3), DEC + ":2: field 'grade_after': out of range 0..2, got 3"),
])
def test_decision_defects(tmp_path, change, message):
    _fails(tmp_path, message, change)


@pytest.mark.parametrize("change,message", [
    (_set("challenge_key", 0, n=1), KEY + "1: field 'n': out of range 2..3, got 1"),
    (_set("challenge_key", 0, n=4), KEY + "1: field 'n': out of range 2..3, got 4"),
    (_set("challenge_key", 0, grade_before=0), KEY + "1: field 'grade_before': out of range 1..2, got 0"),
    (_set("challenge_key", 0, grade_before=3), KEY + "1: field 'grade_before': out of range 1..2, got 3"),
    (_set("challenge_packet", 0, n=1), PACKET + "1: field 'n': out of range 2..3, got 1"),
    (_set("challenge_packet", 0, n=4), PACKET + "1: field 'n': out of range 2..3, got 4"),
    (_set("challenge_decisions", 0, grade_before=-1), DEC + ":1: field 'grade_before': out of range 0..3, got -1"),
    (_set("challenge_decisions", 1, grade_before=3), DEC + ":2: field 'grade_before': out of range 0..2, got 3"),
    (_set("challenge_decisions", 1, grade_before=0), DEC + ":2: field 'grade_before': does not match the key for "
                                                          "pair C001"),
    (_set("challenge_tiebreak", 0, positive=True, pages=[12], quote="q"),
     TIE + "1: field 'pages': page 12 outside the document (1..9)"),
    (lambda files: files["challenge_responses"][0]["answers"].pop(),
     RESP + ":1: field 'answers': has 1 answers but pair C001 has 2 conditions"),
])
def test_ranges_are_checked_before_the_cross_file_comparisons(tmp_path, change, message):
    _fails(tmp_path, message, change)


def test_a_grade_s0_does_not_give_is_zero(tmp_path):
    """d2 is not judged for q1 in S0, and q3 has no S0 row at all: both read as grade 0."""
    _fails(tmp_path, KEY + ("1: field 'grade_before': is 1 but S0 (" + released("v2", "qrels_s0.jsonl") + ") gives 0"),
           _set("challenge_key", 0, docid="d2", source="web"))
    QUERIES["q3"] = SimpleNamespace(qid="q3", n=2, conditions=[SimpleNamespace(cid="c1"), SimpleNamespace(cid="c2")])
    try:
        _fails(tmp_path, KEY + ("1: field 'grade_before': is 1 but S0 (" + released("v2", "qrels_s0.jsonl") + ") gives 0"),
               _set("challenge_key", 0, qid="q3"))
    finally:
        del QUERIES["q3"]


def test_a_positive_tie_break_answer_keeps_its_pages(tmp_path):
    files = _sound()
    files["challenge_tiebreak"][0].update(positive=True, pages=[2, 9], quote="a quote")
    who, selects, answer = _load(tmp_path, files).pairs["C001"].tiebreak["c2"]
    assert (answer.positive, answer.pages, answer.quote) == (True, (2, 9), "a quote")


def test_a_pair_lacking_two_streams_names_both(tmp_path):
    def change(files):
        for stream in ("K", "L"):
            extra = copy.deepcopy(files["challenge_responses"][0])
            extra["stream"] = stream
            files["challenge_responses"].append(extra)
    _fails(tmp_path, RESP + ": pair C002 lacks a response from stream K, L", change)
