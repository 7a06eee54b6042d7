"""Scoring level: every measure of docs/metrics.md replayed from a release's frozen rankings (paper sections 3.1-3.2).

Once per release whose systems rank the raw form (:data:`nclue.core.claim_ids.RANKED`: CrossPage ``v1`` and
RealPage ``v3``), on the release's last qrel copy:

* ``<release>.matrix``: every measure of every system's raw-form ranking ``rankings/<system>.jsonl`` (the
  raw-form matrix; paper Tables 5 and S1);
* ``<release>.scorecard``: every measure of the query-form systems' clean rankings (Table 3's scorecard and
  Table 4's outcome decomposition: complete first, subset first, no gold);
* ``<release>.forms``: n-Clue Score and Gold Hit of the query-form systems under each query form (Table S2b).

The measures and their order come from :mod:`nclue.core.measures`; docs/analyses.md#scoring.
"""

from ..core import layout
from ..core.claim_ids import FORMS, MATRIX, SCORECARD
from ..core.measures import FORM_TABLE_MEASURES, SCORECARD_MEASURES
from ..core.metrics import summary
from .base import Unit, per_release
from .shared.outcome_vectors import measure_values, outcomes
from .shared.release_systems import form_systems, ranked, system_ids


def _matrix_units(inst):
    if not ranked(inst):
        return []
    claim = MATRIX.on(inst.spec.name)
    return [Unit(sid, inst.spec.evaluation_inputs + [inst.spec.ranking(sid)], lambda sid=sid: measure_values(
        claim, summary(outcomes(inst, inst.spec.ranking(sid))), SCORECARD_MEASURES, "raw-form matrix (Tables 5, S1)",
        system=sid)) for sid in system_ids(inst)]


def _scorecard_units(inst):
    if not ranked(inst):
        return []
    claim = SCORECARD.on(inst.spec.name)
    return [Unit(sid, inst.spec.evaluation_inputs + [inst.spec.form_ranking(sid, layout.CLEAN)],
                 lambda sid=sid: measure_values(claim, summary(outcomes(inst, inst.spec.form_ranking(sid, layout.CLEAN))),
                                                SCORECARD_MEASURES, "clean scorecard (Tables 3, 4)", system=sid))
            for sid in form_systems(inst)]


def _forms_units(inst):
    if not ranked(inst):
        return []
    claim = FORMS.on(inst.spec.name)
    return [Unit("%s/%s" % (sid, form.key), inst.spec.evaluation_inputs + [inst.spec.form_ranking(sid, form)],
                 lambda sid=sid, form=form: measure_values(
                     claim, summary(outcomes(inst, inst.spec.form_ranking(sid, form))), FORM_TABLE_MEASURES,
                     "query-form matrix (Table S2b)", system=sid, form=form.key))
            for sid in form_systems(inst) for form in layout.QUERY_FORMS]


ANALYSES = (per_release(MATRIX, "scoring", "paper section 3.1 definitions; raw-form matrix (Tables 5, S1)", _matrix_units)
            + per_release(SCORECARD, "scoring", "paper Tables 3-4 (clean form)", _scorecard_units)
            + per_release(FORMS, "scoring", "supplement Table S2b (13 systems x 3 forms)", _forms_units))
