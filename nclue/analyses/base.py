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

from ..core import claim_ids, layout

LEVELS = ("integrity", "derivation", "scoring", "inference", "sensitivity", "paper", "rebuild")


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


# the release part an analysis's claims belong to, by the first segment of its name; an analysis named
# otherwise declares its part (``Analysis(..., part=...)``).  A present part requires the claims file of every
# analysis of that part with work to do (nclue.run.runner's shape checks).
PART_OF_PREFIX = dict([(name, name) for name in layout.RELEASE_NAMES] + [
    (layout.AUDIT_PART, layout.AUDIT_PART), ("paper", "paper"), ("release", layout.CROSSPAGE.name)])
PARTS = layout.RELEASE_NAMES + (layout.AUDIT_PART, "paper")


class Analysis:
    """One frozen claims file's analysis: ``name`` (the file is ``reference_metrics/<name>.json``), ``level``,
    ``source``, ``units(instrument)``, ``part``, the release part whose presence requires its claims file
    (default: :data:`PART_OF_PREFIX` of the name's first segment; a name outside it must declare one), and
    ``claims``, the templates its ids are built from (default: those :mod:`nclue.core.claim_ids` declares for
    the name; docs/claims.md#claim-ids)."""

    def __init__(self, name, level, source, units, part=None, claims=None):
        if level not in LEVELS:
            raise ValueError("unknown level %r" % level)
        part = PART_OF_PREFIX.get(name.split(".", 1)[0]) if part is None else part
        if part not in PARTS:
            raise ValueError("analysis %s: its release part is %r; name it with part= (one of %s)" % (
                name, part, ", ".join(PARTS)))
        self.name, self.level, self.source, self.part = name, level, source, part
        # the templates of its ids, declared once in nclue.core.claim_ids (or given, for an analysis kept elsewhere)
        self.claims = claim_ids.templates_of(name) if claims is None else tuple(claims)
        if not self.claims:
            raise ValueError("analysis %s: no claim-id template names it (declare them in nclue.core.claim_ids)" % name)
        self._units = units

    def units(self, inst):
        return self._units(inst)


def per_release(template, level, source, units):
    """One :class:`Analysis` per release ``template`` is frozen on (:attr:`nclue.core.claim_ids.ClaimId.copies`:
    ``{release name: analysis}``), in that order: its name the template's analysis on the release, its units
    ``units(release instrument)`` on the instrument of that release (:meth:`nclue.core.instrument.Instrument.release`).
    A table written once runs on every release that has its inputs (docs/recipes.md#a-paper-table)."""
    return [Analysis(template.analysis_on(name), level, source, lambda inst, name=name: units(inst.release(name)))
            for name in template.copies]
