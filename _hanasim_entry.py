"""The ``hanasim`` console script's entry point, outside the package on purpose.

The script pip writes runs ``from <module> import main`` before anything of ours can catch an
exception, and importing any module of the hanasim package first imports the package itself
(numba loads: most of a second).  Ctrl-C in that second would print a Python traceback; here
the package is imported inside ``main``, so it is one line and exit code 130, like Ctrl-C at
any later moment of a command.  (``python -m hanasim`` is guarded in hanasim/__init__.py.)
"""
import sys


def main() -> int:
    try:
        from hanasim.cli import main as command
    except KeyboardInterrupt:
        sys.stderr.write("hanasim: interrupted\n")
        return 130
    return command()
