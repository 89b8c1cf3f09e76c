"""A slow, plain-Python Kushiro Toppa round written from the rules (seed 001_8b84054184cb1288,
the rule page, and the options documented in ``hanasim/games/kushiro.py``), not from the
kernel: cards are ints, hands and piles are sets, yaku are written here by card *names*.

Capturing and the card policies come from the Toppa reference ``tests/naive.py``.  Random draws
are consumed in the kernel's protocol (the generator itself, ``below`` and ``mix64``, is shared,
as in every reference here):

* the deal stream ``drng``: Fisher-Yates steps over the dealt cards (two 32-bit draws per word),
  again after a field misdeal, then over the draw pile; the dropped cards: ``i + below(drng,
  hi - i)`` for each position of the span (``under_pile``: the dropped block, ``shuffled``: the
  whole pile);
* the play stream ``rng``: the swap (random swap decision: ``below(rng, 2) == 1`` swaps; random
  pick: ``below(rng, 4)``-th card of the month), the join decision (random: ``below(rng, 2) ==
  1`` joins), teyaku exposure (random: ``below(rng, 2) == 1``), then one word per random
  player's turn and ``below(rng, 2)`` (1 = Iku) for a random Iku/Yoroshii with both legal.
"""
from __future__ import annotations

import numpy as np
from naive import RANDOM, C, choose_hand, month, play_card

from hanasim.decks import ANIMAL, BRIGHT, CHAFF, HANAFUDA as D, RIBBON
from hanasim.engine.rng import GOLDEN, below, mix64, next64

MASK64 = (1 << 64) - 1
ALL = range(48)
BRIGHTS = {c for c in ALL if D.kind[c] == BRIGHT}
RAIN = C("willow.rain_man")
DRY = BRIGHTS - {RAIN}
RIBBONS = {c for c in ALL if D.kind[c] == RIBBON}
WILLOW = {c for c in ALL if month(c) == 11}
POETRY = {C("pine.poetry_ribbon"), C("plum.poetry_ribbon"), C("cherry.poetry_ribbon")}
BLUE = {C("peony.blue_ribbon"), C("chrysanthemum.blue_ribbon"), C("maple.blue_ribbon")}
LIGHTNING = C("willow.lightning")
# bits of the dekiyaku in the kernel's table order (Toppa's rows)
YBIT = {"five_brights": 0, "four_brights": 1, "rainy_four_brights": 2, "seven_ribbons": 4,
        "poetry_ribbons": 6, "blue_ribbons": 7, "chaff": 8}
TEY_BIT = {"three_pairs": 0, "one_ribbon": 1, "one_animal": 2, "one_bright": 3, "empty_hand": 4}

DEFAULTS = dict(players=2, dealer_next="scorer", swap_pick="random", dropped_cards="under_pile",
                undecided="forced_in", teyaku_reading="ten_card", three_pairs="exact",
                teyaku_value=1, teyaku_effect="play_on", decision_on="new", last_card="yoroshii_only",
                exhausted="nobody",
                five_brights=3, four_brights=2, rainy_four_brights=1, poetry_ribbons=1,
                blue_ribbons=1, seven_ribbons=2, seven_ribbons_extra=1, chaff=1, chaff_count=12,
                chaff_extra=1, willow_chaff="none")
MAX_REDEALS = 1000


def full_rules(rules=None):
    out = dict(DEFAULTS)
    out.update(rules or {})
    return out


def shuffle(rng, cards, start, stop):
    """Fisher-Yates steps start..stop-1 over the whole list, two 32-bit draws per word."""
    n = len(cards)
    s = int(rng[0])
    i = start
    while i < stop:
        s = (s + int(GOLDEN)) & MASK64
        r = int(mix64(np.uint64(s)))
        for half in (r & 0xFFFFFFFF, r >> 32):
            if i >= stop:
                break
            j = i + ((half * (n - i)) >> 32)
            cards[i], cards[j] = cards[j], cards[i]
            i += 1
    rng[0] = np.uint64(s)


def counts(cards):
    out = {}
    for c in cards:
        out[month(c)] = out.get(month(c), 0) + 1
    return out


def teyaku(hand, r):
    """Teyaku bits of a hand (willow cards by their own printed type)."""
    if r["teyaku_reading"] == "off":
        return 0
    mc = counts(hand).values()
    exact2 = sum(1 for k in mc if k == 2)
    tp = {"exact": exact2 == 3, "at_least": exact2 >= 3,
          "pairs_in_sets": sum(1 for k in mc if k >= 2) >= 3,
          "disjoint": sum(k // 2 for k in mc) >= 3}[r["three_pairs"]]
    kinds = [D.kind[c] for c in hand]
    b, a, rb, ch = (kinds.count(k) for k in (BRIGHT, ANIMAL, RIBBON, CHAFF))
    n = len(hand)
    if r["teyaku_reading"] == "ten_card":
        got = dict(one_ribbon=rb == 1 and ch == n - 1, one_animal=a == 1 and ch == n - 1,
                   one_bright=b == 1 and ch == n - 1, empty_hand=ch == n)
    else:  # subset: some eight of the ten cards form it
        got = dict(one_ribbon=rb >= 1 and ch >= 7, one_animal=a >= 1 and ch >= 7,
                   one_bright=b >= 1 and ch >= 7, empty_hand=ch >= 8)
    got["three_pairs"] = tp
    return sum(1 << TEY_BIT[k] for k, v in got.items() if v)


def chaff_cards(r):
    base = {c for c in ALL if D.kind[c] == CHAFF} - WILLOW
    if r["willow_chaff"] == "lightning":
        base |= {LIGHTNING}
    elif r["willow_chaff"] == "all":
        base |= WILLOW
    return base


def dekiyaku(pile, r):
    """(chips, hit bits) of a captured pile."""
    v = 0
    hits = 0

    def score(name, value):
        nonlocal v, hits
        if r[name] > 0:
            v += value
            hits |= 1 << YBIT[name]

    if BRIGHTS <= pile:
        score("five_brights", r["five_brights"])
    elif DRY <= pile:
        score("four_brights", r["four_brights"])
    elif RAIN in pile and len(DRY & pile) >= 3:
        score("rainy_four_brights", r["rainy_four_brights"])
    if POETRY <= pile:
        score("poetry_ribbons", r["poetry_ribbons"])
    if BLUE <= pile:
        score("blue_ribbons", r["blue_ribbons"])
    k = len(pile & (RIBBONS | WILLOW))
    if k >= 7:
        score("seven_ribbons", r["seven_ribbons"] + r["seven_ribbons_extra"] * (k - 7))
    k = len(pile & chaff_cards(r))
    if k >= r["chaff_count"]:
        score("chaff", r["chaff"] + r["chaff_extra"] * (k - r["chaff_count"]))
    return v, hits


def missing(pile, r):
    """Fewest cards the pile lacks for any dekiyaku played."""
    need = []
    if r["five_brights"]:
        need.append(5 - len(BRIGHTS & pile))
    if r["four_brights"]:
        need.append(4 - len(DRY & pile))
    if r["rainy_four_brights"]:
        need.append(max(0, 3 - len(DRY & pile)) + (RAIN not in pile))
    if r["poetry_ribbons"]:
        need.append(3 - len(POETRY & pile))
    if r["blue_ribbons"]:
        need.append(3 - len(BLUE & pile))
    if r["seven_ribbons"]:
        need.append(max(0, 7 - len(pile & (RIBBONS | WILLOW))))
    if r["chaff"]:
        need.append(max(0, r["chaff_count"] - len(pile & chaff_cards(r))))
    return min(need) if need else 99


def strength(hand, field):
    fm = {month(c) for c in field}
    return sum(1 for c in hand if D.kind[c] != CHAFF) + sum(1 for c in hand if month(c) in fm)


def decide(pol, legal_both, cards_left, score, opp_missing, rng):
    """True = Iku (continue)."""
    if not legal_both:
        return False
    dec, k = pol["dec"], pol["dparam"]
    if dec == 0:
        return below(rng, 2) == 1
    if dec == 1:
        return False
    if dec == 2:
        return cards_left >= k
    return score < k and opp_missing >= 2 and cards_left >= 1


def expose(e, rng):
    if e == 2:
        return below(rng, 2) == 1
    return e == 1


def first_dealer(drng, n):
    """Each player draws a card (player q the q-th of a fresh partial shuffle of the whole deck,
    starting from the order 0..47, each redraw from the order the last one left); the earliest
    month deals; players tied on it draw again, the others are out."""
    cand = list(range(n))
    order = list(range(48))
    while True:
        shuffle(drng, order, 0, n)
        best = min(month(order[q]) for q in cand)
        cand = [q for q in cand if month(order[q]) == best]
        if len(cand) == 1:
            return cand[0]


def play_round(drng, rng, dealer, pols, rules, weights):
    """One round from the deck in order 0..47; returns a dict of the kernel's result fields."""
    r = full_rules(rules)
    n = r["players"]
    order = list(range(48))
    nd = 10 * n + 8
    out = dict(misdeals=0, redeals=0)
    while True:
        out["swap_in"], out["swap_out"] = set(), set()
        while True:
            shuffle(drng, order, 0, nd)
            field = set(order[10 * n: nd])
            if 4 in counts(field).values():
                out["misdeals"] += 1
                continue
            break
        shuffle(drng, order, nd, 48)
        hands = [set(order[10 * s: 10 * s + 10]) for s in range(n)]
        out["tey_dealt"] = [teyaku(h, r) for h in hands]
        out["fours"] = [sum(1 for k in counts(h).values() if k == 4) for h in hands]
        out["swaps"] = [0] * n
        top = nd
        for s in range(n):
            pol = pols[(dealer + s) % n]
            for m in sorted(m for m, k in counts(hands[s]).items() if k == 4):
                if top >= 48:
                    break
                sw = pol["swap"]
                if sw == 0 or (sw == 2 and below(rng, 2) == 0):
                    continue
                k = 0 if r["swap_pick"] == "lowest" else below(rng, 4)
                c = 4 * (m - 1) + k
                hands[s].remove(c)
                hands[s].add(order[top])
                out["swap_in"].add(order[top])
                out["swap_out"].add(c)
                order[top] = c
                out["swaps"][s] += 1
        plays = [0] * n
        choice = [0] * n
        if n == 2:
            plays = [1, 1]
            break
        joined = 0
        speak = list(range(1, n)) + [0]
        for j, s in enumerate(speak):
            pol = pols[(dealer + s) % n]
            left = n - j
            forced_in_rule = r["undecided"] == "forced_in" or out["redeals"] >= MAX_REDEALS
            if joined == 2:
                ch = 4
            elif forced_in_rule and left <= 2 - joined:
                ch = 3
            else:
                if pol["join"] == 0:
                    yes = True
                elif pol["join"] == 1:
                    yes = below(rng, 2) == 1
                else:
                    yes = strength(hands[s], field) >= pol["jparam"]
                ch = 1 if yes else 2
            choice[s] = ch
            if ch in (1, 3):
                plays[s] = 1
                joined += 1
        if joined == 2:
            break
        out["redeals"] += 1
    out["plays"], out["choice"] = plays, choice
    a, b = [s for s in range(n) if plays[s]]
    pile = order[top:]
    under = len(pile)
    aside = set()
    for s in range(n):
        if not plays[s]:
            if r["dropped_cards"] == "aside":
                aside |= hands[s]
            else:
                pile += sorted(hands[s])
    lo = {"under_pile": under, "shuffled": 0, "aside": len(pile)}[r["dropped_cards"]]
    for i in range(lo, len(pile) - 1):
        j = i + below(drng, len(pile) - i)
        pile[i], pile[j] = pile[j], pile[i]
    qa, qb = (dealer + a) % n, (dealer + b) % n
    ha, hb = hands[a], hands[b]
    claimed = [0] * n
    ta, tb = teyaku(ha, r), teyaku(hb, r)
    chips_a = 0
    if ta and expose(pols[qa]["expose"], rng):
        claimed[a] = ta
        chips_a += bin(ta).count("1") * r["teyaku_value"]
    if tb and expose(pols[qb]["expose"], rng):
        claimed[b] = tb
        chips_a -= bin(tb).count("1") * r["teyaku_value"]
    pa, pb = set(), set()
    calls = [0, 0]
    winner = stopper = -1
    points = hits = turns = decisions = paid = 0
    t = 0
    if r["teyaku_effect"] == "round_ends" and (claimed[a] or claimed[b]):
        end = 2
        winner = a if chips_a > 0 else b if chips_a < 0 else -1
    else:
        end = 1
        held = [0, 0]
        best = [0, 0]
        last = -1
        cur = 0
        while True:
            hand = ha if cur == 0 else hb
            if not hand:
                break
            pol = pols[qa if cur == 0 else qb]
            word = int(next64(rng)) if pol["card"] == RANDOM else 0
            card = choose_hand(pol["card"], hand, field, weights, word)
            hand.remove(card)
            cap = play_card(card, field, pol["card"], weights, word & 1)
            if t < len(pile):
                cap |= play_card(pile[t], field, pol["card"], weights, (word >> 1) & 1)
                t += 1
            turns += 1
            mine = pa if cur == 0 else pb
            mine |= cap
            if cap:
                v, h = dekiyaku(mine, r)
                improved = v > best[cur] if r["decision_on"] == "bigger" else (h & ~held[cur]) != 0
                held[cur] |= h
                best[cur] = max(best[cur], v)
                if improved:
                    decisions += 1
                    om = missing(pb if cur == 0 else pa, r) if pol["dec"] == 3 else 99
                    # with no card left only Yoroshii, unless last_card=free
                    both = bool(hand) or r["last_card"] == "free"
                    if decide(pol, both, len(hand), v, om, rng):
                        last = cur
                        calls[cur] += 1
                    else:
                        end = 0
                        stopper = cur
                        points, hits = v, h
                        break
            cur ^= 1
        if end == 1 and r["exhausted"] == "last_caller" and last >= 0:
            stopper = last
            points, hits = dekiyaku(pa if last == 0 else pb, r)
        if stopper >= 0:
            paid = calls[stopper]
            chips_a += points if stopper == 0 else -points
            stopper = a if stopper == 0 else b
            winner = stopper
    chips = [0] * n
    chips[a], chips[b] = chips_a, -chips_a
    cont = [0] * n
    cont[a], cont[b] = calls
    out.update(chips=chips, cont=cont, tey_claimed=claimed, winner=winner, stopper=stopper,
               end=end, points=points, hits=hits, turns=turns, decisions=decisions, first=a,
               second=b, paid=paid, field=field, top=t, end_pile=len(pile), pile_a=pa,
               pile_b=pb, hand_a=ha, hand_b=hb, aside=aside)
    return out
