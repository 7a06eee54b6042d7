"""The paper's scoring tables on RealPage (``data/v3``; docs/realpage.md#the-rankings; paper sections 3.1-4.3).

The same measures as the stand-in's scoring analyses, on the RealPage instrument and its final qrel copy:

* ``v3.matrix`` -- every measure of every system's raw-form ranking (points); Table 5's systems and S1's
  matrix;
* ``v3.scorecard`` -- Table 3's clean scorecard: every measure of the query-form systems' clean rankings, with
  Table 4's outcome decomposition (complete first, subset first, no gold);
* ``v3.forms`` -- Table S2b: n-Clue Score and Gold Hit of the query-form systems under each query form;
* ``v3.slices`` -- Tables 6 and S1j: the clean scorecard's task-factor slices (n, the shortest gold's length,
  the positive pool);
* ``v3.evidence`` -- Table 8's stored-page evidence of every page-scored system (raw form);
* ``v3.contrasts`` -- Table 5's point contrasts (raw form): every tried variant minus its base, and the
  displayed variant of each block.
"""

from ..core import layout
from ..core.claim_ids import (V3_CONTRAST, V3_CONTRAST_BLOCK, V3_EVIDENCE, V3_FORMS, V3_MATRIX, V3_SCORECARD,
                              V3_SLICE)
from ..core.measures import SCORECARD_MEASURES, V1_FORM_MEASURES
from ..core.metrics import summary
from .base import Analysis, Unit, Value
from .shared.outcome_vectors import delta, outcomes
from .shared.page_evidence import evidence_values
from .shared.realpage_release import INPUTS, ranked, ranking, realpage, system_ids
from .shared.release_systems import contrasts, displayed_variant, form_systems, page_scored_systems
from .shared.task_slices import slice_values

SOURCE = "docs/realpage.md#the-rankings (RealPage, data/v3): paper Tables 3-6, 8, S1j, S2b"


def _measure_values(claim, v3, rel, measures, **parts):
    counts = summary(outcomes(v3, rel))
    return [Value(claim(measure=m.name, **parts), counts[m.key], source=SOURCE) for m in measures]


def _matrix_units(inst):
    if not ranked(inst):
        return []
    v3 = realpage(inst)
    return [Unit(sid, INPUTS + [ranking(sid)],
                 lambda sid=sid: _measure_values(V3_MATRIX, v3, ranking(sid), SCORECARD_MEASURES, system=sid))
            for sid in system_ids(v3)]


def _scorecard_units(inst):
    if not ranked(inst):
        return []
    v3 = realpage(inst)
    return [Unit(sid, INPUTS + [ranking(sid, layout.CLEAN)], lambda sid=sid: _measure_values(
        V3_SCORECARD, v3, ranking(sid, layout.CLEAN), SCORECARD_MEASURES, system=sid)) for sid in form_systems(v3)]


def _forms_units(inst):
    if not ranked(inst):
        return []
    v3 = realpage(inst)
    return [Unit("%s/%s" % (sid, form.key), INPUTS + [ranking(sid, form)], lambda sid=sid, form=form: _measure_values(
        V3_FORMS, v3, ranking(sid, form), V1_FORM_MEASURES, system=sid, form=form.key))
            for sid in form_systems(v3) for form in layout.QUERY_FORMS]


def _slice_units(inst):
    if not ranked(inst):
        return []
    v3 = realpage(inst)
    return [Unit(sid, INPUTS + [ranking(sid, layout.CLEAN)],
                 lambda sid=sid: slice_values(v3, sid, ranking(sid, layout.CLEAN), V3_SLICE)) for sid in form_systems(v3)]


def _evidence_units(inst):
    if not ranked(inst):
        return []
    v3 = realpage(inst)
    return [Unit(sid, INPUTS + [layout.REALPAGE.inventory, ranking(sid), layout.REALPAGE.page_scores(sid)],
                 lambda sid=sid: evidence_values(v3, sid, V3_EVIDENCE)) for sid in page_scored_systems(v3)]


def _contrast_values(v3, block):
    sb = summary(outcomes(v3, ranking(block["base"])))
    out = []
    for var in block["variants"]:
        sv = summary(outcomes(v3, ranking(var)))
        for statistic, value in (("base_score", sb["nclue_score"]), ("variant_score", sv["nclue_score"]),
                                 ("delta_score", delta(sb, sv, "nclue_score")),
                                 ("delta_hit", delta(sb, sv, "gold_hit")),
                                 ("delta_gold_ndcg", delta(sb, sv, "gold_ndcg"))):
            out.append(Value(V3_CONTRAST(block=block["block"], variant=var, statistic=statistic), value,
                             source=SOURCE))
    out.append(Value(V3_CONTRAST_BLOCK(block=block["block"], statistic="displayed_variant"),
                     displayed_variant(v3, block), source=SOURCE,
                     detail="highest raw-form n-Clue Score among %s" % block["variants"]))
    return out


def _contrast_units(inst):
    if not ranked(inst):
        return []
    v3 = realpage(inst)
    return [Unit(block["block"], INPUTS + [ranking(s) for s in [block["base"]] + block["variants"]],
                 lambda block=block: _contrast_values(v3, block)) for block in contrasts(v3)]


ANALYSES = [
    Analysis("v3.matrix", "scoring", SOURCE, _matrix_units),
    Analysis("v3.scorecard", "scoring", SOURCE, _scorecard_units),
    Analysis("v3.forms", "scoring", SOURCE, _forms_units),
    Analysis("v3.slices", "scoring", SOURCE, _slice_units),
    Analysis("v3.evidence", "scoring", SOURCE, _evidence_units),
    Analysis("v3.contrasts", "scoring", SOURCE, _contrast_units),
]
