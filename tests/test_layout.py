"""The package's shape (docs/architecture.md): data flows one way between the packages, no import cycle
(function-level imports included), no single-letter module aliases, every module importable."""

import ast
import importlib
import os
import pkgutil
import re

import nclue

PACKAGE_DIR = os.path.dirname(nclue.__file__)
TESTS_DIR = os.path.dirname(os.path.abspath(__file__))

# a package may import only packages of a lower rank (and itself); nclue/__init__ holds the version only
RANKS = {"nclue.core": 0, "nclue.stats": 1, "nclue.retrieval": 1, "nclue.labelaudit": 2, "nclue.paperaudit": 2,
         "nclue.analyses": 3, "nclue.builder": 3, "nclue.run": 4, "nclue.reports": 5,
         "nclue.commands": 6, "nclue.api": 7, "nclue.cli": 7, "nclue.__main__": 8}


def _modules():
    out = {}
    for dirpath, _, files in os.walk(PACKAGE_DIR):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, os.path.dirname(PACKAGE_DIR))[:-3].replace(os.sep, ".")
                is_pkg = rel.endswith(".__init__")
                out[rel[:-9] if is_pkg else rel] = (path, is_pkg)
    return out


MODULES = _modules()


def _imports(module):
    """Every nclue module ``module`` imports, anywhere in its body (function-level imports too)."""
    path, is_pkg = MODULES[module]
    tree = ast.parse(open(path, encoding="utf-8").read())
    here = module.split(".") if is_pkg else module.split(".")[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("nclue"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("nclue"):
                continue
            for alias in node.names:
                full = target + "." + alias.name
                found.add(full if full in MODULES else target)
    return found


def _package(module):
    for prefix in sorted(RANKS, key=len, reverse=True):
        if module == prefix or module.startswith(prefix + "."):
            return prefix
    return module


def test_every_import_runs_down_the_layers():
    wrong = []
    for module in sorted(MODULES):
        if module == "nclue":
            continue
        mine = _package(module)
        for target in sorted(_imports(module)):
            theirs = _package(target)
            if target == "nclue" or theirs == mine:
                continue
            if RANKS[theirs] >= RANKS[mine]:
                wrong.append("%s imports %s" % (module, target))
    assert not wrong, wrong


def test_the_top_package_imports_nothing():
    assert _imports("nclue") == set()


def test_no_import_cycle_between_modules():
    graph = {m: {t for t in _imports(m) if t in MODULES and t != m and t != "nclue"} for m in MODULES}
    state = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                raise AssertionError("import cycle: " + " -> ".join(path + [node, nxt]))
            if nxt not in state:
                visit(nxt, path + [node])
        state[node] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [])


def test_the_graph_this_test_reads_is_the_real_one():
    """Negative control: the analyses import the core and the statistics (the parser sees imports)."""
    assert "nclue.core.layout" in _imports("nclue.analyses.scoring")
    assert "nclue.stats.bootstrap" in _imports("nclue.analyses.inference")
    assert _package("nclue.builder.crosspage") == "nclue.builder"


def test_no_single_letter_module_aliases_and_no_sys_path_edits():
    offenders = []
    for folder in (PACKAGE_DIR, TESTS_DIR, os.path.join(os.path.dirname(PACKAGE_DIR), "bench"),
                   os.path.join(os.path.dirname(PACKAGE_DIR), "tools")):
        for dirpath, _, files in os.walk(folder):
            for name in files:
                if not name.endswith(".py"):
                    continue
                path = os.path.join(dirpath, name)
                text = open(path, encoding="utf-8").read()
                for node in ast.walk(ast.parse(text)):
                    if isinstance(node, (ast.Import, ast.ImportFrom)):
                        for alias in node.names:
                            if alias.asname and len(alias.asname) <= 2 and alias.asname != "np":
                                offenders.append("%s: %s as %s" % (name, alias.name, alias.asname))
                if folder == TESTS_DIR and "sys.path" in text and name != os.path.basename(__file__):
                    offenders.append("%s edits sys.path" % name)
    assert not offenders, offenders


def test_every_module_of_the_package_imports():
    names = [m.name for m in pkgutil.walk_packages(nclue.__path__, "nclue.") if not m.name.endswith("__main__")]
    assert len(names) >= 60
    for name in names:
        importlib.import_module(name)


def _strings_outside_docstrings(path):
    tree = ast.parse(open(path, encoding="utf-8").read())
    docstrings = {id(node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def test_released_paths_are_spelled_only_in_core_layout():
    # docs/architecture.md: core/layout.py is the one place a released path (or a released folder) is
    # spelled, and layout.abspath the one way a release-relative path becomes a file name
    layout_py = os.path.join(PACKAGE_DIR, "core", "layout.py")
    found = []
    for module, (path, _) in sorted(_modules().items()):
        if path == layout_py:
            continue
        source = open(path, encoding="utf-8").read()
        for lineno, text in _strings_outside_docstrings(path):
            head = text.split("/", 1)[0]
            if head in ("data", "reference_metrics") or text.startswith(("data/", "reference_metrics/")):
                found.append("%s:%d: %r" % (module, lineno, text[:60]))
        for lineno, line in enumerate(source.splitlines(), 1):
            if '.split("/"))' in line and "os.path.join(" in line:
                found.append("%s:%d: joins a release-relative path by hand (use layout.abspath)" % (module, lineno))
    assert found == []


def test_the_path_test_finds_a_released_path_literal(tmp_path):
    # the test above can fail: a module spelling a released path is found
    probe = tmp_path / "probe.py"
    probe.write_text('"""data/v1/qrels.jsonl in a docstring is prose."""\nPATH = "data/v1/qrels.jsonl"\n')
    assert [text for _, text in _strings_outside_docstrings(str(probe))] == ["data/v1/qrels.jsonl"]


# a released path inside a test's string: a folder or file nclue/core/layout.py declares (the bare folder names
# "data" and "reference_metrics", used as path components, are not paths)
_RELEASED_IN_TEXT = re.compile(r"(?<![\w/.])(?:data|reference_metrics)(?:/[\w.*%-]+)+")


def _released_in_tests(path):
    """``(line, path)`` of every released path a test spells in a string outside its docstrings (a hostile path
    that layout does not declare -- an unlisted file, a ``..`` part -- is the test's own and allowed)."""
    from nclue.core import layout

    folders = {release.base for release in layout.RELEASES.values()} | {layout.AUDIT}
    for lineno, text in _strings_outside_docstrings(path):
        for match in _RELEASED_IN_TEXT.finditer(text):
            found = match.group(0)
            if found in folders or layout.kind_of(found.replace("%s", "x").replace("%d", "1")) is not None:
                yield lineno, found


def test_tests_name_released_paths_through_the_helper():
    # the tests read every released path from core/layout through conftest.released, never spelling one
    found = ["%s:%d: %r" % (name, lineno, text) for name in sorted(os.listdir(TESTS_DIR))
             if name.endswith(".py") and name not in ("conftest.py", os.path.basename(__file__))
             for lineno, text in _released_in_tests(os.path.join(TESTS_DIR, name))]
    assert found == []


def test_the_tests_path_check_finds_a_spelled_path(tmp_path):
    # the test above can fail: a released file or folder spelled in a string is found, a hostile path is not
    probe = tmp_path / "probe.py"
    probe.write_text('A = "data/v1/qrels.jsonl:3: grade"\nB = ("x", "data/v2")\nC = "data/v1/../v1/x"\n'
                     'D = "data/v1/unlisted.txt"\n')
    assert list(_released_in_tests(str(probe))) == [(1, "data/v1/qrels.jsonl"), (2, "data/v2")]


def _spelled_forms(path):
    """``(line, text)`` of every string constant outside docstrings that is a query form's key or label
    (``"raw"``, ``"clean_v2"``, ``"clean"``, ``"natural"``): a query form is a value declared in core/layout.py."""
    from nclue.core import layout

    words = set(layout.FORM_KEYS) | {form.label for form in layout.QUERY_FORMS}
    return [(lineno, text) for lineno, text in _strings_outside_docstrings(path) if text in words]


def test_query_forms_are_spelled_only_in_core_layout():
    # issue 52: a query form is a value (layout.RAW, CLEAN, NATURAL); no module outside its declaration spells one
    layout_py = os.path.join(PACKAGE_DIR, "core", "layout.py")
    found = ["%s:%d: %r" % (module, lineno, text) for module, (path, _) in sorted(_modules().items())
             if path != layout_py for lineno, text in _spelled_forms(path)]
    assert found == []


def test_the_form_scan_finds_a_spelled_form(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('"""the raw form in a docstring is prose."""\nA = "raw"\nB = "clean_v2"\nC = "natural"\n'
                     'D = "rawest"\n')
    assert [text for _, text in _spelled_forms(str(probe))] == ["raw", "clean_v2", "natural"]


# analyses/ is one floor: an analysis module imports no other analysis, only the shared pieces below
# (docs/architecture.md): base, and the shared package, whose modules import base and each other only
ANALYSIS_SHARED = {"base": set(), "shared": {"base"}}


def _relative_targets(path, level):
    """The first segment of every import of ``level`` dots in one module (the sibling it reads)."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == level:
            yield from ([node.module.split(".")[0]] if node.module else [a.name for a in node.names])


def test_analyses_are_one_floor():
    folder = os.path.join(PACKAGE_DIR, "analyses")
    sideways = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py") or name == "__init__.py":
            continue
        module = name[:-3]
        allowed = ANALYSIS_SHARED.get(module, set(ANALYSIS_SHARED))
        sideways += ["%s imports %s" % (module, t) for t in _relative_targets(os.path.join(folder, name), 1)
                     if t not in allowed]
    shared = os.path.join(folder, "shared")
    for name in sorted(os.listdir(shared)):
        if name.endswith(".py"):
            sideways += ["shared.%s imports %s" % (name[:-3], t)
                         for t in _relative_targets(os.path.join(shared, name), 2) if t not in ANALYSIS_SHARED["shared"]]
    assert sideways == []


def test_the_floor_test_finds_an_analysis_read_by_a_shared_module(tmp_path):
    # the shared modules' check can fail: a shared module reading an analysis is found
    probe = tmp_path / "probe.py"
    probe.write_text("from ..scoring import ANALYSES\nfrom ..base import Value\nfrom .outcome_vectors import outcomes\n")
    assert list(_relative_targets(str(probe), 2)) == ["scoring", "base"]


def test_module_names_are_unique_across_packages():
    # a module is named after what it produces; two packages never use one name (docs/architecture.md)
    seen = {}
    for module in sorted(_modules()):
        leaf = module.rsplit(".", 1)[-1]
        if leaf not in ("__init__", "__main__") and module.count(".") >= 2:
            seen.setdefault(leaf, []).append(module)
    assert {leaf: mods for leaf, mods in seen.items() if len(mods) > 1} == {}


# cyclomatic complexity (radon's ranks; docs/architecture.md): no function or method is rated E or F, and
# no function rated D (issue 28: at most 5; issue 59: 0, each split into the steps its docstring names);
# the ceiling may only fall.
D_CEILING = 0


def _complexity_ranks():
    from radon.complexity import cc_rank, cc_visit

    ranks = {}
    for module, (path, _) in sorted(_modules().items()):
        for block in cc_visit(open(path, encoding="utf-8").read()):
            for item in [block] + list(getattr(block, "methods", None) or []):
                if type(item).__name__ != "Class":
                    ranks.setdefault(cc_rank(item.complexity), []).append("%s.%s" % (module, item.name))
    return ranks


def test_no_function_is_rated_e_or_f_and_d_only_falls():
    ranks = _complexity_ranks()
    assert ranks.get("E", []) + ranks.get("F", []) == []
    assert len(ranks.get("D", [])) <= D_CEILING, sorted(ranks["D"])
