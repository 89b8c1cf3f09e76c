"""Subcommands ``hanasim runs list|show|export`` and ``hanasim report``: parsing only.

:func:`register` adds them to the ``hanasim`` parser's subcommands; every leaf parser sets
``handler`` (``set_defaults(handler=...)``), which ``cli.main`` calls with the parsed
arguments.  Handlers raise ``ValueError`` for bad input (one line on stderr, exit code 2) and
``StoreError`` / ``OSError`` for a runtime failure (one line, exit code 1).
"""
from __future__ import annotations

import os
import sys
import warnings


def register(sub) -> None:
    """Add ``runs`` and ``report`` to the argparse subparsers object ``sub``."""
    from . import cli

    p = sub.add_parser("runs", help="the saved runs in the results store: list, show, export",
                       description="Saved runs live in a results store: --store DIR, or "
                       "$HANASIM_STORE, or the project's hanasim-runs folder (the first one "
                       "found from the working directory upwards, or one at the top of the "
                       "project: the folder with .git or pyproject.toml).")
    runs = p.add_subparsers(dest="runs_command", required=True, metavar="{list,show,export}")

    q = runs.add_parser("list", help="one line per saved run")
    _store_option(q)
    q.add_argument("--game", default=None, help="only this game's runs")
    q.add_argument("--format", choices=("table", "csv"), default="table",
                   help="table (readable, default) or csv on stdout")
    q.set_defaults(handler=cmd_runs_list)

    q = runs.add_parser("show", help="print a saved run's table and provenance")
    q.add_argument("run_id", metavar="ID", help="run id, a unique prefix of one, or 'latest'")
    _store_option(q)
    q.set_defaults(handler=cmd_runs_show)

    q = runs.add_parser("export", help="write a saved run's table as CSV or Parquet")
    q.add_argument("run_id", metavar="ID", help="run id, a unique prefix of one, or 'latest'")
    _store_option(q)
    q.add_argument("--format", choices=("csv", "parquet"), default=None,
                   help="csv (stdout unless --out) or parquet (needs --out); with --out the "
                   "default is the file's extension, else csv")
    q.add_argument("--out", default=None, metavar="PATH",
                   help="write to this file (- for stdout; a FIFO or device is written through)")
    q.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    q.set_defaults(handler=cmd_runs_export)

    p = sub.add_parser("report", help="write an HTML + Markdown report with tables and charts",
                       description="Simulate a game (or all games) and write a self-contained "
                       "report: HTML with embedded charts, and Markdown with the same content "
                       "and its PNG charts in a folder next to it.")
    p.add_argument("game", help="game name, or 'all' (see 'hanasim games')")
    p.add_argument("--rounds", default=1_000_000, metavar="N",
                   help="played rounds to simulate per game (default 1,000,000)")
    p.add_argument("--seed", default=None, metavar="S",
                   help="whole number (default: fresh, written into the report)")
    p.add_argument("--policy", default="random", metavar="P",
                   help="one policy for every player, or one per player (default random). "
                   "Forms: " + cli.POLICY_FORMS_HELP)
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="house rule option, repeatable (see 'hanasim rules GAME')")
    p.add_argument("--out", default="reports", metavar="DIR",
                   help="directory to write into (default reports/, created if missing)")
    p.add_argument("--no-skill", action="store_true",
                   help="leave out the 'does skill change the answer?' section (a tournament "
                   "with the lookahead policy, for the games it plays)")
    p.add_argument("--preset", default=None, metavar="NAME",
                   help="one game's named set of rule options ('hanasim rules GAME' lists them); "
                   "--rule options apply on top")
    cli.add_threads_option(p)
    cli.add_store_option(p)
    p.set_defaults(handler=cmd_report)


def _store_option(p):
    from . import cli

    cli.add_store_option(p, saves=False)


def _warn_lines(caught):
    for w in caught:
        sys.stderr.write(f"hanasim: warning: {w.message}\n")


def cmd_runs_list(a):
    import pandas as pd

    from . import store
    from .cli import changed_rules, emit

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", store.StoreWarning)
        runs = store.list_runs(a.store)
    _warn_lines(caught)
    if a.game:
        runs = runs[runs["game"] == a.game.lower()]
    cols = ["id", "game", "date", "rounds", "seed", "policies", "rules", "wall_time_s"]
    if a.format == "csv":
        emit(lambda: runs[cols].to_csv(sys.stdout, index=False))
        return
    root, how = store.store_location(a.store)
    where = f"{os.path.abspath(root)} ({how})"
    if runs.empty:
        print(f"no saved runs in {where}")
        return
    shown = runs[cols].copy()
    shown["rules"] = [r if str(r).startswith(("compare ", "sweep ")) else changed_rules(g, r)
                      for g, r in zip(shown["game"], shown["rules"])]
    shown = shown.rename(columns={"rules": "rules (changed from default)"})
    print(f"{len(shown)} saved runs in {where}")
    with pd.option_context("display.max_rows", None, "display.width", 250,
                           "display.max_colwidth", 100):
        emit(lambda: print(shown.to_string(index=False)))


def cmd_runs_show(a):
    import pandas as pd

    from . import store

    from .cli import emit

    df = store.load_run(a.run_id, a.store)

    def show():
        print(f"run {df.attrs.get('run_id')} (saved {df.attrs.get('saved_at')})")
        for key, value in df.attrs.items():
            if key not in ("run_id", "saved_at", "distributions", "solved"):
                print(f"  {key}: {value}")
        for s in df.attrs.get("solved") or ():
            print(f"  solved: {s.get('message')}")
        # a comparison's variant columns and a sweep's rule columns come first, as saved
        lead = [c for c in (df.attrs.get("swept") or []) if c in df.columns]
        lead += [c for c in ("variant", "kind") if c in df.columns]
        cols = lead + [c for c in ["quantity", "estimate", "std_error", "ci_low", "ci_high",
                                   "n", "significant"] if c in df.columns]
        print("estimates with 99.9% intervals")
        with pd.option_context("display.max_rows", None, "display.width", 200,
                               "display.max_colwidth", 60):
            print(df[cols or list(df.columns)].to_string(
                index=False, float_format=lambda v: f"{v:.6g}"))
    emit(show)


def cmd_runs_export(a):
    from . import store

    from .cli import emit

    if a.format == "parquet" and not a.out:
        raise ValueError("--format parquet needs --out PATH (- for stdout)")
    fmt = a.format or "csv"
    if a.out is not None:  # before loading: a refused output is reported first
        fmt = store.output_format(a.out, a.format)
        store.output_target(a.out, force=a.force, store=store.store_path(a.store))
    df = store.load_run(a.run_id, a.store)
    if a.out is not None:
        kind = store.write_table(df, a.out, fmt, force=a.force,
                                 store=store.store_path(a.store))
        if kind != "stdout":
            print(f"wrote {len(df)} rows of run {df.attrs['run_id']} to {a.out} ({fmt})"
                  + (" (replaced the existing file)" if kind == "replace" else ""),
                  file=sys.stderr)
    else:
        emit(lambda: df.to_csv(sys.stdout, index=False))


def cmd_report(a):
    from . import rules, store
    from .cli import save_or_say
    from .report import build_report

    if not a.no_save:
        store.check_store(a.store)
    paths = build_report(a.game, rounds=a.rounds, seed=a.seed, policy=a.policy,
                         rules=rules.parse_assignments(a.rule), out=a.out,
                         progress=sys.stderr.isatty(), threads=a.threads, preset=a.preset,
                         skill=not a.no_skill)
    for kind in ("html", "markdown"):
        print(f"wrote {paths[kind]}", file=sys.stderr)
    rc = 0
    if not a.no_save:
        for df in paths["tables"]:
            rc = save_or_say(df, a.store) or rc
    return rc


def main(argv=None) -> int:
    """``python -m hanasim.cli_extra ...``: these subcommands on their own (for tests, and
    until they are wired into ``hanasim``); same error handling as ``cli.main``."""
    from . import cli

    parser = cli._Parser(prog="hanasim", description="hanasim runs / report")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=cli._Parser)
    register(sub)
    args = parser.parse_args(argv)
    return cli.run_handler(args, args.handler)


if __name__ == "__main__":
    sys.exit(main())
