"""The game registry: every game module registers itself on import (a module of its own, so
that a game imports it without importing the half-loaded ``hanasim.games`` package)."""
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


def readings(name: str) -> str:
    """How hanasim reads the game's rules where the sources leave room (Markdown, from
    ``games/readings/<game>.md``): the readings that are not plain options, the game's
    quantities and what they showed; ``hanasim rules GAME`` prints it after the options."""
    from importlib import resources

    game = get_game(name)
    path = resources.files(__package__).joinpath("readings", f"{game.name}.md")
    return path.read_text(encoding="utf-8") if path.is_file() else ""

