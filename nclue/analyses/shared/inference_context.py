"""The inference context (paper section 3.4; docs/statistics.md#family-clustered-bootstrap): the evaluation
queries of v1's final copy, their families, the protocol's shared bootstrap draws and sign-flip masks, and
each system's per-draw sums, memoised on the instrument.
"""

from ...core.structure import families
from ...stats import bootstrap, protocol, randomization
from .outcome_vectors import gold_sets, outcomes

METRICS = (("score", "success"), ("hit", "hit"), ("gold_ndcg", "gold_ndcg"))


def unit_scale(vector_is_fixed_point):
    """The factor from a per-draw mean of a vector to points (x100; fixed-point vectors also divided back)."""
    return 100.0 / randomization.FIXED_POINT if vector_is_fixed_point else 100.0


class Context:
    """Per-instrument inference state: design, shared bootstrap draws and sign-flip masks."""

    def __init__(self, inst):
        self.inst = inst
        queries = inst.evaluation_queries()
        self.qids = sorted(queries)
        self.fams = families(gold_sets(inst))
        self.design = bootstrap.FamilyDesign(self.qids, self.fams)
        self._draws = None
        self._masks = None

    @property
    def draws(self):
        if self._draws is None:
            self._draws = bootstrap.draw_indices(protocol.stream(protocol.BOOTSTRAP), self.design.n_families,
                                                  protocol.draws(protocol.BOOTSTRAP))
        return self._draws

    @property
    def masks(self):
        if self._masks is None:
            self._masks = randomization.draw_masks(protocol.stream(protocol.RANDOMIZATION), self.design.n_families,
                                                   protocol.draws(protocol.RANDOMIZATION))
        return self._masks

    @property
    def query_design(self):
        """Every query its own family: the design of the unclustered bootstrap (the wrong procedure a family
        interval is told apart from)."""
        if getattr(self, "_query_design", None) is None:
            self._query_design = bootstrap.FamilyDesign(self.qids, [[q] for q in self.qids])
            self._query_draws = bootstrap.draw_indices(protocol.stream(protocol.QUERY_BOOTSTRAP), len(self.qids),
                                                       protocol.draws(protocol.QUERY_BOOTSTRAP))
        return self._query_design

    def query_distribution(self, metric, sid, base):
        """The unclustered bootstrap distribution (x100) of variant minus base: queries drawn with replacement
        (:data:`nclue.stats.protocol.QUERY_BOOTSTRAP`)."""
        design = self.query_design
        vb, vv = self.vector(base, metric), self.vector(sid, metric)
        sums = bootstrap.draw_sums(design, [[x - y for x, y in zip(vv, vb)]], self._query_draws)[0]
        scale = unit_scale(metric == "gold_ndcg")
        n = len(self.qids)
        return [scale * s / n for s in sums]

    def vector(self, sid, metric):
        out = outcomes(self.inst, self.inst.spec.ranking(sid))
        return randomization.to_integer_units(getattr(out, metric))

    def sums(self, sid):
        """``{metric: per-draw integer sums}`` of one system's vectors (its metrics packed together), memoised
        on the instrument, so that a system's intervals read its own ranking and nothing else."""
        def compute():
            metrics = [metric for _, metric in METRICS]
            return dict(zip(metrics, bootstrap.draw_sums(self.design, [self.vector(sid, m) for m in metrics],
                                                         self.draws)))
        return self.inst.memo("inference:sums:x%d:%s" % (protocol.multiplier(), sid), compute)

    @property
    def denominators(self):
        if getattr(self, "_den", None) is None:
            self._den = bootstrap.draw_denominators(self.design, self.draws)
        return self._den

    def distribution(self, metric, sid, base=None):
        """Bootstrap distribution of a system's metric (x100), or of variant minus base on the same draws."""
        scale = unit_scale(metric == "gold_ndcg")
        v = self.sums(sid)[metric]
        if base is None:
            return [scale * s / n for s, n in zip(v, self.denominators)]
        b = self.sums(base)[metric]
        return [scale * (x - y) / n for x, y, n in zip(v, b, self.denominators)]


def context(inst):
    """The instrument's one inference context (shared draws and masks)."""
    return inst.memo("inference:context:x%d" % protocol.multiplier(), lambda: Context(inst))
