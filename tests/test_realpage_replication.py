"""RealPage's rankings, Tables 3/5/8 and the replication of Table 5 (docs/realpage.md#the-rankings,
#the-replication): the verdict rule worked by hand at its boundaries; the shipped claims re-derived with
separate code straight from the files (n-Clue Score, Gold Hit, Gold-NDCG by pytrec_eval, the families, the
verdicts from the paper's transcribed intervals); a changed ranking fails its claims; damaged rankings and
systems.json are named at file:line:field, and a damaged v3 ranking fails the run without a traceback."""

import json
import os
from fractions import Fraction

import pytest
from conftest import REPO, assert_run_fails_naming, read_rows, released, reproduce_report, resign, write_rows

from nclue.analyses import REGISTRY
from nclue.analyses.replication import ALPHA, MARGIN_SE, VERDICTS, agreement, direction, unsettled, verdict
from nclue.core.errors import InputError
from nclue.core.instrument import Instrument

PAPER_ROWS = ("scale", "page_aggregation", "lexical_composition", "jina_composition", "qwen_composition", "fusion",
              "text_reranking", "visual_reranking")


def _claims(root, analysis):
    with open(os.path.join(root, "reference_metrics", analysis + ".json"), encoding="utf-8") as fh:
        return {c["id"]: c for c in json.load(fh)["claims"]}


def _rows(root, rel):
    with open(os.path.join(root, *rel.split("/")), encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


# ---- the verdict rule, by hand ------------------------------------------------------------------------
# docs/realpage.md#the-replication: a side's direction is the sign of its Delta when its Sel.+Holm p <= .05, else 0;
# the verdict compares the paper's side with RealPage's.  Each case flips one input of the one before it.

@pytest.mark.parametrize("paper_delta,paper_p,delta,p,expected", [
    (6.8, 0.005, 5.0, 0.008, "holds"),             # both survive, same sign
    (6.8, 0.005, -5.0, 0.008, "reversed"),         # RealPage's sign flipped
    (6.8, 0.005, 5.0, 0.35, "not_detected"),       # RealPage's p above .05
    (6.8, 0.50, 5.0, 0.35, "holds_null"),          # and the paper's too
    (6.8, 0.50, 5.0, 0.008, "new_direction"),      # RealPage's alone survives
    (-3.9, 0.168, -6.7, 0.008, "new_direction"),   # the paper's text reranking: no difference after correction
    (-3.9, 0.04, -6.7, 0.008, "holds"),            # had it survived
    (0.0, 0.001, 0.0, 0.001, "holds_null"),        # a zero Delta has no direction
    (1.0, 0.05, 1.0, 0.05, "holds"),               # .05 itself survives
])
def test_each_verdict_by_hand(paper_delta, paper_p, delta, p, expected):
    assert verdict(direction(paper_delta, paper_p), direction(delta, p)) == expected
    assert expected in VERDICTS


def test_a_p_within_the_margin_of_alpha_is_borderline_and_just_outside_is_not():
    se = 0.002
    edge = ALPHA + MARGIN_SE * se
    assert unsettled(edge, se) and not unsettled(edge * 1.0001, se)
    assert unsettled(ALPHA - MARGIN_SE * se, se) and not unsettled(ALPHA - MARGIN_SE * se * 1.0001, se)
    assert not unsettled(ALPHA, 0.0) and not unsettled(None, se)        # no Monte Carlo error: the side decides
    assert verdict("+", "+", borderline=True) == "borderline" and verdict("0", "0", borderline=True) == "borderline"
    # Table 7's agreement by the same rule
    assert [agreement(d, found) for d, found in ((6.8, "+"), (6.8, "-"), (-3.9, "-"), (-3.9, "0"))] == [
        "same", "flip", "same", "none"]


# ---- the shipped claims re-derived with separate code ---------------------------------------------------

class RealPage:
    """data/v3 read straight from its files: the final copy on its evaluation queries (the release's queries
    minus those its genealogy removed), and the rankings."""

    def __init__(self, root):
        self.root = root
        genealogy = json.load(open(os.path.join(root, "data", "v3", "genealogy.json"), encoding="utf-8"))
        removed = {q for copy in genealogy["copies"] for q in copy["removed_queries"]}
        self.n = {q["qid"]: q["n"] for q in _rows(root, released("v3", "queries.jsonl")) if q["qid"] not in removed}
        self.grades = {q: {} for q in self.n}
        for r in _rows(root, released("v3", "qrels.jsonl")):
            self.grades[r["qid"]][r["docid"]] = r["grade"]

    def score(self, system, form="raw"):
        """n-Clue Score, Gold Hit and Gold-NDCG of a system's ranking of one form (the raw form is its
        rankings/<system>.jsonl, the others rankings/forms/<system>__<form>.jsonl)."""
        import pytrec_eval

        rel = released("v3", "rankings/%s.jsonl") % system if form == "raw" else \
            released("v3", "rankings/forms/%s__%s.jsonl") % (system, form)
        ranking = {r["qid"]: r["docids"][:10] for r in _rows(self.root, rel)}
        success = hit = 0
        for q, n in self.n.items():
            docs = ranking.get(q, [])
            gold = [i for i, d in enumerate(docs) if self.grades[q].get(d) == n]
            subset = [i for i, d in enumerate(docs) if 0 < self.grades[q].get(d, 0) < n]
            if gold:
                hit += 1
                success += not subset or gold[0] < subset[0]
        qrels = {q: {d: 1 for d, g in self.grades[q].items() if g == self.n[q]} for q in self.n}
        run = {q: {d: float(10 - i) for i, d in enumerate(docs)} for q, docs in ranking.items() if docs}
        per_query = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_10"}).evaluate(run)
        total = len(self.n)
        return {"score": Fraction(100 * success, total), "hit": Fraction(100 * hit, total),
                "ndcg": 100.0 * sum(per_query[q]["ndcg_cut_10"] for q in per_query) / total}


@pytest.fixture(scope="module")
def shipped():
    pytest.importorskip("pytrec_eval")
    return RealPage(REPO)


def test_every_system_has_a_ranking_and_the_matrix_matches_separate_code(shipped):
    systems = json.load(open(os.path.join(REPO, "data", "v3", "systems.json"), encoding="utf-8"))["systems"]
    matrix = _claims(REPO, "v3.matrix")
    assert len(systems) == 52 and sum(s["family"] == "dense" for s in systems) == 11
    for system in systems:
        sid = system["id"]
        s = shipped.score(sid)
        assert matrix["v3.matrix.%s.nclue_score_at_10" % sid]["value"] == pytest.approx(float(s["score"]), abs=1e-9)
        assert matrix["v3.matrix.%s.gold_hit_at_10" % sid]["value"] == pytest.approx(float(s["hit"]), abs=1e-9)
        assert matrix["v3.matrix.%s.gold_ndcg_at_10" % sid]["value"] == pytest.approx(s["ndcg"], abs=1e-9)
    # the controls that hold by construction
    assert matrix["v3.matrix.oracle_facts.nclue_score_at_10"]["value"] == 100.0
    assert matrix["v3.matrix.floor_single_page.nclue_score_at_10"]["value"] == 0.0


def test_the_clean_scorecard_and_the_form_matrix_match_separate_code(shipped):
    systems = json.load(open(os.path.join(REPO, "data", "v3", "systems.json"), encoding="utf-8"))
    forms = systems["form_systems"]
    assert len(forms) == 21 and set(forms) <= {s["id"] for s in systems["systems"]}
    scorecard, matrix, form_claims = _claims(REPO, "v3.scorecard"), _claims(REPO, "v3.matrix"), _claims(REPO, "v3.forms")
    assert {cid.split(".")[2] for cid in scorecard} == set(forms)
    assert len(form_claims) == 21 * 3 * 2          # n-Clue Score and Gold Hit of each system under each form
    for sid in forms:
        clean = shipped.score(sid, "clean_v2")
        assert scorecard["v3.scorecard.%s.nclue_score_at_10" % sid]["value"] == pytest.approx(float(clean["score"]),
                                                                                            abs=1e-9)
        assert scorecard["v3.scorecard.%s.gold_hit_at_10" % sid]["value"] == pytest.approx(float(clean["hit"]), abs=1e-9)
        assert scorecard["v3.scorecard.%s.gold_ndcg_at_10" % sid]["value"] == pytest.approx(clean["ndcg"], abs=1e-9)
        for form in ("raw", "clean_v2", "natural"):
            s = clean if form == "clean_v2" else shipped.score(sid, form)
            prefix = "v3.forms.%s.%s." % (sid, form)
            assert form_claims[prefix + "nclue_score_at_10"]["value"] == pytest.approx(float(s["score"]), abs=1e-9)
            assert form_claims[prefix + "gold_hit_at_10"]["value"] == pytest.approx(float(s["hit"]), abs=1e-9)
        # the raw column of the form matrix is the raw-form matrix's row, read from the same file
        assert form_claims["v3.forms.%s.raw.nclue_score_at_10" % sid]["value"] == \
            matrix["v3.matrix.%s.nclue_score_at_10" % sid]["value"]
    # Table 4: the three outcomes of each clean ranking sum to 100 points
    for sid in forms:
        assert sum(scorecard["v3.scorecard.%s.%s" % (sid, k)]["value"] for k in
                   ("complete_first", "subset_first", "no_gold")) == pytest.approx(100.0, abs=1e-9)


def test_the_clean_and_natural_queries_are_the_condition_labels_and_say_what_each_asks():
    """The clean form quotes each condition's label, separated by semicolons; the natural form says what each
    condition asks of the RFC (it defines a sense, it has a section titled ...) in one sentence; no label holds a
    double quote, so a quoted label nests none."""
    conditions = {c["cid"]: c for c in _rows(REPO, released("v3", "conditions.jsonl"))}
    assert not any('"' in c["label"] for c in conditions.values())
    asks = {"entity": 'defines "%s"', "section": 'has a section titled "%s"'}
    for q in _rows(REPO, released("v3", "queries.jsonl")):
        conds = [conditions[c["cid"]] for c in q["conditions"]]
        assert q["forms"]["clean_v2"] == "; ".join('"%s"' % c["label"] for c in conds)
        assert q["forms"]["clean_v2"].count('"') == 2 * q["n"]
        parts = [asks[c["kind"]] % c["label"] for c in conds]
        body = " and ".join(parts) if len(parts) == 2 else ", ".join(parts[:-1]) + ", and " + parts[-1]
        assert q["forms"]["natural"] == "Find the RFC that %s." % body


def test_the_table5_contrasts_and_the_displayed_variants_match_separate_code(shipped):
    systems = json.load(open(os.path.join(REPO, "data", "v3", "systems.json"), encoding="utf-8"))
    contrasts = _claims(REPO, "v3.contrasts")
    for block in systems["contrasts"]:
        base = shipped.score(block["base"])
        scores = {}
        for var in block["variants"]:
            v = shipped.score(var)
            scores[var] = v["score"]
            prefix = "v3.contrasts.%s.%s." % (block["block"], var)
            assert contrasts[prefix + "delta_score"]["value"] == pytest.approx(float(v["score"] - base["score"]),
                                                                              abs=1e-9)
            assert contrasts[prefix + "delta_hit"]["value"] == pytest.approx(float(v["hit"] - base["hit"]), abs=1e-9)
        best = max(block["variants"], key=lambda var: (scores[var], -block["variants"].index(var)))
        assert contrasts["v3.contrasts.%s.displayed_variant" % block["block"]]["value"] == best


def test_the_families_are_the_distinct_gold_sets(shipped):
    golds = {q: frozenset(d for d, g in shipped.grades[q].items() if g == n) for q, n in shipped.n.items()}
    inference = _claims(REPO, "v3.inference.bootstrap")
    genealogy = json.load(open(os.path.join(REPO, "data", "v3", "genealogy.json"), encoding="utf-8"))
    assert inference["v3.inference.design.queries"]["value"] == len(shipped.n) == genealogy["copies"][-1]["queries"]
    # a family: the queries with exactly the same gold set (docs/statistics.md#family-clustered-bootstrap)
    assert inference["v3.inference.design.families"]["value"] == len(set(golds.values()))


def test_every_verdict_follows_from_the_papers_p_and_the_frozen_one():
    """Separate code: each side's direction from its Delta and its Sel.+Holm p, the verdict from the two, and the
    named variant from the paper's row as the crosswalk plays it."""
    numbers = {r["id"]: r["value"] for r in json.load(open(os.path.join(
        REPO, "reference_metrics", "paper", "numbers.json"), encoding="utf-8"))["numbers"]}
    rep = _claims(REPO, "v3.replication")
    paper_family = _claims(REPO, "v3.inference.contrasts")
    named = {"scale": "quad_l_joint", "page_aggregation": "page_bm25_top3", "lexical_composition": "bm25_dec_sdr",
             "jina_composition": "tri_dec_hmean", "qwen_composition": "quad_s_dec_product",
             "fusion": "rrf_bm25and_pagetop3", "text_reranking": "rerank_ql_bm25or",
             "visual_reranking": "rerank_pageql_pagemax"}            # Table 5's rows, by hand from the crosswalk
    def sign(d, p):
        return "0" if p > 0.05 or d == 0 else "+" if d > 0 else "-"
    tally = {}
    for key in PAPER_ROWS:
        def get(statistic, key=key):
            return rep["v3.replication.%s.%s" % (key, statistic)]
        assert get("variant")["value"] == named[key] == paper_family[
            "v3.inference.paper_block.%s.variant" % key]["value"]
        p = get("p_holm")
        assert p["value"] == paper_family["v3.inference.paper_block.%s.p_holm" % key]["value"]
        paper = sign(numbers["T5.%s.delta" % key], numbers["T5.%s.p" % key])
        found = sign(get("delta_score")["value"], p["value"])
        if abs(p["value"] - 0.05) <= MARGIN_SE * p["estimate"]["se"]:
            expected = "borderline"
        elif paper == "0":
            expected = "holds_null" if found == "0" else "new_direction"
        else:
            expected = "not_detected" if found == "0" else "holds" if found == paper else "reversed"
        assert get("paper_direction")["value"] == paper and get("direction")["value"] == found
        assert get("verdict")["value"] == expected, key
        assert get("delta_score_ci_low")["value"] <= get("delta_score")["value"] <= get("delta_score_ci_high")["value"]
        tally[expected] = tally.get(expected, 0) + 1
    for name in VERDICTS:
        assert rep["v3.replication.summary.%s" % name]["value"] == tally.get(name, 0)


def test_a_changed_paper_p_or_delta_changes_the_verdict_as_the_rule_says(monkeypatch):
    """One input flipped per verdict class: the paper's published p or Delta as the analysis reads them."""
    from types import SimpleNamespace

    from nclue.analyses import replication

    original = replication.load_numbers

    def verdicts(changes):
        def patched(root):
            numbers = dict(original(root))
            for nid, value in changes.items():
                numbers[nid] = [SimpleNamespace(value=value)]
            return numbers
        monkeypatch.setattr(replication, "load_numbers", patched)
        values = _values(REPO, "v3.replication")
        return lambda key: values["v3.replication.%s.verdict" % key]

    shipped = verdicts({})
    assert (shipped("fusion"), shipped("visual_reranking"), shipped("scale")) == (
        "holds", "not_detected", "new_direction")
    assert verdicts({"T5.fusion.delta": -8.7})("fusion") == "reversed"                  # the paper's sign flipped
    assert verdicts({"T5.fusion.p": 0.5})("fusion") == "new_direction"                  # the paper's not surviving
    assert verdicts({"T5.visual_reranking.p": 0.5})("visual_reranking") == "holds_null"
    assert verdicts({"T5.scale.delta": 3.0, "T5.scale.p": 0.001})("scale") == "holds"
    assert verdicts({"T5.scale.delta": -3.0, "T5.scale.p": 0.001})("scale") == "reversed"


def test_the_headline_and_the_html_report_carry_the_replication(repo_run):
    out = repo_run["stdout"]
    line = [row for row in out.splitlines() if row.strip().startswith("RealPage (real RFC pages")]
    from nclue.reports.report import REPLICATION_WORDS

    assert len(line) == 2, line                     # the headline at the top and again at the end
    assert "not the paper's models" in line[0] and "on Table 5's 8 rows -- " in line[0]
    named = [part.split(": ")[0] for part in line[0].split(" -- ", 1)[1].split("; ")]
    assert named and set(named) <= {text for _, text in REPLICATION_WORDS}


# ---- a changed ranking fails; damaged rankings and systems.json are named -----------------------------

def _values(root, analysis):
    inst = Instrument(root)
    return {value.id: value.value for unit in REGISTRY[analysis].units(inst) for value in unit.compute()}


@pytest.mark.parametrize("rel,failing,allowed", [
    # the raw ranking: its matrix row, its form matrix's raw column, the block whose base it is, and the
    # analyses that read every raw ranking (Figure 2's methods and pairs, the length-matched diagnostic);
    # the scorecard and the slices read the clean ranking
    ("rankings/bm25_and.jsonl",
     ("v3.matrix.bm25_and.nclue_score_at_10", "v3.matrix.bm25_and.gold_ndcg_at_10",
      "v3.forms.bm25_and.raw.nclue_score_at_10", "v3.figure2.methods.bm25_and.nclue_score"),
     ("v3.matrix.bm25_and.", "v3.forms.bm25_and.raw.", "v3.contrasts.lexical_composition.",
      "v3.figure2.", "v3.diagnostics.length_matched.")),
    # the clean ranking: its scorecard row, its form matrix's clean column, its slices and the
    # density-matched diagnostic (which reads the clean rankings)
    ("rankings/forms/bm25_and__clean_v2.jsonl",
     ("v3.scorecard.bm25_and.nclue_score_at_10", "v3.slices.bm25_and.n2.nclue_score_at_10",
      "v3.forms.bm25_and.clean_v2.gold_hit_at_10", "v3.diagnostics.density_matched.bm25_and.n2_gold_hit"),
     ("v3.scorecard.bm25_and.", "v3.forms.bm25_and.clean_v2.", "v3.slices.bm25_and.",
      "v3.diagnostics.density_matched.")),
], ids=["raw", "clean"])
def test_a_changed_v3_ranking_fails_exactly_its_claims(release_copy, rel, failing, allowed):
    path = os.path.join(release_copy, "data", "v3", *rel.split("/"))
    rows = read_rows(path)
    for row in rows[:50]:               # each of the first 50 queries' top document moved to rank 10, scores kept
        row["docids"] = row["docids"][1:] + row["docids"][:1]
    write_rows(path, rows)
    resign(release_copy)
    code, stdout, stderr, report, fails = reproduce_report(release_copy, "--only", "integrity,scoring")
    assert code == 1 and "Traceback" not in stdout + stderr
    # every claim that read the changed file fails (its input differs from the frozen one), and no other
    assert all(cid in fails and fails[cid]["cause"] == (released("v3") + "/") + rel for cid in failing), sorted(fails)[:10]
    stray = sorted({".".join(c.split(".")[:3]) for c in fails if not c.startswith(allowed)})
    assert stray == []


@pytest.mark.parametrize("name,change,expected", [
    ("rankings/bm25_or.jsonl", lambda rows: rows[0].__setitem__("qid", "realpage_9999"),
     (released("v3", "rankings/bm25_or.jsonl") + ":1: field 'qid'")),
    ("rankings/bm25_or.jsonl", lambda rows: rows[0]["docids"].__setitem__(0, "rfc99999"),
     (released("v3", "rankings/bm25_or.jsonl") + ":1: field 'docids")),
    ("rankings/bm25_or.jsonl", lambda rows: rows[0]["scores"].__setitem__(0, "high"),
     (released("v3", "rankings/bm25_or.jsonl") + ":1: field 'scores")),
    ("rankings/bm25_or.jsonl", lambda rows: rows.append(dict(rows[0])), (released("v3", "rankings/bm25_or.jsonl") + ":1001")),
    ("rankings/bm25_or.jsonl", lambda rows: (rows[0]["docids"].append(rows[0]["docids"][0]),
                                             rows[0]["scores"].append(rows[0]["scores"][-1])),
     (released("v3", "rankings/bm25_or.jsonl") + ":1: field 'docids")),
    ("rankings/forms/bm25_or__clean_v2.jsonl", lambda rows: rows[0].__setitem__("qid", "realpage_9999"),
     (released("v3", "rankings/forms/bm25_or__clean_v2.jsonl") + ":1: field 'qid'")),
    ("rankings/forms/bm25_or__natural.jsonl", lambda rows: rows[2]["docids"].__setitem__(0, "rfc99999"),
     (released("v3", "rankings/forms/bm25_or__natural.jsonl") + ":3: field 'docids")),
    ("rankings/forms/bm25_or__clean_v2.jsonl", lambda rows: rows[0]["scores"].__setitem__(0, None),
     (released("v3", "rankings/forms/bm25_or__clean_v2.jsonl") + ":1: field 'scores")),
    ("rankings/forms/bm25_or__natural.jsonl", lambda rows: rows.append(dict(rows[0])),
     (released("v3", "rankings/forms/bm25_or__natural.jsonl") + ":1001")),
], ids=["unknown query", "unknown document", "score not a number", "duplicate query", "duplicate document",
        "clean: unknown query", "natural: unknown document", "clean: null score", "natural: duplicate query"])
def test_a_damaged_v3_ranking_is_named_at_file_line_field(release_copy, name, change, expected):
    path = os.path.join(release_copy, "data", "v3", *name.split("/"))
    rows = read_rows(path)
    change(rows)
    write_rows(path, rows)
    with pytest.raises(InputError) as caught:
        _values(release_copy, "v3.forms" if "/forms/" in name else "v3.matrix")
    assert expected in str(caught.value), str(caught.value)


@pytest.mark.parametrize("text,expected", [
    ('{"qid": "realpage_0000", "docids": ["rfc', (released("v3", "rankings/bm25_or.jsonl") + ":1")),
    ('{"qid": "realpage_0000", "docids": [], "scores": [NaN]}\n', (released("v3", "rankings/bm25_or.jsonl") + ":1")),
    ("[" * 5000 + "]" * 5000 + "\n", (released("v3", "rankings/bm25_or.jsonl") + ":1")),
], ids=["truncated", "non-finite", "deeply nested"])
def test_a_broken_v3_ranking_file_is_named(release_copy, text, expected):
    with open(os.path.join(release_copy, "data", "v3", "rankings", "bm25_or.jsonl"), "w", encoding="utf-8") as fh:
        fh.write(text)
    with pytest.raises(InputError) as caught:
        _values(release_copy, "v3.matrix")
    assert expected in str(caught.value), str(caught.value)


@pytest.mark.parametrize("damage,expected", [
    ("missing", released("v3", "rankings/forms/tri_joint__natural.jsonl")),
    ("symlinked", released("v3", "rankings/forms/tri_joint__natural.jsonl")),
    ("unknown form system", "field 'form_systems': must be a list of the ids of listed systems; not listed: "
                            "'no_such_system'"),
    ("duplicated form system", "field 'form_systems': lists 'bm25_and' more than once"),
], ids=["missing", "symlinked", "unknown form system", "duplicated form system"])
def test_a_missing_or_foreign_form_ranking_fails_naming_it(release_copy, damage, expected):
    folder = os.path.join(release_copy, "data", "v3")
    path = os.path.join(folder, "rankings", "forms", "tri_joint__natural.jsonl")
    if damage == "missing":
        os.remove(path)
    elif damage == "symlinked":
        os.replace(path, path + ".real")
        os.symlink(path + ".real", path)
    else:
        systems_path = os.path.join(folder, "systems.json")
        obj = json.load(open(systems_path, encoding="utf-8"))
        obj["form_systems"].append("no_such_system" if damage == "unknown form system" else "bm25_and")
        json.dump(obj, open(systems_path, "w", encoding="utf-8"))
    assert_run_fails_naming(release_copy, "integrity,scoring", expected)


def test_a_damaged_v3_systems_file_is_named(release_copy):
    path = os.path.join(release_copy, "data", "v3", "systems.json")
    obj = json.load(open(path, encoding="utf-8"))
    obj["contrasts"][0]["variants"].append("no_such_system")
    json.dump(obj, open(path, "w", encoding="utf-8"))
    with pytest.raises(InputError) as caught:
        _values(release_copy, "v3.contrasts")
    assert released("v3", "systems.json") in str(caught.value) and "no_such_system" in str(caught.value)


def test_a_page_score_row_for_an_unranked_document_is_named(release_copy):
    path = os.path.join(release_copy, "data", "v3", "page_scores", "page_bm25_max.jsonl")
    rows = read_rows(path)
    rows[0]["docid"] = "rfc0001" if rows[0]["docid"] != "rfc0001" else "rfc0002"
    write_rows(path, rows)
    with pytest.raises(InputError) as caught:
        _values(release_copy, "v3.evidence")
    assert (released("v3", "page_scores/page_bm25_max.jsonl") + ":1") in str(caught.value), str(caught.value)


def test_a_damaged_v3_ranking_fails_the_run_without_a_traceback(release_copy):
    path = os.path.join(release_copy, "data", "v3", "rankings", "tri_joint.jsonl")
    rows = read_rows(path)
    rows[3]["qid"] = "not_a_query"
    write_rows(path, rows)
    assert_run_fails_naming(release_copy, "integrity,scoring", (released("v3", "rankings/tri_joint.jsonl") + ":4: field 'qid'"))


def test_the_table6_slices_of_the_clean_scorecard_match_separate_code(shipped):
    pages = {d["docid"]: d["pages"] for d in _rows(REPO, released("v3", "corpus.jsonl"))}
    lmin = {q: min(pages[d] for d, g in shipped.grades[q].items() if g == n) for q, n in shipped.n.items()}
    pool = {q: len(shipped.grades[q]) for q in shipped.n}
    slices = {"n2": [q for q, n in shipped.n.items() if n == 2], "n3": [q for q, n in shipped.n.items() if n == 3],
              "lmin_le30": [q for q in shipped.n if lmin[q] <= 30], "lmin_gt100": [q for q in shipped.n if lmin[q] > 100],
              "pool_le25": [q for q in shipped.n if pool[q] <= 25], "pool_gt50": [q for q in shipped.n if pool[q] > 50]}
    claims = _claims(REPO, "v3.slices")
    for sid in ("bm25_and", "rrf_bm25and_pagetop3", "tri_joint"):
        ranking = {r["qid"]: r["docids"][:10] for r in _rows(REPO, released("v3", "rankings/forms/%s__clean_v2.jsonl") % sid)}
        for name, qids in slices.items():
            success = hit = 0
            for q in qids:
                docs, n = ranking.get(q, []), shipped.n[q]
                gold = [i for i, d in enumerate(docs) if shipped.grades[q].get(d) == n]
                subset = [i for i, d in enumerate(docs) if 0 < shipped.grades[q].get(d, 0) < n]
                hit += bool(gold)
                success += bool(gold) and (not subset or gold[0] < subset[0])
            prefix = "v3.slices.%s.%s." % (sid, name)
            assert claims[prefix + "queries"]["value"] == len(qids)
            assert claims[prefix + "nclue_score_at_10"]["value"] == pytest.approx(100.0 * success / len(qids), abs=1e-9)
            assert claims[prefix + "gold_hit_at_10"]["value"] == pytest.approx(100.0 * hit / len(qids), abs=1e-9)
    assert sum(1 for cid in claims if cid.endswith(".n2.queries")) == 21       # the clean scorecard's systems
