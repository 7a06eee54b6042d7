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


V2 = "data/v2"
V2_CORPUS = V2 + "/corpus.jsonl"
V2_CONDITIONS = V2 + "/conditions.jsonl"
V2_QUERIES = V2 + "/queries.jsonl"
V2_QRELS_S0 = V2 + "/qrels_s0.jsonl"
V2_QRELS = V2 + "/qrels.jsonl"
V2_SYSTEMS = V2 + "/systems.json"
REPAIRS = V1 + "/repairs.jsonl"
AUDIT = "data/audit"


def ranking_path(system, form=None, base=V1):
    if form is None:
        return "%s/rankings/%s.jsonl" % (base, system)
    return "%s/rankings/forms/%s__%s.jsonl" % (base, system, form)


class Instrument:
    """The released files of one root; ``base`` is the release directory (``data/v1`` or ``data/v2``)."""

    def __init__(self, root, base=V1):
        self.root = root
        self.base = base
        self._cache = {}
        self.CORPUS = base + "/corpus.jsonl"
        self.CONDITIONS = base + "/conditions.jsonl"
        self.INVENTORY = base + "/inventory.jsonl"
        self.QUERIES = base + "/queries.jsonl"
        self.QRELS = base + "/qrels.jsonl"
        self.SYSTEMS = base + "/systems.json"

    def v2(self):
        """The SourceShift release of the same root (one shared object per instrument)."""
        if self.base == V2:
            return self
        key = "__v2__"
        if key not in self._cache:
            self._cache[key] = (True, Instrument(self.root, V2))
        return self._cache[key][1]

    def v1(self):
        if self.base == V1:
            return self
        key = "__v1__"
        if key not in self._cache:
            self._cache[key] = (True, Instrument(self.root, V1))
        return self._cache[key][1]

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
        if not self.exists(self.CONDITIONS):
            return None
        return self._get(self.CONDITIONS, lambda: loaders.load_conditions(self.root, self.CONDITIONS))

    def corpus(self):
        return self._get(self.CORPUS, lambda: loaders.load_corpus(self.root, self.CORPUS))

    def queries(self):
        return self._get(self.QUERIES, lambda: loaders.load_queries(self.root, self.QUERIES, self.conditions()))

    def inventory(self):
        return self._get(self.INVENTORY, lambda: loaders.load_inventory(self.root, self.INVENTORY, self.corpus(),
                                                                          self.conditions()))

    def qrels(self, rel=None):
        """A qrel copy (default: the release's ``qrels.jsonl``; v2 also has ``qrels_s0.jsonl``)."""
        rel = rel or self.QRELS
        return self._get(rel, lambda: loaders.load_qrels(self.root, rel, self.queries(), self.corpus()))

    def repairs(self):
        """``data/v1/repairs.jsonl``: the audit's changes to released v1 qrels."""
        return self._get(REPAIRS, lambda: loaders.load_repairs(self.root, REPAIRS, self.queries(), self.corpus(),
                                                               self.qrels()))

    def ranking(self, rel):
        return self._get(rel, lambda: loaders.load_ranking(self.root, rel, self.queries(), self.corpus()))

    def page_scores(self, rel):
        return self._get(rel, lambda: loaders.load_page_scores(self.root, rel, self.queries(), self.corpus()))

    def systems(self):
        return self._get(self.SYSTEMS, lambda: loaders.load_systems(self.root, self.SYSTEMS))

    def require(self, rel):
        if not self.exists(rel):
            raise MissingInput(rel)
