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
from ..paperaudit import roles
from ..paperaudit.crosswalk import load as load_crosswalk
from ..stats import bootstrap, protocol
from .base import Analysis, Unit, Value
from .shared.block_inference import SOURCE, block_tests, displayed, holm_family, interval_values, variant_values
from .shared.inference_context import METRICS, context, unit_scale
from .shared.outcome_vectors import SCORE_INPUTS, gold_sets
from .shared.release_systems import contrasts, masked_systems


def _bootstrap_units(inst):
    systems, _ = inst.systems()
    units = []
    for sid in sorted(systems):
        def compute(sid=sid):
            ctx = context(inst)
            out = []
            for name, metric in METRICS:
                out += interval_values("v1.inference.bootstrap.%s.%s" % (sid, name), ctx.distribution(metric, sid),
                                       protocol.BOOTSTRAP, SOURCE, sep=".")
            return out
        units.append(Unit(sid, SCORE_INPUTS + [inst.spec.ranking(sid)], compute))
    units.append(Unit("design", SCORE_INPUTS, lambda: [
        Value("v1.inference.design.families", context(inst).design.n_families, source=SOURCE),
        Value("v1.inference.design.bootstrap_draws", protocol.BOOTSTRAP.n_draws, source=SOURCE),
        Value("v1.inference.design.randomization_draws", protocol.RANDOMIZATION.n_draws, source=SOURCE),
        Value("v1.inference.design.seed", protocol.STATISTICS_SEED, source=SOURCE)]))
    return units


def _holm_unit(inst):
    """Every block's endpoints (intervals, p-values) and the Holm family of the displayed endpoints (the
    instrument's own post hoc choice, :func:`displayed`)."""
    ctx = context(inst)
    blocks = contrasts(inst)
    values, chosen = [], []
    for block in blocks:
        tests = block_tests(ctx, block)
        values += variant_values(ctx, block, tests)
        chosen.append((tests, block["variants"].index(displayed(ctx, block))))
    for block, (tests, i), (adjusted, estimate) in zip(blocks, chosen, holm_family(chosen)):
        prefix = "v1.inference.block.%s" % block["block"]
        values += [Value(prefix + ".displayed_variant", displayed(ctx, block), source=SOURCE,
                         detail="selection rule: highest raw-form n-Clue Score among %s" % block["variants"]),
                   Value(prefix + ".p_selected", tests.max_t[i], source=SOURCE, estimate=tests.max_t_estimate(i)),
                   Value(prefix + ".p_selected_holm", adjusted, source=SOURCE, estimate=estimate)]
    return values


PAPER_FAMILY_SOURCE = ("Table 5's Sel.+Holm p as the paper computes it: each row's named variant ('Jina joint -> "
                       "harmonic dec.'), max-|T| over every tried endpoint of its block, Holm across the paper's eight "
                       "blocks (section 3.4; docs/statistics.md#the-papers-holm-family)")


def paper_blocks(inst):
    """``[(paper block key, instrument block, named variant or None, why)]`` in the paper's Table 5 order:
    each block of :data:`nclue.paperaudit.roles.BLOCKS` through the crosswalk (its ``block`` row) to this
    instrument's block, and the run the crosswalk gives the variant the paper names for the row."""
    cw = load_crosswalk(inst.root)
    by_id = {b["block"]: b for b in contrasts(inst)}
    out = []
    for key, role in roles.BLOCKS.items():
        block = by_id.get(cw.rows.get("block", {}).get(key))
        variant = cw.rows.get(role.variant[0], {}).get(role.variant[1])
        if block is None:
            out.append((key, None, None, "the crosswalk gives block %s no block of this instrument" % key))
        elif variant not in block["variants"]:
            out.append((key, block, None, "the crosswalk's %s / %s (%s) is not a variant of block %s" % (
                role.variant[0], role.variant[1], variant, block["block"])))
        else:
            out.append((key, block, variant, ""))
    return out


def _paper_family_unit(inst):
    """The paper's Holm family: every paper block's named variant, its max-|T| p and the Holm-adjusted p across
    the eight blocks (None for every block when one of them cannot be played: Holm over fewer blocks is not the
    paper's adjustment)."""
    ctx = context(inst)
    rows = paper_blocks(inst)
    values = []
    missing = [why for _, _, variant, why in rows if variant is None]
    chosen = [] if missing else [(block_tests(ctx, block), block["variants"].index(variant))
                                 for _, block, variant, _ in rows]
    family = holm_family(chosen) if chosen else [(None, None)] * len(rows)
    for (key, block, variant, why), (adjusted, estimate), pick in zip(rows, family, chosen or [None] * len(rows)):
        prefix = "v1.inference.paper_block.%s" % key
        detail = "; ".join(missing[:2]) if missing else ""
        values += [Value(prefix + ".variant", variant, source=PAPER_FAMILY_SOURCE, detail=why),
                   Value(prefix + ".p_max_t", pick[0].max_t[pick[1]] if pick else None, source=PAPER_FAMILY_SOURCE,
                         detail=detail, estimate=pick[0].max_t_estimate(pick[1]) if pick else None),
                   Value(prefix + ".p_holm", adjusted, source=PAPER_FAMILY_SOURCE, detail=detail, estimate=estimate)]
    return values


def _contrast_units(inst):
    blocks = contrasts(inst)
    rels = sorted({inst.spec.ranking(s) for b in blocks for s in [b["base"]] + b["variants"]})
    units = [Unit("blocks", SCORE_INPUTS + [layout.SYSTEMS] + rels, lambda: _holm_unit(inst))]
    if inst.exists(layout.CROSSWALK):
        units.append(Unit("paper_family", SCORE_INPUTS + [layout.SYSTEMS, layout.CROSSWALK] + rels,
                          lambda: _paper_family_unit(inst)))
    return units


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
                                       protocol.draws(protocol.N3_BOOTSTRAP))
        return qids, design, draws, bootstrap.draw_denominators(design, draws)
    qids, design, draws, den = inst.memo("inference:n3-design:%d" % protocol.draws(protocol.N3_BOOTSTRAP), build)
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
            resampling = protocol.N3_BOOTSTRAP if drop == 3 else protocol.BOOTSTRAP
            for name, dist in sorted(masking_distributions(inst, sid, base, drop).items()):
                ends = interval_values("%s.delta_%s" % (prefix, name), dist, resampling, MASKING_SOURCE)
                lo, hi = ends[0].value, ends[1].value
                out += ends + [Value("%s.delta_%s_excludes_zero" % (prefix, name), lo > 0 or hi < 0,
                                     source=MASKING_SOURCE)]
            return out
        units.append(Unit(sid, SCORE_INPUTS + [inst.spec.ranking(base), inst.spec.ranking(sid)],
                          compute))
    return units


ANALYSES = [
    Analysis("v1.inference.bootstrap", "inference", SOURCE, _bootstrap_units),
    Analysis("v1.inference.contrasts", "inference", SOURCE, _contrast_units),
    Analysis("v1.inference.masking", "inference", MASKING_SOURCE, _masking_units),
]
