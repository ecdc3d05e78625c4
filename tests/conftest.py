import pytest

from grok_lib.config import profile_config
from grok_lib.store import RunStore


@pytest.fixture
def ci_config():
    """A config that trains in about a second on a CPU."""
    return profile_config("ci", device="cpu")


@pytest.fixture
def store(tmp_path):
    return RunStore(tmp_path / "runs")


@pytest.fixture(autouse=True)
def _no_device_override(monkeypatch):
    # Tests say their device explicitly; a GROK_DEVICE in the caller's shell must not leak in.
    monkeypatch.delenv("GROK_DEVICE", raising=False)
