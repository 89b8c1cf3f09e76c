"""Taipa's lookahead player in a round: its turn and its agari / koi-koi, and the hooks' numba
implementations (``hooks.py``) for the round and the game.

A lookahead player (engine.lookahead) decides its hand card with the field card it takes,
the field card its turned card takes, and agari / koi-koi: each choice is scored by the
mean round result in coins for it (+ the coins it takes when it calls agari, - those it
pays when the opponent does, 0 exhausted; under coin_cap=capped at most what the payer
holds, from the coins play_game puts in the context) over K determinisations of the cards
it cannot see (the opponent's hand and the rest of the round's deck, redealt from the set
of them), the same K for every choice; every rollout is played by greedy cards and greedy's
agari at the first new yaku, with Taipa's own round (``round.rollout_from``).  A choice
replaces greedy's own only when its paired mean gain exceeds one standard error
(engine.lookahead._pick).

Which of its ribbons and chaff leave play between rounds (``yaku_cards=choice``) is decided in
``yaku_choice.py``.
"""
import numpy as np
from numba import types
from numba.extending import overload

from ...engine import lookahead
from ...engine.bits import ONE, ZERO, bit, count, lowest
from ...engine.match import capture_one
from ...engine.jit import hot
from ...policies import GREEDY, group_hand_card, group_pick
from .hooks import continue_by_look, set_coins, turn_by_look
from .lower import P_UNCAPPED
from .round import (S_CALLS, S_FIELD, S_PILE, S_SEAT, S_TOP, S_TURNS, ST_N, new_yaku,
                    rollout_from)
from .rules import N_PLAYERS
from .yaku import yaku_points

#: lookahead scratch slots (``Scratch.aux``): each round seat's coins at the round's start
A_COINS = 0
#: ... and the yaku_cards=choice decisions a chunk's lookahead players made, and how many of
#: them differ from greedy's beyond identical cards (counters C_YC_DECISIONS, C_YC_CHANGED)
A_YC_DECISIONS, A_YC_CHANGED = 2, 3


@hot(inline="always")
def _value(st, over, seat, tb, aux):
    """The round's coin result for ``seat`` when the round ended with ``over`` (play_from):
    the coins the agari caller takes, at most what the payer has under ``coin_cap=capped``
    (``aux[A_COINS + seat]``: each seat's coins at the start of the round, set by
    ``game.play_game``)."""
    if over == 0:
        return 0.0
    w = over - 1
    v, _ = yaku_points(st[S_PILE + w], tb)
    sc = 2 * v if st[S_CALLS + w] > 0 else v
    if tb.params[P_UNCAPPED] == 0:
        sc = min(sc, max(aux[A_COINS + (w ^ 1)], 0))
    return float(sc) if w == seat else -float(sc)


@hot(inline="always")
def _rollout(look, n, seat, hand, field, cap, top):
    """Finish ``seat``'s turn in a copy of the determinised state (its hand, the field, its
    new captures, the next card of the pile) and play the copy out, all greedy: its result.
    A new yaku on this turn: the rollout's greedy calls agari."""
    tb, rres, sc, rcap, rdec, yk, _v = look
    st = sc.st
    for i in range(ST_N):
        st[i] = sc.base[i]
    st[seat] = hand
    st[S_FIELD] = field
    st[S_PILE + seat] |= cap
    st[S_TOP] = top
    st[S_TURNS] += 1
    if cap != ZERO and new_yaku(st, seat, tb):
        return _value(st, seat + 1, seat, tb, sc.aux)
    st[S_SEAT] = seat ^ 1
    over = rollout_from(st, sc.order, n, sc.rng, tb, sc.greedy, rdec, rres, rcap)
    return _value(st, over, seat, tb, sc.aux)


@hot(inline="always")
def _greedy_pick(card, field, tb):
    mm = field & tb.group_masks[tb.group_of[card]]
    return group_pick(GREEDY, mm, ZERO, tb.weights) if mm != ZERO else np.int64(0)


@hot(inline="always")
def _turn_sample(look, st, order, n, seat, s, turned, cap, cards, picks, m, vals):
    """One determinisation of ``seat``'s turn in ``st``: the cards it cannot see dealt again
    from stream word ``s`` (``engine.lookahead.determinise``), then ``vals[j]`` the round's
    value of choice ``j < m``, the turn finished and the round played out by greedy
    (:func:`_rollout`).  A hand-card choice (``turned`` False): the hand card ``cards[j]``
    taking its field match ``picks[j]`` (index in card order), the turned card taken as greedy
    takes it.  A turned-card choice (``turned``; ``st`` holds the hand, field and pile after
    the hand card, whose captures are ``cap``; the turned card ``order[st[S_TOP]]`` is seen):
    the turned card taking its field match ``picks[j]``.  Returns the stream word.  The
    kernel's turn (:func:`_best_choice`) and the position API's advice both call it, so both
    value a turn with one piece of code."""
    tb, _r, sc, _c, _d, _y, _v = look
    hand = st[seat]
    field = st[S_FIELD]
    top = np.int64(st[S_TOP])
    ntop = top + 1 if top < n else top
    s = lookahead.determinise(st, N_PLAYERS, seat, order[:n], ntop if turned else top, s, sc)
    drawn = np.int64(sc.order[top]) if top < n else np.int64(-1)
    for j in range(m):
        h = hand
        f = field
        c1 = cap
        if not turned:
            c = cards[j]
            h = hand & ~bit(c)
            f, c1 = capture_one(c, field, tb.group_masks[tb.group_of[c]], np.int64(picks[j]))
        c2 = ZERO
        if drawn >= 0:
            f, c2 = capture_one(drawn, f, tb.group_masks[tb.group_of[drawn]],
                                np.int64(picks[j]) if turned else _greedy_pick(drawn, f, tb))
        vals[j] = _rollout(look, n, seat, h, f, c1 | c2, ntop)
    return s


@hot
def _best_choice(look, st, order, n, seat, s, k, turned, cap, m):
    """The lookahead's choice among the ``m`` choices of a turn in ``sc.card``/``sc.high``
    (:func:`_turn_sample`'s ``cards``/``picks``; choice 0 greedy's): each one's gain over
    choice 0 summed over ``k`` determinisations, then ``engine.lookahead._pick``.  Returns
    (the stream word, the choice).  A call: the hand card's and the turned card's choice share
    one compiled copy of the determinisation and the rollout."""
    sc = look[2]
    vals = look[6]
    for j in range(m):
        sc.total[j] = 0.0
        sc.total2[j] = 0.0
    for _ in range(k):
        s = _turn_sample(look, st, order, n, seat, s, turned, cap, sc.card, sc.high, m, vals)
        v0 = 0.0
        for j in range(m):
            v0 = lookahead._add_gain(sc, j, vals[j], v0)
    return s, lookahead._pick(sc, m, k)


@hot(inline="always")
def _call_sample(look, st, order, n, seat, s):
    """One determinisation of koi-koi (``st``: right after ``seat``'s turn, the new yaku
    counted): the round's value when it calls koi-koi and the round is played on by greedy.
    Returns (the stream word, the value); agari's value is the same in every determinisation
    (:func:`_value` of ``st``).  The kernel's :func:`_look_continue` and the advice call it."""
    tb, rres, sc, rcap, rdec, _y, _v = look
    s = lookahead.determinise(st, N_PLAYERS, seat, order[:n], np.int64(st[S_TOP]), s, sc)
    x = sc.st
    for i in range(ST_N):
        x[i] = sc.base[i]
    x[S_CALLS + seat] += 1
    x[S_SEAT] = seat ^ 1
    over = rollout_from(x, sc.order, n, sc.rng, tb, sc.greedy, rdec, rres, rcap)
    return s, _value(x, over, seat, tb, sc.aux)


@hot
def _look_turn(st, order, n, seat, rng, k, tb, look):
    """A lookahead player's turn in ``st`` (``seat`` to move): the hand card with the field
    card it takes, then the turned card's take when it matches two or more field cards
    (:func:`_best_choice`).  Returns (hand, field, captured by the hand card, by the turned
    card); ``rng[0]`` advances by the determinisations.  A call, not inlined (as
    ``engine.lookahead.look_turn``)."""
    if look is None:  # typed, never run: rollouts play with look=None
        return st[seat], st[S_FIELD], ZERO, ZERO
    sc = look[2]
    s = rng[0]
    hand = st[seat]
    field = st[S_FIELD]
    top = np.int64(st[S_TOP])
    # the choices: greedy's own first, then every (hand card, field card taken) in card order
    g = group_hand_card(GREEDY, hand, field, ZERO, tb.group_of, tb.group_masks, tb.weights)
    sc.card[0] = g
    sc.high[0] = _greedy_pick(g, field, tb)
    m = 1
    h = hand
    while h:
        c = lowest(h)
        h &= h - ONE
        for i in range(max(count(field & tb.group_masks[tb.group_of[c]]), 1)):
            if c != g or i != np.int64(sc.high[0]):
                sc.card[m] = c
                sc.high[m] = i
                m += 1
    best = 0
    if m > 1:
        s, best = _best_choice(look, st, order, n, seat, s, k, False, ZERO, m)
    c = sc.card[best]
    hand &= ~bit(c)
    field, a = capture_one(c, field, tb.group_masks[tb.group_of[c]], np.int64(sc.high[best]))
    b = ZERO
    if top < n:
        drawn = np.int64(order[top])  # turned face up: seen
        gm = tb.group_masks[tb.group_of[drawn]]
        nm = count(field & gm)
        pick = _greedy_pick(drawn, field, tb)
        if nm >= 2:
            pile0 = st[S_PILE + seat]
            st[seat] = hand
            st[S_FIELD] = field
            st[S_PILE + seat] = pile0 | a
            for j in range(nm):
                sc.high[j] = pick if j == 0 else (j - 1 if j - 1 < pick else j)
            s, j = _best_choice(look, st, order, n, seat, s, k, True, a, nm)
            pick = np.int64(sc.high[j])
            st[S_PILE + seat] = pile0
        field, b = capture_one(drawn, field, gm, pick)
    rng[0] = s
    return hand, field, a, b


@hot
def _look_continue(st, order, n, seat, rng, k, tb, look):
    """Agari or koi-koi for a lookahead player (``st``: right after its turn, the new yaku
    counted): agari's coins now against the mean result of calling koi-koi and playing on,
    on K determinisations (:func:`_call_sample`).  Koi-koi (True) only when its mean gain
    exceeds one standard error (agari is greedy's own choice)."""
    if look is None:
        return False
    sc = look[2]
    s = rng[0]
    stop = _value(st, seat + 1, seat, tb, sc.aux)
    total = 0.0
    total2 = 0.0
    for _ in range(k):
        s, v = _call_sample(look, st, order, n, seat, s)
        d = v - stop
        total += d
        total2 += d * d
    rng[0] = s
    mean = total / k
    var = max(total2 / k - mean * mean, 0.0)
    return mean > 0.0 and mean * mean * k > lookahead.Z * lookahead.Z * var


@overload(turn_by_look)
def _ov_turn_by_look(st, order, n, seat, rng, k, tb, look):
    """A lookahead turn (:func:`_look_turn`); for ``look=None`` an impl that does not refer
    to it at all (never run), so a kernel without lookahead players never compiles it."""
    if isinstance(look, types.NoneType):
        return lambda st, order, n, seat, rng, k, tb, look: (st[seat], st[S_FIELD], ZERO, ZERO)
    return lambda st, order, n, seat, rng, k, tb, look: _look_turn(st, order, n, seat, rng, k,
                                                                     tb, look)


@overload(continue_by_look)
def _ov_continue_by_look(st, order, n, seat, rng, k, tb, look):
    if isinstance(look, types.NoneType):
        return lambda st, order, n, seat, rng, k, tb, look: False
    return lambda st, order, n, seat, rng, k, tb, look: _look_continue(st, order, n, seat, rng,
                                                                         k, tb, look)


@overload(set_coins)
def _ov_set_coins(look, c0, c1):
    if isinstance(look, types.NoneType):
        return lambda look, c0, c1: None

    def impl(look, c0, c1):
        look[2].aux[A_COINS] = c0
        look[2].aux[A_COINS + 1] = c1
    return impl
