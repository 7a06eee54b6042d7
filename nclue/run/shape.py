"""The declared shape of a release, checked (docs/claims.md#the-shape-of-a-release).

A release has parts (:mod:`nclue.core.layout`): each release (``v1``, ``v2``, ``v3``) and the label audit
(``audit``), present when their folder exists or MANIFEST.json lists a file of theirs, and the frozen outputs. A **present** part must be complete:

* every file kind the layout marks required for the part exists;
* every analysis of the part that has something to compute on this release
  (its units are not empty) has its claim file ``reference_metrics/<name>.json``;
* an input a claim needs that is absent from a present part fails the claim
  (it never skips): only a whole absent part skips.

And every file MANIFEST.json lists is read by some check: it is a frozen
claim file, the input of a frozen claim, or of a role declared
documentation-only.
"""

import os

from ..core import layout

# every release's folder is a part, and so is the label audit's
PART_DIRS = dict([(release.name, release.base) for release in layout.RELEASES.values()] + [
    (layout.AUDIT_PART, layout.AUDIT)])
PARTS = tuple(PART_DIRS)
DOCUMENTATION_ONLY_ROLES = ()       # every released file is read by some check


def part_of(rel):
    """The release part a path belongs to (None for one outside the parts)."""
    kind = layout.kind_of(rel)
    if kind is not None:
        return kind.part
    for part, folder in PART_DIRS.items():
        if rel.startswith(folder + "/"):
            return part
    return None


def analysis_part(name):
    """The release part of a registered analysis (:attr:`nclue.analyses.base.Analysis.part`)."""
    from ..analyses import REGISTRY
    analysis = REGISTRY.get(name)
    return None if analysis is None else analysis.part


class Presence:
    """Which parts of one release are present (their folder exists or the manifest lists a file of theirs)."""

    def __init__(self, root, integrity_result):
        listed = set(integrity_result.files)
        self.parts = set()
        for part in PARTS:
            folder = PART_DIRS[part]
            if os.path.isdir(layout.abspath(root, folder)) or any(p.startswith(folder + "/") for p in listed):
                self.parts.add(part)
        if os.path.isfile(layout.abspath(root, layout.PAPER_NUMBERS)) or layout.PAPER_NUMBERS in listed:
            self.parts.add("paper")

    def __contains__(self, part):
        return part in self.parts


def missing_files(root, presence):
    """``[(part, pattern)]`` of required file kinds absent from a present part."""
    out = []
    for kind in layout.FILE_KINDS:
        if not kind.required or kind.part not in presence:
            continue
        if "*" not in kind.pattern:
            if not os.path.isfile(layout.abspath(root, kind.pattern)):
                out.append((kind.part, kind.pattern))
            continue
        folder = layout.abspath(root, os.path.dirname(kind.pattern))
        names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
        rels = ["%s/%s" % (os.path.dirname(kind.pattern), n) for n in names]
        if not any(layout.kind_of(r) == kind for r in rels):
            out.append((kind.part, kind.pattern))
    return out


def unread_files(listed, claim_inputs, claim_file_paths):
    """Listed files that no check reads: not a claim file, not an input of a frozen claim, and not of a
    documentation-only role.  ``listed``: ``{path: role}``."""
    read = set(claim_inputs) | set(claim_file_paths)
    return sorted(p for p, role in listed.items() if p not in read and role not in DOCUMENTATION_ONLY_ROLES)
