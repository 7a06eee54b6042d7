"""The label audit's and the targeted challenge's records as the analyses read them: the files they come
from, whether the release has them, their records loaded once per instrument, and the support of the
audit's repairs (paper section 10.2; docs/label-audit.md).
"""

from ...core import layout
from ...core.errors import NclueError
from ...labelaudit import audit_scoring
from ...labelaudit.audit_records import FILES as AUDIT_RECORD_NAMES
from ...labelaudit.audit_records import load_for as load_audit_records
from ...labelaudit.audit_records import path_of as audit_path
from ...labelaudit.challenge_records import FILES as CHALLENGE_NAMES
from ...labelaudit.challenge_records import load as load_challenge
from ...labelaudit.challenge_records import path_of as challenge_path

AUDIT_FILES = [audit_path(name) for name in AUDIT_RECORD_NAMES]


# the release files the audit records are checked against: each release's queries, corpus and the copy the
# audit sampled (v1 the construction copy, v2 the construction copy)
AUDIT_RELEASE_INPUTS = [layout.CORPUS, layout.CONDITIONS, layout.QUERIES, layout.QRELS_CONSTRUCTION, layout.V2_CORPUS,
                        layout.V2_CONDITIONS, layout.V2_QUERIES, layout.V2_QRELS_CONSTRUCTION]


AUDIT_INPUTS = AUDIT_FILES + AUDIT_RELEASE_INPUTS


CHALLENGE_FILES = [challenge_path(name) for name in CHALLENGE_NAMES]


def audit_present(inst):
    """True when the release has the label audit's records (the ``audit`` part)."""
    return inst.exists(audit_path("key"))


def audit_records(inst):
    """The label audit's records, loaded once per instrument and checked against both releases' construction
    copies (the copies the packet was sampled from; :func:`nclue.labelaudit.audit_records.load_for`)."""
    return inst.memo("audit:records", lambda: load_audit_records(inst))


def final_support(inst):
    """The support of the CrossPage golds the audit's policy made (:func:`nclue.labelaudit.audit_scoring.repaired_gold_support`);
    empty without the audit part."""
    def build():
        if not audit_present(inst):
            return {}
        v1 = inst.release(layout.CROSSPAGE)
        return audit_scoring.repaired_gold_support(audit_records(inst), "v1", v1.queries(), v1.inventory())
    return inst.memo("audit:final-support", build)


def support_inputs(inst):
    """The files :func:`final_support` reads: the audit's records when the audit part is present, or when the
    CrossPage genealogy says the final copy has repairs (then an absent audit part is an absent input, and the
    claims that need it skip); none for a release whose final copy is its construction copy."""
    if audit_present(inst):
        return AUDIT_INPUTS
    try:
        repaired = inst.release(layout.CROSSPAGE).genealogy()["final"].grades_changed > 0
    except NclueError:
        repaired = True             # an unreadable genealogy: the claims fail on it, naming it
    return AUDIT_INPUTS if repaired else []


def challenge_records(inst):
    """The targeted challenge's records, loaded once per instrument against SourceShift S0 and the audit's pages."""
    def load():
        v2 = inst.release(layout.SOURCESHIFT)
        return load_challenge(inst.root, v2.evaluation_queries(v2.copy("s0")), v2.corpus(),
                              v2.qrels(v2.copy("s0")), audit_records(inst).pages)
    return inst.memo("audit:challenge-records", load)
