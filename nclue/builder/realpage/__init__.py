"""RealPage (``data/v3``): the IETF RFC series from Debian's pinned doc-rfc packages, built by the paper's
construction (docs/realpage.md).  Real documents that are not the paper's; nothing here is synthetic.

Data flows one way: :mod:`.packages` (pinned ``.deb`` files -> RFC texts) -> :mod:`.pages` (a text -> its
pages) -> :mod:`.fact_miner` (pages -> facts) -> :mod:`.sample` (the seeded sample of RFCs) -> :mod:`.v3_writer`
(conditions, queries, gates, the construction qrels, the files of ``data/v3``).
"""
