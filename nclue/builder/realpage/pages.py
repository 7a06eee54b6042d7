"""An RFC's text as pages (docs/realpage.md#pages).

The text is NFKC-normalised (CRLF read as LF) and split at its form feeds; an empty last page is dropped.
On every page the trailing "[Page N]" footer is stripped, and on every page after the first the running
header ("RFC NNNN  title  date"); the rest is kept line for line, trailing spaces removed.  A page's SHA-256
(``data/v3/corpus.jsonl``) is that of its UTF-8 text after this.

>>> split_pages("RFC 1  Title\\nbody one\\n[Page 1]\\n\\fRFC 1  Title  1969\\nbody two\\n[Page 2]\\n\\f\\n")
['RFC 1  Title\\nbody one\\n\\n', '\\nbody two\\n\\n']
"""

import hashlib
import re
import unicodedata

FOOTER = re.compile(r"\[Page (\d+)\]\s*$", re.IGNORECASE)
HEADER = re.compile(r"^RFC \d+\s")
PRINTED_PAGE_LINES = 66     # a printed RFC page's lines at most (58 of text, a header, a footer and margins)


def raw_pages(text):
    """The NFKC-normalised pieces of one RFC text between its form feeds, an empty last piece dropped."""
    raw = unicodedata.normalize("NFKC", text.replace("\r\n", "\n")).split("\f")
    if raw and not raw[-1].strip():
        raw.pop()
    return raw


def has_footer(page):
    r"""Whether a raw page's last non-blank line ends in "[Page N]".

    >>> has_footer("text\nAuthor   [Page 3]\n\n"), has_footer("[Page 3] is cited\nmore\n")
    (True, False)
    """
    lines = [line for line in page.split("\n") if line.strip()]
    return bool(lines) and bool(FOOTER.search(lines[-1].rstrip()))


def split_pages(text):
    """The pages of one RFC text (see the module docstring)."""
    pages = []
    for i, page in enumerate(raw_pages(text)):
        body = [line.rstrip() for line in page.split("\n")]
        nonblank = [j for j, line in enumerate(body) if line.strip()]
        if nonblank and FOOTER.search(body[nonblank[-1]]):
            body[nonblank[-1]] = ""
        if i > 0 and nonblank and HEADER.match(body[nonblank[0]].strip()):
            body[nonblank[0]] = ""
        pages.append("\n".join(body))
    return pages


def page_sha256(page):
    """The SHA-256 of one page's UTF-8 text, as ``data/v3/corpus.jsonl`` records it.

    >>> page_sha256("")[:16]
    'e3b0c44298fc1c14'
    """
    return hashlib.sha256(page.encode("utf-8")).hexdigest()


def paginated(pages):
    r"""Whether an RFC's text has pages: more than one, or one no longer than a printed page
    (:data:`PRINTED_PAGE_LINES` lines).  The RFCs published from 8650 on (and a few early ones) are one unbroken
    text; they are not sampled (docs/realpage.md#which-rfcs).

    >>> paginated(["a\n" * 60]), paginated(["a\n" * 600]), paginated(["a\n" * 600, "b"])
    (True, False, True)
    """
    return len(pages) > 1 or (bool(pages) and len(pages[0].split("\n")) <= PRINTED_PAGE_LINES)

