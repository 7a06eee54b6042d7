"""Scoring the label audit from its records (supplement sections 10.2-10.4, Tables S8-S13).

Every function takes :class:`~nclue.labelaudit.audit_records.AuditRecords` (and
for qrels, the released copies) and returns plain numbers.  The policy is
:func:`nclue.labelaudit.rules.repair_detail`, the one implementation; the quote gate is
:func:`nclue.labelaudit.rules.gate` applied to the pages shown to that responder.
"""

from ..stats.agreement import cohen_kappa, fleiss_kappa, wilson
from . import pool as pool_rules
from .rules import Answer, derived_grade, gate, repair_detail

ALL = "all"         # the row over every responder of a stage, or over every source of a release


def gate_checker(records, p):
    text = records.text(p.release, p.docid)
    return lambda ans: gate(ans, set(ans.shown), text)[0]


def integrity(records):
    """Quote-gate results per stage and responder, and per stage over all its responders (keys ``(stage,
    responder)``, ``(stage, "all")``;
    Tables S8 and S11): positives, negatives, selected pages, quotes given and quotes passing (one per positive
    answer), the quotes as the paper counts them, one per selected page (``page_quotes``: the protocol asks a
    quote for each page an evaluator selects, "A 76 18 201 201/201"; ``page_quotes_exact``: those of answers
    passing the gate), and answers failing the gate (with the first failure)."""
    out = {}
    first_failure = ""

    def tally(stage, who, ans, p, where):
        nonlocal first_failure
        ok, why = gate(ans, set(ans.shown), records.text(p.release, p.docid))
        for key in ((stage, who), (stage, ALL)):
            t = out.setdefault(key, {"positive": 0, "negative": 0, "pages": 0, "quotes": 0, "quotes_exact": 0,
                                     "page_quotes": 0, "page_quotes_exact": 0, "gate_failures": 0})
            if ans.positive:
                t["positive"] += 1
                t["pages"] += len(ans.pages)
                t["quotes"] += bool(ans.quote.strip())
                t["quotes_exact"] += ok
                t["page_quotes"] += len(ans.pages) if ans.quote.strip() else 0
                t["page_quotes_exact"] += len(ans.pages) if ok else 0
            else:
                t["negative"] += 1
            t["gate_failures"] += not ok
        if not ok and not first_failure:
            first_failure = "pair %s, %s, responder %s: %s" % (p.pair, where, who, why)

    for p in records.pairs.values():
        for who in records.initial_responders:
            for cid, ans in zip(p.cids, p.initial[who]):
                tally("initial", who, ans, p, cid)
        for cid in sorted(p.adjudication):
            for who in records.adjudication_responders:
                tally("adjudication", who, p.adjudication[cid][who], p, cid)
    return {k: out[k] for k in sorted(out)}, first_failure


def packet_structure(records):
    """The packet's design as realised (Table S7): pairs, condition decisions, the page contexts shown
    (one per condition and shown page: "2,130 nonempty page contexts", section 10.2.1), pre-gold and pre-subset
    pairs, three-condition pairs, and pre-gold / pre-subset pairs per (release, source) cell."""
    pairs = list(records.pairs.values())
    out = {"pairs": len(pairs), "conditions": sum(p.n for p in pairs),
           "page_contexts": sum(len(shown) for p in pairs for shown in p.shown),
           "pre_gold": sum(1 for p in pairs if p.stratum == "gold"),
           "pre_subset": sum(1 for p in pairs if p.stratum == "subset"),
           "n3_pairs": sum(1 for p in pairs if p.n == 3)}
    for p in pairs:
        key = "%s_%s_%s" % (p.release, p.source, p.stratum)
        out[key] = out.get(key, 0) + 1
    return {k: out[k] for k in sorted(out)}


def _grade_matrix(pairs, a, e):
    m = [[0] * 4 for _ in range(4)]
    for p in pairs:
        m[derived_grade(p.initial[a])][derived_grade(p.initial[e])] += 1
    return m


def _share(count, total):
    """``100 * count / total`` (None for an empty denominator)."""
    return 100.0 * count / total if total else None


def agreement(records, pairs=None):
    """Initial blind-audit agreement (Table S8, S9) over ``pairs`` (default: all): exact grade agreement,
    condition agreement, page-set agreement where both answers are positive (and over every condition, two
    negative answers selecting the same empty set), each responder's positives; Wilson intervals and kappas
    (:func:`_grade_statistics`, :func:`_condition_statistics`)."""
    a, e = records.initial_responders
    pairs = list(records.pairs.values()) if pairs is None else pairs
    n_pairs = len(pairs)
    grade_agree = sum(1 for p in pairs if derived_grade(p.initial[a]) == derived_grade(p.initial[e]))
    cond, both, same_pages = _answer_pairs(pairs, a, e)
    cond_agree = sum(1 for x, y in cond if x == y)
    both_negative = sum(1 for x, y in cond if not x and not y)
    out = {"pairs": n_pairs, "conditions": len(cond), "grade_agree": grade_agree,
           "grade_agreement": _share(grade_agree, n_pairs),
           "condition_agree": cond_agree,
           "condition_agreement": _share(cond_agree, len(cond)),
           "both_positive": len(both), "page_set_agree": same_pages,
           "page_set_agreement": _share(same_pages, len(both)),
           # over every condition: two negative answers select the same (empty) page set
           "page_set_agree_all": same_pages + both_negative,
           "page_set_agreement_all": _share(same_pages + both_negative, len(cond)),
           "positive_" + a: sum(1 for x, _ in cond if x), "positive_" + e: sum(1 for _, y in cond if y)}
    out.update(_grade_statistics(pairs, a, e, grade_agree))
    out.update(_condition_statistics(cond, cond_agree))
    return out


def _answer_pairs(pairs, a, e):
    """``(cond, both, same_pages)``: the two initial answers' positivity per condition, the conditions both
    answer positive, and how many of those select the same page set."""
    cond = [(x.positive, y.positive) for p in pairs for x, y in zip(p.initial[a], p.initial[e])]
    both = [(x, y) for p in pairs for x, y in zip(p.initial[a], p.initial[e]) if x.positive and y.positive]
    return cond, both, sum(1 for x, y in both if set(x.pages) == set(y.pages))


def _grade_statistics(pairs, a, e, grade_agree):
    """The grade agreement's Wilson interval (points), confusion matrix and kappas (none for no pairs)."""
    if not pairs:
        return {}
    lo, hi = wilson(grade_agree, len(pairs))
    m = _grade_matrix(pairs, a, e)
    return {"grade_agreement_wilson": [100.0 * lo, 100.0 * hi], "confusion": m,
            "grade_kappa_linear": cohen_kappa(m, "linear"), "grade_kappa": cohen_kappa(m)}


def _condition_statistics(cond, cond_agree):
    """The condition agreement's Wilson interval (points), binary kappa and 2 x 2 table (none for no conditions)."""
    if not cond:
        return {}
    lo, hi = wilson(cond_agree, len(cond))
    binary = [[sum(1 for x, y in cond if x == i and y == j) for j in (False, True)] for i in (False, True)]
    return {"condition_agreement_wilson": [100.0 * lo, 100.0 * hi], "condition_kappa": cohen_kappa(binary),
            "condition_table": binary}


def decide(records, p):
    """The policy's decision for one pair from its records: ``(grade, route, gate_blocked, support)``
    (:func:`nclue.labelaudit.rules.repair_detail`)."""
    a, e = records.initial_responders
    ok = gate_checker(records, p)
    adjudication = None
    if p.queue:
        adjudication = [None if cid not in p.adjudication else
                        [p.adjudication[cid][who] for who in records.adjudication_responders] for cid in p.cids]
    overrides = {}
    for i, cid in enumerate(p.cids):
        record = p.condition_decisions.get(cid)
        if record is not None and record.override is not None:
            overrides[i] = Answer(record.override, record.override_pages, record.reason, p.queue[cid])
    return repair_detail(p.grade_before, p.n, p.initial[a], p.initial[e], adjudication, ok, overrides)


def repaired_pairs(records, release):
    """``{(qid, docid): (grade_before, grade_after, support)}``: the pairs of ``release`` whose grade the
    policy changes, each with the decision's support (:func:`nclue.labelaudit.rules.repair_detail`)."""
    out = {}
    for p in records.pairs.values():
        if p.release != release:
            continue
        grade, _, _, support = decide(records, p)
        if grade != p.grade_before:
            out[(p.qid, p.docid)] = (p.grade_before, grade, support)
    return out


def repaired_gold_support(records, release, queries, inventory):
    """``{(qid, docid): [page set per condition]}`` for the pairs of ``release`` the policy makes gold: each
    condition's inventory pages joined with the pages the decision's positive answers selected -- the
    evidence a repaired gold's page gates are checked on (supplement 10.4: "after which all 2,176 gold qrels
    still pass both page gates").  ``inventory``: ``{(docid, cid): row with .pages}``."""
    out = {}
    for (qid, docid), (_, after, support) in repaired_pairs(records, release).items():
        query = queries[qid]
        if after != query.n:
            continue
        out[(qid, docid)] = [sorted(set(inventory[(docid, c.cid)].pages if (docid, c.cid) in inventory else ())
                                    | set(pages)) for c, pages in zip(query.conditions, support)]
    return out


def condition_decisions(records):
    """The per-condition decision records (10.4) against the adjudication answers: conditions
    recorded and missing, vote / majority / final disagreements, overrides (with the first problem)."""
    out = {"conditions": 0, "missing": 0, "vote_mismatches": 0, "majority_mismatches": 0, "final_mismatches": 0,
           "overrides": 0, "overrides_to_positive": 0, "overrides_to_negative": 0}
    first = ""
    for p in records.pairs.values():
        ok = gate_checker(records, p)
        for cid in p.cids:
            if cid not in p.queue:
                continue
            record = p.condition_decisions.get(cid)
            if record is None:
                out["missing"] += 1
                first = first or "pair %s / %s: queued but has no decision record" % (p.pair, cid)
                continue
            out["conditions"] += 1
            votes = sum(1 for who in records.adjudication_responders
                        if p.adjudication[cid][who].positive and ok(p.adjudication[cid][who]))
            if votes != record.votes_positive:
                out["vote_mismatches"] += 1
                first = first or "pair %s / %s: %d valid positive answers, the record says %d" % (
                    p.pair, cid, votes, record.votes_positive)
            if (votes >= 2) != record.majority:
                out["majority_mismatches"] += 1
                first = first or "pair %s / %s: majority is %s, the record says %s" % (
                    p.pair, cid, votes >= 2, record.majority)
            want = record.override if record.override is not None else votes >= 2
            if record.final != want:
                out["final_mismatches"] += 1
                first = first or "pair %s / %s: final should be %s, the record says %s" % (
                    p.pair, cid, want, record.final)
            if record.override is not None:
                out["overrides"] += 1
                out["overrides_to_positive" if record.override else "overrides_to_negative"] += 1
    return out, first


def _count_consensus(out, p, a, e):
    """The two initial grades of pair ``p``: split, or a consensus above or below the grade before."""
    ga, ge = derived_grade(p.initial[a]), derived_grade(p.initial[e])
    if ga != ge:
        out["split"] += 1
    elif ga > p.grade_before:
        out["consensus_increase"] += 1
    elif ga < p.grade_before:
        out["consensus_decrease"] += 1


def _count_queue(out, p, a, e):
    """Pair ``p``'s queued conditions (split, both negative, or both positive with a quote failing the gate)
    and, in a queued pair, the conditions both initial answers lock as positive."""
    if p.queue:
        out["queued_pairs"] += 1
    for i, cid in enumerate(p.cids):
        x, y = p.initial[a][i], p.initial[e][i]
        if cid in p.queue:
            out["queued_conditions"] += 1
            if x.positive != y.positive:
                out["queued_split_conditions"] += 1
            elif not x.positive:
                out["queued_both_negative_conditions"] += 1
            else:
                out["queued_both_positive_conditions"] += 1      # a quote failed the gate
        elif p.queue and x.positive and y.positive:
            out["locked_conditions"] += 1


def _count_transition(transitions, splits, strata, p, grade):
    """Pair ``p``'s grade transition (Table S12), whether a changed grade ends gold or partial, and its
    stratum's sampled and corrected counts (Table S13; keys ``(release, source)`` and ``(release, "all")``)."""
    key = "%d->%d" % (p.grade_before, grade)
    transitions[key] = transitions.get(key, 0) + 1
    if grade != p.grade_before:
        split = splits.setdefault(key, {"to_gold": 0, "partial": 0})
        split["to_gold" if grade == p.n else "partial"] += 1
    for name in ((p.release, p.source), (p.release, ALL)):
        stratum = strata.setdefault(name, {"sampled": 0, "corrected": 0})
        stratum["sampled"] += 1
        stratum["corrected"] += grade != p.grade_before


def policy(records):
    """Routing and queue (10.2.2, 10.3), re-derived decisions against ``decisions.jsonl``,
    transitions (Table S12) and corrections by stratum (Table S13)."""
    a, e = records.initial_responders
    out = {"keep": 0, "accept_increase": 0, "adjudicated_pairs": 0, "unresolved_pairs": 0,
           "consensus_increase": 0, "consensus_decrease": 0, "split": 0,
           "queued_pairs": 0, "queued_conditions": 0, "queued_split_conditions": 0,
           "queued_both_negative_conditions": 0, "queued_both_positive_conditions": 0, "locked_conditions": 0,
           "gate_blocked": 0, "decision_mismatches": 0, "first_mismatch": ""}
    routes = {"keep": "keep", "accept-increase": "accept_increase", "adjudicated": "adjudicated_pairs"}
    transitions, strata, splits = {}, {}, {}
    decided = {}
    for p in records.pairs.values():
        _count_consensus(out, p, a, e)
        grade, route, blocked, _ = decide(records, p)
        decided[p.pair] = grade
        out[routes.get(route, "unresolved_pairs")] += 1
        out["gate_blocked"] += blocked
        _count_queue(out, p, a, e)
        if route not in routes or (grade, route) != p.decision:
            out["decision_mismatches"] += 1
            if not out["first_mismatch"]:
                out["first_mismatch"] = (
                    "pair %s needs adjudication but has no queued responses" % p.pair if route not in routes else
                    "pair %s: the records give grade %d (%s), decisions.jsonl says %d (%s)" % (
                        p.pair, grade, route, p.decision[0], p.decision[1]))
        _count_transition(transitions, splits, strata, p, grade)
    out["transitions"] = {k: transitions[k] for k in sorted(transitions)}
    out["transition_splits"] = {k: splits[k] for k in sorted(splits)}     # changed grades: ending gold or partial
    out["strata"] = {k: strata[k] for k in sorted(strata)}
    changed = [p for p in records.pairs.values() if decided[p.pair] != p.grade_before]
    out["changed"] = len(changed)
    out["to_gold"] = sum(1 for p in changed if decided[p.pair] == p.n)
    out["from_gold"] = sum(1 for p in changed if p.grade_before == p.n)
    out["to_zero"] = sum(1 for p in changed if decided[p.pair] == 0)
    out["net_gold"] = out["to_gold"] - out["from_gold"]       # Table S12's "net +60 sampled gold"
    return out, decided


def adjudication(records):
    """Adjudication agreement (10.3.2): unanimous items, Fleiss' kappa, pairwise agreement."""
    names = records.adjudication_responders
    items = [(p, cid) for p in records.pairs.values() for cid in p.cids if cid in p.queue]
    out = {"pairs": len({p.pair for p, _ in items}), "conditions": len(items)}
    if not items or len(names) != 3:
        return out
    votes = [[p.adjudication[cid][w].positive for w in names] for p, cid in items]
    out["unanimous"] = sum(1 for v in votes if len(set(v)) == 1)
    out["non_unanimous"] = len(items) - out["unanimous"]
    out["unanimous_share"] = 100.0 * out["unanimous"] / len(items)
    out["positive_votes"] = sum(sum(v) for v in votes)
    out["fleiss_kappa"] = fleiss_kappa([[sum(v), len(v) - sum(v)] for v in votes])
    pairwise = {}
    for i in range(3):
        for j in range(i + 1, 3):
            agree = sum(1 for v in votes if v[i] == v[j])
            pairwise["%s-%s" % (names[i], names[j])] = 100.0 * agree / len(votes)
    out["pairwise_agreement"] = pairwise
    out["pool_pages"] = [min(len(p.queue[c]) for p, c in items), max(len(p.queue[c]) for p, c in items)]
    out["displayed_pages"] = sum(len(p.queue[c]) for p, c in items)
    return out


def revised(initial_qrels, records, decided, release):
    """A release's qrels after applying the re-derived decisions of its audited pairs:
    ``{qid: {docid: grade}}`` with grade-0 pairs removed."""
    out = {qid: dict(g) for qid, g in initial_qrels.items()}
    for p in records.pairs.values():
        if p.release != release:
            continue
        grade = decided[p.pair]
        row = out.setdefault(p.qid, {})
        if grade == 0:
            row.pop(p.docid, None)
        else:
            row[p.docid] = grade
    return out


def qrel_differences(derived, released):
    """Pairs whose grade differs between two ``{qid: {docid: grade}}`` copies (0 = absent), sorted."""
    diffs = []
    for qid in sorted(set(derived) | set(released)):
        a, b = derived.get(qid, {}), released.get(qid, {})
        for d in sorted(set(a) | set(b)):
            if a.get(d, 0) != b.get(d, 0):
                diffs.append((qid, d, a.get(d, 0), b.get(d, 0)))
    return diffs


def _prior_pages(records, p, i):
    a, e = records.initial_responders
    out = []
    for page in list(p.initial[a][i].pages) + list(p.initial[e][i].pages):
        if page not in out:
            out.append(page)
    return out


def expanded_pool(records, construction):
    """Table S10 from the queue records, and the pools re-derived from their candidates
    (:func:`nclue.labelaudit.pool.merge`).  ``construction``: ``{(release, docid, cid): pages}`` of the
    released inventories.  Returns ``(table, first_problem)``."""
    sizes, members = [], {route: 0 for route in pool_rules.MEMBERSHIP_ROUTES}
    out = {"pairs": 0, "conditions": 0, "pool_mismatches": 0, "size_out_of_range": 0, "prior_mismatches": 0,
           "shown_mismatches": 0, "construction_mismatches": 0, "unproposed_pages": 0}
    first = ""
    for p in records.pairs.values():
        if not p.queue:
            continue
        out["pairs"] += 1
        for i, cid in enumerate(p.cids):
            if cid not in p.queue:
                continue
            pool, cand = p.queue[cid], p.candidates[cid]
            out["conditions"] += 1
            sizes.append(len(pool))
            checks = (
                ("pool_mismatches", list(pool) != pool_rules.merge(cand)[:len(pool)], "the pool is not the merged candidates"),
                ("size_out_of_range", not pool_rules.POOL_SIZES[0] <= len(pool) <= pool_rules.POOL_SIZES[1],
                 "pool of %d pages" % len(pool)),
                ("prior_mismatches", list(cand.get("prior_selected", ())) != _prior_pages(records, p, i),
                 "prior_selected is not the initial evaluators' pages"),
                ("shown_mismatches", list(cand.get("original_shown", ())) != list(p.shown[i]),
                 "original_shown is not the packet's shown pages"),
                ("construction_mismatches", list(cand.get("construction", ())) != list(
                    construction.get((p.release, p.docid, cid), ())), "construction is not the inventory's pages"),
                ("unproposed_pages", any(not any(pg in cand.get(r, ()) for r in pool_rules.ROUTES) for pg in pool),
                 "a pool page no route proposes"))
            for key, bad, why in checks:
                if bad:
                    out[key] += 1
                    first = first or "pair %s / %s: %s" % (p.pair, cid, why)
            for route, count in pool_rules.memberships(cand, pool).items():
                members[route] += count
    out["displayed_pages"] = sum(sizes)
    out["pages_min"] = min(sizes) if sizes else None
    out["pages_mean"] = sum(sizes) / len(sizes) if sizes else None
    out["pages_max"] = max(sizes) if sizes else None
    out["memberships"] = members
    return out, first


def _locked_positives(records, p, a, e):
    """The conditions of a queued pair that both initial answers make positive with quotes passing the gate."""
    if not p.queue:
        return set()
    ok = gate_checker(records, p)
    return {cid for i, cid in enumerate(p.cids) if cid not in p.queue and p.initial[a][i].positive
            and p.initial[e][i].positive and ok(p.initial[a][i]) and ok(p.initial[e][i])}


def _check_recall(out, records, p, i, cid):
    """Count one locked positive's recall record into ``out``; the first problem with it ("" when none)."""
    if cid not in p.recall:
        out["missing"] += 1
        return "pair %s / %s: locked positive without a recall record" % (p.pair, cid)
    cand, pool, submitted = p.recall[cid]
    out["conditions"] += 1
    problem = ""
    if list(pool) != pool_rules.merge(cand)[:pool_rules.POOL_SIZES[1]]:
        out["pool_mismatches"] += 1
        problem = "pair %s / %s: the recall pool is not the merged candidates" % (p.pair, cid)
    if sorted(submitted) != sorted(_prior_pages(records, p, i)):
        out["submitted_mismatches"] += 1
        problem = problem or "pair %s / %s: submitted is not the initial evaluators' pages" % (p.pair, cid)
    for rank in pool_rules.RECALL_RANKS:
        out["recovered_by_%d" % rank] += bool(set(pool[:rank]) & set(submitted))
    last = pool_rules.RECALL_RANKS[-1]
    out["all_submitted_by_%d" % last] += set(submitted) <= set(pool[:last])
    return problem


def pool_recall(records):
    """The held-out recall check (10.3.1): for every locked positive condition of a queued pair, is an
    evaluator-selected page in the pool by rank 6 / by rank 9, and are all of them there by rank 9."""
    a, e = records.initial_responders
    out = {"conditions": 0, "missing": 0, "unexpected": 0, "pool_mismatches": 0, "submitted_mismatches": 0}
    for rank in pool_rules.RECALL_RANKS:
        out["recovered_by_%d" % rank] = 0
    out["all_submitted_by_%d" % pool_rules.RECALL_RANKS[-1]] = 0
    first = ""
    for p in records.pairs.values():
        locked = _locked_positives(records, p, a, e)
        for cid in sorted(set(p.recall) - locked):
            out["unexpected"] += 1
            first = first or "pair %s / %s: checked but not a locked positive of a queued pair" % (p.pair, cid)
        for i, cid in enumerate(p.cids):
            if cid in locked:      # every locked positive is counted, past the first problem too
                problem = _check_recall(out, records, p, i, cid)
                first = first or problem
    return out, first
