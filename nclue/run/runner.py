"""The reproduction run: integrity -> analyses -> diff against frozen claims.

Produces one :class:`Check` per released file check and per frozen claim,
each ``pass`` / ``fail`` / ``skip`` with a one-line reason (docs/claims.md).  Never
writes anything under the instrument root.
"""

import os
from typing import NamedTuple, Optional

from ..analyses import REGISTRY
from ..analyses.base import LEVELS
from ..analyses.paper import result as paper_result
from ..analyses.shared.outcome_vectors import outcomes
from ..core import integrity, layout
from ..core.claim_ids import CONSTRUCTION, V2_STRUCTURE
from ..core.errors import UsageError
from ..core.inputs import recording
from ..core.instrument import Instrument
from ..core.jsonio import json_document, read_json, show_value
from .checks import EXPECTED_PAPER_FAIL, Check
from .claims import compare, estimate_difference, input_paths, load_claim_file
from .diagnose import content_problem
from .guard import attempt
from .published import build as build_published
from .run_context import RunContext
from .shape import Presence, analysis_part, missing_files, part_of, unread_files


class RunResult:
    def __init__(self, root, checks, integrity_result, levels):
        self.root = root
        self.checks = checks
        self.integrity = integrity_result
        self.levels = levels
        self.paper = None
        self.published = None      # {summary, bindings} of the published results (nclue.run.published)
        self.claim_values = None   # the recomputed values by claim id, as the report reads them (reports/report.py)

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
    if not (os.path.exists(os.path.join(root, integrity.MANIFEST)) or os.path.isdir(layout.abspath(root, layout.DATA_DIR))):
        raise UsageError("%r has neither MANIFEST.json nor data/: not an instrument root" % root)


class State(NamedTuple):
    """What a claim that was not compared gets: its ``status`` (fail or skip), the ``reason``, and the
    ``cause``, the released file at fault (None when no file is), read from the failure's record
    (:class:`nclue.run.guard.Failure`), never from its message."""
    status: str
    reason: str
    cause: Optional[str]


def _absent(ctx, rel):
    """An absent input: a skip when its whole release part is absent, a fail when the part is present."""
    part = part_of(rel)
    if part is not None and part in ctx.presence:
        return State("fail", "input %s is absent, but release part %s is present" % (rel, part), rel)
    return State("skip", "input %s is absent (release part %s is not in this release)" % (rel, part or "-"), rel)


def _gate(ctx, rel):
    """The :class:`State` of one input file for the claims that read it (None when it is sound)."""
    state = ctx.status(rel)
    if state == "ok":
        return None
    if state == "missing":
        return _absent(ctx, rel)
    if state == "bad":
        return State("fail", "input fails integrity: %s" % ctx.reason(rel), rel)
    if ctx.manifest is None:
        return State("fail", "input %s cannot be verified: MANIFEST.json unusable" % rel, rel)
    return State("fail", "input %s is not listed in MANIFEST.json" % rel, rel) if os.path.lexists(
        layout.abspath(ctx.root, rel)) else _absent(ctx, rel)


def _worst_gate(ctx, paths):
    """The gate of a set of inputs: the first fail, else the first skip, else None."""
    state = None
    for path in paths:
        g = _gate(ctx, path)
        if g and (state is None or (g.status == "fail" and state.status != "fail")):
            state = g
    return state


def _cause(failure):
    """The released file a :class:`~nclue.run.guard.Failure` names (its record's path), if any."""
    path = failure.path
    return path if path is not None and layout.is_released(path) else None


def claim_files(root, ctx):
    """Frozen claim files: those the manifest lists plus any on disk (top level of reference_metrics/)."""
    names = {p for p, f in ctx.files.items() if f.role == "frozen-claims"}
    base = layout.abspath(root, layout.CLAIMS_DIR)
    if os.path.isdir(base):
        for name in os.listdir(base):
            if name.endswith(".json") and os.path.isfile(os.path.join(base, name)):
                names.add(layout.CLAIMS_DIR + "/" + name)
    return sorted(names)


def _run_claim_file(inst, ctx, rel, levels, read):
    """The checks of one frozen claims file; adds the paths its claims read to ``read``: the file read
    and gated (:func:`_frozen_claims`), its analysis's units computed (:func:`_compute_units`), and each
    frozen claim compared with its recomputed value (:func:`_compare_claim`)."""
    ok, frozen = _frozen_claims(inst, ctx, rel, levels, read)
    if not ok:
        return frozen
    analysis, claims = frozen
    ok, computed = _compute_units(inst, ctx, analysis)
    if not ok:
        return _every(claims, computed.status, computed.reason, computed.cause)
    produced, unit_state = computed
    checks = [_compare_claim(ctx, rel, analysis, c, produced, unit_state) for c in claims]
    frozen_ids = {c["id"] for c in claims}
    for cid in sorted(set(produced) - frozen_ids):
        value = produced[cid][0]
        checks.append(Check(cid, analysis.level, "fail", "recomputed but not frozen in %s" % rel,
                            value.rule, None, value.value, value.source, rel))
    return checks


def _every(claims, status, reason, cause=None):
    """One check of ``status`` for every frozen claim (a file-wide skip or fail)."""
    return [Check(c["id"], c["level"], status, reason, c["rule"], c["value"], None, c["source"], cause,
                  input_paths(c)) for c in claims]


def _frozen_claims(inst, ctx, rel, levels, read):
    """``(True, (analysis, claims))`` for a claim file to compute, else ``(False, checks)``: the file absent,
    unreadable, at the wrong level, failing integrity, of an unknown analysis, or of a level not requested."""
    if ctx.status(rel) == "missing":
        return False, [Check("claims:" + rel, "integrity", "fail", "frozen claims file %s is listed in MANIFEST.json "
                                                                   "but absent" % rel, cause=rel)]
    document = ctx.documents.pop(rel, None)
    ok, frozen = attempt("reading " + rel, lambda: load_claim_file(inst.root, rel, document))
    if not ok:
        return False, [Check("claims:" + rel, "scoring", "fail", frozen, cause=rel)]
    claims = frozen["claims"]
    for c in claims:
        read.update(input_paths(c))
    analysis = REGISTRY.get(frozen["analysis"])
    if analysis is not None and frozen["level"] != analysis.level:
        return False, [Check("claims:" + rel, "integrity", "fail", "%s: field 'level': is %r, but analysis %s runs at "
                             "level %r" % (rel, frozen["level"], analysis.name, analysis.level), cause=rel)]
    gate = _gate(ctx, rel)
    if gate:
        return False, _every(claims, "fail", "frozen claims file fails integrity: " + gate.reason, rel)
    if analysis is None:
        return False, _every(claims, "fail", "%s names analysis %r, which this harness does not have" % (
            rel, frozen["analysis"]), rel)
    if analysis.level not in levels:
        return False, _every(claims, "skip", "level %s not requested" % analysis.level)
    return True, (analysis, claims)


def _compute_units(inst, ctx, analysis):
    """``(True, (produced, unit_state))``: every unit whose inputs pass their gates computed under
    :class:`~nclue.core.inputs.recording` (``produced``: claim id -> (value, unit)); ``unit_state``:
    frozenset(inputs) -> the (status, reason, cause) of each unit not computed or failing -- including one
    that read a file its claims do not record.  ``(False, (status, reason, cause))`` when the units cannot
    be enumerated or the files that define them fail."""
    with recording() as seen:
        ok, units = attempt("enumerating the units of " + analysis.name, lambda: analysis.units(inst))
    if not ok:
        return False, State("fail", "cannot enumerate %s: %s" % (analysis.name, units), _cause(units))
    gate = _worst_gate(ctx, integrity.observed_inputs(inst.root, seen))     # what defines the units (systems.json)
    if gate:
        return False, State(gate.status, "the units of %s are defined by %s: %s" % (analysis.name, gate.cause,
                                                                                       gate.reason), gate.cause)
    produced, unit_state = {}, {}
    for unit in units:
        state = _worst_gate(ctx, unit.inputs)
        if state is None:
            with recording() as seen:
                ok, values = attempt("computing %s unit %s" % (analysis.name, unit.key),
                                     lambda unit=unit: list(unit.compute()))
            unrecorded = sorted(set(integrity.observed_inputs(inst.root, seen)) - set(unit.inputs))
            if ok and unrecorded:
                # the unit read a file its claims do not name: their inputs (and so the gates, the coverage
                # and the staleness checks resting on them) would be incomplete
                state = State("fail", "unit %s of %s read %s, which its claims do not record as an input" % (
                    unit.key, analysis.name, unrecorded[0]), None)
            elif ok:
                for value in values:
                    produced[value.id] = (value, unit)
            else:
                state = State("fail", values, _cause(values))
        if state is not None:
            unit_state.setdefault(frozenset(unit.inputs), []).append(state)
    return True, (produced, unit_state)


def _compare_claim(ctx, rel, analysis, c, produced, unit_state):
    """The check of one frozen claim ``c``: its recomputed value against the frozen one under its rule,
    failing when it was frozen from other inputs or from a file whose hash has changed; a claim not
    recomputed takes its unit's state (or its inputs' gate)."""
    inputs = input_paths(c)
    if c["id"] not in produced:
        states = unit_state.get(frozenset(inputs), [])
        fails = [st for st in states if st.status == "fail"]
        state = fails[0] if fails else (states[0] if states else _worst_gate(ctx, inputs))
        if state is None:
            state = State("fail", "claim is not recomputed by analysis %s" % analysis.name, None)
        return Check(c["id"], c["level"], state.status, state.reason, c["rule"], c["value"], None, c["source"],
                     state.cause, inputs)
    value, unit = produced[c["id"]]
    declared = value.estimate.as_json() if value.estimate is not None else None
    origin = (analysis.name, unit.key)
    mismatch = _frozen_identity(c, inputs, value, unit, declared)
    if mismatch is not None:
        return Check(c["id"], c["level"], "fail", mismatch, c["rule"], c["value"], value.value, c["source"], rel,
                     inputs, estimate=declared, origin=origin)
    stale = [item["path"] for item in c["inputs"] if ctx.files.get(item["path"]) is None
             or ctx.files[item["path"]].sha256 != item["sha256"]]
    ok, why = compare(c["rule"], value.value, c["value"])
    detail = " -- " + value.detail if value.detail else ""
    if stale:
        reason = "claim was frozen from a different %s (sha256 differs); " % stale[0]
        reason += "value still agrees" if ok else why + detail
        status, cause = "fail", stale[0]
    elif ok:
        reason, status, cause = _pass_reason(c, value), "pass", None
    else:
        reason, status, cause = why + detail, "fail", None
    return Check(c["id"], c["level"], status, reason, c["rule"], c["value"], value.value, c["source"], cause, inputs,
                 estimate=declared, origin=origin)


def _pass_reason(c, value):
    """The one line a pass carries: the values compared and the rule; for a paper relation frozen as "fail",
    that the paper's inconsistency was found again (:data:`EXPECTED_PAPER_FAIL`)."""
    if c["level"] == "paper" and c["value"] == "fail":
        return EXPECTED_PAPER_FAIL
    return "recomputed %s, frozen %s (rule %s)" % (show_value(value.value), show_value(c["value"]), c["rule"])


def _frozen_identity(c, inputs, value, unit, declared):
    """Why a frozen claim is not the claim its analysis computes (None when it is): frozen from other inputs,
    under another rule, or with another Monte Carlo or tie-order declaration; each is part of what was frozen."""
    if set(inputs) != set(unit.inputs):
        other = sorted(set(inputs) ^ set(unit.inputs))
        return "claim was frozen from inputs that are not the files its analysis reads (%s: %s)" % (
            "frozen but not read" if other[0] in inputs else "read but not frozen", other[0])
    if c["rule"] != value.rule:
        return "claim was frozen with rule %s, but its analysis compares it under %s (a claim's rule is part of " \
            "what was frozen)" % (c["rule"], value.rule)
    changed = estimate_difference(c.get("estimate"), declared)
    if changed is not None:
        kind = (declared or c.get("estimate") or {}).get("kind")
        return "claim's %s declaration differs from the frozen one: field %r expected %r, recomputed %r" % (
            "Monte Carlo" if kind == "monte_carlo" else "estimate", changed[0], changed[1], changed[2])
    return None


def _shape_checks(inst, ctx, present_claim_files):
    """Required files of every present part, and the claim file of every analysis with work to do."""
    checks = []
    missing = missing_files(inst.root, ctx.presence)
    for part, pattern in missing:
        checks.append(Check("shape.%s:%s" % (part, pattern), "integrity", "fail", "release part %s is present but has "
                            "no %s (a required file)" % (part, pattern), cause=pattern))
    for name in sorted(REGISTRY):
        analysis = REGISTRY[name]
        rel = layout.claim_file(name)
        if analysis_part(name) not in ctx.presence or rel in present_claim_files:
            continue
        ok, units = attempt("enumerating the units of " + name, lambda analysis=analysis: analysis.units(inst))
        if ok and not units:
            continue
        checks.append(Check("claims:" + rel, "integrity", "fail", "frozen claims file %s is missing: release part %s "
                            "is present and analysis %s has %s to check" % (
                                rel, analysis_part(name), name, "%d units" % len(units) if ok else "inputs"),
                            cause=rel))
    if not checks:
        checks.append(Check("shape.complete", "integrity", "pass", "every present part (%s) has its required files "
                            "and claim files" % ", ".join(sorted(ctx.presence.parts)) or "none"))
    return checks


# the claims that re-derive the qrels and the structure of each release; their failure implicates their inputs
DERIVATION_CHECKS = (CONSTRUCTION, V2_STRUCTURE)


def _derives(claim_id):
    return any(template.match(claim_id) is not None for template in DERIVATION_CHECKS)


def _attribute(checks):
    """Name a root cause for value mismatches: a failing claim that reads a file the construction checks
    (the qrels re-derivation, Table 1) find inconsistent is attributed to those files."""
    implicated = set()
    for c in checks:
        if c.status == "fail" and c.cause is None and _derives(c.id):
            implicated.update(c.inputs)
    if not implicated:
        return
    for c in checks:
        if c.status == "fail" and c.cause is None and not _derives(c.id):
            hit = sorted(set(c.inputs) & implicated)
            if hit:
                c.cause = " + ".join(hit)


_WORKER_STATE = {}


def _claim_file_worker(rel):
    """One claim file in a worker process (forked after the integrity stage: it inherits the instrument
    and the integrity ctx); returns what the serial loop would have produced."""
    inst, ctx, levels = _WORKER_STATE["args"]
    read = set()
    return rel, _run_claim_file(inst, ctx, rel, levels, read), read


def _claim_file_results(inst, ctx, files, levels, jobs, done_hook=None, log=None):
    """``(rel, checks, read paths)`` of every claim file, in file order.  With ``jobs > 1`` (and ``fork``
    available) the files are computed in worker processes; the results are merged in the same order, so
    the report is byte-identical for any ``jobs``.  ``done_hook(rel, checks)`` is called as each file
    finishes, in the order they finish (the progress lines)."""
    compute, needed = requested_work(ctx, files, levels)

    def serial(rels):
        for rel in rels:
            read = set()
            checks = _run_claim_file(inst, ctx, rel, levels, read)
            if done_hook is not None:
                done_hook(rel, checks)
            yield rel, checks, read

    # a claim file's size stands for its work; heavy files first so that the two ends of the queue finish
    # together (the results are re-ordered below)
    weight = {rel: os.path.getsize(layout.abspath(inst.root, rel)) if os.path.isfile(
        layout.abspath(inst.root, rel)) else 0 for rel in compute}
    if jobs <= 1 or not worth_forking(list(weight.values())) or not _can_fork():
        yield from serial(files)
        return
    import multiprocessing  # imported when used: a serial run never loads it

    order = sorted(compute, key=lambda rel: (-weight[rel], rel))
    done, pending = {}, list(files)
    wanted = set(compute)
    for rel, checks, read in serial([rel for rel in files if rel not in wanted]):
        done[rel] = (checks, read)           # files of levels not requested: their skips, in this process
    if log is not None:
        log("preloading the inputs the %d claim files of the requested levels share, for %d workers" % (
            len(compute), jobs))
    _prewarm(inst, ctx, needed)
    if log is not None:
        log("preloaded; computing %d claim files" % len(compute))
    _WORKER_STATE["args"] = (inst, ctx, levels)
    try:
        while pending and pending[0] in done:
            first = pending.pop(0)
            yield (first,) + done.pop(first)
        with multiprocessing.get_context("fork").Pool(jobs, initializer=_worker_signals) as pool:
            for rel, checks, read in pool.imap_unordered(_claim_file_worker, order, chunksize=1):
                if done_hook is not None:
                    done_hook(rel, checks)
                done[rel] = (checks, read)
                while pending and pending[0] in done:      # yield in file order as soon as possible
                    first = pending.pop(0)
                    yield (first,) + done.pop(first)
    finally:
        _WORKER_STATE.clear()


PARALLEL_SHARE = 0.25      # the work outside the heaviest claim file that makes a second process pay


def _worker_signals():
    """A worker ends on SIGTERM at once (the pool stops its workers so): the command line's SIGTERM handler,
    inherited through fork, is for the main process's clean-up only."""
    import signal
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def worth_forking(weights):
    """Whether claim files of these weights (sizes) are worth computing in several processes: at least two,
    and the ones besides the heaviest carry at least :data:`PARALLEL_SHARE` of the total -- otherwise the
    heaviest file alone sets the wall time and the fork and the preloading only add to it
    (``--only integrity``, ``--only paper``).

    >>> worth_forking([5]), worth_forking([100, 10]), worth_forking([100, 60, 20])
    (False, False, True)
    """
    total = sum(weights)
    return len(weights) >= 2 and total > 0 and (total - max(weights)) >= PARALLEL_SHARE * total


def _can_fork():
    import multiprocessing
    return "fork" in multiprocessing.get_all_start_methods()


def requested_work(ctx, files, levels):
    """``(compute, shared)``: the claim files a run of ``levels`` computes (those of the requested levels, and
    any whose frozen document could not be read, which fail at once), and the released files that the claims
    of at least two of them record as inputs -- what more than one worker would otherwise load, and so all
    that is worth preloading before they fork (a file one claim file reads is loaded by its worker, in
    parallel)."""
    compute, users = [], {}
    for rel in files:
        document = ctx.documents.get(rel)
        analysis = REGISTRY.get(document.get("analysis")) if isinstance(document, dict) and isinstance(
            document.get("analysis"), str) else None
        if analysis is not None and analysis.level not in levels:
            continue
        compute.append(rel)
        claims = document.get("claims") if isinstance(document, dict) else None
        read = set()
        for claim in claims if isinstance(claims, list) else ():
            inputs = claim.get("inputs") if isinstance(claim, dict) else None
            for item in inputs if isinstance(inputs, list) else ():
                if isinstance(item, dict) and isinstance(item.get("path"), str):
                    read.add(item["path"])
        for path in read:
            users[path] = users.get(path, 0) + 1
    return compute, {path for path, count in users.items() if count > 1}


def _prewarm(inst, ctx, needed):
    """Load, before the workers fork (they inherit it), what the claim files to compute share: the queries,
    corpus and qrels of each release they read, the rankings among ``needed`` (the files their claims
    record as inputs) and each such ranking's outcome vectors under each of its release's qrel copies that
    is also needed (:func:`nclue.analyses.shared.outcome_vectors.outcomes`; computed once here instead of once per
    worker).
    A file that fails to load is left to the claims that read it (they report it)."""
    v1, v2 = inst.release(layout.CROSSPAGE), inst.release(layout.SOURCESHIFT)
    for part in (v1, v2):
        if any(rel.startswith(part.base + "/") for rel in needed):
            for load in (part.queries, part.corpus, part.qrels):
                attempt("preloading", load)
    for rel, f in sorted(ctx.files.items()):
        if f.status == "ok" and f.role in ("ranking", "form-ranking") and rel in needed:
            in_v2 = rel.startswith(layout.V2 + "/")
            part = v2 if in_v2 else v1
            copies = [c for c in part.copies() if c.path in needed]
            if not attempt("preloading " + rel, lambda rel=rel, part=part: part.ranking(rel))[0]:
                continue
            for copy in copies:
                if ctx.status(copy.path) == "ok":
                    attempt("preloading the outcomes of " + rel, lambda rel=rel, part=part, copy=copy: outcomes(
                        part, rel, copy))


def available_cores():
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_jobs(cores=None, load=None):
    """The ``--jobs`` default: the cores this process may use that other work is not already using (the
    available cores minus the one-minute load average, rounded; at least 1).  On a machine whose cores are
    busy a second worker only competes with the first and with the serial part before the fork, so the
    default falls back to one process there (docs/usage.md#speed-and---jobs).

    >>> default_jobs(cores=2, load=0.2), default_jobs(cores=2, load=1.0), default_jobs(cores=8, load=3.4)
    (2, 1, 5)
    """
    cores = available_cores() if cores is None else cores
    if load is None:
        try:
            load = os.getloadavg()[0]
        except (AttributeError, OSError):
            load = 0.0
    return max(1, min(cores, int(cores - load + 0.5)))


def run(root, levels=LEVELS, deep=False, log=None, jobs=1, announce=None, draws_multiplier=1):
    """Every requested check of the release at ``root`` (docs/claims.md), as stages over one
    :class:`~nclue.run.run_context.RunContext`: integrity, the claim files, the paper audit and the
    published results, the rebuild.  ``log(line)`` receives the progress lines (one as the run starts,
    one after the integrity stage, one per claim file as it finishes); ``announce(manifest)`` is called as
    soon as MANIFEST.json is read (None when it is unusable), so that a caller can name the instrument
    before the files are hashed.  ``draws_multiplier``: the published Monte Carlo numbers are recomputed with that
    many times their draws (:func:`recompute_monte_carlo`); the instrument's own claims are not."""
    check_root(root)
    ctx = RunContext(root, levels, log)
    ctx.progress("start", "checking %s (levels %s; %d job%s)" % (
        root, ",".join(lv for lv in LEVELS if lv in levels), jobs, "" if jobs == 1 else "s"))
    checks = _integrity_stage(ctx, announce)
    inst = Instrument(root)
    checks += _claims_stage(ctx, inst, jobs, checks)
    paper = _paper_stage(ctx, inst)
    published = _published(root, ctx, checks, levels, draws_multiplier)
    if published is not None:
        ctx.progress("published", "%d of %d transcribed numbers bound" % (published["summary"]["bound"],
                                                                         published["summary"]["numbers"]))
    _attribute(checks)
    checks += _rebuild_stage(ctx, deep)
    run_result = RunResult(root, checks, ctx.integrity, levels)
    run_result.paper = paper
    run_result.published = published
    return run_result


def _integrity_stage(ctx, announce):
    """Hash every listed file (:func:`nclue.core.integrity.check`), decode every JSON file once (the frozen
    claim files are kept in ``ctx.documents``), and one check per manifest problem and per file; a file whose
    hash differs gets the field-level problem inside it as the check's detail."""
    ctx.integrity = integrity.check(ctx.root, on_manifest=announce, keep_json=True)
    ctx.progress("integrity", "%d listed files hashed" % len(ctx.files))
    ctx.presence = Presence(ctx.root, ctx)
    checks = [Check(cid, "integrity", status, reason) for cid, status, reason in ctx.problems]
    for rel in sorted(ctx.files):
        f = ctx.files[rel]
        if f.status == "ok" and rel.endswith(".json"):
            data, f.content = f.content, None      # the bytes hashed: decoded from the same read, then let go
            ok, why = attempt("reading " + rel, lambda rel=rel, data=data: read_json(layout.abspath(ctx.root, rel), rel)
                              if data is None else json_document(data, rel))
            if not ok:
                f.status, f.reason = "bad", why
            elif f.role == "frozen-claims":
                ctx.documents[rel] = why
        detail = None
        if f.status == "bad" and f.sha256 and os.path.isfile(layout.abspath(ctx.root, rel)):
            detail = content_problem(ctx.root, rel, f.role)      # the hash differs: what is wrong inside?
        checks.append(Check("integrity.file:" + rel, "integrity", "pass" if f.status == "ok" else "fail",
                            f.reason if f.status != "ok" else "sha256 %s" % f.sha256[:16], detail=detail))
    return checks


def _claims_stage(ctx, inst, jobs, earlier):
    """The release's shape, every frozen claim file's checks (in file order, computed in ``jobs``
    processes), claim ids unique across files, every listed file read by some check (coverage), and a skip
    for each requested level without claims.  ``earlier``: the integrity stage's checks (for the ids)."""
    files = claim_files(ctx.root, ctx)
    checks = _shape_checks(inst, ctx, {rel for rel in files if os.path.isfile(layout.abspath(ctx.root, rel))})

    def finished(rel, file_checks):
        if file_checks and file_checks[-1].group in ctx.levels:
            ctx.progress(file_checks[-1].group, "%s (%d checks)" % (rel.split("/")[-1][:-5], len(file_checks)))

    ctx.progress("start", "%d JSON files decoded, %d claim files to compute" % (len(ctx.documents), len(files)))
    seen_levels, read = set(), set()
    for _rel, file_checks, file_read in _claim_file_results(inst, ctx, files, ctx.levels, jobs, finished,
                                                            lambda text: ctx.progress("start", text)):
        read.update(file_read)
        for c in file_checks:
            seen_levels.add(c.group)
            checks.append(c)
    ids = {}
    for c in earlier + checks:
        if c.id.startswith(("integrity", "claims:", "shape.", "level:")):
            continue
        ids[c.id] = ids.get(c.id, 0) + 1
    repeated = sorted(cid for cid, n in ids.items() if n > 1)
    if repeated:
        checks.append(Check("claims.unique_ids", "integrity", "fail", "%d claim ids are frozen in more than one claims "
                            "file (first: %s)" % (len(repeated), repeated[0])))
    if ctx.manifest is not None:
        unread = unread_files({p: f.role for p, f in ctx.files.items()}, read, files)
        checks.append(Check("integrity.coverage", "integrity", "fail" if unread else "pass",
                            "released files no check reads: " + ", ".join(unread[:5]) + (
                                " ... (%d in all)" % len(unread) if len(unread) > 5 else "") if unread else
                            "every one of the %d listed files is read by a check" % len(ctx.files)))
    for level in ("derivation", "scoring", "inference", "sensitivity", "paper"):
        if level not in seen_levels and level in ctx.levels:
            checks.append(Check("level:" + level, level, "skip",
                                "no frozen claims at this level in reference_metrics/ of this release"))
    return checks


def _paper_stage(ctx, inst):
    """The paper audit's result (relations and numbers), when the paper level is requested and the
    transcription is sound; None otherwise (the paper.audit claims report a failure)."""
    if "paper" not in ctx.levels or ctx.status(layout.PAPER_NUMBERS) != "ok":
        return None
    ok, paper = attempt("auditing the paper's numbers", lambda: paper_result(inst))
    return paper if ok else None


def _rebuild_stage(ctx, deep):
    """``--deep``: rebuild the stand-in and compare byte for byte; otherwise one skip."""
    if not deep:
        return [Check("level:rebuild", "rebuild", "skip", "level rebuild not requested (use --deep)")]
    from .rebuild import rebuild_checks  # the builder is imported only for --deep

    ok, rebuilt = attempt("rebuilding the stand-in", lambda: rebuild_checks(ctx.root, ctx, log=ctx.log))
    return rebuilt if ok else [Check("rebuild", "rebuild", "fail", rebuilt)]


def _published(root, ctx, checks, levels, draws_multiplier=1):
    """Append the published-results checks (:mod:`nclue.run.published`); return their bindings and
    summary (None when the paper level does not run or the paper part is absent)."""
    if "paper" not in levels or "paper" not in ctx.presence:
        return None
    gate = _worst_gate(ctx, [layout.PAPER_NUMBERS, layout.CROSSWALK])
    if gate is not None:
        checks.append(Check("published", "published", gate.status, "published results cannot be bound: " +
                            gate.reason, cause=gate.cause))
        return None
    synthetic = (ctx.manifest or {}).get("synthetic") is not False
    ok, built = attempt("binding the published results", lambda: build_published(root, checks, synthetic))
    if ok and draws_multiplier > 1 and not synthetic:
        ctx.progress("published", "recomputing the published Monte Carlo numbers with %d x their draws" %
                     draws_multiplier)
        ok, built = attempt("recomputing the published Monte Carlo numbers", lambda: build_published(
            root, checks, synthetic, recompute_monte_carlo(root, checks, built[1]["bindings"], draws_multiplier)))
    if not ok:
        checks.append(Check("published", "published", "fail", built))
        return None
    built[1]["summary"]["draws_multiplier"] = draws_multiplier if not synthetic else 1
    checks.extend(built[0])
    return built[1]


def recompute_monte_carlo(root, checks, bindings, multiplier):
    """``{claim id: (value, estimate JSON)}`` of every claim a published Monte Carlo number is bound to, computed
    again on a fresh :class:`~nclue.core.instrument.Instrument` with ``multiplier`` times every resampling's draws
    (:func:`nclue.stats.protocol.multiplied`), so that the run's Monte Carlo error shrinks by ``sqrt(multiplier)``
    (docs/claims.md#monte-carlo-verdicts).  Only the units (:attr:`Check.origin`) holding those claims are computed;
    a claim whose check did not compute (a failing gate) is left out and keeps its skip or fail."""
    from ..stats import protocol

    wanted = {b["claim"] for b in bindings if b.get("monte_carlo") is not None and b.get("recomputed") is not None}
    origins = {}
    for c in checks:
        if c.id in wanted and c.origin is not None and c.observed is not None:
            origins.setdefault(c.origin[0], set()).add(c.origin[1])
    inst, out = Instrument(root), {}
    with protocol.multiplied(multiplier):
        for name in sorted(origins):
            for unit in REGISTRY[name].units(inst):
                if unit.key in origins[name]:
                    for value in unit.compute():
                        if value.id in wanted:
                            out[value.id] = (value.value, value.estimate.as_json() if value.estimate else None)
    return out


