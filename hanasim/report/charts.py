"""Charts of a tidy table as PNG bytes (matplotlib's Agg canvas; pyplot is never touched, so
this works headless and leaves a notebook's backend alone).

Every chart function takes the tidy table of :func:`hanasim.simulate` and returns a
:class:`Chart` or ``None`` when the table has nothing to draw for it.  The same functions work
in a notebook: ``chart.figure`` is a matplotlib Figure.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

SIM_COLOR = "#3b6ea8"
EXACT_COLOR = "#c0392b"
REF_COLOR = "#777777"


@dataclass
class Chart:
    name: str      # file-name part: teyaku, dekiyaku, edges
    title: str
    caption: str
    figure: Figure

    def png(self, dpi: int = 100) -> bytes:
        buf = io.BytesIO()
        FigureCanvasAgg(self.figure)
        self.figure.savefig(buf, format="png", dpi=dpi)
        return buf.getvalue()


def _rows(df: pd.DataFrame, mask) -> pd.DataFrame:
    return df.loc[mask].reset_index(drop=True)


def _label(quantity: str, prefix: str = "") -> str:
    q = quantity[len(prefix):] if prefix and quantity.startswith(prefix) else quantity
    return q.replace("_", " ")


def _errors(rows: pd.DataFrame):
    est = rows["estimate"].to_numpy(float)
    lo = np.clip(est - rows["ci_low"].to_numpy(float), 0, None)
    hi = np.clip(rows["ci_high"].to_numpy(float) - est, 0, None)
    return est, np.vstack([lo, hi])


def exact_values(exact_df: pd.DataFrame | None) -> dict:
    """quantity -> exact value under the condition :func:`simulate` measures: teyaku over the
    rounds actually played (``no_misdeal``), the misdeal rate over all deals."""
    if exact_df is None or exact_df.empty:
        return {}
    out = {}
    for q, grp in exact_df.groupby("quantity", sort=False):
        conds = dict(zip(grp["condition"], grp.index))
        idx = conds.get("no_misdeal", conds.get("all_deals", grp.index[0]))
        out[q] = exact_df.loc[idx]
    return out


def teyaku_chart(df: pd.DataFrame, exact_df: pd.DataFrame | None, title: str) -> Chart | None:
    """Teyaku frequencies: bars with 99.9% error bars, exact probabilities overlaid (log axis)."""
    rows = _rows(df, df["quantity"].str.startswith("teyaku."))
    if rows.empty:
        return None
    exact = exact_values(exact_df)
    est, err = _errors(rows)
    y = np.arange(len(rows))[::-1]
    fig = Figure(figsize=(8, 0.55 * len(rows) + 1.6), layout="constrained")
    ax = fig.add_subplot()
    floor = max(min(v for v in rows["ci_low"].tolist() + [1.0] if v > 0) / 3, 1e-7)
    ax.barh(y, est - floor, left=floor, height=0.6, color=SIM_COLOR, alpha=0.75,
            label="simulated")
    ax.errorbar(est, y, xerr=err, fmt="none", ecolor="black", elinewidth=1.2, capsize=4,
                label="99.9% interval")
    ex = [(yy, float(exact[q]["value"])) for yy, q in zip(y, rows["quantity"]) if q in exact]
    if ex:
        ax.scatter([v for _, v in ex], [yy for yy, _ in ex], marker="D", s=42, zorder=3,
                   color=EXACT_COLOR, label="exact (combinatorics)")
    ax.set_xscale("log")
    ax.set_xlim(left=floor)
    ax.set_yticks(y, [_label(q, "teyaku.") for q in rows["quantity"]])
    ax.set_xlabel("probability that a dealt hand holds it (log scale)")
    ax.set_title(f"{title}: teyaku, simulated vs exact")
    ax.grid(axis="x", which="both", alpha=0.25)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=3, fontsize=8,
              frameon=False)
    return Chart("teyaku", "Teyaku frequency, simulated and exact",
                 "Bars: share of dealt hands (in played rounds) holding each teyaku, with 99.9% "
                 "intervals; red diamonds: the exact probability from combinatorics.", fig)


def dekiyaku_chart(df: pd.DataFrame, title: str) -> Chart | None:
    """How often a player's captured pile scores each dekiyaku, with 99.9% error bars."""
    rows = _rows(df, df["quantity"].str.startswith("dekiyaku."))
    if rows.empty:
        return None
    rows = rows.sort_values("estimate").reset_index(drop=True)
    est, err = _errors(rows)
    y = np.arange(len(rows))
    fig = Figure(figsize=(8, 0.38 * len(rows) + 1.4), layout="constrained")
    ax = fig.add_subplot()
    ax.barh(y, est, height=0.65, color=SIM_COLOR, alpha=0.75, label="simulated")
    ax.errorbar(est, y, xerr=err, fmt="none", ecolor="black", elinewidth=1, capsize=3,
                label="99.9% interval")
    ax.set_yticks(y, [_label(q, "dekiyaku.") for q in rows["quantity"]])
    ax.set_xlabel("share of players' captured piles that score it")
    ax.set_xlim(0, min(1.0, float(rows["ci_high"].max()) * 1.08))
    ax.set_title(f"{title}: dekiyaku")
    ax.grid(axis="x", alpha=0.25)
    ax.legend(loc="lower right", fontsize=8)
    return Chart("dekiyaku", "Dekiyaku frequency",
                 "Share of players' captured piles scoring each dekiyaku (a pile can score "
                 "several), with 99.9% intervals.", fig)


EDGE_PANELS = (
    # (title, quantity prefix, quantity suffix, reference line, reference label)
    ("mean score per round", "", ".mean_score", 0.0, "no edge"),
    ("card points against the par", "par_balance.", "", 0.0, "exactly the par"),
    ("win rate", "", ".win_rate", None, "an equal share"),
)


def _picker(prefix, suffix):
    # per-round seats only: players (whoever sat where), games and sessions are other questions
    return lambda q: (q.startswith(prefix) and q.endswith(suffix)
                      and not q.startswith(("player", "game.", "session.")))


def _short(q, prefix, suffix):
    q = q[len(prefix):] if prefix else q
    q = q[: -len(suffix)] if suffix else q
    return q.replace("_", " ").replace(".", " ")


def edges_chart(df: pd.DataFrame, title: str, n_players: int) -> Chart | None:
    """Per-seat edges: mean score, card points against the par and win rates, with 99.9%
    intervals, against the line of no edge."""
    panels = []
    for name, prefix, suffix, ref, ref_label in EDGE_PANELS:
        rows = _rows(df, df["quantity"].map(_picker(prefix, suffix)))
        if not rows.empty:
            if ref is None:
                ref = 1.0 / n_players
            rows["label"] = [_short(q, prefix, suffix) for q in rows["quantity"]]
            panels.append((name, rows, ref, ref_label))
    if not panels:
        return None
    heights = [len(rows) + 1.2 for _, rows, _, _ in panels]
    fig = Figure(figsize=(8, 0.36 * sum(heights) + 0.8 * len(panels)), layout="constrained")
    axes = fig.subplots(len(panels), 1, gridspec_kw=dict(height_ratios=heights), squeeze=False)
    for ax, (name, rows, ref, ref_label) in zip(axes[:, 0], panels):
        est, err = _errors(rows)
        y = np.arange(len(rows))[::-1]
        ax.errorbar(est, y, xerr=err, fmt="o", color=SIM_COLOR, ecolor="black", capsize=4,
                    label="estimate, 99.9% interval")
        ax.axvline(ref, color=REF_COLOR, linestyle="--", linewidth=1, label=ref_label)
        ax.set_yticks(y, list(rows["label"]))
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_title(f"{name} (dashed line: {ref_label})", fontsize=10, loc="left")
        ax.grid(axis="x", alpha=0.25)
    fig.suptitle(f"{title}: who has the edge? (points: estimates; bars: 99.9% intervals)")
    return Chart("edges", "Per-seat edges",
                 "Mean score per round, card points against the par and win rates by seat "
                 "(relative to the round's dealer), with 99.9% intervals; the dashed line is no edge (an equal share for "
                 "win rates, before ties).", fig)


def charts_for(df: pd.DataFrame, exact_df, title: str, n_players: int) -> list[Chart]:
    charts = [teyaku_chart(df, exact_df, title), dekiyaku_chart(df, title),
              edges_chart(df, title, n_players)]
    return [c for c in charts if c is not None]
