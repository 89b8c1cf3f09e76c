"""Hachi-hachi's teyaku (the Hachi-hachi rule page, "Teyaku") with the Ishikari Toppa rule
page's two differences: Three Pairs is called "sanzokuichi", and a Four of a Kind is not kept
(one of the four is exchanged for the top card of the draw pile; ``round.swap_fours``).

A hand scores its best teyaku of Group A (sets) plus its best of Group B (chaff; every willow
card counts as chaff), in kan.  Months are 0-based nibbles here (``engine.bits``): Standing
Triplets are wisteria (3), iris (4), bush clover (6), or paulownia's (11) three chaff.
"""
from fractions import Fraction
from math import comb

import numpy as np

from ...decks import HANAFUDA
from ...engine.bits import count
from ...engine.jit import hot

GROUP_A = ("triplet", "standing_triplet", "two_triplets", "triplet_and_standing",
           "two_standing_triplets", "sanzokuichi", "four_of_a_kind", "triplet_and_two_pairs",
           "one_two_four", "four_three")
GROUP_B = ("red", "one_ribbon", "one_animal", "one_bright", "empty_hand")
NAMES = GROUP_A + GROUP_B
KAN_A = (2, 3, 6, 7, 8, 4, 6, 7, 8, 20)
KAN_B = (2, 3, 3, 4, 4)
WILLOW = np.uint64(0xF << 40)
PAULOWNIA_CHAFF = np.uint64(0xE << 44)
STANDING = (3, 4, 6)


def group_a(n2, n3, n3s, n4):
    """(index into GROUP_A of the best set teyaku, or -1) for the month counts of a hand:
    ``n2`` pairs, ``n3`` plain and ``n3s`` standing triplets, ``n4`` fours."""
    t = n3 + n3s
    if n4 >= 1 and t >= 1:
        return 9
    if n4 >= 1 and n2 >= 1:
        return 8
    if n3s >= 2:
        return 4
    if t >= 1 and n2 >= 2:
        return 7
    if n3 >= 1 and n3s >= 1:
        return 3
    if n3 >= 2 or n4 >= 1:
        return 2 if n3 >= 2 else 6
    if n2 >= 3:
        return 5
    if n3s >= 1:
        return 1
    return 0 if n3 >= 1 else -1


def group_b(nb, na, nr, nc):
    """(index into GROUP_B, or -1) for the kind counts of a 7-card hand, willow as chaff."""
    if nc == 7:
        return 4
    if nc == 6:
        return 3 if nb == 1 else 1 if nr == 1 else 2
    if nb == 0 and na == 0 and nr >= 2:
        return 0
    return -1


# The best of each group as tables over the counts that decide it (group_a reads n2 up to 3,
# n3 and n3s up to 2, n4 up to 1; group_b nb, na and nr up to 2, nc up to 7, more than 7 as
# 8): built from group_a and group_b, so the kernel gives exactly what they give.  As
# branches, inlined into teyaku_of, they were 207 of its 391 statements of typed IR.
_A_DIMS, _B_DIMS = (4, 3, 3, 2), (3, 3, 3, 9)


def _table(fn, dims, kan, bit0):
    """(value in kan, held bit) by the flat index of the capped counts (0, 0: none held)."""
    kans = np.zeros(int(np.prod(dims)), dtype=np.int64)
    bits = np.zeros_like(kans)
    for i, counts in enumerate(np.ndindex(*dims)):
        k = fn(*counts)
        if k >= 0:
            kans[i] = kan[k]
            bits[i] = 1 << (bit0 + k)
    return kans, bits


_A_KAN, _A_BIT = _table(group_a, _A_DIMS, KAN_A, 0)
_B_KAN, _B_BIT = _table(group_b, _B_DIMS, KAN_B, len(GROUP_A))


@hot(inline="always")
def teyaku(hand, kind_masks):
    """(value in kan, held bits over NAMES: the best of each group) of a 7-card hand."""
    return teyaku_of(hand, kind_masks[0], kind_masks[1], kind_masks[2], kind_masks[3])


@hot
def teyaku_of(hand, brights, animals, ribbons, chaff):
    """:func:`teyaku` with the kind masks (``Tables.kind_masks``) as scalars: one compiled
    function of scalars for every site (the round's claim and tally, the join threshold, the
    ``--where`` teyaku clause), which LLVM inlines where it pays; IR-inlined, its 400
    statements of typed IR were compiled again at every site (four in the play kernel)."""
    n2 = 0
    n3 = 0
    n3s = 0
    n4 = 0
    for m in range(12):
        c = count(hand & (np.uint64(0xF) << np.uint64(4 * m)))
        if c == 2:
            n2 += 1
        elif c == 4:
            n4 += 1
        elif c == 3:
            if m == 3 or m == 4 or m == 6 or (m == 11 and (hand & PAULOWNIA_CHAFF)
                                               == PAULOWNIA_CHAFF):
                n3s += 1
            else:
                n3 += 1
    a = (((min(n2, 3) * 3 + min(n3, 2)) * 3 + min(n3s, 2)) * 2 + min(n4, 1))
    plain = hand & ~WILLOW
    b = (((min(count(plain & brights), 2) * 3 + min(count(plain & animals), 2)) * 3
          + min(count(plain & ribbons), 2)) * 9 + min(count(hand & (chaff | WILLOW)), 8))
    return _A_KAN[a] + _B_KAN[b], _A_BIT[a] | _B_BIT[b]


def exact_rows(hand=7) -> list:
    """Exact ``(teyaku.NAME, condition, Fraction)`` per dealt hand, by a sum over months: each
    month gives the hand a subset of its four cards; the state keeps the month counts' shape,
    the kinds (willow as chaff) and how many months the hand lacks (only those can fill the
    field: a 6-card field from the other 41 cards holds four of one of ``z`` absent months
    with probability z C(37, 2) / C(41, 6))."""
    months = []
    for m in range(12):
        opts = []
        for sub in range(16):
            cards = [4 * m + i for i in range(4) if sub >> i & 1]
            kinds = [3 if m == 10 else int(HANAFUDA.kind[c]) for c in cards]
            k = len(cards)
            standing = k == 3 and (m in STANDING or (m == 11 and 44 not in cards))
            opts.append((k, kinds.count(0), kinds.count(1), kinds.count(2), standing))
        months.append(opts)
    # cards, absent months, n2, n3, n3s, n4, non-chaff cards, and brights, animals, ribbons
    # (these three capped at 2: group B reads them only as 0, 1 or more)
    states = {(0, 0, 0, 0, 0, 0, 0, 0, 0, 0): 1}
    for opts in months:
        new = {}
        for (h, z, n2, n3, n3s, n4, nn, nb, na, nr), w in states.items():
            for k, b, a, r, standing in opts:
                if h + k > hand:
                    continue
                key = (h + k, z + (k == 0), min(n2 + (k == 2), 3),
                       min(n3 + (k == 3 and not standing), 2), min(n3s + (k == 3 and standing), 2),
                       min(n4 + (k == 4), 1), nn + b + a + r, min(nb + b, 2), min(na + a, 2),
                       min(nr + r, 2))
                new[key] = new.get(key, 0) + w
        states = new
    total = comb(48, hand)
    p_mis = Fraction(comb(37, 2), comb(41, 6))
    held = {name: [Fraction(0), Fraction(0)] for name in NAMES + ("any",)}
    ok_all = Fraction(0)
    for (h, z, n2, n3, n3s, n4, nn, nb, na, nr), w in states.items():
        if h != hand:
            continue
        nc = hand - nn
        a = group_a(n2, n3, n3s, n4)
        b = group_b(nb, na, nr, nc)
        ok = 1 - z * p_mis
        ok_all += w * ok
        names = ([GROUP_A[a]] if a >= 0 else []) + ([GROUP_B[b]] if b >= 0 else [])
        for name in names + (["any"] if names else []):
            held[name][0] += w
            held[name][1] += w * ok
    rows = [("misdeal_rate", "all_deals", Fraction(12 * comb(44, 2), comb(48, 6)))]
    for name in NAMES + ("any",):
        rows.append((f"teyaku.{name}", "all_deals", held[name][0] / total))
        rows.append((f"teyaku.{name}", "no_misdeal", held[name][1] / ok_all))
    return rows
