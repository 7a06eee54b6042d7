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
"""

from typing import NamedTuple

from ..core.rng import Stream

STATISTICS_SEED = 11          # the seed of every statistical stream (not the builder's data seed)
INTERVAL_LEVEL = 0.95         # every percentile interval's level


class Resampling(NamedTuple):
    name: str          # how docs/statistics.md's protocol table names it
    n_draws: int       # the number of draws
    resamples: str     # what one draw resamples
    stream: tuple      # the stream's labels after the seed; "{x}" is filled in by the caller
    used_by: str       # the analyses (and commands) that draw from it


BOOTSTRAP = Resampling("bootstrap", 1000, "exact-gold-set families, with replacement", ("bootstrap",),
                       "v1.inference (Table 5 / S1 intervals), nclue score on v1's final copy")
RANDOMIZATION = Resampling("randomization", 10000, "a sign per exact-gold-set family", ("randomization",),
                           "v1.inference (Table 5 p-values and their multiplicity adjustments), nclue score on v1's final copy")
N3_BOOTSTRAP = Resampling("bootstrap.n3", 1000, "exact-gold-set families of the n = 3 queries, with replacement",
                          ("bootstrap", "n3"), "v1.inference.masking (dropping the third condition)")
CROSSED = Resampling("crossed", 500, "queries and documents, crossed (a query's weight: its count times its documents' mean count)",
                     ("crossed", "{label}"), "v1.sensitivity.contrasts (crossed intervals; label: gold or judged memberships)")
SHARED_DOCUMENTS = Resampling("crossed.s1i", 500, "queries and documents, crossed, as crossed", ("{release}", "crossed", "{label}"),
                              "v1.sensitivity.shared_documents, v2.sensitivity (Table S1i; release v1 or v2)")
SOURCESHIFT = Resampling("randomization.v2", 10000, "a sign per query", ("v2", "randomization"),
                         "v2.contrasts (Table S4, final qrels)")
SOURCESHIFT_COPY = Resampling("randomization.v2.copy", 10000, "a sign per query", ("v2", "randomization", "{copy}"),
                              "v2.contrasts.s0, v2.contrasts.construction (Table S4 on an earlier copy)")
STAGES_QUERY = Resampling("stages.query", 10000, "a sign per query", ("stages", "{label}", "query"),
                          "audit.impact (validation stages; label: the stage)")
STAGES_FAMILY = Resampling("stages.family", 10000, "a sign per exact-gold-set family", ("stages", "{label}", "family"),
                           "audit.impact (validation stages; label: the stage)")
SCORE_BOOTSTRAP = Resampling("score.bootstrap", 1000, "exact-gold-set families, with replacement",
                             ("score", "{release}", "{copy}", "bootstrap"),
                             "nclue score with a release or qrel copy other than v1's final copy")
SCORE_RANDOMIZATION = Resampling("score.randomization", 10000, "a sign per exact-gold-set family",
                                 ("score", "{release}", "{copy}", "randomization"),
                                 "nclue score with a release or qrel copy other than v1's final copy")

PROTOCOL = (BOOTSTRAP, RANDOMIZATION, N3_BOOTSTRAP, CROSSED, SHARED_DOCUMENTS, SOURCESHIFT, SOURCESHIFT_COPY,
            STAGES_QUERY, STAGES_FAMILY, SCORE_BOOTSTRAP, SCORE_RANDOMIZATION)


def labels(resampling, **fields):
    """The stream labels of ``resampling`` with its ``{x}`` labels filled in from ``fields``."""
    out = []
    for label in resampling.stream:
        if label.startswith("{") and label.endswith("}"):
            out.append(str(fields[label[1:-1]]))
        else:
            out.append(label)
    return tuple(out)


def stream(resampling, **fields):
    """The random stream of ``resampling``: ``Stream.derived(STATISTICS_SEED, *labels(resampling, **fields))``."""
    return Stream.derived(STATISTICS_SEED, *labels(resampling, **fields))


def describe(resampling, **fields):
    """The stream as the provenance prints it: ``derive(11, "bootstrap")``."""
    return "derive(%d, %s)" % (STATISTICS_SEED, ", ".join('"%s"' % label for label in labels(resampling, **fields)))
