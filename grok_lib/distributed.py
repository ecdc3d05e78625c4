"""Sweeps past one machine: the same run store, filled by the workers of a Dask cluster.

``run_all_on(client, configs)`` sends every missing stack of a sweep (see
:func:`grok_lib.store.missing_stacks`) and every missing deep-linear run to the cluster as
one task each; the workers train and write into the run store (a folder every worker can
see: the same disk for a LocalCluster, a shared filesystem on a cluster), and the
histories are then read back from it. The default stays in-process (:func:`store.run_all`);
a cluster only changes *where* runs are trained, never their numbers or their keys.

A local cluster (what the tests use)::

    from dask.distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        histories = run_all_on(client, configs)

A SLURM cluster through dask-jobqueue (see the README)::

    from dask_jobqueue import SLURMCluster
    cluster = SLURMCluster(cores=8, memory="32GB", walltime="02:00:00", job_extra_directives=["--gres=gpu:1"])
    cluster.scale(jobs=4)
    histories = run_all_on(Client(cluster), configs, store_root="/shared/grok-store")
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

from .config import resolve_device
from .deep_linear import DeepLinearConfig
from .history import History
from .store import RunConfig, RunStore, missing_tasks, run_key, train_task


def run_all_on(client, configs: Sequence[RunConfig], store_root: Optional[Path | str] = None,
               stack: int | str = "auto") -> list[History]:
    """The histories of ``configs``, in order, with the missing ones trained on ``client``'s cluster.

    The missing runs go out as the tasks of :func:`store.missing_tasks` (one per stack of
    ``stack`` members, one per deep-linear run), each run by :func:`store.train_task` on a
    worker. ``store_root`` must be visible to every worker (default: the local run store).
    Raises the first worker error.
    """
    store = RunStore(Path(store_root) if store_root is not None else None)
    root = str(store.root.resolve())
    futures = [client.submit(train_task, task, root, pure=False) for task in missing_tasks(configs, store, stack)]
    client.gather(futures)  # raises the first worker error
    histories = []
    for c in configs:
        key = run_key(c, "cpu") if isinstance(c, DeepLinearConfig) else run_key(c, resolve_device(c.device))
        history = store.load(key)
        if history is None:
            raise RuntimeError(
                f"the cluster did not leave run {key} in {root}: is store_root shared with the workers, and do they "
                f"resolve device={c.device!r} as this process does (set device='cpu' or 'cuda' explicitly)?")
        histories.append(history)
    return histories
