"""Running a stand-in system over the queries of one form and writing its released rows
(docs/schema.md#rankings): top-10 rankings and, for page-scored systems, page scores."""

import sys

from ..core import layout
from ..retrieval import systems
from ..retrieval.engine import Engine


def peak_memory():
    """`` (peak RSS N MB)``: the process's peak resident memory so far, for the builder's stage lines
    (docs/stand-in.md#build-memory); "" where the standard library cannot tell (no ``resource`` module)."""
    try:
        import resource
    except ImportError:          # Windows
        return ""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1 if sys.platform == "darwin" else 1024          # bytes on macOS, KiB elsewhere
    return " (peak RSS %d MB)" % (peak * scale // (1 << 20))


def query_view(query, by_cid, form):
    """The :class:`~nclue.retrieval.systems.QueryView` of one query under one form (a
    :class:`~nclue.core.layout.QueryForm`): raw uses the
    mined surface forms for the per-condition texts, clean_v2 and natural the clean labels."""
    conds = [by_cid[c["cid"]] for c in query["conditions"]]
    texts = [c["mined"] if form == layout.RAW else c["label"] for c in conds]
    return systems.QueryView(query["qid"], query["n"], [c["cid"] for c in conds], query["forms"][form.key], texts)


def ranking_rows(spec, env, queries, by_cid, form):
    """Ranking rows (top 10) and, for page-scored systems, page-score rows of one system and form."""
    rows, page_rows = [], []
    for query in queries:
        lst, pages = systems.run_system(spec, env, query_view(query, by_cid, form))
        rows.append({"qid": query["qid"], "docids": [env.docids[d] for d, _ in lst],
                     "scores": [round(s, systems.SCORE_DECIMALS) for _, s in lst]})
        if pages is not None:
            for d, _ in lst:
                page_rows.append({"qid": query["qid"], "docid": env.docids[d],
                                  "pages": [[p, round(s, systems.SCORE_DECIMALS)] for p, s in pages.get(d, [])]})
    return rows, page_rows


def ranked_files(corpus, inventory_rows, seed, queries, catalog, release, forms=(), log=print, label="ranked"):
    """``(release path, rows)`` of every system of :data:`nclue.retrieval.systems.SYSTEMS` over ``corpus`` (a
    :class:`~nclue.retrieval.index.Corpus`), in the order :func:`~nclue.retrieval.systems.build_order` gives:
    its raw-form ranking, its page scores when page-scored and, for the form systems, one ranking per form of
    ``forms`` (where ``release``, a :class:`~nclue.core.layout.Release`, keeps them); each engine resource is
    forgotten after its last user (docs/stand-in.md#build-memory).  The stand-in's CrossPage (every query form)
    and RealPage (the clean and natural forms; its raw column is the raw-form ranking) both run their systems
    here."""
    env = systems.Env(Engine(corpus), corpus.docids, inventory_rows, seed)
    by_cid = {c["cid"]: c for c in catalog}
    order = systems.build_order(systems.SYSTEMS)
    forget = systems.forget_after(order)
    for spec in order:
        rows, page_rows = ranking_rows(spec, env, queries, by_cid, layout.RAW)
        yield release.ranking(spec.id), rows
        if spec.page_scored:
            yield release.page_scores(spec.id), page_rows
        if spec.id in systems.FORM_SYSTEMS:
            for form in forms:
                yield release.form_ranking(spec.id, form), ranking_rows(spec, env, queries, by_cid, form)[0]
        for resource in forget.get(spec.id, ()):
            env.engine.forget(resource)
        log("%s %s%s" % (label, spec.id, peak_memory()))
