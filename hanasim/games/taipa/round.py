"""One round of Taipa: the deal, the turns from a resumable state, the result slots.

Matching is by suit with up to eight cards a suit and no capture-all rule, so turns use the
general match-group step (``engine.match``), not the month-nibble fast path of the other games.
A lookahead player's turn and decision go through the hooks (``hooks.py``, compiled from
``lookahead.py``); a kernel without lookahead players never compiles them.
"""
import numpy as np

from ...engine import lookahead, state
from ...engine.bits import ONE, ZERO, bit, count, lowest
from ...engine.jit import hot
from ...engine.match import group_turn
from ...engine.rng import next64
from ...policies import CONTINUE, LEGAL_BOTH, LEGAL_STOP, RANDOM, choose_continue
from .hooks import continue_by_look, turn_by_look
from .lower import P_LAST_STOP
from .policy import DEC_LOOKAHEAD
from .rules import DEALT, HAND, N_PLAYERS
from .yaku import cards_missing, yaku_bits, yaku_counts, yaku_points

# result slots of one round (seats: 0 the first player)
(R_WINNER, R_SCORE, R_BASE, R_EXHAUSTED, R_TURNS, R_CALLS, R_DECISIONS, R_PILE, R_FIELD,
 R_HANDS, R_TOP, R_YAKU, R_DECK, R_DEALT) = (0, 1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 21, 22)
R_CARDS = 25
R_N = 28
# R_YAKU + 4 * seat + kind: yaku of each kind held at the end of the round; R_DEALT + g: the
# yaku kinds (bits) whose cards the dealt group g (hand of seat 0, of seat 1, the field) holds;
# R_CARDS + g: the cards dealt to group g (a card mask; card values)


# The round state: ``engine.state``'s layout for 2 seats (hands, field, piles, the next card
# of the draw pile, the seat to move, no exposed cards), then Taipa's own counters.  (The
# Python functions: calling a kernel at import started numba's compiler, about half a CPU
# second, in every process that imports hanasim, even one that runs no kernel.)
S_FIELD = state.field.py_func(N_PLAYERS)
S_PILE = state.pile.py_func(N_PLAYERS, 0)   # + seat
S_TOP = state.top.py_func(N_PLAYERS)
S_SEAT = state.seat.py_func(N_PLAYERS)
S_CALLS = state.size(N_PLAYERS)     # + seat: koi-koi calls this round
S_NY = S_CALLS + 2                  # + seat: yaku held at the seat's last decision
S_TURNS = S_NY + 2
S_DECISIONS = S_TURNS + 1
ST_N = S_DECISIONS + 1


@hot
def play_round(order, n, rng, tb, policy, decide, first, res, cap_time, st, look):
    """Deal ``order[:n]`` (shuffled by the caller) and play one round; results into ``res``.
    ``cap_time[card]``: when the card was captured this round (2 * turn + step); ``st``: the
    round state (``ST_N`` slots, filled here).  ``look``: None, or the lookahead context when
    a player plays by lookahead (``game.look_context`` builds it)."""
    for i in range(R_N):
        res[i] = 0
    res[R_WINNER] = -1
    res[R_DECK] = n
    h0 = ZERO
    h1 = ZERO
    field = ZERO
    for i in range(HAND):
        h0 |= bit(order[i])
        h1 |= bit(order[HAND + i])
        field |= bit(order[2 * HAND + i])
    res[R_DEALT] = yaku_bits(h0, tb)
    res[R_DEALT + 1] = yaku_bits(h1, tb)
    res[R_DEALT + 2] = yaku_bits(field, tb)
    res[R_CARDS] = np.int64(h0)
    res[R_CARDS + 1] = np.int64(h1)
    res[R_CARDS + 2] = np.int64(field)
    for i in range(ST_N):
        st[i] = ZERO
    st[0] = h0
    st[1] = h1
    st[S_FIELD] = field
    st[S_TOP] = DEALT
    play_from(st, order, n, rng, tb, policy, decide, first, res, cap_time, look)


@hot(inline="always")
def new_yaku(st, seat, tb):
    """After a capture by ``seat``: whether its pile now holds more yaku than at its last
    decision (then a decision is due: counted, and the count kept)."""
    _, ny = yaku_points(st[S_PILE + seat], tb)
    if ny > np.int64(st[S_NY + seat]):
        st[S_NY + seat] = ny
        st[S_DECISIONS] += 1
        return True
    return False


@hot
def play_from(st, order, n, rng, tb, policy, decide, first, res, cap_time, look):
    """Play the round in state ``st`` (``ST_N`` slots, above; the deck ``order[:n]``) to its
    end, in place; results into ``res``.  Returns ``over``: 0 exhausted, else the agari
    caller's seat + 1.  ``look``: None, or the lookahead context (``game.look_context``)."""
    return _play(st, order, n, rng, tb, policy, decide, first, res, cap_time, look)


@hot
def rollout_from(st, order, n, rng, tb, policy, decide, res, cap_time):
    """:func:`play_from` without lookahead players: a lookahead player copies the state,
    redeals what it cannot see and plays the copy on with this (the same round, ``_play``).
    A dispatcher of its own: play_from compiled for ``look=None`` inside its own compile for a
    context left the rollout a call to an unresolved symbol when loaded from numba's cache."""
    return _play(st, order, n, rng, tb, policy, decide, 0, res, cap_time, None)


@hot(inline="always")
def _play(st, order, n, rng, tb, policy, decide, first, res, cap_time, look):
    """The round's turns from ``st`` (:func:`play_from`)."""
    p = tb.params
    over = 0
    while True:
        seat = np.int64(st[S_SEAT])
        hand = st[seat]
        if hand == ZERO:
            break
        q = first ^ seat
        pol = policy[q]
        field = st[S_FIELD]
        top = np.int64(st[S_TOP])
        if look is not None and lookahead.is_lookahead(pol):
            hand, field, a, b = turn_by_look(st, order, n, seat, rng, lookahead.samples(pol),
                                              tb, look)
            top += 1 if top < n else 0
        else:
            r = next64(rng) if pol == RANDOM else ZERO
            drawn = np.int64(order[top]) if top < n else np.int64(-1)
            top += 1 if top < n else 0
            hand, field, a, b = group_turn(pol, hand, field, drawn, r, tb.group_of,
                                           tb.group_masks, tb.weights)
        if end_turn(st, seat, hand, field, a, b, top, cap_time, tb):
            left = count(hand)
            legal = call_legal(left, p)
            if look is not None and decide[q, 0] == DEC_LOOKAHEAD and legal == LEGAL_BOTH:
                go_on = continue_by_look(st, order, n, seat, rng, lookahead.samples(pol),
                                          tb, look)
            else:
                v, _ = yaku_points(st[S_PILE + seat], tb)
                om = cards_missing(st[S_PILE + (seat ^ 1)], tb)
                go_on = choose_continue(decide[q, 0], decide[q, 1], legal, left, v, om,
                                        rng) == CONTINUE
            over = call_or_stop(st, seat, go_on)
            if over:
                break
        st[S_SEAT] = seat ^ 1
    settle(st, n, tb, res, over)
    return over


@hot(inline="always")
def end_turn(st, seat, hand, field, a, b, top, cap_time, tb):
    """Write ``seat``'s finished turn into ``st`` (its hand, the field, its pile, the pile's
    next card; ``a``, ``b``: captured by the hand card and the turned card, their capture
    times into ``cap_time``).  Returns whether a decision (agari or koi-koi) is due."""
    turns = np.int64(st[S_TURNS])
    m = a
    while m:
        c = lowest(m)
        m &= m - ONE
        cap_time[c] = 2 * turns
    m = b
    while m:
        c = lowest(m)
        m &= m - ONE
        cap_time[c] = 2 * turns + 1
    st[seat] = hand
    st[S_FIELD] = field
    st[S_PILE + seat] |= a | b
    st[S_TOP] = top
    st[S_TURNS] = turns + 1
    return (a | b) != ZERO and new_yaku(st, seat, tb)


@hot(inline="always")
def call_legal(left, p):
    """The decisions open to a player with ``left`` cards in hand (``last_turn``)."""
    return LEGAL_STOP if (left == 0 and p[P_LAST_STOP] != 0) else LEGAL_BOTH


@hot(inline="always")
def call_or_stop(st, seat, go_on):
    """``seat``'s koi-koi (``go_on``: counted) or agari; returns the round's ``over``: 0 it
    goes on, else the agari caller's seat + 1."""
    if go_on:
        st[S_CALLS + seat] += 1
        return 0
    return seat + 1


@hot(inline="always")
def settle(st, n, tb, res, over):
    """The round's results from its final state ``st`` (``over``: as :func:`play_from`)."""
    c0 = st[S_PILE]
    c1 = st[S_PILE + 1]
    res[R_WINNER] = -1
    res[R_BASE] = 0
    res[R_SCORE] = 0
    res[R_EXHAUSTED] = 0
    if over:
        w = over - 1
        v, _ = yaku_points(c0 if w == 0 else c1, tb)
        res[R_WINNER] = w
        res[R_BASE] = v
        res[R_SCORE] = 2 * v if st[S_CALLS + w] > 0 else v
    else:
        res[R_EXHAUSTED] = 1
    res[R_TURNS] = np.int64(st[S_TURNS])
    res[R_CALLS] = np.int64(st[S_CALLS])
    res[R_CALLS + 1] = np.int64(st[S_CALLS + 1])
    res[R_DECISIONS] = np.int64(st[S_DECISIONS])
    res[R_PILE] = np.int64(c0)
    res[R_PILE + 1] = np.int64(c1)
    res[R_FIELD] = np.int64(st[S_FIELD])
    res[R_HANDS] = np.int64(st[0] | st[1])
    res[R_TOP] = min(np.int64(st[S_TOP]), n)
    for s in range(2):
        nb, na, nr, nc = yaku_counts(c0 if s == 0 else c1, tb)
        res[R_YAKU + 4 * s] = nb
        res[R_YAKU + 4 * s + 1] = na
        res[R_YAKU + 4 * s + 2] = nr
        res[R_YAKU + 4 * s + 3] = nc


@hot
def check_round(order, n, deck, res):
    """Checked mode: every card of the round's deck is in exactly one place (hands, field,
    piles, the undrawn pile) and no card outside it is anywhere."""
    places = (np.uint64(res[R_HANDS]), np.uint64(res[R_FIELD]), np.uint64(res[R_PILE]),
              np.uint64(res[R_PILE + 1]))
    seen = ZERO
    for m in places:
        if seen & m:
            raise AssertionError("a card is in two places")
        seen |= m
    for i in range(res[R_TOP], n):
        b = bit(order[i])
        if seen & b:
            raise AssertionError("a card of the draw pile is also elsewhere")
        seen |= b
    if seen != deck:
        raise AssertionError("the places do not hold exactly the round's deck")
