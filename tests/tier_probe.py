"""A pytest plugin for tests/test_tiers.py (loaded with ``-p tier_probe``): forces the comparison tier to
``GROK_PROBE_TIER`` and writes, per process, which collected nbval cells would be compared digit by digit into
``GROK_PROBE_OUT/<pid>.json`` (the controller and each xdist worker collect on their own)."""

import json
import os
from pathlib import Path

from grok_lib import arithmetic


def pytest_configure(config):
    forced = os.environ["GROK_PROBE_TIER"]
    arithmetic.tier = lambda: forced  # the root conftest reads the tier through the module, at collection


def pytest_collection_finish(session):
    from nbval.plugin import IPyNbCell

    cells = {item.nodeid: bool(item.options.get("check")) for item in session.items if isinstance(item, IPyNbCell)}
    out = Path(os.environ["GROK_PROBE_OUT"])
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{os.getpid()}.json").write_text(json.dumps(cells))
