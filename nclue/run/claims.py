"""Claims: the frozen values the harness diffs against (docs/claims.md).

A claim is ``{id, value, rule, level, inputs: [{path, sha256}], source}``.
Rules:

* ``exact``: the recomputed value equals the frozen one (same JSON value);
* ``abs:<tol>``: both numbers and ``|recomputed - frozen| <= tol``, with a
  finite tolerance ``0 <= tol <= 1``;
* ``display:<d>``: the recomputed number, rounded half-up to ``d`` decimals
  (``0 <= d <= 12``), shows the frozen displayed value (``26.8`` with
  ``display:1`` accepts ``[26.75, 26.85)``).

>>> compare("abs:1e-9", 0.1 + 0.2, 0.3)[0]
True
>>> compare("display:1", 26.849, 26.8)[0], compare("display:1", 26.85, 26.8)[0]
(True, False)
>>> compare("exact", 3, 3.0)[0]
False
>>> rule_problem("abs:inf"), rule_problem("display:99")
('abs tolerance must be a finite number in 0..1', 'display precision must be an integer 0..12')
"""

import math
import operator
import re
from decimal import ROUND_HALF_UP, Context, Decimal, DecimalException

from ..analyses.base import LEVELS
from ..core import layout
from ..core.errors import InputError, bounded
from ..core.jsonio import is_finite_number, read_json, write_json
from ..stats import montecarlo, protocol

CLAIMS_SCHEMA = "nclue.claims/1"
MAX_TOLERANCE = 1.0
MAX_DECIMALS = 12
_DECIMAL = Context(prec=60, Emax=999, Emin=-999)


def _same_json(a, b):
    if type(a) is not type(b):      # 3 and 3.0, or 1 and True, are different claims
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return sorted(a) == sorted(b) and all(_same_json(a[k], b[k]) for k in a)
    return a == b


def _finite_json(value):
    """False when a float in ``value`` (a claim value: scalar or list) is not finite or too large."""
    if isinstance(value, float):
        return is_finite_number(value)
    if isinstance(value, list):
        return all(_finite_json(v) for v in value)
    if isinstance(value, dict):
        return all(_finite_json(v) for v in value.values())
    return True


def rule_problem(rule):
    """Why ``rule`` is not an acceptable claim rule (None when it is)."""
    if rule == "exact":
        return None
    kind, _, arg = rule.partition(":")
    if kind == "abs":
        try:
            tol = float(arg)
        except ValueError:
            tol = float("nan")
        if not (math.isfinite(tol) and 0.0 <= tol <= MAX_TOLERANCE):
            return "abs tolerance must be a finite number in 0..%g" % MAX_TOLERANCE
        return None
    if kind == "display":
        if not (arg.isdigit() and len(arg) <= 2 and 0 <= int(arg) <= MAX_DECIMALS):
            return "display precision must be an integer 0..%d" % MAX_DECIMALS
        return None
    return "unknown rule (exact, abs:<tol> or display:<decimals>)"


def _show(value):
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def compare(rule, observed, expected):
    """``(ok, explanation)`` for a recomputed value against a frozen one under ``rule``."""
    if rule == "exact":
        ok = _same_json(observed, expected)
        return ok, "" if ok else "expected %s, recomputed %s" % (_show(expected), _show(observed))
    kind, arg = rule.split(":", 1)
    if not is_finite_number(observed) or not is_finite_number(expected):
        return False, "rule %s needs finite numbers; expected %s, recomputed %s" % (
            rule, _show(expected), _show(observed))
    if kind == "abs":
        tol = float(arg)
        diff = abs(observed - expected)
        return diff <= tol, "" if diff <= tol else "expected %r, recomputed %r (|diff| %.3g > %s)" % (
            expected, observed, diff, arg)
    decimals = int(arg)
    quantum = Decimal(1).scaleb(-decimals)
    try:
        shown = Decimal(repr(float(observed))).quantize(quantum, rounding=ROUND_HALF_UP, context=_DECIMAL)
        want = Decimal(repr(float(expected))).quantize(quantum, rounding=ROUND_HALF_UP, context=_DECIMAL)
    except DecimalException:
        return False, "display:%d cannot show %s or %s" % (decimals, _show(expected), _show(observed))
    ok = shown == want
    return ok, "" if ok else "displayed %s, recomputed %r shows as %s" % (want, observed, shown)


CLAIM_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.:+/-]{0,299}$")


def _check_claim(rel, obj, field, c, seen):
    """One frozen claim of ``obj`` (the file ``rel``): an object with string id, rule, level and source, a
    finite value, a known rule and level (the file's), an id not in ``seen``, and a non-empty list of
    distinct ``{path, sha256}`` inputs; InputError naming ``field`` otherwise."""
    if not isinstance(c, dict):
        raise InputError(rel, "must be an object", field=field)
    for key in ("id", "rule", "level", "source"):
        if not isinstance(c.get(key), str):
            raise InputError(rel, "must be a string", field="%s.%s" % (field, key))
    if not CLAIM_ID.match(c["id"]):
        raise InputError(rel, "claim id %s is not a dotted id of letters, digits and '_ . : + - /' (at most 300 "
                         "characters; no space, control character or escape)" % bounded(repr(c["id"]), 80),
                         field=field + ".id")
    if "value" not in c:
        raise InputError(rel, "missing", field=field + ".value")
    if not _finite_json(c["value"]):
        raise InputError(rel, "claim %s has a non-finite or out-of-range number" % c["id"], field=field + ".value")
    problem = rule_problem(c["rule"])
    if problem:
        raise InputError(rel, "rule %r of claim %s: %s" % (c["rule"], c["id"], problem), field=field + ".rule")
    if c["level"] not in LEVELS:
        raise InputError(rel, "unknown level %r" % c["level"], field=field + ".level")
    if c["id"] in seen:
        raise InputError(rel, "duplicate claim id %r" % c["id"], field=field + ".id")
    seen.add(c["id"])
    _check_inputs(rel, field, c)
    if "estimate" in c:
        problem = estimate_problem(c["estimate"])
        if problem:
            raise InputError(rel, "claim %s: %s" % (c["id"], problem), field=field + ".estimate")
    if c["level"] != obj.get("level"):
        raise InputError(rel, "claim %s is at level %r but the file's level is %r" % (
            c["id"], c["level"], obj.get("level")), field=field + ".level")


MAX_ALTERNATIVES = 16
MAX_TIE_VALUES = 10000
# the fields of each kind of declaration (docs/claims.md#monte-carlo-verdicts): name -> what it must be
_ESTIMATE_FIELDS = {
    "monte_carlo": (("resampling", "text"), ("statistic", "statistic"), ("n_draws", "count"), ("paper_draws", "count"),
                    ("expected", "number"), ("se", "nonnegative"), ("se_paper", "nonnegative"), ("exact", "bool"),
                    ("alternatives", "alternatives")),
    "tie_orders": (("values", "numbers"), ("orders", "count"), ("rank", "count"), ("tied", "count"),
                   ("slots", "count"), ("enumerated", "bool")),
}


def _field_problem(kind, value):
    """Why ``value`` is not of the field kind ``kind`` (None when it is)."""
    def number(x):
        return is_finite_number(x) and not isinstance(x, bool)
    checks = {
        "text": lambda v: isinstance(v, str) and 0 < len(v) <= 200,
        "statistic": lambda v: v in montecarlo.STATISTICS,
        "count": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10 ** 9,
        "number": number,
        "nonnegative": lambda v: number(v) and v >= 0,
        "bool": lambda v: isinstance(v, bool),
        "numbers": lambda v: isinstance(v, list) and 0 < len(v) <= MAX_TIE_VALUES and all(number(x) for x in v),
        "alternatives": lambda v: isinstance(v, list) and len(v) <= MAX_ALTERNATIVES and all(
            isinstance(a, list) and len(a) == 2 and isinstance(a[0], str) and 0 < len(a[0]) <= 80 and number(a[1])
            for a in v),
    }
    return None if checks[kind](value) else "must be %s" % {
        "text": "a string of 1..200 characters", "statistic": "one of %s" % ", ".join(montecarlo.STATISTICS),
        "count": "an integer 0..10^9", "number": "a finite number", "nonnegative": "a finite number >= 0",
        "bool": "true or false", "numbers": "a list of 1..%d finite numbers" % MAX_TIE_VALUES,
        "alternatives": "a list of at most %d [name, finite number] pairs" % MAX_ALTERNATIVES}[kind]


def estimate_problem(obj):
    """Why a claim's ``estimate`` (its Monte Carlo or tie-order declaration) is malformed (None when sound).

    >>> estimate_problem({"kind": "tie_orders", "values": [0.1], "orders": 2, "rank": 20, "tied": 3, "slots": 1,
    ...                   "enumerated": True}) is None
    True
    >>> estimate_problem({"kind": "monte_carlo"})
    "field 'resampling' missing"
    """
    if not isinstance(obj, dict):
        return "must be an object"
    fields = _ESTIMATE_FIELDS.get(obj.get("kind"))
    if fields is None:
        return "kind must be one of %s" % ", ".join(sorted(_ESTIMATE_FIELDS))
    for name, kind in fields:
        if name not in obj:
            return "field %r missing" % name
        problem = _field_problem(kind, obj[name])
        if problem:
            return "field %r %s" % (name, problem)
    extra = sorted(set(obj) - {name for name, _ in fields} - {"kind"})
    if extra:
        return "unknown field %r" % extra[0]
    if obj["kind"] == "monte_carlo" and (obj["n_draws"] < 1 or obj["paper_draws"] < 1):
        return "n_draws and paper_draws must be at least 1"
    if obj["kind"] == "monte_carlo" and obj["resampling"] not in {r.name for r in protocol.PROTOCOL}:
        return "field 'resampling' names no resampling of the protocol (nclue/stats/protocol.py): %r" % (
            obj["resampling"][:40],)
    return None


def estimate_difference(frozen, recomputed):
    """The first field in which a recomputed declaration differs from the frozen one (None when they agree:
    equal strings, integers and flags, numbers within 1e-9 relative).

    >>> estimate_difference({"kind": "x", "se": 0.1}, {"kind": "x", "se": 0.1 + 1e-15}) is None
    True
    >>> estimate_difference({"kind": "x", "se": 0.1}, {"kind": "x", "se": 0.2})
    ('se', 0.1, 0.2)
    """
    if (frozen is None) != (recomputed is None):
        return ("estimate", frozen, recomputed)
    if frozen is None:
        return None
    for key in sorted(set(frozen) | set(recomputed)):
        a, b = frozen.get(key), recomputed.get(key)
        if not _close(a, b):
            return (key, a, b)
    return None


def _close(a, b):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, bool) or isinstance(b, bool) or not (is_finite_number(a) and is_finite_number(b)):
            return False
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    return type(a) is type(b) and a == b


_PATH, _SHA256 = operator.itemgetter("path"), operator.itemgetter("sha256")


def input_paths(claim):
    """The paths of a validated frozen claim's inputs, in their order."""
    return list(map(_PATH, claim["inputs"]))


def _check_inputs(rel, field, c):
    """A claim's ``inputs``: a non-empty list of ``{path, sha256}`` objects (two strings), no path twice.  The
    type tests map over the list (``set(map(type, ...))``), since a file holds some 60,000 inputs."""
    inputs = c.get("inputs")
    try:
        sound = type(inputs) is list and set(map(type, inputs)) <= {dict} and set(map(type, map(_PATH, inputs))) <= {
            str} and set(map(type, map(_SHA256, inputs))) <= {str}
    except KeyError:
        sound = False
    if not sound:
        raise InputError(rel, "must be a list of {path, sha256}", field=field + ".inputs")
    if not inputs:
        raise InputError(rel, "claim %s names no input: a claim is frozen from the files it reads" % c["id"],
                         field=field + ".inputs")
    paths = list(map(_PATH, inputs))
    if len(set(paths)) != len(paths):
        raise InputError(rel, "claim %s lists an input twice" % c["id"], field=field + ".inputs")


def load_claim_file(root, rel, document=None):
    """Parse one frozen claims file (or validate ``document``, the file already decoded by
    :func:`nclue.core.jsonio.read_json`); InputError naming the field on any defect."""
    obj = read_json(layout.abspath(root, rel), rel) if document is None else document
    if obj.get("claims_schema") != CLAIMS_SCHEMA:
        raise InputError(rel, "expected %r" % CLAIMS_SCHEMA, field="claims_schema")
    if not isinstance(obj.get("analysis"), str):
        raise InputError(rel, "must be a string", field="analysis")
    claims = obj.get("claims")
    if not isinstance(claims, list):
        raise InputError(rel, "must be a list", field="claims")
    seen = set()
    for i, c in enumerate(claims):
        _check_claim(rel, obj, "claims[%d]" % i, c, seen)
    if obj.get("level") not in LEVELS:
        raise InputError(rel, "unknown level %r" % (obj.get("level"),), field="level")
    if rel != layout.claim_file(obj["analysis"]):
        raise InputError(rel, "holds the claims of analysis %r, whose file is reference_metrics/%s.json" % (
            obj["analysis"], obj["analysis"]), field="analysis")
    return obj


def write_claim_file(root, rel, analysis, level, source, values_with_inputs, hashes):
    """Write a frozen claims file (builder's ``freeze`` only, never reproduce)."""
    claims = []
    for value, inputs in values_with_inputs:
        claim = {
            "id": value.id, "value": value.value, "rule": value.rule, "level": level,
            "source": value.source or source,
            "inputs": [{"path": p, "sha256": hashes[p]} for p in sorted(set(inputs))],
        }
        if value.estimate is not None:
            claim["estimate"] = value.estimate.as_json()
        claims.append(claim)
    natures = claim_natures(path for claim in claims for path in (i["path"] for i in claim["inputs"]))
    write_json(layout.abspath(root, rel), {
        "claims_schema": CLAIMS_SCHEMA, "analysis": analysis, "level": level, "source": source,
        "synthetic": natures != {layout.REAL_NATURE},
        "note": "Frozen by `python -m nclue freeze` from %s; never edited by hand." % FROZEN_FROM[
            tuple(sorted(natures & {layout.REAL_NATURE, layout.SYNTHETIC_NATURE}))],
        "claims": claims,
    })


# what a claims file's note says it was frozen from, by the natures of the releases its claims read
FROZEN_FROM = {
    (): "the stand-in instrument",
    (layout.SYNTHETIC_NATURE,): "the stand-in instrument",
    (layout.REAL_NATURE,): "RealPage (real RFC pages, not the paper's documents)",
    (layout.REAL_NATURE, layout.SYNTHETIC_NATURE): "the stand-in instrument and RealPage (real RFC pages)",
}


def claim_natures(paths):
    """The natures (``synthetic`` / ``real``) of the releases the given input paths lie in.  A path in no release
    (the crosswalk, the paper's transcribed numbers, provenance/) has none; a claims file whose inputs have none
    is the stand-in instrument's (:data:`FROZEN_FROM`).

    >>> sorted(claim_natures(["data/v3/qrels.jsonl", "data/crosswalk.json"]))
    ['real']
    >>> sorted(claim_natures(["data/v3/x", "data/v1/qrels.jsonl"])), claim_natures(["provenance/x.json"])
    (['real', 'synthetic'], set())
    """
    found = set()
    for path in paths:
        release = next((r for r in layout.RELEASES.values() if path.startswith(r.base + "/")), None)
        if release is not None:
            found.add(release.nature)
    return found
