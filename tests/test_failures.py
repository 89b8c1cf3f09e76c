"""Failures of the world around a run: a damaged or full kernel cache, dying Dask clusters,
signals, full disks, huge plans.  Each test fails on the code before its fix."""
from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from one_line import default_signals


class AsCompleted:
    """dask.distributed.as_completed for the fake clients: futures finish in the order given."""

    def __init__(self, futures=()):
        self.queue = list(futures)

    def add(self, f):
        self.queue.append(f)

    def __iter__(self):
        while self.queue:
            yield self.queue.pop(0)


def run_py(code, env=None, timeout=300):
    e = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=e, timeout=timeout)


def cli_run(*args, env=None, timeout=300):
    """``python -m hanasim ARGS`` in a process of its own: for what only a fresh process shows
    (NUMBA_CACHE_DIR and DASK_* read at start-up, signals); a test that checks a command's output
    and exit code alone runs it in-process (the ``run_cli`` fixture, tests/conftest.py)."""
    e = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "hanasim", *args], capture_output=True,
                          text=True, env=e, timeout=timeout)


def lines_of(text):
    return [x for x in text.splitlines() if x.strip()]


# ---- the compiled-kernel cache ---------------------------------------------------------------

#: a command that loads one small kernel through hanasim's cache, then lists the games (no
#: command loads a kernel before its work starts, and a game's kernel takes seconds to compile:
#: the cache's checks are the same for every kernel)
SMALL_KERNEL = """
    import sys
    from hanasim import cli
    from hanasim.engine import state
    assert state.field(2) == 2
    sys.exit(cli.main(["games"]))
"""


@pytest.fixture(scope="module")
def filled_cache(tmp_path_factory):
    """A numba cache holding a small kernel (:data:`SMALL_KERNEL`)."""
    root = tmp_path_factory.mktemp("numba")
    r = run_py(SMALL_KERNEL, env={"NUMBA_CACHE_DIR": str(root)})
    assert r.returncode == 0 and not r.stderr, r.stderr
    return root


def _files(root, pattern):
    found = sorted(Path(root).rglob(pattern))
    assert found, f"no {pattern} in {root}"
    return found


def _truncate_index(root):
    for p in _files(root, "*.nbi"):
        p.write_bytes(p.read_bytes()[:7])


def _garble_index(root):
    for p in _files(root, "*.nbi"):
        b = bytearray(p.read_bytes())
        b[len(b) // 2:len(b) // 2 + 8] = b"\xff" * 8
        p.write_bytes(bytes(b))


def _empty_data(root):
    for p in _files(root, "*.nbc"):
        p.write_bytes(b"")


def _machine_code_noise(root):
    # Bytes changed inside the object code numba hands to LLVM: the pickle still loads, and
    # before the checksums LLVM crashed the process (a segmentation fault or an abort).
    rng = random.Random(1)
    for p in _files(root, "*.nbc"):
        b = bytearray(p.read_bytes())
        at = b.find(b"\x7fELF")
        assert at >= 0
        for i in range(at + 64, min(len(b), at + 400)):
            b[i] = rng.randrange(256)
        p.write_bytes(bytes(b))


@pytest.mark.parametrize("damage", [_truncate_index, _garble_index, _empty_data,
                                    _machine_code_noise])
def test_a_damaged_kernel_cache_is_dropped_and_recompiled(filled_cache, tmp_path, damage):
    root = tmp_path / "numba"
    shutil.copytree(filled_cache, root)
    damage(root)
    env = {"NUMBA_CACHE_DIR": str(root)}
    r = cli_run("--version", env=env)
    assert r.returncode == 0 and r.stdout.startswith("hanasim ") and not r.stderr, r.stderr
    r = run_py(SMALL_KERNEL, env=env)
    assert r.returncode == 0, r.stderr
    assert "toppa" in r.stdout
    (line,) = lines_of(r.stderr)
    folder = str(next(root.glob("hanasim-*")))
    assert "damaged" in line and folder in line and "Traceback" not in r.stderr, line
    r = run_py(SMALL_KERNEL, env=env)  # recompiled and saved: quiet again
    assert r.returncode == 0 and not r.stderr, r.stderr


def test_importing_hanasim_loads_no_kernel(filled_cache, tmp_path):
    root = tmp_path / "numba"
    shutil.copytree(filled_cache, root)
    r = run_py("""
        import sys
        import hanasim
        print(hanasim.__version__, hanasim.CACHE_DIR)
        print(sorted(m for m in sys.modules if m.startswith("hanasim.")))
        print("pandas" in sys.modules)
    """, env={"NUMBA_CACHE_DIR": str(root), "NUMBA_DEBUG_CACHE": "1"})
    assert r.returncode == 0, r.stderr
    assert "[cache]" not in r.stdout + r.stderr  # numba logs every cache file it loads
    mods = r.stdout.splitlines()[1]
    assert "hanasim.api" not in mods and "hanasim.games" not in mods, mods
    assert r.stdout.splitlines()[2] == "False"


def test_the_public_functions_load_on_first_use():
    import hanasim
    import hanasim.tournament  # noqa: F401  (the submodule must not hide the function)

    assert callable(hanasim.tournament) and hanasim.tournament.__name__ == "tournament"
    assert hanasim.simulate.__module__ == "hanasim.api"
    assert "simulate" in dir(hanasim)
    with pytest.raises(AttributeError):
        hanasim.nosuch  # noqa: B018


FULL_DISK = """
    import builtins, errno, os, sys
    real_open = builtins.open
    root = os.environ["NUMBA_CACHE_DIR"]

    def full_open(file, mode="r", *a, **k):
        # the cache folder's disk is full: every file written there fails
        if "w" in mode and os.path.abspath(str(file)).startswith(root):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(file))
        return real_open(file, mode, *a, **k)

    builtins.open = full_open
    from hanasim import cli
    from hanasim.engine import state
    assert state.field(2) == 2
    sys.exit(cli.main(["games"]))
"""


def test_a_full_kernel_cache_folder_runs_without_caching(tmp_path):
    root = tmp_path / "numba"
    r = run_py(FULL_DISK, env={"NUMBA_CACHE_DIR": str(root)})
    assert r.returncode == 0, r.stderr
    assert "toppa" in r.stdout
    (line,) = lines_of(r.stderr)
    assert "without caching" in line and "No space left" in line, line
    assert str(next(root.glob("hanasim-*"))) in line


# ---- batch plans of any size -----------------------------------------------------------------

HUGE_PLAN = """
    import resource, sys
    # a run of 10**12 sessions in batches of 16: 62.5 billion batches, which must never be
    # listed (2 GB of address space would not hold the list)
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    from hanasim.engine.runner import Checkpoint, Interrupted, run_batches
    calls = []

    def kernel(first, n, chunk, out):
        calls.append(first)
        if len(calls) == 3:
            raise KeyboardInterrupt
        out["x"][:] += 1

    ck = Checkpoint(sys.argv[1], identity={"run": 1}) if len(sys.argv) > 1 else None
    try:
        run_batches(kernel, 10**12, {"x": (1,)}, chunk=1, checkpoint=ck)
    except Interrupted as e:
        print(e)
    print(calls)
"""


@pytest.mark.parametrize("checkpoint", [False, True])
def test_a_plan_of_billions_of_batches_is_never_listed(tmp_path, checkpoint):
    script = tmp_path / "huge.py"
    script.write_text(textwrap.dedent(HUGE_PLAN))
    ck = [str(tmp_path / "ck")] if checkpoint else []
    for expected in (["after 2 of 62500000000 batches", "[0, 16, 32]"],
                     ["after 4 of 62500000000 batches", "[32, 48, 64]"]):
        # one thread: the kernel is called once a batch (with more, once a thread a batch)
        r = subprocess.run([sys.executable, str(script), *ck], capture_output=True, text=True,
                           timeout=120, cwd=os.getcwd(),
                           env=dict(os.environ, PYTHONPATH=os.getcwd(), NUMBA_NUM_THREADS="1"))
        assert r.returncode == 0, r.stderr[-2000:]
        out = r.stdout.splitlines()
        if not checkpoint:  # nothing kept: the second run starts again from batch 0
            expected = ["after 2 of 62500000000 batches", "[0, 16, 32]"]
        assert expected[0] in out[0] and out[1] == expected[1], out
        if checkpoint:
            assert "run the same command again" in out[0]


def test_dask_executor_keeps_a_bounded_number_of_batches_in_flight(monkeypatch):
    """The executor takes batches from a generator as the cluster finishes them."""
    pytest.importorskip("dask.distributed")
    from hanasim import distributed

    submitted = []

    class Future:
        def __init__(self, value):
            self.key, self.value = len(submitted), value

        def result(self):
            return self.value

    class Client:
        def nthreads(self):
            return {"w": 1}

        def submit(self, fn, *a, pure=True):
            submitted.append(a)
            return Future(fn(*a))

        def cancel(self, futures):
            pass

        def close(self, timeout=None):
            pass

    import dask.distributed

    monkeypatch.setattr(distributed, "_client", lambda cluster: (Client(), None))
    monkeypatch.setattr(dask.distributed, "as_completed", AsCompleted)
    taken = []

    def args():
        for i in range(10**9):  # as many as a huge run has
            if i > 1000:  # (before the fix the executor submitted every one of them)
                raise AssertionError("the executor takes the whole plan at once")
            taken.append(i)
            yield (i,)

    with distributed.dask_executor("local:1") as executor:
        results = executor(lambda i: i * i, args())
        assert [next(results) for _ in range(20)] == [i * i for i in range(20)]
    assert len(taken) < 40  # the window: 4 per thread + 4


class ReadyClient:
    """A fake Dask client that runs batches here and records what ran where: ``run`` is
    ``client.run`` (every worker), slow or failing as a test asks."""

    def __init__(self, log, run_seconds=0.0, run_error=None):
        self.log, self.run_seconds, self.run_error = log, run_seconds, run_error

    def nthreads(self):
        return {"w": 1}

    def run(self, fn, *a):
        import time

        self.log.append(("workers", a[3]))
        time.sleep(self.run_seconds)
        if self.run_error is not None:
            raise self.run_error
        fn(*a)
        return {"w": None}

    def submit(self, fn, *a, pure=True):
        self.log.append(("batch", a[3]))
        value = fn(*a)

        class Future:
            key = len(self.log)

            def result(self):
                return value
        return Future()

    def cancel(self, futures):
        pass

    def close(self, timeout=None):
        pass


def _cluster_run(monkeypatch, client, local):
    """run_batches on a fake cluster; the calls of the kernel (sessions of each) in order."""
    pytest.importorskip("dask.distributed")
    import dask.distributed

    from hanasim import distributed
    from hanasim.engine.runner import run_batches

    monkeypatch.setattr(distributed, "_client", lambda cluster: (client, local))
    monkeypatch.setattr(dask.distributed, "as_completed", AsCompleted)

    def kernel(first, n, chunk, out):
        client.log.append(("kernel", n))
        out["x"][:, 0] += 1

    with distributed.dask_executor("tcp://example:8786") as executor:
        run_batches(kernel, 40, {"x": (1,)}, chunk=1, executor=executor, desc="toppa")
    return client.log


def test_a_local_cluster_run_loads_or_compiles_the_kernel_here_first(monkeypatch):
    """A local cluster shares this machine's kernel cache: the kernel is made ready in this
    process (where the compile notice can say so), with no sessions, before any batch is
    sent; the workers then load it instead of each compiling it in silence."""
    class Local:  # a LocalCluster
        def close(self, timeout=None):
            pass

    log = _cluster_run(monkeypatch, ReadyClient([]), local=Local())
    assert log[0] == ("kernel", 0)
    assert log[1] == ("batch", 16) and ("workers", 0) not in log


def test_remote_workers_slow_to_ready_the_kernel_are_said_to_be_so(monkeypatch, capsys):
    """A remote cluster's workers have caches of their own: each readies the kernel (no
    sessions) before the first batch, and a wait of more than a second is one line saying
    what it is and how to avoid it."""
    from hanasim import distributed

    monkeypatch.setattr(distributed, "READY_SAY_AFTER_S", 0.05)
    log = _cluster_run(monkeypatch, ReadyClient([], run_seconds=0.5), local=None)
    assert log[:2] == [("workers", 0), ("kernel", 0)] and log[2] == ("batch", 16)
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "waiting for the workers of tcp://example:8786 to load the Toppa kernel" in err[0]
    assert "'hanasim warmup' on each worker" in err[0]
    quick = _cluster_run(monkeypatch, ReadyClient([]), local=None)  # quick: nothing said
    assert quick[0] == ("workers", 0) and capsys.readouterr().err == ""


def test_a_cluster_lost_while_its_workers_ready_the_kernel_is_one_line(monkeypatch):
    from hanasim.engine.runner import ExecutorError

    with pytest.raises(ExecutorError, match="lost the connection to the Dask cluster "
                       "tcp://example:8786"):
        _cluster_run(monkeypatch, ReadyClient([], run_error=OSError("gone")), local=None)


def test_a_script_without_a_main_guard_is_told_why_its_local_cluster_did_not_start(
        monkeypatch):
    """Dask starts a local cluster's workers by importing the script again: without
    'if __name__ == "__main__":' the cluster fails as "Nanny failed to start". From a script
    the line says why; from the CLI, 'python -m' or Jupyter it adds nothing."""
    import sys
    import types

    from hanasim import cli, distributed

    script = types.ModuleType("__main__")
    script.__file__, script.__spec__ = "/home/me/study.py", None
    monkeypatch.setitem(sys.modules, "__main__", script)
    hint = distributed._script_hint()
    assert "must run under 'if __name__ == \"__main__\":'" in hint and "study.py" in hint
    script.main = cli.main  # the 'hanasim' command's entry script
    assert distributed._script_hint() == ""
    del script.main
    script.__spec__ = types.SimpleNamespace(name="hanasim.__main__")  # python -m hanasim
    assert distributed._script_hint() == ""
    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))  # Jupyter
    assert distributed._script_hint() == ""


# ---- checkpoints -------------------------------------------------------------------------------

CK_RUN = ["simulate", "toppa", "--rounds", "600000", "--seed", "3", "--no-save", "--format",
          "csv"]


@pytest.fixture(scope="module")
def kept_run(tmp_path_factory):
    """A finished checkpoint folder of CK_RUN and its table."""
    ck = tmp_path_factory.mktemp("kept") / "ck"
    r = cli_run(*CK_RUN, "--checkpoint", str(ck))
    assert r.returncode == 0, r.stderr
    return ck, r.stdout


def _zeroed_middle(p):
    b = bytearray(p.read_bytes())
    b[200:260] = bytes(60)
    p.write_bytes(bytes(b))


@pytest.mark.parametrize("damage, file, words", [
    (lambda p: p.write_bytes(b"garbage"), "batch-00000001.npz", "damaged"),
    (lambda p: p.write_bytes(b""), "batch-00000001.npz", "damaged"),
    (_zeroed_middle, "batch-00000001.npz", "damaged"),
    (lambda p: p.write_text('{"a": 1}'), "manifest.json", "damaged"),
    (lambda p: p.write_text('{"format": 3,'), "manifest.json", "unreadable"),
])
def test_a_damaged_checkpoint_file_is_a_runtime_failure_naming_it(kept_run, tmp_path, damage,
                                                                  file, words, run_cli):
    ck = tmp_path / "ck"
    shutil.copytree(kept_run[0], ck)
    damage(ck / file)
    r = run_cli(*CK_RUN, "--checkpoint", str(ck))
    (line,) = lines_of(r.stderr)
    assert r.returncode == 1, r.stderr
    assert str(ck / file) in line and words in line and "Traceback" not in line, line
    assert "pickle" not in line  # numpy's guess that a non-archive is a pickle


def test_a_full_disk_under_the_checkpoint_lock_names_the_folder(tmp_path, monkeypatch):
    import errno

    from hanasim.engine.runner import Checkpoint

    def full(fd, data, offset):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "pwrite", full)
    with pytest.raises(OSError) as e:
        Checkpoint(str(tmp_path / "ck"))
    assert str(tmp_path / "ck") in str(e.value) and "No space left" in str(e.value)
    assert "[Errno" not in str(e.value)


def test_os_errors_name_the_path_not_the_errno(capsys):
    import errno

    from hanasim import cli

    class A:
        command = "runs"

    def handler(a):
        raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG), "/tmp/" + "a" * 300)

    assert cli.run_handler(A(), handler) == 1
    err = capsys.readouterr().err
    assert "[Errno" not in err and "/tmp/aaa" in err and "File name too long" in err


# ---- signals -----------------------------------------------------------------------------------

@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_keep_the_batches_and_say_how_to_resume(kept_run, tmp_path, sig):
    import signal
    import time

    ck = tmp_path / "ck"
    args = [sys.executable, "-m", "hanasim", *CK_RUN[:2], "--rounds", "4000000",
            *CK_RUN[4:], "--checkpoint", str(ck)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_signals)
    end = time.time() + 240
    while time.time() < end and len(list(ck.glob("batch-*.npz"))) < 2:
        if proc.poll() is not None:
            pytest.fail(proc.stderr.read())
        time.sleep(0.05)
    proc.send_signal(getattr(signal, sig))
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + getattr(signal, sig), err
    (line,) = lines_of(err)
    assert f"stopped by {sig}" in line and str(ck) in line, line
    assert "run the same command again to resume" in line and "of 16 batches" in line, line


def test_an_interrupted_sweep_counts_the_batches_of_the_whole_run(monkeypatch, capsys):
    from hanasim import api, cli
    from hanasim.engine.runner import run_batches
    from hanasim.games import get_game

    calls = []

    def counters(self, rule_obj, **kw):
        calls.append(1)

        def kernel(first, n, chunk, out):
            if len(calls) == 3 and first >= 32:
                raise KeyboardInterrupt

        return run_batches(kernel, 64, {"x": (1,)}, chunk=1)  # 4 batches of 16 sessions

    monkeypatch.setattr(type(get_game("toppa")), "counters", counters)
    monkeypatch.setattr(type(get_game("toppa")), "quantities", lambda self, c, r: {})

    class A:
        command = "sweep"

    def handler(a):
        api.sweep("toppa", rules={"par.dealer": "100:160:10"}, rounds=1000, seed=1)

    assert cli.run_handler(A(), handler) == 130
    line = capsys.readouterr().err.strip()
    # variants 1 and 2 finished (8 batches), 2 batches of the third: 10 of 7 x 4
    assert "after 10 of 28 batches" in line and "variant 3 of 7" in line, line


# ---- Dask clusters that fail -----------------------------------------------------------------

def _fake_cluster(monkeypatch, failure):
    """dask_executor on a fake client whose third batch fails with ``failure``."""
    import dask.distributed

    from hanasim import distributed

    class Future:
        def __init__(self, key, fn, a):
            self.key, self.fn, self.a = key, fn, a

        def result(self):
            if self.key == 2:
                raise failure
            return self.fn(*self.a)

    class Client:
        n = 0

        def nthreads(self):
            return {"w": 1}

        def run(self, fn, *a):  # every worker readies the kernel (no sessions)
            fn(*a)
            return {"w": None}

        def submit(self, fn, *a, pure=True):
            Client.n += 1
            return Future(Client.n - 1, fn, a)

        def cancel(self, futures):
            pass

        def close(self, timeout=None):
            pass

    monkeypatch.setattr(distributed, "_client", lambda cluster: (Client(), None))
    monkeypatch.setattr(dask.distributed, "as_completed", AsCompleted)


def _killed_worker():
    from distributed.scheduler import KilledWorker

    return KilledWorker("run_batch-1", "tcp://127.0.0.1:1", "worker died")


def _cancelled():
    from distributed.client import FutureCancelledError

    return FutureCancelledError("run_batch-1", "scheduler-connection-lost")


@pytest.mark.parametrize("failure, words", [(_killed_worker, "workers of local:2 died"),
                                            (_cancelled, "scheduler of local:2 stopped")])
@pytest.mark.parametrize("checkpoint", [False, True])
def test_a_dying_cluster_is_one_line_saying_what_was_kept(monkeypatch, tmp_path, capsys,
                                                          failure, words, checkpoint):
    pytest.importorskip("dask.distributed")
    from hanasim import cli, distributed
    from hanasim.engine.runner import Checkpoint, run_batches

    _fake_cluster(monkeypatch, failure())

    def kernel(first, n, chunk, out):
        out["x"][:] += 1

    class A:
        command = "simulate"

    def handler(a):
        ck = Checkpoint(str(tmp_path / "ck"), identity={"run": 1}) if checkpoint else None
        with distributed.dask_executor("local:2") as executor:
            run_batches(kernel, 160, {"x": (1,)}, chunk=1, executor=executor, checkpoint=ck)

    assert cli.run_handler(A(), handler) == 1
    (line,) = lines_of(capsys.readouterr().err)
    assert words in line and "Traceback" not in line, line
    if checkpoint:
        assert f"the 2 finished batches of 10 are kept in {tmp_path / 'ck'}" in line, line
        assert "run the same command again to resume" in line
        assert len(list((tmp_path / "ck").glob("batch-*.npz"))) == 2


def _workerless_cluster(monkeypatch, alive_for):
    """dask_executor on a fake client whose workers all die after ``alive_for`` batches and
    never come back (killed again and again while they start): Dask's futures then wait for
    a worker for ever, until they are cancelled."""
    import threading

    import dask.distributed

    from hanasim import distributed

    class Future:
        def __init__(self, key, fn, a):
            self.key, self.fn, self.a = key, fn, a
            self.cancelled = threading.Event()

        def result(self):
            if self.key < alive_for:
                return self.fn(*self.a)
            self.cancelled.wait()  # no worker to run it: only a cancel ends the wait
            from distributed.client import FutureCancelledError

            raise FutureCancelledError(self.key, "cancelled")

    class Client:
        n = 0

        def nthreads(self):
            return {"w": 1} if Client.n <= alive_for else {}

        def run(self, fn, *a):  # every worker readies the kernel (no sessions)
            fn(*a)
            return {"w": None}

        def submit(self, fn, *a, pure=True):
            Client.n += 1
            return Future(Client.n - 1, fn, a)

        def cancel(self, futures):
            for f in futures:
                f.cancelled.set()

        def close(self, timeout=None):
            pass

    monkeypatch.setattr(distributed, "_client", lambda cluster: (Client(), None))
    monkeypatch.setattr(dask.distributed, "as_completed", AsCompleted)
    if hasattr(distributed, "_Watch"):  # quicker ticks (the code before it waited for ever)
        monkeypatch.setattr(distributed._Watch, "TICK", 0.05)
    monkeypatch.setenv("HANASIM_NO_WORKER_TIMEOUT", "0.5")


@pytest.mark.parametrize("checkpoint", [False, True])
def test_workers_that_never_come_back_end_the_run_in_one_line(monkeypatch, tmp_path, capsys,
                                                               checkpoint):
    """Workers killed again and again while they start leave the cluster without any: the run
    ends after a bounded wait, one line, exit 1 (it used to wait for ever)."""
    pytest.importorskip("dask.distributed")
    import threading

    from hanasim import cli, distributed
    from hanasim.engine.runner import Checkpoint, run_batches

    _workerless_cluster(monkeypatch, alive_for=3)

    def kernel(first, n, chunk, out):
        out["x"][:] += 1

    class A:
        command = "simulate"

    def handler(a):
        ck = Checkpoint(str(tmp_path / "ck"), identity={"run": 1}) if checkpoint else None
        with distributed.dask_executor("local:2") as executor:
            run_batches(kernel, 160, {"x": (1,)}, chunk=1, executor=executor, checkpoint=ck)

    code = []
    run = threading.Thread(target=lambda: code.append(cli.run_handler(A(), handler)),
                           daemon=True)
    run.start()
    run.join(30)
    assert not run.is_alive(), "the run waited for a worker for ever"
    assert code == [1]
    (line,) = lines_of(capsys.readouterr().err)
    assert "the Dask workers of local:2 died and none came back within 0.5 s" in line, line
    if checkpoint:
        assert f"the 3 finished batches of 10 are kept in {tmp_path / 'ck'}" in line, line
        assert "run the same command again to resume" in line
        assert len(list((tmp_path / "ck").glob("batch-*.npz"))) == 3


def test_a_bad_no_worker_timeout_is_refused_before_the_work(monkeypatch):
    from hanasim import distributed

    monkeypatch.setenv("HANASIM_NO_WORKER_TIMEOUT", "soon")
    with pytest.raises(ValueError, match="HANASIM_NO_WORKER_TIMEOUT='soon': give seconds"):
        distributed.check_address("local:2")


def test_a_cluster_that_cannot_start_is_one_line(tmp_path):
    pytest.importorskip("dask.distributed")
    # a subprocess: dask reads DASK_* variables into its config when it is imported
    r = cli_run("simulate", "toppa", "--rounds", "1000", "--seed", "1", "--no-save",
                "--cluster", "local:1", env={"DASK_TEMPORARY_DIRECTORY": "/proc/no-such-folder"},
                timeout=180)
    (line,) = lines_of(r.stderr)
    assert r.returncode == 1, r.stderr
    assert "cannot start a Dask cluster of 1 worker process (local:1)" in line, line


CTRL_C_AT_START = """
    import os, signal, sys, threading
    import dask.distributed

    # the guard: Dask's worker processes are spawned and import this file again
    if __name__ == "__main__":
        real = dask.distributed.LocalCluster.__init__

        def start(self, *a, **k):  # Ctrl-C a moment into the cluster's start
            threading.Timer(float(sys.argv[1]), os.kill, (os.getpid(), signal.SIGINT)).start()
            real(self, *a, **k)

        dask.distributed.LocalCluster.__init__ = start
        from hanasim import cli
        sys.exit(cli.main(["simulate", "toppa", "--rounds", "1000", "--seed", "1",
                           "--no-save", "--cluster", "local:2"]))
"""


def test_a_semaphore_left_by_a_ctrl_c_at_the_workers_spawn_is_cleaned_up_quietly():
    """Ctrl-C while a local cluster spawns its workers can leave a semaphore half made;
    multiprocessing's resource tracker cleans it up after hanasim has exited, and warned
    about it in four lines under the one that said the run was interrupted (seen in CI)."""
    code = """
        import multiprocessing as mp, os, sys
        from hanasim import distributed
        if sys.argv[-1] == "quiet":
            distributed._quiet_resource_tracker()  # as a local cluster's start does
        lock = mp.get_context("spawn").Lock()  # registered with the tracker, never released
        os._exit(0)
    """
    loud = subprocess.run([sys.executable, "-c", textwrap.dedent(code), "loud"],
                          capture_output=True, text=True, timeout=60)
    assert "leaked semaphore" in loud.stderr  # what the tracker says by itself
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code), "quiet"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0
    assert "leaked" not in r.stderr and "resource_tracker" not in r.stderr, r.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("after", ["0.2", "1.5"])
def test_ctrl_c_while_a_local_cluster_starts_is_one_line(tmp_path, after):
    pytest.importorskip("dask.distributed")
    script = tmp_path / "start.py"
    script.write_text(textwrap.dedent(CTRL_C_AT_START))
    r = subprocess.run([sys.executable, str(script), after], capture_output=True, text=True,
                       timeout=180, env=dict(os.environ, PYTHONPATH=os.getcwd()),
                       preexec_fn=default_signals)
    assert r.returncode == 130, r.stderr
    # one line: during the cluster's start, or (if it started sooner) once the run had begun
    lines = lines_of(r.stderr)
    assert len(lines) == 1, r.stderr  # (failed once at load 7 with no stderr shown: show it)
    line = lines[0]
    assert line == "hanasim: interrupted" or line.startswith("hanasim: interrupted after "), line
    assert "Traceback" not in r.stderr
