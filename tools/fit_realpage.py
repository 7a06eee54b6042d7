#!/usr/bin/env python3
"""Fit RealPage's query-draw tilts to the paper's Table 1 structure (a development tool; docs/realpage.md#the-queries).

    python tools/fit_realpage.py DEB_FOLDER [--seed 20230121]

It mines the seeded sample from the pinned doc-rfc packages in DEB_FOLDER with the builder's own modules,
enumerates every admissible conjunction (nclue.builder.realpage.query_draws), and searches the integer tilts by
coordinate descent, with the build's own seeded draws, so that the drawn queries have the paper's Table 1
structure: golds and subsets per query (2,176 and 48,819 over 1,000 queries), and a triple's grade-2 subsets
(2,024 over 186).  The loss is the root-mean-square log-ratio to those targets.  No ranking is run and no score
is read: the search sees the candidates' structure only.  The best tilts are printed as JSON and recorded by
hand in nclue/builder/realpage/settings.py (pair_tilt, triple_tilt), with this command as their provenance.
"""

import argparse
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from nclue.builder.config import PAPER_TABLE1  # noqa: E402 -- the repository's package, beside this tool
from nclue.builder.realpage import query_draws, settings, v3_writer  # noqa: E402
from nclue.core.errors import NclueError  # noqa: E402
from nclue.core.rng import Stream  # noqa: E402

TARGETS = {"golds": PAPER_TABLE1["gold_qrels"] / PAPER_TABLE1["queries"],
           "subsets": PAPER_TABLE1["subset_qrels"] / PAPER_TABLE1["queries"],
           "grade2": PAPER_TABLE1["subset_grade2"] / PAPER_TABLE1["queries_n3"]}
STEPS = ((40, 10, 50), (10, 3, 10), (2, 1, 2))      # coordinate-descent step sizes, coarse to fine


def structure(drawn):
    return {"golds": statistics.mean(c.n_golds for c in drawn), "subsets": statistics.mean(c.subsets for c in drawn),
            "grade2": statistics.mean(c.grade2 for c in drawn)}


def loss(found, keys):
    return math.sqrt(sum(math.log((found[k] + 1.0) / (TARGETS[k] + 1.0)) ** 2 for k in keys) / len(keys))


def fit(pool, n, k, start, keys, seed, cfg, gold_queries):
    """The tilt (gold, subset, grade-2) whose draw of ``k`` from ``pool`` is nearest ``TARGETS[keys]``."""
    cache = {}

    def evaluate(tilt):
        if tilt not in cache:
            drawn = query_draws.draw(pool, k, query_draws.Tilt(*tilt), Stream.derived(seed, "realpage", "select", n),
                                     cfg, dict(gold_queries))
            found = structure(drawn)
            cache[tilt] = (loss(found, keys), found)
        return cache[tilt]
    best = tuple(start)
    current = evaluate(best)
    free = (0, 1, 2) if "grade2" in keys else (0, 1)
    for step in STEPS:
        improved = True
        while improved:
            improved = False
            for d in free:
                for sign in (-1, 1):
                    candidate = list(best)
                    candidate[d] += sign * step[d]
                    candidate = tuple(candidate)
                    if candidate[d] <= 0:
                        continue
                    result = evaluate(candidate)
                    if result[0] < current[0]:
                        best, current, improved = candidate, result, True
        print("  n = %d, step %s: tilt %s, loss %.4f, %s" % (n, step, best, current[0], current[1]), file=sys.stderr)
    return best, current


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", metavar="DEB_FOLDER")
    parser.add_argument("--seed", type=int, default=settings.SEED)
    args = parser.parse_args(argv)
    cfg = settings.CONSTRUCTION
    try:
        mined = v3_writer.mined_sample(args.folder, args.seed, log=lambda text: print(text, file=sys.stderr))
    except NclueError as exc:           # a missing or damaged package: named, exit 2
        print("fit_realpage: %s" % exc, file=sys.stderr)
        return 2
    out = {"seed": args.seed, "targets": TARGETS}
    gold_queries = {}
    for n, k, start, keys, field in ((2, cfg.n_queries_2, cfg.pair_tilt, ("golds", "subsets"), "pair_tilt"),
                                      (3, cfg.n_queries_3, cfg.triple_tilt, ("golds", "subsets", "grade2"),
                                       "triple_tilt")):
        pool = query_draws.candidates(mined.index, n, cfg)
        tilt, (value, found) = fit(pool, n, k, start, keys, args.seed, cfg, gold_queries)
        # the next draws see this one's golds, as the build's do
        query_draws.draw(pool, k, query_draws.Tilt(*tilt), Stream.derived(args.seed, "realpage", "select", n), cfg,
                         gold_queries)
        out[field] = list(tilt)
        out["structure_n%d" % n] = found
        out["loss_n%d" % n] = value
    print(json.dumps(out, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
