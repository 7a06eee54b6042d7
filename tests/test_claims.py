"""Claims as data (docs/claims.md): the comparison rules at their boundaries, and a claim file checked like
any other input -- its inputs named and equal to what its analysis reads, its level its analysis's, its
hashes compared, its manifest role the layout's, its ids unique."""

import json
import os

import pytest
from conftest import REPO, released, resign

from nclue.core.errors import InputError
from nclue.run.claims import compare, load_claim_file
from nclue.run.runner import run


def test_abs_tolerance_boundaries():
    assert compare("abs:0.001", 1.0, 1.0)[0]
    assert compare("abs:0.001", 1.0005, 1.0)[0]
    assert compare("abs:0.001", 1.0, 0.9995)[0]
    assert not compare("abs:0.001", 1.0015, 1.0)[0]           # a tolerance ten times looser would accept it
    assert not compare("abs:0.001", 1.002, 1.0)[0]
    assert compare("abs:1e-9", 0.1 + 0.2, 0.3)[0] and not compare("abs:1e-9", 0.3 + 2e-9, 0.3)[0]
    assert not compare("abs:0", 1.0, 1.0 + 2 ** -52)[0] and compare("abs:0", 1.0, 1.0)[0]


def test_exact_and_display_rules():
    assert compare("exact", [1, 2], [1, 2])[0] and not compare("exact", [1, 2], [1, 2.0])[0]
    assert not compare("exact", True, 1)[0]
    assert compare("display:1", 26.75, 26.8)[0] and not compare("display:1", 26.7499, 26.8)[0]


def _claims(root, name):
    path = os.path.join(root, "reference_metrics", name)
    return path, json.load(open(path, encoding="utf-8"))


def _write(path, doc):
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(doc, indent=1, sort_keys=True) + "\n")


@pytest.mark.parametrize("edit,message", [
    (lambda d: d["claims"][0].update(inputs=[]), "names no input"),
    (lambda d: d["claims"][0].update(inputs=released("v1", "qrels.jsonl")),
     "field 'claims[0].inputs': must be a list of {path, sha256}"),
    (lambda d: d["claims"][0]["inputs"].append(released("v1", "qrels.jsonl")), "must be a list of {path, sha256}"),
    (lambda d: d["claims"][0]["inputs"].append({"path": "x"}), "must be a list of {path, sha256}"),
    (lambda d: d["claims"][0]["inputs"].append({"path": 3, "sha256": "0" * 64}), "must be a list of {path, sha256}"),
    (lambda d: d["claims"][0]["inputs"].append({"path": "x", "sha256": None}), "must be a list of {path, sha256}"),
    (lambda d: d["claims"][0]["inputs"].append({"sha256": "0" * 64}), "must be a list of {path, sha256}"),
    (lambda d: d["claims"][0]["inputs"].append(dict(d["claims"][0]["inputs"][0])), "lists an input twice"),
    (lambda d: d["claims"][0].update(level="paper"), "is at level 'paper' but the file's level"),
    (lambda d: d.update(level="paper"), "is at level"),
    (lambda d: d.update(analysis="v1.scorecard"), ("whose file is " + released("claims", "v1.scorecard.json"))),
])
def test_a_claim_file_is_checked_as_data(mini_root, edit, message):
    path, doc = _claims(mini_root, "v1.matrix.json")
    edit(doc)
    with pytest.raises(InputError) as info:
        load_claim_file(mini_root, released("claims", "v1.matrix.json"), doc)
    assert message in str(info.value) and str(info.value).startswith(released("claims", "v1.matrix.json"))


def test_a_claim_frozen_from_other_inputs_fails(mini_copy):
    """The qrels input of a claim swapped for another file, with that file's real hash (re-signed): the claim
    is not frozen from what its analysis reads."""
    path, doc = _claims(mini_copy, "v1.matrix.json")
    hashes = json.load(open(os.path.join(mini_copy, "MANIFEST.json"), encoding="utf-8"))["files"]
    by_path = {f["path"]: f["sha256"] for f in hashes}
    for c in doc["claims"]:
        for item in c["inputs"]:
            if item["path"] == released("v1", "qrels.jsonl"):
                item["path"], item["sha256"] = released("v1", "inventory.jsonl"), by_path[released("v1", "inventory.jsonl")]
        c["inputs"].sort(key=lambda x: x["path"])
    _write(path, doc)
    resign(mini_copy)
    fails = {c.id: c for c in run(mini_copy, levels=("integrity", "scoring")).checks if c.status == "fail"}
    reason = fails["v1.matrix.bm25_and.nclue_score_at_10"].reason
    assert "not the files its analysis reads" in reason and (released("v1") + "/") in reason


def test_an_input_whose_bytes_changed_fails_even_when_its_values_do_not(mini_copy):
    """A ranking rewritten with the same rows in another key order: every value recomputes the same, only the
    frozen input hash tells the file changed -- and it must."""
    rel = released("v1", "rankings/bm25_or.jsonl")
    path = os.path.join(mini_copy, *rel.split("/"))
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for r in rows:
            fh.write(json.dumps({k: r[k] for k in sorted(r, reverse=True)}) + "\n")
    resign(mini_copy)                                    # the manifest vouches for the new bytes; the claims do not
    fails = {c.id: c for c in run(mini_copy, levels=("integrity", "scoring")).checks if c.status == "fail"}
    reason = fails["v1.matrix.bm25_or.nclue_score_at_10"].reason
    assert "frozen from a different %s" % rel in reason and "value still agrees" in reason


def test_a_manifest_role_other_than_the_layouts_fails(mini_copy):
    from nclue.core import integrity
    path = os.path.join(mini_copy, "MANIFEST.json")
    doc = json.load(open(path, encoding="utf-8"))
    for f in doc["files"]:
        if f["path"] == released("claims", "v1.matrix.json"):
            f["role"] = "data"
    info = {k: v for k, v in doc.items() if k not in ("files", "manifest_schema")}
    integrity.write_manifest(mini_copy, [(f["path"], f["role"]) for f in doc["files"]], info)
    result = run(mini_copy, levels=("integrity",))
    fails = {c.id: c for c in result.checks if c.status == "fail"}
    assert "the release layout declares 'frozen-claims'" in fails[
        ("integrity.file:" + released("claims", "v1.matrix.json"))].reason


def test_a_claim_id_frozen_in_two_files_fails(mini_copy):
    path, doc = _claims(mini_copy, "v1.matrix.json")
    other_path, other = _claims(mini_copy, "v1.scorecard.json")
    other["claims"].append(dict(doc["claims"][0], level=other["level"]))
    _write(other_path, other)
    resign(mini_copy)
    fails = {c.id: c for c in run(mini_copy, levels=("integrity", "scoring")).checks if c.status == "fail"}
    assert "claims.unique_ids" in fails and doc["claims"][0]["id"] in fails["claims.unique_ids"].reason


def test_a_registered_analysis_of_any_name_must_have_its_claims_file(release_copy, monkeypatch):
    """Registering an analysis is its module's ANALYSES alone, and its release part comes with it: an analysis
    named outside the known prefixes declares its part, and a present part without that analysis's claims
    file fails (the shape check), whatever the name."""
    import pytest as _pytest

    from nclue.analyses import REGISTRY
    from nclue.analyses.base import Analysis, Unit, Value
    from nclue.core import layout
    from nclue.core.claim_ids import ClaimId
    from nclue.run.runner import run

    with _pytest.raises(ValueError, match="name it with part="):
        Analysis("zz.extra", "scoring", "a test", lambda inst: [])
    with _pytest.raises(ValueError, match="no claim-id template names it"):
        Analysis("zz.extra", "scoring", "a test", lambda inst: [], part="v1")
    extra = Analysis("zz.extra", "scoring", "a test", lambda inst: [
        Unit("one", [layout.QUERIES], lambda: [Value("zz.extra.one", 1, source="a test")])], part="v1",
        claims=[ClaimId("zz.extra.{statistic}", "zz.extra")])
    monkeypatch.setitem(REGISTRY, extra.name, extra)
    result = run(release_copy, levels=("integrity",))
    fails = {c.id: c for c in result.checks if c.status == "fail"}
    assert ("claims:" + released("claims", "zz.extra.json")) in fails, sorted(fails)[:5]
    assert "release part v1 is present and analysis zz.extra has 1 units" in \
        fails[("claims:" + released("claims", "zz.extra.json"))].reason


def test_every_analysis_module_declares_its_analyses():
    """The registry is discovered from the package: every module but the shared pieces declares ANALYSES."""
    import pkgutil

    import nclue.analyses as package
    from nclue.analyses import REGISTRY, SHARED

    modules = [m.name for m in pkgutil.iter_modules(package.__path__) if m.name not in SHARED]
    assert len(modules) >= 13
    assert len(REGISTRY) == sum(len(__import__("nclue.analyses." + m, fromlist=["x"]).ANALYSES) for m in modules)


def test_the_file_at_fault_is_read_from_the_failure_record_never_from_its_message(monkeypatch):
    """A failure's cause is the released path its record carries (an input error's file, line and field), so a
    message that merely starts like a path is not taken for one, and a record's path counts whatever the text."""
    from nclue.core.errors import InputError
    from nclue.run.guard import attempt
    from nclue.run.runner import State, _cause

    def bad():
        raise InputError(released("v1", "qrels.jsonl"), "must be an integer", line=3, field="grade")

    ok, failure = attempt("reading", bad)
    assert not ok and (failure.path, failure.line, failure.field) == (released("v1", "qrels.jsonl"), 3, "grade")
    assert failure == (released("v1", "qrels.jsonl") + ":3: field 'grade': must be an integer") and _cause(failure) == failure.path
    monkeypatch.delenv("NCLUE_RAISE_DEFECTS")            # a defect becomes a failure, as in a user's run
    ok, failure = attempt("reading", lambda: (_ for _ in ()).throw(ValueError((released("v1", "qrels.jsonl") + ": looks like a path"))))
    assert not ok and failure.path is None and _cause(failure) is None and "harness defect" in failure
    state = State("fail", "why", released("v1", "qrels.jsonl"))
    assert (state.status, state.reason, state.cause) == ("fail", "why", released("v1", "qrels.jsonl"))


CONSISTENCY_COUNTS = ("mismatches", "disagreements", "differences", "problems")


def test_no_consistency_count_of_the_shipped_release_is_frozen_above_zero():
    """A count of disagreements between two records of the release (the stats file and the records, the
    transcription and a paper column, a re-derived qrel copy and the released one) is frozen at 0: freeze
    records what the code computes, so a release whose records disagree would otherwise freeze the
    disagreement as its truth and pass."""
    import glob
    frozen = {}
    for path in glob.glob(os.path.join(REPO, "reference_metrics", "*.json")):
        for claim in json.load(open(path, encoding="utf-8"))["claims"]:
            if claim["id"].endswith(CONSISTENCY_COUNTS):
                frozen[claim["id"]] = claim["value"]
    assert len(frozen) >= 40
    assert {cid: v for cid, v in frozen.items() if v != 0} == {}


def test_a_claims_file_says_synthetic_exactly_when_a_claim_reads_a_synthetic_release():
    """A claims file's ``synthetic`` flag and note follow the natures of the releases its claims read: RealPage's
    files (data/v3 only) say real, the stand-in's say synthetic, a file reading both says both."""
    from nclue.run.claims import claim_natures

    seen = {}
    folder = os.path.join(REPO, "reference_metrics")
    for name in sorted(n for n in os.listdir(folder) if n.endswith(".json")):
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            doc = json.load(handle)
        natures = claim_natures(i["path"] for c in doc["claims"] for i in c["inputs"])
        assert doc["synthetic"] is (natures != {"real"}), name       # no release read: the stand-in's
        assert ("RealPage" in doc["note"]) is ("real" in natures), name
        seen[name] = doc["synthetic"]
    assert seen["v3.matrix.json"] is False and seen["v3.replication.json"] is False
    assert seen["v1.matrix.json"] is True and seen["audit.impact.json"] is True
    assert claim_natures([released("v1", "qrels.jsonl"), "provenance/x.json"]) == {"synthetic"}
    assert claim_natures([released("data", "crosswalk.json")]) == set()
