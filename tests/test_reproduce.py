"""reproduce.py end to end: a clean release passes; every kind of damage turns into fail
(or skip with a reason) and exit code 1; bad arguments exit 2; outputs are deterministic."""

import json
import os

import pytest
from conftest import REPO, released, run_reproduce


def _report(path):
    return json.load(open(path, encoding="utf-8"))


def _checks(report, status):
    return {c["id"]: c for c in report["checks"] if c["status"] == status}


def test_clean_release_passes(repo_run):
    code, stdout, stderr, out = repo_run["code"], repo_run["stdout"], repo_run["stderr"], repo_run["paths"]["json"]
    assert code == 0, stdout + stderr
    report = repo_run["report"]
    assert report["summary"]["fail"] == 0
    assert report["summary"]["pass"] >= 140
    assert stdout.splitlines()[0].startswith("nclue ") and "SYNTHETIC" in stdout.splitlines()[0]
    assert "RESULT: OK" in stdout
    prov = _report(out + ".provenance.json")
    assert prov["python_implementation"] and prov["inputs_sha256"][released("v1", "qrels.jsonl")]


def test_changed_claim_value_fails(release_copy, tmp_path):
    path = os.path.join(release_copy, "reference_metrics", "v1.matrix.json")
    obj = json.load(open(path))
    claim = next(c for c in obj["claims"] if c["id"] == "v1.matrix.bm25_and.nclue_score_at_10")
    claim["value"] = claim["value"] + 0.1
    json.dump(obj, open(path, "w"), indent=1, sort_keys=True)
    out = str(tmp_path / "r.json")
    code, stdout, _ = run_reproduce("--data", release_copy, "--json", out, "--only", "scoring")
    assert code == 1
    fails = _checks(_report(out), "fail")
    assert "v1.matrix.bm25_and.nclue_score_at_10" in fails
    assert ("integrity.file:" + released("claims", "v1.matrix.json")) in fails   # its hash changed too
    assert ("FAIL " + released("claims", "v1.matrix.json")) in stdout          # one line for the damaged file


def test_changed_claim_value_fails_even_with_a_fixed_manifest(release_copy, tmp_path):
    """Re-hashing the manifest after editing a claim does not make a wrong value pass."""
    from nclue.run.freeze import write_release_manifest
    path = os.path.join(release_copy, "reference_metrics", "v1.scorecard.json")
    obj = json.load(open(path))
    claim = next(c for c in obj["claims"] if c["id"] == "v1.scorecard.bm25_or.hit_count")
    claim["value"] += 1
    json.dump(obj, open(path, "w"), indent=1, sort_keys=True)
    write_release_manifest(release_copy)
    out = str(tmp_path / "r.json")
    code, _, _ = run_reproduce("--data", release_copy, "--json", out, "--only", "scoring")
    assert code == 1
    fails = _checks(_report(out), "fail")
    assert list(fails) == ["v1.scorecard.bm25_or.hit_count"]


def test_flipped_byte_in_ranking_fails_its_claims(release_copy, tmp_path):
    rel = released("v1", "rankings/bm25_or.jsonl")
    path = os.path.join(release_copy, *rel.split("/"))
    data = bytearray(open(path, "rb").read())
    i = data.index(b"sim_wb_") + 8
    data[i] = ord("9") if data[i] != ord("9") else ord("8")
    open(path, "wb").write(bytes(data))
    out = str(tmp_path / "r.json")
    code, _, _ = run_reproduce("--data", release_copy, "--json", out, "--only", "scoring")
    assert code == 1
    fails = _checks(_report(out), "fail")
    assert "integrity.file:" + rel in fails
    assert "v1.matrix.bm25_or.nclue_score_at_10" in fails
    assert "fails integrity" in fails["v1.matrix.bm25_or.nclue_score_at_10"]["reason"]
    assert "v1.matrix.bm25_and.nclue_score_at_10" not in fails


@pytest.mark.parametrize("copy,claim,detail", [
    ("qrels_construction.jsonl", "v1.construction.rederived_qrel_differences", "missing qrel: %s / %s"),
    ("qrels.jsonl", "v1.genealogy.final.qrel_differences", "%s / %s: re-derived grade")])
def test_removed_qrel_row_fails_construction_and_scoring(release_copy, tmp_path, copy, claim, detail):
    """A row removed from either CrossPage copy, even re-signed: the construction verifier re-derives the
    construction copy from the inventory, the genealogy the final copy from the construction copy and the audit."""
    from nclue.run.freeze import write_release_manifest
    path = os.path.join(release_copy, "data", "v1", copy)
    lines = open(path, encoding="utf-8").read().split("\n")
    removed = json.loads(lines[0])
    open(path, "w", encoding="utf-8", newline="\n").write("\n".join(lines[1:]))
    write_release_manifest(release_copy)
    out = str(tmp_path / "r.json")
    code, stdout, _ = run_reproduce("--data", release_copy, "--json", out, "--only", "derivation,scoring")
    assert code == 1
    fails = _checks(_report(out), "fail")
    assert detail % (removed["qid"], removed["docid"]) in fails[claim]["reason"]
    assert ((released("v1") + "/") + copy) in fails[claim]["reason"]


def test_deleted_ranking_fails_its_claims_and_integrity(release_copy, tmp_path):
    """A file absent from a present part fails the claims that read it (a skip would hide the missing part)."""
    rel = released("v1", "rankings/forms/bm25_and__natural.jsonl")
    os.remove(os.path.join(release_copy, *rel.split("/")))
    out = str(tmp_path / "r.json")
    code, stdout, _ = run_reproduce("--data", release_copy, "--json", out)
    assert code == 1
    report = _report(out)
    fails = _checks(report, "fail")
    claim = fails["v1.forms.bm25_and.natural.nclue_score_at_10"]
    assert claim["reason"] == "input %s is absent, but release part v1 is present" % rel and claim["cause"] == rel
    assert "listed in MANIFEST.json but absent" in fails["integrity.file:" + rel]["reason"]
    # the only skips: the rebuild level and the published results (a synthetic stand-in gives no verdict)
    assert not [c for c in report["checks"] if c["status"] == "skip" and c["id"] != "level:rebuild"
                and c["group"] != "published"]
    assert "v1.forms.bm25_and.raw.nclue_score_at_10" in _checks(report, "pass")


def test_unlisted_file_is_reported(release_copy, tmp_path):
    extra = os.path.join(release_copy, "data", "v1", "rankings", "mystery.jsonl")
    open(extra, "w").write("{}\n")
    out = str(tmp_path / "r.json")
    code, stdout, _ = run_reproduce("--data", release_copy, "--json", out, "--only", "integrity")
    assert code == 1
    fails = _checks(_report(out), "fail")
    assert released("v1", "rankings/mystery.jsonl") in fails["integrity.unlisted"]["reason"]


def test_unsafe_manifest_path_is_rejected(release_copy, tmp_path):
    path = os.path.join(release_copy, "MANIFEST.json")
    obj = json.load(open(path))
    obj["files"][0]["path"] = "../outside.txt"
    json.dump(obj, open(path, "w"))
    out = str(tmp_path / "r.json")
    code, stdout, _ = run_reproduce("--data", release_copy, "--json", out, "--only", "integrity")
    assert code == 1
    reason = _checks(_report(out), "fail")["integrity.manifest"]["reason"]
    assert "unsafe path" in reason and "files[0].path" in reason


def test_symlink_leaving_the_root_is_rejected(release_copy, tmp_path):
    outside = tmp_path / "outside.jsonl"
    target = os.path.join(release_copy, "data", "v1", "rankings", "bm25_or.jsonl")
    outside.write_bytes(open(target, "rb").read())
    os.remove(target)
    os.symlink(str(outside), target)
    out = str(tmp_path / "r.json")
    code, _, _ = run_reproduce("--data", release_copy, "--json", out, "--only", "integrity")
    assert code == 1
    assert "integrity.manifest" in _checks(_report(out), "fail")


def test_strict_turns_skips_into_exit_1():
    # the paper level alone: on the synthetic stand-in its published results are skips, so --strict fails
    code, stdout, _ = run_reproduce("--only", "paper", "--strict")
    assert code == 1 and "--strict" in stdout
    code, stdout, _ = run_reproduce("--only", "paper")
    assert code == 0 and "RESULT: OK" in stdout


@pytest.mark.parametrize("args", [["--only", "nonsense"], ["--data", "/nonexistent/dir"], ["--bogus"]])
def test_bad_arguments_exit_2_without_traceback(args):
    code, stdout, stderr = run_reproduce(*args)
    assert code == 2
    assert "Traceback" not in stderr


def test_refuses_to_write_reports_into_the_data(release_copy):
    code, _, stderr = run_reproduce("--data", release_copy, "--json", os.path.join(release_copy, "data", "x.json"))
    assert code == 2 and "refusing" in stderr


def test_only_level_skips_other_levels(release_copy, tmp_path):
    out = str(tmp_path / "r.json")
    code, stdout, _ = run_reproduce("--data", release_copy, "--only", "derivation", "--json", out)
    assert code == 0
    report = _report(out)
    skipped = _checks(report, "skip")
    assert skipped["v1.matrix.bm25_and.nclue_score_at_10"]["reason"] == "level scoring not requested"
    assert "v1.construction.rederived_qrel_differences" in _checks(report, "pass")


def test_every_report_is_byte_identical_across_hash_seeds_roots_locales_and_jobs(repo_run, second_run):
    assert repo_run["code"] == second_run["code"] == 0, second_run["stdout"][-2000:]
    for kind in ("json", "html", "junit"):
        assert open(repo_run["paths"][kind], "rb").read() == open(second_run["paths"][kind], "rb").read(), kind


def test_repository_release_is_untouched_by_a_run(repo_run):
    before, after = repo_run["git_status"]
    assert repo_run["code"] == 0 and before == after


def _pyenv_python(version_prefix):
    import glob
    root = os.path.expanduser("~/.pyenv/versions")
    found = sorted(glob.glob(os.path.join(root, version_prefix + "*", "bin", "python")))
    return found[-1] if found else None


def test_every_report_is_byte_identical_on_cpython_39_311_and_313(repo_run, tmp_path):
    """The whole run (every level, JSON, HTML and JUnit) on the oldest and newest CPython here, against
    this interpreter's run: float sums must be math.fsum (CPython 3.12 changed builtin sum of floats)."""
    import subprocess
    reference = [open(repo_run["paths"][k], "rb").read() for k in ("json", "html", "junit")]
    for version in ("3.9", "3.13"):
        python = _pyenv_python(version)
        if python is None:
            pytest.skip("CPython %s is not installed under pyenv here" % version)
        paths = [str(tmp_path / ("r%s.%s" % (version, ext))) for ext in ("json", "html", "xml")]
        proc = subprocess.run([python, os.path.join(REPO, "reproduce.py"), "--json", paths[0], "--html", paths[1],
                               "--junit", paths[2], "--quiet"], capture_output=True, text=True, timeout=600,
                              env=dict(os.environ, PYTHONHASHSEED=version.replace(".", "")))
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        assert [open(p, "rb").read() for p in paths] == reference, version
