"""``reproduce.py --deep``'s check of RealPage's dense runs (docs/realpage.md#neural): recomputed with the
neural extra and compared with the released ones within the written tolerance
(:mod:`nclue.builder.neural.compare`), never byte for byte.  Without the extra, the cached page embeddings or the
packages, one skip names what is missing and what the run still checked: the released runs' hashes, and every
metric and statistic on them.

The page embeddings are read from the cache (:mod:`nclue.builder.neural.page_cache`), and :data:`PAGE_SAMPLE`
pages evenly spaced through the corpus is encoded again and compared with them (cosine at least :data:`MIN_COSINE`), so that a
stale or foreign cache cannot pass for the model's.
"""

import importlib.util
import os
import shutil
import tempfile

from ..core import layout
from ..core.errors import NclueError
from .checks import Check

NAME = "rebuild:" + layout.V3 + "/neural"
MODULES = ("numpy", "torch", "sentence_transformers", "all_minilm_l6_v2")
PAGE_SAMPLE = 64
MIN_COSINE = 0.9999
_CHECKED = ("they are checked by hash, and every metric and statistic on them is recomputed, like any ranking's")


def _skip(why):
    return [Check(NAME, "rebuild", "skip", "RealPage's dense runs not recomputed: %s; %s" % (why, _CHECKED))]


def _cache_problem(corpus_hashes, cached, sample):
    """Why the cache cannot serve: pages it lacks, or sampled pages whose fresh embedding differs."""
    missing = [h for h in corpus_hashes if h not in cached]
    if missing:
        return "the page cache lacks %d of the %d pages (fill it: python -m nclue.builder.neural.page_cache " \
               "PAGES)" % (len(missing), len(corpus_hashes))
    low = [(h, c) for h, c in sample if c < MIN_COSINE]
    return "%d of %d re-encoded pages differ from the cache (cosine %.5f < %g)" % (
        len(low), len(sample), low[0][1], MIN_COSINE) if low else ""


def neural_checks(root, packages_folder, log=None):
    """The dense runs' rebuild check: ``[Check]`` (empty when the release ships no dense runs)."""
    if not os.path.isfile(layout.abspath(root, layout.REALPAGE.neural)):
        return []
    missing = [m for m in MODULES if importlib.util.find_spec(m) is None]
    if missing:
        return _skip("the neural extra is not installed (missing %s: pip install '.[neural]')" % ", ".join(missing))
    if packages_folder is None:
        return _skip("the doc-rfc packages are not present (the lexical lists need the page text)")
    tmp = tempfile.mkdtemp(prefix="nclue-neural-")
    try:
        return [_recompute(root, packages_folder, tmp, log or (lambda line: None))]
    except NclueError as error:
        return [Check(NAME, "rebuild", "fail", "RealPage's dense runs could not be recomputed: %s" % error)]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _recompute(root, packages_folder, tmp, log):
    import json

    from ..builder.export import export_pages
    from ..builder.neural import compare, embedder, page_cache, runs

    model = embedder.load()
    cached = page_cache.read(page_cache.cache_folder(os.path.basename(embedder.model_folder())))
    pages_file = export_pages(root, layout.REALPAGE, tmp, packages=packages_folder, progress=log)
    texts, order = {}, []
    with open(pages_file, encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            digest = page_cache.page_sha256(row["text"])
            texts[digest] = row["text"]
            order.append(digest)
    step = max(1, len(order) // PAGE_SAMPLE)
    sampled = order[::step][:PAGE_SAMPLE]          # evenly spaced through the corpus, in page order
    fresh = embedder.encode(model, [texts[h] for h in sampled])
    sample = [(h, sum(a * b for a, b in zip(cached[h], v)) if h in cached else 0.0) for h, v in zip(sampled, fresh)]
    problem = _cache_problem(order, cached, sample)
    if problem:
        return Check(NAME, "rebuild", "skip", "RealPage's dense runs not recomputed: %s; %s" % (problem, _CHECKED))
    out = os.path.join(tmp, "runs")
    runs.write_runs(root, out, model, pages_file, log)
    comparisons = compare.compare_folders(layout.abspath(root, layout.REALPAGE.base), out)
    status = "pass" if all(c.within for c in comparisons) else "fail"
    return Check(NAME, "rebuild", status, "recomputed with the neural extra (%d sampled pages re-encoded, lowest "
                 "cosine %.6f): %s" % (len(sample), min(c for _, c in sample), compare.summary(comparisons)))
