"""The commands a user runs beside the reproduction: ``score``, ``compare``, ``reproduce-run``,
``export-qrels``, and the output guard every command writes through (docs/usage.md).  Each computes a
result value; :mod:`nclue.reports` renders it."""
