"""Ishikari Toppa's exact deal odds given cards (``hanasim exact ishikari_toppa --given``).

Hachi-hachi's teyaku (the default list): one seat's hand and the field take the free cards by a
DP over the months (:func:`hanasim.stats.exact_given_months.split_states`), the hand summarised
as :func:`hachihachi.exact_rows` summarises it and the field by whether it holds a four (the
misdeal); the other hands and the pile are never checked, so their share cancels.  The Toppa
list and no teyaku: the deal as a :class:`hanasim.stats.exact.DealSpec` of every seat, the field
and the pile (:func:`hanasim.stats.exact_given.given_probabilities`).
"""
from __future__ import annotations

from fractions import Fraction

from ...decks import HANAFUDA
from .hachihachi import GROUP_A, GROUP_B, NAMES, STANDING, group_a, group_b
from .rules import FIELD, HAND, NAME


def _describe_hand(cards):
    """(cards, brights, animals, ribbons, a standing triplet) of a hand's cards of one month
    (willow as chaff), as :func:`hachihachi.exact_rows` enumerates them."""
    if not cards:
        return (0, 0, 0, 0, False)
    m = int(HANAFUDA.month[cards[0]]) - 1
    kinds = [3 if m == 10 else int(HANAFUDA.kind[c]) for c in cards]
    k = len(cards)
    standing = k == 3 and (m in STANDING or (m == 11 and 44 not in cards))
    return (k, kinds.count(0), kinds.count(1), kinds.count(2), standing)


def _step(st, descs):
    n2, n3, n3s, n4, nn, nb, na, nr, ff = st
    (k, b, a, r, standing), y = descs
    return (min(n2 + (k == 2), 3), min(n3 + (k == 3 and not standing), 2),
            min(n3s + (k == 3 and standing), 2), min(n4 + (k == 4), 1), nn + b + a + r,
            min(nb + b, 2), min(na + a, 2), min(nr + r, 2), ff or y == 4)


def hachihachi_given_rows(groups: dict, names: dict, players: int) -> list:
    """Rows as :func:`hachihachi.exact_rows` given cards (``groups``: {deal group: cards},
    seats ``0 .. players-1``, the field ``players``), per dealt hand (the mean over the seats)
    and per seat (``teyaku.NAME.SEAT``)."""
    from ...stats.exact_given_months import deck_months, free_cards, split_states

    free = free_cards(HANAFUDA.n, groups)
    months = deck_months(HANAFUDA.month)
    fld = tuple(sorted(groups.get(players, ())))
    qs = NAMES + ("any",)
    per_seat, done = {}, {}
    misdeal = None
    for h in range(players):
        hand = tuple(sorted(groups.get(h, ())))
        if hand not in done:
            states = split_states(
                months, free, [hand, fld], (HAND - len(hand), FIELD - len(fld)),
                lambda j, cards: len(cards) if j else _describe_hand(cards), _step,
                (0,) * 8 + (False,))
            held = {q: [0, 0] for q in qs}
            total = played = 0
            for (n2, n3, n3s, n4, nn, nb, na, nr, ff), w in states.items():
                a = group_a(n2, n3, n3s, n4)
                b = group_b(nb, na, nr, HAND - nn)
                got = ([GROUP_A[a]] if a >= 0 else []) + ([GROUP_B[b]] if b >= 0 else [])
                total += w
                played += 0 if ff else w
                for q in got + (["any"] if got else []):
                    held[q][0] += w
                    held[q][1] += 0 if ff else w
            done[hand] = ({q: Fraction(v[0], total) for q, v in held.items()},
                          {q: Fraction(v[1], played) for q, v in held.items()}
                          if played else None)
            if misdeal is None:  # the field alone decides it: the same for every seat
                misdeal = 1 - Fraction(played, total)
        per_seat[h] = done[hand]
    rows = [("misdeal_rate", "all_deals", misdeal)]
    every = all(per_seat[h][1] is not None for h in range(players))
    for q in qs:
        rows.append((f"teyaku.{q}", "all_deals",
                     sum(per_seat[h][0][q] for h in range(players)) / players))
        if every:
            rows.append((f"teyaku.{q}", "no_misdeal",
                         sum(per_seat[h][1][q] for h in range(players)) / players))
    for h in range(players):
        for q in qs:
            rows.append((f"teyaku.{q}.{names[h]}", "all_deals", per_seat[h][0][q]))
            if per_seat[h][1] is not None:
                rows.append((f"teyaku.{q}.{names[h]}", "no_misdeal", per_seat[h][1][q]))
    return rows


def given_table(rules, groups: dict, names: dict):
    """``hanasim exact ishikari_toppa --given``: the odds of the rules' teyaku list given
    cards, as a tidy table."""
    from ...stats.exact import DealSpec, rows_table
    from ...stats.exact_given import given_probabilities
    from .. import toppa

    n = int(rules.players)
    if rules.teyaku == "hachihachi":
        return rows_table(hachihachi_given_rows(groups, names, n), NAME)
    spec = DealSpec(month=HANAFUDA.month, kind=HANAFUDA.kind,
                    group_sizes=(HAND,) * n + (FIELD, HANAFUDA.n - n * HAND - FIELD),
                    hand_groups=tuple(range(n)), misdeal_groups=(n,),
                    teyaku=toppa.teyaku_specs(HAND) if rules.teyaku == "toppa" else ())
    return rows_table(given_probabilities(spec, groups, names), NAME)
