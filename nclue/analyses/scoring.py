"""Scoring level: every measure of docs/metrics.md replayed from the frozen rankings.

* ``v1.matrix``: every ``rankings/<system>.jsonl`` (raw form, the original
  matrix; paper Tables 5 and S1);
* ``v1.scorecard``: the clean_v2 form rankings (paper Tables 3 and 4);
* ``v1.forms``: n-Clue Score and Gold Hit of every form ranking (Table S2b).

The measures and their order come from :mod:`nclue.core.measures`.
"""

from ..core import layout
from ..core.measures import SCORECARD_MEASURES, V1_FORM_MEASURES
from ..core.metrics import summary
from .base import Analysis, Unit
from .shared.outcome_vectors import SCORE_INPUTS, measure_values, outcomes
from .shared.release_systems import form_systems


def _system_ids(inst):
    systems, _ = inst.systems()
    return sorted(systems)


def _matrix_units(inst):
    units = []
    for sid in _system_ids(inst):
        rel = inst.spec.ranking(sid)
        units.append(Unit(sid, SCORE_INPUTS + [rel], (lambda rel=rel, sid=sid: measure_values(
            "v1.matrix.%s" % sid, summary(outcomes(inst, rel)), SCORECARD_MEASURES, "raw-form matrix (Tables 5, S1)"))))
    return units


def _scorecard_units(inst):
    units = []
    for sid in form_systems(inst):
        rel = inst.spec.form_ranking(sid, layout.CLEAN)
        units.append(Unit(sid, SCORE_INPUTS + [rel], (lambda rel=rel, sid=sid: measure_values(
            "v1.scorecard.%s" % sid, summary(outcomes(inst, rel)), SCORECARD_MEASURES,
            "clean scorecard (Tables 3, 4)"))))
    return units


def _forms_units(inst):
    units = []
    for sid in form_systems(inst):
        for form in layout.QUERY_FORMS:
            rel = inst.spec.form_ranking(sid, form)
            units.append(Unit("%s/%s" % (sid, form.key), SCORE_INPUTS + [rel], (
                lambda rel=rel, sid=sid, form=form: measure_values(
                    "v1.forms.%s.%s" % (sid, form.key), summary(outcomes(inst, rel)), V1_FORM_MEASURES,
                    "query-form matrix (Table S2b)"))))
    return units


ANALYSES = [
    Analysis("v1.matrix", "scoring", "paper section 3.1 definitions; raw-form matrix", _matrix_units),
    Analysis("v1.scorecard", "scoring", "paper Tables 3-4 (clean_v2 form)", _scorecard_units),
    Analysis("v1.forms", "scoring", "supplement Table S2b (13 systems x 3 forms)", _forms_units),
]
