"""Page text for external retrievers (docs/usage.md#page-text-for-your-retriever).

No release stores its page text.  A release whose text comes from seeds (the synthetic stand-in: ``data/v1``,
``data/v2``) has it regenerated from the seed its ``build.json`` records, and the export is refused unless the
regenerated corpus is the released one.  A release whose text comes from packages (RealPage, ``data/v3``) has it
read from the pinned packages and checked page by page against the released SHA-256
(:mod:`nclue.builder.realpage.page_export`).  Export never writes inside the release.  Each row is ``{docid,
page, text, synthetic}`` (pages 1-based); ``OUT/<file>`` is the release's declared page-export file
(:attr:`nclue.core.layout.Release.pages_export`).
"""

import os

from ..core import layout
from ..core.errors import UsageError
from ..core.jsonio import iter_jsonl, output_folder, read_json, write_jsonl
from . import crosspage
from .config import CONFIGS
from .sourceshift_instrument import SHIFT_CONFIGS, generate

# how each release with text from seeds is regenerated: its configurations and its generator
SEEDED = {layout.CROSSPAGE.name: (CONFIGS, crosspage.generate), layout.SOURCESHIFT.name: (SHIFT_CONFIGS, generate)}
EVERY = 500             # a progress line per this many documents written


def _rows(root, rel):
    return [obj for _, obj in iter_jsonl(layout.abspath(root, rel), rel)]


def _seeded_rows(root, release, progress):
    """The page rows of a release whose text is regenerated from its build's seed and configuration."""
    if release.name not in SEEDED:
        raise UsageError("%s declares page text from seeds, but no generator is registered for it (SEEDED in "
                         "nclue/builder/export.py; docs/recipes.md#a-release)" % release.base)
    configs, generator = SEEDED[release.name]
    build = read_json(layout.abspath(root, release.build), release.build)
    seed = build.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or build.get("config") not in configs:
        raise UsageError("%s has no usable seed/config: page text cannot be regenerated" % release.build)
    if progress:
        progress("export-pages: regenerating %s (%s) from seed %d, configuration %s" % (
            release.base, release.title, seed, build["config"]))
    generated = generator(configs[build["config"]], seed)
    if _rows(root, release.corpus) != generated["docs"]:
        raise UsageError("%s is not what the builder regenerates from its seed" % release.corpus)
    total = len(generated["docs"])

    def rows():
        started, last = 0, None
        for docid, page, text in generated["source"].iter_all():
            if docid != last:
                if progress and started and started % EVERY == 0:
                    progress("export-pages: %d of %d documents written" % (started, total))
                started, last = started + 1, docid
            yield {"docid": docid, "page": page, "text": text, "synthetic": True}
        if progress:
            progress("export-pages: %d of %d documents written" % (started, total))
    return rows()


def export_pages(root, release, out_dir, packages=None, guard=None, progress=None):
    """Write ``release``'s page text (a :class:`~nclue.core.layout.Release`) to ``OUT/<its page-export file>``
    and return the path.  ``packages``: the folder of the pinned packages, for a release whose text comes from
    them (a :class:`~nclue.core.errors.UsageError` without it); ``progress(line)`` hears what the export is
    doing."""
    if release.can(layout.TEXT_FROM_SEEDS):
        if packages is not None:
            raise UsageError("--packages goes with a release whose text comes from packages (%s); %s's is "
                             "regenerated from its seed" % (", ".join(r.name for r in layout.releases_with(
                                 layout.TEXT_FROM_PACKAGES)), release.name))
        rows = _seeded_rows(root, release, progress)
    elif release.can(layout.TEXT_FROM_PACKAGES):
        from .realpage import packages as pinned
        from .realpage import page_export

        if packages is None:
            raise UsageError("%s's page text is read from its pinned packages: give --packages DIR (the folder of "
                             "the eight doc-rfc .deb files; `nclue build --target realpage --fetch --packages DIR` "
                             "fills it)" % release.title)
        missing = pinned.missing(packages)
        if missing:
            raise UsageError("--packages %s lacks %d of the pinned packages: %s" % (
                packages, len(missing), ", ".join(pinned.deb_name(name) for name in missing)))
        rows = page_export.export_folder_rows(root, packages, progress)
    else:
        raise UsageError("%s declares no source of page text" % release.base)
    path = os.path.join(out_dir, release.pages_export)
    with output_folder(out_dir, "the page text folder", guard) as written:
        write_jsonl(path, rows, "the page text", guard)
        written.append(path)
    return path


def export_pages_v1(root, out_dir, guard=None):
    """CrossPage's page text as ``OUT/pages.jsonl`` (:func:`export_pages` of :data:`layout.CROSSPAGE`)."""
    return export_pages(root, layout.CROSSPAGE, out_dir, guard=guard)


def export_pages_v2(root, out_dir, guard=None):
    """SourceShift's page text as ``OUT/pages_v2.jsonl`` (:func:`export_pages` of :data:`layout.SOURCESHIFT`)."""
    return export_pages(root, layout.SOURCESHIFT, out_dir, guard=guard)
