"""RealPage's automatic audit policy, declared once (docs/realpage.md#the-audit; paper supplement 10.2.2).

The paper's evidence-asymmetric policy, fixed before any audit output was seen: evidence on which two
sources agree promotes a subset pair (a repair); evidence of one source, or of an approximate form, leaves
the label in doubt and drops the query; finding nothing keeps the construction's label.  The builder's audit
(:mod:`nclue.builder.realpage.v3_audit`) finds the evidence; ``v3.genealogy`` re-derives the final copy from
the released records under this same table.

>>> EVIDENCE["heading_in_contents"].decision, EVIDENCE["definition_fuzzy"].decision
('repair', 'drop')
"""

from typing import NamedTuple

from ..core import layout
from ..core.jsonio import Row, iter_jsonl, show_value


class Evidence(NamedTuple):
    decision: str           # repair | drop
    condition_kind: str     # the condition kind it applies to: section | entity (a defined acronym)
    description: str


# every form the audit searches for, declared once, in the order a pair's strongest evidence is chosen within its
# decision (docs/realpage.md#the-audit)
EVIDENCE = {
    "heading_in_contents": Evidence("repair", "section", "a numbered body-page heading with the condition's slug "
                                                         "that the RFC's contents list under the same number (the "
                                                         "miner's own rule re-read: a heading the construction missed)"),
    "heading_only": Evidence("drop", "section", "a numbered body-page heading with the condition's slug that the "
                                                "contents do not list (one source)"),
    "heading_unnumbered": Evidence("drop", "section", "an unnumbered line at the left margin that is the condition's "
                                                      "title, between blank lines (a heading without a number)"),
    "heading_fuzzy": Evidence("drop", "section", "a numbered body-page heading whose title differs from the condition's "
                                                 "only by misspelled long words (each differing word of at least 5 "
                                                 "letters, within one edit per 8 characters of the title)"),
    "definition_variant": Evidence("repair", "entity", "the sense's long form then '(ACR)' or '(ACRs)' in running "
                                                       "prose, after case, hyphen, whitespace and plural folding"),
    "definition_reverse": Evidence("repair", "entity", "'ACR (long form)' in running prose, folded the same way"),
    "definition_glossary": Evidence("repair", "entity", "a glossary line 'ACR: long form', 'ACR = long form' or "
                                                        "'ACR - long form', or 'ACR   long form' under a heading of "
                                                        "terminology, abbreviations, acronyms, definitions or a "
                                                        "glossary, folded the same way"),
    "definition_in_table": Evidence("drop", "entity", "the long form then '(ACR)', or 'ACR (long form)', on a line "
                                                      "laid out in columns or a table page: a table, figure or index "
                                                      "entry, which may name the acronym without defining it"),
    "definition_lowercase": Evidence("drop", "entity", "the long form then '(acr)', or 'acr (long form)', with the "
                                                       "acronym written with fewer than two capitals ('common name "
                                                       "(cn)'): an abbreviation, not an acronym as the labels read one"),
    "definition_fuzzy": Evidence("drop", "entity", "'(ACR)' after words within the fuzzy bound of the long form"),
}
DECISIONS = ("repair", "drop")
# the search routes a finding's page is reached by (the paper's pool routes): the surface as labelled, after
# folding, only the approximate form, and the RFC's best body pages for the label by BM25
ROUTES = ("exact", "variant", "fuzzy", "bm25")


class Finding(NamedTuple):
    """One released audit record (``data/v3/audit.jsonl``)."""
    qid: str
    docid: str
    cid: str
    evidence: str
    decision: str
    page: int
    routes: tuple


def load_findings(root, rel, queries, corpus, conditions, inventory, construction):
    """``data/v3/audit.jsonl`` validated against the release (docs/schema.md#realpage-datav3): ``{(qid, docid,
    cid): Finding}``.  Each row names a subset pair of the construction copy (``0 < grade < n``) and a condition of
    its query that the inventory does not give the document; ``evidence`` is a kind of :data:`EVIDENCE` for the
    condition's kind, ``decision`` the one the policy gives it, ``page`` one of the document's pages, ``routes``
    distinct :data:`ROUTES`.  A defect is an :class:`~nclue.core.errors.InputError` at file:line:field."""
    out = {}
    for line, obj in iter_jsonl(layout.abspath(root, rel), rel):
        row = Row(obj, rel, line)
        qid, docid, cid = row.str("qid"), row.str("docid"), row.str("cid")
        if qid not in queries:
            raise row.unknown_query(qid)
        if docid not in corpus:
            raise row.error("docid", "unknown document %s" % show_value(docid))
        query = queries[qid]
        if cid not in [c.cid for c in query.conditions]:
            raise row.error("cid", "%s is not a condition of %s" % (show_value(cid), qid))
        grade = construction.get(qid, {}).get(docid, 0)
        if not 0 < grade < query.n:
            raise row.error("docid", "(%s, %s) has construction grade %d: not a subset pair" % (qid, docid, grade))
        if (docid, cid) in inventory:
            raise row.error("cid", "the inventory already gives %s the condition %s" % (docid, cid))
        kind = row.str("evidence", choices=tuple(EVIDENCE))
        if EVIDENCE[kind].condition_kind != conditions[cid].kind:
            raise row.error("evidence", "%s is evidence for a %s condition; %s is %s" % (
                kind, EVIDENCE[kind].condition_kind, cid, conditions[cid].kind))
        decision = row.str("decision", choices=DECISIONS)
        if decision != EVIDENCE[kind].decision:
            raise row.error("decision", "expected %s for %s evidence (the policy), found %s" % (
                EVIDENCE[kind].decision, kind, decision))
        page = row.int("page", 1, corpus[docid].pages)
        routes = row.list("routes")
        if not all(isinstance(r, str) and r in ROUTES for r in routes) or len(set(routes)) != len(routes):
            raise row.error("routes", "must be distinct routes of %s, got %s" % (", ".join(ROUTES), show_value(routes)))
        if (qid, docid, cid) in out:
            raise row.error("cid", "duplicate finding for (%s, %s, %s)" % (qid, docid, cid))
        out[(qid, docid, cid)] = Finding(qid, docid, cid, kind, decision, page, tuple(routes))
    return out
