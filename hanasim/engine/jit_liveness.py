"""numba's IR post-processor, without the liveness analysis nothing reads (nopython compiles).

numba runs ``PostProcessor.run`` after most passes that change the IR (the IR inliner, the
rewrites, SSA, phi stripping, legalisation: some forty times per kernel, once more for each
inlined callee's own pipeline).  Each run computes the variables' use/def maps, live and dead
maps and the variables live on entry to each block, over the whole function: 11% of a cold
compile of Toppa's play kernel (py-spy, 2026-11-26), much of it after the IR inliner.

Of what a run computes, the compile of a nopython function reads only the dead maps, to insert
``del`` statements (``run(emit_dels=True)``, before lowering and in the typed rewrites).  The
variables live on entry to each block are read by object-mode lowering and for generators; the
lifetimes object ``func_ir.variable_lifetime`` by with-block lifting and ``literal_unroll``.  So
in a nopython compile (``force_pyobject`` unset: the nopython pipeline) of a function that is
not a generator, has no ``with`` block and no ``literal_unroll``, a run that emits no dels
keeps only its CFG canonicalisation and leaves the lifetimes to be computed when (if ever) read;
a run that emits dels computes what the dels need (use/def, live and dead maps), not the
variables live on entry to each block.  The IR every pass sees is the same, so the
compiled code is the same.  Applied only where numba's module has the shape this was written
for (``applied`` says whether it was), else left alone."""
import contextlib
import functools
import threading

applied = False
_local = threading.local()  # the flags of the pipelines running on this thread, innermost last


@contextlib.contextmanager
def pipeline_flags(flags):
    """Within: the post-processor runs for a pipeline compiling with these flags (numba's pass
    manager runs each pipeline inside this)."""
    stack = _local.__dict__.setdefault("flags", [])
    stack.append(flags)
    try:
        yield
    finally:
        stack.pop()


# The names numba 0.68's ``PostProcessor.run`` uses: a different set means a different run,
# and the patch stays out.
_RUN_NAMES = frozenset({
    "func_ir", "blocks", "transforms", "canonicalize_cfg", "VariableLifetime",
    "variable_lifetime", "analysis", "compute_live_variables", "cfg", "usedefs", "defmap",
    "deadmaps", "combined", "items", "block_entry_vars", "is_generator", "GeneratorInfo",
    "generator_info", "_compute_generator_info", "_insert_var_dels"})


def _lazy_liveness():
    global applied
    try:
        from numba.core import compiler_machinery, ir, postproc
        from numba.misc.special import literal_unroll
    except ImportError:
        return
    pp = getattr(postproc, "PostProcessor", None)
    vlt = getattr(postproc, "VariableLifetime", None)
    manager = getattr(compiler_machinery, "PassManager", None)
    if pp is None or vlt is None or manager is None:
        return
    run = pp.run
    code = getattr(run, "__code__", None)
    if (code is None or code.co_varnames[:3] != ("self", "emit_dels", "extend_lifetimes")
            or set(code.co_names) != _RUN_NAMES):
        return
    if not all(isinstance(vlt.__dict__.get(k), functools.cached_property)
               for k in ("cfg", "usedefs", "livemap", "deadmaps")):
        return
    if not all(hasattr(ir, k) for k in ("FunctionIR", "EnterWith", "Assign", "Global",
                                        "FreeVar")):
        return

    manager_run = manager.run

    @functools.wraps(manager_run)
    def run_with_flags(self, state):
        with pipeline_flags(getattr(state, "flags", None)):
            return manager_run(self, state)

    def read_later(func_ir):
        """Whether with-lifting or ``literal_unroll`` may read the lifetimes later."""
        for block in func_ir.blocks.values():
            for stmt in block.body:
                if isinstance(stmt, ir.EnterWith):
                    return True
                if (isinstance(stmt, ir.Assign) and isinstance(stmt.value, (ir.Global, ir.FreeVar))
                        and stmt.value.value is literal_unroll):
                    return True
        return False

    @functools.wraps(run)
    def lazy_run(self, emit_dels=False, extend_lifetimes=False):
        stack = getattr(_local, "flags", None)
        flags = stack[-1] if stack else None
        func_ir = self.func_ir
        if (flags is None or getattr(flags, "force_pyobject", True)
                or type(func_ir) is not ir.FunctionIR or func_ir.is_generator
                or read_later(func_ir)):
            return run(self, emit_dels, extend_lifetimes)
        func_ir.blocks = postproc.transforms.canonicalize_cfg(func_ir.blocks)
        func_ir.variable_lifetime = vlt(func_ir.blocks)
        func_ir.generator_info = None
        if emit_dels:
            self._insert_var_dels(extend_lifetimes=extend_lifetimes)

    manager.run = run_with_flags
    pp.run = lazy_run
    applied = True


_lazy_liveness()
