"""Canonical JSON writing and strict, line-numbered JSON Lines reading.

Writing is canonical (sorted keys, no spaces, UTF-8, ``\\n`` line ends, no NaN),
so that the same records always give the same bytes on every interpreter.
Reading is strict: every defect raises :class:`~nclue.core.errors.InputError`
naming the file, the 1-based line and, where it applies, the field.

Limits (docs/schema.md#limits): a file of at most :data:`MAX_FILE_BYTES`, a
JSON Lines line of at most :data:`MAX_LINE_CHARS` characters, values nested at
most :data:`MAX_DEPTH` levels, numbers finite and at most :data:`MAX_MAGNITUDE`
in absolute value (checked where a field is read as a number), no byte-order
mark, ``\\n`` line ends.

>>> parse_json_text('{"a": [1, 2]}', "x.json")
{'a': [1, 2]}
>>> parse_json_text("[" * 70 + "]" * 70, "x.json")
Traceback (most recent call last):
...
nclue.core.errors.InputError: x.json: values nested deeper than 64 levels
"""

from __future__ import annotations

import builtins
import codecs
import contextlib
import errno
import json
import math
import os
import stat
from collections.abc import Collection, Iterator
from typing import Any

from .errors import InputError, UnknownQuery

# the one input opener, its file limit and its size check
from .inputs import MAX_FILE_BYTES, check_size, open_input, read_input, too_large  # noqa: E402

MAX_LINE_CHARS = 1024 * 1024
READ_BLOCK = 1 << 20                    # a JSON Lines file is read into a buffer of this size (grown for a long line)
MAX_DEPTH = 64
MAX_MAGNITUDE = 1e300


def dumps_line(obj: Any) -> Any:
    """One canonical JSON line (no newline)."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def dumps_pretty(obj: Any) -> Any:
    """Canonical indented JSON document text, ending in a newline."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, indent=1, allow_nan=False) + "\n"


def refuse_existing(path: Any, what: Any, dir_fd: Any = None) -> None:
    """Refuse to write ``path`` when it is a symbolic link or an existing entry that is not a regular file (a
    directory, a device such as ``/dev/null``, a FIFO, a socket): :class:`~nclue.core.errors.UsageError`.
    With ``dir_fd``, ``path`` is a name inside that open folder (the entry the rename would replace)."""
    from .errors import UsageError
    shown = shown_path(path)
    try:
        mode = os.stat(os.path.basename(path) if dir_fd is not None else path, dir_fd=dir_fd,
                       follow_symlinks=False).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISLNK(mode):
        raise UsageError("refusing to write %s %s: it is a symbolic link (an output is never written through a "
                         "link)" % (what, shown))
    if stat.S_ISDIR(mode):
        raise UsageError("cannot write %s %s: it is a directory" % (what, shown))
    if not stat.S_ISREG(mode):
        raise UsageError("refusing to write %s %s: it exists and is not a regular file (a device, FIFO or "
                         "socket is never replaced)" % (what, shown))


def shown_path(path: Any, limit: Any = 200) -> Any:
    """A path as a message shows it: whole up to ``limit`` characters, else its start and its end (the file
    name stays visible)."""
    text = repr(str(path))
    return text if len(text) <= limit else text[:limit // 3] + "..." + text[-(2 * limit // 3):]


# the errors of a write (a full disk, a quota, a read-only file system, a file too large)
WRITE_ERRNOS = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EROFS", "EFBIG") if hasattr(errno, name))


@contextlib.contextmanager
def open_output(path: Any, what: Any = "the output", guard: Any = None) -> Any:
    """The one way a file is written (release files, reports, exports): a text file object on a temporary
    file in ``path``'s folder (UTF-8, ``\n``), renamed onto ``path`` when the block succeeds and removed when it
    fails.  The folder is opened once and every step is relative to that open folder, so a link swapped in for
    it during the write cannot redirect the file: ``guard(folder_fd, name)`` (the caller's check of where it may
    write, e.g. never inside a release, by device and inode) runs on the opened folder before the temporary file
    is created and again just before the rename, and ``path`` is refused when it is a link or a special file
    (:func:`refuse_existing`) at both points.  The rename replaces the directory entry, so a hard link to the old
    file keeps the old contents.  A failed write (a full disk) removes the temporary file and raises
    :class:`~nclue.core.errors.UsageError` naming ``path``: "cannot be written"."""
    from .errors import UsageError
    folder, name = os.path.dirname(path) or ".", os.path.basename(path)
    if not name:
        raise UsageError("cannot write %s %s: it names a folder, not a file" % (what, shown_path(path)))
    try:
        dir_fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        raise UsageError("cannot write %s %s: its folder cannot be opened (%s)" % (
            what, shown_path(path), exc.strerror or exc)) from exc
    tmp = None
    try:
        if guard is not None:
            guard(dir_fd, name)
        refuse_existing(path, what, dir_fd=dir_fd)
        tmp = ".nclue-%d-%s.tmp" % (os.getpid(), os.urandom(6).hex())
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666, dir_fd=dir_fd)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            yield fh
        if guard is not None:
            guard(dir_fd, name)
        refuse_existing(path, what, dir_fd=dir_fd)
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        tmp = None
    except OSError as exc:
        if exc.filename is not None and exc.errno not in WRITE_ERRNOS:
            raise                           # a file the block read, not the output: reported as the read it was
        raise UsageError("%s %s cannot be written: %s" % (what, shown_path(path), exc.strerror or exc)) from exc
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=dir_fd)
        os.close(dir_fd)


def make_folder(path: Any, what: Any = "the output", guard: Any = None) -> Any:
    """Create the output folder ``path`` (its parent must exist) unless it exists, relative to its opened parent so
    that ``guard(parent_fd, name)`` (see :func:`open_output`) decides on the folder that is really written."""
    from .errors import UsageError
    trimmed = path.rstrip(os.sep) or os.sep
    parent, name = os.path.split(trimmed)           # never normalised: "lnk/.." is the link target's parent
    if name in ("", ".", ".."):
        parent, name = trimmed, "."
    if parent and not os.path.isdir(parent):
        os.makedirs(parent, exist_ok=True)          # the parents the command line names (checked before the run)
    try:
        dir_fd = os.open(parent or ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        raise UsageError("cannot create %s %s: its parent folder cannot be opened (%s)" % (
            what, shown_path(path), exc.strerror or exc)) from exc
    created = False
    try:
        if guard is not None:
            guard(dir_fd, name)
        if name != ".":
            try:
                os.mkdir(name, dir_fd=dir_fd)
                created = True
            except FileExistsError:
                pass
    except OSError as exc:
        raise UsageError("cannot create %s %s: %s" % (what, shown_path(path), exc.strerror or exc)) from exc
    finally:
        os.close(dir_fd)
    return created


@contextlib.contextmanager
def output_folder(path: Any, what: Any = "the output", guard: Any = None) -> Any:
    """:func:`make_folder`, undone when the block fails (a full disk, an interrupt): the files the block wrote --
    the paths it adds to the yielded list -- are removed, and the folder too when this call created it and
    nothing else is in it.  A command leaves nothing behind but what it finished."""
    created = make_folder(path, what, guard)
    written: list[Any] = []
    try:
        yield written
    except BaseException:
        for done in written:
            try:
                os.remove(done)
            except OSError:
                pass
        if created:
            try:
                os.rmdir(path)
            except OSError:
                pass
        raise


def write_text(path: Any, text: Any, what: Any = "the output", guard: Any = None) -> None:
    """Write ``text`` atomically through :func:`open_output`."""
    with open_output(path, what, guard) as fh:
        fh.write(text)


def write_jsonl(path: Any, rows: Any, what: Any = "the output", guard: Any = None) -> None:
    with open_output(path, what, guard) as fh:
        for row in rows:
            fh.write(dumps_line(row))
            fh.write("\n")


def write_json(path: Any, obj: Any, what: Any = "the output") -> None:
    write_text(path, dumps_pretty(obj), what)


def _no_duplicate_keys(pairs: list[Any]) -> dict[str, Any]:
    """``object_pairs_hook``: the dict, or ValueError naming the first repeated key.  The common case
    (no repeat) costs one ``dict()`` and a length comparison; the loop only runs to name the key."""
    out = dict(pairs)
    if len(out) == len(pairs):
        return out
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise ValueError("duplicate key %r" % key)
        seen.add(key)
    return out


def _reject_constant(name: Any) -> None:
    raise ValueError("non-finite number %s" % name)


_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicate_keys, parse_constant=_reject_constant)


def depth(obj: bool | dict[str, Any], limit: int = MAX_DEPTH) -> int:
    """Nesting depth of a decoded JSON value (a scalar is 0, ``[]`` is 1), counted up to ``limit + 1``.
    Walked a level at a time: each level is the list of the containers inside the one before.

    >>> depth({"a": [1, {"b": []}], "c": 2}), depth(3), depth([[[[]]]], limit=2)
    (4, 0, 3)
    """
    if type(obj) is not dict and type(obj) is not list:
        return 0
    level: list[Any] = [obj]
    deepest = 0
    while level:
        deepest += 1
        if deepest > limit:
            return deepest
        level = [child for value in level for child in (value.values() if type(value) is dict else value)
                 if type(child) is dict or type(child) is list]
    return deepest


def parse_json_text(text: str, where: str, line: None = None) -> dict[str, Any]:
    """One JSON value (RFC 8259: whitespace allowed before and after it), or an InputError naming ``where`` and
    ``line``: invalid JSON, extra data after the value, or values nested deeper than :data:`MAX_DEPTH`."""
    try:
        obj, end = _DECODER.raw_decode(text, len(text) - len(text.lstrip(" \t\n\r")))
    except RecursionError:
        raise InputError(where, "values nested deeper than %d levels" % MAX_DEPTH, line=line) from None
    except ValueError as exc:
        raise InputError(where, "invalid JSON (%s)" % _clip(str(exc)), line=line) from exc
    if text[end:].strip():
        raise InputError(where, "invalid JSON (extra data after the value)", line=line)
    # str.count is fast; only text with many brackets can be deep, and only that is walked
    if text.count("[") + text.count("{") > MAX_DEPTH and depth(obj) > MAX_DEPTH:
        raise InputError(where, "values nested deeper than %d levels" % MAX_DEPTH, line=line)
    return obj


def read_bytes_text(path: str, where: str) -> str:
    """File contents decoded as strict UTF-8, or an InputError naming the byte offset (a regular file of at most
    :data:`MAX_FILE_BYTES`: :func:`nclue.core.inputs.read_input`)."""
    return decode_text(read_input(path, where, MAX_FILE_BYTES), where)


def decode_text(data: bytes | memoryview, where: str, offset: int = 0, line: int = 1) -> str:
    """Bytes (or a memoryview of them) decoded as strict UTF-8 without a byte-order mark, or an InputError
    naming the byte offset and line.  ``offset`` and ``line``: where ``data`` starts in its file, when it is
    one block of whole lines of it (:func:`iter_jsonl`); only the file's start may not be a byte-order mark."""
    try:
        text = codecs.utf_8_decode(data, "strict", True)[0]
    except UnicodeDecodeError as exc:
        raise InputError(where, "not valid UTF-8 (byte offset %d)" % (offset + exc.start),
                         line=line + bytes(data[:exc.start]).count(b"\n")) from exc
    if not offset and text.startswith("\ufeff"):
        raise InputError(where, "starts with a byte-order mark (UTF-8 without BOM expected)", line=1)
    return text


def read_json(path: str, where: str) -> dict[str, Any]:
    """A whole JSON document (object expected)."""
    return json_document(read_input(path, where, MAX_FILE_BYTES), where)


def json_document(data: bytes, where: str) -> dict[str, Any]:
    """A whole JSON document (object expected) from the bytes of its file, as :func:`read_json` reads it: for a
    caller that already holds them (the integrity stage hashes a file and decodes it from one read)."""
    obj = parse_json_text(decode_text(data, where), where)
    if not isinstance(obj, dict):
        raise InputError(where, "top-level value must be a JSON object")
    return obj


def iter_jsonl(path: str, where: str, text: None = None) -> Iterator[Any]:
    """Yield ``(line_number, object)`` for each line of a JSON Lines file (or of ``text``, its decoded
    contents when the caller read them: a decompressed run).

    Rejects: non-UTF-8 bytes, ``\\r`` line ends, blank lines, invalid JSON,
    duplicate keys, NaN/Infinity, non-object lines and a missing final newline
    (the usual sign of a truncated file).  A file is read in blocks of whole lines
    (:data:`READ_BLOCK` bytes or more), so that memory follows the longest line rather than the file;
    a defect is raised when its block is reached, after the rows before it were yielded.

    >>> rows = list(iter_jsonl(None, "x.jsonl", text='{"a":1}\\n{"a":2}\\n'))
    >>> rows
    [(1, {'a': 1}), (2, {'a': 2})]
    >>> list(iter_jsonl(None, "x.jsonl", text='{"a":1}\\n{"a":2'))
    Traceback (most recent call last):
    ...
    nclue.core.errors.InputError: x.jsonl:2: last line has no newline (truncated file?)
    """
    for block, first in _line_blocks(path, where, text):
        yield from _rows_block(block, where, first)


def iter_key(path: str, where: str, key: str) -> Iterator[Any]:
    """Yield ``(line_number, value)`` for each line of a JSON Lines file: the value of the line's top-level
    ``key`` (:data:`ABSENT` when it has none), found without decoding the rest of the line.

    The rest of a line is *not* validated: this is for a check that needs one field of every row
    (:mod:`nclue.analyses.release` reads each audit row's ``synthetic`` flag) of a file whose loader
    validates the rows at its own level.  The file-level defects of :func:`iter_jsonl` (bytes, line ends,
    line length, truncation) are still raised.  A canonical line (:func:`dumps_line`) with the key after
    its first member is read by two small decodes: the members before ``,"key":`` closed with ``}`` must be
    one object without ``key`` -- so the key is a top-level member -- and one value follows it.  Any other
    line is decoded whole, with :func:`iter_jsonl`'s checks and messages.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "rows.jsonl")
    >>> _ = open(path, "w").write('{"a":{"flag":false},"flag":true,"text":"x"}\\n{"flag":1}\\n{"b":2}\\n')
    >>> list(iter_key(path, "rows.jsonl", "flag")) == [(1, True), (2, 1), (3, ABSENT)]
    True
    """
    marker = ',%s:' % json.dumps(key)
    for block, first in _line_blocks(path, where, None):
        yield from _key_block(block, where, first, key, marker)


class _Absent:
    """The value :func:`iter_key` gives for a line without the key."""

    __slots__ = ()

    def __repr__(self) -> Any:
        return "ABSENT"


ABSENT = _Absent()


def _line_blocks(path: str, where: str, text: None) -> Iterator[Any]:
    """Yield ``(text, first_line)`` for the blocks of whole lines of a JSON Lines file (or of ``text``, its
    decoded contents), raising the file-level defects: bytes that are not UTF-8, a byte-order mark, a line
    past :data:`MAX_LINE_CHARS` that has no end within four bytes a character, a last line with no newline."""
    if text is not None:
        if text:
            yield text, 1
            if text[-1] != "\n":
                raise InputError(where, "last line has no newline (truncated file?)", line=text.count("\n") + 1)
        return
    buffer = bytearray(READ_BLOCK)
    kept, offset, line, total = 0, 0, 1, 0        # kept: the bytes of an unfinished line at the buffer's start
    with open_input(path, where) as fh:
        check_size(fh, where, MAX_FILE_BYTES)
        while True:
            if kept == len(buffer):                 # a line longer than the buffer: double it
                if kept > 4 * MAX_LINE_CHARS:       # more bytes than the longest line can have characters
                    raise InputError(where, "line of more than %d characters is longer than the %d-character "
                                            "limit" % (MAX_LINE_CHARS, MAX_LINE_CHARS), line=line)
                buffer.extend(bytes(len(buffer)))
            with memoryview(buffer) as whole, whole[kept:] as free:
                count = fh.readinto(free)
            total += count
            if total > MAX_FILE_BYTES:
                raise too_large(where, MAX_FILE_BYTES)
            if not count:
                break
            filled = kept + count
            cut = buffer.rfind(b"\n", 0, filled) + 1
            if cut:
                with memoryview(buffer) as whole, whole[:cut] as lines:
                    decoded = decode_text(lines, where, offset, line)
                buffer[:filled - cut] = buffer[cut:filled]      # the unfinished line moves to the start
                yield decoded, line
                offset += cut
                line += decoded.count("\n")
            kept = filled - cut
    if kept:
        decode_text(bytes(buffer[:kept]), where, offset, line)     # a bad byte in the last line is named first
        raise InputError(where, "last line has no newline (truncated file?)", line=line)


def _line_ends(text: str, where: str, first: int) -> Iterator[Any]:
    """Yield ``(line_number, start, end)`` for the complete lines of a block (``end`` at the newline), after
    the block-wide check for ``\\r`` and each line's length check; a last line without a newline is left to
    the caller."""
    if "\r" in text:
        raise InputError(where, "carriage return found; line ends must be \\n",
                         line=first + text.count("\n", 0, text.index("\r")))
    find, pos, number = text.find, 0, first
    while True:
        end_of_line = find("\n", pos)
        if end_of_line < 0:
            return
        if end_of_line - pos > MAX_LINE_CHARS:
            raise InputError(where, "line of %d characters is longer than the %d-character limit" % (
                end_of_line - pos, MAX_LINE_CHARS), line=number)
        yield number, pos, end_of_line
        pos, number = end_of_line + 1, number + 1


def _whole_line(text: Any, where: Any, number: Any, pos: Any, end_of_line: Any) -> Any:
    """One line decoded by :func:`parse_json_text` (the slow path, which gives every message)."""
    raw = text[pos:end_of_line]
    if not raw.strip():
        raise InputError(where, "blank line", line=number)
    obj = parse_json_text(raw, where, line=number)
    if not isinstance(obj, dict):
        raise InputError(where, "each line must be a JSON object", line=number)
    return obj


def _rows_block(text: str, where: str, first: int) -> Iterator[Any]:
    """Yield ``(line_number, object)`` for the complete lines of ``text`` (numbered from ``first``).  Each
    line is decoded in place (no copy of the line): the fast path is one object that ends exactly at the
    line's newline and is not deep; anything else takes :func:`_whole_line`."""
    scan, count = _DECODER.scan_once, text.count  # type: ignore[attr-defined]  # the C scanner json uses
    for number, pos, end_of_line in _line_ends(text, where, first):
        try:
            obj, end = scan(text, pos)
        except (StopIteration, ValueError, RecursionError):
            obj, end = None, -1
        if end != end_of_line or type(obj) is not dict or (
                count("[", pos, end) + count("{", pos, end) > MAX_DEPTH and depth(obj) > MAX_DEPTH):
            obj = _whole_line(text, where, number, pos, end_of_line)
        yield number, obj


def _key_block(text: str, where: str, first: int, key: str, marker: str) -> Iterator[Any]:
    """Yield ``(line_number, value)`` of ``key`` for the complete lines of ``text`` (:func:`iter_key`)."""
    scan, find = _DECODER.scan_once, text.find  # type: ignore[attr-defined]  # the C scanner json uses
    for number, pos, end_of_line in _line_ends(text, where, first):
        at = find(marker, pos, end_of_line)
        if at > pos:
            try:
                before, end = scan(text[pos:at] + "}", 0)
                if end == at - pos + 1 and type(before) is dict and key not in before:
                    value, end = scan(text, at + len(marker))
                    if end < end_of_line and text[end] in ",}" and depth(value) < MAX_DEPTH:
                        yield number, value
                        continue
            except (StopIteration, ValueError, RecursionError):
                pass
        obj = _whole_line(text, where, number, pos, end_of_line)
        yield number, obj.get(key, ABSENT)


class Row:
    """Typed field access on one JSON object with file/line-aware errors.  An accessor returns the validated value
    (``Any`` to the type checker: it is None only when ``required`` is false and the field is absent)."""

    __slots__ = ("obj", "where", "line")

    def __init__(self, obj: builtins.dict[builtins.str, Any], where: builtins.str, line: builtins.int | None) -> None:
        self.obj = obj
        self.where = where
        self.line = line

    def error(self, field: builtins.str, message: builtins.str) -> InputError:
        return InputError(self.where, message, line=self.line, field=field)

    def unknown_query(self, qid: builtins.str, field: builtins.str = "qid") -> UnknownQuery:
        """The error of a row naming a query the release does not have (it carries the id)."""
        return UnknownQuery(self.where, "unknown query %r" % qid, qid, line=self.line, field=field)

    def get(self, field: builtins.str, required: builtins.bool = True) -> Any:
        if field not in self.obj:
            if required:
                raise self.error(field, "missing")
            return None
        return self.obj[field]

    def str(self, field: builtins.str, required: builtins.bool = True,
            choices: Collection[builtins.str] | None = None) -> Any:
        value = self.get(field, required)
        if value is None and not required:
            return None
        if not isinstance(value, str) or not value:
            raise self.error(field, "must be a non-empty string, got %s" % show_value(value))
        if choices is not None and value not in choices:
            raise self.error(field, "must be one of %s, got %s" % ("/".join(sorted(choices)), show_value(value)))
        return value

    def int(self, field: builtins.str, lo: builtins.int | None = None, hi: builtins.int | None = None,
            required: builtins.bool = True) -> Any:
        value = self.get(field, required)
        if value is None and not required:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(field, "must be an integer, got %s" % show_value(value))
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise self.error(field, "out of range %s..%s, got %d" % (lo, hi, value))
        return value

    def bool(self, field: builtins.str, required: builtins.bool = True) -> Any:
        value = self.get(field, required)
        if value is None and not required:
            return None
        if not isinstance(value, bool):
            raise self.error(field, "must be true or false, got %s" % show_value(value))
        return value

    def number(self, field: builtins.str, required: builtins.bool = True) -> Any:
        value = self.get(field, required)
        if value is None and not required:
            return None
        if not is_finite_number(value):
            raise self.error(field, "must be a finite number (|x| <= %g), got %s" % (MAX_MAGNITUDE, show_value(value)))
        return float(value)

    def list(self, field: builtins.str, required: builtins.bool = True) -> Any:
        value = self.get(field, required)
        if value is None and not required:
            return None
        if not isinstance(value, list):
            raise self.error(field, "must be a list, got %s" % show_value(value))
        return value

    def dict(self, field: builtins.str, required: builtins.bool = True) -> Any:
        value = self.get(field, required)
        if value is None and not required:
            return None
        if not isinstance(value, dict):
            raise self.error(field, "must be an object, got %s" % show_value(value))
        return value


def is_finite_number(x: float) -> bool:
    """A JSON number (not a bool) that is finite and at most :data:`MAX_MAGNITUDE` in absolute value.

    >>> is_finite_number(2.5), is_finite_number(float("inf")), is_finite_number(10 ** 400), is_finite_number(True)
    (True, False, False, False)
    """
    return (type(x) is float or type(x) is int) and -MAX_MAGNITUDE <= x <= MAX_MAGNITUDE


def all_finite_numbers(values: list[Any]) -> bool:
    """True when every value passes :func:`is_finite_number` (the fast path of the ranking loaders;
    type, range and NaN are each checked in one pass in C).

    >>> all_finite_numbers([3, 2.5, -1e300]), all_finite_numbers([1.0, float("nan")]), all_finite_numbers([1, True])
    (True, False, False)
    """
    if not values:
        return True
    return (_NUMBER_TYPES.issuperset(map(type, values)) and min(values) >= -MAX_MAGNITUDE
            and max(values) <= MAX_MAGNITUDE and not any(map(math.isnan, values)))


_NUMBER_TYPES = frozenset((int, float))


def _clip(text: Any, limit: Any = 120) -> Any:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def show_value(value: Any) -> str:
    """A short display of a JSON value for a message (at most 40 characters)."""
    if isinstance(value, str):
        text = json.dumps(value[:60], ensure_ascii=False)
    elif isinstance(value, float) and not -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
        text = str(value)
    elif isinstance(value, (dict, list)):
        kind = "object" if isinstance(value, dict) else "list"
        text = "%s of %d item%s" % (kind, len(value), "" if len(value) == 1 else "s")
    elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        text = "an integer of %d digits" % len(str(abs(value))) if value.bit_length() < 14000 else "a huge integer"
    else:
        text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."
