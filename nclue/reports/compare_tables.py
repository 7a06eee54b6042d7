"""The tables of ``nclue compare`` (docs/usage.md#comparing-runs): a comparison made by
:func:`nclue.commands.compare_runs.compare` as text, Markdown, LaTeX or JSON: the means with the
letters of the runs each beats, and one row per pair."""

from ..core.errors import UsageError, bounded
from ..core.jsonio import dumps_pretty
from ..core.measures import MEASURES
from .score_tables import in_unit, latex_escape, num

FORMATS = ("text", "markdown", "latex", "json")


def _cells(cmp):
    """The means table: a header and a row per run; the tested column's values with the letters they beat."""
    header = ["", "run"] + [MEASURES[name].label for name in cmp["measures"]]
    rows = []
    for run in cmp["runs"]:
        cells = [run["letter"], run["run"]]
        for name in cmp["measures"]:
            v = run["values"][name]
            text = in_unit(v, v["value"])
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
    rows = [["%s - %s" % (letter[p["a"]], letter[p["b"]]), num(p["delta"], 2),
             "[%s, %s]" % (num(p["ci_low"], 2), num(p["ci_high"], 2)), num(p["p"], 4), num(p["p_holm"], 4)]
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
    lines = ["% " + latex_escape(cmp["banner"]), "% " + latex_escape(_note(cmp))]
    for header, rows in (_cells(cmp), _pair_cells(cmp)):
        lines += ["\\begin{tabular}{%s}" % ("ll" + "r" * (len(header) - 2)), "\\hline",
                  " & ".join(latex_escape(h) for h in header) + " \\\\", "\\hline"]
        lines += [" & ".join(latex_escape(c) for c in cells) + " \\\\" for cells in rows]
        lines += ["\\hline", "\\end{tabular}", ""]
    return "\n".join(lines)


RENDERERS = {"text": _text, "markdown": _markdown, "latex": _latex, "json": dumps_pretty}


def render(cmp, fmt="text"):
    if fmt not in RENDERERS:
        raise UsageError("unknown format %s (formats: %s)" % (bounded(repr(fmt), 80), ", ".join(FORMATS)))
    return RENDERERS[fmt](cmp)
