"""The deals-only fast path shared by every game: shuffle just the dealt cards, check for a
misdeal, and count the teyaku the hands hold; no play.  A "round" is a deal that is played
(not a misdeal).  Each stream of ``DEALS_PER_SESSION`` rounds starts from the unshuffled deck,
so counts depend only on the seed and the number of rounds."""
import numpy as np
from numba import njit

from .bits import has_full_nibble
from .deal import deal, sample_deal
from .jit import hot
from .rng import deal_shuffle, stream_state
from .where import where_ok
from .tally import tally_hits
from .yaku import teyaku_by_nibbles

DEALS_PER_SESSION = 64


@njit(cache=True, nogil=True)
def run_deal_chunks(seed, first_session, n_sessions, chunk, total_rounds, month_masks, kind_masks,
                    tey, pattern, combine, n_hands, n_checked, slots, scal, tcount, cond):
    """``pattern`` deals groups 0..n_hands-1 (hands) then the field; the first ``n_checked``
    groups are checked for four of a month (the Toppa rule page: either hand or the field).
    ``slots`` holds the counter indices of (deals, misdeals, rounds) in ``scal``.  ``cond``:
    the run's conditioned deal (``engine.rng``, "conditional deals"; empty: none)."""
    n_groups = 0
    for i in range(pattern.shape[0]):
        n_groups = max(n_groups, pattern[i] + 1)
    for ch in range(scal.shape[0]):
        rng = np.zeros(1, dtype=np.uint64)
        order = np.arange(48).astype(np.int8)
        groups = np.zeros(n_groups, dtype=np.uint64)
        s0 = first_session + ch * chunk
        s1 = min(s0 + chunk, first_session + n_sessions)
        for s in range(s0, s1):
            rng[0] = stream_state(seed, s)
            for i in range(48):
                order[i] = i
            n_rounds = min(DEALS_PER_SESSION, total_rounds - s * DEALS_PER_SESSION)
            _deal_only_session(rng, order, groups, month_masks, kind_masks, tey, pattern,
                               combine, n_hands, n_checked, slots, n_rounds, scal[ch], tcount[ch],
                               cond)


@hot
def _deal_only_session(rng, order, groups, month_masks, kind_masks, tey, pattern, combine,
                       n_hands, n_checked, slots, n_rounds, scal, tcount, cond):
    plain = cond.shape[0] == 0
    for _ in range(n_rounds):
        while True:
            if plain:
                sample_deal(rng, order, pattern, groups)
            else:
                deal_shuffle(rng, order, order.shape[0], 0, pattern.shape[0], cond)
                deal(order, pattern, groups)
            mis = False
            for g in range(n_checked):
                mis = mis or has_full_nibble(groups[g])
            if mis:
                scal[slots[0]] += 1
                scal[slots[1]] += 1
                continue
            # a deal failing --where is dealt again, counted nowhere
            if where_ok(order, cond):
                scal[slots[0]] += 1
                break
        scal[slots[2]] += 1
        h0 = teyaku_by_nibbles(groups[0], tey, month_masks, kind_masks, combine)[1]
        h1 = teyaku_by_nibbles(groups[1], tey, month_masks, kind_masks, combine)[1]
        h2 = 0
        if n_hands > 2:
            h2 = teyaku_by_nibbles(groups[2], tey, month_masks, kind_masks, combine)[1]
        tally_hits(tcount, h0, h1, h2, tey.shape[0])
