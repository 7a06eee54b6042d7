"""Inputs recorded, not listed (docs/claims.md#a-claim-file-is-checked-as-data).

Every unit of every analysis is computed under :class:`nclue.core.inputs.recording`; the files it opens
must be exactly the inputs its claims record, on the shipped release and on the mini release with v1, v2
and the audit.  A unit that reads a file its claims do not name fails in ``reproduce`` and is refused by
``freeze``; one that names a file it does not read is refused by ``freeze``.
"""
import os

import pytest
from conftest import released

from nclue.analyses import REGISTRY
from nclue.analyses.base import Unit
from nclue.core.inputs import open_input, recording
from nclue.core.instrument import Instrument
from nclue.core.integrity import observed_inputs
from nclue.run.freeze import FreezeError, freeze
from nclue.run.runner import run

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _mismatches(root, fresh=False):
    """(analysis, unit key, read but not declared, declared but not read) for every unit that differs."""
    shared = Instrument(root)
    out = []
    for name in sorted(REGISTRY):
        analysis = REGISTRY[name]
        if analysis.level == "rebuild":
            continue
        inst = Instrument(root) if fresh else shared
        units = analysis.units(inst)
        for unit in (units[:1] if fresh else units):
            if not all(inst.exists(p) for p in unit.inputs):
                continue
            with recording() as seen:
                unit.compute()
            observed = set(observed_inputs(root, seen))
            declared = set(unit.inputs)
            if observed != declared:
                out.append((name, unit.key, sorted(observed - declared), sorted(declared - observed)))
    return out


def test_every_unit_of_the_shipped_release_reads_exactly_its_recorded_inputs():
    assert _mismatches(REPO) == []


def test_every_unit_of_the_mini_release_reads_exactly_its_recorded_inputs(mini_all):
    assert _mismatches(mini_all) == []


def test_a_fresh_instrument_records_the_same_reads_as_a_shared_one(mini_all):
    # a memo hit replays the reads of the computation it stands for, so the first unit of an analysis
    # computed on its own records what it records after other analyses warmed the instrument
    assert _mismatches(mini_all, fresh=True) == []


def test_a_memo_hit_replays_the_reads_of_its_computation(mini_all):
    inst = Instrument(mini_all)
    path = os.path.join(mini_all, "data", "v1", "conditions.jsonl")

    def compute():
        with open_input(path, released("v1", "conditions.jsonl")) as handle:
            return len(handle.read())

    with recording() as first:
        size = inst.memo("test:conditions-size", compute)
    with recording() as second:
        assert inst.memo("test:conditions-size", compute) == size
    assert set(first) == set(second) == {os.path.abspath(path)}
    with recording() as outer:
        with recording() as inner:
            inst.memo("test:conditions-size", compute)
    assert set(outer) == set(inner) == {os.path.abspath(path)}


def _reading_an_extra_file(monkeypatch, name, extra):
    """Make every unit of analysis ``name`` also open ``extra`` (release-relative) without declaring it."""
    analysis = REGISTRY[name]
    original = analysis._units

    def units(inst):
        def wrap(unit):
            def compute():
                with open_input(os.path.join(inst.root, *extra.split("/")), extra) as handle:
                    handle.read(1)
                return unit.compute()
            return Unit(unit.key, unit.inputs, compute)
        return [wrap(u) for u in original(inst)]

    monkeypatch.setattr(analysis, "_units", units)


def _declaring_an_extra_file(monkeypatch, name, extra):
    analysis = REGISTRY[name]
    original = analysis._units
    monkeypatch.setattr(analysis, "_units", lambda inst: [Unit(u.key, list(u.inputs) + [extra], u.compute)
                                                          for u in original(inst)])


def test_reproduce_fails_a_unit_that_reads_a_file_its_claims_do_not_record(mini_all_copy, monkeypatch):
    _reading_an_extra_file(monkeypatch, "v1.matrix", released("v1", "repairs.jsonl"))
    result = run(mini_all_copy, levels=("integrity", "scoring"))
    matrix = [c for c in result.checks if c.id.startswith("v1.matrix.")]
    assert matrix and all(c.status == "fail" for c in matrix)
    assert ("read " + released("v1", "repairs.jsonl") + ", which its claims do not record as an input") in matrix[0].reason
    others = [c for c in result.checks if c.group == "scoring" and not c.id.startswith("v1.matrix.")]
    assert others and all(c.status == "pass" for c in others)


def test_freeze_refuses_a_unit_that_reads_an_undeclared_file(mini_all_copy, monkeypatch):
    _reading_an_extra_file(monkeypatch, "v1.matrix", released("v1", "repairs.jsonl"))
    with pytest.raises(FreezeError, match=r"v1\.matrix read data/v1/repairs\.jsonl, which it does not declare"):
        freeze(mini_all_copy, log=lambda *a: None)


def test_freeze_refuses_a_unit_that_declares_a_file_it_does_not_read(mini_all_copy, monkeypatch):
    _declaring_an_extra_file(monkeypatch, "v1.matrix", released("v1", "repairs.jsonl"))
    with pytest.raises(FreezeError, match=r"v1\.matrix declares data/v1/repairs\.jsonl, which it did not read"):
        freeze(mini_all_copy, log=lambda *a: None)
