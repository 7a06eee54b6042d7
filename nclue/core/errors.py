"""The one error family of the package (docs/claims.md#errors).

Every error the harness reports is an :class:`NclueError`: bad input names
the file, the line (1-based, where the input is line-oriented) and the field,
in the style ``path:line: field 'x': msg``; a statistic asked to do the
impossible raises :class:`StatisticsError`; bad command lines raise
:class:`UsageError`.  The runner turns any of them into a ``fail`` with the
message; any other exception is a harness defect (reported as such, never
as a traceback).
"""

from __future__ import annotations

from typing import Any


class NclueError(Exception):
    """Base class of every error the harness reports as a message, never a traceback."""


MAX_MESSAGE_CHARS = 300


def bounded(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was (a 10 MB identifier never reaches a report).

    >>> bounded("x" * 400, 30)
    'xxxxxxxxxx... [400 characters]'
    """
    if len(text) <= limit:
        return text
    tail = "... [%d characters]" % len(text)
    return text[:max(0, limit - len(tail))] + tail


class InputError(NclueError):
    """A released input is malformed, truncated, out of range or inconsistent."""

    def __init__(self, path: Any, message: Any, line: Any = None, field: Any = None) -> None:
        self.path = bounded(str(path), 200)
        self.line = line
        self.field = None if field is None else bounded(str(field), 80)
        self.message = bounded(str(message))
        super().__init__(self.format())

    def format(self) -> Any:
        where = self.path if self.line is None else "%s:%d" % (self.path, self.line)
        if self.field is not None:
            return "%s: field %r: %s" % (where, self.field, self.message)
        return "%s: %s" % (where, self.message)


class UnknownQuery(InputError):
    """A run or qrels line names a query the release does not have; ``qid`` is the id as given."""

    def __init__(self, path: Any, message: Any, qid: Any, line: Any = None, field: Any = None) -> None:
        self.qid = qid
        super().__init__(path, message, line=line, field=field)


class MissingInput(NclueError):
    """A file an analysis needs is absent (the analysis is skipped, not failed)."""

    def __init__(self, path: Any) -> None:
        self.path = str(path)
        super().__init__("%s: file is absent" % self.path)


class EmptyRun(NclueError):
    """A run given to ``score`` ranks no document for any query (exit code 1; ``--allow-empty`` scores it)."""


class UsageError(NclueError):
    """Bad command-line arguments or no data root (exit code 2)."""


class StatisticsError(NclueError, ValueError):
    """A statistic or the random generator was given inputs it is not defined for (an empty
    distribution, a probability outside [0, 1], a singular design)."""


class VerificationError(NclueError):
    """A release file a command reads fails its integrity check (``score`` refuses it: exit 1)."""
