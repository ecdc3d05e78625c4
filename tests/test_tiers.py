"""make test's notebook session applies the comparison tier's rule as its tests session does (the root
conftest.py): in the envelope tier no nbval cell is compared digit by digit, in the exact tier the checked cells
are. Collected as ``make test`` and ``make test-part`` run it, read from ``make -n``."""

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def notebook_session(target: str, *make_args: str) -> list[str]:
    """The arguments ``make <target>`` gives its nbval session's pytest (``pytest notebooks…``), from ``make -n``."""
    out = subprocess.run(["make", "-n", target, *make_args], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if " -m pytest notebooks" in line:
            words = shlex.split(line.split(";")[0])
            return words[words.index("pytest") + 1:]
    raise AssertionError(f"make -n {target} runs no 'pytest notebooks' session:\n{out}")


def collected(args: list[str], tier: str, tmp_path: Path) -> dict[str, bool]:
    """nbval cell id -> compared digit by digit, as the session with ``args`` collects it in a forced ``tier``."""
    out = tmp_path / tier
    env = {**os.environ, "GROK_PROBE_TIER": tier, "GROK_PROBE_OUT": str(out),
           "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-m", "pytest", *args, "--collect-only", "-q", "-p", "tier_probe"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    cells: dict[str, bool] = {}
    for f in out.glob("*.json"):
        cells |= json.loads(f.read_text())
    return cells


@pytest.mark.parametrize("target", [("test",), ("test-part", "PART=c")], ids=["make test", "make test-part PART=c"])
def test_the_notebook_session_compares_digits_only_in_the_exact_tier(target, tmp_path):
    args = notebook_session(*target)
    envelope, exact = collected(args, "envelope", tmp_path), collected(args, "exact", tmp_path)
    assert envelope and set(envelope) == set(exact), "the session collected no nbval cell, or other cells per tier"
    assert not any(envelope.values()), f"compared digit by digit in the envelope tier: {[c for c, v in envelope.items() if v][:5]}"
    checked = [c for c, v in exact.items() if v]
    assert checked, "in the exact tier no nbval cell is compared: the book's checked cells must be"
