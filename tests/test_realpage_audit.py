"""RealPage's automatic audit and its genealogy (docs/realpage.md#the-audit; v3.genealogy): the search's pieces
worked by hand (folding, the fuzzy bound, the banded edit distance at its bound, every evidence kind on
hand-made pages, the strongest finding chosen), the final copy of a small audit with a drop and a gate
removal, the shipped final copy re-derived by this test's own code, and the released findings damaged record
by record (named at file:line:field) or changed so that a re-derived count fails the run."""

import json
import os

import pytest

from conftest import REPO, read_rows, reproduce_report, resign, write_rows
from nclue.analyses import REGISTRY
from nclue.builder.realpage import v3_audit
from nclue.builder.realpage.v3_writer import section_cid
from nclue.core.errors import InputError
from nclue.core.instrument import Instrument
from nclue.labelaudit.realpage_policy import DECISIONS, EVIDENCE, ROUTES


# ---- the search's pieces, by hand -----------------------------------------------------------------------

def test_fold_and_the_fuzzy_bound():
    assert v3_audit.fold("Point-to-Point\n  PROTOCOL") == "point to point protocol"
    assert [v3_audit.fuzzy_bound(t) for t in ("", "a" * 7, "a" * 8, "a" * 16, "a" * 23)] == [1, 1, 1, 2, 2]


@pytest.mark.parametrize("a,b,bound,expected", [
    ("goals", "goals", 0, True), ("goal", "goals", 1, True), ("goal", "goals", 0, False),
    ("kitten", "sitting", 3, True), ("kitten", "sitting", 2, False), ("", "ab", 2, True), ("", "abc", 2, False),
    ("abcdef", "abdcef", 2, True), ("abcdef", "abdcef", 1, False),
])
def test_within_is_the_edit_distance_at_its_bound(a, b, bound, expected):
    assert v3_audit.within(a, b, bound) is expected
    assert v3_audit.within(b, a, bound) is expected


def _pages(*bodies):
    """An RFC: a title page, a contents page listing 1 Introduction (page 3) and 2 Goals (page 9), then the
    given body pages (page 3 onwards)."""
    contents = "Table of Contents\n\n   1. Introduction ....................... 3\n   2. Goals ........................ 9\n"
    return ["RFC 9999  A Test  January 2023\n"] + [contents] + list(bodies)


def _condition(cid, label, aliases=()):
    return {"cid": cid, "kind": "section" if cid.startswith("sec:") else "entity", "label": label,
            "aliases": list(aliases)}


def test_a_heading_the_contents_list_on_another_page_is_a_repair():
    rfc = v3_audit.RfcPages(_pages("1.  Introduction\n\n   text\n", "2.  Goals\n\n   The goals.\n"))
    assert v3_audit.findings(rfc, _condition("sec:goals", "Goals"), section_cid)[:2] == ("heading_in_contents", 3)


def test_a_heading_the_contents_do_not_list_is_a_drop_and_a_near_one_is_fuzzy():
    rfc = v3_audit.RfcPages(_pages("1.  Introduction\n", "3.  Scope\n", "4.  Examples\n"))
    assert v3_audit.findings(rfc, _condition("sec:scope", "Scope"), section_cid)[:2] == ("heading_only", 3)
    found = v3_audit.findings(rfc, _condition("sec:example", "Example"), section_cid)
    assert found[:2] == ("heading_fuzzy", 4) and "fuzzy" in found[2]
    assert v3_audit.findings(rfc, _condition("sec:security", "Security"), section_cid) is None


@pytest.mark.parametrize("text,expected", [
    ("uses the domain name system (dns) for names", "definition_variant"),
    ("uses the Domain Name\n   System (DNS) for names", "definition_variant"),
    ("uses DNS (Domain-Name System) for names", "definition_reverse"),
    ("uses the Domain Nme System (DNS) for names", "definition_fuzzy"),
    ("uses DNS for names, the Domain Name System", None),
])
def test_each_definition_kind_on_a_body_page(text, expected):
    rfc = v3_audit.RfcPages(_pages("1.  Introduction\n\n   " + text + "\n"))
    found = v3_audit.findings(rfc, _condition("def:DNS", "Domain Name System (DNS)", ["Domain Name System"]),
                              section_cid)
    assert (found and found[0]) == expected
    if found:
        assert found[1] == 2 and set(found[2]) <= set(ROUTES)


def test_the_strongest_finding_wins_and_the_title_page_is_not_read():
    pages = _pages("the domain nme system (dns)\n", "the domain name system (dns)\n")
    pages[0] += "the domain name system (dns)\n"          # the title page is not a body page
    rfc = v3_audit.RfcPages(pages)
    found = v3_audit.findings(rfc, _condition("def:DNS", "Domain Name System (DNS)", ["Domain Name System"]),
                              section_cid)
    assert found[:2] == ("definition_variant", 3)        # the repair's kind on page 4 beats the fuzzy one on page 3


def test_the_policy_table_is_whole():
    assert {e.decision for e in EVIDENCE.values()} == set(DECISIONS)
    assert {e.condition_kind for e in EVIDENCE.values()} == {"section", "entity"}
    assert sum(e.decision == "repair" for e in EVIDENCE.values()) == 3


# ---- a small audit: repairs, a drop and a gate removal ------------------------------------------------

def test_a_small_audit_gives_the_final_copy_by_hand():
    body = "1.  Introduction\n\n   the domain name system (dns)\n"
    pages_of = {"d1": _pages(body, "x\n"), "d2": _pages("y\n", "1.  Introduction\n z (dns)\n"),
                "d3": _pages("3.  Scope\n", "w\n")}
    catalog = [_condition("def:DNS", "Domain Name System (DNS)", ["Domain Name System"]),
               _condition("sec:intro", "Intro"), _condition("sec:scope", "Scope")]
    inventory = [{"docid": "d1", "cid": "sec:intro", "pages": [4]}, {"docid": "d2", "cid": "sec:intro", "pages": [3]},
                 {"docid": "d2", "cid": "def:DNS", "pages": [4]}, {"docid": "d3", "cid": "sec:intro", "pages": [3]}]
    queries = [{"qid": "q1", "n": 2, "conditions": [{"cid": "def:DNS"}, {"cid": "sec:intro"}]},
               {"qid": "q2", "n": 2, "conditions": [{"cid": "sec:intro"}, {"cid": "sec:scope"}]}]
    qrels = [{"qid": "q1", "docid": "d1", "grade": 1}, {"qid": "q1", "docid": "d2", "grade": 2},
             {"qid": "q1", "docid": "d3", "grade": 1},
             {"qid": "q2", "docid": "d1", "grade": 1}, {"qid": "q2", "docid": "d3", "grade": 1}]
    records, final, removed, info = v3_audit.audit(queries, qrels, inventory, catalog, pages_of, section_cid)
    # q1: d1 defines DNS on page 3 (its intro is on page 4): a repair, d1 becomes a gold on distinct pages
    # q2: d3 has a "Scope" heading the contents do not list: a drop removes q2
    assert [(r["qid"], r["docid"], r["evidence"], r["page"]) for r in records] == [
        ("q1", "d1", "definition_variant", 3), ("q2", "d3", "heading_only", 3)]
    assert removed == ["q2"] and info["repairs"] == 1 and info["queries_removed_by_drop"] == 1
    assert final == [{"qid": "q1", "docid": "d1", "grade": 2}, {"qid": "q1", "docid": "d2", "grade": 2},
                     {"qid": "q1", "docid": "d3", "grade": 1}]
    # the same repair on the intro's own page makes d1 single-page-solvable: the gate removes q1
    inventory[0]["pages"] = [3]
    records, final, removed, info = v3_audit.audit(queries, qrels, inventory, catalog, pages_of, section_cid)
    assert removed == ["q1", "q2"] and info["queries_removed_by_gate"] == 1 and final == []


# ---- the shipped final copy, re-derived by this test's own code ---------------------------------------

def _rows(name):
    with open(os.path.join(REPO, "data", "v3", name), encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def test_the_shipped_final_copy_follows_from_the_construction_copy_and_the_findings():
    findings = _rows("audit.jsonl")
    construction = {(r["qid"], r["docid"]): r["grade"] for r in _rows("qrels_construction.jsonl")}
    n = {q["qid"]: q["n"] for q in _rows("queries.jsonl")}
    inventory = {(r["docid"], r["cid"]) for r in _rows("inventory.jsonl")}
    dropped = {f["qid"] for f in findings if f["decision"] == "drop"}
    raised = {}
    for f in findings:
        assert 0 < construction[(f["qid"], f["docid"])] < n[f["qid"]] and (f["docid"], f["cid"]) not in inventory
        if f["decision"] == "repair":
            raised[(f["qid"], f["docid"])] = raised.get((f["qid"], f["docid"]), 0) + 1
    expected = {key: grade + raised.get(key, 0) for key, grade in construction.items() if key[0] not in dropped}
    final = {(r["qid"], r["docid"]): r["grade"] for r in _rows("qrels.jsonl")}
    assert final == expected
    genealogy = json.load(open(os.path.join(REPO, "data", "v3", "genealogy.json"), encoding="utf-8"))
    assert genealogy["synthetic"] is False
    assert genealogy["copies"][1]["removed_queries"] == sorted(dropped)
    assert genealogy["copies"][1]["queries"] == len(n) - len(dropped) == 988
    claims = {c["id"]: c["value"] for c in json.load(open(os.path.join(
        REPO, "reference_metrics", "v3.genealogy.json"), encoding="utf-8"))["claims"]}
    assert claims["v3.genealogy.rederived_differences"] == 0 and claims["v3.genealogy.final_gold_gate_failures"] == 0
    assert claims["v3.genealogy.findings"] == len(findings) and claims["v3.genealogy.repairs"] == sum(raised.values())


# ---- damaged findings -------------------------------------------------------------------------------

def _values(root):
    inst = Instrument(root)
    return {value.id: value.value for unit in REGISTRY["v3.genealogy"].units(inst) for value in unit.compute()}


def _audit_path(root):
    return os.path.join(root, "data", "v3", "audit.jsonl")


def _edit(root, change):
    rows = read_rows(_audit_path(root))
    change(rows)
    write_rows(_audit_path(root), rows)


def _set(field, value, index=0):
    def change(rows):
        rows[index][field] = value
    return change


def _first_of(rows, evidence):
    return next(i for i, r in enumerate(rows) if r["evidence"] == evidence)


def _decision_mismatch(rows):
    i = _first_of(rows, "definition_variant")
    rows[i]["decision"] = "drop"


def _wrong_kind(rows):
    i = _first_of(rows, "definition_variant")
    rows[i]["evidence"] = "heading_only"
    rows[i]["decision"] = "drop"


@pytest.mark.parametrize("change,expected", [
    (_set("qid", "realpage_9999"), "data/v3/audit.jsonl:1: field 'qid'"),
    (_set("docid", "rfc99999"), "data/v3/audit.jsonl:1: field 'docid': unknown document"),
    (_set("cid", "sec:no-such-condition"), "data/v3/audit.jsonl:1: field 'cid'"),
    (_set("evidence", "a_hunch"), "data/v3/audit.jsonl:1: field 'evidence'"),
    (_decision_mismatch, "field 'decision': expected repair for definition_variant evidence"),
    (_wrong_kind, "field 'evidence': heading_only is evidence for a section condition"),
    (_set("page", 0), "data/v3/audit.jsonl:1: field 'page'"),
    (_set("page", 10 ** 6), "data/v3/audit.jsonl:1: field 'page'"),
    (_set("page", "3"), "data/v3/audit.jsonl:1: field 'page'"),
    (_set("routes", ["bm25", "bm25"]), "data/v3/audit.jsonl:1: field 'routes'"),
    (_set("routes", ["telepathy"]), "data/v3/audit.jsonl:1: field 'routes'"),
    (_set("routes", "bm25"), "data/v3/audit.jsonl:1: field 'routes'"),
    (lambda rows: rows.append(dict(rows[0])), "duplicate finding"),
], ids=["unknown query", "unknown document", "not the query's condition", "unknown evidence", "decision not the "
        "policy's", "evidence of the other kind", "page 0", "page outside", "page a string", "duplicate route",
        "unknown route", "routes not a list", "duplicate finding"])
def test_a_damaged_finding_is_named_at_file_line_field(release_copy, change, expected):
    _edit(release_copy, change)
    with pytest.raises(InputError) as caught:
        _values(release_copy)
    assert expected in str(caught.value), str(caught.value)


def test_a_finding_on_a_gold_or_on_a_condition_the_inventory_has_is_named(release_copy):
    qrels = read_rows(os.path.join(release_copy, "data", "v3", "qrels_construction.jsonl"))
    queries = {q["qid"]: q for q in read_rows(os.path.join(release_copy, "data", "v3", "queries.jsonl"))}
    rows = read_rows(_audit_path(release_copy))
    gold = next(r for r in qrels if r["qid"] == rows[0]["qid"] and r["grade"] == queries[r["qid"]]["n"])
    rows[0]["docid"] = gold["docid"]
    write_rows(_audit_path(release_copy), rows)
    with pytest.raises(InputError) as caught:
        _values(release_copy)
    assert "data/v3/audit.jsonl:1: field 'docid'" in str(caught.value) and "not a subset pair" in str(caught.value)


@pytest.mark.parametrize("text,expected", [
    ('{"qid": "realpage_0016", "docid": "rfc6295"', "data/v3/audit.jsonl:1"),
    ('{"cid": "sec:timestamp", "decision": "drop", "docid": "rfc6295", "evidence": "heading_fuzzy", "page": 1e400, '
     '"qid": "realpage_0016", "routes": [], "synthetic": false}\n', "data/v3/audit.jsonl:1"),
    ("[" * 5000 + "]" * 5000 + "\n", "data/v3/audit.jsonl:1"),
], ids=["truncated", "non-finite page", "deeply nested"])
def test_a_broken_audit_file_is_named(release_copy, text, expected):
    with open(_audit_path(release_copy), "w", encoding="utf-8") as fh:
        fh.write(text)
    with pytest.raises(InputError) as caught:
        _values(release_copy)
    assert expected in str(caught.value), str(caught.value)


def test_a_removed_finding_is_counted_and_fails_the_run(release_copy):
    # the drop behind one removed query is deleted: the query is kept by the re-derivation, not by the release
    _edit(release_copy, lambda rows: rows.pop(_first_of(rows, "heading_only")))
    values = _values(release_copy)
    assert values["v3.genealogy.rederived_differences"] >= 1 and values["v3.genealogy.removal_differences"] == 1
    resign(release_copy)
    code, stdout, stderr, report, fails = reproduce_report(release_copy, "--only", "integrity,construction")
    assert code == 1 and "Traceback" not in stdout + stderr
    assert "v3.genealogy.removal_differences" in fails and "v3.genealogy.rederived_differences" in fails


def test_a_changed_final_grade_is_counted(release_copy):
    path = os.path.join(release_copy, "data", "v3", "qrels.jsonl")
    rows = read_rows(path)
    rows[0]["grade"] = 1 if rows[0]["grade"] != 1 else 2
    write_rows(path, rows)
    values = _values(release_copy)
    assert values["v3.genealogy.rederived_differences"] == 1
