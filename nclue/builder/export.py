"""Page text for external retrievers (docs/usage.md#page-text-for-your-retriever).

The stand-in's page text is not stored: it is regenerated from the seeds the
release records (``data/v1/build.json``, ``data/v2/build.json``).  Export is
refused unless the regenerated corpus is the released one, and never writes
inside the release.
"""

import os

from ..core import layout
from ..core.errors import UsageError
from ..core.jsonio import iter_jsonl, make_folder, read_json, write_jsonl
from . import crosspage
from .config import CONFIGS
from .sourceshift_instrument import SHIFT_CONFIGS, generate


def _rows(root, rel):
    return [obj for _, obj in iter_jsonl(layout.abspath(root, rel), rel)]


def export_pages_v1(root, out_dir, guard=None):
    """CrossPage page text as ``OUT/pages.jsonl`` (``docid``, ``page``, ``text``, ``synthetic``), regenerated from
    data/v1/build.json's seed and config; refused unless the regenerated corpus is the released one."""
    build = read_json(layout.abspath(root, layout.BUILD), layout.BUILD)
    seed = build.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or build.get("config") not in CONFIGS:
        raise UsageError("%s has no usable seed/config: page text cannot be regenerated" % layout.BUILD)
    generated = crosspage.generate(CONFIGS[build["config"]], seed)
    if _rows(root, layout.CORPUS) != generated["docs"]:
        raise UsageError("%s is not what the builder regenerates from its seed" % layout.CORPUS)
    make_folder(out_dir, "the page text folder", guard)
    path = os.path.join(out_dir, layout.CROSSPAGE.pages_export)
    write_jsonl(path, ({"docid": d, "page": p, "text": t, "synthetic": True}
                       for d, p, t in generated["source"].iter_all()), "the page text", guard)
    return path


def export_pages_v2(root, out_dir, guard=None):
    """SourceShift page text (``OUT/pages_v2.jsonl``), regenerated from data/v2/build.json's seed and
    config; refused unless the regenerated corpus is the released one."""
    build = read_json(layout.abspath(root, layout.V2_BUILD), layout.V2_BUILD)
    if not isinstance(build.get("seed"), int) or build.get("config") not in SHIFT_CONFIGS:
        raise UsageError("%s has no usable seed/config: page text cannot be regenerated" % layout.V2_BUILD)
    generated = generate(SHIFT_CONFIGS[build["config"]], build["seed"])
    if _rows(root, layout.V2_CORPUS) != generated["docs"]:
        raise UsageError("%s is not what the builder regenerates from its seed" % layout.V2_CORPUS)
    make_folder(out_dir, "the page text folder", guard)
    path = os.path.join(out_dir, layout.SOURCESHIFT.pages_export)
    write_jsonl(path, ({"docid": d, "page": p, "text": t, "synthetic": True}
                       for d, p, t in generated["source"].iter_all()), "the page text", guard)
    return path
