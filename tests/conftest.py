import contextlib
import os
import signal
import threading

import pytest


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="long statistical checks with many more rounds (local, not CI)")


# --- the order the test files run in (pytest-xdist: two workers, whole files) ------------------
# With `--dist loadfile --no-loadscope-reorder` (pyproject.toml) the workers take files in this
# order, each taking the next when it runs short: the longest files first, so that the run does
# not end with one worker on a long file while the other has nothing left (the last files are
# short).  The first three compile most kernels (every game's play kernels, koi-koi's reference
# kernels, the position kernels): the notebooks and the command-line tests after them start
# processes that load those kernels from the cache instead of compiling them again.  Cold-run
# times of 2026-11-26 (the three added last: 13.4, 8.3 and 13.4 CPU s of compiles, they had ended
# the run); files not listed follow in name order.
SLOW_FIRST = [
    "test_identity.py", "test_koikoi.py", "test_position.py", "test_notebooks.py",
    "test_applicability.py", "test_outputs.py", "test_compiling.py", "test_taoshi.py",
    "test_report.py", "test_readings_fixes.py", "test_runs.py", "test_failures.py",
    "test_given_games.py", "test_exact_given_games.py", "test_position_join.py",
    "test_replay_fixes.py", "test_journeys_hands.py",
    "test_reliability.py", "test_ishikari_join_advice.py", "test_position_taipa.py",
    "test_taipa_advice_kernel.py",
    "test_baka.py", "test_position_kushiro.py", "test_store_scale.py", "test_kushiro.py",
    "test_where_teyaku.py", "test_store.py",
]


# test_identity compiles every game's play kernel while the other worker runs test_koikoi and
# test_position, then the notebooks, whose Jupyter kernel loads those kernels from the cache: its
# games go in the order the notebooks need them.  In the order of make_identity.cases() Ishikari
# Toppa came last and notebook 11 started while test_identity was still compiling its kernel:
# both processes compiled it (~30 CPU s twice).  Toppa's lookahead kernel (no notebook runs
# one in CI) compiles after them; koi-koi's cases load the kernel test_koikoi compiled.
IDENTITY_GAMES = ["toppa", "baka", "taipa", "kushiro_toppa", "taoshi", "bakappana",
                  "ishikari_toppa", "koikoi"]


def _identity_rank(item):
    case = getattr(item, "callspec", None) and item.callspec.params.get("case")
    if not case:
        return (-1, 0)
    game = IDENTITY_GAMES.index(case["game"]) if case["game"] in IDENTITY_GAMES else 99
    return (1 if "lookahead" in case["policy"] else 0, game)


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}

    def key(item):
        within = _identity_rank(item) if item.path.name == "test_identity.py" else (0, 0)
        return (rank.get(item.path.name, len(rank)), within)

    items.sort(key=key)  # stable: otherwise a file's own order


@pytest.fixture(scope="session")
def full(request):
    return request.config.getoption("--full")


@pytest.fixture
def heavy(full):
    """A test that compiles large kernels of its own (a game's lookahead kernels, the skill
    notebook): run with --full.  CI keeps within its time budget with Toppa's lookahead tests
    (tests/test_lookahead.py) and the report's Toppa skill section."""
    if not full:
        pytest.skip("compiles large kernels of its own: run with --full")


@pytest.fixture(scope="session")
def stat_rounds(full):
    """Rounds for statistical agreement tests: small in CI, large with --full."""
    return 4_000_000 if full else 300_000


@pytest.fixture(autouse=True)
def _results_store(tmp_path, monkeypatch):
    """Runs saved by the CLI in tests go to a temporary store, never into the repository."""
    monkeypatch.setenv("HANASIM_STORE", str(tmp_path / "hanasim-runs"))


# --- the CLI run in-process ----------------------------------------------------------------------
# A `python -m hanasim` subprocess costs 1.5-3 s before any work (numpy, pandas, numba imported,
# the kernels loaded from the cache); a test that checks only a command's output and exit code
# runs the same entry point, hanasim.cli.main, in the test process instead.  Tests of what only a
# process shows (signals, Ctrl-C, stdout as a pipe or /dev/fd/1, environment read at start-up
# such as NUMBA_NUM_THREADS, another process holding a lock) keep their subprocess.


class CliResult(tuple):
    """``(code, out, err)``; also ``returncode``/``stdout``/``stderr`` like a CompletedProcess,
    so checks written for subprocess results (tests/one_line.py) take it unchanged."""

    def __new__(cls, code, out, err):
        return super().__new__(cls, (code, out, err))

    returncode = code = property(lambda self: self[0])
    stdout = out = property(lambda self: self[1])
    stderr = err = property(lambda self: self[2])


class CliTimeout(BaseException):
    """Not an Exception: the CLI's own handlers must not turn it into an exit code."""


@contextlib.contextmanager
def _time_limit(seconds, args):
    # a subprocess's timeout= for an in-process run: a command that should be refused before
    # the work but starts it (1e11 rounds) fails the test instead of hanging it.  The runner
    # returns to Python between chunks, where the alarm's handler runs.
    def expired(signum, frame):
        raise CliTimeout(f"hanasim {' '.join(map(str, args))} took over {seconds} s")

    if threading.current_thread() is not threading.main_thread():  # signals need the main one
        yield
        return
    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture
def run_cli(capsys, monkeypatch):
    """``run_cli(*args, env=None, cwd=None) -> (code, out, err)``: ``hanasim ARGS`` in this
    process.  Environment variables and the working directory are set for the one call and
    restored after it (monkeypatch), and the store is the test's temporary one (the autouse
    fixture below) unless the test names another: nothing leaks from one test to the next."""
    from hanasim.cli import main

    def run(*args, env=None, cwd=None, timeout=300):
        capsys.readouterr()  # only this command's output
        with monkeypatch.context() as m, _time_limit(timeout, args):
            # stdout is a pipe for a subprocess: help text wrapped at 80 columns whatever the
            # terminal pytest runs in (argparse asks for the terminal's size)
            m.setenv("COLUMNS", os.environ.get("COLUMNS", "80"))
            for k, v in (env or {}).items():
                m.setenv(k, v)
            if cwd is not None:
                m.chdir(cwd)
            try:
                code = main([str(a) for a in args])
            except SystemExit as e:  # argparse: --help, --version, usage errors
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        out, err = capsys.readouterr()
        return CliResult(code, out, err)

    return run


# --- which kernels each test compiles (opt-in: HANASIM_COMPILE_LOG=path.jsonl) -----------------
# One JSON line per outermost numba compile in this process: the test, the kernel, its argument
# types and the CPU seconds it took; used to find tests forcing compiles users never need
# (another specialisation of one kernel, a lookahead kernel a smaller test could share).

if os.environ.get("HANASIM_COMPILE_LOG"):
    import json
    import time

    from numba.core import event

    class _CompileLog(event.Listener):
        test = "(collection)"

        def __init__(self):
            self.depth = 0
            self.start = None

        def on_start(self, ev):
            self.depth += 1
            if self.depth == 1:
                d = ev.data.get("dispatcher")
                self.start = (getattr(d, "py_func", None), ev.data.get("args"),
                              time.process_time(), time.time())

        def on_end(self, ev):
            self.depth -= 1
            if self.depth == 0 and self.start is not None:
                fn, args, cpu0, t0 = self.start
                row = dict(test=self.test, pid=os.getpid(), t=t0,
                           kernel=f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__name__', '?')}",
                           args=str(args)[:2000], cpu=time.process_time() - cpu0)
                with open(os.environ["HANASIM_COMPILE_LOG"], "a") as f:
                    f.write(json.dumps(row) + "\n")
                self.start = None

    _LOG = _CompileLog()
    event.register("numba:compile", _LOG)

    @pytest.fixture(autouse=True)
    def _compile_log(request):
        _LOG.test = request.node.nodeid
        yield
        _LOG.test = "(between tests)"


# --- CPU of each test, its subprocesses included (opt-in: HANASIM_TEST_CPU_LOG=path.jsonl) -------
# One JSON line per test: its CPU seconds in this process and in the child processes it waited
# for (CLI subprocesses, notebook kernels): far less moved by a loaded machine than wall times
# (though not untouched: on a 2-vCPU VM work costs 5-10% more CPU under load); with the compile
# log above, where a cold run's time goes, test by test.

if os.environ.get("HANASIM_TEST_CPU_LOG"):
    import json
    import resource
    import time

    def _cpu():
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        own0, kids0 = _cpu()
        t0 = time.time()
        yield
        own1, kids1 = _cpu()
        row = dict(test=item.nodeid, pid=os.getpid(), t=t0, wall=time.time() - t0,
                   cpu=own1 - own0, children=kids1 - kids0)
        with open(os.environ["HANASIM_TEST_CPU_LOG"], "a") as f:
            f.write(json.dumps(row) + "\n")
