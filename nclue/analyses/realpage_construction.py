"""RealPage's construction re-derived from its released files (``data/v3``; docs/realpage.md; paper 3.2).

From the inventory and the queries alone, with the independent verifier (:mod:`nclue.core.verify`): every
construction qrel and its grade, and both page gates of every gold.  Then the construction gates that
``data/v3/build.json`` declares (golds, union, subsets per query), Table 1's counts on the construction copy,
the corpus's page hashes, and the release's nature: every row and the build record say ``synthetic: false``
(real documents, not the paper's), as MANIFEST.json's ``natures`` does.  No page text is read.
"""

import json

from ..core import layout
from ..core.errors import InputError
from ..core.jsonio import ABSENT, iter_key, read_json
from ..core.loaders import load_page_hashes
from ..core.structure import table1
from ..core.verify import verify
from .base import Analysis, Unit, Value
from .shared.release_manifest import release_manifest

SOURCE = "docs/realpage.md (RealPage, data/v3); paper section 3.2 and Table 1"
CORE = [layout.REALPAGE.corpus, layout.REALPAGE.conditions, layout.REALPAGE.inventory, layout.REALPAGE.queries,
        layout.REALPAGE.copy("construction").path]
GATES = ("min_golds", "max_golds", "max_union", "min_subsets")     # build.json's construction fields checked
DIFFERENCE_KINDS = ("missing qrel", "extra qrel", "wrong grade", "gold fails gate", "query without gold")
NATURE = "real"             # what MANIFEST.json's natures says of data/v3
# the files whose every row, and the records whose top level, say synthetic: false
NATURE_ROWS = (layout.REALPAGE.corpus, layout.REALPAGE.conditions, layout.REALPAGE.queries, layout.V3_AUDIT)
NATURE_RECORDS = (layout.REALPAGE.build, layout.REALPAGE.genealogy, layout.REALPAGE.systems)


class Records:
    """The validated records of data/v3, read through the RealPage instrument (:meth:`Instrument.v3
    <nclue.core.instrument.Instrument.v3>`), so that every v3 analysis shares one load of each file."""

    def __init__(self, inst):
        v3 = inst.release(layout.REALPAGE)
        self.corpus = v3.corpus()
        self.conditions = v3.conditions()
        self.inventory = v3.inventory()
        self.queries = v3.queries()
        self.qrels = v3.qrels(layout.REALPAGE.copies[0])


def records(inst):
    return inst.memo("v3:records", lambda: Records(inst))


def _verifier(inst):
    found = records(inst)
    diffs = verify(found.queries, found.inventory, found.qrels)
    detail = "; ".join(str(d) for d in diffs[:8]) + (" ... (%d in all)" % len(diffs) if len(diffs) > 8 else "")
    out = [Value("v3.construction.rederived_qrel_differences", len(diffs), source=SOURCE,
                 detail="%s: %s" % (layout.REALPAGE.copy("construction").path, detail) if diffs else "")]
    for kind in DIFFERENCE_KINDS:
        rows = [d for d in diffs if d.kind == kind]
        out.append(Value("v3.construction.%s" % kind.replace(" ", "_"), len(rows), source=SOURCE,
                         detail="; ".join(str(d) for d in rows)[:600]))
    return out


def declared_gates(inst):
    """The construction gates ``data/v3/build.json`` declares: ``{gate: int}``; a missing or non-integer
    gate is an :class:`~nclue.core.errors.InputError` naming the field."""
    construction = read_json(inst.path(layout.REALPAGE.build), layout.REALPAGE.build).get("construction")
    if not isinstance(construction, dict):
        raise InputError(layout.REALPAGE.build, "must be an object", field="construction")
    out = {}
    for gate in GATES:
        value = construction.get(gate)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 100000:
            raise InputError(layout.REALPAGE.build, "must be an integer in 0..100000, got %r" % (value,),
                             field="construction." + gate)
        out[gate] = value
    return out


def gate_violations(queries, qrels, gates):
    """``[(qid, what)]`` of the queries outside the declared gates: golds (grade n) in ``min_golds`` ..
    ``max_golds``, judged documents at most ``max_union``, subsets (0 < grade < n) at least ``min_subsets``.

    >>> from collections import namedtuple
    >>> Q = namedtuple("Q", "n")
    >>> gates = {"min_golds": 1, "max_golds": 2, "max_union": 4, "min_subsets": 2}
    >>> gate_violations({"q": Q(2)}, {"q": {"a": 2, "b": 1, "c": 1}}, gates)
    []
    >>> gate_violations({"q": Q(2)}, {"q": {"a": 2, "b": 1}}, gates)
    [('q', '1 subsets, fewer than 2')]
    """
    out = []
    for qid in sorted(queries):
        grades = qrels.get(qid, {}).values()
        golds = sum(1 for g in grades if g == queries[qid].n)
        union = len(grades)
        if not gates["min_golds"] <= golds <= gates["max_golds"]:
            out.append((qid, "%d golds, outside %d..%d" % (golds, gates["min_golds"], gates["max_golds"])))
        if union > gates["max_union"]:
            out.append((qid, "%d judged documents, more than %d" % (union, gates["max_union"])))
        if union - golds < gates["min_subsets"]:
            out.append((qid, "%d subsets, fewer than %d" % (union - golds, gates["min_subsets"])))
    return out


def _gates(inst):
    found = records(inst)
    wrong = gate_violations(found.queries, found.qrels, declared_gates(inst))
    return [Value("v3.construction.gate_violations", len(wrong), source=SOURCE,
                  detail="; ".join("%s: %s" % pair for pair in wrong[:6]))]


def _table1(inst):
    found = records(inst)
    stats = table1(found.queries, found.corpus, found.qrels, found.inventory)
    return [Value("v3.table1.%s" % key, stats[key], source="Table 1 (RealPage, construction qrels)")
            for key in sorted(stats)]


def _page_hashes(inst):
    found = records(inst)
    hashes = load_page_hashes(inst.root, layout.REALPAGE.corpus, found.corpus)
    return [Value("v3.construction.page_hashes", sum(len(h) for h in hashes.values()), source=layout.REALPAGE.corpus)]


def _nature(inst):
    """The rows and documents of data/v3 whose ``synthetic`` flag is not false, and MANIFEST.json's nature."""
    problems = []
    for rel in NATURE_ROWS:
        for line, flag in iter_key(inst.path(rel), rel, "synthetic"):
            if flag is not False:
                problems.append("%s:%d: synthetic=%s, expected false (real documents)" % (
                    rel, line, "absent" if flag is ABSENT else json.dumps(flag)))
    for rel in NATURE_RECORDS:
        flag = read_json(inst.path(rel), rel).get("synthetic")
        if flag is not False:
            problems.append("%s: synthetic=%s, expected false" % (rel, json.dumps(flag)))
    declared = (release_manifest(inst).get("natures") or {}).get(layout.V3)
    if declared != NATURE:
        problems.append("MANIFEST.json: natures[%s] is %s, expected %s" % (
            layout.V3, json.dumps(declared), json.dumps(NATURE)))
    return [Value("v3.construction.nature_disagreements", len(problems), source=SOURCE,
                  detail="; ".join(problems[:4]))]


def _units(inst):
    if not inst.exists(layout.REALPAGE.corpus):
        return []
    return [
        Unit("verifier", CORE, lambda: _verifier(inst)),
        Unit("gates", CORE + [layout.REALPAGE.build], lambda: _gates(inst)),
        Unit("table1", CORE, lambda: _table1(inst)),
        Unit("page-hashes", CORE, lambda: _page_hashes(inst)),
        Unit("nature", list(NATURE_ROWS + NATURE_RECORDS), lambda: _nature(inst)),
    ]


ANALYSES = [Analysis("v3.construction", "construction", SOURCE, _units)]
