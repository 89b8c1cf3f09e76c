"""Sweeps: a quantity as a function of a rule's value, and where it crosses a target.

Every value of a sweep is simulated with the same seed, so every value sees the same deals
(common random numbers): the curve is smooth where the truth is, and a crossing is located far
more precisely than independent runs would allow.

:func:`solve` finds where the estimated curve crosses the target (linear interpolation between
the swept values, root by :func:`scipy.optimize.brentq`) and an interval by inverting the
pointwise intervals: the values at which the target lies inside a value's 99.9% interval, i.e.
where the curves of ``ci_low`` and ``ci_high`` cross the target.  For a quantity that moves
linearly with the value (a seat's mean score against its own par) this is exactly the
interval of the corresponding fair value.  An interval end outside the swept range is
reported as unknown (NaN) and said so; sweep a wider range.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

COLUMNS = ["game", "quantity", "estimate", "std_error", "ci_low", "ci_high", "n"]


def sweep_table(game: str, swept: list, variants: list) -> pd.DataFrame:
    """A tidy table from ``(values {rule: value}, label, rows)`` per swept combination."""
    records = []
    for values, label, rows in variants:
        for name, r in rows:
            records.append(dict(**{k: _plain(v) for k, v in values.items()}, game=game,
                                quantity=name, **r, variant=label))
    return pd.DataFrame(records, columns=list(swept) + COLUMNS + ["variant"])


def _plain(v):
    """A per-seat value (a tuple) as its text, so a column holds one kind of thing."""
    return ",".join(map(str, v)) if isinstance(v, tuple) else v


def _crossings(x, y, target) -> list:
    """Every x where the piecewise-linear curve through (x, y) meets ``target``."""
    from scipy.optimize import brentq  # 0.14 CPU s to import: only for a sweep that solves

    out = []
    f = np.asarray(y, dtype=float) - target
    for i in range(len(x) - 1):
        a, b = f[i], f[i + 1]
        if np.isnan(a) or np.isnan(b):
            continue
        if a == 0:
            out.append(float(x[i]))
        elif a * b < 0:
            x0, x1 = float(x[i]), float(x[i + 1])
            out.append(brentq(lambda v: np.interp(v, [x0, x1], [a, b]), x0, x1))
    if len(f) and f[-1] == 0:
        out.append(float(x[-1]))
    return sorted(set(out))


def _nearest(points, x0):
    """The crossing of a band curve that belongs to the estimate's crossing at ``x0``."""
    return min(points, key=lambda p: abs(p - x0)) if points else math.nan


def solve(df: pd.DataFrame, quantity: str, target: float = 0.0) -> dict:
    """Where ``quantity`` crosses ``target`` along a sweep's one swept rule.

    Returns a dict: ``rule``, ``quantity``, ``target``, ``value`` (the crossing; NaN when the
    curve does not cross within the swept range), ``ci_low``, ``ci_high`` (the values where
    the 99.9% band crosses; NaN when beyond the range), ``crossings`` (all crossings, when the
    curve crosses more than once) and ``message`` (one sentence saying it)."""
    swept = list(df.attrs.get("swept") or [])
    if len(swept) != 1:
        raise ValueError(f"solve needs a sweep of exactly one rule, this one sweeps "
                         f"{len(swept)}: {', '.join(swept) or 'none'}")
    rule = swept[0]
    rows = df[df["quantity"] == quantity]
    if rows.empty:
        known = ", ".join(sorted(set(df["quantity"]))[:8])
        raise ValueError(f"solve: no quantity {quantity!r} in this sweep (e.g. {known}, ...)")
    try:
        x = rows[rule].astype(float).to_numpy()
    except (TypeError, ValueError):
        raise ValueError(f"solve needs a numeric rule; {rule!r} takes named values") from None
    order = np.argsort(x)
    x = x[order]
    est, lo, hi = (rows[c].to_numpy(float)[order] for c in ("estimate", "ci_low", "ci_high"))
    target = float(target)
    out = dict(rule=rule, quantity=quantity, target=target, value=math.nan, ci_low=math.nan,
               ci_high=math.nan, crossings=[])
    roots = _crossings(x, est, target)
    span = f"{rule} from {x[0]:g} to {x[-1]:g}"
    if not roots:
        out["message"] = (f"{quantity} does not cross {target:g} for {span} (it goes from "
                          f"{est[0]:.4g} to {est[-1]:.4g}): sweep a wider range")
        return out
    v = roots[0]
    ends = [_nearest(_crossings(x, lo, target), v), _nearest(_crossings(x, hi, target), v)]
    below = [e for e in ends if not math.isnan(e) and e <= v]
    above = [e for e in ends if not math.isnan(e) and e >= v]
    # a band curve that does not cross within the range leaves that end unknown
    a = min(below) if below else math.nan
    b = max(above) if above else math.nan
    out.update(value=v, ci_low=a, ci_high=b, crossings=roots)
    lo_text = f"{a:.4g}" if not math.isnan(a) else f"below {x[0]:g}"
    hi_text = f"{b:.4g}" if not math.isnan(b) else f"above {x[-1]:g}"
    text = (f"{quantity} = {target:g} at {rule} = {v:.4g} (99.9% CI {lo_text} to {hi_text})")
    if len(roots) > 1:
        text += f"; it crosses {len(roots)} times: " + ", ".join(f"{r:.4g}" for r in roots)
    if math.isnan(a) or math.isnan(b):
        text += "; the interval reaches beyond the swept range: sweep a wider range"
    out["message"] = text
    return out
