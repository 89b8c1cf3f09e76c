"""One round of Taoshi (the package docstring's "A round"): the deal, join or drop
(``engine.join``), the dropped hands, fees, the teyaku showdown, the play (``engine.play``) and
its score; and the session's first dealer."""
from __future__ import annotations

import numpy as np
from numba import njit

from ...engine import state
from ...engine.bits import ZERO, has_full_nibble
from ...engine.deal import deal, draw_for_dealer
from ...engine.jit import hot
from ...engine.join import (CH_DROP, CH_FORCED_OUT, CH_JOIN, CH_SEATED, JOIN_LOOKAHEAD,
                            forced_choice, join_by_policy)
from ...engine.lookahead import choose_expose, new_scratch, play_out, samples
from ...engine.rng import below, deal_shuffle, round_streams, shuffle_range, stream_state
from ...engine.where import teyaku_groups, teyaku_held_ok, where_ok
from ...policies import EXPOSE_ALWAYS, EXPOSE_RANDOM
from .lookahead import _look_join
from .lower import (P_BAKE, P_DEALS_ONLY, P_DROP_FEE, P_FORCED_BOTTA, P_FORCED_PAY, P_ON_TOP,
                    P_OVERLAP_NO, P_PLAYERS, P_READING, P_RED, P_TIE)
from .policy import EXPOSE_LOOKAHEAD, PC_CARD, PC_EXPOSE, PC_JOIN, PC_JPARAM
from .rules import ACTIVE, BOTTA, FIELD_SIZE, HAND_SIZE, MAX_PLAYERS, NONE
from .score import hand_points, round_winner, settle_botta, settle_play
from .slots import (PBUF, R_ACT_SEAT, R_CHOICE, R_CLAIM, R_FIELD, R_HAND0, R_MISDEALS, R_N,
                    R_N_PLAYERS, R_POS, R_RAW, R_TEY, R_YAKU, ST_N)
from .teyaku import best_teyaku, shown_cards, teyaku_formed


@hot(inline="always")
def deal_round(drng, order, tb, hands):
    """Shuffle and deal until the field holds no four of a number; hands[s] and hands[n] (the
    field) are filled; returns the misdeals.  Only the dealt cards are shuffled until the deal
    stands; then the draw pile's order is finished (as every game here).  ``tb.cond``: the
    run's given cards and ``--where`` (``engine.rng``, "conditional deals"; empty: none): a
    deal failing ``--where`` is dealt again, not counted as a misdeal (a teyaku it names:
    :func:`play_round`, by :func:`where_teyaku`)."""
    n = tb.params[P_PLAYERS]
    size = order.shape[0]
    misdeals = 0
    while True:
        deal_shuffle(drng, order, size, 0, tb.deal_to.shape[0], tb.cond)
        deal(order, tb.deal_to, hands)
        if has_full_nibble(hands[n]):
            misdeals += 1
        elif where_ok(order, tb.cond):
            break
    if tb.params[P_DEALS_ONLY] == 0:
        deal_shuffle(drng, order, size, tb.deal_to.shape[0], size, tb.cond)
    return misdeals


@hot
def where_teyaku(res, cond, n):
    """True unless ``--where`` names a teyaku (``engine.where.W_TEYAKU``) that a seat's hand
    does not hold as its best (``res[R_TEY + s]``, the tables' teyaku): the round's own
    reading of the hands, so the check adds no teyaku code to the kernel."""
    if cond is None:  # a run without --where: pruned when compiled
        return True
    gs = teyaku_groups(cond)
    if gs == 0:
        return True
    for s in range(n):
        if (gs >> s) & 1:
            t = res[R_TEY + s]
            if not teyaku_held_ok(cond, s, 0 if t == NONE else np.int64(1) << t):
                return False
    return True


@hot
def play_round(drng, rng, order, hands, pbuf, st, pol3, tb, pol, dealer, res, look):
    """Deal and play one round (module docstring, "A round"); results in ``res``.

    ``drng``: the deal stream (the deal, the dropped cards' shuffle); ``rng``: the play stream
    (join, expose, then the card play).  ``pol[player]``: a policy row (PC_* columns)."""
    p = tb.params
    n = p[P_PLAYERS]
    redm = np.uint64(p[P_RED])
    bakem = np.uint64(p[P_BAKE])
    for i in range(R_N):
        res[i] = 0
    res[R_N_PLAYERS] = n
    for s in range(MAX_PLAYERS):
        res[R_POS + s] = -1
        res[R_TEY + s] = NONE
    # a deal whose hands lack a teyaku --where names is dealt again (a redeal from any order
    # is uniform), its rejected deals not misdeals
    while True:
        res[R_MISDEALS] += deal_round(drng, order, tb, hands)
        for s in range(n):
            res[R_TEY + s] = best_teyaku(teyaku_formed(hands[s], redm, bakem, p[P_READING],
                                                       p[P_OVERLAP_NO]), tb.values)
        if where_teyaku(res, tb.cond, n):
            break
    field = hands[n]
    if p[P_DEALS_ONLY]:
        return
    # join or drop: from the dealer anticlockwise (seats 0, 1, ...); the undecided are this
    # seat and the later ones
    joined = 0
    for s in range(n):
        q = dealer + s
        q = q - n if q >= n else q
        if n == ACTIVE:
            ch = CH_SEATED
        else:
            ch = forced_choice(joined, n - s, ACTIVE, True)
        if ch < 0:
            jp = pol[q, PC_JOIN]
            yes = join_by_policy(jp, pol[q, PC_JPARAM],
                                 hand_points(hands[s], tb.pmask) + tb.values[res[R_TEY + s]], rng)
            if look is not None:  # noqa: SIM102  (pruned with None)
                if jp == JOIN_LOOKAHEAD:
                    yes = _look_join(rng, hands, s, res, tb, yes, samples(pol[q, PC_CARD]),
                                     look)
            ch = CH_JOIN if yes else CH_DROP
        res[R_CHOICE + s] = ch
        if ch != CH_DROP and ch != CH_FORCED_OUT:
            res[R_POS + s] = joined
            res[R_ACT_SEAT + joined] = s
            joined += 1
    # the draw pile: the dropped hands on top (in seat order, each in dealt order), the rest
    nd = HAND_SIZE * n + FIELD_SIZE
    k = 0
    if n > ACTIVE:
        for s in range(n):
            if res[R_POS + s] < 0:
                for i in range(nd):
                    if tb.deal_to[i] == s:
                        pbuf[k] = order[i]
                        k += 1
    for i in range(nd, order.shape[0]):
        pbuf[k] = order[i]
        k += 1
    if n > ACTIVE and p[P_ON_TOP] == 0:
        shuffle_range(drng, pbuf, 0, PBUF)
    # fees between active and dropped players (not attested; default 0)
    for s in range(n):
        ch = res[R_CHOICE + s]
        if ch == CH_DROP and p[P_DROP_FEE] != 0:
            res[R_RAW + s] -= ACTIVE * p[P_DROP_FEE]
            for j in range(ACTIVE):
                res[R_RAW + res[R_ACT_SEAT + j]] += p[P_DROP_FEE]
        elif ch == CH_FORCED_OUT and p[P_FORCED_PAY] != 0:
            res[R_RAW + s] += ACTIVE * p[P_FORCED_PAY]
            for j in range(ACTIVE):
                res[R_RAW + res[R_ACT_SEAT + j]] -= p[P_FORCED_PAY]
    # the play's state (``engine.state``: the three active hands in turn order), which a claim
    # by lookahead determinises
    for j in range(ACTIVE):
        s = res[R_ACT_SEAT + j]
        pol3[j] = pol[(dealer + s) % n, PC_CARD]
        st[j] = hands[s]
        st[ACTIVE + 1 + j] = ZERO
        st[state.known(ACTIVE, j)] = ZERO
    st[ACTIVE] = field
    st[2 * ACTIVE + 1] = 0
    st[2 * ACTIVE + 2] = 0
    # teyaku showdown, active positions in turn order
    botta = 0
    for j in range(ACTIVE):
        s = res[R_ACT_SEAT + j]
        t = res[R_TEY + s]
        if t != NONE:
            e = pol[(dealer + s) % n, PC_EXPOSE]
            if e == EXPOSE_LOOKAHEAD:
                claim = True  # (a lookahead player always has a context: look is not None)
                if look is not None:
                    r, claim = choose_expose(st, ACTIVE, j, pbuf, rng[0], samples(pol3[j]),
                                             tb.gscore, tb.ghigh, look, R_YAKU + j,
                                             tb.values[t])
                    rng[0] = r
            else:
                claim = e == EXPOSE_ALWAYS or (e == EXPOSE_RANDOM and below(rng, 2) == 1)
            if claim:
                botta += claim_teyaku(res, j, s, t, tb)
                if look is not None:
                    # the claim shows cards ("Teyaku Showdown"): hidden again, but seen, so a
                    # lookahead opponent keeps them in this hand when it determinises
                    # (``engine.lookahead.determinise``).  Only the lookahead reads known
                    # masks: runs without it skip this (same tables, no cost).
                    st[state.known(ACTIVE, j)] = shown_cards(hands[s], t, redm, bakem,
                                                             p[P_READING], p[P_OVERLAP_NO])
    # a forced-out player's botta (forced_out_botta=claimed): after the active players' claims,
    # in seat order, as its claim choice says (a lookahead claimer always claims: the botta is
    # paid by every other player and changes nothing else of its round)
    if p[P_FORCED_BOTTA] != 0 and n > ACTIVE:
        for s in range(n):
            if res[R_CHOICE + s] == CH_FORCED_OUT and tb.values[res[R_TEY + s]] == BOTTA:
                e = pol[(dealer + s) % n, PC_EXPOSE]
                if e == EXPOSE_LOOKAHEAD or e == EXPOSE_ALWAYS or \
                        (e == EXPOSE_RANDOM and below(rng, 2) == 1):
                    res[R_CLAIM + s] = 1
                    botta += 1
    if botta:
        settle_botta(res, n, tb)
        for j in range(ACTIVE):
            res[R_HAND0 + j] = np.int64(hands[res[R_ACT_SEAT + j]])
        res[R_FIELD] = np.int64(field)
    else:
        play_from(st, pbuf, rng, pol3, tb, look)
        settle_play(st, res, n, tb)
    round_winner(res, n, p[P_TIE], rng)


@hot(inline="always")
def claim_teyaku(res, j, s, t, tb):
    """Active position ``j`` (seat ``s``) claims its teyaku ``t`` ("Teyaku Showdown"): scored
    as its yaku; returns 1 for a botta (it ends the round before play), else 0."""
    res[R_CLAIM + s] = 1
    res[R_YAKU + j] = tb.values[t]
    return 1 if tb.values[t] == BOTTA else 0


@hot
def play_from(st, pbuf, rng, pol3, tb, look):
    """Play the three active hands in state ``st`` (``engine.state``, 3 seats in turn order,
    the draw pile ``pbuf``) to the end of the round: the shared turn (``engine.play``).  A
    lookahead player (``look``: its context, else None) copies ``st`` and plays out a
    determinisation of it with the same turn (``engine.lookahead``)."""
    play_out(st, ACTIVE, pbuf, rng, pol3, 0, tb.gscore, tb.ghigh, look)


@njit(cache=True)
def lookahead_round(tb, pol, dealer, seed):
    """One round (``play_round``, with a lookahead context as ``run_chunks`` gives it) dealt
    on stream 0 and played on stream 1 of the session key of ``seed``: (the dealt hands and
    field, the play state after the round, the results).  For tests."""
    rng = np.zeros(1, dtype=np.uint64)
    drng = np.zeros(1, dtype=np.uint64)
    order = np.arange(48).astype(np.int8)
    hands = np.zeros(MAX_PLAYERS + 1, dtype=np.uint64)
    pbuf = np.zeros(PBUF, dtype=np.int8)
    st = np.zeros(ST_N, dtype=np.uint64)
    pol3 = np.zeros(ACTIVE, dtype=np.int64)
    res = np.zeros(R_N, dtype=np.int64)
    key = stream_state(np.uint64(seed), 0)
    round_streams(drng, rng, key, 0, order)
    look = (tb, res, new_scratch(ST_N, PBUF, ACTIVE))
    play_round(drng, rng, order, hands, pbuf, st, pol3, tb, pol, dealer, res, look)
    return hands, st, res


#: the first dealer's draw: the highest number deals (Choosing the Dealer)
LATEST_DEALS = True


@hot
def first_dealer(drng, order, n):
    """Each player draws one card; the highest number deals; tied players draw again
    (``engine.deal.draw_for_dealer``)."""
    return draw_for_dealer(drng, order, n, LATEST_DEALS)
