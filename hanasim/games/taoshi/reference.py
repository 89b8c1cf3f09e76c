"""Taoshi's teyaku in plain Python, written from the rules independently of the kernel's bit
tricks: the reference of ``exact.deal_exact`` and of the tests."""
from __future__ import annotations

from ...decks import BAKEFUDA, RED
from .rules import DECK, TEYAKU, TEYAKU_VALUES

# Written from the rules independently of the kernel's bit tricks (used by ``deal_exact`` and by
# the tests as the reference): a hand is a list of cards (number, red, bake); each bakefuda is
# natural or wild *to a given number*; a teyaku is a list of groups (size, part) at distinct
# numbers, searched by brute force.
PARTS = {  # part kinds: "alone" (stand-alone sets), "set" (set part of a combination), "pair"
    "triplet": [(3, "alone")], "two_triplets": [(3, "set"), (3, "set")],
    "three_pairs": [(2, "pair")] * 3, "four_of_a_kind": [(4, "alone")],
    "five_of_a_kind": [(5, "alone")], "triplet_two_pairs": [(3, "set"), (2, "pair"), (2, "pair")],
    "four_three": [(4, "set"), (3, "set")],
}
WILD_PARTS = {"literal": {"alone"}, "no_number": {"alone"}, "in_sets": {"alone", "set"},
              "everywhere": {"alone", "set", "pair"}}
REDS_NEEDED = {"four_reds": 4, "five_reds": 5, "six_reds": 6, "seven_reds": 7}


def _groups_exist(parts, nat, wild, allowed, used=()):
    """Whether groups ``parts`` fit at distinct numbers: a group of k at number m takes the
    natural cards of m first, then cards made wild to m (only in an allowed part)."""
    if not parts:
        return True
    (k, part), rest = parts[0], parts[1:]
    for m in range(1, 13):
        if m in used:
            continue
        if nat.get(m, 0) >= k or (part in allowed and nat.get(m, 0) + wild.get(m, 0) >= k):
            if _groups_exist(rest, nat, wild, allowed, used + (m,)):
                return True
    return False


def teyaku_reference(cards, bakefuda="literal", reds_overlap="yes") -> set:
    """The teyaku a hand forms: ``cards`` is a list of (number, red, bake) tuples."""
    from itertools import product

    reds = sum(1 for _n, r, _b in cards if r)
    out = {t for t, k in REDS_NEEDED.items() if reds >= k}
    allowed = WILD_PARTS[bakefuda]
    bakes = [c for c in cards if c[2]]
    plain = [c for c in cards if not c[2]]
    for roles in product(*[[None] + list(range(1, 13)) for _ in bakes]):
        nat, nonred, wild = {}, {}, {}
        for n, r, _b in plain:
            nat[n] = nat.get(n, 0) + 1
            nonred[n] = nonred.get(n, 0) + (not r)
        for (n, _r, _b), role in zip(bakes, roles):
            if role is None:
                if bakefuda != "no_number":
                    nat[n] = nat.get(n, 0) + 1
            else:
                wild[role] = wild.get(role, 0) + 1
        for t, parts in PARTS.items():
            if t not in out and _groups_exist(parts, nat, wild, allowed):
                out.add(t)
        # reds + triplet: a triplet (a set part) and 4 or 5 reds (outside it under overlap=no)
        for m in range(1, 13):
            c, w = nat.get(m, 0), wild.get(m, 0)
            if not (c >= 3 or ("set" in allowed and c + w >= 3)):
                continue
            # the triplet takes non-red natural cards first; any other card of it is red
            used_reds = 3 - min(3, nonred.get(m, 0)) if reds_overlap == "no" else 0
            for t, k in (("four_reds_triplet", 4), ("five_reds_triplet", 5)):
                if reds - used_reds >= k:
                    out.add(t)
    return out


def best_reference(formed) -> str:
    """The best teyaku name of a set (highest value, then table order), or 'none'."""
    best, bv = "none", 0
    for t, v in zip(TEYAKU, TEYAKU_VALUES):
        if t in formed and v > bv:
            best, bv = t, v
    return best


def cards_of_hand(mask) -> list:
    """(number, red, bake) tuples of a card mask of the mekurifuda deck."""
    m = int(mask)
    return [(int(DECK.month[c]), bool(DECK.flags[c] & RED), bool(DECK.flags[c] & BAKEFUDA))
            for c in range(48) if m >> c & 1]
