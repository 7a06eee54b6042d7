"""The inference shared by every release's Table 5 analyses (paper section 3.4; docs/statistics.md): a percentile
interval declared a Monte Carlo estimate, a block's randomization tests on the shared flips with the p-values of
the paper's procedure and of the plausible wrong ones, the Holm family of the displayed endpoints, and every
endpoint's claim values, for every release's ``<release>.inference.*``.
"""

from ...core.claim_ids import INFERENCE_CONTRAST
from ...paperaudit import roles
from ...paperaudit.crosswalk import load as load_crosswalk
from ...stats import bootstrap, montecarlo, protocol, randomization
from ..base import Value
from .inference_context import METRICS
from .release_systems import contrasts, displayed_variant

SOURCE = "Table 5 / S1 intervals (section 3.4)"
EXACT_SOURCE = ("exact whole-family sign-flip p over all 2^F sign vectors (docs/statistics.md#exact-p-values); the "
                "Monte Carlo p stays the paper's estimand")


def interval_values(claim, stem, dist, resampling, source, alternatives=None):
    """The two Values ``claim(stem + "ci_low")`` and ``claim(stem + "ci_high")`` (``claim``: a claim-id template
    with one part left, its statistic) of a percentile interval of ``dist``, each declared a Monte Carlo estimate
    (:func:`nclue.stats.montecarlo.percentile_estimate`); ``alternatives``: ``{name: distribution}`` of plausible
    wrong procedures, whose endpoints are declared beside."""
    lo, hi = bootstrap.percentile_interval(dist)
    alpha = (1.0 - protocol.INTERVAL_LEVEL) / 2.0
    alt = {name: bootstrap.percentile_interval(d) for name, d in sorted((alternatives or {}).items())}
    return [Value(claim(stem + "ci_low"), lo, source=source, estimate=montecarlo.percentile_estimate(
                dist, alpha, resampling, [(name, ends[0]) for name, ends in alt.items()])),
            Value(claim(stem + "ci_high"), hi, source=source, estimate=montecarlo.percentile_estimate(
                dist, 1.0 - alpha, resampling, [(name, ends[1]) for name, ends in alt.items()]))]


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
        self.unadjusted = [t.p_value() for t in self.tests]
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
        raw, one = self.paper_scale(self.unadjusted), self.paper_scale(self.one_sided)
        return montecarlo.p_estimate(self.max_t[i], protocol.RANDOMIZATION, self.n_draws, alternatives=[
            ("without max-|T| (the endpoint's own p)", raw[i]), ("one-sided max-|T|", one[i])])

    def raw_estimate(self, i):
        """The endpoint's own p, judged against its exact p (integer statistics: no Monte Carlo error)."""
        paper = protocol.RANDOMIZATION.paper_draws
        return montecarlo.p_estimate(self.unadjusted[i], protocol.RANDOMIZATION, self.n_draws, exact=self.exact[i],
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
    no_max_t = randomization.holm(paper_column("unadjusted"))
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
                          ("without max-|T| and Holm", tests.paper_scale(tests.unadjusted)[chosen[j][1]]),
                          ("one-sided", one_sided[j])])
        out.append((adjusted, estimate))
    return out


def variant_values(ctx, block, tests):
    """Every endpoint of a block of ``ctx``'s release: the paired intervals of its three deltas, its observed
    statistic and its p-values (own, exact, max-|T|)."""
    out = []
    base = block["base"]
    for i, var in enumerate(block["variants"]):
        claim = INFERENCE_CONTRAST.on(ctx.inst.spec.name).bind(block=block["block"], variant=var)
        for name, metric in METRICS:
            alternatives = {"unclustered (query) bootstrap": ctx.query_distribution(metric, var, base)} if \
                name == "score" else None
            out += interval_values(claim, "delta_%s_" % name, ctx.distribution(metric, var, base),
                                   protocol.BOOTSTRAP, SOURCE, alternatives)
        test = tests.tests[i]
        hit_diffs = randomization.family_differences(ctx.design, ctx.vector(base, "hit"), ctx.vector(var, "hit"))
        out += [Value(claim("t_observed"), test.observed, source=SOURCE),
                Value(claim("p_randomization"), tests.unadjusted[i], source=SOURCE, estimate=tests.raw_estimate(i)),
                Value(claim("p_exact"), tests.exact[i], source=EXACT_SOURCE),
                Value(claim("p_randomization_within_3se_of_exact"),
                      randomization.within_monte_carlo_error(tests.unadjusted[i], tests.exact[i], tests.n_draws),
                      source=EXACT_SOURCE),
                Value(claim("p_exact_hit"), randomization.exact_sign_flip_p(hit_diffs), source=EXACT_SOURCE),
                Value(claim("p_max_t"), tests.max_t[i], source=SOURCE, estimate=tests.max_t_estimate(i))]
    return out


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


def played_blocks(inst):
    """``[(paper block key, instrument block, variant)]``: the Table 5 rows the release's own blocks say they
    replicate (a block's ``plays`` in systems.json: RealPage's dense blocks), in the paper's Table 5 order, then
    block order; a row key the paper does not have is left out (the loader checked the variants)."""
    played = [(entry["row"], block, entry["variant"]) for block in contrasts(inst) for entry in block.get("plays", ())]
    order = {key: k for k, key in enumerate(roles.BLOCKS)}
    return sorted((row for row in played if row[0] in order), key=lambda row: order[row[0]])
