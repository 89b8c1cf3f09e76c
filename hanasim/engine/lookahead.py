"""Determinised Monte Carlo lookahead, shared by every fishing game.

At each decision the rules leave to a lookahead player, every legal choice is scored by the
mean final round score it gives that player over ``K`` *determinisations*: the cards the
player cannot see (the other seats' hands, less any exposed teyaku cards, and the draw pile)
are dealt again at random, consistent with what the player has seen, and the round is played
out from the resumable state (``engine.state``) by the fast default policy (greedy) with the
game's own kernel (``engine.play.play_turns``).  The same K determinisations serve every choice
(common random numbers); ties go to the first choice in card order.

It never reads a hidden card: the unseen cards are gathered as a *set* (a mask, read in card
order) and shuffled, so any permutation of the hidden cards among the hidden places gives the
same determinisations and the same choice (a test checks it).

What is game-specific is only the value of a finished round for a seat: each game registers an
overload of :func:`round_value` for its tables type (numba picks it at compile time), so this
module never imports a game.  A lookahead context ``look`` travels through the kernels as a
tuple ``(tables, res, scratch)``; kernels of runs without a lookahead player get ``None``
and numba prunes the branch, so they compile and run as before.
"""
import sys
from statistics import NormalDist
from typing import NamedTuple

import numpy as np
from numba import njit

from .. import policies
from . import play, state
from .bits import ONE, ZERO, bit, count, lowest, month_nibble
from .jit import hot
from .rng import GOLDEN, mix64

from ..policies import DEC_STOP, DEFAULT_K, GREEDY, K_SHIFT, LOOKAHEAD, MAX_K  # noqa: F401

# the most choices of one decision: 10 hand cards, two ways each, is 20 (Toppa, Baka, Taoshi);
# Taipa's 6 hand cards, each taking one of at most 7 field cards of its suit, are at most 42
MAX_CHOICES = 48
ALL_CARDS = np.uint64(0xFFFFFFFFFFFF)  # the 48 cards' bits
#: a choice replaces greedy's own only when its mean gain exceeds Z standard errors (``_pick``)
#: with one other choice; with m - 1 others the bar rises so that, when none of them is better
#: than greedy's, one still passes by chance no more often than that one would (Bonferroni):
#: the best of many noisy means is biased upward, and unchecked it picks noise
Z = 1.0
_ALPHA = NormalDist().cdf(-Z)
#: the squared bar for a decision of m choices, by m
Z2_BY_M = np.array([Z * Z] * 2 + [NormalDist().inv_cdf(1 - _ALPHA / (m - 1)) ** 2
                                  for m in range(2, MAX_CHOICES + 1)])


def round_value(tables, st, seat, res):
    """The final score of ``seat`` (relative to the dealer) in the finished round ``st``.

    A stub: each game overloads it for its own tables type (``numba.extending.overload``)."""
    raise NotImplementedError("round_value is compiled per game (numba overload)")


class Scratch(NamedTuple):
    """Per-thread work arrays of the lookahead (kernels do not allocate)."""

    base: np.ndarray     # uint64[state]: a determinised state
    st: np.ndarray       # uint64[state]: a rollout's state
    order: np.ndarray    # int8[the order array's length]: a determinised deck order
    cards: np.ndarray    # int64[64]: the unseen cards, shuffled (any card a mask can hold)
    card: np.ndarray     # int64[MAX_CHOICES]: each choice's card
    high: np.ndarray     # uint64[MAX_CHOICES]: each choice's two-way pick
    total: np.ndarray    # float64[MAX_CHOICES]: summed gains over choice 0
    total2: np.ndarray   # float64[MAX_CHOICES]: summed squared gains
    greedy: np.ndarray   # int64[players]: the rollout policy
    rng: np.ndarray      # uint64[1]: greedy draws nothing, play_out wants a stream
    decide: np.ndarray   # int64[players, 2]: the rollout's stop-or-continue (always stop)
    aux: np.ndarray      # int64[64]: a game's work slots (a rollout's settlement)


@njit(cache=True)
def new_scratch(n_state, n_cards, n_players):
    return Scratch(np.zeros(n_state, np.uint64), np.zeros(n_state, np.uint64),
                   np.zeros(n_cards, np.int8), np.zeros(64, np.int64),
                   np.zeros(MAX_CHOICES, np.int64), np.zeros(MAX_CHOICES, np.uint64),
                   np.zeros(MAX_CHOICES, np.float64), np.zeros(MAX_CHOICES, np.float64),
                   np.full(n_players, GREEDY, np.int64),
                   np.zeros(1, np.uint64), np.full((n_players, 2), DEC_STOP, np.int64),
                   np.zeros(64, np.int64))


@hot
def is_lookahead(p):
    return (p & 0xF) == LOOKAHEAD


@hot
def samples(p):
    return np.int64((p >> K_SHIFT) & 0xFFFF)


@hot(inline="always")
def gather(cards, mask):
    """The cards of ``mask`` into ``cards[:k]`` in card order; returns k.  What a player
    cannot see is gathered as a set, so no hidden card's place is ever read."""
    k = 0
    m = mask
    while m:
        cards[k] = lowest(m)
        m &= m - ONE
        k += 1
    return k


@hot(inline="always")
def shuffle(a, k, s):
    """Fisher-Yates on ``a[:k]`` from the lookahead's generator state ``s``; returns ``s``
    advanced (the determinisations' own stream, not the round's)."""
    for i in range(k - 1):
        s += GOLDEN
        j = i + np.int64(((mix64(s) >> np.uint64(32)) * np.uint64(k - i)) >> np.uint64(32))
        t = a[i]
        a[i] = a[j]
        a[j] = t
    return s


@hot(inline="always")
def deal_others(cards, out, base, n, seat, mine, hand_size):
    """A redeal's hands: ``out[base + o]`` is ``mine`` for ``seat`` and, for every other seat in
    order, the next ``hand_size`` of the shuffled unseen ``cards``.  Returns how many cards
    were dealt (the rest of ``cards`` is the redealt pile)."""
    x = 0
    for o in range(n):
        if o == seat:
            out[base + o] = mine
            continue
        h = ZERO
        for _ in range(hand_size):
            h |= bit(cards[x])
            x += 1
        out[base + o] = h
    return x


@hot(inline="always")
def determinise(st, n, seat, order, hidden_from, s, sc):
    """Fill ``sc.base``/``sc.order`` with ``st`` and a random redeal of what ``seat`` cannot
    see: the other seats' unexposed hand cards and ``order[hidden_from:]``.  Returns the
    generator state (``s`` advanced)."""
    unseen = ZERO
    for o in range(n):
        if o != seat:
            unseen |= st[o] & ~st[state.known(n, o)]
    for i in range(hidden_from, order.shape[0]):
        unseen |= bit(order[i])
    k = gather(sc.cards, unseen)
    s = shuffle(sc.cards, k, s)
    for i in range(st.shape[0]):
        sc.base[i] = st[i]
    j = 0
    for o in range(n):
        if o != seat:
            kept = st[o] & st[state.known(n, o)]
            hand = kept
            for _ in range(count(st[o]) - count(kept)):
                hand |= bit(sc.cards[j])
                j += 1
            sc.base[o] = hand
    for i in range(order.shape[0]):
        sc.order[i] = order[i] if i < hidden_from else sc.cards[j + i - hidden_from]
    return s


@hot(inline="always")
def rollout_value(n, seat, gscore, ghigh, look):
    """Play ``look``'s scratch rollout state to the end by greedy; ``seat``'s round score."""
    tables, res, sc = look
    play.play_turns(sc.st, n, sc.order, sc.rng, sc.greedy, 0, gscore, ghigh, None, None)
    return round_value(tables, sc.st, seat, res)


@hot(inline="always")
def _after_turn(n, seat, hand, field, captured, top, gscore, ghigh, look):
    """Finish ``seat``'s turn in a copy of the determinised state (its hand, the field, its
    captures; the pile top and the seat to move advance) and play the copy out by greedy:
    ``seat``'s round score."""
    tables, res, sc = look
    for i in range(sc.base.shape[0]):
        sc.st[i] = sc.base[i]
    sc.st[seat] = hand
    sc.st[n] = field
    sc.st[state.pile(n, seat)] |= captured
    sc.st[state.top(n)] = top + 1
    sc.st[state.seat(n)] = seat + 1 if seat + 1 < n else 0
    return rollout_value(n, seat, gscore, ghigh, look)


@hot(inline="always")
def _add_gain(sc, j, v, v0):
    """Choice ``j``'s value ``v`` in one determinisation: choice 0's is the baseline (returned);
    another's gain over it is summed, with its square.  Returns the baseline."""
    if j == 0:
        return v
    sc.total[j] += v - v0
    sc.total2[j] += (v - v0) * (v - v0)
    return v0


@hot(inline="always")
def _pick(sc, m, k_samples):
    """The index of the chosen choice: choice 0 is the rollout policy's own (greedy's); another
    is taken when its mean gain over choice 0, paired on the same determinisations, is the
    largest and exceeds ``Z`` standard errors of that gain (more with more choices:
    ``Z2_BY_M``).  ``sc.total``: the summed gains,
    ``sc.total2``: their squares."""
    best = 0
    best_gain = 0.0
    z2 = Z2_BY_M[m]
    for j in range(1, m):
        mean = sc.total[j] / k_samples
        var = max(sc.total2[j] / k_samples - mean * mean, 0.0)
        if mean > best_gain and mean * mean * k_samples > z2 * var:
            best = j
            best_gain = mean
    return best


@hot(inline="always")
def look_join(rng, sc, n, s, mine, field, hand_size, yes, k, value, ctx):
    """Join (True) or drop for a lookahead player at seat ``s`` of ``n`` (its hand ``mine``;
    ``field`` dealt face up): the JOIN policy's own choice ``yes`` unless the other one's mean
    gain, paired on ``k`` determinisations, exceeds one standard error (:func:`_pick`).  The
    opening every game's join lookahead shares: the cards the seat cannot see (all but its
    hand and the field) gathered as a set, then per determinisation shuffled on from their
    last order (the stream is the round's play stream ``rng``) and dealt to the other seats
    (:func:`deal_others`: ``sc.high[:n]``; ``sc.cards[x:m]`` the undealt cards, in order).
    The game values one determinisation: ``value(sc, x, m, st, ctx)`` (a compiled function;
    ``ctx`` a tuple of its own arguments) returns (joining's value, dropping's, the generator
    state ``st`` advanced by any draws of its own).  Returns the choice."""
    m = gather(sc.cards, ~(mine | field) & ALL_CARDS)
    st = rng[0]
    sc.total[1] = 0.0
    sc.total2[1] = 0.0
    for _ in range(k):
        st = shuffle(sc.cards, m, st)
        x = deal_others(sc.cards, sc.high, 0, n, s, mine, hand_size)
        vj, vd, st = value(sc, x, m, st, ctx)
        # choice 0: the JOIN policy's, choice 1 the other
        _add_gain(sc, 1, vd if yes else vj, vj if yes else vd)
    rng[0] = st
    return yes != (_pick(sc, 2, k) == 1)


@hot
def join_samples(sc, n, s, mine, field, hand_size, seed, value, ctx, out):
    """:func:`look_join`'s determinisations and values, every one kept (the join advice of a
    position): ``out[i, 0]`` joining's value, ``out[i, 1]`` dropping's in determinisation
    ``i``, on the stream ``seed`` (``value``, ``ctx``: as :func:`look_join`'s)."""
    m = gather(sc.cards, ~(mine | field) & ALL_CARDS)
    st = np.uint64(seed)
    for i in range(out.shape[0]):
        st = shuffle(sc.cards, m, st)
        x = deal_others(sc.cards, sc.high, 0, n, s, mine, hand_size)
        out[i, 0], out[i, 1], st = value(sc, x, m, st, ctx)


@hot(inline="always")
def card_choices(sc, hand, field, gscore, ghigh):
    """The legal (hand card, two-way pick) choices into ``sc.card``/``sc.high``, greedy's own
    first; returns how many."""
    g = policies.greedy_hand_card(hand, field, gscore)
    sc.card[0] = g
    sc.high[0] = policies.take_high(GREEDY, g, field, ZERO, ghigh)
    m = 1
    h = hand
    while h:
        c = lowest(h)
        h &= h - ONE
        if count(field & month_nibble(c)) == 2:
            for high in (ZERO, ~ZERO):
                if c != g or high != sc.high[0]:
                    sc.card[m] = c
                    sc.high[m] = high
                    m += 1
        elif c != g:
            sc.card[m] = c
            sc.high[m] = ZERO
            m += 1
    return m


@hot(inline="always")
def choose_card(st, n, seat, order, s, k_samples, gscore, ghigh, look):
    """The hand card (and its two-way pick) for ``seat`` to move in ``st``: returns
    (generator state, card, high).  Each choice is played, the turned card taken by greedy,
    and the round played out by greedy in every determinisation (see :func:`_pick`)."""
    tables, res, sc = look
    hand = st[seat]
    field = st[n]
    top = np.int64(st[state.top(n)])
    m = card_choices(sc, hand, field, gscore, ghigh)
    if m == 1:
        return s, sc.card[0], sc.high[0]
    for j in range(m):
        sc.total[j] = 0.0
        sc.total2[j] = 0.0
    for _ in range(k_samples):
        s = determinise(st, n, seat, order, top, s, sc)
        drawn = sc.order[top]
        v0 = 0.0
        for j in range(m):
            c = sc.card[j]
            f, c1 = play.capture(c, field, sc.high[j])
            f, c2 = play.capture(drawn, f, policies.take_high(GREEDY, drawn, f, ZERO, ghigh))
            v = _after_turn(n, seat, hand & ~bit(c), f, c1 | c2, top, gscore, ghigh, look)
            v0 = _add_gain(sc, j, v, v0)
    best = _pick(sc, m, k_samples)
    return s, sc.card[best], sc.high[best]


@hot(inline="always")
def choose_drawn(st, n, seat, order, s, k_samples, gscore, ghigh, look):
    """The two-way pick for the turned card ``order[top]`` (seen), after ``seat`` played its
    hand card (``st`` holds the hand, field and pile after it): returns (state, high).
    Choice 0 is greedy's pick, the other is taken as :func:`_pick` says."""
    tables, res, sc = look
    field = st[n]
    top = np.int64(st[state.top(n)])
    drawn = order[top]
    sc.high[0] = policies.take_high(GREEDY, drawn, field, ZERO, ghigh)
    sc.high[1] = ~sc.high[0]
    sc.total[1] = 0.0
    sc.total2[1] = 0.0
    for _ in range(k_samples):
        s = determinise(st, n, seat, order, top + 1, s, sc)
        v0 = 0.0
        for j in range(2):
            f, c2 = play.capture(drawn, field, sc.high[j])
            v = _after_turn(n, seat, st[seat], f, c2, top, gscore, ghigh, look)
            v0 = _add_gain(sc, j, v, v0)
    return s, sc.high[_pick(sc, 2, k_samples)]


@hot(inline="always")
def choose_expose(st, n, seat, order, s, k_samples, gscore, ghigh, look, slot, v):
    """Expose a held teyaku worth ``v`` (scored in ``res[slot]``) or hide it, on the state
    right after the deal: the mean round score with it against without it, on the same K
    determinisations (hiding wins a tie: exposing shows cards).  Returns (state, expose)."""
    tables, res, sc = look
    top = np.int64(st[state.top(n)])
    with_it = 0.0
    without = 0.0
    for _ in range(k_samples):
        s = determinise(st, n, seat, order, top, s, sc)
        for i in range(st.shape[0]):
            sc.st[i] = sc.base[i]
        play.play_turns(sc.st, n, sc.order, sc.rng, sc.greedy, 0, gscore, ghigh, None, None)
        res[slot] = v
        with_it += round_value(tables, sc.st, seat, res)
        res[slot] = 0
        without += round_value(tables, sc.st, seat, res)
    return s, with_it > without


@hot
def look_turn(st, n, seat, order, s, k, hand, field, top, gscore, ghigh, look):
    """A lookahead player's turn: the hand card (and its two-way pick) by lookahead, then, if
    the turned card matches two field cards, that pick by lookahead too.
    Returns (generator state, hand, field, captured).

    A call, not inlined: the lookahead's rollouts play on with ``play.play_turns``
    (``look=None``), and inlining IR would unfold that loop before numba prunes the ``None``
    branch."""
    if look is None:  # a rollout's play_out never gets here; typed, not run
        return s, hand, field, ZERO
    st[n] = field
    st[2 * n + 1] = top
    st[2 * n + 2] = seat
    s, card, high = choose_card(st, n, seat, order, s, k, gscore, ghigh, look)
    hand &= ~bit(card)
    field, c1 = play.capture(card, field, high)
    drawn = order[top]
    high2 = ZERO
    if count(field & month_nibble(drawn)) == 2:
        pile0 = st[n + 1 + seat]
        st[seat] = hand
        st[n] = field
        st[n + 1 + seat] = pile0 | c1
        s, high2 = choose_drawn(st, n, seat, order, s, k, gscore, ghigh, look)
        st[n + 1 + seat] = pile0
    field, c2 = play.capture(drawn, field, high2)
    return s, hand, field, c1 | c2


#: this module, passed to ``play.play_turns`` to decide lookahead players' turns (play.py does
#: not import it: the lookahead imports play for its rollouts, so imports go one way)
THIS = sys.modules[__name__]


@hot(inline="always")
def play_out(st, n, order, rng, policy, dealer, gscore, ghigh, look):
    """Play the round in state ``st`` to its end, in place (:func:`engine.play.play_turns`),
    each seat by its player's policy, lookahead players by :func:`look_turn`.  ``look``:
    ``None`` (numba prunes the lookahead branch), or the context ``(tables, res, scratch)``."""
    play.play_turns(st, n, order, rng, policy, dealer, gscore, ghigh, look, THIS)


def uses_lookahead(policy):
    """The ``look`` argument of a game's chunk runner: True when some player in ``policy``
    (ids, one per player) plays by lookahead, else None (numba prunes the lookahead code)."""
    return True if any(int(p) & 0xF == LOOKAHEAD for p in np.ravel(policy)) else None
