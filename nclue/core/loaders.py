"""Validating loaders for every released file (docs/schema.md).

Each loader reads one file (named by its path relative to the instrument
root, which is also how errors name it), checks every field, and returns
records from :mod:`nclue.core.records`.  Cross-file checks (a qrel's docid must be a
corpus document, an inventory page must lie inside its document) take the
already-loaded records they depend on.  Loaders never compute metrics.
"""

from __future__ import annotations

import operator
import re
from typing import Any

from . import layout
from .errors import InputError, bounded
from .jsonio import MAX_MAGNITUDE, Row, all_finite_numbers, is_finite_number, iter_jsonl, read_json, show_value
from .records import (
    Condition,
    CopyStage,
    Document,
    InventoryRow,
    PageScoreRow,
    PageSource,
    Query,
    QueryCondition,
    RankingRow,
    Repair,
    System,
    SystemLists,
)

KINDS = ("section", "entity")
FORMS = layout.FORM_KEYS
_QID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
_DOCID = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")
SAFE_ID = re.compile(r"^[A-Za-z0-9_+-][A-Za-z0-9_.+-]{0,99}$")     # a system id: it names a ranking file


def _path(root: str, rel: str) -> str:
    return layout.abspath(root, rel)


_MARKUP = re.compile(r"</?\s*(?:top|num|title|desc|narr|doc|docno|text)\b", re.IGNORECASE)


def _check_plain(row: Row, field: str, value: str) -> str:
    """A display string free of control characters and of TREC topic markup (a query form or a label is
    written into TREC topic files by ``export-qrels``); the error names ``field``."""
    bad = next((ch for ch in value if ord(ch) < 32 or 127 <= ord(ch) < 160 or ch in "\u2028\u2029"), None)
    if bad is not None:
        raise row.error(field, "contains the control character U+%04X" % ord(bad))
    markup = _MARKUP.search(value)
    if markup:
        raise row.error(field, "contains TREC markup %s (a topic file would break)" % show_value(markup.group(0)))
    return value


def _plain_text(row: Row, field: str) -> str:
    """A non-empty string field checked by :func:`_check_plain`."""
    return _check_plain(row, field, row.str(field))


def _ident(row: Row, field: str, pattern: re.Pattern[str]) -> str:
    value = row.str(field)
    if not pattern.match(value):
        raise row.error(field, "not a valid identifier: %r" % value)
    return value


def load_conditions(root: str, rel: str) -> dict[str, Any]:
    out = {}
    for line, obj in iter_jsonl(_path(root, rel), rel):
        row = Row(obj, rel, line)
        cid = _ident(row, "cid", _QID)
        if cid in out:
            raise row.error("cid", "duplicate condition %r" % cid)
        aliases = row.list("aliases", required=False) or []
        if not all(isinstance(a, str) and a for a in aliases):
            raise row.error("aliases", "must be a list of non-empty strings")
        out[cid] = Condition(cid, row.str("kind", choices=KINDS), _plain_text(row, "label"), tuple(aliases),
                             row.str("topic", required=False) or "")
    if not out:
        raise InputError(rel, "no conditions (an absent catalog is allowed; an empty one is not)")
    return out


def load_corpus(root: str, rel: str) -> dict[str, Any]:
    out = {}
    for line, obj in iter_jsonl(_path(root, rel), rel):
        row = Row(obj, rel, line)
        docid = _ident(row, "docid", _DOCID)
        if docid in out:
            raise row.error("docid", "duplicate document %r" % docid)
        out[docid] = Document(docid, row.str("source"), row.int("pages", 1, 100000), row.bool("synthetic"),
                              row.str("topic", required=False) or "", row.str("title", required=False) or "")
    if not out:
        raise InputError(rel, "no documents")
    return out


_SHA256 = re.compile(r"^[0-9a-f]{64}$")


def load_page_sources(root: str, rel: str, corpus: dict[str, Any]) -> dict[str, Any]:
    """``{docid: PageSource(package, (page SHA-256, ...))}`` of a corpus that records where its pages come from
    and their hashes (``data/v3/corpus.jsonl``, docs/schema.md#realpage-datav3): ``package`` names the package
    that holds the document's text, ``page_sha256`` lists one lower-case hex SHA-256 per page, in page order.
    ``corpus`` is the same file already loaded by :func:`load_corpus`."""
    out = {}
    for line, obj in iter_jsonl(_path(root, rel), rel):
        row = Row(obj, rel, line)
        docid = row.str("docid")
        package = row.str("package")
        if not SAFE_ID.match(package):
            raise row.error("package", "must be a package name (letters, digits, '-', '.', '+', '_'), got %s" %
                            show_value(package))
        hashes = row.list("page_sha256")
        if len(hashes) != corpus[docid].pages:
            raise row.error("page_sha256", "lists %d hashes for %d pages" % (len(hashes), corpus[docid].pages))
        for i, digest in enumerate(hashes):
            if not isinstance(digest, str) or not _SHA256.match(digest):
                raise row.error("page_sha256[%d]" % i, "must be 64 lower-case hex digits, got %s" % show_value(digest))
        out[docid] = PageSource(package, tuple(hashes))
    return out


def load_inventory(root: str, rel: str, corpus: dict[str, Any],
                   conditions: dict[str, Any] | None = None) -> dict[Any, Any]:
    """Inventory rows keyed ``(docid, cid)``; pages sorted, distinct, inside the document."""
    out = {}
    for line, obj in iter_jsonl(_path(root, rel), rel):
        row = Row(obj, rel, line)
        docid = row.str("docid")
        if docid not in corpus:
            raise row.error("docid", "unknown document %r (not in corpus)" % docid)
        cid = row.str("cid")
        if conditions is not None and cid not in conditions:
            raise row.error("cid", "unknown condition %r" % cid)
        pages = row.list("pages")
        if not pages:
            raise row.error("pages", "must be a non-empty list")
        last = 0
        for p in pages:
            if not isinstance(p, int) or isinstance(p, bool):
                raise row.error("pages", "page IDs must be integers, got %r" % (p,))
            if not 1 <= p <= corpus[docid].pages:
                raise row.error("pages", "page %d outside %s (1..%d)" % (p, docid, corpus[docid].pages))
            if p <= last:
                raise row.error("pages", "page IDs must be strictly increasing")
            last = p
        if (docid, cid) in out:
            raise row.error("cid", "duplicate inventory row for (%s, %s)" % (docid, cid))
        out[(docid, cid)] = InventoryRow(docid, cid, tuple(pages))
    return out


def load_queries(root: str, rel: str, conditions: dict[str, Any] | None = None,
                 require_source: bool = False) -> dict[str, Any]:
    out = {}
    for line, obj in iter_jsonl(_path(root, rel), rel):
        row = Row(obj, rel, line)
        qid = _ident(row, "qid", _QID)
        if qid in out:
            raise row.error("qid", "duplicate query %r" % qid)
        n = row.int("n", 2, 3)
        conds_raw = row.list("conditions")
        if len(conds_raw) != n:
            raise row.error("conditions", "has %d conditions but n = %d" % (len(conds_raw), n))
        conds, seen = [], set()
        for i, c in enumerate(conds_raw):
            field = "conditions[%d]" % i
            if not isinstance(c, dict):
                raise row.error(field, "must be an object")
            sub = Row(c, rel, line)
            try:
                cid = sub.str("cid")
                kind = sub.str("kind", choices=KINDS)
                label = _plain_text(sub, "label")
            except InputError as exc:
                raise row.error("%s.%s" % (field, exc.field), exc.message) from exc
            if cid in seen:
                raise row.error(field + ".cid", "condition %r repeated in the query" % cid)
            seen.add(cid)
            if conditions is not None:
                if cid not in conditions:
                    raise row.error(field + ".cid", "unknown condition %r" % cid)
                if conditions[cid].kind != kind:
                    raise row.error(field + ".kind", "is %r but the catalog says %r" % (kind, conditions[cid].kind))
                if conditions[cid].label != label:
                    raise row.error(field + ".label", "is %r but the catalog says %r" % (label, conditions[cid].label))
            conds.append(QueryCondition(cid, kind, label))
        forms_obj = row.dict("forms")
        forms = {}
        for form in FORMS:
            value = forms_obj.get(form)
            if not isinstance(value, str) or not value.strip():
                raise row.error("forms." + form, "must be a non-empty string")
            forms[form] = _check_plain(row, "forms." + form, value)
        out[qid] = Query(qid, n, tuple(conds), forms, row.str("source", required=require_source) or "")
    if not out:
        raise InputError(rel, "no queries")
    return out


def _query_doc(row: Row, queries: dict[str, Any], corpus: dict[str, Any]) -> tuple[Any, ...]:
    """A row's ``qid`` and ``docid``, each required to be a known query / corpus document."""
    qid = row.str("qid")
    if qid not in queries:
        raise row.unknown_query(qid)
    docid = row.str("docid")
    if docid not in corpus:
        raise row.error("docid", "unknown document %r (not in corpus)" % docid)
    return qid, docid


def load_qrels(root: str, rel: str, queries: dict[str, Any], corpus: dict[str, Any]) -> dict[str, Any]:
    """Qrels as ``{qid: {docid: grade}}``; grade in 1..n; no duplicate pairs."""
    out: dict[str, dict[str, int]] = {qid: {} for qid in queries}
    for line, obj in iter_jsonl(_path(root, rel), rel):
        row = Row(obj, rel, line)
        qid, docid = _query_doc(row, queries, corpus)
        grade = row.int("grade", 1, queries[qid].n)
        if docid in out[qid]:
            raise row.error("docid", "duplicate qrel for (%s, %s)" % (qid, docid))
        out[qid][docid] = grade
    if not any(out.values()):
        raise InputError(rel, "no qrel rows (a qrel copy lists at least one judged pair)")
    return out


def load_genealogy(root: str, rel: str, queries: dict[str, Any], declared: tuple[Any, ...]) -> dict[str, Any]:
    """A release's ``genealogy.json``: its qrel copies in the order of ``declared`` (:attr:`layout.Release.copies`
    of the release), each with its file, parent, decisions file, the queries removed at that
    stage (known, distinct, not removed before) and its declared counts.  Whether the counts and removals
    are right is the derivation level's question (``v1.genealogy``, ``v2.genealogy``); this checks the
    shape.  Returns ``{copy: CopyStage}``."""
    obj = read_json(_path(root, rel), rel)
    copies = obj.get("copies")
    if not isinstance(copies, list):
        raise InputError(rel, "must be a list of qrel copies", field="copies")
    if len(copies) != len(declared):
        raise InputError(rel, "lists %d copies; expected %d (%s)" % (
            len(copies), len(declared), ", ".join(c.name for c in declared)), field="copies")
    out, removed_before = {}, set()
    for i, (entry, want) in enumerate(zip(copies, declared)):
        where = "copies[%d]" % i
        if not isinstance(entry, dict):
            raise InputError(rel, "must be an object", field=where)
        row = Row(entry, rel, None)
        try:
            for field, expected in (("copy", want.name), ("file", want.path), ("from", want.parent),
                                    ("decisions", want.decisions)):
                found = row.get(field)
                if found != expected:
                    raise row.error(field, "expected %s, found %s" % (show_value(expected), show_value(found)))
            removed = row.list("removed_queries")
            for j, qid in enumerate(removed):
                if not isinstance(qid, str) or qid not in queries:
                    raise row.error("removed_queries[%d]" % j, "unknown query %s" % show_value(qid))
                if qid in removed_before or removed.index(qid) != j:
                    raise row.error("removed_queries[%d]" % j, "query %s removed twice" % qid)
            removed_before.update(removed)
            stage = CopyStage(want.name, want.path, want.parent, want.decisions, tuple(removed),
                              row.int("queries", 0, len(queries)), row.int("rows", 0, 10 ** 9),
                              row.int("grades_changed", 0, 10 ** 9))
        except InputError as exc:
            raise InputError(rel, exc.message, field="%s.%s" % (where, exc.field)) from exc
        out[want.name] = stage
    return out


def load_repairs(root: str, rel: str, queries: dict[str, Any], corpus: dict[str, Any],
                 qrels: dict[str, Any]) -> dict[Any, Any]:
    """``repairs.jsonl``: one row per changed pair; ``grade_before`` must be the grade of ``qrels`` (the
    construction copy; 0 when the pair has no qrel row), ``grade_after`` differs from it; both in 0..n."""
    out = {}
    for line, obj in iter_jsonl(_path(root, rel), rel):
        row = Row(obj, rel, line)
        qid, docid = _query_doc(row, queries, corpus)
        n = queries[qid].n
        before, after = row.int("grade_before", 0, n), row.int("grade_after", 0, n)
        if before != qrels.get(qid, {}).get(docid, 0):
            raise row.error("grade_before", "is %d but the construction copy gives %d" % (
                before, qrels.get(qid, {}).get(docid, 0)))
        if after == before:
            raise row.error("grade_after", "equals grade_before: not a repair")
        if (qid, docid) in out:
            raise row.error("docid", "duplicate repair for (%s, %s)" % (qid, docid))
        out[(qid, docid)] = Repair(qid, docid, before, after)
    return out


def _distinct_known(docids: list[Any], corpus: dict[str, Any]) -> bool:
    """True when ``docids`` are distinct IDs of ``corpus`` (its keys are strings; one set comparison)."""
    try:
        ids = set(docids)
    except TypeError:           # an unhashable entry (a list or an object): the slow path names it
        return False
    return len(ids) == len(docids) and ids <= (corpus.keys() if isinstance(corpus, dict) else corpus)


def _check_docids(row: Row, docids: list[Any], corpus: dict[str, Any]) -> None:
    """A ranking row's documents: distinct and known (the fast path is one set comparison; the loop only
    runs to name the first defect)."""
    if _distinct_known(docids, corpus):
        return
    seen = set()
    for i, d in enumerate(docids):
        if not isinstance(d, str) or d not in corpus:
            raise row.error("docids[%d]" % i, "unknown document %r" % (d,))
        if d in seen:
            raise row.error("docids[%d]" % i, "document %r ranked twice" % d)
        seen.add(d)


def _ranking_scores(row: Row, scores: list[Any]) -> list[Any]:
    """A ranking row's scores as floats: finite and non-increasing in file order (fast path in C; the loop
    only runs to name the first defect)."""
    if all_finite_numbers(scores) and all(map(operator.ge, scores, scores[1:])):
        return list(map(float, scores))
    vals: list[Any] = []
    for i, x in enumerate(scores):
        if not is_finite_number(x):
            raise row.error("scores[%d]" % i, "must be a finite number (|x| <= %g), got %s" % (
                MAX_MAGNITUDE, show_value(x)))
        if vals and x > vals[-1]:
            raise row.error("scores[%d]" % i, "scores must be non-increasing in file order")
        vals.append(float(x))
    return vals


def load_ranking(root: str, rel: str, queries: dict[str, Any], corpus: dict[str, Any], depth: int = 10,
                 text: None = None, complete: bool = True) -> dict[str, Any]:
    """One ranking file: every query at most once (and, ``complete``, every query: a released ranking), at most
    ``depth`` distinct known docs, scores as many as docids and non-increasing (file order is the ranking).
    ``text``: the file's decoded contents when the caller read them (a run given to ``score``, perhaps
    decompressed); ``rel`` names it.  A run a user gives (``complete`` false) may leave queries out: an absent
    query is an empty list, as in a TREC run (docs/usage.md#run-formats)."""
    out = {}
    for line, obj in iter_jsonl(None if text is not None else _path(root, rel), rel, text=text):
        row = Row(obj, rel, line)
        qid = row.str("qid")
        if qid not in queries:
            raise row.unknown_query(qid)
        if qid in out:
            raise row.error("qid", "duplicate ranking row for %r" % qid)
        docids = row.list("docids")
        scores = row.list("scores")
        if len(docids) > depth:
            raise row.error("docids", "has %d entries; at most %d expected" % (len(docids), depth))
        if len(scores) != len(docids):
            raise row.error("scores", "has %d entries for %d docids" % (len(scores), len(docids)))
        _check_docids(row, docids, corpus)
        out[qid] = RankingRow(qid, tuple(docids), tuple(_ranking_scores(row, scores)))
    missing = [q for q in queries if q not in out] if complete else []
    if missing:
        raise InputError(rel, "%d queries have no ranking row (first: %s)" % (len(missing), sorted(missing)[0]))
    return out


def load_page_scores(root: str, rel: str, queries: dict[str, Any], corpus: dict[str, Any],
                     ranking: dict[str, Any] | None = None) -> dict[Any, Any]:
    """Page-score rows ``{(qid, docid): PageScoreRow}``; with ``ranking`` (the system's
    ``{qid: RankingRow}``), exactly one row for each ranked document of each query."""
    out = {}
    for line, obj in iter_jsonl(_path(root, rel), rel):
        row = Row(obj, rel, line)
        qid = row.str("qid")
        if qid not in queries:
            raise row.unknown_query(qid)
        docid = row.str("docid")
        if docid not in corpus:
            raise row.error("docid", "unknown document %r" % docid)
        if (qid, docid) in out:
            raise row.error("docid", "duplicate page-score row for (%s, %s)" % (qid, docid))
        pages = []
        last = None
        for i, item in enumerate(row.list("pages")):
            if (not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int
                    or not is_finite_number(item[1])):
                raise row.error("pages[%d]" % i, "must be [page, score] with an integer page and a finite score")
            if not 1 <= item[0] <= corpus[docid].pages:
                raise row.error("pages[%d]" % i, "page %d outside %s" % (item[0], docid))
            if last is not None and item[1] > last:
                raise row.error("pages[%d]" % i, "pages must be listed best first")
            last = item[1]
            pages.append((item[0], float(item[1])))
        if ranking is not None and docid not in ranking[qid].docids:
            raise row.error("docid", "%s is not ranked for %s by the system's ranking" % (docid, qid))
        out[(qid, docid)] = PageScoreRow(qid, docid, tuple(pages))
    if ranking is not None:
        for qid in sorted(ranking):
            for docid in ranking[qid].docids:
                if (qid, docid) not in out:
                    raise InputError(rel, "no page-score row for (%s, %s), which the system ranks" % (qid, docid))
    return out


def load_systems(root: str, rel: str) -> tuple[Any, ...]:
    obj = read_json(_path(root, rel), rel)
    systems = {}
    entries = obj.get("systems")
    if not isinstance(entries, list):
        raise InputError(rel, "must have a list 'systems'", field="systems")
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise InputError(rel, "must be an object", field="systems[%d]" % i)
        row = Row(entry, rel + " systems[%d]" % i, None)
        sid = row.str("id")
        if not SAFE_ID.match(sid):
            raise row.error("id", "system id %s is not a safe id (letters, digits, '_', '.', '+', '-'; at most 100 "
                            "characters, not starting with '.'): it names a ranking file" % bounded(repr(sid), 60))
        if sid in systems:
            raise row.error("id", "duplicate system %r" % sid)
        base = row.get("base", required=False)
        if base is not None and not isinstance(base, str):
            raise row.error("base", "must be a system id or null")
        systems[sid] = System(sid, row.str("family"), row.str("block"), row.str("operation"), base,
                              row.bool("fair"), row.str("description"), bool(row.bool("page_scored", required=False)))
    for sid, system in systems.items():
        if system.base is not None and system.base not in systems:
            raise InputError(rel, "system %r names unknown base %r" % (sid, system.base), field="base")
    return systems, _systems_lists(obj, rel, systems)


def _systems_lists(obj: dict[str, Any], rel: str, systems: dict[str, Any]) -> SystemLists:
    """systems.json's lists beside its systems (:class:`~nclue.core.records.SystemLists`), each checked once:
    every id they name is a listed system."""
    blocked = obj.get("blocked", [])
    if not isinstance(blocked, list) or not all(isinstance(b, dict) and isinstance(b.get("id"), str) and
                                                isinstance(b.get("reason"), str) for b in blocked):
        raise InputError(rel, "must be a list of {id, reason}", field="blocked")
    listed = _form_systems(obj, rel, systems)
    for field in ("contrasts", "source_shift_contrasts", "directions"):
        entries = obj.get(field, [])
        if not isinstance(entries, list) or not all(isinstance(x, dict) for x in entries):
            raise InputError(rel, "must be a list of objects", field=field)
    return SystemLists(blocked, list(listed), _blocks(obj, rel, systems),
                       _pairs(obj, rel, systems, "source_shift_contrasts"), _pairs(obj, rel, systems, "directions"))


def _form_systems(obj: dict[str, Any], rel: str, systems: dict[str, Any]) -> list[Any]:
    """``form_systems``: the query-form systems, each a listed system, none named twice."""
    listed = obj.get("form_systems", [])
    if not isinstance(listed, list) or not all(isinstance(x, str) for x in listed):
        raise InputError(rel, "must be a list of the ids of listed systems", field="form_systems")
    unknown = sorted(x for x in listed if x not in systems)
    if unknown:
        raise InputError(rel, "must be a list of the ids of listed systems; not listed: %s" % ", ".join(
            bounded(repr(x), 80) for x in unknown[:3]), field="form_systems")
    twice = sorted({x for x in listed if listed.count(x) > 1})
    if twice:
        raise InputError(rel, "lists %s more than once" % ", ".join(repr(x) for x in twice[:3]), field="form_systems")
    return listed


def _blocks(obj: dict[str, Any], rel: str, systems: dict[str, Any]) -> list[Any]:
    """``contrasts``: the controlled blocks ``{block, base, variants}``, every system listed."""
    out = []
    for i, b in enumerate(obj.get("contrasts", [])):
        field = "contrasts[%d]" % i
        if not isinstance(b.get("block"), str) or not isinstance(b.get("variants"), list):
            raise InputError(rel, "must be {block, base, variants}", field=field)
        for sid in [b.get("base")] + b["variants"]:
            if not isinstance(sid, str) or sid not in systems:
                raise InputError(rel, "unknown system %s" % bounded(repr(sid), 80), field=field)
        _plays(b, rel, field)
        out.append(b)
    return out


def _plays(block: dict[str, Any], rel: str, field: str) -> None:
    """A block's optional ``plays``: ``[{row, variant}]``, the paper's Table 5 rows it replicates, each with one of
    the block's variants, no row twice (docs/schema.md#realpage-datav3)."""
    plays = block.get("plays", [])
    if not isinstance(plays, list):
        raise InputError(rel, "expected a list of {row, variant}, found %s" % type(plays).__name__,
                         field=field + ".plays")
    rows = set()
    for k, entry in enumerate(plays):
        where = "%s.plays[%d]" % (field, k)
        if not isinstance(entry, dict) or not isinstance(entry.get("row"), str) or \
                not isinstance(entry.get("variant"), str):
            raise InputError(rel, "expected {row, variant}, both strings", field=where)
        if entry["variant"] not in block["variants"]:
            raise InputError(rel, "variant %s is not one of the block's variants" % bounded(repr(entry["variant"]), 80),
                             field=where)
        if entry["row"] in rows:
            raise InputError(rel, "row %s is played twice" % bounded(repr(entry["row"]), 80), field=where)
        rows.add(entry["row"])


def _pairs(obj: dict[str, Any], rel: str, systems: dict[str, Any], field: str) -> list[Any]:
    """A list of ``{id, variant, base}`` (SourceShift's contrasts, Table 7's directions), every system listed."""
    out = []
    for i, c in enumerate(obj.get(field, [])):
        where = "%s[%d]" % (field, i)
        if not all(isinstance(c.get(k), str) for k in ("id", "variant", "base")):
            raise InputError(rel, "must be {id, variant, base}", field=where)
        for k in ("variant", "base"):
            if c[k] not in systems:
                raise InputError(rel, "unknown system %s" % bounded(repr(c[k]), 80), field=where)
        out.append(c)
    return out
