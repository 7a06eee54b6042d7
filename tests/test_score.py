"""``nclue score`` and ``export-qrels`` (issue 17): a shipped ranking gets the harness's frozen interval
and p; a perturbed run agrees with scipy's permutation test and bootstrap on the same family vectors
within Monte Carlo error; the output formats; the exported qrels reproduce Gold-NDCG and graded NDCG
under pytrec_eval; the command's exit codes."""

import gzip
import json
import os
import subprocess
import sys

import pytest
from conftest import REPO

from nclue import api
from nclue.harness.score import render, score


def _frozen(name):
    return {c["id"]: c["value"] for c in json.load(open(os.path.join(REPO, "reference_metrics", name + ".json"),
                                                        encoding="utf-8"))["claims"]}


def _rankings(name):
    return os.path.join(REPO, "data", "v1", "rankings", name + ".jsonl")


def test_a_shipped_ranking_gets_its_frozen_interval_and_p():
    result = score([_rankings("page_bm25_top3")], REPO, against=["page_bm25_max"])
    run = result["runs"][0]
    boot = _frozen("v1.inference.bootstrap")
    for name, key in (("nclue_score_at_10", "score"), ("gold_hit_at_10", "hit"), ("gold_ndcg_at_10", "gold_ndcg")):
        m = run["measures"][name]
        assert (m["ci_low"], m["ci_high"]) == (boot["v1.inference.bootstrap.page_bm25_top3.%s.ci_low" % key],
                                               boot["v1.inference.bootstrap.page_bm25_top3.%s.ci_high" % key])
    contrast = _frozen("v1.inference.contrasts")
    prefix = "v1.inference.contrast.page_aggregation.page_bm25_top3."
    c = run["comparisons"][0]
    assert c["p"] == contrast[prefix + "p_randomization"] and 0.05 < c["p"] < 0.5
    assert (c["ci_low"], c["ci_high"]) == (contrast[prefix + "delta_score_ci_low"],
                                           contrast[prefix + "delta_score_ci_high"])
    assert c["p_holm"] == c["p"] and c["p_max_t"] == c["p"]            # one comparison
    scorecard = _frozen("v1.matrix")
    assert run["measures"]["nclue_score_at_10"]["value"] == scorecard["v1.matrix.page_bm25_top3.nclue_score_at_10"]


def _perturbed_trec(tmp_path, every=3):
    """bm25_and with its first two documents swapped on every ``every``-th query, as a gzip TREC run."""
    rows = [json.loads(line) for line in open(_rankings("bm25_and"), encoding="utf-8")]
    lines = []
    for i, r in enumerate(rows):
        docs = list(r["docids"])
        if i % every == 0 and len(docs) > 1:
            docs[0], docs[1] = docs[1], docs[0]
        lines += ["%s Q0 %s %d %d perturbed" % (r["qid"], d, k + 1, 100 - k) for k, d in enumerate(docs)]
    path = tmp_path / "perturbed.trec.gz"
    with gzip.open(str(path), "wt", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    return str(path)


def test_a_perturbed_run_agrees_with_scipy_within_monte_carlo_error(tmp_path):
    import numpy as np
    from scipy import stats

    from nclue.analyses.common import gold_sets, outcomes
    from nclue.analyses.inference import context
    from nclue.core import layout
    from nclue.core.instrument import Instrument
    from nclue.core.metrics import evaluate
    from nclue.harness.score import read_run

    path = _perturbed_trec(tmp_path)
    result = score([path], REPO, against=["bm25_and"])
    c = result["runs"][0]["comparisons"][0]
    inst = Instrument(REPO)
    ctx = context(inst)
    run_out = evaluate(read_run(path, inst.queries(), inst.corpus())[0], inst.queries(), inst.qrels(), gold_sets(inst))
    base = outcomes(inst, layout.ranking_path("bm25_and"))
    fam_diff = np.array([sum(run_out.success[i] - base.success[i] for i in members) for members in ctx.design.members],
                        dtype=float)
    sizes = np.array(ctx.design.sizes, dtype=float)
    assert c["delta_score"] == pytest.approx(100 * fam_diff.sum() / sizes.sum(), abs=1e-12)
    ref = stats.permutation_test((fam_diff, np.zeros_like(fam_diff)), lambda x, y, axis: np.sum(x - y, axis=axis),
                                 permutation_type="samples", n_resamples=20000, alternative="two-sided",
                                 vectorized=True, random_state=5).pvalue
    se = (max(ref, 1e-3) * (1 - min(ref, 0.999)) / 10000) ** 0.5
    assert 0.01 < ref < 0.9 and abs(c["p"] - ref) < 4 * se + 4 * (ref * (1 - ref) / 20000) ** 0.5 + 0.002
    boot = stats.bootstrap((fam_diff, sizes), lambda d, n, axis: 100 * np.sum(d, axis=axis) / np.sum(n, axis=axis),
                           paired=True, vectorized=True, n_resamples=4000, method="percentile",
                           confidence_level=0.95, random_state=5)
    width = c["ci_high"] - c["ci_low"]
    assert abs(c["ci_low"] - boot.confidence_interval.low) < 0.15 * width
    assert abs(c["ci_high"] - boot.confidence_interval.high) < 0.15 * width


def test_formats_and_per_query_rows():
    result = score([_rankings("bm25_and")], REPO, against=["bm25_or"], per_query=True)
    run = result["runs"][0]
    assert len(run["per_query"]) == 1000 * 5
    first = run["per_query"][0]
    assert set(first) == {"qid", "measure", "value"}
    assert json.loads(render(result, "json"))["runs"][0]["measures"]["gold_hit_at_10"]["unit"] == "points"
    tsv = render(result, "tsv").splitlines()
    assert tsv[0].split("\t") == ["run", "measure", "value", "ci_low", "ci_high", "unit", "p", "p_max_t", "p_holm"]
    assert any(line.split("\t")[1] == "Delta n-Clue Score@10 vs bm25_or" for line in tsv)
    assert render(result, "markdown").splitlines()[1].startswith("|---|")
    latex = render(result, "latex")
    assert latex.startswith("\\begin{tabular}") and "Delta n-Clue Score@10 vs bm25\\_or" in latex
    text = render(result, "text")
    assert "depth 10" in text and "points" in text and "NDCG (0-1)" in text


def test_the_python_api_is_the_command():
    via_api = api.score([_rankings("bm25_and")], REPO, against=["bm25_or"])
    out = subprocess.run([sys.executable, "-m", "nclue", "score", _rankings("bm25_and"), "--data", REPO,
                          "--against", "bm25_or", "--format", "json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["runs"][0]["measures"] == via_api["runs"][0]["measures"]


def test_several_runs_are_compared_with_each_other(tmp_path):
    result = score([_rankings("bm25_and"), _rankings("bm25_or")], REPO, against=[])
    first, second = result["runs"]
    assert [c["against"] for c in first["comparisons"]] == ["run:bm25_or.jsonl"]
    assert first["comparisons"][0]["delta_score"] == pytest.approx(-second["comparisons"][0]["delta_score"])
    assert first["comparisons"][0]["p"] == second["comparisons"][0]["p"]


def _cli(*args):
    proc = subprocess.run([sys.executable, "-m", "nclue"] + list(args), capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def test_exit_codes_and_content_detection(tmp_path):
    jsonl_named_txt = tmp_path / "run.txt"
    jsonl_named_txt.write_text(open(_rankings("bm25_and"), encoding="utf-8").read(), encoding="utf-8")
    code, out, err = _cli("score", str(jsonl_named_txt), "--data", REPO, "--against", "none")
    assert code == 0 and "file order (JSONL rule)" in out
    code, out, err = _cli("score", str(jsonl_named_txt), "--data", REPO, "--against", "no_such_system")
    assert code == 2 and "unknown system 'no_such_system'" in err and "Traceback" not in err
    code, out, err = _cli("score", str(jsonl_named_txt), "--data", REPO, "--qrels", "s0")
    assert code == 2 and "data/v1 has no qrel copy 's0' (its copies: construction, final" in err
    code, out, err = _cli("score", str(jsonl_named_txt), "--data", REPO, "--qrels", "construction", "--against",
                          "none", "--format", "json")
    assert code == 0 and json.loads(out)["instrument"]["qrels"] == "data/v1/qrels_construction.jsonl"
    code, out, err = _cli("scroe")
    assert code == 2 and "unknown command 'scroe'" in err


def test_exported_qrels_reproduce_gold_and_graded_ndcg_under_pytrec_eval(tmp_path):
    import pytrec_eval

    from nclue.analyses.common import outcomes
    from nclue.core import layout
    from nclue.core.instrument import Instrument

    code, out, err = _cli("export-qrels", str(tmp_path / "q"), "--data", REPO)
    assert code == 0, err
    readme = (tmp_path / "q" / "README.txt").read_text(encoding="utf-8")
    assert "gold = grade n (2 for a two-condition query, 3 for a three-condition one)" in readme

    def read(name):
        table = {}
        for line in (tmp_path / "q" / name).read_text(encoding="utf-8").splitlines():
            qid, _, docid, grade = line.split()
            table.setdefault(qid, {})[docid] = int(grade)
        return table
    inst = Instrument(REPO)
    rel = layout.ranking_path("bm25_and")
    ranking = inst.ranking(rel)
    run = {q: {d: float(len(r.docids) - i) for i, d in enumerate(r.docids)} for q, r in ranking.items()}
    ours = outcomes(inst, rel)
    for name, field in (("qrels.gold.trec", "gold_ndcg"), ("qrels.graded.trec", "graded_ndcg")):
        qrels = read(name)
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"})
        got = evaluator.evaluate({q: run[q] for q in qrels if q in run})
        position = {q: i for i, q in enumerate(ours.qids)}
        for qid, values in got.items():
            assert values["ndcg_cut_10"] == pytest.approx(getattr(ours, field)[position[qid]], abs=1e-12), (name, qid)
    gold, subset = read("qrels.gold.trec"), read("qrels.subset.trec")
    graded = read("qrels.graded.trec")
    assert sum(len(v) for v in gold.values()) + sum(len(v) for v in subset.values()) == sum(
        len(v) for v in graded.values())
    topics = [json.loads(line) for line in (tmp_path / "q" / "topics.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(topics) == 1000 and {t["n"] for t in topics} == {2, 3}


def test_a_truncated_gzip_run_is_a_clean_error(tmp_path):
    path = tmp_path / "run.trec.gz"
    with gzip.open(str(path), "wt", encoding="utf-8") as fh:
        fh.write("nclue_0000 Q0 sim_wb_00001 1 1.0 t\n" * 2000)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    code, out, err = _cli("score", str(path), "--data", REPO, "--against", "none")
    assert code == 2 and "not a readable gzip file" in err and "Traceback" not in err
