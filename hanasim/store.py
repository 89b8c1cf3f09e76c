"""Writing tables to files atomically, and the local results store of saved runs.

A crash never leaves a half-written file behind: every file is written to a temporary file in
the same directory and then renamed into place.

The results store is a directory (``./hanasim-runs`` by default, or ``$HANASIM_STORE``, or the
``store`` argument) holding one Parquet file per saved run, ``<run id>.parquet``: the tidy
table, with the run's provenance (``df.attrs``: game, rule options, policies, rounds, seed,
hanasim and numba versions, wall time) as JSON in the Parquet schema metadata, next to a small
store header (format version, run id, date saved).  Run ids sort by the time they were saved
(UTC): ``20261122-114501-toppa-3f9a``.

Nothing here deletes a file: a file that is not a saved run (not Parquet, a Parquet file
without hanasim metadata, a run written by a newer store format) raises a ``ValueError`` naming
it when loaded, and :func:`list_runs` skips it with a warning naming it.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import re
import secrets
import stat
import warnings
from pathlib import Path

import pandas as pd

from .atomic import fsync_path, tmp_in, write_bytes  # noqa: F401  (write_bytes: used by report)

STORE_ENV = "HANASIM_STORE"
DEFAULT_STORE = "hanasim-runs"
#: The store format this hanasim writes; it reads this one and older ones.
STORE_FORMAT = 1
_ATTRS_KEY = b"hanasim"          # df.attrs as JSON (the same key write_table uses)
_STORE_KEY = b"hanasim_store"    # {"format": 1, "run_id": ..., "saved_at": ..., "rows": ...}
_SUFFIX = ".parquet"
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
LIST_COLUMNS = ["id", "game", "date", "rounds", "seed", "policies", "rules", "wall_time_s",
                "expose", "session_rounds", "dealing", "game_version", "hanasim_version",
                "numba_version", "rows", "path"]


class StoreWarning(UserWarning):
    """A file in the results store was skipped (it is left where it is)."""


class StoreError(ValueError):
    """A saved run that is not there or cannot be read (no such run, an ambiguous prefix, a
    damaged file): a failure of the store, not of the arguments (the CLI exits 1, not 2)."""


def _json_default(value):
    item = getattr(value, "item", None)  # numpy scalars
    if callable(item):
        try:
            return item()
        except (TypeError, ValueError):
            pass
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


def _arrow_table(df: pd.DataFrame, extra_meta: dict | None = None):
    import pyarrow as pa

    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[_ATTRS_KEY] = json.dumps(df.attrs, default=_json_default).encode()
    for key, value in (extra_meta or {}).items():
        meta[key] = json.dumps(value, default=_json_default).encode()
    return table.replace_schema_metadata(meta)


# The output-path check and writer are shared by every command (hanasim.outputs); kept here
# under their old names for the callers that import them from the store.
from .outputs import output_target  # noqa: E402,F401


FORMATS = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}


def output_format(path, fmt: str | None) -> str:
    """The format to write ``path`` in: ``fmt`` if given, else the file's extension (``.csv``,
    ``.parquet``), else CSV.  A format that contradicts the extension is refused (a
    ``.parquet`` file holding CSV would fool every reader)."""
    ext = FORMATS.get(os.path.splitext(str(path))[1].lower()) if path not in (None, "-") else None
    if fmt is None:
        return ext or "csv"
    if ext is not None and ext != fmt:
        raise ValueError(f"--format {fmt} does not match {path} (a .{ext} name): drop --format "
                         f"to write {ext}, or name the file .{fmt}")
    return fmt


def table_bytes(df: pd.DataFrame, fmt: str) -> bytes:
    """The bytes of ``df`` as CSV or Parquet (metadata kept in the Parquet schema)."""
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        sink = pa.BufferOutputStream()
        pq.write_table(_arrow_table(df), sink)
        return sink.getvalue().to_pybytes()
    if fmt == "csv":
        return df.to_csv(index=False).encode()
    raise ValueError(f"unknown format {fmt!r}; use csv or parquet")


def write_table(df: pd.DataFrame, path: str, fmt: str = "csv", *, force: bool = True,
                store=None) -> str:
    """Write ``df`` as CSV or Parquet to ``path``; return what was done (see
    :func:`output_target`): a regular file is written atomically (temporary file + rename, so
    it is whole or absent), a FIFO or device is written through, ``-`` is stdout."""
    from .outputs import write_output

    data = table_bytes(df, fmt)  # before touching the output: a bad format writes nothing
    return write_output(path, data, force=force, store=store)


def check_store(store=None) -> Path:
    """The store directory, checked before a run that will be saved in it."""
    root = store_path(store)
    if root.exists() and not root.is_dir():
        raise ValueError(f"the results store {root} is a file, not a directory (set "
                         f"${STORE_ENV} to a folder, or give --no-save)")
    return root


# ---------------------------------------------------------------------------------------------
# The results store


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


def _now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc)


def _new_id(game: str, now: _dt.datetime) -> str:
    slug = re.sub(r"[^a-z0-9]+", "_", str(game).lower()).strip("_") or "run"
    return f"{now:%Y%m%d-%H%M%S}-{slug}-{secrets.token_hex(2)}"


def _game_of(df: pd.DataFrame) -> str:
    game = df.attrs.get("game")
    if not game and "game" in df.columns:
        games = df["game"].dropna().unique()
        if len(games) == 1:
            game = games[0]
    if not game:
        raise ValueError("cannot save this table: it has no game in df.attrs (pass the table "
                         "hanasim.simulate returned, whose attrs hold the run's provenance)")
    return str(game)


def save_run(df: pd.DataFrame, store=None) -> str:
    """Save a run's table and its ``df.attrs`` provenance in the results store; return its id.

    The file appears whole or not at all (temporary file + rename in the store directory), and
    an existing run is never overwritten.
    """
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"save_run needs a DataFrame, got {type(df).__name__}")
    if df.empty:
        raise ValueError("cannot save an empty table")
    game = _game_of(df)
    root = check_store(store)
    try:
        return _save(df, game, root)
    except OSError as e:  # name the store, not a hidden temporary file
        raise OSError(f"cannot save the run in {root}: {e.strerror or _first_line(e)}") from None


def _save(df, game, root: Path) -> str:
    import pyarrow.parquet as pq

    root.mkdir(parents=True, exist_ok=True)
    now = _now()
    header = dict(format=STORE_FORMAT, saved_at=now.isoformat(timespec="milliseconds"),
                  rows=int(len(df)))
    tmp = tmp_in(str(root))
    try:
        for _ in range(100):
            run_id = _new_id(game, now)
            target = root / f"{run_id}{_SUFFIX}"
            if target.exists():
                continue
            header["run_id"] = run_id
            pq.write_table(_arrow_table(df, {_STORE_KEY: header}), tmp)
            fsync_path(tmp)
            if _place_no_clobber(tmp, target):
                return run_id
        raise OSError(f"could not find a free run id in {root}")
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _place_no_clobber(tmp: str, target: Path) -> bool:
    """Move ``tmp`` to ``target`` unless ``target`` exists (then False); atomic either way."""
    try:
        os.link(tmp, target)  # fails if target exists: two savers never overwrite each other
    except FileExistsError:
        return False
    except OSError:  # a file system without hard links: rename (atomic, may race, rarely)
        if target.exists():
            return False
        os.replace(tmp, target)
        return True
    os.unlink(tmp)
    return True


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _read_header(path: Path):
    """(attrs, store header) of a saved run from its Parquet footer; ValueError if it is not one."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        schema = pq.read_schema(path)
    except (FileNotFoundError, PermissionError, IsADirectoryError):
        raise
    except (pa.ArrowException, ValueError, OSError) as e:  # pyarrow reports bad bytes as these
        raise StoreError(f"{path} is not a hanasim run: not a readable Parquet file "
                         f"({_first_line(e)})") from None
    meta = schema.metadata or {}
    if _STORE_KEY not in meta:
        what = ("a hanasim table but not a saved run (no store header)" if _ATTRS_KEY in meta
                else "a Parquet file without hanasim metadata")
        raise StoreError(f"{path} is not a hanasim run: {what}")
    try:
        header = json.loads(meta[_STORE_KEY])
        attrs = json.loads(meta.get(_ATTRS_KEY, b"{}"))
        fmt = header["format"]
    except (ValueError, KeyError, TypeError) as e:
        raise StoreError(f"{path} is not a hanasim run: its metadata is damaged ({e})") from None
    if not isinstance(header, dict) or not isinstance(attrs, dict) or not isinstance(fmt, int):
        raise StoreError(f"{path} is not a hanasim run: its metadata is damaged")
    # Fields other code sorts and prints: a wrong type is damage, not a crash later.
    saved_at, rows = header.get("saved_at"), header.get("rows")
    try:
        ok_date = isinstance(saved_at, str) and _dt.datetime.fromisoformat(saved_at) is not None
    except ValueError:
        ok_date = False
    bad = ("saved_at" if not ok_date else
           "rows" if rows is not None and (isinstance(rows, bool) or not isinstance(rows, int))
           else next((k for k in ("game", "rules", "policies") if k in attrs
                      and not isinstance(attrs[k], str)), None))
    if bad is None and fmt > STORE_FORMAT:
        raise StoreError(f"{path} was saved in store format {fmt}, newer than this hanasim reads "
                         f"(up to {STORE_FORMAT}): upgrade hanasim to read it")
    if bad is not None:
        raise StoreError(f"{path} is not a hanasim run: its metadata is damaged ({bad} is "
                         f"{_show(header.get(bad, attrs.get(bad)))})")
    return attrs, header


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."


def _run_files(root: Path) -> list[Path]:
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir()
                  if p.name.endswith(_SUFFIX) and not p.name.startswith(".") and p.is_file())


def _resolve(run_id, root: Path) -> Path:
    """The file of ``run_id``: an exact id, a unique prefix of one, or ``latest``."""
    run_id = str(run_id).strip()
    if run_id.endswith(_SUFFIX):
        run_id = run_id[: -len(_SUFFIX)]
    if not _ID_RE.match(run_id):
        raise ValueError(f"{run_id!r} is not a run id (ids look like 20261122-114501-toppa-3f9a; "
                         "'hanasim runs list' shows them)")
    files = _run_files(root)
    if run_id == "latest":
        if not files:
            raise StoreError(f"no saved runs in {root}")
        with warnings.catch_warnings():  # other, unreadable files are not this question
            warnings.simplefilter("ignore", StoreWarning)
            ids = list_runs(root)["id"]
        if ids.empty:
            raise StoreError(f"no readable saved runs in {root}")
        return root / f"{ids.iloc[-1]}{_SUFFIX}"
    exact = root / f"{run_id}{_SUFFIX}"
    if exact.is_file():
        return exact
    matches = [p for p in files if p.name.startswith(run_id)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        names = ", ".join(p.name[: -len(_SUFFIX)] for p in matches[:5])
        raise StoreError(f"run id {run_id!r} is ambiguous in {root}: {names}"
                         + (", ..." if len(matches) > 5 else ""))
    raise StoreError(f"no run {run_id!r} in {root} ('hanasim runs list' shows the saved runs)")


def load_file(path) -> pd.DataFrame:
    """Load one saved-run file (with ``df.attrs``); ValueError naming it if it is not one."""

    path = Path(path)
    attrs, header = _read_header(path)
    df = _read_data(path, header)
    df.attrs.clear()
    df.attrs.update(attrs)
    df.attrs["run_id"] = path.name[: -len(_SUFFIX)] if path.name.endswith(_SUFFIX) else path.stem
    df.attrs["saved_at"] = header.get("saved_at")
    df.attrs["store_format"] = header["format"]
    return df


def _read_data(path: Path, header: dict) -> pd.DataFrame:
    """A saved run's rows; ValueError naming the file if its data pages are damaged."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        df = pq.read_table(path).to_pandas()
    except (FileNotFoundError, PermissionError, IsADirectoryError):
        raise
    except (pa.ArrowException, ValueError, OSError) as e:
        raise StoreError(f"{path} is damaged: {_first_line(e)}") from None
    rows = header.get("rows")
    if isinstance(rows, int) and rows != len(df):
        raise StoreError(f"{path} is damaged: {len(df)} rows, its header says {rows}")
    return df


def load_run(run_id, store=None) -> pd.DataFrame:
    """The table of a saved run, with its provenance in ``df.attrs`` (plus run_id, saved_at).

    ``run_id`` is a full id, a unique prefix of one, or ``"latest"``.
    """
    return load_file(_resolve(run_id, store_path(store)))


def list_runs(store=None) -> pd.DataFrame:
    """One row per saved run, oldest first: id, game, date, rounds, seed, policies, rules,
    wall_time_s (and expose, session_rounds, dealing, versions, rows, path).

    Files that are not saved runs are skipped with a :class:`StoreWarning` naming them; they are
    never deleted.
    """
    root = store_path(store)
    rows = []
    for path in _run_files(root):
        try:
            attrs, header = _read_header(path)
            _read_data(path, header)  # damaged pages show here, not later in load_runs
        except (ValueError, OSError) as e:
            warnings.warn(f"skipping {path}: {e}" if str(path) not in str(e) else f"skipping: {e}",
                          StoreWarning, stacklevel=2)
            continue
        row = {k: attrs.get(k) for k in LIST_COLUMNS}
        row.update(id=path.name[: -len(_SUFFIX)], date=header.get("saved_at"),
                   rows=header.get("rows"), path=str(path))
        rows.append(row)
    out = pd.DataFrame(rows, columns=LIST_COLUMNS)
    if not out.empty:
        out = out.sort_values(["date", "id"], kind="stable").reset_index(drop=True)
    out.attrs["store"] = str(root)
    return out


def load_runs(store=None, game=None, ids=None) -> pd.DataFrame:
    """All saved runs' rows in one tidy table with a ``run_id`` (and ``saved_at``) column.

    ``game``: a game name or a list of them; ``ids``: run ids (or unique prefixes) to load, in
    that order.  Without ``ids`` every readable run is loaded, oldest first (a damaged or
    foreign file is skipped with a :class:`StoreWarning` naming it, as in :func:`list_runs`,
    and left where it is); a requested id that cannot be loaded raises ``ValueError``.
    """
    root = store_path(store)
    if isinstance(game, str):
        game = [game]
    if ids is not None:
        if isinstance(ids, str):
            ids = [ids]
        paths = [_resolve(i, root) for i in ids]
    else:
        listed = list_runs(root)
        if game is not None:
            listed = listed[listed["game"].isin(list(game))]
        paths = [Path(p) for p in listed["path"]]
    frames = []
    for path in paths:
        try:
            df = load_file(path)
        except (ValueError, OSError) as e:
            if ids is not None:  # asked for by id: that is an error, not a skip
                raise
            warnings.warn(f"skipping: {e}" if str(path) in str(e) else f"skipping {path}: {e}",
                          StoreWarning, stacklevel=2)
            continue
        if game is not None and df.attrs.get("game") not in game:
            continue
        df.insert(0, "run_id", df.attrs["run_id"])
        df.insert(1, "saved_at", df.attrs.get("saved_at"))
        frames.append(df)
    if frames:
        out = pd.concat(frames, ignore_index=True)
    else:
        out = pd.DataFrame(columns=["run_id", "saved_at", "game", "quantity", "estimate",
                                    "std_error", "ci_low", "ci_high", "n"])
    out.attrs.clear()
    out.attrs["store"] = str(root)
    out.attrs["run_ids"] = [f.attrs["run_id"] for f in frames]
    return out
