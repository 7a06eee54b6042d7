"""The harness imports nothing outside the Python standard library (runtime code only)."""

import ast
import os
import sys

import pytest
from conftest import REPO

# the neural build step's extra (pyproject.toml's `neural`; docs/realpage.md#neural): imported only inside the
# functions of nclue/builder/neural/ that compute an embedding, never when a module is imported
NEURAL_EXTRA = {"torch", "sentence_transformers", "all_minilm_l6_v2", "numpy"}
NEURAL_FOLDER = os.path.join("nclue", "builder", "neural")


def _imports(tree):
    """``(name, inside a function)`` of every absolute import in ``tree``."""
    out = []

    def visit(node, nested):
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.Import):
                out.extend((a.name, inner) for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.level == 0:
                out.append((child.module, inner))
            visit(child, inner)
    visit(tree, False)
    return out


def _offences(rel, tree):
    bad = []
    for name, nested in _imports(tree):
        top = name.split(".")[0]
        if top == "nclue" or top in sys.stdlib_module_names:
            continue
        if top in NEURAL_EXTRA and nested and rel.startswith(NEURAL_FOLDER + os.sep):
            continue
        bad.append("%s imports %s" % (rel, name))
    return bad


@pytest.mark.skipif(not hasattr(sys, "stdlib_module_names"), reason="needs Python 3.10+ to list the stdlib")
def test_runtime_code_is_standard_library_only():
    bad = []
    files = [os.path.join(REPO, "reproduce.py")]
    for dirpath, _, names in os.walk(os.path.join(REPO, "nclue")):
        files += [os.path.join(dirpath, n) for n in names if n.endswith(".py")]
    for path in files:
        bad += _offences(os.path.relpath(path, REPO), ast.parse(open(path, encoding="utf-8").read()))
    assert not bad, bad
    # the scan can fail: the extra at a module's top, or anywhere outside the neural folder, is caught
    neural = os.path.join(NEURAL_FOLDER, "x.py")
    assert _offences(neural, ast.parse("import torch\ndef f():\n    import torch\n")) == [neural + " imports torch"]
    assert _offences("nclue/x.py", ast.parse("def f():\n    from sentence_transformers import S\n")) == [
        "nclue/x.py imports sentence_transformers"]
    assert _offences(neural, ast.parse("def f():\n    import scipy\n")) == [neural + " imports scipy"]
