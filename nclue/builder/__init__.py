"""The builders, the only code besides ``freeze`` that writes into a release: the synthetic stand-in (``data/v1``,
``data/v2``, ``data/audit``, from its seeds; docs/stand-in.md), RealPage from its pinned packages (:mod:`.realpage`;
docs/realpage.md) and the optional dense runs it ships (:mod:`.neural`, with the neural extra;
docs/realpage.md#neural)."""
