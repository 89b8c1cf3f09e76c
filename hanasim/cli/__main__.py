"""``python -m hanasim.cli``: the same command as ``python -m hanasim`` (an entry point, like
hanasim/__main__.py: the one kind of module that imports :mod:`hanasim.cli`)."""
import sys

from . import main

sys.exit(main())
