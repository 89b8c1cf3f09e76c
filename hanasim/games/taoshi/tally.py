"""Taoshi's counters: what each round adds (deal-time teyaku, scores by active position, by
table seat and by player)."""
from __future__ import annotations

from ...engine.jit import hot
from ...engine.join import tally_choice
from .rules import ACTIVE, MAX_PLAYERS
from .score import dekiyaku_value
from .slots import (R_ACT_SEAT, R_BOTTA, R_CHOICE, R_CLAIM, R_DEKI, R_MISDEALS, R_POS, R_PTS,
                    R_RAW, R_SCORE, R_TEY, R_TIED, R_WINNER, R_YAKU)

# counters
(C_DEALS, C_MISDEALS, C_ROUNDS, C_BOTTA, C_PLAYED, C_SESSIONS, C_CLAIMS, C_FIRST_TOTAL,
 C_FIRST_TOTAL_SQ, C_FIRST_WINS, C_SUM_SCORE, C_SUM_SCORE_SQ, C_TWOS, C_THREES,
 C_TIES) = range(15)
C_POS = 16
(K_RAW, K_RAW_SQ, K_SCORE, K_SCORE_SQ, K_PTS, K_PTS_SQ, K_YAKU, K_YAKU_SQ, K_WINS, K_DEKI,
 K_DEKI_SQ) = range(11)
K_N = 11
C_SEAT = C_POS + K_N * ACTIVE
(S_SCORE, S_SCORE_SQ, S_WINS, S_PLAYS, S_JOIN, S_DROP, S_FORCED_IN, S_FORCED_OUT, S_BOTTA_PAID,
 S_JOIN_STRENGTH) = range(10)
S_N = 10
C_PLAYER = C_SEAT + S_N * MAX_PLAYERS
(Q_SCORE, Q_SCORE_SQ, Q_DEALS, Q_WINS, Q_PLAYS) = range(5)
Q_N = 5
C_N = C_PLAYER + Q_N * MAX_PLAYERS


@hot
def tally_deal(scal, tcount, vcount, res, n, values):
    """Per dealt hand: its best teyaku and its value; per round the count k of hands with each
    and k * k (pooled proportions), k * k as k + 2 x the pairs of hands that agree."""
    scal[C_DEALS] += res[R_MISDEALS] + 1
    scal[C_MISDEALS] += res[R_MISDEALS]
    scal[C_ROUNDS] += 1
    for s in range(n):
        t = res[R_TEY + s]
        v = _value_index(values[t])
        tcount[t, 0] += 1
        tcount[t, 1] += 1
        vcount[v, 0] += 1
        vcount[v, 1] += 1
        for s2 in range(s):
            t2 = res[R_TEY + s2]
            if t2 == t:
                tcount[t, 1] += 2
            if _value_index(values[t2]) == v:
                vcount[v, 1] += 2


@hot
def _value_index(v):
    """Index of a teyaku value in SCORE_VALUES (100, 60, 36, 12, 0)."""
    return 0 if v == 100 else 1 if v == 60 else 2 if v == 36 else 3 if v == 12 else 4


@hot
def tally_round(scal, res, dealer, n):
    scal[C_BOTTA] += res[R_BOTTA]
    scal[C_PLAYED] += 1 - res[R_BOTTA]
    w = res[R_WINNER]
    tot = 0
    for j in range(ACTIVE):
        s = res[R_ACT_SEAT + j]
        b = C_POS + K_N * j
        x = res[R_RAW + s]
        scal[b + K_RAW] += x
        scal[b + K_RAW_SQ] += x * x
        x = res[R_SCORE + s]
        scal[b + K_SCORE] += x
        scal[b + K_SCORE_SQ] += x * x
        x = res[R_PTS + j]
        scal[b + K_PTS] += x
        scal[b + K_PTS_SQ] += x * x
        x = res[R_YAKU + j]
        scal[b + K_YAKU] += x
        scal[b + K_YAKU_SQ] += x * x
        scal[b + K_WINS] += w == s
        scal[C_CLAIMS] += res[R_CLAIM + s]
        d = res[R_DEKI + j]
        x = dekiyaku_value(d)
        scal[b + K_DEKI] += x
        scal[b + K_DEKI_SQ] += x * x
        scal[C_TWOS] += d & 1
        scal[C_THREES] += (d >> 1) & 1
    scal[C_TIES] += res[R_TIED]
    for s in range(n):
        x = res[R_SCORE + s]
        tot += x
        b = C_SEAT + S_N * s
        scal[b + S_SCORE] += x
        scal[b + S_SCORE_SQ] += x * x
        scal[b + S_WINS] += w == s
        scal[b + S_PLAYS] += res[R_POS + s] >= 0
        tally_choice(scal, b + S_JOIN, res[R_CHOICE + s])  # S_JOIN .. S_FORCED_OUT
        scal[b + S_BOTTA_PAID] += res[R_BOTTA] != 0 and res[R_POS + s] < 0
        q = dealer + s
        q = q - n if q >= n else q
        c2 = C_PLAYER + Q_N * q
        x = res[R_SCORE + s]
        scal[c2 + Q_SCORE] += x
        scal[c2 + Q_SCORE_SQ] += x * x
        scal[c2 + Q_DEALS] += s == 0
        scal[c2 + Q_WINS] += w == s
        scal[c2 + Q_PLAYS] += res[R_POS + s] >= 0
    scal[C_SUM_SCORE] += tot
    scal[C_SUM_SCORE_SQ] += tot * tot
