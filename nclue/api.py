"""The Python API: what the commands do, as functions returning plain data (docs/usage.md#scoring-a-new-retriever,
docs/usage.md#checking-a-re-run).

>>> from nclue.api import score
>>> callable(score)
True
"""

from .harness.export_qrels import export as export_qrels
from .harness.reproduce_run import reproduce_run
from .harness.score import score

__all__ = ["score", "reproduce_run", "export_qrels"]
