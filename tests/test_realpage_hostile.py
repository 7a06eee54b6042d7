"""Hostile copies of RealPage (data/v3): each damage is named at file:line:field, or counted by the claim
it breaks, and a damaged release never exits 0 (docs/schema.md#realpage-datav3; v3.construction)."""

import json
import os

import pytest
from conftest import assert_run_fails_naming, read_rows, released, reproduce_report, write_rows

from nclue.analyses import REGISTRY
from nclue.core.errors import InputError
from nclue.core.instrument import Instrument


def _values(root):
    """``{claim id: value}`` of v3.construction computed on ``root`` (an InputError propagates)."""
    inst = Instrument(root)
    return {value.id: value.value for unit in REGISTRY["v3.construction"].units(inst) for value in unit.compute()}


def _path(root, name):
    return os.path.join(root, "data", "v3", name)


def _edit(root, name, change):
    rows = read_rows(_path(root, name))
    change(rows)
    write_rows(_path(root, name), rows)


def test_the_shipped_v3_verifies(release_copy):
    values = _values(release_copy)
    assert values["v3.construction.rederived_qrel_differences"] == 0
    assert values["v3.construction.gate_violations"] == 0 and values["v3.construction.nature_disagreements"] == 0
    assert values["v3.table1.queries"] == 1000 and values["v3.table1.queries_n2"] == 814
    build = json.load(open(os.path.join(release_copy, "data", "v3", "build.json"), encoding="utf-8"))
    assert values["v3.construction.page_hashes"] == values["v3.table1.pages"] == build["counts"]["pages"] > 40000


def _set(index, field, value):
    def change(rows):
        rows[index][field] = value
    return change


@pytest.mark.parametrize("name,change,expected", [
    ("corpus.jsonl", _set(1, "page_sha256", ["0" * 64]),                  # rfc0017 has pages; rfc0013 one
     (released("v3", "corpus.jsonl") + ":2: field 'page_sha256': lists 1 hashes for")),
    ("corpus.jsonl", _set(1, "page_sha256", "abc"), (released("v3", "corpus.jsonl") + ":2: field 'page_sha256'")),
    ("corpus.jsonl", lambda rows: rows[2]["page_sha256"].__setitem__(0, "G" * 64),
     (released("v3", "corpus.jsonl") + ":3: field 'page_sha256[0]': must be 64 lower-case hex digits")),
    ("corpus.jsonl", lambda rows: rows[2]["page_sha256"].__setitem__(0, 12345),
     (released("v3", "corpus.jsonl") + ":3: field 'page_sha256[0]': must be 64 lower-case hex digits, got 12345")),
    ("corpus.jsonl", lambda rows: rows.append(dict(rows[0])), "duplicate document 'rfc"),
    ("inventory.jsonl", _set(0, "cid", "sec:no-such-condition"), (released("v3", "inventory.jsonl") + ":1: field 'cid': unknown condition")),
    ("inventory.jsonl", _set(0, "pages", [10 ** 6]), (released("v3", "inventory.jsonl") + ":1: field 'pages': page 1000000 outside")),
    ("queries.jsonl", _set(0, "n", 4), (released("v3", "queries.jsonl") + ":1: field 'n'")),
    ("qrels_construction.jsonl", _set(0, "qid", "realpage_9999"), (released("v3", "qrels_construction.jsonl") + ":1: field 'qid'")),
    ("qrels_construction.jsonl", lambda rows: rows.append(dict(rows[0])), "duplicate qrel"),
    ("conditions.jsonl", _set(0, "label", "<doc>"), (released("v3", "conditions.jsonl") + ":1: field 'label': contains TREC markup")),
], ids=["hash count", "hashes not a list", "hash not hex", "hash a number", "duplicate document", "unknown condition",
        "page outside", "n out of range", "unknown query", "duplicate qrel", "markup in a label"])
def test_a_damaged_record_is_named_at_file_line_field(release_copy, name, change, expected):
    _edit(release_copy, name, change)
    with pytest.raises(InputError) as caught:
        _values(release_copy)
    assert expected in str(caught.value), str(caught.value)


@pytest.mark.parametrize("text,expected", [
    ('{"docid": "rfc0001", "pages": 3', (released("v3", "corpus.jsonl") + ":1")),
    ("[" * 5000 + "]" * 5000 + "\n", (released("v3", "corpus.jsonl") + ":1")),
    ("", (released("v3", "corpus.jsonl") + ": no documents")),
    ('{"docid": "rfc0001", "pages": 1e400, "source": "rfc", "synthetic": false, "page_sha256": []}\n',
     (released("v3", "corpus.jsonl") + ":1")),
], ids=["truncated", "deeply nested", "empty", "non-finite"])
def test_a_broken_corpus_file_is_named(release_copy, text, expected):
    with open(_path(release_copy, "corpus.jsonl"), "w", encoding="utf-8") as handle:
        handle.write(text)
    with pytest.raises(InputError) as caught:
        _values(release_copy)
    assert str(caught.value).startswith(expected), str(caught.value)


@pytest.mark.parametrize("value", ["88", None, 1.5, True, -1, 10 ** 9], ids=["string", "missing", "float", "bool",
                                                                              "negative", "huge"])
def test_a_bad_declared_gate_is_named(release_copy, value):
    path = _path(release_copy, "build.json")
    build = json.load(open(path, encoding="utf-8"))
    if value is None:
        del build["construction"]["max_union"]
    else:
        build["construction"]["max_union"] = value
    json.dump(build, open(path, "w", encoding="utf-8"))
    with pytest.raises(InputError, match=(released("v3", "build.json") + ": field 'construction.max_union': must be an integer")):
        _values(release_copy)


def test_a_changed_grade_and_a_tightened_gate_are_counted(release_copy):
    def lower_a_gold(rows):
        gold = next(r for r in rows if r["grade"] == 2 and r["qid"] == rows[0]["qid"])
        gold["grade"] = 1
    _edit(release_copy, "qrels_construction.jsonl", lower_a_gold)
    path = _path(release_copy, "build.json")
    build = json.load(open(path, encoding="utf-8"))
    build["construction"]["min_subsets"] = 30
    json.dump(build, open(path, "w", encoding="utf-8"))
    values = _values(release_copy)
    assert values["v3.construction.wrong_grade"] == 1 and values["v3.construction.rederived_qrel_differences"] >= 1
    assert values["v3.construction.gate_violations"] > 0


def test_a_row_that_says_synthetic_is_counted(release_copy):
    _edit(release_copy, "queries.jsonl", _set(3, "synthetic", True))
    path = _path(release_copy, "build.json")
    build = json.load(open(path, encoding="utf-8"))
    del build["synthetic"]
    json.dump(build, open(path, "w", encoding="utf-8"))
    assert _values(release_copy)["v3.construction.nature_disagreements"] == 2


def test_a_damaged_v3_fails_the_run_with_its_message_and_no_traceback(release_copy):
    _edit(release_copy, "corpus.jsonl", _set(1, "page_sha256", ["0" * 64]))
    assert_run_fails_naming(release_copy, "integrity,derivation", (released("v3", "corpus.jsonl") + ":2: field 'page_sha256'"))


def test_a_missing_v3_file_fails_and_a_delisted_one_is_found(release_copy):
    os.remove(_path(release_copy, "inventory.jsonl"))
    code, stdout, stderr, report, fails = reproduce_report(release_copy, "--only", "integrity")
    assert code == 1 and "Traceback" not in stdout + stderr
    assert any(released("v3", "inventory.jsonl") in check["reason"] for check in fails.values()), sorted(fails)[:5]


def test_deep_without_the_packages_carries_v3_over_and_names_what_is_missing(release_copy, tmp_path, monkeypatch):
    from nclue.run import rebuild

    monkeypatch.setenv("NCLUE_REALPAGE_PACKAGES", str(tmp_path / "no-packages"))
    listed = [released("v1", "corpus.jsonl"), released("v3", "corpus.jsonl"), released("v3", "build.json")]
    out = tmp_path / "rebuilt"
    checks, carried = rebuild._realpage(release_copy, str(out), listed, lambda *a: None)
    assert carried == {released("v3", "corpus.jsonl"), released("v3", "build.json")}
    assert [(c.status, c.id) for c in checks] == [("skip", ("rebuild:" + released("v3")))]
    assert "8 of the 8 pinned packages are not in %s (doc-rfc-experimental, doc-rfc-fyi-bcp" % (
        tmp_path / "no-packages") in checks[0].reason
    assert (out / "data" / "v3" / "corpus.jsonl").read_bytes() == open(
        os.path.join(release_copy, "data", "v3", "corpus.jsonl"), "rb").read()
    assert rebuild._realpage(release_copy, str(out), listed[:1], None) == ([], set())      # no v3: nothing to do


def test_deep_with_a_bad_v3_seed_fails_naming_it(release_copy, tmp_path, monkeypatch):
    from nclue.builder.realpage import packages
    from nclue.run import rebuild

    monkeypatch.setattr(packages, "missing", lambda folder: [])
    path = _path(release_copy, "build.json")
    build = json.load(open(path, encoding="utf-8"))
    build["seed"] = "twelve"
    json.dump(build, open(path, "w", encoding="utf-8"))
    checks, carried = rebuild._realpage(release_copy, str(tmp_path / "x"), [released("v3", "build.json")], None)
    assert [(c.status, c.id) for c in checks] == [("fail", ("rebuild:" + released("v3")))] and carried == set()
    assert (released("v3", "build.json") + ": seed 'twelve' is not a non-negative integer") in checks[0].reason


def _resign_inputs(root, rel):
    """Re-sign ``rel`` everywhere a run could notice the change by its hash alone: every claim's recorded input
    hash, then MANIFEST.json and SHA256SUMS, so that only a check of the records themselves can find it."""
    import hashlib

    from conftest import resign

    digest = hashlib.sha256(open(os.path.join(root, *rel.split("/")), "rb").read()).hexdigest()
    folder = os.path.join(root, "reference_metrics")
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if not name.endswith(".json"):
            continue
        doc = json.load(open(path, encoding="utf-8"))
        touched = False
        for claim in doc.get("claims", []):
            for entry in claim.get("inputs", []):
                if entry["path"] == rel:
                    entry["sha256"], touched = digest, True
        if touched:
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(doc, handle, indent=1, sort_keys=True)
                handle.write("\n")
    resign(root)


def test_a_removed_querys_rows_written_back_into_the_final_copy_fail_naming_it(release_copy):
    """Issue 58 item 1: rows of a query the audit dropped, appended back to data/v3/qrels.jsonl and re-signed
    everywhere (claims' input hashes, MANIFEST.json, SHA256SUMS): the final copy's re-derivation names it."""
    genealogy = json.load(open(_path(release_copy, "genealogy.json"), encoding="utf-8"))
    removed = sorted(next(c for c in genealogy["copies"] if c["copy"] == "final")["removed_queries"])[0]
    back = [r for r in read_rows(_path(release_copy, "qrels_construction.jsonl")) if r["qid"] == removed]
    assert back
    _edit(release_copy, "qrels.jsonl", lambda rows: rows.extend(back))
    _resign_inputs(release_copy, released("v3", "qrels.jsonl"))
    code, stdout, stderr, report, fails = reproduce_report(release_copy, "--only", "integrity,derivation")
    assert code == 1 and "Traceback" not in stdout + stderr
    assert any(("%s: in the final copy (" + released("v3", "qrels.jsonl") + ") but removed by the audit") % removed
               in (c["reason"] + (c.get("detail") or "")) for c in fails.values()), {
        k: (c["reason"], c.get("detail")) for k, c in sorted(fails.items())[:5]}


@pytest.mark.parametrize("name,index", [("qrels.jsonl", 2), ("qrels_construction.jsonl", 0), ("inventory.jsonl", 5)])
def test_a_record_row_that_says_synthetic_fails_naming_its_line(release_copy, name, index):
    """Issue 58 item 5: a row of a record file whose schema has no flag, given ``"synthetic": true`` and re-signed
    everywhere, fails the nature check at file:line; ``"synthetic": false`` there is accepted."""
    _edit(release_copy, name, _set(index, "synthetic", True))
    _resign_inputs(release_copy, (released("v3") + "/") + name)
    code, stdout, stderr, report, fails = reproduce_report(release_copy, "--only", "integrity,derivation")
    assert code == 1 and "Traceback" not in stdout + stderr
    expected = "data/v3/%s:%d: synthetic=true, expected false or absent" % (name, index + 1)
    assert any(expected in (c.get("detail") or "") + c["reason"] for c in fails.values()), sorted(fails)[:5]
    _edit(release_copy, name, _set(index, "synthetic", False))
    assert _values(release_copy)["v3.construction.nature_disagreements"] == 0


@pytest.mark.parametrize("path,value,named", [
    (("counts", "pages"), 40560, ("counts.pages states 40560, " + released("v3", "corpus.jsonl") + " gives 40559")),
    (("counts", "queries"), 999, ("counts.queries states 999, " + released("v3", "queries.jsonl") + " gives 1000")),
    (("rankings", "form_systems"), 12, ("rankings.form_systems states 12, " + released("v3", "systems.json") + " gives 21")),
    (("audit", "findings_by_evidence", "heading_only"), 49, ("heading_only states 49, " + released("v3", "audit.jsonl") + " gives 50")),
    (("counts", "qrel_rows"), "51915", 'counts.qrel_rows states "51915"'),
], ids=["pages", "queries", "form_systems", "evidence", "string"])
def test_a_count_build_json_states_wrongly_fails_naming_it(release_copy, path, value, named):
    """Issue 58 item 3: every count data/v3/build.json states that the records give is checked against them
    (re-signed everywhere, so that only the check of the records can find it)."""
    build_path = _path(release_copy, "build.json")
    build = json.load(open(build_path, encoding="utf-8"))
    node = build
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    _, fails = _rewrite_and_fail(release_copy, released("v3", "build.json"), build)
    assert any(named in (c.get("detail") or "") + c["reason"] for c in fails.values()), {
        k: c.get("detail") for k, c in sorted(fails.items())[:4]}


def _rewrite_and_fail(root, rel, document):
    """Write ``document`` as the JSON file ``rel`` (the release's own layout), re-sign it everywhere, run the
    integrity and derivation levels and assert they fail without a traceback; returns the run's standard output
    and its failing checks."""
    with open(os.path.join(root, *rel.split("/")), "w", encoding="utf-8") as handle:
        json.dump(document, handle, indent=1, sort_keys=True)
        handle.write("\n")
    _resign_inputs(root, rel)
    code, stdout, stderr, report, fails = reproduce_report(root, "--only", "integrity,derivation")
    assert code == 1 and "Traceback" not in stdout + stderr
    return stdout, fails


def _first_query_condition(root, release):
    query = read_rows(os.path.join(root, "data", release, "queries.jsonl"))[0]
    return query["conditions"][0]["cid"]


@pytest.mark.parametrize("release", ["v3", "v1", "v2"])
def test_a_label_changed_on_one_side_or_a_form_that_does_not_follow_fails_naming_it(release_copy, release):
    """Issue 58 item 2: a condition's label must agree wherever it is written (conditions.jsonl and each query
    that names the condition), and the forms must follow from the conditions as the builder renders them
    (RealPage: all three; the stand-in: clean and natural, its raw form's mined words being in no file)."""
    def rel(name):
        return "data/%s/%s" % (release, name)

    def edit(name, change):
        path = os.path.join(release_copy, "data", release, name)
        rows = read_rows(path)
        change(rows)
        write_rows(path, rows)
        _resign_inputs(release_copy, rel(name))

    def run():
        code, stdout, stderr, report, fails = reproduce_report(release_copy, "--only", "integrity,derivation")
        assert code == 1 and "Traceback" not in stdout + stderr
        return " | ".join((c.get("detail") or "") + " " + c["reason"] for c in fails.values())

    cid = _first_query_condition(release_copy, release)
    originals = {name: open(os.path.join(release_copy, "data", release, name), encoding="utf-8").read()
                 for name in ("conditions.jsonl", "queries.jsonl")}

    def restore():
        for name, text in originals.items():
            with open(os.path.join(release_copy, "data", release, name), "w", encoding="utf-8") as handle:
                handle.write(text)
            _resign_inputs(release_copy, rel(name))

    edit("conditions.jsonl", lambda rows: next(r for r in rows if r["cid"] == cid).__setitem__("label", "Changed"))
    assert "%s:1: field 'conditions[0].label': is" % rel("queries.jsonl") in run()
    restore()
    edit("queries.jsonl", lambda rows: rows[0]["conditions"][0].__setitem__("label", "Changed"))
    assert "%s:1: field 'conditions[0].label': is 'Changed' but the catalog says" % rel("queries.jsonl") in run()
    restore()
    form = "raw" if release == "v3" else "natural"
    edit("queries.jsonl", lambda rows: rows[0]["forms"].__setitem__(form, rows[0]["forms"][form] + " extra"))
    assert "forms.%s is" % form in run()


@pytest.mark.parametrize("change,named", [
    (lambda m: m["releases"].remove(released("v3")), ("field 'natures': names " + released("v1") + ", " + released("v2") + ", " + released("v3") + ", but releases lists")),
    (lambda m: (m["releases"].remove(released("v3")), m["natures"].pop(released("v3"))), ("a file of " + released("v3") + ", which releases")),
    (lambda m: m["releases"].append(released("v1")), ("field 'releases[3]': release '" + released("v1") + "' listed twice")),
    (lambda m: m["releases"].append("data/v9"), "field 'releases[3]': unknown release 'data/v9'"),
    (lambda m: m.__setitem__("natures", ["real"]), "field 'natures': must be an object"),
], ids=["natures-disagree", "files-disagree", "twice", "unknown", "natures-type"])
def test_manifest_fields_that_disagree_with_each_other_or_the_files_fail(release_copy, change, named):
    """Issue 58 item 4: MANIFEST.json's releases, natures and files must agree (the manifest is the signed
    index: its SHA256SUMS line follows it here, so only the check of its fields can find the damage)."""
    import hashlib

    path = os.path.join(release_copy, "MANIFEST.json")
    manifest = json.load(open(path, encoding="utf-8"))
    change(manifest)
    text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    sums = os.path.join(release_copy, "SHA256SUMS")
    lines = [line for line in open(sums, encoding="utf-8").read().splitlines()]
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    lines = [("%s  MANIFEST.json" % digest) if line.endswith(" MANIFEST.json") else line for line in lines]
    with open(sums, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    code, stdout, stderr, report, fails = reproduce_report(release_copy, "--only", "integrity")
    assert code == 1 and "Traceback" not in stdout + stderr
    assert any(named in c["reason"] + (c.get("detail") or "") for c in fails.values()), {
        k: c["reason"][:200] for k, c in sorted(fails.items())[:3]}


def test_swapped_crosswalk_stand_ins_fail_naming_the_crosswalk_file(release_copy):
    """Issue 58 item 11: the stand-ins of two system rows of data/crosswalk.json swapped (re-signed everywhere):
    the run fails and the failing check's text names the file a reader must open, not only a claim id."""
    path = os.path.join(release_copy, "data", "crosswalk.json")
    crosswalk = json.load(open(path, encoding="utf-8"))
    rows = [r for r in crosswalk["rows"] if r["namespace"] == "system" and r["stand_in"]]
    rows[0]["stand_in"], rows[2]["stand_in"] = rows[2]["stand_in"], rows[0]["stand_in"]
    stdout, fails = _rewrite_and_fail(release_copy, released("data", "crosswalk.json"), crosswalk)
    mismatch = fails["v1.crosswalk.role_mismatches"]
    assert ("-- " + released("data", "crosswalk.json") + " (row system / ") in mismatch["reason"], mismatch
    assert any(line.strip().startswith("FAIL v1.crosswalk") and released("data", "crosswalk.json") in line
               for line in stdout.splitlines()), \
        [line for line in stdout.splitlines() if "FAIL" in line][:3]
