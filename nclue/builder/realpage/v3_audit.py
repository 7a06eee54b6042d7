"""RealPage's automatic expanded-page audit (docs/realpage.md#the-audit; paper section 3.2, supplement 10.2-10.4).

For every subset RFC of every query and every condition of the query the RFC lacks, the audit reads all of
the RFC's body pages (the expanded pages: not only the pages the construction matched) for evidence that
the RFC has the condition after all.  The policy is the paper's evidence-asymmetric one, fixed before any
audit output was seen: evidence that two sources agree on promotes the pair (a repair), evidence of one
source or of an approximate form leaves the label in doubt and drops the query, and finding nothing keeps
the label (failing to find a form cannot establish absence, but it is the construction's label).

What counts as evidence, by condition kind (:data:`nclue.labelaudit.realpage_policy.EVIDENCE`, declared once,
with each kind's decision):

* a section condition (``sec:<slug>``): a numbered heading at the left margin of a body page whose title has
  the condition's slug.
  - ``heading_in_contents`` (repair): the RFC's own contents list the same number and title on another page
    (the miner's rule asks for the same page; a contents entry that names the next page is common).
  - ``heading_only`` (drop): the contents do not list it, or the RFC has none: one source.
  - ``heading_fuzzy`` (drop): a heading whose slug is within :func:`fuzzy_bound` edits of the condition's.
* a defined-acronym condition (``def:ACR``): on a body page, after NFKC, case folding, hyphens read as
  spaces and whitespace collapsed,
  - ``definition_variant`` (repair): the lexicon's long form followed by "(ACR)" (lower-case words, "of",
    "for", a line break: the forms the miner's capitalised pattern cannot see);
  - ``definition_reverse`` (repair): "ACR (long form)";
  - ``definition_fuzzy`` (drop): "(ACR)" after words within :func:`fuzzy_bound` edits of the long form.

Each finding also records the search routes that reach its page, as the paper's pool records its routes
(:data:`nclue.labelaudit.realpage_policy.ROUTES`): ``exact`` (the page holds the condition's surface as labelled), ``variant`` (it does after
case, hyphen and whitespace folding), ``fuzzy`` (only the approximate form), ``bm25`` (the page is among the
RFC's three best body pages for the label by the standard-library BM25 of :mod:`nclue.retrieval.index`).

The final copy is the construction copy with every repair's grade raised, minus the queries a drop
removes and the queries whose repaired golds fail a page gate.
"""

import re
from collections import Counter

from ...labelaudit.realpage_policy import EVIDENCE
from ...retrieval.index import TermIndex
from ...retrieval.text import tokens
from .. import construct
from . import fact_miner

BM25_PAGES = 3              # the bm25 route: the RFC's three best body pages for the label


def fold(text):
    """Case folded, hyphens read as spaces, whitespace collapsed.

    >>> fold("Domain-Name\\n   SYSTEM")
    'domain name system'
    """
    return " ".join(text.lower().replace("-", " ").split())


def fuzzy_bound(text):
    """The edits an approximate form may differ by: one per 8 characters, at least 1.

    >>> fuzzy_bound("security considerations"), fuzzy_bound("ack")
    (2, 1)
    """
    return max(1, len(text) // 8)


def within(a, b, bound):
    """Whether the edit distance of ``a`` and ``b`` is at most ``bound`` (banded dynamic programming).

    >>> within("kitten", "sitting", 3), within("kitten", "sitting", 2)
    (True, False)
    """
    if abs(len(a) - len(b)) > bound:
        return False
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        low = max(1, i - bound)
        high = min(len(b), i + bound)
        for j in range(1, len(b) + 1):
            if j < low or j > high:
                current[j] = bound + 1
                continue
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != b[j - 1]))
        if min(current) > bound:
            return False
        previous = current
    return previous[len(b)] <= bound


class RfcPages:
    """One sampled RFC as the audit reads it: its body pages (folded), numbered headings and contents."""

    def __init__(self, pages):
        self.pages = pages
        self.entries, toc_pages = fact_miner.contents(pages)
        self.body = fact_miner.body_pages(pages, toc_pages)
        body = set(self.body)
        self.headings = [(number, surface, i) for number, surface, i in fact_miner.headings(pages, toc_pages)
                         if i in body]
        self.folded = {i: fold(pages[i]) for i in self.body}
        self._index = None

    def listed(self, number, surface):
        """Whether the contents list ``number`` with ``surface``'s title (first 20 characters), on any page."""
        entry = self.entries.get(number)
        if not entry:
            return False
        key = fact_miner.title_key(surface)
        prefix = fact_miner.TITLE_PREFIX
        return entry[0].startswith(key[:prefix]) or key.startswith(entry[0][:prefix])

    def best_pages(self, text):
        """The RFC's :data:`BM25_PAGES` best body pages (0-based) for ``text`` by BM25 over its body pages."""
        if self._index is None:
            self._index = TermIndex([Counter(tokens(self.pages[i])) for i in self.body])
        scores = self._index.bm25(tokens(text))
        ranked = sorted(scores.items(), key=lambda t: (-t[1], t[0]))[:BM25_PAGES]
        return {self.body[unit] for unit, score in ranked if score > 0.0}


def _section_findings(rfc, cid, label, slug_of):
    """``[(kind, page index)]`` of a section condition on one RFC."""
    target = cid[4:]
    out = []
    for number, surface, i in rfc.headings:
        slug = slug_of(fact_miner.title_key(surface))[4:]
        if slug == target:
            out.append(("heading_in_contents" if rfc.listed(number, surface) else "heading_only", i))
        elif within(slug, target, fuzzy_bound(target)):
            out.append(("heading_fuzzy", i))
    return out


def _definition_findings(rfc, acronym, long_form):
    """``[(kind, page index)]`` of a defined-acronym condition on one RFC."""
    form, acr = fold(long_form), acronym.lower()
    forward, reverse = "%s (%s)" % (form, acr), "%s (%s)" % (acr, form)
    words = len(form.split())
    bound = fuzzy_bound(form)
    marker = re.compile(r"\(%s\)" % re.escape(acr))
    out = []
    for i in rfc.body:
        text = rfc.folded[i]
        if forward in text:
            out.append(("definition_variant", i))
        elif reverse in text:
            out.append(("definition_reverse", i))
        else:
            for match in marker.finditer(text):
                before = text[:match.start()].split()[-words:]
                if before and within(" ".join(before), form, bound):
                    out.append(("definition_fuzzy", i))
                    break
    return out


def _routes(rfc, kind, page, surface, label):
    routes = []
    if surface in rfc.pages[page]:
        routes.append("exact")
    if fold(surface) in rfc.folded[page]:
        routes.append("variant")
    if kind.endswith("_fuzzy"):
        routes.append("fuzzy")
    if page in rfc.best_pages(label):
        routes.append("bm25")
    return routes


def findings(rfc, condition, slug_of):
    """The audit's finding on one (subset RFC, missing condition): ``None`` when nothing is found, else
    ``(kind, page index, routes)`` of the strongest evidence (a repair's before a drop's; then the first
    page)."""
    if condition["kind"] == "section":
        found = _section_findings(rfc, condition["cid"], condition["label"], slug_of)
        surface = condition["label"]
    else:
        acronym = condition["cid"][4:]
        long_form = condition["aliases"][0]
        found = _definition_findings(rfc, acronym, long_form)
        surface = "%s (%s)" % (long_form, acronym)
    if not found:
        return None
    kind, page = min(found, key=lambda f: (EVIDENCE[f[0]].decision != "repair", f[1], f[0]))
    return kind, page, _routes(rfc, kind, page, surface, condition["label"])


def _search(queries, by_query, has, by_cid, pages_of, slug_of):
    """Every (subset RFC, missing condition) searched: ``(records, repaired, dropped, searched)``."""
    rfcs, records, repaired, dropped, searched = {}, [], {}, set(), 0
    for query in queries:
        qid, n = query["qid"], query["n"]
        for row in by_query.get(qid, ()):
            docid = row["docid"]
            if row["grade"] >= n:
                continue
            missing = [c["cid"] for c in query["conditions"] if (docid, c["cid"]) not in has]
            searched += len(missing)
            if docid not in rfcs:
                rfcs[docid] = RfcPages(pages_of[docid])
            for cid in missing:
                found = findings(rfcs[docid], by_cid[cid], slug_of)
                if found is None:
                    continue
                kind, page, routes = found
                decision = EVIDENCE[kind].decision
                records.append({"cid": cid, "decision": decision, "docid": docid, "evidence": kind,
                                "page": page + 1, "qid": qid, "routes": routes, "synthetic": False})
                if decision == "repair":
                    repaired.setdefault((qid, docid), {})[cid] = page + 1
                else:
                    dropped.add(qid)
    return records, repaired, dropped, searched


def _final_copy(queries, by_query, has, repaired, dropped):
    """``(final rows, {removed qid: "drop" | "gate"})``: the construction rows with the repairs' grades raised,
    without the dropped queries and those whose repaired golds fail a page gate."""
    removed = {qid: "drop" for qid in dropped}
    final = []
    for query in queries:
        qid, n = query["qid"], query["n"]
        if qid in removed:
            continue
        rows = []
        for row in by_query.get(qid, ()):
            gained = repaired.get((qid, row["docid"]), {})
            rows.append(dict(row, grade=row["grade"] + len(gained)))
            if gained and row["grade"] + len(gained) == n:
                page_sets = [has.get((row["docid"], c["cid"])) or [gained[c["cid"]]] for c in query["conditions"]]
                if not construct.passes_gates(page_sets):
                    removed[qid] = "gate"
        if qid not in removed:
            final += rows
    return final, removed


def audit(queries, qrels, inventory, catalog, pages_of, slug_of):
    """``(records, final rows, removed qids, info)``: the audit's records (one per finding), the final copy's
    rows, the removed queries in qid order, and the counts build.json records.

    ``qrels``: the construction rows; ``inventory``: its rows; ``pages_of``: ``{docid: [page text]}``;
    ``slug_of``: a title key's condition id (:func:`.v3_writer.section_cid`)."""
    by_query = {}
    for row in qrels:
        by_query.setdefault(row["qid"], []).append(row)
    has = {(row["docid"], row["cid"]): row["pages"] for row in inventory}
    records, repaired, dropped, searched = _search(queries, by_query, has, {c["cid"]: c for c in catalog},
                                                   pages_of, slug_of)
    final, removed = _final_copy(queries, by_query, has, repaired, dropped)
    kinds = Counter(r["evidence"] for r in records)
    info = {"pairs_searched": searched, "findings": len(records),
            "findings_by_evidence": {k: kinds.get(k, 0) for k in EVIDENCE},
            "repairs": sum(1 for r in records if r["decision"] == "repair"),
            "queries_removed_by_drop": sum(1 for v in removed.values() if v == "drop"),
            "queries_removed_by_gate": sum(1 for v in removed.values() if v == "gate"),
            "pairs_with_grades_raised": sum(1 for qid, _ in repaired if qid not in removed)}
    return records, final, sorted(removed), info
