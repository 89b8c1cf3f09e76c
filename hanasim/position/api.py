"""``hanasim.advise`` and ``hanasim.replay``: the position tools as one call each, taking
what the command line takes (a file, or its JSON as a dict) and giving tidy tables."""
from __future__ import annotations

import json
from pathlib import Path


def _json(source, what):
    from .record import RecordError

    if isinstance(source, dict):
        return source
    p = Path(source)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecordError(f"no such file: {p}") from None
    except json.JSONDecodeError as e:
        raise RecordError(f"{p} is not JSON: {e.msg} at line {e.lineno}, column {e.colno}"
                          ) from None
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {p} ({what}): {e}") from None


def game_name(game, data) -> str:
    """The game a record or a position is of, for the compile notice: the one asked for,
    else the one it names (checked later, by the replay)."""
    name = game if game is not None else (data.get("game") if isinstance(data, dict) else "")
    return str(name or "").strip().lower().replace("-", "_")


def advise(game, position, samples: int = 64, seed: int = 0, rules=None, preset=None):
    """The lookahead's value of every legal action at ``position`` for the player to act: a
    tidy table (action, value with its 99.9% interval, the difference from the best action
    with its paired 99.9% interval, ``lookahead``: the action the lookahead policy takes).

    ``position``: a :class:`hanasim.position.Position`, or a position as JSON (a dict or a
    file: ``hanasim/position/RECORD_FORMAT.md``).  ``samples``: the determinisations of what
    the player cannot see; ``seed``: their random seed."""
    from ..compiling import notice
    from . import Position, PositionError, game as make_game
    from .advice import advise as run
    from .positions import position_from_json

    if isinstance(position, Position):
        pos, g = position, None
        if game is not None and position.game.name != game_name(game, None):
            raise PositionError(f"the position is of {position.game.name}, not {game}")
        name = pos.game.name
    else:
        data = _json(position, "the position")
        name = game_name(game, data)
    with notice(name, scope="advice"):
        if not isinstance(position, Position):
            g, pos = position_from_json(data, game, rules or {}, preset, make_game)
        if pos.is_over():
            raise PositionError("the round is over: there is nothing to advise")
        adv = run(pos, samples=samples, seed=seed)
    df = adv.table(pos.game.code)
    df.attrs.update(game=pos.game.name, seat=adv.seat, phase=adv.phase, seed=seed)
    return df


def replay(game, record, rules=None, preset=None, advise: bool = False, samples: int = 32,
           seed: int = 0):
    """Replay a recorded game (a dict or a JSON file: ``RECORD_FORMAT.md``): every action
    checked (``hanasim.position.replay.IllegalAction`` names the first illegal one; its
    ``WrongDealer`` a later round dealt by a player the rules do not name), each round's
    points per player and the totals as a tidy table (``df.attrs["unit"]``: what the points
    are); with ``advise``, the table of the recorded choices' values is
    ``df.attrs["advice"]``."""
    from ..compiling import notice
    from . import record as R
    from .replay import replay as run

    data = _json(record, "the record")
    R.check(data)
    with notice(game_name(game, data), scope="advice" if advise else "replay"):
        out = run(data, game, rules or {}, preset, advise=advise, samples=samples, seed=seed)
    if advise:
        out.points.attrs["advice"] = out.advice
    return out.points
