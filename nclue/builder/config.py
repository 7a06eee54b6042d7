"""Build configurations of the stand-in instrument.

``full`` matches the paper's structural targets (Table 1; docs/stand-in.md#structural-targets): document,
page and query counts exactly, qrel counts by construction.  ``mini`` is a
tens-of-documents instrument for tests.  The knobs below shape the synthetic
corpus; they are set so that *structural* counts (qrels, golds, subsets,
distinct golds) land near the paper's, and never from any result table.
"""

import dataclasses
from dataclasses import dataclass

from .miner import MinerConfig
from .page_text import TextConfig


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
    # a candidate conjunction is admissible with min_golds..max_golds gold documents
    min_golds: int = 1
    max_golds: int = 12
    # ... and at most max_union documents with at least one condition (|D+|)
    max_union: int = 70
    # conjunctions are drawn with probability proportional to (gold count) ** selection_power
    selection_power: float = 1.0
    # document series (one project's appraisal, reviews, completion report): share of WB documents that
    # start a series, P(one more member), the series profile's size and P(a member keeps a profile condition)
    series_share: float = 0.0
    series_continue: float = 0.5
    profile_size: int = 10
    profile_keep: float = 0.6
    # PMC articles carry fewer indexed facts per page than WB reports
    pmc_fact_factor: float = 0.15
    # condition popularity: Zipf-like weights 1000 * rank ** -popularity_exponent
    popularity_exponent: float = 0.5
    text: TextConfig = TextConfig()
    # the construction miner's error rates (nclue/builder/miner.py)
    miner: MinerConfig = MinerConfig()


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
    # the instrument's dependence structure (paper section 3.4; Table S1i) and Table 6's slice populations
    "gold_families": 453,
    "gold_graph_components": 5,
    "gold_graph_largest_component_queries": 995,
    "slice_lmin_le30": 185,
    "slice_lmin_gt100": 299,
    "slice_pool_le25": 146,
    "slice_pool_gt50": 384,
}

CONFIGS = {
    "full": Config(
        name="full", n_wb=1753, n_pmc=268, total_pages=41441, median_pages=11, max_pages=446,
        n_queries_2=814, n_queries_3=186,
        # fitted by tools/fit_structure.py --full (construction statistics only; docs/stand-in.md)
        fact_scale=0.0413, fact_power=1.3595, fact_cap=33, min_golds=2, max_golds=4, max_union=88,
        popularity_exponent=1.2617, topic_share=0.8987, selection_power=0.7933, pmc_fact_factor=0.38,
        series_share=0.235, series_continue=0.2, profile_size=7, profile_keep=0.8033,
        # read_recall and spurious_rate fitted by tools/fit_labels.py (label structure only; docs/stand-in.md)
        miner=MinerConfig(alias_recall=0.5, read_recall=0.55, spurious_rate=0.003),
    ),
    "mini": Config(
        name="mini", n_wb=41, n_pmc=8, total_pages=1000, median_pages=11, max_pages=120,
        n_queries_2=16, n_queries_3=4, fact_scale=1.5, fact_power=1.0, fact_cap=40, max_union=30,
        max_golds=6, text=TextConfig(words_median=(("wb", 40), ("pmc", 50)), words_max=80),
        miner=MinerConfig(read_recall=0.55, spurious_rate=0.02),
    ),
}

DEFAULT_SEED = 11

# The benchmark's scaling rows (bench/bench_reproduce.py --scaling; docs/stand-in.md#scaled-configurations):
# the full stand-in with every document, page and query count multiplied.  Never a release.
SCALE_FACTORS = (2, 4)


def scaled(cfg, factor):
    """``cfg`` with ``factor`` times its documents, pages and queries, named ``<name>_x<factor>`` (one
    more WB document when the count would be even: the page-count generator needs an odd count), and
    ``factor`` times the largest gold and union counts a query may have: the condition catalog does not grow, so each condition
    is in ``factor`` times the documents, and the scaled upper gates keep its conjunctions admissible.

    >>> x2 = scaled(CONFIGS["full"], 2)
    >>> x2.name, x2.n_queries_2, x2.n_wb + x2.n_pmc, x2.total_pages
    ('full_x2', 1628, 4043, 82882)
    """
    docs = (cfg.n_wb + cfg.n_pmc) * factor
    return dataclasses.replace(cfg, name="%s_x%d" % (cfg.name, factor), n_wb=cfg.n_wb * factor + (1 - docs % 2),
                               n_pmc=cfg.n_pmc * factor, total_pages=cfg.total_pages * factor,
                               n_queries_2=cfg.n_queries_2 * factor, n_queries_3=cfg.n_queries_3 * factor,
                               max_golds=cfg.max_golds * factor, max_union=cfg.max_union * factor)


CONFIGS.update({"full_x%d" % f: scaled(CONFIGS["full"], f) for f in SCALE_FACTORS})


# How each parameter of a configuration was set (recorded in data/v1/build.json; docs/stand-in.md).
FITTED = ("page_sigma", "min_golds", "fact_scale", "fact_power", "fact_cap", "topic_share", "max_golds", "max_union",
          "selection_power", "series_share", "series_continue", "profile_size", "profile_keep", "pmc_fact_factor",
          "popularity_exponent")
EXACT = ("n_wb", "n_pmc", "total_pages", "median_pages", "max_pages", "n_queries_2", "n_queries_3")
# the construction miner's rates fitted on the label structure (docs/stand-in.md#the-construction-miner)
FITTED_LABELS = ("miner.read_recall", "miner.spurious_rate")
HOW_SET = {
    "exact": "an exact structural count from the paper (Table 1 for CrossPage; supplement section 8 for SourceShift)",
    "fitted": "tools/fit_structure.py: a search over construction statistics only (Table 1 counts, distinct gold "
              "documents, exact-gold-set families, the gold graph, shortest-gold lengths, Table 6 slice populations) "
              "against the paper's description of its instrument; no ranking was run and no score, hit, delta, "
              "p-value or kappa was computed",
    "fitted-labels": "tools/fit_labels.py: a grid over structural facts about the labels only (the stratified audit's "
                     "corrected pairs per stratum, Tables S7/S13, and the residual-qrel challenge's share of changed "
                     "targets, section 10.5); no score, hit, delta, p-value or agreement statistic was computed or read",
    "stated": "set once a priori and stated (typical of real documents and miners); not adjusted after any "
              "ranking was run or any result seen",
}


def provenance(cfg, fitted=FITTED, exact=EXACT, fitted_labels=FITTED_LABELS):
    """``{parameter: {value, how}}`` for build.json: how every parameter of ``cfg`` was set.  The page-text
    parameters are stated (listed under ``text``); the miner's are listed one by one as ``miner.<field>``."""
    def how(name):
        return (HOW_SET["exact"] if name in exact else HOW_SET["fitted"] if name in fitted else
                HOW_SET["fitted-labels"] if name in fitted_labels else HOW_SET["stated"])
    out = {}
    for name in sorted(f.name for f in cfg.__dataclass_fields__.values() if f.name != "name"):
        value = getattr(cfg, name)
        if name == "miner":
            for sub in sorted(value.__dataclass_fields__):
                out["miner." + sub] = {"value": getattr(value, sub), "how": how("miner." + sub)}
            continue
        if hasattr(value, "__dataclass_fields__"):
            value = "see 'text'"
        elif isinstance(value, tuple) and value and hasattr(value[0], "__dataclass_fields__"):
            value = [dataclasses.asdict(item) for item in value]
        out[name] = {"value": value, "how": how(name)}
    return out
