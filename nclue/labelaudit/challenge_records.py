"""Validating loaders for the residual-qrel challenge's records (``data/audit/challenge_*.jsonl``;
supplement section 10.5; docs/schema.md#the-label-audit-dataaudit).

Files (JSON Lines; every row ``synthetic`` in the stand-in):

* ``challenge_key.jsonl`` -- the administrator key (hidden from evaluators):
  ``pair``, ``qid``, ``docid``, ``n``, ``source``, ``role`` (target/control),
  ``grade_before`` (the pair's grade in S0), ``fusion_rank``, ``bm25_rank``
  (1-10 or null), ``gap_change`` (a target's change of the per-query
  fusion - BM25 gold-only NDCG@10 under promotion; null for a control);
* ``challenge_packet.jsonl`` -- what evaluators saw: ``pair``, ``docid``, ``n``,
  ``conditions`` (``cid``, ``label``, ``pool``: the 6-9 pages shown);
* ``challenge_responses.jsonl`` -- one row per pair and response stream:
  ``pair``, ``stream``, ``answers`` (per condition in packet order: ``cid``,
  ``positive``, ``pages``, ``quote``);
* ``challenge_tiebreak.jsonl`` -- one row per tie-broken condition: ``pair``,
  ``cid``, ``responder``, ``selects`` (the stream chosen), ``positive``,
  ``pages``, ``quote``;
* ``challenge_decisions.jsonl`` -- ``pair``, ``grade_before``, ``grade_after``,
  ``distinct_page_blocked``.

The pages' text is the audit's ``pages.jsonl`` (release ``v2``).  Cross-file
checks name file, line and field; whether the decisions follow from the
responses is the scorer's question (:mod:`nclue.labelaudit.challenge_score`).
"""

import re

from ..core import layout
from ..core.errors import InputError
from .audit_records import RecordLoading, _answer, answers_list, condition_of, packet_conditions

FILES = ("challenge_key", "challenge_packet", "challenge_responses", "challenge_tiebreak", "challenge_decisions")
ROLES = ("target", "control")
_PAIR = re.compile(r"^[A-Za-z0-9_.:-]{1,32}$")


def path_of(name):
    return layout.audit_records_path(name)


class ChallengePair:
    __slots__ = ("pair", "qid", "docid", "n", "source", "role", "grade_before", "fusion_rank", "bm25_rank",
                 "gap_change", "cids", "labels", "pools", "streams", "tiebreak", "decision", "lines")

    def __init__(self, pair, qid, docid, n, source, role, grade_before, fusion_rank, bm25_rank, gap_change):
        self.pair, self.qid, self.docid, self.n, self.source, self.role = pair, qid, docid, n, source, role
        self.grade_before, self.fusion_rank, self.bm25_rank, self.gap_change = (
            grade_before, fusion_rank, bm25_rank, gap_change)
        self.cids, self.labels, self.pools = (), (), ()
        self.streams = {}          # stream name -> [Answer] in condition order
        self.tiebreak = {}         # cid -> (responder, selects, Answer)
        self.decision = None       # (grade_after, distinct_page_blocked)
        self.lines = {}            # record file -> [its line numbers for this pair], for messages

    def where(self):
        """The record lines of this pair (``challenge_responses.jsonl:12, 13; ...``), for a message."""
        return "; ".join("%s:%s" % (rel, ", ".join(str(n) for n in nums)) for rel, nums in sorted(self.lines.items()))


class ChallengeRecords:
    def __init__(self, pairs, pages, stream_names):
        self.pairs = pairs                 # pair id -> ChallengePair, in key order
        self.pages = pages                 # (release, docid, page) -> text (the audit's pages.jsonl)
        self.stream_names = stream_names   # sorted stream names

    def text(self, docid):
        pages = self.pages
        return lambda page: pages.get(("v2", docid, page))


def _rank(row, field):
    value = row.get(field)
    if value is None:
        return None
    return row.int(field, 1, 10)


class _Loading(RecordLoading):
    """The challenge's loading state: also S0's queries, the v2 corpus and S0's qrels."""

    def __init__(self, root, queries, corpus, s0):
        super().__init__(root, "challenge_key")
        self.queries, self.corpus, self.s0 = queries, corpus, s0
        self.stream_names = ()     # the response streams, once challenge_responses.jsonl is read

    def n_pages(self, pair):
        return self.corpus[pair.docid].pages


def _gap_change(row, role):
    """A target's (negative) gap change; None for a control."""
    if role == "target":
        change = row.number("gap_change")
        if not change < 0:
            raise row.error("gap_change", "a target's gap change must be negative")
        return change
    if row.get("gap_change") is not None:
        raise row.error("gap_change", "must be null for a control")
    return None


def _load_key(loading):
    """``challenge_key.jsonl``: one row per challenged S0 pair (each query-document pair once), checked
    against S0's query, the v2 document, n, S0's grade, the source and the role."""
    queries, corpus, s0, pairs, seen_pairs = loading.queries, loading.corpus, loading.s0, loading.pairs, set()
    for row in loading.rows("challenge_key"):
        pid = row.str("pair")
        if not _PAIR.match(pid):
            raise row.error("pair", "not a valid pair identifier: %r" % pid)
        if pid in pairs:
            raise row.error("pair", "duplicate pair %r" % pid)
        qid, docid = row.str("qid"), row.str("docid")
        if qid not in queries:
            raise row.error("qid", "unknown S0 query %r" % qid)
        if docid not in corpus:
            raise row.error("docid", "unknown v2 document %r" % docid)
        if (qid, docid) in seen_pairs:
            raise row.error("docid", "query-document pair %s / %s listed twice" % (qid, docid))
        seen_pairs.add((qid, docid))
        n = row.int("n", 2, 3)
        if n != queries[qid].n:
            raise row.error("n", "is %d but query %s has n = %d" % (n, qid, queries[qid].n))
        g0 = row.int("grade_before", 1, n)
        released = s0.get(qid, {}).get(docid, 0)
        if g0 != released:
            raise row.error("grade_before", "is %d but S0 (data/v2/qrels_s0.jsonl) gives %d" % (g0, released))
        source = row.str("source")
        if source != corpus[docid].source:
            raise row.error("source", "is %r but %s is from %r" % (source, docid, corpus[docid].source))
        role = row.str("role", choices=ROLES)
        pairs[pid] = ChallengePair(pid, qid, docid, n, source, role, g0, _rank(row, "fusion_rank"),
                                   _rank(row, "bm25_rank"), _gap_change(row, role))
    if not pairs:
        raise InputError(path_of("challenge_key"), "no challenge pairs")


def _load_packet(loading):
    """``challenge_packet.jsonl``: each pair's conditions and page pools, once per pair of the key."""
    seen = set()
    for row in loading.rows("challenge_packet"):
        p = loading.pair_of(row)
        if p.pair in seen:
            raise row.error("pair", "pair %r repeated" % p.pair)
        seen.add(p.pair)
        if row.str("docid") != p.docid:
            raise row.error("docid", "does not match the key for pair %s" % p.pair)
        if row.int("n", 2, 3) != p.n:
            raise row.error("n", "does not match the key for pair %s" % p.pair)
        p.cids, p.labels, p.pools = packet_conditions(row, loading.queries[p.qid], "pool", loading.n_pages(p))
    missing = [pid for pid in loading.pairs if pid not in seen]
    if missing:
        raise InputError(path_of("challenge_packet"), "pair %s of the key has no packet row" % missing[0])


def _load_responses(loading):
    """``challenge_responses.jsonl``: at least two response streams, each answering every pair once; their names."""
    names = set()
    for row in loading.rows("challenge_responses"):
        p = loading.pair_of(row)
        stream = row.str("stream")
        if not _PAIR.match(stream):
            raise row.error("stream", "not a valid stream name: %r" % stream)
        if stream in p.streams:
            raise row.error("stream", "stream %s repeated for pair %s" % (stream, p.pair))
        p.streams[stream] = answers_list(row, p.pair, p.cids, loading.n_pages(p), p.pools)
        p.lines.setdefault(row.where, []).append(row.line)
        names.add(stream)
    stream_names = tuple(sorted(names))
    if len(stream_names) < 2:
        raise InputError(path_of("challenge_responses"), "needs at least two response streams, found %s" % (
            list(stream_names),))
    for p in loading.pairs.values():
        if tuple(sorted(p.streams)) != stream_names:
            raise InputError(path_of("challenge_responses"), "pair %s lacks a response from stream %s" % (
                p.pair, ", ".join(n for n in stream_names if n not in p.streams)))
    loading.stream_names = stream_names
    return stream_names


def _load_tiebreak(loading):
    """``challenge_tiebreak.jsonl``: a fresh responder's answer per tie-broken condition and the stream it selects."""
    for row in loading.rows("challenge_tiebreak"):
        p = loading.pair_of(row)
        cid = condition_of(row, p, p.tiebreak, "tie-broken")
        who = row.str("responder")
        if who in loading.stream_names:
            raise row.error("responder", "the tie-break responder must be fresh, not response stream %r" % who)
        selects = row.str("selects", choices=loading.stream_names)
        answer = _answer(row, row.obj, "", loading.n_pages(p), p.pools[p.cids.index(cid)])
        p.tiebreak[cid] = (who, selects, answer)
        p.lines.setdefault(row.where, []).append(row.line)


def _load_decisions(loading):
    """``challenge_decisions.jsonl``: one decision (grade after, distinct-page gate) per pair of the key."""
    for row in loading.rows("challenge_decisions"):
        p = loading.pair_of(row)
        if p.decision is not None:
            raise row.error("pair", "pair %r decided twice" % p.pair)
        if row.int("grade_before", 0, p.n) != p.grade_before:
            raise row.error("grade_before", "does not match the key for pair %s" % p.pair)
        p.decision = (row.int("grade_after", 0, p.n), row.bool("distinct_page_blocked"))
        p.lines.setdefault(row.where, []).append(row.line)
    undecided = [pid for pid, p in loading.pairs.items() if p.decision is None]
    if undecided:
        raise InputError(path_of("challenge_decisions"), "pair %s has no decision" % undecided[0])


# one loader per released file, in the order they are read (a file refers to the ones before it)
LOADERS = (("challenge_key", _load_key), ("challenge_packet", _load_packet), ("challenge_responses", _load_responses),
           ("challenge_tiebreak", _load_tiebreak), ("challenge_decisions", _load_decisions))


def load(root, queries, corpus, s0, pages):
    """All challenge records, validated file by file (:data:`LOADERS`).  ``queries``: S0's evaluation
    queries; ``s0``: its qrels; ``pages``: the audit's displayed pages."""
    loading = _Loading(root, queries, corpus, s0)
    results = {name: loader(loading) for name, loader in LOADERS}
    return ChallengeRecords(loading.pairs, pages, results["challenge_responses"])
