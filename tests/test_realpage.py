"""RealPage's builder (nclue/builder/realpage; docs/realpage.md): the pinned packages read and refused, the
page split, the miner's two-source section rule and acronym rule, the seeded sample, the query draws under
the gates, and the whole construction on a small package built here, re-derived by the independent verifier.
The pinned packages themselves are not needed (tests/test_realpage_release.py uses them when present)."""

import gzip
import hashlib
import io
import json
import lzma
import os
import subprocess
import sys
import tarfile

import pytest
from conftest import REPO, released

from nclue.builder import construct
from nclue.builder.realpage import fact_miner, packages, pages, query_draws, sample, settings, v3_writer
from nclue.core import renderings as forms

PACKAGE = "doc-rfc-std"


def ar(members):
    """An ``ar`` archive of ``[(name, bytes)]``, as a Debian package is."""
    out = b"!<arch>\n"
    for name, data in members:
        out += b"%-16s%-12s%-6s%-6s%-8s%-10d`\n" % (name.encode(), b"0", b"0", b"0", b"100644", len(data))
        out += data + (b"\n" if len(data) % 2 else b"")
    return out


def deb(files):
    """A Debian package whose data.tar.xz holds ``[(name, bytes)]`` under usr/share/doc/RFC/."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in files:
            info = tarfile.TarInfo("./usr/share/doc/RFC/" + name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return ar([("debian-binary", b"2.0\n"), ("data.tar.xz", lzma.compress(buffer.getvalue()))])


def pin(monkeypatch, folder, files_of):
    """Write one package per ``{package: files}`` into ``folder`` and pin exactly those (by their SHA-256)."""
    pins = {}
    for package, files in files_of.items():
        data = deb(files)
        (folder / packages.deb_name(package)).write_bytes(data)
        pins[package] = hashlib.sha256(data).hexdigest()
    monkeypatch.setattr(packages, "PACKAGES", pins)
    return pins


# --- the packages ---------------------------------------------------------------------------------------------

def test_a_pinned_package_yields_its_rfc_texts_and_metadata(tmp_path, monkeypatch):
    text = gzip.compress(b"page one\f", mtime=0)
    pin(monkeypatch, tmp_path, {PACKAGE: [("std/rfc7.txt.gz", text), ("std/rfc7.json", b'{"title": "T"}'),
                                          ("std/rfc7.html.gz", b"h"), ("README", b"r")]})
    assert packages.read_texts(str(tmp_path)) == {7: (PACKAGE, text, b'{"title": "T"}')}
    assert packages.rfc_text(text, "w") == "page one\f"


@pytest.mark.parametrize("case,expected", [
    ("missing", "missing (package doc-rfc-std=20230121-1; `nclue build --target realpage --fetch` downloads it"),
    ("wrong hash", "sha256 expected "),
    ("symlink", "a symbolic link"),
])
def test_a_missing_or_wrong_package_is_named(tmp_path, monkeypatch, case, expected):
    pin(monkeypatch, tmp_path, {PACKAGE: [("rfc1.json", b"{}")]})
    path = tmp_path / packages.deb_name(PACKAGE)
    if case == "missing":
        path.unlink()
    elif case == "wrong hash":
        path.write_bytes(deb([("rfc2.json", b"{}")]))
    else:
        target = tmp_path / "elsewhere.deb"
        target.write_bytes(path.read_bytes())
        path.unlink()
        path.symlink_to(target)
    with pytest.raises(packages.PackageError) as caught:
        packages.read_texts(str(tmp_path))
    assert str(caught.value).startswith(str(path)) and expected in str(caught.value)
    if case == "wrong hash":
        assert "found %s" % hashlib.sha256(path.read_bytes()).hexdigest() in str(caught.value)
    assert packages.missing(str(tmp_path)) == ([PACKAGE] if case == "missing" else [])


@pytest.mark.parametrize("data,expected", [
    (b"PK\x03\x04 a zip", "not an ar archive (expected a file starting with '!<arch>', found b'PK\\x03\\x04 a z'"),
    (b"!<arch>\ndebian-binary   0 ", "truncated or malformed ar member header at byte 8"),
    (ar([("data.tar.xz", b"x" * 30)])[:-10], "runs past the end of the file"),
    (ar([("control.tar.xz", b"")]), "no data.tar member (found control.tar.xz)"),
    (ar([("data.tar.xz", b"\xfd7zXZ\x00 not xz at all")]), "data.tar.xz cannot be read"),
    (ar([("data.tar.zst", b"zstd")]), "expected data.tar or data.tar.xz"),
    (ar([("debian-binary", b"2.0\n"), ("debian-binary", b"2.0\n")]), "member 'debian-binary' appears twice"),
    (ar([("data.tar", b"not a tar archive at all" * 30)]), "data.tar cannot be read"),
], ids=["not ar", "truncated header", "truncated member", "no data", "bad xz", "unknown compression",
        "duplicate member", "bad tar"])
def test_hostile_packages_are_refused_with_what_was_wrong(tmp_path, data, expected):
    path = tmp_path / "bad.deb"
    path.write_bytes(data)
    with pytest.raises(packages.PackageError) as caught:
        list(packages.read_package(str(path)))
    assert str(caught.value).startswith(str(path)) and expected in str(caught.value)


@pytest.mark.parametrize("data,expected", [
    (b"\x1f\x8bnot gzip after the magic bytes", "does not decompress"),
    (gzip.compress(b"page one\f", mtime=0)[:-6], "does not decompress"),
], ids=["bad gzip", "truncated gzip"])
def test_a_text_that_does_not_decompress_is_named(data, expected):
    with pytest.raises(packages.PackageError) as caught:
        packages.rfc_text(data, "pkg.deb: rfc1.txt.gz")
    assert str(caught.value).startswith("pkg.deb: rfc1.txt.gz: ") and expected in str(caught.value)
    assert packages.rfc_text(gzip.compress(b"caf\xc3\xa9 \xff", mtime=0), "w") == "caf\u00e9 \ufffd"


def test_a_plain_text_member_is_read_as_it_is(tmp_path, monkeypatch):
    # 322 RFCs are shipped as rfcN.txt, not gzipped: they are RFC texts like the others
    assert packages.rfc_text(b"plain caf\xc3\xa9\f", "rfc3.txt") == "plain caf\u00e9\f"
    pin(monkeypatch, tmp_path, {PACKAGE: [("std/rfc3.txt", b"plain\f"), ("std/rfc4.txt.gz", gzip.compress(b"z", mtime=0))]})
    texts = packages.read_texts(str(tmp_path))
    assert sorted(texts) == [3, 4] and packages.rfc_text(texts[3][1], "rfc3.txt") == "plain\f"
    monkeypatch.setattr(packages, "MAX_TEXT_BYTES", 4)
    with pytest.raises(packages.PackageError, match="rfc3.txt: more than 4 bytes"):
        packages.rfc_text(b"plain", "rfc3.txt")


def test_a_huge_text_is_refused_at_its_limit(monkeypatch):
    monkeypatch.setattr(packages, "MAX_TEXT_BYTES", 100)
    with pytest.raises(packages.PackageError, match="decompresses to more than 100 bytes"):
        packages.rfc_text(gzip.compress(b"x" * 101, mtime=0), "w")
    assert packages.rfc_text(gzip.compress(b"x" * 100, mtime=0), "w") == "x" * 100


def test_an_rfc_in_two_packages_is_refused(tmp_path, monkeypatch):
    text = gzip.compress(b"a\f", mtime=0)
    pin(monkeypatch, tmp_path, {"doc-rfc-a": [("rfc9.txt.gz", text)], "doc-rfc-b": [("rfc9.txt.gz", text)]})
    with pytest.raises(packages.PackageError, match="rfc9's text is also in doc-rfc-a"):
        packages.read_texts(str(tmp_path))


def test_a_package_without_rfc_texts_is_refused(tmp_path, monkeypatch):
    pin(monkeypatch, tmp_path, {PACKAGE: [("rfc9.json", b"{}")]})
    with pytest.raises(packages.PackageError, match="the packages hold no RFC text"):
        packages.read_texts(str(tmp_path))


def test_the_private_source_list_is_the_machines_main_stanzas_with_non_free(tmp_path):
    (tmp_path / "debian.sources").write_text(
        "Types: deb\n# a comment\nURIs: http://mirror.invalid/debian\nSuites: bookworm bookworm-updates\n"
        "Components: main\nSigned-By: /k.gpg\n\nTypes: deb\nURIs: http://other.invalid\nSuites: x\n"
        "Components: contrib\n")
    (tmp_path / "old.list").write_text("deb http://ignored.invalid bookworm main\n")
    text = packages.private_sources(str(tmp_path))
    assert text == ("Types: deb\nURIs: http://mirror.invalid/debian\nSuites: bookworm bookworm-updates\n"
                    "Components: non-free\nSigned-By: /k.gpg\n")
    (tmp_path / "debian.sources").write_text("Types: deb\nComponents: contrib\n")
    with pytest.raises(packages.PackageError, match="no deb822 source with Components: main"):
        packages.private_sources(str(tmp_path))


def test_fetch_uses_a_private_apt_configuration_and_checks_what_it_downloaded(tmp_path, monkeypatch):
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "debian.sources").write_text("Types: deb\nURIs: http://mirror.invalid\nSuites: b\nComponents: main\n")
    cache = tmp_path / "cache"
    cache.mkdir()
    good = deb([("rfc1.txt.gz", gzip.compress(b"x\f", mtime=0))])
    monkeypatch.setattr(packages, "PACKAGES", {PACKAGE: hashlib.sha256(good).hexdigest()})
    commands = []

    def run(command, cwd, stdout, stderr):
        commands.append(command)
        if command[2] == "download":
            with open(os.path.join(cwd, packages.deb_name(PACKAGE)), "wb") as handle:
                handle.write(good)
        return subprocess.CompletedProcess(command, 0, b"")

    assert packages.fetch(str(cache), run=run, source_dir=str(sources)) == [PACKAGE]
    private = str(cache / "apt")
    assert [c[:3] for c in commands] == [["apt-get", "-q", "update"], ["apt-get", "-q", "download"]]
    for command in commands:
        assert "Dir::Etc::SourceList=/dev/null" in command
        assert "Dir::Etc::SourceParts=" + os.path.join(private, "sources.list.d") in command
        assert "Dir::State::Lists=" + os.path.join(private, "lists") in command
    assert commands[1][-1] == "%s=%s" % (PACKAGE, packages.VERSION)
    assert "Components: non-free" in (cache / "apt" / "sources.list.d" / "doc-rfc.sources").read_text()
    assert packages.fetch(str(cache), run=None, source_dir=str(sources)) == []        # nothing left to fetch

    def failing(command, cwd, stdout, stderr):
        return subprocess.CompletedProcess(command, 100, b"E: Unable to locate package\n")

    (cache / packages.deb_name(PACKAGE)).unlink()
    with pytest.raises(packages.PackageError, match="apt-get update exited 100: E: Unable to locate package"):
        packages.fetch(str(cache), run=failing, source_dir=str(sources))

    def corrupting(command, cwd, stdout, stderr):
        if command[2] == "download":
            with open(os.path.join(cwd, packages.deb_name(PACKAGE)), "wb") as handle:
                handle.write(good[:-1])
        return subprocess.CompletedProcess(command, 0, b"")

    with pytest.raises(packages.PackageError, match="sha256 expected"):
        packages.fetch(str(cache), run=corrupting, source_dir=str(sources))


# --- pages ----------------------------------------------------------------------------------------------------

def test_pages_split_at_form_feeds_with_header_and_footer_stripped():
    text = ("Title page\r\nAuthor                      [Page 1]\r\n\f"
            "RFC 9999        Example        May 2020\n\nBody \uff21\ufb01\nAuthor                 [page 2]   \n\f\n")
    got = pages.split_pages(text)
    assert len(got) == 2                                             # the blank last piece is not a page
    assert got[0] == "Title page\n\n"                                # the footer line is emptied, CRLF read as LF
    assert got[1] == "\n\nBody Afi\n\n"                              # header gone; NFKC: fullwidth A, the fi ligature
    assert pages.split_pages("") == [] and pages.split_pages("one page") == ["one page"]
    assert pages.page_sha256(got[1]) == hashlib.sha256(got[1].encode("utf-8")).hexdigest()


def test_the_first_pages_header_is_kept_and_a_footer_needs_the_last_line():
    got = pages.split_pages("RFC 1  Title\n[Page 1] is cited\nlast line\f")
    assert got == ["RFC 1  Title\n[Page 1] is cited\nlast line"]


# --- the miner ------------------------------------------------------------------------------------------------

RFC = [
    "Network Working Group\nRequest for Comments: 9999\n",
    "Table of Contents\n\n   1. Introduction ........ 3\n   2. Message Format ...... 4\n"
    "   3. Security Considerations ....... 4\n   4. References ....... 5\n",
    "1.  Introduction\n\nThe Border Gateway Protocol (BGP) and the Domain Name System (DNS).\n",
    "2.  Message Fmt\n\n3.  Security Considerations\n\nUses the Internet Protocol (BGP) too.\n",
    "4.  References\n\n   [1] Border Gateway Protocol (BGP), somewhere.\n",
]


def test_a_heading_counts_only_when_the_contents_list_its_number_and_title():
    reading = fact_miner.Reading(RFC)
    assert reading.entries == {"1": "introduction", "2": "message format", "3": "security consideration",
                               "4": "reference"}            # titles folded for plural: one section
    assert reading.headings() == [("1", "Introduction", 2), ("2", "Message Fmt", 3),
                                  ("3", "Security Considerations", 3)]        # the references are not read
    assert reading.confirmed("1", "Introduction")
    assert reading.confirmed("1", "Introductions")                           # plural folded
    assert not reading.confirmed("2", "Message Fmt")                         # another title
    assert not reading.confirmed("9", "X")                                   # not in the contents


def test_a_reader_leaves_out_the_contents_and_the_references_line_by_line():
    reading = fact_miner.Reading(RFC)
    assert reading.body == [2, 3] and reading.document == [0, 2, 3]
    assert not reading.text[1].strip() and not reading.text[4].strip()
    # the text below the contents, on their page, is read; so is the text above the references, on theirs
    shared = ["Title (T)\n\nTable of Contents\n\n   1. Introduction ..... 2\n   Authors' Addresses ..... 3\n\n"
              "1.  Introduction\n\nThe Domain Name System (DNS).\n",
              "More of the Border Gateway Protocol (BGP).\n\n5.  References\n\n   [1] Session Protocol (SP)\n",
              "Authors' Addresses\n"]
    reading = fact_miner.Reading(shared)
    assert reading.text[0].split("\n")[:6] == ["Title (T)", "", "", "", "", ""]
    assert reading.headings() == [] and reading.body == [1]            # the title page holds no section
    facts = fact_miner.mine(shared)
    assert set(facts["defined"]) == {("DNS", "domain name system"), ("BGP", "border gateway protocol")}
    assert facts["defined"][("DNS", "domain name system")] == {0}
    # a heading below the contents on a later page is read; "C. References" and "Contents" are recognised
    lettered = ["Title\n", "Contents\n\n   1. Introduction ..... 2\n   2. Goals ..... 3\n\n1.  Introduction\n",
                "2.  Goals\n\nC.  References\n\n   [1] Route Reflection (RR)\n"]
    reading = fact_miner.Reading(lettered)
    assert [h[:2] for h in reading.headings()] == [("1", "Introduction"), ("2", "Goals")]
    assert "Route Reflection" not in "".join(reading.text)
    assert fact_miner.mine(lettered)["sections"] == {"introduction": ("Introduction", {1}), "goal": ("Goals", {2})}
    # an indented "References" does not end the body
    indented = RFC[:4] + ["   References are discussed in the text.\n", "x\n"]
    assert fact_miner.Reading(indented).body == [2, 3, 4, 5]


def test_appendix_numbers_are_section_numbers():
    rfc = ["Title\n", "Table of Contents\n\n   Appendix A.  Glossary ....... 2\n\n",
           "Appendix A.  Glossary\n\n   IRTF     Internet Research Task Force\n"]
    facts = fact_miner.mine(rfc)
    assert facts["sections"] == {"glossary": ("Glossary", {2})}
    assert set(facts["defined"]) == {("IRTF", "internet research task force")}
    assert fact_miner.section_number("Appendix B.2") == "B.2"
    assert not fact_miner.HEADING.match("A Framework for Everything")          # a capital letter needs its dot


def test_the_miner_records_confirmed_sections_and_definitions_on_the_title_and_body_pages():
    facts = fact_miner.mine(RFC)
    assert facts["sections"] == {"introduction": ("Introduction", {2}),
                                 "security consideration": ("Security Considerations", {3})}
    # "Internet Protocol (BGP)" does not spell it; the references' "Border Gateway Protocol (BGP)" is a citation
    assert facts["defined"] == {("BGP", "border gateway protocol"): {2}, ("DNS", "domain name system"): {2}}
    assert facts["long_forms"][("BGP", "border gateway protocol", "Border Gateway Protocol")] == 1
    assert fact_miner.mine(["title", "1.  Introduction\n"])["sections"] == {}      # no contents: no section fact
    # the title page's prose defines; the contents do not
    titled = ["A product of the Internet Engineering Task Force (IETF).\n"] + RFC[1:]
    assert ("IETF", "internet engineering task force") in fact_miner.mine(titled)["defined"]


def test_titles_fold_case_punctuation_possessives_and_plurals():
    assert fact_miner.title_key("Offer/Answer Model Considerations") == fact_miner.title_key("Offer-Answer Model "
                                                                                             "Consideration")
    assert fact_miner.title_key("Server's Behavior") == fact_miner.title_key("Server Behaviors") == "server behavior"
    assert fact_miner.title_key("Status Analysis") == "status analysis"             # "us" and "is" are no plurals
    assert fact_miner.title_key("Policies") == "policy" and fact_miner.title_key("Gas") == "gas"


def test_a_text_without_page_breaks_is_not_paginated():
    assert pages.paginated(["\n".join(["line"] * 66)]) and not pages.paginated(["\n".join(["line"] * 67)])
    assert pages.paginated(["line\n" * 67, "more"]) and not pages.paginated([])


@pytest.mark.parametrize("page,expected", [
    ("the domain name system (DNS) resolves", [("DNS", "domain name system")]),               # any case
    ("Denial of Service (DoS) attacks", [("DOS", "denial of service")]),                     # mixed-case acronym
    ("several User Agents (UAs) connect", [("UA", "user agent")]),                           # a plural
    ("DNS (Domain Name System) resolves", [("DNS", "domain name system")]),                  # acronym first
    ("   MTU:  Maximum Transmission Unit\n", [("MTU", "maximum transmission unit")]),        # a glossary line
    ("   MTU - Maximum Transmission Unit\n", [("MTU", "maximum transmission unit")]),
    ("   MTU     Maximum Transmission Unit\n", []),                 # a listed line outside a glossary heading
    ("SNMP-APP   Simple Network Management Protocol (SNMP)   3413\nprose\nprose\n", []),     # a column line
    ("a   b   c\nd   e   f\nThe Domain Name System (DNS).\n", []),   # a table page: most lines in columns
    ("HSS     - Home Subscriber Server\nMME     - Mobility Management Entity\n",              # two columns are a
     [("HSS", "home subscriber server"), ("MME", "mobility management entity")]),            # glossary's layout
    ("MAC - Media Access Control       PMD - Physical Medium Dependent\n", []),   # two entries: a column line
    ("the Internet Protocol (BGP)", []),                            # the initials do not spell it
    ("Autonomous Systems (ASes) peer", [("AS", "autonomous system")]),                     # an "es" plural
    ('the "Domain Name System" (DNS) and the Public Switched Telephone Network (PSTN )',   # quotes, a space
     [("DNS", "domain name system"), ("PSTN", "public switched telephone network")]),
    ("IP (Internet Protocol, version 4) and TLS (the Transport Layer Security protocol)",   # parentheses that
     [("IP", "internet protocol"), ("TLS", "transport layer security")]),                   # start with it
    ("   o  TCP:  The Transmission Control Protocol\n", [("TCP", "transmission control protocol")]),  # bullet, article
    ("   DNS:\n      Domain Name System\n", [("DNS", "domain name system")]),            # the long form below
])
def test_each_definition_form_by_hand(page, expected):
    assert [(d.acronym, d.sense) for d in fact_miner.definitions(page)] == expected


def test_a_listed_line_defines_under_a_glossary_heading_only():
    pages_ = ["Title\n", "1.  Terminology\n\n   MTU     Maximum Transmission Unit\n\n2.  Protocol\n\n"
                       "   RTT     Round Trip Time\n"]
    glossary = fact_miner.glossary_lines(pages_, [1])
    assert glossary == {1: {1, 2, 3}}                                # the lines between the two headings
    assert [d.acronym for d in fact_miner.definitions(pages_[1], glossary[1])] == ["MTU"]
    nested = ["Title\n", "2.  Terminology\n\n2.1.  Acronyms\n   MTU     Maximum Transmission Unit\n"
                        "3.  Protocol\n   RTT     Round Trip Time\n"]
    assert fact_miner.glossary_lines(nested, [1]) == {1: {1, 3}}     # under 2.1, below "2. Terminology"


def test_an_acronym_is_defined_only_when_its_long_form_spells_it():
    assert fact_miner.initials_match("Path Maximum Transmission Unit", "PMTU")
    assert fact_miner.initials_match("the Domain Name System", "DNS")
    assert not fact_miner.initials_match("Point-to-Point Protocol", "PPP")       # every word counts: P-T-P-P
    assert not fact_miner.initials_match("Transport Layer", "TLS")
    assert fact_miner.spelled("The Border-Gateway  Protocol", "BGP") == "Border-Gateway Protocol"
    assert fact_miner.spelled("Domain Name System", "DNS") == "Domain Name System"
    found = [m.groups() for m in fact_miner.ACRONYM.finditer("uses Transport Layer Security (TLS) and X (Y)")]
    assert found == [("uses Transport Layer Security", "TLS")]                  # spelled() keeps the last 3 words
    assert fact_miner.spelled(found[0][0], "TLS") == "Transport Layer Security"


def test_the_lexicon_needs_three_defining_rfcs_per_sense_and_takes_its_most_frequent_surface():
    def rfc(*forms):
        return fact_miner.mine([" ".join("%s (BGP)." % f for f in forms)])       # the title page defines
    two = {1: rfc("Border Gateway Protocol"), 2: rfc("Border Gateway Protocol")}
    assert fact_miner.lexicon(two) == {}
    three = dict(two)
    three[3] = rfc("Border-Gateway Protocol", "Border-Gateway Protocol", "Border-Gateway Protocol", "Big Green Peas")
    # the sense "border gateway protocol": 3 RFCs, its surface used most "Border-Gateway Protocol"; "big green pea"
    # is another sense of BGP, defined by one RFC
    assert fact_miner.lexicon(three) == {("BGP", "border gateway protocol"): "Border-Gateway Protocol"}


def test_near_spellings_of_a_long_form_are_one_sense_and_others_are_not():
    def rfc(form):
        return fact_miner.mine(["the %s (API) is used." % form])
    mined = {1: rfc("Application Programming Interface"), 2: rfc("Application Programming Interface"),
             3: rfc("Application Program Interface"), 4: rfc("Access Point Identifier")}
    senses = fact_miner.senses(mined)
    assert senses[("API", "application program interface")] == ("API", "application programming interface")
    assert senses[("API", "access point identifier")] == ("API", "access point identifier")
    assert fact_miner.lexicon(mined) == {("API", "application programming interface"):
                                         "Application Programming Interface"}


def test_a_section_id_is_a_bounded_slug():
    assert v3_writer.section_cid("message format") == "sec:message-format"
    assert v3_writer.section_cid("message/format") == "sec:message-format"        # one condition
    long = "a very long section title that goes on and on about many things at once"
    cid = v3_writer.section_cid(long)
    assert len(cid) <= 56 and cid.startswith("sec:a-very-long") and cid != v3_writer.section_cid(long + " more")
    assert v3_writer.section_cid("!!!") == "sec:untitled"


# --- the sample -----------------------------------------------------------------------------------------------

def test_a_sample_keeps_each_bins_count_and_is_seeded():
    counts = {n: 1 + n % 12 for n in range(300)}
    strata = ((1, 3, 5), (4, 6, 7), (7, None, 2))
    one, two = sample.draw(counts, 1, strata), sample.draw(counts, 1, strata)
    assert one == two and len(one) == 14 and one == sorted(one)
    assert sum(1 for n in one if counts[n] <= 3) == 5 and sum(1 for n in one if 4 <= counts[n] <= 6) == 7
    assert sample.draw(counts, 2, strata) != one
    with pytest.raises(settings.RealPageError, match="page-count bin 7- has 150 RFCs; the sample needs 151"):
        sample.draw(counts, 1, ((7, None, 151),))


def test_the_pinned_strata_are_the_stand_ins_page_count_bins():
    assert sum(count for _, _, count in settings.STRATA) == 2021
    firsts = [first for first, _, _ in settings.STRATA]
    assert firsts == sorted(firsts) and all(last is None or last + 1 == nxt
                                            for (_, last, _), nxt in zip(settings.STRATA, firsts[1:] + [None]))


# --- the gates and the draws ----------------------------------------------------------------------------------

def _index(facts):
    """A construct.Index over ``{(docid, cid): pages}``."""
    docs = [{"docid": d} for d in sorted({d for d, _ in facts})]
    catalog = [{"cid": c, "kind": "section", "label": c, "mined": c} for c in sorted({c for _, c in facts})]
    rows = [{"docid": d, "cid": c, "pages": sorted(p)} for (d, c), p in sorted(facts.items())]
    return construct.Index(docs, catalog, rows), catalog, rows


def _small_index():
    """Six golds with a, b, c on distinct pages (g0 also has d on a's page); forty subsets holding one of a-d."""
    facts = {}
    for g in range(6):
        for page, cid in enumerate("abc", 1):
            facts[("g%d" % g, cid)] = {page}
    facts[("g0", "d")] = {1}                            # d shares g0's page 1 with a: single-page-solvable
    for s in range(40):
        facts[("s%02d" % s, "abcd"[s % 4])] = {1 + s % 3}
    return _index(facts)


def test_every_admissible_conjunction_and_only_those_are_candidates():
    index, catalog, _ = _small_index()
    cfg = settings.Construction(min_subsets=5, max_union=88)
    a, b, c, d = (index.cindex[x] for x in "abcd")
    pairs = {cand.conditions: cand for cand in query_draws.candidates(index, 2, cfg)}
    # (a, d)'s one gold, g0, has both on page 1: single-page-solvable; (b, d) and (c, d) take distinct pages
    assert sorted(pairs) == [(a, b), (a, c), (b, c), (b, d), (c, d)]
    assert pairs[(a, b)].n_golds == 6 and pairs[(a, b)].subsets == 20 and pairs[(a, b)].grade2 == 0
    assert pairs[(b, d)].n_golds == 1 and pairs[(b, d)].golds == 1 << index.position["g0"]
    triples = {t.conditions: t for t in query_draws.candidates(index, 3, cfg)}
    # (a, b, d) and (a, c, d): a and d only on g0's page 1, no distinct pages
    assert sorted(triples) == [(a, b, c), (b, c, d)] and triples[(a, b, c)].subsets == 30
    assert triples[(b, c, d)].grade2 == 5                   # g1-g5 hold b and c, not d
    # the conjunction gate: a condition held by exactly the gold set picks it out alone
    facts = {("g1", "x"): {1}, ("g1", "y"): {2}, ("g2", "x"): {1}, ("g2", "y"): {2}}
    facts.update({("s%d" % s, "y"): {1} for s in range(6)})
    small = _index(facts)[0]
    assert query_draws.candidates(small, 2, settings.Construction(min_subsets=1)) == []
    facts[("s9", "x")] = {1}                            # a subset holds x too: now the conjunction matters
    assert [c.n_golds for c in query_draws.candidates(_index(facts)[0], 2, settings.Construction(min_subsets=1))] == [2]


def test_the_draws_are_seeded_tilted_capped_and_verify(tmp_path):
    from nclue.core.loaders import load_corpus, load_inventory, load_qrels, load_queries
    from nclue.core.verify import verify

    index, catalog, rows = _small_index()
    cfg = settings.Construction(n_queries_2=3, n_queries_3=1, max_gold_queries=4, pair_tilt=(300, 1000, 1000),
                                triple_tilt=(100, 1000, 1000))
    chosen, info = query_draws.select(index, 7, cfg)
    assert len(chosen) == 4 and chosen == query_draws.select(index, 7, cfg)[0]
    assert info == {"candidates_n2": 5, "candidates_n3": 2, "most_gold_queries": 4}     # the cap of 4 binds
    queries, qrels = [], []
    for i, conj in enumerate(chosen):
        query, qrel_rows = construct.query_and_qrels("q%d" % i, catalog, index, conj, synthetic=False,
                                                     render=forms.render_by_kind)
        queries.append(query)
        qrels += qrel_rows
    assert all(q["synthetic"] is False and q["forms"]["natural"].startswith("Find the RFC that has a section titled")
               for q in queries)
    (tmp_path / "corpus.jsonl").write_text("".join(json.dumps({"docid": d, "pages": 3, "source": "rfc",
                                                               "synthetic": False}) + "\n" for d in index.docids))
    for name, items in (("inventory", rows), ("queries", queries), ("qrels", qrels)):
        (tmp_path / (name + ".jsonl")).write_text("".join(json.dumps(r) + "\n" for r in items))
    corpus = load_corpus(str(tmp_path), "corpus.jsonl")
    loaded = load_queries(str(tmp_path), "queries.jsonl")
    assert verify(loaded, load_inventory(str(tmp_path), "inventory.jsonl", corpus),
                  load_qrels(str(tmp_path), "qrels.jsonl", loaded, corpus)) == []


def test_a_tilt_weighs_a_gold_and_a_subset_exactly():
    cfg = settings.Construction()
    one = query_draws.Candidate((0, 1), 1, 1, 10, 0)
    two = query_draws.Candidate((0, 1), 3, 2, 10, 0)
    more = query_draws.Candidate((0, 1), 1, 1, 11, 0)
    tilt = query_draws.Tilt(450, 1033)
    assert query_draws.weight(two, tilt, cfg) * 100 == query_draws.weight(one, tilt, cfg) * 450
    assert query_draws.weight(more, tilt, cfg) * 1000 == query_draws.weight(one, tilt, cfg) * 1033


def test_draws_that_cannot_be_supplied_stop_with_a_message():
    index = _small_index()[0]
    with pytest.raises(settings.RealPageError, match="2-condition queries: 5 drawn, and no admissible conjunction "
                                                     "is left to draw"):
        query_draws.select(index, 1, settings.Construction(n_queries_2=6, n_queries_3=0))


# --- the whole construction on a small package -------------------------------------------------------------------

def _rfc_text(number, sections, acronyms):
    """An RFC text with a title page, contents, one body page per section (each defining ``acronyms``) and
    references; pages end in footers and carry the running header."""
    toc = "".join("   %d. %s ........ %d\n" % (i + 1, s, i + 3) for i, s in enumerate(sections))
    body = ["%d.  %s\n\nText about %s.\n" % (i + 1, s, " and ".join(acronyms[i:i + 1])) for i, s in enumerate(sections)]
    pages_ = ["Request for Comments: %d\n" % number, "Table of Contents\n\n" + toc] + body + ["References\n"]
    out = []
    for i, page in enumerate(pages_):
        header = "RFC %d          Example          May 2020\n" % number if i else ""
        out.append(header + page + "Author                    [Page %d]\n" % (i + 1))
    return "\f".join(out) + "\f"


def test_the_construction_on_a_small_package_is_deterministic_and_verifies(tmp_path, monkeypatch):
    from nclue.core.loaders import load_conditions, load_corpus, load_inventory, load_qrels, load_queries
    from nclue.core.verify import verify

    files = []
    defs = ["Border Gateway Protocol (BGP)", "Domain Name System (DNS)"]
    for number in range(1, 31):
        sections = ["Overview", "Alpha %d" % (number % 3), "Beta %d" % (number % 5), "Gamma %d" % (number % 7)]
        text = _rfc_text(number, sections, defs if number % 2 else defs[:1])
        files.append(("std/rfc%d.txt.gz" % number, gzip.compress(text.encode(), mtime=0)))
        files.append(("std/rfc%d.json" % number, json.dumps({"title": " T%d " % number,
                                                             "pub_date": "May 2001"}).encode()))
    pin(monkeypatch, tmp_path, {PACKAGE: files})
    small = {"cfg": settings.Construction(n_queries_2=5, n_queries_3=2, min_subsets=2), "strata": ((1, None, 30),)}
    out = tmp_path / "out"
    written = v3_writer.write_release(str(out), str(tmp_path), 3, log=lambda text: None, **small)
    first = {rel: (out / rel).read_bytes() for rel in written}
    v3_writer.write_release(str(out), str(tmp_path), 3, log=lambda text: None, **small)
    assert {rel: (out / rel).read_bytes() for rel in written} == first
    corpus_rows = [json.loads(line) for line in first[released("v3", "corpus.jsonl")].splitlines()]
    assert [r["docid"] for r in corpus_rows] == ["rfc%04d" % n for n in range(1, 31)]
    assert corpus_rows[0]["pages"] == 7 and corpus_rows[0]["title"] == "T1" and corpus_rows[0]["year"] == 2001
    assert corpus_rows[0]["synthetic"] is False and len(corpus_rows[0]["page_sha256"]) == 7
    root = str(out)
    corpus = load_corpus(root, released("v3", "corpus.jsonl"))
    conditions = load_conditions(root, released("v3", "conditions.jsonl"))
    inventory = load_inventory(root, released("v3", "inventory.jsonl"), corpus, conditions)
    queries = load_queries(root, released("v3", "queries.jsonl"), conditions)
    qrels = load_qrels(root, released("v3", "qrels_construction.jsonl"), queries, corpus)
    assert len(queries) == 7 and verify(queries, inventory, qrels) == []
    # the section's evidence is its heading's page; a definition's is its body page; the references carry none
    assert inventory[("rfc0001", "sec:overview")].pages == (3,)
    bgp, dns = "def:BGP:border-gateway-protocol", "def:DNS:domain-name-system"
    assert inventory[("rfc0001", bgp)].pages == (3,) and ("rfc0002", dns) not in inventory
    assert conditions[bgp].label == "Border Gateway Protocol (BGP)"
    build = json.loads(first[released("v3", "build.json")])
    assert build["synthetic"] is False and build["seed"] == 3 and build["counts"]["sampled_rfcs"] == 30
    # every system ranks the raw form; the 13 form systems also rank the clean and natural forms, whose raw
    # column is the raw-form ranking (no second copy)
    from nclue.retrieval.systems import FORM_SYSTEMS, SYSTEMS
    assert build["rankings"] == {"form": "raw", "systems": len(SYSTEMS), "forms": ["clean_v2", "natural"],
                                 "form_systems": 13}
    assert json.loads(first[released("v3", "systems.json")])["form_systems"] == list(FORM_SYSTEMS)
    form_files = sorted(rel for rel in written if rel.startswith("data/v3/rankings/forms/"))
    assert form_files == sorted(released("v3", "rankings/forms/%s__%s.jsonl") % (sid, form) for sid in FORM_SYSTEMS
                                for form in ("clean_v2", "natural"))
    for rel in form_files:
        assert [json.loads(line)["qid"] for line in first[rel].splitlines()] == list(queries)


def test_build_realpage_refuses_bad_arguments_without_a_traceback(tmp_path):
    cases = [(["--target", "realpage"], "--target realpage needs --packages DIR"),
             (["--target", "realpage", "--packages", str(tmp_path / "none")], "not a folder"),
             (["--target", "realpage", "--packages", str(tmp_path), "--realpage-seed", "-1"], "must be non-negative"),
             (["--packages", str(tmp_path)], "--packages, --fetch, --realpage-seed and --neural-runs go with --target realpage"),
             (["--target", "realpage", "--packages", str(tmp_path), "--no-freeze"], "missing (package doc-rfc-"),
             # the build's target is not a release: the old spelling is refused with the right option named
             (["--release", "v3", "--packages", str(tmp_path)], "build takes --target stand-in|realpage"),
             # RealPage's page text comes from its packages, not from the stand-in's seeds
             (["--target", "realpage", "--packages", str(tmp_path), "--export-pages", str(tmp_path / "p")],
              "nclue export-pages OUT --release v3 --packages DIR"),
             (["--target", "v3"], "invalid choice: 'v3'")]
    for args, expected in cases:
        proc = subprocess.run([sys.executable, "-m", "nclue", "build", "--out", str(tmp_path / "out")] + args,
                              capture_output=True, text=True, cwd=REPO)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr and expected in proc.stderr, (args, proc.stderr)
