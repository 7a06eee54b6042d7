"""Simulated targeted residual-qrel challenge of the stand-in SourceShift (synthetic; supplement 10.5).

The paper's challenge re-judged every already-judged SourceShift subset whose
promotion could shrink the frozen fusion - BM25 contrast, with interleaved
neutral controls.  The stand-in's follows the same protocol with simulated
readers (the reading model of :mod:`nclue.builder.simulated_audit`, stated in
``data/audit/audit.json``; no rate was set from the paper's figures):

* **Pairs**: the targets of :func:`nclue.labelaudit.challenge.targets` on the
  frozen raw-form rankings and S0, and ``ceil(targets / 5)`` controls drawn
  uniformly (seeded) from :func:`nclue.labelaudit.challenge.control_frame`;
  all shuffled together and numbered ``C001...`` (blinded: the packet carries
  no system, rank, source, grade or role; the key does).
* **Display**: per condition a pool of 6-9 pages (construction pages, then
  pages with a surface form of the condition, then random pages), read under
  the binary necessary-evidence rule.
* **Streams**: responders ``G`` and ``H`` read every condition; stream ``G`` is
  exported twice (``G`` and ``G-copy``, byte-identical answers), as happened
  in the paper, so the scorer must detect and collapse the duplicate.
* **Tie-break**: every condition on which the collapsed streams disagree is
  read by a fresh responder ``T``; its answer selects the stream it agrees
  with.
* **Decisions**: :func:`nclue.labelaudit.challenge.final_grade`; the changed
  grades give S from S0 (grade 0 removes the row).
"""

from dataclasses import dataclass

from ..core.rng import Stream
from ..labelaudit import challenge as rules
from .simulated_audit import Responder, _answer_json, _dedupe, _fill, _gate_for, _lexical_pages, read


@dataclass(frozen=True)
class ChallengeConfig:
    pool: tuple = (6, 9)
    streams: tuple = (Responder("G", 0.90, 0.10), Responder("H", 0.88, 0.12))
    duplicate_of: str = "G"            # the stream exported twice
    tiebreak: Responder = Responder("T", 0.92, 0.08)


CHALLENGE_CONFIG = ChallengeConfig()
DUPLICATE_NAME = "G-copy"


def select_pairs(seed, queries, qrels, fusion, bm25):
    """``[(role, qid, docid, gap_change)]`` in blinded order: the targets and the drawn controls."""
    n_of = {qid: q["n"] for qid, q in queries.items()}
    found = rules.targets(n_of, qrels, fusion, bm25)
    frame = rules.control_frame(n_of, qrels, fusion, bm25)
    stream = Stream.derived(seed, "challenge", "controls")
    controls = [frame[i] for i in sorted(stream.sample_distinct(len(frame), min(len(frame),
                                                                                  rules.n_controls(len(found)))))]
    pairs = [("target", q, d, change) for q, d, change in found] + [("control", q, d, None) for q, d in controls]
    Stream.derived(seed, "challenge", "blind").shuffle(pairs)
    return pairs


def _pools_and_answers(seed, rel, cfg, pair, query, docid, n_pages, shown_pages):
    """Each condition's candidate pool (its construction and lexical pages first, filled to a drawn size) and
    every response stream's answer on it: ``(conditions, {stream: [answer per condition]})``; the pages shown
    are added to ``shown_pages``."""
    conds, answers = [], {r.name: [] for r in cfg.streams}
    for c in query["conditions"]:
        cid = c["cid"]
        stream = Stream.derived(seed, "challenge", "pool", pair, cid)
        size = cfg.pool[0] + stream.randbelow(cfg.pool[1] - cfg.pool[0] + 1)
        first = _dedupe(list(rel.construction.get((docid, cid), ())) + _lexical_pages(rel, docid, cid))
        pool = _fill(stream, first, n_pages, size)
        shown_pages.update((rel.name, docid, p) for p in pool)
        conds.append({"cid": cid, "label": c["label"], "pool": pool})
        for r in cfg.streams:
            answers[r.name].append(read(rel, r, Stream.derived(seed, "challenge", r.name, pair, cid),
                                        docid, cid, pool))
    return conds, answers


def _decide(seed, rel, cfg, pair, docid, conds, answers, tiebreak):
    """Each condition's decision ``(supported, pages)``: the two streams' agreement, else the tie-break's answer
    with the stream it sides with (its record appended to ``tiebreak``); an answer counts as positive only when
    its pages pass the page gate."""
    gate_ok = _gate_for(rel, docid)
    first_stream, second_stream = (r.name for r in cfg.streams)
    decided = []
    for i, c in enumerate(conds):
        a, b = answers[first_stream][i], answers[second_stream][i]
        pa, pb = a.positive and gate_ok(a), b.positive and gate_ok(b)
        if pa == pb:
            decided.append((pa, sorted(set(a.pages) | set(b.pages)) if pa else []))
            continue
        t = read(rel, cfg.tiebreak, Stream.derived(seed, "challenge", "tiebreak", pair, c["cid"]), docid,
                 c["cid"], c["pool"])
        pt = t.positive and gate_ok(t)
        chosen = first_stream if pt == pa else second_stream
        tiebreak.append(dict(_answer_json(c["cid"], t), pair=pair, responder=cfg.tiebreak.name, selects=chosen,
                             synthetic=True))
        picked = a if chosen == first_stream else b
        decided.append((pt, sorted(set(picked.pages) | set(t.pages)) if pt else []))
    return decided


def simulate(seed, rel, qrels, fusion, bm25, cfg=CHALLENGE_CONFIG):
    """Challenge records and the grade changes ``{(qid, docid): (before, after)}``.

    ``rel``: the v2 :class:`~nclue.builder.simulated_audit.Release` (its queries: S0's evaluation set);
    ``qrels``: S0 as ``{qid: {docid: grade}}``; ``fusion`` / ``bm25``: frozen raw rankings ``{qid: [docid]}``.
    """
    key, packet, responses, tiebreak, decisions = [], [], [], [], []
    shown_pages = set()
    changes = {}
    ranks = {name: {q: {d: i + 1 for i, d in enumerate(docs[:rules.DEPTH])} for q, docs in r.items()}
             for name, r in (("fusion", fusion), ("bm25", bm25))}
    for number, (role, qid, docid, change) in enumerate(select_pairs(seed, rel.queries, qrels, fusion, bm25), 1):
        pair = "C%03d" % number
        query = rel.queries[qid]
        n_pages = rel.docs[docid]["pages"]
        g0 = qrels[qid][docid]
        key.append({"pair": pair, "qid": qid, "docid": docid, "n": query["n"], "source": rel.docs[docid]["source"],
                    "role": role, "grade_before": g0, "fusion_rank": ranks["fusion"].get(qid, {}).get(docid),
                    "bm25_rank": ranks["bm25"].get(qid, {}).get(docid), "gap_change": change, "synthetic": True})
        conds, answers = _pools_and_answers(seed, rel, cfg, pair, query, docid, n_pages, shown_pages)
        packet.append({"pair": pair, "docid": docid, "n": query["n"], "conditions": conds, "synthetic": True})
        for r in cfg.streams:
            names = [r.name] + ([DUPLICATE_NAME] if r.name == cfg.duplicate_of else [])
            for name in names:
                responses.append({"pair": pair, "stream": name, "synthetic": True,
                                  "answers": [_answer_json(c["cid"], a) for c, a in zip(conds, answers[r.name])]})
        decided = _decide(seed, rel, cfg, pair, docid, conds, answers, tiebreak)
        grade, blocked = rules.final_grade(query["n"], decided)
        decisions.append({"pair": pair, "grade_before": g0, "grade_after": grade, "distinct_page_blocked": blocked,
                          "synthetic": True})
        if grade != g0:
            changes[(qid, docid)] = (g0, grade)
    records = {"challenge_key": key, "challenge_packet": packet, "challenge_responses": responses,
               "challenge_tiebreak": tiebreak, "challenge_decisions": decisions}
    return records, changes, shown_pages


def describe(cfg=CHALLENGE_CONFIG):
    """The challenge's stated parameters (for ``data/audit/audit.json``)."""
    return {
        "targets": "judged subsets of S0 in the union of the frozen raw top 10 of rrf_bm25and_pagetop3 and "
                   "bm25_and whose promotion to gold lowers the query's fusion - BM25 gold-only NDCG@10 "
                   "(nclue.labelaudit.challenge.targets)",
        "controls": "ceil(targets / 5) judged pairs in neither top 10, drawn uniformly (seeded)",
        "pool_pages": list(cfg.pool),
        "streams": [{"name": r.name, "detect": r.detect, "mistake": r.mistake} for r in cfg.streams],
        "duplicate_export": {"of": cfg.duplicate_of, "as": DUPLICATE_NAME},
        "tiebreak": {"name": cfg.tiebreak.name, "detect": cfg.tiebreak.detect, "mistake": cfg.tiebreak.mistake},
        "rule": "binary necessary-evidence per condition; agreement of the collapsed streams decides, else the "
                "tie-break; grade = supported conditions, a would-be gold failing the distinct-page gate stays n - 1",
    }
