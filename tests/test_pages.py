"""Page text and the construction miner: random access, determinism, export, and the features that
docs/stand-in.md#page-text lists (lengths, repetition, confusers, surfaces, a miner that misses and mistakes)."""

import json
import os
import statistics

from nclue.builder import crosspage
from nclue.builder.config import CONFIGS
from nclue.builder.export import export_pages_v1 as export_pages
from nclue.builder.miner import MinerConfig, mine
from nclue.builder.page_text import PageSource, Statement, TextConfig
from nclue.builder.vocab import paraphrases
from nclue.core.jsonio import iter_jsonl

_GENERATED = {}


def _rows(root, name):
    return [obj for _, obj in iter_jsonl(os.path.join(root, "data", "v1", name), name)]


def _generated(root):
    if root not in _GENERATED:
        build = json.load(open(os.path.join(root, "data", "v1", "build.json")))
        _GENERATED[root] = crosspage.generate(CONFIGS[build["config"]], build["seed"])
    return _GENERATED[root]


def test_one_page_alone_equals_the_page_in_sequence(mini_root):
    g = _generated(mini_root)
    doc = max(g["docs"], key=lambda d: d["pages"])
    whole = g["source"].pages(doc["docid"])
    fresh = PageSource(11, g["docs"], g["catalog"], g["truth"], CONFIGS["mini"].text)
    for page in (1, doc["pages"] // 2, doc["pages"]):
        assert fresh.page(doc["docid"], page) == whole[page - 1]
    other = PageSource(12, g["docs"], g["catalog"], g["truth"], CONFIGS["mini"].text)
    assert other.page(doc["docid"], 1) != whole[0]


def test_the_released_inventory_is_the_miners_and_differs_from_the_truth(mini_root):
    g = _generated(mini_root)
    assert _rows(mini_root, "inventory.jsonl") == g["mined"]
    truth = {(r["docid"], r["cid"]) for r in g["truth"]}
    mined = {(r["docid"], r["cid"]) for r in g["mined"]}
    assert truth - mined and mined - truth          # missed facts and spurious facts, both
    info = json.load(open(os.path.join(mini_root, "data", "v1", "build.json")))["construction"]
    assert info["missed_facts"] == len(truth - mined) and info["truth_facts"] == len(truth)


def test_true_fact_pages_state_their_condition(mini_root):
    g = _generated(mini_root)
    by_cid = {c["cid"]: c for c in g["catalog"]}
    found = total = 0
    for row in g["truth"][:300]:
        cond = by_cid[row["cid"]]
        forms = [f.lower() for f in [cond["label"]] + list(cond["aliases"]) + paraphrases(cond["label"])]
        for page in row["pages"]:
            total += 1
            found += any(f in g["source"].page(row["docid"], page).lower() for f in forms)
    assert total >= 100 and 0.85 * total <= found < total     # OCR noise garbles a few statements


class _Plan:
    def __init__(self, non_facts):
        self.non_facts = non_facts


class _Source:
    """Scripted statements and non-fact mentions, to drive the miner by hand."""

    def __init__(self, statements, non_facts):
        self._statements, self._non_facts = statements, non_facts

    def statements(self, docid, page):
        return self._statements.get((docid, page), ())

    def plan(self, docid):
        return _Plan(self._non_facts.get(docid, []))


def _stated(cid, *texts):
    return tuple(Statement(cid, "sentence", t) for t in texts)


def test_the_miner_by_hand():
    catalog = [{"cid": "sec:risk", "label": "Risk Assessment", "aliases": ["Key Risks"]},
               {"cid": "ent:kenya", "label": "Kenya", "aliases": []}]
    docs = [{"docid": "d1"}, {"docid": "d2"}]
    truth = [{"docid": "d1", "cid": "sec:risk", "pages": [1, 2]},        # page 1 paraphrased, page 2 an alias
             {"docid": "d2", "cid": "sec:risk", "pages": [3]},           # only a paraphrase: missed
             {"docid": "d2", "cid": "ent:kenya", "pages": [1]}]
    statements = {("d1", 1): _stated("sec:risk", "4.1 Assessment of Risk"),
                  ("d1", 2): _stated("sec:risk", "the key risks are set out"),
                  ("d2", 3): _stated("sec:risk", "Risk Appraisal"),
                  ("d2", 1): _stated("ent:kenya", "KENYA is examined here", "Kenya again")}
    mentions = {"d1": [("ent:kenya", 5, "near-miss")]}
    source = _Source(statements, mentions)
    every_alias = MinerConfig(alias_recall=1.0, read_recall=1.0, spurious_rate=1.0)
    rows, info = mine(every_alias, 11, docs, truth, source, catalog)
    assert rows == [{"docid": "d1", "cid": "ent:kenya", "pages": [5]},   # the mention taken for a fact (rate 1)
                    {"docid": "d1", "cid": "sec:risk", "pages": [2]},
                    {"docid": "d2", "cid": "ent:kenya", "pages": [1]}]
    assert info == {"truth_facts": 3, "miner_rows": 3, "lexicon_aliases": 1, "catalog_aliases": 1, "missed_facts": 1,
                    "missed_fact_pages_surface": 2, "missed_fact_pages_read": 0, "spurious_facts": 1}
    # an alias outside the lexicon is not matched: d1's only matched page goes, and with it the fact
    rows, info = mine(MinerConfig(alias_recall=0.0, read_recall=1.0, spurious_rate=0.0), 11, docs, truth, source,
                      catalog)
    assert rows == [{"docid": "d2", "cid": "ent:kenya", "pages": [1]}]
    assert (info["lexicon_aliases"], info["missed_facts"], info["spurious_facts"]) == (0, 2, 0)
    # the semantic read: at read_recall 0 every matched page is rejected, at 1 none is
    rows, info = mine(MinerConfig(alias_recall=1.0, read_recall=0.0, spurious_rate=0.0), 11, docs, truth, source,
                      catalog)
    assert rows == [] and info["missed_fact_pages_read"] == 2 and info["missed_facts"] == 3


def test_the_semantic_read_confirms_at_its_stated_rate():
    """P(confirm) = 1 - (1 - read_recall) ** k for k matched statements: 0.5 and 0.75 at read_recall 0.5."""
    catalog = [{"cid": "ent:kenya", "label": "Kenya", "aliases": []}]
    docs = [{"docid": "d%d" % i} for i in range(4000)]
    truth = [{"docid": d["docid"], "cid": "ent:kenya", "pages": [1, 2]} for d in docs]
    statements = {}
    for d in docs:
        statements[(d["docid"], 1)] = _stated("ent:kenya", "Kenya is examined")
        statements[(d["docid"], 2)] = _stated("ent:kenya", "Kenya once", "Kenya twice")
    rows, _ = mine(MinerConfig(read_recall=0.5, spurious_rate=0.0), 11, docs, truth, _Source(statements, {}), catalog)
    kept = [r["pages"] for r in rows]
    one = sum(1 in p for p in kept) / len(docs)
    two = sum(2 in p for p in kept) / len(docs)
    assert abs(one - 0.5) < 0.03 and abs(two - 0.75) < 0.03


def test_page_statements_are_verbatim_pieces_of_the_page_text(mini_root):
    g = _generated(mini_root)
    checked = 0
    for row in g["truth"][:200]:
        for page in row["pages"]:
            text = g["source"].page(row["docid"], page)
            stated = [s for s in g["source"].statements(row["docid"], page) if s.cid == row["cid"]]
            assert stated, (row, page)          # every true fact page states the fact
            assert all(s.text in text for s in stated)
            checked += 1
    assert checked >= 200


def test_page_lengths_headers_and_label_words_follow_the_stated_parameters():
    cfg = TextConfig()
    docs = [{"docid": "d%d" % i, "source": "wb", "pages": 30, "topic": "health",
             "title": "Synthetic Policy Note: Kenya Health"} for i in range(40)]
    catalog = [{"cid": "sec:grievance-mechanism", "kind": "section", "label": "Grievance Mechanism",
                "aliases": [], "topic": "social"},
               {"cid": "ent:kenya", "kind": "entity", "label": "Kenya", "aliases": [], "topic": "generic"}]
    source = PageSource(3, docs, catalog, [], cfg)
    lengths = [len(source.page(d["docid"], p).split()) for d in docs for p in (1, 10, 20)]
    assert 0.8 * 280 < statistics.median(lengths) < 1.25 * 280
    headers = sum(source.page(d["docid"], 3).startswith("Synthetic Policy Note") for d in docs)
    assert 0.35 * len(docs) < headers < 0.85 * len(docs)          # header_share 0.6
    # no document carries the condition, yet its words occur in prose (a lexical confuser)
    prose = " ".join(source.page(d["docid"], p).lower() for d in docs for p in range(1, 31))
    assert prose.count("grievance") > 20 and prose.count("mechanism") > 20
    assert prose.count("grievance mechanism") < prose.count("grievance") / 5


def test_export_pages_writes_every_page(mini_root, tmp_path):
    export_pages(mini_root, str(tmp_path))
    rows = [obj for _, obj in iter_jsonl(str(tmp_path / "pages.jsonl"), "pages.jsonl")]
    docs = _rows(mini_root, "corpus.jsonl")
    assert len(rows) == sum(d["pages"] for d in docs)
    assert all(r["synthetic"] is True for r in rows)
    first = rows[-1]
    assert first["text"] == _generated(mini_root)["source"].page(first["docid"], first["page"])
