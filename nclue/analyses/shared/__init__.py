"""What several analyses share, each module named for what it gives (docs/architecture.md):

- :mod:`.outcome_vectors`: gold/subset sets, ideal DCGs, per-query outcome vectors of a ranking under a
  qrel copy, query factors, and claim values read from a summary;
- :mod:`.release_systems`: the systems.json selections (blocks, form systems, masked and page-scored
  systems) and a block's displayed endpoint;
- :mod:`.audit_inputs`: the label audit's and the challenge's records and the support of the repairs;
- :mod:`.stats_file_check`: a released stats file against the recomputed statistics;
- :mod:`.inference_context`: the shared bootstrap draws, sign-flip masks and per-draw sums;
- :mod:`.robustness_values`: Table S1i and the crossed-interval and top-degree-removal values;
- :mod:`.block_inference`: Table 5's inference for any release (block tests, Sel.+Holm, the paper's family, the
  blocks a release plays);
- :mod:`.construction_checks`: the construction copy re-derived by the independent verifier, the declared gates
  and the query forms against the conditions;
- :mod:`.page_evidence`: Table 8's stored-page evidence of a page-scored system;
- :mod:`.task_slices`: Table 6's task-factor slices;
- :mod:`.release_manifest`: MANIFEST.json as the analyses read it, validated once per run.

Everything here is memoised on the instrument, so the analyses that read one piece compute it once. These
modules import :mod:`nclue.analyses.base` and each other, never an analysis.
"""
