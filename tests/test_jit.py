"""``engine/jit.py``: a ``@hot`` helper is compiled for kernels as a twin (no wrappers, no cache
file of its own, literal arguments typed as plain integers) and stays callable from Python; the
IR inliner's shortcuts (a callee translated once per compile, copied once per site) inline the
same code at every site."""
import numpy as np
from numba import njit, types

from hanasim.engine.jit import hot


@hot
def _plus(x, k):
    return x + k


@njit
def _plus_twice(x, n):
    return _plus(x, 0) + _plus(x, n)  # a constant at one site, a variable at the other


def test_a_helper_is_compiled_once_for_a_constant_and_a_variable_argument():
    assert _plus_twice(3, 4) == 10
    # one compile of the kernels' twin, typed without the literal 0
    assert _plus._inner.signatures == [(types.int64, types.int64)]
    # the kernels' twin is not the dispatcher Python calls: no Python wrapper was compiled
    assert _plus.signatures == []


def test_a_helper_stays_callable_from_python():
    assert _plus(1, 2) == 3
    assert _plus(np.uint64(5), np.uint64(1)) == 6


@hot(inline="always")
def _scaled(a, i, k):
    t = a[i] * k
    u = t + i
    return u


@hot(inline="always")
def _both(a, k):
    return _scaled(a, 0, k) + _scaled(a, 1, k)


@njit
def _inlined_at_four_sites(a):
    # _scaled inlined at four sites, two of them through _both inlined twice: each site keeps
    # its own variables although the callee is translated once per compile
    return _both(a, 2) * 1000 + _both(a, 3) + _scaled(a, 2, 5) * 100000 + _scaled(a, 0, 1)


def test_a_callee_inlined_at_several_sites_computes_each_site_apart():
    a = np.array([1, 2, 3], dtype=np.int64)

    def scaled(i, k):
        return a[i] * k + i

    def both(k):
        return scaled(0, k) + scaled(1, k)

    want = both(2) * 1000 + both(3) + scaled(2, 5) * 100000 + scaled(0, 1)
    assert _inlined_at_four_sites(a) == want
