"""Output of a run: the human summary, the JSON report and the provenance record.

* stdout: the instrument line, one line per group (level), then every fail
  and skip in full (skips for unrequested levels are summarised per group),
  then the result line.
* ``--json FILE``: a deterministic report (schema ``nclue.report/2``, with the headline and the published-result bindings): the same
  inputs give the same bytes on every interpreter, so it carries no time,
  path or interpreter data.
* provenance (``--provenance FILE``; beside the JSON report by default):
  harness version, git revision and dirty flag when available, Python
  implementation and version, platform, every input's sha256, seeds.
"""

import os
import platform
import subprocess
from collections import namedtuple

from .. import __version__
from ..analyses.base import LEVELS
from ..analyses.replication import DENSE_PREFIX
from ..core.claim_ids import (
    AGREEMENT,
    CHALLENGE,
    CHALLENGE_SECTION,
    GENEALOGY_COPY,
    IMPACT_OF,
    IMPACT_TABLE,
    POLICY,
    POLICY_SECTION,
    POOL,
    POOL_SECTION,
    REPLICATION,
    REPLICATION_SUMMARY,
    statistic_of,
)
from ..core.jsonio import dumps_pretty, write_text
from ..core.layout import CROSSPAGE, REALPAGE, SOURCESHIFT
from ..core.measures import display_of
from ..paperaudit import roles
from ..run.checks import EXPECTED_PAPER_FAIL
from ..run.locate import CHECKOUT
from ..stats import protocol

REPORT_SCHEMA = "nclue.report/2"


def instrument_line(result):
    """The first line of the text summary: the harness and the instrument it checks."""
    return manifest_line(result.integrity.manifest)


def manifest_line(manifest):
    """:func:`instrument_line` from a decoded MANIFEST.json (None: unusable), printed as soon as it is read."""
    m = manifest or {}
    gen = m.get("generator") or {}
    name = m.get("instrument", "unknown instrument (MANIFEST.json unusable)")
    bits = [name]
    if m.get("synthetic"):
        bits.append("SYNTHETIC stand-in, seed %s, config %s" % (gen.get("seed"), gen.get("config")))
    if natures_text(m):
        bits.append(natures_text(m))
    return "nclue %s checking: %s" % (__version__, "; ".join(bits))


NATURE_WORDS = {"synthetic": "a synthetic stand-in", "real": "real documents, not the paper's"}


def natures_text(manifest):
    """What each release of MANIFEST.json's ``natures`` is, in one phrase ("" when it declares none).

    >>> natures_text({"natures": {"data/v1": "synthetic", "data/v3": "real"}})
    "releases: data/v1 a synthetic stand-in, data/v3 real documents, not the paper's"
    """
    natures = (manifest or {}).get("natures")
    if not isinstance(natures, dict) or not natures:
        return ""
    return "releases: " + ", ".join("%s %s" % (release, NATURE_WORDS.get(nature, "of undeclared nature %r" % (nature,)))
                                    for release, nature in sorted(natures.items()))


def group_counts(result):
    groups = {}
    for c in result.checks:
        g = groups.setdefault(c.group, {"pass": 0, "fail": 0, "skip": 0})
        g[c.status] += 1
    return groups


MAX_LISTED = 200


def _grouped(checks, word):
    """Report lines for fails or skips: checks without a cause one by one, checks sharing a cause (a bad or
    absent input file) as one line for the file with the number of checks it blocks."""
    grouped, groups = [], {}
    single = []
    for c in checks:
        if c.cause is None:
            single.append(c)
        else:
            groups.setdefault(c.cause, []).append(c)
    for cause in sorted(groups):
        members = groups[cause]
        if len(members) == 1:
            single.append(members[0])
            continue
        first = members[0]
        grouped.append("  %s %s: %d checks %s with it; first %s: %s (each one is in the JSON report)" % (
            word, cause, len(members), word.lower(), first.id, first.reason))
    single.sort(key=lambda c: (LEVELS.index(c.group) if c.group in LEVELS else len(LEVELS), c.id))
    lines = []
    for c in single[:MAX_LISTED]:
        lines.append("  %s %s: %s" % (word, c.id, c.reason))
        if c.detail:
            lines.append("      %s" % c.detail)
    if len(single) > MAX_LISTED:
        lines.append("  ... and %d more (all in the JSON report)" % (len(single) - MAX_LISTED))
    return lines + grouped


COUNT_BUCKETS = (
    ("claims", "claims of this instrument"),
    ("published_numbers", "published numbers bound to a claim"),
    ("published_other", "published configuration and binding checks"),
)


def count_bucket(check):
    """The bucket of :data:`COUNT_BUCKETS` a check belongs to: the published numbers are the checks
    ``published:<number>``; the rest of the ``published`` group are the blocked configurations
    (``published.config:<id>``) and the binding gate (``published``)."""
    if check.group != "published":
        return "claims"
    return "published_numbers" if check.id.startswith("published:") else "published_other"


def count_model(result):
    """How every count of a run adds up (docs/usage.md#how-the-counts-add-up), stated once and read by the
    text summary, the JSON report, the HTML report and the JUnit file: each check is in exactly one
    bucket of :data:`COUNT_BUCKETS`, and the buckets sum to the totals of the result line.

    ``{"checks", "pass", "fail", "skip", "buckets": {name: {"checks", "pass", "fail", "skip"}},
    "skip_causes": {bucket: {cause: n}}, "line"}``."""
    buckets = {name: {"checks": 0, "pass": 0, "fail": 0, "skip": 0} for name, _ in COUNT_BUCKETS}
    causes = {name: {} for name, _ in COUNT_BUCKETS}
    for c in result.checks:
        name = count_bucket(c)
        buckets[name]["checks"] += 1
        buckets[name][c.status] += 1
        if c.status == "skip":
            cause = c.cause or "other"
            causes[name][cause] = causes[name].get(cause, 0) + 1
    totals = result.counts()
    model = {"checks": len(result.checks), "pass": totals["pass"], "fail": totals["fail"], "skip": totals["skip"],
             "buckets": buckets, "skip_causes": {k: dict(sorted(v.items())) for k, v in causes.items()}}
    model["line"] = count_line(model)
    return model


def count_line(model):
    """The one line that shows how the numbers add up.

    >>> m = {"checks": 7, "pass": 4, "fail": 1, "skip": 2, "buckets": {
    ...     "claims": {"checks": 5, "pass": 4, "fail": 1, "skip": 0},
    ...     "published_numbers": {"checks": 1, "pass": 0, "fail": 0, "skip": 1},
    ...     "published_other": {"checks": 1, "pass": 0, "fail": 0, "skip": 1}}}
    >>> count_line(m)
    'COUNTS: 7 checks = 5 claims of this instrument (4 pass, 1 fail, 0 skip) + 1 published numbers bound to a claim (0 pass, 0 fail, 1 skip) + 1 published configuration and binding checks (0 pass, 0 fail, 1 skip); together 4 pass, 1 fail, 2 skip'
    """
    parts = ["%d %s (%d pass, %d fail, %d skip)" % (model["buckets"][name]["checks"], label,
                                                    model["buckets"][name]["pass"], model["buckets"][name]["fail"],
                                                    model["buckets"][name]["skip"]) for name, label in COUNT_BUCKETS]
    return "COUNTS: %d checks = %s; together %d pass, %d fail, %d skip" % (
        model["checks"], " + ".join(parts), model["pass"], model["fail"], model["skip"])


def headline(result):
    """The three-way summary (docs/usage.md#what-a-run-says): the instrument, this instrument's own claims,
    the paper's internal consistency, and the published results verified against data."""
    m = result.integrity.manifest or {}
    counts = count_model(result)
    own = {k: counts["buckets"]["claims"][k] for k in ("pass", "fail", "skip")}
    out = {"instrument": m.get("instrument"), "synthetic": m.get("synthetic") is not False,
           "releases": natures_text(m),
           "claims": own, "paper_consistency": None, "published_results": None, "counts": counts,
           "replication": replication(result)}
    if result.paper is not None:
        rc = result.paper.counts("relations")
        out["paper_consistency"] = {"consistent_relations": rc["pass"], "inconsistent_relations": rc["fail"],
                                    "undeterminable_relations": rc["skip"]}
    if getattr(result, "published", None) is not None:
        sm = result.published["summary"]
        out["published_results"] = {k: sm[k] for k in (
            "numbers", "bound", "verified", "verified_results", "verified_by_construction", "verified_by_kind",
            "bound_by_kind", "monte_carlo", "tie_ambiguous", "failed", "skipped", "skipped_synthetic",
            "skipped_blocked", "skipped_not_computed", "draws_multiplier")}
    return out


def published_sentence(r):
    """The headline's sentence on the published results (text and HTML report alike): exact results, Monte Carlo
    numbers (judged within Monte Carlo error, docs/claims.md#monte-carlo-verdicts) and design counts are counted
    apart, then the fails, the skips by cause and the unbound numbers."""
    bound, verified, mc = r["bound_by_kind"], r["verified_by_kind"], r["monte_carlo"]
    floors = " (%d at the p-value floor of the paper's draws)" % mc["floors"] if mc["floors"] else ""
    more = " (recomputed with %d x this run's draws)" % r["draws_multiplier"] if r["draws_multiplier"] > 1 else ""
    judged = "%d of %d Monte Carlo numbers consistent within Monte Carlo error%s%s, %d of them not resolvable at " \
        "the paper's draws" % (mc["consistent"], mc["numbers"], more, floors, mc["not_resolvable"]) if mc["judged"] else \
        "%d Monte Carlo numbers%s not judged in this run" % (mc["numbers"], floors)
    ties = "; %d published numbers depend on a tie order the paper does not state" % r["tie_ambiguous"] \
        if r["tie_ambiguous"] else ""
    return "%d of %d exact results; %s; %d of %d design counts and sizes that hold by construction%s; %d fail; " \
        "%d skip (%d synthetic stand-in, whose values are its own; %d blocked configurations; %d not computed in " \
        "this run); %d of the %d transcribed numbers are not bound to a claim (reasons in the JSON report)" % (
            verified["result"], bound["result"], judged, verified["design"], bound["design"], ties, r["failed"],
            r["skipped"], r["skipped_synthetic"], r["skipped_blocked"], r["skipped_not_computed"],
            r["numbers"] - r["bound"], r["numbers"])


REPLICATION_WORDS = (("holds", "holds"), ("holds_null", "no difference, as in the paper"),
                     ("not_detected", "not detected"), ("reversed", "reversed"),
                     ("new_direction", "a direction the paper does not find"), ("borderline", "borderline"))


# the statistics of a Table 5 row, under the names the reports read them by (the rest keep their claim names)
REPLICATION_FIELDS = (("verdict", "verdict"), ("base", "base"), ("variant", "variant"),
                      ("delta_score", "delta_score"), ("ci_low", "delta_score_ci_low"),
                      ("ci_high", "delta_score_ci_high"), ("p_holm", "p_holm"), ("direction", "direction")) + tuple(
    (stat, stat) for stat in ("paper_delta_score", "paper_ci_low", "paper_ci_high", "paper_p_holm", "paper_direction",
                              "best_variant", "best_delta_score", "best_delta_score_ci_low",
                              "best_delta_score_ci_high", "best_p_holm", "t7_crosspage_delta", "t7_sourceshift_delta",
                              "t7_agreement"))


def _replication_row(values, key, claim_block):
    """One Table 5 row of the run's ``v3.replication`` claims (``claim_block``: the row's key, or the dense row's):
    ``block`` and every field of :data:`REPLICATION_FIELDS`, None where the run has no such claim."""
    claim = REPLICATION.on(REALPAGE.name).bind(block=claim_block)
    row = {"block": key}
    for field, statistic in REPLICATION_FIELDS:
        cid = claim(statistic=statistic)
        row[field] = values[cid] if cid in values else None
    return row


def replication(result):
    """RealPage's replication of Table 5 (docs/realpage.md#the-replication) from the run's ``v3.replication``
    claims: ``{verdict: [paper block, ...]}`` and the rows, then the same for the rows RealPage's dense blocks play
    (``dense_verdicts``, ``dense_rows``: only the rows a dense block plays), or None when the run computed none."""
    values = claim_values(result)
    if REPLICATION_SUMMARY.on(REALPAGE.name)(statistic="holds") not in values:
        return None
    rows = [_replication_row(values, key, key) for key in roles.BLOCKS]
    dense = [row for row in (_replication_row(values, key, DENSE_PREFIX + key) for key in roles.BLOCKS)
             if row["variant"] is not None]
    return {"verdicts": {word: [r["block"] for r in rows if r["verdict"] == word] for word, _ in REPLICATION_WORDS},
            "rows": rows, "dense_rows": dense,
            "dense_verdicts": {word: [r["block"] for r in dense if r["verdict"] == word] for word, _ in REPLICATION_WORDS}}


def _verdicts_said(verdicts):
    """``verdict words: blocks; ...`` for the verdicts some block has, in :data:`REPLICATION_WORDS`' order."""
    return "; ".join("%s: %s" % (text, ", ".join(verdicts[word])) for word, text in REPLICATION_WORDS if verdicts[word])


def replication_sentence(rep):
    """The headline's lines on RealPage's replication of Table 5: the standard-library rows, then the rows one real
    embedder plays (when the release ships dense runs)."""
    line = "RealPage (real RFC pages, standard-library retrievers, lexical-presence labels; not the paper's models) " \
        "on Table 5's %d rows -- %s" % (len(rep["rows"]), _verdicts_said(rep["verdicts"]))
    if rep["dense_rows"]:
        line += ". Played by one real embedder (all-MiniLM-L6-v2, not the paper's models), %d rows -- %s" % (
            len(rep["dense_rows"]), _verdicts_said(rep["dense_verdicts"]))
    return line


def headline_lines(result):
    h = headline(result)
    kind = ("SYNTHETIC stand-in (its numbers are its own, not the paper's)" if h["synthetic"]
            else "a release marked not synthetic (published results are checked against it)")
    c = h["claims"]
    lines = ["HEADLINE", "  instrument: %s" % kind] + (["  " + h["releases"]] if h.get("releases") else []) + [
             "  this instrument's claims: %d pass, %d fail, %d skip" % (c["pass"], c["fail"], c["skip"])]
    p = h["paper_consistency"]
    lines.append("  the paper's internal consistency: " + (
        "not audited in this run" if p is None else "%d relations consistent, %d inconsistent, %d undeterminable" % (
            p["consistent_relations"], p["inconsistent_relations"], p["undeterminable_relations"])))
    r = h["published_results"]
    if r is None:
        lines.append("  published results verified against data: none (the paper level did not run)")
    else:
        lines.append("  published results verified against data: " + published_sentence(r))
    if h.get("replication"):
        lines.append("  " + replication_sentence(h["replication"]))
    lines.append("  " + h["counts"]["line"])
    return lines


MAX_PER_TABLE = 40


def published_fail_lines(result):
    """The published numbers that fail, grouped by table in the paper's order; every table with a fail is
    shown (at most ``MAX_PER_TABLE`` lines each, the rest counted), with table, row, column, published and
    recomputed values and the claim on each line."""
    from ..run.published import paper_order
    published = getattr(result, "published", None)
    if not published:
        return []
    tables = {}
    fails = {c.id: c for c in result.checks if c.group == "published" and c.status == "fail"}
    for b in published["bindings"]:
        if b.get("status") == "fail":
            tables.setdefault(b["table"], []).append((b["number"], fails["published:" + b["number"]]))
    if not tables:
        return []
    lines = ["PUBLISHED RESULTS THAT FAIL (%d, by table in the paper's order):" % len(fails)]
    for table in sorted(tables, key=paper_order):
        members = sorted(tables[table])
        lines.append("  %s -- %d fail" % (table, len(members)))
        lines += ["    FAIL %s: %s" % (c.id, c.reason) for _, c in members[:MAX_PER_TABLE]]
        if len(members) > MAX_PER_TABLE:
            lines.append("    ... and %d more in this table (all in the JSON report)" % (len(members) - MAX_PER_TABLE))
    return lines


def render_text(result, strict=False, quiet=False, announced=False):
    """The text summary (see module doc); ``announced``: the first line was already printed."""
    if quiet:           # the instrument line (with its SYNTHETIC warning), the fails and the result line only
        return "\n".join([instrument_line(result)] + _fail_lines(result) + [_result_line(result, strict)]) + "\n"
    lines = ([] if announced else [instrument_line(result)]) + ["root: %s" % os.path.abspath(result.root)]
    lines += headline_lines(result)
    groups = group_counts(result)
    expected = sum(1 for c in result.checks if c.status == "pass" and c.reason == EXPECTED_PAPER_FAIL)
    for level in LEVELS + ("published",):
        g = groups.get(level, {"pass": 0, "fail": 0, "skip": 0})
        lines.append("  %-13s %5d pass %5d fail %5d skip%s" % (level, g["pass"], g["fail"], g["skip"], (
            "   (%d of the passes: the paper's own inconsistencies, found again as frozen)" % expected)
            if level == "paper" and expected else ""))
    fails = _fail_lines(result)
    lines += ([""] + fails[:-1]) if fails else []
    lines += _skip_lines([c for c in result.checks if c.status == "skip"])
    audit = audit_section(result)
    if audit:
        lines += [""] + audit
    if result.paper is not None:
        lines += [""] + paper_section(result.paper, quiet)
    lines += [""] + headline_lines(result) + ["", _result_line(result, strict)]
    return "\n".join(lines) + "\n"


def _fail_lines(result):
    """This instrument's fails grouped by reason, then the published results' fails by table, each block
    followed by a blank line (none when nothing failed)."""
    own_fails = [c for c in result.checks if c.status == "fail" and c.group != "published"]
    lines = (["FAIL (%d):" % len(own_fails)] + _grouped(own_fails, "FAIL") + [""]) if own_fails else []
    published_fails = published_fail_lines(result)
    return lines + ((published_fails + [""]) if published_fails else [])


def _skip_lines(skips):
    """The skips grouped by reason, with the claims of levels not requested counted per level."""
    not_requested, shown = {}, []
    for c in skips:
        if c.reason.startswith("level ") and c.reason.endswith("not requested") and c.id != "level:rebuild":
            not_requested[c.group] = not_requested.get(c.group, 0) + 1
        else:
            shown.append(c)
    if not shown and not not_requested:
        return []
    lines = ["", "SKIP (%d):" % len(skips)] + _grouped(shown, "SKIP")
    for group in sorted(not_requested):
        lines.append("  SKIP %d %s claims: level %s not requested" % (not_requested[group], group, group))
    return lines


def _result_line(result, strict):
    counts = result.counts()
    strict_skips = len(requested_skips(result)) if strict else 0
    return "RESULT: %s -- %d pass, %d fail, %d skip%s" % (
        "FAIL" if counts["fail"] or strict_skips else "OK", counts["pass"], counts["fail"], counts["skip"],
        " (--strict: %d skips of requested levels count as fails)" % strict_skips if strict else "")


class ClaimValues(dict):
    """The recomputed claim values of a run by claim id, as the report sections read them.  A section that
    asks for an id no claim has (``get`` or ``[]``; ``in`` is a probe and not counted) shows "?" or skips a
    row; the id is remembered in ``missing``, so a test can fail when a claim the report names was renamed
    (tests/test_html_report.py)."""

    def __init__(self, checks):
        super().__init__((c.id, c.observed) for c in checks if c.observed is not None)
        self.missing = set()

    def get(self, key, default=None):
        if key not in self:
            self.missing.add(key)
        return dict.get(self, key, default)

    def __missing__(self, key):
        self.missing.add(key)
        raise KeyError(key)


def claim_values(result):
    """One :class:`ClaimValues` per run result (shared by the text and HTML sections)."""
    values = getattr(result, "claim_values", None)
    if values is None:
        values = result.claim_values = ClaimValues(result.checks)
    return values


# One line of the audit section: shown when every claim of ``needs`` is in the run and none of ``unless``; its
# ``text`` has one %s per claim of ``shown``, each value in its statistic's declared unit (nclue/core/measures.py).
AuditLine = namedtuple("AuditLine", "needs unless text shown")


def _audit_lines():
    """The audit section's lines as a table, one row per line and analysis (docs/label-audit.md): the agreement,
    policy and adjudication of the label audit, the expanded-page pool, SourceShift's challenge, the qrel
    genealogies and the audit's impact."""
    agreement, adjudication = AGREEMENT.bind(stage="initial"), AGREEMENT.bind(stage="adjudication")
    final, recall = GENEALOGY_COPY.on(CROSSPAGE.name).bind(copy="final"), POOL_SECTION.bind(section="recall")
    members = POOL_SECTION.bind(section="memberships")
    matrix = IMPACT_TABLE.bind(release=CROSSPAGE.name, copy="audit", table="matrix", score="gold_ndcg")
    decided, protocol_of = CHALLENGE_SECTION.bind(section="decisions"), CHALLENGE_SECTION.bind(section="protocol")
    s0, s = (GENEALOGY_COPY.on(SOURCESHIFT.name).bind(copy=copy) for copy in ("s0", "s"))
    fusion = IMPACT_OF.bind(release=SOURCESHIFT.name, subject="fusion_minus_bm25")
    copies = ("construction", "s0", "s")
    challenge = ("  residual-qrel challenge (SourceShift S0): %s targets + %s controls; %s streams, %s duplicate "
                 "collapsed; %s/%s conditions agree; tie-break %s conditions over %s pairs; ")
    challenge_ids = (CHALLENGE("targets"), CHALLENGE("controls"), protocol_of("streams"),
                     protocol_of("duplicate_streams_collapsed"), protocol_of("agreeing_conditions"),
                     protocol_of("conditions"), protocol_of("tiebreak_conditions"), protocol_of("tiebreak_pairs"))
    return (
        AuditLine((agreement("pairs"),), (), "  %s pairs / %s conditions; exact grade agreement %s/%s (%s%%, Wilson "
                  "[%s, %s]), linear kappa %s; condition agreement %s/%s (%s%%), binary kappa %s",
                  (agreement("pairs"), agreement("conditions"), agreement("grade_agree"), agreement("pairs"),
                   agreement("grade_agreement"), agreement("grade_agreement_wilson_low"),
                   agreement("grade_agreement_wilson_high"), agreement("grade_kappa_linear"),
                   agreement("condition_agree"), agreement("conditions"), agreement("condition_agreement"),
                   agreement("condition_kappa"))),
        AuditLine((agreement("pairs"),), (), "  policy: %s kept, %s consensus increases accepted, %s adjudicated (%s "
                  "queued conditions); %s grades changed (%s to gold, %s from gold); re-derived decisions differing "
                  "from decisions.jsonl: %s",
                  tuple(POLICY(name) for name in ("keep", "accept_increase", "adjudicated_pairs", "queued_conditions",
                                                  "changed", "to_gold", "from_gold", "decision_mismatches"))),
        AuditLine((agreement("pairs"),), (), "  adjudication: %s/%s unanimous, Fleiss kappa %s",
                  (adjudication("unanimous"), adjudication("conditions"), adjudication("fleiss_kappa"))),
        AuditLine((POOL("conditions"),), (), "  expanded-page pool: %s conditions of %s pairs, %s displayed pages "
                  "(%s-%s per condition, mean %s); memberships prior %s, construction %s, shown %s, lexical %s, BM25 "
                  "%s, OCR-fuzzy %s; held-out recall %s/%s by rank 6, %s/%s by rank 9; overrides %s",
                  (POOL("conditions"), POOL("pairs"), POOL("displayed_pages"), POOL("pages_min"), POOL("pages_max"),
                   POOL("pages_mean"), members("prior_selected"), members("construction"), members("original_shown"),
                   members("lexical"), members("bm25"), members("ocr_fuzzy"), recall("recovered_by_6"),
                   recall("conditions"), recall("recovered_by_9"), recall("conditions"),
                   POLICY_SECTION(section="condition_decisions", statistic="overrides"))),
        # the response streams do not collapse to two: the decisions cannot be re-derived
        AuditLine((CHALLENGE("targets"), decided("rederivable")), (), challenge + "decisions not re-derivable (the "
                  "response streams do not collapse to two)", challenge_ids),
        AuditLine((CHALLENGE("targets"),), (decided("rederivable"),), challenge + "%s target grades changed (%s to "
                  "gold), %s/%s control grades retained",
                  challenge_ids + (decided("targets_changed"), decided("targets_to_gold"),
                                   decided("controls_retained"), decided("controls"))),
        AuditLine((final("qrel_differences"),), (), "  CrossPage qrel genealogy: construction -> final re-derived "
                  "with %s differences (%s grades changed, %s zero-gold queries removed); %s final golds, %s made by "
                  "a repair, %s failing a page gate",
                  (final("qrel_differences"), final("grades_changed"), final("removed_queries"), final("golds"),
                   final("repaired_golds"), final("golds_failing_a_gate"))),
        AuditLine((s("qrel_differences"),), (), "  SourceShift qrel genealogy: construction -> S0 -> S re-derived "
                  "with %s / %s differences; %s / %s zero-gold queries removed",
                  (s0("qrel_differences"), s("qrel_differences"), s0("removed_queries"), s("removed_queries"))),
        AuditLine((matrix("spearman_rho"),), (), "  stratified audit on v1 (construction vs final copy, raw matrix): "
                  "rho %s, max |change| %s gold-only NDCG@10 (0-1), largest movement %s positions",
                  (matrix("spearman_rho"), matrix("max_abs_change"), matrix("max_position_movement"))),
        AuditLine((fusion(copy="s", statistic="gold_ndcg_gap"),), (),
                  "  SourceShift fusion - BM25-AND gold-only NDCG@10 gap (0-1): " + ", ".join(
                      "%s %%s (query-paired p %%s, family p %%s)" % copy for copy in copies),
                  tuple(fusion(copy=copy, statistic=statistic) for copy in copies
                        for statistic in ("gold_ndcg_gap", "query_paired_p", "family_p"))),
    )


def _shown(values, key):
    """A claim's value in its statistic's declared unit and precision, "?" when the run has none."""
    value = values.get(key)
    return "?" if value is None else display_of(statistic_of(key)).show(value)


def audit_section(result):
    """A readable summary of the label audit and its impact, from the recomputed claim values: the lines of
    :func:`_audit_lines` whose claims the run has, under a heading (none when the audit did not run)."""
    values = claim_values(result)
    lines = _audit_lines()
    if lines[0].needs[0] not in values:         # the label audit's agreement: the section's own claims
        return []
    lines = [line for line in lines
             if all(key in values for key in line.needs) and not any(key in values for key in line.unless)]
    return ["LABEL AUDIT (the stand-in's simulated audit, data/audit; synthetic responses, not people):"] + [
        line.text % tuple(_shown(values, key) for key in line.shown) for line in lines]


def paper_section(audit, quiet=False):
    """The readable summary of the paper audit: coverage, findings, boundary cases, recovered counts."""
    rc, nc = audit.counts("relations"), audit.counts("numbers")
    involved = sum(1 for r in audit.numbers.values() if r["relations"])
    determined = sum(1 for r in audit.numbers.values() if r["determined"])
    boundary = [r for r in audit.relations if r["boundary"]]
    out = ["PAPER AUDIT (the published paper itself, reference_metrics/paper/numbers.json; not the stand-in):",
           "  %d numbers transcribed; %d take part in at least one relation, %d are pinned by an identity" % (
               len(audit.numbers), involved, determined),
           "  relations: %d consistent (%d only at a rounding boundary), %d inconsistent, %d undeterminable" % (
               rc["pass"], len(boundary), rc["fail"], rc["skip"]),
           "  numbers:   %d consistent, %d inconsistent, %d not determinable from published numbers (need the original data)" % (
               nc["pass"], nc["fail"], nc["skip"])]
    for r in audit.relations:
        if r["status"] == "fail":
            out.append("  INCONSISTENT %s: %s -- %s" % (r["id"], r["description"], r["detail"]))
    for r in boundary:
        out.append("  BOUNDARY %s: %s -- %s" % (r["id"], r["description"], r["detail"]))
    if not quiet:
        rows = [r for r in audit.relations if r["counts"] and (r["id"].startswith("T4.") and r["id"].endswith(".sum")
                                                               or r["id"].endswith("n_recombine"))]
        if rows:
            out.append("  recovered integer counts (all of them are in the JSON report):")
            for r in rows:
                out.append("    %s: %s" % (r["id"], ", ".join("%s=%d" % kv for kv in sorted(r["counts"].items()))))
    return out


def report_json(result, strict=False):
    m = result.integrity.manifest or {}
    counts = result.counts()
    return dumps_pretty({
        "report_schema": REPORT_SCHEMA,
        "harness_version": __version__,
        "instrument": {"name": m.get("instrument"), "synthetic": m.get("synthetic"),
                       "generator": m.get("generator")},
        "levels_requested": [lv for lv in LEVELS if lv in result.levels],
        "strict": strict,
        "summary": counts,
        "headline": headline(result),
        "groups": group_counts(result),
        "exit_code": exit_code(result, strict),
        "checks": [c.as_json() for c in sorted(result.checks, key=lambda c: (c.group, c.id))],
        "inputs_sha256": result.inputs(),
        "paper_audit": None if result.paper is None else {
            "relations": result.paper.relations,
            "numbers": result.paper.numbers,
        },
        "published_results": getattr(result, "published", None),
    })


def requested_skips(result):
    """Skips of the levels that were requested (``published`` belongs to the paper level): what
    ``--strict`` counts as failures."""
    levels = set(result.levels) | {"integrity"} | ({"published"} if "paper" in result.levels else set())
    return [c for c in result.checks if c.status == "skip" and c.group in levels]


def exit_code(result, strict=False):
    counts = result.counts()
    return 1 if counts["fail"] or (strict and requested_skips(result)) else 0


def _git(args, cwd):
    try:
        out = subprocess.run(["git"] + args, cwd=cwd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def _seeds(manifest):
    return {"instrument_seed": (manifest.get("generator") or {}).get("seed"), "inference_seed": protocol.STATISTICS_SEED,
            "shift_seed": (manifest.get("generator") or {}).get("shift_seed"),
            "streams": [protocol.pattern(r) for r in (protocol.BOOTSTRAP, protocol.RANDOMIZATION, protocol.CROSSED,
                                                      protocol.SOURCESHIFT)],
            "bootstrap_draws": protocol.BOOTSTRAP.n_draws, "randomization_draws": protocol.RANDOMIZATION.n_draws,
            "crossed_draws": protocol.CROSSED.n_draws,
            "generator": "random.Random(seed).getrandbits with nclue.core.rng's own randbelow (see nclue/core/rng.py)"}


def provenance(result, argv):
    here = CHECKOUT
    # only a checkout has a revision of its own (an installed package lies in site-packages)
    rev = _git(["rev-parse", "HEAD"], here) if os.path.exists(os.path.join(here, ".git")) else None
    dirty = None
    if rev is not None:
        status = _git(["status", "--porcelain"], here)
        dirty = bool(status) if status is not None else None
    m = result.integrity.manifest or {}
    return {
        "provenance_schema": "nclue.provenance/1",
        "harness_version": __version__,
        "git_revision": rev,
        "git_dirty": dirty,
        "python_implementation": platform.python_implementation(),
        "python_version": platform.python_version(),
        "platform": platform.platform(),
        "argv": list(argv),
        "data_root": os.path.abspath(result.root),
        "instrument": m.get("instrument"),
        "synthetic": m.get("synthetic"),
        "seeds": _seeds(m),
        "inputs_sha256": result.inputs(),
        "summary": result.counts(),
    }


def write_provenance(path, result, argv, guard=None):
    write_text(path, dumps_pretty(provenance(result, argv)), "the provenance record", guard)
