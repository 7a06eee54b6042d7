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


def defect_reason(what, exc):
    """The one-line reason of a harness defect: what failed, the exception, and where it was raised."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    if frames:
        last = frames[-1]
        where = " at %s:%d" % (os.path.basename(last.filename), last.lineno)
    return "harness defect while %s: %s: %s%s (please report it)" % (what, type(exc).__name__, exc, where)




def attempt(what, work):
    """``(True, value)`` or ``(False, reason)`` for ``work()``; ``what`` describes it for messages."""
    try:
        return True, work()
    except NclueError as exc:
        return False, str(exc)
    except OSError as exc:
        name = exc.filename if exc.filename is not None else what
        verb = "written" if exc.errno in WRITE_ERRNOS else "read"      # nclue.core.jsonio.WRITE_ERRNOS
        return False, "%s: cannot be %s (%s)" % (name, verb, exc.strerror or exc)
    except RecursionError as exc:
        if os.environ.get(DEFECT_ENV):
            raise
        return False, defect_reason(what, exc)
    except Exception as exc:           # noqa: BLE001 -- the one place every other error is caught
        if os.environ.get(DEFECT_ENV):
            raise
        return False, defect_reason(what, exc)
