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
