"""Scoring level: every metric of DESIGN 5 replayed from the frozen rankings.

* ``v1.matrix``: every ``rankings/<system>.jsonl`` (raw form, the original
  matrix; paper Tables 5 and S1);
* ``v1.scorecard``: the clean_v2 form rankings (paper Tables 3 and 4);
* ``v1.forms``: n-Clue Score and Gold Hit of every form ranking (Table S2b).
"""

from .. import instrument as I
from ..claims import Value
from ..metrics import evaluate, ideal_graded_dcg, summary
from ..structure import gold_and_subsets
from .base import Analysis, Unit

SCORE_INPUTS = [I.CORPUS, I.QUERIES, I.QRELS]
_FULL = [
    ("nclue_score_at_10", "nclue_score"), ("success_count", "success_count"),
    ("gold_hit_at_10", "gold_hit"), ("hit_count", "hit_count"),
    ("complete_first", "complete_first"), ("subset_first", "subset_first"), ("no_gold", "no_gold"),
    ("gold_ndcg_at_10", "gold_ndcg"), ("graded_ndcg_at_10", "graded_ndcg"),
    ("pairwise_auc", "pairwise_auc"), ("auc_queries", "auc_queries"),
]


def _sets(inst):
    key = "__sets__"
    if key not in inst._cache:
        inst._cache[key] = (True, gold_and_subsets(inst.queries(), inst.qrels()))
    return inst._cache[key][1]


def outcomes(inst, rel, qrels_rel=None):
    """Per-query outcome vectors of one ranking file under a qrel copy (default: the release's
    ``qrels.jsonl``), cached per instrument."""
    if qrels_rel is None or qrels_rel == inst.QRELS:
        key = "__outcomes__" + rel
        if key not in inst._cache:
            inst._cache[key] = (True, evaluate(inst.ranking(rel), inst.queries(), inst.qrels(), _sets(inst),
                                               ideals=_ideals(inst, inst.QRELS)))
        return inst._cache[key][1]
    key = "__outcomes__%s|%s" % (rel, qrels_rel)
    if key not in inst._cache:
        qrels = inst.qrels(qrels_rel)
        sets = inst._get("__sets__" + qrels_rel, lambda: gold_and_subsets(inst.queries(), qrels))
        inst._cache[key] = (True, evaluate(inst.ranking(rel), inst.queries(), qrels, sets,
                                           ideals=_ideals(inst, qrels_rel)))
    return inst._cache[key][1]


def _ideals(inst, qrels_rel):
    """Ideal graded DCG@10 per query of one qrel copy (computed once per instrument)."""
    qrels = inst.qrels(qrels_rel)
    return inst._get("__ideals__" + qrels_rel, lambda: {q: ideal_graded_dcg(g) for q, g in qrels.items()})


def _system_ids(inst):
    systems, _ = inst.systems()
    return sorted(systems)


def _metric_values(prefix, summ, fields, source):
    return [Value("%s.%s" % (prefix, name), summ[key], source=source) for name, key in fields]


def _matrix_units(inst):
    units = []
    for sid in _system_ids(inst):
        rel = I.ranking_path(sid)
        units.append(Unit(sid, SCORE_INPUTS + [I.SYSTEMS, rel], (lambda rel=rel, sid=sid: _metric_values(
            "v1.matrix.%s" % sid, summary(outcomes(inst, rel)), _FULL, "raw-form matrix (Tables 5, S1)"))))
    return units


def _form_systems(inst):
    """Systems of the query-form matrix: systems.json ``form_systems`` (13 in the paper)."""
    from .tables import form_systems
    return form_systems(inst)


def _scorecard_units(inst):
    units = []
    for sid in _form_systems(inst):
        rel = I.ranking_path(sid, "clean_v2")
        units.append(Unit(sid, SCORE_INPUTS + [I.SYSTEMS, rel], (lambda rel=rel, sid=sid: _metric_values(
            "v1.scorecard.%s" % sid, summary(outcomes(inst, rel)), _FULL, "clean scorecard (Tables 3, 4)"))))
    return units


def _forms_units(inst):
    units = []
    for sid in _form_systems(inst):
        for form in ("raw", "clean_v2", "natural"):
            rel = I.ranking_path(sid, form)
            units.append(Unit("%s/%s" % (sid, form), SCORE_INPUTS + [I.SYSTEMS, rel], (lambda rel=rel, sid=sid, form=form: [
                Value("v1.forms.%s.%s.%s" % (sid, form, name), summary(outcomes(inst, rel))[key],
                      source="query-form matrix (Table S2b)")
                for name, key in (("nclue_score_at_10", "nclue_score"), ("gold_hit_at_10", "gold_hit"))])))
    return units


ANALYSES = [
    Analysis("v1.matrix", "scoring", "paper section 3.1 definitions; raw-form matrix", _matrix_units),
    Analysis("v1.scorecard", "scoring", "paper Tables 3-4 (clean_v2 form)", _scorecard_units),
    Analysis("v1.forms", "scoring", "supplement Table S2b (13 systems x 3 forms)", _forms_units),
]
