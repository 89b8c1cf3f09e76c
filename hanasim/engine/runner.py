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

import hashlib
import io
import json
import os
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
    """A run stopped by the user; the message says what was kept and how to resume.
    ``kept``: whether finished batches were kept in a checkpoint."""

    def __init__(self, message, kept=False):
        super().__init__(message)
        self.kept = kept


def default_chunk(rounds_per_session: int, slow: bool = False) -> int:
    target = SLOW_ROUNDS_PER_CHUNK if slow else TARGET_ROUNDS_PER_CHUNK
    return max(1, target // max(1, rounds_per_session))


def batch_plan(n_sessions: int, chunk: int) -> list[tuple[int, int]]:
    """(first session, number of sessions) of every batch."""
    size = chunk * CHUNKS_PER_BATCH
    return [(first, min(size, n_sessions - first)) for first in range(0, n_sessions, size)]


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
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self.found = None  # the manifest of an earlier run in this folder, if any
        if os.path.exists(manifest):
            try:
                with open(manifest) as f:
                    found = json.load(f)
            except (OSError, ValueError) as e:
                self.close()
                raise ValueError(f"checkpoint {manifest} is unreadable: {e}") from None
            if not isinstance(found, dict):
                self.close()
                raise ValueError(f"checkpoint {manifest} is damaged (not a JSON object); move "
                                 "the folder away to start again")
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

    def load(self, index, shapes, span):
        """Batch ``index``'s sums, or None when it is not there yet; ``span``: the (first
        session, sessions) it must hold."""
        path = self._file(index)
        if not os.path.exists(path):
            return None
        try:
            with np.load(path) as z:
                sums = {k: z[k] for k in shapes}
                owner = str(z["_identity"]) if "_identity" in z.files else None
                held = tuple(int(v) for v in z["_span"]) if "_span" in z.files else None
        except Exception as e:  # a damaged file must never be taken as data
            raise ValueError(f"checkpoint file {path} is damaged ({e}); move it away to "
                             "recompute that batch") from None
        if owner != self.hash:
            raise ValueError(f"checkpoint file {path} belongs to another run than "
                             f"{self.MANIFEST}; move it away to recompute that batch")
        if held != tuple(span):
            raise ValueError(f"checkpoint file {path} holds other sessions than this run's "
                             f"batch {index}; move it away to recompute that batch")
        for k, shape in shapes.items():
            if sums[k].shape != tuple(shape):
                raise ValueError(f"checkpoint file {path} does not fit this run ({k} shape)")
        return sums

    def save(self, index, sums, span):
        """Batch ``index``'s sums, with the (first session, sessions) they hold."""
        buf = io.BytesIO()
        np.savez(buf, _identity=np.array(self.hash), _span=np.array(span, dtype=np.int64),
                 **sums)
        write_bytes(self._file(index), buf.getvalue(), TMP_PREFIX)


def run_batches(kernel, n_sessions, shapes, *, rounds_per_session=1, progress=False, desc="",
                chunk=None, blocks=None, checkpoint: Checkpoint | None = None,
                executor: Callable | None = None, slow: bool = False):
    """Sum the kernel's counters over all sessions.

    ``blocks``: also return the counters of ``blocks`` consecutive, equal groups of sessions
    (``totals["blocks"][k]`` has a leading block axis): independent replicates of the whole
    run, for batch-means standard errors of paired differences (see ``stats.compare``).
    ``checkpoint``: keep finished batches there and skip those already there.
    ``executor``: ``executor(fn, argument_tuples) -> iterator of results`` runs batches
    elsewhere (e.g. a Dask cluster); by default they run here, one after another, each using
    every numba thread.  ``slow``: a run with a lookahead player (smaller chunks, so that a
    short run still uses every thread; the counters do not depend on the chunks).
    ``desc`` starts with the game's name (the compile notice names the game).
    """
    from ..compiling import notice, progress_bar

    if blocks:
        chunk = -(-n_sessions // blocks)
    chunk = chunk or default_chunk(rounds_per_session, slow)
    plan = batch_plan(n_sessions, chunk)
    keep = bool(blocks)
    totals = {k: np.zeros(shape, dtype=np.int64) for k, shape in shapes.items()}
    kept = {k: [None] * len(plan) for k in shapes} if keep else None
    todo = []
    done_sessions = 0
    for i, (first, n) in enumerate(plan):
        done = checkpoint.load(i, shapes, (first, n)) if (checkpoint and not keep) else None
        if done is None:
            todo.append(i)
        else:
            done_sessions += n
            for k in totals:
                totals[k] += done[k]
    finished = len(plan) - len(todo)
    bar = progress_bar()(total=n_sessions * rounds_per_session, disable=not progress, delay=2.0,
               unit="round", unit_scale=True, desc=desc, leave=False,
               initial=done_sessions * rounds_per_session)
    args = [(kernel, shapes, plan[i][0], plan[i][1], chunk, keep) for i in todo]
    results = executor(run_batch, args) if executor else (run_batch(*a) for a in args)
    try:
        with notice(desc.split(" ")[0]):  # says so when a kernel is compiled, not loaded
            for i, (sums, chunks) in zip(todo, results):
                for k in totals:
                    totals[k] += sums[k]
                if keep:
                    for k in kept:
                        kept[k][i] = chunks[k]
                if checkpoint:
                    checkpoint.save(i, sums, plan[i])
                finished += 1
                bar.update(plan[i][1] * rounds_per_session)
    except KeyboardInterrupt:
        bar.close()
        if checkpoint:
            raise Interrupted(f"interrupted after {finished} of {len(plan)} batches; the finished "
                              f"ones are kept in {checkpoint.path}: run the same command again "
                              "to resume", kept=True) from None
        # No option hint here: only some callers (simulate) have a checkpoint to offer.
        raise Interrupted(f"interrupted after {finished} of {len(plan)} batches; nothing was "
                          "kept") from None
    bar.close()
    if keep:
        totals["blocks"] = {k: np.concatenate(v) for k, v in kept.items()}
    return totals
