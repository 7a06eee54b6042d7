"""Release integrity: MANIFEST.json, SHA256SUMS, hashes, completeness (docs/schema.md#manifestjson-and-sha256sums).

``MANIFEST.json`` lists every released file (path, bytes, sha256, role) and
says the instrument is synthetic with the generator command and seed.
``SHA256SUMS`` lists the same files plus the manifest in coreutils format
(``<64 hex>  <path>``), so ``sha256sum -c SHA256SUMS`` passes.

Paths must be relative, use ``/``, contain no ``..`` or empty parts and not
resolve (through symlinks) outside the root.  Files are hashed in 1 MiB
chunks.  Files under ``data/`` and ``reference_metrics/`` that the manifest
does not list are reported.
"""

from __future__ import annotations

import hashlib
import os
import re
from typing import Any

from .errors import InputError, MissingInput, NclueError
from .inputs import hash_into, read_input
from .jsonio import dumps_pretty, open_output, read_json
from .layout import RELEASE_DIRS, RELEASES, abspath, role_of

MANIFEST = "MANIFEST.json"
SUMS = "SHA256SUMS"
MANIFEST_SCHEMA = "nclue.manifest/1"
ANCHORS = (MANIFEST, SUMS)      # verified by the integrity stage itself, never a claim input


def observed_inputs(root: str, paths: set[Any]) -> list[Any]:
    """The release-relative paths (sorted) of the absolute ``paths`` a computation opened
    (:class:`nclue.core.inputs.recording`), without the integrity anchors and anything outside ``root``."""
    base = os.path.abspath(root)
    out = set()
    for path in paths:
        rel = os.path.relpath(path, base).replace(os.sep, "/")
        if not rel.startswith("../") and rel not in ANCHORS:
            out.add(rel)
    return sorted(out)


RELEASED_DIRS = RELEASE_DIRS
_HEX = re.compile(r"^[0-9a-f]{64}$")
_SUM_LINE = re.compile(r"^([0-9a-fA-F]{64}) [ *](.+)$")


def sha256_file(path: str, chunk: int = 1 << 20, where: str | None = None) -> tuple[Any, ...]:
    """``(sha256 hex, bytes)`` of a regular file, streamed (:func:`nclue.core.inputs.hash_into`: a FIFO or a device
    is refused, and reading stops at the file-size limit)."""
    h = hashlib.sha256()
    size = hash_into(path, where or path, h, size=chunk)
    return h.hexdigest(), size


def unsafe_reason(root: str, rel: str) -> Any:
    """Why ``rel`` is not a safe released path under ``root`` (None when it is)."""
    if not isinstance(rel, str) or not rel:
        return "empty path"
    if len(rel) > 1024 or any(ord(ch) < 32 for ch in rel):
        return "path longer than 1,024 characters or with control characters"
    if rel.startswith("/") or re.match(r"^[A-Za-z]:", rel) or "\\" in rel:
        return "absolute or non-POSIX path"
    parts = rel.split("/")
    if any(p in ("", ".", "..") for p in parts):
        return "path has an empty, '.' or '..' part"
    try:
        real_root = os.path.realpath(root)
        real = os.path.realpath(os.path.join(root, *parts))
    except (OSError, ValueError) as exc:
        return "cannot be resolved (%s)" % exc
    if os.path.commonpath([real_root, real]) != real_root:
        return "resolves outside the root (symlink?)"
    return None


class FileCheck:
    """Outcome for one released file: status ``ok`` | ``missing`` | ``bad``; ``content``: the bytes that were
    hashed, when :func:`check` was asked to keep them (a JSON document, decoded next from the same read)."""

    __slots__ = ("path", "role", "status", "reason", "sha256", "content")

    def __init__(self, path: str, role: str, status: str, reason: str = "", sha256: str | None = None,
                 content: bytes | None = None) -> None:
        self.path, self.role, self.status, self.reason, self.sha256 = path, role, status, reason, sha256
        self.content = content


class IntegrityResult:
    def __init__(self) -> None:
        self.files: dict[str, FileCheck] = {}            # path -> FileCheck
        self.manifest: dict[str, Any] | None = None       # parsed manifest (dict) or None
        self.problems: list[tuple[str, str, str]] = []         # (check id, status, reason) for manifest-level checks
        self.unlisted: list[str] = []

    def status(self, rel: str) -> str:
        check = self.files.get(rel)
        return "unlisted" if check is None else check.status

    def reason(self, rel: Any) -> Any:
        check = self.files.get(rel)
        return "%s is not listed in MANIFEST.json" % rel if check is None else check.reason


def load_manifest(root: str) -> dict[str, Any]:
    """Parse and validate MANIFEST.json; raise InputError naming the field."""
    obj = read_json(os.path.join(root, MANIFEST), MANIFEST)
    if obj.get("manifest_schema") != MANIFEST_SCHEMA:
        raise InputError(MANIFEST, "expected %r" % MANIFEST_SCHEMA, field="manifest_schema")
    files = obj.get("files")
    if not isinstance(files, list):
        raise InputError(MANIFEST, "must be a list", field="files")
    seen = set()
    for i, entry in enumerate(files):
        field = "files[%d]" % i
        if not isinstance(entry, dict):
            raise InputError(MANIFEST, "must be an object", field=field)
        for key in ("path", "sha256", "role"):
            if not isinstance(entry.get(key), str):
                raise InputError(MANIFEST, "must be a string", field=field + "." + key)
        if not isinstance(entry.get("bytes"), int) or isinstance(entry.get("bytes"), bool) or entry["bytes"] < 0:
            raise InputError(MANIFEST, "must be a non-negative integer", field=field + ".bytes")
        if not _HEX.match(entry["sha256"]):
            raise InputError(MANIFEST, "must be 64 lower-case hex digits", field=field + ".sha256")
        reason = unsafe_reason(root, entry["path"])
        if reason:
            raise InputError(MANIFEST, "unsafe path %r: %s" % (entry["path"], reason), field=field + ".path")
        if entry["path"] in seen:
            raise InputError(MANIFEST, "duplicate path %r" % entry["path"], field=field + ".path")
        seen.add(entry["path"])
    _check_releases(obj)
    return obj


def _check_releases(obj: dict[str, Any]) -> None:
    """MANIFEST.json's own fields agree with each other and with its files: ``releases`` lists known release
    folders once each, ``natures`` names exactly those, and every listed file under a release folder belongs to
    a listed release (a manifest without ``releases`` -- an original release's -- is not held to them)."""
    releases = obj.get("releases")
    if releases is None:
        return
    if not isinstance(releases, list) or not all(isinstance(r, str) for r in releases):
        raise InputError(MANIFEST, "must be a list of release folders", field="releases")
    for i, base in enumerate(releases):
        if base not in RELEASES:
            raise InputError(MANIFEST, "unknown release %r (known: %s)" % (base, ", ".join(sorted(RELEASES))),
                             field="releases[%d]" % i)
        if releases.index(base) != i:
            raise InputError(MANIFEST, "release %r listed twice" % base, field="releases[%d]" % i)
    natures = obj.get("natures")
    if natures is not None:
        if not isinstance(natures, dict):
            raise InputError(MANIFEST, "must be an object", field="natures")
        if sorted(natures) != sorted(releases):
            raise InputError(MANIFEST, "names %s, but releases lists %s" % (
                ", ".join(sorted(natures)) or "none", ", ".join(sorted(releases)) or "none"), field="natures")
    for i, entry in enumerate(obj["files"]):
        base = next((b for b in RELEASES if entry["path"].startswith(b + "/")), None)
        if base is not None and base not in releases:
            raise InputError(MANIFEST, "lists %r, a file of %s, which releases does not list" % (
                entry["path"], base), field="files[%d].path" % i)


def parse_sums(root: str) -> dict[str, Any]:
    """``{path: sha256}`` from SHA256SUMS; InputError naming the line."""
    data = read_input(os.path.join(root, SUMS), SUMS)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(SUMS, "not valid UTF-8 (byte offset %d)" % exc.start, line=data[:exc.start].count(b"\n") + 1) from exc
    if text.startswith("\ufeff"):
        raise InputError(SUMS, "starts with a byte-order mark (coreutils format expected)", line=1)
    if "\r" in text:
        raise InputError(SUMS, "has CRLF line ends; sha256sum -c expects \\n", line=text[:text.index("\r")].count("\n") + 1)
    if text and not text.endswith("\n"):
        raise InputError(SUMS, "last line has no newline (truncated file?)", line=text.count("\n") + 1)
    out = {}
    for number, line in enumerate(text.split("\n"), 1):
        if not line:
            continue
        m = _SUM_LINE.match(line)
        if not m:
            raise InputError(SUMS, "not '<64 hex>  <path>'", line=number)
        digest, rel = m.group(1).lower(), m.group(2)
        reason = unsafe_reason(root, rel)
        if reason:
            raise InputError(SUMS, "unsafe path %r: %s" % (rel, reason), line=number)
        if rel in out:
            raise InputError(SUMS, "duplicate path %r" % rel, line=number)
        out[rel] = digest
    return out


def released_files_on_disk(root: Any) -> Any:
    """Every file (or symlink to one) under the released folders, as relative paths."""
    return walk_release(root)[0]


def walk_release(root: str) -> tuple[Any, ...]:
    """``(files, linked_dirs)`` under the released folders: every non-directory entry, and every symlinked
    directory (never followed: a release holds regular files, so a linked directory is reported)."""
    files, linked = [], []
    for top in RELEASED_DIRS:
        base = os.path.join(root, top)
        if os.path.islink(base):
            linked.append(top + "/")
            continue
        if not os.path.isdir(base):
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            for name in list(dirnames):
                if os.path.islink(os.path.join(dirpath, name)):
                    linked.append(os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/") + "/")
            dirnames[:] = sorted(d for d in dirnames if not os.path.islink(os.path.join(dirpath, d)))
            for name in sorted(filenames):
                files.append(os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/"))
    return sorted(files), sorted(linked)


def check(root: str, on_manifest: None = None, keep_json: bool = False) -> IntegrityResult:
    """Run every integrity check; never raises for bad input (problems are recorded).  ``on_manifest``
    is called with the decoded MANIFEST.json (None when unusable) before any file is hashed.  The stages:
    the manifest, every listed file (:func:`check_listed_file`; ``keep_json``: a ``.json`` file whose hash
    agrees keeps the bytes hashed, so that its caller decodes them without reading the file again), SHA256SUMS
    against the manifest (:func:`sums_problems`), and the files present but unlisted."""
    result = IntegrityResult()
    manifest = _manifest_stage(root, result)
    if on_manifest is not None:
        on_manifest(manifest)
    if manifest is not None:
        result.manifest = manifest
        result.problems.append(("integrity.manifest", "pass", "%d files listed, synthetic=%s" % (
            len(manifest["files"]), manifest.get("synthetic"))))
        for entry in manifest["files"]:
            result.files[entry["path"]] = check_listed_file(root, entry, keep_json and entry["path"].endswith(".json"))
    try:
        mismatches, lines = sums_problems(root, manifest)
        if mismatches:
            result.problems.append(("integrity.sha256sums", "fail", "; ".join(mismatches[:5]) +
                                    ("" if len(mismatches) <= 5 else "; ... %d in all" % len(mismatches))))
        else:
            result.problems.append(("integrity.sha256sums", "pass", "%d lines agree with MANIFEST.json" % lines))
    except NclueError as exc:
        result.problems.append(("integrity.sha256sums", "fail", str(exc)))
    _unlisted_stage(root, result, manifest)
    return result


def _manifest_stage(root: str, result: IntegrityResult) -> dict[str, Any] | None:
    """The decoded MANIFEST.json, or None with the problem recorded."""
    try:
        return load_manifest(root)
    except InputError as exc:
        result.problems.append(("integrity.manifest", "fail", str(exc)))
    except MissingInput as exc:
        result.problems.append(("integrity.manifest", "fail", "%s: %s" % (MANIFEST, exc)))
    return None


def check_listed_file(root: str, entry: dict[str, Any], keep: bool = False) -> FileCheck:
    """The :class:`FileCheck` of one MANIFEST.json entry: absent, not a regular file, a role other than the
    layout's, unreadable, or a size or sha256 other than the manifest's (``bad``); else ``ok`` (``keep``: with
    the bytes hashed, read whole under the same size limit instead of streamed)."""
    rel, role = entry["path"], entry["role"]
    full = abspath(root, rel)
    if not os.path.lexists(full):
        return FileCheck(rel, role, "missing", "%s is listed in MANIFEST.json but absent" % rel)
    if not os.path.isfile(full):
        return FileCheck(rel, role, "bad", "%s is not a regular file" % rel)
    declared = role_of(rel)
    if role != declared:
        return FileCheck(rel, role, "bad", "%s: MANIFEST.json gives it the role %r, but the release layout declares "
                                           "%r" % (rel, role, declared))
    data = None
    try:
        if keep:
            data = read_input(full, rel)
            digest, size = hashlib.sha256(data).hexdigest(), len(data)
        else:
            digest, size = sha256_file(full, where=rel)
    except InputError as exc:
        return FileCheck(rel, role, "bad", str(exc))
    if size != entry["bytes"] or digest != entry["sha256"]:
        return FileCheck(rel, role, "bad", "%s: sha256 %s (%d bytes) differs from MANIFEST.json %s (%d bytes)" % (
            rel, digest[:12], size, entry["sha256"][:12], entry["bytes"]), digest)
    return FileCheck(rel, role, "ok", "", digest, data)


def sums_problems(root: str, manifest: dict[str, Any] | None) -> tuple[Any, ...]:
    """``(mismatches, lines)``: where SHA256SUMS and MANIFEST.json (None: unusable) disagree, and the number
    of SHA256SUMS lines; raises NclueError when SHA256SUMS itself is unusable."""
    sums = parse_sums(root)
    mismatches = []
    listed = {e["path"]: e["sha256"] for e in manifest["files"]} if manifest else {}
    for rel, digest in sorted(sums.items()):
        if rel == MANIFEST:
            full = os.path.join(root, MANIFEST)
            if os.path.isfile(full) and sha256_file(full, where=MANIFEST)[0] != digest:
                mismatches.append("MANIFEST.json hash differs from SHA256SUMS")
        elif manifest is not None and rel not in listed:
            mismatches.append("%s is in SHA256SUMS but not in MANIFEST.json" % rel)
        elif manifest is not None and listed[rel] != digest:
            mismatches.append("%s: SHA256SUMS and MANIFEST.json disagree" % rel)
    for rel in sorted(listed):
        if rel not in sums:
            mismatches.append("%s is in MANIFEST.json but not in SHA256SUMS" % rel)
    if MANIFEST not in sums:
        mismatches.append("SHA256SUMS does not cover MANIFEST.json")
    return mismatches, len(sums)


def _unlisted_stage(root: str, result: IntegrityResult, manifest: dict[str, Any] | None) -> None:
    """The files under the released folders that MANIFEST.json does not list (symlinked folders named, not followed)."""
    listed_paths = set(result.files)
    on_disk, linked_dirs = walk_release(root)
    result.unlisted = [p for p in on_disk if p not in listed_paths] + [
        "%s (symlinked directory, not followed)" % d for d in linked_dirs]
    if manifest is None:
        return
    if result.unlisted:
        result.problems.append(("integrity.unlisted", "fail", "files present but not in MANIFEST.json: " +
                                ", ".join(result.unlisted[:5]) +
                                ("" if len(result.unlisted) <= 5 else " ... (%d in all)" % len(result.unlisted))))
    else:
        result.problems.append(("integrity.unlisted", "pass", "no unlisted file under data/ or reference_metrics/"))


def verify_files(root: Any, rels: Any) -> Any:
    """``[(rel, problem)]`` for the files among ``rels`` that MANIFEST.json does not vouch for: the manifest
    unusable, the file unlisted, absent, or with another size or sha256 (an empty list: all verified)."""
    try:
        manifest = load_manifest(root)
    except NclueError as exc:
        return [(MANIFEST, "MANIFEST.json is unusable: %s" % exc)]
    listed = {e["path"]: e for e in manifest["files"]}
    problems = []
    for rel in rels:
        entry = listed.get(rel)
        full = abspath(root, rel)
        if entry is None:
            problems.append((rel, "%s is not listed in MANIFEST.json" % rel))
        elif not os.path.isfile(full):
            problems.append((rel, "%s is listed in MANIFEST.json but absent" % rel))
        else:
            try:
                digest, size = sha256_file(full, where=rel)
            except InputError as exc:
                problems.append((rel, str(exc)))
                continue
            if (digest, size) != (entry["sha256"], entry["bytes"]):
                problems.append((rel, "%s: sha256 %s (%d bytes) differs from MANIFEST.json %s (%d bytes)" % (
                    rel, digest[:12], size, entry["sha256"][:12], entry["bytes"])))
    return problems


def write_manifest(root: Any, files_with_roles: Any, info: Any) -> Any:
    """Write MANIFEST.json and SHA256SUMS for ``[(path, role)]`` (builder only)."""
    entries = []
    for rel, role in sorted(files_with_roles):
        digest, size = sha256_file(abspath(root, rel))
        entries.append({"path": rel, "bytes": size, "sha256": digest, "role": role})
    manifest = dict(info)
    manifest["manifest_schema"] = MANIFEST_SCHEMA
    manifest["files"] = entries
    with open_output(os.path.join(root, MANIFEST), MANIFEST) as fh:
        fh.write(dumps_pretty(manifest))
    lines = [(e["sha256"], e["path"]) for e in entries]
    lines.append((sha256_file(os.path.join(root, MANIFEST))[0], MANIFEST))
    with open_output(os.path.join(root, SUMS), SUMS) as fh:
        for digest, rel in sorted(lines, key=lambda t: t[1]):
            fh.write("%s  %s\n" % (digest, rel))
    return manifest
