"""Conditional deals: cards given to a seat's hand or to the field (``--given``, ``given=``).

``--given dealer=11b,8b`` deals the dealer the Rain Man and the moon in every round; every
deal is drawn uniformly among the deals consistent with the given cards: the given cards are
put at deal positions that go to their seat and only the other positions are shuffled
(``engine.rng.shuffle_given``): exact, no rejection, and a misdeal's redeal keeps them.

A game takes given cards through its :class:`Layout` (``game.given_layout(rules)``): which
group of the deal each deck position goes to, the words its tables use for the seats
(``dealer``, ``opponent``, ``seat1`` ..., ``field``) and which groups a misdeal checks.
Seats are the round's seats, relative to its dealer, as in the game's tables.

Everything is checked once, at the edge, in one line: an unknown card, a card given twice,
more cards than the seat is dealt, a seat the game (or its number of players) does not have,
given cards that are a misdeal by themselves.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from . import notation as _notation


class GivenError(ValueError):
    """A --given problem, in one line."""


@dataclass(frozen=True)
class Layout:
    """How one game (under one rule set) deals, for placing given cards.

    pattern : int[n_dealt], the group each dealt deck position goes to (positions
        ``n_dealt ..`` are the draw pile).
    seats : {word: group}, the words the game's tables use (``dealer``, ``opponent``,
        ``seat1`` ..., ``field``), and accepted aliases.
    names : {group: word}, how messages and notes name a group.
    four_checked : groups where four cards of a month (number) are a misdeal (redealt).
    deck_size : cards in the deck.
    deck_mask : the cards round 1 is dealt from when the rules leave some out (Taipa's
        ``removed_*``); a given card left out is swapped for an identical copy still in.
    players : players seated (for messages).
    extra_check : optional ``f({group: card mask}) -> str | None``, a reason the given cards
        alone are a misdeal under the game's other misdeal rules (koi-koi's pairs).
    """

    pattern: np.ndarray
    seats: Mapping
    names: Mapping
    four_checked: tuple = ()
    deck_size: int = 48
    players: int = 2
    extra_check: object = None
    month: np.ndarray = field(default=None)
    deck_mask: int = None  # the cards the rules deal (None: the whole deck)
    where_refused: str = ""  # why --where is not taken (Taipa), "" where it is
    given_caveat: str = ""  # what the note adds where the game deals given cards only at times

    def size(self, group: int) -> int:
        return int((np.asarray(self.pattern) == group).sum())


@dataclass(frozen=True)
class Given:
    """Parsed ``--given``: ``((seat word, (card, ...)), ...)`` in the order given, cards as
    indices of the game's deck.  Seats are still words: a :class:`Layout` maps them to deal
    groups (the same words mean different groups when the players differ)."""

    game: str
    seats: tuple

    def __bool__(self):
        return bool(self.seats)

    def cards(self) -> list:
        return [c for _, cs in self.seats for c in cs]

    def text(self) -> str:
        """The condition as the option would write it: ``dealer=11b,8b field=3b``."""
        n = _notation.for_game(self.game)
        return " ".join(f"{s}={','.join(n.codes[c] for c in cs)}" for s, cs in self.seats)

    def words(self, layout: Layout | None = None) -> str:
        """The condition in words, for a table's notes; with ``layout``, each seat as the
        game's tables label it (``the dealer's right (seat 1)``), whatever word named it."""
        n = _notation.for_game(self.game)
        parts = []
        for s, cs in self.seats:
            g = layout.seats.get(s) if layout is not None else None
            who = (seat_phrase(layout, g, self.game) if g is not None else
                   "the field" if s == "field" else f"the {seat_words(s)}")
            cards = ", ".join(_notation.words(n.deck, c) for c in cs)
            parts.append(f"{who} holds {cards}")
        return "; ".join(parts)

    def note(self, layout: Layout | None = None) -> str:
        caveat = getattr(layout, "given_caveat", "") if layout is not None else ""
        return (f"Conditional deals: {self.words(layout)} (--given {self.text()}): every deal "
                "is drawn uniformly among the deals consistent with these cards (they are "
                "placed and the rest shuffled; a misdeal is redealt keeping them), so every rate "
                "is conditional on them" + (f"; {caveat}" if caveat else ""))

    def array(self, layout: Layout, where_part=()) -> np.ndarray:
        """The kernels' int64 array (``engine.rng``, "conditional deals") for ``layout``,
        with the ``--where`` part (``hanasim.where.array_part``) appended."""
        return cond_array(self, layout, where_part)


def cond_array(given, layout: Layout, where_part=()) -> np.ndarray:
    """The ``cond`` array of given cards (``given`` may be None) and a ``--where`` part."""
    pos, card, within = [], [], []
    used = set()
    if given:
        pattern = np.asarray(layout.pattern, dtype=np.int64)
        for g, cs in resolve(given, layout).items():
            spots = [i for i in range(pattern.shape[0]) if pattern[i] == g]
            for c, p in zip(cs, spots):
                pos.append(p)
                card.append(c)
                used.add(p)
            within += [len(spots)] + spots
    free = [i for i in range(layout.deck_size) if i not in used] if pos else []
    head = [len(pos), len(free), len(within), 0]
    body = head + pos + card + free + within + twins(given, layout, card)
    if where_part:
        body[3] = len(body)
        body += list(where_part)
    return np.array(body, dtype=np.int64)


def twins(given, layout: Layout, cards) -> list:
    """Each given card's mask of identical cards (itself included) that may stand for it in a
    deck that has lost it (``engine.rng.shuffle_given``): the copies no rule tells apart (same
    suit, kind and flags, as :func:`_in_deck` reads them) where the rules deal a deck that
    shrinks (``layout.deck_mask``: Taipa's), else the card alone (the deck is always whole)."""
    if not cards:
        return []
    if layout.deck_mask is None:
        return [1 << c for c in cards]
    deck = _notation.for_game(given.game).deck
    return [sum(1 << d for d in range(deck.n) if deck.month[d] == deck.month[c]
                and deck.kind[d] == deck.kind[c] and deck.flags[d] == deck.flags[c])
            for c in cards]


def seat_words(seat: str) -> str:
    """A seat word without a layout: ``seat2`` -> ``seat 2 (2nd to the dealer's right)``."""
    m = re.fullmatch(r"seat(\d)", seat)
    if m:
        k = int(m.group(1))
        return f"seat {k} ({_ordinal(k)} to the dealer's right)"
    return {"first_player": "first player", "second_player": "second player",
            "right": "dealer's right", "left": "dealer's left"}.get(seat, seat)


def seat_list(layout: Layout) -> str:
    """The seat words a layout takes, each group's words together: ``dealer, seat1 or right,
    seat2 or left, field`` (the words the game's tables use, then their aliases)."""
    out = []
    for g, word in layout.names.items():
        others = [w for w, k in layout.seats.items() if k == g and w != word and not w.isdigit()]
        out.append(" or ".join([word] + others))
    return ", ".join(out)


def seat_phrase(layout: Layout, group: int, game=None) -> str:
    """How a note names a deal group: ``the field``, or the seat as the game's tables label
    it at this many players (``the dealer``, ``the opponent``, ``the dealer's right (seat
    1)``, ``seat 2 (2nd to the dealer's right)``, ``the first player``)."""
    word = layout.names[group]
    if word == "field":
        return "the field"
    from .stats.labels import seat_label

    return seat_words_of(seat_label(word, game, layout.players))


def seat_words_of(label: str) -> str:
    """A table's seat label in a sentence: ``Dealer's right (seat 1)`` -> ``the dealer's right
    (seat 1)``, ``Opposite the dealer (seat 2)`` -> ``the player opposite the dealer (seat
    2)``, ``Seat 4 (4th to the dealer's right)`` -> ``seat 4 (...)``."""
    low = label[0].lower() + label[1:]
    if low.startswith("seat "):
        return low
    if low.startswith("opposite "):
        return "the player " + low
    return "the " + low


def _ordinal(k):
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


_SPEC = re.compile(r"\s*([A-Za-z_0-9\-]+)\s*[=:]\s*(.*)", re.S)


def _items(value) -> list:
    """(seat text, [card texts]) from the forms ``given=`` takes."""
    if value is None:
        return []
    if isinstance(value, Given):
        raise GivenError("internal: already parsed")
    if isinstance(value, Mapping):
        out = []
        for seat, cards in value.items():
            if isinstance(cards, str):
                cards = cards.split(",")
            elif not isinstance(cards, (list, tuple)):
                raise GivenError(f"given: the cards of {seat!r} must be a list or a "
                                 f"comma-separated text, got {cards!r}")
            out.append((str(seat), list(cards)))
        return out
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise GivenError(f"given must be SEAT=CARD,CARD,... (or a dict seat -> cards), got "
                         f"{value!r}")
    out = []
    for spec in value:
        if not isinstance(spec, str):
            raise GivenError(f"given must be SEAT=CARD,CARD,... texts, got {spec!r}")
        m = _SPEC.fullmatch(spec)
        if not m:
            raise GivenError(f"--given {spec!r}: write SEAT=CARD,CARD,... (e.g. dealer=11b,8b "
                             "or field=3b)")
        out.append((m.group(1), m.group(2).split(",")))
    return out


def parse(game, value) -> Given:
    """Check ``given`` against the game's deck (cards, duplicates); the seats are checked
    against each rule set's :class:`Layout` by :func:`resolve`.  Raises :class:`GivenError`."""
    from .games import get_game

    g = get_game(game) if isinstance(game, str) else game
    if isinstance(value, Given):
        return value
    n = _notation.for_game(g)
    seats = {}
    taken = set()
    for seat, cards in _items(value):
        key = seat.strip().lower().replace("-", "_").replace(" ", "")
        if not key:
            raise GivenError("--given: a seat name is missing before '='")
        cards = [c for c in cards if c.strip()]
        if not cards:
            raise GivenError(f"--given {seat}=: no cards named for {seat}")
        got = []
        for text in cards:
            try:
                c = n.parse(text, taken)
            except _notation.CardError as e:
                raise GivenError(f"--given {seat}: {e}") from None
            if c in taken:
                raise GivenError(f"--given: {n.describe(c)} is given twice")
            taken.add(c)
            got.append(c)
        seats.setdefault(key, [])
        seats[key] += got
    return Given(g.name, tuple((s, tuple(cs)) for s, cs in seats.items()))


def resolve(given: Given, layout: Layout) -> dict:
    """{group: [cards]} for ``layout``; raises :class:`GivenError` for a seat the game (or
    its number of players) does not have, more cards than a seat is dealt, or given cards
    that are a misdeal by themselves."""
    out = {}
    for seat, cards in given.seats:
        g = layout.seats.get(seat)
        if g is None:
            m = re.fullmatch(r"(?:seat)?(\d)", seat)
            words = seat_list(layout)
            if m and any(re.fullmatch(r"seat\d", w) for w in layout.seats):
                raise GivenError(f"--given {seat}: the table seats {layout.players} players, "
                                 f"so its seats are {words}")
            raise GivenError(f"--given {seat}: {given.game} has no seat {seat!r} (its seats: "
                             f"{words})")
        out.setdefault(g, [])
        out[g] += list(cards)
    n = _notation.for_game(given.game)
    if layout.deck_mask is not None:
        _in_deck(out, layout.deck_mask, n)
    for g, cards in out.items():
        size = layout.size(g)
        if len(cards) > size:
            who = layout.names[g]
            raise GivenError(f"--given {who}: {len(cards)} cards given, but {who} is dealt "
                             f"only {size}")
    month = layout.month if layout.month is not None else n.deck.month
    for g in layout.four_checked:
        cards = out.get(g, ())
        for m in set(int(month[c]) for c in cards):
            if sum(1 for c in cards if int(month[c]) == m) >= 4:
                raise GivenError(f"--given {layout.names[g]}: four cards of one month there "
                                 "are a misdeal, so no deal with them is ever played")
    if layout.extra_check is not None:
        why = layout.extra_check({g: sum(1 << c for c in cs) for g, cs in out.items()})
        if why:
            raise GivenError(f"--given: {why}")
    return out


def _in_deck(groups, deck_mask, n):
    """Swap a given card the rules leave out of the deck for an identical copy still in it
    (Taipa's copies are indistinguishable); one line when there is none."""
    used = {c for cs in groups.values() for c in cs}
    deck = n.deck
    for g, cards in groups.items():
        for i, c in enumerate(cards):
            if deck_mask >> c & 1:
                continue
            same = [d for d in range(deck.n) if deck_mask >> d & 1 and d not in used
                    and deck.month[d] == deck.month[c] and deck.kind[d] == deck.kind[c]
                    and deck.flags[d] == deck.flags[c]]
            if not same:
                raise GivenError(f"--given: {n.describe(c)} is not in the deck these rules deal "
                                 "(its yaku's cards were removed)")
            used.discard(c)
            cards[i] = same[0]
            used.add(same[0])


def check(game, value, layouts) -> Given | None:
    """Parse ``value`` and check it against every layout (one per rule set run); None when
    nothing is given."""
    given = parse(game, value)
    if not given:
        return None
    for layout in layouts:
        resolve(given, layout)
    return given
