"""``hanasim bench`` and ``hanasim warmup``: the subcommands (the work is in
:mod:`hanasim.bench` and :mod:`hanasim.warmup`)."""
from __future__ import annotations


def register_bench(sub) -> None:
    p = sub.add_parser("bench", help="measure rounds per second per core and compile time")
    p.add_argument("--rounds", default=2_000_000, metavar="N",
                   help="rounds per measurement (default 2,000,000)")
    p.add_argument("--games", default="all", help="comma-separated games (default all)")
    p.add_argument("--no-compile", action="store_true",
                   help="skip measuring the cold compile times (a minute or two a game for "
                   "each of the --repeat runs)")
    p.add_argument("--repeat", default="3", metavar="N",
                   help="runs of every measurement, printed as median (lowest-highest) "
                   "(default 3)")
    p.add_argument("--reference", metavar="FILE",
                   help="also Toppa side by side with this reference kernel file "
                   "(reference_kernel.py): the ratio of the rates, one thread")
    p.set_defaults(handler=cmd_bench)


def cmd_bench(a):
    import os

    from ..bench import run_bench

    from ..games import available_games

    games = available_games() if a.games.strip() == "all" else [g.strip() for g in a.games.split(",")]
    text = str(a.repeat).strip()
    if not (text.isascii() and text.isdigit() and int(text) >= 1):
        raise ValueError(f"--repeat {a.repeat!r}: give a whole number of runs, at least 1")
    if a.reference is not None and not os.path.isfile(a.reference):
        raise ValueError(f"--reference {a.reference!r}: no such file")
    run_bench(games=games, rounds=a.rounds, compile_time=not a.no_compile,
              repeat=int(text), reference=a.reference)


def register_warmup(sub) -> None:
    p = sub.add_parser("warmup", help="compile the games' kernels ahead of time (after "
                       "installing, in a container image, on cluster workers)")
    p.add_argument("games", nargs="*", metavar="GAME",
                   help="games to compile (default: every game; see 'hanasim games')")
    p.add_argument("--lookahead", action="store_true",
                   help="also the lookahead kernel of each game (the longest compile)")
    p.add_argument("--given", action="store_true",
                   help="also the kernels of runs with given cards or --where (kernels of "
                   "their own)")
    p.set_defaults(handler=cmd_warmup)


def cmd_warmup(a):
    from ..games import get_game
    from ..warmup import warmup

    for name in a.games:
        get_game(name)  # an unknown game is refused before any compile
    rows = warmup(a.games or None, lookahead=a.lookahead, given=a.given)
    total = sum(r["seconds"] for r in rows)
    print(f"{len(rows)} kernels ready in {total:.1f} s; runs now load them from the cache")
    return 0
