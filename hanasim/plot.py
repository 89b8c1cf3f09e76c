"""Charts of hanasim tables (matplotlib): the notebooks and the reports draw with these.

Every function takes a table from :func:`hanasim.simulate`, :func:`hanasim.compare` or
:func:`hanasim.sweep` and an optional matplotlib ``ax``, draws on it and returns the Axes.
Without ``ax`` a new figure is made with pyplot (so it shows in a notebook); the report passes
axes of a pyplot-free ``Figure``, so nothing here needs a display.

* :func:`seat_edges`: a per-seat quantity (mean score, win rate, fair par...) with its 99.9%
  interval against the line of fairness (for win rates: the equal share of the rounds that are
  not tied);
* :func:`teyaku_vs_exact`: teyaku frequencies as points with intervals on a log axis, the exact
  probabilities from :func:`hanasim.exact` as markers;
* :func:`dekiyaku_rates`: how often a captured pile scores each dekiyaku;
* :func:`compare_forest`: the paired difference of every variant of a comparison;
* :func:`sweep_curve`: a quantity against a swept rule's value, its band, and the solved value;
* :func:`score_distribution`: the distribution of a round's score (or a game's total) by seat;
* :func:`estimates`: any rows of a table as points with intervals, against a reference line;
* :func:`card_values`: the deck as a grid of its cards coloured by what each is worth to a
  seat (:func:`hanasim.card_values`), or by the change between two rule sets.

Points are estimates and bars 99.9% intervals throughout; labels are display names (the
table's ``label`` column), never code names.
"""
from __future__ import annotations

import io
import math
import re

import numpy as np
import pandas as pd

from .stats.labels import display, label_of, seat_label, seat_of

SIM_COLOR = "#3b6ea8"
EXACT_COLOR = "#c0392b"
ALT_COLOR = "#e08a1e"
REF_COLOR = "#777777"
DPI = 200  # twice the screen's: sharp in a report and when zoomed


def _axes(ax, figsize=(8, 4)):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def figure_bytes(fig, fmt: str = "png", dpi: int = DPI) -> bytes:
    """A figure as PNG (at ``dpi``) or SVG bytes, without pyplot."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    buf = io.BytesIO()
    if fig.canvas is None or not hasattr(fig.canvas, "print_figure"):
        FigureCanvasAgg(fig)
    fig.savefig(buf, format=fmt, dpi=dpi)
    return buf.getvalue()


def new_figure(width=8.0, height=4.0, rows=1, cols=1, **kw):
    """A pyplot-free Figure and its axes (for files and reports)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False, **kw)
    return fig, axes


def _errors(rows: pd.DataFrame):
    est = rows["estimate"].to_numpy(float)
    lo = np.clip(est - rows["ci_low"].to_numpy(float), 0, None)
    hi = np.clip(rows["ci_high"].to_numpy(float) - est, 0, None)
    return est, np.vstack([lo, hi])


def _labels(rows: pd.DataFrame) -> list:
    if "label" in rows.columns:
        return list(rows["label"])
    return [label_of(q) for q in rows["quantity"]]


def _legend_outside(ax, ncol=3):
    """The legend outside the data, to the right (it never covers a row or a marker), listing
    only what is drawn (an empty group, e.g. no significant pairing, is left out)."""
    kept = [(h, lab) for h, lab in zip(*ax.get_legend_handles_labels()) if _drawn(h)]
    if kept:  # long labels wrapped: the legend never squeezes the data to a sliver
        ax.legend([h for h, _ in kept], [_wrap(lab, 34) for _, lab in kept], loc="upper left",
                  bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)


def _drawn(artist) -> bool:
    """Whether a legend handle's artist shows anything (a scatter of no points does not)."""
    if hasattr(artist, "get_offsets"):
        return len(artist.get_offsets()) > 0
    if hasattr(artist, "get_xdata"):
        return len(artist.get_xdata()) > 0
    return True


def _game(df):
    from .games import get_game

    name = df.attrs.get("game") or (df["game"].iloc[0] if "game" in df.columns and len(df)
                                    else None)
    return get_game(name) if name else None


def exact_values(exact_df: pd.DataFrame | None) -> dict:
    """quantity -> exact row under the condition :func:`hanasim.simulate` measures: teyaku over
    the rounds actually played (``no_misdeal``), the misdeal rate over all deals.  A table
    with rows for several readings (Taoshi: one per ``bakefuda`` reading) lists the rules' own
    reading first, and the first row of a condition is the one taken."""
    if exact_df is None or exact_df.empty:
        return {}
    out = {}
    for q, grp in exact_df.groupby("quantity", sort=False):
        conds = {}
        for c, i in zip(grp["condition"], grp.index):
            conds.setdefault(c, i)
        idx = conds.get("no_misdeal", conds.get("all_deals", grp.index[0]))
        out[q] = exact_df.loc[idx]
    return out


# ------------------------------------------------------------------------- simulate tables

#: per-seat metrics and their names (a game's reading says which one is its edge)
METRICS = {
    "mean_score": "mean score per round",
    "mean_advantage": "mean score less the opponent's, per round",
    "mean_net": "mean coins won per round (net)",
    "mean_chips": "mean chips won per round",
    "win_rate": "win rate",
    "fair_par": "fair par",
    "fair_burden": "fair burden",
    "par_balance": "card points minus par",
    "burden_balance": "card points minus burden",
    "card_points": "card points",
    "yaku_score": "yaku score",
}


def _seat_rows(df, metric):
    """The per-round seat rows of ``metric``, in the order of the game's reading's seats."""
    from .reading import reading_of

    g = _game(df)
    rd = reading_of(g)
    by = df.set_index("quantity")
    rows = [by.loc[q].to_dict() | {"quantity": q, "seat": s}
            for s, q in rd.seat_quantities(metric, by.index)]
    return pd.DataFrame(rows), g, tuple(rd.seats)


def _pars(df, g, seats):
    from .rules import parse_rules_string

    par = parse_rules_string(df.attrs.get("rules", "")).get("par")
    default = getattr(g, "par", None)
    if par is None:
        return [default] * len(seats)
    values = [float(v) for v in str(par).split(",")]
    return values * len(seats) if len(values) == 1 else values


def edge_reference(df: pd.DataFrame, metric: str) -> tuple[float | None, str]:
    """The line of fairness :func:`seat_edges` draws for ``metric`` (a single value), from
    the game's reading: ``(value or None, words)``."""
    from .reading import reading_of

    rows, g, seats = _seat_rows(df, metric)
    reading = reading_of(g)
    if metric == "card_points" and g is not None and hasattr(g, "deck_points"):
        n = len(rows) or len(seats)
        return g.deck_points / n, f"an equal share of the deck's points ({g.deck_points / n:g})"
    return reading.reference(metric, df.set_index("quantity"), len(rows) or len(seats))


def seat_edges(df: pd.DataFrame, metric: str | None = None, ax=None):
    """One row per seat of ``metric`` with its 99.9% interval against the line of fairness
    the game's reading declares (:mod:`hanasim.reading`).  ``metric`` defaults to the game's
    edge (mean_score; koi-koi: mean_advantage, a seat's score less the opponent's; taipa:
    mean_net coins; kushiro: mean_chips).  Lines: 0 for a score that can be negative (a
    score that cannot, koi-koi's under winner-only scoring, is drawn against an equal share of
    the points scored); an
    equal share of the rounds someone wins for a win rate; the par (or burden) played for a
    fair par (burden); the deck's points shared equally for card points.  Seats are what the
    reading says (relative to the round's dealer; Taoshi: the active players in turn order).
    Player rows (whoever sat where) and game totals are other questions."""
    from .reading import reading_of

    if metric is None:
        metric = reading_of(_game(df)).edge_metric
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}, got {metric!r}")
    rows, g, seats = _seat_rows(df, metric)
    if rows.empty:
        raise ValueError(f"this table has no per-seat {metric} rows")
    reading = reading_of(g)
    ax = _axes(ax, (8, 0.5 * len(rows) + 1.6))
    est, err = _errors(rows)
    y = np.arange(len(rows))[::-1]
    ax.errorbar(est, y, xerr=err, fmt="o", color=SIM_COLOR, ecolor="black", capsize=4,
                label="estimate, 99.9% interval")
    if metric == "fair_par":
        pars = _pars(df, g, list(rows["seat"]))
        if len(set(pars)) == 1:
            ax.axvline(pars[0], color=REF_COLOR, linestyle="--", linewidth=1,
                       label=f"the par played ({pars[0]:g})")
        else:
            ax.scatter(pars, y, marker="|", s=300, color=REF_COLOR, label="the par played")
    elif metric == "fair_burden" and g is not None and hasattr(g, "burdens_played"):
        played = g.burdens_played(df.attrs.get("rules", ""))[:len(rows)]
        ax.scatter(played, y, marker="|", s=300, color=REF_COLOR, label="the burden played")
    else:
        ref, words = edge_reference(df, metric)
        if ref is not None:
            ax.axvline(ref, color=REF_COLOR, linestyle="--", linewidth=1, label=words)
    if metric == "win_rate":
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(5))  # percentages never run into each other
        ax.xaxis.set_major_formatter(_percent())
    ax.set_yticks(y, [_seat_name(s, g, _players(df)) for s in rows["seat"]])
    ax.set_ylim(-0.7, len(rows) - 0.3)
    unit = f" ({reading.unit})" if metric.startswith("mean_") and \
        reading.unit not in METRICS[metric] else ""
    ax.set_xlabel(METRICS[metric] + unit)
    ax.grid(axis="x", alpha=0.3)
    _legend_outside(ax, 2)
    return ax


def _seat_name(seat, g, players) -> str:
    """A per-round seat as the game's reading names it (Taoshi's active players)."""
    from .stats.labels import position_label

    return position_label(seat, g, players)


def _players(df) -> int | None:
    """Players seated in the table's run (``players`` rule), if the game has the rule."""
    from .rules import parse_rules_string

    v = parse_rules_string(df.attrs.get("rules", "") or "").get("players")
    try:
        return int(v) if v is not None else None
    except ValueError:
        return None


def _percent():
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0)


def deal_rows(df: pd.DataFrame, prefix: str = "teyaku.") -> pd.Series:
    """Which rows are a hand's (or place's) odds at the deal: ``prefix`` rows, but not a rate
    of something done with them (Taoshi's ``teyaku.claim_rate``: the share of active players
    who claim one, not a teyaku)."""
    q = df["quantity"]
    return q.str.startswith(prefix) & ~q.str.endswith("_rate")


def teyaku_vs_exact(df: pd.DataFrame, exact_df: pd.DataFrame | None = None, ax=None,
                    prefix: str = "teyaku.",
                    xlabel: str = "probability that a dealt hand holds it (log scale)",
                    log: bool = True, labels=None):
    """Teyaku frequencies (share of dealt hands, in played rounds) as points with 99.9%
    intervals on a log axis; the exact probabilities (:func:`hanasim.exact`, conditioned on no
    misdeal as the simulation counts them) as diamonds.  ``prefix``: other deal-time rows
    (Taipa: ``"deal."``), labelled by the table's labels (or ``labels``); ``log``: a log axis."""
    rows = df[deal_rows(df, prefix)].reset_index(drop=True)
    if rows.empty:
        raise ValueError(f"this table has no {prefix.rstrip('.')} rows")
    ax = _axes(ax, (8, 0.5 * len(rows) + 1.8))
    exact = exact_values(exact_df)
    est, err = _errors(rows)
    y = np.arange(len(rows))[::-1]
    ax.errorbar(est, y, xerr=err, fmt="o", color=SIM_COLOR, ecolor="black", capsize=4,
                label="simulated, 99.9% interval")
    ex = [(yy, float(exact[q]["value"])) for yy, q in zip(y, rows["quantity"]) if q in exact]
    if ex:
        ax.scatter([v for _, v in ex], [yy for yy, _ in ex], marker="D", s=40, zorder=3,
                   facecolors="none", edgecolors=EXACT_COLOR, linewidths=1.5,
                   label="exact (combinatorics)")
    if log:
        ax.set_xscale("log")
    if labels is None:  # a teyaku by its game's own name (Ishikari's "One-Two-Four")
        g = _game(df)
        labels = ([_teyaku_name(label_of(q, g)) for q in rows["quantity"]]
                  if prefix == "teyaku." else _labels(rows))
    ax.set_yticks(y, list(labels))
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", which="both", alpha=0.25)
    _legend_outside(ax, 2)
    return ax


def _teyaku_name(label: str) -> str:
    """"Teyaku: One-Two-Four" -> "One-Two-Four" (a name as the table writes it; "any" stays
    lower case, as the table writes it)."""
    name = label.split(": ", 1)[-1]
    return name if name == "any" else name[:1].upper() + name[1:]


def dekiyaku_rates(df: pd.DataFrame, ax=None):
    """How often a player's captured pile scores each dekiyaku (a pile can score several),
    with 99.9% intervals; 'any' is the share scoring at least one."""
    rows = df[df["quantity"].str.startswith("dekiyaku.")]
    if rows.empty:
        raise ValueError("this table has no dekiyaku rows")
    rows = rows.sort_values("estimate").reset_index(drop=True)
    ax = _axes(ax, (8, 0.38 * len(rows) + 1.6))
    est, err = _errors(rows)
    y = np.arange(len(rows))
    ax.barh(y, est, height=0.65, color=SIM_COLOR, alpha=0.75, label="simulated")
    ax.errorbar(est, y, xerr=err, fmt="none", ecolor="black", elinewidth=1, capsize=3,
                label="99.9% interval")
    ax.set_yticks(y, [display(q.split(".", 1)[1]) for q in rows["quantity"]])
    ax.set_xlim(0, min(1.0, float(rows["ci_high"].max()) * 1.08))
    ax.xaxis.set_major_formatter(_percent())
    from .reading import reading_of

    ax.set_xlabel(reading_of(_game(df)).dekiyaku_axis)
    ax.grid(axis="x", alpha=0.25)
    _legend_outside(ax, 2)
    return ax


def score_distribution(df: pd.DataFrame, which=None, ax=None):
    """The distribution of scores (``df.attrs["distributions"]``, see
    :func:`hanasim.distributions`): by default a round's score for every seat, as the share of
    rounds at each score (a line per seat), with the 5th, 50th and 95th percentiles marked.
    ``which``: distribution names (``round_score.dealer``, ``game.first_dealer.total``...)."""
    from .stats.distribution import table

    dist = table(df)
    if dist.empty:
        raise ValueError("this table has no distributions (they are kept in df.attrs, which a "
                         "CSV file loses: load the run from the store, or simulate again)")
    names = list(dict.fromkeys(dist["distribution"]))
    if which is None:
        which = [n for n in names if n.startswith("round_score.")] or names[:1]
    elif isinstance(which, str):
        which = [which]
    unknown = [w for w in which if w not in names]
    if unknown:
        raise ValueError(f"no distribution {unknown[0]!r}; this table has: {', '.join(names)}")
    from .reading import reading_of

    ax = _axes(ax, (8, 4))
    colors = [SIM_COLOR, ALT_COLOR, "#4e9a5a", "#8e5ea2", EXACT_COLOR, "#555555"]
    by = df.set_index("quantity")
    g, players = _game(df), _players(df)
    lows, highs = [], []
    for k, name in enumerate(which):
        d = dist[dist["distribution"] == name]
        color = colors[k % len(colors)]
        seat = seat_of(name)
        # seats named as the edges chart and the table name them (for the players seated)
        lab = _seat_name(seat, g, players) if seat and name.startswith("round_score.") else \
            label_of(name, g, players)
        score, share = d["score"].to_numpy(dtype=float), d["share"].to_numpy(dtype=float)
        plays = by["estimate"].get(f"seat.{seat}.play_rate") if seat else None
        played = reading_of(g).sits_out_as_zero and name.startswith("round_score.") and \
            plays is not None and 0 < plays < 1
        if played:  # Ishikari Toppa: a round the seat sits out counts 0 in the table's
            # histogram; drawn: the rounds it plays (the sat-out share taken off the 0 bin)
            share = np.where(score == 0, share - (1 - plays), share) / plays
            share = np.clip(share, 0, None)
            lab = f"{lab}: plays {plays:.0%} of rounds"
        ax.plot(score, share, drawstyle="steps-mid", color=color, linewidth=1.2, label=lab)
        cum = np.cumsum(share) / max(share.sum(), 1e-300)
        if len(score):
            lows.append(score[min(np.searchsorted(cum, 0.001), len(score) - 1)])
            highs.append(score[min(np.searchsorted(cum, 0.999), len(score) - 1)])
        if played:  # the rounds played: their own percentiles (the table's rows count all)
            marks = [(q, score[min(np.searchsorted(cum, p), len(score) - 1)])
                     for q, p in (("q05", 0.05), ("q50", 0.5), ("q95", 0.95))]
        else:
            marks = [(q, by.loc[f"{name}.{q}", "estimate"]) for q in ("q05", "q50", "q95")
                     if f"{name}.{q}" in by.index]
        for q, v in marks:
            if not math.isnan(v):
                ax.axvline(v, color=color, linestyle=":" if q != "q50" else "--",
                           linewidth=0.9)
    if lows and len(dist):  # a few rounds far out (a chase's multiplied payments) squeeze
        lo, hi = min(lows), max(highs)  # the body into a line: draw 99.8% of each seat
        full = dist["score"].max() - dist["score"].min()
        if full > 0 and hi - lo < full / 2:
            pad = 0.05 * (hi - lo) + 1
            ax.set_xlim(lo - pad, hi + pad)
    ax.set_xlabel(f"score ({reading_of(g).unit}); dashed: median, dotted: 5th and 95th "
                  "percentiles")
    ax.set_ylabel("share")
    ax.yaxis.set_major_formatter(_percent())
    ax.grid(alpha=0.25)
    _legend_outside(ax, min(3, len(which)))
    return ax


def estimates(df: pd.DataFrame, quantities, ax=None, ref: float | None = None,
              ref_label: str | None = None, labels=None):
    """Any rows of a table, by quantity name (in the order given), as points with 99.9%
    intervals, labelled by the table's ``label`` (or ``labels``), with an optional reference
    line: the general form of :func:`seat_edges` (game totals, player rows...)."""
    quantities = list(quantities)
    by = df.set_index("quantity")
    missing = [q for q in quantities if q not in by.index]
    if missing:
        raise ValueError(f"no quantity {missing[0]!r} in this table")
    rows = by.loc[quantities].reset_index()
    ax = _axes(ax, (8, 0.45 * len(rows) + 1.6))
    est, err = _errors(rows)
    y = np.arange(len(rows))[::-1]
    ax.errorbar(est, y, xerr=err, fmt="o", color=SIM_COLOR, ecolor="black", capsize=4,
                label="estimate, 99.9% interval")
    if ref is not None:
        ax.axvline(ref, color=REF_COLOR, linestyle="--", linewidth=1, label=ref_label)
    ax.set_yticks(y, list(labels) if labels is not None else _labels(rows))
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.grid(axis="x", alpha=0.3)
    _legend_outside(ax)
    return ax


# ------------------------------------------------------------------------- compare and sweep

def compare_forest(cmp: pd.DataFrame, quantity: str, ax=None):
    """The difference (variant − baseline) of ``quantity`` for every variant of a
    :func:`hanasim.compare` table, with its paired 99.9% interval; red when the interval
    excludes 0 (the change is real)."""
    rows = cmp[(cmp["kind"] == "difference") & (cmp["quantity"] == quantity)]
    if rows.empty:
        raise ValueError(f"no difference rows for {quantity!r} in this comparison")
    rows = rows.reset_index(drop=True)
    # the game's own label (Ishikari's "First to play: ..."), for the players seated
    label = label_of(quantity, _game(cmp), _players(cmp))
    return _forest(rows, list(rows["variant"]), 0, "a real change",
                   f"{label}: change from {rows['baseline'].iloc[0]}", ax)


def _forest(rows, labels, ref, significant_label, xlabel, ax, ref_words=None):
    """Estimates with their 99.9% intervals, one line each (top to bottom), red where
    ``rows.significant``, a dashed line at ``ref`` (one value), or a mark per row at its own
    fair value (``ref`` a sequence: Bakappana's additive tournament, whose fair share depends
    on the points the pairing captured); ``ref_words`` names the line."""
    ax = _axes(ax, (8, 0.45 * len(rows) + 1.8))
    est, err = _errors(rows)
    y = np.arange(len(rows))[::-1]
    sig = rows["significant"].fillna(False).astype(bool).to_numpy()
    refs = np.atleast_1d(np.asarray(ref, dtype=float))
    one = len(refs) == 1 or np.allclose(refs, refs[0])
    words = ref_words or (f"{refs[0]:g}" if one else "the fair value")
    ax.errorbar(est, y, xerr=err, fmt="none", ecolor="black", capsize=3)
    ax.scatter(est[~sig], y[~sig], color=SIM_COLOR, zorder=3,
               label=f"interval includes {words}")
    ax.scatter(est[sig], y[sig], color=EXACT_COLOR, zorder=3, label=significant_label)
    if one:
        ax.axvline(refs[0], color=REF_COLOR, linestyle="--", linewidth=1,
                   label=None if ref_words is None else ref_words)
    else:
        ax.scatter(refs, y, marker="|", s=300, color=REF_COLOR, label=words)
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    _legend_outside(ax, 2)
    return ax


def tournament(t: pd.DataFrame, quantity: str | None = None, ax=None):
    """Player 1's ``quantity`` (mean score, or in koi-koi mean advantage, by default; or win
    rate) for every pairing of a :func:`hanasim.tournament` table, with its 99.9% interval;
    red when the interval excludes 0 (the policy beats that opponent, or loses to it).  The
    title says the game, the policies and the rounds (:func:`hanasim.tournament.title`)."""
    from .tournament import strength_quantity, strength_words, title

    quantity = quantity or strength_quantity(t)
    rows = t[t["quantity"] == quantity].reset_index(drop=True)
    if rows.empty:
        raise ValueError(f"no {quantity!r} rows in this tournament table")
    words = (f"player 1's {strength_words(t)}" if quantity == strength_quantity(t) else
             f"player 1's {quantity.replace('_', ' ')}")
    if "reference" in rows.columns:  # the fair value the tournament judged each pairing by
        ref = rows["reference"].fillna(0).to_numpy(dtype=float)
    else:  # a table stored before tournaments kept one
        ref = np.full(len(rows), 0.5 if quantity == "win_rate" else 0.0)
    fair = None
    if np.abs(ref).max() > 1e-9 and quantity != "win_rate":
        fair = "an equal share of the round's points" if not np.allclose(ref, ref[0]) else \
            f"an equal share of the round's points ({ref[0]:.4g})"
    ax = _forest(rows, [f"{a} vs {b}" for a, b in zip(rows["policy"], rows["opponent"])],
                 ref, "significant", words, ax, ref_words=fair)
    if t.attrs.get("game"):
        ax.set_title(_wrap(title(t), 70), fontsize=10, loc="left")
    return ax


def _wrap(text: str, width: int) -> str:
    """A title on as many lines as it needs (a long title is wrapped, never clipped)."""
    import textwrap

    return "\n".join(textwrap.wrap(text, width)) or text


def sweep_curve(sw: pd.DataFrame, quantity: str, ax=None, target: float | None = None):
    """``quantity`` against the swept rule's value: estimates joined by a line, the 99.9% band,
    the values the rule texts name (readings) marked, and where the curve crosses ``target`` (or the
    target the sweep solved for) with its interval."""
    swept = list(sw.attrs.get("swept") or [])
    if len(swept) != 1:
        raise ValueError("sweep_curve draws a sweep of one rule")
    rule = swept[0]
    rows = sw[sw["quantity"] == quantity].copy()
    if rows.empty:
        raise ValueError(f"no quantity {quantity!r} in this sweep")
    rows["x"] = pd.to_numeric(rows[rule], errors="coerce")
    numeric = rows["x"].notna().all()
    rows = rows.sort_values("x") if numeric else rows.assign(x=np.arange(len(rows)))
    ax = _axes(ax, (8, 4))
    if numeric:  # a curve: values in between mean something
        ax.fill_between(rows["x"], rows["ci_low"], rows["ci_high"], color=SIM_COLOR,
                        alpha=0.2, label="99.9% interval")
        ax.plot(rows["x"], rows["estimate"], "o-", color=SIM_COLOR, markersize=3.5,
                label="estimate")
        if (rows["x"] == rows["x"].round()).all():  # players, rounds: no 2.25 players
            from matplotlib.ticker import MaxNLocator

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    else:  # named values: points with their intervals, no line between categories
        est, err = _errors(rows)
        ax.errorbar(rows["x"], est, yerr=err, fmt="o", color=SIM_COLOR, ecolor="black",
                    capsize=4, label="estimate, 99.9% interval")
        ax.set_xticks(rows["x"], list(rows[rule]))
        ax.set_xlim(-0.5, len(rows) - 0.5)
    if numeric:  # each value a rule text names, in its own colour, named by its text
        seen = [(v, w) for v, w in _readings(sw, rule) if rows["x"].min() <= v <= rows["x"].max()]
        for k, (v, words) in enumerate(seen):
            ax.axvline(v, color=READING_COLORS[k % len(READING_COLORS)], linestyle=":",
                       linewidth=1.4, label=f"{v:g}: {_wrap(words, 34)}")
    solved = [s for s in (sw.attrs.get("solved") or []) if s.get("quantity") == quantity]
    if target is not None:
        from .stats.sweep import solve

        solved = [solve(sw, quantity, target)]
    for s in solved:
        ax.axhline(s["target"], color=REF_COLOR, linestyle="--", linewidth=1,
                   label=f"target {s['target']:g}")
        if not math.isnan(s["value"]):
            lo = s["ci_low"] if not math.isnan(s["ci_low"]) else rows["x"].min()
            hi = s["ci_high"] if not math.isnan(s["ci_high"]) else rows["x"].max()
            ax.errorbar([s["value"]], [s["target"]], xerr=[[s["value"] - lo], [hi - s["value"]]],
                        fmt="D", color=EXACT_COLOR, capsize=5,
                        label=f"crosses at {s['value']:.4g} [{lo:.4g}, {hi:.4g}]")
    ax.set_xlabel(_rule_label(rule))
    ax.set_ylabel(_wrap(sweep_label(sw, quantity), 34))
    from .readable import is_share

    if is_share(quantity):
        ax.yaxis.set_major_formatter(_percent())
    ax.grid(alpha=0.3)
    _legend_outside(ax, 2)
    return ax


def sweep_label(sw: pd.DataFrame, quantity: str) -> str:
    """``quantity``'s label in a sweep: the game's own (Taipa's "Round's first player: ..."),
    its seats named for the players seated (Taoshi's active players in turn order)."""
    players = (sw.attrs.get("fixed") or {}).get("players")
    try:
        players = int(players) if players is not None else _players(sw)
    except (TypeError, ValueError):
        players = None
    return label_of(quantity, _game(sw), players)


#: the dotted lines of the values the rule texts name (a sweep chart)
READING_COLORS = ("#4e9a5a", "#8e5ea2", "#b07a2a")


def _readings(sw, rule) -> list:
    """The values the rule texts name for ``rule`` (``rules.number(readings=...)``)."""
    from .rules import options

    g = _game(sw)
    base = rule.split(".")[0]
    for o in options(g.Rules) if g is not None else ():
        if o["name"] == base:
            return [(float(v), w) for v, w in o["readings"] if isinstance(v, (int, float))]
    return []


def _rule_label(rule: str) -> str:
    base, _, seat = rule.partition(".")
    text = display(base) if base != "par" else "Par"
    return f"{text} ({seat_label(seat)})" if seat else text


def sweep_figure(sw: pd.DataFrame, quantities, width=8.0):
    """One :func:`sweep_curve` panel per quantity, in a pyplot-free Figure (``hanasim sweep
    --chart``)."""
    quantities = list(quantities)
    if not quantities:
        raise ValueError("name a quantity to chart (--quantity)")
    fig, axes = new_figure(width, 3.6 * len(quantities), rows=len(quantities))
    for ax, q in zip(axes[:, 0], quantities):
        sweep_curve(sw, q, ax=ax)
        ax.set_title(sweep_label(sw, q), fontsize=10, loc="left")
    g = _game(sw)
    fig.suptitle(_wrap(f"{g.title if g else sw.attrs.get('game')}: sweep of "
                       f"{', '.join(sw.attrs.get('swept', []))} "
                       f"({sw.attrs.get('rounds', 0):,} rounds per value, same deals)",
                       int(width * 11)), fontsize=11)
    return fig


def card_values(table: pd.DataFrame, seat: str | None = None, dealt_to: str = "hand", ax=None):
    """The deck as a grid, one cell a card (the hanafuda deck: 12 months x 4 cards; Taipa's: 6
    suits x 8; the mekurifuda deck: 12 numbers x 4 suits), coloured by the card's value to
    ``seat`` (default: the dealer) when dealt to it (``dealt_to="field"``: to the field), on a
    diverging colormap centred at 0 (red: worth more than the seat's mean round; blue: less).
    A table from :func:`hanasim.card_values` with ``vs_rules`` is drawn as the change between
    the two rule sets.  Each cell shows the card's code (what ``--given`` reads), its name
    and its value; a value whose 99.9% interval excludes 0 is in bold.  Taipa's copies of a
    card are the same card to the rules: their cells show the copies' pooled value
    (:func:`hanasim.stats.card_values.pooled`)."""
    from matplotlib.colors import TwoSlopeNorm

    from .stats.card_values import copies_pooled, deck_of, pooled

    col = "difference" if "difference" in table.columns else "value"
    where = dealt_to
    rows = table[table["dealt_to"] == where]
    if rows.empty:
        raise ValueError(f"no {where!r} rows in this table (dealt_to is 'hand', or 'field' for a "
                         f"game with a field)")
    seats = list(dict.fromkeys(rows["seat"]))
    seat = seats[0] if seat is None else seat
    if seat not in seats:  # a word --given takes (Taoshi's "right" is its table's "seat1")
        from .worth import seat_token

        players = _players(table) or table.attrs.get("players")
        try:
            seat = seat_token(table.attrs.get("game") or rows["game"].iloc[0], seat, seats,
                              rules={"players": players} if players else None)
        except ValueError:
            raise ValueError(f"no seat {seat!r} in this table; seats: {', '.join(seats)}") \
                from None
    rows = rows[rows["seat"] == seat]
    pool = copies_pooled(rows) and "code" in rows.columns
    if pool:  # each copy's cell shows its card's pooled value
        merged = pooled(rows).set_index("code")
        base = rows["code"].str.replace(r"\d+$", "", regex=True)
        rows = rows.copy()
        for c in (col, "ci_low", "ci_high"):
            rows[c] = [merged.loc[b, c] for b in base]
    g = _game(table)
    deck = deck_of(g)
    groups = [int(m) for m in deck.month]
    months = sorted(set(groups))
    place = {}
    for c, m in enumerate(groups):  # a card's column: its place among its month's cards
        place[c] = sum(1 for d in range(c) if groups[d] == m)
    depth = max(place.values()) + 1
    grid = np.full((depth, len(months)), np.nan)
    by_card = {name: r for name, r in zip(rows["card"], rows.itertuples(index=False))}
    ax = _axes(ax, (max(8.0, 0.95 * len(months) + 1.5), 0.9 * depth + 1.9))
    from .notation import notation_of

    codes = notation_of(deck).codes
    cells = []
    for c, name in enumerate(deck.names):
        r = by_card.get(name)
        if r is None:
            continue
        x, y = months.index(groups[c]), place[c]
        v = float(getattr(r, col))
        grid[y, x] = v
        lo, hi = float(r.ci_low), float(r.ci_high)
        sure = (lo > 0 or hi < 0) if not (math.isnan(lo) or math.isnan(hi)) else False
        cells.append((x, y, v, _card_cell(deck, name, codes[c]), sure))
    finite = grid[np.isfinite(grid)]
    top = float(np.max(np.abs(finite))) if finite.size else 1.0
    top = top or 1.0
    # a tenth at most, finer for small units (Taipa's coins, a change of a few hundredths)
    digits = max(1, 1 - math.floor(math.log10(top)))
    for x, y, v, text, sure in cells:  # white on the darkest cells
        text += "\n" + ("" if math.isnan(v) else f"{v:+.{digits}f}")
        ax.text(x, y, text, ha="center", va="center", fontsize=6.5,
                color="white" if abs(v) > 0.65 * top else "black",
                fontweight="bold" if sure else "normal")
    im = ax.imshow(grid, cmap="RdBu_r", norm=TwoSlopeNorm(0.0, -top, top), aspect="auto")
    from . import decks

    names = {"hanafuda": decks.MONTH_NAMES, "taipa": decks.TAIPA_SUITS}.get(deck.name)
    ax.set_xticks(range(len(months)),
                  [names[m - 1].replace("_", " ") if names else str(m) for m in months],
                  rotation=45 if names else 0, ha="right" if names else "center", fontsize=8)
    ax.set_xlabel({"hanafuda": "month", "taipa": "suit"}.get(deck.name, "number"), fontsize=8)
    ax.set_yticks([])
    unit = table.attrs.get("unit", "points")
    from .given import seat_words_of

    # a card-values table records its table's size (attrs "players") even at default rules
    who = seat_words_of(_seat_name(seat, g, _players(table) or table.attrs.get("players")))
    what = "dealt to the field" if where == "field" else "dealt"
    game = g.title.split(" (")[0] if g is not None else table.attrs.get("game", "")
    if col == "difference":
        title = f"{game}: change in what each card is worth to {who} ({what})"
        label = f"change ({unit} a round)"
    else:
        title = f"{game}: what each card is worth to {who} ({what})"
        label = f"{unit} a round against the seat's mean"
    run = table.attrs
    sub = []
    if run.get("rounds"):
        sub.append(f"{int(run['rounds']):,} rounds")
    if run.get("policies"):
        sub.append(f"policies {run['policies']}")
    sub.append("bold: the 99.9% interval excludes 0")
    if pool:
        sub.append("copies of a card pooled")
    ax.set_title(title + "\n" + "; ".join(sub), fontsize=10)
    ax.figure.colorbar(im, ax=ax, label=label, shrink=0.9)
    return ax


def _card_cell(deck, name, code) -> str:
    """A card's text in a card-values cell: its code, then its name within its month where
    the code does not say it (``11b rain man``, ``9r blue ribbon``, ``1c1``; mekurifuda:
    the code alone, ``6cl``)."""
    if deck.name == "mekurifuda":
        return code
    tail = re.sub(r"\d+$", "", name.partition(".")[2]).replace("_", " ")
    if tail in ("chaff", "ribbon", ""):
        return code
    return f"{code} {tail}"
