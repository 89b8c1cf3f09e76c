"""Exact deal-time rates of Taoshi (``hanasim exact``): the misdeal and the best teyaku of
one dealt hand, by a DP over the numbers."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ...decks import BAKEFUDA, RED
from .reference import best_reference, teyaku_reference
from .rules import DECK, FIELD_SIZE, HAND_SIZE, SCORE_VALUES, TEYAKU, TEYAKU_VALUES


@lru_cache(maxsize=2)
def _deal_states() -> dict:
    """DP over the numbers: for one seated hand (7 cards) and the field (6), the number of
    (hand, field) pairs by the hand's *profile* (a sorted tuple of (natural non-red cards,
    red non-bakefuda cards, bakefuda) per number held) and whether the field holds a four.
    The other hands and the pile take the rest in a number of ways that does not depend on
    which cards they are, so it cancels."""
    from collections import defaultdict
    from itertools import combinations
    from math import comb

    H, F = HAND_SIZE, FIELD_SIZE
    dp = {(0, 0, False, ()): 1}
    for num in range(1, 13):
        ids = range(4 * (num - 1), 4 * num)
        moves = defaultdict(int)  # (cards taken, (nonred, red, bake)) -> subsets of the number
        for x in range(5):
            for sub in combinations(ids, x):
                bake = sum(1 for c in sub if DECK.flags[c] & BAKEFUDA)
                red = sum(1 for c in sub if DECK.flags[c] & RED and not DECK.flags[c] & BAKEFUDA)
                moves[(x, (x - red - bake, red, bake))] += 1
        new = defaultdict(int)
        for (h, f, four, prof), w in dp.items():
            for (x, desc), ways in moves.items():
                if h + x > H:
                    continue
                p2 = tuple(sorted(prof + (desc,))) if x else prof
                for y in range(0, min(4 - x, F - f) + 1):
                    new[(h + x, f + y, four or y == 4, p2)] += w * ways * comb(4 - x, y)
        dp = new
    return {k: v for k, v in dp.items() if k[0] == H and k[1] == F}


def _profile_cards(prof) -> list:
    """A hand of (number, red, bake) tuples with the given profile: numbers are assigned in
    turn (a bakefuda's number is its own: what matters is that its group is one number)."""
    cards = []
    for i, (nonred, red, bake) in enumerate(prof):
        m = i + 1
        cards += [(m, False, False)] * nonred + [(m, True, False)] * red + [(m, True, True)] * bake
    return cards


@lru_cache(maxsize=16)
def deal_exact(bakefuda="literal", reds_overlap="yes") -> list:
    """Exact deal-time rates as ``(quantity, condition, Fraction)`` rows: misdeal_rate, then
    teyaku.<name> (the dealt hand's best teyaku) and teyaku_score.<v>, over all deals and over
    the deals played (no four of a number on the field)."""
    states = _deal_states()
    best_of = {}
    tot = {False: 0, True: 0}
    by = {False: {}, True: {}}
    for (_h, _f, four, prof), w in states.items():
        if prof not in best_of:
            best_of[prof] = best_reference(teyaku_reference(_profile_cards(prof), bakefuda,
                                                            reds_overlap))
        b = best_of[prof]
        tot[four] += w
        by[four][b] = by[four].get(b, 0) + w
    total = tot[False] + tot[True]
    rows = [("misdeal_rate", "all_deals", Fraction(tot[True], total))]
    value = dict(zip(TEYAKU, TEYAKU_VALUES), none=0)
    for cond, keys in (("all_deals", (False, True)), ("no_misdeal", (False,))):
        n = sum(tot[k] for k in keys)
        cnt = {t: sum(by[k].get(t, 0) for k in keys) for t in TEYAKU + ("none",)}
        for t in TEYAKU + ("none",):
            rows.append((f"teyaku.{t}", cond, Fraction(cnt[t], n)))
        for v in SCORE_VALUES:
            rows.append((f"teyaku_score.{v}", cond,
                         Fraction(sum(c for t, c in cnt.items() if value[t] == v), n)))
    return rows


@lru_cache(maxsize=32)
def _given_states(hand: tuple, fld: tuple, free: frozenset) -> dict:
    """``{(field has a four, hand profile): ways}`` for one seat given ``hand`` and the field
    given ``fld`` (the free cards dealt uniformly), as :func:`_deal_states` counts them."""
    from ...stats.exact_given_months import deck_months, split_states

    def describe(j, cards):
        if j == 1:
            return len(cards)
        bake = sum(1 for c in cards if DECK.flags[c] & BAKEFUDA)
        red = sum(1 for c in cards if DECK.flags[c] & RED and not DECK.flags[c] & BAKEFUDA)
        return (len(cards) - red - bake, red, bake) if cards else None

    def step(st, descs):
        four, prof = st
        desc, y = descs
        return (four or y == 4, tuple(sorted(prof + (desc,))) if desc else prof)

    return split_states(deck_months(DECK.month), free, [hand, fld],
                        (HAND_SIZE - len(hand), FIELD_SIZE - len(fld)), describe, step,
                        (False, ()))


def given_rows(groups: dict, names: dict, players: int, bakefuda="literal",
               reds_overlap="yes") -> list:
    """Rows as :func:`deal_exact`, conditional on given cards (``groups``: {deal group: cards},
    the seats ``0 .. players-1`` and the field ``players``; ``names``: group -> seat word):
    each best-teyaku rate per dealt hand (the mean over the seats, as a simulation pools them)
    and per seat (``teyaku.NAME.SEAT``, ``teyaku_score.V.SEAT``).  One seat's hand and the field
    take the free cards by the DP of :func:`_deal_states`; the other hands and the pile are
    never checked, so their share cancels."""
    from ...stats.exact_given_months import free_cards

    free = frozenset(free_cards(DECK.n, groups))
    fld = tuple(sorted(groups.get(players, ())))
    value = dict(zip(TEYAKU, TEYAKU_VALUES), none=0)
    names_t = TEYAKU + ("none",)
    per_seat, done = {}, {}
    misdeal = None
    for h in range(players):
        hand = tuple(sorted(groups.get(h, ())))
        if hand not in done:
            states = _given_states(hand, fld, free)
            tot = {False: 0, True: 0}
            by = {False: {}, True: {}}
            for (four, prof), w in states.items():
                b = _best_of(prof, bakefuda, reds_overlap)
                tot[four] += w
                by[four][b] = by[four].get(b, 0) + w
            res = {}
            for cond, keys in (("all_deals", (False, True)), ("no_misdeal", (False,))):
                n = sum(tot[k] for k in keys)
                if not n:
                    continue
                cnt = {t: sum(by[k].get(t, 0) for k in keys) for t in names_t}
                for t in names_t:
                    res[(f"teyaku.{t}", cond)] = Fraction(cnt[t], n)
                for v in SCORE_VALUES:
                    res[(f"teyaku_score.{v}", cond)] = Fraction(
                        sum(c for t, c in cnt.items() if value[t] == v), n)
            done[hand] = res
            if misdeal is None:  # the field alone decides it: the same for every seat
                misdeal = Fraction(tot[True], tot[False] + tot[True])
        per_seat[h] = done[hand]
    rows = [("misdeal_rate", "all_deals", misdeal)]
    keys = list(per_seat[0])
    for cond in ("all_deals", "no_misdeal"):
        for q, c in keys:
            if c == cond and all((q, c) in per_seat[h] for h in range(players)):
                rows.append((q, c, sum(per_seat[h][(q, c)] for h in range(players)) / players))
    for h in range(players):
        for (q, c), p in per_seat[h].items():
            rows.append((f"{q}.{names[h]}", c, p))
    return rows


@lru_cache(maxsize=None)
def _best_of(prof, bakefuda, reds_overlap):
    return best_reference(teyaku_reference(_profile_cards(prof), bakefuda, reds_overlap))


def given_table(rules, groups: dict, names: dict):
    """``hanasim exact taoshi --given``: :func:`given_rows` for every ``bakefuda`` reading
    (column ``bakefuda``, the rules' own first), as :meth:`exact_table` lays them out."""
    import numpy as np
    import pandas as pd

    from ...stats.exact import rows_table
    from .rules import BAKEFUDA_READINGS, NAME

    frames = []
    for reading in BAKEFUDA_READINGS:
        df = rows_table(given_rows(groups, names, int(rules.players), reading,
                                   rules.reds_overlap), NAME)
        df.insert(2, "bakefuda", reading)
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    key = df["bakefuda"].map(lambda r: r != rules.bakefuda)
    return df.iloc[np.argsort(key.values, kind="stable")].reset_index(drop=True)
