"""``hanasim tournament``: parsing and printing only (the work is :func:`hanasim.tournament`).

    hanasim tournament toppa --policy random --policy greedy --policy lookahead:16 --chart t.png
"""
from __future__ import annotations

import sys

from .common import (EXPOSE_HELP, PLAYERS_HELP, POLICY_FORMS_HELP, add_out_options, add_preset,
                     add_store_option, add_threads_option, check_output, emit, parse_grid,
                     save_or_say, with_players, write_chart,
                     write_out)


def register(sub) -> None:
    p = sub.add_parser(
        "tournament", help="every pairing of policies on the same deals: who beats whom",
        description="Play every pairing of the given policies (player 1 plays the first, "
        "every other seat the second) on the same deals, and print one row per pairing: player "
        "1's mean score and win rate with 99.9% intervals (koi-koi, where only the winner "
        "scores: player 1's score less the opponent's).  Two-player games play each unordered "
        "pairing once (its mirror adds nothing), larger tables every ordered one.  The table "
        "is saved in the results store.  Example: hanasim tournament toppa "
        "--policy random --policy greedy --policy lookahead:16")
    p.add_argument("game", help="game name (see 'hanasim games')")
    p.add_argument("--policy", action="append", default=[], metavar="P",
                   help="one player's policy (repeat, at least twice). Forms: "
                   + POLICY_FORMS_HELP)
    p.add_argument("--rounds", default=20_000, metavar="N",
                   help="rounds per pairing (default 20,000)")
    p.add_argument("--seed", default=None, metavar="S",
                   help="whole number; the same seed gives the same table (default: fresh)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="a house-rule option for every pairing (repeatable)")
    add_preset(p)
    p.add_argument("--expose", default="always", metavar="E", help=EXPOSE_HELP)
    p.add_argument("--players", default=None, metavar="N", help=PLAYERS_HELP)
    p.add_argument("--chart", default=None, metavar="PATH",
                   help="draw player 1's mean score (koi-koi: less the opponent's) per pairing "
                   "into PATH (.png or .svg)")
    add_out_options(p, "the tidy table (two rows a pairing: strength and win rate)")
    add_threads_option(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_store_option(p)
    p.set_defaults(handler=cmd_tournament)


def cmd_tournament(a):
    from .. import outputs, store
    from ..tournament import tournament

    # everything is checked before the work: a bad output must not cost a finished run
    rules = with_players(parse_grid(a.rule, example="name=value"), a.players)
    chart = None if a.chart is None else outputs.chart_format(a.chart)
    fmt = check_output(a, a.store, others={"--chart": a.chart})
    if not a.no_save:
        store.check_store(a.store)
    df = tournament(a.game, a.policy, rounds=a.rounds, seed=a.seed, rules=rules or None,
                    preset=a.preset, expose=a.expose, threads=a.threads,
                    progress=not a.no_progress and sys.stderr.isatty())
    rc = 0
    if a.out is not None:
        rc = write_out(df, a, fmt, a.store)
    if a.format == "csv" and a.out is None:
        emit(lambda: df.to_csv(sys.stdout, index=False))
    elif a.format in (None, "table") and not outputs.is_stdout(a.out):
        emit(lambda: print_tournament(df))  # a reader that stops early does not stop the chart
    if chart:
        rc = write_chart(a.chart, chart, lambda: _figure(df), force=a.force,
                         store_dir=a.store) or rc
    if not a.no_save:
        rc = save_or_say(df, a.store) or rc
    return rc


def _figure(df):
    from .. import plot

    n = df[["policy", "opponent"]].drop_duplicates().shape[0]
    fig, axes = plot.new_figure(9, 0.45 * n + 2.2)
    plot.tournament(df, ax=axes[0, 0])
    return fig


def print_tournament(df):
    from ..readable import columns_text
    from ..tournament import fair_words, pairing_table, title

    print(title(df))
    print("player 1 plays the first policy, every other seat the second; estimates "
          "[99.9% intervals]")
    if fair_words(df):
        print(fair_words(df))
    print(columns_text(pairing_table(df)))
