"""The stand-in's pre-gate OCR record, ``data/v2/provenance/ocr_gate.json`` (synthetic; docs/stand-in.md).

The paper's SourceShift "began with 1,000 PDFs balanced across eight sources (125 each)", and "four sources failed
the pre-specified per-source 98% gate" (supplement section 8).  The stand-in follows that description's structure
and nothing more: its four retained sources are the corpus's, with their documents and page counts; four removed
sources (the paper's names) get as many PDFs each, with page counts drawn from the retained documents' pages.  Each
source's failed pages are drawn from the shift seed: a retained source loses at most 2% of its pages (so it
passes), a removed one more than 2% and at most 10% (so it fails).  The pass rates are drawn, not fitted to the
paper's; the record says it is synthetic.
"""

from ..core import rng

GATE_PERCENT = 98
# the sources the paper's gate removed (supplement section 8), by the keys of the transcription's numbers
REMOVED = (("fda", "FDA/DailyMed"), ("nasa", "NASA NTRS"), ("usgs", "USGS"), ("wb", "World Bank"))
NOTE = ("Synthetic stand-in of SourceShift's pre-gate OCR record (supplement section 8): the retained sources are the "
        "corpus's; the removed sources, their page counts and every source's failed pages are drawn from the shift "
        "seed, following the paper's description (eight sources, a 98% per-source gate that four fail), not its "
        "values (docs/stand-in.md#the-pre-gate-record).")


def record(sources, docs, seed):
    """The record (docs/schema.md#provenanceocr_gatejson) for the stand-in's ``sources`` (its configuration's
    :class:`~nclue.builder.sourceshift_instrument.Source` rows) and corpus rows ``docs``."""
    stream = rng.Stream(rng.derive(seed, "pregate-ocr"))
    pages_of = {}
    for doc in docs:
        pages_of.setdefault(doc["source"], []).append(doc["pages"])
    pooled = sorted(p for pages in pages_of.values() for p in pages)
    per_source = max(len(pages) for pages in pages_of.values())
    rows = []
    for source in sources:
        pages = sum(pages_of[source.name])
        rows.append(_row(source.name, source.label, len(pages_of[source.name]), pages, stream, retained=True))
    for key, label in REMOVED:
        pages = sum(pooled[stream.randbelow(len(pooled))] for _ in range(per_source))
        rows.append(_row(key, label, per_source, pages, stream, retained=False))
    return {"synthetic": True, "note": NOTE, "gate_percent": GATE_PERCENT, "sources": rows}


def _row(key, label, pdfs, pages, stream, retained):
    """One source's row: a retained source fails at most 2% of its pages, a removed one more than 2% (at most
    10%)."""
    allowed = pages * (100 - GATE_PERCENT) // 100
    failed = stream.randbelow(allowed + 1) if retained else allowed + 1 + stream.randbelow(max(1, 4 * allowed))
    return {"source": key, "label": label, "pdfs": pdfs, "pages": pages, "pages_passed": pages - failed,
            "retained": retained}
