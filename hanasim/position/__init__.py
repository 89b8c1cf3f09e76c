"""Positions of a round (built from explicit cards), recorded games and their replay, and the
lookahead's advice on a position.

>>> from hanasim import position as P
>>> g = P.game("toppa")
>>> pos = g.deal(hands=[[...], [...]], field=[...], pile=[...])   # card ids or codes
>>> pos.legal_actions(); pos = pos.apply(pos.legal_actions()[0]); ...; pos.result()

Games reached: Toppa, Baka, Bakappana, Ishikari Toppa, koi-koi (see ``koikoi``), Taipa (its
result in coins; see ``taipa``), Kushiro Toppa at tables of two to four (in chips; see
``kushiro``), Taoshi at tables of three to six (see ``taoshi``); at the tables with join or
drop the decisions are ``join`` actions and the draw pile after the drop is ``play_pile``.
"""
from __future__ import annotations

from .core import (Action, Position, PositionError, expose, koikoi, play, swap,  # noqa: F401
                   turned)

#: the games positions reach, and their adapter's kind
REACHED = ("toppa", "baka", "bakappana", "ishikari_toppa", "koikoi", "taipa", "kushiro_toppa",
           "taoshi")


class Game:
    """One game under one rule set, for positions: ``deal``/``from_cards`` build them, cards
    by id or by code (``cards.notation``)."""

    def __init__(self, adapter, notation, rules=None, preset=None):
        self.rules_given = dict(rules or {})  # what was asked (a record writes it back)
        self.preset = preset
        self.adapter = adapter
        self.notation = notation
        self.name = adapter.name
        self.n = getattr(adapter, "table", adapter.n)  # the table's seats

    def card(self, c) -> int:
        if isinstance(c, int) and not isinstance(c, bool):
            if not 0 <= c < getattr(self.adapter, "n_cards", 48):
                raise PositionError(f"card id {c} is not a card of the deck")
            return c
        if not isinstance(c, str):
            raise PositionError(f"a card is a name such as '3b' (or a card id), not {c!r}")
        return self.notation.parse(c)

    def cards(self, items, what="") -> list:
        if not isinstance(items, (list, tuple)):
            raise PositionError(f"{what or 'cards'}: give a list of cards")
        try:
            return [self.card(c) for c in items]
        except ValueError as e:
            raise PositionError(f"{what}: {e}" if what else str(e)) from None

    def code(self, card: int) -> str:
        return self.notation.code(card)

    def from_cards(self, hands, field, pile, captured=None, **more):
        hands = [self.cards(h, f"hand of seat {s}") for s, h in enumerate(hands)]
        captured = (None if captured is None else
                    [self.cards(c, f"captured pile of seat {s}") for s, c in enumerate(captured)])
        if more.get("play_pile") is not None:
            more["play_pile"] = self.cards(more["play_pile"], "the draw pile after the drop")
        return self.adapter.from_cards(hands, self.cards(field, "field"),
                                       self.cards(pile, "draw pile"), captured, **more)

    deal = from_cards

    def action(self, item) -> Action:
        """An action from its JSON form (``Action.to_json``)."""
        if not isinstance(item, dict) or not item:
            raise PositionError(f"an action is an object such as {{\"play\": \"3b\"}}, "
                                f"not {item!r}")
        keys = set(item)
        if "play" in keys and keys <= {"play", "take"}:
            take = item.get("take")
            return play(self.card(item["play"]), None if take is None else self.card(take))
        if "turned" in keys and keys <= {"turned", "take"}:
            if "take" not in item:
                raise PositionError("a turned action names the field card it takes: "
                                    "{\"turned\": CARD, \"take\": CARD}")
            return turned(self.card(item["turned"]), self.card(item["take"]))
        if keys == {"leave"}:
            return Action("leave", cards=tuple(sorted(self.cards(item["leave"],
                                                                 "the cards that leave play"))))
        if keys == {"swap"}:
            v = item["swap"]
            if v is False:
                return Action("swap", yes=False)
            if isinstance(v, bool):
                raise PositionError("a swap names the card of the four that goes onto the "
                                    "pile, {\"swap\": CARD}, or keeps the four: false")
            return Action("swap", card=self.card(v), yes=True)
        for word in ("expose", "koikoi", "join"):
            if keys == {word}:
                if not isinstance(item[word], bool):
                    raise PositionError(f"{word} takes true or false, not {item[word]!r}")
                return Action(word, yes=item[word])
        raise PositionError(f"unknown action {item!r}: actions are play (with take), turned "
                            f"(with take), expose, koikoi, join, swap, leave")

    def seat_names(self) -> tuple:
        from ..games import get_game

        from ..stats.labels import seat_label

        g = get_game(self.name)
        # a table wider than a round's seats (Taoshi's four to six): the table's seats
        seats = (getattr(g, "table_seats", None) if self.n > len(getattr(g, "seats", ()) or ())
                 else None) or getattr(g, "seats", None) or getattr(g.reading, "seats", None)
        if not seats:
            return ("dealer",) + tuple(f"seat {s}" for s in range(1, self.n))
        # in words, as the game's tables label them ("first player", "dealer's right (seat 1)")
        words = [seat_label(t, g.name, self.n) for t in tuple(seats)[:self.n]]
        return tuple(w[:1].lower() + w[1:] for w in words)


def game(name: str, rules: dict | None = None, preset: str | None = None) -> Game:
    """The game ``name`` under ``rules`` (``{option: value}``) on top of ``preset``."""
    from .. import api
    from .. import rules as R
    from ..games import get_game
    from .cards import notation

    g = get_game(name)
    if g.name not in REACHED:
        raise PositionError(f"positions do not reach {g.name} yet; they reach "
                            + ", ".join(REACHED))
    rule_obj = R.make_rules(g.Rules, api._with_preset(g, dict(rules or {}), preset))
    note = notation(g.name)
    if g.name == "koikoi":
        from .koikoi_game import KoikoiGame

        return Game(KoikoiGame(g.name, rule_obj, note.code), note, rules, preset)
    if g.name == "taoshi":
        from .taoshi import TaoshiGame

        return Game(TaoshiGame(g.name, rule_obj, note.code), note, rules, preset)
    if g.name == "kushiro_toppa":
        from .kushiro import KushiroGame

        return Game(KushiroGame(g.name, rule_obj, note.code), note, rules, preset)
    if g.name == "taipa":
        from .taipa import TaipaGame

        return Game(TaipaGame(g.name, rule_obj, note.code), note, rules, preset)
    if g.name == "ishikari_toppa":
        from .ishikari import IshikariGame

        return Game(IshikariGame(g.name, rule_obj, note.code), note, rules, preset)
    from .fishing import fishing_game

    return Game(fishing_game(g.name, rule_obj, note.code), note, rules, preset)


def advise(position, samples: int = 64, seed: int = 0):
    """The lookahead's advice at ``position`` (``advice.Advice``)."""
    from .advice import advise as run

    return run(position, samples=samples, seed=seed)
