"""Ishikari Toppa's deal under a ``--where`` naming a Hachi-hachi teyaku (``engine.where``,
``W_TEYAKU``): Bakappana's deal, dealt again until every hand named holds it, read by the
game's own teyaku kernel (``hachihachi.teyaku``: the best of each group)."""
from ...engine.jit import hot
from ...engine.where import teyaku_groups, teyaku_held_ok
from ..bakappana.round import deal_round
from . import hachihachi


@hot(inline="always")
def deal_where(rng, order, groups, tb, n):
    """``deal_round`` (misdeals redealt; the given cards and the count clauses of ``--where``
    met), dealt again while a hand lacks a teyaku ``--where`` names: a redeal from any order
    is uniform, so the deals played are uniform among those meeting the whole condition.
    Returns the misdeals (rejected deals are not misdeals).  One inlined site of the deal for
    the first deal and the redeals (a second, called, copy of the deal for the redeals alone
    was 450 statements of typed IR, 1.2-1.6 s of a cold compile); the teyaku check is a
    call made only when a teyaku is named."""
    misdeals = 0
    while True:
        misdeals += deal_round(rng, order, groups, tb.pattern, n, tb.cond)
        if teyaku_groups(tb.cond) == 0 or where_teyaku(groups, tb, n, tb.cond):
            return misdeals


@hot
def where_teyaku(groups, tb, n, cond):
    """True unless ``--where`` (``cond``, the tables') names a teyaku that one of the ``n``
    seats' hands does not hold (Hachi-hachi's bits over ``hachihachi.NAMES``)."""
    if cond is None:  # a run without --where: pruned when compiled
        return True
    gs = teyaku_groups(cond)
    if gs == 0:
        return True
    for s in range(n):
        if (gs >> s) & 1:
            _, held = hachihachi.teyaku(groups[s], tb.kind_masks)
            if not teyaku_held_ok(cond, s, held):
                return False
    return True
