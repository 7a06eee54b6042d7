"""The reproduction run: integrity -> analyses -> diff against frozen claims.

Produces one :class:`Check` per released file check and per frozen claim,
each ``pass`` / ``fail`` / ``skip`` with a one-line reason (docs/claims.md).  Never
writes anything under the instrument root.
"""

import os

from ..analyses import REGISTRY
from ..analyses.base import LEVELS
from ..analyses.paper import result as paper_result
from ..core import integrity
from ..core.errors import UsageError
from ..core.instrument import Instrument
from ..core.jsonio import read_json
from .checks import Check
from .claims import compare, load_claim_file
from .guard import attempt
from .rebuild import rebuild_checks


class RunResult:
    def __init__(self, root, checks, integrity_result, levels):
        self.root = root
        self.checks = checks
        self.integrity = integrity_result
        self.levels = levels
        self.paper = None

    def counts(self):
        out = {"pass": 0, "fail": 0, "skip": 0}
        for c in self.checks:
            out[c.status] += 1
        return out

    def inputs(self):
        """sha256 of every released file the run verified, by path."""
        return {p: f.sha256 for p, f in sorted(self.integrity.files.items()) if f.sha256}


def check_root(root):
    if not os.path.isdir(root):
        raise UsageError("data root %r is not a directory" % root)
    if not (os.path.exists(os.path.join(root, integrity.MANIFEST)) or os.path.isdir(os.path.join(root, "data"))):
        raise UsageError("%r has neither MANIFEST.json nor data/: not an instrument root" % root)


def _gate(result, rel):
    """``(status, reason)`` of one input file for the claims that read it."""
    state = result.status(rel)
    if state == "ok":
        return None
    if state == "missing":
        return "skip", "input %s is absent" % rel
    if state == "bad":
        return "fail", "input fails integrity: %s" % result.reason(rel)
    if result.manifest is None:
        return "fail", "input %s cannot be verified: MANIFEST.json unusable" % rel
    return ("fail", "input %s is not listed in MANIFEST.json" % rel) if os.path.lexists(
        os.path.join(result.root, *rel.split("/"))) else ("skip", "input %s is absent" % rel)


def claim_files(root, result):
    """Frozen claim files: those the manifest lists plus any on disk (top level of reference_metrics/)."""
    names = {p for p, f in result.files.items() if f.role == "frozen-claims"}
    base = os.path.join(root, "reference_metrics")
    if os.path.isdir(base):
        for name in os.listdir(base):
            if name.endswith(".json") and os.path.isfile(os.path.join(base, name)):
                names.add("reference_metrics/" + name)
    return sorted(names)


def _frozen_inputs_gate(result, claim):
    """The gate of a claim's frozen inputs, for a claim no unit produced (e.g. a whole release absent)."""
    state = None
    for item in claim["inputs"]:
        g = _gate(result, item["path"])
        if g and (state is None or g[0] == "fail"):
            state = g
    return state


def _run_claim_file(inst, result, rel, levels):
    checks = []
    gate = _gate(result, rel)
    if gate and gate[0] == "skip":
        return [Check("claims:" + rel, "scoring", "skip", "frozen claims file %s is absent" % rel)]
    ok, frozen = attempt("reading " + rel, lambda: load_claim_file(inst.root, rel))
    if not ok:
        return [Check("claims:" + rel, "scoring", "fail", frozen)]
    analysis = REGISTRY.get(frozen["analysis"])
    claims = frozen["claims"]
    if gate:
        return [Check(c["id"], c["level"], "fail", "frozen claims file fails integrity: " + gate[1]) for c in claims]
    if analysis is None:
        return [Check(c["id"], c["level"], "fail", "%s names analysis %r, which this harness does not have" % (
            rel, frozen["analysis"])) for c in claims]
    if analysis.level not in levels:
        return [Check(c["id"], c["level"], "skip", "level %s not requested" % analysis.level) for c in claims]
    ok, units = attempt("enumerating the units of " + analysis.name, lambda: analysis.units(inst))
    if not ok:
        return [Check(c["id"], c["level"], "fail", "cannot enumerate %s: %s" % (analysis.name, units)) for c in claims]
    produced = {}
    unit_state = {}          # frozenset(inputs) -> list of (status, reason)
    for unit in units:
        key = frozenset(unit.inputs)
        state = None
        for path in unit.inputs:
            g = _gate(result, path)
            if g and (state is None or g[0] == "fail"):
                state = g
        if state is None:
            ok, values = attempt("computing %s unit %s" % (analysis.name, unit.key), lambda: list(unit.compute()))
            if ok:
                for value in values:
                    produced[value.id] = (value, unit)
            else:
                state = ("fail", values)
        if state is not None:
            unit_state.setdefault(key, []).append(state)
    frozen_ids = set()
    for c in claims:
        frozen_ids.add(c["id"])
        src = c["source"]
        if c["id"] in produced:
            value, unit = produced[c["id"]]
            stale = []
            for item in c["inputs"]:
                now = result.files.get(item["path"])
                if now is None or now.sha256 != item["sha256"]:
                    stale.append(item["path"])
            ok, why = compare(c["rule"], value.value, c["value"])
            if stale:
                reason = "claim was frozen from a different %s (sha256 differs); " % stale[0]
                reason += "value still agrees" if ok else why + (" -- " + value.detail if value.detail else "")
                checks.append(Check(c["id"], c["level"], "fail", reason, c["rule"], c["value"], value.value, src))
                continue
            if ok:
                checks.append(Check(c["id"], c["level"], "pass", "", c["rule"], c["value"], value.value, src))
            else:
                reason = why + (" -- " + value.detail if value.detail else "")
                checks.append(Check(c["id"], c["level"], "fail", reason, c["rule"], c["value"], value.value, src))
            continue
        states = unit_state.get(frozenset(i["path"] for i in c["inputs"]), [])
        fails = [s for s in states if s[0] == "fail"]
        if fails:
            checks.append(Check(c["id"], c["level"], "fail", fails[0][1], c["rule"], c["value"], None, src))
        elif states:
            checks.append(Check(c["id"], c["level"], "skip", states[0][1], c["rule"], c["value"], None, src))
        elif _frozen_inputs_gate(result, c):
            status, reason = _frozen_inputs_gate(result, c)
            checks.append(Check(c["id"], c["level"], status, reason, c["rule"], c["value"], None, src))
        else:
            checks.append(Check(c["id"], c["level"], "fail", "claim is not recomputed by analysis %s" % analysis.name,
                                c["rule"], c["value"], None, src))
    for cid in sorted(set(produced) - frozen_ids):
        value = produced[cid][0]
        checks.append(Check(cid, analysis.level, "fail", "recomputed but not frozen in %s" % rel,
                            value.rule, None, value.value, value.source))
    return checks


def run(root, levels=LEVELS, deep=False, log=None):
    check_root(root)
    result = integrity.check(root)
    result.root = root
    checks = []
    for cid, status, reason in result.problems:
        checks.append(Check(cid, "integrity", status, reason))
    for rel in sorted(result.files):
        f = result.files[rel]
        if f.status == "ok" and rel.endswith(".json"):
            ok, why = attempt("reading " + rel, lambda: read_json(os.path.join(root, *rel.split("/")), rel))
            if not ok:
                f.status, f.reason = "bad", why
        checks.append(Check("integrity.file:" + rel, "integrity", "pass" if f.status == "ok" else "fail",
                            f.reason if f.status != "ok" else "sha256 %s" % f.sha256[:16]))
    inst = Instrument(root)
    seen_levels = set()
    for rel in claim_files(root, result):
        for c in _run_claim_file(inst, result, rel, levels):
            seen_levels.add(c.group)
            checks.append(c)
    for level in ("construction", "scoring", "inference", "sensitivity", "paper"):
        if level not in seen_levels and level in levels:
            checks.append(Check("level:" + level, level, "skip",
                                "no frozen claims at this level in reference_metrics/ of this release"))
    paper = None
    if "paper" in levels and result.status("reference_metrics/paper/numbers.json") == "ok":
        ok, paper = attempt("auditing the paper's numbers", lambda: paper_result(inst))
        if not ok:
            paper = None      # the paper.audit claims already report the failure
    if deep:
        ok, rebuilt = attempt("rebuilding the stand-in", lambda: rebuild_checks(root, result, log=log))
        checks.extend(rebuilt if ok else [Check("rebuild", "rebuild", "fail", rebuilt)])
    else:
        checks.append(Check("level:rebuild", "rebuild", "skip", "level rebuild not requested (use --deep)"))
    run_result = RunResult(root, checks, result, levels)
    run_result.paper = paper
    return run_result
