"""Hostile input, second round (docs/usage.md#outputs, docs/schema.md#limits): outputs through links, onto
devices and FIFOs, over each other and over inputs; inputs that are FIFOs, devices, gzip bombs or corrupt
streams; oversized arguments; runs that rank nothing.  Every case asserts the exit code, the message, no
traceback, no hang (each command has a timeout) and an untouched release."""

import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from conftest import REPO, read_rows, resign, write_rows

from nclue.core.errors import InputError
from nclue.core.inputs import read_input, read_maybe_gzip

RUN = os.path.join(REPO, "data", "v1", "rankings", "bm25_and.jsonl")


def _cli(*args, timeout=120, stdin=None):
    proc = subprocess.run([sys.executable, "-m", "nclue"] + list(args), capture_output=True, timeout=timeout,
                          stdin=stdin)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


def _reproduce(*args, timeout=300):
    proc = subprocess.run([sys.executable, os.path.join(REPO, "reproduce.py")] + list(args), capture_output=True,
                          text=True, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def _digest(root):
    h = hashlib.sha256()
    for folder in ("data", "reference_metrics"):
        for dirpath, dirnames, files in sorted(os.walk(os.path.join(root, folder))):
            dirnames.sort()
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                h.update(path.encode())
                h.update(open(path, "rb").read())
    return h.hexdigest()


# ---- outputs ---------------------------------------------------------------------------------------------

def test_export_pages_refuses_a_link_into_the_release(mini_all_copy, tmp_path):
    before = _digest(mini_all_copy)
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(os.path.join(mini_all_copy, "data", "v1", "corpus.jsonl"), str(out / "pages.jsonl"))
    code, _, err = _cli("export-pages", str(out), "--data", mini_all_copy)
    assert code == 2 and "pages.jsonl" in err and "symbolic link" in err and "Traceback" not in err
    assert _digest(mini_all_copy) == before


def test_export_pages_through_a_hard_link_leaves_the_release_alone(mini_all_copy, tmp_path):
    before = _digest(mini_all_copy)
    out = tmp_path / "out"
    out.mkdir()
    os.link(os.path.join(mini_all_copy, "data", "v1", "corpus.jsonl"), str(out / "pages.jsonl"))
    code, _, err = _cli("export-pages", str(out), "--data", mini_all_copy, timeout=600)
    assert code == 0, err
    assert _digest(mini_all_copy) == before              # the rename replaced the link, not the file behind it


def test_export_qrels_refuses_a_link_before_writing_anything(mini_all_copy, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(str(tmp_path / "elsewhere"), str(out / "topics.trec"))
    code, _, err = _cli("export-qrels", str(out), "--data", mini_all_copy)
    assert code == 2 and "topics.trec" in err and "symbolic link" in err
    assert sorted(os.listdir(str(out))) == ["topics.trec"]      # nothing written


def test_reports_refuse_fifos_links_and_each_other(release_copy, tmp_path):
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    code, _, err = _reproduce("--data", release_copy, "--only", "integrity", "--json", fifo, timeout=60)
    assert code == 2 and "is not a regular file" in err and "Traceback" not in err
    assert os.path.exists(fifo) and not os.path.isfile(fifo)              # never replaced
    link = str(tmp_path / "link.json")
    os.symlink(str(tmp_path / "target.json"), link)
    code, _, err = _reproduce("--data", release_copy, "--only", "integrity", "--html", link)
    assert code == 2 and "symbolic link" in err and not os.path.exists(str(tmp_path / "target.json"))
    same = str(tmp_path / "r.json")
    for args in (("--json", same, "--html", same), ("--json", same, "--provenance", same),
                 ("--junit", same, "--html", same)):
        code, _, err = _reproduce("--data", release_copy, "--only", "integrity", *args)
        assert code == 2 and "would both be written to" in err and not os.path.exists(same), args
    code, _, err = _reproduce("--data", release_copy, "--only", "integrity", "--json", "")
    assert code == 2 and "needs a file name" in err


def test_score_refuses_to_write_its_page_over_its_run(tmp_path):
    run = tmp_path / "run.jsonl"
    shutil.copy(RUN, str(run))
    data = run.read_bytes()
    code, _, err = _cli("score", str(run), "--data", REPO, "--against", "none", "--html", str(run))
    assert code == 2 and "it is an input of this command" in err and run.read_bytes() == data


# ---- inputs ----------------------------------------------------------------------------------------------

def test_special_files_as_inputs_are_refused_without_hanging(release_copy, tmp_path):
    fifo = str(tmp_path / "run.fifo")
    os.mkfifo(fifo)
    code, _, err = _cli("score", fifo, "--data", REPO, "--against", "none", timeout=60)
    assert code == 2 and "a FIFO (named pipe), not a regular file" in err
    code, _, err = _cli("score", "/dev/zero", "--data", REPO, "--against", "none", timeout=60)
    assert code == 2 and "a character device, not a regular file" in err
    for name in ("MANIFEST.json", "SHA256SUMS"):
        root = str(tmp_path / name.replace(".", "_"))
        shutil.copytree(release_copy, root)
        os.remove(os.path.join(root, name))
        os.mkfifo(os.path.join(root, name))
        code, out, err = _reproduce("--data", root, "--only", "integrity", timeout=120)
        assert code == 1 and "Traceback" not in out + err and "not a regular file" in out, name


def test_read_input_refuses_devices_and_stops_at_the_budget(tmp_path):
    with pytest.raises(InputError, match="a character device"):
        read_input("/dev/zero", "zero")
    big = tmp_path / "big"
    big.write_bytes(b"x" * 2000)
    with pytest.raises(InputError, match="larger than the 1000-byte limit"):
        read_input(str(big), "big", budget=1000)
    assert read_input(str(big), "big", budget=2000) == b"x" * 2000


def test_a_gzip_bomb_stops_at_the_budget_counted_decompressed(tmp_path):
    bomb = tmp_path / "bomb.gz"
    with gzip.open(str(bomb), "wb") as fh:
        fh.write(b"\n" * 100000)
    assert os.path.getsize(str(bomb)) < 1000
    with pytest.raises(InputError, match="decompressed file is larger than the 50000-byte limit"):
        read_maybe_gzip(str(bomb), "bomb.gz", budget=50000)
    assert len(read_maybe_gzip(str(bomb), "bomb.gz", budget=100000)) == 100000


def test_corrupt_and_truncated_gzip_runs_name_the_run_and_leave_nothing(tmp_path):
    good = tmp_path / "run.jsonl.gz"
    with gzip.open(str(good), "wb") as fh:
        fh.write(open(RUN, "rb").read())
    data = good.read_bytes()
    corrupt = tmp_path / "corrupt.gz"
    corrupt.write_bytes(data[:10] + bytes(b ^ 0xFF for b in data[10:40]) + data[40:])
    truncated = tmp_path / "truncated.gz"
    truncated.write_bytes(data[: len(data) // 2])
    before = set(os.listdir(os.environ.get("TMPDIR", "/tmp")))
    for path in (corrupt, truncated):
        code, _, err = _cli("score", str(path), "--data", REPO, "--against", "none")
        assert code == 2 and str(path) in err and "not a readable gzip file" in err and "Traceback" not in err
    after = set(os.listdir(os.environ.get("TMPDIR", "/tmp")))
    assert not [n for n in after - before if n.startswith("nclue-run-")]
    bad_line = tmp_path / "bad.jsonl.gz"
    with gzip.open(str(bad_line), "wb") as fh:
        fh.write(open(RUN, "rb").read().replace(b'"docids"', b'"docidz"', 1))
    code, _, err = _cli("score", str(bad_line), "--data", REPO, "--against", "none")
    assert code == 2 and "%s:1: field 'docids'" % bad_line in err              # the run's name, not a temp file


def test_a_blank_run_of_many_lines_is_empty_and_quick(tmp_path):
    blank = tmp_path / "blank.txt"
    blank.write_bytes(b"\n" * 5000000)
    code, _, err = _cli("score", str(blank), "--data", REPO, "--against", "none", timeout=60)
    assert code == 1 and "ranks no document" in err


# ---- arguments -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [("reproduce", "--only", "x" * 120000), ("score", RUN, "--against", "y" * 120000),
                                  ("z" * 120000,), ("reproduce", "--jobs", "1000000000")])
def test_oversized_arguments_are_echoed_briefly(args):
    code, out, err = _cli(*args)
    assert code == 2 and "Traceback" not in err and len(err) < 2000, (args[0][:20], len(err))


# ---- release files ---------------------------------------------------------------------------------------

def test_trec_markup_in_a_query_form_is_refused(mini_all_copy):
    from nclue.harness.runner import run
    path = os.path.join(mini_all_copy, "data", "v1", "queries.jsonl")
    rows = read_rows(path)
    rows[0]["forms"]["raw"] = rows[0]["forms"]["raw"] + " </top><top> <num> injected"
    write_rows(path, rows)
    resign(mini_all_copy)
    fails = [c for c in run(mini_all_copy, levels=("integrity", "construction")).checks if c.status == "fail"]
    assert any("data/v1/queries.jsonl:1: field 'forms.raw': contains TREC markup" in c.reason for c in fails)


def test_a_damaged_parent_copy_is_named_as_the_parent(mini_all_copy):
    """A grade of S0 changed and re-signed: S0's re-derivation fails, naming qrels_s0.jsonl; S still re-derives
    from the chain (construction from the inventory, then the decisions), so its own check passes."""
    from nclue.harness.runner import run
    path = os.path.join(mini_all_copy, "data", "v2", "qrels_s0.jsonl")
    rows = read_rows(path)
    row = next(r for r in rows if r["grade"] == 1)
    row["grade"] = 2
    write_rows(path, rows)
    resign(mini_all_copy)
    checks = {c.id: c for c in run(mini_all_copy, levels=("integrity", "construction")).checks}
    assert checks["v2.genealogy.s0.qrel_differences"].status == "fail"
    assert "data/v2/qrels_s0.jsonl" in checks["v2.genealogy.s0.qrel_differences"].reason
    s = checks["v2.genealogy.s.qrel_differences"]               # never blamed on the child copy
    assert s.status == "pass" or ("data/v2/qrels_s0.jsonl" in s.reason and "data/v2/qrels.jsonl has" not in s.reason)


@pytest.mark.parametrize("edit, detail", [
    (lambda row: dict(row, grade=7), "read as qrels it fails: data/v1/qrels.jsonl:12: field 'grade'"),
    (lambda row: dict(row, grade=3 - row["grade"]), "it still validates as qrels: its values changed within the schema"),
])
def test_a_hash_failure_says_what_is_wrong_inside_the_file(release_copy, edit, detail):
    """Issue 27: the field-level reason is printed under the hash failure, not only in the JSON."""
    path = os.path.join(release_copy, "data", "v1", "qrels.jsonl")
    lines = open(path, encoding="utf-8").read().split("\n")
    lines[11] = json.dumps(edit(json.loads(lines[11])), sort_keys=True)
    open(path, "w", encoding="utf-8").write("\n".join(lines))
    report = os.path.join(os.path.dirname(release_copy), "r.json")
    code, out, err = _reproduce("--data", release_copy, "--only", "integrity", "--json", report)
    assert code == 1 and "Traceback" not in err
    at = out.splitlines().index(next(line for line in out.splitlines()
                                     if line.startswith("  FAIL integrity.file:data/v1/qrels.jsonl:")))
    assert out.splitlines()[at + 1].strip().startswith(detail), out.splitlines()[at:at + 2]
    check = next(c for c in json.load(open(report))["checks"] if c["id"] == "integrity.file:data/v1/qrels.jsonl")
    assert check["detail"].startswith(detail) and "sha256" in check["reason"]


def test_reproduce_names_the_instrument_at_once_and_reports_each_claim_file_as_it_finishes():
    """The first stdout line comes before any file is hashed; stderr has a start line, the integrity line, and
    one line per claim file, in the order the files finish (elapsed times never decrease)."""
    proc = subprocess.Popen([sys.executable, os.path.join(REPO, "reproduce.py"), "--only", "integrity,construction"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
    first = proc.stdout.readline()
    still_running = proc.poll() is None
    out, err = proc.communicate(timeout=300)
    assert first.startswith("nclue ") and " checking: " in first and still_running
    assert "checking: " not in out                                 # printed once
    lines = err.splitlines()
    assert lines[0].split("] ", 1)[1].split()[:2] == ["start", "checking"]
    assert re.match(r"\[\s*\d+\.\ds\] integrity\s+\d+ listed files hashed", lines[1])
    per_file = [line for line in lines if re.match(r"\[\s*\d+\.\ds\] construction\s+\S+ \(\d+ checks\)", line)]
    assert len(per_file) >= 6
    times = [float(re.match(r"\[\s*(\d+\.\d)s\]", line).group(1)) for line in lines if line.startswith("[")]
    assert times == sorted(times)
