"""The paper's Table 5 replicated on real documents (``<release>.replication`` for every release that declares
it can replicate the paper, RealPage ``v3``; docs/realpage.md#the-replication; paper sections 3.3-3.4).

For each of the paper's eight Table 5 rows: the paper's direction (from its published interval) against the
release's (from this run's family-bootstrap interval of the same inference the stand-in's tables run, judged
against its Monte Carlo error).

What a replication verdict means: the paper's rows compare neural models the standard library cannot run;
RealPage plays each row with the stand-in system the crosswalk gives it (``data/crosswalk.json``), over real
RFC pages, under lexical-presence labels.  A verdict is about the operation (decomposition, fusion,
reranking, ...) on real pages with these retrievers, never about the paper's models.
"""

from ..core import layout
from ..core.claim_ids import REPLICATION, REPLICATION_SUMMARY
from ..core.measures import NCLUE_SCORE
from ..core.metrics import summary
from ..paperaudit import roles
from ..paperaudit.consistency import NUMBERS, load_numbers
from ..paperaudit.crosswalk import load as load_crosswalk
from ..stats import protocol
from .base import Unit, Value, per_release
from .shared.block_inference import interval_values
from .shared.inference_context import context
from .shared.outcome_vectors import delta, outcomes
from .shared.release_systems import contrasts, displayed_variant, ranked

SOURCE = "docs/realpage.md#the-replication: paper Tables 3 and 5, section 3.4"
MARGIN_SE = 3.0         # an interval endpoint within this many Monte Carlo standard errors of 0 is borderline
# the verdicts, declared once (docs/realpage.md#the-replication)
VERDICTS = {
    "holds": "the paper's direction, and the release's interval excludes 0 on the same side",
    "holds_null": "neither the paper's interval nor the release's excludes 0",
    "not_detected": "the paper's interval excludes 0; the release's does not",
    "reversed": "both intervals exclude 0, on opposite sides",
    "new_direction": "the paper's interval includes 0; the release's excludes it",
    "borderline": "an endpoint of the release's interval lies within %g Monte Carlo standard errors of 0, so its "
                  "side of 0 is not settled by this run's draws" % MARGIN_SE,
}


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
    """``[(paper block key, the release's block or None, why)]`` in the paper's Table 5 order, through the
    crosswalk's ``block`` row (the stand-in's block that plays each paper row; RealPage runs the same systems)."""
    cw = load_crosswalk(inst.root)
    by_id = {b["block"]: b for b in contrasts(inst)}
    out = []
    for key in roles.BLOCKS:
        played = cw.rows.get("block", {}).get(key)
        block = by_id.get(played)
        out.append((key, block, "" if block is not None else
                    "the crosswalk gives paper block %s no block %s runs (%r)" % (key, inst.spec.title, played)))
    return out


def _replication_values(inst):
    ctx = context(inst)
    numbers = load_numbers(inst.root)
    values, tally = [], {name: 0 for name in VERDICTS}
    for key, block, why in paper_rows(inst):
        cid = REPLICATION.on(inst.spec.name).bind(block=key)
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
        variant = displayed_variant(inst, block)
        dist = ctx.distribution("success", variant, block["base"])
        low, high = interval_values(cid, "delta_score_", dist, protocol.BOOTSTRAP, SOURCE)
        sb, sv = summary(outcomes(inst, inst.spec.ranking(block["base"]))), summary(outcomes(inst, inst.spec.ranking(variant)))
        found = None if paper is None else verdict(paper, low.value, high.value, low.estimate.se, high.estimate.se)
        if found is not None:
            tally[found] += 1
        values += [Value(cid("block"), block["block"], source=SOURCE),
                   Value(cid("base"), block["base"], source=SOURCE),
                   Value(cid("variant"), variant, source=SOURCE,
                         detail="the displayed endpoint: highest raw-form n-Clue Score among %s" % block["variants"]),
                   Value(cid("delta_score"), delta(sb, sv, NCLUE_SCORE.key), source=SOURCE), low, high,
                   Value(cid("direction"), direction(low.value, high.value), source=SOURCE),
                   Value(cid("verdict"), found, source=SOURCE, detail=VERDICTS.get(found, ""))]
    values += [Value(REPLICATION_SUMMARY.on(inst.spec.name)(statistic=name), count, source=SOURCE,
                     detail=VERDICTS[name]) for name, count in tally.items()]
    return values


def _replication_units(inst):
    if not (ranked(inst) and inst.exists(layout.CROSSWALK) and inst.exists(NUMBERS)):
        return []
    rels = sorted({inst.spec.ranking(s) for b in contrasts(inst) for s in [b["base"]] + b["variants"]})
    return [Unit("table5", inst.spec.evaluation_inputs + [inst.spec.systems, layout.CROSSWALK, NUMBERS] + rels,
                 lambda: _replication_values(inst))]


ANALYSES = per_release(REPLICATION, "inference", SOURCE, _replication_units)
