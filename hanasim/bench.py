"""``hanasim bench``: rounds per second per core, on one thread and on all, and compile time."""
from __future__ import annotations

import os
import platform
import time

import numba
import numpy as np


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"numba {numba.__version__}, numpy {np.__version__}")


def _rate(game, rounds, policy, threads):
    from .api import simulate

    numba.set_num_threads(threads)
    start = time.perf_counter()
    simulate(game, rounds=rounds, seed=1, policy=policy)
    return rounds / (time.perf_counter() - start)


def run_bench(games=("toppa",), rounds=2_000_000, policies=("random", "greedy"), out=print):
    from .api import check_rounds, simulate
    from .games import get_game

    rounds = check_rounds(rounds)
    for g in games:
        get_game(g)
    all_threads = numba.config.NUMBA_NUM_THREADS
    out(f"machine: {machine()}")
    out(f"rounds per measurement: {rounds:,}; threads available: {all_threads}")
    out(f"{'game':8s} {'policy':7s} {'first call s':>12s} {'1 thread r/s':>14s} "
        f"{f'{all_threads} threads r/s':>15s} {'per core r/s':>13s} {'speed-up':>8s}")
    for game in games:
        for policy in policies:
            start = time.perf_counter()
            simulate(game, rounds=1000, seed=1, policy=policy)  # compile, or load the cache
            first = time.perf_counter() - start
            one = _rate(game, rounds, policy, 1)
            many = _rate(game, rounds, policy, all_threads)
            numba.set_num_threads(all_threads)
            out(f"{game:8s} {policy:7s} {first:12.2f} {one:14,.0f} {many:15,.0f} "
                f"{many / all_threads:13,.0f} {many / one:8.2f}")
    out("first call = numba compile time (or cache load when the kernels are cached)")
