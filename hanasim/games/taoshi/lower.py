"""Taoshi's rules lowered for the kernels: plain arrays and ints (``Tables``), and the deal's
pattern."""
from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

import numpy as np

from ...decks import BAKEFUDA, RED
from ...engine.rng import NO_GIVEN
from ...policies import greedy_tables
from .rules import (BAKEFUDA_READINGS, DECK, DECK_POINTS, DEKIYAKU_NUMBERS, TEYAKU_VALUES,
                    TIE_READINGS, TaoshiRules, burden_unit, burdens_of)


class Tables(NamedTuple):
    points: np.ndarray     # int64[48]
    pmask: np.ndarray      # uint64[10]: the cards worth v points
    values: np.ndarray     # int64[14] teyaku values (NONE: 0)
    burden: np.ndarray     # int64[3] burdens in 1/unit points
    deal_to: np.ndarray    # int64[7 n + 6]: deck position -> seat (n = the field)
    params: np.ndarray     # int64[P_N]
    gscore: np.ndarray
    ghigh: np.ndarray
    cond: np.ndarray = NO_GIVEN  # int64[]: the run's conditioned deal (engine.rng; empty: none)


(P_PLAYERS, P_READING, P_OVERLAP_NO, P_ON_TOP, P_DROP_FEE, P_FORCED_PAY, P_UNIT,
 P_FIXED_DEALER, P_SESSION, P_DEALS_ONLY, P_RED, P_BAKE, P_DEKIYAKU, P_BOTTA_PAID,
 P_FORCED_BOTTA, P_TIE, P_TWOS, P_THREES) = range(18)
P_N = 18
TIE_FIRST, TIE_LAST, TIE_RANDOM = range(3)
READ_LITERAL, READ_IN_SETS, READ_EVERYWHERE, READ_NO_NUMBER = range(4)


def deal_sequence(n) -> np.ndarray:
    """Deck position -> seat (``n``: the field): 4 each from seat 1 round to the dealer, 3 to
    the field, 3 each, 3 to the field ("Dealing the Cards")."""
    order = [s % n for s in range(1, n + 1)]
    seq = [s for s in order for _ in range(4)] + [n] * 3 + [s for s in order for _ in range(3)]
    return np.array(seq + [n] * 3, dtype=np.int64)


def lower(rules: TaoshiRules, *, fixed_dealer=False, session_rounds=1, deals_only=False):
    p = np.zeros(P_N, dtype=np.int64)
    p[P_PLAYERS] = rules.players
    p[P_READING] = BAKEFUDA_READINGS.index(rules.bakefuda)
    p[P_OVERLAP_NO] = rules.reds_overlap == "no"
    p[P_ON_TOP] = rules.dropped_cards == "on_top"
    p[P_DROP_FEE] = rules.drop_fee
    p[P_FORCED_PAY] = rules.forced_out_pay
    unit = burden_unit(rules)
    p[P_UNIT] = unit
    p[P_FIXED_DEALER] = bool(fixed_dealer)
    p[P_SESSION] = int(session_rounds)
    p[P_DEALS_ONLY] = bool(deals_only)
    p[P_RED] = np.int64(DECK.flag_mask(RED))
    p[P_BAKE] = np.int64(DECK.flag_mask(BAKEFUDA))
    p[P_DEKIYAKU] = rules.dekiyaku == "page"
    p[P_BOTTA_PAID] = rules.botta_teyaku == "paid"
    p[P_FORCED_BOTTA] = rules.forced_out_botta == "claimed"
    p[P_TIE] = TIE_READINGS.index(rules.tie_winner)
    p[P_TWOS], p[P_THREES] = (np.int64(DECK.mask(np.flatnonzero(DECK.month == m)))
                              for m in DEKIYAKU_NUMBERS)
    burden = np.array([int(b * unit) for b in burdens_of(rules)], dtype=np.int64)
    assert all(Fraction(int(b * unit)) == b * unit for b in burdens_of(rules))
    points = DECK.points.astype(np.int64)
    values = np.array(TEYAKU_VALUES + (0,), dtype=np.int64)
    pmask = np.array([DECK.mask(np.flatnonzero(points == v)) for v in range(10)],
                     dtype=np.uint64)
    assert sum(v * bin(int(m)).count("1") for v, m in enumerate(pmask)) == DECK_POINTS
    return Tables(points, pmask, values, burden, deal_sequence(rules.players), p,
                  *greedy_tables(points.astype(np.float64)))
