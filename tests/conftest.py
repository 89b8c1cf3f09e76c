import os

import pytest


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="long statistical checks with many more rounds (local, not CI)")


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
