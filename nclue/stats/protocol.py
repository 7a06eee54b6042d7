"""The statistical protocol, declared once (paper section 3.4; docs/statistics.md#the-protocol).

Every resampling the harness runs is one row of :data:`PROTOCOL`: its number of draws (``n_draws``), what
one draw resamples, and the labels of its random stream, ``Stream.derived(STATISTICS_SEED, *labels)``
(:mod:`nclue.core.rng`), where a label in braces is filled in by the caller (``{copy}``: a qrel copy's
file, ``{label}``: a membership set or a stage).  The analyses, ``nclue score``, the report's provenance and
docs/statistics.md read this table; ``tests/test_stats.py`` compares the docs' table with it.

>>> BOOTSTRAP.n_draws, RANDOMIZATION.n_draws, INTERVAL_LEVEL
(1000, 10000, 0.95)
>>> labels(CROSSED, label="gold")
('crossed', 'gold')
>>> draws(RANDOMIZATION), RANDOMIZATION.paper_draws
(10000, 10000)
>>> with multiplied(3):
...     draws(BOOTSTRAP)
3000

A Monte Carlo number (a p-value or a percentile endpoint from a resampling) is judged against its Monte
Carlo error, never by its digits alone (:mod:`nclue.stats.montecarlo`): a published estimate agrees with a
recomputed one when they differ by at most half a display unit plus :data:`MONTE_CARLO_Z` combined
standard errors.  Each row's ``paper_draws`` is the number of draws the paper states for that kind of
resampling (``PAPER_DRAWS_SOURCE``), from which the published estimate's standard error follows.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, NamedTuple

from ..core.rng import Stream

STATISTICS_SEED = 11          # the seed of every statistical stream (not the builder's data seed)
INTERVAL_LEVEL = 0.95         # every percentile interval's level
MONTE_CARLO_Z = 3.0           # a Monte Carlo verdict's width in combined standard errors (docs/claims.md#monte-carlo-verdicts)
MAX_DRAWS_MULTIPLIER = 100    # the largest --draws-multiplier

# the paper's stated draw counts (supplement section 2, the frozen settings: "selection seed 11; 1,000 bootstrap
# replicates; 10,000 randomization draws"; Table S4: "two-sided 10,000-sample permutation tests")
PAPER_BOOTSTRAP_DRAWS = 1000
PAPER_RANDOMIZATION_DRAWS = 10000
PAPER_DRAWS_SOURCE = ("supplement section 2, frozen settings: 'selection seed 11; 1,000 bootstrap replicates; 10,000 "
                      "randomization draws'; Table S4: 'two-sided 10,000-sample permutation tests'")


class Resampling(NamedTuple):
    name: str          # how docs/statistics.md's protocol table names it
    n_draws: int       # the number of draws
    resamples: str     # what one draw resamples
    stream: tuple      # the stream's labels after the seed; "{x}" is filled in by the caller
    used_by: str       # the analyses (and commands) that draw from it
    paper_draws: int = PAPER_BOOTSTRAP_DRAWS    # the draws the paper states for this kind of resampling


BOOTSTRAP = Resampling("bootstrap", 1000, "exact-gold-set families, with replacement", ("bootstrap",),
                       "v1.inference (Table 5 / S1 intervals), nclue score on v1's final copy")
RANDOMIZATION = Resampling("randomization", 10000, "a sign per exact-gold-set family", ("randomization",),
                           "v1.inference (Table 5 p-values and their multiplicity adjustments), nclue score on v1's "
                           "final copy", PAPER_RANDOMIZATION_DRAWS)
QUERY_BOOTSTRAP = Resampling("bootstrap.queries", 1000, "queries, with replacement (no families: the unclustered "
                             "alternative)", ("bootstrap", "queries"),
                             "v1.inference.contrasts (the unclustered interval a Table 5 endpoint is told apart from)")
N3_BOOTSTRAP = Resampling("bootstrap.n3", 1000, "exact-gold-set families of the n = 3 queries, with replacement",
                          ("bootstrap", "n3"), "v1.inference.masking (dropping the third condition)")
CROSSED = Resampling("crossed", 500, "queries and documents, crossed (a query's weight: its count times its documents' mean count)",
                     ("crossed", "{label}"), "v1.sensitivity.contrasts (crossed intervals; label: gold or judged memberships)")
SHARED_DOCUMENTS = Resampling("crossed.s1i", 500, "queries and documents, crossed, as crossed", ("{release}", "crossed", "{label}"),
                              "v1.sensitivity.shared_documents, v2.sensitivity (Table S1i; release v1 or v2)")
SOURCESHIFT = Resampling("randomization.v2", 10000, "a sign per query", ("v2", "randomization"),
                         "v2.contrasts (Table S4, final qrels)", PAPER_RANDOMIZATION_DRAWS)
SOURCESHIFT_COPY = Resampling("randomization.v2.copy", 10000, "a sign per query", ("v2", "randomization", "{copy}"),
                              "v2.contrasts.s0, v2.contrasts.construction (Table S4 on an earlier copy)",
                              PAPER_RANDOMIZATION_DRAWS)
STAGES_QUERY = Resampling("stages.query", 10000, "a sign per query", ("stages", "{label}", "query"),
                          "audit.impact (validation stages; label: the stage)", PAPER_RANDOMIZATION_DRAWS)
STAGES_FAMILY = Resampling("stages.family", 10000, "a sign per exact-gold-set family", ("stages", "{label}", "family"),
                           "audit.impact (validation stages; label: the stage)", PAPER_RANDOMIZATION_DRAWS)
SCORE_BOOTSTRAP = Resampling("score.bootstrap", 1000, "exact-gold-set families, with replacement",
                             ("score", "{release}", "{copy}", "bootstrap"),
                             "nclue score with a release or qrel copy other than v1's final copy")
SCORE_RANDOMIZATION = Resampling("score.randomization", 10000, "a sign per exact-gold-set family",
                                 ("score", "{release}", "{copy}", "randomization"),
                                 "nclue score with a release or qrel copy other than v1's final copy",
                                 PAPER_RANDOMIZATION_DRAWS)

PROTOCOL = (BOOTSTRAP, RANDOMIZATION, QUERY_BOOTSTRAP, N3_BOOTSTRAP, CROSSED, SHARED_DOCUMENTS, SOURCESHIFT, SOURCESHIFT_COPY,
            STAGES_QUERY, STAGES_FAMILY, SCORE_BOOTSTRAP, SCORE_RANDOMIZATION)


_MULTIPLIER = [1]       # the draws multiplier in force (:func:`multiplied`); 1 outside it


def draws(resampling: Resampling) -> int:
    """The number of draws ``resampling`` takes in this run: its ``n_draws`` times the multiplier in force
    (:func:`multiplied`, ``reproduce --draws-multiplier``; 1 by default).  Every resampling reads its count
    here, so a multiplied recomputation draws more from the same streams (the first ``n_draws`` draws are the
    default run's)."""
    return resampling.n_draws * _MULTIPLIER[0]


def multiplier() -> int:
    """The draws multiplier in force (1 outside :func:`multiplied`)."""
    return _MULTIPLIER[0]


@contextmanager
def multiplied(factor: Any) -> Any:
    """Within the block, every resampling takes ``factor`` times its ``n_draws`` (:func:`draws`)."""
    if not isinstance(factor, int) or isinstance(factor, bool) or not 1 <= factor <= MAX_DRAWS_MULTIPLIER:
        raise ValueError("the draws multiplier must be an integer 1..%d" % MAX_DRAWS_MULTIPLIER)
    previous = _MULTIPLIER[0]
    _MULTIPLIER[0] = factor
    try:
        yield factor
    finally:
        _MULTIPLIER[0] = previous


def labels(resampling: Resampling, **fields: str) -> tuple[Any, ...]:
    """The stream labels of ``resampling`` with its ``{x}`` labels filled in from ``fields``."""
    out = []
    for label in resampling.stream:
        if label.startswith("{") and label.endswith("}"):
            out.append(str(fields[label[1:-1]]))
        else:
            out.append(label)
    return tuple(out)


def stream(resampling: Resampling, **fields: str) -> Stream:
    """The random stream of ``resampling``: ``Stream.derived(STATISTICS_SEED, *labels(resampling, **fields))``."""
    return Stream.derived(STATISTICS_SEED, *labels(resampling, **fields))


def pattern(resampling: Any) -> Any:
    """The stream before its labels are filled in, as the provenance lists it: the seed by name, a fixed label
    quoted, a label the caller fills in by its name.

    >>> pattern(CROSSED)
    "derive(seed, 'crossed', label)"
    """
    return "derive(%s)" % ", ".join(["seed"] + [label[1:-1] if label.startswith("{") else "'%s'" % label
                                                for label in resampling.stream])


def describe(resampling: Any, **fields: Any) -> Any:
    """The stream as the provenance prints it: ``derive(11, "bootstrap")``."""
    return "derive(%d, %s)" % (STATISTICS_SEED, ", ".join('"%s"' % label for label in labels(resampling, **fields)))
