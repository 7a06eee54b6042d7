"""``--jobs``: the claim files computed in worker processes give byte-identical reports (issue 19)."""

import os

from conftest import released, run_reproduce


def test_reports_are_byte_identical_for_any_number_of_jobs(mini_all, tmp_path):
    outputs = {}
    for jobs in ("1", "2", "3"):
        paths = [str(tmp_path / ("r%s.%s" % (jobs, ext))) for ext in ("json", "html", "xml")]
        code, out, err = run_reproduce("--data", mini_all, "--jobs", jobs, "--json", paths[0], "--html", paths[1],
                                       "--junit", paths[2], "--quiet")
        assert code == 0, out[-2000:]
        outputs[jobs] = [open(p, "rb").read() for p in paths]
    assert outputs["1"] == outputs["2"] == outputs["3"]


def test_jobs_must_be_positive(mini_all):
    code, _, err = run_reproduce("--data", mini_all, "--jobs", "0")
    assert code == 2 and "--jobs must be between 1 and" in err


def test_default_jobs_is_the_idle_cores_and_at_least_one():
    from nclue.run.runner import available_cores, default_jobs

    assert 1 <= default_jobs() <= available_cores() <= (os.cpu_count() or 1)
    # the one-minute load average takes cores away: a busy machine runs one process (issue 29)
    assert [default_jobs(cores=2, load=load) for load in (0.0, 0.4, 0.6, 1.0, 1.6, 7.0)] == [2, 2, 1, 1, 1, 1]
    assert default_jobs(cores=4, load=1.2) == 3


def _claim_documents(root):
    from nclue.core import integrity
    from nclue.core.jsonio import read_json
    from nclue.run import runner

    result = integrity.check(root)
    files = runner.claim_files(root, result)
    result.documents = {rel: read_json(os.path.join(root, *rel.split("/")), rel) for rel in files}
    return result, files


def test_a_partial_run_computes_and_preloads_only_its_levels(mini_all):
    from nclue.run.runner import requested_work

    result, files = _claim_documents(mini_all)
    compute, shared = requested_work(result, files, ("integrity",))
    assert [rel.rsplit("/", 1)[1] for rel in compute] == ["release.consistency.json"] and shared == set()
    compute, shared = requested_work(result, files, ("integrity", "scoring"))
    names = {rel.rsplit("/", 1)[1] for rel in compute}
    assert {"v1.matrix.json", "v1.scorecard.json", "release.consistency.json"} <= names
    assert not any(n.startswith(("v1.inference", "v1.sensitivity", "audit.", "paper.")) for n in names)
    # shared: what at least two of them read (every v1 ranking is read by the matrix and the scorecard)
    assert released("v1", "rankings/bm25_and.jsonl") in shared and released("v1", "qrels.jsonl") in shared
    # a document that could not be decoded is computed (and fails at once), never skipped
    result.documents.pop(compute[1])
    assert compute[1] in requested_work(result, files, ("integrity",))[0]


def test_work_that_one_file_dominates_runs_in_one_process(mini_all, monkeypatch):
    # --only integrity (one claim file) never forks, whatever --jobs says
    import multiprocessing

    from nclue.run.runner import run

    def refuse(*args, **kwargs):
        raise AssertionError("forked for a partial run that cannot pay")
    monkeypatch.setattr(multiprocessing, "get_context", refuse)
    result = run(mini_all, levels=("integrity",), jobs=2)
    assert result.counts()["fail"] == 0
