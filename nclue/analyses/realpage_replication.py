"""The paper's inference on RealPage (``data/v3``; docs/realpage.md#the-replication; paper sections 3.3-3.4).

The same code the stand-in's analyses run, on the RealPage instrument (:meth:`Instrument.v3
<nclue.core.instrument.Instrument.v3>`) and its final qrel copy: the same family-clustered bootstrap and paired
randomization with the protocol's seeds and draws, the same max-|T| within a block and Holm across blocks,
the same post hoc displayed endpoint.  The scoring tables are :mod:`nclue.analyses.realpage_scoring`'s.

* ``v3.inference`` -- the intervals of every system's n-Clue Score, Gold Hit and Gold-NDCG, every endpoint's
  paired intervals and p-values, and each block's displayed endpoint with its Holm-adjusted p;
* ``v3.replication`` -- for each of the paper's eight Table 5 rows, the paper's direction (from its
  published interval) against RealPage's (from this run's interval, judged against its Monte Carlo error).

What a replication verdict means: the paper's rows compare neural models the standard library cannot run;
RealPage plays each row with the stand-in system the crosswalk gives it (``data/crosswalk.json``), over real
RFC pages, under lexical-presence labels.  A verdict is about the operation (decomposition, fusion,
reranking, ...) on real pages with these retrievers, never about the paper's models.
"""

from ..core import layout
from ..core.claim_ids import (V3_BOOTSTRAP, V3_BOOTSTRAP_SETUP, V3_INFERENCE_BLOCK, V3_INFERENCE_CONTRAST,
                              V3_REPLICATION, V3_REPLICATION_SUMMARY)
from ..core.metrics import summary
from ..paperaudit import roles
from ..paperaudit.consistency import NUMBERS, load_numbers
from ..paperaudit.crosswalk import load as load_crosswalk
from ..stats import protocol
from .base import Analysis, Unit, Value
from .shared.block_inference import block_tests, holm_family, interval_values, variant_values
from .shared.inference_context import METRICS, context
from .shared.outcome_vectors import delta, outcomes
from .shared.realpage_release import INPUTS, ranked, ranking, realpage, system_ids
from .shared.release_systems import contrasts, displayed_variant

SOURCE = "docs/realpage.md#the-replication (RealPage, data/v3): paper Tables 3 and 5, section 3.4"
MARGIN_SE = 3.0         # an interval endpoint within this many Monte Carlo standard errors of 0 is borderline
# the verdicts, declared once (docs/realpage.md#the-replication)
VERDICTS = {
    "holds": "the paper's direction, and RealPage's interval excludes 0 on the same side",
    "holds_null": "neither the paper's interval nor RealPage's excludes 0",
    "not_detected": "the paper's interval excludes 0; RealPage's does not",
    "reversed": "both intervals exclude 0, on opposite sides",
    "new_direction": "the paper's interval includes 0; RealPage's excludes it",
    "borderline": "an endpoint of RealPage's interval lies within %g Monte Carlo standard errors of 0, so its side "
                  "of 0 is not settled by this run's draws" % MARGIN_SE,
}


def _bootstrap_values(v3, sid):
    ctx = context(v3)
    out = []
    for name, metric in METRICS:
        prefix = V3_BOOTSTRAP(system=sid, metric=name, statistic="{statistic}").rsplit(".", 1)[0]
        out += interval_values(prefix, ctx.distribution(metric, sid), protocol.BOOTSTRAP, SOURCE, sep=".")
    return out


def _blocks_values(v3):
    """Every block's endpoints and the Holm family of the displayed endpoints, as v1.inference.contrasts
    computes them (:func:`nclue.analyses.shared.block_inference.variant_values`, :func:`~.holm_family`)."""
    ctx = context(v3)
    values, chosen = [], []
    blocks = contrasts(v3)
    for block in blocks:
        tests = block_tests(ctx, block)
        values += variant_values(ctx, block, tests, V3_INFERENCE_CONTRAST)
        chosen.append((tests, block["variants"].index(displayed_variant(v3, block))))
    for block, (tests, i), (adjusted, estimate) in zip(blocks, chosen, holm_family(chosen)):
        def cid(statistic):
            return V3_INFERENCE_BLOCK(block=block["block"], statistic=statistic)
        values += [Value(cid("displayed_variant"), block["variants"][i], source=SOURCE),
                   Value(cid("p_selected"), tests.max_t[i], source=SOURCE, estimate=tests.max_t_estimate(i)),
                   Value(cid("p_selected_holm"), adjusted, source=SOURCE, estimate=estimate)]
    return values


def _inference_units(inst):
    if not ranked(inst):
        return []
    v3 = realpage(inst)
    units = [Unit(sid, INPUTS + [ranking(sid)], lambda sid=sid: _bootstrap_values(v3, sid))
             for sid in system_ids(v3)]
    rels = sorted({ranking(s) for b in contrasts(v3) for s in [b["base"]] + b["variants"]})
    units.append(Unit("blocks", INPUTS + [layout.REALPAGE.systems] + rels, lambda: _blocks_values(v3)))
    units.append(Unit("design", INPUTS, lambda: [
        Value(V3_BOOTSTRAP_SETUP(statistic="families"), context(v3).design.n_families, source=SOURCE),
        Value(V3_BOOTSTRAP_SETUP(statistic="queries"), len(context(v3).qids), source=SOURCE),
        Value(V3_BOOTSTRAP_SETUP(statistic="bootstrap_draws"), protocol.BOOTSTRAP.n_draws, source=SOURCE),
        Value(V3_BOOTSTRAP_SETUP(statistic="randomization_draws"), protocol.RANDOMIZATION.n_draws, source=SOURCE)]))
    return units


def direction(low, high):
    """``+`` when an interval lies above 0, ``-`` below, ``0`` when it contains 0.

    >>> direction(0.4, 2.0), direction(-3.0, -0.1), direction(-1.0, 1.0), direction(0.0, 1.0)
    ('+', '-', '0', '0')
    """
    return "+" if low > 0 else "-" if high < 0 else "0"


def verdict(paper, low, high, se_low, se_high, margin=MARGIN_SE):
    """One of :data:`VERDICTS`: the paper's direction ``paper`` (:func:`direction` of its published interval)
    against RealPage's interval ``[low, high]`` whose endpoints have Monte Carlo standard errors ``se_low``,
    ``se_high``.  An endpoint within ``margin`` standard errors of 0 is borderline whatever its side.

    >>> verdict("+", 1.0, 5.0, 0.1, 0.1), verdict("+", -1.0, 5.0, 0.1, 0.1), verdict("-", 1.0, 5.0, 0.1, 0.1)
    ('holds', 'not_detected', 'reversed')
    >>> verdict("0", -1.0, 5.0, 0.1, 0.1), verdict("0", -5.0, -1.0, 0.1, 0.1), verdict("+", 0.2, 5.0, 0.1, 0.1)
    ('holds_null', 'new_direction', 'borderline')
    """
    if abs(low) <= margin * se_low or abs(high) <= margin * se_high:
        return "borderline"
    found = direction(low, high)
    if paper == "0":
        return "holds_null" if found == "0" else "new_direction"
    if found == "0":
        return "not_detected"
    return "holds" if found == paper else "reversed"


def paper_rows(inst):
    """``[(paper block key, RealPage block or None, why)]`` in the paper's Table 5 order, through the crosswalk's
    ``block`` row (the stand-in's block that plays each paper row; RealPage runs the same systems)."""
    cw = load_crosswalk(inst.root)
    by_id = {b["block"]: b for b in contrasts(realpage(inst))}
    out = []
    for key in roles.BLOCKS:
        played = cw.rows.get("block", {}).get(key)
        block = by_id.get(played)
        out.append((key, block, "" if block is not None else
                    "the crosswalk gives paper block %s no block RealPage runs (%r)" % (key, played)))
    return out


def _replication_values(inst):
    v3 = realpage(inst)
    ctx = context(v3)
    numbers = load_numbers(inst.root)
    values, tally = [], {name: 0 for name in VERDICTS}
    for key, block, why in paper_rows(inst):
        def cid(statistic):
            return V3_REPLICATION(block=key, statistic=statistic)
        published = {}
        for field in ("delta", "ci_lo", "ci_hi"):
            nid = "T5.%s.%s" % (key, field)
            published[field] = float(numbers[nid][0].value) if nid in numbers else None
        paper = None if None in published.values() else direction(published["ci_lo"], published["ci_hi"])
        values += [Value(cid("paper_delta_score"), published["delta"], source=NUMBERS),
                   Value(cid("paper_direction"), paper, source=NUMBERS,
                         detail="" if paper else "Table 5's row %s is not transcribed" % key)]
        if block is None:
            values += [Value(cid("block"), None, source=SOURCE, detail=why),
                       Value(cid("verdict"), None, source=SOURCE, detail=why)]
            continue
        variant = displayed_variant(v3, block)
        dist = ctx.distribution("success", variant, block["base"])
        low, high = interval_values(cid("delta_score"), dist, protocol.BOOTSTRAP, SOURCE)
        sb, sv = summary(outcomes(v3, ranking(block["base"]))), summary(outcomes(v3, ranking(variant)))
        found = None if paper is None else verdict(paper, low.value, high.value, low.estimate.se, high.estimate.se)
        if found is not None:
            tally[found] += 1
        values += [Value(cid("block"), block["block"], source=SOURCE),
                   Value(cid("base"), block["base"], source=SOURCE),
                   Value(cid("variant"), variant, source=SOURCE,
                         detail="the displayed endpoint: highest raw-form n-Clue Score among %s" % block["variants"]),
                   Value(cid("delta_score"), delta(sb, sv, "nclue_score"), source=SOURCE), low, high,
                   Value(cid("direction"), direction(low.value, high.value), source=SOURCE),
                   Value(cid("verdict"), found, source=SOURCE, detail=VERDICTS.get(found, ""))]
    values += [Value(V3_REPLICATION_SUMMARY(statistic=name), count, source=SOURCE, detail=VERDICTS[name])
               for name, count in tally.items()]
    return values


def _replication_units(inst):
    if not (ranked(inst) and inst.exists(layout.CROSSWALK) and inst.exists(NUMBERS)):
        return []
    v3 = realpage(inst)
    rels = sorted({ranking(s) for b in contrasts(v3) for s in [b["base"]] + b["variants"]})
    return [Unit("table5", INPUTS + [layout.REALPAGE.systems, layout.CROSSWALK, NUMBERS] + rels,
                 lambda: _replication_values(inst))]


ANALYSES = [
    Analysis("v3.inference", "inference", SOURCE, _inference_units),
    Analysis("v3.replication", "inference", SOURCE, _replication_units),
]
