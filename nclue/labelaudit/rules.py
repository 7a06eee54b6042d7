"""Label audit building blocks (supplement section 10; issue "SourceShift and the label audit").

Pure functions, no files: the quote-integrity gate, derived grades, and the
evidence-asymmetric repair policy of supplement 10.2.2 / 10.4 as one
deterministic function.  The audit records are loaded by
:mod:`nclue.labelaudit.audit_records` and scored with these rules by
:mod:`nclue.labelaudit.audit_scoring`; the stand-in's simulated audit
(:mod:`nclue.builder.simulated_audit`) decides with the same function.

Quote gate (10.2.1): a positive answer has at least one selected page, every
selected page belongs to the pool shown to the evaluator, and a non-trivial
quote (at least ``MIN_QUOTE_WORDS`` words) that is a *normalised substring*
of one of its selected pages (lower case, curly quotes and dashes folded,
runs of white space collapsed).  A negative answer has no page and no quote.

Repair policy, per audited pair with original grade ``g0`` and ``n``
conditions:

1. A and E derive grades (their positive conditions).  Equal grades and
   equal to ``g0``: keep ``g0``.
2. A+E consensus increase: accept it when every positive condition passes the
   quote gate and, if the new grade is ``n``, the conditions' selected pages
   admit a distinct-page assignment; otherwise adjudicate.
3. A/E grade split, or A+E consensus decrease: adjudicate.
4. Adjudication: conditions both A and E supported are locked positive; every
   other condition takes the majority of the three adjudication responses
   (a response counts only if it passes the quote gate).  The final grade is
   the number of positive conditions, except that a would-be gold whose
   positive conditions admit no distinct-page assignment stays partial
   (``n - 1``): the distinct-page gate is enforced at the end.
"""

import re
from functools import lru_cache

from ..core.verify import distinct_page_valid

MIN_QUOTE_WORDS = 3
_FOLD = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-", "\u00a0": " "}


@lru_cache(maxsize=65536)
def normalise(text):
    """Lower case, fold curly quotes/dashes/no-break spaces, collapse white space (memoised: the gate
    normalises the same displayed pages for every answer that selects them).

    >>> normalise("  The \u201cGrievance\u201d\\nMechanism ")
    'the "grievance" mechanism'
    """
    for a, b in _FOLD.items():
        text = text.replace(a, b)
    return re.sub(r"\s+", " ", text).strip().lower()


class Answer:
    """One evaluator's decision on one condition: positive or not, selected pages, quote."""

    __slots__ = ("positive", "pages", "quote", "shown")

    def __init__(self, positive, pages=(), quote="", shown=()):
        self.positive, self.pages, self.quote = bool(positive), tuple(pages), quote or ""
        self.shown = tuple(shown)       # the pages shown to the responder for this condition


def gate(answer, shown_pages, page_text):
    """``(ok, reason)`` of the quote-integrity gate; ``page_text(page)`` gives a shown page's text."""
    if not answer.positive:
        if answer.pages or answer.quote.strip():
            return False, "a negative answer must have no page and no quote"
        return True, ""
    if not answer.pages:
        return False, "a positive answer needs at least one selected page"
    unshown = [p for p in answer.pages if p not in shown_pages]
    if unshown:
        return False, "selected page %s was not shown to the evaluator" % unshown[0]
    quote = normalise(answer.quote)
    if len(quote.split()) < MIN_QUOTE_WORDS:
        return False, "the quote is trivial (fewer than %d words)" % MIN_QUOTE_WORDS
    texts = [page_text(p) for p in answer.pages]
    absent = [p for p, t in zip(answer.pages, texts) if t is None]
    if absent:
        return False, "the text of selected page %s is not in the audit's page file" % absent[0]
    if not any(quote in normalise(t) for t in texts):
        return False, "the quote is not on any selected page"
    return True, ""


def derived_grade(answers):
    """Number of positive conditions (the evaluator's grade)."""
    return sum(1 for a in answers if a.positive)


def _distinct(answers_by_condition):
    sets = [tuple(a.pages) for a in answers_by_condition]
    return distinct_page_valid(sets)


def repair(g0, n, a, e, adjudication=None, gate_ok=None):
    """Final grade and route of one pair under the evidence-asymmetric policy (see module doc).

    ``a`` and ``e``: per-condition :class:`Answer` lists; ``adjudication``: a list
    (per condition) of three :class:`Answer` or None for conditions not queued;
    ``gate_ok(answer) -> bool`` applies the quote gate (default: all pass).
    Returns ``(grade, route)`` with route one of ``keep``, ``accept-increase``,
    ``adjudicated``, ``needs-adjudication``.

    >>> yes = Answer(True, [3], "the plan is described here")
    >>> no = Answer(False)
    >>> repair(1, 2, [yes, yes], [yes, Answer(True, [5], "a second page says so")])
    (2, 'accept-increase')
    >>> repair(2, 2, [yes, no], [yes, no])
    (2, 'needs-adjudication')
    """
    grade, route, _, _ = repair_detail(g0, n, a, e, adjudication, gate_ok)
    return grade, route


def repair_detail(g0, n, a, e, adjudication=None, gate_ok=None, overrides=None):
    """:func:`repair` with two more values: True when the distinct-page gate kept a would-be gold
    partial, and the decision's **support**: per condition, the pages its positive answers selected
    (empty for a condition decided negative), or None when the decision keeps ``g0`` or is not made yet.
    A repaired gold's page gates are checked on this support (supplement 10.4).

    ``overrides``: ``{condition index: Answer}``, administrative decisions (10.4) that replace the
    majority of an adjudicated condition; the distinct-page gate still applies to them.

    >>> yes, no = Answer(True, [3], "the plan is described here"), Answer(False)
    >>> repair_detail(1, 2, [yes, Answer(True, [5], "a second page")], [yes, Answer(True, [6], "and again")])
    (2, 'accept-increase', False, ((3,), (5, 6)))
    >>> repair_detail(2, 2, [yes, no], [yes, no])
    (2, 'needs-adjudication', False, None)
    """
    overrides = overrides or {}
    gate_ok = gate_ok or (lambda ans: True)
    ga, ge = derived_grade(a), derived_grade(e)
    if ga == ge == g0:
        return g0, "keep", False, None
    if ga == ge and ga > g0:
        accepted = _consensus_increase(n, a, e, ga, gate_ok)
        if accepted is not None:
            return ga, "accept-increase", False, _support(accepted)
    if adjudication is None:
        return g0, "needs-adjudication", False, None
    final = [_adjudicated_condition(a[i], e[i], overrides.get(i), adjudication[i], gate_ok) for i in range(n)]
    grade = derived_grade(final)
    blocked = grade == n and not _distinct(final)
    if blocked:
        grade = n - 1          # J061: every condition supported, but not on distinct pages
    return grade, "adjudicated", blocked, _support(final)


def _consensus_increase(n, a, e, grade, gate_ok):
    """The merged answers when both initial responders agree on a higher ``grade`` with quotes passing the
    gate (and, for a gold, on distinct pages); None when the increase needs adjudication."""
    positives = [i for i in range(n) if a[i].positive and e[i].positive]
    if len(positives) != grade or not all(gate_ok(a[i]) and gate_ok(e[i]) for i in positives):
        return None
    merged = [_merge(a[i], e[i]) if a[i].positive and e[i].positive else Answer(False) for i in range(n)]
    return merged if grade < n or _distinct(merged) else None


def _adjudicated_condition(x, y, override, votes, gate_ok):
    """One condition's final answer: both initial answers positive and passing the gate (merged), else the
    administrative override, else the majority (two or more) of the valid positive adjudication votes
    (merged), else negative."""
    if x.positive and y.positive and gate_ok(x) and gate_ok(y):
        return _merge(x, y)
    if override is not None:
        return override
    positive = [r for r in (votes or ()) if r.positive and gate_ok(r)]
    if len(positive) < 2:
        return Answer(False)
    merged = positive[0]
    for r in positive[1:]:
        merged = _merge(merged, r)
    return merged


def _support(answers):
    return tuple(tuple(sorted(set(ans.pages))) if ans.positive else () for ans in answers)


def _merge(x, y):
    return Answer(True, sorted(set(x.pages) | set(y.pages)), x.quote, sorted(set(x.shown) | set(y.shown)))
