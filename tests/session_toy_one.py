"""The toy game of tests/session_toy.py declared one game a session (``LOOP = ONE_GAME``): the
engine runs it on its counted loop.  With ``game_len`` > 0 its games end before the session
does, a game declared with the wrong loop, which the engine must refuse."""
import sys

from numba import njit
from session_toy import (C_CHUNKS, C_N, C_ROUNDS, C_STARTS, Tables,  # noqa: F401
                         chunk_counters, end_chunk, game_over, look_context, n_players,
                         new_work, next_dealer, play_round, reference, seat_score,
                         session_length, start_game, tally_game, tally_round)

from hanasim.engine import sessions
from hanasim.engine.jit import hot

GAME = sys.modules[__name__]
LOOP = sessions.ONE_GAME


@hot
def play_sessions(seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
    sessions.play(GAME, seed, s0, s1, total_rounds, tb, work, players, counts, totals, look)
    counts[0][C_STARTS] += work[1][0]
    work[1][0] = 0


@njit(nogil=True)
def run_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, scal, look):
    sessions.run_chunks(GAME, seed, first_session, n_sessions, chunk, total_rounds, tb, 0,
                        (scal,), look)


sessions.check_game(GAME)
