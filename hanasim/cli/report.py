"""``hanasim report``: parsing only (the work is :func:`hanasim.report.build_report`)."""
from __future__ import annotations

import sys

from .common import (PLAYERS_HELP, POLICY_FORMS_HELP, add_condition_options, add_store_option,
                     add_threads_option, condition_args, save_or_say, with_players)


def register(sub) -> None:
    """Add ``report`` to the argparse subparsers object ``sub``."""
    p = sub.add_parser("report", help="write an HTML + Markdown report with tables and charts",
                       description="Simulate a game (or all games) and write a report folder "
                       "DIR/GAME/: self-contained HTML with embedded charts, and Markdown with "
                       "the same content and its PNG charts.  A new report replaces an older "
                       "one whole, never part of it; the runs are saved in the store first.")
    p.add_argument("game", help="game name, or 'all' (see 'hanasim games')")
    p.add_argument("--rounds", default=1_000_000, metavar="N",
                   help="played rounds to simulate per game (default 1,000,000)")
    p.add_argument("--seed", default=None, metavar="S",
                   help="whole number (default: fresh, written into the report)")
    p.add_argument("--policy", default="random", metavar="P",
                   help="one policy for every player, or one per player (default random). "
                   "Forms: " + POLICY_FORMS_HELP)
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="house rule option, repeatable (see 'hanasim rules GAME')")
    p.add_argument("--players", default=None, metavar="N", help=PLAYERS_HELP)
    p.add_argument("--out", default="reports", metavar="DIR",
                   help="directory to write into (default reports/, created if missing); the "
                   "report is the folder DIR/GAME/, replaced whole by a new report")
    p.add_argument("--no-skill", action="store_true",
                   help="leave out the 'does skill change the answer?' section (a tournament "
                   "with the lookahead policy, for the games it plays)")
    p.add_argument("--preset", default=None, metavar="NAME",
                   help="one game's named set of rule options ('hanasim rules GAME' lists them); "
                   "--rule options apply on top")
    p.add_argument("--fixed-dealer", action="store_true",
                   help="player 1 deals every round (measure a policy pairing by seat)")
    add_condition_options(p)
    add_threads_option(p)
    add_store_option(p)
    p.set_defaults(handler=cmd_report)


def cmd_report(a):
    from .. import rules, store
    from ..report import build_report

    if not a.no_save:
        store.check_store(a.store)
    codes, saved = [], []

    def keep(df):  # each run is saved as soon as it is simulated, whatever the report does
        if not a.no_save:
            codes.append(save_or_say(df, a.store))
            saved.append(codes[-1] == 0)

    try:
        paths = build_report(a.game, rounds=a.rounds, seed=a.seed, policy=a.policy,
                             rules=with_players(rules.parse_assignments(a.rule), a.players),
                             out=a.out,
                             progress=sys.stderr.isatty(), threads=a.threads, preset=a.preset,
                             skill=not a.no_skill, store=a.store, on_run=keep,
                             fixed_dealer=a.fixed_dealer,
                             **condition_args(a))
    except OSError as e:
        if any(saved):  # say what was kept, in the same one line
            raise OSError(f"{e} (the simulated runs are saved: 'hanasim runs list' shows "
                          "them)") from None
        raise
    print(f"wrote the report {paths['folder']}"
          + (" (replaced the earlier one)" if paths.get("replaced") else "")
          + f": {paths['html']}, {paths['markdown']}", file=sys.stderr)
    return max(codes, default=0)

