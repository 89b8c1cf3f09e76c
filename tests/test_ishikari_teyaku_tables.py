"""Hachi-hachi's teyaku kernel (``hachihachi.teyaku_of``) reads the best of each group from
tables built by ``group_a`` and ``group_b`` over capped counts: it must give what the two
functions give for any hand, of any size (the tables' caps are where the functions stop
telling counts apart)."""
import numpy as np

from hanasim.decks import HANAFUDA
from hanasim.games.ishikari import hachihachi as HH

KIND = HANAFUDA.kind  # 0 bright, 1 animal, 2 ribbon, 3 chaff
MASKS = [np.uint64(sum(1 << c for c in range(48) if KIND[c] == k)) for k in range(4)]


def by_functions(hand):
    """(kan, held bits) of ``hand`` (a set of cards) by group_a and group_b directly."""
    n = {2: 0, 3: 0, "3s": 0, 4: 0}
    for m in range(12):
        cards = {c for c in hand if c // 4 == m}
        if len(cards) == 3 and (m in HH.STANDING or (m == 11 and 44 not in cards)):
            n["3s"] += 1
        elif len(cards) in n:
            n[len(cards)] += 1
    a = HH.group_a(n[2], n[3], n["3s"], n[4])
    willow = {c for c in hand if c // 4 == 10}
    plain = hand - willow
    b = HH.group_b(sum(KIND[c] == 0 for c in plain), sum(KIND[c] == 1 for c in plain),
                   sum(KIND[c] == 2 for c in plain),
                   sum(KIND[c] == 3 for c in plain) + len(willow))
    kan = (HH.KAN_A[a] if a >= 0 else 0) + (HH.KAN_B[b] if b >= 0 else 0)
    bits = (1 << a if a >= 0 else 0) | (1 << (len(HH.GROUP_A) + b) if b >= 0 else 0)
    return kan, bits


def test_tables_give_what_group_a_and_group_b_give():
    gen = np.random.default_rng(28)
    hands = [set(range(4 * m, 4 * m + 4)) for m in range(12)]  # four of a kind, alone
    hands += [{c for c in range(48) if c // 4 in (3, 4, 6, 11) and c != 44}]  # four standing
    for size in list(range(0, 17)) * 400 + [7] * 20000:
        hands.append({int(c) for c in gen.choice(48, size, replace=False)})
    for hand in hands:
        mask = np.uint64(sum(1 << c for c in hand))
        got = HH.teyaku_of(mask, *MASKS)
        assert (int(got[0]), int(got[1])) == by_functions(hand), sorted(hand)


def test_every_teyaku_is_reached():
    # every entry of both groups is some count pattern's best (the tables miss none)
    assert {int(b).bit_length() - 1 for b in HH._A_BIT if b} == set(range(len(HH.GROUP_A)))
    assert {int(b).bit_length() - 1 for b in HH._B_BIT if b} \
        == set(range(len(HH.GROUP_A), len(HH.NAMES)))
