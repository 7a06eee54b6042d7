#!/usr/bin/env python3
"""Measure what the IETF RFC series in Debian's doc-rfc packages yields for RealPage (issue 40).

This is the survey behind docs/realpage.md, run before anything is built: it reads the eight pinned
``doc-rfc-*`` packages (version 20230121-1), checks each against its pinned SHA-256, splits every RFC's
text at its form feeds, and measures pages, the running header and "[Page N]" footer, numbered section
headings and their confirmation by the RFC's own table of contents, formally defined acronyms, and how
many two- and three-condition queries pass CrossPage's gates (docs/schema.md: page gates; docs/stand-in.md:
construction).  Standard library only.  It prints one JSON document of figures; docs/realpage.md quotes
them.

    python tools/realpage_survey.py DEB_FOLDER [--stand-in .] > survey.json

DEB_FOLDER holds the ``.deb`` files (``apt-get download`` through a private apt configuration: see
docs/realpage.md#the-packages).  Nothing here is written into the release.
"""

import argparse
import gzip
import hashlib
import io
import json
import lzma
import os
import re
import statistics
import sys
import tarfile
import time
import unicodedata
from collections import Counter, defaultdict
from itertools import combinations

VERSION = "20230121-1"
PACKAGES = {        # package -> SHA-256 of doc-rfc-<name>_20230121-1_all.deb (the archive's Packages index)
    "doc-rfc-experimental": "bff38cd2d63f0f85ed7eaf954845f34bbaba56dfe3111c9e3e07624296889817",
    "doc-rfc-fyi-bcp": "d1db7332103b14ac2ce4e9e09188e38b3ade332bcc791990c7eb8064333a2b9e",
    "doc-rfc-informational": "143e78778eda9f187548b74028e98acf64ed42e2ea075af0774ca3bbcb0c6d01",
    "doc-rfc-misc": "395ce1db9ecbd281e162984aa6416487702cfa79f5e9d508522db55645ab20dc",
    "doc-rfc-old-std": "13aa366cbed958a3decc3a89e32c058746764906e1045b5cd00425b1be0ffc8a",
    "doc-rfc-others": "2b36a22145dd3fcb380079706d1a39afa7714499018d0a607a32325ead292500",
    "doc-rfc-std": "b9bfead1a230da198ab96ce70cc9fbb64dc600d914c1504eeb4c19e29f95734b",
    "doc-rfc-std-proposed": "b34f60b4bee98891524a2c2508f3d4dcb1e1468a2bd26e0a5f5aecf95806eea0",
}

# CrossPage's construction gates, as the stand-in uses them (docs/stand-in.md#the-pipeline)
MIN_GOLDS, MAX_GOLDS, MAX_UNION, MIN_SUBSETS = 1, 12, 88, 5
MIN_PAGES = 5

FOOTER = re.compile(r"\[Page (\d+)\]\s*$", re.IGNORECASE)
HEADER = re.compile(r"^RFC \d+\s")
HEADING = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+([A-Z][^\n]{1,78}?)\s*$")
TOC_LINE = re.compile(r"^\s*(\d+(?:\.\d+)*)\.?\s+(\S.*?)[\s.]{2,}(\d+)\s*$")
ACRONYM = re.compile(r"\b((?:[A-Z][A-Za-z0-9]*[\s-]+){1,7}[A-Z][A-Za-z0-9]*)\s+\(([A-Z][A-Z0-9]{1,7})\)")
END_OF_BODY = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s+)?(?:normative |informative )?(?:references|authors?'? addresses)\b",
                         re.IGNORECASE)


class SurveyError(Exception):
    """A package that cannot be read as pinned: the message names the file and what was wrong."""


def ar_members(data, where="<data>"):
    r"""``{name: bytes}`` of a Debian package's ``ar`` archive; a malformed or truncated archive is a
    :class:`SurveyError`.

    >>> member = b"debian-binary   0           0     0     100644  4         `\n2.0\n"
    >>> ar_members(b"!<arch>\n" + member)
    {'debian-binary': b'2.0\n'}
    """
    if data[:8] != b"!<arch>\n":
        raise SurveyError("%s: not an ar archive (a Debian package starts with !<arch>)" % where)
    out, at = {}, 8
    while at < len(data):
        header = data[at:at + 60]
        if len(header) < 60 or header[58:60] != b"`\n":
            raise SurveyError("%s: truncated or malformed ar member header at byte %d" % (where, at))
        name = header[:16].decode("ascii", errors="replace").strip().rstrip("/")
        size_field = header[48:58].decode("ascii", errors="replace").strip()
        if not size_field.isdigit() or at + 60 + int(size_field) > len(data):
            raise SurveyError("%s: member %r: size %r runs past the end of the file" % (where, name, size_field))
        size = int(size_field)
        out[name] = data[at + 60:at + 60 + size]
        at += 60 + size + (size % 2)
    return out


def package_files(path):
    """``(name, bytes)`` of every RFC text and metadata file of one package."""
    members = ar_members(open(path, "rb").read(), path)
    data = next((v for k, v in members.items() if k.startswith("data.tar")), None)
    if data is None:
        raise SurveyError("%s: no data.tar member (members: %s)" % (path, ", ".join(sorted(members))))
    try:
        if data[:6] == b"\xfd7zXZ\x00":
            data = lzma.decompress(data)
        archive = tarfile.open(fileobj=io.BytesIO(data))
    except (lzma.LZMAError, tarfile.TarError) as exc:
        raise SurveyError("%s: data.tar cannot be read: %s" % (path, exc))
    with archive:
        for member in archive:
            base = os.path.basename(member.name)
            if member.isfile() and re.match(r"rfc\d+\.(txt\.gz|json)$", base):
                yield base, archive.extractfile(member).read()


def decode_member(name, data, where):
    """One package member: ``rfcNNNN.json`` as its JSON object, ``rfcNNNN.txt.gz`` as its text (UTF-8, an
    undecodable byte replaced); a member that does not decode is a :class:`SurveyError` naming it."""
    try:
        if name.endswith(".json"):
            value = json.loads(data.decode("utf-8"))
            if not isinstance(value, dict):
                raise ValueError("not a JSON object")
            return value
        return gzip.decompress(data).decode("utf-8", errors="replace")
    except (ValueError, EOFError, OSError, RecursionError) as exc:
        raise SurveyError("%s: member %s does not decode: %s" % (where, name, str(exc)[:120]))


def split_pages(text):
    """The pages of an RFC's text: split at form feeds, NFKC, the running header and the footer stripped;
    also whether each page ended in "[Page N]"."""
    text = unicodedata.normalize("NFKC", text.replace("\r\n", "\n"))
    raw = text.split("\f")
    if raw and not raw[-1].strip():
        raw = raw[:-1]
    pages, footers = [], []
    for i, page in enumerate(raw):
        lines = page.split("\n")
        body = [line.rstrip() for line in lines]
        nonblank = [j for j, line in enumerate(body) if line.strip()]
        footer = bool(nonblank) and bool(FOOTER.search(body[nonblank[-1]]))
        if footer:
            body[nonblank[-1]] = ""
        if i > 0 and nonblank and HEADER.match(body[nonblank[0]].strip()):
            body[nonblank[0]] = ""
        pages.append("\n".join(body))
        footers.append(footer)
    return pages, footers


def _title(text):
    return " ".join(text.lower().replace("\u2019", "'").split()).rstrip(".:")


def toc_entries(pages):
    """``{section number: (title, page)}`` from the table of contents, and the pages it occupies."""
    entries, toc_pages = {}, set()
    start = next((i for i, p in enumerate(pages[:8]) if re.search(r"^\s*table of contents\s*$", p,
                                                                   re.IGNORECASE | re.MULTILINE)), None)
    if start is None:
        return entries, toc_pages
    for i in range(start, min(len(pages), start + 6)):
        found = 0
        for line in pages[i].split("\n"):
            m = TOC_LINE.match(line)
            if m:
                entries.setdefault(m.group(1), (_title(m.group(2)), int(m.group(3))))
                found += 1
        if found == 0 and i > start:
            break
        if found:
            toc_pages.add(i)
    return entries, toc_pages


def headings(pages, toc_pages):
    """``[(number, title, page index)]`` of the numbered section headings at the left margin."""
    out = []
    for i, page in enumerate(pages):
        if i in toc_pages:
            continue
        for line in page.split("\n"):
            m = HEADING.match(line)
            if m and not TOC_LINE.match(line):
                out.append((m.group(1), _title(m.group(2)), i))
    return out


def body_range(pages, found):
    """The body pages: after the title page and the contents, before the references / authors' addresses."""
    end = len(pages)
    for _, title, i in found:
        if END_OF_BODY.match(title) and i > 0:
            end = min(end, i + 1)
            break
    return end


def _confirmed(toc, number, title, page_index):
    """A heading the table of contents lists with the same number, the same title (its first 20 characters:
    contents lines are often cut short) and the same page."""
    entry = toc.get(number)
    return bool(entry) and (entry[0].startswith(title[:20]) or title.startswith(entry[0][:20])) and \
        entry[1] == page_index + 1


def initials_match(long_form, acronym):
    words = [w for w in re.split(r"[\s-]+", long_form) if w]
    letters = "".join(w[0] for w in words).upper()
    return letters.endswith(acronym) or letters == acronym


def survey(deb_folder, stand_in=None, seed=20230121):
    started = time.process_time()
    out = {"version": VERSION, "packages": {}, "rfc_texts_in_two_packages": 0}
    texts, meta = {}, {}
    for name, digest in sorted(PACKAGES.items()):
        path = os.path.join(deb_folder, "%s_%s_all.deb" % (name, VERSION))
        if not os.path.isfile(path):
            raise SurveyError("%s: missing (apt-get download %s=%s; docs/realpage.md#the-packages)" % (
                path, name, VERSION))
        if os.path.islink(path):
            raise SurveyError("%s: a symbolic link; give the downloaded file itself" % path)
        got = hashlib.sha256(open(path, "rb").read()).hexdigest()
        if got != digest:
            raise SurveyError("%s: sha256 expected %s, found %s" % (path, digest, got))
        count = 0
        for base, data in package_files(path):
            number = int(re.match(r"rfc(\d+)", base).group(1))
            if base.endswith(".txt.gz") and number in texts:
                out["rfc_texts_in_two_packages"] += 1
            if base.endswith(".json"):
                meta[number] = decode_member(base, data, path)
            else:
                texts[number] = decode_member(base, data, path)
                count += 1
        out["packages"][name] = {"sha256": digest, "rfc_texts": count}
    out["rfc_texts"] = len(texts)
    out["read_cpu_s"] = round(time.process_time() - started, 1)

    docs, all_counts = {}, []
    footer_pages = total_pages = 0
    page_count_agree = page_count_known = 0
    heading_count = confirmed = toc_having = 0
    definitions = defaultdict(set)            # acronym -> RFCs defining it
    long_forms = defaultdict(Counter)
    for number in sorted(texts):
        pages, footers = split_pages(texts[number])
        total_pages += len(pages)
        footer_pages += sum(footers)
        declared = meta.get(number, {}).get("page_count")
        if declared and str(declared).isdigit():
            page_count_known += 1
            page_count_agree += int(declared) == len(pages)
        toc, toc_pages = toc_entries(pages)
        all_counts.append((len(pages), bool(toc)))
        found = headings(pages, toc_pages)
        end = body_range(pages, found)
        long = len(pages) >= MIN_PAGES
        if toc and long:
            toc_having += 1
            for num, title, i in found:
                heading_count += 1
                confirmed += _confirmed(toc, num, title, i)
        body = [i for i in range(1, end) if i not in toc_pages]
        sections, defined = {}, defaultdict(set)
        if toc:
            for num, title, i in found:
                if i in body and _confirmed(toc, num, title, i) and not END_OF_BODY.match(title):
                    sections.setdefault("section:" + title, set()).add(i)
        for i in body:
            for m in ACRONYM.finditer(pages[i]):
                long_form, acronym = " ".join(m.group(1).split()), m.group(2)
                if initials_match(long_form, acronym):
                    definitions[acronym].add(number)
                    defined[acronym].add(i)
                    long_forms[acronym][" ".join(long_form.lower().replace("-", " ").split())] += 1
        docs[number] = {"pages": pages, "words": [len(p.split()) for p in pages], "body": body, "sections": sections,
                        "defined": defined, "long": long}
    out["pages_total"] = total_pages
    out["pages_ending_in_page_footer"] = round(footer_pages / total_pages, 4)
    out["page_count_metadata_agrees"] = round(page_count_agree / page_count_known, 4) if page_count_known else None
    long_docs = sorted(n for n in docs if docs[n]["long"])
    counts = [len(docs[n]["pages"]) for n in long_docs]
    words = [w for n in long_docs for w in docs[n]["words"]]
    out["rfcs_with_at_least_5_pages"] = len(long_docs)
    out["their_pages"] = sum(counts)
    out["pages_mean"] = round(statistics.fmean(counts), 1)
    out["pages_median"] = statistics.median(counts)
    out["pages_max"] = max(counts)
    out["words_per_page_mean"] = round(statistics.fmean(words), 1)
    out["rfcs_with_a_table_of_contents"] = toc_having
    out["numbered_headings_in_them"] = heading_count
    out["headings_confirmed_by_toc"] = round(confirmed / heading_count, 4) if heading_count else None
    lexicon = {a: long_forms[a].most_common(1)[0][0] for a, rfcs in definitions.items() if len(rfcs) >= 3}
    out["acronyms_defined_in_3_or_more_rfcs"] = len(lexicon)
    out["yield_over_rfcs_with_at_least_5_pages"] = _yield(docs, long_docs, lexicon)
    if stand_in:
        with open(os.path.join(stand_in, "data", "v1", "corpus.jsonl"), encoding="utf-8") as handle:
            sizes = [json.loads(line)["pages"] for line in handle if line.strip()]
        out["stand_in_pages"] = {"documents": len(sizes), "mean": round(statistics.fmean(sizes), 1),
                                 "median": statistics.median(sizes), "max": max(sizes)}
        out["rfc_page_quantiles"] = _quantiles(counts)
        out["stand_in_page_quantiles"] = _quantiles(sizes)
        strata = _strata(sizes, all_counts)
        out["sampling_by_stand_in_page_deciles"] = strata
        sample = _sample(docs, strata, seed)
        out["sample"] = {"seed": seed, "rfcs": len(sample), "pages": sum(len(docs[n]["pages"]) for n in sample),
                         "yield": _yield(docs, sample, lexicon)}
    out["cpu_s"] = round(time.process_time() - started, 1)
    return out


def _yield(docs, numbers, lexicon):
    """Conditions and admissible queries over the RFCs ``numbers``: section facts (a numbered heading its
    contents confirm, on its page), ``entity`` facts (a body page naming a lexicon acronym or its long form)
    and ``defines`` facts (a body page defining a lexicon acronym)."""
    conditions = defaultdict(dict)            # condition -> {rfc: pages}
    by_first_word = defaultdict(list)
    for a in sorted(lexicon):
        by_first_word[lexicon[a].split()[0]].append(a)
    for number in numbers:
        doc = docs[number]
        for cond, pages in doc["sections"].items():
            conditions[cond][number] = frozenset(pages)
        found = defaultdict(set)
        for i in doc["body"]:
            text = doc["pages"][i]
            words = set(re.findall(r"[A-Za-z0-9]+", text))
            lowered = None
            for a in words & lexicon.keys():
                found[a].add(i)
            for first in {w.lower() for w in words} & by_first_word.keys():
                for a in by_first_word[first]:
                    if i not in found[a]:
                        lowered = lowered if lowered is not None else " ".join(text.lower().replace("-", " ").split())
                        if lexicon[a] in lowered:
                            found[a].add(i)
        for a, hits in found.items():
            conditions["entity:" + a][number] = frozenset(hits)
        for a, hits in doc["defined"].items():
            if a in lexicon:
                conditions["defines:" + a][number] = frozenset(hits)
    out = {"conditions": dict(sorted(Counter(c.split(":", 1)[0] for c in conditions).items()))}
    usable = {c: d for c, d in conditions.items() if len(d) <= MAX_UNION}
    out["conditions_in_2_to_88_rfcs"] = dict(sorted(Counter(c.split(":", 1)[0] for c, d in usable.items()
                                                           if len(d) >= 2).items()))
    out.update(_queries(usable))
    return out


def _sample(docs, strata, seed):
    """A seeded sample with the stand-in's count of documents in each of its page-count decile bins."""
    import random
    rng = random.Random(seed)
    chosen = []
    for row in strata:
        low, _, high = row["pages"].partition("-")
        low = int(low.rstrip("+"))
        high = int(high) if high else 10 ** 6
        pool = sorted(n for n in docs if low <= len(docs[n]["pages"]) <= high)
        chosen += rng.sample(pool, min(row["stand_in"], len(pool)))
    return sorted(chosen)


def _strata(sizes, all_counts):
    """Per decile bin of the stand-in's page counts: its documents, and the RFCs (any length; with a table of
    contents) whose page count falls in the bin -- what a sample matched to the stand-in's shape draws from."""
    cuts = sorted(set(int(c) for c in statistics.quantiles(sizes, n=10)))
    edges = [1] + [c + 1 for c in cuts] + [10 ** 6]
    rows = []
    for low, high in zip(edges, edges[1:]):
        rows.append({"pages": "%d-%d" % (low, high - 1) if high < 10 ** 6 else "%d+" % low,
                     "stand_in": sum(1 for x in sizes if low <= x < high),
                     "rfcs": sum(1 for x, _ in all_counts if low <= x < high),
                     "rfcs_with_contents": sum(1 for x, t in all_counts if low <= x < high and t)})
    return rows


def _quantiles(values):
    cuts = statistics.quantiles(values, n=10)
    return [round(c, 1) for c in cuts]


def _gold(page_sets):
    """Both page gates on one all-condition document: no page establishes every condition, and the
    conditions can take distinct pages (Hall's condition)."""
    if frozenset.intersection(*page_sets):
        return False
    for k in range(2, len(page_sets) + 1):
        for group in combinations(page_sets, k):
            if len(frozenset().union(*group)) < k:
                return False
    return True


def _admissible(members):
    """Whether a candidate's per-condition ``{rfc: pages}`` pass the gates; and its gold RFCs."""
    union = set().union(*members)
    if len(union) > MAX_UNION:
        return False, ()
    everyone = set.intersection(*(set(m) for m in members))
    if not MIN_GOLDS <= len(everyone) <= MAX_GOLDS or len(union) - len(everyone) < MIN_SUBSETS:
        return False, ()
    if not all(_gold([m[d] for m in members]) for d in everyone):
        return False, ()
    return True, everyone


def _queries(usable):
    by_doc = defaultdict(list)
    for cond, members in usable.items():
        for d in members:
            by_doc[d].append(cond)
    pairs, triples, gold_docs = 0, 0, set()
    mix = Counter()
    seen = set()
    for d in sorted(by_doc):
        conds = sorted(by_doc[d])
        for a, b in combinations(conds, 2):
            if (a, b) in seen:
                continue
            seen.add((a, b))
            ok, golds = _admissible([usable[a], usable[b]])
            if ok:
                pairs += 1
                gold_docs |= golds
                mix["+".join(sorted(c.split(":", 1)[0] for c in (a, b)))] += 1
    seen3 = set()
    for d in sorted(by_doc):
        conds = sorted(c for c in by_doc[d])
        if len(conds) > 60:           # bound the per-document enumeration; the count is then a lower bound
            conds = sorted(conds, key=lambda c: (len(usable[c]), c))[:60]
        for a, b, c in combinations(conds, 3):
            if (a, b, c) in seen3:
                continue
            seen3.add((a, b, c))
            if len(set(usable[a]) | set(usable[b]) | set(usable[c])) > MAX_UNION:
                continue
            ok, golds = _admissible([usable[a], usable[b], usable[c]])
            if ok:
                triples += 1
                gold_docs |= golds
                mix["+".join(sorted(x.split(":", 1)[0] for x in (a, b, c)))] += 1
    return {"admissible_two_condition_queries": pairs, "admissible_three_condition_queries_lower_bound": triples,
            "distinct_gold_rfcs": len(gold_docs), "queries_by_condition_kinds": dict(sorted(mix.items()))}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("debs", help="folder holding the eight doc-rfc .deb files")
    parser.add_argument("--stand-in", default=None, help="a checkout, to compare with the stand-in's page counts")
    parser.add_argument("--seed", type=int, default=20230121, help="the sample's seed (default: the version)")
    args = parser.parse_args(argv)
    try:
        result = survey(args.debs, args.stand_in, args.seed)
    except SurveyError as exc:
        sys.stderr.write("realpage_survey: %s\n" % exc)
        return 2
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
