"""The RealPage fact miner (docs/realpage.md#the-fact-kinds; paper section 3.2).

A fact is a condition one body page of an RFC establishes.  Two kinds are mined:

* **section** facts: a numbered heading at the left margin of a body page, confirmed by the RFC's own table
  of contents, which must list the same number, the same title (compared on its first 20 characters, since
  contents lines are cut short) and the same page.  The condition is the normalised title
  (:func:`title_key`); the evidence is the heading's page.
* **defines** facts: a page that defines an acronym, in one of the forms of :data:`DEFINITION_FORMS` ("Long
  Form (ACR)" or "ACR (Long Form)" in running prose, a glossary line), where the initials of the long form spell
  the acronym (:func:`initials_match`; a plural "Long Forms (ACRs)" defines the singular).  A definition is of
  one *sense*: the acronym with its long form, folded for case, hyphens and plural (:func:`sense_key`), so that
  "Differentiated Services (DS)" and "Delegation Signer (DS)" are two senses, and a less frequent spelling
  within one edit per 8 characters of a more frequent one ("Application Program Interface" beside
  "Application Programming Interface") is the same sense (:func:`lexicon`).  Only senses of the lexicon (defined
  in at least three RFCs of the sample) become conditions.  A line laid out in columns (a table row, an index
  entry, a figure: :func:`column_line`) is not running prose, and no line of a page mostly made of them is
  (:func:`prose`): the lists of protocol names in the index RFCs ("SNMP-APP   Simple Network Management Protocol
  (SNMP)   3413") define nothing, and neither does a line "FTP   File Transfer Protocol" outside a glossary.

Body pages are the pages after the title page, other than the table of contents, and before the page where
the references or the authors' addresses begin: a section fact's heading is on one.  A definition is read on
the title page and the body pages (:func:`definition_pages`): the references, whose titles spell out the cited
documents' acronyms, define nothing.
"""

import re
from collections import Counter

HEADING = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+([A-Z][^\n]{1,78}?)\s*$")
TOC_LINE = re.compile(r"^\s*(\d+(?:\.\d+)*)\.?\s+(\S.*?)[\s.]{2,}(\d+)\s*$")
TOC_TITLE = re.compile(r"^\s*table of contents\s*$", re.IGNORECASE | re.MULTILINE)
TOKEN = r"([A-Z][A-Za-z0-9]{1,8})"         # an acronym as written: "DNS", "DoS", "UAs" (:func:`acronym_of`)
ACRONYM = re.compile(r"\b((?:[A-Za-z][A-Za-z0-9]*[\s-]+){1,7}[A-Za-z][A-Za-z0-9]*)\s+\(%s\)" % TOKEN)
ACRONYM_FIRST = re.compile(r"(?<![A-Za-z0-9])%s\s+\(((?:[A-Za-z][A-Za-z0-9]*[\s-]+){1,7}[A-Za-z][A-Za-z0-9]*)\)" % TOKEN)
GLOSSARY_MARKED = re.compile(r"^\s*%s(?:\s*[:=]\s*|\s+-{1,2}\s+)(\S.*)$" % TOKEN)
GLOSSARY_LISTED = re.compile(r"^\s*%s\s{2,}(\S.*)$" % TOKEN)
GLOSSARY_HEADING = re.compile(r"\b(?:terminology|terms|abbreviations?|acronyms?|definitions?|glossary|notation)\b",
                              re.IGNORECASE)
# the forms of a definition the miner reads, declared once (docs/realpage.md#the-fact-kinds)
DEFINITION_FORMS = {
    "long_first": "'Long Form (ACR)' in running prose, in any case",
    "acronym_first": "'ACR (Long Form)' in running prose",
    "glossary_marked": "a line 'ACR: Long Form', 'ACR = Long Form' or 'ACR - Long Form'",
    "glossary_listed": "a line 'ACR   Long Form' (spaces only) under a numbered heading of terminology, terms, "
                       "abbreviations, acronyms, definitions, a glossary or notation",
}
COLUMN_GAP = re.compile(r"\S {3,}\S")     # three spaces between words: a line laid out in columns
TABLE_PAGE_SHARE = 0.5      # a page whose non-blank lines are at least this share column lines is a table
END_OF_BODY = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s+)?(?:normative |informative )?"
                         r"(?:references|authors?'? addresses?|author's address)\s*$", re.IGNORECASE)
CONTENTS_PAGES = 8          # a table of contents starts on one of the first 8 pages ...
CONTENTS_SPAN = 6           # ... and runs over at most 6
TITLE_PREFIX = 20           # contents lines are cut short: titles agree on their first 20 characters
MIN_LEXICON_RFCS = 3        # an acronym is in the lexicon when at least 3 RFCs of the sample define it


def title_key(text):
    """A section title as a condition: lower case, whitespace collapsed, a trailing "." or ":" dropped, each word
    singular (:func:`singular`), so that "Examples" and "Example" are one section.

    >>> title_key("  Security   Considerations.")
    'security consideration'
    """
    return " ".join(singular(word) for word in " ".join(text.lower().replace("\u2019", "'").split()).rstrip(".:").split())


def column_line(line):
    """Whether a line is laid out in columns: three or more spaces between two of its words (its indentation
    aside), as a table row, an index entry or a figure is.

    >>> column_line("SNMP-APP   Simple Network Management Protocol (SNMP)   3413   62")
    True
    >>> column_line("   The Border Gateway Protocol (BGP) carries routes.  It is"), column_line("   indented only")
    (False, False)
    """
    return bool(COLUMN_GAP.search(line.strip()))


def prose(page):
    r"""The page's running prose: its text with every column line blanked (line breaks kept, so that a
    definition broken over two prose lines is still seen), or nothing for a page whose non-blank lines are at
    least :data:`TABLE_PAGE_SHARE` column lines (a table or an index page).

    >>> prose("Routing (R) runs.\nA   table   row (TR)\nMore prose.\n")
    'Routing (R) runs.\n\nMore prose.\n'
    >>> prose("a   b\nc   d\nplain (P)\n")
    ''
    """
    lines = page.split("\n")
    columns = [column_line(line) for line in lines]
    written = sum(1 for line in lines if line.strip())
    if written and sum(columns) >= TABLE_PAGE_SHARE * written:
        return ""
    return "\n".join("" if column else line for line, column in zip(lines, columns))


def singular(word):
    """A folded word without its plural ending: "-ies" to "-y", a final "s" dropped (not "-ss", not a word of
    three letters or fewer).

    >>> [singular(w) for w in ("services", "authorities", "address", "gas", "protocols")]
    ['service', 'authority', 'address', 'gas', 'protocol']
    """
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
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


def contents(pages):
    """``({section number: (title key, page number)}, contents page indices)`` from the table of contents:
    the first of the first :data:`CONTENTS_PAGES` pages with a "Table of Contents" line, and the pages after
    it that go on listing entries (at most :data:`CONTENTS_SPAN` in all)."""
    entries, toc_pages = {}, set()
    start = next((i for i, page in enumerate(pages[:CONTENTS_PAGES]) if TOC_TITLE.search(page)), None)
    if start is None:
        return entries, toc_pages
    for i in range(start, min(len(pages), start + CONTENTS_SPAN)):
        found = 0
        for line in pages[i].split("\n"):
            match = TOC_LINE.match(line)
            if match:
                entries.setdefault(match.group(1), (title_key(match.group(2)), int(match.group(3))))
                found += 1
        if not found and i > start:
            break
        if found:
            toc_pages.add(i)
    return entries, toc_pages


def headings(pages, skip):
    """``[(number, surface title, page index)]`` of the numbered headings at the left margin, outside the
    pages ``skip`` (the contents)."""
    out = []
    for i, page in enumerate(pages):
        if i in skip:
            continue
        for line in page.split("\n"):
            match = HEADING.match(line)
            if match and not TOC_LINE.match(line):
                out.append((match.group(1), " ".join(match.group(2).split()), i))
    return out


def body_pages(pages, toc_pages):
    """The body page indices: after the title page, not the contents, before the first page on which a
    line at the left margin starts the references or the authors' addresses."""
    end = len(pages)
    for i in range(1, len(pages)):
        if i not in toc_pages and any(END_OF_BODY.match(line) for line in pages[i].split("\n") if line[:1] != " "):
            end = i
            break
    return [i for i in range(1, end) if i not in toc_pages]


def definition_pages(pages, toc_pages, body):
    """The pages a definition is read on: the title page and the body pages.  The title page's prose defines as
    any other does ("a product of the Internet Engineering Task Force (IETF)"); the contents, the references and
    the authors' addresses define nothing (a reference's title spells out the cited document's acronyms)."""
    return ([0] if pages and 0 not in toc_pages and 0 not in body else []) + list(body)


def confirmed(entries, number, title, index):
    """A heading the contents list with the same number, title prefix and page (``index`` is 0-based)."""
    entry = entries.get(number)
    if not entry:
        return False
    key = title_key(title)
    return (entry[0].startswith(key[:TITLE_PREFIX]) or key.startswith(entry[0][:TITLE_PREFIX])) and \
        entry[1] == index + 1


def acronym_of(token):
    """The acronym a written token stands for, upper case, or None: at least two capitals, a final lower-case
    "s" a plural ("UAs" is UA), mixed case allowed ("DoS" is DOS).

    >>> acronym_of("DNS"), acronym_of("UAs"), acronym_of("DoS"), acronym_of("Bob"), acronym_of("IPsec")
    ('DNS', 'UA', 'DOS', None, 'IPSEC')
    """
    if token.endswith("s") and sum(1 for ch in token[:-1] if ch.isupper()) >= 2 and not token[:-1].islower() \
            and token[-2:-1].isupper():
        token = token[:-1]
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


def _definition(acronym, surface):
    return acronym, sense_key(surface), " ".join(surface.split())


def definitions(page, glossary_lines=()):
    r"""``[(acronym, sense key, surface long form)]`` of the definitions on a page, in the forms of
    :data:`DEFINITION_FORMS`: in its running prose (:func:`prose`) "Long Form (ACR)" whose initials spell the
    acronym (a word caught before the long form dropped) and "ACR (Long Form)"; on its lines the glossary forms
    (``glossary_lines``: the numbers of the page's lines under a glossary heading).  A plural "(ACRs)" defines
    the singular acronym.

    >>> definitions("The Border Gateway Protocol (BGP) and user agents (UAs).\n")
    [('BGP', 'border gateway protocol', 'Border Gateway Protocol'), ('UA', 'user agent', 'user agents')]
    >>> definitions("TLS (Transport Layer Security) is used.\nMTU:  Maximum Transmission Unit\n")
    [('TLS', 'transport layer security', 'Transport Layer Security'), ('MTU', 'maximum transmission unit', 'Maximum Transmission Unit')]
    >>> definitions("FTP   File Transfer Protocol\n"), definitions("FTP   File Transfer Protocol\n", {0})
    ([], [('FTP', 'file transfer protocol', 'File Transfer Protocol')])
    """
    out = []
    text = prose(page)
    for match in ACRONYM.finditer(text):
        surface, acronym = match.group(1), acronym_of(match.group(2))
        if acronym and initials_match(surface, acronym):
            out.append(_definition(acronym, spelled(surface, acronym)))
    for match in ACRONYM_FIRST.finditer(text):
        acronym, surface = acronym_of(match.group(1)), match.group(2)
        if acronym and _leading(surface, acronym) == surface:
            out.append(_definition(acronym, surface))
    for k, line in enumerate(page.split("\n")):
        match = GLOSSARY_MARKED.match(line) or (k in glossary_lines and GLOSSARY_LISTED.match(line))
        acronym = match and acronym_of(match.group(1))
        if acronym:
            surface = _leading(match.group(2), acronym)
            if surface:
                out.append(_definition(acronym, surface))
    return out


def glossary_lines(pages, indices):
    """``{page index: {line numbers}}`` of the lines of pages ``indices`` that fall under a numbered heading at
    the left margin whose title names a glossary (:data:`GLOSSARY_HEADING`), until the next such heading."""
    out, inside = {}, False
    for i in indices:
        for k, line in enumerate(pages[i].split("\n")):
            heading = HEADING.match(line)
            if heading and not TOC_LINE.match(line):
                inside = bool(GLOSSARY_HEADING.search(heading.group(2)))
            elif inside:
                out.setdefault(i, set()).add(k)
    return out


def mine(pages):
    """One RFC's facts: ``{"sections": {title key: (surface, page indices)}, "defined": {(acronym, sense key):
    page indices}, "long_forms": Counter of (acronym, sense key, surface)}`` and its ``body`` pages."""
    entries, toc_pages = contents(pages)
    body = body_pages(pages, toc_pages)
    body_set = set(body)
    sections = {}
    if entries:
        for number, surface, i in headings(pages, toc_pages):
            if i in body_set and confirmed(entries, number, surface, i) and not END_OF_BODY.match(surface):
                key = title_key(surface)
                if key not in sections:
                    sections[key] = (surface, set())
                sections[key][1].add(i)
    defined, long_forms = {}, Counter()
    readable = definition_pages(pages, toc_pages, body)
    glossary = glossary_lines(pages, readable)
    for i in readable:
        for acronym, sense, surface in definitions(pages[i], glossary.get(i, ())):
            defined.setdefault((acronym, sense), set()).add(i)
            long_forms[(acronym, sense, surface)] += 1
    return {"body": body, "sections": sections, "defined": defined, "long_forms": long_forms}


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
