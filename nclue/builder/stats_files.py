"""``data/v1/stats.json`` and ``data/v2/stats.json``: the stand-in's structure beside the paper's
(docs/schema.md#buildjson-and-statsjson).  Both are computed by the harness's own functions
(:func:`nclue.core.structure.table1`, :func:`~nclue.core.structure.sourceshift_table`) on the files as
re-loaded by the harness's loaders, so the builder's output is validated on the way."""

import os

from ..core import layout
from ..core.instrument import Instrument
from ..core.jsonio import write_json
from ..core.structure import sourceshift_table, table1
from .config import PAPER_TABLE1
from .sourceshift import PAPER_V2


def beside_paper(stats, paper):
    """``[{statistic, stand_in, paper?}]`` in statistic order: a stand-in table beside the paper's."""
    rows = []
    for key in sorted(stats):
        entry = {"statistic": key, "stand_in": stats[key]}
        if key in paper:
            entry["paper"] = paper[key]
        rows.append(entry)
    return rows


def _write(out_root, rel, table_key, stats, paper, note):
    write_json(os.path.join(out_root, *rel.split("/")), {
        "synthetic": True, "note": note, table_key: beside_paper(stats, paper)})
    return rel


def write_stats(out_root, cfg):
    """``data/v1/stats.json``: the stand-in's Table 1 beside the paper's (full config only)."""
    inst = Instrument(out_root)
    stats = table1(inst.queries(), inst.corpus(), inst.qrels(), inst.inventory())
    return _write(out_root, layout.STATS, "table1", stats, PAPER_TABLE1 if cfg.name == "full" else {},
                  "Stand-in structure from construction; the paper column is the paper's Table 1 (section 3.2). "
                  "Only structural counts were targeted; no result number of the paper was.")


def write_stats_v2(out_root, config_name):
    """``data/v2/stats.json``: the stand-in SourceShift's scale beside the paper's (full config)."""
    stats = sourceshift_table(Instrument(out_root).v2())
    return _write(out_root, layout.V2_STATS, "table", stats, PAPER_V2 if config_name == "full" else {},
                  "Stand-in SourceShift scale; the paper column is supplement section 8. Only the document, "
                  "query, source and n counts are targets; qrel counts come from construction.")
