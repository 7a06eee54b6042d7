"""``freeze``: write the frozen claims and the manifest from the current data (builder only).

``reproduce`` never calls this.  Validity controls are asserted here, so a
broken builder cannot freeze a wrong control value: the fact oracle must
score 100 and the single-page floor 0 (paper section 5; docs/claims.md).
Refusals raise :class:`FreezeError`, which the command line reports as a
message (exit 2).
"""

import os

from ..analyses import REGISTRY
from ..analyses.shared.outcome_vectors import outcomes
from ..analyses.shared.release_manifest import MEMO_KEY
from ..core import claim_ids, integrity, layout
from ..core.errors import NclueError
from ..core.inputs import recording
from ..core.instrument import Instrument
from ..core.jsonio import read_json
from ..core.metrics import summary
from .claims import write_claim_file

CONTROLS_BY_CONSTRUCTION = {"oracle_facts": 100.0, "floor_single_page": 0.0}


class FreezeError(NclueError):
    """``freeze`` refused to write claims (a control off its constructed value, an analysis failing)."""


def _assert_controls(inst):
    systems, _ = inst.systems()
    for sid, want in CONTROLS_BY_CONSTRUCTION.items():
        if sid in systems:
            got = summary(outcomes(inst, layout.CROSSPAGE.ranking(sid)))["nclue_score"]
            if got != want:
                raise FreezeError("freeze refused: control %s scores %r, must be %r by construction" % (sid, got, want))


def _check_observed(name, unit, observed):
    """The files a unit read are the files its claims will record (docs/claims.md#a-claim-file-is-checked-as-data):
    freeze refuses a unit whose declared inputs miss a file it read or name one it did not read."""
    declared = set(unit.inputs)
    unread, undeclared = sorted(declared - set(observed)), sorted(set(observed) - declared)
    if unread or undeclared:
        raise FreezeError("freeze refused: unit %s of %s %s" % (unit.key, name, "; ".join(
            (["read %s, which it does not declare" % ", ".join(undeclared[:3])] if undeclared else []) +
            (["declares %s, which it did not read" % ", ".join(unread[:3])] if unread else []))))


def _check_claim_ids(name, analysis, values):
    """Every id an analysis freezes is built by one of its declared templates (:mod:`nclue.core.claim_ids`;
    docs/claims.md#claim-ids): freeze refuses one that none builds, naming it."""
    stray = claim_ids.unmatched(name, [value.id for value, _ in values], analysis.claims)
    if stray:
        raise FreezeError("freeze refused: %s: claim id %s matches none of its templates (%s)%s" % (
            name, stray[0], ", ".join(t.template for t in analysis.claims),
            " and %d more" % (len(stray) - 1) if len(stray) > 1 else ""))


def freeze(root, log=print):
    """Compute every analysis, then (only when all succeeded) write the claim files and the manifest."""
    inst = Instrument(root)
    # hashes of the data as it stands now
    data_files = [p for p in integrity.released_files_on_disk(root)
                  if p.startswith((layout.DATA_DIR + "/", layout.PAPER_DIR + "/"))]
    hashes = {p: integrity.sha256_file(layout.abspath(root, p))[0] for p in data_files}
    _assert_controls(inst)
    info = manifest_info(root)
    inst.memo(MEMO_KEY, lambda: dict(info))   # release.consistency compares with what will be written
    frozen = []
    for name in sorted(REGISTRY):
        analysis = REGISTRY[name]
        values = []
        try:
            for unit in analysis.units(inst):
                if not all(inst.exists(p) for p in unit.inputs):
                    continue          # e.g. an instrument without a paper transcription
                with recording() as seen:
                    computed = list(unit.compute())
                _check_observed(name, unit, integrity.observed_inputs(root, seen))
                for value in computed:
                    values.append((value, unit.inputs))
        except NclueError as exc:
            raise FreezeError("freeze refused: %s: %s" % (name, exc)) from exc
        _check_claim_ids(name, analysis, values)
        if not values:
            log("skipped %s: its inputs are absent" % layout.claim_file(name))
            continue
        frozen.append((name, analysis, values))
    os.makedirs(os.path.join(root, layout.CLAIMS_DIR), exist_ok=True)
    for name, analysis, values in frozen:
        write_claim_file(root, layout.claim_file(name), name, analysis.level, analysis.source, values, hashes)
        log("froze %s: %d claims" % (layout.claim_file(name), len(values)))
    return write_release_manifest(root)


def manifest_info(root):
    """The header of MANIFEST.json (instrument, synthetic, generator, releases, note) from the build files."""
    build = read_json(layout.abspath(root, layout.BUILD), layout.BUILD)
    info = {
        "instrument": build.get("instrument", "unnamed instrument"),
        "synthetic": bool(build.get("synthetic")),
        "generator": {"command": build.get("command"), "seed": build.get("seed"), "config": build.get("config"),
                      "version": build.get("generator_version")},
        "releases": [layout.V1],
        "note": "Synthetic stand-in for the n-Clue CrossPage release; built by this repository's code from "
                "the seed. The original corpus and neural rankings are not included.",
    }
    for release in layout.RELEASES.values():
        if release == layout.CROSSPAGE or not os.path.isfile(layout.abspath(root, release.build)):
            continue
        info["generator"][release.seed_key] = read_json(layout.abspath(root, release.build), release.build).get("seed")
        info["releases"].append(release.base)
        if release in MANIFEST_NOTES:
            info["note"] = MANIFEST_NOTES[release](info["note"])
    info["natures"] = {base: layout.RELEASES[base].nature for base in info["releases"]}
    return info


# what MANIFEST.json's note says when each further release is present
MANIFEST_NOTES = {
    layout.SOURCESHIFT: lambda note: (
        "Synthetic stand-in for the n-Clue CrossPage (data/v1) and SourceShift (data/v2) releases and their label "
        "audit (data/audit, simulated responses); built by this repository's code from the seeds. The original "
        "corpora, neural rankings and human audit are not included."),
    layout.REALPAGE: lambda note: note + (
        " RealPage (data/v3) is real documents that are not the paper's: IETF RFCs from Debian's pinned doc-rfc "
        "packages, built by the paper's construction; it ships ids, hashes and derived facts, no page text."),
}


def write_release_manifest(root):
    files = [(p, layout.role_of(p)) for p in integrity.released_files_on_disk(root)]
    return integrity.write_manifest(root, files, manifest_info(root))
