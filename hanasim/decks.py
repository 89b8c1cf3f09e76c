"""Decks as data.

A deck is a set of at most 64 cards; a card is a small integer (its index in the deck) and a set of
cards is a uint64 bitmask with bit ``i`` for card ``i``.  Every per-card fact the rules need lives in
a plain numpy array so that kernels can take it as an argument: ``month`` (the suit, 1-based),
``kind`` (bright, animal, ribbon, chaff), ``points`` and ``flags`` (sub-kinds such as poetry ribbon
or rain man).  Games never hard-code card numbers; they ask the deck for masks by flag or month.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# Card kinds.  The order is the one of the seed tables (bright, animal, ribbon, chaff).
BRIGHT, ANIMAL, RIBBON, CHAFF = 0, 1, 2, 3
KIND_NAMES = ("bright", "animal", "ribbon", "chaff")

# Sub-kind flags (bit values), used to build yaku masks.
POETRY = 1 << 0      # poetry ribbon (pine, plum, cherry)
BLUE = 1 << 1        # blue ribbon (peony, chrysanthemum, maple)
PLAIN = 1 << 2       # plain ribbon (wisteria, iris, bush clover, willow)
RAIN_MAN = 1 << 3    # willow bright (Ono no Michikaze)
BOAR = 1 << 4
DEER = 1 << 5
BUTTERFLY = 1 << 6
SAKE_CUP = 1 << 7
WILLOW = 1 << 8      # any willow card ("strong cards" in Toppa)

FLAG_NAMES = {
    "poetry": POETRY, "blue": BLUE, "plain": PLAIN, "rain_man": RAIN_MAN, "boar": BOAR,
    "deer": DEER, "butterfly": BUTTERFLY, "sake_cup": SAKE_CUP, "willow": WILLOW,
}

# Toppa card points (seed 000, "Counting the Card Points"): chaff is worth 0.
TOPPA_POINTS = {BRIGHT: 20, ANIMAL: 10, RIBBON: 5, CHAFF: 0}

MONTH_NAMES = ("pine", "plum", "cherry", "wisteria", "iris", "peony", "bush_clover",
               "susuki", "chrysanthemum", "maple", "willow", "paulownia")


@dataclass(frozen=True)
class Deck:
    """A deck as parallel per-card arrays (all of length ``n``).

    Attributes
    ----------
    name : str
    names : tuple of str, one human-readable name per card.
    month : int8[n], 1-based matching group of each card: the hanafuda month (suit), the
        mekurifuda number (cards match by number there; the suit is a flag).
    kind : int8[n], BRIGHT / ANIMAL / RIBBON / CHAFF.
    flags : int32[n], OR of the sub-kind flags above.
    points : int16[n], card points under the deck's usual scoring.
    """

    name: str
    names: tuple
    month: np.ndarray
    kind: np.ndarray
    flags: np.ndarray
    points: np.ndarray
    n_months: int = field(default=12)

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def number(self) -> np.ndarray:
        """The matching group (``month``) under its mekurifuda name: cards match by number."""
        return self.month

    def mask(self, cards) -> np.uint64:
        """Bitmask of an iterable of card indices."""
        m = 0
        for c in cards:
            m |= 1 << int(c)
        return np.uint64(m)

    def cards_where(self, selector) -> np.ndarray:
        return np.flatnonzero(selector)

    def kind_mask(self, kind: int) -> np.uint64:
        return self.mask(self.cards_where(self.kind == kind))

    def flag_mask(self, flag: int) -> np.uint64:
        return self.mask(self.cards_where((self.flags & flag) != 0))

    def month_masks(self) -> np.ndarray:
        """uint64[n_months + 1]; entry m is the mask of month m (entry 0 is empty)."""
        out = np.zeros(self.n_months + 1, dtype=np.uint64)
        for m in range(1, self.n_months + 1):
            out[m] = self.mask(self.cards_where(self.month == m))
        return out

    def cards_of(self, mask) -> list:
        """Card indices in a bitmask, ascending."""
        mask = int(mask)
        return [i for i in range(self.n) if mask >> i & 1]

    def describe(self, mask) -> str:
        return ", ".join(self.names[i] for i in self.cards_of(mask))

    def card(self, name: str) -> int:
        """Index of the card called ``name`` (as in ``names``)."""
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(f"no card named {name!r} in the {self.name} deck") from None


def _build(name, rows, points_of_kind, n_months=12) -> Deck:
    names, month, kind, flags = [], [], [], []
    for card_name, m, k, f in rows:
        names.append(card_name)
        month.append(m)
        kind.append(k)
        flags.append(f)
    kind_arr = np.array(kind, dtype=np.int8)
    pts = np.array([points_of_kind[k] for k in kind], dtype=np.int16)
    return Deck(name=name, names=tuple(names), month=np.array(month, dtype=np.int8),
                kind=kind_arr, flags=np.array(flags, dtype=np.int32), points=pts,
                n_months=n_months)


def standard_hanafuda(points_of_kind=None) -> Deck:
    """The standard 48-card hanafuda deck, four cards a month, highest card first.

    Card ``4*(month-1) + j``.  Willow (month 11) holds the rain man (bright), the swallow
    (animal), a plain ribbon and the lightning card (chaff); the sake cup is an animal.
    """
    points_of_kind = points_of_kind or TOPPA_POINTS
    B, A, R, C = BRIGHT, ANIMAL, RIBBON, CHAFF
    spec = [
        # month, (name, kind, flags) x 4
        (1, [("crane", B, 0), ("poetry_ribbon", R, POETRY), ("chaff1", C, 0), ("chaff2", C, 0)]),
        (2, [("bush_warbler", A, 0), ("poetry_ribbon", R, POETRY), ("chaff1", C, 0), ("chaff2", C, 0)]),
        (3, [("curtain", B, 0), ("poetry_ribbon", R, POETRY), ("chaff1", C, 0), ("chaff2", C, 0)]),
        (4, [("cuckoo", A, 0), ("ribbon", R, PLAIN), ("chaff1", C, 0), ("chaff2", C, 0)]),
        (5, [("bridge", A, 0), ("ribbon", R, PLAIN), ("chaff1", C, 0), ("chaff2", C, 0)]),
        (6, [("butterflies", A, BUTTERFLY), ("blue_ribbon", R, BLUE), ("chaff1", C, 0), ("chaff2", C, 0)]),
        (7, [("boar", A, BOAR), ("ribbon", R, PLAIN), ("chaff1", C, 0), ("chaff2", C, 0)]),
        (8, [("moon", B, 0), ("geese", A, 0), ("chaff1", C, 0), ("chaff2", C, 0)]),
        (9, [("sake_cup", A, SAKE_CUP), ("blue_ribbon", R, BLUE), ("chaff1", C, 0), ("chaff2", C, 0)]),
        (10, [("deer", A, DEER), ("blue_ribbon", R, BLUE), ("chaff1", C, 0), ("chaff2", C, 0)]),
        (11, [("rain_man", B, RAIN_MAN), ("swallow", A, 0), ("ribbon", R, PLAIN), ("lightning", C, 0)]),
        (12, [("phoenix", B, 0), ("chaff1", C, 0), ("chaff2", C, 0), ("chaff3", C, 0)]),
    ]
    rows = []
    for m, cards in spec:
        for card_name, k, f in cards:
            if m == 11:
                f |= WILLOW
            rows.append((f"{MONTH_NAMES[m - 1]}.{card_name}", m, k, f))
    return _build("hanafuda", rows, points_of_kind)


HANAFUDA = standard_hanafuda()


# Taipa hanafuda (seed 002_06e64cb5319513a5, "The deck"): 6 suits x 8 cards, numbered 1..6 in
# the seed's table order.  Card ``8*(suit-1) + j``: the four identical brights or animals
# first, then the ribbons, then the chaff (susuki: four brights and four chaff).
TAIPA_SUITS = ("pine", "cherry", "susuki", "bush_clover", "maple", "peony")
BRIGHT_SUIT = 1 << 9  # a bright of the three-brights yaku (every Taipa bright)


def taipa_deck() -> Deck:
    """The 48-card Taipa deck as data: suit (``month``), kind, flags and ``points`` (0: Taipa
    scores yaku only).  Every fact the Taipa kernels use comes from these arrays."""
    B, A, R, C = BRIGHT, ANIMAL, RIBBON, CHAFF
    spec = [
        (1, [("crane", B, BRIGHT_SUIT, 4), ("poetry_ribbon", R, POETRY, 2), ("chaff", C, 0, 2)]),
        (2, [("curtain", B, BRIGHT_SUIT, 4), ("poetry_ribbon", R, POETRY, 2), ("chaff", C, 0, 2)]),
        (3, [("moon", B, BRIGHT_SUIT, 4), ("chaff", C, 0, 4)]),
        (4, [("boar", A, BOAR, 4), ("ribbon", R, PLAIN, 2), ("chaff", C, 0, 2)]),
        (5, [("deer", A, DEER, 4), ("blue_ribbon", R, BLUE, 2), ("chaff", C, 0, 2)]),
        (6, [("butterflies", A, BUTTERFLY, 4), ("blue_ribbon", R, BLUE, 2), ("chaff", C, 0, 2)]),
    ]
    rows = []
    for s, cards in spec:
        for card_name, k, f, copies in cards:
            for j in range(copies):
                rows.append((f"{TAIPA_SUITS[s - 1]}.{card_name}{j + 1}", s, k, f))
    assert len(rows) == 48
    return _build("taipa", rows, {BRIGHT: 0, ANIMAL: 0, RIBBON: 0, CHAFF: 0}, n_months=6)


TAIPA = taipa_deck()


# The mekurifuda deck (seed 003_9adff6e6778a6a03, "The Cards"; ``shared/rule-pages/
# mekurifuda.md``): 4 Portuguese suits x numbers 1-12 (Dragon, 2..9, Maid, Horse, King), no
# onifuda.  Cards match by *number*, so the number is the deck's matching group (``month``)
# and the suit is a flag.  Card ``4*(number-1) + suit`` with the suits in MEKURI_SUITS order:
# the four cards of a number are adjacent, so a number is one nibble of a card mask and the
# four-cards-a-group masks of ``engine.bits`` (``month_nibble``, ``nibble_counts``,
# ``has_full_nibble``) and ``engine.play.capture`` apply unchanged (checked by
# ``tests/test_taoshi.py::test_deck``).  ``kind`` is not meaningful for this deck (every card is
# CHAFF); games read ``flags`` and ``points``.
MEKURI_SUITS = ("coins", "cups", "swords", "clubs")
COINS, CUPS, SWORDS, CLUBS = 1 << 10, 1 << 11, 1 << 12, 1 << 13
RED = 1 << 14        # Taoshi's "reds": every sword, every 2, both bakefuda
BAKEFUDA = 1 << 15   # the 1 of clubs (pinbake) and the 12 of clubs (kiribake)
JUNK = 1 << 16       # every sword but the 2 of swords (1 point in Taoshi)
FLAG_NAMES.update(coins=COINS, cups=CUPS, swords=SWORDS, clubs=CLUBS, red=RED,
                  bakefuda=BAKEFUDA, junk=JUNK)


def taoshi_points(number: int, suit: str) -> int:
    """Taoshi card points ("Card Points"): the 6 of clubs 9; the 7, 8, 9 of clubs face value;
    other clubs 5; swords but the 2 of swords 1 (junk); the 2 of swords and every other card
    6.  The deck totals 234."""
    if suit == "clubs":
        return 9 if number == 6 else number if number in (7, 8, 9) else 5
    if suit == "swords" and number != 2:
        return 1
    return 6


def mekurifuda_deck() -> Deck:
    """The 48-card mekurifuda deck with Taoshi's points and flags."""
    suit_flag = dict(zip(MEKURI_SUITS, (COINS, CUPS, SWORDS, CLUBS)))
    names, month, kind, flags, points = [], [], [], [], []
    for number in range(1, 13):
        for suit in MEKURI_SUITS:
            f = suit_flag[suit]
            bake = suit == "clubs" and number in (1, 12)
            if bake:
                f |= BAKEFUDA
            if suit == "swords" or number == 2 or bake:
                f |= RED
            if suit == "swords" and number != 2:
                f |= JUNK
            names.append(f"{suit}.{number}")
            month.append(number)
            kind.append(CHAFF)
            flags.append(f)
            points.append(taoshi_points(number, suit))
    return Deck(name="mekurifuda", names=tuple(names), month=np.array(month, dtype=np.int8),
                kind=np.array(kind, dtype=np.int8), flags=np.array(flags, dtype=np.int32),
                points=np.array(points, dtype=np.int16), n_months=12)


MEKURIFUDA = mekurifuda_deck()
