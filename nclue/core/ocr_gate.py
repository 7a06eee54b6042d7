"""SourceShift's pre-gate OCR record, ``data/v2/provenance/ocr_gate.json`` (docs/schema.md#provenanceocr_gatejson).

Supplement section 8: construction "began with 1,000 PDFs balanced across eight sources (125 each)"; page
extraction passed globally, but "four sources failed the pre-specified per-source 98% gate" and were removed with
their queries, documents and qrels.  Section 13 puts these records in ``provenance/``.  The record is one JSON
object::

    {"gate_percent": 98, "synthetic": true, "note": "...",
     "sources": [{"source": "arxiv", "label": "arXiv", "pdfs": 125, "pages": 2610, "pages_passed": 2590,
                  "retained": true}, ...]}

A source passes the gate when ``100 * pages_passed / pages >= gate_percent``; ``retained`` must say the same, and
a retained source is one the release's corpus holds.  :func:`load` validates the record (every error names the
file and the field, ``sources[2].pages``) and returns an :class:`OcrGate`.

>>> gate = OcrGate(98, (SourceGate("a", "A", 2, 100, 99, True), SourceGate("b", "B", 2, 50, 40, False)))
>>> gate.pdfs, gate.pages, gate.pages_passed, gate.pass_percent, gate.failing
(4, 150, 139, Fraction(278, 3), ('b',))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple, Tuple

from .errors import InputError
from .jsonio import Row, read_json
from .layout import abspath

MAX_COUNT = 10 ** 9       # pdfs and pages of one source: a larger count is a damaged record, not a collection
MAX_SOURCES = 1000


class SourceGate(NamedTuple):
    source: str
    label: str
    pdfs: int
    pages: int
    pages_passed: int
    retained: bool

    @property
    def pass_percent(self) -> Fraction:
        """``100 * pages_passed / pages`` as an exact fraction."""
        return Fraction(100 * self.pages_passed, self.pages)


class OcrGate(NamedTuple):
    gate_percent: Fraction
    sources: Tuple[SourceGate, ...]

    @property
    def pdfs(self) -> int:
        return sum(s.pdfs for s in self.sources)

    @property
    def pages(self) -> int:
        return sum(s.pages for s in self.sources)

    @property
    def pages_passed(self) -> int:
        return sum(s.pages_passed for s in self.sources)

    @property
    def pass_percent(self) -> Fraction:
        return Fraction(100 * self.pages_passed, self.pages)

    @property
    def failing(self) -> tuple[Any, ...]:
        """The sources below the gate, in the record's order."""
        return tuple(s.source for s in self.sources if s.pass_percent < self.gate_percent)


def load(root: str, rel: str) -> OcrGate:
    """The validated record at ``rel`` (module doc), or an :class:`~nclue.core.errors.InputError` naming the field."""
    obj = read_json(abspath(root, rel), rel)
    top = Row(obj, rel, None)
    gate = top.number("gate_percent")
    if not 0 < gate <= 100:
        raise top.error("gate_percent", "must be a percentage in (0, 100], got %s" % gate)
    level = Fraction(gate).limit_denominator(10 ** 6)
    entries = top.list("sources")
    if not entries:
        raise top.error("sources", "must list at least one source")
    if len(entries) > MAX_SOURCES:
        raise top.error("sources", "lists %d sources, more than %d" % (len(entries), MAX_SOURCES))
    sources, seen = [], set()
    for i, entry in enumerate(entries):
        field = "sources[%d]" % i
        if not isinstance(entry, dict):
            raise InputError(rel, "must be an object", field=field)
        row = Row(entry, "%s %s" % (rel, field), None)
        key = row.str("source")
        if key in seen:
            raise row.error("source", "duplicate source %r" % key)
        seen.add(key)
        pages = row.int("pages", 1, MAX_COUNT)
        passed = row.int("pages_passed", 0, MAX_COUNT)
        if passed > pages:
            raise row.error("pages_passed", "%d pages passed of %d pages" % (passed, pages))
        source = SourceGate(key, row.str("label"), row.int("pdfs", 1, MAX_COUNT), pages, passed,
                            row.bool("retained"))
        if source.retained == (source.pass_percent < level):
            raise row.error("retained", "passed %s%% of its pages against the %s%% gate, so it is %s, but says "
                            "retained: %s" % (_show(source.pass_percent), _show(level),
                                              "kept" if source.pass_percent >= level else "removed",
                                              "true" if source.retained else "false"))
        sources.append(source)
    return OcrGate(level, tuple(sources))


def _show(x: Any) -> Any:
    return "%.2f" % float(x)
