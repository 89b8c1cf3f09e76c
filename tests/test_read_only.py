"""A read-only file system is named as one, never as "permission denied": every message about
an output, the results store, a checkpoint, a report or the compiled-kernel cache on one says
"Read-only file system" (the system's own words, the same whether hanasim checked first or the
system refused a write) and names the path.

On a real read-only mount (a small tmpfs inside the test's own folder, mounted read-only where
the tests run as root, as in CI; skipped elsewhere), and by injected errors everywhere."""
from __future__ import annotations

import errno
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from hanasim import atomic, cli, outputs, store

ROOT = Path(__file__).resolve().parent.parent
RO = "Read-only file system"


def _run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True).returncode == 0


def _tiny_run(game="toppa"):
    df = pd.DataFrame({"game": game, "quantity": ["mean_score"], "estimate": [1.0],
                       "std_error": [0.1], "ci_low": [0.8], "ci_high": [1.2], "n": [10]})
    df.attrs.update(game=game, rounds=10, seed=1, policies="greedy", rules="x=1")
    return df


@pytest.fixture(scope="module")
def ro(tmp_path_factory):
    """A read-only tmpfs holding an output file, a folder for outputs, a results store with one
    run, an empty checkpoint folder and a folder for the kernel cache."""
    root = tmp_path_factory.mktemp("ro") / "mnt"
    root.mkdir()
    if not (hasattr(os, "geteuid") and os.geteuid() == 0
            and _run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(root))):
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        for d in ("out", "ck", "cache", "reports"):
            (root / d).mkdir()
        (root / "out" / "old.csv").write_text("old\n")
        run_id = store.save_run(_tiny_run(), root / "store")
        if not _run("mount", "-o", "remount,ro", str(root)):
            pytest.skip("cannot remount a tmpfs read-only here")
        yield root, run_id
    finally:
        subprocess.run(["umount", str(root)])


def _boom(*a, **k):
    raise AssertionError("simulated before the check")


@pytest.fixture
def no_counting(monkeypatch):
    """No round is played: the check comes before the work."""
    from hanasim.games import get_game

    monkeypatch.setattr(type(get_game("toppa")), "counters", _boom)


@pytest.fixture
def no_simulation(monkeypatch, no_counting):
    """Not even the API's simulation is entered: the command checks first."""
    from hanasim import api

    for name in ("simulate", "compare", "sweep"):
        monkeypatch.setattr(api, name, _boom)


def _one_line(capsys, code, *words):
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert code == 1 and len(err) == 1, err
    for w in words:
        assert w in err[0], (w, err[0])
    assert "ermission denied" not in err[0], err[0]
    return err[0]


SIM = ["simulate", "toppa", "--rounds", "1000", "--seed", "1"]


@pytest.mark.parametrize("what", ["new file", "replaced file", "chart"])
def test_an_output_on_a_read_only_file_system(ro, what, capsys, no_simulation):
    root, _ = ro
    args = {"new file": SIM + ["--no-save", "--out", str(root / "out" / "t.csv")],
            "replaced file": SIM + ["--no-save", "--force", "--out",
                                    str(root / "out" / "old.csv")],
            "chart": ["sweep", "toppa", "--rounds", "1000", "--rule", "par=88,100",
                      "--no-save", "--chart", str(root / "out" / "c.png")]}[what]
    _one_line(capsys, cli.main(args), args[-1], RO)


@pytest.mark.parametrize("where", ["store", "store/runs"])
def test_a_store_on_a_read_only_file_system(ro, where, capsys, no_simulation):
    root, _ = ro
    _one_line(capsys, cli.main(SIM + ["--store", str(root / where)]), str(root / where), RO)


@pytest.mark.parametrize("cmd", ["rm", "tag"])
def test_changing_a_run_in_a_read_only_store(ro, cmd, capsys):
    root, run_id = ro
    args = ["runs", cmd, run_id, *(["kept"] if cmd == "tag" else []),
            "--store", str(root / "store")]
    _one_line(capsys, cli.main(args), str(root / "store"), RO)
    assert (root / "store" / f"{run_id}.parquet").is_file()


@pytest.mark.parametrize("where", ["ck", "ck/new"])
def test_a_checkpoint_on_a_read_only_file_system(ro, where, capsys, no_counting):
    root, _ = ro
    args = SIM + ["--no-save", "--checkpoint", str(root / where)]
    _one_line(capsys, cli.main(args), str(root / where), RO)


def test_a_report_on_a_read_only_file_system(ro, capsys, no_simulation):
    root, _ = ro
    args = ["report", "toppa", "--rounds", "1000", "--seed", "1", "--no-save",
            "--out", str(root / "reports")]
    _one_line(capsys, cli.main(args), str(root / "reports"), RO)


KERNEL = """
    import os, sys
    import hanasim  # points numba's cache at hanasim's folder (or the one used instead)
    import numba

    @numba.njit(cache=True)
    def add(a, b):
        return a + b

    assert add(1, 2) == 3
    print(hanasim.CACHE_DIR)
"""


def test_a_kernel_cache_on_a_read_only_file_system(ro, tmp_path):
    """NUMBA_CACHE_DIR on a read-only file system: one line naming it when a kernel is
    compiled, and the kernels are cached in the temporary folder instead."""
    root, _ = ro
    (tmp_path / "k.py").write_text(textwrap.dedent(KERNEL))
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(root / "cache"), TMPDIR=str(tmp),
               PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, str(tmp_path / "k.py")], capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    (line,) = [x for x in r.stderr.splitlines() if x.strip()]
    assert str(root / "cache") in line and RO in line and str(tmp) in line, line
    assert r.stdout.strip().startswith(str(tmp))


# ---- the same words without a mount: errors injected --------------------------------------

def test_permission_denied_on_a_read_only_file_system_says_read_only(tmp_path, monkeypatch):
    monkeypatch.setattr(atomic, "read_only", lambda path: True)
    e = PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(tmp_path))
    assert atomic.why(e, tmp_path) == RO
    assert atomic.why(OSError(errno.EROFS, os.strerror(errno.EROFS))) == RO
    monkeypatch.setattr(atomic, "read_only", lambda path: False)
    assert atomic.why(e, tmp_path) == "Permission denied"
    assert atomic.why(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))) == \
        "No space left on device"


def test_an_output_folder_found_read_only_before_the_work(tmp_path, monkeypatch):
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **k: (
        False if os.path.realpath(p) == str(tmp_path) else real(p, mode, **k)))
    monkeypatch.setattr(atomic, "read_only", lambda path: True)
    with pytest.raises(OSError) as e:
        outputs.output_target(tmp_path / "t.csv", store=tmp_path / "store")
    assert str(e.value) == f"cannot write {tmp_path / 't.csv'}: {RO} ({tmp_path})"
    monkeypatch.setattr(atomic, "read_only", lambda path: False)
    with pytest.raises(OSError, match="Permission denied"):
        outputs.output_target(tmp_path / "t.csv", store=tmp_path / "store")


def test_a_write_refused_as_permission_denied_on_a_read_only_file_system(tmp_path,
                                                                         monkeypatch):
    """Some file systems (and some calls) refuse a write on a read-only mount with EACCES:
    the message still says read-only."""
    def refuse(directory, *a, **k):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), directory)

    monkeypatch.setattr(atomic, "tmp_in", refuse)
    monkeypatch.setattr(atomic, "read_only", lambda path: True)
    with pytest.raises(OSError) as e:
        atomic.write_bytes(tmp_path / "t.csv", b"x")
    assert str(e.value) == f"cannot write {tmp_path / 't.csv'}: {RO}"
