"""The dense systems RealPage ships, declared once (docs/realpage.md#neural; paper section 3.3, Table 2): their
ids, what each plays, the controlled blocks they form and the Table 5 rows those blocks replicate.  Standard
library only: the release writer (:mod:`nclue.builder.realpage.v3_writer`) declares them in
``data/v3/systems.json`` without the neural extra; :mod:`nclue.builder.neural.runs` computes their rankings with it.

Every system is one real embedder (``all-MiniLM-L6-v2``) over RealPage's pages, playing a configuration the
paper runs with larger models; ``plays`` says which and what it cannot stand for.
"""

from ..core import layout

RELEASE = layout.REALPAGE
FORMS = tuple(form for form in layout.QUERY_FORMS if form != layout.RAW)   # beside the raw ranking
DENSE = "dense"
DOC, PAGE_MAX, PAGE_TOP3 = "mini_doc", "mini_page_max", "mini_page_top3"
DEC = {"min": "mini_dec_min", "product": "mini_dec_product", "hmean": "mini_dec_hmean"}
FUSION, RERANK = "rrf_bm25and_minitop3", "rerank_mini_bm25or"
MASKED = tuple("mask_%s_drop_c%d" % (DOC, k) for k in (1, 2, 3))
_CANNOT = "one 22.7M-parameter 2021 sentence embedder, each page cut at 256 word pieces; not the paper's model"


def _system(sid, block, operation, base, description, page_scored=False):
    return {"id": sid, "family": DENSE, "block": block, "operation": operation, "base": base, "fair": True,
            "description": description + " (" + _CANNOT + ")", "page_scored": page_scored}


# systems.json entries, in the order the runs write them
SYSTEMS = (
    _system(DOC, "representation", "joint/vector", None,
            "Dense single-vector retrieval: the query's cosine with the document's vector, the unit centroid of "
            "its page vectors; plays Jina-v4 / Qwen3-Embedding joint"),
    _system(PAGE_MAX, "representation", "page/max", None,
            "Dense page scores, a document by its best page; plays ColQwen2.5 (best page)", page_scored=True),
    _system(PAGE_TOP3, "representation", "page/top-3", PAGE_MAX,
            "Dense page scores, a document by the mean of its three best pages; plays ColQwen2.5 top-3",
            page_scored=True),
    _system(DEC["min"], "composition", "condition-wise/min", DOC,
            "Each condition scored alone (its best page cosine, top 100 divided by the best), combined by min"),
    _system(DEC["product"], "composition", "condition-wise/product", DOC,
            "Each condition scored alone, combined by product; plays Qwen3-Embedding 0.6B decomposition (product)"),
    _system(DEC["hmean"], "composition", "condition-wise/harmonic mean", DOC,
            "Each condition scored alone, combined by harmonic mean; plays Jina-v4 decomposition (harmonic mean)"),
    _system(FUSION, "complementarity", "RRF", PAGE_TOP3,
            "Equal-weight RRF (k = 60, depth 100) of BM25-AND and the dense page top-3 run; plays BM25-AND + "
            "ColQwen2.5 top-3 RRF"),
    _system(RERANK, "reranking", "rerank/text", "bm25_or",
            "BM25-OR's top 100 reordered by the dense whole-document cosine (a bi-encoder, not a cross-encoder); "
            "plays the BGE-M3 text reranker"),
) + tuple(_system(sid, "masking", "joint/vector, condition %s dropped" % sid[-1], DOC,
                  "Dense whole-document retrieval of the query without its condition %s (Table S5a)" % sid[-1])
          for sid in MASKED)

IDS = tuple(s["id"] for s in SYSTEMS)
# the systems ranked in every query form (all but the masked ones, which run on the raw form)
FORM_SYSTEMS = tuple(sid for sid in IDS if sid not in MASKED)
PAGE_SCORED = tuple(s["id"] for s in SYSTEMS if s["page_scored"])

# the controlled blocks the dense systems form; ``plays``: the paper's Table 5 row (paperaudit.roles.BLOCKS) a
# block replicates with which variant (docs/realpage.md#the-replication)
CONTRASTS = [
    {"block": "dense_page_aggregation", "question": "dense page max -> mean of top-3 pages", "base": PAGE_MAX,
     "variants": [PAGE_TOP3], "plays": [{"row": "page_aggregation", "variant": PAGE_TOP3}]},
    {"block": "dense_composition", "question": "dense whole document -> condition-wise dense", "base": DOC,
     "variants": [DEC["min"], DEC["product"], DEC["hmean"]],
     "plays": [{"row": "jina_composition", "variant": DEC["hmean"]},
               {"row": "qwen_composition", "variant": DEC["product"]}]},
    {"block": "dense_fusion", "question": "dense page top-3 -> + BM25-AND RRF", "base": PAGE_TOP3,
     "variants": [FUSION], "plays": [{"row": "fusion", "variant": FUSION}]},
    {"block": "dense_text_reranking", "question": "BM25-OR -> dense reranker of its top 100", "base": "bm25_or",
     "variants": [RERANK], "plays": [{"row": "text_reranking", "variant": RERANK}]},
]


def relative(rel):
    """A release path relative to RealPage's folder: the dense runs' own layout, the release's."""
    return rel[len(RELEASE.base) + 1:]


def output_files():
    """``({system: {form key: path}}, {system: path})``: every dense ranking and page-score file, relative to
    RealPage's folder (the raw form is the raw ranking; the masked systems run on the raw form alone)."""
    rankings = {}
    for sid in IDS:
        forms = [layout.RAW] + (list(FORMS) if sid in FORM_SYSTEMS else [])
        rankings[sid] = {f.key: relative(RELEASE.form_ranking(sid, f)) for f in forms}
    return rankings, {sid: relative(RELEASE.page_scores(sid)) for sid in PAGE_SCORED}


def expected_files():
    """Every file the dense runs write besides ``neural.json``, sorted."""
    rankings, page_scores = output_files()
    return sorted([rel for forms in rankings.values() for rel in forms.values()] + list(page_scores.values()))
