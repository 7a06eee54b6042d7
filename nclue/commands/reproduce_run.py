"""Checking a reviewer's re-run of one of the paper's configurations (docs/usage.md#checking-a-re-run).

``nclue reproduce-run RUN --role ROLE`` asks whether a run re-does a role of the paper: ``ROLE`` is a paper
system named as in the crosswalk's ``system`` namespace (``bm25_and``, ``jina_joint``), played on this
instrument by the crosswalk's system; ``nclue reproduce-run BASE VARIANT --role BLOCK`` re-does a Table 5
block (``lexical_composition``) with one run for each side.  Each run is compared:

1. with the released ranking of its role (the original release's; on the stand-in, the system that plays
   the role), query by query: Kendall's tau union and rank-biased overlap at depth 10, the RMSE of every
   per-query measure, the paired whole-family sign-flip test of the difference (the harness's masks), and
   the queries whose outcome (complete first / subset first / no gold) changed
   (:mod:`nclue.stats.reproducibility`, docs/statistics.md#reproduction-measures);
2. with the paper's published row of that role, in every table the paper audit binds it in (3, 4, 6, S1j,
   S2b, S3; Table 5 for a pair): the analyses whose units read the role's ranking are computed again on an
   instrument where that ranking is the run (:meth:`nclue.core.instrument.Instrument.with_rankings`), so each
   cell is recomputed by the code that computed the released one, and judged by the paper audit's rule
   (the Monte Carlo rule for an estimate, docs/claims.md#monte-carlo-verdicts).  On the synthetic stand-in
   every such verdict is a skip: its values are not the paper's;
3. on a release of real documents that are not the paper's (RealPage, ``--release v3``), where the paper
   publishes no value: every claim of the release's own analyses that reads the role's ranking, recomputed on
   the run and set beside its released value (``release_claims``).

For a pair, the effect ratio and Delta RI of the contrast (re-run against released), and whether the
re-run's paired interval covers the released and the published Delta n-Clue Score.
"""

import math
import os

from ..analyses import REGISTRY
from ..core import layout
from ..core.claim_ids import FORMS, MATRIX, SCORECARD, V2_FORMS
from ..core.errors import EmptyRun, InputError, UsageError, bounded
from ..core.instrument import Instrument
from ..core.jsonio import read_json
from ..core.measures import MEASURES, PER_QUERY_MEASURES
from ..core.metrics import summary
from ..paperaudit import results, roles
from ..paperaudit.consistency import load_numbers
from ..paperaudit.crosswalk import load as load_crosswalk
from ..run.locate import data_root
from ..run.runner import check_root
from ..stats import randomization
from ..stats import reproducibility as repro
from .score import (
    Design,
    Judgements,
    _on_scale,
    _release_hint,
    _synthetic,
    comparisons,
    draw_values,
    intervals,
    read_run,
    verify_inputs,
)

# the tables in which the paper reports a CrossPage system's row (Table S3 is SourceShift's: a CrossPage run
# does not re-do it), and Table 5 for a block
SYSTEM_TABLES = ("Table 3", "Table 4", "Table 6", "Table S1j", "Table S2b")
# SourceShift's (--release v2): Table S3, one score per system and query form
SOURCESHIFT_TABLES = ("Table S3",)
# the query form a role's main table ranks: Table 3 is the clean scorecard, Table 5's contrasts are on the raw
# queries (the raw-form matrix)
DEFAULT_FORM = {"system": layout.CLEAN, "block": layout.RAW}
BLOCK_TABLES = ("Table 5",)
# the analyses whose per-system claims are a measure over every evaluation query (a cell bound to one of them is
# judged in the re-run's standard errors; a slice's or a contrast's cell is not)
WHOLE_QUERY_CLAIMS = (SCORECARD, MATRIX, FORMS, V2_FORMS)
OUTCOMES = ("complete first", "subset first", "no gold")


def _outcome(hit, success):
    return OUTCOMES[0] if success else OUTCOMES[1] if hit else OUTCOMES[2]


def role_systems(crosswalk, role):
    """``(kind, [(paper key, system id)])`` of a role: a ``system`` row (one system) or a Table 5 block (its base
    and variant, :data:`nclue.paperaudit.roles.BLOCKS`, through the crosswalk).  An unknown role, or one this
    instrument cannot play, is a :class:`~nclue.core.errors.UsageError` saying which roles there are."""
    systems = crosswalk.rows["system"]
    role = resolve_role(crosswalk, role)
    if role in systems:
        sides = [("system", role)]
        kind = "system"
    elif role in roles.BLOCKS:
        block = roles.BLOCKS[role]
        sides = [block.base, block.variant]
        kind = "block"
    else:
        raise UsageError("--role: unknown role %s (systems: %s; Table 5 blocks: %s)" % (
            bounded(repr(role), 80), ", ".join(sorted(systems)), ", ".join(sorted(roles.BLOCKS))))
    out = []
    for namespace, key in sides:
        sid = crosswalk.rows.get(namespace, {}).get(key)
        if sid is None:
            raise UsageError("--role %s: %s / %s is blocked on this instrument (%s)" % (
                role, namespace, key, crosswalk.notes.get((namespace, key), "no system plays it")))
        out.append((key, sid))
    return kind, out


def resolve_role(crosswalk, role):
    """The paper's name of a ``--role``: a role as the paper names it, a ``BASE,VARIANT`` pair (:func:`_block_of_pair`)
    or the id of the one system of the release that plays a role (``bm25_dec_sdr`` for ``bm25_sdr``).

    >>> from collections import namedtuple
    >>> cw = namedtuple("Crosswalk", "rows")({"system": {"bm25_and": "bm25_and", "bm25_sdr": "bm25_dec_sdr"}})
    >>> resolve_role(cw, "bm25_dec_sdr"), resolve_role(cw, "bm25_sdr"), resolve_role(cw, "bm25_and,bm25_dec_sdr")
    ('bm25_sdr', 'bm25_sdr', 'lexical_composition')
    """
    if "," in role:
        return _block_of_pair(role, crosswalk)
    systems = crosswalk.rows["system"]
    if role in systems or role in roles.BLOCKS:
        return role
    played = sorted(key for key, sid in systems.items() if sid == role)
    return played[0] if len(played) == 1 else role


def _block_of_pair(role, crosswalk=None):
    """The Table 5 block a ``BASE,VARIANT`` role names: its two sides as the paper's roles (``bm25_and,bm25_sdr``)
    or, given the crosswalk, as the ids of the systems that play them (``bm25_and,bm25_dec_sdr``); a pair that
    is no block's is a :class:`~nclue.core.errors.UsageError` listing the blocks' pairs."""
    pair = tuple(part.strip() for part in role.split(","))
    for name, block in sorted(roles.BLOCKS.items()):
        if pair == (block.base[1], block.variant[1]):
            return name
        if crosswalk is not None and pair == tuple(crosswalk.rows.get(ns, {}).get(key) for ns, key in
                                                   (block.base, block.variant)):
            return name
    raise UsageError("--role %s: the base and variant do not form a Table 5 block (blocks: %s)" % (
        bounded(repr(role), 80), ", ".join("%s = %s,%s" % (name, b.base[1], b.variant[1])
                                           for name, b in sorted(roles.BLOCKS.items()))))


def _released_files(inst, sid, form):
    """The released ranking files of a system in one query form: for ``raw`` the raw-form matrix's file and the
    query-form matrix's raw file (both rank the raw queries), for another form the query-form matrix's."""
    form = layout.query_form(form)
    rels = [inst.spec.ranking(sid), inst.spec.form_ranking(sid, form)] if form == layout.RAW else [
        inst.spec.form_ranking(sid, form)]
    return [rel for rel in dict.fromkeys(rels) if inst.exists(rel)]


def _agreement(released, rerun, qids):
    """Mean Kendall's tau union and RBO over the queries the re-run ranks, as repro_eval averages over the
    re-run's topics, with the per-query values."""
    taus, rbos, short = {}, {}, 0
    for q in qids:
        if q not in rerun:
            continue
        a = list(released[q].docids) if q in released else []
        b = list(rerun[q].docids)
        taus[q] = repro.kendall_tau_union(a, b)
        rbos[q] = repro.rank_biased_overlap(a, b)
        short += min(len(a), len(b)) < repro.DEPTH
    defined = [t for t in taus.values() if t is not None]
    return {"kendall_tau_union": math.fsum(defined) / len(defined) if defined else None,
            "rbo": math.fsum(rbos.values()) / len(rbos) if rbos else None,
            "rbo_p": repro.RBO_P, "depth": repro.DEPTH, "queries": len(rbos),
            "tau_undefined": len(taus) - len(defined), "rbo_short_lists": short}, taus, rbos


def _per_query(measure, out):
    """A measure's per-query values in its ``score`` unit, None where undefined."""
    return [None if v is None else measure.scale * v for v in measure.values(out)]


def _measures(design, released_out, rerun_out):
    """Per measure: released and re-run totals, their difference, the per-query RMSE and the paired sign-flip
    p of the per-query difference (one test per measure on the harness's masks), and the re-run's bootstrap
    standard error."""
    rows, diffs = {}, []
    ivs = intervals(design, rerun_out, PER_QUERY_MEASURES)
    s_rel, s_run = summary(released_out), summary(rerun_out)
    for m in PER_QUERY_MEASURES:
        a, b = _per_query(m, released_out), _per_query(m, rerun_out)
        pairs = [(x, y) for x, y in zip(a, b) if x is not None and y is not None]
        released, rerun = _on_scale(m, s_rel[m.key]), _on_scale(m, s_run[m.key])
        rows[m.name] = {"unit": m.unit, "released": released, "rerun": rerun,
                        "delta": None if released is None or rerun is None else rerun - released,
                        "rmse": repro.rmse([x for x, _ in pairs], [y for _, y in pairs]),
                        "se": _standard_error(design, m, rerun_out), "ci_low": ivs[m.name][0],
                        "ci_high": ivs[m.name][1]}
        diffs.append(randomization.family_differences(design.design, [0 if x is None else x for x in a],
                                                      [0 if y is None else y for y in b]))
    for m, test in zip(PER_QUERY_MEASURES, randomization.sign_flip_tests(diffs, design.masks)):
        rows[m.name]["p"] = test.p_value() if any(diffs[PER_QUERY_MEASURES.index(m)]) else 1.0
    return rows


def _standard_error(design, measure, out):
    """The bootstrap standard error of a measure's mean (the standard deviation of its draws,
    :func:`nclue.commands.score.draw_values`), in its unit; None with fewer than two draws."""
    dist = draw_values(design, measure, out)
    if len(dist) < 2:
        return None
    mean = math.fsum(dist) / len(dist)
    return math.sqrt(math.fsum((x - mean) ** 2 for x in dist) / (len(dist) - 1))


def _outcome_changes(released_out, rerun_out, per_query):
    """How many queries changed outcome, by transition; with ``per_query`` the changed queries themselves."""
    transitions, changed = {}, []
    for i, q in enumerate(rerun_out.qids):
        before = _outcome(released_out.hit[i], released_out.success[i])
        after = _outcome(rerun_out.hit[i], rerun_out.success[i])
        if before != after:
            key = "%s -> %s" % (before, after)
            transitions[key] = transitions.get(key, 0) + 1
            changed.append({"qid": q, "released": before, "rerun": after})
    out = {"changed": len(changed), "queries": len(rerun_out.qids), "transitions": dict(sorted(transitions.items()))}
    if per_query:
        out["changed_queries"] = changed
    return out


def _frozen_values(root, names):
    """``{claim id: frozen value}`` of the named analyses' claim files."""
    out = {}
    for name in names:
        rel = layout.claim_file(name)
        document = read_json(layout.abspath(root, rel), rel)
        for claim in document.get("claims", []):
            if isinstance(claim, dict) and "id" in claim:
                out[claim["id"]] = claim.get("value")
    return out


def _tables(kind, inst):
    """The tables a role's row is published in: Table 5 for a block; for a system, CrossPage's tables or, on
    SourceShift, Table S3."""
    if kind == "block":
        return BLOCK_TABLES
    return SOURCESHIFT_TABLES if inst.base == layout.V2 else SYSTEM_TABLES


def _wanted(root, role, tables):
    """The claims the paper audit's rules bind the role's row to in ``tables`` (whether computed or not), read
    from the rules themselves (:func:`nclue.paperaudit.results.rules_for`) for the role's numbers only, not by
    binding every published number."""
    from ..run.published import table_label

    crosswalk = load_crosswalk(root)
    out = set()
    for nid, (_, row) in load_numbers(root).items():
        if row.get("row") != role or table_label(nid, row) not in tables:
            continue
        for rule, key in results.rules_for(nid):
            claim, _ = results.resolve(rule, key, crosswalk.rows)
            if claim is not None:
                out.add(claim)
    return out


def _recompute(inst, replaced, wanted):
    """``({claim id: (value, estimate JSON)}, frozen values, analyses)``: the units that read one of the
    ``replaced`` ranking files, of the release's analyses whose frozen claims hold a ``wanted`` claim (None:
    every one of them), computed on an instrument where those files are the re-runs."""
    overlay = inst.with_rankings(replaced)
    out, frozen, names = {}, {}, []
    for name in sorted(REGISTRY):
        analysis = REGISTRY[name]
        if analysis.part != inst.spec.name:
            continue
        units = [u for u in analysis.units(inst) if set(u.inputs) & set(replaced)]
        if not units:
            continue
        values = _frozen_values(inst.root, [name])
        if wanted is not None and not set(values) & wanted:
            continue
        names.append(name)
        frozen.update(values)
        keys = {u.key for u in units}
        for unit in analysis.units(overlay):
            if unit.key in keys:
                for value in unit.compute():
                    out[value.id] = (value.value, value.estimate.as_json() if value.estimate else None)
    return out, frozen, names


def _cells(root, role, tables, recomputed, frozen, synthetic, ses):
    """The published cells of the role's row in its tables (each as :func:`_cell`), in the paper's order, and
    each table's verdict (:func:`_table_verdicts`)."""
    from ..run.published import build as build_published
    from ..run.published import paper_order

    checks, built = build_published(root, [], synthetic, recomputed)
    reasons = {c.id: c.reason for c in checks}
    numbers = {nid: row for nid, (_, row) in load_numbers(root).items()}
    cells = [_cell(b, frozen, ses, reasons) for b in built["bindings"]
             if b.get("bound") and b["table"] in tables and b["claim"] in recomputed
             and numbers.get(b["number"], {}).get("row") == role]
    cells.sort(key=lambda c: (paper_order(c["table"]), c["number"]))
    return cells, _table_verdicts(cells, tables, synthetic)


def _cell(binding, frozen, ses, reasons):
    """One published cell: published, released and re-run values, the difference (re-run minus published) and,
    where the cell is a whole-query measure of the run, that difference in the re-run's standard errors."""
    claim = binding["claim"]
    released = frozen.get(claim)
    released = results.scale_value(released, binding["scale"]) if isinstance(released, (int, float)) else None
    parts = next((found for found in (template.match(claim) for template in WHOLE_QUERY_CLAIMS) if found), None)
    leaf = None if parts is None else parts["measure"]
    se = None if leaf is None else ses.get(leaf)       # a slice or a contrast: the whole-query SE does not apply
    paper_se = None if se is None else results.scale_value(se, binding["scale"]) * MEASURES[leaf].scale / \
        _score_scale(leaf)
    diff = None if binding["recomputed"] is None else binding["recomputed"] - binding["published_value"]
    return {"number": binding["number"], "table": binding["table"], "claim": claim,
            "published": binding["published"], "published_value": binding["published_value"],
            "released": released, "rerun": binding["recomputed"], "difference": diff,
            "difference_in_se": None if diff is None or not paper_se else diff / paper_se,
            "monte_carlo": binding.get("monte_carlo"), "status": binding["status"],
            "reason": reasons.get("published:" + binding["number"], "")}


def _table_verdicts(cells, tables, synthetic):
    """Per table holding a cell: its counts and verdict (fail if any cell fails, pass if every cell passes,
    else skip; on the stand-in a skip says why)."""
    out = []
    for table in tables:
        mine = [c for c in cells if c["table"] == table]
        if not mine:
            continue
        counts = {s: sum(1 for c in mine if c["status"] == s) for s in ("pass", "fail", "skip")}
        verdict = "fail" if counts["fail"] else "pass" if counts["pass"] == len(mine) else "skip"
        out.append({"table": table, "cells": len(mine), "verdict": verdict, **counts,
                    "reason": ("SYNTHETIC stand-in: its values are not the paper's; the published cells sit "
                               "beside the re-run's as skips") if synthetic and verdict == "skip" else ""})
    return out


def _score_scale(leaf):
    """The scale ``score`` reports a measure on (its kind's)."""
    from ..core.measures import SCORE_COMMAND_MEASURES
    for m in SCORE_COMMAND_MEASURES:
        if m.name == leaf:
            return m.scale
    return MEASURES[leaf].scale


def _pair(design, judged, inst, sides, rels, outs):
    """ER and Delta RI of the re-run contrast against the released one, per measure, and whether the re-run's
    paired interval of Delta n-Clue Score covers the released and the published deltas."""
    (base_key, base_sid), (variant_key, variant_sid) = sides
    released = [judged.outcomes(inst, rel) for rel in rels]
    out = {}
    for m in PER_QUERY_MEASURES:
        ob, ov = (_per_query(m, o) for o in released)
        rb, rv = (_per_query(m, o) for o in outs)
        keep = [i for i in range(len(ob)) if None not in (ob[i], ov[i], rb[i], rv[i])]
        pick = lambda xs, keep=keep: [xs[i] for i in keep]      # noqa: E731 -- the queries all four define
        out[m.name] = {"unit": m.unit, "effect_ratio": repro.effect_ratio(pick(ob), pick(ov), pick(rb), pick(rv)),
                       "delta_ri": repro.delta_relative_improvement(pick(ob), pick(ov), pick(rb), pick(rv)),
                       "released_delta": math.fsum(pick(ov)) / len(keep) - math.fsum(pick(ob)) / len(keep),
                       "rerun_delta": math.fsum(pick(rv)) / len(keep) - math.fsum(pick(rb)) / len(keep)}
    contrast = comparisons(design, outs[1], [("base", outs[0])])[0]
    released_delta = out["nclue_score_at_10"]["released_delta"]
    return {"base": base_sid, "variant": variant_sid, "paper_base": base_key, "paper_variant": variant_key,
            "measures": out, "rerun_delta_score": contrast["delta_score"],
            "rerun_ci": [contrast["ci_low"], contrast["ci_high"]], "rerun_p": contrast["p"],
            "covers_released": contrast["ci_low"] <= released_delta <= contrast["ci_high"]}


def reproduce_run(runs, role, root=None, form=None, qrels=None, run_format="auto", ties="trec", verify=True,
                  warn=None, per_query=False, stdin=None, release=layout.CROSSPAGE.name):
    """Check ``runs`` (one for a system role, base and variant for a Table 5 block) against the role's released
    rankings and the paper's published row (module doc); returns a JSON-ready dict.

    >>> from nclue.run.locate import CHECKOUT
    >>> result = reproduce_run([layout.abspath(CHECKOUT, layout.CROSSPAGE.form_ranking("bm25_and", layout.CLEAN))], "bm25_and")
    >>> run = result["runs"][0]
    >>> run["agreement"]["kendall_tau_union"], run["measures"]["nclue_score_at_10"]["rmse"], run["outcomes"]["changed"]
    (1.0, 0.0, 0)
    """
    root = data_root(root)
    check_root(root)
    inst, role, kind, sides = _role(Instrument(root).release(release), role, len(runs))
    form, files = _role_files(inst, role, kind, sides, form)
    rels = [found[0] for found in files]
    judged = Judgements.of_copy(inst, inst.copy(qrels))
    verify_inputs(inst, [inst.CORPUS, inst.QUERIES, inst.SYSTEMS, layout.CROSSWALK] + judged.inputs + [
        rel for found in files for rel in found], verify, warn)
    design = Design(inst, judged, shared=judged.released.last)
    rankings, outs, entries = [], [], []
    for path, rel, (key, sid) in zip(runs, rels, sides):
        ranking, order = _read(inst, judged, path, run_format, ties, stdin)
        out = judged.outcomes(inst, ranking=ranking)
        entries.append(_run_entry(inst, judged, design, path, order, key, sid, rel, ranking, out, per_query))
        rankings.append(ranking)
        outs.append(out)
    for entry in entries:
        other = entry["looks_like"]
        if other is not None and warn is not None:
            warn("WARNING: %s agrees better with %s's %s-form released ranking (mean RBO %.3f) than with the role's "
                 "(%.3f): is %s right?\n" % (
                     entry["run"], other["system"], other["form"], other["rbo"], entry["agreement"]["rbo"],
                     "--form %s" % other["form"] if other["system"] == entry["system"] else "--role"))
    ses = {name: row["se"] for name, row in entries[0]["measures"].items()} if kind == "system" else {}
    synthetic = _synthetic(inst) is not False
    replaced = {rel: ranking for found, ranking in zip(files, rankings) for rel in found}
    own = None
    if published_here(inst):
        tables = _tables(kind, inst)
        recomputed, frozen, names = _recompute(inst, replaced, _wanted(root, role, tables))
        cells, verdicts = _cells(root, role, tables, recomputed, frozen, synthetic, ses)
    else:           # the paper publishes nothing on this release: its own claims are what the run re-does
        recomputed, frozen, names = _recompute(inst, replaced, None)
        cells, verdicts, own = [], [], release_claims(recomputed, frozen)
    result = {"instrument": {"root": os.path.abspath(root), "release": inst.base, "qrels": judged.label,
                             "queries": len(judged.queries), "synthetic": _synthetic(inst)},
              "role": {"name": role, "kind": kind, "form": form.key,
                       "systems": [sid for _, sid in sides], "released": rels},
              "runs": entries, "cells": cells, "tables": verdicts, "analyses_recomputed": names}
    if own is not None:
        result["release_claims"] = own
    if kind == "block":
        result["pair"] = _block_pair(design, judged, inst, sides, rels, rankings, outs, entries, cells, warn)
    return result


def published_here(inst):
    """Whether the paper publishes values on ``inst``'s release (or on the release a synthetic stand-in stands in
    for): CrossPage and SourceShift, not RealPage's real documents, whose every value is its own."""
    return not inst.spec.can(layout.REPLICATES_PAPER)


def release_claims(recomputed, frozen):
    """Every recomputed claim of the release's own analyses beside its released value: ``{claims, differing,
    rows}`` with a row ``{claim, released, rerun, difference}`` per claim (difference re-run minus released, for
    numbers), sorted by id."""
    rows = []
    for claim in sorted(recomputed):
        rerun, released = recomputed[claim][0], frozen.get(claim)
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (rerun, released))
        rows.append({"claim": claim, "released": released, "rerun": rerun,
                     "difference": rerun - released if numeric else None, "same": rerun == released})
    return {"claims": len(rows), "differing": sum(1 for r in rows if not r["same"]), "rows": rows}


def _role(inst, role, n_runs):
    """``(instrument, role, kind, sides)`` of ``--role`` on ``--release`` (a ``BASE,VARIANT`` pair named as its
    block); a block on SourceShift, or a number of runs the role does not take, is a
    :class:`~nclue.core.errors.UsageError`."""
    crosswalk = load_crosswalk(inst.root)
    role = resolve_role(crosswalk, role)
    kind, sides = role_systems(crosswalk, role)
    if kind == "block" and not inst.spec.can(layout.RAW_MATRIX):
        raise UsageError("--role %s is a Table 5 block, whose contrasts run on %s: give --release %s" % (
            role, " and ".join(r.title for r in layout.releases_with(layout.RAW_MATRIX)),
            " or ".join(r.name for r in layout.releases_with(layout.RAW_MATRIX))))
    if n_runs != len(sides):
        raise UsageError("--role %s is %s: give %s" % (
            role, "a Table 5 block" if kind == "block" else "a system",
            "two runs, BASE then VARIANT" if kind == "block" else "one run"))
    return inst, role, kind, sides


def _read(inst, judged, path, run_format, ties, stdin):
    """``(ranking, order)`` of one re-run; a run of the other release's queries is told to give ``--release``,
    and one that ranks nothing is an :class:`~nclue.core.errors.EmptyRun` (nothing to compare)."""
    try:
        ranking, order = read_run(path, inst.queries(), inst.corpus(), run_format, ties, stdin=stdin)
    except InputError as exc:
        raise _release_hint(inst, exc) from exc
    if not any(q in ranking and ranking[q].docids for q in judged.queries):
        raise EmptyRun("%s ranks no document for any of the %d evaluation queries (an empty or blank run?): "
                       "there is nothing to compare" % ("<stdin>" if path == "-" else path, len(judged.queries)))
    return ranking, order


def _block_pair(design, judged, inst, sides, rels, rankings, outs, entries, cells, warn):
    """A block's pair (:func:`_pair`), whether its runs look swapped (warned), and whether the re-run's interval
    covers the published Delta n-Clue Score where Table 5 publishes one."""
    pair = _pair(design, judged, inst, sides, rels, outs)
    pair["looks_swapped"] = _looks_swapped(inst, rels, rankings, judged, entries)
    if pair["looks_swapped"] and warn is not None:
        warn("WARNING: each run agrees better with the other side's released ranking (RBO): are BASE and "
             "VARIANT given in the wrong order? (BASE first: %s, then %s)\n" % tuple(sid for _, sid in sides))
    published = [c for c in cells if c["number"].endswith(".delta")]
    if published:
        lo, hi = pair["rerun_ci"]
        pair["covers_published"] = lo <= published[0]["published_value"] <= hi
    return pair


def _looks_swapped(inst, rels, rankings, judged, entries):
    """Whether each run of a pair agrees better (mean RBO) with the other side's released ranking than with its
    own: the base and variant given in the wrong order."""
    qids = sorted(judged.queries)
    crossed = [_agreement(inst.ranking(rels[1 - i]), rankings[i], qids)[0]["rbo"] for i in range(2)]
    straight = [entry["agreement"]["rbo"] for entry in entries]
    return all(c is not None and s is not None and c > s for c, s in zip(crossed, straight))


def _role_files(inst, role, kind, sides, form):
    """``(form, [released files per side])``: the form defaults to the role's main table's where the release
    ranks it for every side, else ``raw``; a side with no ranking in the form is a
    :class:`~nclue.core.errors.UsageError`."""
    if form is not None:
        form = layout.query_form(form)
    else:
        form = DEFAULT_FORM[kind] if all(_released_files(inst, sid, DEFAULT_FORM[kind]) for _, sid in sides) \
            else layout.RAW
    files = [_released_files(inst, sid, form) for _, sid in sides]
    for (_, sid), found in zip(sides, files):
        if not found:
            raise UsageError("--role %s: the release has no %s ranking of %s; the query forms are ranked only for "
                             "the query-form matrix's systems (--form raw reads the raw-form matrix)" % (
                                 role, form.key, sid))
    return form, files


LOOKS_LIKE_MARGIN = 0.02     # a released ranking agrees this much better (mean RBO) than the role's: a warning


def looks_like(inst, sid, form, ranking, qids, own_rbo):
    """The released ranking a re-run agrees with best (mean RBO), when it is not the role's own and beats it by
    :data:`LOOKS_LIKE_MARGIN`: ``{"system", "form", "rbo", "rel"}`` or None.  Candidates: the role's system in the
    other query forms (a raw-form run checked against the clean form) and every other system of the release in
    this form (a BM25 run given ``--role jina_joint``)."""
    candidates = [(sid, other) for other in layout.QUERY_FORMS if other != form]
    systems, _ = inst.systems()
    candidates += [(other, form) for other in sorted(systems) if other != sid]
    best = None
    for system, candidate_form in candidates:
        found = _released_files(inst, system, candidate_form)
        if not found:
            continue
        rbo = _agreement(inst.ranking(found[0]), ranking, qids)[0]["rbo"]
        if rbo is not None and (best is None or rbo > best["rbo"]):
            best = {"system": system, "form": candidate_form.key, "rbo": rbo, "rel": found[0]}
    if best is None or own_rbo is None or best["rbo"] <= own_rbo + LOOKS_LIKE_MARGIN:
        return None
    return best


def _run_entry(inst, judged, design, path, order, key, sid, rel, ranking, out, per_query):
    """One re-run against its released ranking: agreement, measures and outcome changes."""
    released_out = judged.outcomes(inst, rel)
    agreement, taus, rbos = _agreement(inst.ranking(rel), ranking, sorted(judged.queries))
    entry = {"run": path, "order": order, "role": key, "system": sid, "released": rel,
             "ranked_queries": sum(1 for q in judged.queries if q in ranking and ranking[q].docids),
             "agreement": agreement, "measures": _measures(design, released_out, out),
             "outcomes": _outcome_changes(released_out, out, per_query)}
    entry["looks_like"] = looks_like(inst, sid, _form_of(inst, sid, rel), ranking, sorted(judged.queries),
                                     agreement["rbo"])
    if per_query:
        entry["per_query"] = [{"qid": q, "kendall_tau_union": taus.get(q), "rbo": rbos.get(q)}
                              for q in sorted(judged.queries)]
    return entry


def _form_of(inst, sid, rel):
    """The query form a released ranking file of ``sid`` ranks."""
    for form in layout.QUERY_FORMS:
        if rel in _released_files(inst, sid, form):
            return form
    return layout.RAW
