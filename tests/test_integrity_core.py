"""core/integrity's own decisions, worked by hand on small trees (docs/schema.md#manifestjson-and-sha256sums):
the kills of the mutants issue 58 found alive (the manifest's sha256 compared, not only its size; a '..' part
refused even when the path resolves inside the root)."""

import hashlib
import os

import pytest
from conftest import released

from nclue.core.integrity import check_listed_file, unsafe_reason

QUERIES = released("v1", "queries.jsonl")


def _tree(tmp_path, rel=QUERIES, data=b'{"qid":"q1"}\n'):
    path = tmp_path.joinpath(*rel.split("/"))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return str(tmp_path), rel, data


def test_a_listed_file_of_the_right_size_but_another_hash_is_bad(tmp_path):
    root, rel, data = _tree(tmp_path)
    right = hashlib.sha256(data).hexdigest()
    entry = {"path": rel, "role": "queries", "bytes": len(data), "sha256": right}
    assert check_listed_file(root, entry).status == "ok"
    wrong = hashlib.sha256(data.replace(b"q1", b"q2")).hexdigest()       # same size, other content
    checked = check_listed_file(root, dict(entry, sha256=wrong))
    assert checked.status == "bad" and checked.sha256 == right
    assert checked.reason == "%s: sha256 %s (%d bytes) differs from MANIFEST.json %s (%d bytes)" % (
        rel, right[:12], len(data), wrong[:12], len(data))
    assert check_listed_file(root, dict(entry, bytes=len(data) + 1)).status == "bad"


@pytest.mark.parametrize("rel", ["data/v1/../v1/queries.jsonl", "data/./v1/queries.jsonl", "data//v1/queries.jsonl",
                                 "data/v1/queries.jsonl/.."])
def test_a_dot_or_empty_part_is_refused_even_inside_the_root(tmp_path, rel):
    root, good, _ = _tree(tmp_path)
    assert unsafe_reason(root, good) is None
    assert os.path.realpath(os.path.join(root, *rel.split("/"))).startswith(os.path.realpath(root))
    assert unsafe_reason(root, rel) == "path has an empty, '.' or '..' part"
