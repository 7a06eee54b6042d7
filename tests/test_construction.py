"""Construction: clue counts, determinism, the verifier catching every kind of defect,
and the full build's structural statistics (docs/schema.md#qrelsjsonl-and-qrels_constructionjsonl, docs/stand-in.md#structural-targets)."""

import hashlib
import json
import os

import pytest
from conftest import REPO, released

from nclue.analyses.construction import final_table1
from nclue.builder.config import CONFIGS, PAPER_TABLE1
from nclue.builder.crosspage import write_instrument
from nclue.core.errors import InputError
from nclue.core.instrument import Instrument
from nclue.core.verify import verify


def _hashes(root):
    out = {}
    for dirpath, _, files in os.walk(os.path.join(root, "data")):
        for name in files:
            full = os.path.join(dirpath, name)
            out[os.path.relpath(full, root)] = hashlib.sha256(open(full, "rb").read()).hexdigest()
    return out


def test_two_builds_same_seed_are_byte_identical(tmp_path, mini_root):
    again = str(tmp_path / "again")
    write_instrument(again, CONFIGS["mini"], 11, log=lambda *a: None)
    assert _hashes(again) == _hashes(mini_root)


def test_different_seed_gives_different_instrument(tmp_path, mini_root):
    other = str(tmp_path / "other")
    write_instrument(other, CONFIGS["mini"], 12, log=lambda *a: None)
    a, b = _hashes(other), _hashes(mini_root)
    assert a[released("v1", "inventory.jsonl")] != b[released("v1", "inventory.jsonl")]
    assert a[released("v1", "qrels_construction.jsonl")] != b[released("v1", "qrels_construction.jsonl")]


def test_clue_counts_are_exact_by_hand(mini_root):
    inst = Instrument(mini_root)
    queries, inventory, qrels = inst.queries(), inst.inventory(), inst.qrels(inst.copy("construction"))
    for qid, query in sorted(queries.items())[:5]:
        for docid, grade in qrels[qid].items():
            by_hand = sum(1 for c in query.conditions if (docid, c.cid) in inventory)
            assert grade == by_hand
        # and no document carrying a condition is missing from the qrels
        carriers = {d for (d, cid) in inventory if cid in {c.cid for c in query.conditions}}
        assert carriers == set(qrels[qid])


def test_released_mini_verifies_clean(mini_root):
    inst = Instrument(mini_root)
    assert verify(inst.queries(), inst.inventory(), inst.qrels(inst.copy("construction"))) == []
    # without the audit part there is nothing to apply: the final copy is the construction copy
    assert inst.qrels(inst.copy()) == inst.qrels(inst.copy("construction"))


def _rewrite(path, fn):
    lines = open(path, encoding="utf-8").read().split("\n")[:-1]
    rows = [json.loads(x) for x in lines]
    rows = fn(rows)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for r in rows:
            fh.write(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n")


def _verify(root):
    inst = Instrument(root)
    return verify(inst.queries(), inst.inventory(), inst.qrels(inst.copy("construction")))


def test_verifier_catches_corrupted_grade(mini_copy):
    qrels = os.path.join(mini_copy, "data", "v1", "qrels_construction.jsonl")
    target = {}

    def corrupt(rows):
        for r in rows:
            if r["grade"] == 1:
                r["grade"] = 2
                target.update(r)
                break
        return rows
    _rewrite(qrels, corrupt)
    diffs = _verify(mini_copy)
    kinds = {(d.kind, d.qid, d.docid) for d in diffs}
    assert ("wrong grade", target["qid"], target["docid"]) in kinds


def test_verifier_catches_missing_and_extra_qrels(mini_copy):
    qrels = os.path.join(mini_copy, "data", "v1", "qrels_construction.jsonl")
    removed = {}

    def drop_and_add(rows):
        removed.update(rows[3])
        rows = rows[:3] + rows[4:]
        present = {(r["qid"], r["docid"]) for r in rows}
        for d in ("sim_pmc_00001", "sim_pmc_00002", "sim_pmc_00003", "sim_wb_00001", "sim_wb_00002"):
            if ("nclue_0000", d) not in present and ("nclue_0000", d) != (removed["qid"], removed["docid"]):
                rows.append({"qid": "nclue_0000", "docid": d, "grade": 1})
                removed["extra"] = d
                break
        return rows
    _rewrite(qrels, drop_and_add)
    diffs = _verify(mini_copy)
    kinds = {(d.kind, d.qid, d.docid) for d in diffs}
    assert ("missing qrel", removed["qid"], removed["docid"]) in kinds
    assert ("extra qrel", "nclue_0000", removed["extra"]) in kinds


def test_verifier_catches_gold_that_violates_a_gate(mini_copy):
    inst = Instrument(mini_copy)
    queries, qrels = inst.queries(), inst.qrels(inst.copy("construction"))
    qid = sorted(queries)[0]
    query = queries[qid]
    gold = sorted(d for d, g in qrels[qid].items() if g == query.n)[0]
    c0, c1 = query.conditions[0].cid, query.conditions[1].cid
    inv = os.path.join(mini_copy, "data", "v1", "inventory.jsonl")

    def share_page(rows):
        p0 = next(r for r in rows if r["docid"] == gold and r["cid"] == c0)["pages"][0]
        for r in rows:
            if r["docid"] == gold and r["cid"] == c1 and p0 not in r["pages"]:
                r["pages"] = sorted(r["pages"] + [p0])
            if r["docid"] == gold and r["cid"] == c0 and query.n == 3:
                pass
        if query.n == 3:
            c2 = query.conditions[2].cid
            for r in rows:
                if r["docid"] == gold and r["cid"] == c2 and p0 not in r["pages"]:
                    r["pages"] = sorted(r["pages"] + [p0])
        return rows
    _rewrite(inv, share_page)
    diffs = _verify(mini_copy)
    assert any(d.kind == "gold fails gate" and d.qid == qid and d.docid == gold and "single-page" in d.detail
               for d in diffs)


@pytest.mark.parametrize("mutation,needle", [
    (lambda t: t.replace('"grade":1', '"grade":"x"', 1), "field 'grade'"),
    (lambda t: t.replace('"docid":"sim_', '"docid":"zzz_', 1), "unknown document"),
    (lambda t: t[:-30], "truncated"),
    (lambda t: t + t.split("\n")[0] + "\n", "duplicate qrel"),
    (lambda t: "{not json\n" + t, "invalid JSON"),
])
def test_bad_qrels_name_file_line_and_field(mini_copy, mutation, needle):
    path = os.path.join(mini_copy, "data", "v1", "qrels.jsonl")
    text = open(path, encoding="utf-8").read()
    open(path, "w", encoding="utf-8", newline="\n").write(mutation(text))
    with pytest.raises(InputError) as info:
        Instrument(mini_copy).qrels()
    message = str(info.value)
    assert message.startswith((released("v1", "qrels.jsonl") + ":"))
    assert needle in message


@pytest.mark.parametrize("mutation,needle", [
    (lambda rows: rows[:1] + [dict(rows[1], cid="sec:no-such-thing")] + rows[2:], "unknown condition"),
    (lambda rows: [dict(rows[0], pages=[10 ** 6])] + rows[1:], "outside"),
    (lambda rows: rows + [rows[0]], "duplicate inventory row"),
    (lambda rows: [dict(rows[0], docid="sim_wb_99999")] + rows[1:], "unknown document"),
])
def test_bad_inventory_rows_are_named(mini_copy, mutation, needle):
    path = os.path.join(mini_copy, "data", "v1", "inventory.jsonl")
    _rewrite(path, mutation)
    with pytest.raises(InputError) as info:
        Instrument(mini_copy).inventory()
    assert str(info.value).startswith((released("v1", "inventory.jsonl") + ":")) and needle in str(info.value)


def test_non_utf8_is_reported_with_line(mini_copy):
    path = os.path.join(mini_copy, "data", "v1", "queries.jsonl")
    data = open(path, "rb").read()
    open(path, "wb").write(data[:200] + b"\xff\xfe" + data[200:])
    with pytest.raises(InputError) as info:
        Instrument(mini_copy).queries()
    assert "not valid UTF-8" in str(info.value) and "queries.jsonl:1" in str(info.value)


# The fitted structure of the shipped full build against the paper's description (relative tolerance per
# statistic).  The fit (tools/fit_structure.py) could not meet every target at once; these bounds are the
# achieved deviations rounded up, recorded in docs/stand-in.md, so a change that moves the structure further
# from the paper fails here.
FITTED_STRUCTURE_TOLERANCE = {
    "distinct_gold_documents": 0.05, "gold_graph_components": 0.2, "gold_graph_largest_component_queries": 0.01,
    "subset_qrels": 0.10, "subset_grade1": 0.10, "subset_grade2": 0.05, "gold_qrels": 0.20, "gold_families": 0.30,
    "shortest_gold_mean": 0.10, "shortest_gold_median": 0.10, "slice_lmin_le30": 0.05, "slice_lmin_gt100": 0.15,
    "slice_pool_le25": 0.10, "slice_pool_gt50": 0.10,
}


def test_full_release_structure_matches_targets():
    """The shipped data/v1 is the full build: exact structural targets, the fitted ones within their achieved
    deviations -- on the final copy, as the paper's Table 1."""
    inst = Instrument(REPO)
    stats = final_table1(inst)
    for key in ("queries", "queries_n2", "queries_n3", "documents", "documents_wb", "documents_pmc",
                "pages", "pages_median", "pages_max", "single_page_solvable_golds"):
        assert stats[key] == PAPER_TABLE1[key], key
    assert round(stats["pages_mean"], 1) == 20.5
    assert stats["distinct_page_valid_golds"] == stats["gold_qrels"]
    for key, tolerance in FITTED_STRUCTURE_TOLERANCE.items():
        assert abs(stats[key] - PAPER_TABLE1[key]) <= tolerance * PAPER_TABLE1[key], (key, stats[key])
    assert all(d.synthetic for d in inst.corpus().values())
    assert all(d.startswith(("sim_wb_", "sim_pmc_")) for d in inst.corpus())
    assert verify(inst.queries(), inst.inventory(), inst.qrels(inst.copy("construction"))) == []


def test_verifier_is_independent_of_the_constructor():
    """The verifier imports nothing from the builder (a different code path, not a call back into it)."""
    import ast

    from nclue.core import verify as verifier
    tree = ast.parse(open(verifier.__file__, encoding="utf-8").read())
    modules = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in modules if "build" in m or "construct" in m], modules
