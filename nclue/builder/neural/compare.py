"""Two builds of RealPage's dense runs compared within the tolerance docs/realpage.md#neural writes down: a
model's floating point differs across CPUs and libraries, so a rebuild is not compared byte for byte.

For every ranking file of :func:`.declared.expected_files`, both builds must rank the same queries, at least
:data:`TOP10_AGREEMENT` of the queries with the same top 10 in the same order, and every document both rank for
a query must score within :data:`SCORE_TOLERANCE`; page-score files alike, per (query, document).  Standard
library only.

``python -m nclue.builder.neural.compare RELEASED REBUILT`` (two folders in the release's layout: ``data/v3``
and the runs' OUT): one line a file, exit 0 when every file is within the tolerance, 1 when one is not, 2 when
a file is missing or unreadable.
"""

import json
import os
import sys
from typing import NamedTuple

from ...retrieval import dense_systems as declared

TOP10_AGREEMENT = 0.995
SCORE_TOLERANCE = 1e-4


class FileComparison(NamedTuple):
    """One file of the two builds: its path (relative to the release's folder), the rows compared, the share
    that agree (the same top 10 in order; the same pages, for page scores), the largest score difference of
    a shared document (or page), and why it fails ("" when within the tolerance)."""
    rel: str
    rows: int
    agreement: float
    max_difference: float
    problem: str

    @property
    def within(self):
        return not self.problem


def _rows(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _keyed(rows, page_scores):
    """``{key: [(item, score)]}``: a ranking row by its query, a page-score row by (query, document)."""
    if page_scores:
        return {(r["qid"], r["docid"]): [(p, s) for p, s in r["pages"]] for r in rows}
    return {r["qid"]: list(zip(r["docids"], r["scores"])) for r in rows}


def compare_rows(a, b, rel, page_scores=False):
    """The :class:`FileComparison` of two files' rows.

    >>> one = [{"qid": "q1", "docids": ["d1", "d2"], "scores": [0.5, 0.4]}]
    >>> two = [{"qid": "q1", "docids": ["d1", "d2"], "scores": [0.50004, 0.4]}]
    >>> c = compare_rows(one, two, "x.jsonl"); (c.agreement, round(c.max_difference, 5), c.within)
    (1.0, 4e-05, True)
    >>> compare_rows(one, [{"qid": "q1", "docids": ["d2", "d1"], "scores": [0.5, 0.4]}], "x.jsonl").problem
    'the same top 10 for 0 of 1 rows (0.0000 < 0.995); a shared document differs by 0.1 (> 0.0001)'
    """
    left, right = _keyed(a, page_scores), _keyed(b, page_scores)
    if sorted(left) != sorted(right):
        only = sorted(set(left) ^ set(right))
        return FileComparison(rel, len(left), 0.0, float("inf"), "the builds rank different %s (first %s)" % (
            "(query, document) pairs" if page_scores else "queries", only[0]))
    same, worst = 0, 0.0
    for key in left:
        same += [item for item, _ in left[key]] == [item for item, _ in right[key]]
        theirs = dict(right[key])
        for item, score in left[key]:
            if item in theirs:
                worst = max(worst, abs(score - theirs[item]))
    share = same / len(left) if left else 1.0
    problems = []
    if share < TOP10_AGREEMENT:
        problems.append("the same top 10 for %d of %d rows (%.4f < %g)" % (same, len(left), share, TOP10_AGREEMENT))
    if worst > SCORE_TOLERANCE:
        problems.append("a shared document differs by %.4g (> %g)" % (worst, SCORE_TOLERANCE))
    return FileComparison(rel, len(left), share, worst, "; ".join(problems))


def compare_folders(released, rebuilt):
    """``[FileComparison]`` of every declared dense file of two folders in the release's layout; a file missing
    from either is an :class:`OSError` naming it."""
    _, page_files = declared.output_files()
    page_rels = set(page_files.values())
    return [compare_rows(_rows(os.path.join(released, rel)), _rows(os.path.join(rebuilt, rel)), rel,
                         rel in page_rels) for rel in declared.expected_files()]


def summary(comparisons):
    """One line: how many files are within the tolerance, the lowest agreement and the largest difference."""
    bad = [c for c in comparisons if not c.within]
    return "%d of %d dense files within the tolerance (the same top 10 for >= %g of the queries, scores within " \
           "%g): lowest agreement %.4f, largest difference %.3g%s" % (
               len(comparisons) - len(bad), len(comparisons), TOP10_AGREEMENT, SCORE_TOLERANCE,
               min((c.agreement for c in comparisons), default=1.0),
               max((c.max_difference for c in comparisons), default=0.0),
               "; outside: " + "; ".join("%s: %s" % (c.rel, c.problem) for c in bad[:3]) if bad else "")


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) != 2:
        print("usage: python -m nclue.builder.neural.compare RELEASED REBUILT", file=sys.stderr)
        return 2
    try:
        comparisons = compare_folders(*argv)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    for c in comparisons:
        print("%s\t%d rows\tagreement %.4f\tlargest difference %.3g\t%s" % (
            c.rel, c.rows, c.agreement, c.max_difference, c.problem or "within"))
    print(summary(comparisons))
    return 0 if all(c.within for c in comparisons) else 1


if __name__ == "__main__":
    sys.exit(main())
