"""The documentation is in the repository and true to the code: every ``docs/<page>.md#anchor`` the code
or the release cites exists, every analysis and every measure is documented, and nothing in the product
refers to a document outside the repository."""

import os
import re

from conftest import REPO

from nclue.analyses import REGISTRY
from nclue.core.layout import FILE_KINDS
from nclue.core.measures import MEASURES

DOCS = os.path.join(REPO, "docs")
CITATION = re.compile(r"docs/([a-z0-9_-]+\.md)(?:#([a-z0-9_-]+))?")
PRODUCT = ("nclue", "docs", "tests", "tools", "bench", ".ci", "README.md", "reproduce.py", "pyproject.toml",
           "data", "MANIFEST.json")


def slug(heading):
    """GitHub's anchor of a markdown heading: lower case, punctuation dropped, spaces to hyphens.

    >>> slug("n-Clue Score@10"), slug("build.json and stats.json"), slug("Structure: families and the gold graph")
    ('n-clue-score10', 'buildjson-and-statsjson', 'structure-families-and-the-gold-graph')
    """
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page):
    out = set()
    for line in open(os.path.join(DOCS, page), encoding="utf-8"):
        m = re.match(r"^#{1,6} (.+)$", line.rstrip("\n"))
        if m:
            out.add(slug(m.group(1)))
    return out


def _product_files():
    for entry in PRODUCT:
        path = os.path.join(REPO, entry)
        if os.path.isfile(path):
            yield path
        for dirpath, dirnames, files in os.walk(path):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            for name in files:
                if name.endswith((".py", ".md", ".json", ".toml", ".txt")) or name == "run":
                    if not name.endswith(".jsonl"):
                        yield os.path.join(dirpath, name)


def test_every_cited_docs_page_and_anchor_exists():
    cited = 0
    missing = []
    for path in _product_files():
        if os.path.getsize(path) > 2_000_000:
            continue
        text = open(path, encoding="utf-8").read()
        for page, anchor in CITATION.findall(text):
            cited += 1
            if not os.path.isfile(os.path.join(DOCS, page)):
                missing.append("%s cites docs/%s" % (os.path.relpath(path, REPO), page))
            elif anchor and anchor not in anchors(page):
                missing.append("%s cites docs/%s#%s" % (os.path.relpath(path, REPO), page, anchor))
    assert cited >= 30 and not missing, missing


def test_the_citation_check_can_fail():
    assert "gold-ndcg10" in anchors("metrics.md")
    assert "no-such-anchor" not in anchors("metrics.md")


def test_every_measure_and_file_kind_points_into_the_docs():
    for m in MEASURES.values():
        assert m.anchor in anchors("metrics.md"), m.name
    for kind in FILE_KINDS:
        page, _, anchor = kind.docs[len("docs/"):].partition("#")
        assert not anchor or anchor in anchors(page), kind.pattern


def test_every_analysis_is_documented():
    text = open(os.path.join(DOCS, "analyses.md"), encoding="utf-8").read()
    assert [name for name in sorted(REGISTRY) if "`%s`" % name not in text] == []


def test_nothing_in_the_product_refers_outside_the_repository():
    offenders = []
    for path in _product_files():
        if os.path.getsize(path) > 2_000_000 or os.path.abspath(path) == os.path.abspath(__file__):
            continue
        text = open(path, encoding="utf-8").read()
        for needle in ("DESIGN", "../shared", "shared/seeds"):
            if needle in text:
                offenders.append("%s mentions %s" % (os.path.relpath(path, REPO), needle))
    assert not offenders, offenders


def test_the_claim_file_example_shows_the_frozen_value():
    """docs/claims.md's example claim carries the value frozen in the release, under its frozen rule."""
    import json
    import re

    text = open(os.path.join(REPO, "docs", "claims.md"), encoding="utf-8").read()
    found = re.search(r'\{"id": "(v1\.matrix\.[^"]+)", "value": ([0-9.]+), "rule": "([^"]+)"', text)
    assert found, "docs/claims.md has no example claim"
    frozen = {c["id"]: c for c in json.load(open(os.path.join(REPO, "reference_metrics", "v1.matrix.json"),
                                                 encoding="utf-8"))["claims"]}
    claim = frozen[found.group(1)]
    assert claim["value"] == float(found.group(2)) and claim["rule"] == found.group(3)
