"""Ishikari Toppa's tables, result slots and a hand's strength (card points, teyaku value, the
Four of a Kind swap): what the round (``round``) and the lookahead join (``lookahead``) both
read, a layer below both (the Ishikari Toppa rule page)."""
from typing import NamedTuple

import numpy as np
from numba import types
from numba.extending import overload

from ...engine.bits import bit, count, has_full_nibble
from ...engine.jit import BY_TYPE, hot
from ...engine.rng import NO_GIVEN, below
from ...engine.settle import pile_points
from ...engine.yaku import teyaku_by_nibbles
from ..bakappana import round as bk_round
from . import hachihachi

ACTIVE = 3


class Tables(NamedTuple):
    kind_masks: np.ndarray   # uint64[4]
    kind_points: np.ndarray  # int64[4]: 20, 10, 5, chaff 1 or 0
    month_masks: np.ndarray  # uint64[13]
    pattern: np.ndarray      # int8[7 n + 6]: Hachi-hachi's dealing (field: group n)
    teyaku: np.ndarray       # int64[T, 7]: engine.yaku teyaku rows (T = 0: none)
    params: np.ndarray       # int64[P_LEN]
    gscore: np.ndarray       # float64[48 * 16]
    ghigh: np.ndarray        # uint64[12 * 16]
    cond: np.ndarray = NO_GIVEN  # int64[]: the run's conditioned deal (engine.rng; empty: none)
    # True under Toppa's teyaku list, None (not False: a type of its own) under Hachi-hachi's
    # or none: only a kernel compiled for True holds Toppa's rows (toppa_rows,
    # round.toppa_expose); they were inlined at three sites of the default kernel, which
    # never runs them
    toppa: object = None


(P_PLAYERS, P_PAR, P_CHASE, P_TIE_RANDOM, P_FIXED_DEALER, P_GAME_ROUNDS, P_CHECKED,
 P_COMBINE, P_HACHIHACHI, P_KAN, P_DEALS_ONLY) = range(11)
P_LEN = 11

# result slots: per active position (3): card points, score (at Bakappana's R_SCORE, so its
# next_dealer reads them), teyaku held and scored, table seat; per table seat (6): choice
R_PTS, R_SCORE, R_TEY_HELD, R_TEY_SCORED, R_ACT_SEAT = 0, 4, 8, 11, 14
R_CHOICE, R_CHASERS, R_MULT, R_MISDEALS = 17, 23, 24, 25
R_N = 26
assert R_SCORE == bk_round.R_SCORE
# a table seat's choice
CH_SEATED, CH_JOIN, CH_DROP, CH_FORCED_IN, CH_FORCED_OUT, CH_CHASE = 0, 1, 2, 3, 4, 5


@hot
def join_strength(hand, tb):
    """What the join threshold compares with K: the hand's card points plus its teyaku value.
    A call (once a seat a round), not IR-inlined: the lookahead join calls it too."""
    v, _ = hand_teyaku(hand, tb)  # teyaku_value's, inlined: one compiled function less
    return pile_points(hand, tb.kind_masks, tb.kind_points) + v


@hot
def teyaku_value(hand, tb):
    """The value in points of a hand's teyaku (:func:`hand_teyaku`), as one compiled call."""
    v, _ = hand_teyaku(hand, tb)
    return v


@hot(inline="always")
def hand_teyaku(hand, tb):
    """(value in points, held bits) of a hand under the rules' teyaku list."""
    if tb.params[P_HACHIHACHI]:
        v, h = hachihachi.teyaku(hand, tb.kind_masks)
        return v * tb.params[P_KAN], h
    return toppa_rows(hand, tb, tb.toppa)


def _rows(hand, tb, toppa):
    return teyaku_by_nibbles(hand, tb.teyaku, tb.month_masks, tb.kind_masks,
                             tb.params[P_COMBINE])


def _no_rows(hand, tb, toppa):
    return 0, 0


def toppa_rows(hand, tb, toppa):
    """(value, held bits) of a hand under Toppa's teyaku rows (``tb.teyaku``), or (0, 0)
    when ``toppa`` (``Tables.toppa``) is None: chosen by its type when compiled (as
    ``engine.rng.deal_shuffle`` chooses the conditioned deal's code), so a kernel for
    Hachi-hachi's list or none holds none of the rows' code."""
    return (_no_rows if toppa is None else _rows)(hand, tb, toppa)


@overload(toppa_rows, **BY_TYPE)
def _toppa_rows_typed(hand, tb, toppa):
    return _no_rows if isinstance(toppa, types.NoneType) else _rows


@hot(inline="always")
def swap_fours(rng, g3, order3):
    """Hachi-hachi's list in Ishikari Toppa: 'If a Four of a Kind is formed, then the four
    cards are placed face down on the table, and another player chooses one card and switches
    it with the top card of the deck' (a uniform pick); the hand keeps the other three (a
    Triplet) and the top card.  Active positions in turn order, each with the current top."""
    top = 7 * ACTIVE + 6
    for k in range(ACTIVE):
        h = g3[k]
        if has_full_nibble(h):
            for m in range(12):
                if count(h & (np.uint64(0xF) << np.uint64(4 * m))) == 4:
                    c = 4 * m + below(rng, 4)
                    t = order3[top]
                    g3[k] = (h & ~bit(c)) | bit(t)
                    order3[top] = c
                    break
