#!/usr/bin/env python3
"""The label structure of a stand-in configuration, beside the paper's (a development tool).

    python tools/label_report.py [--config full] [--set v1.read_recall=0.6 --set v2.spurious_rate=0.01 ...]

Builds in memory what the label audit and the residual-qrel challenge need -- both constructions (documents,
true facts, page text, the miner's inventory, queries, construction qrels), SourceShift's frozen raw rankings
of the two systems the challenge is selected on (fusion and BM25-AND), the simulated audit and the challenge --
and prints the *structural facts about the labels* the paper states: corrections per audit stratum (Tables
S7/S13), the transitions (Table S12), the challenge's changed targets (10.5) and the zero-gold removals. No
score, hit, delta, p-value or agreement statistic is computed or printed: this is the tool the miner's error
rates are fitted with (tools/fit_labels.py; docs/stand-in.md#the-construction-miner).
``--set`` overrides a MinerConfig field of one release for a trial.
"""

import argparse
import dataclasses
import sys
import time

from nclue.builder import config as config_mod
from nclue.builder import crosspage, sourceshift_instrument, sourceshift_release
from nclue.builder.rankings import ranking_rows
from nclue.retrieval import systems
from nclue.retrieval.engine import Engine
from nclue.retrieval.index import build_corpus
from nclue.retrieval.text import tokens

# The paper's label structure (supplement Tables S7, S12, S13 and section 10.5).
PAPER_LABELS = {"v1.corrected": 20, "v2.arxiv.corrected": 13, "v2.eric.corrected": 8, "v2.fedreg.corrected": 13,
                "v2.pmc.corrected": 11, "challenge.changed_share": 101 / 125}
PAPER_OUTCOMES = {"v1.to_gold": 19, "v1.from_gold": 1, "all.to_gold": 62, "all.from_gold": 2,
                  "challenge.targets": 125, "challenge.changed": 101, "challenge.to_gold": 90,
                  "s0.removed": 1, "final.removed": 0}
CHALLENGE_SYSTEMS = ("bm25_and", "rrf_bm25and_pagetop3")


def configs(name, overrides):
    """The v1 and v2 configurations of ``name`` with ``overrides`` (``{"v1": {field: value}, "v2": ...}``)
    applied to their miners."""
    v1 = config_mod.CONFIGS[name]
    v2 = sourceshift_instrument.SHIFT_CONFIGS[name]
    v1 = dataclasses.replace(v1, miner=dataclasses.replace(v1.miner, **overrides.get("v1", {})))
    v2 = dataclasses.replace(v2, miner=dataclasses.replace(v2.miner, **overrides.get("v2", {})))
    return v1, v2


def challenge_rankings(g, seed):
    """SourceShift's raw-form rankings of the challenge's two systems, ``{system: {qid: [docid]}}``."""
    docids = [d["docid"] for d in g["docs"]]
    corpus_text = build_corpus(docids, ((d, g["source"].pages(d)) for d in docids), tokens)
    env = systems.Env(Engine(corpus_text), docids, g["miner"], seed)
    by_cid = {c["cid"]: c for c in g["catalog"]}
    specs = {s.id: s for s in systems.SYSTEMS}
    return {sid: {r["qid"]: list(r["docids"]) for r in ranking_rows(specs[sid], env, g["queries"], by_cid, "raw")[0]}
            for sid in CHALLENGE_SYSTEMS}


def label_structure(name="full", overrides=None, seed=config_mod.DEFAULT_SEED, shift_seed=sourceshift_instrument.SHIFT_SEED):
    """The label facts of one trial (see module doc), and the miners' counts."""
    v1_cfg, v2_cfg = configs(name, overrides or {})
    v1g = crosspage.generate(v1_cfg, seed)
    g = sourceshift_instrument.generate(v2_cfg, shift_seed)
    g["raw_rankings"] = challenge_rankings(g, shift_seed)
    labels = sourceshift_release.simulate_labels(name, v1g, g, shift_seed)
    return summarise(labels, v1g, g)


def summarise(labels, v1g, g):
    key = {k["pair"]: k for k in labels["records"]["key"]}
    decisions = {d["pair"]: d for d in labels["records"]["decisions"]}
    out = {"v1.corrected": 0, "v1.to_gold": 0, "v1.from_gold": 0, "all.to_gold": 0, "all.from_gold": 0}
    for src in ("arxiv", "eric", "fedreg", "pmc"):
        out["v2.%s.corrected" % src] = 0
    transitions = {}
    for pair, k in key.items():
        d = decisions[pair]
        before, after = d["grade_before"], d["grade_after"]
        transitions["%d->%d" % (before, after)] = transitions.get("%d->%d" % (before, after), 0) + 1
        if before == after:
            continue
        stratum = "v1" if k["release"] == "v1" else "v2.%s" % k["source"]
        out[stratum + ".corrected"] += 1
        to_gold, from_gold = after == k["n"], before == k["n"]
        out["all.to_gold"] += to_gold
        out["all.from_gold"] += from_gold
        if k["release"] == "v1":
            out["v1.to_gold"] += to_gold
            out["v1.from_gold"] += from_gold
    ckey = {k["pair"]: k for k in labels["challenge"]["challenge_key"]}
    targets = [p for p, k in ckey.items() if k["role"] == "target"]
    cdec = {d["pair"]: d for d in labels["challenge"]["challenge_decisions"]}
    changed = [p for p in targets if cdec[p]["grade_after"] != cdec[p]["grade_before"]]
    out["challenge.targets"] = len(targets)
    out["challenge.changed"] = len(changed)
    out["challenge.changed_share"] = len(changed) / len(targets) if targets else 0.0
    out["challenge.to_gold"] = sum(1 for p in changed if cdec[p]["grade_after"] == ckey[p]["n"])
    out["challenge.to_zero"] = sum(1 for p in changed if cdec[p]["grade_after"] == 0)
    out["challenge.blocked"] = sum(1 for d in cdec.values() if d["distinct_page_blocked"])
    truth = {(r["docid"], r["cid"]) for r in g["truth"]}
    conds = {q["qid"]: [c["cid"] for c in q["conditions"]] for q in g["queries"]}
    true_gold = [p for p in targets if all((ckey[p]["docid"], c) in truth for c in conds[ckey[p]["qid"]])]
    out["challenge.targets_truly_gold"] = len(true_gold)
    out["challenge.truly_gold_made_gold"] = sum(1 for p in true_gold if cdec[p]["grade_after"] == ckey[p]["n"])
    out["final.removed"] = len(labels["final"][1])
    out["s0.removed"] = len(labels["s0"][1])
    out["s.removed"] = len(labels["s"][1])
    quotes = [len(a["quote"].split()) for r in labels["records"]["initial"] for a in r["answers"] if a["positive"]]
    out["shortest_quote_words"] = min(quotes) if quotes else None
    out["transitions"] = dict(sorted(transitions.items()))
    out["v1.miner"] = {k: v for k, v in v1g["info"].items() if k.startswith(("truth", "missed", "spurious", "miner"))}
    out["v2.miner"] = {k: v for k, v in g["info"].items() if k.startswith(("truth", "missed", "spurious", "miner"))}
    out["against_truth"] = labels["truth"]
    return out


def parse_sets(items):
    overrides = {}
    for item in items:
        name, value = item.split("=", 1)
        release, field = name.split(".", 1)
        overrides.setdefault(release, {})[field] = float(value)
    return overrides


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--config", default="full")
    p.add_argument("--set", action="append", default=[], metavar="RELEASE.FIELD=VALUE")
    args = p.parse_args()
    start = time.perf_counter()
    out = label_structure(args.config, parse_sets(args.set))
    print("labels in %.1f s" % (time.perf_counter() - start))
    for k in sorted(out):
        paper = PAPER_LABELS.get(k, PAPER_OUTCOMES.get(k, ""))
        print("  %-26s %-12s %s" % (k, out[k] if not isinstance(out[k], float) else "%.3f" % out[k], paper))
    return 0


if __name__ == "__main__":
    sys.exit(main())
