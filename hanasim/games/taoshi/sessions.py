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
from ...engine.deal import cut_for_dealer
from ...engine.jit import hot
from ...engine.lookahead import new_scratch, uses_lookahead
from ...engine.rng import round_streams
from ...engine.tally import tally_total
from .lower import P_DEALS_ONLY, P_FIXED_DEALER, P_PLAYERS, P_SESSION
from .policy import PC_CARD
from .round import LATEST_DEALS
from .round import play_round as deal_and_play
from .rules import ACTIVE, MAX_PLAYERS
from .slots import PBUF, R_N, R_SCORE, R_WINNER, ST_N
from .tally import C_FIRST_TOTAL, C_FIRST_WINS, C_SESSIONS, tally_deal
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


chunk_counters = engine_sessions.counter_rows(3)
session_length = engine_sessions.param_hook(P_SESSION)
n_players = engine_sessions.param_hook(P_PLAYERS)
end_chunk = engine_sessions.end_chunk  # nothing kept in the lookahead context
seat_score = engine_sessions.result_hook(7, R_SCORE)  # 0 in a deals-only run (no session is counted there)
game_over = engine_sessions.one_game_over(session_length)  # the game is the session


@hot(inline="always")
def start_game(tb, work, key, i, n_rounds):
    # one game a session (i is 0): the first dealer's draw (round.first_dealer) on the
    # session's stream 3 * rounds + 2
    p = tb.params
    return 0 if p[P_FIXED_DEALER] else cut_for_dealer(work[1], work[2], key, 3 * n_rounds + 2,
                                                       p[P_PLAYERS], LATEST_DEALS)


@hot(inline="always")
def play_round(tb, work, players, key, i, dealer, look):
    rng, drng, order, hands, pbuf, st, pol3, res = work
    round_streams(drng, rng, key, i, order)
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
def next_dealer(tb, work, dealer):
    p = tb.params
    if p[P_DEALS_ONLY] != 0 or p[P_FIXED_DEALER] != 0:
        return dealer
    n = p[P_PLAYERS]
    d = dealer + work[7][R_WINNER]  # the round's winner deals next
    return d - n if d >= n else d


@hot(inline="always")
def tally_game(tb, work, counts, first, totals):
    if tb.params[P_DEALS_ONLY] != 0:
        return  # deals only: no session
    scal = counts[0]
    ft = totals[first]
    tally_total(scal, C_SESSIONS, C_FIRST_TOTAL, ft)
    alone = True  # the first dealer's total beats every other player's (a tie: no win)
    for q in range(tb.params[P_PLAYERS]):
        if q != first and totals[q] >= totals[first]:
            alone = False
    scal[C_FIRST_WINS] += alone


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
