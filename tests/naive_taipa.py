"""A plain-Python reference of a whole Taipa hanafuda game (seed 002), written from the rules,
not from the kernel: lists and sets of cards, yaku formed one set at a time, explicit removal.

It draws the same random numbers as the kernel (the same generator functions, in the same
order), so the kernel must reproduce it field by field on the same seeds:

* stream 3i+2 of round i: the first player (round 1, or a tie under tie_first=random), then
  the ribbon / chaff cards that leave play (seat 0 then 1, ribbons then chaff);
* stream 3i: the shuffle of the round's deck (ascending card order, the first
  min(n, 30) positions);
* stream 3i+1: play.  A random player draws one 64-bit word a turn: the high 32 bits pick the
  hand card, bits 0-15 the target of the played card, bits 16-31 that of the turned card;
  a random agari/koi-koi decision draws ``below(2)``.
"""
from __future__ import annotations

import numpy as np

from hanasim.decks import ANIMAL, BOAR, BRIGHT, BUTTERFLY, CHAFF, DEER, RIBBON, TAIPA as D
from hanasim.engine.rng import below, next64, shuffle_first, stream_state

RANDOM, GREEDY = 0, 1
DEC_RANDOM, DEC_STOP, DEC_CONTINUE, DEC_THRESHOLD = 0, 1, 2, 3
POINTS = {BRIGHT: 3, ANIMAL: 2, RIBBON: 1, CHAFF: 0}


def suit(c):
    return int(D.month[c])


def kind(c):
    return int(D.kind[c])


def weight(c):
    return POINTS[kind(c)] / 3


BRIGHT_SUITS = sorted({suit(c) for c in range(48) if kind(c) == BRIGHT})
ANIMAL_FLAGS = (BOAR, DEER, BUTTERFLY)


def form_yaku(pile):
    """The yaku formed from ``pile`` one set at a time: list of (kind, cards)."""
    left = sorted(pile)
    out = []
    while True:
        pick = [next((c for c in left if kind(c) == BRIGHT and suit(c) == s), None)
                for s in BRIGHT_SUITS]
        if None in pick:
            break
        out.append((BRIGHT, pick))
        left = [c for c in left if c not in pick]
    while True:
        pick = [next((c for c in left if int(D.flags[c]) & f), None) for f in ANIMAL_FLAGS]
        if None in pick:
            break
        out.append((ANIMAL, pick))
        left = [c for c in left if c not in pick]
    for k in (RIBBON, CHAFF):
        cards = [c for c in left if kind(c) == k]
        for j in range(len(cards) // 3):
            out.append((k, cards[3 * j:3 * j + 3]))
    return out


def points(pile):
    return sum(POINTS[k] for k, _ in form_yaku(pile))


def missing(pile):
    """Fewest cards to add to ``pile`` for one more yaku."""
    used = {c for _, cs in form_yaku(pile) for c in cs}
    left = [c for c in pile if c not in used]
    mb = sum(1 for s in BRIGHT_SUITS if not any(kind(c) == BRIGHT and suit(c) == s for c in left))
    ma = sum(1 for f in ANIMAL_FLAGS if not any(int(D.flags[c]) & f for c in left))
    mr = 3 - sum(kind(c) == RIBBON for c in left)
    mc = 3 - sum(kind(c) == CHAFF for c in left)
    return min(mb, ma, mr, mc)


def choose_continue(dec, param, legal_both, left, score, opp_missing, rng):
    if not legal_both:
        return False
    if dec == DEC_RANDOM:
        return below(rng, 2) == 1
    if dec == DEC_STOP:
        return False
    if dec == DEC_CONTINUE:
        return left >= param
    return score < param and opp_missing >= 2 and left >= 1


def play_card(card, field, pol, bits16):
    """(field, captured) of ``card`` put on ``field`` (a sorted list)."""
    matches = sorted(c for c in field if suit(c) == suit(card))
    if not matches:
        return sorted(field + [card]), []
    if pol == RANDOM:
        i = (bits16 * len(matches)) >> 16
    else:
        best = max(weight(c) for c in matches)
        i = next(j for j, c in enumerate(matches) if weight(c) == best)
    t = matches[i]
    return [c for c in field if c != t], [card, t]


def hand_choice(pol, hand, field, r):
    hand = sorted(hand)
    if pol == RANDOM:
        return hand[((r >> 32) * len(hand)) >> 32]
    best, best_sc = None, None
    for c in hand:
        m = [weight(x) for x in field if suit(x) == suit(c)]
        sc = weight(c) + max(m) if m else -1e6 - weight(c)
        if best_sc is None or sc > best_sc:
            best, best_sc = c, sc
    return best


def play_round(order, n, rng, policy, decide, first, rules):
    """One round on the shuffled ``order[:n]``; returns a dict of what happened."""
    hands = [list(order[0:6]), list(order[6:12])]
    field = sorted(order[12:18])
    piles = [[], []]
    cap_time = {}
    top = 18
    calls = [0, 0]
    held = [0, 0]
    turns = decisions = 0
    seat = 0
    winner = -1
    while hands[seat]:
        q = first ^ seat
        pol = policy[q]
        r = int(next64(rng)) if pol == RANDOM else 0
        card = hand_choice(pol, hands[seat], field, r)
        hands[seat].remove(card)
        field, a = play_card(card, field, pol, r & 0xFFFF)
        b = []
        if top < n:
            drawn = int(order[top])
            top += 1
            field, b = play_card(drawn, field, pol, (r >> 16) & 0xFFFF)
        for c in a:
            cap_time[c] = 2 * turns
        for c in b:
            cap_time[c] = 2 * turns + 1
        piles[seat] += a + b
        turns += 1
        if a or b:
            ny = len(form_yaku(piles[seat]))
            if ny > held[seat]:
                held[seat] = ny
                decisions += 1
                left = len(hands[seat])
                both = not (left == 0 and rules["last_turn"] == "stop")
                if choose_continue(decide[q][0], decide[q][1], both, left, points(piles[seat]),
                                   missing(piles[1 - seat]), rng):
                    calls[seat] += 1
                else:
                    winner = seat
                    break
        seat ^= 1
    base = points(piles[winner]) if winner >= 0 else 0
    score = base * (2 if winner >= 0 and calls[winner] > 0 else 1)
    return dict(winner=winner, base=base, score=score, exhausted=winner < 0, turns=turns,
                calls=calls, decisions=decisions, piles=piles, field=field, hands=hands,
                top=min(top, n), cap_time=cap_time, deck=n)


def set_cards(pile):
    """The cards of ``pile``'s bright and animal yaku (identical cards of a suit: the lowest
    of each, which form_yaku takes)."""
    return [c for k, cs in form_yaku(pile) if k in (BRIGHT, ANIMAL) for c in cs]


def leaving(pile, rules, xrng, cap_time, nxt=(), pol=RANDOM):
    """The cards of ``pile``'s yaku that leave play.  ``nxt``: the brights and animals left
    in play after both players' bright and animal yaku leave; ``pol``: the owner's card
    policy (yaku_cards=choice)."""
    out = set_cards(pile)
    mode = rules["yaku_cards"]
    if mode == "choice":
        mode = "random" if pol == RANDOM else "greedy"
    for k in (RIBBON, CHAFF):
        cards = sorted(c for c in pile if kind(c) == k)
        take = 3 * (len(cards) // 3)
        if take in (0, len(cards)):
            out += cards[:take]
        elif mode == "first":
            out += sorted(cards, key=lambda c: (cap_time[c], c))[:take]
        elif mode == "greedy":
            # keep the cards whose suit holds the most bright / animal points left in play
            def value(c):
                return sum(POINTS[kind(d)] for d in nxt if suit(d) == suit(c))
            out += sorted(cards, key=lambda c: (value(c), c))[:take]
        else:
            arr = np.array(cards, dtype=np.int8)
            shuffle_first(xrng, arr, len(cards), 0, take)
            out += [int(x) for x in arr[:take]]
    return set(out)


def start_deck(rules):
    """The full deck less the removed_* yaku (each: the lowest card of each of its three
    classes; ribbons and chaff: the lowest-numbered)."""
    out = set(range(48))
    for n, classes in ((rules["removed_brights"],
                        [lambda c, s=s: kind(c) == BRIGHT and suit(c) == s for s in BRIGHT_SUITS]),
                       (rules["removed_animals"],
                        [lambda c, f=f: int(D.flags[c]) & f for f in ANIMAL_FLAGS]),
                       (3 * rules["removed_ribbons"], [lambda c: kind(c) == RIBBON]),
                       (3 * rules["removed_chaff"], [lambda c: kind(c) == CHAFF])):
        for test in classes:
            out -= set(sorted(c for c in range(48) if test(c))[:n])
    return out


DEFAULTS = dict(start_coins=10, game_rounds=3, coin_cap="capped", tie_first="alternate",
                yaku_cards="random", exhausted_removal="remove", short_deck="short_pile",
                last_turn="choose", removed_brights=0, removed_animals=0, removed_ribbons=0,
                removed_chaff=0)


def play_game(seed, session, i0, policy, decide, rules=None, fixed_first=False, deck=None):
    """A whole game from round index ``i0`` of session ``session``: (rounds as dicts, end
    reason, coins, round 1's first player, turns)."""
    rules = {**DEFAULTS, **(rules or {})}
    key = np.uint64(stream_state(np.uint64(seed), np.uint64(session)))
    rng = np.zeros(1, dtype=np.uint64)
    xrng = np.zeros(1, dtype=np.uint64)
    coins = [rules["start_coins"]] * 2
    deck = start_deck(rules) if deck is None else set(deck)
    rounds = []
    first = first1 = 0
    reason = 0
    while True:
        i = i0 + len(rounds)
        n = len(deck)
        if n < 18 or (rules["short_deck"] == "end_game" and n < 30):
            reason = 2
            break
        xrng[0] = stream_state(key, np.uint64(3 * i + 2))
        if not rounds:
            first = 0 if fixed_first else int(below(xrng, 2))
            first1 = first
        elif coins[0] != coins[1]:
            first = 0 if coins[0] < coins[1] else 1
        elif rules["tie_first"] == "alternate":
            first ^= 1
        elif rules["tie_first"] == "random":
            first = int(below(xrng, 2))
        order = np.zeros(48, dtype=np.int8)
        order[:n] = sorted(deck)
        rng[0] = stream_state(key, np.uint64(3 * i))
        shuffle_first(rng, order, n, 0, min(n, 30))
        rng[0] = stream_state(key, np.uint64(3 * i + 1))
        rd = play_round([int(x) for x in order], n, rng, policy, decide, first, rules)
        paid = 0
        if rd["winner"] >= 0:
            w = rd["winner"] ^ first
            paid = rd["score"]
            if rules["coin_cap"] == "capped":
                paid = min(paid, max(coins[1 - w], 0))
            coins[w] += paid
            coins[1 - w] -= paid
        removed = set()
        if rd["winner"] >= 0 or rules["exhausted_removal"] == "remove":
            gone = set(set_cards(rd["piles"][0]) + set_cards(rd["piles"][1]))
            nxt = [c for c in deck - gone if kind(c) in (BRIGHT, ANIMAL)]
            for s in range(2):
                removed |= leaving(rd["piles"][s], rules, xrng, rd["cap_time"], nxt,
                                   policy[first ^ s])
        deck -= removed
        rd.update(first=first, paid=paid, removed=len(removed), order=order[:n].copy())
        rounds.append(rd)
        if min(coins) <= 0:
            reason = 1
            break
        if len(rounds) >= rules["game_rounds"]:
            break
    return rounds, reason, coins, first1, sum(r["turns"] for r in rounds)
