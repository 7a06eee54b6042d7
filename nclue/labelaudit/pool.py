"""The high-recall expanded-page pool (supplement section 10.3.1, Table S10; docs/label-audit.md#the-expanded-page-pool).

Each unresolved condition gets a deduplicated union of candidate pages from several routes.  The
routes, in merge order:

* ``prior_selected`` -- pages the two initial evaluators selected for the condition;
* ``construction`` -- the construction evidence pages (the released inventory's pages);
* ``original_shown`` -- the three pages the initial evaluators were shown;
* ``lexical`` -- pages with an exact label or alias occurrence (most occurrences first);
* ``bm25`` -- the document's pages ranked by BM25 of the label's words;
* ``ocr_fuzzy`` -- pages where every word of a surface form has a page token within one edit
  (OCR-tolerant), most forms matched first;
* ``random_fill`` -- seeded random pages when the routes give fewer pages than the pool's size.

**Merge** (:func:`merge`): the first three routes in full, in that order; then the ranked routes
``lexical``, ``bm25``, ``ocr_fuzzy`` interleaved rank by rank; then ``random_fill``; a page keeps its
first position.  The displayed pool is the merged list cut at the pool's size (6-9 pages).  Route
memberships are not exclusive: a page counts for every route that proposes it (Table S10).

**Held-out recall check** (10.3.1): for conditions both initial evaluators supported (locked
positives) in the queued documents, the same pool is built *without* the ``prior_selected`` route
(which would contain the answer) at the maximum size, and the evaluators' pages are looked for by
rank 6 and by rank 9.
"""

ROUTES = ("prior_selected", "construction", "original_shown", "lexical", "bm25", "ocr_fuzzy", "random_fill")
FIXED_ROUTES = ROUTES[:3]
RANKED_ROUTES = ("lexical", "bm25", "ocr_fuzzy")
MEMBERSHIP_ROUTES = ROUTES[:6]
POOL_SIZES = (6, 9)
RECALL_RANKS = (6, 9)


def merge(candidates):
    """The merged candidate order of one condition (see module doc).

    >>> merge({"prior_selected": [4], "construction": [4, 7], "original_shown": [1, 2, 3],
    ...        "lexical": [9, 2], "bm25": [5, 9], "ocr_fuzzy": [8], "random_fill": [6]})
    [4, 7, 1, 2, 3, 9, 5, 8, 6]
    """
    out, seen = [], set()

    def add(page):
        if page not in seen:
            seen.add(page)
            out.append(page)
    for route in FIXED_ROUTES:
        for page in candidates.get(route, ()):
            add(page)
    ranked = [list(candidates.get(route, ())) for route in RANKED_ROUTES]
    for rank in range(max((len(r) for r in ranked), default=0)):
        for pages in ranked:
            if rank < len(pages):
                add(pages[rank])
    for page in candidates.get("random_fill", ()):
        add(page)
    return out


def memberships(candidates, pool):
    """``{route: number of pool pages it proposes}`` for the six evidence routes (not exclusive).

    >>> memberships({"original_shown": [1, 2, 3], "lexical": [2, 9], "bm25": [2, 12]}, [1, 2, 3, 9])
    {'prior_selected': 0, 'construction': 0, 'original_shown': 3, 'lexical': 2, 'bm25': 1, 'ocr_fuzzy': 0}
    """
    shown = set(pool)
    return {route: len(shown & set(candidates.get(route, ()))) for route in MEMBERSHIP_ROUTES}
