"""``freeze``: write the frozen claims and the manifest from the current data (builder only).

``reproduce`` never calls this.  Validity controls are asserted here, so a
broken builder cannot freeze a wrong control value: the fact oracle must
score 100 and the single-page floor 0 (paper section 5).
"""

import os

from . import integrity
from .analyses import REGISTRY, claim_file
from .errors import NclueError
from .instrument import Instrument, ranking_path
from .claims import write_claim_file

ROLES = [
    ("data/v1/corpus.jsonl", "corpus"), ("data/v1/conditions.jsonl", "conditions"),
    ("data/v1/inventory.jsonl", "inventory"), ("data/v1/queries.jsonl", "queries"),
    ("data/v1/qrels.jsonl", "qrels"), ("data/v1/systems.json", "systems"),
    ("data/v1/build.json", "build-info"), ("data/v1/stats.json", "statistics"),
]


ROLES += [
    ("data/v1/repairs.jsonl", "repairs"),
    ("data/v2/corpus.jsonl", "corpus"), ("data/v2/conditions.jsonl", "conditions"),
    ("data/v2/queries.jsonl", "queries"), ("data/v2/qrels_s0.jsonl", "qrels-initial"),
    ("data/v2/qrels.jsonl", "qrels"), ("data/v2/systems.json", "systems"),
    ("data/v2/build.json", "build-info"), ("data/v2/stats.json", "statistics"),
    ("data/audit/audit.json", "audit-description"),
]


def role_of(rel):
    for path, role in ROLES:
        if rel == path:
            return role
    if rel.startswith("data/v2/rankings/forms/"):
        return "form-ranking"
    if rel.startswith("data/audit/"):
        return "audit-records"
    if rel.startswith("data/v1/rankings/forms/"):
        return "form-ranking"
    if rel.startswith("data/v1/rankings/"):
        return "ranking"
    if rel.startswith("data/v1/page_scores/"):
        return "page-scores"
    if rel.startswith("reference_metrics/paper/"):
        return "paper-numbers"
    if rel.startswith("reference_metrics/"):
        return "frozen-claims"
    return "data"


def _assert_controls(inst):
    from .analyses.scoring import outcomes
    from .metrics import summary

    systems, _ = inst.systems()
    expect = {"oracle_facts": 100.0, "floor_single_page": 0.0}
    for sid, want in expect.items():
        if sid in systems:
            got = summary(outcomes(inst, ranking_path(sid)))["nclue_score"]
            if got != want:
                raise SystemExit("freeze refused: control %s scores %r, must be %r by construction" % (sid, got, want))


def freeze(root, log=print):
    inst = Instrument(root)
    # hashes of the data as it stands now
    data_files = [p for p in integrity.released_files_on_disk(root)
                  if p.startswith("data/") or p.startswith("reference_metrics/paper/")]
    hashes = {p: integrity.sha256_file(os.path.join(root, *p.split("/")))[0] for p in data_files}
    _assert_controls(inst)
    os.makedirs(os.path.join(root, "reference_metrics"), exist_ok=True)
    for name in sorted(REGISTRY):
        analysis = REGISTRY[name]
        values = []
        try:
            for unit in analysis.units(inst):
                if not all(inst.exists(p) for p in unit.inputs):
                    continue          # e.g. an instrument without a paper transcription
                for value in unit.compute():
                    values.append((value, unit.inputs))
        except NclueError as exc:
            raise SystemExit("freeze refused: %s: %s" % (name, exc))
        if not values:
            log("skipped %s: its inputs are absent" % claim_file(name))
            continue
        write_claim_file(root, claim_file(name), name, analysis.level, analysis.source, values, hashes)
        log("froze %s: %d claims" % (claim_file(name), len(values)))
    return write_release_manifest(root)


def write_release_manifest(root):
    from .jsonio import read_json

    build = read_json(os.path.join(root, "data", "v1", "build.json"), "data/v1/build.json")
    files = [(p, role_of(p)) for p in integrity.released_files_on_disk(root)]
    info = {
        "instrument": build.get("instrument", "unnamed instrument"),
        "synthetic": bool(build.get("synthetic")),
        "generator": {"command": build.get("command"), "seed": build.get("seed"), "config": build.get("config"),
                      "version": build.get("generator_version")},
        "releases": ["data/v1"],
        "note": "Synthetic stand-in for the n-Clue CrossPage release; built by this repository's code from "
                "the seed. The original corpus and neural rankings are not included.",
    }
    v2_build = os.path.join(root, "data", "v2", "build.json")
    if os.path.isfile(v2_build):
        v2 = read_json(v2_build, "data/v2/build.json")
        info["generator"]["shift_seed"] = v2.get("seed")
        info["releases"].append("data/v2")
        info["note"] = ("Synthetic stand-in for the n-Clue CrossPage (data/v1) and SourceShift (data/v2) releases "
                        "and their label audit (data/audit, simulated responses); built by this repository's code "
                        "from the seeds. The original corpora, neural rankings and human audit are not included.")
    return integrity.write_manifest(root, files, info)
