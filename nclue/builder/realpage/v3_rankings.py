"""RealPage's rankings: the stand-in's standard-library systems run over the sampled RFCs' real page text
(docs/realpage.md#the-rankings; paper section 3.3).

The systems, their parameters and their schedule are the stand-in's, declared once in
:mod:`nclue.retrieval.systems`; only the text differs.  The index is built from the same pages the miner read
(form-feed pages, header and footer stripped, NFKC: :mod:`.pages`), tokenised as every lexical system
tokenises (:func:`nclue.retrieval.text.tokens`).  Every system runs each query in its raw form (the acronym of a
defined condition, the title of a section condition), with one text per condition for the condition-wise
systems; the thirteen query-form systems also run the clean and natural forms (the condition labels: the
spelled acronym with its long form, the section title), as the stand-in's do.
The controls read the released inventory, as the stand-in's do.  Nothing here was tuned on RealPage: no
parameter was chosen by looking at a ranking or a score.
"""

from ...core import layout
from ...retrieval import dense_systems as declared
from ...retrieval import systems
from ...retrieval.index import build_corpus
from ...retrieval.text import tokens
from ..rankings import peak_memory, ranked_files

# the further forms the query-form systems rank beside the raw form every system ranks
# (docs/realpage.md#the-rankings); their raw column is their raw-form ranking (no second copy)
FORMS = tuple(form for form in layout.QUERY_FORMS if form != layout.RAW)


def systems_record(dense=False):
    """``data/v3/systems.json``: the stand-in's systems and blocks, declared over real pages, and with ``dense``
    the dense systems of :mod:`nclue.retrieval.dense_systems` and their blocks after them."""
    note = ("The stand-in's standard-library systems (nclue/retrieval/), unchanged, run over the sampled RFCs' real "
            "page text; every system on the raw query form, the form systems on the clean and natural forms too.")
    if not dense:
        return {"synthetic": False, "note": note, "systems": [s.as_json() for s in systems.SYSTEMS],
                "form_systems": list(systems.FORM_SYSTEMS), "contrasts": systems.CONTRASTS,
                "blocked": systems.BLOCKED}
    return {"synthetic": False,
            "note": note + " The 'dense' systems are one real sentence embedder (all-MiniLM-L6-v2) over the same "
                           "pages, playing the paper's neural configurations (neural.json; docs/realpage.md#neural); "
                           "a dense block's 'plays' names the paper's Table 5 row it replicates.",
            "systems": [s.as_json() for s in systems.SYSTEMS] + [dict(s) for s in declared.SYSTEMS],
            "form_systems": list(systems.FORM_SYSTEMS) + list(declared.FORM_SYSTEMS),
            "contrasts": systems.CONTRASTS + declared.CONTRASTS, "blocked": systems.BLOCKED}


def rank(pages_of, docids, catalog, inventory, queries, seed, log=print):
    """``(release path, rows)``, one file at a time (the writer streams them): every system's raw ranking, the
    page scores of the page-scored systems and the query-form systems' clean and natural rankings
    (:data:`FORMS`), in the order the stand-in's builder runs them (:func:`nclue.retrieval.systems.build_order`),
    each resource forgotten after its last user.  ``pages_of``: ``{docid: [page text]}`` of the sampled RFCs,
    emptied as the index takes each RFC's bags of words (the text is not needed after it)."""
    corpus = build_corpus(docids, ((d, pages_of.pop(d)) for d in docids), tokens)
    log("realpage index: %d documents, %d pages, %d terms%s" % (
        corpus.docs.n, corpus.page_index.n, len(corpus.docs.postings), peak_memory()))
    return ranked_files(corpus, inventory, seed, queries, catalog, layout.REALPAGE, FORMS, log=log, label="realpage ranked")
