"""Kushiro Toppa's counters: what each round adds (deal-time facts, the play's outcome, per
table seat and per player)."""
from __future__ import annotations

import numpy as np

from ...engine.bits import ONE, ZERO, count, lowest
from ...engine.jit import hot
from ...engine.join import tally_choice
from .rules import MAX_PLAYERS
from .slots import (END_EXHAUSTED, END_STOP, END_TEYAKU, R_CHIPS, R_CHOICE, R_CONT,
                    R_DECISIONS, R_END, R_FIRST, R_FOURS, R_HITS, R_MISDEALS, R_PAID, R_PLAYS,
                    R_POINTS, R_REDEALS, R_STOPPER, R_SWAPS, R_TEY_CLAIMED, R_TEY_DEALT,
                    R_TURNS, R_WINNER)



# counters
(C_DEALS, C_MISDEALS, C_ROUNDS, C_REDEALS, C_EXHAUSTED, C_STOPS, C_TEY_ENDS, C_NOBODY,
 C_CALLS, C_CALLS_SQ, C_DECISIONS, C_PAID, C_TURNS, C_TURNS_SQ, C_STOP_N, C_STOP_SUM,
 C_STOP_SQ, C_CONT_N, C_CONT_SUM, C_CONT_SQ, C_WON, C_WON_PTS, C_WON_PTS_SQ, C_SESSIONS,
 C_FIRST_TOTAL, C_FIRST_TOTAL_SQ, C_FIRST_WINS, C_FIRST_TIES, C_FM_CHIPS, C_FM_CHIPS_SQ,
 C_FM_WINS, C_SWAPS, C_FOUR_HANDS, C_HANDS, C_TEY_CLAIMS, C_TEY_CHIPS, C_SWAP_HANDS,
 C_DEALER_PLAYS) = range(38)
C_SEAT = 40
(S_CHIPS, S_CHIPS_SQ, S_WINS, S_PLAYS, S_JOIN, S_DROP, S_FORCED_IN, S_FORCED_OUT, S_FIRST,
 S_LOSSES) = range(10)
S_N = 10
C_PLAYER = C_SEAT + S_N * MAX_PLAYERS
(Q_CHIPS, Q_CHIPS_SQ, Q_DEALS, Q_WINS, Q_PLAYS) = range(5)
Q_N = 5
C_N = C_PLAYER + Q_N * MAX_PLAYERS


@hot
def tally_deal(scal, tcount, res, n):
    scal[C_DEALS] += res[R_MISDEALS] + 1
    scal[C_MISDEALS] += res[R_MISDEALS]
    scal[C_ROUNDS] += 1
    scal[C_HANDS] += n
    anyk = 0
    for t in range(5):
        k = 0
        for s in range(n):
            k += (res[R_TEY_DEALT + s] >> t) & 1
        tcount[t, 0] += k
        tcount[t, 1] += k * k
    for s in range(n):
        anyk += res[R_TEY_DEALT + s] != 0
        scal[C_FOUR_HANDS] += res[R_FOURS + s] > 0
    tcount[5, 0] += anyk
    tcount[5, 1] += anyk * anyk


@hot
def tally_round(scal, ycount, res, dealer, n):
    scal[C_REDEALS] += res[R_REDEALS]
    end = res[R_END]
    w = res[R_WINNER]
    scal[C_EXHAUSTED] += end == END_EXHAUSTED
    scal[C_STOPS] += end == END_STOP
    scal[C_TEY_ENDS] += end == END_TEYAKU
    scal[C_NOBODY] += w < 0
    calls = res[R_CONT] + res[R_CONT + 1] + res[R_CONT + 2] + res[R_CONT + 3]
    scal[C_CALLS] += calls
    scal[C_CALLS_SQ] += calls * calls
    scal[C_DECISIONS] += res[R_DECISIONS]
    scal[C_PAID] += res[R_PAID]
    t = res[R_TURNS]
    scal[C_TURNS] += t
    scal[C_TURNS_SQ] += t * t
    st = res[R_STOPPER]
    if end == END_STOP:
        x = res[R_CHIPS + st]
        scal[C_STOP_N] += 1
        scal[C_STOP_SUM] += x
        scal[C_STOP_SQ] += x * x
        tally_one(ycount, res[R_HITS])
    if st >= 0:
        pts = res[R_POINTS]
        scal[C_WON] += 1
        scal[C_WON_PTS] += pts
        scal[C_WON_PTS_SQ] += pts * pts
    fm = res[R_FIRST]
    x = res[R_CHIPS + fm]
    scal[C_FM_CHIPS] += x
    scal[C_FM_CHIPS_SQ] += x * x
    scal[C_FM_WINS] += w == fm
    scal[C_DEALER_PLAYS] += res[R_PLAYS]
    for s in range(n):
        k = res[R_CONT + s]
        x = res[R_CHIPS + s]
        if k > 0:
            scal[C_CONT_N] += k
            scal[C_CONT_SUM] += k * x
            scal[C_CONT_SQ] += k * x * x
        scal[C_SWAPS] += res[R_SWAPS + s]
        scal[C_SWAP_HANDS] += res[R_SWAPS + s] > 0
        c = res[R_TEY_CLAIMED + s]
        if c != 0:
            scal[C_TEY_CLAIMS] += 1
            scal[C_TEY_CHIPS] += count(np.uint64(c))
        b = C_SEAT + S_N * s
        scal[b + S_CHIPS] += x
        scal[b + S_CHIPS_SQ] += x * x
        scal[b + S_WINS] += w == s
        scal[b + S_LOSSES] += x < 0
        scal[b + S_PLAYS] += res[R_PLAYS + s]
        tally_choice(scal, b + S_JOIN, res[R_CHOICE + s])  # S_JOIN .. S_FORCED_OUT
        scal[b + S_FIRST] += fm == s
        q = dealer + s
        q = q - n if q >= n else q
        c2 = C_PLAYER + Q_N * q
        scal[c2 + Q_CHIPS] += x
        scal[c2 + Q_CHIPS_SQ] += x * x
        scal[c2 + Q_DEALS] += s == 0
        scal[c2 + Q_WINS] += w == s
        scal[c2 + Q_PLAYS] += res[R_PLAYS + s]


@hot
def tally_one(ycount, hits):
    m = np.uint64(hits)
    while m != ZERO:
        i = lowest(m)
        m &= m - ONE
        ycount[i, 0] += 1
        ycount[i, 1] += 1
    if hits != 0:
        ycount[ycount.shape[0] - 1, 0] += 1
        ycount[ycount.shape[0] - 1, 1] += 1
