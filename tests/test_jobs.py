"""``--jobs``: the claim files computed in worker processes give byte-identical reports (issue 19)."""

import os

from conftest import run_reproduce


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


def test_default_jobs_is_the_cores_available():
    from nclue.harness.runner import default_jobs

    assert 1 <= default_jobs() <= (os.cpu_count() or 1)
