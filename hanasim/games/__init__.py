"""The game registry: every game module registers itself on import."""
from __future__ import annotations

_GAMES: dict = {}


class UnknownGame(ValueError):
    pass


def register(game):
    _GAMES[game.name] = game
    return game


def available_games() -> list[str]:
    return sorted(_GAMES)


def get_game(name: str):
    try:
        return _GAMES[str(name).strip().lower().replace("-", "_")]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; available games: "
                          + ", ".join(available_games())) from None


from . import toppa  # noqa: E402,F401  (registers)
from . import baka  # noqa: E402,F401  (registers)
from . import koikoi  # noqa: E402,F401  (registers)
from . import taipa  # noqa: E402,F401  (registers)
from . import kushiro  # noqa: E402,F401  (registers)
from . import taoshi  # noqa: E402,F401  (registers)
