"""RealPage's automatic expanded-page audit (docs/realpage.md#the-audit; paper section 3.2, supplement 10.2-10.4).

For every subset RFC of every query and every condition of the query the RFC lacks, the audit reads all of
the RFC as :class:`.fact_miner.Reading` reads it (the expanded pages: not only the pages the construction
matched) for evidence that the RFC has the condition after all.  The policy is the paper's evidence-asymmetric one, fixed before any
audit output was seen: evidence that two sources agree on promotes the pair (a repair), evidence of one
source or of an approximate form leaves the label in doubt and drops the query, and finding nothing keeps
the label (failing to find a form cannot establish absence, but it is the construction's label).

What counts as evidence, by condition kind (:data:`nclue.labelaudit.realpage_policy.EVIDENCE`, declared once,
with each kind's decision):

* a section condition (``sec:<slug>``): a numbered heading at the left margin of a body page whose title has
  the condition's slug.
  - ``heading_in_contents`` (repair): the RFC's own contents list the same number and title (the miner's own
    rule, re-read on the audit's folded titles: a heading the construction missed).
  - ``heading_only`` (drop): the contents do not list it, or the RFC has none: one source.
  - ``heading_fuzzy`` (drop): a heading whose slug is within :func:`fuzzy_bound` edits of the condition's.
* a defined-acronym condition (``def:ACR``): on a body page, after NFKC, case folding, hyphens read as
  spaces and whitespace collapsed,
  - ``definition_variant`` (repair): the lexicon's long form followed by "(ACR)" (lower-case words, "of",
    "for", a line break: the forms the miner's capitalised pattern cannot see);
  - ``definition_reverse`` (repair): "ACR (long form)";
  - ``definition_lowercase`` (drop): either form with the acronym written with fewer than two capitals
    ("common name (cn)"): an abbreviation, not an acronym as the labels read one;
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
WRITTEN = (re.compile(r"\(\s*([A-Za-z0-9]+)\s*\)"), re.compile(r"(?<![A-Za-z0-9])([A-Za-z0-9]+)\s+\("))  # (ACR), ACR (


def fold(text):
    """Case folded, a hyphen between two letters or digits read as a space, whitespace collapsed.  A dash that
    joins no words ("Protocol ------- (ICMP)", a list's leader) stays, and separates what it stands between.

    >>> fold("Domain-Name\\n   SYSTEM"), fold("Message Protocol ----- (ICMP)")
    ('domain name system', 'message protocol ----- (icmp)')
    """
    return " ".join(re.sub(r"(?<=[A-Za-z0-9])-(?=[A-Za-z0-9])", " ", text).lower().split())


fuzzy_bound, within = fact_miner.fuzzy_bound, fact_miner.within


class RfcPages:
    """One sampled RFC as the audit reads it: its body pages (where headings are read) and its document pages
    (the title page and the body pages, where definitions are read: :class:`.fact_miner.Reading`), their running
    prose and their column lines (each folded), its numbered headings with the heading each line falls under, and
    its contents."""

    def __init__(self, pages):
        reading = fact_miner.Reading(pages)
        self.pages = reading.text
        self.entries = reading.entries
        self.body = reading.body
        self.headings = reading.headings()
        self.document = reading.document
        self.prose, self.written, self.tables = {}, {}, {}
        for i in self.document:
            prose = fact_miner.prose(self.pages[i])
            self.prose[i] = fold(prose)
            self.written[i] = {fact_miner.acronym_of(token) for pattern in WRITTEN
                               for token in pattern.findall(prose)} - {None}
            kept = set(prose.split("\n"))
            self.tables[i] = fold("\n".join(line for line in self.pages[i].split("\n") if line not in kept))
        self.folded = {i: fold(self.pages[i]) for i in self.document}
        self._index = None

    def listed(self, number, surface):
        """Whether the contents list ``number`` with ``surface``'s title (first 20 characters)."""
        entry = self.entries.get(number)
        if entry is None:
            return False
        key = fact_miner.title_key(surface)
        prefix = fact_miner.TITLE_PREFIX
        return entry.startswith(key[:prefix]) or key.startswith(entry[:prefix])

    def best_pages(self, text):
        """The RFC's :data:`BM25_PAGES` best body pages (0-based) for ``text`` by BM25 over its body pages."""
        if not self.body:
            return set()
        if self._index is None:
            self._index = TermIndex([Counter(tokens(self.pages[i])) for i in self.body])
        scores = self._index.bm25(tokens(text))
        ranked = sorted(scores.items(), key=lambda t: (-t[1], t[0]))[:BM25_PAGES]
        return {self.body[unit] for unit, score in ranked if score > 0.0}


FUZZY_WORD = 5          # a word this long or longer may be misspelled; a shorter one is another word


def near_title(a, b):
    """Whether two section slugs are spellings of one title: the same number of words, every word that differs
    at least :data:`FUZZY_WORD` letters long on both sides and within the title's :func:`fuzzy_bound` ("IANA" and "IAB",
    "IP-MIB" and "IF-MIB" are other sections).

    >>> near_title("notifier-generation-of-notify", "notifier-generating-of-notify"), near_title("iab-x", "iana-x")
    (True, False)
    """
    left, right = a.split("-"), b.split("-")
    if len(left) != len(right) or left == right:
        return False
    bound = fuzzy_bound(b)
    return all(x == y or (min(len(x), len(y)) >= FUZZY_WORD and within(x, y, bound)) for x, y in zip(left, right))


def _section_findings(rfc, cid, label, slug_of):
    """``[(kind, page index)]`` of a section condition on one RFC."""
    target = cid[4:]
    out = []
    for number, surface, i in rfc.headings:
        slug = slug_of(fact_miner.title_key(surface))[4:]
        if slug == target:
            out.append(("heading_in_contents" if rfc.listed(number, surface) else "heading_only", i))
        elif near_title(slug, target):
            out.append(("heading_fuzzy", i))
    key = fact_miner.title_key(label)
    for i in rfc.body:
        lines = rfc.pages[i].split("\n")
        for k, line in enumerate(lines):
            if line[:1] not in (" ", "") and fact_miner.title_key(line) == key and \
                    (k == 0 or not lines[k - 1].strip()) and (k + 1 == len(lines) or not lines[k + 1].strip()):
                out.append(("heading_unnumbered", i))
    return out


def _words(text):
    """The words of folded text, each without the punctuation around it (quotes, brackets, commas).

    >>> _words('"traffic engineering (te)", rfc')
    ['traffic', 'engineering', 'te', 'rfc']
    """
    return [w for w in (word.strip("\"'()[]{}<>,.;:!?") for word in text.split()) if w]


def _sense_before(text, end, words, sense):
    """Whether the ``words`` folded words of ``text`` before position ``end`` are the sense ``sense``."""
    before = _words(text[:end])[-words:]
    return len(before) == words and fact_miner.sense_key(" ".join(before)) == sense


def _sense_after(text, start, words, sense):
    after = _words(text[start:])[:words]
    return len(after) == words and fact_miner.sense_key(" ".join(after)) == sense


def _defines(text, acr, words, sense):
    """``variant`` when folded ``text`` holds the sense then "(acr)" / "(acrs)", ``reverse`` when it holds "acr
    (sense)" / "acrs (sense)", else None."""
    for match in re.finditer(r"\((%s)s?\)" % re.escape(acr), text):
        if _sense_before(text, match.start(), words, sense):
            return "variant"
    for match in re.finditer(r"(?<![a-z0-9])%ss? \(" % re.escape(acr), text):
        if _sense_after(text, match.end(), words, sense):
            return "reverse"
    return None


def _definition_findings(rfc, acronym, long_form):
    """``[(kind, page index)]`` of a defined-acronym condition (one sense) on one RFC."""
    sense, acr = fact_miner.sense_key(long_form), acronym.lower()
    words = len(sense.split())
    bound = fuzzy_bound(sense)
    marker = re.compile(r"\(%ss?\)" % re.escape(acr))
    out = []
    for i in rfc.document:
        found = _defines(rfc.prose[i], acr, words, sense)
        if found:
            out.append(("definition_" + found if acronym in rfc.written[i] else "definition_lowercase", i))
        elif _defines(rfc.tables[i], acr, words, sense):
            out.append(("definition_in_table", i))
        else:
            for match in marker.finditer(rfc.folded[i]):
                before = _words(rfc.folded[i][:match.start()])[-words:]
                if before and within(fact_miner.sense_key(" ".join(before)), sense, bound):
                    out.append(("definition_fuzzy", i))
                    break
    glossary = fact_miner.glossary_lines(rfc.pages, rfc.document)
    for i in rfc.document:
        for k, line in enumerate(fact_miner.prose(rfc.pages[i]).split("\n")):
            match = fact_miner.GLOSSARY_MARKED.match(line) or (
                k in glossary.get(i, ()) and fact_miner.GLOSSARY_LISTED.match(line))
            if match and fact_miner.acronym_of(match.group(1)) == acronym:
                rest = _words(fold(match.group(2)))[:words]
                if len(rest) == words and fact_miner.sense_key(" ".join(rest).rstrip(".,;")) == sense:
                    out.append(("definition_glossary", i))
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
        acronym = condition["mined"]           # the acronym; the id also names its sense
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


def _final_copy(queries, by_query, has, repaired, dropped, cap):
    """``(final rows, {removed qid: "drop" | "gate" | "cap"})``: the construction rows with the repairs' grades
    raised, without the dropped queries, those whose repaired golds fail a page gate, and those in which a repair
    would make an RFC gold in more than ``cap`` final queries (the construction's cap, kept by the final copy:
    the queries are taken in qid order, each RFC's count starting from its construction golds in the queries
    kept so far and to come)."""
    removed = {qid: "drop" for qid in dropped}
    raised, rows_of = {}, {}
    for query in queries:
        if query["qid"] in removed:
            continue
        rows, promoted, gated = _raised_rows(query, by_query.get(query["qid"], ()), has, repaired)
        if gated:
            removed[query["qid"]] = "gate"
        else:
            rows_of[query["qid"]] = rows
            if promoted:
                raised[query["qid"]] = promoted
    n_of = {query["qid"]: query["n"] for query in queries}
    _keep_cap(by_query, n_of, raised, rows_of, removed, cap)
    final = [row for query in queries if query["qid"] in rows_of for row in rows_of[query["qid"]]]
    return final, removed


def _raised_rows(query, rows, has, repaired):
    """``(rows, promoted docids, gated)``: one query's construction rows with the repairs' grades raised, the
    RFCs a repair made gold, and whether one of them fails the page gates with the repairs' pages."""
    qid, n = query["qid"], query["n"]
    out, promoted, gated = [], [], False
    for row in rows:
        gained = repaired.get((qid, row["docid"]), {})
        out.append(dict(row, grade=row["grade"] + len(gained)))
        if gained and row["grade"] + len(gained) == n:
            promoted.append(row["docid"])
            page_sets = [has.get((row["docid"], c["cid"])) or [gained[c["cid"]]] for c in query["conditions"]]
            gated = gated or not construct.passes_gates(page_sets)
    return out, promoted, gated


def _keep_cap(by_query, n_of, raised, rows_of, removed, cap):
    """Remove (in qid order) each promoted query whose repair would make an RFC gold in more than ``cap``
    final queries, counting from the construction golds of the queries kept."""
    golds = Counter(row["docid"] for qid in rows_of for row in by_query[qid] if row["grade"] == n_of[qid])
    for qid in sorted(raised):
        if any(golds[docid] + 1 > cap for docid in raised[qid]):
            removed[qid] = "cap"
            golds.subtract(row["docid"] for row in by_query[qid] if row["grade"] == n_of[qid])
            del rows_of[qid]
        else:
            golds.update(raised[qid])


def audit(queries, qrels, inventory, catalog, pages_of, slug_of, cap):
    """``(records, final rows, removed qids, info)``: the audit's records (one per finding), the final copy's
    rows, the removed queries in qid order, and the counts build.json records.

    ``qrels``: the construction rows; ``inventory``: its rows; ``pages_of``: ``{docid: [page text]}``;
    ``slug_of``: a title key's condition id (:func:`.v3_writer.section_cid`); ``cap``: the most queries an RFC
    may be gold in (the construction's ``max_gold_queries``)."""
    by_query = {}
    for row in qrels:
        by_query.setdefault(row["qid"], []).append(row)
    has = {(row["docid"], row["cid"]): row["pages"] for row in inventory}
    records, repaired, dropped, searched = _search(queries, by_query, has, {c["cid"]: c for c in catalog},
                                                   pages_of, slug_of)
    final, removed = _final_copy(queries, by_query, has, repaired, dropped, cap)
    kinds = Counter(r["evidence"] for r in records)
    info = {"pairs_searched": searched, "findings": len(records),
            "findings_by_evidence": {k: kinds.get(k, 0) for k in EVIDENCE},
            "repairs": sum(1 for r in records if r["decision"] == "repair"),
            "queries_removed_by_drop": sum(1 for v in removed.values() if v == "drop"),
            "queries_removed_by_gate": sum(1 for v in removed.values() if v == "gate"),
            "queries_removed_by_cap": sum(1 for v in removed.values() if v == "cap"),
            "pairs_with_grades_raised": sum(1 for qid, _ in repaired if qid not in removed)}
    return records, final, sorted(removed), info
