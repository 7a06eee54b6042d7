"""What several analyses share, memoised on the instrument: gold/subset sets, per-query outcome
vectors of a ranking, the parsed ``systems.json`` (its contrasts and form systems), the label audit's
records and the support of its repairs, and the stats-file comparison.

Outcome vectors are computed once per (ranking, qrel copy) and instrument by
:func:`nclue.core.metrics.evaluate` (docs/metrics.md); every analysis reads
them from here.
"""

import math

from ..core import layout
from ..core.errors import InputError, NclueError
from ..core.jsonio import read_json
from ..core.metrics import evaluate, ideal_graded_dcg
from ..core.structure import families, gold_and_subsets, gold_graph_components
from ..core.structure import query_factors as structure_query_factors
from ..labelaudit import audit_scoring
from ..labelaudit.challenge_records import FILES as CHALLENGE_NAMES
from ..labelaudit.challenge_records import load as load_challenge
from ..labelaudit.challenge_records import path_of as challenge_path
from ..labelaudit.audit_records import FILES as AUDIT_RECORD_NAMES
from ..labelaudit.audit_records import load_for as load_audit_records
from ..labelaudit.audit_records import path_of as audit_path
from ..stats import bootstrap, montecarlo, protocol, randomization
from ..stats.robustness import (crossed_and_query_only, drop_top_degree, drop_top_degree_orders,
                                leave_one_document_range)
from .base import Value

# what scoring on the final CrossPage copy reads: the corpus, the queries with their condition catalog, the
# copy, and its genealogy (the evaluation queries)
SCORE_INPUTS = [layout.CORPUS, layout.CONDITIONS, layout.QUERIES, layout.GENEALOGY, layout.QRELS]

AUDIT_FILES = [audit_path(name) for name in AUDIT_RECORD_NAMES]
# the release files the audit records are checked against: each release's queries, corpus and the copy the
# audit sampled (v1 the construction copy, v2 the construction copy)
AUDIT_RELEASE_INPUTS = [layout.CORPUS, layout.CONDITIONS, layout.QUERIES, layout.QRELS_CONSTRUCTION, layout.V2_CORPUS,
                        layout.V2_CONDITIONS, layout.V2_QUERIES, layout.V2_QRELS_CONSTRUCTION]
AUDIT_INPUTS = AUDIT_FILES + AUDIT_RELEASE_INPUTS
CHALLENGE_FILES = [challenge_path(name) for name in CHALLENGE_NAMES]


def audit_present(inst):
    """True when the release has the label audit's records (the ``audit`` part)."""
    return inst.exists(audit_path("key"))


def audit_records(inst):
    """The label audit's records, loaded once per instrument and checked against both releases' construction
    copies (the copies the packet was sampled from; :func:`nclue.labelaudit.audit_records.load_for`)."""
    return inst.memo("audit:records", lambda: load_audit_records(inst))


def final_support(inst):
    """The support of the CrossPage golds the audit's policy made (:func:`nclue.labelaudit.audit_scoring.repaired_gold_support`);
    empty without the audit part."""
    def build():
        if not audit_present(inst):
            return {}
        v1 = inst.v1()
        return audit_scoring.repaired_gold_support(audit_records(inst), "v1", v1.queries(), v1.inventory())
    return inst.memo("audit:final-support", build)


def support_inputs(inst):
    """The files :func:`final_support` reads: the audit's records when the audit part is present, or when the
    CrossPage genealogy says the final copy has repairs (then an absent audit part is an absent input, and the
    claims that need it skip); none for a release whose final copy is its construction copy."""
    if audit_present(inst):
        return AUDIT_INPUTS
    try:
        repaired = inst.v1().genealogy()["final"].grades_changed > 0
    except NclueError:
        repaired = True             # an unreadable genealogy: the claims fail on it, naming it
    return AUDIT_INPUTS if repaired else []


STATS_ROW_FIELDS = {"statistic", "stand_in", "paper"}


def stats_file_disagreements(inst, rel, key, stats):
    """Rows of a released stats file (``{statistic, stand_in, paper?}`` under ``key``) whose ``stand_in``
    value is not the recomputed ``stats[statistic]`` (and statistics missing from either side)."""
    rows = read_json(inst.path(rel), rel).get(key)
    if not isinstance(rows, list):
        raise InputError(rel, "must be a list", field=key)
    wrong = []
    released = {}
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("statistic"), str) or "stand_in" not in row:
            raise InputError(rel, "must be {statistic, stand_in, ...}", field="%s[%d]" % (key, i))
        if row["statistic"] in released:
            raise InputError(rel, "statistic %r listed twice" % row["statistic"], field="%s[%d]" % (key, i))
        unknown = sorted(set(row) - STATS_ROW_FIELDS)
        if unknown:
            raise InputError(rel, "unknown field %r (a row holds %s)" % (unknown[0], ", ".join(sorted(STATS_ROW_FIELDS))),
                             field="%s[%d].%s" % (key, i, unknown[0]))
        released[row["statistic"]] = row["stand_in"]
    for name in sorted(set(stats) | set(released)):
        if released.get(name, "absent") != stats.get(name, "absent"):
            wrong.append("%s: file %r, recomputed %r" % (name, released.get(name, "absent"), stats.get(name, "absent")))
    return wrong


def gold_sets(inst, qrels_rel=None):
    """``{qid: (gold, subsets)}`` of a release under one qrel copy (default: its ``qrels.jsonl``)."""
    rel = qrels_rel or inst.QRELS
    return inst.memo("sets:" + rel, lambda: gold_and_subsets(inst.evaluation_queries(rel), inst.qrels(rel)))


def ideals(inst, qrels_rel):
    """Ideal graded DCG@10 per query of one qrel copy (computed once per instrument)."""
    qrels = inst.qrels(qrels_rel)
    return inst.memo("ideals:" + qrels_rel, lambda: {q: ideal_graded_dcg(g) for q, g in qrels.items()})


def outcomes(inst, rel, qrels_rel=None):
    """Per-query outcome vectors of one ranking file under a qrel copy (default: the release's
    ``qrels.jsonl``) over that copy's evaluation queries, memoised per instrument."""
    copy = qrels_rel or inst.QRELS
    return inst.memo("outcomes:%s|%s" % (rel, copy), lambda: evaluate(
        inst.ranking(rel), inst.evaluation_queries(copy), inst.qrels(copy), gold_sets(inst, copy),
        ideals=ideals(inst, copy)))


def contrasts(inst):
    """The controlled blocks of systems.json (``contrasts``: ``{block, base, variants}``), validated when
    systems.json is loaded (:func:`nclue.core.loaders.load_systems`)."""
    return inst.systems()[1].contrasts


def form_systems(inst):
    """Systems of the query-form matrix: systems.json ``form_systems`` (13 in the paper; validated by the loader)."""
    return list(inst.systems()[1].form_systems)


def masked_systems(inst):
    """``[(masked system, its base, the dropped condition position)]`` of systems.json, sorted: the
    ``mask_*`` systems with a base (Table S5a)."""
    systems, _ = inst.systems()
    return [(sid, systems[sid].base, int(sid[-1])) for sid in sorted(systems)
            if sid.startswith("mask_") and systems[sid].base is not None]


def page_scored_systems(inst):
    """Systems whose systems.json entry says ``page_scored`` (they release page scores)."""
    systems, _ = inst.systems()
    return sorted(sid for sid, system in systems.items() if system.page_scored)


def delta(base_summary, variant_summary, key):
    """Variant minus base of one summary field (None when either is None)."""
    a, b = base_summary[key], variant_summary[key]
    return None if a is None or b is None else b - a


def displayed_variant(inst, block):
    """A block's displayed endpoint: the variant with the highest raw-form n-Clue Score (ties: the
    first listed), as the paper chose it post hoc (section 3.3; docs/statistics.md#the-displayed-endpoint)."""
    best = None
    for var in block["variants"]:
        count = sum(outcomes(inst, layout.ranking_path(var)).success)
        if best is None or count > best[1]:
            best = (var, count)
    return best[0]


def query_factors(inst):
    """Per query: n, shortest gold length L_min (pages) and positive pool size |D+| (memoised)."""
    return inst.memo("query-factors", lambda: structure_query_factors(inst.evaluation_queries(), inst.corpus(), inst.qrels(),
                                                                 gold_sets(inst)))


def challenge_records(inst):
    """The targeted challenge's records, loaded once per instrument against SourceShift S0 and the audit's pages."""
    def load():
        v2 = inst.v2()
        return load_challenge(inst.root, v2.evaluation_queries(layout.V2_QRELS_S0), v2.corpus(),
                              v2.qrels(layout.V2_QRELS_S0), audit_records(inst).pages)
    return inst.memo("audit:challenge-records", load)


def measure_values(prefix, summ, measures, source):
    """One Value ``<prefix>.<measure name>`` per measure, read from a :func:`nclue.core.metrics.summary`."""
    return [Value("%s.%s" % (prefix, m.name), summ[m.key], source=source) for m in measures]


# -- the inference context (paper section 3.4; docs/statistics.md#family-clustered-bootstrap): the evaluation
# queries of v1's final copy, their families, the protocol's shared draws and masks, each system's per-draw sums

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
        out = outcomes(self.inst, layout.ranking_path(sid))
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


# -- Table S1i (supplement section 4; docs/analyses.md#table-s1i), shared by v1.sensitivity.shared_documents and
# v2.sensitivity

S1I_PAIR = ("rrf_bm25and_pagetop3", "bm25_and")
S1I_SOURCE = "supplement Table S1i (shared-document dependence; gold-only NDCG@10 gap, 0-1 units)"


def shared_document_values(inst, variant_rel, base_rel, prefix, seed_label):
    """Table S1i (supplement section 4; docs/analyses.md#table-s1i) for one release's variant - base
    **gold-only NDCG@10** gap (per-query differences in 0-1 units, on the release's evaluation
    queries and final qrels): queries and distinct gold documents; then for gold memberships and for
    all judged memberships, the membership graph's components and largest, the crossed query x
    document 95% interval (:func:`nclue.stats.robustness.crossed_bootstrap`, ``protocol.SHARED_DOCUMENTS.n_draws`` draws,
    ``scale=1``), the leave-one-document range, and the gap after removing every query of the 20
    highest-degree documents with the number of queries left."""
    queries, qrels = inst.evaluation_queries(), inst.qrels()
    sets = gold_and_subsets(queries, qrels)
    qids = sorted(queries)
    v, b = outcomes(inst, variant_rel).gold_ndcg, outcomes(inst, base_rel).gold_ndcg
    delta = [x - y for x, y in zip(v, b)]
    src = S1I_SOURCE
    out = [Value(prefix + ".gold_ndcg_gap", math.fsum(delta) / len(delta), source=src),
           Value(prefix + ".queries", len(qids), source=src),
           Value(prefix + ".distinct_gold_documents", len({d for q in qids for d in sets[q][0]}), source=src)]
    doc_index = {d: i for i, d in enumerate(sorted(inst.corpus()))}
    for label in ("gold", "judged"):
        member_sets = [sorted(sets[q][0]) if label == "gold" else sorted(qrels[q]) for q in qids]
        graph = {q: (frozenset(m), frozenset()) for q, m in zip(qids, member_sets)}
        comps = gold_graph_components(graph)
        stream = protocol.stream(protocol.SHARED_DOCUMENTS, release=seed_label, label=label)
        members = [[doc_index[d] for d in m] for m in member_sets]
        crossed, query_only = crossed_and_query_only([delta], members, len(doc_index), stream,
                                                     protocol.draws(protocol.SHARED_DOCUMENTS), scale=1.0)
        l_lo, l_hi, _, _ = leave_one_document_range(delta, member_sets, sorted({d for m in member_sets for d in m}),
                                                    scale=1.0)
        out += [Value("%s.%s.components" % (prefix, label), len(comps), source=src),
                Value("%s.%s.largest_component" % (prefix, label), len(comps[0]), source=src)]
        out += crossed_interval_values("%s.%s.crossed_ci" % (prefix, label), crossed[0], query_only[0],
                                       protocol.SHARED_DOCUMENTS, src)
        out += [Value("%s.%s.leave_one_doc_min" % (prefix, label), l_lo, source=src),
                Value("%s.%s.leave_one_doc_max" % (prefix, label), l_hi, source=src)]
        out += drop_top_values("%s.%s.drop_top20" % (prefix, label), "gold_ndcg_gap", delta, member_sets, 1.0, src)
    return out


def crossed_interval_values(prefix, crossed, query_only, resampling, source):
    """``<prefix>_low`` / ``_high``: the percentile interval of a crossed bootstrap distribution, each endpoint
    declared a Monte Carlo estimate told apart from the same draws' query-only interval
    (:func:`nclue.stats.robustness.crossed_and_query_only`)."""
    lo, hi = bootstrap.percentile_interval(crossed)
    q_lo, q_hi = bootstrap.percentile_interval(query_only)
    alpha = (1.0 - protocol.INTERVAL_LEVEL) / 2.0
    name = "query-only bootstrap (documents not crossed)"
    return [Value(prefix + "_low", lo, source=source,
                  estimate=montecarlo.percentile_estimate(crossed, alpha, resampling, [(name, q_lo)])),
            Value(prefix + "_high", hi, source=source,
                  estimate=montecarlo.percentile_estimate(crossed, 1.0 - alpha, resampling, [(name, q_hi)]))]


def drop_top_values(prefix, measure, delta, member_sets, scale, source, k=20):
    """``<prefix>.<measure>`` and ``<prefix>.queries``: the difference after removing every query of the ``k``
    highest-degree documents (ties by document id), and the queries left; when a degree tie straddles rank
    ``k`` each is declared with every admissible order's value (:class:`nclue.stats.montecarlo.TieOrders`)."""
    value, left, _ = drop_top_degree(delta, member_sets, k, scale=scale)
    values, lefts, orders, tied, slots, enumerated = drop_top_degree_orders(delta, member_sets, k, scale=scale)
    ties = (lambda vs: montecarlo.TieOrders(vs, orders, k, tied, slots, enumerated)) if orders > 1 else (
        lambda vs: None)
    return [Value("%s.%s" % (prefix, measure), value, source=source, estimate=ties(values)),
            Value("%s.queries" % prefix, left, source=source, estimate=ties(lefts))]
