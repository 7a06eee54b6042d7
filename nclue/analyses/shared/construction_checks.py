"""The construction copy of any release re-derived by the independent verifier (paper section 3.2;
docs/analyses.md#construction): every qrel and grade from the inventory and the queries, both page gates of every
gold, and the difference counts by kind, for ``<release>.construction``."""

from ...core import layout, renderings
from ...core.claim_ids import CONSTRUCTION
from ...core.errors import InputError
from ...core.jsonio import read_json
from ...core.verify import DIFFERENCE_KINDS, verify
from ..base import Value

SHOWN = 8           # differences a detail lists before it counts the rest
# the construction fields data/v3/build.json declares, checked by v3.construction and v3.genealogy
GATES = ("min_golds", "max_golds", "max_union", "min_subsets", "max_gold_queries")


def verifier_values(inst, source):
    """The verifier's differences between ``inst``'s construction copy and the copy re-derived from its
    inventory and queries: their number (the detail names the copy and the first of them) and their number of
    each kind of :data:`nclue.core.verify.DIFFERENCE_KINDS`."""
    copy = inst.copy("construction")
    diffs = verify(inst.queries(), inst.inventory(), inst.qrels(copy))
    claim = CONSTRUCTION.on(inst.spec.name)
    detail = "; ".join(str(d) for d in diffs[:SHOWN]) + (
        " ... (%d in all)" % len(diffs) if len(diffs) > SHOWN else "")
    out = [Value(claim("rederived_qrel_differences"), len(diffs), source=source,
                 detail="%s: %s" % (copy.path, detail) if diffs else "")]
    for kind in DIFFERENCE_KINDS:
        rows = [d for d in diffs if d.kind == kind]
        out.append(Value(claim(kind.replace(" ", "_")), len(rows), source=source,
                         detail="; ".join(str(d) for d in rows)[:600]))
    return out


def declared_gates(inst):
    """The construction gates ``data/v3/build.json`` declares: ``{gate: int}``; a missing or non-integer
    gate is an :class:`~nclue.core.errors.InputError` naming the field."""
    construction = read_json(inst.path(layout.REALPAGE.build), layout.REALPAGE.build).get("construction")
    if not isinstance(construction, dict):
        raise InputError(layout.REALPAGE.build, "must be an object", field="construction")
    out = {}
    for gate in GATES:
        value = construction.get(gate)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 100000:
            raise InputError(layout.REALPAGE.build, "must be an integer in 0..100000, got %r" % (value,),
                             field="construction." + gate)
        out[gate] = value
    return out


def form_disagreements(inst, source, claim=None):
    """The queries whose forms are not what the release's rendering writes from its conditions
    (:data:`nclue.core.renderings.RENDERING`): the clean and natural forms from the conditions' labels, the raw
    form from their mined texts where the released conditions give them (RealPage).  (That each query's
    condition labels are the catalog's is the loader's check, at file:line:field.)  ``claim``: the claim id of the
    count (default ``<release>.construction.form_disagreements``; SourceShift's is ``v2.structure``'s)."""
    render, mined = renderings.RENDERING[inst.spec.name]
    conditions = inst.conditions()
    wrong = []
    for qid, query in sorted(inst.queries().items()):
        conds = [{"cid": c.cid, "kind": conditions[c.cid].kind, "label": conditions[c.cid].label} for c in
                 query.conditions]
        for c in conds:
            c["mined"] = mined(c) if mined is not None else ""
        expected = render(conds)
        for form in layout.QUERY_FORMS:
            if form == layout.RAW and mined is None:
                continue
            if query.forms[form.key] != expected[form.key]:
                wrong.append("%s: %s forms.%s is %r, its conditions give %r" % (
                    inst.spec.queries, qid, form.key, query.forms[form.key], expected[form.key]))
    claim = claim or CONSTRUCTION.on(inst.spec.name)(statistic="form_disagreements")
    return [Value(claim, len(wrong), source=source, detail="; ".join(wrong[:3]))]
