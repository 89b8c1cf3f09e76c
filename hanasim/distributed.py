"""Running batches on a Dask cluster.

The local default is numba threads on one machine.  With ``cluster="local:N"`` a Dask
LocalCluster of N worker processes is started for the run; with ``cluster="tcp://host:8786"``
an existing scheduler is used.  Every batch becomes one Dask task; each worker runs it with its
own numba threads and returns integer counters, which are summed here.  Since a batch's counters
depend only on the seed and the sessions it covers, the table is bit-identical to a local run.

Connecting to an address is bounded: before Dask's client is made, one ``identity`` request is
sent with a timeout (``$HANASIM_CLUSTER_TIMEOUT`` seconds, default 10), because Dask's own
client waits forever on a listener that accepts and never answers, and reads a garbage reply
as a length of exabytes.  Any failure is one ``ValueError`` naming the address.
"""
from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
import warnings

TIMEOUT_ENV = "HANASIM_CLUSTER_TIMEOUT"
DEFAULT_TIMEOUT_S = 10.0
_TCP = re.compile(r"tcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})")


def connect_timeout() -> float:
    text = os.environ.get(TIMEOUT_ENV, "").strip()
    try:
        value = float(text) if text else DEFAULT_TIMEOUT_S
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise ValueError(f"{TIMEOUT_ENV}={text!r}: give seconds, a number from 0 to 3600")
    return value


def check_address(cluster: str) -> None:
    """The form of a ``cluster`` argument, checked before any work."""
    if cluster.startswith("local:"):
        n = cluster.split(":", 1)[1]
        if not re.fullmatch(r"[0-9]{1,4}", n) or int(n) < 1:
            raise ValueError(f"cluster {cluster!r}: use local:N with N a positive whole number")
        return
    if cluster.startswith("tcp://"):
        m = _TCP.fullmatch(cluster)
        if not m or not 0 < int(m.group(2)) < 65536:
            raise ValueError(f"cluster {cluster!r}: use tcp://host:port (port 1 to 65535)")
        connect_timeout()
        return
    raise ValueError(f"cluster {cluster!r}: use local:N or tcp://host:port")


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def probe(address: str, timeout: float) -> None:
    """Ask ``address`` who it is, within ``timeout`` seconds; ValueError unless a Dask scheduler
    answers.  Runs on its own event loop in a thread, so it also works inside Jupyter."""
    import asyncio

    async def ask():
        from distributed.comm import connect

        comm = await asyncio.wait_for(connect(address, timeout=timeout), timeout)
        try:
            await asyncio.wait_for(comm.write({"op": "identity", "reply": True}), timeout)
            return await asyncio.wait_for(comm.read(), timeout)
        finally:
            comm.abort()

    result = {}

    def run():
        try:
            result["reply"] = asyncio.run(ask())
        except BaseException as e:  # noqa: BLE001  (MemoryError on a garbage length, too)
            result["error"] = e

    worker = threading.Thread(target=run, daemon=True, name="hanasim-dask-probe")
    worker.start()
    worker.join(3 * timeout + 1)
    err = result.get("error")
    if worker.is_alive() or isinstance(err, (asyncio.TimeoutError, TimeoutError)):
        raise ValueError(f"no Dask scheduler answered at {address} within {timeout:g} s")
    if isinstance(err, ConnectionRefusedError) or (
            isinstance(err, OSError) and "refused" in str(err).lower()):
        raise ValueError(f"cannot reach the Dask scheduler at {address}: connection refused")
    if err is not None and isinstance(err, OSError):
        raise ValueError(f"cannot reach the Dask scheduler at {address}: {_first_line(err)}")
    reply = result.get("reply")
    if err is not None or not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        raise ValueError(f"{address} is not a Dask scheduler (it does not answer in Dask's "
                         "protocol)")


def _client(cluster: str):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ValueError("--cluster needs Dask: python3 -m pip install 'dask[distributed]'") from None
    check_address(cluster)
    if cluster.startswith("local:"):
        # Worker processes share our stderr: only their errors belong there (a Ctrl-C makes
        # them warn about every cancelled task).
        lc = LocalCluster(n_workers=int(cluster.split(":", 1)[1]), threads_per_worker=1,
                          processes=True, dashboard_address=None, silence_logs=logging.ERROR)
        return Client(lc), lc
    timeout = connect_timeout()
    probe(cluster, timeout)
    try:
        return Client(cluster, timeout=f"{timeout}s"), None
    except Exception as e:  # noqa: BLE001  (one line naming the address, whatever went wrong)
        raise ValueError(f"cannot use the Dask scheduler at {cluster}: {_first_line(e)}") from None


@contextlib.contextmanager
def _quiet():
    """Closing a client with tasks still running (after Ctrl-C) makes Dask log and warn about
    cancelled futures; the user already knows the run was interrupted."""
    loggers = [logging.getLogger(n) for n in ("distributed", "tornado", "asyncio")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


@contextlib.contextmanager
def dask_executor(cluster: str | None):
    """``executor(fn, argument_tuples)`` for :func:`engine.runner.run_batches`, or None."""
    if not cluster:
        yield None
        return
    client, local = _client(cluster)
    futures = []

    def executor(fn, args):
        from dask.distributed import as_completed

        futures.extend(client.submit(fn, *a, pure=False) for a in args)
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

    interrupted = False
    try:
        yield executor
    except BaseException:
        interrupted = True
        raise
    finally:
        with _quiet() if interrupted else contextlib.nullcontext():
            if interrupted and futures:
                with contextlib.suppress(Exception):
                    client.cancel(futures)
            with contextlib.suppress(Exception) if interrupted else contextlib.nullcontext():
                client.close()
                if local is not None:
                    local.close()
