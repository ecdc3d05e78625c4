"""scripts/sweep_on_dask.py, run as DEVELOPING.md's "On a cluster (Dask)" writes it: a LocalCluster of two worker
processes trains a chapter's ci runs into the store it is given, bitwise equal to the same runs trained in-process;
bad input stops it in one line before any cluster starts."""

import dataclasses
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from grok_lib import arithmetic
from grok_lib.chapters import chapter, flat
from grok_lib.paths import parts
from grok_lib.plans import plan
from grok_lib.runs import run_all
from grok_lib.store import RunStore

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = "scripts/sweep_on_dask.py"


def documented_command() -> list[str]:
    """The script's ci command line in DEVELOPING.md's Dask section (its arguments after the script)."""
    text = (ROOT / "DEVELOPING.md").read_text()
    section = text.split("## On a cluster (Dask)\n", 1)[1].split("\n## ", 1)[0]
    line = re.search(rf"^\.venv/bin/python {re.escape(SCRIPT)} (--profile ci .*)$", section, re.M)
    assert line, f"DEVELOPING.md's Dask section has no `.venv/bin/python {SCRIPT} --profile ci ...` line"
    return shlex.split(line.group(1).split("#", 1)[0])


def run_script(args: list[str], timeout: int = 300) -> subprocess.CompletedProcess:
    """The script in a fresh interpreter, from the repository, with none of the pins in its environment (it must
    pin itself: grok_lib imported before Dask) and no GROK_STORE (the command line names the store)."""
    env = {k: v for k, v in os.environ.items() if k not in arithmetic.VARIABLES and k != "GROK_STORE"}
    return subprocess.run([sys.executable, SCRIPT, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env=env | {"OMP_NUM_THREADS": "1"})


def with_store(args: list[str], store: Path) -> list[str]:
    assert "--store" in args, args
    i = args.index("--store")
    return args[:i + 1] + [str(store)] + args[i + 2:]


@pytest.mark.train
def test_the_documented_command_trains_a_chapter_on_a_local_cluster_as_in_process(tmp_path):
    pytest.importorskip("distributed")
    args = documented_command()
    assert args[args.index("--workers") + 1] == "2" and "--scheduler" not in args  # a LocalCluster of two workers
    store = tmp_path / "cluster"
    proc = run_script(with_store(args, store))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    lines = proc.stdout.strip().splitlines()
    assert lines[-1].startswith(f"5 runs of paper_a/fig1_loss_curves are in the run store {store} (5 trained"), lines
    assert sum(" landed: " in line for line in lines) == 5, proc.stdout  # a progress line per task

    fig1 = chapter("paper_a", "fig1_loss_curves")
    own = fig1.runs("ci")
    configs = [dataclasses.replace(c, device="cpu") for c in flat(own) + fig1.claim_runs(own)]
    local = run_all(configs, RunStore(tmp_path / "local"), progress=False)
    for c, l in zip(configs, local):
        key = plan(c).key
        assert l.meta["key"] == key and key in proc.stdout
        remote = RunStore(store).load(key)  # landed in the store the script was given, under the in-process key
        assert remote is not None, f"run {key} is not in {store}"
        for name in l.metrics:
            np.testing.assert_array_equal(remote[name], l[name], err_msg=name)

    again = run_script(with_store(args, store))  # a second call finds every run: no cluster, nothing trained
    assert again.returncode == 0 and "(all there already)" in again.stdout and "LocalCluster" not in again.stdout


@pytest.mark.parametrize("args, message", [
    (["--profile", "paper"], "--profile must be one of ci, default; got 'paper'"),
    (["--chapter", "paper_a/fig9"], "--chapter must be one of paper_a/fig1_loss_curves, "),
    (["--part", "paper_z"], f"--part must be one of {', '.join(parts())}; got 'paper_z'"),
    (["--workers", "0"], "--workers must be a positive integer; got 0"),
    (["--scheduler", "host:8786"], "--scheduler must be a scheduler address such as tcp://host:8786"),
    (["--store", "notebooks/runs"], "--store: run store "),
])
def test_bad_input_stops_in_one_line_before_any_cluster(tmp_path, args, message):
    store = tmp_path / "store"
    if "--store" not in args:
        args = [*args, "--store", str(store)]
    proc = run_script(["--workers", "2", *args] if "--workers" not in args and "--scheduler" not in args else args,
                      timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stdout == "" and proc.stderr.count("\n") == 1, proc.stdout + proc.stderr  # one line, nothing started
    assert proc.stderr.startswith("sweep_on_dask.py: error: ") and message in proc.stderr, proc.stderr
    assert not store.exists() and not (ROOT / "notebooks" / "runs").exists()
