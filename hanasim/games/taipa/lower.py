"""Taipa's options lowered for the kernels: the deck as card masks, round 1's deck (the
``removed_*`` study options) and :func:`lower`, the rules as plain arrays and ints
(:class:`Tables`, whose ``params`` slots are the ``P_*`` names below).

The deck (the rule page, "The deck") is data: :data:`hanasim.decks.TAIPA`, 6 suits x 8 cards.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ... import decks
from ...decks import TAIPA
from ...engine.rng import NO_GIVEN
from .rules import N_PLAYERS, SERIES_ROUNDS, YAKU_POINTS, TaipaRules

_D = TAIPA
BRIGHTS = int(_D.kind_mask(decks.BRIGHT))
ANIMALS = int(_D.kind_mask(decks.ANIMAL))
RIBBONS = int(_D.kind_mask(decks.RIBBON))
CHAFF = int(_D.kind_mask(decks.CHAFF))
ALL = (1 << _D.n) - 1


def _sets(kind_mask):
    """Masks of the suits a kind's cards lie in (three brights: pine, cherry, susuki)."""
    mm = _D.month_masks()
    return [int(m) & kind_mask for m in mm[1:] if int(m) & kind_mask]


BRIGHT_SETS = _sets(BRIGHTS)
ANIMAL_SETS = [int(_D.flag_mask(f)) for f in (decks.BOAR, decks.DEER, decks.BUTTERFLY)]
assert len(BRIGHT_SETS) == 3 and all(ANIMAL_SETS)
#: the eight card classes that decide yaku (pine, cherry, susuki brights; boar, deer,
#: butterflies; ribbons; chaff): every card is in exactly one
CLASSES = BRIGHT_SETS + ANIMAL_SETS + [RIBBONS, CHAFF]
assert sum(bin(m).count("1") for m in CLASSES) == 48


def _lowest_bits(m: int, k: int) -> int:
    out = 0
    for _ in range(k):
        low = m & -m
        out |= low
        m &= m - 1
    return out


def start_deck(rules: TaipaRules) -> int:
    """Round 1's deck as a card mask: the full deck less the ``removed_*`` yaku (brights and
    animals: the lowest card of each of the yaku's three classes; ribbons, chaff: the
    lowest-numbered cards).  Only the class counts matter for the deal-time odds."""
    out = 0
    for sets, k in ((BRIGHT_SETS, rules.removed_brights), (ANIMAL_SETS, rules.removed_animals)):
        for m in sets:
            out |= _lowest_bits(m, k)
    out |= _lowest_bits(RIBBONS, 3 * rules.removed_ribbons)
    out |= _lowest_bits(CHAFF, 3 * rules.removed_chaff)
    return ALL & ~out


class Tables(NamedTuple):
    group_of: np.ndarray     # int8[48]: a card's suit (its match group)
    group_masks: np.ndarray  # uint64[7]: the cards of each suit (entry 0 empty)
    sets: np.ndarray         # uint64[2, 3]: bright yaku suits, animal yaku kinds
    kinds: np.ndarray        # uint64[4]: brights, animals, ribbons, chaff
    weights: np.ndarray      # float64[48]: greedy's card weights
    params: np.ndarray       # int64[P_N]
    cond: np.ndarray = NO_GIVEN  # int64[]: the run's given cards (engine.rng; empty: none)


(P_COINS, P_ROUNDS, P_UNCAPPED, P_TIE, P_YAKU_MODE, P_KEEP_EXH, P_SHORT_END, P_LAST_STOP,
 P_FIXED_FIRST, P_CHECKED, P_SERIES, P_DECK, P_LOOK_YC) = range(13)
P_N = P_LOOK_YC + N_PLAYERS  # P_LOOK_YC + player
TIE_ALTERNATE, TIE_SAME, TIE_RANDOM = 0, 1, 2
# yaku_cards: which ribbons / chaff leave play (CHOICE: the owner's policy, RANDOM or GREEDY)
YC_RANDOM, YC_FIRST, YC_CHOICE, YC_GREEDY = 0, 1, 2, 3


def lower(rules: TaipaRules, *, fixed_dealer=False, checked=False) -> Tables:
    p = np.zeros(P_N, dtype=np.int64)
    p[P_COINS] = rules.start_coins
    p[P_ROUNDS] = rules.game_rounds
    p[P_UNCAPPED] = rules.coin_cap == "uncapped"
    p[P_TIE] = ("alternate", "same", "random").index(rules.tie_first)
    p[P_YAKU_MODE] = ("random", "first", "choice").index(rules.yaku_cards)
    p[P_KEEP_EXH] = rules.exhausted_removal == "keep"
    p[P_SHORT_END] = rules.short_deck == "end_game"
    p[P_LAST_STOP] = rules.last_turn == "stop"
    p[P_FIXED_FIRST] = bool(fixed_dealer)
    p[P_CHECKED] = bool(checked)
    p[P_SERIES] = SERIES_ROUNDS
    p[P_DECK] = start_deck(rules)
    # yaku_cards=choice by a lookahead player (P_LOOK_YC + player): by lookahead on m * K
    # deals (m = 1), or as greedy (0: the paired measurement's baseline).  Set on the lowered
    # tables by the tests and measurements only; no rule or policy sets it
    p[P_LOOK_YC:P_LOOK_YC + N_PLAYERS] = 1
    # greedy: a card weighs its share of its yaku (points / 3 cards)
    w = np.array([YAKU_POINTS[int(k)] / 3 for k in _D.kind], dtype=np.float64)
    return Tables(_D.month.astype(np.int8), _D.month_masks(),
                  np.array([BRIGHT_SETS, ANIMAL_SETS], dtype=np.uint64),
                  np.array([BRIGHTS, ANIMALS, RIBBONS, CHAFF], dtype=np.uint64), w, p)
