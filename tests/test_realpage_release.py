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

from conftest import REPO
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
        pytest.skip("this checkout has no data/v3")
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

def _number_and_rest(text):
    """``(number, rest)`` when ``text`` starts with a dotted section number ("3", "3.1", "3.1.") and a space."""
    i = 0
    while i < len(text) and (text[i].isdigit() or (text[i] == "." and i > 0 and text[i - 1].isdigit())):
        i += 1
    number = text[:i].rstrip(".")
    if not number or not number[0].isdigit() or i >= len(text) or not text[i].isspace():
        return None
    if any(not part.isdigit() or not part.isascii() for part in number.split(".")):
        return None
    return number, text[i:].strip()


def _contents_entry(line):
    """``(number, title key, page)`` of a contents line: a number, a title, two or more dots or spaces, a page."""
    found = _number_and_rest(line.strip())
    if found is None:
        return None
    number, rest = found
    digits = len(rest) - len(rest.rstrip("0123456789"))
    if digits == 0 or not rest[-digits:].isascii():
        return None
    title, page = rest[:-digits], int(rest[-digits:])
    stripped = title.rstrip(" .")
    if len(title) - len(stripped) < 2 or not stripped:
        return None
    return number, _key(stripped), page


def _singular(word):
    """docs/realpage.md#what-the-labels-mean's plural folding, by string operations: "-ies" to "-y" (a word of
    five letters or more), a final "s" dropped (not "-ss"; a word of four letters or more)."""
    if len(word) >= 5 and word[-3:] == "ies":
        return word[:-3] + "y"
    if len(word) >= 4 and word[-1] == "s" and word[-2] != "s":
        return word[:-1]
    return word


def _key(title):
    words = " ".join(title.lower().replace("\u2019", "'").split())
    while words[-1:] in (".", ":"):
        words = words[:-1]
    return " ".join(_singular(w) for w in words.split())


def _slug(key):
    import hashlib
    out, dash = [], False
    for ch in key:
        if ("a" <= ch <= "z") or ("0" <= ch <= "9"):
            out.append(ch)
            dash = False
        elif not dash:
            out.append("-")
            dash = True
    slug = "".join(out).strip("-") or "untitled"
    if len(slug) > 52:
        slug = slug[:43].rstrip("-") + "-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:8]
    return "sec:" + slug


def _ends_body(line):
    if line[:1] == " ":
        return False
    words = line.strip().lower()
    found = _number_and_rest(words + " ")
    if found is not None:
        words = found[1]
    for lead in ("normative ", "informative "):
        if words.startswith(lead):
            words = words[len(lead):]
    return words in ("references", "authors' addresses", "author's address", "authors addresses",
                     "author addresses", "authors' address", "authors address", "author address", "author's addresses")


def _section_facts(page_list):
    """``{cid: {page}}`` by the rule docs/realpage.md states, written without the miner's expressions."""
    start = next((i for i, p in enumerate(page_list[:8])
                  if any(line.strip().lower() == "table of contents" for line in p.split("\n"))), None)
    if start is None:
        return {}
    contents, toc_pages = {}, set()
    for i in range(start, min(len(page_list), start + 6)):
        entries = [e for e in map(_contents_entry, page_list[i].split("\n")) if e]
        if not entries and i > start:
            break
        if entries:
            toc_pages.add(i)
        for number, key, page in entries:
            contents.setdefault(number, (key, page))
    end = next((i for i in range(1, len(page_list)) if i not in toc_pages and
                any(_ends_body(line) for line in page_list[i].split("\n"))), len(page_list))
    out = {}
    for i in range(1, end):
        if i in toc_pages:
            continue
        for line in page_list[i].split("\n"):
            if not line[:1].isdigit() or _contents_entry(line):
                continue
            found = _number_and_rest(line)
            if found is None:
                continue
            number, title = found
            if not ("A" <= title[:1] <= "Z") or not 2 <= len(title) <= 79:
                continue
            key = _key(title)
            entry = contents.get(number)
            if entry is None or entry[1] != i + 1 or _ends_body(title):
                continue
            if entry[0].startswith(key[:20]) or key.startswith(entry[0][:20]):
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
    (any case, a plural "s"), next to words whose initials spell it: "words (ACR)", "ACR (words)", or at the
    start "ACR: words", "ACR = words", "ACR - words", "ACR   words"."""
    plain = "".join(ch if ch.isalnum() else " " for ch in text)
    tokens = plain.split()
    for k, token in enumerate(tokens):
        written = token[:-1] if token[-1:] == "s" and token[:-1].upper() == acronym else token
        if written.upper() != acronym or sum(ch.isupper() for ch in written) < 2:
            continue
        if _initials(tokens[max(0, k - len(acronym)):k]) == acronym:
            return True
        if _initials(tokens[k + 1:k + 1 + len(acronym)]) == acronym:
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
