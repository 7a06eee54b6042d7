"""Every user path serves every release (issue 52): `score`, `reproduce-run`, `export-qrels` and `export-pages`
take `--release v3` and work on RealPage as they do on CrossPage, a run of another release's queries is told
which release it looks like, and RealPage's page text is exported from its packages, checked page by page.

The page export is worked on a small RealPage built from hand-made packages (tests/test_realpage.py's `pin`),
so it needs no real package; the checks against the shipped release need none either."""

import gzip
import json
import os
import subprocess
import sys

import pytest
from conftest import REPO, released
from test_realpage import PACKAGE, _rfc_text, pin

from nclue.builder.export import export_pages
from nclue.builder.realpage import page_export, settings, v3_writer
from nclue.builder.realpage.pages import page_sha256, split_pages
from nclue.commands.reproduce_run import reproduce_run
from nclue.commands.score import score
from nclue.core import layout


def _cli(*args, cwd=REPO):
    proc = subprocess.run([sys.executable, "-m", "nclue"] + list(args), capture_output=True, text=True, cwd=cwd)
    return proc.returncode, proc.stdout, proc.stderr


def _claims(name):
    with open(os.path.join(REPO, layout.claim_file(name)), encoding="utf-8") as handle:
        return {c["id"]: c["value"] for c in json.load(handle)["claims"]}


# --- score, reproduce-run and export-qrels on RealPage --------------------------------------------------------

def test_score_on_realpage_gives_a_released_ranking_its_frozen_score_and_interval():
    result = score([layout.abspath(REPO, layout.REALPAGE.ranking("bm25_and"))], REPO, release="v3", against=[])
    run = result["runs"][0]["measures"]["nclue_score_at_10"]
    assert result["instrument"]["release"] == released("v3") and result["instrument"]["synthetic"] is False
    assert run["value"] == _claims("v3.matrix")["v3.matrix.bm25_and.nclue_score_at_10"]
    frozen = _claims("v3.inference.bootstrap")
    assert (run["ci_low"], run["ci_high"]) == (frozen["v3.inference.bootstrap.bm25_and.score.ci_low"],
                                               frozen["v3.inference.bootstrap.bm25_and.score.ci_high"])


@pytest.mark.parametrize("release,run,looks_like", [
    ("v3", layout.CROSSPAGE.ranking("bm25_and"), "CrossPage's: give --release v1"),
    ("v1", layout.REALPAGE.ranking("bm25_and"), "RealPage's: give --release v3"),
    ("v2", layout.REALPAGE.ranking("bm25_and"), "RealPage's: give --release v3"),
])
def test_a_run_of_another_release_is_told_which_release_it_looks_like(release, run, looks_like):
    code, out, err = _cli("score", run, "--release", release)
    assert code == 2 and out == "" and "Traceback" not in err and looks_like in err, err
    assert "%s:1: field 'qid': unknown query" % run in err


def test_reproduce_run_of_the_released_ranking_on_realpage_agrees_exactly_and_recomputes_its_claims():
    run = layout.abspath(REPO, layout.REALPAGE.form_ranking("bm25_and", layout.CLEAN))
    result = reproduce_run([run], "bm25_and", REPO, release="v3")
    entry = result["runs"][0]
    assert entry["agreement"]["kendall_tau_union"] == 1.0 and entry["outcomes"]["changed"] == 0
    assert result["cells"] == [] and result["tables"] == []             # the paper publishes nothing on RealPage
    own = result["release_claims"]
    assert own["claims"] > 0 and own["differing"] == 0
    assert {row["claim"] for row in own["rows"]} >= {"v3.scorecard.bm25_and.nclue_score_at_10",
                                                     "v3.forms.bm25_and.clean_v2.gold_hit_at_10"}


def test_reproduce_run_of_a_changed_run_on_realpage_moves_exactly_the_claims_that_read_it(tmp_path):
    rel = layout.REALPAGE.form_ranking("bm25_and", layout.CLEAN)
    rows = [json.loads(line) for line in open(layout.abspath(REPO, rel), encoding="utf-8")]
    rows[0]["docids"] = rows[0]["docids"][::-1]                 # one query's top 10 reversed
    rows[0]["scores"] = sorted(rows[0]["scores"], reverse=True)
    path = tmp_path / "changed.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    result = reproduce_run([str(path)], "bm25_and", REPO, release="v3")
    assert result["runs"][0]["agreement"]["kendall_tau_union"] < 1.0
    changed = {r["claim"] for r in result["release_claims"]["rows"] if not r["same"]}
    # the system's own claims, and the difficulty regression's pooled fit over the 13 scorecard runs
    pooled = "v3.sensitivity.regression.pooled."
    assert changed and all(".bm25_and." in claim or claim.startswith(pooled) for claim in changed)
    assert any(claim.startswith(pooled) for claim in changed)
    assert not any(claim.startswith("v3.sensitivity.regression.bm25_dec") for claim in changed)


def test_export_qrels_on_realpage_writes_its_final_copy(tmp_path):
    code, out, err = _cli("export-qrels", str(tmp_path / "q"), "--release", "v3")
    assert code == 0, err
    graded = [line.split() for line in open(tmp_path / "q" / "qrels.graded.trec", encoding="utf-8")]
    final = _released_queries()
    assert {row[0] for row in graded} == set(final) and len(final) > 900
    assert (released("v3") + ", qrel copy " + released("v3", "qrels.jsonl") + " (%d queries)") % len(final) in (tmp_path / "q" / "README.txt").read_text()
    assert "(raw form)" in (tmp_path / "q" / "README.txt").read_text()


def _released_queries():
    genealogy = json.load(open(os.path.join(REPO, "data", "v3", "genealogy.json"), encoding="utf-8"))
    removed = {q for copy in genealogy["copies"] for q in copy["removed_queries"]}
    return [json.loads(line)["qid"] for line in open(os.path.join(REPO, "data", "v3", "queries.jsonl"))
            if json.loads(line)["qid"] not in removed]


# --- export-pages: refused where it cannot be right --------------------------------------------------------------

@pytest.mark.parametrize("args,expected", [
    (["--release", "v3"], "RealPage's page text is read from its pinned packages: give --packages DIR"),
    (["--release", "all"], "or name one release with --release"),
    (["--release", "v1", "--packages", "."], "--packages goes with --release v3"),
    (["--release", "v3", "--packages", "{empty}"], "lacks 8 of the pinned packages: doc-rfc-experimental_20230121"),
])
def test_export_pages_on_realpage_is_refused_without_its_packages(tmp_path, args, expected):
    (tmp_path / "empty").mkdir()
    args = [a.replace("{empty}", str(tmp_path / "empty")) for a in args]
    code, out, err = _cli("export-pages", str(tmp_path / "out"), *args)
    assert code == 2 and out == "" and "Traceback" not in err and expected in err, err
    assert not (tmp_path / "out").exists()


def test_export_pages_into_the_release_is_refused_before_any_package_is_read(tmp_path):
    code, out, err = _cli("export-pages", os.path.join("data", "v3", "pages"), "--release", "v3", "--packages",
                          str(tmp_path))
    assert code == 2 and "refusing to write" in err and "Traceback" not in err, err
    assert not os.path.exists(os.path.join(REPO, "data", "v3", "pages"))


def test_a_damaged_package_stops_the_export_naming_it(tmp_path):
    for name in ("doc-rfc-experimental", "doc-rfc-fyi-bcp", "doc-rfc-informational", "doc-rfc-misc",
                 "doc-rfc-old-std", "doc-rfc-others", "doc-rfc-std", "doc-rfc-std-proposed"):
        (tmp_path / ("%s_20230121-1_all.deb" % name)).write_bytes(b"!<arch>\n not a package")
    code, out, err = _cli("export-pages", str(tmp_path / "out"), "--release", "v3", "--packages", str(tmp_path))
    assert code == 2 and "Traceback" not in err and "sha256 expected" in err and "_all.deb" in err, err
    assert not (tmp_path / "out" / "pages_v3.jsonl").exists()


# --- export-pages on a small RealPage built from hand-made packages ----------------------------------------------

@pytest.fixture
def small_realpage(tmp_path, monkeypatch):
    """A RealPage release of 12 hand-made RFCs (one pinned package) at ``root``, its package folder, and each
    RFC's text."""
    files, texts = [], {}
    defs = ["Border Gateway Protocol (BGP)", "Domain Name System (DNS)"]
    for number in range(1, 13):
        sections = ["Overview", "Alpha %d" % (number % 3), "Beta %d" % (number % 5)]
        texts[number] = _rfc_text(number, sections, defs if number % 2 else defs[:1])
        files.append(("std/rfc%d.txt.gz" % number, gzip.compress(texts[number].encode(), mtime=0)))
        files.append(("std/rfc%d.json" % number, json.dumps({"title": "T%d" % number}).encode()))
    folder = tmp_path / "packages"
    folder.mkdir()
    pin(monkeypatch, folder, {PACKAGE: files})
    root = tmp_path / "release"
    v3_writer.write_release(str(root), str(folder), 5, log=lambda text: None, rankings=False,
                            cfg=settings.Construction(n_queries_2=3, n_queries_3=1, min_subsets=1),
                            strata=((1, None, 12),))
    return str(root), str(folder), texts


def test_the_export_writes_every_page_in_document_order_checked_against_its_hash(small_realpage, tmp_path):
    root, folder, texts = small_realpage
    heard = []
    path = export_pages(root, layout.REALPAGE, str(tmp_path / "out"), packages=folder, progress=heard.append)
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    expected = [(settings.DOCID_FORMAT % n, i + 1, page) for n in sorted(texts)
                for i, page in enumerate(split_pages(texts[n]))]
    assert [(r["docid"], r["page"], r["text"]) for r in rows] == expected
    assert all(r["synthetic"] is False for r in rows) and os.path.basename(path) == "pages_v3.jsonl"
    assert heard[0].startswith("export-pages: reading %s (package 1 of 1, 12 documents)" % PACKAGE)
    assert heard[-1] == "export-pages: 12 of 12 documents checked and written"


def _rewrite_corpus(root, change):
    path = os.path.join(root, "data", "v3", "corpus.jsonl")
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    change(rows)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))


def test_a_page_whose_text_is_not_the_released_one_stops_the_export_naming_it(small_realpage, tmp_path):
    root, folder, texts = small_realpage
    wrong = page_sha256("another text")

    def change(rows):
        rows[1]["page_sha256"][2] = wrong
    _rewrite_corpus(root, change)
    out = tmp_path / "out"
    with pytest.raises(page_export.PageMismatch, match=(released("v3", "corpus.jsonl") + ": rfc0002 page 3: sha256 expected %s "
                                                       r"\(released\), found [0-9a-f]{64} \(read from ") % wrong):
        export_pages(root, layout.REALPAGE, str(out), packages=folder)
    assert not os.path.exists(out / "pages_v3.jsonl")          # nothing half-written


def test_a_page_count_that_differs_and_a_document_missing_from_its_package_are_named(small_realpage, tmp_path):
    root, folder, _ = small_realpage

    def extra_page(rows):
        rows[0]["page_sha256"].append(page_sha256("x"))
        rows[0]["pages"] += 1
    _rewrite_corpus(root, extra_page)
    with pytest.raises(page_export.PageMismatch, match="rfc0001: 6 pages read from %s, the release records 7" %
                       PACKAGE):
        export_pages(root, layout.REALPAGE, str(tmp_path / "a"), packages=folder)

    def foreign(rows):
        rows[0]["page_sha256"].pop()
        rows[0]["pages"] -= 1
        rows[0]["docid"] = "rfc0099"
    _rewrite_corpus(root, foreign)
    with pytest.raises(page_export.PageMismatch, match="rfc0099 is not in %s" % PACKAGE):
        export_pages(root, layout.REALPAGE, str(tmp_path / "b"), packages=folder)


def test_every_release_with_text_from_seeds_has_its_generator_and_one_without_is_told(tmp_path):
    """docs/recipes.md#a-release: a release that declares page text from seeds registers its generator in
    nclue/builder/export.py's SEEDED; a declaration without one is refused by name, not by a KeyError."""
    from nclue.builder.export import SEEDED, export_pages
    from nclue.core.errors import UsageError

    assert sorted(SEEDED) == sorted(r.name for r in layout.releases_with(layout.TEXT_FROM_SEEDS))
    unregistered = layout.SOURCESHIFT._replace(name="v9", base="data/v9")
    with pytest.raises(UsageError, match="data/v9 declares page text from seeds, but no generator"):
        export_pages(REPO, unregistered, str(tmp_path / "out"))
    assert not (tmp_path / "out").exists()


def test_a_full_disk_leaves_nothing_of_an_export_behind(tmp_path, monkeypatch):
    """Issue 58 item 8: export-qrels and export-pages that fail part-way (here the disk is full at the third file
    / the page file) remove what they wrote and the folder they created; a folder that was there stays."""
    import errno

    from nclue.builder import export as page_export_module
    from nclue.commands import export_qrels

    calls = []
    real_write = export_qrels.write_text

    def full_at_third(path, text, what, guard=None):
        calls.append(path)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(path, text, what, guard)
    monkeypatch.setattr(export_qrels, "write_text", full_at_third)
    out = tmp_path / "qrels"
    with pytest.raises(OSError):
        export_qrels.export(REPO, str(out))
    assert len(calls) == 3 and not out.exists()
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "mine.txt").write_text("the user's", encoding="utf-8")
    calls.clear()
    with pytest.raises(OSError):
        export_qrels.export(REPO, str(kept))
    assert sorted(p.name for p in kept.iterdir()) == ["mine.txt"]

    def full(path, rows, what, guard=None):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(page_export_module, "write_jsonl", full)
    pages = tmp_path / "pages"
    with pytest.raises(OSError):
        page_export_module.export_pages(REPO, layout.CROSSPAGE, str(pages))
    assert not pages.exists()
