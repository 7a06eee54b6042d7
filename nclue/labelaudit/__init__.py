"""The label audit (supplement section 10): validated records (:mod:`.records`) and their scoring
(:mod:`.score`).  The rules themselves (quote gate, repair policy) are :mod:`nclue.labelaudit.rules`."""
