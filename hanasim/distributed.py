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

A cluster left without any worker (all died and none came back: workers killed again and again
while they start) would make Dask wait for ever: after ``$HANASIM_NO_WORKER_TIMEOUT`` seconds
(default 60) with no worker, the run ends with one ``ExecutorError`` saying so (with
``--checkpoint``, the finished batches are kept for the same command to resume).

Before the first batch the kernel is made ready where the batches run (:func:`_ready`), so
that a worker's compile is not a silent wait.
"""
from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
import warnings

from .engine.runner import ExecutorError

TIMEOUT_ENV = "HANASIM_CLUSTER_TIMEOUT"
DEFAULT_TIMEOUT_S = 10.0
#: how long a run waits on a cluster with no worker (all died, none came back) before it
#: stops: a worker killed again and again while it starts leaves none, and Dask waits forever
WORKERS_ENV = "HANASIM_NO_WORKER_TIMEOUT"
DEFAULT_NO_WORKER_S = 60.0
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


def no_worker_timeout() -> float:
    text = os.environ.get(WORKERS_ENV, "").strip()
    try:
        value = float(text) if text else DEFAULT_NO_WORKER_S
    except ValueError:
        value = -1.0
    if not 0 < value <= 86400:
        raise ValueError(f"{WORKERS_ENV}={text!r}: give seconds, a number from 0 to 86400")
    return value


def check_address(cluster: str) -> None:
    """The form of a ``cluster`` argument, checked before any work."""
    no_worker_timeout()
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


def _script_hint() -> str:
    """Why a local cluster may not start from a script: Dask starts its workers by importing
    the script again, which starts the run again unless it sits under ``if __name__ ==
    "__main__":``.  Said only when a script (not the CLI, not Jupyter) is running."""
    import sys

    main = sys.modules.get("__main__")
    if getattr(main, "__spec__", None) is not None or not getattr(main, "__file__", None):
        return ""  # python -m ..., or an interactive session or Jupyter: not a script
    if getattr(getattr(main, "main", None), "__module__", "") == "hanasim.cli":
        return ""  # the 'hanasim' command's own entry script
    return (f" (a script that starts a local cluster must run under 'if __name__ == "
            f"\"__main__\":': Dask's workers import {os.path.basename(main.__file__)} again)")


_TRACKER_QUIET = "ignore::UserWarning:multiprocessing.resource_tracker"


def _quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker, if it is not running, without its warnings.
    A Ctrl-C in the moment a local cluster spawns its workers leaves a semaphore half made;
    the tracker, a process of its own, cleans it up after hanasim has exited and warns about
    it in four lines, after the one line that said the run was interrupted.  The tracker
    takes its warning filters from ours when it starts, so the filter is set just for that."""
    import sys
    from multiprocessing import resource_tracker

    sys.warnoptions.append(_TRACKER_QUIET)
    try:
        resource_tracker.ensure_running()
    except Exception:  # noqa: BLE001  (no tracker: nothing to quieten)
        pass
    finally:
        sys.warnoptions.remove(_TRACKER_QUIET)


def _client(cluster: str):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ValueError("--cluster needs Dask: python3 -m pip install 'dask[distributed]'") from None
    check_address(cluster)
    if cluster.startswith("local:"):
        n = int(cluster.split(":", 1)[1])
        _quiet_resource_tracker()
        # The scheduler and the worker processes share our stderr: Dask's logs stay out of it
        # (a Ctrl-C makes workers warn about every cancelled task; dying workers make the
        # scheduler log errors); a failure reaches the user as one line from the executor.
        try:
            lc = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                              dashboard_address=None, silence_logs=logging.CRITICAL)
        except KeyboardInterrupt:
            _forget_clusters()
            raise
        except Exception as e:  # noqa: BLE001  (a nanny that fails to start, no free port...)
            _forget_clusters()
            workers = f"{n} worker process" + ("es" if n != 1 else "")
            raise ExecutorError(f"cannot start a Dask cluster of {workers} ({cluster}): "
                                f"{_first_line(e)}{_script_hint()}") from None
        try:
            return Client(lc), lc
        except BaseException as e:
            with _quiet(), contextlib.suppress(Exception):
                lc.close()
            if isinstance(e, Exception):
                raise ExecutorError(f"cannot connect to the Dask cluster {cluster}: "
                                    f"{_first_line(e)}") from None
            raise
    timeout = connect_timeout()
    probe(cluster, timeout)
    try:
        return Client(cluster, timeout=f"{timeout}s"), None
    except Exception as e:  # noqa: BLE001  (one line naming the address, whatever went wrong)
        raise ValueError(f"cannot use the Dask scheduler at {cluster}: {_first_line(e)}") from None


class _HalfStarted(logging.Filter):
    """Drops asyncio's report, at exit, of the nannies a stopped start left unfinished."""

    def filter(self, record):
        return "Nanny failed to start" not in record.getMessage()


def _forget_clusters():
    """A LocalCluster whose start failed (or was interrupted) is still registered for closing
    at exit, where closing it prints tracebacks about its half-started processes: close what
    can be closed now, quietly, and drop the rest from that list."""
    asyncio_log = logging.getLogger("asyncio")
    if not any(isinstance(f, _HalfStarted) for f in asyncio_log.filters):
        asyncio_log.addFilter(_HalfStarted())
    with _quiet():
        try:
            from distributed.deploy import spec
        except ImportError:
            return
        clusters = getattr(spec.SpecCluster, "_instances", None)
        for c in list(clusters or ()):
            with contextlib.suppress(BaseException):
                c.close(timeout=2)
            with contextlib.suppress(Exception):
                clusters.discard(c)


def _failure(cluster: str, e: BaseException) -> str:
    """What went wrong on the cluster, in words (Dask's own exceptions say it in its terms)."""
    name = type(e).__name__
    if name == "KilledWorker":
        return (f"the Dask workers of {cluster} died running a batch, again and again (out of "
                "memory, or killed)")
    if isinstance(e, __import__("concurrent.futures").futures.CancelledError):
        return f"the Dask scheduler of {cluster} stopped (or lost this client) during the run"
    if name in ("CommClosedError", "StreamClosedError") or isinstance(e, (OSError,
                                                                        TimeoutError)):
        return f"lost the connection to the Dask cluster {cluster} ({_first_line(e)})"
    return f"the Dask cluster {cluster} failed: {name}: {_first_line(e)}"


@contextlib.contextmanager
def _no_logs():
    """Dask's loggers silent: a client that loses its scheduler logs each reconnection
    attempt with a traceback; what failed reaches the user as one line from the executor.
    Dask configures some of its loggers one by one (``distributed.client``), so each is set."""
    prefixes = ("distributed", "tornado", "asyncio")
    names = [n for n in list(logging.root.manager.loggerDict) if n.startswith(prefixes)]
    loggers = [logging.getLogger(n) for n in {*prefixes, *names}]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


@contextlib.contextmanager
def _quiet():
    """Closing a client with tasks still running (after Ctrl-C) makes Dask log and warn about
    cancelled futures; the user already knows the run was interrupted."""
    with _no_logs(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


class _Watch:
    """Watches, in a thread, that the cluster has a worker: one that has had none for
    ``wait`` seconds (all died, and none came back: killed while starting, again and again)
    cancels the batches in flight, so the run ends with :attr:`reason` instead of waiting
    forever (Dask waits for a worker as long as it takes)."""

    TICK = 0.5

    def __init__(self, client, cluster: str, cancel):
        self.client, self.cluster, self.cancel = client, cluster, cancel
        self.wait = no_worker_timeout()
        self.reason = None
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="hanasim-dask-watch")

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopped.set()
        self.thread.join(5)

    def _workers(self):
        try:
            return len(self.client.nthreads())
        except Exception:  # noqa: BLE001  (a lost scheduler: the run's own error says it)
            return None

    def _run(self):
        import time

        since = None
        while not self.stopped.wait(self.TICK):
            n = self._workers() if self.reason is None else 0
            if n != 0:
                since = None
                continue
            since = since if since is not None else time.monotonic()
            if self.reason is None and time.monotonic() - since >= self.wait:
                self.reason = (f"the Dask workers of {self.cluster} died and none came back "
                               f"within {self.wait:g} s (killed, or unable to start)")
            if self.reason is not None:  # every tick: a batch submitted meanwhile goes too
                with _quiet(), contextlib.suppress(Exception):
                    self.cancel()


#: seconds a remote cluster's workers may take to load a kernel before the wait is said
READY_SAY_AFTER_S = 1.0


def _ready(client, local, cluster: str, fn, args, what: str) -> None:
    """Before the first batch: the kernel ready where the batches run, the wait said.  The
    compile notice of this process cannot see a worker compile, so without this a cold
    cluster run waited in silence.  A local cluster's workers share this machine's kernel
    cache: the kernel is loaded, or compiled with the usual notice, here, and the workers
    load it (two workers compiling at once on 2 cores took 15 s, one compile 9).  A remote
    cluster's workers have caches of their own: each loads it, or compiles it if it has
    not got it, and a wait of more than a second is said with how to avoid it."""
    if local is not None:
        fn(*args)
        return
    from .compiling import said_if_slow

    try:
        with said_if_slow(f"waiting for the workers of {cluster} to load the {what} kernel; a "
                          "worker that does not have it in its cache compiles it first (once; "
                          "'hanasim warmup' on each worker does it ahead of time)",
                          after=READY_SAY_AFTER_S):
            client.run(fn, *args)
    except (KeyboardInterrupt, ExecutorError):
        raise
    except Exception as e:  # noqa: BLE001  (Dask's failures, whatever their class)
        raise ExecutorError(_failure(cluster, e)) from None


@contextlib.contextmanager
def dask_executor(cluster: str | None):
    """``executor(fn, argument_tuples)`` for :func:`engine.runner.run_batches`, or None.

    A failure of the cluster (a scheduler or workers that die) is an ``ExecutorError``
    saying so in one line; ``run_batches`` adds what was kept."""
    if not cluster:
        yield None
        return
    client, local = _client(cluster)
    live = {}  # future key -> (batch position, future): submitted, not yet handed back

    def executor(fn, args):
        from dask.distributed import as_completed

        args = iter(args)
        try:
            threads = sum(client.nthreads().values())
        except Exception:  # noqa: BLE001
            threads = 1
        # A bounded number of batches in flight (a run may have millions): enough to keep
        # every worker busy, while results come back in any order.
        window = 4 * max(1, threads) + 4
        done = as_completed()
        finished = {}
        submitted = next_i = 0

        def fill():
            nonlocal submitted
            while len(live) + len(finished) < window:
                a = next(args, None)
                if a is None:
                    return
                f = client.submit(fn, *a, pure=False)
                live[f.key] = (submitted, f)
                done.add(f)
                submitted += 1

        watch = _Watch(client, cluster, lambda: client.cancel([f for _, f in live.values()]))
        try:
            with watch:
                fill()
                for fut in done:
                    i, _ = live[fut.key]
                    finished[i] = fut.result()
                    del live[fut.key]  # after its result: a batch waited on can be cancelled
                    # Hand results back in batch order (checkpoints and blocks are indexed
                    # by batch) while the cluster finishes them in any order.
                    while next_i in finished:
                        yield finished.pop(next_i)
                        next_i += 1
                    if watch.reason:  # no worker: submit nothing more, end with the reason
                        raise ExecutorError(watch.reason)
                    fill()
        except (KeyboardInterrupt, GeneratorExit, ExecutorError):
            raise
        except Exception as e:  # noqa: BLE001  (Dask's failures, whatever their class)
            raise ExecutorError(watch.reason or _failure(cluster, e)) from None

    # engine.runner.run_batches calls it with a batch of no sessions before the first batch
    executor.ready = lambda fn, args, what: _ready(client, local, cluster, fn, args, what)
    failed = False
    try:
        with _no_logs():
            yield executor
    except BaseException:
        failed = True
        raise
    finally:
        with _quiet() if failed else contextlib.nullcontext():
            if failed and live:
                with contextlib.suppress(Exception):
                    client.cancel([f for _, f in live.values()])
            with contextlib.suppress(Exception) if failed else contextlib.nullcontext():
                client.close(timeout=5) if failed else client.close()
                if local is not None:
                    # bounded: a nanny still restarting a worker that keeps dying
                    local.close(timeout=10) if failed else local.close()
            if failed and local is not None:
                _forget_clusters()
