"""nclue: reproduction harness and stand-in release of the n-Clue / CrossPage benchmark.

Standard library only at run time.  See README.md and docs/.
"""

__version__ = "0.1.0"

