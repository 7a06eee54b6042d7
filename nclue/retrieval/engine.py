"""The retrieval engine behind every stand-in system: cached score lists.

Units are document positions (corpus order) and page units (see
:class:`nclue.retrieval.index.Corpus`).  Every list is ``[(unit, score)]``
highest first, equal scores in unit order, at most ``POOL = 100`` long
(the paper's retrieval depth; supplement section 2).  Lists are cached by
``(model, text)`` so conditions shared by many queries, the three forms and
the systems built on other systems (fusion, reranking) reuse them.
"""

from array import array

from .compose import DEPTH_LIST, normalise
from .index import ranked
from .ngram import GramCounts, HashedNgramModel
from .text import parse, query_terms, tokens

POOL = 100
SHOWN = 10          # the depth whose page rows a page-scored system releases (nclue.retrieval.systems.DEPTH)
MU_DOC = 2000.0
MU_PAGE = 500.0
NGRAM_MODELS = {"tri": (3, 1 << 14), "quad_s": (4, 1 << 10), "quad_l": (4, 1 << 16)}


def ngram_resources(model):
    """What an n-gram model's lists rest on: the model itself and its n's gram counts (shared by models of
    the same n)."""
    return {"ngram:" + model, "grams:%d" % NGRAM_MODELS[model][0]}


class Engine:
    def __init__(self, corpus):
        self.corpus = corpus
        self._cache = {}
        self._gram_counts = {}
        self._ngram = {}

    def _memo(self, key, fn):
        value = self._cache.get(key)
        if value is None:
            value = self._cache[key] = fn()
        return value

    def forget(self, resource):
        """Drop what the engine holds for one ``resource`` (:func:`resources`): a cached list kind
        (``bm25_and``, ``bm25_or``, ``ql``, ``page_view``, ``cond_pages``), the condition lists of one model
        (``cond:<model>``), an n-gram model with its lists (``ngram:<model>``) or the gram counts of one n
        (``grams:<n>``).  Forgetting changes no result, only what is computed again if asked for later: the
        builder forgets each resource after the last system that uses it (docs/stand-in.md#build-memory)."""
        kind, _, name = resource.partition(":")
        if kind == "grams":
            self._gram_counts.pop(int(name), None)
            return
        if kind == "ngram":
            self._ngram.pop(name, None)
        drop = [key for key in self._cache if key[0] == kind and (not name or key[1] == name)]
        for key in drop:
            del self._cache[key]

    # --- models -----------------------------------------------------------------
    def ngram(self, name):
        model = self._ngram.get(name)
        if model is None:
            n, buckets = NGRAM_MODELS[name]
            counts = self._gram_counts.get(n)
            if counts is None:
                counts = self._gram_counts[n] = GramCounts(self.corpus.docs, n)
            model = self._ngram[name] = HashedNgramModel(counts, buckets)
        return model

    # --- document lists ----------------------------------------------------------
    def bm25_or(self, text):
        return self._memo(("bm25_or", text), lambda: ranked(self.corpus.docs.bm25(query_terms(text)), POOL))

    def bm25_and(self, text):
        def run():
            concepts, _ = parse(text)
            required = sorted({t for c in concepts for t in c})
            docs = self.corpus.docs
            if not required:
                return []
            scores = docs.bm25(query_terms(text))
            keep = {u: s for u, s in scores.items() if all(t in docs.bags[u] for t in required)}
            return ranked(keep, POOL)
        return self._memo(("bm25_and", text), run)

    def ql(self, text):
        return self._memo(("ql", text), lambda: ranked(self.corpus.docs.ql(query_terms(text), MU_DOC), POOL))

    def ngram_list(self, name, text):
        return self._memo(("ngram", name, text), lambda: ranked(self.ngram(name).scores(tokens(text)), POOL))

    # --- page lists ----------------------------------------------------------------
    def _page_acc(self, text):
        """Dense array of page-level BM25 scores of all query tokens (one C double per page unit: the same
        arithmetic as Python floats, without a float object per page, which fragmented the build's memory)."""
        acc = array("d", bytes(8 * self.corpus.page_index.n))
        idx = self.corpus.page_index
        for term in sorted(set(query_terms(text))):
            for unit, w in idx.bm25_list(term):
                acc[unit] += w
        return acc

    def _doc_pages(self, acc, d, k):
        """The ``k`` best ``(page number, score)`` of document ``d`` (score > 0), best first, ties by page."""
        units = self.corpus.doc_pages[d]
        start = units[0]
        seg = acc[start:start + len(units)]
        top = sorted(seg, reverse=True)[:k]
        if not top or top[0] <= 0.0:
            return []
        cut = top[-1]
        chosen = sorted(((-v, i) for i, v in enumerate(seg) if v >= cut and v > 0.0))[:k]
        return [(i + 1, -nv) for nv, i in chosen]

    def page_view(self, text):
        """Page aggregation of the joint query: ``(max list, top-3 mean list, {doc: best 5 pages})``.

        Max: a document scores its best page; top-3: the mean of its three best
        page scores (missing pages count 0).  Both lists are top POOL; the pages are kept for the
        documents in either list's top ``SHOWN`` (the released page rows are a ranking's top 10; keeping
        them for all 200 held most of the build's memory, docs/stand-in.md#build-memory).
        """
        def run():
            acc = self._page_acc(text)
            best, top3 = {}, {}
            for d, units in enumerate(self.corpus.doc_pages):
                seg = acc[units[0]:units[0] + len(units)]
                m = max(seg)
                if m > 0.0:
                    best[d] = m
                    three = sorted(seg, reverse=True)[:3]
                    total = 0.0
                    for v in three:
                        total += v
                    top3[d] = total / 3.0
            max_list, top3_list = ranked(best, POOL), ranked(top3, POOL)
            shown = {d for d, _ in max_list[:SHOWN]} | {d for d, _ in top3_list[:SHOWN]}
            pages = {d: self._doc_pages(acc, d, 5) for d in sorted(shown)}
            return max_list, top3_list, pages
        return self._memo(("page_view", text), run)

    def page_ql(self, doc, text):
        """``[(page number, log-likelihood)]`` of every page of ``doc``, best first (mu = 500)."""
        terms = query_terms(text)
        idx = self.corpus.page_index
        out = [(self.corpus.pages[u][1], idx.ql_unit(u, terms, MU_PAGE)) for u in self.corpus.doc_pages[doc]]
        return sorted(out, key=lambda t: (-t[1], t[0]))

    # --- condition-wise lists -------------------------------------------------------
    def condition_list(self, model, text):
        """Normalised per-condition document list ``{doc: score in (0, 1]}`` (top DEPTH_LIST)."""
        def run():
            if model == "bm25":
                scored = ranked(self.corpus.docs.bm25(query_terms(text)), DEPTH_LIST)
            else:
                scored = ranked(self.ngram(model).scores(tokens(text)), DEPTH_LIST)
            return normalise(scored)
        return self._memo(("cond", model, text), run)

    def condition_pages(self, text):
        """Per-condition page scores normalised by the corpus-best page: a :class:`ConditionPages` (each
        document's best 3 ``(page, s)``, and the top DEPTH_LIST documents by their best page)."""
        def run():
            acc = self._page_acc(text)
            best = max(acc) if acc else 0.0
            out = ConditionPages(self.corpus.docs.n)
            if best <= 0:
                return out
            doc_best = {}
            for d, units in enumerate(self.corpus.doc_pages):
                seg = acc[units[0]:units[0] + len(units)]
                m = max(seg)
                if m > 0.0:
                    out.add(d, [(p, v / best) for p, v in self._doc_pages(acc, d, 3)])
                    doc_best[d] = m / best
            out.top = [d for d, _ in ranked(doc_best, DEPTH_LIST)]
            return out
        return self._memo(("cond_pages", text), run)


class ConditionPages:
    """One condition's normalised page scores, packed: for each document with a positive page, its best pages
    ``[(page, s)]`` (at most 3), read by :meth:`pages`; and ``top``, the DEPTH_LIST documents with the best
    pages.  The pages sit in two flat arrays (C ints and doubles, the same values) with a per-document start,
    where a dict of lists of tuples held most of the distinct-page system's memory
    (docs/stand-in.md#build-memory).

    >>> cp = ConditionPages(3)
    >>> cp.add(2, [(7, 1.0), (1, 0.25)])
    >>> cp.pages(2), cp.pages(0)
    ([(7, 1.0), (1, 0.25)], [])
    """

    def __init__(self, n_docs):
        self.start = array("i", bytes(4 * n_docs))     # the pages of document d: [start[d], end[d])
        self.end = array("i", bytes(4 * n_docs))
        self.page = array("i")
        self.score = array("d")
        self.top = []

    def add(self, d, pages):
        self.start[d] = len(self.page)
        for p, v in pages:
            self.page.append(p)
            self.score.append(v)
        self.end[d] = len(self.page)

    def pages(self, d):
        """``[(page number, normalised score)]`` of document ``d``, best first; ``[]`` when it has none."""
        start, end = self.start[d], self.end[d]
        return list(zip(self.page[start:end], self.score[start:end]))
