"""On-demand synthetic page text (never stored in the repository; docs/stand-in.md#page-text).

Any single page is a function of ``(seed, document record, the document's
true facts, the condition catalog, page number)``: a document-level stream
``derive(seed, "doc", docid)`` fixes the document's vocabulary, its typical
page length, its running header, its OCR-noise level and its non-fact
mentions; a page-level stream ``derive(seed, "page", docid, page)`` fixes the
words of that page.  So one page can be produced alone, and the whole corpus
is reproducible.

What a page contains, with the stated parameters of :class:`TextConfig`:

* a page length drawn per page from a log-normal around the document's
  typical length (itself log-normal around the source's median words per
  page), clipped to ``[words_min, words_max]``;
* a running header (the document's title) on every page of a share of the
  documents: within-document repetition;
* prose mixing generic report words, the document's topic words (Zipf-like:
  a document repeats a few of them often), its own invented names, words of
  other topics, and ordinary words of condition labels (each document uses a
  random share of that vocabulary): so a label's words also occur where the
  condition is not established;
* on each true fact page of a section, a heading line, and sometimes a
  sentence naming it; on each true fact page of an entity, one or more
  sentences naming it (a geometric number); each statement uses a *surface*:
  the label, an alias, a paraphrase (:func:`nclue.builder.vocab.paraphrases`)
  or a casing variant;
* mentions that establish nothing: a table of contents on page 1 of longer
  documents, "not covered" / "see the companion report" sentences naming
  conditions the document does not carry, and cross-references to its own
  conditions on other pages;
* OCR-style character noise at a per-document rate (World Bank documents).
"""

import math
from dataclasses import dataclass
from typing import NamedTuple

from ..core.rng import Stream
from . import vocab

_NEAR_MISS = [
    "This volume does not cover {x}; it is treated in a separate report.",
    "For {x}, see the companion report listed in the bibliography.",
    "{x} was outside the scope of this assessment.",
    "Earlier drafts proposed a chapter on {x}, which was later dropped.",
]
_CROSS_REF = [
    "As noted under {x}, the findings are discussed later in the document.",
    "Readers interested in {x} should consult the relevant chapter.",
]
_ENTITY_SENTENCES = [
    "The analysis documents {x} in detail for the period under review.",
    "Evidence on {x} is reported with supporting figures below.",
    "{x} is examined using the administrative data described here.",
    "Table results summarise the role of {x} across the program regions.",
]
_SECTION_SENTENCES = [
    "This section on {x} sets out the main elements agreed with the counterparts.",
    "The {x} described here follows the approach of the previous operation.",
]
class Statement(NamedTuple):
    """A piece of page text that states a true fact: a heading line or a sentence, verbatim."""
    cid: str
    kind: str        # "heading" | "sentence"
    text: str


class Page(NamedTuple):
    text: str
    statements: tuple    # the page's :class:`Statement`s, in text order (lines first, then sentences)


_OCR = {"l": "1", "o": "0", "e": "c", "m": "rn", "i": "l", "s": "5"}
_OTHER = sorted(vocab.WB_TOPICS)


@dataclass(frozen=True)
class TextConfig:
    """The stated parameters of the page text (set once, a priori; docs/stand-in.md#page-text)."""
    # median words per page by source (typical full-text pages of reports and articles)
    words_median: tuple = (("wb", 280), ("pmc", 550))
    doc_sigma: float = 0.3          # spread of a document's typical page length (log-normal)
    page_sigma: float = 0.45        # spread of page lengths within a document (log-normal)
    words_min: int = 12
    words_max: int = 1200
    header_share: float = 0.6       # documents with a running header on every page
    # surface of a fact statement, in percent: label, alias, paraphrase, casing variant
    surface_mix: tuple = (55, 15, 10, 20)
    # prose word mixture, in percent: generic, topic, own names, label vocabulary, other topics
    prose_mix: tuple = (42, 30, 12, 8, 8)
    label_vocabulary_share: float = 0.2   # share of the label vocabulary a document uses in prose
    more_entity_mentions: float = 0.5     # P(one more mention of an entity on its fact page), repeated
    section_sentence: float = 0.5         # P(a sentence naming the section below its heading)
    ocr_levels: tuple = (0.0, 0.0, 0.01, 0.02, 0.04)   # per-document OCR noise rates (World Bank)

    def median_for(self, source):
        return dict(self.words_median).get(source, dict(self.words_median).get("wb", 280))


def _invented_word(stream):
    return "".join(stream.pick(vocab.SYLLABLES) for _ in range(2 + stream.randbelow(2)))


def surface_forms(cond):
    """The surfaces a fact of ``cond`` may be written with: (label, aliases, paraphrases)."""
    return cond["label"], list(cond["aliases"]), vocab.paraphrases(cond["label"])


def _surface(stream, cond, mix):
    label, aliases, paraphrases = surface_forms(cond)
    roll = stream.randbelow(100)
    if roll < mix[0]:
        return label
    roll -= mix[0]
    if roll < mix[1]:
        return aliases[stream.randbelow(len(aliases))] if aliases else label
    roll -= mix[1]
    if roll < mix[2]:
        return paraphrases[stream.randbelow(len(paraphrases))] if paraphrases else label
    return label.upper() if stream.randbelow(2) else label.lower()


def _zipf_list(stream, words, top=12):
    """A document's weighted copy of a word list: a random order, the word at rank r repeated
    ``max(1, top // r)`` times, so a uniform pick from it repeats a few words often."""
    order = list(words)
    stream.shuffle(order)
    out = []
    for rank, word in enumerate(order, 1):
        out.extend([word] * max(1, top // rank))
    return out


class DocumentPlan:
    """Everything about one document that its pages share."""

    def __init__(self, seed, doc, facts, catalog_by_cid, catalog_order, text_cfg, label_vocabulary):
        self.seed = seed
        self.doc = doc
        self.cfg = text_cfg
        # one stream per document, drawn in this order: vocabulary and page-length scale, header, near
        # misses, cross-references (a change of order changes every page of the stand-in)
        stream = Stream.derived(seed, "doc", doc["docid"])
        self._draw_vocabulary(stream, label_vocabulary)
        headings = self._place_facts(facts, catalog_by_cid)
        self.mentions = {}
        # where each condition is mentioned without being established: (cid, page, kind);
        # used by the construction miner (spurious facts) and the audit simulation, never by the text
        self.non_facts = []
        self._contents(headings)
        self._near_misses(stream, facts, catalog_order)
        self._cross_references(stream, facts, catalog_by_cid)

    def _draw_vocabulary(self, stream, label_vocabulary):
        """The document's weighted topic words, invented words, label words, OCR noise, median page length
        and running header."""
        doc, text_cfg = self.doc, self.cfg
        topic_words = (vocab.PMC_TOPICS.get(doc["topic"]) or vocab.WB_TOPICS[doc["topic"]]).split()
        self.topic_words = _zipf_list(stream, topic_words)
        self.own_words = _zipf_list(stream, [_invented_word(stream) for _ in range(10)], top=6)
        used = [w for w in label_vocabulary if stream.uniform() < text_cfg.label_vocabulary_share]
        self.label_words = used or [stream.pick(label_vocabulary)]
        self.noise = 0.0 if doc["source"] == "pmc" else stream.pick(list(text_cfg.ocr_levels))
        self.median_words = text_cfg.median_for(doc["source"]) * math.exp(text_cfg.doc_sigma * stream.normal())
        title = doc.get("title") or ""
        self.header = " ".join(title.split()[:7]) if title and stream.uniform() < text_cfg.header_share else ""

    def _place_facts(self, facts, catalog_by_cid):
        """``facts_on``: the conditions established on each page; returns the section headings as
        ``(first page, condition)`` in page order."""
        self.facts_on = {}
        headings = []
        for row in facts:
            cond = catalog_by_cid[row["cid"]]
            for page in row["pages"]:
                self.facts_on.setdefault(page, []).append(cond)
            if cond["kind"] == "section":
                headings.append((row["pages"][0], cond))
        headings.sort(key=lambda t: (t[0], t[1]["cid"]))
        return headings

    def _contents(self, headings):
        """A long document (8 pages or more) lists its sections on page 1: mentions, not facts, elsewhere."""
        if self.doc["pages"] >= 8 and headings:
            self.mentions.setdefault(1, []).append(
                "Contents: " + "; ".join("%s %d" % (c["label"], p) for p, c in headings) + ".")
            self.non_facts.extend((c["cid"], 1, "contents") for p, c in headings if p != 1)

    def _near_misses(self, stream, facts, catalog_order):
        """Up to ``1 + pages // 12`` (at most 8) conditions of the document's topic it does not have, each
        mentioned once on a random page in a near-miss sentence."""
        doc, pages = self.doc, self.doc["pages"]
        own = {row["cid"] for row in facts}
        pool = [c for c in catalog_order if c["cid"] not in own and
                (c["topic"] == doc["topic"] or c["topic"] == "generic" or
                 (doc["source"] == "pmc" and c["topic"] == "pmc"))]
        n_miss = min(len(pool), 1 + pages // 12, 8)
        for i in stream.sample_distinct(len(pool), n_miss) if pool else []:
            page = 1 + stream.randbelow(pages)
            template = stream.pick(_NEAR_MISS)
            self.mentions.setdefault(page, []).append(template.format(
                x=_surface(stream, pool[i], self.cfg.surface_mix)))
            self.non_facts.append((pool[i]["cid"], page, "near-miss"))

    def _cross_references(self, stream, facts, catalog_by_cid):
        """In a document of more than 3 pages, a third of its facts are referred to on a page that does not
        establish them."""
        pages = self.doc["pages"]
        for row in facts:
            if pages > 3 and stream.randbelow(3) == 0:
                page = 1 + stream.randbelow(pages)
                if page not in row["pages"]:
                    cond = catalog_by_cid[row["cid"]]
                    self.mentions.setdefault(page, []).append(stream.pick(_CROSS_REF).format(
                        x=_surface(stream, cond, self.cfg.surface_mix)))
                    self.non_facts.append((cond["cid"], page, "cross-reference"))

    def _prose(self, stream, n_words):
        """``n_words`` words of prose in sentences of 8 to 16 words."""
        cfg = self.cfg
        pools = (vocab.GENERIC_WORDS, self.topic_words, self.own_words, self.label_words)
        cut = []
        acc = 0
        for share in cfg.prose_mix:
            acc += share
            cut.append(acc)
        rolls = stream.randbelow_batch(acc, n_words)
        picks = stream.randbelow_batch(1 << 16, n_words)
        words = []
        for roll, pick in zip(rolls, picks):
            if roll < cut[0]:
                pool = pools[0]
            elif roll < cut[1]:
                pool = pools[1]
            elif roll < cut[2]:
                pool = pools[2]
            elif roll < cut[3]:
                pool = pools[3]
            else:
                pool = vocab.WB_TOPICS[_OTHER[(pick * len(_OTHER)) >> 16]].split()
                pick = (pick * 7919) & 0xFFFF
            words.append(pool[(pick * len(pool)) >> 16])
        sentences = []
        i = 0
        lengths = stream.randbelow_batch(9, n_words // 8 + 2)
        for length in lengths:
            if i >= len(words):
                break
            chunk = words[i:i + 8 + length]
            i += 8 + length
            chunk[0] = chunk[0].capitalize()
            sentences.append(" ".join(chunk) + ".")
        return sentences

    def page_text(self, page):
        """The text of one page (1-based), deterministic from the seed."""
        return self.page(page).text

    def page(self, page):
        """One page as a :class:`Page`: its text and the statements of the facts it establishes.

        The text is assembled from pieces (header and heading lines, then the prose sentences); a
        statement is the piece (a heading line or a sentence) that states one of the page's true facts,
        as it appears in the text (after OCR noise).  OCR noise is applied piece by piece in text order,
        which draws the same numbers as applying it to the joined text (the separators are never
        garbled), so the text does not depend on the pieces being tracked."""
        if not 1 <= page <= self.doc["pages"]:
            raise ValueError("page %d outside %s (1..%d)" % (page, self.doc["docid"], self.doc["pages"]))
        cfg = self.cfg
        stream = Stream.derived(self.seed, "page", self.doc["docid"], page)
        n_words = int(round(self.median_words * math.exp(cfg.page_sigma * stream.normal())))
        n_words = min(max(n_words, cfg.words_min), cfg.words_max)
        sentences = [(s, None) for s in self._prose(stream, n_words)]
        lines = []
        if self.header:
            lines.append(("%s %d" % (self.header, page), None))
        for cond in sorted(self.facts_on.get(page, []), key=lambda c: c["cid"]):
            if cond["kind"] == "section":
                surface = _surface(stream, cond, cfg.surface_mix)
                lines.append(("%d.%d %s" % (1 + stream.randbelow(9), 1 + stream.randbelow(9), surface),
                              (cond["cid"], "heading")))
                if stream.uniform() < cfg.section_sentence:
                    pos = stream.randbelow(min(3, len(sentences)) + 1)
                    sentences.insert(pos, (stream.pick(_SECTION_SENTENCES).format(
                        x=_surface(stream, cond, cfg.surface_mix)), (cond["cid"], "sentence")))
            else:
                while True:
                    pos = stream.randbelow(len(sentences) + 1)
                    sentences.insert(pos, (stream.pick(_ENTITY_SENTENCES).format(
                        x=_surface(stream, cond, cfg.surface_mix)), (cond["cid"], "sentence")))
                    if stream.uniform() >= cfg.more_entity_mentions:
                        break
        for mention in self.mentions.get(page, []):
            sentences.insert(stream.randbelow(len(sentences) + 1), (mention, None))
        if self.noise:
            lines = [(self._ocr(stream, t), tag) for t, tag in lines]
            sentences = [(self._ocr(stream, t), tag) for t, tag in sentences]
        text = "\n".join([t for t, _ in lines] + [" ".join(t for t, _ in sentences)])
        statements = tuple(Statement(tag[0], tag[1], t) for t, tag in lines + sentences if tag is not None)
        return Page(text, statements)

    def _ocr(self, stream, text):
        out = []
        threshold = int(self.noise * 1_000_000)
        for ch in text:
            if ch in _OCR and stream.randbelow(1_000_000) < threshold:
                out.append(_OCR[ch])
            else:
                out.append(ch)
        return "".join(out)

_CACHED = 4096


class PageSource:
    """Random-access page text for a whole stand-in instrument (from its *true* facts)."""

    def __init__(self, seed, docs, catalog, fact_rows, text_cfg=None):
        self.seed = seed
        self.cfg = text_cfg or TextConfig()
        self.docs = {d["docid"]: d for d in docs}
        self.order = [d["docid"] for d in docs]
        self.catalog_by_cid = {c["cid"]: c for c in catalog}
        self.catalog_order = sorted(catalog, key=lambda c: c["cid"])
        self.label_vocabulary = vocab.label_words(
            c["label"] for c in self.catalog_order if not (c["kind"] == "entity" and c["topic"] == "generic"
                                                            and " " not in c["label"]))
        self.facts = {}
        for row in fact_rows:
            self.facts.setdefault(row["docid"], []).append(row)
        self._plans = {}
        self._recent = {}

    def plan(self, docid):
        plan = self._plans.get(docid)
        if plan is None:
            plan = DocumentPlan(self.seed, self.docs[docid], self.facts.get(docid, []), self.catalog_by_cid,
                                self.catalog_order, self.cfg, self.label_vocabulary)
            self._plans[docid] = plan
        return plan

    def _page(self, docid, page):
        """:meth:`DocumentPlan.page`, the last ``_CACHED`` pages kept (the audit reads a page's text and its
        statements in turn)."""
        key = (docid, page)
        found = self._recent.get(key)
        if found is None:
            found = self.plan(docid).page(page)
            if len(self._recent) >= _CACHED:
                self._recent.pop(next(iter(self._recent)))
            self._recent[key] = found
        return found

    def page(self, docid, page):
        return self._page(docid, page).text

    def statements(self, docid, page):
        """The statements of the true facts on one page (:meth:`DocumentPlan.page`)."""
        return self._page(docid, page).statements

    def pages(self, docid):
        plan = self.plan(docid)
        return [plan.page_text(p) for p in range(1, self.docs[docid]["pages"] + 1)]

    def iter_all(self):
        for docid in self.order:
            for number, text in enumerate(self.pages(docid), 1):
                yield docid, number, text
