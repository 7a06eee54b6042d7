"""Rebuild level (``--deep``): regenerate the stand-in from its seed in a temporary
folder and compare the sha256 of every released file with the manifest.

Each build (the stand-in, RealPage, the freeze of the rebuilt tree) runs in a child interpreter of its own
(:func:`child_main`), one after the other, so that the run's memory peak is the largest build's, not their sum
(docs/usage.md#speed-and---jobs); a child's failure is one failed check naming the step and its message."""

import json
import os
import shutil
import subprocess
import sys
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
    from ..builder.realpage import packages, v3_neural

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
    _in_child("realpage", {"out": tmp, "packages": folder, "seed": seed, "neural": v3_neural.released_folder(root)},
              log)
    return [], set()


class ChildFailed(Exception):
    """A rebuild step's child interpreter ended with an error: the step and its last lines."""

    def __init__(self, step, message):
        super().__init__("the rebuild's %s step failed in its child process: %s" % (step, message))
        self.step = step


def child_main(argv):
    """One rebuild step in a child interpreter: ``STEP ARGS-JSON`` with STEP ``stand-in`` (the seeded builder),
    ``realpage`` (RealPage from its packages, the released dense runs taken in) or ``freeze`` (the rebuilt
    tree's claims and manifest).  Progress goes to stderr; an error is one line there and exit 2."""
    from ..core.errors import NclueError

    step, args = argv[0], json.loads(argv[1])
    log = lambda line: print(line, file=sys.stderr, flush=True)  # noqa: E731
    try:
        if step == "stand-in":
            write_all(args["out"], CONFIGS[args["config"]], args["seed"], args["shift_seed"], log=log)
        elif step == "realpage":
            from ..builder.realpage import v3_writer
            v3_writer.write_release(args["out"], args["packages"], args["seed"], log=log, neural=args["neural"])
        elif step == "freeze":
            freeze(args["out"], log=log)
        else:
            print("error: unknown rebuild step %r" % step, file=sys.stderr)
            return 2
    except NclueError as error:
        print("error: %s" % error, file=sys.stderr)
        return 2
    return 0


def _in_child(step, args, log):
    """Run :func:`child_main` ``step`` in a fresh interpreter (this package, this Python) and wait for it; its
    progress lines go to ``log``; a failure is a :class:`ChildFailed`.  An interrupted run (Ctrl-C, SIGTERM)
    stops the child before it goes on."""
    home = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    code = ("import sys; sys.path.insert(0, %r); from nclue.run.rebuild import child_main; "
            "sys.exit(child_main(sys.argv[1:]))" % home)
    proc = subprocess.Popen([sys.executable, "-c", code, step, json.dumps(args)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace")
    try:
        _, err = proc.communicate()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    lines = err.splitlines()
    for line in lines:
        log(line)
    if proc.returncode != 0:
        raise ChildFailed(step, " | ".join(lines[-3:]) or "exit %d" % proc.returncode)


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
        try:
            _in_child("stand-in", {"out": tmp, "config": gen["config"], "seed": gen["seed"],
                                   "shift_seed": gen.get("shift_seed")}, quiet)
            checks, carried = _realpage(root, tmp, [entry["path"] for entry in manifest["files"]], quiet)
            checks += _dense(root, quiet)
            paper = layout.abspath(root, layout.PAPER_DIR)
            if os.path.isdir(paper):   # the hand transcription is not generated: carry it over
                shutil.copytree(paper, layout.abspath(tmp, layout.PAPER_DIR))
            _in_child("freeze", {"out": tmp}, quiet)
        except ChildFailed as failed:
            return [Check("rebuild:" + failed.step, "rebuild", "fail", str(failed))]
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
