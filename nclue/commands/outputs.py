"""Where a command may write (docs/usage.md#outputs): never into the release, never through a link, never onto
something that is not an ordinary file, checked before any work; and the one way outputs are written.

An output path is refused (exit 2, before the run starts, naming it) when it lies under the release's
``data/`` or ``reference_metrics/`` or is ``MANIFEST.json`` / ``SHA256SUMS``; when it is a symbolic link
(a link is never written through); when it exists and is not a regular file (a directory, a device such as
``/dev/null``, a FIFO, a socket: an output never replaces one); when its folder does not exist or cannot be
written; when two outputs of one command name the same file; and when it is one of the command's inputs
(``score RUN --html RUN``).  Files are written to a temporary name beside the target and renamed
(:func:`write_text`, :func:`open_output`), so a failed write never leaves half a report and a hard link to
the old file keeps the old contents.
"""

import os
import re
import sys

from ..core import integrity, layout
from ..core.errors import UsageError
from ..core.jsonio import open_output, refuse_existing, shown_path, write_text  # noqa: F401 -- the writers, declared in core

RELEASE_DIRS = layout.RELEASE_DIRS


def _real(path):
    """``path`` with every link resolved in order, as the kernel walks it (``lnk/..`` is the parent of the link's
    target, not the folder holding ``lnk``): never collapsed as a string first."""
    return os.path.realpath(path)


def inside_release(path, root):
    """True when ``path`` is the manifest, the sums file, or lies under the release's data folders."""
    real = _real(path)
    for sub in RELEASE_DIRS:
        base = _real(os.path.join(root, sub))
        if real == base or os.path.commonpath([base, real]) == base:
            return True
    return real in (_real(os.path.join(root, integrity.MANIFEST)), _real(os.path.join(root, integrity.SUMS)))


class ReleaseGuard:
    """Where no output may go, by identity: every folder of the release's ``data/`` and ``reference_metrics/``
    (and the release root for ``MANIFEST.json`` / ``SHA256SUMS``), as (device, inode) pairs, so that no path --
    a link swapped in during the run, a bind mount, ``..`` after a link -- reaches them.  Called with an open
    folder and a name (:func:`nclue.core.jsonio.open_output`'s ``guard``), it raises UsageError when the folder
    or one of its ancestors is one of those folders."""

    def __init__(self, root):
        self.root = root
        self.folders = set()
        for sub in RELEASE_DIRS:
            base = os.path.join(root, sub)
            for top, _dirs, _ in os.walk(base):
                self.folders.add(_identity(top))
        self.folders.discard(None)
        self.top = _identity(root)

    def __call__(self, dir_fd, name):
        current = os.dup(dir_fd)
        try:
            here = os.fstat(current)
            if (here.st_dev, here.st_ino) == self.top and name in (integrity.MANIFEST, integrity.SUMS):
                self._refuse(name)
            for _ in range(4096):
                st = os.fstat(current)
                if (st.st_dev, st.st_ino) in self.folders:
                    self._refuse(name)
                parent = os.open("..", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0), dir_fd=current)
                up = os.fstat(parent)
                os.close(current)
                current = parent
                if (up.st_dev, up.st_ino) == (st.st_dev, st.st_ino):
                    break
        finally:
            os.close(current)

    def _refuse(self, name):
        raise UsageError("refusing to write %s: the folder it would be written into is part of the release at %s "
                         "(the same folder by device and inode; data/, reference_metrics/, MANIFEST.json and "
                         "SHA256SUMS are never written by this command)" % (_shown(name), _shown(self.root)))


def _identity(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _shown(path):
    return shown_path(path)


def check_output_file(path, root, what, inputs=()):
    """Refuse an output file path that would write into the release, through a link, onto a non-regular file,
    over one of ``inputs``, or cannot be written (UsageError)."""
    if not path:
        raise UsageError("%s needs a file name (an empty path was given)" % what)
    if path.endswith(("/", os.sep)):
        raise UsageError("cannot write %s %s: it names a folder, not a file" % (what, _shown(path)))
    if inside_release(path, root):
        raise UsageError("refusing to write %s %s: it is part of the release at %s (data/, reference_metrics/, "
                         "MANIFEST.json and SHA256SUMS are never written by this command)" % (
                             what, _shown(path), _shown(root)))
    refuse_existing(path, what)
    for other in inputs:
        if other and os.path.lexists(other) and _real(other) == _real(path):
            raise UsageError("refusing to write %s %s: it is an input of this command" % (what, _shown(path)))
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError("cannot write %s %s: folder %s does not exist" % (what, _shown(path), _shown(folder)))
    if not os.access(folder, os.W_OK):
        raise UsageError("cannot write %s %s: folder %s is not writable" % (what, _shown(path), _shown(folder)))


def check_distinct(outputs):
    """Refuse two outputs of one command that name the same file (``[(path, what)]``, empty paths skipped)."""
    seen = {}
    for path, what in outputs:
        if not path:
            continue
        real = _real(path)
        if real in seen:
            raise UsageError("%s and %s would both be written to %s: give each output its own file" % (
                seen[real], what, _shown(path)))
        seen[real] = what


def check_output_dir(path, root, what):
    """Refuse an output folder inside the release, a link, or a path that is an existing non-folder."""
    if not path:
        raise UsageError("%s needs a folder name (an empty path was given)" % what)
    if inside_release(path, root):
        raise UsageError("refusing to write %s into %s: it is part of the release at %s" % (
            what, _shown(path), _shown(root)))
    if os.path.islink(path):
        raise UsageError("refusing to write %s into %s: it is a symbolic link" % (what, _shown(path)))
    if os.path.exists(path) and not os.path.isdir(path):
        raise UsageError("cannot write %s into %s: it is a file, not a folder" % (what, _shown(path)))


def check_output_in(folder, name, root, what):
    """An output file ``name`` inside an output folder: :func:`check_output_file` on ``folder/name``."""
    path = os.path.join(folder, name)
    refuse_existing(path, what)
    if inside_release(path, root):
        raise UsageError("refusing to write %s %s: it resolves into the release at %s" % (
            what, _shown(path), _shown(root)))
    return path


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _escaped(match):
    return "\\x%02x" % ord(match.group())


class Output:
    """Standard output that survives a closed pipe (``| head``) and any encoding (``PYTHONIOENCODING=ascii``):
    characters the stream cannot encode are escaped, and after a broken pipe further output is dropped."""

    def __init__(self, stream):
        self.stream = stream
        self.closed = False

    def write(self, text):
        if self.closed:
            return
        text = _CONTROL.sub(_escaped, text)      # no raw control character or ANSI sequence reaches the terminal
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
