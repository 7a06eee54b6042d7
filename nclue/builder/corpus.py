"""Synthetic documents, the condition catalog and the document-wide inventory.

Everything here is drawn from :class:`nclue.core.rng.Stream` streams derived from
the build seed, so a seed fixes the instrument.  Nothing is real: documents
are ``sim_wb_NNNNN`` / ``sim_pmc_NNNNN`` and every row says ``synthetic``.
"""

import math
import re

from ..core.rng import Stream
from . import vocab


def page_counts(stream, n_docs, total, median, maximum, sigma):
    """Long-tailed page counts with an exact total, median and maximum.

    Draw log-normal values around ``median`` (Box-Muller normals), clip to
    ``1..maximum``, sort, force the middle value to ``median`` (values below it
    are capped at it, values above floored at it) and the largest to
    ``maximum``, then move single pages on documents strictly above the median
    (never the maximum) until the total is exact.  Returned in draw order
    (unsorted) so document order is not length order.
    """
    if n_docs % 2 == 0:
        raise ValueError("an odd document count keeps the median an integer page count")
    raw = []
    for _ in range(n_docs):
        value = int(round(median * math.exp(sigma * stream.normal())))
        raw.append(min(max(value, 1), maximum))
    order = sorted(range(n_docs), key=lambda i: (raw[i], i))
    mid = n_docs // 2
    values = [raw[i] for i in order]
    for pos in range(n_docs):
        if pos < mid:
            values[pos] = min(values[pos], median)
        elif pos > mid:
            values[pos] = max(values[pos], median)
    values[mid] = median
    values[-1] = maximum
    adjustable = list(range(mid + 1, n_docs - 1))
    deficit = total - sum(values)
    guard = 0
    while deficit != 0:
        guard += 1
        if guard > 10_000_000:
            raise RuntimeError("cannot reach the page total")
        pos = adjustable[stream.randbelow(len(adjustable))]
        if deficit > 0 and values[pos] < maximum:
            values[pos] += 1
            deficit -= 1
        elif deficit < 0 and values[pos] > median + 1:
            values[pos] -= 1
            deficit += 1
    out = [0] * n_docs
    for pos, i in enumerate(order):
        out[i] = values[pos]
    return out


def slug(label):
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


def condition_catalog(stream, popularity_exponent):
    """The condition catalog: sections and entity phrases with popularity weights.

    Popularity is Zipf-like: the conditions are put in a random order and the
    one at rank ``r`` weighs ``max(1, round(1000 * r ** -popularity_exponent))``
    (doubled for generic headings), so a few conditions are common and many are
    rare, as in a corpus-wide inventory.
    """
    rows = []
    for label, topic, aliases in vocab.SECTIONS:
        rows.append(("sec", "section", label, topic, aliases))
    for label, topic, aliases in vocab.entity_table():
        rows.append(("ent", "entity", label, topic, aliases))
    ranks = list(range(1, len(rows) + 1))
    stream.shuffle(ranks)
    catalog = []
    for (prefix, kind, label, topic, aliases), rank in zip(rows, ranks):
        weight = max(1, int(round(1000 * rank ** -popularity_exponent)))
        if topic == "generic" and kind == "section":
            weight *= 2
        forms = [label]
        for alias in aliases:
            if alias not in forms:
                forms.append(alias)
        # the construction miner's recorded surface form (the raw query text)
        mined = forms[stream.randbelow(len(forms))] if len(forms) > 1 and stream.randbelow(3) == 0 else label
        if kind == "section" and stream.randbelow(4) == 0:
            mined = mined.upper()
        catalog.append({
            "cid": "%s:%s" % (prefix, slug(label)),
            "kind": kind,
            "label": label,
            "aliases": forms[1:],
            "topic": topic,
            "weight": weight,
            "mined": mined,
            "synthetic": True,
        })
    catalog.sort(key=lambda c: c["cid"])
    return catalog


def assign_series(cfg, seed, rows):
    """Group World Bank documents into series (the documents of one project or country program: an
    appraisal, its implementation reviews, a completion report).  In document order, a document starts a
    series of one with probability ``1 - series_share``, else of ``2 + k`` documents with ``k`` geometric
    (continuation probability ``series_continue``); members share the first member's topic and place and get
    ``series`` = ``sim_series_NNNN``.  PMC articles are not in series."""
    stream = Stream.derived(seed, "corpus", "series")
    wb = [r for r in rows if r["source"] == "wb"]
    i, number = 0, 0
    while i < len(wb):
        size = 1
        if stream.uniform() < cfg.series_share:
            size = 2
            while stream.uniform() < cfg.series_continue:
                size += 1
        members = wb[i:i + size]
        i += size
        if len(members) < 2:
            continue
        number += 1
        head = members[0]
        place_topic = head["title"].split(": ", 1)[1]
        for m in members:
            m["topic"] = head["topic"]
            m["title"] = m["title"].split(": ", 1)[0] + ": " + place_topic
            m["series"] = "sim_series_%04d" % number
    return rows


def documents(cfg, seed):
    """Corpus rows: docid, source, pages, topic, title, year, series (possibly empty), synthetic."""
    stream = Stream.derived(seed, "corpus", "pages")
    n_docs = cfg.n_wb + cfg.n_pmc
    counts = page_counts(stream, n_docs, cfg.total_pages, cfg.median_pages, cfg.max_pages, cfg.page_sigma)
    # PMC articles are short: give each PMC slot a mid-length count by swapping with a WB slot.
    pmc_slots = list(range(cfg.n_wb, n_docs))
    swap_stream = Stream.derived(seed, "corpus", "pmc-swap")
    mid_band = [i for i in range(cfg.n_wb) if 6 <= counts[i] <= 30]
    for slot in pmc_slots:
        if counts[slot] > 40 and mid_band:
            j = mid_band.pop(swap_stream.randbelow(len(mid_band)))
            counts[slot], counts[j] = counts[j], counts[slot]
    topic_stream = Stream.derived(seed, "corpus", "topics")
    wb_topics = sorted(vocab.WB_TOPICS)
    pmc_topics = sorted(vocab.PMC_TOPICS)
    countries = vocab.entity_table()
    places = [label for label, topic, _ in countries if topic == "generic" and " " not in label and "-" not in label]
    rows = []
    for i in range(n_docs):
        if i < cfg.n_wb:
            docid, source = "sim_wb_%05d" % (i + 1), "wb"
            topic = topic_stream.pick(wb_topics)
            place = topic_stream.pick(places)
            kind = topic_stream.pick(["Project Appraisal Document", "Country Assessment", "Implementation Review", "Policy Note", "Sector Report"])
            title = "Synthetic %s: %s %s" % (kind, place, topic.capitalize())
        else:
            docid, source = "sim_pmc_%05d" % (i - cfg.n_wb + 1), "pmc"
            topic = topic_stream.pick(pmc_topics)
            words = vocab.PMC_TOPICS[topic].split()
            title = "Synthetic article on %s and %s" % (topic_stream.pick(words), topic_stream.pick(words))
        rows.append({
            "docid": docid,
            "source": source,
            "pages": counts[i],
            "topic": topic,
            "title": title,
            "year": 2005 + topic_stream.randbelow(19),
            "series": "",
            "synthetic": True,
        })
    return assign_series(cfg, seed, rows)


def _pool(catalog, doc):
    """Indices of conditions a document may carry: its own topic first, then the generic pool."""
    if doc["source"] == "pmc":
        own = [i for i, c in enumerate(catalog) if c["topic"] == "pmc"]
        generic = [i for i, c in enumerate(catalog) if c["topic"] == "generic" and c["kind"] == "entity"]
    else:
        own = [i for i, c in enumerate(catalog) if c["topic"] == doc["topic"]]
        generic = [i for i, c in enumerate(catalog) if c["topic"] not in ("pmc",) and c["topic"] != doc["topic"]]
    return own, generic


def _weighted_distinct(stream, indices, catalog, k, taken):
    cumulative, total = [], 0
    for i in indices:
        total += catalog[i]["weight"]
        cumulative.append(total)
    chosen = []
    tries = 0
    while len(chosen) < k and tries < 50 * (k + 1):
        tries += 1
        i = indices[stream.weighted_index(cumulative, total)]
        if i not in taken:
            taken.add(i)
            chosen.append(i)
    return chosen


def _series_profiles(cfg, seed, docs, catalog):
    """Per series: the conditions its documents tend to share (``profile_size`` drawn by popularity from the
    series topic's pool, a ``topic_share`` of them from the topic itself)."""
    profiles = {}
    for doc in docs:
        sid = doc.get("series")
        if not sid or sid in profiles:
            continue
        stream = Stream.derived(seed, "inventory", "series", sid)
        own, generic = _pool(catalog, doc)
        taken = set()
        chosen = _weighted_distinct(stream, own, catalog, min(len(own), int(round(cfg.profile_size * cfg.topic_share))),
                                    taken)
        chosen += _weighted_distinct(stream, generic, catalog, cfg.profile_size - len(chosen), taken)
        profiles[sid] = chosen
    return profiles


def inventory(cfg, seed, docs, catalog):
    """Document-wide condition inventory rows ``{docid, cid, pages}``.

    A document of ``L`` pages carries about ``fact_scale * L ** fact_power``
    facts of its own (log-normal noise, at most ``fact_cap``), drawn by
    popularity, a ``topic_share`` of them from its own topic; a document of a
    series also keeps each condition of its series profile with probability
    ``profile_keep``.  A section is established on
    one page (sometimes two consecutive), an entity phrase on one to several
    pages drawn without replacement.
    """
    rows = []
    profiles = _series_profiles(cfg, seed, docs, catalog)
    for doc in docs:
        stream = Stream.derived(seed, "inventory", doc["docid"])
        pages = doc["pages"]
        noise = math.exp(0.35 * stream.normal())
        scale = cfg.fact_scale * (cfg.pmc_fact_factor if doc["source"] == "pmc" else 1.0)
        n_facts = max(1, min(cfg.fact_cap, int(round(scale * pages ** cfg.fact_power * noise))))
        own, generic = _pool(catalog, doc)
        taken = set()
        chosen = [ci for ci in profiles.get(doc.get("series"), ()) if stream.uniform() < cfg.profile_keep]
        taken.update(chosen)
        n_profile = len(chosen)
        n_own = min(len(own), int(round(n_facts * cfg.topic_share)))
        chosen += _weighted_distinct(stream, own, catalog, n_own, taken)
        chosen += _weighted_distinct(stream, generic, catalog, n_facts + n_profile - len(chosen), taken)
        for ci in sorted(chosen, key=lambda i: catalog[i]["cid"]):
            cond = catalog[ci]
            if cond["kind"] == "section":
                start = 1 + stream.randbelow(pages)
                fact_pages = [start]
                if start < pages and stream.randbelow(5) == 0:
                    fact_pages.append(start + 1)
            else:
                k = 1
                while k < 6 and stream.randbelow(2) == 0:
                    k += 1
                k = min(k, pages)
                fact_pages = sorted(1 + p for p in stream.sample_distinct(pages, k))
            rows.append({"docid": doc["docid"], "cid": cond["cid"], "pages": fact_pages})
    return rows
