"""Scoring the residual-qrel challenge from its records (supplement 10.5; docs/label-audit.md#the-residual-qrel-challenge).

Every function takes :class:`~nclue.labelaudit.challenge_records.ChallengeRecords` and returns plain
numbers.  The rules (targets, controls, the final grade) are :mod:`nclue.labelaudit.challenge`; the
quote gate is :func:`nclue.labelaudit.rules.gate` on the pool shown for that condition.
"""

from . import challenge as rules
from .challenge_records import path_of
from .rules import gate


def _signature(answers):
    return tuple((a.positive, tuple(a.pages), a.quote) for a in answers)


def collapse(records):
    """``(unique, duplicates)``: the response streams after collapsing exports identical at every
    condition of every pair (positive, pages and quote), and ``{duplicate: kept}`` (kept = the first name)."""
    unique, duplicates = [], {}
    for name in records.stream_names:
        sig = tuple(_signature(p.streams[name]) for p in records.pairs.values())
        for kept in unique:
            if tuple(_signature(p.streams[kept]) for p in records.pairs.values()) == sig:
                duplicates[name] = kept
                break
        else:
            unique.append(name)
    return unique, duplicates


def near_duplicate(records, unique):
    """``"; ..."`` naming the first pair on which two streams differ that are identical on every other pair (a
    duplicate export with a pair changed, or two streams swapped for one pair), else ``""``."""
    pairs = list(records.pairs.values())
    for i, a in enumerate(unique):
        for b in unique[i + 1:]:
            differ = [p.pair for p in pairs if _signature(p.streams[a]) != _signature(p.streams[b])]
            if 0 < len(differ) <= max(1, len(pairs) // 100):
                return "; streams %s and %s agree on %d of %d pairs and differ on %s (%s): a duplicate export that " \
                       "was changed, or streams swapped for that pair" % (a, b, len(pairs) - len(differ), len(pairs),
                                                                          ", ".join(differ[:3]), path_of("challenge_responses"))
    return ""


def _passes(records, p, answer):
    return answer.positive and gate(answer, set(answer.shown), records.text(p.docid))[0]


def decide(records):
    """Re-derive every decision from the responses: ``{pair: (grade, blocked)}`` and the tallies of the
    protocol (streams, agreement, tie-break, gate).  Raises nothing; inconsistencies are counted."""
    unique, duplicates = collapse(records)
    tally = {"streams": len(records.stream_names), "unique_streams": len(unique),
             "duplicate_streams_collapsed": len(duplicates), "conditions": 0, "agreeing_conditions": 0,
             "tiebreak_conditions": 0, "tiebreak_pairs": 0, "tiebreak_missing": 0, "tiebreak_unneeded": 0,
             "tiebreak_selection_mismatches": 0, "tiebreak_positive_answers": 0, "tiebreak_quotes_on_page": 0,
             "tiebreak_selected_quotes": 0, "tiebreak_selected_quotes_on_page": 0,
             "gate_failures": 0}
    picks = {name: 0 for name in unique}
    decided_grades = {}
    first_problem = ""
    if len(unique) != 2:
        return None, dict(tally, error="expected two unique response streams after collapsing duplicates, "
                                       "found %d (%s)%s" % (len(unique), ", ".join(unique), near_duplicate(records, unique)),
                          first_problem=near_duplicate(records, unique).lstrip("; ")), picks, duplicates
    first, second = unique
    for p in records.pairs.values():
        decided, broke = [], False
        for i, cid in enumerate(p.cids):
            tally["conditions"] += 1
            a, b = p.streams[first][i], p.streams[second][i]
            for ans in (a, b):
                if ans.positive and not gate(ans, set(ans.shown), records.text(p.docid))[0]:
                    tally["gate_failures"] += 1
            pa, pb = _passes(records, p, a), _passes(records, p, b)
            tb = p.tiebreak.get(cid)
            if pa == pb:
                tally["agreeing_conditions"] += 1
                if tb is not None:
                    tally["tiebreak_unneeded"] += 1
                    first_problem = first_problem or "%s / %s: tie-broken although the streams agree" % (p.pair, cid)
                decided.append((pa, sorted(set(a.pages) | set(b.pages)) if pa else []))
                continue
            tally["tiebreak_conditions"] += 1
            broke = True
            if tb is None:
                tally["tiebreak_missing"] += 1
                first_problem = first_problem or "%s / %s: the streams disagree and no tie-break is recorded" % (
                    p.pair, cid)
                decided.append((False, []))
                continue
            _, selects, t = tb
            pt = _passes(records, p, t)
            _tally_tiebreak_answer(tally, t, pt)
            chosen = first if pt == pa else second
            if duplicates.get(selects, selects) != chosen:
                tally["tiebreak_selection_mismatches"] += 1
                first_problem = first_problem or "%s / %s: records select %s, the tie-break answer selects %s" % (
                    p.pair, cid, selects, chosen)
            picks[chosen] += 1
            picked = a if chosen == first else b
            decided.append((pt, sorted(set(picked.pages) | set(t.pages)) if pt else []))
        tally["tiebreak_pairs"] += broke
        decided_grades[p.pair] = rules.final_grade(p.n, decided)
    tally["first_problem"] = first_problem
    return decided_grades, tally, picks, duplicates


def _tally_tiebreak_answer(tally, answer, passes):
    """A positive tie-break answer's counts: the answer, its quote passing the gate, its quotes as the paper
    counts them (one per selected page, 10.5's "all 136 selected quotes") and those of an answer that passes."""
    if answer.positive:
        tally["tiebreak_positive_answers"] += 1
        tally["tiebreak_quotes_on_page"] += passes
        tally["tiebreak_selected_quotes"] += len(answer.pages)
        tally["tiebreak_selected_quotes_on_page"] += len(answer.pages) if passes else 0
        tally["gate_failures"] += not passes


def outcomes(records, decided):
    """Transitions and outcomes (10.5): per role the ``before->after`` counts, grades changed, targets
    that become gold, controls whose grade is retained, would-be golds stopped by the distinct-page gate,
    and disagreements of the decisions file with the re-derived grades."""
    out = {"targets": 0, "controls": 0, "targets_changed": 0, "targets_to_gold": 0, "controls_retained": 0,
           "distinct_page_blocked": 0, "decision_mismatches": 0, "pairs": len(records.pairs),
           "conditions": sum(p.n for p in records.pairs.values())}
    transitions = {"target": {}, "control": {}}
    first = ""
    for p in records.pairs.values():
        grade, blocked = decided[p.pair]
        if (grade, blocked) != p.decision:
            out["decision_mismatches"] += 1
            first = first or ("%s: the responses give grade %d (blocked %s), the decisions file %d (blocked %s); "
                              "records: %s" % (p.pair, grade, blocked, p.decision[0], p.decision[1], p.where()))
        out["distinct_page_blocked"] += blocked
        key = "%d->%d" % (p.grade_before, grade)
        transitions[p.role][key] = transitions[p.role].get(key, 0) + 1
        if p.role == "target":
            out["targets"] += 1
            out["targets_changed"] += grade != p.grade_before
            out["targets_to_gold"] += grade == p.n
        else:
            out["controls"] += 1
            out["controls_retained"] += grade == p.grade_before
    return out, transitions, first


def changes(records, decided):
    """``{(qid, docid): grade_after}`` for the pairs whose re-derived grade differs from S0."""
    return {(p.qid, p.docid): decided[p.pair][0] for p in records.pairs.values()
            if decided[p.pair][0] != p.grade_before}
