"""Settlement pieces shared by the par games: card points of a pile and paying by cards."""
import numpy as np

from .bits import count, popcount
from .jit import hot

# how a yaku difference is paid with captured cards (a house rule in Toppa and Baka)
TRANSFER_EXACT, TRANSFER_TOTAL = 0, 1


@hot(inline="always")
def pile_points(pile, kind_masks, kind_points):
    """Card points of a pile when points depend on the card kind only (hanafuda: 4 kinds)."""
    return (kind_points[0] * count(pile & kind_masks[0]) + kind_points[1] * count(pile & kind_masks[1])
            + kind_points[2] * count(pile & kind_masks[2]) + kind_points[3] * count(pile & kind_masks[3]))


def divisible_values(kind_points) -> bool:
    """Card values 20 / 10 / 5 / 0 (hanafuda's), each dividing the next larger one: exact
    payments can then be decided greedily (:func:`pay_greedy`)."""
    return [int(v) for v in kind_points] == [20, 10, 5, 0]


@hot(inline="always")
def _greedy_take(n0, n1, n2, amount):
    """Pay ``amount`` with 20s, 10s and 5s, largest first; (paid in full, cards left)."""
    t = min(n0, amount // 20)
    amount -= 20 * t
    n0 -= t
    t = min(n1, amount // 10)
    amount -= 10 * t
    n1 -= t
    t = min(n2, amount // 5)
    amount -= 5 * t
    n2 -= t
    return amount == 0, n0, n1, n2


_U20, _U10, _U5 = np.uint64(20), np.uint64(10), np.uint64(5)


@hot(inline="always")
def _greedy_pays(n0, n1, n2, amount):
    """:func:`_greedy_take`'s paid-in-full, in unsigned arithmetic (every count and amount is
    at least 0): numba's floor division of signed integers corrects for negative operands, a
    few instructions a division."""
    t = min(n0, amount // _U20)
    amount -= _U20 * t
    t = min(n1, amount // _U10)
    amount -= _U10 * t
    t = min(n2, amount // _U5)
    amount -= _U5 * t
    return amount == np.uint64(0)


@hot(inline="always")
def pay_greedy(pile, a, b, kind_masks):
    """Exact payment of ``a`` and ``b`` (either may be 0) with card values 20 / 10 / 5 / 0.

    Each value divides the next larger one, so any 10s and 5s worth 20 or more hold a subset
    worth exactly 20 (and 5s worth 10 or more one worth 10): a payment that can be made at all
    can be made taking the largest cards first.  Two payments: the larger first, then the
    other from what is left; the tests check this against the general search for every pile
    composition and amount.
    """
    n0 = count(pile & kind_masks[0])
    n1 = count(pile & kind_masks[1])
    n2 = count(pile & kind_masks[2])
    if a < b:
        a, b = b, a
    if b < 0:
        b = 0
    ok, n0, n1, n2 = _greedy_take(n0, n1, n2, a)
    ok2, n0, n1, n2 = _greedy_take(n0, n1, n2, b)
    return ok & ok2


@hot(inline="always")
def can_hand_over(pile, amount, kind_masks, kind_points, rule, greedy):
    """Can ``pile`` pay ``amount`` card points by handing over cards?

    ``TRANSFER_TOTAL``: the pile is worth at least ``amount`` (points move as a number).
    ``TRANSFER_EXACT``: some set of its cards is worth exactly ``amount`` (cards have no change);
    ``greedy`` (card values 20 / 10 / 5 / 0) decides it in a few operations.
    """
    if rule == TRANSFER_TOTAL:
        return amount <= 0 or pile_points(pile, kind_masks, kind_points) >= amount
    if greedy:  # no branch on amount == 0 (it is random): greedy pays 0 by taking nothing
        # pay_greedy of one payment (the second take, of 0, always succeeds), unsigned
        return _greedy_pays(popcount(pile & kind_masks[0]), popcount(pile & kind_masks[1]),
                            popcount(pile & kind_masks[2]), np.uint64(max(amount, 0)))
    if amount <= 0:
        return True
    return exact_from_counts(count(pile & kind_masks[0]), count(pile & kind_masks[1]),
                             count(pile & kind_masks[2]), count(pile & kind_masks[3]),
                             kind_points[0], kind_points[1], kind_points[2], kind_points[3],
                             amount)


@hot
def exact_from_counts(n0, n1, n2, n3, v0, v1, v2, v3, amount):
    """Do some of n0..n3 cards worth v0..v3 points each add up to exactly ``amount``?"""
    if amount <= 0:
        return amount == 0
    for a in range(n0 + 1):
        ra = amount - a * v0
        if ra < 0:
            break
        for b in range(n1 + 1):
            rb = ra - b * v1
            if rb < 0:
                break
            for c in range(n2 + 1):
                rc = rb - c * v2
                if rc < 0:
                    break
                if rc == 0:
                    return True
                if v3 > 0 and rc % v3 == 0 and rc // v3 <= n3:
                    return True
    return False
