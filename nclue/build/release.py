"""Write the stand-in CrossPage instrument (``data/v1``) from a seed.

Order of work: documents -> condition catalog -> inventory -> construction
(queries, qrels) -> page text (in memory only) -> BM25 index -> rankings ->
Table 1 statistics (computed by :func:`nclue.structure.table1` on the files
as re-loaded, so the builder's output is validated by the same loaders the
harness uses).  Every file is written canonically; the same seed gives the
same bytes.
"""

import os

from .. import __version__
from ..jsonio import write_json, write_jsonl
from ..rng import Stream
from ..retrieval import systems as S
from ..retrieval.engine import Engine
from ..retrieval.index import build_corpus
from ..retrieval.text import tokens
from . import config as config_mod
from . import construct, corpus, forms
from .text import PageSource

FORM_NAMES = ("raw", "clean_v2", "natural")


def generate(cfg, seed):
    """The in-memory instrument: docs, catalog, inventory rows, queries, qrel rows, construction info."""
    docs = corpus.documents(cfg, seed)
    catalog = corpus.condition_catalog(Stream.derived(seed, "catalog"), cfg.max_weight)
    inventory_rows = corpus.inventory(cfg, seed, docs, catalog)
    index = construct.Index(docs, catalog, inventory_rows)
    conjunctions, info = construct.select_queries(cfg, seed, index)
    queries, qrel_rows = [], []
    for number, conj in enumerate(conjunctions):
        query, rows = query_and_qrels("nclue_%04d" % number, catalog, index, conj)
        queries.append(query)
        qrel_rows += rows
    return docs, catalog, inventory_rows, queries, qrel_rows, info


def query_and_qrels(qid, catalog, index, conj, **extra):
    """One constructed query row (``extra`` fields added, e.g. ``source``) and its compact qrel rows
    (grade descending, then docid), shared by the v1 and v2 builders."""
    conds = [catalog[ci] for ci in conj]
    query = dict(extra, qid=qid, n=len(conds), forms=forms.render(conds), synthetic=True,
                 conditions=[{"cid": c["cid"], "kind": c["kind"], "label": c["label"]} for c in conds])
    rows = sorted(construct.qrels_for(index, conj), key=lambda t: (-t[1], t[0]))
    return query, [{"qid": qid, "docid": docid, "grade": grade} for docid, grade in rows]


def beside_paper(stats, paper):
    """``[{statistic, stand_in, paper?}]`` in statistic order: a stand-in table beside the paper's."""
    rows = []
    for key in sorted(stats):
        entry = {"statistic": key, "stand_in": stats[key]}
        if key in paper:
            entry["paper"] = paper[key]
        rows.append(entry)
    return rows


def page_source(cfg, seed, docs, catalog, inventory_rows):
    return PageSource(seed, docs, catalog, inventory_rows, cfg.words_per_page)


def write_instrument(out_root, cfg, seed, log=print):
    """Build everything under ``out_root/data/v1``; return the list of relative paths written."""
    base = os.path.join(out_root, "data", "v1")
    os.makedirs(os.path.join(base, "rankings", "forms"), exist_ok=True)
    os.makedirs(os.path.join(base, "page_scores"), exist_ok=True)
    docs, catalog, inventory_rows, queries, qrel_rows, info = generate(cfg, seed)
    written = []

    def put_jsonl(rel, rows):
        write_jsonl(os.path.join(out_root, *rel.split("/")), rows)
        written.append(rel)

    def put_json(rel, obj):
        write_json(os.path.join(out_root, *rel.split("/")), obj)
        written.append(rel)

    put_jsonl("data/v1/corpus.jsonl", docs)
    put_jsonl("data/v1/conditions.jsonl", [
        {k: c[k] for k in ("cid", "kind", "label", "aliases", "topic", "synthetic")} for c in catalog])
    put_jsonl("data/v1/inventory.jsonl", inventory_rows)
    put_jsonl("data/v1/queries.jsonl", queries)
    put_jsonl("data/v1/qrels.jsonl", qrel_rows)
    log("construction: %d documents, %d inventory rows, %d queries, %d qrel rows (%s)" % (
        len(docs), len(inventory_rows), len(queries), len(qrel_rows), info))

    source = page_source(cfg, seed, docs, catalog, inventory_rows)
    docids = [d["docid"] for d in docs]
    corpus_text = build_corpus(docids, ((d, source.pages(d)) for d in docids), tokens)
    log("index: %d documents, %d pages, %d terms" % (
        corpus_text.docs.n, corpus_text.page_index.n, len(corpus_text.docs.postings)))
    env = S.Env(Engine(corpus_text), docids, inventory_rows, seed)
    by_cid = {c["cid"]: c for c in catalog}
    for spec in S.SYSTEMS:
        rows, page_rows = ranking_rows(spec, env, queries, by_cid, "raw")
        put_jsonl("data/v1/rankings/%s.jsonl" % spec.id, rows)
        if spec.page_scored:
            put_jsonl("data/v1/page_scores/%s.jsonl" % spec.id, page_rows)
        if spec.id in S.FORM_SYSTEMS:
            for form in FORM_NAMES:
                put_jsonl("data/v1/rankings/forms/%s__%s.jsonl" % (spec.id, form),
                          ranking_rows(spec, env, queries, by_cid, form)[0])
        log("ranked %s" % spec.id)
    put_json("data/v1/systems.json", {
        "synthetic": True,
        "note": "Stand-in systems: standard-library retrieval over synthetic page text (nclue/retrieval/).",
        "systems": [s.as_json() for s in S.SYSTEMS],
        "form_systems": list(S.FORM_SYSTEMS),
        "contrasts": S.CONTRASTS,
        "blocked": S.BLOCKED,
    })
    put_json("data/v1/build.json", {
        "instrument": "n-Clue CrossPage stand-in (synthetic)",
        "synthetic": True,
        "seed": seed,
        "config": cfg.name,
        "command": "python -m nclue build --config %s --seed %d" % (cfg.name, seed),
        "generator_version": __version__,
        "construction": info,
        "words_per_page": list(cfg.words_per_page),
    })
    written.append(write_stats(out_root, cfg))
    return written


def query_view(query, by_cid, form):
    """The :class:`QueryView` of one query under one form: raw uses the mined surface forms
    for the per-condition texts, clean_v2 and natural the clean labels."""
    conds = [by_cid[c["cid"]] for c in query["conditions"]]
    texts = [c["mined"] if form == "raw" else c["label"] for c in conds]
    return S.QueryView(query["qid"], query["n"], [c["cid"] for c in conds], query["forms"][form], texts)


def ranking_rows(spec, env, queries, by_cid, form):
    """Ranking rows (top 10) and, for page-scored systems, page-score rows of one system and form."""
    rows, page_rows = [], []
    for query in queries:
        lst, pages = S.run_system(spec, env, query_view(query, by_cid, form))
        rows.append({"qid": query["qid"], "docids": [env.docids[d] for d, _ in lst],
                     "scores": [round(s, S.SCORE_DECIMALS) for _, s in lst]})
        if pages is not None:
            for d, _ in lst:
                page_rows.append({"qid": query["qid"], "docid": env.docids[d],
                                  "pages": [[p, round(s, S.SCORE_DECIMALS)] for p, s in pages.get(d, [])]})
    return rows, page_rows


def write_stats(out_root, cfg):
    """``data/v1/stats.json``: the stand-in's Table 1 beside the paper's (full config only)."""
    from ..instrument import Instrument
    from ..structure import table1

    inst = Instrument(out_root)
    stats = table1(inst.queries(), inst.corpus(), inst.qrels(), inst.inventory())
    rows = beside_paper(stats, config_mod.PAPER_TABLE1 if cfg.name == "full" else {})
    rel = "data/v1/stats.json"
    write_json(os.path.join(out_root, "data", "v1", "stats.json"), {
        "synthetic": True,
        "note": "Stand-in structure from construction; the paper column is the paper's Table 1 (section 3.2). "
                "Only structural counts were targeted; no result number of the paper was.",
        "table1": rows,
    })
    return rel


def write_all(out_root, cfg, seed, shift_seed=None, log=print):
    """The whole stand-in: data/v1, then data/v2 and the label audit (:mod:`nclue.build.release_v2`)."""
    from . import release_v2, sourceshift

    shift_seed = sourceshift.SHIFT_SEED if shift_seed is None else shift_seed
    written = write_instrument(out_root, cfg, seed, log=log)
    g, more = release_v2.write_sourceshift(out_root, cfg.name, shift_seed, log=log)
    written += more
    written += release_v2.write_audit(out_root, cfg.name, g, shift_seed, log=log)
    written.append(release_v2.write_stats_v2(out_root, cfg.name))
    return written
