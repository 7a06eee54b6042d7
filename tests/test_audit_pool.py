"""The label audit's later stages (supplement 10.3.1 and 10.4): the expanded-page pool and its routes
(Table S10), the held-out recall check, and the per-condition decision records with administrative
overrides -- worked cases and negative controls on the mini release."""

import os

import pytest
from conftest import read_rows, released, reproduce_report, resign, write_rows

from nclue.core.errors import InputError
from nclue.labelaudit import pool as pool_rules


def _audit(root, name):
    return os.path.join(root, "data", "audit", name + ".jsonl")


def test_merge_interleaves_the_ranked_routes_and_keeps_first_positions():
    cand = {"prior_selected": [5], "construction": [], "original_shown": [1, 5, 2],
            "lexical": [7, 1, 8], "bm25": [9], "ocr_fuzzy": [7, 10, 11], "random_fill": [3]}
    # fixed routes 5, 1, 2; then rank 1 of lexical/bm25/fuzzy: 7, 9, (7); rank 2: (1), 10; rank 3: 8, 11; fill 3
    assert pool_rules.merge(cand) == [5, 1, 2, 7, 9, 10, 8, 11, 3]
    assert pool_rules.merge({}) == []
    assert pool_rules.memberships(cand, [5, 1, 2, 7, 9, 10]) == {
        "prior_selected": 1, "construction": 0, "original_shown": 3, "lexical": 2, "bm25": 1, "ocr_fuzzy": 2}


def test_fuzzy_route_tolerates_one_edit_per_word():
    from nclue.builder.pool_routes import DocumentRoutes, within_one_edit

    assert within_one_edit("results", "resu1ts") and within_one_edit("results", "resuts")
    assert not within_one_edit("results", "rseults") and not within_one_edit("results", "resul")
    routes = DocumentRoutes(["the resu1ts framew0rk is here", "results only", "framework results twice results",
                             "nothing at all"])
    assert routes.ocr_fuzzy(["Results Framework"]) == [1, 3]
    assert routes.ocr_fuzzy(["Results Framework", "Results"]) == [1, 3, 2]   # more forms first, then page
    assert routes.bm25("Results Framework")[0] == 3 and 4 not in routes.bm25("Results Framework")


def test_released_mini_pool_records_rederive(mini_all):
    code, _, _, report, fails = reproduce_report(mini_all, "--only", "derivation")
    assert code == 0 and not fails
    got = {c["id"]: c["observed"] for c in report["checks"] if c["id"].startswith("audit.pool.")}
    assert got["audit.pool.pool_mismatches"] == 0 and got["audit.pool.conditions"] > 5
    assert got["audit.pool.recall.conditions"] > 0 and got["audit.pool.recall.missing"] == 0


def test_a_changed_candidate_list_fails_the_pool(mini_all_copy):
    root = mini_all_copy
    rows = read_rows(_audit(root, "queue"))
    rows[0]["candidates"]["original_shown"] = []          # the pages the evaluators were shown, dropped
    write_rows(_audit(root, "queue"), rows)
    resign(root)
    code, out, _, _, fails = reproduce_report(root, "--only", "derivation")
    assert code == 1 and "Traceback" not in out
    assert "audit.pool.shown_mismatches" in fails and rows[0]["pair"] in fails["audit.pool.shown_mismatches"]["reason"]


def test_a_missing_recall_record_fails(mini_all_copy):
    root = mini_all_copy
    rows = read_rows(_audit(root, "pool_recall"))
    assert rows, "the mini release has locked positives in queued pairs"
    write_rows(_audit(root, "pool_recall"), rows[1:])
    resign(root)
    code, out, _, _, fails = reproduce_report(root, "--only", "derivation")
    assert code == 1
    assert "audit.pool.recall.missing" in fails and rows[0]["pair"] in fails["audit.pool.recall.missing"]["reason"]


def test_an_override_is_applied_by_the_policy_and_fails_the_frozen_decisions(mini_all_copy):
    root = mini_all_copy
    rows = read_rows(_audit(root, "condition_decisions"))
    queue = {(q["pair"], q["cid"]): q["pool"] for q in read_rows(_audit(root, "queue"))}
    target = next(r for r in rows if not r["majority"])
    target.update(override=True, final=True, override_pages=queue[(target["pair"], target["cid"])][:1],
                  reason="a displayed page has the heading and its body (test)")
    write_rows(_audit(root, "condition_decisions"), rows)
    resign(root)
    code, out, _, _, fails = reproduce_report(root, "--only", "derivation")
    assert code == 1 and "Traceback" not in out
    assert "audit.policy.condition_decisions.overrides" in fails            # frozen: none
    assert "audit.policy.decision_mismatches" in fails and target["pair"] in fails[
        "audit.policy.decision_mismatches"]["reason"]                        # the override changed the grade


@pytest.mark.parametrize("edit,field", [
    (lambda r: r.update(override=True, final=True, reason=" "), "reason"),
    (lambda r: r.update(override="yes"), "override"),
    (lambda r: r.update(override_pages=[1]), "override_pages"),
    (lambda r: r.update(votes_positive=4), "votes_positive"),
], ids=["override without reason", "override not a boolean", "pages without a positive override",
        "four votes"])
def test_bad_condition_decisions_name_file_line_and_field(mini_all_copy, edit, field):
    from nclue.analyses.label_audit import audit_records
    from nclue.core.instrument import Instrument

    root = mini_all_copy
    rows = read_rows(_audit(root, "condition_decisions"))
    edit(rows[0])
    write_rows(_audit(root, "condition_decisions"), rows)
    with pytest.raises(InputError) as info:
        audit_records(Instrument(root))
    assert str(info.value).startswith((released("audit", "condition_decisions.jsonl") + ":1: field '%s'") % field), str(info.value)


def test_an_unknown_route_names_the_field(mini_all_copy):
    from nclue.analyses.label_audit import audit_records
    from nclue.core.instrument import Instrument

    root = mini_all_copy
    rows = read_rows(_audit(root, "pool_recall"))
    rows[0]["candidates"]["prior_selected"] = rows[0]["submitted"]     # the held-out check may not use it
    write_rows(_audit(root, "pool_recall"), rows)
    with pytest.raises(InputError) as info:
        audit_records(Instrument(root))
    assert (released("audit", "pool_recall.jsonl") + ":1: field 'candidates.prior_selected'") in str(info.value)
