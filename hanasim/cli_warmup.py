"""``hanasim warmup``: the subcommand (the work is in ``hanasim.warmup``)."""
from __future__ import annotations


def register(sub) -> None:
    p = sub.add_parser("warmup", help="compile the games' kernels ahead of time (after "
                       "installing, in a container image, on cluster workers)")
    p.add_argument("games", nargs="*", metavar="GAME",
                   help="games to compile (default: every game; see 'hanasim games')")
    p.add_argument("--lookahead", action="store_true",
                   help="also the lookahead kernel of each game (the longest compile)")
    p.set_defaults(handler=cmd_warmup)


def cmd_warmup(a):
    from .games import get_game
    from .warmup import warmup

    for name in a.games:
        get_game(name)  # an unknown game is refused before any compile
    rows = warmup(a.games or None, lookahead=a.lookahead)
    total = sum(r["seconds"] for r in rows)
    print(f"{len(rows)} kernels ready in {total:.1f} s; runs now load them from the cache")
    return 0
