"""Card names in positions and records: the package's card notation (``hanasim.notation``)
when it is there, else a small reader of the same hanafuda codes kept here so that it can be
switched.

The codes: the month as a number 1-12, then the kind, ``b`` bright, ``a`` animal, ``r``
ribbon, ``c`` chaff, with the chaff's number where a month has more than one (``1c1``,
``1c2``; willow's one chaff is ``11c``): ``11b`` is the Rain Man, ``8b`` the moon, ``9a`` the
sake cup.  Read case-insensitively.
"""
from __future__ import annotations

from .. import decks

KIND_LETTER = {decks.BRIGHT: "b", decks.ANIMAL: "a", decks.RIBBON: "r", decks.CHAFF: "c"}


class CardError(ValueError):
    """A name that is not a card of the deck (one line, naming it)."""


class _Hanafuda:
    """The hanafuda codes, when ``hanasim.notation`` is not there."""

    def __init__(self, deck=decks.HANAFUDA):
        self.deck = deck
        self.codes = []
        for c in range(deck.n):
            m, k = int(deck.month[c]), int(deck.kind[c])
            same = [x for x in range(deck.n) if deck.month[x] == m and deck.kind[x] == k]
            nth = f"{same.index(c) + 1}" if len(same) > 1 else ""
            self.codes.append(f"{m}{KIND_LETTER[k]}{nth}")
        self.index = {code: c for c, code in enumerate(self.codes)}

    def parse(self, text) -> int:
        key = str(text).strip().lower().replace(" ", "")
        if key in self.index:
            return self.index[key]
        raise CardError(f"{str(text)!r} is not a card of the hanafuda deck (cards are written "
                        f"month then kind: 11b the Rain Man, 9a the sake cup, 1c1, 1c2)")

    def code(self, card: int) -> str:
        return self.codes[card]


def notation(game: str = "toppa"):
    """An object with ``parse(text) -> card id`` and ``code(card) -> text`` for ``game``'s
    deck."""
    try:
        from .. import notation as shared  # the package's notation, once it has one
    except ImportError:
        return _Hanafuda()
    n = shared.for_game(game)

    class _Shared:
        def parse(self, text) -> int:
            try:
                return n.parse(str(text))
            except ValueError as e:
                raise CardError(str(e)) from None

        def code(self, card: int) -> str:
            return n.codes[card]

    return _Shared()
