"""An instrument on disk: the released files of one root, loaded lazily and once.

The root holds ``MANIFEST.json``, ``SHA256SUMS``, ``data/v1/...`` and
``reference_metrics/``.  Each accessor returns validated records (see
:mod:`nclue.loaders`) and raises :class:`~nclue.errors.InputError` or
:class:`~nclue.errors.MissingInput`; results and errors are cached so a
broken file is reported once with the same message everywhere.
"""

import os

from . import loaders
from .errors import MissingInput, NclueError

V1 = "data/v1"
CORPUS = V1 + "/corpus.jsonl"
CONDITIONS = V1 + "/conditions.jsonl"
INVENTORY = V1 + "/inventory.jsonl"
QUERIES = V1 + "/queries.jsonl"
QRELS = V1 + "/qrels.jsonl"
SYSTEMS = V1 + "/systems.json"
BUILD = V1 + "/build.json"
STATS = V1 + "/stats.json"
RANKINGS = V1 + "/rankings"
FORMS = V1 + "/rankings/forms"


def ranking_path(system, form=None):
    if form is None:
        return "%s/%s.jsonl" % (RANKINGS, system)
    return "%s/%s__%s.jsonl" % (FORMS, system, form)


class Instrument:
    def __init__(self, root):
        self.root = root
        self._cache = {}

    def path(self, rel):
        return os.path.join(self.root, *rel.split("/"))

    def exists(self, rel):
        return os.path.isfile(self.path(rel))

    def _get(self, key, fn):
        if key not in self._cache:
            try:
                self._cache[key] = (True, fn())
            except NclueError as exc:
                self._cache[key] = (False, exc)
        ok, value = self._cache[key]
        if ok:
            return value
        raise value

    def conditions(self):
        """The condition catalog, or None when the instrument ships none."""
        if not self.exists(CONDITIONS):
            return None
        return self._get(CONDITIONS, lambda: loaders.load_conditions(self.root, CONDITIONS))

    def corpus(self):
        return self._get(CORPUS, lambda: loaders.load_corpus(self.root, CORPUS))

    def queries(self):
        return self._get(QUERIES, lambda: loaders.load_queries(self.root, QUERIES, self.conditions()))

    def inventory(self):
        return self._get(INVENTORY, lambda: loaders.load_inventory(self.root, INVENTORY, self.corpus(),
                                                                     self.conditions()))

    def qrels(self):
        return self._get(QRELS, lambda: loaders.load_qrels(self.root, QRELS, self.queries(), self.corpus()))

    def ranking(self, rel):
        return self._get(rel, lambda: loaders.load_ranking(self.root, rel, self.queries(), self.corpus()))

    def page_scores(self, rel):
        return self._get(rel, lambda: loaders.load_page_scores(self.root, rel, self.queries(), self.corpus()))

    def systems(self):
        return self._get(SYSTEMS, lambda: loaders.load_systems(self.root, SYSTEMS))

    def require(self, rel):
        if not self.exists(rel):
            raise MissingInput(rel)
