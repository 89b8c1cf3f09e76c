"""A report's folder, written whole or not at all.

A report is several files (HTML, Markdown, its charts and table) that must agree: a report
written over an older one must never end half old, half new (the Markdown saying seed 1, the
charts seed 2's) after a full disk, Ctrl-C or ``kill -9``.  So every report is one folder,
``<out>/<name>/``: the new report is written into a hidden folder next to it and swapped in with
one rename (Linux: an atomic exchange of the two folders, then the old one is removed), so a
reader sees the old report or the new one, never a mix.  A folder that is not a hanasim report
(no ``hanasim-report.json`` in it, and not empty) is never replaced.

The folder is checked, and the hidden folder made, before anything is simulated: a report that
cannot be written is refused before the work.
"""
from __future__ import annotations

import ctypes
import errno
import json
import os
import re
import secrets
import shutil
from pathlib import Path

from ..atomic import unwritable, why, write_bytes
from ..outputs import inside

MARKER = "hanasim-report.json"
_RENAME_EXCHANGE = 2  # renameat2 flag (Linux 3.15+)
_AT_FDCWD = -100




def check_folder(out, name: str, store=None) -> Path:
    """The report folder ``<out>/<name>``, checked before any work: ``out`` is a folder (or can
    be made), the report folder is a hanasim report, empty or missing, and neither it holds the
    results store nor the store holds it.  Returns the folder (a symlink's target)."""
    from ..store import store_path

    out_dir = Path(out)
    if out_dir.exists() and not out_dir.is_dir():
        raise OSError(f"cannot write the report into {out_dir}: it is a file, not a directory")
    folder = out_dir / name
    if folder.exists() and not folder.is_dir():
        raise OSError(f"cannot write the report {folder}: it is a file, not a folder")
    real = Path(os.path.realpath(folder))
    root = store_path(store)
    if inside(real, root) or inside(root, real):
        raise ValueError(f"refusing to write the report {folder}: it is "
                         + ("inside" if inside(real, root) else "holds")
                         + f" the results store {root} (give --out another folder)")
    if real.is_dir():
        try:
            entries = os.listdir(real)
        except OSError as e:
            raise OSError(f"cannot write the report {folder}: {why(e, real)}") from None
        if entries and MARKER not in entries:
            raise OSError(f"refusing to replace {folder}: it is a folder that is not a hanasim "
                          f"report (no {MARKER} in it); give --out another folder")
    ancestor = real.parent
    while not ancestor.exists():  # the first folder that exists must let us make ours
        ancestor = ancestor.parent
    problem = unwritable(ancestor)
    if problem is not None:
        raise OSError(f"cannot write the report {folder}: {problem} ({ancestor})")
    return folder


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one atomic step (Linux renameat2); False where it is not offered."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                          ctypes.c_uint]
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):  # this file system cannot
        return False
    raise OSError(err, os.strerror(err))


def _fsync_dir(path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class Staging:
    """The hidden folder a new report is written into, then swapped in by :meth:`commit`
    (or removed by :meth:`discard`).  Made at once: a folder that cannot be written fails
    here, before any simulation."""

    def __init__(self, folder: Path, marker: dict):
        self.folder = Path(folder)          # what the user named
        self.target = Path(os.path.realpath(self.folder))  # where it is (a symlink's target)
        self.parent = self.target.parent
        self._made = []                     # folders made for it: removed again if it fails
        missing = []
        d = self.parent
        while not d.exists():
            missing.append(d)
            d = d.parent
        try:
            for d in reversed(missing):
                d.mkdir()
                self._made.append(d)
            self._clean_leftovers()
            self.path = self.parent / f".{self.target.name}.hanasim-new-{os.getpid()}-" \
                                      f"{secrets.token_hex(3)}"
            self.path.mkdir()
            self._made.append(self.path)
            self.put(MARKER, (json.dumps(marker, indent=1, default=str) + "\n").encode())
        except OSError as e:
            self.discard()
            raise OSError(f"cannot write the report {self.folder}: {why(e, self.parent)}") from None

    def _clean_leftovers(self):
        """Hidden folders of reports killed mid-write (their process is gone)."""
        pattern = re.compile(rf"^\.{re.escape(self.target.name)}\.hanasim-(new|old)-(\d+)-")
        for entry in os.listdir(self.parent):
            m = pattern.match(entry)
            if m and int(m.group(2)) != os.getpid() and not _alive(int(m.group(2))):
                shutil.rmtree(self.parent / entry, ignore_errors=True)

    def put(self, rel: str, data: bytes) -> None:
        """Write ``data`` to ``rel`` inside the new report (an error names the final path)."""
        path = self.path / rel
        shown = self.folder / rel
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise OSError(f"cannot write {shown}: {why(e, path.parent)}") from None
        write_bytes(path, data, shown=shown)

    def commit(self) -> bool:
        """Swap the new report in (one atomic step where the system offers it); return whether
        an older report was replaced."""
        for d, _, _ in os.walk(self.path):
            _fsync_dir(d)
        old = None
        try:
            if not os.path.lexists(self.target):
                os.rename(self.path, self.target)
                replaced = False
            elif _exchange(self.path, self.target):
                old, replaced = self.path, True
            else:  # no atomic exchange here: move the old one aside, then the new one in
                old = self.parent / f".{self.target.name}.hanasim-old-{os.getpid()}-" \
                                    f"{secrets.token_hex(3)}"
                os.rename(self.target, old)
                os.rename(self.path, self.target)
                replaced = True
        except OSError as e:
            raise OSError(f"cannot write the report {self.folder}: {why(e, self.parent)}") from None
        self._made = []
        _fsync_dir(self.parent)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        return replaced

    def discard(self) -> None:
        """Remove the unfinished report and the folders made for it (the old one stays)."""
        for d in reversed(self._made):
            if d == getattr(self, "path", None):
                shutil.rmtree(d, ignore_errors=True)
            else:
                try:
                    d.rmdir()  # only if still empty
                except OSError:
                    pass
        self._made = []
