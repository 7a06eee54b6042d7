"""Table S14: the evaluation impact of both validation stages (paper section 3.2; supplement 10.6;
docs/analyses.md#auditimpact).

``audit.impact`` (sensitivity level) compares consecutive qrel copies:

* ``v1``: CrossPage's construction copy (``data/v1/qrels_construction.jsonl``) against its final copy
  (``data/v1/qrels.jsonl``: the construction copy with the stratified audit's repairs applied; the paper's
  "reversing those observed corrections" compares the same two copies from the other side).  The
  challenge reviews SourceShift pairs only (supplement 10.5), so v1's copy after the challenge is its
  final copy and is not a third column.
* ``v3``: RealPage's construction copy against its final copy (the automatic expanded-page audit's drops and
  repairs, docs/realpage.md#the-audit), as v1's.
* ``v2``: SourceShift construction -> S0 (the stratified audit) -> S (the residual-qrel challenge),
  each copy over its own evaluation queries (``data/v2/genealogy.json``).

Per stage: reviewed grades changed and zero-gold queries removed (from the genealogy); over every run we have (v1: the raw matrix; v2: 13 systems x 3 forms) the Spearman rho of
the before and after values of n-Clue Score@10 and of gold-only NDCG@10, the largest absolute
change of each, and the largest movement in positions (runs ranked by value descending, ties
sharing the better position).  Per copy: the representative systems' gold-only NDCG@10 in 0-1
units, and on v2 the raw fusion - BM25-AND gold-only NDCG@10 gap with its two-sided query-paired
sign-flip p and exact-gold-set-family sign-flip p (``protocol.STAGES_QUERY`` and ``STAGES_FAMILY`` draws each, p = (1 + c)/(B + 1);
:mod:`nclue.stats.randomization`).
"""

import math

from ..core import layout
from ..core.claim_ids import IMPACT, IMPACT_OF, IMPACT_TABLE
from ..core.measures import GOLD_NDCG, NCLUE_SCORE
from ..core.metrics import summary
from ..core.structure import families
from ..stats import montecarlo, protocol, randomization
from ..stats.bootstrap import FamilyDesign
from ..stats.rank import spearman
from .base import Analysis, Unit, Value
from .shared.outcome_vectors import gold_sets, outcomes
from .shared.release_systems import form_systems
from .shared.robustness_values import S1I_GAP

FUSION, BM25 = "rrf_bm25and_pagetop3", "bm25_and"
V1_REPRESENTATIVE = (FUSION, "bm25_dec_sdr", BM25)
AUDIT_STAGE = "audit"           # CrossPage's stage between its construction and final copies, as the ids name it
SRC = "supplement Table S14 (validation stages; gold-only NDCG@10 in 0-1 units unless named)"


def positions(values):
    """1-based positions by value descending, ties sharing the better position.

    >>> positions([0.3, 0.5, 0.3])
    [2, 1, 2]
    """
    return [1 + sum(1 for w in values if w > v) for v in values]


def stage_values(claim, before, after):
    """Spearman rho, largest absolute change and largest position movement between two lists of
    run summaries (``{"nclue_score": points, "gold_ndcg": points}``), as Values (0-1 units for NDCG);
    ``claim(score, statistic)`` gives each value's id."""
    out = []
    for key, scale in ((NCLUE_SCORE.key, 1.0), (GOLD_NDCG.key, 0.01)):
        b = [s[key] * scale for s in before]
        a = [s[key] * scale for s in after]
        moves = [abs(x - y) for x, y in zip(positions(b), positions(a))]
        out += [Value(claim(key, "spearman_rho"), spearman(b, a) if len(set(b)) > 1 else None, source=SRC),
                Value(claim(key, "max_abs_change"), max(abs(x - y) for x, y in zip(a, b)), source=SRC),
                Value(claim(key, "max_position_movement"), max(moves), source=SRC)]
    return out


def _two_copy_units(inst):
    """Table S14's one stage of a release whose genealogy is a construction copy and a final copy (CrossPage: the
    stratified audit; RealPage: the automatic expanded-page audit), on ``inst``, that release's instrument."""
    systems, _ = inst.systems()
    sids = sorted(systems)
    files = [inst.spec.ranking(s) for s in sids]
    scorecard = [inst.spec.form_ranking(s, layout.CLEAN) for s in form_systems(inst)]
    construction, final = inst.spec.copies

    release = inst.spec.name
    stage_of = IMPACT.bind(release=release, copy=AUDIT_STAGE)
    table = IMPACT_TABLE.bind(release=release, copy=AUDIT_STAGE)

    def compute():
        stage = inst.genealogy()[final.name]
        gold_ndcg = GOLD_NDCG.key
        # the runs each table compares: the matrix's top-10 rankings ("all 70 CrossPage systems", 10.6) and the
        # query-form rankings the release ships beside them ("the 39 query-form rankings", section 13)
        out = [Value(stage_of("grades_changed"), stage.grades_changed, source=SRC),
               Value(stage_of(final.removal), len(stage.removed_queries), source=SRC),
               Value(stage_of("runs"), len(files), source=SRC),
               Value(stage_of("form_runs"), len(scorecard) * len(layout.QUERY_FORMS), source=SRC)]
        for label, rels in (("matrix", files), ("scorecard", scorecard)):
            before = [summary(outcomes(inst, rel, construction)) for rel in rels]
            after = [summary(outcomes(inst, rel, final)) for rel in rels]
            out += stage_values(lambda key, statistic, label=label: table(table=label, score=key, statistic=statistic),
                                before, after)
            if label == "matrix":
                moves = []
                for sid, b, a in zip(sids, before, after):
                    if sid in V1_REPRESENTATIVE:
                        out += [Value(IMPACT_OF(release=release, copy=construction.name, subject=sid,
                                                statistic=gold_ndcg), b[gold_ndcg] / 100.0, source=SRC),
                                Value(IMPACT_OF(release=release, copy=AUDIT_STAGE, subject=sid, statistic=gold_ndcg),
                                      a[gold_ndcg] / 100.0, source=SRC)]
                        moves.append(abs(a[gold_ndcg] - b[gold_ndcg]) / 100.0)
                # "representative gold-only NDCG@10 moves by at most .0012" (supplement 10.6): Table S14's systems
                out.append(Value(table(table="representative", score=gold_ndcg, statistic="max_abs_change"),
                                 max(moves) if moves else None, source=SRC))
        return out
    inputs = [inst.spec.corpus, inst.spec.conditions, inst.spec.queries, inst.spec.genealogy, construction.path,
              final.path]
    return [Unit(release, inputs + sorted(set(files) | set(scorecard)), compute)]


def gap_tests(inst, copy):
    """The raw fusion - BM25-AND gold-only NDCG@10 gap on one qrel copy (a
    :class:`~nclue.core.layout.QrelCopy`; 0-1 units) with its query-paired and family sign-flip p-values."""
    label = copy.name
    qids = sorted(inst.evaluation_queries(copy))
    fusion = outcomes(inst, layout.SOURCESHIFT.form_ranking(FUSION, layout.RAW), copy).gold_ndcg
    bm25 = outcomes(inst, layout.SOURCESHIFT.form_ranking(BM25, layout.RAW), copy).gold_ndcg
    of = IMPACT_OF.bind(release=inst.spec.name, copy=label)
    stage_of = IMPACT.bind(release=inst.spec.name, copy=label)
    query_masks = randomization.draw_masks(protocol.stream(protocol.STAGES_QUERY, label=label), len(qids),
                                           protocol.draws(protocol.STAGES_QUERY))
    per_query = randomization.to_integer_units([f - b for f, b in zip(fusion, bm25)])
    design = FamilyDesign(qids, families(gold_sets(inst, copy)))
    family_masks = randomization.draw_masks(protocol.stream(protocol.STAGES_FAMILY, label=label), design.n_families,
                                            protocol.draws(protocol.STAGES_FAMILY))
    by_family = randomization.family_differences(design, bm25, fusion)
    query_test = randomization.SignFlipTest(per_query, query_masks)
    family_test = randomization.SignFlipTest(by_family, family_masks)
    query_p, query_one = _two_and_one_sided(query_test)
    family_p, family_one = _two_and_one_sided(family_test)
    query_est = montecarlo.p_estimate(query_p, protocol.STAGES_QUERY, query_masks.n_draws, alternatives=[
        ("one-sided", query_one), ("exact-gold-set families flipped instead of queries", _paper_scale(family_test))])
    family_est = montecarlo.p_estimate(family_p, protocol.STAGES_FAMILY, family_masks.n_draws, alternatives=[
        ("one-sided", family_one), ("queries flipped instead of exact-gold-set families", _paper_scale(query_test))])
    gap = IMPACT_OF.bind(release=inst.spec.name, copy=label, subject=S1I_GAP)
    return [Value(of(subject="fusion", statistic=GOLD_NDCG.key), math.fsum(fusion) / len(qids), source=SRC),
            Value(of(subject=BM25, statistic=GOLD_NDCG.key), math.fsum(bm25) / len(qids), source=SRC),
            Value(gap("gold_ndcg_gap"), (math.fsum(fusion) - math.fsum(bm25)) / len(qids), source=SRC),
            Value(gap("query_paired_p"), query_p, source=SRC, estimate=query_est),
            Value(gap("family_p"), family_p, source=SRC, estimate=family_est),
            Value(stage_of("families"), design.n_families, source=SRC),
            Value(stage_of("queries"), len(qids), source=SRC)]


def _paper_scale(test):
    """A test's two-sided p as the paper's randomization draws would show it."""
    return montecarlo.translated(test.p_value(), len(test.null), protocol.PAPER_RANDOMIZATION_DRAWS)


def _two_and_one_sided(test):
    """A test's two-sided p, and its one-sided p in the observed direction (the wrong procedure it is told
    apart from) as the paper's draws would show it."""
    count, n_draws = randomization.one_sided_counts(test)
    return test.p_value(), montecarlo.translated((1 + count) / (n_draws + 1), n_draws,
                                                 protocol.PAPER_RANDOMIZATION_DRAWS)


def _v2_units(inst):
    v2 = inst.release(layout.SOURCESHIFT)
    sids = form_systems(v2)
    runs = [layout.SOURCESHIFT.form_ranking(s, f) for s in sids for f in layout.QUERY_FORMS]
    base = [layout.V2_CORPUS, layout.V2_CONDITIONS, layout.V2_QUERIES, layout.V2_GENEALOGY]
    units = []
    if FUSION in sids and BM25 in sids:
        raw = [layout.SOURCESHIFT.form_ranking(s, layout.RAW) for s in (FUSION, BM25)]
        for copy in layout.SOURCESHIFT.copies:
            units.append(Unit("v2/" + copy.name, [layout.V2_CORPUS, layout.V2_CONDITIONS, layout.V2_QUERIES] +
                              list(copy.evaluation_inputs) + raw, lambda copy=copy: gap_tests(v2, copy)))
    for parent, child in zip(layout.SOURCESHIFT.copies, layout.SOURCESHIFT.copies[1:]):
        def compute(parent=parent, child=child):
            stage = v2.genealogy()[child.name]
            before = [summary(outcomes(v2, rel, parent)) for rel in runs]
            after = [summary(outcomes(v2, rel, child)) for rel in runs]
            stage_of = IMPACT.bind(release=v2.spec.name, copy=child.name)
            of = IMPACT_OF.bind(release=v2.spec.name, copy=child.name)
            return [Value(stage_of("grades_changed"), stage.grades_changed, source=SRC),
                    Value(stage_of(child.removal), len(stage.removed_queries), source=SRC),
                    Value(stage_of("runs"), len(runs), source=SRC)] + stage_values(
                lambda key, statistic: of(subject=key, statistic=statistic), before, after)
        units.append(Unit("v2/%s->%s" % (parent.name, child.name), base + [parent.path, child.path] + runs, compute))
    return units


def _units(inst):
    units = []
    for release in (layout.CROSSPAGE, layout.REALPAGE):
        copies = release.copies
        if inst.exists(copies[0].path) and inst.exists(release.genealogy) and inst.exists(release.systems):
            units += _two_copy_units(inst.release(release))
    if inst.exists(layout.V2_SYSTEMS) and inst.exists(layout.V2_GENEALOGY):
        units += _v2_units(inst)
    return units


ANALYSES = [Analysis(IMPACT.analysis, "sensitivity", "paper section 3.2; supplement Table S14", _units)]
