"""The RealPage census: how well the final copy's labels hold as a careful reader reads the queries.

    python tools/realpage_census.py [--data ROOT] [--packages DIR] [--json OUT]

It rebuilds the sampled RFCs' pages from the pinned doc-rfc packages (docs/realpage.md#pages, with code of its
own; every page is checked against the hash ``data/v3/corpus.jsonl`` records), reads every judged (query, RFC)
pair of the final copy (``qrels.jsonl`` over the queries ``genealogy.json`` does not remove) the way
docs/realpage.md#what-the-labels-mean says a reader should, and measures:

- gold precision as the query reads: of the gold pairs (grade n), the share whose RFC holds every condition as
  read, with a 95% Wilson interval;
- the strict subset error: of the subset pairs (0 < grade < n), the share whose RFC holds every condition as
  read, an acronym held only in the label's own sense (and the loose error, any sense of the acronym);
- gold conditions that fail, by kind; golds and subsets per query beside the paper's Table 1 (2.18 and 48.8); the
  queries decided by one condition; the RFC gold in the most queries; the most-used gold RFCs and conditions;
- diagnostics: the subsets that hold no condition as read, and how many of the inventory's facts the reader finds;
- every failing pair with a short explanation (the first 30 of each kind in the JSON output), and the two
  headline figures again under each alternative reading listed below (every RFC read again under it), so that
  each choice can be seen to matter or not.

It is written apart from the builder: standard library only, nothing imported from ``nclue``, the documentation's
words as its specification.  ``ROOT`` is the repository (``data/v3`` under it) or the v3 folder itself; ``DIR``
defaults to ``$NCLUE_REALPAGE_PACKAGES``, else ``~/.cache/nclue/doc-rfc-20230121-1``.  Without the packages it
exits 2 and names the missing files.

How it reads an RFC (docs/realpage.md, "What the labels mean", as revised to state the rule completely), and the
choices made where the words still leave room (``variant`` names an alternative reading that is measured too):

Regions.  Page 1 is the title page; the pages after it are the body.  Lines are read, not pages: the lines that
share a page with the end of the contents, or with the start of the references, are read (``variant
whole_body_pages`` reads only whole pages outside both).
  The contents: a title line, "Table of Contents" or "Contents" alone on a line, on one of the first 8 pages.
Its entries are lines that give a number, a title and, after leader dots or two spaces, a page number; an
unnumbered entry is a title and, after leader dots or two spaces, a page number.  The contents run from the title
line over the following pages while each lists a numbered entry (at most 6 pages in all); on each page they end
at the last numbered entry and the unnumbered entries that follow it, blank lines between.
  * CHOICE: the title line is compared without case, and may end in ":" ("TABLE OF CONTENTS", "Contents:").  The
    first such line counts that is followed by a numbered entry on its page or the next (a title line at the foot
    of a page).  Leader dots are two or more dots (spaces between allowed), or one dot between spaces ("QoS .
    14"); a page number is arabic (1-4 digits): the docs name no roman page numbers.
  * CHOICE (as before): an entry's number is a section number (below) and its title any text: the capital letter
    the docs ask of a title is said of headings, and the contents of rfc1327 and rfc2156 read "3.1        -
    Notation ...... 24" (the title "- Notation" folds to "notation").
  * CHOICE (the docs' words: an entry is a line "that give[s] ... a page number"): a numbered line without a page
    number is no entry, so contents without page numbers (the RFCs from about 8650 on) are no contents: they
    confirm no heading and their lines are read as text (``variant toc_without_page_numbers`` reads them as
    contents: indented numbered lines, short indented unnumbered ones and wrapped titles after the title line).
    A numbered entry whose title wraps, the page number on its second line, lists no number
    (``variant wrapped_contents_entries`` joins the two lines into one entry).
  The references: from the first left-margin line outside the contents whose title, with or without a section
number, is one of References, Normative References, Informative References, Bibliography, Author's Address,
Authors' Addresses or Editor's Address.  Nothing after that line is read.
  * CHOICE: the title is compared without case or white space, a final "." or ":" dropped, a typographic
    apostrophe read as "'"; no other title starts them ("Author's Addresses", "Authors Addresses", "Authors'
    Contact Information", "Reference": ``variant references_titles_widened`` takes the first reading's wider list).
  * CHOICE (the docs' words, "Appendices printed after the references are not read"): ``variant
    appendices_after_references`` reads them.

Sections.  A section number is digits ("3", "3.1"), a capital letter with its dot ("A.", "B.2") or "Appendix"
and a letter ("Appendix C", "Appendix B.2"); then an optional "." or ":", white space and the title, which starts
with a capital letter.  A heading is such a line at the left margin outside the contents; when the line is at
least 50 characters long and the next line is indented, the joined title is read too (CHOICE: a wrapped heading).
The RFC holds a section condition when such a heading lies on the body (not the title page, the contents or the
references), its title equals the label folded, and the contents list the same number (compared without
"Appendix" and a final "." or ":") with an agreeing title, on any page: the page is not compared (``variant
same_page_required`` asks for the heading's printed page, read off its "[Page N]" footer, or its position).
Titles are folded: lower case; a possessive "'s" dropped; every run of characters other than a-z and 0-9 one
space; each word singular ("-ies" to "-y" in a word of five letters or more; a final "s" dropped from a word of
four letters or more not ending in "ss", "us" or "is").  So "Offer/Answer" is "Offer-Answer" and "Server's
Behavior" is "Server Behavior" (``variant titles_strict``: the first reading, which folds only case, white space,
a final "." or ":" and plural words).
  * CHOICE (the docs' words taken literally, "the two agree when one starts with the first 20 characters of the
    other"): a contents title agrees with a heading's when either folded title starts with the other's first 20
    characters, so a title under 20 characters agrees with any title it starts (``variant
    contents_title_first_20_equal`` compares the two titles' first 20 characters instead).
  * CHOICE: "Appendix" is written so; roman numerals are no section number (``variant roman_section_numbers``
    reads "IV." as one).  An unnumbered heading never holds a section condition.

Defined acronyms ("Long Form (ACR)", from the label).  An acronym is written with at least two capitals, of up to
nine letters and digits; a final lower-case "s" or "es" is a plural ("(UAs)" defines UA, "(ASes)" AS).  Long forms
are folded: case, hyphens as spaces, double quotes dropped, white space, and each word's plural as in titles;
they may differ from the label's by one edit per 8 characters of the folded label (CHOICE: at least one).  A long
form is words whose initials spell the acronym, one word for each letter or digit (CHOICE: the docs' "one to eight
words" read so): runs of letters and digits separated by spaces or hyphens, any other character ending a word and
the long form ("Frame Relay/Asynchronous Transfer Mode (ATM)" defines ATM).  "Pseudorandom Function (PRF)",
"Dual-Tone Multifrequency (DTMF)" and "the following type/length/value (TLV)" define nothing, though each is
within the edit bound of a label.  The forms read:
  1. "... Long Form (ACR)": the words just before the parentheses end with the long form (starting after a
     non-letter: "/Label Switching Router (LSRs)"), spaces inside the parentheses allowed; the paragraph is read
     joined, so a definition may wrap lines (CHOICE);
  2. "ACR (Long Form ...)": the acronym as a word (CHOICE: or the last part of "inter-AS", "MTA/MDA"), then
     parentheses that start with the long form (a leading "the", "a" or "an" skipped; nested parentheses read);
  3. a glossary line: at the start of a line (an indent and a bullet "o", "-", "*" or "+" allowed) the acronym,
     then ":", "=", " - " or " -- ", then the long form (an article skipped); or the acronym and ":" alone, the
     long form on the next line;
  4. a listed line: the acronym at the start of a line, two or more spaces, the long form, under a numbered
     heading whose title names terminology, terms, abbreviations, acronyms, definitions, a glossary or notation,
     or under a heading numbered below one ("2.1" under "2."), until the next numbered heading outside it.
  They are read on the title page and the body (``variant no_title_page`` leaves the title page out), never in
  the contents or the references, never on a column line (three spaces or more between two of its words, other
  than the gap right after its first word, a bullet aside) nor on a table page (at least half of its non-blank
  lines column lines).
  * CHOICE: a listed line, too, may have an indent and a bullet; a glossary or listed line's long form runs on
    to the next line when that line is indented (a wrapped entry).
  * CHOICE: a heading or a centred title is running prose ("3.  Domain Name System (DNS)" defines DNS).
  * CHOICE: "the next heading outside it" is the next numbered heading (the docs' headings are numbered);
    ``variant unnumbered_glossary_headings`` also opens a scope at an unnumbered "Glossary" or "Terminology"
    line, until the next heading.
  * CHOICE: only the forms above count: 'the "Domain Name System" (DNS)' does (quotes dropped), "(PSTN )" does,
    "Domain Name System protocol (DNS)" does not (the long form must end at the parentheses), nor does a leader
    of dashes before the parentheses ("Internet Control Message Protocol  ------- (ICMP)", rfc1011's protocol
    list).  A definition split by a page break is not read.
  * CHOICE: a column line's words are any runs of non-blank characters, leader dots too, and a page's non-blank
    lines are all of its lines, the contents' too: a title page whose contents lines ("1.  Additional LCP
    Packets ......    1") are half its lines is a table page (rfc1570, rfc1255).

Loose subset error: an acronym condition also counts as held when the RFC defines the acronym in any sense (a
form above whose long form's initials spell the acronym, whatever the long form).

"Decided by one condition": some condition's holder set among the query's judged RFCs, as read, equals the
query's labelled gold set.

RFC texts without pages (one page of more than 66 lines) are not sampled (docs/realpage.md#which-rfcs; the
release's one-page RFCs have at most 61 lines), so the first reading's one-page special case is gone.
"""

import argparse
import difflib
import gzip
import hashlib
import io
import json
import lzma
import math
import os
import re
import sys
import tarfile
import unicodedata
from collections import Counter, defaultdict

VERSION = "20230121-1"
PACKAGE_NAMES = ("doc-rfc-experimental", "doc-rfc-fyi-bcp", "doc-rfc-informational", "doc-rfc-misc",
                 "doc-rfc-old-std", "doc-rfc-others", "doc-rfc-std", "doc-rfc-std-proposed")
TABLE1_GOLDS_PER_QUERY = 2.18
TABLE1_SUBSETS_PER_QUERY = 48.8
SHOW = 30

VARIANTS = ("same_page_required", "titles_strict", "contents_title_first_20_equal", "toc_without_page_numbers",
            "wrapped_contents_entries", "whole_body_pages", "appendices_after_references",
            "references_titles_widened", "roman_section_numbers", "unnumbered_glossary_headings", "no_title_page")


# --- the packages and the page rule (docs/realpage.md#pages) ----------------------------------------------------

def default_packages():
    return os.environ.get("NCLUE_REALPAGE_PACKAGES") or os.path.join(os.path.expanduser("~"), ".cache", "nclue",
                                                                      "doc-rfc-" + VERSION)


def deb_file(package):
    return f"{package}_{VERSION}_all.deb"


def missing_packages(folder, names=PACKAGE_NAMES):
    """The ``.deb`` files of ``names`` that are not in ``folder``."""
    return [deb_file(name) for name in sorted(names) if not os.path.isfile(os.path.join(folder, deb_file(name)))]


def ar_members(blob):
    """An ``ar`` archive's members: the 8-byte magic, then 60-byte headers (name 0-16, size 48-58), data padded
    to an even length."""
    if blob[:8] != b"!<arch>\n":
        raise ValueError("not an ar archive")
    out, pos = {}, 8
    while pos + 60 <= len(blob):
        header = blob[pos:pos + 60]
        name = header[:16].decode("ascii", "replace").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip())
        out[name] = blob[pos + 60:pos + 60 + size]
        pos += 60 + size + size % 2
    return out


RFC_MEMBER = re.compile(r"rfc(\d+)\.txt(\.gz)?")


def package_texts(path, wanted):
    """``{docid: text}`` for the wanted docids among the package's regular ``rfcN.txt(.gz)`` members (gunzipped
    or read as they are; UTF-8, a bad byte to U+FFFD)."""
    with open(path, "rb") as handle:
        members = ar_members(handle.read())
    out = {}
    with tarfile.open(fileobj=io.BytesIO(lzma.decompress(members["data.tar.xz"])), mode="r:") as archive:
        for member in archive:
            if not member.isfile():
                continue
            match = RFC_MEMBER.fullmatch(member.name.rsplit("/", 1)[-1])
            docid = f"rfc{int(match.group(1)):04d}" if match else None
            if docid in wanted:
                data = archive.extractfile(member).read()
                if match.group(2):
                    data = gzip.decompress(data)
                out[docid] = data.decode("utf-8", errors="replace")
    return out


FOOTER_RE = re.compile(r"\[Page (\d+)\]\s*$", re.IGNORECASE)
HEADER_RE = re.compile(r"^RFC \d+\s")


def split_pages(text):
    """``(pages, printed numbers)``: the page rule's pages, and each page's footer number (None without one).

    >>> split_pages("RFC 1  T\\nbody\\n[Page 1]\\fRFC 1  T  1969\\nmore\\n\\f\\n")
    (['RFC 1  T\\nbody\\n', '\\nmore\\n'], [1, None])
    """
    text = unicodedata.normalize("NFKC", text.replace("\r\n", "\n"))
    pieces = text.split("\f")
    if pieces[-1].strip() == "":
        pieces.pop()
    pages, numbers = [], []
    for index, piece in enumerate(pieces):
        lines = [line.rstrip() for line in piece.split("\n")]
        filled = [i for i, line in enumerate(lines) if line.strip()]
        number, empty = None, []
        if filled:
            footer = FOOTER_RE.search(lines[filled[-1]])
            if footer:
                number = int(footer.group(1))
                empty.append(filled[-1])
            if index > 0 and HEADER_RE.match(lines[filled[0]].lstrip()):
                empty.append(filled[0])
        for i in empty:
            lines[i] = ""
        pages.append("\n".join(lines))
        numbers.append(number)
    return pages, numbers


def page_sha256(page):
    return hashlib.sha256(page.encode("utf-8")).hexdigest()


# --- folding --------------------------------------------------------------------------------------------------

def _stem(word):
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def fold_phrase(text):
    """A long form folded: case, hyphens as spaces, double quotes dropped, white space, each word's plural.

    >>> fold_phrase('User-Agents  "Policies"'), fold_phrase("Access Class")
    ('user agent policy', 'access class')
    """
    text = text.lower().replace("-", " ").replace('"', "").replace("`", "")
    text = re.sub(r"[a-z0-9]+", lambda m: _stem(m.group()), text)
    return " ".join(text.split())


def edit_bound(folded):
    """One edit per 8 characters of the folded long form, at least one."""
    return max(1, len(folded) // 8)


def _levenshtein_rows(pattern, text):
    """The last row of the edit-distance table of ``pattern`` against each prefix of ``text``."""
    previous = list(range(len(text) + 1))
    for i, char in enumerate(pattern, 1):
        current = [i]
        for j, other in enumerate(text, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other)))
        previous = current
    return previous


def suffix_distance(pattern, text):
    """The least edit distance between ``pattern`` and a suffix of ``text`` that starts a word (after a character
    that is not a letter or digit).

    >>> suffix_distance("domain name system", "the domain name systems")
    1
    >>> suffix_distance("domain name system", "a subdomain name system")
    3
    """
    keep = len(pattern) + edit_bound(pattern) + 2
    start = max(0, len(text) - keep)
    row = _levenshtein_rows(pattern[::-1], text[start:][::-1])
    best = None
    for length, distance in enumerate(row):
        begin = len(text) - length
        if begin == 0 or not text[begin - 1].isalnum():
            best = distance if best is None else min(best, distance)
    return best if best is not None else len(pattern) + 1


def prefix_distance(pattern, text):
    """The least edit distance between ``pattern`` and a prefix of ``text`` that ends a word.

    >>> prefix_distance("domain name system", "domain name system, a tree"), prefix_distance("ab", "abc")
    (0, 1)
    """
    segment = text[:len(pattern) + edit_bound(pattern) + 2]
    row = _levenshtein_rows(pattern, segment)
    best = None
    for end, distance in enumerate(row):
        if end == len(text) or not text[end].isalnum():
            best = distance if best is None else min(best, distance)
    return best if best is not None else len(pattern) + 1


def fold_title(title):
    """A section title folded as the docs say: lower case; a possessive "'s" dropped; every run of characters
    other than a-z and 0-9 one space; each word singular ("-ies" to "-y" in a word of 5 letters or more, a final
    "s" dropped from a word of 4 letters or more not ending in "ss", "us" or "is").

    >>> fold_title("Offer/Answer  Examples."), fold_title("Server's Behavior"), fold_title("IANA Policies")
    ('offer answer example', 'server behavior', 'iana policy')
    >>> fold_title("Status of This Memo"), fold_title("Bus Addresses"), fold_title("Flies"), fold_title("Ties")
    ('status of this memo', 'bus addresse', 'fly', 'tie')
    """
    text = re.sub(r"['\u2019]s\b", "", title.lower())
    return " ".join(_stem(word) for word in re.sub(r"[^a-z0-9]+", " ", text).split())


def _title_words(title, punctuation=False):
    text = " ".join(title.split()).lower()
    text = re.sub(r"[\s.:]+$", "", text)
    if punctuation:
        text = re.sub(r"[^a-z0-9]+", " ", text)
    return text.split()


def _same_word(one, two):
    if one == two:
        return True
    for a, b in ((one, two), (two, one)):
        if b in (a + "s", a + "es") or (a.endswith("y") and b == a[:-1] + "ies"):
            return True
    return False


def same_title_strict(one, two):
    """The first reading (``variant titles_strict``): case, white space, a final "." or ":" and plural words
    folded, no other punctuation.

    >>> same_title_strict("Example.", "examples"), same_title_strict("A-B", "A B")
    (True, False)
    """
    a, b = _title_words(one), _title_words(two)
    return len(a) == len(b) and all(_same_word(x, y) for x, y in zip(a, b))


def _cut_short_strict(toc_title, heading_title):
    """The first reading of a cut-short contents title: the shorter has 20 characters or more and starts the
    longer."""
    toc = " ".join(_title_words(toc_title))
    head = " ".join(_title_words(heading_title))
    shorter, longer = sorted((toc, head), key=len)
    return len(shorter) >= 20 and longer.startswith(shorter)


def titles_agree(label, title, variant=None):
    """A heading's title is the label's: equal folded.

    >>> titles_agree("Offer-Answer Model", "Offer/Answer Model"), titles_agree("Security", "Security Considerations")
    (True, False)
    >>> titles_agree("Offer-Answer Model", "Offer/Answer Model", "titles_strict")
    False
    """
    if variant == "titles_strict":
        return same_title_strict(label, title)
    return fold_title(label) == fold_title(title)


def contents_agree(toc_title, heading_title, variant=None):
    """The contents' title and the heading's agree: folded, one starts with the first 20 characters of the other
    (the docs' words: "a contents title may be cut short").  ``contents_title_first_20_equal`` compares the two
    first 20 characters instead; ``titles_strict`` is the first reading.

    >>> contents_agree("Information and Data Models (e.g., MIB Module)", "Information and Data Models")
    True
    >>> contents_agree("Security", "Security Considerations")          # the words, taken literally
    True
    >>> contents_agree("Security", "Security Considerations", "contents_title_first_20_equal")
    False
    """
    if variant == "titles_strict":
        return same_title_strict(toc_title, heading_title) or _cut_short_strict(toc_title, heading_title)
    a, b = fold_title(toc_title), fold_title(heading_title)
    if variant == "contents_title_first_20_equal":
        return a[:20] == b[:20]
    return a.startswith(b[:20]) or b.startswith(a[:20])


# --- the reader ------------------------------------------------------------------------------------------------

# a section number: digits, a capital letter with its dot, or "Appendix" and a letter (roman numerals only in the
# variant); then an optional "." or ":", white space and a title that starts with a capital letter
NUM = r"(?:Appendix\s+[A-Z](?:\.\d+)*|[A-Z]\.(?:\d+(?:\.\d+)*)?|\d+(?:\.\d+)*)"
ROMAN_NUM = r"(?:[IVX]+\.|" + NUM + ")"
LEADER = r"(?:\s*(?:\.\s?){2,}\s*|\s+\.\s+|\s{2,})"
UNNUMBERED_ENTRY_RE = re.compile(r"^(?P<title>\S.*?)" + LEADER + r"(?P<page>\d{1,4})$")
TOC_TITLE_RE = re.compile(r"^(?:table\s+of\s+contents|contents)\s*:?$", re.IGNORECASE)
TOC_TITLE_PAGES = 8
TOC_MAX_PAGES = 6
REFS_TITLES = frozenset(("references", "normative references", "informative references", "bibliography",
                         "author's address", "authors' addresses", "editor's address"))
REFS_TITLE_WIDE_RE = re.compile(
    r"^(?:(?:normative|informative|non normative|informational|general|other|additional|cited)\s+)*"
    r"(?:references?|bibliography)(?:\s+and\s+(?:notes|bibliography|footnotes))?$"
    r"|^notes\s+and\s+references$"
    r"|^(?:authors?|editors?|authorss|editorss)\s+(?:address(?:es)?|contact\s+information|information)$"
    r"|^addresses\s+of\s+(?:the\s+)?authors?$")
APPENDIX_RE = re.compile(r"^(?:Appendix\b|APPENDIX\b|[A-Z]\.(?:\d+\.?)*\s+\S)")
GLOSSARY_RE = re.compile(r"\b(?:terminology|terms?|abbreviations?|acronyms?|definitions?|glossary|notations?)\b")
GAP_RE = re.compile(r"(?<=\S) {3,}(?=\S)")
BULLET_RE = re.compile(r"^[o*+\-]\s+(?=\S)")
BULLET = r"(?:[o*+\-]\s+)?"
ACR = r"[A-Za-z0-9]+"
TOKEN = r"[A-Za-z0-9][A-Za-z0-9/&+._'\-]*[A-Za-z0-9+']"
PAREN_RE = re.compile(r"\(\s*(" + ACR + r")\s*\)")
REVERSED_RE = re.compile(r"(?<![A-Za-z0-9_\-])(" + TOKEN + r")\s?(?=\(([^()]*)(\)?))")
GLOSSARY_LINE_RE = re.compile(r"^\s*(?P<bullet>" + BULLET + r")(?P<acr>" + ACR + r")(?P<sep>\s*[:=]\s*|\s+--?\s+)"
                              r"(?P<rest>.*)$")
LISTED_LINE_RE = re.compile(r"^\s*(?P<bullet>" + BULLET + r")(?P<acr>" + ACR + r") {2,}(?P<rest>\S.*)$")



def norm_num(num):
    """A section number compared: "Appendix " and a final "." or ":" dropped ("Appendix B.2." is "B.2")."""
    num = re.sub(r"^appendix\s+", "", num.strip(), flags=re.IGNORECASE)
    return num.rstrip(".:").upper()


def refs_title(text, variant=None):
    """Whether a left-margin line's title (with or without a section number) starts the references: one of the
    docs' seven titles, compared without case, white space or a final "." or ":" (``references_titles_widened``:
    the first reading's wider list: "Reference", "Authors Addresses", "Authors' Contact Information" and the like).

    >>> refs_title("11.  Normative References"), refs_title("Appendix B.2.  Authors' Addresses")
    (True, True)
    >>> refs_title("Author's Addresses"), refs_title("Author's Addresses", "references_titles_widened")
    (False, True)
    """
    stripped = text.strip()
    number = ROMAN_NUM if variant == "roman_section_numbers" else NUM
    match = re.match(r"^" + number + r"[.:]?\s+(?P<title>\S.*)$", stripped)
    title = match.group("title") if match else stripped
    if variant == "references_titles_widened":
        folded = " ".join(re.sub(r"['\u2019]", "", title).lower().replace("-", " ").split()).rstrip(".: ")
        return bool(REFS_TITLE_WIDE_RE.match(folded))
    folded = " ".join(title.replace("\u2019", "'").lower().split()).rstrip(".:").rstrip()
    return folded in REFS_TITLES


def acronym_keys(token):
    """The acronyms a token names: itself, and without a final lower-case plural "s" or "es"; each written with
    at least two capitals, of up to nine letters and digits.

    >>> sorted(acronym_keys("UAs")), sorted(acronym_keys("ASes")), sorted(acronym_keys("DNS")), acronym_keys("Dns")
    (['UA', 'UAS'], ['AS', 'ASE', 'ASES'], ['DNS'], set())
    """
    keys = set()
    for form in (token, token[:-1] if token.endswith("s") else "", token[:-2] if token.endswith("es") else ""):
        if form and len(form) <= 9 and sum(c.isupper() for c in form) >= 2 and form.isalnum():
            keys.add(form.upper())
    return keys


def initials_spell(acronym, text, at_end):
    """Whether a long form's initials spell the acronym.  A long form is words (runs of letters and digits,
    separated by spaces or hyphens; any other character ends a word and is not part of the long form), one word
    for each letter or digit of the acronym: the last words of ``text`` (``at_end``: before "(ACR)", a closing
    quote allowed) or its first (an opening quote allowed).

    >>> initials_spell("DOS", "of the denial-of-service", True), initials_spell("PRF", "a Pseudorandom Function", True)
    (True, False)
    >>> initials_spell("TLV", "the following type/length/value", True), initials_spell("IP", "Internet Protocol, v4", False)
    (False, True)
    >>> initials_spell("ATM", "Frame Relay/Asynchronous Transfer Mode", True), initials_spell("DNS", 'the "Domain Name System"', True)
    (True, True)
    """
    letters = [c for c in acronym.upper() if c.isalnum()]
    if at_end:
        match = re.search(r"[A-Za-z0-9]+(?:[\s\-]+[A-Za-z0-9]+)*$", text.rstrip().rstrip("\"'\u201d").rstrip())
    else:
        match = re.match(r"[A-Za-z0-9]+(?:[\s\-]+[A-Za-z0-9]+)*", text.lstrip().lstrip("\"'\u201c").lstrip())
    words = re.split(r"[\s\-]+", match.group()) if match else []
    words = words[-len(letters):] if at_end else words[:len(letters)]
    return len(words) == len(letters) and all(w[0].upper() == c for w, c in zip(words, letters))


class Entry:
    """One contents entry: normalised number (None when unnumbered), title, page (None without one)."""

    def __init__(self, num, title, page, indent=0):
        self.num, self.title, self.page, self.indent = num, title, page, indent


class Document:
    """One RFC as the reader reads it.  ``pages`` are the page rule's pages; ``numbers`` their printed
    numbers (the "[Page N]" footers; None: the piece's position is used); ``variant`` one of :data:`VARIANTS`
    (None: the docs' reading)."""

    def __init__(self, pages, numbers=None, variant=None):
        if variant is not None and variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}")
        self.variant = variant
        self.pages = list(pages)
        self.numbers = list(numbers) if numbers is not None else [None] * len(self.pages)
        self.lines = [(p, text) for p, page in enumerate(self.pages) for text in page.split("\n")]
        self.page_lines = defaultdict(list)
        for i, (page, _) in enumerate(self.lines):
            self.page_lines[page].append(i)
        number = ROMAN_NUM if variant == "roman_section_numbers" else NUM
        self.heading_re = re.compile(r"^(?P<num>" + number + r")[.:]?\s+(?P<title>[A-Z].*)$")
        self.entry_re = re.compile(r"^(?P<num>" + number + r")[.:]?\s+(?P<title>\S.*?)" + LEADER +
                                   r"(?P<page>\d{1,4})$")
        self.pageless_re = re.compile(r"^(?P<num>" + number + r")[.:]?\s+(?P<title>\S.*)$")
        self._contents()
        self._tidy_entries()
        self._regions()
        self._page_flags()
        self._headings()
        self._definitions()

    @classmethod
    def from_text(cls, text, variant=None):
        return cls(*split_pages(text), variant=variant)

    def read_as(self, variant):
        """The same RFC read under another reading."""
        return Document(self.pages, self.numbers, variant)

    def printed(self, page):
        number = self.numbers[page]
        return number if number is not None else page + 1

    # -- the table of contents ---------------------------------------------------------------------------------

    def _entry(self, i):
        """``("num", Entry)``, ``("unnum", Entry)`` or None: line ``i`` as a contents entry (a number, a title and,
        after leader dots or two spaces, a page number; or a title and a page number without a number)."""
        text = self.lines[i][1]
        stripped = text.strip()
        if not stripped:
            return None
        indent = len(text) - len(stripped)
        match = self.entry_re.match(stripped)
        if match:
            return "num", Entry(norm_num(match.group("num")), match.group("title"), int(match.group("page")), indent)
        match = UNNUMBERED_ENTRY_RE.match(stripped)
        if match:
            return "unnum", Entry(None, match.group("title"), int(match.group("page")), indent)
        return None

    def _kinds(self, page):
        """Each line of a page as a contents entry (``wrapped_contents_entries``: a numbered line without a page
        number and the next, more indented line that ends with one make one numbered entry)."""
        lines = self.page_lines.get(page, [])
        kinds = {i: self._entry(i) for i in lines}
        if self.variant == "wrapped_contents_entries":
            for i in lines:
                text = self.lines[i][1]
                nopage = self.pageless_re.match(text.strip()) if kinds[i] is None and text[:1].isspace() else None
                following = kinds.get(i + 1)
                if nopage and following and following[0] == "unnum" and \
                        following[1].indent > len(text) - len(text.lstrip()):
                    kinds[i + 1] = ("num", Entry(norm_num(nopage.group("num")), nopage.group("title").strip() + " " +
                                                 following[1].title, following[1].page, following[1].indent))
        return kinds

    def _contents(self):
        """The contents (the docs' words): a title line ("Table of Contents", "Contents") on one of the first 8
        pages; on its page and each following page that lists a numbered entry (at most 6 pages in all), the
        lines up to the last numbered entry and the unnumbered entries that follow it, blank lines between."""
        self.toc_lines, self.entries = set(), []
        kinds = {}
        start = None
        for i, (page, text) in enumerate(self.lines):
            if page >= TOC_TITLE_PAGES:
                break
            if TOC_TITLE_RE.match(text.strip()):
                for p in (page, page + 1):
                    if p not in kinds:
                        kinds[p] = self._kinds(p)
                if any(k and k[0] == "num" and j > i for p in (page, page + 1) for j, k in kinds[p].items()):
                    start = i
                    break
        if start is None:
            if self.variant == "toc_without_page_numbers":
                self._contents_without_pages()
            return
        first_page = self.lines[start][0]
        page, first = first_page, start
        while page < len(self.pages) and page - first_page < TOC_MAX_PAGES:
            if page not in kinds:
                kinds[page] = self._kinds(page)
            lines = [i for i in self.page_lines[page] if i >= first]
            numbered = [i for i in lines if kinds[page][i] and kinds[page][i][0] == "num"]
            if not numbered:
                if page != first_page:
                    break
                self.toc_lines.add(start)
            else:
                end = numbered[-1]
                for i in lines:
                    if i <= end:
                        continue
                    if not self.lines[i][1].strip():
                        continue
                    if kinds[page][i] and kinds[page][i][0] == "unnum":
                        end = i
                        continue
                    break
                for i in lines:
                    if i <= end:
                        self.toc_lines.add(i)
                        if kinds[page][i]:
                            self.entries.append(kinds[page][i][1])
            page += 1
            first = self.page_lines[page][0] if page in self.page_lines else len(self.lines)

    def _contents_without_pages(self):
        """``toc_without_page_numbers``: a title line on one of the first 8 pages followed by indented numbered
        lines without page numbers (the newer RFCs); the run lasts while its lines are indented numbered entries,
        short indented unnumbered ones or the wrapped rest of an entry (at most 6 pages)."""
        for i, (page, text) in enumerate(self.lines):
            if page >= TOC_TITLE_PAGES:
                return
            if TOC_TITLE_RE.match(text.strip()):
                break
        else:
            return
        start, first_page, current = i, page, None
        self.toc_lines.add(start)
        for j in range(start + 1, len(self.lines)):
            page, text = self.lines[j]
            if page - first_page >= TOC_MAX_PAGES:
                break
            stripped = text.strip()
            if not stripped:
                continue
            indent = len(text) - len(stripped)
            if indent == 0:
                break
            leader = self._entry(j)
            numbered = self.pageless_re.match(stripped)
            if leader:
                current = leader[1]
            elif numbered:
                current = Entry(norm_num(numbered.group("num")), numbered.group("title"), None, indent)
            elif current is not None and indent > current.indent and current.num is not None:
                current.title += " " + stripped
                self.toc_lines.add(j)
                continue
            elif len(stripped.split()) <= 8 and stripped[0].isupper() and not stripped.endswith((".", ",", ";", ":")):
                current = Entry(None, stripped, None, indent)
            else:
                break
            self.entries.append(current)
            self.toc_lines.add(j)
        if not any(entry.num for entry in self.entries):
            self.toc_lines, self.entries = set(), []

    def _tidy_entries(self):
        for entry in self.entries:
            entry.title = re.sub(r"(?:\s*\.)+$", "", " ".join(entry.title.split()))
        self.by_num = defaultdict(list)
        for entry in self.entries:
            if entry.num is not None:
                self.by_num[entry.num].append(entry)

    # -- regions -------------------------------------------------------------------------------------------------

    def _regions(self):
        """Each line's region: toc (the contents), refs (from the references on), appendix (in the variant
        ``appendices_after_references``, an appendix printed after the references), title (page 1), body."""
        self.refs_first = None
        for i, (_, text) in enumerate(self.lines):
            if i not in self.toc_lines and text and not text[0].isspace() and refs_title(text, self.variant):
                self.refs_first = i
                break
        self.region = []
        state = None
        for i, (page, text) in enumerate(self.lines):
            if self.refs_first is not None and i >= self.refs_first:
                if state is None:
                    state = "refs"
                elif self.variant == "appendices_after_references" and text and not text[0].isspace():
                    if refs_title(text, self.variant):
                        state = "refs"
                    elif APPENDIX_RE.match(text):
                        state = "appendix"
            if i in self.toc_lines:
                self.region.append("toc")
            elif state is not None:
                self.region.append(state)
            elif page == 0:
                self.region.append("title")
            else:
                self.region.append("body")
        self.refs_page = self.lines[self.refs_first][0] if self.refs_first is not None else len(self.pages)
        self.toc_pages = {self.lines[i][0] for i in self.toc_lines}

    def _page_flags(self):
        """Column lines (three spaces or more between two words, other than the gap right after the first word,
        a bullet aside) and table pages (at least half the non-blank lines column lines)."""
        self.column = []
        per_page = defaultdict(lambda: [0, 0])
        for page, text in self.lines:
            stripped = text.strip()
            rest = BULLET_RE.sub("", stripped) if len(stripped) > 2 else stripped
            first = rest.split(None, 1)[0] if rest else ""
            column = any(gap.start() != len(first) for gap in GAP_RE.finditer(rest))
            self.column.append(column)
            if stripped:
                per_page[page][0] += 1
                per_page[page][1] += column
        self.table_page = {page for page, (filled, columns) in per_page.items() if columns * 2 >= filled}

    def whole_body_page(self, page):
        """``whole_body_pages``: after the title page, not a contents page, before the page where the references
        start."""
        return 0 < page < self.refs_page and page not in self.toc_pages

    # -- headings ------------------------------------------------------------------------------------------------

    def _headings(self):
        """Numbered left-margin headings outside the contents, and each line's glossary scope: under a numbered
        heading whose title names terminology (or a heading numbered below it) until the next numbered heading
        outside it (``unnumbered_glossary_headings``: also under an unnumbered "Glossary" line until the next
        heading)."""
        self.headings, self.glossary = [], []
        scope = None
        previous_blank = True
        for i, (page, text) in enumerate(self.lines):
            region = self.region[i]
            left = bool(text) and not text[0].isspace() and region != "toc"
            match = self.heading_re.match(text) if left else None
            if match:
                num = norm_num(match.group("num"))
                title = match.group("title").strip()
                titles = [title]
                following = self.lines[i + 1][1] if i + 1 < len(self.lines) else ""
                if len(text) >= 50 and following.strip() and following[0].isspace():
                    titles.append(title + " " + following.strip())
                self.headings.append({"line": i, "page": page, "num": num, "titles": titles, "text": text.strip(),
                                      "region": region})
                if not (scope and scope[0] == "numbered" and num.startswith(scope[1] + ".")):
                    scope = ("numbered", num) if GLOSSARY_RE.search(title.lower()) else None
            elif left and self.variant == "unnumbered_glossary_headings" and \
                    self._unnumbered_heading(i, previous_blank):
                if GLOSSARY_RE.search(text.lower()):
                    scope = ("unnumbered", None)
                elif scope and scope[0] == "unnumbered":
                    scope = None
            self.glossary.append(scope[0] if scope else None)
            previous_blank = not text.strip()

    def _unnumbered_heading(self, i, previous_blank):
        text = self.lines[i][1]
        following = self.lines[i + 1][1] if i + 1 < len(self.lines) else ""
        stripped = text.strip()
        return (previous_blank and not following.strip() and len(stripped) <= 60 and len(stripped.split()) <= 8
                and "  " not in stripped and not stripped.endswith((".", ",", ";")) and stripped[:1].isupper()
                and not GLOSSARY_LINE_RE.match(text))

    def confirm(self, num, title, page):
        """How the contents confirm a heading: listed (the number, with an agreeing title; in the variant
        ``same_page_required`` "page" when the entry also names the heading's printed page, else "otherpage:N"),
        title-differs, none (no entry with the number), no-toc."""
        if not self.entries:
            return "no-toc"
        same = [e for e in self.by_num.get(num, ()) if contents_agree(e.title, title, self.variant)]
        if not same:
            return "title-differs" if self.by_num.get(num) else "none"
        if self.variant != "same_page_required":
            return "listed"
        if any(e.page == self.printed(page) for e in same):
            return "page"
        return "otherpage:" + ",".join(str(e.page) for e in same)

    # -- definitions ---------------------------------------------------------------------------------------------

    def _continued(self, i, rest):
        """A line's rest, with the next line when it continues (non-blank and indented)."""
        if i + 1 < len(self.lines) and self.lines[i + 1][0] == self.lines[i][0]:
            following = self.lines[i + 1][1]
            if following.strip() and following[0].isspace():
                return rest + " " + following.strip()
        return rest

    def _flags(self, i):
        page = self.lines[i][0]
        return {"line": i, "page": page, "region": self.region[i], "column": self.column[i],
                "table_page": page in self.table_page, "text": self.lines[i][1].strip()}

    def _paragraphs(self):
        """Runs of non-blank lines of one page (a definition may wrap; a page break ends a run)."""
        run = []
        for i, (page, text) in enumerate(self.lines):
            if text.strip() and (not run or self.lines[run[-1]][0] == page):
                run.append(i)
                continue
            if run:
                yield run
            run = [i] if text.strip() else []
        if run:
            yield run

    def _definitions(self):
        self.candidates = defaultdict(list)
        for run in self._paragraphs():
            parts, owner = [], []
            for i in run:
                piece = " ".join(self.lines[i][1].split())
                if parts:
                    parts.append(" ")
                    owner.append(i)
                parts.append(piece)
                owner.extend([i] * len(piece))
            joined = "".join(parts)
            if "(" in joined:
                for match in PAREN_RE.finditer(joined):
                    flags = self._flags(owner[match.start()])
                    flags["text"] = joined[max(0, match.start() - 60):match.end()]
                    self._add(match.group(1), dict(flags, form=1, words=joined[max(0, match.start() - 160):
                                                                                match.start()]))
                for match in REVERSED_RE.finditer(joined):
                    flags = self._flags(owner[match.start()])
                    flags["text"] = joined[match.start():match.end() + len(match.group(2)) + 2][:100]
                    inner = re.sub(r"^\s*(?:the|a|an)\s+", "", match.group(2), flags=re.IGNORECASE)
                    self._add(match.group(1), dict(flags, form=2, words=inner))
            for i in run:
                text = self.lines[i][1]
                glossary = GLOSSARY_LINE_RE.match(text)
                if glossary:
                    rest = glossary.group("rest").strip()
                    if not rest and ":" in glossary.group("sep") and i + 1 < len(self.lines):
                        rest = self.lines[i + 1][1].strip()
                    else:
                        rest = self._continued(i, rest)
                    rest = re.sub(r"^(?:the|a|an)\s+", "", rest, flags=re.IGNORECASE)
                    if rest:
                        self._add(glossary.group("acr"), dict(self._flags(i), form=3, words=rest))
                listed = LISTED_LINE_RE.match(text)
                if listed:
                    rest = re.sub(r"^(?:the|a|an)\s+", "", self._continued(i, listed.group("rest").strip()),
                                  flags=re.IGNORECASE)
                    self._add(listed.group("acr"), dict(self._flags(i), form=4, words=rest,
                                                        glossary=self.glossary[i]))

    def _add(self, token, candidate):
        """File a candidate under the acronyms its token names ("inter-AS (Autonomous System)" names AS, and
        "MTA/MDA (Mail Delivery Agent)" MDA)."""
        tokens = {token}
        if candidate["form"] == 2:
            tokens.add(re.split(r"[-/]", token)[-1])
        for one in tokens:
            for key in acronym_keys(one):
                self.candidates[key].append(dict(candidate, token=one))

    # -- holding a condition -------------------------------------------------------------------------------------

    def section(self, label):
        """The headings whose title is the label's, each with how the contents confirm it, and whether the RFC
        holds the section condition as read."""
        items = []
        for heading in self.headings:
            for title in heading["titles"]:
                if titles_agree(label, title, self.variant):
                    items.append(dict(heading, title=title, confirm=self.confirm(heading["num"], title,
                                                                                 heading["page"])))
                    break
        return Finding("section", label, items, self)

    def acronym(self, acronym, long_form):
        """The definitions of the acronym found (each with its distance to the label's long form, and whether its
        long form's initials spell the acronym), and whether the RFC holds the sense as read: a definition is
        a long form whose initials spell the acronym, within the edit bound of the label's."""
        pattern = fold_phrase(long_form)
        items = []
        for candidate in self.candidates.get(acronym.upper(), ()):
            words = fold_phrase(candidate["words"])
            if candidate["form"] == 1:
                distance = suffix_distance(pattern, words)
            else:
                distance = prefix_distance(pattern, words)
            spelled = initials_spell(acronym, candidate["words"], at_end=candidate["form"] == 1)
            near = distance <= edit_bound(pattern)
            items.append(dict(candidate, distance=distance, spelled=spelled, near=near, sense=spelled and near))
        return Finding("acronym", f"{long_form} ({acronym})", items, self)


class Finding:
    """Whether an RFC holds one condition as its document's reading reads it (``held``), and in any sense of its
    acronym (``loose``), with the evidence items and an explanation."""

    def __init__(self, kind, label, items, document):
        self.kind, self.label, self.items, self.document = kind, label, items, document
        self.held = any(self._ok(item) for item in items)
        if kind == "acronym":
            self.loose = self.held or any(self._ok(item, sense=False) for item in items)
        else:
            self.loose = self.held

    def _where_ok(self, item):
        document, variant = self.document, self.document.variant
        if variant == "whole_body_pages":
            if self.kind == "section":
                return document.whole_body_page(item["page"]) and item["region"] == "body"
            return item["region"] in ("title", "body") and (item["page"] == 0 or
                                                            document.whole_body_page(item["page"]))
        allowed = ("body",) if self.kind == "section" or variant == "no_title_page" else ("title", "body")
        if variant == "appendices_after_references":
            allowed += ("appendix",)
        return item["region"] in allowed

    def _ok(self, item, sense=True):
        if not self._where_ok(item):
            return False
        if self.kind == "section":
            return item["confirm"] in ("listed", "page")
        if item["column"] or item["table_page"]:
            return False
        if item["form"] == 4 and item.get("glossary") is None:
            return False
        return item["sense"] if sense else item["spelled"]

    # -- explanations --------------------------------------------------------------------------------------------

    def _place(self, item):
        return f"page {item['page'] + 1}"

    def why_not(self):
        """Why the condition is not held as read: what was found, and why it does not count."""
        if self.kind == "section":
            if not self.items:
                return f"no numbered left-margin heading titled {self.label!r}" + self._nearest_heading()
            out = []
            for item in self.items[:3]:
                reasons = []
                if item["region"] != "body":
                    reasons.append({"title": "on the title page", "refs": "after the references start",
                                    "appendix": "in an appendix after the references"}.get(item["region"],
                                                                                           item["region"]))
                confirm = item["confirm"]
                if confirm not in ("listed", "page"):
                    reasons.append({"no-toc": "the RFC has no contents (as the docs define them)",
                                    "title-differs": "the contents list " + item["num"] + " under another title: " +
                                    "; ".join(repr(e.title) for e in self.document.by_num.get(item["num"], ())[:2]),
                                    "none": f"the contents do not list {item['num']}"}.get(
                        confirm, f"the contents list it on page {confirm.split(':', 1)[-1]}, printed page "
                                 f"{self.document.printed(item['page'])}"))
                out.append(f"{item['text']!r} on {self._place(item)}: {'; '.join(reasons) or '?'}")
            return " | ".join(out)
        sense = [item for item in self.items if item["sense"]]
        out = []
        for item in sense[:3]:
            reasons = []
            if item["region"] not in ("title", "body"):
                reasons.append({"toc": "in the contents", "refs": "in the references or after them",
                                "appendix": "in an appendix after the references"}[item["region"]])
            if item["column"]:
                reasons.append("a column line")
            if item["table_page"]:
                reasons.append("on a table page")
            if item["form"] == 4 and item.get("glossary") is None:
                reasons.append("a listed line outside a numbered glossary heading")
            if not reasons and not self._where_ok(item):
                reasons.append(f"not read in the variant {self.document.variant}")
            out.append(f"form {item['form']} {item['text'][:90]!r} on {self._place(item)}: "
                       f"{'; '.join(reasons) or '?'}")
        others = [item for item in self.items if not item["sense"] and item["spelled"] and self._ok(item, False)]
        for item in others[:2]:
            out.append(f"another sense, form {item['form']} {item['text'][:90]!r} on {self._place(item)}")
        unspelled = [item for item in self.items if item["near"] and not item["spelled"]]
        for item in unspelled[:2]:
            out.append(f"form {item['form']} {item['text'][:90]!r} on {self._place(item)}: its long form's initials "
                       "do not spell the acronym")
        if not out:
            return (f"no definition of {self.label} found ({len(self.items)} other mentions in parentheses or at "
                    "a line's start)")
        return " | ".join(out)

    def _nearest_heading(self):
        """The numbered heading whose title is nearest the label (difflib's ratio at least 0.8), as a hint."""
        label = fold_title(self.label)
        best, best_ratio = None, 0.8
        for heading in self.document.headings:
            ratio = difflib.SequenceMatcher(None, label, fold_title(heading["titles"][0])).ratio()
            if ratio >= best_ratio:
                best, best_ratio = heading, ratio
        return f"; nearest: {best['text']!r} on page {best['page'] + 1}" if best else ""

    def page_kind(self, item):
        """Which kind of page an evidence item is on: the title page, a contents page (outside the contents),
        the page where the references start (above them), or another body page."""
        document, page = self.document, item["page"]
        kinds = []
        if page == 0:
            kinds.append("title page")
        if page in document.toc_pages:
            kinds.append("contents page")
        if page == document.refs_page:
            kinds.append("references page")
        return " and ".join(kinds) or "body page"

    def _page_kind(self, item):
        kind = self.page_kind(item)
        return "" if kind == "body page" else f" ({kind})"

    def held_on(self):
        """The page kind of the first item that holds the condition as read (None: not held)."""
        for item in self.items:
            if self._ok(item):
                return self.page_kind(item)
        return None

    def where(self):
        """Where the condition is held as read (for a subset that holds everything)."""
        for item in self.items:
            if self._ok(item):
                if self.kind == "section":
                    return (f"heading {item['text']!r} on {self._place(item)}{self._page_kind(item)}, listed in "
                            "the contents")
                return f"form {item['form']} {item['text'][:100]!r} on {self._place(item)}{self._page_kind(item)}"
        return ""


# --- the release ------------------------------------------------------------------------------------------------

def release_folder(root):
    """The v3 folder: ``ROOT/data/v3`` or ``ROOT`` itself."""
    for folder in (os.path.join(root, "data", "v3"), root):
        if os.path.isfile(os.path.join(folder, "corpus.jsonl")):
            return folder
    raise FileNotFoundError(f"no data/v3/corpus.jsonl under {root}")


def read_jsonl(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def read_json(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def load_release(folder):
    """The final copy: its queries (those the genealogy's final copy does not remove), their judged pairs, the
    inventory (``{(docid, cid): pages}``), the corpus and the build record."""
    genealogy = read_json(os.path.join(folder, "genealogy.json"))
    final = [c for c in genealogy["copies"] if c.get("copy") == "final" or
             str(c.get("file", "")).endswith("/qrels.jsonl")][-1]
    removed = set(final.get("removed_queries", ()))
    queries = [q for q in read_jsonl(os.path.join(folder, "queries.jsonl")) if q["qid"] not in removed]
    wanted = {q["qid"] for q in queries}
    qrels = [r for r in read_jsonl(os.path.join(folder, "qrels.jsonl")) if r["qid"] in wanted and r["grade"] > 0]
    inventory = {(row["docid"], row["cid"]): row["pages"]
                 for row in read_jsonl(os.path.join(folder, "inventory.jsonl"))}
    return {"corpus": read_jsonl(os.path.join(folder, "corpus.jsonl")), "queries": queries, "qrels": qrels,
            "removed": sorted(removed), "inventory": inventory, "build": read_json(os.path.join(folder, "build.json"))}


def read_documents(corpus, packages, log=None):
    """``{docid: Document}`` from the packages, each package read once, and the RFCs whose pages do not give
    the hashes the corpus records."""
    by_package = defaultdict(set)
    for row in corpus:
        by_package[row["package"]].add(row["docid"])
    documents, mismatched = {}, []
    rows = {row["docid"]: row for row in corpus}
    for package, docids in sorted(by_package.items()):
        if log:
            log(f"reading {package} ({len(docids)} RFCs)")
        texts = package_texts(os.path.join(packages, deb_file(package)), docids)
        for docid in sorted(docids):
            if docid not in texts:
                mismatched.append(f"{docid}: not in {package}")
                continue
            pages, numbers = split_pages(texts[docid])
            if [page_sha256(page) for page in pages] != rows[docid]["page_sha256"]:
                mismatched.append(f"{docid}: page hashes differ")
            documents[docid] = Document(pages, numbers)
    return documents, mismatched


def parse_acronym_label(label):
    """``(ACR, long form)`` of a label "Long Form (ACR)"."""
    match = re.match(r"^(?P<long>.*\S)\s*\((?P<acr>[^()]+)\)\s*$", label)
    if not match:
        raise ValueError(f"an acronym label without '(ACR)': {label!r}")
    return match.group("acr").strip(), match.group("long")


# --- the census -------------------------------------------------------------------------------------------------

def wilson(count, total, z=1.959963984540054):
    """The 95% Wilson score interval of ``count / total``.

    >>> [round(x, 4) for x in wilson(5, 10)], [round(x, 4) for x in wilson(0, 10)]
    ([0.2366, 0.7634], [0.0, 0.2775])
    """
    if total == 0:
        return [0.0, 1.0]
    p = count / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return [max(0.0, centre - half), min(1.0, centre + half)]


def share(count, total):
    return {"count": count, "total": total, "share": count / total if total else 0.0,
            "wilson95": wilson(count, total)}


class Census:
    """Reads every judged pair of the final copy and keeps the counts (:meth:`figures`) and the failing pairs
    (``details``)."""

    def __init__(self, release, documents):
        self.release, self.documents = release, documents
        self.inventory = release["inventory"]
        self.cache = {}
        self.count = Counter()
        self.failing_conditions, self.failing_gold_pairs, self.missed_labelled = Counter(), Counter(), Counter()
        self.error_kinds, self.gold_count, self.condition_count = Counter(), Counter(), Counter()
        self.details = {"gold_failures": [], "strict_subset_errors": [], "loose_only_subset_errors": [],
                        "subsets_holding_nothing": [], "decided_examples": []}
        judged = defaultdict(dict)
        for row in release["qrels"]:
            judged[row["qid"]][row["docid"]] = row["grade"]
        for query in sorted(release["queries"], key=lambda q: q["qid"]):
            self._query(query, judged[query["qid"]])

    def finding(self, docid, condition):
        key = (docid, condition["cid"])
        if key not in self.cache:
            document = self.documents[docid]
            if condition["kind"] == "section":
                self.cache[key] = document.section(condition["label"])
            else:
                self.cache[key] = document.acronym(*parse_acronym_label(condition["label"]))
        return self.cache[key]

    def _query(self, query, judged):
        conditions, n = query["conditions"], query["n"]
        self.count["queries"] += 1
        for condition in conditions:
            self.condition_count[condition["cid"]] += 1
        holders, gold_set = defaultdict(set), set()
        for docid, grade in sorted(judged.items()):
            found = [self.finding(docid, condition) for condition in conditions]
            self._pair(query, docid, grade, found)
            for condition, result in zip(conditions, found):
                if result.held:
                    holders[condition["cid"]].add(docid)
            if grade == n:
                gold_set.add(docid)
                self.gold_count[docid] += 1
        deciding = [c["cid"] for c in conditions if holders[c["cid"]] == gold_set]
        if deciding:
            self.count["decided"] += 1
            self.details["decided_examples"].append({"qid": query["qid"], "cid": deciding[0],
                                                     "golds": sorted(gold_set)})

    def _labelled(self, docid, condition):
        return self.inventory.get((docid, condition["cid"]), [])

    def _pair(self, query, docid, grade, found):
        conditions, n, qid = query["conditions"], query["n"], query["qid"]
        for condition, result in zip(conditions, found):
            if self._labelled(docid, condition):
                self.count["labelled"] += 1
                self.count["labelled_found"] += result.held
                if not result.held:
                    self.missed_labelled[condition["kind"]] += 1
        as_read = sum(result.held for result in found)
        self.count["grade_differs"] += as_read != grade
        held_all = all(result.held for result in found)
        if grade == n:
            self.count["golds"] += 1
            self.count["gold_ok"] += held_all
            if not held_all:
                self._gold_failure(qid, docid, conditions, found)
            return
        self.count["subsets"] += 1
        if as_read == 0:
            self.details["subsets_holding_nothing"].append({"qid": qid, "docid": docid, "grade": grade, "why": [
                {"cid": c["cid"], "inventory_pages": self._labelled(docid, c), "why": r.why_not()}
                for c, r in zip(conditions, found) if self._labelled(docid, c)]})
        if held_all:
            self.count["subset_bad"] += 1
            record = self._subset_record(qid, docid, grade, n, conditions, found)
            self.details["strict_subset_errors"].append(record)
            self.error_kinds[" + ".join(sorted({row["page_kind"] for row in record["not_in_inventory"]}))] += 1
        if all(result.loose for result in found):
            self.count["subset_bad_loose"] += 1
            if not held_all:
                self.details["loose_only_subset_errors"].append(
                    self._subset_record(qid, docid, grade, n, conditions, found))

    def _gold_failure(self, qid, docid, conditions, found):
        kinds = set()
        for condition, result in zip(conditions, found):
            if not result.held:
                self.failing_conditions[condition["kind"]] += 1
                kinds.add(condition["kind"])
                self.details["gold_failures"].append({
                    "qid": qid, "docid": docid, "cid": condition["cid"], "kind": condition["kind"],
                    "label": condition["label"], "inventory_pages": self._labelled(docid, condition),
                    "why": result.why_not()})
        self.failing_gold_pairs["+".join(sorted(kinds))] += 1

    def _subset_record(self, qid, docid, grade, n, conditions, found):
        lacking = [{"cid": c["cid"], "label": c["label"], "page_kind": r.held_on() or "not held",
                    "found": r.where() or r.why_not()}
                   for c, r in zip(conditions, found) if not self._labelled(docid, c)]
        return {"qid": qid, "docid": docid, "grade": grade, "n": n, "not_in_inventory": lacking}

    def figures(self):
        count = self.count
        queries, golds, subsets = count["queries"], count["golds"], count["subsets"]
        most = self.gold_count.most_common(1)[0] if self.gold_count else (None, 0)
        return {
            "queries": queries,
            "pairs": golds + subsets,
            "gold_precision_as_read": share(count["gold_ok"], golds),
            "strict_subset_error": share(count["subset_bad"], subsets),
            "loose_subset_error": share(count["subset_bad_loose"], subsets),
            "strict_subset_errors_by_page_kind": dict(self.error_kinds.most_common()),
            "gold_condition_failures_by_kind": dict(self.failing_conditions),
            "failing_gold_pairs_by_kinds": dict(self.failing_gold_pairs),
            "golds_per_query": {"mean": golds / queries if queries else 0.0, "table1": TABLE1_GOLDS_PER_QUERY},
            "subsets_per_query": {"mean": subsets / queries if queries else 0.0, "table1": TABLE1_SUBSETS_PER_QUERY},
            "decided_by_one_condition": share(count["decided"], queries),
            "most_gold_document": {"docid": most[0], "queries": most[1], "share": most[1] / queries if queries else 0.0},
            "top_gold_documents": [[docid, k] for docid, k in self.gold_count.most_common(10)],
            "top_conditions": [[cid, k] for cid, k in self.condition_count.most_common(10)],
            "subsets_holding_no_condition_as_read": share(len(self.details["subsets_holding_nothing"]), subsets),
            "pairs_whose_grade_as_read_differs": share(count["grade_differs"], golds + subsets),
            "reader_finds_inventory_facts": dict(share(count["labelled_found"], count["labelled"]),
                                                 missed_by_kind=dict(self.missed_labelled)),
        }


def census(release, documents, variants=VARIANTS):
    """``(figures, details)`` of the release's final copy read from ``documents`` (``{docid: Document}``, the
    docs' reading), with the two headline figures under each of ``variants`` (every document read again)."""
    result = Census(release, documents)
    figures = result.figures()
    figures["variants"] = {}
    for name in variants:
        other = Census(release, {docid: document.read_as(name) for docid, document in documents.items()})
        count = other.count
        figures["variants"][name] = {
            "gold_precision": share(count["gold_ok"], count["golds"])["share"],
            "strict_subset_error": share(count["subset_bad"], count["subsets"])["share"],
            "gold_ok": count["gold_ok"], "subset_errors": count["subset_bad"],
            "gold_pairs_changed": sorted(
                {(row["qid"], row["docid"]) for row in other.details["gold_failures"]} ^
                {(row["qid"], row["docid"]) for row in result.details["gold_failures"]})[:SHOW]}
    return figures, result.details


# --- the report -------------------------------------------------------------------------------------------------

def _pct(value):
    return f"{100 * value:.2f}%"


def _rate(name, value):
    low, high = value["wilson95"]
    return f"{name}: {value['count']} / {value['total']} = {_pct(value['share'])} [{_pct(low)}, {_pct(high)}]"


def render(figures, details):
    """The census as text: the figures, the alternative readings, and the first failing pairs of each kind."""
    build = figures.get("build", {})
    head = (f"RealPage census (data/v3 build: counts.queries {build.get('counts_queries')}, audit.repairs "
            f"{build.get('audit_repairs')}; final copy: {figures['queries']} queries, {figures['pairs']} pairs)")
    lines = [head]
    checked = figures.get("pages_checked")
    if checked:
        lines.append(f"pages rebuilt: {checked['pages']} of {checked['documents']} RFCs; hash mismatches "
                     f"{checked['mismatched_count']}")
    lines.append(_rate("gold precision as read", figures["gold_precision_as_read"]))
    lines.append(_rate("strict subset error", figures["strict_subset_error"]))
    lines.append(_rate("loose subset error", figures["loose_subset_error"]))
    lines.append(f"strict subset errors by where the unlabelled condition is read: "
                 f"{figures['strict_subset_errors_by_page_kind']}")
    lines.append(f"gold conditions failing, by kind: {figures['gold_condition_failures_by_kind']}; failing gold "
                 f"pairs by kinds: {figures['failing_gold_pairs_by_kinds']}")
    lines.append(f"golds per query {figures['golds_per_query']['mean']:.2f} (Table 1: {TABLE1_GOLDS_PER_QUERY}); "
                 f"subsets per query {figures['subsets_per_query']['mean']:.1f} (Table 1: {TABLE1_SUBSETS_PER_QUERY})")
    lines.append(_rate("decided by one condition", figures["decided_by_one_condition"]))
    most = figures["most_gold_document"]
    lines.append(f"most-used gold: {most['docid']} in {most['queries']} queries ({_pct(most['share'])})")
    lines.append("top gold documents: " + ", ".join(f"{d} {k}" for d, k in figures["top_gold_documents"]))
    lines.append("top conditions: " + ", ".join(f"{c} {k}" for c, k in figures["top_conditions"]))
    lines.append(_rate("subsets holding no condition as read", figures["subsets_holding_no_condition_as_read"]))
    lines.append(_rate("pairs whose grade as read differs", figures["pairs_whose_grade_as_read_differs"]))
    found = figures["reader_finds_inventory_facts"]
    lines.append(_rate("inventory facts of judged pairs the reader finds", found) +
                 f"; missed by kind {found['missed_by_kind']}")
    lines.append("alternative readings (gold precision / strict subset error):")
    for name, value in figures["variants"].items():
        lines.append(f"  {name:32s} {_pct(value['gold_precision'])} / {_pct(value['strict_subset_error'])} "
                     f"({value['gold_ok']} golds held, {value['subset_errors']} subset errors)")
    for kind in ("gold_failures", "strict_subset_errors", "loose_only_subset_errors", "subsets_holding_nothing"):
        lines.append(f"{kind}: {len(details[kind])} (the first 10)")
        lines.extend("  " + json.dumps(row, ensure_ascii=False) for row in details[kind][:10])
    return "\n".join(lines)


def run(root, packages, log=None, variants=VARIANTS):
    """The census of the release under ``root`` read from the packages in ``packages``: ``(figures, details)``,
    with the headline figures under each reading of ``variants`` (each reads every RFC again: about three times
    the docs' reading each).  Missing packages raise FileNotFoundError naming them."""
    release = load_release(release_folder(root))
    needed = {row["package"] for row in release["corpus"]} | set(PACKAGE_NAMES)
    absent = missing_packages(packages, needed)
    if absent:
        raise FileNotFoundError(f"the doc-rfc packages are not in {packages}: missing {', '.join(absent)}")
    documents, mismatched = read_documents(release["corpus"], packages, log)
    figures, details = census(release, documents, variants)
    build = release["build"]
    figures["pages_checked"] = {"documents": len(documents), "pages": sum(len(d.pages) for d in documents.values()),
                                "mismatched_count": len(mismatched), "mismatched": mismatched[:SHOW]}
    figures["build"] = {"counts_queries": build.get("counts", {}).get("queries"),
                        "audit_repairs": build.get("audit", {}).get("repairs"),
                        "removed_queries": len(release["removed"])}
    return figures, details


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="the repository (data/v3 under it) or the v3 folder")
    parser.add_argument("--packages", default=None, help="the folder of the eight doc-rfc .deb files")
    parser.add_argument("--json", default=None, help="write the figures and the first failing pairs here")
    args = parser.parse_args(argv)
    try:
        figures, details = run(args.data, args.packages or default_packages(),
                               log=lambda text: print(text, file=sys.stderr))
    except FileNotFoundError as error:
        print(f"realpage_census: {error}", file=sys.stderr)
        return 2
    print(render(figures, details))
    if args.json:
        out = dict(figures, failing={kind: rows[:SHOW] for kind, rows in details.items()},
                   failing_counts={kind: len(rows) for kind, rows in details.items()})
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(out, handle, indent=1, ensure_ascii=False)
            handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
