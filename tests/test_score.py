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
from conftest import REPO, released

from nclue import api
from nclue.commands.score import score
from nclue.reports.score_tables import render


def _frozen(name):
    return {c["id"]: c["value"] for c in json.load(open(os.path.join(REPO, "reference_metrics", name + ".json"),
                                                        encoding="utf-8"))["claims"]}


def _rankings(name):
    return os.path.join(REPO, "data", "v1", "rankings", name + ".jsonl")


def test_a_shipped_ranking_gets_its_frozen_interval_and_p():
    result = score([_rankings("page_bm25_top3")], REPO, against=["page_bm25_max"])
    run = result["runs"][0]
    boot = _frozen("v1.inference.bootstrap")
    for name, key in (("nclue_score_at_10", "score"), ("gold_hit_at_10", "hit")):
        m = run["measures"][name]
        assert (m["ci_low"], m["ci_high"]) == (boot["v1.inference.bootstrap.page_bm25_top3.%s.ci_low" % key],
                                               boot["v1.inference.bootstrap.page_bm25_top3.%s.ci_high" % key])
    # score reports every NDCG on trec_eval's 0-1 scale; the claim keeps the paper's x100
    m = run["measures"]["gold_ndcg_at_10"]
    assert m["unit"] == "NDCG (0-1)" and m["decimals"] == 3
    for end in ("ci_low", "ci_high"):
        assert m[end] == pytest.approx(boot["v1.inference.bootstrap.page_bm25_top3.gold_ndcg.%s" % end] / 100, abs=1e-12)
    assert m["value"] == pytest.approx(_frozen("v1.matrix")["v1.matrix.page_bm25_top3.gold_ndcg_at_10"] / 100, abs=1e-12)
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

    from nclue.analyses.shared.inference_context import context
    from nclue.analyses.shared.outcome_vectors import gold_sets, outcomes
    from nclue.commands.score import read_run
    from nclue.core import layout
    from nclue.core.instrument import Instrument
    from nclue.core.metrics import evaluate

    path = _perturbed_trec(tmp_path)
    result = score([path], REPO, against=["bm25_and"])
    c = result["runs"][0]["comparisons"][0]
    inst = Instrument(REPO)
    ctx = context(inst)
    run_out = evaluate(read_run(path, inst.queries(), inst.corpus())[0], inst.queries(), inst.qrels(), gold_sets(inst))
    base = outcomes(inst, layout.CROSSPAGE.ranking("bm25_and"))
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
    from nclue.core.measures import PER_QUERY_MEASURES

    assert len(run["per_query"]) == 1000 * len(PER_QUERY_MEASURES) and len(PER_QUERY_MEASURES) >= 5
    assert [r["measure"] for r in run["per_query"][:len(PER_QUERY_MEASURES)]] == [m.name for m in PER_QUERY_MEASURES]
    first = run["per_query"][0]
    assert set(first) == {"qid", "measure", "value", "unit"}
    assert json.loads(render(result, "json"))["runs"][0]["measures"]["gold_hit_at_10"]["unit"] == "points"
    tsv_text = render(result, "tsv").splitlines()
    banner = tsv_text[0]                                  # every format opens with the release and copy line
    assert banner.startswith(("# nclue score: " + released("v1") + ", " + released("v1", "qrels.jsonl") + " (1000 evaluation queries); SYNTHETIC"))
    tsv = [line.split("\t") for line in tsv_text[1:]]
    assert tsv[0] == ["run", "measure", "qid", "value", "ci_low", "ci_high", "unit", "p", "p_max_t", "p_holm"]
    assert all(len(row) == 10 for row in tsv)                          # qid in its own column
    assert any(row[1] == "Delta n-Clue Score@10 vs bm25_or" and row[2] == "all" for row in tsv)
    per_query = [row for row in tsv[1:] if row[2] != "all"]
    assert len(per_query) == 5000 and {row[2] for row in per_query} == set(run_ids := {r["qid"] for r in run["per_query"]})
    markdown, latex = render(result, "markdown"), render(result, "latex")
    md = markdown.splitlines()
    assert md[0] == banner[2:] and md[1] == "" and md[3] == "|---|---|---|---:|---:|---:|---|---:|---:|---:|"
    assert len(md) == len(tsv) + 3
    assert latex.startswith(("% nclue score: " + released("v1"))) and "Delta n-Clue Score@10 vs bm25\\_or" in latex
    assert "\\begin{tabular}{lllrrrlrrr}" in latex                    # numbers right-aligned
    assert sum(1 for line in latex.splitlines() if "nclue\\_0000" in line) == 5      # per query in LaTeX too
    text = render(result, "text")
    assert "depth 10" in text and "points" in text and "NDCG (0-1)" in text and "nclue_0000" in text
    assert len(run_ids) == 1000
    # trec_eval -q's layout: measure, qid, value; the per-query lines, then the means as 'all'
    trec = [line.split("\t") for line in render(result, "trec").splitlines()]
    assert trec[0] == [banner] and trec[1] == ["runid", "all", run["run"]]
    assert all(len(line) == 3 for line in trec[1:])
    assert len([line for line in trec[2:] if line[1] != "all"]) == 5000
    means = {line[0]: float(line[2]) for line in trec[2:] if line[1] == "all"}       # full precision
    assert means["nclue_score_at_10"] == run["measures"]["nclue_score_at_10"]["value"]
    assert means["ndcg_cut_10"] == run["measures"]["ndcg_cut_10"]["value"] if "ndcg_cut_10" in run["measures"] \
        else means["ndcg_cut_10"] == run["measures"]["graded_ndcg_at_10"]["value"]
    first_query = [line for line in trec[2:] if line[1] == first["qid"]]
    assert [line[0] for line in first_query][:2] == ["nclue_score_at_10", "gold_hit_at_10"]


def test_per_query_rows_are_in_the_units_of_the_totals():
    from statistics import fmean
    result = score([_rankings("bm25_and")], REPO, against=[], per_query=True)
    run = result["runs"][0]
    from nclue.core.measures import PER_QUERY_MEASURES
    for name in [m.name for m in PER_QUERY_MEASURES]:      # every measure with per-query rows, from its row
        values = [r["value"] for r in run["per_query"] if r["measure"] == name]
        assert fmean(values) == pytest.approx(run["measures"][name]["value"], abs=1e-9), name
        assert {r["unit"] for r in run["per_query"] if r["measure"] == name} == {run["measures"][name]["unit"]}
    assert {r["value"] for r in run["per_query"] if r["measure"] == "nclue_score_at_10"} <= {0.0, 100.0}


def test_default_references_are_the_fair_scorecard_systems():
    result = score([_rankings("bm25_and")], REPO)
    refs = result["references"]
    systems = json.load(open(os.path.join(REPO, "data", "v1", "systems.json"), encoding="utf-8"))
    fair = {x["id"] for x in systems["systems"] if x["fair"]}
    assert refs == sorted(set(systems["form_systems"]) & fair) and len(refs) == 13
    assert not any(r.startswith(("oracle", "floor", "mask_", "prior", "random")) for r in refs)
    named = score([_rankings("bm25_and")], REPO, against=["oracle_facts"])          # a control when named
    assert named["runs"][0]["comparisons"][0]["against"] == "oracle_facts"


def test_studentized_max_t_is_not_dominated_by_a_high_variance_reference():
    """Adding the oracle (a huge, high-variance contrast) leaves the other comparisons' adjusted p nearly
    unchanged -- at most the cost of one more comparison; the unstandardized statistic lets the oracle's null
    swallow them (measured: bm25_or 0.0001 -> 0.35 alone -> 0.79 with the oracle)."""
    from nclue.stats import randomization
    base = score([_rankings("bm25_and")], REPO, against=["bm25_or", "page_bm25_top3"])
    more = score([_rankings("bm25_and")], REPO, against=["bm25_or", "page_bm25_top3", "oracle_facts"])
    by = {c["against"]: c for c in more["runs"][0]["comparisons"]}
    for c in base["runs"][0]["comparisons"]:
        assert abs(by[c["against"]]["p_max_t"] - c["p_max_t"]) <= 0.05, c["against"]
    assert by["bm25_or"]["p_max_t"] == base["runs"][0]["comparisons"][0]["p_max_t"] == 1 / 10001

    class T:
        def __init__(self, diffs, null):
            self.diffs, self.observed, self.null = diffs, sum(diffs), null
    small, noisy = T([1, 1], [2, 0, 0, -2]), T([30, -10], [20, 40, -40, -20])
    assert randomization.max_t_p_values([small]) == randomization.max_t_p_values([small, noisy], studentize=True)[:1]
    assert randomization.max_t_p_values([small, noisy])[0] > randomization.max_t_p_values([small])[0]


def test_the_python_api_is_the_command():
    via_api = api.score([_rankings("bm25_and")], REPO, against=["bm25_or"])
    out = subprocess.run([sys.executable, "-m", "nclue", "score", _rankings("bm25_and"), "--data", REPO,
                          "--against", "bm25_or", "--format", "json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["runs"][0]["measures"] == via_api["runs"][0]["measures"]
    # and both are the analyses' own frozen values (v1.matrix, computed by the harness's analyses, not by score)
    frozen = _frozen("v1.matrix")
    measures = via_api["runs"][0]["measures"]
    assert measures["nclue_score_at_10"]["value"] == frozen["v1.matrix.bm25_and.nclue_score_at_10"]
    assert measures["gold_hit_at_10"]["value"] == frozen["v1.matrix.bm25_and.gold_hit_at_10"]
    assert measures["graded_ndcg_at_10"]["value"] == pytest.approx(frozen["v1.matrix.bm25_and.graded_ndcg_at_10"],
                                                                   abs=1e-12)


def test_several_runs_are_compared_with_each_other_once(tmp_path):
    result = score([_rankings("bm25_and"), _rankings("bm25_or"), _rankings("tri_joint")], REPO, against=[],
                   names=["and", "or", "tri"])
    first, second, third = result["runs"]
    assert [c["against"] for c in first["comparisons"]] == ["run:or", "run:tri"]
    assert [c["against"] for c in second["comparisons"]] == ["run:tri"] and third["comparisons"] == []
    single = score([_rankings("bm25_or"), _rankings("bm25_and")], REPO, against=[], names=["or", "and"])
    assert first["comparisons"][0]["delta_score"] == pytest.approx(-single["runs"][0]["comparisons"][0]["delta_score"])
    assert first["comparisons"][0]["p"] == single["runs"][0]["comparisons"][0]["p"]


def test_run_labels_stdin_and_in_memory_runs(tmp_path):
    from nclue.core.errors import UsageError
    path = _rankings("bm25_and")
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    trec = tmp_path / "a" / "run.txt"
    trec.parent.mkdir()
    trec.write_text("".join("%s Q0 %s %d %s mytag\n" % (r["qid"], d, i + 1, 10 - i)
                            for r in rows for i, d in enumerate(r["docids"])))
    same = tmp_path / "b" / "run.txt"
    same.parent.mkdir()
    same.write_text(open(path, encoding="utf-8").read())
    result = score([str(trec), str(same)], REPO, against=[])
    assert [r["run"] for r in result["runs"]] == ["mytag", str(same)]        # the TREC tag names the run
    with pytest.raises(UsageError, match="give each a --name"):
        score([str(same), str(same)], REPO, against=[])
    memory = {r["qid"]: r["docids"] for r in rows}
    via_memory = score([memory], REPO, against=[])["runs"][0]
    via_file = score([path], REPO, against=[])["runs"][0]
    assert via_memory["measures"] == via_file["measures"] and via_memory["run"] == "run1"
    import io
    via_stdin = score(["-"], REPO, against=[], stdin=io.BytesIO(open(path, "rb").read()))["runs"][0]
    assert via_stdin["measures"] == via_file["measures"] and via_stdin["run"] == "<stdin>"
    code, out, err = _cli("score", "-", "--data", REPO, "--against", "none", "--format", "json",
                          stdin=open(path, "rb").read())
    assert code == 0 and json.loads(out)["runs"][0]["run"] == "<stdin>"


def test_an_empty_run_exits_1_unless_allowed(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n   \n")
    code, out, err = _cli("score", str(empty), "--data", REPO, "--against", "none")
    assert code == 1 and "ranks no document for any of the 1000 evaluation queries" in err and out == ""
    code, out, err = _cli("score", str(empty), "--data", REPO, "--against", "none", "--allow-empty")
    assert code == 0 and "WARNING" in err and "n-Clue Score@10" in out


def test_a_sourceshift_run_scored_against_crosspage_suggests_the_release(tmp_path):
    run = os.path.join(REPO, "data", "v2", "rankings", "forms", "bm25_and__raw.jsonl")
    code, out, err = _cli("score", run, "--data", REPO, "--against", "none")
    assert code == 2 and "unknown query" in err and "--release v2" in err


def _cli(*args, stdin=None):
    proc = subprocess.run([sys.executable, "-m", "nclue"] + list(args), capture_output=True, timeout=300,
                          input=stdin)
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


def test_exit_codes_and_content_detection(tmp_path):
    jsonl_named_txt = tmp_path / "run.txt"
    jsonl_named_txt.write_text(open(_rankings("bm25_and"), encoding="utf-8").read(), encoding="utf-8")
    code, out, err = _cli("score", str(jsonl_named_txt), "--data", REPO, "--against", "none")
    assert code == 0 and "file order (JSONL rule)" in out
    code, out, err = _cli("score", str(jsonl_named_txt), "--data", REPO, "--against", "no_such_system")
    assert code == 2 and "unknown system 'no_such_system'" in err and "Traceback" not in err
    code, out, err = _cli("score", str(jsonl_named_txt), "--data", REPO, "--qrels", "s0")
    assert code == 2 and (released("v1") + " has no qrel copy 's0' (its copies: construction, final") in err
    code, out, err = _cli("score", str(jsonl_named_txt), "--data", REPO, "--qrels", "construction", "--against",
                          "none", "--format", "json")
    assert code == 0 and json.loads(out)["instrument"]["qrels"] == released("v1", "qrels_construction.jsonl")
    code, out, err = _cli("scroe")
    assert code == 2 and "unknown command 'scroe'" in err


def test_exported_qrels_reproduce_gold_and_graded_ndcg_under_pytrec_eval(tmp_path):
    import pytrec_eval

    from nclue.analyses.shared.outcome_vectors import outcomes
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
    rel = layout.CROSSPAGE.ranking("bm25_and")
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


def test_a_measure_declared_by_one_row_is_scored_with_its_interval_help_and_per_query_rows(monkeypatch):
    # docs/recipes.md#a-metric: a Measure row declares the whole measure; summary, score's totals, intervals,
    # --per-query rows and --help read it, so nothing else is edited.  A toy: Gold Hit@3, from the existing
    # first-gold ranks.
    from nclue import cli
    from nclue.analyses.shared.outcome_vectors import outcomes
    from nclue.core import measures
    from nclue.core.instrument import Instrument
    from nclue.core.metrics import summary

    toy = measures.Measure("gold_hit_at_3", "gold_hit_3", "Gold Hit@3", "points", 1, "a gold in the top 3",
                           "gold-hit10", lambda out: [1 if r <= 3 else 0 for r in out.first_gold],
                           per_query_rows=True, help="share of queries with a gold in the top 3", integer=True)
    monkeypatch.setitem(measures.MEASURES, toy.name, toy)
    monkeypatch.setattr(measures, "SCORE_COMMAND_MEASURES", measures.SCORE_COMMAND_MEASURES + (toy,))
    monkeypatch.setattr(measures, "PER_QUERY_MEASURES", measures.PER_QUERY_MEASURES + (toy,))
    out = outcomes(Instrument(REPO), released("v1", "rankings/bm25_and.jsonl"))
    by_hand = sum(1 for r in out.first_gold if r <= 3)
    assert summary(out)["gold_hit_3"] == 100.0 * by_hand / len(out.qids)
    run = score([_rankings("bm25_and")], REPO, against=[], per_query=True)["runs"][0]
    total = run["measures"]["gold_hit_at_3"]
    assert total["value"] == 100.0 * by_hand / len(out.qids) and total["unit"] == "points"
    assert total["ci_low"] < total["value"] < total["ci_high"]
    rows = [r["value"] for r in run["per_query"] if r["measure"] == "gold_hit_at_3"]
    assert len(rows) == len(out.qids) and sum(rows) / len(rows) == pytest.approx(total["value"])
    assert "Gold Hit@3" in render(score([_rankings("bm25_and")], REPO, against=[]), "text")
    assert "  %-17s points: share of queries with a gold in the top 3" % "Gold Hit@3" in cli._score_epilog()


def test_a_qrel_copy_has_one_name_everywhere():
    # the command line, the API and genealogy.json name a copy alike (issue 28): v1 construction / final,
    # v2 construction / s0 / s; without --qrels the release's last copy
    from nclue.core import layout

    for release in layout.RELEASES.values():
        recorded = [c["copy"] for c in json.load(open(os.path.join(REPO, *release.genealogy.split("/")),
                                                      encoding="utf-8"))["copies"]]
        assert recorded == [c.name for c in release.copies]
    v2_run = os.path.join(REPO, "data", "v2", "rankings", "forms", "bm25_and__raw.jsonl")
    named = score([v2_run], REPO, release="v2", qrels="s", against=[])
    default = score([v2_run], REPO, release="v2", against=[])
    assert named["instrument"]["qrels"] == default["instrument"]["qrels"] == released("v2", "qrels.jsonl")
    assert named["runs"][0]["measures"] == default["runs"][0]["measures"]
    code, out, err = _cli("score", v2_run, "--data", REPO, "--release", "v2", "--qrels", "final", "--against", "none")
    assert code == 2 and (released("v2") + " has no qrel copy 'final' (its copies: construction, s0, s") in err


def test_render_refuses_an_unknown_format():
    from nclue.core.errors import UsageError

    result = score([_rankings("bm25_and")], REPO, against=[])
    with pytest.raises(UsageError, match="unknown format 'xml'"):
        render(result, "xml")


def test_a_run_is_never_its_own_reference():
    from nclue.core import layout
    """Scoring a released ranking compares it with every default reference but itself (and says so); the Holm
    family is the other references alone."""
    from nclue.api import score
    from nclue.run.locate import CHECKOUT

    run = layout.abspath(CHECKOUT, layout.CROSSPAGE.ranking("bm25_and"))
    result = score([run], against=["bm25_and", "bm25_or"])
    entry = result["runs"][0]
    assert [c["against"] for c in entry["comparisons"]] == ["bm25_or"]
    assert list(entry["not_compared"]) == ["bm25_and"]
    alone = score([run], against=["bm25_or"])["runs"][0]["comparisons"][0]
    assert alone["p_holm"] == entry["comparisons"][0]["p_holm"]


def test_per_query_text_rows_split_on_whitespace_like_trec_eval():
    """Each per-query row of the text format is ``measure qid value unit`` with whitespace-free fields, so that
    ``awk '{print $1, $2, $3}'`` reads it as trec_eval -q's ``measure qid value``."""
    from nclue.core import layout
    from nclue.run.locate import CHECKOUT

    run = layout.abspath(CHECKOUT, layout.CROSSPAGE.ranking("bm25_or"))
    text = render(score([run], against=["bm25_and"], per_query=True), "text")
    rows = text.split("  per query", 1)[1].splitlines()[1:]
    from nclue.core.measures import PER_QUERY_MEASURES
    assert len(rows) == 1000 * len(PER_QUERY_MEASURES)
    for line in rows[:50]:
        fields = line.split()
        assert len(fields) == 4 and fields[1].startswith("nclue_"), line
    assert {line.split()[0] for line in rows} == {m.name for m in PER_QUERY_MEASURES}


def _graded_qrels(tmp_path):
    """The release's graded qrels exported (export-qrels), as ``{qid: {docid: grade}}`` and the file's path."""
    code, out, err = _cli("export-qrels", str(tmp_path / "q"), "--data", REPO)
    assert code == 0, err
    path = tmp_path / "q" / "qrels.graded.trec"
    table = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        qid, _, docid, grade = line.split()
        table.setdefault(qid, {})[docid] = int(grade)
    return table, path


def _trec_run(tmp_path, name="bm25_and"):
    """A released ranking as a TREC run, scores descending so trec_eval keeps its order; and as a dict."""
    rows = [json.loads(line) for line in open(_rankings(name), encoding="utf-8")]
    run = {r["qid"]: {d: float(100 - k) for k, d in enumerate(r["docids"])} for r in rows}
    path = tmp_path / ("%s.trec" % name)
    path.write_text("".join("%s Q0 %s %d %s %s\n" % (q, d, k + 1, s, name) for q in run
                            for k, (d, s) in enumerate(run[q].items())), encoding="utf-8")
    return run, str(path)


def test_a_qrels_file_of_ones_own_agrees_with_trec_eval_ndcg_cut_10(tmp_path):
    # issue 36: `score RUN --qrels-file F -m ndcg_cut_10` is trec_eval's -m ndcg_cut.10 on F (with -c: queries
    # F names that the run does not rank count as 0).  F is not a released copy: every 7th query dropped,
    # every 5th query's gold demoted to a subset, and grade-0 rows added.
    pytrec_eval = pytest.importorskip("pytrec_eval")
    graded, _ = _graded_qrels(tmp_path)
    mine = {}
    for i, qid in enumerate(sorted(graded)):
        if i % 7 == 0:
            continue
        grades = dict(graded[qid])
        if i % 5 == 0:
            top = max(grades.values())
            grades = {d: (g - 1 if g == top else g) for d, g in grades.items()}
        mine[qid] = grades
    extra = sorted(json.loads(line)["docid"] for line in open(os.path.join(REPO, "data", "v1", "corpus.jsonl"),
                                                              encoding="utf-8"))[:3]
    lines = ["%s 0 %s %d" % (q, d, g) for q in sorted(mine) for d, g in sorted(mine[q].items())]
    lines += ["%s 0 %s 0" % (q, d) for q in sorted(mine)[:50] for d in extra if d not in mine[q]]
    path = tmp_path / "mine.qrels"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run, run_path = _trec_run(tmp_path)
    result = score([run_path], REPO, against=[], qrels_file=str(path), measures=["ndcg_cut_10"], per_query=True)
    got = result["runs"][0]
    assert list(got["measures"]) == ["graded_ndcg_at_10"] and result["instrument"]["queries"] == len(mine)
    assert "qrels file, sha256" in result["instrument"]["qrels"]
    qrels = {q: {d: g for d, g in grades.items()} for q, grades in mine.items()}
    for q in sorted(mine)[:50]:
        qrels[q].update({d: 0 for d in extra if d not in mine[q]})
    reference = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate({q: run[q] for q in qrels if q in run})
    per_query = {r["qid"]: r["value"] for r in got["per_query"]}
    assert set(per_query) == set(mine)
    for qid in mine:
        expected = reference[qid]["ndcg_cut_10"] if qid in reference else 0.0      # trec_eval -c
        assert per_query[qid] == pytest.approx(expected, abs=1e-12), qid
    mean_c = sum(reference[q]["ndcg_cut_10"] for q in reference) / len(mine)
    assert got["measures"]["graded_ndcg_at_10"]["value"] == pytest.approx(mean_c, abs=1e-12)
    # the command line says the same, whitespace-split like trec_eval -q
    code, out, err = _cli("score", run_path, "--data", REPO, "--against", "none", "--qrels-file", str(path),
                          "-m", "ndcg_cut.10", "--per-query")
    assert code == 0, err
    rows = [line.split() for line in out.splitlines() if line.startswith("  graded_ndcg_at_10 ")]
    assert len(rows) == len(mine) and all(len(r) == 4 for r in rows)
    assert "Gold-NDCG" not in out and "n-Clue Score@10 " not in out


def test_the_exported_qrels_given_back_score_as_the_released_copy(tmp_path):
    _, path = _graded_qrels(tmp_path)
    mine = score([_rankings("bm25_and")], REPO, against=[], qrels_file=str(path))["runs"][0]["measures"]
    released = score([_rankings("bm25_and")], REPO, against=[])["runs"][0]["measures"]
    assert {k: v["value"] for k, v in mine.items()} == {k: v["value"] for k, v in released.items()}


@pytest.mark.parametrize("release", ["v1", "v2", "v3"])
def test_the_same_judgements_in_another_file_draw_the_same_intervals_and_p(tmp_path, release):
    """Issue 57: the streams are keyed by the judgements' canonical content, not a file's bytes: the exported copy,
    its rows reversed and grade-0 rows added, gives the released copy's intervals and p exactly."""
    from nclue.commands.export_qrels import export
    from nclue.core import layout

    export(REPO, str(tmp_path / "x"), release=release)
    lines = open(tmp_path / "x" / "qrels.graded.trec", encoding="utf-8").read().splitlines()
    qid, _, docid, _ = lines[0].split()
    judged = {line.split()[2] for line in lines if line.split()[0] == qid}
    other = next(line.split()[2] for line in lines if line.split()[2] not in judged)
    lines = lines[::-1] + ["%s 0 %s 0" % (qid, other)]          # another order, and a grade-0 row added
    path = tmp_path / "reordered.trec"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    base = "bm25_and"
    ranking = os.path.join(REPO, layout.RELEASE_NAMED[release].form_ranking(base, "raw"))
    kwargs = {"release": release, "against": ["bm25_or"]}
    from_file = score([ranking], REPO, qrels_file=str(path), **kwargs)["runs"][0]["comparisons"][0]
    released = score([ranking], REPO, **kwargs)["runs"][0]["comparisons"][0]
    assert from_file == released


def test_a_query_with_no_gold_in_ones_own_qrels_is_a_family_of_its_own(tmp_path):
    graded, _ = _graded_qrels(tmp_path)
    qids = sorted(graded)[:40]
    lines = ["%s 0 %s %d" % (q, d, min(g, 1)) for q in qids for d, g in sorted(graded[q].items())]   # no gold
    path = tmp_path / "nogold.qrels"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = score([_rankings("bm25_and")], REPO, against=[], qrels_file=str(path))
    assert result["bootstrap"]["families"] == 40
    measures = result["runs"][0]["measures"]
    assert measures["nclue_score_at_10"]["value"] == 0.0 and measures["gold_hit_at_10"]["value"] == 0.0


BAD_QRELS = [
    # (file content, expected message) -- each must exit 2 naming file:line: field, without a traceback
    ("nclue_0000 0 sim_wb_00001\n", ":1: expected 4 columns"),
    ("nclue_0000 0 sim_wb_00001 1 extra\n", ":1: expected 4 columns"),
    ("nclue_9999 0 sim_wb_00001 1\n", ":1: field 'qid': unknown query"),
    ("nclue_0000 0 ../../etc/passwd 1\n", ":1: field 'docno': unknown document"),
    ("nclue_0000 0 sim_wb_00001 1.5\n", ":1: field 'grade': not an integer"),
    ("nclue_0000 0 sim_wb_00001 inf\n", ":1: field 'grade': not an integer"),
    ("nclue_0000 0 sim_wb_00001 nan\n", ":1: field 'grade': not an integer"),
    ("nclue_0000 0 sim_wb_00001 -1\n", ":1: field 'grade': grade -1 is outside 0.."),
    ("nclue_0000 0 sim_wb_00001 4\n", ":1: field 'grade': grade 4 is outside 0.."),
    ("nclue_0000 0 sim_wb_00001 " + "9" * 5000 + "\n", ":1: field 'grade': grade '999"),
    ("nclue_0000 0 sim_wb_00001 1\nnclue_0000 0 sim_wb_00001 0\n", ":2: field 'docno': (nclue_0000, "
                                                                   "'sim_wb_00001') is judged twice (first at line 1)"),
    ("", ": no qrel rows"),
    ("\n \n\t\n", ": no qrel rows"),
    ("nclue_0000 0 sim_wb_00001 \uff11\n", ":1: field 'grade': not an integer"),
]


@pytest.mark.parametrize("content,message", BAD_QRELS, ids=[m.split(":")[-1].strip()[:30] + str(i)
                                                             for i, (_, m) in enumerate(BAD_QRELS)])
def test_a_bad_qrels_file_exits_2_naming_file_line_and_field(tmp_path, content, message):
    path = tmp_path / "bad.qrels"
    path.write_text(content, encoding="utf-8")
    code, out, err = _cli("score", _rankings("bm25_and"), "--data", REPO, "--against", "none", "--qrels-file",
                          str(path))
    assert code == 2 and str(path) + message in err and "Traceback" not in err, err
    assert out == ""


def test_a_damaged_or_missing_qrels_file_exits_2(tmp_path):
    good = "nclue_0000 0 sim_wb_00001 1\n".encode()
    cases = {"truncated.gz": gzip.compress(good * 5000)[:200], "binary": b"\xff\xfe\x00nclue", "dir": None,
             "dangling": None}
    (tmp_path / "dir").mkdir()
    os.symlink(str(tmp_path / "nowhere"), str(tmp_path / "dangling"))
    for name, data in cases.items():
        if data is not None:
            (tmp_path / name).write_bytes(data)
        code, out, err = _cli("score", _rankings("bm25_and"), "--data", REPO, "--against", "none", "--qrels-file",
                              str(tmp_path / name))
        assert code == 2 and str(tmp_path / name) in err and "Traceback" not in err, (name, err)


def test_measures_are_picked_by_id_and_an_unknown_one_is_a_usage_error():
    result = score([_rankings("bm25_and")], REPO, against=[], measures=["pairwise_auc", "nclue_score_at_10"])
    assert list(result["runs"][0]["measures"]) == ["nclue_score_at_10", "pairwise_auc"]
    assert [r[1] for r in __import__("nclue.reports.score_tables", fromlist=["_rows"])._rows(result)] == [
        "n-Clue Score@10", "pairwise AUC"]
    code, out, err = _cli("score", _rankings("bm25_and"), "--data", REPO, "-m", "mapp,ndcg_cut.10")
    assert code == 2 and "-m: unknown measure 'mapp'" in err and "ndcg_cut.10" in err and "Traceback" not in err
    code, out, err = _cli("score", _rankings("bm25_and"), "--data", REPO, "-m", "map")      # trec_eval's full-depth MAP
    assert code == 2 and "-m map: every ranking is cut at depth 10" in err and "Traceback" not in err
    code, out, err = _cli("score", _rankings("bm25_and"), "--data", REPO, "--qrels", "final", "--qrels-file", "x")
    assert code == 2 and "give one of them" in err


def test_one_scale_per_kind_of_measure():
    from nclue.core.measures import KINDS, SCORE_COMMAND_MEASURES
    result = score([_rankings("bm25_and")], REPO, against=[])
    measures = result["runs"][0]["measures"]
    for m in SCORE_COMMAND_MEASURES:
        assert measures[m.name]["unit"] == KINDS[m.kind].unit, m.name
    assert measures["gold_ndcg_at_10"]["unit"] == measures["graded_ndcg_at_10"]["unit"] == "NDCG (0-1)"
    assert 0 <= measures["gold_ndcg_at_10"]["value"] <= 1 and result["scales"]["ndcg"]["unit"] == "NDCG (0-1)"


@pytest.mark.parametrize("given", ["", ",", " , "])
def test_an_empty_measure_list_is_a_usage_error(given):
    """Issue 58 item 7: `-m ''` or `-m ,` names no measure; like an unknown one it exits 2 (it printed all nine)."""
    code, out, err = _cli("score", _rankings("bm25_and"), "--data", REPO, "-m", given)
    assert code == 2 and out == "" and "-m/--measure names no measure" in err and "Traceback" not in err, err


def test_no_output_replaces_an_input_qrels_file(tmp_path):
    """Issue 58 item 6: `score RUN --qrels-file Q --html Q` is refused before anything is written, and Q is
    left as it was (the run files were already protected)."""
    export = tmp_path / "q"
    assert _cli("export-qrels", str(export), "--data", REPO)[0] == 0
    qrels = export / "qrels.graded.trec"
    before = qrels.read_bytes()
    for target in (str(qrels), str(tmp_path / "q" / "." / "qrels.graded.trec")):
        code, out, err = _cli("score", _rankings("bm25_and"), "--data", REPO, "--against", "none", "--qrels-file",
                              str(qrels), "--html", target)
        assert code == 2 and "it is an input of this command" in err and "Traceback" not in err, err
        assert qrels.read_bytes() == before


def test_an_output_named_as_a_folder_is_refused_by_its_own_name(tmp_path):
    """Issue 58 item 9: `reproduce.py --json X/` (no folder X) names the JSON report the user gave, not the
    provenance record derived from it; `score --html X/` alike."""
    from conftest import run_reproduce

    target = str(tmp_path / "nowhere") + "/"
    code, out, err = run_reproduce("--data", REPO, "--json", target, "--only", "integrity")
    assert code == 2 and "cannot write the JSON report '%s': it names a folder, not a file" % target in err, err
    assert "provenance" not in err and "Traceback" not in err
    code, out, err = _cli("score", _rankings("bm25_and"), "--data", REPO, "--html", target)
    assert code == 2 and "cannot write the HTML page" in err and "names a folder" in err, err
    assert not os.path.exists(target)


def test_only_rebuild_without_deep_is_refused_at_once():
    """Issue 57: `--only rebuild` ran a four-minute rebuild although the help says the rebuild runs only with
    --deep; it is now a usage error, before any file is read."""
    import time

    from conftest import run_reproduce

    started = time.time()
    code, out, err = run_reproduce("--data", REPO, "--only", "rebuild")
    assert code == 2 and "--only rebuild regenerates every release" in err and "--deep" in err, err
    assert out == "" and "Traceback" not in err and time.time() - started < 30


def test_a_run_that_leaves_queries_out_scores_alike_as_jsonl_and_as_trec(tmp_path):
    """Issue 57: one rule for both formats: an absent query is an empty list (trec_eval -c), stated in the output;
    the JSONL run is no longer refused while the TREC one is scored."""
    rows = [json.loads(line) for line in open(_rankings("bm25_and"), encoding="utf-8")][:980]
    jsonl = tmp_path / "part.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    trec = tmp_path / "part.trec"
    trec.write_text("".join("%s Q0 %s %d %r x\n" % (r["qid"], d, k + 1, s) for r in rows
                            for k, (d, s) in enumerate(zip(r["docids"], r["scores"]))), encoding="utf-8")
    a = score([str(jsonl)], REPO, against=["bm25_or"])["runs"][0]
    b = score([str(trec)], REPO, against=["bm25_or"])["runs"][0]
    assert a["measures"] == b["measures"] and a["comparisons"] == b["comparisons"]
    assert a["ranked_queries"] == b["ranked_queries"] < 1000
    full = score([_rankings("bm25_and")], REPO, against=[])["runs"][0]
    assert a["measures"]["nclue_score_at_10"]["value"] < full["measures"]["nclue_score_at_10"]["value"]
    code, out, err = _cli("score", str(jsonl), "--data", REPO, "--against", "none")
    assert code == 0 and "%d of 1000 queries ranked, absent queries score as empty lists" % a["ranked_queries"] in out


def test_paired_tests_run_on_the_measure_shown(tmp_path):
    """Issue 57: with `-m ndcg_cut.10` the paired tests compare graded NDCG@10 (no n-Clue success count, no
    Delta n-Clue table); the delta is the mean per-query difference, checked against pytrec_eval's ndcg_cut_10,
    and an identical reference gives delta 0 and p 1."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    graded, _ = _graded_qrels(tmp_path)
    run, run_path = _trec_run(tmp_path)
    _, or_path = _trec_run(tmp_path, "bm25_or")
    result = score([run_path, or_path], REPO, against=[], measures=["ndcg_cut.10"])
    (c,) = result["runs"][0]["comparisons"]
    assert c["measure"] == "graded_ndcg_at_10" and "delta_score" not in c
    assert result["randomization"]["measure"] == "graded_ndcg_at_10"
    other = {}
    for line in open(or_path, encoding="utf-8"):
        q, _, d, rank, s, _ = line.split()
        other.setdefault(q, {})[d] = float(s)
    evaluator = pytrec_eval.RelevanceEvaluator(graded, {"ndcg_cut.10"})
    mine, theirs = evaluator.evaluate(run), evaluator.evaluate(other)
    expected = sum(mine.get(q, {}).get("ndcg_cut_10", 0.0) - theirs.get(q, {}).get("ndcg_cut_10", 0.0)
                   for q in graded) / len(graded)
    assert c["delta"] == pytest.approx(expected, abs=1e-9) and c["ci_low"] <= c["delta"] <= c["ci_high"]
    same = score([run_path, run_path], REPO, against=[], measures=["ndcg_cut.10"], names=["a", "b"])
    (c,) = same["runs"][0]["comparisons"]
    assert c["delta"] == 0.0 and c["p"] == 1.0
    code, out, err = _cli("score", run_path, or_path, "--data", REPO, "--against", "none", "-m", "ndcg_cut.10")
    assert code == 0 and "n-Clue" not in out and "Delta graded NDCG@10 (NDCG (0-1)) vs" in out, out
    # a measure with no paired test here (pairwise AUC): no comparison, and the header says so
    auc = score([run_path, or_path], REPO, against=[], measures=["pairwise_auc"])
    assert auc["runs"][0]["comparisons"] == [] and auc["randomization"]["measure"] is None


@pytest.mark.parametrize("release", ["v1", "v3"])
def test_the_standard_measures_equal_pytrec_eval_on_every_released_run(release):
    """Issue 57: P@10, RR@10, AP@10 and R@10 (on request: -m P@10 ...) are trec_eval's P_10, recip_rank,
    map_cut_10 and recall_10 on the graded final qrels (every grade >= 1 relevant), per query, on every released
    raw-form ranking of the release (file order kept: scores 100 - rank)."""
    import glob

    from nclue.core import layout
    from nclue.core.instrument import Instrument
    from nclue.core.metrics import STANDARD_FIELDS, standard_outcomes

    pytrec_eval = pytest.importorskip("pytrec_eval")
    inst = Instrument(REPO).release(release)
    queries, qrels = inst.evaluation_queries(), inst.qrels(inst.copy())
    graded = {q: {d: int(g) for d, g in qrels.get(q, {}).items()} for q in queries}
    evaluator = pytrec_eval.RelevanceEvaluator(graded, {"P_10", "recip_rank", "map_cut_10", "recall_10"})
    names = dict(zip(STANDARD_FIELDS, ("P_10", "recip_rank", "map_cut_10", "recall_10")))
    files = sorted(glob.glob(os.path.join(REPO, layout.RELEASE_NAMED[release].base, "rankings", "*.jsonl")))
    assert len(files) >= 41
    for path in files:
        ranking = inst.ranking(os.path.relpath(path, REPO))
        mine = standard_outcomes(ranking, queries, qrels)
        run = {q: {d: float(100 - k) for k, d in enumerate(ranking[q].docids)} for q in queries
               if q in ranking and ranking[q].docids}
        reference = evaluator.evaluate(run)
        for k, q in enumerate(sorted(queries)):
            for field, name in names.items():
                expected = reference[q][name] if q in reference else 0.0
                assert mine[field][k] == pytest.approx(expected, abs=1e-12), (path, q, field)


def test_the_standard_measures_on_request_by_their_names(tmp_path):
    """-m accepts ir_measures' and trec_eval's names (P@10, P.10, P_10, RR@10, recip_rank, AP@10, map_cut.10, R@10,
    recall.10, nDCG@10); a measure deeper than the harness's depth (R@100) is refused saying why; the totals are
    the per-query means; nothing of the kind appears unless asked for."""
    from nclue.core.measures import STANDARD_MEASURES, score_measures

    asked = ["P@10", "P.10", "P_10", "RR@10", "recip_rank", "AP@10", "map_cut.10", "R@10", "recall.10", "nDCG@10"]
    assert [m.name for m in score_measures(asked)] == ["graded_ndcg_at_10"] + [m.name for m in STANDARD_MEASURES]
    assert [m.label for m in STANDARD_MEASURES] == ["P@10", "RR@10", "AP@10", "R@10"]
    result = score([_rankings("bm25_and")], REPO, against=[], measures=["P@10"], per_query=True)
    run = result["runs"][0]
    values = [row["value"] for row in run["per_query"]]
    assert run["measures"]["precision_at_10"]["value"] == pytest.approx(sum(values) / len(values), abs=1e-12)
    default = score([_rankings("bm25_and")], REPO, against=[])["runs"][0]["measures"]
    assert "precision_at_10" not in default
    code, out, err = _cli("score", _rankings("bm25_and"), "--data", REPO, "-m", "R@100")
    assert code == 2 and "cut at depth 10" in err and "R@10" in err and "Traceback" not in err
