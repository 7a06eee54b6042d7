"""Dense retrieval over page embeddings: the paper's neural configurations played by one real embedder
(docs/realpage.md#neural; paper section 3.3, Table 2).  Standard library only: the scoring below takes the
embeddings as sequences of floats; the neural build computes them (:mod:`.embedder`) and may hand in the
similarities a faster product computed (:func:`similarities` is the definition).

Every embedding is unit length, so a similarity is a dot product (a cosine).  For one query text:

* ``page similarities``: the cosine of the text with each page of each document;
* **whole document** (``dense_doc``): the cosine with the document vector, the mean of the document's page
  vectors made unit length again (a document longer than one page is never cut at the model's 256 word pieces:
  each page is, and the document is their centroid);
* **page max** / **page top-3** (page aggregation): a document's best page cosine / the mean of its three best
  (missing pages count 0), as the lexical page systems aggregate (:mod:`nclue.retrieval.engine`);
* **condition-wise decomposition** (min, product, harmonic mean): each condition's text is scored on its own,
  a document's condition score is its best page cosine, each condition's list is its top
  :data:`~nclue.retrieval.compose.DEPTH_LIST` divided by its best, and the lists are combined as the lexical
  decompositions combine them (:func:`nclue.retrieval.compose.decompose`);
* **fusion**: equal-weight reciprocal-rank fusion of a lexical list with a dense one
  (:func:`nclue.retrieval.systems.rrf`);
* **reranking**: a lexical list's top :data:`~nclue.retrieval.systems.TEXT_POOL` reordered by the dense
  whole-document cosine.

>>> pages = {"a": [[1.0, 0.0], [0.0, 1.0]], "b": [[0.6, 0.8]]}
>>> sims = similarities([1.0, 0.0], pages)
>>> sims
{'a': [1.0, 0.0], 'b': [0.6]}
>>> page_max(sims), [(d, round(s, 4)) for d, s in page_top3(sims)]
([('a', 1.0), ('b', 0.6)], [('a', 0.3333), ('b', 0.2)])
"""

import math

from ...retrieval.compose import DEPTH_LIST, decompose, normalise
from ...retrieval.engine import POOL
from ...retrieval.index import ranked
from ...retrieval.systems import TEXT_POOL, rrf


def dot(u, v):
    """The dot product of two vectors (the cosine of two unit vectors)."""
    total = 0.0
    for a, b in zip(u, v):
        total += a * b
    return total


def unit(vector):
    """``vector`` divided by its length (a zero vector stays zero).

    >>> unit([3.0, 4.0])
    [0.6, 0.8]
    """
    length = math.sqrt(dot(vector, vector))
    return [x / length for x in vector] if length > 0 else list(vector)


def similarities(vector, pages):
    """``{docid: [cosine of vector with each page, in page order]}``; ``pages``: ``{docid: [page vector]}``."""
    return {d: [dot(vector, p) for p in vectors] for d, vectors in pages.items()}


def document_vectors(pages):
    """``{docid: unit centroid of its page vectors}`` (the whole-document embedding)."""
    out = {}
    for d, vectors in pages.items():
        total = [0.0] * len(vectors[0])
        for v in vectors:
            for k, x in enumerate(v):
                total[k] += x
        out[d] = unit(total)
    return out


def whole_document(vector, documents, depth=POOL):
    """``dense_doc``: documents by the cosine of their unit centroid with ``vector``."""
    return ranked({d: dot(vector, v) for d, v in documents.items()}, depth)


def page_max(sims, depth=POOL):
    """Page aggregation by the best page (documents with no positive page score are left out, as lexically)."""
    return ranked({d: max(s) for d, s in sims.items() if s and max(s) > 0.0}, depth)


def page_top3(sims, depth=POOL):
    """Page aggregation by the mean of the three best page scores (missing pages count 0)."""
    out = {}
    for d, s in sims.items():
        if s and max(s) > 0.0:
            out[d] = sum(sorted(s, reverse=True)[:3]) / 3.0
    return ranked(out, depth)


def condition_list(sims):
    """One condition's list: each document's best page cosine, its top DEPTH_LIST divided by the best."""
    return normalise(ranked({d: max(s) for d, s in sims.items() if s}, DEPTH_LIST))


def decomposed(condition_sims, op, depth=POOL):
    """Condition-wise decomposition of the conditions' page similarities with ``op`` (min, product, hmean).

    >>> a = {"x": [0.9, 0.1], "y": [0.5]}
    >>> b = {"x": [0.2, 0.4], "y": [0.8]}
    >>> decomposed([a, b], "min")
    [('y', 0.5555555555555556), ('x', 0.5)]
    """
    return ranked(decompose([condition_list(s) for s in condition_sims], op), depth)


def fused(lexical, dense, depth=POOL):
    """Equal-weight RRF of a lexical list and a dense list (both ``[(docid, score)]``, best first)."""
    return rrf([lexical, dense], depth=depth)


def reranked(candidates, documents, vector, depth=POOL):
    """The top TEXT_POOL of ``candidates`` reordered by the whole-document cosine with ``vector``."""
    pool = [d for d, _ in candidates[:TEXT_POOL]]
    return ranked({d: dot(vector, documents[d]) for d in pool}, depth)
