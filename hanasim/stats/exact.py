"""Exact deal-time probabilities by combinatorics.

A deal shuffles the deck uniformly and cuts it into groups of fixed sizes (hands, field, draw
pile), so every assignment of cards to groups with those sizes is equally likely.  This module
counts such assignments exactly -- without enumerating deals -- to give the misdeal rate and the
probability that a dealt hand holds a teyaku (hand yaku), both over all deals and over the deals
that are actually played (no misdeal).

Rule source for Toppa and Baka: the Toppa rule page (``shared/seeds/000_a569c68da0494d09.txt``;
"Distributing the Initial Cards": Toppa deals 10/10 cards to the players and 8 to the field, Baka
7/7/7 and 6; four cards of one month in a hand or on the field is a misdeal and the deal is
redone; "Checking for Teyaku": triplet, one ribbon / animal / bright with nine chaff, empty hand).

Method
------
The count factorises in two stages around one tracked hand ``h``:

1. Dynamic programming over the months chooses the tracked hand's cards.  A month whose cards of
   kind ``k`` number ``c_k`` gives the hand ``x_k`` of them in ``prod_k C(c_k, x_k)`` ways.  The
   state holds the hand's card count, just enough of its composition to decide the teyaku (kind
   counts capped at one above the largest pattern value, one kind derived from the hand size;
   per-``count`` tallies of months capped at ``min_months``) and, for the no-misdeal count, the
   multiset of numbers of cards of each month left for the other groups.
2. The number of ways ``W`` to deal those leftover cards to the other groups without a misdeal
   depends only on that multiset.  It is another DP over months whose state is the number of cards
   each misdeal group has received; groups that are neither tracked nor checked for misdeals are
   merged into one implicit group (an exact relabelling: each merged assignment stands for the same
   number of unmerged ones, in the numerator and the denominator alike), equal-size checked groups
   are interchangeable so their counts are kept sorted, and DP vectors are memoised by prefix of
   the month sequence, which different multisets share.

Everything is an exact integer; probabilities are :class:`fractions.Fraction`.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import comb
from operator import add, gt

import numpy as np
import pandas as pd

ALL_DEALS = "all_deals"
NO_MISDEAL = "no_misdeal"


@dataclass(frozen=True)
class TeyakuSpec:
    """A hand pattern (teyaku) decided at deal time.

    Attributes
    ----------
    name : str
        Quantity suffix, e.g. ``"triplet"`` gives ``"teyaku.triplet"``.
    kind : {"month_count", "kind_counts"}
    count, min_months : int
        ``month_count``: the hand holds at least ``min_months`` months with exactly ``count``
        cards of that month.
    kinds : tuple of int
        ``kind_counts``: the hand's numbers of (bright, animal, ribbon, chaff) cards are exactly
        this tuple.
    """

    name: str
    kind: str
    count: int = 0
    min_months: int = 1
    kinds: tuple = ()


@dataclass(frozen=True)
class DealSpec:
    """How a game deals, and what is checked right after the deal.

    Attributes
    ----------
    month, kind : ndarray
        Per card: 1-based month, kind 0..3 (as in :mod:`hanasim.decks`).
    group_sizes : tuple of int
        Sizes of the groups the shuffled deck is cut into; they sum to the deck size.
    hand_groups : tuple of int
        Indices of the groups that are players' hands.
    misdeal_groups : tuple of int
        The deal is a misdeal if one of these groups holds ``>= misdeal_count`` cards of one month.
    misdeal_count : int
    teyaku : tuple of TeyakuSpec
    """

    month: np.ndarray
    kind: np.ndarray
    group_sizes: tuple
    hand_groups: tuple
    misdeal_groups: tuple
    misdeal_count: int = 4
    teyaku: tuple = ()


def _multinomial(n: int, parts) -> int:
    out, rest = 1, n
    for p in parts:
        out *= comb(rest, p)
        rest -= p
    return out


class _TeyakuPlan:
    """The compressed hand state needed to decide a list of teyaku, and its update rules."""

    def __init__(self, teyaku, month_kind_counts):
        self.teyaku = tuple(teyaku)
        # Month-count patterns: one tally per distinct `count`, capped at the largest
        # `min_months` asked for it (more months never changes an "at least" answer).
        caps = {}
        for t in self.teyaku:
            if t.kind == "month_count":
                caps[t.count] = max(caps.get(t.count, 0), t.min_months)
            elif t.kind != "kind_counts":
                raise ValueError(f"teyaku {t.name!r}: unknown kind {t.kind!r}")
        self.count_values = tuple(sorted(caps))
        self.count_caps = tuple(caps[c] for c in self.count_values)
        self.count_index = {c: i for i, c in enumerate(self.count_values)}

        patterns = [tuple(int(v) for v in t.kinds) for t in self.teyaku if t.kind == "kind_counts"]
        n_kinds = len(month_kind_counts[0]) if month_kind_counts else 0
        if any(len(p) != n_kinds for p in patterns):
            raise ValueError(f"kind_counts patterns must have {n_kinds} entries")
        if patterns:
            # Cap each kind at max+1 ("more than any pattern wants"); the kind with the widest
            # range (chaff, normally) is not tracked but derived from the final hand size.
            kcaps = [max(p[k] for p in patterns) + 1 for k in range(n_kinds)]
            self.derived = max(range(n_kinds), key=lambda k: (kcaps[k], k))
            self.tracked = tuple(k for k in range(n_kinds) if k != self.derived)
            self.kind_caps = tuple(kcaps[k] for k in self.tracked)
        else:
            self.derived, self.tracked, self.kind_caps = None, (), ()
        self._steps = {}  # the state space is tiny, so memoise transitions

    def initial(self):
        return (0,) * len(self.count_values), (0,) * len(self.tracked)

    def month_moves(self, kind_counts, max_take):
        """Aggregated ways the tracked hand can take cards of one month.

        Returns a list of ``(taken, tracked_kind_increments, ways)``.
        """
        moves = defaultdict(int)
        for x in product(*(range(c + 1) for c in kind_counts)):
            h = sum(x)
            if h > max_take:
                continue
            ways = 1
            for c, xi in zip(kind_counts, x):
                ways *= comb(c, xi)
            moves[(h, tuple(x[k] for k in self.tracked))] += ways
        return [(h, inc, w) for (h, inc), w in moves.items()]

    def step(self, tallies, kinds, taken, inc):
        """Hand state after taking ``taken`` cards of a month (tracked kinds ``inc``)."""
        key = (tallies, kinds, taken, inc)
        got = self._steps.get(key)
        if got is None:
            got = self._steps[key] = self._step(tallies, kinds, taken, inc)
        return got

    def _step(self, tallies, kinds, taken, inc):
        i = self.count_index.get(taken)
        if i is not None and tallies[i] < self.count_caps[i]:
            tallies = tallies[:i] + (tallies[i] + 1,) + tallies[i + 1:]
        if inc:
            kinds = tuple(min(k + d, cap) for k, d, cap in zip(kinds, inc, self.kind_caps))
        return tallies, kinds

    def matches(self, tallies, kinds, hand_size):
        """Tuple of booleans, one per teyaku, for a complete hand."""
        out = []
        for t in self.teyaku:
            if t.kind == "month_count":
                out.append(tallies[self.count_index[t.count]] >= t.min_months)
            else:
                want = tuple(int(v) for v in t.kinds)
                ok = all(kinds[j] == want[k] for j, k in enumerate(self.tracked))
                # Tracked counts equal to a pattern value are exact (below the cap), so the
                # derived count is exact too.
                out.append(ok and hand_size - sum(kinds) == want[self.derived])
        return tuple(out)


class _OthersModel:
    """Counts ways to deal leftover month cards to the non-tracked groups without a misdeal."""

    def __init__(self, sizes, is_misdeal, misdeal_count):
        checked = sorted(s for s, m in zip(sizes, is_misdeal) if m)
        free = sum(s for s, m in zip(sizes, is_misdeal) if not m)
        has_free = any(not m for m in is_misdeal)
        if has_free or not checked:
            self.implicit_size, self.implicit_cap = free, None
        else:
            # No unchecked group to absorb the remainder: one checked group becomes implicit.
            self.implicit_size, self.implicit_cap = checked.pop(), misdeal_count - 1
        self.sizes = tuple(checked)
        self.cap = misdeal_count - 1
        # Equal-size checked groups are interchangeable: keep their counts sorted.
        self.blocks = []
        start = 0
        for i in range(1, len(checked) + 1):
            if i == len(checked) or checked[i] != checked[start]:
                self.blocks.append((start, i))
                start = i
        self.merged_sizes = self.sizes + (self.implicit_size,)
        self._moves = {}
        self._prefix = {(): {(0,) * len(self.sizes): 1}}

    def _canon(self, state):
        if len(self.blocks) == len(state):
            return state
        out = []
        for a, b in self.blocks:
            out.extend(sorted(state[a:b]))
        return tuple(out)

    def moves(self, r):
        """``(cards per explicit group, their sum, ways)`` for a month with ``r`` leftover cards."""
        if r not in self._moves:
            out = []
            n = len(self.sizes)

            def rec(i, left, acc):
                if i == n:
                    if self.implicit_cap is None or left <= self.implicit_cap:
                        out.append((tuple(acc), r - left, _multinomial(r, acc)))
                    return
                for t in range(min(left, self.cap, self.sizes[i]) + 1):
                    acc.append(t)
                    rec(i + 1, left - t, acc)
                    acc.pop()

            rec(0, r, [])
            self._moves[r] = out
        return self._moves[r]

    def _dp(self, prefix):
        got = self._prefix.get(prefix)
        if got is not None:
            return got
        prev = self._dp(prefix[:-1])
        # The implicit group only grows, so overfilling it can never be undone: the explicit
        # groups must have received at least `least` cards once this month is dealt.
        least = sum(prefix) - self.implicit_size
        sizes, canon, moves = self.sizes, self._canon, self.moves(prefix[-1])
        new = defaultdict(int)
        for state, w in prev.items():
            base = sum(state)
            for t, t_sum, ways in moves:
                if base + t_sum < least:
                    continue
                s = tuple(map(add, state, t))
                if any(map(gt, s, sizes)):
                    continue
                new[canon(s)] += w * ways
        self._prefix[prefix] = dict(new)
        return self._prefix[prefix]

    def ways(self, leftover):
        """Ways for a multiset of per-month leftover counts (``leftover[r]`` months with r cards)."""
        # Descending order puts the untouched (full) months first, the longest shared prefix.
        seq = tuple(r for r in range(len(leftover) - 1, 0, -1) for _ in range(leftover[r]))
        if sum(seq) != sum(self.merged_sizes):
            return 0
        return self._dp(seq).get(self._canon(self.sizes), 0)


def _hand_pass(months, plan, hand_size, max_take, track_leftover):
    """DP over months choosing the tracked hand; returns {(tallies, kinds, leftover): ways}."""
    max_n = max(sum(k) for k in months)
    suffix = [0] * (len(months) + 1)
    for i in range(len(months) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + sum(months[i])
    tallies0, kinds0 = plan.initial()
    hist0 = (0,) * (max_n + 1) if track_leftover else ()
    dp = {(0, tallies0, kinds0, hist0): 1}
    for i, kc in enumerate(months):
        n_m = sum(kc)
        moves = plan.month_moves(kc, max_take)
        new = defaultdict(int)
        for (cnt, tal, kin, hist), w in dp.items():
            for taken, inc, ways in moves:
                c = cnt + taken
                # Skip states that overfill the hand or can no longer fill it.
                if c > hand_size or c + suffix[i + 1] < hand_size:
                    continue
                t2, k2 = plan.step(tal, kin, taken, inc)
                if track_leftover:
                    r = n_m - taken
                    h2 = hist[:r] + (hist[r] + 1,) + hist[r + 1:]
                else:
                    h2 = hist
                new[(c, t2, k2, h2)] += w * ways
        dp = new
    out = defaultdict(int)
    for (cnt, tal, kin, hist), w in dp.items():
        out[(tal, kin, hist)] += w
    return out


def _validate(spec: DealSpec):
    month = np.asarray(spec.month)
    kind = np.asarray(spec.kind)
    if month.shape != kind.shape or month.ndim != 1:
        raise ValueError("month and kind must be 1-d arrays of equal length")
    if sum(spec.group_sizes) != len(month) or min(spec.group_sizes, default=0) < 0:
        raise ValueError(f"group sizes {spec.group_sizes} do not split a deck of {len(month)}")
    n_groups = len(spec.group_sizes)
    for g in tuple(spec.hand_groups) + tuple(spec.misdeal_groups):
        if not 0 <= g < n_groups:
            raise ValueError(f"group index {g} out of range")
    if spec.teyaku and not spec.hand_groups:
        raise ValueError("teyaku need at least one hand group")
    if len({t.name for t in spec.teyaku}) != len(spec.teyaku):
        raise ValueError("teyaku names must be unique")
    return month, kind


def deal_probabilities(spec: DealSpec) -> list[tuple[str, str, Fraction]]:
    """Exact misdeal rate and teyaku probabilities of a deal.

    Parameters
    ----------
    spec : DealSpec

    Returns
    -------
    list of (quantity, condition, Fraction)
        ``("misdeal_rate", "all_deals", p)``, then for each teyaku and for ``"any"`` (at least one
        of them) the rows ``("teyaku.<name>", "all_deals", p)`` and
        ``("teyaku.<name>", "no_misdeal", p)``.  A teyaku probability is that of one given dealt
        hand, averaged over the hand groups when hands differ.  ``no_misdeal`` rows are omitted if
        every deal is a misdeal.
    """
    month, kind = _validate(spec)
    n_cards = len(month)
    n_kinds = int(kind.max()) + 1 if n_cards else 1
    if spec.teyaku:
        n_kinds = max([n_kinds] + [len(t.kinds) for t in spec.teyaku if t.kind == "kind_counts"])
    months = []
    for m in np.unique(month):
        ks = kind[month == m]
        months.append(tuple(int((ks == k).sum()) for k in range(n_kinds)))
    plan = _TeyakuPlan(spec.teyaku, months)
    mis_set = set(spec.misdeal_groups)
    n_groups = len(spec.group_sizes)

    # Hands with the same size and the same misdeal check are exchangeable: compute one of each.
    pivots = list(spec.hand_groups) or [0]
    classes = defaultdict(list)
    for h in pivots:
        classes[(spec.group_sizes[h], h in mis_set)].append(h)

    n_teyaku = len(spec.teyaku)
    sums = {ALL_DEALS: [Fraction(0)] * (n_teyaku + 1), NO_MISDEAL: [Fraction(0)] * (n_teyaku + 1)}
    misdeal_rate = None
    any_no_misdeal = True
    for (hand_size, hand_checked), members in classes.items():
        h = members[0]
        weight = Fraction(len(members), len(pivots))
        others = [g for g in range(n_groups) if g != h]
        model = _OthersModel([spec.group_sizes[g] for g in others],
                             [g in mis_set for g in others], spec.misdeal_count)
        n_hands = comb(n_cards, hand_size)
        total = n_hands * _multinomial(n_cards - hand_size, model.merged_sizes)

        # All deals: the other groups do not matter, only the choice of the hand.
        counts = [0] * (n_teyaku + 1)
        for (tal, kin, _), w in _hand_pass(months, plan, hand_size, hand_size, False).items():
            hit = plan.matches(tal, kin, hand_size)
            for j, ok in enumerate(hit):
                if ok:
                    counts[j] += w
            if any(hit):
                counts[n_teyaku] += w
        for j in range(n_teyaku + 1):
            sums[ALL_DEALS][j] += weight * Fraction(counts[j], n_hands)

        # No misdeal: a checked hand may not take misdeal_count cards of a month, and the
        # leftover must be dealt to the other groups without a misdeal.
        max_take = spec.misdeal_count - 1 if hand_checked else hand_size
        counts = [0] * (n_teyaku + 1)
        played = 0
        for (tal, kin, hist), w in _hand_pass(months, plan, hand_size, max_take, True).items():
            ww = w * model.ways(hist)
            if not ww:
                continue
            played += ww
            hit = plan.matches(tal, kin, hand_size)
            for j, ok in enumerate(hit):
                if ok:
                    counts[j] += ww
            if any(hit):
                counts[n_teyaku] += ww
        if misdeal_rate is None:
            misdeal_rate = 1 - Fraction(played, total)
        if played:
            for j in range(n_teyaku + 1):
                sums[NO_MISDEAL][j] += weight * Fraction(counts[j], played)
        else:
            any_no_misdeal = False

    rows = [("misdeal_rate", ALL_DEALS, misdeal_rate)]
    if n_teyaku:
        names = [t.name for t in spec.teyaku] + ["any"]
        for j, name in enumerate(names):
            rows.append((f"teyaku.{name}", ALL_DEALS, sums[ALL_DEALS][j]))
            if any_no_misdeal:
                rows.append((f"teyaku.{name}", NO_MISDEAL, sums[NO_MISDEAL][j]))
    return rows


def exact_table(spec: DealSpec, game: str) -> pd.DataFrame:
    """Tidy table of :func:`deal_probabilities`.

    Parameters
    ----------
    spec : DealSpec
    game : str
        Value of the ``game`` column.

    Returns
    -------
    pandas.DataFrame
        Columns ``game, quantity, condition, fraction`` (exact, ``"p/q"``) and ``value`` (float).
    """
    rows = [
        {"game": game, "quantity": q, "condition": c,
         "fraction": f"{p.numerator}/{p.denominator}", "value": float(p)}
        for q, c, p in deal_probabilities(spec)
    ]
    return pd.DataFrame(rows, columns=["game", "quantity", "condition", "fraction", "value"])


# ---------------------------------------------------------------- two hands and a field by months
# Koi-koi's deal-time questions (seed 004 and the koi-koi rule page) depend only on how many
# cards of each month each hand and the field hold (four of a kind, four pairs, misdeals), and
# on how many 20-point cards reach the field (the field multiplier).  A month's four cards
# are split between hand A, hand B, the field and the draw pile; a dynamic programme over the
# months tracks, per group, its card count, whether some month is complete in it and whether
# some month is odd in it, plus the field's 20-point cards.  The two hands are exchangeable, so
# a state stands for both orders of its hands (it holds the sum over the pair) and only the
# sorted pair is kept.

def _split_moves(tracked):
    """Ways to split a month's 4 cards as (hand A, hand B, field, tracked card on the field)."""
    out = []
    for xa in range(5):
        for xb in range(5 - xa):
            for xf in range(5 - xa - xb):
                rest = _multinomial(4 - xf, (xa, xb))  # the hands' cards among the non-field
                if tracked:
                    if xf >= 1:
                        out.append((xa, xb, xf, 1, comb(3, xf - 1) * rest))
                    if xf <= 3:
                        out.append((xa, xb, xf, 0, comb(3, xf) * rest))
                else:
                    out.append((xa, xb, xf, 0, comb(4, xf) * rest))
    return out


def two_hands_field_states(hand_size: int, field_size: int, tracked: tuple) -> dict:
    """``{(hand a, hand b, field, tracked on the field): ways}`` over all deals of 4-card months
    (``tracked[m]``: month m holds one tracked card), a group being ``(cards, has a complete
    month, has an odd month)``; hands sorted, each state the sum over both orders."""
    return dict(_two_hands_field_states(int(hand_size), int(field_size), tuple(tracked)))


@lru_cache(maxsize=8)
def _two_hands_field_states(hand_size, field_size, tracked):
    # A group is coded as one int, 4 * cards + 2 * (a complete month) + (an odd month): adding
    # a month's x cards is g + 4x, | 2 when x == 4, | 1 when x is odd, and the ints sort as the
    # (cards, complete, odd) tuples do, so the hands' order is the same.  (Plain tuples and a
    # step function cost 3x: this runs 1.5M times per table.)
    n_left = 4 * len(tracked)
    dp = {(0, 0, 0, 0): 1}
    def flags(x):
        return (2 if x == 4 else 0) | (x & 1)

    moves = {t: [(4 * xa, flags(xa), 4 * xb, flags(xb), 4 * xf, flags(xf), xa + xb + xf, xt, ways)
                 for xa, xb, xf, xt, ways in _split_moves(t)] for t in (0, 1)}
    cap_h, cap_f = 4 * hand_size + 3, 4 * field_size + 3
    need = 2 * hand_size + field_size
    for t in tracked:
        n_left -= 4
        new = defaultdict(int)
        for (a, b, f, br), w in dp.items():
            short = need - ((a >> 2) + (b >> 2) + (f >> 2)) - n_left  # cards this month must give
            for da, ma, db, mb, df, mf, x, xt, ways in moves[t]:
                if x < short or (a | 3) + da > cap_h or (b | 3) + db > cap_h or \
                        (f | 3) + df > cap_f:
                    continue
                a2, b2 = (a + da) | ma, (b + db) | mb
                if b2 < a2:
                    a2, b2 = b2, a2
                new[(a2, b2, (f + df) | mf, br + xt)] += w * ways
        dp = new

    def group(g):
        return (g >> 2, bool(g & 2), bool(g & 1))

    return tuple(((group(a), group(b), group(f), br), w) for (a, b, f, br), w in dp.items())


def koikoi_deal_probabilities(hand_size: int = 8, field_size: int = 8, *, hand_four_misdeal,
                              hand_pairs_misdeal, field_four_misdeal, field_pairs_misdeal,
                              tracked=(1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 1)):
    """Exact deal-time probabilities of a two-hand, one-field deal by months.

    Returns rows ``(quantity, condition, Fraction)`` as :func:`deal_probabilities`:
    ``misdeal_rate``; ``teyaku.four_of_a_kind`` (a month complete in the hand),
    ``teyaku.four_pairs`` (every month even in the hand) and ``teyaku.any`` for one dealt hand;
    ``field_brights.k``: k tracked cards (20-point cards) dealt to the field.  A misdeal is a
    complete month / all months even in a hand or on the field, as the flags say.
    """
    states = _two_hands_field_states(int(hand_size), int(field_size), tuple(tracked))
    n_tracked = sum(tracked)
    total = played = 0
    tey = {ALL_DEALS: [0, 0, 0], NO_MISDEAL: [0, 0, 0]}
    fb = {ALL_DEALS: [0] * (n_tracked + 1), NO_MISDEAL: [0] * (n_tracked + 1)}
    for (a, b, f, br), w in states:
        mis = ((field_four_misdeal and f[1]) or (field_pairs_misdeal and not f[2])
               or (hand_four_misdeal and (a[1] or b[1]))
               or (hand_pairs_misdeal and (not a[2] or not b[2])))
        conds = (ALL_DEALS,) if mis else (ALL_DEALS, NO_MISDEAL)
        total += w
        if not mis:
            played += w
        for c in conds:
            for g in (a, b):  # each state counts both hands; per hand: halve at the end
                tey[c][0] += w * g[1]
                tey[c][1] += w * (not g[2])
                tey[c][2] += w * (g[1] or not g[2])
            fb[c][br] += w
    rows = [("misdeal_rate", ALL_DEALS, 1 - Fraction(played, total))]
    for j, name in enumerate(("four_of_a_kind", "four_pairs", "any")):
        rows.append((f"teyaku.{name}", ALL_DEALS, Fraction(tey[ALL_DEALS][j], 2 * total)))
        if played:
            rows.append((f"teyaku.{name}", NO_MISDEAL, Fraction(tey[NO_MISDEAL][j], 2 * played)))
    for k in range(n_tracked + 1):
        rows.append((f"field_brights.{k}", ALL_DEALS, Fraction(fb[ALL_DEALS][k], total)))
        if played:
            rows.append((f"field_brights.{k}", NO_MISDEAL, Fraction(fb[NO_MISDEAL][k], played)))
    return rows


def rows_table(rows, game: str) -> pd.DataFrame:
    """The tidy table of ``(quantity, condition, Fraction)`` rows (as :func:`exact_table`)."""
    records = [{"game": game, "quantity": q, "condition": c,
                "fraction": f"{p.numerator}/{p.denominator}", "value": float(p)}
               for q, c, p in rows]
    return pd.DataFrame(records, columns=["game", "quantity", "condition", "fraction", "value"])
