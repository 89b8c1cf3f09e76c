"""The hana-awase matching step shared by every fishing game.

A card put onto the field (from the hand or turned from the draw pile) captures by month:
no match, it stays; one match, both are captured; two, the player picks one (a policy choice);
three, all four are captured (seed 000, Toppa "Turns").
"""
import numpy as np
from numba import njit
from .jit import hot

from ..policies import choose_target
from .bits import ZERO, bit, count


@hot(inline="always")
def put_card(card, field, month_masks, month, policy, weights, rng):
    """Play ``card`` onto ``field``; returns (new field, captured mask)."""
    matches = field & month_masks[month[card]]
    n = count(matches)
    if n == 0:
        return field | bit(card), ZERO
    if n == 2:
        matches = bit(choose_target(policy, matches, weights, rng))
    return field & ~matches, matches | bit(card)
