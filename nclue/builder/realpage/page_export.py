"""RealPage's page text for an external retriever (``nclue export-pages --release v3 --packages DIR``;
docs/usage.md#score-your-retriever-on-realpage).

The release ships page hashes, not page text.  The text is read again from the pinned doc-rfc packages (each
checked against its SHA-256 first), split into pages by the builder's own rule (:mod:`.pages`), and every page
is checked against the SHA-256 ``data/v3/corpus.jsonl`` records for it before it is written: a page whose text
differs from the released one stops the export, naming the document, the page and both hashes.  Only the
packages that hold a released RFC are read, each once.
"""

from ...core import layout
from . import packages, settings
from . import pages as page_text

EVERY = 250         # a progress line per this many documents


class PageMismatch(settings.RealPageError):
    """A page read from the packages that is not the page the release records (its SHA-256 differs), or a
    document whose page count differs; the message names the document, the page and what was expected and
    found."""


def released_documents(inst):
    """``{package: [(number, docid, (page SHA-256, ...))]}`` of the release's corpus (``data/v3/corpus.jsonl``),
    by the package each RFC is read from, in document order."""
    out = {}
    for docid, source in sorted(inst.page_sources().items()):
        out.setdefault(source.package, []).append((settings.number_of(docid), docid, source.hashes))
    return out


def page_rows(inst, folder, progress=None):
    """The release's page text as export rows ``{docid, page, text, synthetic: false}`` (pages 1-based), in
    document and page order, each page checked against its released SHA-256; ``progress(line)`` hears one line
    per package read and one per :data:`EVERY` documents written."""
    wanted = released_documents(inst)
    done, total = 0, sum(len(docs) for docs in wanted.values())
    corpus_file = inst.spec.corpus
    by_docid = {}
    for k, package in enumerate(sorted(wanted), 1):
        path = packages.checked_path(folder, package)
        numbers = {number: docid for number, docid, _ in wanted[package]}
        if progress:
            progress("export-pages: reading %s (package %d of %d, %d documents)" % (
                package, k, len(wanted), len(numbers)))
        for number, kind, data in packages.read_package(path):
            if kind == "text" and number in numbers:
                by_docid[numbers[number]] = (package, data)
        missing = sorted(set(numbers.values()) - set(by_docid))
        if missing:
            raise PageMismatch("%s: %s is not in %s (its package in %s)" % (path, missing[0], package, corpus_file))
    documents = sorted((docid, number, released) for docs in wanted.values() for number, docid, released in docs)
    for docid, number, released in documents:
        package, data = by_docid.pop(docid)
        text = packages.rfc_text(data, "%s: rfc%d" % (package, number))
        found = page_text.split_pages(text)
        if len(found) != len(released):
            raise PageMismatch("%s: %s: %d pages read from %s, the release records %d" % (
                corpus_file, docid, len(found), package, len(released)))
        for i, (page, digest) in enumerate(zip(found, released), 1):
            got = page_text.page_sha256(page)
            if got != digest:
                raise PageMismatch("%s: %s page %d: sha256 expected %s (released), found %s (read from %s)" % (
                    corpus_file, docid, i, digest, got, package))
            yield {"docid": docid, "page": i, "text": page, "synthetic": False}
        done += 1
        if progress and (done % EVERY == 0 or done == total):
            progress("export-pages: %d of %d documents checked and written" % (done, total))


def export_folder_rows(root, folder, progress=None):
    """:func:`page_rows` of RealPage at ``root`` (the instrument opened on :data:`layout.REALPAGE`)."""
    from ...core.instrument import Instrument

    return page_rows(Instrument(root).release(layout.REALPAGE), folder, progress)
