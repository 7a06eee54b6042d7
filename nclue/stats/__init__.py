"""Statistics in pure Python (paper section 3.4; supplement sections 3-4; docs/statistics.md).

Functions here consume per-query outcome vectors and family / membership
structure only -- never files.  Randomness comes only from
:class:`nclue.core.rng.Stream`.
"""
