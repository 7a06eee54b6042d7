"""RealPage's construction re-derived from its released files (``data/v3``; docs/realpage.md; paper 3.2).

From the inventory and the queries alone, with the independent verifier (:mod:`nclue.core.verify`): every
construction qrel and its grade, and both page gates of every gold.  Then the construction gates that
``data/v3/build.json`` declares (golds, union, subsets per query), Table 1's counts on the construction copy,
the corpus's page hashes, and the release's nature: every row and the build record say ``synthetic: false``
(real documents, not the paper's), as MANIFEST.json's ``natures`` does.  No page text is read.
"""

import json
from collections import Counter

from ..core import layout
from ..core.claim_ids import CONSTRUCTION, TABLE1
from ..core.inputs import open_input
from ..core.integrity import sha256_file
from ..core.jsonio import ABSENT, iter_jsonl, iter_key, read_json
from ..core.structure import table1
from ..retrieval import dense_systems
from .base import Analysis, Unit, Value
from .shared.construction_checks import declared_gates, form_disagreements, verifier_values
from .shared.release_manifest import release_manifest

SOURCE = "docs/realpage.md (RealPage, data/v3); paper section 3.2 and Table 1"
CORE = [layout.REALPAGE.corpus, layout.REALPAGE.conditions, layout.REALPAGE.inventory, layout.REALPAGE.queries,
        layout.REALPAGE.copy("construction").path]
DENSE_FAMILY = dense_systems.DENSE       # systems.json's family of the dense systems (docs/realpage.md#neural)
DENSE_FILES = [layout.REALPAGE.base + "/" + rel for rel in dense_systems.expected_files()]
NATURE = layout.REALPAGE.nature            # what MANIFEST.json's natures says of data/v3
# the files whose every row, and the records whose top level, say synthetic: false
NATURE_ROWS = (layout.REALPAGE.corpus, layout.REALPAGE.conditions, layout.REALPAGE.queries, layout.REALPAGE.audit_records)
NATURE_RECORDS = (layout.REALPAGE.build, layout.REALPAGE.genealogy, layout.REALPAGE.systems)
# record files whose rows carry no flag by the schema: a row that does say ``synthetic`` must say false
NATURE_OPTIONAL = (layout.REALPAGE.inventory,) + tuple(copy.path for copy in layout.REALPAGE.copies)


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


def gate_violations(queries, qrels, gates):
    """``[(qid or docid, what)]`` of the queries outside the declared gates: golds (grade n) in ``min_golds`` ..
    ``max_golds``, judged documents at most ``max_union``, subsets (0 < grade < n) at least ``min_subsets``; and
    of the documents gold in more than ``max_gold_queries`` queries.

    >>> from collections import namedtuple
    >>> Q = namedtuple("Q", "n")
    >>> gates = {"min_golds": 1, "max_golds": 2, "max_union": 4, "min_subsets": 2, "max_gold_queries": 1}
    >>> gate_violations({"q": Q(2)}, {"q": {"a": 2, "b": 1, "c": 1}}, gates)
    []
    >>> gate_violations({"q": Q(2)}, {"q": {"a": 2, "b": 1}}, gates)
    [('q', '1 subsets, fewer than 2')]
    >>> gate_violations({"q": Q(2), "r": Q(2)}, {"q": {"a": 2, "b": 1, "c": 1}, "r": {"a": 2, "b": 1, "c": 1}}, gates)
    [('a', 'gold in 2 queries, more than 1')]
    """
    out, gold_in = [], {}
    for qid in sorted(queries):
        grades = qrels.get(qid, {})
        golds = sum(1 for g in grades.values() if g == queries[qid].n)
        union = len(grades)
        if not gates["min_golds"] <= golds <= gates["max_golds"]:
            out.append((qid, "%d golds, outside %d..%d" % (golds, gates["min_golds"], gates["max_golds"])))
        if union > gates["max_union"]:
            out.append((qid, "%d judged documents, more than %d" % (union, gates["max_union"])))
        if union - golds < gates["min_subsets"]:
            out.append((qid, "%d subsets, fewer than %d" % (union - golds, gates["min_subsets"])))
        for docid, grade in grades.items():
            if grade == queries[qid].n:
                gold_in[docid] = gold_in.get(docid, 0) + 1
    out += [(docid, "gold in %d queries, more than %d" % (count, gates["max_gold_queries"]))
            for docid, count in sorted(gold_in.items()) if count > gates["max_gold_queries"]]
    return out


def _gates(inst):
    found = records(inst)
    wrong = gate_violations(found.queries, found.qrels, declared_gates(inst))
    return [Value(CONSTRUCTION.on(layout.REALPAGE.name)(statistic="gate_violations"), len(wrong), source=SOURCE,
                  detail="; ".join("%s: %s" % pair for pair in wrong[:6]))]


def _table1(inst):
    found = records(inst)
    stats = table1(found.queries, found.corpus, found.qrels, found.inventory)
    return [Value(TABLE1.on(layout.REALPAGE.name)(statistic=key), stats[key],
                  source="Table 1 (RealPage, construction qrels)") for key in sorted(stats)]


def _page_hashes(inst):
    sources = inst.release(layout.REALPAGE).page_sources()
    return [Value(CONSTRUCTION.on(layout.REALPAGE.name)(statistic="page_hashes"),
                  sum(len(source.hashes) for source in sources.values()),
                  source=layout.REALPAGE.corpus)]


def _nature(inst):
    """The rows and documents of data/v3 whose ``synthetic`` flag is not false, and MANIFEST.json's nature."""
    problems = []
    for rel in NATURE_ROWS:
        for line, flag in iter_key(inst.path(rel), rel, "synthetic"):
            if flag is not False:
                problems.append("%s:%d: synthetic=%s, expected false (real documents)" % (
                    rel, line, "absent" if flag is ABSENT else json.dumps(flag)))
    for rel in NATURE_OPTIONAL:
        with open_input(inst.path(rel), rel) as handle:
            if b'"synthetic"' not in handle.read():       # the flag nowhere in the file: nothing to decode
                continue
        for line, flag in iter_key(inst.path(rel), rel, "synthetic"):
            if flag is not ABSENT and flag is not False:
                problems.append("%s:%d: synthetic=%s, expected false or absent (real documents)" % (
                    rel, line, json.dumps(flag)))
    for rel in NATURE_RECORDS:
        flag = read_json(inst.path(rel), rel).get("synthetic")
        if flag is not False:
            problems.append("%s: synthetic=%s, expected false" % (rel, json.dumps(flag)))
    declared = (release_manifest(inst).get("natures") or {}).get(layout.V3)
    if declared != NATURE:
        problems.append("MANIFEST.json: natures[%s] is %s, expected %s" % (
            layout.V3, json.dumps(declared), json.dumps(NATURE)))
    return [Value(CONSTRUCTION.on(layout.REALPAGE.name)(statistic="nature_disagreements"), len(problems), source=SOURCE,
                  detail="; ".join(problems[:4]))]


# the counts data/v3/build.json states that its records can give (the others -- texts read, the lexicon, the
# admissible conjunctions, the pairs the audit searched -- come from the packages and are rebuilt by --deep)
STATED_COUNT_INPUTS = CORE + [layout.REALPAGE.build, layout.REALPAGE.systems, layout.REALPAGE.audit_records,
                              layout.REALPAGE.genealogy]


def _stated_counts(inst):
    """``{path in build.json: (stated, found, where found)}`` of every count the records give (a path is the
    tuple of its keys; the removals are stated by reason and compared as their sum)."""
    build = read_json(inst.path(layout.REALPAGE.build), layout.REALPAGE.build)
    audit = [row for _, row in iter_jsonl(inst.path(layout.REALPAGE.audit_records), layout.REALPAGE.audit_records)]
    found = _record_counts(inst)
    found.update(_audit_counts(audit, _stated(build, ("audit", "findings_by_evidence"))))
    out = {".".join(path): (_stated(build, path), number, where) for path, (number, where) in found.items()}
    removed = sum(len(stage.removed_queries) for stage in inst.release(layout.REALPAGE).genealogy().values())
    by_reason = [_stated(build, ("audit", "queries_removed_by_" + why)) for why in ("drop", "gate", "cap")]
    out[REMOVALS] = (sum(by_reason) if all(isinstance(n, int) for n in by_reason) else by_reason, removed,
                     layout.REALPAGE.genealogy)
    return out


REMOVALS = "the audit's removals by drop, gate and cap, summed"


def _record_counts(inst):
    """``{path: (count, file)}`` of the corpus, conditions, inventory, queries, construction copy and systems."""
    r, v3 = records(inst), layout.REALPAGE
    systems = read_json(inst.path(v3.systems), v3.systems)
    kind_of = {cid: c.kind for cid, c in r.conditions.items()}
    return {
        ("counts", "sampled_rfcs"): (len(r.corpus), v3.corpus),
        ("counts", "pages"): (sum(doc.pages for doc in r.corpus.values()), v3.corpus),
        ("counts", "conditions"): (len(r.conditions), v3.conditions),
        ("counts", "inventory_rows"): (len(r.inventory), v3.inventory),
        ("counts", "inventory_rows_by_fact", "defines"): (
            sum(1 for _, cid in r.inventory if kind_of[cid] == "entity"), v3.inventory),
        ("counts", "inventory_rows_by_fact", "section"): (
            sum(1 for _, cid in r.inventory if kind_of[cid] == "section"), v3.inventory),
        ("counts", "queries"): (len(r.queries), v3.queries),
        ("construction", "n_queries_2"): (sum(1 for q in r.queries.values() if q.n == 2), v3.queries),
        ("construction", "n_queries_3"): (sum(1 for q in r.queries.values() if q.n == 3), v3.queries),
        ("counts", "qrel_rows"): (sum(len(g) for g in r.qrels.values()), v3.copies[0].path),
        ("rankings", "systems"): (len(systems.get("systems") or ()), v3.systems),
        ("rankings", "form_systems"): (len(systems.get("form_systems") or ()), v3.systems),
    }


def _audit_counts(audit, stated_kinds):
    """``{path: (count, file)}`` of the audit's findings, repairs and findings by evidence kind (every kind
    stated or found)."""
    where = layout.REALPAGE.audit_records
    kinds = Counter(row.get("evidence") for row in audit)
    out = {("audit", "findings"): (len(audit), where),
           ("audit", "repairs"): (sum(1 for row in audit if row.get("decision") == "repair"), where)}
    for kind in sorted(set(stated_kinds or {}) | set(kinds)):
        out[("audit", "findings_by_evidence", kind)] = (kinds.get(kind, 0), where)
    return out


def _stated(build, path):
    """The value at ``path`` (a tuple of keys) in build.json, None when a key is absent."""
    node = build
    for part in path:
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _count_checks(inst):
    """The counts build.json states, against the records they summarise (issue 58: every stated count checked)."""
    wrong = ["%s: %s states %s, %s gives %s" % (layout.REALPAGE.build, path, json.dumps(stated), where, number)
             for path, (stated, number, where) in sorted(_stated_counts(inst).items()) if stated != number]
    return [Value(CONSTRUCTION.on(layout.REALPAGE.name)(statistic="stated_count_disagreements"), len(wrong),
                  source=SOURCE, detail="; ".join(wrong[:4]))]


def _dense_record(inst):
    """What ``neural.json`` states against the release (docs/schema.md#realpage-datav3): each dense file's SHA-256
    against the file, the queries and pages it counts against the records, its systems against the dense systems
    of systems.json, and its nature flag."""
    v3 = layout.REALPAGE
    record = read_json(inst.path(v3.neural), v3.neural)
    r = records(inst)
    problems = []
    files = record.get("files") if isinstance(record.get("files"), dict) else {}
    for rel, digest in sorted(files.items()):
        path = v3.base + "/" + rel
        found = sha256_file(inst.path(path))[0] if inst.exists(path) else "no such file"
        if found != digest:
            problems.append("%s: files[%s] states sha256 %s, the file has %s" % (v3.neural, rel, digest, found))
    declared = read_json(inst.path(v3.systems), v3.systems).get("systems") or ()
    dense = sorted(s.get("id") for s in declared if isinstance(s, dict) and s.get("family") == DENSE_FAMILY)
    for field, stated, number, where in (
            ("queries", record.get("queries"), len(r.queries), v3.queries),
            ("pages", record.get("pages"), sum(doc.pages for doc in r.corpus.values()), v3.corpus),
            ("systems", sorted(record.get("systems") or ()), dense, v3.systems),
            ("synthetic", record.get("synthetic"), False, "the release's nature")):
        if stated != number:
            problems.append("%s: %s states %s, %s gives %s" % (v3.neural, field, json.dumps(stated)[:80], where,
                                                              json.dumps(number)[:80]))
    if not files:
        problems.append("%s: files lists no dense file" % v3.neural)
    return [Value(CONSTRUCTION.on(v3.name)(statistic="dense_record_disagreements"), len(problems), source=SOURCE,
                  detail="; ".join(problems[:4]))]


def _units(inst):
    if not inst.exists(layout.REALPAGE.corpus):
        return []
    return [
        Unit("verifier", CORE, lambda: verifier_values(inst.release(layout.REALPAGE), SOURCE)),
        Unit("gates", CORE + [layout.REALPAGE.build], lambda: _gates(inst)),
        Unit("table1", CORE, lambda: _table1(inst)),
        Unit("page-hashes", [layout.REALPAGE.corpus], lambda: _page_hashes(inst)),
        Unit("nature", list(NATURE_ROWS + NATURE_OPTIONAL + NATURE_RECORDS), lambda: _nature(inst)),
        Unit("stated-counts", STATED_COUNT_INPUTS, lambda: _count_checks(inst)),
        Unit("forms", [layout.REALPAGE.conditions, layout.REALPAGE.queries],
             lambda: form_disagreements(inst.release(layout.REALPAGE), SOURCE)),
    ] + ([Unit("dense-record", CORE + [layout.REALPAGE.neural, layout.REALPAGE.systems] + DENSE_FILES,
               lambda: _dense_record(inst))] if inst.exists(layout.REALPAGE.neural) else [])


ANALYSES = [Analysis(CONSTRUCTION.analysis_on(layout.REALPAGE.name), "derivation", SOURCE, _units)]
