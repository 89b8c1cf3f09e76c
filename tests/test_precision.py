"""Runs that stop at a precision (``precision=`` / ``--precision``): the stopping rule gives the
half-width it promises and no more rounds than the first stage that meets it, the table is the
plain run's of the rounds it reports (stages append whole sessions), on any thread count, and
bad goals are refused before any work."""
import math

import numpy as np
import pandas as pd
import pytest

from hanasim import api
from hanasim import precision as P
from hanasim.engine.runner import Checkpoint, run_batches

COLS = ["quantity", "estimate", "std_error", "ci_low", "ci_high", "n"]


def halfwidth(df, quantity, **where):
    rows = df[df.quantity == quantity]
    for k, v in where.items():
        rows = rows[rows[k] == v]
    assert len(rows) >= 1
    return float(((rows.ci_high - rows.ci_low) / 2).max())


# ------------------------------------------------------------------ goals and stages (no kernels)

@pytest.mark.parametrize("given, expected", [
    ("dealer.mean_score=0.5", [("dealer.mean_score", 0.5)]),
    (" dealer.mean_score = 5e-1 ,dealer.win_rate=0.01", [("dealer.mean_score", 0.5),
                                                          ("dealer.win_rate", 0.01)]),
    ({"dealer.mean_score": 2}, [("dealer.mean_score", 2.0)]),
    (None, []),
])
def test_goals_read(given, expected):
    assert [(g.quantity, g.halfwidth) for g in P.goals(given)] == expected


@pytest.mark.parametrize("given, words", [
    ("dealer.mean_score", "QUANTITY=HALFWIDTH"),
    ("=0.5", "QUANTITY=HALFWIDTH"),
    ("dealer.mean_score=0", "positive number"),
    ("dealer.mean_score=-1", "positive number"),
    ("dealer.mean_score=nan", "positive number"),
    ("dealer.mean_score=inf", "positive number"),
    ("dealer.mean_score=١", "positive number"),  # ASCII digits only, as every number
    ({"dealer.mean_score": True}, "positive number"),
    ({"dealer.mean_score": float("inf")}, "positive number"),
    ("a=1,a=2", "twice"),
    ("", "names no quantity"),
    (0.5, "quantity: half-width"),
])
def test_bad_goals_are_refused(given, words):
    with pytest.raises((ValueError, TypeError), match=words):
        P.goals(given)


def test_stages_are_whole_sessions_doubling_up_to_the_cap():
    assert P.stages(1, 100_000) == [10_000, 20_000, 40_000, 80_000, 100_000]
    assert P.stages(1, 80_000) == [10_000, 20_000, 40_000, 80_000]
    assert P.stages(1, 5_000) == [5_000]  # a cap below the first stage: one plain run
    s = P.stages(128, 10**6)  # koi-koi's sessions of 128 rounds
    assert all(r % 128 == 0 for r in s[:-1]) and s[-1] == 10**6
    s = P.stages(3, 10**6, multiple=100)  # a comparison: whole blocks of whole sessions
    assert all(r % 300 == 0 for r in s[:-1]) and s[0] >= P.START_ROUNDS


def test_rounds_needed_grows_as_the_square():
    goal = P.goals("q=1")
    assert P.rounds_needed(goal, {"q": 2.0}, 10_000) == 40_000
    assert P.rounds_needed(goal, {"q": math.inf}, 10_000) is None


# ------------------------------------------------------------------ the runner's extension

def _toy_kernel(first, n, chunk, out):
    """Session s adds s and s*s (a stand-in for a game kernel: counters of whole sessions)."""
    for c in range(-(-n // chunk)):
        s0, s1 = first + c * chunk, min(first + (c + 1) * chunk, first + n)
        s = np.arange(s0, s1, dtype=np.int64)
        out["x"][c] += [s.sum(), (s * s).sum()]


def test_sessions_from_adds_up_to_the_whole_run():
    shapes = {"x": (2,)}
    whole = run_batches(_toy_kernel, 1000, shapes, chunk=7)
    head = run_batches(_toy_kernel, 400, shapes, chunk=7)
    tail = run_batches(_toy_kernel, 1000, shapes, chunk=7, sessions_from=400)
    assert (head["x"] + tail["x"] == whole["x"]).all()


def test_extension_merges_blocks_into_the_longer_runs_blocks():
    """Stage by stage (doubling, then a cap that is no doubling) equals one run of the last
    stage's sessions in the same number of blocks: the blocks a comparison's intervals use."""
    shapes = {"x": (2,)}
    ext = P.Extension(per=1, blocks=10)
    for n in (100, 200, 400, 900):
        got = ext.at(n)(0, lambda **more: run_batches(_toy_kernel, n, shapes, blocks=10, **more))
        fresh = run_batches(_toy_kernel, n, shapes, blocks=10)
        assert (got["x"] == fresh["x"]).all()
        assert (got["blocks"]["x"] == fresh["blocks"]["x"]).all(), n


def test_sessions_from_must_start_a_block():
    with pytest.raises(ValueError, match="does not start one"):
        run_batches(_toy_kernel, 100, {"x": (2,)}, blocks=10, sessions_from=15)


def test_checkpoint_files_of_each_stage_are_its_own(tmp_path):
    shapes = {"x": (2,)}
    with Checkpoint(tmp_path / "ck", {"run": 1}) as ck:
        run_batches(_toy_kernel, 40, shapes, chunk=1, checkpoint=ck)
        run_batches(_toy_kernel, 80, shapes, chunk=1, checkpoint=ck, sessions_from=40)
    with Checkpoint(tmp_path / "ck", {"run": 1}) as ck:  # both stages load, none recomputes
        a = run_batches(_fail, 40, shapes, chunk=1, checkpoint=ck)
        b = run_batches(_fail, 80, shapes, chunk=1, checkpoint=ck, sessions_from=40)
    assert (a["x"] + b["x"] == run_batches(_toy_kernel, 80, shapes, chunk=1)["x"]).all()


def _fail(*args):
    raise AssertionError("a kept batch was recomputed")


def _stops_in_stage_3(first, n, chunk, out):
    """A kernel Ctrl-C stops in the third stage, after its first three batches (of 1,600
    sessions: chunks of 100), while ``_STOP`` says so."""
    if _STOP[0] and first >= 20_000 + 3 * 1_600:
        raise KeyboardInterrupt
    out["x"][:] += 1


_STOP = [True]


def _count(sessions_from=0, *, rounds, chunk):
    return run_batches(_stops_in_stage_3, rounds, {"x": (1,)}, chunk=chunk,
                       sessions_from=sessions_from)


def test_an_interrupted_precision_run_counts_the_batches_of_every_stage():
    """Stages of 10,000, 20,000 and 40,000 sessions in batches of 1,600: 7, 7 and 13 batches;
    stopped after 3 of the third stage's: 17 batches of the run, not "3 of 13"."""
    from functools import partial

    from hanasim.engine.runner import Interrupted

    def measure(rounds, grow):
        return grow(0, partial(_count, rounds=rounds, chunk=100))

    with pytest.raises(Interrupted) as e:
        P.run([P.Goal("x", 0.0)], 40_000, 1, measure, lambda c: {"x": math.inf})
    assert str(e.value) == ("interrupted after 17 batches (3 of 13 in stage 3 of at most 3); "
                            "nothing was kept"), str(e.value)
    assert e.value.finished == 17


def test_an_interrupted_precision_comparison_counts_every_stage_and_variant():
    """Two variants a stage: stages 1 and 2 play 2 x 7 batches each; in stage 3 the first
    variant's 13 and the second's first 3: 28 + 16 = 44 batches of the run."""
    from functools import partial

    from hanasim.engine.runner import Interrupted, variant

    def measure(rounds, grow):
        out = []
        for i in range(2):
            _STOP[0] = i == 1
            with variant(i, 2):
                out.append(grow(i, partial(_count, rounds=rounds, chunk=100)))
        return out

    try:
        with pytest.raises(Interrupted) as e:
            P.run([P.Goal("x", 0.0)], 40_000, 1, measure, lambda c: {"x": math.inf})
    finally:
        _STOP[0] = True
    assert str(e.value) == ("interrupted after 44 batches (16 of 26 in stage 3 of at most 3, "
                            "variant 2 of 2); nothing was kept"), str(e.value)


# ------------------------------------------------------------------ simulate

def test_simulate_stops_at_the_first_stage_that_meets_the_goal():
    df = api.simulate("toppa", rounds=10**6, seed=11, precision={"dealer.mean_score": 2.0},
                      threads=1)
    info = df.attrs["precision"]
    rounds = df.attrs["rounds"]
    assert info["reached"] and info["rounds"] == rounds and (df["rounds"] == rounds).all()
    assert halfwidth(df, "dealer.mean_score") <= 2.0
    assert df.set_index("quantity").loc["dealer.mean_score", "n"] == rounds  # the table's rounds
    assert rounds in P.stages(1, 10**6) and rounds > P.START_ROUNDS
    # the stage before did not meet it: no more rounds than the rule needs
    before = api.simulate("toppa", rounds=rounds // 2, seed=11)
    assert halfwidth(before, "dealer.mean_score") > 2.0
    assert f"after {rounds:,} rounds" in df.attrs["notes"][-1]
    # the stages appended whole sessions: exactly the plain run of those rounds, on 2 threads
    plain = api.simulate("toppa", rounds=rounds, seed=11, threads=2)
    pd.testing.assert_frame_equal(df[COLS], plain[COLS])


def test_simulate_is_reproducible_across_threads():
    kw = dict(rounds=10**6, seed=12, precision="dealer.win_rate=0.01", session_rounds=3)
    a = api.simulate("toppa", threads=1, **kw)
    b = api.simulate("toppa", threads=2, **kw)
    pd.testing.assert_frame_equal(a[COLS], b[COLS])
    assert a.attrs["precision"] == b.attrs["precision"]
    assert a.attrs["rounds"] % 3 == 0  # whole sessions


def test_the_cap_comes_first():
    df = api.simulate("toppa", rounds=25_000, seed=13, precision="dealer.mean_score=0.1")
    info = df.attrs["precision"]
    assert not info["reached"] and df.attrs["rounds"] == 25_000 == info["cap"]
    assert info["stages"] == 3  # 10,000, 20,000, then the cap itself
    assert halfwidth(df, "dealer.mean_score") > 0.1
    assert info["rounds_needed"] > 25_000
    assert "not reached" in df.attrs["notes"][-1] and "the cap of 25,000" in df.attrs["notes"][-1]
    pd.testing.assert_frame_equal(df[COLS], api.simulate("toppa", rounds=25_000, seed=13)[COLS])


def test_a_session_quantity_is_found_although_it_needs_a_played_session():
    df = api.simulate("toppa", rounds=10**6, seed=14, session_rounds=4,
                      precision="session.first_dealer.win_rate=0.05")
    assert df.attrs["precision"]["reached"]
    assert halfwidth(df, "session.first_dealer.win_rate") <= 0.05


def test_unknown_quantity_is_refused_before_any_work(tmp_path, monkeypatch):
    import hanasim.engine.runner as runner

    def played(*args):
        raise AssertionError("a batch was played before the goal was checked")

    monkeypatch.setattr(runner, "run_batch", played)  # nothing is played (or compiled)
    ck = tmp_path / "ck"
    with pytest.raises(ValueError, match="no quantity 'dealer.mean_scor'.*dealer.mean_score"):
        api.simulate("toppa", seed=1, precision="dealer.mean_scor=0.5", checkpoint=str(ck))
    assert not ck.exists()  # refused before the checkpoint was even made


def test_checkpoint_resumes_a_precision_run(tmp_path):
    ck = str(tmp_path / "ck")
    kw = dict(rounds=10**6, seed=15, precision="dealer.win_rate=0.01", checkpoint=ck)
    a = api.simulate("toppa", **kw)
    files = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "ck").glob("batch-*.npz")}
    assert len(files) == a.attrs["precision"]["stages"]
    b = api.simulate("toppa", **kw)  # every stage's batches are loaded, none rewritten
    pd.testing.assert_frame_equal(a[COLS], b[COLS])
    assert {p.name: p.stat().st_mtime_ns for p in (tmp_path / "ck").glob("batch-*.npz")} == files
    with pytest.raises(ValueError, match="belongs to another run: precision"):
        api.simulate("toppa", rounds=10**6, seed=15, checkpoint=ck)  # not this run's folder


# ------------------------------------------------------------------ compare and sweep

def test_compare_stops_on_the_difference_and_equals_the_plain_comparison():
    kw = dict(rules={"five_brights": [60, 40]}, seed=16, rounds=10**6, blocks=20)
    a = api.compare("toppa", precision={"dealer.mean_score": 0.1}, threads=1, **kw)
    info, rounds = a.attrs["precision"], a.attrs["rounds"]
    assert info["reached"] and rounds == info["rounds"] and a.attrs["blocks"] == 20
    assert halfwidth(a, "dealer.mean_score", kind="difference") <= 0.1
    b = api.compare("toppa", precision={"dealer.mean_score": 0.1}, threads=2, **kw)
    cols = COLS + ["variant", "kind"]
    pd.testing.assert_frame_equal(a[cols], b[cols])
    plain = api.compare("toppa", **dict(kw, rounds=rounds))  # its blocks: the same
    pd.testing.assert_frame_equal(a[cols], plain[cols])
    before = api.compare("toppa", **dict(kw, rounds=rounds // 2))
    assert halfwidth(before, "dealer.mean_score", kind="difference") > 0.1


def test_compare_cap_that_is_no_doubling_equals_the_plain_comparison():
    kw = dict(rules={"five_brights": [60, 40]}, seed=17, rounds=31_000, blocks=21)
    a = api.compare("toppa", precision="dealer.mean_score=0.001", **kw)
    assert not a.attrs["precision"]["reached"] and a.attrs["rounds"] == 31_000
    plain = api.compare("toppa", **dict(kw, blocks=20))  # precision makes the blocks even
    cols = COLS + ["variant", "kind"]
    pd.testing.assert_frame_equal(a[cols], plain[cols])


def test_sweep_meets_the_goal_at_every_value():
    kw = dict(rules={"par.dealer": "110:130:20"}, seed=18, rounds=10**6)
    a = api.sweep("toppa", precision="dealer.win_rate=0.012", **kw)
    rounds = a.attrs["rounds"]
    assert a.attrs["precision"]["reached"]
    for _, part in a.groupby("par.dealer"):
        assert halfwidth(part, "dealer.win_rate") <= 0.012
    cols = ["par.dealer"] + COLS
    pd.testing.assert_frame_equal(a[cols], api.sweep("toppa", **dict(kw, rounds=rounds))[cols])


def test_compare_and_sweep_refuse_an_unknown_quantity():
    with pytest.raises(ValueError, match="no quantity 'nope' in every variant"):
        api.compare("toppa", rules={"five_brights": [60, 40]}, precision="nope=1")
    with pytest.raises(ValueError, match="no quantity 'nope' at every value"):
        api.sweep("toppa", rules={"par.dealer": "110:130:20"}, precision="nope=1")


# ------------------------------------------------------------------ the command line

def test_cli_says_how_many_rounds_it_took(tmp_path, run_cli):
    r = run_cli("simulate", "toppa", "--precision", "dealer.mean_score=2", "--seed", "3",
            "--format", "csv", "--threads", "1")
    assert r.returncode == 0, r.stderr
    df = pd.read_csv(__import__("io").StringIO(r.stdout))
    rounds = int(df["rounds"].iloc[0])
    assert f"precision dealer.mean_score=2 reached after {rounds:,} rounds" in r.stderr
    from hanasim.store import load_run  # the store record says it too

    run_id = r.stderr.split("saved run ", 1)[1].split()[0]
    saved = load_run(run_id)
    assert saved.attrs["precision"]["rounds"] == rounds == saved.attrs["rounds"]


@pytest.mark.parametrize("args, words", [
    (("simulate", "toppa", "--precision", "dealer.mean_scor=0.5"), "no quantity"),
    (("simulate", "toppa", "--precision", "dealer.mean_score=0"), "positive number"),
    (("simulate", "toppa", "--precision", "dealer.mean_score"), "QUANTITY=HALFWIDTH"),
    (("compare", "toppa", "--rule", "five_brights=60,40", "--precision", "x=1"),
     "no quantity 'x'"),
    (("sweep", "toppa", "--rule", "par.dealer=110:130:20", "--precision", "x=-2"),
     "positive number"),
])
def test_cli_refuses_bad_goals_in_one_line(args, words, run_cli):
    r = run_cli(*args, "--no-save")
    lines = [x for x in r.stderr.splitlines() if x.strip() and "compiling" not in x]
    assert r.returncode == 2 and len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert words in lines[0]


@pytest.mark.parametrize("command", ["simulate", "compare", "sweep"])
def test_help_names_the_option(command, run_cli):
    r = run_cli(command, "--help")
    assert r.returncode == 0 and "--precision QUANTITY=HALFWIDTH" in r.stdout, r.stderr
    assert "the cap" in r.stdout
