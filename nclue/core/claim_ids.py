"""Claim ids, declared once (docs/claims.md#claim-ids).

Every claim an analysis freezes has an id built from one of the templates below: literal segments and
named parts, each part with its domain (a tuple of the words it may be, or an open pattern for names the
release defines, such as systems, blocks and statistics).  The table is the one place a claim id is
spelled: an analysis's claims must match its own templates (``freeze`` refuses one that matches none),
and the reports, the HTML report, the bindings and the paper audit build every id they read by calling a
template, never by writing the id out or taking one apart.

>>> SCORECARD(system="bm25_and", measure="gold_hit_at_10")
'v1.scorecard.bm25_and.gold_hit_at_10'
>>> SCORECARD.match("v1.scorecard.bm25_and.gold_hit_at_10")
{'system': 'bm25_and', 'measure': 'gold_hit_at_10'}
>>> SCORECARD(system="{row}", measure="no_gold")          # a placeholder filled in later by str.format
'v1.scorecard.{row}.no_gold'
>>> SCORECARD(system="bm25_and", measure="gold_hit")     # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
nclue.core.claim_ids.ClaimIdError: v1.scorecard.{system}.{measure}: measure 'gold_hit' is not one of nclue_score_at_10, ...
"""

import functools
import re

from .errors import NclueError
from .layout import CROSSPAGE, FORM_KEYS, REALPAGE, SOURCESHIFT
from .measures import MEASURES

NAME = r"[A-Za-z0-9_\-]+"       # one segment: a name the release defines (system, block, statistic, ...)
LOCATION = r"[A-Za-z0-9_\-*]+(?:\.[A-Za-z0-9_\-*]+)*"  # a paper location or number id (it may hold dots)
_PLACEHOLDER = re.compile(r"\{\w+\}|%s")          # a value, or the piece of one, left for str.format or % to fill
_PART = re.compile(r"\{(\w+)\}")


class ClaimIdError(NclueError, ValueError):
    """A claim id built from a template with a missing, unknown or out-of-domain part."""


class ClaimId:
    """One claim-id template: ``template`` with named parts ``{name}``; ``domains`` gives each part a tuple of
    words or a pattern (default :data:`NAME`); ``analyses`` are the analyses whose claims it builds (a part
    named ``analysis`` takes its values from them)."""

    __slots__ = ("template", "analyses", "copies", "parts", "domains", "_source", "_compiled", "_prefix")

    def __init__(self, template, analyses, **domains):
        self.template = template
        # a dict of analyses is {qrel copy or release: analysis} (:func:`v2_copies`), read by :meth:`on`
        self.copies = dict(analyses) if isinstance(analyses, dict) else {}
        self.analyses = (analyses,) if isinstance(analyses, str) else tuple(
            analyses.values() if isinstance(analyses, dict) else analyses)
        self.parts = tuple(_PART.findall(template))
        if "analysis" in self.parts:
            domains.setdefault("analysis", self.analyses)
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
        self._compiled = None
        self._prefix = template.split("{", 1)[0]          # the literal start every id it builds has

    @property
    def _regex(self):
        """The template's pattern, compiled once on first use: a run that matches no id (``--only
        integrity``) does not pay for the 60-odd compilations at import."""
        if self._compiled is None:
            self._compiled = re.compile(self._source)
        return self._compiled

    def _pattern(self, part):
        domain = self.domains[part]
        if isinstance(domain, str):
            return domain
        return "|".join(re.escape(word) for word in sorted(domain, key=len, reverse=True))

    def __call__(self, *last, **values):
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

    def bind(self, **values):
        """This template with some parts fixed: a callable taking the rest (the last one positionally).

        >>> AGREEMENT.bind(stage="initial")("pairs")
        'audit.agreement.initial.pairs'
        """
        return functools.partial(self, **values)

    def on(self, copy):
        """A template frozen once per qrel copy (or per release), bound to that copy's analysis.

        >>> V2_DIRECTION.on("s0")(direction="scale", statistic="v2_delta")
        'v2.directions.s0.scale.v2_delta'
        """
        if copy not in self.copies:
            raise ClaimIdError("%s: no copy %r (its copies are %s)" % (self.template, copy, ", ".join(self.copies)
                                                                         or "none"))
        return self.bind(analysis=self.copies[copy])

    def _admits(self, part, value):
        domain = self.domains[part]
        return re.fullmatch(domain, value) is not None if isinstance(domain, str) else value in domain

    def match(self, claim_id):
        """``{part: value}`` of an id this template builds, or None."""
        if not claim_id.startswith(self._prefix):
            return None
        found = self._regex.match(claim_id)
        return None if found is None else found.groupdict()

    def __repr__(self):
        return "ClaimId(%r)" % self.template


# -- part domains used by more than one template
MEASURE = tuple(MEASURES)
FORM = FORM_KEYS
METRIC = ("score", "hit", "gold_ndcg")              # the inference's three vectors (paper section 3.4)
DROPPED = ("drop_c1", "drop_c2", "drop_c3")          # the masked condition (Table S5a)
RESPONDER = ("A", "E", "F", "all")                   # the audit's evaluators, and all of them together
STAGE = ("initial", "adjudication")                  # the audit's two rounds
# CrossPage's qrel copies as the genealogy names them, last first, and the audit between them
V1_COPY = tuple(copy.name for copy in reversed(CROSSPAGE.copies)) + ("audit",)
V2_COPY = tuple(copy.name for copy in SOURCESHIFT.copies)     # SourceShift's qrel copies


def v2_copies(family):
    """``{copy: analysis}`` of a SourceShift family frozen once per qrel copy: the final copy S in the family's
    own file, S0 and the construction copy in ``<family>.s0`` and ``<family>.construction``."""
    return {copy.name: family + copy.variant(".") for copy in reversed(SOURCESHIFT.copies)}



SHARED_DOCUMENT_ANALYSES = {"v1": "v1.sensitivity.shared_documents", "v2": "v2.sensitivity"}   # by release
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
IMPACT = ClaimId("audit.impact.{release}.{copy}.{statistic}", "audit.impact", release=("v1", "v2"))
IMPACT_OF = ClaimId("audit.impact.{release}.{copy}.{subject}.{statistic}", "audit.impact", release=("v1", "v2"))
IMPACT_TABLE = ClaimId("audit.impact.{release}.{copy}.{table}.{score}.{statistic}", "audit.impact",
                       release=("v1", "v2"), table=("matrix", "scorecard", "representative"))
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

# -- RealPage (v3): its construction re-derived (docs/realpage.md)
V3_CONSTRUCTION = ClaimId("v3.construction.{statistic}", "v3.construction")
V3_TABLE1 = ClaimId("v3.table1.{statistic}", "v3.construction")
V3_GENEALOGY = ClaimId("v3.genealogy.{statistic}", "v3.genealogy")
V3_GENEALOGY_COPY = ClaimId("v3.genealogy.{copy}.{statistic}", "v3.genealogy", copy=tuple(c.name for c in REALPAGE.copies))
V3_EVIDENCE = ClaimId("v3.evidence.{system}.{slice}.{statistic}", "v3.evidence", slice=("all", "n2", "n3"))
V3_SLICE = ClaimId("v3.slices.{system}.{slice}.{statistic}", "v3.slices")
V3_MATRIX = ClaimId("v3.matrix.{system}.{measure}", "v3.matrix", measure=MEASURE)
V3_SCORECARD = ClaimId("v3.scorecard.{system}.{measure}", "v3.scorecard", measure=MEASURE)
V3_FORMS = ClaimId("v3.forms.{system}.{form}.{measure}", "v3.forms", form=FORM, measure=MEASURE)
V3_CONTRAST = ClaimId("v3.contrasts.{block}.{variant}.{statistic}", "v3.contrasts")
V3_CONTRAST_BLOCK = ClaimId("v3.contrasts.{block}.{statistic}", "v3.contrasts")
V3_BOOTSTRAP = ClaimId("v3.inference.bootstrap.{system}.{metric}.{statistic}", "v3.inference", metric=METRIC)
V3_BOOTSTRAP_SETUP = ClaimId("v3.inference.design.{statistic}", "v3.inference")
V3_INFERENCE_CONTRAST = ClaimId("v3.inference.contrast.{block}.{variant}.{statistic}", "v3.inference")
V3_INFERENCE_BLOCK = ClaimId("v3.inference.block.{block}.{statistic}", "v3.inference")
V3_REPLICATION = ClaimId("v3.replication.{block}.{statistic}", "v3.replication")
V3_REPLICATION_SUMMARY = ClaimId("v3.replication.summary.{statistic}", "v3.replication")

# -- CrossPage (v1): construction, scoring, inference, sensitivity
CONSTRUCTION = ClaimId("v1.construction.{statistic}", "v1.construction")
TABLE1 = ClaimId("v1.table1.{statistic}", "v1.construction")
GENEALOGY = ClaimId("v1.genealogy.{statistic}", "v1.genealogy")
GENEALOGY_COPY = ClaimId("v1.genealogy.{copy}.{statistic}", "v1.genealogy", copy=V1_COPY)
CROSSWALK = ClaimId("v1.crosswalk.{statistic}", "v1.crosswalk")
CROSSWALK_KIND = ClaimId("v1.crosswalk.{kind}.{statistic}", "v1.crosswalk")
MATRIX = ClaimId("v1.matrix.{system}.{measure}", "v1.matrix", measure=MEASURE)
SCORECARD = ClaimId("v1.scorecard.{system}.{measure}", "v1.scorecard", measure=MEASURE)
V1_FORMS = ClaimId("v1.forms.{system}.{form}.{measure}", "v1.forms", form=FORM, measure=MEASURE)
SLICE = ClaimId("v1.slices.{system}.{slice}.{statistic}", "v1.slices")
CONTRAST = ClaimId("v1.contrasts.{block}.{variant}.{statistic}", "v1.contrasts")
CONTRAST_BLOCK = ClaimId("v1.contrasts.{block}.{statistic}", "v1.contrasts")
CONTROL = ClaimId("v1.controls.{control}.{statistic}", "v1.controls")
EVIDENCE = ClaimId("v1.evidence.{system}.{slice}.{statistic}", "v1.evidence", slice=("all", "n2", "n3"))
FIGURE2 = ClaimId("v1.figure2.{statistic}", "v1.figure2")
FIGURE2_METHOD = ClaimId("v1.figure2.methods.{system}.{statistic}", "v1.figure2")
FIGURE2_PAIR = ClaimId("v1.figure2.pairs.{block}.{statistic}", "v1.figure2")
MASKING = ClaimId("v1.masking.{system}.{dropped}.{statistic}", "v1.masking", dropped=DROPPED)
DIAGNOSTIC = ClaimId("v1.diagnostics.{check}.{statistic}", "v1.diagnostics",
                     check=("length_matched", "density_matched", "repairs"))
DIAGNOSTIC_SYSTEM = ClaimId("v1.diagnostics.{check}.{system}.{statistic}", "v1.diagnostics",
                            check=("length_matched", "density_matched"))
BOOTSTRAP = ClaimId("v1.inference.bootstrap.{system}.{metric}.{statistic}", "v1.inference.bootstrap", metric=METRIC)
BOOTSTRAP_SETUP = ClaimId("v1.inference.design.{statistic}", "v1.inference.bootstrap")
INFERENCE_CONTRAST = ClaimId("v1.inference.contrast.{block}.{variant}.{statistic}", "v1.inference.contrasts")
INFERENCE_BLOCK = ClaimId("v1.inference.block.{block}.{statistic}", "v1.inference.contrasts")
PAPER_BLOCK = ClaimId("v1.inference.paper_block.{block}.{statistic}", "v1.inference.contrasts")
INFERENCE_MASKING = ClaimId("v1.inference.masking.{system}.{dropped}.{statistic}", "v1.inference.masking",
                            dropped=DROPPED)
SENSITIVITY_BLOCK = ClaimId("v1.sensitivity.{block}.{statistic}", "v1.sensitivity.contrasts")
SENSITIVITY_CHECK = ClaimId("v1.sensitivity.{block}.{check}.{statistic}", "v1.sensitivity.contrasts", check=(
    "crossed_gold", "crossed_judged", "leave_one_gold_doc", "drop_top20_degree", "promotion_bound", "common_support"))
PROMOTION = ClaimId("v1.sensitivity.promotion.{statistic}", "v1.sensitivity.contrasts")
REGRESSION = ClaimId("v1.sensitivity.regression.{model}.{statistic}", "v1.sensitivity.regression")
REGRESSION_TERM = ClaimId("v1.sensitivity.regression.{model}.{term}.{statistic}", "v1.sensitivity.regression")

# -- Table S1i for either release (v1's in its own file, v2's in v2.sensitivity)
SHARED_DOCUMENTS = ClaimId("{analysis}.{pair}.{statistic}", SHARED_DOCUMENT_ANALYSES)
SHARED_DOCUMENTS_MEMBERSHIP = ClaimId("{analysis}.{pair}.{membership}.{statistic}", SHARED_DOCUMENT_ANALYSES,
                                      membership=MEMBERSHIP)
SHARED_DOCUMENTS_DROP = ClaimId("{analysis}.{pair}.{membership}.drop_top20.{statistic}", SHARED_DOCUMENT_ANALYSES,
                                membership=MEMBERSHIP)
SHARED_DOCUMENTS_SOURCE = ClaimId("v2.sensitivity.{pair}.by_source.{source}.{statistic}", "v2.sensitivity")

# -- SourceShift (v2), each family once per qrel copy (final, S0, construction)
V2_STRUCTURE = ClaimId("v2.structure.{statistic}", "v2.structure")
V2_GENEALOGY = ClaimId("v2.genealogy.{statistic}", "v2.genealogy")
V2_GENEALOGY_COPY = ClaimId("v2.genealogy.{copy}.{statistic}", "v2.genealogy", copy=V2_COPY)
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


def templates_of(analysis):
    """The templates whose ids ``analysis`` freezes (empty for an undeclared analysis)."""
    return tuple(template for template in TEMPLATES if analysis in template.analyses)


def unmatched(analysis, claim_ids, templates=None):
    """The ids among ``claim_ids`` that none of ``analysis``'s templates (default: those declared here)
    builds, in order; a template's ``{analysis}`` part must be ``analysis`` itself."""
    own = templates_of(analysis) if templates is None else templates
    out = []
    for claim_id in claim_ids:
        if not any((parts is not None and parts.get("analysis", analysis) == analysis)
                   for parts in (template.match(claim_id) for template in own)):
            out.append(claim_id)
    return out


@functools.lru_cache(maxsize=None)
def analysis_of(claim_id):
    """The analysis whose claims file holds ``claim_id``: the first template that builds it names it (by its
    ``{analysis}`` part when it has one); None when no template builds the id."""
    for template in TEMPLATES:
        parts = template.match(claim_id)
        if parts is not None:
            return parts.get("analysis", template.analyses[0])
    return None


def template_of(claim_id):
    """The first template that builds ``claim_id`` (None when none does)."""
    return next((template for template in TEMPLATES if template.match(claim_id) is not None), None)


def statistic_of(claim_id):
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
