"""labelaudit/audit_records worked by hand on a small set of the nine record files written in tmp_path, with
stand-in queries, corpus and initial qrels (no release is built): what a valid set loads into (every pair's
fields, answers, queue, candidates, adjudication, decisions, recall records, page texts and responders), and
for one edit of one file the exact message, naming the file, the line and the field -- the kills of the
mutants mutmut left alive in labelaudit/audit_records.py (docs/recipes.md#mutation-testing).

The releases: v2 has q1 (n = 2: c1, c2) over d1 (12 pages, source S1) and d3 (5 pages, S3), and q2 (n = 3);
v1 has q3 (n = 3: c1, c2, c3) over d2 (9 pages, S2).  The key audits p1 (v2 q1 d1, grade 1), p2 (v1 q3 d2,
gold 3) and p3 (v2 q1 d3, grade 0)."""

import copy
import json
import os
from types import SimpleNamespace

import pytest
from conftest import released

from nclue.core.errors import InputError
from nclue.labelaudit import audit_records


def _query(qid, n):
    return SimpleNamespace(qid=qid, n=n, conditions=[SimpleNamespace(cid="c%d" % (i + 1)) for i in range(n)])


def _releases():
    v1 = ({"q3": _query("q3", 3)}, {"d2": SimpleNamespace(pages=9, source="S2")}, {"q3": {"d2": 3}}, "the v1 copy")
    v2 = (
        {"q1": _query("q1", 2), "q2": _query("q2", 3)},
        {"d1": SimpleNamespace(pages=12, source="S1"), "d3": SimpleNamespace(pages=5, source="S3")},
        {"q1": {"d1": 1}},
    )
    return {"v1": v1, "v2": v2}


def _ans(cid, positive, pages=(), quote=""):
    return {"cid": cid, "positive": positive, "pages": list(pages), "quote": quote}


def _adj(pair, cid, who, positive, pages=(), quote=""):
    return {"pair": pair, "cid": cid, "responder": who, "positive": positive, "pages": list(pages), "quote": quote}


def _cd(pair, cid, votes, majority, override=None, pages=(), reason="", final=False):
    return {
        "pair": pair,
        "cid": cid,
        "votes_positive": votes,
        "majority": majority,
        "override": override,
        "override_pages": list(pages),
        "reason": reason,
        "final": final,
    }


VALID = {
    "key": [
        {
            "pair": "p1",
            "release": "v2",
            "source": "S1",
            "stratum": "subset",
            "frame": "F",
            "qid": "q1",
            "docid": "d1",
            "n": 2,
            "grade_before": 1,
        },
        {
            "pair": "p2",
            "release": "v1",
            "source": "S2",
            "stratum": "gold",
            "frame": "F",
            "qid": "q3",
            "docid": "d2",
            "n": 3,
            "grade_before": 3,
        },
        {
            "pair": "p3",
            "release": "v2",
            "source": "S3",
            "stratum": "subset",
            "frame": "F",
            "qid": "q1",
            "docid": "d3",
            "n": 2,
            "grade_before": 0,
        },
    ],
    "packet": [
        {
            "pair": "p1",
            "release": "v2",
            "docid": "d1",
            "n": 2,
            "conditions": [
                {"cid": "c1", "label": "L1", "shown": [1, 2, 3]},
                {"cid": "c2", "label": "L2", "shown": [4, 5, 12]},
            ],
        },
        {
            "pair": "p2",
            "release": "v1",
            "docid": "d2",
            "n": 3,
            "conditions": [
                {"cid": "c1", "label": "M1", "shown": [1, 2]},
                {"cid": "c2", "label": "M2", "shown": [3]},
                {"cid": "c3", "label": "M3", "shown": [7, 8, 9]},
            ],
        },
        {
            "pair": "p3",
            "release": "v2",
            "docid": "d3",
            "n": 2,
            "conditions": [{"cid": "c1", "label": "N1", "shown": [5]}, {"cid": "c2", "label": "N2", "shown": [1, 2]}],
        },
    ],
    "pages": [
        {"release": "v2", "docid": "d1", "page": 1, "text": "page one of d1"},
        {"release": "v2", "docid": "d1", "page": 12, "text": "the last page"},
        {"release": "v1", "docid": "d2", "page": 1, "text": "page one of v1's d2"},
        {"release": "v2", "docid": "d3", "page": 1, "text": ""},
    ],
    "initial": [
        {"pair": "p1", "responder": "A", "answers": [_ans("c1", True, (2, 1), "page one"), _ans("c2", False)]},
        {"pair": "p1", "responder": "E", "answers": [_ans("c1", True, (1,), "one"), _ans("c2", True, (12,), "last")]},
        {
            "pair": "p2",
            "responder": "E",
            "answers": [_ans("c1", True, (1,), "x"), _ans("c2", False), _ans("c3", True, (9,), "y")],
        },
        {
            "pair": "p2",
            "responder": "A",
            "answers": [_ans("c1", True, (2,), "z"), _ans("c2", True, (3,), "w"), _ans("c3", False)],
        },
        {"pair": "p3", "responder": "A", "answers": [_ans("c1", False), _ans("c2", False)]},
        {"pair": "p3", "responder": "E", "answers": [_ans("c1", False), _ans("c2", False)]},
    ],
    "queue": [
        {
            "pair": "p1",
            "cid": "c2",
            "pool": [4, 5, 12, 6, 7, 8],
            "candidates": {"original_shown": [4, 5, 12], "bm25": [6, 7, 8]},
        },
        {"pair": "p2", "cid": "c3", "pool": [7, 8, 9, 1, 2, 3], "candidates": {"random_fill": [7, 8, 9, 1, 2, 3]}},
        {"pair": "p2", "cid": "c2", "pool": [3, 4, 5, 6, 7, 8], "candidates": {}},
    ],
    "adjudication": [
        _adj("p1", "c2", "R1", True, (4,), "four"),
        _adj("p1", "c2", "R2", False),
        _adj("p1", "c2", "R3", True, (12,), "x"),
        _adj("p2", "c3", "R3", False),
        _adj("p2", "c3", "R1", False),
        _adj("p2", "c3", "R2", False),
        _adj("p2", "c2", "R2", True, (3,), "a"),
        _adj("p2", "c2", "R1", True, (4,), "b"),
        _adj("p2", "c2", "R3", True, (5,), "c"),
    ],
    "condition_decisions": [
        _cd("p1", "c2", 2, True, True, (12,), "admin", True),
        _cd("p2", "c3", 0, False, None, (), "majority", False),
        _cd("p2", "c2", 3, True, False, (), "not on topic", False),
    ],
    "pool_recall": [
        {
            "pair": "p1",
            "cid": "c1",
            "candidates": {"construction": [1], "lexical": [2, 3]},
            "pool": [1, 2, 3],
            "submitted": [1, 2],
        },
    ],
    "decisions": [
        {"pair": "p1", "grade_before": 1, "grade_after": 2, "route": "adjudicated"},
        {"pair": "p3", "grade_before": 0, "grade_after": 0, "route": "keep"},
        {"pair": "p2", "grade_before": 3, "grade_after": 3, "route": "accept-increase"},
    ],
}


def _write(root, files):
    for name in audit_records.FILES:
        path = os.path.join(root, *released("audit", "%s.jsonl").replace("%s", name).split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            for row in files[name]:
                fh.write((row if isinstance(row, str) else json.dumps(row)) + "\n")


def _load(tmp_path, edit=None, releases=None):
    files = copy.deepcopy(VALID)
    if edit is not None:
        edit(files)
    root = str(tmp_path / "root")
    _write(root, files)
    return audit_records.load(root, releases or _releases())


def _err(name, line, field, message):
    where = released("audit", "%s.jsonl").replace("%s", name)
    if line is None:
        return "%s: %s" % (where, message)
    return "%s:%d: field %r: %s" % (where, line, field, message)


def _answer(a):
    return (a.positive, a.pages, a.quote, a.shown)


def test_a_valid_set_loads_every_record(tmp_path):
    """Every field of the three pairs as read, the page texts by (release, document, page), the initial
    responders (A, E) and adjudication responders (R1, R2, R3) sorted, and the page-text lookup."""
    rec = _load(tmp_path)
    assert list(rec.pairs) == ["p1", "p2", "p3"]
    assert rec.initial_responders == ("A", "E") and rec.adjudication_responders == ("R1", "R2", "R3")
    assert rec.pages == {
        ("v2", "d1", 1): "page one of d1",
        ("v2", "d1", 12): "the last page",
        ("v1", "d2", 1): "page one of v1's d2",
        ("v2", "d3", 1): "",
    }
    assert rec.text("v2", "d1")(12) == "the last page" and rec.text("v1", "d1")(1) is None
    p1, p2, p3 = rec.pairs["p1"], rec.pairs["p2"], rec.pairs["p3"]
    assert (p1.pair, p1.release, p1.source, p1.stratum, p1.qid, p1.docid, p1.n, p1.grade_before) == (
        "p1",
        "v2",
        "S1",
        "subset",
        "q1",
        "d1",
        2,
        1,
    )
    assert (p2.pair, p2.release, p2.source, p2.stratum, p2.qid, p2.docid, p2.n, p2.grade_before) == (
        "p2",
        "v1",
        "S2",
        "gold",
        "q3",
        "d2",
        3,
        3,
    )
    assert (p3.source, p3.stratum, p3.docid, p3.grade_before) == ("S3", "subset", "d3", 0)
    assert (p1.cids, p1.labels, p1.shown) == (("c1", "c2"), ("L1", "L2"), ((1, 2, 3), (4, 5, 12)))
    assert (p2.cids, p2.labels, p2.shown) == (("c1", "c2", "c3"), ("M1", "M2", "M3"), ((1, 2), (3,), (7, 8, 9)))
    assert {who: [_answer(a) for a in ans] for who, ans in p1.initial.items()} == {
        "A": [(True, (2, 1), "page one", (1, 2, 3)), (False, (), "", (4, 5, 12))],
        "E": [(True, (1,), "one", (1, 2, 3)), (True, (12,), "last", (4, 5, 12))],
    }
    assert [_answer(a) for a in p2.initial["E"]] == [
        (True, (1,), "x", (1, 2)),
        (False, (), "", (3,)),
        (True, (9,), "y", (7, 8, 9)),
    ]
    assert p1.queue == {"c2": (4, 5, 12, 6, 7, 8)} and p2.queue == {"c3": (7, 8, 9, 1, 2, 3), "c2": (3, 4, 5, 6, 7, 8)}
    assert p3.queue == {} and p3.candidates == {} and p3.adjudication == {} and p3.recall == {}
    assert p1.candidates == {"c2": {"bm25": (6, 7, 8), "original_shown": (4, 5, 12)}}
    assert list(p1.candidates["c2"]) == ["bm25", "original_shown"]
    assert p2.candidates == {"c3": {"random_fill": (7, 8, 9, 1, 2, 3)}, "c2": {}}
    assert {who: _answer(a) for who, a in p1.adjudication["c2"].items()} == {
        "R1": (True, (4,), "four", (4, 5, 12, 6, 7, 8)),
        "R2": (False, (), "", (4, 5, 12, 6, 7, 8)),
        "R3": (True, (12,), "x", (4, 5, 12, 6, 7, 8)),
    }
    assert _answer(p2.adjudication["c2"]["R3"]) == (True, (5,), "c", (3, 4, 5, 6, 7, 8))

    def decision(d):
        return (d.votes_positive, d.majority, d.override, d.override_pages, d.reason, d.final, d.line)

    assert decision(p1.condition_decisions["c2"]) == (2, True, True, (12,), "admin", True, 1)
    assert decision(p2.condition_decisions["c3"]) == (0, False, None, (), "majority", False, 2)
    assert decision(p2.condition_decisions["c2"]) == (3, True, False, (), "not on topic", False, 3)
    assert p1.recall == {"c1": ({"construction": (1,), "lexical": (2, 3)}, (1, 2, 3), (1, 2))}
    assert (p1.decision, p2.decision, p3.decision) == ((2, "adjudicated"), (3, "accept-increase"), (0, "keep"))


def test_a_set_without_adjudication_has_no_adjudication_responders(tmp_path):
    """Nothing queued, no adjudication, no condition decisions: the adjudication responders are ()."""

    def edit(f):
        for name in ("queue", "adjudication", "condition_decisions"):
            f[name] = []

    rec = _load(tmp_path, edit)
    assert rec.adjudication_responders == () and all(p.queue == {} for p in rec.pairs.values())


def test_a_query_absent_from_the_initial_qrels_grades_0(tmp_path):
    """A key pair whose query has no row at all in the initial qrels has grade 0 there: p1's grade 1 is named."""
    releases = _releases()
    releases["v2"] = releases["v2"][:2] + ({},)
    with pytest.raises(InputError) as info:
        _load(tmp_path, releases=releases)
    assert str(info.value) == _err("key", 1, "grade_before", "is 1 but the initial v2 qrels gives 0")


def test_the_key_names_its_qrels_path_or_the_release(tmp_path):
    """A grade before that the initial copy contradicts names that copy's path when given (v1) and "the initial
    <release> qrels" otherwise (v2)."""

    def v1(f):
        f["key"][1]["grade_before"] = 2
        f["key"][1]["stratum"] = "subset"

    with pytest.raises(InputError) as info:
        _load(tmp_path, v1)
    assert str(info.value) == _err("key", 2, "grade_before", "is 2 but the v1 copy gives 3")

    def v2(f):
        f["key"][2]["grade_before"] = 2

    with pytest.raises(InputError) as info:
        _load(tmp_path, v2)
    assert str(info.value) == _err("key", 3, "grade_before", "is 2 but the initial v2 qrels gives 0")


def _set(name, i, **fields):
    def edit(f):
        f[name][i].update(fields)

    return edit


def _drop(name, i, field):
    def edit(f):
        del f[name][i][field]

    return edit


def _rows(name, rows):
    def edit(f):
        f[name] = rows(f[name])

    return edit


def _cond(i, j, **fields):
    def edit(f):
        f["packet"][i]["conditions"][j].update(fields)

    return edit


def _answer_edit(i, j, **fields):
    def edit(f):
        f["initial"][i]["answers"][j].update(fields)

    return edit


ALL_ROUTES = "prior_selected, construction, original_shown, lexical, bm25, ocr_fuzzy, random_fill"
CASES = [
    # key.jsonl
    ("key-pair-id", _set("key", 1, pair="p/2"), ("key", 2, "pair", "not a valid pair identifier: 'p/2'")),
    (
        "key-pair-33",
        _set("key", 0, pair="p" * 33),
        ("key", 1, "pair", "not a valid pair identifier: '%s'" % ("p" * 33)),
    ),
    ("key-duplicate", _rows("key", lambda r: r + [dict(r[0])]), ("key", 4, "pair", "duplicate pair 'p1'")),
    (
        "key-twice",
        _rows("key", lambda r: r + [dict(r[0], pair="p4")]),
        ("key", 4, "pair", "pair p4 audits v2 / q1 / d1, which pair p1 already audits (a pair is audited once)"),
    ),
    ("key-release", _set("key", 0, release="v3"), ("key", 1, "release", 'must be one of v1/v2, got "v3"')),
    ("key-qid", _set("key", 0, qid="q3"), ("key", 1, "qid", "unknown v2 query 'q3'")),
    ("key-docid", _set("key", 1, docid="d1"), ("key", 2, "docid", "unknown v1 document 'd1'")),
    ("key-n-low", _set("key", 0, n=1), ("key", 1, "n", "out of range 2..3, got 1")),
    ("key-n-high", _set("key", 1, n=4), ("key", 2, "n", "out of range 2..3, got 4")),
    ("key-n-query", _set("key", 0, n=3), ("key", 1, "n", "is 3 but query q1 has n = 2")),
    ("key-g0-low", _set("key", 2, grade_before=-1), ("key", 3, "grade_before", "out of range 0..2, got -1")),
    ("key-g0-high", _set("key", 0, grade_before=3), ("key", 1, "grade_before", "out of range 0..2, got 3")),
    ("key-stratum", _set("key", 0, stratum="all"), ("key", 1, "stratum", 'must be one of gold/subset, got "all"')),
    (
        "key-not-gold",
        _set("key", 1, stratum="subset"),
        ("key", 2, "stratum", "is 'subset' but the grade before is 3 of 3"),
    ),
    ("key-gold", _set("key", 0, stratum="gold"), ("key", 1, "stratum", "is 'gold' but the grade before is 1 of 2")),
    ("key-source", _set("key", 2, source="S1"), ("key", 3, "source", "is 'S1' but d3 is from 'S3'")),
    ("key-empty", _rows("key", lambda r: []), ("key", None, None, "no audited pairs")),
    # packet.jsonl
    (
        "packet-unknown",
        _set("packet", 0, pair="p9"),
        ("packet", 1, "pair", "unknown pair 'p9' (not in %s)" % released("audit", "key.jsonl")),
    ),
    ("packet-repeated", _rows("packet", lambda r: r + [r[1]]), ("packet", 4, "pair", "pair 'p2' repeated")),
    ("packet-release", _set("packet", 1, release="v2"), ("packet", 2, "docid", "does not match the key for pair p2")),
    ("packet-docid", _set("packet", 2, docid="d1"), ("packet", 3, "docid", "does not match the key for pair p3")),
    (
        "packet-missing",
        _rows("packet", lambda r: r[:1]),
        ("packet", None, None, "pair p2 of the key has no packet row"),
    ),
    (
        "packet-count",
        _rows("packet", lambda r: [dict(r[0], conditions=r[0]["conditions"][:1])] + r[1:]),
        ("packet", 1, "conditions", "has 1 conditions but query q1 has 2"),
    ),
    (
        "packet-object",
        _rows("packet", lambda r: r[:1] + [dict(r[1], conditions=r[1]["conditions"][:2] + [7])] + r[2:]),
        ("packet", 2, "conditions[2]", "must be an object"),
    ),
    ("packet-cid", _cond(1, 1, cid="c3"), ("packet", 2, "conditions[1].cid", "is 'c3' but condition 2 of q3 is 'c2'")),
    ("packet-label", _cond(0, 1, label=""), ("packet", 1, "conditions[1].label", 'must be a non-empty string, got ""')),
    ("packet-shown-empty", _cond(2, 0, shown=[]), ("packet", 3, "conditions[0].shown", "must be a non-empty list")),
    (
        "packet-shown-range",
        _cond(2, 0, shown=[6]),
        ("packet", 3, "conditions[0].shown", "page 6 outside the document (1..5)"),
    ),
    (
        "packet-shown-zero",
        _cond(0, 0, shown=[0]),
        ("packet", 1, "conditions[0].shown", "page 0 outside the document (1..12)"),
    ),
    (
        "packet-shown-13",
        _cond(0, 1, shown=[13]),
        ("packet", 1, "conditions[1].shown", "page 13 outside the document (1..12)"),
    ),
    (
        "packet-shown-bool",
        _cond(0, 0, shown=[True]),
        ("packet", 1, "conditions[0].shown", "page True outside the document (1..12)"),
    ),
    (
        "packet-shown-str",
        _cond(0, 0, shown=["2"]),
        ("packet", 1, "conditions[0].shown", "page '2' outside the document (1..12)"),
    ),
    ("packet-shown-repeat", _cond(0, 0, shown=[2, 3, 2]), ("packet", 1, "conditions[0].shown", "page 2 repeated")),
    # pages.jsonl
    ("pages-release", _set("pages", 0, release="v9"), ("pages", 1, "release", 'must be one of v1/v2, got "v9"')),
    ("pages-docid", _set("pages", 2, docid="d1"), ("pages", 3, "docid", "unknown v1 document 'd1'")),
    ("pages-page", _set("pages", 3, page=6), ("pages", 4, "page", "out of range 1..5, got 6")),
    ("pages-page-zero", _set("pages", 3, page=0), ("pages", 4, "page", "out of range 1..5, got 0")),
    ("pages-text", _set("pages", 1, text=None), ("pages", 2, "text", "must be a string")),
    (
        "pages-repeated",
        _rows("pages", lambda r: r + [dict(r[1], text="again")]),
        ("pages", 5, "page", "page 12 of d1 repeated"),
    ),
    # initial.jsonl
    (
        "initial-repeated",
        _rows("initial", lambda r: r + [r[3]]),
        ("initial", 7, "responder", "responder A repeated for pair p2"),
    ),
    (
        "initial-count",
        _rows("initial", lambda r: r[:2] + [dict(r[2], answers=r[2]["answers"][:2])] + r[3:]),
        ("initial", 3, "answers", "has 2 answers but pair p2 has 3 conditions"),
    ),
    ("initial-cid", _answer_edit(2, 2, cid="c2"), ("initial", 3, "answers[2].cid", "is 'c2' but condition 3 is 'c3'")),
    (
        "initial-object",
        _rows("initial", lambda r: [dict(r[0], answers=[r[0]["answers"][0], "no"])] + r[1:]),
        ("initial", 1, "answers[1]", "must be an object"),
    ),
    (
        "initial-positive",
        _answer_edit(1, 0, positive="yes"),
        ("initial", 2, "answers[0].positive", 'must be true or false, got "yes"'),
    ),
    (
        "initial-pages",
        _answer_edit(1, 1, pages=[13]),
        ("initial", 2, "answers[1].pages", "page 13 outside the document (1..12)"),
    ),
    (
        "initial-pages-repeat",
        _answer_edit(1, 1, pages=[12, 12]),
        ("initial", 2, "answers[1].pages", "page 12 repeated"),
    ),
    ("initial-quote", _answer_edit(0, 1, quote=None), ("initial", 1, "answers[1].quote", "must be a string")),
    (
        "initial-quote-missing",
        _rows(
            "initial",
            lambda r: [dict(r[0], answers=[{"cid": "c1", "positive": False, "pages": []}, r[0]["answers"][1]])] + r[1:],
        ),
        ("initial", 1, "answers[0].quote", "missing"),
    ),
    (
        "initial-three",
        _rows("initial", lambda r: r + [dict(r[0], responder="B")]),
        ("initial", None, None, "needs exactly two initial responders, found ['A', 'B', 'E']"),
    ),
    (
        "initial-one",
        _rows("initial", lambda r: [x for x in r if x["responder"] == "A"]),
        ("initial", None, None, "needs exactly two initial responders, found ['A']"),
    ),
    (
        "initial-lacks",
        _rows("initial", lambda r: r[:4] + r[5:]),
        ("initial", None, None, "pair p3 lacks a response from A"),
    ),
    (
        "initial-lacks-both",
        _rows("initial", lambda r: r[:4]),
        ("initial", None, None, "pair p3 lacks a response from A, E"),
    ),
    # queue.jsonl
    ("queue-cid", _set("queue", 0, cid="c3"), ("queue", 1, "cid", "pair p1 has no condition 'c3'")),
    ("queue-twice", _rows("queue", lambda r: r + [r[2]]), ("queue", 4, "cid", "condition c2 of pair p2 queued twice")),
    ("queue-pool", _set("queue", 1, pool=[]), ("queue", 2, "pool", "must be a non-empty list")),
    ("queue-pool-range", _set("queue", 1, pool=[10]), ("queue", 2, "pool", "page 10 outside the document (1..9)")),
    (
        "queue-candidates",
        _set("queue", 0, candidates=[4]),
        ("queue", 1, "candidates", "must be an object {route: [pages]}"),
    ),
    (
        "queue-route",
        _set("queue", 0, candidates={"bm25": [4], "best": [5]}),
        ("queue", 1, "candidates.best", "unknown route (expected one of %s)" % ALL_ROUTES),
    ),
    (
        "queue-route-pages",
        _set("queue", 2, candidates={"lexical": [3, 10]}),
        ("queue", 3, "candidates.lexical", "page 10 outside the document (1..9)"),
    ),
    (
        "queue-route-list",
        _set("queue", 2, candidates={"lexical": 3}),
        ("queue", 3, "candidates.lexical", "must be a list, got 3"),
    ),
    # adjudication.jsonl
    (
        "adj-not-queued",
        _set("adjudication", 1, cid="c1"),
        (
            "adjudication",
            2,
            "cid",
            "condition c1 of pair p1 is not in the adjudication queue (%s)" % released("audit", "queue.jsonl"),
        ),
    ),
    (
        "adj-repeated",
        _rows("adjudication", lambda r: r + [r[4]]),
        ("adjudication", 10, "responder", "responder R1 repeated for p2 / c3"),
    ),
    ("adj-quote", _set("adjudication", 0, quote=5), ("adjudication", 1, "quote", "must be a string")),
    (
        "adj-pages",
        _set("adjudication", 0, pages=[0]),
        ("adjudication", 1, "pages", "page 0 outside the document (1..12)"),
    ),
    ("adj-positive", _drop("adjudication", 3, "positive"), ("adjudication", 4, "positive", "missing")),
    (
        "adj-four",
        _rows("adjudication", lambda r: r + [dict(r[0], responder="R4")]),
        ("adjudication", None, None, "needs exactly three adjudication responders, found ['R1', 'R2', 'R3', 'R4']"),
    ),
    (
        "adj-two",
        _rows("adjudication", lambda r: [x for x in r if x["responder"] != "R3"]),
        ("adjudication", None, None, "needs exactly three adjudication responders, found ['R1', 'R2']"),
    ),
    (
        "adj-lacks",
        _rows("adjudication", lambda r: r[:7] + r[8:]),
        ("adjudication", None, None, "queued condition c2 of pair p2 lacks responses"),
    ),
    (
        "adj-lacks-all",
        _rows("adjudication", lambda r: r[:6]),
        ("adjudication", None, None, "queued condition c2 of pair p2 lacks responses"),
    ),
    # condition_decisions.jsonl
    (
        "cd-not-queued",
        _set("condition_decisions", 2, cid="c1"),
        ("condition_decisions", 3, "cid", "condition c1 of pair p2 is not in the adjudication queue"),
    ),
    (
        "cd-twice",
        _rows("condition_decisions", lambda r: r + [r[1]]),
        ("condition_decisions", 4, "cid", "condition c3 of pair p2 decided twice"),
    ),
    (
        "cd-override",
        _set("condition_decisions", 1, override="no"),
        ("condition_decisions", 2, "override", "must be null or a boolean"),
    ),
    (
        "cd-override-number",
        _set("condition_decisions", 1, override=0),
        ("condition_decisions", 2, "override", "must be null or a boolean"),
    ),
    (
        "cd-reason",
        _set("condition_decisions", 2, reason=" "),
        ("condition_decisions", 3, "reason", "an administrative override must state its reason"),
    ),
    ("cd-reason-missing", _drop("condition_decisions", 1, "reason"), ("condition_decisions", 2, "reason", "missing")),
    (
        "cd-pages-negative",
        _set("condition_decisions", 2, override_pages=[3]),
        ("condition_decisions", 3, "override_pages", "only a positive override selects pages"),
    ),
    (
        "cd-pages-null",
        _set("condition_decisions", 1, override_pages=[7]),
        ("condition_decisions", 2, "override_pages", "only a positive override selects pages"),
    ),
    (
        "cd-pages-pool",
        _set("condition_decisions", 0, override_pages=[12, 9, 3]),
        ("condition_decisions", 1, "override_pages", "page 9 is not in the condition's pool"),
    ),
    (
        "cd-pages-range",
        _set("condition_decisions", 0, override_pages=[13]),
        ("condition_decisions", 1, "override_pages", "page 13 outside the document (1..12)"),
    ),
    (
        "cd-votes",
        _set("condition_decisions", 1, votes_positive=4),
        ("condition_decisions", 2, "votes_positive", "out of range 0..3, got 4"),
    ),
    (
        "cd-votes-low",
        _set("condition_decisions", 1, votes_positive=-1),
        ("condition_decisions", 2, "votes_positive", "out of range 0..3, got -1"),
    ),
    (
        "cd-majority",
        _set("condition_decisions", 0, majority=1),
        ("condition_decisions", 1, "majority", "must be true or false, got 1"),
    ),
    ("cd-final", _drop("condition_decisions", 2, "final"), ("condition_decisions", 3, "final", "missing")),
    # pool_recall.jsonl
    ("recall-cid", _set("pool_recall", 0, cid="c9"), ("pool_recall", 1, "cid", "pair p1 has no condition 'c9'")),
    (
        "recall-twice",
        _rows("pool_recall", lambda r: r + [r[0]]),
        ("pool_recall", 2, "cid", "condition c1 of pair p1 checked twice"),
    ),
    (
        "recall-prior",
        _set("pool_recall", 0, candidates={"prior_selected": [1]}),
        (
            "pool_recall",
            1,
            "candidates.prior_selected",
            "unknown route (expected one of %s)" % ALL_ROUTES.replace("prior_selected, ", ""),
        ),
    ),
    ("recall-pool", _set("pool_recall", 0, pool=[]), ("pool_recall", 1, "pool", "must be a non-empty list")),
    (
        "recall-submitted",
        _set("pool_recall", 0, submitted=[]),
        ("pool_recall", 1, "submitted", "must be a non-empty list"),
    ),
    (
        "recall-submitted-range",
        _set("pool_recall", 0, submitted=[13]),
        ("pool_recall", 1, "submitted", "page 13 outside the document (1..12)"),
    ),
    (
        "recall-unknown-pair",
        _set("pool_recall", 0, pair="px"),
        ("pool_recall", 1, "pair", "unknown pair 'px' (not in %s)" % released("audit", "key.jsonl")),
    ),
    # decisions.jsonl
    ("decisions-twice", _rows("decisions", lambda r: r + [r[1]]), ("decisions", 4, "pair", "pair 'p3' decided twice")),
    (
        "decisions-g0",
        _set("decisions", 0, grade_before=2),
        ("decisions", 1, "grade_before", "does not match the key for pair p1"),
    ),
    (
        "decisions-g0-range",
        _set("decisions", 1, grade_before=3),
        ("decisions", 2, "grade_before", "out of range 0..2, got 3"),
    ),
    (
        "decisions-g0-low",
        _set("decisions", 1, grade_before=-1),
        ("decisions", 2, "grade_before", "out of range 0..2, got -1"),
    ),
    (
        "decisions-after",
        _set("decisions", 2, grade_after=4),
        ("decisions", 3, "grade_after", "out of range 0..3, got 4"),
    ),
    (
        "decisions-after-low",
        _set("decisions", 2, grade_after=-1),
        ("decisions", 3, "grade_after", "out of range 0..3, got -1"),
    ),
    (
        "decisions-route",
        _set("decisions", 0, route="needs-adjudication"),
        ("decisions", 1, "route", 'must be one of accept-increase/adjudicated/keep, got "needs-adjudication"'),
    ),
    (
        "decisions-missing",
        _rows("decisions", lambda r: r[:1] + r[2:]),
        ("decisions", None, None, "pair p3 has no decision"),
    ),
]


@pytest.mark.parametrize("edit, expect", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_an_edited_file_raises_its_message(tmp_path, edit, expect):
    """One edit of one file: the loader's message, naming the file, the line and the field (module doc)."""
    with pytest.raises(InputError) as info:
        _load(tmp_path, edit)
    assert str(info.value) == _err(*expect)


def test_boundary_values_load(tmp_path):
    """The largest allowed values load: a pair id of 32 characters with every allowed kind of character, a page
    equal to the document's page count, 3 positive votes, an override of the pool's last page."""
    pid = "Az09_.:-" * 4

    def edit(f):
        for name in ("key", "packet", "initial", "decisions"):
            for row in f[name]:
                if row["pair"] == "p3":
                    row["pair"] = pid
        f["packet"][2]["conditions"][0]["shown"] = [5, 4, 3, 2, 1]

    rec = _load(tmp_path, edit)
    assert list(rec.pairs) == ["p1", "p2", pid] and rec.pairs[pid].shown[0] == (5, 4, 3, 2, 1)
    assert rec.pairs["p2"].condition_decisions["c2"].votes_positive == 3


def test_packet_conditions_and_answers_list_directly():
    """The two helpers other loaders share: a packet row's conditions (cids, labels, page lists as tuples) and
    a row's answers, each answer carrying the pages its evaluator was shown."""
    from nclue.core.jsonio import Row

    query = _query("q1", 2)
    row = Row(
        {"conditions": [{"cid": "c1", "label": "a", "pages": [3]}, {"cid": "c2", "label": "b", "pages": [1, 2]}]},
        "f.jsonl",
        4,
    )
    assert audit_records.packet_conditions(row, query, "pages", 3) == (("c1", "c2"), ("a", "b"), ((3,), (1, 2)))
    with pytest.raises(InputError) as info:
        audit_records.packet_conditions(row, query, "pages", 2)
    assert str(info.value) == "f.jsonl:4: field 'conditions[0].pages': page 3 outside the document (1..2)"
    row = Row({"answers": [_ans("c1", True, (2,), "q"), _ans("c2", False)]}, "g.jsonl", 9)
    answers = audit_records.answers_list(row, "p", ("c1", "c2"), 2, ((1, 2), (2,)))
    assert [_answer(a) for a in answers] == [(True, (2,), "q", (1, 2)), (False, (), "", (2,))]
    with pytest.raises(InputError) as info:
        audit_records.answers_list(row, "p", ("c1", "c3"), 2, ((1, 2), (2,)))
    assert str(info.value) == "g.jsonl:9: field 'answers[1].cid': is 'c2' but condition 2 is 'c3'"


def test_record_loading_names_the_key_file_it_was_given(tmp_path):
    """RecordLoading (shared with the challenge's loader) reads rows with their file and line, and an unknown
    pair's message names the key file it was built with."""
    root = str(tmp_path / "root")
    _write(root, VALID)
    loading = audit_records.RecordLoading(root, "decisions")
    rows = list(loading.rows("pages"))
    assert [(r.where, r.line, r.obj["page"]) for r in rows] == [
        (released("audit", "pages.jsonl"), i + 1, pg) for i, pg in enumerate((1, 12, 1, 1))
    ]
    with pytest.raises(InputError) as info:
        loading.pair_of(rows[0], "docid")
    assert str(info.value) == _err(
        "pages", 1, "docid", "unknown pair 'd1' (not in %s)" % released("audit", "decisions.jsonl")
    )
    loading.pairs["d1"] = "the pair"
    assert loading.pair_of(rows[0], "docid") == "the pair"
    assert audit_records.path_of("queue") == released("audit", "queue.jsonl")


def test_load_for_checks_each_release_against_its_construction_copy(mini_all, tmp_path):
    """load_for on the mini release (its data copied into tmp_path): the records load with each pair's
    release as the key says, and a grade before changed on a v1 and on a v2 line is named against that
    release's construction copy."""
    import shutil

    from nclue.core.instrument import Instrument

    root = str(tmp_path / "root")
    shutil.copytree(os.path.join(mini_all, "data"), os.path.join(root, "data"))
    rec = audit_records.load_for(Instrument(root))
    assert {p.release for p in rec.pairs.values()} == {"v1", "v2"}
    key = os.path.join(root, *released("audit", "key.jsonl").split("/"))
    lines = open(key, encoding="utf-8").read().splitlines()
    for release in ("v1", "v2"):
        i = next(i for i, line in enumerate(lines) if json.loads(line)["release"] == release)
        row = json.loads(lines[i])
        edited = dict(row, grade_before=(row["grade_before"] + 1) % (row["n"] + 1))
        with open(key, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines[:i] + [json.dumps(edited)] + lines[i + 1:]) + "\n")
        with pytest.raises(InputError) as info:
            audit_records.load_for(Instrument(root))
        assert str(info.value) == _err("key", i + 1, "grade_before", "is %d but %s gives %d" % (
            edited["grade_before"], released(release, "qrels_construction.jsonl"), row["grade_before"]))
    with open(key, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    assert len(audit_records.load_for(Instrument(root)).pairs) == len(lines)
