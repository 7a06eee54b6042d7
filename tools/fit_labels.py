#!/usr/bin/env python3
"""Set the construction miners' error rates by a grid over the label structure only (a development tool).

    python tools/fit_labels.py [--read-recall 0.3,0.4,0.5,0.6] [--spurious 0.0025,0.01] [--jobs 2]

Each trial builds both constructions, SourceShift's frozen raw rankings of the challenge's two systems, the
simulated audit and the challenge in memory (tools/label_report.py) with one candidate ``read_recall`` and
``spurious_rate`` for both miners, and scores each release by the root-mean-square log-ratio of its label
facts to the paper's: CrossPage by its corrected audit pairs (Table S13: 20 of 100), SourceShift by its
corrected pairs per source (13, 8, 13, 11 of 50) and the challenge's share of changed targets (101 of 125,
section 10.5).  These are structural facts about the labels; no score, hit, delta, p-value or agreement
statistic is computed or read.  The best value of each release is printed; it is recorded by hand in
nclue/builder/config.py (v1) and nclue/builder/sourceshift_instrument.py (v2) as a parameter of kind *fitted*
(docs/stand-in.md#the-construction-miner).
"""

import argparse
import functools
import itertools
import math
import multiprocessing

import label_report

V1_TARGETS = ("v1.corrected",)
V2_TARGETS = ("v2.arxiv.corrected", "v2.eric.corrected", "v2.fedreg.corrected", "v2.pmc.corrected",
              "challenge.changed_share")


def loss(found, targets):
    total = 0.0
    for key in targets:
        paper = label_report.PAPER_LABELS[key]
        scale = 100.0 if key.endswith("share") else 1.0      # a share counts as a count out of 100
        total += math.log((found[key] * scale + 1.0) / (paper * scale + 1.0)) ** 2
    return math.sqrt(total / len(targets))


def trial(point, config="full"):
    read_recall, spurious = point
    params = {"read_recall": read_recall, "spurious_rate": spurious}
    found = label_report.label_structure(config, {"v1": params, "v2": params})
    return point, loss(found, V1_TARGETS), loss(found, V2_TARGETS), found


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--read-recall", default="0.3,0.4,0.5,0.6")
    p.add_argument("--spurious", default="0.0025,0.01")
    p.add_argument("--config", default="full")
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    grid = list(itertools.product([float(x) for x in args.read_recall.split(",")],
                                  [float(x) for x in args.spurious.split(",")]))
    results = []
    with multiprocessing.Pool(args.jobs) as pool:
        for point, v1_loss, v2_loss, found in pool.imap(functools.partial(trial, config=args.config), grid):
            results.append((point, v1_loss, v2_loss, found))
            print("read_recall %.3f spurious %.4f: v1 loss %.3f (corrected %d), v2 loss %.3f (corrected %s, "
                  "challenge %d of %d)" % (point[0], point[1], v1_loss, found["v1.corrected"], v2_loss,
                                           [found["v2.%s.corrected" % s] for s in ("arxiv", "eric", "fedreg", "pmc")],
                                           found["challenge.changed"], found["challenge.targets"]), flush=True)
    best_v1 = min(results, key=lambda r: (r[1], r[0]))
    best_v2 = min(results, key=lambda r: (r[2], r[0]))
    print("best v1: read_recall %.3f spurious_rate %.4f (loss %.3f)" % (best_v1[0] + (best_v1[1],)))
    print("best v2: read_recall %.3f spurious_rate %.4f (loss %.3f)" % (best_v2[0] + (best_v2[2],)))


if __name__ == "__main__":
    main()
