"""The Taoshi lookahead's values of join and drop at a position, one per determinisation
(``games.taoshi.lookahead._look_join`` keeps only their sums): the same determinisations (the
other seats' hands and the draw pile dealt again from the cards the seat cannot see: all but
its hand and the field) and the same values (``lookahead._join_sample``, the kernel's own: ``_join_value``'s joining, the round
played out by greedy; dropping, the fee and any botta paid), on a stream of its own
(``seed``)."""
from importlib import import_module

from numba import njit

from ..engine.lookahead import join_samples, new_scratch
from ..games.taoshi.rules import ACTIVE, HAND_SIZE
from ..games.taoshi.slots import PBUF, ST_N

TLA = import_module("hanasim.games.taoshi.lookahead")
TLO = import_module("hanasim.games.taoshi.lower")


@njit(cache=True)
def taoshi_join(tb, hands, s, res, seed, out):
    """``out[i, 0]`` joining, ``out[i, 1]`` dropping for seat ``s`` (``hands``: every seat's
    hand, then the field; ``res``: the earlier seats' R_CHOICE), in 1/unit points, as
    ``lookahead._look_join``'s loop values them."""
    sc = new_scratch(ST_N, PBUF, ACTIVE)
    n = tb.params[TLO.P_PLAYERS]
    field = hands[n]
    join_samples(sc, n, s, hands[s], field, HAND_SIZE, seed, TLA._join_sample,
                 (tb, n, s, res, field), out)


__all__ = ["taoshi_join"]
