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


def test_a_kept_file_is_hashed_from_the_bytes_it_keeps_and_only_when_it_agrees(tmp_path):
    """``keep``: the bytes hashed come back with an ``ok`` check (one read serves hashing and decoding); a
    file whose hash or size disagrees keeps nothing, and a file over the size limit is refused with the
    streamed read's message (issue 60)."""
    rel = released("v1", "build.json")
    root, rel, data = _tree(tmp_path, rel, b'{"seed": 11}\n')
    digest = hashlib.sha256(data).hexdigest()
    entry = {"path": rel, "role": "build-info", "bytes": len(data), "sha256": digest}
    kept, streamed = check_listed_file(root, entry, keep=True), check_listed_file(root, entry)
    assert (kept.status, kept.sha256, kept.content) == ("ok", digest, data)
    assert (streamed.status, streamed.sha256, streamed.content) == ("ok", digest, None)
    other = check_listed_file(root, dict(entry, sha256=hashlib.sha256(b"x").hexdigest()), keep=True)
    assert (other.status, other.sha256, other.content) == ("bad", digest, None)
    assert check_listed_file(root, dict(entry, bytes=len(data) - 1), keep=True).content is None


def test_a_kept_file_over_the_limit_gives_the_streamed_message(tmp_path, monkeypatch):
    from nclue.core import inputs

    rel = released("v1", "build.json")
    root, rel, data = _tree(tmp_path, rel, b'{"seed": 11}\n')
    entry = {"path": rel, "role": "build-info", "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    monkeypatch.setattr(inputs, "budget_default", lambda: 4)
    kept, streamed = check_listed_file(root, entry, keep=True), check_listed_file(root, entry)
    assert kept.status == streamed.status == "bad" and kept.reason == streamed.reason
    assert kept.reason == "%s: file of %d bytes is larger than the 4-byte limit" % (rel, len(data))
