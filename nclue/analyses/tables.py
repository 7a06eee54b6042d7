"""The paper's result tables replayed on the instrument (scoring level).

* ``v1.contrasts`` -- Table 5 point contrasts: per controlled block, every
  tried variant minus its base on the raw matrix (Delta Score, Delta Hit,
  Delta Gold-NDCG), and the displayed variant: the highest raw-form n-Clue
  Score (ties: the first listed), as the paper chose it (section 3.3);
* ``v1.slices`` -- Table 6 task-factor slices of the clean scorecard: n = 2 / 3,
  shortest gold ``L_min <= 30`` / ``> 100`` pages, positive pool
  ``|D+| <= 25`` / ``> 50``;
* ``v1.masking`` -- Table S5a condition masking: masked minus full Gold-NDCG,
  Gold Hit and Score (drop c1, c2 over all queries; drop c3 over n = 3 queries;
  the paired bootstrap intervals are ``v1.inference.masking``);
* ``v1.evidence`` -- Table 8 page evidence of every page-scored run;
* ``v1.controls`` -- validity controls (section 5).
"""

from ..core import layout
from ..core.metrics import summary
from .base import Analysis, Unit, Value
from .shared.outcome_vectors import SCORE_INPUTS, delta, outcomes
from .shared.page_evidence import evidence_values
from .shared.task_slices import slice_values
from .shared.release_systems import contrasts, displayed_variant, form_systems, masked_systems, page_scored_systems



def _contrast_units(inst):
    units = []
    for block in contrasts(inst):
        base = block["base"]
        rels = [inst.spec.ranking(s) for s in [base] + block["variants"]]

        def compute(block=block, base=base):
            sb = summary(outcomes(inst, inst.spec.ranking(base)))
            out = []
            for var in block["variants"]:
                sv = summary(outcomes(inst, inst.spec.ranking(var)))
                prefix = "v1.contrasts.%s.%s" % (block["block"], var)
                out += [Value(prefix + ".base_score", sb["nclue_score"]),
                        Value(prefix + ".variant_score", sv["nclue_score"]),
                        Value(prefix + ".delta_score", delta(sb, sv, "nclue_score")),
                        Value(prefix + ".delta_hit", delta(sb, sv, "gold_hit")),
                        Value(prefix + ".delta_gold_ndcg", delta(sb, sv, "gold_ndcg"))]
            out.append(Value("v1.contrasts.%s.displayed_variant" % block["block"], displayed_variant(inst, block),
                             detail="highest raw-form n-Clue Score among %s" % block["variants"]))
            out.append(Value("v1.contrasts.%s.base" % block["block"], block["base"],
                             detail="the block's base in systems.json (Table 5 prints base -> variant)"))
            return [Value(v.id, v.value, source="Table 5 point contrasts (raw form)", detail=v.detail) for v in out]
        units.append(Unit(block["block"], SCORE_INPUTS + rels, compute))
    return units


def _slice_units(inst):
    return [Unit(sid, SCORE_INPUTS + [inst.spec.form_ranking(sid, layout.CLEAN)],
                 lambda sid=sid: slice_values(inst, sid, inst.spec.form_ranking(sid, layout.CLEAN)))
            for sid in form_systems(inst)]


def _masking_units(inst):
    units = []
    for sid, base, drop in masked_systems(inst):

        def compute(sid=sid, base=base, drop=drop):
            full = outcomes(inst, inst.spec.ranking(base))
            masked = outcomes(inst, inst.spec.ranking(sid))
            mask = None if drop < 3 else [n == 3 for n in full.n]
            a, b = summary(full, mask), summary(masked, mask)
            prefix = "v1.masking.%s.drop_c%d" % (base, drop)
            src = "Table S5a condition masking (%s)" % ("all queries" if drop < 3 else "n = 3 queries")
            return [Value(prefix + ".queries", a["queries"], source=src),
                    Value(prefix + ".delta_gold_ndcg", delta(a, b, "gold_ndcg"), source=src),
                    Value(prefix + ".delta_gold_hit", delta(a, b, "gold_hit"), source=src),
                    Value(prefix + ".delta_score", delta(a, b, "nclue_score"), source=src)]
        units.append(Unit(sid, SCORE_INPUTS + [inst.spec.ranking(base), inst.spec.ranking(sid)], compute))
    return units


def _evidence_units(inst):
    return [Unit(sid, SCORE_INPUTS + [layout.INVENTORY, inst.spec.ranking(sid), inst.spec.page_scores(sid)],
                 lambda sid=sid: evidence_values(inst, sid)) for sid in page_scored_systems(inst)]


def _controls_units(inst):
    systems, _ = inst.systems()
    units = []
    expected = {"oracle_facts": 100.0, "floor_single_page": 0.0}
    for sid in ("oracle_facts", "floor_single_page", "prior_condition_frequency", "random_seeded"):
        if sid not in systems:
            continue
        rel = inst.spec.ranking(sid)

        def compute(sid=sid, rel=rel):
            s = summary(outcomes(inst, rel))
            out = [Value("v1.controls.%s.nclue_score_at_10" % sid, s["nclue_score"], source="section 5 controls")]
            if sid in expected:
                ok = s["nclue_score"] == expected[sid]
                out.append(Value("v1.controls.%s.by_construction" % sid, ok, source="section 5 controls",
                                 detail="must score %s by construction, scores %s" % (expected[sid], s["nclue_score"])))
            return out
        units.append(Unit(sid, SCORE_INPUTS + [rel], compute))
    return units


ANALYSES = [
    Analysis("v1.contrasts", "scoring", "Table 5 point contrasts", _contrast_units),
    Analysis("v1.slices", "scoring", "Table 6 task-factor slices", _slice_units),
    Analysis("v1.masking", "scoring", "Table S5a condition masking", _masking_units),
    Analysis("v1.evidence", "scoring", "Table 8 stored-page evidence", _evidence_units),
    Analysis("v1.controls", "scoring", "section 5 validity controls", _controls_units),
]
