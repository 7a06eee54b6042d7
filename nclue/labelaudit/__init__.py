"""The label audit and the residual-qrel challenge (supplement section 10; docs/label-audit.md), and RealPage's
automatic audit policy:

- :mod:`.rules`: the building blocks (the quote gate, the repair policy's rules);
- :mod:`.audit_records` and :mod:`.audit_scoring`: the stratified audit's records (``data/audit/``), validated,
  and Tables S8-S13 scored from them;
- :mod:`.challenge`, :mod:`.challenge_records` and :mod:`.challenge_score`: the residual-qrel challenge's rules,
  records and scoring (section 10.5);
- :mod:`.pool`: the high-recall expanded-page pool (section 10.3.1, Table S10);
- :mod:`.copy_derivation`: SourceShift's qrel genealogy re-derived (sections 8, 10.5-10.6);
- :mod:`.realpage_policy`: RealPage's automatic audit policy (docs/realpage.md#the-audit).
"""
