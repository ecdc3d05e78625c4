"""The training loop reads nothing back from the device between recorded steps.

On a GPU every host read (``.item()``, ``float()``, ``.tolist()``, ``.cpu()``, ``.numpy()``,
``bool()``) makes the host wait for the device. This test counts those calls outside the
recording, snapshot and checkpoint code, with the GPU's policy (no NaN check on unrecorded
steps). It runs on the CPU here, and on CUDA where there is one; ``benchmarks/gpu_check.py``
counts the same reads on the GPU, for the eager and the captured trainer.
"""

import contextlib

import pytest
import torch

from grok_lib.paper_a import train as train_module
from grok_lib.paper_a.config import profile_config

HOST_READS = ("item", "__float__", "__int__", "__bool__", "tolist", "cpu", "numpy")


@contextlib.contextmanager
def count_host_reads(counter: dict):
    originals = {name: getattr(torch.Tensor, name) for name in HOST_READS}

    def wrap(name, fn):
        def counted(self, *args, **kwargs):
            if counter["active"]:
                counter[name] = counter.get(name, 0) + 1
            return fn(self, *args, **kwargs)
        return counted

    for name, fn in originals.items():
        setattr(torch.Tensor, name, wrap(name, fn))
    try:
        yield counter
    finally:
        for name, fn in originals.items():
            setattr(torch.Tensor, name, fn)


def paused(counter, fn):
    """``fn`` with counting switched off (recording is allowed to read values back)."""
    def inner(*args, **kwargs):
        counter["active"] = False
        try:
            return fn(*args, **kwargs)
        finally:
            counter["active"] = True
    return inner


@pytest.mark.parametrize("device", ["cpu"] + (["cuda"] if torch.cuda.is_available() else []))
def test_no_host_reads_between_recorded_steps(monkeypatch, device):
    config = profile_config("ci", epochs=300, eval_every=100, device=device)
    counter = {"active": True}
    monkeypatch.setattr(train_module, "checks_every_step", lambda device: False)  # the GPU's policy
    for name in ("record", "record_updates", "snapshot", "state"):
        monkeypatch.setattr(train_module.StackRun, name, paused(counter, getattr(train_module.StackRun, name)))
    monkeypatch.setattr(train_module, "check_finite", paused(counter, train_module.check_finite))
    with count_host_reads(counter):
        counter["active"] = True
        history = train_module.train(config, progress=False, device=device)
        counter["active"] = False
    reads = {k: v for k, v in counter.items() if k != "active"}
    assert reads == {}, f"host reads outside the recorded steps' bookkeeping: {reads}"
    assert len(history.steps) > 3  # the recorded steps themselves did run


def test_the_counter_sees_a_host_read():
    counter = {"active": True}
    with count_host_reads(counter):
        float(torch.ones(1))
        torch.ones(2).tolist()
    assert counter["__float__"] == 1 and counter["tolist"] == 1
