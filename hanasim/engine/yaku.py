"""Table-driven yaku.

Dekiyaku (yaku made from captured cards) are rows of two arrays built once per rule set:

* ``masks[i] = (cond, required, counted)`` (uint64)
* ``ints[i] = (cond_min, extra_from, base, per_extra, group)`` (int64)

Row i scores when every card of ``required`` is captured and at least ``cond_min`` cards of
``cond`` are; it is worth ``base + per_extra * (captured cards of counted - extra_from)``.
Rows sharing a ``group >= 0`` are exclusive: they are tried in the order they were added (a
game adds them in the precedence its rules give, and its rules check that the values follow it)
and only the first that scores counts (e.g. Toppa's bright yaku).  ``group = -1`` stacks.  A
row that can never score (a yaku valued 0, i.e. not played, kept so that row numbers do not
move) has ``cond = NEVER``.

This table is the specification.  A game's hot kernel may evaluate the same rows with a
function written for their shapes (``games.toppa.score_pile``: the rows at fixed positions,
no loop, no table walk), tested against :func:`dekiyaku` on random piles.

Teyaku (yaku held in the dealt hand) are rows ``(type, a, b, c, d, value, per_extra)``:

* ``TEY_MONTHS``: at least ``b`` months with exactly ``a`` cards in hand; worth
  ``value + per_extra * (months - b)`` (two triplets = 40 in Toppa's additive rule);
* ``TEY_KINDS``: exactly ``(a, b, c, d)`` brights, animals, ribbons, chaff.
"""
import numpy as np
from .jit import hot

from .bits import count, nibble_counts, nibbles_equal

# a cond mask no pile can hold (cards are bits 0..47): the row of a yaku that is switched off
NEVER = np.uint64(1 << 63)
# dekiyaku columns
D_COND, D_REQUIRED, D_COUNTED = 0, 1, 2
D_MIN, D_EXTRA_FROM, D_BASE, D_PER_EXTRA, D_GROUP = 0, 1, 2, 3, 4
# teyaku columns and types
T_TYPE, T_A, T_B, T_C, T_D, T_VALUE, T_PER_EXTRA = 0, 1, 2, 3, 4, 5, 6
TEY_MONTHS, TEY_KINDS = 0, 1
# teyaku combination rules
COMBINE_ADD, COMBINE_HIGHEST = 0, 1


@hot(inline="always")
def dekiyaku(captured, masks, ints):
    """Score of a captured pile and the bitmask of the rows that scored.

    Every row is evaluated and its result selected arithmetically: whether a yaku scores is
    unpredictable, and a mispredicted branch per row cost more than the row itself."""
    total = 0
    hits = 0
    done_groups = 0
    for i in range(masks.shape[0]):
        g = ints[i, D_GROUP]
        gbit = (1 << g) if g >= 0 else 0
        req = masks[i, D_REQUIRED]
        ok = (((captured & req) == req) & (count(captured & masks[i, D_COND]) >= ints[i, D_MIN])
              & ((done_groups & gbit) == 0))
        v = ints[i, D_BASE] + ints[i, D_PER_EXTRA] * (
            count(captured & masks[i, D_COUNTED]) - ints[i, D_EXTRA_FROM])
        total += v if ok else 0
        hits |= (1 << i) if ok else 0
        done_groups |= gbit if ok else 0
    return total, hits


@hot
def months_with(hand, month_masks, k):
    n = 0
    for m in range(1, month_masks.shape[0]):
        if count(hand & month_masks[m]) == k:
            n += 1
    return n


@hot
def teyaku(hand, table, month_masks, kind_masks, combine):
    """Value of the teyaku a hand holds (under ``combine``) and the bitmask of rows held."""
    return _teyaku(hand, table, month_masks, kind_masks, combine, False)


@hot(inline="always")
def teyaku_by_nibbles(hand, table, month_masks, kind_masks, combine):
    """:func:`teyaku` for decks with four cards a month in card order (see ``bits``)."""
    return _teyaku(hand, table, month_masks, kind_masks, combine, True)


@hot(inline="always")
def _teyaku(hand, table, month_masks, kind_masks, combine, nibbles):
    total = 0
    best = 0
    hits = 0
    counts = nibble_counts(hand)
    n_months = month_masks.shape[0] - 1
    # kind counts once per hand, not once per row
    k0 = count(hand & kind_masks[0])
    k1 = count(hand & kind_masks[1])
    k2 = count(hand & kind_masks[2])
    k3 = count(hand & kind_masks[3])
    for i in range(table.shape[0]):
        if table[i, T_TYPE] == TEY_MONTHS:  # the row type is the same every deal: predictable
            if nibbles:
                n = nibbles_equal(counts, table[i, T_A], n_months)
            else:
                n = months_with(hand, month_masks, table[i, T_A])
            held = n >= table[i, T_B]
            v = table[i, T_VALUE] + table[i, T_PER_EXTRA] * (n - table[i, T_B])
        else:
            # chaff count first: it rejects almost every hand, a branch that predicts well
            held = (k3 == table[i, T_D] and k2 == table[i, T_C] and k1 == table[i, T_B]
                    and k0 == table[i, T_A])
            v = table[i, T_VALUE]
        held = held & (v > 0)
        hits |= (1 << i) if held else 0
        total += v if held else 0
        best = max(best, table[i, T_VALUE] if held else 0)
    if combine == COMBINE_HIGHEST:
        return best, hits
    return total, hits


# a cond mask no pile can hold (cards are bits 0..47): the row of a yaku that is not played
NEVER = np.uint64(1 << 63)


class DekiyakuTable:
    """Builder for the dekiyaku arrays; rows are added by name in Python, once per rule set."""

    def __init__(self):
        self.rows = []

    def add(self, name, cond, minimum, base, *, required=0, counted=None, extra_from=None,
            per_extra=0, group=-1):
        """A row; ``base`` 0 means the yaku is not played: the row is kept (:meth:`never`), so a
        table's rows do not depend on the rules."""
        if base == 0:
            return self.never(name, group)
        self.rows.append(dict(name=name, cond=int(cond), required=int(required),
                              counted=int(cond if counted is None else counted),
                              minimum=minimum,
                              extra_from=minimum if extra_from is None else extra_from,
                              base=base, per_extra=per_extra, group=group))
        return self

    def never(self, name, group=-1):
        """A row that never scores (a yaku a house rule does not play): its rate reads 0."""
        self.rows.append(dict(name=name, cond=int(NEVER), required=0, counted=int(NEVER),
                              minimum=1, extra_from=1, base=0, per_extra=0, group=group))
        return self

    def build(self):
        """(names, masks uint64[n,3], ints int64[n,5]): each exclusive group's rows together,
        in the order added (its precedence), then the stacking rows in the order added."""
        order = sorted(range(len(self.rows)),
                       key=lambda i: (self.rows[i]["group"] if self.rows[i]["group"] >= 0 else 10**6 + i,
                                      i))
        rows = [self.rows[i] for i in order]
        masks = np.array([[r["cond"], r["required"], r["counted"]] for r in rows], dtype=np.uint64)
        ints = np.array([[r["minimum"], r["extra_from"], r["base"], r["per_extra"], r["group"]]
                         for r in rows], dtype=np.int64)
        return tuple(r["name"] for r in rows), masks.reshape(-1, 3), ints.reshape(-1, 5)


# Building blocks for a game's own dekiyaku function (see the module docstring): 0/1 ints, so
# rows combine by arithmetic rather than branches.

@hot
def has_all(pile, mask):
    """1 when every card of ``mask`` is in ``pile``."""
    return np.int64((pile & mask) == mask)


@hot
def at_least(pile, mask, k):
    """1 when ``pile`` holds at least ``k`` cards of ``mask``."""
    return np.int64(count(pile & mask) >= k)


@hot
def teyaku_cards(hand, hits, table, month_masks):
    """The hand cards an exposed teyaku shows (the Toppa rule page, "Checking for Teyaku": "put the
    cards that are related to the Teyaku face-up"): a month-count teyaku (a triplet) shows its
    months' cards, a kind-count teyaku (the make-up of the whole hand) every card."""
    shown = np.uint64(0)
    for i in range(table.shape[0]):
        if (hits >> i) & 1:
            if table[i, T_TYPE] == TEY_MONTHS:
                for m in range(1, month_masks.shape[0]):
                    mm = hand & month_masks[m]
                    if count(mm) == table[i, T_A]:
                        shown |= mm
            else:
                shown |= hand
    return shown
