"""Statistics against reference libraries (scipy, statsmodels) and cases worked by hand."""

import math
import random

import pytest
from conftest import ScriptedStream, released

from nclue.core.errors import StatisticsError
from nclue.core.rng import Stream
from nclue.stats import bootstrap, randomization
from nclue.stats.lanes import pack, unpack, width_for
from nclue.stats.logistic import logistic_fit
from nclue.stats.quantiles import quantile
from nclue.stats.rank import average_ranks, spearman
from nclue.stats.robustness import crossed_bootstrap, drop_top_degree, leave_one_document_range, promotion_bounds


def test_randbelow_batch_golden_and_uniform():
    assert Stream(3).randbelow_batch(1000, 8) == [235, 146, 951, 842, 850, 873, 355, 420]
    assert Stream(3).randbelow_batch(7, 5) == [5, 3, 2, 2, 2]
    values = Stream(8).randbelow_batch(10, 50000)
    counts = [values.count(v) for v in range(10)]
    assert sum((c - 5000) ** 2 / 5000 for c in counts) < 27.88   # chi-square 9 df, p = 0.001


def _randbelow_batch_by_words(seed, n, count):
    """The definition of Stream.randbelow_batch, word by word (the reference for the bulk version)."""
    bits = random.Random(seed).getrandbits
    k = n.bit_length()
    out = []
    while len(out) < count:
        need = count - len(out)
        w = (need << k) // n + need // 8 + 16
        raw = bits(16 * w)
        for i in range(w):
            value = (raw >> (16 * i)) & 0xFFFF & ((1 << k) - 1)
            if value < n:
                out.append(value)
    return out[:count]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8, 9, 10, 255, 256, 257, 1000, 2021, 4095, 4096, 32767,
                               32768, 32769, 40000, 65535, 65536])
def test_randbelow_batch_equals_its_word_by_word_definition(n):
    for seed, count in ((1, 1), (2, 17), (3, 3000)):
        assert Stream(seed).randbelow_batch(n, count) == _randbelow_batch_by_words(seed, n, count)
    assert Stream(5).randbelow_batch(n, 0) == []


def test_lanes_sum_exactly():
    rows = [[5, -3, 0], [-7, 2, 9], [1, 1, 1]]
    bias, width = 9, width_for(9, 9, 3)
    packed = pack(rows, bias, width)
    assert unpack(sum(packed), 3, width, bias, 3) == [-1, 0, 10]


def test_holm_equals_statsmodels():
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    stream = Stream(4)
    for _ in range(20):
        p = [stream.uniform() ** 3 for _ in range(8)]
        ref = multitest.multipletests(p, method="holm")[1]
        assert randomization.holm(p) == pytest.approx(list(ref), abs=1e-15)
    assert randomization.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])


def _toy_design():
    stream = Stream(21)
    qids = ["q%03d" % i for i in range(120)]
    fams, i = [], 0
    while i < len(qids):
        size = 1 + stream.randbelow(4)
        fams.append(qids[i:i + size])
        i += size
    vector = [1 if stream.uniform() < 0.35 else 0 for _ in qids]
    return bootstrap.FamilyDesign(qids, fams), vector


def test_percentile_and_bca_equal_scipy_on_our_draws():
    np = pytest.importorskip("numpy")
    stats = pytest.importorskip("scipy.stats")
    design, vector = _toy_design()
    draws = bootstrap.draw_indices(Stream(11), design.n_families, 1000)
    dist = bootstrap.distribution(design, vector, draws)
    sums, sizes = np.array(design.family_sums(vector), float), np.array(design.sizes, float)

    def statistic(s, n, axis=-1):
        return 100.0 * s.sum(axis=axis) / n.sum(axis=axis)

    class Prior:                      # scipy reads only .bootstrap_distribution from a prior result
        bootstrap_distribution = np.array(dist)

    prior = Prior()
    for method in ("percentile", "BCa"):
        ref = stats.bootstrap((sums, sizes), statistic, paired=True, vectorized=True, n_resamples=0,
                              bootstrap_result=prior, method=method, confidence_level=0.95)
        if method == "percentile":
            ours = bootstrap.percentile_interval(dist)
        else:
            theta = 100.0 * sum(vector) / len(vector)
            ours = bootstrap.bca_interval(dist, theta, bootstrap.jackknife_family(design, vector))
        assert ours[0] == pytest.approx(ref.confidence_interval.low, abs=1e-9)
        assert ours[1] == pytest.approx(ref.confidence_interval.high, abs=1e-9)


def test_quantile_equals_numpy_type7():
    np = pytest.importorskip("numpy")
    values = [Stream(5).uniform() for _ in range(37)]
    for p in (0.0, 0.025, 0.5, 0.975, 1.0):
        assert quantile(values, p) == pytest.approx(float(np.quantile(values, p)), abs=1e-15)


def test_exact_sign_flip_equals_scipy_exact_permutation_test():
    np = pytest.importorskip("numpy")
    stats = pytest.importorskip("scipy.stats")
    diffs = [3, -1, 2, 0, 4, -2, 1, 5, -3, 2]
    x = np.array(diffs, float)
    ref = stats.permutation_test((x, np.zeros_like(x)), lambda a, b, axis=-1: np.sum(a - b, axis=axis),
                                 permutation_type="samples", vectorized=True, n_resamples=10 ** 6,
                                 alternative="two-sided")
    assert randomization.exact_sign_flip_p(diffs) == pytest.approx(ref.pvalue, abs=1e-12)


def test_polynomial_exact_p_equals_brute_force_enumeration():
    rng = Stream(4)
    for size in range(0, 15):
        diffs = [rng.randbelow(9) - 4 for _ in range(size)]
        assert randomization.exact_sign_flip_p(diffs) == randomization.brute_force_sign_flip_p(diffs) if diffs else True
        dist = randomization.sign_flip_distribution(diffs)
        assert sum(dist.values()) == 2 ** size and all(dist[t] == dist[-t] for t in dist)
    # a large design: 547 families with the counts of a real contrast, in well under a second
    big = [rng.randbelow(7) - 3 for _ in range(547)]
    dist = randomization.sign_flip_distribution(big)
    assert sum(dist.values()) == 2 ** 547
    with pytest.raises(StatisticsError, match="^exact sign-flip distributions need integer differences$"):
        randomization.sign_flip_distribution([0.5])


def test_monte_carlo_p_is_within_error_of_exact():
    stream = Stream(9)
    diffs = [stream.randbelow(5) - 1 for _ in range(16)]
    exact = randomization.exact_sign_flip_p(diffs)
    masks = randomization.draw_masks(Stream(11), len(diffs), randomization.DRAWS)
    p = randomization.SignFlipTest(diffs, masks).p_value()
    assert abs(p - exact) <= 4 * math.sqrt(exact * (1 - exact) / randomization.DRAWS) + 1e-4


def test_packed_tests_equal_single_tests():
    masks = randomization.draw_masks(Stream(2), 23, 500)
    d1 = [Stream(1).randbelow(9) - 4 for _ in range(23)]
    d2 = [x * 1000003 for x in d1]
    packed = randomization.sign_flip_tests([d1, d2], masks)
    assert packed[0].null == randomization.SignFlipTest(d1, masks).null
    assert packed[1].null == randomization.SignFlipTest(d2, masks).null


def test_packed_sign_flips_equal_single_tests_at_every_lane_width():
    """Lanes of 8, 16, 32 and 64 bits (read by an array) and wider ones (shifts), signed values, a zero contrast."""
    masks = randomization.draw_masks(Stream(2), 21, 300)
    for scale in (1, 100, 10 ** 4, 10 ** 8, 10 ** 15, 10 ** 25):
        diffs = [[(i * 7 % 5 - 2) * scale for i in range(21)], [(i * 3 % 4 - 1) * scale for i in range(21)], [0] * 21]
        packed = randomization.sign_flip_tests(diffs, masks)
        assert [t.null for t in packed] == [randomization.SignFlipTest(d, masks).null for d in diffs], scale
    with pytest.raises(StatisticsError):
        randomization.sign_flip_tests([[1, 2]], masks)


def test_max_t_by_hand():
    masks = randomization.Masks(2, [0, 1, 2, 3])            # every sign pattern of two families once
    e1 = randomization.SignFlipTest([3, 1], masks)           # null: -4, 2, -2, 4
    e2 = randomization.SignFlipTest([1, 1], masks)           # null: -2, 0, 0, 2
    assert e1.null == [-4, 2, -2, 4] and e2.null == [-2, 0, 0, 2]
    assert e1.p_value() == pytest.approx(3 / 5) and e2.p_value() == pytest.approx(3 / 5)
    assert randomization.max_t_p_values([e1, e2]) == pytest.approx([3 / 5, 5 / 5])


def test_bootstrap_interval_within_monte_carlo_error_of_long_run():
    design, vector = _toy_design()
    short = bootstrap.percentile_interval(bootstrap.distribution(design, vector, bootstrap.draw_indices(Stream(11), design.n_families, 1000)))
    long = bootstrap.percentile_interval(bootstrap.distribution(design, vector, bootstrap.draw_indices(Stream(12), design.n_families, 20000)))
    # endpoints of a 1,000-draw percentile interval wander by about 1 point here
    assert abs(short[0] - long[0]) < 3.0 and abs(short[1] - long[1]) < 3.0


def test_draw_sums_equal_direct_sums():
    design, vector = _toy_design()
    draws = bootstrap.draw_indices(Stream(11), design.n_families, 50)
    other = [1 - v for v in vector]
    s1, s2 = bootstrap.draw_sums(design, [vector, other], draws)
    den = bootstrap.draw_denominators(design, draws)
    assert [100.0 * s / n for s, n in zip(s1, den)] == bootstrap.distribution(design, vector, draws)
    assert [a + b for a, b in zip(s1, s2)] == den


def test_spearman_equals_scipy():
    stats = pytest.importorskip("scipy.stats")
    a = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
    b = [2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4]
    assert spearman(a, b) == pytest.approx(stats.spearmanr(a, b).statistic, abs=1e-12)
    assert average_ranks([2, 1, 2]) == [2.5, 1.0, 2.5]


def test_logistic_equals_statsmodels():
    sm = pytest.importorskip("statsmodels.api")
    np = pytest.importorskip("numpy")
    stream = Stream(17)
    rows, y = [], []
    for _ in range(400):
        x1, x2 = stream.normal(), 1.0 if stream.uniform() < 0.3 else 0.0
        p = 1 / (1 + math.exp(-(-0.5 + 0.8 * x1 - 0.6 * x2)))
        rows.append([x1, x2])
        y.append(1 if stream.uniform() < p else 0)
    fit = logistic_fit(rows, y)
    ref = sm.Logit(np.array(y), sm.add_constant(np.array(rows))).fit(disp=0, tol=1e-12)
    assert fit["converged"]
    assert fit["coef"] == pytest.approx(list(ref.params), abs=1e-6)
    assert fit["se"] == pytest.approx(list(ref.bse), abs=1e-6)
    assert fit["p"] == pytest.approx(list(ref.pvalues), abs=1e-6)


def test_logistic_on_the_released_regression_rows_equals_statsmodels():
    sm = pytest.importorskip("statsmodels.api")
    np = pytest.importorskip("numpy")
    from conftest import REPO

    from nclue.analyses.sensitivity import regression_rows
    from nclue.analyses.shared.outcome_vectors import outcomes
    from nclue.core import layout
    from nclue.core.instrument import Instrument
    inst = Instrument(REPO)
    rows = regression_rows(inst)
    y = list(outcomes(inst, layout.CROSSPAGE.form_ranking("bm25_and", layout.CLEAN)).success)
    fit = logistic_fit(rows, y)
    ref = sm.Logit(np.array(y), sm.add_constant(np.array(rows))).fit(disp=0, tol=1e-12)
    assert fit["coef"] == pytest.approx(list(ref.params), abs=1e-6)
    assert fit["se"] == pytest.approx(list(ref.bse), abs=1e-6)


def test_promotion_bounds_by_hand():
    gold, subset = {"g"}, {"s", "t"}
    base = [["s", "g"], ["g"]]          # q1: base fails (s first); q2: base succeeds
    variant = [["t", "g"], ["t", "g"]]  # q1, q2: variant fails
    bounds = promotion_bounds(base, variant, [gold, gold], [subset, subset], 2)
    # k = 0: (0 - 0) + (0 - 1) = -1; k = 1: promote s in q1 -> base succeeds, variant still fails
    assert bounds == [-50.0, -100.0, -100.0]


def test_leave_one_document_and_top_degree_by_hand():
    delta = [1, 0, -1, 1]
    gold = [["a"], ["a", "b"], ["b"], ["c"]]
    lo, hi, at_lo, at_hi = leave_one_document_range(delta, gold, ["a", "b", "c"])
    # leave out a: [-1, 1] -> 0; b: [1, 1] -> 100; c: [1, 0, -1] -> 0
    assert (lo, hi, at_lo, at_hi) == (0.0, 100.0, "a", "b")
    value, left, top = drop_top_degree(delta, gold, 1)
    assert top == ["a"] and left == 2 and value == 0.0


def test_crossed_bootstrap_of_a_constant_difference_is_constant():
    deltas = [[1] * 30, [0] * 30]
    members = [[i % 7] for i in range(30)]
    d1, d0 = crossed_bootstrap(deltas, members, 7, Stream(1), 50)
    assert all(v == pytest.approx(100.0) for v in d1) and all(v == 0.0 for v in d0)


def test_portable_erfc_matches_math_erfc():
    from nclue.stats.quantiles import erfc, two_sided_normal_p
    for i in range(-600, 2000, 7):
        x = i / 100.0
        ref = math.erfc(x)
        assert erfc(x) == pytest.approx(ref, rel=1e-13, abs=1e-300)
    assert two_sided_normal_p(1.959963984540054) == pytest.approx(0.05, rel=1e-12)


def test_crossed_bootstrap_keeps_query_weight_for_a_query_without_memberships():
    from nclue.core.rng import Stream
    from nclue.stats.robustness import crossed_bootstrap

    delta = [1, 0, -1, 1, 0]
    members = [[0], [], [1, 2], [], [2]]
    got = crossed_bootstrap([delta], members, 3, Stream(5), 50)[0]
    s = Stream(5)
    want = []
    for _ in range(50):
        wq = [0] * 5
        for i in s.randbelow_batch(5, 5):
            wq[i] += 1
        vd = [0] * 3
        for i in s.randbelow_batch(3, 3):
            vd[i] += 1
        w = [wq[i] * (sum(vd[d] for d in members[i]) / len(members[i]) if members[i] else 1.0) for i in range(5)]
        total = sum(w)
        want.append(100.0 * sum(wi * di for wi, di in zip(w, delta)) / total if total else 0.0)
    assert got == pytest.approx(want, abs=1e-12)


def test_crossed_bootstrap_on_two_queries_and_two_documents_by_hand():
    """Query 0 on document 0, query 1 on document 1; real-valued differences 0.3 and -0.1 (NDCG-like)."""
    from nclue.stats.robustness import crossed_bootstrap

    deltas = [[0.3, -0.1]]
    members = [[0], [1]]
    draws = [
        ([0, 0], [0, 0]),   # w = (2, 0), v = (2, 0): W = (4, 0) -> 100 * 4 * 0.3 / 4 = 30
        ([0, 1], [0, 1]),   # w = (1, 1), v = (1, 1): W = (1, 1) -> 100 * (0.3 - 0.1) / 2 = 10
        ([1, 1], [0, 0]),   # w = (0, 2), v = (2, 0): W = (0, 0) -> no weight -> 0 by definition
        ([0, 1], [1, 1]),   # w = (1, 1), v = (0, 2): W = (0, 2) -> -10
    ]
    stream = ScriptedStream([b for pair in draws for b in pair])
    dist = crossed_bootstrap(deltas, members, 2, stream, len(draws))[0]
    assert dist == pytest.approx([30.0, 10.0, 0.0, -10.0], abs=1e-12)
    # a query without memberships keeps its query weight (document factor 1)
    stream = ScriptedStream([[0, 1], [0, 0]])
    assert crossed_bootstrap(deltas, [[0], []], 2, stream, 1)[0] == pytest.approx([100 * (2 * 0.3 - 0.1) / 3])


def test_crossed_interval_of_real_differences_matches_a_direct_computation():
    from nclue.core.rng import Stream
    from nclue.stats.quantiles import quantile
    from nclue.stats.robustness import crossed_bootstrap, crossed_intervals

    deltas = [[0.25, -0.5, 0.0, 0.125, 1.0]]
    members = [[0, 1], [1], [2], [], [0, 2]]
    dist = crossed_bootstrap(deltas, members, 3, Stream(5), 200)[0]
    lo, hi = crossed_intervals(deltas, members, 3, Stream(5), 200)[0]
    assert (lo, hi) == pytest.approx((quantile(dist, 0.025), quantile(dist, 0.975)), abs=1e-9)
    assert min(dist) >= 100 * -0.5 and max(dist) <= 100 * 1.0


def test_the_protocol_table_in_the_docs_is_the_declared_protocol():
    # docs/statistics.md#the-protocol lists every row of nclue.stats.protocol.PROTOCOL with its draws and stream
    import os
    import re

    from nclue.stats import protocol

    docs = open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "statistics.md"),
                encoding="utf-8").read()
    section = docs.split("## The protocol", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    documented = []
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        documented.append((cells[0].strip("`"), int(cells[1]), int(cells[2]), cells[3], cells[4].strip("`"), cells[5]))
    declared = [(r.name, r.n_draws, r.paper_draws, r.resamples,
                 "derive(%d, %s)" % (protocol.STATISTICS_SEED, ", ".join(
                     label if label.startswith("{") else '"%s"' % label for label in r.stream)), r.used_by)
                for r in protocol.PROTOCOL]
    assert documented == declared
    assert "`STATISTICS_SEED` = %d" % protocol.STATISTICS_SEED in section
    assert "`INTERVAL_LEVEL` =\n%s" % protocol.INTERVAL_LEVEL in section or \
        "`INTERVAL_LEVEL` = %s" % protocol.INTERVAL_LEVEL in section
    # every stream an analysis draws from is a protocol row: no module derives a statistics stream itself
    package = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "nclue")
    for folder in ("analyses", "run", "reports", "commands"):
        for name in os.listdir(os.path.join(package, folder)):
            if name.endswith(".py"):
                source = open(os.path.join(package, folder, name), encoding="utf-8").read()
                assert not re.search(r"Stream\.derived\(", source), (folder, name)


def test_protocol_streams_fill_their_labels():
    from nclue.core.rng import Stream
    from nclue.stats import protocol

    assert protocol.labels(protocol.STAGES_QUERY, label="S0") == ("stages", "S0", "query")
    assert protocol.stream(protocol.CROSSED, label="gold").bits(64) == Stream.derived(11, "crossed", "gold").bits(64)
    assert protocol.describe(protocol.SCORE_BOOTSTRAP, release=released("v2"), copy=released("v2", "qrels.jsonl")) == \
        ('derive(11, "score", "' + released("v2") + '", "' + released("v2", "qrels.jsonl") + '", "bootstrap")')
    names = [r.name for r in protocol.PROTOCOL]
    assert len(names) == len(set(names))


def test_crossed_weights_equal_the_direct_member_sums():
    # the packed member sums (nclue.stats.robustness._member_sums) give the weights of the definition:
    # W_q = w_q * mean(v_d for d in the query's documents), w and v counts of draws with replacement
    import random

    from nclue.core.rng import Stream
    from nclue.stats.robustness import crossed_weights

    rng = random.Random(3)
    n_docs = 40
    memberships = [sorted(rng.sample(range(n_docs), rng.randint(0, 6))) for _ in range(25)]
    got = crossed_weights(memberships, n_docs, Stream(9), 30)
    stream = Stream(9)
    for draw in got:
        wq = [0] * len(memberships)
        for i in stream.randbelow_batch(len(memberships), len(memberships)):
            wq[i] += 1
        vd = [0] * n_docs
        for i in stream.randbelow_batch(n_docs, n_docs):
            vd[i] += 1
        want = [(w * sum(vd[d] for d in m) / len(m) if m else float(w)) if w else 0.0
                for w, m in zip(wq, memberships)]
        assert list(draw) == want
