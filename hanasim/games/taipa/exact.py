"""Taipa's exact deal-time odds (``hanasim exact taipa``, ``--removed``).

:func:`deal_probabilities` is exact (fractions) for any deck: which yaku a place holds depends
only on how many cards of each of eight classes it gets (pine / cherry / susuki brights, boar /
deer / butterflies, ribbons, chaff), so a dynamic programme over the classes counts the deals
in which no place (of those asked) holds a yaku's cards.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from ...numtext import is_digits
from .lower import ALL, CLASSES, start_deck
from .rules import DEALT, HAND, NAME, REMOVED_OPTIONS, YAKU

def class_sizes(deck: int) -> tuple:
    """The deck's cards in each of the eight yaku classes (:data:`CLASSES`)."""
    return tuple(count_py(int(deck) & m) for m in CLASSES)


NO_FIXED = ((0, 0, 0),) * len(CLASSES)


@lru_cache(maxsize=256)
def deal_ways_without(sizes: tuple, kinds: frozenset, places: frozenset,
                      fixed: tuple = NO_FIXED) -> int:
    """Ordered deals (hand of seat 0, hand of seat 1, the field: 6 cards each, the rest the
    draw pile) of a deck with ``sizes`` cards per class in which no place of ``places``
    (0, 1: the hands, 2: the field) holds the cards of a yaku of a kind in ``kinds`` (indices
    into :data:`YAKU`).  Exact integers, by dynamic programming over the eight classes: the
    state is the cards each place has received so far and, within the bright (animal) classes,
    which places have had a card of every class so far.

    ``fixed[i]``: cards of class ``i`` given to each place (``--given``); ``sizes`` are then the
    classes' free cards, and a deal fills each place's free places."""
    pm = sum(1 << g for g in places)
    states = {tuple(sum(f[g] for f in fixed) for g in range(3)) + (7,): 1}
    for i, n in enumerate(sizes):
        fx = fixed[i]
        if i in (0, 3):  # the bright (animal) classes start: every place complete so far
            states = {(u0, u1, u2, 7): w for (u0, u1, u2, _), w in _merge(states).items()}
        nxt = {}
        for (u0, u1, u2, f), w in states.items():
            for k0 in range(min(n, HAND - u0) + 1):
                c0 = w * comb(n, k0)
                for k1 in range(min(n - k0, HAND - u1) + 1):
                    c1 = c0 * comb(n - k0, k1)
                    for k2 in range(min(n - k0 - k1, HAND - u2) + 1):
                        ks = (k0 + fx[0], k1 + fx[1], k2 + fx[2])
                        if (i == 6 and 2 in kinds) or (i == 7 and 3 in kinds):
                            if any(ks[g] >= 3 for g in places):
                                continue  # three ribbons (chaff) in a place
                        g = f
                        if i < 6:
                            g = f & ((ks[0] > 0) | (ks[1] > 0) << 1 | (ks[2] > 0) << 2)
                        key = (u0 + k0, u1 + k1, u2 + k2, g)
                        nxt[key] = nxt.get(key, 0) + c1 * comb(n - k0 - k1, k2)
        states = nxt
        if (i == 2 and 0 in kinds) or (i == 5 and 1 in kinds):
            # a place with a card of each of the three classes holds the yaku
            states = {k: w for k, w in states.items() if not k[3] & pm}
    return sum(w for (u0, u1, u2, _), w in states.items() if u0 == u1 == u2 == HAND)


def _merge(states):
    out = {}
    for (u0, u1, u2, _), w in states.items():
        key = (u0, u1, u2, 0)
        out[key] = out.get(key, 0) + w
    return out


def deal_probabilities(deck: int | None = None, places=(0,)) -> dict:
    """Exact probabilities that at least one of ``places`` (0, 1: the two hands, 2: the
    opening field) holds the cards of each yaku, and of any yaku, in round 1's deal from
    ``deck`` (a card mask; default the full deck).  One place: the chance a given hand (or
    the field) holds it; ``places=(0, 1, 2)``: a hand or the field."""
    sizes = class_sizes(ALL if deck is None else deck)
    if sum(sizes) < DEALT:
        raise ValueError(f"a deck of {sum(sizes)} cards cannot be dealt (a deal needs {DEALT})")
    total = deal_ways_without(sizes, frozenset(), frozenset())
    pl = frozenset(places)
    out = {}
    for i, y in enumerate(YAKU + ("any",)):
        kinds = frozenset(range(4)) if y == "any" else frozenset((i,))
        out[y] = 1 - Fraction(deal_ways_without(sizes, kinds, pl), total)
    return out


def count_py(m: int) -> int:
    return bin(int(m)).count("1")


def deck_condition(rules) -> str:
    """The exact table's condition: ``full_deck`` or the deck the ``removed_*`` rules leave."""
    taken = [f"{y} x{getattr(rules, k)}" for y, k in zip(YAKU, REMOVED_OPTIONS)
             if getattr(rules, k)]
    if not taken:
        return "full_deck"
    return f"deck_{count_py(start_deck(rules))}: removed " + ", ".join(taken)


def removed_rules(spec: str) -> dict:
    """``hanasim exact taipa --removed three_brights,ribbons*2``: the ``removed_*`` rules
    of a deck after those yaku left play (each name once per yaku, or ``NAME*N``)."""
    opts = dict(zip(YAKU, REMOVED_OPTIONS))
    out = {o: 0 for o in REMOVED_OPTIONS}
    for item in str(spec).split(","):
        name, _, times = item.strip().partition("*")
        name = name.strip()
        if name not in opts:
            raise ValueError(f"--removed: unknown yaku {name!r}; give yaku names from "
                             f"{', '.join(YAKU)}, each once per yaku or as NAME*N")
        if times and not is_digits(times.strip()):  # ASCII digits (hanasim.numtext)
            raise ValueError(f"--removed: {item.strip()!r}: N in NAME*N is a whole number")
        out[opts[name]] += int(times) if times else 1
    return out


def exact_table(rules):
    """Round 1's deal from the start deck (the full deck unless ``removed_*`` rules take
    yaku out): per place and a hand or the field."""
    from ...stats.exact import rows_table

    deck = start_deck(rules)
    cond = deck_condition(rules)
    rows = []
    for q, places in (("one_place_holds", (0,)), ("any_place_holds", (0, 1, 2))):
        for y, f in deal_probabilities(deck, places).items():
            rows.append((f"deal.{q}.{y}", cond, f))
    return rows_table(rows, NAME)


def given_probabilities(groups: dict, deck: int | None = None) -> dict:
    """``{(places, yaku): Fraction}``: the probability that some place of ``places`` holds
    each yaku's cards (and ``any``) in round 1's deal from ``deck`` given cards (``groups``:
    {0, 1: the hands, 2: the field: [card, ...]}, cards of ``deck``), the free cards dealt
    uniformly; for each single place and for all three."""
    deck = ALL if deck is None else int(deck)
    mask = 0
    for cs in groups.values():
        for c in cs:
            mask |= 1 << int(c)
    sizes = class_sizes(deck & ~mask)
    fixed = tuple(tuple(sum(1 for c in groups.get(p, ()) if m >> int(c) & 1) for p in range(3))
                  for m in CLASSES)
    if sum(sizes) + count_py(mask) < DEALT:
        raise ValueError(f"a deck of {sum(sizes) + count_py(mask)} cards cannot be dealt "
                         f"(a deal needs {DEALT})")
    total = deal_ways_without(sizes, frozenset(), frozenset(), fixed)
    out = {}
    for places in ((0,), (1,), (2,), (0, 1, 2)):
        pl = frozenset(places)
        for i, y in enumerate(YAKU + ("any",)):
            kinds = frozenset(range(4)) if y == "any" else frozenset((i,))
            out[(places, y)] = 1 - Fraction(deal_ways_without(sizes, kinds, pl, fixed), total)
    return out


def given_table(rules, groups: dict, names: dict):
    """``hanasim exact taipa --given``: round 1's deal given cards, as :func:`exact_table`:
    a place's odds per place (the mean over the two hands and the field, as a simulation
    pools them, and per place in ``deal.one_place_holds.YAKU.PLACE``) and a hand or the
    field's."""
    from ...stats.exact import rows_table

    cond = deck_condition(rules)
    p = given_probabilities(groups, start_deck(rules))
    ys = YAKU + ("any",)
    rows = [(f"deal.one_place_holds.{y}", cond,
             sum(p[((k,), y)] for k in range(3)) / 3) for y in ys]
    rows += [(f"deal.any_place_holds.{y}", cond, p[((0, 1, 2), y)]) for y in ys]
    rows += [(f"deal.one_place_holds.{y}.{names[k]}", cond, p[((k,), y)])
             for k in range(3) for y in ys]
    return rows_table(rows, NAME)
