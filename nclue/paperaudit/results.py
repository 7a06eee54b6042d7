"""Published results bound to the claims that compute them (docs/paper-audit.md#published-results).

Each :class:`ResultRule` binds the transcribed numbers whose id matches ``pattern`` (one ``*`` stands
for a paper row key) to a claim: ``claim`` is the claim id with ``{row}`` replaced by the id the
instrument's crosswalk gives that row key in ``namespace`` (``data/crosswalk.json``)
``{key}`` by the paper's row key itself, and ``{variant}`` by the run the crosswalk gives the variant the paper names for a Table 5 block
(:data:`nclue.paperaudit.roles.BLOCKS`: "Jina joint -> harmonic dec." is the harmonic-mean run, whichever
variant scored highest on the instrument).  ``scale`` converts the claim's unit to the paper's
(``"1/100"`` for a claim in points bound to a proportion, ``100`` for a proportion bound to points, ``-1``
for a quantity the paper states with the opposite sign); ``index`` picks a cell of a list-valued claim;
``absent_zero`` says that a count missing from the tally is zero (transition tallies list only the
transitions that occur; it applies only when the tally itself was computed in the run); ``design`` marks a
number that holds by the instrument's construction (a design count or size), which the headline counts
apart from results; ``note`` records a decision the paper's text forced, with the sentence behind it.

An exact number is compared under the paper's display rule, the paper audit's one implementation
(:meth:`nclue.paperaudit.solve.Num.shows`: round half up; a count must be equal): the claim value
times ``scale`` must display as the published text.  A claim that declares a Monte Carlo estimate or
tie orders is judged by :mod:`nclue.run.published` within Monte Carlo error or over the admissible
orders (docs/claims.md#monte-carlo-verdicts).

Numbers no rule binds are listed with the reason of the first matching :data:`UNBOUND` pattern.
Every pattern is literal text, so ``grep`` finds the rule behind a number.
"""

import math
from fnmatch import fnmatchcase
from typing import NamedTuple, Optional, Tuple

from ..core import claim_ids
from ..core.claim_ids import (
    AGREEMENT,
    AGREEMENT_STRATUM,
    CHALLENGE,
    CHALLENGE_SECTION,
    CHALLENGE_TRANSITION,
    IMPACT,
    IMPACT_OF,
    IMPACT_TABLE,
    INTEGRITY,
    INTEGRITY_RESPONDER,
    PACKET,
    POLICY,
    POLICY_SECTION,
    POLICY_STRATUM,
    POLICY_TRANSITION,
    POOL,
    POOL_SECTION,
    SHARED_DOCUMENTS,
    SHARED_DOCUMENTS_DROP,
    SHARED_DOCUMENTS_MEMBERSHIP,
    SHARED_DOCUMENTS_SOURCE,
    V2_CONTRAST,
    V2_CONTRAST_SETUP,
    V2_DIRECTION,
    V2_FORMS,
    V2_RANK_AGREEMENT,
    V2_STRUCTURE,
)
from ..core.layout import CROSSPAGE, QUERY_FORMS, SOURCESHIFT
from . import roles
from .assignments import ASSIGNMENTS
from .bindings import STRUCTURE

# the paper's CrossPage results are bound to the stand-in's CrossPage claims, and SourceShift's genealogy to its own
(BOOTSTRAP_SETUP, CONSTRUCTION, CONTRAST, CONTROL, DIAGNOSTIC, DIAGNOSTIC_SYSTEM, EVIDENCE, INFERENCE_CONTRAST, MASKING,
 MATRIX, PAPER_BLOCK, SCORECARD, SLICE, TABLE1, V1_FORMS) = (template.on(CROSSPAGE.name) for template in (
    claim_ids.BOOTSTRAP_SETUP, claim_ids.CONSTRUCTION, claim_ids.CONTRAST, claim_ids.CONTROL, claim_ids.DIAGNOSTIC,
    claim_ids.DIAGNOSTIC_SYSTEM, claim_ids.EVIDENCE, claim_ids.INFERENCE_CONTRAST, claim_ids.MASKING, claim_ids.MATRIX,
    claim_ids.PAPER_BLOCK, claim_ids.SCORECARD, claim_ids.SLICE, claim_ids.TABLE1, claim_ids.FORMS))
V2_GENEALOGY_COPY = claim_ids.GENEALOGY_COPY.on(SOURCESHIFT.name)


class ResultRule(NamedTuple):
    pattern: str
    claim: str
    namespace: Optional[str] = None
    scale: object = 1
    index: Tuple[int, ...] = ()
    absent_zero: bool = False
    key: Optional[str] = None    # the row key of a number whose id names no row (a prose restatement)
    design: bool = False         # holds by the instrument's construction (a design count or a size)
    note: str = ""               # a binding decision and the paper's sentence behind it
    readings: Tuple[str, ...] = ()   # further claims the paper's text admits: the number passes under any of them


SLICES = ("all", "n2", "n3", "lmin_le30", "lmin_gt100", "pool_le25", "pool_gt50")

# The binding decisions the paper's text forced (docs/paper-audit.md#binding-decisions)
NAMED_VARIANT = ("Table 5's cells are the variant each row names ('Jina joint -> harmonic dec.', 'Qwen 0.6B joint -> "
                 "product dec.'); the displayed endpoint is that variant because it had 'the highest raw-form "
                 "n-Clue Score' (section 3.3), and Table 7 restates the same cell ('Jina composition +6.8'), so "
                 "the cell is bound to the run playing the named variant, not to the instrument's own best variant")
PAGE_QUOTES = ("the paper counts one quote per selected page: 'A 76 18 201 201/201' (Table S11: 76 positives, 201 "
               "pages, 201 quotes), '2,304/2,304' (Table S8) against 560 + 555 positives, 'all 136 selected quotes' "
               "for a 75-condition tie-break; so a quote count is the selected pages of positive answers, and a "
               "passing one a page of an answer whose quote passes the gate")
PAPER_FAMILY = ("Table 5's p is 'selection + Holm' (section 3.3): the named variant's max-|T| p within its block, "
                "Holm-adjusted across the paper's eight blocks; it is bound to the paper's own family "
                "(v1.inference.paper_block.<block>), not to the instrument's best variant of each of its blocks")
PAGE_SET = ("'Exact condition page-set agreement 78.7%' (Table S8) sits beside 'Condition support agreement 661/710': "
            "its population is the 710 conditions (two negative answers select the same empty set); over the 533 "
            "conditions both evaluators supported no count shows as 78.7%, over 710 559 does. The arithmetic admits "
            "661 as well (520/661 shows as 78.7%, the conditions whose support agrees); the binding takes 710, the "
            "denominator of the row beside it, and says both")
SAMPLED = ("Table S13's CrossPage row reads 'All (98 WB, 2 PMC) 100 20': 98 and 2 are the sampled pairs by source, "
           "100 sampled and 20 corrected the row's totals")
REPRESENTATIVE = ("'representative gold-only NDCG@10 moves by at most .0012' (supplement 10.6): the largest change "
                  "of Table S14's three representative CrossPage systems, not of every run")
PER_SOURCE = ("'1,000 PDFs balanced across eight sources (125 each)' (supplement 8): the quality gate removes whole "
              "sources ('removes those sources' queries, documents, qrels'), so each retained source keeps its 125 "
              "documents; the number is bound to the final documents per source")
PAGE_RUN = ("Table 8's rows are 'the page-scored evidence run' of each visual reranker ('Condition and full coverage "
            "are conditional on a top-10 gold in the page-scored evidence run'), runs of their own: the audit's split "
            "implies 374-376 top-10 golds for the 8B evidence run against the 543 of Table 3's reranker; so the "
            "page_run rows, not Table 3's ranking, play them")
RANK_READINGS = ("'Across all 70 CrossPage systems, pre/post rank correlation is .9998' (10.6) does not say which "
                 "score ranks the systems; section 3.2's '.9986' beside 'every clean-scorecard n-Clue Score' is the "
                 "n-Clue Score's, and 10.6 goes on with 'representative gold-only NDCG@10', so either reading is "
                 "the paper's: the number is bound to the n-Clue Score ranking and passes under either")
FORMS = tuple((form.label, form.key) for form in QUERY_FORMS)     # (the paper's name, the claim ids')

_RULES = [
    # ---- Table 3: the clean scorecard; Table 4: its outcome decomposition
    ResultRule("T3.*.score", SCORECARD(system="{row}", measure="nclue_score_at_10"), "system"),
    ResultRule("T3.*.hit", SCORECARD(system="{row}", measure="gold_hit_at_10"), "system"),
    ResultRule("T3.*.ndcg", SCORECARD(system="{row}", measure="gold_ndcg_at_10"), "system"),
    ResultRule("T4.*.complete", SCORECARD(system="{row}", measure="complete_first"), "system"),
    ResultRule("T4.*.subset", SCORECARD(system="{row}", measure="subset_first"), "system"),
    ResultRule("T4.*.nogold", SCORECARD(system="{row}", measure="no_gold"), "system"),
    # ---- Table 5: controlled contrasts (displayed endpoint)
    ResultRule("T5.*.base", CONTRAST(block="{row}", variant="{variant}", statistic="base_score"), "block",
               note=NAMED_VARIANT),
    ResultRule("T5.*.variant", CONTRAST(block="{row}", variant="{variant}", statistic="variant_score"), "block",
               note=NAMED_VARIANT),
    ResultRule("T5.*.delta", CONTRAST(block="{row}", variant="{variant}", statistic="delta_score"), "block",
               note=NAMED_VARIANT),
    ResultRule("T5.*.dhit", CONTRAST(block="{row}", variant="{variant}", statistic="delta_hit"), "block",
               note=NAMED_VARIANT),
    ResultRule("T5.*.dndcg", CONTRAST(block="{row}", variant="{variant}", statistic="delta_gold_ndcg"), "block",
               note=NAMED_VARIANT),
    ResultRule("T5.*.ci_lo", INFERENCE_CONTRAST(block="{row}", variant="{variant}", statistic="delta_score_ci_low"),
               "block", note=NAMED_VARIANT),
    ResultRule("T5.*.ci_hi", INFERENCE_CONTRAST(block="{row}", variant="{variant}", statistic="delta_score_ci_high"),
               "block", note=NAMED_VARIANT),
    ResultRule("T5.*.p", PAPER_BLOCK(block="{key}", statistic="p_holm"), "block", note=PAPER_FAMILY),
    # ---- Table 6: task-factor slices (and their sizes)
    ResultRule("T6.size.all", TABLE1(statistic="queries"), design=True),
    ResultRule("T6.size.n2", TABLE1(statistic="queries_n2")),
    ResultRule("T6.size.n3", TABLE1(statistic="queries_n3")),
    # ---- Table 7: operation directions
    ResultRule("T7.*.crosspage", V2_DIRECTION.on("s")(direction="{row}", statistic="v1_delta"),
               "direction"),
    ResultRule("T7.*.sourceshift", V2_DIRECTION.on("s")(direction="{row}", statistic="v2_delta"),
               "direction"),
    # ---- Table 8: page-evidence delivery
    ResultRule("T8.*.cond", EVIDENCE(system="{row}", slice="all", statistic="condition_coverage"), "page_run",
               note=PAGE_RUN),
    ResultRule("T8.*.full", EVIDENCE(system="{row}", slice="all", statistic="full_coverage"), "page_run",
               note=PAGE_RUN),
    ResultRule("T8.*.support", EVIDENCE(system="{row}", slice="all", statistic="gold_support_at_10"), "page_run",
               note=PAGE_RUN),
    # "Gold+Support .051-.053" and "all-condition page coverage is only 14-17%" (Table S5b, section 4.4): the 8B
    # and 2B cells of Table 8, as proportions
    ResultRule("X.s5b.support_lo", EVIDENCE(system="{row}", slice="all", statistic="gold_support_at_10"), "page_run",
               "1/100", key="vl8b",
               note=PAGE_RUN),
    ResultRule("X.s5b.support_hi", EVIDENCE(system="{row}", slice="all", statistic="gold_support_at_10"), "page_run",
               "1/100", key="vl2b",
               note=PAGE_RUN),
    ResultRule("X.s44.full_lo", EVIDENCE(system="{row}", slice="all", statistic="full_coverage"), "page_run",
               key="vl8b", note=PAGE_RUN),
    ResultRule("X.s44.full_hi", EVIDENCE(system="{row}", slice="all", statistic="full_coverage"), "page_run",
               key="vl2b", note=PAGE_RUN),
    # the runs a release ships and an analysis compares are design counts of the release (section 13 lists them;
    # 10.6 and supplement 8 restate them); Table 2, its caption and section 3.3 count the study's configurations
    # and stay with the crosswalk (STUDY_COUNT)
    # "all 39 top-10 rankings" of data/v2 (section 13): the 13 form systems x 3 forms the release ships
    ResultRule("X.s13.ss_rankings", IMPACT(release="v2", copy="s", statistic="runs"), design=True),
    # "70 top-10 rankings, and the 39 query-form rankings" of data/v1 (section 13); "Across all 70 CrossPage
    # systems" (10.6) are the same 70 runs, the ones the stratified audit's impact is computed over
    ResultRule("X.s13.rankings", IMPACT(release="v1", copy="audit", statistic="runs"), design=True),
    ResultRule("X.s106.systems", IMPACT(release="v1", copy="audit", statistic="runs"), design=True),
    ResultRule("X.s13.form_rankings", IMPACT(release="v1", copy="audit", statistic="form_runs"), design=True),
    # "For the 13 raw runs, graded-NDCG and gold-only-NDCG rankings have Spearman rho=.5714" (supplement 8)
    ResultRule("X.s8.runs", V2_RANK_AGREEMENT.on("s")(statistic="runs"), design=True),
    # "pre/post rank correlation is .9998" over "all 70 CrossPage systems" (10.6) names no score: both readings
    # are claims, and the number passes under either
    ResultRule("X.s106.rho", IMPACT_TABLE(release="v1", copy="audit", table="matrix", score="nclue_score",
                                          statistic="spearman_rho"), note=RANK_READINGS,
               readings=(IMPACT_TABLE(release="v1", copy="audit", table="matrix", score="gold_ndcg",
                                      statistic="spearman_rho"),)),
    # "SourceShift construction began with 1,000 PDFs balanced across eight sources (125 each). Although global
    # MinerU extraction passed at 62,039/62,838 pages (98.73%), four sources failed the pre-specified per-source
    # 98% gate" (supplement 8): the pre-gate OCR record provenance/ holds (section 13); the collection's size and
    # the pre-specified gate are design, the pages and pass rates results
    ResultRule("X.s8.pdfs", V2_STRUCTURE(statistic="pregate_pdfs"), design=True),
    ResultRule("X.s8.pages", V2_STRUCTURE(statistic="pregate_pages")),
    ResultRule("X.s8.pages_ok", V2_STRUCTURE(statistic="pregate_pages_passed")),
    ResultRule("X.s8.pages_pct", V2_STRUCTURE(statistic="pregate_pass_pct")),
    ResultRule("X.s8.gate", V2_STRUCTURE(statistic="ocr_gate_pct"), design=True),
    ResultRule("X.s8.ocr_*", V2_STRUCTURE(statistic="ocr_pass_pct_{key}")),
    # ---- Table S4: SourceShift query-paired contrasts
    ResultRule("X.s4.n", V2_STRUCTURE(statistic="queries")),
    # ---- Table S5a: condition masking (Delta Gold-NDCG, points)
    # S2a's raw column is the dense retriever's raw-form n-Clue Score, the raw-form matrix's cell of the role the
    # crosswalk's mask row plays (the relations equate it to S2b's raw column and Table 5's bases); its
    # paraphrase column and Delta need the paraphrases, which no release ships
    ResultRule("S2a.*.raw", MATRIX(system="{row}", measure="nclue_score_at_10"), "mask"),
    # its paraphrase column is the LLM paraphrase probe of each retriever, a run of its own (the crosswalk's
    # paraphrase rows; blocked on the stand-in, which has no paraphrases); its Delta is the difference of the two
    # cells, checked by the relations S2a.<model>.delta
    ResultRule("S2a.*.para", MATRIX(system="{row}", measure="nclue_score_at_10"), "paraphrase"),
    ResultRule("S5a.*.c1", MASKING(system="{row}", dropped="drop_c1", statistic="delta_gold_ndcg"), "mask"),
    ResultRule("S5a.*.c2", MASKING(system="{row}", dropped="drop_c2", statistic="delta_gold_ndcg"), "mask"),
    ResultRule("S5a.*.c3", MASKING(system="{row}", dropped="drop_c3", statistic="delta_gold_ndcg"), "mask"),
    # ---- Tables S8-S9: initial audit agreement
    ResultRule("S8.pairs", AGREEMENT(stage="initial", statistic="pairs"), design=True),
    ResultRule("S8.conditions", AGREEMENT(stage="initial", statistic="conditions"), design=True),
    ResultRule("S8.grade_agree", AGREEMENT(stage="initial", statistic="grade_agree")),
    ResultRule("S8.grade_agree_of", AGREEMENT(stage="initial", statistic="pairs"), design=True),
    ResultRule("S8.grade_agree_pct", AGREEMENT(stage="initial", statistic="grade_agreement")),
    ResultRule("S8.kappa_w", AGREEMENT(stage="initial", statistic="grade_kappa_linear")),
    ResultRule("S8.cond_agree", AGREEMENT(stage="initial", statistic="condition_agree")),
    ResultRule("S8.cond_agree_of", AGREEMENT(stage="initial", statistic="conditions"), design=True),
    ResultRule("S8.cond_agree_pct", AGREEMENT(stage="initial", statistic="condition_agreement")),
    ResultRule("S8.pageset_agree", AGREEMENT(stage="initial", statistic="page_set_agreement_all"), note=PAGE_SET),
    ResultRule("S8.quotes", INTEGRITY_RESPONDER(stage="initial", responder="all", statistic="page_quotes_exact"),
               note=PAGE_QUOTES),
    ResultRule("S8.quotes_of", INTEGRITY_RESPONDER(stage="initial", responder="all", statistic="page_quotes"),
               note=PAGE_QUOTES),
    ResultRule("X.s1021.wilson_grade_lo", AGREEMENT(stage="initial", statistic="grade_agreement_wilson_low")),
    ResultRule("X.s1021.wilson_grade_hi", AGREEMENT(stage="initial", statistic="grade_agreement_wilson_high")),
    ResultRule("X.s1021.wilson_cond_lo", AGREEMENT(stage="initial", statistic="condition_agreement_wilson_low")),
    ResultRule("X.s1021.wilson_cond_hi", AGREEMENT(stage="initial", statistic="condition_agreement_wilson_high")),
    ResultRule("X.s1021.kappa_binary", AGREEMENT(stage="initial", statistic="condition_kappa")),
    ResultRule("X.s1021.a_pos", AGREEMENT(stage="initial", statistic="positive_A")),
    ResultRule("X.s1021.e_pos", AGREEMENT(stage="initial", statistic="positive_E")),
    ResultRule("X.s1021.agree_n2", AGREEMENT_STRATUM(stratum="n2", statistic="grade_agreement")),
    ResultRule("X.s1021.agree_n3", AGREEMENT_STRATUM(stratum="n3", statistic="grade_agreement")),
    ResultRule("X.s1021.agree_cp", AGREEMENT_STRATUM(stratum="v1", statistic="grade_agreement")),
    ResultRule("X.s1021.agree_ss", AGREEMENT_STRATUM(stratum="v2", statistic="grade_agreement")),
    # ---- 10.2.2: routing of the initial answers
    ResultRule("X.s1022.increases", POLICY(statistic="consensus_increase")),
    ResultRule("X.s1022.splits", POLICY(statistic="split")),
    ResultRule("X.s1022.decreases", POLICY(statistic="consensus_decrease")),
    ResultRule("X.s1022.queue_pairs", POLICY(statistic="queued_pairs")),
    ResultRule("X.s1022.queue_conditions", POLICY(statistic="queued_conditions")),
    ResultRule("X.s1022.cond_splits", POLICY(statistic="queued_split_conditions")),
    ResultRule("X.s1022.cond_negative", POLICY(statistic="queued_both_negative_conditions")),
    ResultRule("X.s1022.locked", POLICY(statistic="locked_conditions")),
    # ---- Table S10 and 10.3.1: the expanded-page pool and the held-out recall check
    ResultRule("S10.pairs", POOL(statistic="pairs")),
    ResultRule("S10.conditions", POOL(statistic="conditions")),
    ResultRule("X.s1031.rec6", POOL_SECTION(section="recall", statistic="recovered_by_6")),
    ResultRule("X.s1031.rec6_of", POOL_SECTION(section="recall", statistic="conditions")),
    ResultRule("X.s1031.rec9", POOL_SECTION(section="recall", statistic="recovered_by_9")),
    ResultRule("X.s1031.rec9_of", POOL_SECTION(section="recall", statistic="conditions")),
    ResultRule("S10.contexts", POOL(statistic="displayed_pages")),
    ResultRule("S10.min", POOL(statistic="pages_min")),
    ResultRule("S10.mean", POOL(statistic="pages_mean")),
    ResultRule("S10.max", POOL(statistic="pages_max")),
    ResultRule("S10.prior", POOL_SECTION(section="memberships", statistic="prior_selected")),
    ResultRule("S10.original", POOL_SECTION(section="memberships", statistic="original_shown")),
    ResultRule("S10.lexical", POOL_SECTION(section="memberships", statistic="lexical")),
    ResultRule("S10.bm25", POOL_SECTION(section="memberships", statistic="bm25")),
    ResultRule("S10.fuzzy", POOL_SECTION(section="memberships", statistic="ocr_fuzzy")),
    ResultRule("S10.construction", POOL_SECTION(section="memberships", statistic="construction")),
    # ---- 10.3.2: adjudication agreement
    ResultRule("X.s1032.pairs", AGREEMENT(stage="adjudication", statistic="pairs")),
    ResultRule("X.s1032.conditions", AGREEMENT(stage="adjudication", statistic="conditions")),
    ResultRule("X.s1032.unanimous", AGREEMENT(stage="adjudication", statistic="unanimous")),
    ResultRule("X.s1032.unanimous_of", AGREEMENT(stage="adjudication", statistic="conditions")),
    ResultRule("X.s1032.fleiss", AGREEMENT(stage="adjudication", statistic="fleiss_kappa")),
    ResultRule("X.s1032.unanimous_pct", AGREEMENT(stage="adjudication", statistic="unanimous_share")),
    ResultRule("X.s1032.quotes", INTEGRITY_RESPONDER(stage="adjudication", responder="all",
                                                     statistic="page_quotes_exact"), note=PAGE_QUOTES),
    ResultRule("X.s104.nonunanimous", AGREEMENT(stage="adjudication", statistic="non_unanimous")),
    ResultRule("X.s104.changed", POLICY(statistic="changed")),
    ResultRule("X.s104.changed_of", INTEGRITY(statistic="pairs"), design=True),
    ResultRule("X.s104.to_gold", POLICY(statistic="to_gold")),
    # 10.3.2's three pairwise agreements: bound in the default order of their assignment group, any consistent
    # order accepted (nclue.paperaudit.assignments; nclue.run.published picks the order)
    *[ResultRule(nid, group.claim_of(pair), note=group.note)
      for group in ASSIGNMENTS for nid, pair in zip(group.numbers, group.pairs)],
    # ---- Table S11: adjudication response integrity
    ResultRule("S11.a.pos", INTEGRITY_RESPONDER(stage="adjudication", responder="A", statistic="positive")),
    ResultRule("S11.a.neg", INTEGRITY_RESPONDER(stage="adjudication", responder="A", statistic="negative")),
    ResultRule("S11.a.pages", INTEGRITY_RESPONDER(stage="adjudication", responder="A", statistic="pages")),
    ResultRule("S11.a.quotes", INTEGRITY_RESPONDER(stage="adjudication", responder="A", statistic="page_quotes_exact"),
               note=PAGE_QUOTES),
    ResultRule("S11.e.pos", INTEGRITY_RESPONDER(stage="adjudication", responder="E", statistic="positive")),
    ResultRule("S11.e.neg", INTEGRITY_RESPONDER(stage="adjudication", responder="E", statistic="negative")),
    ResultRule("S11.e.pages", INTEGRITY_RESPONDER(stage="adjudication", responder="E", statistic="pages")),
    ResultRule("S11.e.quotes", INTEGRITY_RESPONDER(stage="adjudication", responder="E", statistic="page_quotes_exact"),
               note=PAGE_QUOTES),
    ResultRule("S11.f.pos", INTEGRITY_RESPONDER(stage="adjudication", responder="F", statistic="positive")),
    ResultRule("S11.f.neg", INTEGRITY_RESPONDER(stage="adjudication", responder="F", statistic="negative")),
    ResultRule("S11.f.pages", INTEGRITY_RESPONDER(stage="adjudication", responder="F", statistic="pages")),
    ResultRule("S11.f.quotes", INTEGRITY_RESPONDER(stage="adjudication", responder="F", statistic="page_quotes_exact"),
               note=PAGE_QUOTES),
    ResultRule("S11.a.quotes_of", INTEGRITY_RESPONDER(stage="adjudication", responder="A", statistic="page_quotes"),
               note=PAGE_QUOTES),
    ResultRule("S11.e.quotes_of", INTEGRITY_RESPONDER(stage="adjudication", responder="E", statistic="page_quotes"),
               note=PAGE_QUOTES),
    ResultRule("S11.f.quotes_of", INTEGRITY_RESPONDER(stage="adjudication", responder="F", statistic="page_quotes"),
               note=PAGE_QUOTES),
    ResultRule("S11.all.pos", INTEGRITY_RESPONDER(stage="adjudication", responder="all", statistic="positive")),
    ResultRule("S11.all.neg", INTEGRITY_RESPONDER(stage="adjudication", responder="all", statistic="negative")),
    ResultRule("S11.all.pages", INTEGRITY_RESPONDER(stage="adjudication", responder="all", statistic="pages")),
    ResultRule("S11.all.quotes", INTEGRITY_RESPONDER(stage="adjudication", responder="all",
                                                     statistic="page_quotes_exact"), note=PAGE_QUOTES),
    ResultRule("S11.all.quotes_of", INTEGRITY_RESPONDER(stage="adjudication", responder="all",
                                                        statistic="page_quotes"), note=PAGE_QUOTES),
    # ---- Tables S12-S13: transitions and corrections
    ResultRule("S12.t12", POLICY_SECTION(section="transition", statistic="1_to_2"), absent_zero=True),
    ResultRule("S12.t23", POLICY_SECTION(section="transition", statistic="2_to_3"), absent_zero=True),
    ResultRule("S12.t21", POLICY_SECTION(section="transition", statistic="2_to_1"), absent_zero=True),
    ResultRule("S12.t12_gold", POLICY_TRANSITION(step="1_to_2", statistic="to_gold"), absent_zero=True),
    ResultRule("S12.t12_partial", POLICY_TRANSITION(step="1_to_2", statistic="partial"), absent_zero=True),
    ResultRule("S12.t23_gold", POLICY_TRANSITION(step="2_to_3", statistic="to_gold"), absent_zero=True),
    ResultRule("S12.t21_partial", POLICY_TRANSITION(step="2_to_1", statistic="partial"), absent_zero=True),
    ResultRule("S12.all", POLICY(statistic="changed")),
    ResultRule("S12.net", POLICY(statistic="net_gold")),
    ResultRule("S13.cp.wb", POLICY_STRATUM(release="v1", source="wb", statistic="sampled"), design=True, note=SAMPLED),
    ResultRule("S13.cp.pmc", POLICY_STRATUM(release="v1", source="pmc", statistic="sampled"), design=True,
               note=SAMPLED),
    ResultRule("S13.cp.sampled", POLICY_STRATUM(release="v1", source="all", statistic="sampled"), design=True,
               note=SAMPLED),
    ResultRule("S13.cp.corrected", POLICY_STRATUM(release="v1", source="all", statistic="corrected"), absent_zero=True,
               note=SAMPLED),
    ResultRule("S13.arxiv.sampled", POLICY_STRATUM(release="v2", source="arxiv", statistic="sampled"), design=True),
    ResultRule("S13.arxiv.corrected", POLICY_STRATUM(release="v2", source="arxiv", statistic="corrected")),
    ResultRule("S13.eric.sampled", POLICY_STRATUM(release="v2", source="eric", statistic="sampled"), design=True),
    ResultRule("S13.eric.corrected", POLICY_STRATUM(release="v2", source="eric", statistic="corrected")),
    ResultRule("S13.fedreg.sampled", POLICY_STRATUM(release="v2", source="fedreg", statistic="sampled"), design=True),
    ResultRule("S13.fedreg.corrected", POLICY_STRATUM(release="v2", source="fedreg", statistic="corrected")),
    ResultRule("S13.pmc.sampled", POLICY_STRATUM(release="v2", source="pmc", statistic="sampled"), design=True),
    ResultRule("S13.pmc.corrected", POLICY_STRATUM(release="v2", source="pmc", statistic="corrected")),
    ResultRule("S13.all.sampled", INTEGRITY(statistic="pairs"), design=True),
    ResultRule("S13.all.corrected", POLICY(statistic="changed")),
    # ---- 10.5: the residual-qrel challenge
    ResultRule("X.s105.agree", CHALLENGE_SECTION(section="protocol", statistic="agreeing_conditions")),
    ResultRule("X.s105.agree_of", CHALLENGE_SECTION(section="protocol", statistic="conditions")),
    ResultRule("X.s105.quotes", CHALLENGE_SECTION(section="protocol", statistic="tiebreak_selected_quotes_on_page"),
               note=PAGE_QUOTES),
    ResultRule("X.s105.tiebreak", CHALLENGE_SECTION(section="protocol", statistic="tiebreak_conditions")),
    ResultRule("X.s105.tiebreak_pairs", CHALLENGE_SECTION(section="protocol", statistic="tiebreak_pairs")),
    ResultRule("X.s105.pick_dup", CHALLENGE_SECTION(section="protocol",
                                                    statistic="tiebreak_selects_duplicate_collapsed_stream"),
               absent_zero=True),
    ResultRule("X.s105.pick_other", CHALLENGE_SECTION(section="protocol", statistic="tiebreak_selects_other_stream"),
               absent_zero=True),
    ResultRule("X.s105.t10", CHALLENGE_TRANSITION(arm="target", statistic="1_to_0"), absent_zero=True),
    ResultRule("X.s105.t11", CHALLENGE_TRANSITION(arm="target", statistic="1_to_1"), absent_zero=True),
    ResultRule("X.s105.t12", CHALLENGE_TRANSITION(arm="target", statistic="1_to_2"), absent_zero=True),
    ResultRule("X.s105.t13", CHALLENGE_TRANSITION(arm="target", statistic="1_to_3"), absent_zero=True),
    ResultRule("X.s105.t22", CHALLENGE_TRANSITION(arm="target", statistic="2_to_2"), absent_zero=True),
    ResultRule("X.s105.t23", CHALLENGE_TRANSITION(arm="target", statistic="2_to_3"), absent_zero=True),
    ResultRule("X.s105.changed", CHALLENGE_SECTION(section="decisions", statistic="targets_changed")),
    ResultRule("X.s105.targets", CHALLENGE_SECTION(section="decisions", statistic="targets")),
    ResultRule("X.s105.to_gold", CHALLENGE_SECTION(section="decisions", statistic="targets_to_gold")),
    ResultRule("X.s105.controls_kept", CHALLENGE_SECTION(section="decisions", statistic="controls_retained")),
    ResultRule("X.s105.controls", CHALLENGE_SECTION(section="decisions", statistic="controls"), design=True),
    ResultRule("X.s105.n_targets", CHALLENGE(statistic="targets")),
    ResultRule("X.s105.n_controls", CHALLENGE(statistic="controls"), design=True),
    ResultRule("X.s101.challenge_pairs", CHALLENGE(statistic="pairs")),
    ResultRule("X.s101.challenge_conditions", CHALLENGE(statistic="conditions")),
    # ---- Table S14 and 10.6: both validation stages (gold-only NDCG@10, 0-1)
    ResultRule("S14.challenge_changed", CHALLENGE_SECTION(section="decisions", statistic="targets_changed")),
    ResultRule("S14.challenge_of", CHALLENGE(statistic="targets")),
    ResultRule("S14.audit_changed", POLICY(statistic="changed")),
    ResultRule("S14.audit_of", INTEGRITY(statistic="pairs"), design=True),
    ResultRule("S14.ss_qrels.t", V2_STRUCTURE(statistic="qrel_rows")),
    ResultRule("S14.ss_queries.t", V2_STRUCTURE(statistic="queries")),
    ResultRule("S14.cp_fusion.c", IMPACT_OF(release="v1", copy="construction", subject="rrf_bm25and_pagetop3",
                                            statistic="gold_ndcg")),
    ResultRule("S14.cp_fusion.a", IMPACT_OF(release="v1", copy="audit", subject="rrf_bm25and_pagetop3",
                                            statistic="gold_ndcg")),
    ResultRule("S14.cp_fusion.t", IMPACT_OF(release="v1", copy="audit", subject="rrf_bm25and_pagetop3",
                                            statistic="gold_ndcg")),
    ResultRule("S14.cp_sdr.c", IMPACT_OF(release="v1", copy="construction", subject="bm25_dec_sdr",
                                         statistic="gold_ndcg")),
    ResultRule("S14.cp_sdr.a", IMPACT_OF(release="v1", copy="audit", subject="bm25_dec_sdr", statistic="gold_ndcg")),
    ResultRule("S14.cp_sdr.t", IMPACT_OF(release="v1", copy="audit", subject="bm25_dec_sdr", statistic="gold_ndcg")),
    ResultRule("S14.cp_bm25.c", IMPACT_OF(release="v1", copy="construction", subject="bm25_and",
                                          statistic="gold_ndcg")),
    ResultRule("S14.cp_bm25.a", IMPACT_OF(release="v1", copy="audit", subject="bm25_and", statistic="gold_ndcg")),
    ResultRule("S14.cp_bm25.t", IMPACT_OF(release="v1", copy="audit", subject="bm25_and", statistic="gold_ndcg")),
    ResultRule("S14.ss_fusion.c", IMPACT_OF(release="v2", copy="construction", subject="fusion",
                                            statistic="gold_ndcg")),
    ResultRule("S14.ss_fusion.a", IMPACT_OF(release="v2", copy="s0", subject="fusion", statistic="gold_ndcg")),
    ResultRule("S14.ss_fusion.t", IMPACT_OF(release="v2", copy="s", subject="fusion", statistic="gold_ndcg")),
    ResultRule("S14.ss_bm25.c", IMPACT_OF(release="v2", copy="construction", subject="bm25_and",
                                          statistic="gold_ndcg")),
    ResultRule("S14.ss_bm25.a", IMPACT_OF(release="v2", copy="s0", subject="bm25_and", statistic="gold_ndcg")),
    ResultRule("S14.ss_bm25.t", IMPACT_OF(release="v2", copy="s", subject="bm25_and", statistic="gold_ndcg")),
    ResultRule("S14.ss_gap.c", IMPACT_OF(release="v2", copy="construction", subject="fusion_minus_bm25",
                                         statistic="gold_ndcg_gap")),
    ResultRule("S14.ss_gap.a", IMPACT_OF(release="v2", copy="s0", subject="fusion_minus_bm25",
                                         statistic="gold_ndcg_gap")),
    ResultRule("S14.ss_gap.t", IMPACT_OF(release="v2", copy="s", subject="fusion_minus_bm25",
                                         statistic="gold_ndcg_gap")),
    ResultRule("S14.ss_p.c", IMPACT_OF(release="v2", copy="construction", subject="fusion_minus_bm25",
                                       statistic="query_paired_p")),
    ResultRule("S14.ss_p.a", IMPACT_OF(release="v2", copy="s0", subject="fusion_minus_bm25",
                                       statistic="query_paired_p")),
    ResultRule("S14.ss_p.t", IMPACT_OF(release="v2", copy="s", subject="fusion_minus_bm25",
                                       statistic="query_paired_p")),
    ResultRule("X.s106.max_move", IMPACT_TABLE(release="v1", copy="audit", table="representative", score="gold_ndcg",
                                               statistic="max_abs_change"),
               note=REPRESENTATIVE),
    ResultRule("X.s106.gap", IMPACT_OF(release="v2", copy="s", subject="fusion_minus_bm25", statistic="gold_ndcg_gap")),
    ResultRule("X.s106.p_query", IMPACT_OF(release="v2", copy="s", subject="fusion_minus_bm25",
                                           statistic="query_paired_p")),
    ResultRule("X.s106.p_family", IMPACT_OF(release="v2", copy="s", subject="fusion_minus_bm25", statistic="family_p")),
    ResultRule("X.s106.crossed_lo", SHARED_DOCUMENTS_MEMBERSHIP.on("v2")(pair="fusion_minus_bm25",
                                                                membership="gold", statistic="crossed_ci_low")),
    ResultRule("X.s106.crossed_hi", SHARED_DOCUMENTS_MEMBERSHIP.on("v2")(pair="fusion_minus_bm25",
                                                                membership="gold", statistic="crossed_ci_high")),
    ResultRule("X.s106.judged_lo", SHARED_DOCUMENTS_MEMBERSHIP.on("v2")(pair="fusion_minus_bm25",
                                                               membership="judged", statistic="crossed_ci_low")),
    ResultRule("X.s106.judged_hi", SHARED_DOCUMENTS_MEMBERSHIP.on("v2")(pair="fusion_minus_bm25",
                                                               membership="judged", statistic="crossed_ci_high")),
    ResultRule("X.s106.arxiv", SHARED_DOCUMENTS_SOURCE(pair="fusion_minus_bm25", source="arxiv",
                                                       statistic="gold_ndcg_gap")),
    ResultRule("X.s106.eric", SHARED_DOCUMENTS_SOURCE(pair="fusion_minus_bm25", source="eric",
                                                      statistic="gold_ndcg_gap")),
    ResultRule("X.s106.fedreg", SHARED_DOCUMENTS_SOURCE(pair="fusion_minus_bm25", source="fedreg",
                                                        statistic="gold_ndcg_gap")),
    ResultRule("X.s106.pmc", SHARED_DOCUMENTS_SOURCE(pair="fusion_minus_bm25", source="pmc",
                                                     statistic="gold_ndcg_gap")),
    # ---- Section 8: SourceShift raw-run rank agreement
    ResultRule("X.s8.rho", V2_RANK_AGREEMENT.on("s")(statistic="spearman_graded_vs_gold_ndcg")),
    ResultRule("X.s5b.rho", V2_RANK_AGREEMENT.on("s")(statistic="spearman_graded_vs_gold_ndcg")),
    ResultRule("X.s5b.shift", V2_RANK_AGREEMENT.on("s")(statistic="max_rank_shift")),
    ResultRule("X.s8.delta_arxiv", SHARED_DOCUMENTS_SOURCE(pair="fusion_minus_bm25", source="arxiv",
                                                           statistic="gold_ndcg_gap")),
    ResultRule("X.s8.delta_eric", SHARED_DOCUMENTS_SOURCE(pair="fusion_minus_bm25", source="eric",
                                                          statistic="gold_ndcg_gap")),
    ResultRule("X.s8.delta_fedreg", SHARED_DOCUMENTS_SOURCE(pair="fusion_minus_bm25", source="fedreg",
                                                            statistic="gold_ndcg_gap")),
    ResultRule("X.s8.delta_pmc", SHARED_DOCUMENTS_SOURCE(pair="fusion_minus_bm25", source="pmc",
                                                         statistic="gold_ndcg_gap")),
    # ---- S5b / section 9: the length-matched AUC (the difficulty regression's coefficients are UNSTATED)
    ResultRule("X.s5.auc_before", DIAGNOSTIC_SYSTEM(check="length_matched", system="bm25_dec_sdr", statistic="auc")),
    ResultRule("X.s5b.auc_before", DIAGNOSTIC_SYSTEM(check="length_matched", system="bm25_dec_sdr", statistic="auc")),
    ResultRule("X.s5b.demotions", DIAGNOSTIC(check="repairs", statistic="gold_to_subset")),
    ResultRule("X.s5b.promotions", DIAGNOSTIC(check="repairs", statistic="subset_to_gold")),
    ResultRule("X.s5b.in_top10", DIAGNOSTIC(check="repairs", statistic="in_clean_top10_union")),
    ResultRule("X.s5b.reversal", IMPACT_TABLE(release="v1", copy="audit", table="scorecard", score="nclue_score",
                                              statistic="max_abs_change")),
    ResultRule("X.s5b.rho_repair", IMPACT_TABLE(release="v1", copy="audit", table="scorecard", score="nclue_score",
                                                statistic="spearman_rho")),
    ResultRule("X.s5.single_of", TABLE1(statistic="gold_qrels")),
    ResultRule("X.s5.repairs", DIAGNOSTIC(check="repairs", statistic="count")),
    ResultRule("X.s5b.repairs", DIAGNOSTIC(check="repairs", statistic="count")),
]
# prose restatements of table cells (the row is named in ``key``)
_RULES += [
    ResultRule("X.abs.hybrid_hit", SCORECARD(system="{row}", measure="gold_hit_at_10"), "system", key="hybrid"),
    ResultRule("X.abs.hybrid_score", SCORECARD(system="{row}", measure="nclue_score_at_10"), "system", key="hybrid"),
    ResultRule("X.abs.dense_gain_lo", CONTRAST(block="{row}", variant="{variant}", statistic="delta_score"), "block",
               key="jina_composition"),
    ResultRule("X.abs.dense_gain_hi", CONTRAST(block="{row}", variant="{variant}", statistic="delta_score"), "block",
               key="qwen_composition"),
    ResultRule("X.abs.fusion_gain", CONTRAST(block="{row}", variant="{variant}", statistic="delta_score"), "block",
               key="fusion"),
    ResultRule("X.abs.scale_change", CONTRAST(block="{row}", variant="{variant}", statistic="delta_score"), "block",
               key="scale"),
    ResultRule("X.abs.queries", TABLE1(statistic="queries"), design=True),
    ResultRule("X.abs.documents", TABLE1(statistic="documents"), design=True),
    ResultRule("X.abs.support_lo", EVIDENCE(system="{row}", slice="all", statistic="gold_support_at_10"), "page_run",
               key="vl8b"),
    ResultRule("X.abs.support_hi", EVIDENCE(system="{row}", slice="all", statistic="gold_support_at_10"), "page_run",
               key="vl2b"),
    ResultRule("X.s41.hit", SCORECARD(system="{row}", measure="gold_hit_at_10"), "system", key="hybrid"),
    ResultRule("X.s41.score", SCORECARD(system="{row}", measure="nclue_score_at_10"), "system", key="hybrid"),
    ResultRule("X.s41.top3_hit", SCORECARD(system="{row}", measure="gold_hit_at_10"), "system", key="colqwen_top3"),
    ResultRule("X.s41.top3_score", SCORECARD(system="{row}", measure="nclue_score_at_10"), "system",
               key="colqwen_top3"),
    ResultRule("X.s41.hybrid_miss", SCORECARD(system="{row}", measure="no_gold"), "system", key="hybrid"),
    ResultRule("X.s41.hybrid_subset", SCORECARD(system="{row}", measure="subset_first"), "system", key="hybrid"),
    ResultRule("X.s41.top3_miss", SCORECARD(system="{row}", measure="no_gold"), "system", key="colqwen_top3"),
    ResultRule("X.s41.top3_subset", SCORECARD(system="{row}", measure="subset_first"), "system", key="colqwen_top3"),
    ResultRule("X.s41.q06_subset", SCORECARD(system="{row}", measure="subset_first"), "system", key="qwen06_dec"),
    # "a 45.3-point gap": Gold Hit minus n-Clue Score is the subset-first share (Table 4's identity)
    ResultRule("X.s41.gap", SCORECARD(system="{row}", measure="subset_first"), "system", key="hybrid"),
    ResultRule("X.s42.visual_rerank", CONTRAST(block="{row}", variant="{variant}", statistic="delta_score"), "block",
               key="visual_reranking",
               scale=-1),
    ResultRule("X.s31.and_graded_ndcg", MATRIX(system="{row}", measure="graded_ndcg_at_10"), "system", key="bm25_and"),
    ResultRule("X.s31.and_auc", MATRIX(system="{row}", measure="pairwise_auc"), "system", key="bm25_and"),
    ResultRule("X.s31.or_graded_ndcg", MATRIX(system="{row}", measure="graded_ndcg_at_10"), "system", key="bm25_or"),
    ResultRule("X.s31.or_auc", MATRIX(system="{row}", measure="pairwise_auc"), "system", key="bm25_or"),
    ResultRule("X.s43.hit_n2", SLICE(system="{row}", slice="n2", statistic="gold_hit_at_10"), "system", key="hybrid"),
    ResultRule("X.s43.hit_n3", SLICE(system="{row}", slice="n3", statistic="gold_hit_at_10"), "system", key="hybrid"),
    ResultRule("X.s43.score_n2", SLICE(system="{row}", slice="n2", statistic="nclue_score_at_10"), "system",
               key="hybrid"),
    ResultRule("X.s43.score_n3", SLICE(system="{row}", slice="n3", statistic="nclue_score_at_10"), "system",
               key="hybrid"),
    ResultRule("X.s43.gap_n2", SLICE(system="{row}", slice="n2", statistic="subset_first"), "system", key="hybrid"),
    ResultRule("X.s43.gap_n3", SLICE(system="{row}", slice="n3", statistic="subset_first"), "system", key="hybrid"),
    ResultRule("X.s43.pool_hit", SLICE(system="{row}", slice="pool_gt50", statistic="gold_hit_at_10"), "system",
               key="hybrid"),
    ResultRule("X.s43.pool_score", SLICE(system="{row}", slice="pool_gt50", statistic="nclue_score_at_10"), "system",
               key="hybrid"),
    ResultRule("X.s43.long_gap_hybrid", SLICE(system="{row}", slice="lmin_gt100", statistic="subset_first"), "system",
               key="hybrid"),
    ResultRule("X.s43.long_gap_top3", SLICE(system="{row}", slice="lmin_gt100", statistic="subset_first"), "system",
               key="colqwen_top3"),
    ResultRule("X.s44.support_2b", EVIDENCE(system="{row}", slice="all", statistic="gold_support_at_10"), "page_run",
               key="vl2b", note=PAGE_RUN),
    ResultRule("X.s44.support_8b", EVIDENCE(system="{row}", slice="all", statistic="gold_support_at_10"), "page_run",
               key="vl8b", note=PAGE_RUN),
    ResultRule("X.s44.full_2b_n2", EVIDENCE(system="{row}", slice="n2", statistic="full_coverage"), "page_run",
               key="vl2b", note=PAGE_RUN),
    ResultRule("X.s44.full_2b_n3", EVIDENCE(system="{row}", slice="n3", statistic="full_coverage"), "page_run",
               key="vl2b", note=PAGE_RUN),
    ResultRule("X.s44.full_8b_n2", EVIDENCE(system="{row}", slice="n2", statistic="full_coverage"), "page_run",
               key="vl8b", note=PAGE_RUN),
    ResultRule("X.s44.full_8b_n3", EVIDENCE(system="{row}", slice="n3", statistic="full_coverage"), "page_run",
               key="vl8b", note=PAGE_RUN),
    ResultRule("X.s34.linked", TABLE1(statistic="gold_graph_largest_component_queries")),
    ResultRule("X.s34.linked_of", TABLE1(statistic="queries"), design=True),
    ResultRule("X.s34.draws", BOOTSTRAP_SETUP(statistic="bootstrap_draws"), design=True),
    ResultRule("X.s4.draws", V2_CONTRAST_SETUP.on("s")(statistic="sign_flip_draws"), design=True,
               note="'two-sided 10,000-sample permutation tests (n=225)' are SourceShift's Table S4 tests"),
    ResultRule("X.s32.gold_after", TABLE1(statistic="gold_qrels")),
    ResultRule("X.s32.ss_queries", V2_STRUCTURE(statistic="queries")),
    ResultRule("X.s32.ss_docs", V2_STRUCTURE(statistic="documents"), design=True),
    ResultRule("X.s32.ss_qrels", V2_STRUCTURE(statistic="qrel_rows")),
    ResultRule("X.s11.zero_pairs", CONSTRUCTION(statistic="zero_grade_pairs")),
    ResultRule("X.t1.caption_median", TABLE1(statistic="shortest_gold_median")),
    ResultRule("X.s13.queries", TABLE1(statistic="queries"), design=True),
    ResultRule("X.s13.qrels", TABLE1(statistic="qrel_rows")),
    ResultRule("X.s13.docs", TABLE1(statistic="documents"), design=True),
    ResultRule("X.s13.ss_queries", V2_STRUCTURE(statistic="queries")),
    ResultRule("X.s13.ss_docs", V2_STRUCTURE(statistic="documents"), design=True),
    ResultRule("X.s13.ss_s0", V2_STRUCTURE(statistic="qrel_rows_s0")),
    ResultRule("X.s13.ss_s", V2_STRUCTURE(statistic="qrel_rows")),
    ResultRule("X.s101.pairs", PACKET(statistic="pairs"), design=True),
    ResultRule("X.s1021.packet_pairs", PACKET(statistic="pairs"), design=True),
    ResultRule("X.s1021.rubrics", PACKET(statistic="conditions"), design=True),
    # "2,130 nonempty page contexts" (10.2.1) depend on the pages each condition shows (the stand-in has 2,128):
    # a result, bound once, in bindings.STRUCTURE
    ResultRule("X.s101.cp", PACKET(statistic="v1_pairs"), design=True),
    ResultRule("X.s101.ss", PACKET(statistic="v2_pairs"), design=True),
    ResultRule("S7.cp_wb.pairs", PACKET(statistic="v1_wb_pairs"), design=True),
    ResultRule("S7.cp_pmc.pairs", PACKET(statistic="v1_pmc_pairs"), design=True),
    ResultRule("S7.cp_pmc.gold", PACKET(statistic="v1_pmc_gold"), design=True, absent_zero=True),
    ResultRule("S7.ss_arxiv.pairs", PACKET(statistic="v2_arxiv_pairs"), design=True),
    ResultRule("S7.ss_eric.pairs", PACKET(statistic="v2_eric_pairs"), design=True),
    ResultRule("S7.ss_fedreg.pairs", PACKET(statistic="v2_fedreg_pairs"), design=True),
    ResultRule("S7.ss_pmc.pairs", PACKET(statistic="v2_pmc_pairs"), design=True),
    ResultRule("T1.single_page_of", TABLE1(statistic="gold_qrels")),
    ResultRule("T1.distinct_valid_of", TABLE1(statistic="gold_qrels")),
    ResultRule("X.s42.scale_hit", CONTRAST(block="{row}", variant="{variant}", statistic="delta_hit"), "block",
               key="scale"),
    ResultRule("X.s42.scale_score", CONTRAST(block="{row}", variant="{variant}", statistic="delta_score"), "block",
               key="scale"),
    ResultRule("X.s42.jina", CONTRAST(block="{row}", variant="{variant}", statistic="delta_score"), "block",
               key="jina_composition"),
    ResultRule("X.s42.qwen", CONTRAST(block="{row}", variant="{variant}", statistic="delta_score"), "block",
               key="qwen_composition"),
    ResultRule("X.s42.jina_p", PAPER_BLOCK(block="{key}", statistic="p_holm"), "block", key="jina_composition",
               note=PAPER_FAMILY),
    ResultRule("X.s42.qwen_p", PAPER_BLOCK(block="{key}", statistic="p_holm"), "block", key="qwen_composition",
               note=PAPER_FAMILY),
    ResultRule("X.s42.bm25_hit", CONTRAST(block="{row}", variant="{variant}", statistic="delta_hit"), "block",
               key="lexical_composition"),
    ResultRule("X.s42.bm25_score", CONTRAST(block="{row}", variant="{variant}", statistic="delta_score"), "block",
               key="lexical_composition"),
    ResultRule("X.s42.fusion", CONTRAST(block="{row}", variant="{variant}", statistic="delta_score"), "block",
               key="fusion"),
    ResultRule("X.s42.fusion_p", PAPER_BLOCK(block="{key}", statistic="p_holm"), "block", key="fusion",
               note=PAPER_FAMILY),
    ResultRule("X.s32.audit_pairs", INTEGRITY(statistic="pairs"), design=True),
    ResultRule("X.s32.audit_conditions", INTEGRITY(statistic="conditions"), design=True),
    ResultRule("X.s32.agree", AGREEMENT(stage="initial", statistic="grade_agree")),
    ResultRule("X.s32.agree_of", AGREEMENT(stage="initial", statistic="pairs"), design=True),
    ResultRule("X.s32.agree_pct", AGREEMENT(stage="initial", statistic="grade_agreement")),
    ResultRule("X.s32.kappa_w", AGREEMENT(stage="initial", statistic="grade_kappa_linear")),
    ResultRule("X.s32.repairs", DIAGNOSTIC(check="repairs", statistic="count")),
    ResultRule("X.s32.promotions", DIAGNOSTIC(check="repairs", statistic="subset_to_gold")),
    ResultRule("X.s32.reversal_max", IMPACT_TABLE(release="v1", copy="audit", table="scorecard", score="nclue_score",
                                                  statistic="max_abs_change")),
    ResultRule("X.s32.rho", IMPACT_TABLE(release="v1", copy="audit", table="scorecard", score="nclue_score",
                                         statistic="spearman_rho")),
    ResultRule("X.s5.reversal", IMPACT_TABLE(release="v1", copy="audit", table="scorecard", score="nclue_score",
                                             statistic="max_abs_change")),
    ResultRule("X.s5.oracle", CONTROL(control="oracle_facts", statistic="nclue_score_at_10")),
    ResultRule("X.s5.single", CONTROL(control="floor_single_page", statistic="nclue_score_at_10")),
    ResultRule("X.s5.prior", CONTROL(control="prior_condition_frequency", statistic="nclue_score_at_10")),
    ResultRule("X.s5.distinct", TABLE1(statistic="distinct_page_valid_golds")),
    ResultRule("X.s106.cp", POLICY(statistic="v1_repairs")),
    ResultRule("X.s106.ss", V2_GENEALOGY_COPY(copy="s0", statistic="grades_changed")),
    ResultRule("S14.ss_queries.a", V2_STRUCTURE(statistic="queries_s0")),
    ResultRule("S14.ss_qrels.a", V2_STRUCTURE(statistic="qrel_rows_s0")),
    ResultRule("X.s1j.q06_hit_n2", SLICE(system="{row}", slice="n2", statistic="gold_hit_at_10"), "system",
               key="qwen06_dec"),
    ResultRule("X.s1j.q06_score_n2", SLICE(system="{row}", slice="n2", statistic="nclue_score_at_10"), "system",
               key="qwen06_dec"),
    ResultRule("X.s1j.q06_hit_n3", SLICE(system="{row}", slice="n3", statistic="gold_hit_at_10"), "system",
               key="qwen06_dec"),
    ResultRule("X.s1j.q06_score_n3", SLICE(system="{row}", slice="n3", statistic="nclue_score_at_10"), "system",
               key="qwen06_dec"),
    ResultRule("X.s1j.bm25_short", SLICE(system="{row}", slice="lmin_le30", statistic="nclue_score_at_10"), "system",
               key="bm25_and"),
    ResultRule("X.s1j.bm25_long", SLICE(system="{row}", slice="lmin_gt100", statistic="nclue_score_at_10"), "system",
               key="bm25_and"),
    ResultRule("X.s1j.hit_n2", SLICE(system="{row}", slice="n2", statistic="gold_hit_at_10"), "system", key="hybrid"),
    ResultRule("X.s1j.hit_n3", SLICE(system="{row}", slice="n3", statistic="gold_hit_at_10"), "system", key="hybrid"),
    ResultRule("X.s1j.score_n2", SLICE(system="{row}", slice="n2", statistic="nclue_score_at_10"), "system",
               key="hybrid"),
    ResultRule("X.s1j.score_n3", SLICE(system="{row}", slice="n3", statistic="nclue_score_at_10"), "system",
               key="hybrid"),
]
_RULES += [ResultRule("S1j.size.%s" % s, TABLE1(statistic="%s") % claim, design=s == "all") for s, claim in (
    ("all", "queries"), ("n2", "queries_n2"), ("n3", "queries_n3"), ("lmin_le30", "slice_lmin_le30"),
    ("lmin_gt100", "slice_lmin_gt100"), ("pool_le25", "slice_pool_le25"), ("pool_gt50", "slice_pool_gt50"))]
# Table 6's slice cells (and their copy in Table S1j), Tables S2b / S3 (n-Clue Score per form), Table S4 (delta and
# p per form), Table S1i (both columns): one rule per cell kind, written out
for _table in ("T6", "S1j"):
    _RULES += [ResultRule("%s.*.all.score" % _table, SCORECARD(system="{row}", measure="nclue_score_at_10"), "system"),
               ResultRule("%s.*.all.hit" % _table, SCORECARD(system="{row}", measure="gold_hit_at_10"), "system")]
    _RULES += [ResultRule("%s.*.%s.score" % (_table, s), SLICE(system="{row}", slice="%s",
                                                               statistic="nclue_score_at_10") % s, "system")
               for s in SLICES[1:]]
    _RULES += [ResultRule("%s.*.%s.hit" % (_table, s), SLICE(system="{row}", slice="%s",
                                                             statistic="gold_hit_at_10") % s, "system")
               for s in SLICES[1:]]
_RULES += [ResultRule("S2b.*.%s" % paper, V1_FORMS(system="{row}", form="%s", measure="nclue_score_at_10") % ours,
                      "original")
           for paper, ours in FORMS]
_RULES += [ResultRule("S3.*.%s" % paper, V2_FORMS.on("s")(system="{row}", form="%s",
                                                  measure="nclue_score_at_10") % ours, "original")
           for paper, ours in FORMS]
_RULES += [ResultRule("S4.*.%s.delta" % paper, V2_CONTRAST.on("s")(contrast="{row}", form="%s",
                                                           statistic="delta_score") % ours, "ss_contrast")
           for paper, ours in FORMS]
_RULES += [ResultRule("S4.*.%s.p" % paper, V2_CONTRAST.on("s")(contrast="{row}", form="%s",
                                                       statistic="p_value") % ours, "ss_contrast")
           for paper, ours in FORMS]
for _col, _release in (("cp", "v1"), ("ss", "v2")):
    _pair = {"pair": "fusion_minus_bm25"}
    _whole, _member = SHARED_DOCUMENTS.on(_release), SHARED_DOCUMENTS_MEMBERSHIP.on(_release)
    _dropped = SHARED_DOCUMENTS_DROP.on(_release)
    for _paper, _claim in (
            ("queries", _whole(statistic="queries", **_pair)),
            ("gold_docs", _whole(statistic="distinct_gold_documents", **_pair)),
            ("gap", _whole(statistic="gold_ndcg_gap", **_pair))):
        _RULES.append(ResultRule("S1i.%s.%s" % (_col, _paper), _claim))
    for _membership, _label in (("gold", ""), ("judged", "judged_")):
        for _paper, _statistic in (("components", "components"), ("largest", "largest_component"),
                                   ("crossed_lo", "crossed_ci_low"), ("crossed_hi", "crossed_ci_high"),
                                   ("loo_lo", "leave_one_doc_min"), ("loo_hi", "leave_one_doc_max")):
            _RULES.append(ResultRule("S1i.%s.%s%s" % (_col, _label, _paper),
                                     _member(membership=_membership, statistic=_statistic, **_pair)))
        for _paper, _statistic in (("drop20", "gold_ndcg_gap"), ("drop20_q", "queries")):
            _RULES.append(ResultRule("S1i.%s.%s%s" % (_col, _label, _paper),
                                     _dropped(membership=_membership, statistic=_statistic, **_pair)))
for _a in range(4):
    for _e in range(4):
        _RULES.append(ResultRule("S9.a%d.e%d" % (_a, _e), AGREEMENT(stage="initial", statistic="confusion"),
                                 index=(_a, _e)))
# the structural counts of Table 1, supplement 8 and S14 (the bindings stats.json's paper columns use)
# of those, the counts the construction fixes by fiat (the corpus and query targets, the audit packet's
# stratified sample) are design numbers; every other structural count is an outcome of the data, a result
FIXED_BY_CONSTRUCTION = ("T1.queries", "T1.documents", "X.s32.wb_docs", "X.s32.pmc_docs", "X.s8.per_source", "X.s8.docs",
                         "X.s101.conditions", "S7.*")
_RULES += [ResultRule(b.number, b.claim, None, b.scale,
                      design=any(fnmatchcase(b.number, pattern) for pattern in FIXED_BY_CONSTRUCTION),
                      note=PER_SOURCE if b.number == "X.s8.per_source" else "") for b in STRUCTURE]
RULES = tuple(_RULES)


def mixed_kinds(rules=RULES):
    """``{claim: {design flag: [numbers]}}`` of the claims bound under two kinds (a result in one binding, a design
    count in another): empty for a consistent table.  One quantity has one kind
    (docs/paper-audit.md#kinds-of-published-numbers); a claim template with a row or key to fill is judged per
    filled claim at run time.

    >>> mixed_kinds([ResultRule("A", "c.x"), ResultRule("B", "c.x", design=True), ResultRule("C", "c.y")])
    {'c.x': {False: ['A'], True: ['B']}}
    """
    by_claim = {}
    for rule in rules:
        if "{" not in rule.claim:
            by_claim.setdefault(rule.claim, {}).setdefault(rule.design, []).append(rule.pattern)
    return {claim: kinds for claim, kinds in sorted(by_claim.items()) if len(kinds) > 1}

# Why a transcribed number is not bound: a short declared list of reasons (docs/paper-audit.md#unbound-numbers),
# and which numbers each applies to (first matching pattern wins).
STUDY_COUNT = ("a count of the paper's own configurations (Table 2, its caption, and the abstract's and section "
               "3.3's restatements of it): the crosswalk (paper.crosswalk) holds Table 2's counts against the "
               "transcription")
TABLE5_COUNT = ("a count of the paper's own Table 5 rows ('all 8 pairs', Table S5b): the relation "
                "X.s5b.pairs.table5_rows checks it against the eight rows the transcription holds")
RANGE = ("a range, minimum, maximum or difference of published cells: the paper audit's relations check it "
         "against those cells, which are bound one by one")
UNPRINTED = ("a range over per-model values the paper does not print (Gold Hit after dropping c1 or c2, for five "
             "dense retrievers): no published cell to check it against, and no one claim is the range")
NOT_RECORDED = "a field the release's records do not carry (the audit's 'judged clear' flags)"
UNSTATED = ("the paper does not state the rule that computes it (the length matching's bins; the difficulty "
            "regression's outcome, link, covariate scaling and runs), so no claim can have the paper's meaning")
UNBOUND_REASONS = (STUDY_COUNT, TABLE5_COUNT, RANGE, UNPRINTED, NOT_RECORDED, UNSTATED)
UNBOUND = (
    ("T2.*", STUDY_COUNT), ("S2.*", STUDY_COUNT), ("X.t2.*", STUDY_COUNT), ("X.s33.*", STUDY_COUNT),
    ("X.abs.configs", STUDY_COUNT), ("X.s5b.pairs", TABLE5_COUNT),
    ("S2a.*.delta", RANGE), ("X.s2a.*", RANGE), ("X.s43.para_*", RANGE), ("X.s5.para_*", RANGE),
    ("X.s5.mask_*", RANGE), ("X.s5b.mask_*", RANGE), ("X.s5a.hit_*", UNPRINTED),
    ("X.s1j.long_gap_min", RANGE),
    ("S8.clear*", NOT_RECORDED),
    ("X.s5.auc_after", UNSTATED), ("X.s5b.auc_after", UNSTATED), ("X.s5b.beta_*", UNSTATED),
)


# the sections that exist only in the supplement (its 1-7 share numbers with the main paper's sections, whose
# prose the transcription holds; the main paper's section 8, the Conclusion, prints no number): the first segment
SUPPLEMENT_SECTIONS = ("8", "9", "10", "11", "12", "13")
# prose numbers whose "table" is a main table's number are printed in that table's caption
CAPTION_TABLES = ("1", "2", "S2a", "S4", "S5a")
# the transcription's name of supplement section 2's table, which the paper does not number
UNNAMED_TABLE = "S2"


def place(number_id, table):
    """How a reviewer names where a number is printed: ``Table 3`` / ``Table S14`` for a table, ``Table 1 caption``
    for a caption, ``section 3.2`` for main-paper prose (``X.*`` with a section number), ``supplement section
    10.1`` for supplement prose (sections 8-13, and ``supplement N`` for the supplement's sections 1-7, whose
    numbers the main paper's share), ``the abstract``; supplement section 2's table has no number and is named by
    its section.

    >>> place("T5.scale.delta", "5"), place("X.s5.oracle", "5"), place("X.s5b.rho", "S5b")
    ('Table 5', 'section 5', 'Table S5b')
    >>> place("X.s101.pairs", "10.1"), place("X.s8.docs", "8"), place("X.t1.pages", "1")
    ('supplement section 10.1', 'supplement section 8', 'Table 1 caption')
    >>> place("X.s1j.hit_n2", "supplement 5"), place("X.s4.n", "S4"), place("S2.total", "S2")
    ('supplement section 5', 'Table S4 caption', "supplement section 2's capability-matrix table")
    """
    if table == "abstract":
        return "the abstract"
    if table == UNNAMED_TABLE:
        return "supplement section 2's capability-matrix table"
    if table.startswith("supplement "):
        return "supplement section %s" % table[len("supplement "):]
    if number_id.startswith("X.") and table in CAPTION_TABLES:
        return "Table %s caption" % table
    if number_id.startswith("X.") and table[:1].isdigit():
        return ("supplement section %s" if table.split(".")[0] in SUPPLEMENT_SECTIONS else "section %s") % table
    return "Table %s" % table


def place_key(number_id, table):
    """:func:`place` as an identifier segment (``table_5``, ``section_5``, ``abstract``), for claim ids."""
    return place(number_id, table).replace("the ", "").replace("'s", "").replace(" ", "_").replace("-", "_")


def _match(pattern, number_id):
    """``(matched, row)``: ``*`` in ``pattern`` matches one dot-free segment (the row key)."""
    if "*" not in pattern:
        return number_id == pattern, None
    head, _, tail = pattern.partition("*")
    if not (number_id.startswith(head) and number_id.endswith(tail)) or len(number_id) < len(head) + len(tail):
        return False, None
    row = number_id[len(head):len(number_id) - len(tail)]
    return row != "", row


def rules_for(number_id):
    """``[(rule, row)]`` of every rule binding ``number_id``, the first the primary binding (:func:`rule_for`): a
    number the paper states once for several cells ("125 each" of four sources) is bound to each of them."""
    out = []
    for rule in RULES:
        ok, row = _match(rule.pattern, number_id)
        if ok:
            out.append((rule, rule.key or row))
    return out


def rule_for(number_id):
    """``(rule, row)`` of the first rule binding ``number_id`` (``(None, None)`` when unbound)."""
    for rule in RULES:
        ok, row = _match(rule.pattern, number_id)
        if ok:
            return rule, rule.key or row
    return None, None


def unbound_reason(number_id):
    """The declared reason an unbound number is not bound, or None when :data:`UNBOUND` gives none (a test
    requires every unbound number to have one)."""
    for pattern, reason in UNBOUND:
        if fnmatchcase(number_id, pattern):
            return reason
    return None


def scale_value(value, scale):
    if isinstance(scale, str):
        num, _, den = scale.partition("/")
        return value * float(num) / float(den)
    return value * scale


def resolve(rule, row, crosswalk, observed=None):
    """The claim id a rule gives for one row on this instrument, or ``(None, why)``: ``{row}`` through the
    crosswalk's namespace, ``{variant}`` through the paper's named variant of the block
    (:data:`nclue.paperaudit.roles.BLOCKS`) and the crosswalk."""
    claim, sid = rule.claim, None
    if "{row}" in claim:
        table = crosswalk.get(rule.namespace, {})
        if row not in table:
            return None, "row %r of namespace %s is not in the crosswalk" % (row, rule.namespace)
        sid = table[row]
        if sid is None:
            return None, "blocked on this instrument"
        claim = claim.replace("{row}", sid)
    if "{key}" in claim:
        claim = claim.replace("{key}", row)
    if "{variant}" in claim:
        role = roles.BLOCKS.get(row)
        if role is None:
            return None, "block %r names no variant in the paper's Table 5" % row
        ns, key = role.variant
        variant = crosswalk.get(ns, {}).get(key)
        if variant is None:
            return None, "the variant %s / %s of block %s is blocked or not in the crosswalk" % (ns, key, row)
        claim = claim.replace("{variant}", variant)
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
