"""RealPage's queries: the admissible conjunctions and the tilted draws (docs/realpage.md#the-queries; paper
section 3.2, Table 1).

A candidate query is a pair or a triple of conditions that passes the gates of :class:`.settings.Construction`:

* the paper's (through the stand-in's construction): 1 to 12 gold RFCs (holding every condition), at most 88
  RFCs holding any, at least 5 subset RFCs, and every gold passing both page gates (no one page establishes
  every condition; the conditions can take distinct pages);
* RealPage's own, so that the conjunction matters: every condition is held by at least one subset RFC, so that
  no condition alone picks out the gold set (a query answered by one condition is a known-item lookup, not the
  paper's question).

The queries are drawn from every admissible conjunction without replacement, each with a weight tilted by its
structure: ``gold_tilt / 100`` per gold RFC, ``subset_tilt / 1000`` per subset RFC and, for a triple,
``grade2_tilt / 1000`` per grade-2 subset (an integer weight, so that the draw is exact on every platform).  The
tilts are **fitted**, by ``tools/fit_realpage.py``, so that the drawn queries have the paper's Table 1 structure
(golds and subsets per query; a triple's grade-2 subsets); the fit reads the candidates' structure only, never a
ranking.  A draw whose gold RFC is already gold for :attr:`~.settings.Construction.max_gold_queries` queries is
skipped, so that no RFC is gold for more than 2% of the queries.
"""

from typing import NamedTuple

from ...core.rng import Stream
from .. import construct
from .settings import RealPageError

popcount = construct.popcount


class Candidate(NamedTuple):
    """An admissible conjunction (condition indices, increasing) and its structure."""
    conditions: tuple
    golds: int          # the gold RFCs as a bit set
    n_golds: int
    subsets: int        # RFCs holding some but not all of the conditions
    grade2: int         # of them, those holding all but one (a triple's grade-2 subsets)


def usable(index, cfg):
    """The conditions a query can use: held by 2 to ``max_union`` RFCs (a condition held by one RFC has no
    subset holder, so it fails the conjunction gate in every query)."""
    return [ci for ci, bits in enumerate(index.bits) if 2 <= popcount(bits) <= cfg.max_union]


def _cooccurring(index, conditions):
    """``{condition: bit set of the usable conditions sharing an RFC with it}``."""
    per_doc = {}
    for ci in conditions:
        for j in index.members(index.bits[ci]):
            per_doc[j] = per_doc.get(j, 0) | (1 << ci)
    out = {ci: 0 for ci in conditions}
    for mask in per_doc.values():
        for ci in index.members(mask):
            out[ci] |= mask
    return out


def admissible(index, conj, cfg):
    """The :class:`Candidate` of conjunction ``conj`` when it passes every gate (module doc), else None."""
    bits = [index.bits[ci] for ci in conj]
    golds, union = bits[0], 0
    for b in bits:
        golds &= b
        union |= b
    n_golds, n_union = popcount(golds), popcount(union)
    if not (cfg.min_golds <= n_golds <= cfg.max_golds and n_union <= cfg.max_union and
            n_union - n_golds >= cfg.min_subsets):
        return None
    if any(b == golds for b in bits):          # a condition no subset holds picks out the gold set alone
        return None
    if not index.gold_ok(conj, golds):
        return None
    grade2 = 0
    if len(conj) == 3:
        grade2 = popcount(((bits[0] & bits[1]) | (bits[0] & bits[2]) | (bits[1] & bits[2])) & ~golds)
    return Candidate(tuple(conj), golds, n_golds, n_union - n_golds, grade2)


def candidates(index, n, cfg):
    """Every admissible ``n``-condition conjunction (``n`` 2 or 3), in increasing condition order: a further
    condition is tried only among those sharing an RFC with every condition before it (a conjunction with no
    gold RFC is not admissible)."""
    conds = usable(index, cfg)
    cooc = _cooccurring(index, conds)
    out = []
    for a in conds:
        for b in index.members(cooc[a] >> (a + 1) << (a + 1)):
            if n == 2:
                found = admissible(index, (a, b), cfg)
                if found:
                    out.append(found)
                continue
            if popcount(index.bits[a] | index.bits[b]) > cfg.max_union:
                continue
            for c in index.members((cooc[a] & cooc[b]) >> (b + 1) << (b + 1)):
                found = admissible(index, (a, b, c), cfg)
                if found:
                    out.append(found)
    return out


class Tilt(NamedTuple):
    """A draw's weights: per gold RFC ``gold / 100``, per subset RFC ``subset / 1000``, per grade-2 subset
    ``grade2 / 1000`` (:func:`weight`)."""
    gold: int
    subset: int
    grade2: int = 1000


def weight(candidate, tilt, cfg):
    """A candidate's integer weight, proportional to ``(gold/100)^golds (subset/1000)^subsets
    (grade2/1000)^grade2`` (every factor scaled to an integer by the gates' largest counts).

    >>> cfg = type("Cfg", (), {"max_golds": 2, "max_union": 3})
    >>> one, two = Candidate((0, 1), 1, 1, 2, 0), Candidate((0, 1), 3, 2, 1, 0)
    >>> weight(two, Tilt(200, 1000), cfg) // weight(one, Tilt(200, 1000), cfg)     # one more gold: twice the weight
    2
    """
    return (tilt.gold ** candidate.n_golds * 100 ** (cfg.max_golds - candidate.n_golds) *
            tilt.subset ** candidate.subsets * 1000 ** (cfg.max_union - candidate.subsets) *
            tilt.grade2 ** candidate.grade2 * 1000 ** (cfg.max_union - candidate.grade2))


class _Weights:
    """Integer weights with prefix sums (a Fenwick tree): find the item a uniform draw below the total lands
    on, and set an item's weight to 0, each in O(log n)."""

    def __init__(self, weights):
        self.n = len(weights)
        self.tree = [0] + list(weights)
        for i in range(1, self.n + 1):
            parent = i + (i & -i)
            if parent <= self.n:
                self.tree[parent] += self.tree[i]
        self.weights = list(weights)
        self.total = sum(weights)

    def find(self, r):
        """The item whose cumulative range holds ``r`` (``0 <= r < total``)."""
        pos, step = 0, 1 << self.n.bit_length()
        while step:
            nxt = pos + step
            if nxt <= self.n and self.tree[nxt] <= r:
                pos = nxt
                r -= self.tree[nxt]
            step >>= 1
        return pos

    def remove(self, i):
        w = self.weights[i]
        self.weights[i] = 0
        self.total -= w
        j = i + 1
        while j <= self.n:
            self.tree[j] -= w
            j += j & -j


def draw(pool, k, tilt, stream, cfg, gold_queries):
    """``k`` candidates of ``pool`` drawn without replacement with probability proportional to their
    :func:`weight`; one whose gold RFC is already gold in ``cfg.max_gold_queries`` queries
    (``gold_queries``: ``{RFC index: queries}``, updated) is set aside and not drawn again.  A pool that runs
    out is a :class:`~.settings.RealPageError`."""
    weights = _Weights([weight(c, tilt, cfg) for c in pool])
    out = []
    while len(out) < k:
        if weights.total <= 0:
            raise RealPageError("%d-condition queries: %d drawn, and no admissible conjunction is left to draw "
                                "(the sample cannot supply %d)" % (len(pool[0].conditions) if pool else 0,
                                                                   len(out), k))
        i = weights.find(stream.randbelow(weights.total))
        weights.remove(i)
        golds = construct.Index.members(pool[i].golds)
        if any(gold_queries.get(j, 0) >= cfg.max_gold_queries for j in golds):
            continue
        for j in golds:
            gold_queries[j] = gold_queries.get(j, 0) + 1
        out.append(pool[i])
    return out


def select(index, seed, cfg):
    """The queries' conjunctions in qid order, and what the draws record: pairs first (``cfg.pair_tilt``), then
    triples (``cfg.triple_tilt``), each condition order and then the whole list shuffled by seeded streams (as
    the stand-in does)."""
    gold_queries = {}
    chosen, info = [], {}
    for n, k, tilt in ((2, cfg.n_queries_2, Tilt(*cfg.pair_tilt)), (3, cfg.n_queries_3, Tilt(*cfg.triple_tilt))):
        pool = candidates(index, n, cfg)
        info["candidates_n%d" % n] = len(pool)
        chosen += draw(pool, k, tilt, Stream.derived(seed, "realpage", "select", n), cfg, gold_queries)
    order = Stream.derived(seed, "realpage", "order")
    out = []
    for candidate in chosen:
        conj = list(candidate.conditions)
        order.shuffle(conj)
        out.append(conj)
    order.shuffle(out)
    info["most_gold_queries"] = max(gold_queries.values()) if gold_queries else 0
    return out, info
