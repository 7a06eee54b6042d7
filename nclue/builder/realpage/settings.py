"""RealPage's construction settings, declared once (docs/realpage.md).

Every value is structure: the sample's page-count bins and their counts are the stand-in's (its corpus's
page-count deciles, docs/realpage.md#which-rfcs); the gates are the stand-in construction's defaults
(:class:`nclue.builder.config.Config`: 1 to 12 golds, the paper's union of at most 88, at least 5 subsets);
the query mix is the paper's 814 two-condition and 186 three-condition queries.  No value was chosen by
looking at a ranking, a score or any other result.
"""

import re
from dataclasses import dataclass

from ...core.errors import UsageError


class RealPageError(UsageError):
    """RealPage cannot be built as pinned: a package is missing or damaged, or the sample cannot supply the
    construction.  The message names the file and what was expected and found; the build stops (exit 2)."""

SEED = 20230121             # the default seed: the packages' version date
EDITION = 2                 # the release's edition (docs/realpage.md#the-second-edition)
QID_PREFIX = "realpage_"
DOCID_FORMAT = "rfc%04d"
DOCID = re.compile(r"rfc(\d{4,5})\Z")          # a docid DOCID_FORMAT writes


def number_of(docid):
    """The RFC number of a RealPage docid (a :class:`RealPageError` for a docid :data:`DOCID_FORMAT` does not write).

    >>> number_of("rfc0001"), number_of("rfc9282")
    (1, 9282)
    """
    found = DOCID.match(docid)
    if found is None or DOCID_FORMAT % int(found.group(1)) != docid:
        raise RealPageError("%r is not a RealPage document id (%s)" % (docid, DOCID_FORMAT % 1))
    return int(found.group(1))
# the stand-in corpus's page-count bins (its deciles) and its document count in each: (first, last, count)
STRATA = ((1, 3, 309), (4, 4, 118), (5, 6, 198), (7, 9, 253), (10, 11, 133), (12, 16, 217), (17, 22, 224),
          (23, 29, 172), (30, 46, 199), (47, None, 198))


@dataclass(frozen=True)
class Construction:
    """The fields :func:`nclue.builder.construct.select_queries` reads."""
    n_queries_2: int = 814
    n_queries_3: int = 186
    min_golds: int = 1
    max_golds: int = 12
    max_union: int = 88
    min_subsets: int = 5
    max_gold_queries: int = 18          # no RFC gold in more than 2% of the queries (18 of at least 900 final)
    # the draws' tilts (nclue.builder.realpage.query_draws): (per gold /100, per subset /1000, per grade-2 /1000);
    # FITTED by tools/fit_realpage.py to the paper's Table 1 structure (golds and subsets per query, a triple's
    # grade-2 subsets), reading the candidates' structure only
    pair_tilt: tuple = (290, 1032, 1000)
    triple_tilt: tuple = (660, 1015, 1200)


CONSTRUCTION = Construction()
