"""A ``@hot`` helper compiled for kernels gets no machine code of its own.

numba compiles every separately compiled function to machine code as soon as it is lowered
(``get_executable``: LLVM optimises the function's module, then the JIT engine generates its
code), although a kernel that calls a helper links the helper's optimised LLVM module into its
own and generates the code it runs from that.  The twins ``engine/jit.py`` compiles for
kernels (``_Inner``: no Python or C wrapper, no cache file) are never called any other way, so
their machine code was never run: a cold process that loads a kernel from the cache never has
it either.  Their libraries (``NoCodeLibrary``) are optimised exactly as before, at the same
point of the compile, and linked into their callers as before; only the JIT engine never sees
them.  Applied only where numba's modules have the shape this was written for
(``pipeline_class`` is then the compiler the twins use, else None and they compile as numba
does)."""
applied = False
pipeline_class = None

_GET_POINTER = {"_codegen", "_engine", "_ensure_finalized", "get_function_address",
                "is_symbol_defined"}
_FINALIZE_FINAL = {"DUMP_ASSEMBLY", "DUMP_OPTIMIZED", "_CPUCodeLibrary__library", "_add_module",
                   "_codegen", "_final_module", "_finalize_dynamic_globals", "_finalize_specific",
                   "_finalized", "_verify_declare_only_symbols", "config", "dump", "finalize",
                   "get_asm_str", "get_llvm_str", "name", "proxy", "weakref"}
_GET_EXECUTABLE = {"_dynfunc", "codegen", "get_env_name", "get_pointer_to_function",
                   "llvm_cpython_wrapper_name", "lookup_module", "make_function", "qualname",
                   "set_env", "split"}


def _names(fn):
    return set(getattr(getattr(fn, "__code__", None), "co_names", ()))


def _no_code_pipeline():
    global applied, pipeline_class
    try:
        import weakref

        from numba.core import codegen, compiler, cpu, typed_passes
    except ImportError:
        return
    jit_library = getattr(codegen, "JITCodeLibrary", None)
    base = getattr(codegen, "CPUCodeLibrary", None)
    if jit_library is None or base is None or not issubclass(jit_library, base):
        return
    lowering = getattr(getattr(typed_passes, "BaseNativeLowering", None), "run_pass", None)
    if (_names(jit_library.get_pointer_to_function) != _GET_POINTER
            or _names(base._finalize_final_module) != _FINALIZE_FINAL
            or _names(cpu.CPUContext.get_executable) != _GET_EXECUTABLE
            or not {"library", "create_library", "enable_object_caching",
                    "get_executable"} <= _names(lowering)
            or _names(compiler.CompilerBase._compile_bytecode) != {"state", "func_ir",
                                                                    "_compile_core"}):
        return

    class NoEnvCodegen:
        """The library's codegen, for ``get_executable``: the function's environment is not
        set in a JIT engine that never holds the function (``set_env`` would write through
        the null address of a symbol the engine does not have)."""

        def __init__(self, real):
            self._real = real

        def set_env(self, env_name, env):
            pass

        def __getattr__(self, name):
            return getattr(self._real, name)

    class NoCodeLibrary(jit_library):
        """A library that is optimised and linked as numba's, without machine code."""

        @property
        def codegen(self):
            return NoEnvCodegen(self._codegen)

        def get_pointer_to_function(self, name):
            self._ensure_finalized()
            return 0  # as numba's for a twin: it has no Python wrapper to point to

        def _finalize_final_module(self):
            # numba's, without adding the module to the JIT engine and generating its code
            self._finalize_dynamic_globals()
            self._verify_declare_only_symbols()
            self._final_module._CPUCodeLibrary__library = weakref.proxy(self)
            self._finalized = True

    class NoCodeCompiler(compiler.Compiler):
        """numba's compiler, lowering into a ``NoCodeLibrary`` (created as numba's lowering
        creates its library: same name, object caching enabled)."""

        def _compile_bytecode(self):
            if self.state.library is None:
                library = NoCodeLibrary(self.state.targetctx.codegen(),
                                        self.state.func_id.func_qualname)
                library.enable_object_caching()
                self.state.library = library
            return super()._compile_bytecode()

    pipeline_class = NoCodeCompiler
    applied = True


_no_code_pipeline()
