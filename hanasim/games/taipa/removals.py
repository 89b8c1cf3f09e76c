"""What leaves play between rounds (the rule page, "Ending the round": both players put the yaku
they finished aside): the cards of the bright and animal yaku (identical cards of a class: the
lowest), and which ribbons and chaff when a pile holds more of the rank than its yaku use
(``yaku_cards``: random, first, or the owner's choice: greedy's rule here, a lookahead
player's in ``yaku_choice.py``).  What is left is the next round's deck (``game.play_game``)."""
import numpy as np

from ...engine import lookahead
from ...engine.bits import ONE, ZERO, bit, count, lowest
from ...engine.jit import hot
from ...engine.rng import shuffle_first
from ...policies import RANDOM
from .lower import P_YAKU_MODE, YC_CHOICE, YC_FIRST, YC_GREEDY, YC_RANDOM
from .round import R_PILE
from .yaku import yaku_counts


@hot
def _take(pile_kind, k, rng, mode, cap_time, tmp, tb, nxt):
    """``k`` of the cards of ``pile_kind`` that leave play (``yaku_cards``; ``mode``: YC_*,
    ``nxt``: the next deck's brights and animals, which greedy's choice looks at)."""
    n = count(pile_kind)
    if k >= n:
        return pile_kind
    if k == 0:
        return ZERO
    if mode == YC_FIRST or mode == YC_GREEDY:
        out = ZERO
        for _ in range(k):
            best = np.int64(-1)
            bt = 1e300
            m = pile_kind & ~out
            while m:
                c = lowest(m)
                m &= m - ONE
                if mode == YC_FIRST:
                    key = float(cap_time[c])
                else:  # greedy keeps the cards whose suit holds the most points left in play
                    key = 0.0
                    g = nxt & tb.group_masks[tb.group_of[c]]
                    while g:
                        d = lowest(g)
                        g &= g - ONE
                        key += np.floor(3.0 * tb.weights[d] + 0.5)  # its points
                if key < bt:
                    bt = key
                    best = c
            out |= bit(best)
        return out
    lookahead.gather(tmp, pile_kind)
    shuffle_first(rng, tmp, n, 0, k)
    out = ZERO
    for j in range(k):
        out |= bit(tmp[j])
    return out


@hot
def set_yaku_cards(pile, tb):
    """The cards of ``pile``'s bright and animal yaku (one card of each of a yaku's three
    classes; identical cards of a class: the lowest)."""
    nb, na, nr, nc = yaku_counts(pile, tb)
    out = ZERO
    for j in range(3):
        for g in range(2):
            m = pile & tb.sets[g, j]
            for _ in range(nb if g == 0 else na):
                out |= m & (~m + ONE)
                m &= m - ONE
    return out


@hot
def removed_cards(pile, tb, rng, cap_time, tmp, mode, nxt):
    """The cards of ``pile``'s yaku that leave play: bright and animal yaku by
    :func:`set_yaku_cards`, ribbons and chaff by ``mode`` (``yaku_cards``: YC_RANDOM, YC_FIRST,
    YC_GREEDY; CHOICE is resolved by the caller).  ``nxt``: the cards left in play once both
    players' bright and animal yaku are gone (greedy's view)."""
    nb, na, nr, nc = yaku_counts(pile, tb)
    out = set_yaku_cards(pile, tb)
    out |= _take(pile & tb.kinds[2], 3 * nr, rng, mode, cap_time, tmp, tb, nxt)
    out |= _take(pile & tb.kinds[3], 3 * nc, rng, mode, cap_time, tmp, tb, nxt)
    return out


@hot
def round_removals(deck, res, tb, policy, first, rng, cap_time, tmp):
    """Every card the round's yaku take out of play (both piles; seat 0's ribbons, chaff,
    then seat 1's draw from ``rng`` as needed): :func:`removed_cards` of each pile."""
    p0 = np.uint64(res[R_PILE])
    p1 = np.uint64(res[R_PILE + 1])
    sets = set_yaku_cards(p0, tb) | set_yaku_cards(p1, tb)
    out = sets
    rc = tb.kinds[2] | tb.kinds[3]
    if ((p0 | p1) & rc) == ZERO:
        return out
    nxt = deck & ~sets & (tb.kinds[0] | tb.kinds[1])
    for s in range(2):
        pile = p0 if s == 0 else p1
        mode = tb.params[P_YAKU_MODE]
        if mode == YC_CHOICE:
            mode = YC_RANDOM if policy[first ^ s] == RANDOM else YC_GREEDY
        nr = count(pile & tb.kinds[2]) // 3
        nc = count(pile & tb.kinds[3]) // 3
        out |= _take(pile & tb.kinds[2], 3 * nr, rng, mode, cap_time, tmp, tb, nxt)
        out |= _take(pile & tb.kinds[3], 3 * nc, rng, mode, cap_time, tmp, tb, nxt)
    return out
