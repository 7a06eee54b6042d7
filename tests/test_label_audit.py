"""The stand-in SourceShift and the label audit: records, agreement statistics against reference
libraries, the policy re-run on the records, re-derived qrels, and negative controls."""

import json
import os
import shutil

import pytest
from conftest import REPO, levels_reading, read_rows, released, reproduce_report, resign, run_reproduce, write_rows


def _records(root):
    from nclue.core.instrument import Instrument
    from nclue.labelaudit import audit_records

    inst = Instrument(root)
    v2 = inst.release("v2")
    releases = {"v1": (inst.queries(), inst.corpus(), inst.qrels(inst.copy("construction"))),
                "v2": (v2.queries(), v2.corpus(), v2.qrels(v2.copy("construction")))}
    return inst, v2, audit_records.load(root, releases)




# --- the shipped release -------------------------------------------------------------------------

def test_released_v2_scale():
    stats = json.load(open(os.path.join(REPO, "data", "v2", "stats.json")))
    table = {r["statistic"]: r["stand_in"] for r in stats["table"]}
    # the construction copy's 226 queries (the paper's P0; supplement section 8)
    assert table["documents"] == 500 and table["queries"] == 226
    assert [table["queries_" + s] for s in ("arxiv", "eric", "fedreg", "pmc")] == [42, 45, 125, 14]
    assert [table["documents_" + s] for s in ("arxiv", "eric", "fedreg", "pmc")] == [125] * 4
    assert (table["queries_n2"], table["queries_n3"], table["condition_records"]) == (199, 27, 479)
    assert table["queries_construction"] == table["queries_s0"] == 226     # no stage left a query without a gold
    # the audit's SourceShift repairs raise grades (a row leaves a copy only at grade 0), the challenge drops
    # the rows it finds no condition for
    assert table["qrel_rows_construction"] >= table["qrel_rows_s0"] > table["qrel_rows"]
    assert table["gold_qrels_construction"] < table["gold_qrels_s0"] < table["gold_qrels"]


def test_released_genealogy_rederives_s0_and_s():
    """Construction -> S0 (audit decisions re-derived from the records) -> S (challenge decisions
    re-derived from the responses and tie-break): 0 differences against the released copies."""
    from nclue.analyses.genealogy import derived_s, derived_s0
    from nclue.core.instrument import Instrument
    from nclue.labelaudit import audit_scoring

    v2 = Instrument(REPO).release("v2")
    stages = v2.genealogy()
    for derive, copy in ((derived_s0, "s0"), (derived_s, "s")):
        qrels, removed, changed = derive(Instrument(REPO))
        assert audit_scoring.qrel_differences(qrels, v2.qrels(v2.copy(copy))) == []
        assert removed == list(stages[copy].removed_queries) and changed == stages[copy].grades_changed > 0


def test_released_audit_records_recompute_the_released_qrels():
    from nclue.labelaudit import audit_scoring

    inst, v2, rec = _records(REPO)
    pol, decided = audit_scoring.policy(rec)
    assert pol["decision_mismatches"] == 0, pol["first_mismatch"]
    derived = audit_scoring.revised(v2.qrels(v2.copy("construction")), rec, decided, "v2")
    assert audit_scoring.qrel_differences(derived, v2.qrels(v2.copy("s0"))) == []
    v1_changes = {(p.qid, p.docid): decided[p.pair] for p in rec.pairs.values()
                  if p.release == "v1" and decided[p.pair] != p.grade_before}
    assert v1_changes == {(r.qid, r.docid): r.grade_after for r in inst.repairs().values()}
    table, first = audit_scoring.integrity(rec)
    assert sum(t["gate_failures"] for t in table.values()) == 0, first


def test_agreement_statistics_equal_reference_libraries():
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats import inter_rater, proportion

    from nclue.labelaudit import audit_scoring
    from nclue.labelaudit.rules import derived_grade

    _, _, rec = _records(REPO)
    a, e = rec.initial_responders
    pairs = list(rec.pairs.values())
    ga = [derived_grade(p.initial[a]) for p in pairs]
    ge = [derived_grade(p.initial[e]) for p in pairs]
    ours = audit_scoring.agreement(rec)
    assert ours["grade_kappa_linear"] == pytest.approx(
        cohen_kappa_score(ga, ge, labels=[0, 1, 2, 3], weights="linear"), abs=1e-12)
    assert ours["grade_kappa"] == pytest.approx(cohen_kappa_score(ga, ge, labels=[0, 1, 2, 3]), abs=1e-12)
    ca = [x.positive for p in pairs for x in p.initial[a]]
    ce = [y.positive for p in pairs for y in p.initial[e]]
    assert ours["condition_kappa"] == pytest.approx(cohen_kappa_score(ca, ce), abs=1e-12)
    for k, n, key in ((ours["grade_agree"], ours["pairs"], "grade_agreement_wilson"),
                      (ours["condition_agree"], ours["conditions"], "condition_agreement_wilson")):
        lo, hi = proportion.proportion_confint(k, n, alpha=0.05, method="wilson")
        assert ours[key] == pytest.approx([100 * lo, 100 * hi], abs=1e-9)
    adj = audit_scoring.adjudication(rec)
    names = rec.adjudication_responders
    table = [[sum(p.adjudication[c][w].positive for w in names),
              sum(not p.adjudication[c][w].positive for w in names)]
             for p in pairs for c in p.cids if c in p.queue]
    assert len(table) == adj["conditions"] > 20
    assert adj["fleiss_kappa"] == pytest.approx(inter_rater.fleiss_kappa(table), abs=1e-12)
    # the agreement is the stand-in's own, and it is not perfect (the simulation errs)
    assert 0.3 < ours["grade_kappa_linear"] < 0.95 and ours["grade_agree"] < ours["pairs"]


def test_general_fleiss_equals_statsmodels_on_uneven_tables():
    from statsmodels.stats import inter_rater

    from nclue.stats.agreement import fleiss_binary, fleiss_kappa

    table = [[4, 0, 1], [2, 2, 1], [0, 5, 0], [1, 1, 3], [5, 0, 0]]
    assert fleiss_kappa(table) == pytest.approx(inter_rater.fleiss_kappa(table), abs=1e-12)
    binary = [[3, 0]] * 80 + [[2, 1]] * 10 + [[1, 2]] * 4
    positives = sum(r[0] for r in binary)
    assert fleiss_kappa(binary) == pytest.approx(fleiss_binary(94, 3, 80, positives), abs=1e-12)
    with pytest.raises(ValueError):
        fleiss_kappa([[2, 1], [1, 1]])


def test_v2_contrast_p_values_agree_with_scipy_permutation_test():
    import numpy as np
    from scipy import stats

    from nclue.analyses.shared.outcome_vectors import outcomes
    from nclue.analyses.sourceshift import v2_path
    from nclue.core.instrument import Instrument

    v2 = Instrument(REPO).release("v2")
    frozen = {c["id"]: c["value"] for c in json.load(open(os.path.join(REPO, "reference_metrics",
                                                                        "v2.contrasts.json")))["claims"]}
    var = np.array(outcomes(v2, v2_path("bm25_dec_sdr", "raw")).success)
    base = np.array(outcomes(v2, v2_path("bm25_and", "raw")).success)
    ref = stats.permutation_test((var, base), lambda x, y: np.sum(x - y), permutation_type="samples",
                                 n_resamples=20000, alternative="two-sided", random_state=3).pvalue
    ours = frozen["v2.contrasts.lexical_decomposition.raw.p_value"]
    assert abs(ours - ref) < 0.01 + 3 * (max(ref, 1e-4) / 10000) ** 0.5
    assert frozen["v2.contrasts.lexical_decomposition.raw.delta_score"] == pytest.approx(
        100.0 * int((var - base).sum()) / len(v2.evaluation_queries()), abs=1e-12)


# --- the policy on records, and negative controls ------------------------------------------------

def _flip_pair_to_increase(root):
    """Make both initial responders support a missing condition of a kept partial pair with a valid
    quote from a shown page; returns the pair id."""
    _, _, rec = _records(root)
    pages = {(r["release"], r["docid"], r["page"]): r["text"] for r in read_rows(os.path.join(root, "data", "audit",
                                                                                               "pages.jsonl"))}
    decisions = {d["pair"]: d for d in read_rows(os.path.join(root, "data", "audit", "decisions.jsonl"))}
    for p in rec.pairs.values():
        if decisions[p.pair]["route"] != "keep" or p.grade_before >= p.n:
            continue
        a, e = rec.initial_responders
        used = {pg for who in (a, e) for ans in p.initial[who] for pg in ans.pages}
        for i, cid in enumerate(p.cids):
            if p.initial[a][i].positive or p.initial[e][i].positive:
                continue
            free = [pg for pg in p.shown[i] if pg not in used]
            if not free:
                continue
            page = free[0]
            quote = " ".join(pages[(p.release, p.docid, page)].split()[:6])
            path = os.path.join(root, "data", "audit", "initial.jsonl")
            rows = read_rows(path)
            for r in rows:
                if r["pair"] == p.pair:
                    r["answers"][i] = {"cid": cid, "positive": True, "pages": [page], "quote": quote}
            write_rows(path, rows)
            return p.pair, p
    raise AssertionError("no kept partial pair with a negative condition")


def test_a_changed_response_changes_the_derived_qrels(mini_all_copy):
    from nclue.labelaudit import audit_scoring

    root = mini_all_copy
    _, v2_before, rec_before = _records(root)
    _, decided_before = audit_scoring.policy(rec_before)
    pair, p = _flip_pair_to_increase(root)
    _, v2, rec = _records(root)
    pol, decided = audit_scoring.policy(rec)
    assert decided[pair] == decided_before[pair] + 1
    assert pol["decision_mismatches"] >= 1 and pair in pol["first_mismatch"]
    if p.release == "v2":
        derived = audit_scoring.revised(v2.qrels(v2.copy("construction")), rec, decided, "v2")
        diffs = audit_scoring.qrel_differences(derived, v2.qrels(v2.copy("s0")))
        assert [(d[0], d[1]) for d in diffs] == [(p.qid, p.docid)]
    resign(root)
    code, out, _, _, fails = reproduce_report(root, "--only", "derivation")
    assert code == 1
    assert "audit.policy.decision_mismatches" in fails and released("audit", "initial.jsonl") in out


def test_a_changed_released_qrel_row_is_caught(mini_all_copy):
    root = mini_all_copy
    path = os.path.join(root, "data", "v2", "qrels.jsonl")
    rows = read_rows(path)
    n = {q["qid"]: q["n"] for q in read_rows(os.path.join(root, "data", "v2", "queries.jsonl"))}
    target = next(r for r in rows if r["grade"] < n[r["qid"]])
    target["grade"] += 1
    write_rows(path, rows)
    resign(root)
    code, out, _, _, fails = reproduce_report(root, "--only", "derivation")
    assert code == 1
    assert target["qid"] in fails["v2.genealogy.s.qrel_differences"]["reason"] and released("v2", "qrels.jsonl") in out


def test_a_quote_not_on_its_page_fails_the_gate(mini_all_copy):
    root = mini_all_copy
    path = os.path.join(root, "data", "audit", "initial.jsonl")
    rows = read_rows(path)
    r = next(r for r in rows if any(a["positive"] for a in r["answers"]))
    a = next(a for a in r["answers"] if a["positive"])
    a["quote"] = "this sentence appears on no page at all"
    write_rows(path, rows)
    resign(root)
    code, out, _, _, fails = reproduce_report(root, "--only", "derivation")
    assert code == 1
    assert "not on any selected page" in fails["audit.integrity.gate_failures"]["reason"]


def test_a_selected_page_that_was_not_shown_fails_the_gate():
    from nclue.labelaudit.rules import Answer, gate

    text = {4: "The Results Framework is set out in full here.", 9: "Other text."}.get
    ok, why = gate(Answer(True, [4], "results framework is set out", shown=(9,)), {9}, text)
    assert not ok and "not shown" in why
    ok, why = gate(Answer(True, [9], "results framework is set out"), {4, 9}, text)
    assert not ok and "not on any selected page" in why
    ok, why = gate(Answer(True, [5], "results framework is set out"), {5}, text)
    assert not ok and "not in the audit's page file" in why


def test_bad_audit_records_name_file_line_and_field(mini_all_copy):
    root = mini_all_copy
    path = os.path.join(root, "data", "audit", "adjudication.jsonl")
    rows = read_rows(path)
    if not rows:
        pytest.skip("mini audit has no adjudication rows")
    rows[0]["pages"] = [10 ** 6]
    write_rows(path, rows)
    resign(root)
    code, out, err = run_reproduce("--data", root, "--only", "derivation")
    assert code == 1 and "Traceback" not in out + err
    assert (released("audit", "adjudication.jsonl") + ":1: field 'pages'") in out


def test_the_whole_mini_release_reproduces(mini_all):
    code, out, _ = run_reproduce("--data", mini_all)
    assert code == 0, out
    assert "0 fail" in out


def test_absent_v2_part_skips_with_reasons_and_a_deleted_listed_one_fails(mini_all_copy, tmp_path):
    root = mini_all_copy
    shutil.rmtree(os.path.join(root, "data", "v2"))
    code, out, _, report, fails = reproduce_report(root)          # still listed in MANIFEST.json: a damaged part
    assert code == 1 and "Traceback" not in out
    assert fails and all((released("v2") + "/") in c.get("cause", "") or (released("v2") + "/") in c["reason"] for c in fails.values())
    shutil.rmtree(os.path.join(root, "data", "audit"))
    resign(root)                                     # now a release of CrossPage alone, without SourceShift and audit
    code, out, _, report, fails = reproduce_report(root)
    skips = {c["id"]: c for c in report["checks"] if c["status"] == "skip"}
    assert code == 0 and not fails, list(fails)[:3]
    assert any(i.startswith("v2.forms.") for i in skips) and "release part v2 is not in this release" in out
    code, _, _, _, _ = reproduce_report(root, "--strict")
    assert code == 1


V2_FILES = [released("v2", "qrels.jsonl"), released("v2", "qrels_s0.jsonl"), released("v2", "qrels_construction.jsonl"),
            released("v2", "inventory.jsonl"), released("v2", "genealogy.json"), released("audit", "challenge_key.jsonl"),
            released("audit", "challenge_responses.jsonl"), released("audit", "challenge_decisions.jsonl"),
            released("v2", "queries.jsonl"), released("v2", "corpus.jsonl"),
            released("v2", "conditions.jsonl"), released("v2", "rankings/forms/bm25_and__raw.jsonl"), released("v2", "systems.json"),
            released("audit", "key.jsonl"), released("audit", "packet.jsonl"), released("audit", "pages.jsonl"),
            released("audit", "initial.jsonl"), released("audit", "queue.jsonl"), released("audit", "adjudication.jsonl"),
            released("audit", "decisions.jsonl"), released("v1", "repairs.jsonl"), released("v1", "qrels_construction.jsonl"),
            released("v1", "genealogy.json"), released("audit", "condition_decisions.jsonl")]


def _mutations_of(index):
    """The damages of the file at ``index`` of V2_FILES: two of test_bad_input's four, in a rotation that gives
    each damage half the files (all four are reader damages, the same checks in every file: tests/test_hostile.py
    meets every file's truncation and its rows' damages)."""
    from test_bad_input import MUTATIONS

    names = list(MUTATIONS)
    return {name: MUTATIONS[name] for name in (names[index % 4], names[(index + 2) % 4])}


def test_each_damage_meets_half_the_v2_and_audit_files():
    from test_bad_input import MUTATIONS

    met = {}
    for index, rel in enumerate(V2_FILES):
        for name in _mutations_of(index):
            met.setdefault(name, []).append(rel)
    assert sorted(met) == sorted(MUTATIONS) and all(len(rels) == len(V2_FILES) // 2 for rels in met.values())
    assert list(_mutations_of(0)) == ["truncated", "non-UTF-8"] and list(_mutations_of(1)) == ["broken JSON", "empty"]


@pytest.mark.parametrize("index,rel", list(enumerate(V2_FILES)), ids=V2_FILES)
def test_damaged_v2_or_audit_file_fails_cleanly(mini_all, tmp_path, index, rel):
    from test_bad_input import _resign as resign

    from nclue.reports.report import render_text, report_json
    from nclue.run.runner import run

    levels = levels_reading(mini_all, rel)
    assert len(levels) > 1, "no frozen claim reads %s" % rel
    for name, mutate in _mutations_of(index).items():
        root = str(tmp_path / name.replace(" ", "_"))
        shutil.copytree(mini_all, root)
        path = os.path.join(root, *rel.split("/"))
        with open(path, "rb") as fh:
            data = fh.read()
        if mutate(data) == data or (not data and name != "non-UTF-8"):
            continue                    # e.g. an empty repairs file cannot be truncated further
        with open(path, "wb") as fh:
            fh.write(mutate(data))
        resign(root)
        result = run(root, levels=levels)
        render_text(result)
        report_json(result)
        fails = [c for c in result.checks if c.status == "fail"]
        assert fails, "%s %s: no fail" % (rel, name)
        assert any(rel in c.reason for c in fails), (rel, name, [c.reason for c in fails][:3])


def test_audit_pages_are_the_regenerated_page_text(mini_all, tmp_path):
    from nclue.builder.export import export_pages_v1 as export_pages
    from nclue.builder.export import export_pages_v2

    out = str(tmp_path / "pages")
    export_pages(mini_all, out)
    export_pages_v2(mini_all, out)
    text = {}
    for release, name in (("v1", "pages.jsonl"), ("v2", "pages_v2.jsonl")):
        for r in read_rows(os.path.join(out, name)):
            text[(release, r["docid"], r["page"])] = r["text"]
    shown = read_rows(os.path.join(mini_all, "data", "audit", "pages.jsonl"))
    assert shown and {r["release"] for r in shown} == {"v1", "v2"}
    assert all(text[(r["release"], r["docid"], r["page"])] == r["text"] for r in shown)


def test_score_command_on_v2_matches_the_frozen_table_s3_value():
    import subprocess
    import sys

    frozen = {c["id"]: c["value"] for c in json.load(open(os.path.join(REPO, "reference_metrics",
                                                                        "v2.forms.json")))["claims"]}
    run = os.path.join(REPO, "data", "v2", "rankings", "forms", "bm25_dec_sdr__natural.jsonl")
    out = subprocess.run([sys.executable, "-m", "nclue", "score", run, "--release", "v2", "--against", "none",
                          "--format", "json"], cwd=REPO, capture_output=True, text=True).stdout
    score = json.loads(out)["runs"][0]["measures"]["nclue_score_at_10"]["value"]
    assert score == pytest.approx(frozen["v2.forms.bm25_dec_sdr.natural.nclue_score_at_10"], abs=5e-5)


def test_v2_graded_ndcg_equals_pytrec_eval():
    import pytrec_eval

    from nclue.analyses.shared.outcome_vectors import outcomes
    from nclue.analyses.sourceshift import v2_path
    from nclue.core.instrument import Instrument

    v2 = Instrument(REPO).release("v2")
    qrels = {q: {d: g for d, g in grades.items()} for q, grades in v2.qrels().items() if grades}
    rel = v2_path("rrf_bm25and_pagetop3", "raw")
    ranking = v2.ranking(rel)
    run = {q: {d: float(10 - i) for i, d in enumerate(row.docids)} for q, row in ranking.items()}
    ref = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_10"}).evaluate(run)
    out = outcomes(v2, rel)
    ours = dict(zip(out.qids, out.graded_ndcg))
    assert ref and all(ours[q] == pytest.approx(ref[q]["ndcg_cut_10"], abs=1e-12) for q in ref)


def test_every_audit_file_has_one_loader_in_reading_order():
    # the label audit's and the challenge's records are loaded per file, like every other released file
    from nclue.labelaudit import audit_records, challenge_records

    assert tuple(name for name, _ in audit_records.LOADERS) == audit_records.FILES
    assert tuple(name for name, _ in challenge_records.LOADERS) == challenge_records.FILES
    assert len({loader for _, loader in audit_records.LOADERS + challenge_records.LOADERS}) == 14
