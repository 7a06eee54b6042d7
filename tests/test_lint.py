"""The two static checks .ci/run runs (CONTRIBUTING.md#before-a-commit) refuse what they are configured to refuse:
ruff's rule selection and mypy's typed floors (pyproject.toml), each shown failing on a violation planted in a copy,
so that a configuration that no longer checks anything fails here."""

import os
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _tool(name):
    pytest.importorskip(name, reason="%s is a dev requirement (requirements-dev.txt)" % name)


def _copy_config(tmp_path):
    shutil.copyfile(os.path.join(REPO, "pyproject.toml"), str(tmp_path / "pyproject.toml"))


def test_ruff_refuses_a_planted_unused_import_and_unsorted_imports(tmp_path):
    _tool("ruff")
    _copy_config(tmp_path)
    (tmp_path / "nclue").mkdir()
    (tmp_path / "nclue" / "planted.py").write_text("import sys\nimport os\n\n\ndef f():\n    return 1\n")
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "nclue"], cwd=str(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "F401" in proc.stdout and "I001" in proc.stdout
    assert "Found 3 errors" in proc.stdout, proc.stdout      # I001, and F401 for each import


def _floors(tmp_path):
    """A copy of the typed floors (nclue/core, nclue/stats) and the configuration, to plant a violation in."""
    _copy_config(tmp_path)
    for floor in ("core", "stats"):
        shutil.copytree(os.path.join(REPO, "nclue", floor), str(tmp_path / "nclue" / floor),
                        ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "nclue" / "__init__.py").write_text("")


def _mypy(tmp_path):
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", os.devnull],
                          cwd=str(tmp_path), capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("planted, expected", [
    ('def planted(x: int) -> str:\n    return x\n', "Incompatible return value type"),
    ('def planted(x):\n    return x\n', "Function is missing a type annotation"),
], ids=["wrong type", "unannotated def"])
def test_mypy_refuses_a_planted_violation_in_a_typed_floor(tmp_path, planted, expected):
    _tool("mypy")
    _floors(tmp_path)
    with open(str(tmp_path / "nclue" / "stats" / "rank.py"), "a", encoding="utf-8") as handle:
        handle.write("\n\n" + planted)
    proc = _mypy(tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    # the planted def is the one finding: the floors themselves are clean
    assert "nclue/stats/rank.py" in proc.stdout and expected in proc.stdout, proc.stdout
    assert "Found 1 error in 1 file" in proc.stdout, proc.stdout
