"""``--precision QUANTITY=HALFWIDTH`` on simulate, compare and sweep: the option and the line
the command says about it (the work is :mod:`hanasim.precision`)."""
from __future__ import annotations

import sys


def add_option(p, interval: str = "interval") -> None:
    p.add_argument("--precision", action="append", default=[], metavar="QUANTITY=HALFWIDTH",
                   help=f"play stages of rounds (10,000, then doubling) until QUANTITY's 99.9%% "
                   f"{interval} is at most ±HALFWIDTH, in the quantity's unit (a share: 0.01 "
                   f"is one percentage point); --rounds is then the cap (repeatable: every "
                   f"goal must be met), e.g. dealer.mean_score=0.5")


def goal(a):
    """The goals given (text for the API), or None."""
    return ",".join(a.precision) if getattr(a, "precision", None) else None


def say(df, out=None) -> None:
    """One line on stderr: the rounds the goal took, or that the cap came first (also when the
    table goes to a file or as CSV, where its notes are not printed)."""
    info = df.attrs.get("precision")
    if not isinstance(info, dict):
        return
    out = sys.stderr if out is None else out
    if info["reached"]:
        print(f"hanasim: precision {info['goal']} reached after {info['rounds']:,} rounds",
              file=out)
    else:
        need = info.get("rounds_needed")
        print(f"hanasim: precision {info['goal']} not reached: the cap of {info['cap']:,} "
              f"rounds (--rounds) came first"
              + (f"; about {need:,} rounds would reach it" if need else ""), file=out)


def goals(a) -> list:
    """The quantities the goals name (to show them in a sweep's table)."""
    from ..precision import goals as parse

    return [g.quantity for g in parse(goal(a))]
