"""The harness imports nothing outside the Python standard library (runtime code only)."""

import ast
import os
import sys

import pytest
from conftest import REPO


@pytest.mark.skipif(not hasattr(sys, "stdlib_module_names"), reason="needs Python 3.10+ to list the stdlib")
def test_runtime_code_is_standard_library_only():
    bad = []
    files = [os.path.join(REPO, "reproduce.py")]
    for dirpath, _, names in os.walk(os.path.join(REPO, "nclue")):
        files += [os.path.join(dirpath, n) for n in names if n.endswith(".py")]
    for path in files:
        tree = ast.parse(open(path, encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != "nclue" and top not in sys.stdlib_module_names:
                    bad.append("%s imports %s" % (os.path.relpath(path, REPO), name))
    assert not bad, bad
