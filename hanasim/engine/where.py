"""``--where``: conditions on a deal that cannot be placed (a seat's teyaku, a number of brights
on the field), checked after each deal; a deal that fails is dealt again (rejection sampling,
so the deals played are uniform among the deals that meet the condition).

The condition is the ``--where`` part of a game's ``cond`` array (``engine.rng``, "conditional
deals"), at offset ``cond[G_W]`` (0: none):
    n_dealt, stride (cards a month: 4; Taipa's suits 8), n_clauses, pattern[n_dealt], then
    ``W_N`` ints a clause: (type, group, arg, op, value).
A clause ``W_COUNT`` holds when ``count(group & arg) op value`` (``arg`` a card mask);
``W_MONTHS`` when the number of months of which the group holds exactly ``arg`` cards ``op
value``; ``W_TEYAKU`` when the group's hand holds teyaku ``arg`` (bit ``arg`` of the teyaku the
game's own kernel reads in it: Taoshi's best teyaku, Hachi-hachi's best of each group), ``op``
``OP_EQ`` and ``value`` 1.  Every clause must hold.  :func:`where_ok` checks the first two; a
game whose teyaku take a clause checks ``W_TEYAKU`` after it, with its teyaku kernel
(:func:`teyaku_groups`, :func:`teyaku_held_ok`), so no other game's kernel compiles them.
"""
import numpy as np
from numba import njit, types
from numba.extending import overload

from .bits import ZERO, count
from .jit import BY_TYPE, hot
from .rng import G_W, deal_shuffle, stream_state

W_COUNT, W_MONTHS, W_TEYAKU = 0, 1, 2
OP_GE, OP_LE, OP_EQ, OP_NE, OP_GT, OP_LT = range(6)
W_N = 5
MAX_GROUPS = 8


@hot
def _holds(x, op, v):
    if op == OP_GE:
        return x >= v
    if op == OP_LE:
        return x <= v
    if op == OP_EQ:
        return x == v
    if op == OP_NE:
        return x != v
    if op == OP_GT:
        return x > v
    return x < v


@hot
def where_ok(cards, cond):
    """True when the dealt ``cards`` (the deck order after the deal's shuffle) meet the
    ``--where`` part of ``cond`` (always, when there is none).  One branch without one; none
    at all when ``cond`` is None (a run with neither given cards nor ``--where``: pruned when
    compiled)."""
    if cond is None:
        return True
    if cond.shape[0] == 0 or cond[G_W] == 0:
        return True
    w = cond[G_W]
    n_dealt = cond[w]
    stride = cond[w + 1]
    n_clauses = cond[w + 2]
    pat = w + 3
    g0 = ZERO
    g1 = ZERO
    g2 = ZERO
    g3 = ZERO
    g4 = ZERO
    g5 = ZERO
    g6 = ZERO
    g7 = ZERO
    for i in range(n_dealt):
        b = np.uint64(1) << np.uint64(cards[i])
        p = cond[pat + i]
        if p == 0:
            g0 |= b
        elif p == 1:
            g1 |= b
        elif p == 2:
            g2 |= b
        elif p == 3:
            g3 |= b
        elif p == 4:
            g4 |= b
        elif p == 5:
            g5 |= b
        elif p == 6:
            g6 |= b
        else:
            g7 |= b
    c0 = pat + n_dealt
    n_groups = 64 // stride
    for c in range(n_clauses):
        q = c0 + c * W_N
        g = cond[q + 1]
        m = (g0 if g == 0 else g1 if g == 1 else g2 if g == 2 else g3 if g == 3
             else g4 if g == 4 else g5 if g == 5 else g6 if g == 6 else g7)
        if cond[q] == W_TEYAKU:  # the game's kernel checks it (teyaku_held_ok)
            continue
        if cond[q] == W_COUNT:
            x = count(m & np.uint64(cond[q + 2]))
        else:
            x = 0
            full = (np.uint64(1) << np.uint64(stride)) - np.uint64(1)
            for month in range(n_groups):
                k = count((m >> np.uint64(month * stride)) & full)
                if k == cond[q + 2]:
                    x += 1
        if not _holds(x, cond[q + 3], cond[q + 4]):
            return False
    return True


@hot(inline="always")
def teyaku_groups(cond):
    """A mask of the deal groups a ``W_TEYAKU`` clause names (0: none, or no ``--where``;
    ``cond`` None: 0, decided when the kernel is typed, see ``rng.deal_shuffle``)."""
    return _teyaku_groups(cond)


def _no_groups(cond):
    return 0


def _named_groups(cond):
    if cond.shape[0] == 0 or cond[G_W] == 0:
        return 0
    w = cond[G_W]
    c0 = w + 3 + cond[w]
    out = 0
    for c in range(cond[w + 2]):
        q = c0 + c * W_N
        if cond[q] == W_TEYAKU:
            out |= 1 << cond[q + 1]
    return out


def _teyaku_groups(cond):  # chosen by cond's type when compiled (see rng.deal_shuffle)
    return 0 if cond is None else _named_groups(cond)


@overload(_teyaku_groups, **BY_TYPE)
def _teyaku_groups_typed(cond):
    return _no_groups if isinstance(cond, types.NoneType) else _named_groups


@hot(inline="always")
def teyaku_held_ok(cond, g, held):
    """True when every ``W_TEYAKU`` clause on group ``g`` holds for the teyaku bits ``held``
    of its hand (the game's own kernel reads them)."""
    w = cond[G_W]
    c0 = w + 3 + cond[w]
    for c in range(cond[w + 2]):
        q = c0 + c * W_N
        if cond[q] == W_TEYAKU and cond[q + 1] == g:
            if not _holds((held >> cond[q + 2]) & 1, cond[q + 3], cond[q + 4]):
                return False
    return True


@njit(cache=True)
def pilot(seed, n_deals, cond, n_deck, checked, stride, dealt):
    """Deal ``n_deals`` times under ``cond`` (given cards and ``--where``) from a fresh deck:
    (misdeals, deals that are played, of them those meeting the condition).  ``checked``: the
    groups where four cards of a month are a misdeal (the acceptance rate is among the deals
    that are played).  ``dealt`` (uint64[n_deals, MAX_GROUPS], or no rows): each accepted
    deal's groups, in order, for the caller to check ``W_TEYAKU`` clauses with the game's
    teyaku (``hanasim.conditions``)."""
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = stream_state(np.uint64(seed), np.uint64(0))
    order = np.arange(n_deck).astype(np.int8)
    w = cond[G_W]
    n_dealt = cond[w]
    pat = w + 3
    masks = np.zeros(MAX_GROUPS, dtype=np.uint64)
    full = (np.uint64(1) << np.uint64(stride)) - np.uint64(1)
    mis = 0
    played = 0
    ok = 0
    for _ in range(n_deals):
        deal_shuffle(rng, order, n_deck, 0, n_dealt, cond)
        masks[:] = 0
        for i in range(n_dealt):
            masks[cond[pat + i]] |= np.uint64(1) << np.uint64(order[i])
        bad = False
        for g in checked:
            for m in range(n_deck // stride):
                if count((masks[g] >> np.uint64(m * stride)) & full) >= 4:
                    bad = True
        if bad:
            mis += 1
            continue
        played += 1
        if where_ok(order, cond):
            if dealt.shape[0] > 0:
                dealt[ok, :] = masks
            ok += 1
    return mis, played, ok
