"""Ishikari Toppa's lookahead join or drop (``engine.join``'s JOIN ``lookahead``), and the
kernel the tests call to inspect one decision.

A lookahead player asked to join (the Ishikari Toppa rule page, "Join-in / Drop-out Phase")
values both answers over K determinisations of what it cannot see: the other seats' hands and
the draw pile are dealt again from every card but its hand and the field (the field is dealt
face up), as Kushiro Toppa's and Taoshi's lookahead do.  Dropping is worth 0: "there's no fee
for Dropping out" (the rule page).  Joining is worth the round's score
(:func:`_join_sample`).  It keeps the JOIN policy's own threshold choice unless the other
answer's mean gain, paired on the same determinisations, exceeds one standard error
(``engine.lookahead._pick``).

Once three have joined, the seat asked is forced out and says only whether it chases: "the
forced-out players may chase, by declaring to join-in as well" (Join-in / Drop-out Phase); a
chase changes only "all payments for the next round" (Chasing), so within the round, the
lookahead's horizon, both answers are worth 0 and the threshold's choice stands.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...engine import state
from ...engine.bits import bit
from ...engine.jit import hot
from ...engine.lookahead import look_join, new_scratch, play_out
from ...engine.settle import pile_points
from .hands import (ACTIVE, CH_CHASE, CH_DROP, CH_FORCED_IN, CH_FORCED_OUT, CH_JOIN,
                    P_HACHIHACHI, P_PAR, P_PLAYERS, R_CHOICE, join_strength, swap_fours,
                    teyaku_value)
from .rules import HAND

#: greedy's join threshold (the policy's default K: ``thresholdK`` joins when the hand's card
#: points plus its teyaku value reach K), on Taoshi's scale and default; the lookahead's own
#: starting choice and the later seats' answers in its determinisations
JOIN_DEFAULT_K = 40
FULL = np.uint64(0xFFFFFFFFFFFF)
DEALT = 7 * ACTIVE + 6  # the active round's dealt cards: its three hands and the field
ST_N = 3 * ACTIVE + 3  # engine.state.size(ACTIVE): the scratch of session.look_context
A_ACT, A_TEY = 0, 8  # scratch ``aux`` slots: the active seats, their teyaku values


@hot
def _join_sample(sc, x, m, st, ctx):
    """One determinisation of seat ``s``'s join, ``engine.lookahead.look_join``'s value
    (``ctx`` = (tb, n, s, res, field); the other hands dealt again into ``sc.high``, the unseen
    cards in ``sc.cards[:m]``): seat ``s``'s score in the round it joins.  The seats before it
    speak as they did (``res[R_CHOICE + o]``), the later ones by greedy's threshold, with the
    forced-in and forced-out rules of ``round.join_table``; 0 when ``s`` is forced out (it may
    only chase: the round does not change).  The active round as ``round.play_round`` plays
    it: the active hands in turn order, the draw pile the inactive hands and the undealt cards
    in a random order (the determinisation's), a Hachi-hachi Four of a Kind swapped for the
    pile's top (``round.swap_fours``, its pick drawn on this stream), every teyaku claimed (a
    lookahead player always claims under Hachi-hachi's list, greedy's ``--expose always``
    under Toppa's), the play by greedy, the score before the chase multiplier (a positive
    factor that changes no choice).  Returns (joining's value, dropping's: 0, the stream's
    state ``st``).  The position API's advice calls it too, so both value a join with one
    piece of code."""
    tb, n, s, res, field = ctx
    joined = 0
    dropped = 0
    me = -1
    for o in range(n):
        if o < s:
            ch = res[R_CHOICE + o]
        elif o == s:
            ch = CH_JOIN if joined < ACTIVE else CH_CHASE
        elif joined < ACTIVE and dropped == n - ACTIVE:
            ch = CH_FORCED_IN
        else:
            yes = join_strength(sc.high[o], tb) >= JOIN_DEFAULT_K
            if joined == ACTIVE:
                ch = CH_CHASE if yes else CH_FORCED_OUT
            else:
                ch = CH_JOIN if yes else CH_DROP
        if ch == CH_JOIN or ch == CH_FORCED_IN:
            if o == s:
                me = joined
            sc.aux[A_ACT + joined] = o
            joined += 1
        elif ch == CH_DROP:
            dropped += 1
    if me < 0:
        return 0.0, 0.0, st
    # the active round (round.active_round): hands in turn order, the field, then the pile
    used = field
    for k in range(ACTIVE):
        h = sc.high[sc.aux[A_ACT + k]]
        sc.base[k] = h
        used |= h
    sc.base[ACTIVE] = field
    i = DEALT
    for j in range(m):
        c = sc.cards[j]
        if not used & bit(c):
            sc.order[i] = c
            i += 1
    if tb.params[P_HACHIHACHI]:
        sc.rng[0] = st
        swap_fours(sc.rng, sc.base, sc.order)
        st = sc.rng[0]
    state.start(sc.st, sc.base, ACTIVE, DEALT)
    t_sum = 0
    for k in range(ACTIVE):
        v = teyaku_value(sc.st[k], tb)
        sc.aux[A_TEY + k] = v
        t_sum += v
    play_out(sc.st, ACTIVE, sc.order, sc.rng, sc.greedy, 0, tb.gscore, tb.ghigh, None)
    # round.play_round's score: card points less par, each teyaku paid by the two others
    pts = pile_points(sc.st[state.pile(ACTIVE, me)], tb.kind_masks, tb.kind_points)
    return float(pts - tb.params[P_PAR] + ACTIVE * sc.aux[A_TEY + me] - t_sum), 0.0, st


@hot
def _look_join(rng, groups, s, res, tb, yes, k, look):
    """Join (True) or drop for a lookahead player at table seat ``s`` (``groups``: the dealt
    hands by table seat, then the field; ``res``: the earlier seats' R_CHOICE): the JOIN
    policy's own choice ``yes`` (its threshold) unless the other one's mean gain over ``k``
    determinisations (``engine.lookahead.look_join``, valued by :func:`_join_sample`; dropping
    is worth 0) exceeds one standard error.  The determinisations' stream is the round's play
    stream ``rng``.  Returns the choice."""
    if look is None:  # typed, not run: kernels without a lookahead player never get here
        return yes
    _t, _r, sc = look
    n = tb.params[P_PLAYERS]
    field = groups[n]
    return look_join(rng, sc, n, s, groups[s], field, HAND, yes, k, _join_sample,
                     (tb, n, s, res, field))


@njit(cache=True)
def lookahead_join(tb, groups, s, res, seed, k):
    """A lookahead player's join (True) or drop at table seat ``s`` (``groups``: the hands by
    table seat, then the field; ``res``: the earlier seats' R_CHOICE), with ``k``
    determinisations on the stream ``seed``, starting from greedy's threshold.  For tests."""
    look = (tb, res, new_scratch(ST_N, 48, ACTIVE))
    rng = np.full(1, seed, dtype=np.uint64)
    yes = join_strength(groups[s], tb) >= JOIN_DEFAULT_K
    return _look_join(rng, groups, s, res, tb, yes, k, look)


__all__ = ["JOIN_DEFAULT_K", "lookahead_join"]
