"""Numbers and tables as a reader writes them (the CLI, the report and the charts use them).

``hanasim simulate``'s readable output: the game's answers first (its reading's headline,
with intervals and the play they assume), then every quantity grouped, with readable labels
and numbers as a reader writes them (percentages for rates, no ``1.08274e-05``).  ``--all``
prints the code-name table of old; ``--format csv`` / ``--out`` the whole tidy table.
"""
from __future__ import annotations

import math
import re

import pandas as pd

#: the groups of the readable table, in order: (title, test on the quantity's tokens)
GROUPS = ("At the deal", "Yaku", "Seats", "Rounds", "Round by round", "Games and sessions",
          "Players (whoever sat where)")
_DEAL = {"misdeal_rate", "teyaku", "deal", "field_brights", "teyaku_score",
         "four_in_hand_rate"}
_SHARE_HEADS = {"teyaku", "dekiyaku", "yaku", "deal", "field_brights", "end_turn",
                "teyaku_score"}


def group_of(quantity: str, seat: str) -> str:
    toks = quantity.split(".")
    if re.fullmatch(r"player\d+", seat or ""):
        return GROUPS[6]
    if toks[0] in _DEAL and not _seat_score(toks):
        return GROUPS[0]
    if toks[0] in ("dekiyaku", "yaku"):
        return GROUPS[1]
    if toks[0] == "round" and len(toks) > 2 and toks[1].isdigit():
        return GROUPS[4]
    if toks[0] in ("game", "session"):
        return GROUPS[5]
    if seat:
        return GROUPS[2]
    return GROUPS[3]


def _seat_score(toks) -> bool:
    """Taoshi's ``teyaku_score.<seat>``: a seat's mean teyaku points a round, not the share
    of hands worth a value (``teyaku_score.36``)."""
    return toks[0] == "teyaku_score" and len(toks) == 2 and not toks[1].isdigit()


def is_share(quantity: str) -> bool:
    """Whether a quantity is a share (printed as a percentage)."""
    toks = quantity.split(".")
    last = toks[-1]
    if last.endswith("_rate") or last.endswith("_share") or last in ("share", "rate"):
        return True
    if re.fullmatch(r"q\d\d", last) or last in ("mean", "sd", "mean_abs"):
        return False
    if toks[0] in _SHARE_HEADS and not _seat_score(toks):
        return True
    if len(toks) >= 2 and toks[-2] == "yaku":  # round.2.yaku.chaff
        return True
    if last.isdigit() and len(toks) >= 2 and toks[-2] in ("rounds", "final_coins"):
        return True
    return False


def number(v, share: bool = False) -> str:
    """A number as a reader writes it: a percentage for a share, otherwise up to 4
    significant digits with thousands separators, never in e-notation."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    v = float(v)
    if share:
        x = 100 * v
        if x == 0:
            return "0%"
        if abs(x) >= 0.1:
            return f"{x:.2f}%"
        return f"{_decimal(x, 2)}%"
    if v == 0:
        return "0"
    if abs(v) >= 1e5:
        return f"{v:,.0f}"
    if abs(v) >= 1e-3:
        return f"{v:,.4g}" if "e" not in f"{v:.4g}" else f"{v:,.0f}"
    return _decimal(v, 3)


def _decimal(v: float, sig: int) -> str:
    """``v`` with ``sig`` significant digits in plain decimals (0.0000108, not 1.08e-05)."""
    places = sig - 1 - int(math.floor(math.log10(abs(v))))
    return f"{v:.{max(places, 0)}f}"


def readable(df: pd.DataFrame) -> pd.DataFrame:
    """The table as printed: group, label, estimate and 99.9% interval in reader's numbers."""
    labels = df["label"] if "label" in df.columns else df["quantity"]
    seats = df["seat"] if "seat" in df.columns else [""] * len(df)
    rows = []
    for q, lab, seat, e, lo, hi in zip(df["quantity"], labels, seats, df["estimate"],
                                       df["ci_low"], df["ci_high"]):
        share = is_share(q)
        interval = ("" if any(isinstance(x, float) and math.isnan(x) for x in (lo, hi))
                    else f"{number(lo, share)} to {number(hi, share)}")
        rows.append(dict(group=group_of(q, seat), quantity=lab, estimate=number(e, share),
                         interval=interval))
    out = pd.DataFrame(rows, columns=["group", "quantity", "estimate", "interval"])
    order = {g: i for i, g in enumerate(GROUPS)}
    return out.iloc[sorted(range(len(out)), key=lambda i: (order[out["group"].iloc[i]], i))]


def assumption(meta) -> str:
    """The play the numbers assume, in a line."""
    from .report.build import policy_text

    if meta.get("deals_only"):
        return "deal-time quantities only: no play"
    pols = [p.strip() for p in str(meta.get("policies", "random")).split(",")]
    if len(set(pols)) == 1:
        p = pols[0]
        return (f"assuming every player {policy_text(meta, p)} (policy '{p}'), "
                "not expert play")
    return ("assuming " + ", ".join(f"player {i + 1} plays '{p}'" for i, p in enumerate(pols))
            + " (a lopsided pairing: seats mix the rules' edge with the gap in skill)")


def headline(df: pd.DataFrame) -> list[str]:
    """The game's key answers (its reading's headline) for this table."""
    from .games import get_game
    from .reading import reading_of, rules_dict

    try:
        g = get_game(df.attrs.get("game"))
    except ValueError:
        return []
    return reading_of(g).sentences(df.set_index("quantity"), rules_dict(df))


def print_readable(df: pd.DataFrame, out) -> None:
    """The answers, then every quantity grouped (see the module's docstring)."""
    lines = headline(df)
    if lines:
        print(f"\nThe answers, {assumption(df.attrs)}:", file=out)
        for line in lines:
            print(f"  {line}", file=out)
    else:
        print(f"\n{assumption(df.attrs)[:1].upper() + assumption(df.attrs)[1:]}.", file=out)
    t = readable(df)
    width = max([len(q) for q in t["quantity"]] + [10])
    est_w = max([len(e) for e in t["estimate"]] + [8])
    print("\nEvery quantity (estimate and 99.9% interval; 'hanasim simulate ... --all' shows "
          "the code names, --format csv everything):", file=out)
    for group, part in t.groupby("group", sort=False):
        print(f"\n{group}", file=out)
        for r in part.itertuples(index=False):
            print(f"  {r.quantity:<{width}}  {r.estimate:>{est_w}}  {r.interval}", file=out)


def columns_text(df: pd.DataFrame) -> str:
    """A small table of text cells in left-aligned columns (headers over their cells)."""
    cols = [str(c) for c in df.columns]
    cells = [[str(v) for v in row] for row in df.itertuples(index=False)]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(cols)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(cols, widths)).rstrip()]
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in cells]
    return "\n".join(lines)
