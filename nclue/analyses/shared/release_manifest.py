"""MANIFEST.json as the analyses read it: validated once per run (docs/schema.md#manifestjson-and-sha256sums).
During ``freeze`` the instrument holds the manifest that is about to be written, so a claim that compares with
it (``release.consistency``, ``v3.construction``) is frozen against the manifest it will be checked against."""

from ...core.integrity import load_manifest

MEMO_KEY = "release:manifest"


def release_manifest(inst):
    """MANIFEST.json of ``inst`` (an :class:`~nclue.core.instrument.Instrument`), memoised under :data:`MEMO_KEY`."""
    return inst.memo(MEMO_KEY, lambda: load_manifest(inst.root))
