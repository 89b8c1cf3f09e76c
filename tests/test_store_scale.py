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
