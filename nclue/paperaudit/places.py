"""The paper's own row and column labels of every table the transcription reads (docs/paper-audit.md#places).

A table number is named where a reader finds it in the paper: the table, the row label in its first column and
the column header, as the paper prints them (``Table 3, row "BM25-AND", column "n-Clue Score@10"``), never a key
of the transcription.  Each table's labels are transcribed once, here, as :class:`TableLabels`: ``rows`` and
``columns`` are ``(pattern, label)`` pairs matched, first match winning, against the number id's remainder after
the table (``T3.bm25_and.score`` -> ``bm25_and.score``; ``*`` as in :func:`fnmatch.fnmatchcase`).  A column label
may carry a *part*, ``(label, part)``, where one cell prints several numbers ("814" of "1,000 (814 / 186)" is
the part "2 conditions").  ``rows=None`` says the transcription's ``row`` field is itself the paper's label (the
supplement's query-form tables print system ids).  ``header`` is the paper's column header (its cells, in order)
and ``row_header`` the first column's; the tests hold every label against them and against the quotes.

>>> cell("T3.bm25_and.score", {"row": "bm25_and"})
('BM25-AND', 'n-Clue Score@10', None)
>>> cell("T1.queries_n2", {"row": None})
('Queries (2 / 3 conditions)', 'Value', '2 conditions')
>>> cell("S2b.bm25_and.clean", {"row": "bm25_and"})
('bm25_and', 'Cleaned', None)
"""

from fnmatch import fnmatchcase
from typing import NamedTuple, Optional, Tuple


class TableLabels(NamedTuple):
    row_header: str
    header: Tuple[str, ...]
    rows: Optional[Tuple[Tuple[str, str], ...]]
    columns: Tuple[Tuple[str, object], ...]


_SLICE_HEADER = ("All", "n=2", "n=3", "L_min<=30", "L_min>100", "|D^+|<=25", "|D^+|>50")


def _slices(label_of_size, score="n-Clue Score", hit="Gold Hit"):
    """The columns of the slice tables (6, S1j): each slice's cell is "Score / Hit"; the unlabelled first row
    prints each slice's size in parentheses."""
    out = []
    for key, label in zip(("all", "n2", "n3", "lmin_le30", "lmin_gt100", "pool_le25", "pool_gt50"), _SLICE_HEADER):
        out += [("*.%s.score" % key, (label, score)), ("*.%s.hit" % key, (label, hit)),
                ("size.%s" % key, (label, label_of_size))]
    return tuple(out)


_T3_ROWS = (("bm25_and", "BM25-AND"), ("bm25_sdr", "BM25 distinct-page"), ("jina_joint", "Jina-v4 joint"),
            ("jina_dec", "Jina-v4 condition-wise"), ("qwen8b", "Qwen3-Emb. 8B joint"),
            ("qwen06_dec", "Qwen3-Emb. 0.6B condition-wise"), ("colqwen", "ColQwen2.5"),
            ("colqwen_top3", "ColQwen2.5 top-3"), ("hybrid", "BM25 + visual top-3"), ("bge_base", "BGE-M3 base"),
            ("bge_rerank", "BGE reranker"), ("qwen3_text_rerank", "Qwen3 text reranker"),
            ("qwen3vl_rerank", "Qwen3-VL 8B reranker"))
_SLICE_ROWS = (("bm25_and", "BM25-AND"), ("qwen8b", "Qwen3-Emb. 8B"), ("qwen06_dec", "Qwen3-Emb. 0.6B dec."),
               ("colqwen_top3", "ColQwen2.5 top-3"), ("hybrid", "Visual + BM25 RRF"),
               ("size", "(the unlabelled row of slice sizes)"))
_FORM_COLUMNS = (("*.raw", "Raw"), ("*.clean", "Cleaned"), ("*.natural", "Natural"))
_DENSE = (("bge.*", "BGE-M3"), ("jina.*", "Jina-v4"), ("qwen06.*", "Qwen3-Embedding 0.6B"), ("e5.*", "E5-large"),
          ("gte.*", "GTE-large"))

_S1I_ROWS = tuple(
    ("*.%s%s" % (prefix, key), (label, part)) for prefix, labels in (
        ("judged_", ("All-judged components (largest)", "All-judged crossed 95% interval",
                     "All-judged leave-one-doc range", "Remove 20 highest-degree judged docs")),
        ("", ("Connected components (largest)", "Crossed query/doc 95% interval", "Leave-one-gold-doc gap range",
              "Remove 20 highest-degree docs")))
    for key, label, part in (
        ("components", labels[0], "components"), ("largest", labels[0], "largest"),
        ("crossed_lo", labels[1], "low"), ("crossed_hi", labels[1], "high"), ("loo_lo", labels[2], "low"),
        ("loo_hi", labels[2], "high"), ("drop20", labels[3], "gap"), ("drop20_q", labels[3], "queries"))) + (
    ("*.queries", ("Queries / distinct gold docs", "queries")),
    ("*.gold_docs", ("Queries / distinct gold docs", "distinct gold docs")), ("*.gap", "Observed fusion-BM25 gap"))

TABLES = {
    "1": TableLabels("CrossPage statistic", ("Value",), (
        ("queries*", "Queries (2 / 3 conditions)"), ("documents", "Documents / rendered pages"),
        ("pages", "Documents / rendered pages"), ("pages_*", "Pages per document (mean / median / max)"),
        ("shortest_gold_*", "Shortest gold per query (mean / median pages)"), ("gold", "Gold / subset qrels"),
        ("subset", "Gold / subset qrels"), ("grade*", "Subset grade 1 / 2"),
        ("distinct_gold", "Distinct gold documents"), ("gold_wb", "Gold qrels (World Bank / PMC)"),
        ("gold_pmc", "Gold qrels (World Bank / PMC)"), ("single_page*", "Single-page-solvable golds"),
        ("distinct_valid*", "Distinct-page-valid golds")), (
        ("queries", ("Value", "all")), ("queries_n2", ("Value", "2 conditions")),
        ("queries_n3", ("Value", "3 conditions")), ("documents", ("Value", "documents")),
        ("pages", ("Value", "rendered pages")), ("*_mean", ("Value", "mean")), ("*_median", ("Value", "median")),
        ("*_max", ("Value", "max")), ("gold", ("Value", "gold")), ("subset", ("Value", "subset")),
        ("grade1", ("Value", "grade 1")), ("grade2", ("Value", "grade 2")), ("gold_wb", ("Value", "World Bank")),
        ("gold_pmc", ("Value", "PMC")), ("*_of", ("Value", "the denominator")), ("*", "Value"))),
    "2": TableLabels("Matrix block", ("Runs", "Controlled question", "Capability readout"), (
        ("representation", "Representation / scale"), ("composition", "Condition composition"),
        ("complementarity", "Complementarity"), ("reranking", "Fixed-pool reranking"),
        ("wording", "LLM wording probes"), ("controls", "Validity controls"), ("*", "Submitted matrix")), (
        ("fair", ("Controlled question", "fair methods")),
        ("nonfair", ("Controlled question", "controls/diagnostics")), ("*", "Runs"))),
    "3": TableLabels("System", ("Family", "Multi-condition operation", "n-Clue Score@10", "Gold Hit@10",
                                "Gold-NDCG@10"), tuple((k + ".*", v) for k, v in _T3_ROWS), (
        ("*.score", "n-Clue Score@10"), ("*.hit", "Gold Hit@10"), ("*.ndcg", "Gold-NDCG@10"))),
    "4": TableLabels("System", ("Complete first", "Subset first", "No top-10 gold"),
                     tuple((k + ".*", v) for k, v in _SLICE_ROWS[:5]), (
        ("*.complete", "Complete first"), ("*.subset", "Subset first"), ("*.nogold", "No top-10 gold"))),
    "5": TableLabels("Question", ("Controlled comparison (base -> variant)", "Score", "Delta Score [paired 95% CI]",
                                  "Delta Hit", "Delta NDCG", "Sel.+Holm p"), (
        ("scale.*", "Scale"), ("page_aggregation.*", "Page aggregation"),
        ("lexical_composition.*", "Lexical composition"),
        ("jina_composition.*", ("Dense composition", "Jina joint -> harmonic dec.")),
        ("qwen_composition.*", ("Dense composition", "Qwen 0.6B joint -> product dec.")), ("fusion.*", "Fusion"),
        ("text_reranking.*", "Text reranking"), ("visual_reranking.*", "Visual reranking")), (
        ("*.base", ("Score", "base")), ("*.variant", ("Score", "variant")),
        ("*.delta", ("Delta Score [paired 95% CI]", "Delta Score")),
        ("*.ci_lo", ("Delta Score [paired 95% CI]", "interval low")),
        ("*.ci_hi", ("Delta Score [paired 95% CI]", "interval high")), ("*.dhit", "Delta Hit"),
        ("*.dndcg", "Delta NDCG"), ("*.p", "Sel.+Holm p"))),
    "6": TableLabels("System", _SLICE_HEADER, tuple((k + ".*", v) for k, v in _SLICE_ROWS), _slices("queries")),
    "7": TableLabels("Operation (variant - base)", ("CrossPage", "SourceShift", "Direction"), (
        ("page_aggregation.*", "Page aggregation"), ("lexical_composition.*", "Lexical composition"),
        ("jina_composition.*", "Jina composition"), ("fusion.*", "Visual + lexical RRF"),
        ("text_reranking.*", "Text reranking"), ("visual_reranking.*", "Visual reranking")), (
        ("*.crosspage", "CrossPage"), ("*.sourceshift", "SourceShift"))),
    "8": TableLabels("Page-scored run", ("Cond. coverage", "Full coverage", "Gold+Support"), (
        ("vl2b.*", "Qwen3-VL 2B"), ("vl8b.*", "Qwen3-VL 8B")), (
        ("*.cond", "Cond. coverage"), ("*.full", "Full coverage"), ("*.support", "Gold+Support"))),
    "S1i": TableLabels("Shared-document sensitivity", ("CrossPage", "SourceShift"), _S1I_ROWS, (
        ("cp.*", "CrossPage"), ("ss.*", "SourceShift"))),
    "S1j": TableLabels("System", _SLICE_HEADER, tuple((k + ".*", v) for k, v in _SLICE_ROWS),
                       _slices("queries", "n-Clue Score@10", "Gold Hit@10")),
    "S2a": TableLabels("Dense retriever", ("Raw Score", "Paraphrase Score", "Delta"), _DENSE, (
        ("*.raw", "Raw Score"), ("*.para", "Paraphrase Score"), ("*.delta", "Delta"))),
    "S2b": TableLabels("System", ("Raw", "Cleaned", "Natural"), None, _FORM_COLUMNS),
    "S3": TableLabels("System", ("Raw", "Cleaned", "Natural"), None, _FORM_COLUMNS),
    "S4": TableLabels("Contrast", ("Raw", "Cleaned", "Natural"), (
        ("fusion_bm25.*", "Fusion - BM25"), ("fusion_top3.*", "Fusion - visual top-3"),
        ("lexical.*", "Lexical decomp. - BM25"), ("jina.*", "Jina decomp. - joint"),
        ("qwen.*", "Qwen decomp. - joint"), ("bge.*", "BGE reranker - joint"),
        ("qwenvl.*", "Qwen-VL reranker - base"), ("qwen3r.*", "Qwen3 reranker - base")), (
        ("*.raw.delta", ("Raw", "Delta")), ("*.raw.p", ("Raw", "p")), ("*.clean.delta", ("Cleaned", "Delta")),
        ("*.clean.p", ("Cleaned", "p")), ("*.natural.delta", ("Natural", "Delta")),
        ("*.natural.p", ("Natural", "p")))),
    "S5a": TableLabels("Dense retriever", ("Drop c_1", "Drop c_2", "Drop c_3 (n=3)"), _DENSE, (
        ("*.c1", "Drop c_1"), ("*.c2", "Drop c_2"), ("*.c3", "Drop c_3 (n=3)"))),
    "S7": TableLabels("Release", ("Source", "Pairs", "Pre-gold", "Pre-subset"), (
        ("cp_wb.*", "CrossPage World Bank"), ("cp_pmc.*", "CrossPage PMC OA"), ("ss_arxiv.*", "SourceShift arXiv"),
        ("ss_eric.*", "SourceShift ERIC"), ("ss_fedreg.*", "SourceShift Federal Register"),
        ("ss_pmc.*", "SourceShift PMC OA"), ("all.*", "All")), (
        ("*.pairs", "Pairs"), ("*.gold", "Pre-gold"), ("*.subset", "Pre-subset"))),
    "S8": TableLabels("Initial-audit statistic", ("Result",), (
        ("pairs", "Completed pairs / conditions"), ("conditions", "Completed pairs / conditions"),
        ("grade_agree*", "Exact derived-grade agreement"), ("kappa_w", "Linearly weighted grade kappa"),
        ("cond_agree*", "Condition support agreement"), ("pageset_agree", "Exact condition page-set agreement"),
        ("clear*", "Queries judged clear by both"), ("quotes*", "Selected quotes passing exact check")), (
        ("pairs", ("Result", "pairs")), ("conditions", ("Result", "conditions")),
        ("pageset_agree", "Result"), ("*_agree", ("Result", "count")), ("*_of", ("Result", "the denominator")),
        ("*_pct", ("Result", "percentage")), ("clear", ("Result", "count")), ("quotes", ("Result", "count")),
        ("*", "Result"))),
    "S9": TableLabels("Evaluator A grade", ("Evaluator E grade",), tuple(
        ("a%d.*" % a, ("Evaluator A grade", "A grade %d" % a)) for a in range(4)), tuple(
        ("*.e%d" % e, ("Evaluator E grade", "E grade %d" % e)) for e in range(4))),
    "S10": TableLabels("Candidate-pool statistic", ("Count",), (
        ("pairs", "Pairs / unresolved conditions"), ("conditions", "Pairs / unresolved conditions"),
        ("contexts", "Displayed page contexts"), ("min", "Pages per condition (min / mean / max)"),
        ("mean", "Pages per condition (min / mean / max)"), ("max", "Pages per condition (min / mean / max)"),
        ("prior", "Prior evaluator-selected memberships"), ("original", "Original three-page memberships"),
        ("lexical", "Exact/alias lexical memberships"), ("bm25", "BM25 memberships"),
        ("fuzzy", "OCR-fuzzy memberships"), ("construction", "Construction-fact memberships")), (
        ("pairs", ("Count", "pairs")), ("conditions", ("Count", "conditions")), ("min", ("Count", "min")),
        ("mean", ("Count", "mean")), ("max", ("Count", "max")), ("*", "Count"))),
    "S11": TableLabels("Response", ("Positive", "Negative", "Pages", "Quotes exact"), (
        ("a.*", "A"), ("e.*", "E"), ("f.*", "F"), ("all.*", "All")), (
        ("*.pos", "Positive"), ("*.neg", "Negative"), ("*.pages", "Pages"),
        ("*.quotes", ("Quotes exact", "exact")), ("*.quotes_of", ("Quotes exact", "the denominator")))),
    "S12": TableLabels("Grade transition", ("Count", "Interpretation"), (
        ("t12*", "1->2"), ("t23*", "2->3"), ("t21*", "2->1"), ("all", "All changes"), ("net", "All changes")), (
        ("t12", "Count"), ("t23", "Count"), ("t21", "Count"), ("all", "Count"),
        ("*_gold", ("Interpretation", "to gold")), ("*_partial", ("Interpretation", "to partial")),
        ("net", ("Interpretation", "net sampled gold")))),
    "S13": TableLabels("Release", ("Source", "Sampled", "Corrected"), (
        ("cp.*", "CrossPage All (98 WB, 2 PMC)"), ("arxiv.*", "SourceShift arXiv"), ("eric.*", "SourceShift ERIC"),
        ("fedreg.*", "SourceShift Federal Register"), ("pmc.*", "SourceShift PMC OA"), ("all.*", "All")), (
        ("*.sampled", "Sampled"), ("*.corrected", "Corrected"), ("cp.wb", ("Source", "WB")),
        ("cp.pmc", ("Source", "PMC")))),
    "S14": TableLabels("Quantity", ("Construction", "Strat. audit", "Target challenge"), (
        ("audit_*", "Reviewed grades changed"), ("challenge_*", "Reviewed grades changed"),
        ("ss_queries.*", "SourceShift queries"), ("ss_qrels.*", "SourceShift nonzero qrels"),
        ("cp_fusion.*", "CrossPage fusion"), ("cp_sdr.*", "CrossPage decompose-SDR"),
        ("cp_bm25.*", "CrossPage BM25-AND"), ("ss_fusion.*", "SourceShift raw fusion"),
        ("ss_bm25.*", "SourceShift raw BM25-AND"), ("ss_gap.*", "SourceShift fusion-BM25 gap"),
        ("ss_p.*", "SourceShift paired test")), (
        ("audit_changed", ("Strat. audit", "changed")), ("audit_of", ("Strat. audit", "reviewed")),
        ("challenge_changed", ("Target challenge", "changed")), ("challenge_of", ("Target challenge", "reviewed")),
        ("*.c", "Construction"), ("*.a", "Strat. audit"), ("*.t", "Target challenge"))),
    "S2": TableLabels("Matrix block", ("Runs", "Experimental role"), (
        ("standalone", "Standalone retrievers"), ("decomposition", "Decomposition"), ("fusion", "Fusion"),
        ("reranking", "Reranking"), ("wording", "Query-form controls"), ("controls", "Baselines/diagnostics"),
        ("total", "Total")), (("*", "Runs"),)),
}


class PlaceError(LookupError):
    """A table number whose row or column no declared label names (a test requires none)."""


def _first(pairs, key):
    for pattern, label in pairs:
        if fnmatchcase(key, pattern):
            return label
    return None


def _labels(number_id):
    table, _, rest = number_id.partition(".")
    labels = TABLES.get(table[1:] if table.startswith("T") else table)
    if labels is None:
        raise PlaceError("%s: table %s has no declared labels" % (number_id, table))
    return labels, rest


def row(number_id, record):
    """``(row label, part)`` of a table number: the paper's label of its row, and what tells apart two rows the
    paper labels alike (Table 5's two "Dense composition" rows), else None."""
    labels, rest = _labels(number_id)
    found = record.get("row") if labels.rows is None else _first(labels.rows, rest)
    if found is None:
        raise PlaceError("%s: no declared row label" % number_id)
    return found if isinstance(found, tuple) else (found, None)


def grid(number_id, record):
    """``(row, row part, column, column part)``: where a table number stands in the paper's layout, the parts
    telling apart rows the paper labels alike and the numbers of one cell (None where there is nothing to tell
    apart)."""
    labels, rest = _labels(number_id)
    row_label, row_part = row(number_id, record)
    column = _first(labels.columns, rest)
    if column is None:
        raise PlaceError("%s: no declared column label" % number_id)
    column, column_part = column if isinstance(column, tuple) else (column, None)
    return row_label, row_part, column, column_part


def cell(number_id, record):
    """``(row label, column label, part)`` of a table number as the paper prints them (module doc); raises
    :class:`PlaceError` when the table or a label is not declared."""
    row_label, row_part, column, column_part = grid(number_id, record)
    return row_label, column, ", ".join(p for p in (row_part, column_part) if p) or None
