"""Distributions of scores from integer histograms: quantile rows and the companion table.

A game keeps histograms of whole-number scores in its counters (``engine.tally.hist_add``: bin
``i`` counts the score ``HIST_LO + i``, in the game's score unit, e.g. thirds of a point).  This
module turns one into

* quantile rows for the tidy table (``<name>.q05`` ... ``<name>.q95``), each with a
  distribution-free 99.9% interval from the order statistics (the rank of the p-quantile among
  n independent scores is binomial(n, p): Conover, *Practical Nonparametric Statistics*, 3.2);
* a trimmed histogram for ``df.attrs["distributions"]``, which :func:`table` turns into the
  companion tidy table (one row per distribution and score) that charts are drawn from.
"""
from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd

from ..engine.tally import HIST_BINS, HIST_LO
from .intervals import LEVEL, binom_quantile, z_value

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


@functools.lru_cache(maxsize=4096)
def _interval_ranks(n: int, p: float, level: float) -> tuple[int, int]:
    """The ranks of the interval's ends among n scores.  Cached: a compare's per-block
    estimates ask for the same few (n, p) thousands of times (every histogram of a block
    counts the same rounds), and each binomial quantile is a few special-function calls."""
    a = (1 - level) / 2
    return max(1, binom_quantile(a, n, p)), min(n, binom_quantile(1 - a, n, p) + 1)


def quantile(counts, p: float, unit: int = 1, level: float = LEVEL) -> dict:
    """The p-quantile (the smallest score with at least a share p at or below it) of the scores
    counted in ``counts``, with a distribution-free interval from the binomial ranks.
    ``std_error`` is the interval's half-width over z (the interval is what to use)."""
    return _quantiles(counts, (p,), unit, level)[0]


def _quantiles(counts, ps, unit: int, level: float) -> list:
    """:func:`quantile` of each p in ``ps``: one cumulative sum and one search for them all
    (a compare asks for five quantiles of dozens of histograms in each of 100 blocks)."""
    counts = np.asarray(counts, dtype=np.int64)
    cum = np.cumsum(counts)
    n = int(cum[-1]) if len(cum) else 0
    if n == 0:
        return [dict(estimate=math.nan, std_error=math.nan, ci_low=math.nan, ci_high=math.nan,
                     n=0) for _ in ps]
    ranks = []
    for p in ps:
        ranks.append(max(1, math.ceil(p * n)))
        ranks.extend(_interval_ranks(n, p, level))
    # the score of the rank-th smallest value (1-based); NaN in an end bin, which also holds
    # every score beyond the histogram's range
    values = [math.nan if i <= 0 or i >= HIST_BINS - 1 else (HIST_LO + i) / unit
              for i in np.searchsorted(cum, ranks, side="left").tolist()]
    out = []
    for j in range(len(ps)):
        est, lo, hi = values[3 * j:3 * j + 3]
        se = ((hi - lo) / (2 * z_value(level)) if not (math.isnan(lo) or math.isnan(hi))
              else math.nan)
        out.append(dict(estimate=est, std_error=se, ci_low=lo, ci_high=hi, n=n))
    return out


def quantile_rows(name: str, counts, unit: int = 1) -> list:
    """``(f"{name}.q05", stats)`` ... for :data:`QUANTILES`."""
    return [(f"{name}.q{round(100 * p):02d}", q)
            for p, q in zip(QUANTILES, _quantiles(counts, QUANTILES, unit, LEVEL))]


def share_above(counts, threshold, unit: int = 1) -> int:
    """How many counted scores are strictly above ``threshold`` points."""
    values = (HIST_LO + np.arange(HIST_BINS)) / unit
    return int(np.asarray(counts)[values > threshold].sum())


def trimmed(counts, unit: int = 1) -> dict:
    """A histogram for ``df.attrs``: ``start`` (the first counted score, points), ``step`` (one
    bin, points) and ``counts`` from the first to the last non-empty bin (JSON-friendly)."""
    counts = np.asarray(counts, dtype=np.int64)
    nz = np.flatnonzero(counts)
    if len(nz) == 0:
        return dict(start=0.0, step=1 / unit, counts=[])
    a, b = int(nz[0]), int(nz[-1])
    return dict(start=(HIST_LO + a) / unit, step=1 / unit,
                counts=[int(x) for x in counts[a:b + 1]])


def table(df: pd.DataFrame) -> pd.DataFrame:
    """The companion distribution table of a :func:`hanasim.simulate` table: one row per
    distribution (``round_score.dealer``, ``game.first_dealer.total``...) and score, with
    ``count``, ``share`` and ``cumulative`` share, and the ``seat`` and ``label`` of the
    distribution.  Empty when the table holds no distributions (a CSV keeps no attrs)."""
    from .labels import label_of, seat_of

    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"distributions needs a table from hanasim.simulate (a pandas "
                        f"DataFrame), got {type(df).__name__}")
    rows = []
    for name, h in (df.attrs.get("distributions") or {}).items():
        counts = np.asarray(h["counts"], dtype=np.int64)
        total = counts.sum()
        if total == 0:
            continue
        scores = h["start"] + h["step"] * np.arange(len(counts))
        keep = counts > 0
        cum = np.cumsum(counts) / total
        rows.append(pd.DataFrame(dict(
            game=df.attrs.get("game"), distribution=name, seat=seat_of(name),
            label=label_of(name, df.attrs.get("game")), score=scores[keep],
            count=counts[keep], share=counts[keep] / total, cumulative=cum[keep])))
    cols = ["game", "distribution", "seat", "label", "score", "count", "share", "cumulative"]
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=cols)
