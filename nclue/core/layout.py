"""The declared shape of a release: every release, its files and its query forms, once (docs/schema.md).

A :class:`Release` is one value per release (``v1`` CrossPage, ``v2`` SourceShift, ``v3`` RealPage): its name,
folder, title, nature, qrel copies with their genealogy, the files it ships (:class:`ReleaseFile`: a name under
its folder, the role MANIFEST.json records, whether a present release must contain one, the page of ``docs/``
that defines its fields), where its systems' rankings live, and what it can serve (:data:`CAPABILITIES`).
Every released path and every :class:`FileKind` row is derived from these declarations; loaders, the
instrument, the analyses, ``freeze`` (roles), the commands and the documentation all read them.

A :class:`QueryForm` is one value per query form (:data:`RAW`, :data:`CLEAN`, :data:`NATURAL`).

>>> role_of("data/v1/rankings/bm25_and.jsonl"), role_of("data/v1/rankings/forms/bm25_and__raw.jsonl")
('ranking', 'form-ranking')
>>> role_of("reference_metrics/v1.matrix.json"), role_of("data/v1/qrels.jsonl")
('frozen-claims', 'qrels')
>>> REALPAGE.form_ranking("bm25_and", RAW) == REALPAGE.ranking("bm25_and") == "data/v3/rankings/bm25_and.jsonl"
True
>>> CROSSPAGE.form_ranking("bm25_and", RAW), SOURCESHIFT.form_ranking("bm25_and", CLEAN)
('data/v1/rankings/forms/bm25_and__raw.jsonl', 'data/v2/rankings/forms/bm25_and__clean_v2.jsonl')
"""

from __future__ import annotations

import os
from fnmatch import fnmatchcase
from typing import Any, NamedTuple

DATA_DIR = "data"
CLAIMS_DIR = "reference_metrics"
RELEASE_DIRS = (DATA_DIR, CLAIMS_DIR)      # the released folders; nothing but the builder and freeze writes here
AUDIT = DATA_DIR + "/audit"
AUDIT_PART = "audit"        # the label audit's part (its files' FileKind part, its analyses' claims)
PAPER_DIR = CLAIMS_DIR + "/paper"
PAPER_NUMBERS = PAPER_DIR + "/numbers.json"
CROSSWALK = DATA_DIR + "/crosswalk.json"


def abspath(root: str, rel: str) -> str:
    """The file of the release-relative path ``rel`` (always spelled with "/") under ``root``.

    >>> abspath("/release", "data/v1/qrels.jsonl") == os.path.join("/release", "data", "v1", "qrels.jsonl")
    True
    """
    return os.path.join(root, *rel.split("/"))


# -- query forms (paper section 3.2, supplement Table S2b; docs/schema.md#queriesjsonl)

class QueryForm(NamedTuple):
    """One query form: ``key`` is its name in ``queries.jsonl``'s ``forms``, in ranking file names and in claim
    ids; ``label`` how the paper's tables name it."""
    key: str
    label: str
    meaning: str


RAW = QueryForm("raw", "raw", "the construction text: each condition's mined surface; every system ranks it "
                              "(the raw-form matrix, Table 5)")
CLEAN = QueryForm("clean_v2", "clean", "each condition's label quoted, separated by semicolons: the paper's "
                                       "scorecard form (Tables 3, 4, 6)")
NATURAL = QueryForm("natural", "natural", "the labels in one natural-language request (Table S2b)")
QUERY_FORMS = (RAW, CLEAN, NATURAL)
FORM_KEYS = tuple(form.key for form in QUERY_FORMS)
FORM_NAMED = {form.key: form for form in QUERY_FORMS}


def query_form(form: QueryForm) -> QueryForm:
    """The :class:`QueryForm` ``form`` names: a form itself, or its key as the command line and the API give it;
    an unknown key is a :class:`ValueError` naming the forms.

    >>> query_form("clean_v2") is CLEAN, query_form(NATURAL) is NATURAL
    (True, True)
    """
    if isinstance(form, QueryForm):
        return form
    found = FORM_NAMED.get(form)
    if found is None:
        raise ValueError("unknown query form %r (forms: %s)" % (form, ", ".join(FORM_KEYS)))
    return found


# -- releases

class ReleaseFile(NamedTuple):
    """One kind of file a release ships: ``name`` under the release's folder ("*" stands for one path segment's
    variable part), the ``role`` MANIFEST.json records, whether a present release must ship one, and where
    docs/ defines it."""
    name: str
    role: str
    required: bool
    docs: str


class FileKind(NamedTuple):
    pattern: str        # a path, or a pattern where "*" stands for one path segment's variable part
    role: str           # the role recorded in MANIFEST.json
    part: str           # v1 | v2 | v3 | audit | claims | paper
    required: bool      # a present part must contain at least one such file
    docs: str           # where docs/ defines it


class QrelCopy(NamedTuple):
    """One qrel copy of a release, as one value (docs/schema.md#genealogyjson): every caller that evaluates
    on a copy, exports it or derives it takes this value, never its file name.

    >>> final = CROSSPAGE.copy("final")
    >>> final.release, final.name, final.parent, final.evaluation_inputs
    ('data/v1', 'final', 'construction', ('data/v1/genealogy.json', 'data/v1/qrels.jsonl'))
    >>> SOURCESHIFT.copy("construction").evaluation_inputs, SOURCESHIFT.copy("s0").variant(".")
    (('data/v2/qrels_construction.jsonl',), '.s0')
    """
    release: str        # the release's folder (``data/v1``, ``data/v2``, ``data/v3``)
    name: str           # the copy's name in the release's genealogy.json and on the command line (--qrels)
    path: str           # its file
    parent: str | None  # the name of the copy it is derived from (None: constructed from the inventory)
    decisions: str | None  # the records that derive it from the parent
    stage: str          # what produced it
    # the rule by which the stage removes queries, as Table S14's statistic names it: the stratified audit and
    # the challenge remove the queries left without a gold; RealPage's audit removes dropped, gated and capped ones
    removal: str = "zero_gold_queries_removed"

    @property
    def genealogy(self) -> str:
        """The release's ``genealogy.json``, which records the queries each copy no longer evaluates."""
        return RELEASES[self.release].genealogy

    @property
    def evaluation_inputs(self) -> tuple[Any, ...]:
        """The files that fix what evaluating on the copy judges, and on which queries: the copy and, for a
        copy after construction, the genealogy (the queries its stage removed).  The construction copy is
        evaluated on every query of the release."""
        return (self.path,) if self.parent is None else (self.genealogy, self.path)

    @property
    def last(self) -> bool:
        """Whether it is the release's last copy, on which the paper computes the release's tables."""
        return RELEASES[self.release].copies[-1] == self

    def variant(self, separator: str) -> str:
        """The suffix that names an output computed on this copy beside the same output on the last copy:
        empty for the last copy, else ``separator`` + its name (``.s0`` for claims, ``_s0`` for table keys)."""
        return "" if self.last else separator + self.name


# What a release can serve, beyond scoring (every release scores runs, re-runs and exports its qrels):
# where ``export-pages`` and a rebuild get its page text, whether it ships the raw-form matrix (every system's
# raw-form ranking in ``rankings/``, Table 5's), whether its rankings come from the synthetic stand-in's own
# simulation (the stand-in-only analyses: the simulated label audit's impact, the stand-in's miner), and whether
# it is real documents on which the paper's Table 5 is replicated (docs/realpage.md#the-replication).
TEXT_FROM_SEEDS = "text-from-seeds"           # page text regenerated from the build's seeds (the stand-in)
TEXT_FROM_PACKAGES = "text-from-packages"     # page text read from the pinned doc-rfc packages (RealPage)
RAW_MATRIX = "raw-matrix"                     # rankings/<system>.jsonl: every system on the raw form
SIMULATED = "simulated"                       # a synthetic stand-in built from seeds (its numbers are its own)
REPLICATES_PAPER = "replicates-paper"         # real documents: the paper's Table 5 rows are replicated on it
SOURCED_QUERIES = "sourced-queries"           # every query names the source it was built from (SourceShift)
CAPABILITIES = (TEXT_FROM_SEEDS, TEXT_FROM_PACKAGES, RAW_MATRIX, SIMULATED, REPLICATES_PAPER, SOURCED_QUERIES)


SYNTHETIC_NATURE, REAL_NATURE = "synthetic", "real"      # MANIFEST.json's natures: what a release's documents are


class Release(NamedTuple):
    """One release as one value: its name (``v1``, ``v2``, ``v3``: what ``--release`` and the API say), title,
    folder, nature (``synthetic`` or ``real``, as MANIFEST.json's ``natures`` records it), the files it ships,
    its qrel copies in genealogy order (the last is the one the paper computes the release's tables on), the
    field of MANIFEST.json's ``generator`` that holds its build's seed, the page-text export's file name, whether the query-form
    rankings keep a copy of the raw form (``rankings/forms/<system>__raw.jsonl``) and what it can serve
    (:data:`CAPABILITIES`)."""
    name: str
    title: str
    base: str
    nature: str
    files: tuple
    copies: tuple
    seed_key: str
    pages_export: str
    raw_form_copy: bool
    capabilities: frozenset

    def file(self, role: str) -> str | None:
        """The released path of the file whose role is ``role`` (None when the release ships none)."""
        for entry in self.files:
            if entry.role == role and "*" not in entry.name:
                return self.base + "/" + entry.name
        return None

    def shipped(self, role: str) -> str:
        """The released path of a file every release ships (its corpus, conditions, inventory, queries, systems,
        genealogy and build record); a release declared without one is a defect of this module."""
        path = self.file(role)
        if path is None:
            raise ValueError("release %s declares no %s file" % (self.base, role))
        return path

    @property
    def corpus(self) -> str:
        return self.shipped("corpus")

    @property
    def conditions(self) -> str:
        return self.shipped("conditions")

    @property
    def inventory(self) -> str:
        return self.shipped("inventory")

    @property
    def queries(self) -> str:
        return self.shipped("queries")

    @property
    def systems(self) -> str:
        return self.shipped("systems")

    @property
    def genealogy(self) -> str:
        return self.shipped("genealogy")

    @property
    def build(self) -> str:
        return self.shipped("build-info")

    @property
    def stats(self) -> str | None:
        return self.file("statistics")

    @property
    def neural(self) -> str | None:
        return self.file("neural-build")        # the dense runs' build record (v3)

    @property
    def ocr_gate(self) -> str | None:
        return self.file("ocr-gate")          # the pre-gate collection's OCR record (v2)

    @property
    def audit_records(self) -> str | None:
        return self.file("audit-records")     # an automatic audit's findings (v3)

    @property
    def qrels(self) -> str:  # the last qrel copy, on which the tables are computed
        return self.copies[-1].path

    def can(self, capability: str) -> bool:
        """Whether the release declares ``capability`` (one of :data:`CAPABILITIES`)."""
        if capability not in CAPABILITIES:
            raise ValueError("unknown capability %r" % (capability,))
        return capability in self.capabilities

    @property
    def evaluation_inputs(self) -> list[Any]:
        """The files every evaluation on the last copy reads: the documents, the conditions and queries, and
        the last copy with the genealogy that says which queries its stages removed."""
        return [p for p in (self.corpus, self.conditions, self.queries) if p] + list(self.copies[-1].evaluation_inputs)

    def ranking(self, system: str) -> str:
        """``<base>/rankings/<system>.jsonl``: the system's raw-form ranking (the raw-form matrix)."""
        return "%s/rankings/%s.jsonl" % (self.base, system)

    def form_ranking(self, system: str, form: QueryForm) -> str:
        """Where the release keeps the system's ranking of query form ``form`` (a :class:`QueryForm`):
        ``<base>/rankings/forms/<system>__<form>.jsonl``, except the raw form of a release that keeps no copy
        of it there, whose raw column is the raw-form matrix's ranking."""
        form = query_form(form)
        if form == RAW and not self.raw_form_copy:
            return self.ranking(system)
        return "%s/rankings/forms/%s__%s.jsonl" % (self.base, system, form.key)

    def page_scores(self, system: str) -> str:
        """``<base>/page_scores/<system>.jsonl`` of a page-scored system."""
        return "%s/page_scores/%s.jsonl" % (self.base, system)

    def kinds(self) -> tuple[Any, ...]:
        """The :class:`FileKind` rows of the release's files."""
        return tuple(FileKind(self.base + "/" + f.name, f.role, self.name, f.required, f.docs) for f in self.files)

    def copy(self, name: str | None = None) -> QrelCopy | None:
        """The qrel copy called ``name`` (its genealogy name: v1 ``construction`` or ``final``, v2
        ``construction``, ``s0`` or ``s``; None: the last copy, on which the paper computes the release's
        tables); None when the release has no such copy.

        >>> CROSSPAGE.copy("construction").path, SOURCESHIFT.copy().name, CROSSPAGE.copy("s0")
        ('data/v1/qrels_construction.jsonl', 's', None)
        """
        if name is None:
            return self.copies[-1]
        for copy in self.copies:
            if copy.name == name:
                return copy
        return None

    def copy_in(self, path: Any) -> Any:
        """The qrel copy whose file is ``path`` (for a caller that starts from a file: ``diagnose``), or None.

        >>> SOURCESHIFT.copy_in("data/v2/qrels_s0.jsonl").name, CROSSPAGE.copy_in("data/v2/qrels.jsonl")
        ('s0', None)
        """
        for copy in self.copies:
            if copy.path == path:
                return copy
        return None


_SCHEMA = "docs/schema.md#"
_QRELS_DOC = _SCHEMA + "qrelsjsonl-and-qrels_constructionjsonl"
_BUILD_DOC = _SCHEMA + "buildjson-and-statsjson"
V1, V2, V3 = DATA_DIR + "/v1", DATA_DIR + "/v2", DATA_DIR + "/v3"
AUDIT_DECISIONS = AUDIT + "/decisions.jsonl"
CHALLENGE_DECISIONS = AUDIT + "/challenge_decisions.jsonl"

# CrossPage (paper section 3.2, supplement 1.1 and 10.4): the construction copy P0 and the final copy P after
# the stratified audit's repairs, on which the paper computes its CrossPage tables
CROSSPAGE = Release(
    "v1", "CrossPage", V1, SYNTHETIC_NATURE, (
        ReleaseFile("corpus.jsonl", "corpus", True, _SCHEMA + "corpusjsonl"),
        ReleaseFile("conditions.jsonl", "conditions", False, _SCHEMA + "conditionsjsonl"),
        ReleaseFile("inventory.jsonl", "inventory", True, _SCHEMA + "inventoryjsonl"),
        ReleaseFile("queries.jsonl", "queries", True, _SCHEMA + "queriesjsonl"),
        ReleaseFile("qrels_construction.jsonl", "qrels-construction", True, _QRELS_DOC),
        ReleaseFile("genealogy.json", "genealogy", True, _SCHEMA + "genealogyjson"),
        ReleaseFile("qrels.jsonl", "qrels", True, _QRELS_DOC),
        ReleaseFile("systems.json", "systems", True, _SCHEMA + "systemsjson"),
        ReleaseFile("build.json", "build-info", False, _BUILD_DOC),
        ReleaseFile("stats.json", "statistics", False, _BUILD_DOC),
        ReleaseFile("repairs.jsonl", "repairs", False, _SCHEMA + "repairsjsonl"),
        ReleaseFile("rankings/forms/*__*.jsonl", "form-ranking", False, _SCHEMA + "rankings"),
        ReleaseFile("rankings/*.jsonl", "ranking", True, _SCHEMA + "rankings"),
        ReleaseFile("page_scores/*.jsonl", "page-scores", False, _SCHEMA + "page_scores")),
    (QrelCopy(V1, "construction", V1 + "/qrels_construction.jsonl", None, None, "construction (the miner's inventory)"),
     QrelCopy(V1, "final", V1 + "/qrels.jsonl", "construction", AUDIT_DECISIONS, "the stratified label audit")),
    "seed", "pages.jsonl", True, frozenset({TEXT_FROM_SEEDS, RAW_MATRIX, SIMULATED}))

# SourceShift (supplement sections 8 and 10.5-10.6): construction, S0 after the stratified audit, S after the
# targeted residual-qrel challenge
_V2_DOC = _SCHEMA + "sourceshift-datav2"
SOURCESHIFT = Release(
    "v2", "SourceShift", V2, SYNTHETIC_NATURE, (
        ReleaseFile("corpus.jsonl", "corpus", True, _V2_DOC),
        ReleaseFile("conditions.jsonl", "conditions", False, _V2_DOC),
        ReleaseFile("queries.jsonl", "queries", True, _V2_DOC),
        ReleaseFile("inventory.jsonl", "inventory", True, _V2_DOC),
        ReleaseFile("qrels_construction.jsonl", "qrels-construction", True, _V2_DOC),
        ReleaseFile("qrels_s0.jsonl", "qrels-s0", True, _V2_DOC),
        ReleaseFile("genealogy.json", "genealogy", True, _SCHEMA + "genealogyjson"),
        ReleaseFile("qrels.jsonl", "qrels", True, _V2_DOC),
        ReleaseFile("systems.json", "systems", True, _V2_DOC),
        ReleaseFile("build.json", "build-info", False, _BUILD_DOC),
        ReleaseFile("stats.json", "statistics", False, _BUILD_DOC),
        ReleaseFile("provenance/ocr_gate.json", "ocr-gate", False, _SCHEMA + "provenanceocr_gatejson"),
        ReleaseFile("rankings/forms/*__*.jsonl", "form-ranking", True, _SCHEMA + "rankings")),
    (QrelCopy(V2, "construction", V2 + "/qrels_construction.jsonl", None, None, "construction (the miner's inventory)"),
     QrelCopy(V2, "s0", V2 + "/qrels_s0.jsonl", "construction", AUDIT_DECISIONS, "the stratified label audit"),
     QrelCopy(V2, "s", V2 + "/qrels.jsonl", "s0", CHALLENGE_DECISIONS, "the targeted residual-qrel challenge")),
    "shift_seed", "pages_v2.jsonl", True, frozenset({TEXT_FROM_SEEDS, SIMULATED, SOURCED_QUERIES}))

# RealPage (docs/realpage.md): real RFC pages; the construction copy and the final copy after the automatic
# expanded-page audit, on which RealPage's tables are computed; the raw column of the query-form matrix is the
# raw-form matrix's ranking (no second copy)
_V3_DOC = _SCHEMA + "realpage-datav3"
REALPAGE = Release(
    "v3", "RealPage", V3, REAL_NATURE, (
        ReleaseFile("corpus.jsonl", "corpus", True, _V3_DOC),
        ReleaseFile("conditions.jsonl", "conditions", True, _V3_DOC),
        ReleaseFile("inventory.jsonl", "inventory", True, _V3_DOC),
        ReleaseFile("queries.jsonl", "queries", True, _V3_DOC),
        ReleaseFile("qrels_construction.jsonl", "qrels-construction", True, _V3_DOC),
        ReleaseFile("qrels.jsonl", "qrels", True, _V3_DOC),
        ReleaseFile("audit.jsonl", "audit-records", True, _V3_DOC),
        ReleaseFile("genealogy.json", "genealogy", True, _SCHEMA + "genealogyjson"),
        ReleaseFile("build.json", "build-info", True, _V3_DOC),
        ReleaseFile("systems.json", "systems", True, _V3_DOC),
        ReleaseFile("neural.json", "neural-build", False, _V3_DOC),
        ReleaseFile("rankings/forms/*__*.jsonl", "form-ranking", False, _V3_DOC),
        ReleaseFile("rankings/*.jsonl", "ranking", True, _V3_DOC),
        ReleaseFile("page_scores/*.jsonl", "page-scores", True, _V3_DOC)),
    (QrelCopy(V3, "construction", V3 + "/qrels_construction.jsonl", None, None, "construction (the miner's inventory)"),
     QrelCopy(V3, "final", V3 + "/qrels.jsonl", "construction", V3 + "/audit.jsonl",
              "the automatic expanded-page audit", "queries_removed")),
    "realpage_seed", "pages_v3.jsonl", False, frozenset({TEXT_FROM_PACKAGES, RAW_MATRIX, REPLICATES_PAPER}))

# every release, by its folder and by the name the command line and the API give it
RELEASES = {release.base: release for release in (CROSSPAGE, SOURCESHIFT, REALPAGE)}
RELEASE_NAMED = {release.name: release for release in RELEASES.values()}
RELEASE_NAMES = tuple(RELEASE_NAMED)
# every qrel copy's one name, as genealogy.json, the command line and the API call it
COPY_NAMES = tuple(sorted({c.name for release in RELEASES.values() for c in release.copies}))


def releases_with(capability: str) -> tuple[Any, ...]:
    """The releases that declare ``capability``, in declaration order."""
    return tuple(release for release in RELEASES.values() if release.can(capability))


# the released paths the code names, derived from the declarations above (CrossPage's, SourceShift's, RealPage's)
CORPUS, CONDITIONS, INVENTORY, QUERIES = (CROSSPAGE.corpus, CROSSPAGE.conditions, CROSSPAGE.inventory,
                                          CROSSPAGE.queries)
QRELS, QRELS_CONSTRUCTION = CROSSPAGE.copies[-1].path, CROSSPAGE.copies[0].path
GENEALOGY, SYSTEMS, BUILD, STATS = CROSSPAGE.genealogy, CROSSPAGE.systems, CROSSPAGE.build, CROSSPAGE.stats
REPAIRS = CROSSPAGE.shipped("repairs")
V2_CORPUS, V2_CONDITIONS, V2_QUERIES, V2_INVENTORY = (SOURCESHIFT.corpus, SOURCESHIFT.conditions,
                                                      SOURCESHIFT.queries, SOURCESHIFT.inventory)
V2_QRELS_CONSTRUCTION, V2_QRELS_S0, V2_QRELS = (c.path for c in SOURCESHIFT.copies)
V2_GENEALOGY, V2_SYSTEMS, V2_BUILD, V2_STATS = (SOURCESHIFT.genealogy, SOURCESHIFT.systems, SOURCESHIFT.build,
                                                SOURCESHIFT.stats)
AUDIT_DESCRIPTION = AUDIT + "/audit.json"
AUDIT_STATS = AUDIT + "/stats.json"


FILE_KINDS = tuple(kind for release in RELEASES.values() for kind in release.kinds()) + (
    FileKind(AUDIT_DESCRIPTION, "audit-description", AUDIT_PART, False, _SCHEMA + "the-label-audit-dataaudit"),
    FileKind(AUDIT_STATS, "statistics", AUDIT_PART, False, _BUILD_DOC),
    FileKind(AUDIT + "/*.jsonl", "audit-records", AUDIT_PART, True, _SCHEMA + "the-label-audit-dataaudit"),
    FileKind(PAPER_NUMBERS, "paper-numbers", "paper", False, "docs/paper-audit.md"),
    FileKind(CROSSWALK, "crosswalk", "v1", False, "docs/paper-audit.md#the-crosswalk"),
    FileKind(CLAIMS_DIR + "/*.json", "frozen-claims", "claims", True, "docs/claims.md"),
)


def _matches(pattern: str, rel: str) -> bool:
    if "*" not in pattern:
        return rel == pattern
    # "*" never crosses a "/" here: the pattern and the path have the same number of segments
    return pattern.count("/") == rel.count("/") and fnmatchcase(rel, pattern)


def kind_of(rel: str) -> FileKind | None:
    """The :class:`FileKind` a released path belongs to (first match in table order), or None."""
    for kind in FILE_KINDS:
        if _matches(kind.pattern, rel):
            return kind
    return None


def role_of(rel: str) -> str:
    """The MANIFEST.json role of a released path (``data`` for a path no kind declares)."""
    kind = kind_of(rel)
    return "data" if kind is None else kind.role


def audit_records_path(name: str) -> str:
    """``data/audit/<name>.jsonl``: one file of the label audit's records."""
    return "%s/%s.jsonl" % (AUDIT, name)


def is_released(rel: Any) -> Any:
    """Whether ``rel`` lies in a released folder (``data/`` or ``reference_metrics/``)."""
    return rel.split("/", 1)[0] in RELEASE_DIRS and "/" in rel


def claim_file(analysis: str) -> str:
    """``reference_metrics/<analysis>.json``: the frozen claims of one analysis."""
    return "%s/%s.json" % (CLAIMS_DIR, analysis)
