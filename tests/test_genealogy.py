"""CrossPage's qrel genealogy: construction copy -> the label audit's decisions -> final copy
(docs/schema.md#genealogyjson, docs/analyses.md#the-qrel-genealogies).

Hand-worked cases of the stage rule (a promotion, a demotion, a removal), the final copy of the mini
stand-in re-derived from its construction copy and audit records, a changed audit decision that changes
exactly its own row of the re-derived copy and fails the run, and Table 1's page gates on a repaired
gold's support."""

import json
import os
from collections import namedtuple

from conftest import read_rows, resign, write_rows

from nclue.core import layout
from nclue.core.instrument import Instrument
from nclue.core.structure import table1
from nclue.labelaudit.copy_derivation import apply_stage
from nclue.run.runner import run

Q = namedtuple("Q", "n")


def test_a_stage_by_hand_promotion_demotion_and_zero_gold_removal():
    construction = {"q1": {"a": 1, "b": 2, "c": 1},      # n = 2: gold b, subsets a and c
                    "q2": {"d": 2, "e": 1},              # n = 2: its only gold d
                    "q3": {"f": 3, "g": 1}}              # n = 3: gold f
    queries = {"q1": Q(2), "q2": Q(2), "q3": Q(3)}
    decisions = {("q1", "a"): 2,                         # promotion: subset -> gold
                 ("q1", "c"): 0,                         # the audit finds no condition: the row goes
                 ("q2", "d"): 1,                         # demotion of q2's only gold: q2 is removed
                 ("q3", "g"): 2}                         # an increase that stays a subset (n = 3)
    final, removed = apply_stage(construction, queries, decisions)
    assert final == {"q1": {"a": 2, "b": 2}, "q3": {"f": 3, "g": 2}}
    assert removed == ["q2"]                             # with all its rows, e included


def test_a_stage_without_decisions_is_the_parent():
    parent = {"q1": {"a": 2, "b": 1}}
    assert apply_stage(parent, {"q1": Q(2)}, {}) == (parent, [])


def test_the_mini_final_copy_is_construction_plus_the_audits_decisions(mini_all):
    from nclue.analyses.genealogy import derived_final
    inst = Instrument(mini_all)
    derived, removed, changed = derived_final(inst)
    assert derived == {q: g for q, g in inst.qrels(inst.copy()).items() if g}
    assert removed == list(inst.genealogy()["final"].removed_queries)
    repairs = read_rows(os.path.join(mini_all, *layout.REPAIRS.split("/")))
    assert changed == len(repairs)
    construction = inst.qrels(inst.copy("construction"))
    for r in repairs:                                    # every repair is applied, nothing else changes
        assert construction[r["qid"]].get(r["docid"], 0) == r["grade_before"]
        assert derived.get(r["qid"], {}).get(r["docid"], 0) == r["grade_after"]
    untouched = {(q, d) for q, g in construction.items() for d in g} - {(r["qid"], r["docid"]) for r in repairs}
    assert all(derived[q][d] == construction[q][d] for q, d in untouched if q in derived)


def _flip_one_adjudicated_condition(root):
    """Override one positively decided CrossPage condition to negative (with a reason), keeping the record
    self-consistent; return the (qid, docid) of its pair.  A pair whose query keeps a gold afterwards is
    chosen (a subset, or a gold of a query with another gold), so the flip cannot remove the query."""
    audit = os.path.join(root, "data", "audit")
    keys = {r["pair"]: r for r in read_rows(os.path.join(audit, "key.jsonl"))}
    grades = {r["pair"]: r["grade_after"] for r in read_rows(os.path.join(audit, "decisions.jsonl"))}
    final = read_rows(os.path.join(root, *layout.QRELS.split("/")))
    golds = {}
    for r in final:
        golds.setdefault(r["qid"], 0)
    n_of = {r["qid"]: r["n"] for r in read_rows(os.path.join(root, *layout.QUERIES.split("/")))}
    for r in final:
        golds[r["qid"]] += r["grade"] == n_of[r["qid"]]
    rows = read_rows(os.path.join(audit, "condition_decisions.jsonl"))
    for row in rows:
        key = keys[row["pair"]]
        safe = grades[row["pair"]] < key["n"] or golds.get(key["qid"], 0) > 1
        if key["release"] == "v1" and row["final"] and safe:
            row["override"], row["final"] = False, False
            row["override_pages"] = []
            row["reason"] = "administrative check: the quoted passage does not establish the condition"
            write_rows(os.path.join(audit, "condition_decisions.jsonl"), rows)
            return key["qid"], key["docid"]
    raise AssertionError("the mini audit has no positively decided CrossPage condition to flip")


def test_a_changed_audit_decision_changes_exactly_its_row_and_fails(mini_all_copy):
    from nclue.analyses.genealogy import derived_final
    before = derived_final(Instrument(mini_all_copy))[0]
    pair = _flip_one_adjudicated_condition(mini_all_copy)
    resign(mini_all_copy)
    after = derived_final(Instrument(mini_all_copy))[0]
    keys = {(q, d) for q in set(before) | set(after) for d in set(before.get(q, {})) | set(after.get(q, {}))}
    changed = sorted(k for k in keys if before.get(k[0], {}).get(k[1]) != after.get(k[0], {}).get(k[1]))
    assert changed == [pair]
    result = run(mini_all_copy, levels=("integrity", "derivation"))
    fails = {c.id: c for c in result.checks if c.status == "fail"}
    assert "v1.genealogy.final.qrel_differences" in fails
    assert "%s / %s" % pair in fails["v1.genealogy.final.qrel_differences"].reason


def test_a_final_row_that_the_decisions_do_not_give_fails(mini_all_copy):
    path = os.path.join(mini_all_copy, *layout.QRELS.split("/"))
    rows = read_rows(path)
    rows[0]["grade"] = 1 if rows[0]["grade"] != 1 else 2
    write_rows(path, rows)
    resign(mini_all_copy)
    result = run(mini_all_copy, levels=("integrity", "derivation"))
    fails = {c.id: c for c in result.checks if c.status == "fail"}
    assert "v1.genealogy.final.qrel_differences" in fails
    assert "%s / %s" % (rows[0]["qid"], rows[0]["docid"]) in fails["v1.genealogy.final.qrel_differences"].reason
    assert "v1.construction.rederived_qrel_differences" not in fails     # the construction copy is intact


def test_a_genealogy_that_hides_a_removal_fails(mini_all_copy):
    path = os.path.join(mini_all_copy, *layout.GENEALOGY.split("/"))
    doc = json.load(open(path, encoding="utf-8"))
    queries = [r["qid"] for r in read_rows(os.path.join(mini_all_copy, *layout.QUERIES.split("/")))]
    doc["copies"][1]["removed_queries"] = [queries[0]]
    doc["copies"][1]["queries"] -= 1
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, sort_keys=True, indent=1)
        fh.write("\n")
    resign(mini_all_copy)
    result = run(mini_all_copy, levels=("integrity", "derivation"))
    fails = {c.id for c in result.checks if c.status == "fail"}
    assert "v1.genealogy.final.removed_queries_differences" in fails


Cond = namedtuple("Cond", "cid")
Query = namedtuple("Query", "n conditions")
Doc = namedtuple("Doc", "pages source")
Row = namedtuple("Row", "pages")


def test_table1_checks_a_repaired_gold_on_its_support():
    queries = {"q": Query(2, (Cond("a"), Cond("b")))}
    corpus = {"d": Doc(30, "wb"), "e": Doc(40, "wb")}
    inventory = {("d", "a"): Row((3,)), ("d", "b"): Row((7,)), ("e", "a"): Row((5,))}
    qrels = {"q": {"d": 2, "e": 2}}                     # e was promoted by the audit: b found on its page 9
    stats = table1(queries, corpus, qrels, inventory, {("q", "e"): [[5], [9]]})
    assert (stats["gold_qrels"], stats["distinct_page_valid_golds"], stats["single_page_solvable_golds"]) == (2, 2, 0)
    stats = table1(queries, corpus, qrels, inventory, {("q", "e"): [[5], [5]]})    # b quoted on a's page only
    assert (stats["distinct_page_valid_golds"], stats["single_page_solvable_golds"]) == (1, 1)
    stats = table1(queries, corpus, qrels, inventory)   # without the support e has no page for b
    assert stats["distinct_page_valid_golds"] == 1
