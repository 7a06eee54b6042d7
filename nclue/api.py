"""The Python API: what the commands do, as functions returning plain data (docs/usage.md#scoring-a-new-retriever).

>>> from nclue.api import score
>>> callable(score)
True
"""

from .harness.export_qrels import export as export_qrels
from .harness.score import score

__all__ = ["score", "export_qrels"]
