"""Release consistency (integrity level; docs/schema.md#consistency): what the release declares agrees.

* ``synthetic``: the ``synthetic`` flag of ``MANIFEST.json`` is the flag of
  every corpus row (v1, v2) and of every JSON document that carries one
  (``build.json``, ``systems.json``, ``stats.json``, ``genealogy.json``, ``crosswalk.json``, ``audit.json``;
  every row of the audit's records is held to it as it is read, :class:`nclue.labelaudit.audit_records.RecordLoading`);
* ``seeds``: the seeds ``MANIFEST.json`` names are those of ``build.json``
  (v1 ``seed``; v2 ``seed`` = ``shift_seed``) and of ``audit.json``;
* ``paper-columns``: every ``paper`` value of ``data/v1/stats.json`` and
  ``data/v2/stats.json`` is the transcribed number
  (``reference_metrics/paper/numbers.json``) bound to that statistic's claim
  (:data:`nclue.paperaudit.bindings.STRUCTURE`).

Each unit reports a count of disagreements (0 in a consistent release) with
the first one in its detail.
"""

import json
from fractions import Fraction

from ..core import layout
from ..core.claim_ids import CONSISTENCY, NAME_PATTERN, PACKET, TABLE1, V2_STRUCTURE
from ..core.inputs import open_input
from ..core.jsonio import ABSENT, iter_key, read_json
from ..labelaudit.audit_records import FILES as AUDIT_RECORD_NAMES
from ..labelaudit.challenge_records import FILES as CHALLENGE_NAMES
from ..paperaudit.bindings import BY_CLAIM
from ..paperaudit.consistency import load_numbers
from .base import Analysis, Unit, Value
from .shared.release_manifest import release_manifest

SOURCE = "release consistency (MANIFEST.json, build.json, stats.json, the transcribed paper)"
# per release part: (corpus, JSON documents with a synthetic flag, (document with a seed, the MANIFEST generator
# field it must equal) or None, (stats file, its table key, the claim-id template of its statistics) or None)
# every row of these JSON Lines files says the release's nature, or says nothing where the schema gives it no flag
# (the inventory, the qrel copies): a row that does say must say MANIFEST.json's (issue 58, every release)
V1_ROWS = (layout.QUERIES, layout.CONDITIONS, layout.INVENTORY, layout.QRELS_CONSTRUCTION, layout.QRELS, layout.REPAIRS)
V2_ROWS = (layout.V2_QUERIES, layout.V2_CONDITIONS, layout.V2_INVENTORY, layout.V2_QRELS_CONSTRUCTION,
           layout.V2_QRELS_S0, layout.V2_QRELS)
PARTS = (
    ("v1", layout.CORPUS, (layout.BUILD, layout.SYSTEMS, layout.STATS, layout.GENEALOGY, layout.CROSSWALK) + V1_ROWS,
     (layout.BUILD, layout.RELEASES[layout.V1].seed_key), (layout.STATS, "table1", TABLE1.on(layout.CROSSPAGE.name))),
    ("v2", layout.V2_CORPUS, (layout.V2_BUILD, layout.V2_SYSTEMS, layout.V2_STATS, layout.V2_GENEALOGY) + V2_ROWS,
     (layout.V2_BUILD, layout.RELEASES[layout.V2].seed_key), (layout.V2_STATS, "table", V2_STRUCTURE)),
    ("audit", None, (layout.AUDIT_DESCRIPTION, layout.AUDIT_STATS) + tuple(
        layout.audit_records_path(name) for name in sorted(set(AUDIT_RECORD_NAMES) | set(CHALLENGE_NAMES))),
     (layout.AUDIT_DESCRIPTION, "shift_seed"),
     (layout.AUDIT_STATS, "table", PACKET)),
)


def _document(inst, rel):
    return inst.memo("json:" + rel, lambda: read_json(inst.path(rel), rel))


def _count(claim, problems):
    return [Value(claim, len(problems), source=SOURCE, detail="; ".join(problems[:3]))]


def _synthetic(inst, part, corpus, documents):
    declared = release_manifest(inst).get("synthetic")
    problems = []
    if corpus is not None:
        loader = inst.release(part)
        for docid, doc in sorted(loader.corpus().items()):
            if doc.synthetic is not declared:
                problems.append("%s: %s says synthetic=%s, MANIFEST.json says %s" % (
                    corpus, docid, json.dumps(doc.synthetic), json.dumps(declared)))
    for rel in documents:
        if rel.endswith(".jsonl"):
            problems += _row_flags(inst, rel, declared)
            continue
        flag = _document(inst, rel).get("synthetic")
        if flag is not declared:
            problems.append("%s: synthetic=%s, MANIFEST.json says %s" % (rel, json.dumps(flag), json.dumps(declared)))
    return _count(CONSISTENCY(part=part, statistic="synthetic_disagreements"), problems)


def _row_flags(inst, rel, declared):
    """The rows of a JSON Lines file whose ``synthetic`` flag is not MANIFEST.json's (file:line each).  Only
    the flag of each row is read (:func:`nclue.core.jsonio.iter_key`); the rows are validated by their loader
    (:mod:`nclue.labelaudit.audit_records`) at the levels that read them."""
    out = []
    with open_input(inst.path(rel), rel) as handle:
        if b'"synthetic"' not in handle.read():       # the flag nowhere in the file: no row to decode
            return out
    for line, flag in iter_key(inst.path(rel), rel, "synthetic"):
        if flag is not ABSENT and flag is not declared:
            out.append("%s:%d: synthetic=%s, MANIFEST.json says %s" % (rel, line, json.dumps(flag),
                                                                       json.dumps(declared)))
    return out


def _seed(inst, part, rel, declared):
    generator = release_manifest(inst).get("generator") or {}
    got = _document(inst, rel).get("seed")
    problems = [] if got == generator.get(declared) else [
        "%s: seed=%r, MANIFEST.json generator.%s=%r" % (rel, got, declared, generator.get(declared))]
    return _count(CONSISTENCY(part=part, statistic="seed_disagreements"), problems)


def _paper_column(inst, part, rel, key, claim):
    numbers = inst.memo("paper:numbers", lambda: load_numbers(inst.root))
    problems, bound = [], 0
    rows = _document(inst, rel).get(key)
    if not isinstance(rows, list):
        rows = []
        problems.append("%s: field %r is not a list" % (rel, key))
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or "paper" not in row:
            continue
        statistic = row.get("statistic")
        binding = BY_CLAIM.get(claim(statistic=statistic)) if isinstance(statistic, str) and \
            NAME_PATTERN.fullmatch(statistic) else None
        if binding is None or binding.number not in numbers:
            problems.append("%s: %s[%d] (%s) has a paper value %r but no transcribed number is bound to it" % (
                rel, key, i, row.get("statistic"), row["paper"]))
            continue
        bound += 1
        num = numbers[binding.number][0]
        paper = row["paper"]
        if isinstance(paper, bool) or not isinstance(paper, (int, float)) or \
                Fraction(str(paper)) != num.value * Fraction(binding.scale):
            problems.append("%s: %s[%d] (%s): paper %r, but %s transcribes %s" % (
                rel, key, i, row.get("statistic"), paper, binding.number, num.text))
    return _count(CONSISTENCY(part=part, statistic="paper_column_disagreements"), problems) + [
        Value(CONSISTENCY(part=part, statistic="paper_columns_bound"), bound, source=SOURCE)]


def _units(inst):
    units = []
    for part, corpus, documents, seed, stats in PARTS:
        corpus = corpus if corpus is not None and inst.exists(corpus) else None
        present = [rel for rel in documents if inst.exists(rel)]
        if corpus is None and not present:
            continue
        units.append(Unit("%s/synthetic" % part, ([corpus] if corpus else []) + present,
                          lambda part=part, corpus=corpus, present=present: _synthetic(inst, part, corpus, present)))
        if seed is not None and inst.exists(seed[0]):
            units.append(Unit("%s/seed" % part, [seed[0]], lambda part=part, seed=seed: _seed(inst, part, *seed)))
        if stats is not None and inst.exists(stats[0]) and inst.exists(layout.PAPER_NUMBERS):
            units.append(Unit("%s/paper-column" % part, [stats[0], layout.PAPER_NUMBERS],
                              lambda part=part, stats=stats: _paper_column(inst, part, *stats)))
    return units


ANALYSES = [Analysis(CONSISTENCY.analysis, "integrity", SOURCE, _units)]
