"""Where numba keeps hanasim's compiled kernels, and how a damaged or full cache is survived.

numba re-validates a cached kernel only against the file that defines it, not against the
helpers it inlines from other files (``engine/*.py``, ``policies.py``), so after an upgrade or an
edit a stale kernel could run with old rules.  hanasim therefore keeps its cache in a directory
named by a hash of all its kernel sources and of the numba settings that change the compiled
code (``NUMBA_OPT``, vectorisation, AVX: :data:`CODEGEN_SETTINGS`): any change to any of them
starts a fresh cache.
The directory is ``$NUMBA_CACHE_DIR/hanasim-<hash>`` if that variable is set, else
``$XDG_CACHE_HOME/hanasim/numba-<hash>`` (``~/.cache/...``), else a temporary directory.

numba trusts its cache files: a truncated or garbled index raises from deep inside numba, and a
data file with a few bytes changed inside its machine code is handed to LLVM, which aborts the
process (no exception to catch).  So every file hanasim's kernels write into the cache ends
with a SHA-256 of its contents, checked before numba unpickles a byte of it; a file that fails
the check (or has none) is deleted and its kernel compiled again, with one line on stderr
naming the cache folder.  A cache that cannot be written (a full disk, a read-only folder) is
skipped with one line too: the kernels still run, compiled in memory.

This is done by wrapping numba's ``IndexDataCacheFile`` and ``Cache.save_overload`` for files
under hanasim's cache directory only; other numba users in the same process are untouched.
Checking costs one hash of each cache file as numba reads it (about 1 ms per MB).
"""
from __future__ import annotations

import hashlib
import io
import os
import pickle
import sys
import tempfile
from pathlib import Path

from .atomic import unwritable, why

#: written after a cache file's contents, followed by their SHA-256
TRAILER = b"\nhanasim-sha256:"
_DIGEST = 32


#: numba settings that change the machine code of a kernel but not numba's own cache key (which
#: holds only the CPU's name and features): a kernel optimised at one level, or vectorised, must
#: never be loaded by a process set to another (hanasim._env sets hanasim's defaults)
CODEGEN_SETTINGS = ("OPT", "LOOP_VECTORIZE", "SLP_VECTORIZE", "ENABLE_AVX", "CPU_NAME",
                    "CPU_FEATURES", "BOUNDSCHECK", "FASTMATH")


def codegen_settings() -> str:
    """The settings of :data:`CODEGEN_SETTINGS` as numba reads them now, ``OPT=3,...``."""
    import numba

    parts = []
    for name in CODEGEN_SETTINGS:
        value = getattr(numba.config, name, None)
        value = getattr(value, "_raw_value", value)  # OPT: 0-3 or 'max'
        parts.append(f"{name}={value!r}")
    return ",".join(parts)


def source_hash() -> str:
    root = Path(__file__).parent
    h = hashlib.sha256()
    h.update(codegen_settings().encode())
    # _cache.py itself: its file format (the trailer) is part of what a cache holds
    # games/**: a large game is a package (games/kushiro/...), its kernels in several files
    for path in sorted([*root.glob("engine/*.py"), *root.glob("games/**/*.py"),
                        root / "policies.py", root / "decks.py", root / "_cache.py"]):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_dir() -> str:
    key = source_hash()
    if os.environ.get("NUMBA_CACHE_DIR"):
        candidates = [os.path.join(os.environ["NUMBA_CACHE_DIR"], f"hanasim-{key}")]
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        candidates = [os.path.join(base, "hanasim", f"numba-{key}")]
    candidates.append(os.path.join(tempfile.gettempdir(), f"hanasim-numba-{key}"))
    problems = []
    for path in candidates:
        try:
            os.makedirs(path, exist_ok=True)
            problem = unwritable(path)
        except OSError as e:
            problem = why(e, path)
        if problem is None:
            if problems:  # said when a kernel is compiled, not by every import
                _Guard.moved = (candidates[0], problems[0], path)
            return path
        problems.append(problem)
    return candidates[-1]


def configure() -> str:
    """Point numba's cache at hanasim's directory and guard it; must run before any kernel is
    decorated.  Loads no kernel."""
    import numba

    path = cache_dir()
    numba.config.CACHE_DIR = path
    _Guard.install(path)
    return path


def seal(payload: bytes) -> bytes:
    """``payload`` followed by the trailer and its SHA-256."""
    return payload + TRAILER + hashlib.sha256(payload).digest()


def unseal(raw: bytes) -> bytes | None:
    """The payload of a sealed file, or None if it is damaged (or was never sealed)."""
    cut = len(raw) - _DIGEST - len(TRAILER)
    if cut < 0 or raw[cut:cut + len(TRAILER)] != TRAILER:
        return None
    payload = raw[:cut]
    return payload if hashlib.sha256(payload).digest() == raw[-_DIGEST:] else None


class _Guard:
    """The process's guard over one cache directory (numba has one cache directory per
    process, so there is one guard); it remembers what it has already said."""

    root: str | None = None
    said: set = set()
    no_writes = False
    moved = None  # (the folder asked for, why it cannot be used, the folder used instead)

    @classmethod
    def install(cls, root: str) -> None:
        cls.root = os.path.abspath(root)
        if getattr(cls, "_installed", False):
            return
        try:
            from numba.core import caching

            files, cache = caching.IndexDataCacheFile, caching.Cache
            originals = (files._load_index, files._save_index, files._load_data,
                         files._save_data, cache.save_overload)
        except (ImportError, AttributeError):  # numba internals moved: run unguarded
            return
        cls._installed = True
        load_index, save_index, load_data, save_data, save_overload = originals

        def ours(self):
            return cls.owns(self._cache_path)

        def _load_index(self):
            return cls.load_index(self) if ours(self) else load_index(self)

        def _save_index(self, overloads):
            if not ours(self):
                return save_index(self, overloads)
            payload = pickle.dumps(self._version, protocol=-1) + self._dump(
                (self._source_stamp, overloads))
            cls.write(self, self._index_path, payload)

        def _load_data(self, name):
            return cls.load_data(self, name) if ours(self) else load_data(self, name)

        def _save_data(self, name, data):
            if not ours(self):
                return save_data(self, name, data)
            cls.write(self, self._data_path(name), self._dump(data))

        def _save_overload(self, sig, data):
            if not cls.owns(self._cache_path):
                return save_overload(self, sig, data)
            if cls.no_writes:
                return None
            if cls.moved is not None:
                cls.say("moved", "cannot write the compiled-kernel cache in {} ({}); caching in "
                        "{} instead".format(*cls.moved))
            try:
                return save_overload(self, sig, data)
            except OSError as e:  # a full disk, a read-only folder: run without caching
                cls.unwritable(e)
                return None

        files._load_index, files._save_index = _load_index, _save_index
        files._load_data, files._save_data = _load_data, _save_data
        cache.save_overload = _save_overload

    @classmethod
    def owns(cls, path) -> bool:
        return cls.root is not None and os.path.abspath(path).startswith(cls.root + os.sep)

    @classmethod
    def say(cls, key: str, line: str) -> None:
        if key not in cls.said:
            cls.said.add(key)
            sys.stderr.write(f"hanasim: {line}\n")
            sys.stderr.flush()

    @classmethod
    def damaged(cls, path: str) -> None:
        """Drop a damaged cache file: its kernel compiles again and is saved afresh."""
        try:
            os.remove(path)
        except OSError:
            pass
        cls.say("damaged", f"the compiled-kernel cache in {cls.root} was damaged "
                f"({os.path.basename(path)}); dropped the damaged files, compiling those "
                "kernels again")

    @classmethod
    def unwritable(cls, e: OSError) -> None:
        cls.no_writes = True  # one failure is enough: later kernels do not retry
        cls.say("unwritable", f"cannot write the compiled-kernel cache in {cls.root} "
                f"({why(e, cls.root)}); carrying on without caching (kernels compile on "
                "every start)")

    @staticmethod
    def read(path: str) -> bytes | None:
        try:
            with open(path, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    @classmethod
    def write(cls, file, path: str, payload: bytes) -> None:
        # numba's own writer: a temporary file renamed over the target (whole or absent)
        with file._open_for_write(path) as f:
            f.write(seal(payload))

    @classmethod
    def load_index(cls, file) -> dict:
        path = file._index_path
        try:
            raw = cls.read(path)
        except OSError:
            raw = b""  # unreadable: the same as damaged
        if raw is None:
            return {}
        payload = unseal(raw)
        try:
            if payload is None:
                raise ValueError("checksum")
            stream = io.BytesIO(payload)
            version = pickle.load(stream)
            if version != file._version:
                return {}
            stamp, overloads = pickle.loads(stream.read())
            if not isinstance(overloads, dict):
                raise ValueError("not an index")
        except Exception:  # noqa: BLE001  (whatever the bytes are, they are not an index)
            cls.damaged(path)
            return {}
        return overloads if stamp == file._source_stamp else {}

    @classmethod
    def load_data(cls, file, name):
        path = file._data_path(name)
        raw = cls.read(path)
        if raw is None:
            raise FileNotFoundError(path)  # numba then compiles the kernel
        payload = unseal(raw)
        try:
            if payload is None:
                raise ValueError("checksum")
            return pickle.loads(payload)
        except Exception:  # noqa: BLE001
            cls.damaged(path)
            raise OSError(f"damaged cache file {path}") from None
