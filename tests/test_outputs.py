"""Output files never lose, mix or mislabel a result: every command's output paths are checked
before the work by one shared check, a report is replaced whole or not at all, a chart that
cannot be written keeps the run, and stdout given as an output holds that output alone.

Full disks are real (a small tmpfs mounted inside the test's own folder, skipped where the
tests may not mount) or made by patching the writer; nothing here touches a system path."""
import io
import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pandas as pd
import pytest

import hanasim
from hanasim import cli, store
from one_line import one_line  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HUGE = "100000000000"  # rounds no test could finish: a refusal must come before the work
SIM = ["simulate", "toppa", "--seed", "5", "--rounds", "2000"]
SWEEP = ["sweep", "toppa", "--rule", "par.dealer=100,110", "--seed", "5", "--rounds", "2000"]
PNG = b"\x89PNG\r\n\x1a\n"


def cli_run(*args, env=None, timeout=300, **kw):
    """``python -m hanasim ARGS`` in a process of its own: only where the test is about the
    process's own stdout (/dev/fd/1, /proc/self/fd/1, /dev/stdout); the other tests run the CLI
    in-process (the ``run_cli`` fixture, tests/conftest.py)."""
    e = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run([sys.executable, "-m", "hanasim", *args], capture_output=True,
                          text=True, env=e, timeout=timeout, **kw)



def runs_in(st) -> int:
    return len(list(Path(st).glob("*.parquet")))


def tree(folder) -> dict:
    """Every visible file under ``folder`` and its bytes (hidden work folders left out)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in Path(folder).rglob("*")
            if p.is_file() and not any(part.startswith(".") for part in
                                       p.relative_to(folder).parts)}


@pytest.fixture
def small_fs(tmp_path):
    """``make(name, size, ro)``: a tmpfs of ``size`` mounted at ``tmp_path/name`` (root only)."""
    mounted = []

    def make(name, size="1m", ro=False):
        d = tmp_path / name
        d.mkdir()
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}" + (",ro" if ro else ""),
                            "tmpfs", str(d)], capture_output=True, text=True)
        if r.returncode != 0:
            pytest.skip(f"cannot mount a small file system here: {r.stderr.strip()}")
        mounted.append(d)
        return d

    yield make
    for d in mounted:
        subprocess.run(["umount", "-l", str(d)], capture_output=True)


# ---- sweep --preset is applied and recorded ---------------------------------------------------

def test_sweep_applies_the_preset_and_records_it(tmp_path, run_cli):
    sw = hanasim.sweep("koikoi", {"koikoi_min": "0,2"}, rounds=2000, seed=4,
                       preset="modern")
    sim = hanasim.simulate("koikoi", rounds=2000, seed=4, preset="modern",
                           rules={"koikoi_min": 2}).set_index("quantity")
    row = sw[sw["koikoi_min"] == 2].set_index("quantity")
    cols = ["estimate", "std_error", "ci_low", "ci_high", "n"]
    pd.testing.assert_frame_equal(row.loc[sim.index, cols], sim[cols], check_names=False)
    plain = hanasim.sweep("koikoi", {"koikoi_min": "0,2"}, rounds=2000, seed=4)
    assert not plain["estimate"].equals(sw["estimate"])  # the preset changes the numbers
    assert sw.attrs["preset"] == "modern" and "preset=modern" in sw.attrs["rules"]
    # the command line: the same table, and the saved run says which preset
    st = tmp_path / "st"
    r = run_cli("sweep", "koikoi", "--preset", "modern", "--rule", "koikoi_min=0,2",
                "--rounds", "2000", "--seed", "4", "--format", "csv", "--store", str(st))
    assert r.returncode == 0, r.stderr
    got = pd.read_csv(io.StringIO(r.stdout))
    assert list(got["estimate"]) == pytest.approx(list(sw["estimate"]), nan_ok=True)
    saved = store.load_run("latest", st)
    assert saved.attrs["preset"] == "modern" and "preset=modern" in saved.attrs["rules"]


# ---- a report is replaced whole or not at all ---------------------------------------------------

REPORT = ["report", "toppa", "--rounds", "2000", "--no-skill"]


def _kill_on_write(out, seed, nth, st):
    """Run ``hanasim report`` in a process that kills itself (-9) at its nth file write."""
    code = f"""
import os, signal, sys
import hanasim.atomic
from hanasim.cli import main
real = hanasim.atomic.write_bytes
n = [0]
def dying(*a, **k):
    n[0] += 1
    if n[0] == {nth}:
        os.kill(os.getpid(), signal.SIGKILL)
    return real(*a, **k)
hanasim.atomic.write_bytes = dying
try:
    import hanasim.report.folder
    hanasim.report.folder.write_bytes = dying
except ImportError:
    pass
sys.exit(main({REPORT + ["--seed", str(seed), "--out", str(out), "--store", str(st)]!r}))
"""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)


def test_a_report_killed_mid_write_leaves_the_old_one_whole(tmp_path, run_cli):
    out, st = tmp_path / "reports", tmp_path / "st"
    r = run_cli(*REPORT, "--seed", "1", "--out", str(out), "--store", str(st))
    assert r.returncode == 0, r.stderr
    before = tree(out)
    assert any(name.endswith(".md") for name in before)
    r = _kill_on_write(out, 2, 3, st)
    assert r.returncode == -signal.SIGKILL, r.stderr
    assert tree(out) == before  # the old report, every file of it: never half old, half new
    assert runs_in(st) == 2  # the killed report's run was saved before its files
    # the next report replaces it whole and clears what the killed one left behind
    r = run_cli(*REPORT, "--seed", "3", "--out", str(out), "--store", str(st))
    assert r.returncode == 0, r.stderr
    assert "replaced the earlier one" in r.stderr
    md = (out / "toppa" / "toppa.md").read_text()
    assert "--seed 3" in md and "--seed 1" not in md
    assert [p.name for p in out.iterdir()] == ["toppa"]  # no hidden work folder left


def test_a_full_disk_keeps_the_old_report_and_the_run(tmp_path, small_fs, run_cli):
    probe, st = tmp_path / "probe", tmp_path / "st"
    r = run_cli(*REPORT, "--seed", "1", "--out", str(probe), "--no-save")
    assert r.returncode == 0, r.stderr
    pages = sum(-(-len(b) // 4096) + 1 for b in tree(probe).values())
    disk = small_fs("disk", f"{pages * 4096 * 3 // 2}")  # one report fits, not two
    r = run_cli(*REPORT, "--seed", "1", "--out", str(disk), "--no-save")
    assert r.returncode == 0, r.stderr
    before = tree(disk)
    r = run_cli(*REPORT, "--seed", "2", "--out", str(disk), "--store", str(st))
    line = [x for x in r.stderr.splitlines() if x.startswith("hanasim: error")]
    assert r.returncode == 1 and len(line) == 1, r.stderr
    assert str(disk / "toppa") in line[0] and "No space left" in line[0]
    assert "runs are saved" in line[0] and "Traceback" not in r.stderr
    assert tree(disk) == before and [p.name for p in disk.iterdir()] == ["toppa"]
    assert runs_in(st) == 1  # the simulated run is kept


def test_a_report_that_cannot_be_written_is_refused_before_the_work(tmp_path, small_fs,
                                                                     run_cli):
    st = tmp_path / "st"
    mine = tmp_path / "mine" / "toppa"
    mine.mkdir(parents=True)
    (mine / "notes.txt").write_text("my notes")
    r = run_cli("report", "toppa", "--rounds", HUGE, "--out", str(tmp_path / "mine"),
                "--store", str(st), timeout=60)
    one_line(r, str(mine), "not a hanasim report", code=1)
    assert (mine / "notes.txt").read_text() == "my notes" and not st.exists()
    # the results store is never a report folder, nor inside one
    r = run_cli("report", "toppa", "--rounds", HUGE, "--out", str(st / "r"), "--store",
                str(st), timeout=60)
    one_line(r, "results store")
    r = run_cli("report", "toppa", "--rounds", HUGE, "--out", str(tmp_path),
                "--store", str(tmp_path / "toppa" / "runs"), timeout=60)
    one_line(r, "results store")
    assert not st.exists() and not (tmp_path / "toppa").exists()
    ro = small_fs("ro", ro=True)
    r = run_cli("report", "toppa", "--rounds", HUGE, "--out", str(ro / "reports"),
                "--store", str(st), timeout=60)
    one_line(r, str(ro / "reports" / "toppa"), code=1)


# ---- charts --------------------------------------------------------------------------------

def _chart_folder_vanishes(monkeypatch, name, folder):
    """Make the chart's folder disappear after the run (so the chart cannot be written)."""
    from hanasim import plot

    real = getattr(plot, name)

    def draw(*a, **k):
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()
        return real(*a, **k)

    monkeypatch.setattr(plot, name, draw)


def test_a_sweep_chart_that_fails_keeps_the_run(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "charts"
    folder.mkdir()
    chart = folder / "c.png"
    _chart_folder_vanishes(monkeypatch, "sweep_figure", folder)
    st = tmp_path / "st"
    code = cli.main([*SWEEP, "--chart", str(chart), "--format", "csv", "--store", str(st)])
    cap = capsys.readouterr()
    assert code == 1
    assert len(pd.read_csv(io.StringIO(cap.out))) > 0  # the table is on stdout
    assert runs_in(st) == 1  # and the run is saved
    errors = [x for x in cap.err.splitlines() if x.startswith("hanasim: error")]
    assert len(errors) == 1 and str(chart) in errors[0] and "Errno" not in errors[0]


def test_a_tournament_chart_error_names_the_path_and_the_problem(tmp_path, monkeypatch,
                                                                 capsys):
    folder = tmp_path / "charts"
    folder.mkdir()
    chart = folder / "t.png"
    _chart_folder_vanishes(monkeypatch, "tournament", folder)
    code = cli.main(["tournament", "toppa", "--policy", "random", "--policy", "greedy",
                     "--rounds", "2000", "--seed", "1", "--chart", str(chart)])
    cap = capsys.readouterr()
    assert code == 1 and "player 1" in cap.out
    errors = [x for x in cap.err.splitlines() if x.startswith("hanasim: error")]
    assert len(errors) == 1 and str(chart) in errors[0] and "does not exist" in errors[0]
    assert "Errno" not in errors[0]


def test_a_tournament_piped_into_head_still_writes_its_chart(tmp_path):
    # a subprocess: stdout is a real pipe whose reader leaves
    chart = tmp_path / "t.png"
    cmd = (f"{sys.executable} -m hanasim tournament toppa --policy random --policy greedy "
           f"--rounds 2000 --seed 1 --chart {chart} | head -1; exit ${{PIPESTATUS[0]}}")
    r = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stdout.count("\n") == 1
    assert chart.read_bytes().startswith(PNG)


def test_a_sweep_chart_writes_through_a_symlink_and_a_fifo(tmp_path, run_cli):
    link = tmp_path / "link.png"
    link.symlink_to("target.png")
    r = run_cli(*SWEEP, "--chart", str(link), "--no-save", "--format", "csv", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and (tmp_path / "target.png").read_bytes().startswith(PNG)
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    got = {}

    def read():
        with open(fifo, "rb") as f:
            got["data"] = f.read()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    r = run_cli(*SWEEP, "--chart", str(fifo), "--no-save", "--format", "csv")
    reader.join(60)
    assert r.returncode == 0, r.stderr
    assert got["data"].startswith(PNG) and stat.S_ISFIFO(os.stat(fifo).st_mode)


# ---- one check for every output, before the work ----------------------------------------------

def test_two_outputs_of_one_command_are_never_the_same_file(tmp_path, run_cli):
    c = tmp_path / "c.png"
    r = run_cli(*SWEEP[:-1], HUGE, "--out", str(c), "--chart", str(c), timeout=60)
    one_line(r, "--out", "--chart", "same file")
    link = tmp_path / "t.csv"
    link.symlink_to(c)
    r = run_cli(*SWEEP[:-1], HUGE, "--out", str(link), "--chart", str(c), timeout=60)
    one_line(r, "same file")
    assert not c.exists()


def test_outputs_in_the_checkpoint_folder_or_the_store_are_refused(tmp_path, run_cli):
    ck, st = tmp_path / "ck", tmp_path / "st"
    r = run_cli(*SIM[:4], "--rounds", HUGE, "--checkpoint", str(ck), "--out",
                str(ck / "t.csv"), "--no-save", timeout=60)
    one_line(r, str(ck / "t.csv"), "checkpoint folder")
    st.mkdir()
    env = {"HANASIM_STORE": str(st)}
    r = run_cli(*SWEEP[:-1], HUGE, "--chart", str(st / "c.png"), env=env, timeout=60)
    one_line(r, "results store")
    r = run_cli("tournament", "toppa", "--policy", "random", "--policy", "greedy", "--rounds",
                HUGE, "--chart", str(st / "t.png"), env=env, timeout=60)
    one_line(r, "results store")
    assert list(st.iterdir()) == [] and not ck.exists()


@pytest.mark.parametrize("out", ["/dev/fd/1", "/proc/self/fd/1"])
def test_stdout_as_the_output_holds_the_table_alone(out):
    # a subprocess: these paths are the process's own file descriptor 1
    r = cli_run(*SIM, "--out", out, "--no-save")
    assert r.returncode == 0, r.stderr
    df = pd.read_csv(io.StringIO(r.stdout))  # CSV and nothing after it
    assert list(df.columns[:3]) == ["game", "quantity", "estimate"]
    assert not df.isna().all(axis=1).any() and df["quantity"].is_unique
    assert "estimates with" not in r.stdout


def test_sweep_to_dev_stdout_holds_the_table_alone():
    # a subprocess: /dev/stdout is the process's own file descriptor 1
    r = cli_run(*SWEEP, "--out", "/dev/stdout", "--no-save")
    assert r.returncode == 0, r.stderr
    df = pd.read_csv(io.StringIO(r.stdout))
    assert set(df["par.dealer"]) == {100, 110} and "estimate [" not in r.stdout


def test_force_keeps_the_files_permission_mode(tmp_path, run_cli):
    out = tmp_path / "t.csv"
    out.write_text("old\n")
    out.chmod(0o600)
    r = run_cli(*SIM, "--out", str(out), "--force", "--no-save")
    assert r.returncode == 0, r.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o600 and out.read_text() != "old\n"
    ro = tmp_path / "ro.bin"
    ro.write_bytes(b"x")
    ro.chmod(0o440)
    from hanasim import outputs

    outputs.write_output(str(ro), b"new", force=True)
    assert ro.read_bytes() == b"new" and stat.S_IMODE(ro.stat().st_mode) == 0o440


def test_out_to_a_stdout_nobody_reads_is_quiet():
    """``--out - | head -1``: the reader leaving is not an error (no errno text, exit 0)."""
    # a subprocess: file descriptor 1 is made a pipe with no reader
    code = f"""
import os, sys
from hanasim import cli
r, w = os.pipe()
os.close(r)
os.dup2(w, 1)
sys.exit(cli.main({SIM + ["--out", "-", "--no-save"]!r}))
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)
    assert r.returncode == 0 and "Errno" not in r.stderr and "Traceback" not in r.stderr, \
        r.stderr
