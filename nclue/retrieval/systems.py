"""The stand-in's systems: each declared once, with its parameters, here.

A system is a small declared object: ``id``, ``family``, ``block`` (the matrix
block of the paper's Table 2), ``operation``, ``base`` (the system its
contrast starts from), ``fair`` (false for controls that read construction
facts), ``description``, ``page_scored``, and ``run(env, q)`` returning a
ranked list ``[(doc position, score)]`` (and, for page-scored systems, the
pages behind each score).  ``q`` is a :class:`QueryView`: the query ID, ``n``,
condition IDs, the query text of one form and one text per condition.

All parameters: BM25 ``k1 = 0.9, b = 0.4``; query likelihood ``mu = 2000``
(documents) and ``500`` (pages); hashed character n-grams ``tri`` (n = 3,
2**14 buckets), ``quad_s`` (n = 4, 2**10) and ``quad_l`` (n = 4, 2**16);
condition lists of depth 100 normalised by their best score; RRF with
``k = 60`` over depth-100 lists, equal weights; text rerankers reorder a
fixed top-100 pool, the page reranker a fixed top-20 pool; released
rankings keep the top 10, page-score rows the best 5 pages of each.
"""

from ..core.rng import Stream
from .compose import decompose, sdr_bottleneck
from .engine import MU_DOC, NGRAM_MODELS, POOL, SHOWN, ngram_resources
from .index import ranked

DEPTH = SHOWN         # the released depth of every ranking (the engine keeps page evidence for it)
PAGES_KEPT = 5
SCORE_DECIMALS = 6
RRF_K = 60
TEXT_POOL = 100
PAGE_POOL = 20


class QueryView:
    __slots__ = ("qid", "n", "cids", "text", "cond_texts")

    def __init__(self, qid, n, cids, text, cond_texts):
        self.qid, self.n, self.cids, self.text, self.cond_texts = qid, n, list(cids), text, list(cond_texts)


class Env:
    """What systems may read: the engine (text) and, for controls only, construction facts."""

    def __init__(self, engine, docids, inventory_rows, seed):
        self.engine = engine
        self.docids = docids
        self.position = {d: i for i, d in enumerate(docids)}
        self.seed = seed
        self._by_cid, self._pages, per_doc = {}, {}, {}
        for row in inventory_rows:
            d = self.position[row["docid"]]
            self._by_cid.setdefault(row["cid"], []).append(d)
            self._pages[(d, row["cid"])] = row["pages"]
            per_doc[d] = per_doc.get(d, 0) + 1
        self.prior = ranked({d: float(c) for d, c in per_doc.items()}, POOL)

    def clue_counts(self, cids):
        counts = {}
        for cid in cids:
            for d in self._by_cid.get(cid, ()):
                counts[d] = counts.get(d, 0) + 1
        return counts

    def fact_pages(self, d, cid):
        return self._pages.get((d, cid))


class SystemSpec:
    def __init__(self, id, family, block, operation, base, fair, description, run, page_scored=False):
        self.id, self.family, self.block, self.operation = id, family, block, operation
        self.base, self.fair, self.description, self.run = base, fair, description, run
        self.page_scored = page_scored

    def as_json(self):
        return {"id": self.id, "family": self.family, "block": self.block, "operation": self.operation,
                "base": self.base, "fair": self.fair, "description": self.description,
                "page_scored": self.page_scored}


# --- run functions -----------------------------------------------------------------

def _uses(run, resources=(), components=()):
    """Declare what a run function rests on: the engine ``resources`` it reads (:meth:`Engine.forget
    <nclue.retrieval.engine.Engine.forget>`) and the systems whose runs it calls (:func:`resources`)."""
    run.resources, run.components = frozenset(resources), tuple(components)
    return run


def _joint(method):
    return _uses(lambda env, q: (getattr(env.engine, method)(q.text), None), {method})


def _ngram_joint(model):
    return _uses(lambda env, q: (env.engine.ngram_list(model, q.text), None), ngram_resources(model))


def _page(which):
    def run(env, q):
        view = env.engine.page_view(q.text)
        lst = view[which]
        return lst, {d: view[2][d][:PAGES_KEPT] for d, _ in lst[:DEPTH]}
    return _uses(run, {"page_view"})


def _decompose(model, op):
    def run(env, q):
        lists = [env.engine.condition_list(model, t) for t in q.cond_texts]
        return ranked(decompose(lists, op), POOL), None
    return _uses(run, {"cond:" + model} | (set() if model == "bm25" else ngram_resources(model)))


def _sdr(env, q):
    per_cond = [env.engine.condition_pages(t) for t in q.cond_texts]
    candidates = set()
    for cond in per_cond:
        candidates.update(cond.top)
    scores, assigned = {}, {}
    for d in sorted(candidates):
        lists = [cond.pages(d) for cond in per_cond]
        value, pages = sdr_bottleneck(lists)
        scores[d] = value
        if pages is not None:
            assigned[d] = sorted({(p, s) for pages_of in lists for p, s in pages_of if p in pages},
                                 key=lambda t: (-t[1], t[0]))
    lst = ranked(scores, POOL)
    return lst, {d: _dedupe(assigned.get(d, []))[:PAGES_KEPT] for d, _ in lst[:DEPTH]}


def _dedupe(pages):
    seen, out = set(), []
    for p, s in pages:
        if p not in seen:
            seen.add(p)
            out.append((p, s))
    return out


def rrf(lists, k=RRF_K, depth=POOL):
    """Equal-weight reciprocal-rank fusion: ``sum over lists of 1 / (k + rank)`` over the top ``depth``.

    >>> rrf([[(0, 9.0), (1, 8.0)], [(1, 5.0), (2, 4.0)]])[:2]
    [(1, 0.03252247488101534), (0, 0.01639344262295082)]
    """
    acc = {}
    for lst in lists:
        for rank, (d, _) in enumerate(lst[:depth], 1):
            acc[d] = acc.get(d, 0.0) + 1.0 / (k + rank)
    return ranked(acc, depth)


def _rrf(*components):
    def run(env, q):
        return rrf([SYSTEM_BY_ID[c].run(env, q)[0] for c in components]), None
    return _uses(run, (), components)


def _rerank_text(base, scorer):
    def run(env, q):
        pool = [d for d, _ in SYSTEM_BY_ID[base].run(env, q)[0][:TEXT_POOL]]
        if scorer == "ql":
            from .text import query_terms
            terms = query_terms(q.text)
            docs = env.engine.corpus.docs
            scores = {d: docs.ql_unit(d, terms, MU_DOC) for d in pool}
        else:
            from .text import tokens
            cos = env.engine.ngram(scorer).scores(tokens(q.text))
            scores = {d: cos.get(d, 0.0) for d in pool}
        return ranked(scores, POOL), None
    return _uses(run, set() if scorer == "ql" else ngram_resources(scorer), (base,))


def _rerank_pages(base):
    def run(env, q):
        pool = [d for d, _ in SYSTEM_BY_ID[base].run(env, q)[0][:PAGE_POOL]]
        pages = {d: env.engine.page_ql(d, q.text) for d in pool}
        lst = ranked({d: pages[d][0][1] for d in pool}, POOL)
        return lst, {d: pages[d][:PAGES_KEPT] for d, _ in lst[:DEPTH]}
    return _uses(run, (), (base,))


def _oracle(env, q):
    return ranked({d: float(c) for d, c in env.clue_counts(q.cids).items()}, POOL), None


def _floor(env, q):
    out = {}
    for d, c in env.clue_counts(q.cids).items():
        if c == q.n:
            sets = [set(env.fact_pages(d, cid)) for cid in q.cids]
            if set.intersection(*sets):
                out[d] = 1.0
    return ranked(out, POOL), None


def _prior(env, q):
    return env.prior, None


def _random(env, q):
    stream = Stream.derived(env.seed, "random-control", q.qid)
    picks = stream.sample_distinct(len(env.docids), min(DEPTH, len(env.docids)))
    return [(d, float(DEPTH - i)) for i, d in enumerate(picks)], None


for _run, _resources in ((_sdr, {"cond_pages"}), (_oracle, ()), (_floor, ()), (_prior, ()), (_random, ())):
    _uses(_run, _resources)


def _spec(id, family, block, operation, base, description, run, fair=True, page_scored=False):
    return SystemSpec(id, family, block, operation, base, fair, description, run, page_scored)


_LEX = "lexical"
SYSTEMS = [
    _spec("bm25_and", _LEX, "representation", "joint AND query", None,
          "Document BM25; only documents matching every required concept are ranked.", _joint("bm25_and")),
    _spec("bm25_or", _LEX, "representation", "joint OR query", None,
          "Document BM25 over all query tokens.", _joint("bm25_or")),
    _spec("ql_dirichlet", _LEX, "representation", "joint query likelihood", None,
          "Document query likelihood, Dirichlet mu = %d." % MU_DOC, _joint("ql")),
    _spec("page_bm25_max", "page", "representation", "page max", None,
          "Page-level BM25 of the joint query; a document scores its best page (ColQwen MaxSim analogue).",
          _page(0), page_scored=True),
    _spec("page_bm25_top3", "page", "representation", "average three page scores", "page_bm25_max",
          "Page-level BM25; a document scores the mean of its three best pages (missing pages count 0).",
          _page(1), page_scored=True),
]
for _op, _name in (("min", "min"), ("product", "product"), ("hmean", "harmonic mean")):
    SYSTEMS.append(_spec("bm25_dec_%s" % _op, _LEX, "composition", "condition lists + %s" % _name, "bm25_and",
                         "Document BM25 per condition (depth 100, normalised), combined by %s." % _name,
                         _decompose("bm25", _op)))
SYSTEMS.append(_spec("bm25_dec_sdr", _LEX, "composition", "condition lists + distinct pages", "bm25_and",
                     "Page BM25 per condition normalised by its corpus-best page; a document scores the best "
                     "injective condition-to-page assignment's weakest page (S_SDR).", _sdr, page_scored=True))
for _model, _label in (("tri", "char-3-gram 2^14"), ("quad_s", "char-4-gram 2^10 (small)"),
                       ("quad_l", "char-4-gram 2^16 (large)")):
    SYSTEMS.append(_spec("%s_joint" % _model, "ngram", "representation", "one query vector",
                         "quad_s_joint" if _model == "quad_l" else None,
                         "Hashed %s vectors, cosine of the whole query." % _label, _ngram_joint(_model)))
    for _op, _name in (("min", "min"), ("product", "product"), ("hmean", "harmonic mean")):
        SYSTEMS.append(_spec("%s_dec_%s" % (_model, _op), "ngram", "composition", "condition lists + %s" % _name,
                             "%s_joint" % _model,
                             "Hashed %s cosine per condition (depth 100, normalised), combined by %s." % (
                                 _label, _name), _decompose(_model, _op)))
for _id, _parts, _desc in (
        ("rrf_bm25and_pagetop3", ("bm25_and", "page_bm25_top3"), "BM25-AND + page top-3"),
        ("rrf_bm25or_pagetop3", ("bm25_or", "page_bm25_top3"), "BM25-OR + page top-3"),
        ("rrf_tri_pagetop3", ("tri_joint", "page_bm25_top3"), "char-3-gram + page top-3"),
        ("rrf_bm25and_tri", ("bm25_and", "tri_joint"), "BM25-AND + char-3-gram")):
    SYSTEMS.append(_spec(_id, "fusion", "complementarity", "equal-weight RRF", _parts[1] if "pagetop3" in _id
                         else _parts[0], "RRF (k = 60, depth 100) of %s." % _desc, _rrf(*_parts)))
SYSTEMS += [
    _spec("rerank_ql_bm25or", "rerank", "reranking", "rerank BM25-OR candidates", "bm25_or",
          "Fixed top-100 BM25-OR pool reordered by document query likelihood (mu = %d)." % MU_DOC,
          _rerank_text("bm25_or", "ql")),
    _spec("rerank_cos_bm25or", "rerank", "reranking", "rerank BM25-OR candidates", "bm25_or",
          "Fixed top-100 BM25-OR pool reordered by char-4-gram 2^16 cosine.", _rerank_text("bm25_or", "quad_l")),
    _spec("rerank_pageql_pagemax", "rerank", "reranking", "rerank page candidates", "page_bm25_max",
          "Fixed top-20 page-max pool reordered by its best page's query likelihood (mu = 500).",
          _rerank_pages("page_bm25_max"), page_scored=True),
    _spec("oracle_facts", "control", "controls", "construction-fact counter", None,
          "Reads the inventory: documents by exact clue count. 100 by construction.", _oracle, fair=False),
    _spec("floor_single_page", "control", "controls", "single-page AND", None,
          "Reads the inventory: only documents with one page establishing every condition. 0 by construction.",
          _floor, fair=False),
    _spec("prior_condition_frequency", "control", "controls", "query-independent prior", None,
          "Reads the inventory: the documents carrying the most conditions, the same list for every query.",
          _prior, fair=False),
    _spec("random_seeded", "control", "controls", "seeded random", None,
          "Ten distinct documents drawn per query from derive(seed, 'random-control', qid).", _random),
]
SYSTEM_BY_ID = {s.id: s for s in SYSTEMS}

MASKED_BASES = ("bm25_or", "tri_joint", "quad_s_joint")
for _base in MASKED_BASES:
    for _i in (1, 2, 3):
        SYSTEMS.append(_spec("mask_%s_drop_c%d" % (_base, _i), SYSTEM_BY_ID[_base].family, "controls",
                             "mask condition %d" % _i, _base,
                             "%s on the raw query with condition %d removed (n = 2 queries keep all "
                             "conditions when c3 is dropped)." % (_base, _i), SYSTEM_BY_ID[_base].run))
SYSTEM_BY_ID = {s.id: s for s in SYSTEMS}


def resources(spec):
    """The engine resources a system's run reads, its components' included (the fused and reranked
    systems run the systems they build on)."""
    out = set(spec.run.resources)
    for component in spec.run.components:
        out |= resources(SYSTEM_BY_ID[component])
    return out


def build_order(specs):
    """The order the builder runs ``specs`` in: grouped by the n-gram model they read (first those that read
    none), declaration order within a group, so that each model and its lists live for one stretch of the
    build and are forgotten after it (:func:`forget_after`).  The order changes no ranking: every run is a
    function of its query alone."""
    first_model = {}
    for spec in specs:
        for r in sorted(resources(spec)):
            if r.startswith("ngram:"):
                first_model.setdefault(r, len(first_model) + 1)

    def group(spec):
        models = [first_model[r] for r in resources(spec) if r.startswith("ngram:")]
        return min(models) if models else 0
    return sorted(specs, key=group)


def forget_after(order):
    """``{system id: [resources]}``: after running a system, the resources no later system in ``order``
    reads (the builder's schedule for :meth:`Engine.forget <nclue.retrieval.engine.Engine.forget>`).  The gram
    counts of an n (``grams:<n>``) are read only while a model is built, so they go after the first system of
    the last model that needs them."""
    last, first = {}, {}
    for spec in order:
        for r in resources(spec):
            last[r] = spec.id
            first.setdefault(r, spec.id)
    position = {spec.id: i for i, spec in enumerate(order)}
    for r in [r for r in last if r.startswith("grams:")]:
        builders = [first[m] for m in first if m.startswith("ngram:") and "grams:%d" % NGRAM_MODELS[m[6:]][0] == r]
        last[r] = max(builders, key=position.get)
    out = {}
    for r, sid in sorted(last.items()):
        out.setdefault(sid, []).append(r)
    return out


FORM_SYSTEMS = ("bm25_and", "bm25_dec_sdr", "tri_joint", "quad_l_joint", "tri_dec_hmean", "quad_s_dec_product",
                "page_bm25_max", "page_bm25_top3", "rrf_bm25and_pagetop3", "bm25_or", "rerank_ql_bm25or",
                "rerank_cos_bm25or", "rerank_pageql_pagemax")

# The eight controlled blocks of the paper's Table 5, mapped to stand-in contrasts.  The displayed
# variant of a block is its highest raw-form n-Clue Score (post hoc, as in the paper, section 3.3).
CONTRASTS = [
    {"block": "scale", "question": "Same-family size: char-4-gram 2^10 -> 2^16",
     "base": "quad_s_joint", "variants": ["quad_l_joint"]},
    {"block": "page_aggregation", "question": "Page max -> mean of top-3 pages",
     "base": "page_bm25_max", "variants": ["page_bm25_top3"]},
    {"block": "lexical_composition", "question": "BM25-AND -> condition-wise BM25",
     "base": "bm25_and", "variants": ["bm25_dec_min", "bm25_dec_product", "bm25_dec_hmean", "bm25_dec_sdr"]},
    {"block": "dense_composition_tri", "question": "char-3-gram joint -> condition-wise",
     "base": "tri_joint", "variants": ["tri_dec_min", "tri_dec_product", "tri_dec_hmean"]},
    {"block": "dense_composition_quad", "question": "char-4-gram 2^10 joint -> condition-wise",
     "base": "quad_s_joint", "variants": ["quad_s_dec_min", "quad_s_dec_product", "quad_s_dec_hmean"]},
    {"block": "fusion", "question": "page top-3 -> page top-3 + second list RRF",
     "base": "page_bm25_top3", "variants": ["rrf_bm25and_pagetop3", "rrf_bm25or_pagetop3", "rrf_tri_pagetop3"]},
    {"block": "text_reranking", "question": "BM25-OR -> fixed-pool text reranker",
     "base": "bm25_or", "variants": ["rerank_ql_bm25or", "rerank_cos_bm25or"]},
    {"block": "page_reranking", "question": "page max -> fixed-pool page reranker",
     "base": "page_bm25_max", "variants": ["rerank_pageql_pagemax"]},
]

# Supplement Table S4 analogue: query-paired contrasts of the 13 form systems on SourceShift
# (variant, base), each named after the paper's row it stands in for.
SHIFT_CONTRASTS = [
    {"id": "fusion_minus_bm25", "paper_row": "Fusion - BM25", "variant": "rrf_bm25and_pagetop3", "base": "bm25_and"},
    {"id": "fusion_minus_page_top3", "paper_row": "Fusion - visual top-3", "variant": "rrf_bm25and_pagetop3",
     "base": "page_bm25_top3"},
    {"id": "lexical_decomposition", "paper_row": "Lexical decomp. - BM25", "variant": "bm25_dec_sdr", "base": "bm25_and"},
    {"id": "tri_decomposition", "paper_row": "Jina decomp. - joint", "variant": "tri_dec_hmean", "base": "tri_joint"},
    {"id": "quad_decomposition", "paper_row": "Qwen decomp. - joint", "variant": "quad_s_dec_product",
     "base": "quad_l_joint"},
    {"id": "ql_reranker", "paper_row": "BGE reranker - joint", "variant": "rerank_ql_bm25or", "base": "bm25_or"},
    {"id": "page_reranker", "paper_row": "Qwen-VL reranker - base", "variant": "rerank_pageql_pagemax",
     "base": "page_bm25_max"},
    {"id": "cos_reranker", "paper_row": "Qwen3 reranker - base", "variant": "rerank_cos_bm25or", "base": "bm25_or"},
]

# Paper Table 7 analogue: raw-form operation directions compared across the two releases.
DIRECTIONS = [
    {"id": "page_aggregation", "paper_row": "Page aggregation", "variant": "page_bm25_top3", "base": "page_bm25_max"},
    {"id": "lexical_composition", "paper_row": "Lexical composition", "variant": "bm25_dec_sdr", "base": "bm25_and"},
    {"id": "tri_composition", "paper_row": "Jina composition", "variant": "tri_dec_hmean", "base": "tri_joint"},
    {"id": "fusion", "paper_row": "Visual + lexical RRF", "variant": "rrf_bm25and_pagetop3", "base": "page_bm25_top3"},
    {"id": "text_reranking", "paper_row": "Text reranking", "variant": "rerank_ql_bm25or", "base": "bm25_or"},
    {"id": "page_reranking", "paper_row": "Visual reranking", "variant": "rerank_pageql_pagemax",
     "base": "page_bm25_max"},
]

BLOCKED = [
    {"id": name, "reason": "neural model; cannot run with the Python standard library offline, so the stand-in "
                           "does not simulate it (docs/stand-in.md#blocked-systems)"}
    for name in ("text_jinav4", "jinav4_dec_hmean", "text_qwen3emb0.6b", "text_qwen3emb8b",
                 "qwen3emb0.6b_dec_product", "colqwen2.5", "colqwen2.5_ptop3", "bm25and_colqwen2.5ptop3",
                 "bge_m3_joint", "rerank_bge_m3", "rerank_qwen3vl8b", "rerank_qwen3r8b", "qwen3vl2b_pages",
                 "qwen3vl8b_pages", "splade_v3", "e5_large", "gte_large", "colbertv2", "glm_paraphrase_probes")
]


def masked_view(q, drop):
    """The query without condition ``drop`` (1-based); unchanged when ``drop > n``."""
    if drop > q.n:
        return q
    keep = [i for i in range(q.n) if i != drop - 1]
    texts = [q.cond_texts[i] for i in keep]
    return QueryView(q.qid, q.n - 1, [q.cids[i] for i in keep], " ".join(texts), texts)


def run_system(spec, env, q):
    """``(top-DEPTH [(doc position, score)], page rows or None)`` of one system on one query."""
    if spec.id.startswith("mask_"):
        q = masked_view(q, int(spec.id[-1]))
    lst, pages = spec.run(env, q)
    return lst[:DEPTH], pages
