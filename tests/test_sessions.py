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
