"""Kushiro Toppa's counters as tidy quantities, and how they are read (``hanasim.reading``):
the reading declaration, the report's findings, the table's rows."""
from __future__ import annotations

from ...engine.join import CHOICE_RATES
from ...reading import Line, Reading
from .rules import SEATS, TEYAKU
from .tally import (C_CALLS, C_CALLS_SQ, C_CONT_N, C_CONT_SQ, C_CONT_SUM, C_DEALS, C_DECISIONS,
                    C_EXHAUSTED, C_FIRST_TIES, C_FIRST_TOTAL, C_FIRST_TOTAL_SQ, C_FIRST_WINS,
                    C_FM_CHIPS, C_FM_CHIPS_SQ, C_FM_WINS, C_FOUR_HANDS, C_HANDS, C_MISDEALS,
                    C_NOBODY, C_PAID, C_PLAYER, C_REDEALS, C_ROUNDS, C_SEAT, C_SESSIONS,
                    C_STOP_N, C_STOP_SQ, C_STOP_SUM, C_STOPS, C_SWAP_HANDS, C_TEY_CLAIMS,
                    C_TEY_ENDS, C_TURNS, C_TURNS_SQ, C_WON, C_WON_PTS, C_WON_PTS_SQ, Q_CHIPS,
                    Q_CHIPS_SQ, Q_DEALS, Q_N, Q_PLAYS, Q_WINS, S_CHIPS, S_CHIPS_SQ, S_JOIN, S_N,
                    S_PLAYS, S_WINS)


#: how Kushiro Toppa's numbers are read (hanasim.reading): chips won minus paid by table seat
#: (the dealer, then the seats to his right in turn order); two of the seated play a round, and
#: a round nobody scores has no winner
READING = Reading(
    unit="chips", seats=("dealer", "seat1", "seat2", "seat3"),
    seat_words="by table seat (the dealer, then the seats to his right in turn order)",
    edge_metric="mean_chips", edge_quantity="dealer.mean_chips",
    no_winner=("round.nobody_scores_rate",), no_winner_words="nobody scored",
    won_words="someone scored",
    headline=(
        Line("dealer.mean_chips", "The dealer wins {value} {unit} a round on average",
             "signed", verdict=True),
        Line("dealer.play_rate", "The dealer plays {value} of rounds", "rate"),
        Line("first_player.mean_chips", "The first of the two active players to play wins "
             "{value} {unit} a round", "signed"),
        Line("round.nobody_scores_rate", "Nobody scores in {value} of rounds", "rate"),
        Line("winner_chips.mean", "A won round pays the winner {value} {unit} on average"),
    ),
    positions={"first_player": "First to play (of the two active players)"},
    labels={"round.nobody_scores_rate": "Round: nobody scores",
            "round.stop_rate": "Round: ended by a stop (Yoroshii)",
            "round.exhausted_rate": "Round: exhausted (cards ran out, nobody stopped)",
            "round.teyaku_end_rate": "Round: ended by a teyaku",
            "winner_chips.mean": "Chips a won round pays the winner: mean",
            "iku.call_rate": "Iku: share of decisions that continued",
            "iku.paid_off_rate": "Iku: share of Iku calls that paid off",
            "iku.calls_per_round": "Iku calls per round",
            "yoroshii.value": "Yoroshii (stop): the decider's chips at the round's end",
            "iku.value": "Iku (continue): the decider's chips at the round's end",
            "swap.rate": "Four in hand: share of hands laid down and swapped",
            "redeals.mean": "Redeals per round: mean"},
    # dekiyaku.* count the stopper's pile in the rounds a stop (Yoroshii) ends
    dekiyaku_of="rounds ended by a stop",
    dekiyaku_axis="share of the rounds ended by a stop in which the stopper scores it",
    dekiyaku_caption="Share of the rounds ended by a stop (Yoroshii) in which the stopper's "
                     "captured cards score each dekiyaku (they can score several)")



def findings(by) -> list:
    """Plain sentences for a report: who plays, the dealer's and the first mover's edge."""
    def has(*qs):
        return all(q in by.index for q in qs)

    out = []
    if has("dealer.mean_chips", "dealer.play_rate"):
        r = by.loc["dealer.mean_chips"]
        out.append(f"The dealer plays {by.loc['dealer.play_rate', 'estimate']:.1%} of rounds "
                   f"and wins {r.estimate:+.3f} chips a round on average (99.9% CI "
                   f"{r.ci_low:+.3f} to {r.ci_high:+.3f}).")
    if has("seat1.join_rate"):
        out.append(f"Speaking first, the dealer's right joins "
                   f"{by.loc['seat1.join_rate', 'estimate']:.1%} of rounds.")
    if has("first_player.mean_chips", "round.exhausted_rate"):
        out.append(f"The first mover wins {by.loc['first_player.mean_chips', 'estimate']:+.3f}"
                   f" chips a round; {by.loc['round.exhausted_rate', 'estimate']:.1%} of "
                   f"rounds are exhausted with nobody saying Yoroshii.")
    return out


def quantities(c, rules) -> list:
    """Tidy rows from the counters: per round unless said (teyaku and four-in-hand per
    seated hand, dekiyaku over stopped rounds, stop/continue values per decision)."""
    from ...stats import table as T

    s = c["scal"]
    r = s[C_ROUNDS]
    n = int(c["players"])
    rows = [T.prop("misdeal_rate", s[C_MISDEALS], s[C_DEALS])]
    for i, t in enumerate(TEYAKU + ("any",)):
        rows.append(T.pooled(f"teyaku.{t}", c["tcount"][i, 0], c["tcount"][i, 1], r, n))
    rows.append(T.prop("four_in_hand_rate", s[C_FOUR_HANDS], s[C_HANDS]))
    if c.get("deals_only"):
        return rows
    for i, y in enumerate(c["dekiyaku_names"]):
        if getattr(rules, y, 0):
            rows.append(T.prop(f"dekiyaku.{y}", c["ycount"][i, 0], s[C_STOPS]))
    rows += [
        T.prop("round.stop_rate", s[C_STOPS], r),
        T.prop("round.exhausted_rate", s[C_EXHAUSTED], r),
        T.prop("round.teyaku_end_rate", s[C_TEY_ENDS], r),
        T.prop("round.nobody_scores_rate", s[C_NOBODY], r),
        T.mean("round.turns.mean", s[C_TURNS], s[C_TURNS_SQ], r),
        T.mean("winner_chips.mean", s[C_WON_PTS], s[C_WON_PTS_SQ], s[C_WON]),
        T.prop("iku.call_rate", s[C_CALLS], s[C_DECISIONS]),
        T.prop("iku.paid_off_rate", s[C_PAID], s[C_CALLS]),
        T.mean("iku.calls_per_round", s[C_CALLS], s[C_CALLS_SQ], r),
        # the decider's chips at the end of the round, per decision taken
        T.mean("yoroshii.value", s[C_STOP_SUM], s[C_STOP_SQ], s[C_STOP_N]),
        T.mean("iku.value", s[C_CONT_SUM], s[C_CONT_SQ], s[C_CONT_N]),
        T.prop("swap.rate", s[C_SWAP_HANDS], s[C_HANDS]),
        T.prop("teyaku.claim_rate", s[C_TEY_CLAIMS], 2 * r),
        T.mean("first_player.mean_chips", s[C_FM_CHIPS], s[C_FM_CHIPS_SQ], r),
        T.prop("first_player.win_rate", s[C_FM_WINS], r),
    ]
    if n > 2:
        rows.append(T.mean("redeals.mean", s[C_REDEALS], s[C_REDEALS], r))
    for k in range(n):
        b = C_SEAT + S_N * k
        name = SEATS[k]
        rows += [
            T.mean(f"{name}.mean_chips", s[b + S_CHIPS], s[b + S_CHIPS_SQ], r),
            T.prop(f"{name}.win_rate", s[b + S_WINS], r),
            T.prop(f"{name}.play_rate", s[b + S_PLAYS], r),
        ]
        if n > 2:
            rows += [T.prop(f"{name}.{rate}", s[b + S_JOIN + i], r)
                     for i, rate in enumerate(CHOICE_RATES)]  # S_JOIN .. S_FORCED_OUT
            rows += [
                T.mean(f"{name}.mean_chips_when_playing", s[b + S_CHIPS], s[b + S_CHIPS_SQ],
                       s[b + S_PLAYS]),
            ]
    for q in range(n):
        b = C_PLAYER + Q_N * q
        rows += [
            T.mean(f"player{q + 1}.mean_chips", s[b + Q_CHIPS], s[b + Q_CHIPS_SQ], r),
            T.prop(f"player{q + 1}.win_rate", s[b + Q_WINS], r),
            T.prop(f"player{q + 1}.deal_share", s[b + Q_DEALS], r),
            T.prop(f"player{q + 1}.play_rate", s[b + Q_PLAYS], r),
        ]
    n_s = s[C_SESSIONS]
    if n_s and r > n_s:
        rows += [
            T.mean("session.first_dealer.mean_total", s[C_FIRST_TOTAL], s[C_FIRST_TOTAL_SQ],
                   n_s),
            T.prop("session.first_dealer.win_rate", s[C_FIRST_WINS], n_s),
            T.prop("session.tie_rate", s[C_FIRST_TIES], n_s),
        ]
    return rows

