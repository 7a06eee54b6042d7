"""Condition-wise decomposition (paper section 3.3; Fagin et al. 2003).

Each condition ``c_i`` is retrieved on its own.  Its list is the top
``DEPTH_LIST = 100`` documents, with scores divided by the list's best score
(so every condition's scores lie in (0, 1]); a document absent from a
condition's list has score 0 for it.  Candidates are the union of the lists.

* ``min``: ``min_i s_i``;  ``product``: ``prod_i s_i``;
* ``hmean``: ``n / sum_i (1 / s_i)`` (0 when any ``s_i`` is 0);
* distinct-page bottleneck (page-level lists)::

      S_SDR(d, q) = max over injective pi of min_i s(c_i, p_pi(i))

  where ``s(c_i, p)`` is condition ``i``'s page score divided by its best page
  score in the corpus.  With ``n`` conditions an optimal assignment can use,
  for each condition, one of its ``n`` best pages (at most ``n - 1`` pages are
  taken by the others), so the maximum is found exactly by trying those.

>>> combine("hmean", [0.5, 1.0])
0.6666666666666666
>>> combine("product", [0.5, 0.0])
0.0
>>> sdr_bottleneck([[(1, 0.9)], [(1, 0.8), (2, 0.3)]])
(0.3, [1, 2])
>>> sdr_bottleneck([[(1, 0.9)], [(1, 0.8)]])
(0.0, None)
"""

from itertools import product as _cartesian

DEPTH_LIST = 100


def normalise(scored):
    """``[(unit, score)]`` -> ``{unit: score / best}`` (empty when the best is not positive)."""
    if not scored or scored[0][1] <= 0:
        return {}
    best = scored[0][1]
    return {u: s / best for u, s in scored if s > 0}


def combine(op, values):
    if op == "min":
        return min(values)
    if op == "product":
        out = 1.0
        for v in values:
            out *= v
        return out
    if op == "hmean":
        if any(v <= 0 for v in values):
            return 0.0
        inv = 0.0
        for v in values:
            inv += 1.0 / v
        return len(values) / inv
    raise ValueError("unknown combination %r" % op)


def decompose(lists, op):
    """``{doc: combined score}`` over the union of normalised per-condition lists."""
    candidates = set()
    for lst in lists:
        candidates.update(lst)
    return {d: combine(op, [lst.get(d, 0.0) for lst in lists]) for d in sorted(candidates)}


def sdr_bottleneck(page_lists):
    """``(score, pages)`` of the best injective condition-to-page assignment.

    ``page_lists[i]`` is condition ``i``'s ``[(page, score)]`` in this document,
    best first.  Score 0 and no pages when some condition has no page or no
    injective assignment exists.
    """
    n = len(page_lists)
    tops = [lst[:n] for lst in page_lists]
    if any(not t for t in tops):
        return 0.0, None
    best, best_pages = 0.0, None
    for combo in _cartesian(*tops):
        pages = [p for p, _ in combo]
        if len(set(pages)) < n:
            continue
        value = min(s for _, s in combo)
        if value > best or best_pages is None:
            best, best_pages = value, pages
    if best_pages is None:
        return 0.0, None
    return best, best_pages
