"""hanasim: simulate the rules of traditional Japanese card games and measure them.

>>> import hanasim
>>> df = hanasim.simulate("toppa", rounds=100_000, seed=1)   # doctest: +SKIP
"""
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("hanasim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

from ._cache import configure as _configure_cache  # noqa: E402

CACHE_DIR = _configure_cache()  # before any kernel module is imported

from .api import available_games, compare, exact, rules_table, simulate  # noqa: E402

__all__ = ["simulate", "compare", "exact", "available_games", "rules_table", "__version__"]
