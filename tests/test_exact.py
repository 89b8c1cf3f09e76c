"""Tests for :mod:`hanasim.stats.exact` (exact deal-time probabilities).

Three independent checks: brute-force enumeration of every deal of small decks, closed forms /
inclusion-exclusion on the real 48-card deck, and a seeded Monte Carlo of Toppa deals.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb, factorial

import numpy as np
import pytest

from hanasim.decks import ANIMAL, BRIGHT, CHAFF, HANAFUDA, RIBBON
from hanasim.stats.exact import DealSpec, TeyakuSpec, deal_probabilities, exact_table

B, A, R, C = BRIGHT, ANIMAL, RIBBON, CHAFF


# --------------------------------------------------------------------------- brute force
def _deck(months):
    """Deck arrays from a list of per-month kind lists."""
    month, kind = [], []
    for m, kinds in enumerate(months, start=1):
        month += [m] * len(kinds)
        kind += kinds
    return np.array(month, dtype=np.int8), np.array(kind, dtype=np.int8)


def _brute(spec: DealSpec):
    """Rows like deal_probabilities, by enumerating every assignment of cards to groups."""
    month, kind = spec.month.tolist(), spec.kind.tolist()
    all_months = sorted(set(month))
    n_kinds = 4

    @lru_cache(maxsize=None)
    def features(cards):
        per_month = Counter(month[c] for c in cards)
        counts = [per_month.get(m, 0) for m in all_months]
        mis = max(counts) >= spec.misdeal_count
        kc = tuple(sum(1 for c in cards if kind[c] == k) for k in range(n_kinds))
        hits = []
        for t in spec.teyaku:
            if t.kind == "month_count":
                hits.append(sum(1 for v in counts if v == t.count) >= t.min_months)
            else:
                hits.append(kc == tuple(t.kinds))
        hits.append(any(hits))
        return mis, tuple(hits)

    sizes = spec.group_sizes
    tally = Counter()

    def rec(g, remaining, mis, hands):
        if g == len(sizes) - 1:
            chosen = [tuple(remaining)]
        else:
            chosen = combinations(remaining, sizes[g])
        for cards in chosen:
            f_mis, f_hits = features(cards)
            m2 = mis or (g in spec.misdeal_groups and f_mis)
            h2 = hands + (f_hits,) if g in spec.hand_groups else hands
            if g == len(sizes) - 1:
                tally[(m2, h2)] += 1
            else:
                s = set(cards)
                rec(g + 1, [c for c in remaining if c not in s], m2, h2)

    rec(0, list(range(len(month))), False, ())
    total = sum(tally.values())
    played = sum(w for (m, _), w in tally.items() if not m)
    rows = [("misdeal_rate", "all_deals", Fraction(total - played, total))]
    names = [t.name for t in spec.teyaku] + ["any"]
    n_h = len(spec.hand_groups)
    for j, name in enumerate(names):
        all_hits = sum(w * sum(h[j] for h in hands) for (m, hands), w in tally.items())
        ok_hits = sum(w * sum(h[j] for h in hands) for (m, hands), w in tally.items() if not m)
        rows.append((f"teyaku.{name}", "all_deals", Fraction(all_hits, total * n_h)))
        if played:
            rows.append((f"teyaku.{name}", "no_misdeal", Fraction(ok_hits, played * n_h)))
    return rows


MC = TeyakuSpec  # short alias for the case table

DECK_A = _deck([[B, R, C, C], [A, R, C, C], [B, A, C, C]])           # 3 months x 4
DECK_B = _deck([[B, A, R, C, C], [A, R, C], [B, C]])                 # 5, 3, 2 cards a month
DECK_C = _deck([[B, R, C], [A, C, C], [R, C], [B, A]])               # 3, 3, 2, 2 cards a month

CASES = {
    # Equal hands, field checked too, misdeal on 3 of a month; count=0 tallies absent months.
    "A_equal_hands": DealSpec(
        *DECK_A, group_sizes=(3, 3, 2, 4), hand_groups=(0, 1), misdeal_groups=(0, 1, 2),
        misdeal_count=3,
        teyaku=(MC("triplet", "month_count", count=3), MC("pair", "month_count", count=2),
                MC("void2", "month_count", count=0, min_months=2),
                MC("one_ribbon", "kind_counts", kinds=(0, 0, 1, 2)),
                MC("empty_hand", "kind_counts", kinds=(0, 0, 0, 3)))),
    # Hands of different sizes (averaged), min_months > 1, a pattern impossible for one hand.
    "A_unequal_hands": DealSpec(
        *DECK_A, group_sizes=(4, 3, 2, 3), hand_groups=(0, 1), misdeal_groups=(0, 1, 2),
        misdeal_count=3,
        teyaku=(MC("two_pairs", "month_count", count=2, min_months=2),
                MC("two_singles", "month_count", count=1, min_months=2),
                MC("one_bright", "kind_counts", kinds=(1, 0, 0, 3)),
                MC("bright_animal", "kind_counts", kinds=(1, 1, 0, 1)))),
    # Months of 5/3/2 cards; hand 0 unchecked, hand 1 checked (same size, not exchangeable).
    "B_uneven_months": DealSpec(
        *DECK_B, group_sizes=(3, 3, 2, 2), hand_groups=(0, 1), misdeal_groups=(1, 2),
        misdeal_count=3,
        teyaku=(MC("triplet", "month_count", count=3), MC("quad", "month_count", count=4),
                MC("pair", "month_count", count=2),
                MC("ribbon_chaff", "kind_counts", kinds=(0, 0, 1, 2)),
                MC("mixed", "kind_counts", kinds=(1, 1, 1, 0)))),
    # Every group checked (no unchecked group to absorb the rest), equal-size groups.
    "C_all_checked": DealSpec(
        *DECK_C, group_sizes=(2, 2, 2, 2, 2), hand_groups=(0, 1, 2),
        misdeal_groups=(0, 1, 2, 3, 4), misdeal_count=2,
        teyaku=(MC("pair", "month_count", count=2),
                MC("two_singles", "month_count", count=1, min_months=2),
                MC("ribbon_chaff", "kind_counts", kinds=(0, 0, 1, 1)),
                MC("two_chaff", "kind_counts", kinds=(0, 0, 0, 2)))),
    # Default misdeal count 4 on a 5-card month; field unchecked, draw pile checked.
    "B_misdeal4": DealSpec(
        *DECK_B, group_sizes=(4, 2, 4), hand_groups=(0,), misdeal_groups=(0, 2),
        teyaku=(MC("triplet", "month_count", count=3),
                MC("four_chaffless", "kind_counts", kinds=(1, 1, 1, 1)))),
    # Two exchangeable hands and a smaller third one: the average must weight hand classes.
    "C_three_hands": DealSpec(
        *DECK_C, group_sizes=(3, 3, 2, 2), hand_groups=(0, 1, 2), misdeal_groups=(0, 1, 2),
        misdeal_count=3,
        teyaku=(MC("pair", "month_count", count=2),
                MC("ribbon_chaff", "kind_counts", kinds=(0, 0, 1, 1)),
                MC("ribbon_2chaff", "kind_counts", kinds=(0, 0, 1, 2)))),
    # No misdeal check at all.
    "A_no_misdeal_groups": DealSpec(
        *DECK_A, group_sizes=(5, 7), hand_groups=(0,), misdeal_groups=(),
        teyaku=(MC("triplet", "month_count", count=3),
                MC("chaffy", "kind_counts", kinds=(0, 0, 1, 4)))),
}


@lru_cache(maxsize=None)
def _brute_case(name):
    return _brute(CASES[name])


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_brute_force(name):
    got = deal_probabilities(CASES[name])
    want = _brute_case(name)
    assert [(q, c) for q, c, _ in got] == [(q, c) for q, c, _ in want]
    for (q, c, p), (_, _, p_want) in zip(got, want):
        assert isinstance(p, Fraction)
        assert p == p_want, (q, c, p, p_want)


def test_brute_force_cases_are_not_trivial():
    # Guard against a case table that would pass vacuously (all zeros or no misdeals).
    for name in CASES:
        rows = _brute_case(name)
        assert any(0 < p < 1 for q, _, p in rows if q.startswith("teyaku.")), name
    assert _brute_case("A_equal_hands")[0][2] > 0


# --------------------------------------------------------------------------- real deck
def _teyaku(n):
    """Toppa teyaku for an n-card hand (seed 000, "Checking for Teyaku")."""
    return (TeyakuSpec("triplet", "month_count", count=3),
            TeyakuSpec("one_ribbon", "kind_counts", kinds=(0, 0, 1, n - 1)),
            TeyakuSpec("one_animal", "kind_counts", kinds=(0, 1, 0, n - 1)),
            TeyakuSpec("one_bright", "kind_counts", kinds=(1, 0, 0, n - 1)),
            TeyakuSpec("empty_hand", "kind_counts", kinds=(0, 0, 0, n)))


# Seed 000, "Distributing the Initial Cards": Toppa 10/10 + 8 on the field, Baka 7/7/7 + 6;
# four of a month in a hand or on the field is a misdeal.
TOPPA = DealSpec(HANAFUDA.month, HANAFUDA.kind, group_sizes=(10, 10, 8, 20), hand_groups=(0, 1),
                 misdeal_groups=(0, 1, 2), teyaku=_teyaku(10))
BAKA = DealSpec(HANAFUDA.month, HANAFUDA.kind, group_sizes=(7, 7, 7, 6, 21),
                hand_groups=(0, 1, 2), misdeal_groups=(0, 1, 2, 3), teyaku=_teyaku(7))


REAL = {"toppa": TOPPA, "baka": BAKA}


@lru_cache(maxsize=None)
def _exact(name):
    return {(q, c): p for q, c, p in deal_probabilities(REAL[name])}


@pytest.fixture(scope="module")
def toppa_rows():
    return _exact("toppa")


@pytest.fixture(scope="module")
def baka_rows():
    return _exact("baka")


def _misdeal_inclusion_exclusion(sizes, checked, n_months=12, per_month=4):
    """P(some checked group holds a whole month), by inclusion-exclusion over (group, month)."""
    n = n_months * per_month
    sizes = list(sizes)
    total = factorial(n)
    for s in sizes:
        total //= factorial(s)
    p = Fraction(0)

    def rec(i, ks):
        nonlocal p
        if i == len(checked):
            k = sum(ks)
            if k == 0:
                return
            # Choose which months go (whole) to which group: disjoint by construction.
            months = factorial(n_months) // factorial(n_months - k)
            for kg in ks:
                months //= factorial(kg)
            rest = [s - per_month * ks[checked.index(g)] if g in checked else s
                    for g, s in enumerate(sizes)]
            ways = factorial(n - per_month * k)
            for s in rest:
                ways //= factorial(s)
            p += (-1) ** (k + 1) * Fraction(months * ways, total)
            return
        for kg in range(sizes[checked[i]] // per_month + 1):
            if sum(ks) + kg <= n_months:
                rec(i + 1, ks + [kg])

    rec(0, [])
    return p


@pytest.mark.parametrize("name", sorted(REAL))
def test_misdeal_inclusion_exclusion(name):
    spec = REAL[name]
    p = _exact(name)[("misdeal_rate", "all_deals")]
    assert p == _misdeal_inclusion_exclusion(spec.group_sizes, list(spec.misdeal_groups))
    # Single-group union bound, with P(group of n holds a month) <= 12 C(44, n-4) / C(48, n).
    bound = sum(12 * Fraction(comb(44, spec.group_sizes[g] - 4), comb(48, spec.group_sizes[g]))
                for g in spec.misdeal_groups)
    assert 0 < p <= bound


def test_toppa_sanity(toppa_rows):
    names = [t.name for t in TOPPA.teyaku]
    for cond in ("all_deals", "no_misdeal"):
        each = [toppa_rows[(f"teyaku.{n}", cond)] for n in names]
        anyp = toppa_rows[("teyaku.any", cond)]
        assert all(0 <= p <= 1 for p in each + [anyp])
        assert max(each) <= anyp <= sum(each)
    assert 0 <= toppa_rows[("misdeal_rate", "all_deals")] <= 1
    assert ("misdeal_rate", "no_misdeal") not in toppa_rows


def test_toppa_closed_forms(toppa_rows):
    # The deck has 24 chaff, 5 brights, 9 animals and 10 ribbons (willow counted by its kind).
    hands = comb(48, 10)
    assert toppa_rows[("teyaku.empty_hand", "all_deals")] == Fraction(comb(24, 10), hands)
    assert toppa_rows[("teyaku.one_bright", "all_deals")] == Fraction(5 * comb(24, 9), hands)
    assert toppa_rows[("teyaku.one_animal", "all_deals")] == Fraction(9 * comb(24, 9), hands)
    assert toppa_rows[("teyaku.one_ribbon", "all_deals")] == Fraction(10 * comb(24, 9), hands)


def test_baka_closed_forms_and_hand_average(baka_rows):
    hands = comb(48, 7)
    assert baka_rows[("teyaku.empty_hand", "all_deals")] == Fraction(comb(24, 7), hands)
    assert baka_rows[("teyaku.one_bright", "all_deals")] == Fraction(5 * comb(24, 6), hands)
    # The three hands are exchangeable, so tracking any one of them gives the same answer.
    one = {(q, c): p for q, c, p in deal_probabilities(
        DealSpec(BAKA.month, BAKA.kind, BAKA.group_sizes, (2,), BAKA.misdeal_groups,
                 teyaku=BAKA.teyaku))}
    assert one == baka_rows


def test_exact_table_format():
    df = exact_table(TOPPA, "toppa")
    assert list(df.columns) == ["game", "quantity", "condition", "fraction", "value"]
    assert (df.game == "toppa").all()
    assert len(df) == 1 + 2 * (len(TOPPA.teyaku) + 1)
    for frac, value in zip(df.fraction, df.value):
        assert float(Fraction(frac)) == pytest.approx(value, rel=1e-12)


# --------------------------------------------------------------------------- Monte Carlo
def test_toppa_monte_carlo(toppa_rows):
    n = 200_000
    rng = np.random.default_rng(1)
    perm = rng.random((n, 48)).argsort(axis=1)
    months = HANAFUDA.month[perm]
    bounds = np.cumsum((0,) + TOPPA.group_sizes)
    per_group = [(months[:, bounds[g]:bounds[g + 1], None] == np.arange(1, 13)).sum(axis=1)
                 for g in range(3)]
    misdeal = np.zeros(n, dtype=bool)
    for g in TOPPA.misdeal_groups:
        misdeal |= (per_group[g] >= 4).any(axis=1)
    triplet = (per_group[0] == 3).any(axis=1)

    p = float(toppa_rows[("misdeal_rate", "all_deals")])
    se = np.sqrt(p * (1 - p) / n)
    assert abs(misdeal.mean() - p) < 4 * se

    played = ~misdeal
    p = float(toppa_rows[("teyaku.triplet", "no_misdeal")])
    se = np.sqrt(p * (1 - p) / played.sum())
    assert abs(triplet[played].mean() - p) < 4 * se
