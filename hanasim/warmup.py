"""``hanasim warmup``: compile the games' kernels ahead of time, with the time each took.

A kernel is compiled the first time a run needs it (then loaded from numba's on-disk cache);
warming up moves that wait to a moment of one's choosing: after installing, while building a
container image, or on every Dask worker before a sweep
(``client.run(hanasim.warmup.warmup, ["toppa"])``).  Each kernel is made by a small run of the
game (the tables are thrown away), so exactly the kernels a real run uses are compiled, with
the argument types a real run gives them.  Runs with given cards or ``--where`` use kernels
of their own (``conditions.kernel_cond``), warmed up with ``given=True``.
"""
from __future__ import annotations

import time

#: a tiny run is enough: the kernel is compiled on its first call, whatever the rounds
WARM_ROUNDS = {"play": 200, "deals": 200, "lookahead": 4}


def _policy(g, kind) -> str:
    if kind != "lookahead":
        return "random"
    # player 1 by lookahead, every other seated player greedy (as hanasim bench measures it)
    n = g.players_of(g.Rules()) if hasattr(g, "players_of") else g.n_players
    return ",".join(["lookahead:16"] + ["greedy"] * (n - 1))


def kinds_of(g, lookahead: bool, given: bool = False) -> list[str]:
    """The kernels a game is warmed up for: its play kernel (random and greedy), its deals-only
    run and, when asked and the game has it, its lookahead kernel; ``given``: each of them
    again for runs with given cards or ``--where`` (``given-play`` ...)."""
    kinds = ["play"]
    if getattr(g, "deals_only", True):
        kinds.append("deals")
    if lookahead and getattr(g, "lookahead", False):
        kinds.append("lookahead")
    return kinds + [f"given-{k}" for k in kinds] if given else kinds


def _conditioned(g) -> dict:
    """A warmup run's condition: the deck's first card given to the round's first seat, and
    (where the game takes ``--where``) a clause every deal meets, so that ``--where``'s pilot
    of deals is compiled too.  The kernel is the same whatever the condition says."""
    from .conditions import layout_of
    from .notation import for_game

    layout, codes = layout_of(g, g.Rules()), for_game(g).codes
    cond = dict(given={layout.names[0]: codes[0]})
    if not layout.where_refused:
        cond["where"] = f"field.cards({codes[1]})>=0"
    return cond


def warmup(games=None, lookahead: bool = False, out=print, given: bool = False) -> list[dict]:
    """Compile (or load from the cache) the kernels of ``games`` (names; default every game).

    ``lookahead``: also the lookahead kernel (the longest compile of each game).  Each kernel
    is reported on ``out`` (``print``; None says nothing) as it is done.  ``given``: also the
    kernels of runs with given cards or ``--where``.  Returns one dict per kernel: ``game``,
    ``kernel`` (play, deals, lookahead; ``given-play`` ...), ``compiled`` (False: it was
    already cached), ``seconds`` (wall time, compiling or loading included) and ``cpu`` (CPU
    seconds of this process: on a shared machine, the work itself)."""
    from .api import simulate
    from .compiling import notice
    from .games import available_games, get_game

    if isinstance(games, str):
        games = [games]
    names = available_games() if not games else [get_game(n).name for n in games]
    if not isinstance(lookahead, bool):
        raise TypeError(f"lookahead must be True or False, got {lookahead!r}")
    if not isinstance(given, bool):
        raise TypeError(f"given must be True or False, got {given!r}")
    rows = []
    for name in names:
        g = get_game(name)
        for kind in kinds_of(g, lookahead, given):
            base = kind.removeprefix("given-")
            start, cpu = time.perf_counter(), time.process_time()
            with notice(name, say=False) as seen:
                simulate(name, rounds=WARM_ROUNDS[base], seed=1, policy=_policy(g, base),
                         deals_only=base == "deals", progress=False,
                         **(_conditioned(g) if kind != base else {}))
            seconds = time.perf_counter() - start
            row = dict(game=name, kernel=kind, compiled=bool(seen.compiled), seconds=seconds,
                       cpu=time.process_time() - cpu)
            rows.append(row)
            if out is not None:
                how = "compiled" if row["compiled"] else "already cached, loaded"
                out(f"{name:14s} {kind:15s} {how} in {seconds:.1f} s")
    return rows
