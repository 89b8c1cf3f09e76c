"""The report's charts: :mod:`hanasim.plot` drawn into pyplot-free figures (headless, and a
notebook's backend is left alone), with a title, a caption and PNG bytes at twice screen
resolution.  Every chart function returns a :class:`Chart`, or ``None`` when the table has
nothing to draw for it.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
from matplotlib.figure import Figure

from .. import plot
from ..plot import exact_values  # noqa: F401  (the report's findings use it)


@dataclass
class Chart:
    name: str      # file-name part: teyaku, dekiyaku, edges, distribution
    title: str
    caption: str
    figure: Figure

    def png(self, dpi: int = plot.DPI) -> bytes:
        return plot.figure_bytes(self.figure, "png", dpi)


def _has(df, prefix):
    return df["quantity"].str.startswith(prefix).any()


def _with_exact(df, exact_df, rows) -> bool:
    """Whether the chart of ``rows`` (a boolean mask of ``df``) draws an exact value: the
    caption promises the diamonds only then (a conditioned run may have no exact odds)."""
    exact = plot.exact_values(exact_df)
    return any(q in exact for q in df.loc[rows, "quantity"])


def teyaku_chart(df: pd.DataFrame, exact_df, title: str) -> Chart | None:
    rows = plot.deal_rows(df)
    n = int(rows.sum())
    if not n:
        return None
    fig, axes = plot.new_figure(8, 0.5 * n + 2.0)
    plot.teyaku_vs_exact(df, exact_df, ax=axes[0, 0])
    both = _with_exact(df, exact_df, rows)
    what = "simulated and exact" if both else "simulated"
    axes[0, 0].set_title(f"{title}: teyaku, {what}", fontsize=11)
    return Chart("teyaku", f"Teyaku frequency, {what}",
                 "Points: the share of dealt hands (in played rounds) holding each teyaku, with "
                 "99.9% intervals, on a log scale"
                 + ("; hollow diamonds: the exact probability from combinatorics." if both
                    else " (no exact probabilities beside them: see the exact section)."), fig)


def deal_chart(df: pd.DataFrame, exact_df, title: str) -> Chart | None:
    """Taipa: the deal-time yaku odds (``deal.*`` rows), simulated and exact."""
    if not _has(df, "deal."):
        return None
    n = int(df["quantity"].str.startswith("deal.").sum())
    from ..stats.labels import display

    qs = [q for q in df["quantity"] if q.startswith("deal.")]
    where = {"one_place_holds": "a given hand", "any_place_holds": "a hand or the field"}
    names = [f"{where.get(q.split('.')[1], q.split('.')[1])}: "
             + ("any yaku" if q.split(".")[2] == "any" else display(q.split(".")[2]))
             for q in qs]
    fig, axes = plot.new_figure(8, 0.45 * n + 2.0)
    plot.teyaku_vs_exact(df, exact_df, ax=axes[0, 0], prefix="deal.", log=False, labels=names,
                         xlabel="probability at round 1's deal")
    fig.suptitle(f"{title}: yaku cards at the deal", fontsize=11)
    both = _with_exact(df, exact_df, df["quantity"].str.startswith("deal."))
    return Chart("deal", "Yaku cards at the deal, simulated" + (" and exact" if both else ""),
                 "Points: the share of places (a given hand or the field) and of deals (a hand "
                 "or the field) already holding each yaku's cards at round 1's deal, with 99.9% "
                 "intervals ('a given hand' also counts the field, pooled)"
                 + ("; hollow diamonds: the exact probability from combinatorics." if both
                    else " (no exact probabilities beside them: see the exact section)."), fig)


def dekiyaku_chart(df: pd.DataFrame, title: str) -> Chart | None:
    if not _has(df, "dekiyaku."):
        return None
    n = int(df["quantity"].str.startswith("dekiyaku.").sum())
    fig, axes = plot.new_figure(8, 0.38 * n + 1.8)
    plot.dekiyaku_rates(df, ax=axes[0, 0])
    axes[0, 0].set_title(f"{title}: dekiyaku", fontsize=11)
    from ..reading import reading_of

    return Chart("dekiyaku", "Dekiyaku frequency",
                 f"{reading_of(plot._game(df)).dekiyaku_caption}, with 99.9% intervals.", fig)


#: what a panel of the edges chart shows, beyond the metric's name
PANEL_WORDS = {
    "fair_par": "fair par: the par that makes the seat's mean score zero",
    "fair_burden": "fair burden: the burden that makes the seat's mean score zero",
}


def edge_metrics(df: pd.DataFrame) -> list[str]:
    """The edges chart's panels, from the game's reading: its edge (koi-koi: a seat's score
    less the opponent's; a score declared never negative, koi-koi's, is also drawn raw: against
    an equal share where the rules played keep it so, against 0 where the loser pays), the win
    rate, and its fair value (par or burden) where it has one."""
    from ..reading import reading_of

    rd = reading_of(plot._game(df))
    metrics = [rd.edge_metric]
    if rd.nonnegative and rd.edge_metric != "mean_score":
        metrics.append("mean_score")
    metrics.append("win_rate")
    if rd.fair_metric:
        metrics.append(rd.fair_metric)
    return [m for m in metrics if not plot._seat_rows(df, m)[0].empty]


def edges_chart(df: pd.DataFrame, title: str, n_players: int) -> Chart | None:
    from ..reading import reading_of

    panels = edge_metrics(df)
    if not panels:
        return None
    rd = reading_of(plot._game(df))
    n_rows = max(len(plot._seat_rows(df, m)[0]) for m in panels)
    fig, axes = plot.new_figure(8, (0.45 * n_rows + 1.5) * len(panels), rows=len(panels))
    lines = []
    for ax, metric in zip(axes[:, 0], panels):
        plot.seat_edges(df, metric, ax=ax)
        name = PANEL_WORDS.get(metric, plot.METRICS[metric])
        unit = f" ({rd.unit})" if metric.startswith("mean_") and rd.unit not in name else ""
        ax.set_title(PANEL_WORDS.get(metric, plot.METRICS[metric]) + unit, fontsize=10,
                     loc="left")
        ax.set_xlabel("")  # the panel's title says it
        if metric not in ("fair_par", "fair_burden"):
            ref, words = plot.edge_reference(df, metric)
            if ref is not None:
                lines.append(f"{plot.METRICS[metric]}: {words}")
        else:
            lines.append(f"{metric.replace('_', ' ')}: the {metric.split('_')[1]} played")
    fig.suptitle(f"{title}: which seat has the edge?\n(points: estimates; bars: 99.9% "
                 "intervals)", fontsize=11)
    return Chart("edges", "Per-seat edges",
                 f"{rd.seat_words[:1].upper() + rd.seat_words[1:]}, with 99.9% intervals. A "
                 "seat is fair when its interval crosses the reference line (dashed, or the "
                 "marks): " + "; ".join(lines) + ".", fig)


def distribution_chart(df: pd.DataFrame, title: str) -> Chart | None:
    if not (df.attrs.get("distributions") or {}):
        return None
    fig, axes = plot.new_figure(8, 4.2)
    plot.score_distribution(df, ax=axes[0, 0])
    axes[0, 0].set_title(plot._wrap(f"{title}: how swingy is a round?", 75), fontsize=11)
    from ..reading import reading_of

    q = df.set_index("quantity")["estimate"]
    sits_out = [k for k in q.index if k.startswith("seat.") and k.endswith(".play_rate")
                and q[k] < 1]
    # Ishikari Toppa: a seat not chosen to play scores 0 that round
    if sits_out and reading_of(plot._game(df)).sits_out_as_zero:
        text = ("The share of the rounds a seat plays ending at each score, by seat (a round "
                "it sits out scores 0 and is left out here; the table's round_score rows count "
                "it); dashed: the median, dotted: the 5th and 95th percentiles of the rounds "
                "played.")
    else:
        text = ("The share of rounds ending at each score, by seat; dashed: the median, "
                "dotted: the 5th and 95th percentiles (their values and intervals are the "
                "round_score quantile rows of the table).")
    return Chart("distribution", "Distribution of a round's score", text, fig)


def rounds_chart(df: pd.DataFrame, title: str) -> Chart | None:
    """Games of a fixed number of rounds with a first player per round (taipa): the first
    player's share of each round and of games, and the deck size by round."""
    k = 1
    while f"round.{k}.first_player.win_rate" in set(df["quantity"]):
        k += 1
    if k == 1:
        return None
    wins = [f"round.{i}.{who}_player.win_rate" for i in range(1, k)
            for who in ("first", "second")]
    have = set(df["quantity"])
    wins += [q for q in ("game.first_player.win_rate", "game.tie_rate") if q in have]
    decks = [f"round.{i}.deck_size.mean" for i in range(1, k)]
    fig, axes = plot.new_figure(8, 0.45 * (len(wins) + len(decks)) + 3.6, rows=2)
    plot.estimates(df, wins, ax=axes[0, 0])
    axes[0, 0].set_title("who wins: each round's first and second player; games",
                         fontsize=10, loc="left")
    plot.estimates(df, decks, ax=axes[1, 0])
    axes[1, 0].set_title("cards in the deck at each round's deal", fontsize=10, loc="left")
    fig.suptitle(f"{title}: round by round", fontsize=11)
    return Chart("rounds", "Round by round",
                 "Top: the share of rounds won by the round's first and by its second player "
                 "(the rest are exhausted: nobody scores), then the share of games won by round "
                 "1's first player and of tied games; bottom: the deck at each round's deal "
                 "(completed yaku leave play). Points: estimates, bars: 99.9% intervals.", fig)


def round_yaku_chart(df: pd.DataFrame, title: str) -> Chart | None:
    """Taipa: each yaku kind's rate at each round (the deck shrinks between rounds)."""
    have = set(df["quantity"])
    rows = [q for k in range(1, 10) for q in df["quantity"] if q.startswith(f"round.{k}.yaku.")]
    if not rows:
        return None
    rows += [f"round.{k}.exhausted_rate" for k in range(1, 10)
             if f"round.{k}.exhausted_rate" in have]
    fig, axes = plot.new_figure(8, 0.4 * len(rows) + 1.8)
    plot.estimates(df, rows, ax=axes[0, 0])
    axes[0, 0].set_title("yaku (share of players) and exhausted rounds, by round number",
                         fontsize=10, loc="left")
    fig.suptitle(f"{title}: yaku by round", fontsize=11)
    return Chart("round-yaku", "Yaku by round",
                 "The share of players ending each round with each kind of yaku, and the share "
                 "of exhausted rounds (nobody scores), by round number: rounds 2 and 3 are "
                 "dealt from the smaller deck the completed yaku leave. Points: estimates, "
                 "bars: 99.9% intervals.", fig)


def charts_for(df: pd.DataFrame, exact_df, title: str, n_players: int) -> list[Chart]:
    charts = [teyaku_chart(df, exact_df, title), deal_chart(df, exact_df, title),
              dekiyaku_chart(df, title),
              edges_chart(df, title, n_players), distribution_chart(df, title),
              rounds_chart(df, title), round_yaku_chart(df, title)]
    return [c for c in charts if c is not None]
