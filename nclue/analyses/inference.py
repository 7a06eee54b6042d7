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
from ..stats import bootstrap, montecarlo, protocol, randomization
from .base import Analysis, Unit, Value
from .shared.inference_context import METRICS, context, unit_scale
from .shared.outcome_vectors import SCORE_INPUTS, gold_sets
from .shared.release_systems import contrasts, displayed_variant, masked_systems

SOURCE = "Table 5 / S1 intervals (section 3.4)"
EXACT_SOURCE = ("exact whole-family sign-flip p over all 2^F sign vectors (docs/statistics.md#exact-p-values); the "
                "Monte Carlo p stays the paper's estimand")




def interval_values(prefix, dist, resampling, source, alternatives=None, sep="_"):
    """The two Values ``<prefix><sep>ci_low`` / ``<sep>ci_high`` of a percentile interval of ``dist``, each declared a
    Monte Carlo estimate (:func:`nclue.stats.montecarlo.percentile_estimate`); ``alternatives``: ``{name:
    distribution}`` of plausible wrong procedures, whose endpoints are declared beside."""
    lo, hi = bootstrap.percentile_interval(dist)
    alpha = (1.0 - protocol.INTERVAL_LEVEL) / 2.0
    alt = {name: bootstrap.percentile_interval(d) for name, d in sorted((alternatives or {}).items())}
    return [Value(prefix + sep + "ci_low", lo, source=source, estimate=montecarlo.percentile_estimate(
                dist, alpha, resampling, [(name, ends[0]) for name, ends in alt.items()])),
            Value(prefix + sep + "ci_high", hi, source=source, estimate=montecarlo.percentile_estimate(
                dist, 1.0 - alpha, resampling, [(name, ends[1]) for name, ends in alt.items()]))]


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
        units.append(Unit(sid, SCORE_INPUTS + [layout.ranking_path(sid)], compute))
    units.append(Unit("design", SCORE_INPUTS, lambda: [
        Value("v1.inference.design.families", context(inst).design.n_families, source=SOURCE),
        Value("v1.inference.design.bootstrap_draws", protocol.BOOTSTRAP.n_draws, source=SOURCE),
        Value("v1.inference.design.randomization_draws", protocol.RANDOMIZATION.n_draws, source=SOURCE),
        Value("v1.inference.design.seed", protocol.STATISTICS_SEED, source=SOURCE)]))
    return units


class BlockTests:
    """A block's randomization tests on the shared flips (Delta success count per family), and the p-values
    each endpoint has under the paper's procedure and under the plausible wrong ones: ``raw`` (the endpoint's
    own two-sided p), ``max_t`` (single-step max-|T| over the block's endpoints: the paper's), ``one_sided``
    (max-|T| in each endpoint's observed direction), ``exact`` and ``exact_one_sided`` (over all 2^F sign
    vectors)."""

    def __init__(self, ctx, block):
        self.block, self.variants = block, list(block["variants"])
        base = ctx.vector(block["base"], "success")
        diffs = [randomization.family_differences(ctx.design, base, ctx.vector(var, "success"))
                 for var in self.variants]
        self.tests = randomization.sign_flip_tests(diffs, ctx.masks)
        self.n_draws = ctx.masks.n_draws
        self.raw = [t.p_value() for t in self.tests]
        self.max_t = randomization.max_t_p_values(self.tests)
        self.one_sided = randomization.max_t_p_values(self.tests, one_sided=True)
        self.exact = [randomization.exact_sign_flip_p(t.diffs) for t in self.tests]
        self.exact_one_sided = [randomization.exact_one_sided_p(t.diffs) for t in self.tests]

    def paper_scale(self, values):
        """p-values of this run as the paper's draws would show them (:func:`nclue.stats.montecarlo.translated`)."""
        return [montecarlo.translated(p, self.n_draws, protocol.RANDOMIZATION.paper_draws) for p in values]

    def max_t_estimate(self, i):
        """The max-|T| p of endpoint ``i`` as a Monte Carlo estimate, told apart from the endpoint's own p and
        from the one-sided max-|T| p."""
        raw, one = self.paper_scale(self.raw), self.paper_scale(self.one_sided)
        return montecarlo.p_estimate(self.max_t[i], protocol.RANDOMIZATION, self.n_draws, alternatives=[
            ("without max-|T| (the endpoint's own p)", raw[i]), ("one-sided max-|T|", one[i])])

    def raw_estimate(self, i):
        """The endpoint's own p, judged against its exact p (integer statistics: no Monte Carlo error)."""
        paper = protocol.RANDOMIZATION.paper_draws
        return montecarlo.p_estimate(self.raw[i], protocol.RANDOMIZATION, self.n_draws, exact=self.exact[i],
                                     alternatives=[("one-sided", montecarlo.paper_estimator(self.exact_one_sided[i],
                                                                                            paper))])


def block_tests(ctx, block):
    """:class:`BlockTests` of a block, computed once per instrument."""
    return ctx.inst.memo("inference:block-tests:%s:%d" % (block["block"], ctx.masks.n_draws),
                         lambda: BlockTests(ctx, block))


def displayed(ctx, block):
    """The displayed endpoint (:func:`nclue.analyses.shared.release_systems.displayed_variant`)."""
    return displayed_variant(ctx.inst, block)


def holm_family(chosen):
    """Holm across blocks of the chosen endpoints' max-|T| p-values (the paper's Table 5 column), as
    ``[(adjusted p, Estimate)]``: the Monte Carlo error of the max-|T| p that sets each adjusted value times
    its Holm multiplier (:func:`nclue.stats.randomization.holm_steps`), told apart from the family without
    Holm, without max-|T| and one-sided.  ``chosen``: ``[(BlockTests, endpoint index)]``."""
    def paper_column(which):
        return [tests.paper_scale(getattr(tests, which))[i] for tests, i in chosen]
    steps = randomization.holm_steps([tests.max_t[i] for tests, i in chosen])
    expected = randomization.holm(paper_column("max_t"))
    no_max_t = randomization.holm(paper_column("raw"))
    one_sided = randomization.holm(paper_column("one_sided"))
    no_holm = paper_column("max_t")
    out = []
    for j, ((adjusted, multiplier, index), (tests, _)) in enumerate(zip(steps, chosen)):
        determining_tests, determining_i = chosen[index]
        estimate = montecarlo.p_estimate(
            adjusted, protocol.RANDOMIZATION, tests.n_draws, expected=expected[j], multiplier=multiplier,
            determining=determining_tests.max_t[determining_i],
            alternatives=[("without Holm (the block's max-|T| p)", no_holm[j]),
                          ("without max-|T| (Holm of the endpoints' own p)", no_max_t[j]),
                          ("without max-|T| and Holm", tests.paper_scale(tests.raw)[chosen[j][1]]),
                          ("one-sided", one_sided[j])])
        out.append((adjusted, estimate))
    return out


def _variant_values(ctx, block, tests):
    out = []
    base = block["base"]
    for i, var in enumerate(block["variants"]):
        prefix = "v1.inference.contrast.%s.%s" % (block["block"], var)
        for name, metric in METRICS:
            alternatives = {"unclustered (query) bootstrap": ctx.query_distribution(metric, var, base)} if \
                name == "score" else None
            out += interval_values("%s.delta_%s" % (prefix, name), ctx.distribution(metric, var, base),
                                   protocol.BOOTSTRAP, SOURCE, alternatives)
        test = tests.tests[i]
        hit_diffs = randomization.family_differences(ctx.design, ctx.vector(base, "hit"), ctx.vector(var, "hit"))
        out += [Value(prefix + ".t_observed", test.observed, source=SOURCE),
                Value(prefix + ".p_randomization", tests.raw[i], source=SOURCE, estimate=tests.raw_estimate(i)),
                Value(prefix + ".p_exact", tests.exact[i], source=EXACT_SOURCE),
                Value(prefix + ".p_randomization_within_3se_of_exact",
                      randomization.within_monte_carlo_error(tests.raw[i], tests.exact[i], tests.n_draws),
                      source=EXACT_SOURCE),
                Value(prefix + ".p_exact_hit", randomization.exact_sign_flip_p(hit_diffs), source=EXACT_SOURCE),
                Value(prefix + ".p_max_t", tests.max_t[i], source=SOURCE, estimate=tests.max_t_estimate(i))]
    return out


def _holm_unit(inst):
    """Every block's endpoints (intervals, p-values) and the Holm family of the displayed endpoints (the
    instrument's own post hoc choice, :func:`displayed`)."""
    ctx = context(inst)
    blocks = contrasts(inst)
    values, chosen = [], []
    for block in blocks:
        tests = block_tests(ctx, block)
        values += _variant_values(ctx, block, tests)
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
    rels = sorted({layout.ranking_path(s) for b in blocks for s in [b["base"]] + b["variants"]})
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
        units.append(Unit(sid, SCORE_INPUTS + [layout.ranking_path(base), layout.ranking_path(sid)],
                          compute))
    return units


ANALYSES = [
    Analysis("v1.inference.bootstrap", "inference", SOURCE, _bootstrap_units),
    Analysis("v1.inference.contrasts", "inference", SOURCE, _contrast_units),
    Analysis("v1.inference.masking", "inference", MASKING_SOURCE, _masking_units),
]
