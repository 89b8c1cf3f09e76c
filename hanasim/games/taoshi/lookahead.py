"""Taoshi's lookahead decisions other than the card play (``engine.lookahead``): join or drop
(``_look_join``), and the kernels the tests call to inspect one lookahead decision."""
from __future__ import annotations

import numpy as np
from numba import njit

from ...engine import state
from ...engine.bits import ZERO
from ...engine.jit import hot
from ...engine.join import CH_DROP, CH_FORCED_IN, CH_FORCED_OUT, CH_JOIN, forced_choice
from ...engine.lookahead import (choose_expose, determinise, look_join, new_scratch, play_out,
                                 round_value, shuffle)
from .lower import (P_BAKE, P_BOTTA_PAID, P_DROP_FEE, P_FORCED_BOTTA, P_FORCED_PAY, P_ON_TOP,
                    P_OVERLAP_NO, P_PLAYERS, P_READING, P_RED, P_UNIT)
from .policy import JOIN_DEFAULT_K
from .rules import ACTIVE, BOTTA, HAND_SIZE
from .score import _non_botta, dekiyaku_formed, dekiyaku_value, hand_points
from .slots import PBUF, R_CHOICE, R_YAKU, ST_N
from .teyaku import best_teyaku, teyaku_formed


# ---------------------------------------------------------------- lookahead (engine.lookahead)
# A lookahead player plays its cards by ``engine.lookahead`` (``play_out``); it claims a held
# teyaku by ``engine.lookahead.choose_expose`` (the mean round score with the claim against
# without it, on K determinisations of the other active hands and the draw pile; a botta's
# value is its payments, ``round_value``), and it joins or drops by ``_look_join``: the round
# dealt again from the cards it cannot see, as Kushiro Toppa's.  A claim's shown cards are
# known to the lookahead opponents (``play_round``), but ``choose_expose``'s rollouts play
# every seat by greedy, which reads no information: the play of a rollout is the same with the
# cards shown or not, so the claim's cost of showing is not seen there, and a lookahead claims
# whenever the claim scores (every teyaku, but a non-botta one after another's botta).
A_TEY, A_STRONG, A_CHOICE, A_ACTIVE = 0, 8, 16, 24   # scratch ``aux`` slots of ``_look_join``
FULL = np.uint64((1 << 48) - 1)


@hot
def _join_value(sc, tb, s, n, res, join, x, r):
    """Seat ``s``'s score (1/unit points) in one determinisation of ``_look_join`` (the other
    seats' hands in ``sc.high``, dealt in order from ``sc.cards``; the undealt cards from
    ``sc.cards[x]``) when it joins (``join``) or drops.  The earlier seats' choices are as
    they spoke, the later seats speak by greedy's threshold (``sc.aux[A_STRONG + o]``), and
    the forced-in/-out rule applies; every active player claims its teyaku (and, under
    ``forced_out_botta=claimed``, a forced-out player its botta); a botta is paid by every
    seat, active or not, and ends the round (``botta_teyaku=paid``: the other claims are
    paid too); otherwise, if ``s`` plays, the round is played by greedy and scored with its
    dekiyaku.  Fees (``drop_fee``, ``forced_out_pay``) count: a dropping seat's
    result is its fee and any botta it pays.  Returns (score, the generator state ``r``)."""
    p = tb.params
    joined = 0
    for o in range(n):
        if o < s:
            ch = res[R_CHOICE + o]
        else:
            ch = forced_choice(joined, n - o, ACTIVE, True)
            if ch < 0:
                yes = join if o == s else sc.aux[A_STRONG + o] != 0
                ch = CH_JOIN if yes else CH_DROP
        sc.aux[A_CHOICE + o] = ch
        if ch != CH_DROP and ch != CH_FORCED_OUT:
            sc.aux[A_ACTIVE + joined] = o
            joined += 1
    # fees ("Join/Drop Phase"; not attested, default 0)
    me = -1
    for j in range(ACTIVE):
        if sc.aux[A_ACTIVE + j] == s:
            me = j
    fee = 0
    mine = sc.aux[A_CHOICE + s]
    if mine == CH_DROP:
        fee -= ACTIVE * p[P_DROP_FEE]
    elif mine == CH_FORCED_OUT:
        fee += ACTIVE * p[P_FORCED_PAY]
    else:
        for o in range(n):
            if sc.aux[A_CHOICE + o] == CH_DROP:
                fee += p[P_DROP_FEE]
            elif sc.aux[A_CHOICE + o] == CH_FORCED_OUT:
                fee -= p[P_FORCED_PAY]
    # claims (all), a botta, and (forced_out_botta=claimed) a forced-out player's botta
    ysum = 0
    nb = 0
    paid = 0
    botta = False
    for j in range(ACTIVE):
        y = sc.aux[A_TEY + sc.aux[A_ACTIVE + j]]
        ysum += y
        nb += _non_botta(y)
        if y == BOTTA:
            botta = True
            paid += BOTTA * (n - 1) if j == me else -BOTTA
    if p[P_FORCED_BOTTA] != 0:
        for o in range(n):
            if sc.aux[A_CHOICE + o] == CH_FORCED_OUT and sc.aux[A_TEY + o] == BOTTA:
                botta = True
                paid += BOTTA * (n - 1) if o == s else -BOTTA
    unit = p[P_UNIT]
    if botta:
        if me >= 0 and p[P_BOTTA_PAID]:
            paid += 3 * _non_botta(sc.aux[A_TEY + s]) - nb
        return unit * (paid + fee), r
    if me < 0:
        return unit * fee, r
    # the draw pile: the dropped hands (in seat order) on top of the undealt cards
    k = 0
    for o in range(n):
        if o != s and sc.aux[A_CHOICE + o] != CH_JOIN and sc.aux[A_CHOICE + o] != CH_FORCED_IN:
            at = HAND_SIZE * (o if o < s else o - 1)
            for i in range(at, at + HAND_SIZE):
                sc.order[k] = sc.cards[i]
                k += 1
    for i in range(x, x + PBUF - k):
        sc.order[k] = sc.cards[i]
        k += 1
    if p[P_ON_TOP] == 0:
        r = shuffle(sc.order, PBUF, r)
    for j in range(ACTIVE):
        sc.st[j] = sc.high[sc.aux[A_ACTIVE + j]]
        sc.st[ACTIVE + 1 + j] = ZERO
        sc.st[state.known(ACTIVE, j)] = ZERO
    sc.st[ACTIVE] = sc.high[n]
    sc.st[2 * ACTIVE + 1] = 0
    sc.st[2 * ACTIVE + 2] = 0
    play_out(sc.st, ACTIVE, sc.order, sc.rng, sc.greedy, 0, tb.gscore, tb.ghigh, None)
    pts = hand_points(sc.st[ACTIVE + 1 + me], tb.pmask)
    y = sc.aux[A_TEY + s]
    for j in range(ACTIVE):
        d = dekiyaku_value(dekiyaku_formed(sc.st[ACTIVE + 1 + j], j, p))
        ysum += d
        if j == me:
            y += d
    return unit * (pts + 3 * y - ysum + fee) - tb.burden[me], r


@hot
def _join_sample(sc, x, m, r, ctx):
    """One determinisation of :func:`_look_join` (``engine.lookahead.look_join``'s value;
    ``ctx`` = (tb, n, s, res, field); the other seats' hands dealt again into ``sc.high``):
    every seat's teyaku and greedy's threshold, then joining and dropping valued by
    :func:`_join_value`.  Returns (joining's value, dropping's, the generator state ``r``)."""
    tb, n, s, res, field = ctx
    p = tb.params
    redm = np.uint64(p[P_RED])
    bakem = np.uint64(p[P_BAKE])
    for o in range(n):
        h = sc.high[o]
        v = tb.values[best_teyaku(teyaku_formed(h, redm, bakem, p[P_READING], p[P_OVERLAP_NO]),
                                  tb.values)]
        sc.aux[A_TEY + o] = v
        sc.aux[A_STRONG + o] = hand_points(h, tb.pmask) + v >= JOIN_DEFAULT_K
    sc.high[n] = field
    vj, r = _join_value(sc, tb, s, n, res, True, x, r)
    vd, r = _join_value(sc, tb, s, n, res, False, x, r)
    return float(vj), float(vd), r


@hot
def _look_join(rng, hands, s, res, tb, yes, k, look):
    """Join (True) or drop for a lookahead player at seat ``s`` (4-6 players): the JOIN
    policy's own choice ``yes`` (greedy's threshold) unless the other one's mean gain, paired
    on K determinisations, exceeds one standard error (``engine.lookahead.look_join``).  A
    determinisation deals the other seats' hands and the draw pile again from the cards the
    seat cannot see (everything but its hand and the field); each choice is then worth
    :func:`_join_value` (joining: the round played by greedy; dropping: the fee and any botta
    paid).  ``res``: the earlier seats' R_CHOICE.  Returns the choice."""
    if look is None:  # typed, not run
        return yes
    _t, _r, sc = look
    n = tb.params[P_PLAYERS]
    field = hands[n]
    return look_join(rng, sc, n, s, hands[s], field, HAND_SIZE, yes, k, _join_sample,
                     (tb, n, s, res, field))


@njit(cache=True)
def lookahead_join(tb, hands, s, res, seed, k):
    """A lookahead player's join (True) or drop at seat ``s`` (``hands``: every seat's hand,
    then the field), with ``k`` determinisations on the stream ``seed`` (``res``: the earlier
    seats' R_CHOICE; the JOIN policy's own choice is greedy's threshold 40).  For tests."""
    look = (tb, res, new_scratch(ST_N, PBUF, ACTIVE))
    rng = np.full(1, seed, dtype=np.uint64)
    tey = best_teyaku(teyaku_formed(hands[s], np.uint64(tb.params[P_RED]),
                                    np.uint64(tb.params[P_BAKE]), tb.params[P_READING],
                                    tb.params[P_OVERLAP_NO]), tb.values)
    yes = hand_points(hands[s], tb.pmask) + tb.values[tey] >= JOIN_DEFAULT_K
    return _look_join(rng, hands, s, res, tb, yes, k, look)


@njit(cache=True)
def lookahead_claim(tb, st, pbuf, j, res, seed, k, v):
    """Whether a lookahead player at active position ``j`` of the play state ``st`` (draw pile
    ``pbuf``, unseen) claims a teyaku worth ``v``, with ``k`` determinisations on the stream
    ``seed`` (``res``: the earlier positions' claims in R_YAKU).  For tests."""
    look = (tb, res, new_scratch(ST_N, PBUF, ACTIVE))
    return choose_expose(st, ACTIVE, j, pbuf, np.uint64(seed), k, tb.gscore, tb.ghigh, look,
                         R_YAKU + j, v)[1]


@njit(cache=True)
def lookahead_value(tb, st, j, res):
    """The lookahead's rollout value (``round_value``) of active position ``j`` for the final
    play state ``st`` and the claims in ``res``.  For tests."""
    return round_value(tb, st, j, res)


@njit(cache=True)
def lookahead_views(st, pbuf, j, seed, k):
    """``k`` determinisations of the play state ``st`` (draw pile ``pbuf``) as the lookahead
    player at active position ``j`` deals them (``engine.lookahead.determinise``, as every
    lookahead decision of the play does): (uint64[k, ST_N] states, int64[k, PBUF] draw piles).
    For tests."""
    sc = new_scratch(ST_N, PBUF, ACTIVE)
    states = np.zeros((k, ST_N), np.uint64)
    piles = np.zeros((k, PBUF), np.int64)
    s = np.uint64(seed)
    for i in range(k):
        s = determinise(st, ACTIVE, j, pbuf, np.int64(st[state.top(ACTIVE)]), s, sc)
        for x in range(ST_N):
            states[i, x] = sc.base[x]
        for x in range(PBUF):
            piles[i, x] = sc.order[x]
    return states, piles
