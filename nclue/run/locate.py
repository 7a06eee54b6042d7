"""Where the instrument is (docs/usage.md#the-data-root).

The data root is, in order: ``--data DIR``; else the environment variable
``NCLUE_DATA``; else the current folder when it holds a release
(``MANIFEST.json`` or ``data/``); else the checkout the package runs from
(the folder above the installed ``nclue`` package, when it holds a release:
an editable install or a clone).  A :class:`~nclue.core.errors.UsageError`
names every place that was tried.
"""

import os

from ..core import layout
from ..core.errors import UsageError

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECKOUT = os.path.dirname(PACKAGE_DIR)
ENV = "NCLUE_DATA"


def checkout():
    """The clone this package runs from (an editable install or ``python -m`` in a clone), or None for an
    installed package (which lies in site-packages and has no checkout of its own)."""
    if os.path.isfile(os.path.join(CHECKOUT, "pyproject.toml")) and os.path.isfile(os.path.join(CHECKOUT, "reproduce.py")):
        return CHECKOUT
    return None


def looks_like_release(folder):
    return os.path.isfile(os.path.join(folder, "MANIFEST.json")) or os.path.isdir(layout.abspath(folder, layout.DATA_DIR))


def data_root(explicit=None, environ=None, cwd=None):
    """The instrument root to check (see module doc); ``explicit`` is ``--data``'s value."""
    environ = os.environ if environ is None else environ
    if explicit is not None:
        return explicit
    tried = []
    from_env = environ.get(ENV)
    if from_env:
        return from_env
    tried.append("%s (not set)" % ENV)
    here = os.getcwd() if cwd is None else cwd
    if looks_like_release(here):
        return here
    tried.append("the current folder %s (no MANIFEST.json or data/)" % here)
    if looks_like_release(CHECKOUT):
        return CHECKOUT
    tried.append("the package's checkout %s (no MANIFEST.json or data/)" % CHECKOUT)
    raise UsageError("no instrument found; looked at: %s. Pass --data DIR or set %s." % ("; ".join(tried), ENV))
