"""Sensitivity level (supplement sections 3-4; Tables S1e-S1i analogues).

For the displayed endpoint of every controlled block (the contrast Table 5
shows), on the raw matrix:

* crossed query x document (pigeonhole) bootstrap of Delta Score over gold
  memberships and over all judged memberships (95% percentile intervals;
  ``protocol.CROSSED.n_draws`` draws each);
* leave-one-gold-document range of Delta Score; removal of the 20
  highest-degree gold documents, with the number of queries left;
* exact adversarial promotion bounds for k = 0..3 judged subsets per query;
* common-support ordering: Delta D and both systems' M/P/G;

the promotion-stress verdict of Table S5b (does every positive displayed gap
reach zero with one promotion per query?); the difficulty regression
(logistic, IRLS, Wald) of clean-form success on condition rarity, n, L_min
and |D+|: pooled over the 13 scorecard runs and per scorecard system; and
Table S1i's CrossPage column (``v1.sensitivity.shared_documents``).
"""

import math

from ..core import layout
from ..core.claim_ids import (
    PROMOTION,
    REGRESSION,
    REGRESSION_TERM,
    SENSITIVITY_BLOCK,
    SENSITIVITY_CHECK,
    SHARED_DOCUMENTS,
)
from ..core.errors import InputError
from ..core.metrics import common_support
from ..stats import protocol
from ..stats.logistic import FitError, logistic_fit
from ..stats.robustness import crossed_draws, crossed_statistics, leave_one_document_range, promotion_bounds
from .base import Analysis, Unit, Value, per_release
from .shared.inference_context import context
from .shared.outcome_vectors import gold_sets, outcomes, query_factors
from .shared.release_systems import contrasts, displayed_variant, form_systems, ranked
from .shared.robustness_values import (
    S1I_GAP,
    S1I_PAIR,
    S1I_SOURCE,
    crossed_interval_values,
    drop_top_values,
    shared_document_values,
)

SOURCE = "supplement sections 3-4 (Tables S1e-S1i analogues)"


def _delta(inst, base, var):
    b = outcomes(inst, inst.spec.ranking(base)).success
    v = outcomes(inst, inst.spec.ranking(var)).success
    return [y - x for x, y in zip(b, v)]


def crossed_weights_of(inst, label):
    """``(weights, totals, query_weights, query_totals)``: the crossed bootstrap's per-draw query weights over
    ``gold`` or ``judged`` memberships and the same draws' query-only weights
    (:func:`nclue.stats.robustness.crossed_draws`; docs/statistics.md#crossed-query-x-document-bootstrap):
    every block's contrast is summarised on the same weights, computed once from the qrels alone."""
    def compute():
        ctx = context(inst)
        sets, qrels = gold_sets(inst), inst.qrels()
        doc_index = {d: i for i, d in enumerate(sorted(inst.corpus()))}
        members = [[doc_index[d] for d in sorted(sets[q][0] if label == "gold" else qrels[q])] for q in ctx.qids]
        weights, query_weights = crossed_draws(members, len(doc_index), protocol.stream(protocol.CROSSED, label=label),
                                               protocol.draws(protocol.CROSSED))
        return weights, [math.fsum(w) for w in weights], query_weights, [math.fsum(w) for w in query_weights]
    return inst.memo("sensitivity:crossed-weights:x%d:%s" % (protocol.multiplier(), label), compute)


def crossed(inst, block):
    """``{label: (crossed distribution, query-only distribution)}`` of one block's displayed contrast; it reads
    the block's rankings and the shared weights only."""
    delta = _delta(inst, block["base"], displayed_variant(inst, block))
    out = {}
    for label in ("gold", "judged"):
        weights, totals, query_weights, query_totals = crossed_weights_of(inst, label)
        out[label] = (crossed_statistics([delta], weights, totals=totals)[0],
                      crossed_statistics([delta], query_weights, totals=query_totals)[0])
    return out


def block_promotion_bounds(inst, block):
    """Exact adversarial promotion bounds k = 0..3 of a block's displayed contrast (memoised)."""
    def compute():
        qids = context(inst).qids
        sets = gold_sets(inst)
        var = displayed_variant(inst, block)
        rb, rv = inst.ranking(inst.spec.ranking(block["base"])), inst.ranking(inst.spec.ranking(var))
        return promotion_bounds([list(rb[q].docids) for q in qids], [list(rv[q].docids) for q in qids],
                                [sets[q][0] for q in qids], [sets[q][1] for q in qids], 3)
    return inst.memo("sensitivity:promotion:" + block["block"], compute)


def _promotion_verdict(inst):
    """Table S5b's promotion-stress row: does every positive displayed gap cross zero at k = 1?"""
    src = "supplement Table S5b (promotion stress: every positive gap can cross zero at k = 1)"
    positive = crossing = 0
    first = ""
    for block in contrasts(inst):
        bounds = block_promotion_bounds(inst, block)
        if bounds[0] > 0:
            positive += 1
            if bounds[1] <= 0:
                crossing += 1
            elif not first:
                first = "%s: k = 1 bound %+.1f points" % (block["block"], bounds[1])
    claim = PROMOTION.on(inst.spec.name)
    return [Value(claim("positive_gaps"), positive, source=src),
            Value(claim("positive_gaps_crossing_zero_at_k1"), crossing, source=src),
            Value(claim("every_positive_gap_crosses_zero_at_k1"), crossing == positive, source=src,
                  detail=first or "%d of %d positive displayed gaps reach <= 0 with one promotion per query" % (
                      crossing, positive))]


def _contrast_values(inst, block):
    ctx = context(inst)
    base, var = block["base"], displayed_variant(inst, block)
    qids = ctx.qids
    sets = gold_sets(inst)
    delta = _delta(inst, base, var)
    gold = [sorted(sets[q][0]) for q in qids]
    of_block = SENSITIVITY_BLOCK.on(inst.spec.name).bind(block=block["block"])
    check = SENSITIVITY_CHECK.on(inst.spec.name).bind(block=block["block"])
    out = [Value(of_block("variant"), var), Value(of_block("delta_score"), 100.0 * sum(delta) / len(delta))]
    for label, (dist, query_only) in sorted(crossed(inst, block).items()):
        out += crossed_interval_values(check.bind(check="crossed_" + label), "ci", dist, query_only,
                                       protocol.CROSSED, SOURCE)
    gold_docs = sorted({d for g in gold for d in g})
    lo, hi, at_lo, at_hi = leave_one_document_range(delta, gold, gold_docs)
    leave_one = check.bind(check="leave_one_gold_doc")
    out += [Value(leave_one("min"), lo), Value(leave_one("max"), hi),
            Value(leave_one("argmin"), at_lo), Value(leave_one("argmax"), at_hi)]
    out += drop_top_values(check.bind(check="drop_top20_degree"), "delta_score", delta, gold, 100.0, SOURCE)
    bounds = block_promotion_bounds(inst, block)
    out += [Value(check(check="promotion_bound", statistic="k%d" % k), b) for k, b in enumerate(bounds)]
    cs = common_support(outcomes(inst, inst.spec.ranking(base)), outcomes(inst, inst.spec.ranking(var)))
    support = check.bind(check="common_support")
    out += [Value(support("queries"), cs["common_queries"]), Value(support("D_base"), cs["D_base"]),
            Value(support("D_variant"), cs["D_variant"]), Value(support("delta_D"), cs["delta_D"])]
    for side in ("base", "variant"):
        for key in ("M", "P", "G"):
            out.append(Value(support("%s_%s" % (side, key)), cs[side][key]))
    return [Value(v.id, v.value, source=SOURCE, estimate=v.estimate) for v in out]


def _contrast_units(inst):
    if not ranked(inst):
        return []
    units = []
    every = set()
    inputs = inst.spec.evaluation_inputs
    for block in contrasts(inst):
        rels = [inst.spec.ranking(s) for s in [block["base"]] + block["variants"]]
        every.update(rels)
        units.append(Unit(block["block"], inputs + rels, lambda block=block: _contrast_values(inst, block)))
    if units:
        units.append(Unit("promotion_verdict", inputs + [inst.spec.systems] + sorted(every),
                          lambda: _promotion_verdict(inst)))
    return units


def _shared_document_units(inst):
    if not ranked(inst):
        return []
    systems, _ = inst.systems()
    if not all(s in systems for s in S1I_PAIR):
        return []
    files = [inst.spec.ranking(s) for s in S1I_PAIR]
    return [Unit(inst.spec.name, inst.spec.evaluation_inputs + files,
                 lambda: shared_document_values(inst, files[0], files[1], S1I_GAP))]


def _shared_document_units_of(release):
    """Table S1i's column of ``release``: its units on the instrument of that release."""
    return lambda inst: _shared_document_units(inst.release(release))


def regression_rows(inst):
    """Covariates per query (sorted qids): mean ln df of its conditions, 1[n = 3], ln L_min, ln |D+|."""
    inventory = inst.inventory()
    df = {}
    for (_, cid) in inventory:
        df[cid] = df.get(cid, 0) + 1
    factors = query_factors(inst)
    queries = inst.evaluation_queries()
    rows = []
    for qid in sorted(queries):
        q, f = queries[qid], factors[qid]
        if f["lmin"] is None or any(c.cid not in df for c in q.conditions):
            raise InputError(inst.spec.qrels, "query %s has no gold or a condition no document carries: "
                                      "the difficulty regression needs both" % qid)
        rarity = math.fsum(math.log(df[c.cid]) for c in q.conditions) / q.n
        rows.append([rarity, 1.0 if q.n == 3 else 0.0, math.log(f["lmin"]), math.log(f["pool"])])
    return rows


TERMS = ("intercept", "mean_ln_condition_df", "n_is_3", "ln_lmin", "ln_positive_pool")
POOLED = "pooled"           # the pooled fit's model name, beside one model per scorecard system


def _fit_values(inst, model, rows, y, trials=None):
    """One logistic fit's claims: whether it converged, and each term's coefficient, SE and Wald p."""
    claim = REGRESSION.on(inst.spec.name).bind(model=model)
    try:
        fit = logistic_fit(rows, y, trials=trials)
    except FitError as exc:
        return [Value(claim("converged"), False, source=SOURCE, detail=str(exc))]
    out = [Value(claim("converged"), fit["converged"], source=SOURCE)]
    term_claim = REGRESSION_TERM.on(inst.spec.name).bind(model=model)
    for i, term in enumerate(TERMS):
        for key in ("coef", "se", "p"):
            out.append(Value(term_claim(term=term, statistic=key), fit[key][i], rule="abs:1e-7", source=SOURCE))
    return out


def pooled_outcomes(inst):
    """Per query (sorted qids): successes out of the scorecard systems' clean-form runs, and their number."""
    sids = form_systems(inst)
    vectors = [outcomes(inst, inst.spec.form_ranking(sid, layout.CLEAN)).success for sid in sids]
    return [sum(col) for col in zip(*vectors)], len(sids)


def _regression_units(inst):
    """The difficulty regression (supplement section 9; docs/analyses.md#the-difficulty-regression): one
    pooled fit -- per query, successes out of the 13 scorecard runs (binomial logistic, one row per query;
    the pooled estimate treats runs of a query as independent given the covariates) -- and one fit per
    scorecard system, each on condition rarity, n, ln L_min and ln |D+| with Wald SEs and p."""
    if not ranked(inst):
        return []
    units = []
    sids = form_systems(inst)
    rels = [inst.spec.form_ranking(sid, layout.CLEAN) for sid in sids]
    inputs = inst.spec.evaluation_inputs + [inst.spec.inventory]
    for sid, rel in zip(sids, rels):
        units.append(Unit(sid, inputs + [rel], lambda sid=sid, rel=rel: (
            _fit_values(inst, sid, regression_rows(inst), list(outcomes(inst, rel).success)))))

    def pooled():
        y, runs = pooled_outcomes(inst)
        rows = regression_rows(inst)
        claim = REGRESSION.on(inst.spec.name).bind(model=POOLED)
        return [Value(claim("runs"), runs, source=SOURCE), Value(claim("rows"), runs * len(rows), source=SOURCE)
                ] + _fit_values(inst, POOLED, rows, y, [runs] * len(rows))
    if sids:
        units.append(Unit("pooled", inst.spec.evaluation_inputs + [inst.spec.systems, inst.spec.inventory] + rels,
                          pooled))
    return units


ANALYSES = (per_release(SENSITIVITY_BLOCK, "sensitivity", SOURCE, _contrast_units)
            + per_release(REGRESSION, "sensitivity", SOURCE, _regression_units)
            + [Analysis(SHARED_DOCUMENTS.analysis_on(release), "sensitivity", S1I_SOURCE + ", %s column" % (
                layout.RELEASE_NAMED[release].title), _shared_document_units_of(release))
               for release in SHARED_DOCUMENTS.copies if release in SENSITIVITY_BLOCK.copies])
