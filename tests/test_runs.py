"""Issue 7: bit-identical runs whatever the threads or chunking, resumable long runs (killed for
real), Dask clusters, and property-based checks of the rule engine."""
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from one_line import default_signals
from hypothesis import given, settings
from hypothesis import strategies as st

import hanasim
from hanasim.engine.play import capture
from hanasim.engine.rng import next64
from hanasim.policies import RANDOM, take_high
from hanasim.engine.yaku import dekiyaku
from hanasim.games import toppa as T
from hanasim.rules import RuleError, make_rules

COLS = ["quantity", "estimate", "std_error", "ci_low", "ci_high", "n"]
ARGS = ["simulate", "toppa", "--seed", "31", "--policy", "greedy,random", "--session-rounds", "3",
        "--format", "csv"]


def cli(*args, env=None, **kw):
    """``python -m hanasim ARGS`` in a process of its own: for NUMBA_NUM_THREADS (read when
    numba is imported); other runs whose output alone is checked use ``run_cli`` (in-process,
    tests/conftest.py); the run that is killed is a process of its own (_start)."""
    e = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "hanasim", *args], capture_output=True,
                          text=True, env=e, timeout=600, **kw)


def test_identical_tables_with_one_and_two_threads():
    one = cli(*ARGS, "--rounds", "200000", env={"NUMBA_NUM_THREADS": "1"})
    two = cli(*ARGS, "--rounds", "200000", env={"NUMBA_NUM_THREADS": "2"})
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout


def test_identical_tables_with_any_chunking():
    g = hanasim.games.get_game("toppa")
    kw = dict(rounds=50_001, seed=4, policy=np.array([1, 0]), expose=np.array([2, 2]),
              session_rounds=7)
    r = make_rules(g.Rules)
    ref = g.counters(r, **kw)
    for chunk in (1, 13, 5000):
        other = g.counters(r, chunk=chunk, **kw)
        for k in ("scal", "tcount", "ycount"):
            assert np.array_equal(ref[k], other[k]), (chunk, k)


def _start(ck, rounds):
    return subprocess.Popen([sys.executable, "-m", "hanasim", *ARGS, "--rounds", str(rounds),
                             "--checkpoint", str(ck)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=default_signals)


def _wait_for_batches(proc, ck, n, timeout=300):
    end = time.time() + timeout
    while time.time() < end:
        if ck.exists() and len(list(ck.glob("batch-*.npz"))) >= n:
            return
        if proc.poll() is not None:
            pytest.fail("the run ended before it could be interrupted: " + proc.stderr.read())
        time.sleep(0.05)
    pytest.fail("no batch was written in time")


@pytest.mark.parametrize("how", ["kill -9", "ctrl-c"])
def test_killed_run_resumes_to_the_identical_table(tmp_path, how, run_cli):
    rounds = 3_000_000  # about 23 batches of 131,072 rounds (3-round sessions)
    ref = run_cli(*ARGS, "--rounds", str(rounds))
    assert ref.returncode == 0, ref.stderr
    ck = tmp_path / "run"
    proc = _start(ck, rounds)
    _wait_for_batches(proc, ck, 2)
    if how == "kill -9":
        proc.kill()
        proc.wait()
    else:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 130, err
        assert "run the same command again" in err and "Traceback" not in err
    kept = len(list(ck.glob("batch-*.npz")))
    assert 2 <= kept < 23
    assert not list(ck.glob(".tmp-*")) or how == "kill -9"  # ctrl-c leaves no partial file
    again = run_cli(*ARGS, "--rounds", str(rounds), "--checkpoint", str(ck), "--resume")
    assert again.returncode == 0, again.stderr
    assert again.stdout == ref.stdout
    assert f"resuming {ck}: {kept} of " in again.stderr  # says what it found first


def test_checkpoint_errors_are_one_line(tmp_path, run_cli):
    ck = tmp_path / "run"
    assert run_cli(*ARGS, "--rounds", "1000", "--checkpoint", str(ck)).returncode == 0
    r = run_cli(*ARGS, "--rounds", "2000", "--checkpoint", str(ck))
    assert r.returncode == 2 and "belongs to another run: rounds" in r.stderr
    (ck / "batch-00000000.npz").write_bytes(b"not a zip")
    r = run_cli(*ARGS, "--rounds", "1000", "--checkpoint", str(ck))
    assert r.returncode == 1 and "damaged" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert (ck / "batch-00000000.npz").exists()  # nothing is deleted
    r = run_cli(*ARGS, "--rounds", "1000", "--checkpoint", str(tmp_path / "nothing"), "--resume")
    assert r.returncode == 2 and "nothing to resume" in r.stderr
    r = run_cli(*ARGS, "--rounds", "1000", "--cluster", "udp://x")
    assert r.returncode == 2 and "local:N" in r.stderr


def test_checkpoint_batch_of_another_plan_is_refused(tmp_path):
    """A batch file holds the sessions it was computed for: a run whose batches are cut
    differently (lookahead runs use smaller chunks) never sums it in another's place."""
    from hanasim.engine.runner import Checkpoint

    sums = {"x": np.arange(3, dtype=np.int64)}
    with Checkpoint(str(tmp_path / "ck"), identity={"run": 1}) as ck:
        ck.save(0, sums, (0, 4096))
        assert ck.load(0, {"x": (3,)}, (0, 4096))["x"].tolist() == [0, 1, 2]
        with pytest.raises(ValueError, match="holds other sessions"):
            ck.load(0, {"x": (3,)}, (0, 262144))


def test_dask_local_cluster_gives_the_identical_table():
    pytest.importorskip("dask.distributed")
    kw = dict(rounds=150_000, seed=12, policy="greedy,random", session_rounds=2)
    local = hanasim.simulate("toppa", **kw)
    dask = hanasim.simulate("toppa", cluster="local:2", **kw)
    assert local[COLS].equals(dask[COLS])
    assert dask.attrs["cluster"] == "local:2"


# ---- property-based checks of the rule engine

TB, _ = T.lower(make_rules(T.ToppaRules))
masks = st.integers(min_value=0, max_value=2**48 - 1)


@settings(max_examples=300, deadline=None)
@given(field=masks, card=st.integers(0, 47), policy=st.sampled_from([0, 1]), seed=st.integers(0, 2**32))
def test_matching_step_conserves_cards(field, card, policy, seed):
    field &= ~(1 << card)  # a legal state: the played card is not on the field
    rng = np.array([seed], dtype=np.uint64)
    r = np.uint64(next64(rng)) if policy == RANDOM else np.uint64(0)
    high = np.uint64(take_high(policy, card, np.uint64(field), r, TB.ghigh))
    new, cap = capture(card, np.uint64(field), high)
    new, cap = int(new), int(cap)
    assert new & cap == 0 and (new | cap) == field | (1 << card)
    same_month = [c for c in range(48) if field >> c & 1 and c // 4 == card // 4]
    if same_month:
        assert cap >> card & 1 and all(c // 4 == card // 4 for c in range(48) if cap >> c & 1)
        assert bin(cap).count("1") == (4 if len(same_month) == 3 else 2)
    else:
        assert cap == 0 and new >> card & 1


@settings(max_examples=300, deadline=None)
@given(pile=masks, extra=masks)
def test_more_cards_never_score_fewer_dekiyaku_points(pile, extra):
    a, _ = dekiyaku(np.uint64(pile), TB.yaku_masks, TB.yaku_ints)
    b, _ = dekiyaku(np.uint64(pile | extra), TB.yaku_masks, TB.yaku_ints)
    assert b >= a >= 0


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["five_brights", "card_transfer", "tie_dealer", "nope", ""]),
                       st.one_of(st.text(max_size=6), st.integers(-5, 100)), max_size=3))
def test_rule_validation_accepts_or_names_the_problem(given_rules):
    try:
        rules = make_rules(T.ToppaRules, given_rules)
    except RuleError as e:
        assert any(str(k) in str(e) for k in given_rules)
    else:
        for k, v in given_rules.items():
            assert str(getattr(rules, k)) == str(v).strip()
