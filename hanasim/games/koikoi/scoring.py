"""What a round scores: the collector's points (the yaku counted by ``yaku_counting``, 7-point
doubling, the koi-koi bonus, then the field multiplier), the settlement of a played round
(exhausted rounds, the dealer's privilege, an opponent who keeps its points), and the fixed
amounts of lucky hands.

The 1997 text: the score is "doubled if a 20-point card is dealt to the table in the initial
deal, tripled if two are" (``field_multiplier``, :func:`field_multiplier`); lucky hands, the
field-four win and the dealer's privilege are fixed amounts, not multiplied.
"""
import numpy as np

from ...engine.bits import ZERO
from ...engine.jit import hot
from .layout import (BOTH_DRAW, BOTH_PRIVILEGE, BONUS_ADD, BONUS_ANYONE, BONUS_OPP, BONUS_OWN,
                     BONUS_PLUS_ONE, COUNT_BEST, COUNT_BOTH, END_EXHAUSTED, END_LUCKY,
                     END_LUCKY_DRAW, END_STOP, EXH_DEALER, EXH_LAST, FMULT_COUNT, FMULT_DOUBLE,
                     KS_CALLS, KS_FMULT, KS_LAST, KS_MONTH, KS_OVER, LUCKY_STACK, OVER_EXHAUSTED,
                     P_BONUS, P_BOTH_DEALER, P_COUNTING, P_EXHAUSTED, P_LUCKY, P_OPP_KEEPS,
                     P_PRIVILEGE, P_SEVEN, P_ZERO_SUM, R_BASE, R_COLLECTED, R_END, R_HITS,
                     R_KEPT, R_PAID, R_POINTS, R_SCORE, R_WINNER)
from .rules import LUCKY_POINTS
from .yaku import best_single, yaku_value


@hot(inline="always")
def field_multiplier(n_brights, rule):
    if rule == FMULT_COUNT:
        return 1 + n_brights
    if rule == FMULT_DOUBLE:
        return 1 + np.int64(n_brights > 0)
    return 1


@hot
def collect(st, tb, s):
    """(points, yaku points counted, rows held) of seat ``s`` collecting now."""
    p = tb.params
    pile = st[3 + s]
    field = st[2]
    month_mask = st[KS_MONTH]
    calls = np.int64(st[KS_CALLS + s])
    other = np.int64(st[KS_CALLS + 1 - s])
    v, h = yaku_value(pile, field, calls, month_mask, tb)
    base = v
    if p[P_COUNTING] == COUNT_BEST:
        base = best_single(pile, field, calls, month_mask, tb)
    elif p[P_COUNTING] == COUNT_BOTH:
        base += yaku_value(st[4 - s], field, other, month_mask, tb)[0]
    pts = base
    if p[P_SEVEN] != 0 and base >= 7:
        pts *= 2
    bonus = p[P_BONUS]
    if bonus == BONUS_ADD:
        pts = pts + calls if calls <= 3 else pts * (calls - 2)
    elif bonus == BONUS_OPP:
        pts *= 1 + np.int64(other > 0)  # x2 or x1 (arithmetic: fewer statements to compile)
    elif bonus == BONUS_OWN:
        pts *= 1 + np.int64(calls > 0)
    elif bonus == BONUS_ANYONE:
        pts *= 1 + np.int64(calls + other > 0)
    elif bonus == BONUS_PLUS_ONE:
        pts *= 1 + calls + other
    pts *= np.int64(st[KS_FMULT])
    return pts, base, h


@hot
def _pay(res, s, pts, zero_sum):
    """``pts`` to seat ``s``, paid by the other under zero-sum scoring.  A call, not inlined:
    at most twice a round, from six sites (each inlined site was compiled again)."""
    res[R_SCORE + s] += pts
    if zero_sum:
        res[R_SCORE + 1 - s] -= pts


@hot
def settle_round(st, tb, res):
    """Scores of a played round into ``res``."""
    p = tb.params
    zs = p[P_ZERO_SUM] != 0
    over = np.int64(st[KS_OVER])
    res[R_END] = END_STOP if over != OVER_EXHAUSTED else END_EXHAUSTED
    s = -1
    if over != OVER_EXHAUSTED:
        s = over - 1
    elif p[P_EXHAUSTED] == EXH_LAST and st[KS_LAST] != ZERO:
        s = np.int64(st[KS_LAST]) - 1
    elif p[P_EXHAUSTED] == EXH_DEALER:
        _pay(res, 0, p[P_PRIVILEGE], zs)
        res[R_WINNER] = 0
        res[R_POINTS] = p[P_PRIVILEGE]
    if s >= 0:
        pts, base, h = collect(st, tb, s)
        _pay(res, s, pts, zs)
        res[R_WINNER] = s
        res[R_BASE] = base
        res[R_POINTS] = pts
        res[R_HITS] = h
        res[R_COLLECTED] = 1
        res[R_PAID] = np.int64(st[KS_CALLS + s])
        o = 1 - s
        if (over != OVER_EXHAUSTED) & (p[P_OPP_KEEPS] != 0) & (st[KS_CALLS + o] != ZERO):
            kept = collect(st, tb, o)[0]
            _pay(res, o, kept, zs)
            res[R_KEPT] = kept


@hot(inline="always")
def lucky_value(bits, stack):
    if stack:
        return LUCKY_POINTS * ((bits & 1) + (bits >> 1))
    return LUCKY_POINTS * np.int64(bits != 0)


@hot
def lucky_end(d0, d1, l0, l1, res, tb):
    """The lucky hands declared (``d0``, ``d1``; ``l0``, ``l1`` the hands' lucky bits) settled
    into ``res``: False when they end the round, True when it is played.  A call, not inlined:
    the round and the lookahead's lucky-hand choice (twice) each compiled it again; the
    round calls it only when a hand is declared."""
    p = tb.params
    if not (d0 or d1):
        return True
    zs = p[P_ZERO_SUM] != 0
    if d0 and d1 and p[P_BOTH_DEALER] == BOTH_PRIVILEGE:
        # a draw in which the dealer scores the dealer's privilege (rule page, Draws)
        _pay(res, 0, p[P_PRIVILEGE], zs)
        res[R_WINNER] = 0
        res[R_POINTS] = p[P_PRIVILEGE]
        res[R_END] = END_LUCKY_DRAW
    elif d0 and d1 and p[P_BOTH_DEALER] == BOTH_DRAW:
        res[R_END] = END_LUCKY_DRAW
    else:
        w = 0 if d0 else 1
        v = lucky_value(l0 if w == 0 else l1, p[P_LUCKY] == LUCKY_STACK)
        _pay(res, w, v, zs)
        res[R_WINNER] = w
        res[R_POINTS] = v
        res[R_END] = END_LUCKY
    return False
