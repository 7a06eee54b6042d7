"""The shipped release was built by the builder's current configuration: every parameter recorded in
``data/v1/build.json`` and ``data/v2/build.json`` equals the code's ``full`` configuration.  A cheap
guard (``reproduce.py --deep`` is the full one): an edit of a configuration that is not followed by a
rebuild fails here, naming the parameter."""

import json
import os

import pytest
from conftest import REPO


def _json(obj):
    return json.loads(json.dumps(obj, sort_keys=True))


@pytest.mark.parametrize("release", ["v1", "v2"])
def test_build_json_parameters_are_the_codes_full_configuration(release):
    from nclue.builder import config as config_mod
    from nclue.builder import crosspage, sourceshift_instrument

    recorded = json.load(open(os.path.join(REPO, "data", release, "build.json"), encoding="utf-8"))
    assert recorded["config"] == "full"
    if release == "v1":
        cfg = config_mod.CONFIGS["full"]
        params = config_mod.provenance(cfg)
    else:
        cfg = sourceshift_instrument.SHIFT_CONFIGS["full"]
        params = config_mod.provenance(cfg, fitted=sourceshift_instrument.FITTED, exact=sourceshift_instrument.EXACT)
    want = _json(params)
    differing = sorted(k for k in set(want) | set(recorded["parameters"])
                       if want.get(k) != recorded["parameters"].get(k))
    assert not differing, ["%s: build.json %s, code %s" % (k, recorded["parameters"].get(k), want.get(k))
                           for k in differing]
    assert recorded["text"] == _json(crosspage.text_parameters(cfg.text))
    assert recorded["miner"] == _json(crosspage.miner_parameters(cfg.miner))


def test_a_rebuild_step_runs_in_a_child_and_its_failure_is_named():
    """Issue 60: --deep runs each build in a child interpreter (its memory is its own); a step whose child fails is
    one ChildFailed naming the step and the child's last line, and an unknown step is refused."""
    import tempfile

    from nclue.run.rebuild import ChildFailed, _in_child

    lines = []
    with tempfile.TemporaryDirectory() as empty:
        with pytest.raises(ChildFailed) as failed:
            _in_child("freeze", {"out": os.path.join(empty, "no-such-root")}, lines.append)
    assert failed.value.step == "freeze" and "the rebuild's freeze step failed in its child process" in str(failed.value)
    assert "error:" in str(failed.value) and "Traceback" not in str(failed.value)
    with pytest.raises(ChildFailed, match="unknown rebuild step 'nope'"):
        _in_child("nope", {}, lines.append)
