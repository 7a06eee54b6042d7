#!/usr/bin/env python3
"""Time `python reproduce.py` as a whole and level by level (a benchmark, not a test).

    python bench/bench_reproduce.py [--repeat N] [--data DIR] [--build]

Whole-run times are wall-clock times of fresh `reproduce.py` processes (interpreter
start-up included); per-level times run `--only LEVEL` (integrity always runs, so
its time is inside every line).  `--build` also times a full stand-in build into a
temporary folder.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if proc.returncode not in (0, 1):
            sys.exit("command failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd), proc.stderr))
    return times


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--data", default=REPO)
    p.add_argument("--build", action="store_true")
    args = p.parse_args()
    base = [sys.executable, os.path.join(REPO, "reproduce.py"), "--data", args.data, "--quiet"]
    rows = [("reproduce.py (default levels)", base)]
    for level in ("integrity", "construction", "scoring", "inference", "sensitivity", "paper"):
        rows.append(("--only %s" % level, base + ["--only", level]))
    print("python %s, %d runs each (median / min / max seconds)" % (sys.version.split()[0], args.repeat))
    for label, cmd in rows:
        t = timed(cmd, args.repeat)
        print("  %-32s %6.2f %6.2f %6.2f" % (label, statistics.median(t), min(t), max(t)))
    if args.build:
        with tempfile.TemporaryDirectory() as tmp:
            t = timed([sys.executable, "-m", "nclue", "build", "--out", tmp], 1)
            print("  %-32s %6.2f" % ("full build + freeze", t[0]))


if __name__ == "__main__":
    main()
