"""The layout of Kushiro Toppa's kernel arrays: a round's result slots (``res``) and the
resumable play state (``ks``)."""
from __future__ import annotations

# R_CHOICE holds a seat's join/drop choice: engine.join's CH_* (re-exported here)
from ...engine.join import (CH_DROP, CH_FORCED_IN, CH_FORCED_OUT, CH_JOIN,  # noqa: F401
                            CH_SEATED)

# result slots of one round; per-seat blocks are 4 wide (seats relative to the dealer)
R_CHIPS, R_PLAYS, R_CHOICE, R_TEY_DEALT, R_FOURS, R_SWAPS, R_TEY_CLAIMED, R_CONT = (
    0, 4, 8, 12, 16, 20, 24, 28)
(R_WINNER, R_END, R_POINTS, R_HITS, R_TURNS, R_DECISIONS, R_MISDEALS, R_REDEALS, R_FIRST,
 R_SECOND, R_PAID, R_FIELD, R_TOP, R_END_PILE, R_PILE_A, R_PILE_B, R_HAND_A, R_HAND_B,
 R_ASIDE, R_STOPPER, R_N_PLAYERS, R_SWAP_IN, R_SWAP_OUT) = range(32, 55)
R_N = 55
# R_SWAP_IN / R_SWAP_OUT: the cards the swaps put into hands / onto the top of the draw pile
# R_CHOICE: 0 seated (2 players), 1 chose join, 2 chose drop, 3 forced in, 4 forced out
END_STOP, END_EXHAUSTED, END_TEYAKU = 0, 1, 2
PILE_N = 68  # the draw pile buffer: the undealt cards and up to 30 dropped ones

# the play, resumable
# The two players' state (``ks``, uint64[KS_N]): slots 0-8 are engine.state's for 2 seats (seat
# 0 the first mover, seat 1 the other), the rest koi-koi's bookkeeping.  Signed values are
# stored as their uint64 bits; LAST and STOPPER hold seat + 1 (0: none).  K_KNOWN + seat: the
# cards of an exposed teyaku (``teyaku_shown``), which ``determinise`` keeps in that hand.
K_FIELD, K_PA, K_TOP, K_CUR, K_KNOWN = 2, 3, 5, 6, 7   # K_PA/K_KNOWN + seat (state.known)
(K_HELD, K_BEST, K_LAST, K_CALLS, K_END, K_STOPPER, K_POINTS, K_HITS, K_TURNS, K_DECISIONS,
 K_END_PILE, K_N_ALL) = (9, 11, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23)  # HELD, BEST, CALLS + seat
KS_N = 24
