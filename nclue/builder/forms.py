"""The three deterministic query renderings (supplement section 6;
docs/schema.md#queriesjsonl).

* ``raw``: the construction text -- each condition's surface form as the
  construction miner recorded it (sometimes an alias or an upper-case
  heading), joined by single spaces, with no delimiters;
* ``clean_v2``: each cleaned concept quoted, separated by semicolons:
  ``"Grievance Mechanism"; "Comparison"; "Resettlement"``;
* ``natural``: ``Find the document that discusses "X", "Y", and "Z".``
  (two conditions: ``"X" and "Y"``).

>>> natural(["A", "B"])
'Find the document that discusses "A" and "B".'
>>> natural(["A", "B", "C"])
'Find the document that discusses "A", "B", and "C".'
>>> clean_v2(["A", "B"])
'"A"; "B"'
"""

from ..core import layout


def raw(mined):
    return " ".join(mined)


def clean_v2(labels):
    return "; ".join('"%s"' % x for x in labels)


def natural(labels):
    quoted = ['"%s"' % x for x in labels]
    if len(quoted) == 2:
        body = "%s and %s" % tuple(quoted)
    else:
        body = ", ".join(quoted[:-1]) + ", and " + quoted[-1]
    return "Find the document that discusses %s." % body


def render(conditions):
    """All three forms for a list of catalog conditions (dicts with label and mined)."""
    labels = [c["label"] for c in conditions]
    return {layout.RAW.key: raw([c["mined"] for c in conditions]), layout.CLEAN.key: clean_v2(labels),
            layout.NATURAL.key: natural(labels)}
