"""The kernels' plain data: the lowered rules (``Tables``, the ``params`` slots and the codes of
each option's values, the card-mask slots), the round state's slots, a round's result slots.

Every kernel file reads these names; ``lower`` fills ``Tables`` from the rules.  Changing a
slot's number changes no table (they are positions in arrays the kernels allocate or receive).
"""
from typing import NamedTuple

import numpy as np

from ...engine import state
from ...engine.rng import NO_GIVEN
from .rules import N_PLAYERS

FIELD = 2  # the deal's groups: 0 the dealer's hand, 1 the opponent's, 2 the field

# tb.cards slots (K_CHAFF1/2: the chaff of the first/second table, K_DOUBLE: double_chaff's)
(K_BRIGHTS, K_SAKE, K_FLOWER, K_MOONV, K_WILLOW, K_PAULOWNIA, K_CHAFF1, K_CHAFF2, K_DOUBLE,
 K_AUGUST, K_LIGHTNING) = range(11)


class Tables(NamedTuple):
    """Everything a koi-koi kernel needs, as arrays and ints."""

    month: np.ndarray        # int8[48]
    yaku_masks: np.ndarray   # uint64[Y, 3]
    yaku_ints: np.ndarray    # int64[Y, 5]
    yaku_masks2: np.ndarray  # the same rows with the sake cup as chaff (animal_or_chaff)
    yaku_ints2: np.ndarray
    cards: np.ndarray        # uint64[6], the K_* card masks
    pattern: np.ndarray      # int8[24 or 28]
    params: np.ndarray       # int64[P_N]
    weights: np.ndarray      # float64[48], greedy's card weights
    gscore: np.ndarray       # float64[48 * 16], greedy's hand-card table
    ghigh: np.ndarray        # uint64[12 * 16], greedy's two-way choice table
    cond: np.ndarray = NO_GIVEN  # int64[]: the run's conditioned deal (engine.rng; empty: none)

# params slots
(P_SAKE_EITHER, P_VIEWING, P_VIEW_PTS, P_VIEW_CALLED, P_MONTH_YAKU, P_COUNTING, P_FIELD_MULT,
 P_SEVEN, P_BONUS, P_ZERO_SUM, P_DECIDE_NEW, P_KOIKOI_MIN, P_LAST_STOP, P_OPP_KEEPS, P_EXHAUSTED,
 P_PRIVILEGE, P_DRAW_PASS, P_HAND, P_LUCKY, P_BOTH_DEALER, P_FIELD_FOUR, P_MIS_FIELD_PAIRS,
 P_MIS_HAND_FOUR, P_MIS_HAND_PAIRS, P_FIRST_EARLIER, P_TARGET, P_GAME_ROUNDS, P_STAKE,
 P_SHUFFLE_STOP, P_FIXED_DEALER, P_CHECKED, P_DEALS_ONLY, P_SERIES, P_CHAFF_ROW, P_CHAFF_GROW,
 P_WILD, P_TURN, P_AFTER_PILE, P_CALLS_MAX, P_IMPROVE_STOP, P_ROLL_DEC, P_ROLL_PARAM,
 P_LOOK_OFF, P_MUST_MATCH, P_MIS_FIELD_FOUR) = range(45)

P_N = 45

VIEW_OFF, VIEW_ON, VIEW_NEED_OTHER, VIEW_WEATHER = 0, 1, 2, 3

COUNT_ALL, COUNT_BEST, COUNT_BOTH = 0, 1, 2

FMULT_COUNT, FMULT_DOUBLE, FMULT_OFF = 0, 1, 2

(BONUS_NONE, BONUS_OPP, BONUS_OWN, BONUS_ANYONE, BONUS_PLUS_ONE, BONUS_ADD) = range(6)

EXH_NOBODY, EXH_DEALER, EXH_LAST = 0, 1, 2

LUCKY_NONE, LUCKY_WIN, LUCKY_STACK, LUCKY_MISDEAL = 0, 1, 2, 3

FIELD4_MISDEAL, FIELD4_CAPTURE, FIELD4_WIN = 0, 1, 2

BOTH_DRAW, BOTH_DEALER, BOTH_PRIVILEGE = 0, 1, 2

WILD_OFF, WILD_ON, WILD_AUGUST = 0, 1, 2

TURN_STANDARD, TURN_DRAW_TWO, TURN_UNMATCHED = 0, 1, 2

#: ``P_LOOK_OFF`` bits (``lower.LOOK_OFF``): LOOK_OFF_DRAWN leaves the turned card's take to
#: greedy, LOOK_OFF_LUCKY the lucky hands to ``expose``
LOOK_OFF_DRAWN, LOOK_OFF_LUCKY = 1, 2

# extra state slots after engine.state's (hands, field, piles, top, seat)
ST_BASE = state.size(N_PLAYERS)

(KS_CALLS, KS_HITS, KS_BEST) = (ST_BASE, ST_BASE + 2, ST_BASE + 4)   # per seat

KS_LAST, KS_TURNS, KS_DECISIONS, KS_OVER, KS_MONTH, KS_FMULT, KS_WILD = range(ST_BASE + 6,
                                                                            ST_BASE + 13)

KS_N = ST_BASE + 13

# KS_LAST: 1 + the last seat to form or improve a yaku (0: none); KS_OVER: 0 playing, 1 + the
# seat that collected, OVER_EXHAUSTED; KS_MONTH: the round's month mask; KS_FMULT: the field
# multiplier; KS_WILD: 1 when the Lightning is wild this round (wild_lightning).
OVER_EXHAUSTED = 3

ACT_NONE, ACT_CONTINUE, ACT_STOP, ACT_ASK = 0, 1, 2, 3  # ASK: a lookahead player's decision

# result slots of one round (seats relative to the dealer)
(R_SCORE, R_WINNER, R_END, R_BASE, R_POINTS, R_HITS, R_COLLECTED, R_KEPT, R_PAID, R_CALLS,
 R_DECISIONS, R_TURNS, R_FIELD_BRIGHTS, R_LUCKY, R_CAPTURED, R_FIELD, R_TOP, R_HANDS,
 R_MISDEALS) = (0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 17, 19, 20, 21, 22)

R_N = 23

# R_WINNER: the seat that scored the round (-1: nobody); R_END: how it ended (END_*); R_BASE /
# R_POINTS: the winner's yaku points counted / points scored; R_HITS: the yaku rows the
# collector held; R_KEPT: points of a continued opponent under opponent_stops=keeps; R_PAID:
# koi-koi calls of the collector (calls that paid off); R_LUCKY: lucky-hand bits per seat (1
# four of a kind, 2 four pairs).
END_STOP, END_EXHAUSTED, END_LUCKY, END_LUCKY_DRAW, END_FIELD = 0, 1, 2, 3, 4
