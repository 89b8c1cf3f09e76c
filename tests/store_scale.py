"""A large results store built in seconds, for the store-scale test and its benchmark.

A few real saved runs (tiny tables, no simulation) are written with ``store.save_run``; every
other run is a hard link to one of them under a run id of its own, and the store's index is
written directly from the files' stats (a first listing would read every file: minutes at
100,000 runs).  The index then matches the folder exactly, as it does after any listing, so a
listing reads the index and the folder, nothing else.

Run as a script to measure: ``python3 tests/store_scale.py 100000 /tmp/big-store`` (add
``--copies`` for a file of its own per run, as in a real store).
"""
from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

import pandas as pd

GAMES = ("toppa", "koikoi")  # one run in ten is koikoi
_LINKS_PER_FILE = 50_000     # under ext4's 65,000 links per file


def _rules(game: str, changed: bool) -> str:
    """The game's rules string as a run records it: its defaults, one option changed or not."""
    from hanasim.api import rules_table

    table = rules_table(game)
    values = {r.option: str(r.default) for r in table.itertuples()}
    if changed:  # any other allowed value of the first option with one
        row = next(r for r in table.itertuples() if not r.numeric and "," in str(r.allowed))
        values[row.option] = next(v.strip() for v in str(row.allowed).split(",")
                                  if v.strip() != str(row.default))
    return ",".join(f"{k}={v}" for k, v in values.items())


def _tiny_run(game: str, rules: str, seed: int) -> pd.DataFrame:
    df = pd.DataFrame({"game": game, "quantity": ["dealer_edge", "mean_score"],
                       "estimate": [0.1, 2.5], "std_error": [0.01, 0.2], "ci_low": [0.07, 2.0],
                       "ci_high": [0.13, 3.0], "n": [100, 100]})
    df.attrs.update(game=game, rounds=100_000, seed=seed, policies="greedy", rules=rules,
                    wall_time_s=0.5, run_type="simulate", hanasim_version="0.0",
                    numba_version="0.0")
    return df


def _kind(i: int) -> tuple[str, bool]:
    """Run i's game (one in ten is koikoi) and whether its rules differ from the defaults
    (one in three)."""
    return (GAMES[1] if i % 10 == 0 else GAMES[0]), i % 3 == 0


def build(root, n: int, copies: bool = False) -> Path:
    """A store of ``n`` runs at ``root`` (a new folder), its index up to date.  ``copies``:
    every run a file of its own (as in a real store: each ``stat`` reads another inode),
    not a hard link; slower to build."""
    from hanasim import store, store_index as ix

    root = Path(root)
    counts = {}
    for i in range(n):
        counts[_kind(i)] = counts.get(_kind(i), 0) + 1
    sources = {}  # kind -> [(path, index entry)]: one real file per 50,000 links
    for k, (game, changed) in enumerate(sorted(counts)):
        files = []
        for j in range(-(-counts[game, changed] // _LINKS_PER_FILE)):
            rid = store.save_run(_tiny_run(game, _rules(game, changed), 1000 * k + j), root)
            path = root / f"{rid}.parquet"
            attrs, header = store._read_header(path)
            files.append((path, ix.entry((path.name, 0, 0, 0, 0), attrs, header)))
        sources[game, changed] = files
    names, rows = [], []
    for i in range(n):
        kind = _kind(i)
        files = sources[kind]
        src, row = files[(i // 30) % len(files)]
        name = (f"2026{i // 86400 // 28 % 12 + 1:02d}{i // 86400 % 28 + 1:02d}-"
                f"{i // 3600 % 24:02d}{i // 60 % 60:02d}{i % 60:02d}-{kind[0]}-{i:08x}.parquet")
        if copies:
            shutil.copyfile(src, root / name)
        else:
            os.link(src, root / name)
        names.append(name)
        rows.append(row)
    for files in sources.values():  # the real files' own names go: every run is a link
        for src, _ in files:
            os.unlink(src)
    disk = ix.disk_files(root)
    assert len(disk.names) == n, (len(disk.names), n)
    at = dict(zip(disk.names, zip(*disk.cols)))
    entries = [{**row, **dict(zip(ix.STAT, [nm, *at[nm]])), "id": nm[: -len(".parquet")],
                "date": f"{nm[:4]}-{nm[4:6]}-{nm[6:8]}T{nm[9:11]}:{nm[11:13]}:{nm[13:15]}"
                        ".000+00:00"}
               for nm, row in zip(names, rows)]
    index = ix.in_order(ix.from_entries(entries))
    index.disk_order = ix.disk_order(index, disk)  # as a listing writes it
    assert ix.save(root, index) and ix.load(root)[0] is not None
    return root


def main(argv):
    n, root = int(argv[1]), Path(argv[2])
    t = time.perf_counter()
    build(root, n, copies="--copies" in argv)
    print(f"built {n} runs in {time.perf_counter() - t:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    main(sys.argv)
