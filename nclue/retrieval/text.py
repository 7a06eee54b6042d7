"""Tokenisation and query parsing shared by every lexical system.

* Tokens: lower-cased maximal runs of ``[a-z0-9]`` (so ``COVID-19`` -> ``covid``,
  ``19``); the 33 English stop words of Lucene's ``EnglishAnalyzer`` are dropped.
* Query parsing (one rule for every form): double-quoted spans are *concepts*
  that must all match (a concept matches a document that contains every one of
  its tokens -- a term-set match, there is no positional index); words outside
  quotes are optional terms.  A query with no quotes makes every token its own
  required concept (a plain AND of terms).

>>> tokens("The COVID-19 report, 2020")
['covid', '19', 'report', '2020']
>>> parse('Find the document that discusses "Executive Summary" and "Sanctions".')
([('executive', 'summary'), ('sanctions',)], ('find', 'document', 'discusses'))
>>> parse('executive summary sanctions')
([('executive',), ('summary',), ('sanctions',)], ())
"""

import re

STOPWORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then "
    "there these they this to was will with".split())

_TOKEN = re.compile(r"[a-z0-9]+")
_QUOTED = re.compile(r'"([^"]*)"')


def tokens(text):
    return [t for t in _TOKEN.findall(text.lower()) if t not in STOPWORDS]


def _unique(seq):
    seen, out = set(), []
    for t in seq:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


def parse(text):
    """``(required concepts as token tuples, optional tokens)``; see module doc."""
    spans = _QUOTED.findall(text)
    if spans:
        concepts = []
        for span in spans:
            toks = tuple(_unique(tokens(span)))
            if toks and toks not in concepts:
                concepts.append(toks)
        required = {t for c in concepts for t in c}
        outside = _QUOTED.sub(" ", text)
        optional = tuple(t for t in _unique(tokens(outside)) if t not in required)
        return concepts, optional
    return [(t,) for t in _unique(tokens(text))], ()


def query_terms(text):
    """All distinct tokens of a parsed query: required concepts first, then optional."""
    concepts, optional = parse(text)
    return _unique([t for c in concepts for t in c] + list(optional))
