"""Published results bound to claims (issue 16): bindings resolve to claims in a compatible unit; on an
instrument marked not synthetic whose 'published' values are its own outputs every bound number passes
and one changed value fails naming table and row; marked synthetic, they skip with the reason; the
crosswalk check fails when a Table 2 block is dropped."""

import json
import os
import shutil
from decimal import ROUND_HALF_UP, Decimal

import pytest
from conftest import REPO, released, reproduce_report, retranscribe

from nclue.paperaudit import results

NUMBERS = os.path.join(REPO, "reference_metrics", "paper", "numbers.json")


def test_every_unbound_number_has_a_declared_reason():
    numbers = json.load(open(NUMBERS, encoding="utf-8"))["numbers"]
    unbound = [n["id"] for n in numbers if results.rule_for(n["id"])[0] is None]
    assert len(unbound) <= 95
    assert [nid for nid in unbound if results.unbound_reason(nid) not in results.UNBOUND_REASONS] == []
    # and no pattern of the declared list shadows a bound number
    assert [n["id"] for n in numbers if results.rule_for(n["id"])[0] is not None
            and results.unbound_reason(n["id"]) is not None] == []


def test_rule_matching_and_reasons_by_hand():
    rule, row = results.rule_for("T3.hybrid.score")
    assert rule.claim == "v1.scorecard.{row}.nclue_score_at_10" and row == "hybrid"
    rule, row = results.rule_for("S2b.colqwen2.5_ptop3.clean")       # a run id with a dot
    assert rule.claim == "v1.forms.{row}.clean_v2.nclue_score_at_10" and row == "colqwen2.5_ptop3"
    rule, row = results.rule_for("X.s41.hybrid_miss")                 # a prose restatement names its row
    assert rule.namespace == "system" and row == "hybrid"
    assert results.rule_for("T6.size.all")[0].claim == "v1.table1.queries"
    assert results.rule_for("X.s43.long_gap_top3.gap") == (None, None)
    assert "crosswalk" in results.unbound_reason("T2.total")
    assert results.unbound_reason("T3.hybrid.score") is None             # bound numbers have no reason
    # Table 5's {variant} is the run playing the variant the paper names (roles.BLOCKS), whatever the
    # instrument's own best variant ("displayed_variant") is
    crosswalk = {"block": {"fusion": "fusion", "scale": None}, "system": {"hybrid": "rrf_x"}}
    claim, why = results.resolve(results.rule_for("T5.fusion.delta")[0], "fusion", crosswalk,
                                 {"v1.contrasts.fusion.displayed_variant": "rrf_other"})
    assert claim == "v1.contrasts.fusion.rrf_x.delta_score" and why == ""
    assert results.resolve(results.rule_for("T5.scale.delta")[0], "scale", crosswalk, {}) == (
        None, "blocked on this instrument")
    claim, why = results.resolve(results.rule_for("T5.fusion.delta")[0], "fusion", {"block": {"fusion": "f"}})
    assert claim is None and "variant system / hybrid of block fusion" in why
    rule = results.ResultRule("S9.a1.e2", "audit.agreement.initial.confusion", index=(1, 2))
    assert results.claim_value(rule, rule.claim, {rule.claim: [[0, 1, 2], [3, 4, 5]]}) == 5
    rule = results.ResultRule("x", "absent.tally", absent_zero=True)
    assert results.claim_value(rule, rule.claim, {}) == 0
    assert results.scale_value(50.0, "1/100") == 0.5


RANGES = {"pct": (0.0, 100.0), "prop": (-1.0, 1.0), "p": (0.0, 1.0)}


def test_every_binding_resolves_to_a_computed_claim_in_a_compatible_unit(repo_run):
    code, report = repo_run["code"], repo_run["report"]
    assert code == 0, repo_run["stdout"][-2000:]
    rows = {r["id"]: r for r in json.load(open(NUMBERS, encoding="utf-8"))["numbers"]}
    published = report["published_results"]
    bound = [b for b in published["bindings"] if b["bound"]]
    assert len(bound) >= 700 and published["summary"]["bound"] == len(bound)
    problems = []
    for b in bound:
        if b["claim"] is None:
            assert b["status"] == "skip"              # a blocked configuration, said so
            continue
        value, kind = b["recomputed"], rows[b["number"]]["kind"]
        if value is None:
            problems.append("%s: %s not computed" % (b["number"], b["claim"]))
        elif kind in RANGES and not RANGES[kind][0] - 1e-9 <= value <= RANGES[kind][1] + 1e-9:
            problems.append("%s (%s) bound to %s = %r" % (b["number"], kind, b["claim"], value))
        elif kind == "count" and float(value) != int(value):
            problems.append("%s (count) bound to %s = %r" % (b["number"], b["claim"], value))
    assert not problems, problems[:10]
    # the stand-in is synthetic: every computed binding is a skip showing its own value, never a verdict
    checks = {c["id"]: c for c in report["checks"] if c["group"] == "published"}
    assert all(c["status"] == "skip" for c in checks.values())
    assert "synthetic stand-in: published value applies to the original release" in checks[
        "published:T3.bm25_and.score"]["reason"]
    assert any(i.startswith("published.config:") for i in checks)        # blocked configurations are listed
    assert report["headline"]["published_results"]["verified"] == 0


def _display(value, decimals):
    q = Decimal(1).scaleb(-decimals)
    return str(Decimal(value).quantize(q, rounding=ROUND_HALF_UP))


@pytest.fixture(scope="module")
def self_published(mini_all, tmp_path_factory):
    """The mini release with the paper's transcription whose bound numbers are set to the mini's own
    recomputed values (at the paper's display precision), and the release marked not synthetic."""
    root = str(tmp_path_factory.mktemp("self_published") / "inst")
    shutil.copytree(mini_all, root)
    os.makedirs(os.path.join(root, "reference_metrics", "paper"), exist_ok=True)
    shutil.copy(NUMBERS, os.path.join(root, "reference_metrics", "paper", "numbers.json"))
    from nclue.run.freeze import write_release_manifest
    write_release_manifest(root)
    _, _, _, report, _ = reproduce_report(root)
    doc = json.load(open(NUMBERS, encoding="utf-8"))
    own = {b["number"]: b for b in report["published_results"]["bindings"] if b["bound"]
           and b["recomputed"] is not None}
    for r in doc["numbers"]:
        if r["id"] in own:
            retranscribe(r, _display(own[r["id"]]["recomputed"], own[r["id"]]["decimals"]))
    open(os.path.join(root, "reference_metrics", "paper", "numbers.json"), "w", encoding="utf-8").write(
        json.dumps(doc, indent=1, sort_keys=True) + "\n")
    build = os.path.join(root, "data", "v1", "build.json")
    info = json.load(open(build, encoding="utf-8"))
    info["synthetic"] = False
    open(build, "w", encoding="utf-8").write(json.dumps(info, indent=1, sort_keys=True) + "\n")
    write_release_manifest(root)
    return root, sorted(own)


def _published(report):
    return {c["id"]: c for c in report["checks"] if c["group"] == "published"}


def test_a_release_not_marked_synthetic_verifies_its_own_published_values(self_published):
    root, own = self_published
    _, _, _, report, _ = reproduce_report(root)
    checks = _published(report)
    verdicts = {i: c for i, c in checks.items() if c["status"] != "skip"}
    assert len(verdicts) == len(own) > 300
    assert all(c["status"] == "pass" for c in verdicts.values()), [
        c["reason"] for c in verdicts.values() if c["status"] != "pass"][:5]
    assert report["headline"]["published_results"]["verified"] == len(own)


def test_one_changed_published_value_fails_naming_table_and_row(self_published, tmp_path):
    root = str(tmp_path / "inst")
    shutil.copytree(self_published[0], root)
    path = os.path.join(root, "reference_metrics", "paper", "numbers.json")
    doc = json.load(open(path, encoding="utf-8"))
    target = next(r for r in doc["numbers"] if r["id"] == "T3.bm25_and.score")
    retranscribe(target, "%.1f" % (target["value"] + 0.5))
    open(path, "w", encoding="utf-8").write(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    from nclue.run.freeze import write_release_manifest
    write_release_manifest(root)
    code, out, _, report, fails = reproduce_report(root)
    assert code == 1
    failed = [c for c in _published(report).values() if c["status"] == "fail"]
    assert [c["id"] for c in failed] == ["published:T3.bm25_and.score"]
    assert 'Table 3, row "BM25-AND", column "n-Clue Score@10"' in failed[0]["reason"]


def test_the_same_release_marked_synthetic_skips_with_the_reason(self_published, tmp_path):
    root = str(tmp_path / "inst")
    shutil.copytree(self_published[0], root)
    build = os.path.join(root, "data", "v1", "build.json")
    info = json.load(open(build, encoding="utf-8"))
    info["synthetic"] = True
    open(build, "w", encoding="utf-8").write(json.dumps(info, indent=1, sort_keys=True) + "\n")
    from nclue.run.freeze import write_release_manifest
    write_release_manifest(root)
    _, _, _, report, _ = reproduce_report(root)
    checks = _published(report)
    assert all(c["status"] == "skip" for c in checks.values())
    assert sum("synthetic stand-in: published value applies" in c["reason"] for c in checks.values()) == len(
        self_published[1])


def test_dropping_a_table2_block_from_the_crosswalk_fails(mini_all, tmp_path):
    from nclue.run.freeze import freeze, write_release_manifest

    root = str(tmp_path / "inst")
    shutil.copytree(mini_all, root)
    os.makedirs(os.path.join(root, "reference_metrics", "paper"), exist_ok=True)
    shutil.copy(NUMBERS, os.path.join(root, "reference_metrics", "paper", "numbers.json"))
    freeze(root, log=lambda *a: None)                   # the crosswalk is complete: frozen with 0 problems
    path = os.path.join(root, "data", "crosswalk.json")
    doc = json.load(open(path, encoding="utf-8"))
    doc["table2"] = [t for t in doc["table2"] if t["block"] != "reranking"]
    open(path, "w", encoding="utf-8").write(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    write_release_manifest(root)
    code, _, _, _, fails = reproduce_report(root, "--only", "paper")
    assert code == 1
    assert "Table 2 block reranking (4 runs) is not in the crosswalk" in fails["paper.crosswalk.problems"]["reason"]


@pytest.mark.parametrize("edit,field", [
    (lambda d: d["rows"][0].update(namespace="nowhere"), "rows[0].namespace"),
    (lambda d: d["rows"][0].update(stand_in=None, note=" "), "rows[0].note"),
    (lambda d: d["rows"][0].update(stand_in=7), "rows[0].stand_in"),
    (lambda d: d["rows"].append(dict(d["rows"][0])), "rows[%d].paper"),
    (lambda d: d["table2"][0].update(paper_runs="16"), "table2[0].paper_runs"),
    (lambda d: d["table2"][0].update(stand_in_systems=[1]), "table2[0].stand_in_systems"),
    (lambda d: d.update(blocked=["text_jinav4"]), "blocked[0]"),
], ids=["unknown namespace", "blocked without a reason", "id not a string", "duplicate row", "runs not an integer",
        "systems not ids", "blocked entry not an object"])
def test_a_bad_crosswalk_names_the_field(release_template, tmp_path, edit, field):
    from nclue.core.errors import InputError
    from nclue.paperaudit.crosswalk import load

    root = str(tmp_path / "inst")
    shutil.copytree(release_template, root)
    path = os.path.join(root, "data", "crosswalk.json")
    doc = json.load(open(path, encoding="utf-8"))
    edit(doc)
    if "%d" in field:
        field = field % (len(doc["rows"]) - 1)
    open(path, "w", encoding="utf-8").write(json.dumps(doc))
    with pytest.raises(InputError) as info:
        load(root)
    assert str(info.value).startswith(released("data", "crosswalk.json")) and field in str(info.value), str(info.value)


def test_quote_counts_are_one_per_selected_page_as_the_paper_counts_them(repo_run):
    """Table S8, S11 and 10.5 count one quote per selected page ("A 76 18 201 201/201"); the bindings read claims
    that count so, which on the stand-in (every positive answer quotes) equal the selected pages and exceed the
    positive answers."""
    from nclue.paperaudit.results import rule_for

    report = repo_run["report"]
    observed = {c["id"]: c.get("observed") for c in report["checks"]}
    for nid in ("S8.quotes", "S8.quotes_of", "S11.a.quotes", "S11.a.quotes_of", "S11.all.quotes", "X.s1032.quotes"):
        claim = rule_for(nid)[0].claim
        assert ".page_quotes" in claim, (nid, claim)
        stage = claim.rsplit(".", 1)[0]
        assert observed[claim] == observed[stage + ".pages"] > observed[stage + ".positive"], nid
    claim = rule_for("X.s105.quotes")[0].claim
    assert claim == "audit.challenge.protocol.tiebreak_selected_quotes_on_page"
    assert observed[claim] >= observed["audit.challenge.protocol.tiebreak_positive_answers"]


def test_prose_numbers_are_placed_by_section_and_statement(repo_run):
    """No prose place names a pseudo-row made from its id; supplement sections and table captions say so."""
    bindings = repo_run["report"]["published_results"]["bindings"]
    checks = {c["id"]: c for c in repo_run["report"]["checks"]}
    prose = [b for b in bindings if b["number"].startswith("X.") and b["bound"]]
    assert prose
    for b in prose:
        reason = checks["published:" + b["number"]]["reason"]
        assert ", row " not in reason.split(":")[0], reason
    tables = {b["number"]: b["table"] for b in bindings}
    assert tables["X.s101.pairs"] == "supplement section 10.1" and tables["X.s8.docs"] == "supplement section 8"
    assert tables["X.t1.caption_median"] == "Table 1 caption" and tables["X.s42.jina"] == "section 4.2"


def test_design_numbers_are_only_what_the_construction_fixes(repo_run):
    """Measured counts (golds, qrels, slice sizes, a measured zero, p floors) are results, never 'by construction'."""
    kinds = {b["number"]: b["kind"] for b in repo_run["report"]["published_results"]["bindings"] if b["bound"]}
    for nid in ("T1.gold", "X.s8.qrels", "X.s8.gold", "T6.size.lmin_le30", "S1j.size.pool_gt50", "T6.size.n2",
                "T5.scale.delta", "X.abs.scale_change", "X.s42.scale_score", "X.s4.n"):
        assert kinds[nid] == "result", (nid, kinds[nid])
    for nid in ("T1.queries", "T1.documents", "X.s4.draws", "S7.all.pairs"):
        assert kinds[nid] == "design", (nid, kinds[nid])
    assert kinds["S4.lexical.raw.p"] == "floor" and kinds["T5.fusion.ci_lo"] == "monte_carlo"


def test_a_number_stated_once_for_several_cells_is_checked_against_each():
    """'125 each' (X.s8.per_source) is bound to all four sources' document counts: with every count 125 it passes;
    with one of them 124 it fails naming that cell, not only the first."""
    from nclue.run.checks import Check
    from nclue.run.published import build

    def verdict(counts):
        checks = [Check("v2.structure.documents_%s" % src, "construction", "pass", "", "exact", n, n, "test")
                  for src, n in counts.items()]
        out, summary = build(REPO, checks, synthetic=False)
        check = next(c for c in out if c.id == "published:X.s8.per_source")
        return check.status, check.reason
    status, _ = verdict({"arxiv": 125, "eric": 125, "fedreg": 125, "pmc": 125})
    assert status == "pass"
    status, reason = verdict({"arxiv": 125, "eric": 124, "fedreg": 125, "pmc": 125})
    assert status == "fail" and "v2.structure.documents_eric" in reason


def test_the_pairwise_agreements_accept_each_assignment_consistent_with_table_s11():
    """10.3.2's '86.2/92.6/91.5%' names no evaluator pairs: Table S11's positives (A 76, E 77, F 83 of 94) admit
    A-E/A-F/E-F and A-F/A-E/E-F (91.5% = 86/94 is the only even disagreement count, E-F's parity). Either passes;
    an order the marginals exclude fails even when its values show as published."""
    from nclue.paperaudit.assignments import consistent_assignments
    from nclue.run.published import build

    claim = "audit.agreement.adjudication.pairwise_agreement.%s"
    ids = ["X.s1032.pair1", "X.s1032.pair2", "X.s1032.pair3"]

    def verdicts(values):
        recomputed = {claim % pair: (100 * k / 94, None) for pair, k in values.items()}
        checks, built = build(REPO, [], False, recomputed)
        status = {c.id: c.status for c in checks}
        bound = {b["number"]: b["claim"] for b in built["bindings"] if b["number"] in ids}
        return [status["published:" + nid] for nid in ids], [bound[nid] for nid in ids]

    assert verdicts({"A-E": 81, "A-F": 87, "E-F": 86}) == (["pass"] * 3, [claim % p for p in ("A-E", "A-F", "E-F")])
    assert verdicts({"A-E": 87, "A-F": 81, "E-F": 86}) == (["pass"] * 3, [claim % p for p in ("A-F", "A-E", "E-F")])
    # E-F at 81/94 would need 13 disagreements from positives 77 and 83 (an even sum): no consistent order shows it
    status, _ = verdicts({"A-E": 86, "A-F": 87, "E-F": 81})
    assert "fail" in status
    # by hand: the bound and the parity alone decide it
    agreements = {"p1": [81], "p2": [87], "p3": [86]}
    assert consistent_assignments(["p1", "p2", "p3"], [("A", "E"), ("A", "F"), ("E", "F")], agreements,
                                  {"A": 76, "E": 77, "F": 83}, 94) == [
        (("A", "E"), ("A", "F"), ("E", "F")), (("A", "F"), ("A", "E"), ("E", "F"))]
    assert consistent_assignments(["p1"], [("A", "E")], {"p1": [94]}, {"A": 10, "E": 12}, 94) == []   # |10-12| > 0


def test_only_paper_keeps_each_numbers_kind_from_its_frozen_claim(repo_run):
    """Issue 57: `--only paper` computes no claim, yet each bound number keeps the kind its frozen claim declares
    (exact, Monte Carlo, at the p-value floor): the summary's kinds equal the full run's."""
    from conftest import run_reproduce

    full = repo_run["report"]["published_results"]["summary"]
    code, _, _ = run_reproduce("--only", "paper", "--json", os.path.join(os.path.dirname(repo_run["paths"]["json"]),
                                                                           "paper.json"), "--quiet")
    only = json.load(open(os.path.join(os.path.dirname(repo_run["paths"]["json"]), "paper.json"),
                          encoding="utf-8"))["published_results"]["summary"]
    assert code == 0
    assert only["bound_by_kind"] == full["bound_by_kind"] and only["monte_carlo"]["numbers"] == \
        full["monte_carlo"]["numbers"] > 0


def test_every_claim_is_bound_under_one_kind(repo_run):
    """Issue 56: one quantity, one kind: no claim is a result in one binding and a design count in another
    (the table of rules, and the bindings a full run made, templates filled)."""
    assert results.mixed_kinds() == {}
    concrete = next(r for r in results.RULES if "{" not in r.claim)
    probe = results.RULES + (results.ResultRule("X.probe", concrete.claim, design=not concrete.design),)
    assert list(results.mixed_kinds(probe)) == [concrete.claim]
    kinds = {}
    for b in repo_run["report"]["published_results"]["bindings"]:
        if b.get("claim"):
            kinds.setdefault(b["claim"], set()).add("design" if b["kind"] == "design" else "data")
    assert {c: k for c, k in kinds.items() if len(k) > 1} == {}


def test_a_number_with_two_readings_passes_under_either_and_says_which():
    """10.6's "pre/post rank correlation is .9998" names no score: bound to the n-Clue Score reading, it passes
    under the gold-only NDCG reading too, and the note names both and the one taken
    (docs/paper-audit.md#binding-decisions)."""
    from nclue.paperaudit.solve import Num
    from nclue.run.published import _reading
    rule, _ = results.rule_for("X.s106.rho")
    first, second = (rule.claim,) + rule.readings
    assert first.endswith("matrix.nclue_score.spearman_rho") and second.endswith("matrix.gold_ndcg.spearman_rho")
    num = Num({"id": "X.s106.rho", "text": ".9998", "kind": "prop", "denominator": None})
    assert _reading(rule, first, num, {first: 0.9991, second: 0.99984})[0] == second
    assert _reading(rule, first, num, {first: 0.99979, second: 0.99984})[0] == first
    claim, noted = _reading(rule, first, num, {first: 0.95, second: 0.96})
    assert claim == first                                   # neither shows: the primary reading, which then fails
    assert noted.note.endswith("Readings: %s, %s; bound as %s" % (first, second, first))
