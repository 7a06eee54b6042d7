"""SourceShift's pre-gate OCR record, data/v2/provenance/ocr_gate.json (docs/schema.md#provenanceocr_gatejson):
worked values, every hostile variant named at its field, the record against the corpus, the claims re-derived from
the shipped file with separate code, and a damaged or missing record that never lets a run exit 0."""

import json
import os
from fractions import Fraction

import pytest
from conftest import REPO, reproduce_report

from nclue.core import layout, ocr_gate
from nclue.core.errors import InputError

REL = layout.SOURCESHIFT.ocr_gate


def _record(**top):
    doc = {"gate_percent": 98, "sources": [
        {"source": "a", "label": "A", "pdfs": 2, "pages": 100, "pages_passed": 98, "retained": True},
        {"source": "b", "label": "B", "pdfs": 2, "pages": 50, "pages_passed": 48, "retained": False}]}
    doc.update(top)
    return doc


def _write(root, doc=None, text=None):
    path = os.path.join(root, *REL.split("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text if text is not None else json.dumps(doc))
    return path


def test_the_gate_by_hand_at_its_boundary(tmp_path):
    """98/100 pages is exactly the 98% gate (passes); 48/50 = 96% fails; the totals by hand."""
    _write(str(tmp_path), _record())
    record = ocr_gate.load(str(tmp_path), REL)
    assert [s.pass_percent for s in record.sources] == [Fraction(98), Fraction(96)]
    assert (record.pdfs, record.pages, record.pages_passed, record.failing) == (4, 150, 146, ("b",))
    assert record.pass_percent == Fraction(14600, 150) and record.gate_percent == 98


def _source(i, **fields):
    def change(doc):
        doc["sources"][i].update(fields)
        return doc
    return change


def _drop(i, field):
    def change(doc):
        del doc["sources"][i][field]
        return doc
    return change


HOSTILE = [
    ("truncated", None, '{"gate_percent": 98, "sources": [', "invalid JSON"),
    ("not an object", None, "[1, 2]", "top-level value must be a JSON object"),
    ("nested", None, "[" * 5000 + "]" * 5000, "nested deeper"),
    ("NaN gate", None, '{"gate_percent": NaN, "sources": []}', "invalid JSON"),
    ("gate string", lambda d: dict(d, gate_percent="98"), None, "field 'gate_percent': must be a finite number"),
    ("gate zero", lambda d: dict(d, gate_percent=0), None, "field 'gate_percent': must be a percentage in (0, 100]"),
    ("gate above 100", lambda d: dict(d, gate_percent=101), None,
     "field 'gate_percent': must be a percentage in (0, 100]"),
    ("huge gate", lambda d: dict(d, gate_percent=10 ** 400), None,
     "field 'gate_percent': must be a finite number"),
    ("no sources", lambda d: {"gate_percent": 98}, None, "field 'sources': missing"),
    ("empty sources", lambda d: dict(d, sources=[]), None, "field 'sources': must list at least one source"),
    ("sources not a list", lambda d: dict(d, sources={"a": 1}), None, "field 'sources': must be a list"),
    ("entry not an object", lambda d: dict(d, sources=[3]), None, "field 'sources[0]': must be an object"),
    ("duplicate source", _source(1, source="a"), None, "sources[1]: field 'source': duplicate source 'a'"),
    ("empty source", _source(0, source=""), None, "sources[0]: field 'source': must be a non-empty string"),
    ("label wrong type", _source(0, label=7), None, "sources[0]: field 'label': must be a non-empty string, got 7"),
    ("zero pages", _source(0, pages=0), None, "sources[0]: field 'pages': out of range 1..1000000000, got 0"),
    ("huge pages", _source(0, pages=10 ** 12), None, "sources[0]: field 'pages': out of range 1..1000000000"),
    ("float pages", _source(0, pages=100.0), None, "sources[0]: field 'pages': must be an integer, got 100.0"),
    ("negative passed", _source(0, pages_passed=-1), None,
     "sources[0]: field 'pages_passed': out of range 0..1000000000"),
    ("passed above pages", _source(0, pages_passed=101), None,
     "sources[0]: field 'pages_passed': 101 pages passed of 100"),
    ("bool pdfs", _source(1, pdfs=True), None, "sources[1]: field 'pdfs': must be an integer, got true"),
    ("missing retained", _drop(1, "retained"), None, "sources[1]: field 'retained': missing"),
    ("retained below the gate", _source(1, retained=True), None,
     "sources[1]: field 'retained': passed 96.00% of its pages against the 98.00% gate, so it is removed, but says "
     "retained: true"),
    ("removed above the gate", _source(0, retained=False), None,
     "sources[0]: field 'retained': passed 98.00% of its pages against the 98.00% gate, so it is kept"),
]


@pytest.mark.parametrize("change,text,expected", [case[1:] for case in HOSTILE], ids=[case[0] for case in HOSTILE])
def test_a_hostile_record_is_named_at_its_field(tmp_path, change, text, expected):
    _write(str(tmp_path), change(_record()) if change else None, text)
    with pytest.raises(InputError) as info:
        ocr_gate.load(str(tmp_path), REL)
    assert str(info.value).startswith(REL) and expected in str(info.value), str(info.value)


def test_a_record_symlinked_outside_the_release_fails_integrity(release_copy, tmp_path):
    """The record replaced by a symbolic link to an identical copy outside the release: integrity names it."""
    path = os.path.join(release_copy, *REL.split("/"))
    outside = str(tmp_path / "ocr_gate.json")
    with open(path, "rb") as src, open(outside, "wb") as dst:
        dst.write(src.read())
    os.remove(path)
    os.symlink(outside, path)
    code, stdout, stderr, report, fails = reproduce_report(release_copy, "--only", "integrity")
    assert code == 1 and "Traceback" not in stdout + stderr
    assert any(REL in c["reason"] and "outside the root" in c["reason"] for c in fails.values()), sorted(fails)[:5]


def test_the_shipped_records_claims_rederived_from_the_file():
    """v2.structure's pre-gate claims against a count of the shipped JSON by separate code, and the record
    against the corpus (every retained source holds its PDFs as documents)."""
    doc = json.load(open(os.path.join(REPO, *REL.split("/")), encoding="utf-8"))
    assert doc["synthetic"] is True and len(doc["sources"]) == 8
    frozen = {c["id"]: c["value"] for c in json.load(open(os.path.join(
        REPO, "reference_metrics", "v2.structure.json"), encoding="utf-8"))["claims"]}
    pages = sum(s["pages"] for s in doc["sources"])
    passed = sum(s["pages_passed"] for s in doc["sources"])
    assert frozen["v2.structure.pregate_pdfs"] == sum(s["pdfs"] for s in doc["sources"]) == 1000
    assert frozen["v2.structure.pregate_pages"] == pages and frozen["v2.structure.pregate_pages_passed"] == passed
    assert abs(frozen["v2.structure.pregate_pass_pct"] - 100.0 * passed / pages) < 1e-12
    assert frozen["v2.structure.ocr_gate_pct"] == 98.0
    for s in doc["sources"]:
        rate = 100.0 * s["pages_passed"] / s["pages"]
        assert abs(frozen["v2.structure.ocr_pass_pct_" + s["source"]] - rate) < 1e-12
        assert (rate >= 98) == s["retained"]
    assert frozen["v2.structure.pregate_sources_failing"] == 4
    corpus = {}
    for line in open(os.path.join(REPO, "data", "v2", "corpus.jsonl"), encoding="utf-8"):
        source = json.loads(line)["source"]
        corpus[source] = corpus.get(source, 0) + 1
    assert corpus == {s["source"]: s["pdfs"] for s in doc["sources"] if s["retained"]}
    assert frozen["v2.structure.ocr_gate_disagreements"] == 0


def _damage_and_run(root, change):
    from test_realpage_hostile import _resign_inputs
    path = os.path.join(root, *REL.split("/"))
    doc = json.load(open(path, encoding="utf-8"))
    change(doc)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(doc, handle, indent=1, sort_keys=True)
        handle.write("\n")
    _resign_inputs(root, REL)
    code, stdout, stderr, report, fails = reproduce_report(root, "--only", "integrity,derivation")
    assert code == 1 and "Traceback" not in stdout + stderr
    return fails


def test_a_damaged_record_fails_the_run_naming_the_field(release_copy):
    fails = _damage_and_run(release_copy, lambda doc: doc["sources"][0].update(pages_passed=10 ** 10))
    assert any("%s sources[0]: field 'pages_passed': out of range" % REL in c["reason"] for c in fails.values()), \
        sorted(fails)[:5]


def test_a_record_that_disagrees_with_the_corpus_is_counted(release_copy):
    """A retained source with one PDF more than the corpus's documents (re-signed everywhere): the construction
    claim counts it and names the source."""
    fails = _damage_and_run(release_copy, lambda doc: doc["sources"][0].update(pdfs=doc["sources"][0]["pdfs"] + 1))
    failed = fails["v2.structure.ocr_gate_disagreements"]
    assert "retained source arxiv: 126 PDFs, the corpus holds 125 documents" in failed.get("detail", "") + \
        failed["reason"]


def test_a_missing_and_delisted_record_does_not_pass(release_copy):
    """The record removed with its MANIFEST.json and SHA256SUMS lines: its frozen claims are not computed, and the
    run fails (a skip must not hide a missing part)."""
    from conftest import resign
    os.remove(os.path.join(release_copy, *REL.split("/")))
    resign(release_copy)
    code, stdout, stderr, report, fails = reproduce_report(release_copy, "--only", "integrity,derivation")
    assert code == 1 and "Traceback" not in stdout + stderr
    assert any("pregate" in cid or REL in c["reason"] for cid, c in fails.items()), sorted(fails)[:5]
