"""Golden valid and invalid fixtures for every loader (``tests/fixtures/loaders/<kind>/``).

One small file per case.  A valid case ``valid/<name>.<ext>`` has ``<name>.expect.json``: what the loader
must return (in a small normal form).  An invalid case ``invalid/<name>.<ext>`` has ``<name>.expect``: the
message the loader must raise after the file's own path (``path:line: field 'x': ...``).  The loaders read
the small context in ``context/`` (3 documents, 3 conditions, 2 queries).  Every kind must have cases: an
empty folder fails instead of passing silently.
"""

import glob
import json
import os

import pytest

from nclue.core import loaders
from nclue.core.errors import InputError
from nclue.core.trec import read_trec_run

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "loaders")


def _context():
    corpus = loaders.load_corpus(FIXTURES, "context/corpus.jsonl")
    conditions = loaders.load_conditions(FIXTURES, "context/conditions.jsonl")
    queries = loaders.load_queries(FIXTURES, "context/queries.jsonl", conditions)
    qrels = loaders.load_qrels(FIXTURES, "context/qrels.jsonl", queries, corpus)
    return corpus, conditions, queries, qrels


CORPUS, CONDITIONS, QUERIES, QRELS = _context()

# kind -> (extension, load(rel) -> records, normal form of the records for the .expect.json comparison)
KINDS = {
    "corpus": ("jsonl", lambda rel: loaders.load_corpus(FIXTURES, rel),
               lambda out: {d: doc.pages for d, doc in out.items()}),
    "conditions": ("jsonl", lambda rel: loaders.load_conditions(FIXTURES, rel),
                   lambda out: {c: cond.kind for c, cond in out.items()}),
    "inventory": ("jsonl", lambda rel: loaders.load_inventory(FIXTURES, rel, CORPUS, CONDITIONS),
                  lambda out: {"%s|%s" % key: list(row.pages) for key, row in out.items()}),
    "queries": ("jsonl", lambda rel: loaders.load_queries(FIXTURES, rel, CONDITIONS),
                lambda out: {q: query.n for q, query in out.items()}),
    "qrels": ("jsonl", lambda rel: loaders.load_qrels(FIXTURES, rel, QUERIES, CORPUS),
              lambda out: {q: g for q, g in out.items() if g}),
    "rankings": ("jsonl", lambda rel: loaders.load_ranking(FIXTURES, rel, QUERIES, CORPUS),
                 lambda out: {q: list(row.docids) for q, row in out.items()}),
    "page_scores": ("jsonl", lambda rel: loaders.load_page_scores(FIXTURES, rel, QUERIES, CORPUS),
                    lambda out: {"%s|%s" % key: [p for p, _ in row.pages] for key, row in out.items()}),
    "systems": ("json", lambda rel: loaders.load_systems(FIXTURES, rel)[0],
                lambda out: {s: system.base for s, system in out.items()}),
    "trec": ("trec", lambda rel: read_trec_run(os.path.join(FIXTURES, rel), rel, QUERIES, CORPUS),
             lambda out: {q: list(row.docids) for q, row in out.items()}),
}


def _cases(kind, group):
    ext = KINDS[kind][0]
    return sorted(os.path.relpath(p, FIXTURES).replace(os.sep, "/")
                  for p in glob.glob(os.path.join(FIXTURES, kind, group, "*." + ext)) if not p.endswith(".expect.json"))


VALID = [(kind, rel) for kind in KINDS for rel in _cases(kind, "valid")]
INVALID = [(kind, rel) for kind in KINDS for rel in _cases(kind, "invalid")]


def test_every_kind_has_valid_and_invalid_cases():
    for kind in KINDS:
        assert len(_cases(kind, "valid")) >= 1, kind
        assert len(_cases(kind, "invalid")) >= 5, kind
    assert len(VALID) + len(INVALID) >= 75


@pytest.mark.parametrize("kind,rel", VALID, ids=[rel for _, rel in VALID])
def test_valid_fixture_loads_to_its_expected_records(kind, rel):
    _, load, normal = KINDS[kind]
    expected = json.load(open(os.path.join(FIXTURES, rel.rsplit(".", 1)[0] + ".expect.json"), encoding="utf-8"))
    assert normal(load(rel)) == expected


@pytest.mark.parametrize("kind,rel", INVALID, ids=[rel for _, rel in INVALID])
def test_invalid_fixture_raises_its_message(kind, rel):
    _, load, _ = KINDS[kind]
    expected = open(os.path.join(FIXTURES, rel.rsplit(".", 1)[0] + ".expect"), encoding="utf-8").read().strip("\n")
    with pytest.raises(InputError) as info:
        load(rel)
    message = str(info.value)
    assert message.startswith(rel), message
    assert expected in message[len(rel):], (expected, message)
