"""``nclue reproduce-run`` (issue 37): a reviewer's re-run checked against the role's released ranking and the
paper's row.  Kendall's tau union, RBO, RMSE, ER and Delta RI agree with repro_eval (the authors' library) on
released rankings with perturbations; a released ranking checked against itself gives tau = 1, RMSE 0 and
every cell equal to the released value; bad roles, runs and pairs exit 2 naming what is wrong."""

import json
import os
import re
import subprocess
import sys
from collections import OrderedDict

import pytest
from conftest import REPO, released

from nclue.commands.reproduce_run import reproduce_run
from nclue.reports.rerun_tables import render, rows
from nclue.stats import reproducibility as repro

FORMS = os.path.join(REPO, "data", "v1", "rankings", "forms")


def _ranking(path):
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def _write(rows, path):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def _swapped(rows, every=10, first=0, second=5, limit=100):
    """Every ``every``-th query that ranks more than ``second`` documents, up to ``limit`` of them, with its
    ranks ``first`` and ``second`` swapped."""
    out, eligible, done = [], 0, 0
    for r in rows:
        docs = list(r["docids"])
        if len(docs) > second:
            if eligible % every == 0 and done < limit:
                docs[first], docs[second] = docs[second], docs[first]
                done += 1
            eligible += 1
        out.append({"qid": r["qid"], "docids": docs, "scores": r["scores"]})
    return out


def _as_trec_dict(rows):
    """A ranking as repro_eval's run dict, scores strictly decreasing so that break_ties keeps the order."""
    return {r["qid"]: OrderedDict((d, float(100 - k)) for k, d in enumerate(r["docids"])) for r in rows if r["docids"]}


def _cli(*args):
    proc = subprocess.run([sys.executable, "-m", "nclue", "reproduce-run"] + list(args), capture_output=True,
                          text=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def test_the_released_ranking_against_its_own_role_is_a_perfect_reproduction():
    result = reproduce_run([os.path.join(FORMS, "bm25_and__clean_v2.jsonl")], "bm25_and", REPO)
    run = result["runs"][0]
    assert result["role"]["form"] == "clean_v2" and run["agreement"]["kendall_tau_union"] == 1.0
    assert all(m["rmse"] == 0.0 and m["delta"] == 0.0 and m["p"] == 1.0 for m in run["measures"].values())
    assert run["outcomes"]["changed"] == 0
    tables = {t["table"] for t in result["tables"]}
    assert tables == {"Table 3", "Table 4", "Table 6", "Table S1j", "Table S2b"}
    for cell in result["cells"]:
        assert cell["rerun"] == pytest.approx(cell["released"], abs=1e-9), cell["number"]
        assert cell["status"] == "skip" and "synthetic" in cell["reason"]     # the stand-in's are not the paper's
    assert {c["number"] for c in result["cells"]} >= {"T3.bm25_and.score", "T3.bm25_and.hit", "T3.bm25_and.ndcg",
                                                      "T4.bm25_and.subset", "T6.bm25_and.n3.score"}
    score = next(c for c in result["cells"] if c["number"] == "T3.bm25_and.score")
    se = run["measures"]["nclue_score_at_10"]["se"]
    assert score["difference_in_se"] == pytest.approx((score["rerun"] - score["published_value"]) / se, abs=1e-9)


def test_tau_union_rbo_and_rmse_agree_with_repro_eval(tmp_path):
    from repro_eval.measure import document_order, effectiveness  # a dev requirement: never skipped
    shipped = _ranking(os.path.join(FORMS, "bm25_and__clean_v2.jsonl"))
    swapped = _swapped(shipped, every=5)
    assert sum(1 for a, b in zip(shipped, swapped) if a["docids"] != b["docids"]) == 100
    result = reproduce_run([_write(swapped, tmp_path / "rerun.jsonl")], "bm25_and", REPO, per_query=True)
    run = result["runs"][0]
    orig, rep = _as_trec_dict(shipped), _as_trec_dict(swapped)
    ktu = document_order.KTU(orig, rep, trim_thresh=10, per_topic=True)
    rbo = document_order.RBO(orig, rep, p=repro.RBO_P, depth=10, pbar=False, per_topic=True)
    ours = {r["qid"]: r for r in run["per_query"]}
    for qid in rep:
        if len(rep[qid]) >= 2:
            assert ours[qid]["kendall_tau_union"] == pytest.approx(ktu[qid], abs=1e-9), qid
        assert ours[qid]["rbo"] == pytest.approx(rbo[qid], abs=1e-9), qid
    assert run["agreement"]["rbo"] == pytest.approx(sum(rbo.values()) / len(rbo), abs=1e-9)
    assert run["agreement"]["kendall_tau_union"] < 1.0
    # RMSE of each measure over the per-query values (repro_eval's topic-score dicts)
    from nclue.commands.score import Judgements, read_run
    from nclue.core.instrument import Instrument
    from nclue.core.measures import PER_QUERY_MEASURES
    inst = Instrument(REPO)
    judged = Judgements.of_copy(inst, None)
    before = judged.outcomes(inst, released("v1", "rankings/forms/bm25_and__clean_v2.jsonl"))
    after = judged.outcomes(inst, ranking=read_run(str(tmp_path / "rerun.jsonl"), inst.queries(), inst.corpus())[0])
    for m in PER_QUERY_MEASURES:
        a = [None if v is None else m.scale * v for v in m.values(before)]
        b = [None if v is None else m.scale * v for v in m.values(after)]
        keep = [i for i in range(len(a)) if a[i] is not None]
        orig_scores = {before.qids[i]: {m.name: a[i]} for i in keep}
        rep_scores = {before.qids[i]: {m.name: b[i]} for i in keep}
        expected = effectiveness.RMSE(orig_scores, rep_scores)[m.name]
        assert run["measures"][m.name]["rmse"] == pytest.approx(expected, abs=1e-9), m.name
    assert run["measures"]["nclue_score_at_10"]["rmse"] > 0
    assert run["outcomes"]["changed"] == sum(run["outcomes"]["transitions"].values()) == len(
        run["outcomes"]["changed_queries"]) > 0


def test_a_table5_pair_reports_effect_ratio_and_delta_ri_as_repro_eval(tmp_path):
    from repro_eval.measure import overall_effects as overall
    raw = os.path.join(REPO, "data", "v1", "rankings")
    base, variant = _ranking(os.path.join(raw, "bm25_and.jsonl")), _ranking(os.path.join(raw, "bm25_dec_sdr.jsonl"))
    paths = [_write(_swapped(base, every=7), tmp_path / "base.jsonl"),
             _write(_swapped(variant, every=4, first=1, second=9), tmp_path / "variant.jsonl")]
    result = reproduce_run(paths, "lexical_composition", REPO)
    pair = result["pair"]
    assert (pair["base"], pair["variant"], result["role"]["form"]) == ("bm25_and", "bm25_dec_sdr", "raw")
    from nclue.commands.score import Judgements, read_run
    from nclue.core.instrument import Instrument
    from nclue.core.measures import PER_QUERY_MEASURES
    inst = Instrument(REPO)
    judged = Judgements.of_copy(inst, None)
    outs = [judged.outcomes(inst, released("v1", "rankings/%s.jsonl") % s) for s in ("bm25_and", "bm25_dec_sdr")]
    outs += [judged.outcomes(inst, ranking=read_run(p, inst.queries(), inst.corpus())[0]) for p in paths]
    for m in PER_QUERY_MEASURES:
        columns = [[None if v is None else m.scale * v for v in m.values(o)] for o in outs]
        keep = [i for i in range(len(columns[0])) if None not in [c[i] for c in columns]]
        scores = [{outs[0].qids[i]: {m.name: c[i]} for i in keep} for c in columns]
        er = overall.ER(orig_score_b=scores[0], orig_score_a=scores[1], rep_score_b=scores[2], rep_score_a=scores[3])
        dri = overall.DRI(orig_score_b=scores[0], orig_score_a=scores[1], rep_score_b=scores[2], rep_score_a=scores[3])
        assert pair["measures"][m.name]["effect_ratio"] == pytest.approx(er[m.name], abs=1e-9), m.name
        assert pair["measures"][m.name]["delta_ri"] == pytest.approx(dri[m.name], abs=1e-9), m.name
    assert pair["measures"]["nclue_score_at_10"]["effect_ratio"] != 1.0
    assert {t["table"] for t in result["tables"]} == {"Table 5"}
    cells = {c["number"] for c in result["cells"]}
    assert {"T5.lexical_composition.delta", "T5.lexical_composition.ci_lo", "T5.lexical_composition.p"} <= cells
    assert isinstance(pair["covers_released"], bool) and isinstance(pair["covers_published"], bool)


def test_by_hand_cases_of_the_reproduction_measures():
    assert repro.kendall_tau_union(["a", "b", "c"], ["a", "c", "b"]) == pytest.approx(1 / 3)
    assert repro.kendall_tau_union(["a"], ["a"]) is None and repro.kendall_tau_union([], []) is None
    # lists of different lengths: cut to the shorter (repro_eval refuses them)
    assert repro.kendall_tau_union(["a", "b", "c"], ["a", "b"]) == 1.0
    # depth 2, p 0.5: (1 * 0/1 + 0.5 * 2/2) / 1.5
    assert repro.rank_biased_overlap(["a", "b"], ["b", "a"], p=0.5, depth=2) == pytest.approx(1 / 3)
    assert repro.rank_biased_overlap(list("abcdefghij"), list("abcdefghij")) == pytest.approx(1.0)
    assert repro.rmse([], []) is None and repro.rmse([1, 3], [1, 1]) == pytest.approx(2 ** 0.5)
    assert repro.effect_ratio([1, 1], [1, 1], [0, 0], [1, 1]) is None
    assert repro.delta_relative_improvement([0, 0], [1, 1], [1, 1], [2, 2]) is None
    assert repro.delta_relative_improvement([1, 1], [2, 2], [1, 1], [1.5, 1.5]) == pytest.approx(0.5)
    with pytest.raises(ValueError):
        repro.rank_biased_overlap(["a"], ["a"], p=0)


def test_every_format_names_the_role_the_copy_and_the_synthetic_status():
    result = reproduce_run([os.path.join(FORMS, "bm25_and__clean_v2.jsonl")], "bm25_and", REPO)
    for fmt in ("text", "tsv", "markdown"):
        text = render(result, fmt)
        assert "role bm25_and" in text and released("v1", "qrels.jsonl") in text and "SYNTHETIC" in text, fmt
    assert json.loads(render(result, "json"))["instrument"]["synthetic"] is True
    rows = [line.split("\t") for line in render(result, "tsv").splitlines()[1:]]
    assert rows[0] == ["section", "item", "measure", "released", "rerun", "difference", "detail"]
    assert all(len(r) == 7 for r in rows)


def test_bad_roles_runs_and_pairs_exit_2_naming_what_is_wrong(tmp_path):
    run = os.path.join(FORMS, "bm25_and__clean_v2.jsonl")
    code, out, err = _cli(run, "--role", "no_such_role", "--data", REPO)
    assert code == 2 and "unknown role 'no_such_role'" in err and "bm25_and" in err and "lexical_composition" in err
    code, out, err = _cli(run, "--role", "lexical_composition", "--data", REPO)
    assert code == 2 and "a Table 5 block: give two runs, BASE then VARIANT" in err
    code, out, err = _cli(run, run, "--role", "bm25_and", "--data", REPO)
    assert code == 2 and "give one run" in err
    # a run over SourceShift's queries, and one naming another release's documents
    v2 = os.path.join(REPO, "data", "v2", "rankings", "forms", "bm25_and__clean_v2.jsonl")
    code, out, err = _cli(v2, "--role", "bm25_and", "--data", REPO)
    assert code == 2 and "unknown query" in err and "Traceback" not in err
    alien = tmp_path / "alien.trec"
    alien.write_text("nclue_0000 Q0 not_a_document 1 1.0 mine\n", encoding="utf-8")
    code, out, err = _cli(str(alien), "--role", "bm25_and", "--data", REPO)
    assert code == 2 and "alien.trec:1: field 'docno': unknown document" in err
    # a role the instrument cannot play (the stand-in plays every system row; the original release blocks some)
    from nclue.commands.reproduce_run import role_systems
    from nclue.core.errors import UsageError
    from nclue.paperaudit.crosswalk import load
    crosswalk = load(REPO)
    rows = dict(crosswalk.rows, system=dict(crosswalk.rows["system"], jina_joint=None))
    notes = dict(crosswalk.notes)
    notes["system", "jina_joint"] = "a neural model the instrument cannot run"
    with pytest.raises(UsageError, match="jina_joint is blocked on this instrument .a neural model"):
        role_systems(crosswalk._replace(rows=rows, notes=notes), "jina_joint")
    with pytest.raises(UsageError, match="system / jina_joint is blocked"):
        role_systems(crosswalk._replace(rows=rows, notes=notes), "jina_composition")
    code, out, err = _cli(run, "--role", "bm25_and", "--form", "natural", "--data", REPO)
    assert code == 0, err                   # a natural-form run of bm25_and: compared with the natural ranking
    code, out, err = _cli("-", "-", "--role", "lexical_composition", "--data", REPO)
    assert code == 2 and "standard input can be read once" in err


def test_sourceshift_role_reports_table_s3_and_a_pair_named_by_its_sides(tmp_path):
    v2 = os.path.join(REPO, "data", "v2", "rankings", "forms", "bm25_and__natural.jsonl")
    result = reproduce_run([v2], "bm25_and", REPO, form="natural", release="v2")
    assert result["instrument"]["release"] == released("v2") and result["role"]["released"] == [
        released("v2", "rankings/forms/bm25_and__natural.jsonl")]
    assert [t["table"] for t in result["tables"]] == ["Table S3"]
    (cell,) = result["cells"]           # only the natural form's cell: the other forms' rankings are not replaced
    assert cell["number"] == "S3.bm25_and.natural" and cell["rerun"] == pytest.approx(cell["released"], abs=1e-9)
    assert cell["difference_in_se"] is not None
    code, out, err = _cli(v2, "--role", "lexical_composition", "--release", "v2", "--data", REPO)
    assert code == 2 and "give --release v1 or v3" in err
    # the block named by its two sides, as the crosswalk names them; a pair that is no block's is refused
    raw = os.path.join(REPO, "data", "v1", "rankings")
    base, variant = os.path.join(raw, "bm25_and.jsonl"), os.path.join(raw, "bm25_dec_sdr.jsonl")
    code, out, err = _cli(base, variant, "--role", "bm25_and,bm25_sdr", "--data", REPO, "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    assert document["role"]["name"] == "lexical_composition" and document["pair"]["looks_swapped"] is False
    code, out, err = _cli(base, variant, "--role", "bm25_and,jina_dec", "--data", REPO)
    assert code == 2 and "do not form a Table 5 block" in err and "lexical_composition = bm25_and,bm25_sdr" in err
    # base and variant given the wrong way round: compared as given, with a warning
    code, out, err = _cli(variant, base, "--role", "lexical_composition", "--data", REPO, "--format", "json")
    assert code == 0 and "wrong order" in err and json.loads(out)["pair"]["looks_swapped"] is True


def test_the_overlay_reads_the_rerun_and_shares_only_what_the_rerun_cannot_change():
    from nclue.analyses.shared.outcome_vectors import outcomes
    from nclue.core.instrument import Instrument
    inst = Instrument(REPO)
    rel, other = released("v1", "rankings/bm25_and.jsonl"), released("v1", "rankings/bm25_or.jsonl")
    before, kept = outcomes(inst, rel), outcomes(inst, other)
    inst.release("v2").queries()
    replaced = {rel: {q: row for q, row in inst.ranking(other).items()}}
    overlay = inst.with_rankings(replaced)
    assert overlay.ranking(rel) is replaced[rel] and overlay.release("v2").ranking(rel) is replaced[rel]
    assert outcomes(overlay, other) is kept                         # read no replaced file: shared
    after = outcomes(overlay, rel)                                  # read the replaced file: computed again
    assert after is not before and after.success == kept.success and after.success != before.success
    assert overlay.release("v2") is not inst.release("v2") and overlay.release("v2").release("v1") is overlay
    assert overlay.release("v2").queries() is inst.release("v2").queries()


def test_hostile_runs_and_roles_fail_with_a_message_and_no_traceback(tmp_path):
    """Truncated, empty, wrong-typed, non-finite, duplicated and symlinked runs, and huge or empty role names:
    each refused with file:line:field (or the role) and exit 1 or 2, never a traceback."""
    import gzip
    good = open(os.path.join(FORMS, "bm25_and__clean_v2.jsonl"), "rb").read()
    cases = {}
    (tmp_path / "truncated.jsonl.gz").write_bytes(gzip.compress(good)[:5000])
    cases["truncated.jsonl.gz"] = (2, "truncated.jsonl.gz")
    (tmp_path / "empty.trec").write_text("", encoding="utf-8")
    cases["empty.trec"] = (1, "ranks no document for any of the 1000 evaluation queries")
    first = json.loads(good.splitlines()[0])
    wrong = dict(first, docids="not a list")
    (tmp_path / "wrong_type.jsonl").write_text(json.dumps(wrong) + "\n", encoding="utf-8")
    cases["wrong_type.jsonl"] = (2, "wrong_type.jsonl:1: field 'docids'")
    (tmp_path / "nan.trec").write_text("%s Q0 %s 1 nan mine\n" % (first["qid"], first["docids"][0]), encoding="utf-8")
    cases["nan.trec"] = (2, "nan.trec:1: field 'score'")
    line = "%s Q0 %s 1 2.0 mine\n" % (first["qid"], first["docids"][0])
    (tmp_path / "twice.trec").write_text(line + line.replace(" 1 2.0", " 2 1.0"), encoding="utf-8")
    cases["twice.trec"] = (2, "twice.trec:2:")
    os.symlink(os.path.join(FORMS, "bm25_and__clean_v2.jsonl"), str(tmp_path / "link.jsonl"))
    for name, (code_wanted, text) in sorted(cases.items()):
        code, out, err = _cli(str(tmp_path / name), "--role", "bm25_and", "--data", REPO)
        assert code == code_wanted and text in err and "Traceback" not in err, (name, code, err)
    # a run of one's own may be a symlink (it is not a release file): followed; a dangling one is absent
    code, out, err = _cli(str(tmp_path / "link.jsonl"), "--role", "bm25_and", "--data", REPO)
    assert code == 0 and re.search(r"kendall_tau_union@10\s+1\.0000", out), err
    os.symlink(str(tmp_path / "nowhere"), str(tmp_path / "dangling"))
    code, out, err = _cli(str(tmp_path / "dangling"), "--role", "bm25_and", "--data", REPO)
    assert code == 2 and "dangling: file is absent" in err
    code, out, err = _cli(os.path.join(FORMS, "bm25_and__clean_v2.jsonl"), "--role", "x" * 100000, "--data", REPO)
    assert code == 2 and "unknown role" in err and len(err) < 5000 and "Traceback" not in err
    code, out, err = _cli(os.path.join(FORMS, "bm25_and__clean_v2.jsonl"), "--role", ",", "--data", REPO)
    assert code == 2 and "do not form a Table 5 block" in err


def test_a_role_may_be_named_by_the_ids_of_the_systems_that_play_it():
    """Issue 57: `--role bm25_dec_sdr` is the role bm25_sdr, `--role bm25_and,bm25_dec_sdr` the block
    lexical_composition (systems.json's ids, beside the paper's names); the result names the paper's role."""
    raw = os.path.join(REPO, "data", "v1", "rankings")
    by_id = reproduce_run([os.path.join(raw, "bm25_and.jsonl"), os.path.join(raw, "bm25_dec_sdr.jsonl")],
                          "bm25_and,bm25_dec_sdr", REPO)
    by_name = reproduce_run([os.path.join(raw, "bm25_and.jsonl"), os.path.join(raw, "bm25_dec_sdr.jsonl")],
                            "bm25_and,bm25_sdr", REPO)
    assert by_id == by_name and by_id["role"]["name"] == "lexical_composition"
    single = reproduce_run([os.path.join(FORMS, "bm25_dec_sdr__clean_v2.jsonl")], "bm25_dec_sdr", REPO)
    assert single["role"]["name"] == "bm25_sdr" and single["runs"][0]["agreement"]["kendall_tau_union"] == 1.0


def test_a_short_list_s_rbo_below_1_is_explained():
    """Issue 57: the released file against itself has RBO below 1 where a list is shorter than 10 (repro_eval's
    truncated definition); the output says for how many queries."""
    result = reproduce_run([os.path.join(FORMS, "bm25_and__clean_v2.jsonl")], "bm25_and", REPO)
    agreement = result["runs"][0]["agreement"]
    short = agreement["rbo_short_lists"]
    assert 0 < short < agreement["queries"] and agreement["rbo"] < 1.0
    text = dict(((r[0], r[2]), r[6]) for r in rows(result))[("agreement", "rbo@10(p=0.95)")]
    assert "%d of them rank fewer than 10 documents" % short in text and "below 1 even for identical" in text


def test_a_pair_recomputes_its_interval_and_p_cells():
    """Issue 57: every Table 5 cell of a re-run pair is recomputed, the interval and the Sel.+Holm p included:
    BASE given as VARIANT gives delta 0, interval [0, 0] and p 1 (not the released [34.26, 41.60] and p 0)."""
    raw = os.path.join(REPO, "data", "v1", "rankings", "bm25_and.jsonl")
    result = reproduce_run([raw, raw], "lexical_composition", REPO)
    cells = {c["number"].rsplit(".", 1)[1]: c for c in result["cells"]}
    assert cells["delta"]["rerun"] == 0.0 and cells["ci_lo"]["rerun"] == 0.0 and cells["ci_hi"]["rerun"] == 0.0
    assert cells["p"]["rerun"] == 1.0 and cells["ci_lo"]["released"] != 0.0


def test_a_run_of_another_form_or_system_is_named_with_a_warning():
    """Issue 57: a raw-form run checked against the default clean form, and a BM25 run given --role jina_joint,
    each get a warning naming the released ranking they agree with best; the role's own ranking gets none."""
    raw = os.path.join(REPO, "data", "v1", "rankings", "bm25_and.jsonl")
    clean = os.path.join(FORMS, "bm25_and__clean_v2.jsonl")
    warnings = []
    result = reproduce_run([raw], "bm25_and", REPO, warn=warnings.append)
    other = result["runs"][0]["looks_like"]
    assert other["system"] == "bm25_and" and other["form"] == "raw" and other["rbo"] > result["runs"][0][
        "agreement"]["rbo"] + 0.02
    assert len(warnings) == 1 and "is --form raw right?" in warnings[0]
    warnings.clear()
    result = reproduce_run([clean], "jina_joint", REPO, warn=warnings.append)
    assert result["runs"][0]["looks_like"]["system"] == "bm25_and" and "is --role right?" in warnings[0]
    warnings.clear()
    assert reproduce_run([clean], "bm25_and", REPO, warn=warnings.append)["runs"][0]["looks_like"] is None
    assert warnings == []


def test_per_query_tau_and_rbo_in_every_format_and_text_has_column_heads():
    """Issue 57: --per-query lists tau and RBO per query in every format (not only JSON); the text format has
    column heads and names both meanings of "difference"."""
    result = reproduce_run([os.path.join(FORMS, "bm25_and__clean_v2.jsonl")], "bm25_and", REPO, per_query=True)
    per_query = {q["qid"]: q for q in result["runs"][0]["per_query"]}
    for fmt in ("text", "tsv", "markdown"):
        text = render(result, fmt)
        lines = [line for line in text.splitlines() if "nclue_0001" in line and "rbo" in line]
        assert len(lines) == 1, fmt
        assert "rbo %.4f" % per_query["nclue_0001"]["rbo"] in lines[0], (fmt, lines[0])
    head = render(result, "text").splitlines()[1].split()
    assert head[:6] == ["section", "item", "measure", "released", "re-run", "difference"]
    assert "re-run minus released" in render(result, "text").splitlines()[1] and \
        "re-run minus published" in render(result, "text").splitlines()[1]
