"""The paper's Table 5 replicated on real documents, read by the paper's own inference (``<release>.replication``
for every release that declares it can replicate the paper, RealPage ``v3``; docs/realpage.md#the-replication;
paper sections 3.3-3.4, Tables 5 and 7).

For each of the paper's eight Table 5 rows, the release plays the variant the row names (``Jina joint -> harmonic
dec.``: the crosswalk's stand-in for that role, :func:`.shared.block_inference.paper_blocks`) against the row's
base, and both sides are read the same way: a difference counts when its Sel.+Holm p (max-|T| over the block's
tried endpoints, then Holm across the eight rows) is at most :data:`ALPHA`, and its direction is the sign of its
Delta n-Clue Score.  The paper's side is its published Delta and p (Table 5); the release's is this run's.  The
verdict (:data:`VERDICTS`, :func:`verdict`) compares the two.  The block's best variant (selected after the fact
by raw-form n-Clue Score, then the same max-|T| and Holm across the release's blocks) stands beside it in a
labelled column of its own, never as the verdict.  Table 7's operations get a RealPage column by the same rule.

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
from ..stats import protocol
from .base import Unit, Value, per_release
from .shared.block_inference import block_tests, displayed, holm_family, interval_values, paper_blocks, played_blocks
from .shared.inference_context import context
from .shared.outcome_vectors import delta, outcomes
from .shared.release_systems import contrasts, ranked

SOURCE = "docs/realpage.md#the-replication: paper Tables 5 and 7, section 3.4 (Sel.+Holm p)"
ALPHA = 0.05            # a difference survives correction when its Sel.+Holm p is at most this (the paper's level)
MARGIN_SE = 3.0         # a p within this many Monte Carlo standard errors of ALPHA leaves the side of ALPHA unsettled
# the verdicts, declared once (docs/realpage.md#the-replication)
VERDICTS = {
    "holds": "both the paper's difference and the release's survive correction, with the same sign",
    "holds_null": "neither the paper's difference nor the release's survives correction",
    "not_detected": "the paper's difference survives correction; the release's does not",
    "reversed": "both survive correction, with opposite signs",
    "new_direction": "only the release's difference survives correction",
    "borderline": "the release's Sel.+Holm p lies within %g Monte Carlo standard errors of %g, so whether it "
                  "survives is not settled by this run's draws" % (MARGIN_SE, ALPHA),
}
# the rows a release's own blocks play are named with this prefix (v3.replication.dense_jina_composition.verdict)
DENSE_PREFIX = "dense_"
# Table 7's agreement of a release's direction with the paper's CrossPage one, by the same rule
AGREEMENT = {"same": "the release's difference survives correction with the sign of the paper's CrossPage Delta",
             "flip": "it survives with the opposite sign", "none": "it does not survive correction",
             "borderline": VERDICTS["borderline"]}


def direction(delta_score, p, alpha=ALPHA):
    """A difference's direction by the paper's inference: ``+`` or ``-`` (the sign of its Delta) when its Sel.+Holm
    p is at most ``alpha``, ``0`` when it does not survive correction (or has no p).

    >>> direction(6.8, 0.005), direction(-3.9, 0.168), direction(-6.1, 0.008), direction(1.5, 1.0)
    ('+', '0', '-', '0')
    >>> direction(0.0, 0.001), direction(2.0, None), direction(2.0, 0.05)
    ('0', '0', '+')
    """
    if p is None or p > alpha or delta_score == 0:
        return "0"
    return "+" if delta_score > 0 else "-"


def unsettled(p, se, alpha=ALPHA, margin=MARGIN_SE):
    """Whether a Monte Carlo p with standard error ``se`` is too close to ``alpha`` for its side to be settled.

    >>> unsettled(0.046, 0.002), unsettled(0.03, 0.002), unsettled(0.046, 0.0)
    (True, False, False)
    """
    return p is not None and bool(se) and abs(p - alpha) <= margin * se


def verdict(paper, found, borderline=False):
    """One of :data:`VERDICTS`: the paper's :func:`direction` ``paper`` against the release's ``found``;
    ``borderline`` when the release's p is :func:`unsettled`.

    >>> verdict("+", "+"), verdict("+", "0"), verdict("-", "+"), verdict("0", "0"), verdict("0", "-")
    ('holds', 'not_detected', 'reversed', 'holds_null', 'new_direction')
    >>> verdict("+", "+", borderline=True)
    'borderline'
    """
    if borderline:
        return "borderline"
    if paper == "0":
        return "holds_null" if found == "0" else "new_direction"
    if found == "0":
        return "not_detected"
    return "holds" if found == paper else "reversed"


def agreement(crosspage_delta, found, borderline=False):
    """Table 7's word (:data:`AGREEMENT`) for a release's :func:`direction` ``found`` beside the paper's CrossPage
    Delta.

    >>> agreement(6.8, "+"), agreement(1.2, "-"), agreement(-3.9, "0"), agreement(-3.9, "-", borderline=True)
    ('same', 'flip', 'none', 'borderline')
    """
    if borderline:
        return "borderline"
    if found == "0":
        return "none"
    return "same" if (crosspage_delta > 0) == (found == "+") else "flip"


def _published(numbers, key, fields):
    out = {}
    for field in fields:
        nid = "%s.%s" % (key, field)
        out[field] = float(numbers[nid][0].value) if nid in numbers else None
    return out


def _side(inst, ctx, cid, prefix, base, variant, p, estimate):
    """A played contrast's values under ``prefix``: Delta n-Clue Score, its paired family-bootstrap interval, its
    Sel.+Holm p and direction; returns ``(values, delta, direction, unsettled)``."""
    sb = summary(outcomes(inst, inst.spec.ranking(base)))
    sv = summary(outcomes(inst, inst.spec.ranking(variant)))
    change = delta(sb, sv, NCLUE_SCORE.key)
    low, high = interval_values(cid, prefix + "delta_score_", ctx.distribution("success", variant, base),
                                protocol.BOOTSTRAP, SOURCE)
    found = direction(change, p)
    doubt = unsettled(p, estimate.se if estimate is not None else None)
    values = [Value(cid(prefix + "variant"), variant, source=SOURCE),
              Value(cid(prefix + "delta_score"), change, source=SOURCE), low, high,
              Value(cid(prefix + "p_holm"), p, source=SOURCE, estimate=estimate),
              Value(cid(prefix + "direction"), found, source=SOURCE)]
    return values, change, found, doubt


def _replication_values(inst):
    ctx = context(inst)
    numbers = load_numbers(inst.root)
    rows = paper_blocks(inst)
    missing = [why for _, _, variant, why in rows if variant is None]
    named = [] if missing else holm_family([(block_tests(ctx, block), block["variants"].index(variant))
                                            for _, block, variant, _ in rows])
    blocks = contrasts(inst)
    best = dict(zip((b["block"] for b in blocks), holm_family(
        [(block_tests(ctx, b), b["variants"].index(displayed(ctx, b))) for b in blocks])))
    values, tally = [], {name: 0 for name in VERDICTS}
    for j, (key, block, variant, why) in enumerate(rows):
        cid = REPLICATION.on(inst.spec.name).bind(block=key)
        paper_values, said = _paper_side(numbers, cid, key)
        values += paper_values
        if variant is None or missing:
            reason = why or "; ".join(missing[:2])
            values += [Value(cid("base"), block["base"] if block else None, source=SOURCE, detail=reason),
                       Value(cid("verdict"), None, source=SOURCE, detail=reason)]
            continue
        p, estimate = named[j]
        played, change, found, doubt = _side(inst, ctx, cid, "", block["base"], variant, p, estimate)
        found_verdict = None if said is None else verdict(said, found, doubt)
        if found_verdict is not None:
            tally[found_verdict] += 1
        top = displayed(ctx, block)
        top_p, top_estimate = best[block["block"]]
        shown, _, _, _ = _side(inst, ctx, cid, "best_", block["base"], top, top_p, top_estimate)
        values += [Value(cid("block"), block["block"], source=SOURCE),
                   Value(cid("base"), block["base"], source=SOURCE)] + played + [
                   Value(cid("verdict"), found_verdict, source=SOURCE, detail=VERDICTS.get(found_verdict, ""))] + shown
        if key in roles.DIRECTIONS:
            t7 = _published(numbers, "T7." + key, ("crosspage", "sourceshift"))
            word = None if t7["crosspage"] is None else agreement(t7["crosspage"], found, doubt)
            values += [Value(cid("t7_crosspage_delta"), t7["crosspage"], source=NUMBERS),
                       Value(cid("t7_sourceshift_delta"), t7["sourceshift"], source=NUMBERS),
                       Value(cid("t7_agreement"), word, source=SOURCE, detail=AGREEMENT.get(word, ""))]
    values += [Value(REPLICATION_SUMMARY.on(inst.spec.name)(statistic=name), count, source=SOURCE,
                     detail=VERDICTS[name]) for name, count in tally.items()]
    return values + _dense_values(inst, ctx, numbers)


def _paper_side(numbers, cid, key):
    """The paper's side of Table 5's row ``key``: its published Delta, interval and Sel.+Holm p, and its
    :func:`direction`; returns ``(values, direction or None)``."""
    paper = _published(numbers, "T5." + key, ("delta", "ci_lo", "ci_hi", "p"))
    said = None if None in (paper["delta"], paper["p"]) else direction(paper["delta"], paper["p"])
    return [Value(cid("paper_delta_score"), paper["delta"], source=NUMBERS),
            Value(cid("paper_ci_low"), paper["ci_lo"], source=NUMBERS),
            Value(cid("paper_ci_high"), paper["ci_hi"], source=NUMBERS),
            Value(cid("paper_p_holm"), paper["p"], source=NUMBERS),
            Value(cid("paper_direction"), said, source=NUMBERS,
                  detail="" if said else "Table 5's row %s is not transcribed" % key)], said


def _dense_values(inst, ctx, numbers):
    """The rows a release's own blocks play (:func:`.shared.block_inference.played_blocks`: RealPage's dense
    blocks, one real embedder), under ``<release>.replication.dense_<row>``: read as the lexical rows are, with
    Holm across the played rows alone (a family of their own), and their own verdict tally
    (``summary.dense_<verdict>``)."""
    rows = played_blocks(inst)
    if not rows:
        return []
    tests = holm_family([(block_tests(ctx, block), block["variants"].index(variant)) for _, block, variant in rows])
    values, tally = [], {name: 0 for name in VERDICTS}
    for (key, block, variant), (p, estimate) in zip(rows, tests):
        cid = REPLICATION.on(inst.spec.name).bind(block=DENSE_PREFIX + key)
        paper_values, said = _paper_side(numbers, cid, key)
        played, _, found, doubt = _side(inst, ctx, cid, "", block["base"], variant, p, estimate)
        found_verdict = None if said is None else verdict(said, found, doubt)
        if found_verdict is not None:
            tally[found_verdict] += 1
        values += paper_values + [Value(cid("block"), block["block"], source=SOURCE),
                                  Value(cid("base"), block["base"], source=SOURCE)] + played + [
            Value(cid("verdict"), found_verdict, source=SOURCE, detail=VERDICTS.get(found_verdict, ""))]
    return values + [Value(REPLICATION_SUMMARY.on(inst.spec.name)(statistic=DENSE_PREFIX + name), count,
                           source=SOURCE, detail="played by the dense blocks: " + VERDICTS[name])
                     for name, count in tally.items()]


def _replication_units(inst):
    if not (ranked(inst) and inst.exists(layout.CROSSWALK) and inst.exists(NUMBERS)):
        return []
    rels = sorted({inst.spec.ranking(s) for b in contrasts(inst) for s in [b["base"]] + b["variants"]})
    return [Unit("table5", inst.spec.evaluation_inputs + [inst.spec.systems, layout.CROSSWALK, NUMBERS] + rels,
                 lambda: _replication_values(inst))]


ANALYSES = per_release(REPLICATION, "inference", SOURCE, _replication_units)
