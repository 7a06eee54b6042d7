"""The stand-in's systems, each documented in one place with its parameters.

A system is a small declared object (id, family, block, operation, base,
fair, description) plus a ``run(context, query_text, query)`` that returns a
ranked list of ``(docid, score)``, at most ``DEPTH`` long.  ``context`` holds
what systems may read: the document index over page text for fair systems,
and the inventory for the privileged controls (``fair = False``).

Released rankings are the top ``DEPTH = 10``; ``rankings/<id>.jsonl`` uses the
``raw`` form (the original matrix), ``rankings/forms/<id>__<form>.jsonl`` each
of the three forms.
"""

from .bm25 import top_k
from .text import parse, query_terms

DEPTH = 10
SCORE_DECIMALS = 6


class SystemSpec:
    def __init__(self, id, family, block, operation, base, fair, description, run, forms=True):
        self.id, self.family, self.block, self.operation = id, family, block, operation
        self.base, self.fair, self.description, self.run = base, fair, description, run
        self.forms = forms

    def as_json(self):
        return {"id": self.id, "family": self.family, "block": self.block, "operation": self.operation,
                "base": self.base, "fair": self.fair, "description": self.description}


def bm25_or(ctx, text, query):
    """Every document with at least one query token, ranked by BM25 over all tokens."""
    index = ctx.index
    terms = query_terms(text)
    return top_k([(d, index.score(d, terms)) for d in index.matching(terms)], DEPTH)


def bm25_and(ctx, text, query):
    """Only documents matching every required concept (see text.parse), ranked by BM25 over all tokens."""
    index = ctx.index
    concepts, optional = parse(text)
    terms = query_terms(text)
    required = sorted({t for c in concepts for t in c})
    if not required:
        return []
    candidates = [d for d in index.matching(required[:1]) if index.contains_all(d, required)]
    return top_k([(d, index.score(d, terms)) for d in candidates], DEPTH)


def fact_oracle(ctx, text, query):
    """Privileged control: rank documents by exact clue count read from the inventory."""
    scored = []
    for docid, count in ctx.clue_counts(query).items():
        scored.append((docid, float(count)))
    return top_k(scored, DEPTH)


def single_page_floor(ctx, text, query):
    """Privileged control: only documents with one page establishing every condition."""
    scored = []
    for docid, sets in ctx.page_sets(query).items():
        if len(sets) == query.n and set.intersection(*(set(s) for s in sets)):
            scored.append((docid, 1.0))
    return top_k(scored, DEPTH)


def frequency_prior(ctx, text, query):
    """Query-independent control: documents with the most inventory conditions, same list for every query."""
    return ctx.prior_top


SYSTEMS = [
    SystemSpec("bm25_and", "lexical", "standalone", "joint AND query", None, True,
               "BM25 (k1=0.9, b=0.4) over whole-document text; only documents matching every required "
               "concept (quoted spans, or every token of an unquoted query) are ranked.", bm25_and),
    SystemSpec("bm25_or", "lexical", "standalone", "joint OR query", None, True,
               "BM25 (k1=0.9, b=0.4) over whole-document text; every document with any query token is ranked.",
               bm25_or),
    SystemSpec("oracle_facts", "control", "validity", "construction-fact counter", None, False,
               "Reads the condition inventory: ranks documents by exact clue count (ties by docid). "
               "Scores 100 by construction.", fact_oracle, forms=False),
    SystemSpec("floor_single_page", "control", "validity", "single-page AND", None, False,
               "Reads the inventory: retrieves only documents where one page establishes every condition. "
               "Scores 0 by construction (golds are never single-page-solvable).", single_page_floor, forms=False),
    SystemSpec("prior_condition_frequency", "control", "baseline", "query-independent prior", None, False,
               "Ranks every query's list by the number of distinct inventory conditions a document carries "
               "(ties by docid); ignores the query.", frequency_prior, forms=False),
]

BLOCKED = [
    {"id": name, "reason": "neural model; cannot run with the Python standard library offline, so it is not "
                           "simulated in the stand-in (DESIGN 1.1)"}
    for name in ("text_jinav4", "text_qwen3emb8b", "text_qwen3emb0.6b", "colqwen2.5", "colqwen2.5_ptop3",
                 "bge_m3_joint", "rerank_bge_m3", "rerank_qwen3vl8b", "rerank_qwen3r8b", "qwen3vl2b_page",
                 "qwen3vl8b_page", "splade", "e5_large", "gte_large", "colbertv2")
]


class Context:
    """What the systems may read for one instrument build."""

    def __init__(self, index, inventory_by_cid, inventory_pages, prior_top):
        self.index = index
        self._by_cid = inventory_by_cid        # cid -> sorted docids
        self._pages = inventory_pages          # (docid, cid) -> pages
        self.prior_top = prior_top

    def clue_counts(self, query):
        counts = {}
        for c in query["conditions"]:
            for d in self._by_cid.get(c["cid"], ()):
                counts[d] = counts.get(d, 0) + 1
        return counts

    def page_sets(self, query):
        out = {}
        for c in query["conditions"]:
            for d in self._by_cid.get(c["cid"], ()):
                out.setdefault(d, []).append(self._pages[(d, c["cid"])])
        return out


def make_context(index, inventory_rows):
    by_cid, pages, per_doc = {}, {}, {}
    for row in inventory_rows:
        by_cid.setdefault(row["cid"], []).append(row["docid"])
        pages[(row["docid"], row["cid"])] = row["pages"]
        per_doc[row["docid"]] = per_doc.get(row["docid"], 0) + 1
    for cid in by_cid:
        by_cid[cid].sort()
    prior = top_k([(d, float(c)) for d, c in per_doc.items()], DEPTH)
    return Context(index, by_cid, pages, prior)


def ranking_rows(spec, ctx, queries, form):
    """Ranking-file rows of one system under one form (``raw`` for the main matrix)."""
    rows = []
    for q in queries:
        ranked = spec.run(ctx, q["forms"][form], _Query(q))
        rows.append({"qid": q["qid"], "docids": [d for d, _ in ranked],
                     "scores": [round(s, SCORE_DECIMALS) for _, s in ranked]})
    return rows


class _Query(dict):
    """A query dict with attribute access to ``n`` for the controls."""

    @property
    def n(self):
        return self["n"]
