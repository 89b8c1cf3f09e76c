"""Exact deal-time rates of Kushiro Toppa (``hanasim exact``): the field misdeal, each teyaku
and the four-in-hand of one seated hand, by a DP over the months."""
from __future__ import annotations

from functools import lru_cache

from ... import decks
from ...decks import HANAFUDA
from .rules import FIELD_SIZE, HAND_SIZE, TEYAKU


def _tey_from_state(st, hand_size, reading, pairs):
    """Teyaku bits of a hand summarised as the DP state of :func:`deal_exact`."""
    _h, _f, exact2, ge2, halves, _four, b, a, r, nonchaff = st
    if reading == "off":
        return 0
    tp = {"exact": exact2 == 3, "at_least": exact2 >= 3, "pairs_in_sets": ge2 >= 3,
          "disjoint": halves >= 3}[pairs]
    if reading == "ten_card":
        chaff_all = nonchaff == 0
        one = nonchaff == 1
        got = (tp, one and r == 1, one and a == 1, one and b == 1, chaff_all)
    else:
        few = nonchaff <= hand_size - 7  # at least seven chaff
        got = (tp, few and r >= 1, few and a >= 1, few and b >= 1, nonchaff <= hand_size - 8)
    return sum(1 << i for i, g in enumerate(got) if g)


@lru_cache(maxsize=4)
def _deal_states(kinds) -> dict:
    """The DP of :func:`deal_exact` (its final states and their numbers of deals), computed
    once for every reading.

    Each month in two steps: the hand takes x of its cards (which ones, by kind, moves the
    hand's summary), then the field takes y of the other 4 - x.  States that the first step
    merges are carried once through the second, and each summary's moves are worked out once
    a month: about 2 CPU s instead of 4.7 (the same states and numbers, tested)."""
    from collections import defaultdict
    from itertools import combinations
    from math import comb

    H, F = HAND_SIZE, FIELD_SIZE
    # (hand size, field size, the hand's summary, a four on the field) -> deals
    dp = {(0, 0, (0, 0, 0, 0, 0, 0, 0, 0), 0): 1}
    # the field's share of a month's 4 - x other cards: (field size after, four?, ways)
    to_field = {(x, f): [(f + y, int(y == 4), comb(4 - x, y))
                         for y in range(min(4 - x, F - f) + 1)]
                for x in range(5) for f in range(F + 1)}
    for m in range(12):
        moves = defaultdict(int)  # (taken, brights, animals, ribbons) -> subsets of the month
        for x in range(5):
            for sub in combinations(range(4 * m, 4 * m + 4), x):
                moves[(x, sum(kinds[c] == decks.BRIGHT for c in sub),
                       sum(kinds[c] == decks.ANIMAL for c in sub),
                       sum(kinds[c] == decks.RIBBON for c in sub))] += 1
        after = {}  # summary -> [(x, ways, summary after)]

        def steps(su):
            e2, g2, hv, four, b, a, r, nc = su
            return [(x, ways, (min(e2 + (x == 2), 4), min(g2 + (x >= 2), 3),
                               min(hv + x // 2, 3), four | (x == 4), min(b + kb, 2),
                               min(a + ka, 2), min(r + kr, 2), min(nc + kb + ka + kr, 4)))
                    for (x, kb, ka, kr), ways in moves.items()]

        taken = defaultdict(int)  # after the hand's step: (hand size, x, field size, summary, four)
        for (h, f, su, ff), w in dp.items():
            st = after.get(su)
            if st is None:
                st = after[su] = steps(su)
            for x, ways, s2 in st:
                if h + x <= H:
                    taken[(h + x, x, f, s2, ff)] += w * ways
        dp = defaultdict(int)
        for (h, x, f, su, ff), w in taken.items():
            for f2, four, ways in to_field[x, f]:
                dp[(h, f2, su, ff | four)] += w * ways
    # (hand size, field size, e2, g2, halves, four in hand, b, a, r, non-chaff, field four)
    return {(h, f) + su + (ff,): w for (h, f, su, ff), w in dp.items()}


def deal_exact(reading="ten_card", pairs="exact", deck=HANAFUDA) -> list:
    """Exact deal-time rates as ``(quantity, condition, Fraction)`` rows: the field misdeal
    rate, each teyaku and ``any`` for one given seated hand, and ``four_in_hand_rate``, over
    all deals and over the deals that are played (no four of a month on the field).

    Only one hand and the field matter (the other hands and the draw pile are not checked), so
    a DP over the months picks the hand's cards of each month (by kind: willow cards by their
    own type) and how many of the rest go to the field; the state keeps the hand's and field's
    sizes and just enough of the hand to decide every teyaku (months with exactly two, with
    two or more, disjoint pairs, a four, bright/animal/ribbon counts capped at 2 and non-chaff
    capped at 4).  The other groups take the rest in a number of ways that does not depend on
    which cards they are, so it cancels."""
    from fractions import Fraction

    dp = _deal_states(tuple(int(k) for k in deck.kind))
    H, F = HAND_SIZE, FIELD_SIZE
    total = 0
    played = 0
    counts_all = [0] * 7  # five teyaku, any, four in hand
    counts_ok = [0] * 7
    misdeal = 0
    for key, w in dp.items():
        if key[0] != H or key[1] != F:
            continue
        st = key[:10]
        bitsv = _tey_from_state(st, H, reading, pairs)
        hits = [(bitsv >> i) & 1 for i in range(5)] + [int(bitsv != 0), key[5]]
        total += w
        for i, v in enumerate(hits):
            counts_all[i] += w * v
        if key[10]:
            misdeal += w
        else:
            played += w
            for i, v in enumerate(hits):
                counts_ok[i] += w * v
    names = [f"teyaku.{t}" for t in TEYAKU] + ["teyaku.any", "four_in_hand_rate"]
    rows = [("misdeal_rate", "all_deals", Fraction(misdeal, total))]
    for i, q in enumerate(names):
        rows.append((q, "all_deals", Fraction(counts_all[i], total)))
        rows.append((q, "no_misdeal", Fraction(counts_ok[i], played)))
    return rows


def given_rows(rules, groups: dict, names: dict, deck=HANAFUDA) -> list:
    """Rows as :func:`deal_exact`, conditional on given cards (``groups``: {deal group:
    cards}, the seats ``0 .. players-1`` and the field ``players``; ``names``: group -> seat
    word): the teyaku and four-in-hand rates per dealt hand (the mean over the seats, as a
    simulation pools them) and per seat (``teyaku.NAME.SEAT``, ``four_in_hand_rate.SEAT``).

    For one seat's hand, the field and the free cards, the same DP over the months as
    :func:`deal_exact` with the given cards placed
    (:func:`hanasim.stats.exact_given_months.split_states`); the other seats and the pile
    are never checked, so their share of the free cards cancels."""
    from fractions import Fraction

    from ...stats.exact_given_months import deck_months, free_cards, split_states

    n = int(rules.players)
    field = n
    kinds = tuple(int(k) for k in deck.kind)
    months = deck_months(deck.month)
    free = free_cards(len(kinds), groups)
    H, F = HAND_SIZE, FIELD_SIZE

    def describe(j, cards):
        if j == 1:
            return len(cards)
        return (len(cards), sum(kinds[c] == decks.BRIGHT for c in cards),
                sum(kinds[c] == decks.ANIMAL for c in cards),
                sum(kinds[c] == decks.RIBBON for c in cards))

    def step(st, descs):
        e2, g2, hv, four, b, a, r, nc, ff = st
        (x, kb, ka, kr), y = descs
        return (min(e2 + (x == 2), 4), min(g2 + (x >= 2), 3), min(hv + x // 2, 3),
                four | (x == 4), min(b + kb, 2), min(a + ka, 2), min(r + kr, 2),
                min(nc + kb + ka + kr, 4), ff | (y == 4))

    names_q = [f"teyaku.{t}" for t in TEYAKU] + ["teyaku.any", "four_in_hand_rate"]
    per_seat, done = {}, {}
    misdeal = None
    for h in range(n):
        hand, fld = tuple(sorted(groups.get(h, ()))), tuple(groups.get(field, ()))
        if hand in done:  # seats given the same cards are alike
            per_seat[h] = done[hand]
            continue
        states = split_states(months, free, [hand, fld], (H - len(hand), F - len(fld)),
                              describe, step, (0,) * 9)
        total = played = mis = 0
        c_all, c_ok = [0] * 7, [0] * 7
        for (e2, g2, hv, four, b, a, r, nc, ff), w in states.items():
            bitsv = _tey_from_state((H, F, e2, g2, hv, four, b, a, r, nc), H,
                                    rules.teyaku_reading, rules.three_pairs)
            hits = [(bitsv >> i) & 1 for i in range(5)] + [int(bitsv != 0), four]
            total += w
            for i, v in enumerate(hits):
                c_all[i] += w * v
            if ff:
                mis += w
            else:
                played += w
                for i, v in enumerate(hits):
                    c_ok[i] += w * v
        if misdeal is None:  # the field alone decides it: the same for every seat
            misdeal = Fraction(mis, total)
        per_seat[h] = done[hand] = ([Fraction(x, total) for x in c_all],
                                    [Fraction(x, played) for x in c_ok] if played else None)
    rows = [("misdeal_rate", "all_deals", misdeal)]
    played_any = all(v[1] is not None for v in per_seat.values())
    for i, q in enumerate(names_q):
        rows.append((q, "all_deals", sum(per_seat[h][0][i] for h in range(n)) / n))
        if played_any:
            rows.append((q, "no_misdeal", sum(per_seat[h][1][i] for h in range(n)) / n))
    for h in range(n):
        for i, q in enumerate(names_q):
            rows.append((f"{q}.{names[h]}", "all_deals", per_seat[h][0][i]))
            if per_seat[h][1] is not None:
                rows.append((f"{q}.{names[h]}", "no_misdeal", per_seat[h][1][i]))
    return rows


def given_table(rules, groups: dict, names: dict):
    """``hanasim exact kushiro_toppa --given``: :func:`given_rows` as a tidy table."""
    from ...stats.exact import rows_table
    from .rules import NAME

    return rows_table(given_rows(rules, groups, names), NAME)
