#!/usr/bin/env python3
"""Construction statistics of a stand-in configuration, beside the paper's (a development tool).

    python tools/structure_report.py [--config full] [--seed 11] [--set name=value ...]

Builds only the construction (documents, true facts, page text for the miner, the miner's inventory,
queries, qrels) in memory and prints the structural statistics the paper states for its instrument:
Table 1, exact-gold-set families, the gold-membership graph, and the Table 6 slice populations.  It
computes no ranking and no score: it is the tool the structural parameters are set with
(docs/stand-in.md#structural-targets).  ``--set`` overrides a Config field for a trial.
"""

import argparse
import dataclasses
import os
import sys
import tempfile
import time

from nclue.builder.config import CONFIGS, PAPER_TABLE1
from nclue.builder.crosspage import generate
from nclue.core.instrument import Instrument
from nclue.core.jsonio import write_jsonl
from nclue.core.structure import table1

PAPER_STRUCTURE = PAPER_TABLE1


def structure(g):
    with tempfile.TemporaryDirectory() as root:
        base = os.path.join(root, "data", "v1")
        os.makedirs(base)
        write_jsonl(os.path.join(base, "corpus.jsonl"), g["docs"])
        write_jsonl(os.path.join(base, "conditions.jsonl"), [
            {k: c[k] for k in ("cid", "kind", "label", "aliases", "topic")} for c in g["catalog"]])
        write_jsonl(os.path.join(base, "inventory.jsonl"), g["mined"])
        write_jsonl(os.path.join(base, "queries.jsonl"), g["queries"])
        write_jsonl(os.path.join(base, "qrels.jsonl"), g["qrels"])
        inst = Instrument(root)
        queries, corpus, qrels = inst.queries(), inst.corpus(), inst.qrels()
        return table1(queries, corpus, qrels, inst.inventory())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--config", default="full")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = p.parse_args()
    cfg = CONFIGS[args.config]
    for item in args.set:
        name, value = item.split("=", 1)
        field_type = type(getattr(cfg, name))
        cfg = dataclasses.replace(cfg, **{name: field_type(value)})
    start = time.perf_counter()
    g = generate(cfg, args.seed)
    stats = structure(g)
    print("construction in %.1f s; miner: %s" % (time.perf_counter() - start, {
        k: v for k, v in g["info"].items() if k.startswith(("truth", "missed", "spurious", "miner"))}))
    worst = 0.0
    for key in sorted(PAPER_STRUCTURE):
        paper, mine = PAPER_STRUCTURE[key], stats.get(key)
        off = abs(mine - paper) / paper if paper and mine is not None else 0.0
        worst = max(worst, off) if key not in ("single_page_solvable_golds", "gold_qrels_pmc") else worst
        print("  %-40s %10s %10s  %+6.1f%%" % (key, mine if not isinstance(mine, float) else "%.2f" % mine, paper,
                                             100 * (mine - paper) / paper if paper and mine is not None else 0.0))
    print("largest relative difference: %.1f%%" % (100 * worst))


if __name__ == "__main__":
    sys.exit(main())
