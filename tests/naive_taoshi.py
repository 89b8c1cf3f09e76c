"""A slow, plain-Python Taoshi round written from the rules (the Taoshi rule page, the Taoshi seed
text and the options documented in ``hanasim/games/taoshi.py``), not from the kernel: cards are
ints, hands and piles are lists and sets, a card's number and flags are read from the deck's
arrays, teyaku come from ``taoshi.teyaku_reference`` (brute force over the bakefuda's roles,
no bit tricks).

Random draws are consumed in the kernel's protocol (the generator, ``below`` and ``mix64``, is
shared, as in every reference here):

* the deal stream ``drng``: Fisher-Yates steps over the dealt cards (two 32-bit draws per word),
  again after a field misdeal, then over the rest of the deck; with 4-6 players, the draw pile
  (the dropped hands on top of the undealt cards) is shuffled the same way unless on_top;
* the play stream ``rng``: join decisions (random: ``below(rng, 2) == 1`` joins), teyaku
  claims (random: ``below(rng, 2) == 1``), then (forced_out_botta=claimed) the forced-out
  botta holders' claims in seat order, then one word per random player's turn (its high half
  picks the hand card, bits 0 and 1 the two-way matches), then (tie_winner=random, a shared
  greatest score) ``below(rng, k)`` picks among the k tied.

Scoring follows the Taoshi rule page's "End of Round and Scoring" and "Dekiyaku": a player
scores Four '2's (12) when its captured cards hold the four 2s, Four '3's (12) when they hold
the four 3s and it is the third to play (the dealer's left); yaku (teyaku claimed, dekiyaku)
pay 2 x own - the others'.
"""
from __future__ import annotations

from naive_kushiro import shuffle

from hanasim.decks import BAKEFUDA, MEKURIFUDA as D, RED
from hanasim.engine.rng import below, next64
from hanasim.games.taoshi import (BURDENS, TEYAKU, TEYAKU_VALUES, best_reference,
                                  teyaku_reference)

RANDOM, GREEDY = 0, 1
VALUE = dict(zip(TEYAKU, TEYAKU_VALUES), none=0)
DEFAULTS = dict(players=3, bakefuda="literal", reds_overlap="yes", burden="page",
                dekiyaku="page", dropped_cards="shuffled", drop_fee=0, forced_out_pay=0,
                botta_teyaku="void", forced_out_botta="lost", tie_winner="first")
UNIT = {"proportional": 11}


def number(c):
    return int(D.month[c])


def pts(cards):
    return sum(int(D.points[c]) for c in cards)


def hand_tuple(cards):
    return [(number(c), bool(D.flags[c] & RED), bool(D.flags[c] & BAKEFUDA)) for c in cards]


def best(hand, r):
    return best_reference(teyaku_reference(hand_tuple(hand), r["bakefuda"], r["reds_overlap"]))


def matches_of(card, field):
    return sorted(f for f in field if number(f) == number(card))


def play_card(card, field, policy, weights, high_bit):
    ms = matches_of(card, field)
    if not ms:
        field.add(card)
        return set()
    if len(ms) == 2:
        a, b = ms
        if policy == RANDOM:
            ms = [b if high_bit else a]
        else:
            ms = [a if weights[a] >= weights[b] else b]
    for t in ms:
        field.remove(t)
    return set(ms) | {card}


def choose_hand(policy, hand, field, weights, r):
    cards = sorted(hand)
    if policy == RANDOM:
        return cards[((r >> 32) * len(cards)) >> 32]
    best_c, best_gain = None, None
    for c in cards:
        ms = matches_of(c, field)
        if not ms:
            continue
        take = (weights[ms[0]] if len(ms) == 1 else max(weights[m] for m in ms) if len(ms) == 2
                else sum(weights[m] for m in ms))
        gain = weights[c] + take
        if best_c is None or gain > best_gain:
            best_c, best_gain = c, gain
    if best_c is not None:
        return best_c
    return min(cards, key=lambda c: (weights[c], c))


def dekiyaku(pile, j, r):
    """Bits of the dekiyaku the pile of the j-th player in turn order scores: 1 Four '2's (any
    player), 2 Four '3's (only the dealer's left, the third to play)."""
    if r["dekiyaku"] == "none":
        return 0
    nums = [number(c) for c in pile]
    d = 1 if nums.count(2) == 4 else 0
    if j == 2 and nums.count(3) == 4:
        d |= 2
    return d


def dekiyaku_points(d):
    return 12 * bin(d).count("1")


def burdens(r):
    b = r["burden"]
    if isinstance(b, str) and b in BURDENS:
        vals, unit = BURDENS[b], UNIT.get(b, 1)
    else:
        vals = tuple(int(x) for x in (b.split(",") if isinstance(b, str) else b))
        unit = 1
    return [int(v * unit) for v in vals], unit


def play_round(drng, rng, dealer, pols, rules):
    """One round from the deck in order 0..47; a dict of the kernel's result fields (per seat
    lists of length n; per active position lists of length 3)."""
    r = dict(DEFAULTS, **(rules or {}))
    n = int(r["players"])
    weights = [float(x) for x in D.points]
    order = list(range(48))
    nd = 7 * n + 6
    speak = list(range(1, n)) + [0]  # the deal: from the dealer's right, the dealer last
    misdeals = 0
    while True:
        shuffle(drng, order, 0, nd)
        hands = [[] for _ in range(n)]
        field = []
        pos = 0
        for k in (4, 3):
            for s in speak:
                hands[s] += order[pos:pos + k]
                pos += k
            field += order[pos:pos + 3]
            pos += 3
        assert pos == nd
        if any(sum(1 for c in field if number(c) == m) == 4 for m in range(1, 13)):
            misdeals += 1
            continue
        break
    shuffle(drng, order, nd, 48)
    out = dict(misdeals=misdeals, tey=[best(h, r) for h in hands])
    # join / drop from the dealer anticlockwise
    choice, active = [0] * n, []
    joined = dropped = 0
    for s in range(n):
        pol = pols[(dealer + s) % n]
        if n == 3:
            ch = 0
        elif joined == 3:
            ch = 4
        elif dropped == n - 3:
            ch = 3
        else:
            if pol["join"] == 0:
                yes = True
            elif pol["join"] == 1:
                yes = below(rng, 2) == 1
            else:
                yes = pts(hands[s]) + VALUE[out["tey"][s]] >= pol["jparam"]
            ch = 1 if yes else 2
        choice[s] = ch
        if ch in (2, 4):
            dropped += 1
        else:
            active.append(s)
            joined += 1
    assert len(active) == 3
    out["choice"], out["active"] = choice, active
    pile = [c for s in range(n) if s not in active for c in hands[s]] + order[nd:]
    assert len(pile) == 21
    if n > 3 and r["dropped_cards"] == "shuffled":
        shuffle(drng, pile, 0, 21)
    raw = [0] * n
    for s in range(n):
        if choice[s] == 2:
            raw[s] -= 3 * r["drop_fee"]
            for a in active:
                raw[a] += r["drop_fee"]
        elif choice[s] == 4:
            raw[s] += 3 * r["forced_out_pay"]
            for a in active:
                raw[a] -= r["forced_out_pay"]
    yaku = [0, 0, 0]
    claim = [0] * n
    for j, s in enumerate(active):
        t = out["tey"][s]
        if t != "none":
            e = pols[(dealer + s) % n]["expose"]
            if e == 1 or (e == 2 and below(rng, 2) == 1):
                claim[s] = 1
                yaku[j] = VALUE[t]
    # a forced-out player's botta, after the actives' claims, in seat order
    forced_botta = []
    if r["forced_out_botta"] == "claimed":
        for s in range(n):
            if choice[s] == 4 and VALUE[out["tey"][s]] == 100:
                e = pols[(dealer + s) % n]["expose"]
                if e == 1 or (e == 2 and below(rng, 2) == 1):
                    claim[s] = 1
                    forced_botta.append(s)
    out["claim"] = claim
    bur, unit = burdens(r)
    piles = [set(), set(), set()]
    hs = [set(hands[s]) for s in active]
    fld = set(field)
    deki = [0, 0, 0]
    out["botta"] = int(100 in yaku or bool(forced_botta))
    if out["botta"]:
        holders = [s for j, s in enumerate(active) if yaku[j] == 100] + forced_botta
        for h in holders:
            for x in range(n):
                raw[x] += 100 * (n - 1) if x == h else -100
        if r["botta_teyaku"] == "paid":
            other = [y if y != 100 else 0 for y in yaku]
            for j, s in enumerate(active):
                raw[s] += 2 * other[j] - (sum(other) - other[j])
        score = [unit * x for x in raw]
        out["pts"] = [0, 0, 0]
        out["top"] = 0
    else:
        t = 0
        while hs[t % 3]:
            j = t % 3
            pol = pols[(dealer + active[j]) % n]["card"]
            word = int(next64(rng)) if pol == RANDOM else 0
            card = choose_hand(pol, hs[j], fld, weights, word)
            hs[j].remove(card)
            cap = play_card(card, fld, pol, weights, word & 1)
            cap |= play_card(pile[t], fld, pol, weights, (word >> 1) & 1)
            piles[j] |= cap
            t += 1
        out["top"] = t
        out["pts"] = [pts(p) for p in piles]
        deki = [dekiyaku(piles[j], j, r) for j in range(3)]
        own = [yaku[j] + dekiyaku_points(deki[j]) for j in range(3)]
        for j, s in enumerate(active):
            raw[s] += out["pts"][j] + 2 * own[j] - (sum(own) - own[j])
        score = [unit * x for x in raw]
        for j, s in enumerate(active):
            score[s] -= bur[j]
    out.update(raw=raw, score=score, yaku=yaku, piles=piles, hands=hs, field=fld, deki=deki)
    # the winner: the greatest score among the actives (turn order), then the forced-out
    # botta claimers (seat order); a tie by tie_winner
    cands = list(active) + forced_botta
    top = max(score[s] for s in cands)
    tied = [s for s in cands if score[s] == top]
    out["tied"] = int(len(tied) > 1)
    if r["tie_winner"] == "first" or len(tied) == 1:
        out["winner"] = tied[0]
    elif r["tie_winner"] == "last":
        out["winner"] = tied[-1]
    else:
        out["winner"] = tied[below(rng, len(tied))]
    return out
