"""Every relation the paper's published numbers must satisfy (DESIGN 8; issue "paper audit").

A relation names the numbers it involves, whether it *determines* them
(``identity``: sums, differences, equal values, recombination, recomputed
statistics -- a wrong digit breaks it) or only *bounds* them (``bound``: an
interval contains a point, an ordering, "at least"), and a check that returns
a :class:`~nclue.paperaudit.solve.Verdict`.  Shares over N queries are checked on
the integer counts their displayed values allow (GRIM-style).
"""

from fractions import Fraction
from itertools import product as _cartesian

from ..stats import agreement as S
from .solve import Verdict, feasible_le, linear, linear_counts, share, value_shows

Q = 1000


class Relation:
    """``determines``: the numbers a wrong digit in which breaks the relation (all of ``ids`` for
    sums, differences and equalities; only the result for a recomputed statistic or an extreme;
    none for a bound)."""

    __slots__ = ("id", "description", "ids", "kind", "fn", "source", "determines")

    def __init__(self, id, description, ids, fn, kind="identity", source="", determines=None):
        self.id, self.description, self.ids, self.fn, self.kind, self.source = id, description, list(ids), fn, kind, source
        if determines is None:
            determines = list(ids) if kind == "identity" else []
        self.determines = list(determines)


RELATIONS = []


def rel(id, description, ids, fn, kind="identity", source="", determines=None):
    RELATIONS.append(Relation(id, description, ids, fn, kind, source, determines))


# ---- building blocks -------------------------------------------------------------------------

def _lin(terms, const=0, n=None):
    """Check sum(c * x) == const, on integer counts over n when every term allows it."""
    def fn(v):
        nums = [(Fraction(c), v[i]) for c, i in terms]
        if n is not None:
            verdict = linear_counts(nums, Fraction(const) * n / 100, n)
            if verdict is not None:
                return verdict
        return linear(nums, Fraction(const))
    return fn


def eq(id, a, b, desc, n=None, source=""):
    rel(id, desc, [a, b], _lin([(1, a), (-1, b)], 0, n), source=source)


def diff(id, a, b, d, desc, n=None, source=""):
    """a - b == d."""
    rel(id, desc, [a, b, d], _lin([(1, a), (-1, b), (-1, d)], 0, n), source=source)


def total(id, parts, value, desc, n=None, source=""):
    rel(id, desc, list(parts), _lin([(1, p) for p in parts], value, n), source=source)


def sum_eq(id, parts, target, desc, n=None, source=""):
    rel(id, desc, list(parts) + [target], _lin([(1, p) for p in parts] + [(-1, target)], 0, n), source=source)


def recombine(id, parts, whole, desc, source=""):
    """Integer counts k_i of shares over N_i add up to the whole's count over N (``parts``: [(id, N)])."""
    def fn(v):
        ranges = []
        for pid, size in parts:
            r = v[pid].counts(size)
            if r is None:
                return Verdict(False, "%s allows no integer count over %d" % (pid, size))
            ranges.append(range(r[0], r[1] + 1))
        wid, wsize = whole
        wr = v[wid].counts(wsize)
        if wr is None:
            return Verdict(False, "%s allows no integer count over %d" % (wid, wsize))
        for ks in _cartesian(*ranges):
            if wr[0] <= sum(ks) <= wr[1]:
                counts = {pid: k for (pid, _), k in zip(parts, ks)}
                counts[wid] = sum(ks)
                strict = all(v[pid].shows(Fraction(100 * k, s)) for (pid, s), k in zip(parts, ks)) and \
                    v[wid].shows(Fraction(100 * sum(ks), wsize))
                text = " + ".join("%d/%d" % (k, s) for (_, s), k in zip(parts, ks))
                return Verdict(True, "%s = %d/%d" % (text, sum(ks), wsize), boundary=not strict, counts=counts)
        return Verdict(False, "no counts: %s cannot add up to %s's k in %d..%d" % (
            ", ".join("%s k in %d..%d over %d" % (p, r.start, r.stop - 1, s) for (p, s), r in zip(parts, ranges)),
            wid, wr[0], wr[1]))
    rel(id, desc, [p for p, _ in parts] + [whole[0]], fn, source=source)


def ratio(id, k, n, pct, desc, source=""):
    """Count k of n displays as the percentage pct (k, n: ids or ints)."""
    def fn(v):
        kk = int(v[k].value) if isinstance(k, str) else k
        nn = int(v[n].value) if isinstance(n, str) else n
        return share(v[pct], kk, nn)
    ids = [x for x in (k, n, pct) if isinstance(x, str)]
    rel(id, desc, ids, fn, source=source, determines=[pct])


def contains(id, lo, x, hi, desc, source=""):
    def fn(v):
        a, b = feasible_le(v[lo], v[x]), feasible_le(v[x], v[hi])
        return Verdict(a.ok and b.ok, "%s; %s" % (a.detail, b.detail))
    rel(id, desc, [lo, x, hi], fn, kind="bound", source=source)


def order(id, a, b, desc, strict=True, source=""):
    rel(id, desc, [a, b], lambda v: feasible_le(v[a], v[b], strict), kind="bound", source=source)


def extreme(id, target, members, which, desc, scale=1, source=""):
    """target == min (or max) of members (members possibly rescaled, e.g. points -> proportion)."""
    def fn(v):
        ends = [sorted((v[m].lo * scale, v[m].hi * scale)) for m in members]
        los = [e[0] for e in ends]
        his = [e[1] for e in ends]
        lo, hi = (min(los), min(his)) if which == "min" else (max(los), max(his))
        t = v[target]
        ok = t.lo <= hi and lo <= t.hi
        inner = t.lo < hi and lo < t.hi
        return Verdict(ok, "%s of %s lies in [%.6g, %.6g]; %s stands for [%.6g, %.6g]" % (
            which, ",".join(members), float(lo), float(hi), t.text, float(t.lo), float(t.hi)),
            boundary=ok and not inner)
    rel(id, desc, [target] + list(members), fn, source=source, determines=[target])


def statistic(id, ids, compute, target, desc, source=""):
    def fn(v):
        return value_shows(v[target], Fraction(compute(v)), desc)
    rel(id, desc, list(ids) + [target], fn, source=source, determines=[target])


def const(id, target, value, desc, source=""):
    rel(id, desc, [target], lambda v: value_shows(v[target], Fraction(value), desc), source=source)


def I(v, i):
    return int(v[i].value)


# ---- Table 1, section 3.2, section 11, section 13 -------------------------------------------------
total("T1.n_split", ["T1.queries_n2", "T1.queries_n3"], 1000, "814 + 186 queries = 1,000")
sum_eq("T1.n_split_total", ["T1.queries_n2", "T1.queries_n3"], "T1.queries", "n=2 + n=3 queries = all queries")
statistic("T1.mean_pages", ["T1.pages", "T1.documents"], lambda v: v["T1.pages"].value / v["T1.documents"].value,
          "T1.pages_mean", "pages / documents = mean pages per document")
order("T1.median_le_max", "T1.pages_median", "T1.pages_max", "median pages <= max pages", strict=False)
order("T1.median_le_mean", "T1.pages_median", "T1.pages_mean", "median (11) below mean (20.5): long-tailed", strict=False)
order("T1.shortest_median_le_max", "T1.shortest_gold_median", "T1.pages_max", "shortest-gold median <= max pages", strict=False)
sum_eq("T1.grades", ["T1.grade1", "T1.grade2"], "T1.subset", "subset grade 1 + grade 2 = subset qrels")
sum_eq("T1.gold_sources", ["T1.gold_wb", "T1.gold_pmc"], "T1.gold", "gold qrels World Bank + PMC = gold qrels")
eq("T1.single_page_of", "T1.single_page_of", "T1.gold", "single-page gate denominator = gold qrels")
eq("T1.distinct_of", "T1.distinct_valid_of", "T1.gold", "distinct-page gate denominator = gold qrels")
eq("T1.distinct_all", "T1.distinct_valid", "T1.gold", "every gold is distinct-page valid")
const("T1.single_zero", "T1.single_page", 0, "no single-page-solvable gold")
order("T1.distinct_gold_le_gold", "T1.distinct_gold", "T1.gold", "distinct gold documents <= gold qrels", strict=False)
order("T1.distinct_gold_le_docs", "T1.distinct_gold", "T1.documents", "distinct gold documents <= documents", strict=False)
eq("T1.caption_median", "X.t1.caption_median", "T1.shortest_gold_median", "caption: shortest gold median 67 pages")
sum_eq("X.s11.rows_sum", ["T1.gold", "T1.subset"], "X.s11.rows", "gold + subset qrels = 50,995 qrel rows (section 11)")
statistic("X.s11.zero_pairs", ["T1.queries", "T1.documents", "X.s11.rows"],
          lambda v: v["T1.queries"].value * v["T1.documents"].value - v["X.s11.rows"].value, "X.s11.zero_pairs",
          "queries x documents - qrel rows = zero-count pairs")
sum_eq("X.s32.docs", ["X.s32.wb_docs", "X.s32.pmc_docs"], "T1.documents", "1,753 WB + 268 PMC = 2,021 documents")
eq("X.s32.gold_after", "X.s32.gold_after", "T1.gold", "after repair all 2,176 gold still pass (= Table 1 gold)")
for a, b in (("X.abs.queries", "T1.queries"), ("X.abs.documents", "T1.documents"), ("X.s13.queries", "T1.queries"),
             ("X.s13.qrels", "X.s11.rows"), ("X.s13.docs", "T1.documents"), ("X.s13.rankings", "T2.total"),
             ("S1i.cp.queries", "T1.queries"), ("S1i.cp.gold_docs", "T1.distinct_gold"), ("X.s34.linked_of", "T1.queries"),
             ("X.s5.single_of", "T1.gold"), ("X.s5.distinct", "T1.gold"), ("X.s5.single", "T1.single_page")):
    eq("eq.%s" % a, a, b, "%s = %s" % (a, b))

# ---- Table 2, section 3.3, supplement section 2 ------------------------------------------------------
total("T2.blocks", ["T2.representation", "T2.composition", "T2.complementarity", "T2.reranking", "T2.wording", "T2.controls"],
      70, "Table 2 blocks add up to 70 runs")
sum_eq("T2.fair_split", ["T2.fair", "T2.nonfair"], "T2.total", "54 fair + 16 controls/diagnostics = 70")
for a, b in (("X.s33.total", "T2.total"), ("X.s33.standalone", "T2.representation"), ("X.s33.decomposition", "T2.composition"),
             ("X.s33.fusion", "T2.complementarity"), ("X.s33.controls", "T2.controls"), ("X.s33.nonfair", "T2.nonfair"),
             ("X.abs.configs", "T2.total"), ("S2.standalone", "T2.representation"), ("S2.decomposition", "T2.composition"),
             ("S2.fusion", "T2.complementarity"), ("S2.reranking", "T2.reranking"), ("S2.wording", "T2.wording"),
             ("S2.controls", "T2.controls"), ("S2.total", "T2.total")):
    eq("eq.%s" % a, a, b, "%s = %s" % (a, b))
statistic("X.t2.forms", ["X.t2.form_systems"], lambda v: v["X.t2.form_systems"].value * 3, "X.t2.form_rankings",
          "13 systems x 3 forms = 39 rankings")
eq("eq.X.s13.form_rankings", "X.s13.form_rankings", "X.t2.form_rankings", "39 form rankings released")

# ---- Tables 3 and 4 --------------------------------------------------------------------------------------
T4_SYS = ("bm25_and", "qwen8b", "qwen06_dec", "colqwen_top3", "hybrid")
for s in T4_SYS:
    total("T4.%s.sum" % s, ["T4.%s.complete" % s, "T4.%s.subset" % s, "T4.%s.nogold" % s], 100,
          "Table 4 %s: the three outcomes sum to 100" % s, n=Q)
    eq("T4.%s.complete_eq_T3" % s, "T4.%s.complete" % s, "T3.%s.score" % s, "complete first = Table 3 n-Clue Score", n=Q)
    diff("T4.%s.subset_eq_hit_minus_score" % s, "T3.%s.hit" % s, "T3.%s.score" % s, "T4.%s.subset" % s,
         "subset first = Gold Hit - n-Clue Score", n=Q)
    total("T4.%s.nogold_eq_100_minus_hit" % s, ["T4.%s.nogold" % s, "T3.%s.hit" % s], 100,
          "no top-10 gold = 100 - Gold Hit", n=Q)
T3_SYS = ("bm25_and", "bm25_sdr", "jina_joint", "jina_dec", "qwen8b", "qwen06_dec", "colqwen", "colqwen_top3", "hybrid",
          "bge_base", "bge_rerank", "qwen3_text_rerank", "qwen3vl_rerank")
for s in T3_SYS:
    order("T3.%s.score_le_hit" % s, "T3.%s.score" % s, "T3.%s.hit" % s, "n-Clue Score <= Gold Hit (success needs a top-10 gold)", strict=False)
for base, var in (("bge_base", "bge_rerank"), ("bge_base", "qwen3_text_rerank"), ("colqwen", "qwen3vl_rerank")):
    order("T3.rerank_lowers_ndcg.%s" % var, "T3.%s.ndcg" % var, "T3.%s.ndcg" % base,
          "reranker %s lowers Gold-NDCG below its pool base %s (sections 1, 4.2)" % (var, base))
diff("X.s41.gap", "X.s41.hit", "X.s41.score", "X.s41.gap", "hybrid gap 81.1 - 35.8 = 45.3", n=Q)
for a, b in (("X.s41.hit", "T3.hybrid.hit"), ("X.s41.score", "T3.hybrid.score"), ("X.abs.hybrid_hit", "T3.hybrid.hit"),
             ("X.abs.hybrid_score", "T3.hybrid.score"), ("X.s41.top3_hit", "T3.colqwen_top3.hit"),
             ("X.s41.top3_score", "T3.colqwen_top3.score"), ("X.s41.hybrid_miss", "T4.hybrid.nogold"),
             ("X.s41.hybrid_subset", "T4.hybrid.subset"), ("X.s41.top3_miss", "T4.colqwen_top3.nogold"),
             ("X.s41.top3_subset", "T4.colqwen_top3.subset"), ("X.s41.q06_subset", "T4.qwen06_dec.subset")):
    eq("eq.%s" % a, a, b, "%s = %s" % (a, b), n=Q)

# ---- Table 5, Table 7 and the prose that quotes them ----------------------------------------------------------
T5_BLOCKS = ("scale", "page_aggregation", "lexical_composition", "jina_composition", "qwen_composition", "fusion",
             "text_reranking", "visual_reranking")
for b in T5_BLOCKS:
    diff("T5.%s.delta" % b, "T5.%s.variant" % b, "T5.%s.base" % b, "T5.%s.delta" % b, "Table 5 %s: Delta = variant - base" % b, n=Q)
    contains("T5.%s.ci_contains" % b, "T5.%s.ci_lo" % b, "T5.%s.delta" % b, "T5.%s.ci_hi" % b, "the paired CI contains Delta Score")
for a, b in (("T7.page_aggregation.crosspage", "T5.page_aggregation.delta"), ("T7.lexical_composition.crosspage", "T5.lexical_composition.delta"),
             ("T7.jina_composition.crosspage", "T5.jina_composition.delta"), ("T7.fusion.crosspage", "T5.fusion.delta"),
             ("T7.text_reranking.crosspage", "T5.text_reranking.delta"), ("T7.visual_reranking.crosspage", "T5.visual_reranking.delta"),
             ("X.abs.dense_gain_lo", "T5.jina_composition.delta"), ("X.abs.dense_gain_hi", "T5.qwen_composition.delta"),
             ("X.abs.fusion_gain", "T5.fusion.delta"), ("X.abs.scale_change", "T5.scale.delta"), ("X.s42.scale_hit", "T5.scale.dhit"),
             ("X.s42.scale_score", "T5.scale.delta"), ("X.s42.jina", "T5.jina_composition.delta"), ("X.s42.qwen", "T5.qwen_composition.delta"),
             ("X.s42.jina_p", "T5.jina_composition.p"), ("X.s42.qwen_p", "T5.qwen_composition.p"), ("X.s42.bm25_hit", "T5.lexical_composition.dhit"),
             ("X.s42.bm25_score", "T5.lexical_composition.delta"), ("X.s42.fusion", "T5.fusion.delta"), ("X.s42.fusion_p", "T5.fusion.p")):
    eq("eq.%s" % a, a, b, "%s = %s" % (a, b), n=Q)
statistic("X.s42.visual_rerank", ["T5.visual_reranking.delta"], lambda v: -v["T5.visual_reranking.delta"].value,
          "X.s42.visual_rerank", "lowers Score by 6.1 = -(Table 5 visual reranking Delta)")
# Table 5 base/variant scores against the raw column of S2b and S2a
for a, b in (("T5.scale.variant", "S2b.text_qwen3emb8b.raw"), ("T5.scale.base", "S2a.qwen06.raw"),
             ("T5.page_aggregation.base", "S2b.colqwen2.5.raw"), ("T5.page_aggregation.variant", "S2b.colqwen2.5_ptop3.raw"),
             ("T5.lexical_composition.base", "S2b.bm25_and.raw"), ("T5.lexical_composition.variant", "S2b.bm25_decompose_sdr.raw"),
             ("T5.jina_composition.base", "S2b.text_jinav4.raw"), ("T5.jina_composition.variant", "S2b.jinav4_dec_hmean.raw"),
             ("T5.qwen_composition.base", "S2a.qwen06.raw"), ("T5.qwen_composition.variant", "S2b.qwen3emb0.6b_dec_product.raw"),
             ("T5.fusion.base", "S2b.colqwen2.5_ptop3.raw"), ("T5.fusion.variant", "S2b.bm25and_colqwen2.5ptop3.raw"),
             ("T5.text_reranking.base", "S2b.bge_m3_joint.raw"), ("T5.text_reranking.variant", "S2b.rerank_bge_m3.raw"),
             ("T5.visual_reranking.base", "S2b.colqwen2.5.raw"), ("T5.visual_reranking.variant", "S2b.rerank_qwen3vl8b.raw"),
             ("S2a.jina.raw", "S2b.text_jinav4.raw"), ("S2a.bge.raw", "S2b.bge_m3_joint.raw")):
    eq("eq.%s" % a, a, b, "%s = %s (raw form)" % (a, b), n=Q)


def _holm_feasible(ids, m, draws):
    """Displayed Sel.+Holm p-values admit raw p-values on the (1 + c) / (draws + 1) grid (Holm step-down over m)."""
    def fn(v):
        nums = sorted((v[i] for i in ids), key=lambda x: (x.value, x.id))
        grid = Fraction(1, draws + 1)
        prev_p = Fraction(0)
        prev_adj_hi = Fraction(0)
        chosen = []
        for rank, num in enumerate(nums):
            factor = m - rank
            lo, hi = max(num.lo, Fraction(0)), num.hi
            # adjusted_i = min(1, max(prev_adj, factor * p_i)); find the smallest grid p_i >= prev_p
            c0 = max(0, -(-((prev_p / grid) - 1).numerator // ((prev_p / grid) - 1).denominator)) if prev_p else 0
            found = None
            for c in range(int(c0), draws + 1):
                p = (1 + c) * grid
                if p < prev_p:
                    continue
                adj = min(Fraction(1), max(prev_adj_hi if rank else Fraction(0), factor * p))
                if lo <= adj <= hi:
                    found = (p, adj)
                    break
                if factor * p > hi and adj > hi:
                    break
            if found is None:
                return Verdict(False, "no raw p on the 1/(%d+1) grid gives Holm-adjusted %s at rank %d (factor %d)" % (
                    draws, num.text, rank + 1, factor))
            prev_p, prev_adj_hi = found
            chosen.append("%s<-p=%d/%d" % (num.text, int(found[0] * (draws + 1)), draws + 1))
        return Verdict(True, "raw p-values consistent with Holm over %d blocks: %s" % (m, ", ".join(chosen)))
    return fn


rel("T5.holm_feasible", "Sel.+Holm p-values are a Holm step-down of raw 10,000-draw p-values over the eight blocks",
    ["T5.%s.p" % b for b in T5_BLOCKS], _holm_feasible(["T5.%s.p" % b for b in T5_BLOCKS], 8, 10000), kind="bound")
# Table 7 SourceShift column against Tables S3-S4
diff("T7.page_aggregation.ss", "S3.colqwen2.5_ptop3.raw", "S3.colqwen2.5.raw", "T7.page_aggregation.sourceshift",
     "Table 7 page aggregation (SourceShift) = S3 colqwen top-3 - colqwen, raw", n=225)
for t7, s4 in (("lexical_composition", "lexical"), ("jina_composition", "jina"), ("fusion", "fusion_top3"),
               ("text_reranking", "bge"), ("visual_reranking", "qwenvl")):
    eq("T7.%s.ss_eq_S4" % t7, "T7.%s.sourceshift" % t7, "S4.%s.raw.delta" % s4, "Table 7 SourceShift = Table S4 raw Delta", n=225)

# ---- Table 6, S1j and prose --------------------------------------------------------------------------------------------
SL = [("all", Q), ("n2", 814), ("n3", 186), ("lmin_le30", 185), ("lmin_gt100", 299), ("pool_le25", 146), ("pool_gt50", 384)]
T6_SYS = ("bm25_and", "qwen8b", "qwen06_dec", "colqwen_top3", "hybrid")
for s, size in SL:
    const("T6.size.%s" % s, "T6.size.%s" % s, size, "slice size")
    eq("S1j.size.%s" % s, "S1j.size.%s" % s, "T6.size.%s" % s, "Table S1j slice size = Table 6")
total("T6.n_sizes", ["T6.size.n2", "T6.size.n3"], 1000, "n=2 and n=3 slices partition the 1,000 queries")
eq("T6.n2_size_eq_T1", "T6.size.n2", "T1.queries_n2", "n=2 slice size = Table 1")
for sys_id in T6_SYS:
    for m in ("score", "hit"):
        recombine("T6.%s.%s.n_recombine" % (sys_id, m), [("T6.%s.n2.%s" % (sys_id, m), 814), ("T6.%s.n3.%s" % (sys_id, m), 186)],
                  ("T6.%s.all.%s" % (sys_id, m), 1000), "n=2 and n=3 counts recombine into All (%s %s)" % (sys_id, m))
        for s, size in SL:
            eq("S1j.%s.%s.%s" % (sys_id, s, m), "S1j.%s.%s.%s" % (sys_id, s, m), "T6.%s.%s.%s" % (sys_id, s, m),
               "Table S1j = Table 6", n=size)
        eq("T6.%s.all.%s_eq_T3" % (sys_id, m), "T6.%s.all.%s" % (sys_id, m), "T3.%s.%s" % (sys_id, m), "Table 6 All = Table 3", n=Q)
    for s, size in SL:
        order("T6.%s.%s.score_le_hit" % (sys_id, s), "T6.%s.%s.score" % (sys_id, s), "T6.%s.%s.hit" % (sys_id, s),
              "Score <= Hit within a slice", strict=False)
    order("S1j.density_adverse.%s" % sys_id, "T6.%s.pool_gt50.score" % sys_id, "T6.%s.pool_le25.score" % sys_id,
          "every displayed system scores lower for |D+| > 50 than for |D+| <= 25 (supplement 5)")


def _slice_gap(id_hit, id_score, id_gap, size, desc):
    rel(id_gap + ".gap", desc, [id_hit, id_score, id_gap], _lin([(1, id_hit), (-1, id_score), (-1, id_gap)], 0, size))


_slice_gap("X.s43.hit_n2", "X.s43.score_n2", "X.s43.gap_n2", 814, "hybrid n=2 gap = hit - score")
_slice_gap("X.s43.hit_n3", "X.s43.score_n3", "X.s43.gap_n3", 186,
           "hybrid n=3 gap 83.9 - 30.6 = 53.2 (the rounded difference is 53.3; counts 156/186 - 57/186 = 53.23)")
_slice_gap("T6.hybrid.lmin_gt100.hit", "T6.hybrid.lmin_gt100.score", "X.s43.long_gap_hybrid", 299, "hybrid long-slice gap 46.2")
_slice_gap("T6.colqwen_top3.lmin_gt100.hit", "T6.colqwen_top3.lmin_gt100.score", "X.s43.long_gap_top3", 299, "visual top-3 long-slice gap 46.1")
for a, b, size in (("X.s43.hit_n2", "T6.hybrid.n2.hit", 814), ("X.s43.hit_n3", "T6.hybrid.n3.hit", 186),
                   ("X.s43.score_n2", "T6.hybrid.n2.score", 814), ("X.s43.score_n3", "T6.hybrid.n3.score", 186),
                   ("X.s43.pool_hit", "T6.hybrid.pool_gt50.hit", 384), ("X.s43.pool_score", "T6.hybrid.pool_gt50.score", 384),
                   ("X.s1j.q06_hit_n2", "T6.qwen06_dec.n2.hit", 814), ("X.s1j.q06_score_n2", "T6.qwen06_dec.n2.score", 814),
                   ("X.s1j.q06_hit_n3", "T6.qwen06_dec.n3.hit", 186), ("X.s1j.q06_score_n3", "T6.qwen06_dec.n3.score", 186),
                   ("X.s1j.bm25_short", "T6.bm25_and.lmin_le30.score", 185), ("X.s1j.bm25_long", "T6.bm25_and.lmin_gt100.score", 299),
                   ("X.s1j.hit_n2", "T6.hybrid.n2.hit", 814), ("X.s1j.hit_n3", "T6.hybrid.n3.hit", 186),
                   ("X.s1j.score_n2", "T6.hybrid.n2.score", 814), ("X.s1j.score_n3", "T6.hybrid.n3.score", 186)):
    eq("eq.%s" % a, a, b, "%s = %s" % (a, b), n=size)


def _min_long_gap(v):
    """'At least 27.8 points' on the long slice: the smallest exact gap over the displayed systems, from counts."""
    gaps = []
    for s in T6_SYS:
        h, sc = v["T6.%s.lmin_gt100.hit" % s].counts(299), v["T6.%s.lmin_gt100.score" % s].counts(299)
        if h is None or sc is None:
            return Verdict(False, "%s long-slice values allow no count over 299" % s)
        gaps.append((Fraction(100 * (h[0] - sc[1]), 299), Fraction(100 * (h[1] - sc[0]), 299), s))
    low = min(g[0] for g in gaps)
    high_of_min = min(g[1] for g in gaps)
    target = v["X.s1j.long_gap_min"]
    ok = high_of_min >= target.lo
    strict = high_of_min >= target.value
    return Verdict(ok, "smallest long-slice gap lies in [%.4f, %.4f] (%s); 'at least %s' %s" % (
        float(low), float(high_of_min), min(gaps)[2], target.text,
        "holds" if strict else ("holds only as a rounded statement" if ok else "fails")), boundary=ok and not strict)


rel("X.s1j.long_gap_min", "the gap is at least 27.8 points for every displayed system on the long slice",
    ["X.s1j.long_gap_min"] + ["T6.%s.lmin_gt100.%s" % (s, m) for s in T6_SYS for m in ("hit", "score")], _min_long_gap, kind="bound")

# ---- Table 8 and its prose -------------------------------------------------------------------------------------------------
for a, b in (("X.abs.support_lo", "T8.vl8b.support"), ("X.abs.support_hi", "T8.vl2b.support"),
             ("X.s44.support_2b", "T8.vl2b.support"), ("X.s44.support_8b", "T8.vl8b.support")):
    eq("eq.%s" % a, a, b, "%s = %s" % (a, b), n=Q)
extreme("X.s44.full_lo", "X.s44.full_lo", ["T8.vl8b.full"], "min", "'14-17%' full coverage: low end = 8B 13.6")
extreme("X.s44.full_hi", "X.s44.full_hi", ["T8.vl2b.full"], "max", "'14-17%' full coverage: high end = 2B 17.2")
extreme("X.s5b.support_lo", "X.s5b.support_lo", ["T8.vl8b.support"], "min", "S5b Gold+Support .051 = Table 8 5.1%", scale=Fraction(1, 100))
extreme("X.s5b.support_hi", "X.s5b.support_hi", ["T8.vl2b.support"], "max", "S5b Gold+Support .053 = Table 8 5.3%", scale=Fraction(1, 100))


def _table8_split(run, n2_id, n3_id):
    """Gold+Support successes = full-coverage successes among hit queries, overall and split by n:
    find hit counts H = H2 + H3 and successes a2 + a3 = support count consistent with every shown share."""
    def fn(v):
        sup = v["T8.%s.support" % run].counts(Q)
        if sup is None:
            return Verdict(False, "Gold+Support allows no count over 1,000")
        full, f2, f3 = v["T8.%s.full" % run], v[n2_id], v[n3_id]
        for a in range(sup[0], sup[1] + 1):
            for h3 in range(0, 187):
                for a3 in range(0, min(a, h3) + 1):
                    if h3 and not f3.lo <= Fraction(100 * a3, h3) <= f3.hi:
                        continue
                    if not h3 and a3:
                        continue
                    a2 = a - a3
                    # h2 from a2 / h2 in f2's interval
                    if a2 == 0:
                        continue
                    h2_lo = int(-(-100 * a2 // f2.hi)) if f2.hi else 0
                    h2_hi = int(100 * a2 // f2.lo) if f2.lo > 0 else 814
                    for h2 in range(max(h2_lo, a2), min(h2_hi, 814) + 1):
                        if not f2.lo <= Fraction(100 * a2, h2) <= f2.hi:
                            continue
                        if full.lo <= Fraction(100 * a, h2 + h3) <= full.hi:
                            return Verdict(True, "support %d/1000; hits %d = %d (n=2) + %d (n=3); full %d/%d = %.2f%%, "
                                                 "n=2 %d/%d = %.2f%%, n=3 %d/%d = %.2f%%" % (
                                                     a, h2 + h3, h2, h3, a, h2 + h3, 100.0 * a / (h2 + h3), a2, h2,
                                                     100.0 * a2 / h2, a3, h3, 100.0 * a3 / h3 if h3 else 0.0),
                                           counts={"hits": h2 + h3, "hits_n2": h2, "hits_n3": h3, "success": a})
        return Verdict(False, "no hit counts make full coverage %s, its n-split %s / %s and Gold+Support %s agree" % (
            full.text, f2.text, f3.text, v["T8.%s.support" % run].text))
    return fn


rel("T8.vl2b.split", "2B: Gold+Support successes are the full-coverage hits; 17.2% overall from 21.2% (n=2) and 5.1% (n=3)",
    ["T8.vl2b.support", "T8.vl2b.full", "X.s44.full_2b_n2", "X.s44.full_2b_n3"], _table8_split("vl2b", "X.s44.full_2b_n2", "X.s44.full_2b_n3"), kind="bound")
rel("T8.vl8b.split", "8B: Gold+Support successes are the full-coverage hits; 13.6% overall from 14.1% (n=2) and 11.3% (n=3)",
    ["T8.vl8b.support", "T8.vl8b.full", "X.s44.full_8b_n2", "X.s44.full_8b_n3"], _table8_split("vl8b", "X.s44.full_8b_n2", "X.s44.full_8b_n3"), kind="bound")
for run in ("vl2b", "vl8b"):
    order("T8.%s.full_le_cond" % run, "T8.%s.full" % run, "T8.%s.cond" % run, "full coverage <= condition coverage", strict=False)

# ---- Section 4.3, 5, S2a ---------------------------------------------------------------------------------------------------
for key in ("bge", "jina", "qwen06", "e5", "gte"):
    diff("S2a.%s.delta" % key, "S2a.%s.para" % key, "S2a.%s.raw" % key, "S2a.%s.delta" % key, "S2a %s: Delta = paraphrase - raw" % key, n=Q)
S2A_D = ["S2a.%s.delta" % k for k in ("bge", "jina", "qwen06", "e5", "gte")]
S2A_P = ["S2a.%s.para" % k for k in ("bge", "jina", "qwen06", "e5", "gte")]
for lo, hi, src in (("X.s43.para_lo", "X.s43.para_hi", "4.3"), ("X.s5.para_lo", "X.s5.para_hi", "5"), ("X.s2a.range_lo", "X.s2a.range_hi", "S2a")):
    extreme("%s.min" % lo, lo, S2A_D, "min", "paraphrase change range low end = min S2a Delta (%s)" % src)
    extreme("%s.max" % hi, hi, S2A_D, "max", "paraphrase change range high end = max S2a Delta (%s)" % src)
extreme("X.s43.para_min", "X.s43.para_min", S2A_P, "min", "paraphrase scores stay above 12.8")
extreme("X.s43.para_max", "X.s43.para_max", S2A_P, "max", "paraphrase scores stay below 18.5")
# S2b clean column = Table 3
for t3, s2b in (("bm25_and", "bm25_and"), ("bm25_sdr", "bm25_decompose_sdr"), ("jina_joint", "text_jinav4"), ("qwen8b", "text_qwen3emb8b"),
                ("jina_dec", "jinav4_dec_hmean"), ("qwen06_dec", "qwen3emb0.6b_dec_product"), ("colqwen", "colqwen2.5"),
                ("colqwen_top3", "colqwen2.5_ptop3"), ("hybrid", "bm25and_colqwen2.5ptop3"), ("bge_base", "bge_m3_joint"),
                ("bge_rerank", "rerank_bge_m3"), ("qwen3vl_rerank", "rerank_qwen3vl8b"), ("qwen3_text_rerank", "rerank_qwen3r8b")):
    eq("S2b.%s.clean_eq_T3" % s2b, "S2b.%s.clean" % s2b, "T3.%s.score" % t3, "S2b clean column = Table 3 n-Clue Score", n=Q)
# S5a masking statements
MASK12 = ["S5a.%s.c%d" % (k, c) for k in ("jina", "qwen06", "bge", "e5", "gte") for c in (1, 2)]
extreme("X.s5.mask_lo", "X.s5.mask_lo", MASK12, "min", "'lowers Gold-NDCG by 1.9-6.5': smallest drop = 1.9", scale=-1)
extreme("X.s5.mask_hi", "X.s5.mask_hi", MASK12, "max", "'lowers Gold-NDCG by 1.9-6.5': largest drop = 6.5", scale=-1)
extreme("X.s5b.mask_lo", "X.s5b.mask_lo", MASK12, "min", "S5b 'lowers NDCG by .020-.065': smallest drop, in NDCG units", scale=Fraction(-1, 100))
extreme("X.s5b.mask_hi", "X.s5b.mask_hi", MASK12, "max", "S5b '.020-.065': largest drop, in NDCG units", scale=Fraction(-1, 100))
for m in MASK12:
    order("S5a.negative.%s" % m, m, "X.s5.single", "every c1/c2 masking change is negative", strict=True)

# ---- Section 3.2 audit numbers, S8, S9, 10.2 -----------------------------------------------------------------------------------
for a, b in (("X.s32.audit_pairs", "S8.pairs"), ("X.s32.audit_conditions", "S8.conditions"), ("X.s32.agree", "S8.grade_agree"),
             ("X.s32.agree_of", "S8.grade_agree_of"), ("X.s32.kappa_w", "S8.kappa_w"), ("X.s101.pairs", "S8.pairs"),
             ("X.s101.conditions", "S8.conditions"), ("S8.grade_agree_of", "S8.pairs"), ("S8.cond_agree_of", "S8.conditions"),
             ("S8.clear_of", "S8.pairs"), ("S8.clear", "S8.pairs"), ("S8.quotes", "S8.quotes_of")):
    eq("eq.%s" % a, a, b, "%s = %s" % (a, b))
eq("eq.X.s32.agree_pct", "X.s32.agree_pct", "S8.grade_agree_pct", "84.7% twice", n=300)
ratio("S8.grade_agree_ratio", "S8.grade_agree", "S8.grade_agree_of", "S8.grade_agree_pct", "254/300 = 84.7%")
ratio("S8.cond_agree_ratio", "S8.cond_agree", "S8.cond_agree_of", "S8.cond_agree_pct", "661/710 = 93.1%")
S9_IDS = ["S9.a%d.e%d" % (a, e) for a in range(4) for e in range(4)]


def _matrix(v):
    return [[I(v, "S9.a%d.e%d" % (a, e)) for e in range(4)] for a in range(4)]


statistic("S9.total", S9_IDS, lambda v: sum(sum(r) for r in _matrix(v)), "S8.pairs", "confusion matrix cells add up to 300 pairs")
statistic("S9.diagonal", S9_IDS, lambda v: sum(_matrix(v)[i][i] for i in range(4)), "S8.grade_agree", "confusion diagonal = 254 agreements")
statistic("S9.weighted_kappa", S9_IDS, lambda v: S.cohen_kappa(_matrix(v), "linear"), "S8.kappa_w",
          "linearly weighted kappa recomputed from Table S9 = .801")
statistic("X.s1022.splits_eq", S9_IDS, lambda v: sum(sum(r) for r in _matrix(v)) - sum(_matrix(v)[i][i] for i in range(4)),
          "X.s1022.splits", "A/E grade splits = 300 - 254 = off-diagonal of Table S9")


def _wilson(k, n, lo, hi):
    def fn(v):
        a, b = S.wilson(I(v, k), I(v, n))
        va, vb = value_shows(v[lo], Fraction(100 * a), "Wilson low"), value_shows(v[hi], Fraction(100 * b), "Wilson high")
        return Verdict(va.ok and vb.ok, "Wilson(%d/%d) = [%.3f, %.3f]%%: %s; %s" % (I(v, k), I(v, n), 100 * a, 100 * b, va.detail, vb.detail),
                       boundary=va.boundary or vb.boundary)
    return fn


rel("X.s1021.wilson_grade", "Wilson 95% interval of 254/300 = [80.2, 88.3]%", ["S8.grade_agree", "S8.grade_agree_of", "X.s1021.wilson_grade_lo",
    "X.s1021.wilson_grade_hi"], _wilson("S8.grade_agree", "S8.grade_agree_of", "X.s1021.wilson_grade_lo", "X.s1021.wilson_grade_hi"))
rel("X.s1021.wilson_cond", "Wilson 95% interval of 661/710 = [91.0, 94.7]%", ["S8.cond_agree", "S8.cond_agree_of", "X.s1021.wilson_cond_lo",
    "X.s1021.wilson_cond_hi"], _wilson("S8.cond_agree", "S8.cond_agree_of", "X.s1021.wilson_cond_lo", "X.s1021.wilson_cond_hi"))


def _binary_kappa(v):
    n, agree, a_pos, e_pos = I(v, "S8.conditions"), I(v, "S8.cond_agree"), I(v, "X.s1021.a_pos"), I(v, "X.s1021.e_pos")
    both = (a_pos + e_pos - (n - agree))
    if both % 2:
        return Verdict(False, "A+E positives and disagreements have odd parity: no 2x2 table")
    both //= 2
    table = [[both, a_pos - both], [e_pos - both, n - a_pos - e_pos + both]]
    if min(min(r) for r in table) < 0:
        return Verdict(False, "negative cell in the implied 2x2 table %s" % table)
    verdict = value_shows(v["X.s1021.kappa_binary"], Fraction(S.cohen_kappa(table)), "binary kappa of %s" % table)
    verdict.counts = {"both_positive": both, "A_only": table[0][1], "E_only": table[1][0], "both_negative": table[1][1]}
    return verdict


rel("X.s1021.kappa_binary", "binary Cohen's kappa .795 from 710 conditions, 661 agreements, A 560 and E 555 positives",
    ["S8.conditions", "S8.cond_agree", "X.s1021.a_pos", "X.s1021.e_pos", "X.s1021.kappa_binary"], _binary_kappa)


def _agreement_split(v):
    """254 agreements split over the n=2 and n=3 pairs at 85.3% and 83.6%; grade-3 pairs (Table S9 row/column 3) are n=3."""
    m = _matrix(v)
    min_n3 = sum(m[3]) + sum(m[i][3] for i in range(3))
    agree, pairs = I(v, "S8.grade_agree"), I(v, "S8.pairs")
    p2, p3 = v["X.s1021.agree_n2"], v["X.s1021.agree_n3"]
    for n3 in range(min_n3, pairs + 1):
        n2 = pairs - n3
        for a3 in range(0, n3 + 1):
            a2 = agree - a3
            if 0 <= a2 <= n2 and n2 and p2.lo <= Fraction(100 * a2, n2) <= p2.hi and p3.lo <= Fraction(100 * a3, n3) <= p3.hi:
                return Verdict(True, "n=2: %d/%d = %.2f%%, n=3: %d/%d = %.2f%% (at least %d n=3 pairs from grade 3)" % (
                    a2, n2, 100.0 * a2 / n2, a3, n3, 100.0 * a3 / n3, min_n3), counts={"pairs_n2": n2, "pairs_n3": n3, "agree_n2": a2, "agree_n3": a3})
    return Verdict(False, "no split of 300 pairs and 254 agreements gives 85.3% (n=2) and 83.6% (n=3)")


rel("X.s1021.agree_by_n", "exact grade agreement 85.3% (n=2) and 83.6% (n=3) recombine into 254/300",
    ["S8.grade_agree", "S8.pairs", "X.s1021.agree_n2", "X.s1021.agree_n3"] + S9_IDS, _agreement_split, kind="bound")
recombine("X.s1021.agree_by_release", [("X.s1021.agree_cp", 100), ("X.s1021.agree_ss", 200)], ("S8.grade_agree_pct", 300),
          "81.0% of 100 CrossPage and 86.5% of 200 SourceShift pairs recombine into 84.7% of 300")
sum_eq("X.s101.split", ["X.s101.cp", "X.s101.ss"], "X.s101.pairs", "100 CrossPage + 200 SourceShift = 300 pairs")
sum_eq("X.s1022.queue", ["X.s1022.splits", "X.s1022.decreases"], "X.s1022.queue_pairs", "46 splits + 29 consensus decreases = 75 queued pairs")
sum_eq("X.s1022.queue_conditions", ["X.s1022.cond_splits", "X.s1022.cond_negative"], "X.s1022.queue_conditions", "47 + 47 = 94 unresolved conditions")

# ---- S7, S13, S12 and 10.4 ---------------------------------------------------------------------------------------------------
S7R = ("cp_wb", "cp_pmc", "ss_arxiv", "ss_eric", "ss_fedreg", "ss_pmc")
for r in S7R + ("all",):
    sum_eq("S7.%s.row" % r, ["S7.%s.gold" % r, "S7.%s.subset" % r], "S7.%s.pairs" % r, "S7 %s: pre-gold + pre-subset = pairs" % r)
for col in ("pairs", "gold", "subset"):
    sum_eq("S7.%s.column" % col, ["S7.%s.%s" % (r, col) for r in S7R], "S7.all.%s" % col, "S7 %s column adds up to All" % col)
sum_eq("S7.cp_pairs", ["S7.cp_wb.pairs", "S7.cp_pmc.pairs"], "X.s101.cp", "S7 CrossPage pairs = 100")
eq("S7.all_pairs", "S7.all.pairs", "S8.pairs", "S7 All = 300 pairs")
for r in ("arxiv", "eric", "fedreg", "pmc"):
    eq("S13.%s.sampled_eq_S7" % r, "S13.%s.sampled" % r, "S7.ss_%s.pairs" % r, "S13 sampled = S7 pairs")
sum_eq("S13.cp_split", ["S13.cp.wb", "S13.cp.pmc"], "S13.cp.sampled", "98 WB + 2 PMC = 100 CrossPage pairs")
eq("S13.cp_wb_eq_S7", "S13.cp.wb", "S7.cp_wb.pairs", "98 WB pairs")
for col in ("sampled", "corrected"):
    sum_eq("S13.%s.column" % col, ["S13.%s.%s" % (r, col) for r in ("cp", "arxiv", "eric", "fedreg", "pmc")], "S13.all.%s" % col,
           "S13 %s adds up to All" % col)
for a, b in (("S13.all.corrected", "S12.all"), ("S13.cp.corrected", "X.s32.repairs"), ("X.s104.changed", "S12.all"),
             ("X.s104.changed_of", "S8.pairs"), ("S14.audit_changed", "S12.all"), ("S14.audit_of", "S8.pairs"),
             ("X.s106.cp", "S13.cp.corrected"), ("X.s5.repairs", "X.s32.repairs"), ("X.s5b.repairs", "X.s32.repairs"),
             ("X.s5b.promotions", "X.s32.promotions"), ("X.s5.reversal", "X.s32.reversal_max"), ("X.s5b.reversal", "X.s32.reversal_max"),
             ("X.s5b.rho_repair", "X.s32.rho")):
    eq("eq.%s" % a, a, b, "%s = %s" % (a, b))
sum_eq("X.s32.repairs_split", ["X.s32.promotions", "X.s5b.demotions"], "X.s32.repairs", "19 promotions + 1 demotion = 20 repairs")
sum_eq("X.s106.split", ["X.s106.cp", "X.s106.ss"], "S12.all", "20 CrossPage + 45 SourceShift = 65 updated qrels")
statistic("X.s106.ss_eq_S13", ["S13.arxiv.corrected", "S13.eric.corrected", "S13.fedreg.corrected", "S13.pmc.corrected"],
          lambda v: sum(I(v, "S13.%s.corrected" % r) for r in ("arxiv", "eric", "fedreg", "pmc")), "X.s106.ss",
          "SourceShift corrections in S13 add up to 45")
sum_eq("S12.sum", ["S12.t12", "S12.t23", "S12.t21"], "S12.all", "37 + 26 + 2 = 65 transitions")
sum_eq("S12.t12_split", ["S12.t12_gold", "S12.t12_partial"], "S12.t12", "1->2: 36 to gold + 1 partial = 37")
eq("S12.t23_all_gold", "S12.t23_gold", "S12.t23", "all 2->3 become gold")
eq("S12.t21_all", "S12.t21_partial", "S12.t21", "both 2->1 are gold to partial")
sum_eq("X.s104.to_gold", ["S12.t12_gold", "S12.t23_gold"], "X.s104.to_gold", "36 + 26 = 62 partial-to-gold")
statistic("S12.net", ["S12.t12_gold", "S12.t23_gold", "S12.t21_partial"],
          lambda v: I(v, "S12.t12_gold") + I(v, "S12.t23_gold") - I(v, "S12.t21_partial"), "S12.net", "net +60 = 62 gained - 2 lost")

# ---- S10, S11, 10.3 ------------------------------------------------------------------------------------------------------------
for a, b in (("S10.pairs", "X.s1022.queue_pairs"), ("S10.conditions", "X.s1022.queue_conditions"), ("X.s1032.pairs", "S10.pairs"),
             ("X.s1032.conditions", "S10.conditions"), ("X.s1032.unanimous_of", "S10.conditions"), ("X.s1031.rec6", "X.s1022.locked"),
             ("X.s1031.rec6_of", "X.s1022.locked"), ("X.s1031.rec9", "X.s1022.locked"), ("X.s1031.rec9_of", "X.s1022.locked"),
             ("X.s1032.quotes", "S11.all.quotes"), ("S11.all.quotes", "S11.all.pages")):
    eq("eq.%s" % a, a, b, "%s = %s" % (a, b))
statistic("S10.mean", ["S10.contexts", "S10.conditions"], lambda v: v["S10.contexts"].value / v["S10.conditions"].value, "S10.mean",
          "830 page contexts / 94 conditions = 8.83 pages per condition")
order("S10.min_le_mean", "S10.min", "S10.mean", "min <= mean pages per condition", strict=False)
order("S10.mean_le_max", "S10.mean", "S10.max", "mean <= max pages per condition", strict=False)
for r in ("a", "e", "f"):
    sum_eq("S11.%s.decisions" % r, ["S11.%s.pos" % r, "S11.%s.neg" % r], "S10.conditions", "S11 %s: positive + negative = 94 decisions" % r)
statistic("S11.all.decisions", ["S11.all.pos", "S11.all.neg"], lambda v: Fraction(I(v, "S11.all.pos") + I(v, "S11.all.neg"), 3), "S10.conditions",
          "S11 All: 236 + 46 = 282 = 3 responses x 94 conditions")
for r in ("a", "e", "f", "all"):
    eq("S11.%s.quotes_all" % r, "S11.%s.quotes" % r, "S11.%s.quotes_of" % r, "every quote exact")
    eq("S11.%s.quotes_pages" % r, "S11.%s.quotes_of" % r, "S11.%s.pages" % r, "one quote per selected page")
for col in ("pos", "neg", "pages"):
    sum_eq("S11.%s.column" % col, ["S11.a.%s" % col, "S11.e.%s" % col, "S11.f.%s" % col], "S11.all.%s" % col, "S11 %s adds up to All" % col)
ratio("X.s1032.unanimous_ratio", "X.s1032.unanimous", "X.s1032.unanimous_of", "X.s1032.unanimous_pct", "80/94 = 85.1%")
statistic("X.s104.nonunanimous", ["X.s1032.unanimous", "X.s1032.unanimous_of"],
          lambda v: I(v, "X.s1032.unanimous_of") - I(v, "X.s1032.unanimous"), "X.s104.nonunanimous", "94 - 80 = 14 non-unanimous conditions")
statistic("X.s1032.fleiss", ["X.s1032.conditions", "X.s1032.unanimous", "S11.all.pos"],
          lambda v: S.fleiss_binary(I(v, "X.s1032.conditions"), 3, I(v, "X.s1032.unanimous"), I(v, "S11.all.pos")), "X.s1032.fleiss",
          "Fleiss' kappa from 94 items, 80 unanimous, 236 positive votes of 282 = .636")


def _pairwise(v):
    """With three raters and 14 split items, each split disagrees in exactly two of the three pairs."""
    n = 94
    ks = []
    for i in ("X.s1032.pair1", "X.s1032.pair2", "X.s1032.pair3"):
        r = v[i].counts(n)
        if r is None:
            return Verdict(False, "%s allows no count over 94" % i)
        ks.append(range(r[0], r[1] + 1))
    split = I(v, "X.s1032.unanimous_of") - I(v, "X.s1032.unanimous")
    for combo in _cartesian(*ks):
        if sum(n - k for k in combo) == 2 * split:
            return Verdict(True, "pairwise agreements %s/94: disagreements %d = 2 x %d split items" % (
                "/".join(str(k) for k in combo), sum(n - k for k in combo), split), counts=dict(zip(("pair1", "pair2", "pair3"), combo)))
    return Verdict(False, "pairwise disagreements cannot equal 2 x %d" % split)


rel("X.s1032.pairwise", "pairwise agreements 86.2/92.6/91.5% and 80/94 unanimous: disagreements = 2 x 14 splits",
    ["X.s1032.pair1", "X.s1032.pair2", "X.s1032.pair3", "X.s1032.unanimous", "X.s1032.unanimous_of"], _pairwise)

# ---- 10.5 -----------------------------------------------------------------------------------------------------------------------
total("X.s105.transitions", ["X.s105.t10", "X.s105.t11", "X.s105.t12", "X.s105.t13", "X.s105.t22", "X.s105.t23"], 125,
      "target transitions add up to 125 targets")
statistic("X.s105.changed_eq", ["X.s105.t11", "X.s105.t22", "X.s105.targets"],
          lambda v: I(v, "X.s105.targets") - I(v, "X.s105.t11") - I(v, "X.s105.t22"), "X.s105.changed", "101 changed = 125 - 23 - 1 unchanged")
statistic("X.s105.tiebreak_eq", ["X.s105.agree", "X.s105.agree_of"], lambda v: I(v, "X.s105.agree_of") - I(v, "X.s105.agree"),
          "X.s105.tiebreak", "tie-break 75 conditions = 320 - 245 disagreements")
sum_eq("X.s105.tiebreak_split", ["X.s105.pick_dup", "X.s105.pick_other"], "X.s105.tiebreak", "22 + 53 = 75 tie-break choices")
eq("X.s105.targets", "X.s105.targets", "X.s105.n_targets", "125 targets")
eq("X.s105.controls", "X.s105.controls", "X.s105.n_controls", "25 controls")
sum_eq("X.s101.challenge", ["X.s105.n_targets", "X.s105.n_controls"], "X.s101.challenge_pairs", "125 targets + 25 controls = 150 pairs")
eq("X.s105.conditions", "X.s105.agree_of", "X.s101.challenge_conditions", "320 condition decisions")
order("X.s105.to_gold_le", "X.s105.to_gold", "X.s105.changed", "90 new golds <= 101 changed", strict=False)
eq("S14.challenge", "S14.challenge_changed", "X.s105.changed", "S14 challenge changed = 101")
eq("S14.challenge_of", "S14.challenge_of", "X.s105.targets", "S14 challenge of 125")

# ---- Section 8, S3, S4, S14, S1i ------------------------------------------------------------------------------------------------
total("X.s8.sources", ["X.s8.arxiv", "X.s8.eric", "X.s8.fedreg", "X.s8.pmc"], 225, "query counts by source add up to 225")
total("X.s8.n", ["X.s8.n2", "X.s8.n3"], 225, "198 + 27 = 225 queries")
statistic("X.s8.balanced", ["X.s8.per_source"], lambda v: 8 * v["X.s8.per_source"].value, "X.s8.pdfs", "eight sources x 125 = 1,000 PDFs")
statistic("X.s8.docs_eq", ["X.s8.per_source"], lambda v: 4 * v["X.s8.per_source"].value, "X.s8.docs", "four retained sources x 125 = 500 documents")
ratio("X.s8.pass_rate", "X.s8.pages_ok", "X.s8.pages", "X.s8.pages_pct", "62,039 / 62,838 = 98.73%")
for a, b in (("X.s8.queries", "S14.ss_queries.t"), ("X.s8.qrels", "S14.ss_qrels.t"), ("X.s8.s0_queries", "S14.ss_queries.a"),
             ("X.s8.s0_qrels", "S14.ss_qrels.a"), ("X.s32.ss_queries", "X.s8.queries"), ("X.s32.ss_docs", "X.s8.docs"),
             ("X.s32.ss_qrels", "X.s8.qrels"), ("S1i.ss.queries", "X.s8.queries"), ("S1i.ss.gold_docs", "X.s8.gold_docs"),
             ("X.s13.ss_queries", "X.s8.queries"), ("X.s13.ss_docs", "X.s8.docs"), ("X.s13.ss_s0", "X.s8.s0_qrels"),
             ("X.s13.ss_s", "X.s8.qrels"), ("X.s13.ss_rankings", "X.t2.form_rankings"), ("X.s8.runs", "X.t2.form_systems"),
             ("X.s5b.rho", "X.s8.rho"), ("X.s4.n", "X.s8.queries"), ("X.s106.gap", "S14.ss_gap.t"), ("X.s106.p_query", "S14.ss_p.t"),
             ("S1i.ss.gap", "S14.ss_gap.t"), ("X.s106.crossed_lo", "S1i.ss.crossed_lo"), ("X.s106.crossed_hi", "S1i.ss.crossed_hi"),
             ("X.s106.judged_lo", "S1i.ss.judged_crossed_lo"), ("X.s106.judged_hi", "S1i.ss.judged_crossed_hi"),
             ("X.s106.arxiv", "X.s8.delta_arxiv"), ("X.s106.eric", "X.s8.delta_eric"), ("X.s106.fedreg", "X.s8.delta_fedreg"),
             ("X.s106.pmc", "X.s8.delta_pmc"), ("S1i.cp.judged_largest", "T1.queries"), ("S1i.ss.judged_largest", "X.s8.queries"),
             ("X.s34.linked", "S1i.cp.largest")):
    eq("eq.%s" % a, a, b, "%s = %s" % (a, b))
rel("S14.queries_drop", "one zero-gold SourceShift query removed by the audit: 226 -> 225", ["S14.ss_queries.c", "S14.ss_queries.a"],
    lambda v: Verdict(I(v, "S14.ss_queries.c") - I(v, "S14.ss_queries.a") == 1, "226 - 225 = %d" % (I(v, "S14.ss_queries.c") - I(v, "S14.ss_queries.a"))))
rel("S14.qrels_audit", "8,858 - 8,849 = 9 qrels of the removed zero-gold query (section 8)", ["S14.ss_qrels.c", "S14.ss_qrels.a"],
    lambda v: Verdict(I(v, "S14.ss_qrels.c") - I(v, "S14.ss_qrels.a") == 9, "8,858 - 8,849 = %d (text: nine)" % (I(v, "S14.ss_qrels.c") - I(v, "S14.ss_qrels.a"))))
rel("S14.qrels_challenge", "8,849 - 8,841 = 8 zero-grade rows removed by the challenge (section 8)", ["S14.ss_qrels.a", "S14.ss_qrels.t", "X.s105.t10"],
    lambda v: Verdict(I(v, "S14.ss_qrels.a") - I(v, "S14.ss_qrels.t") == I(v, "X.s105.t10"),
                      "8,849 - 8,841 = %d; 1->0 transitions = %d" % (I(v, "S14.ss_qrels.a") - I(v, "S14.ss_qrels.t"), I(v, "X.s105.t10"))))
for stage in ("c", "a", "t"):
    diff("S14.gap.%s" % stage, "S14.ss_fusion.%s" % stage, "S14.ss_bm25.%s" % stage, "S14.ss_gap.%s" % stage,
         "SourceShift fusion - BM25 gap (stage %s)" % stage)
for key in ("cp_fusion", "cp_sdr", "cp_bm25"):
    order("S14.%s.stable" % key, "S14.%s.t" % key, "S14.%s.a" % key, "challenge changes no CrossPage label: same value", strict=False)
    eq("S14.%s.no_change" % key, "S14.%s.t" % key, "S14.%s.a" % key, "the target challenge changes no CrossPage labels")
diff("S1i.cp.gap_eq_S14", "S14.cp_fusion.t", "S14.cp_bm25.t", "S1i.cp.gap", "S1i CrossPage fusion - BM25 gap = S14 final fusion - BM25-AND (gold-only NDCG)")
rel("S14.lexical_ndcg_eq_T5", "Table 5 lexical Delta NDCG (+9.8 points) = S14 final SDR - BM25-AND gold-only NDCG",
    ["T5.lexical_composition.dndcg", "S14.cp_sdr.t", "S14.cp_bm25.t"],
    lambda v: linear([(Fraction(1, 100), v["T5.lexical_composition.dndcg"]), (Fraction(-1), v["S14.cp_sdr.t"]), (Fraction(1), v["S14.cp_bm25.t"])]))
for side in ("cp", "ss"):
    contains("S1i.%s.loo_contains" % side, "S1i.%s.loo_lo" % side, "S1i.%s.gap" % side, "S1i.%s.loo_hi" % side, "leave-one-gold-doc range contains the observed gap")
    contains("S1i.%s.judged_loo_contains" % side, "S1i.%s.judged_loo_lo" % side, "S1i.%s.gap" % side, "S1i.%s.judged_loo_hi" % side, "all-judged leave-one range contains the gap")
    contains("S1i.%s.crossed_contains" % side, "S1i.%s.crossed_lo" % side, "S1i.%s.gap" % side, "S1i.%s.crossed_hi" % side, "crossed interval contains the gap")
    contains("S1i.%s.judged_crossed_contains" % side, "S1i.%s.judged_crossed_lo" % side, "S1i.%s.gap" % side, "S1i.%s.judged_crossed_hi" % side, "all-judged crossed interval contains the gap")
    order("S1i.%s.largest_le" % side, "S1i.%s.largest" % side, "S1i.%s.queries" % side, "largest component <= queries", strict=False)
    order("S1i.%s.drop20_q_le" % side, "S1i.%s.drop20_q" % side, "S1i.%s.queries" % side, "queries left <= queries", strict=False)
for side in ("cp", "ss"):
    rel("S1i.%s.components_fit" % side, "components <= 1 + queries outside the largest component",
        ["S1i.%s.components" % side, "S1i.%s.queries" % side, "S1i.%s.largest" % side],
        lambda v, side=side: Verdict(I(v, "S1i.%s.components" % side) <= 1 + I(v, "S1i.%s.queries" % side) - I(v, "S1i.%s.largest" % side),
                                     "%d components, %d queries outside the largest" % (
                                         I(v, "S1i.%s.components" % side), I(v, "S1i.%s.queries" % side) - I(v, "S1i.%s.largest" % side))),
        kind="bound")
rel("X.s8.source_mean", "per-source fusion - BM25 deltas weighted by 42/44/125/14 queries recombine into the +.0161 gap",
    ["X.s8.delta_arxiv", "X.s8.delta_eric", "X.s8.delta_fedreg", "X.s8.delta_pmc", "X.s8.arxiv", "X.s8.eric", "X.s8.fedreg", "X.s8.pmc", "S1i.ss.gap"],
    lambda v: linear([(v["X.s8.%s" % s].value / 225, v["X.s8.delta_%s" % s]) for s in ("arxiv", "eric", "fedreg", "pmc")] + [(Fraction(-1), v["S1i.ss.gap"])]), kind="bound")


def _spearman_grid(rho_id, n, max_shift=None):
    def fn(v):
        r = v[rho_id]
        denom = n * (n * n - 1)
        sols = [d2 for d2 in range(0, denom // 3 + 1, 2) if r.lo <= 1 - Fraction(6 * d2, denom) <= r.hi]
        if max_shift is not None:
            sols = [d for d in sols if d >= max_shift ** 2]
        if not sols:
            return Verdict(False, "no even sum of squared rank differences gives rho = %s for n = %d untied ranks" % (r.text, n))
        return Verdict(True, "rho = 1 - 6 x %s / %d shows as %s" % ("/".join(map(str, sols[:4])), denom, r.text), counts={"sum_d2": sols[0]})
    return fn


rel("X.s8.rho_grid", "Spearman .5714 over 13 runs (largest movement 8 ranks) is attainable with untied ranks",
    ["X.s8.rho", "X.s8.runs", "X.s5b.shift"], _spearman_grid("X.s8.rho", 13, 8), kind="bound")
rel("X.s106.rho_grid", "pre/post rank correlation .9998 over 70 systems with largest movement one position",
    ["X.s106.rho", "X.s106.systems"], _spearman_grid("X.s106.rho", 70), kind="bound")

# ---- S3/S4 paired differences (integer counts over 225 queries) --------------------------------------------------------------------
S4_PAIRS = {"fusion_bm25": ("bm25and_colqwen2.5ptop3", "bm25_and"), "fusion_top3": ("bm25and_colqwen2.5ptop3", "colqwen2.5_ptop3"),
            "lexical": ("bm25_decompose_sdr", "bm25_and"), "jina": ("jinav4_dec_hmean", "text_jinav4"),
            "qwen": ("qwen3emb0.6b_dec_product", "text_qwen3emb8b"), "bge": ("rerank_bge_m3", "bge_m3_joint"),
            "qwenvl": ("rerank_qwen3vl8b", "colqwen2.5"), "qwen3r": ("rerank_qwen3r8b", "bge_m3_joint")}
for key, (var, base) in S4_PAIRS.items():
    for form, col in (("raw", "raw"), ("clean", "clean"), ("natural", "natural")):
        diff("S4.%s.%s" % (key, form), "S3.%s.%s" % (var, col), "S3.%s.%s" % (base, col), "S4.%s.%s.delta" % (key, form),
             "S4 %s (%s) = S3 %s - %s" % (key, form, var, base), n=225)
# S2b forms: decomposition and fusion improve under every form; BGE and visual rerankers lower it (supplement 7)
for var, base, sign in (("bm25and_colqwen2.5ptop3", "colqwen2.5_ptop3", 1), ("jinav4_dec_hmean", "text_jinav4", 1),
                        ("qwen3emb0.6b_dec_product", "text_qwen3emb8b", 1), ("rerank_bge_m3", "bge_m3_joint", -1),
                        ("rerank_qwen3vl8b", "colqwen2.5", -1)):
    for form in ("raw", "clean", "natural"):
        a, b = ("S2b.%s.%s" % (base, form), "S2b.%s.%s" % (var, form)) if sign > 0 else ("S2b.%s.%s" % (var, form), "S2b.%s.%s" % (base, form))
        order("S2b.direction.%s.%s" % (var, form), a, b, "supplement 7: %s %s its base under %s" % (var, "improves on" if sign > 0 else "lowers", form))
