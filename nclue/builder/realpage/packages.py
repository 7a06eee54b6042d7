"""The pinned source of RealPage: Debian's ``doc-rfc`` packages, version 20230121-1 (docs/realpage.md#the-packages).

A package is used only when its ``.deb`` has the pinned SHA-256.  It is read with the standard library: the
``ar`` archive by hand, its ``data.tar.xz`` with :mod:`tarfile` and :mod:`lzma`, each ``rfcNNNN.txt.gz`` with
:mod:`gzip`; 322 RFCs are shipped as plain ``rfcNNNN.txt`` instead, and are read as they are.  :func:`fetch` downloads the packages into a cache folder through a private apt configuration made
from the machine's own deb822 source list, with ``Components: non-free``; no host is written here.
"""

import gzip
import hashlib
import io
import lzma
import os
import re
import subprocess
import tarfile

from .settings import RealPageError

VERSION = "20230121-1"
# package -> SHA-256 of doc-rfc-<name>_20230121-1_all.deb, as the archive's Packages index gives it
PACKAGES = {
    "doc-rfc-experimental": "bff38cd2d63f0f85ed7eaf954845f34bbaba56dfe3111c9e3e07624296889817",
    "doc-rfc-fyi-bcp": "d1db7332103b14ac2ce4e9e09188e38b3ade332bcc791990c7eb8064333a2b9e",
    "doc-rfc-informational": "143e78778eda9f187548b74028e98acf64ed42e2ea075af0774ca3bbcb0c6d01",
    "doc-rfc-misc": "395ce1db9ecbd281e162984aa6416487702cfa79f5e9d508522db55645ab20dc",
    "doc-rfc-old-std": "13aa366cbed958a3decc3a89e32c058746764906e1045b5cd00425b1be0ffc8a",
    "doc-rfc-others": "2b36a22145dd3fcb380079706d1a39afa7714499018d0a607a32325ead292500",
    "doc-rfc-std": "b9bfead1a230da198ab96ce70cc9fbb64dc600d914c1504eeb4c19e29f95734b",
    "doc-rfc-std-proposed": "b34f60b4bee98891524a2c2508f3d4dcb1e1468a2bd26e0a5f5aecf95806eea0",
}
TEXT_MEMBER = re.compile(r"rfc(\d{1,5})\.txt(?:\.gz)?$")       # gzip-compressed, or plain (322 RFCs)
GZIP_MAGIC = b"\x1f\x8b"
META_MEMBER = re.compile(r"rfc(\d{1,5})\.json$")
MAX_PACKAGE_BYTES = 1 << 30          # the largest pinned package is 160 MB; a 1 GiB file is not one of them
MAX_TEXT_BYTES = 64 << 20            # one decompressed RFC text (the longest is 1.6 MB)


class PackageError(RealPageError):
    """A package that is missing or cannot be read as pinned: the message names the file and what was wrong
    (expected and found)."""


FOLDER_VARIABLE = "NCLUE_REALPAGE_PACKAGES"


def default_folder():
    """Where ``reproduce.py --deep`` and the tests look for the packages: ``$NCLUE_REALPAGE_PACKAGES``, else
    ``~/.cache/nclue/doc-rfc-20230121-1`` (``nclue build --target realpage --fetch --packages`` that folder fills it)."""
    return os.environ.get(FOLDER_VARIABLE) or os.path.join(os.path.expanduser("~"), ".cache", "nclue",
                                                            "doc-rfc-" + VERSION)


def deb_name(package):
    """The file name ``apt-get download`` gives a pinned package.

    >>> deb_name("doc-rfc-std")
    'doc-rfc-std_20230121-1_all.deb'
    """
    return "%s_%s_all.deb" % (package, VERSION)


def missing(folder):
    """The pinned packages whose ``.deb`` is not a regular file in ``folder`` (sorted; empty: all present)."""
    return [name for name in sorted(PACKAGES) if not os.path.isfile(os.path.join(folder, deb_name(name)))]


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def checked_path(folder, package):
    """The path of ``package``'s ``.deb`` in ``folder``, after checking that it is a regular file (not a link),
    no larger than :data:`MAX_PACKAGE_BYTES`, with the pinned SHA-256."""
    path = os.path.join(folder, deb_name(package))
    if os.path.islink(path):
        raise PackageError("%s: a symbolic link; the package must be the downloaded file itself" % path)
    if not os.path.isfile(path):
        raise PackageError("%s: missing (package %s=%s; `nclue build --target realpage --fetch` downloads it, "
                           "docs/realpage.md#the-packages)" % (path, package, VERSION))
    size = os.path.getsize(path)
    if size > MAX_PACKAGE_BYTES:
        raise PackageError("%s: %d bytes, larger than any pinned package (limit %d)" % (path, size, MAX_PACKAGE_BYTES))
    found = sha256_of(path)
    if found != PACKAGES[package]:
        raise PackageError("%s: sha256 expected %s, found %s" % (path, PACKAGES[package], found))
    return path


def ar_members(data, where="<data>"):
    r"""``{name: bytes}`` of an ``ar`` archive (a Debian package); a malformed or truncated one is a
    :class:`PackageError` naming the byte offset.

    >>> member = b"debian-binary   0           0     0     100644  4         `\n2.0\n"
    >>> ar_members(b"!<arch>\n" + member)
    {'debian-binary': b'2.0\n'}
    >>> ar_members(b"!<arch>\n" + member[:30])
    Traceback (most recent call last):
    ...
    nclue.builder.realpage.packages.PackageError: <data>: truncated or malformed ar member header at byte 8
    """
    if data[:8] != b"!<arch>\n":
        raise PackageError("%s: not an ar archive (expected a file starting with '!<arch>', found %r)"
                           % (where, bytes(data[:8])))
    out, at = {}, 8
    while at < len(data):
        header = data[at:at + 60]
        if len(header) < 60 or header[58:60] != b"`\n":
            raise PackageError("%s: truncated or malformed ar member header at byte %d" % (where, at))
        name = header[:16].decode("ascii", errors="replace").strip().rstrip("/")
        size_field = header[48:58].decode("ascii", errors="replace").strip()
        if not size_field.isdigit() or at + 60 + int(size_field) > len(data):
            raise PackageError("%s: member %r at byte %d: size %r runs past the end of the file (%d bytes)"
                               % (where, name, at, size_field, len(data)))
        if name in out:
            raise PackageError("%s: member %r appears twice" % (where, name))
        size = int(size_field)
        out[name] = data[at + 60:at + 60 + size]
        at += 60 + size + (size % 2)
    return out


def _data_tar(path):
    with open(path, "rb") as handle:
        members = ar_members(handle.read(), path)
    name = next((k for k in sorted(members) if k.startswith("data.tar")), None)
    if name is None:
        raise PackageError("%s: no data.tar member (found %s)" % (path, ", ".join(sorted(members)) or "none"))
    data = members[name]
    try:
        if name.endswith(".xz"):
            data = lzma.decompress(data)
        elif name != "data.tar":
            raise PackageError("%s: member %s: expected data.tar or data.tar.xz" % (path, name))
        return tarfile.open(fileobj=io.BytesIO(data))
    except (lzma.LZMAError, tarfile.TarError, EOFError) as exc:
        raise PackageError("%s: %s cannot be read: %s" % (path, name, exc)) from exc


def read_package(path):
    """``(number, kind, data)`` of every RFC member of one package, in archive order: ``kind`` is ``text``
    (the gzip-compressed text, as stored) or ``meta`` (the JSON metadata bytes)."""
    archive = _data_tar(path)
    with archive:
        try:
            for member in archive:
                base = os.path.basename(member.name)
                for kind, pattern in (("text", TEXT_MEMBER), ("meta", META_MEMBER)):
                    match = pattern.match(base)
                    if match and member.isfile():
                        yield int(match.group(1)), kind, archive.extractfile(member).read()
        except (tarfile.TarError, EOFError, OSError, lzma.LZMAError) as exc:
            raise PackageError("%s: data.tar cannot be read: %s" % (path, exc)) from exc


def rfc_text(data, where):
    r"""One ``rfcNNNN.txt.gz`` or ``rfcNNNN.txt`` member as text: gunzipped when it starts with gzip's magic
    bytes, as it is otherwise (at most :data:`MAX_TEXT_BYTES`), UTF-8 with an undecodable byte replaced (a
    handful of old RFCs are Latin-1).

    >>> rfc_text(b"plain\ftext\n", "rfc3.txt"), rfc_text(gzip.compress(b"zipped", mtime=0), "rfc4.txt.gz")
    ('plain\x0ctext\n', 'zipped')
    """
    if not data.startswith(GZIP_MAGIC):
        if len(data) > MAX_TEXT_BYTES:
            raise PackageError("%s: more than %d bytes" % (where, MAX_TEXT_BYTES))
        return data.decode("utf-8", errors="replace")
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as handle:
            raw = handle.read(MAX_TEXT_BYTES + 1)
    except (OSError, EOFError, lzma.LZMAError) as exc:
        raise PackageError("%s: does not decompress: %s" % (where, exc)) from exc
    if len(raw) > MAX_TEXT_BYTES:
        raise PackageError("%s: decompresses to more than %d bytes" % (where, MAX_TEXT_BYTES))
    return raw.decode("utf-8", errors="replace")


def read_texts(folder):
    """Every RFC of the eight checked packages: ``{number: (package, compressed text, metadata bytes or None)}``.
    An RFC whose text appears in two packages is a :class:`PackageError` (the pinned packages have none)."""
    out, meta = {}, {}
    for package in sorted(PACKAGES):
        path = checked_path(folder, package)
        for number, kind, data in read_package(path):
            if kind == "meta":
                meta[number] = data
            elif number in out:
                raise PackageError("%s: rfc%d's text is also in %s" % (path, number, out[number][0]))
            else:
                out[number] = (package, data)
    if not out:
        raise PackageError("%s: the packages hold no RFC text" % folder)
    return {number: (package, data, meta.get(number)) for number, (package, data) in out.items()}


# --- fetching -------------------------------------------------------------------------------------------------

def _stanzas(text):
    """The deb822 stanzas of a ``.sources`` file as ``[{field: value}]`` (comments dropped)."""
    out, current, last = [], {}, None
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        if not line.strip():
            if current:
                out.append(current)
            current, last = {}, None
        elif line[0] in " \t" and last:
            current[last] += "\n" + line.strip()
        elif ":" in line:
            last, _, value = line.partition(":")
            last = last.strip()
            current[last] = value.strip()
    if current:
        out.append(current)
    return out


def private_sources(source_dir="/etc/apt/sources.list.d"):
    """The machine's own deb822 stanzas that carry ``main``, with ``Components: non-free`` instead: the text of
    a private ``.sources`` file.  Nothing of the machine's configuration is changed."""
    stanzas = []
    if os.path.isdir(source_dir):
        for name in sorted(os.listdir(source_dir)):
            if name.endswith(".sources"):
                with open(os.path.join(source_dir, name), encoding="utf-8") as handle:
                    stanzas += [s for s in _stanzas(handle.read()) if "main" in s.get("Components", "").split()]
    if not stanzas:
        raise PackageError("%s: no deb822 source with Components: main, so no archive to fetch the non-free "
                           "doc-rfc packages from; download them by hand (docs/realpage.md#the-packages)" % source_dir)
    blocks = []
    for stanza in stanzas:
        stanza = dict(stanza, Components="non-free")
        blocks.append("\n".join("%s: %s" % (k, v) for k, v in stanza.items()))
    return "\n\n".join(blocks) + "\n"


def apt_options(private):
    """The ``-o`` options that give apt a private source list, lists and cache under ``private``."""
    return ["-o", "Dir::Etc::SourceList=/dev/null",
            "-o", "Dir::Etc::SourceParts=" + os.path.join(private, "sources.list.d"),
            "-o", "Dir::State::Lists=" + os.path.join(private, "lists"),
            "-o", "Dir::Cache=" + os.path.join(private, "cache")]


def fetch(cache, run=subprocess.run, source_dir="/etc/apt/sources.list.d"):
    """Download the pinned packages that ``cache`` lacks, through a private apt configuration in
    ``cache/apt``, then check every one against its pinned SHA-256.  Returns the packages downloaded."""
    need = missing(cache)
    if not need:
        for package in sorted(PACKAGES):
            checked_path(cache, package)
        return []
    private = os.path.join(cache, "apt")
    for sub in ("sources.list.d", "lists/partial", "cache/archives/partial"):
        os.makedirs(os.path.join(private, sub), exist_ok=True)
    with open(os.path.join(private, "sources.list.d", "doc-rfc.sources"), "w", encoding="utf-8") as handle:
        handle.write(private_sources(source_dir))
    options = apt_options(private)
    for command in (["apt-get", "-q", "update"] + options,
                    ["apt-get", "-q", "download"] + options + ["%s=%s" % (p, VERSION) for p in need]):
        try:
            done = run(command, cwd=cache, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        except OSError as exc:
            raise PackageError("%s: cannot run apt-get: %s" % (cache, exc)) from exc
        if done.returncode != 0:
            tail = (done.stdout or b"").decode("utf-8", "replace").strip().splitlines()[-3:]
            raise PackageError("apt-get %s exited %d: %s" % (command[2], done.returncode, " | ".join(tail)))
    for package in sorted(PACKAGES):
        checked_path(cache, package)
    return need
