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
from ..core.jsonio import Row, iter_jsonl
from .audit_records import _answer, answers_list, condition_of, packet_conditions

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


def load(root, queries, corpus, s0, pages):
    """All challenge records, validated.  ``queries``: S0's evaluation queries; ``s0``: its qrels;
    ``pages``: the audit's displayed pages."""
    def rows(name):
        rel = path_of(name)
        for line, obj in iter_jsonl(layout.abspath(root, rel), rel):
            yield Row(obj, rel, line)

    pairs, seen_pairs = {}, set()
    for row in rows("challenge_key"):
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
        if role == "target":
            change = row.number("gap_change")
            if not change < 0:
                raise row.error("gap_change", "a target's gap change must be negative")
        else:
            change = row.get("gap_change")
            if change is not None:
                raise row.error("gap_change", "must be null for a control")
        pairs[pid] = ChallengePair(pid, qid, docid, n, source, role, g0, _rank(row, "fusion_rank"),
                                   _rank(row, "bm25_rank"), change)
    if not pairs:
        raise InputError(path_of("challenge_key"), "no challenge pairs")

    def pair_of(row):
        pid = row.str("pair")
        if pid not in pairs:
            raise row.error("pair", "unknown pair %r (not in %s)" % (pid, path_of("challenge_key")))
        return pairs[pid]

    def n_pages(p):
        return corpus[p.docid].pages

    seen = set()
    for row in rows("challenge_packet"):
        p = pair_of(row)
        if p.pair in seen:
            raise row.error("pair", "pair %r repeated" % p.pair)
        seen.add(p.pair)
        if row.str("docid") != p.docid:
            raise row.error("docid", "does not match the key for pair %s" % p.pair)
        if row.int("n", 2, 3) != p.n:
            raise row.error("n", "does not match the key for pair %s" % p.pair)
        p.cids, p.labels, p.pools = packet_conditions(row, queries[p.qid], "pool", n_pages(p))
    missing = [pid for pid in pairs if pid not in seen]
    if missing:
        raise InputError(path_of("challenge_packet"), "pair %s of the key has no packet row" % missing[0])

    names = set()
    for row in rows("challenge_responses"):
        p = pair_of(row)
        stream = row.str("stream")
        if not _PAIR.match(stream):
            raise row.error("stream", "not a valid stream name: %r" % stream)
        if stream in p.streams:
            raise row.error("stream", "stream %s repeated for pair %s" % (stream, p.pair))
        p.streams[stream] = answers_list(row, p.pair, p.cids, n_pages(p), p.pools)
        p.lines.setdefault(row.where, []).append(row.line)
        names.add(stream)
    stream_names = tuple(sorted(names))
    if len(stream_names) < 2:
        raise InputError(path_of("challenge_responses"), "needs at least two response streams, found %s" % (
            list(stream_names),))
    for p in pairs.values():
        if tuple(sorted(p.streams)) != stream_names:
            raise InputError(path_of("challenge_responses"), "pair %s lacks a response from stream %s" % (
                p.pair, ", ".join(n for n in stream_names if n not in p.streams)))

    for row in rows("challenge_tiebreak"):
        p = pair_of(row)
        cid = condition_of(row, p, p.tiebreak, "tie-broken")
        who = row.str("responder")
        if who in stream_names:
            raise row.error("responder", "the tie-break responder must be fresh, not response stream %r" % who)
        selects = row.str("selects", choices=stream_names)
        answer = _answer(row, row.obj, "", n_pages(p), p.pools[p.cids.index(cid)])
        p.tiebreak[cid] = (who, selects, answer)
        p.lines.setdefault(row.where, []).append(row.line)

    for row in rows("challenge_decisions"):
        p = pair_of(row)
        if p.decision is not None:
            raise row.error("pair", "pair %r decided twice" % p.pair)
        if row.int("grade_before", 0, p.n) != p.grade_before:
            raise row.error("grade_before", "does not match the key for pair %s" % p.pair)
        p.decision = (row.int("grade_after", 0, p.n), row.bool("distinct_page_blocked"))
        p.lines.setdefault(row.where, []).append(row.line)
    undecided = [pid for pid, p in pairs.items() if p.decision is None]
    if undecided:
        raise InputError(path_of("challenge_decisions"), "pair %s has no decision" % undecided[0])
    return ChallengeRecords(pairs, pages, stream_names)
