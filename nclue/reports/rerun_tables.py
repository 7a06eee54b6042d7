"""The tables of ``nclue reproduce-run`` (docs/usage.md#checking-a-re-run): a result of
:func:`nclue.commands.reproduce_run.reproduce_run` as text (default), JSON, TSV or Markdown, each
opening with the banner (the role, the qrel copy, SYNTHETIC)."""

from ..core.errors import UsageError, bounded
from ..core.jsonio import dumps_pretty
from .score_tables import nature_note

# repro_eval's truncated RBO divides the overlap at depth d by d: a list shorter than the depth stays below 1 even
# against itself (docs/usage.md#checking-a-re-run)
RBO_SHORT_NOTE = ("; %d of them rank fewer than %d documents on one side, where repro_eval's truncated RBO is below 1 "
                  "even for identical lists")

FORMATS = ("text", "json", "tsv", "markdown")


def _banner(result):
    info, role = result["instrument"], result["role"]
    return "nclue reproduce-run: role %s (%s: %s; %s queries), %s, %s (%d evaluation queries)%s" % (
        role["name"], role["kind"], " -> ".join(role["systems"]), role["form"], info["release"], info["qrels"],
        info["queries"], nature_note(info))


def _num(value, digits=4):
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "%.*f" % (digits, value)


def rows(result):
    """``(section, item, measure, released, rerun, difference, extra)`` rows of every table format."""
    out = []
    for run in result["runs"]:
        a = run["agreement"]
        out.append(("agreement", run["system"], "kendall_tau_union@%d" % a["depth"], "", _num(a["kendall_tau_union"]),
                    "", "%d queries, %d undefined" % (a["queries"], a["tau_undefined"])))
        out.append(("agreement", run["system"], "rbo@%d(p=%g)" % (a["depth"], a["rbo_p"]), "", _num(a["rbo"]), "",
                    "%d queries%s" % (a["queries"], RBO_SHORT_NOTE % (a["rbo_short_lists"], a["depth"])
                                      if a.get("rbo_short_lists") else "")))
        for name, m in run["measures"].items():
            out.append(("measure", run["system"], name, _num(m["released"]), _num(m["rerun"]), _num(m["delta"]),
                        "rmse %s, p %s, se %s (%s; difference: re-run minus released)" % (
                            _num(m["rmse"]), _num(m["p"]), _num(m["se"]), m["unit"])))
        o = run["outcomes"]
        out.append(("outcomes", run["system"], "changed", "", str(o["changed"]), "", "; ".join(
            "%s: %d" % kv for kv in o["transitions"].items()) or "none"))
        for q in o.get("changed_queries", ()):
            out.append(("outcome", run["system"], q["qid"], q["released"], q["rerun"], "", ""))
        for q in run.get("per_query", ()):
            out.append(("query", run["system"], q["qid"], "", _num(q["kendall_tau_union"]), "",
                        "tau union %s, rbo %s" % (_num(q["kendall_tau_union"]), _num(q["rbo"]))))
    pair = result.get("pair")
    if pair:
        for name, m in pair["measures"].items():
            out.append(("pair", "%s -> %s" % (pair["base"], pair["variant"]), name, _num(m["released_delta"]),
                        _num(m["rerun_delta"]), "", "ER %s, Delta RI %s" % (_num(m["effect_ratio"]),
                                                                          _num(m["delta_ri"]))))
        out.append(("pair", "%s -> %s" % (pair["base"], pair["variant"]), "interval", "", "[%s, %s]" % (
            _num(pair["rerun_ci"][0], 2), _num(pair["rerun_ci"][1], 2)), "", "covers the released delta: %s; the "
            "published: %s" % (_num(pair["covers_released"]), _num(pair.get("covers_published")))))
    for c in result["cells"]:
        out.append(("cell", c["table"], c["number"], _num(c["released"], 2), _num(c["rerun"], 2),
                    _num(c["difference"], 2), "published %s (difference: re-run minus published); %s%s" % (
                        c["published"], c["status"], "" if c["difference_in_se"] is None else
                        "; %+.1f SE" % c["difference_in_se"])))
    for t in result["tables"]:
        out.append(("verdict", t["table"], "%d cells" % t["cells"], "", t["verdict"], "",
                    "%d pass, %d fail, %d skip%s" % (t["pass"], t["fail"], t["skip"],
                                                     "; " + t["reason"] if t["reason"] else "")))
    own = result.get("release_claims")
    if own is not None:
        out.append(("claims", result["instrument"]["release"], "%d recomputed" % own["claims"], "",
                    "%d differ" % own["differing"], "", "the release's own claims that read the role's ranking "
                                                        "(difference: re-run minus released)"))
        for r in own["rows"]:
            if not r["same"]:
                out.append(("claim", "", r["claim"], _cell_value(r["released"]), _cell_value(r["rerun"]),
                            _num(r["difference"]), ""))
    return out


def _cell_value(value):
    return _num(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


HEADER = ("section", "item", "measure", "released", "rerun", "difference", "detail")
# the text format's column heads: "difference" is re-run minus released for a measure (a row says so) and re-run
# minus published for a cell
TEXT_HEADER = ("section", "item", "measure", "released", "re-run", "difference", "detail (a measure's difference: "
               "re-run minus released; a cell's: re-run minus published)")


def render(result, fmt="text"):
    """The result as text (default), json, tsv or markdown; every format opens with the banner (the role, the
    qrel copy, SYNTHETIC)."""
    if fmt == "json":
        return dumps_pretty(result)
    if fmt == "tsv":
        return "\n".join(["# " + _banner(result)] + ["\t".join(r) for r in [HEADER] + rows(result)]) + "\n"
    if fmt == "markdown":
        lines = [_banner(result), "", "| " + " | ".join(HEADER) + " |",
                 "|---|---|---|---:|---:|---:|---|"]
        return "\n".join(lines + ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |"
                                  for r in rows(result)]) + "\n"
    if fmt != "text":
        raise UsageError("unknown format %s (formats: %s)" % (bounded(repr(fmt), 80), ", ".join(FORMATS)))
    lines = [_banner(result), "  %-9s %-24s %-30s %10s %10s %10s  %s" % TEXT_HEADER]
    for r in rows(result):
        lines.append("  %-9s %-24s %-30s %10s %10s %10s  %s" % r)
    if result.get("release_claims") is not None:
        unchecked = ("the paper's published cells: the paper publishes no value on this release of real documents "
                     "(its cells are CrossPage's); the release's own claims above are recomputed instead")
    elif result["instrument"]["synthetic"]:
        unchecked = "the published cells, whose values are the paper's and not this synthetic stand-in's (each a skip)"
    else:
        unchecked = "nothing beyond the cells listed"
    lines.append("not verified here: " + unchecked)
    return "\n".join(lines) + "\n"
