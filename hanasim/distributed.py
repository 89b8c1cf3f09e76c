"""Running batches on a Dask cluster.

The local default is numba threads on one machine.  With ``cluster="local:N"`` a Dask
LocalCluster of N worker processes is started for the run; with ``cluster="tcp://host:8786"``
an existing scheduler is used.  Every batch becomes one Dask task; each worker runs it with its
own numba threads and returns integer counters, which are summed here.  Since a batch's counters
depend only on the seed and the sessions it covers, the table is bit-identical to a local run.
"""
from __future__ import annotations

import contextlib


def _client(cluster: str):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ValueError("--cluster needs Dask: python3 -m pip install 'dask[distributed]'") from None
    if cluster.startswith("local:"):
        n = cluster.split(":", 1)[1]
        if not n.isdigit() or int(n) < 1:
            raise ValueError(f"cluster {cluster!r}: use local:N with N a positive whole number")
        lc = LocalCluster(n_workers=int(n), threads_per_worker=1, processes=True,
                          dashboard_address=None)
        return Client(lc), lc
    if cluster.startswith("tcp://"):
        try:
            return Client(cluster, timeout="10s"), None
        except OSError as e:
            raise ValueError(f"cannot reach the Dask scheduler at {cluster}: {e}") from None
    raise ValueError(f"cluster {cluster!r}: use local:N or tcp://host:port")


@contextlib.contextmanager
def dask_executor(cluster: str | None):
    """``executor(fn, argument_tuples)`` for :func:`engine.runner.run_batches`, or None."""
    if not cluster:
        yield None
        return
    client, local = _client(cluster)

    def executor(fn, args):
        from dask.distributed import as_completed

        futures = [client.submit(fn, *a, pure=False) for a in args]
        index = {f.key: i for i, f in enumerate(futures)}
        # Hand results back in batch order (checkpoints and blocks are indexed by batch)
        # while the cluster finishes them in any order.
        finished = {}
        next_i = 0
        for fut in as_completed(futures):
            finished[index[fut.key]] = fut.result()
            while next_i in finished:
                yield finished.pop(next_i)
                next_i += 1

    try:
        yield executor
    finally:
        client.close()
        if local is not None:
            local.close()
