"""``hanasim cards GAME``: the game's cards, and what each is worth (:mod:`.worth`);
printing only."""
from __future__ import annotations

from . import worth


def register(sub) -> None:
    p = sub.add_parser(
        "cards", help="what each card is worth to each seat when dealt (and on the field)",
        description=worth.DESCRIPTION)
    worth.add_options(p)
    p.set_defaults(handler=cmd_cards)


def cmd_cards(a):
    return worth.cmd_values(a)
