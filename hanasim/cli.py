"""The ``hanasim`` command: argument parsing and error messages only; all logic is in the API.

Exit codes: 0 success; 2 a usage error (a bad argument, named in one line); 1 a runtime
failure (no such saved run, a file that cannot be written, a damaged store or checkpoint file,
a Dask cluster that died); 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys

EXIT_USAGE = 2
EXIT_FAILURE = 1


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the problem (and exit code 2)."""

    def error(self, message):
        sys.stderr.write(f"{self.prog}: error: {message} (see '{self.prog} --help')\n")
        sys.exit(EXIT_USAGE)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hanasim")
    except PackageNotFoundError:
        return "0+unknown"


def add_store_option(p, saves=True):
    p.add_argument("--store", default=None, metavar="DIR",
                   help="results store directory (default: $HANASIM_STORE, else the project's "
                   "hanasim-runs folder, found from any subdirectory)")
    if saves:
        p.add_argument("--no-save", action="store_true",
                       help="do not save the run in the results store")


def add_threads_option(p):
    p.add_argument("--threads", default=None, metavar="N",
                   help="numba threads to use (default: all); the table does not depend on it")


#: every policy form, for every --policy help (tests check it against each game's parser)
POLICY_FORMS_HELP = (
    "random, greedy or lookahead[:K] (K determinisations a decision); games with more "
    "decisions add them after slashes: koikoi and taipa CARD/DECISION (DECISION: random, stop, "
    "continue[K], threshold[T]; e.g. greedy/stop, greedy/threshold5), kushiro_toppa "
    "CARD/DECISION/JOIN/SWAP (JOIN: join, random, threshold[K]; SWAP: always, never, random; "
    "e.g. greedy/continue2/join), taoshi CARD/JOIN/CLAIM (e.g. greedy/threshold5/expose); "
    "a lookahead CARD decides the rest by lookahead unless they are given")
#: the games each run option applies to (tests check them against the registry)
PLAYERS_HELP = ("players at the table, for a game with a 'players' rule (kushiro_toppa: 2 to "
                "4; taoshi: 3 to 6); the same as --rule players=N")
EXPOSE_HELP = ("expose held teyaku: always, never, random; or one per player (default always); "
               "applies to toppa, baka, koikoi, kushiro_toppa and taoshi (a lookahead player "
               "decides by lookahead); taipa has no teyaku, so no such decision")


def add_run_options(p, rounds_default, per="played rounds to simulate"):
    """The options every simulating command shares (simulate, sweep)."""
    p.add_argument("game", help="game name (see 'hanasim games')")
    p.add_argument("--rounds", default=rounds_default, metavar="N",
                   help=f"{per} (default {rounds_default:,})")
    p.add_argument("--seed", default=None, metavar="S",
                   help="whole number; the same seed gives the same table (default: fresh, printed)")
    p.add_argument("--policy", default="random", metavar="P",
                   help="one policy for every player, or one per seated player (greedy,random); "
                   "default random. Forms: " + POLICY_FORMS_HELP)
    _add_preset(p)
    p.add_argument("--expose", default="always", metavar="E", help=EXPOSE_HELP)
    p.add_argument("--players", default=None, metavar="N", help=PLAYERS_HELP)
    p.add_argument("--session-rounds", default=1, metavar="L",
                   help="rounds per session: the winner deals the next round (default 1); "
                   "session quantities count whole sessions only (a cut-off last session's "
                   "rounds count per round, and the table says so)")
    p.add_argument("--fixed-dealer", action="store_true",
                   help="player 1 deals every round (measure a policy pairing by seat)")


def _add_preset(p):
    p.add_argument("--preset", default=None, metavar="NAME",
                   help="a named set of rule options ('hanasim rules GAME' lists them); --rule "
                   "options apply on top")
def add_out_options(p, what="the table"):
    p.add_argument("--format", choices=("table", "csv", "parquet"), default=None,
                   help="table (readable, the default on the terminal), csv, or parquet (needs "
                   "--out); with --out the default is the file's extension (.csv, .parquet)")
    p.add_argument("--out", default=None, metavar="PATH",
                   help=f"write {what} to this file (- for stdout; a FIFO or device is written "
                   "through)")
    p.add_argument("--force", action="store_true", help="overwrite an existing --out file")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="hanasim", description="Simulate traditional Japanese card games and "
                     "measure their rules: teyaku and misdeal rates, dealer edge, par balance, "
                     "what a house rule changes and what value would make it fair.")
    parser.add_argument("--version", action="version", version=f"hanasim {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    from . import cli_precision

    p = sub.add_parser("simulate", help="simulate rounds and print (or write) the summary table")
    add_run_options(p, 1_000_000)
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="house rule option, repeatable (see 'hanasim rules GAME'); "
                   "par=104,136 sets one par per seat, par.dealer=104 one seat's")
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
    cli_precision.add_option(p)
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_store_option(p)

    p = sub.add_parser("compare", help="compare house-rule values or policies on the same deals")
    p.add_argument("game")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=V1,V2",
                   help="an option and the values to compare (repeatable; one value holds it "
                   "fixed; per-seat values are separated by |: par=120|104,136)")
    p.add_argument("--policy", action="append", default=[], metavar="P",
                   help="a policy setting to compare, e.g. random or greedy,random (repeatable). "
                   "Forms: " + POLICY_FORMS_HELP)
    _add_preset(p)
    p.add_argument("--rounds", default=1_000_000, metavar="N", help="rounds per variant (default 1,000,000)")
    p.add_argument("--seed", default=None, metavar="S")
    p.add_argument("--expose", default="always", metavar="E", help=EXPOSE_HELP)
    p.add_argument("--session-rounds", default=1, metavar="L")
    p.add_argument("--all", action="store_true", help="show every quantity, not only those that differ")
    p.add_argument("--negligible", default=None, metavar="SD",
                   help="a significant difference smaller than SD standard deviations of one "
                   "round reads 'significant but negligible' (default 0.01: over 100 rounds "
                   "it moves a total by a tenth of the spread luck gives it)")
    p.add_argument("--max-variants", default=None, metavar="N",
                   help="allow more than 64 variants (rule combinations x policies)")
    p.add_argument("--format", choices=("table", "csv"), default="table")
    add_threads_option(p)
    cli_precision.add_option(p, "paired interval of every difference")
    p.add_argument("--no-progress", action="store_true")
    add_store_option(p)

    from . import cli_sweep, cli_tournament
    cli_sweep.register(sub)
    cli_tournament.register(sub)

    p = sub.add_parser("rules", help="list a game's house-rule options, defaults and the values the rule texts name")
    p.add_argument("game")
    _add_preset(p)

    sub.add_parser("games", help="list the available games")
    from . import cli_extra
    cli_extra.register(sub)  # runs (the results store) and report

    p = sub.add_parser("exact", help="exact deal-time probabilities (misdeal, teyaku; taipa: "
                                      "yaku cards in a hand or the field)")
    p.add_argument("game")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--removed", metavar="YAKU[*N],...",
                   help="taipa: the deck after these yaku left play (e.g. "
                        "three_brights,ribbons*2), as rounds 2 and 3 are dealt; sets the "
                        "removed_* rules")
    _add_preset(p)
    p.add_argument("--format", choices=("table", "csv"), default="table")

    p = sub.add_parser("bench", help="measure rounds per second per core and compile time")
    p.add_argument("--rounds", default=2_000_000, metavar="N",
                   help="rounds per measurement (default 2,000,000)")
    p.add_argument("--games", default="all", help="comma-separated games (default all)")
    p.add_argument("--no-compile", action="store_true",
                   help="skip measuring the cold compile times (a minute or two a game)")
    from . import cli_warmup
    cli_warmup.register(sub)
    return parser


def changed_rules(game: str, rules: str) -> str:
    """The options of a rules string that differ from the game's defaults ('default' if none)."""
    from . import rules as _rules

    if not isinstance(rules, str):
        return ""
    try:
        from .api import rules_table

        defaults = {r.option: str(r.default) for r in rules_table(game).itertuples()}
    except ValueError:  # a game this hanasim does not know: show everything
        return rules
    items = _rules.parse_rules_string(rules)
    if not items:
        return rules
    changed = [f"{k}={v}" for k, v in items.items() if defaults.get(k) != v]
    return ", ".join(changed) or "default"


def print_notes(meta, out=None):
    # the stream is looked up at call time: a default bound at import time would keep writing
    # to whatever sys.stdout was then (a test's capture, a closed pipe)
    out = sys.stdout if out is None else out
    for note in meta.get("notes") or ():
        print(f"note: {note}", file=out)


def _has_expose(game) -> bool:
    """Whether the game has an expose decision (games without teyaku have none)."""
    from .games import UnknownGame, get_game

    try:
        return bool(getattr(get_game(game), "expose", True))
    except (UnknownGame, TypeError):
        return True


def _print_table(df, out=None, show_all=False):
    import pandas as pd

    out = sys.stdout if out is None else out
    meta = df.attrs
    how = ("deals only (no play)" if meta.get("deals_only") else
           f"policies {meta.get('policies')}" + (f", expose {meta.get('expose')}"
                                                 if _has_expose(meta.get("game")) else ""))
    head = (f"{meta.get('game')}: {meta.get('rounds'):,} rounds, seed {meta.get('seed')}, "
            f"{how}, {meta.get('wall_time_s')} s")
    print(head, file=out)
    changed = changed_rules(meta.get("game"), meta.get("rules"))
    print("rules: " + ("the defaults" if changed == "default" else f"{changed} (the rest "
                       "default)") + f"; 'hanasim rules {meta.get('game')}' lists them", file=out)
    print_notes(meta, out)
    if not show_all:  # the answers first, then every quantity grouped and readable
        from .cli_table import print_readable

        print_readable(df, out)
        return
    print("estimates with 99.9% intervals (Wilson for proportions)", file=out)
    cols = ["quantity", "estimate", "std_error", "ci_low", "ci_high", "n"]
    with pd.option_context("display.max_rows", None, "display.width", 200):
        print(df[cols].to_string(index=False, float_format=lambda v: f"{v:.6g}"), file=out)


def save_or_say(df, store_dir=None) -> int:
    """Save a computed table in the store and say where; if that fails, say so (the table is
    already on stdout or in --out) and return exit code 1: a run is never dropped silently."""
    from .store import save_run, store_path

    try:
        print(f"saved run {save_run(df, store_dir)} in {store_path(store_dir)}", file=sys.stderr)
    except (OSError, ValueError) as e:
        sys.stderr.write(f"hanasim: error: the run was computed but not saved: {e}\n")
        return EXIT_FAILURE
    return 0


def emit(write) -> None:
    """Run ``write()`` (printing to stdout); if the reader of a pipe went away (``| head``),
    stop writing quietly so the command can still finish (save its run, say so)."""
    try:
        write()
        sys.stdout.flush()
    except BrokenPipeError:
        _stdout_gone()


def _stdout_gone() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # later writes (and the exit flush) go nowhere


def check_output(a, store_dir, others=None, checkpoint=None):
    """Check ``--out``/``--format`` and the command's other output files (``others``:
    ``{"--chart": path}``) before any work, with the check every command shares
    (:func:`hanasim.outputs.check_outputs`); return the format to write --out in."""
    from . import outputs, store

    if a.format == "parquet" and not a.out:
        raise ValueError("--format parquet needs --out PATH (- for stdout)")
    fmt = None
    if a.out is not None:
        fmt = store.output_format(a.out, None if a.format in (None, "table") else a.format)
    outputs.check_outputs({"--out": a.out, **(others or {})}, force=a.force,
                          store=store.store_path(store_dir), checkpoint=checkpoint)
    return fmt


def write_out(df, a, fmt, store_dir) -> int:
    """Write ``df`` to ``--out`` in ``fmt``; on failure say so (exit code 1) and put the
    table on stdout instead, so the computed run is not lost."""
    from . import store

    try:
        kind = store.write_table(df, a.out, fmt, force=a.force, store=store.store_path(store_dir))
    except BrokenPipeError:  # --out - read by e.g. `head`, which stopped reading: as emit does
        _stdout_gone()
        return 0
    except (OSError, ValueError) as e:
        sys.stderr.write(f"hanasim: error: {e}\n")
        emit(lambda: df.to_csv(sys.stdout, index=False))
        return EXIT_FAILURE
    if kind != "stdout":
        print(f"wrote {len(df)} rows to {a.out} ({fmt})"
              + (" (replaced the existing file)" if kind == "replace" else ""), file=sys.stderr)
    return 0


def write_chart(path, fmt, figure, *, force=False, store_dir=None) -> int:
    """Draw ``figure()`` into the chart file ``path`` (checked before the work) the way --out
    is written (atomically; a symlink's target, a FIFO written through); a chart that cannot
    be drawn or written is one line naming the path, and exit code 1: the run itself (the
    table, the saved run) is never lost with it."""
    from . import outputs, plot, store

    try:
        fig = figure()
        try:
            data = plot.figure_bytes(fig, fmt)
        finally:
            import matplotlib.pyplot as plt

            plt.close(fig)
        outputs.write_output(path, data, force=force, store=store.store_path(store_dir))
    except OSError as e:
        sys.stderr.write(f"hanasim: error: the chart was not written: {e}\n")
        return EXIT_FAILURE
    except ValueError as e:
        sys.stderr.write(f"hanasim: error: the chart {path} was not written: {e}\n")
        return EXIT_FAILURE
    print(f"wrote the chart to {path}", file=sys.stderr)
    return 0


def _cmd_simulate(a):
    from . import api, cli_precision, outputs, rules, store

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
                      precision=cli_precision.goal(a),
                      progress=not a.no_progress and sys.stderr.isatty())
    cli_precision.say(df)
    rc = 0
    if a.out is not None:
        rc = write_out(df, a, fmt, a.store)
        if a.format in (None, "table") and not outputs.is_stdout(a.out):  # stdout is the file
            emit(lambda: _print_table(df, show_all=a.all))
    elif a.format == "csv":
        emit(lambda: df.to_csv(sys.stdout, index=False))
    else:
        emit(lambda: _print_table(df, show_all=a.all))
    if not a.no_save:
        rc = save_or_say(df, a.store) or rc
    return rc


def with_players(given: dict, players) -> dict:
    """``--players N`` is ``--rule players=N``: given both, they must say the same (a flag
    that quietly loses to a rule, or a rule to a flag, runs a game nobody asked for)."""
    if players is None:
        return given
    if "players" in given:
        from .numtext import is_whole

        rule, flag = str(given["players"]).strip(), str(players).strip()
        same = int(rule) == int(flag) if is_whole(rule) and is_whole(flag) else rule == flag
        if not same:
            raise ValueError(f"--players {flag} contradicts --rule players={rule}: give one "
                             "of them")
    return {**given, "players": given.get("players", players)}


def parse_grid(items, what="--rule", example="name=value1,value2") -> dict:
    """``["a=1,2", "b=x"]`` to ``{"a": "1,2", "b": "x"}`` (the API splits the values)."""
    grid = {}
    for item in items:
        name, _, values = item.partition("=")
        if not values.strip():
            raise ValueError(f"{what} {item!r} must look like {example}")
        if name.strip() in grid:
            raise ValueError(f"rule {name.strip()!r} is given twice")
        grid[name.strip()] = values.strip()
    return grid


def _cmd_compare(a):
    from . import api, cli_precision, store

    grid = parse_grid(a.rule)
    if a.negligible is not None:  # checked before the work
        a.negligible = api._negligible(a.negligible)
    if not a.no_save:
        store.check_store(a.store)
    max_variants = (None if a.max_variants is None else
                    api.check_rounds(a.max_variants, "--max-variants"))
    df = api.compare(a.game, rounds=a.rounds, seed=a.seed, rules=grid,
                     policies=a.policy or ["random"], expose=a.expose,
                     session_rounds=a.session_rounds, preset=a.preset, threads=a.threads,
                     max_variants=max_variants, negligible=a.negligible,
                     precision=cli_precision.goal(a),
                     progress=not a.no_progress and sys.stderr.isatty())
    cli_precision.say(df)
    emit(lambda: _print_comparison(df, a))
    return 0 if a.no_save else save_or_say(df, a.store)


def _print_comparison(df, a):
    import pandas as pd

    if a.format == "csv":
        df.to_csv(sys.stdout, index=False)
        return
    meta = df.attrs
    print(f"{meta['game']}: {meta['rounds']:,} rounds per variant on the same deals, seed "
          f"{meta['seed']}, {meta['blocks']} blocks; policies {meta['policies']}; baseline: "
          f"{df.baseline.iloc[0]}")
    print_notes(meta)
    all_diffs = df[df.kind == "difference"]
    moved = all_diffs[(all_diffs.estimate != 0) | (all_diffs.std_error.fillna(0) > 0)]
    if moved.empty:
        print("\nnothing differs: every quantity is identical in every variant (on these deals "
              "the rule changes nothing)")
        return
    if not all_diffs.significant.fillna(False).astype(bool).any():
        print("\nno quantity differs significantly (every 99.9% paired interval includes 0)"
              + ("" if a.all else "; --all shows them"))
    diffs = all_diffs if a.all else moved
    values = df[df.kind == "value"].pivot(index="quantity", columns="variant", values="estimate")
    with pd.option_context("display.max_rows", None, "display.width", 200):
        for variant, part in diffs.groupby("variant", sort=False):
            print(f"\n{variant}  vs  {part.baseline.iloc[0]}  (difference, 99.9% paired interval)")
            from .cli_table import columns_text, is_share, number

            base_values = values[part.baseline.iloc[0]]
            shown = pd.DataFrame({
                "quantity": part.quantity,
                "baseline": [number(base_values[q], is_share(q)) for q in part.quantity],
                "variant": [number(values[variant][q], is_share(q)) for q in part.quantity],
                "difference": [_diff(v, q) for v, q in zip(part.estimate, part.quantity)],
                "99.9% interval": [f"{_diff(lo, q)} to {_diff(hi, q)}" for lo, hi, q in
                                   zip(part.ci_low, part.ci_high, part.quantity)],
                "per 100 rounds": [number(v) for v in part.per_100],
                "in round SDs": [number(v) for v in part.size_sd],
                "verdict": part.verdict})
            print(columns_text(shown))
    print(f"\n'pt': percentage points; 'per 100 rounds': the difference over 100 rounds (or "
          "hands, decisions: the "
          f"quantity's unit; blank for a percentile, a spread or a fair value, which do not "
          f"add up over rounds); 'in round SDs': the difference in standard deviations of one "
          f"round; a significant difference below {meta.get('negligible', 0.01):g} of them is "
          "'significant but negligible' (--negligible)")


def _diff(v, quantity) -> str:
    """A difference as a reader writes it: a share's in percentage points."""
    from .cli_table import is_share, number

    return f"{number(100 * v)} pt" if is_share(quantity) else number(v)


def _cmd_rules(a):
    from . import api
    from .games import get_game

    g = get_game(a.game)
    table = api.rules_table(a.game, preset=a.preset)
    print(f"{g.title}: house-rule options (source: {g.source})")
    presets = getattr(g, "preset_docs", None) or {}
    print("NAME = DEFAULT   [allowed values]; 'readings' are the values the rule texts "
          "themselves name")
    if a.preset:
        new = (getattr(g, "preset_aliases", None) or {}).get(a.preset)  # a former name
        doc = presets.get(new or a.preset, "") + (f" ({a.preset} is the former name of {new})"
                                                   if new else "")
        print(f"preset {a.preset}: {doc}; options it changes are marked *")
    for _, r in table.iterrows():
        if a.preset:
            mark = " *" if str(r.preset) != str(r.default) else ""
            print(f"  {r.option} = {r.preset}{mark}   (default {r.default}) [{r.allowed}]\n"
                  f"      {r.description}")
        else:
            print(f"  {r.option} = {r.default}   [{r.allowed}]\n      {r.description}")
        if r.readings.count("(") > 1:  # the rule texts name more than one value
            print(f"      readings: {r.readings}")
    if presets and not a.preset:
        print("presets (--preset NAME; 'hanasim rules GAME --preset NAME' shows one):")
        for name, doc in presets.items():
            print(f"  {name}: {doc}")
    from .games import readings

    text = readings(a.game)
    if text:
        print()
        print(text.rstrip())


def _cmd_games(a):
    from .games import available_games, get_game

    names = available_games()
    games = [get_game(n) for n in names]
    w_name = max(len(n) for n in names)
    w_title = max(len(g.title) for g in games)
    print(f"{'name':<{w_name}}  {'game':<{w_title}}  source")
    for name, g in zip(names, games):
        print(f"{name:<{w_name}}  {g.title:<{w_title}}  {g.source}")


def _cmd_exact(a):
    from . import api, rules

    given = rules.parse_assignments(a.rule)
    if a.removed is not None:
        from .games import get_game

        g = get_game(a.game)
        if not hasattr(g, "removed_rules"):
            raise ValueError(f"--removed applies to taipa (a deck that shrinks), not {a.game}")
        removed = g.removed_rules(a.removed)
        both = [k for k in removed if k in given]
        if both:  # the flag sets these rules: it must not quietly override a --rule
            raise ValueError(f"--removed sets the removed_* rules, so it contradicts --rule "
                             f"{both[0]}={given[both[0]]}: give one of them")
        given.update(removed)
    df = api.exact(a.game, rules=given, preset=a.preset)
    if a.format == "csv":
        emit(lambda: df.to_csv(sys.stdout, index=False))
    else:
        emit(lambda: print(df.to_string(index=False)))


def _cmd_bench(a):
    from .bench import run_bench

    from .games import available_games

    games = available_games() if a.games.strip() == "all" else [g.strip() for g in a.games.split(",")]
    run_bench(games=games, rounds=a.rounds,
              compile_time=not a.no_compile)


COMMANDS = {"simulate": _cmd_simulate, "compare": _cmd_compare, "rules": _cmd_rules, "games": _cmd_games,
            "exact": _cmd_exact, "bench": _cmd_bench}


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
        import hanasim

        if hanasim.ENV_PROBLEM:  # numba would not even import: say why, in one line
            sys.stderr.write(f"hanasim: error: {hanasim.ENV_PROBLEM}\n")
            return EXIT_USAGE
        with _signals_stop_the_run():
            return run_handler(args, getattr(args, "handler", None) or COMMANDS[args.command])
    except KeyboardInterrupt as e:  # Ctrl-C while modules load, before the command runs
        signum = getattr(e, "signum", None) or signal.SIGINT
        sys.stderr.write("hanasim: interrupted\n")
        return 128 + signum


@contextlib.contextmanager
def _signals_stop_the_run():
    """SIGTERM and SIGHUP end a command the way Ctrl-C does (finished batches kept, one line
    saying how to resume; exit code 128 + the signal), not silently.  A signal the caller
    ignores (``nohup`` ignores SIGHUP) stays ignored."""
    from .engine.runner import Stop

    def stop(signum, frame):
        raise Stop(signum)

    installed = {}
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        try:
            if sig is not None and signal.getsignal(sig) is signal.SIG_DFL:
                installed[sig] = signal.signal(sig, stop)
        except (ValueError, OSError):  # not the main thread: leave signals alone
            pass
    try:
        yield
    finally:
        for sig, old in installed.items():
            signal.signal(sig, old)


def _oserror(e: OSError) -> str:
    """An OSError in one line that names its path (Python's own text may give only the errno
    text, "[Errno 28] No space left on device")."""
    from .atomic import why

    text = str(e)
    if e.strerror and e.filename is not None and (text.startswith("[Errno")
                                                  or str(e.filename) not in text):
        return f"{e.filename}: {why(e, e.filename)}"
    return text


def run_handler(args, handler) -> int:
    """Run a subcommand: a bad argument is one line on stderr and exit code 2; a runtime
    failure (a saved run that is not there, a file that cannot be written, a damaged
    checkpoint, a Dask cluster that died) one line and exit code 1; Ctrl-C is 130, SIGTERM
    143, SIGHUP 129."""
    from .engine.runner import CheckpointError, ExecutorError, Interrupted
    from .store import StoreError

    pid = os.getpid()
    try:
        return handler(args) or 0
    except BrokenPipeError:  # output piped into e.g. `head`
        sys.stderr.close()
        return 0
    except OSError as e:  # the world, not the arguments: one line, exit 1
        sys.stderr.write(f"hanasim: error: {_oserror(e)}\n")
        return EXIT_FAILURE
    except (StoreError, CheckpointError, ExecutorError) as e:
        sys.stderr.write(f"hanasim: error: {e}\n")
        return EXIT_FAILURE
    except (ValueError, TypeError) as e:  # bad input: one line, no traceback
        sys.stderr.write(f"hanasim: error: {e}\n")
        return EXIT_USAGE
    except KeyboardInterrupt as e:
        signum = getattr(e, "signum", None)
        if os.getpid() != pid:  # a forked child (a Dask worker starting) stopped with us:
            os._exit(128 + (signum or signal.SIGINT))  # the parent alone says so
        sys.stderr.write("hanasim: interrupted\n" if signum is None else
                         f"hanasim: stopped by {signal.Signals(signum).name}\n")
        return 128 + (signum or signal.SIGINT)
    except Interrupted as e:
        hint = ""
        if not e.kept and args.command == "simulate":  # only simulate can keep batches
            hint = " (give --checkpoint DIR to make a long run resumable)"
        sys.stderr.write(f"hanasim: {e}{hint}\n")
        return 128 + (e.signum or signal.SIGINT)


if __name__ == "__main__":
    sys.exit(main())
