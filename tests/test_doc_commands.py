"""Every command line the README and docs/ show is run, and what the text says it does is checked (issue 27).

A command line is a line of a fenced code block, or an inline code span of two or more words, that
starts with ``python``, ``nclue``, ``trec_eval`` or ``sha256sum``.  Each is one of:

* run: executed as written (``nclue`` is ``python -m nclue``; ``/tmp/...`` and the run files it names
  are made in the test's folder) and its documented effect checked;
* synopsis: it holds a placeholder (``RUN``, ``OUT``, ``FILE``, ``DIR``, ``ID``, ``COMMAND``) or a
  ``[...]`` option list: the command's ``--help`` must list every option the synopsis names;
* name: a command named in prose (``nclue freeze``): it must be a command of ``nclue --help``;
* slow: it takes minutes (the full build, ``--deep``, the scaling benchmark): run only with
  ``NCLUE_SLOW_DOCS=1``, otherwise skipped with the reason printed.

``COMMANDS`` below must list exactly the command lines the documents hold: a new one in the docs
without an entry here fails, and so does an entry the docs no longer show.
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from conftest import REPO, released

DOCUMENTS = ["README.md"] + sorted(os.path.relpath(p, REPO) for p in glob.glob(os.path.join(REPO, "docs", "*.md")))
PREFIXES = ("python ", "nclue ", "trec_eval ", "sha256sum ")
PLACEHOLDER = re.compile(r"\b(RUN|OUT|FILE|DIR|ID|COMMAND|LEVEL)\b|\[|<")
SLOW = os.environ.get("NCLUE_SLOW_DOCS") == "1"


def documented_commands():
    """``{command: [document, ...]}`` of every command line in README.md and docs/*.md (module doc)."""
    found = {}
    for doc in DOCUMENTS:
        text = open(os.path.join(REPO, doc), encoding="utf-8").read()
        for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, re.S | re.M):
            for line in block.splitlines():
                command = line.split("  #")[0].strip()
                if command.startswith(PREFIXES):
                    found.setdefault(command, []).append(doc)
        prose = re.sub(r"^```[a-z]*\n(.*?)^```", "", text, flags=re.S | re.M)
        for span in re.findall(r"`([^`\n]+)`", prose):
            if span.startswith(PREFIXES) and len(span.split()) >= 2 and not re.match(r"nclue \d", span):
                found.setdefault(span, []).append(doc)
    return found


def _nclue(*args, cwd=None, env=None, timeout=900):
    full = dict(os.environ, **(env or {}))
    proc = subprocess.run([sys.executable, "-m", "nclue"] + list(args), capture_output=True, text=True, cwd=cwd,
                          env=full, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def _trec_run(path, system, skip_every=0, tag=None):
    """A TREC run made from a shipped ranking (``skip_every`` > 0 leaves out every k-th query)."""
    rows = [json.loads(line) for line in open(os.path.join(REPO, "data", "v1", "rankings", system + ".jsonl"))]
    with open(path, "w", encoding="utf-8") as out:
        for k, row in enumerate(rows):
            if skip_every and k % skip_every == 0:
                continue
            for rank, (doc, score) in enumerate(zip(row["docids"], row["scores"]), 1):
                out.write("%s Q0 %s %d %r %s\n" % (row["qid"], doc, rank, score, tag or system))
    return path


def _read_trec_qrels(path):
    """``{qid: {docno: grade}}`` of a TREC qrels file."""
    qrels = {}
    for line in open(path, encoding="utf-8"):
        qid, _, doc, grade = line.split()
        qrels.setdefault(qid, {})[doc] = int(grade)
    return qrels


def _read_trec_run(path):
    """``{qid: {docno: score}}`` of a TREC run (pytrec_eval's run dict)."""
    run = {}
    for line in open(path, encoding="utf-8"):
        qid, _, doc, rank, score, _ = line.split()
        run.setdefault(qid, {})[doc] = float(score)
    return run


# ----------------------------------------------------------------------------------------------- checks

def check_reproduce(ctx):
    """`python reproduce.py`: exit 0, the instrument named on the first line, RESULT: OK last."""
    code, out = ctx["repo_run"]["code"], ctx["repo_run"]["stdout"]
    assert code == 0, out[-2000:]
    lines = out.splitlines()
    assert lines[0].startswith("nclue ") and " checking: " in lines[0] and "SYNTHETIC" in lines[0]
    assert lines[-1].startswith("RESULT: OK") and any(line.strip().startswith("COUNTS: ") for line in lines)
    # the COUNTS line docs/usage.md#how-the-counts-add-up shows is the one this release prints
    shown = [line for line in open(os.path.join(REPO, "docs", "usage.md"), encoding="utf-8").read().splitlines()
             if line.startswith("COUNTS: ")]
    assert shown == [line.strip() for line in lines if line.strip().startswith("COUNTS: ")][:1], shown
    # every output line the README and docs/usage.md quote is this release's (issue 57: stale figures)
    readme = " ".join(open(os.path.join(REPO, "README.md"), encoding="utf-8").read().split())
    quote = re.search(r'On the synthetic stand-in it reads "([^"]+)"', readme).group(1)
    headline = next(line for line in lines if "published results verified against data:" in line)
    assert quote in headline, (quote, headline)
    usage = " ".join(open(os.path.join(REPO, "docs", "usage.md"), encoding="utf-8").read().split())
    quote = re.search(r'A skip list line such as "(blocked configurations: \d+ checks)"', usage).group(1)
    assert any(line.strip() == "SKIP " + quote or line.strip().startswith("SKIP " + quote + " ") for line in lines), \
        quote


def check_module_reproduce(ctx):
    """`python -m nclue reproduce` is the same command: the same summary as reproduce.py."""
    code, out, _ = _nclue("reproduce", cwd=REPO)
    assert code == 0
    strip = re.compile(r"^root: .*$", re.M)
    assert strip.sub("", out) == strip.sub("", ctx["repo_run"]["stdout"])


def check_test_command(ctx):
    """The README's test command is the one running now: `.ci/run` runs it verbatim, and the files it
    installs from exist and name the reference libraries the README lists."""
    ci = open(os.path.join(REPO, ".ci", "run"), encoding="utf-8").read()
    assert "\npython -m pip install -r requirements-dev.txt -e . && python -m pytest -q -rs\n" in ci
    assert "\npython -m pytest -q -rs -m slow\n" in ci          # and the slow tests: CI runs every test
    dev = open(os.path.join(REPO, "requirements-dev.txt"), encoding="utf-8").read()
    for name in ("pytest", "pytest-xdist", "pytrec-eval-terrier", "rank-bm25", "scipy", "statsmodels", "scikit-learn", "repro-eval"):
        assert name in dev or name in open(os.path.join(REPO, "pyproject.toml"), encoding="utf-8").read(), name


def check_slow_tests(ctx):
    """`python -m pytest -q -rs -m slow` runs the tests the README's command leaves out: `.ci/run` runs it after
    that command, and the two selections are disjoint and together every test (collected, not run)."""
    ci = open(os.path.join(REPO, ".ci", "run"), encoding="utf-8").read()
    assert ci.index("python -m pytest -q -rs\n") < ci.index("\npython -m pytest -q -rs -m slow\n")

    def collected(*marks):
        proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                               "-n", "0"] + list(marks), cwd=REPO, capture_output=True, text=True, timeout=600)
        return {line for line in proc.stdout.splitlines() if "::" in line}
    quick, slow, every = collected(), collected("-m", "slow"), collected("-m", "")
    assert len(slow) > 100 and len(quick) > 300 and not quick & slow and quick | slow == every


def check_bench_tests(ctx):
    """`python bench/bench_tests.py` writes the slow list from pytest's durations (here from a small log, into
    a temporary file: the real run times the whole suite)."""
    log = ctx["tmp"] / "log.txt"
    log.write_text("1.20s call     tests/test_a.py::test_x@full_runs\n0.90s setup    tests/test_a.py::test_y\n"
                   "0.30s call     tests/test_a.py::test_y\n2 passed in 3.50s\n", encoding="utf-8")
    out = ctx["tmp"] / "durations.json"
    proc = subprocess.run([sys.executable, os.path.join(REPO, "bench", "bench_tests.py"), "--from-log", str(log),
                           "--out", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(out.read_text(encoding="utf-8"))
    assert got["slow"] == {"tests/test_a.py::test_x": 1.2} and got["fast_call_s"] == 0.3 and got["suite_wall_s"] == 3.5
    for bad, message in ((ctx["tmp"] / "absent.txt", "No such file"), (out, "no --durations lines in the log")):
        proc = subprocess.run([sys.executable, os.path.join(REPO, "bench", "bench_tests.py"), "--from-log", str(bad),
                               "--out", str(ctx["tmp"] / "unused.json")], capture_output=True, text=True)
        assert proc.returncode == 1 and message in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def check_pip_install(ctx):
    """`python -m pip install .` installs an importable package (here into a folder, not over the
    editable install the tests run from)."""
    target = str(ctx["tmp"] / "site")
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", target, "."], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    probe = subprocess.run([sys.executable, "-c", "import nclue, nclue.cli; print(nclue.__file__)"], cwd=str(ctx["tmp"]),
                           capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=target))
    assert probe.stdout.strip() == os.path.join(target, "nclue", "__init__.py"), probe.stderr
    assert os.path.isfile(os.path.join(target, "nclue", "reports", "html_page.py"))


def check_help(ctx):
    """`nclue --help`: exit 0 and every command with its one-line purpose."""
    from nclue.cli import COMMAND_HELP, COMMANDS

    code, out, _ = _nclue("--help")
    assert code == 0
    for name in COMMANDS:
        assert re.search(r"^  %s\s+%s" % (re.escape(name), re.escape(COMMAND_HELP[name][:30])), out, re.M), name


def check_sha256sum(ctx):
    """`sha256sum -c SHA256SUMS` passes in the checkout."""
    tool = shutil.which("sha256sum")
    if tool is None:
        pytest.skip("no sha256sum on this machine")
    proc = subprocess.run([tool, "-c", "SHA256SUMS"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.count(": OK") == len(proc.stdout.splitlines()) > 100


def check_realpage_survey(ctx):
    """`python tools/realpage_survey.py DEB_FOLDER --stand-in . > survey.json` (docs/realpage.md): on a folder
    without the doc-rfc packages it names the first missing one, with how to fetch it, and
    exits 2 without a traceback.  The survey itself needs the 476 MB of packages; tests/test_realpage_survey.py
    works its parts by hand."""
    proc = subprocess.run([sys.executable, os.path.join(REPO, "tools", "realpage_survey.py"), str(ctx["tmp"]),
                           "--stand-in", "."], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert "doc-rfc-experimental_20230121-1_all.deb: missing (package doc-rfc-experimental=20230121-1" \
        in proc.stderr, proc.stderr


def check_fit_realpage(ctx):
    """`python tools/fit_realpage.py DEB_FOLDER` (docs/realpage.md#reproducing-these-figures): on a folder without
    the doc-rfc packages it names the first missing one and exits 2 without a traceback (the fit itself needs
    the packages; tests/test_realpage.py works the draws and the tilts by hand)."""
    proc = subprocess.run([sys.executable, os.path.join(REPO, "tools", "fit_realpage.py"), str(ctx["tmp"])],
                          cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert "doc-rfc-experimental_20230121-1_all.deb: missing (package doc-rfc-experimental=20230121-1" \
        in proc.stderr, proc.stderr


def check_neural_page_cache(ctx):
    """`python -m nclue.builder.neural.page_cache OUT/pages_v3.jsonl [THREADS]` (docs/realpage.md#neural): a
    missing pages file, a bad thread count and (without the neural extra) the missing extra each exit 2 with one
    line naming what is wrong, no traceback."""
    import importlib.util

    def run(*args):
        proc = subprocess.run([sys.executable, "-m", "nclue.builder.neural.page_cache"] + list(args), cwd=REPO,
                              capture_output=True, text=True)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stdout == "", proc.stderr
        return proc.stderr
    assert "no such pages file" in run(str(ctx["tmp"] / "absent.jsonl"))
    pages = ctx["tmp"] / "pages_v3.jsonl"
    pages.write_text('{"docid": "rfc1", "page": 1, "text": "x", "synthetic": false}\n', encoding="utf-8")
    assert "THREADS: expected a whole number from 1 to 64, found 'many'" in run(str(pages), "many")
    if importlib.util.find_spec("torch") is None:
        assert "needs the neural extra: pip install '.[neural]'" in run(str(pages), "1")


def check_neural_runs(ctx):
    """`python -m nclue.builder.neural.runs OUT --packages DIR [--data ROOT] [--threads N]`
    (docs/realpage.md#neural): an output inside the release, a root without RealPage, a missing page-text file, a
    bad thread count and (without the neural extra) the missing extra each exit 2 with one line naming what is
    wrong, no traceback, nothing written."""
    import importlib.util

    def run(*args):
        proc = subprocess.run([sys.executable, "-m", "nclue.builder.neural.runs"] + list(args), cwd=REPO,
                              capture_output=True, text=True)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stdout == "", proc.stderr
        return proc.stderr
    pages = ctx["tmp"] / "pages_v3.jsonl"
    pages.write_text("", encoding="utf-8")
    assert "refusing to write the runs into the release" in run(os.path.join(REPO, "data", "v3", "x"), "--pages",
                                                                str(pages))
    assert not os.path.exists(os.path.join(REPO, "data", "v3", "x"))
    assert "no RealPage release" in run(str(ctx["tmp"] / "out"), "--data", str(ctx["tmp"]), "--pages", str(pages))
    assert "no page text file" in run(str(ctx["tmp"] / "out"), "--pages", str(ctx["tmp"] / "none.jsonl"))
    assert "one of the arguments --pages --packages is required" in run(str(ctx["tmp"] / "out"))
    assert "not allowed with argument" in run(str(ctx["tmp"] / "out"), "--pages", str(pages), "--packages", "x")
    assert "--threads: expected a whole number" in run(str(ctx["tmp"] / "out"), "--threads", "x", "--pages",
                                                       str(pages))
    if importlib.util.find_spec("torch") is None:
        assert "needs the neural extra" in run(str(ctx["tmp"] / "out"), "--data", REPO, "--pages", str(pages))
        assert not (ctx["tmp"] / "out").exists()


def check_neural_compare(ctx):
    """`python -m nclue.builder.neural.compare RELEASED REBUILT` (docs/realpage.md#neural): the released dense runs
    against themselves are within the tolerance (exit 0, 29 files); against a folder without them, exit 2 naming
    the missing file."""
    def run(*args):
        proc = subprocess.run([sys.executable, "-m", "nclue.builder.neural.compare"] + list(args), cwd=REPO,
                              capture_output=True, text=True)
        assert "Traceback" not in proc.stderr, proc.stderr
        return proc
    v3 = os.path.join(REPO, "data", "v3")
    same = run(v3, v3)
    assert same.returncode == 0 and "29 of 29 dense files within the tolerance" in same.stdout, same.stdout
    missing = run(v3, str(ctx["tmp"]))
    assert missing.returncode == 2 and "mini_" in missing.stderr, missing.stderr


def check_build_neural_runs(ctx):
    """`nclue build --target realpage --packages DIR --neural-runs OUT` (docs/realpage.md#neural): a runs folder
    that is not one is refused before anything is built (exit 2, one line), and --neural-runs without --target
    realpage is refused; the shipping itself is tests/test_neural_release.py's and the slow rebuild's."""
    code, _, err = _nclue("build", "--target", "realpage", "--packages", str(ctx["tmp"]), "--neural-runs",
                          str(ctx["tmp"] / "none"), "--out", str(ctx["tmp"] / "out"), "--no-freeze")
    assert code == 2 and "--neural-runs %s: not a folder" % (ctx["tmp"] / "none") in err and "Traceback" not in err
    code, _, err = _nclue("build", "--neural-runs", str(ctx["tmp"]), "--out", str(ctx["tmp"] / "out"))
    assert code == 2 and "--neural-runs go with --target realpage" in err


def check_export_pages(ctx):
    """`nclue export-pages /tmp/pages` writes /tmp/pages/pages.jsonl with docid, page, text, synthetic (run on
    the mini release through NCLUE_DATA so that it takes seconds; the command line is unchanged)."""
    out = str(ctx["tmp"] / "pages")
    code, stdout, err = _nclue("export-pages", out, env={"NCLUE_DATA": ctx["mini_all"]})
    assert code == 0, err
    path = os.path.join(out, "pages.jsonl")
    assert stdout.strip() == "wrote %s" % path
    first = json.loads(open(path, encoding="utf-8").readline())
    assert sorted(first) == ["docid", "page", "synthetic", "text"] and first["synthetic"] is True


def check_realpage_topics(ctx):
    """`nclue export-qrels /tmp/realpage-topics --release v3 --form clean_v2`: RealPage's final copy as TREC qrels
    and its evaluation queries (the genealogy's final count) in the clean form."""
    out = str(ctx["tmp"] / "realpage-topics")
    code, stdout, err = _nclue("export-qrels", out, "--release", "v3", "--form", "clean_v2")
    assert code == 0, err
    topics = [json.loads(line) for line in open(os.path.join(out, "topics.jsonl"), encoding="utf-8")]
    genealogy = json.load(open(os.path.join(REPO, "data", "v3", "genealogy.json"), encoding="utf-8"))
    assert len(topics) == genealogy["copies"][-1]["queries"] and all(t["qid"].startswith("realpage_") for t in topics)
    assert all(t["text"].count('"') == 2 * t["n"] for t in topics)          # the clean form: each label quoted
    graded = _read_trec_qrels(os.path.join(out, "qrels.graded.trec"))
    assert sorted(graded) == sorted(t["qid"] for t in topics)


def _documented_block(doc, first_line):
    """The fenced code block of ``doc`` whose first line is ``first_line`` (the worked example run as shown)."""
    text = open(os.path.join(REPO, doc), encoding="utf-8").read()
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, re.S | re.M):
        if block.startswith(first_line):
            return block
    raise AssertionError("%s shows no code block starting %r" % (doc, first_line))


def check_realpage_retriever(ctx):
    """docs/usage.md#score-your-retriever-on-realpage, run as shown: export RealPage's pages from the packages,
    its clean-form topics, run the documented rank-bm25 script (the code block itself), and score the run on
    v3 against two released systems; the figures the page states are the ones this run gives.  Needs the pinned
    packages and rank-bm25; without either it skips, naming what is missing."""
    from nclue.builder.realpage import packages

    try:
        import rank_bm25  # noqa: F401 -- the worked example's retriever
    except ImportError:
        pytest.skip("rank-bm25 is not installed (pip install rank-bm25): the worked example needs it")
    folder = packages.default_folder()
    missing = packages.missing(folder)
    if missing:
        pytest.skip("the RealPage packages are not in %s (missing %s; `nclue build --target realpage --fetch "
                    "--packages DIR` fetches them)" % (folder, ", ".join(missing)))
    tmp = ctx["tmp"]
    code, _, err = _nclue("export-pages", str(tmp / "realpage"), "--release", "v3", "--packages", folder)
    assert code == 0 and "export-pages: 2021 of 2021 documents checked and written" in err, err
    code, _, err = _nclue("export-qrels", str(tmp / "realpage-topics"), "--release", "v3", "--form", "clean_v2")
    assert code == 0, err
    script = tmp / "bm25_realpage.py"
    script.write_text(_documented_block("docs/usage.md", "# /tmp/bm25_realpage.py"), encoding="utf-8")
    with open(tmp / "bm25_realpage.trec", "w", encoding="utf-8") as run:
        proc = subprocess.run([sys.executable, str(script), str(tmp / "realpage" / "pages_v3.jsonl"),
                               str(tmp / "realpage-topics" / "topics.jsonl")], stdout=run, stderr=subprocess.PIPE,
                              text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    code, out, err = _nclue("score", str(tmp / "bm25_realpage.trec"), "--release", "v3", "--against",
                            "bm25_and,bm25_or", "--format", "json")
    assert code == 0, err
    run = json.loads(out)["runs"][0]
    score, hit = run["measures"]["nclue_score_at_10"], run["measures"]["gold_hit_at_10"]
    delta = {c["against"]: c["delta_score"] for c in run["comparisons"]}
    assert sorted(delta) == ["bm25_and", "bm25_or"] and run["ranked_queries"] == json.loads(out)["instrument"]["queries"]
    stated = "scores n-Clue Score@10 %.1f [%.1f, %.1f], Gold Hit@10 %.1f, %.1f\npoints below the released BM25-AND" % (
        score["value"], score["ci_low"], score["ci_high"], hit["value"], -delta["bm25_and"])
    text = open(os.path.join(REPO, "docs", "usage.md"), encoding="utf-8").read()
    assert stated in text, stated


def check_score_one(ctx):
    """`nclue score my_run.trec`: every measure with its unit and 95% interval, and the paired tests
    against the fair scorecard systems, with the TREC tag as the run's label."""
    from nclue.core.measures import SCORE_COMMAND_MEASURES

    _trec_run(str(ctx["tmp"] / "my_run.trec"), "bm25_and", tag="mine")
    code, out, err = _nclue("score", "my_run.trec", cwd=str(ctx["tmp"]))
    assert code == 0, err
    for m in SCORE_COMMAND_MEASURES:
        assert re.search(r"^  %s\s+[-\d.]+ %s\s+\[" % (re.escape(m.label), re.escape(m.unit)), out, re.M), m.name
    assert "run mine (file my_run.trec;" in out and "paired tests:" in out
    assert re.search(r"^  bm25_and\s+\+0\.00 ", out, re.M)               # the run is bm25_and itself


def check_score_two(ctx):
    """`nclue score a.trec b.trec --against ... --format markdown`: one Markdown table with the shared
    columns; each run against both references and the two runs against each other once."""
    from nclue.reports.score_tables import HEADER

    _trec_run(str(ctx["tmp"] / "a.trec"), "bm25_or", tag="a")
    _trec_run(str(ctx["tmp"] / "b.trec"), "page_bm25_max", tag="b")
    code, out, err = _nclue("score", "a.trec", "b.trec", "--against", "bm25_and,rrf_bm25and_pagetop3", "--format",
                            "markdown", cwd=str(ctx["tmp"]))
    assert code == 0, err
    lines = [line for line in out.splitlines() if line.startswith("|")]
    assert lines[0] == "| " + " | ".join(HEADER) + " |"
    against = [cells for cells in (line.strip("|").split("|") for line in lines[2:]) if "vs" in cells[1]]
    pairs = sorted((c[0].strip(), c[1].strip()) for c in against)
    assert len(pairs) == 5, pairs          # a vs 2 references + b, b vs 2 references: each pair once
    assert ("a", "Delta n-Clue Score@10 vs run:b") in pairs and not [p for p in pairs if p[1].endswith("run:a")]


def check_trec_eval_c(ctx):
    """`trec_eval -c -m ndcg_cut.10 OUT/qrels.graded.trec RUN` counts a query the run misses as 0, as
    `nclue score` does: trec_eval's measure (pytrec_eval) averaged over every qrels query equals
    nclue's graded NDCG@10, and without -c (over the ranked queries only) it does not."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    out = str(ctx["tmp"] / "qrels")
    code, _, err = _nclue("export-qrels", out, cwd=REPO)
    assert code == 0, err
    qrels = _read_trec_qrels(os.path.join(out, "qrels.graded.trec"))
    run_path = _trec_run(str(ctx["tmp"] / "partial.trec"), "bm25_and", skip_every=7)
    run = _read_trec_run(run_path)
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
    with_c = sum(v["ndcg_cut_10"] for v in per_query.values()) / len(qrels)
    without_c = sum(v["ndcg_cut_10"] for v in per_query.values()) / len(per_query)
    code, text, err = _nclue("score", run_path, "--format", "json", "--against", "none", cwd=REPO)
    assert code == 0, err
    ours = json.loads(text)["runs"][0]["measures"]["graded_ndcg_at_10"]["value"]
    assert abs(ours - with_c) < 1e-9 and abs(ours - without_c) > 1e-3


def check_own_qrels(ctx):
    """The three lines of docs/usage.md#your-own-qrels, run in order: `nclue export-qrels /tmp/q` writes the
    graded qrels; `nclue score run.trec --qrels-file ... -m ndcg_cut.10 --per-query` prints only graded
    NDCG@10 with one `measure qid value unit` row per query; those rows and the mean are trec_eval's `-c -q -m
    ndcg_cut.10` on the same file (pytrec_eval, queries the run misses as 0)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    out = str(ctx["tmp"] / "q")
    code, _, err = _nclue("export-qrels", out, cwd=REPO)
    assert code == 0, err
    qrels_file = os.path.join(out, "qrels.graded.trec")
    qrels = _read_trec_qrels(qrels_file)
    run_path = _trec_run(str(ctx["tmp"] / "run.trec"), "bm25_or", skip_every=9)
    run = _read_trec_run(run_path)
    reference = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
    code, text, err = _nclue("score", run_path, "--qrels-file", qrels_file, "-m", "ndcg_cut.10", "--per-query",
                             cwd=REPO)
    assert code == 0, err
    rows = {parts[1]: float(parts[2]) for parts in (line.split() for line in text.splitlines())
            if len(parts) == 4 and parts[0] == "graded_ndcg_at_10"}
    assert set(rows) == set(qrels)
    for qid, value in rows.items():
        assert abs(value - (reference[qid]["ndcg_cut_10"] if qid in reference else 0.0)) < 5e-5, qid
    total = re.search(r"^  graded NDCG@10\s+([\d.]+) NDCG \(0-1\)", text, re.M)
    assert total and abs(float(total.group(1)) - sum(v["ndcg_cut_10"] for v in reference.values()) / len(qrels)) < 5e-5
    assert "Gold-NDCG" not in text and "qrels file, sha256" in text


def _trec_copy(rel, path, swap_every=0, limit=100):
    """A TREC run made from a shipped ranking file ``rel``, ranks 1 and 6 swapped in every ``swap_every``-th
    query ranking six or more documents (up to ``limit`` of them)."""
    done = 0
    with open(path, "w", encoding="utf-8") as out:
        for k, line in enumerate(open(os.path.join(REPO, rel), encoding="utf-8")):
            row = json.loads(line)
            docs = list(row["docids"])
            if swap_every and len(docs) > 5 and k % swap_every == 0 and done < limit:
                docs[0], docs[5] = docs[5], docs[0]
                done += 1
            for rank, doc in enumerate(docs, 1):
                out.write("%s Q0 %s %d %d mine\n" % (row["qid"], doc, rank, 100 - rank))
    return path


def check_reproduce_run_system(ctx):
    """`nclue reproduce-run my_bm25_and.trec --role bm25_and`: a copy of the released clean-form ranking as a
    TREC run reproduces it exactly (tau 1, RMSE 0, no changed outcome) and Table 3's cells sit beside the
    released values, as skips on the stand-in."""
    _trec_copy(released("v1", "rankings/forms/bm25_and__clean_v2.jsonl"), str(ctx["tmp"] / "my_bm25_and.trec"))
    code, out, err = _nclue("reproduce-run", "my_bm25_and.trec", "--role", "bm25_and", "--data", REPO,
                            cwd=str(ctx["tmp"]))
    assert code == 0, err
    assert re.search(r"kendall_tau_union@10\s+1\.0000", out) and "rmse 0.0000" in out
    assert re.search(r"outcomes\s+bm25_and\s+changed\s+0 ", out)
    assert re.search(r"verdict\s+Table 3\s+3 cells\s+skip", out) and "SYNTHETIC" in out.splitlines()[0]


def check_reproduce_run_block(ctx):
    """`nclue reproduce-run base.trec variant.trec --role lexical_composition`: the raw-form pair; ER 1 and
    Delta RI 0 for the released pair itself, and Table 5's verdict line."""
    _trec_copy(released("v1", "rankings/bm25_and.jsonl"), str(ctx["tmp"] / "base.trec"))
    _trec_copy(released("v1", "rankings/bm25_dec_sdr.jsonl"), str(ctx["tmp"] / "variant.trec"))
    code, out, err = _nclue("reproduce-run", "base.trec", "variant.trec", "--role", "lexical_composition", "--data",
                            REPO, cwd=str(ctx["tmp"]))
    assert code == 0, err
    assert "block: bm25_and -> bm25_dec_sdr; raw queries" in out
    assert re.search(r"pair\s+bm25_and -> bm25_dec_sdr nclue_score_at_10 .* ER 1\.0000, Delta RI 0\.0000", out)
    assert re.search(r"verdict\s+Table 5\s+\d+ cells\s+skip", out)


def check_reproduce_run_sourceshift(ctx):
    """`nclue reproduce-run my_bm25_and_natural.trec --role bm25_and --release v2 --form natural`: SourceShift's
    natural-form ranking, checked against Table S3's natural cell only."""
    _trec_copy(released("v2", "rankings/forms/bm25_and__natural.jsonl"), str(ctx["tmp"] / "my_bm25_and_natural.trec"))
    code, out, err = _nclue("reproduce-run", "my_bm25_and_natural.trec", "--role", "bm25_and", "--release", "v2",
                            "--form", "natural", "--data", REPO, cwd=str(ctx["tmp"]))
    assert code == 0, err
    cells = re.findall(r"^  cell\s+Table S3\s+(\S+)", out, re.M)
    assert cells == ["S3.bm25_and.natural"] and released("v2") in out.splitlines()[0]


def check_reproduce_run_example(ctx):
    """The worked example of docs/usage.md#checking-a-re-run: ranks 1 and 6 swapped in 100 queries give tau
    union below 1, an RMSE above 0, changed outcomes in both directions, and Table 3's score cell published 26.8
    beside the released 33.6."""
    rows = [json.loads(line) for line in open(os.path.join(REPO, released("v1", "rankings/forms/bm25_and__clean_v2.jsonl")),
                                              encoding="utf-8")]
    done = 0
    with open(str(ctx["tmp"] / "swapped.jsonl"), "w", encoding="utf-8") as out:
        for k, row in enumerate(rows):
            docs = list(row["docids"])
            if len(docs) > 5 and k % 5 == 0 and done < 100:
                docs[0], docs[5] = docs[5], docs[0]
                done += 1
            out.write(json.dumps({"qid": row["qid"], "docids": docs, "scores": row["scores"]}) + "\n")
    assert done == 100
    code, out, err = _nclue("reproduce-run", "swapped.jsonl", "--role", "bm25_and", "--format", "markdown", "--data",
                            REPO, cwd=str(ctx["tmp"]))
    assert code == 0, err
    tau = re.search(r"^\| agreement \| bm25_and \| kendall_tau_union@10 \|  \| ([\d.]+) \|", out, re.M)
    assert tau and float(tau.group(1)) < 1
    rmse = re.search(r"^\| measure \| bm25_and \| nclue_score_at_10 \|.*rmse ([\d.]+)", out, re.M)
    assert rmse and float(rmse.group(1)) > 0
    assert "complete first -> subset first" in out and "subset first -> complete first" in out
    assert re.search(r"^\| cell \| Table 3 \| T3.bm25_and.score \| 33.60 \| [\d.]+ \| [-\d.]+ \| published 26.8 ", out,
                     re.M)


def check_mini_build(ctx):
    """`nclue build --config mini --out /tmp/mini`: a mini stand-in with its frozen claims and manifest,
    which reproduce verifies."""
    out = str(ctx["tmp"] / "mini")
    code, _, err = _nclue("build", "--config", "mini", "--out", out)
    assert code == 0, err
    manifest = json.load(open(os.path.join(out, "MANIFEST.json"), encoding="utf-8"))
    assert manifest["synthetic"] is True and manifest["generator"]["config"] == "mini"
    code, stdout, _ = _nclue("reproduce", "--data", out, "--quiet", "--only", "integrity,derivation")
    assert code == 0 and stdout.splitlines()[-1].startswith("RESULT: OK")


def check_full_build(ctx):
    """`nclue build`: the full stand-in, byte-identical to the shipped release (built into a copy)."""
    out = str(ctx["tmp"] / "full")
    code, _, err = _nclue("build", "--out", out, timeout=3600)
    assert code == 0, err
    for name in ("MANIFEST.json", "SHA256SUMS"):
        assert open(os.path.join(out, name), "rb").read() == open(os.path.join(REPO, name), "rb").read(), name


def check_deep(ctx):
    """`python reproduce.py --deep`: the rebuild level passes."""
    proc = subprocess.run([sys.executable, os.path.join(REPO, "reproduce.py"), "--deep", "--quiet"], capture_output=True,
                          text=True, timeout=3600)
    assert proc.returncode == 0 and proc.stdout.splitlines()[-1].startswith("RESULT: OK"), proc.stdout[-2000:]


def _bench(*args):
    """Run bench/bench_reproduce.py with ``args`` from the checkout; its completed process."""
    return subprocess.run([sys.executable, os.path.join(REPO, "bench", "bench_reproduce.py")] + list(args),
                          capture_output=True, text=True, timeout=7200, cwd=REPO)


def check_scaling(ctx):
    """`python bench/bench_reproduce.py --scaling` prints each level's growth exponent."""
    proc = _bench("--scaling")
    assert proc.returncode == 0 and "exponent" in proc.stdout, proc.stderr[-2000:]


def check_build_bench(ctx):
    """`python bench/bench_reproduce.py --build` prints the build's row with its peak RSS and where it grew, and
    RealPage's build row, or the line that names the packages it lacks."""
    proc = _bench("--build", "--repeat", "1")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert re.search(r"full build \+ freeze .* peak RSS \d+ MB", proc.stdout) and "where it grew" in proc.stdout
    assert re.search(r"RealPage build \(--release v3\) \+ freeze .* peak RSS \d+ MB", proc.stdout) or \
        "RealPage build: not timed, " in proc.stdout, proc.stdout


def check_draws_bench(ctx):
    """`python bench/bench_reproduce.py --draws` prints the Monte Carlo rehearsal's row at each multiplier."""
    proc = _bench("--draws", "--repeat", "1")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert all(re.search(r"--draws-multiplier %d +cpu .* x K=1" % k, proc.stdout) for k in (1, 2, 4)), proc.stdout


# trec_eval's command-line options (trec_eval 9.0.x, `trec_eval -h`), for the prose that names one
TREC_EVAL_OPTIONS = {"-q": "per-query values", "-c": "average over every query of the qrels (a missing one is 0)",
                     "-m": "a measure", "-l": "the lowest relevance level counted relevant", "-n": "no summary",
                     "-M": "the maximum retrieved per query", "-J": "judged documents only", "-R": "a rel_info format",
                     "-T": "a results format", "-Z": "a zscore file", "-h": "help", "-v": "version"}


def synopsis(command):
    """The check of a synopsis: its command exists and its ``--help`` lists every option it names."""
    def check(ctx):
        words = command.split()
        if words[0] == "trec_eval":
            assert [w for w in words[1:] if w.startswith("-") and w not in TREC_EVAL_OPTIONS] == [], command
            return
        if words[0] == "python" and words[1:3] == ["-m", "nclue"]:
            words = ["nclue"] + words[3:]
        if words[0] == "python":
            args = [words[1], "--help"]
            proc = subprocess.run([sys.executable] + args, cwd=REPO, capture_output=True, text=True, timeout=300)
            code, out = proc.returncode, proc.stdout
        else:
            sub = [w for w in words[1:2] if not PLACEHOLDER.search(w)]
            code, out, _ = _nclue(*(sub + ["--help"]))
        assert code == 0, command
        for option in re.findall(r"(--[a-z][a-z0-9-]*)", command):
            assert option in out, (command, option)
    return check


def name(command):
    """The check of a command named in prose: it is a command (or the documented script)."""
    def check(ctx):
        from nclue.cli import COMMANDS

        words = command.split()
        if words[0] == "nclue":
            assert words[1] in COMMANDS, command
        elif words[0] == "trec_eval":           # not installed here: its options as trec_eval 9.0 documents them
            assert words[1] in TREC_EVAL_OPTIONS, command
        elif words[0] == "sha256sum":           # coreutils: the option is in the tool's own help
            helped = subprocess.run(["sha256sum", "--help"], capture_output=True, text=True).stdout
            assert re.search(r"^\s*%s[, ]" % re.escape(words[1]), helped, re.M), command
        else:
            assert os.path.isfile(os.path.join(REPO, words[1])), command
    return check


COMMANDS = {
    "python reproduce.py": ("run", check_reproduce),
    "python -m pip install -r requirements-dev.txt -e . && python -m pytest -q -rs": ("run", check_test_command),
    "nclue build": ("slow", check_full_build),
    "nclue build --config mini --out /tmp/mini": ("run", check_mini_build),
    "python reproduce.py --deep": ("slow", check_deep),
    "sha256sum -c SHA256SUMS": ("run", check_sha256sum),
    "python -m nclue reproduce": ("run", check_module_reproduce),
    "python tools/realpage_survey.py DEB_FOLDER --stand-in . > survey.json": ("run", check_realpage_survey),
    "python tools/fit_realpage.py DEB_FOLDER": ("run", check_fit_realpage),
    "nclue score RUN [RUN...] [--against ID[,ID]] [--format text|json|tsv|markdown|latex] [--per-query]":
        ("synopsis", None),
    "nclue export-qrels OUT": ("synopsis", None),
    "nclue export-pages OUT": ("synopsis", None),
    "nclue export-pages --release v3 --packages DIR OUT": ("synopsis", None),
    "python -m nclue.builder.neural.page_cache OUT/pages_v3.jsonl [THREADS]": ("run", check_neural_page_cache),
    "python -m nclue.builder.neural.runs OUT --packages DIR [--data ROOT] [--threads N]": ("run", check_neural_runs),
    "python -m nclue.builder.neural.compare RELEASED REBUILT": ("run", check_neural_compare),
    "nclue build --target realpage --packages DIR --neural-runs OUT": ("run", check_build_neural_runs),
    "python -m pip install .": ("run", check_pip_install),
    "python -m pytest -q -rs -m slow": ("run", check_slow_tests),
    "python bench/bench_tests.py": ("run", check_bench_tests),
    "trec_eval -l 2": ("name", None),
    "python bench/bench_reproduce.py --scaling": ("slow", check_scaling),
    "python bench/bench_reproduce.py --build": ("slow", check_build_bench),
    "python bench/bench_reproduce.py --draws": ("slow", check_draws_bench),
    "nclue build --config full_x2 --out DIR": ("synopsis", None),
    "nclue build --target realpage --fetch --packages DIR": ("synopsis", None),
    "nclue build --target realpage --packages DIR": ("synopsis", None),
    "nclue compare RUN RUN": ("synopsis", None),
    "nclue compare RUN RUN [--format markdown] [-m ID[,ID]]": ("synopsis", None),
    "nclue export-pages /tmp/realpage --release v3 --packages DIR": ("synopsis", None),
    "nclue export-qrels /tmp/realpage-topics --release v3 --form clean_v2": ("run", check_realpage_topics),
    "python /tmp/bm25_realpage.py /tmp/realpage/pages_v3.jsonl /tmp/realpage-topics/topics.jsonl > "
    "/tmp/bm25_realpage.trec": ("run", check_realpage_retriever),
    "nclue score /tmp/bm25_realpage.trec --release v3 --against bm25_and,bm25_or": ("run", check_realpage_retriever),
    "nclue reproduce-run RUN --role ROLE --release v3": ("synopsis", None),
    "nclue score --release v3 --against ID[,ID]": ("synopsis", None),
    "nclue --help": ("run", check_help),
    "nclue export-pages /tmp/pages": ("run", check_export_pages),
    "nclue score my_run.trec": ("run", check_score_one),
    "nclue score a.trec b.trec --against bm25_and,rrf_bm25and_pagetop3 --format markdown": ("run", check_score_two),
    "nclue score RUN": ("synopsis", None),
    "python -m nclue COMMAND": ("synopsis", None),
    "python reproduce.py --html FILE": ("synopsis", None),
    "nclue score --html FILE": ("synopsis", None),
    "nclue export-qrels OUT [--release v1|v2|v3] [--qrels ...] [--form raw|clean_v2|natural]": ("synopsis", None),
    "trec_eval -c -m ndcg_cut.10 OUT/qrels.graded.trec RUN": ("run", check_trec_eval_c),
    "nclue freeze": ("name", None),
    "nclue export-qrels /tmp/q": ("run", check_own_qrels),
    "nclue score run.trec --qrels-file /tmp/q/qrels.graded.trec -m ndcg_cut.10 --per-query": ("run", check_own_qrels),
    "trec_eval -c -q -m ndcg_cut.10 /tmp/q/qrels.graded.trec run.trec": ("run", check_own_qrels),
    "nclue reproduce-run RUN --role ROLE": ("synopsis", None),
    "nclue reproduce-run": ("name", None),
    "nclue reproduce-run my_bm25_and.trec --role bm25_and": ("run", check_reproduce_run_system),
    "nclue reproduce-run base.trec variant.trec --role lexical_composition": ("run", check_reproduce_run_block),
    "nclue reproduce-run my_bm25_and_natural.trec --role bm25_and --release v2 --form natural":
        ("run", check_reproduce_run_sourceshift),
    "nclue reproduce-run swapped.jsonl --role bm25_and --format markdown": ("run", check_reproduce_run_example),
    "nclue score": ("name", None),
    "nclue score -m": ("synopsis", None),
    "nclue reproduce": ("name", None),
    "nclue COMMAND": ("synopsis", None),
    "sha256sum -c": ("name", None),
    "trec_eval -q": ("name", None),
    "trec_eval -c": ("name", None),
}


def test_every_documented_command_line_has_a_check_and_every_check_a_documented_line():
    documented = documented_commands()
    assert sorted(set(documented) - set(COMMANDS)) == [], "document these in COMMANDS with a check"
    assert sorted(set(COMMANDS) - set(documented)) == [], "no document shows these any more"


@pytest.fixture
def ctx(request, tmp_path):
    out = {"tmp": tmp_path}
    kind = COMMANDS[request.node.callspec.params["command"]][0]
    command = request.node.callspec.params["command"]
    if command in READS_REPO_RUN:
        out["repo_run"] = request.getfixturevalue("repo_run")
    if command == "nclue export-pages /tmp/pages":
        out["mini_all"] = request.getfixturevalue("mini_all")
    if kind == "slow" and not SLOW:
        print("SKIP REASON: %r takes minutes; set NCLUE_SLOW_DOCS=1 to run it" % command)
        pytest.skip("%r takes minutes; set NCLUE_SLOW_DOCS=1 to run it" % command)
    return out


# the commands whose check reads the shared full run (the ``ctx`` fixture asks for it by name, which the conftest
# hook cannot see): they join its worker group, so that the run is made once per suite
READS_REPO_RUN = ("python reproduce.py", "python -m nclue reproduce")


@pytest.mark.parametrize("command", [pytest.param(command, marks=[pytest.mark.xdist_group("full_runs"), pytest.mark.slow])
                                     if command in READS_REPO_RUN else command for command in sorted(COMMANDS)])
def test_a_documented_command_does_what_the_docs_say(command, ctx):
    kind, check = COMMANDS[command]
    if kind == "synopsis":
        check = synopsis(command)
    elif kind == "name":
        check = name(command)
    check(ctx)


def test_every_command_and_option_has_help_and_every_command_an_epilog():
    from nclue.cli import COMMANDS as CLI_COMMANDS
    from nclue.cli import PARSERS

    assert sorted(PARSERS) == sorted(CLI_COMMANDS)
    for command, make in PARSERS.items():
        parser = make("nclue " + command)
        assert parser.description and parser.epilog and "exit codes:" in parser.epilog, command
        for action in parser._actions:
            if action.dest == "help":
                continue
            assert action.help and len(action.help) > 10, (command, action.option_strings or action.dest)


def test_build_without_out_needs_a_clone(monkeypatch, tmp_path, capsys):
    """`build --help` says --out defaults to the clone; an installed package (no clone above it) must be told
    where to write instead of writing into site-packages or the current folder."""
    from nclue import cli
    from nclue.run import locate

    assert locate.checkout() == REPO
    from nclue.commands.outputs import Output

    monkeypatch.setattr(locate, "CHECKOUT", str(tmp_path))
    monkeypatch.setattr(cli, "STDERR", Output(sys.stderr))      # the stream capsys captures
    monkeypatch.chdir(tmp_path)
    assert cli.main(["build", "--config", "mini"], prog="nclue") == 2
    assert "pass --out DIR" in capsys.readouterr().err and os.listdir(str(tmp_path)) == []
