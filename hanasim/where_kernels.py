"""The teyaku ``--where`` names through a game's own kernel (``hanasim.where.KernelTeyaku``),
batched for the pilot that measures a condition's acceptance (``hanasim.conditions``): the
very functions the game's deal checks a ``W_TEYAKU`` clause with (``engine.where``), so the
pilot's rate is the run's.  Compiled only when a run names such a teyaku."""
import numpy as np
from numba import njit

from .games.ishikari import hachihachi
from .games.taoshi.rules import NONE
from .games.taoshi.teyaku import best_teyaku, teyaku_formed


@njit(cache=True)
def taoshi_held(hands, redm, bakem, reading, overlap_no, values):
    """Each hand's best teyaku (Taoshi's tables' teyaku) as a bit over ``rules.TEYAKU``, 0 for
    none: as ``games.taoshi.round.where_teyaku`` reads it."""
    out = np.zeros(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        t = best_teyaku(teyaku_formed(hands[i], redm, bakem, reading, overlap_no), values)
        out[i] = 0 if t == NONE else np.int64(1) << t
    return out


@njit(cache=True)
def hachihachi_held(hands, kind_masks):
    """Each 7-card hand's Hachi-hachi teyaku bits (the best of each group, over
    ``hachihachi.NAMES``): as ``games.ishikari.deal_where.where_teyaku`` reads them."""
    out = np.zeros(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        _, b = hachihachi.teyaku(hands[i], kind_masks)
        out[i] = b
    return out
