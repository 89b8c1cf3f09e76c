"""The Ishikari Toppa lookahead's values of join and drop at a position, one per
determinisation (``games.ishikari.lookahead._look_join`` keeps only their sums): the same
determinisations and values (``lookahead._join_sample``: the other hands and the draw pile
dealt again from the cards the seat cannot see, all but its hand and the field; joining, the
round played by greedy; dropping, 0), on a stream of its own (``seed``)."""
from importlib import import_module

import numpy as np
from numba import njit

from ..engine.lookahead import deal_others, gather, new_scratch, shuffle
from ..games.ishikari.rules import HAND

ILA = import_module("hanasim.games.ishikari.lookahead")
IR = import_module("hanasim.games.ishikari.round")


@njit(cache=True)
def ishikari_join(tb, groups, s, res, seed, out):
    """``out[i, 0]`` joining (or chasing), ``out[i, 1]`` dropping (or not chasing: 0) for
    table seat ``s`` (``groups``: the dealt hands by table seat, then the field; ``res``: the
    earlier seats' R_CHOICE), in points before the chase multiplier, as
    ``lookahead._look_join``'s loop values them."""
    sc = new_scratch(ILA.ST_N, 48, IR.ACTIVE)
    n = tb.params[IR.P_PLAYERS]
    mine = groups[s]
    field = groups[n]
    m = gather(sc.cards, ~(mine | field) & ILA.FULL)
    st = np.uint64(seed)
    for i in range(out.shape[0]):  # engine.lookahead.look_join's loop, every value kept
        st = shuffle(sc.cards, m, st)
        x = deal_others(sc.cards, sc.high, 0, n, s, mine, HAND)
        vj, vd, st = ILA._join_sample(sc, x, m, st, (tb, n, s, res, field))
        out[i, 0] = vj
        out[i, 1] = vd


__all__ = ["ishikari_join"]
