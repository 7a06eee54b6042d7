"""Canonical JSON writing and strict, line-numbered JSON Lines reading.

Writing is canonical (sorted keys, no spaces, UTF-8, ``\\n`` line ends, no NaN),
so that the same records always give the same bytes on every interpreter.
Reading is strict: every defect raises :class:`~nclue.core.errors.InputError`
naming the file, the 1-based line and, where it applies, the field.
"""

import json
import math

from .errors import InputError


def dumps_line(obj):
    """One canonical JSON line (no newline)."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def dumps_pretty(obj):
    """Canonical indented JSON document text, ending in a newline."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, indent=1, allow_nan=False) + "\n"


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(dumps_line(row))
            fh.write("\n")


def write_json(path, obj):
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(dumps_pretty(obj))


def _no_duplicate_keys(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise ValueError("duplicate key %r" % key)
        out[key] = value
    return out


def _reject_constant(name):
    raise ValueError("non-finite number %s" % name)


_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicate_keys, parse_constant=_reject_constant)


def parse_json_text(text, where, line=None):
    try:
        obj, end = _DECODER.raw_decode(text)
    except ValueError as exc:
        raise InputError(where, "invalid JSON (%s)" % exc, line=line)
    if text[end:].strip():
        raise InputError(where, "invalid JSON (extra data after the value)", line=line)
    return obj


def read_bytes_text(path, where):
    """File contents decoded as strict UTF-8, or an InputError naming the byte offset."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        from .errors import MissingInput

        raise MissingInput(where)
    except OSError as exc:
        raise InputError(where, "cannot read (%s)" % exc.strerror)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(where, "not valid UTF-8 (byte offset %d)" % exc.start, line=line)


def read_json(path, where):
    """A whole JSON document (object expected)."""
    text = read_bytes_text(path, where)
    obj = parse_json_text(text, where)
    if not isinstance(obj, dict):
        raise InputError(where, "top-level value must be a JSON object")
    return obj


def iter_jsonl(path, where):
    """Yield ``(line_number, object)`` for each line of a JSON Lines file.

    Rejects: non-UTF-8 bytes, ``\\r`` line ends, blank lines, invalid JSON,
    duplicate keys, NaN/Infinity, non-object lines and a missing final newline
    (the usual sign of a truncated file).
    """
    text = read_bytes_text(path, where)
    if not text:
        return
    if "\r" in text:
        line = text[: text.index("\r")].count("\n") + 1
        raise InputError(where, "carriage return found; line ends must be \\n", line=line)
    lines = text.split("\n")
    if lines[-1] != "":
        raise InputError(where, "last line has no newline (truncated file?)", line=len(lines))
    for number, raw in enumerate(lines[:-1], 1):
        if not raw.strip():
            raise InputError(where, "blank line", line=number)
        obj = parse_json_text(raw, where, line=number)
        if not isinstance(obj, dict):
            raise InputError(where, "each line must be a JSON object", line=number)
        yield number, obj


class Row:
    """Typed field access on one JSON object with file/line-aware errors."""

    __slots__ = ("obj", "where", "line")

    def __init__(self, obj, where, line):
        self.obj = obj
        self.where = where
        self.line = line

    def error(self, field, message):
        return InputError(self.where, message, line=self.line, field=field)

    def get(self, field, required=True):
        if field not in self.obj:
            if required:
                raise self.error(field, "missing")
            return None
        return self.obj[field]

    def str(self, field, required=True, choices=None):
        value = self.get(field, required)
        if value is None and not required:
            return None
        if not isinstance(value, str) or not value:
            raise self.error(field, "must be a non-empty string, got %s" % _show(value))
        if choices is not None and value not in choices:
            raise self.error(field, "must be one of %s, got %s" % ("/".join(sorted(choices)), _show(value)))
        return value

    def int(self, field, lo=None, hi=None, required=True):
        value = self.get(field, required)
        if value is None and not required:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(field, "must be an integer, got %s" % _show(value))
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise self.error(field, "out of range %s..%s, got %d" % (lo, hi, value))
        return value

    def bool(self, field, required=True):
        value = self.get(field, required)
        if value is None and not required:
            return None
        if not isinstance(value, bool):
            raise self.error(field, "must be true or false, got %s" % _show(value))
        return value

    def number(self, field, required=True):
        value = self.get(field, required)
        if value is None and not required:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.error(field, "must be a finite number, got %s" % _show(value))
        return float(value)

    def list(self, field, required=True):
        value = self.get(field, required)
        if value is None and not required:
            return None
        if not isinstance(value, list):
            raise self.error(field, "must be a list, got %s" % _show(value))
        return value

    def dict(self, field, required=True):
        value = self.get(field, required)
        if value is None and not required:
            return None
        if not isinstance(value, dict):
            raise self.error(field, "must be an object, got %s" % _show(value))
        return value


def _show(value):
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, float) or math.isfinite(value) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."
