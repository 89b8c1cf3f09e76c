"""Environment settings checked before numba is imported: numba reads them at import and
raises a traceback (``NUMBA_NUM_THREADS=0``) or prints a multi-line warning (``abc``), which
would break every command, even ``hanasim games``."""
from __future__ import annotations

import os


def problem() -> str | None:
    """A one-line description of a setting that would stop numba, or None."""
    text = os.environ.get("NUMBA_NUM_THREADS")
    if text is not None and text.strip() != "":
        t = text.strip()
        if not (t.isascii() and t.isdigit() and int(t) >= 1):
            return (f"NUMBA_NUM_THREADS={text!r} is not a positive whole number (the number of "
                    "threads to use); fix it or unset it to use every core")
    return None
