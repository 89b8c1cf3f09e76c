"""Kushiro Toppa's side of the engine's sessions (``engine.sessions``): the hooks that give the
engine its round and its tallies, and the two kernels that hand this module to the engine's
loops (``run_chunks``, the kernel the runner calls, and ``play_sessions``).

Random streams: round i of a session deals on stream 3i and plays on stream 3i+1 of the
session's key; the first-dealer draw is stream 3 * rounds + 2 (``engine.rng.round_stream``:
each from the unshuffled deck).  The dealer: drawn at the session's start (``first_dealer``),
then passed by ``dealer_next`` (the round's scorer, or the next seat); a deals-only run draws
the first dealer and keeps it."""
from __future__ import annotations

import sys

import numpy as np
from numba import njit

from ...engine import card_tally
from ...engine import sessions as engine_sessions
from ...engine.bits import bit
from ...engine.deal import cut_for_dealer
from ...engine.jit import hot
from ...engine.lookahead import new_scratch, uses_lookahead
from ...engine.rng import round_streams
from ...engine.tally import tally_total
from .lookahead import greedy_rows
from .lower import P_DEALS_ONLY, P_FIXED_DEALER, P_PLAYERS, P_ROTATE, P_SESSION
from .policy import PC_CARD, PC_N
from .round import LATEST_DEALS
from .round import play_round as deal_and_play
from .rules import FIELD_SIZE, HAND_SIZE, MAX_PLAYERS
from .slots import KS_N, PILE_N, R_CHIPS, R_N, R_WINNER
from .tally import (C_FIRST_TIES, C_FIRST_TOTAL, C_FIRST_WINS, C_SESSIONS,
                    tally_deal)
from .tally import tally_round as tally_play

GAME = sys.modules[__name__]  # the module whose hooks the engine inlines
LOOP = engine_sessions.ONE_GAME  # one game a session (engine.sessions.play runs it)


# ---------------------------------------------------------------- the hooks (engine.sessions)
# work: (play stream, deal stream, deck order, draw pile buffer, hands, play state, result)

@njit(inline="always")
def new_work(tb):
    # the deck order is put back in card order before every use (engine.rng.round_stream):
    # zeros, like the pile buffer's (np.arange compiled two more allocations)
    return (np.zeros(1, dtype=np.uint64), np.zeros(1, dtype=np.uint64),
            np.zeros(48, dtype=np.int8), np.zeros(PILE_N, dtype=np.int8),
            np.zeros(MAX_PLAYERS, dtype=np.uint64), np.zeros(KS_N, dtype=np.uint64),
            np.zeros(R_N, dtype=np.int64))


@njit(inline="always")
def look_context(tb, work, players):
    # the rollouts' rows (greedy/stop): the rollouts read only the CARD and DECISION columns,
    # the same for every player, so they are built from zero rows
    return (tb, work[6], new_scratch(KS_N, PILE_N, 2),
            greedy_rows(np.zeros((MAX_PLAYERS, PC_N), dtype=np.int64)))


chunk_counters = engine_sessions.counter_rows(4)  # scal, tcount, ycount, cards
session_length = engine_sessions.param_hook(P_SESSION)
n_players = engine_sessions.param_hook(P_PLAYERS)
end_chunk = engine_sessions.end_chunk  # nothing kept in the lookahead context
seat_score = engine_sessions.result_hook(6, R_CHIPS)  # 0 in a deals-only run (no session is counted there)
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
    rng, drng, order, pile, hands, ks, res = work
    round_streams(drng, rng, key, i, order)
    deal_and_play(drng, rng, order, pile, hands, ks, tb, players, dealer, res, look)


@hot(inline="always")
def tally_round(tb, work, counts, dealer):
    res = work[6]
    scal, tcount, ycount, cards = counts
    n = tb.params[P_PLAYERS]
    tally_deal(scal, tcount, res, n)
    if tb.params[P_DEALS_ONLY] == 0:
        tally_play(scal, ycount, res, dealer, n)
        card_tally.tally_round(GAME, tb, work, cards, n)


@hot(inline="always")
def dealt(tb, work, g):
    # the dealt cards (card values): seat g (relative to the dealer) holds order[10g : 10g + 10]
    # and the field (g == players) the next 8 (round.deal_round); the four-in-hand swap
    # changes the hand and the draw pile's part of the order, never these
    order = work[2]
    start = HAND_SIZE * g
    end = start + (FIELD_SIZE if g == tb.params[P_PLAYERS] else HAND_SIZE)
    m = np.uint64(0)
    for i in range(start, end):
        m |= bit(order[i])
    return m


@hot(inline="always")
def next_dealer(tb, work, dealer):
    p = tb.params
    if p[P_DEALS_ONLY] != 0 or p[P_FIXED_DEALER] != 0:
        return dealer
    n = p[P_PLAYERS]
    if p[P_ROTATE] != 0:
        return dealer + 1 if dealer + 1 < n else 0
    w = work[6][R_WINNER]
    if w >= 0:  # the round's scorer deals next; a round nobody scores keeps the dealer
        d = dealer + w
        return d - n if d >= n else d
    return dealer


@hot(inline="always")
def tally_game(tb, work, counts, first, totals):
    if tb.params[P_DEALS_ONLY] != 0:
        return  # deals only: no session
    scal = counts[0]
    ft = totals[first]
    tally_total(scal, C_SESSIONS, C_FIRST_TOTAL, ft)
    scal[C_FIRST_WINS] += ft > 0
    scal[C_FIRST_TIES] += ft == 0


# ---------------------------------------------------------------- the kernels

@hot
def play_sessions(seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
    """Sessions ``s0 .. s1-1`` of a chunk (``engine.sessions.play``, this module's
    hooks inlined): a kernel of its own, compiled without reference counting."""
    engine_sessions.play(GAME, seed, s0, s1, total_rounds, tb, work, players, counts,
                         totals, look)


@njit(cache=True, nogil=True)
def run_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, pol, scal, tcount,
               ycount, cards, look):
    """Sessions in chunks (``engine.sessions``; the runner gives each thread its own chunks);
    ``pol``: the players' policy rows; ``cards``: ``engine.card_tally`` (empty unless the run
    tallies card values); ``look``: None, or True when a player plays by lookahead (a kernel
    of its own)."""
    engine_sessions.run_chunks(GAME, seed, first_session, n_sessions, chunk, total_rounds, tb,
                               pol, (scal, tcount, ycount, cards), look)


def play_kernel(tb, seed, rounds, pol, first, n, chunk, out):
    run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, pol, out["scal"], out["tcount"],
               out["ycount"], card_tally.kernel_counter(out), uses_lookahead(pol[:, PC_CARD]))


engine_sessions.check_game(GAME)
