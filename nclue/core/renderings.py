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

from __future__ import annotations

from typing import Any

from . import layout


def raw(mined: list[Any]) -> str:
    return " ".join(mined)


def clean_v2(labels: list[Any]) -> str:
    return "; ".join('"%s"' % x for x in labels)


def listed(items: list[Any]) -> str:
    """Two items joined by "and", three by commas and ", and"."""
    return "%s and %s" % tuple(items) if len(items) == 2 else ", ".join(items[:-1]) + ", and " + items[-1]


def natural(labels: list[Any]) -> str:
    return "Find the document that discusses %s." % listed(['"%s"' % x for x in labels])


# RealPage's natural form says what each label means: its section conditions are headings the RFC has, its
# entity conditions senses it defines (docs/realpage.md#the-queries)
WHAT_IT_ASKS = {"section": 'has a section titled "%s"', "entity": 'defines "%s"'}


def natural_by_kind(conditions: list[Any]) -> str:
    """RealPage's natural form: ``Find the RFC that defines "A (B)" and has a section titled "C".``

    >>> natural_by_kind([{"kind": "entity", "label": "Domain Name System (DNS)"},
    ...                  {"kind": "section", "label": "Security Considerations"}])
    'Find the RFC that defines "Domain Name System (DNS)" and has a section titled "Security Considerations".'
    """
    return "Find the RFC that %s." % listed([WHAT_IT_ASKS[c["kind"]] % c["label"] for c in conditions])


def render_by_kind(conditions: list[Any]) -> dict[str, Any]:
    """RealPage's three forms: raw and clean as :func:`render`'s, natural by kind (:func:`natural_by_kind`)."""
    return dict(render(conditions), **{layout.NATURAL.key: natural_by_kind(conditions)})


def render(conditions: list[Any]) -> dict[str, Any]:
    """All three forms for a list of catalog conditions (dicts with label and mined)."""
    labels = [c["label"] for c in conditions]
    return {layout.RAW.key: raw([c["mined"] for c in conditions]), layout.CLEAN.key: clean_v2(labels),
            layout.NATURAL.key: natural(labels)}


def realpage_mined(condition: dict[str, Any]) -> str:
    """A RealPage condition's raw text as its miner recorded it: a section's title (its label), a definition's
    acronym (its id's second part: ``def:DNS:domain-name-system``).

    >>> realpage_mined({"cid": "def:DNS:domain-name-system", "kind": "entity", "label": "Domain Name System (DNS)"})
    'DNS'
    """
    return condition["label"] if condition["kind"] == "section" else condition["cid"].split(":")[1]


# each release's rendering of its conditions into the three forms, and whether its released conditions give the
# raw form's mined text (the stand-in's miner may record an alias or an upper-case heading that no file keeps)
RENDERING = {layout.CROSSPAGE.name: (render, None), layout.SOURCESHIFT.name: (render, None),
             layout.REALPAGE.name: (render_by_kind, realpage_mined)}
