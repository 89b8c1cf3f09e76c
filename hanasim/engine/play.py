"""The hana-awase matching step shared by every fishing game.

A card put onto the field (from the hand or turned from the draw pile) captures by month:
no match, it stays; one match, both are captured; two, the player picks one (a policy choice);
three, all four are captured (seed 000, Toppa "Turns").
"""
import numpy as np
from numba import njit  # noqa: F401

from ..policies import choose_target
from .bits import ONE, ZERO, count
from .jit import hot


@hot(inline="always")
def place(card, field, month_mask, policy, weights, rng):
    """Put ``card`` (whose month's cards are ``month_mask``) onto ``field``.

    Returns (new field, captured mask).  Written with selects rather than branches: which case
    occurs is random, and mispredicted branches were most of the cost of a turn.  A policy is
    asked (and may draw a random number) only when the card matches exactly two cards.
    """
    cb = ONE << np.uint64(card)
    matches = field & month_mask
    n = count(matches)
    if n == 2:
        matches = ONE << np.uint64(choose_target(policy, matches, weights, rng))
    has = n != 0
    new_field = (field & ~matches) if has else (field | cb)
    captured = (matches | cb) if has else ZERO
    return new_field, captured


@hot(inline="always")
def put_card(card, field, month_masks, month, policy, weights, rng):
    """:func:`place` for any deck, looking the card's month up in the tables."""
    return place(card, field, month_masks[month[card]], policy, weights, rng)
