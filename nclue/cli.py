"""Command line: ``python -m nclue {reproduce,score,build,freeze,export-pages}``.

Exit codes (DESIGN 3): 0 = no fail; 1 = at least one fail (or, with
``--strict``, a skip); 2 = the harness could not run (bad arguments, no data
root).  Errors are messages, never tracebacks.
"""

import argparse
import os
import sys

from . import __version__
from .claims import LEVELS
from .errors import NclueError, UsageError

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("%s: error: %s\n" % (self.prog, message))
        raise SystemExit(2)


def _levels(text):
    if text is None:
        return tuple(lv for lv in LEVELS if lv != "rebuild")
    wanted = [t.strip() for t in text.split(",") if t.strip()]
    unknown = [t for t in wanted if t not in LEVELS]
    if unknown or not wanted:
        raise UsageError("--only takes a comma-separated list of %s; got %r" % (", ".join(LEVELS), text))
    return tuple(lv for lv in LEVELS if lv in wanted or lv == "integrity")


def _inside(path, root, subdirs=("data", "reference_metrics")):
    real = os.path.realpath(path)
    for sub in subdirs:
        base = os.path.realpath(os.path.join(root, sub))
        if os.path.commonpath([base, real]) == base:
            return True
    return False


def reproduce_parser(prog="reproduce.py"):
    p = _Parser(prog=prog, description="Verify an n-Clue instrument: integrity, construction, scoring, "
                                       "inference, sensitivity, paper audit; one pass/fail/skip per claim.")
    p.add_argument("--data", metavar="DIR", default=REPO_ROOT, help="instrument root (default: this repository)")
    p.add_argument("--only", metavar="GROUP[,GROUP]", help="levels to run: " + ",".join(LEVELS))
    p.add_argument("--json", metavar="FILE", help="write the deterministic JSON report here")
    p.add_argument("--provenance", metavar="FILE", help="write the provenance record here "
                                                        "(default with --json: FILE.provenance.json)")
    p.add_argument("--strict", action="store_true", help="count skips as fails")
    p.add_argument("--deep", action="store_true", help="also run the rebuild level (regenerate the stand-in)")
    p.add_argument("--quiet", action="store_true", help="print group lines, fails and the result only")
    p.add_argument("--version", action="version", version="nclue %s" % __version__)
    return p


def cmd_reproduce(argv, prog="reproduce.py"):
    from .report import render_text, report_json, exit_code, write_provenance, stdout_write
    from .runner import run

    args = reproduce_parser(prog).parse_args(argv)
    levels = _levels(args.only)
    if args.deep and "rebuild" not in levels:
        levels = levels + ("rebuild",)
    for target in (args.json, args.provenance):
        if target and _inside(target, args.data):
            raise UsageError("refusing to write %s inside the instrument's data/ or reference_metrics/" % target)
    result = run(args.data, levels=levels, deep="rebuild" in levels)
    stdout_write(render_text(result, strict=args.strict, quiet=args.quiet))
    if args.json:
        with open(args.json, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(report_json(result, strict=args.strict))
    prov = args.provenance or (args.json + ".provenance.json" if args.json else None)
    if prov:
        write_provenance(prov, result, [prog] + list(argv))
    return exit_code(result, strict=args.strict)


def _clean_outputs(out):
    import shutil

    for release in ("v1", "v2", "audit"):
        shutil.rmtree(os.path.join(out, "data", release), ignore_errors=True)
    ref = os.path.join(out, "reference_metrics")
    if os.path.isdir(ref):
        for name in os.listdir(ref):
            if name.endswith(".json"):
                os.remove(os.path.join(ref, name))


def cmd_build(argv):
    from .build.config import CONFIGS, DEFAULT_SEED
    from .build.release import write_all
    from .build.sourceshift import SHIFT_SEED
    from .freeze import freeze

    p = _Parser(prog="python -m nclue build", description="Build the synthetic stand-in instrument from a seed.")
    p.add_argument("--config", choices=sorted(CONFIGS), default="full")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of data/v1 (default 11)")
    p.add_argument("--shift-seed", type=int, default=SHIFT_SEED,
                   help="seed of data/v2 and the simulated audit (default %d)" % SHIFT_SEED)
    p.add_argument("--out", default=REPO_ROOT, help="instrument root to write (default: this repository)")
    p.add_argument("--no-freeze", action="store_true", help="write data only (no claims, no manifest)")
    p.add_argument("--export-pages", metavar="DIR", help="also write the page text to DIR/pages.jsonl")
    args = p.parse_args(argv)
    if args.seed < 0 or args.shift_seed < 0:
        raise UsageError("--seed and --shift-seed must be non-negative")
    os.makedirs(args.out, exist_ok=True)
    _clean_outputs(args.out)
    write_all(args.out, CONFIGS[args.config], args.seed, args.shift_seed)
    if not args.no_freeze:
        freeze(args.out)
    if args.export_pages:
        export_pages(args.out, args.export_pages)
    return 0


def cmd_freeze(argv):
    from .freeze import freeze

    p = _Parser(prog="python -m nclue freeze", description="Write reference_metrics/*.json and the manifest.")
    p.add_argument("--data", default=REPO_ROOT)
    args = p.parse_args(argv)
    freeze(args.data)
    return 0


def export_pages(root, out_dir):
    from .build.text import PageSource
    from .jsonio import iter_jsonl, read_json, write_jsonl

    build = read_json(os.path.join(root, "data", "v1", "build.json"), "data/v1/build.json")
    if not isinstance(build.get("seed"), int):
        raise UsageError("data/v1/build.json has no integer seed: page text cannot be regenerated")

    def rows(rel):
        return [obj for _, obj in iter_jsonl(os.path.join(root, *rel.split("/")), rel)]

    source = PageSource(build["seed"], rows("data/v1/corpus.jsonl"), rows("data/v1/conditions.jsonl"),
                        rows("data/v1/inventory.jsonl"), build.get("words_per_page", (70, 130)))
    if _inside(out_dir, root):
        raise UsageError("refusing to export pages inside data/ or reference_metrics/")
    os.makedirs(out_dir, exist_ok=True)
    write_jsonl(os.path.join(out_dir, "pages.jsonl"),
                ({"docid": d, "page": p, "text": t, "synthetic": True} for d, p, t in source.iter_all()))
    print("wrote %s" % os.path.join(out_dir, "pages.jsonl"))


def export_pages_v2(root, out_dir):
    """SourceShift page text (``OUT/pages_v2.jsonl``), regenerated from data/v2/build.json's seed and
    config; refused unless the regenerated corpus is the released one."""
    from .build.sourceshift import SHIFT_CONFIGS, generate
    from .jsonio import iter_jsonl, read_json, write_jsonl

    build = read_json(os.path.join(root, "data", "v2", "build.json"), "data/v2/build.json")
    if not isinstance(build.get("seed"), int) or build.get("config") not in SHIFT_CONFIGS:
        raise UsageError("data/v2/build.json has no usable seed/config: page text cannot be regenerated")
    if _inside(out_dir, root):
        raise UsageError("refusing to export pages inside data/ or reference_metrics/")
    g = generate(SHIFT_CONFIGS[build["config"]], build["seed"])
    released = [obj for _, obj in iter_jsonl(os.path.join(root, "data", "v2", "corpus.jsonl"), "data/v2/corpus.jsonl")]
    if released != g["docs"]:
        raise UsageError("data/v2/corpus.jsonl is not what the builder regenerates from its seed")
    os.makedirs(out_dir, exist_ok=True)
    source = g["source"]
    write_jsonl(os.path.join(out_dir, "pages_v2.jsonl"),
                ({"docid": d, "page": p, "text": t, "synthetic": True} for d, p, t in source.iter_all()))
    print("wrote %s" % os.path.join(out_dir, "pages_v2.jsonl"))


def cmd_export(argv):
    p = _Parser(prog="python -m nclue export-pages", description="Write the stand-in page text (JSON Lines).")
    p.add_argument("out")
    p.add_argument("--data", default=REPO_ROOT)
    p.add_argument("--release", choices=("v1", "v2", "all"), default="v1",
                   help="v1 -> OUT/pages.jsonl, v2 -> OUT/pages_v2.jsonl (default v1)")
    args = p.parse_args(argv)
    if args.release in ("v1", "all"):
        export_pages(args.data, args.out)
    if args.release in ("v2", "all"):
        export_pages_v2(args.data, args.out)
    return 0


def cmd_score(argv):
    """Score one run (TREC or released JSONL) on an instrument and print every metric of DESIGN 5."""
    from .errors import InputError
    from .instrument import Instrument
    from .loaders import load_ranking
    from .metrics import evaluate, summary
    from .structure import gold_and_subsets
    from .trec import read_trec_run

    p = _Parser(prog="python -m nclue score", description="Score a run against an instrument's qrels.")
    p.add_argument("run", help="a TREC run (qid Q0 docno rank score tag) or a JSONL ranking")
    p.add_argument("--data", default=REPO_ROOT)
    p.add_argument("--format", choices=("auto", "trec", "jsonl"), default="auto")
    p.add_argument("--ties", choices=("trec", "file"), default="trec",
                   help="TREC runs: trec_eval's order (score desc, docno desc; default) or file order")
    p.add_argument("--release", choices=("v1", "v2"), default="v1", help="data/v1 (CrossPage) or data/v2 (SourceShift)")
    p.add_argument("--qrels", choices=("final", "s0"), default="final",
                   help="v2 only: the revised qrels.jsonl (default) or the initial qrels_s0.jsonl")
    args = p.parse_args(argv)
    if args.qrels == "s0" and args.release != "v2":
        raise UsageError("--qrels s0 exists only for --release v2")
    inst = Instrument(args.data)
    if args.release == "v2":
        inst = inst.v2()
    queries, corpus = inst.queries(), inst.corpus()
    qrels = inst.qrels("data/v2/qrels_s0.jsonl" if args.qrels == "s0" else None)
    fmt = args.format
    if fmt == "auto":
        fmt = "jsonl" if args.run.endswith(".jsonl") else "trec"
    if fmt == "jsonl":
        directory, name = os.path.split(os.path.abspath(args.run))
        ranking = load_ranking(directory, name, queries, corpus)
        order = "file order (JSONL rule)"
    else:
        if not os.path.isfile(args.run):
            raise InputError(args.run, "file is absent")
        ranking = read_trec_run(args.run, args.run, queries, corpus, ties=args.ties)
        order = "trec_eval order (score desc, docno desc)" if args.ties == "trec" else "file order"
    missing = sorted(set(queries) - set(ranking))
    s = summary(evaluate(ranking, queries, qrels, gold_and_subsets(queries, qrels)))
    print("run %s on %s (%s, %s); %s; %d of %d queries ranked (absent queries score as empty lists)" % (
        args.run, os.path.abspath(args.data), inst.base, os.path.basename(inst.QRELS if args.qrels == "final"
                                                                          else "qrels_s0.jsonl"),
        order, len(queries) - len(missing), len(queries)))
    for key in ("nclue_score", "gold_hit", "complete_first", "subset_first", "no_gold", "gold_ndcg", "graded_ndcg",
                "pairwise_auc"):
        value = s[key]
        print("  %-16s %s" % (key, "n/a" if value is None else "%.4f" % value))
    print("  %-16s %d of %d" % ("successes", s["success_count"], s["queries"]))
    return 0


COMMANDS = {"reproduce": cmd_reproduce, "score": cmd_score, "build": cmd_build, "freeze": cmd_freeze, "export-pages": cmd_export}


def main(argv=None, prog=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if prog == "reproduce.py":
            return cmd_reproduce(argv, prog)
        if not argv or argv[0] not in COMMANDS:
            if argv and argv[0] in ("-h", "--help"):
                print("usage: python -m nclue {%s} ..." % ",".join(COMMANDS))
                return 0
            if argv and argv[0] == "--version":
                print("nclue %s" % __version__)
                return 0
            sys.stderr.write("usage: python -m nclue {%s} ...\n" % ",".join(COMMANDS))
            return 2
        if argv[0] == "reproduce":
            return cmd_reproduce(argv[1:], "python -m nclue reproduce")
        return COMMANDS[argv[0]](argv[1:])
    except UsageError as exc:
        sys.stderr.write("error: %s\n" % exc)
        return 2
    except NclueError as exc:
        sys.stderr.write("error: %s\n" % exc)
        return 2
    except KeyboardInterrupt:
        return 130
