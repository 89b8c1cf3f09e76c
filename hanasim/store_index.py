"""The results store's index: one small Parquet file (``.hanasim-index`` in the store)
holding each saved run's listing fields, so that ``runs list`` and ``load_runs(game=...)`` read
one file instead of every run.

The index is a cache, never the truth: every read lists the store's folder and compares each
run file's size, modification time, change time and inode with what the index recorded.  A file
the index does not know, or knows with other stats, is read again (whole, so damaged data pages
show at once); an entry whose file is gone is dropped.  A missing, damaged or foreign index is
rebuilt from the files.  It is written to a temporary file and renamed, so two commands writing
it at once leave one of their (whole, valid) versions, and a version that misses a run is
completed by the next read.  A store that cannot be written (read-only) is read all the same,
without keeping an index.  Files that are not saved runs are never indexed: they are read (and
named in a warning) every time, until they are removed.
"""
from __future__ import annotations

import json
import os
import stat
from operator import attrgetter
from pathlib import Path

import numpy as np
import pandas as pd

INDEX_NAME = ".hanasim-index"  # no .parquet: a glob for runs does not find it
INDEX_FORMAT = 1
_META_KEY = b"hanasim_index"
STAT = ["name", "size", "mtime_ns", "ctime_ns", "ino"]
#: the index's columns after STAT, with their Arrow types (attrs of a run, and store header)
TEXT = ["id", "game", "date", "policies", "rules", "expose", "dealing", "hanasim_version",
        "numba_version", "run_type", "preset", "tags"]
INTS = ["rounds", "session_rounds", "game_version", "rows"]
FIELDS = TEXT + INTS + ["seed", "wall_time_s"]


def _schema():
    import pyarrow as pa

    return pa.schema([("name", pa.string())] + [(c, pa.int64()) for c in STAT[1:]]
                     + [(c, pa.string()) for c in TEXT] + [(c, pa.int64()) for c in INTS]
                     + [("seed", pa.uint64()), ("wall_time_s", pa.float64())])


def disk_files(root: Path) -> pd.DataFrame:
    """The stats (:data:`STAT` columns) of every run file in ``root``: a ``.parquet`` regular
    file, or a link to one, whose name does not start with a dot.

    This is most of a listing's time at 100,000 runs (one ``stat`` per file, which the check
    against the index needs), so the loop does nothing else: the fields are taken out of the
    stat results and the regular files picked in numpy, not per file in Python."""
    names, stats = [], []
    try:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    except (FileNotFoundError, NotADirectoryError):
        return _stat_frame([], [])
    try:
        with os.scandir(fd) as it:  # from a folder's fd, each stat is relative to it
            for e in it:
                name = e.name
                if name.endswith(".parquet") and not name.startswith("."):
                    try:
                        stats.append(e.stat())  # follows a symlink: the file a load would read
                    except OSError:  # vanished meanwhile, or a dangling link: not a file here
                        continue
                    names.append(name)
    finally:
        os.close(fd)
    return _stat_frame(names, stats)


_FIELDS = ("st_mode", "st_size", "st_mtime_ns", "st_ctime_ns", "st_ino")


def _stat_frame(names: list, stats: list) -> pd.DataFrame:
    n = len(names)
    mode, *cols = (np.fromiter(map(attrgetter(f), stats), dtype=np.int64, count=n)
                   if f != "st_ino" else
                   np.fromiter(map(attrgetter(f), stats), dtype=np.uint64, count=n)
                   .astype(np.int64) for f in _FIELDS)
    df = pd.DataFrame(dict(zip(STAT, [pd.Series(names, dtype=object), *cols])))
    regular = (mode & 0o170000) == stat.S_IFREG  # stat.S_ISREG, for an array
    return df if regular.all() else df[regular].reset_index(drop=True)


def _as_int(value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        return None
    return int(value)


def _as_text(value):
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    return str(value)


def entry(stat: tuple, attrs: dict, header: dict) -> dict:
    """One index row from a run file's stats and its (checked) attrs and store header."""
    row = dict(zip(STAT, stat))
    row.update(id=row["name"][: -len(".parquet")], date=header.get("saved_at"),
               rows=_as_int(header.get("rows")))
    for k in TEXT:
        if k not in ("id", "date", "tags"):
            row[k] = _as_text(attrs.get(k))
    row["tags"] = ",".join(tags_of(header)) or None
    for k in ("rounds", "session_rounds", "game_version"):
        row[k] = _as_int(attrs.get(k))
    seed = _as_int(attrs.get("seed"))
    row["seed"] = seed if seed is not None and 0 <= seed < 2**64 else None
    wall = attrs.get("wall_time_s")
    row["wall_time_s"] = (float(wall) if isinstance(wall, (int, float, np.number))
                          and not isinstance(wall, bool) else None)
    return row


def tags_of(header: dict) -> list[str]:
    """A run's tags from its store header (anything that is not a list of names is none)."""
    tags = header.get("tags")
    if not isinstance(tags, list):
        return []
    return [t for t in tags if isinstance(t, str)]


def _mapper():
    import pyarrow as pa

    return {pa.int64(): pd.Int64Dtype(), pa.uint64(): pd.UInt64Dtype()}.get


#: text columns with few distinct values (a rules string is the same for thousands of runs):
#: read as dictionaries, so a large index does not build one string per row
REPEATED = [c for c in TEXT if c not in ("id", "date")]


def read(root: Path) -> pd.DataFrame | None:
    """The index as a DataFrame, or None if it is missing or unusable."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = root / INDEX_NAME
    try:
        schema = pq.read_schema(path)
        meta = json.loads((schema.metadata or {}).get(_META_KEY, b"null"))
        if not isinstance(meta, dict) or meta.get("format") != INDEX_FORMAT:
            return None
        if not schema.equals(_schema(), check_metadata=False):
            return None
        table = pq.read_table(path, read_dictionary=REPEATED)
        df = table.to_pandas(types_mapper=_mapper())
    except (OSError, ValueError, pa.ArrowException, TypeError):
        return None  # missing, damaged, foreign or of another format: rebuilt from the files
    if df[STAT].isna().any().any() or df["name"].duplicated().any():
        return None
    for c in STAT[1:]:
        df[c] = df[c].astype("int64")
    for c in INTS + ["seed"]:
        if not df[c].isna().any():
            df[c] = df[c].astype(str(df[c].dtype).lower())
    return df


def compare(df: pd.DataFrame, disk: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """``(keep, new)``: boolean arrays over the index rows (their file is on ``disk``, from
    :func:`disk_files`, with the recorded stats) and over ``disk`` (the files no kept row
    describes: to be read).  Names are matched by Arrow's hash join, not per row in Python."""
    import pyarrow as pa
    import pyarrow.compute as pc

    names = pa.array(disk["name"].to_numpy(), pa.string())
    pos = pc.index_in(pa.array(df["name"].to_numpy(), pa.string()), value_set=names)
    pos = pos.to_numpy(zero_copy_only=False)  # float with NaN where a name is not on disk
    found = ~np.isnan(pos) if pos.dtype.kind == "f" else np.ones(len(pos), dtype=bool)
    at = pos[found].astype(np.int64)
    keep = found.copy()
    for c in STAT[1:]:
        keep[found] &= disk[c].to_numpy()[at] == df[c].to_numpy()[found]
    new = np.ones(len(disk), dtype=bool)
    new[pos[keep].astype(np.int64)] = False
    return keep, new


def in_order(df: pd.DataFrame) -> pd.DataFrame:
    """Index rows oldest first (by save date, then id), sorted only if they are not already
    (the index is written in this order, so a listing usually need not sort)."""
    date, ids = df["date"].to_numpy(dtype=object), df["id"].to_numpy(dtype=object)
    try:
        ordered = bool(np.all((date[:-1] < date[1:])
                              | ((date[:-1] == date[1:]) & (ids[:-1] <= ids[1:]))))
    except TypeError:  # a missing date: let pandas place it
        ordered = False
    if ordered:
        return df.reset_index(drop=True)
    return df.sort_values(["date", "id"], kind="stable").reset_index(drop=True)


def write(root: Path, df: pd.DataFrame) -> None:
    """Write the index atomically; quietly do nothing if the store cannot be written (a
    read-only store still lists, it only reads every file each time)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .atomic import write_bytes

    schema = _schema().with_metadata({_META_KEY: json.dumps({"format": INDEX_FORMAT}).encode()})
    try:
        table = pa.Table.from_pandas(plain(df[STAT + FIELDS].copy()), schema=schema,
                                     preserve_index=False)
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink)
        write_bytes(root / INDEX_NAME, sink.getvalue().to_pybytes())
    except (OSError, pa.ArrowException, ValueError, TypeError, OverflowError):
        pass


def from_rows(rows: list[dict]) -> pd.DataFrame:
    """Entries (from :func:`entry`) as a DataFrame; built column by column as objects, so a
    missing value never turns a column of seeds into floats."""
    cols = STAT + FIELDS
    return tidy(pd.DataFrame({c: pd.Series([r.get(c) for r in rows], dtype=object)
                              for c in cols}, columns=cols))


def tidy(df: pd.DataFrame) -> pd.DataFrame:
    """Index rows with exact integer columns: numpy int64/uint64 when no value is missing,
    else pandas' nullable Int64/UInt64 (a seed is never a float)."""
    df = df.reindex(columns=STAT + FIELDS)
    for c in STAT[1:]:
        df[c] = df[c].astype("int64")
    for c, dtype in [(c, "Int64") for c in INTS] + [("seed", "UInt64")]:
        col = (pd.array([None if v is None or v is pd.NA else int(v) for v in df[c]],
                        dtype=dtype) if df[c].dtype == object else df[c].astype(dtype))
        df[c] = col.astype(dtype.lower()) if not col.isna().any() else col
    df["wall_time_s"] = pd.to_numeric(df["wall_time_s"], errors="coerce").astype("float64")
    for c in TEXT:
        df[c] = df[c].astype(object).where(df[c].notna(), None)
    return df


def plain(df: pd.DataFrame) -> pd.DataFrame:
    """Text columns as plain objects (read from the index they are categorical or Arrow
    strings), in place, so a listing has the same types however it was built."""
    for c in TEXT:
        if c in df.columns and df[c].dtype != object:
            df[c] = df[c].astype(object).where(df[c].notna(), None)
    return df
