"""Opening an input file: the one way every reader of the package opens what it reads (docs/schema.md#limits).

* only a **regular file** is read: a FIFO, a device (``/dev/zero``), a socket or a directory is refused
  at once, naming it -- the file is opened without blocking, so a FIFO with no writer cannot hang the run;
* a **byte budget** (default :data:`MAX_FILE_BYTES`) applies to what is read, checked
  while reading, so a file that grows, or reports a size of 0 (``/proc``), still stops at the limit;
* a gzip file is **expanded under the same budget**, counted in decompressed bytes while streaming, so a
  gzip bomb stops at the limit instead of being expanded first.

Every failure is an :class:`~nclue.core.errors.InputError` (or :class:`~nclue.core.errors.MissingInput`)
naming the file as the caller names it (``where``).

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "x.txt")
>>> _ = open(path, "wb").write(b"abc")
>>> read_input(path, "x.txt")
b'abc'
>>> read_input(folder, "folder")
Traceback (most recent call last):
...
nclue.core.errors.InputError: folder: is a directory, not a file
"""

from __future__ import annotations

import gzip
import os
import stat
import zlib
from typing import Any

from .errors import InputError, MissingInput

GZIP_MAGIC = b"\x1f\x8b"
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


MAX_FILE_BYTES = 512 * 1024 * 1024      # the largest input file (docs/schema.md#limits)


def budget_default() -> int:
    return MAX_FILE_BYTES


_RECORDERS = []         # the active read recorders (:func:`recording`), innermost last


class recording:
    """``with recording() as seen:`` collects the absolute path of every file :func:`open_input` is asked to
    open inside the block (also a file that turns out missing), and what :func:`note_reads` replays: the
    observed inputs of a computation (docs/claims.md#a-claim-file-is-checked-as-data).  Recorders nest;
    a read is seen by every active one."""

    def __enter__(self) -> set[Any]:
        self.seen: set[str] = set()
        _RECORDERS.append(self.seen)
        return self.seen

    def __exit__(self, *exc: object) -> None:
        # by identity: two recorders that saw the same files are equal sets
        del _RECORDERS[next(i for i in range(len(_RECORDERS) - 1, -1, -1) if _RECORDERS[i] is self.seen)]


def note_reads(paths: frozenset[Any] | tuple[Any, ...]) -> None:
    """Count ``paths`` (absolute) as read by every active recorder: a cached result replays the reads that
    made it (:meth:`nclue.core.instrument.Instrument.memo`)."""
    for seen in _RECORDERS:
        seen.update(paths)


def open_input(path: str, where: str) -> Any:
    """A binary file object on ``path``, which must be a regular file (see module doc)."""
    if _RECORDERS:
        note_reads((os.path.abspath(path),))
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK)
    except FileNotFoundError:
        raise MissingInput(where) from None
    except IsADirectoryError:
        raise InputError(where, "is a directory, not a file") from None
    except OSError as exc:
        raise InputError(where, "cannot read (%s)" % (exc.strerror or exc)) from exc
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(where, "is a directory, not a file")
        if not stat.S_ISREG(mode):
            kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
            raise InputError(where, "is %s, not a regular file: only regular files are read" % kind)
        if _NONBLOCK:
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def too_large(where: Any, budget: Any, what: Any = "file") -> Any:
    """The InputError of an input found larger than ``budget`` bytes while it was read (``what``: the noun)."""
    return InputError(where, "%s is larger than the %d-byte limit" % (what, budget))


def read_input(path: str, where: str, budget: int | None = None) -> bytes:
    """The bytes of a regular file, at most ``budget`` of them (an InputError past it)."""
    budget = budget_default() if budget is None else budget
    with open_input(path, where) as fh:
        return _read_bounded(fh, where, budget)


def check_size(fh: Any, where: str, budget: int) -> int:
    """An InputError when the open file is already larger than ``budget`` bytes (before anything is read)."""
    size = os.fstat(fh.fileno()).st_size
    if size > budget:
        raise InputError(where, "file of %d bytes is larger than the %d-byte limit" % (size, budget))
    return size


def _read_bounded(fh: Any, where: str, budget: int) -> bytes:
    """An open regular file's bytes from its start, at most ``budget`` of them (its size checked first, and
    the read stops one byte past the budget, should the file grow)."""
    size = check_size(fh, where, budget)
    data = fh.read(size + 1)            # not read(budget + 1): that allocates the whole budget first
    if len(data) > size:                # the file grew since fstat: read on, up to one byte past the budget
        data += fh.read(budget + 1 - len(data))
    if len(data) > budget:
        raise too_large(where, budget)
    return data


def gunzip_bounded(fileobj: Any, where: Any, budget: Any, noun: Any = "file") -> Any:
    """The decompressed bytes of the gzip stream ``fileobj``, read in blocks: an InputError once more than
    ``budget`` decompressed bytes came out (a gzip bomb stops at the limit) or when it is not valid gzip
    (``noun`` names the input in the messages: a file, or standard input's stream)."""
    out, total = [], 0
    try:
        with gzip.GzipFile(fileobj=fileobj, mode="rb") as src:
            while True:
                block = src.read(1 << 20)
                if not block:
                    break
                total += len(block)
                if total > budget:
                    raise too_large(where, budget, "decompressed " + ("input" if noun == "stream" else noun))
                out.append(block)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(where, "not a readable gzip %s (%s)" % (noun, exc)) from exc
    return b"".join(out)


def hash_into(path: str, where: str, hasher: Any, budget: int | None = None, size: int = 1 << 20) -> int:
    """Feed the file's bytes to ``hasher`` (a :mod:`hashlib` object) and return their number.  They are read
    into one reused buffer (no allocation per block); what :func:`open_input` refuses and a file larger than
    ``budget`` are refused."""
    budget = budget_default() if budget is None else budget
    buffer = bytearray(size)
    view, total = memoryview(buffer), 0
    with open_input(path, where) as fh:
        check_size(fh, where, budget)
        while True:
            count = fh.readinto(buffer)
            if not count:
                return total
            total += count
            if total > budget:
                raise too_large(where, budget)
            hasher.update(view[:count])


def read_maybe_gzip(path: Any, where: Any, budget: Any = None) -> Any:
    """The bytes of a file, expanded when it is gzip-compressed; the budget counts decompressed bytes and is
    checked while streaming (a gzip bomb stops at the limit)."""
    budget = budget_default() if budget is None else budget
    with open_input(path, where) as fh:
        gzipped = fh.read(2) == GZIP_MAGIC
        fh.seek(0)
        return gunzip_bounded(fh, where, budget) if gzipped else _read_bounded(fh, where, budget)
