"""Published numbers whose assignment to claims the paper leaves open (docs/paper-audit.md#binding-decisions).

Section 10.3.2 gives three pairwise agreements of the adjudication's evaluators, "86.2/92.6/91.5%", without
saying which pair of evaluators each is.  The paper fixes what an assignment must satisfy, though: over
``n`` binary items, two evaluators with ``p`` and ``q`` positive answers disagree on ``d`` items with

* ``d >= |p - q|`` (each surplus positive of one is a disagreement), and
* ``d = p + q - 2 * both``, so ``d`` has the parity of ``p + q``,

where ``d = n - agreements`` and the agreements are the counts the displayed percentage admits.  An
assignment (a permutation of the evaluator pairs over the published numbers) is **consistent** when every
number admits such a ``d`` with Table S11's per-evaluator positives.  The binding accepts each consistent
assignment: a number passes when some consistent assignment shows every number of its group as recomputed.

>>> agreements = {"p1": [81], "p2": [87], "p3": [86]}       # 86.2%, 92.6%, 91.5% of 94
>>> positives = {"A": 76, "E": 77, "F": 83}
>>> consistent_assignments(["p1", "p2", "p3"], [("A", "E"), ("A", "F"), ("E", "F")], agreements, positives, 94)
[(('A', 'E'), ('A', 'F'), ('E', 'F')), (('A', 'F'), ('A', 'E'), ('E', 'F'))]
"""

from itertools import permutations
from typing import NamedTuple, Tuple

from ..core.claim_ids import AGREEMENT_PAIRWISE


class Assignment(NamedTuple):
    """A group of published numbers bound to claims in an order the paper leaves open: ``numbers`` (ids),
    ``pairs`` (the evaluator pair each claim of the default binding compares, in the numbers' order),
    ``claim`` (the claim template, ``{a}`` and ``{b}`` the pair), ``positives`` (``{evaluator: number id}`` of
    each evaluator's positive answers) and ``items`` (the number id of the item count)."""
    numbers: Tuple[str, ...]
    pairs: Tuple[Tuple[str, str], ...]
    claim: str
    positives: Tuple[Tuple[str, str], ...]
    items: str
    note: str

    def claim_of(self, pair):
        return self.claim.format(a=pair[0], b=pair[1])


ASSIGNMENTS = (
    Assignment(("X.s1032.pair1", "X.s1032.pair2", "X.s1032.pair3"), (("A", "E"), ("A", "F"), ("E", "F")),
               AGREEMENT_PAIRWISE(pair="{a}-{b}"),
               (("A", "S11.a.pos"), ("E", "S11.e.pos"), ("F", "S11.f.pos")), "X.s1032.conditions",
               "'pairwise agreements 86.2/92.6/91.5%' (section 10.3.2) does not say which evaluator pair each is; "
               "Table S11's positives (A 76, E 77, F 83 of 94) admit two assignments (91.5% is E-F, the only pair "
               "of even parity; 86.2% and 92.6% are A-E and A-F in either order), and the binding accepts each"),
)


def consistent_assignments(numbers, pairs, agreements, positives, n):
    """Every permutation of ``pairs`` over ``numbers`` under which each number admits an agreement count
    (``agreements[number]``, e.g. :meth:`nclue.paperaudit.solve.Num.counts`) whose disagreements ``n - k`` satisfy the bound and the parity of its pair's
    ``positives`` (module doc), in the order of :func:`itertools.permutations` (the default first)."""
    out = []
    for order in permutations(pairs):
        if all(any(_fits(n - k, positives[a], positives[b], n) for k in agreements[nid])
               for nid, (a, b) in zip(numbers, order)):
            out.append(order)
    return out


def _fits(disagreements, p, q, n):
    """Two evaluators with ``p`` and ``q`` positives of ``n`` can disagree on ``disagreements`` items."""
    return abs(p - q) <= disagreements <= min(p + q, 2 * n - p - q) and (disagreements - p - q) % 2 == 0


