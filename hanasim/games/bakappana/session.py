"""Bakappana's games of ``rounds_per_game`` rounds and their counters.

A game is a session: its own random stream ``stream_state(seed, game)`` from the unshuffled
deck; the first dealer is drawn, then the highest scorer of each round deals the next (End of
Round and Scoring).  Counters are integers per chunk, summed by the caller, so tables never
depend on threads or chunking.
"""
import numpy as np
from numba import njit

from ...decks import HANAFUDA
from ...engine.jit import hot
from ...engine.lookahead import new_scratch
from ...engine.rng import below, shuffle_range, stream_state
from ...engine.tally import HIST_BINS, hist_add
from .lower import P_FIXED_DEALER, P_GAME_ROUNDS, P_PLAYERS, P_TIE_RANDOM
from .round import R_N, R_PTS, R_SCORE, deal_round, play_dealt

MAX_PLAYERS = 4
# counters: scalars, then per seat (relative to the dealer), per player, histograms
(C_DEALS, C_MISDEALS, C_ROUNDS, C_TOP_TIES, C_SUM, C_SUM_SQ, C_GAMES, C_GAME_TIES,
 C_FIRST_TOTAL, C_FIRST_TOTAL_SQ, C_FIRST_WINS, C_KEEPS) = range(12)
C_SEAT = 12
K_SCORE, K_SCORE_SQ, K_WINS, K_PTS, K_PTS_SQ = range(5)
SEAT_W = 5
C_PLAYER = C_SEAT + SEAT_W * MAX_PLAYERS
Q_SCORE, Q_SCORE_SQ, Q_WINS, Q_DEALS, Q_TOTAL, Q_TOTAL_SQ, Q_GAME_WINS, Q_FIRST = range(8)
PLAYER_W = 8
C_HIST = C_PLAYER + PLAYER_W * MAX_PLAYERS
H_FIRST = MAX_PLAYERS  # histograms 0..3: each seat's round score; 4: the first dealer's total
C_N = C_HIST + HIST_BINS * (MAX_PLAYERS + 1)


@hot
def first_dealer(rng, order, n):
    """Each player draws a card; the earliest month deals, within a month the higher-ranked
    card (kind 0 bright to 3 chaff); two cards of one month and kind draw again (the rule page,
    Choosing the Dealer)."""
    while True:
        shuffle_range(rng, order, 0, n)
        best = 99
        who = -1
        tie = False
        for q in range(n):
            c = np.int64(order[q])
            key = (c >> 2) * 4 + _kind_rank(c)
            if key < best:
                best, who, tie = key, q, False
            elif key == best:
                tie = True
        if not tie:
            return who


@hot
def _kind_rank(c):
    return np.int64(_KINDS[c])


_KINDS = HANAFUDA.kind.astype(np.int8)  # bright 0, animal 1, ribbon 2, chaff 3


@hot
def next_dealer(rng, res, n, dealer, tie_random):
    """The seat with the highest score deals next; a tied top goes to the first of them in
    turn order (``keep``), or to one of them at random.  Returns (seat, tied)."""
    top = res[R_SCORE]
    for s in range(1, n):
        top = max(top, res[R_SCORE + s])
    n_top = 0
    for s in range(n):
        n_top += res[R_SCORE + s] == top
    pick = below(rng, n_top) if (tie_random and n_top > 1) else 0
    for s in range(n):
        if res[R_SCORE + s] == top:
            if pick == 0:
                return s, n_top > 1
            pick -= 1
    return 0, n_top > 1


@hot(inline="always")
def tally_round(scal, res, n, dealer, winner_seat, tied):
    scal[C_ROUNDS] += 1
    total = 0
    for s in range(n):
        x = res[R_SCORE + s]
        p = res[R_PTS + s]
        total += x
        b = C_SEAT + SEAT_W * s
        scal[b + K_SCORE] += x
        scal[b + K_SCORE_SQ] += x * x
        scal[b + K_WINS] += (not tied) and s == winner_seat
        scal[b + K_PTS] += p
        scal[b + K_PTS_SQ] += p * p
        q = dealer + s
        q = q - n if q >= n else q
        b = C_PLAYER + PLAYER_W * q
        scal[b + Q_SCORE] += x
        scal[b + Q_SCORE_SQ] += x * x
        scal[b + Q_WINS] += (not tied) and s == winner_seat
        scal[b + Q_DEALS] += s == 0
        hist_add(scal, C_HIST + HIST_BINS * s, x)
    scal[C_TOP_TIES] += tied
    scal[C_SUM] += total
    scal[C_SUM_SQ] += total * total


@hot(inline="always")
def tally_game(scal, totals, n, first):
    best = totals[0]
    for q in range(1, n):
        best = max(best, totals[q])
    n_best = 0
    for q in range(n):
        n_best += totals[q] == best
    scal[C_GAMES] += 1
    scal[C_GAME_TIES] += n_best > 1
    for q in range(n):
        b = C_PLAYER + PLAYER_W * q
        scal[b + Q_TOTAL] += totals[q]
        scal[b + Q_TOTAL_SQ] += totals[q] * totals[q]
        scal[b + Q_GAME_WINS] += n_best == 1 and totals[q] == best
        scal[b + Q_FIRST] += q == first
    t = totals[first]
    scal[C_FIRST_TOTAL] += t
    scal[C_FIRST_TOTAL_SQ] += t * t
    scal[C_FIRST_WINS] += n_best == 1 and t == best
    hist_add(scal, C_HIST + HIST_BINS * H_FIRST, t)


@hot
def play_games(seed, g0, g1, total_rounds, rng, order, groups, st, res, totals, tb, policy,
               scal, look):
    params = tb.params
    n = params[P_PLAYERS]
    game_len = params[P_GAME_ROUNDS]
    fixed = params[P_FIXED_DEALER]
    for g in range(g0, g1):
        rng[0] = stream_state(seed, g)
        for i in range(order.shape[0]):
            order[i] = i
        n_rounds = min(game_len, total_rounds - g * game_len)
        dealer = 0 if fixed else first_dealer(rng, order, n)
        first = dealer
        for q in range(n):
            totals[q] = 0
        for _ in range(n_rounds):
            mis = deal_round(rng, order, groups, tb.pattern, n)
            scal[C_DEALS] += mis + 1
            scal[C_MISDEALS] += mis
            play_dealt(rng, order, groups, st, tb, policy, dealer, res, look)
            seat, tied = next_dealer(rng, res, n, dealer, params[P_TIE_RANDOM])
            tally_round(scal, res, n, dealer, seat, tied)
            for s in range(n):
                q = dealer + s
                totals[q - n if q >= n else q] += res[R_SCORE + s]
            if not fixed:
                scal[C_KEEPS] += seat == 0
                dealer = dealer + seat
                dealer = dealer - n if dealer >= n else dealer
        if n_rounds == game_len:  # a game cut off by the end of the run counts per round only
            tally_game(scal, totals, n, first)


@njit(cache=True, nogil=True)
def run_chunks(seed, first_game, n_games, chunk, total_rounds, tb, policy, scal, look):
    """Play games ``first_game ..`` in chunks of ``chunk`` games (``scal[chunk, C_N]``);
    ``look``: None, or True when a player plays by lookahead (a kernel of its own)."""
    n = tb.params[P_PLAYERS]
    for ch in range(scal.shape[0]):
        rng = np.zeros(1, dtype=np.uint64)
        order = np.arange(48).astype(np.int8)
        groups = np.zeros(n + 1, dtype=np.uint64)
        st = np.zeros(3 * n + 3, dtype=np.uint64)  # engine.state.size(n)
        res = np.zeros(R_N, dtype=np.int64)
        totals = np.zeros(MAX_PLAYERS, dtype=np.int64)
        g0 = first_game + ch * chunk
        g1 = min(g0 + chunk, first_game + n_games)
        if look is None:
            play_games(seed, g0, g1, total_rounds, rng, order, groups, st, res, totals, tb,
                       policy, scal[ch], None)
        else:
            ctx = (tb, res, new_scratch(3 * n + 3, 48, n))
            play_games(seed, g0, g1, total_rounds, rng, order, groups, st, res, totals, tb,
                       policy, scal[ch], ctx)
