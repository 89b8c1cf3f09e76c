"""Dealing a shuffled deck into groups (hands, field) and the misdeal check."""
import numpy as np

from .bits import ZERO, bit, count, has_full_nibble, lowest
from .jit import hot
from .rng import deal_shuffle, round_stream, shuffle_range
from .where import where_ok


@hot
def deal(order, pattern, groups):
    """Deal ``order[:len(pattern)]`` into ``groups`` (uint64 masks, zeroed here).

    ``pattern[i]`` is the group that the i-th card off the deck goes to, so a game's attested
    dealing order (e.g. 5 to the opponent, 4 to the table, 5 to the dealer, repeated) is data.
    Returns the deck position of the first undealt card (the top of the draw pile).
    """
    for g in range(groups.shape[0]):
        groups[g] = ZERO
    # Deal runs of consecutive cards to one group into a register and store once per run:
    # a read-modify-write of groups[pattern[i]] per card chains every store through memory.
    # The run boundaries are the same every deal, so the branch below predicts well.
    g = pattern[0]
    acc = ZERO
    for i in range(pattern.shape[0]):
        p = pattern[i]
        if p != g:
            groups[g] |= acc
            acc = ZERO
            g = p
        acc |= bit(order[i])
    groups[g] |= acc
    return pattern.shape[0]


@hot(inline="always")
def deal_into(order, pattern, groups):
    """:func:`deal`, inlined where a round deals (:func:`deal_until_clean`), up to four
    groups (the hands and the field of 2 or 3 players) in registers, each card or-ed into its
    group by selects; more groups, by a call of :func:`deal`.  Toppa's deal this way took
    about 15 ns less than the call (interleaved stage timings)."""
    n_groups = groups.shape[0]
    if n_groups > 4:
        return deal(order, pattern, groups)
    g0 = ZERO
    g1 = ZERO
    g2 = ZERO
    g3 = ZERO
    for i in range(pattern.shape[0]):
        b = bit(order[i])
        p = pattern[i]
        g0 |= b if p == 0 else ZERO
        g1 |= b if p == 1 else ZERO
        g2 |= b if p == 2 else ZERO
        g3 |= b if p == 3 else ZERO
    groups[0] = g0
    if n_groups > 1:
        groups[1] = g1
    if n_groups > 2:
        groups[2] = g2
    if n_groups > 3:
        groups[3] = g3
    return pattern.shape[0]


@hot(inline="always")
def deal_until_clean(rng, order, groups, pattern, lo, hi, cond):
    """Shuffle the dealt cards and deal into ``groups`` until none of groups ``lo .. hi-1``
    holds four cards of a month (the Toppa family's misdeal: the game says which groups count),
    then finish shuffling the draw pile; returns the number of misdeals.  Only the dealt cards
    are shuffled until the deal stands (``rng.shuffle_range``).  ``cond``: the run's
    conditioned deal (``rng.deal_shuffle``: given cards stay; ``where.where_ok``: a deal that
    fails ``--where`` is dealt again, not counted as a misdeal); empty, the draws of old."""
    n_dealt = pattern.shape[0]
    n = order.shape[0]
    misdeals = 0
    while True:
        deal_shuffle(rng, order, n, 0, n_dealt, cond)
        deal_into(order, pattern, groups)
        four = False
        for g in range(lo, hi):
            four |= has_full_nibble(groups[g])
        if four:
            misdeals += 1
        elif where_ok(order, cond):
            break
    deal_shuffle(rng, order, n, n_dealt, n, cond)
    return misdeals


@hot
def holds_month_count(mask, month_masks, k):
    """True if ``mask`` holds at least ``k`` cards of some month (k=4 is the misdeal check)."""
    for m in range(1, month_masks.shape[0]):
        if count(mask & month_masks[m]) >= k:
            return True
    return False


@hot
def is_misdeal(groups, n_checked, month_masks, k):
    """True if one of the first ``n_checked`` groups (hands, then field) holds ``k`` of a month."""
    for g in range(n_checked):
        if holds_month_count(groups[g], month_masks, k):
            return True
    return False


@hot
def draw_for_dealer(drng, order, n, latest):
    """The first dealer by one card each (Kushiro Toppa, Taoshi): the ``n`` players draw the
    top ``n`` cards of ``order`` shuffled; the earliest month deals (``latest``: the latest);
    players tied for it draw again (all cards back in the deck, one fresh card each; the
    others' cards of the redraw are not read) until one is left.  Returns the player."""
    cand = (1 << n) - 1
    while True:
        shuffle_range(drng, order, 0, n)
        best = -1 if latest else 99
        for q in range(n):
            if (cand >> q) & 1:
                m = order[q] >> 2
                best = max(best, m) if latest else min(best, m)
        new = 0
        for q in range(n):
            if (cand >> q) & 1 and (order[q] >> 2) == best:
                new |= 1 << q
        cand = new
        if (cand & (cand - 1)) == 0:
            return lowest(np.uint64(cand))


@hot(inline="always")
def cut_for_dealer(drng, order, key, index, n, latest):
    """:func:`draw_for_dealer` on stream ``index`` of the session ``key``, from the deck in
    order (``rng.round_stream``): the session's first dealer, drawn apart from its rounds."""
    round_stream(drng, key, index, order)
    return draw_for_dealer(drng, order, n, latest)
