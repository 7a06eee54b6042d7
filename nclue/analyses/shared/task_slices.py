"""Table 6's task-factor slices (paper section 4.3; docs/analyses.md): one ranking's n-Clue Score, Gold Hit and
subset-first share on each slice of :data:`nclue.core.structure.SLICES` (n = 2 / 3, the shortest gold's length,
the positive pool), for any release (``<release>.slices``)."""

from ...core.claim_ids import SLICE
from ...core.measures import GOLD_HIT, NCLUE_SCORE, SUBSET_FIRST
from ...core.metrics import summary
from ...core.structure import SLICES
from ..base import Value
from .outcome_vectors import outcomes, query_factors


def slice_values(inst, sid, rel):
    """The slice values of ranking ``rel`` (system ``sid``) on ``inst``'s last qrel copy."""
    claim = SLICE.on(inst.spec.name)
    out_all = outcomes(inst, rel)
    factors = query_factors(inst)
    values = []
    for key, label, predicate in SLICES:
        mask = [predicate(factors[q]) for q in out_all.qids]
        s = summary(out_all, mask)
        source = "Table 6 slice " + label
        # subset_first: the discovery-completion gap, Gold Hit minus n-Clue Score (section 4.3)
        for statistic, field in (("queries", "queries"), (NCLUE_SCORE.name, NCLUE_SCORE.key),
                                 (GOLD_HIT.name, GOLD_HIT.key), (SUBSET_FIRST.name, SUBSET_FIRST.key)):
            values.append(Value(claim(system=sid, slice=key, statistic=statistic), s[field], source=source))
    return values
