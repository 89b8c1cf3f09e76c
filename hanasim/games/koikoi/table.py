"""Counters to tidy quantities (:func:`quantities`), the exact deal table (:func:`exact_table`),
a report's sentences (:func:`findings`), and how koi-koi's numbers are read (:data:`READING`:
the unit, the edge, the headline lines that reports, plots and the CLI use)."""
from __future__ import annotations

from ... import decks
from ...reading import Line, Reading
from .lower import active_special, max_turns, misdeal_flags
from .rules import NAME, TEYAKU
from .tally import (C_CALLS, C_CALLS_SQ, C_CAPPED, C_COLLECTS, C_DEALER_SCORE, C_DEALER_SCORE_SQ,
                    C_DEALER_WINS, C_DEALS, C_DECISIONS, C_DRAWS, C_EXHAUSTED, C_FIELD_END,
                    C_FIRST_MARGIN, C_FIRST_MARGIN_SQ, C_FIRST_WINS, C_GAME_ROUNDS,
                    C_GAME_ROUNDS_SQ, C_GAME_TIES, C_GAMES, C_KEPT, C_LUCKY_DRAW, C_LUCKY_END,
                    C_MISDEALS, C_OPP_SCORE, C_OPP_SCORE_SQ, C_OPP_WINS, C_P0_DEALS, C_P0_FIRST,
                    C_P0_GAME_WINS, C_P0_SCORE, C_P0_SCORE_SQ, C_P0_WINS, C_PAID, C_ROUNDS,
                    C_TURNS, C_TURNS_SQ, C_WON, C_WON_PTS, C_WON_PTS_SQ, C_ADV_SQ, H_FIELD,
                    H_TURNS)
from .yaku import _D

#: how koi-koi's numbers are read (hanasim.reading): under the default winner-only scoring only
#: the player who collects scores, so a seat's own mean score is never negative; under
#: ``scoring=zero_sum`` (the rule page's "Zero-Sum Scoring", preset koikoi-japan) the loser pays
#: it, and a seat's own mean score can be negative.  Under either, the edge is a seat's score
#: less the opponent's (dealer.mean_advantage, against 0; under zero_sum twice the seat's own);
#: win rates are against an equal share of the rounds someone scored; the field-multiplier rows
#: mean something only with the multiplier on
READING = Reading(
    unit="points", seats=("dealer", "opponent"), edge_metric="mean_advantage",
    edge_quantity="dealer.mean_advantage", nonnegative=True,
    nonnegative_when=("scoring", ("winner_only",)),
    no_winner=("round.draw_rate",), no_winner_words="nobody scored",
    won_words="someone scored",
    headline=(
        Line("dealer.mean_advantage", "The dealer scores {value} {unit} a round more than the "
             "opponent", "signed", verdict=True),
        Line("dealer.mean_score", "The loser pays what the winner scores, so a seat's own "
             "score can be negative: the dealer's is {value} {unit} a round", "signed",
             when=("scoring", ("zero_sum",))),
        Line("dealer.win_rate", "The dealer collects {value} of rounds", "rate"),
        Line("opponent.win_rate", "The opponent collects {value} of rounds", "rate"),
        Line("round.draw_rate", "Nobody scores in {value} of rounds", "rate"),
        Line("winner_points.mean", "A scored round is worth {value} {unit} on average"),
        Line("game.first_dealer.win_rate", "The first dealer wins {value} of games", "rate"),
    ),
    only_when={"field_brights.": ("field_multiplier", ("count", "double"))},
    labels={"field_brights.{k}": "Field: {k} 20-point cards at the deal",
            "end_turn.{k}": "Round ends at turn {k}",
            "round.draw_rate": "Round: nobody scores",
            "game.first_dealer.mean_margin": "First dealer: a game's points less the "
                                             "opponent's, mean",
            "round.exhausted_rate": "Round: the hands ran out",
            "winner_points.mean": "Points of a scored round: mean",
            "winner_points.sd": "Points of a scored round: standard deviation",
            "koikoi.calls_per_round": "Koi-koi calls per round",
            "koikoi.call_rate": "Koi-koi: share of chances to collect continued",
            "koikoi.paid_off_rate": "Koi-koi: share of calls that paid off",
            "koikoi.opponent_kept_rate": "Koi-koi: opponent kept playing"})


def quantities(c, rules):
    """Tidy rows ``(quantity, stats)`` from the counters.  Per round (n = rounds) unless
    said: yaku at collecting are over collected rounds, the koi-koi call rate over the
    decisions, the paid-off rate over the calls, game quantities over games."""
    from ...stats import table as T

    s = c["scal"]
    r = s[C_ROUNDS]
    h = c["hist"]
    rows = [T.prop("misdeal_rate", s[C_MISDEALS], s[C_DEALS])]
    for i, t in enumerate(TEYAKU + ("any",)):
        rows.append(T.pooled(f"teyaku.{t}", c["tcount"][i, 0], c["tcount"][i, 1], r, 2))
    for k in range(6):
        rows.append(T.prop(f"field_brights.{k}", h[H_FIELD + k], r))
    if c.get("deals_only"):
        return rows
    d, d2, o, o2 = s[C_DEALER_SCORE], s[C_DEALER_SCORE_SQ], s[C_OPP_SCORE], s[C_OPP_SCORE_SQ]
    rows += [
        T.prop("dealer.win_rate", s[C_DEALER_WINS], r),
        T.prop("opponent.win_rate", s[C_OPP_WINS], r),
        T.prop("round.draw_rate", s[C_DRAWS], r),
        T.prop("round.exhausted_rate", s[C_EXHAUSTED], r),
        T.prop("round.lucky_hand_rate", s[C_LUCKY_END], r),
        T.prop("round.lucky_draw_rate", s[C_LUCKY_DRAW], r),
        T.prop("round.field_four_rate", s[C_FIELD_END], r),
        T.mean("dealer.mean_score", d, d2, r),
        T.mean("opponent.mean_score", o, o2, r),
        # dealer's score minus the opponent's: the edge that decides a game of totals
        T.mean("dealer.mean_advantage", d - o, s[C_ADV_SQ], r),
        T.sd("round_score.sd", d, d2, r),
        T.mean("winner_points.mean", s[C_WON_PTS], s[C_WON_PTS_SQ], s[C_WON]),
        T.sd("winner_points.sd", s[C_WON_PTS], s[C_WON_PTS_SQ], s[C_WON]),
        T.mean("round.end_turn.mean", s[C_TURNS], s[C_TURNS_SQ], r),
        T.mean("koikoi.calls_per_round", s[C_CALLS], s[C_CALLS_SQ], r),
        T.prop("koikoi.call_rate", s[C_CALLS], s[C_DECISIONS]),
        T.prop("koikoi.paid_off_rate", s[C_PAID], s[C_CALLS]),
        T.prop("koikoi.opponent_kept_rate", s[C_KEPT], r),
        T.mean("player1.mean_score", s[C_P0_SCORE], s[C_P0_SCORE_SQ], r),
        # player 1's score minus player 2's (their policies may differ)
        T.mean("player1.mean_advantage", 2 * s[C_P0_SCORE] - d - o, s[C_ADV_SQ], r),
        T.prop("player1.win_rate", s[C_P0_WINS], r),
        T.prop("player1.deal_share", s[C_P0_DEALS], r),
    ]
    for t in range(max_turns(rules) + 1):
        rows.append(T.prop(f"end_turn.{t}", h[H_TURNS + t], r))
    active = (True,) * (len(c["yaku_names"]) - 3) + active_special(rules)
    for i, y in enumerate(c["yaku_names"]):
        if active[i]:
            rows.append(T.prop(f"yaku.{y}", c["ycount"][i, 0], s[C_COLLECTS]))
    g = s[C_GAMES]
    rows += [
        T.prop("game.first_dealer.win_rate", s[C_FIRST_WINS], g),
        T.prop("game.tie_rate", s[C_GAME_TIES], g),
        T.mean("game.first_dealer.mean_margin", s[C_FIRST_MARGIN], s[C_FIRST_MARGIN_SQ], g),
        T.mean("game.rounds.mean", s[C_GAME_ROUNDS], s[C_GAME_ROUNDS_SQ], g),
        T.prop("game.capped_rate", s[C_CAPPED], g),
        T.prop("player1.first_dealer_share", s[C_P0_FIRST], g),
        T.prop("player1.game.win_rate", s[C_P0_GAME_WINS], g),
    ]
    return rows


def exact_table(rules):
    """Exact misdeal rate, lucky hands and field 20-point cards (``hanasim exact``)."""
    from ...stats.exact import koikoi_deal_probabilities, rows_table

    tracked = tuple(int(any(_D.kind[4 * m + j] == decks.BRIGHT for j in range(4)))
                    for m in range(12))
    rows = koikoi_deal_probabilities(rules.hand_size, 8, tracked=tracked,
                                     **misdeal_flags(rules))
    return rows_table(rows, NAME)


def findings(by) -> list:
    """Plain sentences for a report, from a simulate table indexed by quantity."""
    def has(*qs):
        return all(q in by.index for q in qs)

    def pct(q):
        return f"{by.loc[q, 'estimate']:.1%}"

    out = []
    if has("dealer.win_rate", "opponent.win_rate", "round.draw_rate", "round.exhausted_rate"):
        out.append(f"Who scores a round: the dealer {pct('dealer.win_rate')}, the opponent "
                   f"{pct('opponent.win_rate')}, nobody {pct('round.draw_rate')} (the hands "
                   f"ran out in {pct('round.exhausted_rate')} of rounds).")
    if has("koikoi.call_rate", "koikoi.paid_off_rate", "winner_points.mean"):
        out.append(f"Koi-koi: players continued at {pct('koikoi.call_rate')} of their chances "
                   f"to collect; {pct('koikoi.paid_off_rate')} of those calls paid off (the "
                   f"caller collected the round later). A scored round is worth "
                   f"{by.loc['winner_points.mean', 'estimate']:.2f} points on average.")
    if has("field_brights.0"):
        out.append(f"Field multiplier: at least one 20-point card is dealt to the field in "
                   f"{1 - by.loc['field_brights.0', 'estimate']:.1%} of rounds.")
    if has("game.rounds.mean", "game.first_dealer.win_rate"):
        r = by.loc["game.first_dealer.win_rate"]
        out.append(f"Games last {by.loc['game.rounds.mean', 'estimate']:.1f} rounds on "
                   f"average; the first dealer wins {r.estimate:.1%} of games (99.9% CI "
                   f"{r.ci_low:.1%} to {r.ci_high:.1%}).")
    return out
