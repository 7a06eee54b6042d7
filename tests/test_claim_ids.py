"""Claim ids are declared once, as templates with named parts (nclue/core/claim_ids.py; docs/claims.md#claim-ids):
every frozen claim is built by its analysis's templates, freeze refuses one that is not, and no module outside
the declarations (the analyses included) spells a claim id or takes one apart."""

import ast
import json
import os

import pytest

import nclue
from nclue.analyses import REGISTRY
from nclue.analyses.base import Value
from nclue.core import claim_ids
from nclue.core.claim_ids import AGREEMENT, SCORECARD, V2_DIRECTION, ClaimId, ClaimIdError

PACKAGE_DIR = os.path.dirname(nclue.__file__)
REPO = os.path.dirname(PACKAGE_DIR)
# where ids are spelled: the table itself
DECLARING = (os.path.join("core", "claim_ids.py"),)
# the first segment of every claim id: a release, the label audit, the paper audit, the release's consistency
ID_PREFIXES = tuple(name + "." for name in ("v1", "v2", "v3", "audit", "paper", "release"))


def _frozen():
    for name in sorted(REGISTRY):
        path = os.path.join(REPO, "reference_metrics", name + ".json")
        yield name, [c["id"] for c in json.load(open(path, encoding="utf-8"))["claims"]]


def test_every_frozen_claim_is_built_by_its_own_analysis_templates_and_no_template_is_dead():
    used = set()
    for name, ids in _frozen():
        assert claim_ids.unmatched(name, ids) == [], name
        assert all(claim_ids.analysis_of(cid) == name for cid in ids), name
        for cid in ids:
            used.update(t.template for t in REGISTRY[name].claims if t.match(cid))
    assert sorted(t.template for t in claim_ids.TEMPLATES if t.template not in used) == []


def test_freeze_refuses_a_claim_whose_id_no_template_builds():
    from nclue.run.freeze import FreezeError, _check_claim_ids

    analysis = REGISTRY[SCORECARD.analysis_on("v1")]
    good = [(Value("v1.scorecard.bm25_and.no_gold", 1.0), [])]
    _check_claim_ids("v1.scorecard", analysis, good)                  # passes silently
    for stray in ("v1.scorecard.bm25_and.no_gold_at_10", "v1.scorecard.bm25_and", "v1.matrix.bm25_and.no_gold"):
        with pytest.raises(FreezeError, match="claim id %s matches none of its templates" % stray.replace(".", r"\.")):
            _check_claim_ids("v1.scorecard", analysis, good + [(Value(stray, 1.0), [])])


def test_a_template_builds_checks_and_takes_apart_ids_by_hand_worked_cases():
    v1 = SCORECARD.on("v1")
    assert v1(system="bm25_and", measure="no_gold") == "v1.scorecard.bm25_and.no_gold"
    assert v1.match("v1.scorecard.bm25_and.no_gold") == {"system": "bm25_and", "measure": "no_gold"}
    assert v1.match("v3.scorecard.bm25_and.no_gold") is None                  # the release is written in
    assert SCORECARD.match("v3.scorecard.bm25_and.no_gold") == {"release": "v3", "system": "bm25_and",
                                                               "measure": "no_gold"}
    assert SCORECARD.match("v2.scorecard.bm25_and.no_gold") is None           # v2 has no scorecard
    assert SCORECARD.match("v1.scorecard.bm25_and.no_gold.x") is None
    assert SCORECARD.match("v1.scorecard.bm25_and.gold_hit") is None          # not a declared measure
    assert v1(system="{row}", measure="%s") == "v1.scorecard.{row}.%s"        # placeholders pass
    # a table frozen once per release: its analysis is named by the release part of each id
    assert SCORECARD.copies == {"v1": "v1.scorecard", "v3": "v3.scorecard"}
    assert claim_ids.analysis_of("v3.scorecard.bm25_and.no_gold") == "v3.scorecard"
    assert claim_ids.analysis_of("v3.inference.design.seed") == "v3.inference.bootstrap"
    assert claim_ids.unmatched("v3.scorecard", ["v1.scorecard.bm25_and.no_gold", "v3.scorecard.bm25_and.no_gold"]) \
        == ["v1.scorecard.bm25_and.no_gold"]
    assert SCORECARD.on("v3") is SCORECARD.on("v3") and SCORECARD.on("v3").analysis == "v3.scorecard"
    assert AGREEMENT.bind(stage="initial")("pairs") == "audit.agreement.initial.pairs"
    assert V2_DIRECTION.on("construction")(direction="scale", statistic="v1_delta") == \
        "v2.directions.construction.scale.v1_delta"
    assert V2_DIRECTION.match("v2.directions.s0.scale.v1_delta")["analysis"] == "v2.directions.s0"
    for call, message in ((lambda: v1(system="bm25_and"), "missing part measure"),
                          (lambda: v1(system="bm25_and", measure="no_gold", form="raw"), "no part form"),
                          (lambda: v1(system="bm 25", measure="no_gold"), "not a name of the pattern"),
                          (lambda: v1(system=3, measure="no_gold"), "system must be a str"),
                          (lambda: SCORECARD(system="bm25_and", measure="no_gold"), "missing part release"),
                          (lambda: SCORECARD(release="v2", system="bm25_and", measure="no_gold"),
                           "release 'v2' is not one of v1, v3"),
                          (lambda: SCORECARD.on("v2"), r"no copy 'v2' \(its copies are v1, v3\)"),
                          (lambda: AGREEMENT.on("v1"), "no copy 'v1'"),
                          (lambda: AGREEMENT(stage="final", statistic="pairs"), "stage 'final' is not one of"),
                          (lambda: AGREEMENT("pairs"), "a positional value fills the one part left"),
                          (lambda: V2_DIRECTION.on("final"), "no copy 'final'"),
                          (lambda: ClaimId("x.{a}", "x", b=("1",)), "no part b")):
        with pytest.raises(ClaimIdError, match=message):
            call()


def _id_literals(path):
    """``(line, text)`` of every string constant outside docstrings that is shaped like a claim id (or its prefix)."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
            node = node.values[0]           # an f-string: its literal start
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            text = node.value
            # a file name of the release ("audit.jsonl") is not an id
            if text.startswith(ID_PREFIXES) and " " not in text and "/" not in text and \
                    not text.endswith((".json", ".jsonl")):
                out.append((node.lineno, text))
    return sorted(set(out))


def _outside_the_declarations():
    for dirpath, _, files in os.walk(PACKAGE_DIR):
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(dirpath, name), PACKAGE_DIR)
            if name.endswith(".py") and not rel.startswith(DECLARING):
                yield rel, os.path.join(dirpath, name)


def test_no_module_outside_the_declarations_spells_a_claim_id():
    found = ["%s:%d: %s" % (rel, line, text) for rel, path in _outside_the_declarations()
             for line, text in _id_literals(path)]
    assert found == []


def test_the_literal_scan_finds_a_spelled_id_a_prefix_and_a_pattern(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('"""v1.scorecard.bm25_and.no_gold in a docstring is prose."""\n'
                     'A = "v1.scorecard.bm25_and.no_gold"\nB = "audit.policy."\nC = "v2.forms.%s.raw.no_gold"\n'
                     'D = "v1.inference (Table 5 intervals)"\nE = "v3.matrix"\nF = f"v3.contrasts.{x}.base"\n'
                     'G = "audit.jsonl"\n')
    assert sorted(text for _, text in _id_literals(str(probe))) == sorted([
        "v1.scorecard.bm25_and.no_gold", "audit.policy.", "v2.forms.%s.raw.no_gold", "v3.matrix", "v3.contrasts."])


# the only dotted splits outside the declarations: they take apart paper number ids and table names
# (nclue.paperaudit.numbers) and an analysis name's first segment (its release part), never a claim id; a new one
# is reviewed here
DOTTED_SPLITS = {"analyses/base.py": 1, "run/published.py": 1, "paperaudit/results.py": 1,
                 "paperaudit/numbers.py": 1, "paperaudit/crosswalk.py": 1, "paperaudit/places.py": 1}


def test_no_module_outside_the_declarations_takes_a_claim_id_apart():
    counts = {}
    for rel, path in _outside_the_declarations():
        for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("split", "rsplit", "partition", "rpartition") and node.args and \
                    isinstance(node.args[0], ast.Constant) and node.args[0].value == ".":
                key = rel.replace(os.sep, "/")
                counts[key] = counts.get(key, 0) + 1
    assert counts == DOTTED_SPLITS


def test_every_id_the_paper_audit_binds_is_built_by_a_template():
    from nclue.paperaudit.assignments import ASSIGNMENTS
    from nclue.paperaudit.bindings import STRUCTURE
    from nclue.paperaudit.results import RULES

    def concrete(claim):
        return claim.replace("{row}", "x").replace("{key}", "x").replace("{variant}", "x").replace("%s", "x")
    claims = [r.claim for r in RULES] + [b.claim for b in STRUCTURE] + \
        [a.claim_of(("A", "E")) for a in ASSIGNMENTS]
    assert [c for c in claims if claim_ids.template_of(concrete(c)) is None] == []


def test_every_declared_display_names_a_statistic_of_some_frozen_claim_and_the_reports_choose_no_format():
    """The reports show non-measure statistics in the unit and precision nclue/core/measures.py declares: each
    declared statistic is one some frozen claim names, and neither report spells a printf format of its own
    for them (the scan has a probe that fails)."""
    import re

    from nclue.core.measures import KAPPA, STATISTIC_DISPLAYS, display_of
    named = {claim_ids.statistic_of(cid) for _, ids in _frozen() for cid in ids}
    assert sorted(set(STATISTIC_DISPLAYS) - named) == []
    assert claim_ids.statistic_of("audit.agreement.adjudication.fleiss_kappa") == "fleiss_kappa"
    assert display_of("fleiss_kappa") is KAPPA and KAPPA.show(0.5) == "0.500" and display_of("pairs").show(77) == "77"
    printf = re.compile(r'"%[+]?\.\d+f"')
    assert printf.search('g(a("condition_kappa"), "%.3f")')
    with open(os.path.join(PACKAGE_DIR, "reports", "report.py"), encoding="utf-8") as handle:
        source = handle.read()
    audit = source[source.index("def audit_section"):source.index("def paper_section")]
    assert printf.findall(audit) == []
