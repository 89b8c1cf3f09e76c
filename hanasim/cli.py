"""The ``hanasim`` command: argument parsing and error messages only; all logic is in the API."""
from __future__ import annotations

import argparse
import sys

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the problem (and exit code 2)."""

    def error(self, message):
        sys.stderr.write(f"{self.prog}: error: {message} (see '{self.prog} --help')\n")
        sys.exit(EXIT_USAGE)


def _add_run_options(p, rounds_default):
    p.add_argument("game", help="game name (see 'hanasim games')")
    p.add_argument("--rounds", default=rounds_default, metavar="N",
                   help=f"played rounds to simulate (default {rounds_default:,})")
    p.add_argument("--seed", default=None, metavar="S",
                   help="whole number; the same seed gives the same table (default: fresh, printed)")
    p.add_argument("--policy", default="random", metavar="P",
                   help="random or greedy, or one per player: greedy,random (default random); "
                   "koi-koi adds the stop-or-continue choice: greedy/stop, random/continue3, "
                   "greedy/threshold5")
    _add_preset(p)
    p.add_argument("--expose", default="always", metavar="E",
                   help="expose held teyaku: always, never, random; or one per player (default always)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="house rule option, repeatable (see 'hanasim rules GAME')")
    p.add_argument("--session-rounds", default=1, metavar="L",
                   help="rounds per session: the winner deals the next round (default 1)")
    p.add_argument("--fixed-dealer", action="store_true",
                   help="player 1 deals every round (measure a policy pairing by seat)")


def _add_preset(p):
    p.add_argument("--preset", default=None, metavar="NAME",
                   help="a named set of rule options ('hanasim rules GAME' lists them); --rule "
                   "options apply on top")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="hanasim", description="Simulate traditional Japanese card games and "
                     "measure their rules: teyaku and misdeal rates, dealer edge, par balance.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("simulate", help="simulate rounds and print (or write) the summary table")
    _add_run_options(p, 1_000_000)
    p.add_argument("--format", choices=("table", "csv", "parquet"), default="table",
                   help="table (readable, default), csv (stdout unless --out) or parquet (needs --out)")
    p.add_argument("--out", default=None, metavar="PATH",
                   help="write the table to this file (- for stdout; a FIFO or device is written "
                   "through)")
    p.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    p.add_argument("--checked", action="store_true", help="check round invariants (slower)")
    p.add_argument("--deals-only", action="store_true",
                   help="deal-time quantities only (misdeal, teyaku): skips play, much faster")
    p.add_argument("--checkpoint", default=None, metavar="DIR",
                   help="keep finished batches in DIR; the same command again resumes from them")
    p.add_argument("--resume", action="store_true",
                   help="continue the interrupted run kept in --checkpoint DIR (which must exist)")
    p.add_argument("--cluster", default=None, metavar="ADDR",
                   help="run on Dask: local:N (N worker processes) or tcp://host:8786")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--no-save", action="store_true",
                   help="do not save the run in the results store (./hanasim-runs or $HANASIM_STORE)")

    p = sub.add_parser("compare", help="compare house-rule values or policies on the same deals")
    p.add_argument("game")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=V1,V2",
                   help="an option and the values to compare (repeatable; one value holds it fixed)")
    p.add_argument("--policy", action="append", default=[], metavar="P",
                   help="a policy setting to compare, e.g. random or greedy,random (repeatable)")
    _add_preset(p)
    p.add_argument("--rounds", default=1_000_000, metavar="N", help="rounds per variant (default 1,000,000)")
    p.add_argument("--seed", default=None, metavar="S")
    p.add_argument("--expose", default="always", metavar="E")
    p.add_argument("--session-rounds", default=1, metavar="L")
    p.add_argument("--all", action="store_true", help="show every quantity, not only those that differ")
    p.add_argument("--max-variants", default=None, metavar="N",
                   help="allow more than 64 variants (rule combinations x policies)")
    p.add_argument("--no-save", action="store_true", help="do not save the comparison in the results store")
    p.add_argument("--format", choices=("table", "csv"), default="table")
    p.add_argument("--no-progress", action="store_true")

    p = sub.add_parser("rules", help="list a game's house-rule options and defaults")
    p.add_argument("game")
    _add_preset(p)

    sub.add_parser("games", help="list the available games")
    from . import cli_extra
    cli_extra.register(sub)  # runs (the results store) and report

    p = sub.add_parser("exact", help="exact deal-time probabilities (misdeal, teyaku)")
    p.add_argument("game")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    _add_preset(p)
    p.add_argument("--format", choices=("table", "csv"), default="table")

    p = sub.add_parser("bench", help="measure rounds per second per core and compile time")
    p.add_argument("--rounds", default=2_000_000, metavar="N",
                   help="rounds per measurement (default 2,000,000)")
    p.add_argument("--games", default="all", help="comma-separated games (default all)")
    p.add_argument("--no-compile", action="store_true",
                   help="skip measuring the cold compile time (about a minute)")
    return parser


def _print_table(df, out=sys.stdout):
    import pandas as pd

    meta = df.attrs
    how = ("deals only (no play)" if meta.get("deals_only") else
           f"policies {meta.get('policies')}, expose {meta.get('expose')}")
    head = (f"{meta.get('game')}: {meta.get('rounds'):,} rounds, seed {meta.get('seed')}, "
            f"{how}, {meta.get('wall_time_s')} s")
    print(head, file=out)
    print(f"rules: {meta.get('rules')}", file=out)
    print("estimates with 99.9% intervals (Wilson for proportions)", file=out)
    cols = ["quantity", "estimate", "std_error", "ci_low", "ci_high", "n"]
    with pd.option_context("display.max_rows", None, "display.width", 200):
        print(df[cols].to_string(index=False, float_format=lambda v: f"{v:.6g}"), file=out)


def _compile_notice(game: str):
    from .engine.jit import is_cached
    from .games import get_game

    kernel = getattr(get_game(game), "main_kernel", None)
    if kernel is not None and not is_cached(kernel):
        print("hanasim: compiling the simulation kernels (first run only, about a minute; "
              "cached afterwards)...", file=sys.stderr, flush=True)


def _save_or_say(df) -> int:
    """Save a computed table in the store; if that fails, say so (the table is already on
    stdout or in --out) and return a non-zero exit code: a run is never dropped silently."""
    from .store import save_run, store_path

    try:
        print(f"saved run {save_run(df)} in {store_path()}", file=sys.stderr)
    except (OSError, ValueError) as e:
        sys.stderr.write(f"hanasim: error: the run was computed but not saved: {e}\n")
        return 1
    return 0


def _cmd_simulate(a):
    from . import api, rules, store

    # Everything is checked before the work: a bad output must not cost a finished run.
    if a.format == "parquet" and not a.out:
        raise ValueError("--format parquet needs --out PATH (- for stdout)")
    if a.out is not None:
        store.output_target(a.out, force=a.force, store=store.store_path())
    if not a.no_save:
        store.check_store()
    _compile_notice(a.game)

    df = api.simulate(a.game, rounds=a.rounds, seed=a.seed, policy=a.policy, expose=a.expose,
                      rules=rules.parse_assignments(a.rule),
                      session_rounds=a.session_rounds, fixed_dealer=a.fixed_dealer,
                      checked=a.checked, deals_only=a.deals_only,
                      checkpoint=a.checkpoint, resume=a.resume, cluster=a.cluster,
                      preset=a.preset, progress=not a.no_progress and sys.stderr.isatty())
    rc = 0
    if a.out is not None:
        fmt = a.format if a.format != "table" else "csv"
        kind = None
        try:
            kind = store.write_table(df, a.out, fmt, force=a.force, store=store.store_path())
            if kind != "stdout":
                print(f"wrote {len(df)} rows to {a.out}"
                      + (" (replaced the existing file)" if kind == "replace" else ""),
                      file=sys.stderr)
        except (OSError, ValueError) as e:
            sys.stderr.write(f"hanasim: error: {e}\n")
            rc = 1
            if a.format != "table":  # keep the computed table: on stdout instead
                df.to_csv(sys.stdout, index=False)
        if a.format == "table" and kind != "stdout":
            _print_table(df)
    elif a.format == "csv":
        df.to_csv(sys.stdout, index=False)
    else:
        _print_table(df)
    if not a.no_save:
        rc = _save_or_say(df) or rc
    return rc


def _cmd_compare(a):
    from . import api, store

    grid = {}
    for item in a.rule:
        name, _, values = item.partition("=")
        if not values:
            raise ValueError(f"--rule {item!r} must look like name=value1,value2")
        if name.strip() in grid:
            raise ValueError(f"rule {name.strip()!r} is given twice")
        grid[name.strip()] = [v.strip() for v in values.split(",")]
    if not a.no_save:
        store.check_store()
    _compile_notice(a.game)
    df = api.compare(a.game, rounds=a.rounds, seed=a.seed, rules=grid,
                     policies=a.policy or ["random"], expose=a.expose,
                     session_rounds=a.session_rounds, preset=a.preset,
                     max_variants=None if a.max_variants is None else
                     api.check_rounds(a.max_variants, "--max-variants"),
                     progress=not a.no_progress and sys.stderr.isatty())
    _print_comparison(df, a)
    return 0 if a.no_save else _save_or_say(df)


def _print_comparison(df, a):
    import pandas as pd

    if a.format == "csv":
        df.to_csv(sys.stdout, index=False)
        return
    meta = df.attrs
    print(f"{meta['game']}: {meta['rounds']:,} rounds per variant on the same deals, seed "
          f"{meta['seed']}, {meta['blocks']} blocks; baseline: {df.baseline.iloc[0]}")
    diffs = df[df.kind == "difference"]
    if not a.all:
        diffs = diffs[diffs.std_error.fillna(0) > 0]
    values = df[df.kind == "value"].pivot(index="quantity", columns="variant", values="estimate")
    with pd.option_context("display.max_rows", None, "display.width", 200):
        for variant, part in diffs.groupby("variant", sort=False):
            print(f"\n{variant}  vs  {part.baseline.iloc[0]}  (difference, 99.9% paired interval)")
            shown = part[["quantity", "estimate", "ci_low", "ci_high", "significant"]].copy()
            shown.insert(1, "baseline", shown.quantity.map(values[part.baseline.iloc[0]]))
            shown.insert(2, "variant", shown.quantity.map(values[variant]))
            shown = shown.rename(columns={"estimate": "difference"})
            shown["significant"] = shown["significant"].map({True: "yes", False: "no"})
            print(shown.to_string(index=False, float_format=lambda v: f"{v:.6g}"))


def _cmd_rules(a):
    from . import api
    from .games import get_game

    g = get_game(a.game)
    table = api.rules_table(a.game, preset=a.preset)
    print(f"{g.title}: house-rule options (source: {g.source})")
    presets = getattr(g, "preset_docs", None) or {}
    if a.preset:
        print(f"preset {a.preset}: {presets.get(a.preset, '')}; options it changes are marked *")
    for _, r in table.iterrows():
        if a.preset:
            mark = " *" if str(r.preset) != str(r.default) else ""
            print(f"  {r.option} = {r.preset}{mark}   (default {r.default}) [{r.allowed}]\n"
                  f"      {r.description}")
        else:
            print(f"  {r.option} = {r.default}   [{r.allowed}]\n      {r.description}")
    if presets and not a.preset:
        print("presets (--preset NAME; 'hanasim rules GAME --preset NAME' shows one):")
        for name, doc in presets.items():
            print(f"  {name}: {doc}")


def _cmd_games(a):
    from .games import available_games, get_game

    for name in available_games():
        g = get_game(name)
        print(f"{name:10s} {g.title}  ({g.source})")


def _cmd_exact(a):
    from . import api, rules

    df = api.exact(a.game, rules=rules.parse_assignments(a.rule), preset=a.preset)
    if a.format == "csv":
        df.to_csv(sys.stdout, index=False)
    else:
        print(df.to_string(index=False))


def _cmd_bench(a):
    from .bench import run_bench

    from .games import available_games

    games = available_games() if a.games.strip() == "all" else [g.strip() for g in a.games.split(",")]
    run_bench(games=games, rounds=a.rounds,
              compile_time=not a.no_compile)


COMMANDS = {"simulate": _cmd_simulate, "compare": _cmd_compare, "rules": _cmd_rules, "games": _cmd_games,
            "exact": _cmd_exact, "bench": _cmd_bench}


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    import hanasim

    if hanasim.ENV_PROBLEM:  # numba would not even import: say why, in one line
        sys.stderr.write(f"hanasim: error: {hanasim.ENV_PROBLEM}\n")
        return EXIT_USAGE
    return run_handler(args, getattr(args, "handler", None) or COMMANDS[args.command])


def run_handler(args, handler) -> int:
    """Run a subcommand: bad input is one line on stderr and exit code 2, Ctrl-C is 130."""
    from .engine.runner import Interrupted

    try:
        return handler(args) or 0
    except BrokenPipeError:  # output piped into e.g. `head`
        sys.stderr.close()
        return 0
    except (ValueError, TypeError, OSError) as e:  # bad input: one line, no traceback
        sys.stderr.write(f"hanasim: error: {e}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("hanasim: interrupted\n")
        return 130
    except Interrupted as e:
        hint = ""
        if not e.kept and args.command == "simulate":  # only simulate can keep batches
            hint = " (give --checkpoint DIR to make a long run resumable)"
        sys.stderr.write(f"hanasim: {e}{hint}\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
