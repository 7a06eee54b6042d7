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
docs/realpage.md#the-packages).  Nothing here is written into the v3_writer.
"""

import argparse
import json
import os
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from itertools import combinations

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from nclue.builder.realpage import fact_miner, packages, pages as page_text, sample, settings  # noqa: E402
from nclue.core.verify import distinct_page_valid, single_page_solvable  # noqa: E402

VERSION = packages.VERSION
# CrossPage's construction gates, as RealPage uses them (nclue/builder/realpage/settings.py)
MIN_GOLDS, MAX_GOLDS = settings.CONSTRUCTION.min_golds, settings.CONSTRUCTION.max_golds
MAX_UNION, MIN_SUBSETS = settings.CONSTRUCTION.max_union, settings.CONSTRUCTION.min_subsets
MIN_PAGES = 5
SurveyError = packages.PackageError


def _meta(data, where):
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise SurveyError("%s: metadata does not decode: %s" % (where, str(exc)[:120]))
    return value if isinstance(value, dict) else {}


def survey(deb_folder, stand_in=None, seed=settings.SEED):
    started = time.process_time()
    out = {"version": VERSION, "packages": {}, "rfc_texts_in_two_packages": 0}
    texts, meta = {}, {}
    for name in sorted(packages.PACKAGES):
        path = packages.checked_path(deb_folder, name)
        count = 0
        for number, kind, data in packages.read_package(path):
            where = "%s: rfc%d" % (path, number)
            if kind == "meta":
                meta[number] = _meta(data, where)
                continue
            if number in texts:
                out["rfc_texts_in_two_packages"] += 1
            texts[number] = packages.rfc_text(data, where)
            count += 1
        out["packages"][name] = {"sha256": packages.PACKAGES[name], "rfc_texts": count}
    out["rfc_texts"] = len(texts)
    out["read_cpu_s"] = round(time.process_time() - started, 1)

    docs, all_counts = {}, []
    out["unpaginated_rfc_texts"] = 0          # one page of more than a printed page's lines: left out
    footer_pages = total_pages = 0
    page_count_agree = page_count_known = 0
    heading_count = confirmed = toc_having = 0
    definitions = defaultdict(set)            # acronym -> RFCs defining it
    for number in sorted(texts):
        raw = page_text.raw_pages(texts[number])
        pages = page_text.split_pages(texts[number])
        total_pages += len(pages)
        footer_pages += sum(page_text.has_footer(p) for p in raw)
        declared = meta.get(number, {}).get("page_count")
        if declared and str(declared).isdigit():
            page_count_known += 1
            page_count_agree += int(declared) == len(pages)
        if not page_text.paginated(pages):
            out["unpaginated_rfc_texts"] += 1
            continue
        reading = fact_miner.Reading(pages)
        all_counts.append((len(pages), bool(reading.entries)))
        long = len(pages) >= MIN_PAGES
        if reading.entries and long:
            toc_having += 1
            for num, title, _ in reading.headings():
                heading_count += 1
                confirmed += reading.confirmed(num, title)
        facts = fact_miner.mine(pages)
        for acronym in facts["defined"]:
            definitions[acronym].add(number)
        docs[number] = {"pages": pages, "words": [len(p.split()) for p in pages], "body": reading.body,
                        "sections": {"section:" + key: indices for key, (_, indices) in facts["sections"].items()},
                        "facts": facts, "long": long}
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
    mined = {n: docs[n]["facts"] for n in docs}
    canonical = fact_miner.senses(mined)
    lexicon = fact_miner.lexicon(mined)            # {(acronym, sense): long form}: the senses of 3 or more RFCs
    out["senses_defined_in_3_or_more_rfcs"] = len(lexicon)
    out["acronyms_with_a_sense_defined_in_3_or_more_rfcs"] = len({a for a, _ in lexicon})
    for number in docs:                            # each RFC's definitions as senses of the lexicon
        docs[number]["senses"] = {}
        for raw, hits in docs[number]["facts"]["defined"].items():
            if canonical[raw] in lexicon:
                docs[number]["senses"].setdefault(canonical[raw], set()).update(hits)
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
        sample_ = sample.draw({n: len(docs[n]["pages"]) for n in docs}, seed)
        out["sample"] = {"seed": seed, "rfcs": len(sample_), "pages": sum(len(docs[n]["pages"]) for n in sample_),
                         "yield": _yield(docs, sample_, lexicon)}
    out["cpu_s"] = round(time.process_time() - started, 1)
    return out


def _yield(docs, numbers, lexicon):
    """Conditions and admissible queries over the RFCs ``numbers``: section facts (a numbered heading its
    contents confirm, on its page), ``entity`` facts (a body page naming a lexicon acronym or its long form)
    and ``defines`` facts (a body page defining a lexicon acronym)."""
    conditions = defaultdict(dict)            # condition -> {rfc: pages}
    by_first_word = defaultdict(list)
    mentioned = {}                            # acronym -> its most defined sense, as a mention names it
    for a, sense in sorted(lexicon):
        mentioned.setdefault(a, sense)
    for a, sense in mentioned.items():
        by_first_word[sense.split()[0]].append(a)
    for number in numbers:
        doc = docs[number]
        for cond, pages in doc["sections"].items():
            conditions[cond][number] = frozenset(pages)
        found = defaultdict(set)
        for i in doc["body"]:
            text = doc["pages"][i]
            words = set(re.findall(r"[A-Za-z0-9]+", text))
            lowered = None
            for a in words & mentioned.keys():
                found[a].add(i)
            for first in {w.lower() for w in words} & by_first_word.keys():
                for a in by_first_word[first]:
                    if i not in found[a]:
                        lowered = lowered if lowered is not None else " ".join(text.lower().replace("-", " ").split())
                        if mentioned[a] in lowered:
                            found[a].add(i)
        for a, hits in found.items():
            conditions["entity:" + a][number] = frozenset(hits)
        for (a, sense), hits in doc["senses"].items():
            conditions["defines:%s:%s" % (a, sense)][number] = frozenset(hits)
    out = {"conditions": dict(sorted(Counter(c.split(":", 1)[0] for c in conditions).items()))}
    usable = {c: d for c, d in conditions.items() if len(d) <= MAX_UNION}
    out["conditions_in_2_to_88_rfcs"] = dict(sorted(Counter(c.split(":", 1)[0] for c, d in usable.items()
                                                           if len(d) >= 2).items()))
    out.update(_queries(usable))
    return out


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
    """Both page gates on one all-condition document (the independent verifier's, nclue/core/verify.py)."""
    return not single_page_solvable(page_sets) and distinct_page_valid(page_sets)


def _admissible(members):
    """Whether a candidate's per-condition ``{rfc: pages}`` pass the gates, RealPage's conjunction gate among
    them (every condition held by a subset RFC); and its gold RFCs."""
    union = set().union(*members)
    if len(union) > MAX_UNION:
        return False, ()
    everyone = set.intersection(*(set(m) for m in members))
    if not MIN_GOLDS <= len(everyone) <= MAX_GOLDS or len(union) - len(everyone) < MIN_SUBSETS:
        return False, ()
    if any(set(m) == everyone for m in members):
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
    parser.add_argument("--seed", type=int, default=settings.SEED, help="the sample's seed (default: the version)")
    args = parser.parse_args(argv)
    try:
        result = survey(args.debs, args.stand_in, args.seed)
    except (SurveyError, settings.RealPageError) as exc:
        sys.stderr.write("realpage_survey: %s\n" % exc)
        return 2
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
