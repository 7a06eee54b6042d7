"""The comparison of a released stats file (``{statistic, stand_in, paper?}`` rows) with the statistics
recomputed from the release (docs/schema.md).
"""

from ...core.errors import InputError
from ...core.jsonio import read_json

STATS_ROW_FIELDS = {"statistic", "stand_in", "paper"}


def stats_file_disagreements(inst, rel, key, stats):
    """Rows of a released stats file (``{statistic, stand_in, paper?}`` under ``key``) whose ``stand_in``
    value is not the recomputed ``stats[statistic]`` (and statistics missing from either side)."""
    rows = read_json(inst.path(rel), rel).get(key)
    if not isinstance(rows, list):
        raise InputError(rel, "must be a list", field=key)
    wrong = []
    released = {}
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("statistic"), str) or "stand_in" not in row:
            raise InputError(rel, "must be {statistic, stand_in, ...}", field="%s[%d]" % (key, i))
        if row["statistic"] in released:
            raise InputError(rel, "statistic %r listed twice" % row["statistic"], field="%s[%d]" % (key, i))
        unknown = sorted(set(row) - STATS_ROW_FIELDS)
        if unknown:
            raise InputError(rel, "unknown field %r (a row holds %s)" % (unknown[0], ", ".join(sorted(STATS_ROW_FIELDS))),
                             field="%s[%d].%s" % (key, i, unknown[0]))
        released[row["statistic"]] = row["stand_in"]
    for name in sorted(set(stats) | set(released)):
        if released.get(name, "absent") != stats.get(name, "absent"):
            wrong.append("%s: file %r, recomputed %r" % (name, released.get(name, "absent"), stats.get(name, "absent")))
    return wrong
