"""Taoshi's teyaku kernels ("Teyaku", "Bakefuda"): which a hand forms under the bakefuda
reading, the best of them, and the cards a claim shows."""
from __future__ import annotations

import numpy as np

from ...engine.bits import ONE, ZERO, count, nibble_counts, nibbles_equal
from ...engine.jit import hot
from .lower import READ_EVERYWHERE, READ_IN_SETS, READ_NO_NUMBER
from .rules import (NONE, T_FIVE, T_FIVE_REDS, T_FIVE_REDS_TRIPLET, T_FOUR, T_FOUR_REDS,
                    T_FOUR_REDS_TRIPLET, T_FOUR_THREE, T_SEVEN_REDS, T_SIX_REDS, T_THREE_PAIRS,
                    T_TRIPLET, T_TRIPLET_TWO_PAIRS, T_TWO_TRIPLETS)


_NIB = np.uint64(0xF)


@hot
def _need(k, c):
    return k - c if c < k else 0


@hot
def _pop(k4, k3, k2, k1):
    """The largest count left in a histogram (k4 numbers with 4 cards, ...), and the rest."""
    if k4 > 0:
        return 4, k4 - 1, k3, k2, k1
    if k3 > 0:
        return 3, k4, k3 - 1, k2, k1
    if k2 > 0:
        return 2, k4, k3, k2 - 1, k1
    if k1 > 0:
        return 1, k4, k3, k2, k1 - 1
    return 0, k4, k3, k2, k1


@hot
def teyaku_formed(hand, redm, bakem, reading, overlap_no):
    """Bit t set when ``hand`` forms teyaku t (TEYAKU order), under the bakefuda reading.

    Each bakefuda in the hand is either natural (its printed number; no number under
    no_number) or wild; for every subset of them taken wild, the natural cards' per-number
    counts decide each teyaku: a group of k at a number with c natural cards needs k - c wild
    cards, and wild cards may only fill the parts the reading allows (stand-alone sets always,
    the set parts of the combinations under in_sets and everywhere, pairs under everywhere).
    Groups of one teyaku are at different numbers; sorting the counts gives the cheapest
    placement (the need is convex and decreasing in c)."""
    reds = count(hand & redm)
    bh = hand & bakem
    set_wild = reading == READ_IN_SETS or reading == READ_EVERYWHERE
    pair_wild = reading == READ_EVERYWHERE
    formed = np.int64(0)
    if reds >= 4:
        formed |= np.int64(1) << T_FOUR_REDS
    if reds >= 5:
        formed |= np.int64(1) << T_FIVE_REDS
    if reds >= 6:
        formed |= np.int64(1) << T_SIX_REDS
    if reds >= 7:
        formed |= np.int64(1) << T_SEVEN_REDS
    # subsets of the hand's bakefuda taken wild: w = 0, then each non-empty sub-mask
    w = ZERO
    while True:
        W = count(w)
        nat = hand & ~w
        if reading == READ_NO_NUMBER:
            nat &= ~bakem
        cw = nibble_counts(nat)
        # the histogram of the per-number counts (at most 4 natural cards a number), then the
        # three largest counts
        k4 = nibbles_equal(cw, 4, 12)
        k3 = nibbles_equal(cw, 3, 12)
        k2 = nibbles_equal(cw, 2, 12)
        k1 = nibbles_equal(cw, 1, 12)
        big = k4 + k3
        c1, k4, k3, k2, k1 = _pop(k4, k3, k2, k1)
        c2, k4, k3, k2, k1 = _pop(k4, k3, k2, k1)
        c3, k4, k3, k2, k1 = _pop(k4, k3, k2, k1)
        ws = W if set_wild else 0
        wp = W if pair_wild else 0
        g = c1 + W
        if g >= 3:
            formed |= np.int64(1) << T_TRIPLET
        if g >= 4:
            formed |= np.int64(1) << T_FOUR
        if g >= 5:
            formed |= np.int64(1) << T_FIVE
        if _need(3, c1) + _need(3, c2) <= ws:
            formed |= np.int64(1) << T_TWO_TRIPLETS
        if _need(4, c1) + _need(3, c2) <= ws:
            formed |= np.int64(1) << T_FOUR_THREE
        if _need(2, c1) + _need(2, c2) + _need(2, c3) <= wp:
            formed |= np.int64(1) << T_THREE_PAIRS
        if W == 0:
            # no wild card: closed forms from the histogram
            if big >= 1 and c3 >= 2:
                formed |= np.int64(1) << T_TRIPLET_TWO_PAIRS
            if big >= 1:
                left = reds
                if overlap_no:
                    # the triplet that keeps the most reds outside it
                    nonred = nibble_counts(nat & ~redm)
                    used = 3
                    for t in range(12):
                        if np.int64((cw >> np.uint64(4 * t)) & _NIB) >= 3:
                            nr = np.int64((nonred >> np.uint64(4 * t)) & _NIB)
                            used = min(used, 3 - min(3, nr))
                    left = reds - used
                if left >= 4:
                    formed |= np.int64(1) << T_FOUR_REDS_TRIPLET
                if left >= 5:
                    formed |= np.int64(1) << T_FIVE_REDS_TRIPLET
        else:
            # triplet + two pairs, and reds + triplet: try each number as the triplet's
            nonred = nibble_counts(nat & ~redm)
            for t in range(12):
                c = np.int64((cw >> np.uint64(4 * t)) & _NIB)
                n3 = _need(3, c)
                if n3 > ws:
                    continue
                o1 = 0
                o2 = 0
                for u in range(12):
                    if u != t:
                        d = np.int64((cw >> np.uint64(4 * u)) & _NIB)
                        if d > o1:
                            o2 = o1
                            o1 = d
                        elif d > o2:
                            o2 = d
                rest = W - n3 if pair_wild else 0
                if _need(2, o1) + _need(2, o2) <= rest:
                    formed |= np.int64(1) << T_TRIPLET_TWO_PAIRS
                left = reds
                if overlap_no:
                    nr = np.int64((nonred >> np.uint64(4 * t)) & _NIB)
                    left = reds - (3 - min(3, nr))
                if left >= 4:
                    formed |= np.int64(1) << T_FOUR_REDS_TRIPLET
                if left >= 5:
                    formed |= np.int64(1) << T_FIVE_REDS_TRIPLET
        if w == bh:
            break
        w = (w - bh) & bh  # next sub-mask of bh
    return formed


@hot
def best_teyaku(formed, values):
    """The highest-valued teyaku formed; equal values resolve in table order; NONE if none."""
    best = NONE
    bv = 0
    for t in range(NONE):
        if (formed >> t) & 1 and values[t] > bv:
            bv = values[t]
            best = t
    return best


@hot
def shown_cards(hand, t, redm, bakem, reading, overlap_no):
    """The cards a claim of teyaku ``t`` (formed by ``hand``) shows ("Teyaku Showdown": "For
    teyaku in Group A or C, show all cards that are part of the combination.  For teyaku in
    Group B, only the Red cards need to be shown").

    Group B: the hand's reds (a claimed Four/Five/Six/Seven Reds is the hand's best teyaku,
    so the hand holds exactly that many reds).  Groups A and C: the smallest set of the hand's
    cards that forms ``t`` by itself under the rules' bakefuda reading and ``reds_overlap``
    (``teyaku_formed``); where a hand forms it in more than one way with as few cards (two
    triplets to pick from, a bakefuda or a natural card, which reds go with the triplet), the
    lowest card mask (of two such sets, the one whose highest card not in both is lower).
    Neither text says which cards a player shows then: this is a documented choice."""
    if t >= T_FOUR_REDS and t <= T_SEVEN_REDS:
        return hand & redm
    best = hand
    bn = count(hand) + 1
    sub = hand
    while sub != ZERO:
        k = count(sub)
        if k >= 3 and (k < bn or (k == bn and sub < best)) and \
                (teyaku_formed(sub, redm, bakem, reading, overlap_no) >> t) & 1:
            best = sub
            bn = k
        sub = (sub - ONE) & hand
    return best
