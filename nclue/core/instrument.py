"""An instrument on disk: the released files of one root, loaded lazily and once.

The root holds ``MANIFEST.json``, ``SHA256SUMS``, ``data/v1/...`` and
``reference_metrics/`` (the shape is declared in :mod:`nclue.core.layout`;
docs/schema.md).  Each accessor returns validated records (see
:mod:`nclue.core.loaders`) and raises :class:`~nclue.core.errors.InputError`
or :class:`~nclue.core.errors.MissingInput`; results and errors are memoised
so a broken file is reported once with the same message everywhere.
:meth:`Instrument.memo` offers the same memo to analyses for values derived
from records (outcome vectors, shared bootstrap draws).
"""

import os

from . import layout, loaders
from .errors import NclueError, UsageError
from .inputs import note_reads, recording


class Instrument:
    """The released files of one root; ``base`` is the release directory (``data/v1`` or ``data/v2``)."""

    def __init__(self, root, base=layout.V1):
        self.root = root
        self.base = base
        self._memo = {}
        self._reads = {}         # memo key -> the absolute paths its computation read
        release = layout.ALL_RELEASES[base]      # the release's files, declared in core/layout.py
        self.release = release
        self.CORPUS = release.corpus
        self.CONDITIONS = release.conditions
        self.INVENTORY = release.inventory
        self.QUERIES = release.queries
        self.SYSTEMS = release.systems

    def v2(self):
        """The SourceShift release of the same root (one shared object per instrument)."""
        if self.base == layout.V2:
            return self
        return self.memo("release:v2", lambda: Instrument(self.root, layout.V2))

    def v1(self):
        """The CrossPage release of the same root."""
        if self.base == layout.V1:
            return self
        return self.memo("release:v1", lambda: Instrument(self.root, layout.V1))

    def v3(self):
        """The RealPage release of the same root (docs/realpage.md)."""
        if self.base == layout.V3:
            return self
        return self.memo("release:v3", lambda: Instrument(self.root, layout.V3))

    def named(self, name):
        """The release of the same root that the command line and the API call ``name`` (``v1``, ``v2``:
        :data:`layout.RELEASE_NAMED`); an unknown name is a :class:`~nclue.core.errors.UsageError`."""
        release = layout.RELEASE_NAMED.get(name)
        if release is None:
            raise UsageError("unknown release %r (releases: %s)" % (name, ", ".join(layout.RELEASE_NAMES)))
        return self.v1() if release.base == layout.V1 else self.v2()

    def with_rankings(self, replaced):
        """A fresh instrument of the same root and release on which each ranking file of ``replaced``
        (``{rel: {qid: RankingRow}}``) reads as the ranking given instead, and so does its other release
        (:meth:`v1`, :meth:`v2`): how ``reproduce-run`` computes the paper's cells for a reviewer's re-run
        with the analyses' own code (docs/usage.md#checking-a-re-run).  What this instrument has already
        computed from files none of which is replaced is shared, not computed again: a memoised value
        depends only on the files its computation read (:meth:`memo` records them)."""
        changed = {os.path.abspath(self.path(rel)) for rel in replaced}
        known = {self.base: self}
        other_base, other_key = (layout.V2, "release:v2") if self.base == layout.V1 else (layout.V1, "release:v1")
        if self._memo.get(other_key, (False, None))[0]:
            known[other_base] = self._memo[other_key][1]
        releases = {}
        for base in (layout.V1, layout.V2):
            other = Instrument(self.root, base)
            source = known.get(base)
            if source is not None:
                for key, entry in source._memo.items():
                    reads = source._reads.get(key, frozenset())
                    if not key.startswith("release:") and key not in replaced and not reads & changed:
                        other._memo[key], other._reads[key] = entry, reads
            for rel, ranking in replaced.items():
                other._memo[rel] = (True, ranking)
                other._reads[rel] = frozenset()
            releases[base] = other
        releases[layout.V1]._memo["release:v2"] = (True, releases[layout.V2])
        releases[layout.V1]._reads["release:v2"] = frozenset()
        releases[layout.V2]._memo["release:v1"] = (True, releases[layout.V1])
        releases[layout.V2]._reads["release:v1"] = frozenset()
        return releases[self.base]

    def path(self, rel):
        return layout.abspath(self.root, rel)

    def exists(self, rel):
        return os.path.isfile(self.path(rel))

    def memo(self, key, compute):
        """``compute()`` once per instrument and key; an :class:`~nclue.core.errors.NclueError` it
        raises is remembered and raised again for every later caller.  The files ``compute`` read are
        remembered with it and replayed to the active read recorders on every later call
        (:class:`nclue.core.inputs.recording`), so a unit's observed inputs do not depend on what an
        earlier unit happened to load first."""
        if key not in self._memo:
            with recording() as seen:
                try:
                    self._memo[key] = (True, compute())
                except NclueError as exc:
                    self._memo[key] = (False, exc)
            self._reads[key] = frozenset(seen)
        else:
            note_reads(self._reads[key])
        ok, value = self._memo[key]
        if ok:
            return value
        raise value

    def conditions(self):
        """The condition catalog, or None when the instrument ships none."""
        if not self.exists(self.CONDITIONS):
            return None
        return self.memo(self.CONDITIONS, lambda: loaders.load_conditions(self.root, self.CONDITIONS))

    def corpus(self):
        return self.memo(self.CORPUS, lambda: loaders.load_corpus(self.root, self.CORPUS))

    def queries(self):
        return self.memo(self.QUERIES, lambda: loaders.load_queries(
            self.root, self.QUERIES, self.conditions(), require_source=self.base == layout.V2))   # SourceShift's sources

    def inventory(self):
        return self.memo(self.INVENTORY, lambda: loaders.load_inventory(self.root, self.INVENTORY, self.corpus(),
                                                                          self.conditions()))

    def qrels(self, copy=None):
        """The grades of a qrel copy (a :class:`~nclue.core.layout.QrelCopy`; default: the release's last)."""
        copy = self._own(copy)
        return self.memo(copy.path, lambda: loaders.load_qrels(self.root, copy.path, self.queries(), self.corpus()))

    def copies(self):
        """The release's qrel copies in genealogy order (:data:`layout.COPIES`)."""
        return self.release.copies

    def copy(self, name=None):
        """The qrel copy called ``name`` (its genealogy name; None: the last copy); a name the release has no
        copy of is a :class:`~nclue.core.errors.UsageError` naming the copies it has."""
        copy = self.release.copy(name)
        if copy is None:
            raise UsageError("%s has no qrel copy %r (its copies: %s; without --qrels, the last)" % (
                self.base, name, ", ".join(c.name for c in self.copies())))
        return copy

    def _own(self, copy):
        """``copy``, checked to be one of this release's copies (None: the last)."""
        if copy is None:
            return self.release.copies[-1]
        if copy not in self.release.copies:
            raise TypeError("%r is not a qrel copy of %s" % (copy, self.base))
        return copy

    def genealogy(self):
        """The release's qrel copies ``{copy name: CopyStage}`` (its ``genealogy.json``)."""
        rel = self.release.genealogy
        return self.memo(rel, lambda: loaders.load_genealogy(self.root, rel, self.queries(), self.copies()))

    def evaluation_queries(self, copy=None):
        """The queries a qrel copy is evaluated on: the release's queries minus those its genealogy removed
        at the copy's stage or before (docs/schema.md#genealogyjson).  A copy no stage removes queries from
        does not need the genealogy: the construction copy is evaluated on every query."""
        copy = self._own(copy)
        if copy.parent is None:
            return self.queries()

        def build():
            stages = self.genealogy()
            removed = set()
            for earlier in self.copies()[:self.copies().index(copy) + 1]:
                removed.update(stages[earlier.name].removed_queries)
            return {qid: q for qid, q in self.queries().items() if qid not in removed}
        return self.memo("evaluation-queries:" + copy.path, build)

    def repairs(self):
        """``data/v1/repairs.jsonl``: the audit's changes to the v1 construction copy."""
        return self.memo(layout.REPAIRS, lambda: loaders.load_repairs(
            self.root, layout.REPAIRS, self.queries(), self.corpus(), self.qrels(self.copies()[0])))

    def ranking(self, rel):
        return self.memo(rel, lambda: loaders.load_ranking(self.root, rel, self.queries(), self.corpus()))

    def page_scores(self, rel, ranking_rel=None):
        """A page-score file, checked against the system's ranking ``ranking_rel`` when given."""
        return self.memo(rel, lambda: loaders.load_page_scores(
            self.root, rel, self.queries(), self.corpus(), None if ranking_rel is None else self.ranking(ranking_rel)))

    def systems(self):
        return self.memo(self.SYSTEMS, lambda: loaders.load_systems(self.root, self.SYSTEMS))
