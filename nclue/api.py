"""The Python API: what the commands do, as functions returning plain data (docs/usage.md#scoring-a-new-retriever,
docs/usage.md#checking-a-re-run).

>>> from nclue.api import score
>>> from nclue.run.locate import CHECKOUT
>>> from nclue.core import layout
>>> ranking = layout.abspath(CHECKOUT, layout.CROSSPAGE.ranking("bm25_and"))
>>> result = score([ranking], CHECKOUT, against=["bm25_or"])
>>> run = result["runs"][0]
>>> run["measures"]["nclue_score_at_10"]["value"], run["successes"], round(run["comparisons"][0]["delta"], 2)
(33.1, 331, 2.0)
"""

from .commands.export_qrels import export as export_qrels
from .commands.reproduce_run import reproduce_run
from .commands.score import score

__all__ = ["score", "reproduce_run", "export_qrels"]
