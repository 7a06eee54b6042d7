#!/usr/bin/env python3
"""Time `python reproduce.py` against its floor, in one run (a benchmark, not a test).

    python bench/bench_reproduce.py [--repeat N] [--data DIR] [--build] [--scaling [--keep DIR]] [--profile]

Every row is a fresh process; CPU is the child's user + system time (``resource.getrusage``), the
measure that a shared, noisy machine disturbs least, and every row is run ``--repeat`` times in
turn (interleaved), so the ratios come from one run.  Children run with Python's bytecode cache on
(``PYTHONDONTWRITEBYTECODE`` removed) after one untimed warm-up of every row, so a row measures a
reviewer's second and later runs; the first run's one-time compilation is the ``cold`` row.  Rows:

* the floor: sha256 of every released file plus JSON-decoding every JSON / JSONL file, in a child
  process that imports nothing of nclue (the least any verification must do);
* ``sha256sum -c SHA256SUMS`` (coreutils) and ``reproduce.py --only integrity``;
* ``reproduce.py`` and ``--only integrity`` with the default ``--jobs`` (the idle cores: never slower
  than ``--jobs 1``) and with ``--jobs 1`` and ``--jobs 2`` (wall time is where the second core shows),
  and ``--jobs 1`` with the bytecode cache off (``cold``);
* each level alone (``--only LEVEL``; integrity always runs, so its time is inside every line).

``--build`` also times a full stand-in build into a temporary folder, and RealPage's build into a copy of the
release when the pinned doc-rfc packages are present (``$NCLUE_REALPAGE_PACKAGES`` or the cache folder).  ``--scaling`` builds the
scaled stand-ins ``full_x2`` and ``full_x4`` (nclue/builder/config.py: 2x and 4x the documents,
pages and queries; never a release; the paper's transcription is copied in and the claims re-frozen, so
the paper level does the same work at every scale) -- or reuses them from ``--keep DIR`` -- and times every level
at 1x, 2x and 4x, with the growth exponent ``log(t4 / t1) / log 4`` (1 = linear in the queries).
``--profile`` prints the ten functions of largest own time in a ``--jobs 1`` run (cProfile).
``--draws`` builds the Monte Carlo rehearsal of tests/test_rehearsal_monte_carlo.py (the release marked not
synthetic, its 68 Monte Carlo numbers replaced by a faithful numpy recomputation, so that the published
level judges and redraws them; it needs the dev requirements) -- or reuses it from ``--keep DIR`` -- and
times ``reproduce.py --jobs 1`` on it at ``--draws-multiplier`` 1, 2 and 4: the cost of each factor.
"""

import argparse
import math
import os
import pstats
import resource
import shutil
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


_EMPTY_CACHE = tempfile.mkdtemp(prefix="nclue-bench-nocache-")


def child_env(cache=True):
    """The children's environment: bytecode cache on, or (the ``cold`` row) looked up in an empty folder
    and never written, so every module is compiled from source as on a first run."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not cache:
        env.update(PYTHONDONTWRITEBYTECODE="1", PYTHONPYCACHEPREFIX=_EMPTY_CACHE)
    return env


def measure(cmd, cwd=None, env=None, codes=(0,)):
    """``(cpu seconds, wall seconds)`` of one child process, which must exit with one of ``codes``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env or child_env())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in codes:  # a row that fails (a damaged or stale release) is not timed
        sys.exit("command failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd), proc.stderr))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def _timed_levels():
    """The levels a row limits a run to (``--only LEVEL``), read from the harness so that a renamed level cannot
    leave the bench behind: every level but integrity (inside every row) and the rebuild (``--deep``)."""
    sys.path.insert(0, REPO)
    from nclue.analyses.base import LEVELS as ALL

    return tuple(level for level in ALL if level not in ("integrity", "rebuild"))


LEVELS = _timed_levels()


def interleaved(rows, repeat, codes=(0,)):
    """Median ``(cpu, wall)`` per row label over ``repeat`` interleaved rounds, after one untimed warm-up;
    every child must exit with one of ``codes``."""
    for _, cmd, cwd, env in rows:
        measure(cmd, cwd, env, codes)
    times = {label: [] for label, _, _, _ in rows}
    for _ in range(repeat):
        for label, cmd, cwd, env in rows:          # every row sees the same machine conditions
            times[label].append(measure(cmd, cwd, env, codes))
    return {label: (statistics.median(c for c, _ in t), statistics.median(w for _, w in t)) for label, t in times.items()}


def _default_jobs():
    sys.path.insert(0, REPO)
    from nclue.run.runner import default_jobs
    return default_jobs()


def reproduce_command(data, *extra):
    return [sys.executable, os.path.join(REPO, "reproduce.py"), "--data", data, "--quiet"] + list(extra)


def scaling(args):
    """Every level at 1x, 2x and 4x the queries (the scaled stand-ins), with growth exponents."""
    keep = args.keep or tempfile.mkdtemp(prefix="nclue-scaling-")
    roots = {1: args.data}
    for factor in (2, 4):
        root = os.path.join(keep, "full_x%d" % factor)
        if not os.path.isfile(os.path.join(root, "MANIFEST.json")):
            cpu, wall = measure([sys.executable, "-m", "nclue", "build", "--config", "full_x%d" % factor,
                                 "--out", root], cwd=REPO)
            print("  built full_x%d in %s: cpu %.1f s, wall %.1f s" % (factor, root, cpu, wall))
        numbers = os.path.join(root, "reference_metrics", "paper", "numbers.json")
        if not os.path.isfile(numbers):
            # the paper's transcription is part of the release, not of a build: copy it and re-freeze, so the
            # paper level does the same work at every scale
            os.makedirs(os.path.dirname(numbers), exist_ok=True)
            shutil.copy(os.path.join(args.data, "reference_metrics", "paper", "numbers.json"), numbers)
            measure([sys.executable, "-m", "nclue", "freeze", "--data", root], cwd=REPO)
        roots[factor] = root
    rows = []
    for factor, root in sorted(roots.items()):
        rows.append(("%dx floor" % factor, [sys.executable, "-c", FLOOR, root], None, None))
        rows.append(("%dx integrity" % factor, reproduce_command(root, "--only", "integrity", "--jobs", "1"), None, None))
        for level in LEVELS:
            rows.append(("%dx %s" % (factor, level), reproduce_command(root, "--only", level, "--jobs", "1"), None, None))
        rows.append(("%dx all" % factor, reproduce_command(root, "--jobs", "1"), None, None))
    med = interleaved(rows, args.repeat)
    sizes = {f: [_count_lines(os.path.join(root, "data", "v1", name)) for name in ("queries.jsonl", "qrels.jsonl")]
             for f, root in roots.items()}
    print("scaling: CrossPage queries %s, qrel rows %s at 1x, 2x, 4x (the upper gates scale too, so the qrels per "
          "query grow)" % ("/".join(str(sizes[f][0]) for f in (1, 2, 4)), "/".join(str(sizes[f][1]) for f in (1, 2, 4))))
    print("median CPU seconds at 1x, 2x, 4x (each level row includes integrity); exponent = log(t4 / t1) / log 4 "
          "against the queries")
    for what in ["floor", "integrity"] + list(LEVELS) + ["all"]:
        t = [med["%dx %s" % (f, what)][0] for f in (1, 2, 4)]
        print("  %-14s %7.2f %7.2f %7.2f   exponent %.2f" % (what, t[0], t[1], t[2],
                                                              math.log(t[2] / t[0]) / math.log(4) if t[0] else 0))


def _timed_build(label, cmd):
    """One build + freeze in a child: CPU, wall, and the peak RSS at each stage the builder reports (its lines
    end in "(peak RSS N MB)"; the bound is 1.5 GB, issue 39), with the stages where the peak grew."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, env=child_env())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit("%s failed (%d)\n%s" % (label, proc.returncode, proc.stderr))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    stages = [(line.rsplit(" (peak RSS", 1)[0], int(line.rsplit(" ", 2)[-2]))
              for line in proc.stdout.splitlines() if line.endswith(" MB)") and "(peak RSS " in line]
    print("  %-48s cpu %6.2f  wall %6.2f  peak RSS %d MB" % (label, cpu, wall,
                                                              max(mb for _, mb in stages) if stages else -1))
    grown, last = [], 0
    for stage, mb in stages:
        if mb > last:
            grown.append("%s %d" % (stage, mb))
            last = mb
    print("    peak RSS (MB) where it grew: " + "; ".join(grown))


def build(args):
    """The full stand-in build + freeze into a temporary folder, then RealPage's (``--release v3``) into a copy
    of the release when its pinned packages are present (else one line names the missing ones)."""
    with tempfile.TemporaryDirectory() as tmp:
        _timed_build("full build + freeze", [sys.executable, "-m", "nclue", "build", "--out", tmp])
    sys.path.insert(0, REPO)
    from nclue.builder.realpage import packages
    folder = packages.default_folder()
    absent = packages.missing(folder)
    if absent:
        print("  RealPage build: not timed, %d pinned packages are not in %s (%s)" % (len(absent), folder,
                                                                                    ", ".join(absent)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("data", "reference_metrics"):
            shutil.copytree(os.path.join(args.data, name), os.path.join(tmp, name))
        for name in ("MANIFEST.json", "SHA256SUMS"):
            shutil.copy(os.path.join(args.data, name), os.path.join(tmp, name))
        _timed_build("RealPage build (--target realpage) + freeze", [
            sys.executable, "-m", "nclue", "build", "--target", "realpage", "--packages", folder, "--out", tmp])


def _count_lines(path):
    with open(path, "rb") as fh:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b""))


def profile(args):
    """The ten largest own times of one ``--jobs 1`` run (cProfile; profiling inflates small calls)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "profile.out")
        subprocess.run([sys.executable, "-m", "cProfile", "-o", out] + reproduce_command(args.data, "--jobs", "1")[1:],
                       capture_output=True, env=child_env())
        stats = pstats.Stats(out, stream=sys.stdout)
        stats.sort_stats("tottime")
        print("profile: top ten by own time of one --jobs 1 run (cProfile; seconds are inflated by profiling)")
        for (path, line, name), row in sorted(stats.stats.items(), key=lambda item: -item[1][2])[:10]:
            calls, _, own, cumulative, _ = row
            where = name if path == "~" else "%s:%d(%s)" % (os.path.relpath(path, REPO) if path.startswith(REPO)
                                                          else os.path.basename(path), line, name)
            print("  %8.3f own %8.3f cum %9d calls  %s" % (own, cumulative, calls, where))


def draws(args):
    """``reproduce.py --jobs 1`` on the Monte Carlo rehearsal at draws multipliers 1, 2 and 4."""
    keep = args.keep or tempfile.mkdtemp(prefix="nclue-draws-")
    root = os.path.join(keep, "mc_rehearsal")
    if not os.path.isfile(os.path.join(root, "MANIFEST.json")):
        sys.path[:0] = [REPO, os.path.join(REPO, "tests")]
        from test_rehearsal_monte_carlo import _release_with, faithful_values  # dev requirements
        start = time.process_time()
        _release_with(args.data, root, faithful_values(args.data))
        print("  built the Monte Carlo rehearsal in %s: cpu %.1f s" % (root, time.process_time() - start))
    factors = (1, 2, 4)
    rows = [("--draws-multiplier %d" % k, reproduce_command(root, "--jobs", "1", "--draws-multiplier", str(k)),
             None, None) for k in factors]
    # the rehearsal fails by design (exit 1): only its Monte Carlo numbers were replaced, so its deterministic
    # cells disagree with the transcription
    med = interleaved(rows, args.repeat, codes=(1,))
    base = med[rows[0][0]][0]
    print("the Monte Carlo rehearsal (68 Monte Carlo numbers judged), --jobs 1; median CPU and wall seconds")
    for label, _, _, _ in rows:
        cpu, wall = med[label]
        print("  %-48s cpu %6.2f  wall %6.2f  x K=1 %5.2f" % (label, cpu, wall, cpu / base if base else 0))


# the speed bounds the release holds itself to (issue 60; docs/usage.md#speed-and---jobs): ratios in one run
BOUNDS = {"full": 6.0, "integrity": 1.5, "jobs": 1.0}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--data", default=REPO)
    p.add_argument("--build", action="store_true")
    p.add_argument("--scaling", action="store_true")
    p.add_argument("--keep", metavar="DIR", help="where the scaled stand-ins are built (reused when present)")
    p.add_argument("--profile", action="store_true")
    p.add_argument("--draws", action="store_true", help="time the draws multiplier on the Monte Carlo rehearsal")
    args = p.parse_args()
    base = reproduce_command(args.data)
    rows = [("floor: sha256 + JSON decode of every file", [sys.executable, "-c", FLOOR, args.data], None, None),
            ("sha256sum -c SHA256SUMS", ["sha256sum", "-c", "--quiet", "SHA256SUMS"], args.data, None),
            ("reproduce.py --only integrity", base + ["--only", "integrity", "--jobs", "1"], None, None),
            ("reproduce.py --only integrity (default --jobs)", base + ["--only", "integrity"], None, None),
            ("reproduce.py (default --jobs)", base, None, None),
            ("reproduce.py --jobs 1", base + ["--jobs", "1"], None, None),
            ("reproduce.py --jobs 2", base + ["--jobs", "2"], None, None),
            ("reproduce.py --jobs 1, cold (no bytecode cache)", base + ["--jobs", "1"], None, child_env(cache=False))]
    for level in LEVELS:
        rows.append(("--only %s --jobs 1" % level, base + ["--only", level, "--jobs", "1"], None, None))
    med = interleaved(rows, args.repeat)
    floor = med[rows[0][0]][0]
    sums = med["sha256sum -c SHA256SUMS"][0]
    print("python %s, %d interleaved runs each after a warm-up; median CPU and wall seconds; ratios to the floor's CPU"
          % (sys.version.split()[0], args.repeat))
    for label, _, _, _ in rows:
        cpu, wall = med[label]
        print("  %-48s cpu %6.2f  wall %6.2f  x floor %5.2f" % (label, cpu, wall, cpu / floor if floor else 0))
    integrity = med["reproduce.py --only integrity"][0] / sums if sums else 0
    full = med["reproduce.py --jobs 1"][0] / floor if floor else 0
    jobs = med["reproduce.py (default --jobs)"][1] / med["reproduce.py --jobs 1"][1]
    print("  integrity / sha256sum -c (CPU): %.2f; with the default --jobs: %.2f" % (
        integrity, med["reproduce.py --only integrity (default --jobs)"][0] / sums if sums else 0))
    print("  default --jobs (%d on this machine now) wall / --jobs 1 wall: %.2f" % (_default_jobs(), jobs))
    print("  --jobs 2 wall / --jobs 1 CPU: %.2f" % (med["reproduce.py --jobs 2"][1] / med["reproduce.py --jobs 1"][0]))
    print("bounds (issue 60; each figure beside its bound, measured on an idle machine):")
    for what, figure, bound in (("full run CPU / floor CPU", full, BOUNDS["full"]),
                                ("--only integrity CPU / sha256sum -c CPU", integrity, BOUNDS["integrity"]),
                                ("default --jobs wall / --jobs 1 wall", jobs, BOUNDS["jobs"])):
        print("  %-44s %6.2f  bound %5.2f  %s" % (what, figure, bound, "within" if figure <= bound else "OVER"))
    if args.build:
        build(args)
    if args.scaling:
        scaling(args)
    if args.profile:
        profile(args)
    if args.draws:
        draws(args)


if __name__ == "__main__":
    main()
