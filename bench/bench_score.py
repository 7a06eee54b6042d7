#!/usr/bin/env python3
"""Time and measure `nclue score` on runs of growing size, in one run (a benchmark, not a test).

    python bench/bench_score.py [--repeat N] [--data DIR] [--lines N]

Rows (every row a fresh process; CPU is the child's user + system time, peak memory its maximum
resident set size from ``resource.getrusage``; rows interleaved ``--repeat`` times, medians shown):

* ``score`` of one shipped 1,000-query ranking (``data/v1/rankings/bm25_and.jsonl``) against the default
  (fair scorecard) references;
* ``score`` of a depth-1000 TREC run of ``--lines`` lines (default 1,000,000: every evaluation query
  with 1,000 documents), written once into a temporary folder from a fixed seed;
* ``score`` of a run of the same number of blank lines (the parser's cost per line when nothing is in it;
  exits 1: an empty run);
* the floor: reading the TREC file and splitting every line in a child that imports nothing of nclue.

The issue 29 bounds: the 1,000-query run <= 2 s CPU; the 1,000,000-line run <= 15 s CPU and <= 1 GB.
"""

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FLOOR = r"""
import sys
n = 0
with open(sys.argv[1], "rb") as fh:
    for line in fh:
        n += len(line.split())
print(n)
"""


def measure(cmd, ok_codes=(0,)):
    """``(cpu seconds, wall seconds)`` of one child process."""
    import time
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in ok_codes:
        sys.exit("command failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd), proc.stderr[-2000:]))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


PEAK = r"""
import resource, subprocess, sys
code = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(peak)
sys.exit(0 if code in (0, int(sys.argv[1])) else code)
"""


def peak_mb(cmd, ok_code):
    """The peak resident set of ``cmd`` alone in MB (``ru_maxrss`` of a fresh wrapper's only child: the
    children's figure is the largest child so far, so each row gets its own wrapper)."""
    out = subprocess.run([sys.executable, "-c", PEAK, str(ok_code)] + cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("command failed: %s" % " ".join(cmd))
    return int(out.stdout.strip()) / 1024.0


def write_runs(folder, data, lines):
    """A depth-``lines / queries`` TREC run over the release's queries and corpus (seed 1), and as many blank lines."""
    qids = [json.loads(row)["qid"] for row in open(os.path.join(data, "data", "v1", "queries.jsonl"), encoding="utf-8")]
    docs = [json.loads(row)["docid"] for row in open(os.path.join(data, "data", "v1", "corpus.jsonl"), encoding="utf-8")]
    depth = max(1, lines // len(qids))
    rng = random.Random(1)
    trec = os.path.join(folder, "deep.trec")
    with open(trec, "w", encoding="utf-8") as fh:
        for qid in qids:
            for rank, doc in enumerate(rng.sample(docs, min(depth, len(docs))), 1):
                fh.write("%s Q0 %s %d %.6f deep\n" % (qid, doc, rank, 1000.0 - rank))
    blank = os.path.join(folder, "blank.trec")
    with open(blank, "wb") as fh:
        chunk = b"\n" * (1 << 20)
        left = lines
        while left > 0:
            fh.write(chunk[:min(left, len(chunk))])
            left -= len(chunk)
    return trec, blank, depth, len(qids)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--data", default=REPO)
    p.add_argument("--lines", type=int, default=1000000)
    args = p.parse_args()
    score = [sys.executable, "-m", "nclue", "score", "--data", args.data]
    with tempfile.TemporaryDirectory(prefix="nclue-bench-score-") as tmp:
        trec, blank, depth, queries = write_runs(tmp, args.data, args.lines)
        rows = [("score, one 1,000-query JSONL ranking", score + [os.path.join(args.data, "data", "v1", "rankings",
                                                                              "bm25_and.jsonl")], 0),
                ("score, %d-line TREC run (depth %d x %d queries)" % (args.lines, depth, queries),
                 score + ["--format", "json", trec], 0),
                ("score, %d blank lines (an empty run: exit 1)" % args.lines, score + [blank], 1),
                ("floor: read and split every line of the TREC run", [sys.executable, "-c", FLOOR, trec], 0)]
        for _, cmd, code in rows:            # one untimed warm-up
            measure(cmd, (code,))
        times = {label: [] for label, _, _ in rows}
        for _ in range(args.repeat):
            for label, cmd, code in rows:
                times[label].append(measure(cmd, (code,)))
        peaks = {label: peak_mb(cmd, code) for label, cmd, code in rows}
    print("python %s, %d interleaved runs each after a warm-up; median CPU and wall seconds; peak RSS of one run"
          % (sys.version.split()[0], args.repeat))
    floor = statistics.median(c for c, _ in times[rows[-1][0]])
    for label, _, _ in rows:
        cpu = statistics.median(c for c, _ in times[label])
        wall = statistics.median(w for _, w in times[label])
        print("  %-58s cpu %6.2f  wall %6.2f  peak %7.1f MB  x floor %5.2f" % (
            label, cpu, wall, peaks[label], cpu / floor if floor else 0))


if __name__ == "__main__":
    main()
