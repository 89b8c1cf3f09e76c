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
