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
from conftest import REPO, read_rows, released, resign, write_rows

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


@pytest.mark.parametrize("command", ["reproduce", "score", "export-qrels", "export-pages"])
def test_dot_dot_after_a_link_into_the_release_is_refused(mini_all_copy, tmp_path, command):
    """``D/lnk/../x`` with ``lnk`` -> data/v1 is ``data/x`` as the kernel walks it: refused before the run for
    every command that writes, nothing written, no folder created (the path is resolved link by link, never
    collapsed as a string first)."""
    before = _digest(mini_all_copy)
    folder = tmp_path / "D"
    folder.mkdir()
    os.symlink(os.path.join(mini_all_copy, "data", "v1"), str(folder / "lnk"))
    target = str(folder / "lnk") + "/../x"
    if command == "reproduce":
        code, _, err = _reproduce("--data", mini_all_copy, "--only", "integrity", "--json", target + ".json")
    elif command == "score":
        code, _, err = _cli("score", os.path.join(mini_all_copy, "data", "v1", "rankings", "bm25_and.jsonl"),
                            "--data", mini_all_copy, "--html", target + ".html")
    else:
        code, _, err = _cli(command, target, "--data", mini_all_copy)
    assert code == 2 and "Traceback" not in err and "release" in err, err
    assert sorted(os.listdir(os.path.join(mini_all_copy, "data"))) == sorted(
        n for n in os.listdir(os.path.join(mini_all_copy, "data")) if not n.startswith("x"))
    assert not any(n.startswith("x") for n in os.listdir(os.path.join(mini_all_copy, "data")))
    assert _digest(mini_all_copy) == before


def test_the_write_goes_to_the_folder_checked_even_when_a_link_is_swapped_in(mini_all_copy, tmp_path):
    """The output folder is opened once: a link to the release swapped in for it while the report is written
    does not redirect the file (it lands in the folder that was checked), and a folder that already is the
    release's, whatever path leads there, is refused at write time by device and inode."""
    from nclue.commands.outputs import ReleaseGuard
    from nclue.core.errors import UsageError
    from nclue.core.jsonio import open_output

    guard = ReleaseGuard(mini_all_copy)
    out = tmp_path / "out"
    out.mkdir()
    with open_output(str(out / "x.json"), "the JSON report", guard) as fh:
        fh.write("{}\n")
        os.rename(str(out), str(tmp_path / "moved"))
        os.symlink(os.path.join(mini_all_copy, "data", "v1"), str(out))
    assert (tmp_path / "moved" / "x.json").read_text() == "{}\n"
    assert not os.path.exists(os.path.join(mini_all_copy, "data", "v1", "x.json"))
    for path in (str(out / "y.json"), os.path.join(mini_all_copy, "reference_metrics", "y.json"),
                 os.path.join(mini_all_copy, "MANIFEST.json")):
        with pytest.raises(UsageError, match="part of the release .* device and inode"):
            with open_output(path, "the JSON report", guard) as fh:
                fh.write("{}")
    assert not os.path.exists(os.path.join(mini_all_copy, "data", "v1", "y.json"))
    assert not [n for n in os.listdir(os.path.join(mini_all_copy, "data", "v1")) if n.startswith(".nclue-")]


def test_a_bind_mount_of_the_release_is_refused_by_identity(mini_all_copy, tmp_path):
    """A folder bind-mounted onto data/v1 has another path but the same device and inode: refused at write time."""
    from nclue.commands.outputs import ReleaseGuard
    from nclue.core.errors import UsageError
    from nclue.core.jsonio import write_text

    mount = tmp_path / "mnt"
    mount.mkdir()
    done = subprocess.run(["mount", "--bind", os.path.join(mini_all_copy, "data", "v1"), str(mount)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("bind mounts need privileges this machine does not give: %s" % done.stderr.decode()[:80])
    try:
        with pytest.raises(UsageError, match="device and inode"):
            write_text(str(mount / "x.json"), "{}", "the JSON report", ReleaseGuard(mini_all_copy))
        assert not os.path.exists(os.path.join(mini_all_copy, "data", "v1", "x.json"))
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


def test_a_failed_write_names_the_file_and_leaves_no_partial_file(tmp_path, monkeypatch):
    """A full disk (ENOSPC at the rename) says the file "cannot be written" and removes the temporary file."""
    import errno

    from nclue.core import jsonio
    from nclue.core.errors import UsageError

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(jsonio.os, "replace", full)
    with pytest.raises(UsageError) as err:
        jsonio.write_text(str(tmp_path / "r.json"), "{}", "the JSON report")
    assert "the JSON report" in str(err.value) and "r.json" in str(err.value) and "cannot be written" in str(err.value)
    assert "No space left on device" in str(err.value)
    assert os.listdir(str(tmp_path)) == []


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
    from nclue.run.runner import run
    path = os.path.join(mini_all_copy, "data", "v1", "queries.jsonl")
    rows = read_rows(path)
    rows[0]["forms"]["raw"] = rows[0]["forms"]["raw"] + " </top><top> <num> injected"
    write_rows(path, rows)
    resign(mini_all_copy)
    fails = [c for c in run(mini_all_copy, levels=("integrity", "derivation")).checks if c.status == "fail"]
    assert any((released("v1", "queries.jsonl") + ":1: field 'forms.raw': contains TREC markup") in c.reason for c in fails)


def test_a_damaged_parent_copy_is_named_as_the_parent(mini_all_copy):
    """A grade of S0 changed and re-signed: S0's re-derivation fails, naming qrels_s0.jsonl; S still re-derives
    from the chain (construction from the inventory, then the decisions), so its own check passes."""
    from nclue.run.runner import run
    path = os.path.join(mini_all_copy, "data", "v2", "qrels_s0.jsonl")
    rows = read_rows(path)
    row = next(r for r in rows if r["grade"] == 1)
    row["grade"] = 2
    write_rows(path, rows)
    resign(mini_all_copy)
    checks = {c.id: c for c in run(mini_all_copy, levels=("integrity", "derivation")).checks}
    assert checks["v2.genealogy.s0.qrel_differences"].status == "fail"
    assert released("v2", "qrels_s0.jsonl") in checks["v2.genealogy.s0.qrel_differences"].reason
    s = checks["v2.genealogy.s.qrel_differences"]               # never blamed on the child copy
    assert s.status == "pass" or (released("v2", "qrels_s0.jsonl") in s.reason and (released("v2", "qrels.jsonl") + " has") not in s.reason)


@pytest.mark.parametrize("edit, detail", [
    (lambda row: dict(row, grade=7), ("read as qrels it fails: " + released("v1", "qrels.jsonl") + ":12: field 'grade'")),
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
                                     if line.startswith(("  FAIL integrity.file:" + released("v1", "qrels.jsonl") + ":"))))
    assert out.splitlines()[at + 1].strip().startswith(detail), out.splitlines()[at:at + 2]
    check = next(c for c in json.load(open(report))["checks"] if c["id"] == ("integrity.file:" + released("v1", "qrels.jsonl")))
    assert check["detail"].startswith(detail) and "sha256" in check["reason"]


def test_reproduce_names_the_instrument_at_once_and_reports_each_claim_file_as_it_finishes():
    """The first stdout line comes before any file is hashed; stderr has a start line, the integrity line, and
    one line per claim file, in the order the files finish (elapsed times never decrease)."""
    proc = subprocess.Popen([sys.executable, os.path.join(REPO, "reproduce.py"), "--only", "integrity,derivation"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
    first = proc.stdout.readline()
    still_running = proc.poll() is None
    out, err = proc.communicate(timeout=300)
    assert first.startswith("nclue ") and " checking: " in first and still_running
    assert "checking: " not in out                                 # printed once
    lines = err.splitlines()
    assert lines[0].split("] ", 1)[1].split()[:2] == ["start", "checking"]
    assert re.match(r"\[\s*\d+\.\ds\] integrity\s+\d+ listed files hashed", lines[1])
    per_file = [line for line in lines if re.match(r"\[\s*\d+\.\ds\] derivation\s+\S+ \(\d+ checks\)", line)]
    assert len(per_file) >= 6
    times = [float(re.match(r"\[\s*(\d+\.\d)s\]", line).group(1)) for line in lines if line.startswith("[")]
    assert times == sorted(times)


def test_a_forged_claim_id_is_refused_and_nothing_raw_is_printed(release_copy):
    """A claim id holding a newline, a forged RESULT line and ANSI escapes (re-signed): the claim file fails naming
    the field, the id is shown escaped, no raw control character reaches the output, and the run fails."""
    path = os.path.join(release_copy, "reference_metrics", "v1.controls.json")
    doc = json.load(open(path, encoding="utf-8"))
    doc["claims"][0]["id"] = "v1.x\nRESULT: OK -- 9999 pass, 0 fail, 0 skip\x1b[2J\x1b[H"
    open(path, "w", encoding="utf-8").write(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    resign(release_copy)
    code, out, err = _reproduce("--data", release_copy, "--only", "scoring")
    assert code == 1 and "Traceback" not in err
    assert "\x1b" not in out + err and "\r" not in out + err
    assert not any(line.startswith("RESULT: OK -- 9999") for line in out.splitlines())
    assert (released("claims", "v1.controls.json") + ": field 'claims[0].id'") in out


def test_an_unsafe_system_id_is_refused_naming_the_file_and_field(mini_all_copy):
    rel = os.path.join("data", "v1", "systems.json")
    path = os.path.join(mini_all_copy, rel)
    doc = json.load(open(path, encoding="utf-8"))
    doc["systems"][0]["id"] = "../../../../etc/passwd"
    open(path, "w", encoding="utf-8").write(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    resign(mini_all_copy)
    from conftest import reproduce_report
    code, out, err, report, fails = reproduce_report(mini_all_copy, "--only", "scoring")
    assert code == 1 and "Traceback" not in err and ("FAIL " + released("v1", "systems.json")) in out
    assert any((released("v1", "systems.json") + " systems[0]: field 'id': system id '../../../../etc/passwd' is not a safe id")
               in c["reason"] for c in fails.values())


def test_a_closed_or_repeated_standard_input_is_a_usage_error():
    proc = subprocess.run([sys.executable, "-m", "nclue", "score", "-"], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=120, close_fds=True)
    code, _, err = _cli("score", "-", "-", stdin=subprocess.DEVNULL)
    assert code == 2 and "at most once" in err and "Traceback" not in err
    closed = subprocess.run("exec %s -m nclue score - <&-" % sys.executable, shell=True, capture_output=True,
                            text=True, timeout=120)
    assert closed.returncode == 2 and "standard input is closed" in closed.stderr, closed.stderr
    assert "harness defect" not in closed.stderr
    assert proc.returncode in (1, 2) and "Traceback" not in proc.stderr


def test_sigterm_during_deep_removes_its_temporary_folder(tmp_path):
    """SIGTERM while ``--deep`` rebuilds: the rebuild folder in TMPDIR is removed, as on SIGINT, and the exit is 143."""
    import signal
    import time

    env = dict(os.environ, TMPDIR=str(tmp_path))
    proc = subprocess.Popen([sys.executable, os.path.join(REPO, "reproduce.py"), "--deep", "--only", "integrity",
                             "--quiet"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 120
        while time.time() < deadline and not any(n.startswith("nclue-rebuild-") for n in os.listdir(str(tmp_path))):
            time.sleep(0.1)
        assert any(n.startswith("nclue-rebuild-") for n in os.listdir(str(tmp_path))), "the rebuild never started"
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143 and "Traceback" not in err, err
    assert not [n for n in os.listdir(str(tmp_path)) if n.startswith("nclue-rebuild-")]


def test_a_write_error_inside_a_run_says_cannot_be_written():
    """An OSError of a write (ENOSPC, a quota, a read-only file system) caught by the runner is "cannot be written"
    with the file; any other OSError stays "cannot be read"."""
    import errno

    from nclue.run.guard import attempt

    def full():
        raise OSError(errno.ENOSPC, "No space left on device", "/tmp/nclue-rebuild-x/data/v1/corpus.jsonl")

    def denied():
        raise OSError(errno.EACCES, "Permission denied", released("v1", "corpus.jsonl"))
    assert attempt("rebuilding the stand-in", full) == (
        False, "/tmp/nclue-rebuild-x/data/v1/corpus.jsonl: cannot be written (No space left on device)")
    assert attempt("reading", denied) == (False, (released("v1", "corpus.jsonl") + ": cannot be read (Permission denied)"))
