"""The command line as a user meets it: a working run, and one clear line for every bad input."""
import io
import subprocess
import sys

import pandas as pd
import pytest


def run(*args):
    """``python -m hanasim ARGS`` in a process of its own: kept for the entry point itself
    (test_version); the other tests run the CLI in-process (``run_cli``, tests/conftest.py)."""
    return subprocess.run([sys.executable, "-m", "hanasim", *args], capture_output=True, text=True,
                          timeout=300)


def test_simulate_prints_a_table(run_cli):
    r = run_cli("simulate", "toppa", "--rounds", "20000", "--seed", "7", "--all")
    assert r.returncode == 0, r.stderr
    assert "misdeal_rate" in r.stdout and "teyaku.any" in r.stdout and "dealer.mean_score" in r.stdout
    assert "seed 7" in r.stdout


def test_csv_to_stdout_is_a_tidy_table(run_cli):
    r = run_cli("simulate", "toppa", "--rounds", "20000", "--seed", "7", "--format", "csv")
    assert r.returncode == 0, r.stderr
    df = pd.read_csv(io.StringIO(r.stdout))
    assert list(df.columns[:7]) == ["game", "quantity", "estimate", "std_error", "ci_low", "ci_high", "n"]
    assert (df["seed"] == 7).all() and df["quantity"].is_unique
    assert ((df.ci_low <= df.estimate) & (df.estimate <= df.ci_high)).all()


def test_parquet_out_round_trips(tmp_path, run_cli):
    out = tmp_path / "t.parquet"
    r = run_cli("simulate", "toppa", "--rounds", "20000", "--seed", "3", "--format", "parquet",
            "--out", str(out))
    assert r.returncode == 0, r.stderr
    df = pd.read_parquet(out)
    assert "teyaku.triplet" in set(df.quantity)


def test_rules_and_games_list(run_cli):
    r = run_cli("rules", "toppa")
    assert r.returncode == 0 and "five_brights = 60" in r.stdout and "card_transfer" in r.stdout
    r = run_cli("games")
    assert r.returncode == 0 and "toppa" in r.stdout


@pytest.mark.parametrize("args, words", [
    (("simulate", "chess"), ["unknown game 'chess'", "toppa"]),
    (("simulate", "toppa", "--rule", "five_brights=52"), ["five_brights", "52", "multiple of 5"]),
    (("simulate", "toppa", "--rule", "five_brights=300"), ["five_brights", "300", "0 to 200"]),
    (("simulate", "toppa", "--rule", "five_brights=lots"), ["five_brights", "lots", "whole number"]),
    (("simulate", "toppa", "--rule", "par=100,120,140"), ["par", "one per seat", "dealer, opponent"]),
    (("simulate", "toppa", "--rule", "par.left=100"), ["'left' is not a seat", "opponent"]),
    (("simulate", "toppa", "--rule", "chaff_count=25"), ["chaff_count", "25", "23 cards"]),
    (("simulate", "toppa", "--threads", "0"), ["threads", "0"]),
    (("simulate", "toppa", "--format", "csv", "--out", "x.parquet"), ["--format csv", "x.parquet"]),
    (("compare", "toppa", "--rule", "five_brights=60"), ["at least two variants", "--rule"]),
    (("compare", "toppa"), ["at least two variants", "--policy"]),
    (("sweep", "toppa", "--rule", "par=120"), ["two or more values"]),
    (("sweep", "toppa", "--rule", "par=140:100:5"), ["par", "go up"]),
    (("sweep", "toppa", "--rule", "five_brights=20:80:20", "--solve", "dealer.mean_score=zero"),
     ["target", "number"]),
    (("sweep", "toppa", "--rule", "five_brights=20:80:20", "--chart", "x.pdf"), [".png or .svg"]),
    (("simulate", "toppa", "--rule", "gold_rush=on"), ["unknown rule 'gold_rush'", "five_brights"]),
    (("simulate", "toppa", "--rule", "five_brights"), ["name=value"]),
    (("simulate", "toppa", "--rule", "five_brights=60", "--rule", "five_brights=40"), ["given twice"]),
    (("simulate", "toppa", "--rounds", "-5"), ["rounds", "-5"]),
    (("simulate", "toppa", "--rounds", "0"), ["rounds"]),
    (("simulate", "toppa", "--rounds", "lots"), ["rounds", "lots"]),
    (("simulate", "toppa", "--rounds", "1e30"), ["rounds", "at most"]),
    (("simulate", "toppa", "--seed", "abc"), ["seed", "abc"]),
    (("simulate", "toppa", "--seed", "-1"), ["seed"]),
    (("simulate", "toppa", "--policy", "clever"), ["unknown policy 'clever'", "greedy"]),
    (("simulate", "toppa", "--policy", "random,greedy,random"), ["policy"]),
    (("simulate", "toppa", "--format", "parquet"), ["--out"]),
    (("simulate", "toppa", "--format", "xml"), ["invalid choice", "xml"]),
    (("rules", "chess"), ["unknown game"]),
    (("exact", "toppa", "--rule", "nope=1"), ["unknown rule"]),
    (("bench", "--rounds", "-3"), ["rounds"]),
    ((), ["required"]),
])
def test_bad_input_is_one_clear_line(args, words, run_cli):
    huge = ("--rounds", "100000000000") if args[:1] in (("sweep",), ("compare",)) else ()
    r = run_cli(*args, *huge)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


# ---- issue 17: what a new user tripped on -----------------------------------------------------

@pytest.fixture(autouse=True)
def _own_project(tmp_path):
    """Each test's folder is a project top (a marker file), so the store search stops there:
    a ``hanasim-runs`` folder above it (from running hanasim in /tmp) is never used."""
    (tmp_path / "setup.cfg").write_text("")


@pytest.fixture
def cli_in(run_cli, monkeypatch):
    """``cli_in(cwd, *args)``: ``hanasim ARGS`` run in-process in ``cwd`` with HANASIM_STORE
    unset (the store is found from ``cwd``, as run_in's subprocess finds it)."""
    def run(cwd, *args):
        with monkeypatch.context() as m:
            m.delenv("HANASIM_STORE", raising=False)
            return run_cli(*args, cwd=cwd)
    return run


def run_in(cwd, *args, env=None, shell=False):
    """``hanasim ARGS`` in ``cwd`` with ``env`` (HANASIM_STORE unset unless given); a
    subprocess, for a shell pipeline (test_a_piped_run_is_saved_and_says_so)."""
    import os

    e = {k: v for k, v in os.environ.items() if k != "HANASIM_STORE"}
    e.update(env or {})
    cmd = args[0] if shell else [sys.executable, "-m", "hanasim", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=cwd, env=e,
                          shell=shell)


def test_version():
    import hanasim

    r = run("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"hanasim {hanasim.__version__}"


@pytest.mark.parametrize("args, words", [
    (("runs", "show", "nope"), ["no run 'nope'"]),
    (("simulate", "toppa", "--rounds", "100", "--out", "/nonexistent/dir/x.csv"),
     ["/nonexistent/dir", "does not exist"]),
])
def test_runtime_failures_exit_1(args, words, run_cli):
    r = run_cli(*args)
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert r.returncode == 1 and len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert all(w in lines[0] for w in words), lines[0]


def test_out_parquet_is_parquet_by_its_extension(tmp_path, run_cli):
    import pyarrow.parquet as pq

    out = tmp_path / "t.parquet"
    r = run_cli("simulate", "toppa", "--rounds", "3000", "--seed", "3", "--out", str(out),
                "--no-save")
    assert r.returncode == 0, r.stderr
    assert out.read_bytes()[:4] == b"PAR1"  # Parquet's magic number, not CSV text
    df = pq.read_table(out).to_pandas()
    assert {"seat", "label"} <= set(df.columns) and "dealer.mean_score" in set(df.quantity)
    assert "Dealer: mean score per round" in r.stdout  # and the readable table on the terminal
    csv = tmp_path / "t.csv"
    assert run_cli("simulate", "toppa", "--rounds", "3000", "--seed", "3", "--out", str(csv),
               "--no-save").returncode == 0
    assert pd.read_csv(csv)["quantity"].tolist() == df["quantity"].tolist()


def test_one_store_for_a_project_found_from_any_subdirectory(tmp_path, cli_in):
    project = tmp_path / "club"
    (project / "notebooks" / "deep").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'club'\n")
    r = cli_in(project / "notebooks" / "deep", "simulate", "toppa", "--rounds", "2000",
               "--seed", "1", "--format", "csv")
    assert r.returncode == 0, r.stderr
    store = project / "hanasim-runs"
    assert len(list(store.glob("*.parquet"))) == 1 and str(store) in r.stderr
    for where in (project, project / "notebooks"):
        listed = cli_in(where, "runs", "list")
        assert listed.returncode == 0 and "1 saved run in" in listed.stdout
        assert str(store) in listed.stdout  # says where the store is


def test_a_piped_run_is_saved_and_says_so(tmp_path):
    r = run_in(tmp_path, f"'{sys.executable}' -m hanasim simulate toppa --rounds 2000 --seed 2 "
               "--format csv | head -1", shell=True)
    assert r.stdout.startswith("game,quantity")
    assert "saved run" in r.stderr
    assert len(list((tmp_path / "hanasim-runs").glob("*.parquet"))) == 1


def test_runs_show_of_a_comparison_keeps_its_variants(tmp_path, cli_in):
    r = cli_in(tmp_path, "compare", "toppa", "--rounds", "4000", "--seed", "1", "--rule",
               "five_brights=60,40")
    assert r.returncode == 0, r.stderr
    shown = cli_in(tmp_path, "runs", "show", "latest")
    assert shown.returncode == 0
    head = next(x for x in shown.stdout.splitlines() if "quantity" in x and "estimate" in x)
    assert head.split()[:3] == ["variant", "kind", "quantity"]
    assert "five_brights=40" in shown.stdout and "difference" in shown.stdout


def test_compare_says_when_nothing_differs(run_cli):
    # with one-round sessions nobody deals a next round: who deals after a tie changes nothing
    r = run_cli("compare", "toppa", "--rounds", "3000", "--seed", "1", "--rule",
                "tie_dealer=keep,pass", "--no-save")
    assert r.returncode == 0, r.stderr
    assert "nothing differs" in r.stdout


def test_threads_do_not_change_the_table(run_cli):
    one = run_cli("simulate", "toppa", "--rounds", "20000", "--seed", "9", "--format", "csv",
              "--threads", "1", "--no-save")
    every = run_cli("simulate", "toppa", "--rounds", "20000", "--seed", "9", "--format", "csv",
                "--no-save")
    assert one.returncode == 0 and one.stdout == every.stdout


def test_rules_cite_the_rule_page_by_title_and_show_readings(run_cli):
    r = run_cli("rules", "toppa")
    assert r.returncode == 0
    assert "the Toppa rule page (2025-04-13)" in r.stdout and "a569c68" not in r.stdout
    assert "readings: 60 (the rule page's value), 40 (the rule page's alternative)" in r.stdout


def test_sweep_solves_and_charts(tmp_path, cli_in):
    chart = tmp_path / "par.png"
    r = cli_in(tmp_path, "sweep", "toppa", "--rule", "par.dealer=96:120:8", "--rounds", "4000",
               "--seed", "2", "--solve", "dealer.mean_score=0", "--chart", str(chart))
    assert r.returncode == 0, r.stderr
    assert "solved: dealer.mean_score = 0 at par.dealer =" in r.stdout
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(list((tmp_path / "hanasim-runs").glob("*.parquet"))) == 1
