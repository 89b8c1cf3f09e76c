"""The results store's index: one file (``.hanasim-index3`` in the store) holding each saved
run's listing fields, so that ``runs list`` and ``load_runs(game=...)`` read one file instead
of every run, and ``runs list`` loads neither pandas, pyarrow nor numpy.

The index is a cache, never the truth: every read lists the store's folder and compares each
run file's size, modification time, change time and inode with what the index recorded (one
``stat`` per file; the folder's own modification time would not do: a file rewritten in place
leaves its folder unchanged).  A file the index does not know, or knows with other stats, is
read again (whole, so damaged data pages show at once); an entry whose file is gone is dropped.
A missing or damaged index is rebuilt from the files (:attr:`Scan.damaged` says why, and
``runs list`` says so in one line); an index of the older Parquet format (``.hanasim-index``,
written by earlier versions and left for them) is read once and upgraded.  The index is
written to a temporary file and renamed, so two commands writing it at once leave one of their
(whole, valid) versions, and a version that misses a run is completed by the next read.  A
store that cannot be written (read-only) is read all the same, without keeping an index.
Files that are not saved runs are never indexed: they are read (and named in a warning) every
time, until they are removed.

The file (format 3) is read with the standard library alone (not even numpy, a tenth of a
second to import), in a few milliseconds per 10,000 runs: a magic line, the lengths of a JSON
header and of a binary body, the header (the format, the fingerprint of the rule definitions
the rules words were computed with, the number of runs, and where each column is in the
body), the body (numbers as little-endian arrays, the names and dates as text joined by NUL,
the other text columns as their few distinct values in the header and one small code per run
in the body, and the rows' order in the folder's listing) and a CRC-32 of header and body,
so a truncated or garbled index is seen as damaged, never half read.
"""
from __future__ import annotations

import json
import os
import stat
import sys
import time
import zlib
from array import array
from functools import partial
from itertools import compress, repeat
import operator
from operator import attrgetter, eq, is_, le, lt
from pathlib import Path

INDEX_NAME = ".hanasim-index3"  # no .parquet: a glob for runs does not find it
LEGACY_NAME = ".hanasim-index"  # format 1 and 2 (Parquet), of earlier versions: upgraded
INDEX_FORMAT = 3
MAGIC = b"hanasim store index\n"
_LENGTHS = 16  # the header's and the body's lengths, two little-endian uint64 after MAGIC

STAT = ["name", "size", "mtime_ns", "ctime_ns", "ino"]
#: the index's columns after STAT (attrs of a run, and store header)
TEXT = ["id", "game", "date", "policies", "rules", "expose", "dealing", "hanasim_version",
        "numba_version", "run_type", "preset", "tags"]
INTS = ["rounds", "session_rounds", "game_version", "rows"]
#: a run's rules in a few words, as ``runs list`` shows them (:mod:`hanasim.rules_text`):
#: computed once (loading the games takes a second), valid while the index's ``rules_key`` is
#: the fingerprint of this hanasim's rule definitions; a missing value is computed again
SHOWN = "rules_shown"
FIELDS = TEXT + INTS + ["seed", "wall_time_s", SHOWN]

#: stored as JSON lists, one value per run (nearly every value differs)
PLAIN = ["name", "date"]
#: stored as their distinct values and one code per run (a rules string is the same for
#: thousands of runs)
REPEATED = [c for c in TEXT if c not in ("id", "date")] + [SHOWN]
#: numbers, with a mask of the missing values where some are
NUMBERS = {**{c: "<i8" for c in STAT[1:] + INTS}, "ino": "<u8", "seed": "<u8",
           "wall_time_s": "<f8"}
NULLABLE = INTS + ["seed"]
COLUMNS = PLAIN + REPEATED + list(NUMBERS)
_TYPECODE = {"<i8": "q", "<u8": "Q", "<f8": "d", "<u1": "B", "<u2": "H", "<u4": "I"}


# ---- the index in memory: columns of Python lists -------------------------------------------

class Rows:
    """Index rows, column by column, each a list: text (None where missing), whole numbers
    (None where missing), ``wall_time_s`` floats (NaN where missing).  ``id`` is the name
    without ``.parquet``.  Whole columns are handled by C loops (``map``, ``zip``,
    ``compress``), never one Python step per run.

    ``disk_order``: the rows' positions in the order the store's folder listed their files when
    the index was written (None if unknown): while the folder lists the same names in the same
    order, the check against it needs no lookup by name.  (Plain classes, not dataclasses:
    importing that module is a hundredth of a second of every listing.)"""

    def __init__(self, cols: dict, disk_order=None):
        self.cols, self.disk_order = cols, disk_order

    @property
    def n(self) -> int:
        return len(self.cols["name"])

    def ids(self) -> list:
        return list(map(str.removesuffix, self.cols["name"], repeat(".parquet")))

    def values(self, c) -> list:
        """Column ``c`` (a list of Python values, None where missing; not to be changed)."""
        return self.ids() if c == "id" else self.cols[c]

    def take(self, which) -> "Rows":
        """The rows where ``which`` (one bool per row) is true."""
        return Rows({c: list(compress(self.cols[c], which)) for c in COLUMNS})

    def at(self, positions: list) -> "Rows":
        """The rows at ``positions``, in that order."""
        return Rows({c: list(map(self.cols[c].__getitem__, positions)) for c in COLUMNS})

    @staticmethod
    def empty() -> "Rows":
        return from_entries([])


class _Columns(dict):
    """Columns of an index read from its file, each turned into a list when first used: a
    listing uses 7 of the 25."""

    def __init__(self, ready: dict, later: dict):
        super().__init__(ready)
        self.later = later  # column -> function returning its list

    def __missing__(self, c):
        if c not in self.later:
            raise KeyError(c)
        value = self[c] = self.later.pop(c)()
        return value

    def __contains__(self, c):
        return dict.__contains__(self, c) or c in self.later

    def get(self, c, default=None):
        return self[c] if c in self else default


def _objects(values) -> list:
    return list(values)


def from_entries(entries: list) -> Rows:
    """Rows from entries (dicts, from :func:`entry`)."""
    cols = {c: [e.get(c) for e in entries] for c in PLAIN + REPEATED + list(NUMBERS)}
    cols["wall_time_s"] = [float("nan") if v is None else float(v) for v in cols["wall_time_s"]]
    return Rows(cols)


def concat(a: Rows, b: Rows) -> Rows:
    return Rows({c: a.cols[c] + b.cols[c] for c in COLUMNS})


def in_order(rows: Rows) -> Rows:
    """Rows oldest first (by save date, then id), sorted only if they are not already (the
    index is written in this order, so a listing usually need not sort)."""
    date, ids = rows.cols["date"], rows.ids()
    try:
        later = list(map(lt, date[:-1], date[1:]))
        ordered = all(later) or all(map(le, zip(date[:-1], ids[:-1]), zip(date[1:], ids[1:])))
    except TypeError:  # a missing date: sorted last
        ordered = False
    if ordered:
        return rows
    key = [(d is None, d or "", i) for d, i in zip(date, ids)]
    return rows.at(sorted(range(rows.n), key=key.__getitem__))


# ---- the files on disk ----------------------------------------------------------------------

class Disk:
    """The run files in the store's folder: names, and their stats as four lists (size,
    mtime_ns, ctime_ns, inode: the index's columns :data:`STAT` after the name)."""

    def __init__(self, names: list, cols: list):
        self.names, self.cols = names, cols


_FIELDS = ("st_size", "st_mtime_ns", "st_ctime_ns", "st_ino")


def disk_files(root: Path) -> Disk:
    """The stats of every run file in ``root``: a ``.parquet`` regular file, or a link to one,
    whose name does not start with a dot.

    This is most of a listing's time at 100,000 runs (one ``stat`` per file, which the check
    against the index needs), so the loop does nothing else: the fields are taken out of the
    stat results and the regular files picked by C loops, not per file in Python."""
    names, stats = [], []
    try:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    except (FileNotFoundError, NotADirectoryError):
        return Disk([], [[], [], [], []])
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
    regular = list(map(stat.S_ISREG, map(attrgetter("st_mode"), stats)))
    if not all(regular):
        names, stats = list(compress(names, regular)), list(compress(stats, regular))
    return Disk(names, [list(map(attrgetter(f), stats)) for f in _FIELDS])


def compare(rows: Rows, disk: Disk) -> tuple[list, list]:
    """``(keep, new)``: one bool per index row (its file is on ``disk`` with the recorded
    stats) and one per file on ``disk`` (no kept row describes it: to be read).

    When the folder lists exactly the names it listed when the index was written, in the same
    order (a folder that has not changed), each column is compared whole, in C: the names,
    then the sizes, times and inodes; else names are matched through one dict."""
    n, m, order, names = rows.n, len(disk.names), rows.disk_order, rows.cols["name"]
    stat_cols = [rows.cols[c] for c in STAT[1:]]
    if order is not None and len(order) == n == m \
            and list(map(names.__getitem__, order)) == disk.names \
            and all([list(map(col.__getitem__, order)) == dcol
                     for col, dcol in zip(stat_cols, disk.cols)]):
        return [True] * n, [False] * m
    at = _positions(rows, disk)
    found = zip(*[map((dcol + [None]).__getitem__, at) for dcol in disk.cols])  # -1: None
    keep = list(map(eq, zip(*stat_cols), found))
    kept = set(compress(at, keep))
    return keep, [i not in kept for i in range(m)]


def _positions(rows: Rows, disk: Disk) -> list:
    """Where each row's file is in ``disk`` (-1 if it is not there): names matched through
    one dict, built and probed in C loops (not one Python step per run)."""
    n, names = rows.n, rows.cols["name"]
    pos = dict(zip(disk.names, range(len(disk.names))))
    at = list(map(pos.get, names, repeat(-1)))
    if len(set(at)) < n and len(set(at) - {-1}) < n - at.count(-1):
        seen = set()  # a name twice in the index: its first row only
        for i, p in enumerate(at):
            if p in seen:
                at[i] = -1
            seen.add(p)
    return at


def disk_order(rows: Rows, disk: Disk) -> list | None:
    """The rows' positions in the order ``disk`` lists their files, if every file is a row."""
    if rows.n != len(disk.names):
        return None
    pos = dict(zip(rows.cols["name"], range(rows.n)))
    order = list(map(pos.get, disk.names, repeat(-1)))
    return None if -1 in order else order


# ---- entries: what one run file contributes -------------------------------------------------

def _as_int(value):
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # int, or a numpy integer
    except TypeError:
        return None


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
        if row[k] is not None and not -2**63 <= row[k] < 2**63:
            row[k] = None
    if row["rows"] is not None and not 0 <= row["rows"] < 2**63:
        row["rows"] = None
    seed = _as_int(attrs.get("seed"))
    row["seed"] = seed if seed is not None and 0 <= seed < 2**64 else None
    wall = attrs.get("wall_time_s")
    row["wall_time_s"] = (float(wall) if _as_int(wall) is not None or isinstance(wall, float)
                          else None)
    row[SHOWN] = _shown_of(header)
    return row


def _shown_of(header: dict):
    """The rules words a run file's header carries (written when it was saved), if they were
    computed with this hanasim's rule definitions; else None (computed again)."""
    from .rules_text import fingerprint

    text = header.get(SHOWN)
    return text if isinstance(text, str) and header.get("rules_key") == fingerprint() else None


def tags_of(header: dict) -> list[str]:
    """A run's tags from its store header (anything that is not a list of names is none)."""
    tags = header.get("tags")
    if not isinstance(tags, list):
        return []
    return [t for t in tags if isinstance(t, str)]


def fill_shown(rows: Rows) -> bool:
    """Compute the missing SHOWN values of ``rows`` (in place), once per distinct (game,
    rules, preset), reusing the rows that have them; True if any was missing.  Only this loads
    the game modules, and only when a run's words are missing (a run indexed by another
    version, or saved without them)."""
    shown = rows.cols[SHOWN]
    if None not in shown:
        return False
    from .rules_text import rules_shown

    keys = list(zip(rows.cols["game"], rows.cols["rules"], rows.cols["preset"]))
    known = {k: v for k, v in zip(keys, shown) if v is not None}
    shown = list(shown)
    for i in [i for i, v in enumerate(shown) if v is None]:
        if keys[i] not in known:
            try:
                known[keys[i]] = rules_shown(*keys[i])
            except (ValueError, TypeError, KeyError, AttributeError):  # words, never a failure
                rules = keys[i][1]  # of listing or loading: the rules as saved
                known[keys[i]] = rules if isinstance(rules, str) else ""
        shown[i] = known[keys[i]]
    rows.cols[SHOWN] = shown
    return True


# ---- the file -------------------------------------------------------------------------------

class Damaged(ValueError):
    """The index file cannot be used (the text says why); it is rebuilt from the run files."""


def encode(rows: Rows, rules_key: str) -> bytes:
    """The bytes of an index file holding ``rows``."""
    body, columns = bytearray(), {}

    def block(data: bytes) -> list:
        at = len(body)
        body.extend(data)
        body.extend(b"\0" * (-len(body) % 8))  # each array 8-byte aligned
        return [at, len(data)]

    for c in PLAIN:  # text joined by NUL (split in a few ms), or JSON if a value is not text
        vals = rows.cols[c]
        joined = "\0".join(vals) if set(map(type, vals)) <= {str} else None
        if joined is not None and joined.count("\0") == max(len(vals) - 1, 0) and vals != [""]:
            columns[c] = {"joined": block(joined.encode("utf-8", "surrogateescape"))}
        else:
            columns[c] = {"json": block(json.dumps(vals).encode())}
    if rows.disk_order is not None:
        columns["disk_order"] = {"data": block(_pack(rows.disk_order, "<i8")), "dtype": "<i8"}
    for c in REPEATED:
        values, codes = _distinct(rows.cols[c])
        dtype = "<u1" if len(values) <= 2**8 else "<u2" if len(values) <= 2**16 else "<u4"
        columns[c] = {"values": values, "codes": block(_pack(codes, dtype)), "dtype": dtype}
    for c, dtype in NUMBERS.items():
        vals = rows.cols[c]
        if c in NULLABLE and None in vals:  # zeros in the data, and a mask of the missing
            columns[c] = {"data": block(_pack([0 if v is None else v for v in vals], dtype)),
                          "mask": block(_pack(list(map(is_, vals, repeat(None))), "<u1"))}
        else:
            columns[c] = {"data": block(_pack(vals, dtype))}
        columns[c]["dtype"] = dtype
    header = json.dumps({"format": INDEX_FORMAT, "rules_key": rules_key, "rows": rows.n,
                         "columns": columns}).encode()
    crc = zlib.crc32(body, zlib.crc32(header))
    return b"".join([MAGIC, len(header).to_bytes(8, "little"), len(body).to_bytes(8, "little"),
                     header, bytes(body), crc.to_bytes(4, "little")])


def _distinct(vals: list) -> tuple[list, list]:
    """(distinct values, codes): ``vals == [values[c] for c in codes]`` (C loops)."""
    values = list(dict.fromkeys(vals))
    pos = dict(zip(values, range(len(values))))
    return values, list(map(pos.__getitem__, vals))


def _pack(values: list, dtype: str) -> bytes:
    a = array(_TYPECODE[dtype], values)
    if sys.byteorder == "big":
        a.byteswap()
    return a.tobytes()


def _unpack(raw, dtype: str) -> array:
    a = array(_TYPECODE[dtype])
    if len(raw) % a.itemsize:
        raise Damaged("a column has a broken length")
    a.frombytes(raw)
    if sys.byteorder == "big":
        a.byteswap()
    return a


def decode(data: bytes) -> tuple[Rows, str | None]:
    """(rows, rules_key) from an index file's bytes; :class:`Damaged` if they are not a whole
    index of this format."""
    if not data.startswith(MAGIC):
        raise Damaged("not an index of this format" if data else "empty")
    at = len(MAGIC) + _LENGTHS
    if len(data) < at + 4:
        raise Damaged("cut short")
    hlen = int.from_bytes(data[len(MAGIC): len(MAGIC) + 8], "little")
    blen = int.from_bytes(data[len(MAGIC) + 8: at], "little")
    if len(data) != at + hlen + blen + 4:
        raise Damaged(f"{len(data)} bytes, its header says {at + hlen + blen + 4}")
    view = memoryview(data)
    header, body = view[at: at + hlen], view[at + hlen: at + hlen + blen]
    if zlib.crc32(body, zlib.crc32(header)) != int.from_bytes(data[-4:], "little"):
        raise Damaged("its checksum does not match its contents")
    try:
        meta = json.loads(bytes(header))
        if meta.get("format") != INDEX_FORMAT:
            raise Damaged(f"format {meta.get('format')!r}, not {INDEX_FORMAT}")
        n, columns = meta["rows"], meta["columns"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise Damaged("its number of runs is not a number")
        ready, later, order = {}, {}, None

        def block(spec, dtype=None):
            start, size = spec
            if not (isinstance(start, int) and isinstance(size, int)
                    and 0 <= start and start + size <= blen):
                raise Damaged("a column lies outside the file")
            raw = body[start: start + size]
            if dtype is None:
                return raw
            arr = _unpack(raw, dtype)
            if len(arr) != n:
                raise Damaged("a column has the wrong length")
            return arr

        # every column is checked now (its place, length, type); most are turned into lists
        # only when used (``later``): a listing uses few of them
        for c in PLAIN:
            spec = columns[c]
            if "joined" in spec:  # text by construction: n values, n - 1 NULs
                raw = bytes(block(spec["joined"]))
                if raw.count(b"\0") != max(n - 1, 0) or (n == 0 and raw):
                    raise Damaged(f"its {c} column has the wrong length")
                later[c] = partial(_split, raw, n)
            else:
                values = json.loads(bytes(block(spec["json"])))
                if not isinstance(values, list) or len(values) != n \
                        or not set(map(type, values)) <= ({str} if c == "name"
                                                          else {str, type(None)}):
                    raise Damaged(f"its {c} column is not {n} texts")
                ready[c] = values
        for c in REPEATED:
            spec = columns[c]
            values, codes = spec["values"], block(spec["codes"], _dtype(spec["dtype"], "u"))
            if not isinstance(values, list) or not set(map(type, values)) <= {str, type(None)}:
                raise Damaged(f"its {c} column is inconsistent")
            later[c] = partial(_expand, values, codes)
        for c, dtype in NUMBERS.items():
            spec = columns[c]
            if spec["dtype"] != dtype:
                raise Damaged(f"its {c} column is of type {spec['dtype']!r}")
            mask = None
            if "mask" in spec:
                if c not in NULLABLE:
                    raise Damaged(f"its {c} column is inconsistent")
                mask = block(spec["mask"], "<u1")
            later[c] = partial(_numbers, block(spec["data"], dtype), mask)
        if "disk_order" in columns:
            order = block(columns["disk_order"]["data"], "<i8").tolist()
            if n and (min(order) < 0 or max(order) >= n):
                raise Damaged("its folder order is inconsistent")
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as e:
        if isinstance(e, Damaged):
            raise
        raise Damaged(f"its header is unreadable ({type(e).__name__})") from None
    # a name that is not a run file's matches no file (its row is dropped), and a name listed
    # twice is matched once (see _positions)
    return Rows(_Columns(ready, later), order), meta.get("rules_key")


def _split(raw: bytes, n: int) -> list:
    return raw.decode("utf-8", "surrogateescape").split("\0") if n else []


def _expand(values: list, codes) -> list:
    try:
        return list(map(values.__getitem__, codes))
    except IndexError:  # a code beyond the values (an index that lies): nothing known
        return [None] * len(codes)


def _numbers(data, mask) -> list:
    vals = data.tolist()
    return vals if mask is None else [None if m else v for v, m in zip(vals, mask)]


def _dtype(text, kind):
    if text not in ("<u1", "<u2", "<u4") or kind != "u":
        raise Damaged(f"a column of type {text!r}")
    return text


def load(root: Path) -> tuple[Rows | None, str | None]:
    """``(rows, problem)``: the index, or None with why it cannot be used (None if it is simply
    missing).  Rules words of other rule definitions are dropped (computed again)."""
    path = root / INDEX_NAME
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return None, None
    except OSError as e:
        return None, e.strerror or type(e).__name__
    try:
        rows, key = decode(data)
    except Damaged as e:
        return None, str(e)
    from .rules_text import fingerprint

    if key != fingerprint():  # words of other definitions (another version of hanasim)
        rows.cols[SHOWN] = [None] * rows.n
    return rows, None


def save(root: Path, rows: Rows) -> bool:
    """Write the index atomically; quietly do nothing (False) if the store cannot be written (a
    read-only store still lists, it only reads every file each time)."""
    from .atomic import write_bytes
    from .rules_text import fingerprint

    # the SHOWN words of the rows are those of this hanasim's rule definitions (or missing)
    try:
        write_bytes(root / INDEX_NAME, encode(rows, fingerprint()))
    except (OSError, ValueError, TypeError, OverflowError):
        return False
    return True


# ---- the scan: the index checked against the files -----------------------------------------

class Scan:
    """A store's readable runs (``rows``, oldest first), the files that are not readable runs
    (``bad``: ``[(path, message)]``), why the index was rebuilt from the files (``damaged``;
    None if it was not damaged: a missing index is simply built) and whether it was written."""

    def __init__(self, rows: Rows, bad: list, damaged: str | None, rewritten: bool):
        self.rows, self.bad, self.damaged, self.rewritten = rows, bad, damaged, rewritten


def scan(root: Path) -> Scan:
    """The store's runs as index rows, checked against the files.

    The index is trusted only for a file whose stats are those it recorded; every other file is
    read (whole) now, and the index is brought up to date if the store can be written.  Only
    reading a file (and upgrading an index of the older format) loads pyarrow and pandas."""
    disk = disk_files(root)
    old, damaged = load(root) if root.is_dir() else (None, None)
    upgraded = False
    if old is None and root.is_dir():
        old = _legacy(root)  # an earlier version's index: read once, written in this format
        upgraded = old is not None
    if old is not None:
        keep, fresh = compare(old, disk)
        known = old if all(keep) else old.take(keep)
    else:
        known, fresh = Rows.empty(), [True] * len(disk.names)
    stale = old is not None and known.n != old.n  # entries of changed or removed files
    new = sorted(compress(zip(disk.names, *disk.cols), fresh))
    rows, bad = [], []
    saved_at = time.monotonic()
    if new:
        from .store import _read_data, _read_header, _skip_text
    for st in new:
        if rows and time.monotonic() - saved_at > 20:  # a long first indexing keeps its work
            known, rows, saved_at = concat(known, from_entries(rows)), [], time.monotonic()
            save(root, in_order(known))
        path = root / st[0]
        try:
            attrs, header = _read_header(path)
            _read_data(path, header)  # damaged pages show here, not later in load_runs
        except FileNotFoundError:  # removed since the folder was listed: not there
            continue
        except (ValueError, OSError) as e:
            bad.append((path, _skip_text(path, e)))
            continue
        rows.append(entry(st, attrs, header))
    runs = concat(known, from_entries(rows)) if rows else known
    if rows or upgraded:  # the index is always written in order: rows of it need no sorting
        runs = in_order(runs)
    filled = fill_shown(runs)  # words missing (another version's index): computed once
    rewritten = False
    if rows or stale or filled or upgraded or (old is None and (runs.n or damaged)):
        runs.disk_order = disk_order(runs, disk)
        rewritten = save(root, runs)
    return Scan(runs, bad, damaged, rewritten)


def record(root: Path, name: str, attrs: dict, header: dict) -> None:
    """Add a run just saved (its file ``name`` in ``root``, with the attrs and header read
    back from it) to the index, so that the next listing need not read that file (nor load
    pyarrow to do so).  Only a sound index is updated: without one, or if the store cannot be
    written, the next listing reads the file, as it reads any file the index does not
    describe; two savers at once may each leave the other's run out, which the same check
    completes."""
    rows, _ = load(root)
    if rows is None:
        return
    st = os.stat(root / name)  # after the rename: the stats the next listing will see
    new = from_entries([entry((name, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino),
                              attrs, header)])
    names = rows.cols["name"]
    rows = in_order(concat(rows.take([x != name for x in names]) if name in names else rows,
                           new))
    listed = [n for n in os.listdir(root) if n.endswith(".parquet") and not n.startswith(".")]
    rows.disk_order = disk_order(rows, Disk(listed, [[], [], [], []]))
    save(root, rows)


def _legacy(root: Path) -> Rows | None:
    """The rows of an index of the older Parquet format, or None (missing or unusable)."""
    if not (root / LEGACY_NAME).is_file():
        return None
    df = read_legacy(root)
    return None if df is None else from_frame(df)


# ---- DataFrames (pandas loads only here) ----------------------------------------------------

def to_frame(rows: Rows):
    """Index rows as a DataFrame (columns :data:`STAT` + :data:`FIELDS`) with exact integer
    columns: numpy int64/uint64 when no value is missing, else pandas' nullable Int64/UInt64
    (a seed is never a float); text as objects, None where missing."""
    import numpy as np
    import pandas as pd

    def text(values):  # objects, as always (pandas 3 would make them its string type)
        return pd.Series(values, dtype=object)

    data = {"name": text(rows.cols["name"])}
    for c in STAT[1:]:  # an inode above 2**63 wraps, as the stat check does not care
        data[c] = np.array(rows.cols[c], dtype=np.uint64 if c == "ino" else np.int64
                           ).astype(np.int64)
    for c in FIELDS:
        if c == "id":
            data[c] = text(rows.ids())
        elif c == "wall_time_s":
            data[c] = np.array(rows.cols[c], dtype=np.float64)
        elif c in NUMBERS:
            vals = rows.cols[c]
            kind, nullable = ("uint64", "UInt64") if c == "seed" else ("int64", "Int64")
            data[c] = (pd.array(vals, dtype=nullable) if None in vals
                       else np.array(vals, dtype=kind))
        else:
            data[c] = text(rows.cols[c])
    return pd.DataFrame(data, columns=STAT + FIELDS)


def from_frame(df) -> Rows:
    """Rows from a DataFrame with the index's columns (text columns may be categorical or
    Arrow strings, numbers nullable)."""
    import pandas as pd

    cols = {}
    n = len(df)
    if "name" not in df.columns:
        df = df.assign(name=[f"{i}.parquet" for i in df["id"]])
    for c in PLAIN + REPEATED:
        if c in df.columns:
            cols[c] = [None if v is None or v is pd.NA or (isinstance(v, float) and v != v)
                       else str(v) for v in df[c].astype(object).tolist()]
        else:
            cols[c] = [None] * n
    for c in NUMBERS:
        col = df[c] if c in df.columns else pd.Series([None] * n, dtype=object)
        if c == "wall_time_s":
            cols[c] = pd.to_numeric(col, errors="coerce").astype("float64").tolist()
            continue
        missing = col.isna().tolist()
        cols[c] = [None if m else int(v) for v, m in zip(col.tolist(), missing)]
        if c == "ino":  # read back from an int64 column: the unsigned inode
            cols[c] = [v % 2**64 for v in cols[c]]
    return Rows(cols)


def read(root: Path):
    """The index as a DataFrame (see :func:`to_frame`), or None if it is missing or
    unusable."""
    rows, _ = load(root)
    return None if rows is None else to_frame(rows)


def write(root: Path, df) -> None:
    """Write the index from a DataFrame (:func:`to_frame`'s columns), atomically, in order;
    quietly nothing if the store cannot be written."""
    save(root, in_order(from_frame(df)))


def read_legacy(root: Path):
    """An index of the older Parquet format (``.hanasim-index``, formats 1 and 2) as a
    DataFrame, or None if it is missing or unusable.  Format 1 has no rules words; format 2's
    are kept if they were computed with this hanasim's rule definitions."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .rules_text import fingerprint

    path = root / LEGACY_NAME
    try:
        schema = pq.read_schema(path)
        meta = json.loads((schema.metadata or {}).get(b"hanasim_index", b"null"))
        fmt = meta.get("format") if isinstance(meta, dict) else None
        if fmt not in (1, 2) or isinstance(fmt, bool):
            return None
        if not schema.equals(_legacy_schema(fmt), check_metadata=False):
            return None
        df = pq.read_table(path).to_pandas(
            types_mapper={pa.int64(): pd.Int64Dtype(), pa.uint64(): pd.UInt64Dtype()}.get)
        if fmt < 2 or meta.get("rules_key") != fingerprint():
            df[SHOWN] = None
    except (OSError, ValueError, pa.ArrowException, TypeError):
        return None
    if df[STAT].isna().any().any() or df["name"].duplicated().any():
        return None
    return df


def _legacy_schema(fmt: int):
    import pyarrow as pa

    return pa.schema([("name", pa.string())] + [(c, pa.int64()) for c in STAT[1:]]
                     + [(c, pa.string()) for c in TEXT] + [(c, pa.int64()) for c in INTS]
                     + [("seed", pa.uint64()), ("wall_time_s", pa.float64())]
                     + ([(SHOWN, pa.string())] if fmt >= 2 else []))
