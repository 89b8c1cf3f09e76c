"""Exact deal odds given cards, kept for the process (``hanasim.exact(..., given=...)``).

A conditional table costs seconds of exact counting (a dynamic programme in Python), and the
same table is asked for again: ``hanasim report --given`` computes it, and its Python snippet
asks ``hanasim.exact`` for it once more.  The table depends only on the game, its rules (a
frozen rules object: every option, the defaults filled in) and the given cards, so it is kept
under exactly that key: the last :data:`MAX_TABLES` tables asked for, least recently used
dropped first.  Every caller gets its own copy (data and ``attrs``): changing a returned table
never changes what the next caller gets.
"""
from __future__ import annotations

import copy
import threading
from collections import OrderedDict

MAX_TABLES = 32

_tables: OrderedDict = OrderedDict()
_lock = threading.Lock()


def _copy(df):
    out = df.copy(deep=True)
    out.attrs = copy.deepcopy(df.attrs)
    return out


def exact_given_table(g, rules, given, compute):
    """``compute()`` (the table of ``g`` under ``rules`` given ``given``, a parsed
    :class:`hanasim.given.Given`), or a copy of the one computed before for the same three."""
    key = (g.name, type(rules), rules, given)
    try:
        hash(key)
    except TypeError:  # an option value that cannot be a key: compute, keep nothing
        return compute()
    with _lock:
        df = _tables.get(key)
        if df is not None:
            _tables.move_to_end(key)
    if df is None:
        df = compute()
        with _lock:
            _tables[key] = _copy(df)
            _tables.move_to_end(key)
            while len(_tables) > MAX_TABLES:
                _tables.popitem(last=False)
        return df
    return _copy(df)


def clear() -> None:
    """Forget every kept table."""
    with _lock:
        _tables.clear()
