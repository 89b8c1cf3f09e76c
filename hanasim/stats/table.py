"""Tidy tables: one row per quantity, with its estimate, standard error and interval."""
from __future__ import annotations

import numpy as np
import pandas as pd

from . import intervals

COLUMNS = ["game", "quantity", "estimate", "std_error", "ci_low", "ci_high", "n"]


def prop(name, k, n):
    return (name, intervals.proportion(int(k), int(n)))


def pooled(name, total, total_sq, units, per_unit):
    return (name, intervals.pooled_proportion(int(total), int(total_sq), int(units), per_unit))


def mean(name, total, total_sq, n):
    return (name, intervals.mean(int(total), int(total_sq), int(n)))


def sd(name, total, total_sq, n):
    return (name, intervals.std_dev(int(total), int(total_sq), int(n)))


def shifted_mean(name, total, total_sq, n, shift):
    """Mean of ``x - shift`` from the sums of x (e.g. card points against par)."""
    total, total_sq, n = int(total), int(total_sq), int(n)
    return mean(name, total - shift * n, total_sq - 2 * shift * total + shift * shift * n, n)


def scaled(row, unit):
    """A mean's row for ``x / unit`` (e.g. scores counted in thirds of a point)."""
    if unit == 1:
        return row
    name, st = row
    st = dict(st)
    for k in ("estimate", "std_error", "ci_low", "ci_high"):
        st[k] = st[k] / unit
    return (name, st)


def add_labels(df: pd.DataFrame, game=None, players: int | None = None) -> pd.DataFrame:
    """Add the ``seat`` (the seat or player a quantity is about, "" for the whole table) and a
    human ``label`` column (``stats.labels``), in place; returns ``df``.  ``game`` and
    ``players`` (seated) name seats by what they are at that table size."""
    from .labels import label_of, seat_of

    df["seat"] = [seat_of(q) for q in df["quantity"]]
    df["label"] = [label_of(q, game, players) for q in df["quantity"]]
    return df


def players_of(metadata: dict) -> int | None:
    """The ``players`` rule of a run's rules string, if it has one."""
    from ..rules import parse_rules_string

    v = parse_rules_string(str(metadata.get("rules", "") or "")).get("players")
    try:
        return int(v) if v is not None else None
    except ValueError:
        return None


def build(game: str, rows, metadata: dict) -> pd.DataFrame:
    """A tidy DataFrame from ``(quantity, stats)`` rows; metadata goes to columns and ``attrs``.

    Columns: ``COLUMNS``, then ``seat`` and ``label``, then the run's rounds, seed, policies and
    rules."""
    df = pd.DataFrame([dict(game=game, quantity=q, **s) for q, s in rows], columns=COLUMNS)
    df["n"] = df["n"].astype("int64")
    add_labels(df, game, players_of(metadata))
    for key in ("rounds", "seed", "policies", "rules", "given", "where"):
        if key in metadata:  # given, where: only a run on conditioned deals has them
            df[key] = metadata[key]
    if "seed" in metadata:  # uint64 for every seed, so tables of any seeds concatenate exactly
        df["seed"] = np.uint64(metadata["seed"])
    df.attrs.update(metadata)
    return df
