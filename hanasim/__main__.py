import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while numba loads
    sys.stderr.write("hanasim: interrupted\n")
    sys.exit(130)

sys.exit(main())
