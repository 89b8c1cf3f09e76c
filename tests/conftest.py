import pytest


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="long statistical checks with many more rounds (local, not CI)")


@pytest.fixture(scope="session")
def full(request):
    return request.config.getoption("--full")


@pytest.fixture(scope="session")
def stat_rounds(full):
    """Rounds for statistical agreement tests: small in CI, large with --full."""
    return 4_000_000 if full else 300_000


@pytest.fixture(autouse=True)
def _results_store(tmp_path, monkeypatch):
    """Runs saved by the CLI in tests go to a temporary store, never into the repository."""
    monkeypatch.setenv("HANASIM_STORE", str(tmp_path / "hanasim-runs"))
