"""Page text: random access, determinism, export, and the features docs/stand-in.md#page-text lists."""

import json
import os

from nclue.builder.export import export_pages_v1 as export_pages
from nclue.builder.text import PageSource
from nclue.core.jsonio import iter_jsonl


def _rows(root, name):
    return [obj for _, obj in iter_jsonl(os.path.join(root, "data", "v1", name), name)]


def _source(root, seed=11):
    build = json.load(open(os.path.join(root, "data", "v1", "build.json")))
    return PageSource(seed, _rows(root, "corpus.jsonl"), _rows(root, "conditions.jsonl"),
                      _rows(root, "inventory.jsonl"), build["words_per_page"])


def test_one_page_alone_equals_the_page_in_sequence(mini_root):
    docs = _rows(mini_root, "corpus.jsonl")
    doc = max(docs, key=lambda d: d["pages"])
    whole = _source(mini_root).pages(doc["docid"])
    for page in (1, doc["pages"] // 2, doc["pages"]):
        assert _source(mini_root).page(doc["docid"], page) == whole[page - 1]
    assert _source(mini_root, seed=12).page(doc["docid"], 1) != whole[0]


def test_fact_pages_carry_their_condition_and_text_is_noisy(mini_root):
    conditions = {c["cid"]: c for c in _rows(mini_root, "conditions.jsonl")}
    source = _source(mini_root)
    found = total = 0
    for row in _rows(mini_root, "inventory.jsonl")[:200]:
        cond = conditions[row["cid"]]
        forms = [cond["label"].lower()] + [a.lower() for a in cond["aliases"]]
        for page in row["pages"]:
            total += 1
            text = source.page(row["docid"], page).lower()
            found += any(f in text for f in forms)
    # OCR noise may garble a mention, but nearly every fact page shows one of its surface forms
    assert found >= 0.85 * total
    assert found < total or total < 50


def test_export_pages_writes_every_page(mini_root, tmp_path):
    export_pages(mini_root, str(tmp_path))
    rows = [obj for _, obj in iter_jsonl(str(tmp_path / "pages.jsonl"), "pages.jsonl")]
    docs = _rows(mini_root, "corpus.jsonl")
    assert len(rows) == sum(d["pages"] for d in docs)
    assert all(r["synthetic"] is True for r in rows)
    first = rows[0]
    assert first["text"] == _source(mini_root).page(first["docid"], first["page"])
