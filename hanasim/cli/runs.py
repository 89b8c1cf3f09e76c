"""``hanasim runs list|show|export|rm|tag``: the saved runs in the results store; parsing and
printing only (the work is :mod:`hanasim.store`).

Every leaf parser sets ``handler`` (``set_defaults(handler=...)``), which :func:`hanasim.cli.main`
calls with the parsed arguments.  Handlers raise ``ValueError`` for bad input (one line on
stderr, exit code 2) and ``StoreError`` / ``OSError`` for a runtime failure (one line, exit
code 1).
"""
from __future__ import annotations

import collections
import os
import sys
import warnings
from itertools import repeat

# pandas loads inside the handlers: `hanasim --version` and --help build this parser too
from .common import add_store_option, emit


def register(sub) -> None:
    """Add ``runs`` to the argparse subparsers object ``sub``."""
    p = sub.add_parser("runs", help="the saved runs in the results store: list, show, export, "
                       "rm, tag",
                       description="Saved runs live in a results store: --store DIR, or "
                       "$HANASIM_STORE, or the project's hanasim-runs folder (the first one "
                       "found from the working directory upwards, or one at the top of the "
                       "project: the folder with .git or pyproject.toml).")
    runs = p.add_subparsers(dest="runs_command", required=True,
                            metavar="{list,show,export,rm,tag}")

    q = runs.add_parser("list", help="one line per saved run")
    _store_option(q)
    q.add_argument("--game", default=None, help="only this game's runs")
    q.add_argument("--tag", default=None, metavar="TAG", help="only the runs with this tag")
    q.add_argument("--format", choices=("table", "csv"), default="table",
                   help="table (readable, default) or csv on stdout")
    q.set_defaults(handler=cmd_runs_list)

    q = runs.add_parser("show", help="print a saved run's table and provenance")
    q.add_argument("run_id", metavar="ID", help="run id, a unique prefix of one, or 'latest'")
    _store_option(q)
    q.set_defaults(handler=cmd_runs_show)

    q = runs.add_parser("export", help="write a saved run's table as CSV or Parquet")
    q.add_argument("run_id", metavar="ID", help="run id, a unique prefix of one, or 'latest'")
    _store_option(q)
    q.add_argument("--format", choices=("csv", "parquet"), default=None,
                   help="csv (stdout unless --out) or parquet (needs --out); with --out the "
                   "default is the file's extension, else csv")
    q.add_argument("--out", default=None, metavar="PATH",
                   help="write to this file (- for stdout; a FIFO or device is written through)")
    q.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    q.set_defaults(handler=cmd_runs_export)

    q = runs.add_parser("rm", help="delete saved runs (by id; nothing else is ever deleted)")
    q.add_argument("run_ids", nargs="+", metavar="ID",
                   help="run id, a unique prefix of one, or 'latest'; every id is checked "
                   "before any run is removed")
    _store_option(q)
    q.set_defaults(handler=cmd_runs_rm)

    q = runs.add_parser("tag", help="add (or with --remove, remove) tags of a saved run")
    q.add_argument("run_id", metavar="ID", help="run id, a unique prefix of one, or 'latest'")
    q.add_argument("tags", nargs="*", metavar="TAG",
                   help="tags to add: up to 40 letters, digits and . _ : + -")
    q.add_argument("--remove", action="append", default=[], metavar="TAG",
                   help="a tag to remove (repeatable)")
    _store_option(q)
    q.set_defaults(handler=cmd_runs_tag)


def _store_option(p):
    add_store_option(p, saves=False)


def _warn_lines(caught):
    for w in caught:
        sys.stderr.write(f"hanasim: warning: {w.message}\n")


def cmd_runs_list(a):
    """The listing reads the store's index and stats the run files (see
    :mod:`hanasim.store_index`); it loads neither pandas, pyarrow nor numpy unless a run file
    has to be read (one the index does not describe), and formats whole columns, not one run
    at a time."""
    from .. import store_index as ix
    from ..store_place import store_location

    root, how = store_location(a.store)
    found = ix.scan(root)
    for _, message in found.bad:
        sys.stderr.write(f"hanasim: warning: {message}\n")
    if found.damaged:
        sys.stderr.write(f"hanasim: warning: the store's index {root / ix.INDEX_NAME} was "
                         f"damaged ({found.damaged}): "
                         + ("rebuilt from the run files\n" if found.rewritten else
                            "the runs were read from their files (it could not be rewritten)\n"))
    where = f"{os.path.abspath(root)} ({how})"
    every = runs = found.rows
    games = every.cols["game"]
    if a.game:
        name = _game_name(a.game, games)
        runs = runs.take(list(map(name.__eq__, runs.cols["game"])))
    if a.tag:
        tags = runs.cols["tags"]
        has = {t: isinstance(t, str) and a.tag in t.split(",") for t in set(tags)}
        runs = runs.take(list(map(has.__getitem__, tags)))
    if a.format == "csv":
        emit(lambda: _write_csv(runs, sys.stdout))
        return
    if not runs.n:
        if not every.n:
            print(f"no saved runs in {where}")
        elif a.tag:
            game = f"{_game_name(a.game, games)} " if a.game else ""
            print(f"no saved {game}runs tagged {a.tag!r} in {where} ({every.n} other "
                  f"run{'s' * (every.n != 1)})")
        else:  # the store is not empty: say what it holds (most runs first)
            held = collections.Counter(g for g in games if g is not None)
            shown = ", ".join(f"{g} ({n})" for g, n in held.most_common())
            print(f"no saved {_game_name(a.game, games)} runs in {where}; it holds "
                  f"{every.n} run{'s' * (every.n != 1)} of other games: {shown}")
        return
    print(f"{runs.n} saved run{'s' * (runs.n != 1)} in {where}")
    emit(lambda: print("\n".join(_list_lines(runs))))


#: the columns of ``runs list --format csv``
CSV_COLUMNS = ["id", "game", "date", "rounds", "seed", "policies", "rules", "wall_time_s", "tags"]


def _write_csv(runs, out) -> None:
    """The listing as CSV, as pandas writes it (a missing value is empty, a float its repr)."""
    import csv

    cols = [_values(runs, c) for c in CSV_COLUMNS]
    wall = CSV_COLUMNS.index("wall_time_s")
    cols[wall] = ["" if v is None or v != v else repr(v) for v in cols[wall]]
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    w.writerows(zip(*cols))


#: ``runs list`` lines are at most this wide: the policies column gives way first, then rules
LIST_WIDTH = 120


def _policies_shown(p) -> str:
    """A run's policies in a few words: one name when every player plays it ("random" for a
    3-player "random,random,random", which the column cut to "random,rando...")."""
    if p is None or (isinstance(p, float) and p != p):
        return ""
    parts = str(p).split(",")
    return parts[0] if len(set(parts)) == 1 else str(p)


def _missing(v) -> bool:
    """None, NaN or pandas' NA (a listing built from a DataFrame)."""
    return v is None or (isinstance(v, float) and v != v) or type(v).__name__ == "NAType"


def _values(runs, c) -> list:
    """Column ``c`` of index rows (:class:`hanasim.store_index.Rows`) or of a DataFrame from
    :func:`hanasim.store.list_runs`, as a list of Python values (None where missing)."""
    if hasattr(runs, "cols"):
        return runs.values(c)
    col = runs[c]
    values = col.tolist()
    if col.dtype == object:  # None or NaN where missing (comprehensions: no call per run)
        return [None if v is None or v != v else v for v in values]
    if col.hasnans:  # pandas' nullable integers: NA where missing
        return [None if m else v for v, m in zip(values, col.isna().tolist())]
    return values


def _list_lines(runs, width=LIST_WIDTH) -> list[str]:
    """The readable listing, one line per run: whole columns at a time (a value that repeats,
    a game, a rules text, is turned into text and padded once), no Python step per run; rules
    are shown as the preset and what differs from it.  The id says when the run was saved
    (UTC), so there is no date column.  ``runs``: index rows, or a DataFrame from
    :func:`hanasim.store.list_runs`."""
    shown_col = runs.cols.get("rules_shown") if hasattr(runs, "cols") else (
        runs["rules_shown"] if "rules_shown" in runs.columns else None)
    if shown_col is not None:  # the index's words: no game module loaded
        rules = _values(runs, "rules_shown")
        rules_text = {v: "" if v is None else v for v in set(rules)}
    else:  # one rules table per game, rules string and preset, not one per run
        rules = list(zip(_values(runs, "game"), _values(runs, "rules"), _values(runs, "preset")))
        rules_text = {key: _rules_shown(*key) for key in set(rules)}
    games, rounds, policies = (_values(runs, c) for c in ("game", "rounds", "policies"))
    seeds, tags = _values(runs, "seed"), _values(runs, "tags")
    # the columns: (values, their text) for the few distinct values of most columns, the text
    # itself for the two whose values nearly all differ
    cols = {
        "id": _values(runs, "id"),
        "game": (games, {g: "" if g is None else str(g) for g in set(games)}),
        "rounds": (rounds, {r: _count(r) for r in set(rounds)}),
        "seed": list(map(str, seeds)) if None not in seeds else _text(seeds),
        "policies": (policies, {p: _policies_shown(p) for p in set(policies)}),
        "rules": (rules, rules_text),
    }
    if any(map(isinstance, tags, repeat(str))):
        cols["tags"] = (tags, {t: t if isinstance(t, str) else "" for t in set(tags)})
    right = {"rounds", "seed"}
    lengths = {c: set(map(len, v)) if isinstance(v, list) else set(map(len, v[1].values()))
               for c, v in cols.items()}
    widths = {c: max([len(c), *lengths[c]]) for c in cols}
    for c, least in (("policies", 13), ("tags", 8), ("rules", 16)):  # until the line fits
        if c not in widths:
            continue
        over = sum(widths.values()) + 2 * (len(widths) - 1) - width
        if over > 0:
            widths[c] = max(least, widths[c] - over)

    def shown(v, w):  # cut to the column's width (only a column that was narrowed)
        return v if len(v) <= w else v[: w - 1] + "\u2026"

    padded = []
    for c, v in cols.items():
        w, pad = widths[c], str.rjust if c in right else str.ljust
        if isinstance(v, list):  # nearly every value differs (and is never cut)
            same = lengths[c] == {w}  # ids are often all of one length: nothing to pad
            padded.append([pad(c, w), *(v if same else map(pad, v, repeat(w)))])
        else:  # few distinct values: each cut and padded once
            values, text = v
            done = {k: pad(shown(t, w), w) for k, t in text.items()}
            padded.append([pad(c, w), *map(done.__getitem__, values)])
    return list(map(str.rstrip, map("  ".join, zip(*padded))))


def _text(values) -> list:
    """Values as text ('' where missing)."""
    return ["" if v is None else str(v) for v in values]


def _count(n) -> str:
    if _missing(n):
        return ""
    n = int(n)
    for unit, name in ((10**9, "G"), (10**6, "M"), (10**3, "k")):
        if n >= unit and n % unit == 0:
            return f"{n // unit}{name}"
    return f"{n:,}"


def _rules_shown(game, rules, preset) -> str:
    """A run's rules in a few words (see :func:`hanasim.rules_text.rules_shown`)."""
    from ..rules_text import rules_shown

    return rules_shown(game, rules, preset)


def _game_name(name, held) -> str:
    """``--game``: a game hanasim knows (any spelling ``hanasim games`` accepts) or one the
    store holds runs of (``held``: the games of its runs); anything else is a usage error
    naming both lists."""
    held = sorted({g for g in held if isinstance(g, str)})
    if name.strip().lower() in held:  # before loading the games (a second)
        return name.strip().lower()
    from ..games import UnknownGame, available_games, get_game

    try:
        return get_game(name).name
    except UnknownGame:
        raise ValueError(f"unknown game {name!r}; available games: "
                         f"{', '.join(available_games())}"
                         + (f" (the store holds runs of: {', '.join(held)})" if held else "")
                         ) from None


def cmd_runs_show(a):
    import pandas as pd

    from .. import store

    df = _load(store, a)

    def show():
        print(f"run {df.attrs.get('run_id')} (saved {df.attrs.get('saved_at')})")
        for key, value in df.attrs.items():
            if key not in ("run_id", "saved_at", "distributions", "solved"):
                print(f"  {key}: {value}")
        for s in df.attrs.get("solved") or ():
            print(f"  solved: {s.get('message')}")
        # a comparison's variant columns and a sweep's rule columns come first, as saved
        lead = [c for c in (df.attrs.get("swept") or []) if c in df.columns]
        lead += [c for c in ("variant", "kind") if c in df.columns]
        # a tournament's rows are pairings: without them its rows cannot be told apart
        lead += [c for c in ("policy", "opponent") if c in df.columns]
        cols = lead + [c for c in ["quantity", "estimate", "std_error", "ci_low", "ci_high",
                                   "n", "reference", "significant"] if c in df.columns]
        shown = df
        if "kind" in df.columns:  # a comparison: its answer (the differences) first
            order = df["kind"].map({"difference": 0}).fillna(1)
            shown = df.iloc[order.to_numpy().argsort(kind="stable")]
        print("estimates with 99.9% intervals"
              + ("; differences from the baseline first" if "kind" in df.columns else ""))
        with pd.option_context("display.max_rows", None, "display.width", 200,
                               "display.max_colwidth", 60):
            print(shown[cols or list(df.columns)].to_string(
                index=False, float_format=lambda v: f"{v:.6g}"))
    emit(show)


def _load(store, a):
    """The run asked for; a file skipped on the way (a damaged newer file passed over by
    ``latest``) is named on stderr."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", store.StoreWarning)
        df = store.load_run(a.run_id, a.store)
    _warn_lines(caught)
    return df


def cmd_runs_rm(a):
    from .. import store

    root = store.store_path(a.store)
    for run_id in store.remove_runs(a.run_ids, a.store):
        print(f"removed run {run_id} from {root}", file=sys.stderr)


def cmd_runs_tag(a):
    from .. import store

    if not a.tags and not a.remove:
        raise ValueError("give tags to add, or --remove TAG")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", store.StoreWarning)
        path = store._resolve(a.run_id, store.store_path(a.store))
    _warn_lines(caught)
    run_id = path.name[: -len(".parquet")]
    tags = store.tag_run(run_id, add=a.tags, remove=a.remove, store=a.store)
    print(f"run {run_id} tags: {', '.join(tags) or '(none)'}")


def cmd_runs_export(a):
    from .. import store

    if a.format == "parquet" and not a.out:
        raise ValueError("--format parquet needs --out PATH (- for stdout)")
    fmt = a.format or "csv"
    if a.out is not None:  # before loading: a refused output is reported first
        from ..outputs import check_outputs

        fmt = store.output_format(a.out, a.format)
        check_outputs({"--out": a.out}, force=a.force, store=store.store_path(a.store))
    df = _load(store, a)
    if a.out is not None:
        kind = store.write_table(df, a.out, fmt, force=a.force,
                                 store=store.store_path(a.store))
        if kind != "stdout":
            print(f"wrote {len(df)} rows of run {df.attrs['run_id']} to {a.out} ({fmt})"
                  + (" (replaced the existing file)" if kind == "replace" else ""),
                  file=sys.stderr)
    else:
        emit(lambda: df.to_csv(sys.stdout, index=False))
