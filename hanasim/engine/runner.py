"""Running a game kernel over sessions in batches of chunks, with a progress bar.

Kernels take ``(first_session, n_sessions, chunk, out)`` and add into per-chunk counters; this
module only decides batch sizes and sums.  Because every session has its own random stream and
counters are integers, totals are identical for any batch size, chunk size or thread count.
"""
from __future__ import annotations

import numpy as np
from numba import get_num_threads
from tqdm.auto import tqdm

TARGET_ROUNDS_PER_CHUNK = 16384


def plan(n_sessions: int, rounds_per_session: int, threads: int):
    chunk = max(1, TARGET_ROUNDS_PER_CHUNK // max(1, rounds_per_session))
    chunks_per_batch = 8 * threads
    return chunk, chunks_per_batch


def run_batches(kernel, n_sessions, shapes, *, rounds_per_session=1, progress=False, desc="",
                chunk=None, chunks_per_batch=None, blocks=None):
    """Sum the kernel's counters over all sessions.

    ``blocks``: also return the counters of ``blocks`` consecutive, equal groups of sessions
    (``totals["blocks"][k]`` has a leading block axis): independent replicates of the whole
    run, for batch-means standard errors of paired differences (see ``stats.compare``).
    """
    auto_chunk, auto_batch = plan(n_sessions, rounds_per_session, get_num_threads())
    if blocks:
        chunk = -(-n_sessions // blocks)
    chunk = chunk or auto_chunk
    kept = {k: [] for k in shapes} if blocks else None
    chunks_per_batch = chunks_per_batch or auto_batch
    totals = {k: np.zeros(shape, dtype=np.int64) for k, shape in shapes.items()}
    total_rounds = n_sessions * rounds_per_session
    with tqdm(total=total_rounds, disable=not progress, delay=2.0, unit="round",
              unit_scale=True, desc=desc, leave=False) as bar:
        first = 0
        while first < n_sessions:
            n = min(chunk * chunks_per_batch, n_sessions - first)
            n_chunks = -(-n // chunk)
            out = {k: np.zeros((n_chunks,) + shape, dtype=np.int64) for k, shape in shapes.items()}
            kernel(first, n, chunk, out)
            for k in totals:
                totals[k] += out[k].sum(axis=0)
                if kept is not None:
                    kept[k].append(out[k])
            first += n
            bar.update(n * rounds_per_session)
    if kept is not None:
        totals["blocks"] = {k: np.concatenate(v) for k, v in kept.items()}
    return totals
