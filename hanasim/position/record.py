"""Recorded games as JSON (the format: ``RECORD_FORMAT.md`` beside this file): reading one,
checking its shape in one-line errors, and writing one from positions.

A record is checked for shape here (every key, every list, every card name); whether its
actions are legal is the replay's business (``replay``), which plays them on positions.
"""
from __future__ import annotations

import json
from pathlib import Path

from .core import PositionError

FORMAT = "hanasim-record-1"
ROUND_KEYS = {"dealer", "hands", "field", "pile", "actions", "captured", "month", "multiplier",
              "play_pile"}
TOP_KEYS = {"format", "game", "preset", "rules", "players", "rounds", "note"}


class RecordError(ValueError):
    """A record that cannot be read (one line, naming the place)."""


def load(path) -> dict:
    """The record in the JSON file ``path`` (shape checked: :func:`check`)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"no such file: {p}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {p}: {getattr(e, 'strerror', None) or e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{p} is not JSON: {e.msg} at line {e.lineno}, column {e.colno}"
                          ) from None
    check(data)
    return data


def check(data) -> None:
    """Refuse a record of the wrong shape, naming the place."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object with a 'rounds' list")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise RecordError(f"unknown key(s) in the record: {', '.join(sorted(unknown))} "
                          f"(known: {', '.join(sorted(TOP_KEYS))})")
    if data.get("format", FORMAT) != FORMAT:
        raise RecordError(f"record format {data.get('format')!r} is not {FORMAT!r}")
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("a record needs 'rounds': a non-empty list of rounds")
    players = data.get("players")
    if players is not None and (not isinstance(players, list)
                                or not all(isinstance(x, str) and x for x in players)
                                or len(set(players)) != len(players)):
        raise RecordError("'players' is a list of distinct names")
    if not isinstance(data.get("rules", {}), dict):
        raise RecordError("'rules' is an object of {option: value}")
    for i, r in enumerate(rounds, 1):
        where = f"round {i}"
        if not isinstance(r, dict):
            raise RecordError(f"{where} is not an object")
        unknown = set(r) - ROUND_KEYS
        if unknown:
            raise RecordError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} (known: "
                              f"{', '.join(sorted(ROUND_KEYS))})")
        for key in ("dealer", "hands", "field", "pile", "actions"):
            if key not in r:
                raise RecordError(f"{where} has no '{key}'")
        if not isinstance(r["hands"], list) or not all(isinstance(h, list) for h in r["hands"]):
            raise RecordError(f"{where}: 'hands' is a list of hands (lists of cards), the "
                              f"dealer's first")
        for key in ("field", "pile", "actions", "play_pile"):
            if key in r and not isinstance(r[key], list):
                raise RecordError(f"{where}: '{key}' is a list")


def player_names(data, n: int) -> list:
    players = data.get("players")
    if players is None:
        return [f"player {i + 1}" for i in range(n)]
    if len(players) != n:
        raise RecordError(f"the record names {len(players)} players; the game seats {n}")
    return list(players)


def dealer_index(r, players, i) -> int:
    """The round's dealer as a player index: a player number from 1 or a name."""
    d = r["dealer"]
    if isinstance(d, str) and d in players:
        return players.index(d)
    if isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= len(players):
        return d - 1
    raise RecordError(f"round {i}: dealer {d!r} is not a player (a number 1 to {len(players)} "
                      f"or a name of 'players')")


def round_json(game, dealer: int, hands, field, pile, actions, month=None,
               play_pile=None) -> dict:
    """One round of a record (cards as codes; ``dealer`` a player number from 1;
    ``play_pile``: the draw pile after the join or drop, where the record gives it)."""
    code = game.code
    out = {"dealer": dealer,
           "hands": [[code(c) for c in h] for h in hands],
           "field": [code(c) for c in field],
           "pile": [code(c) for c in pile],
           "actions": [a.to_json(code) for a in actions]}
    if month is not None:
        out["month"] = month
    if play_pile is not None:
        out["play_pile"] = [code(c) for c in play_pile]
    return out


def record_json(game, rounds, rules=None, preset=None, players=None) -> dict:
    out = {"format": FORMAT, "game": game.name}
    if preset:
        out["preset"] = preset
    if rules:
        out["rules"] = dict(rules)
    if players:
        out["players"] = list(players)
    out["rounds"] = list(rounds)
    return out


def write(path, data) -> None:
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


__all__ = ["RecordError", "PositionError", "load", "check", "write", "round_json",
           "record_json", "FORMAT"]
