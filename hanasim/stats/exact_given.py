"""Exact deal-time probabilities conditional on given cards (``hanasim exact --given``).

The deals consistent with the given cards are the assignments of the other (free) cards to
the groups' free places, all equally likely (as ``engine.rng.shuffle_given`` draws them).  The
count factorises as in :mod:`hanasim.stats.exact` around one tracked hand ``h``:

1. a dynamic programme over the months chooses the hand's free cards (a month whose free
   cards of kind ``k`` number ``a_k`` gives ``x_k`` of them in ``prod C(a_k, x_k)`` ways); the
   hand's cards of a month are its given ones plus those, and decide its teyaku as before;
2. the ways to deal the leftover free cards to the other groups without a misdeal depend on
   the leftover count of each month *and* on the given cards each checked group already holds
   in that month (a group holding three given pine cards cannot take a fourth).  Months are
   therefore typed by those given counts; months of one type with the same leftover are
   exchangeable, so the hand's pass keeps a multiset of (type, leftover) and the other
   groups' count is a dynamic programme over it (unchecked groups merged into one, as in
   :mod:`hanasim.stats.exact`).

A teyaku rate is per dealt hand, the mean over the hand groups (what the kernels pool), and
per hand (``teyaku.NAME.SEAT``); everything is an exact :class:`fractions.Fraction`.
"""
from __future__ import annotations

from bisect import insort
from collections import defaultdict
from fractions import Fraction
from itertools import product
from math import comb

import numpy as np

from .exact import ALL_DEALS, NO_MISDEAL, DealSpec, _multinomial, _TeyakuPlan, _validate


def _kind_vec(cards, month, kind, m, n_kinds):
    v = [0] * n_kinds
    for c in cards:
        if int(month[c]) == m:
            v[int(kind[c])] += 1
    return tuple(v)


class _Others:
    """Ways to deal leftover free cards to the groups other than the tracked hand without a
    misdeal, months typed by the given cards the checked groups hold."""

    def __init__(self, free_sizes, checked, cap):
        idx = list(range(len(free_sizes)))
        explicit = [j for j in idx if checked[j]]
        unchecked = [j for j in idx if not checked[j]]
        if unchecked or not explicit:
            self.implicit, self.implicit_checked = None, False
            self.implicit_size = sum(free_sizes[j] for j in unchecked)
        else:
            self.implicit = explicit.pop()
            self.implicit_checked = True
            self.implicit_size = free_sizes[self.implicit]
        self.explicit = explicit
        self.sizes = tuple(free_sizes[j] for j in explicit)
        self.cap = cap
        self._moves = {}
        self._prefix = {(): {(0,) * len(explicit): 1}}

    def type_of(self, fixed):
        """A month's type: the given cards each explicit group (and a checked implicit one)
        holds in it."""
        t = tuple(fixed[j] for j in self.explicit)
        return t + ((fixed[self.implicit],) if self.implicit_checked else ())

    def moves(self, typ, r):
        key = (typ, r)
        if key not in self._moves:
            out = []
            n = len(self.explicit)

            def rec(i, left, acc):
                if i == n:
                    if self.implicit_checked and typ[n] + left > self.cap:
                        return
                    out.append((tuple(acc), r - left, _multinomial(r, acc)))
                    return
                for t in range(min(left, self.cap - typ[i], self.sizes[i]) + 1):
                    acc.append(t)
                    rec(i + 1, left - t, acc)
                    acc.pop()

            rec(0, r, [])
            self._moves[key] = out
        return self._moves[key]

    def _dp(self, prefix):
        got = self._prefix.get(prefix)
        if got is not None:
            return got
        prev = self._dp(prefix[:-1])
        typ, r = prefix[-1]
        least = sum(x[1] for x in prefix) - self.implicit_size
        new = defaultdict(int)
        for state, w in prev.items():
            base = sum(state)
            for t, t_sum, ways in self.moves(typ, r):
                if base + t_sum < least:
                    continue
                s = tuple(a + b for a, b in zip(state, t))
                if any(a > b for a, b in zip(s, self.sizes)):
                    continue
                new[s] += w * ways
        self._prefix[prefix] = dict(new)
        return self._prefix[prefix]

    def ways(self, items):
        """``items``: sorted tuple of (type, leftover) per month."""
        seq = tuple(sorted(items, reverse=True))
        return self._dp(seq).get(self.sizes, 0)

    def merged_sizes(self):
        return self.sizes + (self.implicit_size,)


def given_probabilities(spec: DealSpec, given: dict, names: dict) -> list:
    """Rows ``(quantity, condition, Fraction)`` as :func:`hanasim.stats.exact.
    deal_probabilities`, conditional on ``given`` (``{group: [card, ...]}``), plus per-hand
    teyaku rows ``teyaku.NAME.SEAT`` (``names``: group -> seat word)."""
    month, kind = _validate(spec)
    n_kinds = max([int(kind.max()) + 1] + [len(t.kinds) for t in spec.teyaku
                                             if t.kind == "kind_counts"])
    month_ids = [int(m) for m in np.unique(month)]
    all_given = [c for cs in given.values() for c in cs]
    full = [_kind_vec(range(len(month)), month, kind, m, n_kinds) for m in month_ids]
    taken = [_kind_vec(all_given, month, kind, m, n_kinds) for m in month_ids]
    avail = [tuple(a - b for a, b in zip(f, t)) for f, t in zip(full, taken)]
    plan = _TeyakuPlan(spec.teyaku, full)
    n_groups = len(spec.group_sizes)
    mis = set(spec.misdeal_groups)
    cap = spec.misdeal_count - 1
    n_free = len(month) - len(all_given)
    free_size = [spec.group_sizes[g] - len(given.get(g, ())) for g in range(n_groups)]
    fixed = [[sum(1 for c in given.get(g, ()) if int(month[c]) == m) for m in month_ids]
             for g in range(n_groups)]

    n_tey = len(spec.teyaku)
    per_hand = {}
    misdeal_rate = None
    any_played = True
    for h in (list(spec.hand_groups) or [0]):
        others = [g for g in range(n_groups) if g != h]
        model = _Others([free_size[g] for g in others], [g in mis for g in others], cap)
        forced = [_kind_vec(given.get(h, ()), month, kind, m, n_kinds) for m in month_ids]
        need = free_size[h]
        hand_size = spec.group_sizes[h]
        max_take = cap if h in mis else hand_size
        n_hands = comb(n_free, need)
        total = n_hands * _multinomial(n_free - need, model.merged_sizes())
        # the hand's pass: (cards taken, tallies, kinds, leftover items) -> ways
        dp = {(0, *plan.initial(), ()): 1}
        suffix = [0] * (len(month_ids) + 1)
        for i in range(len(month_ids) - 1, -1, -1):
            suffix[i] = suffix[i + 1] + sum(avail[i])
        for i, m in enumerate(month_ids):
            f = forced[i]
            typ = model.type_of([fixed[g][i] for g in others])
            moves = defaultdict(int)
            for x in product(*(range(a + 1) for a in avail[i])):
                ways = 1
                for a, xi in zip(avail[i], x):
                    ways *= comb(a, xi)
                tot = tuple(a + b for a, b in zip(f, x))
                moves[(sum(x), sum(tot), tuple(tot[k] for k in plan.tracked))] += ways
            new = defaultdict(int)
            for (cnt, tal, kin, items), w in dp.items():
                for (nx, tot, inc), ways in moves.items():
                    c = cnt + nx
                    if c > need or c + suffix[i + 1] < need:
                        continue
                    t2, k2 = plan.step(tal, kin, tot, inc)
                    if items is None or tot > max_take:
                        # a misdeal in the tracked hand: counted among all deals only, so
                        # its leftovers no longer matter (None)
                        new[(c, t2, k2, None)] += w * ways
                        continue
                    it = list(items)
                    insort(it, (typ, sum(avail[i]) - nx))
                    new[(c, t2, k2, tuple(it))] += w * ways
            dp = new
        counts_all = [0] * (n_tey + 1)
        counts_ok = [0] * (n_tey + 1)
        played = 0
        for (c, tal, kin, items), w in dp.items():
            hit = plan.matches(tal, kin, hand_size)
            for j, okj in enumerate(hit):
                if okj:
                    counts_all[j] += w
            if any(hit):
                counts_all[n_tey] += w
            if items is None:
                continue
            ww = w * model.ways(items)
            if not ww:
                continue
            played += ww
            for j, okj in enumerate(hit):
                if okj:
                    counts_ok[j] += ww
            if any(hit):
                counts_ok[n_tey] += ww
        if misdeal_rate is None:
            misdeal_rate = 1 - Fraction(played, total)
        per_hand[h] = ([Fraction(x, n_hands) for x in counts_all],
                       [Fraction(x, played) for x in counts_ok] if played else None)
        any_played = any_played and played > 0
    rows = [("misdeal_rate", ALL_DEALS, misdeal_rate)]
    if n_tey:
        hands = list(spec.hand_groups)
        tnames = [t.name for t in spec.teyaku] + ["any"]
        for j, name in enumerate(tnames):
            rows.append((f"teyaku.{name}", ALL_DEALS,
                         sum(per_hand[h][0][j] for h in hands) / len(hands)))
            if any_played:
                rows.append((f"teyaku.{name}", NO_MISDEAL,
                             sum(per_hand[h][1][j] for h in hands) / len(hands)))
        for h in hands:
            for j, name in enumerate(tnames):
                rows.append((f"teyaku.{name}.{names[h]}", ALL_DEALS, per_hand[h][0][j]))
                if per_hand[h][1] is not None:
                    rows.append((f"teyaku.{name}.{names[h]}", NO_MISDEAL, per_hand[h][1][j]))
    return rows

