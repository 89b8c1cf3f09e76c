"""A toy game on the engine's session machinery (engine/sessions.py), for tests/test_sessions.py:
its rounds are arithmetic on the stream key, so a plain-Python loop written from the
engine's documented contract (``engine.sessions`` docstring) must count exactly what the
kernel counts, for both shapes of session: one game of the session's rounds (``game_len`` 0,
the Toppa family; ``session_toy_one``, declared ``ONE_GAME``) and whole games of ``game_len``
rounds back to back (koi-koi, Taipa; this module, declared ``SERIES``)."""
import sys
from typing import NamedTuple

import numpy as np
from numba import njit

from hanasim.engine import sessions
from hanasim.engine.jit import hot

GAME = sys.modules[__name__]
C_ROUNDS, C_SEAT0, C_INDEX, C_GAMES, C_FIRST_TOTAL, C_FIRST, C_STARTS, C_CHUNKS = range(8)
C_N = 8


class Tables(NamedTuple):
    params: np.ndarray  # int64[3]: session length, game length (0: the session), players


@hot
def score(key, i, dealer, seat):
    """Seat ``seat``'s score in the session's round ``i``."""
    return np.int64((key >> np.uint64(seat + i % 7)) & np.uint64(7)) - 3 + dealer


@njit(inline="always")
def new_work(tb):
    return (np.zeros(8, dtype=np.int64), np.zeros(1, dtype=np.int64))


@njit(inline="always")
def look_context(tb, work, players):
    return (tb,)


@hot(inline="always")
def chunk_counters(tb, counters, ch):
    return (counters[0][ch],)


@hot(inline="always")
def session_length(tb):
    return tb.params[0]


@hot(inline="always")
def n_players(tb):
    return tb.params[2]


@hot(inline="always")
def start_game(tb, work, key, i, n_rounds):
    work[1][0] += 1
    return i % tb.params[2]


@hot(inline="always")
def play_round(tb, work, players, key, i, dealer, look):
    for seat in range(tb.params[2]):
        work[0][seat] = score(key, i, dealer, seat)
    work[0][7] = i


@hot(inline="always")
def tally_round(tb, work, counts, dealer):
    scal = counts[0]
    scal[C_ROUNDS] += 1
    scal[C_SEAT0] += work[0][0]
    scal[C_INDEX] += work[0][7]


@hot(inline="always")
def seat_score(tb, work, seat):
    return work[0][seat]


@hot(inline="always")
def next_dealer(tb, work, dealer):
    return dealer + 1 if dealer + 1 < tb.params[2] else 0


@hot(inline="always")
def game_over(tb, work, counts, r, n_rounds, totals):
    if tb.params[1] == 0:
        return sessions.whole_session(r, n_rounds, tb.params[0])
    return 1 if r >= tb.params[1] else 0


@hot(inline="always")
def tally_game(tb, work, counts, first, totals):
    scal = counts[0]
    scal[C_GAMES] += 1
    scal[C_FIRST_TOTAL] += totals[first]
    scal[C_FIRST] += first


@hot(inline="always")
def end_chunk(tb, counts, look):
    counts[0][C_CHUNKS] += 1


#: games back to back (the general loop: game_len 0 plays one game a session on it too);
#: tests/session_toy_one.py is the same toy declared one game a session
LOOP = sessions.SERIES


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


def reference(seed, n_sessions, total_rounds, length, game_len, n):
    """The engine's loop as its docstring says it, in plain Python."""
    from hanasim.engine.rng import stream_state

    c = [0] * C_N
    for s in range(n_sessions):
        key = int(stream_state(np.uint64(seed), np.uint64(s)))
        n_rounds = min(length, total_rounds - s * length)
        i = counted = 0
        while counted < n_rounds:
            dealer = first = i % n
            c[C_STARTS] += 1
            totals = [0] * n
            r = 0
            while True:
                scores = [int(score(np.uint64(key), np.int64(i), np.int64(dealer), np.int64(seat)))
                          for seat in range(n)]
                if counted < n_rounds:
                    counted += 1
                    c[C_ROUNDS] += 1
                    c[C_SEAT0] += scores[0]
                    c[C_INDEX] += i
                i += 1
                r += 1
                for seat in range(n):
                    totals[(dealer + seat) % n] += scores[seat]
                dealer = (dealer + 1) % n
                if game_len:
                    over = 1 if r >= game_len else 0
                else:
                    over = 0 if r < n_rounds else (1 if n_rounds == length else -1)
                if over:
                    break
            if over > 0:
                c[C_GAMES] += 1
                c[C_FIRST_TOTAL] += totals[first]
                c[C_FIRST] += first
    return c
