"""The Ishikari Toppa lookahead's values of join and drop at a position, one per
determinisation (``games.ishikari.lookahead._look_join`` keeps only their sums): the same
determinisations and values (``lookahead._join_sample``: the other hands and the draw pile
dealt again from the cards the seat cannot see, all but its hand and the field; joining, the
round played by greedy; dropping, 0), on a stream of its own (``seed``)."""
from importlib import import_module

import numpy as np
from numba import njit

from ..engine.lookahead import gather, new_scratch

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
    for i in range(out.shape[0]):
        st, v = ILA._join_sample(sc, tb, n, s, res, field, mine, m, st)
        out[i, 0] = v
        out[i, 1] = 0.0


__all__ = ["ishikari_join"]
