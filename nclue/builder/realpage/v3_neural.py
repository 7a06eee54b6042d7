"""RealPage's dense runs as the release writer takes them in (docs/realpage.md#neural): the folder
``python -m nclue.builder.neural.runs`` wrote, in the release's own layout, with its ``neural.json``.

The writer never runs a model: it checks the record against the declared embedder and systems
(:mod:`nclue.retrieval.dense_systems`) and every file against the SHA-256 the record gives it, then ships the
bytes as they are.  A rebuild hands in the released files themselves, so the rest of the release is compared
byte for byte; the dense runs are recomputed and compared within a tolerance apart
(:mod:`nclue.builder.neural.compare`).
"""

import hashlib
import json
import os

from ...core import layout
from ...retrieval import dense_systems as declared
from ..neural.embedder import MODEL_ZIP_SHA256
from .settings import RealPageError

RELEASE = layout.REALPAGE
RECORD = declared.relative(RELEASE.neural)


class DenseRuns:
    """The checked dense runs: ``record`` (neural.json as read) and ``files`` (``[(path under data/v3, bytes)]``,
    sorted)."""

    def __init__(self, record, files):
        self.record, self.files = record, files


def read_runs(folder):
    """The dense runs in ``folder`` (:class:`DenseRuns`), refused with a :class:`RealPageError` naming the file
    and what was expected and found when the record or a file is not the declared one."""
    where = os.path.join(folder, RECORD)
    try:
        with open(where, encoding="utf-8") as handle:
            record = json.load(handle)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise RealPageError("%s: not a readable dense-run record (%s)" % (where, str(exc)[:160])) from exc
    if not isinstance(record, dict):
        raise RealPageError("%s: expected a JSON object" % where)
    for field, expected in (("model_zip_sha256", MODEL_ZIP_SHA256), ("systems", list(declared.IDS)),
                            ("synthetic", False)):
        if record.get(field) != expected:
            raise RealPageError("%s: %s expected %s, found %s" % (where, field, json.dumps(expected)[:120],
                                                                  json.dumps(record.get(field))[:120]))
    listed = record.get("files")
    expected = declared.expected_files()
    if not isinstance(listed, dict) or sorted(listed) != expected:
        raise RealPageError("%s: files expected the %d declared dense files, found %s" % (
            where, len(expected), sorted(listed)[:3] if isinstance(listed, dict) else type(listed).__name__))
    files = []
    for rel in expected:
        path = os.path.join(folder, rel)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as exc:
            raise RealPageError("%s: unreadable (%s)" % (path, exc.strerror or exc)) from exc
        digest = hashlib.sha256(data).hexdigest()
        if digest != listed[rel]:
            raise RealPageError("%s: sha256 expected %s (%s), found %s" % (path, listed[rel], RECORD, digest))
        files.append((RELEASE.base + "/" + rel, data))
    return DenseRuns(record, files)


def check_queries(runs, queries):
    """Refuse dense runs of another query set: every ranking file ranks each of ``queries`` once, in order."""
    qids = [q["qid"] for q in queries]
    for rel, data in runs.files:
        if "/page_scores/" in rel:
            continue
        found = [json.loads(line)["qid"] for line in data.decode("utf-8").splitlines()]
        if found != qids:
            raise RealPageError("%s: its rows are not the release's %d queries in order (found %d rows)" % (
                rel, len(qids), len(found)))


def released_folder(root):
    """The folder the released dense runs sit in, in their own layout (RealPage's folder), or None when the
    release ships none."""
    return layout.abspath(root, RELEASE.base) if os.path.isfile(layout.abspath(root, RELEASE.neural)) else None


def write(out_root, runs):
    """Write the dense runs' files and their record under ``out_root``; returns the release paths written."""
    from ...core.jsonio import write_json
    written = []
    for rel, data in runs.files:
        path = layout.abspath(out_root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)
        written.append(rel)
    write_json(layout.abspath(out_root, RELEASE.neural), runs.record)
    return written + [RELEASE.neural]
