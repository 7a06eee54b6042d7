"""SourceShift analyses (``data/v2``; paper Table 7, supplement section 8, Tables S3-S4).

* ``v2.structure``: the release's scale (queries and documents by source and
  n; queries, rows, golds, subsets and distinct gold documents of the three
  qrel copies: construction, S0, S);
* ``v2.forms``: every system x form's n-Clue Score@10, Gold Hit@10,
  Gold-NDCG@10 and graded NDCG@10 on S (Table S3), and the rank agreement of
  the 13 raw runs under graded vs gold-only NDCG;
* ``v2.contrasts``: the query-paired contrasts (Table S4): Delta n-Clue Score
  in points and a two-sided sign-flip p-value over S's evaluation queries
  (10,000 draws shared by all contrasts and forms; a query is its own family);
* ``v2.directions``: the raw-form operation directions on v1 and v2 (Table 7):
  variant minus base on each release and whether the sign is the same;
* ``v2.forms.s0``, ``v2.contrasts.s0``, ``v2.directions.s0`` and the
  ``.construction`` variants: the same three analyses on the earlier qrel
  copies, each copy over its own evaluation queries (docs/analyses.md#sourceshift);
* ``v2.sensitivity``: Table S1i's SourceShift column for the raw fusion - BM25
  gold-only NDCG@10 gap on S (graph components, crossed query x document
  intervals, leave-one-document ranges, removal of the 20 highest-degree
  documents; gold and all-judged memberships) and the gap by source
  (:func:`nclue.analyses.sensitivity.shared_document_values`).
"""

import math

from ..core import layout, ocr_gate
from ..core.claim_ids import (
    SHARED_DOCUMENTS,
    SHARED_DOCUMENTS_SOURCE,
    V2_CONTRAST,
    V2_CONTRAST_SETUP,
    V2_DIRECTION,
    V2_FORMS,
    V2_RANK_AGREEMENT,
    V2_STRUCTURE,
)
from ..core.measures import NCLUE_SCORE, V2_FORM_MEASURES
from ..core.metrics import summary
from ..core.structure import sourceshift_table
from ..stats import montecarlo, protocol, randomization
from ..stats.rank import spearman
from .base import Analysis, Unit, Value
from .shared.construction_checks import form_disagreements
from .shared.outcome_vectors import measure_values, outcomes
from .shared.release_systems import form_systems
from .shared.robustness_values import S1I_GAP, S1I_PAIR, shared_document_values
from .shared.stats_file_check import stats_file_disagreements

FORMS = layout.QUERY_FORMS
V1_INPUTS = [layout.CORPUS, layout.CONDITIONS, layout.QUERIES, layout.GENEALOGY, layout.QRELS]


def v2_path(sid, form):
    return layout.SOURCESHIFT.form_ranking(sid, form)


def _pairs(inst, field):
    """``[{id, variant, base}]`` of a systems.json list (``source_shift_contrasts`` or ``directions``),
    validated when systems.json is loaded (:func:`nclue.core.loaders.load_systems`)."""
    return list(getattr(inst.systems()[1], field))


def _structure_units(inst):
    v2 = inst.release(layout.SOURCESHIFT)
    inputs = [layout.V2_CORPUS, layout.V2_CONDITIONS, layout.V2_QUERIES, layout.V2_GENEALOGY] + [
        copy.path for copy in v2.copies()]
    src = "supplement section 8 (SourceShift scale)"

    def stats_file():
        wrong = stats_file_disagreements(v2, layout.V2_STATS, "table", sourceshift_table(v2))
        return [Value(V2_STRUCTURE("stats_file_disagreements"), len(wrong), source=layout.V2_STATS,
                      detail="; ".join(wrong[:6]))]
    units = []
    if inst.exists(layout.SOURCESHIFT.ocr_gate):
        units.append(Unit("ocr-gate", [layout.SOURCESHIFT.ocr_gate, layout.V2_CORPUS], lambda: _ocr_gate_values(v2)))
    return units + [Unit("structure", inputs, lambda: [Value(V2_STRUCTURE(k), v, source=src)
                                               for k, v in sorted(sourceshift_table(v2).items())]),
            Unit("stats-file", inputs + [layout.V2_STATS], stats_file),
            Unit("forms", [layout.V2_CONDITIONS, layout.V2_QUERIES],
                 lambda: form_disagreements(v2, "docs/schema.md#sourceshift-datav2 (the query forms)",
                                            V2_STRUCTURE("form_disagreements")))]


def _ocr_gate_values(v2):
    """The pre-gate collection and its per-source OCR gate (supplement section 8; ``provenance/ocr_gate.json``,
    docs/schema.md#provenanceocr_gatejson), and the record's disagreements with the corpus: a retained source the
    corpus lacks or holds with another number of documents, a corpus source the record does not retain."""
    rel = layout.SOURCESHIFT.ocr_gate
    record = ocr_gate.load(v2.root, rel)
    held = {}
    for doc in v2.corpus().values():
        held[doc.source] = held.get(doc.source, 0) + 1
    retained = {s.source: s.pdfs for s in record.sources if s.retained}
    wrong = ["retained source %s: %d PDFs, the corpus holds %d documents" % (s, n, held.get(s, 0))
             for s, n in sorted(retained.items()) if held.get(s, 0) != n]
    wrong += ["corpus source %s is not a retained source of the record" % s for s in sorted(held) if s not in retained]
    src = "supplement section 8 (the pre-gate collection and its OCR gate; %s)" % rel
    out = [Value(V2_STRUCTURE("pregate_sources"), len(record.sources), source=src),
           Value(V2_STRUCTURE("pregate_pdfs"), record.pdfs, source=src),
           Value(V2_STRUCTURE("pregate_pages"), record.pages, source=src),
           Value(V2_STRUCTURE("pregate_pages_passed"), record.pages_passed, source=src),
           Value(V2_STRUCTURE("pregate_pass_pct"), float(record.pass_percent), source=src),
           Value(V2_STRUCTURE("ocr_gate_pct"), float(record.gate_percent), source=src),
           Value(V2_STRUCTURE("pregate_sources_failing"), len(record.failing), source=src,
                 detail=", ".join(record.failing)),
           Value(V2_STRUCTURE("ocr_gate_disagreements"), len(wrong), source=rel, detail="; ".join(wrong[:6]))]
    out += [Value(V2_STRUCTURE("ocr_pass_pct_" + s.source), float(s.pass_percent), source=src)
            for s in record.sources]
    return out


def _ranks_desc(values):
    """1-based positions when sorted by value descending (ties share the better position)."""
    return [1 + sum(1 for w in values if w > v) for v in values]


V2_BASE = [layout.V2_CORPUS, layout.V2_CONDITIONS, layout.V2_QUERIES]
FINAL = layout.RELEASES[layout.V2].copy()           # S, on which the families' own files are computed
V2_INPUTS = V2_BASE + [FINAL.path]


def _copy_inputs(copy):
    """Input files of an analysis on one qrel copy: the v2 base files and what evaluating on the copy reads
    (:attr:`nclue.core.layout.QrelCopy.evaluation_inputs`)."""
    return V2_BASE + list(copy.evaluation_inputs)


def _forms_units(inst, copy=FINAL):
    v2 = inst.release(layout.SOURCESHIFT)
    units = []
    sids = form_systems(v2)
    claim = V2_FORMS.on(copy.name)
    inputs = _copy_inputs(copy)
    for sid in sids:
        for form in FORMS:
            rel = v2_path(sid, form)
            units.append(Unit("%s/%s" % (sid, form.key), inputs + [rel], (lambda rel=rel, sid=sid, form=form: (
                measure_values(claim, summary(outcomes(v2, rel, copy)), V2_FORM_MEASURES,
                               "supplement Table S3 (qrel copy %s)" % copy.path, system=sid, form=form.key)))))

    def rank_agreement():
        graded = [summary(outcomes(v2, v2_path(s, layout.RAW), copy))["graded_ndcg"] for s in sids]
        gold = [summary(outcomes(v2, v2_path(s, layout.RAW), copy))["gold_ndcg"] for s in sids]
        rg, ro = _ranks_desc(graded), _ranks_desc(gold)
        shifts = [abs(a - b) for a, b in zip(rg, ro)]
        worst = max(range(len(sids)), key=lambda i: (shifts[i], -i))
        src = "supplement section 8 (graded vs gold-only NDCG of the raw runs; qrel copy %s)" % copy.path
        agreement = V2_RANK_AGREEMENT.on(copy.name)
        return [Value(agreement("spearman_graded_vs_gold_ndcg"), spearman(graded, gold), source=src),
                Value(agreement("max_rank_shift"), shifts[worst], source=src),
                Value(agreement("max_shift_system"), sids[worst], source=src),
                Value(agreement("runs"), len(sids), source=src)]
    if sids:
        units.append(Unit("rank_agreement", inputs + [v2_path(s, layout.RAW) for s in sids], rank_agreement))
    return units


def _contrast_units(inst, copy=FINAL):
    v2 = inst.release(layout.SOURCESHIFT)
    contrasts = _pairs(v2, "source_shift_contrasts")
    files = sorted({v2_path(s, f) for c in contrasts for s in (c["variant"], c["base"]) for f in FORMS})

    def compute():
        n = len(v2.evaluation_queries(copy))
        resampling = protocol.SOURCESHIFT if copy.last else protocol.SOURCESHIFT_COPY
        n_draws = protocol.draws(resampling)
        masks = randomization.draw_masks(protocol.stream(resampling, copy=copy.path), n, n_draws)
        keys, diffs = [], []
        for form in FORMS:
            for c in contrasts:
                var = outcomes(v2, v2_path(c["variant"], form), copy).success
                base = outcomes(v2, v2_path(c["base"], form), copy).success
                keys.append((form, c, sum(var), sum(base)))
                diffs.append([v - b for v, b in zip(var, base)])
        tests = randomization.sign_flip_tests(diffs, masks)
        src = "supplement Table S4 (query-paired, n = %d, %d sign flips; qrel copy %s)" % (n, n_draws, copy.path)
        design = V2_CONTRAST_SETUP.on(copy.name)
        out = [Value(design("sign_flip_draws"), resampling.n_draws, source=src),
               Value(design("queries"), n, source=src)]
        for (form, c, sv, sb), t in zip(keys, tests):
            claim = V2_CONTRAST.on(copy.name).bind(contrast=c["id"], form=form.key)
            exact = randomization.exact_sign_flip_p(t.diffs)
            one_sided = montecarlo.paper_estimator(randomization.exact_one_sided_p(t.diffs), resampling.paper_draws)
            estimate = montecarlo.p_estimate(t.p_value(), resampling, n_draws, exact=exact,
                                             alternatives=[("one-sided", one_sided)])
            out += [Value(claim("delta_score"), 100.0 * (sv - sb) / n, source=src),
                    Value(claim("success_difference"), sv - sb, source=src),
                    Value(claim("p_value"), t.p_value(), source=src, estimate=estimate),
                    Value(claim("p_exact"), exact, source=src + "; exact over all 2^n sign vectors"),
                    Value(claim("p_value_within_3se_of_exact"),
                          randomization.within_monte_carlo_error(t.p_value(), exact, n_draws), source=src)]
        return out
    return [Unit("contrasts", _copy_inputs(copy) + files, compute)] if contrasts else []


def direction(a, b):
    """``same`` when both deltas have the same nonzero sign, ``flip`` when opposite, else ``zero``.

    >>> direction(1.2, -0.9), direction(6.8, 6.7), direction(0.0, 2.0)
    ('flip', 'same', 'zero')
    """
    if a == 0 or b == 0:
        return "zero"
    return "same" if (a > 0) == (b > 0) else "flip"


def _direction_units(inst, copy=FINAL):
    v1, v2 = inst, inst.release(layout.SOURCESHIFT)
    ops = _pairs(v2, "directions")
    # CrossPage's side reads the raw-form matrix, the rankings Table 5 reads for the same published cells (Table 7
    # restates them: "Jina composition +6.8"), so each published cell has one source of runs
    files_v1 = sorted({inst.spec.ranking(s) for c in ops for s in (c["variant"], c["base"])})
    files_v2 = sorted({v2_path(s, layout.RAW) for c in ops for s in (c["variant"], c["base"])})

    def compute():
        out = []
        src = "paper Table 7 (raw form, variant minus base, n-Clue Score@10 points; v2 qrel copy %s)" % copy.path
        for c in ops:
            d1 = (summary(outcomes(v1, inst.spec.ranking(c["variant"])))[NCLUE_SCORE.key]
                  - summary(outcomes(v1, inst.spec.ranking(c["base"])))[NCLUE_SCORE.key])
            d2 = (summary(outcomes(v2, v2_path(c["variant"], layout.RAW), copy))[NCLUE_SCORE.key]
                  - summary(outcomes(v2, v2_path(c["base"], layout.RAW), copy))[NCLUE_SCORE.key])
            claim = V2_DIRECTION.on(copy.name).bind(direction=c["id"])
            out += [Value(claim("v1_delta"), d1, source=src), Value(claim("v2_delta"), d2, source=src),
                    Value(claim("direction"), direction(d1, d2), source=src)]
        return out
    return [Unit("directions", V1_INPUTS + _copy_inputs(copy) + files_v1 + files_v2, compute)] if ops else []


def _has_v2(fn, copy=None):
    def units(inst):
        if not inst.exists(layout.V2_SYSTEMS) and not inst.exists(layout.V2_QUERIES):
            return []
        return fn(inst) if copy is None else fn(inst, copy)
    return units


def _copy_analyses(template, level, source, fn):
    """The analysis on S, then the same on S0 and the construction copy as separately named claims
    (``<family>.s0``, ``<family>.construction``: :func:`nclue.core.claim_ids.v2_copies`)."""
    return [Analysis(template.analysis_on(copy.name), level,
                     source + ("" if copy.last else " -- on qrel copy %s" % copy.path), _has_v2(fn, copy))
            for copy in reversed(layout.SOURCESHIFT.copies)]


def _sensitivity_units(inst):
    v2 = inst.release(layout.SOURCESHIFT)
    var, base = S1I_PAIR
    units = []
    if all(s in form_systems(v2) for s in S1I_PAIR):
        files = [v2_path(var, layout.RAW), v2_path(base, layout.RAW)]
        src = "supplement section 10.6 (source deltas, gold-only NDCG@10, 0-1 units)"

        def v2_compute():
            out = shared_document_values(v2, files[0], files[1], S1I_GAP)
            queries = v2.evaluation_queries()
            qids = sorted(queries)
            d = [x - y for x, y in zip(outcomes(v2, files[0]).gold_ndcg, outcomes(v2, files[1]).gold_ndcg)]
            for src_name in sorted({q.source for q in queries.values()}):
                idx = [i for i, q in enumerate(qids) if queries[q].source == src_name]
                claim = SHARED_DOCUMENTS_SOURCE.bind(pair=S1I_GAP, source=src_name)
                out += [Value(claim("gold_ndcg_gap"), math.fsum(d[i] for i in idx) / len(idx), source=src),
                        Value(claim("queries"), len(idx), source=src)]
            return out
        units.append(Unit("v2", V2_INPUTS + [layout.V2_GENEALOGY] + files, v2_compute))
    return units


ANALYSES = ([Analysis(V2_STRUCTURE.analysis, "derivation", "supplement section 8 (SourceShift scale)",
                       _has_v2(_structure_units))]
            + _copy_analyses(V2_FORMS, "scoring", "supplement Table S3 (13 systems x 3 forms)", _forms_units)
            + _copy_analyses(V2_CONTRAST, "inference", "supplement Table S4 (query-paired permutation)",
                             _contrast_units)
            + _copy_analyses(V2_DIRECTION, "scoring", "paper Table 7 (operation directions v1 vs v2)",
                             _direction_units)
            + [Analysis(SHARED_DOCUMENTS.analysis_on(layout.SOURCESHIFT.name), "sensitivity",
                        "supplement Table S1i (SourceShift column) and section 10.6 by source",
                        _has_v2(_sensitivity_units))])
