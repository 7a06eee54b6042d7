"""Analyses: the code that turns validated records into claim values.

An analysis has a name (the frozen file is ``reference_metrics/<name>.json``),
a level, a source, and ``units(instrument)``: independent pieces, each with
the input files it reads and a ``compute()`` giving :class:`~nclue.analyses.base.Value`
objects (:mod:`nclue.analyses.base`).  ``freeze`` and ``reproduce`` both call the same units, so a frozen
value and its recomputation come from one implementation.
"""

from . import (audit_challenge, construction, diagnostics, genealogy, inference, label_audit, paper, release, scoring, sensitivity,
               sourceshift, tables, validation_stages)

REGISTRY = {}
for _module in (release, construction, scoring, tables, diagnostics, inference, sensitivity, paper, sourceshift, genealogy,
                label_audit, audit_challenge, validation_stages):
    for _analysis in _module.ANALYSES:
        REGISTRY[_analysis.name] = _analysis
