"""Kushiro Toppa's teyaku (Checking for Teyaku): which a hand holds, and which cards exposing
them shows."""
from __future__ import annotations

import numpy as np

from ...engine.bits import ONE, ZERO, count, month_nibble
from ...engine.jit import hot
from .lower import PAIRS_AT_LEAST, PAIRS_DISJOINT, PAIRS_EXACT, PAIRS_IN_SETS, READ_OFF, READ_TEN


@hot
def month_count(hand, m):
    return count((hand >> np.uint64(4 * m)) & np.uint64(0xF))


@hot
def teyaku_bits(hand, km0, km1, km2, km3, reading, pairs):
    """The teyaku held by ``hand`` as bits in :data:`TEYAKU` order (willow cards by their own
    type, as the page says)."""
    if reading == READ_OFF:
        return np.int64(0)
    exact2 = 0
    ge2 = 0
    halves = 0
    for m in range(12):
        k = month_count(hand, m)
        exact2 += k == 2
        ge2 += k >= 2
        halves += k // 2
    if pairs == PAIRS_EXACT:
        tp = exact2 == 3
    elif pairs == PAIRS_AT_LEAST:
        tp = exact2 >= 3
    elif pairs == PAIRS_IN_SETS:
        tp = ge2 >= 3
    else:
        tp = halves >= 3
    b = count(hand & km0)
    a = count(hand & km1)
    r = count(hand & km2)
    c = count(hand & km3)
    if reading == READ_TEN:
        n = count(hand)
        rib = r == 1 and c == n - 1
        ani = a == 1 and c == n - 1
        bri = b == 1 and c == n - 1
        emp = c == n
    else:
        rib = r >= 1 and c >= 7
        ani = a >= 1 and c >= 7
        bri = b >= 1 and c >= 7
        emp = c >= 8
    return (np.int64(tp) | np.int64(rib) << 1 | np.int64(ani) << 2 | np.int64(bri) << 3
            | np.int64(emp) << 4)


@hot
def teyaku_shown(hand, tey, pairs):
    """The hand cards an exposed teyaku (bits ``tey`` of :data:`TEYAKU`, ``three_pairs`` =
    ``pairs``) puts face up: they become the seat's known mask in the play state
    (``state.known``), so a lookahead opponent's determinisations keep them in its hand.

    Both texts say only that a player holding a teyaku "may choose to expose it" (Exposing the
    Teyaku); what is shown is a reading, as in Toppa (the Toppa rule page, Checking for Teyaku: "put the
    cards that are related to the Teyaku face-up", ``engine.yaku.teyaku_cards``), fixed here,
    not an option (only a lookahead player's view reads it; no other run changes):
    a Group B teyaku (one ribbon/animal/bright with chaff, empty hand) is the make-up of the
    whole hand, so the whole hand is shown (under ``teyaku_reading=subset`` too: which eight
    would be arbitrary); Three Pairs alone shows three pairs, six cards: the months in order
    (earliest first) each give the pairs the reading counts (``exact``/``at_least``: a month of
    exactly two; ``pairs_in_sets``: a month of two or more, its two lowest cards; ``disjoint``:
    a month's cards two by two, lowest first) until three are shown, so a hand with more
    pairs than three shows its three earliest."""
    if tey & ~np.int64(1):
        return hand
    if tey == 0:
        return ZERO
    shown = ZERO
    left = 3
    for m in range(12):
        mm = hand & month_nibble(np.int64(4 * m))
        k = count(mm)
        if pairs == PAIRS_DISJOINT:
            take = k // 2
        elif pairs == PAIRS_IN_SETS:
            take = 1 if k >= 2 else 0
        else:
            take = 1 if k == 2 else 0
        take = min(take, left)
        for _ in range(2 * take):
            low = mm & (~mm + ONE)
            shown |= low
            mm &= ~low
        left -= take
        if left == 0:
            break
    return shown
