"""Term statistics over retrieval units (documents or pages) and the two text models.

A :class:`TermIndex` holds one bag of words per unit (a document, or a page),
with postings ``term -> [(unit, tf)]`` in unit order.  Per-term weight lists
are computed once and cached, and a query is scored term-at-a-time in sorted
term order, so every floating-point sum is performed in the same order on
every interpreter.

BM25 (Robertson and Zaragoza 2009), ``k1 = 0.9``, ``b = 0.4``::

    w(t, u) = idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(u) / avglen))
    idf(t)  = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))

Query likelihood with Dirichlet smoothing (Zhai and Lafferty 2001), ``mu``::

    log P(q | u) = sum_t log((tf(t, u) + mu * P(t | C)) / (len(u) + mu))

over the query's distinct terms present in the collection; only units with at
least one query term are scored.
"""

import math
import sys
from array import array
from collections import Counter

K1 = 0.9
B = 0.4


class TermIndex:
    """Term statistics over units.  Each term's postings are two arrays, ``(units, tfs)`` in unit order: 8 bytes
    a posting, where a list of ``(unit, tf)`` tuples took about 64 and held most of an index's memory
    (docs/stand-in.md#build-memory).

    >>> index = TermIndex([{"a": 2, "b": 1}, {"b": 3}])
    >>> index.df("b"), index.cf["b"], list(index.postings["b"][0]), list(index.postings["b"][1])
    (2, 4, [0, 1], [1, 3])
    """

    def __init__(self, bags):
        """``bags``: one mapping (term -> tf) per unit, in unit order."""
        self.bags = bags
        self.n = len(bags)
        self.length = [sum(b.values()) for b in bags]
        total = 0
        for x in self.length:
            total += x
        self.total_tokens = total
        self.avglen = total / self.n
        postings = {}
        for unit, bag in enumerate(bags):
            for term, tf in bag.items():
                posting = postings.get(term)
                if posting is None:
                    posting = postings[term] = (array("i"), array("i"))
                posting[0].append(unit)
                posting[1].append(tf)
        self.postings = postings
        self.cf = {t: sum(tfs) for t, (_, tfs) in postings.items()}
        self._bm25 = {}

    def df(self, term):
        posting = self.postings.get(term)
        return 0 if posting is None else len(posting[0])

    def idf(self, term):
        df = self.df(term)
        return math.log(1.0 + (self.n - df + 0.5) / (df + 0.5))

    def bm25_list(self, term, k1=K1, b=B):
        """``(unit, w(t, unit))`` for every unit containing ``term``, in posting order.  The weights are cached
        as two arrays (units, C doubles): 12 bytes a posting instead of a tuple and a float object, which
        held most of the page view's share of the build's memory (docs/stand-in.md#build-memory)."""
        key = (term, k1, b)
        out = self._bm25.get(key)
        if out is None:
            idf = self.idf(term)
            avg, lengths = self.avglen, self.length
            posting = self.postings.get(term)
            # the postings' own unit array, shared: it is never changed
            units, weights = (array("i") if posting is None else posting[0]), array("d")
            if posting is not None:
                for unit, tf in zip(*posting):
                    weights.append(idf * tf * (k1 + 1.0) / (tf + k1 * (1.0 - b + b * lengths[unit] / avg)))
            out = self._bm25[key] = (units, weights)
        return zip(*out)

    def bm25(self, terms):
        """``{unit: score}`` over units with at least one of ``terms``."""
        acc = {}
        for term in sorted(set(terms)):
            for unit, w in self.bm25_list(term):
                acc[unit] = acc.get(unit, 0.0) + w
        return acc

    def bm25_unit(self, unit, terms, k1=K1, b=B):
        """BM25 of one unit (equal to ``bm25(terms)[unit]``; used by rerankers and tests)."""
        bag = self.bags[unit]
        norm = k1 * (1.0 - b + b * self.length[unit] / self.avglen)
        total = 0.0
        for term in sorted(set(terms)):
            tf = bag.get(term, 0)
            if tf:
                total += self.idf(term) * tf * (k1 + 1.0) / (tf + norm)
        return total

    def ql_unit(self, unit, terms, mu):
        """Dirichlet query likelihood of one unit over the distinct ``terms`` seen in the collection."""
        bag = self.bags[unit]
        denom = math.log(self.length[unit] + mu)
        total = 0.0
        for term in sorted(set(terms)):
            cf = self.cf.get(term)
            if not cf:
                continue
            total += math.log(bag.get(term, 0) + mu * cf / self.total_tokens) - denom
        return total

    def ql(self, terms, mu):
        """``{unit: log P(q|unit)}`` over units with at least one query term."""
        units = set()
        for term in terms:
            posting = self.postings.get(term)
            if posting is not None:
                units.update(posting[0])
        return {u: self.ql_unit(u, terms, mu) for u in sorted(units)}


def ranked(scores, k):
    """Top ``k`` of ``{unit: score}``: highest first, equal scores in unit order."""
    return sorted(scores.items(), key=lambda t: (-t[1], t[0]))[:k]


class Corpus:
    """The stand-in's text as a document index and a page index.

    ``pages`` is a list of ``(doc_position, page_number)`` per page unit;
    ``doc_pages[d]`` the page units of document ``d`` in page order.
    """

    def __init__(self, docids, page_bags_by_doc):
        self.docids = list(docids)
        page_bags, self.pages, self.doc_pages = [], [], []
        doc_bags = []
        for d, bags in enumerate(page_bags_by_doc):
            units = []
            total = Counter()
            for number, bag in enumerate(bags, 1):
                units.append(len(page_bags))
                self.pages.append((d, number))
                page_bags.append(bag)
                total.update(bag)
            self.doc_pages.append(units)
            doc_bags.append(total)
        self.docs = TermIndex(doc_bags)
        self.page_index = TermIndex(page_bags)


def bag_of_words(tokens_of_text):
    """``{term: tf}`` in first-occurrence order, each term the one interned string of its spelling, so the
    tens of thousands of bags of a corpus share their terms instead of holding a copy of each
    (docs/stand-in.md#build-memory).

    >>> bag_of_words(["b", "a", "b"])
    {'b': 2, 'a': 1}
    >>> first, second = bag_of_words(["".join(["de", "lta"])]), bag_of_words(["".join(["del", "ta"])])
    >>> next(iter(first)) is next(iter(second))
    True
    """
    intern = sys.intern
    return {intern(term): tf for term, tf in Counter(tokens_of_text).items()}


def build_corpus(docids, page_texts, tokenize):
    """A :class:`Corpus` from ``[(docid, [page text, ...])]`` in document order."""
    bags = []
    for _, pages in page_texts:
        bags.append([bag_of_words(tokenize(text)) for text in pages])
    return Corpus(docids, bags)
