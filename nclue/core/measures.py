"""Every reported measure, declared once: name, definition, unit, display precision (docs/metrics.md).

A :class:`Measure` is the small declared object the scoring analyses, the
SourceShift analyses, the ``score`` command, its help and the report all read:
``name`` is the leaf of claim ids (``v1.matrix.bm25_and.nclue_score_at_10``),
``key`` the field of :func:`nclue.core.metrics.summary` that holds it,
``unit`` what its numbers are (stated in every output), ``decimals`` the
precision the paper displays it with, ``per_query`` the per-query column of
:class:`nclue.core.metrics.Outcomes` it aggregates, ``aggregate`` how
(``mean`` over every query, ``mean_defined`` over the queries where it is
defined, ``count``), ``scale`` the factor from a per-query mean to the unit,
``per_query_rows`` whether ``score --per-query`` lists it, and ``help`` the
line ``score --help`` prints.  :func:`nclue.core.metrics.summary`, the
intervals and per-query rows of ``score`` and its help are computed from these
fields, so a new measure is one row here plus its per-query column.  The
per-query computation itself lives in :mod:`nclue.core.metrics` (one
implementation each).

Units: ``points`` are percentages of the queries (0-100; n-Clue Score 26.8 =
268 of 1,000 queries); ``NDCG x100`` is a mean NDCG on a 0-100 scale (the
paper's Gold-NDCG 32.2); ``NDCG (0-1)`` and ``AUC (0-1)`` are on the unit
scale (the paper's graded NDCG .265); ``queries`` are integer counts.

>>> MEASURES["nclue_score_at_10"].unit, MEASURES["graded_ndcg_at_10"].unit
('points', 'NDCG (0-1)')
>>> MEASURES["gold_ndcg_at_10"].show(32.2456)
'32.2'
>>> [m.name for m in FORM_TABLE_MEASURES]
['nclue_score_at_10', 'gold_hit_at_10']
>>> MEASURES["subset_first"].values(_Example(hit=(1, 1, 0), success=(1, 0, 0)))
[0, 1, 0]
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import Any, Callable, NamedTuple, Optional

_Example = namedtuple("_Example", "hit success")     # stands for an Outcomes in the doctest

DEPTH = 10          # every @k measure is defined at k = 10 (paper section 3.1)


class Measure(NamedTuple):
    name: str           # claim-id leaf
    key: str            # field of metrics.summary()
    label: str          # how tables name it
    unit: str           # points | NDCG x100 | NDCG (0-1) | AUC (0-1) | queries
    decimals: int       # the paper's display precision
    definition: str     # one line; docs/metrics.md has the full definition
    anchor: str         # docs/metrics.md section
    per_query: Optional[Callable] = None   # Outcomes -> the per-query values it aggregates
    aggregate: str = "mean"     # mean (over every query) | mean_defined (over the non-None values) | count
    scale: float = 100.0        # a per-query mean times this is the value in ``unit``
    per_query_rows: bool = False    # score --per-query lists it (in ``unit``: scale x the per-query value)
    help: str = ""              # score --help's line (empty: not a score measure)
    integer: bool = False       # per-query values are 0/1 counts: a mean is scale * count / queries, exactly
    kind: str = "share"         # a key of KINDS: the scale ``score`` reports it on
    trec_eval: str = ""         # trec_eval's name of the same measure (``score -m`` accepts it)
    ir_measures: str = ""       # ir_measures' name of the same measure (``score -m`` accepts it too)

    def values(self, out: Any) -> list[Any] | tuple[Any, ...]:
        """Its per-query values on the outcome vectors ``out`` (a sequence; None where undefined).  A standard
        measure has none of its own (:func:`nclue.core.metrics.standard_outcomes` computes them)."""
        if self.per_query is None:
            raise ValueError("%s has no per-query values of its own" % self.name)
        return self.per_query(out)

    def show(self, value: Any) -> Any:
        """The value as the paper would display it (``n/a`` for None)."""
        if value is None:
            return "n/a"
        if self.unit == "queries":
            return "%d" % value
        return "%.*f" % (self.decimals, value)

    def on_kind_scale(self) -> Measure:
        """The measure on its kind's scale (:data:`KINDS`), as ``score`` reports it: a Gold-NDCG the paper
        prints x100 (32.2) is 0.322 there, with two more decimals.

        >>> m = MEASURES["gold_ndcg_at_10"].on_kind_scale()
        >>> m.unit, m.scale, m.decimals
        ('NDCG (0-1)', 1.0, 3)
        """
        kind = KINDS[self.kind]
        if kind.scale == self.scale:
            return self
        extra = round(math.log10(self.scale / kind.scale))
        return self._replace(unit=kind.unit, scale=kind.scale, decimals=self.decimals + extra)

    def ids(self) -> Any:
        """Every name ``score -m`` knows it by: its own id, trec_eval's name, and pytrec_eval's (dots as
        underscores)."""
        names = [self.name]
        if self.trec_eval:
            names += [self.trec_eval, self.trec_eval.replace(".", "_")]
        if self.ir_measures:
            names.append(self.ir_measures)
        return list(dict.fromkeys(names))


class Kind(NamedTuple):
    """A kind of measure and the one scale ``score`` reports every measure of that kind on."""
    unit: str
    scale: float
    meaning: str


# score reports every measure of a kind on that kind's scale (docs/metrics.md#units); the claims and the
# report keep the paper's own (Gold-NDCG x100, graded NDCG 0-1)
KINDS = {
    "share": Kind("points", 100.0, "percent of the evaluation queries (0-100)"),
    "ndcg": Kind("NDCG (0-1)", 1.0, "a mean NDCG on trec_eval's 0-1 scale"),
    "auc": Kind("AUC (0-1)", 1.0, "a mean pairwise AUC on the 0-1 scale"),
    "count": Kind("queries", 1.0, "an integer count of queries"),
    "standard": Kind("(0-1)", 1.0, "a mean of a standard IR measure on trec_eval's 0-1 scale"),
}


def _column(name: str) -> Callable[..., Any]:
    return lambda out: getattr(out, name)


_TABLE = (
    Measure("nclue_score_at_10", "nclue_score", "n-Clue Score@10", "points", 1,
            "share of queries whose first top-10 gold precedes every judged subset (r_G <= 10 and r_G < r_S)",
            "n-clue-score10", _column("success"), per_query_rows=True,
            help="share of queries whose first top-10 gold precedes every judged subset", integer=True),
    Measure("success_count", "success_count", "n-Clue successes", "queries", 0,
            "number of queries counted by n-Clue Score@10", "n-clue-score10", _column("success"), "count", 1.0,
            integer=True, kind="count"),
    Measure("gold_hit_at_10", "gold_hit", "Gold Hit@10", "points", 1,
            "share of queries with a gold in the top 10 (r_G <= 10)", "gold-hit10", _column("hit"),
            per_query_rows=True, help="share of queries with a gold in the top 10", integer=True),
    Measure("hit_count", "hit_count", "Gold hits", "queries", 0,
            "number of queries counted by Gold Hit@10", "gold-hit10", _column("hit"), "count", 1.0, integer=True,
            kind="count"),
    Measure("complete_first", "complete_first", "Complete first", "points", 1,
            "outcome: a top-10 gold precedes every subset (= n-Clue Score@10)", "outcomes", _column("success"),
            help="outcome: a top-10 gold precedes every subset (the three outcomes sum to 100)", integer=True),
    Measure("subset_first", "subset_first", "Subset first", "points", 1,
            "outcome: a gold is in the top 10 but a subset precedes it (= Gold Hit - n-Clue Score)", "outcomes",
            lambda out: [h - s for h, s in zip(out.hit, out.success)],
            help="outcome: a gold is in the top 10 but a subset precedes it", integer=True),
    Measure("no_gold", "no_gold", "No top-10 gold", "points", 1,
            "outcome: no gold in the top 10 (= 100 - Gold Hit)", "outcomes", lambda out: [1 - h for h in out.hit],
            help="outcome: no gold in the top 10", integer=True),
    Measure("gold_ndcg_at_10", "gold_ndcg", "Gold-NDCG@10", "NDCG x100", 1,
            "binary-gain NDCG@10 with gain 1 for gold only; ideal from min(10, |G_q|) golds; mean x 100",
            "gold-ndcg10", _column("gold_ndcg"), per_query_rows=True,
            help="binary gain for gold documents only", kind="ndcg"),
    Measure("graded_ndcg_at_10", "graded_ndcg", "graded NDCG@10", "NDCG (0-1)", 3,
            "trec_eval ndcg_cut.10: linear gain = grade, ideal from all nonzero qrels; mean on 0-1",
            "graded-ndcg10", _column("graded_ndcg"), scale=1.0, per_query_rows=True,
            help="linear gain = grade (trec_eval ndcg_cut.10)", kind="ndcg", trec_eval="ndcg_cut.10",
            ir_measures="nDCG@10"),
    Measure("pairwise_auc", "pairwise_auc", "pairwise AUC", "AUC (0-1)", 3,
            "per query mean over gold x subset pairs of 1[rank(g) < rank(s)], 0.5 when both unranked; macro mean",
            "pairwise-auc", _column("auc"), "mean_defined", 1.0, per_query_rows=True,
            help="gold ranked before subset, over queries with both", kind="auc"),
    Measure("auc_queries", "auc_queries", "AUC queries", "queries", 0,
            "queries with a gold and a subset (the pairwise AUC denominator)", "pairwise-auc",
            lambda out: [0 if a is None else 1 for a in out.auc], "count", 1.0, integer=True, kind="count"),
)

# the standard IR measures, on request only (``score -m P@10``): trec_eval's on graded qrels, where a subset is
# as relevant as a gold (docs/metrics.md#standard-measures); never in the claims or the default output
_STANDARD_HELP = "on request (-m); every grade >= 1 relevant, as in trec_eval"
STANDARD_MEASURES = tuple(
    Measure(name, key, label, "(0-1)", 3, definition, "standard-measures", _column(key), scale=1.0,
            per_query_rows=True, help=_STANDARD_HELP, kind="standard", trec_eval=trec, ir_measures=ir)
    for name, key, label, definition, trec, ir in (
        ("precision_at_10", "precision", "P@10", "relevant documents in the top 10, over 10", "P.10", "P@10"),
        ("reciprocal_rank", "reciprocal_rank", "RR@10", "1 / rank of the first relevant document in the top 10 "
         "(0 when none)", "recip_rank", "RR@10"),
        ("average_precision_at_10", "average_precision", "AP@10", "precision at each relevant rank of the top 10, "
         "summed, over all relevant documents", "map_cut.10", "AP@10"),
        ("recall_at_10", "recall", "R@10", "relevant documents in the top 10 over all relevant documents",
         "recall.10", "R@10")))

MEASURES = {m.name: m for m in _TABLE + STANDARD_MEASURES}
BY_KEY = {m.key: m for m in _TABLE}


def group(*names: str) -> tuple[Any, ...]:
    return tuple(MEASURES[n] for n in names)


# the measures the analyses read by name (their ``key`` is the field of :func:`nclue.core.metrics.summary`)
NCLUE_SCORE, GOLD_HIT, GOLD_NDCG, SUBSET_FIRST, AUC, AUC_QUERIES = group(
    "nclue_score_at_10", "gold_hit_at_10", "gold_ndcg_at_10", "subset_first", "pairwise_auc", "auc_queries")


# which measures each output reports, in order
SCORECARD_MEASURES = _TABLE
FORM_TABLE_MEASURES = group("nclue_score_at_10", "gold_hit_at_10")        # Table S2b's (every release's forms)
V2_FORM_MEASURES = group("nclue_score_at_10", "success_count", "gold_hit_at_10", "gold_ndcg_at_10",
                         "graded_ndcg_at_10")
# the measures score prints, each with an interval, each on its kind's scale
SCORE_COMMAND_MEASURES = tuple(m.on_kind_scale() for m in _TABLE if m.help)
PER_QUERY_MEASURES = tuple(m for m in SCORE_COMMAND_MEASURES if m.per_query_rows)


def score_measures(asked: Any = None) -> Any:
    """The measures ``score -m`` picks, in the table's order: each name in ``asked`` is a measure's id, its
    trec_eval name (``ndcg_cut.10``) or pytrec_eval's (``ndcg_cut_10``); None or empty: all of
    :data:`SCORE_COMMAND_MEASURES`.  An unknown name is a :class:`~nclue.core.errors.UsageError` listing them.

    >>> [m.name for m in score_measures(["ndcg_cut.10", "nclue_score_at_10"])]
    ['nclue_score_at_10', 'graded_ndcg_at_10']
    >>> [m.name for m in score_measures(["P@10", "nDCG@10", "recip_rank", "map_cut_10", "recall.10"])]
    ['graded_ndcg_at_10', 'precision_at_10', 'reciprocal_rank', 'average_precision_at_10', 'recall_at_10']
    """
    if not asked:
        return SCORE_COMMAND_MEASURES
    offered = SCORE_COMMAND_MEASURES + STANDARD_MEASURES
    known = {name: m for m in offered for name in m.ids()}
    for name in asked:
        if name not in known:
            from .errors import UsageError, bounded
            if name in BEYOND_DEPTH:
                raise UsageError("-m %s: every ranking is cut at depth %d here, so a measure deeper than %d cannot be "
                                 "computed; R@10 (recall.10) is the recall it can" % (name, DEPTH, DEPTH))
            raise UsageError("-m: unknown measure %s (measures: %s)" % (
                bounded(repr(name), 80), ", ".join(n for m in offered for n in m.ids())))
    wanted = {known[name].name for name in asked}
    return tuple(m for m in offered if m.name in wanted)


# measures deeper than the harness's depth that a researcher may ask for by habit
BEYOND_DEPTH = ("R@100", "recall.100", "recall_100", "R@1000", "recall.1000", "recall_1000", "map", "AP",
                "ndcg", "nDCG")


class Display(NamedTuple):
    """How the reports show a statistic that is not a measure (an agreement, a kappa, a p-value, a gap): its
    unit and display precision, declared here so that the text and HTML reports receive them instead of
    choosing a format (docs/metrics.md#units).

    >>> STATISTIC_DISPLAYS["grade_kappa_linear"].show(0.71234), STATISTIC_DISPLAYS["gold_ndcg_gap"].show(0.0125)
    ('0.712', '+0.0125')
    >>> display_of("queries").show(12), display_of("pages_mean").unit
    ('12', 'pages')
    """
    unit: str
    decimals: Optional[int]     # None: shown as it is (a count, a name)
    signed: bool = False        # a difference: always with its sign

    def show(self, value: Any) -> Any:
        if self.decimals is None:
            return "%s" % (value,)
        return ("%+.*f" if self.signed else "%.*f") % (self.decimals, value)


PERCENT = Display("%", 1)
KAPPA = Display("kappa", 3)
P_VALUE = Display("p", 4)
CORRELATION = Display("Spearman rho", 4)
NDCG_CHANGE = Display("NDCG (0-1)", 4)
NDCG_GAP = Display("NDCG (0-1)", 4, signed=True)
PAGES = Display("pages", 2)
AS_IS = Display("", None)

# the statistics the reports show outside the measure tables, by the claim id part that names them
STATISTIC_DISPLAYS = {
    "grade_agreement": PERCENT, "grade_agreement_wilson_low": PERCENT, "grade_agreement_wilson_high": PERCENT,
    "condition_agreement": PERCENT,
    "grade_kappa_linear": KAPPA, "condition_kappa": KAPPA, "fleiss_kappa": KAPPA,
    "query_paired_p": P_VALUE, "family_p": P_VALUE,
    "spearman_rho": CORRELATION, "max_abs_change": NDCG_CHANGE, "gold_ndcg_gap": NDCG_GAP,
    "pages_mean": PAGES,
}


def display_of(statistic: Any) -> Any:
    """The :class:`Display` of a statistic by its name (a count or a name not listed is shown as it is)."""
    return STATISTIC_DISPLAYS.get(statistic, AS_IS)
