"""Analyses: the code that turns validated records into claim values.

An analysis has a name (the frozen file is ``reference_metrics/<name>.json``),
a level, a source, and ``units(instrument)``: independent pieces, each with
the input files it reads and a ``compute()`` giving :class:`~nclue.analyses.base.Value`
objects (:mod:`nclue.analyses.base`).  ``freeze`` and ``reproduce`` both call the same units, so a frozen
value and its recomputation come from one implementation.
"""

import importlib
import os

# the shared pieces every analysis sits on (a module and a package); every other module declares ANALYSES
SHARED = ("base", "shared")


def _module_names():
    """The modules and subpackages of this package's folder, sorted: each ``NAME.py`` and each folder with an
    ``__init__.py`` (what :func:`pkgutil.iter_modules` lists for a folder, without importing :mod:`inspect`)."""
    names = set()
    for folder in __path__:
        for entry in os.scandir(folder):
            if entry.is_file() and entry.name.endswith(".py") and entry.name != "__init__.py":
                names.add(entry.name[:-3])
            elif entry.is_dir() and os.path.isfile(os.path.join(entry.path, "__init__.py")):
                names.add(entry.name)
    return sorted(name for name in names if name.isidentifier())


def _registry():
    """Every analysis of every module of this package (a new analysis is registered by its module's
    ``ANALYSES`` alone), in module-name order; a module that declares none, or a name declared twice, is an
    error at import, never a silent omission."""
    out = {}
    for name in _module_names():
        if name in SHARED:
            continue
        module = importlib.import_module("%s.%s" % (__name__, name))
        analyses = getattr(module, "ANALYSES", None)
        if not analyses:
            raise ImportError("nclue.analyses.%s declares no ANALYSES (shared pieces are %s)" % (
                name, ", ".join(SHARED)))
        for analysis in analyses:
            if analysis.name in out:
                raise ImportError("analysis %s is declared twice" % analysis.name)
            out[analysis.name] = analysis
    return out


REGISTRY = _registry()
