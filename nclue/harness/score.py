"""Scoring new runs the way the harness scores the paper's (docs/usage.md#scoring-a-new-retriever).

A run is a released-style JSONL ranking or a TREC run (``qid Q0 docno rank score tag``), told apart
by content (a first non-blank character ``{`` is JSONL), gzip-compressed or not.  TREC runs are
ordered as trec_eval orders them (score descending, ties by docno descending) unless
``ties="file"``.  For each run:

* every measure of :data:`nclue.core.measures.SCORE_COMMAND_MEASURES` with its unit, and the 95%
  family-clustered percentile bootstrap interval (``bootstrap.DRAWS`` draws over exact-gold-set
  families; on v1's final qrels exactly the draws of ``v1.inference``, so a shipped ranking scored
  here gets its frozen interval);
* paired comparisons, run minus each reference (default: every system of the release's
  systems.json; v2: its raw-form runs) and minus every other run given: Delta n-Clue Score in
  points with its paired bootstrap interval on the same draws, the two-sided paired randomization
  p (``randomization.DRAWS`` whole-family sign flips, p = (1 + c)/(B + 1); on v1's final qrels the
  masks of ``v1.inference``), single-step max-|T| over the run's comparisons and Holm over the same
  -- one code path with the harness's contrasts (:mod:`nclue.stats`).

Nothing is written anywhere; :func:`score` is the Python API, :func:`render` the text and table
formats.
"""

import gzip
import os
import tempfile

from ..analyses.common import gold_sets, ideals, outcomes
from ..analyses.inference import SEED, context
from ..core import integrity, layout
from ..core.errors import InputError, UsageError, VerificationError
from ..core.instrument import Instrument
from ..core.jsonio import dumps_pretty
from ..core.loaders import load_ranking
from ..core.measures import DEPTH, SCORE_COMMAND_MEASURES
from ..core.metrics import evaluate, summary
from ..core.rng import Stream
from ..core.structure import families
from ..core.trec import read_trec_run
from ..stats import bootstrap, randomization
from .locate import data_root
from .runner import check_root

ORDER_TEXT = {"trec": "trec_eval order (score desc, docno desc)", "file": "file order"}
FORMATS = ("text", "json", "tsv", "markdown", "latex")
PER_QUERY = (("nclue_score_at_10", "success"), ("gold_hit_at_10", "hit"), ("gold_ndcg_at_10", "gold_ndcg"),
             ("graded_ndcg_at_10", "graded_ndcg"), ("pairwise_auc", "auc"))
# measure name -> (per-query vector, scale of a draw's mean in the measure's unit)
INTERVAL_VECTORS = {"nclue_score_at_10": "success", "gold_hit_at_10": "hit", "complete_first": "success",
                    "subset_first": "subset", "no_gold": "no_gold", "gold_ndcg_at_10": "gold_ndcg",
                    "graded_ndcg_at_10": "graded_ndcg"}


def _decompressed(path):
    """The path of a readable copy of ``path`` (gzip files are expanded into a private temporary folder)."""
    with open(path, "rb") as fh:
        head = fh.read(2)
    if head != b"\x1f\x8b":
        return path, None
    tmp = tempfile.mkdtemp(prefix="nclue-run-")
    name = os.path.basename(path)[:-3] if path.endswith(".gz") else os.path.basename(path) + ".run"
    out = os.path.join(tmp, name)
    try:
        with gzip.open(path, "rb") as src, open(out, "wb") as dst:
            while True:
                block = src.read(1 << 20)
                if not block:
                    break
                dst.write(block)
    except (OSError, EOFError) as exc:
        raise InputError(path, "not a readable gzip file (%s)" % exc)
    return out, tmp


def detect_format(path):
    """``jsonl`` when the first non-blank character is ``{``, else ``trec``."""
    with open(path, "rb") as fh:
        while True:
            block = fh.read(4096)
            if not block:
                return "trec"
            stripped = block.lstrip()
            if stripped:
                return "jsonl" if stripped[:1] == b"{" else "trec"


def read_run(path, queries, corpus, fmt="auto", ties="trec"):
    """``(ranking, order description)`` of a run file in either format (gzip accepted)."""
    if os.path.isdir(path):
        raise InputError(path, "is a directory, not a run file")
    if not os.path.exists(path):
        raise InputError(path, "file is absent")
    readable, tmp = _decompressed(path)
    try:
        if fmt == "auto":
            fmt = detect_format(readable)
        if fmt == "jsonl":
            directory, name = os.path.split(os.path.abspath(readable))
            ranking = load_ranking(directory, name, queries, corpus)
            return ranking, "file order (JSONL rule)"
        return read_trec_run(readable, path, queries, corpus, ties=ties), ORDER_TEXT[ties]
    finally:
        if tmp is not None:
            os.remove(readable)
            os.rmdir(tmp)


def verify_inputs(inst, rels, verify=True, warn=None):
    """Refuse (VerificationError, exit 1) to score against release files MANIFEST.json does not vouch for;
    with ``verify=False`` only warn."""
    problems = integrity.verify_files(inst.root, rels)
    if not problems:
        return
    if verify:
        raise VerificationError("refusing to score against an unverified release: %s (use --no-verify to score "
                                "anyway)" % "; ".join(p for _, p in problems[:3]))
    if warn is not None:
        for _, problem in problems:
            warn("warning: %s (scoring anyway: --no-verify)\n" % problem)


class Design:
    """Queries, families, bootstrap draws and sign-flip masks of one release and qrel copy."""

    def __init__(self, inst, rel, shared):
        self.qrels_rel = rel
        if shared:                 # v1's final qrels: exactly the harness's inference draws and masks
            ctx = context(inst)
            self.qids, self.design, self.fams = ctx.qids, ctx.design, ctx.fams
            self.draws, self.masks = ctx.draws, ctx.masks
            self.streams = ('derive(%d, "bootstrap")' % SEED, 'derive(%d, "randomization")' % SEED)
        else:
            labels = (inst.base, rel)
            self.qids = sorted(inst.evaluation_queries(rel))
            self.fams = families(gold_sets(inst, rel))
            self.design = bootstrap.FamilyDesign(self.qids, self.fams)
            self.draws = bootstrap.draw_indices(Stream.derived(SEED, "score", *labels, "bootstrap"),
                                                self.design.n_families, bootstrap.DRAWS)
            self.masks = randomization.draw_masks(Stream.derived(SEED, "score", *labels, "randomization"),
                                                  self.design.n_families, randomization.DRAWS)
            self.streams = ('derive(%d, "score", "%s", "%s", "bootstrap")' % ((SEED,) + labels),
                            'derive(%d, "score", "%s", "%s", "randomization")' % ((SEED,) + labels))
        self.denominators = bootstrap.draw_denominators(self.design, self.draws)


def _vectors(out):
    """Per-query integer vectors for the bootstrap (fixed point for the NDCGs)."""
    success, hit = list(out.success), list(out.hit)
    return {"success": success, "hit": hit, "subset": [h - s for h, s in zip(hit, success)],
            "no_gold": [1 - h for h in hit], "gold_ndcg": randomization.to_integer_units(out.gold_ndcg),
            "graded_ndcg": randomization.to_integer_units(out.graded_ndcg)}


def _scale(name):
    if name == "gold_ndcg_at_10":
        return 100.0 / randomization.FIXED_POINT
    if name == "graded_ndcg_at_10":
        return 1.0 / randomization.FIXED_POINT
    return 100.0


def intervals(design, out):
    """``{measure name: (low, high)}``: 95% family-clustered percentile intervals (pairwise AUC has
    its own denominator, the queries with a gold and a subset)."""
    vectors = _vectors(out)
    names = sorted(INTERVAL_VECTORS)
    sums = bootstrap.draw_sums(design.design, [vectors[INTERVAL_VECTORS[n]] for n in names], design.draws)
    result = {}
    for name, column in zip(names, sums):
        scale = _scale(name)
        result[name] = bootstrap.percentile_interval([scale * s / n for s, n in zip(column, design.denominators)])
    auc = randomization.to_integer_units([a if a is not None else 0 for a in out.auc])
    has = [0 if a is None else 1 for a in out.auc]
    num, den = bootstrap.draw_sums(design.design, [auc, has], design.draws)
    dist = [x / randomization.FIXED_POINT / d for x, d in zip(num, den) if d]
    result["pairwise_auc"] = bootstrap.percentile_interval(dist) if len(dist) == len(num) else (None, None)
    return result


def comparisons(design, run_out, references):
    """Run minus each reference on n-Clue Score: ``[{against, delta_score, ci_low, ci_high, p, p_max_t, p_holm}]``."""
    if not references:
        return []
    names = [name for name, _ in references]
    diffs, deltas = [], []
    for _, ref in references:
        diffs.append(randomization.family_differences(design.design, ref.success, run_out.success))
        deltas.append([v - b for v, b in zip(run_out.success, ref.success)])
    tests = randomization.sign_flip_tests(diffs, design.masks)
    p_max = randomization.max_t_p_values(tests)
    p_raw = [t.p_value() for t in tests]
    p_holm = randomization.holm(p_raw)
    sums = bootstrap.draw_sums(design.design, deltas, design.draws)
    n = len(design.qids)
    out = []
    for name, delta, column, p, pm, ph in zip(names, deltas, sums, p_raw, p_max, p_holm):
        lo, hi = bootstrap.percentile_interval([100.0 * s / d for s, d in zip(column, design.denominators)])
        out.append({"against": name, "delta_score": 100.0 * sum(delta) / n, "ci_low": lo, "ci_high": hi,
                    "p": p, "p_max_t": pm, "p_holm": ph})
    return out


def _reference_runs(inst, release):
    systems, _ = inst.systems()
    if release == "v2":
        return [(sid, layout.ranking_path(sid, "raw", layout.V2)) for sid in sorted(systems)
                if inst.exists(layout.ranking_path(sid, "raw", layout.V2))]
    return [(sid, layout.ranking_path(sid)) for sid in sorted(systems)]


def score(runs, root=None, release="v1", qrels="final", against=None, run_format="auto", ties="trec",
          verify=True, warn=None, per_query=False):
    """Score ``runs`` (paths) on an instrument; returns a JSON-ready dict (see module doc).

    ``against``: reference system ids (None: every system of the release; ``[]``: none).

    >>> import os
    >>> from nclue.api import score
    >>> from nclue.harness.locate import CHECKOUT
    >>> result = score([os.path.join(CHECKOUT, "data/v1/rankings/bm25_and.jsonl")], against=["bm25_or"])
    >>> run = result["runs"][0]
    >>> run["measures"]["nclue_score_at_10"]["unit"], run["comparisons"][0]["against"]
    ('points', 'bm25_or')
    """
    root = data_root(root)
    check_root(root)
    inst = Instrument(root)
    if release == "v2":
        inst = inst.v2()
    rel = inst.copy_path(qrels)
    refs_all = _reference_runs(inst, release)
    wanted = [sid for sid, _ in refs_all] if against is None else list(against)
    known = dict(refs_all)
    unknown = [sid for sid in wanted if sid not in known]
    if unknown:
        raise UsageError("--against: unknown system %r (systems: %s)" % (unknown[0], ", ".join(sorted(known))))
    needed = [inst.CORPUS, inst.QUERIES] + inst.copy_inputs(rel) + [
        inst.SYSTEMS] + [known[sid] for sid in wanted] + ([inst.CONDITIONS] if inst.exists(inst.CONDITIONS) else [])
    verify_inputs(inst, needed, verify, warn)
    queries, corpus, qrel_rows = inst.evaluation_queries(rel), inst.corpus(), inst.qrels(rel)
    design = Design(inst, rel, shared=(release == "v1" and rel == inst.QRELS))
    sets = gold_sets(inst, rel)
    scored = []
    for path in runs:
        ranking, order = read_run(path, inst.queries(), corpus, run_format, ties)
        out = evaluate(ranking, queries, qrel_rows, sets, ideals=ideals(inst, rel))
        scored.append((path, ranking, order, out))
    result = {"instrument": {"root": os.path.abspath(root), "release": inst.base, "qrels": rel,
                             "queries": len(queries), "synthetic": _synthetic(inst)},
              "depth": DEPTH, "depth_note": "every measure is defined at depth %d; documents below it are ignored"
                                            % DEPTH,
              "bootstrap": {"draws": bootstrap.DRAWS, "families": design.design.n_families, "level": 0.95,
                            "interval": "percentile (type-7 quantiles)", "stream": design.streams[0]},
              "randomization": {"draws": randomization.DRAWS, "statistic": "Delta n-Clue successes, run minus "
                                "reference, summed per exact-gold-set family", "p": "(1 + c) / (B + 1), two-sided",
                                "stream": design.streams[1], "max_t": "single-step over the run's comparisons",
                                "holm": "over the same comparisons"},
              "runs": []}
    for i, (path, ranking, order, out) in enumerate(scored):
        s = summary(out)
        ivs = intervals(design, out)
        measures = {m.name: {"value": s[m.key], "unit": m.unit, "label": m.label,
                             "ci_low": ivs.get(m.name, (None, None))[0], "ci_high": ivs.get(m.name, (None, None))[1]}
                    for m in SCORE_COMMAND_MEASURES}
        refs = [(sid, outcomes(inst, known[sid], rel)) for sid in wanted]
        refs += [("run:" + os.path.basename(p), o) for j, (p, _, _, o) in enumerate(scored) if j != i]
        entry = {"run": path, "order": order, "ranked_queries": sum(1 for q in queries if q in ranking),
                 "successes": s["success_count"], "measures": measures,
                 "comparisons": comparisons(design, out, refs)}
        if per_query:
            entry["per_query"] = [{"qid": q, "measure": name, "value": getattr(out, field)[k]}
                                  for k, q in enumerate(out.qids) for name, field in PER_QUERY]
        result["runs"].append(entry)
    return result


def _synthetic(inst):
    try:
        manifest = integrity.load_manifest(inst.root)
    except Exception:            # noqa: BLE001 -- an unusable manifest was already reported by verification
        return None
    return manifest.get("synthetic")


def _num(value, digits=4):
    return "n/a" if value is None else ("%d" % value if isinstance(value, int) and not isinstance(value, bool)
                                        else "%.*f" % (digits, value))


def _rows(result):
    """Table rows for tsv / markdown / latex: (run, what, value, ci_low, ci_high, unit, p, p_max_t, p_holm)."""
    rows = []
    for run in result["runs"]:
        name = run["run"]
        for m in SCORE_COMMAND_MEASURES:
            v = run["measures"][m.name]
            rows.append((name, v["label"], _num(v["value"]), _num(v["ci_low"]), _num(v["ci_high"]), v["unit"],
                         "", "", ""))
        for c in run["comparisons"]:
            rows.append((name, "Delta n-Clue Score@10 vs %s" % c["against"], _num(c["delta_score"]),
                         _num(c["ci_low"]), _num(c["ci_high"]), "points", _num(c["p"]), _num(c["p_max_t"]),
                         _num(c["p_holm"])))
    return rows


HEADER = ("run", "measure", "value", "ci_low", "ci_high", "unit", "p", "p_max_t", "p_holm")


def render(result, fmt="text"):
    """The result as text (default), json, tsv, markdown or latex."""
    if fmt == "json":
        return dumps_pretty(result)
    if fmt == "tsv":
        lines = ["\t".join(HEADER)] + ["\t".join(r) for r in _rows(result)]
        for run in result["runs"]:
            for row in run.get("per_query", ()):
                lines.append("\t".join((run["run"], "%s %s" % (row["measure"], row["qid"]), _num(row["value"]),
                                        "", "", "", "", "", "")))
        return "\n".join(lines) + "\n"
    if fmt == "markdown":
        lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in _rows(result)]
        return "\n".join(lines) + "\n"
    if fmt == "latex":
        def esc(text):
            return text.replace("\\", "\\textbackslash{}").replace("_", "\\_").replace("%", "\\%").replace(
                "&", "\\&").replace("#", "\\#")
        lines = ["\\begin{tabular}{lllllllll}", "\\hline", " & ".join(esc(h) for h in HEADER) + " \\\\", "\\hline"]
        lines += [" & ".join(esc(c) for c in r) + " \\\\" for r in _rows(result)]
        lines += ["\\hline", "\\end{tabular}"]
        return "\n".join(lines) + "\n"
    info, bs, rnd = result["instrument"], result["bootstrap"], result["randomization"]
    lines = ["nclue score: %s, %s (%d evaluation queries)%s; %s" % (
        info["release"], info["qrels"], info["queries"],
        "; SYNTHETIC stand-in" if info["synthetic"] else "", result["depth_note"]),
        "intervals: 95%% family-clustered percentile bootstrap, %d draws over %d exact-gold-set families, %s" % (
            bs["draws"], bs["families"], bs["stream"]),
        "paired tests: n-Clue Score@10, run minus reference; %d whole-family sign flips, %s; p = (1 + c)/(B + 1); "
        "max-|T| and Holm over each run's comparisons" % (rnd["draws"], rnd["stream"])]
    for run in result["runs"]:
        lines.append("")
        lines.append("run %s (%s; %d of %d queries ranked, absent queries score as empty lists)" % (
            run["run"], run["order"], run["ranked_queries"], info["queries"]))
        for m in SCORE_COMMAND_MEASURES:
            v = run["measures"][m.name]
            ci = "" if v["ci_low"] is None else "  [%s, %s]" % (_num(v["ci_low"]), _num(v["ci_high"]))
            lines.append("  %-18s %10s %-11s%s" % (m.label, _num(v["value"]), v["unit"], ci))
        lines.append("  %-18s %10d queries" % ("n-Clue successes", run["successes"]))
        if run["comparisons"]:
            lines.append("  %-34s %10s %-20s %8s %8s %8s" % ("Delta n-Clue Score@10 (points) vs", "delta", "95% CI",
                                                             "p", "p_maxT", "p_Holm"))
            for c in run["comparisons"]:
                lines.append("  %-34s %+10.2f [%7.2f, %7.2f]  %8.4f %8.4f %8.4f" % (
                    c["against"], c["delta_score"], c["ci_low"], c["ci_high"], c["p"], c["p_max_t"], c["p_holm"]))
        for row in run.get("per_query", ()):
            lines.append("  %-18s %-14s %s" % (row["measure"], row["qid"], _num(row["value"])))
    return "\n".join(lines) + "\n"
