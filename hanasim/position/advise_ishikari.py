"""The Ishikari Toppa lookahead's values of join and drop at a position, one per
determinisation (``games.ishikari.lookahead._look_join`` keeps only their sums): the same
determinisations and values (``lookahead._join_sample``: the other hands and the draw pile
dealt again from the cards the seat cannot see, all but its hand and the field; joining, the
round played by greedy; dropping, 0), on a stream of its own (``seed``)."""
from importlib import import_module

from numba import njit

from ..engine.lookahead import join_samples, new_scratch
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
    field = groups[n]
    join_samples(sc, n, s, groups[s], field, HAND, seed, ILA._join_sample,
                 (tb, n, s, res, field), out)


__all__ = ["ishikari_join"]
