"""Writing files atomically: to a temporary file in the same directory, then a rename, so a
file is whole or absent (a crash or ``kill -9`` never leaves half a file that loads as data).
Shared by the results store, reports and run checkpoints."""
from __future__ import annotations

import errno
import os
import stat
import tempfile


# ---- what went wrong, in words: one mapping for every message about a file or folder --------

def read_only(path) -> bool:
    """Whether ``path`` (or, if it does not exist, the nearest folder above it that does) is
    on a file system mounted read-only."""
    path = os.path.abspath(os.fspath(path))
    while True:
        try:
            return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
        except FileNotFoundError:
            parent = os.path.dirname(path)
            if parent == path:
                return False
            path = parent
        except OSError:
            return False


#: the words every message uses for a read-only file system: the system's own (EROFS), so a
#: message written here and one passing the system's text on say the same
READ_ONLY = os.strerror(errno.EROFS)  # "Read-only file system"
PERMISSION_DENIED = os.strerror(errno.EACCES)  # "Permission denied"


def why(e: BaseException, path=None) -> str:
    """An error in a few words without the path (the message names it) or an errno number:
    the system's words ("No space left on device"), except that a failure on a read-only file
    system always says so (some calls report it as permission denied)."""
    if isinstance(e, OSError) and e.errno is not None:
        if e.errno == errno.EROFS or (e.errno in (errno.EACCES, errno.EPERM)
                                      and path is not None and read_only(path)):
            return READ_ONLY
        if e.strerror:
            return e.strerror
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def unwritable(directory) -> str | None:
    """Why a file cannot be created in ``directory`` ("Read-only file system" or "Permission
    denied"), or None if it can: a check before the work, so that it fails before a
    simulation, not after it.  Creates nothing."""
    if os.access(directory, os.W_OK | os.X_OK):
        return None
    return READ_ONLY if read_only(directory) else PERMISSION_DENIED


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def tmp_in(directory: str, prefix: str = ".hanasim-") -> str:
    """A new empty temporary file in ``directory`` (hidden name), with the usual permissions
    (mkstemp makes it owner-only; the renamed file should be like any other file written)."""
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=directory)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
    except OSError:
        pass
    finally:
        os.close(fd)
    return tmp


def _keep_mode(tmp: str, path) -> None:
    """Give the new file the permission mode of the file it replaces (a 0600 file written over
    with --force stays 0600); a new file keeps the usual mode."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:  # nothing there yet
        return
    os.chmod(tmp, mode)


def write_bytes(path, data: bytes, prefix: str = ".hanasim-", shown=None) -> None:
    """Write ``data`` to ``path`` atomically (temporary file in the same directory + rename);
    a file replaced keeps its permission mode.  An error names ``path`` (or ``shown``, the
    name the user knows it by), never the hidden temporary file."""
    directory = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        tmp = tmp_in(directory, prefix)
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        _keep_mode(tmp, path)  # after writing: a read-only mode must not stop the write
        os.replace(tmp, path)
    except OSError as e:
        _remove(tmp)
        raise OSError(f"cannot write {shown or path}: {why(e, directory)}") from None
    except BaseException:
        _remove(tmp)
        raise


def _remove(tmp):
    if tmp and os.path.exists(tmp):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def fsync_path(path) -> None:
    """Flush a file's data to disk, so that the rename that follows never exposes it unwritten."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot; the Parquet footer check still guards loading
        pass
    finally:
        os.close(fd)
