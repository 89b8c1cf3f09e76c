"""The numba patches in ``engine/jit_*.py``: each applies (a numba whose modules changed shape
fails here, not silently in the compile time), and each leaves numba's results as they were:
the same ``del`` statements and IR, the same ``loc`` answers, the same error text."""
import sys

import numpy as np
import pytest
from numba import literal_unroll, njit, objmode

import hanasim.engine.jit  # noqa: F401  (applies the patches)
from hanasim.engine import jit_errors, jit_liveness, jit_loc, jit_nocode, jit_ssa
from hanasim.engine.jit import hot


def _numba_colours_errors():
    """numba highlights its errors (``errors.ColorShell``) only with colorama installed (not a
    dependency of hanasim or numba) and error highlighting not switched off: without it there
    is nothing for ``jit_errors`` to patch."""
    from numba.core import errors

    return hasattr(errors, "ColorShell")


def test_every_patch_applies_to_this_numba():
    assert jit_liveness.applied
    assert jit_loc.applied
    assert jit_errors.applied == _numba_colours_errors()
    assert jit_ssa.applied
    assert jit_nocode.applied


# --- jit_liveness -----------------------------------------------------------------------------

def _branchy(a, n):
    s = 0
    for i in range(n):
        if a[i] > 2:
            s += a[i] * i
        else:
            t = a[i] - 1
            s -= t
    return s


def _ir_and_flags(fn):
    from numba.core import compiler, cpu

    flags = compiler.Flags()
    cpu.CPUTargetOptions().finalize(flags, {"nopython": True})
    return compiler.run_frontend(fn), flags


def _numba_run(func_ir, **kw):
    from numba.core import postproc

    postproc.PostProcessor.run.__wrapped__(postproc.PostProcessor(func_ir), **kw)


def test_a_run_that_emits_dels_inserts_numbas_dels():
    from numba.core import postproc

    func_ir, flags = _ir_and_flags(_branchy)
    numba_ir, patched_ir = func_ir.copy(), func_ir.copy()
    _numba_run(numba_ir, emit_dels=True)
    with jit_liveness.pipeline_flags(flags):
        postproc.PostProcessor(patched_ir).run(emit_dels=True)
    assert "del " in numba_ir.dump_to_string()
    assert numba_ir.dump_to_string() == patched_ir.dump_to_string()


def test_a_run_without_dels_leaves_the_lifetimes_unread_and_the_ir_as_numba_does():
    from numba.core import postproc

    func_ir, flags = _ir_and_flags(_branchy)
    numba_ir, patched_ir = func_ir.copy(), func_ir.copy()
    _numba_run(numba_ir)
    with jit_liveness.pipeline_flags(flags):
        postproc.PostProcessor(patched_ir).run()
    assert numba_ir.dump_to_string() == patched_ir.dump_to_string()
    assert "livemap" in vars(numba_ir.variable_lifetime)  # numba computed it
    lazy = patched_ir.variable_lifetime
    assert "livemap" not in vars(lazy)  # the patch did not, and computes it when read
    assert lazy.livemap == numba_ir.variable_lifetime.livemap


def test_outside_a_nopython_pipeline_the_run_is_numbas():
    from numba.core import postproc

    func_ir, flags = _ir_and_flags(_branchy)
    postproc.PostProcessor(func_ir).run()  # no pipeline: as numba
    assert "livemap" in vars(func_ir.variable_lifetime)
    flags.force_pyobject = True
    func_ir, _ = _ir_and_flags(_branchy)
    with jit_liveness.pipeline_flags(flags):  # object mode: as numba
        postproc.PostProcessor(func_ir).run()
    assert "livemap" in vars(func_ir.variable_lifetime)


def _unrolled(t):
    s = 0
    for x in literal_unroll(t):
        s += x
    return s


def _with_block(x):
    with objmode(y="int64"):
        y = x + 1
    return y


def test_functions_whose_lifetimes_numba_reads_get_numbas_run():
    from numba.core import postproc

    for fn in (_unrolled, _with_block):
        func_ir, flags = _ir_and_flags(fn)
        with jit_liveness.pipeline_flags(flags):
            postproc.PostProcessor(func_ir).run()
        assert "livemap" in vars(func_ir.variable_lifetime), fn.__name__


def _gen(n):
    for i in range(n):
        yield i * 2


def test_compiles_that_read_the_lifetimes_still_work():
    assert njit(_unrolled)((1, 2.5, 3)) == 6.5
    assert njit(_with_block)(4) == 5
    assert list(njit(_gen)(3)) == [0, 2, 4]
    a = np.array([1, 5, 2, 7], dtype=np.int64)
    assert njit(_branchy)(a, 4) == _branchy(a, 4)


# --- jit_ssa ----------------------------------------------------------------------------------

def _reassigned(a, n):
    x = 0
    y = 1
    for i in range(n):
        if a[i] > 2:
            x = x + a[i]
            y = y * 2
        elif a[i] < 0:
            x = -x
        else:
            z = a[i]
            y = y + z
        if x > 100:
            x = 100
    return x + y


def test_ssa_renames_as_numba_does():
    from numba.core import ssa

    # two translations: the renaming draws fresh names from the function's scope
    numba_blocks = ssa._run_ssa.numba(_ir_and_flags(_reassigned)[0].blocks)
    patched_blocks = ssa._run_ssa(_ir_and_flags(_reassigned)[0].blocks)

    def dump(blocks):
        return {label: [str(stmt) for stmt in blk.body] for label, blk in blocks.items()}

    numba_dump, patched_dump = dump(numba_blocks), dump(patched_blocks)
    assert numba_dump == patched_dump
    assert any("phi" in stmt for body in patched_dump.values() for stmt in body)
    a = np.array([5, -1, 1, 7, 3], dtype=np.int64)
    assert njit(_reassigned)(a, 5) == _reassigned(a, 5)


# --- jit_loc ----------------------------------------------------------------------------------

def test_loc_is_asked_once_per_function_and_again_after_new_code():
    from numba.core import base

    def with_loc(context, builder, sig, args, loc=None):
        return 1

    def without_loc(context, builder, sig, args):
        return 2

    assert base._has_loc(with_loc) is True
    assert base._has_loc(without_loc) is False
    assert base._has_loc(with_loc) is True  # from the memo
    with_loc.__code__ = without_loc.__code__
    assert base._has_loc(with_loc) is False  # new code: asked again
    assert base._has_loc(len) is base._has_loc.__wrapped__(len)  # not weakly referable


# --- jit_errors -------------------------------------------------------------------------------

@pytest.mark.skipif(not _numba_colours_errors(), reason="numba highlights no errors here "
                    "(no colorama): jit_errors has nothing to patch")
def test_error_text_is_numbas_and_the_streams_stay():
    from colorama import Style
    from numba.core import errors

    out, err = sys.stdout, sys.stderr
    scheme = errors.HighlightColorScheme(errors.themes["no_color"])
    for _ in range(3):
        assert scheme.errmsg("boom") == Style.BRIGHT + "boom" + Style.RESET_ALL
        assert sys.stdout is out and sys.stderr is err
    message = str(errors.NumbaError("a problem"))
    assert "a problem" in message


# --- jit_nocode -------------------------------------------------------------------------------

@hot
def _twice_plus(x, k):
    return 2 * x + k


@njit
def _calls_twice_plus(a):
    s = 0
    for v in a:
        s += _twice_plus(v, 3)
    return s


def test_a_helper_compiled_for_a_kernel_has_no_machine_code_of_its_own():
    from numba.core.registry import cpu_target

    a = np.arange(5, dtype=np.int64)
    assert _calls_twice_plus(a) == int((2 * a + 3).sum())
    (inner,) = _twice_plus._inner.overloads.values()
    library = inner.library
    assert type(library).__name__ == "NoCodeLibrary"
    assert library._finalized
    engine = cpu_target.target_context.codegen()._engine
    assert not engine.is_symbol_defined(inner.fndesc.mangled_name)  # never given to the JIT
    # its optimised module is what the kernel linked in
    assert inner.fndesc.mangled_name in library.get_llvm_str()
    # called from Python, the helper compiles as numba's, with machine code
    assert _twice_plus(4, 1) == 9
    (outer,) = _twice_plus.overloads.values()
    assert type(outer.library).__name__ != "NoCodeLibrary"
