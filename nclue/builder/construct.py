"""Query construction with the paper's page gates (section 3.2; supplement 1.1).

For a conjunction of conditions ``c_1..c_n`` and a document ``d`` with page
sets ``P(d, c_i)`` (from the inventory):

* clue count = number of ``i`` with ``P(d, c_i)`` nonempty; every document with
  a positive count is emitted as a qrel with ``grade`` = clue count;
* a document with all ``n`` conditions is a valid gold only if the
  all-condition intersection is empty (not single-page-solvable) and a
  distinct-page assignment exists (a matching of conditions to distinct
  pages, found here by augmenting paths);
* a conjunction is admissible when it has 1..``max_golds`` all-condition
  documents and every one of them passes both gates, so that grade ``n`` and
  gold coincide in the released qrels.

This module works on bit sets (one ``int`` of documents per condition) and is
the constructor only; the independent check lives in :mod:`nclue.core.verify`.
"""

from ..core import renderings as forms
from ..core.rng import Stream


def distinct_page_matching(page_sets):
    """A list of distinct pages, one per condition, or None (Kuhn's augmenting paths)."""
    owner = {}

    def augment(i, seen):
        for page in page_sets[i]:
            if page in seen:
                continue
            seen.add(page)
            if page not in owner or augment(owner[page], seen):
                owner[page] = i
                return True
        return False

    for i in range(len(page_sets)):
        if not augment(i, set()):
            return None
    assignment = [None] * len(page_sets)
    for page, i in owner.items():
        assignment[i] = page
    return assignment


def passes_gates(page_sets):
    """True iff every set is nonempty, their intersection is empty and a matching exists."""
    if not page_sets or any(not s for s in page_sets):
        return False
    common = set(page_sets[0])
    for s in page_sets[1:]:
        common &= set(s)
    if common:
        return False
    return distinct_page_matching(page_sets) is not None


class Index:
    """Inventory as bit sets: ``bits[c]`` has bit ``j`` set iff document ``j`` carries ``c``."""

    def __init__(self, docs, catalog, inventory_rows):
        self.docids = [d["docid"] for d in docs]
        self.position = {docid: j for j, docid in enumerate(self.docids)}
        self.cids = [c["cid"] for c in catalog]
        self.cindex = {cid: i for i, cid in enumerate(self.cids)}
        self.bits = [0] * len(self.cids)
        self.pages = {}
        for row in inventory_rows:
            ci = self.cindex[row["cid"]]
            j = self.position[row["docid"]]
            self.bits[ci] |= 1 << j
            self.pages[(ci, j)] = row["pages"]

    @staticmethod
    def members(bits):
        out = []
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out

    def cooccurring(self):
        """For each condition, the bit set of conditions it shares at least one document with."""
        per_doc = {}
        for (ci, j) in self.pages:
            per_doc[j] = per_doc.get(j, 0) | (1 << ci)
        out = [0] * len(self.cids)
        for mask in per_doc.values():
            for ci in self.members(mask):
                out[ci] |= mask
        return out

    def gold_ok(self, conds, bits):
        for j in self.members(bits):
            if not passes_gates([self.pages[(ci, j)] for ci in conds]):
                return False
        return True


def popcount(bits):
    return bin(bits).count("1")


def candidates(index, max_golds, max_union, min_golds=1):
    """All admissible pairs and triples of conditions, in a fixed order (a, b, c increasing).

    A third condition is only tried among those co-occurring with both others in some document
    (``index.cooccurring``), which gives the same triples as trying every condition."""
    m = len(index.cids)
    bits = index.bits
    sizes = [popcount(b) for b in bits]
    cooc = index.cooccurring()
    pairs, triples = [], []
    for a in range(m):
        ba = bits[a]
        if not ba or sizes[a] > max_union:
            continue
        later = cooc[a] >> (a + 1) << (a + 1)
        for b in Index.members(later):
            bab = ba & bits[b]
            uab = ba | bits[b]
            if popcount(uab) > max_union:
                continue
            if min_golds <= popcount(bab) <= max_golds and index.gold_ok((a, b), bab):
                pairs.append((a, b))
            for c in Index.members((cooc[a] & cooc[b]) >> (b + 1) << (b + 1)):
                babc = bab & bits[c]
                if (babc and min_golds <= popcount(babc) <= max_golds and popcount(uab | bits[c]) <= max_union
                        and index.gold_ok((a, b, c), babc)):
                    triples.append((a, b, c))
    return pairs, triples


def _draw_by_golds(stream, index, conjunctions, k, power=1.0):
    """``k`` distinct conjunctions, each draw with probability proportional to ``golds ** power``
    (integer weights ``round(100 * golds ** power)``, at least 1); repeats are redrawn.  With
    ``power = 1`` this draws a (gold document, conjunction it satisfies) occurrence uniformly.
    """
    cumulative, total = [], 0
    for conj in conjunctions:
        bits = index.bits[conj[0]]
        for ci in conj[1:]:
            bits &= index.bits[ci]
        total += max(1, int(round(100 * popcount(bits) ** power)))
        cumulative.append(total)
    taken, out = set(), []
    while len(out) < k:
        i = stream.weighted_index(cumulative, total)
        if i not in taken:
            taken.add(i)
            out.append(conjunctions[i])
    return out


def select_queries(cfg, seed, index):
    """Choose the conjunctions: seeded draws without replacement, weighted by gold count.

    Conditions keep their order inside a query as drawn (a random order of
    the conjunction), and query IDs are assigned after a seeded shuffle of the
    chosen pairs and triples together.
    """
    pairs, triples = candidates(index, cfg.max_golds, cfg.max_union, cfg.min_golds)
    if len(pairs) < cfg.n_queries_2 or len(triples) < cfg.n_queries_3:
        raise RuntimeError("not enough admissible conjunctions: %d pairs, %d triples" % (len(pairs), len(triples)))
    stream = Stream.derived(seed, "construct", "select")
    chosen = _draw_by_golds(stream, index, pairs, cfg.n_queries_2, cfg.selection_power)
    chosen += _draw_by_golds(stream, index, triples, cfg.n_queries_3, cfg.selection_power)
    order_stream = Stream.derived(seed, "construct", "order")
    out = []
    for conj in chosen:
        conj = list(conj)
        order_stream.shuffle(conj)
        out.append(conj)
    order_stream.shuffle(out)
    return out, {"admissible_pairs": len(pairs), "admissible_triples": len(triples)}


def qrels_for(index, conds):
    """Compact qrels of one conjunction: ``[(docid, grade)]``, grade = exact clue count."""
    union = 0
    for ci in conds:
        union |= index.bits[ci]
    out = []
    for j in index.members(union):
        grade = sum(1 for ci in conds if (index.bits[ci] >> j) & 1)
        out.append((index.docids[j], grade))
    return out


def query_and_qrels(qid, catalog, index, conj, synthetic=True, render=forms.render, **extra):
    """One constructed query row (``extra`` fields added, e.g. ``source``; ``render``: its three forms from its
    conditions) and its compact qrel rows (grade descending, then docid), shared by the v1, v2 and v3 builders
    (v3's are not synthetic and say what each condition asks)."""
    conds = [catalog[ci] for ci in conj]
    query = dict(extra, qid=qid, n=len(conds), forms=render(conds), synthetic=synthetic,
                 conditions=[{"cid": c["cid"], "kind": c["kind"], "label": c["label"]} for c in conds])
    rows = sorted(qrels_for(index, conj), key=lambda t: (-t[1], t[0]))
    return query, [{"qid": qid, "docid": docid, "grade": grade} for docid, grade in rows]
