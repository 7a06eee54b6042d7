"""Scoring new runs the way the harness scores the paper's (docs/usage.md#scoring-a-new-retriever).

A run is a released-style JSONL ranking or a TREC run (``qid Q0 docno rank score tag``), told apart
by content (a first non-blank character ``{`` is JSONL), gzip-compressed or not.  TREC runs are
ordered as trec_eval orders them (score descending, ties by docno descending) unless
``ties="file"``.  For each run:

* every measure of :data:`nclue.core.measures.SCORE_COMMAND_MEASURES` with its unit, and the 95%
  family-clustered percentile bootstrap interval (``protocol.BOOTSTRAP.n_draws`` draws over exact-gold-set
  families; on v1's final qrels exactly the draws of ``v1.inference``, so a shipped ranking scored
  here gets its frozen interval);
* paired comparisons, run minus each reference (default: every system of the release's
  systems.json; v2: its raw-form runs) and minus every other run given: Delta n-Clue Score in
  points with its paired bootstrap interval on the same draws, the two-sided paired randomization
  p (``protocol.RANDOMIZATION.n_draws`` whole-family sign flips, p = (1 + c)/(B + 1); on v1's final qrels the
  masks of ``v1.inference``), single-step max-|T| over the run's comparisons and Holm over the same
  -- one code path with the harness's contrasts (:mod:`nclue.stats`).

Nothing is written anywhere; :func:`score` is the Python API, :func:`render` the text and table
formats.
"""

import math
import os
from collections import namedtuple

from ..analyses.shared.inference_context import context
from ..analyses.shared.outcome_vectors import gold_sets, ideals, outcomes
from ..analyses.shared.release_systems import form_systems
from ..core import integrity, layout
from ..core import measures as measure_table
from ..core.claim_ids import BOOTSTRAP
from ..core.errors import EmptyRun, InputError, NclueError, UnknownQuery, UsageError, VerificationError, bounded
from ..core.inputs import GZIP_MAGIC, gunzip_bounded, read_maybe_gzip
from ..core.instrument import Instrument
from ..core.jsonio import MAX_FILE_BYTES, decode_text
from ..core.layout import SYNTHETIC_NATURE
from ..core.loaders import load_ranking
from ..core.measures import DEPTH
from ..core.metrics import STANDARD_FIELDS, Outcomes, aggregate, evaluate, ideal_graded_dcg, standard_outcomes, summary
from ..core.records import RankingRow
from ..core.structure import families, gold_and_subsets
from ..core.trec import read_trec_qrels, read_trec_run
from ..run.locate import data_root
from ..run.runner import check_root
from ..stats import bootstrap, protocol, randomization

ORDER_TEXT = {"trec": "trec_eval order (score desc, docno desc)", "file": "file order"}


def detect_format(text):
    """``jsonl`` when the first non-blank character of a run's text is ``{``, else ``trec``."""
    stripped = text.lstrip()
    return "jsonl" if stripped[:1] == "{" else "trec"


STDIN = "-"


def _run_bytes(path, stdin=None):
    """The bytes of a run file (``-``: standard input), expanded when gzip-compressed, under the file-size budget
    counted in decompressed bytes (:func:`nclue.core.inputs.read_maybe_gzip`); no temporary file is made."""
    if path != STDIN:
        return read_maybe_gzip(path, path)
    import io
    import sys
    stream = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise UsageError("standard input is closed: '-' reads a run from standard input")
    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise InputError("<stdin>", "input is larger than the %d-byte limit" % MAX_FILE_BYTES)
    if data[:2] != GZIP_MAGIC:
        return data
    return gunzip_bounded(io.BytesIO(data), "<stdin>", MAX_FILE_BYTES, "stream")


def read_run(path, queries, corpus, fmt="auto", ties="trec", stdin=None, tags=None):
    """``(ranking, order description)`` of a run file in either format (gzip accepted; ``-`` reads standard
    input).  ``tags``: a set that receives a TREC run's tags (the run's name)."""
    where = "<stdin>" if path == STDIN else path
    text = decode_text(_run_bytes(path, stdin), where)
    if not text.strip():                                     # an empty or blank run: nothing to parse
        return {}, ORDER_TEXT[ties] if fmt != "jsonl" else "file order (JSONL rule)"
    if fmt == "auto":
        fmt = detect_format(text)
    if fmt == "jsonl":
        return load_ranking(None, where, queries, corpus, text=text, complete=False), "file order (JSONL rule)"
    return read_trec_run(None, where, queries, corpus, ties=ties, text=text, tags=tags), ORDER_TEXT[ties]


def verify_inputs(inst, rels, verify=True, warn=None, purpose="score against"):
    """Refuse (VerificationError, exit 1) to ``purpose`` release files MANIFEST.json does not vouch for; with
    ``verify=False`` only warn."""
    problems = integrity.verify_files(inst.root, rels)
    if not problems:
        return
    if verify:
        raise VerificationError("refusing to %s an unverified release: %s%s" % (
            purpose, "; ".join(p for _, p in problems[:3]),
            " (use --no-verify to score anyway)" if purpose == "score against" else ""))
    if warn is not None:
        for _, problem in problems:
            warn("warning: %s (scoring anyway: --no-verify)\n" % problem)


class Judgements:
    """What a run is scored against: a released qrel copy (``--qrels``) or a TREC qrels file of the user's
    (``--qrels-file``, docs/usage.md#your-own-qrels) -- its label, evaluation queries, grades, gold and subset
    sets, ideal DCGs, the release files it rests on, and the labels of its random streams."""

    def __init__(self, label, queries, qrels, sets, ideal, inputs, released):
        self.label, self.queries, self.qrels, self.sets = label, queries, qrels, sets
        self.ideals, self.inputs, self.released = ideal, inputs, released
        self.stream_copy = "judgements:" + canonical_digest(queries, qrels)

    def same_as(self, other):
        """Whether two sets of judgements are the same (:func:`canonical_digest`), wherever they were read from."""
        return self.stream_copy == other.stream_copy

    @classmethod
    def of_copy(cls, inst, copy=None):
        """A released qrel copy (a :class:`~nclue.core.layout.QrelCopy` of ``inst``'s release; None: its last)."""
        copy = copy or inst.copy()
        return cls(copy.path, inst.evaluation_queries(copy), inst.qrels(copy), gold_sets(inst, copy),
                   ideals(inst, copy), list(copy.evaluation_inputs), copy)

    @classmethod
    def of_file(cls, inst, path):
        """A TREC qrels file (gzip accepted): checked row by row against the release's queries and documents
        (:func:`nclue.core.trec.read_trec_qrels`); its evaluation queries are the ones it names.  Its streams,
        like a released copy's, are labelled by the judgements' canonical content (:func:`canonical_digest`), so
        the same judgements draw the same resamples whatever file, format or row order they come in."""
        import hashlib
        data = read_maybe_gzip(path, path)
        grades = read_trec_qrels(path, inst.queries(), inst.corpus(), decode_text(data, path))
        queries = {q: inst.queries()[q] for q in sorted(grades)}
        digest = hashlib.sha256(data).hexdigest()
        return cls("%s (qrels file, sha256 %s)" % (path, digest[:12]), queries, grades,
                   gold_and_subsets(queries, grades), {q: ideal_graded_dcg(g) for q, g in grades.items()}, [], None)

    def outcomes(self, inst, ranking_rel=None, ranking=None):
        """Per-query outcome vectors of a released ranking file (memoised for a released copy) or of a ranking."""
        if ranking is None and self.released is not None:
            return outcomes(inst, ranking_rel, self.released)
        return evaluate(inst.ranking(ranking_rel) if ranking is None else ranking, self.queries, self.qrels,
                        self.sets, ideals=self.ideals)


def canonical_digest(queries, qrels):
    """The SHA-256 of a set of judgements' content: its evaluation queries and its positive grades, sorted
    (a grade of 0 is no judgement of relevance: docs/metrics.md).  Two files that say the same thing, in any
    format or order, share it; the random streams of :class:`Design` are keyed by it.

    >>> a = canonical_digest({"q1": None, "q2": None}, {"q1": {"d1": 2, "d2": 0}, "q2": {"d3": 1}})
    >>> a == canonical_digest({"q2": None, "q1": None}, {"q2": {"d3": 1}, "q1": {"d1": 2}})
    True
    >>> a == canonical_digest({"q1": None, "q2": None}, {"q1": {"d1": 1}, "q2": {"d3": 1}})
    False
    """
    import hashlib
    lines = ["query %s" % q for q in sorted(queries)]
    lines += ["%s %s %d" % (q, d, g) for q in sorted(qrels) for d, g in sorted(qrels[q].items()) if g > 0]
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def _families(sets):
    """Exact-gold-set families (:func:`nclue.core.structure.families`); a query with no gold (possible only in a
    user's qrels file) is a family of its own rather than one family of every gold-less query."""
    golden = families({q: s for q, s in sets.items() if s[0]})
    return sorted(golden + [[q] for q in sorted(sets) if not sets[q][0]], key=lambda fam: fam[0])


class Design:
    """Queries, families, bootstrap draws and sign-flip masks of one release and set of judgements."""

    def __init__(self, inst, judged, shared):
        if shared:                 # v1's final qrels: exactly the harness's inference draws and masks
            ctx = context(inst)
            self.qids, self.design, self.fams = ctx.qids, ctx.design, ctx.fams
            self.draws, self.masks = ctx.draws, ctx.masks
            self.streams = (protocol.describe(protocol.BOOTSTRAP), protocol.describe(protocol.RANDOMIZATION))
        else:
            labels = {"release": inst.base, "copy": judged.stream_copy}
            self.qids = sorted(judged.queries)
            self.fams = _families(judged.sets)
            self.design = bootstrap.FamilyDesign(self.qids, self.fams)
            self.draws = bootstrap.draw_indices(protocol.stream(protocol.SCORE_BOOTSTRAP, **labels),
                                                self.design.n_families, protocol.SCORE_BOOTSTRAP.n_draws)
            self.masks = randomization.draw_masks(protocol.stream(protocol.SCORE_RANDOMIZATION, **labels),
                                                  self.design.n_families, protocol.SCORE_RANDOMIZATION.n_draws)
            self.streams = (protocol.describe(protocol.SCORE_BOOTSTRAP, **labels),
                            protocol.describe(protocol.SCORE_RANDOMIZATION, **labels))
        self.denominators = bootstrap.draw_denominators(self.design, self.draws)


def _integer_units(values):
    """Per-query values as integers for exact bootstrap sums: counts as they are, fractions on the
    fixed-point grid (:func:`nclue.stats.randomization.to_integer_units`); the factor back to the values."""
    if all(isinstance(v, int) for v in values):
        return values, 1
    return randomization.to_integer_units(values), randomization.FIXED_POINT


def draw_values(design, measure, out):
    """A measure's value in each bootstrap draw of ``design``, from its declared per-query column, aggregate
    and scale: ``scale * (sum over the draw's queries) / (its queries)``, over the queries where the measure is
    defined for a ``mean_defined`` measure (pairwise AUC: those with a gold and a subset); a draw with no such
    query is left out."""
    values = measure.values(out)
    if measure.aggregate == "mean_defined":
        units, fixed = _integer_units([0 if v is None else v for v in values])
        num, den = bootstrap.draw_sums(design.design, [units, [0 if v is None else 1 for v in values]], design.draws)
        return [measure.scale * (x / fixed / d) for x, d in zip(num, den) if d]
    units, fixed = _integer_units(values)
    factor = measure.scale if fixed == 1 else measure.scale / fixed
    column = bootstrap.draw_sums(design.design, [units], design.draws)[0]
    return [factor * total / n for total, n in zip(column, design.denominators)]


def intervals(design, out, measures=measure_table.SCORE_COMMAND_MEASURES):
    """``{measure name: (low, high)}``: the 95% family-clustered percentile interval of every measure
    ``score`` prints (:data:`nclue.core.measures.SCORE_COMMAND_MEASURES`) over its draws
    (:func:`draw_values`); (None, None) when a draw leaves the measure undefined."""
    result = {}
    for measure in measures:
        dist = draw_values(design, measure, out)
        result[measure.name] = bootstrap.percentile_interval(dist) if len(dist) == len(design.draws) else (None, None)
    return result


def tested_measure(picked):
    """The measure the paired tests compare runs on: n-Clue Score when it is among the measures shown (the
    default), else the first shown that is a mean over every query (``-m ndcg_cut.10``: graded NDCG); None when
    none is (a pairwise AUC is a mean over the queries it is defined on, and has no paired test here).

    >>> from nclue.core import measures as table
    >>> tested_measure(table.score_measures(["ndcg_cut.10"])).name, tested_measure(table.score_measures()).name
    ('graded_ndcg_at_10', 'nclue_score_at_10')
    >>> tested_measure(table.score_measures(["pairwise_auc"])) is None
    True
    """
    for m in picked:
        if m.name == measure_table.NCLUE_SCORE.name:
            return m
    return next((m for m in picked if m.aggregate == "mean" and m.per_query is not None), None)


def comparisons(design, run_out, references, measure=None):
    """Run minus each reference on ``measure`` (:func:`tested_measure`; None: n-Clue Score, in exact integer
    counts): ``[{against, measure, delta, ci_low, ci_high, p, p_max_t, p_holm}]`` in the measure's unit (and
    ``delta_score``, the same delta, for n-Clue Score); ``p_max_t`` is the studentized single-step max-|T| over
    these comparisons (:func:`nclue.stats.randomization.max_t_p_values`, docs/statistics.md#multiplicity),
    ``p_holm`` Holm's step-down over the same raw p-values.  The per-query differences are summed per
    exact-gold-set family and sign-flipped as for n-Clue Score (docs/statistics.md#paired-randomization)."""
    if not references:
        return []
    measure = measure or measure_table.NCLUE_SCORE
    names = [name for name, _ in references]
    diffs, deltas = [], []
    for _, ref in references:
        base, run = _tested_values(measure, ref), _tested_values(measure, run_out)
        diffs.append(randomization.family_differences(design.design, base, run))
        deltas.append([v - b for v, b in zip(run, base)])
    tests = randomization.sign_flip_tests(diffs, design.masks)
    p_max = randomization.max_t_p_values(tests, studentize=True)
    p_raw = [t.p_value() for t in tests]
    p_holm = randomization.holm(p_raw)
    units = [_integer_units(delta) for delta in deltas]
    sums = bootstrap.draw_sums(design.design, [u for u, _ in units], design.draws)
    n = len(design.qids)
    out = []
    for name, delta, (_, fixed), column, p, pm, ph in zip(names, deltas, units, sums, p_raw, p_max, p_holm):
        factor = measure.scale / fixed
        lo, hi = bootstrap.percentile_interval([factor * s / d for s, d in zip(column, design.denominators)])
        entry = {"against": name, "measure": measure.name, "delta": measure.scale * math.fsum(delta) / n,
                 "ci_low": lo, "ci_high": hi, "p": p, "p_max_t": pm, "p_holm": ph}
        if measure.name == measure_table.NCLUE_SCORE.name:
            entry["delta_score"] = entry["delta"]
        out.append(entry)
    return out


def _tested_values(measure, out):
    """A tested measure's per-query values (a success is the integer 1, for exact sums)."""
    if measure.name == measure_table.NCLUE_SCORE.name:
        return list(out.success)
    return [0 if v is None else v for v in measure.values(out)]


def _reference_runs(inst):
    """Every system of the release with its reference ranking: its raw-form matrix ranking where the release
    ships that matrix (v1, v3), else its raw-form query-form ranking (v2)."""
    systems, _ = inst.systems()
    if inst.spec.can(layout.RAW_MATRIX):
        return [(sid, inst.spec.ranking(sid)) for sid in sorted(systems)]
    return [(sid, inst.spec.form_ranking(sid, layout.RAW)) for sid in sorted(systems)
            if inst.exists(inst.spec.form_ranking(sid, layout.RAW))]


def default_references(inst):
    """The references compared with when ``--against`` is not given: the **fair scorecard systems** -- the
    query-form matrix's systems (Table 3's roles) that read no construction fact.  Controls, oracles, floors
    and masking ablations are compared with only when named."""
    systems, _ = inst.systems()
    return [sid for sid in sorted(form_systems(inst)) if sid in systems and systems[sid].fair]


RUN_PREFIX = "run:"


def _in_memory(run, queries, corpus, where):
    """A run given as data (the Python API): ``{qid: [docid, ...]}`` or ``{qid: [(docid, score), ...]}``, best
    first; checked like a file (known queries and documents, no document twice, depth 10 kept)."""
    out = {}
    for qid in sorted(run):
        if qid not in queries:
            raise UnknownQuery(where, "unknown query %s" % bounded(repr(qid), 60), qid)
        items = list(run[qid])
        docids = [item[0] if isinstance(item, (tuple, list)) else item for item in items]
        scores = [float(item[1]) if isinstance(item, (tuple, list)) else float(len(items) - i)
                  for i, item in enumerate(items)]
        for d in docids:
            if d not in corpus:
                raise InputError(where, "unknown document %s for %s" % (bounded(repr(d), 60), qid))
        if len(set(docids)) != len(docids):
            raise InputError(where, "a document ranked twice for %s" % qid)
        out[qid] = RankingRow(qid, tuple(docids[:DEPTH]), tuple(scores[:DEPTH]))
    return out


def _labels(runs, names, tags):
    """A unique label per run: ``names`` (``--name``), else a TREC run's one tag, else the path as given."""
    if names and len(names) != len(runs):
        raise UsageError("--name given %d times for %d runs: name every run or none" % (len(names), len(runs)))
    labels = []
    for i, run in enumerate(runs):
        if names:
            labels.append(names[i])
        elif len(tags[i]) == 1:
            labels.append(next(iter(tags[i])))
        elif isinstance(run, str):
            labels.append("<stdin>" if run == STDIN else run)
        else:
            labels.append("run%d" % (i + 1))
    repeated = sorted({x for x in labels if labels.count(x) > 1})
    if repeated:
        raise UsageError("two runs are both called %s: give each a --name" % bounded(repr(repeated[0]), 80))
    return labels


def release_of_query(inst, qid):
    """The other release of ``inst``'s root that has a query ``qid`` (its instrument), or None: what a run over
    the wrong release's queries looks like it was made for."""
    for spec in layout.RELEASES.values():
        if spec.base == inst.base:
            continue
        other = inst.release(spec)
        try:
            if other.exists(spec.queries) and qid in other.queries():
                return other
        except NclueError:          # an unreadable release: the hint is a courtesy; the original error stands
            continue
    return None


def _release_hint(inst, exc):
    """An unknown-query error on a run of another release, with a hint to say ``--release``."""
    if not isinstance(exc, UnknownQuery) or not isinstance(exc.qid, str):
        return exc
    other = release_of_query(inst, exc.qid)
    if other is None:
        return exc
    return InputError(exc.path, "%s (the query ids are %s's: give --release %s)" % (
        exc.message, other.spec.title, other.spec.name), line=exc.line, field=exc.field)


def score(runs, root=None, release=layout.CROSSPAGE.name, qrels=None, against=None, run_format="auto", ties="trec",
          verify=True, warn=None, per_query=False, names=None, allow_empty=False, stdin=None, measures=None,
          qrels_file=None):
    """Score ``runs`` on an instrument; returns a JSON-ready dict (see module doc).

    ``runs``: paths (TREC or JSONL, gzip accepted; ``-`` reads standard input) or, from Python, rankings as
    data (``{qid: [docid, ...]}`` or ``{qid: [(docid, score), ...]}``, best first).  ``against``: reference
    system ids (None: the fair scorecard systems, :func:`default_references`; ``[]``: none).  ``names``: a
    label per run (else a TREC run's tag, else its path).  ``measures``: the names ``-m`` picks
    (:func:`nclue.core.measures.score_measures`; None: all).  ``qrels_file``: a TREC qrels file to score
    against instead of a released copy (``qrels`` then must be None).  A run that ranks nothing for any query
    raises :class:`~nclue.core.errors.EmptyRun` unless ``allow_empty``.

    >>> import os
    >>> from nclue.api import score
    >>> from nclue.run.locate import CHECKOUT
    >>> result = score([layout.abspath(CHECKOUT, layout.CROSSPAGE.ranking("bm25_and"))], against=["bm25_or"])
    >>> run = result["runs"][0]
    >>> run["measures"]["nclue_score_at_10"]["unit"], run["comparisons"][0]["against"]
    ('points', 'bm25_or')
    """
    picked = measure_table.score_measures(measures)
    if qrels is not None and qrels_file is not None:
        raise UsageError("--qrels names a released copy and --qrels-file a file of your own: give one of them")
    root = data_root(root)
    check_root(root)
    inst = Instrument(root).release(release)
    copy = None if qrels_file is not None else inst.copy(qrels)
    known, wanted = _references(inst, against)
    judged = _judgements(inst, known, wanted, copy, qrels_file, verify, warn)
    # the release's own inference draws its last copy's resamples: a score on that copy shares them, so a released
    # ranking gets its frozen interval (<release>.inference.bootstrap)
    # the judgements of the release's last copy, from the release or from any file: the harness's own draws
    design = Design(inst, judged, shared=(inst.spec.name in BOOTSTRAP.copies and
                                          judged.same_as(Judgements.of_copy(inst))))
    scored, tags = [], []
    for i, run in enumerate(runs):
        found = set()
        scored.append(_score_run(inst, judged, i, run, run_format, ties, stdin, found, allow_empty, warn))
        tags.append(found)
    labels = _labels(runs, names, tags)
    result = _header(inst, root, judged, wanted, design, picked)
    for i in range(len(scored)):
        result["runs"].append(_compared_entry(inst, judged, design, known, wanted, scored, labels, i, per_query,
                                              picked, warn))
    return result


def _references(inst, against):
    """``(known, wanted)``: every reference system's ranking path, and the ids ``against`` picks (None: the
    fair scorecard systems); an unknown id is a :class:`~nclue.core.errors.UsageError` naming the systems."""
    known = dict(_reference_runs(inst))
    wanted = default_references(inst) if against is None else list(against)
    unknown = [sid for sid in wanted if sid not in known]
    if unknown:
        raise UsageError("--against: unknown system %s (systems: %s)" % (bounded(repr(unknown[0]), 80),
                                                                         ", ".join(sorted(known))))
    return known, wanted


def _judgements(inst, known, wanted, copy, qrels_file, verify, warn):
    """The judgements scored against (a released copy, or a qrels file of one's own), after verifying every
    released file the score reads."""
    base = [inst.CORPUS, inst.QUERIES]
    if qrels_file is None:
        base += list(copy.evaluation_inputs)
    verify_inputs(inst, base + [inst.SYSTEMS] + [known[sid] for sid in wanted] + (
        [inst.CONDITIONS] if inst.exists(inst.CONDITIONS) else []), verify, warn)
    return Judgements.of_copy(inst, copy) if qrels_file is None else Judgements.of_file(inst, qrels_file)


def _compared_entry(inst, judged, design, known, wanted, scored, labels, i, per_query, picked, warn):
    """The ``i``-th run's entry: compared with every wanted reference that is not its own released ranking,
    and with each later run (so each pair of runs once)."""
    where, ranking, order, out, ranked = scored[i]
    itself = [sid for sid in wanted if _same_ranking(ranking, inst.ranking(known[sid]))]
    refs = [(sid, with_standard(judged.outcomes(inst, known[sid]), inst.ranking(known[sid]), judged, picked))
            for sid in wanted if sid not in itself]
    refs += [(RUN_PREFIX + labels[j], with_standard(scored[j][3], scored[j][1], judged, picked))
             for j in range(i + 1, len(scored))]
    entry = _run_entry(design, labels[i], where, order, with_standard(out, ranking, judged, picked), ranked, refs,
                       per_query, picked)
    if itself:
        entry["not_compared"] = {sid: "the run ranks every query as this reference's released ranking does: "
                                      "a run is never its own reference" for sid in itself}
        if warn is not None:
            warn("note: %s is the released ranking of %s; it is not compared with itself\n" % (
                labels[i], ", ".join(itself)))
    return entry


# a run's outcome vectors with the standard measures' per-query columns beside the paper's (score -m P@10 ...)
ScoreOutcomes = namedtuple("ScoreOutcomes", Outcomes._fields + STANDARD_FIELDS)


def with_standard(out, ranking, judged, picked):
    """``out`` with the standard measures' per-query values (:func:`nclue.core.metrics.standard_outcomes`) when a
    measure ``picked`` is one of them; else ``out`` as it is (their cost is paid only when asked for)."""
    if not any(m.kind == "standard" for m in picked) or isinstance(out, ScoreOutcomes):
        return out
    columns = standard_outcomes(ranking, judged.queries, judged.qrels)
    return ScoreOutcomes(*out, *(columns[field] for field in STANDARD_FIELDS))


def _same_ranking(ranking, reference):
    """True when a run ranks every query's top ``DEPTH`` as a reference ranking does (the run is that system)."""
    if set(ranking) != set(reference):
        return False
    return all(list(ranking[q].docids[:DEPTH]) == list(reference[q].docids[:DEPTH]) for q in ranking)


def _score_run(inst, judged, i, run, run_format, ties, stdin, found, allow_empty, warn):
    """``(where, ranking, order, outcomes, ranked queries)`` of the ``i``-th run (a path, ``-`` or data);
    :class:`~nclue.core.errors.EmptyRun` when it ranks nothing, unless ``allow_empty``."""
    queries, corpus = judged.queries, inst.corpus()
    if isinstance(run, str):
        try:
            ranking, order = read_run(run, inst.queries(), corpus, run_format, ties, stdin=stdin, tags=found)
        except InputError as exc:
            raise _release_hint(inst, exc) from exc
        where = "<stdin>" if run == STDIN else run
    else:
        where = "run%d (given as data)" % (i + 1)
        ranking, order = _in_memory(run, inst.queries(), corpus, where), "the order given"
    ranked = sum(1 for q in queries if q in ranking and ranking[q].docids)
    if ranked == 0:
        message = ("%s ranks no document for any of the %d evaluation queries (an empty or blank run?)" % (
            where, len(queries)))
        if not allow_empty:
            raise EmptyRun(message + "; --allow-empty scores it as all zeros")
        if warn is not None:
            warn("WARNING: %s; scored as all zeros (--allow-empty)\n" % message)
    out = judged.outcomes(inst, ranking=ranking)
    return where, ranking, order, out, ranked


def _header(inst, root, judged, wanted, design, picked):
    """The result's description of the instrument, the depth, the measures, the references and the protocol."""
    tested = tested_measure(picked)
    return {"instrument": {"root": os.path.abspath(root), "release": inst.base, "qrels": judged.label,
                           "queries": len(judged.queries), "synthetic": _synthetic(inst)},
            "measures": [m.name for m in picked],
            "scales": {kind: {"unit": k.unit, "meaning": k.meaning} for kind, k in sorted(measure_table.KINDS.items())},
            "depth": DEPTH, "depth_note": "every measure is defined at depth %d; documents below it are ignored"
                                          % DEPTH,
            "references": wanted,
            "bootstrap": {"draws": len(design.draws), "families": design.design.n_families,
                          "level": protocol.INTERVAL_LEVEL, "interval": "percentile (type-7 quantiles)",
                          "stream": design.streams[0]},
            "randomization": {"draws": design.masks.n_draws, "measure": tested.name if tested else None,
                              "statistic": "Delta %s, run minus reference, per query, summed per exact-gold-set "
                              "family" % (tested.label if tested else "(no measure shown has a paired test)"),
                              "p": "(1 + c) / (B + 1), two-sided",
                              "stream": design.streams[1], "max_t": "studentized single-step max-|T| over the "
                              "run's comparisons (each statistic divided by its permutation SD)",
                              "holm": "over the same comparisons"},
            "runs": []}


def _run_entry(design, label, where, order, out, ranked, refs, per_query, picked):
    """One run's totals (the measures ``picked``, each on its kind's scale) with intervals, its comparisons with
    ``refs`` and (``per_query``) its per-query rows."""
    s = summary(out)
    for m in picked:
        if m.kind == "standard":
            s[m.key] = aggregate(m, m.values(out))
    ivs = intervals(design, out, picked)
    measures = {m.name: {"value": _on_scale(m, s[m.key]), "unit": m.unit, "label": m.label, "decimals": m.decimals,
                         "ci_low": ivs.get(m.name, (None, None))[0], "ci_high": ivs.get(m.name, (None, None))[1]}
                for m in picked}
    tested = tested_measure(picked)
    entry = {"run": label, "file": where, "order": order, "ranked_queries": ranked,
             "successes": s["success_count"], "measures": measures,
             "comparisons": comparisons(design, out, refs, tested) if tested is not None else []}
    if per_query:
        columns = [(m, m.values(out)) for m in picked if m.per_query_rows]
        entry["per_query"] = [{"qid": q, "measure": m.name, "unit": m.unit, "value": _per_query_value(m, values[k])}
                              for k, q in enumerate(out.qids) for m, values in columns]
    return entry


def _on_scale(measure, value):
    """A summary value (on the paper's scale, :func:`nclue.core.metrics.summary`) on ``measure``'s scale."""
    paper = measure_table.MEASURES[measure.name].scale
    if value is None or paper == measure.scale:
        return value
    return value * measure.scale / paper


def _per_query_value(measure, value):
    """A query's value in the measure's unit (``scale`` times it: points 0/100, Gold-NDCG x100), so that the
    per-query rows average to the total."""
    if value is None:
        return None
    return measure.scale * value if measure.scale != 1.0 else value


def _synthetic(inst):
    """Whether ``inst``'s release is synthetic, as MANIFEST.json's ``natures`` records it (its top-level flag for
    a manifest without natures); None when the manifest is unusable."""
    try:
        manifest = integrity.load_manifest(inst.root)
    except Exception:            # noqa: BLE001 -- an unusable manifest was already reported by verification
        return None
    natures = manifest.get("natures")
    if isinstance(natures, dict) and inst.base in natures:
        return natures[inst.base] == SYNTHETIC_NATURE
    return manifest.get("synthetic")
