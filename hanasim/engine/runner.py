"""Running a game kernel over sessions in batches of chunks: progress, checkpoints, executors.

Kernels take ``(first_session, n_sessions, chunk, out)`` and add into per-chunk counters (one
loop iteration per chunk); this module decides batch boundaries, runs a batch's chunks on
threads (:func:`run_threads`) and sums.  Because every
session has its own random stream and counters are integers, totals are identical for any
thread count, chunk size, batch order or machine, which is what makes three things exact:

* checkpoints: each finished batch is written atomically to a run directory, and a run that is
  interrupted (Ctrl-C, ``kill -9``) continues from the finished batches;
* executors: batches can run anywhere (a Dask cluster) and be summed in any order;
* blocks: groups of sessions kept apart as independent replicates (paired comparisons).

Batch boundaries depend only on the number of sessions and the chunk size, never on threads,
so a run may be resumed with a different thread count or on a cluster.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import zipfile
from typing import Callable

import numpy as np
from ..atomic import write_bytes

TARGET_ROUNDS_PER_CHUNK = 16384
#: a round with a lookahead player costs about a thousand greedy rounds: chunks this small keep
#: every thread busy on a run of a few thousand rounds (a chunk is one thread's work)
SLOW_ROUNDS_PER_CHUNK = 256
CHUNKS_PER_BATCH = 16
# 2: batch files carry the identity hash; the manifest its seed source.  3: and the sessions
# they hold (the batch plan depends on the run's policies: a batch is never summed into
# another plan's place)
CHECKPOINT_FORMAT = 3
TMP_PREFIX = ".tmp-"  # a batch being written; never read as a batch


class Interrupted(RuntimeError):
    """A run stopped by the user (Ctrl-C) or a signal; the message says what was kept and how
    to resume.  ``kept``: whether finished batches were kept in a checkpoint; ``signum``: the
    signal that stopped it; ``finished``/``total``: batches, for :meth:`in_run`."""

    def __init__(self, message, kept=False, signum=None, finished=None, total=None, rest=""):
        super().__init__(message)
        self.kept, self.signum = kept, signum
        self.finished, self.total, self.rest = finished, total, rest

    def in_run(self, index: int, count: int) -> "Interrupted":
        """This interruption of variant ``index`` (from 0) of ``count`` variants run one after
        another, counted over the whole run."""
        if count <= 1 or self.total is None:
            return self
        done, total = index * self.total + self.finished, count * self.total
        return Interrupted(f"{_stopped(self.signum)} after {done} of {total} batches (in "
                           f"variant {index + 1} of {count}){self.rest}", kept=self.kept,
                           signum=self.signum, finished=done, total=total, rest=self.rest)


class Stop(KeyboardInterrupt):
    """Raised by the CLI's handlers of SIGTERM and SIGHUP, so that a terminated run ends the
    way Ctrl-C ends it: finished batches kept, one line saying how to resume."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _why(e: BaseException) -> str:
    """An exception in a few words: an OSError's text without the path (the message names
    it), else the first line."""
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _stopped(signum) -> str:
    if signum is None:
        return "interrupted"
    import signal

    return f"stopped by {signal.Signals(signum).name}"


@contextlib.contextmanager
def variant(index: int, count: int):
    """Around variant ``index`` of ``count`` run one after another: an interruption is counted
    over the whole run ("after 17 of 112 batches"), not within the variant."""
    try:
        yield
    except Interrupted as e:
        raise e.in_run(index, count) from None


class CheckpointError(ValueError):
    """A checkpoint file that cannot be used (damaged, unreadable, another run's): a runtime
    failure naming the file, not a usage error (a ValueError for the API's callers)."""


class ExecutorError(RuntimeError):
    """Batches could not be run where they were sent (a Dask cluster that died); the message
    says what failed and, once :func:`run_batches` has added it, what was kept."""


def default_chunk(rounds_per_session: int, slow: bool = False) -> int:
    target = SLOW_ROUNDS_PER_CHUNK if slow else TARGET_ROUNDS_PER_CHUNK
    return max(1, target // max(1, rounds_per_session))


class BatchPlan:
    """(first session, number of sessions) of every batch, computed when asked: a run of 10**12
    lookahead rounds has hundreds of millions of batches, too many to list."""

    def __init__(self, n_sessions: int, chunk: int, start: int = 0):
        self.n_sessions, self.size, self.start = n_sessions, chunk * CHUNKS_PER_BATCH, start

    def __len__(self):
        return max(0, -(-(self.n_sessions - self.start) // self.size))

    def __getitem__(self, i: int) -> tuple[int, int]:
        if not 0 <= i < len(self):
            raise IndexError(i)
        first = self.start + i * self.size
        return first, min(self.size, self.n_sessions - first)

    def __iter__(self):
        return (self[i] for i in range(len(self)))


def batch_plan(n_sessions: int, chunk: int, start: int = 0) -> BatchPlan:
    """The batches of sessions ``start`` to ``n_sessions``."""
    return BatchPlan(n_sessions, chunk, start)


def run_batch(kernel, shapes, first, n, chunk, keep_chunks):
    """One batch: the kernel's counters summed over its chunks (and the chunks, if kept)."""
    n_chunks = -(-n // chunk)
    out = {k: np.zeros((n_chunks,) + tuple(shape), dtype=np.int64) for k, shape in shapes.items()}
    run_threads(kernel, first, n, chunk, out)
    sums = {k: v.sum(axis=0) for k, v in out.items()}
    return sums, (out if keep_chunks else None)


def run_threads(kernel, first, n, chunk, out):
    """Run the batch's chunks on numba's thread count (``numba.get_num_threads``), each thread
    an equal, consecutive run of chunks into its own rows of ``out``.

    The kernels are plain loops over chunks compiled with ``nogil`` and the threads are
    Python's: the same static split as ``prange``, without numba's parallel lowering, which
    compiled every kernel a second time into its gufunc (a quarter of a cold compile).  A chunk's
    counters depend only on its sessions, so the split changes nothing in them."""
    import numba

    n_chunks = next(iter(out.values())).shape[0]
    threads = max(1, min(numba.get_num_threads(), n_chunks))
    if threads == 1:
        kernel(first, n, chunk, out)
        return
    from concurrent.futures import ThreadPoolExecutor

    bounds = [n_chunks * t // threads for t in range(threads + 1)]

    def part(t):
        c0, c1 = bounds[t], bounds[t + 1]
        kernel(first + c0 * chunk, min(n, c1 * chunk) - c0 * chunk, chunk,
               {k: v[c0:c1] for k, v in out.items()})

    with ThreadPoolExecutor(threads) as pool:
        for done in [pool.submit(part, t) for t in range(threads)]:
            done.result()  # a kernel's exception (a checked invariant) is raised here


class Checkpoint:
    """A run directory owned by one run at a time.

    Contents: ``lock`` (held with ``flock`` for the whole run; the kernel releases it when the
    process dies, so a killed run leaves no stale lock), ``manifest.json`` (the run's identity,
    seed included, written before the first batch) and one ``batch-N.npz`` per finished batch,
    each carrying the identity's hash and written to a temporary file and renamed, so a file is
    whole or absent and a batch of another run is never summed into this one.

    Use: ``ck = Checkpoint(path)`` (takes the lock, reads any manifest), then
    ``ck.bind(identity)`` before the first batch, and ``ck.close()`` at the end.
    """

    LOCK = "lock"
    MANIFEST = "manifest.json"

    def __init__(self, path, identity: dict | None = None, resume_only: bool = False,
                 seed_drawn: bool = False):
        import fcntl

        if path is None or not str(path).strip():
            raise ValueError("checkpoint must name a directory (it is empty)")
        self.path = os.path.abspath(os.path.expanduser(str(path)))
        self._lock_fd = None
        if os.path.exists(self.path) and not os.path.isdir(self.path):
            raise ValueError(f"checkpoint {self.path} is a file, not a directory")
        manifest = os.path.join(self.path, self.MANIFEST)
        if resume_only and not os.path.exists(manifest):
            raise ValueError(f"nothing to resume: {self.path} holds no checkpoint")
        if os.path.isdir(self.path):
            # Never scatter batch files into a folder that holds something else (a store, ~).
            foreign = sorted(n for n in os.listdir(self.path)
                             if n not in (self.LOCK, self.MANIFEST)
                             and not n.startswith(TMP_PREFIX)
                             and not (n.startswith("batch-") and n.endswith(".npz")))
            if foreign:
                raise ValueError(f"checkpoint {self.path} is not a checkpoint folder (it holds "
                                 f"{foreign[0]!r}); give a new or empty folder")
        try:
            os.makedirs(self.path, exist_ok=True)
            fd = os.open(os.path.join(self.path, self.LOCK), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise OSError(f"cannot use checkpoint {self.path}: {e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            try:
                pid = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            finally:
                os.close(fd)
            raise ValueError(f"checkpoint {self.path} is in use by another run (pid {pid})") from None
        self._lock_fd = fd
        try:  # the pid, for the message of a run refused while this one holds the lock
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as e:  # a full disk: no batch could be kept either
            self.close()
            raise OSError(f"cannot use checkpoint {self.path}: cannot write "
                          f"{os.path.join(self.path, self.LOCK)}: {e.strerror or e}") from None
        self.found = None  # the manifest of an earlier run in this folder, if any
        if os.path.exists(manifest):
            try:
                with open(manifest) as f:
                    found = json.load(f)
            except (OSError, ValueError) as e:
                self.close()
                raise CheckpointError(f"checkpoint {manifest} is unreadable ({_why(e)}); move the "
                                      "folder away to start again") from None
            if not isinstance(found, dict):
                self.close()
                raise CheckpointError(f"checkpoint {manifest} is damaged (not a JSON object); "
                                      "move the folder away to start again")
            self.found = found
        self.identity = None
        if identity is not None:
            self.bind(identity, seed_drawn=seed_drawn)

    def drawn_seed(self):
        """The seed an earlier run in this folder drew for itself (no seed given), else None:
        reusing it lets the same command without a seed resume that run."""
        f = self.found or {}
        if f.get("seed_source") == "drawn" and f.get("format") == CHECKPOINT_FORMAT:
            return f.get("seed")
        return None

    def bind(self, identity: dict, seed_drawn: bool = False):
        """Check ``identity`` against the folder's manifest, or write it (before any batch)."""
        self.identity = json.loads(json.dumps(dict(identity, format=CHECKPOINT_FORMAT),
                                              default=str))
        self.hash = hashlib.sha256(json.dumps(self.identity, sort_keys=True).encode()).hexdigest()
        found = self.found
        if found is not None:
            if "format" not in found:
                raise CheckpointError(f"checkpoint {os.path.join(self.path, self.MANIFEST)} is "
                                      "damaged (not a checkpoint manifest); move the folder "
                                      "away to start again")
            if found.get("format") != CHECKPOINT_FORMAT:
                raise ValueError(f"checkpoint {self.path} was written in checkpoint format "
                                 f"{found.get('format')!r}, not {CHECKPOINT_FORMAT}: it cannot "
                                 "be resumed by this hanasim; give a new folder")
            found = {k: v for k, v in found.items() if k != "seed_source"}
            diff = sorted(k for k in set(found) | set(self.identity)
                          if found.get(k) != self.identity.get(k))
            if diff:
                k = diff[0]
                if k == "seed" and seed_drawn:
                    raise ValueError(f"checkpoint {self.path} belongs to another run: seed is "
                                     f"{found.get(k)!r} there, none given here (give --seed "
                                     f"{found.get(k)} to resume it)")
                raise ValueError(f"checkpoint {self.path} belongs to another run: {k} is "
                                 f"{found.get(k)!r} there, {self.identity.get(k)!r} here")
        else:
            manifest = dict(self.identity, seed_source="drawn" if seed_drawn else "given")
            write_bytes(os.path.join(self.path, self.MANIFEST),
                        json.dumps(manifest, indent=1).encode(), TMP_PREFIX)
            self.found = manifest

    def close(self):
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing releases the flock
            self._lock_fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _file(self, index):
        return os.path.join(self.path, f"batch-{index:08d}.npz")

    def saved(self, n_batches: int, offset: int = 0) -> list[int]:
        """Indexes (below ``n_batches``) of the batch files in the folder, in order; the files
        of an extension are numbered from ``offset`` (see :func:`run_batches`)."""
        found = []
        for name in os.listdir(self.path):
            digits = name[len("batch-"):-len(".npz")]
            if name.startswith("batch-") and name.endswith(".npz") and digits.isdigit() \
                    and 0 <= int(digits) - offset < n_batches:
                found.append(int(digits) - offset)
        return sorted(found)

    def load(self, index, shapes, span):
        """Batch ``index``'s sums, or None when it is not there yet; ``span``: the (first
        session, sessions) it must hold."""
        path = self._file(index)
        if not os.path.exists(path):
            return None
        try:
            if not zipfile.is_zipfile(path):  # np.load would try it as a pickle
                raise ValueError("not a batch file: its contents are not an .npz archive")
            with np.load(path) as z:
                sums = {k: z[k] for k in shapes if k in z.files}
                owner = str(z["_identity"]) if "_identity" in z.files else None
                held = tuple(int(v) for v in z["_span"]) if "_span" in z.files else None
        except Exception as e:  # a damaged file must never be taken as data
            raise CheckpointError(f"checkpoint file {path} is damaged ({_why(e)}); move it away "
                                  "to recompute that batch") from None
        if owner != self.hash:
            raise CheckpointError(f"checkpoint file {path} belongs to another run than "
                                  f"{self.MANIFEST}; move it away to recompute that batch")
        if held != tuple(span):
            raise CheckpointError(f"checkpoint file {path} holds other sessions than this "
                                  f"run's batch {index}; move it away to recompute that batch")
        # Counters laid out otherwise than this run's (another hanasim wrote them: a game that
        # gained a counter for some runs, e.g. Taipa's given runs) are another run's: the
        # manifest may match, but every batch of that folder is the same, so not one is summed.
        for k, shape in shapes.items():
            there = sums[k].shape if k in sums else None
            if there != tuple(shape):
                what = f"holds no {k} counters" if there is None else \
                    f"holds {k} counters of shape {there}, this run's are {tuple(shape)}"
                raise CheckpointError(f"checkpoint file {path} is from another run: it {what} "
                                      "(written by another version of hanasim); give a new "
                                      "folder")
        return sums

    def save(self, index, sums, span):
        """Batch ``index``'s sums, with the (first session, sessions) they hold."""
        buf = io.BytesIO()
        np.savez(buf, _identity=np.array(self.hash), _span=np.array(span, dtype=np.int64),
                 **sums)
        write_bytes(self._file(index), buf.getvalue(), TMP_PREFIX)


def run_batches(kernel, n_sessions, shapes, *, rounds_per_session=1, progress=False, desc="",
                chunk=None, blocks=None, checkpoint: Checkpoint | None = None,
                executor: Callable | None = None, slow: bool = False, sessions_from: int = 0,
                layout: dict | None = None):
    """Sum the kernel's counters over all sessions.

    ``blocks``: also return the counters of ``blocks`` consecutive, equal groups of sessions
    (``totals["blocks"][k]`` has a leading block axis): independent replicates of the whole
    run, for batch-means standard errors of paired differences (see ``stats.compare``).
    ``checkpoint``: keep finished batches there and skip those already there.
    ``executor``: ``executor(fn, argument_tuples) -> iterator of results`` runs batches
    elsewhere (e.g. a Dask cluster); by default they run here, one after another, each using
    every numba thread.  ``slow``: a run with a lookahead player (smaller chunks, so that a
    short run still uses every thread; the counters do not depend on the chunks).
    ``sessions_from``: only sessions from this one on (a run extended by whole sessions,
    ``hanasim.precision``); with ``blocks``, the blocks of the whole run that lie there, so it
    must start a block; checkpoint files are numbered from it, so every extension has its own.
    ``layout``: a dict that gets ``rounds_per_session`` and ``n_sessions`` (the caller's unit
    for extensions; a run of no sessions tells it without running anything).
    ``desc`` starts with the game's name (the compile notice names the game).
    """
    from ..compiling import clock_past_compiles, notice, progress_bar, title

    if blocks:
        chunk = -(-n_sessions // blocks)
        if sessions_from % chunk:
            raise ValueError(f"an extension from session {sessions_from:,} does not start one "
                             f"of the {blocks} blocks of {n_sessions:,} sessions")
    chunk = chunk or default_chunk(rounds_per_session, slow)
    if layout is not None:
        layout.update(rounds_per_session=int(rounds_per_session), n_sessions=int(n_sessions))
    plan = batch_plan(n_sessions, chunk, sessions_from)
    n_batches = len(plan)
    keep = bool(blocks)  # blocks: chunk is a block, so at most blocks / CHUNKS_PER_BATCH batches
    totals = {k: np.zeros(shape, dtype=np.int64) for k, shape in shapes.items()}
    kept = {k: [None] * n_batches for k in shapes} if keep else None
    loaded = set()  # batches read back from the checkpoint (only the files there are looked at)
    done_sessions = 0
    for i in (checkpoint.saved(n_batches, sessions_from) if (checkpoint and not keep) else ()):
        done = checkpoint.load(sessions_from + i, shapes, plan[i])
        if done is not None:
            loaded.add(i)
            done_sessions += plan[i][1]
            for k in totals:
                totals[k] += done[k]
    finished = len(loaded)
    if loaded:  # a resumed run says what it found before it goes on (or finishes at once)
        import sys

        sys.stderr.write(f"hanasim: resuming {checkpoint.path}: {finished} of {n_batches} "
                         "batches already done\n")
    bar = progress_bar()(total=n_sessions * rounds_per_session, disable=not progress,
                         delay=2.0, unit="round", unit_scale=True, desc=desc, leave=False,
                         initial=(sessions_from + done_sessions) * rounds_per_session)

    def todo():  # batch indexes still to run, in order, generated (never listed)
        return (i for i in range(n_batches) if i not in loaded)

    args = ((kernel, shapes, *plan[i], chunk, keep) for i in todo())
    results = executor(run_batch, args) if executor else (run_batch(*a) for a in args)
    try:
        # says so when a kernel is compiled, not loaded; the bar's rate leaves the compile out
        game = desc.split(" ")[0]
        with notice(game) as heard:
            ready = getattr(executor, "ready", None)
            first = next(todo(), None)
            # a batch of no sessions first: the kernel loaded, or compiled, where the batches
            # run (a cluster's executor), its wait said
            if ready is not None and first is not None:
                what = title(game) + (" deals-only" if " deals" in desc else "")
                ready(run_batch, (kernel, shapes, plan[first][0], 0, chunk, False), what)
            compiles = 0
            for i, (sums, chunks) in zip(todo(), results):
                compiles = clock_past_compiles(bar, heard, compiles)
                for k in totals:
                    totals[k] += sums[k]
                if keep:
                    for k in kept:
                        kept[k][i] = chunks[k]
                if checkpoint:
                    checkpoint.save(sessions_from + i, sums, plan[i])
                finished += 1
                bar.update(plan[i][1] * rounds_per_session)
    except ExecutorError as e:
        bar.close()
        if checkpoint:
            raise ExecutorError(f"{e}; the {finished} finished batches of {n_batches} are kept "
                                f"in {checkpoint.path}: run the same command again to resume") \
                from None
        raise
    except KeyboardInterrupt as e:
        bar.close()
        signum = getattr(e, "signum", None)
        if checkpoint:
            rest = (f"; the finished ones are kept in {checkpoint.path}: run the same command "
                    "again to resume")
            kept_ = True
        else:
            # No option hint here: only some callers (simulate) have a checkpoint to offer.
            rest, kept_ = "; nothing was kept", False
        raise Interrupted(f"{_stopped(signum)} after {finished} of {n_batches} batches{rest}",
                          kept=kept_, signum=signum, finished=finished, total=n_batches,
                          rest=rest) from None
    bar.close()
    if keep:
        totals["blocks"] = {k: np.concatenate(v) for k, v in kept.items()}
    return totals
