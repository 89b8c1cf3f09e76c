"""Deals only (``--deals-only``): round 1's deal from the start deck, no play, on the engine's
sessions (``engine/sessions.py``; this module's hooks).  Each session of
:data:`DEALS_PER_SESSION` deals starts from the deck laid out in card order on the session's
stream; each deal shuffles the dealt cards of the last one's order (a partial shuffle of any
arrangement leaves a uniform sample in front).  Later rounds' decks depend on play: ``exact.py``
gives the odds of any deck."""
import sys

import numpy as np
from numba import njit

from ...engine import sessions
from ...engine.bits import ONE, ZERO, bit, count, lowest
from ...engine.jit import hot
from ...engine.rng import deal_shuffle
from .lower import P_DECK
from .rules import DEALS_PER_SESSION, DEALT, HAND, N_PLAYERS
from .tally import C_ROUNDS, count_deal
from .yaku import yaku_bits

DEALS = sys.modules[__name__]  # the hooks (engine.sessions.HOOKS) the engine inlines
LOOP = sessions.ONE_GAME  # one game a session (engine.sessions.play runs it)
chunk_counters = sessions.counter_rows(2)
session_length = sessions.constant_hook(DEALS_PER_SESSION)
n_players = sessions.constant_hook(N_PLAYERS)
game_over = sessions.one_game_over(session_length)  # the game is the session
end_chunk = sessions.end_chunk  # nothing kept in the lookahead context


@njit(inline="always")
def new_work(tb):
    """The generator, the deck order, the deal's yaku bits (hand 0, hand 1, the field)."""
    return (np.zeros(1, dtype=np.uint64), np.zeros(48, dtype=np.int8),
            np.zeros(3, dtype=np.int64))


@njit(inline="always")
def look_context(tb, work, players):
    return None  # no players, no lookahead


@hot(inline="always")
def start_game(tb, work, key, i, n_rounds):
    rng, order = work[0], work[1]
    rng[0] = key
    j = 0
    m = np.uint64(tb.params[P_DECK])
    while m:
        order[j] = lowest(m)
        m &= m - ONE
        j += 1
    return 0


@hot(inline="always")
def play_round(tb, work, players, key, i, dealer, look):
    rng, order, bits = work
    deal_shuffle(rng, order, count(np.uint64(tb.params[P_DECK])), 0, DEALT, tb.cond)
    h0 = ZERO
    h1 = ZERO
    field = ZERO
    for j in range(HAND):
        h0 |= bit(order[j])
        h1 |= bit(order[HAND + j])
        field |= bit(order[2 * HAND + j])
    bits[0] = yaku_bits(h0, tb)
    bits[1] = yaku_bits(h1, tb)
    bits[2] = yaku_bits(field, tb)


@hot(inline="always")
def tally_round(tb, work, counts, dealer):
    scal, dcount = counts
    bits = work[2]
    scal[C_ROUNDS] += 1
    count_deal(scal, dcount, bits[0], bits[1], bits[2])


@hot(inline="always")
def seat_score(tb, work, seat):
    return 0


@hot(inline="always")
def next_dealer(tb, work, dealer):
    return dealer


@hot(inline="always")
def tally_game(tb, work, counts, first, totals):
    pass


@hot
def play_sessions(seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
    """Sessions ``s0 .. s1-1`` of a chunk (``engine.sessions.play``, this module's
    hooks inlined)."""
    sessions.play(DEALS, seed, s0, s1, total_rounds, tb, work, players, counts, totals,
                  look)


@njit(cache=True, nogil=True)
def run_deal_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, scal, dcount):
    """Deal-only sessions ``first_session ..`` in chunks; counters per chunk, summed by the
    caller."""
    sessions.run_chunks(DEALS, seed, first_session, n_sessions, chunk, total_rounds, tb, None,
                        (scal, dcount), None)


# engine.sessions.check_game asks for a ``run_chunks``; the kernel keeps the deals-only name
# (``compiling.kind_of`` names its compile notice by it)
run_chunks = run_deal_chunks
sessions.check_game(DEALS)
