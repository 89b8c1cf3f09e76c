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
best called from one site (``engine.play.play_turns`` has one turn for every seat).
"""
from numba import njit


def hot(fn=None, **kw):
    """``@hot`` = ``@njit(cache=True, _nrt=False)`` (plus any extra njit options)."""
    options = dict(cache=True, _nrt=False, **kw)
    if fn is None:
        return njit(**options)
    return njit(**options)(fn)


def _linear_inline_copies():
    """Make numba's IR inliner copy a callee in linear, not quadratic, time.

    ``InlineWorker.inline_ir`` (as of numba 0.68) deep-copies the callee's IR block
    by block, each with a fresh memo, and every block drags along the function's whole
    variable scope: each inlining copies (blocks x variables) objects.  With ``inline="always"``
    nested five deep, copying the fully inlined callees was half of a game kernel's compile
    time (cProfile of Toppa's play kernel: ``copy_ir`` 130 s of 253 s).  One memo for all the
    blocks of one inlining copies the scope once; the copied blocks then share one scope, as the
    blocks they are copied from do, so the inlined IR, and the compiled code, are the same.
    Applied only where numba's module has the shape this was written for (else left alone)."""
    import copy as copy_module
    import functools

    try:
        from numba.core import inline_closurecall as icc
        from numba.core import ir
    except ImportError:
        return
    worker = getattr(icc, "InlineWorker", None)
    if getattr(icc, "copy", None) is not copy_module or not hasattr(worker, "inline_ir"):
        return

    class SharedMemoCopy:
        """Stands in for the ``copy`` module inside ``numba.core.inline_closurecall``."""

        memo = None  # the memo of the inlining under way
        copy = staticmethod(copy_module.copy)

        @classmethod
        def deepcopy(cls, x, memo=None):
            if memo is None and cls.memo is not None and isinstance(x, ir.Block):
                memo = cls.memo
            return copy_module.deepcopy(x, memo)

    inline_ir = worker.inline_ir

    @functools.wraps(inline_ir)
    def shared_memo_inline_ir(self, *args, **kwargs):
        outer, SharedMemoCopy.memo = SharedMemoCopy.memo, {}
        try:
            return inline_ir(self, *args, **kwargs)
        finally:
            SharedMemoCopy.memo = outer

    icc.copy = SharedMemoCopy
    worker.inline_ir = shared_memo_inline_ir


_linear_inline_copies()
