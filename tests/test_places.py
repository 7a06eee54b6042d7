"""Places name the paper's own labels (docs/paper-audit.md#places): every table number resolves to a row and a
column the paper prints, held against the transcribed quotes (and the paper's text when it is given); the
prose numbers of captions and supplement sections are named where they are printed."""

import json
import os

import pytest
from conftest import REPO

from nclue.paperaudit import places, results
from nclue.run.published import _where

PAPER_ENV = "NCLUE_PAPER_TEXT"


def _records():
    with open(os.path.join(REPO, "reference_metrics", "paper", "numbers.json"), encoding="utf-8") as f:
        return {row["id"]: row for row in json.load(f)["numbers"]}


def _flat(text):
    """The paper's markup read as plain words: LaTeX and markdown marks dropped, spaces ignored."""
    for old, new in (("\\rightarrow", "->"), ("\\leq", "<="), ("\\min", "min"), ("\\kappa", "kappa"),
                     ("\\Delta", "Delta"), ("\\|", "|"), ("\\dagger", ""), ("$", ""), ("{", ""), ("}", "")):
        text = text.replace(old, new)
    return "".join(text.split())


def _table_numbers(records):
    return {nid: row for nid, row in records.items() if not nid.startswith("X.") and row["table"] != "abstract"}


def _quotes_of(records, table):
    return [row["quote"] for row in records.values() if row["table"] == table]


def test_every_table_number_has_the_papers_row_and_column_labels():
    records = _records()
    numbers = _table_numbers(records)
    assert len(numbers) > 600
    for nid, row in numbers.items():
        row_label, column, _ = places.cell(nid, row)
        if not row_label.startswith("("):            # an unlabelled row is described, not quoted
            assert _flat(row_label) in _flat(row["quote"]), (nid, row_label)
        labels = places.TABLES[nid.split(".")[0].lstrip("T")]
        assert column in labels.header, (nid, column)


def test_the_header_of_every_table_is_the_papers():
    records = _records()
    flattened = {row["table"] for row in records.values() if row["table"].startswith("S")}
    for table, labels in places.TABLES.items():
        if table not in flattened:
            continue
        text = _flat(" ".join(_quotes_of(records, table)))
        for cell in labels.header:
            assert _flat(cell) in text, (table, cell)
    path = os.environ.get(PAPER_ENV)
    if not path:
        pytest.skip("set %s to the paper's text to hold the main tables' headers against it" % PAPER_ENV)
    paper = _flat(open(path, encoding="utf-8").read())
    for table, labels in places.TABLES.items():
        for cell in labels.header + (labels.row_header,):
            assert _flat(cell) in paper, (table, cell)


def test_a_label_the_paper_does_not_print_is_caught(monkeypatch):
    records = _records()
    row = records["T3.bm25_and.score"]
    assert places.cell("T3.bm25_and.score", row) == ("BM25-AND", "n-Clue Score@10", None)
    # a harness key declared as the label is not in the paper's row, and the first test's assertion fails on it
    monkeypatch.setitem(places.TABLES, "3", places.TABLES["3"]._replace(rows=(("bm25_and.*", "bm25_and"),)))
    label = places.cell("T3.bm25_and.score", row)[0]
    assert _flat(label) not in _flat(row["quote"])
    with pytest.raises(places.PlaceError, match="T9.x.y: table T9 has no declared labels"):
        places.cell("T9.x.y", {"row": None})
    with pytest.raises(places.PlaceError, match="no declared column label"):
        places.cell("T3.bm25_and.recall", {"row": None})


def test_places_read_as_a_reader_finds_them():
    records = _records()
    assert _where("T3.bm25_and.score", records["T3.bm25_and.score"]) == \
        'Table 3, row "BM25-AND", column "n-Clue Score@10"'
    assert _where("S14.cp_fusion.c", records["S14.cp_fusion.c"]) == \
        'Table S14, row "CrossPage fusion", column "Construction"'
    assert _where("T6.size.n2", records["T6.size.n2"]) == \
        'Table 6, row (the unlabelled row of slice sizes), column "n=2" (queries)'
    assert _where("T1.queries_n2", records["T1.queries_n2"]) == \
        'Table 1, row "Queries (2 / 3 conditions)", column "Value" (2 conditions)'
    assert _where("T8.vl2b.cond", records["T8.vl2b.cond"]) == 'Table 8, row "Qwen3-VL 2B", column "Cond. coverage"'
    assert _where("S2.total", records["S2.total"]).startswith(
        "supplement section 2's capability-matrix table, row \"Total\", column \"Runs\"")
    for nid, place in (("X.s1j.hit_n2", "supplement section 5"), ("X.s4.n", "Table S4 caption"),
                       ("X.s2a.range_lo", "Table S2a caption"), ("X.s5a.hit_lo", "Table S5a caption"),
                       ("X.s5b.auc_before", "supplement section 9"), ("X.s5b.rho", "Table S5b")):
        assert results.place(nid, records[nid]["table"]) == place, nid
    assert not any(results.place(nid, row["table"]) == "Table S2" for nid, row in records.items())
