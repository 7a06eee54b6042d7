"""Rebuild level (``--deep``): regenerate the stand-in from its seed in a temporary
folder and compare the sha256 of every released file with the manifest."""

import json
import os
import shutil
import tempfile

from ..builder.build import write_all
from ..builder.config import CONFIGS
from ..core import layout
from ..core.errors import bounded
from ..core.integrity import sha256_file
from ..core.jsonio import read_json
from .checks import Check
from .freeze import freeze


# the fields that name a record of a released JSONL file, in the order a difference names them
RECORD_KEYS = ("qid", "docid", "pair", "responder", "stream", "cid", "id", "page")
CHUNK = 1 << 20          # bytes read at a time when comparing lines


def first_difference(released, rebuilt, limit=1 << 30):
    """``"; first difference at line N (pair J006, responder A)"``: where a released file first departs from
    its regenerated copy, naming the record by its identifying fields when the line is a JSON object
    (:data:`RECORD_KEYS`); "" when the file cannot be read or no line differs (a difference in line endings).

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> a, b = os.path.join(folder, "a.jsonl"), os.path.join(folder, "b.jsonl")
    >>> _ = open(a, "w").write('{"pair": "J001", "responder": "A"}\\n{"pair": "J002", "responder": "E"}\\n')
    >>> _ = open(b, "w").write('{"pair": "J001", "responder": "A"}\\n{"pair": "J002", "responder": "A"}\\n')
    >>> first_difference(a, b)
    '; first difference at line 2 (pair J002, responder E)'
    """
    try:
        with open(released, "rb") as mine, open(rebuilt, "rb") as theirs:
            number, read, start = 1, 0, True
            while read < limit:
                left, right = mine.readline(CHUNK), theirs.readline(CHUNK)    # a long line is read in pieces
                read += len(left)
                if left != right:
                    return "; first difference at line %d%s" % (number, _record_names(left or right) if start else "")
                if not left:
                    return ""
                start = left.endswith(b"\n")
                number += start
    except OSError:
        return ""
    return ""


def _record_names(line):
    """`` (pair J006, responder A)`` of a JSON object line, from its :data:`RECORD_KEYS`; "" otherwise."""
    try:
        record = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return ""
    if not isinstance(record, dict):
        return ""
    names = ["%s %s" % (key, bounded(str(record[key]), 60)) for key in RECORD_KEYS
             if isinstance(record.get(key), (str, int)) and not isinstance(record.get(key), bool)]
    return " (%s)" % ", ".join(names) if names else ""


def _realpage(root, tmp, listed, log):
    """RealPage (data/v3) in the rebuild: rebuilt from the pinned packages when all are present, else its
    released files are carried over (so that the frozen claims can be compared) and one skip names the
    missing packages.  Returns ``(checks, paths not rebuilt)``."""
    from ..builder.realpage import packages, v3_neural, v3_writer

    files = [rel for rel in listed if rel.startswith(layout.V3 + "/")]
    if not files:
        return [], set()
    folder = packages.default_folder()
    absent = packages.missing(folder)
    if absent:
        for rel in files:
            os.makedirs(os.path.dirname(layout.abspath(tmp, rel)), exist_ok=True)
            shutil.copyfile(layout.abspath(root, rel), layout.abspath(tmp, rel))
        return [Check("rebuild:" + layout.V3, "rebuild", "skip",
                      "RealPage (data/v3) not rebuilt: %d of the %d pinned packages are not in %s (%s; set %s to "
                      "the folder of the .deb files, or fill it with `nclue build --target realpage --fetch --packages "
                      "%s`); its %d files are checked by hash only" % (
                          len(absent), len(packages.PACKAGES), folder, ", ".join(absent), packages.FOLDER_VARIABLE,
                          folder, len(files)))], set(files)
    seed = read_json(layout.abspath(root, layout.REALPAGE.build), layout.REALPAGE.build).get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        return [Check("rebuild:" + layout.V3, "rebuild", "fail", "%s: seed %r is not a non-negative integer"
                      % (layout.REALPAGE.build, seed))], set()
    # the dense runs are shipped as they were built (a model's floating point differs across machines): the
    # rebuild takes the released ones in, and recomputing them is the neural check's (docs/realpage.md#neural)
    v3_writer.write_release(tmp, folder, seed, log=log, neural=v3_neural.released_folder(root))
    return [], set()


def _dense(root, log):
    """RealPage's dense runs recomputed and compared within the tolerance (:mod:`.neural_rebuild`)."""
    from ..builder.realpage import packages
    from .neural_rebuild import neural_checks

    folder = packages.default_folder()
    return neural_checks(root, None if packages.missing(folder) else folder, log)


def rebuild_checks(root, result, log=None):

    manifest = result.manifest
    if manifest is None:
        return [Check("rebuild", "rebuild", "fail", "MANIFEST.json unusable; nothing to compare")]
    gen = manifest.get("generator") or {}
    if not manifest.get("synthetic") or gen.get("config") not in CONFIGS or not isinstance(gen.get("seed"), int):
        return [Check("rebuild", "rebuild", "skip", "instrument is not a stand-in this builder can regenerate "
                                                   "(MANIFEST.json generator.config/seed)")]
    tmp = tempfile.mkdtemp(prefix="nclue-rebuild-")
    try:
        quiet = (lambda *a: None) if log is None else log
        write_all(tmp, CONFIGS[gen["config"]], gen["seed"], gen.get("shift_seed"), log=quiet)
        checks, carried = _realpage(root, tmp, [entry["path"] for entry in manifest["files"]], quiet)
        checks += _dense(root, quiet)
        paper = layout.abspath(root, layout.PAPER_DIR)
        if os.path.isdir(paper):   # the hand transcription is not generated: carry it over
            shutil.copytree(paper, layout.abspath(tmp, layout.PAPER_DIR))
        freeze(tmp, log=quiet)
        for entry in manifest["files"]:
            rel = entry["path"]
            if rel.startswith(layout.PAPER_DIR + "/") or rel in carried:
                continue
            full = layout.abspath(tmp, rel)
            if not os.path.isfile(full):
                checks.append(Check("rebuild:" + rel, "rebuild", "fail", "the rebuild does not produce %s" % rel))
                continue
            digest = sha256_file(full)[0]
            if digest == entry["sha256"]:
                checks.append(Check("rebuild:" + rel, "rebuild", "pass", "regenerated byte-identical"))
            else:
                checks.append(Check("rebuild:" + rel, "rebuild", "fail", "regenerated sha256 %s differs from %s%s" % (
                    digest[:12], entry["sha256"][:12], first_difference(layout.abspath(root, rel), full))))
        return checks
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
