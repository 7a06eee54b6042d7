"""The tables of ``nclue score`` (docs/usage.md#scoring-a-new-retriever): a result of
:func:`nclue.commands.score.score` as text (default), JSON, TSV, Markdown, LaTeX or trec_eval's
``measure qid value`` lines; each value at its measure's display precision (docs/metrics.md)."""

from ..core import measures as measure_table
from ..core.errors import UsageError, bounded
from ..core.jsonio import dumps_pretty

FORMATS = ("text", "json", "tsv", "markdown", "latex", "trec")


def nature_note(info):
    """The banner's words on the release's nature: a synthetic stand-in, or real documents that are not the
    paper's."""
    if info["synthetic"]:
        return "; SYNTHETIC stand-in"
    return "; real documents, not the paper's" if info["synthetic"] is False else ""


def num(value, digits=4):
    return "n/a" if value is None else ("%d" % value if isinstance(value, int) and not isinstance(value, bool)
                                        else "%.*f" % (digits, value))


P_DIGITS = 4         # p-values: 1/(B + 1) = .0001 is the smallest a 10,000-draw test gives


def in_unit(measure, value):
    """A value shown at its measure's display precision (docs/metrics.md), one more digit than the paper."""
    return num(value, measure["decimals"] + 1)


def picked_measures(result):
    """The measures a result reports (``-m``), as declared in :data:`nclue.core.measures.SCORE_COMMAND_MEASURES`."""
    names = set(result.get("measures", [m.name for m in measure_table.SCORE_COMMAND_MEASURES]))
    return tuple(m for m in measure_table.SCORE_COMMAND_MEASURES + measure_table.STANDARD_MEASURES if m.name in names)


HEADER = ("run", "measure", "qid", "value", "ci_low", "ci_high", "unit", "p", "p_max_t", "p_holm")


def _rows(result):
    """Table rows for tsv / markdown / latex (columns of :data:`HEADER`): each run's measures (``qid`` = ``all``),
    its comparisons, and with ``--per-query`` one row per query and measure."""
    rows = []
    for run in result["runs"]:
        name = run["run"]
        for m in picked_measures(result):
            v = run["measures"][m.name]
            rows.append((name, v["label"], "all", in_unit(v, v["value"]), in_unit(v, v["ci_low"]),
                         in_unit(v, v["ci_high"]), v["unit"], "", "", ""))
        for c in run["comparisons"]:
            m = measure_table.MEASURES[c["measure"]]
            rows.append((name, "Delta %s vs %s" % (run["measures"][m.name]["label"], c["against"]), "all",
                         num(c["delta"], 2), num(c["ci_low"], 2), num(c["ci_high"], 2),
                         run["measures"][m.name]["unit"], num(c["p"], P_DIGITS), num(c["p_max_t"], P_DIGITS),
                         num(c["p_holm"], P_DIGITS)))
        for row in run.get("per_query", ()):
            m = run["measures"][row["measure"]]
            rows.append((name, m["label"], row["qid"], in_unit(m, row["value"]), "", "", row["unit"], "", "", ""))
    return rows


def render(result, fmt="text"):
    """The result as text (default), json, tsv, markdown or latex; every format carries the per-query rows
    when they were asked for."""
    if fmt not in RENDERERS:
        raise UsageError("unknown format %s (formats: %s)" % (bounded(repr(fmt), 80), ", ".join(FORMATS)))
    return RENDERERS[fmt](result)


def banner(result):
    """The line every format opens with: the release, the qrel copy, its queries, SYNTHETIC, the depth."""
    info = result["instrument"]
    return "nclue score: %s, %s (%d evaluation queries)%s; %s" % (
        info["release"], info["qrels"], info["queries"], nature_note(info), result["depth_note"])


# the numeric columns of HEADER (right-aligned in LaTeX)
NUMERIC_COLUMNS = ("value", "ci_low", "ci_high", "p", "p_max_t", "p_holm")


def _tsv(result):
    return "\n".join(["# " + banner(result)] + ["\t".join(r) for r in [HEADER] + _rows(result)]) + "\n"


def _trec_name(measure):
    """The name a ``trec`` line gives a measure: trec_eval's own where it has one, as trec_eval prints it
    (``ndcg_cut_10``), else the measure's id."""
    return measure.trec_eval.replace(".", "_") if measure.trec_eval else measure.name


def _full(value):
    """A value at full precision: the shortest text that reads back as the same float (``repr``), an integer
    as itself; ``n/a`` for none."""
    if value is None:
        return "n/a"
    return "%d" % value if isinstance(value, int) and not isinstance(value, bool) else repr(float(value))


def _trec(result):
    """trec_eval's ``-q`` layout, one ``measure<TAB>qid<TAB>value`` line each: per run a ``runid`` line, with
    ``--per-query`` every query's measures in the order the queries were scored, then the means (``all``); values
    in each measure's unit at full precision (docs/usage.md#scoring-a-new-retriever), the banner on a ``#`` line
    as in ``tsv``."""
    lines = ["# " + banner(result)]
    for run in result["runs"]:
        picked = picked_measures(result)
        lines.append("runid\tall\t%s" % run["run"])
        for row in run.get("per_query", ()):
            lines.append("%s\t%s\t%s" % (_trec_name(measure_table.MEASURES[row["measure"]]), row["qid"],
                                          _full(row["value"])))
        for measure in picked:
            v = run["measures"][measure.name]
            lines.append("%s\tall\t%s" % (_trec_name(measure), _full(v["value"])))
    return "\n".join(lines) + "\n"


def _markdown(result):
    lines = [banner(result), "", "| " + " | ".join(HEADER) + " |",
             "|" + "".join("---:|" if h in NUMERIC_COLUMNS else "---|" for h in HEADER)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in _rows(result)]
    return "\n".join(lines) + "\n"


def latex_escape(text):
    return text.replace("\\", "\\textbackslash{}").replace("_", "\\_").replace("%", "\\%").replace(
        "&", "\\&").replace("#", "\\#").replace("$", "\\$").replace("{", "\\{").replace("}", "\\}")


def _latex(result):
    lines = ["% " + latex_escape(banner(result)),
             "\\begin{tabular}{%s}" % "".join("r" if h in NUMERIC_COLUMNS else "l" for h in HEADER), "\\hline",
             " & ".join(latex_escape(h) for h in HEADER) + " \\\\", "\\hline"]
    lines += [" & ".join(latex_escape(c) for c in r) + " \\\\" for r in _rows(result)]
    lines += ["\\hline", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


def _text(result):
    info, bs, rnd = result["instrument"], result["bootstrap"], result["randomization"]
    lines = [banner(result),
        "intervals: 95%% family-clustered percentile bootstrap, %d draws over %d exact-gold-set families, %s" % (
            bs["draws"], bs["families"], bs["stream"]),
        "paired tests: %s, run minus reference; %d whole-family sign flips, %s; p = (1 + c)/(B + 1); "
        "studentized max-|T| and Holm over each run's comparisons" % (
            measure_table.MEASURES[rnd["measure"]].label if rnd.get("measure") else "none (no measure shown is a "
            "mean over every query)", rnd["draws"], rnd["stream"]),
        "references: %s" % (", ".join(result["references"]) or "none")]
    itself = sorted({sid for run in result["runs"] for sid in run.get("not_compared", {})})
    if itself:
        lines[-1] += " (not %s: a run is never compared with its own released ranking)" % ", ".join(itself)
    for run in result["runs"]:
        lines += [""] + _text_run(run, info["queries"], picked_measures(result))
    return "\n".join(lines) + "\n"


def _text_run(run, queries, measures):
    """One run's lines of the text format: totals with intervals, comparisons, per-query rows."""
    lines = ["run %s (%s%s; %d of %d queries ranked, absent queries score as empty lists)" % (
        run["run"], "" if run["file"] == run["run"] else "file %s; " % run["file"], run["order"],
        run["ranked_queries"], queries)]
    for m in measures:
        v = run["measures"][m.name]
        ci = "" if v["ci_low"] is None else "  [%s, %s]" % (in_unit(v, v["ci_low"]), in_unit(v, v["ci_high"]))
        lines.append("  %-18s %10s %-11s%s" % (m.label, in_unit(v, v["value"]), v["unit"], ci))
    if measure_table.NCLUE_SCORE.name in run["measures"]:
        lines.append("  %-18s %10d queries" % ("n-Clue successes", run["successes"]))
    if run["comparisons"]:
        tested = run["measures"][run["comparisons"][0]["measure"]]
        lines.append("  %-34s %10s %-20s %8s %8s %8s" % ("Delta %s (%s) vs" % (tested["label"], tested["unit"]),
                                                         "delta", "95% CI", "p", "p_maxT", "p_Holm"))
        digits = 2 if tested["unit"] == "points" else 4
        for c in run["comparisons"]:
            lines.append("  %-34s %+10.*f [%7.*f, %7.*f]  %8.4f %8.4f %8.4f" % (
                c["against"], digits, c["delta"], digits, c["ci_low"], digits, c["ci_high"], c["p"], c["p_max_t"],
                c["p_holm"]))
    if run.get("per_query"):
        lines.append("  %-18s %-14s %10s %s" % ("per query", "qid", "value", "unit"))
    for row in run.get("per_query", ()):
        m = run["measures"][row["measure"]]
        lines.append("  %-18s %-14s %10s %s" % (row["measure"], row["qid"], in_unit(m, row["value"]),
                                                 row["unit"].replace(" ", "_")))
    return lines


RENDERERS = {"text": _text, "json": dumps_pretty, "tsv": _tsv, "markdown": _markdown, "latex": _latex,
             "trec": _trec}
