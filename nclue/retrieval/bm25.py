"""BM25 over documents (Robertson and Zaragoza 2009), standard library only.

For a document ``d`` of length ``|d|`` tokens and a query's distinct terms::

    score(d) = sum_t idf(t) * tf(t,d) * (k1 + 1) / (tf(t,d) + k1 * (1 - b + b * |d| / avgdl))
    idf(t)   = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))

with ``k1 = 0.9`` and ``b = 0.4`` (the Anserini/Pyserini defaults), ``N`` the
number of documents and ``avgdl`` their mean length.  Terms are summed in
sorted order so the floating-point result is the same everywhere.  A document
is the concatenation of its pages.
"""

import math
from collections import Counter

from .text import tokens

K1 = 0.9
B = 0.4


class DocumentIndex:
    """Term statistics of a document collection (one bag of words per document)."""

    def __init__(self, docids, k1=K1, b=B):
        self.docids = list(docids)
        self.k1, self.b = k1, b
        self.tf = {}
        self.length = {}
        self.postings = {}

    def add(self, docid, text_tokens):
        counts = Counter(text_tokens)
        self.tf[docid] = counts
        self.length[docid] = len(text_tokens)
        for term in counts:
            self.postings.setdefault(term, []).append(docid)

    def finish(self):
        self.n = len(self.tf)
        total = 0
        for docid in self.docids:
            total += self.length.get(docid, 0)
        self.avgdl = total / self.n
        self.df = {t: len(p) for t, p in self.postings.items()}
        return self

    def idf(self, term):
        df = self.df.get(term, 0)
        return math.log(1.0 + (self.n - df + 0.5) / (df + 0.5))

    def score(self, docid, terms):
        counts = self.tf[docid]
        norm = self.k1 * (1.0 - self.b + self.b * self.length[docid] / self.avgdl)
        total = 0.0
        for term in sorted(terms):
            tf = counts.get(term, 0)
            if tf:
                total += self.idf(term) * tf * (self.k1 + 1.0) / (tf + norm)
        return total

    def matching(self, terms):
        """Documents containing at least one of ``terms``, in index order."""
        hit = set()
        for term in terms:
            hit.update(self.postings.get(term, ()))
        return [d for d in self.docids if d in hit]

    def contains_all(self, docid, terms):
        counts = self.tf[docid]
        return all(t in counts for t in terms)


def build_index(docids, page_texts):
    """Index documents from an iterable of ``(docid, [page text, ...])``."""
    index = DocumentIndex(docids)
    for docid, pages in page_texts:
        toks = []
        for text in pages:
            toks.extend(tokens(text))
        index.add(docid, toks)
    return index.finish()


def top_k(scored, k):
    """Highest scores first; equal scores by docid ascending (a fixed, documented tie rule)."""
    return sorted(scored, key=lambda t: (-t[1], t[0]))[:k]
