"""Kushiro Toppa's play from a resumable state (``play_from``), and the lookahead decisions
taken during it: a lookahead player's cards, picks and Iku/Yoroshii (``engine.lookahead``),
whose rollouts play on with the same loop (``rollout``)."""
from __future__ import annotations

import numpy as np

from ...engine.bits import ZERO, bit, count, month_nibble
from ...engine.jit import hot
from ...engine.lookahead import (_add_gain, _pick, card_choices, determinise, is_lookahead,
                                 samples)
from ...engine.play import capture, turn_word
from ...policies import (CONTINUE, DEC_THRESHOLD, GREEDY, LEGAL_BOTH, LEGAL_STOP,
                         choose_continue, take_high)
from .lower import P_BIGGER, P_LAST_FREE
from .policy import DEC_LOOKAHEAD, PC_CARD, PC_DEC, PC_DPARAM, cards_missing
from .slots import K_CUR, K_END_PILE, K_FIELD, K_N_ALL, K_PA, K_TOP, KS_N
from .turn import _decide, _end_turn, _turn, play_value


@hot
def play_from(ks, pile, rng, tb, pol, qa, qb, look):
    """Play the round in state ``ks`` to its end (a stop, or the hands run out), in place.
    Seat 0 is player ``qa``, seat 1 ``qb`` (``pol`` rows).  ``look``: None, or the lookahead
    context ``(tables, res, scratch, greedy rows)`` when a player plays by lookahead (numba
    prunes the branch with None)."""
    _play(ks, pile, rng, tb, pol, qa, qb, look)


@hot
def rollout(st, order, rng, tb, gpol):
    """The lookahead's rollout: :func:`play_from` by the rows ``gpol`` (greedy/stop), a
    function of its own: one calling itself through its dispatcher (a rollout inside a
    lookahead turn inside ``play_from``) is compiled as recursion, which numba's cache
    cannot reload."""
    _play(st, order, rng, tb, gpol, np.int64(0), np.int64(1), None)


@hot(inline="always")
def _play(ks, pile, rng, tb, pol, qa, qb, look):
    """The loop of :func:`play_from`."""
    ym = tb.yaku_masks
    yi = tb.yaku_ints
    bigger = tb.params[P_BIGGER]
    end = np.int64(ks[K_END_PILE])
    while True:
        cur = np.int64(ks[K_CUR])
        hand = ks[cur]
        if hand == ZERO:
            break
        q = qa if cur == 0 else qb
        cp = pol[q, PC_CARD]
        looked = False
        field = ks[K_FIELD]
        cap = ZERO
        top = np.int64(ks[K_TOP])
        if look is not None:  # noqa: SIM102  (pruned with None: rollouts never type it)
            if is_lookahead(cp):
                hand, field, cap, top = _look_turn(ks, pile, rng, tb, cur, samples(cp), look)
                looked = True
        if not looked:
            sr, word = turn_word(cp, rng[0])
            rng[0] = sr
            hand, field, cap, top = _turn(cp, hand, field, pile, top, end, word, tb.gscore,
                                          tb.ghigh)
        improved, v, h = _end_turn(ks, cur, hand, field, cap, top, ym, yi, bigger)
        if improved:
            # no card left: only Yoroshii, unless last_card=free
            legal = LEGAL_BOTH if hand != ZERO or tb.params[P_LAST_FREE] != 0 else LEGAL_STOP
            dec = pol[q, PC_DEC]
            go = False
            asked = False
            if look is not None:  # noqa: SIM102  (pruned with None)
                if dec == DEC_LOOKAHEAD and legal == LEGAL_BOTH:
                    go = _look_continue(ks, pile, rng, tb, cur, samples(cp), v, h, look)
                    asked = True
            if not asked:
                om = 99
                if dec == DEC_THRESHOLD:
                    om = cards_missing(ks[K_PA + 1 - cur], ym, yi)
                go = choose_continue(dec, pol[q, PC_DPARAM], legal, count(hand), v, om,
                                     rng) == CONTINUE
            if not _decide(ks, cur, go, v, h):
                break
        ks[K_CUR] = np.uint64(cur ^ 1)


# ---------------------------------------------------------------- lookahead (engine.lookahead)
# A lookahead player decides its hand card (with its two-way pick), the turned card's two-way
# pick and Iku/Yoroshii by determinised rollouts: the cards it cannot see (the other player's
# hand less any exposed teyaku cards, the rest of the draw pile and the cards set aside) are
# redealt at random K times
# (``determinise``), each choice is played on by greedy/stop for both players with this
# game's own play (``play_from``), and ``_pick`` keeps greedy's choice unless another's paired
# mean gain exceeds one standard error.  Join/drop too (``_look_join``: the round dealt again
# from the unseen cards), the four-in-hand swap (``_look_swap``: swap or keep, the other hands
# and the pile dealt again) and exposing teyaku (``_look_expose``: a real choice only when
# exposing ends the round).

@hot(inline="always")
def _rest_of_turn(sc, tb, gpol, cur, hand, field, cap, top, high2, pick):
    """In ``sc.st`` (a determinisation, ``cur``'s hand card played: ``hand``, ``field``,
    ``cap``): the turned card (two-way: ``high2`` when ``pick``, else greedy's), greedy's
    Yoroshii on a new dekiyaku, then the round by greedy/stop; ``cur``'s chips."""
    st = sc.st
    order = sc.order
    if top < np.int64(st[K_END_PILE]):
        drawn = order[top]
        h2 = high2 if pick else take_high(GREEDY, drawn, field, ZERO, tb.ghigh)
        field, c2 = capture(drawn, field, h2)
        cap |= c2
        top += 1
    improved, v, h = _end_turn(st, cur, hand, field, cap, top, tb.yaku_masks, tb.yaku_ints,
                               tb.params[P_BIGGER])
    if improved:
        _decide(st, cur, False, v, h)
    else:
        st[K_CUR] = np.uint64(cur ^ 1)
        rollout(st, order, sc.rng, tb, gpol)
    return play_value(st, tb, cur)


@hot
def _look_turn(ks, pile, rng, tb, cur, k, look):
    """A lookahead player's turn: its hand card (and two-way pick), then the turned card's
    two-way pick, each by lookahead.  Returns (hand, field, captured, top)."""
    if look is None:  # a rollout's play_from never gets here; typed, not run
        return ks[cur], ks[K_FIELD], ZERO, np.int64(ks[K_TOP])
    _t, _r, sc, gpol = look
    s = rng[0]
    hand = ks[cur]
    field = ks[K_FIELD]
    top = np.int64(ks[K_TOP])
    end = np.int64(ks[K_END_PILE])
    seen = pile[:np.int64(ks[K_N_ALL])]
    m = card_choices(sc, hand, field, tb.gscore, tb.ghigh)
    best = 0
    if m > 1:
        for j in range(m):
            sc.total[j] = 0.0
            sc.total2[j] = 0.0
        for _ in range(k):
            s = determinise(ks, 2, cur, seen, top, s, sc)
            v0 = 0.0
            for j in range(m):
                for i in range(KS_N):
                    sc.st[i] = sc.base[i]
                c = sc.card[j]
                f, c1 = capture(c, field, sc.high[j])
                v = _rest_of_turn(sc, tb, gpol, cur, hand & ~bit(c), f, c1, top, ZERO, False)
                v0 = _add_gain(sc, j, v, v0)
        best = _pick(sc, m, k)
    card = sc.card[best]
    hand &= ~bit(card)
    field, cap = capture(card, field, sc.high[best])
    if top < end:
        drawn = pile[top]
        h2 = take_high(GREEDY, drawn, field, ZERO, tb.ghigh)
        if count(field & month_nibble(drawn)) == 2:  # seen now: the turned card
            sc.total[1] = 0.0
            sc.total2[1] = 0.0
            for _ in range(k):
                s = determinise(ks, 2, cur, seen, top + 1, s, sc)
                v0 = 0.0
                for j in range(2):
                    for i in range(KS_N):
                        sc.st[i] = sc.base[i]
                    v = _rest_of_turn(sc, tb, gpol, cur, hand, field, cap, top,
                                      h2 if j == 0 else ~h2, True)
                    v0 = _add_gain(sc, j, v, v0)
            if _pick(sc, 2, k) == 1:
                h2 = ~h2
        field, c2 = capture(drawn, field, h2)
        cap |= c2
        top += 1
    rng[0] = s
    return hand, field, cap, top


@hot
def _look_continue(ks, pile, rng, tb, cur, k, v, h, look):
    """Iku (True) or Yoroshii for a lookahead player ``cur`` who just formed dekiyaku worth
    ``v``: stopping is worth ``v`` now; continuing, the mean chips of greedy/stop play from
    here over K determinisations (taken when the gain exceeds one standard error)."""
    if look is None:  # typed, not run
        return False
    _t, _r, sc, gpol = look
    s = rng[0]
    seen = pile[:np.int64(ks[K_N_ALL])]
    top = np.int64(ks[K_TOP])
    sc.total[1] = 0.0
    sc.total2[1] = 0.0
    for _ in range(k):
        s = determinise(ks, 2, cur, seen, top, s, sc)
        for i in range(KS_N):
            sc.st[i] = sc.base[i]
        _decide(sc.st, cur, True, v, h)
        sc.st[K_CUR] = np.uint64(cur ^ 1)
        rollout(sc.st, sc.order, sc.rng, tb, gpol)
        _add_gain(sc, 1, play_value(sc.st, tb, cur), float(v))
    rng[0] = s
    return _pick(sc, 2, k) == 1
