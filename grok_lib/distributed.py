"""Sweeps past one machine: the same run store, filled by the workers of a Dask cluster.

``run_all_on(client, configs)`` sends every missing stack of a sweep (see
:func:`grok_lib.runs.missing_groups`) to the cluster as one task each; the workers train and write into the run store (a folder every worker can
see: the same disk for a LocalCluster, a shared filesystem on a cluster), and the
histories are then read back from it. The default stays in-process (:func:`runs.run_all`);
a cluster only changes *where* runs are trained, never their numbers or their keys.

Every process (this one and each worker) must import ``grok_lib`` before numpy
or torch, so that all compute in the pinned arithmetic (grok_lib/arithmetic.py);
``scripts/sweep_on_dask.py`` does this and checks each worker's arithmetic
before it sends anything (DEVELOPING.md, "On a cluster (Dask)"). Locally::

    import grok_lib  # first: the pinned arithmetic, for the workers too
    from dask.distributed import Client, LocalCluster

    if __name__ == "__main__":  # the workers import this file
        with LocalCluster(n_workers=2, threads_per_worker=1) as cluster:
            with Client(cluster) as client:
                histories = run_all_on(client, configs)

On SLURM through dask-jobqueue each job exports the pins before its worker
starts, and the store is a folder every node sees::

    pins = "export $(python3.11 grok_lib/arithmetic.py --env)"
    cluster = SLURMCluster(cores=8, memory="32GB",
                           walltime="02:00:00",
                           job_script_prologue=["cd /path/to/repo", pins])
    cluster.scale(jobs=4)
    histories = run_all_on(Client(cluster), configs,
                           store_root="/shared/grok-store")
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

from .history import History
from .plans import plan
from .arithmetic import arithmetic_id
from .runs import missing_groups, train_task
from .store import RunStore


def run_all_on(client, configs: Sequence, store_root: Optional[Path | str] = None,
               stack: int | str = "auto") -> list[History]:
    """The histories of ``configs``, in order, with the missing ones trained on ``client``'s cluster.

    The missing runs go out as the groups of :func:`runs.missing_groups` (one task per
    group: a stack of ``stack`` members, or one run of a kind that does not stack), each
    run by :func:`runs.train_task` on a worker. ``store_root`` must be visible to every
    worker (default: the local run store). Raises the first worker error.
    """
    store = RunStore(Path(store_root) if store_root is not None else None)
    root = str(store.root.resolve())
    plans = [plan(c) for c in configs]
    tasks = [[p.config for p in group] for group in missing_groups(plans, store, stack)]
    # each worker checks it computes in this process's arithmetic (else its keys would not be ours)
    client.gather([client.submit(train_task, task, root, None, arithmetic_id(), pure=False) for task in tasks])
    histories = []
    for p in plans:
        history = store.load(p.key)
        if history is None:
            raise RuntimeError(
                f"the cluster did not leave run {p.key} in {root}: is store_root shared with the workers, and do they "
                f"resolve device={getattr(p.config, 'device', 'cpu')!r} as this process does (set device='cpu' or "
                f"'cuda' explicitly)?")
        histories.append(history)
    return histories
