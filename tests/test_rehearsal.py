"""A rehearsal of the original release: the harness's verdicts on published results, checked against values
computed by code that shares nothing with it (docs/paper-audit.md#published-results).

A copy of the shipped release is marked not synthetic and its transcription's numbers of Tables 3, 4, 5
(scores and deltas), 6, 7, S1j, S2b and S3 are replaced by values this file computes itself -- from the
released rankings and the qrel copy each table names (CrossPage's final ``qrels.jsonl``, SourceShift's S),
n-Clue Score, Gold Hit and the outcomes by a few lines below, Gold-NDCG@10 by pytrec_eval -- and rounded to
the paper's precision.  The rows are found through the released crosswalk and the paper's roles, as a
reviewer would.  Every replaced number must pass; one changed cell must fail, and only that one; and a run
on the paper's own values must list the Table 3 and Table 5 fails in its text report.
"""

import json
import os
import shutil
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from conftest import released, reproduce_report, retranscribe

REPLACED = ("T3.", "T4.", "T5.", "T6.", "T7.", "S1j.", "S2b.", "S3.")
# Table 5's rows as the paper writes them ("base -> variant"), as crosswalk rows; Table 7 repeats six of them
T5_PAIRS = {"scale": (("mask", "qwen06"), ("system", "qwen8b")),                  # Qwen3-Emb. 0.6B -> 8B
            "page_aggregation": (("system", "colqwen"), ("system", "colqwen_top3")),
            "lexical_composition": (("system", "bm25_and"), ("system", "bm25_sdr")),
            "jina_composition": (("system", "jina_joint"), ("system", "jina_dec")),      # -> harmonic dec.
            "qwen_composition": (("mask", "qwen06"), ("system", "qwen06_dec")),          # -> product dec.
            "fusion": (("system", "colqwen_top3"), ("system", "hybrid")),
            "text_reranking": (("system", "bge_base"), ("system", "bge_rerank")),
            "visual_reranking": (("system", "colqwen"), ("system", "qwen3vl_rerank"))}
T7_ROWS = ("page_aggregation", "lexical_composition", "jina_composition", "fusion", "text_reranking",
           "visual_reranking")
T5_COLUMNS = ("base", "variant", "delta", "dhit", "dndcg")
FORMS = {"raw": "raw", "clean": "clean_v2", "natural": "natural"}


def _rows(root, rel):
    with open(os.path.join(root, *rel.split("/")), encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


class Release:
    """One release's queries, the named qrel copy and its evaluation queries, read straight from the files."""

    def __init__(self, root, base, copy_file):
        self.root, self.base = root, base
        self.n = {q["qid"]: q["n"] for q in _rows(root, base + "/queries.jsonl")}
        genealogy = json.load(open(os.path.join(root, *(base + "/genealogy.json").split("/")), encoding="utf-8"))
        removed = set()
        for copy in genealogy["copies"]:
            removed.update(copy["removed_queries"])
            if copy["file"] == base + "/" + copy_file:
                break
        self.qids = sorted(q for q in self.n if q not in removed)
        self.grades = {q: {} for q in self.qids}
        for r in _rows(root, base + "/" + copy_file):
            if r["qid"] in self.grades:
                self.grades[r["qid"]][r["docid"]] = r["grade"]
        self.pages = {d["docid"]: d["pages"] for d in _rows(root, base + "/corpus.jsonl")}

    def ranking(self, rel):
        return {r["qid"]: r["docids"][:10] for r in _rows(self.root, rel)}

    def per_query(self, rel, qids=None):
        """``{qid: (success, hit, gold NDCG@10 in 0-1 units)}`` of one ranking file (Gold-NDCG by pytrec_eval)."""
        import pytrec_eval

        qids = self.qids if qids is None else qids
        ranking = self.ranking(rel)
        qrels = {q: {d: 1 for d, g in self.grades[q].items() if g == self.n[q]} for q in qids}
        run = {q: {d: float(10 - i) for i, d in enumerate(ranking.get(q, []))} for q in qids if ranking.get(q)}
        ndcg = pytrec_eval.RelevanceEvaluator({q: g for q, g in qrels.items() if g}, {"ndcg_cut_10"}).evaluate(run)
        out = {}
        for q in qids:
            n, grades, docs = self.n[q], self.grades[q], ranking.get(q, [])
            gold = [i for i, d in enumerate(docs) if grades.get(d) == n]
            subset = [i for i, d in enumerate(docs) if 0 < grades.get(d, 0) < n]
            out[q] = (int(bool(gold) and (not subset or gold[0] < subset[0])), int(bool(gold)),
                      ndcg[q]["ndcg_cut_10"] if q in ndcg else 0.0)
        return out

    def gold_sets(self):
        """``{qid: frozenset of gold docids}`` (grade n) on this copy's evaluation queries."""
        return {q: frozenset(d for d, g in self.grades[q].items() if g == self.n[q]) for q in self.qids}

    def score(self, rel, qids=None):
        """n-Clue Score, Gold Hit and Gold-NDCG@10 (points) and the outcomes of one ranking file."""
        import pytrec_eval

        qids = self.qids if qids is None else qids
        ranking = self.ranking(rel)
        success = hit = 0
        for q in qids:
            n, grades, docs = self.n[q], self.grades[q], ranking.get(q, [])
            gold = [i for i, d in enumerate(docs) if grades.get(d) == n]
            subset = [i for i, d in enumerate(docs) if 0 < grades.get(d, 0) < n]
            if gold:
                hit += 1
                success += not subset or gold[0] < subset[0]
        qrels = {q: {d: 1 for d, g in self.grades[q].items() if g == self.n[q]} for q in qids}
        run = {q: {d: float(10 - i) for i, d in enumerate(ranking.get(q, []))} for q in qids if ranking.get(q)}
        per_query = pytrec_eval.RelevanceEvaluator({q: g for q, g in qrels.items() if g}, {"ndcg_cut_10"}).evaluate(run)
        ndcg = sum(per_query[q]["ndcg_cut_10"] for q in qids if q in per_query)
        total = len(qids)
        return {"score": Fraction(100 * success, total), "hit": Fraction(100 * hit, total),
                "ndcg": 100.0 * ndcg / total, "complete": Fraction(100 * success, total),
                "subset": Fraction(100 * (hit - success), total), "nogold": Fraction(100 * (total - hit), total)}

    def slices(self):
        """The query sets of Table 6: n, the shortest gold's length and the positive pool |D+|."""
        lmin = {q: min(self.pages[d] for d, g in self.grades[q].items() if g == self.n[q]) for q in self.qids}
        pool = {q: len(self.grades[q]) for q in self.qids}
        return {"all": self.qids, "n2": [q for q in self.qids if self.n[q] == 2],
                "n3": [q for q in self.qids if self.n[q] == 3],
                "lmin_le30": [q for q in self.qids if lmin[q] <= 30], "lmin_gt100": [q for q in self.qids if lmin[q] > 100],
                "pool_le25": [q for q in self.qids if pool[q] <= 25], "pool_gt50": [q for q in self.qids if pool[q] > 50]}


def _crosswalk(root):
    cw = json.load(open(os.path.join(root, "data", "crosswalk.json"), encoding="utf-8"))
    out = {}
    for r in cw["rows"]:
        out.setdefault(r["namespace"], {})[r["paper"]] = r["stand_in"]
    return out


def independent_values(root):
    """``{number id: exact value}`` for the replaced tables (see module doc)."""
    v1 = Release(root, released("v1"), "qrels.jsonl")
    v2 = Release(root, released("v2"), "qrels.jsonl")
    cw = _crosswalk(root)
    out = {}
    slices = v1.slices()
    for key, sid in cw["system"].items():
        if sid is None:
            continue
        clean = released("v1", "rankings/forms/%s__clean_v2.jsonl") % sid
        if not os.path.exists(os.path.join(root, *clean.split("/"))):
            continue
        s = v1.score(clean)
        out.update({"T3.%s.score" % key: s["score"], "T3.%s.hit" % key: s["hit"], "T3.%s.ndcg" % key: s["ndcg"],
                    "T4.%s.complete" % key: s["complete"], "T4.%s.subset" % key: s["subset"],
                    "T4.%s.nogold" % key: s["nogold"]})
        for name, qids in slices.items():
            cell = v1.score(clean, qids)
            for table in ("T6", "S1j"):
                out["%s.%s.%s.score" % (table, key, name)] = cell["score"]
                out["%s.%s.%s.hit" % (table, key, name)] = cell["hit"]
    for name, qids in slices.items():
        for table in ("T6", "S1j"):
            out["%s.size.%s" % (table, name)] = Fraction(len(qids))

    def run(ns, key):
        return cw[ns][key]
    for block, (base_row, variant_row) in T5_PAIRS.items():
        base = v1.score(released("v1", "rankings/%s.jsonl") % run(*base_row))
        variant = v1.score(released("v1", "rankings/%s.jsonl") % run(*variant_row))
        out.update({"T5.%s.base" % block: base["score"], "T5.%s.variant" % block: variant["score"],
                    "T5.%s.delta" % block: variant["score"] - base["score"],
                    "T5.%s.dhit" % block: variant["hit"] - base["hit"],
                    "T5.%s.dndcg" % block: variant["ndcg"] - base["ndcg"]})
    for key, sid in cw["original"].items():
        for paper, form in FORMS.items():
            out["S2b.%s.%s" % (key, paper)] = v1.score(released("v1", "rankings/forms/%s__%s.jsonl") % (sid, form))["score"]
            out["S3.%s.%s" % (key, paper)] = v2.score(released("v2", "rankings/forms/%s__%s.jsonl") % (sid, form))["score"]
    for key in T7_ROWS:
        base, variant = (run(*row) for row in T5_PAIRS[key])
        cp = (v1.score(released("v1", "rankings/%s.jsonl") % variant)["score"] -
              v1.score(released("v1", "rankings/%s.jsonl") % base)["score"])
        ss = (v2.score(released("v2", "rankings/forms/%s__raw.jsonl") % variant)["score"] -
              v2.score(released("v2", "rankings/forms/%s__raw.jsonl") % base)["score"])
        out["T7.%s.crosspage" % key], out["T7.%s.sourceshift" % key] = cp, ss
    return out


def _display(value, decimals, template):
    """``value`` rounded half up to ``decimals``, with the sign convention of the published ``template``."""
    exact = Decimal(value.numerator) / Decimal(value.denominator) if isinstance(value, Fraction) else Decimal(repr(value))
    text = str(exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP))
    if text.startswith("-") and Decimal(text) == 0:
        text = text[1:]
    if template.startswith("+") and not text.startswith("-"):
        text = "+" + text
    return text


def _write_numbers(root, numbers):
    path = os.path.join(root, "reference_metrics", "paper", "numbers.json")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(numbers, indent=1, sort_keys=True) + "\n")


def _mark_not_synthetic(root):
    path = os.path.join(root, "data", "v1", "build.json")
    info = json.load(open(path, encoding="utf-8"))
    info["synthetic"] = False
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(info, indent=1, sort_keys=True) + "\n")


@pytest.fixture(scope="session")
def rehearsal(release_template, tmp_path_factory):
    """The shipped release, marked not synthetic, with the replaced tables' numbers set to the independent
    values; and the ids replaced."""
    from nclue.run.freeze import write_release_manifest

    root = str(tmp_path_factory.mktemp("rehearsal") / "release")
    shutil.copytree(release_template, root)
    own = independent_values(root)
    doc = json.load(open(os.path.join(root, "reference_metrics", "paper", "numbers.json"), encoding="utf-8"))
    replaced = []
    for r in doc["numbers"]:
        if r["id"].startswith(REPLACED) and r["id"] in own:
            retranscribe(r, _display(own[r["id"]], r["decimals"], r["text"]))
            replaced.append(r["id"])
    _write_numbers(root, doc)
    _mark_not_synthetic(root)
    write_release_manifest(root)
    return root, sorted(replaced), doc


def _published(report):
    return {c["id"][len("published:"):]: c for c in report["checks"] if c["group"] == "published"}


def test_every_replaced_number_is_bound_and_the_tables_are_covered(rehearsal):
    from nclue.paperaudit.results import rule_for
    _, replaced, _ = rehearsal
    assert all(rule_for(nid)[0] is not None for nid in replaced)
    for prefix, at_least in (("T3.", 39), ("T4.", 15), ("T5.", 40), ("T6.", 77), ("T7.", 12), ("S1j.", 77),
                             ("S2b.", 39), ("S3.", 39)):
        assert sum(1 for nid in replaced if nid.startswith(prefix)) >= at_least, prefix


def test_the_rehearsal_passes_every_replaced_number(rehearsal):
    root, replaced, _ = rehearsal
    code, out, _, report, _ = reproduce_report(root, "--only", "derivation,scoring,paper")
    checks = _published(report)
    wrong = {nid: checks[nid]["reason"] for nid in replaced if checks[nid]["status"] != "pass"}
    assert not wrong, list(wrong.items())[:5]
    assert report["headline"]["synthetic"] is False


def test_one_changed_cell_fails_exactly_that_check(rehearsal, tmp_path):
    from nclue.run.freeze import write_release_manifest

    root, replaced, doc = rehearsal
    copy = str(tmp_path / "release")
    shutil.copytree(root, copy)
    changed = json.loads(json.dumps(doc))
    target = next(r for r in changed["numbers"] if r["id"] == "T5.jina_composition.delta")
    moved = round(target["value"] + 0.3, 1)
    retranscribe(target, ("+" if moved > 0 else "") + "%.1f" % moved)
    _write_numbers(copy, changed)
    write_release_manifest(copy)
    code, out, _, report, _ = reproduce_report(copy, "--only", "derivation,scoring,paper")
    checks = _published(report)
    failing = [nid for nid in replaced if checks[nid]["status"] == "fail"]
    assert code == 1 and failing == ["T5.jina_composition.delta"]
    reason = checks["T5.jina_composition.delta"]["reason"]
    assert reason.startswith('Table 5, row "Dense composition", column "Delta Score [paired 95%% CI]" (Jina joint -> '
                             'harmonic dec., Delta Score): published %s' % target["text"])
    assert "dense_composition_tri.tri_dec_hmean.delta_score" in reason      # the named variant, via the roles


def test_the_papers_own_values_fail_by_table_in_the_text_report(release_template, tmp_path):
    """The same release with the paper's numbers: its stand-in values are not the paper's, so Table 3 and
    Table 5 fail, and the text report shows both tables (grouped by table, in the paper's order)."""
    from nclue.run.freeze import write_release_manifest

    root = str(tmp_path / "release")
    shutil.copytree(release_template, root)
    _mark_not_synthetic(root)
    write_release_manifest(root)
    code, out, _, report, _ = reproduce_report(root, "--only", "derivation,scoring,paper")
    assert code == 1
    section = out[out.index("PUBLISHED RESULTS THAT FAIL"):]
    t3, t5, s2b = section.index("  Table 3 -- "), section.index("  Table 5 -- "), section.index("  Table S2b -- ")
    assert t3 < t5 < s2b                                     # the paper's order: main tables, then supplement
    assert 'FAIL published:T3.bm25_and.score: Table 3, row "BM25-AND", column "n-Clue Score@10": published 26.8' \
        in section
