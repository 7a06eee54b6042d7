"""What is wrong inside a released file whose hash no longer matches (docs/claims.md#statuses).

A file that fails its sha256 check is never used by a claim; but when it still parses, the reader
deserves to know *where* it changed in a way the schema refuses.  :func:`content_problem` reads the
file with the loader its role declares (on a fresh :class:`~nclue.core.instrument.Instrument`, so
nothing it loads reaches a claim) and returns the loader's first ``file:line: field`` message, or a
sentence saying that the file still validates (its values changed within the schema).
"""

from ..core import layout
from ..core.errors import NclueError
from ..core.instrument import Instrument
from ..core.jsonio import read_json


def _part(inst, rel):
    return inst.release(layout.SOURCESHIFT) if rel.startswith(layout.V2 + "/") else inst.release(layout.CROSSPAGE)


def _audit(inst, rel):
    from ..labelaudit.audit_records import load_for
    return load_for(inst)


def _crosswalk(inst, rel):
    from ..paperaudit.crosswalk import load
    return load(inst.root)


def _paper(inst, rel):
    from ..paperaudit.consistency import load_numbers
    return load_numbers(inst.root)


def _claims(inst, rel):
    from .claims import load_claim_file
    return load_claim_file(inst.root, rel)


# the loader each MANIFEST.json role is read with (a role not listed is decoded as JSON / JSONL)
READERS = {
    "corpus": lambda inst, rel: _part(inst, rel).corpus(),
    "conditions": lambda inst, rel: _part(inst, rel).conditions(),
    "inventory": lambda inst, rel: _part(inst, rel).inventory(),
    "queries": lambda inst, rel: _part(inst, rel).queries(),
    "qrels": lambda inst, rel: _part(inst, rel).qrels(_part(inst, rel).spec.copy_in(rel)),
    "qrels-construction": lambda inst, rel: _part(inst, rel).qrels(_part(inst, rel).spec.copy_in(rel)),
    "qrels-s0": lambda inst, rel: _part(inst, rel).qrels(_part(inst, rel).spec.copy_in(rel)),
    "genealogy": lambda inst, rel: _part(inst, rel).genealogy(),
    "systems": lambda inst, rel: _part(inst, rel).systems(),
    "repairs": lambda inst, rel: _part(inst, rel).repairs(),
    "ranking": lambda inst, rel: _part(inst, rel).ranking(rel),
    "form-ranking": lambda inst, rel: _part(inst, rel).ranking(rel),
    "page-scores": lambda inst, rel: _part(inst, rel).page_scores(rel),
    "audit-records": _audit,
    "crosswalk": _crosswalk,
    "paper-numbers": _paper,
    "frozen-claims": _claims,
}


def content_problem(root, rel, role):
    """The first schema problem of ``rel`` read as its ``role`` declares (``file:line: field: ...``), or a
    sentence saying the file still validates; never raises."""
    inst = Instrument(root)
    reader = READERS.get(role)
    try:
        if reader is not None:
            reader(inst, rel)
        elif rel.endswith(".json"):
            read_json(inst.path(rel), rel)
        else:
            return "its content was not read (no loader for role %r)" % role
    except NclueError as exc:
        return "read as %s it fails: %s" % (role, exc)
    except (RecursionError, MemoryError, ValueError, TypeError, KeyError, OSError) as exc:
        return "read as %s it fails: %s: %s" % (role, type(exc).__name__, exc)
    return "it still validates as %s: its values changed within the schema" % role
