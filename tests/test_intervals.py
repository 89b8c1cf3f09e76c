"""The interval arithmetic against scipy's own implementations."""
import math

import numpy as np
import pytest
from scipy import stats

from hanasim.stats import intervals


@pytest.mark.parametrize("k, n", [(0, 10), (3, 10), (10, 10), (123, 1000), (7, 1_000_000)])
def test_wilson_matches_scipy(k, n):
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.999, method="wilson")
    lo, hi = intervals.wilson(k / n, n)
    assert lo == pytest.approx(ci.low, abs=1e-12) and hi == pytest.approx(ci.high, abs=1e-12)


def test_mean_matches_scipy_t_interval():
    x = np.random.default_rng(0).integers(-100, 100, size=500)
    r = intervals.mean(int(x.sum()), int((x * x).sum()), len(x))
    lo, hi = stats.t.interval(0.999, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert r["estimate"] == pytest.approx(x.mean())
    assert (r["ci_low"], r["ci_high"]) == pytest.approx((lo, hi))


@pytest.mark.parametrize("level", [0.999, 0.95])
def test_std_dev_interval_is_the_chi_square_interval(level):
    """The chi-square quantiles are cached per (level, degrees of freedom): each level and each
    n still gets its own interval, equal to one computed afresh."""
    for n in (2, 10, 10, 1000, 1000.0, 123_457):
        total, total_sq = 3 * n, 20 * n
        r = intervals.std_dev(total, total_sq, n, level)
        var = (total_sq - total * total / n) / (n - 1)
        a = (1 - level) / 2
        assert r["ci_low"] == math.sqrt((n - 1) * var / intervals.chi2_quantile(1 - a, n - 1))
        assert r["ci_high"] == math.sqrt((n - 1) * var / intervals.chi2_quantile(a, n - 1))


@pytest.mark.parametrize("level", [0.999, 0.9])
def test_quantile_interval_ranks_are_the_binomial_ranks(level):
    """The ranks of a quantile's interval are cached per (n, p, level): each still equals the
    binomial quantiles computed afresh."""
    from hanasim.stats import distribution

    a = (1 - level) / 2
    for n in (1, 7, 7, 50_000, 1_234_567):
        for p in distribution.QUANTILES:
            lo, hi = distribution._interval_ranks(n, p, level)
            assert lo == max(1, intervals.binom_quantile(a, n, p))
            assert hi == min(n, intervals.binom_quantile(1 - a, n, p) + 1)


def test_pooled_proportion_design_effect():
    # Two perfectly correlated items per unit: the information is that of `units` trials only.
    units, k = 1000, 300
    r = intervals.pooled_proportion(total=2 * k, total_sq=4 * k, units=units, per_unit=2)
    single = intervals.proportion(k, units)
    assert r["estimate"] == pytest.approx(0.3)
    assert r["std_error"] == pytest.approx(single["std_error"] * math.sqrt(units / (units - 1)))
    # Independent items: the standard error is that of 2*units trials (up to n-1 vs n).
    rng = np.random.default_rng(1)
    x = rng.random((200_000, 2)) < 0.2
    per_unit = x.sum(axis=1)
    r = intervals.pooled_proportion(int(per_unit.sum()), int((per_unit ** 2).sum()), len(x), 2)
    p = r["estimate"]
    assert r["std_error"] == pytest.approx(math.sqrt(p * (1 - p) / x.size), rel=0.02)


def test_wilson_interval_covers_about_999_in_1000():
    """Coverage of the reported interval over many small independent experiments."""
    rng = np.random.default_rng(2)
    p, n, reps = 0.03, 400, 20000
    ks = rng.binomial(n, p, size=reps)
    covered = sum(lo <= p <= hi for lo, hi in (intervals.wilson(k / n, n) for k in ks))
    # Expected misses 20 (0.1%); binomial tolerance: fail only far outside that.
    assert reps - covered <= stats.binom.ppf(0.9999, reps, 0.001) + 10


def test_quantile_rows_equal_the_plain_definition():
    """quantile_rows searches the cumulative counts once for all five quantiles and their
    interval ends: the same values as ranking each one alone (the rank-th smallest score,
    NaN in an end bin), for scores inside the range, in the end bins, and no scores at all."""
    from hanasim.engine.tally import HIST_BINS, HIST_LO
    from hanasim.stats import distribution as D

    def plain(counts, p, unit):
        cum = np.cumsum(counts)
        n = int(cum[-1])
        if n == 0:
            return dict(estimate=math.nan, std_error=math.nan, ci_low=math.nan,
                        ci_high=math.nan, n=0)

        def at(rank):
            i = int(np.searchsorted(cum, rank, side="left"))
            return math.nan if i <= 0 or i >= HIST_BINS - 1 else (HIST_LO + i) / unit

        a = (1 - intervals.LEVEL) / 2
        est = at(max(1, math.ceil(p * n)))
        lo = at(max(1, intervals.binom_quantile(a, n, p)))
        hi = at(min(n, intervals.binom_quantile(1 - a, n, p) + 1))
        se = (math.nan if math.isnan(lo) or math.isnan(hi)
              else (hi - lo) / (2 * intervals.z_value()))
        return dict(estimate=est, std_error=se, ci_low=lo, ci_high=hi, n=n)

    rng = np.random.default_rng(5)
    cases = [np.zeros(HIST_BINS, dtype=np.int64)]
    for size, lo, hi in ((1, 0, 1), (40, -30, 30), (5000, -200, 400), (300, -10**4, 10**4)):
        scores = np.clip(rng.integers(lo, hi, size) - HIST_LO, 0, HIST_BINS - 1)
        cases.append(np.bincount(scores, minlength=HIST_BINS))
    for counts in cases:
        for unit in (1, 3):
            rows = D.quantile_rows("x", counts, unit)
            assert [name for name, _ in rows] == ["x.q05", "x.q25", "x.q50", "x.q75", "x.q95"]
            for (_, got), p in zip(rows, D.QUANTILES):
                want = plain(counts, p, unit)
                assert got.keys() == want.keys()
                for k in want:
                    assert got[k] == want[k] or (math.isnan(got[k]) and math.isnan(want[k]))
