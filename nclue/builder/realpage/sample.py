"""The seeded sample of RFCs (docs/realpage.md#which-rfcs): in each page-count bin of
:data:`.settings.STRATA`, the stand-in's number of RFCs, drawn without replacement from the RFCs (in number
order) whose page count falls in the bin."""

from ...core.rng import Stream
from .settings import STRATA, RealPageError


def in_bin(pages, first, last):
    """Whether a page count falls in the bin ``first..last`` (``last`` None: no upper end).

    >>> in_bin(3, 1, 3), in_bin(4, 1, 3), in_bin(617, 47, None)
    (True, False, True)
    """
    return first <= pages and (last is None or pages <= last)


def draw(page_counts, seed, strata=STRATA):
    """The sampled RFC numbers, sorted: ``page_counts`` is ``{number: pages}``.  A bin with fewer RFCs than it
    needs is an error (the pinned packages have more in every bin)."""
    stream = Stream.derived(seed, "realpage", "sample")
    chosen = []
    for first, last, count in strata:
        pool = sorted(n for n, pages in page_counts.items() if in_bin(pages, first, last))
        if len(pool) < count:
            raise RealPageError("page-count bin %d-%s has %d RFCs; the sample needs %d"
                             % (first, "" if last is None else last, len(pool), count))
        chosen += [pool[i] for i in stream.sample_distinct(len(pool), count)]
    return sorted(chosen)
