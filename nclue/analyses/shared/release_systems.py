"""The systems a release declares in ``systems.json``, as the analyses select them: the controlled blocks
(Table 5), the query-form systems, the masked systems (Table S5a), the page-scored systems, and a block's
displayed endpoint (paper section 3.3; docs/schema.md, docs/statistics.md#the-displayed-endpoint).

systems.json is parsed and validated once, by :func:`nclue.core.loaders.load_systems`.
"""

from .outcome_vectors import outcomes


def ranked(inst):
    """Whether ``inst``'s release has rankings (its ``systems.json``): a construction-only RealPage has none.  A
    release that must have them and lacks the file fails its shape check (a required file is missing)."""
    return inst.exists(inst.spec.systems)


def system_ids(inst):
    """Every system the release's systems.json declares, sorted."""
    systems, _ = inst.systems()
    return sorted(systems)


def contrasts(inst):
    """The controlled blocks of systems.json (``contrasts``: ``{block, base, variants}``), validated when
    systems.json is loaded (:func:`nclue.core.loaders.load_systems`)."""
    return inst.systems()[1].contrasts


def form_systems(inst):
    """Systems of the query-form matrix: systems.json ``form_systems`` (13 in the paper; validated by the loader)."""
    return list(inst.systems()[1].form_systems)


def masked_systems(inst):
    """``[(masked system, its base, the dropped condition position)]`` of systems.json, sorted: the
    ``mask_*`` systems with a base (Table S5a)."""
    systems, _ = inst.systems()
    return [(sid, systems[sid].base, int(sid[-1])) for sid in sorted(systems)
            if sid.startswith("mask_") and systems[sid].base is not None]


def page_scored_systems(inst):
    """Systems whose systems.json entry says ``page_scored`` (they release page scores)."""
    systems, _ = inst.systems()
    return sorted(sid for sid, system in systems.items() if system.page_scored)


def displayed_variant(inst, block):
    """A block's displayed endpoint: the variant with the highest raw-form n-Clue Score (ties: the
    first listed), as the paper chose it post hoc (section 3.3; docs/statistics.md#the-displayed-endpoint)."""
    best = None
    for var in block["variants"]:
        count = sum(outcomes(inst, inst.spec.ranking(var)).success)
        if best is None or count > best[1]:
            best = (var, count)
    return best[0]
