"""The state of one ``reproduce`` run, passed through its stages (docs/architecture.md).

:func:`nclue.run.runner.run` is a sequence of stages -- integrity, the claim files, the paper audit
and the published results, the rebuild -- and each reads and extends one :class:`RunContext`: the
release root, the requested levels, the integrity check's result (:class:`nclue.core.integrity.IntegrityResult`,
which the context never alters but through its file statuses), the release parts present, the decoded
frozen claim files and the progress log.  The context answers the integrity questions every gate asks
(``files``, ``manifest``, ``status(rel)``, ``reason(rel)``) by delegating to the integrity result.
"""

import time


class RunContext:
    def __init__(self, root, levels, log=None):
        self.root = root
        self.levels = levels
        self.integrity = None      # the IntegrityResult of the integrity stage
        self.presence = None       # the release parts present (nclue.run.shape.Presence)
        self.documents = {}        # decoded frozen claim files by path, each handed to its claim checks once
        self.log = log                # the progress callable (or None)
        self._started = time.monotonic()

    # -- the integrity result's answers -------------------------------------------------------------
    @property
    def files(self):
        return self.integrity.files

    @property
    def manifest(self):
        return self.integrity.manifest

    @property
    def problems(self):
        return self.integrity.problems

    def status(self, rel):
        return self.integrity.status(rel)

    def reason(self, rel):
        return self.integrity.reason(rel)

    # -- progress -----------------------------------------------------------------------------------
    def progress(self, group, text):
        """One progress line (``[  3.1s] scoring      v1.matrix (451 checks)``), when a log was given."""
        if self.log is not None:
            self.log("[%6.1fs] %-12s %s" % (time.monotonic() - self._started, group, text))
