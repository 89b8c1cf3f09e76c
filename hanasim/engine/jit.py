"""The decorator for hot kernels.

Functions that never allocate are compiled without numba's reference-counting runtime
(``_nrt=False``): passing table arrays into helpers otherwise costs atomic increments and
decrements in the innermost loop, measured at 3x the time of a whole Toppa round.  Functions
that allocate (the chunk runners) keep the runtime and call these.
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
