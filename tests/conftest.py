import functools
import json
import os
import shutil
import subprocess
import sys

import pytest

from nclue.core import layout

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# the released folders a test names, as nclue/core/layout.py declares them: each release by its name, the label
# audit's folder, the frozen claims' folder and the data folder (for the crosswalk)
RELEASED_FOLDERS = dict({release.name: release.base for release in layout.RELEASES.values()}, audit=layout.AUDIT,
                        claims=layout.CLAIMS_DIR, data=layout.DATA_DIR)


def released(folder, name=None):
    """The one way a test names a released path (docs/architecture.md: only core/layout.py spells one): the
    folder layout declares for ``folder`` (``v1``, ``v2``, ``v3``, ``audit``, ``claims`` or ``data``) and,
    with ``name``, a file in it that layout declares (a ``%s`` or ``%d`` stands for any part a pattern
    allows), so that a file renamed in layout fails here by name instead of a test reading a stale path.

    >>> released("v1", "qrels.jsonl"), released("audit")
    ('data/v1/qrels.jsonl', 'data/audit')
    """
    rel = RELEASED_FOLDERS[folder] if name is None else RELEASED_FOLDERS[folder] + "/" + name
    if name is not None and layout.kind_of(rel.replace("%s", "x").replace("%d", "1")) is None:
        raise AssertionError("nclue/core/layout.py declares no released file %s" % rel)
    return rel
# a harness defect (an exception that is not an NclueError) raises in tests instead of becoming a fail
os.environ["NCLUE_RAISE_DEFECTS"] = "1"


@pytest.fixture(scope="session")
def mini_root(tmp_path_factory):
    """A freshly built mini stand-in (data + frozen claims + manifest)."""
    from nclue.builder.config import CONFIGS
    from nclue.builder.crosspage import write_instrument
    from nclue.run.freeze import freeze

    root = str(tmp_path_factory.mktemp("mini"))
    write_instrument(root, CONFIGS["mini"], 11, log=lambda *a: None)
    freeze(root, log=lambda *a: None)
    return root


@pytest.fixture(scope="session")
def mini_all(tmp_path_factory):
    """A mini stand-in with v1, v2 and the simulated audit, frozen."""
    from nclue.builder.build import write_all
    from nclue.builder.config import CONFIGS
    from nclue.run.freeze import freeze

    root = str(tmp_path_factory.mktemp("mini_all"))
    write_all(root, CONFIGS["mini"], 11, log=lambda *a: None)
    freeze(root, log=lambda *a: None)
    return root


@pytest.fixture
def mini_all_copy(mini_all, tmp_path):
    dst = str(tmp_path / "inst")
    shutil.copytree(mini_all, dst)
    return dst


@pytest.fixture
def mini_copy(mini_root, tmp_path):
    """A private copy of the mini instrument that a test may damage."""
    dst = str(tmp_path / "inst")
    shutil.copytree(mini_root, dst)
    return dst


@pytest.fixture(scope="session")
def release_template(tmp_path_factory):
    """One private copy of the shipped release per session, for tests that copy it again and damage that."""
    dst = tmp_path_factory.mktemp("release_template")
    for name in ("data", "reference_metrics"):
        shutil.copytree(os.path.join(REPO, name), str(dst / name))
    for name in ("MANIFEST.json", "SHA256SUMS"):
        shutil.copy(os.path.join(REPO, name), str(dst / name))
    return str(dst)


@pytest.fixture
def release_copy(tmp_path):
    """A private copy of the shipped release (data/, reference_metrics/, MANIFEST.json, SHA256SUMS)."""
    dst = tmp_path / "release"
    dst.mkdir()
    for name in ("data", "reference_metrics"):
        shutil.copytree(os.path.join(REPO, name), str(dst / name))
    for name in ("MANIFEST.json", "SHA256SUMS"):
        shutil.copy(os.path.join(REPO, name), str(dst / name))
    return str(dst)


def run_reproduce(*args, env=None):
    """Run reproduce.py in a subprocess; return (exit code, stdout, stderr)."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    proc = subprocess.run([sys.executable, os.path.join(REPO, "reproduce.py")] + list(args),
                          capture_output=True, text=True, env=full_env, timeout=600)
    return proc.returncode, proc.stdout, proc.stderr


def reproduce_report(root, *args, env=None):
    """Run reproduce.py on ``root`` with ``--json``; return (exit code, stdout, stderr, report, fails by id)."""
    import json
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report.json")
        code, stdout, stderr = run_reproduce("--data", root, "--json", out, *args, env=env)
        report = json.load(open(out, encoding="utf-8")) if os.path.exists(out) else None
    fails = {} if report is None else {c["id"]: c for c in report["checks"] if c["status"] == "fail"}
    return code, stdout, stderr, report, fails


# an expensive session fixture -> the worker group of the tests that read it (pyproject.toml: ``--dist
# loadgroup``), so that it is computed once per suite, not once per worker that happens to get one of its tests
# (a module-scoped one would still be computed again whenever another module's test ran between two of its own)
# (the full runs first: a test that reads them and another shared fixture joins the full runs' worker)
SHARED_FIXTURES = (("repo_run", "full_runs"), ("second_run", "full_runs"), ("faithful", "mc_rehearsal"),
                   ("rehearsal", "rehearsal"), ("challenge_release", "challenge_release"))


# the slow tests (pyproject.toml's ``slow`` marker; the README's test command leaves them out and
# ``python -m pytest -q -rs -m slow`` runs them; .ci/run runs both): every test that reads one of the expensive
# shared fixtures, and every test whose own run took at least the threshold of tests/durations.json
# (bench/bench_tests.py measures them and writes the file)
SLOW_FIXTURES = tuple(fixture for fixture, _ in SHARED_FIXTURES)
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "durations.json"), encoding="utf-8") as _handle:
    SLOW_TESTS = frozenset(json.load(_handle)["slow"])


@pytest.hookimpl(tryfirst=True)        # before pytest-xdist's own hook reads the xdist_group marks
def pytest_collection_modifyitems(items):
    """The tests that read one expensive fixture go to one worker (:data:`SHARED_FIXTURES`): the shared full
    runs, the Monte Carlo rehearsal, the rehearsal and the challenge release are each computed once.  Those
    tests, and the ones tests/durations.json lists, are marked ``slow`` (:data:`SLOW_TESTS`)."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        for fixture, group in SHARED_FIXTURES:
            if fixture in names:
                item.add_marker(pytest.mark.xdist_group(group))
                break
        if item.nodeid in SLOW_TESTS or names & set(SLOW_FIXTURES):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def repo_run(tmp_path_factory):
    """One full ``reproduce.py`` run on the repository's release, shared by the tests that only read its
    outputs: exit code, stdout, stderr, the JSON report and the paths of the JSON, HTML and JUnit files;
    ``git_status`` is the release folders' git status before and after the run."""
    import json

    out = tmp_path_factory.mktemp("repo_run")
    paths = {"json": str(out / "r.json"), "html": str(out / "r.html"), "junit": str(out / "r.xml")}

    def status():
        return subprocess.run(["git", "status", "--porcelain", "--", "data", "reference_metrics"], cwd=REPO,
                              capture_output=True, text=True).stdout
    before = status()
    code, stdout, stderr = run_reproduce("--json", paths["json"], "--html", paths["html"], "--junit", paths["junit"])
    after = status()
    report = json.load(open(paths["json"], encoding="utf-8")) if os.path.exists(paths["json"]) else None
    return {"code": code, "stdout": stdout, "stderr": stderr, "report": report, "paths": paths,
            "git_status": (before, after)}


@pytest.fixture(scope="session")
def second_run(release_template, tmp_path_factory):
    """A second full run for the determinism tests: another root (a copy of the release), another hash
    seed and locale, one worker instead of the default; its JSON, HTML and JUnit paths and exit code."""
    out = tmp_path_factory.mktemp("second_run")
    paths = {"json": str(out / "r.json"), "html": str(out / "r.html"), "junit": str(out / "r.xml")}
    code, stdout, stderr = run_reproduce("--data", release_template, "--json", paths["json"], "--html", paths["html"],
                                         "--junit", paths["junit"], "--quiet", "--jobs", "1",
                                         env={"PYTHONHASHSEED": "987", "LC_ALL": "C"})
    return {"code": code, "stdout": stdout, "stderr": stderr, "paths": paths}


@functools.lru_cache(maxsize=None)
def _levels_by_input(root):
    import glob
    import json
    out = {}
    for path in sorted(glob.glob(os.path.join(root, "reference_metrics", "*.json"))):
        for claim in json.load(open(path, encoding="utf-8"))["claims"]:
            for item in claim["inputs"]:
                out.setdefault(item["path"], {"integrity"}).add(claim["level"])
    return out


def levels_reading(root, rel):
    """The levels whose frozen claims (in ``root``) read ``rel``, and integrity: every analysis that can
    meet a damaged ``rel`` runs, and the levels that never read it are left out."""
    return tuple(sorted(_levels_by_input(root).get(rel, {"integrity"})))


def read_rows(path):
    """The rows of a JSON Lines file (tests that edit released records)."""
    import json
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def write_rows(path, rows):
    """Write rows back in the release's JSON Lines form."""
    from nclue.core.jsonio import write_jsonl
    write_jsonl(path, rows)


def resign(root):
    """Re-sign a damaged copy's MANIFEST.json and SHA256SUMS (its frozen claims keep their input hashes)."""
    from nclue.run.freeze import write_release_manifest
    write_release_manifest(root)


def retranscribe(row, text):
    """Give a transcribed number (a row of reference_metrics/paper/numbers.json) another displayed ``text``, as a
    rehearsal does: its value follows, and its quote becomes the new text alone (the transcription's check holds
    quote and text to each other, so a number changed while its quote is kept is refused)."""
    from fractions import Fraction

    from nclue.paperaudit.consistency import attainable

    row["text"] = text
    row["value"] = float(text.replace(",", ""))
    row["quote"], row["pick"] = "(rehearsal value) " + text, 0
    # a share's denominator is the paper's: a rehearsal value no count of it can display keeps none
    decimals = len(text.split(".")[1]) if "." in text else 0
    if row.get("denominator") and not attainable(Fraction(text.replace(",", "").lstrip("+")), decimals,
                                                 row["denominator"]):
        row["denominator"] = None


def assert_run_fails_naming(root, levels, text):
    """Re-sign a damaged copy, run ``reproduce.py --only levels`` on it and assert the run fails (exit 1) without
    a traceback and that some fail's reason holds ``text`` (a file:line:field message)."""
    resign(root)
    code, stdout, stderr, report, fails = reproduce_report(root, "--only", levels)
    assert code == 1 and "Traceback" not in stdout + stderr
    assert any(text in check["reason"] for check in fails.values()), sorted(fails)[:5]
    return fails


class ScriptedStream:
    """A stand-in stream whose batches are scripted (one list per call), to work draws by hand."""

    def __init__(self, batches):
        self.batches = list(batches)

    def randbelow_batch(self, n, count):
        batch = self.batches.pop(0)
        assert len(batch) == count and all(0 <= x < n for x in batch)
        return batch
