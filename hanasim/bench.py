"""``hanasim bench``: rounds per second per core, on one thread and on all, and compile time.

Every figure is measured ``repeat`` times (default 3) and printed as its median with the
lowest and highest run, ``median (min-max)``: the machines hanasim runs on are often shared,
and one run's figure can be off by a third.  The runs of one row alternate (one thread, all
threads, one thread ...) so that a change of load spreads over both columns.  The one-thread
rate is also given per CPU second of the process: on a machine shared with others (a load of
several times its cores) the wall rate falls with one's share of a core, the CPU rate does
not, so it is the figure to compare between runs, settings and days.
"""
from __future__ import annotations

import os
import platform
import statistics
import time

import numba
import numpy as np

REPEAT = 3


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
            f"numba {numba.__version__}, numpy {np.__version__}, "
            f"NUMBA_OPT={numba.config.OPT._raw_value}")


def load() -> str:
    """The load average over 1, 5 and 15 minutes (how shared the machine was), or ``?``."""
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def spread(values, fmt: str = "{:,.0f}") -> str:
    """``median (min-max)`` of several runs' figures; one run: its figure alone."""
    values = list(values)
    mid = fmt.format(statistics.median(values))
    if len(values) == 1:
        return mid
    return f"{mid} ({fmt.format(min(values))}-{fmt.format(max(values))})"


def _rate(game, rounds, policy, threads, deals_only=False):
    """Rounds per wall second and per CPU second of this process (all its threads): the CPU
    rate is what a core does, whatever else the machine runs; the wall rate is what one sees."""
    from .api import simulate

    numba.set_num_threads(threads)
    start, cpu = time.perf_counter(), time.process_time()
    simulate(game, rounds=rounds, seed=1, policy=policy, deals_only=deals_only, progress=False)
    return (rounds / max(time.perf_counter() - start, 1e-9),
            rounds / max(time.process_time() - cpu, 1e-9))


def cold_compile_seconds(game: str, lookahead: bool = True) -> dict:
    """CPU seconds a fresh process with an empty numba cache takes to compile each of
    ``game``'s kernels (``hanasim.warmup``: play, deals, lookahead), ``{kernel: seconds}``.
    CPU, not wall, time: on a shared machine the wall time also counts the others' work."""
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
    return {row["kernel"]: row["cpu"] for row in rows if row["compiled"]}


def load_reference(path: str):
    """The reference kernel module (``reference_kernel.py`` in the shared bench folder), loaded
    from its file: hanasim never imports it otherwise."""
    import importlib.util

    if not os.path.isfile(path):
        raise FileNotFoundError(f"no reference kernel file {path}")
    spec = importlib.util.spec_from_file_location("reference_kernel", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def side_by_side(reference: str, rounds: int, repeat: int = REPEAT, out=print) -> dict:
    """Toppa on one thread beside the reference kernel, alternating runs so both see the same
    load: ``{workload: [hanasim rate / reference rate, one per run]}`` (random, greedy,
    deals-only), each line printed as ``median (min-max)`` of the runs' ratios.  The rates are
    per CPU second (one thread: the kernel's own work), so a ratio holds on a loaded machine;
    the wall-time ratio is printed beside it."""
    from .api import simulate

    ref = load_reference(reference)
    numba.set_num_threads(1)
    work = [("random", ref.random2_chunk, dict(policy="random"), rounds),
            ("greedy", ref.greedy2_chunk, dict(policy="greedy"), rounds),
            ("deals-only", ref.deal_chunk, dict(deals_only=True), rounds * 5)]

    def rate(run, n):
        start, cpu = time.perf_counter(), time.process_time()
        run()
        # max(): a tiny run can take less than the clocks' resolution
        return (n / max(time.perf_counter() - start, 1e-9),
                n / max(time.process_time() - cpu, 1e-9))

    ratios = {}
    for name, kernel, kw, n in work:
        kernel(1000, 1)  # compile (or load) both before timing
        simulate("toppa", rounds=1000, seed=1, progress=False, **kw)
        theirs, ours = [], []
        for _ in range(repeat):
            theirs.append(rate(lambda: kernel(n, 12345), n))
            ours.append(rate(lambda: simulate("toppa", rounds=n, seed=7, progress=False, **kw), n))
        ratios[name] = [a[1] / b[1] for a, b in zip(ours, theirs)]
        wall = [a[0] / b[0] for a, b in zip(ours, theirs)]
        out(f"side by side, toppa {name:10s} 1 thread: ratio {spread(ratios[name], '{:.2f}')} "
            f"(per CPU s; wall {spread(wall, '{:.2f}')}); hanasim {spread(r[1] for r in ours)} "
            f"r/CPU s, reference {spread(r[1] for r in theirs)} r/CPU s")
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return ratios


def run_bench(games=("toppa",), rounds=2_000_000, policies=("random", "greedy"), out=print,
              compile_time=True, repeat=REPEAT, lookahead=True, deals=True, reference=None):
    """Print the bench table; returns its figures, ``{(game, label): {"first": s, "one": [...],
    "many": [...]}}`` (rates of each run), plus ``("compile", game)`` rows of CPU seconds and
    ``("reference", workload)`` rows of ratios when asked."""
    from .api import check_rounds, simulate
    from .games import get_game

    rounds = check_rounds(rounds)
    if not isinstance(repeat, int) or isinstance(repeat, bool) or repeat < 1:
        raise ValueError(f"repeat must be a whole number of runs, at least 1, got {repeat!r}")
    for g in games:
        get_game(g)
    if reference is not None:
        load_reference(reference)  # a missing file is refused before any measurement
    all_threads = numba.config.NUMBA_NUM_THREADS
    figures = {}
    out(f"machine: {machine()}")
    out(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average (1/5/15 "
        f"min) at the start: {load()}")
    out(f"rounds per measurement: {rounds:,}; threads available: {all_threads}; each figure: "
        f"median (lowest-highest) of {repeat} run{'s' if repeat > 1 else ''}")
    out(f"{'game':14s} {'policy':7s} {'first call s':>12s}  {'1 thread r/s':30s} "
        f"{'1 thread r/CPU s':30s} {f'{all_threads} threads r/s':30s} {'per core r/s':>13s} "
        f"{'speed-up':>8s}")

    def row(game, label, n, warm=1000, **kw):
        start = time.perf_counter()
        simulate(game, rounds=warm, seed=1, progress=False, **kw)  # compile, or load the cache
        first = time.perf_counter() - start
        one, one_cpu, many = [], [], []
        policy, deals_only = kw.get("policy", "random"), kw.get("deals_only", False)
        for _ in range(repeat):  # alternating, so a change of load touches both columns
            wall, cpu = _rate(game, n, policy, 1, deals_only)
            one.append(wall)
            one_cpu.append(cpu)
            many.append(_rate(game, n, policy, all_threads, deals_only)[0])
        numba.set_num_threads(all_threads)
        per_core = statistics.median(many) / all_threads
        up = statistics.median(m / o for m, o in zip(many, one))
        out(f"{game:14s} {label:7s} {first:12.2f}  {spread(one):30s} {spread(one_cpu):30s} "
            f"{spread(many):30s} {per_core:13,.0f} {up:8.2f}")
        figures[(game, label)] = dict(first=first, one=one, one_cpu=one_cpu, many=many)

    for game in games:
        g = get_game(game)
        for policy in policies:
            row(game, policy, rounds, policy=policy)
        if lookahead and getattr(g, "lookahead", False):
            # lookahead:16 as player 1 against greedy: ~1000x slower than greedy, fewer rounds;
            # the seated players under the default rules (Kushiro Toppa, Taoshi: fewer than
            # the most the game allows)
            n = g.players_of(g.Rules()) if hasattr(g, "players_of") else g.n_players
            row(game, "look16", max(200, rounds // 1000), warm=20,
                policy=",".join(["lookahead:16"] + ["greedy"] * (n - 1)))
        if deals and getattr(g, "deals_only", True):  # a game may have no deal-only mode
            row(game, "deals", rounds * 10, deals_only=True)
    out("r/s = played rounds per second (deals: --deals-only, deals per second; look16: "
        "player 1 plays lookahead:16, the others greedy); r/CPU s = per CPU second of this "
        "process (unaffected by others' load); per core = all-threads rate (median) / threads; "
        "speed-up = all threads / one thread; first call = loading the cached kernels")
    if reference is not None:
        for name, values in side_by_side(reference, rounds, repeat, out).items():
            figures[("reference", name)] = values
    if compile_time:
        names = {"play": "play (random, greedy)", "deals": "deals-only",
                 "lookahead": "first lookahead"}
        for game in games:
            runs = [cold_compile_seconds(game, lookahead=lookahead) for _ in range(repeat)]
            took = {k: [r[k] for r in runs if k in r] for k in runs[0]}
            figures[("compile", game)] = took
            out(f"{game}: cold compile, CPU s (an empty cache each run; later runs load it): "
                + ", ".join(f"{names[k]} {spread(v, '{:.1f}')}" for k, v in took.items()))
    return figures
