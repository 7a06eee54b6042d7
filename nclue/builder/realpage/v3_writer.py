"""Build RealPage's construction (``data/v3``) from the pinned packages (docs/realpage.md; paper section 3.2).

Order: the packages' RFC texts -> every RFC's page count -> the seeded sample -> the sample's pages and facts
-> the lexicon -> conditions and inventory -> seeded query draws under the gates -> the construction qrels
(exact clue counts).  Nothing here is synthetic and no page text is written: the corpus records each page's
SHA-256, and the text is rebuilt from the packages.

The queries are drawn from every admissible conjunction, tilted by structure to the paper's Table 1
(:mod:`.query_draws`); their natural form says what each condition asks (:func:`nclue.core.renderings.natural_by_kind`).
"""

import re
from hashlib import sha256
from typing import NamedTuple

from ... import __version__
from ...core import layout
from ...core import renderings as forms
from .. import construct
from ..crosspage import genealogy_record
from . import fact_miner, packages, query_draws, sample, settings, v3_audit, v3_neural, v3_rankings
from . import pages as page_text


def section_cid(key):
    """A section condition's id: ``sec:`` and the title's slug (at most 52 characters: a longer slug keeps 43
    and a hash of the title).  Titles with the same slug are one condition.

    >>> section_cid("security considerations"), section_cid("ipv6/ipv4 translation")
    ('sec:security-considerations', 'sec:ipv6-ipv4-translation')
    """
    slug = re.sub(r"[^a-z0-9]+", "-", key).strip("-") or "untitled"
    if len(slug) > 52:
        slug = slug[:43].rstrip("-") + "-" + sha256(key.encode("utf-8")).hexdigest()[:8]
    return "sec:" + slug


def _most_common(counts):
    return min(counts, key=lambda value: (-counts[value], value))


def _year(meta):
    found = re.search(r"(1[89]\d\d|20\d\d)\s*$", str(meta.get("pub_date", "")))
    return int(found.group(1)) if found else 0


def read_corpus(folder, seed, log=print):
    """``(texts, counts)``: the packages' RFCs (:func:`.packages.read_texts`) and ``{number: pages}`` of those
    whose text has pages (:func:`.pages.paginated`), the RFCs the sample is drawn from."""
    texts = packages.read_texts(folder)
    counts = {}
    for number in sorted(texts):
        package, data, _ = texts[number]
        pages = page_text.split_pages(packages.rfc_text(data, "%s: rfc%d.txt.gz" % (package, number)))
        if page_text.paginated(pages):
            counts[number] = len(pages)
    log("realpage: %d RFC texts in %d packages, %d with pages" % (len(texts), len(packages.PACKAGES), len(counts)))
    return texts, counts


def _meta(data, where):
    import json
    if data is None:
        return {}
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise packages.PackageError("%s: metadata does not decode: %s" % (where, str(exc)[:120])) from exc
    return value if isinstance(value, dict) else {}


def mine_sample(texts, numbers):
    """The sampled RFCs' corpus rows, facts and page texts: ``(docs, facts, {docid: [page text]})``, in
    RFC-number order."""
    docs, facts, pages_of = [], {}, {}
    for number in numbers:
        package, data, meta_bytes = texts[number]
        where = "%s: rfc%d" % (package, number)
        pages = page_text.split_pages(packages.rfc_text(data, where))
        meta = _meta(meta_bytes, where)
        docid = settings.DOCID_FORMAT % number
        docs.append({"docid": docid, "package": package, "page_sha256": [page_text.page_sha256(p) for p in pages],
                     "pages": len(pages), "source": "rfc", "synthetic": False,
                     "title": " ".join(str(meta.get("title", "")).split()), "year": _year(meta)})
        facts[docid] = fact_miner.mine(pages)
        pages_of[docid] = pages
    return docs, facts, pages_of


def sense_cid(acronym, sense):
    """A defined sense's condition id: ``def:``, the acronym and the sense's slug (at most 40 characters: a
    longer slug keeps 31 and a hash of the sense).

    >>> sense_cid("DS", "differentiated service"), sense_cid("DS", "delegation signer")
    ('def:DS:differentiated-service', 'def:DS:delegation-signer')
    """
    slug = re.sub(r"[^a-z0-9]+", "-", sense).strip("-") or "sense"
    if len(slug) > 40:
        slug = slug[:31].rstrip("-") + "-" + sha256(sense.encode("utf-8")).hexdigest()[:8]
    return "def:%s:%s" % (acronym, slug)


def plain_label(text):
    """A label as a query quotes it: its double quotes made single, so that the quoted label nests none.

    >>> plain_label('The "tls-unique" Channel Binding')
    "The 'tls-unique' Channel Binding"
    """
    return text.replace('"', "'")


def conditions_and_inventory(facts, lexicon):
    """The catalog (sorted by cid) and the inventory rows (by docid, then cid), pages 1-based.  A section
    condition is a confirmed heading's title; a defined-acronym condition is one sense of the lexicon
    (:func:`.fact_miner.lexicon`), held by the RFCs that define that sense in one of its spellings
    (:func:`.fact_miner.senses`); its label is the long form and the acronym as the RFCs most often write them
    (:func:`.fact_miner.spellings`: "Quality of Service (QoS)"), its ``mined`` word the acronym in capitals."""
    canonical = fact_miner.senses(facts)
    written = fact_miner.spellings(facts)
    surfaces, pages_of, senses = {}, {}, {}
    for docid in sorted(facts):
        mined = facts[docid]
        for key, (surface, indices) in mined["sections"].items():
            cid = section_cid(key)
            surfaces.setdefault(cid, {}).setdefault(surface, 0)
            surfaces[cid][surface] += 1
            pages_of.setdefault((docid, cid), set()).update(i + 1 for i in indices)
        for raw, indices in mined["defined"].items():
            sense = canonical[raw]
            if sense in lexicon:
                cid = sense_cid(*sense)
                senses[cid] = sense
                pages_of.setdefault((docid, cid), set()).update(i + 1 for i in indices)
    catalog = []
    for cid in sorted({cid for _, cid in pages_of}):
        if cid.startswith("sec:"):
            label = plain_label(_most_common(surfaces[cid]))
            catalog.append({"aliases": [], "cid": cid, "kind": "section", "label": label, "mined": label,
                            "synthetic": False})
        else:
            acronym, sense = senses[cid]
            long_form = plain_label(lexicon[(acronym, sense)])
            catalog.append({"aliases": [long_form], "cid": cid, "kind": "entity",
                            "label": "%s (%s)" % (long_form, written[(acronym, sense)]), "mined": acronym,
                            "synthetic": False})
    inventory = [{"cid": cid, "docid": docid, "pages": sorted(p)} for (docid, cid), p in sorted(pages_of.items())]
    return catalog, inventory


class Sample(NamedTuple):
    """The sampled RFCs mined: what the queries are drawn from."""
    n_texts: int        # RFC texts in the packages
    n_paginated: int    # those whose text has pages (the sample's population)
    docs: list          # corpus rows
    pages_of: dict      # {docid: [page text]}
    lexicon: dict       # {(acronym, sense): long form}
    catalog: list
    inventory: list
    index: object       # construct.Index


def mined_sample(folder, seed=settings.SEED, strata=settings.STRATA, log=print):
    """The packages' RFCs, the seeded sample of them, its pages, facts, lexicon, conditions and inventory."""
    texts, counts = read_corpus(folder, seed, log)
    numbers = sample.draw(counts, seed, strata)
    docs, facts, pages_of = mine_sample(texts, numbers)
    n_texts, n_paginated = len(texts), len(counts)
    del texts                       # the packages' compressed texts are not needed past the sample
    lexicon = fact_miner.lexicon(facts)
    catalog, inventory = conditions_and_inventory(facts, lexicon)
    log("realpage: sample of %d RFCs, %d pages; %d conditions, %d inventory rows" % (
        len(docs), sum(d["pages"] for d in docs), len(catalog), len(inventory)))
    return Sample(n_texts, n_paginated, docs, pages_of, lexicon, catalog, inventory,
                  construct.Index(docs, catalog, inventory))


def build(folder, seed=settings.SEED, log=print, cfg=settings.CONSTRUCTION, strata=settings.STRATA, rankings=True,
          neural=None):
    """Every row of ``data/v3`` and its build record, from the packages in ``folder`` (``cfg`` and ``strata``:
    the construction and the sample's bins, :mod:`.settings`'s unless a test gives smaller ones; ``rankings``:
    False leaves the systems unrun, for the tests that check the construction alone; ``neural``: the checked
    dense runs to ship beside them, :class:`.v3_neural.DenseRuns`, or None)."""
    mined = mined_sample(folder, seed, strata, log)
    n_texts, n_paginated, docs, pages_of, lexicon, catalog, inventory, index = mined
    chosen, draws = query_draws.select(index, seed, cfg)
    queries, qrels = [], []
    for i, conj in enumerate(chosen):
        query, rows = construct.query_and_qrels("%s%04d" % (settings.QID_PREFIX, i), catalog, index, conj,
                                                synthetic=False, render=forms.render_by_kind)
        queries.append(query)
        qrels += rows
    log("realpage: %d queries, %d construction qrel rows (%s)" % (len(queries), len(qrels), draws))
    records, final, removed, audit_info = v3_audit.audit(queries, qrels, inventory, catalog, pages_of, section_cid,
                                                         cfg.max_gold_queries)
    changed = audit_info["pairs_with_grades_raised"]
    genealogy = genealogy_record(layout.REALPAGE.copies, queries, ((qrels, [], 0), (final, removed, changed)),
                                 GENEALOGY_NOTE, synthetic=False)
    log("realpage audit: %d pairs searched, %d findings, %d repairs, %d queries removed" % (
        audit_info["pairs_searched"], len(records), audit_info["repairs"], len(removed)))
    kinds = {}
    for row in inventory:
        kind = "section" if row["cid"].startswith("sec:") else "defines"
        kinds[kind] = kinds.get(kind, 0) + 1
    info = {
        "instrument": "RealPage: IETF RFCs from Debian's doc-rfc %s packages (real documents, not the paper's)"
                      % packages.VERSION,
        "synthetic": False,
        "edition": settings.EDITION,
        "nature": "real documents that are not the paper's; lexical-presence labels confirmed by two sources, "
                  "not support judged by people (docs/realpage.md#what-the-labels-mean)",
        "command": "python -m nclue build --target realpage --packages DIR --realpage-seed %d%s" % (
            seed, " --neural-runs RUNS" if neural else ""),
        "generator_version": __version__,
        "seed": seed,
        "packages": {name: {"version": packages.VERSION, "sha256": digest}
                     for name, digest in sorted(packages.PACKAGES.items())},
        "construction": dict(vars(cfg), **draws),
        "audit": audit_info,
        "counts": {"rfc_texts": n_texts, "paginated_rfc_texts": n_paginated, "sampled_rfcs": len(docs), "pages": sum(d["pages"] for d in docs),
                   "conditions": len(catalog), "inventory_rows": len(inventory),
                   "inventory_rows_by_fact": dict(sorted(kinds.items())), "lexicon_senses": len(lexicon),
                   "queries": len(queries), "qrel_rows": len(qrels)},
        "strata": [{"first": first, "last": last, "rfcs": count} for first, last, count in strata],
    }
    if rankings:
        declared = v3_rankings.systems_record(neural is not None)
        info["rankings"] = {"form": layout.RAW.key, "systems": len(declared["systems"]),
                            "forms": [form.key for form in v3_rankings.FORMS],
                            "form_systems": len(declared["form_systems"])}
        if neural is not None:
            info["rankings"]["dense"] = {"record": RELEASE.neural, "model": neural.record.get("model"),
                                         "systems": len(neural.record["systems"])}
    ranked = v3_rankings.rank(pages_of, [d["docid"] for d in docs], catalog, inventory, queries, seed, log) \
        if rankings else []
    return {"corpus": docs, "conditions": [{k: v for k, v in c.items() if k != "mined"} for c in catalog],
            "inventory": inventory, "queries": queries, "qrels_construction": qrels, "qrels": final,
            "audit": records, "genealogy": genealogy, "build": info, "rankings": ranked}


RELEASE = layout.REALPAGE
FILES = (("corpus", RELEASE.corpus), ("conditions", RELEASE.conditions), ("inventory", RELEASE.inventory),
         ("queries", RELEASE.queries), ("qrels_construction", RELEASE.copy("construction").path),
         ("audit", layout.REALPAGE.audit_records), ("qrels", RELEASE.qrels))
GENEALOGY_NOTE = (
    "RealPage's qrel copies: the construction copy from the miner's inventory, and the final copy (the construction "
    "copy with the automatic expanded-page audit's repairs applied, without the queries its drops and the page "
    "gates removed), on which every RealPage table is computed (docs/realpage.md#the-audit).")


def replace_release(out_root, folder, seed=settings.SEED, log=print, neural=None, **settings):
    """Build ``data/v3`` into a temporary folder beside the release and put it in place of ``out_root``'s
    ``data/v3`` only once every file is written: a build that fails or is interrupted leaves the release as it
    was, and removes its temporary folder.  Returns the release-relative paths written."""
    import os
    import shutil
    import tempfile

    work = tempfile.mkdtemp(prefix=".realpage-build-", dir=out_root)
    try:
        written = write_release(work, folder, seed, log, neural, **settings)
        target = layout.abspath(out_root, RELEASE.base)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.isdir(target):
            os.rename(target, os.path.join(work, "previous"))
        os.rename(layout.abspath(work, RELEASE.base), target)
        return written
    finally:
        shutil.rmtree(work, ignore_errors=True)


def write_release(out_root, folder, seed=settings.SEED, log=print, neural=None, **settings):
    """Write ``data/v3`` under ``out_root`` (``settings``: :func:`build`'s ``cfg`` and ``strata``; ``neural``:
    the folder of the dense runs to ship, :mod:`.v3_neural`, or None); returns the release-relative paths
    written."""
    import os

    from ...core.jsonio import write_json, write_jsonl

    runs = None if neural is None else v3_neural.read_runs(neural)
    built = build(folder, seed, log, neural=runs, **settings)
    if runs is not None:
        v3_neural.check_queries(runs, built["queries"])
    written = []
    for key, rel in FILES:
        path = layout.abspath(out_root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_jsonl(path, built[key])
        written.append(rel)
    ranked = False
    for rel, rows in built["rankings"]:         # each file written as the systems produce it
        path = layout.abspath(out_root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_jsonl(path, rows)
        written.append(rel)
        ranked = True
    if ranked:
        write_json(layout.abspath(out_root, RELEASE.systems), v3_rankings.systems_record(runs is not None))
        written.append(RELEASE.systems)
        if runs is not None:
            written += v3_neural.write(out_root, runs)
    write_json(layout.abspath(out_root, RELEASE.genealogy), built["genealogy"])
    write_json(layout.abspath(out_root, RELEASE.build), built["build"])
    return written + [RELEASE.genealogy, RELEASE.build]
