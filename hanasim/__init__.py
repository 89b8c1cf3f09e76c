"""hanasim: simulate the rules of traditional Japanese card games and measure them.

>>> import hanasim
>>> df = hanasim.simulate("toppa", rounds=100_000, seed=1)   # doctest: +SKIP

The public functions load on first use: importing hanasim (and so ``hanasim --version`` or
``--help``) loads no compiled kernel, pandas or game module.
"""
import importlib as _importlib
import sys as _sys
import types as _types
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("hanasim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

from ._env import problem as _env_problem  # noqa: E402

#: Why hanasim cannot start in this environment (one line), or None; the CLI prints it.
ENV_PROBLEM = _env_problem()

#: public name: (module, attribute; None for the module itself)
_PUBLIC = {
    "simulate": (".api", "simulate"), "compare": (".api", "compare"),
    "sweep": (".api", "sweep"), "solve": (".api", "solve"), "exact": (".api", "exact"),
    "available_games": (".api", "available_games"), "rules_table": (".api", "rules_table"),
    "distributions": (".stats.distribution", "table"),
    "tournament": (".tournament", "tournament"),
    "plot": (".plot", None),  # matplotlib loads on first use, not with every command
}

if ENV_PROBLEM is None:
    from ._cache import configure as _configure_cache  # noqa: E402

    CACHE_DIR = _configure_cache()  # before any kernel module is imported
else:  # importing numba would raise: keep `import hanasim` working and say why on use
    CACHE_DIR = None


def __getattr__(name):
    if name not in _PUBLIC:
        raise AttributeError(f"module 'hanasim' has no attribute {name!r}")
    if ENV_PROBLEM is not None:
        raise RuntimeError(f"hanasim cannot run: {ENV_PROBLEM}")
    module, attr = _PUBLIC[name]
    value = _importlib.import_module(module, __name__)
    return value if attr is None else getattr(value, attr)


def __dir__():
    return sorted(set(globals()) | set(_PUBLIC))


class _Package(_types.ModuleType):
    # Importing the submodule hanasim.tournament makes Python bind it as the package's
    # attribute `tournament`, which would hide the public function of that name.
    def __setattr__(self, name, value):
        if name == "tournament" and isinstance(value, _types.ModuleType):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package

__all__ = ["simulate", "compare", "sweep", "solve", "exact", "available_games", "rules_table",
           "distributions", "tournament", "plot", "__version__"]
