#!/usr/bin/env python3
"""Set the stand-in's structural parameters by a search over construction statistics only (a development tool).

    python tools/fit_structure.py [--trials 40] [--rounds 2] [--seed 11]

Each trial builds only the construction of the full CrossPage configuration (tools/structure_report.py:
documents, true facts, the miner's inventory, queries, qrels) with one candidate set of structural
parameters and scores it by the root-mean-square log-ratio to the paper's description of its instrument
(Table 1 counts, distinct gold documents, exact-gold-set families, the gold graph, the shortest-gold
lengths and the Table 6 slice populations).  No ranking is run and no score, hit, delta, p-value or
kappa is computed or read: the search cannot aim at a result.  Candidates are drawn with the package's
generator around the best so far; the best parameters are printed, and recorded in the configuration by
hand (nclue/builder/config.py), with this command as their provenance in docs/stand-in.md.
"""

import argparse
import dataclasses
import functools
import math
import multiprocessing

from nclue.builder.config import CONFIGS
from nclue.builder.crosspage import generate
from nclue.builder.page_text import TextConfig
from nclue.core.rng import Stream

import structure_report

TARGETS = ("distinct_gold_documents", "gold_families", "gold_graph_components", "gold_graph_largest_component_queries",
           "gold_qrels", "subset_qrels", "subset_grade1", "subset_grade2", "shortest_gold_mean", "shortest_gold_median",
           "slice_lmin_le30", "slice_lmin_gt100", "slice_pool_le25", "slice_pool_gt50", "gold_qrels_pmc")
SPACE = {  # name: (low, high, log scale, integer)
    "fact_scale": (0.005, 0.2, True, False), "fact_power": (0.8, 2.0, False, False), "fact_cap": (12, 200, True, True),
    "min_golds": (1, 2, False, True), "max_golds": (2, 24, False, True), "max_union": (50, 300, True, True),
    "popularity_exponent": (0.0, 1.5, False, False),
    "topic_share": (0.4, 0.95, False, False), "selection_power": (-2.0, 2.0, False, False),
    "pmc_fact_factor": (0.03, 0.6, True, False), "series_share": (0.0, 0.9, False, False),
    "series_continue": (0.2, 0.85, False, False), "profile_size": (3, 30, True, True),
    "profile_keep": (0.3, 0.95, False, False),
}


def loss(stats, targets=TARGETS, paper=None):
    paper = structure_report.PAPER_STRUCTURE if paper is None else paper
    total = 0.0
    for key in targets:
        total += math.log((stats[key] + 1.0) / (paper[key] + 1.0)) ** 2
    return math.sqrt(total / len(targets))


# ---- SourceShift: the construction copy's scale (supplement section 8, Table S1i's SourceShift column) ----
V2_TARGETS = ("qrel_rows_construction", "gold_qrels", "distinct_gold_documents", "gold_graph_components",
              "gold_graph_largest_component_queries")
V2_SPACE = {k: SPACE[k] for k in ("fact_scale", "fact_power", "fact_cap", "min_golds", "max_golds", "max_union",
                                  "popularity_exponent", "topic_share", "selection_power")}
V2_SPACE["fact_scale"] = (0.02, 0.8, True, False)   # SourceShift's documents are shorter: more facts per page


def v2_structure(g):
    from collections import namedtuple

    from nclue.core.structure import gold_and_subsets, gold_graph_components

    query = namedtuple("Query", "n")
    queries = {q["qid"]: query(q["n"]) for q in g["queries"]}
    qrels = {}
    for r in g["qrels_construction"]:
        qrels.setdefault(r["qid"], {})[r["docid"]] = r["grade"]
    sets = gold_and_subsets(queries, qrels)
    comps = gold_graph_components(sets)
    return {"qrel_rows_construction": len(g["qrels_construction"]), "gold_qrels": sum(len(gs) for gs, _ in sets.values()),
            "distinct_gold_documents": len({d for gs, _ in sets.values() for d in gs}),
            "gold_graph_components": len(comps), "gold_graph_largest_component_queries": len(comps[0])}


def evaluate_v2(params, fast=True):
    from nclue.builder.sourceshift_instrument import PAPER_V2, SHIFT_CONFIGS
    from nclue.builder.sourceshift_instrument import generate as generate_v2

    cfg = dataclasses.replace(SHIFT_CONFIGS["full"], **params)
    if fast:
        cfg = dataclasses.replace(cfg, text=TextConfig(words_median=tuple((s.name, 16) for s in cfg.sources),
                                                       words_min=4, words_max=40))
    try:
        stats = v2_structure(generate_v2(cfg, 12))
    except RuntimeError as exc:
        return float("inf"), params, {"error": str(exc)}
    return loss(stats, V2_TARGETS, PAPER_V2), params, stats


FAST_TEXT = TextConfig(words_median=(("wb", 16), ("pmc", 16)), words_min=4, words_max=40)


def evaluate(params, fast=True):
    """The loss of one candidate.  ``fast``: the miner reads short pages (the same surfaces and mentions,
    drawn from shorter prose), which changes which facts it misses only by chance -- ten times faster."""
    cfg = dataclasses.replace(CONFIGS["full"], **params)
    if fast:
        cfg = dataclasses.replace(cfg, text=FAST_TEXT)
    try:
        stats = structure_report.structure(generate(cfg, SEED))
    except RuntimeError as exc:          # not enough admissible conjunctions
        return float("inf"), params, {"error": str(exc)}
    return loss(stats), params, stats


def draw(stream, centre, spread):
    out = {}
    for name, (lo, hi, log, integer) in SPACE.items():
        c = centre[name]
        if log:
            value = math.exp(math.log(c) + spread * (2 * stream.uniform() - 1) * math.log(hi / lo) / 2)
        else:
            value = c + spread * (2 * stream.uniform() - 1) * (hi - lo) / 2
        value = min(max(value, lo), hi)
        out[name] = int(round(value)) if integer else round(value, 4)
    out["max_golds"] = max(out["max_golds"], out["min_golds"])
    return out


SEED = 11


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--trials", type=int, default=40)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--start", nargs="*", default=[], metavar="NAME=VALUE", help="the search's starting point")
    p.add_argument("--spread", type=float, default=1.0, help="the first round's spread (1 = the whole range)")
    p.add_argument("--release", choices=("v1", "v2"), default="v1")
    p.add_argument("--full", action="store_true", help="evaluate every trial with the full page text (slower)")
    args = p.parse_args()
    global SPACE, evaluate, TARGETS, PAPER
    if args.release == "v2":
        from nclue.builder.sourceshift_instrument import PAPER_V2, SHIFT_CONFIGS
        SPACE, evaluate, TARGETS, PAPER = V2_SPACE, evaluate_v2, V2_TARGETS, PAPER_V2
        base = SHIFT_CONFIGS["full"]
    else:
        PAPER = structure_report.PAPER_STRUCTURE
        base = CONFIGS["full"]
    start = {k: getattr(base, k) for k in SPACE}
    for item in args.start:
        name, value = item.split("=", 1)
        start[name] = type(start[name])(value) if not isinstance(start[name], int) else int(float(value))
    best = evaluate(start, fast=not args.full)
    print("start: loss %.4f %s" % (best[0], best[1]))
    stream = Stream.derived(0, "fit-structure")
    spread = args.spread
    with multiprocessing.Pool(2) as pool:
        for round_no in range(args.rounds):
            candidates = [draw(stream, best[1], spread) for _ in range(args.trials)]
            for result in pool.imap(functools.partial(evaluate, fast=not args.full), candidates):
                if result[0] < best[0]:
                    best = result
                    print("round %d: loss %.4f %s" % (round_no, best[0], best[1]), flush=True)
            spread *= 0.5
    final = evaluate(best[1], fast=False)
    print("best loss %.4f (fast); with the full page text %.4f" % (best[0], final[0]))
    best = final
    print(best[1])
    for key in TARGETS:
        print("  %-40s %10s %10s" % (key, best[2].get(key), PAPER[key]))


if __name__ == "__main__":
    main()
