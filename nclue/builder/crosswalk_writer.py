"""The stand-in's crosswalk to the paper's configurations (docs/paper-audit.md#the-crosswalk); its
loader and checks are :mod:`nclue.paperaudit.crosswalk`.

Declared once here (the stand-in's crosswalk); the builder writes it to ``data/crosswalk.json`` and the
harness reads only the released file (another instrument, such as the original release, ships its
own).  Two parts:

* ``table2``: every block of the paper's Table 2 with its number of runs, the systems of the
  instrument that play a run of that block (systems.json ``block``), and for the runs the stand-in
  cannot play, the reason;
* ``rows``: every paper row key that a published result is reported under, by namespace -- the
  keys of Tables 3/4/6 (``system``), the original release's run ids of Tables S2b/S3 (``original``),
  Table 5's blocks (``block``), Table 7's operations (``direction``), Table S4's SourceShift
  contrasts (``ss_contrast``), Table S5a's masked models (``mask``: the masked base) and Table 8's
  page-scored runs (``page_run``) -- each with the instrument's id that plays its role, or null and
  the reason it is blocked.

"Plays its role" is a statement about the experiment's design, not about the model: on the
stand-in, ``tri_joint`` (hashed character 3-grams) stands where the paper has Jina-v4, and its
numbers are the stand-in's, not Jina's.
"""


from ..core import layout
from ..core.jsonio import read_json, write_json

NEURAL = ("neural model: cannot run with the Python standard library offline, so the stand-in has no "
          "run in this role (docs/stand-in.md#blocked-systems)")

PAGE_EVIDENCE_RUN = ("Table 8 reads 'the page-scored evidence run' ('Condition and full coverage are conditional on a "
                     "top-10 gold in the page-scored evidence run'), a run of its own: the audit's split implies the "
                     "8B evidence run has 374-376 top-10 golds where Table 3's Qwen3-VL 8B reranker has 543 (54.3% "
                     "Gold Hit), and supplement section 2's table lists the reranking block's '2B/8B controls' "
                     "beside the rerankers; they are neural runs the stand-in cannot play")
PARAPHRASE = ("an LLM paraphrase probe (Table 2's 'LLM wording probes', Table S2a's paraphrase column): the dense "
              "retriever's run over five frozen LLM paraphrases of the queries, one of the original release's "
              "rankings; the stand-in has no LLM and no paraphrases, so no run plays it")
# (paper block key of Table 2's numbers, the paper's label, its runs as the paper reports them,
#  the instrument's systems.json block or None)
TABLE2 = (
    ("representation", "Representation / scale", 16, "representation"),
    ("composition", "Condition composition", 19, "composition"),
    ("complementarity", "Complementarity", 15, "complementarity"),
    ("reranking", "Fixed-pool reranking", 4, "reranking"),
    ("wording", "LLM wording probes", 5, None),
    ("controls", "Validity controls", 11, "controls"),
)

# (namespace, paper row key, the stand-in id playing its role or None, the paper's name, note)
ROWS = (
    # Tables 3, 4 and 6 (the clean scorecard and its decompositions)
    ("system", "bm25_and", "bm25_and", "BM25-AND", ""),
    ("system", "bm25_or", "bm25_or", "BM25-OR (section 3.1)", ""),
    ("system", "bm25_sdr", "bm25_dec_sdr", "BM25 decomposition (S_SDR)", ""),
    ("system", "jina_joint", "tri_joint", "Jina-v4 joint", "hashed character 3-gram cosine"),
    ("system", "qwen8b", "quad_l_joint", "Qwen3-Embedding 8B joint", "hashed character 4-grams, 2^16 buckets"),
    ("system", "jina_dec", "tri_dec_hmean", "Jina-v4 decomposition (harmonic mean)", ""),
    ("system", "qwen06_dec", "quad_s_dec_product", "Qwen3-Embedding 0.6B decomposition (product)", ""),
    ("system", "colqwen", "page_bm25_max", "ColQwen2.5 (best page)", "page BM25"),
    ("system", "colqwen_top3", "page_bm25_top3", "ColQwen2.5 (top-3 pages)", "page BM25"),
    ("system", "hybrid", "rrf_bm25and_pagetop3", "Visual + BM25 RRF", ""),
    ("system", "bge_base", "bm25_or", "BGE-M3 joint (reranking pool)", ""),
    ("system", "bge_rerank", "rerank_ql_bm25or", "BGE reranker", "query-likelihood reranker"),
    ("system", "qwen3_text_rerank", "rerank_cos_bm25or", "Qwen3 text reranker", "n-gram cosine reranker"),
    ("system", "qwen3vl_rerank", "rerank_pageql_pagemax", "Qwen3-VL reranker", "page query-likelihood reranker"),
    # Tables S2b and S3 (the original release's run ids of the 13 form systems)
    ("original", "bm25_and", "bm25_and", "BM25-AND", ""),
    ("original", "bm25_decompose_sdr", "bm25_dec_sdr", "BM25 decomposition (S_SDR)", ""),
    ("original", "text_jinav4", "tri_joint", "Jina-v4 joint", ""),
    ("original", "text_qwen3emb8b", "quad_l_joint", "Qwen3-Embedding 8B joint", ""),
    ("original", "jinav4_dec_hmean", "tri_dec_hmean", "Jina-v4 decomposition", ""),
    ("original", "qwen3emb0.6b_dec_product", "quad_s_dec_product", "Qwen3-Embedding 0.6B decomposition", ""),
    ("original", "colqwen2.5", "page_bm25_max", "ColQwen2.5", ""),
    ("original", "colqwen2.5_ptop3", "page_bm25_top3", "ColQwen2.5 top-3 pages", ""),
    ("original", "bm25and_colqwen2.5ptop3", "rrf_bm25and_pagetop3", "BM25-AND + ColQwen2.5 top-3 RRF", ""),
    ("original", "bge_m3_joint", "bm25_or", "BGE-M3 joint", ""),
    ("original", "rerank_bge_m3", "rerank_ql_bm25or", "BGE reranker", ""),
    ("original", "rerank_qwen3r8b", "rerank_cos_bm25or", "Qwen3 reranker 8B", ""),
    ("original", "rerank_qwen3vl8b", "rerank_pageql_pagemax", "Qwen3-VL reranker 8B", ""),
    # Table 5 (controlled blocks)
    ("block", "scale", "scale", "Qwen scale", ""),
    ("block", "page_aggregation", "page_aggregation", "ColQwen page aggregation", ""),
    ("block", "lexical_composition", "lexical_composition", "BM25 composition", ""),
    ("block", "jina_composition", "dense_composition_tri", "Jina composition", ""),
    ("block", "qwen_composition", "dense_composition_quad", "Qwen composition", ""),
    ("block", "fusion", "fusion", "cross-modal fusion", ""),
    ("block", "text_reranking", "text_reranking", "text reranking", ""),
    ("block", "visual_reranking", "page_reranking", "visual reranking", ""),
    # Table 7 (operation directions)
    ("direction", "page_aggregation", "page_aggregation", "Page aggregation", ""),
    ("direction", "lexical_composition", "lexical_composition", "Lexical composition", ""),
    ("direction", "jina_composition", "tri_composition", "Jina composition", ""),
    ("direction", "fusion", "fusion", "Visual + lexical RRF", ""),
    ("direction", "text_reranking", "text_reranking", "Text reranking", ""),
    ("direction", "visual_reranking", "page_reranking", "Visual reranking", ""),
    # Table S4 (SourceShift query-paired contrasts)
    ("ss_contrast", "fusion_bm25", "fusion_minus_bm25", "Fusion - BM25", ""),
    ("ss_contrast", "fusion_top3", "fusion_minus_page_top3", "Fusion - visual top-3", ""),
    ("ss_contrast", "lexical", "lexical_decomposition", "Lexical decomposition - BM25", ""),
    ("ss_contrast", "jina", "tri_decomposition", "Jina decomposition - joint", ""),
    ("ss_contrast", "qwen", "quad_decomposition", "Qwen decomposition - joint", ""),
    ("ss_contrast", "bge", "ql_reranker", "BGE reranker - joint", ""),
    ("ss_contrast", "qwenvl", "page_reranker", "Qwen-VL reranker - base", ""),
    ("ss_contrast", "qwen3r", "cos_reranker", "Qwen3 reranker - base", ""),
    # Table S5a (condition masking: the masked base)
    ("mask", "jina", "tri_joint", "Jina-v4", ""),
    ("mask", "qwen06", "quad_s_joint", "Qwen3-Embedding 0.6B", ""),
    ("mask", "bge", "bm25_or", "BGE-M3", ""),
    ("mask", "e5", None, "E5-large", NEURAL),
    ("mask", "gte", None, "GTE-large", NEURAL),
    # Table 8 (page-evidence delivery of the page-scored runs): the paper's separate page-scored evidence runs of
    # the 2B and 8B visual rerankers, not Table 3's rankings
    ("page_run", "vl2b", None, "Qwen3-VL 2B page-scored evidence run", PAGE_EVIDENCE_RUN),
    ("page_run", "vl8b", None, "Qwen3-VL 8B page-scored evidence run", PAGE_EVIDENCE_RUN),
    # Table S2a's paraphrase column: each dense retriever's run over its LLM paraphrases
    ("paraphrase", "jina", None, "Jina-v4 over LLM paraphrases", PARAPHRASE),
    ("paraphrase", "qwen06", None, "Qwen3-Embedding 0.6B over LLM paraphrases", PARAPHRASE),
    ("paraphrase", "bge", None, "BGE-M3 over LLM paraphrases", PARAPHRASE),
    ("paraphrase", "e5", None, "E5-large over LLM paraphrases", PARAPHRASE),
    ("paraphrase", "gte", None, "GTE-large over LLM paraphrases", PARAPHRASE),
)


def write(out_root):
    """Write ``data/crosswalk.json`` from the stand-in's ``data/v1/systems.json`` (already written)."""
    systems = read_json(layout.abspath(out_root, layout.SYSTEMS), layout.SYSTEMS)
    by_block = {}
    for s in systems["systems"]:
        by_block.setdefault(s["block"], []).append(s["id"])
    write_json(layout.abspath(out_root, layout.CROSSWALK), document(by_block, systems.get("blocked", [])))
    return layout.CROSSWALK


def document(systems_by_block, blocked):
    """The crosswalk as released: ``systems_by_block`` ``{block: [system ids]}`` of the stand-in's
    systems.json; ``blocked``: its ``blocked`` list (``{id, reason}``)."""
    table2 = []
    for key, label, runs, block in TABLE2:
        played = sorted(systems_by_block.get(block, ())) if block else []
        table2.append({"block": key, "paper_label": label, "paper_runs": runs, "stand_in_block": block,
                       "stand_in_systems": played,
                       "reason_unplayed": NEURAL if block is None else
                       "the paper's remaining runs of this block are neural models (systems.json 'blocked')"})
    rows = [{"namespace": ns, "paper": key, "stand_in": sid, "paper_name": name,
             "note": note if sid is None else ("plays the role; " + note if note else "plays the role")}
            for ns, key, sid, name, note in ROWS]
    return {"synthetic": True, "table2": table2, "rows": rows,
            "blocked": [{"id": b["id"], "reason": b["reason"]} for b in blocked],
            "note": "Which stand-in system plays the role of each configuration the paper reports; a role is not "
                    "the model: every number the stand-in gives for it is the stand-in's own."}
