"""An independent re-derivation of RealPage's (data/v3) controls, Figure 2, masking, diagnostics, Table S1i and
Table S14 claims, straight from the released files with the json module and code of its own.

Nothing here imports nclue: every measure is computed from its definition in the docs
(docs/metrics.md, docs/analyses.md, docs/statistics.md, docs/schema.md, docs/realpage.md), and cross-checked
with independent libraries where a definition matches one (pytrec_eval for gold-only NDCG@10, scikit-learn's
roc_auc_score for the pairwise AUC, scipy's spearmanr for the rank correlation).  Each frozen value is compared
under the rule its claim states; every test also changes one input and shows that the derived value moves, so
a test can fail.  Values drawn by Monte Carlo resampling (the crossed bootstrap intervals of Table S1i) are not
re-derived: they are skipped by name below."""

import json
import math
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
V3 = os.path.join(REPO, "data", "v3")
CLAIMS = os.path.join(REPO, "reference_metrics")
K = 10  # every @k metric uses k = 10 (docs/metrics.md#notation)


# ---- reading the release ----------------------------------------------------------------------------------

def _jsonl(path):
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _json(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


_CACHE = {}


def _cached(key, make):
    if key not in _CACHE:
        _CACHE[key] = make()
    return _CACHE[key]


def claims(name):
    """{id: claim} of reference_metrics/<name>.json."""
    path = os.path.join(CLAIMS, name + ".json")
    return _cached(("claims", name), lambda: {c["id"]: c for c in _json(path)["claims"]})


def queries():
    return _cached("queries", lambda: {q["qid"]: q for q in _jsonl(os.path.join(V3, "queries.jsonl"))})


def genealogy():
    return _cached("genealogy", lambda: {c["copy"]: c for c in _json(os.path.join(V3, "genealogy.json"))["copies"]})


def systems():
    return _cached("systems", lambda: _json(os.path.join(V3, "systems.json")))


def pages():
    """docid -> its number of pages (corpus.jsonl `pages`, one SHA-256 per page)."""
    def make():
        out = {}
        for row in _jsonl(os.path.join(V3, "corpus.jsonl")):
            assert row["pages"] == len(row["page_sha256"])
            out[row["docid"]] = row["pages"]
        return out
    return _cached("pages", make)


def inventory():
    """(docid, cid) -> set of pages."""
    return _cached("inventory", lambda: {(r["docid"], r["cid"]): set(r["pages"])
                                         for r in _jsonl(os.path.join(V3, "inventory.jsonl"))})


def _grades(fname):
    out = {}
    for r in _jsonl(os.path.join(V3, fname)):
        assert r["docid"] not in out.setdefault(r["qid"], {}), "a duplicate qrel row"
        out[r["qid"]][r["docid"]] = r["grade"]
    return out


def copy_grades(copy_name):
    """The qrels of a copy, restricted to its evaluation queries: the queries of queries.jsonl minus those removed
    at this copy's stage or earlier (docs/schema.md, 'Zero-gold removal' and genealogy.json).  Every evaluation
    query is present (an empty dict when it has no row)."""
    def make():
        order = ["construction", "final"]
        removed = set()
        for name in order[:order.index(copy_name) + 1]:
            removed |= set(genealogy()[name]["removed_queries"])
        fname = {"construction": "qrels_construction.jsonl", "final": "qrels.jsonl"}[copy_name]
        rows = _grades(fname)
        assert set(rows) <= set(queries()) - removed
        return {q: dict(rows.get(q, {})) for q in sorted(queries()) if q not in removed}
    return _cached(("grades", copy_name), make)


def ranking(system, form="raw"):
    """qid -> the first K docids; file order is the ranking (docs/schema.md#rankings)."""
    def make():
        path = (os.path.join(V3, "rankings", system + ".jsonl") if form == "raw"
                else os.path.join(V3, "rankings", "forms", "%s__%s.jsonl" % (system, form)))
        out = {}
        for r in _jsonl(path):
            assert r["qid"] not in out and len(set(r["docids"])) == len(r["docids"])
            out[r["qid"]] = list(r["docids"][:K])
        return out
    return _cached(("ranking", system, form), make)


# ---- the measures, from docs/metrics.md ------------------------------------------------------------------

def _first_ranks(grades, n, docids):
    """(r_G, r_S): the 1-based first rank of a gold (grade == n) and of a subset (0 < grade < n) in the top K;
    math.inf when absent."""
    r_g = r_s = math.inf
    for i, d in enumerate(docids[:K], 1):
        g = grades.get(d, 0)
        if g == n and r_g == math.inf:
            r_g = i
        elif 0 < g < n and r_s == math.inf:
            r_s = i
    return r_g, r_s


def success(grades, n, docids):
    """n-Clue Score's indicator: 1[r_G <= 10 and r_G < r_S] (docs/metrics.md#n-clue-score10)."""
    r_g, r_s = _first_ranks(grades, n, docids)
    return int(r_g <= K and r_g < r_s)


def hit(grades, n, docids):
    """Gold Hit's indicator: 1[r_G <= 10] (docs/metrics.md#gold-hit10)."""
    return int(_first_ranks(grades, n, docids)[0] <= K)


def gold_ndcg(grades, n, docids):
    """Binary-gain NDCG@10 on the unit scale; 0 for a query without gold (docs/metrics.md#gold-ndcg10)."""
    golds = sum(1 for g in grades.values() if g == n)
    if not golds:
        return 0.0
    dcg = sum(1.0 / math.log2(i + 1) for i, d in enumerate(docids[:K], 1) if grades.get(d, 0) == n)
    ideal = sum(1.0 / math.log2(i + 1) for i in range(1, min(K, golds) + 1))
    return dcg / ideal


def mean_over(qids, values):
    qids = list(qids)
    return math.fsum(values[q] for q in qids) / len(qids)


def per_query(measure, grades_by_q, run):
    """{qid: measure} over the copy's evaluation queries; a query the run does not rank scores as an empty list."""
    qs = queries()
    return {q: measure(g, qs[q]["n"], run.get(q, [])) for q, g in grades_by_q.items()}


def points(measure, grades_by_q, run, qids=None):
    vals = per_query(measure, grades_by_q, run)
    return 100.0 * mean_over(qids if qids is not None else vals, vals)


def pair_outcome(rank_gold, rank_subset):
    """One (g, s) pair of the pairwise AUC: 1[rank(g) < rank(s)], 0.5 when both are unranked (beyond rank 10 or
    absent; docs/metrics.md#pairwise-auc)."""
    if rank_gold == rank_subset == math.inf:
        return 0.5
    return float(rank_gold < rank_subset)


# ---- comparing with a frozen claim -------------------------------------------------------------------------

def agrees(claim, value):
    """The claim's rule (docs/claims.md#frozen-claims): exact (same JSON value and type), abs:<tol>."""
    rule, frozen = claim["rule"], claim["value"]
    if rule == "exact":
        return type(value) is type(frozen) and value == frozen
    if rule.startswith("abs:"):
        return (isinstance(value, (int, float)) and not isinstance(value, bool)
                and abs(value - frozen) <= float(rule[4:]))
    raise AssertionError("rule not handled here: %s" % rule)


def check_all(frozen, derived):
    """Every derived id is frozen and agrees; returns how many were checked."""
    bad = []
    for cid, value in derived.items():
        assert cid in frozen, "derived an id the claim file does not hold: %s" % cid
        if not agrees(frozen[cid], value):
            bad.append((cid, frozen[cid]["value"], value))
    assert not bad, "disagreements (id, frozen, derived): %r" % bad
    return len(derived)


def disagrees(frozen, derived):
    return [cid for cid, v in derived.items() if not agrees(frozen[cid], v)]


def _demote_one_success(grades_by_q, run):
    """A copy of run with one query's first gold moved out of the top 10: a query that succeeded stops."""
    qs = queries()
    new = dict(run)
    for q in sorted(grades_by_q):
        docids = run.get(q, [])
        if success(grades_by_q[q], qs[q]["n"], docids):
            n = qs[q]["n"]
            new[q] = [d for d in docids if grades_by_q[q].get(d, 0) != n]
            return new, q
    raise AssertionError("no successful query to demote")


def _promote_one_gold(grades_by_q, run):
    """A copy of run with one gold put first in a query that did not succeed."""
    qs = queries()
    new = dict(run)
    for q in sorted(grades_by_q):
        n = qs[q]["n"]
        docids = run.get(q, [])
        if not success(grades_by_q[q], n, docids):
            gold = sorted(d for d, g in grades_by_q[q].items() if g == n)[0]
            new[q] = [gold] + [d for d in docids if d != gold][:K - 1]
            return new, q
    raise AssertionError("no failing query to promote in")


# ---- the evaluation population ---------------------------------------------------------------------------

def test_evaluation_queries_are_the_final_copy_of_the_genealogy():
    """docs/schema.md (genealogy.json; 'Every analysis on a copy evaluates the queries of queries.jsonl minus
    those removed at that copy's stage or earlier'), docs/realpage.md#the-audit (920 final queries, 47,021 rows):
    the population every table below is computed on."""
    final, construction = copy_grades("final"), copy_grades("construction")
    assert len(final) == genealogy()["final"]["queries"] == 920
    assert len(construction) == genealogy()["construction"]["queries"] == 1000
    assert sum(len(g) for g in final.values()) == genealogy()["final"]["rows"] == 47021
    assert sum(len(g) for g in construction.values()) == genealogy()["construction"]["rows"] == 51915
    qs = queries()
    assert all(any(g == qs[q]["n"] for g in grades.values()) for q, grades in final.items())  # no zero-gold query
    assert sum(qs[q]["n"] == 3 for q in final) == 152 and sum(qs[q]["n"] == 2 for q in final) == 768


# ---- v3.controls -------------------------------------------------------------------------------------------

def _single_page_docs(q):
    """The documents with one page that establishes every condition of q (the inventory's pages)."""
    def make():
        out = {}
        for (docid, cid), pgs in inventory().items():
            out.setdefault(cid, {})[docid] = pgs
        return out
    by_cid = _cached("inventory_by_cid", make)
    lists = [by_cid.get(c["cid"], {}) for c in q["conditions"]]
    docs = set(lists[0]).intersection(*lists[1:])
    return {d for d in docs if set.intersection(*(lst[d] for lst in lists))}


def derive_controls(final, runs):
    score = {s: points(success, final, runs[s]) for s in runs}
    return {
        "v3.controls.oracle_facts.nclue_score_at_10": score["oracle_facts"],
        "v3.controls.oracle_facts.by_construction": score["oracle_facts"] == 100.0,
        "v3.controls.floor_single_page.nclue_score_at_10": score["floor_single_page"],
        "v3.controls.floor_single_page.by_construction": score["floor_single_page"] == 0.0,
        "v3.controls.prior_condition_frequency.nclue_score_at_10": score["prior_condition_frequency"],
        "v3.controls.random_seeded.nclue_score_at_10": score["random_seeded"],
    }


def test_controls():
    """v3.controls (docs/analyses.md, `v1.controls`: 'the controls, and the two that hold by construction';
    docs/stand-in.md: 'fact oracle = 100 and single-page floor = 0 by construction'; docs/realpage.md#the-rankings:
    'The oracle scores 100 and the single-page floor 0, as they must by construction').  n-Clue Score@10 of the
    four control runs on the final copy (docs/metrics.md#n-clue-score10); `by_construction` read as 'the control
    scores what its construction forces'.  The construction itself is checked apart: no gold of the final copy has
    a single page holding every condition (the page gate, docs/schema.md), nor has any document of the inventory,
    so the floor ranks nothing; the oracle ranks the golds first."""
    final = copy_grades("final")
    runs = {s: ranking(s) for s in ("oracle_facts", "floor_single_page", "prior_condition_frequency",
                                    "random_seeded")}
    derived = derive_controls(final, runs)
    assert check_all(claims("v3.controls"), derived) == 6
    qs, inv = queries(), inventory()
    for q, grades in final.items():
        cids = [c["cid"] for c in qs[q]["conditions"]]
        for d, g in grades.items():
            if g == qs[q]["n"]:
                common = set.intersection(*(inv[(d, c)] for c in cids))
                assert not common, "a gold solvable on one page: %s %s" % (q, d)
    assert all(not docids for docids in runs["floor_single_page"].values())
    # and no document at all holds every condition of a query on one page, so the floor has nothing to rank
    assert [q for q in final if _single_page_docs(qs[q])] == []
    # the oracle ranks every gold of the final copy before any other document
    for q, grades in final.items():
        golds = {d for d, g in grades.items() if g == qs[q]["n"]}
        top = runs["oracle_facts"][q][:min(K, len(golds))]
        assert set(top) <= golds
    # a changed input: a gold put first in the floor, a success of the random run taken away
    floor, _ = _promote_one_gold(final, runs["floor_single_page"])
    rnd, _ = _demote_one_success(final, runs["random_seeded"])
    bad = disagrees(claims("v3.controls"), derive_controls(final, dict(runs, floor_single_page=floor,
                                                                       random_seeded=rnd)))
    assert bad == ["v3.controls.floor_single_page.nclue_score_at_10", "v3.controls.floor_single_page.by_construction",
                   "v3.controls.random_seeded.nclue_score_at_10"]


# ---- v3.figure2 ---------------------------------------------------------------------------------------------

def fair_methods():
    """systems.json's fair systems outside the controls block (docs/analyses.md, `v1.figure2`)."""
    return [s["id"] for s in systems()["systems"] if s["fair"] and s["block"] != "controls"]


def displayed_variant(block, score):
    """The variant with the highest raw-form n-Clue Score, ties to the first listed
    (docs/statistics.md#the-displayed-endpoint)."""
    best = None
    for v in block["variants"]:
        if best is None or score[v] > score[best]:
            best = v
    return best


def derive_figure2(final, runs):
    methods = fair_methods()
    score = {s: points(success, final, runs[s]) for s in runs}
    gold_hit = {s: points(hit, final, runs[s]) for s in runs}
    out = {"v3.figure2.fair_methods": len(methods)}
    for s in methods:
        out["v3.figure2.methods.%s.nclue_score" % s] = score[s]
        out["v3.figure2.methods.%s.gold_hit" % s] = gold_hit[s]
    for block in systems()["contrasts"]:
        v, b = displayed_variant(block, score), block["base"]
        out["v3.figure2.pairs.%s.delta_gold_hit" % block["block"]] = gold_hit[v] - gold_hit[b]
        out["v3.figure2.pairs.%s.delta_nclue_score" % block["block"]] = score[v] - score[b]
    return out


def test_figure2():
    """v3.figure2 (docs/analyses.md, `v1.figure2`: the fair methods are systems.json's `fair` systems outside the
    `controls` block; each gives its raw-form n-Clue Score and Gold Hit; each Table 5 block gives its displayed
    pair's Delta Gold Hit and Delta n-Clue Score, points); the displayed variant by
    docs/statistics.md#the-displayed-endpoint; the measures by docs/metrics.md, on the final copy
    (docs/analyses.md#scoring)."""
    final = copy_grades("final")
    runs = {s: ranking(s) for s in fair_methods()}
    frozen = claims("v3.figure2")
    derived = derive_figure2(final, runs)
    assert set(derived) == set(frozen)
    assert check_all(frozen, derived) == 103
    # a changed input: one success of the fusion run taken away moves its score and the fusion pair's delta
    moved, _ = _demote_one_success(final, runs["rrf_bm25and_pagetop3"])
    bad = disagrees(frozen, derive_figure2(final, dict(runs, rrf_bm25and_pagetop3=moved)))
    assert "v3.figure2.methods.rrf_bm25and_pagetop3.nclue_score" in bad
    assert "v3.figure2.pairs.fusion.delta_nclue_score" in bad


# ---- v3.masking ---------------------------------------------------------------------------------------------

MASKED = ("bm25_or", "tri_joint", "quad_s_joint", "mini_doc")


def derive_masking(final, runs):
    qs = queries()
    out = {}
    for base in MASKED:
        full = runs[base]
        for c in (1, 2, 3):
            masked = runs["mask_%s_drop_c%d" % (base, c)]
            # drop c1 / c2 over all queries, drop c3 over the n = 3 queries (docs/analyses.md, v1.inference.masking)
            qids = sorted(final) if c < 3 else sorted(q for q in final if qs[q]["n"] == 3)
            key = "v3.masking.%s.drop_c%d." % (base, c)
            out[key + "queries"] = len(qids)
            out[key + "delta_gold_ndcg"] = (points(gold_ndcg, final, masked, qids)
                                            - points(gold_ndcg, final, full, qids))
            out[key + "delta_gold_hit"] = points(hit, final, masked, qids) - points(hit, final, full, qids)
            out[key + "delta_score"] = points(success, final, masked, qids) - points(success, final, full, qids)
    return out


def test_masking():
    """v3.masking (docs/analyses.md: `v1.masking`, 'masked minus full Gold-NDCG, Gold Hit and Score', Table S5a;
    drop c1 / c2 over all queries and drop c3 over the n = 3 queries, as `v1.inference.masking` states; condition
    positions c1..c3 by docs/schema.md#queriesjsonl).  Gold-NDCG x100, Gold Hit and n-Clue Score in points
    (docs/metrics.md#units).  Gold-NDCG is cross-checked with pytrec_eval's ndcg_cut_10 on gold-only qrels."""
    final = copy_grades("final")
    runs = {s: ranking(s) for s in MASKED}
    runs.update({"mask_%s_drop_c%d" % (b, c): ranking("mask_%s_drop_c%d" % (b, c)) for b in MASKED for c in (1, 2, 3)})
    frozen = claims("v3.masking")
    derived = derive_masking(final, runs)
    assert set(derived) == set(frozen)
    assert check_all(frozen, derived) == 48
    # pytrec_eval agrees with the binary-gain NDCG on a masked and a full run
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qs = queries()
    gold_qrels = {q: {d: 1 for d, g in gr.items() if g == qs[q]["n"]} for q, gr in final.items()}
    ev = pytrec_eval.RelevanceEvaluator(gold_qrels, {"ndcg_cut_10"})
    for name in ("bm25_or", "mask_bm25_or_drop_c1"):
        run = {q: {d: float(K - i) for i, d in enumerate(runs[name][q])} for q in final if runs[name][q]}
        res = ev.evaluate(run)
        mine = per_query(gold_ndcg, final, runs[name])
        assert all(abs(res.get(q, {"ndcg_cut_10": 0.0})["ndcg_cut_10"] - mine[q]) <= 1e-12 for q in final)
    # a changed input: the masked ranking of one query replaced by the full one
    masked = dict(runs["mask_tri_joint_drop_c1"])
    q = next(q for q in sorted(final) if masked[q][:K] != runs["tri_joint"][q][:K]
             and success(final[q], qs[q]["n"], masked[q]) != success(final[q], qs[q]["n"], runs["tri_joint"][q]))
    masked[q] = runs["tri_joint"][q]
    assert "v3.masking.tri_joint.drop_c1.delta_score" in disagrees(
        frozen, derive_masking(final, dict(runs, mask_tri_joint_drop_c1=masked)))


# ---- v3.diagnostics ------------------------------------------------------------------------------------------

def length_bin(n_pages):
    """floor(2 log2(pages)), computed exactly as (pages^2).bit_length() - 1 (docs/analyses.md#v1diagnostics)."""
    return (n_pages * n_pages).bit_length() - 1


def derive_length_matched(final, runs):
    qs, npages = queries(), pages()
    pairs = {}   # qid -> [(gold, subset, same bin)] over G_q x S_q
    for q, grades in final.items():
        n = qs[q]["n"]
        gold = [d for d, g in grades.items() if g == n]
        sub = [d for d, g in grades.items() if 0 < g < n]
        pairs[q] = [(g, s, length_bin(npages[g]) == length_bin(npages[s])) for g in gold for s in sub]
    out = {}
    for s in systems()["form_systems"]:
        plain, matched = [], []
        for q, qp in pairs.items():
            if not qp:
                continue
            rank = {d: i for i, d in enumerate(runs[s][q][:K], 1)}
            tot = mtot = 0.0
            mcnt = 0
            for g, sub, same in qp:
                v = pair_outcome(rank.get(g, math.inf), rank.get(sub, math.inf))
                tot += v
                if same:
                    mtot += v
                    mcnt += 1
            plain.append(tot / len(qp))
            if mcnt:
                matched.append(mtot / mcnt)
        a, m = math.fsum(plain) / len(plain), math.fsum(matched) / len(matched)
        out["v3.diagnostics.length_matched.%s.auc" % s] = a
        out["v3.diagnostics.length_matched.%s.length_matched_auc" % s] = m
        out["v3.diagnostics.length_matched.%s.auc_change" % s] = m - a
    out["v3.diagnostics.length_matched.auc_queries"] = sum(1 for qp in pairs.values() if qp)
    out["v3.diagnostics.length_matched.matched_queries"] = sum(1 for qp in pairs.values() if any(x[2] for x in qp))
    out["v3.diagnostics.length_matched.matched_pairs"] = sum(x[2] for qp in pairs.values() for x in qp)
    out["v3.diagnostics.length_matched.all_pairs"] = sum(len(qp) for qp in pairs.values())
    return out


def test_length_matched_auc():
    """v3.diagnostics.length_matched (docs/analyses.md#v1diagnostics, 'Length-matched AUC': the half-octave bin
    floor(2 log2(pages)); per query-form system on the raw matrix, the pairwise AUC of docs/metrics.md#pairwise-auc
    over the gold x subset pairs whose two documents share a bin, averaged over the queries with at least one such
    pair; the plain AUC, the change, and the queries and pairs with and without matching).  Pages are
    corpus.jsonl's (docs/schema.md#realpage-datav3).  The plain AUC is cross-checked per query with scikit-learn's
    roc_auc_score (gold 1, subset 0, score minus the rank, unranked tied below rank 10)."""
    final = copy_grades("final")
    runs = {s: ranking(s) for s in systems()["form_systems"]}
    frozen = claims("v3.diagnostics")
    derived = derive_length_matched(final, runs)
    assert check_all(frozen, derived) == 67
    assert {c for c in frozen if ".length_matched." in c} == set(derived)
    metrics = pytest.importorskip("sklearn.metrics")
    qs = queries()
    for s in ("bm25_dec_sdr", "tri_joint"):
        vals = []
        for q, grades in sorted(final.items()):
            n = qs[q]["n"]
            rank = {d: i for i, d in enumerate(runs[s][q], 1)}
            docs = [d for d, g in sorted(grades.items()) if 0 < g]
            labels = [int(grades[d] == n) for d in docs]
            if 0 < sum(labels) < len(labels):
                vals.append(metrics.roc_auc_score(labels, [-rank.get(d, K + 1) for d in docs]))
        assert abs(math.fsum(vals) / len(vals) - frozen["v3.diagnostics.length_matched.%s.auc" % s]["value"]) <= 1e-9
    # a changed input: one page more for every document moves some bins, so the matched pairs change
    npages = pages()
    saved = dict(npages)
    try:
        for d in list(npages):
            npages[d] = npages[d] + 1
        bad = disagrees(frozen, derive_length_matched(final, runs))
    finally:
        npages.clear()
        npages.update(saved)
    assert "v3.diagnostics.length_matched.matched_pairs" in bad
    assert "v3.diagnostics.length_matched.auc_queries" not in bad


def density_match(final):
    """Every n = 3 query matched without replacement to the n = 2 query nearest in |D+| (nonzero qrels): n = 3
    queries in order of |D+| descending, ties by qid; among equally near candidates the smaller |D+|, then the
    smaller qid (docs/analyses.md#v1diagnostics, 'Density matching')."""
    qs = queries()
    pool = {q: sum(1 for g in grades.values() if g > 0) for q, grades in final.items()}
    n3 = sorted((q for q in final if qs[q]["n"] == 3), key=lambda q: (-pool[q], q))
    free = sorted(q for q in final if qs[q]["n"] == 2)
    pairs = []
    for q in n3:
        best = min(free, key=lambda c: (abs(pool[c] - pool[q]), pool[c], c))
        free.remove(best)
        pairs.append((q, best))
    return pairs, pool


def derive_density(final, runs):
    pairs, pool = density_match(final)
    n3 = [a for a, _ in pairs]
    n2 = [b for _, b in pairs]
    out = {"v3.diagnostics.density_matched.pairs": len(pairs),
           "v3.diagnostics.density_matched.n3_mean_pool": math.fsum(pool[q] for q in n3) / len(n3),
           "v3.diagnostics.density_matched.n2_mean_pool": math.fsum(pool[q] for q in n2) / len(n2),
           "v3.diagnostics.density_matched.max_pool_gap": max(abs(pool[a] - pool[b]) for a, b in pairs)}
    higher = 0
    for s in systems()["form_systems"]:
        key = "v3.diagnostics.density_matched.%s." % s
        s3, s2 = points(success, final, runs[s], n3), points(success, final, runs[s], n2)
        out[key + "n3_nclue_score"] = s3
        out[key + "n2_nclue_score"] = s2
        out[key + "n3_minus_n2_nclue_score"] = s3 - s2
        out[key + "n3_gold_hit"] = points(hit, final, runs[s], n3)
        out[key + "n2_gold_hit"] = points(hit, final, runs[s], n2)
        higher += s3 > s2
    out["v3.diagnostics.density_matched.systems_n3_higher"] = higher
    out["v3.diagnostics.density_matched.n3_higher_for_every_system"] = higher == len(systems()["form_systems"])
    return out


def test_density_matched():
    """v3.diagnostics.density_matched (docs/analyses.md#v1diagnostics, 'Density matching': for each scorecard
    system, clean form, n-Clue Score and Gold Hit on the matched n = 3 and n = 2 sets, their difference, and whether
    n = 3 scores higher for every system).  The clean-form rankings are rankings/forms/<system>__clean_v2.jsonl
    (docs/schema.md#realpage-datav3); |D+| is a query's nonzero qrels in the final copy; 'higher' read strictly."""
    final = copy_grades("final")
    runs = {s: ranking(s, "clean_v2") for s in systems()["form_systems"]}
    frozen = claims("v3.diagnostics")
    derived = derive_density(final, runs)
    assert {c for c in frozen if ".density_matched." in c} == set(derived)
    assert check_all(frozen, derived) == 111
    # a changed input: one subset row less for the densest n = 3 query changes the pools
    pairs, _ = density_match(final)
    q = pairs[0][0]
    changed = dict(final)
    changed[q] = dict(final[q])
    del changed[q][next(d for d, g in sorted(final[q].items()) if 0 < g < 3)]
    assert "v3.diagnostics.density_matched.n3_mean_pool" in disagrees(frozen, derive_density(changed, runs))


# ---- v3.sensitivity.shared_documents (Table S1i) --------------------------------------------------------------

S1I = "v3.sensitivity.shared_documents.fusion_minus_bm25."
S1I_MONTE_CARLO = ("gold.crossed_ci_low", "gold.crossed_ci_high", "judged.crossed_ci_low", "judged.crossed_ci_high")


def _components(memberships):
    """Connected components of the bipartite query-document graph: (count, queries in the largest)."""
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for q, docs in memberships.items():
        find(("q", q))
        for d in docs:
            a, b = find(("q", q)), find(("d", d))
            if a != b:
                parent[a] = b
    sizes = {}
    for q in memberships:
        r = find(("q", q))
        sizes[r] = sizes.get(r, 0) + 1
    return len(sizes), max(sizes.values())


def derive_s1i(final, fusion, bm25):
    qs = queries()
    nd_f, nd_b = per_query(gold_ndcg, final, fusion), per_query(gold_ndcg, final, bm25)
    delta = {q: nd_f[q] - nd_b[q] for q in final}
    qids = sorted(final)
    out = {S1I + "gold_ndcg_gap": mean_over(qids, delta), S1I + "queries": len(qids)}
    members = {
        "gold": {q: {d for d, g in final[q].items() if g == qs[q]["n"]} for q in qids},
        "judged": {q: set(final[q]) for q in qids},
    }
    out[S1I + "distinct_gold_documents"] = len(set().union(*members["gold"].values()))
    for label, mem in members.items():
        comps, largest = _components(mem)
        out[S1I + label + ".components"] = comps
        out[S1I + label + ".largest_component"] = largest
        by_doc = {}
        for q, docs in mem.items():
            for d in docs:
                by_doc.setdefault(d, set()).add(q)
        left = [mean_over([q for q in qids if q not in by_doc[d]], delta) for d in sorted(by_doc)]
        out[S1I + label + ".leave_one_doc_min"] = min(left)
        out[S1I + label + ".leave_one_doc_max"] = max(left)
        # the 20 highest-degree documents (degree = number of queries; ties by document id)
        top = sorted(by_doc, key=lambda d: (-len(by_doc[d]), d))[:20]
        gone = set().union(*(by_doc[d] for d in top))
        kept = [q for q in qids if q not in gone]
        out[S1I + label + ".drop_top20.gold_ndcg_gap"] = mean_over(kept, delta)
        out[S1I + label + ".drop_top20.queries"] = len(kept)
    return out


def test_table_s1i():
    """v3.sensitivity.shared_documents (docs/analyses.md#table-s1i: the raw fusion `rrf_bm25and_pagetop3` minus
    BM25-AND, per-query gold-only NDCG@10 difference, 0-1 units; the observed gap; the queries and distinct gold
    documents; for gold and for all judged memberships the components of the query-document graph and the largest,
    the leave-one-document range over every member document, and the gap after removing every query that involves
    one of the 20 highest-degree documents; docs/statistics.md#leave-one-document-and-top-20-removal: 'degree =
    number of queries; ties by document id').  The largest component is counted in queries.  The four crossed
    query x document intervals are Monte Carlo percentiles (500 draws of
    docs/statistics.md#crossed-query-x-document-bootstrap) and are NOT re-derived here: S1I_MONTE_CARLO lists them."""
    final = copy_grades("final")
    fusion, bm25 = ranking("rrf_bm25and_pagetop3"), ranking("bm25_and")
    frozen = claims("v3.sensitivity.shared_documents")
    derived = derive_s1i(final, fusion, bm25)
    assert set(derived) | {S1I + m for m in S1I_MONTE_CARLO} == set(frozen)
    for m in S1I_MONTE_CARLO:
        assert frozen[S1I + m]["estimate"]["kind"] == "monte_carlo"  # skipped: resampled, not deterministic
    assert check_all(frozen, derived) == 15
    # a changed input: the two runs swapped flips the gap's sign
    swapped = derive_s1i(final, bm25, fusion)
    assert abs(swapped[S1I + "gold_ndcg_gap"] + derived[S1I + "gold_ndcg_gap"]) <= 1e-12
    assert S1I + "gold_ndcg_gap" in disagrees(frozen, swapped)


# ---- audit.impact, RealPage (Table S14: construction vs final copy) -------------------------------------------

S14 = "audit.impact.v3."
REPRESENTATIVE = ("bm25_and", "bm25_dec_sdr", "rrf_bm25and_pagetop3")


def _positions(values):
    """1 + the number of runs strictly better (descending; ties share the better position)."""
    return [1 + sum(1 for w in values if w > v) for v in values]


def _stage_stats(before, after):
    from scipy.stats import spearmanr
    rho = float(spearmanr(before, after).correlation)
    change = max(abs(a - b) for a, b in zip(after, before))
    move = max(abs(a - b) for a, b in zip(_positions(after), _positions(before)))
    return rho, change, move


def derive_s14(construction, final, raw_runs, clean_runs):
    out = {}
    changed = sum(1 for q in final for d, g in final[q].items() if construction[q].get(d, 0) != g)
    changed += sum(1 for q in final for d in construction[q] if d not in final[q])
    out[S14 + "audit.grades_changed"] = changed
    out[S14 + "audit.queries_removed"] = len(set(construction) - set(final))
    out[S14 + "audit.runs"] = len(raw_runs)                  # the matrix's rankings, one per system
    out[S14 + "audit.form_runs"] = 3 * len(clean_runs)       # the form systems' raw, clean and natural rankings
    for table, runs in (("matrix", raw_runs), ("scorecard", clean_runs)):
        names = sorted(runs)
        for measure, fn, scale in (("nclue_score", success, 100.0), ("gold_ndcg", gold_ndcg, 1.0)):
            before = [scale * mean_over(construction, per_query(fn, construction, runs[s])) for s in names]
            after = [scale * mean_over(final, per_query(fn, final, runs[s])) for s in names]
            rho, change, move = _stage_stats(before, after)
            key = "%saudit.%s.%s." % (S14, table, measure)
            out[key + "spearman_rho"] = rho
            out[key + "max_abs_change"] = change
            out[key + "max_position_movement"] = move
    changes = []
    for s in REPRESENTATIVE:
        b = mean_over(construction, per_query(gold_ndcg, construction, raw_runs[s]))
        a = mean_over(final, per_query(gold_ndcg, final, raw_runs[s]))
        out["%sconstruction.%s.gold_ndcg" % (S14, s)] = b
        out["%saudit.%s.gold_ndcg" % (S14, s)] = a
        changes.append(abs(a - b))
    out[S14 + "audit.representative.gold_ndcg.max_abs_change"] = max(changes)
    return out


def _s14_inputs():
    raw = {s["id"]: ranking(s["id"]) for s in systems()["systems"]}
    clean = {s: ranking(s, "clean_v2") for s in systems()["form_systems"]}
    return raw, clean


def test_table_s14_construction_against_final():
    """audit.impact's RealPage claims (Table S14; docs/analyses.md#auditimpact: the construction copy against the
    final copy, each over its own evaluation queries; per stage the grades changed and the queries removed; over
    every run -- the raw matrix, every system of systems.json, and the clean scorecard, the 13 form systems -- the
    Spearman rho of before and after, the largest absolute change and the largest movement in positions (ties share
    the better position), for n-Clue Score@10 (points) and gold-only NDCG@10 (0-1); the representative systems'
    gold-only NDCG@10 per copy (fusion, decompose-SDR, BM25-AND) and their largest change).  Spearman by scipy
    (average ranks, as docs/statistics.md#agreement-statistics defines it).  `queries_removed` is the stage's
    removed queries (genealogy.json `removed_queries`; RealPage's audit removes by drop, gate and cap, never for
    a lost gold: test_realpage_audit_removes_no_query_for_a_lost_gold).  This audit.impact part has no resampled
    value (the sign-flip p's are SourceShift's)."""
    construction, final = copy_grades("construction"), copy_grades("final")
    raw, clean = _s14_inputs()
    frozen = {c: v for c, v in claims("audit.impact").items() if c.startswith(S14)}
    derived = derive_s14(construction, final, raw, clean)
    assert set(derived) == set(frozen)
    assert check_all(frozen, derived) == 23
    assert derived[S14 + "audit.queries_removed"] == len(genealogy()["final"]["removed_queries"])
    # a changed input: one construction gold of BM25-AND's first successful query made a subset
    q = next(q for q in sorted(final) if success(construction[q], queries()[q]["n"], raw["bm25_and"][q]))
    n = queries()[q]["n"]
    changed = dict(construction)
    changed[q] = {d: (g - 1 if g == n else g) for d, g in construction[q].items()}
    bad = disagrees(frozen, derive_s14(changed, final, raw, clean))
    assert S14 + "construction.bm25_and.gold_ndcg" in bad and S14 + "audit.grades_changed" in bad


def test_realpage_audit_removes_no_query_for_a_lost_gold():
    """docs/analyses.md#auditimpact: RealPage's stage statistic is `queries_removed` (not v1's and v2's
    `zero_gold_queries_removed`): the automatic audit removes queries by a drop, a page gate or the cap
    (docs/realpage.md#the-audit, 78 / 1 / 1) and lowers no grade, so no query is removed for having lost its gold.
    (An independent reading first found the count frozen under the zero-gold name; the name now says what it is.)"""
    construction, final = copy_grades("construction"), copy_grades("final")
    qs = queries()
    removed = sorted(set(construction) - set(final))
    assert len(removed) == 80
    # the audit's decisions only raise a grade or remove a query (docs/schema.md, audit.jsonl), and every removed
    # query still has a gold on the construction copy
    assert {r["decision"] for r in _jsonl(os.path.join(V3, "audit.jsonl"))} <= {"repair", "drop"}
    assert [q for q in removed if not any(g == qs[q]["n"] for g in construction[q].values())] == []
    frozen = claims("audit.impact")
    assert frozen[S14 + "audit.queries_removed"]["value"] == len(removed)
    assert S14 + "audit.zero_gold_queries_removed" not in frozen
