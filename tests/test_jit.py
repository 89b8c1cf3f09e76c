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


@hot
def _chunk_body(scal, s0, s1):
    for s in range(s0, s1):
        scal[0] += s
        scal[1] += 1


def _runner_source(name):
    # a chunk runner in miniature: allocates (numba's runtime) and calls a @hot kernel once a
    # chunk; compiled in memory under the name given
    return (f"def {name}(counters, chunk):\n"
            "    for ch in range(counters.shape[0]):\n"
            "        scal = np.zeros(2, dtype=np.int64)\n"
            "        _chunk_body(scal, ch * chunk, (ch + 1) * chunk)\n"
            "        counters[ch] = scal\n")


def _compile_spying(name):
    """Compile a toy runner named ``name``; return what its library held when LLVM optimised
    it (whether the callee's body was there) and its result."""
    from numba.core import codegen

    seen = []
    optimise = codegen.CPUCodeLibrary._optimize_final_module

    def spy(self):
        if self.name == name:
            bodies = {f.name for f in self._final_module.functions if not f.is_declaration}
            seen.append(any("_chunk_body" in b for b in bodies))
        return optimise(self)

    ns = {"np": np, "_chunk_body": _chunk_body}
    exec(_runner_source(name), ns)
    kernel = njit(ns[name])
    codegen.CPUCodeLibrary._optimize_final_module = spy
    try:
        counters = np.zeros((3, 2), dtype=np.int64)
        kernel(counters, 4)
    finally:
        codegen.CPUCodeLibrary._optimize_final_module = optimise
    return seen, counters


def test_a_chunk_runner_is_optimised_without_the_kernel_it_calls():
    """A runner's own code is optimised before the kernels it calls are linked in (they were
    optimised when they were compiled), where numba optimises them again in every caller."""
    want = [[sum(range(4 * ch, 4 * ch + 4)), 4] for ch in range(3)]
    seen, counters = _compile_spying("run_chunks")
    assert seen == [False]  # optimised once, the callee only declared
    assert counters.tolist() == want
    # any other function: numba's way, the callee linked in and optimised again
    seen, counters = _compile_spying("not_a_runner")
    assert seen == [True]
    assert counters.tolist() == want
