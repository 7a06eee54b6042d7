"""Monte Carlo error and the Monte Carlo verdict (nclue/stats/montecarlo.py; docs/claims.md#monte-carlo-verdicts).

The Maritz-Jarrett standard error against scipy's ``mstats.mjci`` and against the standard deviation of
percentile endpoints over reseeded runs; the binomial standard error of a p-value against the spread of
reseeded sign-flip p-values; the verdict's boundaries worked by hand; the declaration's hostile fixtures.
"""

import copy
import json
import math
import os

import pytest
from conftest import released, reproduce_report

from nclue.core.errors import InputError
from nclue.stats import montecarlo, protocol


def test_maritz_jarrett_agrees_with_scipy_mjci():
    np = pytest.importorskip("numpy")
    mstats = pytest.importorskip("scipy.stats.mstats")
    rng = np.random.Generator(np.random.PCG64(7))
    for n, q in ((50, 0.5), (500, 0.025), (500, 0.975), (1000, 0.025), (1000, 0.975), (1001, 0.3)):
        x = rng.standard_normal(n)
        ours = montecarlo.maritz_jarrett_se([float(v) for v in x], q)
        theirs = float(mstats.mjci(x, prob=[q])[0])
        assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-12), (n, q)


def test_maritz_jarrett_matches_the_spread_of_reseeded_endpoints():
    """Bootstrap means of one fixed sample, 1,000 replicates per run, 400 reseeded runs: the mean
    Maritz-Jarrett SE of the 2.5% and 97.5% endpoints is within 15% of their standard deviation over runs."""
    np = pytest.importorskip("numpy")
    rng = np.random.Generator(np.random.PCG64(11))
    sample = rng.exponential(size=120)
    for q in (0.025, 0.975):
        ends, ses = [], []
        for _ in range(400):
            means = sample[rng.integers(0, len(sample), size=(1000, len(sample)))].mean(axis=1)
            values = [float(v) for v in means]
            ends.append(float(np.quantile(means, q)))
            ses.append(montecarlo.maritz_jarrett_se(values, q))
        ratio = float(np.mean(ses)) / float(np.std(ends, ddof=1))
        assert 0.85 <= ratio <= 1.15, (q, ratio)


def test_binomial_se_matches_the_spread_of_reseeded_sign_flip_p():
    """The harness's own sign-flip test on one vector, reseeded 60 times at 2,000 draws: the SD of the p-values
    is within 25% of the binomial SE at the exact p (60 runs leave about 9% sampling error on an SD)."""
    from nclue.core.rng import Stream
    from nclue.stats import randomization

    diffs = [1, -1, 2, 1, 1, 0, -2, 1, 1, 1, -1, 2, 1, 1, -1, 1, 1, 1, -1, 1]
    exact = randomization.exact_sign_flip_p(diffs)
    ps = []
    for seed in range(60):
        masks = randomization.draw_masks(Stream.derived(seed, "mc-test"), len(diffs), 2000)
        ps.append(randomization.SignFlipTest(diffs, masks).p_value())
    mean = sum(ps) / len(ps)
    sd = math.sqrt(sum((p - mean) ** 2 for p in ps) / (len(ps) - 1))
    assert 0.75 <= sd / montecarlo.p_value_se(exact, 2000) <= 1.25
    assert abs(mean - montecarlo.paper_estimator(exact, 2000)) <= 4 * montecarlo.p_value_se(exact, 2000) / math.sqrt(60)


def _estimate(expected, se, se_paper, alternatives=()):
    return montecarlo.Estimate("randomization", "p", 10000, 10000, expected=expected, se=se, se_paper=se_paper,
                               alternatives=alternatives)


def test_the_verdict_at_its_boundaries_worked_by_hand():
    # se 0.003 and 0.004 combine to 0.005; z = 3: tolerance = 0.0005 (half of 0.001) + 0.015 = 0.0155
    e = _estimate(0.100, 0.003, 0.004)
    assert montecarlo.judge(0.1155, 3, e).consistent
    assert montecarlo.judge(0.0845, 3, e).consistent
    assert not montecarlo.judge(0.1156, 3, e).consistent
    v = montecarlo.judge(0.110, 3, e)
    assert v.tolerance == pytest.approx(0.0155) and v.distance == pytest.approx(2.0) and v.resolvable
    # an exact value (both SEs 0) falls back to the display rule's half unit
    exact = _estimate(0.25, 0.0, 0.0)
    assert montecarlo.judge(0.2505, 3, exact).consistent and not montecarlo.judge(0.2506, 3, exact).consistent
    assert montecarlo.judge(0.25, 3, exact).distance is None
    # a plausible wrong procedure inside the tolerance: consistent, not resolvable
    unresolved = montecarlo.judge(0.100, 3, _estimate(0.100, 0.003, 0.004, [("one-sided", 0.05), ("no Holm", 0.09)]))
    assert unresolved.consistent and not unresolved.resolvable and unresolved.inside == ("no Holm",)


def test_the_paper_estimator_and_the_translation_between_draw_counts():
    assert montecarlo.paper_estimator(0.0, 10000) == pytest.approx(1 / 10001)
    assert montecarlo.paper_estimator(1.0, 10000) == pytest.approx(1.0)
    # 11 extreme draws of 10,000 is c / B = 0.0011; at 1,000 draws the paper's estimator expects (1 + 1.1) / 1001
    assert montecarlo.translated(12 / 10001, 10000, 1000) == pytest.approx(2.1 / 1001)
    est = montecarlo.p_estimate(0.5, protocol.RANDOMIZATION, 10000, exact=0.5)
    assert est.exact and est.se == 0 and est.se_paper == pytest.approx(0.005)
    held = montecarlo.p_estimate(0.02, protocol.RANDOMIZATION, 10000, multiplier=8, determining=0.0025)
    assert held.se == pytest.approx(8 * math.sqrt(0.0025 * 0.9975 / 10000))


def test_the_draws_multiplier_scales_every_resampling_and_is_bounded():
    assert protocol.draws(protocol.BOOTSTRAP) == 1000
    with protocol.multiplied(4):
        assert protocol.draws(protocol.BOOTSTRAP) == 4000 and protocol.draws(protocol.RANDOMIZATION) == 40000
    assert protocol.draws(protocol.BOOTSTRAP) == 1000
    for bad in (0, protocol.MAX_DRAWS_MULTIPLIER + 1, 1.5, True):
        with pytest.raises(ValueError):
            with protocol.multiplied(bad):
                pass


SOUND = {"kind": "monte_carlo", "resampling": "bootstrap", "statistic": "percentile", "n_draws": 1000,
         "paper_draws": 1000, "expected": 1.5, "se": 0.1, "se_paper": 0.1, "exact": False,
         "alternatives": [["unclustered (query) bootstrap", 1.4]]}
HOSTILE = [                   # (the declaration written into the first Monte Carlo claim, the message expected)
    ("a string", "must be an object"),
    ({**SOUND, "kind": "bayesian"}, "kind must be one of"),
    ({k: v for k, v in SOUND.items() if k != "se_paper"}, "field 'se_paper' missing"),
    ({**SOUND, "se": "0.1"}, "field 'se' must be a finite number >= 0"),
    ({**SOUND, "se": -0.1}, "field 'se' must be a finite number >= 0"),
    ({**SOUND, "expected": True}, "field 'expected' must be a finite number"),
    ({**SOUND, "expected": "__HUGE__"}, "field 'expected' must be a finite number"),     # 1e400 in the file
    ({**SOUND, "n_draws": 0}, "n_draws and paper_draws must be at least 1"),
    ({**SOUND, "n_draws": 10 ** 12}, "field 'n_draws' must be an integer 0..10^9"),
    ({**SOUND, "statistic": "mean"}, "field 'statistic' must be one of"),
    ({**SOUND, "resampling": "bootstrap.everything"}, "names no resampling of the protocol"),
    ({**SOUND, "alternatives": [["x", [[[[1.0]]]]]]}, "field 'alternatives' must be a list"),
    ({**SOUND, "alternatives": [["x", 1.0]] * 17}, "field 'alternatives' must be a list of at most 16"),
    ({**SOUND, "extra": 1}, "unknown field 'extra'"),
    ({"kind": "tie_orders", "values": [], "orders": 2, "rank": 20, "tied": 3, "slots": 1, "enumerated": True},
     "field 'values' must be a list of 1.."),
]


@pytest.mark.parametrize("estimate,message", HOSTILE, ids=[m for _, m in HOSTILE])
def test_a_hostile_declaration_names_the_file_and_field(tmp_path, estimate, message):
    from nclue.run.claims import load_claim_file

    rel = released("claims", "v1.inference.contrasts.json")
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    doc = json.load(open(os.path.join(repo, *rel.split("/")), encoding="utf-8"))
    i = next(i for i, c in enumerate(doc["claims"]) if "estimate" in c)
    doc["claims"][i]["estimate"] = copy.deepcopy(estimate)
    text = json.dumps(doc, indent=1).replace('"__HUGE__"', "1e400")
    path = tmp_path / "reference_metrics" / "v1.inference.contrasts.json"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_claim_file(str(tmp_path), rel)
    shown = str(err.value)
    assert shown.startswith(rel) and message in shown, shown
    assert "field 'claims[%d].estimate'" % i in shown, shown


def test_a_loosened_declaration_fails_the_claim(release_copy):
    """A frozen Monte Carlo declaration widened (its standard errors ten times larger, re-signed) fails its claim
    naming the field: the declaration is part of what was frozen."""
    from nclue.run.freeze import write_release_manifest

    rel = os.path.join(release_copy, "reference_metrics", "v1.inference.contrasts.json")
    doc = json.load(open(rel, encoding="utf-8"))
    target = next(c for c in doc["claims"] if c.get("estimate", {}).get("kind") == "monte_carlo")
    target["estimate"]["se"] *= 10
    target["estimate"]["se_paper"] *= 10
    with open(rel, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=1, sort_keys=True)
    write_release_manifest(release_copy)
    code, out, err, report, fails = reproduce_report(release_copy, "--only", "inference")
    assert code == 1 and "Traceback" not in err
    assert set(fails) == {target["id"]}, sorted(fails)[:3]
    assert "Monte Carlo declaration differs from the frozen one: field 'se'" in fails[target["id"]]["reason"]


def test_a_frozen_rule_that_differs_from_the_analysis_fails(release_copy):
    """A claim's rule loosened in the claim file (re-signed) fails: the analysis compares under its own rule."""
    from nclue.run.freeze import write_release_manifest

    rel = os.path.join(release_copy, "reference_metrics", "v1.inference.contrasts.json")
    doc = json.load(open(rel, encoding="utf-8"))
    target = next(c for c in doc["claims"] if c["rule"] == "abs:1e-9")
    target["rule"] = "abs:0.5"
    with open(rel, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=1, sort_keys=True)
    write_release_manifest(release_copy)
    code, out, err, report, fails = reproduce_report(release_copy, "--only", "inference")
    assert code == 1 and "Traceback" not in err
    assert "claim was frozen with rule abs:0.5, but its analysis compares it under abs:1e-9" in fails[target["id"]]["reason"]
