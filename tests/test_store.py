"""The results store: runs saved whole or not at all, read back with their provenance, and a
file that is not a saved run is named and refused, never loaded as data and never deleted."""
import json
import os
import re
import subprocess
import sys
import warnings

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import hanasim
from hanasim import cli, store
from hanasim import cli as cli_extra  # runs and report: in hanasim.cli's parser (cli_extra.py is gone)

ID_RE = re.compile(r"^\d{8}-\d{6}-[a-z0-9_]+-[0-9a-f]{4}$")


@pytest.fixture(scope="module")
def table():
    return hanasim.simulate("toppa", rounds=5_000, seed=11)


@pytest.fixture(scope="module")
def table40():
    return hanasim.simulate("toppa", rounds=5_000, seed=11, rules={"five_brights": 40})


@pytest.fixture
def st(tmp_path, monkeypatch):
    """An empty store; HANASIM_STORE points elsewhere, so passing the path must win."""
    monkeypatch.setenv("HANASIM_STORE", str(tmp_path / "env-store"))
    return tmp_path / "store"


def files(path):
    return sorted(p.name for p in path.iterdir()) if path.exists() else []


def test_save_and_load_round_trip(table, st):
    run_id = store.save_run(table, st)
    assert ID_RE.match(run_id) and "toppa" in run_id
    assert files(st) == [f"{run_id}.parquet"]  # no temporary file left behind
    back = store.load_run(run_id, st)
    pd.testing.assert_frame_equal(back, table, check_like=False)
    for key, value in table.attrs.items():
        assert back.attrs[key] == value, key
    assert back.attrs["run_id"] == run_id and back.attrs["saved_at"]
    assert table.attrs.get("run_id") is None  # the caller's table is not touched


def test_metadata_is_json_in_the_parquet_schema(table, st):
    run_id = store.save_run(table, st)
    meta = pq.read_schema(st / f"{run_id}.parquet").metadata
    attrs = json.loads(meta[b"hanasim"])
    header = json.loads(meta[b"hanasim_store"])
    for key in ("game", "rules", "policies", "rounds", "seed", "hanasim_version",
                "numba_version", "wall_time_s"):
        assert attrs[key] == table.attrs[key]
    assert header["format"] == store.STORE_FORMAT and header["run_id"] == run_id
    assert header["saved_at"].startswith(run_id[:4])


def test_ids_are_unique_and_sortable_even_within_one_second(table, st, monkeypatch):
    import datetime as dt

    fixed = dt.datetime(2026, 11, 22, 11, 45, 1, tzinfo=dt.timezone.utc)
    monkeypatch.setattr(store, "_now", lambda: fixed)
    tokens = iter(["aaaa", "aaaa", "bbbb", "aaaa", "bbbb", "cccc"])  # forced collisions
    monkeypatch.setattr(store.secrets, "token_hex", lambda n: next(tokens))
    ids = [store.save_run(table, st) for _ in range(3)]
    assert ids == ["20261122-114501-toppa-aaaa", "20261122-114501-toppa-bbbb",
                   "20261122-114501-toppa-cccc"]
    assert len(files(st)) == 3


def test_ids_sort_by_time(table, st, monkeypatch):
    import datetime as dt

    times = iter([dt.datetime(2026, 1, 2, tzinfo=dt.timezone.utc),
                  dt.datetime(2025, 12, 31, 23, 59, 59, tzinfo=dt.timezone.utc)])
    monkeypatch.setattr(store, "_now", lambda: next(times))
    late = store.save_run(table, st)
    early = store.save_run(table, st)
    assert sorted([late, early]) == [early, late]
    assert list(store.list_runs(st)["id"]) == [early, late]


def test_list_runs(table, table40, st):
    a = store.save_run(table, st)
    b = store.save_run(table40, st)
    runs = store.list_runs(st)
    assert list(runs.columns[:8]) == ["id", "game", "date", "rounds", "seed", "policies",
                                      "rules", "wall_time_s"]
    assert set(runs["id"]) == {a, b} and len(runs) == 2
    row = runs.set_index("id").loc[b]
    assert row.game == "toppa" and row.rounds == 5_000 and row.seed == 11
    assert "five_brights=40" in row.rules and row.policies == "random,random"


def test_store_location_argument_env_default(table, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HANASIM_STORE", raising=False)
    rid = store.save_run(table)
    assert (tmp_path / "hanasim-runs" / f"{rid}.parquet").is_file()
    monkeypatch.setenv("HANASIM_STORE", str(tmp_path / "elsewhere"))
    rid2 = store.save_run(table)
    assert (tmp_path / "elsewhere" / f"{rid2}.parquet").is_file()
    assert list(store.list_runs()["id"]) == [rid2]
    assert list(store.list_runs(tmp_path / "hanasim-runs")["id"]) == [rid]


def test_load_runs_is_one_tidy_table(table, table40, st):
    baka_ok = "baka" in hanasim.available_games()
    a = store.save_run(table, st)
    b = store.save_run(table40, st)
    both = store.load_runs(st)
    assert list(both.columns[:3]) == ["run_id", "saved_at", "game"]
    assert len(both) == len(table) + len(table40)
    assert set(both["run_id"]) == {a, b}
    wide = both.pivot(index="quantity", columns="run_id", values="estimate")
    assert wide.shape == (len(table), 2)
    only_b = store.load_runs(st, ids=[b])
    assert set(only_b["run_id"]) == {b}
    assert store.load_runs(st, game="toppa")["run_id"].nunique() == 2
    assert store.load_runs(st, game="chess").empty
    if baka_ok:
        store.save_run(hanasim.simulate("baka", rounds=2_000, seed=1), st)
        assert set(store.load_runs(st, game="baka")["game"]) == {"baka"}
        assert set(store.load_runs(st)["game"]) == {"toppa", "baka"}


def test_prefix_and_latest(table, st, monkeypatch):
    import datetime as dt

    times = iter([dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc),
                  dt.datetime(2026, 1, 2, tzinfo=dt.timezone.utc)])
    monkeypatch.setattr(store, "_now", lambda: next(times))
    first = store.save_run(table, st)
    second = store.save_run(table, st)
    assert store.load_run(first[:12], st).attrs["run_id"] == first
    assert store.load_run("latest", st).attrs["run_id"] == second
    with pytest.raises(ValueError, match="ambiguous"):
        store.load_run("2026", st)


def test_empty_or_missing_store(st):
    runs = store.list_runs(st)
    assert runs.empty and "id" in runs.columns
    assert store.load_runs(st).empty
    with pytest.raises(ValueError, match="no run 'x1'"):
        store.load_run("x1", st)
    assert not st.exists()  # reading never creates the store


@pytest.mark.parametrize("bad", ["../etc/passwd", "a/b", "", " ", "..", "x\\y"])
def test_bad_ids_are_refused(bad, table, st):
    store.save_run(table, st)
    with pytest.raises(ValueError):
        store.load_run(bad, st)


def test_save_needs_a_hanasim_table(st):
    with pytest.raises(ValueError, match="no game"):
        store.save_run(pd.DataFrame({"x": [1]}), st)
    with pytest.raises(ValueError, match="empty"):
        store.save_run(pd.DataFrame(), st)
    with pytest.raises(ValueError, match="DataFrame"):
        store.save_run({"game": "toppa"}, st)
    assert files(st) == [] or not st.exists()


def test_a_crash_while_writing_leaves_no_file(table, st, monkeypatch):
    good = store.save_run(table, st)

    def dies(tbl, where, *a, **k):
        with open(where, "wb") as f:
            f.write(b"PAR1 half a file")
        raise KeyboardInterrupt("power cut")

    monkeypatch.setattr(pq, "write_table", dies)
    with pytest.raises(KeyboardInterrupt):
        store.save_run(table, st)
    monkeypatch.undo()
    assert files(st) == [f"{good}.parquet"]
    assert list(store.list_runs(st)["id"]) == [good]


def test_leftover_temporary_files_are_ignored(table, st):
    good = store.save_run(table, st)
    (st / ".hanasim-abc123.tmp").write_bytes(b"PAR1 interrupted")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list(store.list_runs(st)["id"]) == [good]


def _newer_format(table, path):
    tbl = pa.Table.from_pandas(table, preserve_index=False)
    meta = dict(tbl.schema.metadata or {})
    meta[b"hanasim"] = json.dumps(table.attrs).encode()
    meta[b"hanasim_store"] = json.dumps({"format": store.STORE_FORMAT + 1, "run_id": "x",
                                         "saved_at": "2030-01-01T00:00:00+00:00"}).encode()
    pq.write_table(tbl.replace_schema_metadata(meta), path)


def _bad_json(table, path):
    tbl = pa.Table.from_pandas(table, preserve_index=False)
    meta = dict(tbl.schema.metadata or {})
    meta[b"hanasim"] = b"{not json"
    meta[b"hanasim_store"] = b'{"format": 1}'
    pq.write_table(tbl.replace_schema_metadata(meta), path)


def _truncated(table, path, st):
    rid = store.save_run(table, st)
    src = st / f"{rid}.parquet"
    data = src.read_bytes()
    src.unlink()
    path.write_bytes(data[: len(data) // 2])


def _garbled_pages(table, path, st):
    rid = store.save_run(table, st)
    src = st / f"{rid}.parquet"
    data = bytearray(src.read_bytes())
    src.unlink()
    footer = int.from_bytes(data[-8:-4], "little")  # keep the footer, wreck the data pages
    for i in range(4, len(data) - 8 - footer):
        data[i] = 0xFF
    path.write_bytes(bytes(data))


BAD_FILES = {
    "not-parquet": (lambda t, p, s: p.write_text("game,quantity\ntoppa,misdeal_rate\n"),
                    "not a readable Parquet file"),
    "empty": (lambda t, p, s: p.write_bytes(b""), "not a readable Parquet file"),
    "foreign": (lambda t, p, s: pd.DataFrame({"x": [1, 2]}).to_parquet(p),
                "without hanasim metadata"),
    "exported-table": (lambda t, p, s: store.write_table(t, str(p), "parquet"),
                       "not a saved run"),
    "newer-format": (lambda t, p, s: _newer_format(t, p), "newer than this hanasim"),
    "bad-json": (lambda t, p, s: _bad_json(t, p), "damaged"),
    "truncated": (_truncated, "not a readable Parquet file"),
    "garbled": (_garbled_pages, "damaged"),
}


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_a_file_that_is_not_a_run_is_named_and_refused(kind, table, st):
    make, words = BAD_FILES[kind]
    good = store.save_run(table, st)
    bad = st / f"20260101-000000-toppa-{kind}.parquet"
    make(table, bad, st)
    before = bad.read_bytes()
    with pytest.raises(ValueError) as e:
        store.load_run(bad.stem, st)
    assert str(bad) in str(e.value) and words in str(e.value), str(e.value)
    # listing reads each file whole, so garbled data pages are caught there too (issue 18)
    with pytest.warns(store.StoreWarning) as w:
        runs = store.list_runs(st)
    assert list(runs["id"]) == [good]
    assert any(str(bad) in str(x.message) for x in w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", store.StoreWarning)
        assert set(store.load_runs(st)["run_id"]) == {good}
    assert bad.read_bytes() == before  # never deleted or rewritten


def test_write_table_still_works(table, tmp_path):
    store.write_table(table, str(tmp_path / "t.csv"), "csv")
    store.write_table(table, str(tmp_path / "t.parquet"), "parquet")
    assert list(pd.read_csv(tmp_path / "t.csv")["quantity"]) == list(table["quantity"])
    meta = pq.read_schema(tmp_path / "t.parquet").metadata
    assert json.loads(meta[b"hanasim"])["seed"] == 11
    with pytest.raises(ValueError, match="unknown format"):
        store.write_table(table, str(tmp_path / "t.xml"), "xml")
    with pytest.raises(OSError, match="does not exist"):
        store.write_table(table, str(tmp_path / "nope" / "t.csv"), "csv")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv", "t.parquet"]


# --- the command line: hanasim runs list | show | export ------------------------------------

def _wired() -> bool:
    sub = [a for a in cli.build_parser()._actions if a.__class__.__name__ == "_SubParsersAction"]
    return bool(sub) and "runs" in sub[0].choices


def hanasim_main(argv):
    """``hanasim ...`` in this process: cli.main once runs is wired into it, else cli_extra."""
    return cli.main(argv) if _wired() else cli_extra.main(argv)


def test_cli_runs_list_show_export(table, table40, st, capsys, tmp_path):
    a = store.save_run(table, st)
    b = store.save_run(table40, st)
    assert hanasim_main(["runs", "list", "--store", str(st)]) == 0
    out = capsys.readouterr().out
    assert a in out and b in out and "five_brights=40" in out

    assert hanasim_main(["runs", "show", a, "--store", str(st)]) == 0
    out = capsys.readouterr().out
    assert a in out and "dealer.mean_score" in out and "seed: 11" in out

    assert hanasim_main(["runs", "export", b, "--format", "csv", "--store", str(st)]) == 0
    import io
    df = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert list(df["quantity"]) == list(table40["quantity"])

    out = tmp_path / "b.csv"
    assert hanasim_main(["runs", "export", b, "--format", "csv", "--out", str(out),
                         "--store", str(st)]) == 0
    assert pd.read_csv(out)["estimate"].tolist() == pytest.approx(table40["estimate"].tolist())
    pq_out = tmp_path / "b.parquet"
    assert hanasim_main(["runs", "export", b, "--format", "parquet", "--out", str(pq_out),
                         "--store", str(st)]) == 0
    assert pd.read_parquet(pq_out)["quantity"].tolist() == table40["quantity"].tolist()


def test_cli_runs_list_uses_the_environment_store(table, st, capsys, monkeypatch):
    a = store.save_run(table, st)
    monkeypatch.setenv("HANASIM_STORE", str(st))
    assert hanasim_main(["runs", "list", "--format", "csv"]) == 0
    assert a in capsys.readouterr().out


def one_error_line(capsys, code, *words, expect=2):
    """One line on stderr naming the problem; exit code 2 for a bad argument, 1 for a runtime
    failure (a run that is not there, a damaged file, a folder that does not exist)."""
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == expect, err
    assert len(lines) == 1 and "Traceback" not in err, err
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_cli_errors_are_one_line(table, st, capsys, tmp_path):
    good = store.save_run(table, st)
    one_error_line(capsys, hanasim_main(["runs", "show", "nope", "--store", str(st)]),
                   "no run 'nope'", expect=1)
    one_error_line(capsys, hanasim_main(["runs", "export", "../x", "--store", str(st)]),
                   "not a run id")
    bad = st / "20260101-000000-toppa-dead.parquet"
    bad.write_text("this is not parquet")
    one_error_line(capsys, hanasim_main(["runs", "show", bad.stem, "--store", str(st)]),
                   str(bad), "not a readable Parquet file", expect=1)
    one_error_line(capsys, hanasim_main(["runs", "export", good, "--format", "parquet",
                                         "--store", str(st)]), "--out")
    one_error_line(capsys, hanasim_main(["runs", "export", good, "--out",
                                         str(tmp_path / "no" / "x.csv"), "--store", str(st)]),
                   "does not exist", expect=1)
    # listing skips the bad file with a one-line warning naming it, and still succeeds
    assert hanasim_main(["runs", "list", "--store", str(st)]) == 0
    cap = capsys.readouterr()
    assert good in cap.out and bad.stem not in cap.out
    assert [x for x in cap.err.splitlines() if x.strip()] == [
        x for x in cap.err.splitlines() if "warning" in x and str(bad) in x]
    assert bad.exists()


def test_cli_as_a_user_runs_it(table, st):
    """One real process: the exit code and stderr a shell sees."""
    store.save_run(table, st)
    args = ["runs", "show", "nope", "--store", str(st)]
    cmd = ([sys.executable, "-m", "hanasim"] if _wired()
           else [sys.executable, "-m", "hanasim.cli_extra"]) + args
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "HANASIM_STORE": str(st)})
    assert r.returncode == 1  # a runtime failure, not a usage error
    assert r.stderr.strip().count("\n") == 0 and "no run 'nope'" in r.stderr
    assert r.stdout == ""


# --- seeds are exact everywhere ---------------------------------------------------------------

BIG = 2**64 - 1


@pytest.fixture(scope="module")
def big():
    return hanasim.simulate("toppa", rounds=2_000, seed=BIG)


def _as_old_run(df, st):
    """Save ``df`` as a store written before seeds were uint64 did (an int64 seed column)."""
    old = df.copy()
    old["seed"] = old["seed"].astype("int64")
    return store._save(old, "toppa", st)


def test_seed_columns_are_uint64_in_every_table(table, big):
    assert table["seed"].dtype == "uint64" and big["seed"].dtype == "uint64"
    assert int(big["seed"].iloc[0]) == BIG and big.attrs["seed"] == BIG


def test_seeds_round_trip_exactly_through_the_store(table, big, st):
    old = _as_old_run(table, st)
    b = store.save_run(big, st)
    assert store.load_run(b, st)["seed"].tolist() == [BIG] * len(big)
    assert store.load_run(old, st)["seed"].dtype == "uint64"  # an older run reads exact too
    both = store.load_runs(st)
    assert both["seed"].dtype == "uint64"  # was float64: 2**64-1 became 1.8446744073709552e19
    assert set(both.loc[both.run_id == b, "seed"].tolist()) == {BIG}
    assert set(both.loc[both.run_id == old, "seed"].tolist()) == {11}
    runs = store.list_runs(st).set_index("id")
    assert int(runs.loc[b, "seed"]) == BIG and int(runs.loc[old, "seed"]) == 11


def test_a_run_without_a_seed_column_gets_its_seed_exactly(table, big, st):
    no_col = big.drop(columns=["seed"])
    no_col.attrs = dict(big.attrs)  # a sweep's table: the seed only in its provenance
    a = store.save_run(no_col, st)
    no_seed = table.drop(columns=["seed"])
    no_seed.attrs = {k: v for k, v in table.attrs.items() if k != "seed"}
    c = store.save_run(no_seed, st)
    both = store.load_runs(st)
    assert set(both.loc[both.run_id == a, "seed"].tolist()) == {BIG}
    assert both.loc[both.run_id == c, "seed"].isna().all()
    assert str(both["seed"].dtype) == "UInt64"  # nullable, never float


def test_seeds_are_exact_in_csv_and_parquet_exports(table, big, st, capsys, tmp_path):
    store.save_run(table, st)
    b = store.save_run(big, st)
    assert hanasim_main(["runs", "export", b, "--store", str(st)]) == 0
    assert f",{BIG}," in capsys.readouterr().out
    assert hanasim_main(["runs", "list", "--format", "csv", "--store", str(st)]) == 0
    assert str(BIG) in capsys.readouterr().out
    out = tmp_path / "b.parquet"
    assert hanasim_main(["runs", "export", b, "--out", str(out), "--store", str(st)]) == 0
    assert pd.read_parquet(out)["seed"].tolist() == [BIG] * len(big)
    both = store.load_runs(st)
    for fmt in ("csv", "parquet"):  # several runs' rows in one file: still exact
        path = tmp_path / f"both.{fmt}"
        store.write_table(both, str(path), fmt)
        back = pd.read_csv(path) if fmt == "csv" else pd.read_parquet(path)
        assert back.loc[back.run_id == b, "seed"].tolist() == [BIG] * len(big)
        assert set(back.loc[back.run_id != b, "seed"].tolist()) == {11}


# --- 'latest' never passes over a damaged newer file silently ---------------------------------

def _two_runs_and_a_damaged_newer_file(table, st, monkeypatch):
    import datetime as dt

    times = iter([dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc),
                  dt.datetime(2026, 1, 2, tzinfo=dt.timezone.utc),
                  dt.datetime(2026, 1, 3, tzinfo=dt.timezone.utc)])
    monkeypatch.setattr(store, "_now", lambda: next(times))
    store.save_run(table, st)
    good = store.save_run(table, st)
    bad = st / "20260103-000000-toppa-beef.parquet"
    _truncated(table, bad, st)
    return good, bad


def test_latest_names_a_damaged_newer_file(table, st, monkeypatch):
    good, bad = _two_runs_and_a_damaged_newer_file(table, st, monkeypatch)
    monkeypatch.undo()
    with pytest.warns(store.StoreWarning) as w:
        assert store.load_run("latest", st).attrs["run_id"] == good
    assert any(str(bad) in str(x.message) and good in str(x.message) for x in w)


def test_cli_latest_names_a_damaged_newer_file(table, st, monkeypatch, capsys, tmp_path):
    good, bad = _two_runs_and_a_damaged_newer_file(table, st, monkeypatch)
    monkeypatch.undo()
    assert hanasim_main(["runs", "show", "latest", "--store", str(st)]) == 0
    cap = capsys.readouterr()
    assert good in cap.out and f"warning: skipping: {bad}" in cap.err
    assert hanasim_main(["runs", "export", "latest", "--out", str(tmp_path / "x.csv"),
                         "--store", str(st)]) == 0
    assert str(bad) in capsys.readouterr().err


def test_latest_with_only_damaged_files_names_them(table, st):
    st.mkdir()
    bad = st / "20260103-000000-toppa-beef.parquet"
    bad.write_bytes(b"nope")
    with pytest.raises(store.StoreError, match=str(bad)):
        store.load_run("latest", st)


# --- the store is checked before any simulation -----------------------------------------------

@pytest.fixture
def no_simulation(monkeypatch):
    """Every simulating entry point fails the test: the check must come first."""
    from hanasim import api

    def boom(*a, **k):
        raise AssertionError("simulated before checking the store")

    for name in ("simulate", "compare", "sweep"):
        monkeypatch.setattr(api, name, boom)


def _refused_before_work(capsys, st, *words, cmd="simulate"):
    args = {"simulate": ["simulate", "toppa", "--rounds", "1000", "--seed", "1"],
            "compare": ["compare", "toppa", "--rounds", "1000", "--rule", "par=88,100"],
            "sweep": ["sweep", "toppa", "--rounds", "1000", "--rule", "par=88,100"]}[cmd]
    code = cli.main(args + ["--store", str(st)])
    one_error_line(capsys, code, str(st), *words, expect=1)


@pytest.mark.parametrize("cmd", ["simulate", "compare", "sweep"])
def test_a_dangling_store_link_is_refused_first(cmd, tmp_path, capsys, no_simulation):
    st = tmp_path / "store"
    st.symlink_to(tmp_path / "gone" / "runs")
    _refused_before_work(capsys, st, "does not exist", cmd=cmd)


def test_a_store_under_a_file_is_refused_first(tmp_path, capsys, no_simulation):
    (tmp_path / "f").write_text("x")
    _refused_before_work(capsys, tmp_path / "f" / "store", "is not a folder")


def test_an_unwritable_store_is_refused_first(tmp_path, capsys, no_simulation, monkeypatch):
    """A read-only or immutable store (simulated: root passes permission checks)."""
    import errno

    st = tmp_path / "store"
    st.mkdir()
    real = store.tmp_in

    def refuse(directory, *a, **k):
        if os.path.realpath(directory) == os.path.realpath(st):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), directory)
        return real(directory, *a, **k)

    monkeypatch.setattr(store, "tmp_in", refuse)
    _refused_before_work(capsys, st, "Read-only file system")


def _run(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True).returncode == 0


def test_a_read_only_mount_is_refused_first(tmp_path, capsys, no_simulation):
    """A real read-only file system (a small tmpfs inside the test's own folder), where the
    machine lets the tests mount one; skipped elsewhere."""
    st = tmp_path / "ro"
    st.mkdir()
    if not (hasattr(os, "geteuid") and os.geteuid() == 0
            and _run("mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(st))):
        pytest.skip("cannot mount a read-only tmpfs here")
    try:
        _refused_before_work(capsys, st, "Read-only file system")
        _refused_before_work(capsys, st / "runs", "Read-only file system")  # to be made there
    finally:
        subprocess.run(["umount", str(st)])


def test_a_store_that_would_be_made_in_a_locked_folder_is_refused_first(
        tmp_path, capsys, no_simulation, monkeypatch):
    parent = tmp_path / "locked"
    parent.mkdir()
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **k: (
        False if os.path.realpath(p) == os.path.realpath(parent) else real(p, mode, **k)))
    _refused_before_work(capsys, parent / "runs", str(parent), "Permission denied")
    assert not (parent / "runs").exists()  # checking never makes the store


def test_an_immutable_store_is_refused_first(tmp_path, capsys, no_simulation):
    st = tmp_path / "imm"
    st.mkdir()
    if not _run("chattr", "+i", str(st)):
        pytest.skip("chattr +i is not possible here")
    try:
        _refused_before_work(capsys, st, "Operation not permitted")
    finally:
        subprocess.run(["chattr", "-i", str(st)])


def test_a_full_store_disk_still_gives_the_table(table, tmp_path, capsys, monkeypatch):
    """A store that can be checked but not written (a full disk): the table is not lost."""
    import errno

    st = tmp_path / "store"

    def full(*a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(store, "_save", full)
    assert cli.save_or_say(table, st) == 1
    err = capsys.readouterr().err
    assert "not saved" in err and str(st) in err and "No space left" in err


# --- API messages ------------------------------------------------------------------------------

@pytest.mark.parametrize("game", [123, ["toppa", 1], {"toppa": 1}, ""])
def test_load_runs_game_must_be_names(game, table, st):
    store.save_run(table, st)
    with pytest.raises(TypeError, match="game must be a game name"):
        store.load_runs(st, game=game)


def test_cli_runs_list_of_another_game_does_not_say_empty(table, st, capsys):
    store.save_run(table, st)
    assert hanasim_main(["runs", "list", "--game", "baka", "--store", str(st)]) == 0
    out = capsys.readouterr().out
    assert "no saved baka runs" in out and "1 run of other games: toppa (1)" in out
    one_error_line(capsys, hanasim_main(["runs", "list", "--game", "nosuch", "--store",
                                         str(st)]), "unknown game 'nosuch'", "toppa")


# --- the index: listing reads one file, and never trusts it over the files --------------------

def _index(st):
    from hanasim import store_index

    return st / store_index.INDEX_NAME


def test_listing_keeps_an_index_checked_against_the_files(table, table40, st):
    a = store.save_run(table, st)
    b = store.save_run(table40, st)
    first = store.list_runs(st)
    assert _index(st).is_file()
    pd.testing.assert_frame_equal(store.list_runs(st), first)  # the same, from the index
    c = store.save_run(table, st)  # added and removed behind the index's back: seen at once
    (st / f"{a}.parquet").unlink()
    assert list(store.list_runs(st)["id"]) == [b, c]
    path = st / f"{b}.parquet"  # damaged in place after it was indexed: named, not listed
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.warns(store.StoreWarning, match=str(path)):
        assert list(store.list_runs(st)["id"]) == [c]
    with pytest.warns(store.StoreWarning, match=str(path)):  # every time, until it is gone
        assert list(store.list_runs(st)["id"]) == [c]


def _lying_index(st):
    """An index that lists a run that is not there and says other things of the real ones."""
    from hanasim import store_index

    df = store_index.read(st)
    ghost = df.iloc[[0]].copy()
    ghost["name"] = ghost["id"] = "20250101-000000-toppa-0000"
    ghost["name"] += ".parquet"
    df["game"], df["seed"], df["mtime_ns"] = "baka", 5, df["mtime_ns"] + 1
    store_index.write(st, pd.concat([df, ghost], ignore_index=True))


DAMAGED_INDEX = {
    "missing": lambda st: _index(st).unlink(),
    "garbage": lambda st: _index(st).write_bytes(os.urandom(3000)),
    "empty": lambda st: _index(st).write_bytes(b""),
    "truncated": lambda st: _index(st).write_bytes(_index(st).read_bytes()[:500]),
    "foreign": lambda st: pd.DataFrame({"name": ["x"]}).to_parquet(_index(st)),
    "lying": _lying_index,
    "a folder": lambda st: (_index(st).unlink(), _index(st).mkdir()),
}


@pytest.mark.parametrize("damage", sorted(DAMAGED_INDEX))
def test_a_damaged_or_missing_index_is_rebuilt_from_the_files(damage, table, table40, st):
    ids = [store.save_run(table, st), store.save_run(table40, st)]
    expected = store.list_runs(st)
    DAMAGED_INDEX[damage](st)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the index is a cache: its damage is not the user's
        got = store.list_runs(st)
        pd.testing.assert_frame_equal(got, expected)
        assert store.load_runs(st, game="toppa")["run_id"].unique().tolist() == ids
        assert store.load_run("latest", st).attrs["run_id"] == ids[-1]
    if damage != "a folder":
        from hanasim import store_index

        assert store_index.read(st) is not None  # rewritten whole


def test_load_runs_of_one_game_reads_only_its_files(table, st, monkeypatch):
    other = table.copy()
    other["game"] = "baka"
    other.attrs = {**table.attrs, "game": "baka"}
    for _ in range(3):
        store.save_run(table, st)
    wanted = {store.save_run(other, st) + ".parquet" for _ in range(2)}
    store.list_runs(st)  # the index knows every run now
    read = []
    real = pq.read_table

    def counting(path, *a, **k):
        read.append(os.path.basename(str(path)))
        return real(path, *a, **k)

    monkeypatch.setattr(pq, "read_table", counting)
    got = store.load_runs(st, game="baka")
    assert {f"{i}.parquet" for i in got["run_id"]} == wanted
    assert sorted(n for n in read if not n.startswith(".")) == sorted(wanted)  # no toppa file


def test_a_store_that_cannot_be_written_still_lists(table, st, monkeypatch):
    from hanasim import atomic

    a = store.save_run(table, st)

    def refuse(*args, **kw):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(atomic, "write_bytes", refuse)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list(store.list_runs(st)["id"]) == [a]
    assert not _index(st).exists()


def test_two_commands_saving_and_listing_at_once_keep_the_index_whole(table, st):
    first = store.save_run(table, st)
    script = ("import sys, warnings\n"
              "warnings.simplefilter('error')\n"
              "from hanasim import store\n"
              "st = sys.argv[1]\n"
              "df = store.load_run(sys.argv[2], st)\n"
              "for _ in range(12):\n"
              "    store.save_run(df, st)\n"
              "    store.list_runs(st)\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    procs = [subprocess.Popen([sys.executable, "-c", script, str(st), first], cwd=root,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for p in procs:
        err = p.communicate(timeout=600)[1]
        assert p.returncode == 0, err
    from hanasim import store_index

    assert store_index.read(st) is not None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        runs = store.list_runs(st)
    assert len(runs) == 25 and sorted(runs["id"]) == sorted(
        p.stem for p in st.glob("*.parquet") if not p.name.startswith("."))


def test_cli_runs_list_lines_fit_120_characters(table, big, st, capsys):
    long = table.copy()
    long.attrs = {**table.attrs, "policies": ",".join(["lookahead:16"] * 6),
                  "rules": "compare " + " ".join(f"option_{i}=1|2|3|4" for i in range(20))}
    ids = [store.save_run(t, st) for t in (table, big, long)]
    assert hanasim_main(["runs", "list", "--store", str(st)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(len(x) <= 120 for x in lines), max(lines, key=len)
    for i in ids:
        assert any(x.startswith(i) for x in lines)
    assert any(str(BIG) in x for x in lines)  # a seed is never cut short
    assert any("compare option_0=1|2|3|4" in x and x.endswith("\u2026") for x in lines)


# --- one number per (run_id, variant, kind, quantity), whatever the run -----------------------

@pytest.fixture(scope="module")
def every_kind():
    return {"simulate": hanasim.simulate("toppa", rounds=2_000, seed=3),
            "compare": hanasim.compare("toppa", rounds=2_000, seed=3,
                                       rules={"five_brights": [40, 60]}),
            "sweep": hanasim.sweep("toppa", rules={"five_brights": [40, 60]}, rounds=2_000,
                                   seed=3),
            "tournament": hanasim.tournament("toppa", ["random", "greedy"], rounds=2_000,
                                                seed=3)}


def test_the_store_recipe_gives_every_stored_number_unaveraged(every_kind, st):
    ids = {kind: store.save_run(df, st) for kind, df in every_kind.items()}
    runs = store.load_runs(st)
    assert runs[["variant", "kind"]].notna().all().all()
    assert not runs.duplicated(store.KEY).any()
    # the recipe: pivot refuses duplicates where pivot_table would average them
    wide = runs[runs.kind == "value"].pivot(index="quantity", columns=["run_id", "variant"],
                                            values="estimate")
    diffs = runs[runs.kind == "difference"].pivot(index="quantity",
                                                  columns=["run_id", "variant"],
                                                  values="estimate")
    cmp = every_kind["compare"]
    for _, r in cmp.iterrows():
        table = wide if r["kind"] == "value" else diffs
        assert table.loc[r["quantity"], (ids["compare"], r["variant"])] == r["estimate"]
    sim = every_kind["simulate"].set_index("quantity")["estimate"]
    assert wide[(ids["simulate"], "run")].dropna().to_dict() == sim.to_dict()
    for _, r in every_kind["sweep"].iterrows():
        assert wide.loc[r["quantity"], (ids["sweep"], r["variant"])] == r["estimate"]
    for _, r in every_kind["tournament"].iterrows():
        got = wide.loc[r["quantity"], (ids["tournament"], f"{r['policy']} vs {r['opponent']}")]
        assert got == r["estimate"]
    # the old recipe averaged a variant's value with its difference: never the case now
    naive = runs.pivot_table(index="quantity", columns="run_id", values="estimate")
    q = cmp.loc[cmp.kind == "difference", "quantity"].iloc[0]
    per_variant = cmp.loc[cmp.quantity == q, "estimate"]
    assert naive.loc[q, ids["compare"]] == pytest.approx(per_variant.mean())  # why: averaged
    assert wide.loc[q, (ids["compare"], "five_brights=60")] != naive.loc[q, ids["compare"]]


def test_runs_show_of_a_compare_shows_the_differences_first(every_kind, st, capsys):
    rid = store.save_run(every_kind["compare"], st)
    assert hanasim_main(["runs", "show", rid, "--store", str(st)]) == 0
    out = capsys.readouterr().out
    table = out[out.index("estimates with 99.9% intervals"):].splitlines()[2:]
    kinds = ["difference" if " difference " in x else "value" for x in table]
    assert kinds == sorted(kinds) and kinds[0] == "difference" and "value" in kinds


# --- runs rm and runs tag ----------------------------------------------------------------------

def test_runs_rm_removes_only_the_runs_named(table, table40, st, capsys):
    a = store.save_run(table, st)
    b = store.save_run(table40, st)
    c = store.save_run(table, st)
    bad = st / "20260101-000000-toppa-dead.parquet"
    bad.write_text("not parquet")
    one_error_line(capsys, hanasim_main(["runs", "rm", a, "nope", "--store", str(st)]),
                   "no run 'nope'", expect=1)
    assert (st / f"{a}.parquet").exists()  # every id is checked before any run is removed
    assert hanasim_main(["runs", "rm", a, bad.stem, "--store", str(st)]) == 0
    err = capsys.readouterr().err
    assert f"removed run {a}" in err and bad.stem in err and not bad.exists()
    assert list(store.list_runs(st)["id"]) == [b, c]
    assert store.remove_runs("latest", st) == [c]
    assert list(store.list_runs(st)["id"]) == [b]


def test_runs_tag_adds_and_removes_tags_and_keeps_the_rows(table, st, capsys):
    a = store.save_run(table, st)
    b = store.save_run(table, st)
    store.list_runs(st)  # indexed before the tags: the index must notice the change
    assert hanasim_main(["runs", "tag", a, "baseline", "club:2026", "--store", str(st)]) == 0
    assert "baseline, club:2026" in capsys.readouterr().out
    back = store.load_run(a, st)
    assert back.attrs["tags"] == ["baseline", "club:2026"]
    pd.testing.assert_frame_equal(back, table)  # the same rows
    runs = store.list_runs(st).set_index("id")
    assert runs.loc[a, "tags"] == "baseline,club:2026" and runs.loc[b, "tags"] is None
    assert hanasim_main(["runs", "list", "--tag", "baseline", "--store", str(st)]) == 0
    out = capsys.readouterr().out
    assert a in out and b not in out and "baseline,club:2026" in out
    assert hanasim_main(["runs", "tag", a, "--remove", "baseline", "--store", str(st)]) == 0
    assert store.list_runs(st).set_index("id").loc[a, "tags"] == "club:2026"
    one_error_line(capsys, hanasim_main(["runs", "tag", a, "a b", "--store", str(st)]),
                   "is not a tag")
    assert hanasim_main(["runs", "list", "--tag", "nosuch", "--store", str(st)]) == 0
    assert "no saved runs tagged 'nosuch'" in capsys.readouterr().out
