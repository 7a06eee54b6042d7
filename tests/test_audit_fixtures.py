"""Golden fixtures of the label audit's and the challenge's fourteen record files, run as data (issue 38).

The valid case of each file is the mini stand-in's own (``valid.json`` gives its line count, and both record
loaders accept the set).  Each invalid case ``tests/fixtures/audit_records/<file>/<case>.json`` is one edit of
that file -- a field set or deleted, a line replaced, a line duplicated or appended, the file truncated,
values nested too deep, a line too long -- and the message the loaders must raise, naming the file, the
line and, where one is at fault, the field.  Every file has at least three invalid cases."""

import glob
import json
import os
import shutil

import pytest
from conftest import released

from nclue.analyses.shared.audit_inputs import audit_records, challenge_records
from nclue.core.errors import InputError
from nclue.core.instrument import Instrument
from nclue.labelaudit import audit_records as audit_loaders
from nclue.labelaudit import challenge_records as challenge_loaders

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "audit_records")
FILES = [name for name, _ in audit_loaders.LOADERS + challenge_loaders.LOADERS]
CASES = sorted(os.path.relpath(p, FIXTURES).replace(os.sep, "/")
               for p in glob.glob(os.path.join(FIXTURES, "*", "*.json")))


def _edit(path, edit):
    """Apply one fixture edit (module doc) to the JSON Lines file at ``path``."""
    data = open(path, "rb").read()
    if "truncate" in edit:
        open(path, "wb").write(data[:edit["truncate"]])
        return
    lines = data.decode("utf-8").splitlines(True)
    if "append" in edit:
        lines.append(edit["append"] + "\n")
    if "duplicate" in edit:
        lines.append(lines[edit["duplicate"] - 1])
    if "line" in edit:
        i = edit["line"] - 1
        if "raw" in edit:
            lines[i] = edit["raw"] + "\n"
        elif "nest" in edit:
            lines[i] = "[" * edit["nest"] + "]" * edit["nest"] + "\n"
        elif "long" in edit:
            lines[i] = '{"answers":"' + "x" * edit["long"] + '"}\n'
        else:
            obj = json.loads(lines[i])
            obj.update(edit.get("set", {}))
            for key in edit.get("delete", []):
                obj.pop(key)
            lines[i] = json.dumps(obj, sort_keys=True, separators=(",", ":")) + "\n"
    open(path, "w", encoding="utf-8").write("".join(lines))


def _load(root):
    inst = Instrument(root)
    return audit_records(inst), challenge_records(inst)


@pytest.fixture
def audit_root(mini_all, tmp_path):
    root = str(tmp_path / "root")
    shutil.copytree(os.path.join(mini_all, "data"), os.path.join(root, "data"))
    return root


def test_every_file_has_a_valid_case_and_three_invalid_ones():
    assert len(FILES) == 14
    valid = json.load(open(os.path.join(FIXTURES, "valid.json"), encoding="utf-8"))["lines"]
    assert sorted(valid) == sorted(FILES)
    for name in FILES:
        assert len(glob.glob(os.path.join(FIXTURES, name, "*.json"))) >= 3, name
    assert sorted(os.listdir(FIXTURES)) == sorted(FILES + ["valid.json"])


def test_the_valid_files_load(audit_root):
    valid = json.load(open(os.path.join(FIXTURES, "valid.json"), encoding="utf-8"))["lines"]
    for name, lines in valid.items():
        path = os.path.join(audit_root, "data", "audit", name + ".jsonl")
        assert sum(1 for _ in open(path, encoding="utf-8")) == lines, name
    audit, challenge = _load(audit_root)
    assert len(audit.pairs) == valid["key"] and len(challenge.pairs) == valid["challenge_key"]


@pytest.mark.parametrize("case", CASES)
def test_an_invalid_file_raises_its_message(case, audit_root):
    name = case.split("/")[0]
    fixture = json.load(open(os.path.join(FIXTURES, case), encoding="utf-8"))
    _edit(os.path.join(audit_root, "data", "audit", name + ".jsonl"), fixture["edit"])
    with pytest.raises(InputError) as info:
        _load(audit_root)
    assert str(info.value) == fixture["expect"]
    assert str(info.value).startswith(released("audit", "%s.jsonl") % name)
