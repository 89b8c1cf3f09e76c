"""The command line as a user meets it: a working run, and one clear line for every bad input."""
import io
import subprocess
import sys

import pandas as pd
import pytest


def run(*args):
    return subprocess.run([sys.executable, "-m", "hanasim", *args], capture_output=True, text=True,
                          timeout=300)


def test_simulate_prints_a_table():
    r = run("simulate", "toppa", "--rounds", "20000", "--seed", "7")
    assert r.returncode == 0, r.stderr
    assert "misdeal_rate" in r.stdout and "teyaku.any" in r.stdout and "dealer.mean_score" in r.stdout
    assert "seed 7" in r.stdout


def test_csv_to_stdout_is_a_tidy_table():
    r = run("simulate", "toppa", "--rounds", "20000", "--seed", "7", "--format", "csv")
    assert r.returncode == 0, r.stderr
    df = pd.read_csv(io.StringIO(r.stdout))
    assert list(df.columns[:7]) == ["game", "quantity", "estimate", "std_error", "ci_low", "ci_high", "n"]
    assert (df["seed"] == 7).all() and df["quantity"].is_unique
    assert ((df.ci_low <= df.estimate) & (df.estimate <= df.ci_high)).all()


def test_parquet_out_round_trips(tmp_path):
    out = tmp_path / "t.parquet"
    r = run("simulate", "toppa", "--rounds", "20000", "--seed", "3", "--format", "parquet",
            "--out", str(out))
    assert r.returncode == 0, r.stderr
    df = pd.read_parquet(out)
    assert "teyaku.triplet" in set(df.quantity)


def test_rules_and_games_list():
    r = run("rules", "toppa")
    assert r.returncode == 0 and "five_brights = 60" in r.stdout and "card_transfer" in r.stdout
    r = run("games")
    assert r.returncode == 0 and "toppa" in r.stdout


@pytest.mark.parametrize("args, words", [
    (("simulate", "chess"), ["unknown game 'chess'", "toppa"]),
    (("simulate", "toppa", "--rule", "five_brights=50"), ["five_brights", "50", "60, 40"]),
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
    (("simulate", "toppa", "--rounds", "100", "--out", "/nonexistent/dir/x.csv"), ["/nonexistent/dir"]),
    (("simulate", "toppa", "--format", "xml"), ["invalid choice", "xml"]),
    (("rules", "chess"), ["unknown game"]),
    (("exact", "toppa", "--rule", "nope=1"), ["unknown rule"]),
    (("bench", "--rounds", "-3"), ["rounds"]),
    ((), ["required"]),
])
def test_bad_input_is_one_clear_line(args, words):
    r = run(*args)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
