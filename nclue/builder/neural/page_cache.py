"""RealPage's page embeddings, computed once and cached outside the repository (docs/realpage.md#neural).

The cache is two files in ``~/.cache/nclue/neural/<model>/``: ``pages.idx`` (one page's SHA-256 a line, the
released page hash of ``data/v3/corpus.jsonl``) and ``pages.f32`` (the embeddings in the same order, each
:data:`~.embedder.DIMENSIONS` little-endian float32).  It is appended a batch at a time, so an interrupted
encoding resumes where it stopped (a partly written last row is cut off).  Reading needs only the standard
library (:func:`read`).
"""

import array
import json
import os
import sys
import time

from ...core.errors import UsageError
from ..realpage.pages import page_sha256
from . import embedder

ROW_BYTES = embedder.DIMENSIONS * 4


def cache_folder(model_key):
    return os.path.join(embedder.CACHE, model_key)


def _done(folder):
    """The page hashes already cached, with the embedding file cut to whole rows that the index names."""
    idx, f32 = os.path.join(folder, "pages.idx"), os.path.join(folder, "pages.f32")
    hashes = []
    if os.path.isfile(idx):
        with open(idx, encoding="ascii") as handle:
            hashes = [line.strip() for line in handle if len(line.strip()) == 64]
    rows = os.path.getsize(f32) // ROW_BYTES if os.path.isfile(f32) else 0
    keep = min(rows, len(hashes))
    hashes = hashes[:keep]
    with open(idx, "w", encoding="ascii") as handle:
        handle.writelines(h + "\n" for h in hashes)
    with open(f32, "ab") as handle:
        handle.truncate(keep * ROW_BYTES)
    return hashes


def encode_pages(pages_file, folder, model, progress=print):
    """Embed every page of ``pages_file`` (``nclue export-pages --release v3``'s JSONL) not yet in the cache."""
    os.makedirs(folder, exist_ok=True)
    seen = set(_done(folder))
    todo = []
    with open(pages_file, encoding="utf-8") as handle:
        for line in handle:
            text = json.loads(line)["text"]
            digest = page_sha256(text)
            if digest not in seen:
                seen.add(digest)
                todo.append((digest, text))
    progress("neural: %d pages cached, %d to encode" % (len(seen) - len(todo), len(todo)))
    started = time.time()
    step = embedder.BATCH * 8
    for start in range(0, len(todo), step):
        chunk = todo[start:start + step]
        vectors = embedder.encode(model, [text for _, text in chunk])
        with open(os.path.join(folder, "pages.f32"), "ab") as out:
            for vector in vectors:
                row = array.array("f", vector)
                if sys.byteorder != "little":
                    row.byteswap()
                out.write(row.tobytes())
        with open(os.path.join(folder, "pages.idx"), "a", encoding="ascii") as out:
            out.writelines(digest + "\n" for digest, _ in chunk)
        done = start + len(chunk)
        rate = done / max(time.time() - started, 1e-9)
        progress("neural: %d of %d pages encoded (%.1f a second)" % (done, len(todo), rate))


def read(folder):
    """``{page sha256: array('f') of the embedding}`` from the cache (standard library only)."""
    idx, f32 = os.path.join(folder, "pages.idx"), os.path.join(folder, "pages.f32")
    if not (os.path.isfile(idx) and os.path.isfile(f32)):
        raise UsageError("no page embeddings in %s: run the neural build first (docs/realpage.md#neural)" % folder)
    with open(idx, encoding="ascii") as handle:
        hashes = [line.strip() for line in handle]
    data = array.array("f")
    with open(f32, "rb") as handle:
        data.frombytes(handle.read())
    if sys.byteorder != "little":
        data.byteswap()
    d = embedder.DIMENSIONS
    if len(data) != len(hashes) * d:
        raise UsageError("%s: %d embeddings for %d page hashes" % (folder, len(data) // d, len(hashes)))
    return {h: data[k * d:(k + 1) * d] for k, h in enumerate(hashes)}


def main(argv=None):
    """``python -m nclue.builder.neural.page_cache PAGES_FILE [THREADS]``: fill the cache (the neural extra)."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print("usage: python -m nclue.builder.neural.page_cache PAGES_FILE [THREADS]", file=sys.stderr)
        return 2
    if not os.path.isfile(argv[0]):
        print("error: %s: no such pages file (write it with `nclue export-pages --release v3 --packages DIR OUT`)"
              % argv[0], file=sys.stderr)
        return 2
    threads = embedder.threads_given(argv[1], "THREADS") if len(argv) > 1 else 2
    if threads is None:
        return 2

    def work(progress):
        model = embedder.load(threads)
        encode_pages(argv[0], cache_folder(os.path.basename(embedder.model_folder())), model, progress=progress)
    return embedder.run_command(work)


if __name__ == "__main__":
    sys.exit(main())
