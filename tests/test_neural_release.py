"""RealPage's dense runs as the release takes them in, without the model (docs/realpage.md#neural): the declared
systems and files, the writer's refusals of a damaged runs folder, systems.json's ``plays``, the rebuild's
tolerance and the --deep check's skip."""

import hashlib
import json
import os

import pytest
from conftest import released

from nclue.builder.neural import compare
from nclue.builder.realpage import v3_neural
from nclue.builder.realpage.settings import RealPageError
from nclue.core import layout
from nclue.core.errors import InputError
from nclue.core.loaders import load_systems
from nclue.retrieval import dense_systems as declared


def test_the_declared_systems_files_and_blocks():
    assert len(declared.IDS) == len(set(declared.IDS)) == 11
    assert set(declared.FORM_SYSTEMS) == set(declared.IDS) - set(declared.MASKED)
    assert declared.PAGE_SCORED == ("mini_page_max", "mini_page_top3")
    files = declared.expected_files()
    # 8 systems in 3 forms (the raw one the raw ranking), 3 masked raw rankings, 2 page-score files
    assert len(files) == 8 * 3 + 3 + 2 == 29
    assert "rankings/mini_doc.jsonl" in files and "rankings/forms/mini_doc__natural.jsonl" in files
    assert "rankings/forms/mini_doc__raw.jsonl" not in files and "page_scores/mini_page_top3.jsonl" in files
    known = set(declared.IDS) | {"bm25_or"}
    for block in declared.CONTRASTS:
        assert {block["base"], *block["variants"]} <= known
        assert all(p["variant"] in block["variants"] for p in block["plays"])
    assert [p["row"] for b in declared.CONTRASTS for p in b["plays"]] == [
        "page_aggregation", "jina_composition", "qwen_composition", "fusion", "text_reranking"]


def _runs_folder(root, queries=("realpage_0000", "realpage_0001")):
    """A dense-runs folder in the release's layout, each file a valid row set, with its record."""
    files = {}
    for rel in declared.expected_files():
        if rel.startswith("page_scores/"):
            rows = [{"qid": q, "docid": "rfc1", "pages": [[1, 0.5]]} for q in queries]
        else:
            rows = [{"qid": q, "docids": ["rfc1"], "scores": [0.5]} for q in queries]
        text = "".join(json.dumps(r) + "\n" for r in rows)
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        files[rel] = hashlib.sha256(text.encode()).hexdigest()
    record = {"model_zip_sha256": v3_neural.MODEL_ZIP_SHA256, "systems": list(declared.IDS), "synthetic": False,
              "queries": len(queries), "files": files, "model": "sentence-transformers/all-MiniLM-L6-v2"}
    with open(os.path.join(root, "neural.json"), "w", encoding="utf-8") as handle:
        json.dump(record, handle)
    return record


def _edit_record(root, change):
    path = os.path.join(root, "neural.json")
    with open(path, encoding="utf-8") as handle:
        record = json.load(handle)
    change(record)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(record, handle)


def test_the_writer_takes_checked_runs_and_ships_their_bytes(tmp_path):
    _runs_folder(str(tmp_path / "runs"))
    runs = v3_neural.read_runs(str(tmp_path / "runs"))
    assert [rel for rel, _ in runs.files] == [(released("v3") + "/") + rel for rel in declared.expected_files()]
    v3_neural.check_queries(runs, [{"qid": "realpage_0000"}, {"qid": "realpage_0001"}])
    written = v3_neural.write(str(tmp_path / "out"), runs)
    assert written[-1] == layout.REALPAGE.neural and len(written) == 30
    for rel, data in runs.files:
        assert (tmp_path / "out" / rel).read_bytes() == data
    assert v3_neural.released_folder(str(tmp_path / "out")) == os.path.join(str(tmp_path / "out"), "data", "v3")
    assert v3_neural.released_folder(str(tmp_path / "none")) is None


@pytest.mark.parametrize("damage, message", [
    (lambda root: os.remove(os.path.join(root, "neural.json")), "not a readable dense-run record"),
    (lambda root: open(os.path.join(root, "neural.json"), "w").write("{\"files\": "), "not a readable dense-run record"),
    (lambda root: open(os.path.join(root, "neural.json"), "w").write("[" * 100000 + "]" * 100000),
     "not a readable dense-run record"),
    (lambda root: open(os.path.join(root, "neural.json"), "w").write("[1]"), "expected a JSON object"),
    (lambda root: _edit_record(root, lambda r: r.update(model_zip_sha256="0" * 64)), "model_zip_sha256 expected"),
    (lambda root: _edit_record(root, lambda r: r.update(systems=r["systems"][:-1])), "systems expected"),
    (lambda root: _edit_record(root, lambda r: r.update(synthetic=True)), "synthetic expected false"),
    (lambda root: _edit_record(root, lambda r: r["files"].pop("rankings/mini_doc.jsonl")),
     "files expected the 29 declared dense files"),
    (lambda root: _edit_record(root, lambda r: r.update(files=["rankings/mini_doc.jsonl"])),
     "files expected the 29 declared dense files, found list"),
    (lambda root: open(os.path.join(root, "rankings", "mini_doc.jsonl"), "a").write("\n"),
     "rankings/mini_doc.jsonl: sha256 expected"),
    (lambda root: os.remove(os.path.join(root, "page_scores", "mini_page_max.jsonl")),
     "page_scores/mini_page_max.jsonl: unreadable"),
])
def test_a_damaged_runs_folder_is_refused_naming_the_file(tmp_path, damage, message):
    root = str(tmp_path / "runs")
    _runs_folder(root)
    damage(root)
    with pytest.raises(RealPageError, match=message.replace("(", r"\(")):
        v3_neural.read_runs(root)


def test_runs_of_another_query_set_are_refused(tmp_path):
    _runs_folder(str(tmp_path), queries=("realpage_0001", "realpage_0000"))
    runs = v3_neural.read_runs(str(tmp_path))
    with pytest.raises(RealPageError, match="not the release's 2 queries in order"):
        v3_neural.check_queries(runs, [{"qid": "realpage_0000"}, {"qid": "realpage_0001"}])


def _systems(tmp_path, plays):
    obj = {"systems": [{"id": sid, "family": "dense", "block": "b", "operation": "o", "base": None, "fair": True,
                        "description": "d"} for sid in ("a", "b", "c")],
           "contrasts": [{"block": "x", "base": "a", "variants": ["b", "c"], "plays": plays}]}
    (tmp_path / "systems.json").write_text(json.dumps(obj), encoding="utf-8")
    return lambda: load_systems(str(tmp_path), "systems.json")


def test_a_blocks_plays_is_checked_when_systems_json_is_loaded(tmp_path):
    _, lists = _systems(tmp_path, [{"row": "jina_composition", "variant": "c"},
                                   {"row": "qwen_composition", "variant": "b"}])()
    assert lists.contrasts[0]["plays"][1] == {"row": "qwen_composition", "variant": "b"}
    for plays, field, message in (
            ({"row": "x"}, "contrasts[0].plays", "expected a list of {row, variant}, found dict"),
            ([{"row": "x"}], "contrasts[0].plays[0]", "expected {row, variant}, both strings"),
            ([{"row": "x", "variant": 3}], "contrasts[0].plays[0]", "both strings"),
            ([{"row": "x", "variant": "a"}], "contrasts[0].plays[0]", "'a' is not one of the block's variants"),
            ([{"row": "x", "variant": "b"}, {"row": "x", "variant": "c"}], "contrasts[0].plays[1]",
             "row 'x' is played twice")):
        with pytest.raises(InputError) as caught:
            _systems(tmp_path, plays)()
        assert caught.value.field == field and message in str(caught.value), str(caught.value)


def _ranking(qids_docids):
    return [{"qid": q, "docids": list(d), "scores": [1.0 - 0.01 * k for k in range(len(d))]} for q, d in qids_docids]


def test_the_tolerance_at_its_boundaries():
    same = _ranking(("q%03d" % k, ["a", "b"]) for k in range(200))
    one_off = _ranking([("q%03d" % k, ["a", "b"] if k else ["b", "a"]) for k in range(200)])
    two_off = _ranking([("q%03d" % k, ["a", "b"] if k > 1 else ["b", "a"]) for k in range(200)])
    # 199 of 200 queries agree: 0.995, within; 198 of 200: outside (the swapped pair's scores differ by 0.01)
    c = compare.compare_rows(same, one_off, "r")
    assert c.agreement == 0.995 and "same top 10 for 199 of 200" not in c.problem
    assert "a shared document differs by 0.01" in c.problem
    assert "the same top 10 for 198 of 200 rows" in compare.compare_rows(same, two_off, "r").problem
    shifted = [dict(r, scores=[s + 1e-4 for s in r["scores"]]) for r in same]
    assert compare.compare_rows(same, shifted, "r").within                   # 1e-4 (to rounding): within
    shifted = [dict(r, scores=[s + 1.5e-4 for s in r["scores"]]) for r in same]
    assert "differs by 0.00015" in compare.compare_rows(same, shifted, "r").problem
    assert "different queries (first q199)" in compare.compare_rows(same, same[:-1], "r").problem
    pages = [{"qid": "q", "docid": "d", "pages": [[1, 0.5], [2, 0.4]]}]
    assert compare.compare_rows(pages, pages, "p", page_scores=True).within
    assert compare.compare_rows([], [], "empty").within


def test_the_compare_command(tmp_path):
    _runs_folder(str(tmp_path / "a"))
    _runs_folder(str(tmp_path / "b"))
    assert compare.main([str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    path = tmp_path / "b" / "rankings" / "mini_doc.jsonl"
    path.write_text(path.read_text().replace("0.5", "0.7"), encoding="utf-8")
    assert compare.main([str(tmp_path / "a"), str(tmp_path / "b")]) == 1
    os.remove(path)
    assert compare.main([str(tmp_path / "a"), str(tmp_path / "b")]) == 2
    assert compare.main([]) == 2


def test_deep_skips_the_dense_runs_naming_what_is_missing(tmp_path, monkeypatch):
    from nclue.run import neural_rebuild

    assert neural_rebuild.neural_checks(str(tmp_path), None) == []          # a release without dense runs
    (tmp_path / "data" / "v3").mkdir(parents=True)
    (tmp_path / "data" / "v3" / "neural.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(neural_rebuild.importlib.util, "find_spec", lambda name: None)
    [check] = neural_rebuild.neural_checks(str(tmp_path), None)
    assert check.status == "skip" and "missing numpy, torch, sentence_transformers, all_minilm_l6_v2" in check.reason
    assert "checked by hash" in check.reason
    monkeypatch.setattr(neural_rebuild.importlib.util, "find_spec", lambda name: object())
    [check] = neural_rebuild.neural_checks(str(tmp_path), None)
    assert check.status == "skip" and "the doc-rfc packages are not present" in check.reason
    assert neural_rebuild._cache_problem(["h1", "h2"], {"h1": 1}, []).startswith("the page cache lacks 1 of the 2")
    assert "1 of 2 re-encoded pages differ" in neural_rebuild._cache_problem(["h1"], {"h1": 1},
                                                                            [("h1", 1.0), ("h1", 0.99)])
    assert neural_rebuild._cache_problem(["h1"], {"h1": 1}, [("h1", 0.99995)]) == ""
