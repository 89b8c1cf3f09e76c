"""House-rule options as data.

A game's rules are a frozen dataclass whose fields are declared with :func:`option`: a default,
the allowed values, and a one-line description citing the seed section.  Users' strings are
validated here, once, at the edge; kernels only ever see the ints that a game lowers them to.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping

import numpy as np


class RuleError(ValueError):
    """A rule option that does not exist or has a value it does not allow."""


def option(default, choices, doc: str):
    """Declare a rule option: ``choices`` is a tuple of allowed values (ints or strings)."""
    if default not in choices:
        raise AssertionError(f"default {default!r} not in {choices!r}")
    return dataclasses.field(default=default, metadata={"choices": tuple(choices), "doc": doc})


def options(rules_cls) -> list[dict]:
    """One dict per option: name, default, choices, doc."""
    return [dict(name=f.name, default=f.default, choices=f.metadata["choices"], doc=f.metadata["doc"])
            for f in dataclasses.fields(rules_cls)]


class RuleTypeError(RuleError, TypeError):
    """A rule value of a type no option takes (None, a float, a list...)."""


def _coerce(name, value, choices):
    """The allowed choice ``value`` names: the choice itself (so 40 and "40" are one value), as
    strict as the command line: a whole number or its text, or a name; never a float or bool."""
    allowed = ", ".join(str(c) for c in choices)
    if isinstance(value, bool) or not isinstance(value, (str, int, np.integer)):
        raise RuleTypeError(f"rule {name!r} cannot be {value!r} (a {type(value).__name__}); "
                            f"allowed values: {allowed}")
    text = str(int(value)) if isinstance(value, np.integer) else str(value).strip()
    for c in choices:
        if str(c) == text:
            return c
    raise RuleError(f"rule {name!r} cannot be {value!r}; allowed values: {allowed}")


def coerce(rules_cls, name, value):
    """One option's value checked and made canonical (see :func:`make_rules`)."""
    fields = {f.name: f for f in dataclasses.fields(rules_cls)}
    if not isinstance(name, str):
        raise RuleTypeError(f"rule names are strings, got {name!r}")
    if name not in fields:
        raise RuleError(f"unknown rule {name!r} for {rules_cls.game}; known rules: "
                        + ", ".join(fields))
    return _coerce(name, value, fields[name].metadata["choices"])


def make_rules(rules_cls, given: Mapping[str, Any] | None = None):
    """Build a rules object from ``{name: value}`` (values may be strings, as from the CLI)."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise RuleTypeError(f"rules must be a dict of {{option: value}}, got "
                            f"{type(given).__name__} {given!r}")
    values = {k: coerce(rules_cls, k, v) for k, v in given.items()}
    rules = rules_cls(**values)
    check = getattr(rules, "check", None)
    if check is not None:
        check()
    return rules


def parse_assignments(items) -> dict:
    """``["a=1", "b=x"]`` (CLI ``--rule`` arguments) to a dict; repeated names are an error."""
    out = {}
    for item in items or ():
        if "=" not in item:
            raise RuleError(f"rule option {item!r} must look like name=value")
        k, v = item.split("=", 1)
        k = k.strip()
        if k in out and out[k] != v.strip():
            raise RuleError(f"rule {k!r} is given twice, as {out[k]!r} and {v.strip()!r}")
        out[k] = v.strip()
    return out


def rules_string(rules) -> str:
    return ",".join(f"{k}={v}" for k, v in dataclasses.asdict(rules).items())
