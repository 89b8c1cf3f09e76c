"""Settlement pieces shared by the par games: card points of a pile and paying by cards."""
from .jit import hot

from .bits import count

# how a yaku difference is paid with captured cards (a house rule in Toppa and Baka)
TRANSFER_EXACT, TRANSFER_TOTAL = 0, 1


@hot
def pile_points(pile, kind_masks, kind_points):
    """Card points of a pile when points depend on the card kind only (hanafuda)."""
    total = 0
    for k in range(kind_masks.shape[0]):
        total += kind_points[k] * count(pile & kind_masks[k])
    return total


@hot
def can_hand_over(pile, amount, kind_masks, kind_points, rule):
    """Can ``pile`` pay ``amount`` card points by handing over cards?

    ``TRANSFER_TOTAL``: the pile is worth at least ``amount`` (points move as a number).
    ``TRANSFER_EXACT``: some set of its cards is worth exactly ``amount`` (cards have no change).
    """
    if amount <= 0:
        return True
    if rule == TRANSFER_TOTAL:
        return pile_points(pile, kind_masks, kind_points) >= amount
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
