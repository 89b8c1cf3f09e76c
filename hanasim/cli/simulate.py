"""``hanasim simulate``: parsing and printing only (the work is :func:`hanasim.simulate`)."""
from __future__ import annotations

import sys

from . import precision
from .common import (add_condition_options, add_out_options, add_run_options, add_store_option,
                     add_threads_option, changed_rules, condition_args, check_output, emit, print_notes, save_or_say, with_players,
                     write_out)


def register(sub) -> None:
    p = sub.add_parser("simulate", help="simulate rounds and print (or write) the summary table")
    add_run_options(p, 1_000_000)
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="house rule option, repeatable (see 'hanasim rules GAME'); "
                   "par=104,136 sets one par per seat, par.dealer=104 one seat's")
    add_condition_options(p)
    add_out_options(p)
    p.add_argument("--all", action="store_true",
                   help="print every quantity by its code name with standard errors and n (the "
                   "default prints the game's answers first, then the quantities grouped and "
                   "readable)")
    p.add_argument("--checked", action="store_true", help="check round invariants (slower)")
    p.add_argument("--deals-only", action="store_true",
                   help="deal-time quantities only (misdeal, teyaku; taipa: yaku cards at round 1's "
                        "deal): skips play, much faster")
    p.add_argument("--checkpoint", default=None, metavar="DIR",
                   help="keep finished batches in DIR; the same command again resumes from them")
    p.add_argument("--resume", action="store_true",
                   help="continue the interrupted run kept in --checkpoint DIR (which must exist)")
    p.add_argument("--cluster", default=None, metavar="ADDR",
                   help="run on Dask: local:N (N worker processes) or tcp://host:8786")
    add_threads_option(p)
    precision.add_option(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_store_option(p)
    p.set_defaults(handler=cmd_simulate)


def cmd_simulate(a):
    from .. import api, outputs, rules, store

    # Everything is checked before the work: a bad output must not cost a finished run.
    fmt = check_output(a, a.store, checkpoint=a.checkpoint)
    if not a.no_save:
        store.check_store(a.store)
    if a.checkpoint:
        api._outside_store(a.checkpoint, "checkpoint", a.store)
    given = with_players(rules.parse_assignments(a.rule), getattr(a, "players", None))
    df = api.simulate(a.game, rounds=a.rounds, seed=a.seed, policy=a.policy, expose=a.expose,
                      rules=given,
                      session_rounds=a.session_rounds, fixed_dealer=a.fixed_dealer,
                      checked=a.checked, deals_only=a.deals_only,
                      checkpoint=a.checkpoint, resume=a.resume, cluster=a.cluster,
                      preset=a.preset, threads=a.threads,
                      precision=precision.goal(a), **condition_args(a),
                      progress=not a.no_progress and sys.stderr.isatty())
    precision.say(df)
    rc = 0
    if a.out is not None:
        rc = write_out(df, a, fmt, a.store)
        if a.format in (None, "table") and not outputs.is_stdout(a.out):  # stdout is the file
            emit(lambda: print_table(df, show_all=a.all))
    elif a.format == "csv":
        emit(lambda: df.to_csv(sys.stdout, index=False))
    else:
        emit(lambda: print_table(df, show_all=a.all))
    if not a.no_save:
        rc = save_or_say(df, a.store) or rc
    return rc


def has_expose(game) -> bool:
    """Whether the game has an expose decision (games without teyaku have none)."""
    from ..games import UnknownGame, get_game

    try:
        return bool(getattr(get_game(game), "expose", True))
    except (UnknownGame, TypeError):
        return True


def print_table(df, out=None, show_all=False):
    import pandas as pd

    out = sys.stdout if out is None else out
    meta = df.attrs
    how = ("deals only (no play)" if meta.get("deals_only") else
           f"policies {meta.get('policies')}" + (f", expose {meta.get('expose')}"
                                                 if has_expose(meta.get("game")) else ""))
    head = (f"{meta.get('game')}: {meta.get('rounds'):,} rounds, seed {meta.get('seed')}, "
            f"{how}, {meta.get('wall_time_s')} s")
    print(head, file=out)
    changed = changed_rules(meta.get("game"), meta.get("rules"))
    print("rules: " + ("the defaults" if changed == "default" else f"{changed} (the rest "
                       "default)") + f"; 'hanasim rules {meta.get('game')}' lists them", file=out)
    print_notes(meta, out)
    if not show_all:  # the answers first, then every quantity grouped and readable
        from ..readable import print_readable

        print_readable(df, out)
        return
    print("estimates with 99.9% intervals (Wilson for proportions)", file=out)
    cols = ["quantity", "estimate", "std_error", "ci_low", "ci_high", "n"]
    with pd.option_context("display.max_rows", None, "display.width", 200):
        print(df[cols].to_string(index=False, float_format=lambda v: f"{v:.6g}"), file=out)

