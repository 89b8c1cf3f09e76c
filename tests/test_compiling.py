"""The compile notice (every wait for numba says so, from the CLI and from Python) and warmup."""
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from numba import njit

from hanasim import compiling
from hanasim.compiling import describe, notice

ROOT = Path(__file__).resolve().parents[1]


def toy_kernel(name="run_chunks"):
    """A tiny kernel compiled in memory only, named like a game's chunk runner and living in a
    hanasim module (the notice announces hanasim's kernels, not numba's own helpers)."""
    ns = {"__name__": "hanasim.games.toy"}
    exec(f"def {name}(x, look):\n    return x + 1 if look is None else x + 2\n", ns)
    return njit(ns[name])


def test_a_compile_is_announced_once_naming_the_kernel_and_the_time():
    kernel = toy_kernel()
    out = io.StringIO()
    with notice("toppa", out=out) as seen:
        kernel(1, None)
        kernel(2, None)  # compiled already: nothing more to say
    lines = out.getvalue().splitlines()
    assert lines == [describe("toppa", "play")]
    assert "Toppa kernel (random and greedy play)" in lines[0]
    assert f"about {compiling.estimate('toppa', 'play')} s" in lines[0]
    assert "first time only" in lines[0]
    assert [k for k, _ in seen.compiled] == ["play"]


def test_the_lookahead_kernel_is_a_compile_of_its_own_and_said_so():
    kernel = toy_kernel()
    out = io.StringIO()
    with notice("koikoi", out=out):
        kernel(1, None)
        kernel(1, True)  # a lookahead context: another specialisation, another wait
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert "Koi-koi kernel for lookahead play" in lines[1]
    assert f"about {compiling.estimate('koikoi', 'lookahead')} s" in lines[1]


def test_a_kernel_for_given_cards_is_named_so_in_every_game():
    from collections import namedtuple

    import numpy as np

    Tables = namedtuple("Tables", ["params", "cond"])
    ns = {"__name__": "hanasim.games.toy"}
    exec("def run_chunks(tb, look):\n    return tb.params[0] if tb.cond is None else 0\n", ns)
    params = np.zeros(2, np.int64)
    for game in ("toppa", "taipa"):
        kernel = njit(ns["run_chunks"])
        out = io.StringIO()
        with notice(game, out=out):
            kernel(Tables(params, None), None)  # a plain run
            kernel(Tables(params, np.zeros(3, np.int64)), None)  # given cards: its own kernel
        plain, given = out.getvalue().splitlines()
        assert "for runs with given cards" not in plain
        # Taipa takes no --where (its deck shrinks between rounds): the notice does not name it
        words = ("for runs with given cards:" if game == "taipa"
                 else "for runs with given cards or --where")
        assert f"kernel (random and greedy play) {words}" in given
        assert f"about {compiling.estimate(game, 'play') + compiling.GIVEN_EXTRA_S} s" in given
    # the engine's deals-only runner takes the condition last: an array only when given
    ns = {"__name__": "hanasim.games.toy"}
    exec("def run_deal_chunks(x, cond):\n    return x if cond is None else x + 1\n", ns)
    kernel = njit(ns["run_deal_chunks"])
    out = io.StringIO()
    with notice("toppa", out=out):
        kernel(1, None)
        kernel(1, np.zeros(3, np.int64))
    plain, given = out.getvalue().splitlines()
    assert "deals-only kernel:" in plain and "given" not in plain
    assert "deals-only kernel for runs with given cards or --where" in given
    # Taipa's deals-only runner takes its tables: their cond decides
    ns = {"__name__": "hanasim.games.toy"}
    exec("def run_deal_chunks(tb, look):\n    return tb.params[0]\n", ns)
    out = io.StringIO()
    with notice("taipa", out=out):
        njit(ns["run_deal_chunks"])(Tables(params, None), None)
    assert "deals-only kernel:" in out.getvalue() and "given" not in out.getvalue()


def test_a_plain_run_gives_every_game_kernel_no_condition(monkeypatch):
    """Plain runs compile without the conditioned deal's code (``conditions.kernel_cond``):
    their kernels get ``cond`` None; a conditioned run gets its array (a kernel of its own)."""
    import numpy as np

    import hanasim.engine.runner as runner
    from hanasim import api, rules as _rules
    from hanasim.games import available_games, get_game

    seen = []

    class Stop(Exception):
        pass

    def capture(fn, *a, **k):
        seen.append(fn.args[0])  # partial(kernel, tb, ...): the tables
        raise Stop

    monkeypatch.setattr(runner, "run_batches", capture)
    some = np.array([1, 0, 0, 0, 5, 0, 0], np.int64)  # one given card (engine.rng's layout)
    for name in available_games():
        g = get_game(name)
        rule_obj = _rules.make_rules(g.Rules, {})
        n = api.seated(g, rule_obj)
        _, pol = api._policies("random", n, g)
        _, exp = api._expose("always", n, g)
        for deals_only in (False, True):
            for cond in (None, np.zeros(0, np.int64), some):
                seen.clear()
                with pytest.raises(Stop):
                    g.counters(rule_obj, rounds=10, seed=1, policy=pol, expose=exp,
                               deals_only=deals_only, cond=cond)
                if cond is some:
                    assert seen[0].cond is some, (name, deals_only)
                else:
                    assert seen[0].cond is None, (name, deals_only, cond)


def test_nothing_is_said_for_a_loaded_kernel_or_outside_the_block_or_when_quiet():
    kernel = toy_kernel("run_deal_chunks")
    out = io.StringIO()
    kernel(1, None)  # outside any notice block
    with notice("toppa", out=out) as seen:
        kernel(1, None)  # in memory already
    assert out.getvalue() == "" and seen.compiled == []
    with notice("toppa", out=out, say=False) as seen:
        kernel(1.5, None)  # a new specialisation, recorded but not said
    assert out.getvalue() == "" and [k for k, _ in seen.compiled] == ["deals"]


def test_every_game_has_a_measured_estimate():
    from hanasim.games import available_games

    assert sorted(compiling.ESTIMATE_S) == available_games()
    for game in available_games():
        assert compiling.estimate(game, "play") and compiling.estimate(game, "lookahead")


def _fresh(tmp_path, code=None, args=None):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    cmd = [sys.executable, "-c", code] if code else [sys.executable, "-m", "hanasim", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=900)


# The smallest kernel (Toppa's deals-only run) compiled from an empty cache in a fresh process:
# the only way to meet a first compile in a test process that has compiled it already.

def test_the_python_api_says_it_is_compiling_on_a_first_run(tmp_path):
    r = _fresh(tmp_path, code="import hanasim; hanasim.simulate('toppa', rounds=1000, seed=1, "
                              "deals_only=True)")
    assert r.returncode == 0, r.stderr
    assert "hanasim: compiling the Toppa deals-only kernel: the first time only, about" \
        in r.stderr


def test_the_cli_says_it_is_compiling_on_a_first_run_and_not_again(tmp_path):
    args = ["simulate", "toppa", "--deals-only", "--rounds", "1000", "--seed", "1", "--no-save"]
    first = _fresh(tmp_path, args=args)
    assert first.returncode == 0, first.stderr
    assert "hanasim: compiling the Toppa deals-only kernel" in first.stderr
    again = _fresh(tmp_path, args=args)  # the same cache: loaded, nothing to say
    assert again.returncode == 0, again.stderr
    assert "compiling" not in again.stderr
    # the same table (the first line says how long the run took)
    assert again.stdout.splitlines()[1:] == first.stdout.splitlines()[1:]


def test_warmup_reports_each_kernel_and_a_second_warmup_only_loads():
    from hanasim.warmup import warmup

    warmup(["toppa"], out=None, given=True)
    lines = []
    rows = warmup(["toppa"], out=lines.append, given=True)
    # runs with given cards or --where have kernels of their own (conditions.kernel_cond)
    assert [r["kernel"] for r in rows] == ["play", "deals", "given-play", "given-deals"]
    assert not any(r["compiled"] for r in rows)
    assert len(lines) == 4 and "already cached, loaded in" in lines[0]
    with pytest.raises(TypeError, match="given must be True or False"):
        warmup(["toppa"], given="yes")


def test_warmup_given_compiles_the_kernels_a_given_run_uses():
    """After ``warmup(given=True)``, a run with given cards and one with --where (the same
    kernel: the condition is an array either way) compile nothing more."""
    import hanasim
    from hanasim.compiling import notice
    from hanasim.warmup import warmup

    warmup(["toppa"], out=None, given=True)
    for cond in (dict(given={"dealer": "11b"}), dict(where="field.brights>=1")):
        for deals_only in (False, True):
            with notice("toppa", say=False) as seen:
                hanasim.simulate("toppa", rounds=300, seed=2, deals_only=deals_only, **cond)
            assert seen.compiled == [], (cond, deals_only)


def test_warmup_refuses_an_unknown_game_in_one_line(run_cli):
    r = run_cli("warmup", "toppa", "nosuch")
    assert r.code == 2
    assert len(r.err.strip().splitlines()) == 1 and "unknown game 'nosuch'" in r.err
    assert "Traceback" not in r.err


def test_progress_defaults_to_off_outside_a_notebook():
    from hanasim.api import _check_progress

    assert _check_progress(None) is False
    assert _check_progress(True) is True
    with pytest.raises(TypeError, match="progress must be True or False"):
        _check_progress("yes")


def test_every_game_kernel_is_one_the_notice_can_name():
    """The notice tells the kernels apart by name and by the lookahead context, passed last:
    a game whose runner is renamed or reordered would be announced as 'a kernel' only."""
    import importlib
    import inspect

    from hanasim.games import available_games, get_game

    for name in available_games():
        module = importlib.import_module(type(get_game(name)).__module__)
        params = list(inspect.signature(module.run_chunks.py_func).parameters)
        assert params[-1] == "look", name


@pytest.mark.parametrize("threads", [1, 2, 3, 7])
def test_threads_split_a_batch_into_the_same_chunk_rows(monkeypatch, threads):
    """The runner gives each thread a consecutive run of chunks (the kernels are plain loops,
    compiled without numba's parallel lowering): every chunk row is the one a single call
    writes, whatever the thread count."""
    import numba
    import numpy as np

    from hanasim.engine.runner import run_threads

    def kernel(first, n, chunk, out):  # a chunk row: its first session and its session count
        for ch in range(out["x"].shape[0]):
            s0 = first + ch * chunk
            out["x"][ch] = (s0, min(s0 + chunk, first + n) - s0)

    want = {"x": np.zeros((5, 2), np.int64)}
    kernel(100, 37, 8, want)
    got = {"x": np.zeros((5, 2), np.int64)}
    monkeypatch.setattr(numba, "get_num_threads", lambda: threads)
    run_threads(kernel, 100, 37, 8, got)
    assert (got["x"] == want["x"]).all()
    assert got["x"][:, 1].sum() == 37


def test_the_text_bar_outside_a_notebook():
    from tqdm import tqdm

    assert compiling.in_notebook() is False
    assert compiling.progress_bar() is tqdm


def test_kernels_compiled_at_one_optimisation_level_are_never_loaded_at_another(tmp_path):
    """numba's own cache key holds only the CPU: hanasim's cache folder is also named by numba's
    code-generation settings, so a kernel compiled under NUMBA_OPT=1 (or without vectorising)
    is not loaded by a run under the default level, nor the other way round."""
    code = "from hanasim._cache import cache_dir; print(cache_dir())"

    def folder(**settings):
        env = {k: v for k, v in os.environ.items()
               if k not in ("NUMBA_OPT", "NUMBA_LOOP_VECTORIZE", "NUMBA_ENABLE_AVX")}
        env.update(settings, NUMBA_CACHE_DIR=str(tmp_path))
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, cwd=ROOT, timeout=300)
        assert r.returncode == 0, r.stderr
        return r.stdout.strip()

    default = folder()
    assert folder(NUMBA_OPT="3") == default  # numba's default level, said or not
    others = {folder(NUMBA_OPT="1"), folder(NUMBA_OPT="0"), folder(NUMBA_LOOP_VECTORIZE="0")}
    assert default not in others and len(others) == 3
    assert all(os.path.dirname(f) == str(tmp_path) for f in others | {default})


class _Heard:
    """What ``notice`` yields: the compiles it recorded."""

    def __init__(self):
        self.compiled = []


def _bar_on_a_clock(clock):
    from tqdm import tqdm

    bar = tqdm(total=200_000, file=io.StringIO(), unit="round", mininterval=0)
    bar._time = lambda: clock[0]
    bar.start_t = bar.last_print_t = clock[0]
    return bar


def test_the_progress_bar_leaves_the_compile_out_of_its_rate():
    """A first run compiles for 9.5 s, then runs 200,000 rounds in 0.5 s: the bar's rate is
    400k rounds/s, not the 20k it would show with the compile counted."""
    clock, heard = [0.0], _Heard()
    bar = _bar_on_a_clock(clock)
    counted = compiling.clock_past_compiles(bar, heard, 0)
    assert counted == 0 and bar.start_t == 0.0  # nothing compiled yet: the clock stays
    heard.compiled.append(("play", 9.5))
    clock[0] = 10.0
    counted = compiling.clock_past_compiles(bar, heard, counted)
    bar.update(200_000)
    assert counted == 1
    assert bar.format_dict["elapsed"] == pytest.approx(0.5)
    assert bar.format_dict["n"] / bar.format_dict["elapsed"] == pytest.approx(400_000)
    clock[0] = 11.0  # a later batch, no new compile: the clock is not moved again
    assert compiling.clock_past_compiles(bar, heard, counted) == 1
    assert bar.format_dict["elapsed"] == pytest.approx(1.5)
    bar.close()


def test_the_runner_moves_its_bar_past_each_compile(monkeypatch):
    """run_batches asks after every batch: the compiles heard during it are taken off."""
    import numpy as np
    from contextlib import contextmanager

    from hanasim.engine import runner

    bars, heard = [], _Heard()

    class Bar:
        disable = False

        def __init__(self, **kw):
            self.start_t = self.last_print_t = 100.0
            bars.append(self)

        def _time(self):
            return 200.0

        def update(self, n):
            pass

        def close(self):
            pass

    @contextmanager
    def fake_notice(game):
        yield heard

    def kernel(first, n, chunk, out):  # "compiles" during its first batch only
        if not heard.compiled:
            heard.compiled.append(("play", 30.0))
        out["x"][:, 0] += 1

    monkeypatch.setattr(compiling, "progress_bar", lambda: Bar)
    monkeypatch.setattr(compiling, "notice", fake_notice)
    runner.run_batches(kernel, 64, {"x": (1,)}, chunk=1, progress=True, desc="toppa: x")
    assert bars[0].start_t == 130.0 and bars[0].last_print_t == 130.0


def test_a_slow_exact_table_says_what_the_wait_is_and_a_quick_one_says_nothing(monkeypatch,
                                                                               capsys):
    """Exact tables are computed in Python (Taoshi's about 2.5 s, Kushiro Toppa's 2): a wait
    of more than a second is one line naming the game, in the CLI and the API alike."""
    import time

    import hanasim
    from hanasim.games import get_game

    g = get_game("koikoi")
    real = type(g).exact_table

    def slow(self, rules):
        time.sleep(0.4)
        return real(self, rules)

    hanasim.exact("koikoi")  # computed once (cached in the process): quick from now on
    capsys.readouterr()
    monkeypatch.setattr(compiling, "SAY_AFTER_S", 0.05)
    hanasim.exact("koikoi")
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(type(g), "exact_table", slow)
    hanasim.exact("koikoi")
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["hanasim: computing the exact deal-time odds of Koi-koi (exact fractions "
                   "over every deal: a few seconds)"]


def test_a_scope_of_many_small_compiles_is_one_line(monkeypatch):
    """A replay compiles a dozen small kernels: one line says so, with the estimate of them
    all, and every compile is still recorded."""
    kernels = [toy_kernel(f"helper_{i}") for i in range(5)]
    monkeypatch.setattr(compiling._Listener, "announced", set())  # as a new process
    out = io.StringIO()
    with notice("koikoi", out=out, scope="advice") as seen:
        for k in kernels[:3]:
            k(1, None)
    assert out.getvalue().splitlines() == [describe("koikoi", "advice")]
    assert [k for k, _ in seen.compiled] == ["advice"] * 3
    # a later call that compiles others of them: "more", without the estimate of them all
    out = io.StringIO()
    with notice("koikoi", out=out, scope="advice"):
        kernels[3](1, None)
        kernels[4](1, None)
    assert out.getvalue().splitlines() == [
        "hanasim: compiling more of the Koi-koi kernels for replay and advice (the lookahead "
        "from a position) (the first time only)"]
    line = describe("koikoi", "advice")
    assert "Koi-koi kernels for replay and advice" in line and "load them from" in line
    assert f"about {compiling.estimate('koikoi', 'advice')} s" in line
    for game in ("toppa", "baka", "koikoi", "kushiro_toppa", "taipa", "taoshi", "bakappana",
                 "ishikari_toppa"):
        assert compiling.estimate(game, "replay") and compiling.estimate(game, "advice"), game


@pytest.mark.parametrize("advise", [False, True])
def test_replay_and_advise_say_their_compiles_in_the_cli_and_the_api(monkeypatch, run_cli,
                                                                     capsys, advise):
    """The position tools compile kernels of their own (a cold 'replay --advise' of koi-koi
    waited 20 s in silence): the CLI and the API say so, once."""
    import pandas as pd

    import hanasim
    from hanasim.position import replay as R

    kernels = iter([toy_kernel(f"replay_helper_{i}") for i in range(4)])
    monkeypatch.setattr(compiling._Listener, "announced", set())

    class Out:
        points = pd.DataFrame({"round": [1]}).assign(player="A", seat="dealer", points=0)
        points.attrs.update(game="koikoi", unit="points")
        advice = None

    def fake_replay(data, game, rules, preset, advise=False, samples=32, seed=0):
        next(kernels)(1, None)
        next(kernels)(1, None)
        return Out()

    monkeypatch.setattr(R, "replay", fake_replay)
    monkeypatch.setattr("hanasim.position.record.check", lambda data: None)
    record = ROOT / "tests" / "data" / "journeys" / "koikoi.json"
    flags = ["--advise"] if advise else []
    r = run_cli("replay", "koikoi", record, *flags)
    kind = "advice" if advise else "replay"
    assert r.code == 0, r.err
    assert r.err.splitlines() == [describe("koikoi", kind)]
    monkeypatch.setattr(compiling._Listener, "announced", set())  # as a new process
    hanasim.replay("koikoi", str(record), advise=advise)
    assert capsys.readouterr().err.splitlines() == [describe("koikoi", kind)]
