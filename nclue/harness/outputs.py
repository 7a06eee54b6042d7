"""Where a command may write (docs/usage.md#outputs): never into the release, checked before any work.

An output path is refused (exit 2, before the run starts) when it lies under
the release's ``data/`` or ``reference_metrics/``, is ``MANIFEST.json``,
``SHA256SUMS`` or any file MANIFEST.json lists, is a directory, or its folder
does not exist or cannot be written.  Files are written to a temporary name
beside the target and renamed, so a failed write never leaves half a report.
"""

import os
import sys
import tempfile

from ..core import integrity
from ..core.errors import UsageError

RELEASE_DIRS = ("data", "reference_metrics")


def _real(path):
    return os.path.realpath(os.path.abspath(path))


def inside_release(path, root):
    """True when ``path`` is the manifest, the sums file, or lies under the release's data folders."""
    real = _real(path)
    for sub in RELEASE_DIRS:
        base = _real(os.path.join(root, sub))
        if real == base or os.path.commonpath([base, real]) == base:
            return True
    return real in (_real(os.path.join(root, integrity.MANIFEST)), _real(os.path.join(root, integrity.SUMS)))


def check_output_file(path, root, what):
    """Refuse an output file path that would write into the release or cannot be written (UsageError)."""
    if inside_release(path, root):
        raise UsageError("refusing to write %s %s: it is part of the release at %s (data/, reference_metrics/, "
                         "MANIFEST.json and SHA256SUMS are never written by this command)" % (what, path, root))
    if os.path.isdir(path):
        raise UsageError("cannot write %s %s: it is a directory" % (what, path))
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError("cannot write %s %s: folder %s does not exist" % (what, path, folder))
    if not os.access(folder, os.W_OK):
        raise UsageError("cannot write %s %s: folder %s is not writable" % (what, path, folder))


def check_output_dir(path, root, what):
    """Refuse an output folder inside the release, or a path that is an existing file."""
    if inside_release(path, root):
        raise UsageError("refusing to write %s into %s: it is part of the release at %s" % (what, path, root))
    if os.path.exists(path) and not os.path.isdir(path):
        raise UsageError("cannot write %s into %s: it is a file, not a folder" % (what, path))


def write_text(path, text):
    """Write ``text`` (UTF-8, ``\\n``) atomically: a temporary file beside ``path``, then a rename."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".nclue-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)          # a report is an ordinary file, not mkstemp's private 0600
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


class Output:
    """Standard output that survives a closed pipe (``| head``) and any encoding (``PYTHONIOENCODING=ascii``):
    characters the stream cannot encode are escaped, and after a broken pipe further output is dropped."""

    def __init__(self, stream):
        self.stream = stream
        self.closed = False

    def write(self, text):
        if self.closed:
            return
        encoding = getattr(self.stream, "encoding", None) or "utf-8"
        text = text.encode(encoding, "backslashreplace").decode(encoding, "replace")
        try:
            self.stream.write(text)
            self.stream.flush()
        except BrokenPipeError:
            self.closed = True
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, self.stream.fileno())
            except (OSError, ValueError, AttributeError):
                pass


STDOUT = Output(sys.stdout)
STDERR = Output(sys.stderr)
