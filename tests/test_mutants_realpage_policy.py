"""labelaudit/realpage_policy.py's loader on a small audit file written here (no release copy): every check names the
file, line and field with its whole message.  The mutants mutmut left alive (docs/recipes.md#mutation-testing) are
killed here or listed as equivalent in tests/mutants_equivalent_stats.txt."""

import json
import os
import re
from types import SimpleNamespace

import pytest
from conftest import released

from nclue.core.errors import InputError, UnknownQuery
from nclue.labelaudit.realpage_policy import EVIDENCE, Finding, load_findings

REL = released("v3", "audit.jsonl")
QUERIES = {"q1": SimpleNamespace(n=3, conditions=[SimpleNamespace(cid="sec:a"), SimpleNamespace(cid="ent:b"), SimpleNamespace(cid="sec:c")])}
CORPUS = {"rfc1": SimpleNamespace(pages=5), "rfc2": SimpleNamespace(pages=5)}
CONDITIONS = {"sec:a": SimpleNamespace(kind="section"), "ent:b": SimpleNamespace(kind="entity"), "sec:c": SimpleNamespace(kind="section")}
INVENTORY = {("rfc1", "sec:c")}
CONSTRUCTION = {"q1": {"rfc1": 2, "rfc2": 3}}
GOOD = {"qid": "q1", "docid": "rfc1", "cid": "sec:a", "evidence": "heading_in_contents", "decision": "repair",
        "page": 5, "routes": ["exact", "bm25"]}


def _load(tmp_path, *rows):
    path = os.path.join(tmp_path, *REL.split("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r) + "\n" for r in rows)
    return load_findings(str(tmp_path), REL, QUERIES, CORPUS, CONDITIONS, INVENTORY, CONSTRUCTION)


def _fails(tmp_path, message, *rows):
    with pytest.raises(InputError, match="^" + re.escape(message) + "$") as caught:
        _load(tmp_path, *rows)
    return caught.value


def test_sound_findings_load_as_tuples(tmp_path):
    entity = {**GOOD, "cid": "ent:b", "evidence": "definition_fuzzy", "decision": "drop", "page": 1, "routes": []}
    got = _load(tmp_path, GOOD, entity)
    assert got == {("q1", "rfc1", "sec:a"): Finding("q1", "rfc1", "sec:a", "heading_in_contents", "repair", 5,
                                                    ("exact", "bm25")),
                   ("q1", "rfc1", "ent:b"): Finding("q1", "rfc1", "ent:b", "definition_fuzzy", "drop", 1, ())}
    assert isinstance(got[("q1", "rfc1", "sec:a")].routes, tuple)
    assert EVIDENCE["heading_in_contents"].decision == "repair"


def test_unknown_query_document_and_condition(tmp_path):
    err = _fails(tmp_path, REL + ":2: field 'qid': unknown query 'q9'", GOOD, {**GOOD, "qid": "q9"})
    assert isinstance(err, UnknownQuery)
    _fails(tmp_path, REL + ":1: field 'docid': unknown document \"rfc9\"", {**GOOD, "docid": "rfc9"})
    _fails(tmp_path, REL + ":1: field 'cid': \"sec:z\" is not a condition of q1", {**GOOD, "cid": "sec:z"})


def test_only_a_subset_pair_of_the_construction_can_be_audited(tmp_path):
    """Grade 3 = n is a gold, and a pair with no construction row has grade 0: neither is a subset pair."""
    _fails(tmp_path, REL + ":1: field 'docid': (q1, rfc2) has construction grade 3: not a subset pair",
           {**GOOD, "docid": "rfc2"})
    saved = dict(CONSTRUCTION)
    try:
        CONSTRUCTION.clear()
        _fails(tmp_path, REL + ":1: field 'docid': (q1, rfc1) has construction grade 0: not a subset pair", GOOD)
    finally:
        CONSTRUCTION.update(saved)


def test_a_condition_the_inventory_already_gives_is_refused(tmp_path):
    _fails(tmp_path, REL + ":1: field 'cid': the inventory already gives rfc1 the condition sec:c",
           {**GOOD, "cid": "sec:c"})


def test_evidence_of_the_other_kind_and_a_decision_against_the_policy(tmp_path):
    _fails(tmp_path, REL + ":1: field 'evidence': definition_fuzzy is evidence for a entity condition; sec:a is "
           "section", {**GOOD, "evidence": "definition_fuzzy", "decision": "drop"})
    _fails(tmp_path, REL + ":1: field 'decision': expected repair for heading_in_contents evidence (the policy), "
           "found drop", {**GOOD, "decision": "drop"})
    _fails(tmp_path, REL + ":1: field 'decision': expected drop for heading_only evidence (the policy), found repair",
           {**GOOD, "evidence": "heading_only"})


def test_routes_must_be_distinct_known_strings(tmp_path):
    prefix = REL + ":1: field 'routes': must be distinct routes of exact, variant, fuzzy, bm25, got "
    _fails(tmp_path, prefix + "list of 2 items", {**GOOD, "routes": ["bm25", "bm25"]})
    _fails(tmp_path, prefix + "list of 1 item", {**GOOD, "routes": ["telepathy"]})
    _fails(tmp_path, prefix + "list of 1 item", {**GOOD, "routes": [7]})


def test_a_duplicate_finding_is_named(tmp_path):
    _fails(tmp_path, REL + ":2: field 'cid': duplicate finding for (q1, rfc1, sec:a)", GOOD, {**GOOD, "page": 2})


def test_a_decision_outside_the_policy_s_words_is_named_as_such(tmp_path):
    _fails(tmp_path, REL + ":1: field 'decision': must be one of drop/repair, got \"maybe\"", {**GOOD, "decision": "maybe"})
