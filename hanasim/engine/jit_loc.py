"""numba's lowering asks once per implementation, not once per lowered operation, whether the
implementation takes a ``loc`` argument.

Lowering an operation wraps its implementation (``base._wrap_impl``), and the wrapper asks
``base._has_loc``, which builds the implementation's ``inspect.signature`` every time: 13% of
the Python lowering of Toppa's play kernel (py-spy, 2026-11-26), for a few hundred distinct
implementations looked up some ten thousand times.  The answer is kept per function object
(and its code object: a function given new code is asked again), without keeping the function
alive.  Applied only where numba's module has the shape this was written for (``applied``
says whether it was), else left alone."""
import functools
import weakref

applied = False


def _memo_has_loc():
    global applied
    try:
        from numba.core import base
    except ImportError:
        return
    has_loc = getattr(base, "_has_loc", None)
    wrap = getattr(base, "_wrap_missing_loc", None)
    if has_loc is None or wrap is None:
        return
    if (set(has_loc.__code__.co_names) != {"utils", "pysignature", "parameters"}
            or "_has_loc" not in wrap.__call__.__code__.co_names):
        return
    memo = weakref.WeakKeyDictionary()

    @functools.wraps(has_loc)
    def memo_has_loc(fn):
        code = getattr(fn, "__code__", None)
        try:
            known = memo.get(fn)
        except TypeError:  # not hashable or not weakly referable: ask as numba does
            return has_loc(fn)
        if known is not None and known[0] is code:
            return known[1]
        answer = has_loc(fn)
        try:
            memo[fn] = (code, answer)
        except TypeError:
            pass
        return answer

    base._has_loc = memo_has_loc
    applied = True


_memo_has_loc()
