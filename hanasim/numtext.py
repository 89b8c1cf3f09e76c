"""Numbers a user writes as text (command line, rule values, API strings): one rule everywhere.

A number is written in ASCII digits 0-9: Python's ``int()`` and ``float()`` also read other
scripts' digits (``١٠٠``, ``１００``), underscores (``1_000``) and ``inf``, and ``str.isdigit``
even passes superscripts that ``int()`` then refuses, so a command accepted some of these in one
argument and refused them in the next.  Here:

* a whole number (seed, threads, a rule's value, a range's ends, ``lookahead:K``, ``NAME*N``) is
  ``[+-]?[0-9]+``;
* a count of rounds may also be written as a decimal or in e-notation when its value is whole
  (``2e6``, ``1.5e6``);
* a target (``--solve quantity=target``) is a decimal number, e-notation allowed.
"""
from __future__ import annotations

import re

WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


def is_whole(text) -> bool:
    """Whether ``text`` (a str) is a whole number in ASCII digits, with an optional sign."""
    return isinstance(text, str) and WHOLE.fullmatch(text.strip()) is not None


def is_digits(text) -> bool:
    """Whether ``text`` is ASCII digits only (no sign): ``str.isdigit`` for this rule."""
    return isinstance(text, str) and re.fullmatch(r"[0-9]+", text, re.ASCII) is not None


def decimal(text) -> float | None:
    """The value of ``text`` written as an ASCII decimal number (e-notation allowed), else
    None."""
    if not isinstance(text, str) or DECIMAL.fullmatch(text.strip()) is None:
        return None
    return float(text.strip())
