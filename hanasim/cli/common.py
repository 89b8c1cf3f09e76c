"""What every ``hanasim`` command shares: the parser class whose usage error is one line, the
options several commands take, the output helpers (write --out, draw --chart, save the run, stop
quietly when a pipe's reader goes away), and the one-line error exit (:func:`run_handler`).

Command modules import this module, never the entry point (:mod:`hanasim.cli`); this module
imports only the library.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys

EXIT_USAGE = 2
EXIT_FAILURE = 1


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the problem (and exit code 2)."""

    def error(self, message):
        sys.stderr.write(f"{self.prog}: error: {message} (see '{self.prog} --help')\n")
        sys.exit(EXIT_USAGE)



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
    "e.g. greedy/continue2/join), taoshi and ishikari_toppa CARD/JOIN/CLAIM (e.g. "
    "greedy/threshold5/expose); "
    "a lookahead CARD decides the rest by lookahead unless they are given")
#: the games each run option applies to (tests check them against the registry)
PLAYERS_HELP = ("players at the table, for a game with a 'players' rule (kushiro_toppa and "
                "bakappana: 2 to 4; taoshi and ishikari_toppa: 3 to 6); the same as --rule "
                "players=N")
EXPOSE_HELP = ("expose held teyaku: always, never, random; or one per player (default always); "
               "applies to toppa, baka, koikoi, kushiro_toppa, taoshi and ishikari_toppa (a "
               "lookahead player decides by lookahead); taipa and bakappana have no teyaku, so "
               "no such decision")


def add_run_options(p, rounds_default, per="played rounds to simulate"):
    """The options every simulating command shares (simulate, sweep)."""
    add_play_options(p, rounds_default, per)
    p.add_argument("--session-rounds", default=1, metavar="L",
                   help="rounds per session: the winner deals the next round (default 1); "
                   "session quantities count whole sessions only (a cut-off last session's "
                   "rounds count per round, and the table says so)")
    p.add_argument("--fixed-dealer", action="store_true",
                   help="player 1 deals every round (measure a policy pairing by seat)")


def add_play_options(p, rounds_default, per):
    """The game and how it is played: rounds, seed, policies, preset, expose, players (every
    command that plays rounds, the card values' included)."""
    p.add_argument("game", help="game name (see 'hanasim games')")
    p.add_argument("--rounds", default=rounds_default, metavar="N",
                   help=f"{per} (default {rounds_default:,})")
    p.add_argument("--seed", default=None, metavar="S",
                   help="whole number; the same seed gives the same table (default: fresh, printed)")
    p.add_argument("--policy", default="random", metavar="P",
                   help="one policy for every player, or one per seated player (greedy,random); "
                   "default random. Forms: " + POLICY_FORMS_HELP)
    add_preset(p)
    p.add_argument("--expose", default="always", metavar="E", help=EXPOSE_HELP)
    p.add_argument("--players", default=None, metavar="N", help=PLAYERS_HELP)


GIVEN_HELP = ("cards a seat is dealt in every round, repeatable: SEAT=CARD,CARD,... (SEAT: dealer, "
              "opponent, right, left, seat1..., first_player, second_player, field, as the "
              "game's tables name them; cards as 'hanasim cards GAME --list' writes them, e.g. "
              "dealer=11b,8b or field=3b); every deal is drawn uniformly among those consistent "
              "with the given cards")
WHERE_HELP = ("a condition on the deal, repeatable (all must hold): 'SEAT.WHAT OP N' in quotes "
              "(the shell reads > and < as redirections), e.g. 'dealer.brights>=2', "
              "'field.brights>=1', 'opponent.cards(11b,8b)==0', or a teyaku SEAT.NAME "
              "(dealer.triplet); deals that fail are dealt again, and the table's notes give the "
              "acceptance rate")


def add_condition_options(p):
    """--given and --where (simulate, compare, sweep, report)."""
    p.add_argument("--given", action="append", default=[], metavar="SEAT=CARDS", help=GIVEN_HELP)
    p.add_argument("--where", action="append", default=[], metavar="CONDITION",
                   help=WHERE_HELP)


def condition_args(a) -> dict:
    """The API's ``given=`` and ``where=`` from the parsed options (none when not given)."""
    return dict(given=list(a.given) or None, where=list(a.where) or None)


def add_preset(p):
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


def changed_rules(game: str, rules: str) -> str:
    """The options of a rules string that differ from the game's defaults ('default' if none)."""
    from ..rules_text import changed_rules as changed

    return changed(game, rules)


def print_notes(meta, out=None):
    # the stream is looked up at call time: a default bound at import time would keep writing
    # to whatever sys.stdout was then (a test's capture, a closed pipe)
    out = sys.stdout if out is None else out
    for note in meta.get("notes") or ():
        print(f"note: {note}", file=out)



def save_or_say(df, store_dir=None) -> int:
    """Save a computed table in the store and say where; if that fails, say so (the table is
    already on stdout or in --out) and return exit code 1: a run is never dropped silently."""
    from ..store import save_run, store_path

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
        stdout_gone()


def stdout_gone() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # later writes (and the exit flush) go nowhere


def check_output(a, store_dir, others=None, checkpoint=None):
    """Check ``--out``/``--format`` and the command's other output files (``others``:
    ``{"--chart": path}``) before any work, with the check every command shares
    (:func:`hanasim.outputs.check_outputs`); return the format to write --out in."""
    from .. import outputs, store

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
    from .. import store

    try:
        kind = store.write_table(df, a.out, fmt, force=a.force, store=store.store_path(store_dir))
    except BrokenPipeError:  # --out - read by e.g. `head`, which stopped reading: as emit does
        stdout_gone()
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
    from .. import outputs, plot, store

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



def with_players(given: dict, players) -> dict:
    """``--players N`` is ``--rule players=N``: given both, they must say the same (a flag
    that quietly loses to a rule, or a rule to a flag, runs a game nobody asked for)."""
    if players is None:
        return given
    if "players" in given:
        from ..numtext import is_whole

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



class _Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP before the engine's runner is loaded (see signals_stop_the_run)."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def signals_stop_the_run():
    """SIGTERM and SIGHUP end a command the way Ctrl-C does (finished batches kept, one line
    saying how to resume; exit code 128 + the signal), not silently.  A signal the caller
    ignores (``nohup`` ignores SIGHUP) stays ignored."""
    def stop(signum, frame):
        # the runner's Stop, which a run under way handles; a command that has not loaded the
        # runner (and numpy: `runs list`) has no run under way, and ends as Ctrl-C ends it
        runner = sys.modules.get("hanasim.engine.runner")
        raise getattr(runner, "Stop", _Stopped)(signum)

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


def oserror(e: OSError) -> str:
    """An OSError in one line that names its path (Python's own text may give only the errno
    text, "[Errno 28] No space left on device")."""
    from ..atomic import why

    text = str(e)
    if e.strerror and e.filename is not None and (text.startswith("[Errno")
                                                  or str(e.filename) not in text):
        return f"{e.filename}: {why(e, e.filename)}"
    return text


class _NeverRaised(Exception):
    pass


def _runner(name: str):
    """The engine runner's exception class ``name`` if the runner was loaded, else a class
    nothing raises: only code that loaded the runner raises its exceptions, and a command
    that never needs it (``runs list``) is spared loading it (and numpy with it).  An except
    clause names it when an exception is being handled, after the command ran."""
    runner = sys.modules.get("hanasim.engine.runner")
    return _NeverRaised if runner is None else getattr(runner, name)


def run_handler(args, handler) -> int:
    """Run a subcommand: a bad argument is one line on stderr and exit code 2; a runtime
    failure (a saved run that is not there, a file that cannot be written, a damaged
    checkpoint, a Dask cluster that died) one line and exit code 1; Ctrl-C is 130, SIGTERM
    143, SIGHUP 129."""
    from ..store_place import StoreError  # no pandas: `runs list` may not need it

    pid = os.getpid()
    try:
        return handler(args) or 0
    except BrokenPipeError:  # output piped into e.g. `head`
        sys.stderr.close()
        return 0
    except OSError as e:  # the world, not the arguments: one line, exit 1
        sys.stderr.write(f"hanasim: error: {oserror(e)}\n")
        return EXIT_FAILURE
    except (StoreError, _runner("CheckpointError"), _runner("ExecutorError")) as e:
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
    except _runner("Interrupted") as e:
        hint = ""
        if not e.kept and args.command == "simulate":  # only simulate can keep batches
            hint = " (give --checkpoint DIR to make a long run resumable)"
        sys.stderr.write(f"hanasim: {e}{hint}\n")
        return 128 + (e.signum or signal.SIGINT)
