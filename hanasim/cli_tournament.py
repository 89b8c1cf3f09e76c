"""``hanasim tournament``: parsing and printing only (the work is :func:`hanasim.tournament`).

    hanasim tournament toppa --policy random --policy greedy --policy lookahead:16 --chart t.png
"""
from __future__ import annotations

import sys


def register(sub) -> None:
    from . import cli

    p = sub.add_parser(
        "tournament", help="every ordered pairing of policies on the same deals: who beats whom",
        description="Play every ordered pairing of the given policies (player 1 plays the first, "
        "every other seat the second) on the same deals, and print player 1's mean score and "
        "win rate per pairing with 99.9% intervals (koi-koi, where only the winner scores: "
        "player 1's score less the opponent's).  Example: hanasim tournament toppa "
        "--policy random --policy greedy --policy lookahead:16")
    p.add_argument("game", help="game name (see 'hanasim games')")
    p.add_argument("--policy", action="append", default=[], metavar="P",
                   help="a policy (repeat, at least twice): random, greedy, lookahead, "
                   "lookahead:K (K determinisations a decision); koi-koi-style games take "
                   "CARD/DECISION (greedy/stop)")
    p.add_argument("--rounds", default=20_000, metavar="N",
                   help="rounds per pairing (default 20,000)")
    p.add_argument("--seed", default=None, metavar="S",
                   help="whole number; the same seed gives the same table (default: fresh)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="a house-rule option for every pairing (repeatable)")
    cli._add_preset(p)
    p.add_argument("--expose", default="always", metavar="E",
                   help="expose held teyaku: always, never, random (lookahead players decide "
                   "for themselves)")
    p.add_argument("--chart", default=None, metavar="PATH",
                   help="draw player 1's mean score (koi-koi: less the opponent's) per pairing "
                   "into PATH (.png or .svg)")
    p.add_argument("--format", choices=("table", "csv"), default="table")
    cli.add_threads_option(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_tournament)


def cmd_tournament(a):
    from . import plot
    from .cli import parse_grid
    from .cli_sweep import _chart_target
    from .tournament import STRENGTH_WORDS, strength_quantity, strength_table, tournament

    rules = parse_grid(a.rule, example="name=value")
    chart = _chart_target(a.chart, False)
    df = tournament(a.game, a.policy, rounds=a.rounds, seed=a.seed, rules=rules or None,
                    preset=a.preset, expose=a.expose, threads=a.threads,
                    progress=not a.no_progress and sys.stderr.isatty())
    if a.format == "csv":
        df.to_csv(sys.stdout, index=False)
    else:
        m = df.attrs
        print(f"{m['game']}: {m['rounds']:,} rounds per pairing on the same deals, seed "
              f"{m['seed']}; player 1 plays the policy, every other seat the opponent")
        shown = df[["policy", "opponent", "quantity", "estimate", "ci_low", "ci_high",
                    "significant"]].copy()
        shown["significant"] = shown["significant"].map({True: "yes", False: ""})
        print(shown.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
        what = STRENGTH_WORDS[strength_quantity(df)]
        print(f"\nplayer 1's {what} (rows: player 1's policy, columns: the opponents')")
        print(strength_table(df).to_string(float_format=lambda v: f"{v:+.2f}", na_rep="."))
    if chart:
        ax = plot.tournament(df)
        ax.figure.savefig(a.chart, format=chart, bbox_inches="tight")
        print(f"chart: {a.chart}", file=sys.stderr)
    return 0
