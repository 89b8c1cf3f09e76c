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
from .engine.rng import below

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


@hot(inline="always")
def choose_hand_card(policy, hand, field, month_masks, month, weights, rng):
    """The card a player plays from ``hand`` (non-empty).

    The random branch is inlined; greedy is a call, which keeps array reference counting out
    of the hot loop (it measurably slows numba code when inlined into big loops)."""
    if policy == RANDOM:
        return nth_card(hand, below(rng, count(hand)))
    return greedy_hand_card(hand, field, month_masks, month, weights)


@hot
def greedy_hand_card(hand, field, month_masks, month, weights):
    best = np.int64(-1)
    best_gain = -1e300
    light = np.int64(-1)
    light_w = 1e300
    m = hand
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        matches = field & month_masks[month[c]]
        n = count(matches)
        if n == 0:
            if weights[c] < light_w:
                light_w = weights[c]
                light = c
            continue
        gain = weights[c] + _take_weight(matches, n, weights)
        if gain > best_gain:
            best_gain = gain
            best = c
    if best < 0:
        return light
    return best


@hot
def _take_weight(matches, n, weights):
    if n == 2:
        a = lowest(matches)
        b = lowest(matches & (matches - np.uint64(1)))
        return max(weights[a], weights[b])
    total = 0.0
    m = matches
    while m:
        total += weights[lowest(m)]
        m &= m - np.uint64(1)
    return total


@hot
def choose_target(policy, matches, weights, rng):
    """Which of two matching field cards to capture."""
    a = lowest(matches)
    b = lowest(matches & (matches - np.uint64(1)))
    if policy == RANDOM:
        return a if below(rng, 2) == 0 else b
    return a if weights[a] >= weights[b] else b


@hot
def choose_expose(expose, rng):
    if expose == EXPOSE_RANDOM:
        return below(rng, 2) == 1
    return expose == EXPOSE_ALWAYS
