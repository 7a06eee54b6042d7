"""Inference level (paper section 3.4, Table 5; supplement sections 3-4), once per release whose claim-id
templates name it (:mod:`nclue.core.claim_ids`; docs/statistics.md):

* ``<release>.inference.bootstrap``: family-clustered 95% percentile bootstrap (1,000 draws over exact-gold-set
  families) of every raw-matrix system's n-Clue Score, Gold Hit and Gold-NDCG, and the design;
* ``<release>.inference.contrasts``: paired intervals of every block contrast on the same draws; paired
  randomization (10,000 whole-family sign flips, shared by every contrast) of Delta Score; single-step max-|T|
  over each block's tried endpoints; Holm across the blocks for the displayed endpoint (the highest raw-form
  Score, chosen as the paper chose it; the choice is a claim); and the paper's own Holm family, each Table 5
  row's named variant (through the crosswalk);
* ``<release>.inference.masking``: Table S5a's paired intervals.

Seeds: the paper's selection seed 11, split by label with
:func:`nclue.core.rng.derive` ("bootstrap", "randomization").
"""

from ..core import layout
from ..core.claim_ids import (
    BOOTSTRAP,
    BOOTSTRAP_SETUP,
    INFERENCE_BLOCK,
    INFERENCE_CONTRAST,
    INFERENCE_MASKING,
    PAPER_BLOCK,
)
from ..core.structure import families
from ..stats import bootstrap, protocol
from .base import Unit, Value, per_release
from .shared.block_inference import (
    SOURCE,
    block_tests,
    displayed,
    holm_family,
    interval_values,
    paper_blocks,
    variant_values,
)
from .shared.inference_context import METRICS, context, unit_scale
from .shared.outcome_vectors import gold_sets
from .shared.release_systems import contrasts, masked_systems, ranked, system_ids


def bootstrap_values(inst, sid):
    """The family bootstrap intervals of one system's n-Clue Score, Gold Hit and Gold-NDCG (points)."""
    ctx = context(inst)
    out = []
    for name, metric in METRICS:
        claim = BOOTSTRAP.on(inst.spec.name).bind(system=sid, metric=name)
        out += interval_values(claim, "", ctx.distribution(metric, sid), protocol.BOOTSTRAP, SOURCE)
    return out


def design_values(inst):
    """The inference's design: families, evaluation queries, draws and the seed they come from."""
    ctx, claim = context(inst), BOOTSTRAP_SETUP.on(inst.spec.name)
    return [Value(claim(statistic), value, source=SOURCE) for statistic, value in (
        ("families", ctx.design.n_families), ("queries", len(ctx.qids)),
        ("bootstrap_draws", protocol.BOOTSTRAP.n_draws), ("randomization_draws", protocol.RANDOMIZATION.n_draws),
        ("seed", protocol.STATISTICS_SEED))]


def _bootstrap_units(inst):
    if not ranked(inst):
        return []
    inputs = inst.spec.evaluation_inputs
    return [Unit(sid, inputs + [inst.spec.ranking(sid)], lambda sid=sid: bootstrap_values(inst, sid))
            for sid in system_ids(inst)] + [Unit("design", inputs, lambda: design_values(inst))]


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
        claim = INFERENCE_BLOCK.on(inst.spec.name).bind(block=block["block"])
        values += [Value(claim("displayed_variant"), displayed(ctx, block), source=SOURCE,
                         detail="selection rule: highest raw-form n-Clue Score among %s" % block["variants"]),
                   Value(claim("p_selected"), tests.max_t[i], source=SOURCE, estimate=tests.max_t_estimate(i)),
                   Value(claim("p_selected_holm"), adjusted, source=SOURCE, estimate=estimate)]
    return values


PAPER_FAMILY_SOURCE = ("Table 5's Sel.+Holm p as the paper computes it: each row's named variant ('Jina joint -> "
                       "harmonic dec.'), max-|T| over every tried endpoint of its block, Holm across the paper's eight "
                       "blocks (section 3.4; docs/statistics.md#the-papers-holm-family)")


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
    for (key, _block, variant, why), (adjusted, estimate), pick in zip(rows, family, chosen or [None] * len(rows)):
        claim = PAPER_BLOCK.on(inst.spec.name).bind(block=key)
        detail = "; ".join(missing[:2]) if missing else ""
        values += [Value(claim("variant"), variant, source=PAPER_FAMILY_SOURCE, detail=why),
                   Value(claim("p_max_t"), pick[0].max_t[pick[1]] if pick else None, source=PAPER_FAMILY_SOURCE,
                         detail=detail, estimate=pick[0].max_t_estimate(pick[1]) if pick else None),
                   Value(claim("p_holm"), adjusted, source=PAPER_FAMILY_SOURCE, detail=detail, estimate=estimate)]
    return values


def _contrast_units(inst):
    if not ranked(inst):
        return []
    blocks = contrasts(inst)
    rels = sorted({inst.spec.ranking(s) for b in blocks for s in [b["base"]] + b["variants"]})
    inputs = inst.spec.evaluation_inputs + [inst.spec.systems]
    units = [Unit("blocks", inputs + rels, lambda: _holm_unit(inst))]
    if inst.exists(layout.CROSSWALK):
        # the crosswalk's blocks: a block that names the rows it plays itself (RealPage's dense blocks) is a family
        # of its own, in the replication
        crosswalked = sorted({inst.spec.ranking(s) for b in blocks if not b.get("plays")
                              for s in [b["base"]] + b["variants"]})
        units.append(Unit("paper_family", inputs + [layout.CROSSWALK] + crosswalked,
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


def masking_values(inst, sid, base, drop):
    """Table S5a's paired intervals of masked system ``sid`` against its base, and whether each excludes 0."""
    claim = INFERENCE_MASKING.on(inst.spec.name).bind(system=base, dropped="drop_c%d" % drop)
    out = []
    resampling = protocol.N3_BOOTSTRAP if drop == 3 else protocol.BOOTSTRAP
    for name, dist in sorted(masking_distributions(inst, sid, base, drop).items()):
        ends = interval_values(claim, "delta_%s_" % name, dist, resampling, MASKING_SOURCE)
        lo, hi = ends[0].value, ends[1].value
        out += ends + [Value(claim("delta_%s_excludes_zero" % name), lo > 0 or hi < 0, source=MASKING_SOURCE)]
    return out


def _masking_units(inst):
    if not ranked(inst):
        return []
    return [Unit(sid, inst.spec.evaluation_inputs + [inst.spec.ranking(base), inst.spec.ranking(sid)],
                 lambda sid=sid, base=base, drop=drop: masking_values(inst, sid, base, drop))
            for sid, base, drop in masked_systems(inst)]


ANALYSES = (per_release(BOOTSTRAP, "inference", SOURCE, _bootstrap_units)
            + per_release(INFERENCE_CONTRAST, "inference", SOURCE, _contrast_units)
            + per_release(INFERENCE_MASKING, "inference", MASKING_SOURCE, _masking_units))
