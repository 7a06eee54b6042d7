#!/usr/bin/env python3
"""Time our paired randomization test and clustered bootstrap against scipy (a benchmark, not a test).

    python bench/bench_stats.py [--repeat N]

Data: the shipped stand-in's displayed fusion contrast (page_bm25_top3 ->
rrf_bm25and_pagetop3, raw form), at the level of exact-gold-set families.

* randomization: 10,000 whole-family sign flips of the summed success-count
  difference.  Ours = masks drawn + tables + null distribution + p-value;
  scipy = ``scipy.stats.permutation_test(..., permutation_type='samples',
  vectorized=True, n_resamples=10000)`` (pairs swapped = signs flipped).
* bootstrap: 1,000 family draws, percentile 95% interval of the success rate.
  Ours = draws + distribution + interval; scipy = ``scipy.stats.bootstrap(...,
  paired=True, vectorized=True, n_resamples=1000, method='percentile')``.
* every statistic: the 123 bootstrap intervals reproduce.py computes (41 systems x Score, Hit,
  Gold-NDCG), fresh draws for each on both sides.
* shared draws / shared masks: the same work in pure Python and in numpy (the same draws, the same
  masks), so the ratio is the cost of pure Python alone.
* scoring every run: all 41 runs, ours (every measure) and pytrec_eval (graded NDCG@10).

Every row does the same work on both sides. Needs numpy and scipy (dev requirements); the harness itself does not.
"""

import argparse
import os
import statistics
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)


def best_of(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), statistics.median(times)


def main():
    import numpy as np
    from scipy import stats

    from nclue.analyses.inference import context
    from nclue.analyses.shared.release_systems import contrasts
    from nclue.core.instrument import Instrument
    from nclue.core.rng import Stream
    from nclue.stats import bootstrap, randomization

    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()

    inst = Instrument(REPO)
    ctx = context(inst)
    base, var = ctx.vector("page_bm25_top3", "success"), ctx.vector("rrf_bm25and_pagetop3", "success")
    design = ctx.design
    fb, fv = design.family_sums(base), design.family_sums(var)
    diffs = [v - b for v, b in zip(fv, fb)]
    sizes = design.sizes
    print("data: %d queries in %d families; python %s" % (len(base), design.n_families, sys.version.split()[0]))

    def ours_perm():
        masks = randomization.draw_masks(Stream.derived(11, "randomization"), design.n_families, 10000)
        return randomization.SignFlipTest(diffs, masks).p_value()

    x, y = np.array(fv, float), np.array(fb, float)

    def scipy_perm():
        return stats.permutation_test((x, y), lambda a, b, axis=-1: np.sum(a - b, axis=axis),
                                      permutation_type="samples", vectorized=True, n_resamples=10000,
                                      alternative="two-sided", rng=np.random.default_rng(11)).pvalue

    def ours_boot():
        draws = bootstrap.draw_indices(Stream.derived(11, "bootstrap"), design.n_families, 1000)
        return bootstrap.percentile_interval(bootstrap.distribution(design, var, draws))

    s_arr, n_arr = np.array(fv, float), np.array(sizes, float)

    def scipy_boot():
        return stats.bootstrap((s_arr, n_arr), lambda s, n, axis=-1: 100 * s.sum(axis=axis) / n.sum(axis=axis),
                               paired=True, vectorized=True, n_resamples=1000, method="percentile",
                               rng=np.random.default_rng(11)).confidence_interval

    rows = []
    for label, ours, ref in (("randomization 10,000 flips", ours_perm, scipy_perm),
                             ("bootstrap 1,000 draws", ours_boot, scipy_boot)):
        o, r = best_of(ours, args.repeat), best_of(ref, args.repeat)
        rows.append((label, o, r))
        print("  %-28s ours %7.1f ms   scipy %7.1f ms   scipy/ours %5.2f   (best of %d; medians %.1f / %.1f ms)" % (
            label, 1000 * o[0], 1000 * r[0], r[0] / o[0], args.repeat, 1000 * o[1], 1000 * r[1]))
    # the workload reproduce.py runs: every system's Score, Hit and Gold-NDCG on one set of draws
    systems, _ = inst.systems()
    keys = [(sid, m) for sid in sorted(systems) for m in ("success", "hit", "gold_ndcg")]
    vectors = [ctx.vector(sid, m) for sid, m in keys]

    def ours_batch():           # fresh draws for every statistic, as scipy.bootstrap makes them
        out = []
        for i, vector in enumerate(vectors):
            draws = bootstrap.draw_indices(Stream.derived(11, "bootstrap", i), design.n_families, 1000)
            den = bootstrap.draw_denominators(design, draws)
            sums = bootstrap.draw_sums(design, [vector], draws)[0]
            out.append(bootstrap.percentile_interval([100.0 * x / n for x, n in zip(sums, den)]))
        return out

    fam_arrays = [np.array(design.family_sums(v), float) for v in vectors]

    def scipy_batch():
        return [stats.bootstrap((a, n_arr), lambda s, n, axis=-1: 100 * s.sum(axis=axis) / n.sum(axis=axis),
                                paired=True, vectorized=True, n_resamples=1000, method="percentile",
                                rng=np.random.default_rng(11)).confidence_interval for a in fam_arrays]

    o, r = best_of(ours_batch, max(1, args.repeat // 2)), best_of(scipy_batch, max(1, args.repeat // 2))
    print("  %-28s ours %7.1f ms   scipy %7.1f ms   scipy/ours %5.2f   (%d statistics, fresh draws for each on both "
          "sides)" % ("bootstrap, every statistic", 1000 * o[0], 1000 * r[0], r[0] / o[0], len(vectors)))
    # the same work for both: the same shared draws, in pure Python (ours) and in numpy
    shared = bootstrap.draw_indices(Stream.derived(11, "bootstrap"), design.n_families, 1000)
    idx = np.array(shared)
    fam_matrix = np.array([design.family_sums(v) for v in vectors], dtype=np.int64)
    size_vec = np.array(sizes, dtype=np.int64)

    def ours_shared():
        den = bootstrap.draw_denominators(design, shared)
        return [bootstrap.percentile_interval([100.0 * x / n for x, n in zip(sums, den)])
                for sums in bootstrap.draw_sums(design, vectors, shared)]

    def numpy_shared():
        counts = np.zeros((idx.shape[0], design.n_families), dtype=np.int64)     # family counts per draw
        np.add.at(counts, (np.repeat(np.arange(idx.shape[0]), idx.shape[1]), idx.ravel()), 1)
        dist = 100.0 * (counts @ fam_matrix.T) / (counts @ size_vec)[:, None]
        return np.percentile(dist, [2.5, 97.5], axis=0)

    o, r = best_of(ours_shared, max(1, args.repeat // 2)), best_of(numpy_shared, max(1, args.repeat // 2))
    print("  %-28s ours %7.1f ms   numpy %7.1f ms   numpy/ours %5.2f   (%d statistics, the same shared draws)" % (
        "bootstrap, shared draws", 1000 * o[0], 1000 * r[0], r[0] / o[0], len(vectors)))
    blocks = [(b["base"], v) for b in contrasts(inst) for v in b["variants"]]
    diff_lists = [randomization.family_differences(design, ctx.vector(b, "success"), ctx.vector(v, "success"))
                  for b, v in blocks]
    masks = randomization.draw_masks(Stream.derived(11, "randomization"), design.n_families, 10000)
    bits = np.array([[(m >> f) & 1 for f in range(design.n_families)] for m in
                     [int.from_bytes(row, "little") for row in masks.bytes]],
                    dtype=np.int8)
    signs = 2 * bits.astype(np.int64) - 1
    d_matrix = np.array(diff_lists, dtype=np.int64)

    def ours_flips():
        return [t.p_value() for t in randomization.sign_flip_tests(diff_lists, masks)]

    def numpy_flips():
        null = signs @ d_matrix.T
        obs = np.abs(d_matrix.sum(axis=1))
        return (1 + (np.abs(null) >= obs).sum(axis=0)) / (len(null) + 1)

    o, r = best_of(ours_flips, max(1, args.repeat // 2)), best_of(numpy_flips, max(1, args.repeat // 2))
    assert np.allclose(ours_flips(), numpy_flips())
    print("  %-28s ours %7.1f ms   numpy %7.1f ms   numpy/ours %5.2f   (%d contrasts, the same shared masks)" % (
        "sign flips, shared masks", 1000 * o[0], 1000 * r[0], r[0] / o[0], len(diff_lists)))
    try:
        import pytrec_eval
    except ImportError:
        pytrec_eval = None
    if pytrec_eval is not None:
        from nclue.analyses.shared.outcome_vectors import gold_sets
        from nclue.core import layout
        from nclue.core.metrics import evaluate
        queries, qrels, sets = inst.queries(), inst.qrels(), gold_sets(inst)
        rankings = [inst.ranking(layout.CROSSPAGE.ranking(sid)) for sid in sorted(systems)]
        runs = [{q: {d: float(len(r.docids) - i) for i, d in enumerate(r.docids)} for q, r in rk.items()}
                for rk in rankings]

        def ours_score():
            return [evaluate(rk, queries, qrels, sets) for rk in rankings]

        def trec_score():
            ev = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"})
            return [ev.evaluate(run) for run in runs]

        o, r = best_of(ours_score, max(1, args.repeat // 2)), best_of(trec_score, max(1, args.repeat // 2))
        print("  %-28s ours %7.1f ms   pytrec_eval %7.1f ms   pytrec_eval/ours %5.2f   (%d runs; ours computes "
              "every measure, pytrec_eval graded NDCG only)" % ("scoring every run", 1000 * o[0], 1000 * r[0],
                                                               r[0] / o[0], len(rankings)))
    print("  p-values: ours %.5f  scipy %.5f" % (ours_perm(), scipy_perm()))
    print("  intervals: ours [%.2f, %.2f]  scipy [%.2f, %.2f]" % (tuple(ours_boot()) + tuple(scipy_boot())))


if __name__ == "__main__":
    main()
