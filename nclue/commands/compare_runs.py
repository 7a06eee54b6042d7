"""``nclue compare RUN RUN...``: runs side by side with the harness's paired tests (docs/usage.md#comparing-runs).

One table of means, a row per run and a column per measure (``-m``; default: every measure of ``score``), and one
row per pair of runs: the difference on the tested measure (:func:`nclue.commands.score.tested_measure`: n-Clue
Score unless ``-m`` leaves it out), its 95% family-clustered bootstrap interval and the whole-family sign-flip p,
raw and Holm-adjusted over each run's comparisons with the runs after it (the comparisons ``score`` makes of
several runs; docs/statistics.md#paired-randomization).  In the tested measure's column a run's value carries the
letters of the runs it beats at Holm-adjusted ``p < ALPHA``, as ranx's ``compare`` marks them.  Formats: text,
markdown, LaTeX, JSON.  Everything is computed by :func:`nclue.commands.score.score`; this module only arranges it.
"""

from ..core.errors import UsageError
from ..reports.score_tables import banner, picked_measures
from .score import RUN_PREFIX, score

ALPHA = 0.05
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def compare(runs, root=None, **options):
    """The comparison of ``runs`` (at least two, at most :data:`LETTERS` long): :func:`score` with no reference
    systems, arranged as ``{instrument, tested, alpha, measures, runs: [{letter, run, values, beats}],
    pairs: [{a, b, delta, ci_low, ci_high, p, p_holm}]}``."""
    if len(runs) < 2:
        raise UsageError("compare needs two or more runs (score takes one)")
    if len(runs) > len(LETTERS):
        raise UsageError("compare takes at most %d runs, got %d" % (len(LETTERS), len(runs)))
    result = score(runs, root, against=[], **options)
    measures = picked_measures(result)
    letter = {run["run"]: LETTERS[i] for i, run in enumerate(result["runs"])}
    pairs, beats = [], {run["run"]: [] for run in result["runs"]}
    tested = None
    for run in result["runs"]:
        for c in run["comparisons"]:
            other = c["against"][len(RUN_PREFIX):]
            tested = c["measure"]
            pairs.append({"a": run["run"], "b": other, "delta": c["delta"], "ci_low": c["ci_low"],
                          "ci_high": c["ci_high"], "p": c["p"], "p_holm": c["p_holm"]})
            if c["p_holm"] < ALPHA:
                winner, loser = (run["run"], other) if c["delta"] > 0 else (other, run["run"])
                beats[winner].append(letter[loser])
    rows = [{"letter": letter[run["run"]], "run": run["run"],
             "values": {m.name: run["measures"][m.name] for m in measures},
             "beats": sorted(beats[run["run"]])} for run in result["runs"]]
    return {"banner": banner(result), "instrument": result["instrument"], "tested": tested, "alpha": ALPHA,
            "measures": [m.name for m in measures], "runs": rows, "pairs": pairs,
            "bootstrap": result["bootstrap"], "randomization": result["randomization"]}
