"""Baka: Toppa for 3 players (the Toppa rule page's section "Baka",
``shared/seeds/000_a569c68da0494d09.txt``).

Baka "retains almost all of the rules of Toppa": the deck, card points (bright 20, animal 10,
ribbon 5, chaff 0), the capture step, teyaku and dekiyaku are Toppa's (this module imports
Toppa's tables).  What changes (the rule page, "Baka"):

* three players, three rounds per game; the first dealer is drawn as in Toppa, the 2nd round is
  dealt by the first dealer's right-hand neighbour, the 3rd by the left-hand one, whoever wins;
* 7 cards to each player and 6 to the field (3 each, 2 field, 4 each, 4 field), 21 in the pile;
* end of round, in this order: Low Man Out, yaku settlement against the average of the three
  yaku scores (by handing over captured cards), then card points against a par of 80;
* the Chaff dekiyaku needs 10 chaff (not 12).

Seats and players
-----------------
Turn order is as in Hachi-hachi: the dealer plays first, then play passes anticlockwise, i.e.
to the dealer's right.  Inside a round seats are relative to the dealer in turn order: seat 0
is the dealer, seat 1 the player on the dealer's right (plays second), seat 2 the player on the
dealer's left (plays last).  Players 0, 1, 2 (whose policies may differ) sit so that player
``p + 1`` is on player ``p``'s right; seat ``s`` of a round dealt by player ``d`` is player
``(d + s) % 3``.  With first dealer ``d0`` the dealers of rounds 1, 2, 3 are ``d0``,
``d0 + 1`` (his right) and ``d0 + 2`` (his left), mod 3: every player deals once a game.

Dealing follows Hachi-hachi's order too: the dealer deals first to his right, anticlockwise,
himself last, then the field (``DEAL_PATTERN``).

House rules the rule page leaves open are options of :class:`BakaRules`; each option's text says
what the default does and why.  The round result is written into ``res`` slots (``R_*``).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import partial
from typing import ClassVar, NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from ..reading import Line, Reading
from ..decks import HANAFUDA
from ..engine import state
from ..engine.bits import bit, count
from ..engine.deal import deal, deal_until_clean, is_misdeal  # noqa: F401  (deal: tests build deals with it)
from ..engine.deal_only import DEALS_PER_SESSION, run_deal_chunks
from ..engine.jit import hot
from ..engine.lookahead import new_scratch, play_out, round_value, uses_lookahead
from ..engine.teyaku import expose_step
from ..engine.rng import NO_GIVEN, partial_shuffle, restart
from ..engine import card_tally, sessions
from ..engine.tally import HIST_BINS, hist_add, tally_hits
from ..engine.settle import (TRANSFER_EXACT, TRANSFER_TOTAL, divisible_values,
                             exact_from_counts, pay_greedy, pile_points)
from ..engine.yaku import COMBINE_ADD, COMBINE_HIGHEST
from ..rules import no_first_draw, number, option, seat_values, when_zero
from .. import sources
from .registry import register
from . import toppa

NAME = "baka"
N_PLAYERS = 3
ROUNDS_PER_GAME = 3  # "the number of rounds is limited to three (3) per game" (seed, Baka)
PAR = 80             # "Subtract the points with the par score of 80" (seed, Baka)
HAND_SIZE, FIELD_SIZE = 7, 6
PILE_SIZE = 48 - N_PLAYERS * HAND_SIZE - FIELD_SIZE  # 21: one draw per turn, 7 turns each
LOW_MAN_MAX = 25     # Low Man Out: "a score of 25 points or less" (seed, Baka)
LOW_MAN_PAY = 40     # "paid 40 points each by the other two players" (seed, Baka)
CHAFF_MIN = 10       # Chaff dekiyaku: "only ten (10) Chaff instead of twelve" (seed, Baka)
# "the dealer gives three (3) to each player, two (2) to the table, and then four (4) to each
# player, four (4) to the table" (seed, Baka "Distributing the Initial Cards"); players in
# Hachi-hachi's order, "starting with the player to their right and moving anti-clockwise".
# Groups: 0 dealer, 1 right, 2 left, 3 field; the remaining 21 cards are the draw pile.
DEAL_PATTERN = np.array([1] * 3 + [2] * 3 + [0] * 3 + [3] * 2
                        + [1] * 4 + [2] * 4 + [0] * 4 + [3] * 4, dtype=np.int8)
FIELD = 3
SEATS = ("dealer", "right", "left")
DECK_POINTS = toppa.DECK_POINTS
POSITIONS = ("first_dealer", "second_dealer", "third_dealer")  # by the game's dealing order
TEYAKU_ALL = toppa.TEYAKU  # triplet, one_ribbon, one_animal, one_bright, empty_hand


@dataclass(frozen=True)
class BakaRules(toppa.YakuValues):
    """House rules of Baka: Toppa's yaku and teyaku values (``toppa.YakuValues``, the Toppa rule
    page's 'List of Dekiyaku': Baka keeps Toppa's list) plus Baka's own par and settlement
    options."""

    game: ClassVar[str] = NAME
    seats: ClassVar[tuple] = SEATS
    chaff_count: int = number(CHAFF_MIN, "chaff cards the Chaff dekiyaku needs: 'only ten (10) Chaff instead of twelve' (the rule page, Baka 'Dekiyaku'); at most the chaff cards that count under willow_chaff", low=1, high=27, readings={CHAFF_MIN: toppa.PAGE_VALUE, 12: "Toppa's count"}, inert=when_zero("chaff"))
    par: int = number(PAR, "the par subtracted from a seat's card points, for every seat or one per seat (dealer,right,left); pars that do not add up to the deck's 240 points make the game not zero-sum (Baka 'End of Round and Scoring': 'par score of 80')", low=0, high=240, readings={PAR: toppa.PAGE_VALUE}, per_seat=True)
    low_man_max: int = number(LOW_MAN_MAX, "Low Man Out: card points at or below which a player is the low man ('25 points or less') (Baka 'Low Man Out')", low=0, high=240, readings={LOW_MAN_MAX: toppa.PAGE_VALUE})
    low_man_pay: int = number(LOW_MAN_PAY, "Low Man Out: what each other player pays the low man ('paid 40 points each') (Baka 'Low Man Out')", low=0, high=400, readings={LOW_MAN_PAY: toppa.PAGE_VALUE})
    willow_chaff: str = option("none", ("none", "lightning", "all"), "which willow cards count towards Chaff (10 chaff in Baka): none (the rule page's main reading: willow cards 'all count as Ribbons'), lightning (the lightning card by its printed type), all (every willow card, 'Optional') (Toppa 'List of Dekiyaku')", inert=when_zero("chaff"))
    chaff_teyaku: str = option("seven_card", ("seven_card", "disabled"), "Toppa's chaff teyaku assume a 10-card hand ('one ribbon, nine chaff'): seven_card scales them to Baka's 7 cards (one ribbon/animal/bright + six chaff, seven chaff, valued as in Toppa; as Hachi-hachi's 7-card chaff teyaku); disabled: only the triplet teyaku (the rule page, Baka: teyaku 'as in Toppa')")
    teyaku_combine: str = option("add", ("add", "highest"), "add: teyaku add up (two triplets 40); highest: only the best teyaku scores (Toppa 'Checking for Teyaku')")
    card_transfer: str = option("exact", ("exact", "total"), "exact: a payer hands each payee cards worth exactly the amount (disjoint sets of cards when paying two); total: cards worth at least the amounts, as a number (Baka 'Yaku Settlement': 'just like in 2-player Toppa')")
    yaku_rounding: str = option("nearest5", ("nearest5", "toward_zero5", "none"), "the average of three yaku scores is in thirds: the two players on the same side of the average settle their difference from it rounded to a multiple of 5 (the smallest card value), nearest5 to the nearest (never a tie), toward_zero5 toward zero, the third player settling the sum so it stays zero-sum; none: exact thirds, scores in fractions of a point, paid as a number (no set of cards is worth a third of a point, so a payer covers when his pile's points reach the amount) (Baka 'Yaku Settlement'; not specified)")
    uncovered: str = option("toppa", ("toppa", "in_points"), "a payer whose captured cards cannot cover his yaku payment pays it in points instead; toppa: and, as in Toppa's 'Settlement when Yaku Settlement cannot be Done' (loser pays the opponent's whole yaku score), loses the credit of his own yaku: he pays his amount plus his own yaku score, the extra shared by those he pays; in_points: only the amount")
    low_man_forfeit: str = option("no", ("no", "yes"), "Low Man Out (card points 25 or less: paid 40 by each other player): no: the round is then settled as usual; yes: as in Hachi-hachi's special cases, all other scoring of the round (yaku and card points) is cancelled (Baka 'Low Man Out': 'has not been attested')")
    first_dealer_cards: int = option(1, (1, 2, 3, 4, 5), "cards each player draws to choose the first dealer by month points (months 1-9 their number, 10-12 zero); most points deals, a tie for the most draws again (Toppa 'Choosing the Dealer': 'not specified')", inert=no_first_draw)

    def check(self):
        toppa.check_chaff_count(self)
        toppa.check_precedence(self)


class Tables(NamedTuple):
    """Everything a Baka kernel needs, as arrays and ints."""

    month: np.ndarray        # int8[48]
    month_masks: np.ndarray  # uint64[13]
    kind_masks: np.ndarray   # uint64[4]
    kind_points: np.ndarray  # int64[4]
    yaku_masks: np.ndarray   # uint64[Y, 3]
    yaku_ints: np.ndarray    # int64[Y, 5]
    teyaku: np.ndarray       # int64[T, 7]
    pattern: np.ndarray      # int8[27]
    params: np.ndarray       # int64[P_N]
    weights: np.ndarray      # float64[48], greedy's card weights
    gscore: np.ndarray       # float64[48 * 16], greedy's hand-card table (policies.greedy_tables)
    ghigh: np.ndarray        # uint64[12 * 16], greedy's two-way choice table
    cond: np.ndarray = NO_GIVEN  # int64[]: the run's conditioned deal (engine.rng; empty: none)


# params slots
(P_TRANSFER, P_COMBINE, P_ROUNDING, P_UNCOVERED, P_FORFEIT, P_FIRST_CARDS, P_FIXED_DEALER,
 P_CHECKED, P_PAR, P_LOW_MAX, P_LOW_PAY, P_GREEDY_PAY, P_PAR_RIGHT, P_PAR_LEFT) = range(14)
P_N = 14  # P_PAR, P_PAR_RIGHT, P_PAR_LEFT: the pars of seats 0, 1, 2 (the `par` rule, per seat)
ROUND_NEAREST, ROUND_TOWARD_ZERO, ROUND_NONE = 0, 1, 2
ROUNDING = {"nearest5": ROUND_NEAREST, "toward_zero5": ROUND_TOWARD_ZERO, "none": ROUND_NONE}
UNCOVERED_TOPPA, UNCOVERED_IN_POINTS = 0, 1


def teyaku_names(rules: BakaRules) -> tuple:
    return TEYAKU_ALL if rules.chaff_teyaku == "seven_card" else TEYAKU_ALL[:1]


def teyaku_rows(rules: BakaRules) -> np.ndarray:
    """Toppa's teyaku for a 7-card hand (``toppa.teyaku_table(7)``: one ribbon/animal/bright
    with six chaff 20, seven chaff 30, triplets 20 each); only the triplet when disabled."""
    rows = toppa.teyaku_table(HAND_SIZE, toppa.teyaku_values(rules))
    return rows if rules.chaff_teyaku == "seven_card" else rows[:1].copy()


def lower(rules: BakaRules, *, fixed_dealer=False, checked=False) -> tuple:
    """(Tables, dekiyaku names) for the kernels."""
    from ..policies import card_weights, greedy_tables

    names, ymasks, yints = toppa.dekiyaku_table(rules).build()
    toppa.check_yaku_shapes(names, ymasks, yints)
    month, month_masks, kind_masks, kind_points = toppa.deck_arrays()
    params = np.zeros(P_N, dtype=np.int64)
    params[P_TRANSFER] = TRANSFER_EXACT if rules.card_transfer == "exact" else TRANSFER_TOTAL
    params[P_COMBINE] = COMBINE_ADD if rules.teyaku_combine == "add" else COMBINE_HIGHEST
    params[P_ROUNDING] = ROUNDING[rules.yaku_rounding]
    params[P_UNCOVERED] = UNCOVERED_TOPPA if rules.uncovered == "toppa" else UNCOVERED_IN_POINTS
    params[P_FORFEIT] = rules.low_man_forfeit == "yes"
    params[P_FIRST_CARDS] = rules.first_dealer_cards
    params[P_FIXED_DEALER] = bool(fixed_dealer)
    params[P_CHECKED] = bool(checked)
    params[P_PAR], params[P_PAR_RIGHT], params[P_PAR_LEFT] = seat_values(rules.par, N_PLAYERS)
    params[P_LOW_MAX] = rules.low_man_max
    params[P_LOW_PAY] = rules.low_man_pay
    # Card values 20 / 10 / 5 (chaff 0), each dividing the next: exact payments are decided
    # greedily (:func:`pay_greedy`), the same answers as the general search (:func:`can_pay_two`,
    # tests/test_baka.py), which the kernels therefore do not compile.  Baka's card values
    # are fixed (no rule changes them).
    params[P_GREEDY_PAY] = divisible_values(kind_points)
    assert params[P_GREEDY_PAY], "the kernels pay exact amounts greedily"
    # The kernels use the engine's nibble tricks (a month is four consecutive cards).
    assert all(int(month_masks[m]) == 0xF << 4 * (m - 1) for m in range(1, 13))
    weights = card_weights(HANAFUDA.points, ymasks, yints)
    tables = Tables(month, month_masks, kind_masks, kind_points, ymasks, yints,
                    teyaku_rows(rules), DEAL_PATTERN, params, weights, *greedy_tables(weights))
    return tables, names


# ---------------------------------------------------------------- kernels

# result slots of one played round; each per-seat slot is followed by seats 1 and 2
(R_SCORE, R_PTS, R_YAKU, R_TEY_HELD, R_TEY_SCORED, R_DEKI_HITS, R_DEKI, R_LOW, R_SETTLE,
 R_CAPTURED) = (0, 3, 6, 9, 12, 15, 18, 21, 24, 27)
R_UNCOVERED, R_N_LOW, R_FIELD, R_TOP, R_MISDEALS = 30, 31, 32, 33, 34
R_N = 35
# R_LOW: net Low Man Out payment; R_SETTLE: net yaku settlement (amounts and, under the
# 'toppa' uncovered rule, the forfeited own yaku); R_UNCOVERED: payers who could not cover.
# R_SCORE, R_LOW and R_SETTLE are in units of 1/score_unit(params) point: thirds under
# yaku_rounding=none (exact averages), whole points otherwise; counters stay integers.


ST_N = state.size(N_PLAYERS)


@hot(inline="always")
def deal_round(rng, order, groups, pattern, cond):
    """Shuffle the dealt cards and deal into ``groups`` until the deal is not a misdeal (four
    cards of one month in any hand or on the field: seed, Baka "Distributing the Initial
    Cards"), then finish shuffling the draw pile; returns the number of misdeals.  ``cond``:
    the run's given cards and ``--where`` (``engine.rng``, "conditional deals"; empty: none)."""
    return deal_until_clean(rng, order, groups, pattern, 0, FIELD + 1, cond)  # hands, field


@hot(inline="always")
def play_from(st, order, rng, tb, policy, dealer, look):
    """Play the round in state ``st`` (``engine.state``, 3 seats) to its end, updating ``st``.

    Dealer first, then anticlockwise (right, left); the round ends when all hands are empty
    (the rule page, Baka "End of Round"); every turn draws one card, so 7 turns each use up the
    21-card pile.  Seat ``s`` is player ``(dealer + s) % 3``.  ``look``: None, or the lookahead
    context (``engine.lookahead``) when a player plays by lookahead.
    """
    play_out(st, N_PLAYERS, order, rng, policy, dealer, tb.gscore, tb.ghigh, look)


@hot(inline="always")
def play_dealt(rng, order, groups, st, tb, policy, expose, dealer, res, look):
    """Play one dealt round to the end and settle it into ``res`` (seats relative to dealer).

    ``groups`` holds the dealt masks (dealer, right, left, field); the draw pile is
    ``order[len(pattern):]``, top first.  ``policy``/``expose`` are indexed by player; seat
    ``s`` is player ``(dealer + s) % 3``.
    """
    state.start(st, groups, N_PLAYERS, tb.pattern.shape[0])
    # Teyaku, in turn order; only exposed teyaku score (exposing is the player's choice).
    expose_step(st, N_PLAYERS, dealer, order, rng, tb.teyaku, tb.month_masks, tb.kind_masks,
                tb.params[P_COMBINE], policy, expose, res, R_TEY_HELD, R_TEY_SCORED,
                tb.gscore, tb.ghigh, look)
    play_from(st, order, rng, tb, policy, dealer, look)
    for s in range(N_PLAYERS):  # one inlined copy of the yaku rows, not three
        _score_pile(res, s, st[4 + s], tb)
    c0 = st[4]
    c1 = st[5]
    c2 = st[6]
    res[R_FIELD] = np.int64(st[3])
    res[R_TOP] = np.int64(st[7])
    settle_piles(res, c0, c1, c2, tb.kind_masks, tb.kind_points, tb.params)
    if tb.params[P_CHECKED]:
        check_round(order, st[0] | st[1] | st[2], st[3], c0, c1, c2, np.int64(st[7]), res,
                    tb.params)


@hot(inline="always")
def _score_pile(res, s, cs, tb):
    v, h = toppa.score_pile(cs, tb.yaku_masks, tb.yaku_ints)
    res[R_DEKI + s] = v
    res[R_DEKI_HITS + s] = h
    res[R_YAKU + s] = v + res[R_TEY_SCORED + s]
    res[R_PTS + s] = pile_points(cs, tb.kind_masks, tb.kind_points)
    res[R_CAPTURED + s] = np.int64(cs)


@overload(round_value)
def _round_value(tables, st, seat, res):
    """A finished round's score for ``seat`` (the lookahead's rollout value), settled as the
    round is.  Writes the round's pile and settlement slots of ``res``, which the real round
    fills again after its play; the teyaku slots it reads are not among them."""
    if isinstance(tables, types.BaseNamedTuple) and tables.instance_class is Tables:
        def value(tables, st, seat, res):
            for s in range(N_PLAYERS):
                _score_pile(res, s, st[4 + s], tables)
            settle_piles(res, st[4], st[5], st[6], tables.kind_masks, tables.kind_points,
                         tables.params)
            return res[R_SCORE + seat]
        return value


@hot
def settle(res, captured, kind_masks, kind_points, params):
    """:func:`settle_piles` for a ``captured`` array (seats 0 dealer, 1 right, 2 left)."""
    settle_piles(res, captured[0], captured[1], captured[2], kind_masks, kind_points, params)


@hot
def _round_third(x, mode):
    """``x / 3`` rounded to a multiple of 5 (``x`` is three times an amount; never a tie)."""
    if mode == ROUND_NEAREST:
        return ((2 * x + 15) // 30) * 5
    if x >= 0:
        return (x // 15) * 5
    return -((-x) // 15) * 5


@hot
def yaku_amounts(y0, y1, y2, mode):
    """Each player's yaku score minus the average of the three, settled in whole points.

    When the sum is a multiple of 3 the amounts are exact.  Otherwise no amount is zero and two
    players are on the same side of the average: theirs are rounded (``_round_third``) and the
    lone player on the other side settles minus their sum, so the amounts add up to zero.
    """
    s = y0 + y1 + y2
    x0 = 3 * y0 - s
    x1 = 3 * y1 - s
    x2 = 3 * y2 - s
    if s % 3 == 0:
        return x0 // 3, x1 // 3, x2 // 3
    positives = (x0 > 0) + (x1 > 0) + (x2 > 0)
    # the lone player: the only positive one, or the only negative one
    lone0 = (x0 > 0) if positives == 1 else (x0 < 0)
    lone1 = (x1 > 0) if positives == 1 else (x1 < 0)
    if lone0:
        a1 = _round_third(x1, mode)
        a2 = _round_third(x2, mode)
        return -(a1 + a2), a1, a2
    if lone1:
        a0 = _round_third(x0, mode)
        a2 = _round_third(x2, mode)
        return a0, -(a0 + a2), a2
    a0 = _round_third(x0, mode)
    a1 = _round_third(x1, mode)
    return a0, a1, -(a0 + a1)


@hot(inline="always")
def score_unit(params):
    """Scores are kept in thirds of a point when the yaku average is not rounded."""
    return 3 if params[P_ROUNDING] == ROUND_NONE else 1


@hot
def can_pay_two(pile, a, b, kind_masks, kind_points, rule):
    """Can ``pile`` pay ``a`` to one player and ``b`` to another by handing over cards?

    ``TRANSFER_TOTAL``: the pile is worth at least ``a + b``.  ``TRANSFER_EXACT``: two
    disjoint sets of its cards are worth exactly ``a`` and ``b`` (cards have no change).
    A general search over the numbers of cards of each kind; see :func:`pay_greedy`.
    """
    if rule == TRANSFER_TOTAL:
        return pile_points(pile, kind_masks, kind_points) >= max(a, 0) + max(b, 0)
    n0 = count(pile & kind_masks[0])
    n1 = count(pile & kind_masks[1])
    n2 = count(pile & kind_masks[2])
    n3 = count(pile & kind_masks[3])
    v0, v1, v2, v3 = kind_points[0], kind_points[1], kind_points[2], kind_points[3]
    if a <= 0 or b <= 0:  # one payment (can_hand_over's exact search), written once
        amount = max(a, b)
        return amount <= 0 or exact_from_counts(n0, n1, n2, n3, v0, v1, v2, v3, amount)
    top3 = n3 if v3 > 0 else 0  # worthless cards never help
    for x0 in range(n0 + 1):
        r0 = a - x0 * v0
        if r0 < 0:
            break
        for x1 in range(n1 + 1):
            r1 = r0 - x1 * v1
            if r1 < 0:
                break
            for x2 in range(n2 + 1):
                r2 = r1 - x2 * v2
                if r2 < 0:
                    break
                for x3 in range(top3 + 1):
                    r3 = r2 - x3 * v3
                    if r3 < 0:
                        break
                    if r3 == 0 and exact_from_counts(n0 - x0, n1 - x1, n2 - x2, n3 - x3,
                                                      v0, v1, v2, v3, b):
                        return True
    return False


@hot(inline="always")
def _can_pay(pile, points, a, b, kind_masks, rule, unit):
    """:func:`can_pay_two` for Baka's card values (``points``: the pile's card points):
    ``a`` and ``b`` are in 1/unit points; thirds are paid as a number (see yaku_rounding), and
    so is everything under ``TRANSFER_TOTAL``; exact amounts are paid greedily
    (:func:`pay_greedy`: the values divide each other)."""
    if unit != 1 or rule == TRANSFER_TOTAL:
        return unit * points >= max(a, 0) + max(b, 0)
    return pay_greedy(pile, a, b, kind_masks)


@hot
def _pick(s, x0, x1, x2):
    if s == 0:
        return x0
    if s == 1:
        return x1
    return x2


@hot
def settle_piles(res, c0, c1, c2, kind_masks, kind_points, params):
    """End of round (the rule page, Baka "End of Round and Scoring"), in the rule page's order:

    1. Low Man Out: a player whose captured card points are 25 or less is paid 40 by each other
       player.  Two low players pay each other too, so those payments cancel: each nets +40 and
       the third player pays 80.  Under ``low_man_forfeit`` the round ends here.
    2. Yaku settlement: each player's yaku score minus the average of the three
       (:func:`yaku_amounts`), paid by handing over captured cards (:func:`_can_pay`,
       as :func:`can_pay_two` decides); a payer who cannot cover pays in points (``uncovered``
       rule).
    3. Card points (after the handed-over cards) minus the seat's par (80; the ``par`` rule).

    Reads ``R_PTS`` and ``R_YAKU``; writes ``R_SCORE``, ``R_LOW``, ``R_SETTLE``,
    ``R_UNCOVERED`` and ``R_N_LOW``.  All cards are captured by the end of a round (a month's
    cards on the field always pair off), so the points sum to 240 and the scores to 240 minus
    the pars: zero under the rule page's par of 80 each.
    """
    par0 = params[P_PAR]
    par1 = params[P_PAR_RIGHT]
    par2 = params[P_PAR_LEFT]
    low_max = params[P_LOW_MAX]
    pay = params[P_LOW_PAY]
    pt0, pt1, pt2 = res[R_PTS], res[R_PTS + 1], res[R_PTS + 2]
    y0, y1, y2 = res[R_YAKU], res[R_YAKU + 1], res[R_YAKU + 2]
    l0 = np.int64(pt0 <= low_max)
    l1 = np.int64(pt1 <= low_max)
    l2 = np.int64(pt2 <= low_max)
    n_low = l0 + l1 + l2
    unit = score_unit(params)
    # each low player receives `pay` from both others and pays `pay` to every other low player
    w0 = unit * pay * (3 * l0 - n_low)
    w1 = unit * pay * (3 * l1 - n_low)
    w2 = unit * pay * (3 * l2 - n_low)
    res[R_N_LOW] = n_low
    # Under low_man_forfeit a round with a low man ends there: no yaku amounts (so no payer
    # below), no card points; one set of result writes serves both ends.
    forfeit = (n_low > 0) & (params[P_FORFEIT] != 0)
    cards = unit * (not forfeit)
    if forfeit:
        a0 = np.int64(0)
        a1 = np.int64(0)
        a2 = np.int64(0)
    elif unit == 1:
        a0, a1, a2 = yaku_amounts(y0, y1, y2, params[P_ROUNDING])
    else:  # exact: each yaku score minus the average, in thirds
        a0 = 2 * y0 - y1 - y2
        a1 = 2 * y1 - y0 - y2
        a2 = 2 * y2 - y0 - y1
    e0 = np.int64(0)
    e1 = np.int64(0)
    e2 = np.int64(0)
    rule = params[P_TRANSFER]
    toppa_rule = params[P_UNCOVERED] == UNCOVERED_TOPPA
    n_pay = (a0 < 0) + (a1 < 0) + (a2 < 0)
    uncovered = 0
    # One payer hands cards to both others (each his amount), or two payers each hand cards
    # to the one payee: one loop over the payers in turn order, so the payment test
    # (`_can_pay`, inlined) is compiled once, not at four sites.
    # (selects as arithmetic: fewer statements to compile than conditional expressions)
    p = (a0 >= 0) * (2 - (a1 < 0))  # the first payer: 0 if a0 < 0, else 1 if a1 < 0, else 2
    for _ in range(n_pay):
        # the others in turn order after the payer: (p+1, p+2) mod 3
        j = p + 1 - 3 * (p == 2)
        k = j + 1 - 3 * (j == 2)
        ap = _pick(p, a0, a1, a2)
        aj = _pick(j, a0, a1, a2)
        ak = _pick(k, a0, a1, a2)
        x = aj if n_pay == 1 else -ap
        y = ak if n_pay == 1 else np.int64(0)
        if not _can_pay(_pick(p, c0, c1, c2), _pick(p, pt0, pt1, pt2), x, y, kind_masks, rule,
                        unit):
            uncovered += 1
            if toppa_rule:
                yp = _pick(p, y0, y1, y2)
                # the forfeited own yaku goes to those he pays (with two payers, the one payee),
                # equally (any odd point to the first in turn order)
                if aj > 0 and ak > 0:
                    xk = yp // 2
                    xj = yp - xk
                elif aj > 0:
                    xj, xk = yp, np.int64(0)
                else:
                    xj, xk = np.int64(0), yp
                dp = -unit * yp
                dj = unit * xj
                dk = unit * xk
                e0 += dp * (p == 0) + dj * (j == 0) + dk * (k == 0)
                e1 += dp * (p == 1) + dj * (j == 1) + dk * (k == 1)
                e2 += dp * (p == 2) + dj * (j == 2) + dk * (k == 2)
        p = 2 - (p == 0) * (a1 < 0)  # the second payer, if two pay: 1 after 0 if a1 < 0
    res[R_UNCOVERED] = uncovered
    res[R_SETTLE] = a0 + e0
    res[R_SETTLE + 1] = a1 + e1
    res[R_SETTLE + 2] = a2 + e2
    res[R_LOW] = w0
    res[R_LOW + 1] = w1
    res[R_LOW + 2] = w2
    res[R_SCORE] = w0 + cards * (pt0 - par0) + a0 + e0
    res[R_SCORE + 1] = w1 + cards * (pt1 - par1) + a1 + e1
    res[R_SCORE + 2] = w2 + cards * (pt2 - par2) + a2 + e2


@hot
def check_round(order, hands, field, c0, c1, c2, top, res, params):
    """Checked mode: every card ends in exactly one place; pile consumed; the scores add up to
    the card points minus the pars (zero-sum under the rule page's pars, and in a forfeited
    round)."""
    full = np.uint64(0)
    for c in order:
        full |= bit(c)
    if hands:
        raise AssertionError("a hand is not empty at the end of the round")
    if top != order.shape[0]:
        raise AssertionError("the draw pile was not exactly consumed")
    if c0 & c1 or c0 & c2 or c1 & c2 or (c0 | c1 | c2) & field:
        raise AssertionError("a card is in two places")
    if (c0 | c1 | c2 | field) != full:
        raise AssertionError("a card is in no place")
    total = np.int64(0)
    if not (res[R_N_LOW] > 0 and params[P_FORFEIT]):
        total = score_unit(params) * (res[R_PTS] + res[R_PTS + 1] + res[R_PTS + 2] - params[P_PAR]
                                      - params[P_PAR_RIGHT] - params[P_PAR_LEFT])
    if res[R_SCORE] + res[R_SCORE + 1] + res[R_SCORE + 2] != total:
        raise AssertionError("the scores do not add up to the card points minus the pars")
    if res[R_LOW] + res[R_LOW + 1] + res[R_LOW + 2] != 0:
        raise AssertionError("Low Man Out payments are not zero-sum")
    if res[R_SETTLE] + res[R_SETTLE + 1] + res[R_SETTLE + 2] != 0:
        raise AssertionError("the yaku settlement is not zero-sum")


@hot
def _month_points(m):
    return m if m <= 9 else 0


@hot
def first_dealer(rng, order, t_month, n_cards):
    """Each player draws ``n_cards`` (players 0, 1, 2 in turn); months 1-9 score their number,
    10-12 score 0; the most points deals, a tie for the most draws again (the rule page, Toppa
    "Choosing the Dealer", which Baka keeps).  Only the drawn cards are shuffled (a partial
    Fisher-Yates, a uniform draw without replacement); the deal reshuffles the whole deck."""
    while True:
        partial_shuffle(rng, order, 3 * n_cards)
        a = 0
        b = 0
        c = 0
        for i in range(n_cards):
            a += _month_points(t_month[order[3 * i]])
            b += _month_points(t_month[order[3 * i + 1]])
            c += _month_points(t_month[order[3 * i + 2]])
        if a > b and a > c:
            return 0
        if b > a and b > c:
            return 1
        if c > a and c > b:
            return 2


# counters: scalars per chunk
(C_DEALS, C_MISDEALS, C_ROUNDS, C_LOW_ROUNDS, C_LOW_DOUBLE, C_UNCOVERED, C_EXPOSED,
 C_ROUND_TIES, C_GAMES, C_GAME_TIES, C_SETTLE_ABS, C_SETTLE_ABS_SQ) = range(12)
# per seat s (0 dealer, 1 right, 2 left): C_SEAT + SEAT_W * s + K_*
K_SCORE, K_SCORE_SQ, K_WINS, K_PTS, K_PTS_SQ, K_YAKU, K_YAKU_SQ, K_LOW = range(8)
C_SEAT, SEAT_W = 12, 8
# per player p: C_PLAYER + PLAYER_W * p + K_P_*
(K_P_SCORE, K_P_SCORE_SQ, K_P_WINS, K_P_TOTAL, K_P_TOTAL_SQ, K_P_GAME_WINS,
 K_P_FIRST) = range(7)
C_PLAYER, PLAYER_W = C_SEAT + 3 * SEAT_W, 7
# per position in the game's dealing order q (first, second, third dealer): C_POS + POS_W * q
K_G_TOTAL, K_G_TOTAL_SQ, K_G_WINS = range(3)
C_POS, POS_W = C_PLAYER + 3 * PLAYER_W, 3
# histograms (engine.tally.hist_add, in score units) of each seat's round score (h = seat) and
# of each dealing position's game total (h = 3 + position): C_HIST + HIST_BINS * h
C_HIST = C_POS + 3 * POS_W
C_N = C_HIST + 6 * HIST_BINS


@hot
def _strict_top(x0, x1, x2):
    """Index of the strictly highest of three values, or -1 on a tie for the highest."""
    if x0 > x1 and x0 > x2:
        return 0
    if x1 > x0 and x1 > x2:
        return 1
    if x2 > x0 and x2 > x1:
        return 2
    return -1


@hot
def _tally_round(scal, res, dealer):
    for s in range(3):
        b = C_SEAT + SEAT_W * s
        sc = res[R_SCORE + s]
        pt = res[R_PTS + s]
        y = res[R_YAKU + s]
        scal[b + K_SCORE] += sc
        scal[b + K_SCORE_SQ] += sc * sc
        scal[b + K_PTS] += pt
        scal[b + K_PTS_SQ] += pt * pt
        scal[b + K_YAKU] += y
        scal[b + K_YAKU_SQ] += y * y
        scal[b + K_LOW] += res[R_LOW + s] > 0
        st = res[R_SETTLE + s]
        scal[C_SETTLE_ABS] += abs(st)
        scal[C_SETTLE_ABS_SQ] += st * st
        p = dealer + s
        if p >= 3:
            p -= 3
        bp = C_PLAYER + PLAYER_W * p
        scal[bp + K_P_SCORE] += sc
        scal[bp + K_P_SCORE_SQ] += sc * sc
        scal[C_EXPOSED] += res[R_TEY_SCORED + s] > 0
        hist_add(scal, C_HIST + HIST_BINS * s, sc)
    top = _strict_top(res[R_SCORE], res[R_SCORE + 1], res[R_SCORE + 2])
    if top < 0:
        scal[C_ROUND_TIES] += 1
    else:
        scal[C_SEAT + SEAT_W * top + K_WINS] += 1
        p = dealer + top
        if p >= 3:
            p -= 3
        scal[C_PLAYER + PLAYER_W * p + K_P_WINS] += 1
    scal[C_ROUNDS] += 1
    n_low = res[R_N_LOW]
    scal[C_LOW_ROUNDS] += n_low > 0
    scal[C_LOW_DOUBLE] += n_low > 1
    scal[C_UNCOVERED] += res[R_UNCOVERED] > 0


@hot
def _tally_game(scal, d0, t0, t1, t2):
    """A complete game: totals by dealing position and player, and who dealt first (every game
    quantity is over complete games, so they share one n)."""
    scal[C_GAMES] += 1
    scal[C_PLAYER + PLAYER_W * d0 + K_P_FIRST] += 1
    for q in range(3):
        p = d0 + q
        if p >= 3:
            p -= 3
        t = _pick(p, t0, t1, t2)
        b = C_POS + POS_W * q
        scal[b + K_G_TOTAL] += t
        scal[b + K_G_TOTAL_SQ] += t * t
        bp = C_PLAYER + PLAYER_W * p
        scal[bp + K_P_TOTAL] += t
        scal[bp + K_P_TOTAL_SQ] += t * t
        hist_add(scal, C_HIST + HIST_BINS * (3 + q), t)
    top = _strict_top(t0, t1, t2)
    if top < 0:
        scal[C_GAME_TIES] += 1
    else:
        scal[C_PLAYER + PLAYER_W * top + K_P_GAME_WINS] += 1
        q = top - d0
        if q < 0:
            q += 3
        scal[C_POS + POS_W * q + K_G_WINS] += 1


# ---------------------------------------------------------------- the session hooks
# The engine runs chunks and sessions (engine.sessions); a Baka session is one game of 3
# rounds.  Work arrays of a chunk: the generator state, the deck order, the dealt groups, the
# round state and the round's result.  Game g plays on the random stream
# ``stream_state(seed, g)``: the first-dealer draw, then its rounds in turn, from the
# unshuffled deck.
GAME = sys.modules[__name__]  # the hooks (engine.sessions.HOOKS) the engine inlines
LOOP = sessions.ONE_GAME  # one game a session (engine.sessions.play runs it)
chunk_counters = sessions.counter_rows(4)  # scal, tcount, ycount, cards
session_length = sessions.constant_hook(ROUNDS_PER_GAME)
n_players = sessions.constant_hook(N_PLAYERS)
seat_score = sessions.result_hook(4, R_SCORE)
game_over = sessions.one_game_over(session_length)  # the game is the session
end_chunk = sessions.end_chunk  # nothing kept in the lookahead context


@njit(inline="always")
def new_work(tb):
    # the deck order (int8) as a view of a uint64 allocation: every allocation is of a dtype
    # the engine allocates anyway, so no np.arange or int8 allocation is compiled for it;
    # start_game puts the deck in order (rng.restart) before anything reads it
    return (np.zeros(1, dtype=np.uint64), np.zeros(6, dtype=np.uint64).view(np.int8),
            np.zeros(4, dtype=np.uint64), np.zeros(ST_N, dtype=np.uint64),
            np.zeros(R_N, dtype=np.int64))


@njit(inline="always")
def look_context(tb, work, players):
    return (tb, work[4], new_scratch(ST_N, 48, N_PLAYERS))


@hot(inline="always")
def start_game(tb, work, key, i, n_rounds):
    rng, order = work[0], work[1]
    restart(rng, key, order)  # a game depends on nothing but its own stream
    p = tb.params
    return 0 if p[P_FIXED_DEALER] else first_dealer(rng, order, tb.month, p[P_FIRST_CARDS])


@hot(inline="always")
def play_round(tb, work, players, key, i, dealer, look):
    rng, order, groups, st, res = work
    policy, expose = players
    mis = deal_round(rng, order, groups, tb.pattern, tb.cond)
    play_dealt(rng, order, groups, st, tb, policy, expose, dealer, res, look)
    res[R_MISDEALS] = mis


@hot(inline="always")
def tally_round(tb, work, counts, dealer):
    res = work[4]
    scal, tcount, ycount, cards = counts
    mis = res[R_MISDEALS]
    scal[C_DEALS] += mis + 1
    scal[C_MISDEALS] += mis
    _tally_round(scal, res, dealer)
    tally_hits(tcount, res[R_TEY_HELD], res[R_TEY_HELD + 1], res[R_TEY_HELD + 2],
               tb.teyaku.shape[0])
    tally_hits(ycount, res[R_DEKI_HITS], res[R_DEKI_HITS + 1], res[R_DEKI_HITS + 2],
               tb.yaku_masks.shape[0])
    card_tally.tally_round(GAME, tb, work, cards, N_PLAYERS)


@hot(inline="always")
def dealt(tb, work, g):
    # the dealt groups (card values): seat g relative to the dealer, g == 3 the field
    return work[2][g]


@hot(inline="always")
def next_dealer(tb, work, dealer):
    # The 2nd round is dealt by the first dealer's right, the 3rd by his left, "regardless
    # of whoever wins" (seed, Baka "Choosing the Dealer"): the next seat each round.
    if tb.params[P_FIXED_DEALER]:
        return dealer
    return dealer + 1 if dealer < 2 else 0


@hot(inline="always")
def tally_game(tb, work, counts, first, totals):
    # game quantities are counted only for complete games (the engine calls this for those)
    _tally_game(counts[0], first, totals[0], totals[1], totals[2])


@hot
def play_sessions(seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
    """Sessions ``s0 .. s1-1`` of a chunk (``engine.sessions.play``, this module's
    hooks inlined): a kernel of its own, compiled without reference counting."""
    sessions.play(GAME, seed, s0, s1, total_rounds, tb, work, players, counts, totals,
                  look)


@njit(cache=True, nogil=True)
def run_chunks(seed, first_game, n_games, chunk, total_rounds, tb, policy, expose, scal, tcount,
               ycount, cards, look):
    """Play games ``first_game ..`` in chunks of ``chunk`` games (``engine.sessions``); game
    ``g`` has its own random stream ``stream_state(seed, g)`` and plays
    ``min(3, total_rounds - 3 g)`` rounds.  Counters are per chunk (``scal[chunk, C_N]``,
    ``tcount[chunk, T+1, 2]``, ``ycount[chunk, Y+1, 2]``, ``cards``: ``engine.card_tally``,
    empty unless the run tallies card values) and summed by the caller, so results never
    depend on threads or chunking.  ``look``: None, or True when a player plays by
    lookahead (a kernel of its own)."""
    sessions.run_chunks(GAME, seed, first_game, n_games, chunk, total_rounds, tb, (policy, expose),
                        (scal, tcount, ycount, cards), look)


# Batch kernels for the runner: module-level functions bound with functools.partial, so a
# batch pickles by reference and a Dask worker loads the cached compiled kernels.

def play_kernel(tb, seed, rounds, policy, expose, first, n, chunk, out):
    run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, policy, expose,
               out["scal"], out["tcount"], out["ycount"], card_tally.kernel_counter(out),
               uses_lookahead(policy))


def deal_kernel(tb, seed, rounds, first, n, chunk, out):
    # groups 0-2 are the hands, 3 the field; all four are checked for a misdeal
    run_deal_chunks(np.uint64(seed), first, n, chunk, rounds, tb.month_masks, tb.kind_masks,
                    tb.teyaku, tb.pattern, tb.params[P_COMBINE], 3, 4,
                    np.array([C_DEALS, C_MISDEALS, C_ROUNDS]), out["scal"], out["tcount"],
                    tb.cond)


# ---------------------------------------------------------------- public layer

def score_unit_of(rules) -> int:
    """Counters hold scores in thirds of a point under ``yaku_rounding=none`` (exact averages),
    else in points (:func:`score_unit`)."""
    return 3 if rules.yaku_rounding == "none" else 1


def _fair_par(name, score_stats, applied, par):
    """``par + mean score / applied`` (``applied``: the share of rounds scored against par),
    with the score's standard error and interval scaled alike."""
    out = dict(score_stats)
    for k in ("estimate", "ci_low", "ci_high"):
        out[k] = par + out[k] / applied
    out["std_error"] = out["std_error"] / applied
    return (name, out)


#: how Baka's numbers are read (hanasim.reading): points, three seats relative to the round's
#: dealer, zero-sum with the default pars (0 lines), fair pars against the par played
READING = Reading(
    unit="points", seats=SEATS, edge_metric="mean_score",
    edge_quantity="seat.dealer.mean_score",
    no_winner=("seat.tie_rate",), no_winner_words="tied",
    fair_metric="fair_par", fair_rule="par",
    headline=(
        Line("seat.dealer.mean_score", "The dealer scores {value} {unit} a round on average",
             "signed", verdict=True),
        Line("seat.right.mean_score", "The dealer's right scores {value} {unit} a round",
             "signed"),
        Line("seat.left.mean_score", "The dealer's left scores {value} {unit} a round",
             "signed"),
        Line("game.first_dealer.mean_total", "Over a three-round game the first dealer "
             "totals {value} {unit}", "signed"),
    ))


class Baka:
    """The registry entry: what the API, the CLI and the statistics layer ask of a game."""

    reading = READING

    name = NAME
    title = "Baka (3-player Toppa)"
    source = f"{sources.dated('toppa')}, section 'Baka' (and 'Toppa (for 2 players)')"
    seed_file = "000_a569c68da0494d09"
    n_players = N_PLAYERS
    seats = SEATS
    deck_points = DECK_POINTS  # what the pars must add up to for the game to be zero-sum
    Rules = BakaRules
    par = PAR
    teyaku_names = TEYAKU_ALL
    lookahead = True  # the lookahead policy plays this game (engine.lookahead)
    card_values = True  # counters(card_values=True) tallies each seat's scores by dealt card
    version = 5  # bump when a rule's behaviour, an option or a policy's play changes
    #: what a sweep shows and charts when no quantity is asked for
    key_quantities = ("seat.dealer.mean_score", "seat.right.mean_score", "seat.left.mean_score")

    @property
    def main_kernel(self):
        """The kernel whose compilation dominates a first run (for the CLI's notice)."""
        return run_chunks

    def deal_spec(self, rules):
        from ..stats.exact import DealSpec
        return DealSpec(
            month=HANAFUDA.month, kind=HANAFUDA.kind,
            group_sizes=(HAND_SIZE, HAND_SIZE, HAND_SIZE, FIELD_SIZE, PILE_SIZE),
            hand_groups=(0, 1, 2), misdeal_groups=(0, 1, 2, 3),
            teyaku=toppa.teyaku_specs(HAND_SIZE, rules.chaff_teyaku == "seven_card"))

    def counters(self, rules, *, rounds, seed, policy, expose, session_rounds=1,
                 fixed_dealer=False, checked=False, progress=False, deals_only=False,
                 card_values=False, cond=None, **run_options):
        """Integer counters of ``rounds`` played rounds (dict of arrays), summed over chunks;
        ``card_values``: also ``cards`` (``engine.card_tally``) and ``cards_scale``.

        Whole games of 3 rounds are simulated (``ceil(rounds / 3)`` games, the last one cut
        short when ``rounds`` is not a multiple of 3), game ``g`` on the random stream
        ``stream_state(seed, g)``.  ``session_rounds`` does not apply (a Baka game is always 3
        rounds with a fixed dealer rotation): only 1 (the default) or 3 are accepted.
        ``fixed_dealer``: player 1 deals every round (no draw, no rotation).  ``deals_only``:
        deal-time quantities only (misdeal rate, teyaku), without play.  ``run_options`` go to
        :func:`engine.runner.run_batches` (chunk, blocks, checkpoint, executor).
        """
        from ..conditions import kernel_cond
        from ..engine.runner import run_batches

        if int(session_rounds) not in (1, ROUNDS_PER_GAME):
            raise ValueError("baka is played in games of 3 rounds with a fixed dealer rotation; "
                             "session_rounds does not apply (leave it at 1)")
        tb, names = lower(rules, fixed_dealer=fixed_dealer, checked=checked)
        tb = tb._replace(cond=kernel_cond(cond))  # None: no conditioned-deal code
        if deals_only:
            shapes = dict(scal=(C_N,), tcount=(tb.teyaku.shape[0] + 1, 2))

            totals = run_batches(partial(deal_kernel, tb, seed, rounds), -(-rounds // DEALS_PER_SESSION), shapes,
                                 rounds_per_session=DEALS_PER_SESSION, progress=progress,
                                 desc=f"{NAME} deals", **run_options)
            totals["deals_only"] = True
            totals["teyaku_names"] = teyaku_names(rules)
            return totals
        n_games = -(-rounds // ROUNDS_PER_GAME)
        shapes = dict(scal=(C_N,), tcount=(tb.teyaku.shape[0] + 1, 2),
                      ycount=(tb.yaku_masks.shape[0] + 1, 2))
        if card_values:
            shapes["cards"] = card_tally.shape(N_PLAYERS, 48)
        policy = np.ascontiguousarray(policy, dtype=np.int64)
        expose = np.ascontiguousarray(expose, dtype=np.int64)
        totals = run_batches(partial(play_kernel, tb, seed, rounds, policy, expose), n_games, shapes, rounds_per_session=ROUNDS_PER_GAME,
                             progress=progress, desc=f"{NAME}", **run_options)
        totals["dekiyaku_names"] = names
        totals["teyaku_names"] = teyaku_names(rules)
        if card_values:  # scores in thirds under yaku_rounding=none
            totals["cards_scale"] = score_unit_of(rules)
        return totals

    def histograms(self, c, rules) -> dict:
        """``{distribution name: histogram counts}`` in score units (:func:`score_unit_of`):
        each seat's round score and each dealing position's game total."""
        if c.get("deals_only"):
            return {}
        s = c["scal"]

        def h(k):
            return s[C_HIST + HIST_BINS * k: C_HIST + HIST_BINS * (k + 1)]
        out = {f"round_score.{seat}": h(k) for k, seat in enumerate(SEATS)}
        out.update({f"game.{pos}.total": h(3 + q) for q, pos in enumerate(POSITIONS)})
        return out

    def distributions(self, c, rules) -> dict:
        """Trimmed histograms for ``df.attrs["distributions"]`` (see ``stats.distribution``)."""
        from ..stats.distribution import trimmed

        unit = score_unit_of(rules)
        return {k: trimmed(v, unit) for k, v in self.histograms(c, rules).items()}

    def quantities(self, c, rules):
        """Tidy rows ``(quantity, stats)`` from the counters.

        Per round (n = rounds): deal-time rates, dekiyaku (per captured pile, pooled over the
        three seats), per seat (dealer, right, left) scores, win rates (strictly highest round
        score), card points against par, yaku scores, Low Man Out and uncovered settlements.
        Per game (n = complete 3-round games): totals and win rates (strictly highest total) by
        position in the game's dealing order (first dealer, his right = second dealer, his left
        = third dealer) and per player.
        """
        from ..stats import table as T
        from ..stats.distribution import quantile_rows

        s = c["scal"]
        r = s[C_ROUNDS]
        g = s[C_GAMES]
        unit = score_unit_of(rules)
        pars = seat_values(rules.par, N_PLAYERS)

        def score_mean(name, total, total_sq, n):
            return T.scaled(T.mean(name, total, total_sq, n), unit)
        rows = [T.prop("misdeal_rate", s[C_MISDEALS], s[C_DEALS])]
        for i, t in enumerate(tuple(c["teyaku_names"]) + ("any",)):
            rows.append(T.pooled(f"teyaku.{t}", c["tcount"][i, 0], c["tcount"][i, 1], r, 3))
        if c.get("deals_only"):
            return rows
        for i, y in enumerate(tuple(c["dekiyaku_names"]) + ("any",)):
            rows.append(T.pooled(f"dekiyaku.{y}", c["ycount"][i, 0], c["ycount"][i, 1], r, 3))
        for k, seat in enumerate(SEATS):
            b = C_SEAT + SEAT_W * k
            rows += [
                score_mean(f"seat.{seat}.mean_score", s[b + K_SCORE], s[b + K_SCORE_SQ], r),
                T.prop(f"seat.{seat}.win_rate", s[b + K_WINS], r),
            ]
        rows.append(T.prop("seat.tie_rate", s[C_ROUND_TIES], r))
        hist = self.histograms(c, rules)
        for seat in SEATS:
            rows += quantile_rows(f"round_score.{seat}", hist[f"round_score.{seat}"], unit)
        # Fair par: the par that makes the seat's expected round score zero.  A score is
        # (something independent of par) - par on every path except a Low Man Out round under
        # low_man_forfeit (no card score, so no par), so fair = par + mean score / P(par is
        # applied).  Under the default (no forfeit) that is mean score + par; the three fair
        # pars then sum to the deck's 240 points.
        applied = 1.0
        if rules.low_man_forfeit == "yes" and r:
            applied = 1.0 - s[C_LOW_ROUNDS] / r
        for k, seat in enumerate(SEATS):
            b = C_SEAT + SEAT_W * k
            rows += [
                T.mean(f"card_points.{seat}", s[b + K_PTS], s[b + K_PTS_SQ], r),
                T.shifted_mean(f"par_balance.{seat}", s[b + K_PTS], s[b + K_PTS_SQ], r, pars[k]),
                _fair_par(f"fair_par.{seat}",
                          score_mean("", s[b + K_SCORE], s[b + K_SCORE_SQ], r)[1], applied,
                          pars[k]),
            ]
        for k, seat in enumerate(SEATS):
            b = C_SEAT + SEAT_W * k
            rows.append(T.mean(f"yaku_score.{seat}", s[b + K_YAKU], s[b + K_YAKU_SQ], r))
        rows.append(T.prop("low_man_out_rate", s[C_LOW_ROUNDS], r))
        rows.append(T.prop("low_man_out.two_low_rate", s[C_LOW_DOUBLE], r))
        for k, seat in enumerate(SEATS):
            rows.append(T.prop(f"low_man_out.{seat}", s[C_SEAT + SEAT_W * k + K_LOW], r))
        rows += [
            T.prop("settlement.uncovered_rate", s[C_UNCOVERED], r),
            # per player-round: |points moved by the yaku settlement| (3 per round, pooled
            # as independent: a description of size, not a test)
            score_mean("settlement.mean_abs_yaku_transfer", s[C_SETTLE_ABS], s[C_SETTLE_ABS_SQ],
                   3 * r),
        ]
        for q, pos in enumerate(POSITIONS):
            b = C_POS + POS_W * q
            rows += [
                score_mean(f"game.{pos}.mean_total", s[b + K_G_TOTAL], s[b + K_G_TOTAL_SQ], g),
                T.prop(f"game.{pos}.win_rate", s[b + K_G_WINS], g),
            ]
        rows.append(T.prop("game.tie_rate", s[C_GAME_TIES], g))
        for pos in POSITIONS:
            rows += quantile_rows(f"game.{pos}.total", hist[f"game.{pos}.total"], unit)
        for p in range(N_PLAYERS):
            b = C_PLAYER + PLAYER_W * p
            n = p + 1
            rows += [
                score_mean(f"player{n}.mean_score", s[b + K_P_SCORE], s[b + K_P_SCORE_SQ], r),
                T.prop(f"player{n}.win_rate", s[b + K_P_WINS], r),
                score_mean(f"player{n}.game.mean_total", s[b + K_P_TOTAL], s[b + K_P_TOTAL_SQ], g),
                T.prop(f"player{n}.game.win_rate", s[b + K_P_GAME_WINS], g),
                # over complete games, as every game quantity
                T.prop(f"player{n}.first_dealer_share", s[b + K_P_FIRST], g),
            ]
        return rows


sessions.check_game(GAME)
register(Baka())
