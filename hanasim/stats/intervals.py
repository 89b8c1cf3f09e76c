"""Estimates with standard errors and confidence intervals from integer counters.

Every simulated quantity reaches this module as integer sums (counts, sums, sums of squares), so
tables are exact functions of the counters and identical whatever the thread count.
"""
from __future__ import annotations

import functools
import math

# scipy.special, not scipy.stats: the same functions scipy.stats calls for these quantiles,
# without its import (about 0.4 CPU s, paid by every command and process that builds a table)
from scipy import special

LEVEL = 0.999  # the confidence level of every interval hanasim reports


@functools.lru_cache(maxsize=None)
def z_value(level: float = LEVEL) -> float:
    # cached: scipy's ppf costs about a millisecond a call, and a compare's table asks for
    # the same quantile thousands of times
    return float(special.ndtri(0.5 + level / 2))  # scipy.stats.norm.ppf


@functools.lru_cache(maxsize=4096)
def t_value(level: float, df: int) -> float:
    """The two-sided ``level`` quantile of Student's t with ``df`` degrees of freedom."""
    return float(special.stdtrit(df, 0.5 + level / 2))  # scipy.stats.t.ppf


def chi2_quantile(q: float, df: int) -> float:
    """The ``q`` quantile of the chi-square distribution with ``df`` degrees of freedom
    (as ``scipy.stats.chi2.ppf`` computes it)."""
    return 2.0 * float(special.gammaincinv(df / 2, q))


@functools.lru_cache(maxsize=4096)
def _chi2_ends(level: float, df) -> tuple[float, float]:
    """The chi-square quantiles at 1 - a and a (a = (1 - level) / 2) with ``df`` degrees of
    freedom, for :func:`std_dev`; cached: a compare's per-block estimates ask for the same
    few thousands of times."""
    a = (1 - level) / 2
    return chi2_quantile(1 - a, df), chi2_quantile(a, df)


def binom_quantile(q: float, n: int, p: float) -> int:
    """The ``q`` quantile of the binomial distribution (``n`` trials, success rate ``p``): the
    smallest k with P(X <= k) >= q, as ``scipy.stats.binom.ppf`` (0 < q < 1, 0 < p < 1)."""
    k = max(0, min(n, math.ceil(float(special.bdtrik(q, n, p)))))
    while k > 0 and special.bdtr(k - 1, n, p) >= q:
        k -= 1
    while k < n and special.bdtr(k, n, p) < q:
        k += 1
    return k


def wilson(p: float, n: float, level: float = LEVEL) -> tuple[float, float]:
    """Wilson score interval for a proportion ``p`` observed on ``n`` (possibly effective) trials."""
    if n <= 0:
        return (math.nan, math.nan)
    z = z_value(level)
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(max(p * (1 - p) / n + z2n / (4 * n), 0.0)) / (1 + z2n)
    # at p = 0 (or 1) the bound is exactly 0 (or 1); the formula leaves a rounding residue
    return (0.0 if p <= 0 else max(0.0, centre - half), 1.0 if p >= 1 else min(1.0, centre + half))


def proportion(k: int, n: int, level: float = LEVEL) -> dict:
    """Independent trials: estimate, standard error and Wilson interval."""
    p = k / n if n else math.nan
    se = math.sqrt(p * (1 - p) / n) if n else math.nan
    lo, hi = wilson(p, n, level)
    return dict(estimate=p, std_error=se, ci_low=lo, ci_high=hi, n=n)


def pooled_proportion(total: int, total_sq: int, units: int, per_unit: int,
                      level: float = LEVEL) -> dict:
    """A proportion over ``per_unit`` items of each of ``units`` independent units (e.g. the
    hands of a deal): the items of one unit are not independent, so the standard error comes
    from the per-unit counts (sum and sum of squares) and the Wilson interval uses the
    effective number of trials ``p(1-p)/se**2`` (Kish's design effect)."""
    n_items = units * per_unit
    p = total / n_items if n_items else math.nan
    if units < 2:
        return dict(estimate=p, std_error=math.nan, ci_low=math.nan, ci_high=math.nan, n=n_items)
    var_unit = max((total_sq - total * total / units) / (units - 1), 0.0)
    se = math.sqrt(var_unit / units) / per_unit
    n_eff = p * (1 - p) / (se * se) if se > 0 else n_items
    lo, hi = wilson(p, n_eff, level)
    return dict(estimate=p, std_error=se, ci_low=lo, ci_high=hi, n=n_items)


def mean(total: float, total_sq: float, n: int, level: float = LEVEL) -> dict:
    """Mean of ``n`` independent values from their sum and sum of squares (t interval)."""
    if n < 2:
        return dict(estimate=total / n if n else math.nan, std_error=math.nan,
                    ci_low=math.nan, ci_high=math.nan, n=n)
    m = total / n
    var = max((total_sq - total * total / n) / (n - 1), 0.0)
    se = math.sqrt(var / n)
    t = t_value(level, int(n - 1))
    return dict(estimate=m, std_error=se, ci_low=m - t * se, ci_high=m + t * se, n=n)


def std_dev(total: float, total_sq: float, n: int, level: float = LEVEL) -> dict:
    """Standard deviation with an interval from the chi-square distribution (normal theory;
    for a spread of round scores over millions of rounds it is a description, not a test)."""
    if n < 2:
        return dict(estimate=math.nan, std_error=math.nan, ci_low=math.nan, ci_high=math.nan, n=n)
    var = max((total_sq - total * total / n) / (n - 1), 0.0)
    sd = math.sqrt(var)
    chi_hi, chi_lo = _chi2_ends(level, n - 1)
    lo = math.sqrt((n - 1) * var / chi_hi)
    hi = math.sqrt((n - 1) * var / chi_lo)
    return dict(estimate=sd, std_error=sd / math.sqrt(2 * (n - 1)), ci_low=lo, ci_high=hi, n=n)
