"""RealPage's page rule (docs/realpage.md#pages, steps 1-8), followed word for word by a reader of this file's
own: it imports nothing of the builder's page or package code.  Quick tests work each step by hand on made-up
texts (and check that the builder's ``split_pages`` agrees on them); the slow test rebuilds every page of the
2,021 sampled RFCs from the pinned ``.deb`` packages and checks each page hash that ``data/v3/corpus.jsonl``
records.  Without the packages (``$NCLUE_REALPAGE_PACKAGES``, else ``~/.cache/nclue/doc-rfc-20230121-1``) the
slow test skips, naming the folder and the missing files."""

import gzip
import hashlib
import io
import json
import lzma
import os
import re
import tarfile
import unicodedata

import pytest
from conftest import REPO

VERSION = "20230121-1"
PACKAGE_NAMES = ("doc-rfc-experimental", "doc-rfc-fyi-bcp", "doc-rfc-informational", "doc-rfc-misc",
                 "doc-rfc-old-std", "doc-rfc-others", "doc-rfc-std", "doc-rfc-std-proposed")
CORPUS = os.path.join(REPO, "data", "v3", "corpus.jsonl")

# step 6 and step 7's expressions, as the page quotes them
FOOTER_RE = re.compile(r"\[Page (\d+)\]\s*$", re.IGNORECASE)
HEADER_RE = re.compile(r"^RFC \d+\s")


# --- the reader: the eight steps ---------------------------------------------------------------------------------

def member_text(name, data):
    """Step 1: a ``.txt.gz`` member is gunzipped, a ``.txt`` member read as it is; UTF-8, bad bytes to U+FFFD."""
    if name.endswith(".gz"):
        data = gzip.decompress(data)
    return data.decode("utf-8", errors="replace")


def pages_of(text):
    """Steps 2-8: the pages of one decoded RFC text, as strings."""
    text = text.replace("\r\n", "\n")                        # 2: CR LF -> LF, a lone CR stays
    text = unicodedata.normalize("NFKC", text)               # 3: NFKC over the whole text
    pieces = text.split("\f")                                # 4: split at every form feed ...
    if pieces[-1].strip() == "":                             # ... and only a blank last piece is dropped
        pieces = pieces[:-1]
    pages = []
    for number, piece in enumerate(pieces):
        lines = [line.rstrip() for line in piece.split("\n")]   # 5: LF only; all trailing white space off
        filled = [i for i, line in enumerate(lines) if line.strip() != ""]
        empty = set()
        if filled and FOOTER_RE.search(lines[filled[-1]]):     # 6: the last non-blank line's footer
            empty.add(filled[-1])
        if number > 0 and filled and HEADER_RE.match(lines[filled[0]].lstrip()):   # 7: later pages' header
            empty.add(filled[0])
        for i in empty:                                      # both found before either is emptied
            lines[i] = ""
        pages.append("\n".join(lines))                       # 8: joined by LF, none added at the end
    return pages


def page_hash(page):
    return hashlib.sha256(page.encode("utf-8")).hexdigest()


def ar_members(blob):
    """The members of an ``ar`` archive: the magic, then 60-byte headers (name in bytes 0-16, size in 48-58),
    each member's data padded to an even length."""
    assert blob[:8] == b"!<arch>\n", "not an ar archive"
    out, pos = {}, 8
    while pos + 60 <= len(blob):
        header = blob[pos:pos + 60]
        name = header[0:16].decode("ascii").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip())
        pos += 60
        out[name] = blob[pos:pos + size]
        pos += size + (size % 2)
    return out


RFC_MEMBER = re.compile(r"rfc(\d+)\.txt(?:\.gz)?")


def rfc_texts(deb_path, wanted):
    """``{docid: text}`` for the wanted docids ("rfc0791") among a package's regular RFC text members."""
    with open(deb_path, "rb") as handle:
        members = ar_members(handle.read())
    tar_bytes = lzma.decompress(members["data.tar.xz"])
    out = {}
    with tarfile.open(fileobj=io.BytesIO(tar_bytes), mode="r:") as archive:
        for member in archive:
            if not member.isfile():                           # links/ holds symbolic links to the same texts
                continue
            base = member.name.rsplit("/", 1)[-1]
            match = RFC_MEMBER.fullmatch(base)
            if not match:
                continue
            docid = f"rfc{int(match.group(1)):04d}"
            if docid in wanted:
                assert docid not in out, f"{docid} is in {deb_path} twice"
                out[docid] = member_text(base, archive.extractfile(member).read())
    return out


def package_folder():
    return os.environ.get("NCLUE_REALPAGE_PACKAGES") or os.path.join(os.path.expanduser("~"), ".cache", "nclue",
                                                                      "doc-rfc-" + VERSION)


def deb_file(package):
    return f"{package}_{VERSION}_all.deb"


# --- quick tests: every step by hand --------------------------------------------------------------------------

# (text, the pages worked by hand), step by step; the builder's split_pages must agree on every one of them
CASES = {
    "line ends": [
        ("one\r\ntwo\rthree\r\n", ["one\ntwo\rthree\n"]),     # CR LF -> LF; the lone CR inside a line stays
        ("x\r\r\ny", ["x\ny"]),                                 # CR CR LF: the CR left at the line's end is
    ],                                                            # trailing white space (step 5)
    "nfkc": [
        ("\ufb01le \uff32\uff26\uff23 x\u00b2", ["file RFC x2"]),  # ligature, full-width letters, superscript
        ("a\f\uff32\uff26\uff23 9 T\nb", ["a", "\nb"]),           # a full-width header is a header after NFKC
    ],
    "pieces": [
        ("p1\fp2\fp3", ["p1", "p2", "p3"]),
        ("p1\f\fp3\f", ["p1", "", "p3"]),                      # a blank middle page stays a page
        ("p1\f  \n \u1680\x85\n", ["p1"]),                     # Ogham space and NEL are white space (str.strip)
        ("p1\f\n\f\n", ["p1", "\n"]),                          # only the last blank piece goes
        ("", []),
        ("p1\n\f\n", ["p1\n"]),                                 # the first page keeps its own LF
    ],
    "trailing white space": [
        ("a  \t\nb\u00a0\n   \nc", ["a\nb\n\nc"]),            # NFKC makes U+00A0 a space, then it goes
        ("  lead kept\x1f", ["  lead kept"]),                    # leading space stays; U+001F is white space
    ],
    "footer": [
        ("body\nAuthor   Standards Track   [Page 3]\n\n", ["body\n\n\n"]),   # emptied, kept as a line
        ("body\n[page 3]   \n", ["body\n\n"]),                    # case-insensitive
        ("[Page 3] is cited here\nlast line", ["[Page 3] is cited here\nlast line"]),   # not the last line
        ("body\nsee [Page 3] x\n", ["body\nsee [Page 3] x\n"]),      # not at the line's end
        ("body\n[Page three]", ["body\n[Page three]"]),
        ("x\f[Page 2]\n", ["x", "\n"]),                            # the only line of a page
    ],
    "header": [
        (("RFC 791   Internet Protocol   September 1981\nbody one\n[Page 1]\f"
          "\n   RFC 791   Internet Protocol\nbody two\n[Page 2]\n"),
         ["RFC 791   Internet Protocol   September 1981\nbody one\n", "\n\nbody two\n\n"]),
        ("RFC 791 x\nb", ["RFC 791 x\nb"]),                          # the first page keeps its header
        ("a\fRFC 791\nb", ["a", "RFC 791\nb"]),                      # no white space after the digits
        ("a\fRFC791 x\nb", ["a", "RFC791 x\nb"]),                    # no space between RFC and the digits
        ("a\fRfc 791 x\nb", ["a", "Rfc 791 x\nb"]),                  # the header is case-sensitive
        ("a\fbody\nRFC 791 x\n", ["a", "body\nRFC 791 x\n"]),        # not the first non-blank line
        ("a\fRFC 791\tx\nb", ["a", "\nb"]),                          # a tab is white space
    ],
    "header and footer": [
        ("a\fRFC 5 Title   [Page 2]\n", ["a", "\n"]),   # one line is both: found first, emptied once
        ("a\fRFC 5 T\n[Page 2]", ["a", "\n"]),
    ],
}


@pytest.mark.parametrize("step", sorted(CASES))
def test_each_step_by_hand(step):
    for text, expected in CASES[step]:
        assert pages_of(text) == expected, (step, text)


def test_a_plain_member_is_read_as_it_is_and_a_gzip_member_gunzipped():
    raw = "caf\u00e9\r\nRFC 1\f".encode("utf-8") + b"\xff\n"
    assert member_text("rfc17.txt", raw) == "caf\u00e9\r\nRFC 1\f\ufffd\n"
    assert member_text("rfc17.txt.gz", gzip.compress(raw, mtime=0)) == member_text("rfc17.txt", raw)
    assert pages_of(member_text("rfc17.txt", raw)) == ["caf\u00e9\nRFC 1", "\ufffd\n"]
    assert pages_of(member_text("rfc17.txt", b"Latin-1 \xe9t\xe9")) == ["Latin-1 \ufffdt\ufffd"]


def test_page_hash_is_of_the_utf8_text():
    assert page_hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert page_hash("\u00e9") == hashlib.sha256(b"\xc3\xa9").hexdigest()


def _ar_member(name, data):
    header = name.encode().ljust(16) + b"0".ljust(12) + b"0".ljust(6) * 2 + b"100644".ljust(8)
    return header + str(len(data)).encode().ljust(10) + b"`\n" + data + (b"\n" if len(data) % 2 else b"")


def test_ar_members_by_hand():
    blob = b"!<arch>\n" + _ar_member("debian-binary", b"2.0\n") + _ar_member("odd", b"abc") + \
        _ar_member("data.tar.xz", b"xy")
    assert ar_members(blob) == {"debian-binary": b"2.0\n", "odd": b"abc", "data.tar.xz": b"xy"}


def test_a_hand_made_package_gz_and_plain_members_links_skipped(tmp_path):
    files = {"./usr/share/doc/RFC/std/rfc791.txt.gz": gzip.compress(b"gz text\r\n\f", mtime=0),
             "./usr/share/doc/RFC/old/rfc17.txt": b"plain \xe9",
             "./usr/share/doc/RFC/std/rfc791.json": b"{}",
             "./usr/share/doc/RFC/std/rfc9999.txt.gz": gzip.compress(b"not wanted", mtime=0)}
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("./usr/share/doc/RFC/links/rfc791.txt.gz")
        link.type, link.linkname = tarfile.SYMTYPE, "../std/rfc791.txt.gz"
        archive.addfile(link)
    deb = tmp_path / "p.deb"
    deb.write_bytes(b"!<arch>\n" + _ar_member("debian-binary", b"2.0\n") +
                    _ar_member("data.tar.xz", lzma.compress(buffer.getvalue())))
    texts = rfc_texts(str(deb), {"rfc0791", "rfc0017"})
    assert texts == {"rfc0791": "gz text\r\n\f", "rfc0017": "plain \ufffd"}
    assert pages_of(texts["rfc0791"]) == ["gz text\n"] and pages_of(texts["rfc0017"]) == ["plain \ufffd"]


def test_the_builder_agrees_on_the_hand_made_texts():
    """The one allowed cross-check: the builder's split_pages gives the same pages on every text worked above."""
    from nclue.builder.realpage.pages import split_pages
    texts = [text for cases in CASES.values() for text, _ in cases]
    assert len(texts) >= 25
    disagree = [(text, pages_of(text), split_pages(text)) for text in texts if pages_of(text) != split_pages(text)]
    assert not disagree


# --- slow: every page hash of the release, from the packages ----------------------------------------------------

@pytest.mark.slow
def test_every_page_hash_of_the_release_is_reproduced_from_the_packages():
    with open(CORPUS, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    by_package = {}
    for row in rows:
        by_package.setdefault(row["package"], set()).add(row["docid"])
    folder = package_folder()
    needed = sorted(set(PACKAGE_NAMES) | set(by_package))
    absent = [deb_file(name) for name in needed if not os.path.isfile(os.path.join(folder, deb_file(name)))]
    if absent:
        pytest.skip(f"the pinned doc-rfc packages are not in {folder} (set NCLUE_REALPAGE_PACKAGES): "
                    f"missing {', '.join(absent)}")
    texts = {}
    for package, docids in sorted(by_package.items()):
        found = rfc_texts(os.path.join(folder, deb_file(package)), docids)
        assert set(found) == docids, f"{package} lacks {sorted(docids - set(found))[:10]}"
        texts.update(found)
    checked = matched = 0
    wrong = []
    for row in rows:
        pages = pages_of(texts[row["docid"]])
        assert row["pages"] == len(row["page_sha256"])
        if len(pages) != len(row["page_sha256"]):
            wrong.append(f"{row['docid']}: {len(pages)} pages, the release says {len(row['page_sha256'])}")
            continue
        for number, (page, expected) in enumerate(zip(pages, row["page_sha256"]), 1):
            checked += 1
            if page_hash(page) == expected:
                matched += 1
            else:
                wrong.append(f"{row['docid']} page {number}")
    total = sum(len(row["page_sha256"]) for row in rows)
    assert not wrong, f"{len(wrong)} wrong, first: {wrong[:10]}"
    assert checked == matched == total and len(rows) == 2021
