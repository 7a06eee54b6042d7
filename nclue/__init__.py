"""nclue: reproduction harness and stand-in release of the n-Clue / CrossPage benchmark.

Standard library only at run time.  See README.md and docs/.
"""

__version__ = "0.1.0"


def score(runs, root=None, **options):
    """Score run files the way ``nclue score`` does and return the same JSON-ready dict
    (:func:`nclue.harness.score.score`; imported on first use so that ``import nclue`` stays light)."""
    from .harness.score import score as score_runs
    return score_runs(runs, root, **options)
