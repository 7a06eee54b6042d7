"""The page frame shared by the HTML reports (docs/usage.md#the-html-report): style, the sorting and
filter script, tables whose numeric cells sort as numbers, the table of contents.

A table cell is either text (an escaped string: left-aligned, wraps) or a :class:`Num` (right-aligned,
never wraps, and carries its value in ``data-v`` so that a click on its column sorts by value, not by
text: ``9.5`` before ``10.2``, ``n/a`` last).  The script sorts each table by the column whose header
was clicked in *that* table (``th.cellIndex``), toggling ascending and descending, and keeps a stable
order among equal keys.  Nothing in the page depends on the script: with scripts disabled every table
and figure reads the same.
"""

from html import escape
from typing import NamedTuple

from .svg_figures import fmt

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;margin:0 auto;max-width:1100px;
padding:0 1rem 3rem;color:#1b1f24;line-height:1.45}
h1{font-size:1.5rem;margin:1.2rem 0 .3rem}h2{font-size:1.2rem;border-bottom:1px solid #d0d7de;padding-bottom:.2rem;
margin-top:2rem}
nav ol{columns:2 16rem;margin:.3rem 0}
.table-wrap{overflow-x:auto;max-width:100%;margin:.5rem 0 1rem}
table{border-collapse:collapse;font-size:.85rem}
caption{text-align:left;font-weight:600;padding:.3rem 0;position:sticky;left:0;max-width:calc(100vw - 2rem);
box-sizing:border-box}
th,td{border:1px solid #d0d7de;padding:.2rem .45rem;vertical-align:top}
th{background:#f6f8fa;text-align:left}
table.sortable th{cursor:pointer}table.sortable th:after{content:" \\2195";color:#8c959f}
td{text-align:left;white-space:normal;overflow-wrap:break-word}td.long{overflow-wrap:anywhere}
td:first-child{white-space:nowrap}table.wrap td:first-child{white-space:normal}
.table-wrap td:first-child,.table-wrap th:first-child{position:sticky;left:0;z-index:1;background:#fff}
.table-wrap th:first-child{background:#f6f8fa}
td.num{text-align:right;white-space:nowrap}
.pass{color:#116329}.fail{color:#a40e26;font-weight:600}.skip{color:#6e5800}
.banner{border:2px solid #bf8700;background:#fff8c5;padding:.6rem .8rem;border-radius:6px}
figure{margin:1rem 0;overflow-x:auto}figcaption{font-size:.85rem;color:#57606a;max-width:46rem}
svg{max-width:none;background:#fff}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.8rem}
ul.reasons li{margin:.15rem 0}
details{margin:.3rem 0}summary{cursor:pointer;font-weight:600}
@media (max-width:40rem){table.cards,table.cards tbody,table.cards tr,table.cards td{display:block}
table.cards thead{display:none}table.cards tr{border:1px solid #d0d7de;margin:.4rem 0}
table.cards td{border:0;border-top:1px solid #eaeef2;white-space:normal}table.cards td:first-child{border-top:0}
table.cards td:before{content:attr(data-label) ": ";font-weight:600;color:#57606a}
table.cards td.long{overflow-wrap:break-word}table.cards caption{display:block}}
"""

SCRIPT = """
(function(){
  function key(td){
    if(!td){return [2,""];}
    if(td.hasAttribute("data-v")){var v=parseFloat(td.getAttribute("data-v"));return isNaN(v)?[1,0]:[0,v];}
    return [0,td.textContent.trim()];
  }
  function compare(x,y){
    if(typeof x==="number"&&typeof y==="number"){return x-y;}
    return String(x).localeCompare(String(y));
  }
  document.querySelectorAll("table.sortable").forEach(function(table){
    var head=table.tHead;if(!head){return;}
    Array.prototype.forEach.call(head.rows[0].cells,function(th){
      th.tabIndex=0;
      function sort(){
        var idx=th.cellIndex,dir=th.getAttribute("aria-sort")==="ascending"?-1:1;
        Array.prototype.forEach.call(head.rows[0].cells,function(o){o.removeAttribute("aria-sort");});
        th.setAttribute("aria-sort",dir===1?"ascending":"descending");
        Array.prototype.forEach.call(table.tBodies,function(body){
          var rows=Array.prototype.map.call(body.rows,function(r,i){return [r,i];});
          rows.sort(function(a,b){var ka=key(a[0].cells[idx]),kb=key(b[0].cells[idx]);
            var c=ka[0]!==kb[0]?ka[0]-kb[0]:(ka[0]===0?dir*compare(ka[1],kb[1]):0);
            return c||a[1]-b[1];});
          rows.forEach(function(r){body.appendChild(r[0]);});});}
      th.addEventListener("click",sort);
      th.addEventListener("keydown",function(e){if(e.key==="Enter"||e.key===" "){e.preventDefault();sort();}});
    });
  });
  var filter=document.getElementById("fails-only");
  if(filter){
    filter.closest("p").hidden=false;
    filter.addEventListener("change",function(){
      document.querySelectorAll("#published tr[data-status]").forEach(function(r){
        r.hidden=filter.checked&&r.getAttribute("data-status")!=="fail";});
      document.querySelectorAll("#published details[data-fails]").forEach(function(d){
        if(filter.checked){d.hidden=d.getAttribute("data-fails")==="0";d.open=!d.hidden;}else{d.hidden=false;}});
    });
  }
})();
"""


class Num(NamedTuple):
    """A numeric cell: the shown text and the value it sorts by (None sorts last)."""
    text: str
    value: object


class Long(NamedTuple):
    """A text cell that may break anywhere (arithmetic, lists without spaces): escaped HTML."""
    html: str


def num(value, digits=1):
    """A numeric cell showing ``value`` with ``digits`` decimals."""
    sort = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    return Num(fmt(value, digits), sort)


def p_value(value):
    """A p-value cell with 3 decimals; a positive p that would show as 0.000 shows as ``<0.001`` (escaped) (a p is never 0:
    docs/statistics.md).

    >>> p_value(0.0004999).text, p_value(0.0441).text, p_value(None).text
    ('&lt;0.001', '0.044', 'n/a')
    """
    if isinstance(value, float) and 0 < value < 0.0005:
        return Num("&lt;0.001", value)
    return num(value, 3)


def interval(low, high, digits=1):
    """A ``[low, high]`` cell that sorts by its lower end."""
    return Num("[%s, %s]" % (fmt(low, digits), fmt(high, digits)), low if isinstance(low, (int, float)) else None)


def _td(cell):
    if isinstance(cell, Num):
        return '<td class="num" data-v="%s">%s</td>' % ("" if cell.value is None else repr(float(cell.value)),
                                                        cell.text)
    if isinstance(cell, Long):
        return '<td class="long">%s</td>' % cell.html
    return "<td>%s</td>" % cell


def table(caption, header, rows, cls="sortable", row_attrs=None, wrap_first=False):
    """A ``<table>`` with a caption; ``rows`` of cells (text or :class:`Num`); ``row_attrs`` an optional
    attribute string per row (``data-status="fail"``).  The first column (an identifier) does not wrap
    unless ``wrap_first``.  A table with a :class:`Long` cell is also ``cards``: below 40rem (a phone) each
    row is shown as a block of cells labelled by their column, so long text is not squeezed into narrow
    columns."""
    if wrap_first:
        cls += " wrap"
    cards = any(isinstance(c, Long) for row in rows for c in row)
    if cards:                   # long text: on a narrow screen each row is a card of labelled cells
        cls += " cards"
    out = ['<div class="table-wrap"><table class="%s"><caption>%s</caption><thead><tr>' % (cls, escape(caption))]
    out += ['<th scope="col">%s</th>' % escape(h) for h in header]
    out.append("</tr></thead><tbody>")
    labels = [' data-label="%s"' % escape(h) for h in header]
    for k, row in enumerate(rows):
        attrs = (" " + row_attrs[k]) if row_attrs else ""
        cells = [_td(c) for c in row]
        if cards:
            cells = [c.replace("<td", "<td" + label, 1) for c, label in zip(cells, labels)]
        out.append("<tr%s>" % attrs + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def breakable(identifier):
    """An escaped dotted identifier that may wrap after each dot (``<wbr>``), for long claim ids."""
    return escape(identifier).replace(".", ".<wbr>")


def contents(entries):
    """The table of contents: ``entries`` ``[(section id, title)]``."""
    return '<nav id="contents" aria-label="Contents"><h2>Contents</h2><ol>%s</ol></nav>' % "".join(
        '<li><a href="#%s">%s</a></li>' % (sid, escape(title)) for sid, title in entries)


def page(title, body):
    """A whole self-contained page."""
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<title>%s</title><style>%s</style></head><body>%s<script>%s</script></body></html>\n' % (
                escape(title), STYLE, body, SCRIPT))
