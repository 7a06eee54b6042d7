"""The released RealPage (data/v3) against the pinned packages, when they are present (docs/realpage.md).

* every released page hash is the hash of the page the packages give;
* the section facts, re-derived from the page text by code written apart from the miner (string operations
  here, regular expressions there), are exactly the inventory's section rows;
* every defines fact's page holds the acronym after a long form it spells;
* every repair of the automatic audit is on its page, by a check apart from the audit's.

Without the packages (``$NCLUE_REALPAGE_PACKAGES`` or ``~/.cache/nclue/doc-rfc-20230121-1``) each test
skips, naming the missing package.  The released files alone are checked by ``python reproduce.py``
(``v3.construction``)."""

import json
import os

import pytest
from conftest import REPO, released

from nclue.builder.realpage import packages, pages

pytestmark = pytest.mark.slow
V3 = os.path.join(REPO, "data", "v3")


def _rows(name):
    with open(os.path.join(V3, name), encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


@pytest.fixture(scope="module")
def released_pages():
    """``{docid: [page text]}`` of the released sample, from the packages."""
    folder = packages.default_folder()
    absent = packages.missing(folder)
    if absent:
        pytest.skip("the pinned packages are not in %s: %s missing" % (folder, ", ".join(absent)))
    if not os.path.isdir(V3):
        pytest.skip(("this checkout has no " + released("v3")))
    texts = packages.read_texts(folder)
    out = {}
    for row in _rows("corpus.jsonl"):
        number = int(row["docid"][3:])
        package, data, _ = texts[number]
        out[row["docid"]] = pages.split_pages(packages.rfc_text(data, row["docid"]))
    return out


def test_every_released_page_hash_is_the_packages_page(released_pages):
    import hashlib
    wrong = [(row["docid"], i + 1) for row in _rows("corpus.jsonl")
             for i, digest in enumerate(row["page_sha256"])
             if i >= len(released_pages[row["docid"]]) or
             hashlib.sha256(released_pages[row["docid"]][i].encode("utf-8")).hexdigest() != digest]
    assert wrong == [] and all(len(released_pages[r["docid"]]) == r["pages"] for r in _rows("corpus.jsonl"))


# --- section facts, re-derived apart from nclue/builder/realpage/fact_miner.py ------------------------------------
# docs/realpage.md#what-the-labels-mean, by string operations (the miner uses regular expressions)

def _dotted_digits(text, i):
    """The end of a run "3", "3.1", "3.1.4" of ASCII digits and single dots starting at ``i`` (no trailing dot)."""
    j = i
    while j < len(text) and text[j].isascii() and text[j].isdigit():
        j += 1
    if j == i:
        return i
    while j + 1 < len(text) and text[j] == "." and text[j + 1].isascii() and text[j + 1].isdigit():
        j += 1
        while j < len(text) and text[j].isascii() and text[j].isdigit():
            j += 1
    return j


def _number_and_rest(text, any_case=False):
    """``(number, rest)`` when ``text`` starts with a section number -- digits ("3", "3.1"), a capital letter with
    its dot ("A.", "B.2") or "Appendix" and a letter ("Appendix C") -- then an optional "." or ":", then white
    space; ``number`` without "Appendix".  ``any_case``: letters in any case (the references' headings)."""
    upper = (lambda ch: ch.isascii() and ch.isalpha()) if any_case else (lambda ch: "A" <= ch <= "Z")
    start = 0
    head = text[:8].lower() if any_case else text[:8]
    if head == ("appendix" if any_case else "Appendix") and text[8:9].isspace():
        start = 8
        while start < len(text) and text[start].isspace():
            start += 1
        if start >= len(text) or not upper(text[start]):
            return None
        end = start + 1
        if text[end:end + 1] == "." and _dotted_digits(text, end + 1) > end + 1:
            end = _dotted_digits(text, end + 1)
    elif text[:1].isascii() and text[:1].isdigit():
        end = _dotted_digits(text, 0)
    elif text[:1] and upper(text[0]):
        if text[1:2] == "." and _dotted_digits(text, 2) > 2:
            end = _dotted_digits(text, 2)
        elif text[1:2] in (".", ":"):
            end = 1
        else:
            return None
    else:
        return None
    number = text[start:end]
    if text[end:end + 1] in (".", ":"):
        end += 1
    if end >= len(text) or not text[end].isspace():
        return None
    return number, text[end:].strip()


def _contents_entry(line):
    """``(number, title key)`` of a numbered contents line: a number, a title, two or more dots or spaces, a page."""
    found = _number_and_rest(line.strip())
    if found is None:
        return None
    number, rest = found
    if not _ends_in_page(rest):
        return None
    digits = len(rest) - len(rest.rstrip("0123456789"))
    title = rest[:-digits].rstrip(" .")
    return (number, _key(title)) if title else None


def _ends_in_page(text):
    """Whether a line ends in a page number after two or more dots or spaces, with text before them."""
    text = text.rstrip()
    digits = len(text) - len(text.rstrip("0123456789"))
    before = text[:len(text) - digits]
    return digits > 0 and len(before) - len(before.rstrip(" .")) >= 2 and before.rstrip(" .") != ""


def _singular(word):
    """docs/realpage.md#what-the-labels-mean's plural folding, by string operations: "-ies" to "-y" (a word of
    five letters or more), a final "s" dropped (a word of four letters or more, not ending "ss", "us" or "is")."""
    if len(word) >= 5 and word[-3:] == "ies":
        return word[:-3] + "y"
    if len(word) >= 4 and word[-1] == "s" and word[-2:] not in ("ss", "us", "is"):
        return word[:-1]
    return word


def _key(title):
    """A title folded: lower case, a possessive "'s" dropped, runs of other characters than a-z and 0-9 one
    space, each word singular."""
    text = title.lower()
    for quote in ("'", "\u2019"):
        parts = text.split(quote + "s")
        text = parts[0] + "".join(("" if not rest[:1].isalnum() and rest[:1] != "_" else quote + "s") + rest
                                  for rest in parts[1:])
    words, word = [], []
    for ch in text + " ":
        if ("a" <= ch <= "z") or ("0" <= ch <= "9"):
            word.append(ch)
        elif word:
            words.append("".join(word))
            word = []
    return " ".join(_singular(w) for w in words)


def _slug(key):
    import hashlib
    slug = key.replace(" ", "-") or "untitled"
    if len(slug) > 52:
        slug = slug[:43].rstrip("-") + "-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:8]
    return "sec:" + slug


REFERENCE_TITLES = {"references", "bibliography", "author's address"} | {
    "%s%s %s" % (who, mark, where) for who in ("author", "authors", "editor", "editors") for mark in ("", "'")
    for where in ("address", "addresses")}


def _starts_references(line):
    """A left-margin line whose title (a number before it allowed) is one of the references' headings."""
    if line[:1] in (" ", ""):
        return False
    words = line.strip()
    found = _number_and_rest(words + " ", any_case=True)
    if found is not None and found[1]:
        words = found[1]
    words = words.lower()
    for lead in ("normative ", "informative "):
        if words.startswith(lead):
            words = words[len(lead):]
    return words.rstrip() in REFERENCE_TITLES


def _read_lines(page_list):
    """``(contents, {page: [line or None]})``: the contents' ``{number: title key}``, and each page's lines with
    the contents and everything from the references on set to None."""
    lines = [p.split("\n") for p in page_list]
    contents = {}
    start = next((i for i, page in enumerate(lines[:8])
                  if any(line.strip().lower() in ("table of contents", "contents") for line in page)), None)
    if start is not None:
        for i in range(start, min(len(lines), start + 6)):
            first = 0
            if i == start:
                first = next(k for k, line in enumerate(lines[i]) if line.strip().lower() in ("table of contents",
                                                                                              "contents"))
            numbered = [k for k in range(first, len(lines[i])) if _contents_entry(lines[i][k])]
            if not numbered and i > start:
                break
            for k in numbered:
                number, key = _contents_entry(lines[i][k])
                contents.setdefault(number, key)
            last = numbered[-1] if numbered else first
            for k in range(last + 1, len(lines[i])):
                if _ends_in_page(lines[i][k]):
                    last = k
                elif lines[i][k].strip():
                    break
            for k in range(first, last + 1):
                lines[i][k] = None
    for i, page in enumerate(lines):
        for k, line in enumerate(page):
            if line is not None and _starts_references(line):
                for j in range(i, len(lines)):
                    for m in range(k if j == i else 0, len(lines[j])):
                        lines[j][m] = None
                return contents, lines
    return contents, lines


def _section_facts(page_list):
    """``{cid: {page}}`` by the rule docs/realpage.md states, written without the miner's expressions."""
    contents, lines = _read_lines(page_list)
    out = {}
    for i in range(1, len(lines)):
        for line in lines[i]:
            if line is None or _contents_entry(line):
                continue
            found = _number_and_rest(line)
            if found is None:
                continue
            number, title = found
            if not ("A" <= title[:1] <= "Z") or not 2 <= len(title) <= 79:
                continue
            key = _key(title)
            entry = contents.get(number)
            if entry is not None and (entry.startswith(key[:20]) or key.startswith(entry[:20])):
                out.setdefault(_slug(key), set()).add(i + 1)
    return out


def test_section_facts_rederived_from_the_text_match_the_inventory(released_pages):
    released = {(r["docid"], r["cid"]): set(r["pages"]) for r in _rows("inventory.jsonl") if r["cid"].startswith("sec:")}
    derived = {}
    for docid, page_list in released_pages.items():
        for cid, found in _section_facts(page_list).items():
            derived[(docid, cid)] = found
    missing = sorted(set(released) - set(derived))[:5]
    extra = sorted(set(derived) - set(released))[:5]
    different = sorted(k for k in set(released) & set(derived) if released[k] != derived[k])[:5]
    assert (missing, extra, different) == ([], [], []) and len(released) > 10000


def _initials(words):
    return "".join(w[0] for w in words).upper()


def _spelled_around(text, acronym):
    """Whether ``text`` (one line or a page, white space collapsed) holds the acronym, written as the docs allow
    (any case, a plural "s" or "es"), next to words whose initials spell it: "words (ACR)", "ACR (words)", or
    at the start "ACR: words", "ACR = words", "ACR - words", "ACR   words" (an article before the words allowed)."""
    plain = "".join(ch if ch.isalnum() else " " for ch in text)
    tokens = plain.split()
    for k, token in enumerate(tokens):
        written = token
        for plural in ("es", "s"):
            if token.endswith(plural) and token[:-len(plural)].upper() == acronym:
                written = token[:-len(plural)]
                break
        if written.upper() != acronym or sum(ch.isupper() for ch in written) < 2:
            continue
        if _initials(tokens[max(0, k - len(acronym)):k]) == acronym:
            return True
        after = tokens[k + 1:]
        if after[:1] and after[0].lower() in ("the", "a", "an"):          # "ACR (the Long Form)", "ACR: A Long Form"
            after = after[1:]
        if _initials(after[:len(acronym)]) == acronym:
            return True
    return False


def test_every_defines_fact_page_holds_a_spelled_definition(released_pages):
    wrong, checked = [], 0
    for row in _rows("inventory.jsonl"):
        if not row["cid"].startswith("def:"):
            continue
        acronym = row["cid"].split(":")[1]
        for page in row["pages"]:
            checked += 1
            if not _spelled_around(released_pages[row["docid"]][page - 1], acronym):
                wrong.append((row["docid"], row["cid"], page))
    assert wrong[:5] == [] and checked > 5000


# --- the audit's findings, checked on the page text apart from nclue/builder/realpage/v3_audit.py ---------------

def _folded(text):
    out, space = [], False
    for ch in text.lower().replace("-", " "):
        if ch.isspace():
            space = True
            continue
        if space and out:
            out.append(" ")
        space = False
        out.append(ch)
    return "".join(out)


def _words(text):
    """The letters-and-digits words of a title, lower case (a slug's words)."""
    word, out = [], []
    for ch in text.lower() + " ":
        if ch.isascii() and ch.isalnum():
            word.append(ch)
        elif word:
            out.append("".join(word))
            word = []
    return out


def test_every_repair_finding_is_on_its_page(released_pages):
    """A repair's page holds what its evidence says: the folded "long form (acr)" or "acr (long form)", or a
    numbered heading line whose words are the condition's title."""
    conditions = {c["cid"]: c for c in _rows("conditions.jsonl")}
    wrong, checked = [], 0
    for finding in _rows("audit.jsonl"):
        if finding["decision"] != "repair":
            continue
        checked += 1
        page = released_pages[finding["docid"]][finding["page"] - 1]
        condition = conditions[finding["cid"]]
        if condition["kind"] == "entity":
            ok = _spelled_around(page, finding["cid"].split(":")[1])
        else:
            title = [_singular(w) for w in _words(condition["label"])]
            ok = any(found is not None and [_singular(w) for w in _words(found[1])] == title
                     for found in (_number_and_rest(line) for line in page.split("\n") if line[:1].isdigit()))
        if not ok:
            wrong.append((finding["qid"], finding["docid"], finding["cid"], finding["page"]))
    build = json.load(open(os.path.join(V3, "build.json"), encoding="utf-8"))
    assert wrong == [] and checked == build["audit"]["repairs"] > 0
