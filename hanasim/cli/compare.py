"""``hanasim compare``: parsing and printing only (the work is :func:`hanasim.compare`)."""
from __future__ import annotations

import sys

from . import precision
from .common import (EXPOSE_HELP, PLAYERS_HELP, POLICY_FORMS_HELP, add_condition_options,
                     add_preset, add_store_option, add_threads_option, condition_args, emit,
                     parse_grid, print_notes, save_or_say, with_players)


def register(sub) -> None:
    p = sub.add_parser("compare", help="compare house-rule values or policies on the same deals")
    p.add_argument("game")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=V1,V2",
                   help="an option and the values to compare (repeatable; one value holds it "
                   "fixed; per-seat values are separated by |: par=120|104,136)")
    p.add_argument("--policy", action="append", default=[], metavar="P",
                   help="a policy setting to compare, e.g. random or greedy,random (repeatable). "
                   "Forms: " + POLICY_FORMS_HELP)
    add_preset(p)
    p.add_argument("--rounds", default=1_000_000, metavar="N", help="rounds per variant (default 1,000,000)")
    p.add_argument("--seed", default=None, metavar="S")
    p.add_argument("--expose", default="always", metavar="E", help=EXPOSE_HELP)
    p.add_argument("--players", default=None, metavar="N", help=PLAYERS_HELP)
    p.add_argument("--session-rounds", default=1, metavar="L")
    p.add_argument("--fixed-dealer", action="store_true",
                   help="player 1 deals every round (measure a policy pairing by seat)")
    add_condition_options(p)
    p.add_argument("--all", action="store_true", help="show every quantity, not only those that differ")
    p.add_argument("--negligible", default=None, metavar="SD",
                   help="a significant difference smaller than SD standard deviations of one "
                   "round reads 'significant but negligible' (default 0.01: over 100 rounds "
                   "it moves a total by a tenth of the spread luck gives it)")
    p.add_argument("--max-variants", default=None, metavar="N",
                   help="allow more than 64 variants (rule combinations x policies)")
    p.add_argument("--format", choices=("table", "csv"), default="table")
    add_threads_option(p)
    precision.add_option(p, "paired interval of every difference")
    p.add_argument("--no-progress", action="store_true")
    add_store_option(p)
    p.set_defaults(handler=cmd_compare)


def cmd_compare(a):
    from .. import api, store

    grid = with_players(parse_grid(a.rule), a.players)
    if a.negligible is not None:  # checked before the work
        a.negligible = api._negligible(a.negligible)
    if not a.no_save:
        store.check_store(a.store)
    max_variants = (None if a.max_variants is None else
                    api.check_rounds(a.max_variants, "--max-variants"))
    df = api.compare(a.game, rounds=a.rounds, seed=a.seed, rules=grid,
                     policies=a.policy or ["random"], expose=a.expose,
                     session_rounds=a.session_rounds, fixed_dealer=a.fixed_dealer,
                     preset=a.preset, threads=a.threads,
                     max_variants=max_variants, negligible=a.negligible,
                     precision=precision.goal(a), **condition_args(a),
                     progress=not a.no_progress and sys.stderr.isatty())
    precision.say(df)
    emit(lambda: print_comparison(df, a))
    return 0 if a.no_save else save_or_say(df, a.store)


def deals_differ(df) -> bool:
    """Whether the variants of a comparison were seen to be dealt different hands: their
    misdeal counts differ (a teyaku rate may differ because a rule redefines the teyaku; a
    misdeal is the deal's alone).  Games of several rounds (Bakappana's and Ishikari Toppa's
    12, Toppa's --session-rounds) draw a round's deal from the game's random stream, which the
    play also draws from: two policies then see the same first deal only."""
    d = df[df.kind == "difference"]
    deal = d["quantity"].astype(str) == "misdeal_rate"
    moved = (d["estimate"] != 0) | (d["std_error"].fillna(0) > 0)
    return bool((deal & moved).any())


def header(df) -> list[str]:
    """The comparison's first line: what ran, on the same deals or (when the deals differ)
    with the same seed."""
    meta = df.attrs
    where = (f"on the same deals, seed {meta['seed']}" if not deals_differ(df) else
             f"with the same seed {meta['seed']} for every variant")
    # the expose choice when it is not the default (a game without teyaku has none)
    expose = str(meta.get("expose") or "")
    shown = f"; expose {expose}" if set(expose.split(",")) - {"always", "none", ""} else ""
    dealer = "; player 1 deals every round" if meta.get("dealing") == "fixed" else ""
    return [f"{meta['game']}: {meta['rounds']:,} rounds per variant {where}, {meta['blocks']} "
            f"blocks; policies {meta['policies']}{shown}{dealer}; baseline: "
            f"{df.baseline.iloc[0]}"]


def print_comparison(df, a):
    import pandas as pd

    if a.format == "csv":
        df.to_csv(sys.stdout, index=False)
        return
    meta = df.attrs
    print("\n".join(header(df)))
    print_notes(meta)
    if deals_differ(df):
        print("note: the variants were dealt different hands after the first round of a game: "
              "a game's later deals come from the random stream its play draws from, so play "
              "that differs changes them (their misdeal rates differ); the "
              "differences are still paired game by game")
    all_diffs = df[df.kind == "difference"]
    moved = all_diffs[(all_diffs.estimate != 0) | (all_diffs.std_error.fillna(0) > 0)]
    if moved.empty:
        print("\nnothing differs: every quantity is identical in every variant (on these deals "
              "the rule changes nothing)")
        return
    if not all_diffs.significant.fillna(False).astype(bool).any():
        print("\nno quantity differs significantly (every 99.9% paired interval includes 0)"
              + ("" if a.all else "; --all shows them"))
    diffs = all_diffs if a.all else moved
    values = df[df.kind == "value"].pivot(index="quantity", columns="variant", values="estimate")
    with pd.option_context("display.max_rows", None, "display.width", 200):
        for variant, part in diffs.groupby("variant", sort=False):
            print(f"\n{variant}  vs  {part.baseline.iloc[0]}  (difference, 99.9% paired interval)")
            from ..readable import columns_text, is_share, number

            base_values = values[part.baseline.iloc[0]]
            shown = pd.DataFrame({
                "quantity": part.quantity,
                "baseline": [number(base_values[q], is_share(q)) for q in part.quantity],
                "variant": [number(values[variant][q], is_share(q)) for q in part.quantity],
                "difference": [_diff(v, q) for v, q in zip(part.estimate, part.quantity)],
                "99.9% interval": [f"{_diff(lo, q)} to {_diff(hi, q)}" for lo, hi, q in
                                   zip(part.ci_low, part.ci_high, part.quantity)],
                "per 100 rounds": [number(v) for v in part.per_100],
                "in round SDs": [number(v) for v in part.size_sd],
                "verdict": part.verdict})
            print(columns_text(shown))
    print(f"\n'pt': percentage points; 'per 100 rounds': the difference over 100 rounds (or "
          "hands, decisions: the "
          f"quantity's unit; blank for a percentile, a spread or a fair value, which do not "
          f"add up over rounds); 'in round SDs': the difference in standard deviations of one "
          f"round; a significant difference below {meta.get('negligible', 0.01):g} of them is "
          "'significant but negligible' (--negligible)")


def _diff(v, quantity) -> str:
    """A difference as a reader writes it: a share's in percentage points."""
    from ..readable import is_share, number

    return f"{number(100 * v)} pt" if is_share(quantity) else number(v)

