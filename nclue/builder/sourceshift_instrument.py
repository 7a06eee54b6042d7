"""The stand-in SourceShift set (``data/v2``; paper supplement section 8;
docs/stand-in.md#structural-targets).

A second, document-level instrument built by the same builder with its own
seed: 500 synthetic documents over four sources (``arxiv``, ``eric``,
``fedreg``, ``pmc``; 125 each), 226 constructed queries (42 / 45 / 125 / 14 by
source; 199 with n = 2 and 27 with n = 3) and the 13 form systems x 3 forms.

Two inventories, so that the label audit has something real to find:

* the **truth**: the facts the page text is generated from
  (:mod:`nclue.builder.page_text`); never released;
* the **miner's** inventory (released as ``inventory.jsonl``): the facts the
  construction miner (:mod:`nclue.builder.miner`) finds in the text -- a fact
  written under a paraphrase or garbled by OCR is missed, and a near-miss,
  cross-reference or contents mention is taken for a fact at
  ``spurious_rate``.  Queries and the construction copy
  ``qrels_construction.jsonl`` are constructed from it with the paper's gates,
  exactly as for v1.

S0 (``qrels_s0.jsonl``) and S (``qrels.jsonl``) follow from the stratified
audit and the residual-qrel challenge (:mod:`nclue.builder.simulated_audit`,
:mod:`nclue.builder.simulated_challenge`; ``genealogy.json``).  Nothing here is
tuned to a result of the paper; the source mix, page lengths and error rates
are stated below and in ``data/v2/build.json``.
"""

import dataclasses
from dataclasses import dataclass

from ..core.rng import Stream
from . import construct, corpus, vocab
from .config import SCALE_FACTORS
from .miner import MinerConfig, mine
from .page_text import PageSource, TextConfig


@dataclass(frozen=True)
class Source:
    name: str
    label: str           # used in synthetic titles
    n_docs: int
    total_pages: int
    median_pages: int
    max_pages: int
    topics: tuple        # WB topic names, or ("pmc",) for PMC topics
    n_queries_2: int
    n_queries_3: int


@dataclass(frozen=True)
class ShiftConfig:
    name: str
    sources: tuple
    page_sigma: float = 0.9
    fact_scale: float = 0.45
    fact_power: float = 1.0
    fact_cap: int = 14
    topic_share: float = 0.7
    pmc_fact_factor: float = 1.0
    popularity_exponent: float = 0.5
    min_golds: int = 1
    max_golds: int = 10
    max_union: int = 140
    selection_power: float = 1.0
    series_share: float = 0.0
    series_continue: float = 0.5
    profile_size: int = 10
    profile_keep: float = 0.6
    text: TextConfig = TextConfig(words_median=(("arxiv", 520), ("eric", 320), ("fedreg", 700), ("pmc", 550)))
    # the construction miner's error rates (nclue/builder/miner.py)
    miner: MinerConfig = MinerConfig()


SHIFT_CONFIGS = {
    "full": ShiftConfig("full", (
        Source("arxiv", "arXiv preprint", 125, 2625, 18, 60, ("energy", "climate", "finance", "trade"), 37, 5),
        Source("eric", "ERIC report", 125, 3125, 22, 90, ("education", "social", "health"), 40, 5),
        Source("fedreg", "Federal Register notice", 125, 3625, 24, 140,
               ("governance", "water", "agriculture", "transport", "urban"), 110, 15),
        Source("pmc", "PMC OA article", 125, 1625, 11, 40, ("pmc",), 12, 2),
    ),
        # fitted by tools/fit_structure.py --release v2 (construction statistics only; docs/stand-in.md)
        fact_scale=0.409, fact_power=1.1605, fact_cap=46, min_golds=1, max_golds=21, max_union=139,
        popularity_exponent=1.0823, topic_share=0.4678, selection_power=1.2547,
        # read_recall and spurious_rate fitted by tools/fit_labels.py (label structure only; docs/stand-in.md)
        miner=MinerConfig(alias_recall=0.5, read_recall=0.35, spurious_rate=0.003)),
    "mini": ShiftConfig("mini", (
        Source("arxiv", "arXiv preprint", 17, 187, 9, 30, ("energy", "climate"), 8, 2),
        Source("eric", "ERIC report", 17, 187, 9, 30, ("education", "social"), 8, 2),
        Source("fedreg", "Federal Register notice", 17, 187, 9, 30, ("governance", "water"), 8, 2),
        Source("pmc", "PMC OA article", 17, 187, 9, 30, ("pmc",), 8, 2),
    ), fact_scale=1.0, fact_cap=12, max_golds=4, max_union=30,
        text=TextConfig(words_median=(("arxiv", 40), ("eric", 40), ("fedreg", 40), ("pmc", 40)), words_max=80),
        miner=MinerConfig(read_recall=0.55, spurious_rate=0.02)),
}

def scaled(cfg, factor):
    """``cfg`` with every source's documents, pages and queries multiplied by ``factor`` (the benchmark's
    scaling rows; :func:`nclue.builder.config.scaled`), one more document where the count would be even."""
    sources = tuple(dataclasses.replace(src, n_docs=src.n_docs * factor + (1 - src.n_docs * factor % 2), total_pages=src.total_pages * factor,
                                        n_queries_2=src.n_queries_2 * factor, n_queries_3=src.n_queries_3 * factor)
                    for src in cfg.sources)
    return dataclasses.replace(cfg, name="%s_x%d" % (cfg.name, factor), sources=sources,
                               max_golds=cfg.max_golds * factor, max_union=cfg.max_union * factor)


SHIFT_CONFIGS.update({"full_x%d" % f: scaled(SHIFT_CONFIGS["full"], f) for f in SCALE_FACTORS})


# How each ShiftConfig parameter was set (nclue.builder.config.provenance; docs/stand-in.md)
FITTED = ("fact_scale", "fact_power", "fact_cap", "min_golds", "max_golds", "max_union", "popularity_exponent",
          "topic_share", "selection_power")
EXACT = ("sources",)

SHIFT_SEED = 12
PAPER_V2 = {
    "queries": 225, "queries_n2": 198, "queries_n3": 27, "documents": 500,
    "queries_arxiv": 42, "queries_eric": 44, "queries_fedreg": 125, "queries_pmc": 14,
    "documents_arxiv": 125, "documents_eric": 125, "documents_fedreg": 125, "documents_pmc": 125,
    "queries_construction": 226, "queries_s0": 225,
    "qrel_rows_construction": 8858, "qrel_rows_s0": 8849, "qrel_rows": 8841, "gold_qrels": 502,
    "distinct_gold_documents": 218, "gold_graph_components": 23, "gold_graph_largest_component_queries": 195,
    "condition_records": 477,
}


def documents(cfg, seed):
    """Corpus rows of the four sources: ``sim_<source>_NNNNN``, synthetic."""
    rows = []
    for src in cfg.sources:
        stream = Stream.derived(seed, "corpus", "pages", src.name)
        counts = corpus.page_counts(stream, src.n_docs, src.total_pages, src.median_pages, src.max_pages,
                                    cfg.page_sigma)
        topic_stream = Stream.derived(seed, "corpus", "topics", src.name)
        for i in range(src.n_docs):
            if src.topics == ("pmc",):
                topic = topic_stream.pick(sorted(vocab.PMC_TOPICS))
            else:
                topic = topic_stream.pick(list(src.topics))
            rows.append({
                "docid": "sim_%s_%05d" % (src.name, i + 1),
                "source": src.name,
                "pages": counts[i],
                "topic": topic,
                "title": "Synthetic %s on %s" % (src.label, topic),
                "year": 2010 + topic_stream.randbelow(16),
                "synthetic": True,
            })
    return rows


def _source_of(index, conj, doc_source):
    bits = index.bits[conj[0]]
    for ci in conj[1:]:
        bits &= index.bits[ci]
    sources = {doc_source[index.docids[j]] for j in index.members(bits)}
    return sources.pop() if len(sources) == 1 else None


def select_queries(cfg, seed, index, docs):
    """Per-source conjunctions: a conjunction belongs to a source when all its golds do; within a
    source, draws are weighted by gold count as in :func:`construct.select_queries`."""
    doc_source = {d["docid"]: d["source"] for d in docs}
    pairs, triples = construct.candidates(index, cfg.max_golds, cfg.max_union, cfg.min_golds)
    chosen, info = [], {"admissible_pairs": len(pairs), "admissible_triples": len(triples)}
    for src in cfg.sources:
        own_pairs = [c for c in pairs if _source_of(index, c, doc_source) == src.name]
        own_triples = [c for c in triples if _source_of(index, c, doc_source) == src.name]
        info["admissible_%s" % src.name] = [len(own_pairs), len(own_triples)]
        if len(own_pairs) < src.n_queries_2 or len(own_triples) < src.n_queries_3:
            raise RuntimeError("source %s: not enough admissible conjunctions (%d pairs, %d triples)" % (
                src.name, len(own_pairs), len(own_triples)))
        stream = Stream.derived(seed, "construct", "select", src.name)
        for conj in (construct._draw_by_golds(stream, index, own_pairs, src.n_queries_2, cfg.selection_power)
                     + construct._draw_by_golds(stream, index, own_triples, src.n_queries_3, cfg.selection_power)):
            chosen.append((src.name, conj))
    order_stream = Stream.derived(seed, "construct", "order")
    out = []
    for name, conj in chosen:
        conj = list(conj)
        order_stream.shuffle(conj)
        out.append((name, conj))
    order_stream.shuffle(out)
    return out, info


def generate(cfg, seed):
    """The in-memory SourceShift: docs, catalog, truth rows, miner rows, queries, construction qrel rows, info."""
    docs = documents(cfg, seed)
    catalog = corpus.condition_catalog(Stream.derived(seed, "catalog"), cfg.popularity_exponent)
    truth = corpus.inventory(cfg, seed, docs, catalog)
    source = PageSource(seed, docs, catalog, truth, cfg.text)
    miner, miner_info = mine(cfg.miner, seed, docs, truth, source, catalog)
    index = construct.Index(docs, catalog, miner)
    conjunctions, info = select_queries(cfg, seed, index, docs)
    info.update(miner_info)
    queries, qrel_rows = [], []
    for number, (src, conj) in enumerate(conjunctions):
        query, rows = construct.query_and_qrels("shift_%04d" % number, catalog, index, conj, source=src)
        queries.append(query)
        qrel_rows += rows
    return {"docs": docs, "catalog": catalog, "truth": truth, "miner": miner, "queries": queries,
            "qrels_construction": qrel_rows, "info": info, "source": source}
