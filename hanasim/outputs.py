"""Where a command's output files go: the one check every command makes before its work, and
the one way a file is written.

Every command (simulate, compare, sweep, tournament, report, runs export) checks its output
paths with :func:`check_outputs` before simulating, so a bad path never costs a finished run:
a folder, a missing folder, an existing file without ``--force``, a path inside the results
store or the run's checkpoint folder, and two outputs of one command that are the same file
are refused with one line naming the path and the problem.  :func:`write_output` then writes
the bytes the way the check said: a regular file atomically (whole or absent, its permission
mode kept), a symlink's target (the link stays a link), a FIFO or device written through, and
this process's stdout in order with the rest of its output.
"""
from __future__ import annotations

import os
import stat
import sys

from .atomic import unwritable, why, write_bytes

#: names of this process's stdout (a path that is the same open file as fd 1 counts too)
STDOUT_NAMES = ("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")
CHART_FORMATS = ("png", "svg")


def inside(path, root) -> bool:
    """Whether ``path`` is ``root`` or inside it (both resolved: symlinks, ``..``)."""
    path, root = os.path.realpath(os.fspath(path)), os.path.realpath(os.fspath(root))
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _stdout_id():
    try:
        st = os.fstat(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # no real stdout (a test's capture, closed)
        return None
    return st.st_dev, st.st_ino


def is_stdout(path) -> bool:
    """Whether writing ``path`` writes this process's stdout (``-``, ``/dev/stdout``,
    ``/dev/fd/1``, or any name of the same open file): a machine-readable stdout then holds
    that output and nothing else."""
    if path is None:
        return False
    path = os.fspath(path)
    if path in STDOUT_NAMES:
        return True
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return False
    return (st.st_dev, st.st_ino) == _stdout_id()


def _store_root(store):
    from .store import store_path

    return store_path(store)


def output_target(path, *, force: bool = False, store=None) -> tuple[str, str]:
    """Check one output path before any work; return ``(kind, where)``.

    kinds: ``stdout`` (``-`` or another name of this process's stdout); ``new`` or ``replace``
    (a regular file, written atomically at ``where``: a symlink's target, so the link stays a
    link); ``special`` (a FIFO or character device: written through, never replaced).  Refused
    with one line: a folder, a missing folder, a block device or socket, a path inside the
    results ``store`` (a store given, or ``None`` for no check), and an existing file unless
    ``force``.
    """
    path = os.fspath(path)
    if is_stdout(path):
        # this process's stdout: written in order with the rest of its output (reopening it
        # would start at offset 0 of a redirected file and overwrite what was printed before)
        return "stdout", "-"
    if not path.strip():
        raise ValueError("the output path is empty (give a file name, or - for stdout)")
    try:
        st = os.stat(path)  # follows symlinks: what a write would reach
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OSError(f"cannot write {path}: {why(e, path)}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OSError(f"cannot write {path}: it is a directory")
    if st is not None and stat.S_ISBLK(st.st_mode):
        raise OSError(f"refusing to write {path}: it is a block device")
    if st is not None and (stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode)
                           or path.startswith(("/dev/", "/proc/"))):
        return "special", path
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OSError(f"refusing to write {path}: not a regular file, FIFO or character device")
    where = os.path.realpath(path)
    directory = os.path.dirname(where)
    if not os.path.isdir(directory):
        raise OSError(f"cannot write {path}: directory {os.path.dirname(os.path.abspath(path))} "
                      "does not exist")
    if store is not None and inside(where, _store_root(store)):
        raise ValueError(f"refusing to write {path}: it is inside the results store "
                         f"{_store_root(store)} (write it elsewhere)")
    if st is not None and not force:
        raise ValueError(f"{path} exists; give --force to overwrite it")
    problem = unwritable(directory)
    if problem is not None:
        raise OSError(f"cannot write {path}: {problem} ({directory})")
    return ("replace" if st is not None else "new"), where


def _identity(kind, where):
    """What two outputs must not share: stdout, a device or FIFO (its inode), a file's path."""
    if kind == "stdout":
        return ("stdout",)
    try:
        st = os.stat(where)
        return ("file", st.st_dev, st.st_ino)
    except OSError:
        return ("path", os.path.realpath(where))


def check_outputs(outputs, *, force: bool = False, store=None, checkpoint=None) -> dict:
    """Check every output of one command before its work; return ``{option: (kind, where)}``.

    ``outputs``: ``{option: path}`` (``"--out": "t.csv"``; a ``None`` path is skipped);
    ``store``: the results store the outputs must stay out of (a path; ``None`` for the
    default store); ``checkpoint``: the run's checkpoint folder, which no output may be in.
    Two outputs that are the same file (a name, a symlink, ``-`` and ``/dev/stdout``) are
    refused: the second would silently overwrite the first.
    """
    checked, seen = {}, {}
    for option, path in outputs.items():
        if path is None:
            continue
        if (checkpoint is not None and not is_stdout(path)
                and inside(os.path.abspath(os.fspath(path)), checkpoint)):
            raise ValueError(f"refusing to write {option} {path}: it is inside the checkpoint "
                             f"folder {checkpoint} (write it elsewhere)")
        kind, where = output_target(path, force=force, store=store if store is not None
                                    else _store_root(None))
        ident = _identity(kind, where)
        if ident in seen:
            raise ValueError(f"{seen[ident]} and {option} are the same file ({path}): give "
                             "each output its own file")
        seen[ident] = option
        checked[option] = (kind, where)
    return checked


def chart_format(path, option: str = "--chart") -> str:
    """The format of a chart file from its name (``.png`` or ``.svg``)."""
    ext = os.fspath(path).lower().rsplit(".", 1)[-1] if "." in os.fspath(path) else ""
    if ext not in CHART_FORMATS:
        raise ValueError(f"{option} {path}: name a .png or .svg file")
    return ext


def write_output(path, data: bytes, *, force: bool = True, store=None) -> str:
    """Write ``data`` to ``path`` as :func:`output_target` says; return the kind written.
    Errors are ``OSError`` naming ``path`` and the problem (never a temporary file, never a
    bare errno)."""
    kind, where = output_target(path, force=force, store=store)
    if kind == "stdout":
        sys.stdout.flush()
        out = getattr(sys.stdout, "buffer", None)
        if out is None:
            sys.stdout.write(data.decode())
        else:
            out.write(data)
            out.flush()
    elif kind == "special":
        try:
            fd = os.open(where, os.O_WRONLY | os.O_APPEND)  # never truncate what is behind it
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        except OSError as e:
            raise OSError(f"cannot write {path}: {why(e, where)}") from None
    else:
        write_bytes(where, data, shown=path)  # an error names the path the user gave
    return kind
