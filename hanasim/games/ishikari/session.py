"""Ishikari Toppa's games and counters: Bakappana's game (first dealer drawn, the highest
scorer deals next, ``rounds_per_game`` rounds on the game's own random stream) with the chase
multiplier carried from round to round."""
import sys

import numpy as np
from numba import njit

from ...engine.jit import hot
from ...engine.lookahead import new_scratch
from ...engine.rng import restart
from ...engine import card_tally, sessions
from ...engine.tally import HIST_BINS, hist_add
from ..bakappana.session import first_dealer, next_dealer_seat, tally_game_totals
from .round import (ACTIVE, CH_CHASE, CH_DROP, CH_FORCED_IN, CH_FORCED_OUT, CH_JOIN,
                    CH_SEATED, P_CHASE,
                    P_DEALS_ONLY,
                    P_COMBINE, P_FIXED_DEALER, P_GAME_ROUNDS, P_PLAYERS, P_TIE_RANDOM,
                    R_ACT_SEAT, R_CHASERS, R_CHOICE, R_MISDEALS, R_N, R_PTS, R_SCORE,
                    R_MULT, R_TEY_SCORED)
from .deal_where import deal_where
from .round import hand_teyaku
from .round import play_dealt

MAX_PLAYERS = 6
(C_DEALS, C_MISDEALS, C_ROUNDS, C_TOP_TIES, C_CHASES, C_MULT, C_MULT_SQ, C_MULTIPLIED,
 C_GAMES, C_GAME_TIES, C_FIRST_TOTAL, C_FIRST_TOTAL_SQ, C_FIRST_WINS, C_CLAIMS, C_SUM) = range(15)
C_SEAT = 16
(K_SCORE, K_SCORE_SQ, K_WINS, K_PLAYS, K_JOIN, K_DROP, K_FORCED_IN, K_FORCED_OUT,
 K_CHASE) = range(9)
SEAT_W = 9
C_POS = C_SEAT + SEAT_W * MAX_PLAYERS
A_SCORE, A_SCORE_SQ, A_WINS, A_PTS, A_PTS_SQ = range(5)
POS_W = 5
C_PLAYER = C_POS + POS_W * ACTIVE
(Q_SCORE, Q_SCORE_SQ, Q_WINS, Q_DEALS, Q_PLAYS, Q_TOTAL, Q_TOTAL_SQ, Q_GAME_WINS,
 Q_FIRST) = range(9)
PLAYER_W = 9
C_HIST = C_PLAYER + PLAYER_W * MAX_PLAYERS
H_FIRST = MAX_PLAYERS  # histograms 0..5: each table seat's round score; 6: first dealer's total
C_N = C_HIST + HIST_BINS * (MAX_PLAYERS + 1)


@hot(inline="always")
def tally_teyaku(tcount, rowx, groups, n, tb):
    """Teyaku held by every dealt hand (seated or not, before any exchange of a four: the exact
    odds are per dealt hand); ``tcount[row] = (hands holding it, its square per round)``, row
    n_rows: any teyaku.  ``rowx``: scratch, this round's count per row."""
    n_rows = tcount.shape[0] - 1
    if n_rows == 0:
        return
    for row in range(n_rows):
        rowx[row] = 0
    any_ = 0
    for s in range(n):
        _, h = hand_teyaku(groups[s], tb)
        any_ += h != 0
        for row in range(n_rows):
            rowx[row] += (h >> row) & 1
    for row in range(n_rows):
        tcount[row, 0] += rowx[row]
        tcount[row, 1] += rowx[row] * rowx[row]
    tcount[n_rows, 0] += any_
    tcount[n_rows, 1] += any_ * any_


@hot(inline="always")
def tally(scal, res, n, dealer, win_pos, tied):
    """The round into the counters: by table seat (its choice, its score: ``R_SEAT_SCORE``,
    0 when it sits out), by player and by active position.  One loop over the seats."""
    scal[C_ROUNDS] += 1
    scal[C_DEALS] += res[R_MISDEALS] + 1
    scal[C_MISDEALS] += res[R_MISDEALS]
    scal[C_TOP_TIES] += tied
    scal[C_CHASES] += res[R_CHASERS] > 0
    win_seat = -1  # the winner's table seat and active position (none: a tied top score)
    if tied:
        win_pos = -1
    else:
        win_seat = res[R_ACT_SEAT + win_pos]
    total = 0
    for s in range(n):
        ch = res[R_CHOICE + s]
        x = res[R_SEAT_SCORE + s]
        won = s == win_seat
        # | of comparisons, not or: one block, not three (fewer statements to compile)
        plays = (ch == CH_SEATED) | (ch == CH_JOIN) | (ch == CH_FORCED_IN)
        b = C_SEAT + SEAT_W * s
        scal[b + K_JOIN] += ch == CH_JOIN
        scal[b + K_DROP] += ch == CH_DROP
        scal[b + K_FORCED_IN] += ch == CH_FORCED_IN
        scal[b + K_FORCED_OUT] += (ch == CH_FORCED_OUT) | (ch == CH_CHASE)
        scal[b + K_CHASE] += ch == CH_CHASE
        scal[b + K_SCORE] += x
        scal[b + K_SCORE_SQ] += x * x
        scal[b + K_WINS] += won
        scal[b + K_PLAYS] += plays
        hist_add(scal, C_HIST + HIST_BINS * s, x)
        q = dealer + s
        q = q - n if q >= n else q
        b = C_PLAYER + PLAYER_W * q
        scal[b + Q_DEALS] += s == 0
        scal[b + Q_SCORE] += x
        scal[b + Q_SCORE_SQ] += x * x
        scal[b + Q_WINS] += won
        scal[b + Q_PLAYS] += plays
        total += x
    for k in range(ACTIVE):
        x = res[R_SCORE + k]
        p = res[R_PTS + k]
        b = C_POS + POS_W * k
        scal[b + A_SCORE] += x
        scal[b + A_SCORE_SQ] += x * x
        scal[b + A_WINS] += k == win_pos
        scal[b + A_PTS] += p
        scal[b + A_PTS_SQ] += p * p
        scal[C_CLAIMS] += res[R_TEY_SCORED + k] > 0
    scal[C_SUM] += total


# ---------------------------------------------------------------- the engine's hooks
# (engine.sessions, engine/ADDING_A_GAME.md): a game is a session on one random stream; the
# chase multiplier lives in the work arrays from round to round (1 at a game's start).
GAME = sys.modules[__name__]
LOOP = sessions.ONE_GAME  # one game a session (engine.sessions.play runs it)
session_length = sessions.param_hook(P_GAME_ROUNDS)
n_players = sessions.param_hook(P_PLAYERS)
game_over = sessions.one_game_over(session_length)  # the game is the session
end_chunk = sessions.end_chunk  # nothing kept in the lookahead context
R_NEXT, R_TIED = R_N, R_N + 1  # the winning active position, and a tied top score
R_SEAT_SCORE = R_N + 2  # each table seat's score (0: it sat out), MAX_PLAYERS slots


@njit(inline="always")
def new_work(tb):
    n = tb.params[P_PLAYERS]
    # the decks are put in order before use (start_game's restart, active_round), the
    # multiplier set (start_game): zeros, not np.arange and np.ones, each a numba function
    # compiled for the kernel (np.arange about 0.2 s of CPU)
    return (np.zeros(1, dtype=np.uint64), np.zeros(48, dtype=np.int8),
            np.zeros(48, dtype=np.int8), np.zeros(n + 1, dtype=np.uint64),
            np.zeros(ACTIVE + 1, dtype=np.uint64), np.zeros(3 * ACTIVE + 3, dtype=np.uint64),
            np.zeros(R_SEAT_SCORE + MAX_PLAYERS, dtype=np.int64),
            np.zeros(ACTIVE, dtype=np.int64), np.zeros(ACTIVE, dtype=np.int64),
            np.zeros(1, dtype=np.int64), np.zeros(16, dtype=np.int64))


chunk_counters = sessions.counter_rows(3)  # scal, tcount, cards


@njit(inline="always")
def look_context(tb, work, players):
    return (tb, work[6], new_scratch(3 * ACTIVE + 3, 48, ACTIVE))


@hot(inline="always")
def start_game(tb, work, key, i, n_rounds):
    rng, order, mult = work[0], work[1], work[9]
    restart(rng, key, order)  # a game depends on nothing but its own stream
    mult[0] = 1
    return 0 if tb.params[P_FIXED_DEALER] else first_dealer(rng, order, tb.params[P_PLAYERS])


@hot(inline="always")
def play_round(tb, work, players, key, i, dealer, look):
    rng, order, order3, groups, g3, st, res, pol3, exp3, mult, _ = work
    # the deal (--where's teyaku redealt): one inlined site for the play and the deals-only run
    res[R_MISDEALS] = deal_where(rng, order, groups, tb, tb.params[P_PLAYERS])
    if tb.params[P_DEALS_ONLY]:  # the deal and its teyaku only (tally_round)
        return
    play_dealt(rng, order, order3, groups, g3, st, tb, players, pol3, exp3, dealer, mult[0],
               res, look)
    pos, tied = next_dealer_seat(rng, res, ACTIVE, 0, tb.params[P_TIE_RANDOM])
    res[R_NEXT] = pos
    res[R_TIED] = tied
    n = tb.params[P_PLAYERS]
    for s in range(n):  # by table seat, for the tallies and the game's totals
        res[R_SEAT_SCORE + s] = 0
    for k in range(ACTIVE):
        res[R_SEAT_SCORE + res[R_ACT_SEAT + k]] = res[R_SCORE + k]
    # Chasing: more than 3 declared to join: the next round's payments are doubled, tripled
    # after a second chase in a row, and so on
    mult[0] = mult[0] + 1 if (tb.params[P_CHASE] and res[R_CHASERS] > 0) else 1


@hot(inline="always")
def tally_round(tb, work, counts, dealer):
    groups, res = work[3], work[6]
    scal, tcount, cards = counts
    n = tb.params[P_PLAYERS]
    tally_teyaku(tcount, work[10], groups, n, tb)
    if tb.params[P_DEALS_ONLY]:
        scal[C_ROUNDS] += 1
        scal[C_DEALS] += res[R_MISDEALS] + 1
        scal[C_MISDEALS] += res[R_MISDEALS]
        return
    tally(scal, res, n, dealer, res[R_NEXT], res[R_TIED] != 0)
    m = res[R_MULT]
    scal[C_MULT] += m
    scal[C_MULT_SQ] += m * m
    scal[C_MULTIPLIED] += m > 1
    card_tally.tally_round(GAME, tb, work, cards, n)


@hot(inline="always")
def dealt(tb, work, g):
    # the dealt groups (card values): table seat g relative to the dealer, g == players the
    # field (the active hands are copied into their own arrays for the play)
    return work[3][g]


@hot(inline="always")
def seat_score(tb, work, seat):
    return work[6][R_SEAT_SCORE + seat]  # 0 in a deals-only run: never written


@hot(inline="always")
def next_dealer(tb, work, dealer):
    if tb.params[P_FIXED_DEALER] or tb.params[P_DEALS_ONLY]:
        return dealer
    n = tb.params[P_PLAYERS]
    res = work[6]
    q = dealer + res[R_ACT_SEAT + res[R_NEXT]]
    return q - n if q >= n else q


@hot(inline="always")
def tally_game(tb, work, counts, first, totals):
    if tb.params[P_DEALS_ONLY]:
        return
    # Bakappana's whole game in this game's counter layout
    tally_game_totals(counts[0], totals, tb.params[P_PLAYERS], first, C_GAMES, C_FIRST_TOTAL,
                      C_PLAYER, PLAYER_W, Q_TOTAL, C_HIST + HIST_BINS * H_FIRST)


@hot
def play_sessions(seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
    sessions.play(GAME, seed, s0, s1, total_rounds, tb, work, players, counts, totals,
                  look)


@njit(cache=True, nogil=True)
def run_chunks(seed, first_game, n_games, chunk, total_rounds, tb, pol, scal, tcount, cards,
               look):
    """Games ``first_game ..`` in chunks of ``chunk`` (``scal[chunk, C_N]``, ``tcount[chunk,
    T + 1, 2]``, ``cards``: ``engine.card_tally``, empty unless the run tallies card values)
    on the engine's session machinery; ``look``: None, or True when a player plays by
    lookahead."""
    sessions.run_chunks(GAME, seed, first_game, n_games, chunk, total_rounds, tb, pol,
                        (scal, tcount, cards), look)


sessions.check_game(GAME)
