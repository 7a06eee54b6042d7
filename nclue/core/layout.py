"""The declared shape of a release: every released file kind, once (docs/schema.md).

Each :class:`FileKind` names a path (or a path pattern with ``*``), the role
MANIFEST.json records for it, the release part it belongs to (``v1``
CrossPage, ``v2`` SourceShift, ``audit`` the label audit, ``claims`` and
``paper`` the frozen outputs), whether a present part must contain it, and
the page of ``docs/`` that defines its fields.  Loaders, the instrument,
``freeze`` (roles) and the documentation all read this one table.

>>> role_of("data/v1/rankings/bm25_and.jsonl"), role_of("data/v1/rankings/forms/bm25_and__raw.jsonl")
('ranking', 'form-ranking')
>>> role_of("reference_metrics/v1.matrix.json"), role_of("data/v1/qrels.jsonl")
('frozen-claims', 'qrels')
"""

import os
from fnmatch import fnmatchcase
from typing import NamedTuple

DATA_DIR = "data"
CLAIMS_DIR = "reference_metrics"
RELEASE_DIRS = (DATA_DIR, CLAIMS_DIR)      # the released folders; nothing but the builder and freeze writes here
V1 = DATA_DIR + "/v1"
V2 = DATA_DIR + "/v2"
V3 = DATA_DIR + "/v3"
AUDIT = DATA_DIR + "/audit"
PAPER_DIR = CLAIMS_DIR + "/paper"
PAPER_NUMBERS = PAPER_DIR + "/numbers.json"
CROSSWALK = DATA_DIR + "/crosswalk.json"
# the page text ``nclue export-pages`` writes for each release (outside the release: the text is regenerated)
PAGE_EXPORT_FILES = {"v1": "pages.jsonl", "v2": "pages_v2.jsonl"}


def abspath(root, rel):
    """The file of the release-relative path ``rel`` (always spelled with "/") under ``root``.

    >>> abspath("/release", "data/v1/qrels.jsonl") == os.path.join("/release", "data", "v1", "qrels.jsonl")
    True
    """
    return os.path.join(root, *rel.split("/"))


CORPUS = V1 + "/corpus.jsonl"
CONDITIONS = V1 + "/conditions.jsonl"
INVENTORY = V1 + "/inventory.jsonl"
QUERIES = V1 + "/queries.jsonl"
QRELS = V1 + "/qrels.jsonl"
QRELS_CONSTRUCTION = V1 + "/qrels_construction.jsonl"
GENEALOGY = V1 + "/genealogy.json"
SYSTEMS = V1 + "/systems.json"
BUILD = V1 + "/build.json"
STATS = V1 + "/stats.json"
REPAIRS = V1 + "/repairs.jsonl"
RANKINGS = V1 + "/rankings"
FORMS = V1 + "/rankings/forms"
PAGE_SCORES = V1 + "/page_scores"

V2_CORPUS = V2 + "/corpus.jsonl"
V2_CONDITIONS = V2 + "/conditions.jsonl"
V2_QUERIES = V2 + "/queries.jsonl"
V2_INVENTORY = V2 + "/inventory.jsonl"
V2_QRELS_CONSTRUCTION = V2 + "/qrels_construction.jsonl"
V2_QRELS_S0 = V2 + "/qrels_s0.jsonl"
V2_QRELS = V2 + "/qrels.jsonl"
V2_GENEALOGY = V2 + "/genealogy.json"
V2_SYSTEMS = V2 + "/systems.json"
V2_BUILD = V2 + "/build.json"
V2_STATS = V2 + "/stats.json"
V3_CORPUS = V3 + "/corpus.jsonl"
V3_CONDITIONS = V3 + "/conditions.jsonl"
V3_QUERIES = V3 + "/queries.jsonl"
V3_INVENTORY = V3 + "/inventory.jsonl"
V3_QRELS_CONSTRUCTION = V3 + "/qrels_construction.jsonl"
V3_BUILD = V3 + "/build.json"
V3_QRELS = V3 + "/qrels.jsonl"
V3_AUDIT = V3 + "/audit.jsonl"
V3_GENEALOGY = V3 + "/genealogy.json"
V3_SYSTEMS = V3 + "/systems.json"
V3_RANKINGS = V3 + "/rankings"
V3_PAGE_SCORES = V3 + "/page_scores"
AUDIT_DESCRIPTION = AUDIT + "/audit.json"
AUDIT_STATS = AUDIT + "/stats.json"
AUDIT_DECISIONS = AUDIT + "/decisions.jsonl"
CHALLENGE_DECISIONS = AUDIT + "/challenge_decisions.jsonl"


class QrelCopy(NamedTuple):
    """One qrel copy of a release, as one value (docs/schema.md#genealogyjson): every caller that evaluates
    on a copy, exports it or derives it takes this value, never its file name.

    >>> final = RELEASES[V1].copy("final")
    >>> final.release, final.name, final.parent, final.evaluation_inputs
    ('data/v1', 'final', 'construction', ('data/v1/genealogy.json', 'data/v1/qrels.jsonl'))
    >>> RELEASES[V2].copy("construction").evaluation_inputs, RELEASES[V2].copy("s0").variant(".")
    (('data/v2/qrels_construction.jsonl',), '.s0')
    """
    release: str        # the release directory it belongs to (:data:`V1` or :data:`V2`)
    name: str           # the copy's name in the release's genealogy.json and on the command line (--qrels)
    path: str           # its file
    parent: str         # the name of the copy it is derived from (None: constructed from the inventory)
    decisions: str      # the records that derive it from the parent
    stage: str          # what produced it

    @property
    def genealogy(self):
        """The release's ``genealogy.json``, which records the queries each copy no longer evaluates."""
        return GENEALOGIES[self.release]

    @property
    def evaluation_inputs(self):
        """The files that fix what evaluating on the copy judges, and on which queries: the copy and, for a
        copy after construction, the genealogy (the queries its stage removed).  The construction copy is
        evaluated on every query of the release."""
        return (self.path,) if self.parent is None else (self.genealogy, self.path)

    @property
    def last(self):
        """Whether it is the release's last copy, on which the paper computes the release's tables."""
        return COPIES[self.release][-1] == self

    def variant(self, separator):
        """The suffix that names an output computed on this copy beside the same output on the last copy:
        empty for the last copy, else ``separator`` + its name (``.s0`` for claims, ``_s0`` for table keys)."""
        return "" if self.last else separator + self.name


# The qrel genealogies (docs/schema.md#genealogyjson): each copy is its parent plus the stage's decisions,
# with queries left without a gold removed.  CrossPage (paper section 3.2, supplement 1.1 and 10.4): the
# construction copy P0 and the final copy P after the stratified audit's repairs, on which the paper computes
# its CrossPage tables.  SourceShift (supplement sections 8 and 10.5-10.6): construction, S0, S.
V1_COPIES = (
    QrelCopy(V1, "construction", QRELS_CONSTRUCTION, None, None, "construction (the miner's inventory)"),
    QrelCopy(V1, "final", QRELS, "construction", AUDIT_DECISIONS, "the stratified label audit"),
)
V2_COPIES = (
    QrelCopy(V2, "construction", V2_QRELS_CONSTRUCTION, None, None, "construction (the miner's inventory)"),
    QrelCopy(V2, "s0", V2_QRELS_S0, "construction", AUDIT_DECISIONS, "the stratified label audit"),
    QrelCopy(V2, "s", V2_QRELS, "s0", CHALLENGE_DECISIONS, "the targeted residual-qrel challenge"),
)
# RealPage (docs/realpage.md#the-audit): the construction copy and the final copy after the automatic
# expanded-page audit, on which RealPage's tables are computed
V3_COPIES = (
    QrelCopy(V3, "construction", V3_QRELS_CONSTRUCTION, None, None, "construction (the miner's inventory)"),
    QrelCopy(V3, "final", V3_QRELS, "construction", V3_AUDIT, "the automatic expanded-page audit"),
)
COPIES = {V1: V1_COPIES, V2: V2_COPIES, V3: V3_COPIES}
GENEALOGIES = {V1: GENEALOGY, V2: V2_GENEALOGY, V3: V3_GENEALOGY}


class Release(NamedTuple):
    """One release as one value: its name (``v1``, ``v2``: what ``--release`` and the API say), its title, and
    the files :class:`nclue.core.instrument.Instrument` reads for ``base``."""
    name: str
    title: str
    base: str
    corpus: str
    conditions: str
    inventory: str
    queries: str
    qrels: str          # the last qrel copy, on which the paper computes the release's tables
    systems: str
    genealogy: str
    build: str
    stats: str
    copies: tuple       # the qrel copies (:data:`V1_COPIES`, :data:`V2_COPIES`)
    seed_key: str       # the field of ``build`` that holds the release's seed

    def copy(self, name=None):
        """The qrel copy called ``name`` (its genealogy name: v1 ``construction`` or ``final``, v2
        ``construction``, ``s0`` or ``s``; None: the last copy, on which the paper computes the release's
        tables); None when the release has no such copy.

        >>> RELEASES[V1].copy("construction").path, RELEASES[V2].copy().name, RELEASES[V1].copy("s0")
        ('data/v1/qrels_construction.jsonl', 's', None)
        """
        if name is None:
            return self.copies[-1]
        for copy in self.copies:
            if copy.name == name:
                return copy
        return None

    def copy_in(self, path):
        """The qrel copy whose file is ``path`` (for a caller that starts from a file: ``diagnose``), or None.

        >>> RELEASES[V2].copy_in("data/v2/qrels_s0.jsonl").name, RELEASES[V1].copy_in("data/v2/qrels.jsonl")
        ('s0', None)
        """
        for copy in self.copies:
            if copy.path == path:
                return copy
        return None


RELEASES = {
    V1: Release("v1", "CrossPage", V1, CORPUS, CONDITIONS, INVENTORY, QUERIES, QRELS, SYSTEMS, GENEALOGY, BUILD, STATS,
                V1_COPIES, "seed"),
    V2: Release("v2", "SourceShift", V2, V2_CORPUS, V2_CONDITIONS, V2_INVENTORY, V2_QUERIES, V2_QRELS, V2_SYSTEMS,
                V2_GENEALOGY, V2_BUILD, V2_STATS, V2_COPIES, "shift_seed"),
}
# RealPage, analysed by its own analyses (v3.*: nclue/analyses/realpage_*.py); it is not yet a release that
# `score`, `--release` and the stand-in's analyses take, so it stands beside RELEASES, not in it
V3_RELEASE = Release("v3", "RealPage", V3, V3_CORPUS, V3_CONDITIONS, V3_INVENTORY, V3_QUERIES, V3_QRELS, V3_SYSTEMS,
                     V3_GENEALOGY, V3_BUILD, None, V3_COPIES, "seed")
# every release an instrument can be opened on (nclue.core.instrument.Instrument)
ALL_RELEASES = dict(RELEASES, **{V3: V3_RELEASE})
# a release by the name the command line and the API give it: the one place "v1"/"v2" becomes a release
RELEASE_NAMED = {release.name: release for release in RELEASES.values()}
RELEASE_NAMES = tuple(RELEASE_NAMED)

# every qrel copy's one name, as genealogy.json, the command line and the API call it
COPY_NAMES = tuple(sorted({c.name for copies in (V1_COPIES, V2_COPIES) for c in copies}))


RAW_FORM = "raw"                # the construction text: every system ranks it (the raw-form matrix, Table 5)
SCORECARD_FORM = "clean_v2"     # the released clean semicolon query: the paper's scorecard (Tables 3, 4, 6)
QUERY_FORMS = (RAW_FORM, SCORECARD_FORM, "natural")


class FileKind(NamedTuple):
    pattern: str        # a path, or a pattern where "*" stands for one path segment's variable part
    role: str           # the role recorded in MANIFEST.json
    part: str           # v1 | v2 | v3 | audit | claims | paper
    required: bool      # a present part must contain at least one such file
    docs: str           # where docs/ defines it


FILE_KINDS = (
    FileKind(CORPUS, "corpus", "v1", True, "docs/schema.md#corpusjsonl"),
    FileKind(CONDITIONS, "conditions", "v1", False, "docs/schema.md#conditionsjsonl"),
    FileKind(INVENTORY, "inventory", "v1", True, "docs/schema.md#inventoryjsonl"),
    FileKind(QUERIES, "queries", "v1", True, "docs/schema.md#queriesjsonl"),
    FileKind(QRELS_CONSTRUCTION, "qrels-construction", "v1", True, "docs/schema.md#qrelsjsonl-and-qrels_constructionjsonl"),
    FileKind(GENEALOGY, "genealogy", "v1", True, "docs/schema.md#genealogyjson"),
    FileKind(QRELS, "qrels", "v1", True, "docs/schema.md#qrelsjsonl-and-qrels_constructionjsonl"),
    FileKind(SYSTEMS, "systems", "v1", True, "docs/schema.md#systemsjson"),
    FileKind(BUILD, "build-info", "v1", False, "docs/schema.md#buildjson-and-statsjson"),
    FileKind(STATS, "statistics", "v1", False, "docs/schema.md#buildjson-and-statsjson"),
    FileKind(REPAIRS, "repairs", "v1", False, "docs/schema.md#repairsjsonl"),
    FileKind(FORMS + "/*__*.jsonl", "form-ranking", "v1", False, "docs/schema.md#rankings"),
    FileKind(RANKINGS + "/*.jsonl", "ranking", "v1", True, "docs/schema.md#rankings"),
    FileKind(PAGE_SCORES + "/*.jsonl", "page-scores", "v1", False, "docs/schema.md#page_scores"),
    FileKind(V2_CORPUS, "corpus", "v2", True, "docs/schema.md#sourceshift-datav2"),
    FileKind(V2_CONDITIONS, "conditions", "v2", False, "docs/schema.md#sourceshift-datav2"),
    FileKind(V2_QUERIES, "queries", "v2", True, "docs/schema.md#sourceshift-datav2"),
    FileKind(V2_INVENTORY, "inventory", "v2", True, "docs/schema.md#sourceshift-datav2"),
    FileKind(V2_QRELS_CONSTRUCTION, "qrels-construction", "v2", True, "docs/schema.md#sourceshift-datav2"),
    FileKind(V2_QRELS_S0, "qrels-s0", "v2", True, "docs/schema.md#sourceshift-datav2"),
    FileKind(V2_GENEALOGY, "genealogy", "v2", True, "docs/schema.md#genealogyjson"),
    FileKind(V2_QRELS, "qrels", "v2", True, "docs/schema.md#sourceshift-datav2"),
    FileKind(V2_SYSTEMS, "systems", "v2", True, "docs/schema.md#sourceshift-datav2"),
    FileKind(V2_BUILD, "build-info", "v2", False, "docs/schema.md#buildjson-and-statsjson"),
    FileKind(V2_STATS, "statistics", "v2", False, "docs/schema.md#buildjson-and-statsjson"),
    FileKind(V2 + "/rankings/forms/*__*.jsonl", "form-ranking", "v2", True, "docs/schema.md#rankings"),
    FileKind(V3_CORPUS, "corpus", "v3", True, "docs/schema.md#realpage-datav3"),
    FileKind(V3_CONDITIONS, "conditions", "v3", True, "docs/schema.md#realpage-datav3"),
    FileKind(V3_INVENTORY, "inventory", "v3", True, "docs/schema.md#realpage-datav3"),
    FileKind(V3_QUERIES, "queries", "v3", True, "docs/schema.md#realpage-datav3"),
    FileKind(V3_QRELS_CONSTRUCTION, "qrels-construction", "v3", True, "docs/schema.md#realpage-datav3"),
    FileKind(V3_QRELS, "qrels", "v3", True, "docs/schema.md#realpage-datav3"),
    FileKind(V3_AUDIT, "audit-records", "v3", True, "docs/schema.md#realpage-datav3"),
    FileKind(V3_GENEALOGY, "genealogy", "v3", True, "docs/schema.md#genealogyjson"),
    FileKind(V3_BUILD, "build-info", "v3", True, "docs/schema.md#realpage-datav3"),
    FileKind(V3_SYSTEMS, "systems", "v3", True, "docs/schema.md#realpage-datav3"),
    FileKind(V3_RANKINGS + "/forms/*__*.jsonl", "form-ranking", "v3", False, "docs/schema.md#realpage-datav3"),
    FileKind(V3_RANKINGS + "/*.jsonl", "ranking", "v3", True, "docs/schema.md#realpage-datav3"),
    FileKind(V3_PAGE_SCORES + "/*.jsonl", "page-scores", "v3", True, "docs/schema.md#realpage-datav3"),
    FileKind(AUDIT_DESCRIPTION, "audit-description", "audit", False, "docs/schema.md#the-label-audit-dataaudit"),
    FileKind(AUDIT_STATS, "statistics", "audit", False, "docs/schema.md#buildjson-and-statsjson"),
    FileKind(AUDIT + "/*.jsonl", "audit-records", "audit", True, "docs/schema.md#the-label-audit-dataaudit"),
    FileKind(PAPER_NUMBERS, "paper-numbers", "paper", False, "docs/paper-audit.md"),
    FileKind(CROSSWALK, "crosswalk", "v1", False, "docs/paper-audit.md#the-crosswalk"),
    FileKind(CLAIMS_DIR + "/*.json", "frozen-claims", "claims", True, "docs/claims.md"),
)


def _matches(pattern, rel):
    if "*" not in pattern:
        return rel == pattern
    # "*" never crosses a "/" here: the pattern and the path have the same number of segments
    return pattern.count("/") == rel.count("/") and fnmatchcase(rel, pattern)


def kind_of(rel):
    """The :class:`FileKind` a released path belongs to (first match in table order), or None."""
    for kind in FILE_KINDS:
        if _matches(kind.pattern, rel):
            return kind
    return None


def role_of(rel):
    """The MANIFEST.json role of a released path (``data`` for a path no kind declares)."""
    kind = kind_of(rel)
    return "data" if kind is None else kind.role


def ranking_path(system, form=None, base=V1):
    """Where a system's ranking lives: ``<base>/rankings/<system>.jsonl`` (raw-form matrix) or
    ``<base>/rankings/forms/<system>__<form>.jsonl`` (query-form matrix)."""
    if form is None:
        return "%s/rankings/%s.jsonl" % (base, system)
    return "%s/rankings/forms/%s__%s.jsonl" % (base, system, form)


def page_scores_path(system, base=V1):
    """``<base>/page_scores/<system>.jsonl`` of a page-scored system."""
    return "%s/page_scores/%s.jsonl" % (base, system)


def audit_records_path(name):
    """``data/audit/<name>.jsonl``: one file of the label audit's records."""
    return "%s/%s.jsonl" % (AUDIT, name)


def is_released(rel):
    """Whether ``rel`` lies in a released folder (``data/`` or ``reference_metrics/``)."""
    return rel.split("/", 1)[0] in RELEASE_DIRS and "/" in rel


def claim_file(analysis):
    """``reference_metrics/<analysis>.json``: the frozen claims of one analysis."""
    return "%s/%s.json" % (CLAIMS_DIR, analysis)
