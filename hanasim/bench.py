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


def _rate(game, rounds, policy, threads, deals_only=False):
    from .api import simulate

    numba.set_num_threads(threads)
    start = time.perf_counter()
    simulate(game, rounds=rounds, seed=1, policy=policy, deals_only=deals_only)
    return rounds / (time.perf_counter() - start)


def cold_compile_seconds(game: str, lookahead: bool = True) -> dict:
    """Seconds a fresh process with an empty numba cache takes to compile each of ``game``'s
    kernels (``hanasim.warmup``: play, deals, lookahead), ``{kernel: seconds}``."""
    import json
    import subprocess
    import sys
    import tempfile

    code = ("import json; from hanasim.warmup import warmup; "
            f"print(json.dumps(warmup([{game!r}], lookahead={lookahead!r}, out=None)))")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(f"compiling {game} failed: {r.stderr.strip().splitlines()[-1:]}")
    rows = json.loads(r.stdout.strip().splitlines()[-1])
    return {row["kernel"]: row["seconds"] for row in rows if row["compiled"]}


def run_bench(games=("toppa",), rounds=2_000_000, policies=("random", "greedy"), out=print,
              compile_time=True):
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

    def row(game, label, policy, n, warm=1000):
        start = time.perf_counter()
        simulate(game, rounds=warm, seed=1, policy=policy)  # compile, or load the cache
        first = time.perf_counter() - start
        one = _rate(game, n, policy, 1)
        many = _rate(game, n, policy, all_threads)
        numba.set_num_threads(all_threads)
        out(f"{game:8s} {label:7s} {first:12.2f} {one:14,.0f} {many:15,.0f} "
            f"{many / all_threads:13,.0f} {many / one:8.2f}")

    for game in games:
        for policy in policies:
            row(game, policy, policy, rounds)
        if getattr(get_game(game), "lookahead", False):
            # lookahead:16 as player 1 against greedy: ~1000x slower than greedy, fewer rounds
            g = get_game(game)
            # the seated players under the default rules (Kushiro Toppa, Taoshi: fewer than
            # the most the game allows)
            n = g.players_of(g.Rules()) if hasattr(g, "players_of") else g.n_players
            row(game, "look16", ",".join(["lookahead:16"] + ["greedy"] * (n - 1)),
                max(200, rounds // 1000), warm=20)
        if not getattr(get_game(game), "deals_only", True):
            continue  # a game without a deal-only mode
        start = time.perf_counter()
        simulate(game, rounds=1000, seed=1, deals_only=True)
        first = time.perf_counter() - start
        deals_n = rounds * 10
        one = _rate(game, deals_n, "random", 1, deals_only=True)
        many = _rate(game, deals_n, "random", all_threads, deals_only=True)
        numba.set_num_threads(all_threads)
        out(f"{game:8s} {'deals':7s} {first:12.2f} {one:14,.0f} "
            f"{many:15,.0f} {many / all_threads:13,.0f} {many / one:8.2f}")
    out("r/s = played rounds per second (deals: --deals-only, deals per second; look16: "
        "player 1 plays lookahead:16, the others greedy); per core = all-threads rate / "
        "threads; first call = loading the cached kernels")
    if compile_time:
        names = {"play": "play (random, greedy)", "deals": "deals-only",
                 "lookahead": "first lookahead"}
        for game in games:
            took = cold_compile_seconds(game)
            out(f"{game}: cold compile (an empty cache, once; later runs load it): "
                + ", ".join(f"{names[k]} {v:.1f} s" for k, v in took.items()))
