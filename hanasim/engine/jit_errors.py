"""numba's error messages built without re-initialising colorama for each one.

numba raises and catches its own errors as a matter of course while it compiles (a constant
that cannot be inferred, an implementation that does not match the argument types, a value
that is not a literal), thousands per kernel.  Each message is highlighted inside
``errors.ColorShell``, which calls colorama's ``init()`` (wrapping ``sys.stdout`` and
``sys.stderr`` in new stream wrappers) and ``deinit()`` (putting them back): two thirds of
the cost of an error, about 1% of a cold compile.  The highlighted text itself is built by
numba from the theme's codes, not by the wrappers (nothing is written inside the shell), so
the message is the same without them.  The first shell still initialises colorama once (its
exit hook registered as before); later ones do nothing.  Applied only where numba's module
has the shape this was written for (``applied`` says whether it was), else left alone."""
applied = False


def _quiet_color_shell():
    global applied
    try:
        from numba.core import errors
    except ImportError:
        return
    shell = getattr(errors, "ColorShell", None)
    scheme = getattr(errors, "HighlightColorScheme", None)
    if shell is None or scheme is None:
        return
    names = (set(shell.__init__.__code__.co_names), set(shell.__enter__.__code__.co_names),
             set(shell.__exit__.__code__.co_names),
             set(scheme._markup.__code__.co_names))
    if names != ({"init", "_has_initialized"}, {"_has_initialized", "reinit"},
                 {"Style", "RESET_ALL", "deinit"},
                 {"ColorShell", "reset_terminal", "encode", "decode"}):
        return

    class QuietColorShell(shell):
        """``ColorShell`` that initialises colorama the first time only."""

        first = True

        def __init__(self):
            self.real = QuietColorShell.first
            QuietColorShell.first = False
            if self.real:
                shell.__init__(self)

        def __enter__(self):
            if self.real:
                return shell.__enter__(self)

        def __exit__(self, *exc_detail):
            if self.real:
                return shell.__exit__(self, *exc_detail)

    errors.ColorShell = QuietColorShell
    applied = True


_quiet_color_shell()
