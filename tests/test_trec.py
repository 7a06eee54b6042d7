"""TREC run input: trec_eval's order by default (score desc, docno desc on ties), file order on request."""

import pytest
from conftest import REPO, released

from nclue.core.errors import InputError
from nclue.core.instrument import Instrument
from nclue.core.metrics import evaluate
from nclue.core.structure import gold_and_subsets
from nclue.core.trec import read_trec_run


def _write(tmp_path, lines):
    path = tmp_path / "run.trec"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def test_tie_orders_by_hand(tmp_path):
    queries = {"q1": None}
    corpus = {"a": None, "b": None, "c": None}
    path = _write(tmp_path, ["q1 Q0 a 1 2.0 t", "q1 Q0 c 2 1.0 t", "q1 Q0 b 3 2.0 t"])
    assert read_trec_run(path, "run", queries, corpus)["q1"].docids == ("b", "a", "c")       # ties: docno desc
    assert read_trec_run(path, "run", queries, corpus, ties="file")["q1"].docids == ("a", "c", "b")


@pytest.mark.parametrize("line,needle", [("q1 Q0 a 1 x t", "field 'score'"), ("zz Q0 a 1 1.0 t", "unknown query"),
                                         ("q1 Q0 nope 1 1.0 t", "unknown document"), ("q1 a 1", "6 columns")])
def test_bad_run_lines_are_named(tmp_path, line, needle):
    path = _write(tmp_path, ["q1 Q0 b 1 3.0 t", line])
    with pytest.raises(InputError) as info:
        read_trec_run(path, "run.trec", {"q1": None}, {"a": None, "b": None})
    assert str(info.value).startswith("run.trec:2") and needle in str(info.value)


def test_graded_ndcg_equals_pytrec_eval_with_tied_scores(tmp_path):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    inst = Instrument(REPO)
    queries, qrels, corpus = inst.queries(), inst.qrels(), inst.corpus()
    ranking = inst.ranking(released("v1", "rankings/bm25_or.jsonl"))
    lines, run = [], {}
    for qid in sorted(queries)[:300]:
        row = ranking[qid]
        for i, d in enumerate(row.docids):
            score = float(10 - i // 3)          # ties in threes, so the tie rule matters
            lines.append("%s Q0 %s %d %s t" % (qid, d, i + 1, score))
            run.setdefault(qid, {})[d] = score
    ours = read_trec_run(_write(tmp_path, lines), "run", queries, corpus)
    sub = {q: queries[q] for q in run}
    out = evaluate(ours, sub, qrels, gold_and_subsets(sub, qrels))
    ref = pytrec_eval.RelevanceEvaluator({q: dict(qrels[q]) for q in run}, {"ndcg_cut.10"}).evaluate(run)
    for i, qid in enumerate(out.qids):
        assert out.graded_ndcg[i] == pytest.approx(ref[qid]["ndcg_cut_10"], abs=1e-12), qid
