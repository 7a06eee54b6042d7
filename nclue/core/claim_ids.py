"""Claim ids, declared once (docs/claims.md#claim-ids).

Every claim an analysis freezes has an id built from one of the templates below: literal segments and
named parts, each part with its domain (a tuple of the words it may be, or an open pattern for names the
release defines, such as systems, blocks and statistics).  The table is the one place a claim id is
spelled: an analysis's claims must match its own templates (``freeze`` refuses one that matches none),
and the reports, the HTML report, the bindings and the paper audit build every id they read by calling a
template, never by writing the id out or taking one apart.

>>> SCORECARD.on("v1")(system="bm25_and", measure="gold_hit_at_10")
'v1.scorecard.bm25_and.gold_hit_at_10'
>>> SCORECARD.match("v3.scorecard.bm25_and.gold_hit_at_10")
{'release': 'v3', 'system': 'bm25_and', 'measure': 'gold_hit_at_10'}
>>> SCORECARD.on("v1")(system="{row}", measure="no_gold")          # a placeholder filled in later by str.format
'v1.scorecard.{row}.no_gold'
>>> SCORECARD.on("v1")(system="bm25_and", measure="gold_hit")     # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
nclue.core.claim_ids.ClaimIdError: v1.scorecard.{system}.{measure}: measure 'gold_hit' is not one of nclue_score_at_10, ...
>>> SCORECARD.on("v2")
Traceback (most recent call last):
  ...
nclue.core.claim_ids.ClaimIdError: {release}.scorecard.{system}.{measure}: no copy 'v2' (its copies are v1, v3)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

from .errors import NclueError
from .layout import CROSSPAGE, FORM_KEYS, RAW_MATRIX, REALPAGE, RELEASES, REPLICATES_PAPER, SOURCESHIFT, releases_with
from .measures import MEASURES

NAME = r"[A-Za-z0-9_\-]+"       # one segment: a name the release defines (system, block, statistic, ...)
NAME_PATTERN = re.compile(NAME)
LOCATION = r"[A-Za-z0-9_\-*]+(?:\.[A-Za-z0-9_\-*]+)*"  # a paper location or number id (it may hold dots)
_PLACEHOLDER = re.compile(r"\{\w+\}|%s")          # a value, or the piece of one, left for str.format or % to fill
_PART = re.compile(r"\{(\w+)\}")


class ClaimIdError(NclueError, ValueError):
    """A claim id built from a template with a missing, unknown or out-of-domain part."""


class ClaimId:
    """One claim-id template: ``template`` with named parts ``{name}``; ``domains`` gives each part a tuple of
    words or a pattern (default :data:`NAME`); ``analyses`` are the analyses whose claims it builds (a part
    named ``analysis`` takes its values from them).  A template frozen once per release or per qrel copy takes
    ``{release or copy: analysis}`` (:func:`per_release`, :func:`v2_copies`): a part named ``release`` then
    takes the release names, and :meth:`on` binds one of them (or, with an ``{analysis}`` part, its analysis).

    >>> MATRIX.on("v3")(system="bm25_and", measure="gold_hit_at_10")
    'v3.matrix.bm25_and.gold_hit_at_10'
    >>> MATRIX.analysis_of_id("v1.matrix.bm25_and.gold_hit_at_10"), MATRIX.analysis_on("v3")
    ('v1.matrix', 'v3.matrix')
    """

    __slots__ = ("template", "analyses", "copies", "parts", "keyed", "domains", "_source", "_compiled", "_prefix",
                 "_on")

    def __init__(self, template: str, analyses: dict[str, Any] | str, **domains: str | tuple[Any, ...]) -> None:
        self.template = template
        # a dict of analyses is {qrel copy or release: analysis} (:func:`v2_copies`), read by :meth:`on`
        self.copies = dict(analyses) if isinstance(analyses, dict) else {}
        self.analyses = (analyses,) if isinstance(analyses, str) else tuple(
            analyses.values() if isinstance(analyses, dict) else analyses)
        self.parts = tuple(_PART.findall(template))
        # the part that names the analysis an id belongs to: a {release} keyed by a dict of analyses, else
        # an {analysis} part, else none (the template's one analysis)
        self.keyed = "release" if self.copies and "release" in self.parts else \
            "analysis" if "analysis" in self.parts else None
        if "analysis" in self.parts:
            domains.setdefault("analysis", self.analyses)
        if self.keyed == "release":
            domains.setdefault("release", tuple(self.copies))
        unknown = sorted(set(domains) - set(self.parts))
        if unknown:
            raise ClaimIdError("%s: no part %s" % (template, unknown[0]))
        self.domains = {part: domains.get(part, NAME) for part in self.parts}
        pieces, at = [], 0
        for match in _PART.finditer(template):
            pieces.append(re.escape(template[at:match.start()]))
            pieces.append("(?P<%s>%s)" % (match.group(1), self._pattern(match.group(1))))
            at = match.end()
        pieces.append(re.escape(template[at:]))
        self._source = "".join(pieces) + r"\Z"      # compiled when an id is first matched (:attr:`_regex`)
        self._compiled: re.Pattern[str] | None = None
        self._prefix = self._prefixes()          # the literal starts an id it builds may have
        self._on: dict[str, Any] = {}                          # the template on each copy or release (:meth:`on`)

    def _prefixes(self) -> str | tuple[Any, ...]:
        """The literal start of every id the template builds: its text before the first part or, when it opens
        with a part of listed words (``{release}``), each word followed by the text up to the next part."""
        head, brace, rest = self.template.partition("{")
        if head or not brace:
            return head
        part, _, tail = rest.partition("}")
        domain = self.domains[part]
        if isinstance(domain, str):
            return ""
        literal = tail.split("{", 1)[0]
        return tuple(word + literal for word in domain)

    @property
    def _regex(self) -> re.Pattern[str]:
        """The template's pattern, compiled once on first use: a run that matches no id (``--only
        integrity``) does not pay for the 60-odd compilations at import."""
        if self._compiled is None:
            self._compiled = re.compile(self._source)
        return self._compiled

    def _pattern(self, part: str) -> str:
        domain = self.domains[part]
        if isinstance(domain, str):
            return domain
        return "|".join(re.escape(word) for word in sorted(domain, key=len, reverse=True))

    def __call__(self, *last: str, **values: str) -> str:
        """The id with each part filled in; a part's value must be in its domain, or a placeholder
        (``{name}`` or ``%s``) that a later ``str.format`` or ``%`` fills in.  One positional value fills the
        one part not named (``AGREEMENT.bind(stage="initial")("pairs")``)."""
        if last:
            open_parts = [part for part in self.parts if part not in values]
            if len(last) != 1 or len(open_parts) != 1:
                raise ClaimIdError("%s: a positional value fills the one part left, and %s are left" % (
                    self.template, len(open_parts)))
            values[open_parts[0]] = last[0]
        missing = [part for part in self.parts if part not in values]
        extra = sorted(set(values) - set(self.parts))
        if missing or extra:
            raise ClaimIdError("%s: %s" % (self.template, "missing part %s" % missing[0] if missing else
                                           "no part %s" % extra[0]))
        for part in self.parts:
            value = values[part]
            if not isinstance(value, str):
                raise ClaimIdError("%s: %s must be a str, not %s" % (self.template, part, type(value).__name__))
            domain = self.domains[part]
            if _PLACEHOLDER.fullmatch(value):
                continue            # filled in later, whatever the domain
            # a value with a placeholder inside (``{a}-{b}``) is checked against an open pattern as it will read
            if self._admits(part, _PLACEHOLDER.sub("x", value) if isinstance(domain, str) else value):
                continue
            raise ClaimIdError("%s: %s %r is not %s" % (self.template, part, value, (
                "one of " + ", ".join(domain)) if not isinstance(domain, str) else "a name of the pattern " + domain))
        out, at = [], 0
        for match in _PART.finditer(self.template):
            out += [self.template[at:match.start()], values[match.group(1)]]
            at = match.end()
        return "".join(out + [self.template[at:]])

    @property
    def analysis(self) -> str:
        """The one analysis whose claims the template builds (a :class:`ClaimIdError` for a template of several)."""
        if len(self.analyses) != 1:
            raise ClaimIdError("%s: the ids of %d analyses; name one with analysis_on()" % (
                self.template, len(self.analyses)))
        return self.analyses[0]

    def bind(self, **values: str) -> Callable[..., Any]:
        """This template with some parts fixed: a callable taking the rest (the last one positionally), which
        can fix more of them in turn.

        >>> AGREEMENT.bind(stage="initial")("pairs")
        'audit.agreement.initial.pairs'
        >>> IMPACT_OF.bind(release="v2").bind(copy="s0", subject="fusion")("gold_ndcg")
        'audit.impact.v2.s0.fusion.gold_ndcg'
        """
        return Bound(self, values)

    def on(self, copy: str) -> Callable[..., Any]:
        """A template frozen once per qrel copy or per release, on that copy or release: the template of its one
        analysis, with the keyed part (``{release}`` or ``{analysis}``) written in.

        >>> V2_DIRECTION.on("s0")(direction="scale", statistic="v2_delta")
        'v2.directions.s0.scale.v2_delta'
        >>> SCORECARD.on("v3"), SCORECARD.on("v3")(system="bm25_and", measure="no_gold")
        (ClaimId('v3.scorecard.{system}.{measure}'), 'v3.scorecard.bm25_and.no_gold')
        """
        found = self._on.get(copy)
        if found is None:
            analysis = self.analysis_on(copy)
            if self.keyed is None:
                raise ClaimIdError("%s: no {release} or {analysis} part to write %r in" % (self.template, copy))
            word = copy if self.keyed == "release" else analysis
            template = self.template.replace("{%s}" % self.keyed, word)
            found = self._on[copy] = ClaimId(template, analysis, **{
                part: domain for part, domain in self.domains.items() if part not in (self.keyed, "analysis")})
        return found

    def analysis_on(self, copy: str) -> str:
        """The analysis that freezes the template's ids on qrel copy or release ``copy``."""
        if copy not in self.copies:
            raise ClaimIdError("%s: no copy %r (its copies are %s)" % (self.template, copy, ", ".join(self.copies)
                                                                         or "none"))
        return self.copies[copy]

    def analysis_of(self, parts: dict[str, Any]) -> str:
        """The analysis whose claims file holds the id of ``parts`` (what :meth:`match` gave)."""
        if self.keyed == "release":
            return self.copies[parts["release"]]
        return parts.get("analysis", self.analyses[0])

    def builds_for(self, claim_id: Any, analysis: Any) -> Any:
        """Whether the template builds ``claim_id`` as a claim of ``analysis`` (its keyed part, when it has one,
        naming that analysis)."""
        parts = self.match(claim_id)
        if parts is None:
            return False
        if self.keyed is not None:
            return self.analysis_of(parts) == analysis
        return analysis in self.analyses

    def analysis_of_id(self, claim_id: str) -> str | None:
        """The analysis whose claims file holds ``claim_id`` (None when the template does not build it)."""
        parts = self.match(claim_id)
        return None if parts is None else self.analysis_of(parts)

    def _admits(self, part: str, value: str) -> bool:
        domain = self.domains[part]
        return re.fullmatch(domain, value) is not None if isinstance(domain, str) else value in domain

    def match(self, claim_id: str) -> dict[str, Any] | None:
        """``{part: value}`` of an id this template builds, or None."""
        if not claim_id.startswith(self._prefix):
            return None
        found = self._regex.match(claim_id)
        return None if found is None else found.groupdict()

    def __repr__(self) -> Any:
        return "ClaimId(%r)" % self.template


class Bound:
    """A claim-id template with some parts fixed (:meth:`ClaimId.bind`)."""

    __slots__ = ("template", "values")

    def __init__(self, template: Callable[..., Any], values: dict[str, Any]) -> None:
        self.template, self.values = template, dict(values)

    def __call__(self, *last: str, **values: str) -> str:
        return self.template(*last, **dict(self.values, **values))

    def bind(self, **values: str) -> Callable[..., Any]:
        return Bound(self.template, dict(self.values, **values))


# -- part domains used by more than one template
MEASURE = tuple(MEASURES)
FORM = FORM_KEYS
METRIC = ("score", "hit", "gold_ndcg")              # the inference's three vectors (paper section 3.4)
DROPPED = ("drop_c1", "drop_c2", "drop_c3")          # the masked condition (Table S5a)
RESPONDER = ("A", "E", "F", "all")                   # the audit's evaluators, and all of them together
STAGE = ("initial", "adjudication")                  # the audit's two rounds
# the releases whose systems' raw-form rankings the paper's tables read (v1 CrossPage, v3 RealPage), and those
# on which a table runs that does not run on RealPage yet
RANKED = releases_with(RAW_MATRIX)
STAND_IN_TABLES = RANKED
# every qrel copy's name, and the label audit between CrossPage's two (v1.genealogy.audit.*)
COPY = tuple(sorted({copy.name for release in RELEASES.values() for copy in release.copies})) + ("audit",)


def per_release(table: str, releases: Iterable[Any]) -> dict[str, Any]:
    """``{release name: analysis}`` of a table frozen once per release in ``releases``: the analysis
    ``<release>.<table>`` (its file ``reference_metrics/<release>.<table>.json``).

    >>> per_release("matrix", RANKED)
    {'v1': 'v1.matrix', 'v3': 'v3.matrix'}
    """
    return {release.name: "%s.%s" % (release.name, table) for release in releases}



def v2_copies(family: str) -> dict[str, Any]:
    """``{copy: analysis}`` of a SourceShift family frozen once per qrel copy: the final copy S in the family's
    own file, S0 and the construction copy in ``<family>.s0`` and ``<family>.construction``."""
    return {copy.name: family + copy.variant(".") for copy in reversed(SOURCESHIFT.copies)}



SHARED_DOCUMENT_ANALYSES = {"v1": "v1.sensitivity.shared_documents", "v2": "v2.sensitivity",
                            "v3": "v3.sensitivity.shared_documents"}   # by release
MEMBERSHIP = ("gold", "judged")

# -- the label audit (paper section 10.2; docs/label-audit.md)
AGREEMENT = ClaimId("audit.agreement.{stage}.{statistic}", "audit.agreement", stage=STAGE)
AGREEMENT_STRATUM = ClaimId("audit.agreement.strata.{stratum}.{statistic}", "audit.agreement")
AGREEMENT_PAIRWISE = ClaimId("audit.agreement.adjudication.pairwise_agreement.{pair}", "audit.agreement")
CHALLENGE = ClaimId("audit.challenge.{statistic}", "audit.challenge")
CHALLENGE_SECTION = ClaimId("audit.challenge.{section}.{statistic}", "audit.challenge",
                            section=("protocol", "decisions"))
CHALLENGE_TRANSITION = ClaimId("audit.challenge.transition.{arm}.{statistic}", "audit.challenge",
                               arm=("control", "target"))
IMPACT = ClaimId("audit.impact.{release}.{copy}.{statistic}", "audit.impact", release=("v1", "v2", "v3"))
IMPACT_OF = ClaimId("audit.impact.{release}.{copy}.{subject}.{statistic}", "audit.impact",
                    release=("v1", "v2", "v3"))
IMPACT_TABLE = ClaimId("audit.impact.{release}.{copy}.{table}.{score}.{statistic}", "audit.impact",
                       release=("v1", "v2", "v3"), table=("matrix", "scorecard", "representative"))
INTEGRITY = ClaimId("audit.integrity.{statistic}", "audit.integrity")
INTEGRITY_RESPONDER = ClaimId("audit.integrity.{stage}.{responder}.{statistic}", "audit.integrity", stage=STAGE,
                              responder=RESPONDER)
PACKET = ClaimId("audit.packet.{statistic}", "audit.integrity")
POLICY = ClaimId("audit.policy.{statistic}", "audit.policy")
POLICY_SECTION = ClaimId("audit.policy.{section}.{statistic}", "audit.policy",
                         section=("transition", "condition_decisions"))
POLICY_TRANSITION = ClaimId("audit.policy.transition.{step}.{statistic}", "audit.policy")
POLICY_STRATUM = ClaimId("audit.policy.strata.{release}.{source}.{statistic}", "audit.policy", release=("v1", "v2"))
POOL = ClaimId("audit.pool.{statistic}", "audit.pool")
POOL_SECTION = ClaimId("audit.pool.{section}.{statistic}", "audit.pool", section=("memberships", "recall"))

# -- the release's own consistency (docs/schema.md)
CONSISTENCY = ClaimId("release.consistency.{part}.{statistic}", "release.consistency", part=("v1", "v2", "audit"))

# -- every release's construction and qrel genealogy (docs/schema.md#genealogyjson, docs/realpage.md)
CONSTRUCTION = ClaimId("{release}.construction.{statistic}", per_release("construction", (CROSSPAGE, REALPAGE)))
TABLE1 = ClaimId("{release}.table1.{statistic}", CONSTRUCTION.copies)
GENEALOGY = ClaimId("{release}.genealogy.{statistic}", per_release("genealogy", RELEASES.values()))
GENEALOGY_COPY = ClaimId("{release}.genealogy.{copy}.{statistic}", GENEALOGY.copies, copy=COPY)
CROSSWALK = ClaimId("v1.crosswalk.{statistic}", "v1.crosswalk")
CROSSWALK_KIND = ClaimId("v1.crosswalk.{kind}.{statistic}", "v1.crosswalk")

# -- the paper's tables, once per release that has their inputs: scoring, inference, sensitivity
MATRIX = ClaimId("{release}.matrix.{system}.{measure}", per_release("matrix", RANKED), measure=MEASURE)
SCORECARD = ClaimId("{release}.scorecard.{system}.{measure}", per_release("scorecard", RANKED), measure=MEASURE)
FORMS = ClaimId("{release}.forms.{system}.{form}.{measure}", per_release("forms", RANKED), form=FORM,
                measure=MEASURE)
SLICE = ClaimId("{release}.slices.{system}.{slice}.{statistic}", per_release("slices", RANKED))
CONTRAST = ClaimId("{release}.contrasts.{block}.{variant}.{statistic}", per_release("contrasts", RANKED))
CONTRAST_BLOCK = ClaimId("{release}.contrasts.{block}.{statistic}", CONTRAST.copies)
CONTROL = ClaimId("{release}.controls.{control}.{statistic}", per_release("controls", STAND_IN_TABLES))
EVIDENCE = ClaimId("{release}.evidence.{system}.{slice}.{statistic}", per_release("evidence", RANKED),
                   slice=("all", "n2", "n3"))
FIGURE2 = ClaimId("{release}.figure2.{statistic}", per_release("figure2", STAND_IN_TABLES))
FIGURE2_METHOD = ClaimId("{release}.figure2.methods.{system}.{statistic}", FIGURE2.copies)
FIGURE2_PAIR = ClaimId("{release}.figure2.pairs.{block}.{statistic}", FIGURE2.copies)
MASKING = ClaimId("{release}.masking.{system}.{dropped}.{statistic}", per_release("masking", STAND_IN_TABLES),
                  dropped=DROPPED)
DIAGNOSTIC = ClaimId("{release}.diagnostics.{check}.{statistic}", per_release("diagnostics", STAND_IN_TABLES),
                     check=("length_matched", "density_matched", "repairs"))
DIAGNOSTIC_SYSTEM = ClaimId("{release}.diagnostics.{check}.{system}.{statistic}", DIAGNOSTIC.copies,
                            check=("length_matched", "density_matched"))
BOOTSTRAP = ClaimId("{release}.inference.bootstrap.{system}.{metric}.{statistic}",
                    per_release("inference.bootstrap", RANKED), metric=METRIC)
BOOTSTRAP_SETUP = ClaimId("{release}.inference.design.{statistic}", BOOTSTRAP.copies)
INFERENCE_CONTRAST = ClaimId("{release}.inference.contrast.{block}.{variant}.{statistic}",
                             per_release("inference.contrasts", RANKED))
INFERENCE_BLOCK = ClaimId("{release}.inference.block.{block}.{statistic}", INFERENCE_CONTRAST.copies)
PAPER_BLOCK = ClaimId("{release}.inference.paper_block.{block}.{statistic}", INFERENCE_CONTRAST.copies)
INFERENCE_MASKING = ClaimId("{release}.inference.masking.{system}.{dropped}.{statistic}",
                            per_release("inference.masking", STAND_IN_TABLES), dropped=DROPPED)
SENSITIVITY_BLOCK = ClaimId("{release}.sensitivity.{block}.{statistic}",
                            per_release("sensitivity.contrasts", STAND_IN_TABLES))
SENSITIVITY_CHECK = ClaimId("{release}.sensitivity.{block}.{check}.{statistic}", SENSITIVITY_BLOCK.copies, check=(
    "crossed_gold", "crossed_judged", "leave_one_gold_doc", "drop_top20_degree", "promotion_bound", "common_support"))
PROMOTION = ClaimId("{release}.sensitivity.promotion.{statistic}", SENSITIVITY_BLOCK.copies)
REGRESSION = ClaimId("{release}.sensitivity.regression.{model}.{statistic}",
                     per_release("sensitivity.regression", STAND_IN_TABLES))
REGRESSION_TERM = ClaimId("{release}.sensitivity.regression.{model}.{term}.{statistic}", REGRESSION.copies)

# -- the replication of the paper's Table 5 on real documents (docs/realpage.md#the-replication)
REPLICATION = ClaimId("{release}.replication.{block}.{statistic}",
                      per_release("replication", releases_with(REPLICATES_PAPER)))
REPLICATION_SUMMARY = ClaimId("{release}.replication.summary.{statistic}", REPLICATION.copies)

# -- Table S1i for either release (v1's in its own file, v2's in v2.sensitivity)
SHARED_DOCUMENTS = ClaimId("{analysis}.{pair}.{statistic}", SHARED_DOCUMENT_ANALYSES)
SHARED_DOCUMENTS_MEMBERSHIP = ClaimId("{analysis}.{pair}.{membership}.{statistic}", SHARED_DOCUMENT_ANALYSES,
                                      membership=MEMBERSHIP)
SHARED_DOCUMENTS_DROP = ClaimId("{analysis}.{pair}.{membership}.drop_top20.{statistic}", SHARED_DOCUMENT_ANALYSES,
                                membership=MEMBERSHIP)
SHARED_DOCUMENTS_SOURCE = ClaimId("v2.sensitivity.{pair}.by_source.{source}.{statistic}", "v2.sensitivity")

# -- SourceShift (v2), each family once per qrel copy (final, S0, construction)
V2_STRUCTURE = ClaimId("v2.structure.{statistic}", "v2.structure")
V2_FORMS = ClaimId("{analysis}.{system}.{form}.{measure}", v2_copies("v2.forms"), form=FORM, measure=MEASURE)
V2_RANK_AGREEMENT = ClaimId("{analysis}.rank_agreement.{statistic}", v2_copies("v2.forms"))
V2_CONTRAST_SETUP = ClaimId("{analysis}.design.{statistic}", v2_copies("v2.contrasts"))
V2_CONTRAST = ClaimId("{analysis}.{contrast}.{form}.{statistic}", v2_copies("v2.contrasts"), form=FORM)
V2_DIRECTION = ClaimId("{analysis}.{direction}.{statistic}", v2_copies("v2.directions"))

# -- the paper audit (docs/paper-audit.md)
PAPER_NUMBER = ClaimId("paper.number.{number}", "paper.audit", number=LOCATION)
PAPER_RELATION = ClaimId("paper.relation.{relation}", "paper.audit", relation=LOCATION)
PAPER_BINDINGS = ClaimId("paper.bindings.{location}.{statistic}", "paper.audit", location=LOCATION)
PAPER_SUMMARY = ClaimId("paper.summary.{statistic}", "paper.audit")
PAPER_CROSSWALK = ClaimId("paper.crosswalk.{statistic}", "paper.audit")

TEMPLATES = tuple(value for value in globals().copy().values() if isinstance(value, ClaimId))
"""Every template, in declaration order."""


def templates_of(analysis: str) -> tuple[Any, ...]:
    """The templates whose ids ``analysis`` freezes (empty for an undeclared analysis)."""
    return tuple(template for template in TEMPLATES if analysis in template.analyses)


def unmatched(analysis: Any, claim_ids: Any, templates: Any = None) -> Any:
    """The ids among ``claim_ids`` that none of ``analysis``'s templates (default: those declared here)
    builds, in order; a template's ``{analysis}`` part must be ``analysis`` itself."""
    own = templates_of(analysis) if templates is None else templates
    out = []
    for claim_id in claim_ids:
        if not any(template.builds_for(claim_id, analysis) for template in own):
            out.append(claim_id)
    return out


@functools.lru_cache(maxsize=None)
def analysis_of(claim_id: str) -> str | None:
    """The analysis whose claims file holds ``claim_id``: the first template that builds it names it (by its
    ``{analysis}`` part when it has one); None when no template builds the id."""
    for template in TEMPLATES:
        found = template.analysis_of_id(claim_id)
        if found is not None:
            return found
    return None


def template_of(claim_id: Any) -> Any:
    """The first template that builds ``claim_id`` (None when none does)."""
    return next((template for template in TEMPLATES if template.match(claim_id) is not None), None)


def statistic_of(claim_id: Any) -> Any:
    """The statistic a claim id names: its ``{statistic}`` part, else its template's last part (None when no
    template builds the id) -- what the reports look a display up by (:func:`nclue.core.measures.display_of`).

    >>> statistic_of("audit.agreement.initial.grade_kappa_linear"), statistic_of("no.such.claim")
    ('grade_kappa_linear', None)
    """
    template = template_of(claim_id)
    if template is None or not template.parts:
        return None
    parts = template.match(claim_id)
    return parts.get("statistic", parts[template.parts[-1]])
