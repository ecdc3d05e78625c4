"""The training loop reads nothing back from the device between recorded steps.

On a GPU every host read (``.item()``, ``float()``, ``.tolist()``, ``.cpu()``, ``.numpy()``,
``bool()``) makes the host wait for the device. This test counts those calls outside the
recording, snapshot and checkpoint code, with the GPU's policy (no NaN check on unrecorded
steps), with the counter of ``benchmarks/gpu_check.py`` (one counter: the GPU check counts the same reads on the
GPU, for the eager and the captured trainer). It runs on the CPU here, and on CUDA where there is one.
"""

import pytest
import torch

from benchmarks.gpu_check import counted_host_reads, host_reads_outside_recording

from grok_lib.paper_a import train as train_module
from grok_lib.paper_a.config import profile_config


@pytest.mark.parametrize("device", ["cpu"] + (["cuda"] if torch.cuda.is_available() else []))
def test_no_host_reads_between_recorded_steps(device):
    config = profile_config("ci", epochs=300, eval_every=100, device=device)
    result = host_reads_outside_recording(lambda: [train_module.train(config, progress=False, device=device)])
    assert result["host_reads"] == {}, f"host reads outside the recorded steps' bookkeeping: {result['host_reads']}"
    assert result["recorded_steps"] > 3  # the recorded steps themselves did run


def test_the_counter_sees_a_host_read():
    counter = {"active": True}
    with counted_host_reads(counter):
        float(torch.ones(1))
        torch.ones(2).tolist()
    assert counter["__float__"] == 1 and counter["tolist"] == 1
