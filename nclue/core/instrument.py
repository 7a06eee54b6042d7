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

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from . import layout, loaders
from .errors import NclueError, UsageError
from .inputs import note_reads, recording


class Instrument:
    """The released files of one root; ``base`` is the release's folder (``data/v1``, ``data/v2`` or ``data/v3``),
    ``spec`` its declaration (:class:`nclue.core.layout.Release`)."""

    def __init__(self, root: str, base: str = layout.V1) -> None:
        self.root = root
        self.base = base
        self._memo: dict[str, Any] = {}
        self._reads: dict[str, Any] = {}         # memo key -> the absolute paths its computation read
        spec = layout.RELEASES[base]      # the release's files, declared in core/layout.py
        self.spec = spec
        self.CORPUS = spec.corpus
        self.CONDITIONS = spec.conditions
        self.INVENTORY = spec.inventory
        self.QUERIES = spec.queries
        self.SYSTEMS = spec.systems

    def release(self, release: Any) -> Instrument:
        """The instrument of release ``release`` (a :class:`~nclue.core.layout.Release`, or its name as the
        command line and the API give it: ``v1``, ``v2``, ``v3``) on the same root: one shared object per
        instrument and release.  An unknown name is a :class:`~nclue.core.errors.UsageError`."""
        spec = release if isinstance(release, layout.Release) else layout.RELEASE_NAMED.get(release)
        if spec is None:
            raise UsageError("unknown release %r (releases: %s)" % (release, ", ".join(layout.RELEASE_NAMES)))
        if spec.base == self.base:
            return self
        return self.memo("release:" + spec.name, lambda: Instrument(self.root, spec.base))

    def with_rankings(self, replaced: Any) -> Any:
        """A fresh instrument of the same root and release on which each ranking file of ``replaced``
        (``{rel: {qid: RankingRow}}``) reads as the ranking given instead, and so do its other releases
        (:meth:`release`): how ``reproduce-run`` computes the paper's cells for a reviewer's re-run with the
        analyses' own code (docs/usage.md#checking-a-re-run).  What this instrument (or a release of it it has
        opened) has already computed from files none of which is replaced is shared, not computed again: a
        memoised value depends only on the files its computation read (:meth:`memo` records them)."""
        changed = {os.path.abspath(self.path(rel)) for rel in replaced}
        known = {self.base: self}
        for spec in layout.RELEASES.values():
            entry = self._memo.get("release:" + spec.name)
            if entry is not None and entry[0]:
                known[spec.base] = entry[1]
        releases = {}
        for base in layout.RELEASES:
            other = Instrument(self.root, base)
            source = known.get(base)
            if source is not None:
                for key, entry in source._memo.items():
                    reads = source._reads.get(key, frozenset())
                    # a memoised object that holds its instrument (an inference context) reads more files later,
                    # through that instrument: it is built again on the new one, never shared (issue 57)
                    bound = getattr(entry[1], "inst", None) is source
                    if not key.startswith("release:") and key not in replaced and not reads & changed and not bound:
                        other._memo[key], other._reads[key] = entry, reads
            for rel, ranking in replaced.items():
                other._memo[rel] = (True, ranking)
                other._reads[rel] = frozenset()
            releases[base] = other
        for inst in releases.values():
            for spec in layout.RELEASES.values():
                if spec.base != inst.base:
                    inst._memo["release:" + spec.name] = (True, releases[spec.base])
                    inst._reads["release:" + spec.name] = frozenset()
        return releases[self.base]

    def path(self, rel: str) -> str:
        return layout.abspath(self.root, rel)

    def exists(self, rel: str) -> bool:
        return os.path.isfile(self.path(rel))

    def memo(self, key: str, compute: Callable[..., Any]) -> Any:
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

    def conditions(self) -> dict[str, Any] | None:
        """The condition catalog, or None when the instrument ships none."""
        if not self.exists(self.CONDITIONS):
            return None
        return self.memo(self.CONDITIONS, lambda: loaders.load_conditions(self.root, self.CONDITIONS))

    def corpus(self) -> dict[str, Any]:
        return self.memo(self.CORPUS, lambda: loaders.load_corpus(self.root, self.CORPUS))

    def queries(self) -> dict[str, Any]:
        return self.memo(self.QUERIES, lambda: loaders.load_queries(
            self.root, self.QUERIES, self.conditions(), require_source=self.spec.can(layout.SOURCED_QUERIES)))

    def inventory(self) -> dict[Any, Any]:
        return self.memo(self.INVENTORY, lambda: loaders.load_inventory(self.root, self.INVENTORY, self.corpus(),
                                                                          self.conditions()))

    def qrels(self, copy: Any = None) -> dict[str, Any]:
        """The grades of a qrel copy (a :class:`~nclue.core.layout.QrelCopy`; default: the release's last)."""
        copy = self._own(copy)
        return self.memo(copy.path, lambda: loaders.load_qrels(self.root, copy.path, self.queries(), self.corpus()))

    def copies(self) -> tuple[Any, ...]:
        """The release's qrel copies in genealogy order (:attr:`layout.Release.copies`)."""
        return self.spec.copies

    def copy(self, name: str | None = None) -> Any:
        """The qrel copy called ``name`` (its genealogy name; None: the last copy); a name the release has no
        copy of is a :class:`~nclue.core.errors.UsageError` naming the copies it has."""
        copy = self.spec.copy(name)
        if copy is None:
            raise UsageError("%s has no qrel copy %r (its copies: %s; without --qrels, the last)" % (
                self.base, name, ", ".join(c.name for c in self.copies())))
        return copy

    def _own(self, copy: Any) -> Any:
        """``copy``, checked to be one of this release's copies (None: the last)."""
        if copy is None:
            return self.spec.copies[-1]
        if copy not in self.spec.copies:
            raise TypeError("%r is not a qrel copy of %s" % (copy, self.base))
        return copy

    def genealogy(self) -> dict[str, Any]:
        """The release's qrel copies ``{copy name: CopyStage}`` (its ``genealogy.json``)."""
        rel = self.spec.genealogy
        return self.memo(rel, lambda: loaders.load_genealogy(self.root, rel, self.queries(), self.copies()))

    def evaluation_queries(self, copy: Any = None) -> dict[str, Any]:
        """The queries a qrel copy is evaluated on: the release's queries minus those its genealogy removed
        at the copy's stage or before (docs/schema.md#genealogyjson).  A copy no stage removes queries from
        does not need the genealogy: the construction copy is evaluated on every query."""
        copy = self._own(copy)
        if copy.parent is None:
            return self.queries()

        def build() -> dict[str, Any]:
            stages = self.genealogy()
            removed = set()
            for earlier in self.copies()[:self.copies().index(copy) + 1]:
                removed.update(stages[earlier.name].removed_queries)
            return {qid: q for qid, q in self.queries().items() if qid not in removed}
        return self.memo("evaluation-queries:" + copy.path, build)

    def repairs(self) -> dict[Any, Any]:
        """``data/v1/repairs.jsonl``: the audit's changes to the v1 construction copy."""
        return self.memo(layout.REPAIRS, lambda: loaders.load_repairs(
            self.root, layout.REPAIRS, self.queries(), self.corpus(), self.qrels(self.copies()[0])))

    def ranking(self, rel: str) -> dict[str, Any]:
        return self.memo(rel, lambda: loaders.load_ranking(self.root, rel, self.queries(), self.corpus()))

    def page_scores(self, rel: str, ranking_rel: str | None = None) -> dict[Any, Any]:
        """A page-score file, checked against the system's ranking ``ranking_rel`` when given."""
        return self.memo(rel, lambda: loaders.load_page_scores(
            self.root, rel, self.queries(), self.corpus(), None if ranking_rel is None else self.ranking(ranking_rel)))

    def page_sources(self) -> dict[str, Any]:
        """``{docid: PageSource}`` of a release of real pages (its corpus records each document's package and page
        hashes: RealPage)."""
        return self.memo("page-sources:" + self.CORPUS, lambda: loaders.load_page_sources(
            self.root, self.CORPUS, self.corpus()))

    def systems(self) -> tuple[Any, ...]:
        return self.memo(self.SYSTEMS, lambda: loaders.load_systems(self.root, self.SYSTEMS))
