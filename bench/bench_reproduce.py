#!/usr/bin/env python3
"""Time `python reproduce.py` against its floor, in one run (a benchmark, not a test).

    python bench/bench_reproduce.py [--repeat N] [--data DIR] [--build]

Every row is a fresh process; CPU is the child's user + system time (``resource.getrusage``), the
measure that a shared, noisy machine disturbs least, and every row is run ``--repeat`` times in
turn (interleaved), so the ratios come from one run.  Rows:

* the floor: sha256 of every released file plus JSON-decoding every JSON / JSONL file, in a child
  process that imports nothing of nclue (the least any verification must do);
* ``sha256sum -c SHA256SUMS`` (coreutils) and ``reproduce.py --only integrity``;
* ``reproduce.py`` with ``--jobs 1`` and ``--jobs 2`` (wall time is where the second core shows);
* each level alone (``--only LEVEL``; integrity always runs, so its time is inside every line).

``--build`` also times a full stand-in build into a temporary folder.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FLOOR = r"""
import hashlib, json, os, sys
root = sys.argv[1]
n = 0
for line in open(os.path.join(root, "SHA256SUMS"), encoding="utf-8"):
    rel = line[66:].rstrip("\n")
    path = os.path.join(root, *rel.split("/"))
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        data = fh.read()
    h.update(data)
    if rel.endswith(".jsonl"):
        for row in data.decode("utf-8").split("\n"):
            if row:
                json.loads(row)
                n += 1
    elif rel.endswith(".json"):
        json.loads(data.decode("utf-8"))
        n += 1
print(n)
"""


def measure(cmd, cwd=None):
    """``(cpu seconds, wall seconds)`` of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        sys.exit("command failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd), proc.stderr))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--data", default=REPO)
    p.add_argument("--build", action="store_true")
    args = p.parse_args()
    base = [sys.executable, os.path.join(REPO, "reproduce.py"), "--data", args.data, "--quiet"]
    rows = [("floor: sha256 + JSON decode of every file", [sys.executable, "-c", FLOOR, args.data], None),
            ("sha256sum -c SHA256SUMS", ["sha256sum", "-c", "--quiet", "SHA256SUMS"], args.data),
            ("reproduce.py --only integrity", base + ["--only", "integrity", "--jobs", "1"], None),
            ("reproduce.py --jobs 1", base + ["--jobs", "1"], None),
            ("reproduce.py --jobs 2", base + ["--jobs", "2"], None)]
    for level in ("construction", "scoring", "inference", "sensitivity", "paper"):
        rows.append(("--only %s --jobs 1" % level, base + ["--only", level, "--jobs", "1"], None))
    times = {label: [] for label, _, _ in rows}
    for _ in range(args.repeat):
        for label, cmd, cwd in rows:          # interleaved: every row sees the same machine conditions
            times[label].append(measure(cmd, cwd))
    med = {label: (statistics.median(c for c, _ in t), statistics.median(w for _, w in t)) for label, t in times.items()}
    floor = med[rows[0][0]][0]
    sums = med["sha256sum -c SHA256SUMS"][0]
    print("python %s, %d interleaved runs each; median CPU and wall seconds; ratios to the floor's CPU" % (
        sys.version.split()[0], args.repeat))
    for label, _, _ in rows:
        cpu, wall = med[label]
        print("  %-44s cpu %6.2f  wall %6.2f  x floor %5.2f" % (label, cpu, wall, cpu / floor if floor else 0))
    print("  integrity / sha256sum -c (CPU): %.2f" % (med["reproduce.py --only integrity"][0] / sums if sums else 0))
    print("  --jobs 2 wall / --jobs 1 CPU: %.2f" % (med["reproduce.py --jobs 2"][1] / med["reproduce.py --jobs 1"][0]))
    if args.build:
        with tempfile.TemporaryDirectory() as tmp:
            cpu, wall = measure([sys.executable, "-m", "nclue", "build", "--out", tmp])
            print("  %-44s cpu %6.2f  wall %6.2f" % ("full build + freeze", cpu, wall))


if __name__ == "__main__":
    main()
