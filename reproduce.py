#!/usr/bin/env python3
"""One entrypoint: verify this release (or another instrument with --data DIR).

Standard library only.  See README.md; same as ``python -m nclue reproduce``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from nclue.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], prog="reproduce.py"))
