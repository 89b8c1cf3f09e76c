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
from numba import njit, types
from numba.core.registry import CPUDispatcher

from . import jit_nocode


class _Inner(CPUDispatcher):
    """The twin a ``@hot`` helper is compiled as when a kernel calls it (see :func:`hot`).

    Its arguments are typed without literal values: a helper called with a constant at one site
    and a variable at another (``shuffle_given(.., 0, ..)``) is compiled once, not once per
    constant (numba otherwise keys a compile by ``Literal[int](0)``); the call converts the
    constant, which LLVM then propagates as before."""

    def get_call_template(self, args, kws):
        plain = tuple(types.unliteral(a) for a in args)
        if plain != tuple(args):
            try:
                return super().get_call_template(plain, kws)
            except Exception:  # a helper that needs the literal (a tuple index): as numba does
                pass
        return super().get_call_template(args, kws)


class _Hot(CPUDispatcher):
    """A ``@hot`` helper: this dispatcher for calls from Python (tests, constants at import),
    and its twin (``_Inner``), compiled without the Python and C wrappers and without a cache
    file of its own, for calls from kernels."""

    @property
    def _numba_type_(self):
        return types.Dispatcher(self._inner)


#: options of an ``@overload`` that chooses a kernel's code by an argument's type (None or
#: not: numba prunes ``x is None`` only where ``x`` is the compiled function's own argument,
#: not a field of the tables): inlined, and its implementation, which numba also compiles on
#: its own to type it, without the wrappers a call from Python would need (about 30 ms of a
#: small function's 45).  Users: ``where.teyaku_groups``, Ishikari Toppa's ``toppa_rows`` and
#: ``toppa_expose``; ``rng.deal_shuffle``'s two are plain overloads (inlining one that holds
#: inlined code made numba warn).
BY_TYPE = dict(inline="always", jit_options=dict(no_cpython_wrapper=True,
                                                  no_cfunc_wrapper=True))


def hot(fn=None, **kw):
    """``@hot`` = ``@njit(cache=True, _nrt=False)`` (plus any extra njit options).

    A helper that is not IR-inlined is compiled, when a kernel calls it, as a twin without
    the wrappers that let Python call it and without a cache file of its own: the kernel that
    calls it is cached whole, with the helper's code linked in, and never calls it through a
    wrapper.  The wrappers and the cache file were about 30 ms of a 45 ms compile of a small
    helper, and a kernel calls some forty of them.  Called from Python, the helper compiles
    as any ``@njit(cache=True)`` function."""
    options = dict(cache=True, _nrt=False, **kw)
    if fn is None:
        return lambda f: hot(f, **kw)
    if options.get("inline", "never") != "never":  # IR-inlined: never compiled for a kernel
        return njit(**options)(fn)
    options.pop("cache")
    target = dict(nopython=True, **options)
    outer = _Hot(py_func=fn, locals={}, targetoptions=target)
    outer.enable_caching()
    inner_options = dict(py_func=fn, locals={}, targetoptions=dict(
        target, no_cpython_wrapper=True, no_cfunc_wrapper=True))
    if jit_nocode.pipeline_class is not None:  # the twin gets no machine code of its own
        inner_options["pipeline_class"] = jit_nocode.pipeline_class
    outer._inner = _Inner(**inner_options)
    return outer


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
        made = None  # the blocks it copied, by id
        copy = staticmethod(copy_module.copy)

        @classmethod
        def deepcopy(cls, x, memo=None):
            if memo is None and cls.memo is not None and isinstance(x, ir.Block):
                # ``inline_ir`` copies the callee twice: the copy it inlines, then a copy of
                # that copy, "an unmutated copy of the callee_ir to return", which none of
                # numba's callers reads.  A block copied in this inlining is handed back as
                # it is instead of copied again (half of the copying).
                if id(x) in cls.made:
                    return x
                y = copy_module.deepcopy(x, cls.memo)
                cls.made[id(y)] = y
                return y
            return copy_module.deepcopy(x, memo)

    inline_ir = worker.inline_ir

    @functools.wraps(inline_ir)
    def shared_memo_inline_ir(self, *args, **kwargs):
        outer = SharedMemoCopy.memo, SharedMemoCopy.made
        SharedMemoCopy.memo, SharedMemoCopy.made = {}, {}
        try:
            return inline_ir(self, *args, **kwargs)
        finally:
            SharedMemoCopy.memo, SharedMemoCopy.made = outer

    icc.copy = SharedMemoCopy
    worker.inline_ir = shared_memo_inline_ir


_linear_inline_copies()


def _untyped_ir_once_per_compile():
    """Translate an ``inline="always"`` callee once per compile, not once per call site.

    numba's ``InlineWorker.inline_function`` runs the whole untyped pipeline (bytecode, IR
    processing, rewrites, the callee's own inlining, branch pruning) over the callee at every
    call site, and ``inline_ir`` then copies that IR into the caller.  The IR does not depend
    on the call site (the pipeline sees no argument types), so the first one is kept for the
    rest of the outermost compile and each site inlines a copy of it, under a fresh function
    identity: the inlined variables' names stay distinct per site, as before.  The memo is
    dropped when the outermost compile ends, so a later compile sees the functions' current
    globals."""
    import copy as copy_module
    import functools

    try:
        from numba.core import bytecode, event
        from numba.core import inline_closurecall as icc
    except ImportError:
        return
    worker = getattr(icc, "InlineWorker", None)
    if not all(hasattr(worker, m) for m in ("inline_function", "run_untyped_passes",
                                            "inline_ir")):
        return
    ids = getattr(bytecode.FunctionIdentity, "_unique_ids", None)
    if ids is None:
        return
    memo = {}

    class Forget(event.Listener):
        depth = 0

        def on_start(self, ev):
            Forget.depth += 1

        def on_end(self, ev):
            Forget.depth -= 1
            if Forget.depth == 0:
                memo.clear()

    event.register("numba:compile", Forget())
    run_untyped_passes = worker.run_untyped_passes

    @functools.wraps(worker.inline_function)
    def inline_function(self, caller_ir, block, i, function, arg_typs=None):
        key = (function, bool(getattr(self.flags, "no_rewrites", False)))
        callee = memo.get(key) if Forget.depth else None
        if callee is None:
            callee = run_untyped_passes(self, function)
            if Forget.depth:
                memo[key] = callee
        else:
            callee = callee.copy()  # shallow: inline_ir deep-copies the blocks it mutates
            func_id = callee.func_id = copy_module.copy(callee.func_id)
            uid = next(ids)
            func_id.unique_name = f"{func_id.func_qualname}${uid}"
            func_id.unique_id = uid
        return self.inline_ir(caller_ir, block, i, callee, function.__code__.co_freevars,
                              arg_typs=arg_typs)

    worker.inline_function = inline_function


_untyped_ir_once_per_compile()


# numba's compile, patched where it does work these kernels never use; each module applies its
# patch only where numba has the shape it was written for.
from . import jit_errors, jit_liveness, jit_loc, jit_ssa  # noqa: E402,F401
