"""The HTML report, the JUnit report, --quiet and --strict (issue 18).

The browser test loads the report in headless Chromium (Debian's ``chromium``; ``.ci/run`` installs it)
and checks from the rendered DOM that every section and figure is there, that the figures have a
nonzero rendered size (the page's own script writes them into ``#render-check``), and that no console
error occurred; it saves a screenshot (``$NCLUE_ARTIFACTS`` or the test's temporary folder).  It is
skipped, with the reason printed, only when no browser is installed.
"""

import os
import re
import shutil
import subprocess
from xml.etree import ElementTree

import pytest
from conftest import run_reproduce

from nclue.harness.html_report import SECTIONS

FIGURES = ("fig-outcomes", "fig-contrasts", "fig-figure2a", "fig-figure2b")
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def reports(repo_run, second_run):
    """The shared run's reports, with ``html2`` from the second run (another root, hash seed, locale, jobs)."""
    paths = dict(repo_run["paths"], html2=second_run["paths"]["html"])
    assert repo_run["code"] == second_run["code"] == 0, repo_run["stdout"][-2000:]
    return paths, repo_run["stdout"], repo_run["stderr"]


def test_html_is_self_contained_deterministic_and_complete_without_scripts(reports):
    paths, _, _ = reports
    html = open(paths["html"], encoding="utf-8").read()
    assert html == open(paths["html2"], encoding="utf-8").read()           # byte-identical across runs / seeds
    for section in SECTIONS:
        assert '<section id="%s">' % section in html, section
    for fig in FIGURES:
        assert '<svg id="%s" role="img"' % fig in html and 'id="%s-t"' % fig in html and 'id="%s-d"' % fig in html
    # no network: no external script, style sheet, font or image
    assert not re.search(r"<script[^>]+src=|<link\b|@import|url\(|<img\b", html)
    assert re.findall(r"https?://[^\"' ]+", html) == ["http://www.w3.org/2000/svg"] * html.count("<svg ")
    # readable with scripts disabled: the tables and text are static
    text = re.sub(r"<script>.*?</script>", "", html, flags=re.S)
    assert "published results verified against data" in text and "<caption>" in text
    assert text.count("<table") >= 10 and all(t in text for t in ("Table 5 analogue", "Bound share by table"))


def _browser():
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def test_report_renders_in_a_real_browser(reports, tmp_path):
    browser = _browser()
    if browser is None:
        print("SKIP REASON: no Chromium installed (apt-get install chromium); .ci/run installs it")
        pytest.skip("no Chromium installed (apt-get install chromium); .ci/run installs it")
    paths, _, _ = reports
    url = "file://" + os.path.abspath(paths["html"])
    profile = str(tmp_path / "profile")
    proc = subprocess.run([browser] + FLAGS + ["--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
                                               "--virtual-time-budget=3000", "--window-size=1280,900", "--dump-dom",
                                               url], capture_output=True, text=True, timeout=180)
    dom = proc.stdout
    assert proc.returncode == 0 and "</html>" in dom, proc.stderr[-2000:]
    for section in SECTIONS:
        assert 'id="%s"' % section in dom, section
    check = re.search(r'<pre id="render-check"[^>]*>(.*?)</pre>', dom, re.S).group(1).split()
    sizes = dict(zip(check[0::2], check[1::2]))
    for fig in FIGURES:
        w, h = (int(v) for v in sizes[fig].split("x"))
        assert w > 100 and h > 50, (fig, sizes[fig])
    console = [line for line in proc.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert not [line for line in console if "rror" in line or "Uncaught" in line], console
    artifacts = os.environ.get("NCLUE_ARTIFACTS") or str(tmp_path)
    os.makedirs(artifacts, exist_ok=True)
    shot = os.path.join(artifacts, "report-desktop.png")
    subprocess.run([browser] + FLAGS + ["--user-data-dir=" + profile + "2", "--window-size=1280,2400",
                                        "--screenshot=" + shot, url], capture_output=True, timeout=180)
    assert os.path.getsize(shot) > 10000
    print("screenshot: %s" % shot)


def test_junit_has_one_testcase_per_check(reports):
    paths, stdout, _ = reports
    root = ElementTree.parse(paths["junit"]).getroot()
    assert root.tag == "testsuites"
    cases = root.findall("./testsuite/testcase")
    assert int(root.get("tests")) == len(cases) > 5000
    assert int(root.get("skipped")) == sum(1 for c in cases if c.find("skipped") is not None)
    assert int(root.get("failures")) == sum(1 for c in cases if c.find("failure") is not None) == 0
    for suite in root.findall("testsuite"):
        assert int(suite.get("tests")) == len(suite.findall("testcase"))
        assert all(c.get("classname") == suite.get("name") and c.get("name") for c in suite.findall("testcase"))
    skipped = [c for c in cases if c.find("skipped") is not None]
    assert all(c.find("skipped").get("message") for c in skipped)


def test_progress_goes_to_stderr_and_quiet_prints_fails_and_result_only(reports):
    _, stdout, stderr = reports
    assert re.search(r"\[\s*\d+\.\ds\] scoring\s+v1\.matrix \(\d+ checks\)", stderr)
    assert "[" not in stdout.splitlines()[0]
    code, out, err = run_reproduce("--quiet", "--only", "integrity")
    assert code == 0 and out.splitlines() == [out.splitlines()[-1]] and out.startswith("RESULT: OK") and err == ""


def test_strict_counts_only_the_skips_of_requested_levels():
    code, out, _ = run_reproduce("--only", "integrity,construction", "--strict")
    assert code == 0, out[-1500:]                            # unrequested levels are not counted
    code, out, _ = run_reproduce("--only", "paper", "--strict", "--quiet")
    assert code == 1 and "--strict:" in out                  # the published results are the paper level's skips


def test_score_writes_an_html_page(tmp_path):
    import subprocess
    import sys

    from conftest import REPO

    page = tmp_path / "s.html"
    proc = subprocess.run([sys.executable, "-m", "nclue", "score", os.path.join(REPO, "data", "v1", "rankings",
                                                                                "bm25_and.jsonl"),
                           "--data", REPO, "--against", "bm25_or", "--html", str(page)], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    html = page.read_text(encoding="utf-8")
    assert '<svg id="fig-run-0" role="img"' in html and "Paired comparisons" in html and "bm25_or" in html
    assert not re.search(r"<script[^>]+src=|<link\b", html)
