"""Koi-koi's exact deal odds given cards (``hanasim exact koikoi --given``).

The same questions as :func:`hanasim.stats.exact.koikoi_deal_probabilities` (the misdeal, the
lucky hands of one dealt hand, the 20-point cards on the field) with the given cards placed and
the free cards dealt uniformly: both hands and the field take the free cards by a DP over the
months (:func:`hanasim.stats.exact_given_months.split_states`), each group summarised by
whether some month is complete in it and whether some month is odd in it; the draw pile is never
checked, so its share cancels.  Given cards break the hands' symmetry, so both are tracked
(the unconditioned count keeps only the sorted pair).
"""
from __future__ import annotations

from fractions import Fraction

from ... import decks
from .lower import misdeal_flags
from .rules import NAME
from .yaku import _D

FIELD_SIZE = 8
TEYAKU = ("four_of_a_kind", "four_pairs", "any")


def _groups_step(st, descs):
    (a4, ao, b4, bo, f4, fo, br) = st
    xa, xb, (xf, bf) = descs
    return (a4 or xa == 4, ao or xa % 2 == 1, b4 or xb == 4, bo or xb % 2 == 1,
            f4 or xf == 4, fo or xf % 2 == 1, br + bf)


def given_rows(rules, groups: dict, names: dict) -> list:
    """Rows as :func:`hanasim.stats.exact.koikoi_deal_probabilities`, conditional on given
    cards (``groups``: {0: the dealer's, 1: the opponent's, 2: the field's}; ``names``: group
    -> seat word): the lucky hands per dealt hand (the mean of the two, as a simulation pools
    them) and per seat (``teyaku.NAME.SEAT``)."""
    from ...stats.exact_given_months import deck_months, free_cards, split_states

    flags = misdeal_flags(rules)
    hand = int(rules.hand_size)
    bright = tuple(int(k) == decks.BRIGHT for k in _D.kind)
    given = [tuple(sorted(groups.get(g, ()))) for g in (0, 1, 2)]
    caps = (hand - len(given[0]), hand - len(given[1]), FIELD_SIZE - len(given[2]))

    def describe(j, cards):
        return (len(cards), sum(bright[c] for c in cards)) if j == 2 else len(cards)

    states = split_states(deck_months(_D.month), free_cards(_D.n, groups), given, caps,
                          describe, _groups_step, (False,) * 6 + (0,))
    n_br = sum(bright)
    total = played = 0
    tey = {c: [[0] * 3, [0] * 3] for c in ("all_deals", "no_misdeal")}
    fb = {c: [0] * (n_br + 1) for c in ("all_deals", "no_misdeal")}
    for (a4, ao, b4, bo, f4, fo, br), w in states.items():
        mis = ((flags["field_four_misdeal"] and f4) or (flags["field_pairs_misdeal"] and not fo)
               or (flags["hand_four_misdeal"] and (a4 or b4))
               or (flags["hand_pairs_misdeal"] and (not ao or not bo)))
        total += w
        played += 0 if mis else w
        for c in ("all_deals",) if mis else ("all_deals", "no_misdeal"):
            for s, (four, odd) in enumerate(((a4, ao), (b4, bo))):
                tey[c][s][0] += w * four
                tey[c][s][1] += w * (not odd)
                tey[c][s][2] += w * (four or not odd)
            fb[c][br] += w
    conds = ("all_deals", "no_misdeal") if played else ("all_deals",)
    den = {"all_deals": total, "no_misdeal": played}
    rows = [("misdeal_rate", "all_deals", 1 - Fraction(played, total))]
    for j, t in enumerate(TEYAKU):
        for c in conds:
            rows.append((f"teyaku.{t}", c, Fraction(tey[c][0][j] + tey[c][1][j], 2 * den[c])))
    for k in range(n_br + 1):
        for c in conds:
            rows.append((f"field_brights.{k}", c, Fraction(fb[c][k], den[c])))
    for s in (0, 1):
        for j, t in enumerate(TEYAKU):
            for c in conds:
                rows.append((f"teyaku.{t}.{names[s]}", c, Fraction(tey[c][s][j], den[c])))
    return rows


def given_table(rules, groups: dict, names: dict):
    """``hanasim exact koikoi --given``: :func:`given_rows` as a tidy table."""
    from ...stats.exact import rows_table

    return rows_table(given_rows(rules, groups, names), NAME)
