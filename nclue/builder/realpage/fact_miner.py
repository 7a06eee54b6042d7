"""The RealPage fact miner (docs/realpage.md#what-the-labels-mean; paper section 3.2).

A fact is a condition a page of an RFC establishes, read as :class:`Reading` reads the RFC: line by line, without
the table of contents, the references and what follows them.  Two kinds are mined:

* **section** facts: a numbered heading at the left margin of a body page (any page after the title page),
  confirmed by the RFC's own table of contents, which must list the same number with the same title (compared on
  its first 20 characters, since contents lines are cut short).  The condition is the folded title
  (:func:`title_key`); the evidence is the heading's page.
* **defines** facts: a page that defines an acronym, in one of the forms of :data:`DEFINITION_FORMS` ("Long
  Form (ACR)" or "ACR (Long Form ...)" in running prose, a glossary line), where the initials of the long form
  spell the acronym (:func:`initials_match`; a plural "Long Forms (ACRs)" defines the singular).  A definition is
  of one *sense*: the acronym with its long form, folded for case, hyphens and plural (:func:`sense_key`), so that
  "Differentiated Services (DS)" and "Delegation Signer (DS)" are two senses, and a less frequent spelling
  within one edit per 8 characters of a more frequent one ("Application Program Interface" beside
  "Application Programming Interface") is the same sense (:func:`senses`).  Only senses of the lexicon (defined
  in at least three RFCs of the sample) become conditions.  A line laid out in columns (a table row, an index
  entry, a figure: :func:`column_line`) is not running prose, and no line of a page mostly made of them is
  (:func:`prose`): the lists of protocol names in the index RFCs ("SNMP-APP   Simple Network Management Protocol
  (SNMP)   3413") define nothing, and neither does a line "FTP   File Transfer Protocol" outside a glossary.
  Definitions are read on the title page and the body: the references, whose titles spell out the cited
  documents' acronyms, define nothing.
"""

import re
from collections import Counter, namedtuple

NUMBER = r"(\d+(?:\.\d+)*|[A-Z](?:\.\d+)+|[A-Z](?=[.:])|Appendix\s+[A-Z](?:\.\d+)*)"
# a section number: "3", "3.1", "A.2", "A." (a capital letter then "." or ":"), "Appendix B" (:func:`section_number`)
HEADING = re.compile(r"^%s[.:]?\s+([A-Z][^\n]{1,78}?)\s*$" % NUMBER)
TOC_LINE = re.compile(r"^\s*%s[.:]?\s+(\S.*?)[\s.]{2,}(\d+)\s*$" % NUMBER)
TOC_ANY = re.compile(r"\S[\s.]{2,}\d+\s*$")        # any contents line: text, then dots or spaces, then a page
TOC_TITLE = re.compile(r"^\s*(?:table of )?contents\s*$", re.IGNORECASE)
TOKEN = r"([A-Z][A-Za-z0-9]{1,8})"         # an acronym as written: "DNS", "DoS", "UAs" (:func:`acronym_of`)
WORDS = r"(?:[A-Za-z][A-Za-z0-9]*[\s-]+){1,7}[A-Za-z][A-Za-z0-9]*"
ACRONYM = re.compile(r"\b(%s)[\"\u201d]?\s+\(\s*%s\s*\)" % (WORDS, TOKEN))
ACRONYM_FIRST = re.compile(r"(?<![A-Za-z0-9])%s\s+\(\s*(?:(?:[Tt]he|[Aa]n?)\s+)?([^()]*)\)" % TOKEN)
BULLET = r"(?:[o*+-]\s+)?"
GLOSSARY_MARKED = re.compile(r"^\s*%s%s(?:\s*[:=]\s*|\s+-{1,2}\s+)(\S.*)$" % (BULLET, TOKEN))
GLOSSARY_OPEN = re.compile(r"^\s*%s%s\s*:\s*$" % (BULLET, TOKEN))   # "ACR:" alone: the next line is its long form
GLOSSARY_LISTED = re.compile(r"^\s*%s%s\s{2,}(\S.*)$" % (BULLET, TOKEN))
GLOSSARY_HEADING = re.compile(r"\b(?:terminology|terms|abbreviations?|acronyms?|definitions?|glossary|notation)\b",
                              re.IGNORECASE)
ARTICLE = re.compile(r"^(?:the|an?)\s+", re.IGNORECASE)
# the forms of a definition the miner reads, declared once (docs/realpage.md#what-the-labels-mean)
DEFINITION_FORMS = {
    "long_first": "'Long Form (ACR)' in running prose, in any case",
    "acronym_first": "'ACR (Long Form ...)' in running prose: parentheses that start with the long form",
    "glossary_marked": "a line 'ACR: Long Form', 'ACR = Long Form' or 'ACR - Long Form' (or 'ACR:' and the long "
                       "form on the next line)",
    "glossary_listed": "a line 'ACR   Long Form' (spaces only) under a numbered heading of terminology, terms, "
                       "abbreviations, acronyms, definitions, a glossary or notation",
}
COLUMN_GAP = re.compile(r" {3,}")         # three spaces between words: a line laid out in columns
TABLE_PAGE_SHARE = 0.5      # a page whose non-blank lines are at least this share column lines is a table
END_OF_BODY = re.compile(r"^(?:%s[.:]?\s+)?(?:normative |informative )?"
                         r"(?:references|bibliography|authors?'? addresses?|author's address|editors?'? addresses?)"
                         r"\s*$" % NUMBER, re.IGNORECASE)
CONTENTS_PAGES = 8          # a table of contents starts on one of the first 8 pages ...
CONTENTS_SPAN = 6           # ... and runs over at most 6
TITLE_PREFIX = 20           # contents lines are cut short: titles agree on their first 20 characters
MIN_LEXICON_RFCS = 3        # an acronym is in the lexicon when at least 3 RFCs of the sample define it


def title_key(text):
    """A section title as a condition: lower case, a possessive "'s" dropped, every run of characters other than
    the letters a-z and the digits one space, each word singular (:func:`singular`), so that "Examples" and
    "Example", "Offer/Answer" and "Offer-Answer", "Server's Behavior" and "Server Behavior" are one section.

    >>> title_key("  Security   Considerations."), title_key("Offer/Answer Model"), title_key("Server's Behavior")
    ('security consideration', 'offer answer model', 'server behavior')
    """
    folded = re.sub(r"['\u2019]s\b", "", text.lower())
    return " ".join(singular(word) for word in re.sub(r"[^a-z0-9]+", " ", folded).split())


def column_line(line):
    """Whether a line is laid out in columns: three or more spaces between two of its words (its indentation
    aside), as a table row, an index entry or a figure is.  The gap after a line's first word (a list bullet
    aside) does not count: it is a glossary's own layout ("DNS     Domain Name System").

    >>> column_line("SNMP-APP   Simple Network Management Protocol (SNMP)   3413   62")
    True
    >>> column_line("MAC - Media Access Control       PMD - Physical Medium Dependent")
    True
    >>> column_line("   The Border Gateway Protocol (BGP) carries routes.  It is")
    False
    >>> column_line("DNS     Domain Name System")
    False
    """
    text = line.strip()
    first = re.match(r"%s\S+" % BULLET, text)
    return any(gap.start() > first.end() for gap in COLUMN_GAP.finditer(text)) if first else False


def prose(page):
    r"""The page's running prose: its text with every column line blanked (line breaks kept, so that a
    definition broken over two prose lines is still seen), or nothing for a page whose non-blank lines are at
    least :data:`TABLE_PAGE_SHARE` column lines (a table or an index page).

    >>> prose("Routing (R) runs.\nA   table   row (TR)\nMore prose.\n")
    'Routing (R) runs.\n\nMore prose.\n'
    >>> prose("a   b   c\nd   e   f\nplain (P)\n")
    ''
    """
    lines = page.split("\n")
    columns = [column_line(line) for line in lines]
    written = sum(1 for line in lines if line.strip())
    if written and sum(columns) >= TABLE_PAGE_SHARE * written:
        return ""
    return "\n".join("" if column else line for line, column in zip(lines, columns))


def singular(word):
    """A folded word without its plural ending: "-ies" to "-y" (a word of five letters or more), a final "s"
    dropped (a word of four letters or more, not ending in "ss", "us" or "is").

    >>> [singular(w) for w in ("services", "authorities", "address", "gas", "protocols", "status", "analysis")]
    ['service', 'authority', 'address', 'gas', 'protocol', 'status', 'analysis']
    """
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def sense_key(long_form):
    """A long form as a sense: case folded, hyphens read as spaces, whitespace collapsed, each word singular.

    >>> sense_key("Differentiated-Services"), sense_key("User  Agents")
    ('differentiated service', 'user agent')
    """
    return " ".join(singular(word) for word in long_form.lower().replace("-", " ").split())


def initials_match(long_form, acronym):
    """Whether the initials of ``long_form``'s words (split at spaces and hyphens) spell ``acronym``, or end
    with it (a long form caught with a word before it).

    >>> initials_match("Border Gateway Protocol", "BGP"), initials_match("The Border Gateway Protocol", "BGP")
    (True, True)
    >>> initials_match("Internet Protocol", "BGP")
    False
    """
    letters = "".join(word[0] for word in re.split(r"[\s-]+", long_form) if word).upper()
    return letters.endswith(acronym)


def spelled(long_form, acronym):
    """The words of ``long_form`` that spell ``acronym`` (its last ``len(acronym)`` words, hyphens kept, spaces
    collapsed): the long form without a word caught before it.

    >>> spelled("The Domain Name System", "DNS")
    'Domain Name System'
    """
    parts = re.split(r"([\s-]+)", " ".join(long_form.split()))
    words = parts[::2]
    start = 2 * max(0, len(words) - len(acronym))
    return "".join(parts[start:])


def section_number(number):
    """A section number as the contents and the headings are compared: "Appendix " dropped.

    >>> section_number("Appendix B.2"), section_number("3.1")
    ('B.2', '3.1')
    """
    return number[len("Appendix"):].strip() if number.startswith("Appendix") else number


class Reading:
    r"""One RFC as a reader reads it (docs/realpage.md#what-the-labels-mean).

    ``entries``: the table of contents, ``{section number: title key}``.  ``text``: the pages with the lines a
    reader leaves out blanked (line for line): the table of contents (its title line to its last entry, on each of
    its pages), and everything from the line at the left margin that starts the references or the authors'
    addresses (:data:`END_OF_BODY`) on.  The text that shares a page with the end of the contents or the start of
    the references is read.  ``body``: the pages after the title page with a line left to read, where a section
    heading is read; ``document``: the title page and the body, where a definition is read.

    >>> r = Reading(["Title (T)\n\nTable of Contents\n1. Intro ..... 2\n", "1. Intro\nText\nReferences\n[1] A (B)"])
    >>> r.entries, r.text[0].split("\n"), r.text[1].split("\n"), r.body, r.document
    ({'1': 'intro'}, ['Title (T)', '', '', '', ''], ['1. Intro', 'Text', '', ''], [1], [0, 1])
    """

    def __init__(self, pages):
        self.entries = {}
        lines = [page.split("\n") for page in pages]
        out = [dict(enumerate(page)) for page in lines]
        for i, first, last in self._contents(lines):
            for k in range(first, last + 1):
                out[i][k] = ""
        self._cut_references(lines, out)
        self.text = ["\n".join(page[k] for k in range(len(page))) for page in out]
        self.body = [i for i in range(1, len(pages)) if self.text[i].strip()]
        self.document = ([0] if pages and self.text[0].strip() else []) + self.body

    def _contents(self, lines):
        """The table of contents: ``[(page, first line, last line)]`` of its span on each page, its entries
        recorded.  It starts at a "Table of Contents" or "Contents" line on one of the first
        :data:`CONTENTS_PAGES` pages, and goes on over the pages that list numbered entries (at most
        :data:`CONTENTS_SPAN`); on each, it runs to the last line that ends in a page number."""
        start = next((i for i, page in enumerate(lines[:CONTENTS_PAGES])
                      if any(TOC_TITLE.match(line) for line in page)), None)
        if start is None:
            return []
        spans = []
        for i in range(start, min(len(lines), start + CONTENTS_SPAN)):
            first = next(k for k, line in enumerate(lines[i]) if TOC_TITLE.match(line)) if i == start else 0
            found = 0
            for line in lines[i][first:]:
                match = TOC_LINE.match(line)
                if match:
                    self.entries.setdefault(section_number(match.group(1)), title_key(match.group(2)))
                    found += 1
            if not found and i > start:
                break
            spans.append((i, first, self._last_entry(lines[i], first)))
        return spans

    @staticmethod
    def _last_entry(page, first):
        """The last contents line of a page: its last numbered entry, and after it the unnumbered entries that
        follow (lines ending in a page number, "Authors' Addresses ....... 20"), blank lines between them."""
        last = first
        for k in range(first, len(page)):
            if TOC_LINE.match(page[k]):
                last = k
        for k in range(last + 1, len(page)):
            if TOC_ANY.search(page[k]):
                last = k
            elif page[k].strip():
                break
        return last

    @staticmethod
    def _cut_references(lines, out):
        """Blank everything from the first line at the left margin, outside the contents, that starts the
        references or the authors' addresses."""
        for i, page in enumerate(lines):
            for k, line in enumerate(page):
                if out[i][k] and line[:1] != " " and END_OF_BODY.match(line.strip()):
                    for j in range(i, len(lines)):
                        for m in range(k if j == i else 0, len(lines[j])):
                            out[j][m] = ""
                    return

    def headings(self):
        """``[(number, surface title, page index)]`` of the numbered headings at the left margin of the body."""
        out = []
        for i in self.body:
            for line in self.text[i].split("\n"):
                match = HEADING.match(line)
                if match and not TOC_LINE.match(line):
                    out.append((section_number(match.group(1)), " ".join(match.group(2).split()), i))
        return out

    def confirmed(self, number, title):
        """Whether the contents list a heading's number with the same title (compared on its first
        :data:`TITLE_PREFIX` characters, since contents lines are cut short)."""
        entry = self.entries.get(number)
        if entry is None:
            return False
        key = title_key(title)
        return entry.startswith(key[:TITLE_PREFIX]) or key.startswith(entry[:TITLE_PREFIX])


def written(token):
    """A written acronym without its plural ending, its case kept: a final lower-case "s" or "es" after at least
    two capitals is a plural ("UAs" is "UA", "ASes" is "AS"; "DoS" and "IPsec" are as written).

    >>> written("UAs"), written("ASes"), written("DoS"), written("QoS")
    ('UA', 'AS', 'DoS', 'QoS')
    """
    for plural in ("es", "s"):
        stem = token[:-len(plural)]
        if token.endswith(plural) and len(stem) >= 2 and stem.isupper():
            return stem
    return token


def acronym_of(token):
    """The acronym a written token stands for, upper case, or None: at least two capitals, a plural ending
    dropped (:func:`written`), mixed case allowed ("DoS" is DOS).

    >>> acronym_of("DNS"), acronym_of("UAs"), acronym_of("ASes"), acronym_of("DoS"), acronym_of("Bob")
    ('DNS', 'UA', 'AS', 'DOS', None)
    >>> acronym_of("IPsec")
    'IPSEC'
    """
    token = written(token)
    if sum(1 for ch in token if ch.isupper()) < 2:
        return None
    return token.upper()


def _leading(text, acronym):
    """The first words of ``text`` whose initials spell ``acronym`` exactly (``len(acronym)`` words, hyphens
    splitting), as they are written, or None.

    >>> _leading("Transport Layer Security, as in RFC 8446", "TLS"), _leading("The TLS protocol", "TLS")
    ('Transport Layer Security', None)
    """
    found = re.match(r"((?:[A-Za-z][A-Za-z0-9]*[\s-]+){%d}[A-Za-z][A-Za-z0-9]*)" % (len(acronym) - 1), text)
    if found is None:
        return None
    words = found.group(1)
    letters = "".join(word[0] for word in re.split(r"[\s-]+", words)).upper()
    return words if letters == acronym else None


class Definition(namedtuple("Definition", "acronym sense surface written")):
    """One definition read on a page: the acronym (upper case), its sense key (:func:`sense_key`), the long form
    and the acronym as written (:func:`written`)."""


def _definition(token, surface):
    return Definition(acronym_of(token), sense_key(surface), " ".join(surface.split()), written(token))


def definitions(page, glossary_lines=()):
    r"""The :class:`Definition` records of the definitions on a page's running prose (:func:`prose`: no column
    line, nothing on a table page), in the forms of :data:`DEFINITION_FORMS`: "Long Form (ACR)" whose initials
    spell the acronym (a word caught before the long form dropped); "ACR (Long Form ...)" whose parentheses start
    with the long form (an article skipped); the glossary lines (``glossary_lines``: the numbers of the page's
    lines under a glossary heading, where a listed line is read).  A plural "(ACRs)" defines the singular acronym.

    >>> definitions("Denial of Service (DoS) attacks")
    [Definition(acronym='DOS', sense='denial of service', surface='Denial of Service', written='DoS')]
    >>> [d[:3] for d in definitions("The Border Gateway Protocol (BGP) and user agents (UAs).\n")]
    [('BGP', 'border gateway protocol', 'Border Gateway Protocol'), ('UA', 'user agent', 'user agents')]
    >>> [d[:2] for d in definitions("TLS (Transport Layer Security, see [RFC8446]).\nMTU:  The Maximum Transmission Unit")]
    [('TLS', 'transport layer security'), ('MTU', 'maximum transmission unit')]
    >>> definitions("FTP   File Transfer Protocol"), [d[:2] for d in definitions("FTP   File Transfer Protocol", {0})]
    ([], [('FTP', 'file transfer protocol')])
    >>> [d[:2] for d in definitions("o  AS:\n      Autonomous System\n")]
    [('AS', 'autonomous system')]
    >>> definitions("MAC - Media Access Control     PMD - Physical Medium Dependent\n")
    []
    """
    out = []
    text = prose(page)
    for match in ACRONYM.finditer(text):
        surface, acronym = match.group(1), acronym_of(match.group(2))
        if acronym and initials_match(surface, acronym):
            out.append(_definition(match.group(2), spelled(surface, acronym)))
    for match in ACRONYM_FIRST.finditer(text):
        acronym = acronym_of(match.group(1))
        surface = acronym and _leading(match.group(2), acronym)
        if surface:
            out.append(_definition(match.group(1), surface))
    lines = text.split("\n")
    for k, line in enumerate(lines):
        match = GLOSSARY_MARKED.match(line) or (k in glossary_lines and GLOSSARY_LISTED.match(line))
        rest = match and match.group(2)
        if not match:
            match = GLOSSARY_OPEN.match(line)
            rest = match and k + 1 < len(lines) and lines[k + 1].strip()
        acronym = match and rest and acronym_of(match.group(1))
        surface = acronym and _leading(ARTICLE.sub("", rest), acronym)
        if surface:
            out.append(_definition(match.group(1), surface))
    return out


def glossary_lines(pages, indices):
    """``{page index: {line numbers}}`` of the lines of pages ``indices`` that fall under a numbered heading at
    the left margin whose title names a glossary (:data:`GLOSSARY_HEADING`), or under one numbered below it
    ("2.1" below "2."), until the next heading outside it."""
    out, scope = {}, None
    for i in indices:
        for k, line in enumerate(pages[i].split("\n")):
            heading = HEADING.match(line)
            if heading and not TOC_LINE.match(line):
                number = section_number(heading.group(1))
                if scope is None or not number.startswith(scope + "."):
                    scope = number if GLOSSARY_HEADING.search(heading.group(2)) else None
            elif scope is not None:
                out.setdefault(i, set()).add(k)
    return out


def mine(pages):
    """One RFC's facts as :class:`Reading` reads it: ``{"sections": {title key: (surface, page indices)},
    "defined": {(acronym, sense key): page indices}, "long_forms": Counter of (acronym, sense key, surface),
    "spellings": Counter of (acronym, sense key, acronym as written)}``.

    A section is a numbered heading at the left margin of a body page that the contents confirm
    (:meth:`Reading.confirmed`); a definition is one of :func:`definitions` on the title page or a body page."""
    reading = Reading(pages)
    sections = {}
    for number, surface, i in reading.headings():
        if reading.confirmed(number, surface):
            key = title_key(surface)
            if key not in sections:
                sections[key] = (surface, set())
            sections[key][1].add(i)
    defined, long_forms, spellings = {}, Counter(), Counter()
    glossary = glossary_lines(reading.text, reading.document)
    for i in reading.document:
        for acronym, sense, surface, token in definitions(reading.text[i], glossary.get(i, ())):
            defined.setdefault((acronym, sense), set()).add(i)
            long_forms[(acronym, sense, surface)] += 1
            spellings[(acronym, sense, token)] += 1
    return {"sections": sections, "defined": defined, "long_forms": long_forms, "spellings": spellings}


def fuzzy_bound(text):
    """The edits an approximate form may differ by: one per 8 characters, at least 1.

    >>> fuzzy_bound("security considerations"), fuzzy_bound("ack")
    (2, 1)
    """
    return max(1, len(text) // 8)


def within(a, b, bound):
    """Whether the edit distance of ``a`` and ``b`` is at most ``bound`` (banded dynamic programming).

    >>> within("kitten", "sitting", 3), within("kitten", "sitting", 2)
    (True, False)
    """
    if abs(len(a) - len(b)) > bound:
        return False
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        low = max(1, i - bound)
        high = min(len(b), i + bound)
        for j in range(1, len(b) + 1):
            if j < low or j > high:
                current[j] = bound + 1
                continue
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != b[j - 1]))
        if min(current) > bound:
            return False
        previous = current
    return previous[len(b)] <= bound


def senses(mined):
    """``{(acronym, sense key): (acronym, canonical sense key)}`` over the mined RFCs: each acronym's senses,
    the more frequent first (by defining RFCs; ties alphabetical), each one merged into the first earlier sense
    whose key is within :func:`fuzzy_bound` edits of its own (a spelling of the same long form)."""
    defining = Counter()
    for facts in mined.values():
        defining.update(list(facts["defined"]))
    by_acronym = {}
    for acronym, sense in sorted(defining, key=lambda k: (k[0], -defining[k], k[1])):
        by_acronym.setdefault(acronym, []).append(sense)
    out = {}
    for acronym, keys in by_acronym.items():
        canonical = []
        for sense in keys:
            same = next((c for c in canonical if within(sense, c, fuzzy_bound(c))), None)
            if same is None:
                canonical.append(sense)
            out[(acronym, sense)] = (acronym, same or sense)
    return out


def lexicon(mined):
    """``{(acronym, canonical sense key): surface long form}`` over the mined RFCs ``mined`` (a dict of
    :func:`mine` results): the senses (:func:`senses`, spellings merged) that at least :data:`MIN_LEXICON_RFCS` of
    them define, each with the most frequent surface of its spellings (ties: the alphabetically first)."""
    canonical = senses(mined)
    defining, surfaces = Counter(), {}
    for facts in mined.values():
        defining.update({canonical[key] for key in facts["defined"]})
        for (acronym, sense, surface), count in facts["long_forms"].items():
            surfaces.setdefault(canonical[(acronym, sense)], Counter())[surface] += count
    return {key: min(surfaces[key], key=lambda s: (-surfaces[key][s], s))
            for key in sorted(k for k, n in defining.items() if n >= MIN_LEXICON_RFCS)}


def spellings(mined):
    """``{(acronym, canonical sense key): the acronym as most often written}`` over the mined RFCs (ties: the
    alphabetically first), so that a label reads "Quality of Service (QoS)" as the RFCs write it."""
    canonical = senses(mined)
    counts = {}
    for facts in mined.values():
        for (acronym, sense, token), count in facts["spellings"].items():
            counts.setdefault(canonical[(acronym, sense)], Counter())[token] += count
    return {key: min(found, key=lambda t: (-found[t], t)) for key, found in counts.items()}

