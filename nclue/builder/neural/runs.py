"""RealPage rankings of the dense configurations over the cached page embeddings (docs/realpage.md#neural): a
researcher's runs, written outside the release and scored with ``nclue score --release v3`` like any other.

``python -m nclue.builder.neural.runs OUT [--data ROOT] [--threads N]`` (the neural extra): reads
``data/v3/corpus.jsonl`` (each RFC's page hashes, in page order), ``queries.jsonl`` and ``conditions.jsonl``,
the page cache of :mod:`.page_cache` (every page must be in it), checks the embedder's fingerprint, embeds
each query text and each condition text, and writes ``OUT/<system>__<form>.jsonl`` (one JSONL ranking row a
query, its top 10, scores to 6 decimals) for each system of :data:`SYSTEMS` and each query form, with
``OUT/build.json`` (the model, its checks, the precision, the counts, the time).  The per-condition texts are
the ones the lexical condition-wise systems use (:func:`nclue.builder.rankings.query_view`): under the raw
form the mined surface form (a section's title, a definition's acronym), under the clean and natural forms
the condition's label.
"""

import hashlib
import json
import os
import sys
import time

from ...core import layout
from ...core.errors import UsageError
from ...core.jsonio import write_text
from ...retrieval.systems import DEPTH, SCORE_DECIMALS
from . import dense, embedder, page_cache

# the dense configurations, each with the paper configuration it plays (Table 2; docs/realpage.md#neural)
SYSTEMS = (
    ("mini_doc", "dense single-vector retrieval over the whole document (the unit centroid of its pages)"),
    ("mini_page_max", "dense page scores, a document by its best page (page aggregation: max)"),
    ("mini_page_top3", "dense page scores, a document by the mean of its three best (page aggregation: top-3)"),
    ("mini_dec_min", "condition-wise decomposition of dense page scores, min"),
    ("mini_dec_product", "condition-wise decomposition of dense page scores, product"),
    ("mini_dec_hmean", "condition-wise decomposition of dense page scores, harmonic mean"),
)


def _mined(condition):
    """The raw form's text of a condition: a section's title, a definition's acronym (its id's second part)."""
    return condition["label"] if condition["kind"] == "section" else condition["cid"].split(":")[1]


def _rows(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


class PageMatrix:
    """Every page vector of the sampled RFCs, in corpus order, with each RFC's span (numpy when present)."""

    def __init__(self, corpus, cached):
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
        import numpy
        self.matrix = numpy.array([list(v) for v in vectors], dtype=numpy.float32)
        self.documents = {d: dense.unit([float(x) for x in self.matrix[a:b].sum(axis=0)])
                          for d, (a, b) in zip(self.docids, self.spans)}

    def similarities(self, vector):
        """``{docid: [page cosines]}`` of one unit query vector."""
        import numpy
        flat = (self.matrix @ numpy.asarray(vector, dtype=numpy.float32)).tolist()
        return {d: flat[a:b] for d, (a, b) in zip(self.docids, self.spans)}


def rank_query(pages, vector, condition_vectors):
    """``{system: [(docid, score)]}`` of one query (its vector and its conditions' vectors)."""
    sims = pages.similarities(vector)
    per_condition = [pages.similarities(v) for v in condition_vectors]
    return {"mini_doc": dense.whole_document(vector, pages.documents),
            "mini_page_max": dense.page_max(sims), "mini_page_top3": dense.page_top3(sims),
            "mini_dec_min": dense.decomposed(per_condition, "min"),
            "mini_dec_product": dense.decomposed(per_condition, "product"),
            "mini_dec_hmean": dense.decomposed(per_condition, "hmean")}


def write_runs(root, out, model, progress=print):
    """Write every system's ranking of every query form into ``out``; return the build record."""
    started = time.time()
    v3 = layout.REALPAGE
    corpus = _rows(layout.abspath(root, v3.corpus))
    queries = _rows(layout.abspath(root, v3.queries))
    by_cid = {c["cid"]: c for c in _rows(layout.abspath(root, v3.conditions))}
    folder = page_cache.cache_folder(os.path.basename(embedder.model_folder()))
    pages = PageMatrix(corpus, page_cache.read(folder))
    progress("neural runs: %d RFCs, %d pages" % (len(pages.docids), len(pages.matrix)))
    os.makedirs(out, exist_ok=True)
    files = {}
    for form in layout.QUERY_FORMS:
        texts = [q["forms"][form.key] for q in queries]
        cond_texts = [[_mined(by_cid[c["cid"]]) if form == layout.RAW else by_cid[c["cid"]]["label"]
                       for c in q["conditions"]] for q in queries]
        distinct = sorted({t for ts in cond_texts for t in ts})
        vectors = embedder.encode(model, texts)
        by_text = dict(zip(distinct, embedder.encode(model, distinct)))
        rows = {sid: [] for sid, _ in SYSTEMS}
        for q, vector, conds in zip(queries, vectors, cond_texts):
            for sid, ranking in rank_query(pages, vector, [by_text[t] for t in conds]).items():
                rows[sid].append({"docids": [d for d, _ in ranking[:DEPTH]], "qid": q["qid"],
                                  "scores": [round(s, SCORE_DECIMALS) for _, s in ranking[:DEPTH]]})
        for sid, _ in SYSTEMS:
            name = "%s__%s.jsonl" % (sid, form.key)
            text = "".join(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n" for r in rows[sid])
            write_text(os.path.join(out, name), text, "a dense run")
            files[name] = hashlib.sha256(text.encode("utf-8")).hexdigest()
        progress("neural runs: form %s written (%.0f s)" % (form.key, time.time() - started))
    record = {"synthetic": False, "model": embedder.MODEL_NAME, "wheel": embedder.WHEEL,
              "model_zip_sha256": embedder.MODEL_ZIP_SHA256, "precision": embedder.PRECISION,
              "max_word_pieces": embedder.MAX_WORD_PIECES, "batch": embedder.BATCH,
              "systems": {sid: what for sid, what in SYSTEMS}, "queries": len(queries),
              "pages": int(len(pages.matrix)), "files": files, "seconds": round(time.time() - started, 1),
              "note": "Dense runs of one small sentence embedder over RealPage's real RFC pages; not the paper's "
                      "models, not part of the release (docs/realpage.md#neural)."}
    write_text(os.path.join(out, "build.json"), json.dumps(record, indent=1, sort_keys=True) + "\n",
               "the dense runs' build record")
    return record


def main(argv=None):
    """``python -m nclue.builder.neural.runs OUT [--data ROOT] [--threads N]``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    root, threads = ".", 2
    if "--data" in argv:
        k = argv.index("--data")
        root = argv[k + 1] if k + 1 < len(argv) else ""
        del argv[k:k + 2]
    if "--threads" in argv:
        k = argv.index("--threads")
        value = argv[k + 1] if k + 1 < len(argv) else ""
        threads = embedder.threads_given(value, "--threads")
        if threads is None:
            return 2
        del argv[k:k + 2]
    if len(argv) != 1:
        print("usage: python -m nclue.builder.neural.runs OUT [--data ROOT] [--threads N]", file=sys.stderr)
        return 2
    if not os.path.isfile(layout.abspath(root, layout.REALPAGE.corpus)):
        print("error: no RealPage release under %r (%s missing)" % (root, layout.REALPAGE.corpus), file=sys.stderr)
        return 2
    out = os.path.realpath(argv[0])
    for part in layout.RELEASE_DIRS:
        guarded = os.path.realpath(os.path.join(root, part))
        if os.path.commonpath([out, guarded]) == guarded:
            print("error: refusing to write the runs into the release (%s is under %s)" % (argv[0], guarded),
                  file=sys.stderr)
            return 2
    return embedder.run_command(lambda progress: write_runs(root, argv[0], embedder.load(threads), progress))


if __name__ == "__main__":
    sys.exit(main())
