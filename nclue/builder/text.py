"""On-demand synthetic page text (never stored in the repository).

Any single page is a function of ``(seed, document record, the document's
inventory rows, the condition catalog, page number)``: a document-level stream
``derive(seed, "doc", docid)`` fixes the document's invented vocabulary, its
OCR-noise level and its near-miss mentions; a page-level stream
``derive(seed, "page", docid, page)`` fixes the words of that page.  So one
page can be produced alone, and the whole corpus is reproducible.

What a page contains (docs/stand-in.md#page-text):

* filler sentences mixing generic report words, the document's topic words,
  its own invented vocabulary and a few words of other topics;
* on each inventory page of a section condition, a heading line with the
  section's surface form (label, an alias, or a casing variant);
* on each inventory page of an entity condition, one or two sentences with the
  entity's surface form;
* near-miss mentions that establish nothing: a table of contents on page 1 of
  longer documents listing the document's own headings, "not covered" and
  "see the companion report" sentences naming conditions the document does not
  carry, and cross-references to its own conditions on other pages;
* OCR-style character noise at a per-document rate (WB only).
"""

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
_OCR = {"l": "1", "o": "0", "e": "c", "m": "rn", "i": "l", "s": "5"}
_OTHER = sorted(vocab.WB_TOPICS)


def _invented_word(stream):
    return "".join(stream.pick(vocab.SYLLABLES) for _ in range(2 + stream.randbelow(2)))


def _surface(stream, cond):
    forms = [cond["label"]] + list(cond["aliases"])
    roll = stream.randbelow(10)
    if roll < 6 or len(forms) == 1 and roll < 8:
        text = cond["label"]
    elif roll < 8:
        text = forms[1 + stream.randbelow(len(forms) - 1)] if len(forms) > 1 else cond["label"]
    else:
        text = cond["label"].upper() if stream.randbelow(2) else cond["label"].lower()
    return text


class DocumentPlan:
    """Everything about one document that its pages share."""

    def __init__(self, seed, doc, facts, catalog_by_cid, catalog_order):
        self.seed = seed
        self.doc = doc
        stream = Stream.derived(seed, "doc", doc["docid"])
        topic_words = (vocab.PMC_TOPICS.get(doc["topic"]) or vocab.WB_TOPICS[doc["topic"]]).split()
        self.topic_words = topic_words
        self.own_words = [_invented_word(stream) for _ in range(10)]
        self.noise = 0.0 if doc["source"] == "pmc" else stream.pick([0.0, 0.0, 0.01, 0.02, 0.04])
        self.facts_on = {}
        headings = []
        for row in facts:
            cond = catalog_by_cid[row["cid"]]
            for page in row["pages"]:
                self.facts_on.setdefault(page, []).append(cond)
            if cond["kind"] == "section":
                headings.append((row["pages"][0], cond))
        headings.sort(key=lambda t: (t[0], t[1]["cid"]))
        self.mentions = {}
        # where each condition is mentioned without being established: (cid, page, kind);
        # used by the SourceShift miner (spurious facts) and the audit simulation, never by the text
        self.non_facts = []
        pages = doc["pages"]
        if pages >= 8 and headings:
            self.mentions.setdefault(1, []).append(
                "Contents: " + "; ".join("%s %d" % (c["label"], p) for p, c in headings) + ".")
            self.non_facts.extend((c["cid"], 1, "contents") for p, c in headings if p != 1)
        own = {row["cid"] for row in facts}
        pool = [c for c in catalog_order if c["cid"] not in own and
                (c["topic"] == doc["topic"] or c["topic"] == "generic" or
                 (doc["source"] == "pmc" and c["topic"] == "pmc"))]
        n_miss = min(len(pool), 1 + pages // 12, 8)
        for i in stream.sample_distinct(len(pool), n_miss) if pool else []:
            page = 1 + stream.randbelow(pages)
            template = stream.pick(_NEAR_MISS)
            self.mentions.setdefault(page, []).append(template.format(x=_surface(stream, pool[i])))
            self.non_facts.append((pool[i]["cid"], page, "near-miss"))
        for row in facts:
            if pages > 3 and stream.randbelow(3) == 0:
                page = 1 + stream.randbelow(pages)
                if page not in row["pages"]:
                    cond = catalog_by_cid[row["cid"]]
                    self.mentions.setdefault(page, []).append(stream.pick(_CROSS_REF).format(x=_surface(stream, cond)))
                    self.non_facts.append((cond["cid"], page, "cross-reference"))

    def page_text(self, page, words_per_page):
        """The text of one page (1-based), deterministic from the seed."""
        if not 1 <= page <= self.doc["pages"]:
            raise ValueError("page %d outside %s (1..%d)" % (page, self.doc["docid"], self.doc["pages"]))
        stream = Stream.derived(self.seed, "page", self.doc["docid"], page)
        lo, hi = words_per_page
        n_words = lo + stream.randbelow(hi - lo + 1)
        sentences = []
        count = 0
        generic, topic, own = vocab.GENERIC_WORDS, self.topic_words, self.own_words
        while count < n_words:
            length = 8 + stream.randbelow(9)
            words = []
            for _ in range(length):
                roll = stream.randbelow(100)
                if roll < 48:
                    words.append(stream.pick(generic))
                elif roll < 82:
                    words.append(stream.pick(topic))
                elif roll < 94:
                    words.append(stream.pick(own))
                else:
                    words.append(stream.pick(vocab.WB_TOPICS[stream.pick(_OTHER)].split()))
            count += length
            words[0] = words[0].capitalize()
            sentences.append(" ".join(words) + ".")
        lines = []
        for cond in sorted(self.facts_on.get(page, []), key=lambda c: c["cid"]):
            surface = _surface(stream, cond)
            if cond["kind"] == "section":
                lines.append("%d.%d %s" % (1 + stream.randbelow(9), 1 + stream.randbelow(9), surface))
            else:
                for _ in range(1 + stream.randbelow(2)):
                    pos = stream.randbelow(len(sentences) + 1)
                    sentences.insert(pos, stream.pick(_ENTITY_SENTENCES).format(x=surface))
        for mention in self.mentions.get(page, []):
            sentences.insert(stream.randbelow(len(sentences) + 1), mention)
        body = " ".join(sentences)
        if self.noise:
            body = self._ocr(stream, body)
        return "\n".join(lines + [body])

    def _ocr(self, stream, text):
        out = []
        threshold = int(self.noise * 1_000_000)
        for ch in text:
            if ch in _OCR and stream.randbelow(1_000_000) < threshold:
                out.append(_OCR[ch])
            else:
                out.append(ch)
        return "".join(out)


class PageSource:
    """Random-access page text for a whole stand-in instrument."""

    def __init__(self, seed, docs, catalog, inventory_rows, words_per_page):
        self.seed = seed
        self.words_per_page = tuple(words_per_page)
        self.docs = {d["docid"]: d for d in docs}
        self.order = [d["docid"] for d in docs]
        self.catalog_by_cid = {c["cid"]: c for c in catalog}
        self.catalog_order = sorted(catalog, key=lambda c: c["cid"])
        self.facts = {}
        for row in inventory_rows:
            self.facts.setdefault(row["docid"], []).append(row)
        self._plans = {}

    def plan(self, docid):
        plan = self._plans.get(docid)
        if plan is None:
            plan = DocumentPlan(self.seed, self.docs[docid], self.facts.get(docid, []),
                                self.catalog_by_cid, self.catalog_order)
            self._plans[docid] = plan
        return plan

    def page(self, docid, page):
        return self.plan(docid).page_text(page, self.words_per_page)

    def pages(self, docid):
        plan = self.plan(docid)
        return [plan.page_text(p, self.words_per_page) for p in range(1, self.docs[docid]["pages"] + 1)]

    def iter_all(self):
        for docid in self.order:
            for number, text in enumerate(self.pages(docid), 1):
                yield docid, number, text
