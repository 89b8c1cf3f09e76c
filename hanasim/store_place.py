"""Where the results store is, and the store's warning and error classes: what a command
needs before it reads a run, without pandas or pyarrow (``hanasim runs list`` loads neither
when the store's index is up to date).  :mod:`hanasim.store` offers all of these names too."""
from __future__ import annotations

import os
from pathlib import Path

STORE_ENV = "HANASIM_STORE"
DEFAULT_STORE = "hanasim-runs"


class StoreWarning(UserWarning):
    """A file in the results store was skipped (it is left where it is)."""


class StoreError(ValueError):
    """A saved run that is not there or cannot be read (no such run, an ambiguous prefix, a
    damaged file): a failure of the store, not of the arguments (the CLI exits 1, not 2)."""


#: files that mark the top folder of a project: the store of a project is next to them
PROJECT_MARKERS = (".git", "pyproject.toml", "setup.cfg", "setup.py")


def _project_store(start: Path):
    """(store, how it was found) from ``start`` upwards: the first folder that holds a
    ``hanasim-runs`` folder, or else the first that holds a project marker; None if neither."""
    for d in (start, *start.parents):
        if (d / DEFAULT_STORE).is_dir():
            return d / DEFAULT_STORE, f"the store found in {d}"
        if any((d / m).exists() for m in PROJECT_MARKERS):
            return d / DEFAULT_STORE, f"the store of the project in {d}"
    return None


def store_location(store=None) -> tuple[Path, str]:
    """The store directory and how it was chosen: ``store`` if given (``--store``), else
    ``$HANASIM_STORE``, else the project's store: from the working directory upwards, the
    first ``hanasim-runs`` folder, or else one next to the project's top folder (``.git``,
    ``pyproject.toml``...), so a notebook in ``notebooks/`` and a command at the top of the
    project share one store; outside any project, ``./hanasim-runs``."""
    if store is not None and str(store) != "":
        return Path(os.path.expanduser(str(store))), "given with --store"
    if os.environ.get(STORE_ENV):
        return Path(os.path.expanduser(os.environ[STORE_ENV])), f"${STORE_ENV}"
    cwd = Path(os.getcwd())
    found = _project_store(cwd)
    if found is not None:
        path, how = found
        return (Path(os.path.relpath(path)) if path.is_relative_to(cwd) else path), how
    return Path(DEFAULT_STORE), "the working directory's store"


def store_path(store=None) -> Path:
    """The store directory (see :func:`store_location`)."""
    return store_location(store)[0]
