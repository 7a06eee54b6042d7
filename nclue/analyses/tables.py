"""The paper's result tables replayed on a release's rankings (scoring level; docs/analyses.md#scoring).

Each table is written once and frozen on every release whose claim-id template names it
(:mod:`nclue.core.claim_ids`), on the release's last qrel copy:

* ``<release>.contrasts`` -- Table 5 point contrasts: per controlled block, every tried variant minus its base
  on the raw-form matrix (Delta Score, Delta Hit, Delta Gold-NDCG), and the displayed variant: the highest
  raw-form n-Clue Score (ties: the first listed), as the paper chose it (section 3.3);
* ``<release>.slices`` -- Table 6 and S1j task-factor slices of the clean scorecard: n = 2 / 3, shortest gold
  ``L_min <= 30`` / ``> 100`` pages, positive pool ``|D+| <= 25`` / ``> 50``;
* ``<release>.evidence`` -- Table 8 page evidence of every page-scored run;
* ``<release>.masking`` -- Table S5a condition masking: masked minus full Gold-NDCG, Gold Hit and Score (drop
  c1, c2 over all queries; drop c3 over n = 3 queries; the paired bootstrap intervals are
  ``<release>.inference.masking``);
* ``<release>.controls`` -- validity controls (section 5).
"""

from ..core import layout
from ..core.claim_ids import CONTRAST, CONTRAST_BLOCK, CONTROL, EVIDENCE, MASKING, SLICE
from ..core.measures import GOLD_HIT, GOLD_NDCG, NCLUE_SCORE
from ..core.metrics import summary
from .base import Unit, Value, per_release
from .shared.outcome_vectors import delta, outcomes
from .shared.page_evidence import evidence_values
from .shared.release_systems import (
    contrasts,
    displayed_variant,
    form_systems,
    masked_systems,
    page_scored_systems,
    ranked,
)
from .shared.task_slices import slice_values

CONTRAST_SOURCE = "Table 5 point contrasts (raw form)"
# the validity controls (section 5) and the score each must have by construction (None: no fixed score)
CONTROLS = (("oracle_facts", 100.0), ("floor_single_page", 0.0), ("prior_condition_frequency", None),
            ("random_seeded", None))


def contrast_values(inst, block):
    """Table 5's point contrasts of one block of ``inst``'s release: each variant's scores and deltas against the
    block's base, the displayed variant and the base."""
    rank = inst.spec.ranking
    contrast, of_block = CONTRAST.on(inst.spec.name), CONTRAST_BLOCK.on(inst.spec.name)
    sb = summary(outcomes(inst, rank(block["base"])))
    out = []
    for var in block["variants"]:
        sv = summary(outcomes(inst, rank(var)))
        for statistic, value in (("base_score", sb[NCLUE_SCORE.key]), ("variant_score", sv[NCLUE_SCORE.key]),
                                 ("delta_score", delta(sb, sv, NCLUE_SCORE.key)),
                                 ("delta_hit", delta(sb, sv, GOLD_HIT.key)),
                                 ("delta_gold_ndcg", delta(sb, sv, GOLD_NDCG.key))):
            out.append(Value(contrast(block=block["block"], variant=var, statistic=statistic), value,
                             source=CONTRAST_SOURCE))
    out.append(Value(of_block(block=block["block"], statistic="displayed_variant"), displayed_variant(inst, block),
                     source=CONTRAST_SOURCE, detail="highest raw-form n-Clue Score among %s" % block["variants"]))
    out.append(Value(of_block(block=block["block"], statistic="base"), block["base"], source=CONTRAST_SOURCE,
                     detail="the block's base in systems.json (Table 5 prints base -> variant)"))
    return out


def _contrast_units(inst):
    if not ranked(inst):
        return []
    return [Unit(block["block"], inst.spec.evaluation_inputs + [inst.spec.ranking(s) for s in
                                                                [block["base"]] + block["variants"]],
                 lambda block=block: contrast_values(inst, block)) for block in contrasts(inst)]


def _slice_units(inst):
    if not ranked(inst):
        return []
    return [Unit(sid, inst.spec.evaluation_inputs + [inst.spec.form_ranking(sid, layout.CLEAN)],
                 lambda sid=sid: slice_values(inst, sid, inst.spec.form_ranking(sid, layout.CLEAN)))
            for sid in form_systems(inst)]


def masking_values(inst, sid, base, drop):
    """Table S5a's masked-minus-full deltas of masked system ``sid`` (its base ``base``, condition ``drop``
    dropped): over every query for drop c1 and c2, over the n = 3 queries for drop c3."""
    claim = MASKING.on(inst.spec.name).bind(system=base, dropped="drop_c%d" % drop)
    full = outcomes(inst, inst.spec.ranking(base))
    masked = outcomes(inst, inst.spec.ranking(sid))
    mask = None if drop < 3 else [n == 3 for n in full.n]
    a, b = summary(full, mask), summary(masked, mask)
    src = "Table S5a condition masking (%s)" % ("all queries" if drop < 3 else "n = 3 queries")
    return [Value(claim("queries"), a["queries"], source=src),
            Value(claim("delta_gold_ndcg"), delta(a, b, GOLD_NDCG.key), source=src),
            Value(claim("delta_gold_hit"), delta(a, b, GOLD_HIT.key), source=src),
            Value(claim("delta_score"), delta(a, b, NCLUE_SCORE.key), source=src)]


def _masking_units(inst):
    if not ranked(inst):
        return []
    return [Unit(sid, inst.spec.evaluation_inputs + [inst.spec.ranking(base), inst.spec.ranking(sid)],
                 lambda sid=sid, base=base, drop=drop: masking_values(inst, sid, base, drop))
            for sid, base, drop in masked_systems(inst)]


def _evidence_units(inst):
    if not ranked(inst):
        return []
    return [Unit(sid, inst.spec.evaluation_inputs + [inst.spec.inventory, inst.spec.ranking(sid),
                                                     inst.spec.page_scores(sid)],
                 lambda sid=sid: evidence_values(inst, sid)) for sid in page_scored_systems(inst)]


def control_values(inst, sid, expected):
    """A validity control's n-Clue Score@10 and, for a control with a score fixed by construction, whether it
    has it (section 5)."""
    claim = CONTROL.on(inst.spec.name).bind(control=sid)
    score = summary(outcomes(inst, inst.spec.ranking(sid)))[NCLUE_SCORE.key]
    out = [Value(claim(NCLUE_SCORE.name), score, source="section 5 controls")]
    if expected is not None:
        out.append(Value(claim("by_construction"), score == expected, source="section 5 controls",
                         detail="must score %s by construction, scores %s" % (expected, score)))
    return out


def _controls_units(inst):
    if not ranked(inst):
        return []
    systems, _ = inst.systems()
    return [Unit(sid, inst.spec.evaluation_inputs + [inst.spec.ranking(sid)],
                 lambda sid=sid, expected=expected: control_values(inst, sid, expected))
            for sid, expected in CONTROLS if sid in systems]


ANALYSES = (per_release(CONTRAST, "scoring", "Table 5 point contrasts", _contrast_units)
            + per_release(SLICE, "scoring", "Table 6 task-factor slices", _slice_units)
            + per_release(MASKING, "scoring", "Table S5a condition masking", _masking_units)
            + per_release(EVIDENCE, "scoring", "Table 8 stored-page evidence", _evidence_units)
            + per_release(CONTROL, "scoring", "section 5 validity controls", _controls_units))
