"""tools/realpage_survey.py, the survey behind docs/realpage.md: it reads the packages, pages and facts with
the builder's own modules (tests/test_realpage.py works those by hand); here its own page gates and candidate
rule by hand, and a missing or wrong package refused with its name and exit 2 (no traceback)."""

import os
import subprocess
import sys

import pytest
from conftest import REPO
from test_realpage import deb as package_bytes

TOOL = os.path.join(REPO, "tools", "realpage_survey.py")


def _load_tool():
    """The survey script as a module, loaded from its file (tools/ is not a package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("realpage_survey", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


survey = _load_tool()


def test_the_page_gates_by_hand():
    f = frozenset
    assert survey._gold([f({1}), f({2})])                           # two pages: gold
    assert not survey._gold([f({1}), f({1, 2})])                    # page 1 establishes both
    assert not survey._gold([f({1}), f({2}), f({1, 2})])            # three conditions, two pages: no matching
    assert not survey._gold([f({1}), f({1}), f({2})])               # two conditions share one page only
    assert survey._gold([f({1, 2}), f({2, 3}), f({3, 1})])          # no common page, a matching exists


def test_a_candidate_needs_golds_a_bounded_union_and_subsets():
    f = frozenset
    golds = {d: f({1}) for d in range(3)}
    a = {**golds, **{10 + i: f({1}) for i in range(5)}}             # five RFCs with a only: subsets
    b = {**{d: f({2}) for d in range(3)}, 20: f({2})}              # and one RFC with b only
    ok, gold = survey._admissible([a, b])
    assert ok and gold == {0, 1, 2}
    assert not survey._admissible([a, {d: f({2}) for d in range(3)}])[0]      # b alone picks out the golds
    assert not survey._admissible([{d: f({1}) for d in range(3)}, b])[0]      # a alone picks out the golds
    wide = {**a, **{100 + i: f({1}) for i in range(90)}}
    assert not survey._admissible([wide, b])[0]                                 # union over 88
    same_page = {**a, 0: f({2})}
    assert not survey._admissible([same_page, b])[0]                            # a gold fails a page gate


@pytest.mark.parametrize("case,expected", [
    ("missing", "missing (package doc-rfc-experimental=20230121-1"),
    ("wrong hash", "sha256 expected bff38cd2"),
    ("symlink", "a symbolic link"),
])
def test_a_missing_or_wrong_package_stops_the_survey_with_its_name(tmp_path, case, expected):
    deb = tmp_path / ("doc-rfc-experimental_%s_all.deb" % survey.VERSION)
    if case == "wrong hash":
        deb.write_bytes(package_bytes([("rfc1.json", b"{}")]))
    elif case == "symlink":
        target = tmp_path / "elsewhere.deb"
        target.write_bytes(b"!<arch>\n")
        deb.symlink_to(target)
    proc = subprocess.run([sys.executable, TOOL, str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("realpage_survey: %s" % deb) and expected in proc.stderr, proc.stderr


