"""The package generator: pinned stream (golden values), exact uniformity, no stdlib helpers."""

import os

from nclue.core.rng import Stream, derive


def test_golden_randbelow_stream():
    s = Stream(11)
    assert [s.randbelow(10) for _ in range(10)] == [7, 8, 7, 7, 8, 9, 3, 2, 8, 7]


def test_golden_uniform_and_derive():
    assert derive(11, "bootstrap") == 0xD6B9152A762BCEC9            # the golden value the protocol's streams start from
    assert derive(11, "bootstrap") != derive(12, "bootstrap")
    assert derive(11, "x") == 0x3B2C9107ACB1235B
    assert Stream(2024).uniform() == 0.18170617584739612
    assert Stream(7).bits(32) == 1390851128
    assert Stream(1).randbelow(1000003) == 140891


def test_randbelow_is_uniform_on_small_range():
    s = Stream(5)
    counts = [0] * 7
    draws = 70000
    for _ in range(draws):
        counts[s.randbelow(7)] += 1
    expected = draws / 7
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 22.46  # chi-square 6 df, p = 0.001


def test_shuffle_and_sample_are_deterministic_permutations():
    a = Stream(3).shuffle(list(range(20)))
    b = Stream(3).shuffle(list(range(20)))
    assert a == b and sorted(a) == list(range(20)) and a != list(range(20))
    picks = Stream(9).sample_distinct(100, 30)
    assert len(set(picks)) == 30 and all(0 <= p < 100 for p in picks)


def test_package_never_uses_unstable_random_helpers():
    root = os.path.join(os.path.dirname(os.path.dirname(__file__)), "nclue")
    banned = ("randrange(", ".choice(", "choices(", ".shuffle(random", ".sample(", "random.random(")
    for dirpath, _, files in os.walk(root):
        for name in files:
            if name.endswith(".py"):
                text = open(os.path.join(dirpath, name), encoding="utf-8").read()
                for word in banned:
                    assert word not in text, "%s uses %s" % (name, word)
