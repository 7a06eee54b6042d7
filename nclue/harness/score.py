"""Scoring one run against an instrument without freezing anything (docs/usage.md#scoring-a-new-retriever).

A run is a released-style JSONL ranking or a TREC run (``qid Q0 docno rank
score tag``); TREC runs are ordered as trec_eval orders them (score
descending, ties by docno descending) unless ``ties="file"``.  Every measure
of :data:`nclue.core.measures.SCORE_COMMAND_MEASURES` is reported with its
unit.
"""

import os

from ..core import integrity, layout
from ..core.errors import InputError, VerificationError
from ..core.instrument import Instrument
from ..core.loaders import load_ranking
from ..core.measures import DEPTH, SCORE_COMMAND_MEASURES
from ..core.metrics import evaluate, summary
from ..core.structure import gold_and_subsets
from ..core.trec import read_trec_run

ORDER_TEXT = {"trec": "trec_eval order (score desc, docno desc)", "file": "file order"}


def read_run(path, queries, corpus, fmt="auto", ties="trec"):
    """``(ranking, order description)`` of a run file in either format."""
    if os.path.isdir(path):
        raise InputError(path, "is a directory, not a run file")
    if not os.path.exists(path):
        raise InputError(path, "file is absent")
    if fmt == "auto":
        fmt = "jsonl" if path.endswith(".jsonl") else "trec"
    if fmt == "jsonl":
        directory, name = os.path.split(os.path.abspath(path))
        return load_ranking(directory, name, queries, corpus), "file order (JSONL rule)"
    return read_trec_run(path, path, queries, corpus, ties=ties), ORDER_TEXT[ties]


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


def score_run(root, path, release="v1", qrels_copy="final", fmt="auto", ties="trec", verify=True, warn=None):
    """The :func:`~nclue.core.metrics.summary` of one run and a description of what was scored."""
    inst = Instrument(root)
    if release == "v2":
        inst = inst.v2()
    copies = {c.copy: c.path for c in layout.V2_COPIES}
    rel = copies[qrels_copy] if qrels_copy in ("s0", "construction") else inst.QRELS
    needed = [inst.CORPUS, inst.CONDITIONS, inst.QUERIES, rel] + ([layout.V2_GENEALOGY] if release == "v2" else [])
    verify_inputs(inst, [r for r in needed if r != inst.CONDITIONS or inst.exists(r)], verify, warn)
    queries, corpus, qrels = inst.evaluation_queries(rel), inst.corpus(), inst.qrels(rel)
    ranking, order = read_run(path, inst.queries(), corpus, fmt, ties)
    ranked = sum(1 for q in queries if q in ranking)
    result = summary(evaluate(ranking, queries, qrels, gold_and_subsets(queries, qrels)))
    about = "run %s on %s (%s, %s); %s; %d of %d queries ranked (absent queries score as empty lists); depth %d" % (
        path, os.path.abspath(root), inst.base, os.path.basename(rel), order, ranked, len(queries), DEPTH)
    return result, about


def render(result, about):
    lines = [about]
    for m in SCORE_COMMAND_MEASURES:
        lines.append("  %-18s %s %s" % (m.name, "n/a" if result[m.key] is None else "%.4f" % result[m.key], m.unit))
    lines.append("  %-18s %d of %d queries" % ("successes", result["success_count"], result["queries"]))
    return "\n".join(lines) + "\n"
