"""Hostile input: no traceback, no silent pass, no write over the release (docs/schema.md#limits).

Every generated damage is applied to a private copy of the mini stand-in (v1, v2 and the audit) and then
**re-signed everywhere**: MANIFEST.json, SHA256SUMS and the input hashes of every frozen claim, so that the
loaders and analyses -- not only the hash check -- meet the damage.  Each case asserts that the run raises
nothing (tests set NCLUE_RAISE_DEFECTS, so a harness defect would raise), that it fails, and that a fail
names the damaged file (with line and field where the damage has them).  Layout damages and command-line
cases follow.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from conftest import REPO, levels_reading, read_rows, released, reproduce_report

from nclue.core import integrity
from nclue.core.layout import role_of
from nclue.run.runner import run

LEVELS = ("integrity", "derivation", "scoring")      # every damage below is met by one of these levels

# file kind -> (a field of its first row that a check reads, an identifier field a row refers to others by)
JSONL = {
    released("v1", "corpus.jsonl"): ("pages", None),
    released("v1", "conditions.jsonl"): ("kind", None),
    released("v1", "inventory.jsonl"): ("pages", "docid"),
    released("v1", "queries.jsonl"): ("n", None),
    released("v1", "qrels_construction.jsonl"): ("grade", "qid"),
    released("v1", "qrels.jsonl"): ("grade", "qid"),
    released("v1", "repairs.jsonl"): ("grade_after", "qid"),
    released("v1", "rankings/bm25_or.jsonl"): ("scores", "qid"),
    released("v1", "rankings/forms/bm25_and__clean_v2.jsonl"): ("docids", "qid"),
    released("v1", "page_scores/page_bm25_top3.jsonl"): ("pages", "docid"),
    released("v2", "corpus.jsonl"): ("pages", None),
    released("v2", "queries.jsonl"): ("n", None),
    released("v2", "inventory.jsonl"): ("pages", "docid"),
    released("v2", "qrels_construction.jsonl"): ("grade", "qid"),
    released("v2", "qrels_s0.jsonl"): ("grade", "qid"),
    released("v2", "qrels.jsonl"): ("grade", "docid"),
    released("v2", "rankings/forms/bm25_and__raw.jsonl"): ("scores", "qid"),
    released("audit", "key.jsonl"): ("n", "qid"),
    released("audit", "packet.jsonl"): ("conditions", "pair"),
    released("audit", "pages.jsonl"): ("page", "docid"),
    released("audit", "initial.jsonl"): ("answers", "pair"),
    released("audit", "queue.jsonl"): ("pool", "pair"),
    released("audit", "adjudication.jsonl"): ("positive", "pair"),
    released("audit", "decisions.jsonl"): ("grade_after", "pair"),
    released("audit", "condition_decisions.jsonl"): ("votes_positive", "pair"),
    released("audit", "pool_recall.jsonl"): ("submitted", "pair"),
    released("audit", "challenge_key.jsonl"): ("gap_change", "qid"),
    released("audit", "challenge_packet.jsonl"): ("conditions", "docid"),
    released("audit", "challenge_responses.jsonl"): ("answers", "pair"),
    released("audit", "challenge_decisions.jsonl"): ("grade_after", "pair"),
}
DOCUMENTS = {
    released("v1", "systems.json"): "systems", released("v2", "systems.json"): "systems", released("v1", "stats.json"): "table1",
    released("v2", "stats.json"): "table", released("v1", "build.json"): "seed", released("v2", "build.json"): "seed",
    released("audit", "audit.json"): "seed", released("v1", "genealogy.json"): "copies", released("v2", "genealogy.json"): "copies", released("data", "crosswalk.json"): "rows", released("claims", "v1.matrix.json"): "claims",
    released("claims", "v1.construction.json"): "claims",
}
CORE = (released("v1", "corpus.jsonl"), released("v1", "queries.jsonl"), released("v1", "qrels.jsonl"), released("v1", "inventory.jsonl"),
        released("v1", "rankings/bm25_or.jsonl"), released("v1", "page_scores/page_bm25_top3.jsonl"), released("v2", "qrels.jsonl"),
        released("audit", "initial.jsonl"), released("audit", "challenge_key.jsonl"), released("audit", "challenge_responses.jsonl"))


def _line(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _first(data):
    head, _, rest = data.partition(b"\n")
    return json.loads(head), rest


def _with_first(obj, rest):
    return _line(obj).encode() + b"\n" + rest


def _deep(levels=100):
    return "[" * levels + "]" * levels


def _set(field, value_text):
    """A mutation replacing the first row's ``field`` by raw JSON text ``value_text``."""
    def mutate(data):
        obj, rest = _first(data)
        obj[field] = "\u0000PLACEHOLDER"
        return _line(obj).replace('"\\u0000PLACEHOLDER"', value_text).encode() + b"\n" + rest
    return mutate


def _drop(field):
    def mutate(data):
        obj, rest = _first(data)
        del obj[field]
        return _with_first(obj, rest)
    return mutate


def _duplicate_key(data):
    text = data.decode()
    key = sorted(json.loads(text.partition("\n")[0]))[0]
    return ('{"%s":0,' % key + text[1:]).encode()


def _jsonl_damages(field, ident):
    """name -> (mutation, text a fail must contain after the path, e.g. ':1: field ...')."""
    out = {
        "truncated": (lambda b: b[: len(b) // 2], ""),
        "invalid UTF-8": (lambda b: b[:5] + b"\xff" + b[5:], ":1: not valid UTF-8"),
        "BOM": (lambda b: b"\xef\xbb\xbf" + b, ":1: starts with a byte-order mark"),
        "CRLF": (lambda b: b.replace(b"\n", b"\r\n"), ":1: carriage return"),
        "duplicate key": (_duplicate_key, ":1: invalid JSON (duplicate key"),
        "deep nesting": (_set(field, _deep()), ":1: values nested deeper than 64 levels"),
        "huge number": (_set(field, "1" * 400), ":1: field '%s" % field),
        "non-finite number": (_set(field, "1e400"), ":1: field '%s" % field),
        "wrong type": (_set(field, '{"x": 1}'), ":1: field '%s" % field),
        "missing field": (_drop(field), ":1: field '%s'" % field),
        "duplicate row": (lambda b: b.partition(b"\n")[0] + b"\n" + b, ":2: "),
        "empty": (lambda b: b"", ""),
        "huge line": (_set("zz_padding", '"%s"' % ("x" * 1100000)), ":1: line of 1100"),
    }
    if ident is not None:
        out["unknown id"] = (_set(ident, '"no_such_id"'), ":1: field '%s" % ident)
    return out


def _document_damages(field):
    return {
        "truncated": (lambda b: b[: len(b) // 2], ": invalid JSON"),
        "invalid UTF-8": (lambda b: b[:5] + b"\xff" + b[5:], ": not valid UTF-8"),
        "BOM": (lambda b: b"\xef\xbb\xbf" + b, ":1: starts with a byte-order mark"),
        "duplicate key": (lambda b: b"{" + b'"%s":0,' % field.encode() + b[1:], ": invalid JSON (duplicate key"),
        "deep nesting": (lambda b: json.dumps(dict(json.loads(b), **{field: json.loads(_deep())})).encode(),
                         ": values nested deeper than 64 levels"),
        "non-finite number": (lambda b: json.dumps(dict(json.loads(b), **{field: 1.0})).encode().replace(
            b'"%s": 1.0' % field.encode(), b'"%s": 1e400' % field.encode()), ""),
        "wrong type": (lambda b: json.dumps(dict(json.loads(b), **{field: "wrong"})).encode(), ""),
        "missing field": (lambda b: json.dumps({k: v for k, v in json.loads(b).items() if k != field}).encode(), ""),
        "empty": (lambda b: b"", ": invalid JSON"),
    }


# the damages every file meets through the same reader (jsonio's JSON Lines or document checks, before any
# loader sees a row): one case repeats the check of another file's, so each such damage is run on every third
# file (SAMPLE), in a fixed rotation that gives each file its share and each damage a third of the files; a
# damage that reaches a loader's rows and fields (wrong type, missing field, a number, an id, a repeated row) is
# run on every file, and so is "truncated", every file's first case
READER_DAMAGES = ("invalid UTF-8", "BOM", "CRLF", "duplicate key", "deep nesting", "huge line", "empty")
SAMPLE = 3


def _sampled(file_index, damage_names):
    """The damages of the file at ``file_index`` (its place in its table) that run: every one but the reader's,
    and of those, each one whose place in :data:`READER_DAMAGES` falls on the file's turn of the rotation."""
    return [name for name in damage_names
            if name not in READER_DAMAGES or (file_index + READER_DAMAGES.index(name)) % SAMPLE == 0]


CASES = []
for _index, (_rel, (_field, _ident)) in enumerate(JSONL.items()):
    _damages = _jsonl_damages(_field, _ident)
    for _name in _sampled(_index, _damages if _rel in CORE else ("truncated", "wrong type", "unknown id",
                                                                   "duplicate row")):
        if _name in _damages:
            CASES.append((_rel, _name) + _damages[_name])
for _index, (_rel, _field) in enumerate(DOCUMENTS.items()):
    _damages = _document_damages(_field)
    for _name in _sampled(_index, _damages):
        CASES.append((_rel, _name) + _damages[_name])


def _resign(root, rel):
    """Re-sign one changed file everywhere: its manifest entry, SHA256SUMS and every claim's input hash."""
    path = os.path.join(root, *rel.split("/"))
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
    if not rel.startswith("reference_metrics/"):
        for name in sorted(os.listdir(os.path.join(root, "reference_metrics"))):
            claims_path = os.path.join(root, "reference_metrics", name)
            if not name.endswith(".json"):
                continue
            text = open(claims_path, encoding="utf-8").read()
            if '"%s"' % rel not in text:
                continue
            # the claim writer's layout (sort_keys, indent=1) puts each input's sha256 right after its path
            pattern = r'("path": %s,\s*"sha256": ")[0-9a-f]{64}"' % re.escape(json.dumps(rel))
            text, count = re.subn(pattern, lambda m: m.group(1) + digest + '"', text)
            assert count, "no input entry of %s found in %s" % (rel, name)
            with open(claims_path, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
    manifest = json.load(open(os.path.join(root, "MANIFEST.json"), encoding="utf-8"))
    info = {k: v for k, v in manifest.items() if k not in ("files", "manifest_schema")}
    integrity.write_manifest(root, [(p, role_of(p)) for p in integrity.released_files_on_disk(root)], info)


def _names_the_file(fails, rel, expect):
    """Some fail names ``rel`` (in its reason or as its cause) followed by ``expect`` (e.g. ':1: field')."""
    for c in fails:
        for text in (c.reason, c.cause or ""):
            at = text.find(rel)
            if at >= 0 and expect.lstrip(":0123456789 ") in text[at + len(rel):] and (
                    not expect.startswith(":1:") or text[at + len(rel):].startswith(expect.split(" ", 1)[0])):
                return True
    return False


def test_the_suite_is_large_enough():
    assert len(CASES) >= 150


def test_every_reader_damage_meets_files_of_every_kind():
    """The sample keeps every reader damage on a third of the files that have it (at least two), JSON Lines and
    documents alike, and every file its truncation and every loader damage it has."""
    met = {}
    for rel, name, _, _ in CASES:
        met.setdefault(name, set()).add(rel)
    for name in READER_DAMAGES:
        kinds = {rel.endswith(".jsonl") for rel in met[name]}
        assert kinds == ({True} if name in ("CRLF", "huge line") else {True, False}), (name, sorted(met[name]))
        assert len(met[name]) >= 2, name
    assert met["truncated"] == set(JSONL) | set(DOCUMENTS)
    assert len(met["wrong type"]) == len(JSONL) + len(DOCUMENTS)
    assert _sampled(0, READER_DAMAGES) == ["invalid UTF-8", "duplicate key", "empty"]
    assert _sampled(1, READER_DAMAGES) == ["CRLF", "huge line"] and _sampled(2, ["BOM", "wrong type"]) == [
        "BOM", "wrong type"]


def _case_params():
    """Every case; all but each file's first damage are ``slow`` (the quick suite meets every file once, and
    ``-m slow`` every other damage: README, "Tests")."""
    seen, out = set(), []
    for case in CASES:
        out.append(pytest.param(*case, id="%s:%s" % (case[0], case[1]), marks=[pytest.mark.slow] if case[0] in seen
                                else []))
        seen.add(case[0])
    return out


@pytest.mark.parametrize("rel,name,mutate,expect", _case_params())
def test_damage_fails_cleanly_and_names_the_file(mini_all, tmp_path, rel, name, mutate, expect):
    root = str(tmp_path / "inst")
    shutil.copytree(mini_all, root)
    path = os.path.join(root, *rel.split("/"))
    data = open(path, "rb").read()
    damaged = mutate(data)
    assert damaged != data
    open(path, "wb").write(damaged)
    _resign(root, rel)
    # the levels of LEVELS whose claims read the file (a claim file or the manifest: all of LEVELS)
    read_by = set(levels_reading(mini_all, rel))
    levels = tuple(lv for lv in LEVELS if lv in read_by) if len(read_by) > 1 else LEVELS
    result = run(root, levels=levels)                 # raises on a harness defect (NCLUE_RAISE_DEFECTS)
    fails = [c for c in result.checks if c.status == "fail"]
    assert fails, "%s %s: no fail (a silent pass)" % (rel, name)
    assert _names_the_file(fails, rel, expect), (rel, name, [(c.id, c.reason) for c in fails][:4])


# ---- layout ----------------------------------------------------------------------------------------------

def _resign_all(root):
    manifest = json.load(open(os.path.join(root, "MANIFEST.json"), encoding="utf-8"))
    info = {k: v for k, v in manifest.items() if k not in ("files", "manifest_schema")}
    integrity.write_manifest(root, [(p, role_of(p)) for p in integrity.released_files_on_disk(root)], info)


def _edit_manifest(root, edit):
    path = os.path.join(root, "MANIFEST.json")
    obj = json.load(open(path, encoding="utf-8"))
    edit(obj)
    open(path, "w", encoding="utf-8").write(json.dumps(obj, indent=1, sort_keys=True) + "\n")
    sums = os.path.join(root, "SHA256SUMS")
    lines = [ln for ln in open(sums).read().splitlines() if not ln.endswith("  MANIFEST.json")]
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
    open(sums, "w").write("\n".join(sorted(lines + ["%s  MANIFEST.json" % digest], key=lambda s: s[66:])) + "\n")


def _layout_cases():
    def symlinked_dir_outside(root, tmp):
        os.symlink(str(tmp), os.path.join(root, "data", "v1", "elsewhere"))
        return "data/v1/elsewhere/"

    def symlinked_dir_inside(root, tmp):
        os.symlink(os.path.join(root, "data", "v2"), os.path.join(root, "data", "v1", "again"))
        return "data/v1/again/"

    def symlinked_file_outside(root, tmp):
        rel = released("v1", "qrels.jsonl")
        outside = os.path.join(str(tmp), "qrels.jsonl")
        shutil.move(os.path.join(root, *rel.split("/")), outside)
        os.symlink(outside, os.path.join(root, *rel.split("/")))
        return rel

    def traversal_in_manifest(root, tmp):
        _edit_manifest(root, lambda m: m["files"][0].update(path="../outside.jsonl"))
        return "../outside.jsonl"

    def absolute_in_manifest(root, tmp):
        _edit_manifest(root, lambda m: m["files"][0].update(path="/etc/passwd"))
        return "/etc/passwd"

    def control_char_in_manifest(root, tmp):
        _edit_manifest(root, lambda m: m["files"][0].update(path="data/v1/a\u0000b.jsonl"))
        return "MANIFEST.json"

    def unlisted_file(root, tmp):
        open(os.path.join(root, "data", "v1", "rankings", "mystery.jsonl"), "w").write("{}\n")
        return released("v1", "rankings/mystery.jsonl")

    def delisted_core_file(root, tmp):
        os.remove(os.path.join(root, "data", "v1", "qrels.jsonl"))
        _resign_all(root)
        return released("v1", "qrels.jsonl")

    def delisted_claim_file(root, tmp):
        os.remove(os.path.join(root, "reference_metrics", "v1.scorecard.json"))
        _resign_all(root)
        return released("claims", "v1.scorecard.json")

    def delisted_audit_record(root, tmp):
        os.remove(os.path.join(root, "data", "audit", "decisions.jsonl"))
        _resign_all(root)
        return (released("audit") + "/")

    def crlf_sums(root, tmp):
        path = os.path.join(root, "SHA256SUMS")
        data = open(path, "rb").read()
        open(path, "wb").write(data.replace(b"\n", b"\r\n"))
        return "SHA256SUMS:1: has CRLF line ends"

    def directory_for_a_file(root, tmp):
        rel = released("v1", "page_scores/page_bm25_top3.jsonl")
        os.remove(os.path.join(root, *rel.split("/")))
        os.mkdir(os.path.join(root, *rel.split("/")))
        return rel

    def synthetic_flag_off(root, tmp):
        rel = released("v2", "corpus.jsonl")
        path = os.path.join(root, *rel.split("/"))
        text = open(path).read()
        open(path, "w").write(text.replace('"synthetic":true', '"synthetic":false', 1))
        _resign(root, rel)
        return rel

    return [symlinked_dir_outside, symlinked_dir_inside, symlinked_file_outside, traversal_in_manifest,
            absolute_in_manifest, control_char_in_manifest, unlisted_file, delisted_core_file, delisted_claim_file,
            delisted_audit_record, crlf_sums, directory_for_a_file, synthetic_flag_off]


@pytest.mark.parametrize("damage", _layout_cases(), ids=lambda f: f.__name__)
def test_layout_damage_fails_and_names_the_path(mini_all, tmp_path, damage):
    root = str(tmp_path / "inst")
    shutil.copytree(mini_all, root)
    outside = tmp_path / "outside"
    outside.mkdir()
    needle = damage(root, outside)
    result = run(root, levels=LEVELS)
    fails = [c for c in result.checks if c.status == "fail"]
    assert fails, damage.__name__
    assert any(needle in c.reason or needle in (c.cause or "") for c in fails), [(c.id, c.reason) for c in fails][:4]


# ---- the command line ------------------------------------------------------------------------------------

def _cli(*args, cwd=None, env=None, stdin=None):
    full = dict(os.environ)
    full.update(env or {})
    proc = subprocess.run([sys.executable, "-m", "nclue"] + list(args), capture_output=True, text=True, cwd=cwd,
                          env=full, timeout=600)
    return proc.returncode, proc.stdout, proc.stderr


def _release_bytes(root):
    return {p: open(os.path.join(root, p), "rb").read() for p in ("MANIFEST.json", "SHA256SUMS")}


@pytest.mark.parametrize("target", ["MANIFEST.json", "SHA256SUMS", "data/v1/new.json", released("claims", "x.json"),
                                    released("v1", "qrels.jsonl")])
def test_outputs_never_land_in_the_release(mini_all_copy, target):
    before = _release_bytes(mini_all_copy)
    code, out, err = _cli("reproduce", "--data", mini_all_copy, "--json", os.path.join(mini_all_copy, target))
    assert code == 2 and "refusing to write" in err and "Traceback" not in err
    assert out == ""                                          # refused before the run started
    assert _release_bytes(mini_all_copy) == before


@pytest.mark.parametrize("args,needle", [
    (["reproduce", "--only", "bogus"], "--only takes"),
    (["reproduce", "--data", "/no/such/folder"], "not a directory"),
    (["reproduce", "--json", "/no/such/folder/r.json"], "does not exist"),
    (["reproduce", "--json", "/tmp"], "is a directory"),
    (["frobnicate"], "unknown command 'frobnicate'"),
    (["score", "/tmp"], "is a directory"),
    (["score", "/no/such/run.trec"], "file is absent"),
    (["build", "--seed", "-1", "--out", "/tmp/nclue-never-built"], "non-negative"),
    (["export-pages", "data/v1/pages"], "refusing to write"),
])
def test_bad_command_lines_exit_2_with_a_message(args, needle):
    code, out, err = _cli(*args, cwd=REPO)
    assert code == 2, (args, out, err)
    assert needle in err and "Traceback" not in out + err


def _trec(tmp_path, text):
    path = tmp_path / "run.trec"
    path.write_bytes(text)
    return str(path)


@pytest.mark.parametrize("text,needle", [
    (b"nclue_0000 Q0 sim_wb_00001 1 1e400 t\n", ":1: field 'score': not finite"),
    (b"nclue_0000 Q0 sim_wb_00001 1 " + b"9" * 400 + b" t\n", ":1: field 'score': not finite"),
    (b"nclue_0000 Q0 sim_wb_00001 1 1.0 t\n\x0cnclue_0000 Q0 zzz 2 0.5 t\n", ":2: field 'docno'"),
    (b"nclue_0000 Q0 " + b"x" * 100000 + b" 1 1.0 t\n", ":1: field 'docno': unknown document"),
    (b"\xff\xfe\n", ":1: not valid UTF-8"),
])
def test_bad_runs_given_to_score_name_line_and_field(mini_all, tmp_path, text, needle):
    code, out, err = _cli("score", _trec(tmp_path, text), "--data", mini_all)
    assert code == 2 and needle in err and "Traceback" not in err
    assert len(err) < 2000                                    # bounded, whatever the input's size


def test_a_huge_integer_score_in_a_jsonl_run(mini_all, tmp_path):
    run_path = tmp_path / "run.jsonl"
    queries = [json.loads(line)["qid"] for line in open(os.path.join(mini_all, "data", "v1", "queries.jsonl"))]
    rows = [{"qid": q, "docids": [], "scores": []} for q in queries]
    rows[0] = {"qid": queries[0], "docids": ["sim_wb_00001"], "scores": [10 ** 400]}
    run_path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, out, err = _cli("score", str(run_path), "--data", mini_all)
    assert code == 2 and "run.jsonl:1: field 'scores[0]': must be a finite number" in err and "Traceback" not in err


def test_score_refuses_a_release_file_that_fails_integrity(mini_all_copy):
    path = os.path.join(mini_all_copy, "data", "v1", "qrels.jsonl")
    judged = {(r["qid"], r["docid"]) for r in read_rows(path)}
    docid = next("sim_wb_%05d" % i for i in range(1, 100) if ("nclue_0001", "sim_wb_%05d" % i) not in judged)
    open(path, "a").write('{"docid":"%s","grade":1,"qid":"nclue_0001"}\n' % docid)   # valid, but not the signed file
    run_file = os.path.join(mini_all_copy, "data", "v1", "rankings", "bm25_or.jsonl")
    code, out, err = _cli("score", run_file, "--data", mini_all_copy)
    assert code == 1 and released("v1", "qrels.jsonl") in err and out == ""
    code, out, err = _cli("score", run_file, "--data", mini_all_copy, "--no-verify")
    assert code == 0 and ("warning: " + released("v1", "qrels.jsonl")) in err and "n-Clue Score@10" in out


def test_a_closed_pipe_ends_quietly(mini_all):
    run_file = os.path.join(mini_all, "data", "v1", "rankings", "bm25_or.jsonl")
    proc = subprocess.run("%s -m nclue score %s --data %s | head -c 10" % (sys.executable, run_file, mini_all),
                          shell=True, capture_output=True, text=True, timeout=600)
    assert len(proc.stdout) == 10 and "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def test_freeze_on_a_damaged_release_refuses_with_a_message(mini_all_copy):
    path = os.path.join(mini_all_copy, "data", "v1", "qrels.jsonl")
    data = open(path, "rb").read()
    cut = data.index(b"\n", len(data) // 2) - 5                # inside a line: a truncated file
    open(path, "wb").write(data[:cut])
    before = _release_bytes(mini_all_copy)
    claims = {n: open(os.path.join(mini_all_copy, "reference_metrics", n), "rb").read()
              for n in os.listdir(os.path.join(mini_all_copy, "reference_metrics")) if n.endswith(".json")}
    code, out, err = _cli("freeze", "--data", mini_all_copy)
    assert code == 2 and (released("v1", "qrels.jsonl") + ":") in err and "Traceback" not in err
    assert _release_bytes(mini_all_copy) == before           # a refused freeze writes nothing
    assert claims == {n: open(os.path.join(mini_all_copy, "reference_metrics", n), "rb").read() for n in claims}


def test_the_whole_report_under_an_ascii_terminal_from_a_non_ascii_path(mini_all, tmp_path):
    root = str(tmp_path / "r\u00e9lease \u2013 copie")
    shutil.copytree(mini_all, root)
    code, out, err, report, fails = reproduce_report(root, env={"PYTHONIOENCODING": "ascii", "LC_ALL": "C"})
    assert code == 0 and not fails and "Traceback" not in out + err
    assert "r\\xe9lease" in out                               # escaped, not an encoding error
    out_file = os.path.join(root, "..", "report.json")
    code, out, err = _cli("reproduce", "--data", root, "--quiet", "--json", out_file,
                          env={"PYTHONIOENCODING": "ascii"})
    assert code == 0 and json.load(open(out_file, encoding="utf-8"))["summary"]["fail"] == 0


@pytest.mark.parametrize("name,damage", [
    ("truncated", lambda b: b[: len(b) // 2]),
    ("deep nesting", lambda b: b.replace(b'"files": [', b'"files": ' + b"[" * 5000 + b"]" * 5000 + b', "x": [', 1)),
    ("BOM", lambda b: b"\xef\xbb\xbf" + b),
    ("files not a list", lambda b: b.replace(b'"files": [', b'"files": 1, "x": [', 1)),
    ("negative bytes", lambda b: b.replace(b'"bytes": ', b'"bytes": -', 1)),
    ("bad sha256", lambda b: b.replace(b'"sha256": "', b'"sha256": "zz', 1)),
])
def test_a_damaged_manifest_fails_before_anything_reads_it(mini_all_copy, name, damage):
    path = os.path.join(mini_all_copy, "MANIFEST.json")
    data = open(path, "rb").read()
    open(path, "wb").write(damage(data))
    result = run(mini_all_copy, levels=LEVELS)
    fails = {c.id: c for c in result.checks if c.status == "fail"}
    assert "integrity.manifest" in fails and "MANIFEST.json" in fails["integrity.manifest"].reason
    # nothing is verified without a manifest: every claim that reads a data file fails
    assert not [c for c in result.checks if c.status == "pass" and c.inputs]


@pytest.mark.parametrize("name,damage,needle", [
    ("not hex", lambda b: b"zz" + b[2:], "SHA256SUMS:1: not '<64 hex>  <path>'"),
    ("traversal", lambda b: b + b"0" * 64 + b"  ../escape\n", "unsafe path '../escape'"),
    ("duplicate", lambda b: b + b.split(b"\n")[0] + b"\n", "duplicate path"),
    ("no final newline", lambda b: b[:-1], "last line has no newline"),
    ("BOM", lambda b: b"\xef\xbb\xbf" + b, "byte-order mark"),
])
def test_a_damaged_sums_file_fails_with_its_line(mini_all_copy, name, damage, needle):
    path = os.path.join(mini_all_copy, "SHA256SUMS")
    data = open(path, "rb").read()
    open(path, "wb").write(damage(data))
    result = run(mini_all_copy, levels=("integrity",))
    fails = {c.id: c for c in result.checks if c.status == "fail"}
    assert needle in fails["integrity.sha256sums"].reason


@pytest.mark.parametrize("namespace,a,b", [("system", "jina_dec", "qwen06_dec"),      # same block, other operation
                                           ("system", "bm25_and", "hybrid"),          # across blocks
                                           ("original", "text_jinav4", "colqwen2.5"),
                                           ("original", "rerank_bge_m3", "rerank_qwen3r8b"),   # same block and class
                                           ("original", "text_jinav4", "text_qwen3emb8b"),
                                           ("block", "jina_composition", "fusion")])   # contrasts
def test_a_crosswalk_with_two_rows_swapped_fails_naming_both(mini_all, tmp_path, namespace, a, b):
    """Two crosswalk rows swapped and re-signed everywhere: the semantic check (the paper's roles against
    systems.json) fails, naming both rows, so no published number is bound to the wrong run in silence."""
    root = str(tmp_path / "inst")
    shutil.copytree(mini_all, root)
    path = os.path.join(root, "data", "crosswalk.json")
    doc = json.load(open(path, encoding="utf-8"))
    rows = {(r["namespace"], r["paper"]): r for r in doc["rows"]}
    rows[(namespace, a)]["stand_in"], rows[(namespace, b)]["stand_in"] = (
        rows[(namespace, b)]["stand_in"], rows[(namespace, a)]["stand_in"])
    open(path, "w", encoding="utf-8").write(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    _resign(root, released("data", "crosswalk.json"))
    result = run(root, levels=("integrity", "derivation"))
    fails = {c.id: c for c in result.checks if c.status == "fail"}
    assert set(fails) == {"v1.crosswalk.role_mismatches"}, sorted(fails)
    reason = fails["v1.crosswalk.role_mismatches"].reason
    assert "row %s / %s" % (namespace, a) in reason and "row %s / %s" % (namespace, b) in reason


def test_a_run_moved_between_table2_blocks_fails_naming_it(mini_all, tmp_path):
    """A run moved from one Table 2 block of the crosswalk to another (re-signed): it is not a run of that block in
    systems.json, and the crosswalk check fails naming it."""
    root = str(tmp_path / "inst")
    shutil.copytree(mini_all, root)
    path = os.path.join(root, "data", "crosswalk.json")
    doc = json.load(open(path, encoding="utf-8"))
    blocks = {t["block"]: t for t in doc["table2"]}
    moved = blocks["representation"]["stand_in_systems"].pop(0)
    blocks["composition"]["stand_in_systems"].append(moved)
    open(path, "w", encoding="utf-8").write(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    _resign(root, released("data", "crosswalk.json"))
    result = run(root, levels=("integrity", "derivation"))
    fails = {c.id: c for c in result.checks if c.status == "fail"}
    assert "v1.crosswalk.role_mismatches" in fails, sorted(fails)
    assert "Table 2 block composition lists %s, a run of block representation" % moved in \
        fails["v1.crosswalk.role_mismatches"].reason


def _tampered_numbers(root, number_id, **changes):
    path = os.path.join(root, "reference_metrics", "paper", "numbers.json")
    doc = json.load(open(path, encoding="utf-8"))
    row = next(r for r in doc["numbers"] if r["id"] == number_id)
    row.update(changes)
    open(path, "w", encoding="utf-8").write(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    return [r["id"] for r in doc["numbers"]].index(number_id)


@pytest.mark.parametrize("number_id,changes,field,needle", [
    ("T3.bm25_and.score", {"text": "27.8", "value": 27.8}, "text", "the quote and the text must agree"),
    ("T3.bm25_and.score", {"decimals": 2}, "decimals", "decimals 2, but the text '26.8' shows 1"),
    ("T3.bm25_and.score", {"pick": 9}, "pick", "pick 9 is not the index of one of the 3 numbers"),
    ("T3.bm25_and.score", {"kind": "count"}, "kind", "a count cannot display '26.8'"),
    ("T3.bm25_and.score", {"kind": "p"}, "kind", "a p cannot display '26.8'"),
    ("S8.kappa_w", {"denominator": 300}, "denominator", "has no denominator"),
    # issue 58 item 10: a share no count of its denominator can display
    ("X.abs.hybrid_hit", {"denominator": 7}, "denominator", "no count of 7 shows as 81.1% at 1 decimals"),
])
def test_a_tampered_transcription_is_caught_naming_the_field(release_copy, number_id, changes, field, needle):
    """The paper's transcription changed and re-signed: quote, text, pick, decimals, kind and denominator must agree
    with each other, so the paper audit fails naming the number's field instead of passing in silence."""
    from nclue.core.errors import InputError
    from nclue.paperaudit.consistency import load_numbers

    index = _tampered_numbers(release_copy, number_id, **changes)
    with pytest.raises(InputError) as err:
        load_numbers(release_copy)
    assert "field 'numbers[%d].%s'" % (index, field) in str(err.value) and needle in str(err.value), str(err.value)


def test_a_tampered_transcription_fails_the_run(release_copy):
    from conftest import reproduce_report
    _tampered_numbers(release_copy, "T3.bm25_and.score", text="27.8", value=27.8)
    _resign(release_copy, released("claims", "paper/numbers.json"))
    code, out, err, report, fails = reproduce_report(release_copy, "--only", "paper")
    assert code == 1 and "Traceback" not in err
    assert any("the quote and the text must agree" in c["reason"] for c in fails.values())


@pytest.mark.parametrize("rel,edit", [
    (released("v1", "genealogy.json"), "top"),
    (released("v2", "genealogy.json"), "top"),
    (released("data", "crosswalk.json"), "top"),
    (released("audit", "decisions.jsonl"), "row"),
    (released("audit", "key.jsonl"), "row"),
    # issue 58: every row of every release -- rows with a flag and rows whose schema has none
    (released("v1", "queries.jsonl"), "row"),
    (released("v1", "qrels.jsonl"), "row"),
    (released("v2", "conditions.jsonl"), "row"),
    (released("v2", "qrels_s0.jsonl"), "row"),
])
def test_a_row_that_says_not_synthetic_inside_a_synthetic_release_fails(mini_all_copy, rel, edit):
    """``"synthetic": false`` written into one document or one audit row of a synthetic release (re-signed) fails,
    naming the file (and the line of a row)."""
    from conftest import reproduce_report
    path = os.path.join(mini_all_copy, *rel.split("/"))
    if edit == "top":
        doc = json.load(open(path, encoding="utf-8"))
        doc["synthetic"] = False
        open(path, "w", encoding="utf-8").write(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    else:
        lines = open(path, encoding="utf-8").read().splitlines()
        row = json.loads(lines[1])
        row["synthetic"] = False
        lines[1] = json.dumps(row, sort_keys=True, separators=(",", ":"))
        open(path, "w", encoding="utf-8").write("\n".join(lines) + "\n")
    _resign(mini_all_copy, rel)
    code, out, err, report, fails = reproduce_report(mini_all_copy, "--only", "derivation")
    assert code == 1 and "Traceback" not in err
    needle = "%s: synthetic=false" % rel if edit == "top" else "%s:2: synthetic=false, MANIFEST.json says true" % rel
    assert any(needle in (c["reason"] + " " + (c.get("detail") or "")) for c in fails.values()), sorted(fails)[:5]


@pytest.mark.parametrize("field,change", [
    ("n3_pairs", lambda v: v + 1),
    ("responders", lambda v: v[:2]),
    ("strata", lambda v: [dict(v[0], gold=v[0]["gold"] + 1)] + v[1:]),
    ("shown_pages", lambda v: v + 1),
    ("pool_pages", lambda v: [v[0] + 2, v[1]]),
])
def test_a_changed_audit_description_fails_naming_the_field(mini_all_copy, field, change):
    """data/audit/audit.json describes the audit (responders, three-condition pairs, strata, pages shown, pool
    sizes); a description that no longer matches the records (re-signed everywhere) fails naming the field."""
    rel = released("audit", "audit.json")
    path = os.path.join(mini_all_copy, *rel.split("/"))
    doc = json.load(open(path, encoding="utf-8"))
    doc[field] = change(doc[field])
    open(path, "w", encoding="utf-8").write(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    _resign(mini_all_copy, rel)
    code, out, err, report, fails = reproduce_report(mini_all_copy, "--only", "derivation")
    assert code == 1 and "Traceback" not in err
    assert set(fails) == {"audit.packet.design_disagreements"}, sorted(fails)[:4]
    assert "%s: field %r says" % (rel, field) in fails["audit.packet.design_disagreements"]["reason"]


def test_an_unknown_field_in_a_stats_row_is_refused(mini_all_copy):
    rel = released("v1", "stats.json")
    path = os.path.join(mini_all_copy, *rel.split("/"))
    doc = json.load(open(path, encoding="utf-8"))
    doc["table1"][0]["bogus"] = 1
    open(path, "w", encoding="utf-8").write(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    _resign(mini_all_copy, rel)
    code, out, err, report, fails = reproduce_report(mini_all_copy, "--only", "derivation")
    assert code == 1 and "Traceback" not in err
    assert any((released("v1", "stats.json") + ": field 'table1[0].bogus': unknown field 'bogus'") in c["reason"]
               for c in fails.values()), sorted(fails)[:4]


def test_a_pair_audited_twice_is_named(mini_all_copy):
    """Two key rows auditing the same (release, query, document) under two pair ids: the second is named, with
    the pair it repeats, instead of surfacing as value drifts."""
    rel = released("audit", "key.jsonl")
    path = os.path.join(mini_all_copy, *rel.split("/"))
    lines = open(path, encoding="utf-8").read().splitlines()
    first, second = json.loads(lines[0]), json.loads(lines[1])
    for field in ("release", "qid", "docid", "n", "grade_before", "stratum", "source", "frame"):
        second[field] = first[field]
    lines[1] = json.dumps(second, sort_keys=True, separators=(",", ":"))
    open(path, "w", encoding="utf-8").write("\n".join(lines) + "\n")
    _resign(mini_all_copy, rel)
    code, out, err, report, fails = reproduce_report(mini_all_copy, "--only", "derivation")
    assert code == 1 and "Traceback" not in err
    needle = "%s:2: field 'pair': pair %s audits" % (rel, second["pair"])
    assert any(needle in c["reason"] and "which pair %s already audits" % first["pair"] in c["reason"]
               for c in fails.values()), sorted(fails)[:4]


def test_a_sourceshift_query_without_its_source_names_the_field(mini_all_copy):
    rel = released("v2", "queries.jsonl")
    path = os.path.join(mini_all_copy, *rel.split("/"))
    lines = open(path, encoding="utf-8").read().splitlines()
    row = json.loads(lines[0])
    del row["source"]
    lines[0] = json.dumps(row, sort_keys=True, separators=(",", ":"))
    open(path, "w", encoding="utf-8").write("\n".join(lines) + "\n")
    _resign(mini_all_copy, rel)
    code, out, err, report, fails = reproduce_report(mini_all_copy, "--only", "derivation")
    assert code == 1 and "Traceback" not in err
    assert any("%s:1: field 'source'" % rel in c["reason"] for c in fails.values()), sorted(fails)[:4]


def test_two_streams_swapped_for_one_pair_name_the_pair_and_the_file(release_copy):
    """G and H swapped for one pair of challenge_responses.jsonl (re-signed): the duplicate export no longer
    collapses, and the fail names the pair and the responses file instead of the claims file alone."""
    rel = released("audit", "challenge_responses.jsonl")
    pair, _, _ = _swap_for_one_pair(release_copy, rel, "stream", "G", "H")
    code, out, err, report, fails = reproduce_report(release_copy, "--only", "derivation")
    assert code == 1 and "Traceback" not in err
    reason = fails["audit.challenge.protocol.unique_streams"]["reason"]
    assert "differ on %s (%s)" % (pair, rel) in reason, reason


def test_two_responders_swapped_for_one_pair_drift_their_counts(release_copy):
    """A and E swapped for one pair of the label audit's initial.jsonl (re-signed): nothing else in the release
    records who gave which answer to a pair, so the swap shows as the two responders' counts drifting (six
    fails); the rebuild level names the pair (next test)."""
    _swap_responders(release_copy)
    code, out, err, report, fails = reproduce_report(release_copy, "--only", "derivation")
    assert code == 1 and "Traceback" not in err
    assert sorted(fails) == ["audit.integrity.initial.%s.%s" % (who, what) for who in "AE"
                             for what in ("page_quotes", "page_quotes_exact", "pages")], sorted(fails)


def _swap_for_one_pair(root, rel, field, a, b):
    """``field`` values ``a`` and ``b`` (two responders, two streams) swapped for the first pair whose two
    answers differ, the file re-signed; ``(pair, first line changed, the value now on that line)``."""
    path = os.path.join(root, *rel.split("/"))
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    answers = {(r["pair"], r[field]): r["answers"] for r in rows}
    pair = next(p for p, s in sorted(answers) if s == a and answers[(p, a)] != answers.get((p, b)))
    first = next(i for i, r in enumerate(rows, 1) if r["pair"] == pair and r[field] in (a, b))
    swap = {a: b, b: a}
    for row in rows:
        if row["pair"] == pair and row[field] in swap:
            row[field] = swap[row[field]]
    open(path, "w", encoding="utf-8").write("".join(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n"
                                                    for r in rows))
    _resign(root, rel)
    return pair, first, rows[first - 1][field]


def _swap_responders(root):
    return _swap_for_one_pair(root, released("audit", "initial.jsonl"), "responder", "A", "E")


def test_the_rebuild_names_the_first_differing_record(mini_all_copy):
    """--deep on a mini stand-in whose initial.jsonl has A and E swapped for one pair (re-signed, so that only
    the regeneration can tell which record changed): the rebuild fail names the line, the pair and the
    responder there."""
    pair, line, responder = _swap_responders(mini_all_copy)
    code, out, err, report, fails = reproduce_report(mini_all_copy, "--deep", "--only", "rebuild")
    assert code == 1 and "Traceback" not in err
    reason = fails[("rebuild:" + released("audit", "initial.jsonl"))]["reason"]
    assert reason.endswith("first difference at line %d (pair %s, responder %s)" % (line, pair, responder)), reason
