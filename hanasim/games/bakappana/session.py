"""Bakappana's games of ``rounds_per_game`` rounds and their counters.

A game is a session: its own random stream ``stream_state(seed, game)`` from the unshuffled
deck; the first dealer is drawn, then the highest scorer of each round deals the next (End of
Round and Scoring).  Counters are integers per chunk, summed by the caller, so tables never
depend on threads or chunking.
"""
import sys

import numpy as np
from numba import njit

from ...decks import HANAFUDA
from ...engine.jit import hot
from ...engine.lookahead import new_scratch
from ...engine import card_tally, sessions
from ...engine.rng import below, restart, shuffle_range
from ...engine.tally import HIST_BINS, hist_add
from .lower import P_FIXED_DEALER, P_GAME_ROUNDS, P_PLAYERS, P_TIE_RANDOM
from .round import R_MISDEALS, R_N, R_PTS, R_SCORE, deal_round, play_dealt

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
def next_dealer_seat(rng, res, n, dealer, tie_random):
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
def tally(scal, res, n, dealer, winner_seat, tied):
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
def tally_game_totals(scal, totals, n, first, c_games, c_first, c_player, player_w, q_total,
                      hist_at):
    """A whole game of ``n`` players' ``totals`` (``first``: the first dealer): games and tied
    games at ``c_games``, ``c_games + 1``; the first dealer's total, its square and a win at
    ``c_first ..``, its histogram at ``hist_at``; per player ``q`` (block ``c_player +
    player_w * q``) the total, its square, a win and having dealt first at ``q_total ..``.  A
    win is the one highest total.  (Ishikari Toppa counts its games so, in its own layout.)"""
    best = totals[0]
    for q in range(1, n):
        best = max(best, totals[q])
    n_best = 0
    for q in range(n):
        n_best += totals[q] == best
    scal[c_games] += 1
    scal[c_games + 1] += n_best > 1
    for q in range(n):
        b = c_player + player_w * q + q_total
        scal[b] += totals[q]
        scal[b + 1] += totals[q] * totals[q]
        scal[b + 2] += n_best == 1 and totals[q] == best
        scal[b + 3] += q == first
    t = totals[first]
    scal[c_first] += t
    scal[c_first + 1] += t * t
    scal[c_first + 2] += n_best == 1 and t == best
    hist_add(scal, hist_at, t)


@hot(inline="always")
def tally_whole_game(scal, totals, n, first):
    tally_game_totals(scal, totals, n, first, C_GAMES, C_FIRST_TOTAL, C_PLAYER, PLAYER_W, Q_TOTAL,
                      C_HIST + HIST_BINS * H_FIRST)


# ---------------------------------------------------------------- the engine's hooks
# (engine.sessions, engine/ADDING_A_GAME.md).  A game is a session: one random stream per game,
# the first-dealer draw then every round drawing from it in turn, from the unshuffled deck.
GAME = sys.modules[__name__]
LOOP = sessions.ONE_GAME  # one game a session (engine.sessions.play runs it)
chunk_counters = sessions.counter_rows(2)  # scal, cards
session_length = sessions.param_hook(P_GAME_ROUNDS)
n_players = sessions.param_hook(P_PLAYERS)
seat_score = sessions.result_hook(4, R_SCORE)
game_over = sessions.one_game_over(session_length)  # the game is the session
end_chunk = sessions.end_chunk  # nothing kept in the lookahead context


@njit(inline="always")
def new_work(tb):
    n = tb.params[P_PLAYERS]
    return (np.zeros(1, dtype=np.uint64), np.arange(48).astype(np.int8),
            np.zeros(n + 1, dtype=np.uint64), np.zeros(3 * n + 3, dtype=np.uint64),
            np.zeros(R_N + 2, dtype=np.int64))


@njit(inline="always")
def look_context(tb, work, players):
    n = tb.params[P_PLAYERS]
    return (tb, work[4], new_scratch(3 * n + 3, 48, n))


@hot(inline="always")
def start_game(tb, work, key, i, n_rounds):
    rng, order = work[0], work[1]
    restart(rng, key, order)  # a game depends on nothing but its own stream
    return 0 if tb.params[P_FIXED_DEALER] else first_dealer(rng, order, tb.params[P_PLAYERS])


# the round's winning seat and whether the top score was tied, after the round's slots
R_NEXT, R_TIED = R_N, R_N + 1


@hot(inline="always")
def play_round(tb, work, players, key, i, dealer, look):
    rng, order, groups, st, res = work
    n = tb.params[P_PLAYERS]
    mis = deal_round(rng, order, groups, tb.pattern, n, tb.cond)
    res[R_MISDEALS] = mis
    play_dealt(rng, order, groups, st, tb, players, dealer, res, look)
    # the next dealer is drawn here, after the play (a random pick among a tied top score)
    seat, tied = next_dealer_seat(rng, res, n, dealer, tb.params[P_TIE_RANDOM])
    res[R_NEXT] = seat
    res[R_TIED] = tied


@hot(inline="always")
def tally_round(tb, work, counts, dealer):
    res = work[4]
    scal = counts[0]
    n = tb.params[P_PLAYERS]
    scal[C_DEALS] += res[R_MISDEALS] + 1
    scal[C_MISDEALS] += res[R_MISDEALS]
    tally(scal, res, n, dealer, res[R_NEXT], res[R_TIED] != 0)
    if not tb.params[P_FIXED_DEALER]:
        scal[C_KEEPS] += res[R_NEXT] == 0
    card_tally.tally_round(GAME, tb, work, counts[1], n)


@hot(inline="always")
def dealt(tb, work, g):
    # the dealt groups (card values): seat g relative to the dealer, g == players the field
    return work[2][g]


@hot(inline="always")
def next_dealer(tb, work, dealer):
    if tb.params[P_FIXED_DEALER]:
        return dealer
    n = tb.params[P_PLAYERS]
    d = dealer + work[4][R_NEXT]
    return d - n if d >= n else d


@hot(inline="always")
def tally_game(tb, work, counts, first, totals):
    tally_whole_game(counts[0], totals, tb.params[P_PLAYERS], first)


@hot
def play_sessions(seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
    sessions.play(GAME, seed, s0, s1, total_rounds, tb, work, players, counts, totals,
                  look)


@njit(cache=True, nogil=True)
def run_chunks(seed, first_game, n_games, chunk, total_rounds, tb, policy, scal, cards, look):
    """Games ``first_game ..`` in chunks of ``chunk`` games (``scal[chunk, C_N]``; ``cards``:
    ``engine.card_tally``, empty unless the run tallies card values), on the engine's session
    machinery; ``look``: None, or True when a player plays by lookahead."""
    sessions.run_chunks(GAME, seed, first_game, n_games, chunk, total_rounds, tb, policy,
                        (scal, cards), look)


sessions.check_game(GAME)
