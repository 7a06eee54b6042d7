"""``nclue compare RUN RUN...``: runs side by side with the harness's paired tests (docs/usage.md#comparing-runs).

One table of means, a row per run and a column per measure (``-m``; default: every measure of ``score``), and one
row per pair of runs: the difference on the tested measure (:func:`nclue.harness.score.tested_measure`: n-Clue
Score unless ``-m`` leaves it out), its 95% family-clustered bootstrap interval and the whole-family sign-flip p,
raw and Holm-adjusted over each run's comparisons with the runs after it (the comparisons ``score`` makes of
several runs; docs/statistics.md#paired-randomization).  In the tested measure's column a run's value carries the
letters of the runs it beats at Holm-adjusted ``p < ALPHA``, as ranx's ``compare`` marks them.  Formats: text,
markdown, LaTeX, JSON.  Everything is computed by :func:`nclue.harness.score.score`; this module only arranges it.
"""

from ..core.errors import UsageError, bounded
from ..core.jsonio import dumps_pretty
from ..core.measures import MEASURES
from .score import RUN_PREFIX, _banner, _in_unit, _latex_escape, _num, picked_measures, score

ALPHA = 0.05
FORMATS = ("text", "markdown", "latex", "json")
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
    return {"banner": _banner(result), "instrument": result["instrument"], "tested": tested, "alpha": ALPHA,
            "measures": [m.name for m in measures], "runs": rows, "pairs": pairs,
            "bootstrap": result["bootstrap"], "randomization": result["randomization"]}


def _cells(cmp):
    """The means table: a header and a row per run; the tested column's values with the letters they beat."""
    header = ["", "run"] + [MEASURES[name].label for name in cmp["measures"]]
    rows = []
    for run in cmp["runs"]:
        cells = [run["letter"], run["run"]]
        for name in cmp["measures"]:
            v = run["values"][name]
            text = _in_unit(v, v["value"])
            if name == cmp["tested"] and run["beats"]:
                text += " >" + "".join(run["beats"])
            cells.append(text)
        rows.append(cells)
    return header, rows


def _pair_cells(cmp):
    unit = MEASURES[cmp["tested"]].unit if cmp["tested"] else ""
    header = ["pair", "Delta %s (%s)" % (MEASURES[cmp["tested"]].label if cmp["tested"] else "-", unit), "95% CI",
              "p", "p (Holm)"]
    letter = {run["run"]: run["letter"] for run in cmp["runs"]}
    rows = [["%s - %s" % (letter[p["a"]], letter[p["b"]]), _num(p["delta"], 2),
             "[%s, %s]" % (_num(p["ci_low"], 2), _num(p["ci_high"], 2)), _num(p["p"], 4), _num(p["p_holm"], 4)]
            for p in cmp["pairs"]]
    return header, rows


def _note(cmp):
    if cmp["tested"] is None:
        return "no paired tests: no measure shown is a mean over every query"
    return ("'>xy' marks the runs a run beats on %s at Holm-adjusted p < %s (whole-family sign flips, %d draws; "
            "95%% family-clustered bootstrap, %d draws)" % (MEASURES[cmp["tested"]].label, cmp["alpha"],
                                                           cmp["randomization"]["draws"], cmp["bootstrap"]["draws"]))


def _text(cmp):
    lines = [cmp["banner"], _note(cmp), ""]
    for header, rows in (_cells(cmp), _pair_cells(cmp)):
        widths = [max(len(str(c)) for c in column) for column in zip(header, *rows)]
        for cells in [header] + rows:
            lines.append("  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip())
        lines.append("")
    return "\n".join(lines)


def _markdown(cmp):
    lines = [cmp["banner"], "", _note(cmp), ""]
    for header, rows in (_cells(cmp), _pair_cells(cmp)):
        lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |" for cells in rows]
        lines.append("")
    return "\n".join(lines)


def _latex(cmp):
    lines = ["% " + _latex_escape(cmp["banner"]), "% " + _latex_escape(_note(cmp))]
    for header, rows in (_cells(cmp), _pair_cells(cmp)):
        lines += ["\\begin{tabular}{%s}" % ("ll" + "r" * (len(header) - 2)), "\\hline",
                  " & ".join(_latex_escape(h) for h in header) + " \\\\", "\\hline"]
        lines += [" & ".join(_latex_escape(c) for c in cells) + " \\\\" for cells in rows]
        lines += ["\\hline", "\\end{tabular}", ""]
    return "\n".join(lines)


RENDERERS = {"text": _text, "markdown": _markdown, "latex": _latex, "json": dumps_pretty}


def render(cmp, fmt="text"):
    if fmt not in RENDERERS:
        raise UsageError("unknown format %s (formats: %s)" % (bounded(repr(fmt), 80), ", ".join(FORMATS)))
    return RENDERERS[fmt](cmp)
