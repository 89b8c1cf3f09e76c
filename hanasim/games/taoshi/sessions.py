"""Taoshi's side of the engine's sessions (``engine.sessions``): the hooks that give the
engine its round and its tallies, and the two kernels that hand this module to the engine's
loops (``run_chunks``, the kernel the runner calls, and ``play_sessions``).

Random streams: round i of a session deals on stream 3i and plays on stream 3i+1 of the
session's key; the first-dealer draw is stream 3 * rounds + 2 (``engine.rng.round_stream``:
each from the unshuffled deck).  The dealer: drawn at the session's start ("Choosing the
Dealer", ``first_dealer``), then the round's winner deals; a deals-only run draws the first
dealer and keeps it."""
from __future__ import annotations

import sys

import numpy as np
from numba import njit

from ...engine import sessions as engine_sessions
from ...engine.jit import hot
from ...engine.lookahead import new_scratch, uses_lookahead
from ...engine.rng import round_stream, stream_state
from .lower import P_DEALS_ONLY, P_FIXED_DEALER, P_PLAYERS, P_SESSION
from .policy import PC_CARD
from .round import first_dealer
from .round import play_round as deal_and_play
from .rules import ACTIVE, MAX_PLAYERS
from .slots import PBUF, R_N, R_SCORE, R_WINNER, ST_N
from .tally import C_FIRST_TOTAL, C_FIRST_TOTAL_SQ, C_FIRST_WINS, C_SESSIONS, tally_deal
from .tally import tally_round as tally_play

GAME = sys.modules[__name__]  # the module whose hooks the engine inlines
LOOP = engine_sessions.ONE_GAME  # one game a session (engine.sessions.play runs it)


# ---------------------------------------------------------------- the hooks (engine.sessions)
# work: (play stream, deal stream, deck order, hands and field, draw pile, play state, the
# active players' card policies, result)

@njit(inline="always")
def new_work(tb):
    return (np.zeros(1, dtype=np.uint64), np.zeros(1, dtype=np.uint64),
            np.arange(48).astype(np.int8), np.zeros(MAX_PLAYERS + 1, dtype=np.uint64),
            np.zeros(PBUF, dtype=np.int8), np.zeros(ST_N, dtype=np.uint64),
            np.zeros(ACTIVE, dtype=np.int64), np.zeros(R_N, dtype=np.int64))


@njit(inline="always")
def look_context(tb, work, players):
    return (tb, work[7], new_scratch(ST_N, PBUF, ACTIVE))


@hot(inline="always")
def chunk_counters(tb, counters, ch):
    return counters[0][ch], counters[1][ch], counters[2][ch]


@hot(inline="always")
def session_length(tb):
    return tb.params[P_SESSION]


@hot(inline="always")
def n_players(tb):
    return tb.params[P_PLAYERS]


@hot(inline="always")
def start_game(tb, work, key, i, n_rounds):
    # one game a session (i is 0): the first dealer's draw from the session's own stream
    if tb.params[P_FIXED_DEALER] != 0:
        return 0
    drng, order = work[1], work[2]
    round_stream(drng, key, 3 * n_rounds + 2, order)
    return first_dealer(drng, order, tb.params[P_PLAYERS])


@hot(inline="always")
def play_round(tb, work, players, key, i, dealer, look):
    rng, drng, order, hands, pbuf, st, pol3, res = work
    round_stream(drng, key, 3 * i, order)
    rng[0] = stream_state(key, np.uint64(3 * i + 1))
    deal_and_play(drng, rng, order, hands, pbuf, st, pol3, tb, players, dealer, res, look)


@hot(inline="always")
def tally_round(tb, work, counts, dealer):
    res = work[7]
    scal, tcount, vcount = counts
    n = tb.params[P_PLAYERS]
    tally_deal(scal, tcount, vcount, res, n, tb.values)
    if tb.params[P_DEALS_ONLY] == 0:
        tally_play(scal, res, dealer, n)


@hot(inline="always")
def seat_score(tb, work, seat):
    return work[7][R_SCORE + seat]  # 0 in a deals-only run (no session is counted there)


@hot(inline="always")
def next_dealer(tb, work, dealer):
    p = tb.params
    if p[P_DEALS_ONLY] != 0 or p[P_FIXED_DEALER] != 0:
        return dealer
    n = p[P_PLAYERS]
    d = dealer + work[7][R_WINNER]  # the round's winner deals next
    return d - n if d >= n else d


@hot(inline="always")
def game_over(tb, work, counts, r, n_rounds, totals):
    # a game is the whole session (the last one cut off by the run's end)
    return engine_sessions.whole_session(r, n_rounds, tb.params[P_SESSION])


@hot(inline="always")
def tally_game(tb, counts, first, totals):
    if tb.params[P_DEALS_ONLY] != 0:
        return  # deals only: no session
    scal = counts[0]
    scal[C_SESSIONS] += 1
    ft = totals[first]
    scal[C_FIRST_TOTAL] += ft
    scal[C_FIRST_TOTAL_SQ] += ft * ft
    alone = True  # the first dealer's total beats every other player's (a tie: no win)
    for q in range(tb.params[P_PLAYERS]):
        if q != first and totals[q] >= totals[first]:
            alone = False
    scal[C_FIRST_WINS] += alone


@hot(inline="always")
def end_chunk(tb, counts, look):
    pass  # nothing kept in the lookahead context


# ---------------------------------------------------------------- the kernels

@hot
def play_sessions(seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
    """Sessions ``s0 .. s1-1`` of a chunk (``engine.sessions.play``, this module's
    hooks inlined): a kernel of its own, compiled without reference counting."""
    engine_sessions.play(GAME, seed, s0, s1, total_rounds, tb, work, players, counts,
                         totals, look)


@njit(cache=True, nogil=True)
def run_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, pol, scal, tcount,
               vcount, look):
    """Sessions in chunks (``engine.sessions``; the runner gives each thread its own chunks);
    ``pol``: the players' policy rows; ``look``: None, or True when a player plays by
    lookahead (a kernel of its own)."""
    engine_sessions.run_chunks(GAME, seed, first_session, n_sessions, chunk, total_rounds, tb,
                               pol, (scal, tcount, vcount), look)


def play_kernel(tb, seed, rounds, pol, first, n, chunk, out):
    run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, pol, out["scal"], out["tcount"],
               out["vcount"], uses_lookahead(pol[:, PC_CARD]))


engine_sessions.check_game(GAME)
