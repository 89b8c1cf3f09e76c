"""A position from its JSON form (``RECORD_FORMAT.md``, "A position"): a round's cards at
some moment and, optionally, the actions taken since, played on positions and checked."""
from __future__ import annotations

from .core import PositionError
from .record import RecordError
from .replay import IllegalAction, _norm

COMMON = {"game", "preset", "rules", "hands", "field", "pile", "captured", "actions", "dealer",
          "players", "note"}
BY_GAME = {"koikoi": {"month", "calls", "last_yaku", "field_multiplier", "wild"},
           "toppa": {"exposed", "teyaku_points"}, "baka": {"exposed", "teyaku_points"},
           "taoshi": {"exposed", "teyaku_points", "play_pile"},
           "kushiro_toppa": {"play_pile"},
           "ishikari_toppa": {"multiplier"}, "taipa": {"calls", "coins", "round"}}


def position_from_json(data, game_name, rules, preset, make_game):
    """(game, position) of the JSON object ``data``; ``rules`` on top of its own."""
    if not isinstance(data, dict):
        raise RecordError("a position is a JSON object with 'hands', 'field' and 'pile'")
    name = game_name or data.get("game")
    if data.get("game") and game_name and _norm(data["game"]) != _norm(game_name):
        raise RecordError(f"the position is of {data['game']}, not {game_name}")
    if not isinstance(data.get("rules", {}), dict):
        raise RecordError("'rules' is an object of {option: value}")
    g = make_game(name, {**(data.get("rules") or {}), **(rules or {})},
                  preset if preset is not None else data.get("preset"))
    known = COMMON | BY_GAME.get(g.name, set())
    unknown = set(data) - known
    if unknown:
        raise RecordError(f"unknown key(s) in the position: {', '.join(sorted(unknown))} "
                          f"(known for {g.name}: {', '.join(sorted(known))})")
    for key in ("hands", "field", "pile"):
        if not isinstance(data.get(key), list):
            raise RecordError(f"the position needs '{key}': a list"
                              + (" of hands, the dealer's first" if key == "hands" else ""))
    extra = {}
    if g.name == "koikoi":
        extra["round_number"] = _int(data, "month", 1, 1, 12)
        if "calls" in data:
            c = data["calls"]
            if not (isinstance(c, list) and len(c) == 2
                    and all(isinstance(x, int) and x >= 0 for x in c)):
                raise RecordError("'calls' is each seat's koi-koi calls so far: [n, n]")
            extra["calls"] = c
        if "last_yaku" in data:
            extra["last_yaku"] = _int(data, "last_yaku", None, 0, 1)
        if "field_multiplier" in data:
            extra["field_multiplier"] = _int(data, "field_multiplier", 1, 1, 8)
        if "wild" in data:
            if not isinstance(data["wild"], bool):
                raise RecordError("'wild' is true or false")
            extra["wild"] = data["wild"]
    elif g.name == "ishikari_toppa":
        extra["multiplier"] = _int(data, "multiplier", 1, 1, 99)
    elif g.name == "taipa":
        extra["round_number"] = _int(data, "round", 1, 1, 99)
        for key in ("calls", "coins"):
            if key in data:
                c = data[key]
                if not (isinstance(c, list) and len(c) == 2 and all(
                        isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in c)):
                    raise RecordError(f"'{key}' is two whole numbers, the first player's first")
                extra[key] = c
    else:
        if "exposed" in data:
            extra["exposed"] = [g.cards(x, "exposed") for x in _lists(data, "exposed", g.n)]
        if "teyaku_points" in data:
            t = data["teyaku_points"]
            if not (isinstance(t, list) and len(t) == g.n and all(isinstance(x, int) for x in t)):
                raise RecordError(f"'teyaku_points' is each seat's exposed teyaku value: "
                                  f"{g.n} numbers")
            extra["teyaku_points"] = t
            extra.setdefault("exposed", [[] for _ in range(g.n)])
    if "play_pile" in data:
        if not isinstance(data["play_pile"], list):
            raise RecordError("'play_pile' is a list: the draw pile after the join or drop, "
                              "top first")
        extra["play_pile"] = data["play_pile"]
    try:
        pos = g.deal(data["hands"], data["field"], data["pile"], data.get("captured"), **extra)
    except PositionError as e:
        raise RecordError(str(e)) from None
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("'actions' is a list")
    seats = g.seat_names()
    for k, item in enumerate(actions, 1):
        try:
            a = g.action(item)
        except PositionError as e:
            raise RecordError(f"action {k}: {e}") from None
        if pos.is_over():
            raise IllegalAction(f"action {k} ({a.words(g.code)}) comes after the round ended")
        legal = pos.legal_actions()
        if not pos.is_legal(a, legal):
            raise IllegalAction(f"action {k}, the {seats[pos.seat]}: "
                                + pos.illegal_words(a, legal, seats))
        try:
            pos = pos.apply(a)
        except PositionError as e:  # what the position gives cannot follow this action
            raise RecordError(f"action {k} ({a.words(g.code)}): {e}") from None
    return g, pos


def _int(data, key, default, low, high):
    v = data.get(key, default)
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
        raise RecordError(f"'{key}' is a whole number from {low} to {high}, not {v!r}")
    return v


def _lists(data, key, n):
    v = data[key]
    if not (isinstance(v, list) and len(v) == n and all(isinstance(x, list) for x in v)):
        raise RecordError(f"'{key}' is {n} lists of cards, one per seat, the dealer's first")
    return v
