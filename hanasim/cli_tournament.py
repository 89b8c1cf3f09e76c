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
    p.add_argument("--force", action="store_true", help="overwrite an existing --chart file")
    p.add_argument("--format", choices=("table", "csv"), default="table")
    cli.add_threads_option(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_tournament)


def cmd_tournament(a):
    from . import outputs, plot
    from .cli import _compile_notice, emit, parse_grid, write_chart
    from .tournament import STRENGTH_WORDS, strength_quantity, strength_table, tournament

    rules = parse_grid(a.rule, example="name=value")
    chart = None if a.chart is None else outputs.chart_format(a.chart)
    outputs.check_outputs({"--chart": a.chart}, force=a.force)  # before the work
    _compile_notice(a.game)
    df = tournament(a.game, a.policy, rounds=a.rounds, seed=a.seed, rules=rules or None,
                    preset=a.preset, expose=a.expose, threads=a.threads,
                    progress=not a.no_progress and sys.stderr.isatty())

    def show():
        if a.format == "csv":
            df.to_csv(sys.stdout, index=False)
            return
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

    emit(show)  # a reader that stops early (| head) does not stop the chart
    if chart:
        return write_chart(a.chart, chart, lambda: plot.tournament(df).figure, force=a.force)
    return 0
