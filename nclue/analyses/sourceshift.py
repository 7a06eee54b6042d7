"""SourceShift analyses (``data/v2``; paper Table 7, supplement section 8, Tables S3-S4).

* ``v2.structure``: the release's scale (queries and documents by source and
  n; rows, golds, subsets and distinct gold documents of both qrel copies);
* ``v2.forms``: every system x form's n-Clue Score@10, Gold Hit@10,
  Gold-NDCG@10 and graded NDCG@10 on the revised qrels (Table S3), and the
  rank agreement of the 13 raw runs under graded vs gold-only NDCG;
* ``v2.contrasts``: the query-paired contrasts (Table S4): Delta n-Clue Score
  in points and a two-sided sign-flip p-value over the 225 queries
  (10,000 draws shared by all contrasts and forms; a query is its own family);
* ``v2.directions``: the raw-form operation directions on v1 and v2 (Table 7):
  variant minus base on each release and whether the sign is the same;
* ``v2.sensitivity``: Table S1i's SourceShift column for the raw fusion - BM25
  n-Clue Score contrast (graph components, crossed query x document
  intervals, leave-one-document ranges, removal of the 20 highest-degree
  documents; gold and all-judged memberships) and the contrast by source.
"""

from ..core import layout
from ..core.errors import InputError
from ..core.measures import V2_FORM_MEASURES
from ..core.metrics import summary
from ..core.rng import Stream
from ..core.structure import gold_and_subsets, gold_graph_components, sourceshift_table
from ..stats import randomization
from ..stats.rank import spearman
from ..stats.sensitivity import crossed_intervals, drop_top_degree, leave_one_document_range
from .base import Analysis, Unit, Value
from .common import form_systems, outcomes, systems_document
from .construction import stats_file_disagreements
from .scoring import measure_values

SEED = 11
FORMS = layout.QUERY_FORMS
V2_INPUTS = [layout.V2_CORPUS, layout.V2_CONDITIONS, layout.V2_QUERIES, layout.V2_QRELS, layout.V2_SYSTEMS]
V1_INPUTS = [layout.CORPUS, layout.QUERIES, layout.QRELS, layout.SYSTEMS]


def v2_path(sid, form):
    return layout.ranking_path(sid, form, layout.V2)


def _pairs(inst, field):
    """``[{id, variant, base, ...}]`` from a systems.json list, validated against its systems."""
    systems, _ = inst.systems()
    listed = systems_document(inst).get(field, [])
    if not isinstance(listed, list):
        raise InputError(inst.SYSTEMS, "must be a list", field=field)
    out = []
    for i, c in enumerate(listed):
        where = "%s[%d]" % (field, i)
        if not isinstance(c, dict) or not all(isinstance(c.get(k), str) for k in ("id", "variant", "base")):
            raise InputError(inst.SYSTEMS, "must be {id, variant, base}", field=where)
        for k in ("variant", "base"):
            if c[k] not in systems:
                raise InputError(inst.SYSTEMS, "unknown system %r" % c[k], field=where)
        out.append(c)
    return out


def _structure_units(inst):
    v2 = inst.v2()
    inputs = [layout.V2_CORPUS, layout.V2_CONDITIONS, layout.V2_QUERIES, layout.V2_QRELS_S0, layout.V2_QRELS]
    src = "supplement section 8 (SourceShift scale)"

    def stats_file():
        wrong = stats_file_disagreements(v2, layout.V2_STATS, "table", sourceshift_table(v2))
        return [Value("v2.structure.stats_file_disagreements", len(wrong), source=layout.V2_STATS,
                      detail="; ".join(wrong[:6]))]
    return [Unit("structure", inputs, lambda: [Value("v2.structure." + k, v, source=src)
                                               for k, v in sorted(sourceshift_table(v2).items())]),
            Unit("stats-file", inputs + [layout.V2_STATS], stats_file)]


def _ranks_desc(values):
    """1-based positions when sorted by value descending (ties share the better position)."""
    return [1 + sum(1 for w in values if w > v) for v in values]


def _forms_units(inst):
    v2 = inst.v2()
    units = []
    sids = form_systems(v2)
    for sid in sids:
        for form in FORMS:
            rel = v2_path(sid, form)
            units.append(Unit("%s/%s" % (sid, form), V2_INPUTS + [rel], (lambda rel=rel, sid=sid, form=form: (
                measure_values("v2.forms.%s.%s" % (sid, form), summary(outcomes(v2, rel)), V2_FORM_MEASURES,
                               "supplement Table S3")))))

    def rank_agreement():
        graded = [summary(outcomes(v2, v2_path(s, "raw")))["graded_ndcg"] for s in sids]
        gold = [summary(outcomes(v2, v2_path(s, "raw")))["gold_ndcg"] for s in sids]
        rg, ro = _ranks_desc(graded), _ranks_desc(gold)
        shifts = [abs(a - b) for a, b in zip(rg, ro)]
        worst = max(range(len(sids)), key=lambda i: (shifts[i], -i))
        src = "supplement section 8 (graded vs gold-only NDCG of the raw runs)"
        return [Value("v2.forms.rank_agreement.spearman_graded_vs_gold_ndcg", spearman(graded, gold), source=src),
                Value("v2.forms.rank_agreement.max_rank_shift", shifts[worst], source=src),
                Value("v2.forms.rank_agreement.max_shift_system", sids[worst], source=src)]
    if sids:
        units.append(Unit("rank_agreement", V2_INPUTS + [v2_path(s, "raw") for s in sids], rank_agreement))
    return units


def _contrast_units(inst):
    v2 = inst.v2()
    contrasts = _pairs(v2, "source_shift_contrasts")
    files = sorted({v2_path(s, f) for c in contrasts for s in (c["variant"], c["base"]) for f in FORMS})

    def compute():
        n = len(v2.queries())
        masks = randomization.draw_masks(Stream.derived(SEED, "v2", "randomization"), n, randomization.DRAWS)
        keys, diffs = [], []
        for form in FORMS:
            for c in contrasts:
                var = outcomes(v2, v2_path(c["variant"], form)).success
                base = outcomes(v2, v2_path(c["base"], form)).success
                keys.append((form, c, sum(var), sum(base)))
                diffs.append([v - b for v, b in zip(var, base)])
        tests = randomization.sign_flip_tests(diffs, masks)
        out = []
        src = "supplement Table S4 (query-paired, n = %d, %d sign flips)" % (n, randomization.DRAWS)
        for (form, c, sv, sb), t in zip(keys, tests):
            prefix = "v2.contrasts.%s.%s" % (c["id"], form)
            out += [Value(prefix + ".delta_score", 100.0 * (sv - sb) / n, source=src),
                    Value(prefix + ".success_difference", sv - sb, source=src),
                    Value(prefix + ".p_value", t.p_value(), source=src)]
        return out
    return [Unit("contrasts", V2_INPUTS + files, compute)] if contrasts else []


def direction(a, b):
    """``same`` when both deltas have the same nonzero sign, ``flip`` when opposite, else ``zero``.

    >>> direction(1.2, -0.9), direction(6.8, 6.7), direction(0.0, 2.0)
    ('flip', 'same', 'zero')
    """
    if a == 0 or b == 0:
        return "zero"
    return "same" if (a > 0) == (b > 0) else "flip"


def _direction_units(inst):
    v1, v2 = inst, inst.v2()
    ops = _pairs(v2, "directions")
    files_v1 = sorted({layout.ranking_path(s, "raw") for c in ops for s in (c["variant"], c["base"])})
    files_v2 = sorted({v2_path(s, "raw") for c in ops for s in (c["variant"], c["base"])})

    def compute():
        out = []
        src = "paper Table 7 (raw form, variant minus base, n-Clue Score@10 points)"
        for c in ops:
            d1 = (summary(outcomes(v1, layout.ranking_path(c["variant"], "raw")))["nclue_score"]
                  - summary(outcomes(v1, layout.ranking_path(c["base"], "raw")))["nclue_score"])
            d2 = (summary(outcomes(v2, v2_path(c["variant"], "raw")))["nclue_score"]
                  - summary(outcomes(v2, v2_path(c["base"], "raw")))["nclue_score"])
            prefix = "v2.directions.%s" % c["id"]
            out += [Value(prefix + ".v1_delta", d1, source=src), Value(prefix + ".v2_delta", d2, source=src),
                    Value(prefix + ".direction", direction(d1, d2), source=src)]
        return out
    return [Unit("directions", V1_INPUTS + V2_INPUTS + files_v1 + files_v2, compute)] if ops else []


def _has_v2(fn):
    def units(inst):
        if not inst.exists(layout.V2_SYSTEMS) and not inst.exists(layout.V2_QUERIES):
            return []
        return fn(inst)
    return units


S1I_PAIR = ("rrf_bm25and_pagetop3", "bm25_and")
CROSSED_DRAWS = 500


def shared_document_values(inst, variant_rel, base_rel, prefix, seed_label):
    """Table S1i (shared-document dependence) for one release's variant - base n-Clue Score contrast:
    gold and all-judged graph components, crossed query x document intervals, leave-one-document
    ranges and removal of the 20 highest-degree documents, for gold and for all judged memberships."""
    queries, qrels = inst.queries(), inst.qrels()
    sets = gold_and_subsets(queries, qrels)
    qids = sorted(queries)
    v, b = outcomes(inst, variant_rel).success, outcomes(inst, base_rel).success
    delta = [x - y for x, y in zip(v, b)]
    src = "supplement Table S1i (shared-document dependence, n-Clue Score points)"
    out = [Value(prefix + ".delta_score", 100.0 * sum(delta) / len(delta), source=src),
           Value(prefix + ".queries", len(qids), source=src),
           Value(prefix + ".distinct_gold_documents", len({d for q in qids for d in sets[q][0]}), source=src)]
    doc_index = {d: i for i, d in enumerate(sorted(inst.corpus()))}
    for label in ("gold", "judged"):
        member_sets = [sorted(sets[q][0]) if label == "gold" else sorted(qrels[q]) for q in qids]
        graph = {q: (frozenset(m), frozenset()) for q, m in zip(qids, member_sets)}
        comps = gold_graph_components(graph)
        stream = Stream.derived(SEED, seed_label, "crossed", label)
        members = [[doc_index[d] for d in m] for m in member_sets]
        lo, hi = crossed_intervals([delta], members, len(doc_index), stream, CROSSED_DRAWS)[0]
        l_lo, l_hi, _, _ = leave_one_document_range(delta, member_sets, sorted({d for m in member_sets for d in m}))
        dropped, left, _ = drop_top_degree(delta, member_sets, 20)
        out += [Value("%s.%s.components" % (prefix, label), len(comps), source=src),
                Value("%s.%s.largest_component" % (prefix, label), len(comps[0]), source=src),
                Value("%s.%s.crossed_ci_low" % (prefix, label), lo, source=src),
                Value("%s.%s.crossed_ci_high" % (prefix, label), hi, source=src),
                Value("%s.%s.leave_one_doc_min" % (prefix, label), l_lo, source=src),
                Value("%s.%s.leave_one_doc_max" % (prefix, label), l_hi, source=src),
                Value("%s.%s.drop_top20.delta_score" % (prefix, label), dropped, source=src),
                Value("%s.%s.drop_top20.queries" % (prefix, label), left, source=src)]
    return out


def _sensitivity_units(inst):
    v2 = inst.v2()
    var, base = S1I_PAIR
    units = []
    if all(s in form_systems(v2) for s in S1I_PAIR):
        files = [v2_path(var, "raw"), v2_path(base, "raw")]

        def v2_compute():
            out = shared_document_values(v2, files[0], files[1], "v2.sensitivity.fusion_minus_bm25", "v2")
            queries = v2.queries()
            qids = sorted(queries)
            d = [x - y for x, y in zip(outcomes(v2, files[0]).success, outcomes(v2, files[1]).success)]
            for src_name in sorted({q.source for q in queries.values()}):
                idx = [i for i, q in enumerate(qids) if queries[q].source == src_name]
                out += [Value("v2.sensitivity.fusion_minus_bm25.by_source.%s.delta_score" % src_name,
                              100.0 * sum(d[i] for i in idx) / len(idx), source="supplement section 8 (by source)"),
                        Value("v2.sensitivity.fusion_minus_bm25.by_source.%s.queries" % src_name, len(idx),
                              source="supplement section 8 (by source)")]
            return out
        units.append(Unit("v2", V2_INPUTS + files, v2_compute))
    return units


ANALYSES = [
    Analysis("v2.structure", "construction", "supplement section 8 (SourceShift scale)", _has_v2(_structure_units)),
    Analysis("v2.forms", "scoring", "supplement Table S3 (13 systems x 3 forms)", _has_v2(_forms_units)),
    Analysis("v2.contrasts", "inference", "supplement Table S4 (query-paired permutation)", _has_v2(_contrast_units)),
    Analysis("v2.directions", "scoring", "paper Table 7 (operation directions v1 vs v2)", _has_v2(_direction_units)),
    Analysis("v2.sensitivity", "sensitivity", "supplement Table S1i (SourceShift column) and section 8 by source",
             _has_v2(_sensitivity_units)),
]
