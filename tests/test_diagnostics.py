"""Issue 15's CrossPage diagnostics: length-matched AUC, density matching, S5a's paired bootstrap,
the promotion verdict, the pooled difficulty regression and Figure 2's data -- hand-worked cases,
reference libraries, and negative controls (a changed input record changes a claim and fails)."""

import json
import math
import os
import random
import shutil

import pytest
from conftest import REPO, read_rows, released, reproduce_report, write_rows

from nclue.core.metrics import length_bin, length_matched_auc, pairwise_auc
from nclue.core.structure import density_matched_pairs

# --- length matching -----------------------------------------------------------------------------------

def test_length_bins_are_half_octaves_at_the_boundaries():
    # 2 ** (b / 2) <= pages < 2 ** ((b + 1) / 2): 1 | 2 | 3-(2.83) | 4-5 | 6-7 (5.66..8) | 8-11 | 12-15 | 16-22
    assert [length_bin(p) for p in (1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 16, 22, 23)] == [
        0, 2, 3, 4, 4, 5, 5, 6, 6, 7, 8, 8, 9]
    for p in range(1, 2000):
        b = length_bin(p)
        assert 2 ** (b / 2) <= p * (1 + 1e-12) and p < 2 ** ((b + 1) / 2)


def _brute_matched_auc(docids, gold, subset, bins, k=10):
    rank = {d: i for i, d in enumerate(docids[:k])}
    wins = pairs = 0.0
    for g in gold:
        for s in subset:
            if bins[g] != bins[s]:
                continue
            pairs += 1
            rg, rs = rank.get(g), rank.get(s)
            if rg is None and rs is None:
                wins += 0.5
            elif rs is None or (rg is not None and rg < rs):
                wins += 1
    return (None, 0) if not pairs else (wins / pairs, int(pairs))


def test_length_matched_auc_equals_enumeration_and_sklearn():
    from sklearn.metrics import roc_auc_score

    rng = random.Random(7)
    for case in range(300):
        docs = ["d%d" % i for i in range(rng.randint(2, 25))]
        bins = {d: rng.randint(0, 3) for d in docs}
        labels = {d: rng.choice("gsx") for d in docs}
        gold = {d for d in docs if labels[d] == "g"}
        subset = {d for d in docs if labels[d] == "s"}
        ranked = rng.sample(docs, rng.randint(0, len(docs)))
        got = length_matched_auc(ranked, gold, subset, bins)
        want = _brute_matched_auc(ranked, gold, subset, bins)
        assert got[1] == want[1]
        assert (got[0] is None) == (want[0] is None) and (got[0] is None or abs(got[0] - want[0]) < 1e-12)
        # every bin on its own is an ordinary ROC AUC with rank as score (unranked tied at the bottom)
        if gold and subset and len(set(bins.values())) == 1 and case % 3 == 0:
            score = {d: -ranked.index(d) if d in ranked[:10] else -1000 for d in gold | subset}
            members = sorted(gold | subset)
            ref = roc_auc_score([d in gold for d in members], [score[d] for d in members])
            assert got[0] == pytest.approx(ref, abs=1e-12)
            assert got[0] == pytest.approx(pairwise_auc(ranked, gold, subset), abs=1e-12)


# --- density matching ----------------------------------------------------------------------------------

def test_density_matching_is_nearest_without_replacement():
    rng = random.Random(3)
    factors = {"q%03d" % i: {"n": 3 if i % 4 == 0 else 2, "pool": rng.randint(1, 60)} for i in range(120)}
    pairs = density_matched_pairs(factors)
    three = [q for q in factors if factors[q]["n"] == 3]
    assert len(pairs) == len(three) and len({c for _, c in pairs}) == len(pairs)
    used = set()
    for q, c in pairs:                    # in the stated order, the choice is the nearest still unused
        free = [x for x in factors if factors[x]["n"] == 2 and x not in used]
        best = min(abs(factors[x]["pool"] - factors[q]["pool"]) for x in free)
        assert abs(factors[c]["pool"] - factors[q]["pool"]) == best
        used.add(c)
    # more n = 3 than n = 2 queries: the surplus stays unmatched
    assert density_matched_pairs({"a": {"n": 3, "pool": 1}, "b": {"n": 3, "pool": 2}, "c": {"n": 2, "pool": 1}}) == [
        ("b", "c")]
    assert density_matched_pairs({}) == []


# --- the regression ------------------------------------------------------------------------------------

def test_binomial_fit_equals_statsmodels_on_stacked_rows():
    import numpy as np
    from statsmodels.discrete.discrete_model import Logit

    from nclue.stats.logistic import logistic_fit

    rng = random.Random(5)
    rows = [[rng.gauss(0, 1), float(rng.random() < 0.3), rng.gauss(2, 0.5)] for _ in range(150)]
    trials = 7
    y = [sum(rng.random() < 1 / (1 + math.exp(-(0.3 + 0.8 * r[0] - 0.5 * r[1] + 0.2 * r[2]))) for _ in range(trials))
         for r in rows]
    ours = logistic_fit(rows, y, trials=[trials] * len(rows))
    stacked_x, stacked_y = [], []
    for r, k in zip(rows, y):
        stacked_x += [[1.0] + r] * trials
        stacked_y += [1] * k + [0] * (trials - k)
    ref = Logit(np.array(stacked_y), np.array(stacked_x)).fit(disp=0, tol=1e-12)
    assert ours["coef"] == pytest.approx(list(ref.params), abs=1e-8)
    assert ours["se"] == pytest.approx(list(ref.bse), abs=1e-8)
    assert ours["p"] == pytest.approx(list(ref.pvalues), abs=1e-8)


def test_released_pooled_regression_equals_statsmodels():
    import numpy as np
    from statsmodels.discrete.discrete_model import Logit

    from nclue.analyses.sensitivity import TERMS, pooled_outcomes, regression_rows
    from nclue.core.instrument import Instrument

    inst = Instrument(REPO)
    rows = regression_rows(inst)
    y, runs = pooled_outcomes(inst)
    frozen = {c["id"]: c["value"] for c in json.load(open(os.path.join(
        REPO, "reference_metrics", "v1.sensitivity.regression.json")))["claims"]}
    x, target = [], []
    for r, k in zip(rows, y):
        x += [[1.0] + r] * runs
        target += [1] * k + [0] * (runs - k)
    ref = Logit(np.array(target), np.array(x)).fit(disp=0, tol=1e-12)
    for i, term in enumerate(TERMS):
        assert frozen["v1.sensitivity.regression.pooled.%s.coef" % term] == pytest.approx(ref.params[i], abs=1e-7)
        assert frozen["v1.sensitivity.regression.pooled.%s.se" % term] == pytest.approx(ref.bse[i], abs=1e-7)


# --- S5a's paired bootstrap, recomputed independently -------------------------------------------------

def test_masking_interval_on_n3_queries_recomputed_directly():
    from nclue.analyses.shared.outcome_vectors import gold_sets, outcomes
    from nclue.core import layout
    from nclue.core.instrument import Instrument
    from nclue.core.rng import Stream
    from nclue.core.structure import families
    from nclue.stats.bootstrap import DRAWS, percentile_interval

    inst = Instrument(REPO)
    base, masked = "tri_joint", "mask_tri_joint_drop_c3"
    fb, fm = outcomes(inst, layout.CROSSPAGE.ranking(base)), outcomes(inst, layout.CROSSPAGE.ranking(masked))
    queries = inst.queries()
    sets = gold_sets(inst)
    qids = [q for q in sorted(queries) if queries[q].n == 3]
    fams = families({q: sets[q] for q in qids})
    position = {q: i for i, q in enumerate(fb.qids)}
    stream = Stream.derived(11, "bootstrap", "n3")
    dist = []
    for _ in range(DRAWS):
        picked = stream.randbelow_batch(len(fams), len(fams))
        members = [q for f in picked for q in fams[f]]
        dist.append(100.0 * sum(fm.hit[position[q]] - fb.hit[position[q]] for q in members) / len(members))
    lo, hi = percentile_interval(dist)
    frozen = {c["id"]: c["value"] for c in json.load(open(os.path.join(
        REPO, "reference_metrics", "v1.inference.masking.json")))["claims"]}
    prefix = "v1.inference.masking.tri_joint.drop_c3.delta_hit"
    assert (frozen[prefix + "_ci_low"], frozen[prefix + "_ci_high"]) == pytest.approx((lo, hi), abs=1e-9)
    assert frozen[prefix + "_excludes_zero"] == (lo > 0 or hi < 0)


# --- negative controls: a changed input record changes the claim and fails -----------------------------

def _rewrite(path, edit):
    rows = read_rows(path)
    edit(rows)
    write_rows(path, rows)


def _reverse_top10(rows):
    for r in rows[:200]:
        r["docids"][:10] = r["docids"][:10][::-1]
        if "scores" in r:
            r["scores"][:10] = sorted(r["scores"][:10], reverse=True)


CONTROLS = {
    # a clean-form ranking: density-matched scores, the pooled regression and its per-system fit
    "clean ranking": (released("v1", "rankings/forms/bm25_and__clean_v2.jsonl"), _reverse_top10,
                      ("v1.diagnostics.density_matched.bm25_and.", "v1.sensitivity.regression.pooled.",
                       "v1.sensitivity.regression.bm25_and."), "scoring,sensitivity"),
    # a raw ranking: length-matched AUC, Figure 2, the masking intervals
    "raw ranking": (released("v1", "rankings/tri_joint.jsonl"), _reverse_top10,
                    ("v1.diagnostics.length_matched.tri_joint.", "v1.figure2.methods.tri_joint.",
                     "v1.inference.masking.tri_joint."), "scoring,inference"),
}


@pytest.mark.parametrize("case", sorted(CONTROLS))
def test_a_changed_ranking_changes_the_diagnostics_and_fails(release_template, tmp_path, case):
    from nclue.run.freeze import write_release_manifest

    rel, edit, prefixes, levels = CONTROLS[case]          # the levels of the claims the edit must fail
    root = str(tmp_path / "release")
    shutil.copytree(release_template, root)
    _rewrite(os.path.join(root, *rel.split("/")), edit)
    write_release_manifest(root)
    code, out, _, _, fails = reproduce_report(root, "--only", levels)
    assert code == 1 and "Traceback" not in out
    for prefix in prefixes:
        assert any(i.startswith(prefix) for i in fails), (prefix, sorted(fails)[:10])
