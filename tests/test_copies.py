"""Qrel copies and releases as values (nclue/core/layout.py; docs/architecture.md#concepts-declared-once).

A qrel copy is one :class:`~nclue.core.layout.QrelCopy` (release, name, path, parent, what evaluating on it
reads); a release is one :class:`~nclue.core.layout.Release`, found from its name in one table.  The
instrument takes copies, never file names, and the scans below fail on a qrels path handed to it or on a
release name mapped to an instrument by hand.
"""

import ast
import os

import pytest
from conftest import REPO, released

from nclue.core import layout
from nclue.core.errors import UsageError
from nclue.core.instrument import Instrument

PACKAGE = os.path.join(REPO, "nclue")


def test_each_copy_knows_its_release_parent_and_what_evaluating_on_it_reads():
    for base, release in layout.RELEASES.items():
        names = [copy.name for copy in release.copies]
        assert release.base == base and layout.RELEASE_NAMED[release.name] is release
        assert release.copy() is release.copies[-1] and release.copy().path == release.qrels
        for i, copy in enumerate(release.copies):
            assert copy.release == base and release.copy(copy.name) is copy and release.copy_in(copy.path) is copy
            assert copy.last == (i == len(release.copies) - 1)
            if i == 0:      # the construction copy: every query, no genealogy needed
                assert copy.parent is None and copy.evaluation_inputs == (copy.path,)
            else:           # derived from the copy before it; the genealogy says which queries it lost
                assert copy.parent == names[i - 1]
                assert copy.evaluation_inputs == (release.genealogy, copy.path)
    v2 = layout.RELEASES[layout.V2]
    assert [c.variant(".") for c in v2.copies] == [".construction", ".s0", ""]
    assert [c.variant("_") for c in v2.copies] == ["_construction", "_s0", ""]
    assert layout.RELEASES[layout.V1].copy("s0") is None and v2.copy_in(layout.QRELS) is None
    assert layout.RELEASE_NAMES == ("v1", "v2", "v3")
    assert layout.COPY_NAMES == ("construction", "final", "s", "s0")


def test_the_instrument_takes_copies_not_paths():
    inst = Instrument(REPO)
    v2 = inst.release("v2")
    assert inst.release("v1") is inst and inst.release("v2") is v2 and v2.release("v2") is v2
    assert v2.release("v1").base == layout.V1 and v2.release("v1") is v2.release("v1")
    assert inst.release("v3").base == layout.V3 and inst.release(layout.REALPAGE) is inst.release("v3")
    with pytest.raises(UsageError, match=r"unknown release 'v4' \(releases: v1, v2, v3\)"):
        inst.release("v4")
    with pytest.raises(UsageError, match=(released("v1") + " has no qrel copy 's0' \\(its copies: construction, final")):
        inst.copy("s0")
    final, construction = inst.copy(), inst.copy("construction")
    assert inst.qrels() is inst.qrels(final)
    assert set(inst.evaluation_queries(construction)) == set(inst.queries())
    removed = set(inst.genealogy()["final"].removed_queries)
    assert set(inst.evaluation_queries(final)) == set(inst.queries()) - removed
    # a file name, or another release's copy, is a programming error, not an input error
    for wrong in (layout.QRELS, final.path, v2.copy()):
        with pytest.raises(TypeError, match="is not a qrel copy of"):
            inst.qrels(wrong)
        with pytest.raises(TypeError, match="is not a qrel copy of"):
            inst.evaluation_queries(wrong)
    # on SourceShift, each copy loses what its stage and every earlier stage removed
    stages = v2.genealogy()
    lost = set()
    for copy in v2.copies():
        lost |= set(stages[copy.name].removed_queries)
        assert set(v2.evaluation_queries(copy)) == set(v2.queries()) - lost


COPY_TAKERS = {"qrels", "evaluation_queries", "outcomes", "gold_sets", "ideals", "of_copy", "gap_tests"}


def _qrel_path_constants():
    return {name for name in dir(layout) if "QRELS" in name}


def _path_arguments(tree, constants):
    """``(line, call)`` of each call of a copy-taking function given a string or a layout qrels path."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name not in COPY_TAKERS:
            continue
        for arg in list(node.args) + [k.value for k in node.keywords]:
            literal = isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.endswith(".jsonl")
            constant = isinstance(arg, ast.Attribute) and arg.attr in constants
            if literal or constant:
                found.append((node.lineno, name))
    return found


def _hand_mapped_releases(tree):
    """Lines where a release name is compared and ``.release("v1")`` (or the old ``.v1()``) chosen by hand."""
    releases = {"v1", "v2", "v3"}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.If, ast.IfExp)):
            continue
        names = {n.value for n in ast.walk(node.test) if isinstance(n, ast.Constant)}
        chosen = node.body if isinstance(node.body, list) else [node.body]
        calls = set()
        for part in chosen:
            for n in ast.walk(part):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
                    calls.add(n.func.attr)
                    if n.func.attr == "release":
                        calls.update(a.value for a in n.args if isinstance(a, ast.Constant))
        if names & releases and calls & releases:
            found.append(node.lineno)
    return found


def _modules():
    for folder, _, files in sorted(os.walk(PACKAGE)):
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    yield os.path.relpath(path, REPO), ast.parse(handle.read())


def test_no_module_hands_a_qrels_path_to_the_instrument_or_maps_a_release_name_by_hand():
    constants = _qrel_path_constants()
    offences = []
    for rel, tree in _modules():
        offences += ["%s:%d: %s given a qrels path" % (rel, line, name) for line, name in _path_arguments(tree, constants)]
        offences += ["%s:%d: release name mapped by hand" % (rel, line) for line in _hand_mapped_releases(tree)]
    assert offences == []
    # the scans can fail: each catches the shape it was written for
    probe = ast.parse('inst.qrels(layout.QRELS)\nouts = outcomes(v2, rel, "' + released("v2", "qrels_s0.jsonl") + '")\n'
                      'inst = inst.release("v2") if release == "v2" else inst\nif name == "v1":\n    part = inst.release("v1")\n')
    assert _path_arguments(probe, constants) == [(1, "qrels"), (2, "outcomes")]
    assert sorted(_hand_mapped_releases(probe)) == [3, 4]
