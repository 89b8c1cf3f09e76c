"""Toppa for 2 players (the Toppa rule page, ``shared/seeds/000_a569c68da0494d09.txt``, section
"Toppa (for 2 players)").

Three layers, as in every game module:

1. ``ToppaRules``: the house-rule options (defaults cite the rule page), validated at the edge;
2. ``lower``: the rules and the deck as plain arrays and ints (``Tables``);
3. the ``@njit`` kernels: ``deal_round`` (shuffle, deal, misdeal), ``play_dealt`` (teyaku,
   play, dekiyaku, settlement), and the session hooks through which ``engine.sessions`` plays
   them (``run_chunks``: sessions in chunks, the runner giving each thread its own).

Seats inside a round are relative to the dealer: seat 0 deals and plays first, seat 1 is the
opponent.  Players (whose policies differ) are 0 and 1; ``(dealer + seat) % 2`` is the player.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import partial
from typing import ClassVar, NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload
from ..engine.jit import hot

from .. import decks, sources
from ..decks import HANAFUDA
from ..reading import Line, Reading
from ..engine import state
from ..engine.bits import bit, count
from ..engine.deal import deal, deal_until_clean, is_misdeal  # noqa: F401  (deal: tests build deals with it)
from ..engine.deal_only import DEALS_PER_SESSION, run_deal_chunks
from ..engine.tally import HIST_BINS, LANE_ROUNDS, hist_add, lanes_size, pair_lanes_add, pair_lanes_fold
from ..engine.lookahead import choose_card, new_scratch, play_out, round_value, uses_lookahead
from ..engine.teyaku import expose_step
from ..engine.rng import NO_GIVEN, restart, shuffle_steps
from ..engine import card_tally, sessions
from ..engine.play import pick, play_pair
from ..engine.settle import (TRANSFER_EXACT, TRANSFER_TOTAL, can_hand_over, divisible_values,
                             pile_points)
from ..engine.yaku import (COMBINE_ADD, COMBINE_HIGHEST, D_BASE, D_COND, D_COUNTED,
                           D_EXTRA_FROM, D_MIN, D_PER_EXTRA, D_REQUIRED, NEVER, TEY_KINDS,
                           TEY_MONTHS, DekiyakuTable, at_least, has_all)
from ..rules import RuleError, no_first_draw, number, option, seat_values, when_zero
from ..stats.labels import display
from .registry import register

NAME = "toppa"
N_PLAYERS = 2
PAR = 120  # seed 000, "Counting the Card Points and End of Round Settlement"
DECK_POINTS = 240  # 5 brights x 20 + 9 animals x 10 + 10 ribbons x 5 (chaff 0): seed 000
HAND_SIZE, FIELD_SIZE = 10, 8
# "the dealer gives five to their opponent, four to the table, five to themselves, and then
# repeat" (seed 000, "Distributing the Initial Cards").  Groups: 0 dealer, 1 opponent, 2 field.
DEAL_PATTERN = np.array(([1] * 5 + [2] * 4 + [0] * 5) * 2, dtype=np.int8)
FIELD = 2
SEATS = ("dealer", "opponent")  # seats relative to the round's dealer
TEYAKU = ("triplet", "one_ribbon", "one_animal", "one_bright", "empty_hand")


# Numeric options shared with Baka (which keeps Toppa's yaku, seed 000 "Baka": "retains almost
# all of the rules of Toppa").  Yaku values are multiples of 5, the smallest card value: a yaku
# difference is paid by handing over cards (seed 000, "Yaku Settlement"); 0 means the yaku is
# not played (its row stays in the table and reports 0).
YAKU = dict(low=0, high=200, step=5)
EXTRA = dict(low=0, high=100, step=5)
TEY = dict(low=5, high=200, step=5)
# what ``hanasim rules`` and a sweep's chart call the values the rule page names
PAGE_VALUE, PAGE_ALTERNATIVE = "the rule page's value", "the rule page's alternative"


def yaku_value(default, doc, readings=None, aliases=None):
    """A dekiyaku's value: 0 (not played) to 200, a multiple of 5."""
    return number(default, doc, **YAKU, readings=readings, aliases=aliases)


@dataclass(frozen=True)
class YakuValues:
    """The yaku and teyaku values (and Chaff's count) of Toppa, which Baka keeps: every one a
    number the user may set; the defaults are the Toppa rule page's."""

    five_brights: int = yaku_value(60, "Five Brights; the rule page gives '60 or 40' (List of Dekiyaku)", readings={60: PAGE_VALUE, 40: PAGE_ALTERNATIVE})
    four_brights: int = yaku_value(40, "Four Brights without the rain man; the rule page gives '40 or 30' (List of Dekiyaku)", readings={40: PAGE_VALUE, 30: PAGE_ALTERNATIVE})
    rainy_four_brights: int = yaku_value(20, "Rainy Four Brights: the rain man and 3 other brights (List of Dekiyaku)", readings={20: PAGE_VALUE})
    boar_deer_butterfly: int = yaku_value(20, "Boar-Deer-Butterfly; 'some people do not use this Yaku' (off = 0) (List of Dekiyaku)", readings={20: "on: " + PAGE_VALUE, 0: "off: 'some people do not use this Yaku'"}, aliases={"on": 20, "off": 0})
    poetry_ribbons: int = yaku_value(20, "Poetry Ribbons (List of Dekiyaku)", readings={20: PAGE_VALUE})
    blue_ribbons: int = yaku_value(20, "Blue Ribbons (List of Dekiyaku)", readings={20: PAGE_VALUE})
    real_seven_ribbons: int = yaku_value(40, "Real Seven Ribbons (7 true ribbons); the rule page gives '40 or 30' (List of Dekiyaku)", readings={40: PAGE_VALUE, 30: PAGE_ALTERNATIVE})
    real_seven_ribbons_extra: int = number(10, "Real Seven Ribbons: points for each ribbon or willow card beyond the seventh (List of Dekiyaku)", **EXTRA, readings={10: PAGE_VALUE}, inert=when_zero("real_seven_ribbons"))
    seven_ribbons: int = yaku_value(20, "Seven Ribbons (7 ribbons and willow cards) (List of Dekiyaku)", readings={20: PAGE_VALUE})
    seven_ribbons_extra: int = number(10, "Seven Ribbons: points for each ribbon or willow card beyond the seventh (List of Dekiyaku)", **EXTRA, readings={10: PAGE_VALUE}, inert=when_zero("seven_ribbons"))
    chaff: int = yaku_value(20, "Chaff (List of Dekiyaku)", readings={20: PAGE_VALUE})
    chaff_count: int = number(12, "chaff cards the Chaff dekiyaku needs: 'Any 12 Chaff cards' (List of Dekiyaku); at most the chaff cards that count under willow_chaff", low=1, high=27, readings={12: PAGE_VALUE}, inert=when_zero("chaff"))
    chaff_extra: int = number(10, "Chaff: points for each chaff card beyond chaff_count (List of Dekiyaku)", **EXTRA, readings={10: PAGE_VALUE}, inert=when_zero("chaff"))
    wisteria_row: int = yaku_value(20, "Wisteria Row: the four wisteria cards (List of Dekiyaku)", readings={20: PAGE_VALUE})
    iris_row: int = yaku_value(20, "Iris Row: the four iris cards (List of Dekiyaku)", readings={20: PAGE_VALUE})
    bush_clover_row: int = yaku_value(20, "Bush Clover Row: the four bush clover cards (List of Dekiyaku)", readings={20: PAGE_VALUE})
    triplet: int = number(20, "teyaku Triplet (three cards of a month in hand); each further triplet adds as much under teyaku_combine=add (Checking for Teyaku)", **TEY, readings={20: PAGE_VALUE})
    one_ribbon: int = number(20, "teyaku One Ribbon: one ribbon, the rest chaff (Checking for Teyaku)", **TEY, readings={20: PAGE_VALUE})
    one_animal: int = number(20, "teyaku One Animal: one animal, the rest chaff (Checking for Teyaku)", **TEY, readings={20: PAGE_VALUE})
    one_bright: int = number(20, "teyaku One Bright: one bright, the rest chaff (Checking for Teyaku)", **TEY, readings={20: PAGE_VALUE})
    empty_hand: int = number(30, "teyaku Empty Hand: every card chaff (Checking for Teyaku)", **TEY, readings={30: PAGE_VALUE})


@dataclass(frozen=True)
class ToppaRules(YakuValues):
    """House rules of 2-player Toppa; every default is the Toppa rule page's main reading."""

    game: ClassVar[str] = NAME
    seats: ClassVar[tuple] = SEATS
    par: int = number(PAR, "the par subtracted from a seat's card points, for every seat or one per seat (dealer,opponent; a handicap); pars that do not add up to the deck's 240 points make the game not zero-sum (End of Round and Scoring: 'par score of 120')", low=0, high=240, readings={PAR: PAGE_VALUE}, per_seat=True)
    willow_chaff: str = option("none", ("none", "lightning", "all"), "which willow cards count towards Chaff: none (the rule page's main reading: willow cards 'all count as Ribbons'), lightning (the lightning card by its printed type, chaff), all (every willow card, 'after determining if they have Real Seven Ribbons or Seven Ribbons', 'Optional') (List of Dekiyaku)", inert=when_zero("chaff"))
    teyaku_combine: str = option("add", ("add", "highest"), "add: teyaku add up (two triplets 40); highest: only the best teyaku scores (Checking for Teyaku)")
    card_transfer: str = option("exact", ("exact", "total"), "exact: the loser must hand over cards worth exactly the yaku difference; total: cards worth at least it, as a number (Yaku Settlement)")
    uncovered: str = option("opponent_yaku", ("opponent_yaku", "difference"), "when the loser's captured cards cannot cover the yaku difference: opponent_yaku (the rule page's formula: loser's score = card points - opponent's yaku score - par; the winner's is his card points + his yaku score - his par, the opposite when the pars add up to 240), difference (the loser pays only the difference, as a number) (Settlement when Yaku Settlement cannot be Done)")
    first_dealer_cards: int = option(1, (1, 2, 3, 4, 5), "cards each player draws to choose the first dealer by month points; ties draw again (Choosing the Dealer: 'not specified')", inert=no_first_draw)
    tie_dealer: str = option("keep", ("keep", "pass"), "after a tied round (both 0) the dealer keeps the deal, or passes it; the rule page only says the winner deals (Choosing the Dealer)", inert=lambda r, run: run.deal_never_passes())

    def check(self):
        check_chaff_count(self)
        check_precedence(self)


def check_precedence(rules):
    """Only the highest bright yaku counts, and of Seven Ribbons and Real Seven Ribbons only the
    higher (the rule page, List of Dekiyaku).  A pile with five brights also holds four of them, and
    one with seven true ribbons also makes Seven Ribbons, so the tables try Five, Four, Rainy
    Four Brights and Real Seven before Seven Ribbons: the values must follow that precedence
    (0, not played, is skipped)."""
    for names in (("five_brights", "four_brights", "rainy_four_brights"),
                  ("real_seven_ribbons", "seven_ribbons"),
                  ("real_seven_ribbons_extra", "seven_ribbons_extra")):
        played = [(n, getattr(rules, n)) for n in names
                  if getattr(rules, n.replace("_extra", "")) > 0]
        for (a, va), (b, vb) in zip(played, played[1:]):
            if vb > va:
                ya, yb = (display(n.replace("_extra", "")) for n in (a, b))
                what = " per extra card" if a.endswith("_extra") else ""
                raise RuleError(f"rule {b!r} cannot be worth more than {a!r} ({vb} > {va}): "
                                f"a pile that makes {ya} also makes {yb}, and only the higher "
                                f"counts, so {ya} must be worth at least as much{what}")


def chaff_cards(willow_chaff: str, deck=HANAFUDA) -> int:
    """The cards that count towards the Chaff dekiyaku under ``willow_chaff``."""
    chaff = deck.kind_mask(decks.CHAFF)
    willow = deck.flag_mask(decks.WILLOW)
    return {"none": chaff & ~willow, "lightning": chaff, "all": chaff | willow}[willow_chaff]


def check_chaff_count(rules):
    """Chaff needs at most as many cards as count towards it (else it could never score)."""
    n = bin(int(chaff_cards(rules.willow_chaff))).count("1")
    if rules.chaff_count > n:
        raise RuleError(f"rule 'chaff_count' cannot be {rules.chaff_count}: with "
                        f"willow_chaff={rules.willow_chaff} only {n} cards count as chaff")


class Tables(NamedTuple):
    """Everything a Toppa kernel needs, as arrays and ints."""

    month: np.ndarray        # int8[48]
    month_masks: np.ndarray  # uint64[13]
    kind_masks: np.ndarray   # uint64[4]
    kind_points: np.ndarray  # int64[4]
    yaku_masks: np.ndarray   # uint64[Y, 3]
    yaku_ints: np.ndarray    # int64[Y, 5]
    teyaku: np.ndarray       # int64[T, 7]
    pattern: np.ndarray      # int8[28]
    params: np.ndarray       # int64[P_N]
    weights: np.ndarray      # float64[48], greedy's card weights
    gscore: np.ndarray       # float64[48 * 16], greedy's hand-card table (policies.greedy_tables)
    ghigh: np.ndarray        # uint64[12 * 16], greedy's two-way choice table
    cond: np.ndarray = NO_GIVEN  # int64[]: the run's conditioned deal (engine.rng; empty: none)


# params slots
(P_TRANSFER, P_COMBINE, P_TIE_PASS, P_FIRST_CARDS, P_FIXED_DEALER, P_SESSION, P_CHECKED, P_PAR,
 P_UNCOVERED, P_GREEDY_PAY, P_PAR_OPP) = range(11)
P_N = 11  # P_PAR: the dealer's par, P_PAR_OPP: the opponent's (the `par` rule, per seat)
UNCOVERED_OPPONENT_YAKU, UNCOVERED_DIFFERENCE = 0, 1


def dekiyaku_table(rules, deck=HANAFUDA) -> DekiyakuTable:
    """Toppa's dekiyaku (the rule page, "List of Dekiyaku"), as table rows, valued by ``rules``.

    Baka calls it with its own rules (``chaff_count`` 10: the rule page, Baka "Dekiyaku").  A yaku
    valued 0 is not played: its row stays (so the table's rows do not depend on the rules) but
    never scores.
    """
    brights = deck.kind_mask(decks.BRIGHT)
    rain = deck.flag_mask(decks.RAIN_MAN)
    ribbons = deck.kind_mask(decks.RIBBON)
    willow = deck.flag_mask(decks.WILLOW)
    mm = deck.month_masks()
    r = rules
    t = DekiyakuTable()
    # Rows in the order of YAKU once built (groups first): score_pile reads them there.
    # Bright yaku: only the highest counts (group 0, tried in this order: check_precedence).
    t.add("five_brights", brights, 5, r.five_brights, group=0)
    t.add("four_brights", brights & ~rain, 4, r.four_brights, group=0)
    t.add("rainy_four_brights", brights & ~rain, 3, r.rainy_four_brights, required=rain, group=0)
    t.add("boar_deer_butterfly", deck.flag_mask(decks.BOAR | decks.DEER | decks.BUTTERFLY), 3,
          r.boar_deer_butterfly)
    t.add("poetry_ribbons", deck.flag_mask(decks.POETRY), 3, r.poetry_ribbons)
    t.add("blue_ribbons", deck.flag_mask(decks.BLUE), 3, r.blue_ribbons)
    # Seven ribbons: willow cards count as ribbons; 7 true ribbons make it "real" (group 1).
    t.add("real_seven_ribbons", ribbons, 7, r.real_seven_ribbons, counted=ribbons | willow,
          extra_from=7, per_extra=r.real_seven_ribbons_extra, group=1)
    t.add("seven_ribbons", ribbons | willow, 7, r.seven_ribbons, per_extra=r.seven_ribbons_extra,
          group=1)
    # The lightning card is printed as chaff but is a willow card (seed: willow cards "all count
    # as Ribbons"), so by default no willow card counts towards Chaff.
    t.add("chaff", chaff_cards(r.willow_chaff, deck), r.chaff_count, r.chaff,
          per_extra=r.chaff_extra)
    for name, month in (("wisteria_row", 4), ("iris_row", 5), ("bush_clover_row", 7)):
        t.add(name, mm[month], 4, getattr(r, name))
    return t


# The dekiyaku rows in table order (dekiyaku_table adds them so): ``score_pile`` reads them at
# these positions.
YAKU = ("five_brights", "four_brights", "rainy_four_brights", "real_seven_ribbons",
        "seven_ribbons", "boar_deer_butterfly", "poetry_ribbons", "blue_ribbons", "chaff",
        "wisteria_row", "iris_row", "bush_clover_row")
(Y_FIVE, Y_FOUR, Y_RAINY, Y_REAL7, Y_SEVEN, Y_BDB, Y_POETRY, Y_BLUE, Y_CHAFF, Y_ROW4, Y_ROW5,
 Y_ROW7) = range(12)
_SETS = (Y_BDB, Y_POETRY, Y_BLUE, Y_ROW4, Y_ROW5, Y_ROW7)


def check_yaku_shapes(names, masks, ints):
    """``score_pile`` evaluates the rows by their shape; refuse a table it would misread."""
    if tuple(names) != YAKU:
        raise AssertionError(f"dekiyaku rows {names} are not in the order score_pile reads")
    for i in range(len(YAKU)):
        cond, req, cnt = (int(x) for x in masks[i])
        minimum, extra_from, _base, per_extra, group = (int(x) for x in ints[i])
        never = cond == int(NEVER)
        if i in _SETS:  # a set: every card of cond, no extras
            ok = never or (req == 0 and per_extra == 0 and minimum == bin(cond).count("1"))
        elif i in (Y_FIVE, Y_FOUR, Y_RAINY):  # a count of cond (+ required cards), no extras
            ok = per_extra == 0 and (req == 0 or i == Y_RAINY)
        else:  # a count of cond, extras counted on ``counted``
            ok = req == 0
        want_group = 0 if i <= Y_RAINY else 1 if i <= Y_SEVEN else -1
        if not ok or group != want_group:
            raise AssertionError(f"dekiyaku row {YAKU[i]} has a shape score_pile does not read")


@hot(inline="always")
def _extra_value(pile, masks, ints, i):
    return ints[i, D_BASE] + ints[i, D_PER_EXTRA] * (
        count(pile & masks[i, D_COUNTED]) - ints[i, D_EXTRA_FROM])


@hot(inline="always")
def score_pile(pile, masks, ints):
    """:func:`engine.yaku.dekiyaku` on Toppa's rows (``YAKU``), written for their shapes: the
    first of each exclusive group that scores, the sets as subset tests, values and thresholds
    read from the table (so every house rule is data), no loop and no branch.  Equal to
    ``dekiyaku`` on every pile (tests check it on random piles under every rule set); about a
    third of its time, which was a fifth of a random round's."""
    five = at_least(pile, masks[Y_FIVE, D_COND], ints[Y_FIVE, D_MIN])
    four = at_least(pile, masks[Y_FOUR, D_COND], ints[Y_FOUR, D_MIN]) * (1 - five)
    rainy = (has_all(pile, masks[Y_RAINY, D_REQUIRED])
             * at_least(pile, masks[Y_RAINY, D_COND], ints[Y_RAINY, D_MIN]) * (1 - five) * (1 - four))
    real = at_least(pile, masks[Y_REAL7, D_COND], ints[Y_REAL7, D_MIN])
    seven = at_least(pile, masks[Y_SEVEN, D_COND], ints[Y_SEVEN, D_MIN]) * (1 - real)
    chaff = at_least(pile, masks[Y_CHAFF, D_COND], ints[Y_CHAFF, D_MIN])
    bdb = has_all(pile, masks[Y_BDB, D_COND])
    poetry = has_all(pile, masks[Y_POETRY, D_COND])
    blue = has_all(pile, masks[Y_BLUE, D_COND])
    row4 = has_all(pile, masks[Y_ROW4, D_COND])
    row5 = has_all(pile, masks[Y_ROW5, D_COND])
    row7 = has_all(pile, masks[Y_ROW7, D_COND])
    value = (five * ints[Y_FIVE, D_BASE] + four * ints[Y_FOUR, D_BASE]
             + rainy * ints[Y_RAINY, D_BASE]
             + real * _extra_value(pile, masks, ints, Y_REAL7)
             + seven * _extra_value(pile, masks, ints, Y_SEVEN)
             + chaff * _extra_value(pile, masks, ints, Y_CHAFF)
             + bdb * ints[Y_BDB, D_BASE] + poetry * ints[Y_POETRY, D_BASE]
             + blue * ints[Y_BLUE, D_BASE] + row4 * ints[Y_ROW4, D_BASE]
             + row5 * ints[Y_ROW5, D_BASE] + row7 * ints[Y_ROW7, D_BASE])
    hits = (five | (four << 1) | (rainy << 2) | (real << 3) | (seven << 4) | (bdb << 5)
            | (poetry << 6) | (blue << 7) | (chaff << 8) | (row4 << 9) | (row5 << 10)
            | (row7 << 11))
    return value, hits


def teyaku_values(rules) -> tuple:
    """The teyaku values of ``rules`` in :data:`TEYAKU` order."""
    return tuple(getattr(rules, t) for t in TEYAKU)


def teyaku_table(hand_size=HAND_SIZE, values=(20, 20, 20, 20, 30)) -> np.ndarray:
    """Teyaku (the rule page, "Checking for Teyaku"): willow cards count by their own kind.

    A triplet is a month with exactly three cards in hand (four would be a misdeal); each
    further triplet adds the triplet's value under the additive rule.  The chaff teyaku are
    exact kind counts.  ``values``: triplet, one ribbon, one animal, one bright, empty hand.
    """
    c = hand_size - 1
    tr, rib, ani, bri, emp = values
    return np.array([
        [TEY_MONTHS, 3, 1, 0, 0, tr, tr],
        [TEY_KINDS, 0, 0, 1, c, rib, 0],
        [TEY_KINDS, 0, 1, 0, c, ani, 0],
        [TEY_KINDS, 1, 0, 0, c, bri, 0],
        [TEY_KINDS, 0, 0, 0, hand_size, emp, 0],
    ], dtype=np.int64)


def teyaku_specs(hand_size=HAND_SIZE, chaff_teyaku=True) -> tuple:
    """The teyaku of :func:`teyaku_table` as ``stats.exact`` specs (same names, same rows)."""
    from ..stats.exact import TeyakuSpec

    c = hand_size - 1
    specs = [TeyakuSpec("triplet", "month_count", count=3)]
    if chaff_teyaku:
        specs += [TeyakuSpec("one_ribbon", "kind_counts", kinds=(0, 0, 1, c)),
                  TeyakuSpec("one_animal", "kind_counts", kinds=(0, 1, 0, c)),
                  TeyakuSpec("one_bright", "kind_counts", kinds=(1, 0, 0, c)),
                  TeyakuSpec("empty_hand", "kind_counts", kinds=(0, 0, 0, hand_size))]
    return tuple(specs)


def deck_arrays(deck=HANAFUDA):
    # The kernels answer month questions on nibbles (engine.bits): four cards a month, in order.
    if not all(deck.month[c] == c // 4 + 1 for c in range(deck.n)):
        raise ValueError(f"the {deck.name} deck is not ordered four cards a month")
    kind_masks = np.array([deck.kind_mask(k) for k in range(4)], dtype=np.uint64)
    kind_points = np.array([decks.TOPPA_POINTS[k] for k in range(4)], dtype=np.int64)
    return deck.month.astype(np.int8), deck.month_masks(), kind_masks, kind_points


def lower(rules: ToppaRules, *, fixed_dealer=False, session_rounds=1, checked=False) -> tuple:
    """(Tables, dekiyaku names) for the kernels."""
    from ..policies import card_weights, greedy_tables

    names, ymasks, yints = dekiyaku_table(rules).build()
    check_yaku_shapes(names, ymasks, yints)
    month, month_masks, kind_masks, kind_points = deck_arrays()
    params = np.zeros(P_N, dtype=np.int64)
    params[P_TRANSFER] = TRANSFER_EXACT if rules.card_transfer == "exact" else TRANSFER_TOTAL
    params[P_COMBINE] = COMBINE_ADD if rules.teyaku_combine == "add" else COMBINE_HIGHEST
    params[P_TIE_PASS] = rules.tie_dealer == "pass"
    params[P_FIRST_CARDS] = rules.first_dealer_cards
    params[P_FIXED_DEALER] = bool(fixed_dealer)
    params[P_SESSION] = session_rounds
    params[P_CHECKED] = bool(checked)
    params[P_PAR], params[P_PAR_OPP] = seat_values(rules.par, N_PLAYERS)
    params[P_UNCOVERED] = (UNCOVERED_OPPONENT_YAKU if rules.uncovered == "opponent_yaku"
                           else UNCOVERED_DIFFERENCE)
    params[P_GREEDY_PAY] = divisible_values(kind_points)
    weights = card_weights(HANAFUDA.points, ymasks, yints)
    tables = Tables(month, month_masks, kind_masks, kind_points, ymasks, yints,
                    teyaku_table(HAND_SIZE, teyaku_values(rules)),
                    DEAL_PATTERN, params, weights, *greedy_tables(weights))
    return tables, names


# ---------------------------------------------------------------- kernels
# How the kernels are written (see README, "How to write a fast game kernel"): tables travel
# as one NamedTuple (``tb``); the round is ``deal_round`` then ``play_from`` a state
# (``engine.state``); a turn is ``engine.play.turn`` (one random word, branch-free capture,
# greedy by table lookup); yaku are evaluated without data-dependent branches.

# result slots of one played round, seats relative to the dealer
(R_SCORE, R_PTS, R_YAKU, R_TEY_HELD, R_TEY_SCORED, R_DEKI_HITS, R_DEKI) = (0, 2, 4, 6, 8, 10, 12)
R_UNCOVERED, R_MISDEALS, R_CAPTURED, R_FIELD, R_TOP = 14, 15, 16, 18, 19
R_N = 20
ST_N = state.size(N_PLAYERS)


@hot(inline="always")
def deal_round(rng, order, groups, pattern, cond):
    """Shuffle and deal until the deal is not a misdeal; returns the number of misdeals.

    Misdeal: four cards of one month in either hand or on the field (the rule page,
    "Distributing the Initial Cards"): reshuffle and deal again.  Only the dealt cards are
    shuffled until the deal stands; then the draw pile's order is finished.  ``cond``: the
    run's given cards and ``--where`` (``engine.rng``, "conditional deals"; empty: none).
    """
    return deal_until_clean(rng, order, groups, pattern, 0, FIELD + 1, cond)  # hands, field


@hot(inline="always")
def play_from(st, order, rng, tb, policy, dealer, look):
    """Play the round in state ``st`` (``engine.state``, 2 seats) to its end, updating ``st``.

    Dealer first, turns alternate; a turn is a hand card then the top of the draw pile (seed
    000, "Turns"); the round ends when both hands are empty.  ``policy`` is indexed by player;
    seat s is played by player ``dealer ^ s``.  ``look``: None, or the lookahead context
    (``engine.lookahead``) when a player plays by lookahead (numba keeps one branch).
    """
    if look is None:
        play_pair(st, order, rng, policy, dealer, tb.gscore, tb.ghigh)
    else:
        play_out(st, N_PLAYERS, order, rng, policy, dealer, tb.gscore, tb.ghigh, look)


@hot(inline="always")
def play_dealt(rng, order, groups, st, tb, policy, expose, dealer, res, look):
    """Play one dealt round to the end and settle it into ``res`` (seats relative to dealer).

    ``groups`` holds the dealt masks (dealer hand, opponent hand, field); the draw pile is
    ``order[len(pattern):]``, top first.  ``policy``/``expose`` are indexed by player.
    """
    state.start(st, groups, N_PLAYERS, tb.pattern.shape[0])
    # Only exposed teyaku score; exposing is the player's choice (a policy).
    expose_step(st, N_PLAYERS, dealer, order, rng, tb.teyaku, tb.month_masks, tb.kind_masks,
                tb.params[P_COMBINE], policy, expose, res, R_TEY_HELD, R_TEY_SCORED,
                tb.gscore, tb.ghigh, look)
    play_from(st, order, rng, tb, policy, dealer, look)
    c0 = st[3]
    c1 = st[4]
    v0, hits0 = score_pile(c0, tb.yaku_masks, tb.yaku_ints)
    v1, hits1 = score_pile(c1, tb.yaku_masks, tb.yaku_ints)
    res[R_DEKI] = v0
    res[R_DEKI + 1] = v1
    res[R_DEKI_HITS] = hits0
    res[R_DEKI_HITS + 1] = hits1
    res[R_YAKU] = v0 + res[R_TEY_SCORED]
    res[R_YAKU + 1] = v1 + res[R_TEY_SCORED + 1]
    res[R_PTS] = pile_points(c0, tb.kind_masks, tb.kind_points)
    res[R_PTS + 1] = pile_points(c1, tb.kind_masks, tb.kind_points)
    res[R_CAPTURED] = np.int64(c0)
    res[R_CAPTURED + 1] = np.int64(c1)
    res[R_FIELD] = np.int64(st[2])
    res[R_TOP] = np.int64(st[5])
    settle_piles(res, c0, c1, tb.kind_masks, tb.kind_points, tb.params)
    if tb.params[P_CHECKED]:
        check_round(order, st[0] | st[1], st[2], c0, c1, np.int64(st[5]), res,
                    tb.params[P_PAR] + tb.params[P_PAR_OPP])


@hot
def settle(res, captured, kind_masks, kind_points, params):
    """:func:`settle_piles` for a ``captured`` array (seat 0 dealer, seat 1 opponent)."""
    settle_piles(res, captured[0], captured[1], kind_masks, kind_points, params)


@hot(inline="always")
def settle_piles(res, c0, c1, kind_masks, kind_points, params):
    """:func:`settle_scores` of the round in ``res`` (yaku and card points), written back."""
    s0, s1, uncovered = settle_scores(res[R_YAKU], res[R_YAKU + 1], res[R_PTS], res[R_PTS + 1],
                                      c0, c1, kind_masks, kind_points, params)
    res[R_SCORE] = s0
    res[R_SCORE + 1] = s1
    res[R_UNCOVERED] = uncovered


@hot(inline="always")
def settle_scores(y0, y1, p0, p1, c0, c1, kind_masks, kind_points, params):
    """Yaku settlement by handing over cards, then card points against par (the rule page,
    "Yaku Settlement", "Counting the Card Points", "Settlement when Yaku Settlement cannot be
    Done").  ``y``: yaku scores, ``p``: card points, ``c``: captured piles, dealer first.
    Returns the two scores and 1 when the loser could not cover the difference.

    Each seat's par is its own (the ``par`` rule: ``P_PAR`` the dealer's, ``P_PAR_OPP`` the
    opponent's); on every path a seat's score is a par-free amount minus its par, so the scores
    add up to 240 minus the pars (zero when they add up to 240).

    Selects rather than branches where the case is random (who lost the yaku count, and
    whether anyone did)."""
    par0 = params[P_PAR]
    par1 = params[P_PAR_OPP]
    d = y0 - y1  # > 0: the opponent hands over d card points; < 0: the dealer does
    loser_pile = c0 if d < 0 else c1
    covered = can_hand_over(loser_pile, abs(d), kind_masks, kind_points,
                            params[P_TRANSFER], params[P_GREEDY_PAY])
    if covered or params[P_UNCOVERED] == UNCOVERED_DIFFERENCE:
        # cards worth the difference change hands (or, uncovered, the difference as a number)
        return p0 + d - par0, p1 - d - par1, np.int64(not covered)
    # The loser cannot cover the difference: loser's score = card points - opponent's yaku
    # score - par, and the loser pays the winner that much.  The winner's score is written as
    # his card points + his yaku score - his par: the same amount when the pars add up to 240
    # (the card points do), and his own par's when they do not.
    if d < 0:
        return p0 - y1 - par0, p1 + y1 - par1, np.int64(1)
    return p0 + y0 - par0, p1 - y0 - par1, np.int64(1)


@overload(round_value)
def _round_value(tables, st, seat, res):
    """A finished round's score for ``seat`` (the lookahead's rollout value): dekiyaku of the
    piles plus the exposed teyaku in ``res``, settled as the round is (``settle_scores``)."""
    if isinstance(tables, types.BaseNamedTuple) and tables.instance_class is Tables:
        def value(tables, st, seat, res):
            c0 = st[3]
            c1 = st[4]
            v0, _ = score_pile(c0, tables.yaku_masks, tables.yaku_ints)
            v1, _ = score_pile(c1, tables.yaku_masks, tables.yaku_ints)
            s0, s1, _ = settle_scores(
                v0 + res[R_TEY_SCORED], v1 + res[R_TEY_SCORED + 1],
                pile_points(c0, tables.kind_masks, tables.kind_points),
                pile_points(c1, tables.kind_masks, tables.kind_points),
                c0, c1, tables.kind_masks, tables.kind_points, tables.params)
            return s0 if seat == 0 else s1
        return value


@hot
def check_round(order, hands, field, c0, c1, top, res, par_total):
    """Checked mode: every card ends in exactly one place; pile consumed; the scores add up to
    the card points minus the pars (zero-sum when the pars add up to the deck's points)."""
    full = np.uint64(0)
    for c in order:
        full |= bit(c)
    if hands:
        raise AssertionError("a hand is not empty at the end of the round")
    if top != order.shape[0]:
        raise AssertionError("the draw pile was not exactly consumed")
    if c0 & c1 or (c0 | c1) & field:
        raise AssertionError("a card is in two places")
    if (c0 | c1 | field) != full:
        raise AssertionError("a card is in no place")
    if res[R_SCORE] + res[R_SCORE + 1] != res[R_PTS] + res[R_PTS + 1] - par_total:
        raise AssertionError("the scores do not add up to the card points minus the pars")


@hot
def month_points(month):
    """A drawn card's points when choosing the dealer: months 1-9 their number, 10-12 none
    (the rule page, "Choosing the Dealer"); a select kept a select (``play.pick``): which
    month is drawn is random."""
    m = np.int64(month)
    return pick(m <= 9, m, np.int64(0))


@hot(inline="always")
def first_dealer(rng, order, t_month, n_cards):
    """Each player draws ``n_cards``; months 1-9 score their number, 10-12 score 0; more points
    deals, a tie draws again (the rule page, "Choosing the Dealer")."""
    s = rng[0]  # in a register (rng.shuffle_steps)
    while True:
        # (unsigned positions below: no check for a negative index)
        if n_cards == 1:
            # (the default) the same draws with the steps' bounds constant: no loops, and
            # LLVM unrolls the two steps
            s = shuffle_steps(order, s, order.shape[0], 0, 2)
            a = month_points(t_month[np.uint64(order[0])])
            b = month_points(t_month[np.uint64(order[1])])
        else:
            s = shuffle_steps(order, s, order.shape[0], 0, 2 * n_cards)  # partial_shuffle's draws
            a = np.int64(0)
            b = np.int64(0)
            for i in range(n_cards):
                a += month_points(t_month[np.uint64(order[2 * i])])
                b += month_points(t_month[np.uint64(order[2 * i + 1])])
        if a != b:
            rng[0] = s
            return 0 if a > b else 1


# counters: scalars per chunk.  The opponent's score is (240 - the pars) - the dealer's, so its
# square sums follow from the dealer's (|d|^2 is C_DEALER_SCORE_SQ too); player 1's are counted.
(C_DEALS, C_MISDEALS, C_ROUNDS, C_DEALER_SCORE, C_DEALER_SCORE_SQ, C_DEALER_WINS, C_TIES,
 C_PTS_DEALER, C_PTS_DEALER_SQ, C_PTS_OPP, C_PTS_OPP_SQ, C_YAKU_DEALER, C_YAKU_DEALER_SQ,
 C_YAKU_OPP, C_YAKU_OPP_SQ, C_ABS_SCORE, C_UNCOVERED, C_P0_SCORE,
 C_P0_DEALS, C_P0_WINS, C_EXPOSED, C_SESSIONS, C_FIRST_TOTAL, C_FIRST_TOTAL_SQ, C_FIRST_WINS,
 C_FIRST_TIES, C_P0_FIRST, C_P0_SCORE_SQ, C_YAKU_DIFF_SQ) = range(29)
# histograms (engine.tally.hist_add) of the dealer's and the opponent's round score and of the
# first dealer's session total: C_HIST + HIST_BINS * h
H_DEALER, H_OPPONENT, H_SESSION = 0, 1, 2
C_HIST = 29
C_N = C_HIST + 3 * HIST_BINS


# ---------------------------------------------------------------- the session hooks
# The engine runs chunks and sessions (engine.sessions); Toppa gives its round and its tallies
# as the functions named in engine.sessions.HOOKS, which the engine inlines from ``GAME``.
# Work arrays of a chunk: the generator state, the deck order, the dealt groups, the round
# state and the round's result.  One stream per session: the first-dealer draw and every round
# of the session draw from ``stream_state(seed, s)`` in turn, from the unshuffled deck.
GAME = sys.modules[__name__]
LOOP = sessions.ONE_GAME  # one game a session (engine.sessions.play runs it)
chunk_counters = sessions.counter_rows(4)  # scal, tcount, ycount, cards
session_length = sessions.param_hook(P_SESSION)
n_players = sessions.constant_hook(N_PLAYERS)
seat_score = sessions.result_hook(4, R_SCORE)
game_over = sessions.one_game_over(session_length)  # the game is the session
end_chunk = sessions.end_chunk  # nothing kept in the lookahead context


@njit(inline="always")
def new_work(tb):
    return (np.zeros(1, dtype=np.uint64), np.arange(tb.month.shape[0]).astype(np.int8),
            np.zeros(3, dtype=np.uint64), np.zeros(ST_N, dtype=np.uint64),
            np.zeros(R_N, dtype=np.int64),
            np.zeros(lanes_size(tb.teyaku.shape[0], tb.yaku_masks.shape[0]), dtype=np.uint64))


@njit(inline="always")
def look_context(tb, work, players):
    return (tb, work[4], new_scratch(ST_N, tb.month.shape[0], N_PLAYERS))


@hot(inline="always")
def start_game(tb, work, key, i, n_rounds):
    rng, order = work[0], work[1]
    restart(rng, key, order)  # a session depends on nothing but its own stream
    p = tb.params
    return 0 if p[P_FIXED_DEALER] else first_dealer(rng, order, tb.month, p[P_FIRST_CARDS])


@hot(inline="always")
def play_round(tb, work, players, key, i, dealer, look):
    rng, order, groups, st, res, _ = work
    policy, expose = players
    res[R_MISDEALS] = deal_round(rng, order, groups, tb.pattern, tb.cond)
    play_dealt(rng, order, groups, st, tb, policy, expose, dealer, res, look)


@hot(inline="always")
def tally_round(tb, work, counts, dealer):
    res = work[4]
    scal, tcount, ycount, cards = counts
    # The round's results read once, before the first counter is written: numba cannot tell
    # that ``scal`` does not alias ``res``, so a read after a counter's store is a reload.
    mis = res[R_MISDEALS]
    d = res[R_SCORE]
    d1 = res[R_SCORE + 1]
    pt0 = res[R_PTS]
    pt1 = res[R_PTS + 1]
    y0 = res[R_YAKU]
    y1 = res[R_YAKU + 1]
    unc = res[R_UNCOVERED]
    exposed = (res[R_TEY_SCORED] > 0) + (res[R_TEY_SCORED + 1] > 0)
    th0 = res[R_TEY_HELD]
    th1 = res[R_TEY_HELD + 1]
    dh0 = res[R_DEKI_HITS]
    dh1 = res[R_DEKI_HITS + 1]
    scal[C_DEALS] += mis + 1
    scal[C_MISDEALS] += mis
    scal[C_ROUNDS] += 1
    scal[C_DEALER_SCORE] += d
    scal[C_DEALER_SCORE_SQ] += d * d
    scal[C_DEALER_WINS] += d > 0
    scal[C_TIES] += d == 0
    scal[C_ABS_SCORE] += abs(d)
    scal[C_PTS_DEALER] += pt0
    scal[C_PTS_DEALER_SQ] += pt0 * pt0
    scal[C_PTS_OPP] += pt1
    scal[C_PTS_OPP_SQ] += pt1 * pt1
    scal[C_YAKU_DEALER] += y0
    scal[C_YAKU_DEALER_SQ] += y0 * y0
    scal[C_YAKU_OPP] += y1
    scal[C_YAKU_OPP_SQ] += y1 * y1
    yd = y0 - y1  # the yaku swing, paired within the round
    scal[C_YAKU_DIFF_SQ] += yd * yd
    scal[C_UNCOVERED] += unc
    scal[C_EXPOSED] += exposed
    # player 1's score (the scores add up to 0 unless the pars do not add up to 240)
    # (arithmetic, not a branch: the dealer is random)
    p0 = d + (d1 - d) * dealer
    scal[C_P0_SCORE] += p0
    scal[C_P0_SCORE_SQ] += p0 * p0
    scal[C_P0_DEALS] += dealer == 0
    scal[C_P0_WINS] += p0 > 0
    hist_add(scal, C_HIST + HIST_BINS * H_DEALER, d)
    hist_add(scal, C_HIST + HIST_BINS * H_OPPONENT, d1)
    # the teyaku and dekiyaku hits in lanes (engine.tally), folded every LANE_ROUNDS rounds
    # and at the end of the chunk (play_sessions)
    lanes = work[5]
    n_tey = tb.teyaku.shape[0]
    n_yaku = tb.yaku_masks.shape[0]
    y_base = 2 * ((n_tey + 8) >> 3)
    pair_lanes_add(lanes, 0, th0, th1, n_tey)
    pair_lanes_add(lanes, y_base, dh0, dh1, n_yaku)
    last = lanes.shape[0] - 1
    lanes[last] += 1
    if lanes[last] == LANE_ROUNDS:
        fold_hits(tb, work, counts)
    card_tally.tally_round(GAME, tb, work, cards, N_PLAYERS)


@hot(inline="always")
def dealt(tb, work, g):
    # the dealt groups (card values): seat g relative to the dealer, g == 2 the field
    return work[2][g]


@hot(inline="always")
def next_dealer(tb, work, dealer):
    # The winner deals the next round (seed 000, "Choosing the Dealer").
    # Arithmetic, not branches: who won is random (a branch on it mispredicted about every
    # other round).
    d = work[4][R_SCORE]
    p = tb.params
    passes = (d < 0) | ((d == 0) & (p[P_TIE_PASS] != 0))
    return dealer ^ np.int64(passes & (p[P_FIXED_DEALER] == 0))


@hot(inline="always")
def tally_game(tb, work, counts, first, totals):
    scal = counts[0]
    first_total = totals[np.uint64(first)]  # the session total of the player who dealt first
    scal[C_SESSIONS] += 1
    scal[C_FIRST_TOTAL] += first_total
    scal[C_FIRST_TOTAL_SQ] += first_total * first_total
    scal[C_FIRST_WINS] += first_total > 0
    scal[C_FIRST_TIES] += first_total == 0
    scal[C_P0_FIRST] += first == 0
    hist_add(scal, C_HIST + HIST_BINS * H_SESSION, first_total)


@hot
def fold_hits(tb, work, counts):
    """The teyaku and dekiyaku hits counted in lanes since the last fold (``tally_round``)
    into their counters."""
    lanes = work[5]
    n_tey = tb.teyaku.shape[0]
    pair_lanes_fold(lanes, 0, counts[1], n_tey)
    pair_lanes_fold(lanes, 2 * ((n_tey + 8) >> 3), counts[2], tb.yaku_masks.shape[0])
    lanes[lanes.shape[0] - 1] = 0


@hot
def play_sessions(seed, s0, s1, total_rounds, tb, work, players, counts, totals, look):
    """Sessions ``s0 .. s1-1`` of a chunk (``engine.sessions.play``, this module's
    hooks inlined): a kernel of its own, compiled without reference counting."""
    sessions.play(GAME, seed, s0, s1, total_rounds, tb, work, players, counts, totals,
                  look)
    fold_hits(tb, work, counts)


@njit(cache=True, nogil=True)
def run_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, policy, expose, scal,
               tcount, ycount, cards, look):
    """Play sessions ``first_session ..`` in chunks of ``chunk`` sessions (``engine.sessions``);
    counters are per chunk (``scal[chunk, C_N]``, ``tcount[chunk, T+1, 2]``,
    ``ycount[chunk, Y+1, 2]``, ``cards``: ``engine.card_tally``, empty unless the run tallies
    card values) and summed by the caller, so results never depend on threads.
    ``look``: None, or True when a player plays by lookahead (a kernel of its own)."""
    sessions.run_chunks(GAME, seed, first_session, n_sessions, chunk, total_rounds, tb,
                        (policy, expose), (scal, tcount, ycount, cards), look)


@njit(cache=True)
def lookahead_card(tb, st, order, seed, k, res):
    """The lookahead's (card, two-way pick) for the seat to move in state ``st`` with ``k``
    determinisations on the random stream ``seed``: what ``play_out`` asks at that turn (for
    tests and for inspecting a decision; ``res`` holds the round's exposed teyaku)."""
    look = (tb, res, new_scratch(ST_N, order.shape[0], N_PLAYERS))
    seat = np.int64(st[state.seat(N_PLAYERS)])
    s, card, high = choose_card(st, N_PLAYERS, seat, order, np.uint64(seed), k, tb.gscore,
                                tb.ghigh, look)
    return card, high != 0


# ---------------------------------------------------------------- public layer

# Batch kernels for the runner: module-level functions bound with functools.partial, so a
# batch pickles by reference and a Dask worker loads the cached compiled kernels.

def play_kernel(tb, seed, rounds, policy, expose, first, n, chunk, out):
    run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, policy, expose,
               out["scal"], out["tcount"], out["ycount"], card_tally.kernel_counter(out),
               uses_lookahead(policy))


def deal_kernel(tb, seed, rounds, first, n, chunk, out):
    run_deal_chunks(np.uint64(seed), first, n, chunk, rounds, tb.month_masks, tb.kind_masks,
                    tb.teyaku, tb.pattern, tb.params[P_COMBINE], 2, 3,
                    np.array([C_DEALS, C_MISDEALS, C_ROUNDS]), out["scal"], out["tcount"],
                    tb.cond)


#: how Toppa's numbers are read (hanasim.reading): points, zero-sum with the default pars, so
#: a seat's mean score is drawn against 0 and its fair par against the par played
READING = Reading(
    unit="points", seats=SEATS, edge_metric="mean_score", edge_quantity="dealer.mean_score",
    no_winner=("dealer.tie_rate",), no_winner_words="tied",
    fair_metric="fair_par", fair_rule="par",
    headline=(
        Line("dealer.mean_score", "The dealer scores {value} {unit} a round on average",
             "signed", verdict=True),
        Line("dealer.win_rate", "The dealer wins {value} of rounds", "rate"),
        Line("fair_par.dealer", "The par that makes the dealer's mean score zero is {value} "
             "card points"),
        Line("round_score.sd", "A round's score has a standard deviation of {value} {unit}"),
    ))


class Toppa:
    """The registry entry: what the API, the CLI and the statistics layer ask of a game."""

    reading = READING

    name = NAME
    title = "Toppa (2 players)"
    source = f"{sources.dated('toppa')}, section 'Toppa (for 2 players)'"
    seed_file = "000_a569c68da0494d09"
    n_players = N_PLAYERS
    seats = SEATS
    deck_points = DECK_POINTS  # what the pars must add up to for the game to be zero-sum
    Rules = ToppaRules
    par = PAR
    teyaku_names = TEYAKU
    lookahead = True  # the lookahead policy plays this game (engine.lookahead)
    card_values = True  # counters(card_values=True) tallies each seat's scores by dealt card
    version = 7  # bump when a rule's behaviour, an option or a policy's play changes
    #: what a sweep shows and charts when no quantity is asked for
    key_quantities = ("dealer.mean_score", "dealer.win_rate", "round_score.sd")

    @property
    def main_kernel(self):
        """The kernel whose compilation dominates a first run (for the CLI's notice)."""
        return run_chunks

    def deal_spec(self, rules):
        from ..stats.exact import DealSpec
        return DealSpec(
            month=HANAFUDA.month, kind=HANAFUDA.kind,
            group_sizes=(HAND_SIZE, HAND_SIZE, FIELD_SIZE, 48 - 2 * HAND_SIZE - FIELD_SIZE),
            hand_groups=(0, 1), misdeal_groups=(0, 1, 2), teyaku=teyaku_specs(HAND_SIZE))

    def counters(self, rules, *, rounds, seed, policy, expose, session_rounds=1,
                 fixed_dealer=False, checked=False, progress=False, deals_only=False,
                 card_values=False, cond=None, **run_options):
        """Integer counters of ``rounds`` played rounds (dict of arrays), summed over chunks;
        ``card_values``: also ``cards`` (``engine.card_tally``: each seat's scores by dealt card).

        ``cond``: the conditioned deal's array (``hanasim.conditions``), None for none.
        ``run_options`` go to :func:`engine.runner.run_batches` (chunk, blocks, checkpoint,
        executor)."""
        from ..conditions import kernel_cond
        from ..engine.runner import run_batches

        tb, names = lower(rules, fixed_dealer=fixed_dealer, session_rounds=session_rounds,
                          checked=checked)
        tb = tb._replace(cond=kernel_cond(cond))  # None: no conditioned-deal code
        if deals_only:
            shapes = dict(scal=(C_N,), tcount=(tb.teyaku.shape[0] + 1, 2))

            totals = run_batches(partial(deal_kernel, tb, seed, rounds), -(-rounds // DEALS_PER_SESSION), shapes,
                                 rounds_per_session=DEALS_PER_SESSION, progress=progress,
                                 desc=f"{NAME} deals", **run_options)
            totals["deals_only"] = True
            return totals
        n_sessions = -(-rounds // session_rounds)
        shapes = dict(scal=(C_N,), tcount=(tb.teyaku.shape[0] + 1, 2),
                      ycount=(tb.yaku_masks.shape[0] + 1, 2))
        if card_values:
            shapes["cards"] = card_tally.shape(N_PLAYERS, tb.month.shape[0])
        totals = run_batches(partial(play_kernel, tb, seed, rounds, policy, expose), n_sessions, shapes, rounds_per_session=session_rounds,
                             progress=progress, desc=f"{NAME}", **run_options)
        totals["dekiyaku_names"] = names
        return totals

    def histograms(self, c, rules) -> dict:
        """``{distribution name: histogram counts}`` (score unit: one point); the session
        total only for sessions of several rounds."""
        if c.get("deals_only"):
            return {}
        s = c["scal"]
        h = {f"round_score.{seat}": s[C_HIST + HIST_BINS * k: C_HIST + HIST_BINS * (k + 1)]
             for k, seat in ((H_DEALER, "dealer"), (H_OPPONENT, "opponent"))}
        if s[C_SESSIONS] and s[C_ROUNDS] > s[C_SESSIONS]:
            b = C_HIST + HIST_BINS * H_SESSION
            h["session.first_dealer.total"] = s[b: b + HIST_BINS]
        return h

    def distributions(self, c, rules) -> dict:
        """Trimmed histograms for ``df.attrs["distributions"]`` (see ``stats.distribution``)."""
        from ..stats.distribution import trimmed

        return {k: trimmed(v) for k, v in self.histograms(c, rules).items()}

    def quantities(self, c, rules):
        """Tidy rows ``(quantity, stats)`` from the counters."""
        from ..stats import table as T
        from ..stats.distribution import quantile_rows, share_above

        s = c["scal"]
        r = s[C_ROUNDS]
        par_d, par_o = seat_values(rules.par, N_PLAYERS)
        # the scores of a round add up to this (0 when the pars add up to the deck's points)
        rest = DECK_POINTS - par_d - par_o
        rows = [T.prop("misdeal_rate", s[C_MISDEALS], s[C_DEALS])]
        for i, t in enumerate(TEYAKU + ("any",)):
            rows.append(T.pooled(f"teyaku.{t}", c["tcount"][i, 0], c["tcount"][i, 1], r, 2))
        if c.get("deals_only"):
            return rows
        hist = self.histograms(c, rules)
        for i, y in enumerate(c["dekiyaku_names"] + ("any",)):
            rows.append(T.pooled(f"dekiyaku.{y}", c["ycount"][i, 0], c["ycount"][i, 1], r, 2))
        rows += [
            T.mean("dealer.mean_score", s[C_DEALER_SCORE], s[C_DEALER_SCORE_SQ], r),
            T.prop("dealer.win_rate", s[C_DEALER_WINS], r),
            T.prop("dealer.tie_rate", s[C_TIES], r),
            # the opponent's side of the same rounds: its score is `rest` - the dealer's
            T.shifted_mean("opponent.mean_score", -s[C_DEALER_SCORE], s[C_DEALER_SCORE_SQ], r,
                           -rest),
            T.prop("opponent.win_rate", share_above(hist["round_score.opponent"], 0), r),
            T.mean("card_points.dealer", s[C_PTS_DEALER], s[C_PTS_DEALER_SQ], r),
            T.mean("card_points.opponent", s[C_PTS_OPP], s[C_PTS_OPP_SQ], r),
            T.shifted_mean("par_balance.dealer", s[C_PTS_DEALER], s[C_PTS_DEALER_SQ], r, par_d),
            T.shifted_mean("par_balance.opponent", s[C_PTS_OPP], s[C_PTS_OPP_SQ], r, par_o),
            # A seat's score is (something independent of par) - its par on every settlement
            # path, so the par that makes the seat's expected score zero is mean score + par;
            # the two fair pars add up to the deck's 240 points, whatever the pars played.
            T.shifted_mean("fair_par.dealer", s[C_DEALER_SCORE], s[C_DEALER_SCORE_SQ], r, -par_d),
            T.shifted_mean("fair_par.opponent", -s[C_DEALER_SCORE], s[C_DEALER_SCORE_SQ], r,
                           -rest - par_o),
            T.mean("yaku_score.dealer", s[C_YAKU_DEALER], s[C_YAKU_DEALER_SQ], r),
            T.mean("yaku_score.opponent", s[C_YAKU_OPP], s[C_YAKU_OPP_SQ], r),
            # the dealer's yaku score minus the opponent's in the same round: the yaku swing
            # between the seats (sweep a yaku value and solve this for 0 to even it out)
            T.mean("yaku_score.dealer_minus_opponent", s[C_YAKU_DEALER] - s[C_YAKU_OPP],
                   s[C_YAKU_DIFF_SQ], r),
            T.sd("round_score.sd", s[C_DEALER_SCORE], s[C_DEALER_SCORE_SQ], r),
            T.mean("round_score.mean_abs", s[C_ABS_SCORE], s[C_DEALER_SCORE_SQ], r),
        ]
        for name in ("round_score.dealer", "round_score.opponent"):
            rows += quantile_rows(name, hist[name])
        rows += [
            T.prop("settlement.uncovered_rate", s[C_UNCOVERED], r),
            T.mean("player1.mean_score", s[C_P0_SCORE], s[C_P0_SCORE_SQ], r),
            T.prop("player1.win_rate", s[C_P0_WINS], r),
            T.prop("player1.deal_share", s[C_P0_DEALS], r),
        ]
        n_s = s[C_SESSIONS]
        if n_s and r > n_s:  # sessions of several rounds: the winner deals the next round
            rows += [
                T.mean("session.first_dealer.mean_total", s[C_FIRST_TOTAL], s[C_FIRST_TOTAL_SQ], n_s),
                T.prop("session.first_dealer.win_rate", s[C_FIRST_WINS], n_s),
                T.prop("session.tie_rate", s[C_FIRST_TIES], n_s),
            ]
            rows += quantile_rows("session.first_dealer.total", hist["session.first_dealer.total"])
        return rows


sessions.check_game(GAME)
register(Toppa())
