"""Build configurations of the stand-in instrument.

``full`` matches the paper's structural targets (Table 1; docs/stand-in.md#structural-targets): document,
page and query counts exactly, qrel counts by construction.  ``mini`` is a
tens-of-documents instrument for tests.  The knobs below shape the synthetic
corpus; they are set so that *structural* counts (qrels, golds, subsets,
distinct golds) land near the paper's, and never from any result table.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    name: str
    n_wb: int
    n_pmc: int
    total_pages: int
    median_pages: int
    max_pages: int
    n_queries_2: int
    n_queries_3: int
    # page-count distribution: log-normal with this sigma around the median
    page_sigma: float = 1.12
    # facts per document: round(fact_scale * pages ** fact_power), at least 1
    fact_scale: float = 0.025
    fact_power: float = 1.6
    fact_cap: int = 20
    # share of a document's facts drawn from its own topic (rest: generic pool)
    topic_share: float = 0.75
    # a candidate conjunction is admissible with 1..max_golds gold documents
    max_golds: int = 12
    # ... and at most max_union documents with at least one condition (|D+|)
    max_union: int = 70
    # PMC articles carry fewer indexed facts per page than WB reports
    pmc_fact_factor: float = 0.15
    # condition popularity: integer weights 1..max_weight (log-uniform draw)
    max_weight: int = 10
    words_per_page: tuple = (70, 130)


PAPER_TABLE1 = {
    "queries": 1000,
    "queries_n2": 814,
    "queries_n3": 186,
    "documents": 2021,
    "documents_wb": 1753,
    "documents_pmc": 268,
    "pages": 41441,
    "pages_mean": 20.5,
    "pages_median": 11,
    "pages_max": 446,
    "shortest_gold_mean": 78.1,
    "shortest_gold_median": 67,
    "gold_qrels": 2176,
    "subset_qrels": 48819,
    "subset_grade1": 46795,
    "subset_grade2": 2024,
    "distinct_gold_documents": 287,
    "gold_qrels_wb": 2175,
    "gold_qrels_pmc": 1,
    "single_page_solvable_golds": 0,
    "distinct_page_valid_golds": 2176,
    "qrel_rows": 50995,
}

CONFIGS = {
    "full": Config(
        name="full", n_wb=1753, n_pmc=268, total_pages=41441, median_pages=11, max_pages=446,
        n_queries_2=814, n_queries_3=186,
    ),
    "mini": Config(
        name="mini", n_wb=41, n_pmc=8, total_pages=1000, median_pages=11, max_pages=120,
        n_queries_2=16, n_queries_3=4, fact_scale=1.5, fact_power=1.0, fact_cap=40, max_union=30,
        max_golds=6, words_per_page=(30, 50),
    ),
}

DEFAULT_SEED = 11
