"""One verdict of a run: a :class:`Check` is pass, fail or skip with a one-line reason (docs/claims.md)."""

STATUSES = ("pass", "fail", "skip")


class Check:
    __slots__ = ("id", "group", "status", "reason", "rule", "expected", "observed", "source")

    def __init__(self, id, group, status, reason="", rule=None, expected=None, observed=None, source=""):
        self.id, self.group, self.status, self.reason = id, group, status, reason
        self.rule, self.expected, self.observed, self.source = rule, expected, observed, source

    def as_json(self):
        out = {"id": self.id, "group": self.group, "status": self.status, "reason": self.reason}
        if self.rule is not None:
            out.update({"rule": self.rule, "expected": self.expected, "observed": self.observed, "source": self.source})
        return out
