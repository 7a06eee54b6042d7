"""One verdict of a run: a :class:`Check` is pass, fail or skip with a one-line reason (docs/claims.md).

Reasons are one line of at most :data:`MAX_REASON_CHARS` characters.  ``cause`` names the input file
whose defect produced a fail or skip (the report groups such checks under one line per file).
``detail`` is an optional second line the text report prints under the check (for a file whose hash
fails: what is wrong inside it, :func:`nclue.run.diagnose.content_problem`).  ``estimate`` is the
recomputed claim's Monte Carlo or tie-order declaration (:mod:`nclue.stats.montecarlo`, as JSON), and
``origin`` the analysis and unit that computed it (what ``--draws-multiplier`` recomputes).
"""

from ..core.errors import bounded

STATUSES = ("pass", "fail", "skip")
MAX_REASON_CHARS = 600


# the reason of a paper-audit check frozen as "fail" and found failing again: it passes, and says why
EXPECTED_PAPER_FAIL = "the paper's own inconsistency, found again as frozen: an expected fail of the published " \
    "numbers, not a fail of this run"


class Check:
    __slots__ = ("id", "group", "status", "reason", "rule", "expected", "observed", "source", "cause", "inputs",
                 "detail", "estimate", "origin")

    def __init__(self, id, group, status, reason="", rule=None, expected=None, observed=None, source="", cause=None,
                 inputs=(), detail=None, estimate=None, origin=None):
        self.id, self.group, self.status = bounded(str(id), 200), group, status
        self.detail = None if detail is None else bounded(" ".join(str(detail).split("\n")), MAX_REASON_CHARS)
        self.reason = bounded(" ".join(str(reason).split("\n")), MAX_REASON_CHARS)
        self.cause = cause
        self.inputs = tuple(inputs)
        self.rule, self.expected, self.observed, self.source = rule, expected, observed, source
        self.estimate, self.origin = estimate, origin

    def as_json(self):
        out = {"id": self.id, "group": self.group, "status": self.status, "reason": self.reason}
        if self.rule is not None:
            out.update({"rule": self.rule, "expected": _bounded_value(self.expected),
                        "observed": _bounded_value(self.observed), "source": self.source})
        if self.cause is not None:
            out["cause"] = self.cause
        if self.detail is not None:
            out["detail"] = self.detail
        if self.estimate is not None:
            out["estimate"] = self.estimate
        return out


def _bounded_value(value):
    return bounded(value, 1000) if isinstance(value, str) else value
