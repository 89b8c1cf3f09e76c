"""Matching by groups: the capture step for decks whose suits are not four cards in card order.

``engine.play`` matches by month nibbles (four cards a month, three matches capture all): the
fast path of Toppa, Baka and koi-koi.  Here a card's match group is any set of cards, given as
``group_of[card]`` (the group) and ``group_masks[group]`` (its cards as a uint64 mask), with any
number of matching field cards; the player takes exactly one of them (a policy choice) and there
is no capture-all rule (the Taipa rule page: "the player may choose which one they
capture").
"""
import numpy as np

from ..policies import group_hand_card, group_pick
from .bits import ZERO, bit, nth_card
from .jit import hot


@hot
def capture_one(card, field, gmask, pick):
    """Put ``card`` onto ``field``; ``gmask``: the cards of its match group; ``pick``: which of
    the matching field cards it takes (index in ascending card order).  Returns (new field,
    captured mask): no match, the card stays; else the card and the one picked."""
    mm = field & gmask
    if mm == ZERO:
        return field | bit(card), ZERO
    t = bit(nth_card(mm, pick))
    return field & ~t, t | bit(card)


@hot(inline="always")
def group_turn(policy, hand, field, drawn, r, group_of, group_masks, weights):
    """One turn: a hand card, then the turned card ``drawn`` (-1: the draw pile is empty, no
    second step).  ``r``: the turn's random word (zero for greedy).  Returns (hand, field,
    captured by the hand card, captured by the turned card)."""
    card = group_hand_card(policy, hand, field, r, group_of, group_masks, weights)
    hand &= ~bit(card)
    gm = group_masks[group_of[card]]
    pick = group_pick(policy, field & gm, r, weights) if (field & gm) != ZERO else 0
    field, c1 = capture_one(card, field, gm, pick)
    c2 = ZERO
    if drawn >= 0:
        gm = group_masks[group_of[drawn]]
        pick = group_pick(policy, field & gm, r >> np.uint64(16), weights) if (field & gm) != ZERO else 0
        field, c2 = capture_one(drawn, field, gm, pick)
    return hand, field, c1, c2
