import os

import pytest


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="long statistical checks with many more rounds (local, not CI)")


# --- where each test runs under pytest-xdist (--dist loadgroup, see pyproject.toml) -------------
# Every test is grouped by its file, as --dist loadfile does, except the game cases of files that
# run every game (test_identity.py): each goes with the game's own test file, so a game's kernels
# are compiled by one worker while the other runs other files, instead of one worker compiling all
# eight games' kernels in a row (and the other compiling some of them again at the same time).
GAME_FILES = {"toppa": "test_toppa_rules.py", "baka": "test_baka.py",
              "bakappana": "test_bakappana.py", "ishikari_toppa": "test_ishikari.py",
              "koikoi": "test_koikoi.py", "kushiro_toppa": "test_kushiro.py",
              "taipa": "test_taipa.py", "taoshi": "test_taoshi.py"}
SPLIT_BY_GAME = {"test_identity.py"}


def group_of(item) -> str:
    """The xdist group of a test: its file, or for a game case of a file that runs every game,
    the game's own test file (the case's id starts with the game's name)."""
    name = item.path.name
    if name in SPLIT_BY_GAME:
        case = item.nodeid.split("[", 1)[1] if "[" in item.nodeid else ""
        game = case.split("/", 1)[0]
        if game in GAME_FILES:
            return GAME_FILES[game]
    return name


def pytest_configure(config):
    config.addinivalue_line("markers", "xdist_group(name): run the test in its group's worker")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if not any(item.iter_markers("xdist_group")):
            item.add_marker(pytest.mark.xdist_group(group_of(item)))


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
