"""What the journeys of a new user (every game, from a fresh clone) found wrong, each fixed and
checked here: quick tests, most of them with nothing played."""
from __future__ import annotations

import pytest

import hanasim


@pytest.fixture
def nothing_played(monkeypatch):
    """Fail if any session is played or any kernel compiled; yields the list of the session
    counts asked of the runner (zero-round tables are allowed: they play nothing)."""
    from numba.core import event

    import hanasim.engine.runner as runner

    asked, compiled = [], []
    real = runner.run_batches

    def spy(kernel, n_sessions, *args, **kwargs):
        asked.append(n_sessions)
        assert n_sessions == 0, "a session was played"
        return real(kernel, n_sessions, *args, **kwargs)

    class Listener(event.Listener):
        def on_start(self, ev):
            compiled.append(ev)

        def on_end(self, ev):
            pass

    monkeypatch.setattr(runner, "run_batches", spy)
    listener = Listener()
    event.register("numba:compile", listener)
    try:
        yield asked
    finally:
        event.unregister("numba:compile", listener)
    assert not compiled, "a kernel was compiled"


@pytest.mark.parametrize("game, rule", [("taoshi", "burden=page,equal"),
                                        ("koikoi", "field_multiplier=off,double"),
                                        ("toppa", "par.dealer=110,120")])
def test_sweep_refuses_a_misspelt_quantity_before_any_kernel(nothing_played, game, rule):
    name, values = rule.split("=")
    with pytest.raises(ValueError, match="no quantity 'dealer.mean_scor'.*did you mean"):
        hanasim.sweep(game, {name: values}, rounds=1000, seed=1,
                      quantities=["dealer.mean_scor"])
    if game == "toppa":  # solve needs a numeric rule
        with pytest.raises(ValueError, match="no quantity 'nope' in a toppa sweep"):
            hanasim.sweep(game, {name: values}, rounds=1000, seed=1, solve={"nope": 0})
    assert nothing_played  # the names came from a table of zero counters


def test_sweep_with_sessions_refuses_a_plain_typo_without_playing(nothing_played):
    # only session.* names need a played session of several rounds
    with pytest.raises(ValueError, match="no quantity 'dealer.win_rat'"):
        hanasim.sweep("toppa", {"par.dealer": "110,120"}, rounds=1000, seed=1,
                      session_rounds=4, quantities="dealer.win_rat")


def test_sweep_cli_refuses_a_misspelt_quantity_before_any_kernel(nothing_played, capsys,
                                                                  tmp_path):
    from hanasim.cli import main

    assert main(["sweep", "kushiro-toppa", "--rule", "five_brights=3,5", "--rounds", "1000",
                 "--quantity", "dealer.mean_chip", "--store", str(tmp_path),
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "no quantity 'dealer.mean_chip' in a kushiro_toppa sweep" in err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("bad", [3, ["a", 1], {"a": 1}])
def test_sweep_quantities_are_names(bad):
    with pytest.raises(TypeError, match="quantities must be"):
        hanasim.sweep("toppa", {"par.dealer": "110,120"}, rounds=1000, quantities=bad)
