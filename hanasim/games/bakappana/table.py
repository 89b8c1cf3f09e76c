"""Bakappana's counters as tidy quantities, and how its numbers are read (``READING``)."""
from __future__ import annotations

from ...reading import Line, Reading
from .rules import SEATS, deck_points
from .session import (C_DEALS, C_FIRST_TOTAL, C_FIRST_TOTAL_SQ, C_FIRST_WINS, C_GAME_TIES,
                      C_GAMES, C_HIST, C_KEEPS, C_MISDEALS, C_PLAYER, C_ROUNDS, C_SEAT, C_SUM,
                      C_SUM_SQ, C_TOP_TIES, H_FIRST, HIST_BINS, K_PTS, K_PTS_SQ, K_SCORE,
                      K_SCORE_SQ, K_WINS, PLAYER_W, Q_DEALS, Q_FIRST, Q_GAME_WINS, Q_SCORE,
                      Q_SCORE_SQ, Q_TOTAL, Q_TOTAL_SQ, Q_WINS, SEAT_W)

#: points, seats relative to the round's dealer in turn order; zero-sum under the default
#: scoring (every seat drawn against 0), an equal share of the round's points under additive
#: scoring (``score_sum``); a round with a tied top score has no winner
READING = Reading(
    unit="points", seats=SEATS,
    # said for any table: with 2 players the second seat is the opponent, not "seat 1"
    seat_words="by seat relative to the round's dealer, in turn order (the dealer plays "
               "first, then the player to his right, and so on round the table)",
    edge_metric="mean_score", edge_quantity="seat.dealer.mean_score",
    no_winner=("seat.tie_rate",), no_winner_words="tied for the top score",
    won_words="one player has the top score", score_sum="round.score_sum.mean",
    # no fair_metric: the par played depends on the players and chaff_points, and the charts
    # read a par from a ``par`` rule or the game's one par; card_points.* are the fair pars
    headline=(
        Line("seat.dealer.mean_score", "The dealer scores {value} {unit} a round on average",
             "signed", verdict=True, when=("scoring", ("zero_sum",))),
        # additive scores are card points, never negative: no sign, judged against an equal
        # share of the round's points (the sentence says so)
        Line("seat.dealer.mean_score", "The dealer scores {value} {unit} a round on average",
             verdict=True, when=("scoring", ("additive",))),
        Line("seat.dealer.win_rate", "The dealer has the top score in {value} of rounds",
             "rate"),
        # a score is card points - par on every round: the mean card points are the fair par
        # (additive scoring has no par)
        Line("card_points.dealer", "The dealer captures {value} card points a round, the par "
             "that would make his mean score zero", when=("scoring", ("zero_sum",))),
        Line("game.first_dealer.mean_total", "Over a game the first dealer totals {value} "
             "{unit}", "signed", when=("scoring", ("zero_sum",))),
        Line("game.first_dealer.mean_total", "Over a game the first dealer totals {value} "
             "{unit}", when=("scoring", ("additive",))),
    ),
    labels={"round.score_sum.mean": "Round: sum of the scores"},
    # no yaku: greedy weighs a capture by its card points alone
    policy_words={"greedy": "always takes the capture worth the most card points now"})


def histograms(c, rules) -> dict:
    """``{name: histogram counts}``: each seat's round score, the first dealer's game total."""
    s = c["scal"]

    def h(k):
        return s[C_HIST + HIST_BINS * k: C_HIST + HIST_BINS * (k + 1)]
    out = {f"round_score.{SEATS[k]}": h(k) for k in range(rules.players)}
    if s[C_GAMES] and s[C_ROUNDS] > s[C_GAMES]:
        out["game.first_dealer.total"] = h(H_FIRST)
    return out


def quantities(c, rules) -> list:
    """Tidy rows ``(quantity, stats)``: per round (seats, players), per whole game."""
    from ...stats import table as T
    from ...stats.distribution import quantile_rows

    s = c["scal"]
    r = s[C_ROUNDS]
    g = s[C_GAMES]
    n = rules.players
    rows = [T.prop("misdeal_rate", s[C_MISDEALS], s[C_DEALS])]
    if c.get("deals_only"):
        return rows
    for k in range(n):
        b = C_SEAT + SEAT_W * k
        seat = SEATS[k]
        rows += [T.mean(f"seat.{seat}.mean_score", s[b + K_SCORE], s[b + K_SCORE_SQ], r),
                 T.prop(f"seat.{seat}.win_rate", s[b + K_WINS], r),
                 T.mean(f"card_points.{seat}", s[b + K_PTS], s[b + K_PTS_SQ], r)]
    rows += [T.prop("seat.tie_rate", s[C_TOP_TIES], r),
             T.mean("round.score_sum.mean", s[C_SUM], s[C_SUM_SQ], r)]
    hist = histograms(c, rules)
    for k in range(n):
        rows += quantile_rows(f"round_score.{SEATS[k]}", hist[f"round_score.{SEATS[k]}"])
    if rules.rounds_per_game > 1:
        rows.append(T.prop("dealer.keep_rate", s[C_KEEPS], r))
    for q in range(n):
        b = C_PLAYER + PLAYER_W * q
        rows += [T.mean(f"player{q + 1}.mean_score", s[b + Q_SCORE], s[b + Q_SCORE_SQ], r),
                 T.prop(f"player{q + 1}.win_rate", s[b + Q_WINS], r),
                 T.prop(f"player{q + 1}.deal_share", s[b + Q_DEALS], r)]
    if g and r > g:  # games of several rounds (whole games only)
        rows += [T.mean("game.first_dealer.mean_total", s[C_FIRST_TOTAL], s[C_FIRST_TOTAL_SQ], g),
                 T.prop("game.first_dealer.win_rate", s[C_FIRST_WINS], g),
                 T.prop("game.tie_rate", s[C_GAME_TIES], g)]
        rows += quantile_rows("game.first_dealer.total", hist["game.first_dealer.total"])
        for q in range(n):
            b = C_PLAYER + PLAYER_W * q
            rows += [T.mean(f"player{q + 1}.game.mean_total", s[b + Q_TOTAL], s[b + Q_TOTAL_SQ], g),
                     T.prop(f"player{q + 1}.game.win_rate", s[b + Q_GAME_WINS], g),
                     T.prop(f"player{q + 1}.first_dealer_share", s[b + Q_FIRST], g)]
    return rows


def notes(rules) -> list:
    """What a table must say about its rules: that additive scoring is not zero-sum."""
    if rules.scoring == "zero_sum":
        return []
    return [f"additive scoring: a score is the card points, with no par, so a round's scores "
            f"add up to the points captured (the deck holds {deck_points(rules)}), not to 0; a "
            f"seat's mean score is drawn against an equal share of them"]
