"""Bakappana's rules as plain arrays and ints for the kernels (``Tables``)."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...decks import HANAFUDA
from ...engine.rng import NO_GIVEN
from .rules import deal_pattern, deal_sizes, draws_out, par


class Tables(NamedTuple):
    """Everything a Bakappana kernel needs."""

    kind_masks: np.ndarray   # uint64[4]: bright, animal, ribbon, chaff (printed kinds)
    kind_points: np.ndarray  # int64[4]: 20, 10, 5, 1 (or 0: the '80 no bakappana')
    pattern: np.ndarray      # int8[dealt]: the group each dealt card goes to (field: group n)
    params: np.ndarray       # int64[P_LEN]
    gscore: np.ndarray       # float64[48 * 16]: greedy's hand-card table (policies.greedy_tables)
    ghigh: np.ndarray        # uint64[12 * 16]: greedy's two-way choice table
    cond: np.ndarray = NO_GIVEN  # int64[]: the run's conditioned deal (engine.rng; empty: none)


# params slots
(P_PLAYERS, P_DRAW_OUT, P_PAR, P_TIE_RANDOM, P_FIXED_DEALER, P_GAME_ROUNDS, P_CHECKED,
 P_DECK_POINTS) = range(8)
P_LEN = 8


def card_points(chaff_points: int) -> np.ndarray:
    return np.array([20, 10, 5, chaff_points], dtype=np.int64)


def lower(rules, *, fixed_dealer=False, checked=False) -> Tables:
    """The kernels' Tables for ``rules`` (a validated ``BakappanaRules``)."""
    from ...policies import greedy_tables

    # The kernels answer month questions on nibbles: four cards a month, in card order.
    assert all(HANAFUDA.month[c] == c // 4 + 1 for c in range(48))
    kind_masks = np.array([HANAFUDA.kind_mask(k) for k in range(4)], dtype=np.uint64)
    points = card_points(rules.chaff_points)
    params = np.zeros(P_LEN, dtype=np.int64)
    params[P_PLAYERS] = rules.players
    params[P_DRAW_OUT] = draws_out(rules)
    params[P_PAR] = par(rules)
    params[P_TIE_RANDOM] = rules.tie_dealer == "random"
    params[P_FIXED_DEALER] = bool(fixed_dealer)
    params[P_GAME_ROUNDS] = rules.rounds_per_game
    params[P_CHECKED] = bool(checked)
    params[P_DECK_POINTS] = int(points @ np.bincount(HANAFUDA.kind, minlength=4))
    # greedy weighs a card by its points alone: there are no yaku
    weights = points[HANAFUDA.kind].astype(np.float64)
    hand, _ = deal_sizes(rules)
    return Tables(kind_masks, points, deal_pattern(rules.players, hand), params,
                  *greedy_tables(weights))
