"""Simulated label audit of the stand-in (synthetic responses; supplement section 10).

The paper's audit had human evaluators; the stand-in's are simulated, and
every record says so.  The simulation is a reading model, stated here and in
``data/audit/audit.json``, and is not tuned to any agreement figure of the
paper:

* **Packet** (10.1, Table S7's design): a stratified sample of query-document
  pairs per (release, source) and benchmark label (gold / subset), drawn from
  the released v1 qrels and the initial v2 copy S0.  Golds are drawn from all
  golds; subsets from the subsets whose document mentions (label or alias) a
  condition the pair lacks -- the pairs where a missed condition is plausible.
* **Shown pages** (10.2.1): per condition, three page contexts: the
  construction pages recorded for the condition, then pages where a surface
  form of the condition occurs (most occurrences first), then random pages.
* **Reading model**: a responder sees only the shown pages.  On a page that
  truly establishes the condition (the generator's truth) and where a
  surface form is legible, it finds the evidence with probability
  ``detect``; otherwise, on a page that only mentions the condition (a
  near-miss, cross-reference or contents line), it mistakes the mention for
  evidence with probability ``mistake``.  A positive selects the pages it
  found and quotes the sentence (a heading: the heading and the words after
  it) verbatim from the first one.  The simulated interface enforces the
  quote gate (:func:`nclue.labelaudit.rules.gate`), as the paper's did.
* **Adjudication** (10.3): the conditions the policy leaves unresolved get a
  6-9 page pool merged from the routes of :mod:`nclue.labelaudit.pool`
  (prior selections, construction pages, the shown pages, then exact/alias
  lexical, BM25 and OCR-fuzzy hits interleaved, then random pages; the text
  routes are :mod:`nclue.builder.pool_routes`) and three responses (A, E and a
  third responder F) under the same model; each queued condition gets a
  decision record (votes, majority, no override).  The locked positives of
  the same pairs get the held-out recall check's pool (no prior route).
* **Decisions** (10.4): :func:`nclue.labelaudit.rules.repair`, the one implementation of
  the evidence-asymmetric policy; there is no administrative override.
"""

from dataclasses import dataclass

from ..core.rng import Stream
from ..labelaudit import pool as pool_rules
from ..labelaudit.rules import MIN_QUOTE_WORDS, Answer, gate, repair
from .config import SCALE_FACTORS
from .pool_routes import DEPTH, DocumentRoutes


@dataclass(frozen=True)
class Responder:
    name: str
    detect: float        # P(find legible true evidence on a shown page)
    mistake: float       # P(take a mere mention for evidence, when no evidence was found)


@dataclass(frozen=True)
class AuditConfig:
    # (release, source, gold pairs, subset pairs): the packet design (Table S7's sampling design)
    strata: tuple
    n3_pairs: int = 0            # three-condition pairs in the packet (spread over the cells)
    shown: int = 3
    pool: tuple = (6, 9)
    initial: tuple = (Responder("A", 0.90, 0.10), Responder("E", 0.88, 0.12))
    third: Responder = Responder("F", 0.92, 0.08)


AUDIT_CONFIGS = {
    # the paper's design (Table S7): 300 pairs, 147 pre-gold and 153 pre-subset, and 710 condition
    # decisions, i.e. 110 three-condition pairs
    "full": AuditConfig(strata=(
        ("v1", "wb", 50, 48), ("v1", "pmc", 0, 2),
        ("v2", "arxiv", 25, 25), ("v2", "eric", 25, 25), ("v2", "fedreg", 25, 25), ("v2", "pmc", 22, 28)),
        n3_pairs=110),
    "mini": AuditConfig(strata=(
        ("v1", "wb", 4, 4), ("v1", "pmc", 0, 2),
        ("v2", "arxiv", 2, 2), ("v2", "eric", 2, 2), ("v2", "fedreg", 2, 2), ("v2", "pmc", 2, 2)), n3_pairs=6),
}

# the scaled stand-ins of the benchmark (nclue.builder.config.scaled) keep the paper's 300-pair audit design
AUDIT_CONFIGS.update({"full_x%d" % f: AUDIT_CONFIGS["full"] for f in SCALE_FACTORS})

_P = 1_000_000


class Release:
    """What the simulation needs of one release: docs, qrels, queries, construction and true facts, text."""

    def __init__(self, name, docs, queries, qrel_rows, construction_rows, truth_rows, source, catalog):
        self.name = name
        self.docs = {d["docid"]: d for d in docs}
        self.queries = {q["qid"]: q for q in queries}
        self.qrel_rows = qrel_rows
        self.construction = {(r["docid"], r["cid"]): r["pages"] for r in construction_rows}
        self.truth = {(r["docid"], r["cid"]): set(r["pages"]) for r in truth_rows}
        self.source = source
        self.catalog = {c["cid"]: c for c in catalog}
        self._doc_text = {}

    def doc_text(self, docid):
        """The whole document in lower case (cached)."""
        text = self._doc_text.get(docid)
        if text is None:
            text = "\n".join(self.source.pages(docid)).lower()
            self._doc_text[docid] = text
        return text

    def mentions_missing(self, qid, docid):
        """True when a surface form of a condition the pair lacks occurs in the document: the subset
        stratum's frame (pairs where a missing condition is plausibly present)."""
        for c in self.queries[qid]["conditions"]:
            if (docid, c["cid"]) in self.construction:
                continue
            text = self.doc_text(docid)
            if any(f.lower() in text for f in self.forms(c["cid"])):
                return True
        return False

    def text(self, docid, page):
        return self.source.page(docid, page)

    def statements(self, docid, page):
        """The statements of the page's true facts (:meth:`nclue.builder.page_text.PageSource.statements`)."""
        return self.source.statements(docid, page)

    def forms(self, cid):
        c = self.catalog[cid]
        return [c["label"]] + list(c["aliases"])


def _occurrences(text, forms):
    low = text.lower()
    out = []
    for form in forms:
        f = form.lower()
        start = low.find(f)
        while start >= 0:
            out.append((start, start + len(f)))
            start = low.find(f, start + 1)
    return sorted(out)


def quote_at(text, start, end):
    """The sentence around ``text[start:end]`` (for a heading: the heading line and the next four
    words), white space collapsed -- always a substring of the normalised page."""
    left = max(text.rfind(". ", 0, start) + 2 if text.rfind(". ", 0, start) >= 0 else 0,
               text.rfind("\n", 0, start) + 1)
    stops = [i for i in (text.find(".", end), text.find("\n", end)) if i >= 0]
    right = min(stops) if stops else len(text)
    if right < len(text) and text[right] == ".":
        right += 1
    quote = text[left:right]
    if len(quote.split()) < MIN_QUOTE_WORDS:
        tail = text[right:].split()[:MIN_QUOTE_WORDS]
        quote = " ".join(quote.split() + tail)
    return " ".join(quote.split())


def _lexical_pages(rel, docid, cid):
    """Pages of the document where a surface form occurs, most occurrences first."""
    hits = []
    for page in range(1, rel.docs[docid]["pages"] + 1):
        k = len(_occurrences(rel.text(docid, page), rel.forms(cid)))
        if k:
            hits.append((-k, page))
    return [p for _, p in sorted(hits)]


def _dedupe(seq):
    out = []
    for x in seq:
        if x not in out:
            out.append(x)
    return out


def _fill(stream, pages, n_pages, target):
    out = list(pages[:target])
    rest = [p for p in range(1, n_pages + 1) if p not in out]
    while len(out) < min(target, n_pages):
        out.append(rest.pop(stream.randbelow(len(rest))))
    return out


def _candidates(rel, routes, docid, condition, prior, stream, size):
    """The route candidates of one condition's expanded-page pool (:mod:`nclue.labelaudit.pool`);
    ``prior`` None leaves out the prior-selected route (the held-out recall check)."""
    cid = condition["cid"]
    cand = {"construction": list(rel.construction.get((docid, cid), ())), "original_shown": list(condition["shown"]),
            "lexical": _lexical_pages(rel, docid, cid)[:DEPTH], "bm25": routes.bm25(condition["label"]),
            "ocr_fuzzy": routes.ocr_fuzzy(rel.forms(cid))}
    if prior is not None:
        cand["prior_selected"] = list(prior)
    merged = pool_rules.merge(cand)
    n_pages = rel.docs[docid]["pages"]
    cand["random_fill"] = _fill(stream, merged, n_pages, size)[len(merged):] if len(merged) < size else []
    return {route: cand[route] for route in sorted(cand)}


def statement_quote(text, statement):
    """What a reader quotes for a statement of the page ``text``: the statement (a sentence, or a
    heading line) with white space collapsed; a heading shorter than the quote gate's minimum
    (:data:`nclue.labelaudit.rules.MIN_QUOTE_WORDS`) is quoted with the words that follow it, so the
    quote is always a substring of the normalised page."""
    words = statement.text.split()
    if len(words) >= MIN_QUOTE_WORDS:
        return " ".join(words)
    start = text.find(statement.text)
    return " ".join(text[start:].split()[:MIN_QUOTE_WORDS])


def read(rel, responder, stream, docid, cid, shown):
    """One simulated response to one condition on the ``shown`` pages (see module doc).

    On a shown page that truly establishes the condition the reader recognises a statement of it --
    in whatever surface it is written: label, alias, paraphrase, casing, OCR-garbled -- with
    probability ``detect``, and quotes the first one; on a page that does not, a surface form of the
    condition is a mention the reader may mistake for evidence (``mistake``, once per condition)."""
    true_pages = rel.truth.get((docid, cid), set())
    found, quote = [], ""
    mentions = []
    detect = int(responder.detect * _P)
    for page in shown:
        if page in true_pages:
            stated = [st for st in rel.statements(docid, page) if st.cid == cid]
            if stated and stream.randbelow(_P) < detect:
                found.append(page)
                if not quote:
                    quote = statement_quote(rel.text(docid, page), stated[0])
            continue
        text = rel.text(docid, page)
        occ = _occurrences(text, rel.forms(cid))
        if occ:
            mentions.append((page, quote_at(text, *occ[0])))
    if not found and mentions and stream.randbelow(_P) < int(responder.mistake * _P):
        page, quote = mentions[stream.randbelow(len(mentions))]
        found = [page]
    answer = Answer(bool(found), sorted(found), quote if found else "", shown)
    if answer.positive and not gate(answer, set(shown), lambda p: rel.text(docid, p))[0]:
        answer = Answer(False, (), "", shown)     # the interface refuses an unverifiable quote
    return answer


def n3_quotas(cells, total_n3, capacity=None):
    """Per-cell numbers of n = 3 pairs summing to ``total_n3``, proportional to the cell sizes (largest
    remainder; ties by cell order).  ``capacity``: the most n = 3 pairs each cell can supply; a capped
    cell's share is spread over the others the same way, until the total is met or every cell is full.

    >>> n3_quotas([50, 48, 2], 37)
    [18, 18, 1]
    >>> n3_quotas([50, 48, 2], 37, capacity=[50, 10, 0])
    [27, 10, 0]
    """
    capacity = list(cells) if capacity is None else [min(c, k) for c, k in zip(cells, capacity)]
    quota = [0] * len(cells)
    open_cells = [i for i in range(len(cells)) if capacity[i] > 0]
    remaining = min(total_n3, sum(capacity))
    while remaining and open_cells:
        size = sum(cells[i] for i in open_cells)
        exact = {i: cells[i] * remaining / size for i in open_cells}
        share = {i: int(exact[i]) for i in open_cells}
        order = sorted(open_cells, key=lambda i: (-(exact[i] - share[i]), i))
        for i in order[:remaining - sum(share.values())]:
            share[i] += 1
        for i in open_cells:
            take = min(share[i], capacity[i] - quota[i])
            quota[i] += take
            remaining -= take
        open_cells = [i for i in open_cells if quota[i] < capacity[i]]
    return quota


def _cells(cfg, releases):
    """The packet's cells ``(release, source, stratum, pairs wanted, frames, n = 3 pairs in the frames)``: per
    (release, source) of ``cfg.strata`` its golds, and its subsets framed first by the subsets whose document
    mentions a condition the pair lacks."""
    cells = []
    for release, source, n_gold, n_subset in cfg.strata:
        rel = releases[release]
        for stratum, want in (("gold", n_gold), ("subset", n_subset)):
            if not want:
                continue
            rows = sorted((r["qid"], r["docid"]) for r in rel.qrel_rows
                          if rel.docs[r["docid"]]["source"] == source and
                          (r["grade"] == rel.queries[r["qid"]]["n"]) == (stratum == "gold"))
            if stratum == "subset":
                framed = [p for p in rows if rel.mentions_missing(*p)]
                chosen_frame = set(framed)
                frames = (framed, [p for p in rows if p not in chosen_frame])
            else:
                frames = (rows, [])
            n3_rows = sum(1 for frame in frames for p in frame if rel.queries[p[0]]["n"] == 3)
            cells.append((release, source, stratum, want, frames, n3_rows))
    return cells


def _draw_cell(rel, stream, frames, want, want_n3):
    """One cell's ``want`` pairs: ``want_n3`` three-condition pairs and the rest two-condition ones, each drawn
    from the first frame before the second; a cell short of n = 2 pairs takes n = 3 ones."""
    chosen = []
    for n, need in ((3, want_n3), (2, want - want_n3)):
        for frame in frames:
            pool = [p for p in frame if rel.queries[p[0]]["n"] == n and p not in chosen]
            take = min(need, len(pool))
            chosen += [pool[i] for i in stream.sample_distinct(len(pool), take)]
            need -= take
    for frame in frames:
        pool = [p for p in frame if p not in chosen]
        take = min(want - len(chosen), len(pool))
        chosen += [pool[i] for i in stream.sample_distinct(len(pool), take)]
    return chosen


def _sample(cfg, seed, releases):
    """The packet's pairs ``(release, source, stratum, qid, docid)`` in blinded (shuffled) order.

    Design (Table S7): per (release, source) the stated numbers of pre-gold and pre-subset pairs, and
    ``cfg.n3_pairs`` three-condition pairs in all, spread over the cells in proportion to their size
    (:func:`n3_quotas`, a cell with fewer n = 3 pairs passing its share on).  Golds come from all golds of
    the cell; subsets first from the subsets whose document mentions a condition the pair lacks (where a
    missed condition is plausible), then, when that frame is short, from the cell's other subsets.  A cell
    short of n = 2 pairs takes n = 3 ones.
    """
    cells = _cells(cfg, releases)
    quotas = n3_quotas([c[3] for c in cells], cfg.n3_pairs, capacity=[c[5] for c in cells])
    picked = []
    for (release, source, stratum, want, frames, _), want_n3 in zip(cells, quotas):
        stream = Stream.derived(seed, "audit", "sample", release, source, stratum)
        chosen = _draw_cell(releases[release], stream, frames, want, want_n3)
        picked += [(release, source, stratum) + p for p in chosen]
    Stream.derived(seed, "audit", "blind").shuffle(picked)
    return picked


def _initial_answers(cfg, seed, rel, release, pair, query, docid, n_pages, shown_pages):
    """The packet's conditions of one pair, each with the pages shown (its construction and lexical pages
    first, filled to ``cfg.shown``), and both initial evaluators' answers: ``(conditions, {responder:
    [answer per condition]})``; the pages shown are added to ``shown_pages``."""
    conds, answers = [], {r.name: [] for r in cfg.initial}
    for c in query["conditions"]:
        cid = c["cid"]
        stream = Stream.derived(seed, "audit", "shown", pair, cid)
        lexical = _lexical_pages(rel, docid, cid)
        shown = _fill(stream, _dedupe(list(rel.construction.get((docid, cid), ())) + lexical), n_pages, cfg.shown)
        shown_pages.update((release, docid, p) for p in shown)
        conds.append({"cid": cid, "label": c["label"], "shown": shown})
        for r in cfg.initial:
            answers[r.name].append(read(rel, r, Stream.derived(seed, "audit", r.name, pair, cid), docid, cid, shown))
    return conds, answers


def _adjudicate(cfg, seed, rel, routes, release, pair, docid, conds, a, e, gate_ok, shown_pages, out):
    """Expanded-page adjudication of one queued pair: per condition not locked (both initial evaluators
    supported it), a candidate pool of a drawn size, the three responses on it and the majority of the valid
    answers; ``out`` is ``(queue, adjudication, condition_decisions)``, the records appended to.  Returns the
    answers per condition (None where locked)."""
    queue, adjudication, condition_decisions = out
    adj = []
    for i, c in enumerate(conds):
        if a[i].positive and e[i].positive and gate_ok(a[i]) and gate_ok(e[i]):
            adj.append(None)           # locked: both initial evaluators supported it
            continue
        stream = Stream.derived(seed, "audit", "pool", pair, c["cid"])
        target = cfg.pool[0] + stream.randbelow(cfg.pool[1] - cfg.pool[0] + 1)
        prior = _dedupe(list(a[i].pages) + list(e[i].pages))
        cand = _candidates(rel, routes, docid, c, prior, stream, target)
        pool = pool_rules.merge(cand)[:target]
        shown_pages.update((release, docid, p) for p in pool)
        queue.append({"pair": pair, "cid": c["cid"], "pool": pool, "candidates": cand, "synthetic": True})
        trio = []
        for r in cfg.initial + (cfg.third,):
            ans = read(rel, r, Stream.derived(seed, "audit", "adjudicate", r.name, pair, c["cid"]),
                       docid, c["cid"], pool)
            trio.append(ans)
            adjudication.append(dict(_answer_json(c["cid"], ans), pair=pair, responder=r.name, synthetic=True))
        adj.append(trio)
        votes = sum(1 for ans in trio if ans.positive and gate_ok(ans))
        condition_decisions.append({
            "pair": pair, "cid": c["cid"], "votes_positive": votes, "majority": votes >= 2, "override": None,
            "override_pages": [], "final": votes >= 2, "synthetic": True,
            "reason": "no administrative override: the stand-in applies the majority of the valid answers"})
    return adj


def _recall_checks(cfg, seed, rel, routes, pair, docid, conds, a, e, adj, recall):
    """The held-out recall check on the locked positives: each locked condition's full candidate pool against
    the pages the initial evaluators submitted, appended to ``recall``."""
    for i, c in enumerate(conds):
        if adj[i] is not None:
            continue
        stream = Stream.derived(seed, "audit", "recall", pair, c["cid"])
        cand = _candidates(rel, routes, docid, c, None, stream, cfg.pool[1])
        recall.append({"pair": pair, "cid": c["cid"], "candidates": cand,
                       "pool": pool_rules.merge(cand)[:cfg.pool[1]],
                       "submitted": _dedupe(list(a[i].pages) + list(e[i].pages)), "synthetic": True})


def simulate(cfg, seed, releases):
    """All audit records, and the per-release grade changes ``{release: {(qid, docid): (before, after)}}``."""
    grades = {name: {(r["qid"], r["docid"]): r["grade"] for r in rel.qrel_rows} for name, rel in releases.items()}
    key, packet, initial, queue, adjudication, decisions = [], [], [], [], [], []
    condition_decisions, recall = [], []
    shown_pages = set()
    doc_routes = {}

    def routes_of(release, docid):
        if (release, docid) not in doc_routes:
            rel = releases[release]
            doc_routes[(release, docid)] = DocumentRoutes(
                [rel.text(docid, p) for p in range(1, rel.docs[docid]["pages"] + 1)])
        return doc_routes[(release, docid)]
    changes = {name: {} for name in releases}
    for number, (release, source, stratum, qid, docid) in enumerate(_sample(cfg, seed, releases), 1):
        pair = "J%03d" % number
        rel = releases[release]
        query = rel.queries[qid]
        n_pages = rel.docs[docid]["pages"]
        g0 = grades[release][(qid, docid)]
        key.append({"pair": pair, "release": release, "source": source, "stratum": stratum,
                    "frame": "missing-condition-mentioned" if stratum == "subset" else "all-gold", "qid": qid,
                    "docid": docid, "n": query["n"], "grade_before": g0, "synthetic": True})
        conds, answers = _initial_answers(cfg, seed, rel, release, pair, query, docid, n_pages, shown_pages)
        packet.append({"pair": pair, "release": release, "docid": docid, "n": query["n"], "conditions": conds,
                       "synthetic": True})
        for r in cfg.initial:
            initial.append({"pair": pair, "responder": r.name, "synthetic": True,
                            "answers": [_answer_json(c["cid"], a) for c, a in zip(conds, answers[r.name])]})
        a, e = answers[cfg.initial[0].name], answers[cfg.initial[1].name]
        gate_ok = _gate_for(rel, docid)
        grade, route = repair(g0, query["n"], a, e, None, gate_ok)
        adj = None
        if route == "needs-adjudication":
            routes = routes_of(release, docid)
            adj = _adjudicate(cfg, seed, rel, routes, release, pair, docid, conds, a, e, gate_ok, shown_pages,
                              (queue, adjudication, condition_decisions))
            _recall_checks(cfg, seed, rel, routes, pair, docid, conds, a, e, adj, recall)
            grade, route = repair(g0, query["n"], a, e, adj, gate_ok)
        decisions.append({"pair": pair, "grade_before": g0, "grade_after": grade, "route": route, "synthetic": True})
        if grade != g0:
            changes[release][(qid, docid)] = (g0, grade)
    pages = [{"release": release, "docid": docid, "page": page, "text": releases[release].text(docid, page),
              "synthetic": True} for release, docid, page in sorted(shown_pages)]
    records = {"key": key, "packet": packet, "initial": initial, "queue": queue, "adjudication": adjudication,
               "condition_decisions": condition_decisions, "pool_recall": recall, "decisions": decisions,
               "pages": pages}
    return records, changes


def _answer_json(cid, answer):
    return {"cid": cid, "positive": answer.positive, "pages": list(answer.pages), "quote": answer.quote}


def _gate_for(rel, docid):
    return lambda ans: gate(ans, set(ans.shown), lambda p: rel.text(docid, p))[0]


def revised_qrels(rows, changes, queries):
    """A qrel copy with the audited pairs' final grades: changed grades replaced, grade 0 rows dropped."""
    out = []
    for r in rows:
        key = (r["qid"], r["docid"])
        if key in changes:
            after = changes[key][1]
            if after == 0:
                continue
            r = dict(r, grade=after)
        out.append(r)
    return out


def without_zero_gold(rows, queries):
    """``(rows, removed)``: the qrel rows of queries that still have a gold, and the removed query ids
    (in query order) -- the zero-gold removal rule of supplement 10.6."""
    n_of = {q["qid"]: q["n"] for q in queries}
    with_gold = {r["qid"] for r in rows if r["grade"] == n_of[r["qid"]]}
    removed = [q["qid"] for q in queries if q["qid"] not in with_gold]
    return [r for r in rows if r["qid"] in with_gold], removed


def describe(cfg, seed, key=None):
    """``data/audit/audit.json``: what the records are and the simulation's stated parameters.  ``key``: the
    packet's key rows; the strata and the three-condition pairs are then those the sample realised (a cell of a
    small configuration can hold fewer pairs than its target; on the full stand-in they are the targets)."""
    strata = [(r, s, g, b) for r, s, g, b in cfg.strata]
    n3_pairs = cfg.n3_pairs
    if key is not None:
        count = {}
        for row in key:
            cell = count.setdefault((row["release"], row["source"]), {"gold": 0, "subset": 0})
            cell[row["stratum"]] += 1
        strata = [(r, s, count.get((r, s), {}).get("gold", 0), count.get((r, s), {}).get("subset", 0))
                  for r, s, _, _ in cfg.strata]
        n3_pairs = sum(1 for row in key if row["n"] == 3)
    return {
        "synthetic": True,
        "note": "Simulated label audit of the stand-in (nclue/builder/simulated_audit.py). Responses come from a stated "
                "reading model, not from people; no rate was set from the paper's agreement figures.",
        "seed": seed,
        "strata": [{"release": r, "source": s, "gold": g, "subset": b} for r, s, g, b in strata],
        "n3_pairs": n3_pairs,
        "subset_frame": "subset qrels whose document contains a surface form (label or alias) of a condition "
                        "the pair lacks, then the cell's other subsets when that frame is short; gold frame: all "
                        "gold qrels; n3_pairs three-condition pairs spread over the cells in proportion to size",
        "shown_pages": cfg.shown,
        "pool_pages": list(cfg.pool),
        "responders": [{"name": r.name, "detect": r.detect, "mistake": r.mistake}
                       for r in cfg.initial + (cfg.third,)],
        "policy": "nclue.labelaudit.rules.repair (supplement 10.2.2 and 10.4, without administrative overrides)",
    }


def true_grade(rel, qid, docid):
    """The generator's truth: conditions the text really establishes in the document."""
    return sum(1 for c in rel.queries[qid]["conditions"] if (docid, c["cid"]) in rel.truth)


def against_truth(records, releases):
    """How the initial grades and the audit's final grades compare with the generator's truth."""
    out = {}
    decisions = {d["pair"]: d for d in records["decisions"]}
    for name in sorted(releases):
        rel = releases[name]
        rows = [k for k in records["key"] if k["release"] == name]
        before_ok = after_ok = changed = right = 0
        for k in rows:
            t = true_grade(rel, k["qid"], k["docid"])
            d = decisions[k["pair"]]
            before_ok += d["grade_before"] == t
            after_ok += d["grade_after"] == t
            if d["grade_after"] != d["grade_before"]:
                changed += 1
                right += d["grade_after"] == t
        out[name] = {"pairs": len(rows), "initial_grade_true": before_ok, "final_grade_true": after_ok,
                     "changed": changed, "changed_to_true_grade": right}
    return out
