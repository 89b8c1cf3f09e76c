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
    for h in (*sessions.HOOKS, "play_sessions", "run_chunks"):
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

    import session_toy as T

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
