"""Secondary diagnostics (paper section 5; supplement section 9 and Table S5b; docs/analyses.md#v1diagnostics),
once per release whose claim-id templates name them (:mod:`nclue.core.claim_ids`).

``<release>.diagnostics`` (scoring level):

* ``length_matched``: for each query-form system on the raw matrix, the macro pairwise AUC of gold
  over subsets (:func:`nclue.core.metrics.pairwise_auc`) and the same over length-matched pairs only
  (gold and subset in the same half-octave page-count bin; :func:`nclue.core.metrics.length_matched_auc`),
  with the queries and matched pairs behind each;
* ``density_matched``: every n = 3 query matched to an n = 2 query of nearest |D+|
  (:func:`nclue.core.structure.density_matched_pairs`); each scorecard system's n-Clue Score and Gold
  Hit on the two matched sets (clean form), and whether n = 3 scores higher for every system;
* ``repairs``: the stratified audit's v1 repairs by transition (subset -> gold, gold -> subset, other)
  and how many appear in the union of the clean scorecard's top 10 for their query.

``<release>.figure2`` (scoring level): Figure 2's data -- every fair method's (``fair`` and not in the
``controls`` block of systems.json) raw-form n-Clue Score and Gold Hit, and each Table 5 block's
displayed pair in the Delta Gold Hit / Delta n-Clue Score plane (points).
"""

import math

from ..core import layout
from ..core.claim_ids import DIAGNOSTIC, DIAGNOSTIC_SYSTEM, FIGURE2, FIGURE2_METHOD, FIGURE2_PAIR
from ..core.measures import AUC, AUC_QUERIES, GOLD_HIT, NCLUE_SCORE
from ..core.metrics import length_bin, length_matched_auc, summary
from ..core.structure import density_matched_pairs
from .base import Unit, Value, per_release
from .shared.outcome_vectors import delta, gold_sets, outcomes, query_factors
from .shared.release_systems import contrasts, displayed_variant, form_systems, ranked

SRC_LENGTH = "paper section 5 and supplement section 9 (length-matched gold-subset AUC; AUC 0-1)"
SRC_DENSITY = "supplement section 9 (density-matched n = 3 vs n = 2; n-Clue Score and Gold Hit in points)"
SRC_REPAIRS = "supplement Table S5b (observed audit repairs)"
SRC_FIGURE = "paper Figure 2 (fair methods; Table 5 pairs in the Delta-Hit / Delta-Score plane; points)"


def _length_values(inst, sid):
    rel = inst.spec.ranking(sid)
    ranking = inst.ranking(rel)
    sets = gold_sets(inst)
    corpus = inst.corpus()
    bins = {d: length_bin(doc.pages) for d, doc in corpus.items()}
    aucs, pairs = [], 0
    for qid in sorted(inst.evaluation_queries()):
        gold, subset = sets[qid]
        row = ranking.get(qid)
        auc, matched = length_matched_auc(list(row.docids) if row else [], gold, subset, bins)
        if auc is not None:
            aucs.append(auc)
            pairs += matched
    s = summary(outcomes(inst, rel))
    auc = s[AUC.key]
    of_system = DIAGNOSTIC_SYSTEM.on(inst.spec.name).bind(check="length_matched", system=sid)
    matched_auc = math.fsum(aucs) / len(aucs) if aucs else None
    out = [Value(of_system("auc"), auc, source=SRC_LENGTH),
           Value(of_system("length_matched_auc"), matched_auc, source=SRC_LENGTH),
           Value(of_system("auc_change"), None if matched_auc is None or auc is None else matched_auc - auc,
                 source=SRC_LENGTH)]
    if sid == form_systems(inst)[0]:      # the pairs are the qrels', the same for every system: stated once
        check = DIAGNOSTIC.on(inst.spec.name).bind(check="length_matched")
        out += [Value(check("auc_queries"), s[AUC_QUERIES.key], source=SRC_LENGTH),
                Value(check("matched_queries"), len(aucs), source=SRC_LENGTH),
                Value(check("matched_pairs"), pairs, source=SRC_LENGTH),
                Value(check("all_pairs"), sum(len(g) * len(b) for g, b in sets.values()), source=SRC_LENGTH)]
    return out


def _density_values(inst):
    factors = query_factors(inst)
    pairs = density_matched_pairs(factors)
    three = {q for q, _ in pairs}
    two = {c for _, c in pairs}
    check = DIAGNOSTIC.on(inst.spec.name).bind(check="density_matched")
    out = [Value(check("pairs"), len(pairs), source=SRC_DENSITY),
           Value(check("n3_mean_pool"), sum(factors[q]["pool"] for q in three) / len(pairs), source=SRC_DENSITY),
           Value(check("n2_mean_pool"), sum(factors[q]["pool"] for q in two) / len(pairs), source=SRC_DENSITY),
           Value(check("max_pool_gap"), max(abs(factors[a]["pool"] - factors[b]["pool"]) for a, b in pairs),
                 source=SRC_DENSITY)]
    easier = 0
    sids = form_systems(inst)
    score, hit = NCLUE_SCORE.key, GOLD_HIT.key
    for sid in sids:
        o = outcomes(inst, inst.spec.form_ranking(sid, layout.CLEAN))
        s3 = summary(o, [q in three for q in o.qids])
        s2 = summary(o, [q in two for q in o.qids])
        of_system = DIAGNOSTIC_SYSTEM.on(inst.spec.name).bind(check="density_matched", system=sid)
        out += [Value(of_system("n3_nclue_score"), s3[score], source=SRC_DENSITY),
                Value(of_system("n2_nclue_score"), s2[score], source=SRC_DENSITY),
                Value(of_system("n3_minus_n2_nclue_score"), s3[score] - s2[score], source=SRC_DENSITY),
                Value(of_system("n3_gold_hit"), s3[hit], source=SRC_DENSITY),
                Value(of_system("n2_gold_hit"), s2[hit], source=SRC_DENSITY)]
        easier += s3[score] > s2[score]
    out += [Value(check("systems_n3_higher"), easier, source=SRC_DENSITY),
            Value(check("n3_higher_for_every_system"), easier == len(sids), source=SRC_DENSITY,
                  detail="%d of %d scorecard systems score higher on the matched n = 3 queries" % (easier, len(sids)))]
    return out


def _repair_values(inst):
    queries = inst.queries()
    repairs = list(inst.repairs().values())
    tops = {}
    for sid in form_systems(inst):
        for qid, row in inst.ranking(inst.spec.form_ranking(sid, layout.CLEAN)).items():
            tops.setdefault(qid, set()).update(row.docids[:10])
    kinds = {"subset_to_gold": 0, "gold_to_subset": 0, "other": 0}
    in_top = 0
    for r in repairs:
        n = queries[r.qid].n
        if r.grade_after == n and 0 < r.grade_before < n:
            kinds["subset_to_gold"] += 1
        elif r.grade_before == n and 0 < r.grade_after < n:
            kinds["gold_to_subset"] += 1
        else:
            kinds["other"] += 1
        in_top += r.docid in tops.get(r.qid, ())
    check = DIAGNOSTIC.on(inst.spec.name).bind(check="repairs")
    out = [Value(check("count"), len(repairs), source=SRC_REPAIRS),
           Value(check("in_clean_top10_union"), in_top, source=SRC_REPAIRS)]
    out += [Value(check(k), v, source=SRC_REPAIRS) for k, v in sorted(kinds.items())]
    return out


def _units(inst):
    if not ranked(inst):
        return []
    units = []
    sids = form_systems(inst)
    spec = inst.spec
    inputs = spec.evaluation_inputs + [spec.systems]
    for sid in sids:
        units.append(Unit("length/" + sid, inputs + [spec.ranking(sid)], lambda sid=sid: _length_values(inst, sid)))
    clean = [spec.form_ranking(s, layout.CLEAN) for s in sids]
    if sids:
        units.append(Unit("density", inputs + clean, lambda: _density_values(inst)))
    repairs = spec.file("repairs")
    if repairs and inst.exists(repairs) and sids:
        units.append(Unit("repairs", [p for p in (spec.corpus, spec.conditions, spec.queries) if p] +
                          [spec.copy("construction").path, spec.systems, repairs] + clean,
                          lambda: _repair_values(inst)))
    return units


def fair_methods(inst):
    """Figure 2's methods: systems.json ``fair`` systems outside the ``controls`` block (sorted)."""
    systems, _ = inst.systems()
    return sorted(sid for sid, s in systems.items() if s.fair and s.block != "controls")


def _figure_units(inst):
    fair = fair_methods(inst)
    blocks = contrasts(inst)

    def methods():
        out = [Value(FIGURE2.on(inst.spec.name)(statistic="fair_methods"), len(fair), source=SRC_FIGURE)]
        for sid in fair:
            s = summary(outcomes(inst, inst.spec.ranking(sid)))
            claim = FIGURE2_METHOD.on(inst.spec.name).bind(system=sid)
            out += [Value(claim(NCLUE_SCORE.key), s[NCLUE_SCORE.key], source=SRC_FIGURE),
                    Value(claim(GOLD_HIT.key), s[GOLD_HIT.key], source=SRC_FIGURE)]
        return out

    def pairs():
        out = []
        for block in blocks:
            var = displayed_variant(inst, block)
            sb = summary(outcomes(inst, inst.spec.ranking(block["base"])))
            sv = summary(outcomes(inst, inst.spec.ranking(var)))
            claim = FIGURE2_PAIR.on(inst.spec.name).bind(block=block["block"])
            out += [Value(claim("delta_" + GOLD_HIT.key), delta(sb, sv, GOLD_HIT.key), source=SRC_FIGURE),
                    Value(claim("delta_" + NCLUE_SCORE.key), delta(sb, sv, NCLUE_SCORE.key), source=SRC_FIGURE)]
        return out
    files = sorted({inst.spec.ranking(s) for b in blocks for s in [b["base"]] + b["variants"]})
    inputs = inst.spec.evaluation_inputs
    return [Unit("methods", inputs + [inst.spec.ranking(s) for s in fair], methods),
            Unit("pairs", inputs + files, pairs)]


ANALYSES = (per_release(DIAGNOSTIC, "scoring", "section 5, supplement section 9 and Table S5b", _units)
            + per_release(FIGURE2, "scoring", "Figure 2 (fair methods and Table 5 pairs)",
                          lambda inst: _figure_units(inst) if ranked(inst) else []))
