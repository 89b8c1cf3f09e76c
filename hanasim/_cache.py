"""Where numba keeps hanasim's compiled kernels.

numba re-validates a cached kernel only against the file that defines it, not against the
helpers it inlines from other files (``engine/*.py``, ``policies.py``), so after an upgrade or an
edit a stale kernel could run with old rules.  hanasim therefore keeps its cache in a directory
named by a hash of all its kernel sources: any change to any of them starts a fresh cache.
The directory is ``$NUMBA_CACHE_DIR/hanasim-<hash>`` if that variable is set, else
``$XDG_CACHE_HOME/hanasim/numba-<hash>`` (``~/.cache/...``), else a temporary directory.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


def source_hash() -> str:
    root = Path(__file__).parent
    h = hashlib.sha256()
    for path in sorted([*root.glob("engine/*.py"), *root.glob("games/*.py"), root / "policies.py",
                        root / "decks.py"]):
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
    for path in candidates:
        try:
            os.makedirs(path, exist_ok=True)
            if os.access(path, os.W_OK):
                return path
        except OSError:
            continue
    return candidates[-1]


def configure() -> str:
    """Point numba's cache at hanasim's directory; must run before any kernel is decorated."""
    import numba

    path = cache_dir()
    numba.config.CACHE_DIR = path
    return path
