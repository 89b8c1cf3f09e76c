"""A slow, plain-Python Ishikari Toppa round from the deal on, written from the Ishikari Toppa
rule page (join/drop, chasing), Hachi-hachi's dealing and the options documented in
``hanasim/games/ishikari/rules.py``, not from the kernel.

The turn and the policies' random draws are the Toppa reference's (``tests/naive.py``); the
7-card Toppa teyaku are the Baka reference's (``tests/naive_baka.py``); card points and the
deal split are the Bakappana reference's.  Random draws, in the kernel's protocol: a random
join decision ``below(rng, 2) == 1``; the draw pile (the inactive hands and the undealt
cards, in card order after the active hands and the field) shuffled by the engine's
``shuffle_range`` from position 27; a random expose ``below(rng, 2) == 1`` for a hand holding
a teyaku, positions in turn order; then the turns.
"""
from __future__ import annotations

import numpy as np

import naive_baka
from naive import ALWAYS, EXPOSE_RANDOM, below, kind, month, play_turn
from naive_bakappana import card_points
from hanasim.engine.rng import shuffle_range

JOIN_ALWAYS, JOIN_RANDOM = 0, 1
SEATED, JOIN, DROP, FORCED_IN, FORCED_OUT, CHASE = range(6)


def split(order, n):
    """Hachi-hachi's dealing: from the dealer's right (seat 1 .. n-1, then the dealer) 4 each,
    3 to the field, 3 each, 3 to the field."""
    seats = list(range(1, n)) + [0]
    d = [s for s in seats for _ in range(4)] + ["f"] * 3 + [s for s in seats for _ in range(3)] \
        + ["f"] * 3
    hands = [set() for _ in range(n)]
    field = set()
    for i, g in enumerate(d):
        (field if g == "f" else hands[g]).add(int(order[i]))
    return hands, field


HH_A = ["triplet", "standing_triplet", "two_triplets", "triplet_and_standing",
        "two_standing_triplets", "sanzokuichi", "four_of_a_kind", "triplet_and_two_pairs",
        "one_two_four", "four_three"]
HH_B = ["red", "one_ribbon", "one_animal", "one_bright", "empty_hand"]


def hachihachi(hand):
    """(kan, held bits) of a hand by Hachi-hachi's list ("Teyaku"): the most valuable of
    Group A (sets) plus the most valuable of Group B (chaff, every willow card chaff)."""
    by_month = {}
    for c in hand:
        by_month.setdefault(month(c), set()).add(c)
    sizes = sorted((len(v) for v in by_month.values()), reverse=True)

    def standing(m, cards):  # wisteria, iris, bush clover, or paulownia's three chaff
        return len(cards) == 3 and (m in (4, 5, 7) or (m == 12 and 44 not in cards))
    trip = [m for m, v in by_month.items() if len(v) == 3]
    st = [m for m in trip if standing(m, by_month[m])]
    plain = [m for m in trip if m not in st]
    pairs = sizes.count(2)
    fours = sizes.count(4)
    a = {}
    if plain:
        a["triplet"] = 2
    if st:
        a["standing_triplet"] = 3
    if len(plain) >= 2:
        a["two_triplets"] = 6
    if plain and st:
        a["triplet_and_standing"] = 7
    if len(st) >= 2:
        a["two_standing_triplets"] = 8
    if pairs >= 3:
        a["sanzokuichi"] = 4
    if fours:
        a["four_of_a_kind"] = 6
    if trip and pairs >= 2:
        a["triplet_and_two_pairs"] = 7
    if fours and pairs:
        a["one_two_four"] = 8
    if fours and trip:
        a["four_three"] = 20
    kinds = [3 if month(c) == 11 else kind(c) for c in hand]
    nb, na, nr, nc = (kinds.count(k) for k in range(4))
    b = {}
    if nr >= 2 and nb == na == 0:
        b["red"] = 2
    if nr == 1 and nc == 6:
        b["one_ribbon"] = 3
    if na == 1 and nc == 6:
        b["one_animal"] = 3
    if nb == 1 and nc == 6:
        b["one_bright"] = 4
    if nc == 7:
        b["empty_hand"] = 4
    kan, bits = 0, 0
    if a:
        best = max(a, key=a.get)
        kan += a[best]
        bits |= 1 << HH_A.index(best)
    if b:
        best = max(b, key=b.get)
        kan += b[best]
        bits |= 1 << (10 + HH_B.index(best))
    return kan, bits


def teyaku(hand, teyaku_list, kan=12):
    if teyaku_list == "none":
        return 0, 0
    if teyaku_list == "hachihachi":
        v, bits = hachihachi(hand)
        return v * kan, bits
    return naive_baka.teyaku(hand, {})  # Toppa's values, 7-card chaff teyaku, adding up


def play_round(order, dealer, n, pol, rules, weights, rng, mult=1):
    """``order``: the deck after the deal; ``pol[player] = (card, join, threshold, expose)``.
    Returns per position ``pts``, ``score``, ``tey_held``, ``tey_scored``, ``seats``; per seat
    ``choice``; ``chasers``."""
    chaff = rules.get("chaff_points", 1)
    tl = rules.get("teyaku", "hachihachi")
    kan = rules.get("kan_points", 12)
    hands, field = split(order, n)
    choice, active, joined, dropped, chasers = [], [], 0, 0, 0
    for s in range(n):
        card, join, k, _ = pol[(dealer + s) % n]
        if n == 3:
            ch = SEATED
        elif joined < 3 and dropped == n - 3:
            ch = FORCED_IN
        else:
            if join == JOIN_ALWAYS:
                yes = True
            elif join == JOIN_RANDOM:
                yes = below(rng, 2) == 1
            else:
                yes = card_points(hands[s], chaff) + teyaku(hands[s], tl, kan)[0] >= k
            ch = (CHASE if yes else FORCED_OUT) if joined == 3 else (JOIN if yes else DROP)
        choice.append(ch)
        if ch in (SEATED, JOIN, FORCED_IN):
            active.append(s)
            joined += 1
        elif ch == CHASE:
            chasers += 1
        elif ch == DROP:
            dropped += 1
    used = set(field).union(*(hands[s] for s in active))
    deck = np.array(sorted(used) + sorted(set(range(48)) - used), dtype=np.int8)
    shuffle_range(rng, deck, 27, 48)
    pile = [int(c) for c in deck[27:]]
    players = [(dealer + s) % n for s in active]
    held, scored = [0, 0, 0], [0, 0, 0]
    my = [set(hands[s]) for s in active]
    if tl == "hachihachi":  # a Four of a Kind: one of the four (at random) for the top card
        for k in range(3):
            for m in range(1, 13):
                four = [c for c in my[k] if month(c) == m]
                if len(four) == 4:
                    c = 4 * (m - 1) + below(rng, 4)
                    my[k].remove(c)
                    my[k].add(pile[0])
                    pile[0] = c
                    break
    for k in range(3):
        v, h = teyaku(my[k], tl, kan)
        held[k] = h
        if h:
            e = pol[players[k]][3]
            if tl == "hachihachi" and e == 3:  # a lookahead player claims Hachi-hachi's
                shown = True
            else:
                shown = (below(rng, 2) == 1) if e == EXPOSE_RANDOM else e == ALWAYS
            scored[k] = v if shown else 0
    piles = [set(), set(), set()]
    for i in range(21):
        k = i % 3
        piles[k] |= play_turn(pol[players[k]][0], my[k], field, pile[i], weights, rng)
    assert not field and not any(my)
    par = (240 + 24 * chaff) // 3
    pts = [card_points(p, chaff) for p in piles]
    score = [mult * (pts[k] - par + 3 * scored[k] - sum(scored)) for k in range(3)]
    return dict(pts=pts, score=score, tey_held=held, tey_scored=scored, seats=active,
                choice=choice, chasers=chasers, captured=piles)


def months(cards):
    return sorted(month(c) for c in cards)
