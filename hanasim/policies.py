"""Playing policies.  Inside kernels a policy is an integer id; this module is the only place
that knows what each id does, and every game calls the same functions.

* ``random``: every decision uniform: the hand card to play uniformly among the hand, then the
  capture target uniformly among the two candidates when a card matches two field cards.
* ``greedy``: plays the capture that gains the most *weight* now (the played card plus what it
  takes); a card's weight is its card points plus its share of every dekiyaku it belongs to
  (``base / cards needed``), so it chases yaku as well as points.  With no capture available it
  discards the lightest card.  Ties go to the lowest card index, so greedy is deterministic.

Decisions the rules leave open are separate per-seat choices, also integer ids: exposing a
teyaku (``expose``: always, never, random).
"""
import numpy as np
from .engine.jit import hot

from .engine.bits import count, lowest, nth_card
from .engine.rng import below, below_word

RANDOM, GREEDY = 0, 1
POLICIES = {"random": RANDOM, "greedy": GREEDY}

EXPOSE_NEVER, EXPOSE_ALWAYS, EXPOSE_RANDOM = 0, 1, 2
EXPOSE = {"never": EXPOSE_NEVER, "always": EXPOSE_ALWAYS, "random": EXPOSE_RANDOM}


def policy_id(name: str) -> int:
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; choose from {', '.join(POLICIES)}") from None


def expose_id(name: str) -> int:
    try:
        return EXPOSE[name]
    except KeyError:
        raise ValueError(f"unknown expose choice {name!r}; choose from {', '.join(EXPOSE)}") from None


def card_weights(points, yaku_masks, yaku_ints):
    """Greedy's per-card weights: points plus each dekiyaku's value shared over its cards."""
    w = points.astype(np.float64).copy()
    for (cond, _req, _cnt), (minimum, _ef, base, _pe, _g) in zip(yaku_masks, yaku_ints):
        for c in range(len(points)):
            if int(cond) >> c & 1:
                w[c] += base / max(int(minimum), 1)
    return w


def greedy_tables(weights):
    """Greedy's decisions as lookups on (card, the field's cards of its month as a nibble).

    ``score[16 * card + nibble]``: the capture gain ``weight[card] + weight taken`` (the single
    match, the heavier of two, the sum of three, added in ascending card order) when the card
    matches, else ``-1e6 - weight[card]``, so one argmax (ties to the lowest card) plays the best
    capture, or with none the lightest discard.  ``high[16 * month + nibble]``: all ones when
    greedy takes the higher card id of a two-way match (strictly heavier), else 0.  Assumes four
    cards a month in card order (``engine.bits``).
    """
    w = np.asarray(weights, dtype=np.float64)
    n = len(w)
    score = np.empty(16 * n, dtype=np.float64)
    high = np.zeros(16 * (n // 4), dtype=np.uint64)
    for c in range(n):
        base = c & ~3
        for nib in range(16):
            m = [base + k for k in range(4) if nib >> k & 1]
            if not m:
                score[16 * c + nib] = -1e6 - w[c]
            elif len(m) == 2:
                score[16 * c + nib] = w[c] + max(w[m[0]], w[m[1]])
            else:
                take = 0.0
                for x in m:
                    take += w[x]
                score[16 * c + nib] = w[c] + take
    for month in range(n // 4):
        for nib in range(16):
            m = [4 * month + k for k in range(4) if nib >> k & 1]
            if len(m) == 2 and w[m[1]] > w[m[0]]:
                high[16 * month + nib] = np.uint64(0xFFFFFFFFFFFFFFFF)
    return score, high


@hot
def _nibble(field, card):
    """The field's cards of ``card``'s month, as 4 bits."""
    return np.int64((field >> np.uint64(card & ~3)) & np.uint64(0xF))


@hot(inline="always")
def hand_card(policy, hand, field, r, gscore):
    """The card a player plays from ``hand`` (non-empty); ``r`` is the turn's random word."""
    if policy == RANDOM:
        return nth_card(hand, below_word(r, count(hand)))
    return greedy_hand_card(hand, field, gscore)


@hot(inline="always")
def greedy_hand_card(hand, field, gscore):
    """Argmax of greedy's table score over the hand, ties to the lowest card, without branches
    on the scores (which case wins is unpredictable)."""
    best = np.int64(0)
    best_score = -np.inf
    m = hand
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        sc = gscore[16 * c + _nibble(field, c)]
        better = sc > best_score
        best = c if better else best
        best_score = sc if better else best_score
    return best


@hot(inline="always")
def take_high(policy, card, field, r, ghigh):
    """For a two-way match of ``card``: all ones to take the higher card id, zero the lower.
    Random: bit 0 of ``r``; greedy: the heavier card (a table lookup)."""
    if policy == RANDOM:
        return np.uint64(0) - (r & np.uint64(1))
    return ghigh[16 * (card >> 2) + _nibble(field, card)]


@hot
def choose_expose(expose, rng):
    if expose == EXPOSE_RANDOM:
        return below(rng, 2) == 1
    return expose == EXPOSE_ALWAYS
