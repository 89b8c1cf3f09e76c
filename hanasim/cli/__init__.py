"""The ``hanasim`` command: argument parsing and error messages only; all logic is in the API.

Exit codes: 0 success; 2 a usage error (a bad argument, named in one line); 1 a runtime
failure (no such saved run, a file that cannot be written, a damaged store or checkpoint file,
a Dask cluster that died); 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP.

The entry point (:func:`main`) and the parser (:func:`build_parser`) live here; each command
group is a module of its own (``simulate``, ``compare``, ``sweep``, ``tournament``, ``rules``
(with ``games`` and ``exact``), ``cards``, ``runs``, ``report``, ``bench`` (with ``warmup``)) that adds its
parsers with ``register`` functions and sets each leaf parser's ``handler``.  Imports go one
way: this module -> the command modules -> :mod:`hanasim.cli.common` -> the library; nothing
imports this module.  Every command module loads its heavy libraries (pandas, numba, the games)
inside its handler, so ``hanasim --version`` and ``--help`` stay quick.
"""
from __future__ import annotations

import argparse
import signal
import sys

from . import (bench, cards, compare, position, report, rules, runs, simulate, sweep,
               tournament)
from .common import (EXIT_FAILURE, EXIT_USAGE, EXPOSE_HELP, PLAYERS_HELP, POLICY_FORMS_HELP,
                     Parser, run_handler, save_or_say, signals_stop_the_run)

# the names hanasim.cli has always offered (the entry point, and the helpers tests call)
__all__ = ["main", "build_parser", "run_handler", "save_or_say", "EXIT_USAGE", "EXIT_FAILURE",
           "POLICY_FORMS_HELP", "PLAYERS_HELP", "EXPOSE_HELP"]

#: the subcommands in the order ``hanasim --help`` lists them
REGISTER = (simulate.register, compare.register, sweep.register, tournament.register,
            rules.register_rules, rules.register_games, runs.register, report.register,
            rules.register_exact, position.register, cards.register, bench.register_bench,
            bench.register_warmup)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hanasim")
    except PackageNotFoundError:
        return "0+unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="hanasim", description="Simulate traditional Japanese card games and "
                    "measure their rules: teyaku and misdeal rates, dealer edge, par balance, "
                    "what a house rule changes and what value would make it fair.")
    parser.add_argument("--version", action="version", version=f"hanasim {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for register in REGISTER:
        register(sub)
    # 'hanasim COMMAND --help' opens with what the command does: its line in 'hanasim --help'
    # where it has no longer description of its own
    for action in sub._choices_actions:
        command = sub.choices[action.dest]
        if command.description is None and action.help:
            command.description = action.help[0].upper() + action.help[1:] + "."
    return parser


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
        import hanasim

        if hanasim.ENV_PROBLEM:  # numba would not even import: say why, in one line
            sys.stderr.write(f"hanasim: error: {hanasim.ENV_PROBLEM}\n")
            return EXIT_USAGE
        with signals_stop_the_run():
            return run_handler(args, args.handler)
    except KeyboardInterrupt as e:  # Ctrl-C while modules load, before the command runs
        signum = getattr(e, "signum", None) or signal.SIGINT
        sys.stderr.write("hanasim: interrupted\n")
        return 128 + signum
