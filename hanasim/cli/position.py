"""``hanasim replay`` and ``hanasim advise``: parsing and printing only (the work is
``hanasim.position``).

Exit codes: 2 a file or an argument that cannot be read (bad JSON, an unknown card, a position
that cannot occur), 1 a record whose action the rules do not allow (one line: round, turn,
player, card).
"""
from __future__ import annotations

import sys

from .common import EXIT_FAILURE, add_out_options, add_preset, check_output, emit, write_out

REACHED_HELP = ("toppa, baka, bakappana, ishikari_toppa, koikoi, taipa, kushiro_toppa, "
                "taoshi")


def _add_rules(p):
    add_preset(p)
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="house rule option, repeatable (see 'hanasim rules GAME'); on top of "
                   "the record's own rules")


def _add_lookahead(p, default=64):
    p.add_argument("--samples", type=int, default=default, metavar="K",
                   help=f"determinisations of what the player cannot see (default {default})")
    p.add_argument("--seed", type=int, default=0,
                   help="the random seed of the determinisations (default 0)")


def register(sub) -> None:
    p = sub.add_parser("replay", help="replay a recorded game: check every action, print each "
                       "round's points and the totals")
    p.add_argument("game", help=f"the game ({REACHED_HELP})")
    p.add_argument("file", help="the record (JSON: hanasim/position/RECORD_FORMAT.md)")
    _add_rules(p)
    p.add_argument("--advise", action="store_true",
                   help="value every recorded choice by the lookahead and mark those clearly "
                   "below the best (99.9%% paired interval)")
    _add_lookahead(p, 32)
    add_out_options(p, "the points table")
    p.set_defaults(handler=cmd_replay, no_save=True, store=None)

    p = sub.add_parser("advise", help="the lookahead's value of every legal action at a "
                       "position")
    p.add_argument("game", help=f"the game ({REACHED_HELP})")
    p.add_argument("--position", required=True, metavar="FILE",
                   help="the position (JSON: a round's cards and the actions so far; "
                   "hanasim/position/RECORD_FORMAT.md)")
    _add_rules(p)
    _add_lookahead(p)
    add_out_options(p, "the advice table")
    p.set_defaults(handler=cmd_advise, no_save=True, store=None)


def _check_samples(a):
    if not 2 <= a.samples <= 100_000:
        raise ValueError(f"--samples {a.samples}: give 2 to 100000 determinisations")


def cmd_replay(a):
    from .. import rules as R
    from ..compiling import notice
    from ..position.api import game_name
    from ..position import record, replay

    _check_samples(a)
    fmt = check_output(a, None)
    data = record.load(a.file)
    try:
        with notice(game_name(a.game, data), scope="advice" if a.advise else "replay"):
            out = replay.replay(data, a.game, R.parse_assignments(a.rule), a.preset,
                                advise=a.advise, samples=a.samples, seed=a.seed)
    except replay.WrongDealer as e:
        sys.stderr.write(f"hanasim: a dealer the rules do not name in {a.file}: {e}\n")
        return EXIT_FAILURE
    except replay.IllegalAction as e:
        sys.stderr.write(f"hanasim: illegal action in {a.file}: {e}\n")
        return EXIT_FAILURE
    df = out.points
    rc = 0
    if a.out is not None:
        rc = write_out(df, a, fmt, None)
    elif a.format == "csv":
        emit(lambda: df.to_csv(sys.stdout, index=False))
    else:
        emit(lambda: print(f"{df.attrs['game']}: points are {df.attrs['unit']}; the totals "
                           f"are the record's rounds summed\n" + df.to_string(index=False)))
    from .. import outputs

    if out.advice is not None and (a.out is None or not outputs.is_stdout(a.out)):
        adv = out.advice
        marked = adv[adv["clearly_below"]] if len(adv) else adv

        def show():
            print(f"\nadvice: {len(adv)} recorded choices valued ({a.samples} "
                  f"determinisations, seed {a.seed}); "
                  + (f"{len(marked)} clearly below the best:" if len(marked) else
                     "none clearly below the best (99.9% paired interval)"))
            if len(marked):
                cols = ["round", "at", "player", "action", "value", "best_action",
                        "best_value", "vs_best_low", "vs_best_high"]
                print(marked[cols].round(2).to_string(index=False))
        emit(show)
    return rc


def cmd_advise(a):
    import json
    from pathlib import Path

    from .. import rules as R
    from ..compiling import notice
    from ..position import game as make_game
    from ..position.api import game_name
    from ..position.advice import advise
    from ..position.record import RecordError
    from ..position.replay import IllegalAction

    _check_samples(a)
    fmt = check_output(a, None)
    try:
        data = json.loads(Path(a.position).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"no such file: {a.position}") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{a.position} is not JSON: {e.msg} at line {e.lineno}, column "
                         f"{e.colno}") from None
    from ..position.positions import position_from_json

    with notice(game_name(a.game, data), scope="advice"):
        try:
            g, pos = position_from_json(data, a.game, R.parse_assignments(a.rule), a.preset,
                                        make_game)
        except IllegalAction as e:
            sys.stderr.write(f"hanasim: illegal action in {a.position}: {e}\n")
            return EXIT_FAILURE
        except RecordError as e:
            raise ValueError(str(e)) from None
        if pos.is_over():
            raise ValueError(f"{a.position}: the round is over; there is nothing to advise")
        adv = advise(pos, samples=a.samples, seed=a.seed)
    df = adv.table(g.code)
    if a.out is not None:
        return write_out(df, a, fmt, None)
    if a.format == "csv":
        emit(lambda: df.to_csv(sys.stdout, index=False))
        return 0
    seat = g.seat_names()[adv.seat]

    def show():
        print(f"{g.name}: the {seat} to {_choice(g.name, adv.phase)}; values are "
              f"{_unit(g.name, adv.phase, g.adapter.rules)} by lookahead, {a.samples} "
              f"determinisations (seed {a.seed}), 99.9% intervals; greedy: "
              + ("the greedy player's choice (exposing: --expose always, the default)"
                 if adv.phase == "expose" else "the greedy player's choice"))
        print(df.round(2).to_string(index=False))
        took = adv.actions[adv.chosen].words(g.code)
        why = ""
        bar = ("its bar: about one standard error of the paired gain, far below the 99.9% "
               "intervals printed")
        default = adv.actions[0].words(g.code)
        if adv.chosen != adv.greedy and adv.chosen != 0:  # left its default for another
            why = f" (it leaves {default}, its default, when another's mean gain clears {bar})"
        elif adv.chosen != adv.greedy:  # kept its default against greedy's
            why = f" (it keeps {default}, its default, unless another's mean gain clears {bar})"
        print(f"the lookahead would take: {took}{why}")
    emit(show)
    return 0


#: what the player to act decides, by phase (a game's own words where it has them)
CHOICES = {
    ("koikoi", "koikoi"): "choose: koi-koi (play on) or stop",
    ("taipa", "koikoi"): "choose: koi-koi (play on) or agari (stop and collect)",
    ("kushiro_toppa", "koikoi"): "choose: Iku (play on) or Yoroshii (stop and collect)",
    ("koikoi", "expose"): "choose: declare the lucky hand or not",
    ("kushiro_toppa", "expose"): "choose: claim the teyaku or hide it",
    ("taoshi", "expose"): "choose: claim the teyaku (a forced-out player: the botta) or not",
    ("ishikari_toppa", "join"): "choose: join (after three have joined: chase) or not",
}
PHASES = {"play": "play a hand card", "turned": "choose the turned card's capture",
          "expose": "choose: expose the teyaku or hide it", "join": "choose: join or drop",
          "swap": "choose: swap a card of the four for the pile's top, or keep the four",
          "leave": "choose the ribbons and chaff that leave play"}


def _choice(name, phase) -> str:
    return CHOICES.get((name, phase)) or PHASES.get(phase, phase)


def _unit(name, phase="", rules=None) -> str:
    if name == "taipa" and phase == "leave":
        return "the coins the player holds at the game's end (the rest of the game by greedy)"
    if name == "taipa":
        return "the round's coins won (+) or paid (-) by the player"
    if name == "kushiro_toppa" and phase in ("play", "turned", "koikoi"):
        return ("the chips the player wins (+) or pays (-) by the play's dekiyaku (a teyaku "
                "claimed is settled already: the replay's points add its chips)")
    if name == "kushiro_toppa":
        return "the round's chips won (+) or paid (-) by the player (dropping: 0)"
    if name == "koikoi":
        if getattr(rules, "scoring", None) == "zero_sum":
            return "the round's points won (+) or paid (-) by the player"
        return "the round's points for the player less the opponent's"
    if name == "taoshi":
        return "the round's settled points for the player (fees and burden included)"
    if name == "ishikari_toppa" and phase == "join":
        return ("the round's settled points for the player before the chase multiplier "
                "(dropping: 0; a chase changes only the next round: both answers 0)")
    if name == "ishikari_toppa":
        return "the round's settled points for the player before the chase multiplier"
    return "the round's settled points for the player"
