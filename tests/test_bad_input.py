"""Bad input never gives a traceback or a pass: each damaged file (re-signed in the manifest, so the
loaders and analyses -- not only the hash check -- meet it) turns into fails that name the file."""

import os
import shutil

import pytest
from conftest import released

from nclue.core import integrity
from nclue.core.layout import role_of
from nclue.reports.report import render_text, report_json
from nclue.run.runner import run

FILES = [released("v1", "qrels.jsonl"), released("v1", "inventory.jsonl"), released("v1", "queries.jsonl"), released("v1", "corpus.jsonl"),
         released("v1", "conditions.jsonl"), released("v1", "rankings/bm25_or.jsonl"), released("v1", "page_scores/page_bm25_top3.jsonl"),
         released("v1", "systems.json"), released("v1", "build.json"), released("v1", "stats.json"), released("claims", "v1.matrix.json")]
MUTATIONS = {
    "truncated": lambda b: b[: len(b) // 2],
    "broken JSON": lambda b: b.replace(b"}", b"", 1),
    "non-UTF-8": lambda b: b[:10] + b"\xff" + b[10:],
    "empty": lambda b: b"",
}


def _resign(root):
    files = [(p, role_of(p)) for p in integrity.released_files_on_disk(root)]
    integrity.write_manifest(root, files, {"instrument": "damaged copy", "synthetic": True,
                                           "generator": {"config": "mini", "seed": 11}})


@pytest.mark.parametrize("rel", FILES)
def test_damaged_file_fails_cleanly(mini_root, tmp_path, rel):
    for name, mutate in MUTATIONS.items():
        root = str(tmp_path / name.replace(" ", "_"))
        shutil.copytree(mini_root, root)
        path = os.path.join(root, *rel.split("/"))
        with open(path, "rb") as fh:
            data = fh.read()
        with open(path, "wb") as fh:
            fh.write(mutate(data))
        _resign(root)
        result = run(root)                      # must not raise
        render_text(result)
        report_json(result)
        fails = [c for c in result.checks if c.status == "fail"]
        assert fails, "%s %s: no fail" % (rel, name)
        assert any(rel in c.reason or "claims:" + rel == c.id for c in fails), (rel, name, [c.reason for c in fails][:3])
