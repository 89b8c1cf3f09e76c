"""Taipa's yaku counted in a card mask (the rule page, "Yaku"): 3 cards each, repeatable, each
card in at most one yaku.  The kinds are disjoint, so a pile holds ``min(pine, cherry, susuki
brights)`` bright yaku, ``min(boar, deer, butterflies)`` animal yaku, ``ribbons // 3`` and
``chaff // 3``; points 3, 2, 1, 0 (``rules.YAKU_POINTS``)."""
import numpy as np

from ...engine.bits import count
from ...engine.jit import hot


@hot(inline="always")
def yaku_counts(pile, tb):
    """(bright, animal, ribbon, chaff) yaku in ``pile``: each card in at most one yaku."""
    s = tb.sets
    nb = min(count(pile & s[0, 0]), count(pile & s[0, 1]), count(pile & s[0, 2]))
    na = min(count(pile & s[1, 0]), count(pile & s[1, 1]), count(pile & s[1, 2]))
    return nb, na, count(pile & tb.kinds[2]) // 3, count(pile & tb.kinds[3]) // 3


@hot
def yaku_points(pile, tb):
    nb, na, nr, nc = yaku_counts(pile, tb)
    return 3 * nb + 2 * na + nr, nb + na + nr + nc


@hot
def cards_missing(pile, tb):
    """The fewest cards ``pile`` lacks for one more yaku (the opponent's view of a decision)."""
    s = tb.sets
    nb, na, nr, nc = yaku_counts(pile, tb)
    mb = 0
    ma = 0
    for j in range(3):
        mb += count(pile & s[0, j]) == nb
        ma += count(pile & s[1, j]) == na
    mr = 3 - count(pile & tb.kinds[2]) % 3
    mc = 3 - count(pile & tb.kinds[3]) % 3
    return min(min(mb, ma), min(mr, mc))


@hot
def yaku_bits(cards, tb):
    nb, na, nr, nc = yaku_counts(cards, tb)
    return (np.int64(nb > 0) | np.int64(na > 0) << 1 | np.int64(nr > 0) << 2
            | np.int64(nc > 0) << 3)
