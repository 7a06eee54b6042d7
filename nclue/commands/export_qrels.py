"""TREC qrels and topics of a release for external tools (docs/usage.md#exporting-qrels-and-topics).

The released grade is the number of the query's conditions a document supports, so *gold* is
grade ``n`` -- 2 for a two-condition query, 3 for a three-condition one -- and a subset is any
grade from 1 to ``n - 1``.  A single relevance threshold (``trec_eval -l 2``) therefore scores the
wrong gold set for three-condition queries.  The export writes one file per reading:

* ``qrels.graded.trec``: ``qid 0 docid grade`` for every judged row (graded NDCG@10 = trec_eval
  ``ndcg_cut.10`` on it);
* ``qrels.gold.trec``: ``qid 0 docid 1`` for the gold rows only (Gold-NDCG@10 / 100 and Gold Hit
  come from it with binary relevance);
* ``qrels.subset.trec``: ``qid 0 docid 1`` for the subset rows only;
* ``topics.trec`` (``<top><num>``/``<title>``) and ``topics.jsonl`` (``qid``, ``n``, ``text``,
  ``conditions``); ``README.txt`` states these semantics.

Only the evaluation queries of the chosen qrel copy are written; nothing goes into the release.
"""

import json
import os

from ..core import layout
from ..core.instrument import Instrument
from ..core.jsonio import output_folder
from .outputs import write_text

README = """nclue export-qrels: {release}, qrel copy {copy} ({queries} queries)

Grades are the number of the query's conditions a document supports (docs/schema.md#qrelsjsonl-and-qrels_constructionjsonl):
gold = grade n (2 for a two-condition query, 3 for a three-condition one), subset = 1 .. n-1.
A single trec_eval threshold (-l 2) is therefore wrong for three-condition queries; use:

  qrels.graded.trec  qid 0 docid grade   every judged row   (graded NDCG@10 = ndcg_cut.10)
  qrels.gold.trec    qid 0 docid 1       gold rows only     (Gold-NDCG@10 / 100 = ndcg_cut.10, binary)
  qrels.subset.trec  qid 0 docid 1       subset rows only
  topics.trec, topics.jsonl              the query texts ({form} form) and conditions

n-Clue Score@10 (a gold before every judged subset) needs both gold and subset sets: use
`nclue score` for it.  Unjudged documents are grade 0.

trec_eval averages over the queries the run ranks unless given -c, which counts every query of
the qrels (a query the run misses scores 0, as `nclue score` counts it):

  trec_eval -c -m ndcg_cut.10 qrels.graded.trec RUN
  trec_eval -c -m ndcg_cut.10 qrels.gold.trec RUN
"""


FILES = ("qrels.graded.trec", "qrels.gold.trec", "qrels.subset.trec", "topics.trec", "topics.jsonl", "README.txt")


def export(root, out, release="v1", qrels=None, form=layout.RAW, guard=None):
    """Write the files of the module doc into ``out``; return their paths.  ``form``: the query
    rendering of the topics (a :class:`~nclue.core.layout.QueryForm` or its key); ``qrels``: the copy's genealogy name
    (None: the release's last copy)."""
    inst = Instrument(root).release(release)
    copy = inst.copy(qrels)
    form = layout.query_form(form)
    queries, table = inst.evaluation_queries(copy), inst.qrels(copy)
    graded, gold, subset = [], [], []
    for qid in sorted(queries):
        n = queries[qid].n
        for docid, grade in sorted(table.get(qid, {}).items()):
            graded.append("%s 0 %s %d" % (qid, docid, grade))
            (gold if grade == n else subset).append("%s 0 %s 1" % (qid, docid))
    topics, jsonl = [], []
    for qid in sorted(queries):
        q = queries[qid]
        text = q.forms[form.key]
        topics.append("<top>\n<num> %s\n<title> %s\n</top>" % (qid, " ".join(text.split())))
        jsonl.append(json.dumps({"qid": qid, "n": q.n, "text": text,
                                 "conditions": [{"cid": c.cid, "label": c.label} for c in q.conditions]},
                                sort_keys=True, ensure_ascii=False))
    files = {"qrels.graded.trec": graded, "qrels.gold.trec": gold, "qrels.subset.trec": subset,
             "topics.trec": topics, "topics.jsonl": jsonl}
    with output_folder(out, "the qrels folder", guard) as written:
        for name, lines in sorted(files.items()):
            path = os.path.join(out, name)
            write_text(path, "\n".join(lines) + ("\n" if lines else ""), "the qrels export", guard)
            written.append(path)
        path = os.path.join(out, "README.txt")
        write_text(path, README.format(release=inst.base, copy=copy.path, queries=len(queries), form=form.key),
                   "the qrels export", guard)
        written.append(path)
    return list(written)
