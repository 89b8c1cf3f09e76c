"""hanasim: simulate the rules of traditional Japanese card games and measure them.

>>> import hanasim
>>> df = hanasim.simulate("toppa", rounds=100_000, seed=1)   # doctest: +SKIP

The public functions load on first use: importing hanasim (and so ``hanasim --version`` or
``--help``) loads no compiled kernel, pandas or game module.
"""
import importlib as _importlib
import sys as _sys
import types as _types


def _starting_the_command() -> bool:
    """True while ``python -m hanasim`` imports this package: ``runpy`` imports it before
    hanasim/__main__.py runs, with ``sys.argv[0]`` set to ``"-m"`` while it does."""
    if _sys.argv[:1] != ["-m"]:
        return False
    argv = list(getattr(_sys, "orig_argv", ()))
    named = [b for a, b in zip(argv, argv[1:]) if a == "-m"]
    named += [a[2:] for a in argv if a.startswith("-m") and len(a) > 2]
    return any(m == "hanasim" or m.startswith("hanasim.") for m in named)


# Ctrl-C while the package loads, when it is the command starting: one line and exit code 130,
# as anywhere else in the command; in a program that imports hanasim it stays the
# KeyboardInterrupt it always is.
try:
    from importlib.metadata import PackageNotFoundError, version as _version

    try:
        __version__ = _version("hanasim")
    except PackageNotFoundError:  # running from a source tree that is not installed
        __version__ = "0+unknown"

    from ._env import problem as _env_problem

    #: Why hanasim cannot start in this environment (one line), or None; the CLI prints it.
    ENV_PROBLEM = _env_problem()
except KeyboardInterrupt:
    if not _starting_the_command():
        raise
    _sys.stderr.write("hanasim: interrupted\n")
    raise SystemExit(130) from None


class _CacheOnNumbaImport:
    """Points numba's kernel cache at hanasim's folder (:mod:`hanasim._cache`) the moment numba
    is imported, before any kernel is decorated: numba (most of a second) loads only with the
    first module that needs it, so a command without kernels (``runs list``) never loads it."""

    def find_spec(self, name, path=None, target=None):
        if name != "numba":
            return None
        for finder in _sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _ThenConfigure(spec.loader)
                return spec
        return None


class _ThenConfigure:
    """numba's own loader, followed by the cache configuration."""

    def __init__(self, loader):
        self._loader = loader

    def __getattr__(self, name):  # everything else is the real loader's
        return getattr(self._loader, name)

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        _configure()


_CACHE = []  # the cache folder, once configured


def _configure():
    if not _CACHE:
        from ._cache import configure

        _CACHE.append(configure())
        for finder in [f for f in _sys.meta_path if isinstance(f, _CacheOnNumbaImport)]:
            _sys.meta_path.remove(finder)  # its work is done
    return _CACHE[0]


if ENV_PROBLEM is None:  # else importing numba would raise: `import hanasim` works, says why on use
    if "numba" in _sys.modules:  # loaded already (by the program): configure now, at no cost
        _configure()
    elif not any(isinstance(f, _CacheOnNumbaImport) for f in _sys.meta_path):
        _sys.meta_path.insert(0, _CacheOnNumbaImport())

#: public name: (module, attribute; None for the module itself)
_PUBLIC = {
    "simulate": (".api", "simulate"), "compare": (".api", "compare"),
    "sweep": (".api", "sweep"), "solve": (".api", "solve"), "exact": (".api", "exact"),
    "available_games": (".api", "available_games"), "rules_table": (".api", "rules_table"),
    "distributions": (".stats.distribution", "table"),
    "tournament": (".tournament", "tournament"),
    "advise": (".position.api", "advise"), "replay": (".position.api", "replay"),
    "plot": (".plot", None),  # matplotlib loads on first use, not with every command
}


def __getattr__(name):
    if name == "CACHE_DIR":  # hanasim's kernel cache folder (numba loads, if it had not)
        return None if ENV_PROBLEM is not None else _configure()
    if name not in _PUBLIC:
        raise AttributeError(f"module 'hanasim' has no attribute {name!r}")
    if ENV_PROBLEM is not None:
        raise RuntimeError(f"hanasim cannot run: {ENV_PROBLEM}")
    module, attr = _PUBLIC[name]
    value = _importlib.import_module(module, __name__)
    return value if attr is None else getattr(value, attr)


def __dir__():
    return sorted(set(globals()) | set(_PUBLIC) | {"CACHE_DIR"})


class _Package(_types.ModuleType):
    # Importing the submodule hanasim.tournament makes Python bind it as the package's
    # attribute `tournament`, which would hide the public function of that name.
    def __setattr__(self, name, value):
        if name == "tournament" and isinstance(value, _types.ModuleType):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package

__all__ = ["simulate", "compare", "sweep", "solve", "exact", "available_games", "rules_table",
           "distributions", "tournament", "plot", "advise", "replay", "__version__"]
