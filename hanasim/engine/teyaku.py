"""The teyaku step after the deal, shared by Toppa and Baka (the Toppa rule page, "Checking for
Teyaku").

Each seat in turn order checks its hand; a teyaku scores only when exposed, and exposing is
the player's choice (a policy: ``expose`` always, never, random; a ``lookahead`` player decides
by lookahead).  The exposed cards are face up: they become ``known`` in the round state, so a
lookahead opponent deals them to nobody else when it determinises.
"""

import numpy as np

from . import lookahead, state
from .bits import ZERO
from .jit import hot
from .yaku import teyaku_by_nibbles, teyaku_cards
from ..policies import choose_expose


@hot(inline="always")
def expose_step(st, n, dealer, order, rng, table, month_masks, kind_masks, combine, policy,
                expose, res, held_slot, scored_slot, gscore, ghigh, look):
    """Fill ``res[held_slot + s]`` (teyaku bits held) and ``res[scored_slot + s]`` (the value
    scored, 0 when hidden) for every seat s, and ``st``'s known masks, on the state right after
    the deal (``state.start``).  ``policy``/``expose`` are indexed by player."""
    for s in range(n):
        res[scored_slot + s] = 0
    for s in range(n):
        # (unsigned: no check for a negative index)
        p = np.uint64(dealer + s if dealer + s < n else dealer + s - n)
        hand = st[s]
        v, h = teyaku_by_nibbles(hand, table, month_masks, kind_masks, combine)
        res[held_slot + s] = h
        if h == 0:
            continue
        if look is not None and lookahead.is_lookahead(policy[p]):
            r = rng[0]
            r, shown = lookahead.choose_expose(st, n, s, order, r, lookahead.samples(policy[p]),
                                               gscore, ghigh, look, scored_slot + s, v)
            rng[0] = r
        else:
            shown = choose_expose(expose[p], rng)
        if shown:
            res[scored_slot + s] = v
            st[state.known(n, s)] = teyaku_cards(hand, h, table, month_masks)
        else:
            st[state.known(n, s)] = ZERO
