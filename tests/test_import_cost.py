"""What importing hanasim costs: every command and every process (a test's CLI run, a Dask
worker, a Jupyter kernel) pays it before any work.  Importing the API must load no kernel (a
kernel called at import started numba's compiler, about half a CPU second) and no
scipy.stats (about 0.4 CPU s; the quantiles come from scipy.special)."""
import json
import subprocess
import sys

PROBE = """
import json, sys
import numba
import hanasim.api, hanasim.cli
loaded = sorted(
    f"{m}.{name}" for m, mod in list(sys.modules.items()) if m.startswith("hanasim")
    for name, obj in list(vars(mod).items())
    if isinstance(obj, numba.core.dispatcher.Dispatcher) and obj.overloads)
print(json.dumps({"loaded": loaded, "scipy.stats": "scipy.stats" in sys.modules,
                  "scipy.optimize": "scipy.optimize" in sys.modules}))
"""


def test_importing_hanasim_loads_no_kernel_and_no_scipy_stats():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         check=True).stdout
    found = json.loads(out.strip().splitlines()[-1])
    assert found == {"loaded": [], "scipy.stats": False, "scipy.optimize": False}, found


def test_the_quantiles_equal_scipy_stats():
    from scipy import stats

    from hanasim.stats import intervals as iv

    for level in (0.9, 0.99, 0.999):
        assert iv.z_value.__wrapped__(level) == stats.norm.ppf(0.5 + level / 2)
        for df in (1, 2, 7, 100, 99_999, 10**7):
            assert iv.t_value.__wrapped__(level, df) == stats.t.ppf(0.5 + level / 2, df)
    # (no q with a tie: at q = 0.5, n = 99, p = 0.5 the distribution function is exactly 0.5
    # at 49, which is then the quantile; scipy.stats's rounding says 50)
    for q in (0.0005, 0.05, 0.3, 0.9995):
        for df in (1, 3, 30, 1000, 10**6):
            assert iv.chi2_quantile(q, df) == stats.chi2.ppf(q, df)
        for n in (1, 2, 10, 99, 1000, 123_457, 10**6, 5 * 10**7):
            for p in (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99):
                assert iv.binom_quantile(q, n, p) == int(stats.binom.ppf(q, n, p)), (q, n, p)
