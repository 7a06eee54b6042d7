"""What several analyses share, each module named for what it gives (docs/architecture.md):

- :mod:`.outcome_vectors`: gold/subset sets, ideal DCGs, per-query outcome vectors of a ranking under a
  qrel copy, query factors, and claim values read from a summary;
- :mod:`.release_systems`: the systems.json selections (blocks, form systems, masked and page-scored
  systems) and a block's displayed endpoint;
- :mod:`.audit_inputs`: the label audit's and the challenge's records and the support of the repairs;
- :mod:`.stats_file_check`: a released stats file against the recomputed statistics;
- :mod:`.inference_context`: the shared bootstrap draws, sign-flip masks and per-draw sums;
- :mod:`.robustness_values`: Table S1i and the crossed-interval and top-degree-removal values;
- :mod:`.realpage_release`: RealPage's instrument, the files its evaluations read and where its rankings of
  each query form live.

Everything here is memoised on the instrument, so the analyses that read one piece compute it once. These
modules import :mod:`nclue.analyses.base` and each other, never an analysis.
"""
