"""Taoshi's counters as tidy quantities, and how they are read (``hanasim.reading``): the
reading declaration, the report's findings, the table's rows (fair burdens among them)."""
from __future__ import annotations

from ...engine.join import CHOICE_RATES
from ...reading import Line, Reading
from .rules import ACTIVE, SCORE_VALUES, SEATS, TABLE_SEATS, TEYAKU, burden_unit, burdens_of
from .tally import (C_BOTTA, C_CLAIMS, C_DEALS, C_FIRST_TOTAL, C_FIRST_TOTAL_SQ, C_FIRST_WINS,
                    C_MISDEALS, C_PLAYED, C_PLAYER, C_POS, C_ROUNDS, C_SEAT, C_SESSIONS,
                    C_SUM_SCORE, C_SUM_SCORE_SQ, C_THREES, C_TIES, C_TWOS, K_DEKI, K_DEKI_SQ, K_N,
                    K_PTS, K_PTS_SQ, K_RAW, K_RAW_SQ, K_SCORE, K_SCORE_SQ, K_WINS, K_YAKU,
                    K_YAKU_SQ, Q_DEALS, Q_N, Q_PLAYS, Q_SCORE, Q_SCORE_SQ, Q_WINS, S_BOTTA_PAID,
                    S_JOIN, S_N, S_PLAYS, S_SCORE, S_SCORE_SQ, S_WINS)


#: how Taoshi's numbers are read (hanasim.reading): points with burdens; the per-round seats
#: are the three active players in turn order (with three players: the dealer, his right, his
#: left; with 4-6 the first, second and third to play, whoever sits there), each against an
#: equal share of the round's score sum (0 when the burdens add up to the deck's points) and
#: each fair burden against the burden played; seat.* rows are table seats
READING = Reading(
    unit="points", seats=SEATS,
    seat_words="by active player in turn order (with three players: the dealer, his right, "
               "his left)",
    edge_metric="mean_score", edge_quantity="dealer.mean_score",
    edge_title="First-player edge", edge_who="the first active player",
    score_sum="round.score_sum",
    fair_metric="fair_burden", fair_rule="burden",
    headline=(
        Line("dealer.mean_score", "The first active player in turn order scores {value} "
             "{unit} a round", "signed", verdict=True),
        Line("right.mean_score", "The second scores {value} {unit}", "signed"),
        Line("left.mean_score", "The third scores {value} {unit}", "signed"),
        Line("fair_burden.dealer", "The burden that makes the first active player's mean "
             "score zero is {value}"),
        Line("botta_rate", "{value} of rounds end in a botta", "rate"),
    ),
    labels={"round.score_sum": "Round: the scores added up (0 when the burdens are zero-sum)",
            "winner_tie_rate": "Round: the greatest score shared (tie broken by tie_winner)",
            "teyaku.none": "Teyaku: none (a hand with no teyaku)"},
    positions={"dealer": "First active player", "right": "Second active player",
               "left": "Third active player"},
    positions_above=3,
    # dekiyaku.* count the played rounds in which an active player captures it
    dekiyaku_of="played rounds",
    dekiyaku_axis="share of played rounds in which a player captures it",
    dekiyaku_caption="Share of played rounds in which a player's captured cards hold each "
                     "dekiyaku (Four '3's counts only for the third active player in turn "
                     "order)")


def findings(by) -> list:
    """Plain sentences for a report: the fair burdens, botta and dekiyaku rates."""
    out = []
    if all(f"fair_burden.{s}" in by.index for s in SEATS):
        parts = []
        for s, who in zip(SEATS, ("first", "second", "third")):
            r = by.loc[f"fair_burden.{s}"]
            parts.append(f"{who} {r.estimate:.1f} ({r.ci_low:.1f} to {r.ci_high:.1f})")
        out.append("Fair burdens by active player in turn order (the burdens that make "
                   "each one's expected score zero, 99.9% CI): " + "; ".join(parts) + ".")
    if "botta_rate" in by.index:
        out.append(f"{by.loc['botta_rate', 'estimate']:.2%} of rounds end in a botta.")
    if "dekiyaku.four_twos" in by.index and by.loc["dekiyaku.four_twos", "estimate"] > 0:
        out.append(f"Four '2's is captured in {by.loc['dekiyaku.four_twos', 'estimate']:.1%}"
                   f" of played rounds, Four '3's by the third active player (the dealer's left at"
                   f" a table of three) in "
                   f"{by.loc['dekiyaku.four_threes', 'estimate']:.1%}.")
    return out


def quantities(c, rules) -> list:
    """Tidy rows: deal-time rates per dealt hand; scores per round (in points, burden
    included); fair burdens; join rates by table seat."""
    from ...stats import table as T

    s = c["scal"]
    r = s[C_ROUNDS]
    n = int(c["players"])
    unit = burden_unit(rules)
    rows = [T.prop("misdeal_rate", s[C_MISDEALS], s[C_DEALS])]
    for i, t in enumerate(TEYAKU + ("none",)):
        rows.append(T.pooled(f"teyaku.{t}", c["tcount"][i, 0], c["tcount"][i, 1], r, n))
    for i, v in enumerate(SCORE_VALUES):
        rows.append(T.pooled(f"teyaku_score.{v}", c["vcount"][i, 0], c["vcount"][i, 1], r,
                             n))
    if c.get("deals_only"):
        return rows
    played = s[C_PLAYED]
    rows += [T.prop("botta_rate", s[C_BOTTA], r),
             T.prop("teyaku.claim_rate", s[C_CLAIMS], ACTIVE * r),
             T.prop("dekiyaku.four_twos", s[C_TWOS], played),
             T.prop("dekiyaku.four_threes", s[C_THREES], played),
             T.prop("winner_tie_rate", s[C_TIES], r),
             T.scaled(T.mean("round.score_sum", s[C_SUM_SCORE], s[C_SUM_SCORE_SQ], r), unit)]
    applied = played / r if r else 1.0
    burdens = burdens_of(rules)
    for k, name in enumerate(SEATS):
        b = C_POS + K_N * k
        rows += [
            T.scaled(T.mean(f"{name}.mean_score", s[b + K_SCORE], s[b + K_SCORE_SQ], r),
                     unit),
            T.prop(f"{name}.win_rate", s[b + K_WINS], r),
            T.mean(f"card_points.{name}", s[b + K_PTS], s[b + K_PTS_SQ], played),
            T.mean(f"teyaku_score.{name}", s[b + K_YAKU], s[b + K_YAKU_SQ], r),
            T.mean(f"dekiyaku_score.{name}", s[b + K_DEKI], s[b + K_DEKI_SQ], played),
            T.shifted_mean(f"burden_balance.{name}", s[b + K_PTS], s[b + K_PTS_SQ], played,
                           float(burdens[k])),
            _fair_burden(f"fair_burden.{name}",
                         T.mean("", s[b + K_RAW], s[b + K_RAW_SQ], r)[1], applied),
        ]
    if n > ACTIVE:
        for k in range(n):
            b = C_SEAT + S_N * k
            name = f"seat.{TABLE_SEATS[k]}"
            rows += [
                T.scaled(T.mean(f"{name}.mean_score", s[b + S_SCORE], s[b + S_SCORE_SQ], r),
                         unit),
                T.prop(f"{name}.win_rate", s[b + S_WINS], r),
                T.prop(f"{name}.play_rate", s[b + S_PLAYS], r),
            ]
            rows += [T.prop(f"{name}.{rate}", s[b + S_JOIN + i], r)
                     for i, rate in enumerate(CHOICE_RATES)]  # S_JOIN .. S_FORCED_OUT
            rows.append(T.prop(f"{name}.botta_paid_inactive_rate", s[b + S_BOTTA_PAID], r))
    for q in range(n):
        b = C_PLAYER + Q_N * q
        rows += [
            T.scaled(T.mean(f"player{q + 1}.mean_score", s[b + Q_SCORE], s[b + Q_SCORE_SQ],
                            r), unit),
            T.prop(f"player{q + 1}.win_rate", s[b + Q_WINS], r),
            T.prop(f"player{q + 1}.deal_share", s[b + Q_DEALS], r),
            T.prop(f"player{q + 1}.play_rate", s[b + Q_PLAYS], r),
        ]
    n_s = s[C_SESSIONS]
    if n_s and r > n_s:
        rows += [
            T.scaled(T.mean("session.first_dealer.mean_total", s[C_FIRST_TOTAL],
                            s[C_FIRST_TOTAL_SQ], n_s), unit),
            T.prop("session.first_dealer.win_rate", s[C_FIRST_WINS], n_s),
        ]
    return rows


def _fair_burden(name, raw_stats, applied):
    """The burden that makes a seat's expected score zero: the score without the burden is
    R and the burden is paid in the rounds played (not in a botta round), so fair = E[R] /
    P(played) (P taken as known), with the interval scaled alike."""
    out = dict(raw_stats)
    for k in ("estimate", "std_error", "ci_low", "ci_high"):
        out[k] = out[k] / applied if applied else float("nan")
    return (name, out)

