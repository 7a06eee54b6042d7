"""JUnit XML of a run (``--junit FILE``; docs/usage.md#ci-integration).

One ``<testsuite>`` per group (level) and one ``<testcase>`` per check (``classname`` the group,
``name`` the check id): a fail is ``<failure message=...>`` and a skip ``<skipped message=...>``,
each with the reason.  The attributes are those of the JUnit schema CI systems read (``tests``,
``failures``, ``errors``, ``skipped``); there is no timestamp, host or time, so the file is as
deterministic as the JSON report.  A comment after the XML declaration carries the run's count line
(:func:`nclue.reports.report.count_model`), whose totals are the ``testsuites`` attributes.
"""

from xml.sax.saxutils import quoteattr

from ..analyses.base import LEVELS
from .report import count_model


def _text(value):
    # characters XML 1.0 forbids are replaced; everything else is escaped by quoteattr
    return "".join(ch if ch in "\t\n\r" or ord(ch) >= 32 and not 0xD800 <= ord(ch) <= 0xDFFF and ch not in
                   "\ufffe\uffff" else "?" for ch in value)


def render_junit(result, strict=False):
    groups = {}
    for c in result.checks:
        groups.setdefault(c.group, []).append(c)
    order = [g for g in LEVELS if g in groups] + sorted(g for g in groups if g not in LEVELS)
    counts = result.counts()
    model = count_model(result)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           "<!-- %s -->" % _text(model["line"]).replace("--", "- -"),
           '<testsuites name="nclue reproduce" tests="%d" failures="%d" errors="0" skipped="%d">' % (
               len(result.checks), counts["fail"], counts["skip"])]
    for group in order:
        checks = sorted(groups[group], key=lambda c: c.id)
        fails = sum(1 for c in checks if c.status == "fail")
        skips = sum(1 for c in checks if c.status == "skip")
        out.append('  <testsuite name=%s tests="%d" failures="%d" errors="0" skipped="%d">' % (
            quoteattr(group), len(checks), fails, skips))
        for c in checks:
            head = '    <testcase classname=%s name=%s' % (quoteattr(group), quoteattr(_text(c.id)))
            if c.status == "pass":
                out.append(head + "/>")
            else:
                tag = "failure" if c.status == "fail" else "skipped"
                out.append(head + ">")
                message = c.reason if not c.detail else "%s (%s)" % (c.reason, c.detail)
                out.append("      <%s message=%s/>" % (tag, quoteattr(_text(message))))
                out.append("    </testcase>")
        out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out) + "\n"
