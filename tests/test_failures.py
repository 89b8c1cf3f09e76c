"""Failures of the world around a run: a damaged or full kernel cache, dying Dask clusters,
signals, full disks, huge plans.  Each test fails on the code before its fix."""
from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def run_py(code, env=None, timeout=300):
    e = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=e, timeout=timeout)


def cli_run(*args, env=None, timeout=300):
    e = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "hanasim", *args], capture_output=True,
                          text=True, env=e, timeout=timeout)


def lines_of(text):
    return [x for x in text.splitlines() if x.strip()]


# ---- the compiled-kernel cache ---------------------------------------------------------------

@pytest.fixture(scope="module")
def filled_cache(tmp_path_factory):
    """A numba cache holding the small kernels every game module calls at import."""
    root = tmp_path_factory.mktemp("numba")
    r = cli_run("games", env={"NUMBA_CACHE_DIR": str(root)})
    assert r.returncode == 0 and not r.stderr, r.stderr
    return root


def _files(root, pattern):
    found = sorted(Path(root).rglob(pattern))
    assert found, f"no {pattern} in {root}"
    return found


def _truncate_index(root):
    for p in _files(root, "*.nbi"):
        p.write_bytes(p.read_bytes()[:7])


def _garble_index(root):
    for p in _files(root, "*.nbi"):
        b = bytearray(p.read_bytes())
        b[len(b) // 2:len(b) // 2 + 8] = b"\xff" * 8
        p.write_bytes(bytes(b))


def _empty_data(root):
    for p in _files(root, "*.nbc"):
        p.write_bytes(b"")


def _machine_code_noise(root):
    # Bytes changed inside the object code numba hands to LLVM: the pickle still loads, and
    # before the checksums LLVM crashed the process (a segmentation fault or an abort).
    rng = random.Random(1)
    for p in _files(root, "*.nbc"):
        b = bytearray(p.read_bytes())
        at = b.find(b"\x7fELF")
        assert at >= 0
        for i in range(at + 64, min(len(b), at + 400)):
            b[i] = rng.randrange(256)
        p.write_bytes(bytes(b))


@pytest.mark.parametrize("damage", [_truncate_index, _garble_index, _empty_data,
                                    _machine_code_noise])
def test_a_damaged_kernel_cache_is_dropped_and_recompiled(filled_cache, tmp_path, damage):
    root = tmp_path / "numba"
    shutil.copytree(filled_cache, root)
    damage(root)
    env = {"NUMBA_CACHE_DIR": str(root)}
    r = cli_run("--version", env=env)
    assert r.returncode == 0 and r.stdout.startswith("hanasim ") and not r.stderr, r.stderr
    r = cli_run("games", env=env)
    assert r.returncode == 0, r.stderr
    assert "toppa" in r.stdout
    (line,) = lines_of(r.stderr)
    folder = str(next(root.glob("hanasim-*")))
    assert "damaged" in line and folder in line and "Traceback" not in r.stderr, line
    r = cli_run("games", env=env)  # recompiled and saved: quiet again
    assert r.returncode == 0 and not r.stderr, r.stderr


def test_importing_hanasim_loads_no_kernel(filled_cache, tmp_path):
    root = tmp_path / "numba"
    shutil.copytree(filled_cache, root)
    r = run_py("""
        import sys
        import hanasim
        print(hanasim.__version__, hanasim.CACHE_DIR)
        print(sorted(m for m in sys.modules if m.startswith("hanasim.")))
        print("pandas" in sys.modules)
    """, env={"NUMBA_CACHE_DIR": str(root), "NUMBA_DEBUG_CACHE": "1"})
    assert r.returncode == 0, r.stderr
    assert "[cache]" not in r.stdout + r.stderr  # numba logs every cache file it loads
    mods = r.stdout.splitlines()[1]
    assert "hanasim.api" not in mods and "hanasim.games" not in mods, mods
    assert r.stdout.splitlines()[2] == "False"


def test_the_public_functions_load_on_first_use():
    import hanasim
    import hanasim.tournament  # noqa: F401  (the submodule must not hide the function)

    assert callable(hanasim.tournament) and hanasim.tournament.__name__ == "tournament"
    assert hanasim.simulate.__module__ == "hanasim.api"
    assert "simulate" in dir(hanasim)
    with pytest.raises(AttributeError):
        hanasim.nosuch  # noqa: B018


FULL_DISK = """
    import builtins, errno, os, sys
    real_open = builtins.open
    root = os.environ["NUMBA_CACHE_DIR"]

    def full_open(file, mode="r", *a, **k):
        # the cache folder's disk is full: every file written there fails
        if "w" in mode and os.path.abspath(str(file)).startswith(root):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(file))
        return real_open(file, mode, *a, **k)

    builtins.open = full_open
    from hanasim import cli
    sys.exit(cli.main(["games"]))
"""


def test_a_full_kernel_cache_folder_runs_without_caching(tmp_path):
    root = tmp_path / "numba"
    r = run_py(FULL_DISK, env={"NUMBA_CACHE_DIR": str(root)})
    assert r.returncode == 0, r.stderr
    assert "toppa" in r.stdout
    (line,) = lines_of(r.stderr)
    assert "without caching" in line and "No space left" in line, line
    assert str(next(root.glob("hanasim-*"))) in line
