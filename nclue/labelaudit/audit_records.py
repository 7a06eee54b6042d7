"""Validating loaders for the label-audit records (``data/audit/``; supplement section 10).

Files (JSON Lines unless said; every row ``synthetic`` in the stand-in):

* ``key.jsonl`` -- the administrator key: ``pair``, ``release`` (v1/v2),
  ``source``, ``stratum`` (gold/subset), ``frame``, ``qid``, ``docid``, ``n``,
  ``grade_before`` (the pair's grade in the release's initial qrel copy);
* ``packet.jsonl`` -- what evaluators saw: ``pair``, ``release``, ``docid``,
  ``n``, ``conditions`` (``cid``, ``label``, ``shown`` page list);
* ``pages.jsonl`` -- the text of every displayed page: ``release``,
  ``docid``, ``page``, ``text``;
* ``initial.jsonl`` -- one row per pair and initial responder: ``pair``,
  ``responder``, ``answers`` (per condition, in packet order: ``cid``,
  ``positive``, ``pages``, ``quote``);
* ``queue.jsonl`` -- the expanded-page adjudication queue: ``pair``, ``cid``,
  ``pool`` (the 6-9 pages shown), ``candidates`` (``{route: [pages]}`` for the
  routes of :mod:`nclue.labelaudit.pool`);
* ``adjudication.jsonl`` -- one row per queued condition and responder:
  ``pair``, ``cid``, ``responder``, ``positive``, ``pages``, ``quote``;
* ``condition_decisions.jsonl`` -- one row per queued condition: ``pair``,
  ``cid``, ``votes_positive`` (adjudication answers that are positive and pass
  the quote gate), ``majority``, ``override`` (null, or the administrative
  decision), ``override_pages``, ``reason``, ``final``;
* ``pool_recall.jsonl`` -- the held-out recall check: one row per locked
  positive condition of a queued pair: ``pair``, ``cid``, ``candidates`` (no
  ``prior_selected``), ``pool`` (up to 9 pages, ranked), ``submitted`` (the
  pages the initial evaluators selected);
* ``decisions.jsonl`` -- the final decision per pair: ``pair``,
  ``grade_before``, ``grade_after``, ``route``.

Cross-file checks name the file, line and field: the key must agree with the
release's queries, corpus and initial qrels; packet conditions must be the
query's; every pair has both initial responders and every queued condition
three adjudication responses.  A page referenced but absent from
``pages.jsonl`` is not an error here: the quote gate fails that answer.
"""

import re

from ..core import layout
from ..core.errors import InputError
from ..core.jsonio import Row, iter_jsonl
from .pool import ROUTES as POOL_ROUTES
from .rules import Answer

FILES = ("key", "packet", "pages", "initial", "queue", "adjudication", "condition_decisions", "pool_recall",
         "decisions")
ROUTES = ("keep", "accept-increase", "adjudicated")
_PAIR = re.compile(r"^[A-Za-z0-9_.:-]{1,32}$")


def path_of(name):
    return layout.audit_records_path(name)


class Pair:
    """One audited query-document pair with everything recorded about it."""

    __slots__ = ("pair", "release", "source", "stratum", "qid", "docid", "n", "grade_before", "cids",
                 "labels", "shown", "initial", "queue", "candidates", "adjudication", "condition_decisions",
                 "recall", "decision")

    def __init__(self, pair, release, source, stratum, qid, docid, n, grade_before):
        self.pair, self.release, self.source, self.stratum = pair, release, source, stratum
        self.qid, self.docid, self.n, self.grade_before = qid, docid, n, grade_before
        self.cids, self.labels, self.shown = (), (), ()
        self.initial = {}          # responder -> [Answer] in condition order
        self.queue = {}            # cid -> pool pages
        self.candidates = {}       # cid -> {route: [pages]} behind the pool
        self.adjudication = {}     # cid -> {responder: Answer}
        self.condition_decisions = {}   # cid -> ConditionDecision
        self.recall = {}           # cid -> (candidates, pool, submitted) of the held-out check
        self.decision = None       # (grade_after, route)


class ConditionDecision:
    __slots__ = ("votes_positive", "majority", "override", "override_pages", "reason", "final", "line")

    def __init__(self, votes_positive, majority, override, override_pages, reason, final, line):
        self.votes_positive, self.majority, self.override = votes_positive, majority, override
        self.override_pages, self.reason, self.final, self.line = override_pages, reason, final, line


def _candidates(row, field, n_pages, allowed):
    obj = row.get(field)
    if not isinstance(obj, dict):
        raise row.error(field, "must be an object {route: [pages]}")
    out = {}
    for route in sorted(obj):
        if route not in allowed:
            raise row.error("%s.%s" % (field, route), "unknown route (expected one of %s)" % ", ".join(allowed))
        sub = Row(obj, row.where, row.line)
        try:
            out[route] = _pages_list(sub, route, n_pages, False)
        except InputError as exc:
            raise row.error("%s.%s" % (field, exc.field), exc.message) from exc
    return out


class AuditRecords:
    def __init__(self, pairs, pages, initial_responders, adjudication_responders):
        self.pairs = pairs                         # pair id -> Pair, in file order
        self.pages = pages                         # (release, docid, page) -> text
        self.initial_responders = initial_responders
        self.adjudication_responders = adjudication_responders

    def text(self, release, docid):
        pages = self.pages
        return lambda page: pages.get((release, docid, page))


def _pages_list(row, field, n_pages, nonempty):
    pages = row.list(field)
    if nonempty and not pages:
        raise row.error(field, "must be a non-empty list")
    seen = set()
    for p in pages:
        if not isinstance(p, int) or isinstance(p, bool) or not 1 <= p <= n_pages:
            raise row.error(field, "page %r outside the document (1..%d)" % (p, n_pages))
        if p in seen:
            raise row.error(field, "page %d repeated" % p)
        seen.add(p)
    return tuple(pages)


def packet_conditions(row, query, pages_field, n_pages):
    """``(cids, labels, page lists)`` of a packet row's ``conditions``: one object per condition of
    ``query``, in its order, each with ``cid``, ``label`` and a non-empty page list ``pages_field``."""
    conds = row.list("conditions")
    want = [c.cid for c in query.conditions]
    if len(conds) != len(want):
        raise row.error("conditions", "has %d conditions but query %s has %d" % (len(conds), query.qid, len(want)))
    cids, labels, pages = [], [], []
    for i, c in enumerate(conds):
        if not isinstance(c, dict):
            raise row.error("conditions[%d]" % i, "must be an object")
        sub = Row(c, row.where, row.line)
        try:
            cid = sub.str("cid")
            if cid != want[i]:
                raise sub.error("cid", "is %r but condition %d of %s is %r" % (cid, i + 1, query.qid, want[i]))
            labels.append(sub.str("label"))
            pages.append(_pages_list(sub, pages_field, n_pages, True))
        except InputError as exc:
            raise row.error("conditions[%d].%s" % (i, exc.field), exc.message) from exc
        cids.append(cid)
    return tuple(cids), tuple(labels), tuple(pages)


def condition_of(row, p, taken, what):
    """The ``cid`` of a per-condition record of pair ``p``: one of the pair's conditions, not already in
    ``taken`` (the records of this kind so far; ``what`` names the repetition in the message)."""
    cid = row.str("cid")
    if cid not in p.cids:
        raise row.error("cid", "pair %s has no condition %r" % (p.pair, cid))
    if cid in taken:
        raise row.error("cid", "condition %s of pair %s %s twice" % (cid, p.pair, what))
    return cid


def answers_list(row, pair, cids, n_pages, shown):
    """A row's ``answers``: one answer object per condition, in the packet's order (``cids``), each
    validated against the pages that condition's evaluator was shown (``shown[i]``)."""
    answers = row.list("answers")
    if len(answers) != len(cids):
        raise row.error("answers", "has %d answers but pair %s has %d conditions" % (len(answers), pair, len(cids)))
    out = []
    for i, obj in enumerate(answers):
        if isinstance(obj, dict) and obj.get("cid") != cids[i]:
            raise row.error("answers[%d].cid" % i, "is %r but condition %d is %r" % (obj.get("cid"), i + 1, cids[i]))
        out.append(_answer(row, obj, "answers[%d]" % i, n_pages, shown[i]))
    return out


def _answer(row, obj, field, n_pages, shown):
    sub = Row(obj, row.where, row.line) if isinstance(obj, dict) else None
    if sub is None:
        raise row.error(field, "must be an object")
    try:
        positive = sub.bool("positive")
        pages = _pages_list(sub, "pages", n_pages, False)
        quote = sub.get("quote")
        if not isinstance(quote, str):
            raise sub.error("quote", "must be a string")
    except InputError as exc:
        raise row.error("%s.%s" % (field, exc.field) if field else exc.field, exc.message) from exc
    return Answer(positive, pages, quote, shown)


def load_for(inst):
    """All audit records of an instrument's root, validated against both releases' construction copies (the
    copies the packet was sampled from): :func:`load` with each release's queries, corpus and copy."""
    v1, v2 = inst.release(layout.CROSSPAGE), inst.release(layout.SOURCESHIFT)
    return load(inst.root, {part.spec.name: (part.queries(), part.corpus(), part.qrels(part.copies()[0]),
                                                part.copies()[0].path) for part in (v1, v2)})


class RecordLoading:
    """What per-file loaders of audit records share while a set of files is read in order (this module's
    and :mod:`nclue.labelaudit.challenge_records`): the root, the pairs of the key file named ``key``,
    and the rows of one file."""

    def __init__(self, root, key):
        self.root, self.key, self.pairs = root, key, {}

    def rows(self, name):
        rel = layout.audit_records_path(name)
        for line, obj in iter_jsonl(layout.abspath(self.root, rel), rel):
            yield Row(obj, rel, line)

    def pair_of(self, row, field="pair"):
        pid = row.str(field)
        if pid not in self.pairs:
            raise row.error(field, "unknown pair %r (not in %s)" % (pid, layout.audit_records_path(self.key)))
        return self.pairs[pid]


class _Loading(RecordLoading):
    """The label audit's loading state: also the releases the records are checked against."""

    def __init__(self, root, releases):
        super().__init__(root, "key")
        self.releases = releases

    def n_pages(self, pair):
        return self.releases[pair.release][1][pair.docid].pages


def _load_key(loading):
    """``key.jsonl``: one row per audited pair, checked against its release's query, document, n, the grade
    the initial copy gives it, its stratum and the document's source."""
    releases, pairs = loading.releases, loading.pairs
    audited = {}                # (release, qid, docid) -> the pair that audits it
    for row in loading.rows("key"):
        pid = row.str("pair")
        if not _PAIR.match(pid):
            raise row.error("pair", "not a valid pair identifier: %r" % pid)
        if pid in pairs:
            raise row.error("pair", "duplicate pair %r" % pid)
        release = row.str("release", choices=tuple(sorted(releases)))
        queries, corpus, qrels = releases[release][:3]
        qrels_path = releases[release][3] if len(releases[release]) > 3 else "the initial %s qrels" % release
        qid, docid = row.str("qid"), row.str("docid")
        twice = audited.get((release, qid, docid))
        if twice is not None:
            raise row.error("pair", "pair %s audits %s / %s / %s, which pair %s already audits (a pair is audited "
                            "once)" % (pid, release, qid, docid, twice))
        if qid not in queries:
            raise row.error("qid", "unknown %s query %r" % (release, qid))
        if docid not in corpus:
            raise row.error("docid", "unknown %s document %r" % (release, docid))
        n = row.int("n", 2, 3)
        if n != queries[qid].n:
            raise row.error("n", "is %d but query %s has n = %d" % (n, qid, queries[qid].n))
        g0 = row.int("grade_before", 0, n)
        released = qrels.get(qid, {}).get(docid, 0)
        if g0 != released:
            raise row.error("grade_before", "is %d but %s gives %d" % (g0, qrels_path, released))
        stratum = row.str("stratum", choices=("gold", "subset"))
        if (stratum == "gold") != (g0 == n):
            raise row.error("stratum", "is %r but the grade before is %d of %d" % (stratum, g0, n))
        source = row.str("source")
        if source != corpus[docid].source:
            raise row.error("source", "is %r but %s is from %r" % (source, docid, corpus[docid].source))
        pairs[pid] = Pair(pid, release, source, stratum, qid, docid, n, g0)
        audited[(release, qid, docid)] = pid
    if not pairs:
        raise InputError(path_of("key"), "no audited pairs")


def _load_packet(loading):
    """``packet.jsonl``: each pair's conditions and the pages shown, once per pair of the key."""
    seen = set()
    for row in loading.rows("packet"):
        p = loading.pair_of(row)
        if p.pair in seen:
            raise row.error("pair", "pair %r repeated" % p.pair)
        seen.add(p.pair)
        if row.str("release") != p.release or row.str("docid") != p.docid:
            raise row.error("docid", "does not match the key for pair %s" % p.pair)
        p.cids, p.labels, p.shown = packet_conditions(row, loading.releases[p.release][0][p.qid], "shown",
                                                      loading.n_pages(p))
    missing = [pid for pid in loading.pairs if pid not in seen]
    if missing:
        raise InputError(path_of("packet"), "pair %s of the key has no packet row" % missing[0])


def _load_pages(loading):
    """``pages.jsonl``: the text of every page shown, by (release, document, page), each once."""
    pages = {}
    for row in loading.rows("pages"):
        release = row.str("release", choices=tuple(sorted(loading.releases)))
        docid = row.str("docid")
        corpus = loading.releases[release][1]
        if docid not in corpus:
            raise row.error("docid", "unknown %s document %r" % (release, docid))
        page = row.int("page", 1, corpus[docid].pages)
        text = row.get("text")
        if not isinstance(text, str):
            raise row.error("text", "must be a string")
        if (release, docid, page) in pages:
            raise row.error("page", "page %d of %s repeated" % (page, docid))
        pages[(release, docid, page)] = text
    return pages


def _load_initial(loading):
    """``initial.jsonl``: exactly two initial responders, each answering every pair once; their names."""
    initial_names = set()
    for row in loading.rows("initial"):
        p = loading.pair_of(row)
        who = row.str("responder")
        if who in p.initial:
            raise row.error("responder", "responder %s repeated for pair %s" % (who, p.pair))
        p.initial[who] = answers_list(row, p.pair, p.cids, loading.n_pages(p), p.shown)
        initial_names.add(who)
    names = tuple(sorted(initial_names))
    if len(names) != 2:
        raise InputError(path_of("initial"), "needs exactly two initial responders, found %s" % (list(names),))
    for p in loading.pairs.values():
        if tuple(sorted(p.initial)) != names:
            raise InputError(path_of("initial"), "pair %s lacks a response from %s" % (
                p.pair, ", ".join(n for n in names if n not in p.initial)))
    return names


def _load_queue(loading):
    """``queue.jsonl``: the queued conditions of each pair with their page pools and candidates."""
    for row in loading.rows("queue"):
        p = loading.pair_of(row)
        cid = condition_of(row, p, p.queue, "queued")
        p.queue[cid] = _pages_list(row, "pool", loading.n_pages(p), True)
        p.candidates[cid] = _candidates(row, "candidates", loading.n_pages(p), POOL_ROUTES)


def _load_adjudication(loading):
    """``adjudication.jsonl``: three responders (or none) answering every queued condition once; their names."""
    adj_names = set()
    for row in loading.rows("adjudication"):
        p = loading.pair_of(row)
        cid = row.str("cid")
        if cid not in p.queue:
            raise row.error("cid", "condition %s of pair %s is not in the adjudication queue (%s)" % (
                cid, p.pair, path_of("queue")))
        who = row.str("responder")
        got = p.adjudication.setdefault(cid, {})
        if who in got:
            raise row.error("responder", "responder %s repeated for %s / %s" % (who, p.pair, cid))
        got[who] = _answer(row, row.obj, "", loading.n_pages(p), p.queue[cid])
        adj_names.add(who)
    adj = tuple(sorted(adj_names))
    if adj and len(adj) != 3:
        raise InputError(path_of("adjudication"), "needs exactly three adjudication responders, found %s" % (list(adj),))
    for p in loading.pairs.values():
        for cid in p.queue:
            if tuple(sorted(p.adjudication.get(cid, {}))) != adj:
                raise InputError(path_of("adjudication"), "queued condition %s of pair %s lacks responses" % (
                    cid, p.pair))
    return adj


def _load_condition_decisions(loading):
    """``condition_decisions.jsonl``: one decision per queued condition; an override states its reason and
    selects only pages of the condition's pool."""
    for row in loading.rows("condition_decisions"):
        p = loading.pair_of(row)
        cid = row.str("cid")
        if cid not in p.queue:
            raise row.error("cid", "condition %s of pair %s is not in the adjudication queue" % (cid, p.pair))
        if cid in p.condition_decisions:
            raise row.error("cid", "condition %s of pair %s decided twice" % (cid, p.pair))
        override = row.get("override")
        if override is not None and not isinstance(override, bool):
            raise row.error("override", "must be null or a boolean")
        reason = row.str("reason")
        if override is not None and not reason.strip():
            raise row.error("reason", "an administrative override must state its reason")
        override_pages = _pages_list(row, "override_pages", loading.n_pages(p), False)
        if override_pages and override is not True:
            raise row.error("override_pages", "only a positive override selects pages")
        unshown = [pg for pg in override_pages if pg not in p.queue[cid]]
        if unshown:
            raise row.error("override_pages", "page %d is not in the condition's pool" % unshown[0])
        p.condition_decisions[cid] = ConditionDecision(row.int("votes_positive", 0, 3), row.bool("majority"),
                                                       override, override_pages, reason, row.bool("final"),
                                                       row.line)


def _load_pool_recall(loading):
    """``pool_recall.jsonl``: the conditions checked for pool recall, with candidates, pool and submitted pages."""
    for row in loading.rows("pool_recall"):
        p = loading.pair_of(row)
        cid = condition_of(row, p, p.recall, "checked")
        candidates = _candidates(row, "candidates", loading.n_pages(p), POOL_ROUTES[1:])
        p.recall[cid] = (candidates, _pages_list(row, "pool", loading.n_pages(p), True),
                         _pages_list(row, "submitted", loading.n_pages(p), True))


def _load_decisions(loading):
    """``decisions.jsonl``: one grade decision (grade after, route) per pair, its grade before the key's."""
    for row in loading.rows("decisions"):
        p = loading.pair_of(row)
        if p.decision is not None:
            raise row.error("pair", "pair %r decided twice" % p.pair)
        if row.int("grade_before", 0, p.n) != p.grade_before:
            raise row.error("grade_before", "does not match the key for pair %s" % p.pair)
        p.decision = (row.int("grade_after", 0, p.n), row.str("route", choices=ROUTES))
    undecided = [pid for pid, p in loading.pairs.items() if p.decision is None]
    if undecided:
        raise InputError(path_of("decisions"), "pair %s has no decision" % undecided[0])


# one loader per released file, in the order they are read (a file refers to the ones before it)
LOADERS = (("key", _load_key), ("packet", _load_packet), ("pages", _load_pages), ("initial", _load_initial),
           ("queue", _load_queue), ("adjudication", _load_adjudication),
           ("condition_decisions", _load_condition_decisions), ("pool_recall", _load_pool_recall),
           ("decisions", _load_decisions))


def load(root, releases):
    """All audit records, validated file by file (:data:`LOADERS`).  ``releases``: ``{name: (queries,
    corpus, initial qrels[, their path])}``."""
    loading = _Loading(root, releases)
    results = {name: loader(loading) for name, loader in LOADERS}
    return AuditRecords(loading.pairs, results["pages"], results["initial"], results["adjudication"])
