"""Kushiro Toppa's lookahead decisions before the play (``engine.lookahead``): join or drop,
the four-in-hand swap, exposing teyaku; the rollouts' policy rows; and the kernels the tests
call to inspect one lookahead decision."""
from __future__ import annotations

import numpy as np
from numba import njit

from ...engine.bits import ONE, ZERO, bit, count, lowest
from ...engine.jit import hot
from ...engine.join import CH_FORCED_IN, forced_choice
from ...engine.lookahead import (_add_gain, _pick, deal_others, determinise, gather, look_join,
                                 new_scratch, shuffle)
from ...engine.rng import GOLDEN, mix64
from ...policies import DEC_STOP, GREEDY
from .lower import (DROP_ASIDE, P_DROPPED, P_PAIRS, P_PICK_LOWEST, P_PLAYERS, P_READING,
                    P_TEY_ENDS, P_TEY_VALUE, P_UNDECIDED)
from .play import _look_continue, _look_turn, play_value, rollout
from .policy import JOIN_DEFAULT_K, PC_CARD, PC_DEC, PC_N, join_strength
from .rules import HAND_SIZE, MAX_PLAYERS
from .slots import K_CUR, K_N_ALL, KS_N, PILE_N, R_N, R_PLAYS
from .teyaku import teyaku_bits
from .turn import start_play

# The swap decision (``_look_swap``) draws SWAP_SAMPLES_PER_K * K determinisations, at most
# SWAP_MAX_SAMPLES: it is rare (a four in about 1.2% of seated hands) and its gains small, so
# at K = 16 the one standard error gate mostly keeps on noise.  Measured on 150 dealt fours
# (2 players, ``lookahead_swap``, two random streams), against 65,536 determinisations (17
# and 18 keeps): K = 16 keeps 20 and 14, only 8 and 4 of them right; 256 keeps 13 and 15, 11
# and 12 right; 1,024 keeps 14 and 14, 12 and 12 right.  At 256 a decision costs about 0.7
# ms: lookahead:16 against greedy ran at the same speed (about 3,200 rounds/s on one thread).
SWAP_SAMPLES_PER_K = 16
SWAP_MAX_SAMPLES = 4096


@hot(inline="always")
def _dealt_value(sc, tb, gpol, n, s, j, res, field, x, m):
    """``s``'s chips in a round dealt in a determinisation: the seats' hands in
    ``sc.high[:n]``, the undealt cards ``sc.cards[x:m]`` (the draw pile, top first).  Join or
    drop (3-4 players): the first ``j`` seats to speak as ``res[R_PLAYS]`` says, the ``j``-th
    (``s``) joins (``j < 0``: ``s`` speaks like the others), every other seat by greedy's
    threshold; both teyaku claimed; the play by greedy/stop.  0 when ``s`` does not play (or
    fewer than two join: a redeal)."""
    p = tb.params
    km = tb.kind_masks
    a = 0
    b = 1
    if n > 2:
        a = -1
        b = -1
        joined = 0
        for jj in range(n):
            o = jj + 1 if jj + 1 < n else 0
            if jj < j:
                yes = res[R_PLAYS + o] != 0
            elif jj == j:
                yes = True
            else:
                ch = forced_choice(joined, n - jj, 2, p[P_UNDECIDED] == 0)
                if ch >= 0:
                    yes = ch == CH_FORCED_IN
                else:
                    yes = join_strength(sc.high[o], field, km[3]) >= JOIN_DEFAULT_K
            if yes:
                if a < 0:
                    a = o
                else:
                    b = o
                joined += 1
        if b < 0:
            return 0.0
        if a > b:
            a, b = b, a
    if s != a and s != b:
        return 0.0
    ha = sc.high[a]
    hb = sc.high[b]
    # the draw pile: the undealt cards, then the dropped hands (none if set aside)
    end = 0
    for i in range(x, m):
        sc.order[end] = sc.cards[i]
        end += 1
    if p[P_DROPPED] != DROP_ASIDE:
        for o in range(n):
            if o != a and o != b:
                h = sc.high[o]
                while h != ZERO:
                    sc.order[end] = lowest(h)
                    h &= h - ONE
                    end += 1
    ta = teyaku_bits(ha, km[0], km[1], km[2], km[3], p[P_READING], p[P_PAIRS])
    tbb = teyaku_bits(hb, km[0], km[1], km[2], km[3], p[P_READING], p[P_PAIRS])
    tey = (count(np.uint64(ta)) - count(np.uint64(tbb))) * p[P_TEY_VALUE]
    me = 0 if s == a else 1
    v = float(tey if me == 0 else -tey)
    if p[P_TEY_ENDS] == 0 or (ta | tbb) == 0:
        start_play(sc.st, ha, hb, field, end, end)
        rollout(sc.st, sc.order, sc.rng, tb, gpol)
        v += play_value(sc.st, tb, me)
    return v


@hot
def _join_sample(sc, x, m, st, ctx):
    """One determinisation of :func:`_look_join` (``engine.lookahead.look_join``'s value;
    ``ctx`` = (tb, gpol, n, s, j, res, field)): (joining's chips, :func:`_dealt_value`;
    dropping's, 0; ``st``, its rollout draws nothing from it)."""
    tb, gpol, n, s, j, res, field = ctx
    return _dealt_value(sc, tb, gpol, n, s, j, res, field, x, m), 0.0, st


@hot
def _look_join(rng, hands, field, s, j, n, res, tb, yes, k, look):
    """Join (True) or drop for a lookahead player at seat ``s``, the ``j``-th to speak: the
    JOIN policy's choice (``yes``, greedy's threshold) unless the other one gains more than one
    standard error over K determinisations (``engine.lookahead.look_join``).  Dropping is
    worth 0 chips; joining, the mean chips of the round dealt again from the cards the seat
    cannot see (the other hands and the draw pile), the later seats speaking by greedy's
    threshold, both teyaku claimed, and the play by greedy/stop (:func:`_dealt_value`).
    Returns the choice."""
    if look is None:  # typed, not run
        return yes
    _t, _r, sc, gpol = look
    return look_join(rng, sc, n, s, hands[s], field, HAND_SIZE, yes, k, _join_sample,
                     (tb, gpol, n, s, j, res, field))


@hot(inline="always")
def _draw4(st):
    """One of four (a face-down pick) from the stream ``st``: (state, 0..3)."""
    st += GOLDEN
    return st, np.int64(((mix64(st) >> np.uint64(32)) * np.uint64(4)) >> np.uint64(32))


@hot(inline="always")
def _swap_sample(sc, tb, gpol, n, s, c0, fm, known, res, field, mine, m, lowest_pick, st):
    """One determinisation of :func:`_look_swap` from the stream ``st`` (the unseen cards in
    ``sc.cards[:m]``): the other hands and the pile dealt again, the picks drawn once, then
    the round valued swapping and keeping on the same deal and picks.  Returns (state,
    swapping's value, keeping's).  The position API's advice calls it too, so both value the
    swap with one piece of code."""
    st = shuffle(sc.cards, m, st)
    x = deal_others(sc.cards, sc.high, 8, n, s, mine, HAND_SIZE)
    mm = m
    if known >= 0:  # the top of the pile is the card the seat put there
        sc.cards[m] = sc.cards[x]
        sc.cards[x] = known
        mm = m + 1
    top0 = sc.cards[x]
    pk0 = np.int64(0)
    if not lowest_pick:
        st, pk0 = _draw4(st)
    ps = st  # the later swaps' picks: the same for both choices
    st += GOLDEN
    v_swap = 0.0
    v_keep = 0.0
    for j in range(2):
        for o in range(n):
            sc.high[o] = sc.high[8 + o]
        sc.cards[x] = top0
        pst = ps
        if j == 0:
            c = c0 + pk0
            sc.high[s] = (sc.high[s] & ~bit(c)) | bit(sc.cards[x])
            sc.cards[x] = c
        for o in range(s, n):
            h = sc.high[o]
            f = fm if o == s else (h & (h >> ONE) & (h >> np.uint64(2)) & (h >> np.uint64(3))
                                   & np.uint64(0x111111111111))
            while f != ZERO:
                c1 = lowest(f)
                f &= f - ONE
                pk = np.int64(0)
                if not lowest_pick:
                    pst, pk = _draw4(pst)
                c = c1 + pk
                sc.high[o] = (sc.high[o] & ~bit(c)) | bit(sc.cards[x])
                sc.cards[x] = c
        v = _dealt_value(sc, tb, gpol, n, s, -1, res, field, x, mm)
        if j == 0:
            v_swap = v
        else:
            v_keep = v
    sc.cards[x] = top0
    if known >= 0:
        sc.cards[x] = sc.cards[m]  # the unseen set again in sc.cards[:m]
    return st, v_swap, v_keep


@hot
def _look_swap(rng, hands, field, s, c0, fm, known, n, tb, k, look):
    """Swap (True) or keep the four of ``c0``'s month for a lookahead player at seat ``s``,
    after the deal.  The seat sees its hand and the field (and ``known``, the top of the draw
    pile, when its own earlier swap put it there; else -1): the other hands and the draw pile
    are dealt again from the rest, K times.  In each determinisation, swapping gives a picked
    card of the four (``swap_pick``) for the top of the pile, unseen until it arrives; then
    the seat's later fours (``fm``) and the later seats' are swapped by greedy (always), and
    the round goes on as :func:`_dealt_value` plays it (join/drop by greedy's threshold, both
    teyaku claimed, greedy/stop).  Choice 0 is greedy's (swap); keeping is taken when its
    paired mean gain exceeds one standard error (``_pick``).  The same determinisations and
    the same picks serve both choices."""
    if look is None:  # typed, not run
        return True
    _t, res, sc, gpol = look
    lowest_pick = tb.params[P_PICK_LOWEST] != 0
    mine = hands[s]
    seen = mine | field
    if known >= 0:
        seen |= bit(known)
    m = gather(sc.cards, ~seen & np.uint64(0xFFFFFFFFFFFF))
    st = rng[0]
    sc.total[1] = 0.0
    sc.total2[1] = 0.0
    for _ in range(k):
        st, v_swap, v_keep = _swap_sample(sc, tb, gpol, n, s, c0, fm, known, res, field, mine,
                                           m, lowest_pick, st)
        _add_gain(sc, 1, v_keep, v_swap)
    rng[0] = st
    return _pick(sc, 2, k) == 0


@hot
def _look_expose(ks, pile, rng, tb, cur, k, mine, opp, look):
    """Expose (True) or hide the teyaku worth ``mine`` chips of a lookahead player, seat
    ``cur`` of the play state ``ks`` (before the first turn).  ``opp``: the teyaku bits the
    opponent claimed, or -1 when it has not decided yet (it then claims any it holds, as
    greedy does).  With ``teyaku_effect=play_on`` exposing pays ``mine``; the cards shown
    become known (``teyaku_shown``), which only a lookahead opponent's determinisations read:
    the rollouts' greedy/stop players never do, so in this model it changes nothing else and
    is always taken; with
    ``round_ends`` exposing ends the round at ``mine`` less the opponent's claim, hiding plays
    on unless the opponent claims: the mean over K determinisations of the opponent's hand
    and the pile, played by greedy/stop; hiding is taken when its paired mean gain exceeds one
    standard error (``_pick``)."""
    p = tb.params
    if look is None or p[P_TEY_ENDS] == 0:
        return True
    _t, _r, sc, gpol = look
    km = tb.kind_masks
    s = rng[0]
    seen = pile[:np.int64(ks[K_N_ALL])]
    sc.total[1] = 0.0
    sc.total2[1] = 0.0
    for _ in range(k):
        s = determinise(ks, 2, cur, seen, 0, s, sc)
        ob = opp
        if opp < 0:
            ob = teyaku_bits(sc.base[1 - cur], km[0], km[1], km[2], km[3], p[P_READING],
                             p[P_PAIRS])
        oc = float(count(np.uint64(ob)) * p[P_TEY_VALUE])
        if ob != 0:
            hide = -oc
        else:
            for i in range(KS_N):
                sc.st[i] = sc.base[i]
            rollout(sc.st, sc.order, sc.rng, tb, gpol)
            hide = play_value(sc.st, tb, cur)
        _add_gain(sc, 1, hide, float(mine) - oc)
    rng[0] = s
    return _pick(sc, 2, k) == 0


@njit(cache=True)
def greedy_rows(pol):
    """The rollouts' policy rows (``pol``'s shape): greedy card play, Yoroshii at once
    (greedy/stop)."""
    g = pol.copy()
    g[:, PC_CARD] = GREEDY
    g[:, PC_DEC] = DEC_STOP
    return g


@njit(cache=True)
def lookahead_choice(tb, ks, pile, seed, k, v, h):
    """What a lookahead player decides in state ``ks`` with ``k`` determinisations on the
    random stream ``seed`` (for tests and for inspecting a decision): with ``v < 0`` the seat
    to move plays its turn, returns (hand card, cards captured, 0); else that seat has just
    formed dekiyaku ``h`` worth ``v`` chips, returns (-1, 0, 1 for Iku / 0 for Yoroshii)."""
    res = np.zeros(R_N, dtype=np.int64)
    look = (tb, res, new_scratch(KS_N, PILE_N, 2),
            greedy_rows(np.zeros((MAX_PLAYERS, PC_N), dtype=np.int64)))
    rng = np.full(1, seed, dtype=np.uint64)
    cur = np.int64(ks[K_CUR])
    if v < 0:
        hand = ks[cur]
        after, _f, cap, _t = _look_turn(ks, pile, rng, tb, cur, k, look)
        return lowest(hand & ~after), np.int64(cap), np.int64(0)
    go = _look_continue(ks, pile, rng, tb, cur, k, v, h, look)
    return np.int64(-1), np.int64(0), np.int64(go)


@njit(cache=True)
def lookahead_join(tb, hands, field, s, j, res, seed, k):
    """A lookahead player's join (True) or drop at seat ``s``, the ``j``-th to speak, with
    ``k`` determinisations on the stream ``seed`` (``res``: the earlier seats' R_PLAYS; the
    JOIN policy's own choice is greedy's threshold 10).  For tests."""
    look = (tb, res, new_scratch(KS_N, PILE_N, 2),
            greedy_rows(np.zeros((MAX_PLAYERS, PC_N), dtype=np.int64)))
    rng = np.full(1, seed, dtype=np.uint64)
    yes = join_strength(hands[s], field, tb.kind_masks[3]) >= JOIN_DEFAULT_K
    return _look_join(rng, hands, field, s, j, tb.params[P_PLAYERS], res, tb, yes, k, look)


@njit(cache=True)
def lookahead_swap(tb, hands, field, s, c0, known, seed, k):
    """A lookahead player's swap (True) or keep of the four of ``c0``'s month at seat ``s``
    right after the deal (``hands``: the seats' hands, ``field``; ``known``: the top of the
    draw pile when the seat's own earlier swap put it there, else -1), with ``k``
    determinisations on the stream ``seed``.  For tests."""
    res = np.zeros(R_N, dtype=np.int64)
    look = (tb, res, new_scratch(KS_N, PILE_N, 2),
            greedy_rows(np.zeros((MAX_PLAYERS, PC_N), dtype=np.int64)))
    rng = np.full(1, seed, dtype=np.uint64)
    h = hands[s]
    fm = (h & (h >> ONE) & (h >> np.uint64(2)) & (h >> np.uint64(3))
          & np.uint64(0x111111111111)) & ~bit(c0)
    fm &= ~(bit(c0) - ONE)  # the fours after c0's, as the deal offers them
    return _look_swap(rng, hands, field, s, c0, fm, np.int64(known), tb.params[P_PLAYERS], tb,
                      k, look)


@njit(cache=True)
def lookahead_expose(tb, ks, pile, cur, mine, opp, seed, k):
    """A lookahead player's expose (True) or hide of teyaku worth ``mine`` chips, seat ``cur``
    of the play state ``ks`` before the first turn (``opp``: the opponent's claimed teyaku
    bits, -1 undecided), with ``k`` determinisations on the stream ``seed``.  For tests."""
    res = np.zeros(R_N, dtype=np.int64)
    look = (tb, res, new_scratch(KS_N, PILE_N, 2),
            greedy_rows(np.zeros((MAX_PLAYERS, PC_N), dtype=np.int64)))
    rng = np.full(1, seed, dtype=np.uint64)
    return _look_expose(ks, pile, rng, tb, cur, k, mine, opp, look)
