"""Turning exceptions into verdicts (docs/claims.md#errors).

:func:`attempt` runs one piece of work.  An
:class:`~nclue.core.errors.NclueError` (bad input, named by file, line and
field) or an :class:`OSError` (a file that cannot be read) becomes a ``fail``
reason; any other exception is a **harness defect**: it also becomes a
``fail``, marked as a defect of the harness with the exception's type and
place, so a user never sees a traceback.  The test suite sets
``NCLUE_RAISE_DEFECTS=1`` so that such a defect raises and fails loudly.
"""

import os
import traceback

from ..core.errors import NclueError
from ..core.jsonio import WRITE_ERRNOS

DEFECT_ENV = "NCLUE_RAISE_DEFECTS"


class Failure(str):
    """The reason a piece of work failed, as text, carrying where it failed as data: ``path`` (the input file
    an :class:`~nclue.core.errors.InputError` or an :class:`OSError` names), ``line`` and ``field`` (None where
    they do not apply), so a caller reads the file at fault from the record, never from the message.

    >>> f = Failure("data/v1/qrels.jsonl:3: field 'grade': must be an integer", "data/v1/qrels.jsonl", 3, "grade")
    >>> f.path, f.line, f.field, f.startswith("data/v1/qrels.jsonl:3")
    ('data/v1/qrels.jsonl', 3, 'grade', True)
    """

    def __new__(cls, reason, path=None, line=None, field=None):
        obj = super().__new__(cls, reason)
        obj.path, obj.line, obj.field = path, line, field
        return obj


def failure_of(exc):
    """The :class:`Failure` of an :class:`~nclue.core.errors.NclueError`: its message and, for an input
    error, its file, line and field."""
    return Failure(str(exc), getattr(exc, "path", None), getattr(exc, "line", None), getattr(exc, "field", None))


def defect_reason(what, exc):
    """The one-line reason of a harness defect: what failed, the exception, and where it was raised."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    if frames:
        last = frames[-1]
        where = " at %s:%d" % (os.path.basename(last.filename), last.lineno)
    return "harness defect while %s: %s: %s%s (please report it)" % (what, type(exc).__name__, exc, where)


def attempt(what, work):
    """``(True, value)`` or ``(False, reason)`` for ``work()``; ``what`` describes it for messages.  The reason
    is a :class:`Failure`: an input error's file, line and field, or the file an :class:`OSError` names, travel
    with it."""
    try:
        return True, work()
    except NclueError as exc:
        return False, failure_of(exc)
    except OSError as exc:
        name = exc.filename if exc.filename is not None else what
        verb = "written" if exc.errno in WRITE_ERRNOS else "read"      # nclue.core.jsonio.WRITE_ERRNOS
        return False, Failure("%s: cannot be %s (%s)" % (name, verb, exc.strerror or exc),
                              exc.filename if isinstance(exc.filename, str) else None)
    except RecursionError as exc:
        if os.environ.get(DEFECT_ENV):
            raise
        return False, Failure(defect_reason(what, exc))
    except Exception as exc:           # noqa: BLE001 -- the one place every other error is caught
        if os.environ.get(DEFECT_ENV):
            raise
        return False, Failure(defect_reason(what, exc))
