"""tools/realpage_census.py, the independent census of RealPage's labels as a reader reads the queries
(docs/realpage.md#what-the-labels-mean).  Quick tests work the reader's pieces by hand on made-up pages (each a
case the census could get wrong, so each can fail), and the census's counts on a hand-made release, end to end
from hand-made packages.  The slow test runs the census on the shipped release with the pinned packages and holds
it to the release's acceptance figures; without the packages (``$NCLUE_REALPAGE_PACKAGES``, else
``~/.cache/nclue/doc-rfc-20230121-1``) it skips, naming the folder and the missing files."""

import gzip
import hashlib
import importlib.util
import io
import json
import lzma
import os
import tarfile

import pytest
from conftest import REPO, released

TOOL = os.path.join(REPO, "tools", "realpage_census.py")


def _load_tool():
    """The census script as a module, loaded from its file (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location("realpage_census", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


census = _load_tool()

TITLE = "Network Working Group                                     A. Author\nRequest for Comments: 9999\n\n" \
        "                      A Made-Up Protocol\n\nAbstract\n\n   This memo is made up.\n"


def document(*pages, numbers=None, variant=None):
    """A Document of hand-made pages; page 1 is the given first page (often TITLE)."""
    return census.Document(list(pages), numbers, variant)


def acronym(doc, acr, long_form):
    return doc.acronym(acr, long_form)


# --- folding and matching, by hand --------------------------------------------------------------------------

def test_section_titles_fold_as_the_docs_say():
    same = census.titles_agree
    assert same("Security Considerations", "security   considerations.")
    assert same("Example", "Examples:") and same("Policy", "Policies") and same("IANA Policy", "IANA Policies")
    assert same("Server Behavior", "Server's Behavior")                  # a possessive "'s" dropped
    assert same("Offer-Answer Model", "Offer/Answer Model")              # any run of punctuation is one space
    assert not same("Security", "Security Considerations")
    # singular by the docs' word lengths: "ies" only from 5 letters, "s" only from 4, never "ss", "us", "is"
    assert census.fold_title("Ties Flies Bus Buses Class This Status") == "tie fly bus buse class this status"
    assert not same("Match", "Matches")                                  # "matche": the docs' rule, not English
    # the first reading, kept as a variant: punctuation and possessives are not folded
    assert not same("Server Behavior", "Server's Behavior", "titles_strict")
    assert not same("Offer-Answer Model", "Offer/Answer Model", "titles_strict")
    assert same("Match", "Matches", "titles_strict")


def test_a_contents_title_cut_short_agrees_on_its_first_20_characters():
    agree = census.contents_agree
    assert agree("Information and Data Models (e.g., MIB Module)", "Information and Data Models")
    assert agree("Requirements for the Protoc", "Requirements for the Protocol Extensions")
    assert not agree("Requirements for the Protocol", "Requirements for a Protocol")
    assert agree("Security", "Security Considerations")                 # the words taken literally
    assert not agree("Security", "Security Considerations", "contents_title_first_20_equal")
    assert not agree("Server's Behavior", "Server Behavior", "titles_strict")


def test_long_forms_fold_and_the_edit_bound():
    assert census.fold_phrase("Denial-of-Service") == census.fold_phrase("denial of service")
    assert census.fold_phrase("User Agents") == "user agent"
    label = census.fold_phrase("Application Programming Interface")
    assert census.edit_bound(label) == 4                                  # 33 characters: one edit per 8
    assert census.prefix_distance(label, census.fold_phrase("Application Program Interface")) == 4
    assert census.edit_bound("ds") == 1                                   # at least one
    # the suffix must start a word: "subdomain" does not end with "domain name system" at a word's start
    assert census.suffix_distance("domain name system", "a subdomain name system") == 3
    assert census.suffix_distance("domain name system", "see the/domain name system") == 0


def test_acronym_plurals_and_the_wilson_interval():
    assert census.acronym_keys("UAs") == {"UAS", "UA"}
    assert census.acronym_keys("ASes") >= {"AS"}
    assert census.acronym_keys("DNS") == {"DNS"}
    low, high = census.wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    assert census.wilson(0, 0) == [0.0, 1.0]


def test_the_tools_page_reader_keeps_the_printed_page_number():
    pages, numbers = census.split_pages("T\nbody\nA. Author   [Page 1]\fRFC 9 X\nmore\nA. Author   [Page 7]\n")
    assert pages == ["T\nbody\n", "\nmore\n\n"] and numbers == [1, 7]


# --- defined acronyms, by hand ------------------------------------------------------------------------------

def test_a_definition_in_running_prose_and_wrapped_over_lines():
    doc = document(TITLE, "1.  Introduction\n\n   This memo uses the Domain Name\n   System (DNS) to find hosts.\n")
    found = acronym(doc, "DNS", "Domain Name System")
    assert found.held and found.where().startswith("form 1")
    assert not acronym(doc, "DNS", "Distributed Naming Service").held   # another sense: not held ...
    assert acronym(doc, "DNS", "Distributed Naming Service").loose       # ... but the acronym is defined


def test_a_definition_reversed_and_inside_other_parentheses():
    doc = document(TITLE, "1.  Introduction\n\n   Transports (TCP, SCTP (Stream Control Transmission Protocol),"
                          " DCCP) and\n   every inter-AS (Autonomous System) link.\n")
    assert acronym(doc, "SCTP", "Stream Control Transmission Protocol").held
    assert acronym(doc, "AS", "Autonomous System").held                 # the last part of "inter-AS"
    assert not acronym(doc, "DCCP", "Datagram Congestion Control Protocol").held   # "(" never follows DCCP


def test_glossary_lines_with_colon_equals_and_dash():
    doc = document(TITLE, "2.  Protocol\n\n   DNS: Domain Name System\n\n   FTP = File Transfer Protocol\n\n"
                          "   TCP - The Transmission Control Protocol, used end to end.\n\n"
                          "   o  UDP:  User Datagram Protocol\n\n   SCTP:\n      Stream Control Transmission "
                          "Protocol\n\n   IP -\n      Internet Protocol\n\n"
                          "        DN -- The distinguished name of the principal\n")
    for acr, long_form in (("DNS", "Domain Name System"), ("FTP", "File Transfer Protocol"),
                           ("TCP", "Transmission Control Protocol"), ("UDP", "User Datagram Protocol"),
                           ("SCTP", "Stream Control Transmission Protocol"), ("DN", "Distinguished Name")):
        assert acronym(doc, acr, long_form).held, acr
    assert not acronym(doc, "IP", "Internet Protocol").held              # only "ACR:" alone takes the next line


def test_a_long_form_is_words_whose_initials_spell_the_acronym():
    doc = document(TITLE, "1.  Intro\n\n   Transmission of Dual-Tone Multifrequency (DTMF) with a Pseudorandom\n"
                          "   Function (PRF) in the following type/length/value (TLV) and Denial-of-Service (DoS).\n")
    dtmf = acronym(doc, "DTMF", "Dual-Tone Multi-Frequency")             # one edit away, but spells DTM
    assert not dtmf.held and not dtmf.loose and "initials do not spell" in dtmf.why_not()
    assert not acronym(doc, "PRF", "pseudo-random function").held       # spells PF
    assert not acronym(doc, "TLV", "Type-Length-Value").held            # a slash does not split words
    assert acronym(doc, "DOS", "Denial of Service").held                # hyphens do
    relay = document(TITLE, "1.  Intro\n\n   Frame Relay/Asynchronous Transfer Mode (ATM) links and\n"
                            "   <synopsis>Maximum transmission unit (MTU)\n")
    assert acronym(relay, "ATM", "Asynchronous Transfer Mode").held     # a "/" ends a word and the long form
    assert acronym(relay, "MTU", "Maximum Transmission Unit").held      # so does a ">"


def test_an_acronym_has_two_capitals_and_at_most_nine_letters():
    doc = document(TITLE, "1.  Intro\n\n   The domain name system (Dns) and the Very Long Acronym Named "
                          "Here Today Or Not Ever (VLANHTONE) and the Quick (QUIC)\n")
    assert not acronym(doc, "DNS", "Domain Name System").held           # "Dns": one capital
    assert acronym(doc, "VLANHTONE", "Very Long Acronym Named Here Today Or Not Ever").held   # nine letters
    assert census.acronym_keys("ABCDEFGHIJ") == set()                    # ten: no acronym


def test_a_listed_line_counts_only_under_a_numbered_glossary_heading():
    listed = "   DNS     Domain Name System\n   FTP     File Transfer Protocol\n"
    under = document(TITLE, "2.  Terminology\n\n" + listed)
    nested = document(TITLE, "2.  Abbreviations\n\n2.1.  Network\n\n" + listed)
    outside = document(TITLE, "2.  Protocol Overview\n\n" + listed)
    unnumbered = document(TITLE, "Glossary\n\n" + listed)
    assert acronym(under, "DNS", "Domain Name System").held
    assert acronym(nested, "FTP", "File Transfer Protocol").held          # under 2. through 2.1.
    lost = acronym(outside, "DNS", "Domain Name System")
    assert not lost.held and "outside a numbered glossary heading" in lost.why_not()
    other = acronym(unnumbered, "DNS", "Domain Name System")
    assert not other.held and acronym(unnumbered.read_as("unnumbered_glossary_headings"), "DNS",
                                      "Domain Name System").held
    # the scope ends at the next numbered heading outside it ("3" is not below "2"), and "2.10" is not below "2.1"
    after = document(TITLE, "2.  Terminology\n\n   FTP     File Transfer Protocol\n\n3.  Protocol\n\n" + listed)
    assert acronym(after, "FTP", "File Transfer Protocol").held and not acronym(after, "DNS", "Domain Name System").held
    sibling = document(TITLE, "2.1.  Glossary\n\n   FTP     File Transfer Protocol\n\n2.10.  Other\n\n" + listed)
    assert not acronym(sibling, "DNS", "Domain Name System").held


def test_a_column_line_and_a_table_page_hold_no_definition():
    columns = document(TITLE, "2.  Terminology\n\n   DNS     Domain Name System     53/udp\n"
                              "   See the Domain Name System (DNS)   in   the table.\n")
    found = acronym(columns, "DNS", "Domain Name System")
    assert not found.held and "a column line" in found.why_not()
    # the gap right after the first word is a glossary's layout, a bullet aside; any other gap makes a column line
    bulleted = document(TITLE, "2.  Terminology\n\n   o   DNS     Domain Name System\n   prose\n   more\n")
    assert acronym(bulleted, "DNS", "Domain Name System").held
    assert not bulleted.column[bulleted.lines.index((1, "   o   DNS     Domain Name System"))]
    table = "   a   b   c\n   d   e   f\n   g   h   i\n"
    on_table = document(TITLE, table + "   The Domain Name System (DNS) is used.\n")       # 3 of 4 lines
    off_table = document(TITLE, "   a   b   c\n   prose\n   more prose\n   The Domain Name System (DNS) is used.\n")
    assert not acronym(on_table, "DNS", "Domain Name System").held
    assert "on a table page" in acronym(on_table, "DNS", "Domain Name System").why_not()
    assert acronym(off_table, "DNS", "Domain Name System").held           # 1 of 4 lines: not a table page


def test_plural_case_and_hyphens():
    doc = document(TITLE, "1.  Intro\n\n   Many user agents (UAs) and Autonomous Systems (ASes) see\n"
                          "   denial-of-service (DoS) attacks.\n")
    assert acronym(doc, "UA", "User Agent").held
    assert acronym(doc, "AS", "Autonomous System").held
    assert acronym(doc, "DOS", "Denial of Service").held


def test_a_sense_is_held_only_in_its_own_long_form():
    doc = document(TITLE, "1.  Intro\n\n   The Delegation Signer (DS) record and the Application Program\n"
                          "   Interface (API) and the Traffic Engineering (TE) database.\n")
    assert not acronym(doc, "DS", "Differentiated Services").held
    assert acronym(doc, "DS", "Delegation Signer").held
    assert acronym(doc, "API", "Application Programming Interface").held   # 4 edits, bound 4
    engineered = acronym(doc, "TE", "Traffic Engineered")
    assert not engineered.held and engineered.loose                     # 3 edits, bound 2: another sense
    assert "another sense" in engineered.why_not()


def test_the_title_page_counts_but_the_contents_and_references_do_not():
    title = TITLE + "   It defines the Domain Name System (DNS).\n"
    doc = document(title, "Table of Contents\n\n   1.  File Transfer Protocol (FTP) .............. 3\n"
                          "   2.  References ...................................... 3\n",
                   "1.  Usage\n\n   Nothing.\n\n2.  References\n\n"
                   "   [1] Smith, \"The Simple Mail Transfer Protocol (SMTP)\", 1999.\n")
    held = acronym(doc, "DNS", "Domain Name System")
    assert held.held and not acronym(doc.read_as("no_title_page"), "DNS", "Domain Name System").held
    ftp = acronym(doc, "FTP", "File Transfer Protocol")
    assert not ftp.held and "in the contents" in ftp.why_not()
    smtp = acronym(doc, "SMTP", "Simple Mail Transfer Protocol")
    assert not smtp.held and "in the references" in smtp.why_not()


# --- section conditions, by hand ----------------------------------------------------------------------------

CONTENTS = ("Table of Contents\n\n   1.  Introduction ................................ 3\n"
            "   2.  Security Considerations ..................... 3\n"
            "   3.  Examples .................................... 4\n\n")


def test_a_numbered_heading_listed_in_the_contents():
    doc = document(TITLE, CONTENTS, "1.  Introduction\n\n   Text.\n\n2.  Security Considerations\n\n   None.\n",
                   "3.  Examples\n\n   One.\n")
    assert doc.section("Security Considerations").held
    assert doc.section("security considerations.").held
    assert doc.section("Example").held                                  # the plural folded
    assert not doc.section("Security").held
    assert doc.section("Security-Considerations").held                  # punctuation folded
    assert not doc.read_as("titles_strict").section("Security-Considerations").held


def test_the_contents_page_is_not_compared():
    shifted = CONTENTS.replace("Considerations ..................... 3", "Considerations ..................... 9")
    doc = document(TITLE, shifted, "1.  Introduction\n\n2.  Security Considerations\n\n   None.\n")
    assert doc.section("Security Considerations").held
    strict = doc.read_as("same_page_required").section("Security Considerations")
    assert not strict.held and "the contents list it on page 9, printed page 3" in strict.why_not()
    printed = document(TITLE, shifted, "1.  Introduction\n\n2.  Security Considerations\n\n   None.\n",
                       numbers=[1, 2, 9], variant="same_page_required")  # the footer says this is page 9
    assert printed.section("Security Considerations").held


def test_the_contents_list_the_number_with_an_agreeing_title():
    doc = document(TITLE, CONTENTS, "1.  Introduction\n\n3.  Security Considerations\n\n4.  Examples\n")
    wrong = doc.section("Security Considerations")
    assert not wrong.held and "the contents list 3 under another title" in wrong.why_not()
    assert "the contents do not list 4" in doc.section("Examples").why_not()


def test_a_section_number_as_the_docs_write_it():
    contents = ("Table of Contents\n\n   A.  Glossary ........ 2\n   B.2.  Examples ........ 2\n"
                "   Appendix C.  Notes ........ 2\n   4:  Usage ........ 2\n   5  - Old Style ........ 2\n"
                "   6.  lower case ........ 2\n   IV.  Roman ........ 2\n\n")
    doc = document(TITLE, contents + "A.  Glossary\n\nB.2.  Examples\n\nAppendix C.  Notes\n\n4:  Usage\n\n"
                          "5 - Old Style\n\n6.  lower case\n\nIV.  Roman\n")
    for label in ("Glossary", "Examples", "Notes", "Usage"):
        assert doc.section(label).held, label
    for label in ("Old Style", "lower case", "Roman"):                  # "-" is no separator, a title is capital
        assert not doc.section(label).held, label
    assert doc.read_as("roman_section_numbers").section("Roman").held


def test_a_contents_entry_title_is_any_text():
    doc = document(TITLE, "Table of Contents\n\n   1          - Overview ..........    2\n"
                          "   1.1        - Notation ..........    2\n\n", "1.  Overview\n\n1.1.  Notation\n")
    assert doc.section("Notation").held and doc.section("Overview").held


def test_the_contents_end_at_the_last_numbered_entry_and_the_unnumbered_ones_after_it():
    contents = ("Table of Contents\n\n   1.  Introduction ........ 2\n   2.  Terms ........ 2\n\n"
                "   Acknowledgements ........ 3\n\n   Authors' Addresses ........ 3\n\n"
                "   This memo defines the Domain Name System (DNS).\n")
    doc = document(TITLE, contents, "1.  Introduction\n\n2.  Terms\n")
    assert acronym(doc, "DNS", "Domain Name System").held              # read: below the contents on their page
    inside = [doc.lines[i][1].strip() for i in sorted(doc.toc_lines)]
    assert inside[0] == "Table of Contents" and inside[-1] == "Authors' Addresses ........ 3"
    assert doc.section("Terms").held


def test_the_contents_run_over_pages_that_list_entries_at_most_six():
    entry = "   {0}.  Section {0} ........ 9\n"
    pages = [TITLE, "Table of Contents\n\n" + entry.format(1)] + [entry.format(n) for n in range(2, 9)]
    pages.append("1.  Section One\n")
    doc = document(*pages)
    assert sorted(doc.toc_pages) == [1, 2, 3, 4, 5, 6]                   # six pages in all, from the title's
    assert [e.num for e in doc.entries] == ["1", "2", "3", "4", "5", "6"]
    gap = document(TITLE, "Table of Contents\n\n" + entry.format(1), "   Some prose (DNS) here.\n",
                   entry.format(2), "1.  Section 1\n\n2.  Section 2\n")
    assert sorted(gap.toc_pages) == [1]                                 # a page without entries ends them
    assert gap.section("Section 1").held and not gap.section("Section 2").held


def test_the_contents_title_is_on_one_of_the_first_eight_pages():
    late = document(TITLE, *["   Prose.\n"] * 7, "Table of Contents\n\n   1.  Usage ........ 10\n",
                    "1.  Usage\n")
    assert not late.entries and "no contents" in late.section("Usage").why_not()
    early = document(TITLE, *["   Prose.\n"] * 6, "Table of Contents\n\n   1.  Usage ........ 9\n", "1.  Usage\n")
    assert early.section("Usage").held


def test_a_wrapped_contents_entry_lists_its_number_only_in_the_variant():
    doc = document(TITLE, "Table of Contents\n\n   1.  Introduction ........ 2\n"
                          "   2.  A Rather Long Title That Goes On And On\n"
                          "       And Then Some More ........ 2\n",
                   "1.  Introduction\n\n2.  A Rather Long Title That Goes On And On And Then Some More\n")
    label = "A Rather Long Title That Goes On And On And Then Some More"
    assert not doc.section(label).held
    assert doc.read_as("wrapped_contents_entries").section(label).held


def test_an_unnumbered_heading_and_contents_without_page_numbers_hold_nothing():
    unnumbered = document(TITLE, "Table of Contents\n\n   Security Considerations ............ 3\n"
                                 "   Acknowledgements ................... 3\n",
                          "Security Considerations\n\n   None.\n")
    assert not unnumbered.section("Security Considerations").held
    no_pages = document(TITLE, "Table of Contents\n\n   1.  Introduction\n   2.  Security Considerations\n"
                               "   Authors' Addresses\n",
                        "1.  Introduction\n\n   Text.\n\n2.  Security Considerations\n\n   None.\n")
    found = no_pages.section("Security Considerations")
    assert not found.held and "no contents" in found.why_not()
    assert no_pages.read_as("toc_without_page_numbers").section("Security Considerations").held


def test_a_heading_below_the_contents_on_their_page_is_read():
    doc = document(TITLE, "Table of Contents\n\n   1.  Introduction .................... 2\n"
                          "   2.  Motivation ...................... 2\n\n1.  Introduction\n\n   Text.\n\n"
                          "2.  Motivation\n\n   Because.\n")
    found = doc.section("Motivation")
    assert found.held and found.held_on() == "contents page"
    assert not doc.read_as("whole_body_pages").section("Motivation").held


def test_a_heading_after_the_references_start_is_not_read():
    doc = document(TITLE, CONTENTS, "1.  Introduction\n\n2.  References\n\n   [1] A.\n\n"
                   "2.  Security Considerations\n\n   None.\n")
    assert not doc.section("Security Considerations").held


def test_the_references_start_at_one_of_the_docs_seven_titles():
    refs = census.refs_title
    for title in ("References", "7.  Normative References", "C.  Informative References", "BIBLIOGRAPHY",
                  "Appendix B.2.  Authors' Addresses", "Author's Address", "10.  Editor's Address",
                  "Authors\u2019 Addresses"):
        assert refs(title), title
    for title in ("Author's Addresses", "Authors' Contact Information", "Reference", "11.  References and Notes",
                  "Security Considerations"):
        assert not refs(title), title
        assert refs(title, "references_titles_widened") or title == "Security Considerations", title
    page = ("1.  Introduction\n\n   The Domain Name System (DNS).\n\nAuthor's Addresses\n\n"
            "   The File Transfer Protocol (FTP).\n\nAuthor's Address\n\n   Simple Mail Transfer Protocol (SMTP)\n"
            "\nAppendix A.  More\n\n   User Datagram Protocol (UDP)\n")
    doc = document(TITLE, page)
    assert acronym(doc, "DNS", "Domain Name System").held               # above the references on their page
    assert acronym(doc, "FTP", "File Transfer Protocol").held           # not one of the seven titles
    assert not acronym(doc, "SMTP", "Simple Mail Transfer Protocol").held
    assert not acronym(doc, "UDP", "User Datagram Protocol").held       # an appendix after them: not read ...
    assert acronym(doc.read_as("appendices_after_references"), "UDP", "User Datagram Protocol").held


# --- the census's counts on a hand-made release -------------------------------------------------------------

def _release(queries, qrels, inventory):
    return {"queries": queries, "qrels": qrels, "inventory": inventory, "corpus": [], "removed": [], "build": {}}


SEC = {"cid": "sec:security-consideration", "kind": "section", "label": "Security Considerations"}
DNS = {"cid": "def:DNS:domain-name-system", "kind": "entity", "label": "Domain Name System (DNS)"}
SECURITY_PAGE = "1.  Introduction\n\n   Text.\n\n2.  Security Considerations\n\n   None.\n"


def _hand_documents():
    both = document(TITLE, CONTENTS, SECURITY_PAGE + "\n   It uses the Domain Name System (DNS).\n")
    section_only = document(TITLE, CONTENTS, SECURITY_PAGE)
    other_sense = document(TITLE, CONTENTS, SECURITY_PAGE + "\n   The Distributed Naming Service (DNS).\n")
    dns_only = document(TITLE, "1.  Introduction\n\n   The Domain Name System (DNS).\n")
    return {"rfc0001": both, "rfc0002": section_only, "rfc0003": both, "rfc0004": other_sense, "rfc0005": dns_only}


def test_the_census_counts_by_hand():
    queries = [{"qid": "q1", "n": 2, "conditions": [SEC, DNS]}]
    qrels = [{"qid": "q1", "docid": "rfc0001", "grade": 2},      # gold, holds both: gold precision 1 of 2
             {"qid": "q1", "docid": "rfc0002", "grade": 2},      # gold, lacks DNS: a failing gold, kind entity
             {"qid": "q1", "docid": "rfc0003", "grade": 1},      # subset that holds both: a strict error
             {"qid": "q1", "docid": "rfc0004", "grade": 1},      # subset, another sense: a loose error only
             {"qid": "q1", "docid": "rfc0005", "grade": 1}]      # subset with DNS only: right
    inventory = {("rfc0001", SEC["cid"]): [3], ("rfc0001", DNS["cid"]): [3], ("rfc0002", SEC["cid"]): [3],
                 ("rfc0002", DNS["cid"]): [3], ("rfc0003", SEC["cid"]): [3], ("rfc0004", SEC["cid"]): [3],
                 ("rfc0005", DNS["cid"]): [2]}
    figures, details = census.census(_release(queries, qrels, inventory), _hand_documents())
    assert figures["gold_precision_as_read"]["count"] == 1 and figures["gold_precision_as_read"]["total"] == 2
    assert (figures["strict_subset_error"]["count"], figures["strict_subset_error"]["total"]) == (1, 3)
    assert figures["loose_subset_error"]["count"] == 2
    assert figures["gold_condition_failures_by_kind"] == {"entity": 1}
    assert figures["golds_per_query"]["mean"] == 2 and figures["subsets_per_query"]["mean"] == 3
    [failure] = details["gold_failures"]
    assert (failure["docid"], failure["cid"], failure["inventory_pages"]) == ("rfc0002", DNS["cid"], [3])
    [error] = details["strict_subset_errors"]
    assert error["docid"] == "rfc0003" and error["not_in_inventory"][0]["cid"] == DNS["cid"]
    assert "form 1" in error["not_in_inventory"][0]["found"]
    # holders as read: SEC {1, 2, 3, 4}, DNS {1, 3, 5}; the gold set {1, 2}: no one condition decides
    assert figures["decided_by_one_condition"]["count"] == 0
    assert figures["most_gold_document"]["queries"] == 1
    # the reader finds 6 of the inventory's 7 facts (rfc0002's DNS is not there)
    assert (figures["reader_finds_inventory_facts"]["count"], figures["reader_finds_inventory_facts"]["total"]) \
        == (6, 7)


def test_a_query_decided_by_one_condition():
    queries = [{"qid": "q1", "n": 2, "conditions": [SEC, DNS]}]
    qrels = [{"qid": "q1", "docid": "rfc0001", "grade": 2}, {"qid": "q1", "docid": "rfc0005", "grade": 1}]
    figures, _ = census.census(_release(queries, qrels, {}), _hand_documents())
    assert figures["decided_by_one_condition"]["count"] == 1            # SEC's holders are exactly the gold


# --- end to end from hand-made packages ---------------------------------------------------------------------

def _ar(members):
    out = b"!<arch>\n"
    for name, data in members:
        header = name.encode().ljust(16) + b"0".ljust(12) + b"0".ljust(6) * 2 + b"100644".ljust(8)
        out += header + str(len(data)).encode().ljust(10) + b"`\n" + data + (b"\n" if len(data) % 2 else b"")
    return out


def _deb(files):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return _ar([("debian-binary", b"2.0\n"), ("data.tar.xz", lzma.compress(buffer.getvalue()))])


def _write_jsonl(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


def _hand_release(tmp_path):
    """Two RFCs in one package (one gzipped, one plain) and one two-condition query: rfc0001 is gold and holds
    both, rfc0002 a subset that lacks the section."""
    one = TITLE + "\f" + CONTENTS + "\f" + SECURITY_PAGE + "\n   It uses the Domain Name System (DNS).\n"
    two = TITLE + "\f" + "1.  Introduction\n\n   The Domain Name System (DNS).\n"
    texts = {"rfc1.txt.gz": gzip.compress(one.encode(), mtime=0), "rfc2.txt": two.encode()}
    packages = tmp_path / "debs"
    packages.mkdir()
    for name in census.PACKAGE_NAMES:
        files = {f"./usr/share/doc/RFC/x/{k}": v for k, v in texts.items()} if name == "doc-rfc-std" else {}
        (packages / census.deb_file(name)).write_bytes(_deb(files))
    v3 = tmp_path / "data" / "v3"
    v3.mkdir(parents=True)
    pages = {"rfc0001": one.split("\f"), "rfc0002": two.split("\f")}     # no header or footer to empty here
    _write_jsonl(v3 / "corpus.jsonl", [{"docid": d, "package": "doc-rfc-std", "pages": len(p),
                                        "page_sha256": [hashlib.sha256(x.encode()).hexdigest() for x in p]}
                                       for d, p in pages.items()])
    _write_jsonl(v3 / "queries.jsonl", [{"qid": "q1", "n": 2, "conditions": [SEC, DNS]},
                                        {"qid": "q2", "n": 2, "conditions": [SEC, DNS]}])
    _write_jsonl(v3 / "qrels.jsonl", [{"qid": "q1", "docid": "rfc0001", "grade": 2},
                                      {"qid": "q1", "docid": "rfc0002", "grade": 1},
                                      {"qid": "q2", "docid": "rfc0002", "grade": 2}])
    _write_jsonl(v3 / "inventory.jsonl", [{"docid": "rfc0001", "cid": SEC["cid"], "pages": [3]},
                                          {"docid": "rfc0001", "cid": DNS["cid"], "pages": [3]},
                                          {"docid": "rfc0002", "cid": DNS["cid"], "pages": [2]}])
    (v3 / "genealogy.json").write_text(json.dumps({"copies": [
        {"copy": "construction", "removed_queries": []},
        {"copy": "final", "file": released("v3", "qrels.jsonl"), "removed_queries": ["q2"]}]}), encoding="utf-8")
    (v3 / "build.json").write_text(json.dumps({"counts": {"queries": 2}, "audit": {"repairs": 0}}), encoding="utf-8")
    return packages


def test_the_tool_end_to_end_on_hand_made_packages(tmp_path, capsys):
    packages = _hand_release(tmp_path)
    out = tmp_path / "census.json"
    assert census.main(["--data", str(tmp_path), "--packages", str(packages), "--json", str(out)]) == 0
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert figures["pages_checked"] == {"documents": 2, "pages": 5, "mismatched_count": 0, "mismatched": []}
    assert figures["queries"] == 1 and figures["pairs"] == 2             # q2 is removed by the final copy
    assert figures["gold_precision_as_read"]["share"] == 1.0
    assert figures["strict_subset_error"]["count"] == 0
    assert figures["build"] == {"counts_queries": 2, "audit_repairs": 0, "removed_queries": 1}
    assert "gold precision as read: 1 / 1 = 100.00%" in capsys.readouterr().out


def test_the_tool_names_the_missing_packages(tmp_path, capsys):
    _hand_release(tmp_path)
    empty = tmp_path / "none"
    empty.mkdir()
    assert census.main(["--data", str(tmp_path), "--packages", str(empty)]) == 2
    err = capsys.readouterr().err
    assert str(empty) in err and census.deb_file("doc-rfc-std") in err and census.deb_file("doc-rfc-misc") in err


def test_the_tool_imports_nothing_outside_the_standard_library():
    import ast
    import sys
    with open(TOOL, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    names = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names}
    names |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert names <= set(sys.stdlib_module_names), names - set(sys.stdlib_module_names)
    assert "nclue" not in names


# --- slow: the shipped release, read from the packages ------------------------------------------------------

@pytest.mark.slow
def test_the_release_meets_its_acceptance_figures_as_read():
    folder = census.default_packages()
    with open(os.path.join(REPO, "data", "v3", "corpus.jsonl"), encoding="utf-8") as handle:
        needed = {json.loads(line)["package"] for line in handle if line.strip()} | set(census.PACKAGE_NAMES)
    absent = census.missing_packages(folder, needed)
    if absent:
        pytest.skip(f"the pinned doc-rfc packages are not in {folder} (set NCLUE_REALPAGE_PACKAGES): "
                    f"missing {', '.join(absent)}")
    # the docs' reading only: the test holds none of the eleven alternative readings to a figure (each is worked
    # by hand on made-up pages above), and each would read all 2,021 RFCs again (about 20 s apiece)
    figures, details = census.run(REPO, folder, variants=())
    assert figures["variants"] == {}
    assert figures["pages_checked"]["mismatched_count"] == 0, figures["pages_checked"]["mismatched"]
    gold, strict = figures["gold_precision_as_read"], figures["strict_subset_error"]
    golds, subsets = figures["golds_per_query"]["mean"], figures["subsets_per_query"]["mean"]
    most = figures["most_gold_document"]
    problems = []
    if gold["share"] < 0.98:
        problems.append(f"gold precision as read {gold['count']}/{gold['total']} = {gold['share']:.4f} < 0.98")
    if strict["share"] > 0.001:
        problems.append(f"strict subset error {strict['count']}/{strict['total']} = {strict['share']:.4%} > 0.1% "
                        f"(by page kind {figures['strict_subset_errors_by_page_kind']})")
    if figures["decided_by_one_condition"]["share"] > 0.10:
        problems.append(f"decided by one condition {figures['decided_by_one_condition']['share']:.2%} > 10%")
    if most["share"] > 0.02:
        problems.append(f"{most['docid']} is gold in {most['queries']} queries ({most['share']:.2%} > 2%)")
    if abs(golds / census.TABLE1_GOLDS_PER_QUERY - 1) > 0.15:
        problems.append(f"golds per query {golds:.2f}, not within 15% of {census.TABLE1_GOLDS_PER_QUERY}")
    if abs(subsets / census.TABLE1_SUBSETS_PER_QUERY - 1) > 0.15:
        problems.append(f"subsets per query {subsets:.1f}, not within 15% of {census.TABLE1_SUBSETS_PER_QUERY}")
    first = {kind: rows[:3] for kind, rows in details.items() if kind in ("gold_failures", "strict_subset_errors")}
    assert not problems, "; ".join(problems) + "\nfirst failing pairs: " + json.dumps(first, indent=1)
