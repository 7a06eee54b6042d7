"""Run every relation over the transcribed numbers and give each relation and each number a status.

* relation: ``pass`` (some assignment consistent with every displayed value
  satisfies it; ``boundary`` when only at a rounding edge), ``fail`` (none
  does: a genuine inconsistency, with the arithmetic), ``skip`` (a number it
  needs is not transcribed);
* number: ``fail`` if a relation involving it fails, ``pass`` if it takes part
  in at least one relation and all of them pass, ``skip`` otherwise -- no
  published number determines it, and the reason names what would.
"""


from fractions import Fraction

from ..core import layout
from ..core.errors import InputError
from ..core.jsonio import read_json
from .numbers import clean, numbers_in
from .relations import CITATIONS, RELATIONS
from .solve import Num

NUMBERS = layout.PAPER_NUMBERS
KINDS = ("pct", "pts", "prop", "count", "p", "value")

NEEDS = {
    "abstract": "the original CrossPage rankings", "1": "the original data/v1 construction files",
    "3": "the original clean-form rankings (data/v1/rankings/forms)", "3.1": "the original raw BM25 rankings",
    "3.2": "the original audit records", "4": "the original clean-form rankings", "5": "the original raw rankings and bootstrap draws",
    "6": "the original clean-form rankings", "7": "the original SourceShift rankings", "8": "the Qwen3-VL page-score files",
    "S1i": "the shared-document sensitivity outputs (reference_runs/headline_sensitivity.json)",
    "S2a": "the LLM-paraphrase rankings", "S2b": "the 39 form rankings", "S3": "the SourceShift form rankings",
    "S4": "the SourceShift form rankings and permutation draws", "S5a": "the masked rankings and bootstrap draws",
    "S5b": "the original diagnostic outputs", "S7": "the audit packet", "S8": "the audit records", "S9": "the audit records",
    "S10": "the adjudication candidate pools (audit/)", "S11": "the adjudication responses (audit/)",
    "S12": "the final decision manifest (audit/)", "S13": "the final decision manifest (audit/)",
    "S14": "the pre/post qrel copies and rankings",
}


def load_numbers(root):
    obj = read_json(layout.abspath(root, NUMBERS), NUMBERS)
    if obj.get("paper_schema") != "nclue.paper/1":
        raise InputError(NUMBERS, "expected 'nclue.paper/1'", field="paper_schema")
    rows = obj.get("numbers")
    if not isinstance(rows, list):
        raise InputError(NUMBERS, "must be a list", field="numbers")
    out = {}
    for i, r in enumerate(rows):
        field = "numbers[%d]" % i
        if not isinstance(r, dict):
            raise InputError(NUMBERS, "must be an object", field=field)
        for key in ("id", "text", "kind", "table", "quote"):
            if not isinstance(r.get(key), str):
                raise InputError(NUMBERS, "must be a string", field="%s.%s" % (field, key))
        if r["kind"] not in KINDS:
            raise InputError(NUMBERS, "unknown kind %r" % r["kind"], field=field + ".kind")
        d = r.get("denominator")
        if d is not None and (not isinstance(d, int) or isinstance(d, bool) or d <= 0):
            raise InputError(NUMBERS, "must be a positive integer or null", field=field + ".denominator")
        if r["id"] in out:
            raise InputError(NUMBERS, "duplicate number %r" % r["id"], field=field + ".id")
        try:
            num = Num(r)
        except (ValueError, ZeroDivisionError):
            raise InputError(NUMBERS, "not a number: %r" % r["text"], field=field + ".text") from None
        if abs(float(num.value) - float(r.get("value", float("nan")))) > 1e-12:
            raise InputError(NUMBERS, "value %r disagrees with the displayed text %r" % (r.get("value"), r["text"]),
                             field=field + ".value")
        problem = transcription_problem(r, num)
        if problem:
            raise InputError(NUMBERS, "number %s: %s" % (r["id"], problem[1]), field="%s.%s" % (field, problem[0]))
        out[r["id"]] = (num, r)
    return out


# what each kind of number may display: (whole numbers only, the closed range of its value)
KIND_RANGES = {"count": (True, 0, None), "p": (False, 0, 1), "prop": (False, -1, 1), "pct": (False, -100, 100),
               "pts": (False, -100, 100), "value": (False, None, None)}
DENOMINATOR_KINDS = ("pct", "pts")


def transcription_problem(r, num):
    """``(field, why)`` when a transcribed number disagrees with itself (None when it agrees): its text must be the
    ``pick``-th number of its quote, its ``decimals`` those of its text, its value inside its kind's range (a
    count whole), and only a share (``pct``, ``pts``) may have a denominator.  A number changed while its quote was
    kept, a pick out of range or a kind that its text cannot have is found here, before any relation runs."""
    shown = numbers_in(r["quote"])
    pick = r.get("pick")
    if not isinstance(pick, int) or isinstance(pick, bool) or not 0 <= pick < len(shown):
        return "pick", "pick %r is not the index of one of the %d numbers of its quote" % (pick, len(shown))
    if shown[pick].lstrip("+") != clean(r["text"]).lstrip("+"):
        return "text", "text %r is not the quote's number %d, %r: the quote and the text must agree" % (
            r["text"], pick, shown[pick])
    if r.get("decimals") != num.decimals:
        return "decimals", "decimals %r, but the text %r shows %d" % (r.get("decimals"), r["text"], num.decimals)
    whole, low, high = KIND_RANGES[r["kind"]]
    if (whole and num.value.denominator != 1) or (low is not None and num.value < low) or (
            high is not None and num.value > high):
        return "kind", "a %s cannot display %r" % (r["kind"], r["text"])
    if r.get("denominator") is not None and r["kind"] not in DENOMINATOR_KINDS:
        return "denominator", "a %s has no denominator (only %s do)" % (r["kind"], " and ".join(DENOMINATOR_KINDS))
    if r.get("denominator") is not None and not attainable(num.value, num.decimals, r["denominator"]):
        return "denominator", "no count of %d shows as %s%% at %d decimals: the share and its denominator disagree" % (
            r["denominator"], r["text"], num.decimals)
    return None


def attainable(value, decimals, denominator):
    """Whether some whole count ``c`` (``|c| <= denominator``) gives ``100 c / denominator`` that displays as
    ``value`` at ``decimals`` (rounded half either way: the paper's rounding is not stated).

    >>> from fractions import Fraction
    >>> attainable(Fraction("81.1"), 1, 1000), attainable(Fraction("81.1"), 1, 7), attainable(Fraction("85.7"), 1, 7)
    (True, False, True)
    >>> attainable(Fraction("-14.3"), 1, 7), attainable(Fraction("12.5"), 1, 8), attainable(Fraction("14"), 0, 8)
    (True, True, False)
    """
    half = Fraction(1, 2 * 10 ** decimals)
    low, high = denominator * (value - half) / 100, denominator * (value + half) / 100
    first = -((-low.numerator) // low.denominator)          # ceil
    last = high.numerator // high.denominator               # floor
    return max(first, -denominator) <= min(last, denominator)


class AuditResult:
    def __init__(self, relations, numbers):
        self.relations = relations      # list of dicts
        self.numbers = numbers          # id -> dict

    def counts(self, what):
        rows = self.relations if what == "relations" else list(self.numbers.values())
        out = {"pass": 0, "fail": 0, "skip": 0}
        for r in rows:
            out[r["status"]] += 1
        return out


def evaluate(relation, values):
    """Status, detail, boundary flag and recovered counts of one relation."""
    missing = [i for i in relation.ids if i not in values]
    if missing:
        return "skip", "not transcribed: %s" % ", ".join(missing), False, {}
    try:
        verdict = relation.fn(values)
    except (ArithmeticError, ValueError, TypeError, KeyError, IndexError) as exc:
        return "fail", "relation could not be evaluated: %s: %s" % (type(exc).__name__, exc), False, {}
    return ("pass" if verdict.ok else "fail", verdict.detail, bool(verdict.boundary and verdict.ok),
            {str(k): int(c) for k, c in sorted(verdict.counts.items())})


def relations_of(number_id):
    return [r for r in RELATIONS if number_id in r.ids]


def audit(entries):
    """Run every relation on ``{id: (Num, record)}``; return an :class:`AuditResult`: a row per relation
    and per table citation, and each number's status from the relations it takes part in."""
    values = {k: v[0] for k, v in entries.items()}
    rel_rows = []
    involved = {}
    for r in RELATIONS:
        status, detail, boundary, counts = evaluate(r, values)
        row = {"id": r.id, "description": r.description, "kind": r.kind, "numbers": list(r.ids), "status": status,
               "detail": detail, "boundary": boundary, "counts": counts, "determines": list(r.determines)}
        rel_rows.append(row)
        if row["status"] != "skip":
            for i in r.ids:
                involved.setdefault(i, []).append(row)
    main_tables = {entries[nid][1]["table"] for nid in entries if nid.startswith("T")}
    rel_rows += [_citation_row(rid, where, quote, cited, main_tables) for rid, where, quote, cited in CITATIONS]
    numbers = {nid: _number_status(nid, entries[nid][1], involved.get(nid, [])) for nid in sorted(values)}
    return AuditResult(rel_rows, numbers)


def _citation_row(rid, where, quote, cited, main_tables):
    """A relation row for one citation of main-paper tables: it fails when a cited table does not exist."""
    missing = [t for t in cited if t not in main_tables]
    return {"id": rid, "description": "%s cites main-paper Table%s %s: \"%s\"" % (
                where, "s" if len(cited) > 1 else "", ", ".join(cited), quote),
            "kind": "reference", "numbers": [], "status": "fail" if missing else "pass",
            "detail": ("the main paper has no Table %s (its tables are %s)" % (
                ", ".join(missing), ", ".join(sorted(main_tables, key=int)))) if missing else
            "every cited table is in the paper",
            "boundary": False, "counts": {}, "determines": []}


def _number_status(nid, record, rels):
    """One transcribed number's status: fail when a relation it is in fails, pass when it is in one, else
    skip with what checking it would need."""
    if any(x["status"] == "fail" for x in rels):
        status, reason = "fail", "inconsistent in " + ", ".join(x["id"] for x in rels if x["status"] == "fail")
    elif rels:
        status, reason = "pass", "consistent in %d relation(s)" % len(rels)
    else:
        status = "skip"
        reason = "no other published number determines it; checking it needs %s" % NEEDS.get(
            record["table"], "the original release data")
    return {"status": status, "reason": reason, "relations": [x["id"] for x in rels],
            "determined": any(nid in x["determines"] for x in rels), "table": record["table"], "text": record["text"]}
