"""House-rule options as data.

A game's rules are a frozen dataclass whose fields are declared with one of two functions, each
giving a default, what values are allowed, and a one-line description citing the rule text's
section:

* :func:`option` ``(default, choices, doc)``: one of a few named readings (``"exact"`` or
  ``"total"``; ``1`` to ``5`` cards);
* :func:`number` ``(default, doc, low=, high=, step=, readings=, aliases=, per_seat=)``: any whole
  number in ``low..high`` that is a multiple of ``step`` (a yaku value, a threshold, a par).
  ``readings`` are the values the rule texts themselves name, with what they are (``{60: "the
  rule page's value", 40: "the rule page's alternative"}``): ``hanasim rules`` shows them, and
  a sweep marks them.  ``aliases`` are words that stand for a value (``{"off": 0, "on":
  20}``), so an old on/off option can become a number without breaking anybody's command
  (:func:`option` takes ``aliases`` too: a renamed value keeps its former name).  ``per_seat``
  options take one value for every seat or one per seat (``par=104,136``), the seats being the
  Rules class's ``seats`` (seats relative to the dealer); ``par.dealer=104`` sets one seat.

Each declaration is a :class:`Kind` kept in the field's metadata: it checks a user's value and
makes it canonical (``40`` and ``"40"`` are one value), and describes itself for ``hanasim
rules``.  A new game declares its options with these two functions; a new kind of value (a
fraction, a list of months) is one more :class:`Kind` subclass with ``coerce`` and
``describe``, and nothing else changes.  Cross-option meaning (a chaff count no larger than
the chaff cards that count) is the Rules class's ``check()`` method, run by
:func:`make_rules`.  Users' strings are validated here, once, at the edge; kernels only ever
see the ints that a game lowers the rules to.

No option silently does nothing.  Either declaration takes ``inert=``: a function ``(rules,
run) -> reason or None`` saying why the option cannot change the result of ``run`` (a
:class:`Run`: the seated players, the session's rounds, a fixed dealer) under ``rules`` (``"with
2 players nobody drops out"``), or None when it can.  :func:`inert_options` evaluates every
declaration of a Rules class (also those :func:`declare_inert` adds after the class); the API
evaluates them once per run, at the edge: an option the user asked for by name is refused with
the reason, one a preset or a compare/sweep grid gave is named in the table's notes.  A new
option declares when it applies and gets both for free.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Mapping

import numpy as np


class RuleError(ValueError):
    """A rule option that does not exist or has a value it does not allow."""


class RuleTypeError(RuleError, TypeError):
    """A rule value of a type no option takes (None, a float, a list...)."""


@dataclasses.dataclass(frozen=True)
class Run:
    """What a run is besides its rules: what an option's applicability may depend on.

    ``players``: the players seated (a game's fixed count, or its ``players`` rule);
    ``session_rounds``: rounds a session plays (the deal passes only within a session);
    ``fixed_dealer``: player 1 deals every round (no first-dealer draw, the deal never passes).
    """

    players: int
    session_rounds: int = 1
    fixed_dealer: bool = False

    def deal_never_passes(self):
        """Why the next dealer is never chosen in this run, or None (it is); for a game whose
        sessions are ``session_rounds`` rounds (a game of its own length reads only
        ``fixed_dealer``)."""
        if self.fixed_dealer:
            return "player 1 deals every round (fixed dealer)"
        if self.session_rounds == 1:
            return "each session is one round, so the deal never passes"
        return None


_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)


def _text(value) -> str:
    return str(int(value)) if isinstance(value, np.integer) else str(value).strip()


def _check_type(name, value, allowed):
    """Strings, whole numbers and numpy integers only: never a float, bool or None (as strict
    as the command line, which only has text)."""
    if isinstance(value, bool) or not isinstance(value, (str, int, np.integer)):
        raise RuleTypeError(f"rule {name!r} cannot be {value!r} (a {type(value).__name__}); "
                            f"allowed values: {allowed}")


class Kind:
    """What values an option takes.  Subclasses implement :meth:`coerce` and :meth:`describe`."""

    per_seat = False
    readings: tuple = ()  # ((value, which rule text names it, and how), ...)

    def coerce(self, name: str, value, seats: tuple = ()):
        """The canonical value of ``value`` for option ``name``, or :class:`RuleError`."""
        raise NotImplementedError

    def describe(self) -> str:
        """The allowed values, in words (``hanasim rules``)."""
        raise NotImplementedError

    def is_numeric(self) -> bool:
        return False


@dataclasses.dataclass(frozen=True)
class Choice(Kind):
    """One of a fixed tuple of values (ints or strings); ``aliases`` are former names of values,
    still accepted (never listed: the canonical names are)."""

    choices: tuple
    aliases: tuple = ()  # ((old word, value), ...)

    def coerce(self, name, value, seats=()):
        allowed = self.describe()
        _check_type(name, value, allowed)
        text = _text(value)
        for word, v in self.aliases:
            if text == word:
                return v
        for c in self.choices:
            if str(c) == text:
                return c
        raise RuleError(f"rule {name!r} cannot be {value!r}; allowed values: {allowed}")

    def describe(self):
        return ", ".join(str(c) for c in self.choices)


@dataclasses.dataclass(frozen=True)
class Number(Kind):
    """A whole number in ``low..high``, a multiple of ``step``; ``aliases`` name some values."""

    low: int
    high: int
    step: int = 1
    readings: tuple = ()
    aliases: tuple = ()  # ((word, value), ...)
    per_seat: bool = False

    def is_numeric(self):
        return True

    def describe(self):
        text = f"a whole number from {self.low} to {self.high}"
        if self.step != 1:
            text += f", a multiple of {self.step}"
        if self.aliases:
            text += " (" + ", ".join(f"{w} = {v}" for w, v in self.aliases) + ")"
        if self.per_seat:
            text += "; one for every seat or one per seat (a,b,...)"
        return text

    def one(self, name, value):
        """One seat's value."""
        allowed = self.describe()
        _check_type(name, value, allowed)
        text = _text(value)
        for word, v in self.aliases:
            if text == word:
                return v
        if not _WHOLE.fullmatch(text):
            raise RuleError(f"rule {name!r} cannot be {value!r}; allowed values: {allowed}")
        v = int(text)
        if not self.low <= v <= self.high:
            raise RuleError(f"rule {name!r} cannot be {v}: it must be from {self.low} to "
                            f"{self.high}")
        if v % self.step:
            raise RuleError(f"rule {name!r} cannot be {v}: it must be a multiple of {self.step}"
                            + (" (the smallest card value: yaku are paid with cards)"
                               if self.step == 5 else ""))
        return v

    def coerce(self, name, value, seats=()):
        if not self.per_seat:
            return self.one(name, value)
        if isinstance(value, (list, tuple)):
            items = list(value)
        elif isinstance(value, str) and "," in value:
            items = [v.strip() for v in value.split(",")]
        else:
            items = [value]
        if len(items) not in (1, len(seats)):
            raise RuleError(f"rule {name!r} takes one value for every seat or one per seat "
                            f"({len(seats)}: {', '.join(seats)}), got {len(items)}")
        values = tuple(self.one(name, v) for v in items)
        return values[0] if len(set(values)) == 1 else values


def option(default, choices, doc: str, *, inert=None, aliases: Mapping | None = None):
    """Declare a rule option: ``choices`` is a tuple of allowed values (ints or strings);
    ``inert``: ``(rules, run) -> why it cannot change the result, or None`` (module doc);
    ``aliases``: ``{former name: value}``, so a renamed value keeps old commands working."""
    if default not in choices:
        raise AssertionError(f"default {default!r} not in {choices!r}")
    if any(v not in choices for v in (aliases or {}).values()):
        raise AssertionError(f"aliases {aliases!r} name values not in {choices!r}")
    kind = Choice(tuple(choices), tuple((aliases or {}).items()))
    return dataclasses.field(default=default, metadata={
        "choices": tuple(choices), "doc": doc, "kind": kind, "inert": inert})


def number(default: int, doc: str, *, low: int, high: int, step: int = 1,
           readings: Mapping | None = None, aliases: Mapping | None = None,
           per_seat: bool = False, inert=None):
    """Declare a numeric rule option: any whole number in ``low..high``, a multiple of ``step``.

    ``readings``: ``{value: which rule text names it}`` for the values the rule texts name;
    ``aliases``: ``{word: value}``; ``per_seat``: one value, or one per seat of the Rules class's
    ``seats`` (the canonical value is an int when all seats agree, else a tuple); ``inert``: as
    in :func:`option`."""
    kind = Number(low, high, step, tuple((readings or {}).items()),
                  tuple((aliases or {}).items()), per_seat)
    if kind.one("default", default) != default:
        raise AssertionError(f"default {default!r} is not allowed by {kind.describe()}")
    return dataclasses.field(default=default, metadata={"choices": None, "doc": doc,
                                                        "kind": kind, "inert": inert})


def when_zero(option: str, what: str = "that yaku is never scored"):
    """An ``inert=`` function: the option cannot change the result while ``option`` is 0."""
    def why(rules, run):
        return f"{option}=0: {what}" if getattr(rules, option) == 0 else None
    return why


def no_first_draw(rules, run):
    """An ``inert=`` function for how the first dealer is drawn: not at all with a fixed
    dealer."""
    return "player 1 deals every round (fixed dealer): no first-dealer draw" if (
        run.fixed_dealer) else None


def declare_inert(rules_cls, **when):
    """Declare, after the class, when options of ``rules_cls`` cannot change the result:
    ``declare_inert(TaoshiRules, drop_fee=lambda r, run: ...)``, the same functions as
    ``inert=`` (for a module whose option lines are best left as they are)."""
    names = {f.name for f in dataclasses.fields(rules_cls)}
    for name in when:
        if name not in names:
            raise AssertionError(f"{rules_cls.__name__} has no option {name!r}")
    rules_cls._inert = {**getattr(rules_cls, "_inert", {}), **when}


def inert_options(rules, run: Run) -> dict:
    """``{option: why it cannot change the result}`` for the options of ``rules`` that cannot
    in ``run`` (:class:`Run`), in declaration order."""
    later = getattr(type(rules), "_inert", {})
    out = {}
    for f in dataclasses.fields(rules):
        when = f.metadata.get("inert") or later.get(f.name)
        why = when(rules, run) if when is not None else None
        if why:
            out[f.name] = why
    return out


def check_inert(rules, run: Run, asked=(), preset=None, preset_options=()) -> list[str]:
    """No option silently does nothing (:func:`inert_options`): an option the user asked for by
    name (``asked``: the names in their rules) that cannot change the result of ``run`` is
    refused, one line naming why (:class:`RuleError`); for one that the preset ``preset`` set
    (``preset_options``), the notes sentence is returned instead."""
    idle = inert_options(rules, run)
    if not idle:
        return []
    named = {option_name(type(rules), k) for k in asked}
    refused = [k for k in idle if k in named]
    if refused:
        raise RuleError("; ".join(f"rule {k!r} cannot change the result here: {idle[k]}"
                                  for k in refused) + " (leave it out)")
    return [f"rule {k}={value_text(getattr(rules, k))} (from the preset {preset}) cannot change "
            f"the result here: {why}" for k, why in idle.items() if k in preset_options]


def grid_inert_notes(variants, grid, preset=None, preset_options=()) -> list[str]:
    """The notes of a compare or sweep (``variants``: ``[(label, rules, run)]``): each option of
    the ``grid`` (or set by the preset) that cannot change the result in some variants, one
    sentence each, never refused (the other variants may need it)."""
    if not variants:
        return []
    cls = type(variants[0][1])
    grid_names = {option_name(cls, k) for k in grid}
    where = {}
    for label, rules, run in variants:
        for k, why in inert_options(rules, run).items():
            if k in grid_names or k in preset_options:
                where.setdefault(k, ([], why))[0].append(label)
    out = []
    for k, (labels, why) in where.items():
        source = "the grid" if k in grid_names else f"the preset {preset}"
        scope = ("in every variant" if len(labels) == len(variants) else
                 f"in {len(labels)} of {len(variants)} variants (" + ", ".join(labels[:4])
                 + (f" and {len(labels) - 4} more" if len(labels) > 4 else "") + ")")
        out.append(f"rule {k} (from {source}) cannot change the result {scope}: {why}")
    return out


def option_name(rules_cls, name) -> str:
    """The option a rule name sets (``"par.dealer"`` sets ``par``)."""
    return _split_name(rules_cls, name)[0].name


def kind_of(field) -> Kind:
    """A field's :class:`Kind` (fields declared before kinds existed carry only choices)."""
    kind = field.metadata.get("kind")
    return kind if kind is not None else Choice(tuple(field.metadata["choices"]))


def options(rules_cls) -> list[dict]:
    """One dict per option: name, default, choices (None for numbers), allowed (in words),
    readings (``((value, name), ...)``), numeric, per_seat, doc."""
    out = []
    for f in dataclasses.fields(rules_cls):
        k = kind_of(f)
        out.append(dict(name=f.name, default=f.default, choices=f.metadata.get("choices"),
                        allowed=k.describe(), readings=tuple(k.readings),
                        numeric=k.is_numeric(), per_seat=k.per_seat, doc=f.metadata["doc"]))
    return out


def seats_of(rules_cls) -> tuple:
    return tuple(getattr(rules_cls, "seats", ()))


def _split_name(rules_cls, name):
    """``(option, seat index or None)`` for ``name``: ``"par"`` or ``"par.dealer"``."""
    fields = {f.name: f for f in dataclasses.fields(rules_cls)}
    if not isinstance(name, str):
        raise RuleTypeError(f"rule names are strings, got {name!r}")
    if name in fields:
        return fields[name], None
    base, _, seat = name.partition(".")
    seats = seats_of(rules_cls)
    if base in fields and kind_of(fields[base]).per_seat:
        if seat in seats:
            return fields[base], seats.index(seat)
        raise RuleError(f"rule {name!r}: {seat!r} is not a seat of {rules_cls.game}; seats: "
                        + ", ".join(seats))
    raise RuleError(f"unknown rule {name!r} for {rules_cls.game}; known rules: "
                    + ", ".join(fields))


def coerce(rules_cls, name, value):
    """One option's value checked and made canonical (see :func:`make_rules`).  For one seat of a
    per-seat option (``"par.dealer"``) the canonical value is that seat's whole number."""
    f, seat = _split_name(rules_cls, name)
    k = kind_of(f)
    if seat is not None:
        return k.one(name, value)
    return k.coerce(name, value, seats_of(rules_cls))


def seat_values(value, n: int) -> tuple:
    """A per-seat option's canonical value as one value per seat."""
    return tuple(value) if isinstance(value, tuple) else (value,) * n


def make_rules(rules_cls, given: Mapping[str, Any] | None = None):
    """Build a rules object from ``{name: value}`` (values may be strings, as from the CLI).

    ``"par.dealer": 104`` sets one seat of a per-seat option, after ``"par"`` if both are given."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise RuleTypeError(f"rules must be a dict of {{option: value}}, got "
                            f"{type(given).__name__} {given!r}")
    values, seats = {}, []
    for k, v in given.items():
        f, seat = _split_name(rules_cls, k)
        if seat is None:
            values[f.name] = coerce(rules_cls, k, v)
        else:
            seats.append((f, seat, coerce(rules_cls, k, v)))
    n = len(seats_of(rules_cls))
    for f, seat, v in seats:
        per = list(seat_values(values.get(f.name, f.default), n))
        per[seat] = v
        values[f.name] = per[0] if len(set(per)) == 1 else tuple(per)
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


def value_text(value) -> str:
    """A canonical value as the command line writes it (a per-seat tuple as ``104,136``)."""
    return ",".join(map(str, value)) if isinstance(value, tuple) else str(value)


def rules_string(rules) -> str:
    return ",".join(f"{f.name}={value_text(getattr(rules, f.name))}"
                    for f in dataclasses.fields(rules))


_ITEM = re.compile(r",(?=[A-Za-z_][A-Za-z0-9_.]*=)")


def parse_rules_string(text: str) -> dict:
    """:func:`rules_string` back to ``{name: text}`` (a per-seat value keeps its commas)."""
    if not isinstance(text, str) or not text:
        return {}
    return dict(item.split("=", 1) for item in _ITEM.split(text) if "=" in item)
