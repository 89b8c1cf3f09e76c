"""Paired comparison of variants (house rules, policies) run on common random numbers.

Every variant is run with the same seed, so session ``s`` of every variant draws from the same
random stream: the same deals, and the same random decisions as far as the variants agree.
The run is cut into ``B`` equal blocks of consecutive sessions; blocks are independent
replicates, so the standard error of a difference is the spread of the per-block differences
over sqrt(B) (batch means), which keeps the benefit of the pairing.
"""
from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from .intervals import LEVEL, t_value

#: a significant difference smaller than this many standard deviations of the quantity in one
#: round (one unit of its ``n``) is "significant but negligible": over 100 rounds it moves a
#: player's total by less than a tenth of the spread luck gives it (luck's spread over 100
#: rounds is 10 SDs of a round; 100 x 0.01 SD is one).  ``hanasim compare --negligible``.
NEGLIGIBLE = 0.01


def size_and_word(diff: float, base_se: float, base_n: float, significant: bool,
                  negligible: float = NEGLIGIBLE) -> tuple[float, str]:
    """A difference's size in standard deviations of one round (``size_sd``: the baseline's
    standard error times sqrt(n) is the spread of the quantity in one round, or one hand,
    one decision...) and its word: "no detectable change", "significant but negligible"
    (size below ``negligible``) or "significant"."""
    sd = base_se * math.sqrt(base_n) if base_n and base_n > 0 else math.nan
    size = diff / sd if sd and sd > 0 and not math.isnan(sd) else (
        0.0 if diff == 0 else math.nan)
    if not significant:
        return size, "no detectable change"
    if not math.isnan(size) and abs(size) < negligible:
        return size, "significant but negligible"
    return size, "significant"


def adds_up(quantity: str) -> bool:
    """Whether a difference in ``quantity`` adds up over rounds (a mean or a rate per round,
    hand, decision or game), so that its size over 100 rounds means something: not a
    quantile (``...q05``), a spread (``...sd``) or a fair value (``fair_par``, ``fair_burden``:
    the rule value that would make a mean zero)."""
    last = quantity.rsplit(".", 1)[-1]
    return not (re.fullmatch(r"q\d\d", last) or last == "sd" or
                any(part.startswith("fair_") for part in quantity.split(".")))


def block_estimates(quantities, counters, rules) -> dict[str, np.ndarray]:
    """Per-block point estimates of every quantity: ``{quantity: array[B]}``."""
    blocks = counters["blocks"]
    n_blocks = next(iter(blocks.values())).shape[0]
    extra = {k: v for k, v in counters.items() if k != "blocks" and not isinstance(v, np.ndarray)}
    out: dict[str, list] = {}
    for b in range(n_blocks):
        c = {k: v[b] for k, v in blocks.items()}
        c.update(extra)
        for name, row in quantities(c, rules):
            out.setdefault(name, []).append(row["estimate"])
    return {k: np.asarray(v, dtype=float) for k, v in out.items()}


def paired_difference(total_diff: float, block_diffs: np.ndarray, level: float = LEVEL) -> dict:
    """Difference with a batch-means standard error and a t interval over the blocks."""
    d = block_diffs[~np.isnan(block_diffs)]
    n = len(d)
    if n < 2:
        return dict(estimate=total_diff, std_error=math.nan, ci_low=math.nan, ci_high=math.nan)
    se = float(np.std(d, ddof=1) / math.sqrt(n))
    t = t_value(level, n - 1)
    return dict(estimate=total_diff, std_error=se, ci_low=total_diff - t * se,
                ci_high=total_diff + t * se)


def comparison_table(game: str, variants: list[tuple[str, list, dict]],
                     negligible: float = NEGLIGIBLE) -> pd.DataFrame:
    """Tidy comparison from ``(label, total rows, block estimates)`` per variant, the first
    being the baseline.  ``kind`` is ``value`` (the variant's own estimate) or ``difference``
    (variant − baseline, with ``significant`` when its interval excludes 0, ``per_100``: the
    difference over 100 rounds (or hands, decisions: the quantity's unit; NaN where it does
    not add up over rounds: :func:`adds_up`), ``size_sd``: in
    standard deviations of one round, and ``verdict``: see :func:`size_and_word`)."""
    base_label, base_rows, base_blocks = variants[0]
    base = dict(base_rows)
    records = []
    for label, rows, blocks in variants:
        for name, r in rows:
            records.append(dict(game=game, quantity=name, variant=label, baseline=base_label,
                                kind="value", **r, significant=None))
        if label == base_label:
            continue
        for name, r in rows:
            if name not in base or name not in blocks or name not in base_blocks:
                continue
            d = paired_difference(r["estimate"] - base[name]["estimate"],
                                  blocks[name] - base_blocks[name])
            sig = (not math.isnan(d["ci_low"])) and not (d["ci_low"] <= 0 <= d["ci_high"])
            size, word = size_and_word(d["estimate"], base[name]["std_error"],
                                       base[name]["n"], sig, negligible)
            records.append(dict(game=game, quantity=name, variant=label, baseline=base_label,
                                kind="difference", **d, n=r["n"], significant=sig,
                                per_100=100 * d["estimate"] if adds_up(name) else math.nan,
                                size_sd=size, verdict=word))
    return pd.DataFrame(records)
