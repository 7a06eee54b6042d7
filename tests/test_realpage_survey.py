"""tools/realpage_survey.py, the survey behind docs/realpage.md: its page split, contents confirmation,
acronym rule and page gates worked by hand, and hostile packages refused with a message and exit 2 (no
traceback).  The packages themselves are not needed: the cases are built here."""

import gzip
import io
import lzma
import os
import subprocess
import sys
import tarfile

import pytest
from conftest import REPO

TOOL = os.path.join(REPO, "tools", "realpage_survey.py")


def _load_tool():
    """The survey script as a module, loaded from its file (tools/ is not a package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("realpage_survey", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


survey = _load_tool()


def _ar(members):
    out = b"!<arch>\n"
    for name, data in members:
        out += b"%-16s%-12s%-6s%-6s%-8s%-10d`\n" % (name.encode(), b"0", b"0", b"0", b"100644", len(data))
        out += data + (b"\n" if len(data) % 2 else b"")
    return out


def _deb(files):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in files:
            info = tarfile.TarInfo("./usr/share/doc/RFC/" + name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return _ar([("debian-binary", b"2.0\n"), ("data.tar.xz", lzma.compress(buffer.getvalue()))])


def test_pages_split_at_form_feeds_with_header_and_footer_stripped():
    text = ("Title page\nAuthor                      [Page 1]\n\f"
            "RFC 9999        Example        May 2020\n\nBody \uff21\nAuthor                 [Page 2]\n\f\n")
    pages, footers = survey.split_pages(text)
    assert footers == [True, True] and len(pages) == 2            # the blank last piece is not a page
    assert "[Page" not in pages[0] + pages[1] and "RFC 9999" not in pages[1]
    assert "Body A" in pages[1]                                     # NFKC: a fullwidth letter is an A


def test_a_heading_counts_only_when_the_contents_list_it_with_its_page():
    pages = ["Title\n", "Table of Contents\n\n   1. Introduction ........ 3\n   2. Message Format ...... 4\n",
             "x\n", "1.  Introduction\n\ntext\n", "2.  Message Fmt\n"]
    toc, toc_pages = survey.toc_entries(pages)
    assert toc == {"1": ("introduction", 3), "2": ("message format", 4)} and toc_pages == {1}
    found = survey.headings(pages, toc_pages)
    assert found == [("1", "introduction", 3), ("2", "message fmt", 4)]
    # page index 3 is page 4: the contents say 3, so "Introduction" is not confirmed; nor is a changed title
    assert not survey._confirmed(toc, "1", "introduction", 3) and survey._confirmed(toc, "1", "introduction", 2)
    assert not survey._confirmed(toc, "2", "message fmt", 3) and not survey._confirmed(toc, "9", "x", 0)


def test_an_acronym_is_defined_only_when_its_long_form_spells_it():
    assert survey.initials_match("Path Maximum Transmission Unit", "PMTU")
    assert survey.initials_match("the Domain Name System", "DNS")
    assert not survey.initials_match("Transport Layer", "TLS")
    found = [m.groups() for m in survey.ACRONYM.finditer("uses Transport Layer Security (TLS) and X (Y)")]
    assert found == [("Transport Layer Security", "TLS")]


def test_the_page_gates_by_hand():
    f = frozenset
    assert survey._gold([f({1}), f({2})])                           # two pages: gold
    assert not survey._gold([f({1}), f({1, 2})])                    # page 1 establishes both
    assert not survey._gold([f({1}), f({2}), f({1, 2})])            # three conditions, two pages: no matching
    assert not survey._gold([f({1}), f({1}), f({2})])               # two conditions share one page only
    assert survey._gold([f({1, 2}), f({2, 3}), f({3, 1})])          # no common page, a matching exists


def test_a_candidate_needs_golds_a_bounded_union_and_subsets():
    f = frozenset
    golds = {d: f({1}) for d in range(3)}
    a = {**golds, **{10 + i: f({1}) for i in range(5)}}             # five RFCs with a only: subsets
    b = {d: f({2}) for d in range(3)}
    ok, gold = survey._admissible([a, b])
    assert ok and gold == {0, 1, 2}
    assert not survey._admissible([{d: f({1}) for d in range(3)}, b])[0]      # no subset
    wide = {**a, **{100 + i: f({1}) for i in range(90)}}
    assert not survey._admissible([wide, b])[0]                                 # union over 88
    same_page = {**a, 0: f({2})}
    assert not survey._admissible([same_page, b])[0]                            # a gold fails a page gate


def test_a_sample_keeps_the_stand_in_count_per_page_bin():
    docs = {n: {"pages": [""] * (1 + n % 12)} for n in range(300)}
    strata = [{"pages": "1-3", "stand_in": 5}, {"pages": "4-6", "stand_in": 7}, {"pages": "7+", "stand_in": 2}]
    one, two = survey._sample(docs, strata, 1), survey._sample(docs, strata, 1)
    assert one == two and len(one) == 14
    assert sum(1 for n in one if len(docs[n]["pages"]) <= 3) == 5


@pytest.mark.parametrize("case,expected", [
    ("missing", "missing (apt-get download doc-rfc-experimental=20230121-1"),
    ("wrong hash", "sha256 expected bff38cd2"),
    ("symlink", "a symbolic link"),
])
def test_a_missing_or_wrong_package_stops_the_survey_with_its_name(tmp_path, case, expected):
    deb = tmp_path / ("doc-rfc-experimental_%s_all.deb" % survey.VERSION)
    if case == "wrong hash":
        deb.write_bytes(_deb([("rfc1.json", b"{}")]))
    elif case == "symlink":
        target = tmp_path / "elsewhere.deb"
        target.write_bytes(b"!<arch>\n")
        deb.symlink_to(target)
    proc = subprocess.run([sys.executable, TOOL, str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("realpage_survey: %s" % deb) and expected in proc.stderr, proc.stderr


@pytest.mark.parametrize("data,expected", [
    (b"PK\x03\x04 a zip", "not an ar archive"),
    (b"!<arch>\ndebian-binary   0 ", "truncated or malformed ar member header at byte 8"),
    (_ar([("data.tar.xz", b"x" * 30)])[:-10], "runs past the end of the file"),
    (_ar([("control.tar.xz", b"")]), "no data.tar member (members: control.tar.xz)"),
    (_ar([("data.tar.xz", b"\xfd7zXZ\x00 not xz at all")]), "data.tar cannot be read"),
])
def test_hostile_packages_are_refused_with_what_was_wrong(tmp_path, data, expected):
    path = tmp_path / "bad.deb"
    path.write_bytes(data)
    with pytest.raises(survey.SurveyError) as caught:
        list(survey.package_files(str(path)))
    assert str(caught.value).startswith(str(path)) and expected in str(caught.value)


def test_a_well_formed_package_yields_its_rfc_files_only(tmp_path):
    files = [("std/rfc7.txt.gz", b"gz"), ("std/rfc7.json", b"{}"), ("std/rfc7.html.gz", b"h"), ("README", b"r")]
    deb = tmp_path / "x.deb"
    deb.write_bytes(_deb(files))
    assert sorted(survey.package_files(str(deb))) == [("rfc7.json", b"{}"), ("rfc7.txt.gz", b"gz")]


@pytest.mark.parametrize("name,data,expected", [
    ("rfc1.json", b"{\"title\": ", "member rfc1.json does not decode"),
    ("rfc1.json", b"[1, 2]", "not a JSON object"),
    ("rfc1.json", b"\xff\xfe", "member rfc1.json does not decode"),
    ("rfc1.json", b"[" * 100000 + b"]" * 100000, "member rfc1.json does not decode"),
    ("rfc1.txt.gz", b"not gzip", "member rfc1.txt.gz does not decode"),
    ("rfc1.txt.gz", gzip.compress(b"page one\f", mtime=0)[:-6], "member rfc1.txt.gz does not decode"),
], ids=["truncated json", "not an object", "not utf-8", "deeply nested", "not gzip", "truncated gzip"])
def test_a_member_that_does_not_decode_is_named(name, data, expected):
    with pytest.raises(survey.SurveyError) as caught:
        survey.decode_member(name, data, "pkg.deb")
    assert str(caught.value).startswith("pkg.deb: ") and expected in str(caught.value)
    assert survey.decode_member("rfc2.json", b'{"page_count": "3"}', "pkg.deb") == {"page_count": "3"}
    assert survey.decode_member("rfc2.txt.gz", gzip.compress("caf\u00e9\f".encode(), mtime=0), "pkg.deb") == "caf\u00e9\f"
