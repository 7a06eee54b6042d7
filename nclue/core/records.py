"""Validated in-memory records of an instrument (docs/schema.md).

Loaders (:mod:`nclue.core.loaders`) turn files into these; everything downstream
(construction check, metrics, statistics) reads only these records.
"""

from typing import Dict, NamedTuple, Optional, Tuple


class Condition(NamedTuple):
    cid: str
    kind: str            # "section" | "entity"
    label: str
    aliases: Tuple[str, ...] = ()
    topic: str = ""


class Document(NamedTuple):
    docid: str
    source: str
    pages: int
    synthetic: bool
    topic: str = ""
    title: str = ""


class PageSource(NamedTuple):
    """Where a document of real pages comes from (RealPage): the package holding its text, and each page's
    SHA-256 in page order."""
    package: str
    hashes: Tuple[str, ...]


class InventoryRow(NamedTuple):
    docid: str
    cid: str
    pages: Tuple[int, ...]


class QueryCondition(NamedTuple):
    cid: str
    kind: str
    label: str


class Query(NamedTuple):
    qid: str
    n: int
    conditions: Tuple[QueryCondition, ...]
    forms: Dict[str, str]
    source: str = ""         # SourceShift: the source the query was constructed in


class RankingRow(NamedTuple):
    qid: str
    docids: Tuple[str, ...]
    scores: Tuple[float, ...]


class PageScoreRow(NamedTuple):
    qid: str
    docid: str
    pages: Tuple[Tuple[int, float], ...]   # best first


class System(NamedTuple):
    id: str
    family: str
    block: str
    operation: str
    base: Optional[str]
    fair: bool
    description: str
    page_scored: bool = False


class SystemLists(NamedTuple):
    """systems.json's lists beside its systems, each validated once (docs/schema.md#systemsjson): the blocked
    configurations (``{id, reason}``), the query-form matrix's systems, the controlled blocks (``{block, base,
    variants}``), and SourceShift's contrasts and Table 7's directions (``{id, variant, base}``)."""
    blocked: list
    form_systems: list
    contrasts: list
    source_shift_contrasts: list
    directions: list


class Repair(NamedTuple):
    qid: str
    docid: str
    grade_before: int
    grade_after: int


class CopyStage(NamedTuple):
    """One qrel copy of data/v2/genealogy.json (docs/schema.md#genealogyjson)."""
    copy: str
    path: str
    parent: Optional[str]
    decisions: Optional[str]
    removed_queries: Tuple[str, ...]     # queries (and their qrels) removed at this stage: no gold left
    queries: int                         # evaluation queries of this copy
    rows: int                            # qrel rows of this copy
    grades_changed: int                  # pairs whose grade this stage changed (0 for construction)
