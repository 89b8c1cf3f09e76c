"""A store of 100,000 runs lists in well under a second: a listing with an up-to-date index
does, per run, one ``stat`` (the check that the index still describes the file) and no Python
call; the rest is whole columns in Arrow, numpy and pandas.  The test counts Python calls
(deterministic, not a timing that a busy machine could fail or pass by chance); the timing
itself at 100,000 runs is checked with --full."""
import os
import shutil
import sys
import time
import warnings

import pytest

from hanasim import store
from hanasim.cli import runs as cli_extra

from store_scale import build


def _python_calls(fn):
    """How many Python functions ``fn()`` calls (C functions not counted)."""
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        if event == "call":
            calls += 1

    sys.setprofile(count)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return calls


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    root = tmp_path_factory.mktemp("scale")
    return {n: build(root / f"s{n}", n) for n in (1_000, 3_000)}


def test_the_index_matches_the_files(stores):
    runs = store.list_runs(stores[3_000])
    assert len(runs) == 3_000 and runs["id"].is_monotonic_increasing
    assert (runs["game"] == "koikoi").sum() == 300
    assert runs["seed"].dtype == "uint64"


def test_listing_does_no_python_work_per_run(stores):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing skipped: every run is listed from the index
        store.list_runs(stores[1_000])  # imports and caches warmed
        small = _python_calls(lambda: store.list_runs(stores[1_000]))
        large = _python_calls(lambda: store.list_runs(stores[3_000]))
    assert large - small < 200, (small, large)  # 2,000 more runs; was one call per run or more


def test_the_readable_listing_does_no_python_work_per_run(stores):
    runs = {n: store.list_runs(p) for n, p in stores.items()}
    cli_extra._list_lines(runs[1_000])
    small = _python_calls(lambda: cli_extra._list_lines(runs[1_000]))
    large = _python_calls(lambda: cli_extra._list_lines(runs[3_000]))
    assert large - small < 200, (small, large)  # was several calls per run


def test_a_run_changed_behind_the_index_is_still_seen(tmp_path):
    """The fast path still checks every file: a run removed, one added and one rewritten in
    place are seen at once."""
    root = build(tmp_path / "s", 500)
    runs = store.list_runs(root)
    gone, changed = runs["path"].iloc[3], runs["path"].iloc[7]
    shutil.copyfile(changed, tmp_path / "copy")  # a file of its own, not a link: then indexed
    os.replace(tmp_path / "copy", changed)
    assert len(store.list_runs(root)) == 500
    os.unlink(gone)
    with open(changed, "r+b") as f:  # damaged in place: same name, same size
        f.seek(100)
        f.write(b"\xff" * 50)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        after = store.list_runs(root)
    assert len(after) == 498
    assert not set(after["path"]) & {gone, changed}
    assert any(changed in str(w.message) for w in caught)


def test_100000_runs_list_in_well_under_a_second(full, tmp_path):
    if not full:
        pytest.skip("builds a store of 100,000 runs (about 10 s): run with --full")
    root = build(tmp_path / "s", 100_000)
    store.list_runs(root)
    best = min(_cpu(lambda: store.list_runs(root)) for _ in range(3))
    assert best < 0.75, best
    runs = store.list_runs(root)
    best = min(_cpu(lambda: cli_extra._list_lines(runs)) for _ in range(3))
    assert best < 0.5, best


def _cpu(fn):
    start = time.process_time()
    fn()
    return time.process_time() - start


# ---- the whole command: no game module, no numba ---------------------------------------------

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: `runs list` in a fresh Python, then the modules it loaded (one per line on stderr)
LIST_AND_MODULES = """
import sys
from hanasim.cli import main
code = main(["runs", "list", "--store", sys.argv[1]] + sys.argv[2:])
sys.stdout.flush()
print("\\n".join(sorted(sys.modules)), file=sys.stderr)
sys.exit(code)
"""


def _list_in_a_new_python(root, *args):
    import subprocess

    env = dict(os.environ, PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-c", LIST_AND_MODULES, str(root), *args],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout, set(r.stderr.splitlines())


def _heavy(modules):
    return sorted(m for m in modules if m == "numba" or m.startswith((
        "numba.", "hanasim.games", "hanasim.api", "hanasim.engine.jit", "scipy")))


def _varied_store(tmp_path):
    """A small store whose rules words differ from run to run: defaults, an option changed, a
    preset with and without a change, a sweep's grid, a game hanasim does not know."""
    from store_scale import _rules, _tiny_run

    root = build(tmp_path / "s", 40)
    for game, rules, preset in [
            ("koikoi", _rules("koikoi", False), "modern"),
            ("koikoi", _rules("koikoi", True), "nintendo"),
            ("toppa", "sweep par=[80,100]", None),
            ("nosuchgame", "a=1,b=2", None)]:
        df = _tiny_run(game, rules, 7)
        if preset:
            df.attrs["preset"] = preset
        store.save_run(df, root)
    return root


def _lines_computed_now(root):
    """The listing with every run's words computed now from the rules tables (the old way)."""
    runs = store.list_runs(root)
    return (f"{len(runs)} saved runs in {os.path.abspath(root)} (given with --store)\n"
            + "\n".join(cli_extra._list_lines(runs)) + "\n")


def test_runs_list_loads_no_game_module_and_no_numba(tmp_path):
    """The whole command reads the rules in words from the index: it loads no game module,
    no numba and no scipy (they took two seconds of every listing, whatever the store's size),
    and prints the same bytes as words computed from the rules tables."""
    root = _varied_store(tmp_path)
    first, _ = _list_in_a_new_python(root)  # four new runs: read from their files once
    out, modules = _list_in_a_new_python(root)
    assert _heavy(modules) == [], _heavy(modules)
    assert out == first == _lines_computed_now(root)
    out, modules = _list_in_a_new_python(root, "--game", "koikoi")  # a game the store holds
    assert _heavy(modules) == [] and out.startswith("6 saved runs"), _heavy(modules)


def test_new_runs_are_listed_from_their_files_without_loading_the_games(tmp_path):
    """A run saved by hanasim carries its words (and the fingerprint of the rule definitions
    they come from) in its file: a store whose index is gone is indexed again from the files
    without loading a game."""
    from hanasim import store_index as ix

    root = _varied_store(tmp_path)
    os.unlink(root / ix.INDEX_NAME)
    out, modules = _list_in_a_new_python(root)  # every file read (dates from the files)
    assert _heavy(modules) == [], _heavy(modules)
    assert out == _lines_computed_now(root)


def _rewrite_index(root, fmt, key, words):
    """The index as another hanasim left it: formats 1 and 2 are the Parquet index of earlier
    versions (``.hanasim-index``; format 1 without rules words), with no index of the current
    format; format 3 is the current one, with words of the rule definitions ``key``."""
    import json

    import pyarrow as pa
    import pyarrow.parquet as pq

    from hanasim import store_index as ix

    if fmt == 3:
        rows, _ = ix.load(root)
        rows.cols[ix.SHOWN] = ix._objects([words] * rows.n)
        (root / ix.INDEX_NAME).write_bytes(ix.encode(rows, key))
        return
    t = pa.Table.from_pandas(ix.read(root), schema=ix._legacy_schema(2), preserve_index=False)
    if words is None:
        t = t.drop_columns([ix.SHOWN])
    else:
        t = t.set_column(t.schema.get_field_index(ix.SHOWN), ix.SHOWN,
                         pa.array([words] * len(t), pa.string()))
    meta = {"format": fmt} if key is None else {"format": fmt, "rules_key": key}
    pq.write_table(t.replace_schema_metadata({b"hanasim_index": json.dumps(meta).encode()}),
                   root / ix.LEGACY_NAME)
    os.unlink(root / ix.INDEX_NAME)


@pytest.mark.parametrize("fmt, key, words", [
    (1, None, None),                     # an index written by the hanasim before the words
    (2, "0123456789abcdef", "WRONG"),    # words of other rule definitions (another version)
    (3, "0123456789abcdef", "WRONG"),    # the same in the current format
])
def test_an_older_index_has_its_words_computed_again(tmp_path, fmt, key, words):
    from hanasim import store_index as ix
    from hanasim.rules_text import fingerprint

    root = _varied_store(tmp_path)
    expected = _lines_computed_now(root)
    _rewrite_index(root, fmt, key, words)
    out, _ = _list_in_a_new_python(root)
    assert out == expected and "WRONG" not in out
    rows, key = ix.decode((root / ix.INDEX_NAME).read_bytes())  # upgraded, filled, rewritten
    assert key == fingerprint() and None not in rows.values(ix.SHOWN)
    out, modules = _list_in_a_new_python(root)
    assert out == expected and _heavy(modules) == [], _heavy(modules)


# ---- the listing without pandas, and the index never trusted over the files ------------------

def _run_cli(root, *args, env=None):
    """``hanasim runs list --store root ARGS`` in a fresh Python: (stdout, stderr, modules)."""
    import subprocess

    env = dict(os.environ, PYTHONPATH=ROOT, **(env or {}))
    r = subprocess.run([sys.executable, "-c", LIST_AND_MODULES, str(root), *args],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    err = r.stderr.splitlines()
    modules = {m for m in err if not m.startswith("hanasim: ")}
    return r.stdout, [m for m in err if m.startswith("hanasim: ")], modules


def _tabular(modules):
    return sorted(m for m in modules if m.split(".")[0] in ("pandas", "pyarrow", "numpy"))


def test_runs_list_loads_neither_pandas_nor_pyarrow(tmp_path):
    """With its index up to date, the whole listing (table, csv, --game, --tag) reads the index
    and stats the files with the standard library: pandas, pyarrow and numpy (more than half a
    second of every listing) are not imported; the lines are those computed the old way."""
    root = _varied_store(tmp_path)
    store.tag_run(store.list_runs(root)["id"].iloc[3], add=["keep"], store=root)
    first, _, modules = _run_cli(root)  # the tagged run's file changed: read again
    assert _tabular(modules)
    expected = _lines_computed_now(root)
    for args in [(), ("--game", "koikoi"), ("--tag", "keep"), ("--format", "csv"),
                 ("--game", "toppa", "--tag", "nosuch")]:
        out, err, modules = _run_cli(root, *args)
        assert _tabular(modules) == [] and err == [], (args, _tabular(modules), err)
        if not args:
            assert out == first == expected


def test_runs_list_csv_is_what_pandas_writes(tmp_path):
    """``--format csv`` is written with the csv module: the same bytes as the DataFrame's CSV
    (quoted policies, empty missing values, floats as Python writes them, exact seeds)."""
    from store_scale import _tiny_run

    root = _varied_store(tmp_path)
    df = _tiny_run("toppa", "a=1", 2**64 - 1)
    df.attrs.update(policies="greedy,random", wall_time_s=1e-05)
    del df.attrs["rounds"]
    store.tag_run(store.save_run(df, root), add=["x", "y.z"], store=root)

    out, _, _ = _run_cli(root, "--format", "csv")
    runs = store.list_runs(root)
    assert out == runs[cli_extra.CSV_COLUMNS].to_csv(index=False)
    assert str(2**64 - 1) in out and '"greedy,random"' in out and '"x,y.z"' in out


def _index_rows(root):
    from hanasim import store_index as ix

    rows, problem = ix.load(root)
    assert problem is None
    return rows


def test_a_run_changed_added_or_removed_behind_the_index_is_noticed(tmp_path):
    """Whatever happens to the run files between two listings (a run added, one removed, one
    rewritten in place with the same size and its modification time put back, one replaced by
    another run's file under its name), the next ``runs list`` shows the files as they are,
    not what the index recorded: the check against the folder is the same whether or not the
    folder still lists its files in the order the index recorded."""
    from store_scale import _tiny_run

    root = build(tmp_path / "s", 300)
    runs = store.list_runs(root)
    gone, damaged, replaced = (runs["path"].iloc[i] for i in (5, 50, 100))
    for path in (gone, damaged, replaced):  # files of their own, not links to a shared one
        shutil.copyfile(path, tmp_path / "copy")
        os.replace(tmp_path / "copy", path)
    _run_cli(root)
    assert _index_rows(root).disk_order is not None  # the fast check applies
    added = store.save_run(_tiny_run("koikoi", "x=1", 77), root)
    os.unlink(gone)
    st = os.stat(damaged)
    with open(damaged, "r+b") as f:  # garbled in place: same name, same size, same mtime
        f.seek(100)
        f.write(b"\xff" * 50)
    os.utime(damaged, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(damaged).st_size == st.st_size
    df = _tiny_run("toppa", "y=2", 4242)
    df.attrs["rounds"] = 123
    elsewhere = tmp_path / "elsewhere"
    shutil.copyfile(elsewhere / f"{store.save_run(df, elsewhere)}.parquet", tmp_path / "other")
    os.replace(tmp_path / "other", replaced)
    out, err, _ = _run_cli(root)
    lines = out.splitlines()
    assert lines[0].startswith("299 saved runs")  # 300 + 1 added - 1 gone - 1 damaged
    ids = [x.split()[0] for x in lines[2:]]
    name = os.path.basename
    assert added in ids and name(gone)[:-8] not in ids and name(damaged)[:-8] not in ids
    assert any(x.startswith(name(replaced)[:-8]) and " 4242 " in x and " 123 " in x
               for x in lines)
    assert len(err) == 1 and damaged in err[0], err  # the damaged file is named
    again, err2, _ = _run_cli(root)
    assert again == out and err2 == err  # the same next time (the damaged file is not indexed)


@pytest.mark.parametrize("damage", ["garbage", "empty", "truncated", "one byte changed",
                                    "another format", "a folder"])
def test_a_damaged_index_is_rebuilt_with_one_line_saying_so(tmp_path, damage):
    from hanasim import store_index as ix

    root = _varied_store(tmp_path)
    index = root / ix.INDEX_NAME
    os.unlink(index)  # indexed from the files (the built index has dates of its own)
    expected, _, _ = _run_cli(root)
    data = index.read_bytes()
    if damage == "garbage":
        index.write_bytes(os.urandom(len(data)))
    elif damage == "empty":
        index.write_bytes(b"")
    elif damage == "truncated":
        index.write_bytes(data[: len(data) // 2])
    elif damage == "one byte changed":  # a bit flipped in the body: the checksum says so
        at = len(data) // 2
        index.write_bytes(data[:at] + bytes([data[at] ^ 1]) + data[at + 1:])
    elif damage == "another format":
        index.write_bytes(data.replace(b'"format": 3', b'"format": 9'))
    else:
        index.unlink()
        index.mkdir()
    out, err, _ = _run_cli(root)
    assert out == expected
    assert len(err) == 1 and str(index) in err[0] and "damaged" in err[0], err
    if damage == "a folder":
        assert "could not be rewritten" in err[0]
        return
    assert err[0].endswith("rebuilt from the run files"), err
    out, err, modules = _run_cli(root)  # rebuilt: quiet and fast again
    assert out == expected and err == [] and _tabular(modules) == []


def test_a_missing_index_is_built_without_a_word(tmp_path):
    from hanasim import store_index as ix

    root = _varied_store(tmp_path)
    os.unlink(root / ix.INDEX_NAME)  # indexed from the files (the built index has its own dates)
    expected, _, _ = _run_cli(root)
    os.unlink(root / ix.INDEX_NAME)
    out, err, _ = _run_cli(root)
    assert out == expected and err == [] and (root / ix.INDEX_NAME).is_file()


def _plain_lines(rows, width=cli_extra.LIST_WIDTH):
    """The listing's lines the plain way, one run at a time (what ``runs list`` printed before
    it formatted whole columns): the reference the fast formatting must equal."""
    def text(v):
        return "" if v is None else str(v)

    n = rows.n
    cols = {"id": rows.ids(),
            "game": [text(v) for v in rows.values("game")],
            "rounds": [cli_extra._count(v) for v in rows.values("rounds")],
            "seed": [text(v) for v in rows.values("seed")],
            "policies": [cli_extra._policies_shown(v) for v in rows.values("policies")],
            "rules": [text(v) for v in rows.values("rules_shown")]}
    if any(isinstance(t, str) for t in rows.values("tags")):
        cols["tags"] = [text(v) for v in rows.values("tags")]
    widths = {c: max([len(c)] + [len(v) for v in vals]) for c, vals in cols.items()}
    for c, least in (("policies", 13), ("tags", 8), ("rules", 16)):
        if c in widths:
            over = sum(widths.values()) + 2 * (len(widths) - 1) - width
            if over > 0:
                widths[c] = max(least, widths[c] - over)
    lines = []
    for i in range(-1, n):
        parts = []
        for c, vals in cols.items():
            v = c if i < 0 else vals[i]
            w = widths[c]
            if len(v) > w:
                v = v[: w - 1] + "\u2026"
            parts.append(v.rjust(w) if c in ("rounds", "seed") else v.ljust(w))
        lines.append("  ".join(parts).rstrip())
    return lines


@pytest.mark.parametrize("seed", range(6))
def test_the_fast_listing_equals_the_plain_one(seed):
    """Random runs (ids of several lengths, missing seeds, rounds and games, long rules and
    policies that are cut, tags on some runs or none): the same lines as formatted one by one."""
    import random

    from hanasim import store_index as ix

    rnd = random.Random(seed)
    n = rnd.choice([1, 2, 7, 300])

    def maybe(v, p=0.2):
        return None if rnd.random() < p else v

    entries = []
    for i in range(n):
        rid = f"2026{i:04d}-{rnd.choice(['toppa', 'koikoi', 'x'])}-{'a' * rnd.randint(0, 3)}"
        entries.append({
            "name": f"{rid}-{i}.parquet", "size": 1, "mtime_ns": 1, "ctime_ns": 1, "ino": i,
            "game": maybe(rnd.choice(["toppa", "koikoi", "kushiro_toppa"]), 0.05),
            "rounds": maybe(rnd.choice([1000, 100_000, 1234, 2 * 10**9, 5]), 0.1),
            "seed": maybe(rnd.choice([0, 7, 2**64 - 1, rnd.randrange(2**40)])),
            "policies": maybe(rnd.choice(["random", "greedy,random", "random,random,random",
                                          ",".join(["lookahead:16"] * 6)])),
            "rules_shown": maybe(rnd.choice(["default", "", "modern + a=1",
                                             "compare " + " ".join(["opt=1|2|3"] * 12)])),
            "tags": maybe(rnd.choice(["keep", "a,b", "long-tag-" * 4]),
                          rnd.choice([0.3, 1.0]))})
    rows = ix.from_entries(entries)
    assert cli_extra._list_lines(rows) == _plain_lines(rows)


def test_a_run_saved_is_listed_without_reading_its_file(tmp_path):
    """Saving a run adds it to a sound index: the listing after ``simulate`` reads no run file
    and loads no pyarrow; without an index, the listing reads the file as before."""
    from store_scale import _tiny_run

    from hanasim import store_index as ix

    root = build(tmp_path / "s", 50)
    new = store.save_run(_tiny_run("koikoi", "x=1", 99), root)
    out, err, modules = _run_cli(root)
    assert _tabular(modules) == [] and err == []
    assert out.startswith("51 saved runs") and out.splitlines()[-1].startswith(new)
    assert _index_rows(root).disk_order is not None  # the folder's order: the fast check
    os.unlink(root / ix.INDEX_NAME)
    other = store.save_run(_tiny_run("toppa", "x=2", 98), root)
    assert not (root / ix.INDEX_NAME).exists()  # no index to complete: the listing builds it
    out, err, modules = _run_cli(root)
    assert _tabular(modules) and out.startswith("52 saved runs") and other in out


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigterm_during_runs_list_is_one_line_without_the_runner(tmp_path, monkeypatch, capsys):
    """`runs list` loads no engine runner (nor numpy); SIGTERM still ends it as Ctrl-C does:
    one line, exit code 143."""
    import signal
    import time as _time

    from hanasim import store_index as ix
    from hanasim.cli import main

    root = build(tmp_path / "s", 20)
    monkeypatch.delitem(sys.modules, "hanasim.engine.runner", raising=False)

    def terminated(*a, **k):
        os.kill(os.getpid(), signal.SIGTERM)
        _time.sleep(5)

    monkeypatch.setattr(ix, "scan", terminated)
    assert main(["runs", "list", "--store", str(root)]) == 143
    assert capsys.readouterr().err == "hanasim: stopped by SIGTERM\n"
