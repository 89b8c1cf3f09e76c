"""A position of a round: explicit cards, its legal actions, an action applied, the result.

A :class:`Position` is immutable: :meth:`Position.apply` returns the next position.  What a
move does is the game's own kernel code, called from Python on the round's state array
(``engine.state``): a position never re-states a rule (see each game's module in this
package).  Plain-Python speed: about a millisecond an action.

Seats are the round's, relative to its dealer: seat 0 deals and moves first, then turn order.

Actions (:class:`Action`), in the order a player takes them:

* ``join``: join the round or drop out (Ishikari Toppa, Kushiro Toppa with three or four
  players, Taoshi with four to six: each seat the rules ask, in the game's speaking order;
  Ishikari Toppa: after three have joined, joining is a chase), ``yes`` True or False;
* ``swap``: Kushiro Toppa's four-in-hand swap, ``card`` (of the four) onto the pile's top,
  or None to keep the four;
* ``expose``: show a teyaku held at the deal (Toppa, Baka) or declare a lucky hand
  (koi-koi), ``yes`` True or False;
* ``play``: a hand card, and ``take``, the field card it captures when it matches two
  (None otherwise: the capture is then fixed by the rules);
* ``turned``: the capture of the draw pile's top card when it matches two field cards
  (``card`` the turned card, ``take`` the field card it captures); asked only then;
* ``koikoi``: after a turn that makes a new yaku (koi-koi), ``yes`` True to call koi-koi and
  play on, False to stop and collect;
* ``leave``: Taipa under ``yaku_cards=choice``, after the round: ``cards``, the ribbons and
  chaff of the seat's pile that leave play (cards of one suit and kind stand for each other).
"""
from __future__ import annotations

from dataclasses import dataclass, field as dc_field
from typing import Optional

import numpy as np


class PositionError(ValueError):
    """A position or an action that cannot be (one line, naming the problem)."""


@dataclass(frozen=True)
class Action:
    kind: str                    # join, swap, expose, play, turned, koikoi, leave
    card: Optional[int] = None   # play: the hand card; turned: the turned card
    take: Optional[int] = None   # the field card taken where the rules give a choice
    yes: Optional[bool] = None   # expose, koikoi
    cards: tuple = ()            # leave: the ribbons and chaff that leave play (Taipa)

    def words(self, code) -> str:
        """The action in the card notation (``code``: card id -> text)."""
        if self.kind == "play":
            return f"play {code(self.card)}" + (f" taking {code(self.take)}"
                                                if self.take is not None else "")
        if self.kind == "turned":
            return f"turned {code(self.card)} taking {code(self.take)}"
        if self.kind == "expose":
            return "expose" if self.yes else "hide"
        if self.kind == "join":
            return "join" if self.yes else "drop"
        if self.kind == "leave":
            return "leave " + " ".join(code(c) for c in self.cards) + " out of play"
        if self.kind == "swap":
            if self.yes and self.card is None:  # advice: the card is the other player's pick
                return "swap (a card of the four, the other player's pick)"
            return f"swap {code(self.card)} for the pile's top" if self.yes else "keep the four"
        return "koi-koi" if self.yes else "stop"

    def to_json(self, code) -> dict:
        if self.kind == "play":
            d = {"play": code(self.card)}
            if self.take is not None:
                d["take"] = code(self.take)
            return d
        if self.kind == "turned":
            return {"turned": code(self.card), "take": code(self.take)}
        if self.kind == "leave":
            return {"leave": [code(c) for c in self.cards]}
        if self.kind == "swap" and self.yes:
            return {"swap": code(self.card) if self.card is not None else True}
        return {self.kind: bool(self.yes)}


def expose(yes=True) -> Action:
    return Action("expose", yes=bool(yes))


def play(card, take=None) -> Action:
    return Action("play", card=int(card), take=None if take is None else int(take))


def turned(card, take) -> Action:
    return Action("turned", card=int(card), take=int(take))


def swap(card=None) -> Action:
    """Kushiro Toppa's four-in-hand swap: ``card`` (of the four) goes onto the pile's top for
    the card there; None keeps the four."""
    return Action("swap", card=None if card is None else int(card), yes=card is not None)


def koikoi(yes=True) -> Action:
    return Action("koikoi", yes=bool(yes))


def bits(mask) -> list:
    """The card ids of a mask, ascending."""
    m = int(mask)
    return [c for c in range(64) if m >> c & 1]


def mask(cards) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return np.uint64(m)


@dataclass(frozen=True)
class Position:
    """A round's position.  Build one with :func:`hanasim.position.deal` (a fresh deal) or
    :func:`hanasim.position.from_cards` (any moment); ``game`` is the game's adapter (this
    package's per-game module), ``data`` its state (arrays, copied on every action)."""

    game: object
    data: dict = dc_field(repr=False)

    # ---- what the game's adapter answers
    @property
    def seat(self) -> int:
        """The seat to act (relative to the dealer), or -1 when the round is over."""
        return self.game.to_act(self)

    @property
    def phase(self) -> str:
        """``join``, ``expose``, ``play``, ``turned``, ``koikoi``, or ``over``."""
        return self.game.phase(self)

    @property
    def turn(self) -> int:
        """The round's turn being played, from 1 (all seats' turns counted together; 0 at
        the deal's decisions)."""
        return 0 if self.phase in ("join", "swap", "expose", "over") else self.game.turn(self)

    def legal_actions(self) -> list:
        return [] if self.phase == "over" else self.game.legal(self)

    def is_legal(self, action: Action, legal=None) -> bool:
        """Whether ``action`` is legal here: one of ``legal_actions``, or (Taipa's cards
        leaving play) the same as one up to identical cards."""
        legal = self.legal_actions() if legal is None else legal
        if action in legal:
            return True
        same = getattr(self.game, "same_as_legal", None)
        return same is not None and same(self, action, legal) is not None

    def apply(self, action: Action) -> "Position":
        legal = self.legal_actions()
        if not self.is_legal(action, legal):
            raise PositionError(self.illegal_words(action, legal))
        return self.game.apply(self, action)

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> list:
        """The round's points per seat (the game's unit, seats relative to the dealer)."""
        if not self.is_over():
            raise PositionError("the round is not over: " + self.phase + " is next")
        return self.game.result(self)

    # ---- views
    def hands(self) -> list:
        return [bits(h) for h in self.game.hands(self)]

    def field(self) -> list:
        return bits(self.game.field(self))

    def piles(self) -> list:
        return [bits(p) for p in self.game.piles(self)]

    def pile_left(self) -> list:
        """The undrawn pile, top first."""
        return self.game.pile_left(self)

    def illegal_words(self, action: Action, legal, seat_names=None) -> str:
        code = self.game.code
        who = seat_names[self.seat] if seat_names else f"seat {self.seat}"
        if self.phase == "over":
            return f"{action.words(code)}: the round is already over"
        kinds = {a.kind for a in legal}
        if action.kind not in kinds:
            want = " or ".join(sorted(kinds))
            if kinds == {"join"}:  # the seat says whether it joins (a chase: whether it chases)
                words = getattr(self.game, "join_words", None)
                want = (words(self) if words else None) or \
                    "say whether it joins: {\"join\": true} or false"
            return f"{action.words(code)} is not legal now: the {who} must {want}" \
                if seat_names else f"{action.words(code)} is not legal now: {who} must {want}"
        if action.kind == "play" and action.card not in {a.card for a in legal}:
            hand = self.hands()[self.seat]
            why = "is not in the hand" if action.card not in hand else \
                "may not be played now (a card that captures must be played)"
            return (f"{code(action.card)} {why} (hand: "
                    + " ".join(code(c) for c in hand) + ")")
        if action.kind == "leave":
            return f"{action.words(code)} is not legal: " + self.game.leave_words(self)
        if action.kind == "swap":
            return (f"{action.words(code)} is not legal: the four's card that goes is one of "
                    + " ".join(code(a.card) for a in legal if a.yes))
        if action.kind == "turned" and action.card not in {a.card for a in legal}:
            return (f"the turned card is {code(legal[0].card)}, not {code(action.card)}")
        takes = [code(a.take) for a in legal if a.kind == action.kind and a.card == action.card
                 and a.take is not None]
        if takes:
            return (f"{action.words(code)} is not legal: it takes one of "
                    + " or ".join(takes))
        return f"{action.words(code)} is not legal: its capture is fixed by the rules"


def card_places(code, hands, field, pile, captured, n_cards=None) -> dict:
    """Where each card is (``{card: place}``), refusing a card in two places; with ``n_cards``
    also a card of the deck in no place.  ``code`` writes a card for the message."""
    places = [("hand of seat %d" % s, h) for s, h in enumerate(hands)]
    places += [("field", field), ("draw pile", pile)]
    places += [("captured pile of seat %d" % s, c) for s, c in enumerate(captured)]
    seen = {}
    for where, cards in places:
        for c in cards:
            if c in seen:
                raise PositionError(f"{code(c)} is in two places ({seen[c]} and {where})")
            seen[c] = where
    if n_cards is not None:
        missing = [c for c in range(n_cards) if c not in seen]
        if missing:
            raise PositionError("cards in no place: " + " ".join(code(c) for c in missing))
    return seen
