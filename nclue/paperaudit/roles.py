"""What each paper row of the crosswalk is, declared from the paper (docs/paper-audit.md#the-crosswalk).

The crosswalk (``data/crosswalk.json``) says which of an instrument's runs plays each configuration the
paper reports.  This module is the paper's side of that statement, so it can be checked: for every row key
of a system-like namespace, the Table 2 block the paper's configuration belongs to and its operation class
(from Table 3's "Multi-condition operation" column and the tables that name the run); for every row of a
contrast namespace (Table 5's blocks, Table 7's directions, Table S4's contrasts), the rows that play its
base and its variant.

:func:`mismatches` holds a crosswalk against these roles and the instrument's systems.json files: a system
row's run must be of the same Table 2 block and operation class, a contrast row's base and variant must be
the runs the crosswalk gives the paper's base and variant rows.  Two rows swapped (re-signed or not) fail
naming both.

An **operation class** is ``family/detail``: ``joint/and``, ``joint/or``, ``joint/vector`` (one query
vector), ``joint/likelihood``, ``joint`` (a joint query of any kind), ``page/best``, ``page/top3``,
``decomposition/<aggregator>`` (``min``, ``product``, ``harmonic mean``, ``distinct pages``), ``fusion``,
``rerank/text``, ``rerank/page``, ``control``.  A paper role of class ``joint`` accepts any ``joint/*``.

>>> operation_class("condition lists + harmonic mean"), operation_class("rerank page candidates")
('decomposition/harmonic mean', 'rerank/page')
>>> accepts("joint", "joint/or"), accepts("joint/and", "joint/or")
(True, False)
"""

from typing import NamedTuple

AGGREGATORS = ("harmonic mean", "distinct pages", "product", "min")


class SystemRole(NamedTuple):
    block: str           # the Table 2 block of the paper's configuration
    operation: str       # its operation class
    source: str          # where the paper says so


class ContrastRole(NamedTuple):
    base: tuple          # (namespace, row key) of the run playing the base
    variant: tuple       # (namespace, row key) of the run playing the variant
    source: str


_T3 = "Table 3, 'Multi-condition operation' column"
SYSTEMS = {
    "bm25_and": SystemRole("representation", "joint/and", _T3 + ": joint AND query"),
    "bm25_or": SystemRole("representation", "joint/or", "section 3.1: 'On the raw matrix, BM25-OR exceeds BM25-AND'"),
    "bm25_sdr": SystemRole("composition", "decomposition/distinct pages", _T3 + ": condition lists + distinct pages"),
    "jina_joint": SystemRole("representation", "joint/vector", _T3 + ": one query vector"),
    "jina_dec": SystemRole("composition", "decomposition/harmonic mean", _T3 + ": condition lists + harmonic mean"),
    "qwen8b": SystemRole("representation", "joint/vector", _T3 + ": one query vector"),
    "qwen06_dec": SystemRole("composition", "decomposition/product", _T3 + ": condition lists + product"),
    "colqwen": SystemRole("representation", "page/best", _T3 + ": page MaxSim"),
    "colqwen_top3": SystemRole("representation", "page/top3", _T3 + ": average three page scores"),
    "hybrid": SystemRole("complementarity", "fusion", _T3 + ": equal-weight RRF"),
    "bge_base": SystemRole("representation", "joint", _T3 + ": fixed text candidates (a joint text retriever)"),
    "bge_rerank": SystemRole("reranking", "rerank/text", _T3 + ": rerank BGE candidates"),
    "qwen3_text_rerank": SystemRole("reranking", "rerank/text", _T3 + ": rerank BGE candidates"),
    "qwen3vl_rerank": SystemRole("reranking", "rerank/page", _T3 + ": rerank visual candidates"),
}
# the original release's run ids of Tables S2b / S3 name the same configurations
ORIGINAL = {"bm25_and": "bm25_and", "bm25_decompose_sdr": "bm25_sdr", "text_jinav4": "jina_joint",
            "text_qwen3emb8b": "qwen8b", "jinav4_dec_hmean": "jina_dec", "qwen3emb0.6b_dec_product": "qwen06_dec",
            "colqwen2.5": "colqwen", "colqwen2.5_ptop3": "colqwen_top3", "bm25and_colqwen2.5ptop3": "hybrid",
            "bge_m3_joint": "bge_base", "rerank_bge_m3": "bge_rerank", "rerank_qwen3r8b": "qwen3_text_rerank",
            "rerank_qwen3vl8b": "qwen3vl_rerank"}
_DENSE = SystemRole("representation", "joint/vector", "Table S5a: a dense retriever, masked")
MASKS = {"jina": SystemRole("representation", "joint/vector", "Table S5a: Jina-v4 (one query vector)"),
         "qwen06": SystemRole("representation", "joint/vector", "Table S5a / Table 5: Qwen3-Embedding 0.6B joint"),
         "bge": SystemRole("representation", "joint", "Table S5a: BGE-M3, the text reranking pool's base"),
         "e5": _DENSE, "gte": _DENSE}
# Table 8's rows are "the page-scored evidence run" of the two visual rerankers ("For the two visual systems that
# retain page scores", section 4.4; the reranking block's "2B/8B controls", supplement section 2's table): runs of
# their own, not Table 3's Qwen3-VL 8B reranker ranking (docs/paper-audit.md#binding-decisions)
PAGE_RUNS = {"vl2b": SystemRole("reranking", "rerank/page", "Table 8, row 'Qwen3-VL 2B' (the 2B control)"),
             "vl8b": SystemRole("reranking", "rerank/page", "Table 8, row 'Qwen3-VL 8B' (its page-scored evidence "
                                                            "run, apart from Table 3's reranker)")}

_T5 = "Table 5, 'Controlled comparison (base -> variant)'"
BLOCKS = {
    "scale": ContrastRole(("mask", "qwen06"), ("system", "qwen8b"), _T5 + ": Qwen3-Emb. 0.6B -> 8B"),
    "page_aggregation": ContrastRole(("system", "colqwen"), ("system", "colqwen_top3"),
                                     _T5 + ": ColQwen2.5 -> top-3 pages"),
    "lexical_composition": ContrastRole(("system", "bm25_and"), ("system", "bm25_sdr"),
                                        _T5 + ": BM25-AND -> distinct-page dec."),
    "jina_composition": ContrastRole(("system", "jina_joint"), ("system", "jina_dec"),
                                     _T5 + ": Jina joint -> harmonic dec."),
    "qwen_composition": ContrastRole(("mask", "qwen06"), ("system", "qwen06_dec"),
                                     _T5 + ": Qwen 0.6B joint -> product dec."),
    "fusion": ContrastRole(("system", "colqwen_top3"), ("system", "hybrid"), _T5 + ": visual top-3 -> visual+BM25 RRF"),
    "text_reranking": ContrastRole(("system", "bge_base"), ("system", "bge_rerank"), _T5 + ": BGE-M3 -> BGE reranker"),
    "visual_reranking": ContrastRole(("system", "colqwen"), ("system", "qwen3vl_rerank"),
                                     _T5 + ": ColQwen2.5 -> Qwen-VL 8B"),
}
# Table 7 compares the same operations as Table 5 ("Values are variant-minus-base")
DIRECTIONS = {k: BLOCKS[k]._replace(source="Table 7, the same operation as " + BLOCKS[k].source)
              for k in ("page_aggregation", "lexical_composition", "jina_composition", "fusion", "text_reranking",
                        "visual_reranking")}
_S4 = "Table S4, contrast column"
SS_CONTRASTS = {
    "fusion_bm25": ContrastRole(("system", "bm25_and"), ("system", "hybrid"), _S4 + ": Fusion - BM25"),
    "fusion_top3": ContrastRole(("system", "colqwen_top3"), ("system", "hybrid"), _S4 + ": Fusion - visual top-3"),
    "lexical": ContrastRole(("system", "bm25_and"), ("system", "bm25_sdr"), _S4 + ": Lexical decomp. - BM25"),
    "jina": ContrastRole(("system", "jina_joint"), ("system", "jina_dec"), _S4 + ": Jina decomp. - joint"),
    # "The Qwen3 decomposition row compares a 0.6B decomposed run against the stronger 8B joint anchor" (S2b)
    "qwen": ContrastRole(("system", "qwen8b"), ("system", "qwen06_dec"), _S4 + ": Qwen decomp. - joint"),
    "bge": ContrastRole(("system", "bge_base"), ("system", "bge_rerank"), _S4 + ": BGE reranker - joint"),
    "qwenvl": ContrastRole(("system", "colqwen"), ("system", "qwen3vl_rerank"), _S4 + ": Qwen-VL reranker - base"),
    "qwen3r": ContrastRole(("system", "bge_base"), ("system", "qwen3_text_rerank"), _S4 + ": Qwen3 reranker - base"),
}


def _original_disagreements(rows):
    """An ``original`` row (Tables S2b / S3's run ids) must play the run its ``system`` row (Table 3's name for
    the same configuration, :data:`ORIGINAL`) plays, where both are played: a swap names both rows."""
    out = []
    system = rows.get("system", {})
    for key, sid in sorted(rows.get("original", {}).items()):
        same = ORIGINAL.get(key)
        other = system.get(same)
        if sid is not None and other is not None and sid != other:
            out.append("row original / %s plays %s, but row system / %s, the same configuration of the paper "
                       "(Tables S2b and 3), plays %s" % (key, sid, same, other))
    return out


def table2_mismatches(table2, systems):
    """Table 2's blocks as the crosswalk lists them (``table2``: ``({block, stand_in_systems}, ...)``) against the
    instrument's systems.json blocks (``systems``: ``{system id: (block, operation)}``): each listed run must be a
    run of that block, and no run may be listed under two blocks."""
    out, seen = [], {}
    for t in table2:
        for sid in t["stand_in_systems"]:
            if sid in seen:
                out.append("Table 2 lists %s under both block %s and block %s" % (sid, seen[sid], t["block"]))
            seen.setdefault(sid, t["block"])
            if sid in systems and systems[sid][0] != t["block"]:
                out.append("Table 2 block %s lists %s, a run of block %s in systems.json" % (
                    t["block"], sid, systems[sid][0]))
    return out


def system_role(namespace, key):
    """The paper's :class:`SystemRole` of a row of a system-like namespace, or None."""
    if namespace == "system":
        return SYSTEMS.get(key)
    if namespace == "original":
        return SYSTEMS.get(ORIGINAL.get(key))
    if namespace == "mask":
        return MASKS.get(key)
    if namespace == "page_run":
        return PAGE_RUNS.get(key)
    return None


CONTRASTS = {"block": BLOCKS, "direction": DIRECTIONS, "ss_contrast": SS_CONTRASTS}


# the operation classes after the rerankers, in the order they are tried: the first class one of whose
# words the operation text contains (a decomposition is then named by its aggregator)
OPERATION_CLASSES = (
    (("rrf", "fusion"), "fusion"),
    (("condition list",), "decomposition"),
    (("three page", "top-3", "top 3"), "page/top3"),
    (("page max", "maxsim", "best page"), "page/best"),
    (("mask", "oracle", "fact", "prior", "random", "single-page"), "control"),
    (("and query",), "joint/and"),
    (("or query",), "joint/or"),
    (("likelihood",), "joint/likelihood"),
    (("vector",), "joint/vector"),
)


def operation_class(text):
    """The operation class of an instrument's systems.json ``operation`` text (see module doc).

    >>> operation_class("Rerank of the BM25-OR pool by page likelihood"), operation_class("RRF of two runs")
    ('rerank/page', 'fusion')
    >>> operation_class("condition list, harmonic mean"), operation_class("something else")
    ('decomposition/harmonic mean', 'other')
    """
    t = (text or "").lower()
    if "rerank" in t:
        return "rerank/page" if "page" in t or "visual" in t else "rerank/text"
    for words, found in OPERATION_CLASSES:
        if any(word in t for word in words):
            if found == "decomposition":
                return "decomposition/" + next((a for a in AGGREGATORS if a in t), "other")
            return found
    return "other"


def accepts(role_class, found):
    """Does a run of class ``found`` play a paper role of class ``role_class``?"""
    return found == role_class or (role_class == "joint" and found.startswith("joint/"))


def mismatches(rows, systems, contrasts):
    """Problems of a crosswalk against the paper's roles, as messages naming the row (empty: consistent).

    ``rows``: the crosswalk's ``{namespace: {paper key: instrument id or None}}``; ``systems``: the
    instrument's ``{system id: (block, operation text)}`` (both releases' systems.json); ``contrasts``:
    ``{namespace: {instrument contrast id: (base id, [variant ids])}}`` (systems.json ``contrasts``,
    ``directions``, ``source_shift_contrasts``)."""
    out = []
    for ns in ("system", "original", "mask", "page_run"):
        for key, sid in sorted(rows.get(ns, {}).items()):
            role = system_role(ns, key)
            if role is None:
                out.append("row %s / %s: the paper has no such configuration" % (ns, key))
                continue
            if sid is None or sid not in systems:
                continue                       # blocked, or an unknown id (v1.crosswalk reports that)
            block, operation = systems[sid]
            found = operation_class(operation)
            if block != role.block or not accepts(role.operation, found):
                out.append("row %s / %s plays %s, a run of block %s and operation %s (%r); the paper's %s is a "
                           "run of block %s, operation %s (%s)" % (ns, key, sid, block, found, operation, key,
                                                                    role.block, role.operation, role.source))
    out += _original_disagreements(rows)
    for ns, declared in CONTRASTS.items():
        for key, cid in sorted(rows.get(ns, {}).items()):
            role = declared.get(key)
            if role is None:
                out.append("row %s / %s: the paper has no such contrast" % (ns, key))
                continue
            if cid is None or cid not in contrasts.get(ns, {}):
                continue
            base, variants = contrasts[ns][cid]
            want_base = rows.get(role.base[0], {}).get(role.base[1])
            want_variant = rows.get(role.variant[0], {}).get(role.variant[1])
            if want_base is not None and base != want_base:
                out.append("row %s / %s plays %s, whose base is %s; the crosswalk gives the paper's base %s / %s "
                           "to %s (%s)" % (ns, key, cid, base, role.base[0], role.base[1], want_base, role.source))
            if want_variant is not None and want_variant not in variants:
                out.append("row %s / %s plays %s, whose variants are %s; the crosswalk gives the paper's variant "
                           "%s / %s to %s (%s)" % (ns, key, cid, ", ".join(variants), role.variant[0], role.variant[1],
                                                   want_variant, role.source))
    return out
