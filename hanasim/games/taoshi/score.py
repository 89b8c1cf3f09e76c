"""Taoshi's scoring ("End of Round and Scoring", "botta!", "Dekiyaku"): card points, a botta
round's and a played round's scores, the dekiyaku, the round's winner, and the lookahead's
rollout value (``engine.lookahead.round_value`` for Taoshi's tables)."""
from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from ...engine.bits import count
from ...engine.jit import hot
from ...engine.join import CH_FORCED_OUT
from ...engine.lookahead import round_value
from ...engine.rng import below
from .lower import (P_BOTTA_PAID, P_DEKIYAKU, P_PLAYERS, P_THREES, P_TWOS, P_UNIT, TIE_FIRST,
                    TIE_LAST, TIE_RANDOM, Tables)
from .rules import ACTIVE, BOTTA, DEKIYAKU_VALUE
from .slots import (R_ACT_SEAT, R_BOTTA, R_CHOICE, R_CLAIM, R_DEKI, R_FIELD, R_HAND0, R_PILE0,
                    R_POS, R_PTS, R_RAW, R_SCORE, R_TIED, R_TOP, R_WINNER, R_YAKU)


@hot
def hand_points(hand, pmask):
    """Card points of a set of cards: popcounts by point value."""
    s = 0
    for v in range(1, 10):
        s += v * count(hand & pmask[v])
    return s

@hot
def settle_botta(res, n, tb):
    """A botta round's scores ("botta!"): every other player, active or not, pays each botta
    holder 100; no play, no burden; under ``botta_teyaku=paid`` the other claimed teyaku are
    paid by each other active player.  ``res``: the round's seats, choices and claims (R_RAW
    holds the fees)."""
    p = tb.params
    res[R_BOTTA] = 1
    for h in range(n):
        if _botta_holder(res, h):
            for s in range(n):
                res[R_RAW + s] += BOTTA * (n - 1) if s == h else -BOTTA
    if p[P_BOTTA_PAID]:
        ysum = 0
        for j in range(ACTIVE):
            ysum += _non_botta(res[R_YAKU + j])
        for j in range(ACTIVE):
            res[R_RAW + res[R_ACT_SEAT + j]] += 3 * _non_botta(res[R_YAKU + j]) - ysum
    for s in range(n):
        res[R_SCORE + s] = p[P_UNIT] * res[R_RAW + s]


@hot
def settle_play(st, res, n, tb):
    """A played round's scores from the final play state ``st`` (the active positions' score
    piles): "(captured card points) + (2 x captured yaku points) - (opponents' captured yaku
    points) - (point burden)" (the Taoshi rule page), where a position's yaku are its claimed
    teyaku (R_YAKU) and its dekiyaku (``dekiyaku_formed``, recorded in R_DEKI)."""
    p = tb.params
    ysum = 0
    for j in range(ACTIVE):
        d = dekiyaku_formed(st[ACTIVE + 1 + j], j, p)
        res[R_DEKI + j] = d
        ysum += res[R_YAKU + j] + dekiyaku_value(d)
    for j in range(ACTIVE):
        s = res[R_ACT_SEAT + j]
        pts = hand_points(st[ACTIVE + 1 + j], tb.pmask)
        res[R_PTS + j] = pts
        y = res[R_YAKU + j] + dekiyaku_value(res[R_DEKI + j])
        res[R_RAW + s] += pts + 3 * y - ysum  # 2 x own yaku - the others'
        res[R_PILE0 + j] = np.int64(st[ACTIVE + 1 + j])
        res[R_HAND0 + j] = np.int64(st[j])
    for s in range(n):
        res[R_SCORE + s] = p[P_UNIT] * res[R_RAW + s]
        if res[R_POS + s] >= 0:
            res[R_SCORE + s] -= tb.burden[res[R_POS + s]]
    res[R_FIELD] = np.int64(st[ACTIVE])
    res[R_TOP] = np.int64(st[2 * ACTIVE + 1])


@hot
def _non_botta(y):
    return 0 if y == BOTTA else y


@hot
def _botta_holder(res, s):
    """Whether seat ``s`` claimed a botta: an active player's claimed 100, or a forced-out
    player's claim (only a botta is ever claimed by one)."""
    j = res[R_POS + s]
    if j >= 0:
        return res[R_YAKU + j] == BOTTA
    return res[R_CHOICE + s] == CH_FORCED_OUT and res[R_CLAIM + s] != 0


@hot
def dekiyaku_formed(pile, j, params):
    """The dekiyaku a score pile scores for active position ``j`` (the Taoshi rule page,
    "Dekiyaku"): bit 0 Four '2's (all four 2s captured; any player), bit 1 Four '3's (all four
    3s; only the dealer's left, the third to play).  None under ``dekiyaku=none``."""
    if params[P_DEKIYAKU] == 0:
        return 0
    d = 0
    twos = np.uint64(params[P_TWOS])
    threes = np.uint64(params[P_THREES])
    if pile & twos == twos:
        d |= 1
    if j == ACTIVE - 1 and pile & threes == threes:
        d |= 2
    return d


@hot
def dekiyaku_value(d):
    return DEKIYAKU_VALUE * ((d & 1) + ((d >> 1) & 1))


@hot
def round_winner(res, n, tie, rng):
    """The round's winner ("End of Round and Scoring": the greatest score): the candidates are
    the active players in turn order, then (a botta round) the forced-out players who claimed a
    botta, in seat order; a shared greatest score goes by ``tie_winner`` (first or last of the
    tied in that order, or one of them uniformly: a draw on the play stream)."""
    best = res[R_SCORE + res[R_ACT_SEAT]]
    k = 0
    for s in range(n):
        if res[R_POS + s] >= 0 or _botta_holder(res, s):
            if res[R_SCORE + s] > best:
                best = res[R_SCORE + s]
    # the tied candidates, in order: actives by turn order, then forced-out claimers by seat
    w = -1
    pick = 0
    for rep in range(2):
        k2 = 0
        for i in range(ACTIVE + n):
            if i < ACTIVE:
                s = res[R_ACT_SEAT + i]
            else:
                s = i - ACTIVE
                if res[R_POS + s] >= 0 or not _botta_holder(res, s):
                    continue
            if res[R_SCORE + s] != best:
                continue
            if rep == 0:
                k += 1
            else:
                if (tie == TIE_FIRST and k2 == 0) or (tie == TIE_LAST and k2 == k - 1) or \
                        (tie == TIE_RANDOM and k2 == pick):
                    w = s
                k2 += 1
        if rep == 0 and tie == TIE_RANDOM and k > 1:
            pick = below(rng, k)
    res[R_TIED] = k > 1
    res[R_WINNER] = w


@overload(round_value)
def _round_value(tables, st, seat, res):
    """The lookahead's rollout value for the active player at turn position ``seat``: its card
    points + 3 x its yaku (claimed teyaku and dekiyaku) - every yaku (2 x own - the others') -
    its burden ("End of Round and Scoring"), in the kernel's 1/unit points; with a botta claimed
    in ``res`` (a claim by lookahead scores one), the botta's payments instead (the round ends
    before play: no card points, no dekiyaku, no burden) and, under ``botta_teyaku=paid``, the
    other claims' payments.  Fees are the same whatever it decides, so they are left out."""
    if isinstance(tables, types.BaseNamedTuple) and tables.instance_class is Tables:
        def value(tables, st, seat, res):
            p = tables.params
            paid = 0
            botta = False
            nb = 0
            for j in range(ACTIVE):
                nb += _non_botta(res[R_YAKU + j])
                if res[R_YAKU + j] == BOTTA:
                    botta = True
                    paid += BOTTA * (p[P_PLAYERS] - 1) if j == seat else -BOTTA
            if botta:
                if p[P_BOTTA_PAID]:
                    paid += 3 * _non_botta(res[R_YAKU + seat]) - nb
                return p[P_UNIT] * paid
            ysum = 0
            own = 0
            for j in range(ACTIVE):
                y = res[R_YAKU + j] + dekiyaku_value(dekiyaku_formed(st[ACTIVE + 1 + j], j, p))
                ysum += y
                if j == seat:
                    own = y
            raw = hand_points(st[ACTIVE + 1 + seat], tables.pmask) + 3 * own - ysum
            return p[P_UNIT] * raw - tables.burden[seat]
        return value
