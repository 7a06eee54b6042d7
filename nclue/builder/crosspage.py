"""Write the stand-in CrossPage instrument (``data/v1``) from a seed.

Order of work: documents -> condition catalog -> inventory -> construction
(queries, the construction copy ``qrels_construction.jsonl``) -> page text (in
memory only) -> BM25 index -> rankings.  The final copy ``qrels.jsonl``, the
genealogy and Table 1 (on the final copy, as the paper's) follow the label
audit (:mod:`nclue.builder.sourceshift_release`).  Every file is written
canonically; the same seed gives the same bytes.
"""

import dataclasses
import os

from .. import __version__
from ..core import layout
from ..core.jsonio import write_json, write_jsonl
from ..core.rng import Stream
from ..retrieval import systems
from ..retrieval.index import build_corpus
from ..retrieval.text import tokens
from . import config as config_mod
from . import construct, corpus
from .miner import mine
from .page_text import PageSource
from .rankings import peak_memory, ranked_files
from .stats_files import write_stats


def generate(cfg, seed):
    """The in-memory CrossPage stand-in: ``{docs, catalog, truth, mined, queries, qrels, info, source}``.

    The page text (``source``) is generated from the true facts; construction (queries and qrels,
    with the page gates) runs on the miner's inventory (:mod:`nclue.builder.miner`), which is the
    released inventory."""
    docs = corpus.documents(cfg, seed)
    catalog = corpus.condition_catalog(Stream.derived(seed, "catalog"), cfg.popularity_exponent)
    truth = corpus.inventory(cfg, seed, docs, catalog)
    source = PageSource(seed, docs, catalog, truth, cfg.text)
    mined, miner_info = mine(cfg.miner, seed, docs, truth, source, catalog)
    index = construct.Index(docs, catalog, mined)
    conjunctions, info = construct.select_queries(cfg, seed, index)
    info.update(miner_info)
    queries, qrel_rows = [], []
    for number, conj in enumerate(conjunctions):
        query, rows = construct.query_and_qrels("nclue_%04d" % number, catalog, index, conj)
        queries.append(query)
        qrel_rows += rows
    return {"docs": docs, "catalog": catalog, "truth": truth, "mined": mined, "queries": queries,
            "qrels": qrel_rows, "info": info, "source": source}


def write_instrument(out_root, cfg, seed, log=print):
    """Build everything under ``out_root/data/v1``; return the list of relative paths written."""
    g = generate(cfg, seed)
    docs, catalog, queries, qrel_rows, info = g["docs"], g["catalog"], g["queries"], g["qrels"], g["info"]
    inventory_rows = g["mined"]
    written = []

    def put_jsonl(rel, rows):
        os.makedirs(os.path.dirname(layout.abspath(out_root, rel)), exist_ok=True)
        write_jsonl(layout.abspath(out_root, rel), rows)
        written.append(rel)

    def put_json(rel, obj):
        write_json(layout.abspath(out_root, rel), obj)
        written.append(rel)

    put_jsonl(layout.CORPUS, docs)
    put_jsonl(layout.CONDITIONS, [
        {k: c[k] for k in ("cid", "kind", "label", "aliases", "topic", "synthetic")} for c in catalog])
    put_jsonl(layout.INVENTORY, inventory_rows)
    put_jsonl(layout.QUERIES, queries)
    put_jsonl(layout.QRELS_CONSTRUCTION, qrel_rows)
    # until the label audit runs (nclue.builder.sourceshift_release.write_audit rewrites both), the final copy
    # is the construction copy: a CrossPage release without an audit part has no decisions to apply
    put_jsonl(layout.QRELS, qrel_rows)
    put_json(layout.GENEALOGY, genealogy_record(layout.CROSSPAGE.copies, queries, ((qrel_rows, [], 0), (qrel_rows, [], 0)),
                                                V1_GENEALOGY_NOTE))
    log("construction: %d documents, %d inventory rows, %d queries, %d qrel rows (%s)" % (
        len(docs), len(inventory_rows), len(queries), len(qrel_rows), info))

    source = g["source"]
    docids = [d["docid"] for d in docs]
    corpus_text = build_corpus(docids, ((d, source.pages(d)) for d in docids), tokens)
    log("index: %d documents, %d pages, %d terms%s" % (
        corpus_text.docs.n, corpus_text.page_index.n, len(corpus_text.docs.postings), peak_memory()))
    for rel, rows in ranked_files(corpus_text, inventory_rows, seed, queries, catalog, layout.CROSSPAGE, layout.QUERY_FORMS,
                                  log):
        put_jsonl(rel, rows)
    put_json(layout.SYSTEMS, {
        "synthetic": True,
        "note": "Stand-in systems: standard-library retrieval over synthetic page text (nclue/retrieval/).",
        "systems": [s.as_json() for s in systems.SYSTEMS],
        "form_systems": list(systems.FORM_SYSTEMS),
        "contrasts": systems.CONTRASTS,
        "blocked": systems.BLOCKED,
    })
    put_json(layout.BUILD, {
        "instrument": "n-Clue CrossPage stand-in (synthetic)",
        "synthetic": True,
        "seed": seed,
        "config": cfg.name,
        "command": "python -m nclue build --config %s --seed %d" % (cfg.name, seed),
        "generator_version": __version__,
        "construction": info,
        "text": text_parameters(cfg.text),
        "miner": miner_parameters(cfg.miner),
        "parameters": config_mod.provenance(cfg),
    })
    written.append(write_stats(out_root, cfg.name))
    return written, g


def genealogy_record(copies_of, queries, stages, note, synthetic=True):
    """A release's ``genealogy.json``: each copy of ``copies_of`` (:data:`layout.CROSSPAGE.copies`,
    :attr:`layout.Release.copies` of SourceShift or RealPage) with its counts and removals; ``stages``: ``(rows,
    removed, changed)`` per copy; ``synthetic``: False for RealPage's real documents."""
    copies, removed_so_far = [], set()
    for copy, (rows, removed, changed) in zip(copies_of, stages):
        removed_so_far.update(removed)
        copies.append({"copy": copy.name, "file": copy.path, "from": copy.parent, "decisions": copy.decisions,
                       "stage": copy.stage, "removed_queries": list(removed),
                       "queries": len(queries) - len(removed_so_far), "rows": len(rows),
                       "grades_changed": changed})
    return {"synthetic": synthetic, "copies": copies, "note": note}


V1_GENEALOGY_NOTE = (
    "CrossPage's qrel copies: the construction copy from the miner's inventory, and the final copy (the construction "
    "copy with the stratified audit's decisions applied; a query left without a gold is removed with its qrels), on "
    "which every CrossPage table is computed (paper section 3.2, supplement 1.1 and 10.4).")


def miner_parameters(miner_cfg):
    """The construction miner's rates as recorded in build.json."""
    return dataclasses.asdict(miner_cfg)


def text_parameters(text_cfg):
    """The page-text parameters as recorded in build.json."""
    return {"words_median": dict(text_cfg.words_median), "doc_sigma": text_cfg.doc_sigma,
            "page_sigma": text_cfg.page_sigma, "words_min": text_cfg.words_min, "words_max": text_cfg.words_max,
            "header_share": text_cfg.header_share, "surface_mix_label_alias_paraphrase_case": list(text_cfg.surface_mix),
            "prose_mix_generic_topic_own_label_other": list(text_cfg.prose_mix),
            "label_vocabulary_share": text_cfg.label_vocabulary_share,
            "more_entity_mentions": text_cfg.more_entity_mentions, "section_sentence": text_cfg.section_sentence,
            "ocr_levels": list(text_cfg.ocr_levels)}


