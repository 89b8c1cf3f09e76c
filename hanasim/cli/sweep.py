"""``hanasim sweep``: parsing and printing only (the work is :func:`hanasim.sweep`).

    hanasim sweep toppa --rule par.dealer=100:140:5 --solve dealer.mean_score=0 --chart par.png

Every value runs on the same deals (the same seed); the table printed has one row per value and
a column per chosen quantity (estimate and 99.9% interval); ``--solve`` says where a quantity
crosses a target, with an interval; ``--chart`` draws the chosen quantities against the value.
"""
from __future__ import annotations

import sys

from . import precision
from .common import (add_condition_options, add_out_options, add_run_options, add_store_option,
                     add_threads_option, check_output, condition_args, emit, parse_grid, print_notes, save_or_say, with_players,
                     write_chart, write_out)


def register(sub) -> None:
    p = sub.add_parser(
        "sweep", help="simulate a range of values of a rule on the same deals; solve for a target",
        description="Simulate every value of one or more rules on the same deals (the same "
        "seed), print chosen quantities against the value, and find where a quantity crosses a "
        "target (--solve), with a 99.9% interval.  Example: hanasim sweep toppa --rule "
        "par.dealer=100:140:5 --solve dealer.mean_score=0 --chart par.png")
    add_run_options(p, 200_000, per="played rounds per value")
    add_condition_options(p)
    p.add_argument("--rule", action="append", default=[], metavar="NAME=A:B:STEP",
                   help="a rule and its values: A:B:STEP (A to B by STEP) or a list v1,v2,...; "
                   "one value holds it fixed; repeatable (several swept rules make a grid)")
    p.add_argument("--solve", action="append", default=[], metavar="QUANTITY=TARGET",
                   help="find the value where QUANTITY crosses TARGET, with an interval "
                   "(repeatable), e.g. dealer.mean_score=0")
    p.add_argument("--quantity", action="append", default=[], metavar="Q",
                   help="a quantity to print and chart (repeatable; default: the --solve "
                   "quantities, else the game's key quantities)")
    p.add_argument("--chart", default=None, metavar="PATH",
                   help="draw the chosen quantities against the value into PATH (.png or .svg)")
    p.add_argument("--max-variants", default=None, metavar="N",
                   help="allow more than 64 values (combinations of the swept rules)")
    add_out_options(p, "the whole tidy table")
    add_threads_option(p)
    precision.add_option(p, "interval at every value")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_store_option(p)
    p.set_defaults(handler=cmd_sweep)


def cmd_sweep(a):
    from .. import api, outputs, store
    from ..games import get_game

    g = get_game(a.game)
    grid = with_players(parse_grid(a.rule, example="name=A:B:STEP or name=v1,v2"),
                        getattr(a, "players", None))
    solve = parse_grid(a.solve, "--solve", "quantity=target")
    chart = None if a.chart is None else outputs.chart_format(a.chart)
    fmt = check_output(a, a.store, others={"--chart": a.chart})  # never the same file twice
    if not a.no_save:
        store.check_store(a.store)
    df = api.sweep(a.game, grid, rounds=a.rounds, seed=a.seed, policy=a.policy,
                   expose=a.expose, session_rounds=a.session_rounds,
                   fixed_dealer=a.fixed_dealer, solve=solve or None, threads=a.threads,
                   preset=a.preset,
                   max_variants=None if a.max_variants is None else
                   api.check_rounds(a.max_variants, "--max-variants"),
                   precision=precision.goal(a), quantities=list(a.quantity) or None,
                   **condition_args(a), progress=not a.no_progress and sys.stderr.isatty())
    precision.say(df)
    known = set(df["quantity"])
    wanted = list(dict.fromkeys(a.quantity or list(solve) or
                                [q for q in getattr(g, "key_quantities", ()) if q in known]))
    if a.precision and not a.quantity:  # show what the goal was about
        wanted += [q for q in precision.goals(a) if q in known and q not in wanted]
    missing = [q for q in wanted if q not in known]
    if missing:  # the run is done: say it, keep it, and still show what exists
        sys.stderr.write(f"hanasim: warning: no quantity {missing[0]!r} in this sweep\n")
        wanted = [q for q in wanted if q in known]
    rc = 0
    if a.out is not None:
        rc = write_out(df, a, fmt, a.store)
    if a.format == "csv" and a.out is None:
        emit(lambda: df.to_csv(sys.stdout, index=False))
    elif a.format in (None, "table") and not outputs.is_stdout(a.out):  # the readable table
        emit(lambda: print_sweep(df, wanted))
    if chart:  # a chart that fails says so and still keeps the table and the saved run
        from .. import plot

        rc = write_chart(a.chart, chart, lambda: plot.sweep_figure(df, wanted), force=a.force,
                         store_dir=a.store) or rc
    if not a.no_save:
        rc = save_or_say(df, a.store) or rc
    return rc


def print_sweep(df, quantities):
    import pandas as pd

    meta = df.attrs
    swept = meta["swept"]
    fixed = ", ".join(f"{k}={v}" for k, v in (meta.get("fixed") or {}).items())
    n_values = df["variant"].nunique()
    print(f"{meta['game']}: sweep of {', '.join(swept)} ({n_values} values) on the same deals: "
          f"{meta['rounds']:,} rounds per value, seed {meta['seed']}, policies "
          f"{meta['policies']}"
          # the expose choice when it is not the default (a game without teyaku has none)
          + (f", expose {meta['expose']}" if set(str(meta.get("expose") or "").split(","))
             - {"always", "none", ""} else "")
          + (", player 1 deals every round" if meta.get("dealing") == "fixed" else "")
          + f", {meta['wall_time_s']} s"
          + (f"; preset {meta['preset']}" if meta.get("preset") else "")
          + (f"; held fixed: {fixed}" if fixed else ""))
    print_notes(meta)
    print("estimate [99.9% interval] of each value")
    rows = df[df["quantity"].isin(quantities)]
    from ..readable import is_share, number

    cells = rows.assign(cell=[f"{number(e, is_share(q))} [{number(lo, is_share(q))}, "
                              f"{number(hi, is_share(q))}]" for q, e, lo, hi in
                              zip(rows.quantity, rows.estimate, rows.ci_low, rows.ci_high)])
    table = cells.pivot_table(index=swept, columns="quantity", values="cell", aggfunc="first",
                              sort=False)
    table = table[[q for q in quantities if q in table.columns]]
    missing = table.isna().to_numpy().any()
    table = table.fillna("n/a")  # not "NaN": the quantity is not measured at that value
    with pd.option_context("display.max_rows", None, "display.width", 220,
                           "display.max_colwidth", 40):
        print(table.to_string())
    if missing:  # Ishikari Toppa's chase with 3 players: no join phase, nothing to count
        print("n/a: not measured at that value (the rules played there have no such "
              "quantity)")
    for s in meta.get("solved") or ():
        print(f"solved: {s['message']}")
