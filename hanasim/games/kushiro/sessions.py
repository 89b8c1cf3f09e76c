"""Kushiro Toppa's sessions: the chunk runner the engine's runner calls, the session loop
(first dealer, the dealer's rotation, session totals) and its random streams: round i of a
session deals on stream 3i and plays on stream 3i+1 of the session's key; the first-dealer
draw is stream 3 * rounds + 2."""
from __future__ import annotations

import numpy as np
from numba import njit

from ...engine.lookahead import new_scratch, uses_lookahead
from ...engine.jit import hot
from ...engine.rng import round_stream, stream_state
from .lookahead import greedy_rows
from .lower import P_DEALS_ONLY, P_FIXED_DEALER, P_PLAYERS, P_ROTATE, P_SESSION
from .policy import PC_CARD
from .round import first_dealer, play_round
from .rules import MAX_PLAYERS
from .slots import KS_N, PILE_N, R_CHIPS, R_N, R_WINNER
from .tally import (C_FIRST_TIES, C_FIRST_TOTAL, C_FIRST_TOTAL_SQ, C_FIRST_WINS, C_SESSIONS,
                    tally_deal, tally_round)


@hot
def play_sessions(seed, s0, s1, total_rounds, rng, drng, order, pile, hands, ks, res, totals, tb,
                  pol, scal, tcount, ycount, look):
    p = tb.params
    n = p[P_PLAYERS]
    session = p[P_SESSION]
    for s in range(s0, s1):
        key = stream_state(seed, s)
        n_rounds = min(session, total_rounds - s * session)
        dealer = 0
        if p[P_FIXED_DEALER] == 0:
            round_stream(drng, key, 3 * n_rounds + 2, order)
            dealer = first_dealer(drng, order, n)
        first = dealer
        for q in range(MAX_PLAYERS):
            totals[q] = 0
        for i in range(n_rounds):
            round_stream(drng, key, 3 * i, order)
            rng[0] = stream_state(key, np.uint64(3 * i + 1))
            play_round(drng, rng, order, pile, hands, ks, tb, pol, dealer, res, look)
            tally_deal(scal, tcount, res, n)
            if p[P_DEALS_ONLY]:
                continue
            tally_round(scal, ycount, res, dealer, n)
            for st in range(n):
                q = dealer + st
                q = q - n if q >= n else q
                totals[q] += res[R_CHIPS + st]
            if p[P_FIXED_DEALER] == 0:
                if p[P_ROTATE] != 0:
                    dealer = dealer + 1 if dealer + 1 < n else 0
                elif res[R_WINNER] >= 0:
                    dealer = dealer + res[R_WINNER]
                    dealer = dealer - n if dealer >= n else dealer
        if p[P_DEALS_ONLY] or n_rounds < session:
            continue  # deals only, or a session cut off by the end of the run: no session
        scal[C_SESSIONS] += 1
        ft = totals[first]
        scal[C_FIRST_TOTAL] += ft
        scal[C_FIRST_TOTAL_SQ] += ft * ft
        scal[C_FIRST_WINS] += ft > 0
        scal[C_FIRST_TIES] += ft == 0


@njit(cache=True, nogil=True)
def run_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, pol, scal, tcount,
               ycount, look):
    """Sessions in chunks (the runner gives each thread its own chunks); ``look``: None, or
    True when a player plays by lookahead (a kernel of its own)."""
    n_chunks = scal.shape[0]
    for ch in range(n_chunks):
        rng = np.zeros(1, dtype=np.uint64)
        drng = np.zeros(1, dtype=np.uint64)
        order = np.arange(48).astype(np.int8)
        pile = np.zeros(PILE_N, dtype=np.int8)
        hands = np.zeros(MAX_PLAYERS, dtype=np.uint64)
        res = np.zeros(R_N, dtype=np.int64)
        totals = np.zeros(MAX_PLAYERS, dtype=np.int64)
        ks = np.zeros(KS_N, dtype=np.uint64)
        s0 = first_session + ch * chunk
        s1 = min(s0 + chunk, first_session + n_sessions)
        if look is None:
            play_sessions(seed, s0, s1, total_rounds, rng, drng, order, pile, hands, ks, res,
                          totals, tb, pol, scal[ch], tcount[ch], ycount[ch], None)
        else:
            ctx = (tb, res, new_scratch(KS_N, PILE_N, 2), greedy_rows(pol))
            play_sessions(seed, s0, s1, total_rounds, rng, drng, order, pile, hands, ks, res,
                          totals, tb, pol, scal[ch], tcount[ch], ycount[ch], ctx)


def play_kernel(tb, seed, rounds, pol, first, n, chunk, out):
    run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, pol, out["scal"], out["tcount"],
               out["ycount"], uses_lookahead(pol[:, PC_CARD]))
