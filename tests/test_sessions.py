"""The engine's session machinery (engine/sessions.py): a game's hooks are checked when it
registers, and the whole-session rule.  The loops themselves are checked by every game's
tables (tests/test_identity.py) and the games' own session tests."""
import types

import pytest
from numba import njit

from hanasim.engine import sessions
from hanasim.engine.jit import hot
from hanasim.games import baka, toppa


def test_ported_games_pass_the_check():
    sessions.check_game(toppa)
    sessions.check_game(baka)


def _module_like(game, **changes):
    m = types.ModuleType("fake_game")
    for h in (*sessions.HOOKS, "play_sessions", "run_chunks", "LOOP"):
        setattr(m, h, getattr(game, h))
    for k, v in changes.items():
        if v is None:
            delattr(m, k)
        else:
            setattr(m, k, v)
    return m


def test_a_missing_hook_is_named():
    with pytest.raises(TypeError, match="lacks the engine hooks game_over"):
        sessions.check_game(_module_like(toppa, game_over=None))


def test_a_hook_numba_would_not_inline_is_refused():
    @hot
    def seat_score(tb, work, seat):
        return 0

    with pytest.raises(TypeError, match="seat_score must be compiled with inline='always'"):
        sessions.check_game(_module_like(toppa, seat_score=seat_score))


def test_a_hook_with_other_arguments_is_refused():
    @njit(inline="always")
    def look_context(tb, work):
        return tb

    with pytest.raises(TypeError, match=r"look_context takes \('tb', 'work'\); the engine "
                                        r"calls it with \('tb', 'work', 'players'\)"):
        sessions.check_game(_module_like(toppa, look_context=look_context))


def test_a_hook_of_the_first_version_is_named_with_its_replacement():
    m = _module_like(toppa)
    m.start_session = toppa.start_game
    with pytest.raises(TypeError, match=r"start_session \(now start_game"):
        sessions.check_game(m)


@pytest.mark.parametrize("r, n_rounds, length, want", [
    (1, 4, 4, 0), (3, 4, 4, 0), (4, 4, 4, 1),  # a whole session ends at its last round
    (1, 1, 1, 1),                              # sessions of one round
    (2, 3, 4, 0), (3, 3, 4, -1),               # the run ends inside a session: cut off
])
def test_whole_session(r, n_rounds, length, want):
    assert sessions.whole_session(r, n_rounds, length) == want


@pytest.mark.parametrize("length, game_len, total, n", [
    (4, 0, 20, 2),    # sessions of one game of 4 rounds, all whole
    (4, 0, 17, 3),    # the last session cut off after 1 round: counted, not as a game
    (1, 0, 7, 2),     # sessions of one round
    (10, 3, 35, 2),   # games of 3 back to back, 10 rounds a session: the 4th game is finished
    (10, 4, 33, 3),   # past the session's rounds (uncounted rounds), the last session cut off
    (5, 5, 23, 4),
])
def test_the_loop_counts_what_its_contract_says(length, game_len, total, n):
    """A toy game (tests/session_toy.py) against the engine's loop written out in Python from
    its docstring: rounds counted, their stream indices, games, first dealers and totals."""
    import numpy as np

    import session_toy
    import session_toy_one

    T = session_toy_one if game_len == 0 else session_toy  # (the loop each declares)
    n_sessions = -(-total // length)
    chunk = 2
    n_chunks = -(-n_sessions // chunk)
    scal = np.zeros((n_chunks, T.C_N), np.int64)
    tb = T.Tables(np.array([length, game_len, n], np.int64))
    T.run_chunks(np.uint64(99), 0, n_sessions, chunk, total, tb, scal, None)
    want = T.reference(99, n_sessions, total, length, game_len, n)
    want[T.C_CHUNKS] = n_chunks
    assert scal.sum(axis=0).tolist() == want
    assert want[T.C_ROUNDS] == total


def test_a_game_declares_its_loop():
    with pytest.raises(TypeError, match="must declare LOOP = sessions.ONE_GAME or "
                                        "sessions.SERIES"):
        sessions.check_game(_module_like(toppa, LOOP=None))
    with pytest.raises(TypeError, match="must declare LOOP"):
        sessions.check_game(_module_like(toppa, LOOP="series"))


def test_a_kernel_that_calls_a_loop_itself_is_refused():
    """The loop is the engine's choice by LOOP (koi-koi once called the one-game loop)."""
    @hot
    def play_sessions(seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
        sessions.play_sessions(toppa, seed, s0, s1, total_rounds, tb, work, players, counts,
                               totals, look)

    with pytest.raises(TypeError, match="calls the engine's play_sessions itself; call "
                                        "sessions.play"):
        sessions.check_game(_module_like(toppa, play_sessions=play_sessions))


def test_every_game_declares_the_loop_of_its_sessions():
    from hanasim.games.koikoi import session as koikoi
    from hanasim.games.taipa import game as taipa

    assert toppa.LOOP == baka.LOOP == sessions.ONE_GAME
    assert koikoi.LOOP == taipa.LOOP == sessions.SERIES


def test_a_game_with_an_end_of_its_own_declared_one_game_fails():
    """The toy's games of 3 rounds back to back (session_toy's) declared one game a session:
    the engine's counted loop asks game_over and refuses the game at its first early end,
    instead of counting its sessions as one game each."""
    import numpy as np

    import session_toy_one as T

    scal = np.zeros((1, T.C_N), np.int64)
    tb = T.Tables(np.array([10, 3, 2], np.int64))
    with pytest.raises(ValueError, match="must declare LOOP = sessions.SERIES"):
        T.run_chunks(np.uint64(99), 0, 2, 2, 20, tb, scal, None)
