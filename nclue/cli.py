"""Command line: ``nclue {reproduce,score,build,freeze,export-pages,export-qrels}`` (docs/usage.md).

Exit codes (docs/claims.md#exit-codes): 0 = no fail; 1 = at least one fail
(or, with ``--strict``, a skip); 2 = the harness could not run (bad
arguments, no data root).  Errors are messages, never tracebacks.
"""

import argparse
import os
import sys
import textwrap

from . import __version__
from .analyses.base import LEVELS
from .commands.outputs import STDERR, STDOUT
from .core import layout
from .core.errors import EmptyRun, NclueError, UsageError, VerificationError, bounded
from .stats.protocol import MAX_DRAWS_MULTIPLIER

QREL_COPY_NAMES = layout.COPY_NAMES
QREL_COPY_HELP = ("the qrel copy by its genealogy name: v1 construction (qrels_construction.jsonl, from the "
                  "inventory) or final (qrels.jsonl, after the label audit's repairs); v2 construction, s0 "
                  "(qrels_s0.jsonl, after the stratified audit) or s (qrels.jsonl, after the challenge); default: "
                  "the release's last copy (v1 final, v2 s), on which the paper computes its tables")

COMMAND_HELP = {
    "reproduce": "verify an instrument: integrity, derivation, scoring, inference, sensitivity, paper audit",
    "score": "score runs (TREC or JSONL) against an instrument's qrels; prints the result (--html also writes a page)",
    "compare": "compare two or more runs side by side with paired family-clustered tests (text, markdown, LaTeX, JSON)",
    "reproduce-run": "check a re-run of one of the paper's roles against the released ranking and the paper's row",
    "build": "build the synthetic stand-in instrument from its seeds (builder only)",
    "freeze": "write reference_metrics/*.json, MANIFEST.json and SHA256SUMS (builder only)",
    "export-pages": "write the stand-in's page text for external retrievers",
    "export-qrels": "write TREC qrels (graded, gold-only, subset-only) and topics for external tools",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        # argparse quotes the offending value whole; a message shows at most a few hundred characters
        sys.stderr.write("%s: error: %s\n" % (self.prog, bounded(message, 300)))
        raise SystemExit(2)


def _levels(text):
    if text is None:
        return tuple(lv for lv in LEVELS if lv != "rebuild")
    wanted = [t.strip() for t in text.split(",") if t.strip()]
    unknown = [t for t in wanted if t not in LEVELS]
    if unknown or not wanted:
        raise UsageError("--only takes a comma-separated list of %s; got %s" % (", ".join(LEVELS), _echo(text)))
    return tuple(lv for lv in LEVELS if lv in wanted or lv == "integrity")


def _release_option(p, notes=None):
    """``--release NAME``: one of :data:`layout.RELEASE_NAMED` (default v1), described by its directory and title
    (``notes``: a fuller description per release directory)."""
    notes = notes or {}
    described = ["%s (%s%s)" % (r.base, notes.get(r.base, r.title), "; default" if r.name == "v1" else "")
                 for r in layout.RELEASES.values()]
    p.add_argument("--release", choices=layout.RELEASE_NAMES, default="v1",
                   help=" or ".join(described))


def _data_option(p):
    p.add_argument("--data", metavar="DIR", default=None,
                   help="instrument root (default: $NCLUE_DATA, else the current folder if it holds a release, "
                        "else the checkout the package runs from)")


REPRODUCE_EPILOG = """levels (--only): %s; rebuild only with --deep.
output: the instrument line at once, progress on stderr (one line per claim file as it finishes),
then the summary: HEADLINE, a COUNTS line showing how every count adds up, fails and skips with
reasons, and the RESULT line.  Nothing is written into the release; --json, --provenance, --html
and --junit name files outside it (docs/usage.md#outputs).
exit codes: 0 no check failed (with --strict: and no requested level skipped); 1 at least one
check failed (or, with --strict, a requested level skipped); 2 the harness could not run (bad
arguments, no data root, an output it refuses)."""


def reproduce_parser(prog="reproduce.py"):
    p = _Parser(prog=prog, description="Verify an n-Clue instrument: integrity, derivation, scoring, "
                                       "inference, sensitivity, paper audit; one pass/fail/skip per claim.",
                epilog=REPRODUCE_EPILOG % ",".join(LEVELS), formatter_class=argparse.RawDescriptionHelpFormatter)
    _data_option(p)
    p.add_argument("--only", metavar="LEVEL[,LEVEL]", help="levels to run: " + ", ".join(LEVELS))
    p.add_argument("--json", metavar="FILE", help="write the deterministic JSON report here")
    p.add_argument("--provenance", metavar="FILE", help="write the provenance record here "
                                                        "(default with --json: FILE.provenance.json)")
    p.add_argument("--html", metavar="FILE", help="write the self-contained HTML report here (figures, tables; "
                                                  "no network)")
    p.add_argument("--junit", metavar="FILE", help="write a JUnit XML report here (one test case per check)")
    p.add_argument("--strict", action="store_true", help="count the skips of the requested levels as fails")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="worker processes for the claim files (default: the idle cores, the available ones minus the "
                        "one-minute load average, at least 1; 1: in this process); "
                        "the reports are byte-identical for any N")
    p.add_argument("--deep", action="store_true", help="also run the rebuild level (regenerate the stand-in)")
    p.add_argument("--draws-multiplier", type=int, default=1, metavar="K",
                   help="recompute the published Monte Carlo numbers with K times their draws (1..%d; default 1), so "
                        "that this run's Monte Carlo error shrinks by sqrt(K); the instrument's own claims keep their "
                        "frozen draws; no effect on a synthetic stand-in" % MAX_DRAWS_MULTIPLIER)
    p.add_argument("--quiet", action="store_true", help="print the instrument line, the fails and the result line "
                                                        "only (no progress)")
    p.add_argument("--version", action="version", version="nclue %s" % __version__)
    return p


MAX_JOBS_PER_CORE = 4


def check_jobs(jobs):
    """``--jobs``: at least 1, at most four per available core (more forks nothing but memory)."""
    from .run.runner import available_cores
    limit = MAX_JOBS_PER_CORE * available_cores()
    if jobs < 1 or jobs > limit:
        raise UsageError("--jobs must be between 1 and %d (four per available core), got %s" % (
            limit, _echo(str(jobs))))
    return jobs


def _echo(text, limit=80):
    """An argument value as a message shows it: at most ``limit`` characters."""
    return bounded(repr(text), limit)


def progress_line(message):
    """One progress line on stderr (never on stdout, never in a report)."""
    STDERR.write(message + "\n")


def cmd_reproduce(argv, prog="reproduce.py"):
    from .commands.outputs import ReleaseGuard, check_distinct, check_output_file, write_text
    from .reports.report import exit_code, manifest_line, render_text, report_json, write_provenance
    from .run.locate import data_root
    from .run.runner import check_root, default_jobs, run

    args = reproduce_parser(prog).parse_args(argv)
    root = data_root(args.data)
    check_root(root)
    levels = _levels(args.only)
    if "rebuild" in levels and not args.deep:
        raise UsageError("--only rebuild regenerates every release (minutes): it runs only with --deep "
                         "(python reproduce.py --deep --only rebuild)")
    if args.deep and "rebuild" not in levels:
        levels = levels + ("rebuild",)
    prov = args.provenance if args.provenance is not None else (
        args.json + ".provenance.json" if args.json else None)
    outputs = [(args.json, "the JSON report"), (prov, "the provenance record"), (args.html, "the HTML report"),
               (args.junit, "the JUnit report")]
    for target, what in outputs:
        if target is not None:
            check_output_file(target, root, what)
    check_distinct(outputs)
    guard = ReleaseGuard(root) if any(target is not None for target, _ in outputs) else None
    jobs = check_jobs(default_jobs() if args.jobs is None else args.jobs)
    if not 1 <= args.draws_multiplier <= MAX_DRAWS_MULTIPLIER:
        raise UsageError("--draws-multiplier must be between 1 and %d, got %s" % (
            MAX_DRAWS_MULTIPLIER, _echo(str(args.draws_multiplier))))
    announce = None
    if not args.quiet:
        def announce(manifest):          # the first line at once, before the files are hashed
            STDOUT.write(manifest_line(manifest) + "\n")
    result = run(root, levels=levels, deep="rebuild" in levels, log=None if args.quiet else progress_line, jobs=jobs,
                 announce=announce, draws_multiplier=args.draws_multiplier)
    STDOUT.write(render_text(result, strict=args.strict, quiet=args.quiet, announced=announce is not None))
    if args.json is not None:
        write_text(args.json, report_json(result, strict=args.strict), "the JSON report", guard)
    if args.html is not None:
        from .reports.html_report import render_html
        write_text(args.html, render_html(result, strict=args.strict), "the HTML report", guard)
    if args.junit is not None:
        from .reports.junit import render_junit
        write_text(args.junit, render_junit(result, strict=args.strict), "the JUnit report", guard)
    if prov is not None:
        write_provenance(prov, result, [prog] + list(argv), guard)
    return exit_code(result, strict=args.strict)


def _clean_outputs(out):
    import shutil

    for release in (layout.V1, layout.V2, layout.AUDIT):
        shutil.rmtree(layout.abspath(out, release), ignore_errors=True)
    ref = layout.abspath(out, layout.CLAIMS_DIR)
    if os.path.isdir(ref):
        for name in os.listdir(ref):
            if name.endswith(".json"):
                os.remove(os.path.join(ref, name))


ALL_RELEASES = "all"            # export-pages --release all
# what ``nclue build`` writes: the synthetic stand-in from its seeds, or RealPage from its packages
STAND_IN, REALPAGE_TARGET = "stand-in", "realpage"
BUILD_TARGETS = {STAND_IN: (layout.CROSSPAGE, layout.SOURCESHIFT), REALPAGE_TARGET: (layout.REALPAGE,)}

BUILD_EPILOG = """configurations (docs/stand-in.md): full is the shipped stand-in at the paper's scale (minutes);
mini has tens of documents (for tests); full_x2 and full_x4 double and quadruple the queries (for the
scaling benchmark).  The build is deterministic: the same seeds give the same bytes on every
interpreter, and `python reproduce.py --deep` checks that.  Unless --no-freeze, the frozen claims,
MANIFEST.json and SHA256SUMS are written too.
exit codes: 0 built; 2 bad arguments."""


def build_parser(prog):
    from .builder.config import CONFIGS, DEFAULT_SEED
    from .builder.sourceshift_instrument import SHIFT_SEED

    p = _Parser(prog=prog, description="Build the synthetic stand-in instrument from its seeds (builder only).",
                epilog=BUILD_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", choices=sorted(CONFIGS), default="full",
                   help="which stand-in to build: %s (default full)" % ", ".join(sorted(CONFIGS)))
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of data/v1 (default %d)" % DEFAULT_SEED)
    p.add_argument("--shift-seed", type=int, default=SHIFT_SEED,
                   help="seed of data/v2 and the simulated audit (default %d)" % SHIFT_SEED)
    p.add_argument("--out", default=None, metavar="DIR",
                   help="instrument root to write (default: the clone this nclue runs from; an installed package "
                        "needs --out)")
    p.add_argument("--no-freeze", action="store_true", help="write data only (no claims, no manifest)")
    p.add_argument("--export-pages", metavar="DIR",
                   help="with --target stand-in: also write the page text to DIR/pages.jsonl (RealPage's page text: "
                        "nclue export-pages --release v3 --packages DIR)")
    p.add_argument("--target", choices=tuple(BUILD_TARGETS), default=STAND_IN,
                   help="%s: data/v1, data/v2 and data/audit from the seeds (default); %s: RealPage (data/v3) from "
                        "the pinned doc-rfc packages (docs/realpage.md), leaving the stand-in as it is" % (
                            STAND_IN, REALPAGE_TARGET))
    p.add_argument("--packages", metavar="DIR",
                   help="with --target %s: the folder holding the eight pinned doc-rfc .deb files" % REALPAGE_TARGET)
    p.add_argument("--fetch", action="store_true",
                   help="with --target %s: download the packages --packages lacks through a private apt "
                        "configuration, then check them against their pinned SHA-256" % REALPAGE_TARGET)
    p.add_argument("--realpage-seed", type=int, default=None, metavar="SEED",
                   help="with --target %s: the sample's and the draws' seed (default 20230121)" % REALPAGE_TARGET)
    p.add_argument("--neural-runs", metavar="RUNS", default=None,
                   help="with --target %s: ship the dense runs python -m nclue.builder.neural.runs wrote in RUNS "
                        "(checked against their neural.json; docs/realpage.md#neural)" % REALPAGE_TARGET)
    # --release names a release to score, export or re-run; the build's target is --target (refused with a hint)
    p.add_argument("--release", default=None, help=argparse.SUPPRESS)
    return p


def _build_v3(args):
    """``--target realpage``: data/v3 from the pinned packages (the stand-in's files are left as they are)."""
    from .builder.realpage import packages, v3_writer
    from .builder.realpage import settings as realpage_settings

    if not args.packages:
        raise UsageError("--target %s needs --packages DIR (the folder of the pinned doc-rfc .deb files)" %
                         REALPAGE_TARGET)
    seed = realpage_settings.SEED if args.realpage_seed is None else args.realpage_seed
    if seed < 0:
        raise UsageError("--realpage-seed must be non-negative")
    if args.fetch:
        os.makedirs(args.packages, exist_ok=True)
        fetched = packages.fetch(args.packages)
        STDOUT.write("fetched %d packages into %s\n" % (len(fetched), args.packages))
    elif not os.path.isdir(args.packages):
        raise UsageError("--packages %s: not a folder" % args.packages)
    if args.neural_runs is not None and not os.path.isdir(args.neural_runs):
        raise UsageError("--neural-runs %s: not a folder" % args.neural_runs)
    v3_writer.replace_release(args.out, args.packages, seed, log=lambda text: STDOUT.write(text + "\n"),
                              neural=args.neural_runs)


def cmd_build(argv, prog):
    from .builder.build import write_all
    from .builder.config import CONFIGS
    from .builder.export import export_pages_v1
    from .builder.rankings import peak_memory
    from .run.freeze import freeze
    from .run.locate import checkout

    p = build_parser(prog)
    args = p.parse_args(argv)
    if args.seed < 0 or args.shift_seed < 0:
        raise UsageError("--seed and --shift-seed must be non-negative")
    if args.out is None:
        args.out = checkout()
        if args.out is None:
            raise UsageError("this nclue is an installed package, not a clone, so there is no checkout to rebuild; "
                             "pass --out DIR")
    os.makedirs(args.out, exist_ok=True)
    if args.release is not None:
        raise UsageError("build takes --target %s (--release names the release that score, reproduce-run and the "
                         "exports read)" % "|".join(BUILD_TARGETS))
    if args.target == REALPAGE_TARGET:
        if args.export_pages:
            raise UsageError("--export-pages goes with --target %s; RealPage's page text comes from its packages: "
                             "nclue export-pages OUT --release %s --packages DIR" % (STAND_IN, layout.REALPAGE.name))
        _build_v3(args)
    else:
        if args.packages or args.fetch or args.realpage_seed is not None or args.neural_runs is not None:
            raise UsageError("--packages, --fetch, --realpage-seed and --neural-runs go with --target %s" %
                             REALPAGE_TARGET)
        _clean_outputs(args.out)
        write_all(args.out, CONFIGS[args.config], args.seed, args.shift_seed)
    if not args.no_freeze:
        freeze(args.out)
        STDOUT.write("stage frozen%s\n" % peak_memory())
    if args.export_pages:
        STDOUT.write("wrote %s\n" % export_pages_v1(args.out, args.export_pages))
    return 0


FREEZE_EPILOG = """freeze recomputes every analysis on the instrument and writes its frozen claims
(reference_metrics/<analysis>.json), then MANIFEST.json and SHA256SUMS over every released file.  It
is the only command besides build that writes into a release (docs/claims.md#frozen-claims).
exit codes: 0 written; 2 no data root or a release file it cannot read."""


def freeze_parser(prog):
    p = _Parser(prog=prog, description="Write reference_metrics/*.json, MANIFEST.json and SHA256SUMS (builder only).",
                epilog=FREEZE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    _data_option(p)
    return p


def cmd_freeze(argv, prog):
    from .run.freeze import freeze
    from .run.locate import data_root

    args = freeze_parser(prog).parse_args(argv)
    freeze(data_root(args.data))
    return 0


EXPORT_PAGES_EPILOG = """each line of the page-text file is {"docid", "page", "text", "synthetic"} (pages 1-based): the
page text a release's documents are made of, so that an external retriever can index it and be scored
with `nclue score` (docs/usage.md#page-text-for-your-retriever).  The stand-in's text (v1, v2) is
regenerated from its seeds; RealPage's (v3) is read from the pinned doc-rfc packages given by
--packages and checked page by page against the SHA-256 its corpus records
(docs/usage.md#score-your-retriever-on-realpage).  The files: %s.  Progress goes to stderr.
OUT is created; it may not lie inside the release, and an existing file there is replaced only when
it is a regular file, never through a link.
exit codes: 0 written; 1 a release file failed verification; 2 bad arguments, no data root, a
missing or damaged package, a page whose text is not the released one, or a refused output."""


def export_pages_parser(prog):
    files = ", ".join("%s -> OUT/%s" % (r.name, r.pages_export) for r in layout.RELEASES.values())
    p = _Parser(prog=prog, description="Write a release's page text (JSON Lines) for external retrievers.",
                epilog=EXPORT_PAGES_EPILOG % files, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", metavar="OUT", help="output folder (created; never inside the release)")
    _data_option(p)
    p.add_argument("--release", choices=layout.RELEASE_NAMES + (ALL_RELEASES,), default=layout.CROSSPAGE.name,
                   help="%s; %s: every release (default %s)" % (files, ALL_RELEASES, layout.CROSSPAGE.name))
    p.add_argument("--packages", metavar="DIR", default=None,
                   help="the folder of the pinned doc-rfc .deb files, for the releases whose text comes from "
                        "them (%s)" % ", ".join(r.name for r in layout.releases_with(layout.TEXT_FROM_PACKAGES)))
    return p


def cmd_export(argv, prog):
    from .builder.export import export_pages
    from .commands.outputs import ReleaseGuard, check_output_dir, check_output_in
    from .commands.score import verify_inputs
    from .core.instrument import Instrument
    from .run.locate import data_root

    args = export_pages_parser(prog).parse_args(argv)
    root = data_root(args.data)
    check_output_dir(args.out, root, "page text")
    guard = ReleaseGuard(root)
    wanted = [r for r in layout.RELEASES.values() if args.release in (r.name, ALL_RELEASES)]
    if args.packages is None and any(r.can(layout.TEXT_FROM_PACKAGES) for r in wanted):
        needs = [r for r in wanted if r.can(layout.TEXT_FROM_PACKAGES)]
        raise UsageError("%s's page text is read from its pinned packages: give --packages DIR (the folder of the "
                         "eight doc-rfc .deb files; `nclue build --target realpage --fetch --packages DIR` fills "
                         "it)%s" % (", ".join(r.title for r in needs), "" if args.release != ALL_RELEASES else
                                    ", or name one release with --release"))
    if args.packages is not None and not any(r.can(layout.TEXT_FROM_PACKAGES) for r in wanted):
        raise UsageError("--packages goes with %s (the releases whose text comes from packages)" % ", ".join(
            "--release " + r.name for r in layout.releases_with(layout.TEXT_FROM_PACKAGES)))
    for release in wanted:
        check_output_in(args.out, release.pages_export, root, "the page text")
    inst = Instrument(root)
    for release in wanted:
        verify_inputs(inst.release(release), [release.corpus, release.build], purpose="export the page text of")
        STDOUT.write("wrote %s\n" % export_pages(
            root, release, args.out, packages=args.packages if release.can(layout.TEXT_FROM_PACKAGES) else None,
            guard=guard, progress=lambda line: STDERR.write(line + "\n")))
    return 0


def _measure_lines():
    """score --help's measure lines, from the measures table (nclue/core/measures.py)."""
    from .core.measures import SCORE_COMMAND_MEASURES, STANDARD_MEASURES
    return "\n".join("  %-17s %s: %s" % (m.label, m.unit, m.help) for m in SCORE_COMMAND_MEASURES + STANDARD_MEASURES)


SCORE_EPILOG = """measures (all at depth {depth}; docs/metrics.md):
{measures}
  --per-query lists {per_query},
  each in the unit of its total, so the rows average to the totals.  One scale per kind of measure:
{scales}
{ids}
intervals: {level:.0%} family-clustered percentile bootstrap ({bootstrap:,} draws over exact-gold-set families);
paired tests: {randomization:,} whole-family sign flips of the per-query Delta of the tested measure (n-Clue
Score when shown, else the first measure shown that is a mean over every query), p = (1 + c)/(B + 1), with
studentized max-|T| and Holm over each run's comparisons (each pair of runs once).  References:
the fair scorecard systems unless --against names others (controls, oracles, floors, ablations).
On v1's final qrels the draws and masks are the harness's own, so a shipped ranking gets its
frozen interval and p.  The result goes to stdout; only --html writes a file.
exit codes: 0 scored; 1 a release file failed verification, or a run ranks nothing (without
--allow-empty); 2 bad usage or a bad run file."""


def _score_epilog():
    """The epilog with the measures table's lines and the protocol's draws (nclue/stats/protocol.py)."""
    from .core.measures import DEPTH, KINDS, PER_QUERY_MEASURES, SCORE_COMMAND_MEASURES, STANDARD_MEASURES
    from .stats import protocol
    return SCORE_EPILOG.format(depth=DEPTH, measures=_measure_lines(),
                               per_query=", ".join(m.label for m in PER_QUERY_MEASURES),
                               scales="\n".join("  %-17s %s" % (k.unit, k.meaning) for k in KINDS.values()),
                               ids=textwrap.fill("-m picks measures by id: %s." % ", ".join(
                                   n for m in SCORE_COMMAND_MEASURES + STANDARD_MEASURES for n in m.ids()), width=98,
                                   initial_indent="  ", subsequent_indent="    "),
                               level=protocol.INTERVAL_LEVEL, bootstrap=protocol.BOOTSTRAP.n_draws,
                               randomization=protocol.RANDOMIZATION.n_draws)


def _run_input_options(p):
    """The options every command that reads runs takes: the runs' format and TREC's tie order."""
    p.add_argument("--run-format", choices=("auto", "trec", "jsonl"), default="auto",
                   help="input format of the runs (default: detected from content)")
    p.add_argument("--ties", choices=("trec", "file"), default="trec",
                   help="TREC runs: trec_eval's order (score desc, docno desc; default) or file order")


def _measures(given):
    """The measure names of the repeatable ``-m ID[,ID]`` (None: the option was not given); an empty list is a
    usage error, like an unknown measure."""
    if given is None:
        return None
    measures = [m.strip() for option in given for m in option.split(",") if m.strip()]
    if not measures:
        raise UsageError("-m/--measure names no measure (%s): give one or more, comma-separated, or leave "
                         "the option out for all" % ", ".join(repr(option) for option in given))
    return measures


def cmd_score(argv, prog):
    """Score runs (TREC or released JSONL, gzip accepted) with intervals and paired tests; prints the result
    and writes a file only with ``--html``."""
    from .commands.outputs import ReleaseGuard, check_output_file, write_text
    from .commands.score import score
    from .reports.score_tables import render
    from .run.locate import data_root

    args = score_parser(prog).parse_args(argv)
    if args.run.count("-") > 1:
        raise UsageError("standard input can be read once: give '-' at most once among the runs")
    guard = None
    if args.html is not None:
        # no output is an input of the command: the runs and the user's qrels file alike
        check_output_file(args.html, data_root(args.data), "the HTML page",
                          inputs=list(args.run) + [args.qrels_file])
        guard = ReleaseGuard(data_root(args.data))
    against = None if args.against is None else [] if args.against == "none" else [
        a for a in args.against.split(",") if a]
    measures = _measures(args.measure)
    result = score(args.run, args.data, args.release, args.qrels, against, args.run_format, args.ties,
                   verify=not args.no_verify, warn=STDERR.write, per_query=args.per_query, names=args.name,
                   allow_empty=args.allow_empty, qrels_file=args.qrels_file, measures=measures)
    STDOUT.write(render(result, args.format))
    if args.html is not None:
        from .reports.html_report import render_score_html
        write_text(args.html, render_score_html(result), "the HTML page", guard)
    return 0


def score_parser(prog):
    from .reports.score_tables import FORMATS

    p = _Parser(prog=prog, description="Score runs against an instrument's qrels, with intervals and paired "
                                       "tests against the reference runs.  Prints the result; writes a file only "
                                       "with --html.",
                epilog=_score_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run", nargs="+", help="TREC runs (qid Q0 docno rank score tag) or JSONL rankings, told apart "
                                          "by content; .gz accepted; - reads standard input")
    _data_option(p)
    p.add_argument("--format", choices=FORMATS, default="text", help="output: text (default), json, tsv, "
                                                                      "markdown, latex, or trec (trec_eval's "
                                                                      "measure/qid/value lines; with --per-query "
                                                                      "like trec_eval -q)")
    _run_input_options(p)
    _release_option(p)
    p.add_argument("--qrels", choices=QREL_COPY_NAMES, default=None, help=QREL_COPY_HELP)
    p.add_argument("--qrels-file", metavar="FILE", default=None,
                   help="score against a TREC qrels file of your own (qid iteration docno grade; grade n = gold, "
                        "1..n-1 = subset, 0 = judged non-relevant; .gz accepted) instead of a released copy; its "
                        "queries are the ones it names")
    p.add_argument("-m", "--measure", action="append", metavar="ID[,ID]",
                   help="report only these measures (ids as in the per-query rows, or trec_eval's names: "
                        "ndcg_cut.10); repeatable; default: all")
    p.add_argument("--against", metavar="ID[,ID]", default=None,
                   help="reference systems to compare with (default: the release's fair scorecard systems; controls, "
                        "oracles, floors and ablations only when named; 'none' for no comparison); several runs are "
                        "also compared with each other, each pair once")
    p.add_argument("--per-query", action="store_true", help="also one row per query and measure (like trec_eval -q), "
                                                             "in every format")
    p.add_argument("--name", action="append", metavar="LABEL",
                   help="a label for each run, in order (repeat it once per run; default: a TREC run's tag, else "
                        "its path)")
    p.add_argument("--allow-empty", action="store_true",
                   help="score a run that ranks nothing as all zeros, with a warning (default: exit 1)")
    p.add_argument("--html", metavar="FILE", help="also write a self-contained HTML page of the result")
    p.add_argument("--no-verify", action="store_true",
                   help="score even when a release file it reads fails its integrity check (warn on stderr)")
    return p


def cmd_compare(argv, prog):
    """Compare several runs (TREC or released JSONL): their means side by side and every pair's paired test;
    prints the result, writes nothing."""
    from .commands.compare_runs import compare
    from .reports.compare_tables import render

    args = compare_parser(prog).parse_args(argv)
    if args.run.count("-") > 1:
        raise UsageError("standard input can be read once: give '-' at most once among the runs")
    measures = _measures(args.measure)
    result = compare(args.run, args.data, release=args.release, qrels=args.qrels, run_format=args.run_format,
                     ties=args.ties, verify=not args.no_verify, warn=STDERR.write, names=args.name,
                     qrels_file=args.qrels_file, measures=measures)
    STDOUT.write(render(result, args.format))
    return 0


COMPARE_EPILOG = """The tested measure is n-Clue Score@10 unless -m leaves it out (then the first shown measure that is
a mean over every query).  In its column a run's mean carries '>' and the letters of the runs it beats
at Holm-adjusted p < 0.05.  The numbers are score's own: score RUN RUN --against none gives them.
exit codes: 0 compared; 1 a release file failed verification, or a run ranks nothing; 2 bad usage
(fewer than two runs), or a bad run file."""


def compare_parser(prog):
    from .reports.compare_tables import FORMATS

    p = _Parser(prog=prog, description="Compare two or more runs on an instrument's qrels: each run's means, and "
                                       "for every pair the difference on the tested measure with its 95% "
                                       "family-clustered interval and whole-family sign-flip p (raw and Holm). "
                                       "Prints the result; writes nothing (docs/usage.md#comparing-runs).",
                epilog=COMPARE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run", nargs="+", help="two or more TREC runs or JSONL rankings; .gz accepted; - reads "
                                          "standard input (once)")
    _data_option(p)
    p.add_argument("--format", choices=FORMATS, default="text", help="output: text (default), markdown, latex or "
                                                                      "json")
    _run_input_options(p)
    _release_option(p)
    p.add_argument("--qrels", choices=QREL_COPY_NAMES, default=None, help=QREL_COPY_HELP)
    p.add_argument("--qrels-file", metavar="FILE", default=None,
                   help="compare on a TREC qrels file of your own instead of a released copy")
    p.add_argument("-m", "--measure", action="append", metavar="ID[,ID]",
                   help="the measures to show (as score -m); the paired tests use n-Clue Score when shown, else "
                        "the first shown measure that is a mean over every query")
    p.add_argument("--name", action="append", metavar="LABEL", help="a label for each run, in order")
    p.add_argument("--no-verify", action="store_true",
                   help="compare even when a release file it reads fails its integrity check (warn on stderr)")
    return p


REPRODUCE_RUN_EPILOG = """ROLE: a paper system as the crosswalk names it (bm25_and, jina_joint; one RUN) or a Table 5
block (lexical_composition; two runs, BASE then VARIANT).  Reports, per run: Kendall's tau union
and rank-biased overlap (p = 0.95) at depth 10 against the role's released ranking, as repro_eval
defines them; per measure the released and re-run totals, the per-query RMSE, the paired
whole-family sign-flip p of the difference and the re-run's bootstrap SE; the queries whose outcome
changed (listed with --per-query).  Then every published cell of the role's row (Tables 3, 4, 6,
S1j, S2b; Table S3 with --release v2; Table 5 for a block), recomputed by the analyses on the re-run, beside the published and
released values, with one verdict per table (skips on the synthetic stand-in).  For a block: the
effect ratio and Delta RI per measure, and whether the re-run's paired interval covers the
released and published Delta n-Clue Score (docs/usage.md#checking-a-re-run).
--form: the query form the run ranks (default: clean_v2 for a system, Table 3's; raw for a block,
Table 5's).  Nothing is written.
exit codes: 0 compared; 1 a release file failed verification, or a run ranks nothing; 2 bad usage,
an unknown or blocked role, or a bad run file."""


def reproduce_run_parser(prog):
    from .reports.rerun_tables import FORMATS

    p = _Parser(prog=prog, description="Check a re-run of one of the paper's roles: agreement with the role's "
                                       "released ranking, and the paper's published row recomputed on the run.",
                epilog=REPRODUCE_RUN_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run", nargs="+", metavar="RUN", help="the re-run (TREC or JSONL; .gz accepted; - reads standard "
                                                          "input); for a Table 5 block BASE then VARIANT")
    p.add_argument("--role", required=True, metavar="ROLE", help="the paper role the run re-does (see below)")
    _data_option(p)
    _release_option(p, {layout.V2: "SourceShift: Table S3's row"})
    p.add_argument("--form", choices=layout.FORM_KEYS, default=None, help="the query form the run ranks")
    p.add_argument("--qrels", choices=QREL_COPY_NAMES, default=None, help=QREL_COPY_HELP)
    p.add_argument("--format", choices=FORMATS, default="text", help="output: text (default), json, tsv or markdown")
    _run_input_options(p)
    p.add_argument("--per-query", action="store_true", help="also list tau and RBO per query and every query whose "
                                                             "outcome changed")
    p.add_argument("--no-verify", action="store_true",
                   help="compare even when a release file it reads fails its integrity check (warn on stderr)")
    return p


def cmd_reproduce_run(argv, prog):
    """Check a re-run of a paper role (docs/usage.md#checking-a-re-run); prints the result, writes nothing."""
    from .commands.reproduce_run import reproduce_run
    from .reports.rerun_tables import render

    args = reproduce_run_parser(prog).parse_args(argv)
    if args.run.count("-") > 1:
        raise UsageError("standard input can be read once: give '-' at most once among the runs")
    result = reproduce_run(args.run, args.role, args.data, args.form, args.qrels, args.run_format, args.ties,
                           verify=not args.no_verify, warn=STDERR.write, per_query=args.per_query,
                           release=args.release)
    STDOUT.write(render(result, args.format))
    return 0


EXPORT_QRELS_EPILOG = """files (OUT/): qrels.graded.trec (every judged row with its grade), qrels.gold.trec,
qrels.subset.trec, topics.trec, topics.jsonl and README.txt with the grade semantics.  trec_eval
needs -c to count the queries a run does not rank (trec_eval -c -m ndcg_cut.10
OUT/qrels.graded.trec RUN); without it such queries are left out of the means.
exit codes: 0 written; 1 a release file it reads failed verification; 2 bad arguments, no data
root or a refused output."""


def export_qrels_parser(prog):
    from .core import layout

    p = _Parser(prog=prog, description="Write TREC qrels (graded, gold-only, subset-only), topics (TREC and JSONL) "
                                       "and a README stating the grade semantics into OUT.  Gold is grade n: 2 for "
                                       "two-condition queries, 3 for three-condition ones.",
                epilog=EXPORT_QRELS_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", metavar="OUT", help="output folder (created; never inside the release)")
    _data_option(p)
    _release_option(p)
    p.add_argument("--qrels", choices=QREL_COPY_NAMES, default=None, help=QREL_COPY_HELP)
    p.add_argument("--form", choices=layout.FORM_KEYS, default=layout.RAW.key, help="query rendering of the topics")
    return p


def cmd_export_qrels(argv, prog):
    """Write TREC qrels and topics of a release (docs/usage.md#exporting-qrels-and-topics)."""
    from .commands.export_qrels import FILES as QREL_FILES
    from .commands.export_qrels import export
    from .commands.outputs import ReleaseGuard, check_output_dir, check_output_in
    from .commands.score import verify_inputs
    from .core.instrument import Instrument
    from .run.locate import data_root
    from .run.runner import check_root

    args = export_qrels_parser(prog).parse_args(argv)
    root = data_root(args.data)
    check_root(root)
    check_output_dir(args.out, root, "qrels")
    for name in QREL_FILES:
        check_output_in(args.out, name, root, "the qrels export")
    inst = Instrument(root).release(args.release)
    verify_inputs(inst, [inst.CORPUS, inst.QUERIES] + list(inst.copy(args.qrels).evaluation_inputs))
    for path in export(root, args.out, args.release, args.qrels, args.form, guard=ReleaseGuard(root)):
        STDOUT.write("wrote %s\n" % path)
    return 0


PARSERS = {"reproduce": reproduce_parser, "score": score_parser, "compare": compare_parser,
           "reproduce-run": reproduce_run_parser, "build": build_parser, "freeze": freeze_parser,
           "export-pages": export_pages_parser, "export-qrels": export_qrels_parser}

COMMANDS = {"reproduce": cmd_reproduce, "score": cmd_score, "compare": cmd_compare,
            "reproduce-run": cmd_reproduce_run, "build": cmd_build, "freeze": cmd_freeze,
            "export-pages": cmd_export, "export-qrels": cmd_export_qrels}


def _usage(prog):
    lines = ["usage: %s {%s} ..." % (prog, ",".join(COMMANDS)), ""]
    lines += ["  %-13s %s" % (name, COMMAND_HELP[name]) for name in COMMANDS]
    lines += ["", "'%s COMMAND --help' explains a command's options; docs/usage.md has the details." % prog]
    return "\n".join(lines) + "\n"


def _program_name():
    """``reproduce.py``, ``nclue`` or ``python -m nclue``: how the user ran the command."""
    if sys.argv and sys.argv[0] and not sys.argv[0].endswith("__main__.py"):
        return os.path.basename(sys.argv[0])
    return "python -m nclue"


def _dispatch(argv, prog):
    """Run the command ``argv`` names; ``--help``, ``--version`` and an unknown or missing command here."""
    if prog == "reproduce.py":
        return cmd_reproduce(argv, prog)
    if argv and argv[0] in COMMANDS:
        if argv[0] == "reproduce":
            return cmd_reproduce(argv[1:], prog + " reproduce")
        return COMMANDS[argv[0]](argv[1:], prog + " " + argv[0])
    if argv and argv[0] in ("-h", "--help"):
        STDOUT.write(_usage(prog))
        return 0
    if argv and argv[0] == "--version":
        STDOUT.write("nclue %s\n" % __version__)
        return 0
    if argv:
        STDERR.write("%s: error: unknown command %s\n" % (prog, _echo(argv[0])))
    STDERR.write(_usage(prog))
    return 2


def main(argv=None, prog=None):
    """The command line; exit codes 0 (done), 1 (verification failed, or an empty run), 2 (bad usage or
    input), 130 (interrupted).  Never a traceback: a harness defect is reported as one line."""
    argv = list(sys.argv[1:] if argv is None else argv)
    prog = _program_name() if prog is None else prog
    previous = _terminate_like_interrupt()
    try:
        return _dispatch(argv, prog)
    except Terminated:
        STDERR.write("error: %s terminated (SIGTERM); its temporary files were removed\n" % prog)
        return 143
    except UsageError as exc:
        STDERR.write("error: %s\n" % exc)
        return 2
    except (VerificationError, EmptyRun) as exc:
        STDERR.write("error: %s\n" % exc)
        return 1
    except NclueError as exc:
        STDERR.write("error: %s\n" % exc)
        return 2
    except OSError as exc:
        STDERR.write("error: %s: %s\n" % (exc.filename or prog, exc.strerror or exc))
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:           # noqa: BLE001 -- never a traceback for the user
        from .run.guard import DEFECT_ENV, defect_reason
        if os.environ.get(DEFECT_ENV):
            raise
        STDERR.write("error: %s\n" % defect_reason("running %s" % prog, exc))
        return 2
    finally:
        _restore_terminate(previous)


class Terminated(BaseException):
    """SIGTERM, raised in the main thread like KeyboardInterrupt, so that every ``finally`` and context manager
    (temporary folders of ``--deep``, temporary output files) cleans up as it does on SIGINT (exit 143)."""


def _on_terminate(signum, frame):
    raise Terminated()


def _terminate_like_interrupt():
    import signal
    try:
        return signal.signal(signal.SIGTERM, _on_terminate)
    except (ValueError, OSError, AttributeError):       # not the main thread, or no SIGTERM
        return None


def _restore_terminate(previous):
    import signal
    if previous is not None:
        try:
            signal.signal(signal.SIGTERM, previous)
        except (ValueError, OSError):
            pass
