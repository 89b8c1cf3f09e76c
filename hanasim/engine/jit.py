"""The decorator for hot kernels.

Functions that never allocate are compiled without numba's reference-counting runtime
(``_nrt=False``): passing table arrays into helpers otherwise costs atomic increments and
decrements in the innermost loop, measured at 3x the time of a whole Toppa round.  Functions
that allocate (the chunk runners) keep the runtime and call these.

``inline="always"`` (numba inlines the function's IR into each caller) only where LLVM would
not inline by itself: functions taking arrays or the tables NamedTuple (left to LLVM, a random
Toppa round ran at 0.33 of the reference instead of 0.6).  Functions of scalars only are
plain ``@hot``: LLVM inlines them, at the same speed, and IR inlining them everywhere cost a
third of the compile time.  Each inlined call site is compiled again, so a hot function is
best called from one site (``engine.play.play_out`` has one turn for every seat).
"""
from numba import njit


def hot(fn=None, **kw):
    """``@hot`` = ``@njit(cache=True, _nrt=False)`` (plus any extra njit options)."""
    options = dict(cache=True, _nrt=False, **kw)
    if fn is None:
        return njit(**options)
    return njit(**options)(fn)


def is_cached(dispatcher) -> bool:
    """Whether numba's on-disk cache holds an index for ``dispatcher`` (so no long compile)."""
    import os

    try:
        return os.path.exists(dispatcher._cache._cache_file._index_path)
    except AttributeError:  # numba internals moved: say nothing rather than fail
        return True
