"""The HTML report, the JUnit report, --quiet and --strict (issues 18 and 27).

The browser tests load the report in headless Chromium (Debian's ``chromium``; ``.ci/run`` installs it)
with a probe script appended to a copy of the page (the report itself carries no test code): the probe
clicks every sortable column header and reads the order back, measures every figure's text against its
SVG box, every scatter label against the other labels and the plot area, the Figure 2(a) diagonal, the
panel titles, the rendered font size at 1280 and 420 px, the tables' widths, the table of contents and
the published-results filter, and reports what it found as JSON.  A second test shows the probe fails
on the old sort script and without the diagonal.  Screenshots at both widths go to ``$NCLUE_ARTIFACTS``
or the test's temporary folder.  The tests skip, with the reason printed, only when no browser is
installed.
"""

import os
import re
import shutil
import subprocess
from xml.etree import ElementTree

import pytest
from conftest import run_reproduce

from nclue.reports.html_report import SECTION_IDS, SECTIONS

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
    for section in SECTION_IDS:
        assert '<section id="%s">' % section in html, section
    for fig in FIGURES:
        assert re.search(r'<svg id="%s"( class="forest")? role="img"' % fig, html) and 'id="%s-t"' % fig in html and 'id="%s-d"' % fig in html
    # no network: no external script, style sheet, font or image
    assert not re.search(r"<script[^>]+src=|<link\b|@import|url\(|<img\b", html)
    assert re.findall(r"https?://[^\"' ]+", html) == ["http://www.w3.org/2000/svg"] * html.count("<svg ")
    # readable with scripts disabled: the tables and text are static
    text = re.sub(r"<script>.*?</script>", "", html, flags=re.S)
    assert "published results verified against data" in text and "<caption>" in text
    assert text.count("<table") >= 10 and all(t in text for t in ("Table 5 by the paper", "Bound share by table"))


def _browser():
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def _need_browser():
    browser = _browser()
    if browser is None:
        pytest.skip("no Chromium installed (apt-get install chromium); .ci/run installs it")
    return browser


# The probe the browser test appends to a copy of a report: it sorts columns by clicking their headers and
# reads the order back, measures every figure's text, labels and diagonal, the tables' widths and the
# fails-only filter, and writes what it found as JSON into <pre id="probe"> (read from --dump-dom).
PROBE = r"""
<script>
(function(){
  var out={sort:[],labels:[],clipped:[],titles:[],diagonal:null,fonts:[],wide_tables:[],debug:[],toc:[],filter:null};
  function rows(t){return Array.prototype.slice.call(t.tBodies[0].rows);}
  function values(t,i){return rows(t).map(function(r){var c=r.cells[i];
    return c.hasAttribute("data-v")?c.getAttribute("data-v"):c.textContent.trim();});}
  document.querySelectorAll("table.sortable").forEach(function(t,k){
    if(!t.tHead||rows(t).length<3){return;}
    var heads=t.tHead.rows[0].cells;
    for(var i=0;i<heads.length;i++){
      var numeric=rows(t).every(function(r){return r.cells[i]&&r.cells[i].hasAttribute("data-v");});
      heads[i].click();
      var got=values(t,i);
      var nums=got.filter(function(v){return v!=="";}).map(parseFloat);
      var ok=true;
      if(numeric){for(var j=1;j<nums.length;j++){if(nums[j]<nums[j-1]){ok=false;}}
                  var blanks=got.indexOf("");if(blanks>=0&&got.slice(blanks).some(function(v){return v!=="";})){ok=false;}}
      else{for(var j=1;j<got.length;j++){if(got[j].localeCompare(got[j-1])<0){ok=false;}}}
      heads[i].click();
      var back=values(t,i);
      if(numeric){var bn=back.filter(function(v){return v!=="";}).map(parseFloat);
                  for(var j=1;j<bn.length;j++){if(bn[j]>bn[j-1]){ok=false;}}}
      out.sort.push({table:k,column:i,header:heads[i].textContent.trim(),numeric:numeric,ok:ok});
    }
  });
  function inside(b,a,tol){return b.left>=a.left-tol&&b.right<=a.right+tol&&b.top>=a.top-tol&&b.bottom<=a.bottom+tol;}
  function meets(a,b){return !(a.right<=b.left||b.right<=a.left||a.bottom<=b.top||b.bottom<=a.top);}
  document.querySelectorAll("figure svg").forEach(function(svg){
    var box=svg.getBoundingClientRect(),scale=box.width/svg.viewBox.baseVal.width;
    svg.querySelectorAll("text").forEach(function(t){
      var b=t.getBoundingClientRect();
      if(b.width>0&&!inside(b,box,0.5)){out.clipped.push(svg.id+": "+t.textContent);}
      var size=parseFloat(getComputedStyle(t).fontSize)*scale;
      out.fonts.push(size);
    });
    var title=svg.querySelector("text.panel-title");
    out.titles.push({id:svg.id,visible:!!title&&title.getBoundingClientRect().width>20});
    var area=svg.querySelector("rect.plot-area");
    if(area){
      var ab=area.getBoundingClientRect();
      var labels=Array.prototype.map.call(svg.querySelectorAll("text.label"),function(t){
        return {text:t.textContent,box:t.getBoundingClientRect()};});
      labels.forEach(function(l,i){
        if(!inside(l.box,ab,0.5)){out.labels.push(svg.id+": "+l.text+" leaves the plot");}
        for(var j=0;j<i;j++){if(meets(l.box,labels[j].box)){out.labels.push(svg.id+": "+l.text+" overlaps "+labels[j].text);}}
      });
      out.labels_checked=(out.labels_checked||0)+labels.length;
    }
  });
  var d=document.querySelector("#fig-figure2a line.diagonal");
  if(d){var db=d.getBoundingClientRect(),pa=document.querySelector("#fig-figure2a rect.plot-area").getBoundingClientRect();
    out.diagonal={x1:+d.getAttribute("x1"),y1:+d.getAttribute("y1"),x2:+d.getAttribute("x2"),y2:+d.getAttribute("y2"),
                  spans:db.width>0.8*pa.width&&db.height>0.8*pa.height};}
  document.querySelectorAll("div.table-wrap").forEach(function(w,k){var t=w.querySelector("table");
    if(w.scrollWidth>w.clientWidth+1){out.wide_tables.push(k+": "+(t.caption?t.caption.textContent:""));}});
  var text=document.body.innerText;
  var m=text.match(/fig-[a-z0-9-]+ \d+x\d+/g);if(m){out.debug=m;}
  document.querySelectorAll("nav#contents a").forEach(function(a){
    out.toc.push([a.getAttribute("href"),!!document.querySelector(a.getAttribute("href"))]);});
  var f=document.getElementById("fails-only");
  if(f){
    var visible=function(){return Array.prototype.filter.call(document.querySelectorAll("#published tr[data-status]"),
      function(r){return r.offsetParent!==null||r.closest("details")&&!r.closest("details").open&&!r.hidden;});};
    var shown=!f.parentNode.hidden&&f.getBoundingClientRect().width>0;
    f.click();
    var left=Array.prototype.filter.call(document.querySelectorAll("#published tr[data-status]"),function(r){
      return !r.hidden&&!r.closest("details").hidden;});
    out.filter={shown:shown,rows:document.querySelectorAll("#published tr[data-status]").length,
                after:left.map(function(r){return r.getAttribute("data-status");})};
    f.click();
  }
  // every dot of a scatter carries its label or its number, at the dot or joined to it by a leader line
  out.points=0;out.unmatched=[];
  document.querySelectorAll("svg circle[data-point]").forEach(function(c){
    var svg=c.ownerSVGElement,k=c.getAttribute("data-point"),name=c.getAttribute("data-label");out.points++;
    var t=svg.querySelector('text.label[data-point="'+k+'"]');
    if(!t){out.unmatched.push(svg.id+": point "+k+" ("+name+") has no label");return;}
    if(t.textContent!==name&&t.textContent!==k){out.unmatched.push(svg.id+": point "+k+" is labelled "+t.textContent);}
    var cb=c.getBoundingClientRect(),tb=t.getBoundingClientRect(),cx=(cb.left+cb.right)/2,cy=(cb.top+cb.bottom)/2;
    var gx=Math.max(tb.left-cx,0,cx-tb.right),gy=Math.max(tb.top-cy,0,cy-tb.bottom);
    var leader=svg.querySelector('line.leader[data-point="'+k+'"]');
    var joined=leader&&Math.abs(+leader.getAttribute("x1")-(+c.getAttribute("cx")))<0.2&&
               Math.abs(+leader.getAttribute("y1")-(+c.getAttribute("cy")))<0.2;
    if(Math.sqrt(gx*gx+gy*gy)>12&&!joined){out.unmatched.push(svg.id+": the label of point "+k+" ("+t.textContent+
      ") is "+Math.round(Math.sqrt(gx*gx+gy*gy))+" px from its dot with no leader line");}
  });
  // at the screen's width: captions, long-text tables and forest plots stay on screen
  var W=document.documentElement.clientWidth;out.inner_width=window.innerWidth;out.offscreen=[];
  document.querySelectorAll("caption").forEach(function(c){var b=c.getBoundingClientRect();
    if(b.right>W+1){out.offscreen.push("caption '"+c.textContent.slice(0,50)+"' ends at "+Math.round(b.right)+" px");}
    // a long caption squeezed into a narrow column reads one word a line (issue 57: the audit's Findings)
    if(c.textContent.length>60&&b.width>0&&b.width<Math.min(W*0.4,200)){out.offscreen.push("caption '"+
      c.textContent.slice(0,50)+"' squeezed to "+Math.round(b.width)+" px");}});
  document.querySelectorAll("table.cards").forEach(function(t){var b=t.getBoundingClientRect();
    if(b.right>W+1){out.offscreen.push("table '"+(t.caption?t.caption.textContent.slice(0,50):"")+"' ends at "+Math.round(b.right)+" px");}});
  document.querySelectorAll("svg.forest").forEach(function(f){var b=f.getBoundingClientRect();
    if(b.right>W+1){out.offscreen.push("forest plot "+f.id+" ends at "+Math.round(b.right)+" px");}});
  // a table wider than the screen, scrolled to its right end, still shows each row's label (its first cell)
  out.lost_labels=[];
  document.querySelectorAll("div.table-wrap").forEach(function(w){
    if(w.scrollWidth<=w.clientWidth+1){return;}
    var t=w.querySelector("table"),row=t.tBodies[0]&&t.tBodies[0].rows[0];if(!row){return;}
    w.scrollLeft=w.scrollWidth;
    var cb=row.cells[0].getBoundingClientRect(),wb=w.getBoundingClientRect();
    if(cb.left<wb.left-1){out.lost_labels.push((t.caption?t.caption.textContent.slice(0,50):"a table")+
      ": its first column scrolls out of view");}
    w.scrollLeft=0;
  });
  out.forests=document.querySelectorAll("svg.forest").length;out.card_tables=document.querySelectorAll("table.cards").length;
  var pre=document.createElement("pre");pre.id="probe";pre.textContent=JSON.stringify(out);document.body.appendChild(pre);
  if(window.parent!==window){window.parent.postMessage(pre.textContent,"*");}
})();
</script>
"""


# Headless Chromium keeps a window at least 500 px wide, so a narrower screen is an iframe of that width: the
# probe inside it posts its findings to this page, which --dump-dom prints.
FRAME = ('<!DOCTYPE html><html><body style="margin:0"><pre id="probe"></pre><iframe src="%s" style="width:%dpx;'
         'height:900px;border:0"></iframe><script>window.addEventListener("message",function(e){'
         'document.getElementById("probe").textContent=e.data;});</script></body></html>')


def probe(browser, html, tmp_path, width, name="page"):
    """Render ``html`` (with :data:`PROBE` appended) at a true ``width`` px (in an iframe of that width below
    Chromium's 500 px window minimum) and return the probe's findings and the browser's console lines."""
    page = tmp_path / ("%s-%d.html" % (name, width))
    page.write_text(html.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    target = page
    if width < 500:
        target = tmp_path / ("%s-%d-frame.html" % (name, width))
        target.write_text(FRAME % (page.name, width), encoding="utf-8")
    proc = subprocess.run([browser] + FLAGS + ["--user-data-dir=" + str(tmp_path / ("profile-%s-%d" % (name, width))),
                                               "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000",
                                               "--window-size=%d,900" % max(width, 1280), "--dump-dom",
                                               "file://" + str(target)],
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0 and "</html>" in proc.stdout, proc.stderr[-2000:]
    found = re.search(r'<pre id="probe">(.*?)</pre>', proc.stdout, re.S)
    assert found, proc.stderr[-2000:]
    import html as html_module
    import json
    console = [line for line in proc.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    return json.loads(html_module.unescape(found.group(1))), console


def _problems(found, width):
    """Everything the probe found wrong, as readable lines (an empty list: the page is as the issue asks)."""
    bad = ["sort: table %(table)d column %(column)d (%(header)s) is not in order after a click" % s
           for s in found["sort"] if not s["ok"]]
    bad += found["labels"] + ["clipped text " + c for c in found["clipped"]]
    bad += ["no visible panel title in " + t["id"] for t in found["titles"] if not t["visible"]]
    bad += ["debug output on the page: %s" % found["debug"]] if found["debug"] else []
    bad += ["contents link to a missing section: %s" % h for h, ok in found["toc"] if not ok]
    bad += ["figure text of %.1f px at %d px" % (min(found["fonts"]), width)] if min(found["fonts"]) < 9.5 else []
    if width >= 1280:
        bad += ["table wider than the page at 1280 px: " + t for t in found["wide_tables"]]
    bad += found["unmatched"] + ["at %d px: %s" % (width, o) for o in found["offscreen"]]
    bad += ["at %d px: %s" % (width, lost) for lost in found["lost_labels"]]
    bad += ["the page was %d px wide, not %d" % (found["inner_width"], width)] if found["inner_width"] != width else []
    d = found["diagonal"]
    if d is None:
        bad.append("Figure 2(a) has no diagonal")
    elif not (d["x2"] > d["x1"] and d["y2"] < d["y1"] and d["spans"]):
        bad.append("Figure 2(a)'s diagonal does not run corner to corner: %s" % d)
    return bad


def test_report_renders_in_a_real_browser(reports, tmp_path):
    """Sorting read back, the diagonal, labels without overlap or clipping, visible titles, a table of
    contents, no debug block, legible figures at 420 px, tables that fit at 1280 px; screenshots at both
    widths ($NCLUE_ARTIFACTS or the test's folder)."""
    browser = _need_browser()
    paths, _, _ = reports
    html = open(paths["html"], encoding="utf-8").read()
    for width in (1280, 420):
        found, console = probe(browser, html, tmp_path, width)
        assert not _problems(found, width), _problems(found, width)
        assert len(found["sort"]) > 100 and sum(s["numeric"] for s in found["sort"]) > 50
        assert found["labels_checked"] > 20 and len(found["toc"]) == len(SECTIONS)
        assert found["points"] > 20 and found["forests"] >= 1 and found["card_tables"] >= 1
        assert not [line for line in console if "rror" in line or "Uncaught" in line], console
    artifacts = os.environ.get("NCLUE_ARTIFACTS") or str(tmp_path)
    os.makedirs(artifacts, exist_ok=True)
    for width in (1280, 420):
        shot = os.path.join(artifacts, "report-%d.png" % width)
        subprocess.run([browser] + FLAGS + ["--user-data-dir=" + str(tmp_path / ("shot%d" % width)),
                                            "--hide-scrollbars", "--window-size=%d,7000" % width, "--screenshot=" + shot,
                                            "file://" + os.path.abspath(paths["html"])], capture_output=True, timeout=180)
        assert os.path.getsize(shot) > 10000
        print("screenshot: %s" % shot)


# the sort script of the release before issue 27: it numbered the headers across the whole page
OLD_SORT = """(function(){
  function cell(r,i){var c=r.children[i];return c?c.textContent.trim():"";}
  document.querySelectorAll("table.sortable th").forEach(function(th,idx){
    th.addEventListener("click",function(){
      var table=th.closest("table"),body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
      var dir=th.getAttribute("data-dir")==="asc"?-1:1;th.setAttribute("data-dir",dir===1?"asc":"desc");
      rows.sort(function(a,b){var x=cell(a,idx),y=cell(b,idx),nx=parseFloat(x),ny=parseFloat(y);
        if(!isNaN(nx)&&!isNaN(ny)){return dir*(nx-ny);}return dir*x.localeCompare(y);});
      rows.forEach(function(r){body.appendChild(r);});});});
})();"""


def test_the_browser_test_fails_on_the_old_sort_and_without_the_diagonal(reports, tmp_path):
    from nclue.reports.html_page import SCRIPT

    browser = _need_browser()
    paths, _, _ = reports
    html = open(paths["html"], encoding="utf-8").read()
    assert SCRIPT in html
    old = re.sub(r'<line class="diagonal"[^>]*>.*?</line>', "", html.replace(SCRIPT, OLD_SORT), flags=re.S)
    found, _ = probe(browser, old, tmp_path, 1280, name="old")
    bad = _problems(found, 1280)
    assert "Figure 2(a) has no diagonal" in bad
    assert any(line.startswith("sort: table 1 ") for line in bad), bad       # the second table sorts wrongly


def test_the_narrow_probe_fails_on_the_old_captions_tables_and_forest_plot(reports, tmp_path):
    """At a true 420 px, the page as it was before issue 36's fix -- captions as wide as their table, long-text
    tables without cards, a 780 px forest plot -- is caught, and so is a label moved away from its dot."""
    from nclue.reports.html_page import STYLE

    browser = _need_browser()
    paths, _, _ = reports
    html = open(paths["html"], encoding="utf-8").read()
    old_style = STYLE.replace("position:sticky;left:0;max-width:calc(100vw - 2rem);\nbox-sizing:border-box", "")
    assert old_style != STYLE
    old = html.replace(STYLE, old_style).replace("table.cards", "table.nocards")
    old = re.sub(r'(<svg id="fig-contrasts" class="forest"[^>]*?) width="\d+"', r'\1 width="780"', old)
    figure = old[old.index('<svg id="fig-figure2a"'):]
    joined = set(re.findall(r'<line class="leader" data-point="(\d+)"', figure[:figure.index("</svg>")]))
    bare = next(k for k in re.findall(r'<text class="label" data-point="(\d+)"', figure) if k not in joined)
    old = re.sub(r'(<svg id="fig-figure2a".*?<text class="label" data-point="%s" x="[0-9.]+" y=")([0-9.]+)' % bare,
                 lambda m: m.group(1) + "%.1f" % (float(m.group(2)) + (50 if float(m.group(2)) < 200 else -50)),
                 old, count=1, flags=re.S)
    found, _ = probe(browser, old, tmp_path, 420, name="narrow-old")
    bad = _problems(found, 420)
    assert found["inner_width"] == 420
    assert any("caption '" in line for line in bad), bad
    assert any("forest plot fig-contrasts ends at" in line for line in bad), bad
    assert any("table 'Findings" in line for line in bad), bad
    assert any("point %s " % bare in line and "from its dot" in line for line in bad), bad


def test_the_narrow_probe_fails_when_a_wide_table_loses_its_row_labels(reports, tmp_path):
    """Issue 57: at a true 420 px a table wider than the screen keeps its first column (each row's label) in view
    when scrolled; without the sticky first column the probe names the tables whose labels scroll away."""
    from nclue.reports.html_page import STYLE

    browser = _need_browser()
    paths, _, _ = reports
    html = open(paths["html"], encoding="utf-8").read()
    sticky = ".table-wrap td:first-child,.table-wrap th:first-child{position:sticky;left:0;z-index:1;background:#fff}"
    assert sticky in STYLE
    found, _ = probe(browser, html.replace(STYLE, STYLE.replace(sticky, "")), tmp_path, 420, name="unsticky")
    lost = [line for line in _problems(found, 420) if "first column scrolls out of view" in line]
    assert len(lost) > 10, lost


def test_published_results_are_grouped_by_table_and_filter_to_their_fails(tmp_path):
    from types import SimpleNamespace

    from nclue.reports.html_page import page
    from nclue.reports.html_report import _published_section

    def binding(number, table, status):
        return {"number": number, "table": table, "bound": True, "published": "1.0", "published_value": 1.0,
                "decimals": 1, "recomputed": 1.25, "claim": "v1.matrix.bm25_and.nclue_score_at_10", "kind": "result",
                "status": status}
    bindings = [binding("T5.a", "Table 5", "pass"), binding("T5.b", "Table 5", "fail"),
                binding("S3.a", "Table S3", "pass"), binding("X.a", "the abstract", "pass")]
    by_table = {"Table 5": dict(numbers=2, bound=2, verified=1, failed=1, skipped=0),
                "Table S3": dict(numbers=1, bound=1, verified=1, failed=0, skipped=0),
                "the abstract": dict(numbers=1, bound=1, verified=1, failed=0, skipped=0)}
    pub = {"summary": {"bound": 4, "numbers": 4, "verified": 3, "failed": 1, "skipped": 0, "by_table": by_table,
                       "unbound_by_reason": {}}, "bindings": bindings}
    html = page("t", _published_section(SimpleNamespace(published=pub)))
    order = re.findall(r"<summary>([^:]+):", html)
    assert order == ["the abstract", "Table 5", "Table S3"]                  # the paper's order
    assert re.search(r'<details data-fails="1" open><summary>Table 5: 2 bound, 1 fail', html)
    # the published and recomputed cells are numbers: class num, a data value, the paper's decimals
    assert re.search(r'<td class="num" data-v="1.0">1.0</td><td class="num" data-v="1.25">1.2', html)
    found, _ = probe(_need_browser(), html, tmp_path, 1280, name="published")
    assert found["filter"] == {"shown": True, "rows": 4, "after": ["fail"]}


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


def test_progress_goes_to_stderr_and_quiet_prints_the_instrument_fails_and_result_only(reports):
    _, stdout, stderr = reports
    assert re.search(r"\[\s*\d+\.\ds\] scoring\s+v1\.matrix \(\d+ checks\)", stderr)
    assert "[" not in stdout.splitlines()[0]
    code, out, err = run_reproduce("--quiet", "--only", "integrity")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2 and lines[-1].startswith("RESULT: OK") and err == ""
    assert "SYNTHETIC stand-in" in lines[0]          # --quiet keeps the warning that the numbers are not the paper's


def test_strict_counts_only_the_skips_of_requested_levels():
    code, out, _ = run_reproduce("--only", "integrity,derivation", "--strict")
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
    assert '<svg id="fig-run-0" class="forest" role="img"' in html and "Paired comparisons" in html and "bm25_or" in html
    assert not re.search(r"<script[^>]+src=|<link\b", html)


def test_every_claim_the_reports_name_exists(mini_all):
    # the text and HTML sections read recomputed values by claim id; an id that no claim has (a claim renamed
    # without the report) would show "?" or drop a row silently, so the lookups are recorded and must all hit
    from nclue.reports.html_report import render_html
    from nclue.reports.report import claim_values, render_text
    from nclue.run.runner import run

    result = run(mini_all)
    render_text(result)
    render_html(result)
    values = claim_values(result)
    assert len(values) > 1000 and values.missing == set()
    # and the check can fail: a renamed claim is reported as missing
    for check in result.checks:
        if check.id == "v1.scorecard.bm25_and.gold_hit_at_10":
            check.id = "v1.scorecard.bm25_and.renamed"
    result.claim_values = None
    render_html(result)
    assert claim_values(result).missing == {"v1.scorecard.bm25_and.gold_hit_at_10"}


def test_every_scatter_point_carries_its_label_or_its_number():
    """Thirty points piled on one spot and one apart: every point is drawn with its label or its number (none is
    left bare), and a number with no free spot sits beside its own dot."""
    from nclue.reports.svg_figures import POINT_RADIUS, scatter

    points = [("p%d" % i, 10 + 0.01 * i, 10 + 0.01 * i) for i in range(30)] + [("far", 50, 20)]
    svg, key = scatter("fig-t", points, "x", "y", "t", diagonal=True)
    texts = re.findall(r'<text class="label" data-point="\d+" x="([0-9.]+)" y="([0-9.]+)"[^>]*>([^<]*)</text>', svg)
    assert len(texts) == len(points)
    shown = {text for _, _, text in texts}
    for number, label, _, _, by_name in key:
        assert (label if by_name else str(number)) in shown, (number, label)
    dots = re.findall(r'<circle data-point="\d+" data-label="[^"]*" cx="([0-9.]+)" cy="([0-9.]+)"', svg)
    for (x, y, text), (cx, cy) in zip(texts, dots):
        if text.isdigit() and abs(float(x) - float(cx)) <= POINT_RADIUS + 1.1:
            assert abs(float(y) - float(cy)) <= POINT_RADIUS + 1.1          # the fallback: at its own dot


def test_the_realpage_section_shows_each_rows_verdict_beside_the_paper_and_every_realpage_table(reports):
    """The RealPage section (docs/realpage.md#the-replication): one row per paper row of Table 5 whose second
    cell is the frozen verdict in words, the best variant in a column that says it is not the verdict, Table 7's
    RealPage column, and a table for each analysis that now runs on RealPage."""
    import json

    from nclue.reports.report import REPLICATION_WORDS

    paths, _, _ = reports
    html = open(paths["html"], encoding="utf-8").read()
    section = html[html.index('<section id="replication">'):]
    section = section[:section.index("</section>")]
    frozen = {c["id"]: c["value"] for c in json.load(open(os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "reference_metrics", "v3.replication.json"),
        encoding="utf-8"))["claims"]}
    words = dict(REPLICATION_WORDS)
    first = section[section.index("<table"):section.index("</table>")]
    second = section[section.index("</table>") + len("</table>"):]
    second = second[second.index("<table"):second.index("</table>")]
    heads = re.findall(r"<th scope=\"col\">(.*?)</th>", first)
    assert heads[:2] == ["paper row", "verdict"] and not any("best" in h for h in heads)
    assert any("not the verdict" in h for h in re.findall(r"<th scope=\"col\">(.*?)</th>", second))
    rows = re.findall(r"<tr><td[^>]*>(.*?)</td><td[^>]*>(.*?)</td>", first, flags=re.S)
    assert len(rows) == 8
    for row, verdict in rows:
        assert verdict == words[frozen["v3.replication.%s.verdict" % row]], row
    for caption in ("Table 7 with a RealPage column", "RealPage Table 1 ", "RealPage clean-query scorecard",
                    "RealPage Table 5 by the paper&#x27;s rows", "RealPage Tables 6 and S1j", "RealPage Table 8", "RealPage Table S5a",
                    "RealPage validity controls",
                    "RealPage diagnostics", "RealPage sensitivity", "RealPage Table S14"):
        assert caption in section, caption


def test_crosspage_table5_reads_the_papers_rows_and_the_variants_the_binding_uses():
    """Issue 57: the HTML Table 5 on CrossPage names the paper's rows, shows the variant each row names (the one
    the published results are bound to: tri_dec_hmean for 'Jina joint -> harmonic dec.', whatever variant the
    stand-in scores highest) and the paper's Sel.+Holm p; the stand-in's block stays in brackets."""
    import glob
    import html
    import json

    from conftest import REPO

    from nclue.core.claim_ids import PAPER_BLOCK
    from nclue.core.layout import CROSSPAGE
    from nclue.reports.html_page import num
    from nclue.reports.html_report import _contrasts_body

    got = {}
    for path in sorted(glob.glob(os.path.join(REPO, "reference_metrics", "v1.*.json"))):
        for claim in json.load(open(path, encoding="utf-8")).get("claims", []):
            got[claim["id"]] = claim["value"]
    body = html.unescape(_contrasts_body(got, CROSSPAGE, "fig-test"))
    rows = [re.sub(r"<[^>]+>", "|", r) for r in re.findall(r"<tr>(.*?)</tr>", body)]
    jina = next(r for r in rows if "Jina joint -> harmonic dec." in r)
    assert "Dense composition (Jina joint -> harmonic dec.) [dense_composition_tri]" in jina
    assert "tri_joint \u2192 tri_dec_hmean" in jina
    assert got["v1.inference.paper_block.jina_composition.variant"] == "tri_dec_hmean"
    p = got[PAPER_BLOCK.on("v1")(block="jina_composition", statistic="p_holm")]
    assert jina.endswith("|%s|" % num(p, 4).text)
    assert len(rows) == 9 and rows[0].startswith("|the paper's row [block]|")          # a header and the eight rows


def test_forest_rows_are_evenly_spaced_when_one_note_needs_its_own_line():
    """Issue 57: the forest plot's intervals stand at one spacing, even when only one row's label and note do
    not fit on a line (every note then takes its own line)."""
    from nclue.reports.svg_figures import forest

    rows = [("short", 1.0, 0.0, 2.0, "p 0.1"), ("a label long enough to push its note onto a line of its own "
                                               "in a plot of the standard width", 2.0, 1.0, 3.0, "Holm p 0.0008"),
            ("mid", -1.0, -2.0, 0.5, "p 0.3")]
    svg = forest("fig-even", rows, "x", "even rows")
    ys = [int(m) for m in re.findall(r'<line x1="[\d.]+" y1="(\d+)" x2="[\d.]+" y2="\1" stroke="#0969da"', svg)]
    assert len(ys) == 3 and ys[1] - ys[0] == ys[2] - ys[1] == 46
    short = forest("fig-short", [rows[0], rows[2]], "x", "short rows")
    ys = [int(m) for m in re.findall(r'<line x1="[\d.]+" y1="(\d+)" x2="[\d.]+" y2="\1" stroke="#0969da"', short)]
    assert ys[1] - ys[0] == 32


def test_published_numbers_are_also_laid_out_as_the_papers_tables():
    """Issue 57: each table's bound numbers in the paper's shape -- its row labels down, its column labels across,
    "published / this instrument (difference)" -- the two Dense composition rows of Table 5 kept apart, and a
    cell that prints several numbers naming each by its part."""
    from nclue.reports.html_report import _paper_grid

    def bound(number, cell, published, value, recomputed, position):
        return {"number": number, "cell": cell, "published": published, "published_value": value, "decimals": 1,
                "recomputed": recomputed, "status": "skip", "position": position}
    members = [bound("T5.jina_composition.delta", ["Dense composition", "Jina joint -> harmonic dec.",
                                                   "Delta Score [paired 95% CI]", "Delta Score"], "+6.8", 6.8, 7.2, 2),
               bound("T5.qwen_composition.delta", ["Dense composition", "Qwen 0.6B joint -> product dec.",
                                                   "Delta Score [paired 95% CI]", "Delta Score"], "+7.3", 7.3, 1.3, 3),
               bound("T5.scale.delta", ["Scale", None, "Delta Score [paired 95% CI]", "Delta Score"], "0.0", 0.0,
                     6.9, 1)]
    grid = _paper_grid("Table 5", members)
    rows = [re.sub(r"<[^>]+>", "|", r) for r in re.findall(r"<tr>(.*?)</tr>", grid)]
    assert rows[0].startswith("|row|") and "Delta Score [paired 95% CI]" in rows[0]
    assert [r.split("|")[1] for r in rows[1:]] == ["Scale", "Dense composition (Jina joint -&gt; harmonic dec.)",
                                                   "Dense composition (Qwen 0.6B joint -&gt; product dec.)"]
    assert "Delta Score: |+6.8 / 7.2 (+0.4)" in rows[2] and "+7.3 / 1.3 (-6.0)" in rows[3]
    assert _paper_grid("section 4.2", [dict(members[0], cell=None)]) == ""


def test_the_narrow_probe_fails_when_a_card_tables_caption_is_squeezed(reports, tmp_path):
    """Issue 57: at a true 420 px the paper audit's Findings (a table shown as cards on a phone) kept its caption
    in a column a word wide; the caption now spans the cards, and the probe names it when it does not."""
    from nclue.reports.html_page import STYLE

    browser = _need_browser()
    paths, _, _ = reports
    html = open(paths["html"], encoding="utf-8").read()
    rule = "table.cards caption{display:block}"
    assert rule in STYLE
    found, _ = probe(browser, html.replace(STYLE, STYLE.replace(rule, "")), tmp_path, 420, name="squeezed")
    assert any(line.startswith("at 420 px: caption 'Findings") and "squeezed to" in line
               for line in _problems(found, 420)), _problems(found, 420)
