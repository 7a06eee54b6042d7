#!/usr/bin/env python3
"""Measure every test's time and write the list of slow ones (a benchmark, not a test).

    python bench/bench_tests.py [--threshold SECONDS] [--from-log FILE] [--out FILE]

Runs the whole suite (``python -m pytest -q -rs -m "" --durations=0``, on every core) and writes
``tests/durations.json``: each test whose own run (pytest's ``call`` phase) took at least ``--threshold``
seconds (default 0.8), with its time, and the suite's wall time.  ``tests/conftest.py`` marks those tests
``slow``; the README's test command leaves them out, and ``python -m pytest -q -rs -m slow`` runs them
(``.ci/run`` runs both, so CI runs every test).  ``--from-log FILE`` reads the durations of a run already
made (pytest's output with ``--durations=0``) instead of running the suite.

A test's setup is not counted: an expensive shared fixture is paid by whichever test runs first, so the
tests that read one of them are slow by fixture instead (``conftest.SLOW_FIXTURES``).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "tests", "durations.json")
LINE = re.compile(r"^([0-9.]+)s call\s+(\S.*?)\s*$")
SUMMARY = re.compile(r"\d+ passed.* in ([0-9.]+)s")


def call_times(log):
    """``{test id: seconds}`` of pytest's ``--durations`` lines (the xdist group suffix dropped)."""
    out = {}
    for line in log.splitlines():
        m = LINE.match(line)
        if m:
            test = re.sub(r"@[\w-]+$", "", m.group(2))
            out[test] = out.get(test, 0.0) + float(m.group(1))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threshold", type=float, default=0.8, help="seconds of a test's call phase (0.8)")
    parser.add_argument("--from-log", metavar="FILE", help="a pytest log made with --durations=0")
    parser.add_argument("--out", metavar="FILE", default=OUT, help="where to write (default tests/durations.json)")
    args = parser.parse_args(argv)
    if args.from_log:
        try:
            with open(args.from_log, encoding="utf-8") as handle:
                log = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise SystemExit("bench_tests: %s: %s" % (args.from_log, exc)) from None
        command = "read from a log of: python -m pytest -q -rs -n 2 --durations=0"
    else:
        command = "python -m pytest -q -rs -m '' --durations=0"
        started = time.time()
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-m", "", "--durations=0",
                               "-p", "no:cacheprovider"], cwd=REPO, capture_output=True, text=True)
        log = proc.stdout
        print("suite: exit %d in %.0f s wall" % (proc.returncode, time.time() - started))
    times = call_times(log)
    if not times:
        raise SystemExit("bench_tests: no --durations lines in the log (run pytest with --durations=0)")
    found = SUMMARY.findall(log)
    slow = {t: round(s, 2) for t, s in sorted(times.items()) if s >= args.threshold}
    document = {"threshold_s": args.threshold, "measured_with": command,
                "suite_wall_s": float(found[-1]) if found else None,
                "tests_timed": len(times), "slow_call_s": round(sum(slow.values()), 1),
                "fast_call_s": round(sum(s for s in times.values() if s < args.threshold), 1), "slow": slow}
    with open(args.out, "w", encoding="utf-8", newline="\n") as handle:
        json.dump(document, handle, indent=1, sort_keys=True)
        handle.write("\n")
    print("wrote %s: %d slow tests (%.1f s of calls), %.1f s of calls in the rest" % (
        args.out, len(slow), document["slow_call_s"], document["fast_call_s"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
