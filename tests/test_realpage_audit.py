"""RealPage's automatic audit and its genealogy (docs/realpage.md#the-audit; v3.genealogy): the search's pieces
worked by hand (folding, the fuzzy bound, the banded edit distance at its bound, every evidence kind on
hand-made pages, the strongest finding chosen), the final copy of a small audit with a drop and a gate
removal, the shipped final copy re-derived by this test's own code, and the released findings damaged record
by record (named at file:line:field) or changed so that a re-derived count fails the run."""

import itertools
import json
import os
from collections import Counter

import pytest
from conftest import REPO, read_rows, released, reproduce_report, resign, write_rows

from nclue.analyses import REGISTRY
from nclue.builder.realpage import fact_miner, v3_audit
from nclue.builder.realpage.v3_writer import section_cid, sense_cid
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


def _condition(label, aliases=()):
    """A catalog condition as the builder writes it: a section's id from its folded title, a sense's from its
    acronym and long form."""
    if not aliases:
        return {"cid": section_cid(fact_miner.title_key(label)), "kind": "section", "label": label, "aliases": [],
                "mined": label}
    acronym = label.rsplit("(", 1)[1].rstrip(")")
    return {"cid": sense_cid(acronym, fact_miner.sense_key(aliases[0])), "kind": "entity", "label": label,
            "aliases": list(aliases), "mined": acronym}


DNS = _condition("Domain Name System (DNS)", ["Domain Name System"])


def test_a_heading_the_contents_list_is_a_repair_whatever_page_they_name():
    """The miner's own rule re-read: the contents name page 9, the heading is on page 4."""
    pages = _pages("1.  Introduction\n\n   text\n", "2.  Goals\n\n   The goals.\n")
    rfc = v3_audit.RfcPages(pages)
    assert fact_miner.mine(pages)["sections"]["goal"] == ("Goals", {3})
    assert v3_audit.findings(rfc, _condition("Goals"), section_cid)[:2] == ("heading_in_contents", 3)
    assert v3_audit.findings(rfc, _condition("Goal"), section_cid)[:2] == ("heading_in_contents", 3)   # plural


def test_a_heading_the_contents_do_not_list_is_a_drop_and_a_near_one_is_fuzzy():
    rfc = v3_audit.RfcPages(_pages("1.  Introduction\n", "3.  Scope\n", "4.  Notifier Generating of Requests\n",
                                   "\nSecurity Considerations\n\n   text\n", "5.  IAB Considerations\n"))
    assert v3_audit.findings(rfc, _condition("Scope"), section_cid)[:2] == ("heading_only", 3)
    found = v3_audit.findings(rfc, _condition("Notifier Generation of Requests"), section_cid)
    assert found[:2] == ("heading_fuzzy", 4) and "fuzzy" in found[2]
    # an unnumbered heading between blank lines: a heading without a number, in doubt
    assert v3_audit.findings(rfc, _condition("Security Considerations"), section_cid)[:2] == ("heading_unnumbered", 5)
    # "IAB" is not a misspelled "IANA": short words that differ are other sections
    assert v3_audit.findings(rfc, _condition("IANA Considerations"), section_cid) is None
    assert v3_audit.findings(rfc, _condition("Security"), section_cid) is None


@pytest.mark.parametrize("text,expected", [
    ("uses the domain name system (DNS) for names", "definition_variant"),
    ("uses the domain name system (dns) for names", "definition_lowercase"),        # "dns" is no acronym
    ("uses dns (domain name system) for names", "definition_lowercase"),
    ("uses the Domain Name\n   System (DNS) for names", "definition_variant"),
    ("uses the domain name systems (DNSs) for names", "definition_variant"),       # a plural
    ("uses DNS (Domain-Name System) for names", "definition_reverse"),
    ("uses the Domain Nme System (DNS) for names", "definition_fuzzy"),
    ("uses DNS for names, the Domain Name System", None),
    ("uses the Domain Name Service (DNS) for names", None),                        # another sense of DNS
    ("Domain Name System ----------------- (DNS)", None),                          # a list's leader dashes
    ("DNS: Domain Name System\n   and more prose here", "definition_glossary"),
    ("| Domain Name System (DNS)   | resolver |\n   prose\n   prose", "definition_in_table"),
])
def test_each_definition_kind_on_a_body_page(text, expected):
    rfc = v3_audit.RfcPages(_pages("1.  Introduction\n\n   " + text + "\n"))
    found = v3_audit.findings(rfc, DNS, section_cid)
    assert (found and found[0]) == expected
    if found:
        assert found[1] == 2 and set(found[2]) <= set(ROUTES)


def test_a_listed_glossary_line_is_evidence_under_a_glossary_heading_only():
    under = _pages("1.  Terminology\n\n   DNS     Domain Name System\n")
    outside = _pages("1.  Introduction\n\n   DNS     Domain Name System\n")
    assert v3_audit.findings(v3_audit.RfcPages(under), DNS, section_cid)[:2] == ("definition_glossary", 2)
    assert v3_audit.findings(v3_audit.RfcPages(outside), DNS, section_cid) is None


def test_the_strongest_finding_wins_and_the_title_page_is_read_but_not_the_references():
    pages = _pages("the domain nme system (dns)\n", "the domain name system (DNS)\n")
    rfc = v3_audit.RfcPages(pages)
    assert v3_audit.findings(rfc, DNS, section_cid)[:2] == ("definition_variant", 3)   # a repair beats a drop
    pages[0] += "a product of the domain name system (DNS)\n"          # the title page defines too
    assert v3_audit.findings(v3_audit.RfcPages(pages), DNS, section_cid)[:2] == ("definition_variant", 0)
    cited = _pages("1.  Introduction\n", "2.  References\n\n   [1] Domain Name System (DNS), RFC 1035\n")
    assert v3_audit.findings(v3_audit.RfcPages(cited), DNS, section_cid) is None      # a citation defines nothing


def test_the_policy_table_is_whole():
    assert {e.decision for e in EVIDENCE.values()} == set(DECISIONS)
    assert {e.condition_kind for e in EVIDENCE.values()} == {"section", "entity"}
    assert sorted(k for k, e in EVIDENCE.items() if e.decision == "repair") == [
        "definition_glossary", "definition_reverse", "definition_variant", "heading_in_contents"]


# ---- a small audit: repairs, a drop and a gate removal ------------------------------------------------

def test_a_small_audit_gives_the_final_copy_by_hand():
    body = "1.  Introduction\n\n   the domain name system (DNS)\n"
    pages_of = {"d1": _pages(body, "x\n"), "d2": _pages("y\n", "1.  Introduction\n z (dns)\n"),
                "d3": _pages("3.  Scope\n", "w\n")}
    dns, intro, scope = DNS["cid"], "sec:intro", "sec:scope"
    catalog = [DNS, _condition("Intro"), _condition("Scope")]
    inventory = [{"docid": "d1", "cid": intro, "pages": [4]}, {"docid": "d2", "cid": intro, "pages": [3]},
                 {"docid": "d2", "cid": dns, "pages": [4]}, {"docid": "d3", "cid": intro, "pages": [3]}]
    queries = [{"qid": "q1", "n": 2, "conditions": [{"cid": dns}, {"cid": intro}]},
               {"qid": "q2", "n": 2, "conditions": [{"cid": intro}, {"cid": scope}]}]
    qrels = [{"qid": "q1", "docid": "d1", "grade": 1}, {"qid": "q1", "docid": "d2", "grade": 2},
             {"qid": "q1", "docid": "d3", "grade": 1},
             {"qid": "q2", "docid": "d1", "grade": 1}, {"qid": "q2", "docid": "d3", "grade": 1}]
    records, final, removed, info = v3_audit.audit(queries, qrels, inventory, catalog, pages_of, section_cid, 5)
    # q1: d1 defines DNS on page 3 (its intro is on page 4): a repair, d1 becomes a gold on distinct pages
    # q2: d3 has a "Scope" heading the contents do not list: a drop removes q2
    assert [(r["qid"], r["docid"], r["evidence"], r["page"]) for r in records] == [
        ("q1", "d1", "definition_variant", 3), ("q2", "d3", "heading_only", 3)]
    assert removed == ["q2"] and info["repairs"] == 1 and info["queries_removed_by_drop"] == 1
    assert final == [{"qid": "q1", "docid": "d1", "grade": 2}, {"qid": "q1", "docid": "d2", "grade": 2},
                     {"qid": "q1", "docid": "d3", "grade": 1}]
    # the same repair on the intro's own page makes d1 single-page-solvable: the gate removes q1
    records, final, removed, info = v3_audit.audit(queries, qrels, inventory, catalog, pages_of, section_cid, 1)
    # with a cap of one gold query per RFC, the repair would make d1 gold twice (q1, and q2 below): q1 goes
    assert removed == ["q2"] and final != []                        # d1 is gold in q1 only: the cap holds
    queries.append({"qid": "q3", "n": 2, "conditions": [{"cid": dns}, {"cid": intro}]})
    qrels += [{"qid": "q3", "docid": "d1", "grade": 2}] + [{"qid": "q3", "docid": d, "grade": 1} for d in ("d2", "d3")]
    records, final, removed, info = v3_audit.audit(queries, qrels, inventory, catalog, pages_of, section_cid, 1)
    assert removed == ["q1", "q2"] and info["queries_removed_by_cap"] == 1      # d1 is gold in q3 already
    assert {row["qid"] for row in final} == {"q3"}
    records, final, removed, info = v3_audit.audit(queries, qrels, inventory, catalog, pages_of, section_cid, 2)
    assert removed == ["q2"] and info["queries_removed_by_cap"] == 0             # a cap of two admits both
    queries.pop(), [qrels.pop() for _ in range(3)]
    inventory[0]["pages"] = [3]
    records, final, removed, info = v3_audit.audit(queries, qrels, inventory, catalog, pages_of, section_cid, 5)
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
    pages_of = {(r["docid"], r["cid"]): r["pages"] for r in _rows("inventory.jsonl")}
    conditions_of = {q["qid"]: [c["cid"] for c in q["conditions"]] for q in _rows("queries.jsonl")}
    raised = {}
    for f in findings:
        assert 0 < construction[(f["qid"], f["docid"])] < n[f["qid"]] and (f["docid"], f["cid"]) not in inventory
        if f["decision"] == "repair":
            raised[(f["qid"], f["docid"])] = raised.get((f["qid"], f["docid"]), 0) + 1
    # a repaired gold must pass both page gates on its pages (the inventory's, and the finding's page for a repaired
    # condition): a query whose repaired gold fails one is removed too
    found_page = {(f["qid"], f["docid"], f["cid"]): f["page"] for f in findings if f["decision"] == "repair"}
    gated = set()
    for (qid, docid), gained in raised.items():
        if qid in dropped or construction[(qid, docid)] + gained != n[qid]:
            continue
        sets = [set(pages_of.get((docid, cid)) or [found_page[(qid, docid, cid)]]) for cid in conditions_of[qid]]
        solvable = bool(set.intersection(*sets))
        distinct = any(len(set(pick)) == len(pick) for pick in itertools.product(*sets))
        if solvable or not distinct:
            gated.add(qid)
    # the cap: walking the queries with a promoted gold in id order, one whose promotion would make an RFC gold in
    # more queries than build.json's max_gold_queries is removed (counting the construction golds of kept queries)
    cap = json.load(open(os.path.join(REPO, "data", "v3", "build.json"), encoding="utf-8"))["construction"][
        "max_gold_queries"]
    kept = set(n) - dropped - gated
    tally = Counter(docid for (qid, docid), grade in construction.items() if qid in kept and grade == n[qid])
    promoted = sorted((qid, docid) for (qid, docid), gained in raised.items()
                      if qid in kept and construction[(qid, docid)] + gained == n[qid])
    capped = set()
    for qid in sorted({qid for qid, _ in promoted}):
        docids = [docid for q, docid in promoted if q == qid]
        if any(tally[docid] >= cap for docid in docids):
            capped.add(qid)
            tally.subtract(docid for (q, docid), grade in construction.items() if q == qid and grade == n[qid])
        else:
            tally.update(docids)
    removed = dropped | gated | capped
    expected = {key: grade + raised.get(key, 0) for key, grade in construction.items() if key[0] not in removed}
    golds = Counter(docid for (qid, docid), grade in expected.items() if grade == n[qid])
    assert max(golds.values()) <= cap
    final = {(r["qid"], r["docid"]): r["grade"] for r in _rows("qrels.jsonl")}
    assert final == expected
    genealogy = json.load(open(os.path.join(REPO, "data", "v3", "genealogy.json"), encoding="utf-8"))
    assert genealogy["synthetic"] is False
    assert genealogy["copies"][1]["removed_queries"] == sorted(removed)
    assert genealogy["copies"][1]["queries"] == len(n) - len(removed) > 0.9 * len(n)
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
    i = next(i for i, r in enumerate(rows) if r["decision"] == "repair")           # a repair said to be a drop
    rows[i]["decision"] = "drop"


def _wrong_kind(rows):
    i = next(i for i, r in enumerate(rows) if EVIDENCE[r["evidence"]].condition_kind == "entity")
    rows[i]["evidence"] = "heading_only"                                           # a section's evidence
    rows[i]["decision"] = "drop"


@pytest.mark.parametrize("change,expected", [
    (_set("qid", "realpage_9999"), (released("v3", "audit.jsonl") + ":1: field 'qid'")),
    (_set("docid", "rfc99999"), (released("v3", "audit.jsonl") + ":1: field 'docid': unknown document")),
    (_set("cid", "sec:no-such-condition"), (released("v3", "audit.jsonl") + ":1: field 'cid'")),
    (_set("evidence", "a_hunch"), (released("v3", "audit.jsonl") + ":1: field 'evidence'")),
    (_decision_mismatch, "field 'decision': expected repair for definition_"),
    (_wrong_kind, "field 'evidence': heading_only is evidence for a section condition"),
    (_set("page", 0), (released("v3", "audit.jsonl") + ":1: field 'page'")),
    (_set("page", 10 ** 6), (released("v3", "audit.jsonl") + ":1: field 'page'")),
    (_set("page", "3"), (released("v3", "audit.jsonl") + ":1: field 'page'")),
    (_set("routes", ["bm25", "bm25"]), (released("v3", "audit.jsonl") + ":1: field 'routes'")),
    (_set("routes", ["telepathy"]), (released("v3", "audit.jsonl") + ":1: field 'routes'")),
    (_set("routes", "bm25"), (released("v3", "audit.jsonl") + ":1: field 'routes'")),
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
    assert (released("v3", "audit.jsonl") + ":1: field 'docid'") in str(caught.value) and "not a subset pair" in str(caught.value)


@pytest.mark.parametrize("text,expected", [
    ('{"qid": "realpage_0016", "docid": "rfc6295"', (released("v3", "audit.jsonl") + ":1")),
    ('{"cid": "sec:timestamp", "decision": "drop", "docid": "rfc6295", "evidence": "heading_fuzzy", "page": 1e400, '
     '"qid": "realpage_0016", "routes": [], "synthetic": false}\n', (released("v3", "audit.jsonl") + ":1")),
    ("[" * 5000 + "]" * 5000 + "\n", (released("v3", "audit.jsonl") + ":1")),
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
    code, stdout, stderr, report, fails = reproduce_report(release_copy, "--only", "integrity,derivation")
    assert code == 1 and "Traceback" not in stdout + stderr
    assert "v3.genealogy.removal_differences" in fails and "v3.genealogy.rederived_differences" in fails


def test_a_changed_final_grade_is_counted(release_copy):
    path = os.path.join(release_copy, "data", "v3", "qrels.jsonl")
    rows = read_rows(path)
    rows[0]["grade"] = 1 if rows[0]["grade"] != 1 else 2
    write_rows(path, rows)
    values = _values(release_copy)
    assert values["v3.genealogy.rederived_differences"] == 1
