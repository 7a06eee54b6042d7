"""core/integrity worked by hand on tiny trees in tmp_path (docs/schema.md#manifestjson-and-sha256sums): every
message, field and line number the module reports, the boundaries of its checks (a path of 1,024 characters,
a file of 0 bytes, five mismatches), and the exact files MANIFEST.json and SHA256SUMS it writes -- the kills
of the mutants mutmut left alive in core/integrity.py (docs/recipes.md#mutation-testing)."""

import hashlib
import json
import os

import pytest
from conftest import released

import nclue.core.inputs as inputs
from nclue.core import integrity
from nclue.core.errors import InputError, MissingInput, UsageError
from nclue.core.integrity import (
    FileCheck,
    IntegrityResult,
    check,
    check_listed_file,
    load_manifest,
    observed_inputs,
    parse_sums,
    released_files_on_disk,
    sha256_file,
    sums_problems,
    unsafe_reason,
    verify_files,
    walk_release,
    write_manifest,
)

SCHEMA = "nclue.manifest/1"
QUERIES = released("v1", "queries.jsonl")
QBYTES = b'{"qid":"q1"}\n'
QHASH = hashlib.sha256(QBYTES).hexdigest()
H0 = "0" * 64
H1 = "1" * 64


def _put(root, rel, data):
    path = os.path.join(root, *rel.split("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)
    return path


def _entry(rel, data, role):
    return {"path": rel, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(), "role": role}


def _manifest(root, obj):
    """Write ``obj`` as MANIFEST.json (a dict gets the schema unless it names one)."""
    if isinstance(obj, dict):
        obj = dict({"manifest_schema": SCHEMA}, **obj)
    _put(root, "MANIFEST.json", json.dumps(obj).encode())


def _sums(root, text):
    _put(root, "SHA256SUMS", text.encode() if isinstance(text, str) else text)


def _release(root, files, extra=None):
    """A consistent release: ``files`` is ``[(rel, bytes, role)]``; returns the manifest's sha256."""
    entries = []
    for rel, data, role in files:
        _put(root, rel, data)
        entries.append(_entry(rel, data, role))
    _manifest(root, dict({"files": entries}, **(extra or {})))
    with open(os.path.join(root, "MANIFEST.json"), "rb") as fh:
        mhash = hashlib.sha256(fh.read()).hexdigest()
    lines = sorted([(e["path"], e["sha256"]) for e in entries] + [("MANIFEST.json", mhash)])
    _sums(root, "".join("%s  %s\n" % (h, p) for p, h in lines))
    return mhash


def _raises(fn, *args):
    """The message of the InputError ``fn(*args)`` raises."""
    with pytest.raises(InputError) as info:
        fn(*args)
    return str(info.value)


# -- observed_inputs, sha256_file, FileCheck, IntegrityResult


def test_observed_inputs_keeps_release_paths_once_sorted_without_anchors_or_outsiders(tmp_path):
    root = str(tmp_path / "r")
    paths = [os.path.join(root, "data", "b.json"), os.path.join(root, "data", "a.json"),
             os.path.join(root, "data", "a.json"), os.path.join(root, "MANIFEST.json"),
             os.path.join(root, "SHA256SUMS"), str(tmp_path / "other" / "x.json"), os.path.join(root, "..x"),
             os.path.join(root, "reference_metrics", "SHA256SUMS")]
    assert observed_inputs(root, paths) == ["..x", "data/a.json", "data/b.json", "reference_metrics/SHA256SUMS"]
    assert observed_inputs(root, []) == []


def test_sha256_file_hashes_every_byte_and_names_the_file_it_refuses(tmp_path):
    path = _put(str(tmp_path), "f.bin", b"abc" * 1000)
    assert sha256_file(path) == (hashlib.sha256(b"abc" * 1000).hexdigest(), 3000)
    assert sha256_file(path, chunk=7) == (hashlib.sha256(b"abc" * 1000).hexdigest(), 3000)
    empty = _put(str(tmp_path), "e.bin", b"")
    assert sha256_file(empty) == (hashlib.sha256(b"").hexdigest(), 0)
    folder = str(tmp_path / "d")
    os.mkdir(folder)
    assert _raises(sha256_file, folder) == "%s: is a directory, not a file" % folder
    with pytest.raises(InputError, match=r"^data/d: is a directory, not a file$"):
        sha256_file(folder, where="data/d")


def test_a_file_check_defaults_to_no_reason_and_no_hash():
    checked = FileCheck("data/x", "data", "ok")
    assert (checked.path, checked.role, checked.status, checked.reason, checked.sha256) == (
        "data/x", "data", "ok", "", None)
    checked = FileCheck("p", "r", "bad", "why", H0)
    assert (checked.reason, checked.sha256) == ("why", H0)


def test_a_fresh_integrity_result_is_empty_and_calls_every_path_unlisted():
    result = IntegrityResult()
    assert result.files == {} and result.manifest is None and result.problems == [] and result.unlisted == []
    assert result.status("data/x") == "unlisted"
    assert result.reason("data/x") == "data/x is not listed in MANIFEST.json"
    result.files["data/x"] = FileCheck("data/x", "data", "bad", "broken")
    assert result.status("data/x") == "bad" and result.reason("data/x") == "broken"


# -- unsafe_reason


def test_unsafe_reason_names_each_kind_of_bad_path(tmp_path):
    """Each reason at its boundary: 1,024 characters pass and 1,025 do not; a space and DEL are no controls."""
    root = str(tmp_path)
    assert unsafe_reason(root, "") == "empty path"
    assert unsafe_reason(root, None) == "empty path"
    assert unsafe_reason(root, 5) == "empty path"
    long = "path longer than 1,024 characters or with control characters"
    exactly = "ab/" * 341 + "a"
    assert len(exactly) == 1024 and unsafe_reason(root, exactly) is None
    assert unsafe_reason(root, exactly + "b") == long
    assert unsafe_reason(root, "data/a\x1fb") == long
    assert unsafe_reason(root, "data/a\x00") == long
    assert unsafe_reason(root, "data/a b~\x7f") is None                 # space (32) and DEL are not controls
    absolute = "absolute or non-POSIX path"
    assert unsafe_reason(root, "/data/x") == absolute
    assert unsafe_reason(root, "C:/data") == absolute
    assert unsafe_reason(root, "z:x") == absolute
    assert unsafe_reason(root, "data\\x") == absolute
    assert unsafe_reason(root, "data/C:x") is None and unsafe_reason(root, "1:x") is None
    assert unsafe_reason(root, "ab:x") is None
    parts = "path has an empty, '.' or '..' part"
    for rel in ("data/", "./data", "data/../data", "..", "."):
        assert unsafe_reason(root, rel) == parts
    assert unsafe_reason(root, "data/...") is None and unsafe_reason(root, "data/.x") is None


def test_unsafe_reason_resolves_symlinks_and_reports_what_cannot_be_resolved(tmp_path):
    root = tmp_path / "root"
    (root / "data").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    os.symlink(str(tmp_path / "outside"), str(root / "data" / "out"))
    os.symlink(str(root / "data"), str(root / "data" / "in"))
    assert unsafe_reason(str(root), "data/out/x") == "resolves outside the root (symlink?)"
    assert unsafe_reason(str(root), "data/in/x") is None
    assert unsafe_reason(str(root / "data" / "in"), "x") is None        # a linked root is resolved too
    assert unsafe_reason(str(tmp_path) + "/ro\x00ot", "data/x") == "cannot be resolved (embedded null byte)"


# -- load_manifest and _check_releases


def test_load_manifest_returns_the_parsed_object(tmp_path):
    root = str(tmp_path)
    _release(root, [(QUERIES, QBYTES, "queries")], extra={"synthetic": True})
    obj = load_manifest(root)
    assert obj == {"manifest_schema": SCHEMA, "synthetic": True, "files": [_entry(QUERIES, QBYTES, "queries")]}
    _manifest(root, {"files": []})
    assert load_manifest(root) == {"manifest_schema": SCHEMA, "files": []}


def test_load_manifest_names_the_schema_and_the_files_field(tmp_path):
    root = str(tmp_path)
    with pytest.raises(MissingInput, match=r"^MANIFEST\.json: file is absent$"):
        load_manifest(root)
    _manifest(root, [])
    assert _raises(load_manifest, root) == "MANIFEST.json: top-level value must be a JSON object"
    _manifest(root, {"manifest_schema": "nclue.manifest/2", "files": []})
    assert _raises(load_manifest, root) == "MANIFEST.json: field 'manifest_schema': expected 'nclue.manifest/1'"
    _put(root, "MANIFEST.json", b'{"files": []}')
    assert _raises(load_manifest, root) == "MANIFEST.json: field 'manifest_schema': expected 'nclue.manifest/1'"
    for files in (None, {}, "x"):
        _manifest(root, {"files": files})
        assert _raises(load_manifest, root) == "MANIFEST.json: field 'files': must be a list"
    _put(root, "MANIFEST.json", json.dumps({"manifest_schema": SCHEMA}).encode())
    assert _raises(load_manifest, root) == "MANIFEST.json: field 'files': must be a list"


@pytest.mark.parametrize("change, field, message", [
    ("entry", "files[1]", "must be an object"),
    ({"path": None}, "files[1].path", "must be a string"),
    ({"path": 3}, "files[1].path", "must be a string"),
    ({"sha256": None}, "files[1].sha256", "must be a string"),
    ({"role": None}, "files[1].role", "must be a string"),
    ({"bytes": None}, "files[1].bytes", "must be a non-negative integer"),
    ({"bytes": "3"}, "files[1].bytes", "must be a non-negative integer"),
    ({"bytes": 1.0}, "files[1].bytes", "must be a non-negative integer"),
    ({"bytes": True}, "files[1].bytes", "must be a non-negative integer"),
    ({"bytes": False}, "files[1].bytes", "must be a non-negative integer"),
    ({"bytes": -1}, "files[1].bytes", "must be a non-negative integer"),
    ({"sha256": "A" * 64}, "files[1].sha256", "must be 64 lower-case hex digits"),
    ({"sha256": "0" * 63}, "files[1].sha256", "must be 64 lower-case hex digits"),
    ({"sha256": "0" * 65}, "files[1].sha256", "must be 64 lower-case hex digits"),
    ({"sha256": "g" * 64}, "files[1].sha256", "must be 64 lower-case hex digits"),
    ({"path": "data/../x"}, "files[1].path", "unsafe path 'data/../x': path has an empty, '.' or '..' part"),
    ({"path": "/x"}, "files[1].path", "unsafe path '/x': absolute or non-POSIX path"),
    ({"path": ""}, "files[1].path", "unsafe path '': empty path"),
    ({"path": "data/a"}, "files[1].path", "duplicate path 'data/a'"),
])
def test_load_manifest_names_the_entry_and_its_key(tmp_path, change, field, message):
    """The second of two entries is broken one way: the message names it (files[1]) and the key."""
    root = str(tmp_path)
    good = {"path": "data/a", "bytes": 0, "sha256": H0, "role": "data"}
    second = "not an object" if change == "entry" else dict(dict(good, path="data/b"), **change)
    _manifest(root, {"files": [good, second]})
    assert _raises(load_manifest, root) == "MANIFEST.json: field %r: %s" % (field, message)


def test_load_manifest_takes_zero_bytes_and_lower_case_hex(tmp_path):
    root = str(tmp_path)
    entries = [{"path": "data/a", "bytes": 0, "sha256": "0123456789abcdef" * 4, "role": "data"},
               {"path": "data/b", "bytes": 7, "sha256": H1, "role": "anything"}]
    _manifest(root, {"files": entries})
    assert load_manifest(root)["files"] == entries


def _releases_error(root, releases, natures=None, files=()):
    obj = {"files": [{"path": p, "bytes": 0, "sha256": H0, "role": "data"} for p in files], "releases": releases}
    if natures is not None:
        obj["natures"] = natures
    _manifest(root, obj)
    try:
        load_manifest(root)
    except InputError as exc:
        return str(exc)
    return None


def test_the_releases_field_lists_known_release_folders_once(tmp_path):
    root = str(tmp_path)
    known = (released("v1") + ", " + released("v2") + ", " + released("v3"))
    assert _releases_error(root, [released("v1"), released("v2")], files=["data/v1/a", "data/v2/b", "data/x"]) is None
    assert _releases_error(root, [], files=["data/x", "data/v1x/a", "data/other/v1/a"]) is None
    for bad in (released("v1"), {released("v1"): 1}, [1], [released("v1"), None]):
        assert _releases_error(root, bad) == "MANIFEST.json: field 'releases': must be a list of release folders"
    assert _releases_error(root, [released("v1"), "data/v4"]) == (
        "MANIFEST.json: field 'releases[1]': unknown release 'data/v4' (known: %s)" % known)
    assert _releases_error(root, [released("v2"), released("v1"), released("v2")]) == (
        ("MANIFEST.json: field 'releases[2]': release '" + released("v2") + "' listed twice"))
    assert _releases_error(root, [released("v1")], files=["data/v1/a", "data/v2/b"]) == (
        ("MANIFEST.json: field 'files[1].path': lists 'data/v2/b', a file of " + released("v2") + ", which releases does not list"))
    assert _releases_error(root, [], files=["data/v3/a"]) == (
        ("MANIFEST.json: field 'files[0].path': lists 'data/v3/a', a file of " + released("v3") + ", which releases does not list"))


def test_the_natures_field_names_exactly_the_listed_releases(tmp_path):
    root = str(tmp_path)
    assert _releases_error(root, [released("v2"), released("v1")], natures={released("v1"): "a", released("v2"): "b"}) is None
    assert _releases_error(root, [], natures={}) is None
    for bad in ([released("v1")], "x"):
        assert _releases_error(root, [released("v1")], natures=bad) == "MANIFEST.json: field 'natures': must be an object"
    assert _releases_error(root, [released("v2"), released("v1")], natures={released("v3"): 1, released("v1"): 2}) == (
        ("MANIFEST.json: field 'natures': names " + released("v1") + ", " + released("v3") + ", but releases lists " + released("v1") + ", " + released("v2")))
    assert _releases_error(root, [released("v1")], natures={}) == (
        ("MANIFEST.json: field 'natures': names none, but releases lists " + released("v1")))
    assert _releases_error(root, [], natures={released("v1"): 1}) == (
        ("MANIFEST.json: field 'natures': names " + released("v1") + ", but releases lists none"))


def test_a_manifest_without_releases_is_not_held_to_them(tmp_path):
    root = str(tmp_path)
    _manifest(root, {"files": [{"path": "data/v2/a", "bytes": 0, "sha256": H0, "role": "data"}],
                     "natures": "not checked"})
    assert load_manifest(root)["natures"] == "not checked"


# -- parse_sums


def test_parse_sums_reads_coreutils_lines(tmp_path):
    root = str(tmp_path)
    _sums(root, "%s  data/b\n%s *data/a\n\n%s  MANIFEST.json\n" % ("AB" * 32, H1, H0))
    assert parse_sums(root) == {"data/b": "ab" * 32, "data/a": H1, "MANIFEST.json": H0}
    _sums(root, "")
    assert parse_sums(root) == {}
    _sums(root, "\n")
    assert parse_sums(root) == {}


def test_parse_sums_names_the_line_of_each_defect(tmp_path):
    """Every refusal of SHA256SUMS with its 1-based line: bytes, byte-order mark, CRLF, truncation, format, path."""
    root = str(tmp_path)
    with pytest.raises(MissingInput, match=r"^SHA256SUMS: file is absent$"):
        parse_sums(root)
    good = "%s  data/a\n" % H0
    cases = [
        ((good * 2).encode() + b"\n\xff\n", "SHA256SUMS:4: not valid UTF-8 (byte offset 147)"),
        (b"\xe9", "SHA256SUMS:1: not valid UTF-8 (byte offset 0)"),
        ("\ufeff" + good, "SHA256SUMS:1: starts with a byte-order mark (coreutils format expected)"),
        (good + "\n" + good.replace("\n", "\r\n"), "SHA256SUMS:3: has CRLF line ends; sha256sum -c expects \\n"),
        ("\r\n", "SHA256SUMS:1: has CRLF line ends; sha256sum -c expects \\n"),
        (good + "\n" + good[:-1], "SHA256SUMS:3: last line has no newline (truncated file?)"),
        ("x", "SHA256SUMS:1: last line has no newline (truncated file?)"),
        (good + "%s data/b\n" % H1, "SHA256SUMS:2: not '<64 hex>  <path>'"),
        (good + "\n%s  \n" % H1, "SHA256SUMS:3: not '<64 hex>  <path>'"),
        ("%s  data/b\n" % H1[:63], "SHA256SUMS:1: not '<64 hex>  <path>'"),
        ("%s0  data/b\n" % H1, "SHA256SUMS:1: not '<64 hex>  <path>'"),
        ("x%s  data/b\n" % H1, "SHA256SUMS:1: not '<64 hex>  <path>'"),
        ("%s -data/b\n" % H1, "SHA256SUMS:1: not '<64 hex>  <path>'"),
        (good + "%s  /etc/passwd\n" % H1, "SHA256SUMS:2: unsafe path '/etc/passwd': absolute or non-POSIX path"),
        (good + good, "SHA256SUMS:2: duplicate path 'data/a'"),
        (good + "%s *data/a\n" % H1, "SHA256SUMS:2: duplicate path 'data/a'"),
    ]
    for text, message in cases:
        _sums(root, text)
        assert _raises(parse_sums, root) == message, text


def test_parse_sums_keeps_a_path_that_ends_in_spaces(tmp_path):
    root = str(tmp_path)
    _sums(root, "%s  data/a \n" % H0)
    assert parse_sums(root) == {"data/a ": H0}


# -- walk_release and released_files_on_disk


def test_walk_release_lists_files_and_linked_folders_sorted_without_following_links(tmp_path):
    root = str(tmp_path / "r")
    for rel in ("data/v1/z.json", "data/v1/a.json", "data/b/c.txt", released("claims", "m.json"), "other/x"):
        _put(root, rel, b"x")
    _put(str(tmp_path), "elsewhere/secret", b"s")
    os.symlink(str(tmp_path / "elsewhere"), os.path.join(root, "data", "v1", "linked"))
    os.symlink(os.path.join(root, "data", "v1", "a.json"), os.path.join(root, "data", "alias.json"))
    files, linked = walk_release(root)
    assert files == ["data/alias.json", "data/b/c.txt", "data/v1/a.json", "data/v1/z.json",
                     released("claims", "m.json")]
    assert linked == ["data/v1/linked/"]
    assert released_files_on_disk(root) == files


def test_a_linked_released_folder_is_named_and_a_missing_or_plain_file_one_skipped(tmp_path):
    root = str(tmp_path / "r")
    _put(str(tmp_path), "elsewhere/x.json", b"x")
    os.makedirs(root)
    os.symlink(str(tmp_path / "elsewhere"), os.path.join(root, "reference_metrics"))
    assert walk_release(root) == ([], ["reference_metrics/"])
    _put(root, "data", b"a file, not a folder")
    assert walk_release(root) == ([], ["reference_metrics/"])
    os.remove(os.path.join(root, "data"))
    _put(root, "data/x/y", b"1")
    os.symlink(str(tmp_path / "elsewhere"), os.path.join(root, "data", "a"))
    os.symlink(str(tmp_path / "elsewhere"), os.path.join(root, "data", "x", "b"))
    assert walk_release(root) == (["data/x/y"], ["data/a/", "data/x/b/", "reference_metrics/"])
    assert released_files_on_disk(root) == ["data/x/y"]


# -- check_listed_file and verify_files


def test_check_listed_file_reports_missing_not_regular_and_wrong_role(tmp_path):
    root = str(tmp_path)
    entry = _entry(QUERIES, QBYTES, "queries")
    missing = check_listed_file(root, entry)
    assert (missing.path, missing.role, missing.status, missing.reason, missing.sha256) == (
        QUERIES, "queries", "missing", "%s is listed in MANIFEST.json but absent" % QUERIES, None)
    os.makedirs(os.path.join(root, "data", "v1", "queries.jsonl"))
    folder = check_listed_file(root, entry)
    assert (folder.status, folder.reason, folder.sha256) == ("bad", "%s is not a regular file" % QUERIES, None)
    os.rmdir(os.path.join(root, "data", "v1", "queries.jsonl"))
    os.symlink("nowhere", os.path.join(root, "data", "v1", "queries.jsonl"))       # dangling: there, not a file
    dangling = check_listed_file(root, entry)
    assert (dangling.status, dangling.reason) == ("bad", "%s is not a regular file" % QUERIES)
    os.remove(os.path.join(root, "data", "v1", "queries.jsonl"))
    _put(root, QUERIES, QBYTES)
    wrong = check_listed_file(root, dict(entry, role="qrels"))
    assert (wrong.role, wrong.status, wrong.sha256) == ("qrels", "bad", None)
    assert wrong.reason == ("%s: MANIFEST.json gives it the role 'qrels', but the release layout declares "
                            "'queries'" % QUERIES)
    ok = check_listed_file(root, entry)
    assert (ok.path, ok.role, ok.status, ok.reason, ok.sha256) == (QUERIES, "queries", "ok", "", QHASH)


def test_check_listed_file_reports_a_size_other_than_the_manifest(tmp_path):
    root = str(tmp_path)
    _put(root, QUERIES, QBYTES)
    entry = dict(_entry(QUERIES, QBYTES, "queries"), bytes=len(QBYTES) - 1)
    bad = check_listed_file(root, entry)
    assert (bad.status, bad.sha256) == ("bad", QHASH)
    assert bad.reason == "%s: sha256 %s (13 bytes) differs from MANIFEST.json %s (12 bytes)" % (
        QUERIES, QHASH[:12], QHASH[:12])


def test_check_listed_file_turns_an_unreadable_file_into_bad(tmp_path, monkeypatch):
    root = str(tmp_path)
    _put(root, QUERIES, QBYTES)
    monkeypatch.setattr(inputs, "MAX_FILE_BYTES", 5)
    bad = check_listed_file(root, _entry(QUERIES, QBYTES, "queries"))
    assert (bad.status, bad.sha256) == ("bad", None)
    assert bad.reason == "%s: file of 13 bytes is larger than the 5-byte limit" % QUERIES
    assert verify_files(root, [QUERIES]) == [
        ("MANIFEST.json", "MANIFEST.json is unusable: MANIFEST.json: file is absent")]
    _release(root, [(QUERIES, QBYTES, "queries")])
    assert verify_files(root, [QUERIES]) == [(QUERIES, "%s: file of 13 bytes is larger than the 5-byte limit"
                                              % QUERIES)]


def test_verify_files_names_each_file_the_manifest_does_not_vouch_for(tmp_path):
    root = str(tmp_path)
    other = b"other\n"
    _release(root, [(QUERIES, QBYTES, "queries"), ("data/b.txt", other, "data"), ("data/c.txt", b"c", "data")])
    assert verify_files(root, [QUERIES, "data/b.txt"]) == []
    assert verify_files(root, []) == []
    os.remove(os.path.join(root, "data", "c.txt"))
    _put(root, "data/b.txt", b"OTHER\n")
    bhash = hashlib.sha256(other).hexdigest()
    nhash = hashlib.sha256(b"OTHER\n").hexdigest()
    os.makedirs(os.path.join(root, "data", "d"))
    assert verify_files(root, ["data/x", QUERIES, "data/c.txt", "data/b.txt"]) == [
        ("data/x", "data/x is not listed in MANIFEST.json"),
        ("data/c.txt", "data/c.txt is listed in MANIFEST.json but absent"),
        ("data/b.txt", "data/b.txt: sha256 %s (6 bytes) differs from MANIFEST.json %s (6 bytes)" % (
            nhash[:12], bhash[:12]))]
    _put(root, "data/b.txt", b"other")
    assert verify_files(root, ["data/b.txt"]) == [
        ("data/b.txt", "data/b.txt: sha256 %s (5 bytes) differs from MANIFEST.json %s (6 bytes)" % (
            hashlib.sha256(b"other").hexdigest()[:12], bhash[:12]))]
    _manifest(root, {"manifest_schema": "x", "files": []})
    assert verify_files(root, [QUERIES]) == [("MANIFEST.json", "MANIFEST.json is unusable: MANIFEST.json: field "
                                              "'manifest_schema': expected 'nclue.manifest/1'")]


def test_verify_files_takes_a_listed_folder_for_an_absent_file(tmp_path):
    root = str(tmp_path)
    _manifest(root, {"files": [{"path": "data/d", "bytes": 0, "sha256": H0, "role": "data"}]})
    os.makedirs(os.path.join(root, "data", "d"))
    assert verify_files(root, ["data/d"]) == [("data/d", "data/d is listed in MANIFEST.json but absent")]


def test_verify_files_checks_the_size_when_the_hash_agrees(tmp_path):
    root = str(tmp_path)
    _put(root, "data/a", b"abc")
    _manifest(root, {"files": [dict(_entry("data/a", b"abc", "data"), bytes=4)]})
    h = hashlib.sha256(b"abc").hexdigest()[:12]
    assert verify_files(root, ["data/a"]) == [
        ("data/a", "data/a: sha256 %s (3 bytes) differs from MANIFEST.json %s (4 bytes)" % (h, h))]


# -- sums_problems


def test_sums_problems_names_every_disagreement(tmp_path):
    """Each kind of disagreement once, in path order (the manifest's own hash first), and the number of lines."""
    root = str(tmp_path)
    mhash = _release(root, [("data/a", b"a", "data"), ("data/b", b"b", "data")])
    manifest = load_manifest(root)
    assert sums_problems(root, manifest) == ([], 3)
    ahash = hashlib.sha256(b"a").hexdigest()
    _sums(root, "%s  data/a\n%s  data/z\n%s  data/y\n%s  MANIFEST.json\n" % (H1, H0, H0, H0))
    assert sums_problems(root, manifest) == ([
        "MANIFEST.json hash differs from SHA256SUMS",
        "data/a: SHA256SUMS and MANIFEST.json disagree",
        "data/y is in SHA256SUMS but not in MANIFEST.json",
        "data/z is in SHA256SUMS but not in MANIFEST.json",
        "data/b is in MANIFEST.json but not in SHA256SUMS"], 4)
    _sums(root, "%s  data/a\n%s  data/b\n" % (ahash, hashlib.sha256(b"b").hexdigest()))
    assert sums_problems(root, manifest) == (["SHA256SUMS does not cover MANIFEST.json"], 2)
    _sums(root, "%s  data/a\n%s  MANIFEST.json\n" % (H1, mhash.upper()))
    assert sums_problems(root, None) == ([], 2)       # no usable manifest: only its own hash is compared
    _sums(root, "%s  data/a\n%s  MANIFEST.json\n" % (H1, H0))
    assert sums_problems(root, None) == (["MANIFEST.json hash differs from SHA256SUMS"], 2)
    os.remove(os.path.join(root, "MANIFEST.json"))
    assert sums_problems(root, None) == ([], 2)      # an absent manifest is the manifest stage's to report
    _sums(root, "")
    assert sums_problems(root, None) == (["SHA256SUMS does not cover MANIFEST.json"], 0)
    _sums(root, "x")
    assert _raises(sums_problems, root, None) == "SHA256SUMS:1: last line has no newline (truncated file?)"


# -- check (the stages together) and write_manifest


def test_check_passes_a_consistent_release_and_says_what_it_counted(tmp_path):
    root = str(tmp_path)
    _release(root, [(QUERIES, QBYTES, "queries"), (released("claims", "m.json"), b"{}", "frozen-claims")],
             extra={"synthetic": True})
    seen = []
    result = check(root, on_manifest=seen.append)
    assert seen == [result.manifest] and result.manifest == load_manifest(root)
    assert result.problems == [
        ("integrity.manifest", "pass", "2 files listed, synthetic=True"),
        ("integrity.sha256sums", "pass", "3 lines agree with MANIFEST.json"),
        ("integrity.unlisted", "pass", "no unlisted file under data/ or reference_metrics/")]
    assert sorted(result.files) == [QUERIES, released("claims", "m.json")]
    assert [(c.status, c.sha256) for c in result.files.values()] == [("ok", QHASH),
                                                                     ("ok", hashlib.sha256(b"{}").hexdigest())]
    assert result.unlisted == [] and result.status(QUERIES) == "ok"
    _manifest(root, {"files": []})
    _sums(root, "")
    assert check(root).problems[0] == ("integrity.manifest", "pass", "0 files listed, synthetic=None")


def test_check_records_an_unusable_manifest_and_still_checks_the_rest(tmp_path):
    root = str(tmp_path)
    _put(root, "data/x", b"x")
    seen = []
    result = check(root, on_manifest=seen.append)
    assert seen == [None] and result.manifest is None and result.files == {}
    assert result.problems == [
        ("integrity.manifest", "fail", "MANIFEST.json: MANIFEST.json: file is absent"),
        ("integrity.sha256sums", "fail", "SHA256SUMS: file is absent")]
    assert result.unlisted == ["data/x"]
    _manifest(root, {"files": "x"})
    _sums(root, "%s  MANIFEST.json\n" % H0)
    result = check(root)
    assert result.problems == [
        ("integrity.manifest", "fail", "MANIFEST.json: field 'files': must be a list"),
        ("integrity.sha256sums", "fail", "MANIFEST.json hash differs from SHA256SUMS")]


def test_check_lists_five_problems_and_counts_the_rest(tmp_path):
    """Six files missing from SHA256SUMS: five named, then "... 6 in all"; five: all named, no count."""
    root = str(tmp_path)
    names = ["data/f%d" % i for i in range(6)]
    mhash = _release(root, [(n, n.encode(), "data") for n in names])
    listed = check(root)
    assert [c.status for c in listed.files.values()] == ["ok"] * 6
    _sums(root, "%s  MANIFEST.json\n" % mhash)
    text = "; ".join("%s is in MANIFEST.json but not in SHA256SUMS" % n for n in names[:5])
    assert check(root).problems[1] == ("integrity.sha256sums", "fail", text + "; ... 6 in all")
    _sums(root, "%s  MANIFEST.json\n%s  data/f5\n" % (mhash, hashlib.sha256(b"data/f5").hexdigest()))
    assert check(root).problems[1] == ("integrity.sha256sums", "fail", text)


def test_check_names_unlisted_files_five_at_most(tmp_path):
    root = str(tmp_path)
    _release(root, [(QUERIES, QBYTES, "queries")])
    extra = ["data/u%d" % i for i in range(5)]
    for rel in extra:
        _put(root, rel, b"u")
    result = check(root)
    assert result.unlisted == extra
    assert result.problems[2] == ("integrity.unlisted", "fail", "files present but not in MANIFEST.json: " +
                                  ", ".join(extra))
    _put(root, "data/u5", b"u")
    _put(str(tmp_path), "elsewhere/x", b"x")
    os.symlink(str(tmp_path / "elsewhere"), os.path.join(root, "data", "linked"))
    result = check(root)
    assert result.unlisted == extra + ["data/u5", "data/linked/ (symlinked directory, not followed)"]
    assert result.problems[2] == ("integrity.unlisted", "fail", "files present but not in MANIFEST.json: " +
                                  ", ".join(extra) + " ... (7 in all)")


def test_check_without_a_manifest_records_unlisted_files_but_no_unlisted_problem(tmp_path):
    root = str(tmp_path)
    _put(root, "data/x", b"x")
    _manifest(root, {"manifest_schema": "x"})
    result = check(root)
    assert result.unlisted == ["data/x"]
    assert [p[0] for p in result.problems] == ["integrity.manifest", "integrity.sha256sums"]


def test_check_records_each_listed_file(tmp_path):
    root = str(tmp_path)
    _release(root, [(QUERIES, QBYTES, "queries"), ("data/b", b"b", "data")])
    os.remove(os.path.join(root, "data", "b"))
    result = check(root)
    assert result.status(QUERIES) == "ok" and result.status("data/b") == "missing"
    assert result.reason("data/b") == "data/b is listed in MANIFEST.json but absent"


def test_write_manifest_writes_both_files_exactly(tmp_path):
    root = str(tmp_path)
    _put(root, "data/b", b"bb")
    _put(root, QUERIES, QBYTES)
    manifest = write_manifest(root, [("data/b", "data"), (QUERIES, "queries")],
                              {"synthetic": True, "manifest_schema": "old", "files": "old"})
    entries = [{"path": "data/b", "bytes": 2, "sha256": hashlib.sha256(b"bb").hexdigest(), "role": "data"},
               {"path": QUERIES, "bytes": 13, "sha256": QHASH, "role": "queries"}]
    assert manifest == {"synthetic": True, "manifest_schema": SCHEMA, "files": entries}
    with open(os.path.join(root, "MANIFEST.json"), "rb") as fh:
        written = fh.read()
    assert written == (json.dumps(manifest, sort_keys=True, ensure_ascii=False, indent=1) + "\n").encode()
    with open(os.path.join(root, "SHA256SUMS"), "rb") as fh:
        sums = fh.read().decode()
    assert sums == "%s  MANIFEST.json\n%s  data/b\n%s  %s\n" % (
        hashlib.sha256(written).hexdigest(), entries[0]["sha256"], QHASH, QUERIES)
    assert check(root).problems[1] == ("integrity.sha256sums", "pass", "3 lines agree with MANIFEST.json")


def test_write_manifest_sorts_entries_by_path_and_keeps_the_info(tmp_path):
    root = str(tmp_path)
    for name in ("data/c", "data/a", "data/B"):
        _put(root, name, name.encode())
    info = {"generator": "g"}
    manifest = write_manifest(root, [("data/c", "data"), ("data/a", "data"), ("data/B", "data")], info)
    assert [e["path"] for e in manifest["files"]] == ["data/B", "data/a", "data/c"]
    assert info == {"generator": "g"} and manifest["generator"] == "g"
    with open(os.path.join(root, "SHA256SUMS")) as fh:
        assert [line.split("  ")[1] for line in fh.read().splitlines()] == [
            "MANIFEST.json", "data/B", "data/a", "data/c"]


def test_the_module_constants():
    assert (integrity.MANIFEST, integrity.SUMS, integrity.MANIFEST_SCHEMA) == ("MANIFEST.json", "SHA256SUMS", SCHEMA)
    assert integrity.ANCHORS == ("MANIFEST.json", "SHA256SUMS")
    assert integrity.RELEASED_DIRS == ("data", "reference_metrics")


# -- the survivors of the first mutmut run, each killed by hand


def test_crlf_is_named_at_its_first_line(tmp_path):
    root = str(tmp_path)
    _sums(root, "%s  data/a\n%s  data/b\r\n%s  data/c\r\n" % (H0, H0, H0))
    assert _raises(parse_sums, root) == "SHA256SUMS:2: has CRLF line ends; sha256sum -c expects \\n"


def test_a_linked_data_folder_does_not_stop_the_walk(tmp_path):
    root = str(tmp_path / "r")
    _put(str(tmp_path), "elsewhere/x.json", b"x")
    _put(root, released("claims", "m.json"), b"m")
    os.symlink(str(tmp_path / "elsewhere"), os.path.join(root, "data"))
    assert walk_release(root) == ([released("claims", "m.json")], ["data/"])


def test_the_walk_prunes_only_the_links_of_the_release_not_of_the_working_folder(tmp_path, monkeypatch):
    """A link named like a release folder in the current folder has no bearing on the walk of ``root``."""
    root = str(tmp_path / "r")
    _put(root, "data/v1/x.json", b"x")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    os.symlink(str(tmp_path), str(cwd / "v1"))
    monkeypatch.chdir(str(cwd))
    assert walk_release(root) == (["data/v1/x.json"], [])


def test_every_bad_file_check_keeps_its_path_and_role(tmp_path, monkeypatch):
    root = str(tmp_path)
    entry = _entry(QUERIES, QBYTES, "queries")
    os.makedirs(os.path.join(root, "data", "v1", "queries.jsonl"))
    checks = [check_listed_file(root, entry)]                                  # not a regular file
    os.rmdir(os.path.join(root, "data", "v1", "queries.jsonl"))
    _put(root, QUERIES, QBYTES)
    checks.append(check_listed_file(root, dict(entry, role="qrels")))           # another role
    checks.append(check_listed_file(root, dict(entry, bytes=1)))                # another size
    monkeypatch.setattr(inputs, "MAX_FILE_BYTES", 5)
    checks.append(check_listed_file(root, entry))                              # unreadable
    assert [(c.path, c.role, c.status) for c in checks] == [
        (QUERIES, "queries", "bad"), (QUERIES, "qrels", "bad"), (QUERIES, "queries", "bad"),
        (QUERIES, "queries", "bad")]


def test_an_unreadable_manifest_is_named_by_its_release_path_in_the_sums_check(tmp_path, monkeypatch):
    root = str(tmp_path)
    mhash = _release(root, [("data/" + "a" * 200, b"a", "data")])
    _sums(root, "%s  MANIFEST.json\n" % mhash)
    size = os.path.getsize(os.path.join(root, "MANIFEST.json"))
    monkeypatch.setattr(inputs, "MAX_FILE_BYTES", 100)                     # SHA256SUMS fits, MANIFEST.json does not
    assert _raises(sums_problems, root, None) == (
        "MANIFEST.json: file of %d bytes is larger than the 100-byte limit" % size)


def test_six_unlisted_files_are_all_named_without_a_count(tmp_path):
    root = str(tmp_path)
    _release(root, [(QUERIES, QBYTES, "queries")])
    extra = ["data/u%d" % i for i in range(6)]
    for rel in extra:
        _put(root, rel, b"u")
    assert check(root).problems[2] == ("integrity.unlisted", "fail", "files present but not in MANIFEST.json: " +
                                       ", ".join(extra[:5]) + " ... (6 in all)")


def test_verify_files_goes_on_after_an_unreadable_file(tmp_path, monkeypatch):
    root = str(tmp_path)
    _release(root, [("data/a", b"123456", "data"), ("data/b", b"7890ab", "data")])
    monkeypatch.setattr(inputs, "MAX_FILE_BYTES", 5)
    assert verify_files(root, ["data/a", "data/b"]) == [
        ("data/a", "data/a: file of 6 bytes is larger than the 5-byte limit"),
        ("data/b", "data/b: file of 6 bytes is larger than the 5-byte limit")]


@pytest.mark.parametrize("blocked", ["MANIFEST.json", "SHA256SUMS"])
def test_write_manifest_names_the_file_it_cannot_write(tmp_path, blocked):
    root = str(tmp_path)
    _put(root, "data/a", b"a")
    os.makedirs(os.path.join(root, blocked))
    with pytest.raises(UsageError) as info:
        write_manifest(root, [("data/a", "data")], {})
    assert str(info.value) == "cannot write %s %r: it is a directory" % (blocked, os.path.join(root, blocked))
