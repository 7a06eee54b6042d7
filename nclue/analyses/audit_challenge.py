"""The targeted residual-qrel challenge re-scored from its records (supplement 10.5;
docs/analyses.md#auditchallenge).

``audit.challenge`` (derivation level):

* ``selection``: the target set re-derived from the frozen raw rankings of fusion and BM25-AND and
  S0 by :func:`nclue.labelaudit.challenge.targets` and compared with the key (targets missing or
  extra, gap changes and ranks as recorded), the controls' number and frame;
* ``protocol``: response streams and the duplicate exports collapsed, the quote gate, agreement of
  the two unique streams, the tie-break (conditions, pairs, which stream it selects, exact quotes);
* ``decisions``: every decision re-derived (:func:`nclue.labelaudit.challenge_score.decide`) against
  ``challenge_decisions.jsonl``, the transitions by role, targets changed and made gold, controls
  retained, would-be golds stopped by the distinct-page gate.
"""

from ..core import layout
from ..core.claim_ids import CHALLENGE, CHALLENGE_SECTION, CHALLENGE_TRANSITION
from ..labelaudit import challenge as rules
from ..labelaudit import challenge_score
from .base import Analysis, Unit, Value
from .shared.audit_inputs import AUDIT_FILES, AUDIT_INPUTS, CHALLENGE_FILES, challenge_records

FUSION, BM25 = "rrf_bm25and_pagetop3", "bm25_and"
SRC = "supplement section 10.5 (targeted residual-qrel challenge; synthetic responses)"


def _rankings(v2):
    return [{qid: list(row.docids) for qid, row in v2.ranking(layout.SOURCESHIFT.form_ranking(sid, layout.RAW)).items()}
            for sid in (FUSION, BM25)]


def _selection(inst):
    v2 = inst.release(layout.SOURCESHIFT)
    rec = challenge_records(inst)
    queries = {qid: q.n for qid, q in v2.evaluation_queries(v2.copy("s0")).items()}
    s0 = v2.qrels(v2.copy("s0"))
    fusion, bm25 = _rankings(v2)
    derived = {(q, d): change for q, d, change in rules.targets(queries, s0, fusion, bm25)}
    recorded = {(p.qid, p.docid): p for p in rec.pairs.values() if p.role == "target"}
    missing = sorted(set(derived) - set(recorded))
    extra = sorted(set(recorded) - set(derived))
    wrong_change = sorted(k for k in set(derived) & set(recorded) if abs(derived[k] - recorded[k].gap_change) > 1e-9)
    frame = set(rules.control_frame(queries, s0, fusion, bm25))
    controls = [p for p in rec.pairs.values() if p.role == "control"]
    outside = sorted((p.qid, p.docid) for p in controls if (p.qid, p.docid) not in frame)
    ranks = [{q: {d: i + 1 for i, d in enumerate(docs[:rules.DEPTH])} for q, docs in r.items()} for r in (fusion, bm25)]
    wrong_rank = sorted(p.pair for p in rec.pairs.values()
                        if (p.fusion_rank, p.bm25_rank) != (ranks[0].get(p.qid, {}).get(p.docid),
                                                            ranks[1].get(p.qid, {}).get(p.docid)))

    def first(items, what):
        return "" if not items else "%s %s (%d in all)" % (what, items[0], len(items))
    return [
        Value(CHALLENGE("targets"), len(recorded), source=SRC),
        Value(CHALLENGE("targets_rederived"), len(derived), source=SRC),
        Value(CHALLENGE("targets_missing"), len(missing), source=SRC, detail=first(missing, "not in the key:")),
        Value(CHALLENGE("targets_extra"), len(extra), source=SRC, detail=first(extra, "not a target by the rule:")),
        Value(CHALLENGE("gap_change_mismatches"), len(wrong_change), source=SRC, detail=first(wrong_change, "")),
        Value(CHALLENGE("rank_mismatches"), len(wrong_rank), source=SRC, detail=first(wrong_rank, "pair")),
        Value(CHALLENGE("controls"), len(controls), source=SRC),
        Value(CHALLENGE("controls_expected"), rules.n_controls(len(derived)), source=SRC),
        Value(CHALLENGE("controls_outside_frame"), len(outside), source=SRC,
              detail=first(outside, "in a system's top 10:")),
        Value(CHALLENGE("pairs"), len(rec.pairs), source=SRC),
        Value(CHALLENGE("conditions"), sum(p.n for p in rec.pairs.values()), source=SRC),
    ]


def _protocol(inst):
    rec = challenge_records(inst)
    decided, tally, picks, duplicates = challenge_score.decide(rec)
    protocol = CHALLENGE_SECTION.bind(section="protocol")
    out = [Value(protocol(k), v, source=SRC, detail=tally.get("first_problem", "")
                 if k.endswith(("missing", "unneeded", "mismatches", "streams", "streams_collapsed")) else "")
           for k, v in sorted(tally.items()) if k not in ("first_problem", "error")]
    if decided is None:
        out.append(Value(protocol("unique_stream_error"), 1, source=SRC, detail=tally["error"]))
    dup_kept = sorted(set(duplicates.values()))
    for name, count in sorted(picks.items()):
        label = "duplicate_collapsed" if name in dup_kept else "other"
        out.append(Value(protocol("tiebreak_selects_%s_stream" % label), count, source=SRC,
                         detail="stream %s" % name))
    return out


def _decisions(inst):
    rec = challenge_records(inst)
    decided = challenge_score.decide(rec)[0]
    decisions = CHALLENGE_SECTION.bind(section="decisions")
    if decided is None:
        return [Value(decisions("rederivable"), False, source=SRC,
                      detail="the response streams do not collapse to two")]
    counts, transitions, first = challenge_score.outcomes(rec, decided)
    out = [Value(decisions(k), v, source=SRC, detail=first if k == "decision_mismatches" else "")
           for k, v in sorted(counts.items())]
    for role in sorted(transitions):
        out += [Value(CHALLENGE_TRANSITION(arm=role, statistic=k.replace("->", "_to_")), v, source=SRC)
                for k, v in sorted(transitions[role].items())]
    return out


def _units(inst):
    if not inst.exists(AUDIT_FILES[0]):
        return []
    v2_inputs = [layout.V2_CORPUS, layout.V2_CONDITIONS, layout.V2_QUERIES, layout.V2_GENEALOGY, layout.V2_QRELS_S0]
    rankings = [layout.SOURCESHIFT.form_ranking(sid, layout.RAW) for sid in (FUSION, BM25)]
    inputs = sorted(set(v2_inputs + CHALLENGE_FILES + AUDIT_INPUTS))
    return [Unit("selection", inputs + rankings, lambda: _selection(inst)),
            Unit("protocol", inputs, lambda: _protocol(inst)),
            Unit("decisions", inputs, lambda: _decisions(inst))]


ANALYSES = [Analysis(CHALLENGE.analysis, "derivation", SRC, _units)]
