"""The construction miner: the inventory construction records, from the text (docs/stand-in.md#the-pipeline).

The page text is generated from the *true* facts; construction does not see
them.  It sees what a mining step and a semantic read find in the text, as
the paper's construction did (supplement section 11: surface forms are mined,
then the pages where they occur are read and each condition confirmed or not):

* **the miner's lexicon**: a condition's label and the catalog aliases that
  survived the construction's surface-form clustering -- each alias with
  probability ``alias_recall`` (drawn once per alias);
* **surface match**: a statement of a true fact (a heading line or a sentence,
  :class:`nclue.builder.page_text.Statement`) is matched when it contains a lexicon
  form in any case.  A fact stated only in a paraphrase, under an alias the
  lexicon lacks, or garbled by OCR noise is not matched on that page;
* **semantic read**: on a page with matched statements the read confirms the
  fact with probability ``1 - (1 - read_recall) ** k`` for ``k`` matched
  statements (each statement is one more chance to be convinced); an
  unconfirmed page is dropped.  A true fact none of whose pages is kept is
  missed;
* **false positives**: a mention of a condition the document does not carry
  (a near-miss, a cross-reference, a contents line) becomes a spurious fact
  with probability ``spurious_rate``.

Misses are the dominant error (as in the paper, whose audits mostly promote
subsets to gold); the three rates are declared build parameters
(:class:`MinerConfig`, recorded in ``build.json``).  Both releases are built
this way; the released ``inventory.jsonl`` is the miner's, so the construction
qrels follow from it exactly while the truth differs from it -- label errors
for the audit to find.
"""

from dataclasses import dataclass

from ..core.rng import Stream

_PER_MILLION = 1_000_000


@dataclass(frozen=True)
class MinerConfig:
    """The construction miner's error rates (docs/stand-in.md#the-pipeline)."""
    alias_recall: float = 0.5     # P(a catalog alias is in the miner's lexicon) (stated)
    read_recall: float = 1.0      # P(the semantic read is convinced by one matched statement)
    spurious_rate: float = 0.08   # P(a mention that establishes nothing is taken for a fact)


def lexicon(cfg, seed, catalog):
    """``{cid: [lower-case forms]}``: each condition's label and the aliases the miner kept."""
    threshold = int(cfg.alias_recall * _PER_MILLION)
    out = {}
    for c in catalog:
        stream = Stream.derived(seed, "miner-lexicon", c["cid"])
        kept = [a for a in c["aliases"] if stream.randbelow(_PER_MILLION) < threshold]
        out[c["cid"]] = [f.lower() for f in [c["label"]] + kept]
    return out


def _visible_pages(row, source, forms, stream, read_threshold, counts):
    """The pages of one true fact (``row``: docid, cid, pages) the miner sees: a page whose statements of the
    fact carry one of its surface ``forms``, and where one of those statements is read (a draw below
    ``read_threshold`` per million per statement, from the document's ``stream``); ``counts`` records the pages
    missed at the surface and in the reading."""
    docid, cid, visible = row["docid"], row["cid"], []
    for page in row["pages"]:
        matched = sum(1 for s in source.statements(docid, page)
                      if s.cid == cid and any(f in s.text.lower() for f in forms))
        if not matched:
            counts["missed_fact_pages_surface"] += 1
            continue
        draws = [stream.randbelow(_PER_MILLION) for _ in range(matched)]
        if min(draws) >= read_threshold:
            counts["missed_fact_pages_read"] += 1
            continue
        visible.append(page)
    return visible


def _add_spurious(docid, own, kept, source, stream, spurious_threshold, counts):
    """The miner's spurious facts: each mention that establishes nothing (``plan(docid).non_facts``) of a
    condition the document does not carry (``own``) is taken as a fact with ``spurious_threshold`` per million,
    its page added to ``kept``."""
    for cid, page, _kind in source.plan(docid).non_facts:
        if cid in own:
            continue            # a cross-reference to a carried condition adds nothing at document level
        if stream.randbelow(_PER_MILLION) < spurious_threshold:
            pages = kept.setdefault(cid, [])
            if page not in pages:
                pages.append(page)
                counts["spurious_facts"] += 1


def mine(cfg, seed, docs, truth_rows, source, catalog):
    """The miner's inventory rows and counts: ``(rows, info)`` (see module doc).

    ``source`` gives ``statements(docid, page)`` (the statements of the page's true facts) and
    ``plan(docid).non_facts`` (the mentions that establish nothing)."""
    forms = lexicon(cfg, seed, catalog)
    by_doc = {}
    for row in truth_rows:
        by_doc.setdefault(row["docid"], []).append(row)
    read_threshold = int(cfg.read_recall * _PER_MILLION)
    spurious_threshold = int(cfg.spurious_rate * _PER_MILLION)
    out = []
    counts = {"missed_facts": 0, "missed_fact_pages_surface": 0, "missed_fact_pages_read": 0, "spurious_facts": 0}
    for doc in docs:
        docid = doc["docid"]
        stream = Stream.derived(seed, "miner", docid)
        kept = {}
        for row in by_doc.get(docid, []):
            visible = _visible_pages(row, source, forms[row["cid"]], stream, read_threshold, counts)
            if not visible:
                counts["missed_facts"] += 1
                continue
            kept[row["cid"]] = visible
        own = {row["cid"] for row in by_doc.get(docid, [])}
        _add_spurious(docid, own, kept, source, stream, spurious_threshold, counts)
        for cid in sorted(kept):
            out.append({"docid": docid, "cid": cid, "pages": sorted(kept[cid])})
    info = {"truth_facts": len(truth_rows), "miner_rows": len(out),
            "lexicon_aliases": sum(len(f) - 1 for f in forms.values()),
            "catalog_aliases": sum(len(c["aliases"]) for c in catalog)}
    info.update(counts)
    return out, info
