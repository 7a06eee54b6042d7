"""Inference level (paper section 3.4, Table 5; supplement sections 3-4).

* family-clustered 95% percentile bootstrap (1,000 draws over exact-gold-set
  families) of every raw-matrix system's n-Clue Score, Gold Hit and Gold-NDCG;
* paired intervals of every block contrast on the same draws;
* paired randomization (10,000 whole-family sign flips, shared by every
  contrast) of Delta Score; single-step max-|T| over each block's tried
  endpoints; Holm across the blocks for the displayed endpoint (the
  highest raw-form Score, chosen as the paper chose it; the choice is a claim).

Seeds: the paper's selection seed 11, split by label with
:func:`nclue.core.rng.derive` ("bootstrap", "randomization").
"""

from ..core import layout
from ..core.structure import families
from ..stats import bootstrap, protocol, randomization
from .base import Analysis, Unit, Value
from .common import METRICS, SCORE_INPUTS, context, contrasts, displayed_variant, gold_sets, masked_systems, unit_scale

SOURCE = "Table 5 / S1 intervals (section 3.4)"
EXACT_SOURCE = ("exact whole-family sign-flip p over all 2^F sign vectors (docs/statistics.md#exact-p-values); the "
                "Monte Carlo p stays the paper's estimand")




def _bootstrap_units(inst):
    systems, _ = inst.systems()
    units = []
    for sid in sorted(systems):
        def compute(sid=sid):
            ctx = context(inst)
            out = []
            for name, metric in METRICS:
                lo, hi = bootstrap.percentile_interval(ctx.distribution(metric, sid))
                prefix = "v1.inference.bootstrap.%s.%s" % (sid, name)
                out += [Value(prefix + ".ci_low", lo, source=SOURCE), Value(prefix + ".ci_high", hi, source=SOURCE)]
            return out
        units.append(Unit(sid, SCORE_INPUTS + [layout.ranking_path(sid)], compute))
    units.append(Unit("design", SCORE_INPUTS, lambda: [
        Value("v1.inference.design.families", context(inst).design.n_families, source=SOURCE),
        Value("v1.inference.design.bootstrap_draws", protocol.BOOTSTRAP.n_draws, source=SOURCE),
        Value("v1.inference.design.randomization_draws", protocol.RANDOMIZATION.n_draws, source=SOURCE),
        Value("v1.inference.design.seed", protocol.STATISTICS_SEED, source=SOURCE)]))
    return units


def block_tests(ctx, block):
    """Randomization tests of every endpoint of a block (Delta success count), shared flips."""
    base = ctx.vector(block["base"], "success")
    diffs = [randomization.family_differences(ctx.design, base, ctx.vector(var, "success")) for var in block["variants"]]
    return randomization.sign_flip_tests(diffs, ctx.masks)


def displayed(ctx, block):
    """The displayed endpoint (:func:`nclue.analyses.common.displayed_variant`)."""
    return displayed_variant(ctx.inst, block)


def _block_values(ctx, block):
    out = []
    base = block["base"]
    tests = block_tests(ctx, block)
    p_max = randomization.max_t_p_values(tests)
    for var, test, pm in zip(block["variants"], tests, p_max):
        prefix = "v1.inference.contrast.%s.%s" % (block["block"], var)
        for name, metric in METRICS:
            lo, hi = bootstrap.percentile_interval(ctx.distribution(metric, var, base))
            out += [Value("%s.delta_%s_ci_low" % (prefix, name), lo, source=SOURCE),
                    Value("%s.delta_%s_ci_high" % (prefix, name), hi, source=SOURCE)]
        exact = randomization.exact_sign_flip_p(test.diffs)
        hit_diffs = randomization.family_differences(ctx.design, ctx.vector(base, "hit"), ctx.vector(var, "hit"))
        out += [Value(prefix + ".t_observed", test.observed, source=SOURCE),
                Value(prefix + ".p_randomization", test.p_value(), source=SOURCE),
                Value(prefix + ".p_exact", exact, source=EXACT_SOURCE),
                Value(prefix + ".p_randomization_within_3se_of_exact",
                      randomization.within_monte_carlo_error(test.p_value(), exact, protocol.RANDOMIZATION.n_draws),
                      source=EXACT_SOURCE),
                Value(prefix + ".p_exact_hit", randomization.exact_sign_flip_p(hit_diffs), source=EXACT_SOURCE),
                Value(prefix + ".p_max_t", pm, source=SOURCE)]
    return out, p_max[block["variants"].index(displayed(ctx, block))]


def _holm_unit(inst):
    ctx = context(inst)
    blocks = contrasts(inst)
    values, selected = [], []
    for block in blocks:
        vals, p_sel = _block_values(ctx, block)
        values += vals
        selected.append(p_sel)
    adjusted = randomization.holm(selected)
    for block, p_sel, p_adj in zip(blocks, selected, adjusted):
        prefix = "v1.inference.block.%s" % block["block"]
        values += [Value(prefix + ".displayed_variant", displayed(ctx, block), source=SOURCE,
                         detail="selection rule: highest raw-form n-Clue Score among %s" % block["variants"]),
                   Value(prefix + ".p_selected", p_sel, source=SOURCE),
                   Value(prefix + ".p_selected_holm", p_adj, source=SOURCE)]
    return values


def _contrast_units(inst):
    blocks = contrasts(inst)
    rels = sorted({layout.ranking_path(s) for b in blocks for s in [b["base"]] + b["variants"]})
    return [Unit("blocks", SCORE_INPUTS + [layout.SYSTEMS] + rels, lambda: _holm_unit(inst))]


MASKING_SOURCE = ("supplement Table S5a (masked minus full, paired family bootstrap, %d draws, 95%% percentile "
                  "interval; * = interval excludes 0; points)" % protocol.BOOTSTRAP.n_draws)


def masking_distributions(inst, sid, base, drop):
    """Paired bootstrap distributions (points) of masked minus full Gold-NDCG@10 and Gold Hit@10.

    Drop c1 / c2: the context's shared draws over all queries' families.  Drop c3: the n = 3 queries
    only, with their own exact-gold-set families and draws (:data:`nclue.stats.protocol.N3_BOOTSTRAP`)."""
    ctx = context(inst)
    if drop < 3:
        return {name: ctx.distribution(metric, sid, base) for name, metric in (("gold_ndcg", "gold_ndcg"),
                                                                                 ("hit", "hit"))}

    def build():
        sets = gold_sets(inst)
        queries = inst.evaluation_queries()
        qids = [q for q in ctx.qids if queries[q].n == 3]
        design = bootstrap.FamilyDesign(qids, families({q: sets[q] for q in qids}))
        draws = bootstrap.draw_indices(protocol.stream(protocol.N3_BOOTSTRAP), design.n_families,
                                       protocol.N3_BOOTSTRAP.n_draws)
        return qids, design, draws, bootstrap.draw_denominators(design, draws)
    qids, design, draws, den = inst.memo("inference:n3-design", build)
    position = {q: i for i, q in enumerate(ctx.qids)}
    out = {}
    for name, metric in (("gold_ndcg", "gold_ndcg"), ("hit", "hit")):
        vb, vv = ctx.vector(base, metric), ctx.vector(sid, metric)
        diff = [vv[position[q]] - vb[position[q]] for q in qids]
        sums = bootstrap.draw_sums(design, [diff], draws)[0]
        scale = unit_scale(metric == "gold_ndcg")
        out[name] = [scale * x / n for x, n in zip(sums, den)]
    return out


def _masking_units(inst):
    units = []
    for sid, base, drop in masked_systems(inst):

        def compute(sid=sid, base=base, drop=drop):
            prefix = "v1.inference.masking.%s.drop_c%d" % (base, drop)
            out = []
            for name, dist in sorted(masking_distributions(inst, sid, base, drop).items()):
                lo, hi = bootstrap.percentile_interval(dist)
                out += [Value("%s.delta_%s_ci_low" % (prefix, name), lo, source=MASKING_SOURCE),
                        Value("%s.delta_%s_ci_high" % (prefix, name), hi, source=MASKING_SOURCE),
                        Value("%s.delta_%s_excludes_zero" % (prefix, name), lo > 0 or hi < 0,
                              source=MASKING_SOURCE)]
            return out
        units.append(Unit(sid, SCORE_INPUTS + [layout.ranking_path(base), layout.ranking_path(sid)],
                          compute))
    return units


ANALYSES = [
    Analysis("v1.inference.bootstrap", "inference", SOURCE, _bootstrap_units),
    Analysis("v1.inference.contrasts", "inference", SOURCE, _contrast_units),
    Analysis("v1.inference.masking", "inference", MASKING_SOURCE, _masking_units),
]
