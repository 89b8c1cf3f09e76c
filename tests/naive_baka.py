"""A slow, plain-Python Baka round written from the rules (seed 000_a569c68da0494d09, section
"Baka", and the options documented in ``hanasim/games/baka.py``), not from the kernel.

Capturing, the policies and Toppa's dekiyaku come from the Toppa reference ``tests/naive.py``
(itself written from the rules); what is Baka's is written here: three seats, the 7-card deal,
the 7-card teyaku, the 10-chaff Chaff, Low Man Out, the settlement against the average of the
three yaku scores (with exact :class:`fractions.Fraction` arithmetic) and par 80.

Random draws are consumed in the kernel's protocol (see ``naive.py``): teyaku exposure for
seats 0, 1, 2 (only hands holding a teyaku), then each turn a hand card and the drawn card.
"""
from __future__ import annotations

from fractions import Fraction
import naive
from naive import (ALL, ALWAYS, ANIMAL, BRIGHT, CHAFF, EXPOSE_RANDOM, RIBBON, below,
                   kind, month, play_turn, points)

PAR = 80
HAND = 7
LOW_MAX, LOW_PAY = 25, 40
# deck position -> group: 3 each (right 'r', left 'l', dealer 'd'), 2 field, 4 each, 4 field
DEAL = "rrrllldddff" + "rrrrlllldddd" + "ffff"
N_DEALT = len(DEAL)
SEAT_OF = {"d": 0, "r": 1, "l": 2}
TEYAKU_BITS = naive.TEYAKU_BITS  # triplet, one_ribbon, one_animal, one_bright, empty_hand

DEFAULTS = dict(naive.DEFAULTS, chaff_teyaku="seven_card", yaku_rounding="nearest5",
                uncovered="toppa", low_man_forfeit="no", chaff_count=10, par=PAR,
                low_man_max=LOW_MAX, low_man_pay=LOW_PAY)


def full_rules(rules=None):
    out = dict(DEFAULTS)
    for k in out:
        if isinstance(rules, dict):
            out[k] = rules.get(k, out[k])
        elif rules is not None:
            out[k] = getattr(rules, k)
    return out


def split(order):
    """(hands by seat: dealer, right, left; field; draw pile top first)."""
    order = [int(c) for c in order]
    hands = [set(), set(), set()]
    field = set()
    for i, c in enumerate(order[:N_DEALT]):
        if DEAL[i] == "f":
            field.add(c)
        else:
            hands[SEAT_OF[DEAL[i]]].add(c)
    return hands, field, order[N_DEALT:]


def is_misdeal(order):
    hands, field, _ = split(order)
    for g in hands + [field]:
        months = [month(c) for c in g]
        if any(months.count(m) >= 4 for m in months):
            return True
    return False


def teyaku(hand, rules):
    """(value, held bits): triplets 20 each; with ``seven_card``, one ribbon / animal / bright
    and six chaff 20, seven chaff 30 (willow cards by their own kind)."""
    rules = full_rules(rules)
    found = []
    per_month = {}
    for c in hand:
        per_month[month(c)] = per_month.get(month(c), 0) + 1
    v = {n: naive.value(rules, n) for n in TEYAKU_BITS}
    found += [("triplet", v["triplet"]) for n in per_month.values() if n == 3]
    if rules["chaff_teyaku"] == "seven_card":
        kinds = [kind(c) for c in hand]
        nb, na, nr, nc = (kinds.count(k) for k in (BRIGHT, ANIMAL, RIBBON, CHAFF))
        if nc == 6 and nr == 1:
            found.append(("one_ribbon", v["one_ribbon"]))
        if nc == 6 and na == 1:
            found.append(("one_animal", v["one_animal"]))
        if nc == 6 and nb == 1:
            found.append(("one_bright", v["one_bright"]))
        if nc == 7:
            found.append(("empty_hand", v["empty_hand"]))
    if not found:
        return 0, 0
    held = 0
    for n, _ in found:
        held |= 1 << TEYAKU_BITS[n]
    if rules["teyaku_combine"] == "add":
        return sum(v for _, v in found), held
    return max(v for _, v in found), held


def dekiyaku(pile, rules):
    """Toppa's dekiyaku; Chaff needs chaff_count (10 in Baka) chaff."""
    return naive.dekiyaku(pile, full_rules(rules))


# ------------------------------------------------------------------ settlement
def amounts(yaku, rounding):
    """Yaku score minus the average; off-third averages: the two on one side round (to 5)."""
    avg = Fraction(sum(yaku), 3)
    d = [y - avg for y in yaku]
    if rounding == "none":
        return d
    if avg.denominator == 1:
        return [int(x) for x in d]
    pos = [x > 0 for x in d]
    lone = pos.index(True) if sum(pos) == 1 else pos.index(False)
    out = [0, 0, 0]
    for i in range(3):
        if i == lone:
            continue
        if rounding == "nearest5":
            out[i] = 5 * round(d[i] / 5)  # never a tie: d is a third off a multiple of 10/3
        else:
            q = abs(d[i]) / 5
            out[i] = 5 * int(q) * (1 if d[i] > 0 else -1)
    out[lone] = -sum(out)
    return out


def can_pay(pile, pays, transfer):
    """Can ``pile`` pay each amount of ``pays`` to a different player with its cards?"""
    pays = [p for p in pays if p > 0]
    if not pays:
        return True
    if transfer in ("total", "number"):
        return points(pile) >= sum(pays)
    # exact: disjoint card sets worth exactly each amount (reachable tuples of sums)
    reach = {tuple(0 for _ in pays)}
    for c in pile:
        v = naive.POINTS[kind(c)]
        new = set(reach)
        for r in reach:
            for i in range(len(pays)):
                t = list(r)
                t[i] += v
                if t[i] <= pays[i]:
                    new.add(tuple(t))
        reach = new
    return tuple(pays) in reach


def settle(pts, yaku, piles, rules):
    """Scores per seat and facts, from the rules in the order of the seed."""
    rules = full_rules(rules)
    low = [p <= rules["low_man_max"] for p in pts]
    pay = rules["low_man_pay"]
    par = naive.pars(rules, 3)
    lmo = [0, 0, 0]
    for i in range(3):
        if low[i]:
            for j in range(3):
                if j != i:
                    lmo[i] += pay
                    lmo[j] -= pay
    facts = dict(low=lmo, n_low=sum(low), settle=[0, 0, 0], uncovered=0)
    if any(low) and rules["low_man_forfeit"] == "yes":
        return lmo, facts
    a = amounts(yaku, rules["yaku_rounding"])
    # unrounded thirds of a point are paid as a number (no card is worth a third)
    transfer = "number" if rules["yaku_rounding"] == "none" else rules["card_transfer"]
    extra = [0, 0, 0]
    payers = [i for i in range(3) if a[i] < 0]
    if len(payers) == 1:
        p = payers[0]
        payees = [(p + 1) % 3, (p + 2) % 3]  # in turn order after the payer
        pays = [max(a[j], 0) for j in payees]
        if not can_pay(piles[p], pays, transfer):
            facts["uncovered"] = 1
            if rules["uncovered"] == "toppa":
                extra[p] -= yaku[p]
                takers = [j for j in payees if a[j] > 0]
                if len(takers) == 2:
                    extra[takers[0]] += yaku[p] - yaku[p] // 2
                    extra[takers[1]] += yaku[p] // 2
                else:
                    extra[takers[0]] += yaku[p]
    elif len(payers) == 2:
        payee = next(i for i in range(3) if a[i] > 0)
        for p in payers:
            if not can_pay(piles[p], [-a[p]], transfer):
                facts["uncovered"] += 1
                if rules["uncovered"] == "toppa":
                    extra[p] -= yaku[p]
                    extra[payee] += yaku[p]
    facts["settle"] = [a[i] + extra[i] for i in range(3)]
    scores = [lmo[i] + pts[i] + a[i] + extra[i] - par[i] for i in range(3)]
    return scores, facts


# ------------------------------------------------------------------ a round
def play_round(order, dealer, policy, expose, rules, weights, rng):
    """Play a dealt round; per-seat facts (seat 0 dealer, 1 right, 2 left)."""
    rules = full_rules(rules)
    hands, field, pile = split(order)
    player = [(dealer + s) % 3 for s in range(3)]
    tey_held, tey_scored = [0, 0, 0], [0, 0, 0]
    for s in range(3):
        v, h = teyaku(hands[s], rules)
        tey_held[s] = h
        if h:
            e = expose[player[s]]
            shown = (below(rng, 2) == 1) if e == EXPOSE_RANDOM else (e == ALWAYS)
            tey_scored[s] = v if shown else 0
    captured = [set(), set(), set()]
    top = 0
    for _turn in range(HAND):
        for s in range(3):  # dealer first, then anticlockwise: right, then left
            pol = policy[player[s]]
            captured[s] |= play_turn(pol, hands[s], field, pile[top], weights, rng)
            top += 1
    assert not any(hands)
    deki = [dekiyaku(captured[s], rules) for s in range(3)]
    out = dict(captured=captured, tey_held=tey_held, tey_scored=tey_scored, field=set(field),
               top=N_DEALT + top, deki_hits=[set(d) for d in deki],
               deki=[sum(d.values()) for d in deki])
    out["yaku"] = [out["deki"][s] + tey_scored[s] for s in range(3)]
    out["pts"] = [points(captured[s]) for s in range(3)]
    out["score"], facts = settle(out["pts"], out["yaku"], captured, rules)
    out.update(facts)
    return out


def game_dealers(first):
    """Dealers of rounds 1-3: the first dealer, the player to his right, then to his left
    (players are numbered so that p + 1 sits on p's right, mod 3)."""
    return [first, (first + 1) % 3, (first + 2) % 3]


__all__ = ["ALL", "play_round", "settle", "amounts", "can_pay", "is_misdeal", "split"]
