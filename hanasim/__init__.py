"""hanasim: simulate the rules of traditional Japanese card games and measure them.

>>> import hanasim
>>> df = hanasim.simulate("toppa", rounds=100_000, seed=1)   # doctest: +SKIP
"""
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("hanasim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

from ._env import problem as _env_problem  # noqa: E402

#: Why hanasim cannot start in this environment (one line), or None; the CLI prints it.
ENV_PROBLEM = _env_problem()

if ENV_PROBLEM is None:
    from ._cache import configure as _configure_cache  # noqa: E402

    CACHE_DIR = _configure_cache()  # before any kernel module is imported

    from .api import (available_games, compare, exact, rules_table, simulate, solve,  # noqa: E402
                      sweep)
    from .stats.distribution import table as distributions  # noqa: E402
    from .tournament import tournament  # noqa: E402

    def __getattr__(name):
        if name == "plot":  # matplotlib loads on first use, not with every command
            import importlib

            return importlib.import_module(".plot", __name__)
        raise AttributeError(f"module 'hanasim' has no attribute {name!r}")
else:  # importing numba would raise: keep `import hanasim` working and say why on use
    CACHE_DIR = None

    def __getattr__(name):
        if name not in ("simulate", "compare", "sweep", "solve", "exact", "available_games",
                        "rules_table", "distributions", "tournament"):
            raise AttributeError(name)  # submodules still import (the CLI needs its parser)
        raise RuntimeError(f"hanasim cannot run: {ENV_PROBLEM}")

__all__ = ["simulate", "compare", "sweep", "solve", "exact", "available_games", "rules_table",
           "distributions", "tournament", "plot", "__version__"]
