"""``nclue compare`` (docs/usage.md#comparing-runs): the runs' means and every pair's paired test are score's own
numbers, arranged; the letters follow the Holm-adjusted p; every format carries both tables; bad usage exits 2."""

import json
import os
import subprocess
import sys

import pytest
from conftest import REPO, released

from nclue.commands.compare_runs import ALPHA, compare
from nclue.commands.score import score
from nclue.core.errors import UsageError
from nclue.reports.compare_tables import render

RUNS = [os.path.join(REPO, "data", "v1", "rankings", name + ".jsonl")
        for name in ("bm25_and", "bm25_or", "rrf_bm25and_pagetop3")]


@pytest.fixture(scope="module")
def both():
    return compare(RUNS, REPO), score(RUNS, REPO, against=[])


def test_the_means_and_pairs_are_scores_own(both):
    cmp, result = both
    assert [r["run"] for r in cmp["runs"]] == [r["run"] for r in result["runs"]] and cmp["tested"] == \
        "nclue_score_at_10"
    for row, run in zip(cmp["runs"], result["runs"]):
        assert row["values"] == run["measures"]
    assert [(p["a"][-20:], p["b"][-20:]) for p in cmp["pairs"]] == [
        (RUNS[0][-20:], RUNS[1][-20:]), (RUNS[0][-20:], RUNS[2][-20:]), (RUNS[1][-20:], RUNS[2][-20:])]
    means = {r["run"]: r["values"]["nclue_score_at_10"]["value"] for r in cmp["runs"]}
    for pair in cmp["pairs"]:                      # a difference of means, in points (n-Clue Score over 1,000)
        assert abs(pair["delta"] - (means[pair["a"]] - means[pair["b"]])) < 1e-9
        assert pair["ci_low"] <= pair["delta"] <= pair["ci_high"] and pair["p"] <= pair["p_holm"] <= 1


def test_a_run_carries_the_letters_of_the_runs_it_beats_by_the_holm_p(both):
    cmp, _ = both
    letter = {r["run"]: r["letter"] for r in cmp["runs"]}
    expected = {r["run"]: [] for r in cmp["runs"]}
    for p in cmp["pairs"]:
        if p["p_holm"] < ALPHA:
            winner, loser = (p["a"], p["b"]) if p["delta"] > 0 else (p["b"], p["a"])
            expected[winner].append(letter[loser])
    assert {r["run"]: r["beats"] for r in cmp["runs"]} == {k: sorted(v) for k, v in expected.items()}
    assert any(r["beats"] for r in cmp["runs"])      # the fusion run beats BM25-OR on the stand-in
    text = render(cmp, "text")
    for row in cmp["runs"]:
        if row["beats"]:
            assert ">" + "".join(row["beats"]) in text


def test_every_format_has_both_tables(both):
    cmp, _ = both
    markdown = render(cmp, "markdown")
    assert markdown.startswith(("nclue score: " + released("v1")))
    assert sum(1 for line in markdown.splitlines() if line.startswith("|---|")) == 2
    assert markdown.count("\n| a - b |") == 1 and "| c | " in markdown
    latex = render(cmp, "latex")
    assert latex.count("\\begin{tabular}") == 2 and "Delta n-Clue Score@10 (points)" in latex
    assert json.loads(render(cmp, "json"))["pairs"][0]["p_holm"] == cmp["pairs"][0]["p_holm"]
    with pytest.raises(UsageError, match="unknown format 'tsv'"):
        render(cmp, "tsv")


def test_one_run_or_too_many_is_bad_usage():
    with pytest.raises(UsageError, match="compare needs two or more runs"):
        compare(RUNS[:1], REPO)
    with pytest.raises(UsageError, match="compare takes at most 26 runs, got 27"):
        compare(RUNS[:1] * 27, REPO)
    proc = subprocess.run([sys.executable, "-m", "nclue", "compare", RUNS[0], "--data", REPO],
                          capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 2 and "compare needs two or more runs" in proc.stderr
    assert "Traceback" not in proc.stderr
