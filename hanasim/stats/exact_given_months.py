"""Exact deal odds given cards for the games whose own combinatorics are a dynamic programme
over the months (Kushiro Toppa, Taoshi, Ishikari Toppa's Hachi-hachi teyaku, Koi-koi).

A deal conditioned on given cards places them and shuffles the rest (``engine.rng``), so the
deals consistent with them are the assignments of the free (not given) cards to the groups'
free places, all equally likely.  When only a few groups are looked at (the *tracked* groups:
one hand and the field, or both hands and the field) and the others are never checked, the
others take the leftover free cards in a number of ways that does not depend on which cards
they are, so it cancels: a probability is (ways the tracked groups take their free cards with
the property) / (all ways they take them).

:func:`split_states` counts those ways by a dynamic programme over the months: each month's
free cards go to the tracked groups (or to the rest) in every possible way; a tracked group's
cards of the month are its given ones plus those, summarised by the game's ``describe`` and
folded into the game's state by its ``step``.  Everything is an exact integer.
"""
from __future__ import annotations

from collections import defaultdict
from itertools import product


def split_states(months, free, given, caps, describe, step, init):
    """``{state: ways}`` over the ways the tracked groups take their free places.

    Parameters
    ----------
    months : list of tuple of int
        The deck's cards, month by month.
    free : set of int
        The cards not given to any group (the ones the deal shuffles).
    given : list of tuple of int
        Per tracked group, its given cards.
    caps : tuple of int
        Per tracked group, its free places (its size less its given cards): every counted
        assignment fills them exactly.
    describe : callable ``(j, cards) -> descriptor``
        What tracked group ``j`` holding ``cards`` (a sorted tuple: its given and dealt cards of
        one month) means to the game's state.
    step : callable ``(state, descriptors) -> state``
        The game's state after one more month (``descriptors``: one per tracked group).
    init : hashable
        The game's state before the first month.
    """
    k = len(caps)
    n_free = [sum(1 for c in cards if c in free) for cards in months]
    suffix = [0] * (len(months) + 1)
    for i in range(len(months) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + n_free[i]
    need = sum(caps)
    steps = {}  # state -> {descriptors: next state}
    dp = {(0,) * k: {init: 1}}  # cards taken per tracked group -> {state: ways}
    for i, cards in enumerate(months):
        fr = [c for c in cards if c in free]
        fixed = [tuple(c for c in cards if c in g) for g in given]
        moves = defaultdict(lambda: defaultdict(int))  # taken -> {descriptors: ways}
        for where in product(range(k + 1), repeat=len(fr)):  # k: the untracked rest
            per = [list(f) for f in fixed]
            taken = [0] * k
            for c, j in zip(fr, where):
                if j < k:
                    per[j].append(c)
                    taken[j] += 1
            if any(t > cap for t, cap in zip(taken, caps)):
                continue
            descs = tuple(describe(j, tuple(sorted(p))) for j, p in enumerate(per))
            moves[tuple(taken)][descs] += 1
        new = {}
        for cnt, states in dp.items():
            targets = []  # (next counts' states, {descriptors: ways}) for the moves that fit
            for taken, by_desc in moves.items():
                c2 = tuple(a + b for a, b in zip(cnt, taken))
                if any(a > b for a, b in zip(c2, caps)) or need - sum(c2) > suffix[i + 1]:
                    continue
                targets.append((new.setdefault(c2, defaultdict(int)), by_desc.items()))
            for st, w in states.items():
                nxt = steps.setdefault(st, {})
                for out, by_desc in targets:
                    for descs, ways in by_desc:
                        s2 = nxt.get(descs)
                        if s2 is None:
                            s2 = nxt[descs] = step(st, descs)
                        out[s2] += w * ways
        dp = new
    return dict(dp.get(tuple(caps), {}))


def deck_months(month, cards=None):
    """The cards (all, or those of ``cards``) grouped by month, months in order."""
    by = defaultdict(list)
    for c in (range(len(month)) if cards is None else cards):
        by[int(month[c])].append(c)
    return [tuple(by[m]) for m in sorted(by)]


def free_cards(n_cards, groups):
    """The cards of a deck of ``n_cards`` not given to any group (``groups``: {group: cards})."""
    given = {c for cs in groups.values() for c in cs}
    return {c for c in range(n_cards) if c not in given}
