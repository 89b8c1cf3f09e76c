"""Writing tables to files atomically, and the local results store of saved runs.

A crash never leaves a half-written file behind: every file is written to a temporary file in
the same directory and then renamed into place.

The results store is a directory (``./hanasim-runs`` by default, or ``$HANASIM_STORE``, or the
``store`` argument) holding one Parquet file per saved run, ``<run id>.parquet``: the tidy
table, with the run's provenance (``df.attrs``: game, rule options, policies, rounds, seed,
hanasim and numba versions, wall time) as JSON in the Parquet schema metadata, next to a small
store header (format version, run id, date saved).  Run ids sort by the time they were saved
(UTC): ``20261122-114501-toppa-3f9a``.

The store also keeps an index of its runs (``.hanasim-index3``; see :mod:`hanasim.store_index`):
a cache checked against the files on every read, rebuilt from them when it is missing or
damaged, so listing and loading one game's runs read only what they need.

Seeds are exact: the ``seed`` column of every table read from or written to the store is
``uint64`` (pandas' nullable ``UInt64`` where a run has none), never a float, so 2**64-1
comes back as 2**64-1.

Nothing here deletes or rewrites a file except :func:`remove_runs` and :func:`tag_run`, for the
runs named by id: a file that is not a saved run (not Parquet, a Parquet file
without hanasim metadata, a run written by a newer store format) raises a ``ValueError`` naming
it when loaded, and :func:`list_runs` skips it with a warning naming it.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import re
import secrets
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .atomic import fsync_path, tmp_in, unwritable, why
# where the store is, and its warning and error, live in a module without pandas (for
# `runs list`); offered here as they always were
from .store_place import (DEFAULT_STORE, PROJECT_MARKERS, STORE_ENV,  # noqa: F401
                          StoreError, StoreWarning, _project_store, store_location, store_path)

#: The store format this hanasim writes; it reads this one and older ones.
STORE_FORMAT = 1
_ATTRS_KEY = b"hanasim"          # df.attrs as JSON (the same key write_table uses)
_STORE_KEY = b"hanasim_store"    # {"format": 1, "run_id": ..., "saved_at": ..., "rows": ...}
_SUFFIX = ".parquet"
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
LIST_COLUMNS = ["id", "game", "date", "rounds", "seed", "policies", "rules", "wall_time_s",
                "expose", "session_rounds", "dealing", "game_version", "hanasim_version",
                "numba_version", "run_type", "preset", "tags", "rows", "path"]


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
    :func:`hanasim.outputs.output_target`): a regular file is written atomically (temporary
    file + rename, so it is whole or absent), a FIFO or device is written through, ``-`` is
    stdout."""
    from .outputs import write_output

    data = table_bytes(df, fmt)  # before touching the output: a bad format writes nothing
    return write_output(path, data, force=force, store=store)


def check_store(store=None) -> Path:
    """The store directory, checked before a run that will be saved in it: it is (or can be
    made) a folder in which a file can be created, so a read-only, immutable or full-of-links
    store is named before any simulation, not after it."""
    root = store_path(store)
    hint = f"(give --store DIR or set ${STORE_ENV} to a folder you can write, or --no-save)"
    if root.is_symlink() and not root.exists():
        raise OSError(f"the results store {root} is a symbolic link to {os.readlink(root)}, "
                      f"which does not exist {hint}")
    if root.exists() and not root.is_dir():
        raise ValueError(f"the results store {root} is a file, not a directory (set "
                         f"${STORE_ENV} to a folder, or give --no-save)")
    blocker = _blocking_part(root)
    if blocker is not None:
        raise OSError(f"cannot save runs in the results store {root}: {blocker} is not a "
                      f"folder {hint}")
    if root.is_dir():  # what saving will do: a file created in it (and removed)
        try:
            os.unlink(tmp_in(str(root), prefix=".hanasim-check-"))
        except OSError as e:
            raise OSError(f"cannot save runs in the results store {root}: {why(e, root)} "
                          f"{hint}") from None
    else:  # nothing is created before the run: the folder it will be made in must allow it
        parent = next(p for p in root.absolute().parents if p.is_dir())
        problem = unwritable(parent)
        if problem is not None:
            raise OSError(f"cannot save runs in the results store {root}: it would be made in "
                          f"{parent}: {problem} {hint}")
    return root


def _blocking_part(root: Path):
    """The first part of ``root``'s path that exists but is not a folder (a file, a dangling
    link), or None."""
    for part in [*reversed(root.absolute().parents), root.absolute()]:
        if os.path.lexists(part) and not part.is_dir():
            return part
    return None


# ---------------------------------------------------------------------------------------------
# The results store


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
    if "seed" in df.columns and df["seed"].dtype != np.uint64:
        df = exact_seeds(df.copy())
    root = check_store(store)
    try:
        return _save(df, game, root)
    except OSError as e:  # name the store, not a hidden temporary file
        raise OSError(f"cannot save the run in {root}: {why(e, root)}") from None


def _save(df, game, root: Path) -> str:
    import pyarrow.parquet as pq

    root.mkdir(parents=True, exist_ok=True)
    now = _now()
    header = dict(format=STORE_FORMAT, saved_at=now.isoformat(timespec="milliseconds"),
                  rows=int(len(df)), **_rules_words(df.attrs, game),
                  **_condition_tags(df.attrs))
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
                _index_new_run(root, target)
                return run_id
        raise OSError(f"could not find a free run id in {root}")
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _index_new_run(root: Path, path: Path) -> None:
    """Add a run just saved to the store's index (:func:`hanasim.store_index.record`), so the
    next listing need not read its file; the run is saved whatever happens here."""
    from . import store_index as ix

    try:
        attrs, header = _read_header(path)  # what a listing would read from the file
        ix.record(root, path.name, attrs, header)
    except (OSError, ValueError, TypeError):  # the index is a cache: the next listing reads it
        pass


def _condition_tags(attrs: dict) -> dict:
    """A run on conditioned deals (``--given``, ``--where``) is tagged ``given`` / ``where``,
    so ``runs list`` shows it on its row whatever the rules words; the condition itself is in
    the run's attrs and notes."""
    tags = [k for k in ("given", "where") if attrs.get(k)]
    return {"tags": tags} if tags else {}


def _rules_words(attrs: dict, game: str) -> dict:
    """The run's rules in a few words, as ``runs list`` shows them, with the fingerprint of
    the rule definitions they were computed with: the store's index takes them from the file,
    so listing a new run loads no game module.  None if they cannot be computed here (the
    listing computes them)."""
    from .rules_text import fingerprint, rules_shown

    try:
        text = rules_shown(attrs.get("game", game), attrs.get("rules"), attrs.get("preset"))
    except (ValueError, TypeError, KeyError, AttributeError):
        return {}
    cond = " ".join(f"--{k} {attrs[k]}" for k in ("given", "where") if attrs.get(k))
    if cond:  # conditioned deals: said beside the rules
        text = f"{text} {cond}"
    return {"rules_shown": text, "rules_key": fingerprint()}


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


def _skip_text(path: Path, e: BaseException) -> str:
    return f"skipping: {e}" if str(path) in str(e) else f"skipping {path}: {e}"


def _scan(root: Path):
    """``(runs, bad)``: the store's readable runs as index rows (a DataFrame), oldest first (by
    save date, then id), and ``[(path, message)]`` for each file that is not a readable run.

    The index is trusted only for a file whose stats are those it recorded; every other file is
    read (whole) now, and the index is brought up to date if the store can be written (see
    :func:`hanasim.store_index.scan`).
    """
    from . import store_index as ix

    found = ix.scan(root)
    return ix.to_frame(found.rows), found.bad


def _latest(root: Path) -> Path:
    """The newest readable run; a file that cannot be read and may be newer (its name sorts
    after that run's: ids sort by time) is named in a warning, never passed over silently."""
    runs, bad = _scan(root)
    if runs.empty:
        if bad:
            raise StoreError(f"no readable saved runs in {root}; " + "; ".join(
                m for _, m in bad[:3]) + ("; ..." if len(bad) > 3 else ""))
        raise StoreError(f"no saved runs in {root}")
    last = str(runs["id"].iloc[-1])
    for path, message in bad:
        if path.name[: -len(_SUFFIX)] >= last:
            warnings.warn(f"{message}; 'latest' is the newest readable run, {last}",
                          StoreWarning, stacklevel=4)
    return root / f"{last}{_SUFFIX}"


def _resolve(run_id, root: Path) -> Path:
    """The file of ``run_id``: an exact id, a unique prefix of one, or ``latest``."""
    run_id = str(run_id).strip()
    if run_id.endswith(_SUFFIX):
        run_id = run_id[: -len(_SUFFIX)]
    if not _ID_RE.match(run_id):
        raise ValueError(f"{run_id!r} is not a run id (ids look like 20261122-114501-toppa-3f9a; "
                         "'hanasim runs list' shows them)")
    if run_id == "latest":
        return _latest(root)
    exact = root / f"{run_id}{_SUFFIX}"
    if exact.is_file():
        return exact
    matches = [p for p in _run_files(root) if p.name.startswith(run_id)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        names = ", ".join(p.name[: -len(_SUFFIX)] for p in matches[:5])
        raise StoreError(f"run id {run_id!r} is ambiguous in {root}: {names}"
                         + (", ..." if len(matches) > 5 else ""))
    raise StoreError(f"no run {run_id!r} in {root} ('hanasim runs list' shows the saved runs)")


def exact_seeds(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its ``seed`` column as ``uint64`` (in place) when every value is a whole
    number from 0 to 2**64-1, so tables of any seeds concatenate without turning seeds into
    floats; any other column is left as it is."""
    col = df.get("seed") if isinstance(df, pd.DataFrame) else None
    if col is None or col.dtype == np.uint64:
        return df
    if isinstance(col.dtype, pd.UInt64Dtype) or col.dtype == np.int64 or col.dtype == object:
        values = list(col)
        if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
               and 0 <= v < 2**64 for v in values):
            df["seed"] = np.array([int(v) for v in values], dtype=np.uint64)
    return df


def load_file(path) -> pd.DataFrame:
    """Load one saved-run file (with ``df.attrs``); ValueError naming it if it is not one."""

    path = Path(path)
    attrs, header = _read_header(path)
    df = exact_seeds(_read_data(path, header))  # runs saved before seeds were uint64: int64
    df.attrs.clear()
    df.attrs.update(attrs)
    df.attrs["run_id"] = path.name[: -len(_SUFFIX)] if path.name.endswith(_SUFFIX) else path.stem
    df.attrs["saved_at"] = header.get("saved_at")
    df.attrs["store_format"] = header["format"]
    from .store_index import tags_of

    if tags_of(header):
        df.attrs["tags"] = tags_of(header)
    return df


def _read_data(path: Path, header: dict) -> pd.DataFrame:
    """A saved run's rows; ValueError naming the file if its data pages are damaged."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        # one thread: a run's table is small, and threads cost more than they save (half the
        # time of load_runs over thousands of runs)
        df = pq.read_table(path, use_threads=False).to_pandas(use_threads=False)
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
    wall_time_s (and expose, session_rounds, dealing, versions, run_type, preset, rows, path).

    Read from the store's index, checked against the files (see :mod:`hanasim.store_index`).
    Files that are not saved runs are skipped with a :class:`StoreWarning` naming them; they are
    never deleted.
    """
    return _listing(store)


def _listing(store=None, extra=(), stacklevel=3) -> pd.DataFrame:
    """:func:`list_runs`, with the ``extra`` index columns (``runs list`` adds the rules in
    words, :data:`hanasim.store_index.SHOWN`)."""
    root = store_path(store)
    runs, bad = _scan(root)
    for _, message in bad:
        warnings.warn(message, StoreWarning, stacklevel=stacklevel)
    out = runs.reindex(columns=LIST_COLUMNS + list(extra))
    ids = out["id"].to_numpy(dtype=object)  # joined in numpy: one C loop, not one per run
    out["path"] = np.add(np.add(os.path.join(str(root), ""), ids), _SUFFIX)
    out.attrs["store"] = str(root)
    return out


def _games(game) -> list[str] | None:
    """``game`` of load_runs as a list of names (lower case), checked."""
    if game is None:
        return None
    what = "game must be a game name or a list of game names"
    if isinstance(game, str):
        game = [game]
    elif not isinstance(game, (list, tuple, set, frozenset, pd.Series, np.ndarray)):
        raise TypeError(f"{what}, got {_show(game)}")
    game = list(game)
    bad = [g for g in game if not isinstance(g, str) or not g.strip()]
    if bad:
        raise TypeError(f"{what}, got {_show(bad[0])} in {_show(game)}")
    return [g.strip().lower() for g in game]


def load_runs(store=None, game=None, ids=None) -> pd.DataFrame:
    """All saved runs' rows in one tidy table with a ``run_id`` (and ``saved_at``) column.

    ``game``: a game name or a list of them; ``ids``: run ids (or unique prefixes) to load, in
    that order.  Without ``ids`` every readable run is loaded, oldest first (a damaged or
    foreign file is skipped with a :class:`StoreWarning` naming it, as in :func:`list_runs`,
    and left where it is); a requested id that cannot be loaded raises ``ValueError``.  Only
    the files of the runs asked for are read (the others are known from the store's index).
    The ``seed`` column is exact (``uint64``; ``UInt64`` if some run has no seed).

    Every row has a ``variant`` and a ``kind`` (see :func:`with_variant`), so one number is
    ``(run_id, variant, kind, quantity)`` for every kind of run; side by side, without ever
    averaging a comparison's variants with their difference (``pivot`` refuses duplicates
    where ``pivot_table`` would average them)::

        runs = load_runs(game="toppa")
        runs[runs.kind == "value"].pivot(index="quantity", columns=["run_id", "variant"],
                                         values="estimate")
    """
    root = store_path(store)
    game = _games(game)
    if ids is not None:
        if isinstance(ids, str):
            ids = [ids]
        paths = [_resolve(i, root) for i in ids]
    else:
        runs, bad = _scan(root)
        for _, message in bad:
            warnings.warn(message, StoreWarning, stacklevel=2)
        if game is not None:
            runs = runs[runs["game"].str.lower().isin(game)]
        paths = [root / f"{i}{_SUFFIX}" for i in runs["id"]]
    frames = []
    for path in paths:
        try:
            df = load_file(path)
        except (ValueError, OSError) as e:
            if ids is not None:  # asked for by id: that is an error, not a skip
                raise
            warnings.warn(_skip_text(path, e), StoreWarning, stacklevel=2)
            continue
        if game is not None and str(df.attrs.get("game")).lower() not in game:
            continue
        df.insert(0, "run_id", df.attrs["run_id"])
        df.insert(1, "saved_at", df.attrs.get("saved_at"))
        if "seed" not in df.columns and _is_seed(df.attrs.get("seed")):
            df["seed"] = np.uint64(df.attrs["seed"])  # every row says which seed made it
        frames.append(with_variant(df))
    if frames:
        if not all(f.get("seed") is not None and f["seed"].dtype == np.uint64 for f in frames):
            # a run without a seed column (or an inexact one): nullable, never float
            for f in frames:
                if "seed" not in f.columns or f["seed"].dtype == np.uint64:
                    f["seed"] = pd.array(f["seed"] if "seed" in f.columns
                                         else [None] * len(f), dtype="UInt64")
        out = pd.concat(frames, ignore_index=True)
    else:
        out = pd.DataFrame(columns=["run_id", "saved_at", "game", "quantity", "estimate",
                                    "std_error", "ci_low", "ci_high", "n"])
    out.attrs.clear()
    out.attrs["store"] = str(root)
    out.attrs["run_ids"] = [f.attrs["run_id"] for f in frames]
    return out


#: the columns that name one number of a run: ``(run_id, variant, kind, quantity)`` is unique
KEY = ["run_id", "variant", "kind", "quantity"]


def with_variant(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with a ``variant`` and a ``kind`` column in every row (in place), so that
    ``(run_id, variant, kind, quantity)`` names one number whatever the run:

    - simulate: variant ``"run"``, kind ``"value"``;
    - compare: its variant labels; kind ``"value"`` (a variant's own estimate) or
      ``"difference"`` (variant less the baseline);
    - sweep: the label of the swept values (``"par=100"``), kind ``"value"``;
    - tournament: ``"A vs B"`` (policy vs opponent), kind ``"value"``.
    """
    if "variant" not in df.columns:
        if {"policy", "opponent"} <= set(df.columns):
            df["variant"] = df["policy"].astype(str) + " vs " + df["opponent"].astype(str)
        else:
            df["variant"] = "run"
    else:
        df["variant"] = df["variant"].fillna("run").replace("", "run")
    if "kind" not in df.columns:
        df["kind"] = "value"
    return df


def _is_seed(value) -> bool:
    return (isinstance(value, (int, np.integer)) and not isinstance(value, bool)
            and 0 <= value < 2**64)


# ---------------------------------------------------------------------------------------------
# Removing and tagging runs: the only changes to the store's files, and only when asked by id

_TAG_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:+-]{0,39}$")


def remove_runs(run_ids, store=None) -> list[str]:
    """Delete saved runs (ids, unique prefixes, or ``latest``); every id is resolved first, so
    one that is not there removes nothing.  A damaged file is removed by its exact name.
    Returns the removed ids."""
    root = store_path(store)
    if isinstance(run_ids, str):
        run_ids = [run_ids]
    paths = list(dict.fromkeys(_resolve(i, root) for i in run_ids))
    if not paths:
        raise ValueError("give the id of at least one run to remove")
    for path in paths:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError as e:
            raise OSError(f"cannot remove {path}: {why(e, path)}") from None
    return [p.name[: -len(_SUFFIX)] for p in paths]


def tag_run(run_id, add=(), remove=(), store=None) -> list[str]:
    """Add and remove tags (short names: letters, digits, ``. _ : + -``) of a saved run; return
    its tags.  The run file is rewritten whole (temporary file + rename) with the same rows;
    only its store header changes."""
    import pyarrow.parquet as pq

    add, remove = [add] if isinstance(add, str) else list(add), \
        [remove] if isinstance(remove, str) else list(remove)
    for t in add + remove:
        if not isinstance(t, str) or not _TAG_RE.match(t):
            raise ValueError(f"{_show(t)} is not a tag (up to 40 letters, digits and . _ : + -, "
                             "starting with a letter or digit)")
    root = store_path(store)
    path = _resolve(run_id, root)
    attrs, header = _read_header(path)
    _read_data(path, header)  # a damaged run is refused, not rewritten
    from .store_index import tags_of

    tags = [t for t in tags_of(header) if t not in remove]
    tags += [t for t in dict.fromkeys(add) if t not in tags]
    if tags == tags_of(header):
        return tags
    header = {**header, "tags": tags}
    table = pq.read_table(path)
    meta = dict(table.schema.metadata or {})
    meta[_STORE_KEY] = json.dumps(header).encode()
    tmp = tmp_in(str(root))
    try:
        pq.write_table(table.replace_schema_metadata(meta), tmp)
        fsync_path(tmp)
        os.replace(tmp, path)
    except OSError as e:
        raise OSError(f"cannot tag {path}: {why(e, path)}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return tags
