"""Published results bound to the claims that compute them (docs/paper-audit.md#published-results).

Each :class:`ResultRule` binds the transcribed numbers whose id matches ``pattern`` (one ``*`` stands
for a paper row key) to a claim: ``claim`` is the claim id with ``{row}`` replaced by the id the
instrument's crosswalk gives that row key in ``namespace`` (``data/crosswalk.json``)
and ``{displayed}`` by the displayed variant of a Table 5 block (the run's own
``v1.contrasts.<block>.displayed_variant``).  ``scale`` converts the claim's unit to the paper's
(``"1/100"`` for a claim in points bound to a proportion, ``100`` for a proportion bound to points);
``index`` picks a cell of a list-valued claim; ``absent_zero`` says that a count missing from the run
is zero (transition tallies list only the transitions that occur).

A number is compared under the paper's display rule, the paper audit's one implementation
(:meth:`nclue.paperaudit.solve.Num.shows`: round half up; a count must be equal): the claim value
times ``scale`` must display as the published text.

Numbers no rule binds are listed with the reason of the first matching :data:`UNBOUND` pattern.
Every pattern is literal text, so ``grep`` finds the rule behind a number.
"""

import math
from fnmatch import fnmatchcase
from typing import NamedTuple, Optional, Tuple

from .bindings import STRUCTURE


class ResultRule(NamedTuple):
    pattern: str
    claim: str
    namespace: Optional[str] = None
    scale: object = 1
    index: Tuple[int, ...] = ()
    absent_zero: bool = False
    key: Optional[str] = None    # the row key of a number whose id names no row (a prose restatement)


SLICES = ("all", "n2", "n3", "lmin_le30", "lmin_gt100", "pool_le25", "pool_gt50")
FORMS = (("raw", "raw"), ("clean", "clean_v2"), ("natural", "natural"))

_RULES = [
    # ---- Table 3: the clean scorecard; Table 4: its outcome decomposition
    ResultRule("T3.*.score", "v1.scorecard.{row}.nclue_score_at_10", "system"),
    ResultRule("T3.*.hit", "v1.scorecard.{row}.gold_hit_at_10", "system"),
    ResultRule("T3.*.ndcg", "v1.scorecard.{row}.gold_ndcg_at_10", "system"),
    ResultRule("T4.*.complete", "v1.scorecard.{row}.complete_first", "system"),
    ResultRule("T4.*.subset", "v1.scorecard.{row}.subset_first", "system"),
    ResultRule("T4.*.nogold", "v1.scorecard.{row}.no_gold", "system"),
    # ---- Table 5: controlled contrasts (displayed endpoint)
    ResultRule("T5.*.base", "v1.contrasts.{row}.{displayed}.base_score", "block"),
    ResultRule("T5.*.variant", "v1.contrasts.{row}.{displayed}.variant_score", "block"),
    ResultRule("T5.*.delta", "v1.contrasts.{row}.{displayed}.delta_score", "block"),
    ResultRule("T5.*.dhit", "v1.contrasts.{row}.{displayed}.delta_hit", "block"),
    ResultRule("T5.*.dndcg", "v1.contrasts.{row}.{displayed}.delta_gold_ndcg", "block"),
    ResultRule("T5.*.ci_lo", "v1.inference.contrast.{row}.{displayed}.delta_score_ci_low", "block"),
    ResultRule("T5.*.ci_hi", "v1.inference.contrast.{row}.{displayed}.delta_score_ci_high", "block"),
    ResultRule("T5.*.p", "v1.inference.block.{row}.p_selected_holm", "block"),
    # ---- Table 6: task-factor slices (and their sizes)
    ResultRule("T6.size.all", "v1.table1.queries"),
    ResultRule("T6.size.n2", "v1.table1.queries_n2"),
    ResultRule("T6.size.n3", "v1.table1.queries_n3"),
    # ---- Table 7: operation directions
    ResultRule("T7.*.crosspage", "v2.directions.{row}.v1_delta", "direction"),
    ResultRule("T7.*.sourceshift", "v2.directions.{row}.v2_delta", "direction"),
    # ---- Table 8: page-evidence delivery
    ResultRule("T8.*.cond", "v1.evidence.{row}.all.condition_coverage", "page_run"),
    ResultRule("T8.*.full", "v1.evidence.{row}.all.full_coverage", "page_run"),
    ResultRule("T8.*.support", "v1.evidence.{row}.all.gold_support_at_10", "page_run"),
    # ---- Table S4: SourceShift query-paired contrasts
    ResultRule("X.s4.n", "v2.structure.queries"),
    # ---- Table S5a: condition masking (Delta Gold-NDCG, points)
    ResultRule("S5a.*.c1", "v1.masking.{row}.drop_c1.delta_gold_ndcg", "mask"),
    ResultRule("S5a.*.c2", "v1.masking.{row}.drop_c2.delta_gold_ndcg", "mask"),
    ResultRule("S5a.*.c3", "v1.masking.{row}.drop_c3.delta_gold_ndcg", "mask"),
    # ---- Tables S8-S9: initial audit agreement
    ResultRule("S8.pairs", "audit.agreement.initial.pairs"),
    ResultRule("S8.conditions", "audit.agreement.initial.conditions"),
    ResultRule("S8.grade_agree", "audit.agreement.initial.grade_agree"),
    ResultRule("S8.grade_agree_of", "audit.agreement.initial.pairs"),
    ResultRule("S8.grade_agree_pct", "audit.agreement.initial.grade_agreement"),
    ResultRule("S8.kappa_w", "audit.agreement.initial.grade_kappa_linear"),
    ResultRule("S8.cond_agree", "audit.agreement.initial.condition_agree"),
    ResultRule("S8.cond_agree_of", "audit.agreement.initial.conditions"),
    ResultRule("S8.cond_agree_pct", "audit.agreement.initial.condition_agreement"),
    ResultRule("S8.pageset_agree", "audit.agreement.initial.page_set_agreement"),
    ResultRule("X.s1021.wilson_grade_lo", "audit.agreement.initial.grade_agreement_wilson_low"),
    ResultRule("X.s1021.wilson_grade_hi", "audit.agreement.initial.grade_agreement_wilson_high"),
    ResultRule("X.s1021.wilson_cond_lo", "audit.agreement.initial.condition_agreement_wilson_low"),
    ResultRule("X.s1021.wilson_cond_hi", "audit.agreement.initial.condition_agreement_wilson_high"),
    ResultRule("X.s1021.kappa_binary", "audit.agreement.initial.condition_kappa"),
    ResultRule("X.s1021.a_pos", "audit.agreement.initial.positive_A"),
    ResultRule("X.s1021.e_pos", "audit.agreement.initial.positive_E"),
    ResultRule("X.s1021.agree_n2", "audit.agreement.strata.n2.grade_agreement"),
    ResultRule("X.s1021.agree_n3", "audit.agreement.strata.n3.grade_agreement"),
    ResultRule("X.s1021.agree_cp", "audit.agreement.strata.v1.grade_agreement"),
    ResultRule("X.s1021.agree_ss", "audit.agreement.strata.v2.grade_agreement"),
    # ---- 10.2.2: routing of the initial answers
    ResultRule("X.s1022.increases", "audit.policy.consensus_increase"),
    ResultRule("X.s1022.splits", "audit.policy.split"),
    ResultRule("X.s1022.decreases", "audit.policy.consensus_decrease"),
    ResultRule("X.s1022.queue_pairs", "audit.policy.queued_pairs"),
    ResultRule("X.s1022.queue_conditions", "audit.policy.queued_conditions"),
    ResultRule("X.s1022.cond_splits", "audit.policy.queued_split_conditions"),
    ResultRule("X.s1022.cond_negative", "audit.policy.queued_both_negative_conditions"),
    ResultRule("X.s1022.locked", "audit.policy.locked_conditions"),
    # ---- Table S10 and 10.3.1: the expanded-page pool and the held-out recall check
    ResultRule("S10.pairs", "audit.pool.pairs"),
    ResultRule("S10.conditions", "audit.pool.conditions"),
    ResultRule("S10.contexts", "audit.pool.displayed_pages"),
    ResultRule("S10.min", "audit.pool.pages_min"),
    ResultRule("S10.mean", "audit.pool.pages_mean"),
    ResultRule("S10.max", "audit.pool.pages_max"),
    ResultRule("S10.prior", "audit.pool.memberships.prior_selected"),
    ResultRule("S10.original", "audit.pool.memberships.original_shown"),
    ResultRule("S10.lexical", "audit.pool.memberships.lexical"),
    ResultRule("S10.bm25", "audit.pool.memberships.bm25"),
    ResultRule("S10.fuzzy", "audit.pool.memberships.ocr_fuzzy"),
    ResultRule("S10.construction", "audit.pool.memberships.construction"),
    # ---- 10.3.2: adjudication agreement
    ResultRule("X.s1032.pairs", "audit.agreement.adjudication.pairs"),
    ResultRule("X.s1032.conditions", "audit.agreement.adjudication.conditions"),
    ResultRule("X.s1032.unanimous", "audit.agreement.adjudication.unanimous"),
    ResultRule("X.s1032.unanimous_of", "audit.agreement.adjudication.conditions"),
    ResultRule("X.s1032.fleiss", "audit.agreement.adjudication.fleiss_kappa"),
    ResultRule("X.s1032.pair1", "audit.agreement.adjudication.pairwise_agreement.A-E"),
    ResultRule("X.s1032.pair2", "audit.agreement.adjudication.pairwise_agreement.A-F"),
    ResultRule("X.s1032.pair3", "audit.agreement.adjudication.pairwise_agreement.E-F"),
    # ---- Table S11: adjudication response integrity
    ResultRule("S11.a.pos", "audit.integrity.adjudication.A.positive"),
    ResultRule("S11.a.neg", "audit.integrity.adjudication.A.negative"),
    ResultRule("S11.a.pages", "audit.integrity.adjudication.A.pages"),
    ResultRule("S11.a.quotes", "audit.integrity.adjudication.A.quotes_exact"),
    ResultRule("S11.e.pos", "audit.integrity.adjudication.E.positive"),
    ResultRule("S11.e.neg", "audit.integrity.adjudication.E.negative"),
    ResultRule("S11.e.pages", "audit.integrity.adjudication.E.pages"),
    ResultRule("S11.e.quotes", "audit.integrity.adjudication.E.quotes_exact"),
    ResultRule("S11.f.pos", "audit.integrity.adjudication.F.positive"),
    ResultRule("S11.f.neg", "audit.integrity.adjudication.F.negative"),
    ResultRule("S11.f.pages", "audit.integrity.adjudication.F.pages"),
    ResultRule("S11.f.quotes", "audit.integrity.adjudication.F.quotes_exact"),
    # ---- Tables S12-S13: transitions and corrections
    ResultRule("S12.t12", "audit.policy.transition.1_to_2", absent_zero=True),
    ResultRule("S12.t23", "audit.policy.transition.2_to_3", absent_zero=True),
    ResultRule("S12.t21", "audit.policy.transition.2_to_1", absent_zero=True),
    ResultRule("S12.all", "audit.policy.changed"),
    ResultRule("S13.cp.wb", "audit.policy.strata.v1.wb.corrected", absent_zero=True),
    ResultRule("S13.cp.pmc", "audit.policy.strata.v1.pmc.corrected", absent_zero=True),
    ResultRule("S13.arxiv.sampled", "audit.policy.strata.v2.arxiv.sampled"),
    ResultRule("S13.arxiv.corrected", "audit.policy.strata.v2.arxiv.corrected"),
    ResultRule("S13.eric.sampled", "audit.policy.strata.v2.eric.sampled"),
    ResultRule("S13.eric.corrected", "audit.policy.strata.v2.eric.corrected"),
    ResultRule("S13.fedreg.sampled", "audit.policy.strata.v2.fedreg.sampled"),
    ResultRule("S13.fedreg.corrected", "audit.policy.strata.v2.fedreg.corrected"),
    ResultRule("S13.pmc.sampled", "audit.policy.strata.v2.pmc.sampled"),
    ResultRule("S13.pmc.corrected", "audit.policy.strata.v2.pmc.corrected"),
    ResultRule("S13.all.sampled", "audit.integrity.pairs"),
    ResultRule("S13.all.corrected", "audit.policy.changed"),
    # ---- 10.5: the residual-qrel challenge
    ResultRule("X.s105.agree", "audit.challenge.protocol.agreeing_conditions"),
    ResultRule("X.s105.agree_of", "audit.challenge.protocol.conditions"),
    ResultRule("X.s105.tiebreak", "audit.challenge.protocol.tiebreak_conditions"),
    ResultRule("X.s105.tiebreak_pairs", "audit.challenge.protocol.tiebreak_pairs"),
    ResultRule("X.s105.pick_dup", "audit.challenge.protocol.tiebreak_selects_duplicate_collapsed_stream",
               absent_zero=True),
    ResultRule("X.s105.pick_other", "audit.challenge.protocol.tiebreak_selects_other_stream", absent_zero=True),
    ResultRule("X.s105.t10", "audit.challenge.transition.target.1_to_0", absent_zero=True),
    ResultRule("X.s105.t11", "audit.challenge.transition.target.1_to_1", absent_zero=True),
    ResultRule("X.s105.t12", "audit.challenge.transition.target.1_to_2", absent_zero=True),
    ResultRule("X.s105.t13", "audit.challenge.transition.target.1_to_3", absent_zero=True),
    ResultRule("X.s105.t22", "audit.challenge.transition.target.2_to_2", absent_zero=True),
    ResultRule("X.s105.t23", "audit.challenge.transition.target.2_to_3", absent_zero=True),
    ResultRule("X.s105.changed", "audit.challenge.decisions.targets_changed"),
    ResultRule("X.s105.targets", "audit.challenge.decisions.targets"),
    ResultRule("X.s105.to_gold", "audit.challenge.decisions.targets_to_gold"),
    ResultRule("X.s105.controls_kept", "audit.challenge.decisions.controls_retained"),
    ResultRule("X.s105.controls", "audit.challenge.decisions.controls"),
    ResultRule("X.s105.n_targets", "audit.challenge.targets"),
    ResultRule("X.s105.n_controls", "audit.challenge.controls"),
    ResultRule("X.s101.challenge_pairs", "audit.challenge.pairs"),
    ResultRule("X.s101.challenge_conditions", "audit.challenge.conditions"),
    # ---- Table S14 and 10.6: both validation stages (gold-only NDCG@10, 0-1)
    ResultRule("S14.challenge_changed", "audit.challenge.decisions.targets_changed"),
    ResultRule("S14.challenge_of", "audit.challenge.targets"),
    ResultRule("S14.audit_changed", "audit.policy.changed"),
    ResultRule("S14.audit_of", "audit.integrity.pairs"),
    ResultRule("S14.ss_qrels.t", "v2.structure.qrel_rows"),
    ResultRule("S14.ss_queries.t", "v2.structure.queries"),
    ResultRule("S14.cp_fusion.c", "audit.impact.v1.construction.rrf_bm25and_pagetop3.gold_ndcg"),
    ResultRule("S14.cp_fusion.a", "audit.impact.v1.audit.rrf_bm25and_pagetop3.gold_ndcg"),
    ResultRule("S14.cp_fusion.t", "audit.impact.v1.audit.rrf_bm25and_pagetop3.gold_ndcg"),
    ResultRule("S14.cp_sdr.c", "audit.impact.v1.construction.bm25_dec_sdr.gold_ndcg"),
    ResultRule("S14.cp_sdr.a", "audit.impact.v1.audit.bm25_dec_sdr.gold_ndcg"),
    ResultRule("S14.cp_sdr.t", "audit.impact.v1.audit.bm25_dec_sdr.gold_ndcg"),
    ResultRule("S14.cp_bm25.c", "audit.impact.v1.construction.bm25_and.gold_ndcg"),
    ResultRule("S14.cp_bm25.a", "audit.impact.v1.audit.bm25_and.gold_ndcg"),
    ResultRule("S14.cp_bm25.t", "audit.impact.v1.audit.bm25_and.gold_ndcg"),
    ResultRule("S14.ss_fusion.c", "audit.impact.v2.construction.fusion.gold_ndcg"),
    ResultRule("S14.ss_fusion.a", "audit.impact.v2.s0.fusion.gold_ndcg"),
    ResultRule("S14.ss_fusion.t", "audit.impact.v2.s.fusion.gold_ndcg"),
    ResultRule("S14.ss_bm25.c", "audit.impact.v2.construction.bm25_and.gold_ndcg"),
    ResultRule("S14.ss_bm25.a", "audit.impact.v2.s0.bm25_and.gold_ndcg"),
    ResultRule("S14.ss_bm25.t", "audit.impact.v2.s.bm25_and.gold_ndcg"),
    ResultRule("S14.ss_gap.c", "audit.impact.v2.construction.fusion_minus_bm25.gold_ndcg_gap"),
    ResultRule("S14.ss_gap.a", "audit.impact.v2.s0.fusion_minus_bm25.gold_ndcg_gap"),
    ResultRule("S14.ss_gap.t", "audit.impact.v2.s.fusion_minus_bm25.gold_ndcg_gap"),
    ResultRule("S14.ss_p.c", "audit.impact.v2.construction.fusion_minus_bm25.query_paired_p"),
    ResultRule("S14.ss_p.a", "audit.impact.v2.s0.fusion_minus_bm25.query_paired_p"),
    ResultRule("S14.ss_p.t", "audit.impact.v2.s.fusion_minus_bm25.query_paired_p"),
    ResultRule("X.s106.rho", "audit.impact.v1.audit.matrix.gold_ndcg.spearman_rho"),
    ResultRule("X.s106.max_move", "audit.impact.v1.audit.matrix.gold_ndcg.max_abs_change"),
    ResultRule("X.s106.gap", "audit.impact.v2.s.fusion_minus_bm25.gold_ndcg_gap"),
    ResultRule("X.s106.p_query", "audit.impact.v2.s.fusion_minus_bm25.query_paired_p"),
    ResultRule("X.s106.p_family", "audit.impact.v2.s.fusion_minus_bm25.family_p"),
    ResultRule("X.s106.crossed_lo", "v2.sensitivity.fusion_minus_bm25.gold.crossed_ci_low"),
    ResultRule("X.s106.crossed_hi", "v2.sensitivity.fusion_minus_bm25.gold.crossed_ci_high"),
    ResultRule("X.s106.judged_lo", "v2.sensitivity.fusion_minus_bm25.judged.crossed_ci_low"),
    ResultRule("X.s106.judged_hi", "v2.sensitivity.fusion_minus_bm25.judged.crossed_ci_high"),
    ResultRule("X.s106.arxiv", "v2.sensitivity.fusion_minus_bm25.by_source.arxiv.gold_ndcg_gap"),
    ResultRule("X.s106.eric", "v2.sensitivity.fusion_minus_bm25.by_source.eric.gold_ndcg_gap"),
    ResultRule("X.s106.fedreg", "v2.sensitivity.fusion_minus_bm25.by_source.fedreg.gold_ndcg_gap"),
    ResultRule("X.s106.pmc", "v2.sensitivity.fusion_minus_bm25.by_source.pmc.gold_ndcg_gap"),
    # ---- Section 8: SourceShift raw-run rank agreement
    ResultRule("X.s8.rho", "v2.forms.rank_agreement.spearman_graded_vs_gold_ndcg"),
    ResultRule("X.s5b.rho", "v2.forms.rank_agreement.spearman_graded_vs_gold_ndcg"),
    ResultRule("X.s5b.shift", "v2.forms.rank_agreement.max_rank_shift"),
    ResultRule("X.s8.delta_arxiv", "v2.sensitivity.fusion_minus_bm25.by_source.arxiv.gold_ndcg_gap"),
    ResultRule("X.s8.delta_eric", "v2.sensitivity.fusion_minus_bm25.by_source.eric.gold_ndcg_gap"),
    ResultRule("X.s8.delta_fedreg", "v2.sensitivity.fusion_minus_bm25.by_source.fedreg.gold_ndcg_gap"),
    ResultRule("X.s8.delta_pmc", "v2.sensitivity.fusion_minus_bm25.by_source.pmc.gold_ndcg_gap"),
    # ---- S5b / section 9: the difficulty regression and the length-matched AUC
    ResultRule("X.s5b.beta_n", "v1.sensitivity.regression.pooled.n_is_3.coef"),
    ResultRule("X.s5b.beta_n_p", "v1.sensitivity.regression.pooled.n_is_3.p"),
    ResultRule("X.s5b.beta_rarity", "v1.sensitivity.regression.pooled.mean_ln_condition_df.coef"),
    ResultRule("X.s5b.beta_pool", "v1.sensitivity.regression.pooled.ln_positive_pool.coef"),
    ResultRule("X.s5.auc_before", "v1.diagnostics.length_matched.bm25_dec_sdr.auc"),
    ResultRule("X.s5.auc_after", "v1.diagnostics.length_matched.bm25_dec_sdr.length_matched_auc"),
    ResultRule("X.s5.repairs", "v1.diagnostics.repairs.count"),
    ResultRule("X.s5b.repairs", "v1.diagnostics.repairs.count"),
]
# prose restatements of table cells (the row is named in ``key``)
_RULES += [
    ResultRule("X.abs.hybrid_hit", "v1.scorecard.{row}.gold_hit_at_10", "system", key="hybrid"),
    ResultRule("X.abs.hybrid_score", "v1.scorecard.{row}.nclue_score_at_10", "system", key="hybrid"),
    ResultRule("X.abs.dense_gain_lo", "v1.contrasts.{row}.{displayed}.delta_score", "block", key="jina_composition"),
    ResultRule("X.abs.dense_gain_hi", "v1.contrasts.{row}.{displayed}.delta_score", "block", key="qwen_composition"),
    ResultRule("X.abs.fusion_gain", "v1.contrasts.{row}.{displayed}.delta_score", "block", key="fusion"),
    ResultRule("X.abs.scale_change", "v1.contrasts.{row}.{displayed}.delta_score", "block", key="scale"),
    ResultRule("X.abs.support_lo", "v1.evidence.{row}.all.gold_support_at_10", "page_run", key="vl8b"),
    ResultRule("X.abs.support_hi", "v1.evidence.{row}.all.gold_support_at_10", "page_run", key="vl2b"),
    ResultRule("X.s41.hit", "v1.scorecard.{row}.gold_hit_at_10", "system", key="hybrid"),
    ResultRule("X.s41.score", "v1.scorecard.{row}.nclue_score_at_10", "system", key="hybrid"),
    ResultRule("X.s41.top3_hit", "v1.scorecard.{row}.gold_hit_at_10", "system", key="colqwen_top3"),
    ResultRule("X.s41.top3_score", "v1.scorecard.{row}.nclue_score_at_10", "system", key="colqwen_top3"),
    ResultRule("X.s41.hybrid_miss", "v1.scorecard.{row}.no_gold", "system", key="hybrid"),
    ResultRule("X.s41.hybrid_subset", "v1.scorecard.{row}.subset_first", "system", key="hybrid"),
    ResultRule("X.s41.top3_miss", "v1.scorecard.{row}.no_gold", "system", key="colqwen_top3"),
    ResultRule("X.s41.top3_subset", "v1.scorecard.{row}.subset_first", "system", key="colqwen_top3"),
    ResultRule("X.s41.q06_subset", "v1.scorecard.{row}.subset_first", "system", key="qwen06_dec"),
    ResultRule("X.s42.scale_hit", "v1.contrasts.{row}.{displayed}.delta_hit", "block", key="scale"),
    ResultRule("X.s42.scale_score", "v1.contrasts.{row}.{displayed}.delta_score", "block", key="scale"),
    ResultRule("X.s42.jina", "v1.contrasts.{row}.{displayed}.delta_score", "block", key="jina_composition"),
    ResultRule("X.s42.qwen", "v1.contrasts.{row}.{displayed}.delta_score", "block", key="qwen_composition"),
    ResultRule("X.s42.jina_p", "v1.inference.block.{row}.p_selected_holm", "block", key="jina_composition"),
    ResultRule("X.s42.qwen_p", "v1.inference.block.{row}.p_selected_holm", "block", key="qwen_composition"),
    ResultRule("X.s42.bm25_hit", "v1.contrasts.{row}.{displayed}.delta_hit", "block", key="lexical_composition"),
    ResultRule("X.s42.bm25_score", "v1.contrasts.{row}.{displayed}.delta_score", "block", key="lexical_composition"),
    ResultRule("X.s42.fusion", "v1.contrasts.{row}.{displayed}.delta_score", "block", key="fusion"),
    ResultRule("X.s42.fusion_p", "v1.inference.block.{row}.p_selected_holm", "block", key="fusion"),
    ResultRule("X.s32.audit_pairs", "audit.integrity.pairs"),
    ResultRule("X.s32.audit_conditions", "audit.integrity.conditions"),
    ResultRule("X.s32.agree", "audit.agreement.initial.grade_agree"),
    ResultRule("X.s32.agree_of", "audit.agreement.initial.pairs"),
    ResultRule("X.s32.agree_pct", "audit.agreement.initial.grade_agreement"),
    ResultRule("X.s32.kappa_w", "audit.agreement.initial.grade_kappa_linear"),
    ResultRule("X.s32.repairs", "v1.diagnostics.repairs.count"),
    ResultRule("X.s32.promotions", "v1.diagnostics.repairs.subset_to_gold"),
    ResultRule("X.s32.reversal_max", "audit.impact.v1.audit.scorecard.nclue_score.max_abs_change"),
    ResultRule("X.s32.rho", "audit.impact.v1.audit.scorecard.nclue_score.spearman_rho"),
    ResultRule("X.s5.reversal", "audit.impact.v1.audit.scorecard.nclue_score.max_abs_change"),
    ResultRule("X.s5.oracle", "v1.controls.oracle_facts.nclue_score_at_10"),
    ResultRule("X.s5.single", "v1.controls.floor_single_page.nclue_score_at_10"),
    ResultRule("X.s5.prior", "v1.controls.prior_condition_frequency.nclue_score_at_10"),
    ResultRule("X.s5.distinct", "v1.table1.distinct_page_valid_golds"),
    ResultRule("X.s106.cp", "audit.policy.v1_repairs"),
    ResultRule("X.s106.ss", "v2.genealogy.s0.grades_changed"),
    ResultRule("S14.ss_queries.a", "v2.structure.queries_s0"),
    ResultRule("S14.ss_qrels.a", "v2.structure.qrel_rows_s0"),
    ResultRule("X.s1j.q06_hit_n2", "v1.slices.{row}.n2.gold_hit_at_10", "system", key="qwen06_dec"),
    ResultRule("X.s1j.q06_score_n2", "v1.slices.{row}.n2.nclue_score_at_10", "system", key="qwen06_dec"),
    ResultRule("X.s1j.q06_hit_n3", "v1.slices.{row}.n3.gold_hit_at_10", "system", key="qwen06_dec"),
    ResultRule("X.s1j.q06_score_n3", "v1.slices.{row}.n3.nclue_score_at_10", "system", key="qwen06_dec"),
    ResultRule("X.s1j.bm25_short", "v1.slices.{row}.lmin_le30.nclue_score_at_10", "system", key="bm25_and"),
    ResultRule("X.s1j.bm25_long", "v1.slices.{row}.lmin_gt100.nclue_score_at_10", "system", key="bm25_and"),
    ResultRule("X.s1j.hit_n2", "v1.slices.{row}.n2.gold_hit_at_10", "system", key="hybrid"),
    ResultRule("X.s1j.hit_n3", "v1.slices.{row}.n3.gold_hit_at_10", "system", key="hybrid"),
    ResultRule("X.s1j.score_n2", "v1.slices.{row}.n2.nclue_score_at_10", "system", key="hybrid"),
    ResultRule("X.s1j.score_n3", "v1.slices.{row}.n3.nclue_score_at_10", "system", key="hybrid"),
]
_RULES += [ResultRule("S1j.size.%s" % s, "v1.table1.%s" % claim) for s, claim in (
    ("all", "queries"), ("n2", "queries_n2"), ("n3", "queries_n3"), ("lmin_le30", "slice_lmin_le30"),
    ("lmin_gt100", "slice_lmin_gt100"), ("pool_le25", "slice_pool_le25"), ("pool_gt50", "slice_pool_gt50"))]
# Table 6's slice cells (and their copy in Table S1j), Tables S2b / S3 (n-Clue Score per form), Table S4 (delta and p per form),
# Table S1i (both columns): one rule per cell kind, written out
for _table in ("T6", "S1j"):
    _RULES += [ResultRule("%s.*.all.score" % _table, "v1.scorecard.{row}.nclue_score_at_10", "system"),
               ResultRule("%s.*.all.hit" % _table, "v1.scorecard.{row}.gold_hit_at_10", "system")]
    _RULES += [ResultRule("%s.*.%s.score" % (_table, s), "v1.slices.{row}.%s.nclue_score_at_10" % s, "system")
               for s in SLICES[1:]]
    _RULES += [ResultRule("%s.*.%s.hit" % (_table, s), "v1.slices.{row}.%s.gold_hit_at_10" % s, "system")
               for s in SLICES[1:]]
_RULES += [ResultRule("S2b.*.%s" % paper, "v1.forms.{row}.%s.nclue_score_at_10" % ours, "original")
           for paper, ours in FORMS]
_RULES += [ResultRule("S3.*.%s" % paper, "v2.forms.{row}.%s.nclue_score_at_10" % ours, "original")
           for paper, ours in FORMS]
_RULES += [ResultRule("S4.*.%s.delta" % paper, "v2.contrasts.{row}.%s.delta_score" % ours, "ss_contrast")
           for paper, ours in FORMS]
_RULES += [ResultRule("S4.*.%s.p" % paper, "v2.contrasts.{row}.%s.p_value" % ours, "ss_contrast")
           for paper, ours in FORMS]
for _col, _prefix in (("cp", "v1.sensitivity.shared_documents.fusion_minus_bm25"),
                      ("ss", "v2.sensitivity.fusion_minus_bm25")):
    for _paper, _ours in (("queries", "queries"), ("gold_docs", "distinct_gold_documents"), ("gap", "gold_ndcg_gap"),
                          ("components", "gold.components"), ("largest", "gold.largest_component"),
                          ("crossed_lo", "gold.crossed_ci_low"), ("crossed_hi", "gold.crossed_ci_high"),
                          ("loo_lo", "gold.leave_one_doc_min"), ("loo_hi", "gold.leave_one_doc_max"),
                          ("drop20", "gold.drop_top20.gold_ndcg_gap"), ("drop20_q", "gold.drop_top20.queries"),
                          ("judged_components", "judged.components"), ("judged_largest", "judged.largest_component"),
                          ("judged_crossed_lo", "judged.crossed_ci_low"), ("judged_crossed_hi", "judged.crossed_ci_high"),
                          ("judged_loo_lo", "judged.leave_one_doc_min"), ("judged_loo_hi", "judged.leave_one_doc_max"),
                          ("judged_drop20", "judged.drop_top20.gold_ndcg_gap"),
                          ("judged_drop20_q", "judged.drop_top20.queries")):
        _RULES.append(ResultRule("S1i.%s.%s" % (_col, _paper), "%s.%s" % (_prefix, _ours)))
for _a in range(4):
    for _e in range(4):
        _RULES.append(ResultRule("S9.a%d.e%d" % (_a, _e), "audit.agreement.initial.confusion", index=(_a, _e)))
# the structural counts of Table 1, supplement 8 and S14 (the bindings stats.json's paper columns use)
_RULES += [ResultRule(b.number, b.claim, None, b.scale) for b in STRUCTURE]
RULES = tuple(_RULES)

# Why a transcribed number is not bound (first matching pattern wins).
UNBOUND = (
    ("T1.*", "a Table 1 statistic the stand-in's Table 1 does not compute"),
    ("T2.*", "configuration count: checked by the crosswalk (paper.crosswalk)"),
    ("S2.*", "configuration count: checked by the crosswalk (paper.crosswalk)"),
    ("X.t2.*", "configuration count: checked by the crosswalk (paper.crosswalk)"),
    ("S2a.*", "needs the LLM paraphrase probes, which the stand-in cannot run (blocked)"),
    ("S7.*", "the audit packet's design: checked through data/audit/stats.json (audit.packet)"),
    ("X.s101.*", "the audit packet's design: checked through data/audit/stats.json (audit.packet)"),
    ("S5a.*", "a masked model the stand-in cannot run"),
    ("S5b.*", "a diagnostic summary range over several runs (a prose restatement of bound cells)"),
    ("X.s5b.*", "a diagnostic summary range over several runs (a prose restatement of bound cells)"),
    ("S8.*", "an audit count the stand-in's records do not tally in this form"),
    ("S11.*", "an audit total or a quote count the stand-in's records do not tally in this form"),
    ("S12.*", "a derived transition split the records do not tally in this form"),
    ("S13.*", "a source split the stand-in's audit does not have"),
    ("X.s105.*", "a count the stand-in's challenge records do not tally in this form (selected quotes)"),
    ("X.s1032.*", "a derived share or quote count not tallied in this form"),
    ("X.s13.*", "release inventory (file counts), checked by integrity"),
    ("*", "a prose restatement, range or derived figure with no single claim"),
)


def _match(pattern, number_id):
    """``(matched, row)``: ``*`` in ``pattern`` matches one dot-free segment (the row key)."""
    if "*" not in pattern:
        return number_id == pattern, None
    head, _, tail = pattern.partition("*")
    if not (number_id.startswith(head) and number_id.endswith(tail)) or len(number_id) < len(head) + len(tail):
        return False, None
    row = number_id[len(head):len(number_id) - len(tail)]
    return row != "", row


def rule_for(number_id):
    """``(rule, row)`` of the first rule binding ``number_id`` (``(None, None)`` when unbound)."""
    for rule in RULES:
        ok, row = _match(rule.pattern, number_id)
        if ok:
            return rule, rule.key or row
    return None, None


def unbound_reason(number_id):
    for pattern, reason in UNBOUND:
        if fnmatchcase(number_id, pattern):
            return reason
    return UNBOUND[-1][1]


def scale_value(value, scale):
    if isinstance(scale, str):
        num, _, den = scale.partition("/")
        return value * float(num) / float(den)
    return value * scale


def resolve(rule, row, crosswalk, observed):
    """The claim id a rule gives for one row on this instrument, or ``(None, why)``."""
    claim, sid = rule.claim, None
    if "{row}" in claim:
        table = crosswalk.get(rule.namespace, {})
        if row not in table:
            return None, "row %r of namespace %s is not in the crosswalk" % (row, rule.namespace)
        sid = table[row]
        if sid is None:
            return None, "blocked on this instrument"
        claim = claim.replace("{row}", sid)
    if "{displayed}" in claim:
        block = sid
        shown = observed.get("v1.contrasts.%s.displayed_variant" % block)
        if not isinstance(shown, str):
            return None, "the displayed variant of block %s was not computed in this run" % block
        claim = claim.replace("{displayed}", shown)
    return claim, ""


def claim_value(rule, claim, observed):
    """The recomputed value behind a binding (a list cell for ``index``), or None when not computed."""
    if claim not in observed:
        return 0 if rule.absent_zero else None
    value = observed[claim]
    for i in rule.index:
        if not isinstance(value, list) or i >= len(value):
            return None
        value = value[i]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return scale_value(value, rule.scale)
