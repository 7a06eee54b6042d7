"""RealPage's dense rankings over the cached page embeddings (docs/realpage.md#neural): the systems of
:mod:`nclue.retrieval.dense_systems`, written in the release's own layout so that the RealPage builder ships them.

``python -m nclue.builder.neural.runs OUT (--packages DIR | --pages PAGES) [--data ROOT] [--threads N]`` (the neural
extra), one command from the packages to the runs: exports the page text from the packages (or takes ``PAGES``,
``nclue export-pages --release v3``'s), embeds the pages the cache lacks (:mod:`.page_cache`; all of them the first
time, about half an hour on 2 cores), and reads
``data/v3/corpus.jsonl`` (each RFC's page hashes, in page order), ``queries.jsonl``, ``conditions.jsonl`` and
``inventory.jsonl``, the exported page text ``PAGES`` (``nclue export-pages --release v3``; the lexical lists the
fusion and the reranker start from are computed from it and must reproduce the released BM25-AND and BM25-OR
rankings) and the page cache; checks the embedder's fingerprint,
embeds each query text, each condition text and each masked query, and writes under ``OUT``:

* ``rankings/<system>.jsonl`` (the raw form) and ``rankings/forms/<system>__<form>.jsonl`` (the clean and
  natural forms) of every system, one JSONL ranking row a query, its top 10, scores to 6 decimals;
* ``page_scores/<system>.jsonl`` of the page-scored systems (the raw form): each ranked document's best five
  pages with a positive cosine;
* ``neural.json``: the model, its checks, the precision, the counts and every file's SHA-256.

The per-condition texts are the ones the lexical condition-wise systems use
(:func:`nclue.builder.rankings.query_view`): under the raw form the mined surface form (a section's title, a
definition's acronym), under the clean and natural forms the condition's label.
"""

import hashlib
import json
import os
import sys
import time

from ...core import layout
from ...core.errors import UsageError
from ...core.jsonio import write_text
from ...retrieval import dense_systems as declared
from ...retrieval import systems
from ...retrieval.engine import POOL, Engine
from ...retrieval.index import build_corpus, ranked
from ...retrieval.systems import DEPTH, PAGES_KEPT, SCORE_DECIMALS, TEXT_POOL
from ...retrieval.text import tokens
from ..rankings import query_view
from . import dense, embedder, page_cache

RELEASE = layout.REALPAGE
NOTE = ("Dense runs of one small sentence embedder (all-MiniLM-L6-v2, 2021) over RealPage's real RFC pages; not "
        "the paper's models (docs/realpage.md#neural).")


def _mined(condition):
    """The raw form's text of a condition: a section's title, a definition's acronym (its id's second part)."""
    return condition["label"] if condition["kind"] == "section" else condition["cid"].split(":")[1]


def _rows(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


class PageMatrix:
    """Every page vector of the sampled RFCs, in corpus order, with each RFC's span and its document vector
    (the unit centroid of its pages): numpy arrays, products computed in float32."""

    def __init__(self, corpus, cached):
        import numpy
        self.docids, self.spans, vectors = [], [], []
        missing = [h for doc in corpus for h in doc["page_sha256"] if h not in cached]
        if missing:
            raise UsageError("%d pages are not in the page cache (first %s): run the page cache first" % (
                len(missing), missing[0]))
        for doc in corpus:
            start = len(vectors)
            vectors.extend(cached[h] for h in doc["page_sha256"])
            self.docids.append(doc["docid"])
            self.spans.append((start, len(vectors)))
        self.matrix = numpy.array([list(v) for v in vectors], dtype=numpy.float32)
        self.documents = {d: dense.unit([float(x) for x in self.matrix[a:b].sum(axis=0)])
                          for d, (a, b) in zip(self.docids, self.spans)}
        self.document_matrix = numpy.array([self.documents[d] for d in self.docids], dtype=numpy.float32)

    def similarities(self, vector):
        """``{docid: [page cosines]}`` of one unit query vector (:func:`.dense.similarities`)."""
        import numpy
        flat = (self.matrix @ numpy.asarray(vector, dtype=numpy.float32)).tolist()
        return {d: flat[a:b] for d, (a, b) in zip(self.docids, self.spans)}

    def document_cosines(self, vector):
        """``{docid: cosine of vector with the document vector}``, computed as one product."""
        import numpy
        flat = (self.document_matrix @ numpy.asarray(vector, dtype=numpy.float32)).tolist()
        return dict(zip(self.docids, flat))

    def whole_document(self, vector, depth=POOL):
        """:func:`.dense.whole_document` of one unit query vector."""
        return ranked(self.document_cosines(vector), depth)


def best_pages(page_sims, k=PAGES_KEPT):
    """A document's ``k`` best ``[page number, cosine]`` with a positive cosine, best first, ties by page (pages
    1-based), as the lexical page rows keep them.

    >>> best_pages([0.2, 0.5, 0.5, -0.1], k=2)
    [[2, 0.5], [3, 0.5]]
    """
    chosen = sorted((-s, i) for i, s in enumerate(page_sims) if s > 0.0)[:k]
    return [[i + 1, -s] for s, i in chosen]


def _page_row(path, number, line):
    """One row of the exported page text, ``{docid, text, ...}``, or a :class:`UsageError` naming file:line:field."""
    try:
        row = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise UsageError("%s:%d: not a JSON row (%s)" % (path, number, str(exc)[:80])) from exc
    if not isinstance(row, dict):
        raise UsageError("%s:%d: expected an object, found %s" % (path, number, type(row).__name__))
    for field in ("docid", "text"):
        if not isinstance(row.get(field), str):
            raise UsageError("%s:%d: field '%s': expected a string, found %s" % (
                path, number, field, type(row.get(field)).__name__))
    return row


class Lexical:
    """BM25-AND's and BM25-OR's depth-100 lists, from the released page text through the lexical engine (the
    fusion's and the reranker's starting lists): ``lists(query, form)``."""

    def __init__(self, pages_file, corpus, inventory, seed):
        texts = {}
        with open(pages_file, encoding="utf-8", errors="strict") as handle:
            for number, line in enumerate(handle, 1):
                row = _page_row(pages_file, number, line)
                texts.setdefault(row["docid"], []).append(row["text"])
        docids = [doc["docid"] for doc in corpus]
        absent = [doc["docid"] for doc in corpus if len(texts.get(doc["docid"], ())) != len(doc["page_sha256"])]
        if absent:
            raise UsageError("%s: the page text of %d documents is missing or incomplete (first %s): export it "
                             "with nclue export-pages --release v3" % (pages_file, len(absent), absent[0]))
        index = build_corpus(docids, ((d, texts.pop(d)) for d in docids), tokens)
        self.env = systems.Env(Engine(index), index.docids, inventory, seed)

    def run(self, sid, view):
        """``[(docid, score)]``: the lexical system ``sid``'s depth-100 list of one query view."""
        lst, _ = systems.SYSTEM_BY_ID[sid].run(self.env, view)
        return [(self.env.docids[d], s) for d, s in lst]


def rank_query(pages, vector, condition_vectors, lexical_and, lexical_or):
    """``{system: [(docid, score)]}`` of one query form: its vector, its conditions' vectors and the two
    lexical lists; with the page similarities of the page-scored systems."""
    sims = pages.similarities(vector)
    per_condition = [pages.similarities(v) for v in condition_vectors]
    cosine = pages.document_cosines(vector)
    doc = ranked(cosine, POOL)
    top3 = dense.page_top3(sims)
    out = {declared.DOC: doc, declared.PAGE_MAX: dense.page_max(sims), declared.PAGE_TOP3: top3,
           declared.FUSION: dense.fused(lexical_and, top3)}
    for op, sid in declared.DEC.items():
        out[sid] = dense.decomposed(per_condition, op)
    out[declared.RERANK] = ranked({d: cosine[d] for d, _ in lexical_or[:TEXT_POOL]}, POOL)
    return out, sims


def _row(qid, ranking):
    return {"docids": [d for d, _ in ranking[:DEPTH]], "qid": qid,
            "scores": [round(s, SCORE_DECIMALS) for _, s in ranking[:DEPTH]]}


def _page_rows(qid, ranking, sims):
    return [{"docid": d, "pages": [[p, round(s, SCORE_DECIMALS)] for p, s in best_pages(sims[d])], "qid": qid}
            for d, _ in ranking[:DEPTH]]


def _jsonl(rows):
    return "".join(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n" for r in rows)


class Inputs:
    """The release files the runs read, each once."""

    def __init__(self, root):
        self.corpus = _rows(layout.abspath(root, RELEASE.corpus))
        self.queries = _rows(layout.abspath(root, RELEASE.queries))
        self.inventory = _rows(layout.abspath(root, RELEASE.inventory))
        self.by_cid = {}
        for c in _rows(layout.abspath(root, RELEASE.conditions)):
            self.by_cid[c["cid"]] = dict(c, mined=_mined(c))
        with open(layout.abspath(root, RELEASE.build), encoding="utf-8") as handle:
            self.seed = json.load(handle)["seed"]
        self.root = root

    def released(self, sid, form):
        """The release's own ranking rows of a lexical system (``{qid: docids}``), to check the lists against."""
        return {r["qid"]: r["docids"] for r in _rows(layout.abspath(self.root, RELEASE.form_ranking(sid, form)))}


def _lexical_lists(inputs, lexical, form):
    """Both lexical lists of every query in one form, each checked against the released ranking's top 10."""
    lists = {}
    for sid in ("bm25_and", "bm25_or"):
        released = inputs.released(sid, form)
        got = [lexical.run(sid, query_view(q, inputs.by_cid, form)) for q in inputs.queries]
        for q, lst in zip(inputs.queries, got):
            if [d for d, _ in lst[:DEPTH]] != released.get(q["qid"]):
                raise UsageError("%s on %s, form %s: the lexical list does not reproduce the released ranking "
                                 "(the exported page text is not the release's)" % (sid, q["qid"], form.key))
        lists[sid] = got
    return lists


def _form_rows(inputs, pages, model, form, lexical):
    """``({system: ranking rows}, {system: page rows})`` of one query form (masked systems on the raw form)."""
    views = [query_view(q, inputs.by_cid, form) for q in inputs.queries]
    vectors = embedder.encode(model, [v.text for v in views])
    distinct = sorted({t for v in views for t in v.cond_texts})
    by_text = dict(zip(distinct, embedder.encode(model, distinct)))
    lists = _lexical_lists(inputs, lexical, form)
    rows = {sid: [] for sid in declared.FORM_SYSTEMS}
    page_rows = {sid: [] for sid in declared.PAGE_SCORED}
    for k, (view, vector) in enumerate(zip(views, vectors)):
        ranking, sims = rank_query(pages, vector, [by_text[t] for t in view.cond_texts],
                                   lists["bm25_and"][k], lists["bm25_or"][k])
        for sid in declared.FORM_SYSTEMS:
            rows[sid].append(_row(view.qid, ranking[sid]))
        if form == layout.RAW:
            for sid in declared.PAGE_SCORED:
                page_rows[sid] += _page_rows(view.qid, ranking[sid], sims)
    if form == layout.RAW:
        for sid in declared.MASKED:
            masked = [systems.masked_view(v, int(sid[-1])) for v in views]
            masked_vectors = embedder.encode(model, [m.text for m in masked])
            rows[sid] = [_row(m.qid, pages.whole_document(vec)) for m, vec in zip(masked, masked_vectors)]
    return rows, page_rows


def write_runs(root, out, model, pages_file, progress=print):
    """Write every dense system's rankings (and page scores) under ``out``; return the build record."""
    started = time.time()
    inputs = Inputs(root)
    folder = page_cache.cache_folder(os.path.basename(embedder.model_folder()))
    page_cache.encode_pages(pages_file, folder, model, progress)      # the pages not cached yet (all, the first time)
    pages = PageMatrix(inputs.corpus, page_cache.read(folder))
    progress("neural runs: %d RFCs, %d pages" % (len(pages.docids), len(pages.matrix)))
    lexical = Lexical(pages_file, inputs.corpus, inputs.inventory, inputs.seed)
    progress("neural runs: lexical index built (%.0f s)" % (time.time() - started))
    ranking_files, page_files = declared.output_files()
    files = {}

    def emit(rel, rows, what):
        text = _jsonl(rows)
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_text(path, text, what)
        files[rel] = hashlib.sha256(text.encode("utf-8")).hexdigest()

    for form in layout.QUERY_FORMS:
        rows, page_rows = _form_rows(inputs, pages, model, form, lexical)
        for sid, system_rows in rows.items():
            emit(ranking_files[sid][form.key], system_rows, "a dense ranking")
        for sid, system_rows in page_rows.items():      # the raw form's (page scores are kept for it alone)
            if form == layout.RAW:
                emit(page_files[sid], system_rows, "a dense run's page scores")
        progress("neural runs: form %s written (%.0f s)" % (form.key, time.time() - started))
    record = build_record(len(inputs.queries), int(len(pages.matrix)), files, time.time() - started)
    text = json.dumps(record, indent=1, sort_keys=True) + "\n"
    write_text(os.path.join(out, declared.relative(RELEASE.neural)), text, "the dense runs' build record")
    return record


def build_record(queries, pages, files, seconds):
    """``neural.json``: what built the dense runs and every file's SHA-256 (docs/schema.md#realpage-datav3)."""
    return {"synthetic": False, "model": embedder.MODEL_NAME, "wheel": embedder.WHEEL,
            "wheel_sha256": embedder.WHEEL_SHA256, "model_zip_sha256": embedder.MODEL_ZIP_SHA256,
            "fingerprint": [[list(pair), value] for pair, value in embedder.FINGERPRINT],
            "precision": embedder.PRECISION, "max_word_pieces": embedder.MAX_WORD_PIECES, "batch": embedder.BATCH,
            "systems": list(declared.IDS), "queries": queries, "pages": pages, "files": files,
            "seconds": round(seconds, 1), "note": NOTE}


def main(argv=None):
    """``python -m nclue.builder.neural.runs OUT (--packages DIR | --pages PAGES) [--data ROOT] [--threads N]``."""
    import argparse
    parser = argparse.ArgumentParser(prog="python -m nclue.builder.neural.runs",
                                     description="RealPage's dense rankings (docs/realpage.md#neural)")
    parser.add_argument("out", metavar="OUT", help="the folder the runs are written to (never the release)")
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--pages", metavar="PAGES",
                       help="the page text nclue export-pages --release v3 wrote (pages_v3.jsonl)")
    given.add_argument("--packages", metavar="DIR",
                       help="the folder of the pinned doc-rfc packages: the page text is exported from them first")
    parser.add_argument("--data", metavar="ROOT", default=".", help="the repository whose data/v3 is read")
    parser.add_argument("--threads", metavar="N", default="2", help="torch threads (1-64; default 2)")
    args = parser.parse_args(argv)
    threads = embedder.threads_given(args.threads, "--threads")
    if threads is None:
        return 2
    for path, what in ((layout.abspath(args.data, RELEASE.corpus), "no RealPage release under %r" % args.data),
                       (args.pages, "no page text file")):
        if path is not None and not os.path.isfile(path):
            print("error: %s (%s missing)" % (what, path), file=sys.stderr)
            return 2
    out = os.path.realpath(args.out)
    for part in layout.RELEASE_DIRS:
        guarded = os.path.realpath(os.path.join(args.data, part))
        if os.path.commonpath([out, guarded]) == guarded:
            print("error: refusing to write the runs into the release (%s is under %s)" % (args.out, guarded),
                  file=sys.stderr)
            return 2
    def work(progress):
        pages = args.pages
        if pages is None:             # one command: the page text exported from the packages, into OUT
            from ..export import export_pages
            pages = export_pages(args.data, RELEASE, args.out, packages=args.packages, progress=progress)
        return write_runs(args.data, args.out, embedder.load(threads), pages, progress)
    return embedder.run_command(work)


if __name__ == "__main__":
    sys.exit(main())
