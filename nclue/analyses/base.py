"""Declared analyses, their units and the claim values they produce (docs/claims.md).

A :class:`Value` is one recomputed claim value with its comparison rule; an
:class:`Analysis` has a name (its frozen file is
``reference_metrics/<name>.json``), a level (one of :data:`LEVELS`), a source
(the paper's table or section) and ``units(instrument)``: independent
pieces, each a :class:`Unit` naming the input files it reads and a
``compute()`` that returns Values.  ``freeze`` and ``reproduce`` call the
same units, so a frozen value and its recomputation come from one
implementation.
"""

LEVELS = ("integrity", "construction", "scoring", "inference", "sensitivity", "paper", "rebuild")


class Value:
    """One recomputed claim value with its rule and source (table/section).

    The default rule is ``abs:1e-9`` for a float and ``exact`` for anything else.  ``estimate`` declares a
    value that is not exact: a Monte Carlo estimate (:class:`nclue.stats.montecarlo.Estimate`: its draws, its
    standard error) or a value that depends on an unstated tie order
    (:class:`nclue.stats.montecarlo.TieOrders`); it is frozen with the claim and judged with it
    (docs/claims.md#monte-carlo-verdicts).

    >>> Value("x", 0.5).rule, Value("x", 3).rule, Value("x", 3).estimate
    ('abs:1e-9', 'exact', None)
    """

    __slots__ = ("id", "value", "rule", "source", "detail", "estimate")

    def __init__(self, id, value, rule=None, source="", detail="", estimate=None):
        if rule is None:
            rule = "abs:1e-9" if isinstance(value, float) else "exact"
        self.id, self.value, self.rule, self.source, self.detail = id, value, rule, source, detail
        self.estimate = estimate


class Unit:
    __slots__ = ("key", "inputs", "compute")

    def __init__(self, key, inputs, compute):
        self.key = key              # short label for messages
        self.inputs = list(inputs)  # relative paths the unit reads
        self.compute = compute      # () -> [Value]


class Analysis:
    def __init__(self, name, level, source, units):
        if level not in LEVELS:
            raise ValueError("unknown level %r" % level)
        self.name, self.level, self.source = name, level, source
        self._units = units

    def units(self, inst):
        return self._units(inst)
