"""The construction miner: the inventory construction records, from the text (docs/stand-in.md#the-pipeline).

The page text is generated from the *true* facts; construction does not see
them.  It sees what a mining step finds in the text:

* a true fact page is recorded only where one of the condition's catalog
  surface forms -- its label or an alias, in any case -- occurs on the page:
  a fact stated only in a paraphrase, or garbled by OCR noise, is missed (and
  a fact with no recorded page is absent);
* a mention of a condition the document does not carry (a near-miss, a
  cross-reference, a contents line) becomes a spurious fact with probability
  ``spurious_rate``: a miner that takes "see the companion report on X" for X.

Both releases are built this way; the released ``inventory.jsonl`` is the
miner's, so the qrels follow from it exactly while the truth differs from it
in both directions -- label errors for the audit to find.
"""

from ..core.rng import Stream

_PER_MILLION = 1_000_000


def mine(spurious_rate, seed, docs, truth_rows, source, catalog):
    """The miner's inventory rows and counts: ``(rows, info)`` (see module doc)."""
    by_cid = {c["cid"]: c for c in catalog}
    forms = {cid: [f.lower() for f in [c["label"]] + list(c["aliases"])] for cid, c in by_cid.items()}
    by_doc = {}
    for row in truth_rows:
        by_doc.setdefault(row["docid"], []).append(row)
    threshold = int(spurious_rate * _PER_MILLION)
    out, missed, missed_pages, spurious = [], 0, 0, 0
    for doc in docs:
        docid = doc["docid"]
        stream = Stream.derived(seed, "miner", docid)
        kept = {}
        for row in by_doc.get(docid, []):
            visible = []
            for page in row["pages"]:
                text = source.page(docid, page).lower()
                if any(f in text for f in forms[row["cid"]]):
                    visible.append(page)
                else:
                    missed_pages += 1
            if not visible:
                missed += 1
                continue
            kept[row["cid"]] = visible
        own = {row["cid"] for row in by_doc.get(docid, [])}
        for cid, page, _kind in source.plan(docid).non_facts:
            if cid in own:
                continue            # a cross-reference to a carried condition adds nothing at document level
            if stream.randbelow(_PER_MILLION) < threshold:
                pages = kept.setdefault(cid, [])
                if page not in pages:
                    pages.append(page)
                    spurious += 1
        for cid in sorted(kept):
            out.append({"docid": docid, "cid": cid, "pages": sorted(kept[cid])})
    return out, {"truth_facts": len(truth_rows), "missed_facts": missed, "missed_fact_pages": missed_pages,
                 "spurious_facts": spurious, "miner_rows": len(out)}
