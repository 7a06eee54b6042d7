"""The RealPage fact miner (docs/realpage.md#the-fact-kinds; paper section 3.2).

A fact is a condition one body page of an RFC establishes.  Two kinds are mined:

* **section** facts: a numbered heading at the left margin of a body page, confirmed by the RFC's own table
  of contents, which must list the same number, the same title (compared on its first 20 characters, since
  contents lines are cut short) and the same page.  The condition is the normalised title
  (:func:`title_key`); the evidence is the heading's page.
* **defines** facts: a body page that defines an acronym formally, as "Long Form (ACR)" where the initials of
  the long form spell the acronym (:func:`initials_match`).  Only acronyms of the lexicon
  (:func:`lexicon`: defined in at least three RFCs of the sample) become conditions.

Body pages are the pages after the title page, other than the table of contents, and before the page where
the references or the authors' addresses begin.
"""

import re
from collections import Counter

HEADING = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+([A-Z][^\n]{1,78}?)\s*$")
TOC_LINE = re.compile(r"^\s*(\d+(?:\.\d+)*)\.?\s+(\S.*?)[\s.]{2,}(\d+)\s*$")
TOC_TITLE = re.compile(r"^\s*table of contents\s*$", re.IGNORECASE | re.MULTILINE)
ACRONYM = re.compile(r"\b((?:[A-Z][A-Za-z0-9]*[\s-]+){1,7}[A-Z][A-Za-z0-9]*)\s+\(([A-Z][A-Z0-9]{1,7})\)")
END_OF_BODY = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s+)?(?:normative |informative )?"
                         r"(?:references|authors?'? addresses?|author's address)\s*$", re.IGNORECASE)
CONTENTS_PAGES = 8          # a table of contents starts on one of the first 8 pages ...
CONTENTS_SPAN = 6           # ... and runs over at most 6
TITLE_PREFIX = 20           # contents lines are cut short: titles agree on their first 20 characters
MIN_LEXICON_RFCS = 3        # an acronym is in the lexicon when at least 3 RFCs of the sample define it


def title_key(text):
    """A section title as a condition: lower case, whitespace collapsed, a trailing "." or ":" dropped.

    >>> title_key("  Security   Considerations.")
    'security considerations'
    """
    return " ".join(text.lower().replace("\u2019", "'").split()).rstrip(".:")


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


def confirmed(entries, number, title, index):
    """A heading the contents list with the same number, title prefix and page (``index`` is 0-based)."""
    entry = entries.get(number)
    if not entry:
        return False
    key = title_key(title)
    return (entry[0].startswith(key[:TITLE_PREFIX]) or key.startswith(entry[0][:TITLE_PREFIX])) and \
        entry[1] == index + 1


def mine(pages):
    """One RFC's facts: ``{"sections": {title key: (surface, page indices)}, "defined": {acronym: page
    indices}, "long_forms": Counter of (acronym, normalised long form, surface)}`` and its ``body`` pages."""
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
    for i in body:
        for match in ACRONYM.finditer(pages[i]):
            surface, acronym = match.group(1), match.group(2)
            if initials_match(surface, acronym):
                surface = spelled(surface, acronym)
                defined.setdefault(acronym, set()).add(i)
                long_forms[(acronym, " ".join(surface.lower().replace("-", " ").split()), surface)] += 1
    return {"body": body, "sections": sections, "defined": defined, "long_forms": long_forms}


def lexicon(mined):
    """``{acronym: (normalised long form, surface long form)}`` over the mined RFCs ``mined`` (a dict of
    :func:`mine` results): the acronyms that at least :data:`MIN_LEXICON_RFCS` of them define, each with its
    most frequent normalised long form (ties: the alphabetically first) and that form's most frequent surface.
    """
    defining, forms = Counter(), {}
    for facts in mined.values():
        defining.update(list(facts["defined"]))
        for (acronym, form, surface), count in facts["long_forms"].items():
            forms.setdefault(acronym, {}).setdefault(form, Counter())[surface] += count
    out = {}
    for acronym in sorted(a for a, n in defining.items() if n >= MIN_LEXICON_RFCS):
        by_form = forms[acronym]
        form = min(by_form, key=lambda f: (-sum(by_form[f].values()), f))
        surface = min(by_form[form], key=lambda s: (-by_form[form][s], s))
        out[acronym] = (form, surface)
    return out
