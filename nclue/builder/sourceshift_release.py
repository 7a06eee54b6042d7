"""Write the stand-in SourceShift (``data/v2``) and the simulated label audit (``data/audit``).

Order: v2 construction (truth and miner inventories, queries, S0) -> v2 page
text and index -> 13 systems x 3 forms -> the audit over v1 and v2 -> the
revised copy ``data/v2/qrels.jsonl`` and ``data/v1/repairs.jsonl``.  Runs
after :func:`nclue.builder.crosspage.write_instrument` (it reads data/v1).
"""

import os

from .. import __version__
from ..core import layout
from ..core.jsonio import read_json, write_json, write_jsonl
from ..retrieval import systems
from ..retrieval.engine import Engine
from ..retrieval.index import build_corpus
from ..retrieval.text import tokens
from . import config as config_mod
from . import crosspage, pregate, simulated_audit, simulated_challenge, sourceshift_instrument
from .rankings import peak_memory, ranking_rows
from .stats_files import write_stats


def _writer(out_root, written):
    def put_jsonl(rel, rows):
        path = layout.abspath(out_root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_jsonl(path, rows)
        written.append(rel)

    def put_json(rel, obj):
        path = layout.abspath(out_root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_json(path, obj)
        written.append(rel)
    return put_jsonl, put_json


def write_sourceshift(out_root, config_name, seed=sourceshift_instrument.SHIFT_SEED, log=print):
    """``data/v2``: corpus, conditions, queries, inventory, the construction qrels, the 39 form rankings,
    systems.json.  Returns ``(generated, written)``; S0, S and the genealogy are written by :func:`write_audit`."""
    cfg = sourceshift_instrument.SHIFT_CONFIGS[config_name]
    written = []
    put_jsonl, put_json = _writer(out_root, written)
    g = sourceshift_instrument.generate(cfg, seed)
    put_jsonl(layout.V2_CORPUS, g["docs"])
    put_jsonl(layout.V2_CONDITIONS, [
        {k: c[k] for k in ("cid", "kind", "label", "aliases", "topic", "synthetic")} for c in g["catalog"]])
    put_jsonl(layout.V2_QUERIES, g["queries"])
    put_jsonl(layout.V2_INVENTORY, g["miner"])
    put_jsonl(layout.V2_QRELS_CONSTRUCTION, g["qrels_construction"])
    put_json(layout.SOURCESHIFT.ocr_gate, pregate.record(cfg.sources, g["docs"], seed))
    log("sourceshift: %d documents, %d queries, %d construction qrel rows (%s)" % (
        len(g["docs"]), len(g["queries"]), len(g["qrels_construction"]), g["info"]))
    source = g["source"]
    docids = [d["docid"] for d in g["docs"]]
    corpus_text = build_corpus(docids, ((d, source.pages(d)) for d in docids), tokens)
    env = systems.Env(Engine(corpus_text), docids, g["miner"], seed)
    by_cid = {c["cid"]: c for c in g["catalog"]}
    specs = {s.id: s for s in systems.SYSTEMS}
    g["raw_rankings"] = {}
    order = systems.build_order([specs[sid] for sid in systems.FORM_SYSTEMS])
    forget = systems.forget_after(order)
    for spec in order:
        for form in layout.QUERY_FORMS:
            rows = ranking_rows(spec, env, g["queries"], by_cid, form)[0]
            put_jsonl(layout.SOURCESHIFT.form_ranking(spec.id, form), rows)
            if form == layout.RAW:
                g["raw_rankings"][spec.id] = {r["qid"]: list(r["docids"]) for r in rows}
        for resource in forget.get(spec.id, ()):
            env.engine.forget(resource)
        log("ranked v2 %s%s" % (spec.id, peak_memory()))
    g["raw_rankings"] = {sid: g["raw_rankings"][sid] for sid in systems.FORM_SYSTEMS}
    put_json(layout.V2_SYSTEMS, {
        "synthetic": True,
        "note": "Stand-in SourceShift systems: the 13 form systems of data/v1, run over the v2 synthetic text.",
        "systems": [_v2_entry(specs[sid]) for sid in systems.FORM_SYSTEMS],
        "form_systems": list(systems.FORM_SYSTEMS),
        "contrasts": [],
        "source_shift_contrasts": systems.SHIFT_CONTRASTS,
        "directions": systems.DIRECTIONS,
        "blocked": systems.BLOCKED,
    })
    return g, written


V2_NOTE = ("SourceShift's qrel copies: each is its parent plus the stage's decisions; a query left without a gold is "
           "removed with its qrels at that stage (supplement sections 8, 10.5-10.6).")


def _v2_entry(spec):
    """A system's systems.json entry, with ``base`` cleared when the base is not among the 13."""
    entry = spec.as_json()
    if entry.get("base") not in systems.FORM_SYSTEMS:
        entry["base"] = None
    return entry


def simulate_labels(config_name, v1g, g, seed=sourceshift_instrument.SHIFT_SEED):
    """The label audit of both releases and the challenge, in memory: every record, the grade changes and
    the qrel copies they give (v1 final; v2 S0 and S, each with its zero-gold removals).  ``v1g``, ``g``:
    the generated v1 and v2 (:func:`nclue.builder.crosspage.generate`, :func:`write_sourceshift`)."""
    v1 = simulated_audit.Release("v1", v1g["docs"], v1g["queries"], v1g["qrels"], v1g["mined"], v1g["truth"],
                                 v1g["source"], v1g["catalog"])
    v2 = simulated_audit.Release("v2", g["docs"], g["queries"], g["qrels_construction"], g["miner"], g["truth"],
                                 g["source"], g["catalog"])
    cfg = simulated_audit.AUDIT_CONFIGS[config_name]
    records, changes = simulated_audit.simulate(cfg, seed, {"v1": v1, "v2": v2})
    final_rows, final_removed = simulated_audit.without_zero_gold(
        simulated_audit.revised_qrels(v1g["qrels"], changes["v1"], v1g["queries"]), v1g["queries"])
    s0_rows, s0_removed = simulated_audit.without_zero_gold(
        simulated_audit.revised_qrels(g["qrels_construction"], changes["v2"], g["queries"]), g["queries"])
    s0_queries = [q for q in g["queries"] if q["qid"] not in set(s0_removed)]
    s0 = simulated_audit.Release("v2", g["docs"], s0_queries, s0_rows, g["miner"], g["truth"], g["source"],
                                 g["catalog"])
    s0_grades = {}
    for r in s0_rows:
        s0_grades.setdefault(r["qid"], {})[r["docid"]] = r["grade"]
    challenge, challenge_changes, challenge_pages = simulated_challenge.simulate(
        seed, s0, s0_grades, g["raw_rankings"]["rrf_bm25and_pagetop3"], g["raw_rankings"]["bm25_and"])
    s_rows, s_removed = simulated_audit.without_zero_gold(
        simulated_audit.revised_qrels(s0_rows, challenge_changes, s0_queries), s0_queries)
    releases = {"v1": v1, "v2": v2}
    shown = {(r["release"], r["docid"], r["page"]) for r in records["pages"]} | challenge_pages
    records["pages"] = [{"release": rel, "docid": docid, "page": page, "text": releases[rel].text(docid, page),
                         "synthetic": True} for rel, docid, page in sorted(shown)]
    return {"cfg": cfg, "records": records, "changes": changes, "challenge": challenge,
            "challenge_changes": challenge_changes, "final": (final_rows, final_removed),
            "s0": (s0_rows, s0_removed), "s": (s_rows, s_removed),
            "truth": simulated_audit.against_truth(records, releases)}


def write_audit(out_root, config_name, v1g, g, seed=sourceshift_instrument.SHIFT_SEED, log=print):
    """The stratified audit and the residual-qrel challenge (``data/audit``); CrossPage's final copy
    ``data/v1/qrels.jsonl`` with its ``genealogy.json`` and ``data/v1/repairs.jsonl``; v2's S0 and S with
    ``genealogy.json``; ``data/v2/build.json``; the audit's agreement with the generator's truth added to
    ``data/v1/build.json``; and ``data/v1/stats.json`` (Table 1, on the final copy as the paper's).
    ``v1g``, ``g``: the generated v1 and v2 (:func:`nclue.builder.crosspage.generate`, :func:`write_sourceshift`)."""
    written = []
    put_jsonl, put_json = _writer(out_root, written)
    labels = simulate_labels(config_name, v1g, g, seed)
    records, changes, challenge = labels["records"], labels["changes"], labels["challenge"]
    challenge_changes, truth = labels["challenge_changes"], labels["truth"]
    (final_rows, final_removed), (s0_rows, s0_removed), (s_rows, s_removed) = (
        labels["final"], labels["s0"], labels["s"])
    for name in ("key", "packet", "initial", "queue", "adjudication", "condition_decisions", "pool_recall", "decisions",
                 "pages"):
        put_jsonl(layout.audit_records_path(name), records[name])
    for name in sorted(challenge):
        put_jsonl(layout.audit_records_path(name), challenge[name])
    put_json(layout.AUDIT_DESCRIPTION, dict(simulated_audit.describe(labels["cfg"], seed, records["key"]),
                                           challenge=simulated_challenge.describe()))
    put_jsonl(layout.QRELS, final_rows)
    put_json(layout.GENEALOGY, crosspage.genealogy_record(layout.CROSSPAGE.copies, v1g["queries"], (
        (v1g["qrels"], [], 0), (final_rows, final_removed, len(changes["v1"]))), crosspage.V1_GENEALOGY_NOTE))
    put_jsonl(layout.V2_QRELS_S0, s0_rows)
    put_jsonl(layout.V2_QRELS, s_rows)
    put_json(layout.V2_GENEALOGY, crosspage.genealogy_record(layout.SOURCESHIFT.copies, g["queries"], (
        (g["qrels_construction"], [], 0), (s0_rows, s0_removed, len(changes["v2"])),
        (s_rows, s_removed, len(challenge_changes))), V2_NOTE))
    put_jsonl(layout.REPAIRS, [
        {"qid": q, "docid": d, "grade_before": b, "grade_after": a, "synthetic": True}
        for (q, d), (b, a) in sorted(changes["v1"].items())])
    put_json(layout.V2_BUILD, {
        "instrument": "n-Clue SourceShift stand-in (synthetic)",
        "synthetic": True,
        "seed": seed,
        "config": config_name,
        "command": "python -m nclue build --config %s --shift-seed %d" % (config_name, seed),
        "generator_version": __version__,
        "construction": g["info"],
        "text": crosspage.text_parameters(sourceshift_instrument.SHIFT_CONFIGS[config_name].text),
        "miner": crosspage.miner_parameters(sourceshift_instrument.SHIFT_CONFIGS[config_name].miner),
        "parameters": config_mod.provenance(sourceshift_instrument.SHIFT_CONFIGS[config_name], fitted=sourceshift_instrument.FITTED,
                                            exact=sourceshift_instrument.EXACT),
        "audit_against_truth": truth["v2"],
        "note": "The generator knows which facts the page text really carries; 'audit_against_truth' "
                "compares the audit's final grades with that truth (a check the paper could not make).",
    })
    v1_build = read_json(layout.abspath(out_root, layout.BUILD), layout.BUILD)
    v1_build["audit_against_truth"] = truth["v1"]
    write_json(layout.abspath(out_root, layout.BUILD), v1_build)
    write_stats(out_root, config_name)          # Table 1 again, now on the audited final copy
    log("audit: %d pairs, %d queued conditions; v1 changes %d (%d queries removed), v2 changes %d; challenge %d "
        "pairs, %d changes" % (len(records["key"]), len(records["queue"]), len(changes["v1"]), len(final_removed),
                               len(changes["v2"]), len(challenge["challenge_key"]), len(challenge_changes)))
    return written
