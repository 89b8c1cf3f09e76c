"""Runs that stop at a precision: ``precision={"dealer.mean_score": 0.5}`` (``--precision``).

A run with a precision goal is played in stages of whole sessions: 10,000 rounds (rounded up
to whole sessions; a comparison: to whole blocks), then twice as many, and so on, until the
99.9% interval of every named quantity is at most the half-width asked, or the cap (the
run's ``rounds``) is reached.  Each stage only plays the sessions the last one did not: every
session has its own random stream (``engine.rng``), so the sessions 0..n of a longer run are
the sessions of the shorter one, and the counters of a stage are the sum of the earlier
stages' and the new sessions'.  The sizes of the stages depend only on the rounds per session
and the cap, and the stopping rule only on the counters, which do not depend on threads or
batches (``engine.runner``): the same seed and goal give the same table on any thread count,
and that table is exactly the one a plain run of the rounds it reports gives.

Which interval: ``simulate`` the quantity's; ``compare`` every difference row's (variant -
baseline, the paired interval); ``sweep`` every value's.  A half-width is half the interval's
width, (ci_high - ci_low) / 2, in the quantity's unit (a share: 0.01 is one percentage point).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from typing import Callable, Mapping

#: the first stage: about this many rounds (whole sessions; a comparison: whole blocks)
START_ROUNDS = 10_000


@dataclass(frozen=True)
class Goal:
    quantity: str
    halfwidth: float

    def __str__(self):
        return f"{self.quantity}={self.halfwidth:g}"


def _show(value, limit=24) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def goals(precision) -> tuple[Goal, ...]:
    """The goals of ``precision``: None (none), ``{quantity: half-width}``, or text
    ``"quantity=half-width"`` (several: ``"a=0.5,b=0.01"``).  Every half-width is a positive
    number (ASCII digits, e-notation allowed); a quantity is named once."""
    from .numtext import decimal

    if precision is None:
        return ()
    if isinstance(precision, str):
        items = []
        for item in [x for x in precision.split(",") if x.strip()]:
            q, eq, h = item.partition("=")
            if not eq or not q.strip():
                raise ValueError(f"precision must look like QUANTITY=HALFWIDTH (e.g. "
                                 f"dealer.mean_score=0.5), got {_show(item.strip())}")
            items.append((q.strip(), h.strip()))
    elif isinstance(precision, Mapping):
        items = list(precision.items())
    else:
        raise TypeError(f"precision must be {{quantity: half-width}} or "
                        f"'quantity=half-width', got {_show(precision)}")
    if not items:
        raise ValueError("precision names no quantity (e.g. dealer.mean_score=0.5)")
    out = {}
    for q, h in items:
        if not isinstance(q, str) or not q.strip():
            raise ValueError(f"precision: a quantity is a name (e.g. dealer.mean_score), got "
                             f"{_show(q)}")
        q = q.strip()
        if isinstance(h, str):
            value = decimal(h)
        elif isinstance(h, bool):
            value = None
        else:
            try:
                value = float(h)
            except (TypeError, ValueError):
                value = None
        if value is None or not math.isfinite(value) or value <= 0:
            raise ValueError(f"precision: the half-width of {q!r} must be a positive number "
                             f"(the interval's half-width in the quantity's unit), got "
                             f"{_show(h)}")
        if q in out:
            raise ValueError(f"precision names {q!r} twice")
        out[q] = value
    return tuple(Goal(q, h) for q, h in out.items())


def plain(key, count):
    """The counters of a run without a goal: ``count()`` as it is."""
    return count()


def check(targets, probes, what: str, sessions: bool = False) -> int:
    """Refuse a goal naming a quantity the run would not have, before it runs; return the
    rounds per session (the unit of every stage).  ``probes``, ``sessions``: as in
    :func:`known_names`; ``what``: 'simulate', 'compare' (a quantity of every variant) or
    'sweep'."""
    where = {"compare": " in every variant of this comparison",
             "sweep": " at every value of this sweep"}.get(what, "")
    pers = known_names(probes, [t.quantity for t in targets], sessions,
                       lambda q, near: "precision: no quantity " + repr(q) + where
                       + (f"; did you mean {', '.join(near)}?" if near else "")
                       + " (a run's table lists every quantity)")
    if len(set(pers)) > 1:  # no game's variants differ in it today; stages need one unit
        raise ValueError("precision needs the same rounds per session in every variant")
    return pers[0]


#: the only rows a run of no rounds lacks: those of sessions of several rounds, which exist
#: only once a session of several rounds is played (every other row is there with n = 0)
SESSION_PREFIX = "session."


def known_names(probes, wanted, sessions: bool = False, error=None) -> list[int]:
    """Refuse the first name of ``wanted`` the run would not have, before anything is played
    or compiled; return each variant's rounds per session.

    ``probes``: ``[(count, quantities)]`` per variant: ``count(**more)`` runs it
    (``g.counters`` with its arguments bound), ``quantities(counters)`` gives its rows.  The
    names come from a run of no sessions: the counters are zeros and the table is Python over
    them, so nothing is played or compiled.  ``sessions``: sessions of several rounds
    (``session_rounds`` > 1), whose session quantities only a played session has: only a
    missing name that is one of them (``session.*``) is then looked for in a run of two
    sessions.  ``error(name, close names)``: the message of the ValueError raised."""
    import difflib

    pers, names = [], None
    for count, quantities in probes:
        layout = {}
        c = count(rounds=0, seed=0, blocks=None, layout=layout, progress=False)
        pers.append(layout["rounds_per_session"])
        have = {q for q, _ in quantities(c)}
        names = have if names is None else names & have
    missing = [q for q in wanted if q not in names]
    if sessions and any(q.startswith(SESSION_PREFIX) for q in missing):
        names = None
        for count, quantities in probes:
            c = count(rounds=2 * max(pers), seed=0, blocks=None, progress=False)
            have = {q for q, _ in quantities(c)}
            names = have if names is None else names & have
    for q in missing:
        if q not in names:
            near = difflib.get_close_matches(q, sorted(names), n=3)
            raise ValueError(error(q, near))
    return pers


def stages(per: int, cap: int, multiple: int = 1) -> list[int]:
    """The rounds each stage ends at: whole sessions of ``per`` rounds (whole ``multiple``s of
    sessions), START_ROUNDS and doubling, and finally the cap (``rounds``) itself."""
    unit = per * multiple
    first = -(-START_ROUNDS // unit) * unit
    out = []
    r = first
    while r < cap:
        out.append(r)
        r *= 2
    return out + [cap]


class Extension:
    """Every variant's counters over the sessions played so far, extended stage by stage.

    ``grow(key, count)`` (for the stage ending at ``rounds``) runs only the sessions the
    variant has not played and adds them: integer arrays add; a comparison's blocks (equal
    groups of consecutive sessions) of the shorter run are merged in pairs, the blocks of the
    longer run over the same sessions.  A stage whose blocks do not continue the earlier ones
    (a cap that is not a doubling) plays the variant again from the first session."""

    def __init__(self, per: int, blocks: int | None = None):
        self.per = per
        self.blocks = blocks
        self.done = {}  # key -> (sessions, chunk, counters)
        self.batches = 0  # batches of the stages played to the end, every variant

    def at(self, rounds: int) -> Callable:
        n = -(-rounds // self.per)

        def grow(key, count):
            before, old_chunk, totals = self.done.get(key, (0, None, None))
            chunk = -(-n // self.blocks) if self.blocks else None
            if self.blocks and before and (before % chunk or chunk % old_chunk
                                           or before % old_chunk):
                before = 0
            new = count(sessions_from=before) if before else count()
            self.batches += _batches(count, n, before, self.per, chunk)
            totals = new if not before else _add(totals, new, chunk // old_chunk
                                                 if self.blocks else 1)
            self.done[key] = (n, chunk, totals)
            return totals
        return grow


def _batches(count, n: int, before: int, per: int, chunk: int | None) -> int:
    """How many batches ``count`` ran for sessions ``before`` to ``n``: the runner's plan, with
    the chunk a comparison's blocks give, else the one ``count`` was given (``chunk``, or the
    default for its ``slow``)."""
    from .engine.runner import batch_plan, default_chunk

    if chunk is None:
        given = {}
        while isinstance(count, partial):  # the arguments bound to g.counters, innermost last
            given = {**count.keywords, **given}
            count = count.func
        chunk = given.get("chunk") or default_chunk(per, bool(given.get("slow")))
    return len(batch_plan(n, chunk, before))


def _in_stages(e, before: int, stage: int, stages: int):
    """An interruption in stage ``stage`` (from 0) counted over the whole run: the batches of
    the earlier stages (``before``) and this stage's finished ones."""
    from .engine.runner import Interrupted

    if stages <= 1 or e.total is None:
        return e
    head = f" after {e.finished} of {e.total} batches"
    stopped, found, tail = str(e).partition(head)
    if not found:
        return e
    where = f"{e.finished} of {e.total} in stage {stage + 1} of at most {stages}"
    if tail.startswith(" (in "):  # " (in variant 2 of 3)": one parenthesis for both
        tail = f" ({where}, " + tail[len(" (in "):]
    else:
        tail = f" ({where})" + tail
    return Interrupted(f"{stopped} after {before + e.finished} batches{tail}", kept=e.kept,
                       signum=e.signum, finished=before + e.finished, total=None, rest=e.rest)


def _add(old: dict, new: dict, merge: int) -> dict:
    import numpy as np

    out = dict(new)
    for k, v in new.items():
        if k == "blocks":
            merged = {b: a.reshape((a.shape[0] // merge, merge) + a.shape[1:]).sum(axis=1)
                      for b, a in old["blocks"].items()}
            out[k] = {b: np.concatenate([merged[b], v[b]]) for b in v}
        elif isinstance(v, np.ndarray) and v.dtype.kind in "iu" and k in old:
            out[k] = old[k] + v
    return out


def widths(rows) -> dict:
    """``{quantity: the largest half-width among its rows}`` from ``(quantity, stats)`` rows or
    a table (rows with no interval count as infinitely wide)."""
    out = {}
    if hasattr(rows, "itertuples"):
        rows = [(r.quantity, {"ci_low": r.ci_low, "ci_high": r.ci_high})
                for r in rows.itertuples()]
    for q, st in rows:
        h = (float(st["ci_high"]) - float(st["ci_low"])) / 2
        h = h if math.isfinite(h) else math.inf
        out[q] = max(out.get(q, 0.0), h)
    return out


def run(targets, cap: int, per: int, measure: Callable, width: Callable,
        blocks: int | None = None):
    """Stages until every goal is met or the cap is reached.

    ``measure(rounds, grow)``: the run's result at ``rounds`` rounds, each variant's counters
    from ``grow(key, count)``; ``width(result)``: ``{quantity: half-width}``; ``blocks``: a
    comparison's blocks (an even number: every stage is whole blocks).  Returns ``(result,
    rounds, info)``, ``info`` for ``df.attrs["precision"]``."""
    from .engine.runner import Interrupted

    ext = Extension(per, blocks)
    plan = stages(per, cap, blocks or 1)
    for i, rounds in enumerate(plan):
        before = ext.batches
        try:
            result = measure(rounds, ext.at(rounds))
        except Interrupted as e:  # counted over the whole run, not within the stage
            raise _in_stages(e, before, i, len(plan)) from None
        got = width(result)
        if all(got.get(t.quantity, math.inf) <= t.halfwidth for t in targets):
            break
    met = all(got.get(t.quantity, math.inf) <= t.halfwidth for t in targets)
    info = dict(goal=",".join(map(str, targets)), cap=int(cap), reached=bool(met),
                stages=i + 1, first=int(plan[0]), rounds=int(rounds),
                halfwidths={t.quantity: _plain(got.get(t.quantity, math.inf))
                            for t in targets},
                asked={t.quantity: t.halfwidth for t in targets})
    if not met:
        info["rounds_needed"] = rounds_needed(targets, got, rounds)
    return result, rounds, info


def _plain(x):
    return float(x) if math.isfinite(x) else None


def rounds_needed(targets, got, rounds) -> int | None:
    """About how many rounds would meet every goal: a half-width shrinks as one over the root
    of the rounds (None when an interval could not be computed)."""
    need = 0.0
    for t in targets:
        h = got.get(t.quantity, math.inf)
        if not math.isfinite(h):
            return None
        need = max(need, rounds * (h / t.halfwidth) ** 2)
    digits = 10 ** max(0, len(str(int(need))) - 2)  # two significant figures, rounded up
    return int(-(-int(math.ceil(need)) // digits) * digits)


def _hw(x) -> str:
    return "no interval" if x is None else f"±{x:.3g}"


def note(info: dict) -> str:
    """The sentence a table carries about its precision goal."""
    parts = ", ".join(f"{q} {_hw(info['halfwidths'][q])} (asked ±{h:g})"
                      for q, h in info["asked"].items())
    if info["reached"]:
        n = info["stages"]
        how = (f"{n} stages, doubling from {info['first']:,}" if n > 1 else "one stage")
        return (f"precision reached after {info['rounds']:,} rounds ({how}): 99.9% "
                f"half-width of {parts}")
    need = info.get("rounds_needed")
    more = (f"; about {need:,} rounds would reach it (the cap is rounds, --rounds)"
            if need else "")
    return (f"precision not reached: the cap of {info['cap']:,} rounds came first; 99.9% "
            f"half-width of {parts}{more}")
