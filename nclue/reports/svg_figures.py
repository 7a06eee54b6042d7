"""Inline SVG figures for the HTML reports (docs/usage.md#the-html-report): scatter plots with placed
labels, forest plots and stacked bars, drawn by the standard library.

Every figure has a visible title (``<text class="panel-title">``), axis labels with units, and a text
alternative (``<title>``/``<desc>``).  The SVG keeps its natural size (the page scrolls it sideways on
a narrow screen), so its text is never drawn smaller than ``MIN_FONT`` pixels.  Scatter labels are
placed without overlap: each label tries positions around its point and takes the first whose box
(estimated from the font's advance widths, :func:`text_width`) meets no placed label, no point and
stays inside the plot area (``<rect class="plot-area">``); a label with no free position is replaced
by its number in the key that follows the figure.  The bytes depend only on the values.
"""

import math
from html import escape

MIN_FONT = 10          # the smallest font size any figure uses (pixels at the figure's natural size)
LABEL_FONT = 10
POINT_RADIUS = 4

# Advance widths in em of the widest common sans-serif face (DejaVu Sans), so that an estimate is never
# narrower than the text a browser draws; characters not listed count as the widest (1.0 em).
_WIDTHS = dict(
    [(c, 0.636) for c in "0123456789"] +
    list(zip("abcdefghijklmnopqrstuvwxyz", (0.613, 0.635, 0.550, 0.635, 0.615, 0.352, 0.635, 0.634, 0.278, 0.278,
                                            0.579, 0.278, 0.974, 0.634, 0.612, 0.635, 0.635, 0.411, 0.521, 0.392,
                                            0.634, 0.592, 0.818, 0.592, 0.592, 0.525))) +
    [(c, 0.78) for c in "ABCDEFGHIJKLNOPQRSTUVXYZ"] + [("M", 0.863), ("W", 0.989)] +
    [(" ", 0.318), ("_", 0.5), ("-", 0.361), (".", 0.318), (",", 0.318), (":", 0.337), ("(", 0.39), (")", 0.39),
     ("+", 0.838), ("=", 0.838), ("%", 0.95), ("/", 0.337), ("|", 0.337), ("[", 0.39), ("]", 0.39)])


def text_width(text, size):
    """Estimated width in pixels of ``text`` at font size ``size`` (5% above the face's advance widths).

    >>> round(text_width("bm25_and", 10), 1)
    55.3
    """
    return 1.05 * size * sum(_WIDTHS.get(ch, 1.0) for ch in text)


class Box:
    """An axis-aligned rectangle (``x0 <= x1``, ``y0 <= y1``, SVG coordinates)."""

    __slots__ = ("x0", "y0", "x1", "y1")

    def __init__(self, x0, y0, x1, y1):
        self.x0, self.y0, self.x1, self.y1 = x0, y0, x1, y1

    def meets(self, other, gap=1.0):
        return not (self.x1 + gap <= other.x0 or other.x1 + gap <= self.x0 or
                    self.y1 + gap <= other.y0 or other.y1 + gap <= self.y0)

    def inside(self, other):
        return self.x0 >= other.x0 and self.x1 <= other.x1 and self.y0 >= other.y0 and self.y1 <= other.y1


# (dx, dy, anchor) offsets from a point to a label's anchor, tried in order (nearest first)
_SPOTS = tuple((k * dx, k * dy, anchor) for k in (1, 2, 3, 4, 5, 6) for dx, dy, anchor in (
    (7, 4, "start"), (-7, 4, "end"), (0, -8, "middle"), (0, 15, "middle"), (6, -6, "start"), (-6, -6, "end"),
    (6, 13, "start"), (-6, 13, "end")))


def _label_box(x, y, text, anchor, size):
    width = text_width(text, size)
    left = x if anchor == "start" else x - width if anchor == "end" else x - width / 2
    return Box(left, y - 0.95 * size, left + width, y + 0.3 * size)


def place_labels(points, area, size=LABEL_FONT, taken=None):
    """Place one label per point: ``points`` ``[(text, px, py)]`` in pixels, ``area`` the plot's
    :class:`Box`.  Returns ``[(x, y, anchor) or None]``: a label's anchor point and text-anchor, or None
    when no free position exists (the caller shows the point's number instead, see module doc).
    ``taken``: boxes already occupied (extended with the boxes of the labels placed here).

    >>> area = Box(0, 0, 200, 100)
    >>> place_labels([("a", 50, 50), ("b", 52, 50)], area)
    [(57, 54, 'start'), (45, 54, 'end')]
    """
    if taken is None:
        taken = [Box(px - POINT_RADIUS, py - POINT_RADIUS, px + POINT_RADIUS, py + POINT_RADIUS)
                 for _, px, py in points]
    out = []
    for text, px, py in points:
        spot = None
        for dx, dy, anchor in _SPOTS:
            x, y = px + dx, py + dy
            box = _label_box(x, y, text, anchor, size)
            if box.inside(area) and not any(box.meets(t) for t in taken):
                spot = (x, y, anchor)
                taken.append(box)
                break
        out.append(spot)
    return out


class Axis:
    """A linear map from data to pixels with 'nice' ticks."""

    def __init__(self, lo, hi, start, end, pad=0.05):
        if hi <= lo:
            hi = lo + 1.0
        span = hi - lo
        self.lo, self.hi = lo - pad * span, hi + pad * span
        self.start, self.end = start, end

    def __call__(self, v):
        return self.start + (v - self.lo) / (self.hi - self.lo) * (self.end - self.start)

    def ticks(self, n=5):
        """Round tick values: a step of 1, 2 or 5 times a power of ten giving about ``n`` ticks.

        >>> Axis(0, 100, 0, 1).ticks()
        [0, 20, 40, 60, 80, 100]
        """
        raw = (self.hi - self.lo) / n
        base = 10.0 ** math.floor(math.log10(raw))
        step = next(m * base for m in (1, 2, 5, 10) if m * base >= 0.75 * raw)
        k = math.ceil(self.lo / step - 1e-9)
        out = []
        while k * step <= self.hi + 1e-9:
            value = round(k * step, 10)
            out.append(int(value) if value == int(value) else value)
            k += 1
        return out


def fmt(value, digits=1):
    """A number as the reports show it (``n/a`` for None)."""
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return "%d" % value
    if isinstance(value, float):
        return "%.*f" % (digits, value)
    return escape(str(value))


def _tick(t):
    return ("%d" % t) if abs(t - round(t)) < 1e-9 else ("%g" % t)


def _title_lines(title, width):
    """The panel title broken at spaces into lines that fit ``width`` px at 12 px bold (10% wider than regular)."""
    lines = [""]
    for word in title.split(" "):
        trial = (lines[-1] + " " + word).strip()
        if lines[-1] and 1.1 * text_width(trial, 12) > width - 16:
            lines.append(word)
        else:
            lines[-1] = trial
    return lines


def svg(fig_id, width, height, title, desc, body, cls=None):
    """The ``<svg>`` element: natural size, visible title (on as many lines as the width needs; the plot moves
    down by the extra lines), ``<title>``/``<desc>`` text alternative."""
    lines = _title_lines(title, width)
    extra = 15 * (len(lines) - 1)
    shown = "".join('<tspan x="8" dy="%d">%s</tspan>' % (0 if k == 0 else 15, escape(line))
                    for k, line in enumerate(lines)) if extra else escape(title)
    body = '<g transform="translate(0,%d)">%s</g>' % (extra, body) if extra else body
    height += extra
    return ('<svg id="%s"%s role="img" aria-labelledby="%s-t %s-d" viewBox="0 0 %d %d" width="%d" height="%d" '
            'xmlns="http://www.w3.org/2000/svg" font-size="11" font-family="sans-serif"><title id="%s-t">%s</title>'
            '<desc id="%s-d">%s</desc><text class="panel-title" x="8" y="16" font-size="12" font-weight="600">%s'
            '</text>%s</svg>' % (fig_id, ' class="%s"' % cls if cls else "", fig_id, fig_id, width, height, width, height, fig_id, escape(title), fig_id,
                                 escape(desc), shown, body))


TOP = 28               # room for the panel title above every plot


def _axes(x, y, xlabel, ylabel, width, height, left, bottom):
    parts = ['<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>' % (left, height - bottom, width - 10,
                                                                         height - bottom),
             '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>' % (left, TOP, left, height - bottom)]
    for t in x.ticks():
        px = x(t)
        parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#333"/><text x="%.1f" y="%d" '
                     'text-anchor="middle">%s</text>' % (px, height - bottom, px, height - bottom + 4, px,
                                                         height - bottom + 16, _tick(t)))
    for t in y.ticks():
        py = y(t)
        parts.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/><text x="%d" y="%.1f" '
                     'text-anchor="end">%s</text>' % (left, py, width - 10, py, left - 4, py + 4, _tick(t)))
    parts.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % ((left + width - 10) / 2, height - 4,
                                                                          escape(xlabel)))
    middle = (TOP + height - bottom) / 2
    parts.append('<text x="12" y="%.1f" text-anchor="middle" transform="rotate(-90 12 %.1f)">%s</text>' % (
        middle, middle, escape(ylabel)))
    return "".join(parts)


def scatter(fig_id, points, xlabel, ylabel, title, zero_lines=False, diagonal=False):
    """``points``: ``[(label, x, y)]`` in the data's units.  ``diagonal``: both axes share one range and
    the line y = x is drawn (``<line class="diagonal">``).  Returns ``(svg, key)``: ``key`` lists
    ``(number, label, x, y, shown)`` for every point, ``shown`` False when the label did not fit and
    the point carries its number instead."""
    width, height, left, bottom = 680, 420, 56, 38
    x, y = _scatter_axes(points, zero_lines, diagonal, width, height, left, bottom)
    area = Box(left + 1, TOP, width - 10, height - bottom - 1)
    body = [_axes(x, y, xlabel, ylabel, width, height, left, bottom),
            '<rect class="plot-area" x="%d" y="%d" width="%d" height="%d" fill="none"/>' % (
                area.x0, area.y0, area.x1 - area.x0, area.y1 - area.y0)]
    body += _reference_lines(x, y, zero_lines, diagonal, width, height, left, bottom)
    pixels = [(label, round(x(px), 1), round(y(py), 1)) for label, px, py in points]
    taken = [Box(px - POINT_RADIUS, py - POINT_RADIUS, px + POINT_RADIUS, py + POINT_RADIUS) for _, px, py in pixels]
    spots = place_labels(pixels, area, taken=taken)
    numbers = [("%d" % (k + 1), px, py) for k, (_, px, py) in enumerate(pixels)]
    missing = [k for k, s in enumerate(spots) if s is None]
    number_spots = dict(zip(missing, place_labels([numbers[k] for k in missing], area, taken=taken)))
    key = []
    for k, ((label, dx, dy), (_, px, py), spot) in enumerate(zip(points, pixels, spots)):
        body.append('<circle data-point="%d" data-label="%s" cx="%.1f" cy="%.1f" r="%d" fill="#0969da"><title>%s: %s %s, '
                    '%s %s</title></circle>' % (k + 1, escape(label), px, py, POINT_RADIUS, escape(label), escape(xlabel), fmt(dx), escape(ylabel), fmt(dy)))
        text = label if spot is not None else numbers[k][0]
        # a number with no free spot still sits at its own dot (up and right of it), so every point carries
        # its label or its number and a number is never read as a neighbour's
        at = spot or number_spots.get(k) or (round(px + POINT_RADIUS + 1, 1), round(py - POINT_RADIUS - 1, 1), "start")
        body += _point_label(px, py, at, text, k + 1)
        key.append((k + 1, label, dx, dy, spots[k] is not None))
    desc = "; ".join("%s: %s, %s" % (label, fmt(px), fmt(py)) for label, px, py in points)
    return svg(fig_id, width, height, title, "%s (x: %s; y: %s). %s" % (title, xlabel, ylabel, desc),
               "".join(body)), key


def _scatter_axes(points, zero_lines, diagonal, width, height, left, bottom):
    """The x and y axes of a scatter: the points' ranges (with 0 for zero lines), one shared range for a diagonal."""
    xs, ys = [p[1] for p in points] or [0.0], [p[2] for p in points] or [0.0]
    extra = [0.0] if zero_lines else []
    if diagonal:
        lo, hi = min(xs + ys + extra), max(xs + ys + extra)
        return Axis(lo, hi, left, width - 10), Axis(lo, hi, height - bottom, TOP)
    return (Axis(min(xs + extra), max(xs + extra), left, width - 10),
            Axis(min(ys + extra), max(ys + extra), height - bottom, TOP))


def _reference_lines(x, y, zero_lines, diagonal, width, height, left, bottom):
    """The diagonal y = x (class ``diagonal``) and the zero lines, as SVG elements."""
    out = []
    if diagonal:
        out.append('<line class="diagonal" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#8c959f" '
                   'stroke-dasharray="6 4"><title>y = x</title></line>' % (x(x.lo), y(x.lo), x(x.hi), y(x.hi)))
    if zero_lines:
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#999" stroke-dasharray="4 3"/>' % (
            x(0), TOP, x(0), height - bottom))
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#999" stroke-dasharray="4 3"/>' % (
            left, y(0), width - 10, y(0)))
    return out


LEADER_GAP = 8        # a label whose box is farther than this from its dot's centre gets a leader line


def _gap(px, py, spot, text):
    """The distance in px from a dot's centre to the box of its label drawn at ``spot`` = (x, y, anchor)."""
    width = text_width(text, LABEL_FONT)
    x0 = {"start": spot[0], "end": spot[0] - width, "middle": spot[0] - width / 2}[spot[2]]
    y0, y1 = spot[1] - 0.8 * LABEL_FONT, spot[1] + 0.2 * LABEL_FONT
    dx, dy = max(x0 - px, 0, px - (x0 + width)), max(y0 - py, 0, py - y1)
    return (dx * dx + dy * dy) ** 0.5


def _point_label(px, py, spot, text, number):
    """A point's label (or number) at ``spot``, with a leader line when it sits away from the point; label,
    leader and dot share ``data-point`` = the point's number, so a reader (or the browser probe) can match
    each label to its dot."""
    if spot is None:
        return []
    out = []
    if _gap(px, py, spot, text) > LEADER_GAP:
        out.append('<line class="leader" data-point="%d" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#afb8c1" '
                   'stroke-width="0.8"/>' % (number, px, py, spot[0], spot[1] - 3))
    out.append('<text class="label" data-point="%d" x="%.1f" y="%.1f" text-anchor="%s" font-size="%d" '
               'fill="#24292f">%s</text>' % (number, spot[0], spot[1], spot[2], LABEL_FONT, escape(text)))
    return out


FOREST_WIDTH = 380        # fits a 420 px phone screen (less the page's margins) at natural size


def forest(fig_id, rows, xlabel, title):
    """``rows``: ``[(label, estimate, low, high, note)]`` as horizontal intervals, evenly spaced, each under a line
    holding its label (left) and its note (right; every note on a line of its own when some label and note do not
    fit on one), so that the figure is
    :data:`FOREST_WIDTH` px wide (wider only for a label that needs it) and reads on a narrow screen without
    scrolling."""
    width = max([FOREST_WIDTH] + [int(text_width(r[0], 11)) + 24 for r in rows])
    # one row height for every row, so that the intervals stand evenly spaced: when any label and its note do
    # not fit on one line, every note takes a line of its own
    own = any(text_width(r[0], 11) + text_width(r[4], 11) + 32 > width for r in rows)
    own_line = [own] * len(rows)
    heights = [46 if own else 32] * len(rows)
    height = TOP + 34 + sum(heights)
    left, right = 12, width - 12
    values = [v for _, e, lo, hi, _ in rows for v in (e, lo, hi) if v is not None] + [0.0]
    x = Axis(min(values), max(values), left, right)
    plot_bottom = height - 34
    body = ['<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#d0d7de"/>' % (left, plot_bottom, right, plot_bottom)]
    for t in x.ticks():
        body.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (x(t), plot_bottom + 14, _tick(t)))
    body.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (width / 2, height - 4, escape(xlabel)))
    top = TOP
    for (label, est, lo, hi, note), own, step in zip(rows, own_line, heights):
        body.append('<text x="%d" y="%d">%s</text>' % (left, top + 11, escape(label)))
        body.append('<text x="%d" y="%d" text-anchor="end" fill="#57606a">%s</text>' % (
            right, top + (25 if own else 11), escape(note)))
        cy = top + step - 9
        body.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#999"/>' % (x(0), cy - 6, x(0), cy + 6))
        if lo is not None and hi is not None:
            body.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#0969da" stroke-width="2"/>' % (
                x(lo), cy, x(hi), cy))
        if est is not None:
            body.append('<rect x="%.1f" y="%.1f" width="7" height="7" fill="#0969da"/>' % (x(est) - 3.5, cy - 3.5))
        top += step
    desc = "; ".join("%s: %s [%s, %s] %s" % (label, fmt(e), fmt(lo), fmt(hi), note) for label, e, lo, hi, note in rows)
    return svg(fig_id, width, height, title, "%s (%s). %s" % (title, xlabel, desc), "".join(body), cls="forest")


def stacked(fig_id, rows, title, parts):
    """``rows``: ``[(label, [values summing to 100])]``; ``parts``: the segment names and colours."""
    width = 720
    left = 16 + max([text_width(r[0], 11) for r in rows] + [60])
    height = TOP + 56 + 24 * max(1, len(rows))
    x = Axis(0, 100, left, width - 20)
    x.lo, x.hi = 0.0, 100.0
    legend_y = TOP + 4
    body = []
    at_x = left
    for name, colour in parts:
        body.append('<rect x="%.1f" y="%d" width="10" height="10" fill="%s"/><text x="%.1f" y="%d">%s</text>' % (
            at_x, legend_y, colour, at_x + 14, legend_y + 9, escape(name)))
        at_x += 14 + text_width(name, 11) + 18
    top = legend_y + 22
    for i, (label, values) in enumerate(rows):
        cy = top + 24 * i
        body.append('<text x="%.1f" y="%d" text-anchor="end">%s</text>' % (left - 8, cy + 12, escape(label)))
        at = 0.0
        for (name, colour), v in zip(parts, values):
            body.append('<rect x="%.1f" y="%d" width="%.1f" height="16" fill="%s"><title>%s %s: %s points</title>'
                        '</rect>' % (x(at), cy, max(0.0, x(at + v) - x(at)), colour, escape(label), escape(name),
                                     fmt(v)))
            at += v
    for t in (0, 25, 50, 75, 100):
        body.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (x(t), height - 16, t))
    body.append('<text x="%.1f" y="%d" text-anchor="middle">share of queries (points)</text>' % (
        (left + width - 20) / 2, height - 2))
    desc = "; ".join("%s: %s" % (label, ", ".join("%s %s" % (n, fmt(v)) for (n, _), v in zip(parts, values)))
                     for label, values in rows)
    return svg(fig_id, width, height, title, "%s. %s" % (title, desc), "".join(body))
