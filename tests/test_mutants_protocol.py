"""stats/protocol.py by hand: the mutants mutmut left alive or uncovered (docs/recipes.md#mutation-testing), each killed
here or listed as equivalent in tests/mutants_equivalent_stats.txt."""

import pytest

from nclue.stats import protocol
from nclue.stats.protocol import Resampling


def test_pattern_names_the_seed_quotes_fixed_labels_and_names_filled_ones():
    """pattern() as the provenance lists a stream: seed by name, a fixed label in single quotes, a {label} bare."""
    assert protocol.pattern(protocol.BOOTSTRAP) == "derive(seed, 'bootstrap')"
    assert protocol.pattern(protocol.CROSSED) == "derive(seed, 'crossed', label)"
    assert protocol.pattern(protocol.SCORE_BOOTSTRAP) == "derive(seed, 'score', release, copy, 'bootstrap')"
    assert protocol.pattern(protocol.SHARED_DOCUMENTS) == "derive(seed, release, 'crossed', label)"


def test_multiplier_is_one_outside_and_the_factor_inside_multiplied():
    assert protocol.multiplier() == 1
    with protocol.multiplied(7) as factor:
        assert factor == 7 and protocol.multiplier() == 7
        with protocol.multiplied(2):
            assert protocol.multiplier() == 2 and protocol.draws(protocol.CROSSED) == 1000
        assert protocol.multiplier() == 7
    assert protocol.multiplier() == 1
    with pytest.raises(ValueError, match=r"^the draws multiplier must be an integer 1\.\.100$"):
        with protocol.multiplied(101):
            pass
    assert protocol.multiplier() == 1


def test_only_a_label_in_both_braces_is_filled_in():
    """A label with one brace only is a fixed label, kept as it is; a braced one is looked up by its inner name."""
    odd = Resampling("odd", 10, "nothing", ("{half", "half}", "{x}"), "tests")
    assert protocol.labels(odd, x=3) == ("{half", "half}", "3")
    assert protocol.describe(odd, x="y") == 'derive(11, "{half", "half}", "y")'
