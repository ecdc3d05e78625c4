"""Sweeps on a real Dask LocalCluster (2 worker processes on loopback) equal the in-process
sweep and land in the same run store."""

import dataclasses

import numpy as np
import pytest


from grok_lib.paper_a.dln import config as deep_linear
from grok_lib.paper_a.config import profile_config
from grok_lib.plans import run_key
from grok_lib.runs import run_all
from grok_lib.store import RunStore

distributed = pytest.importorskip("distributed")


@pytest.mark.train
def test_local_cluster_sweep_equals_in_process(tmp_path):
    from grok_lib.distributed import run_all_on

    base = profile_config("ci", epochs=100, eval_every=20, device="cpu")
    configs = [dataclasses.replace(base, weight_decay=wd) for wd in (0.5, 1.0)]
    configs += [dataclasses.replace(base, width=24, weight_decay=wd) for wd in (0.5, 1.0)]  # a second stack
    configs.append(deep_linear.sweep("ci", depths=(2,), runs=(("gd", 1e-2),))[0])
    cluster_store = tmp_path / "cluster"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        remote = run_all_on(client, configs, store_root=cluster_store, stack=2)
        log = client.get_worker_logs()
    assert len(log) == 2  # two real worker processes
    local = run_all(configs, RunStore(tmp_path / "local"), progress=False)  # auto: one by one on CPU
    for c, r, l in zip(configs, remote, local):
        assert r.meta["key"] == l.meta["key"] == run_key(c, "cpu")
        assert RunStore(cluster_store).has(r.meta["key"])  # landed in the store the workers were given
        for name in l.metrics:
            np.testing.assert_array_equal(r[name], l[name], err_msg=name)
    assert [h.meta.get("stacked_with") for h in remote[:4]] == [2, 2, 2, 2]
