"""The pip lock files and environment.yml must list the same exact versions."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pins(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, sep, version = line.partition("==")
            assert sep, f"{path.name}: '{line}' is not pinned with =="
            out[name.lower()] = version
    return out


def environment_pins() -> dict[str, str]:
    out = {}
    for line in (ROOT / "environment.yml").read_text().splitlines():
        m = re.match(r"^\s+- ([A-Za-z0-9_.\-\[\]]+)==(\S+)$", line)
        if m:
            out[m.group(1).lower()] = m.group(2)
    return out


def test_environment_yml_agrees_with_the_locks():
    lock = pins(ROOT / "requirements.lock") | pins(ROOT / "requirements-test.lock")
    assert environment_pins() == lock


def test_key_packages_are_pinned():
    lock = pins(ROOT / "requirements.lock") | pins(ROOT / "requirements-test.lock")
    assert lock["torch"] == "2.13.0"  # an unpinned torch pulls a multi-GB CUDA build
    assert lock["jupyter-book"].startswith("1.")
    for name in ("papermill", "nbval", "matplotlib", "numpy", "pytest", "tqdm"):
        assert name in lock, name


def test_the_cluster_lock_pins_the_cluster_extra_as_the_test_lock_does():
    """`make cluster-env` installs requirements-cluster.lock (the cluster extra: Dask distributed and dask-jobqueue)
    on top of requirements.lock: the same versions as the test environment's, none of the runtime's repeated."""
    cluster = pins(ROOT / "requirements-cluster.lock")
    assert {"distributed", "dask", "dask-jobqueue"} <= set(cluster)
    test = pins(ROOT / "requirements-test.lock")
    assert {name: test.get(name) for name in cluster} == cluster
    assert not set(cluster) & set(pins(ROOT / "requirements.lock"))
