"""What RealPage's analyses share (``data/v3``; docs/realpage.md#the-release-and-its-verification): the
instrument opened on it, the files every RealPage evaluation reads, and where a system's ranking of a query form
lives.  ``v3.*`` of :mod:`nclue.analyses.realpage_scoring` and :mod:`nclue.analyses.realpage_replication` read
them from here."""

from ...core import layout

# the files that fix what a RealPage evaluation judges: the documents, the conditions and queries, and the
# final qrel copy with the genealogy that says which queries its audit removed
INPUTS = [layout.REALPAGE.corpus, layout.REALPAGE.conditions, layout.REALPAGE.queries, layout.REALPAGE.genealogy, layout.REALPAGE.qrels]


def realpage(inst):
    """The RealPage instrument of ``inst``'s root (:meth:`nclue.core.instrument.Instrument.v3`)."""
    return inst.release(layout.REALPAGE)


def ranked(inst):
    """Whether the release has rankings (its ``systems.json``): a construction-only RealPage has none."""
    return inst.exists(layout.REALPAGE.systems)


def ranking(sid, form=layout.RAW):
    """A system's RealPage ranking of one query form: ``data/v3/rankings/<sid>.jsonl`` for the raw form, which
    is also the query-form matrix's raw column (RealPage keeps no second copy of it), else
    ``data/v3/rankings/forms/<sid>__<form>.jsonl``.

    >>> ranking("bm25_and") == ranking("bm25_and", layout.RAW) == "data/v3/rankings/bm25_and.jsonl"
    True
    >>> ranking("bm25_and", layout.CLEAN)
    'data/v3/rankings/forms/bm25_and__clean_v2.jsonl'
    """
    return layout.REALPAGE.form_ranking(sid, form)


def system_ids(v3):
    """Every system RealPage's systems.json declares, sorted."""
    systems, _ = v3.systems()
    return sorted(systems)
