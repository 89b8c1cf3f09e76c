"""House-rule options as data.

A game's rules are a frozen dataclass whose fields are declared with :func:`option`: a default,
the allowed values, and a one-line description citing the seed section.  Users' strings are
validated here, once, at the edge; kernels only ever see the ints that a game lowers them to.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping


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


def _coerce(name, value, choices):
    if value in choices and not isinstance(value, bool):
        return value
    text = str(value).strip()
    for c in choices:
        if str(c) == text:
            return c
    allowed = ", ".join(str(c) for c in choices)
    raise RuleError(f"rule {name!r} cannot be {value!r}; allowed values: {allowed}")


def make_rules(rules_cls, given: Mapping[str, Any] | None = None):
    """Build a rules object from ``{name: value}`` (values may be strings, as from the CLI)."""
    given = dict(given or {})
    fields = {f.name: f for f in dataclasses.fields(rules_cls)}
    unknown = [k for k in given if k not in fields]
    if unknown:
        raise RuleError(f"unknown rule {unknown[0]!r} for {rules_cls.game}; known rules: "
                        + ", ".join(fields))
    values = {k: _coerce(k, v, fields[k].metadata["choices"]) for k, v in given.items()}
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
