"""The text routes of the simulated audit's expanded-page pool (supplement 10.3.1; the routes and the
merge rule are :mod:`nclue.labelaudit.pool`).

These read the generated page text, so only the builder runs them: the harness re-checks the
recorded candidates against the merge rule and the released records, and ``reproduce.py --deep``
regenerates them.

* ``bm25``: the document's pages as a :class:`nclue.retrieval.index.TermIndex` (BM25, ``k1 = 0.9``,
  ``b = 0.4``, page-level idf within the document), scored for the tokens of the condition's label;
  pages with a positive score, best first (ties by page), at most ``DEPTH``.
* ``ocr_fuzzy``: a surface form (label or alias) matches a page when each of its tokens has a page
  token within one edit (insertion, deletion or substitution; tokens shorter than 4 characters must
  match exactly); pages ranked by the number of forms matched, then page; at most ``DEPTH``.
"""

from collections import Counter

from ..retrieval.index import TermIndex, ranked
from ..retrieval.text import tokens

DEPTH = 9
MIN_FUZZY = 4


def within_one_edit(a, b):
    """Levenshtein distance of ``a`` and ``b`` is at most 1.

    >>> within_one_edit("policy", "pol1cy"), within_one_edit("policy", "polcy"), within_one_edit("ab", "ba")
    (True, True, False)
    """
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la > lb:
        a, b, la, lb = b, a, lb, la
    i = 0
    while i < la and a[i] == b[i]:
        i += 1
    if la == lb:
        return a[i + 1:] == b[i + 1:]
    return a[i:] == b[i + 1:]


class DocumentRoutes:
    """Route candidates for the conditions of one document (page tokens and indexes computed once)."""

    def __init__(self, page_texts):
        self.page_tokens = [tokens(t) for t in page_texts]
        self.index = TermIndex([Counter(t) for t in self.page_tokens])
        self.page_sets = [set(t) for t in self.page_tokens]
        self.vocabulary = sorted(set().union(*self.page_sets)) if self.page_sets else []
        self._near = {}

    def bm25(self, label):
        scores = self.index.bm25(tokens(label))
        return [unit + 1 for unit, score in ranked(scores, DEPTH) if score > 0]

    def _near_tokens(self, word):
        near = self._near.get(word)
        if near is None:
            if len(word) < MIN_FUZZY:
                near = {word}
            else:
                near = {t for t in self.vocabulary if abs(len(t) - len(word)) <= 1 and within_one_edit(word, t)}
            self._near[word] = near
        return near

    def ocr_fuzzy(self, forms):
        counts = []
        for page, present in enumerate(self.page_sets, 1):
            matched = 0
            for form in forms:
                words = tokens(form)
                if words and all(self._near_tokens(w) & present for w in words):
                    matched += 1
            if matched:
                counts.append((-matched, page))
        return [page for _, page in sorted(counts)[:DEPTH]]
