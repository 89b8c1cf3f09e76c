"""Taipa hanafuda (Taipa Shijō-shugi Hanafuda) for 2 players.

Rules: the Taipa rule page (``shared/seeds/002_06e64cb5319513a5.txt``; also
``shared/rule-pages/newgames_taipa-hanafuda.md``, the same text).  Every point the rule page
leaves open is an option of :class:`TaipaRules` whose text says what the default does and why.

The deck (the rule page, "The deck") is data: :data:`hanasim.decks.TAIPA`, 6 suits x 8 cards.
Matching is by suit with up to eight cards a suit and no capture-all rule, so turns use the general
match-group step (``engine.match``), not the month-nibble fast path of the other games.

A round
-------
* Deal (the rule page, "Setup"): 6 cards to the first player, 6 to the second, 6 face up to the field,
  from the round's deck shuffled; the rest is the draw pile.
* Turns alternate, the first player first: a hand card, then the top of the draw pile; a card
  matching field cards of its suit captures exactly one of them, the player's choice (a policy
  choice) however many lie there ("If the played card matches with multiple cards on the table,
  then the player may choose which one they capture"); else it stays on the field.
* Yaku (the rule page, "Yaku"), 3 cards each, repeatable, each card in at most one yaku: three brights
  (one each of pine, cherry, susuki) 3, boar-deer-butterflies 2, any three ribbons 1, any three
  chaff 0.  The kinds are disjoint, so a pile holds ``min(pine, cherry, susuki brights)`` bright
  yaku, ``min(boar, deer, butterflies)`` animal yaku, ``ribbons // 3`` and ``chaff // 3``.
* After a turn whose captures raise the number of yaku held (a chaff yaku included: the rule page's
  note "completing it does give the player the opportunity"), the player calls agari (stop) or
  koi-koi (continue): ``policies.choose_continue``.  Agari scores the yaku points, x2 if the
  player called koi-koi earlier in the round (only the first call counts).  When the player to
  move has no cards the round is exhausted: nobody scores.
* The agari caller takes coins worth the score from the opponent (``coin_cap``).
* A ``lookahead[:K]`` player decides its hand card with the card it takes, the turned
  card's take and agari / koi-koi by determinised rollouts of the round from its state
  (:func:`play_from`, section "lookahead" below), and under ``yaku_cards=choice`` which of its
  ribbons and chaff leave play between rounds, by rollouts of the rest of the game.

A game
------
Each player starts with ``start_coins``; round 1's first player is drawn uniformly (rock-paper-
scissors); later the player with fewer coins plays first (equal: ``tie_first``).  After each
round the yaku both players completed are removed from play (which cards: ``yaku_cards``, whose
``choice`` reading is the pile owner's policy decision; exhausted rounds:
``exhausted_removal``) and the rest is the next round's deck.  Round 1's deck is the full deck
unless the ``removed_*`` study options take yaku out first.  The game ends
after ``game_rounds`` rounds, when a player has no coins, or when the deck cannot be dealt
(``short_deck``); more coins win.

Simulation unit
---------------
As koi-koi: a session is :data:`SERIES_ROUNDS` counted rounds of whole games back to back, the
last game finished for the game quantities.  Round i of a session deals on stream 3i, plays on
3i+1 and draws the first player and the removed cards on 3i+2 (keyed by (seed, session)).
Seats: seat 0 is the round's first player; ``first ^ seat`` is the player in a seat.
Deals only (``deals_only``): sessions of :data:`DEALS_PER_SESSION` deals of round 1 on stream
``session``, no play.

Deal-time odds
--------------
:func:`deal_probabilities` is exact (fractions) for any deck: which yaku a place holds depends
only on how many cards of each of eight classes it gets (pine / cherry / susuki brights, boar /
deer / butterflies, ribbons, chaff), so a dynamic programme over the classes counts the deals
in which no place (of those asked) holds a yaku's cards.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, partial
from math import comb
from typing import ClassVar, NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from .. import decks, sources
from ..decks import TAIPA
from ..numtext import is_digits
from ..engine import lookahead, state
from ..engine.lookahead import new_scratch, uses_lookahead
from ..engine.bits import ONE, ZERO, bit, count, lowest
from ..engine.jit import hot
from ..engine.match import capture_one, group_turn
from ..engine.rng import GOLDEN, below, mix64, next64, shuffle_first, stream_state
from ..engine.tally import tally_hits
from ..policies import (CONTINUE, DEC_STOP, GREEDY, K_SHIFT, LEGAL_BOTH, LEGAL_STOP, RANDOM,
                        choose_continue, group_hand_card, group_pick, parse_policy, policy_id)
from ..reading import Line, Reading
from ..rules import RuleError, number, option
from .registry import register

NAME = "taipa"
N_PLAYERS = 2
SERIES_ROUNDS = 120      # counted rounds per session (see "Simulation unit")
HAND = 6                 # seed, "Setup": 6 cards to each hand and 6 to the field
DEALT = 3 * HAND
FULL_ROUND = DEALT + 2 * HAND  # the cards a round uses when every turn draws
MAX_ROUNDS = 6
DEALS_PER_SESSION = 64  # deals-only sessions (as engine.deal_only)
SECONDS_PER_TURN = 10    # the stated pace for the minutes estimate (a turn: two cards)
YAKU = ("three_brights", "boar_deer_butterflies", "ribbons", "chaff")
YAKU_POINTS = (3, 2, 1, 0)   # seed, "Yaku"
COIN_LO, COIN_BINS = -100, 241  # histogram of player 1's final coins


# When an option cannot change the result (``rules.inert_options``): refused when asked for.
def _one_round(r, run):
    """What a round leaves for the next (who plays first, which cards leave play) is never
    read in a one-round game (how many leave is counted: exhausted_removal is not inert)."""
    return "game_rounds=1: a game has no next round" if r.game_rounds == 1 else None


def _never_short(r, run):
    n = 48 - 3 * (r.removed_brights + r.removed_animals + r.removed_ribbons + r.removed_chaff)
    return (f"game_rounds=1 with a deck of {n} cards: no round is short of cards"
            if r.game_rounds == 1 and n >= DEALT + 12 else None)


@dataclass(frozen=True)
class TaipaRules:
    """House rules of Taipa hanafuda; every default is the Taipa rule page's reading."""

    game: ClassVar[str] = NAME
    start_coins: int = number(10, low=1, high=100, readings={10: "the rule page: five 1-point and one 5-point coin"}, doc="coins each player starts with (the rule page, 'Setup': 'a total of 10 points')")
    game_rounds: int = number(3, low=1, high=MAX_ROUNDS, readings={3: "the rule page"}, doc="the game ends after this many rounds (the rule page, 'End of Game': 'after three rounds')")
    coin_cap: str = option("capped", ("capped", "uncapped"), "the winner takes at most the coins the opponent has (capped: coins are cards and cannot go below zero; the rule page does not say) or the whole score (uncapped: the loser's total may go negative)")
    tie_first: str = option("alternate", ("alternate", "same", "random"), "who plays first in the next round when both have the same coins (the rule page, 'Ending the round': 'do not mention what happens when the players' scores are tied'): alternate (the previous round's first player goes second), same (the same first player), random (rock-paper-scissors again)", inert=_one_round)
    yaku_cards: str = option("random", ("random", "first", "choice"), "which cards form a ribbon or chaff yaku, and so leave play, when a pile holds more of the rank than its yaku use (the rule page: not stated): random (a uniformly random choice among the ways), first (the first captured; cards captured together: the lower card first), choice (the pile's owner chooses, a policy decision: a random player uniformly as 'random', a greedy one keeps the cards whose suits hold the most bright and animal points left in play for the next round, removing the others; ties: the lower card leaves).  Brights and animals of one suit are identical, so only ribbons and chaff need this", inert=_one_round)
    exhausted_removal: str = option("remove", ("remove", "keep"), "whether yaku completed in an exhausted round also leave play: remove (the rule page, 'Ending the round': 'Both players put all yaku they finished this round' aside, no exception), keep (only yaku of a scored round leave)")
    short_deck: str = option("short_pile", ("short_pile", "end_game"), "a deck too small for a full round (fewer than 30 cards: 18 dealt and 12 draws; the rule page: silent): short_pile (deal as usual; once the draw pile is empty a turn is the hand card only), end_game (the game ends before that round).  A deck of fewer than 18 cards cannot be dealt: the game ends under both", inert=_never_short)
    last_turn: str = option("choose", ("choose", "stop"), "a new yaku on a player's last turn: choose (agari or koi-koi as on any turn: the rule page makes no exception; koi-koi there cannot pay, the caller has no turn left to call agari), stop (agari)")

    # not rules of the seed: a study of the shrunken decks of rounds 2 and 3 (the deal-time
    # odds of `hanasim exact taipa --removed`, a game started from such a deck)
    removed_brights: int = number(0, low=0, high=4, readings={0: "the rule page: a game starts with the full deck"}, doc="three-brights yaku taken out of the deck before round 1 (not a rule: a study of a shrunken deck; each takes the lowest card of pine, cherry and susuki brights)")
    removed_animals: int = number(0, low=0, high=4, readings={0: "the rule page: a game starts with the full deck"}, doc="boar-deer-butterflies yaku taken out of the deck before round 1 (not a rule: a study of a shrunken deck; each takes the lowest boar, deer and butterflies)")
    removed_ribbons: int = number(0, low=0, high=3, readings={0: "the rule page: a game starts with the full deck"}, doc="three-ribbon yaku taken out of the deck before round 1 (not a rule: a study of a shrunken deck; the lowest-numbered ribbons)")
    removed_chaff: int = number(0, low=0, high=4, readings={0: "the rule page: a game starts with the full deck"}, doc="three-chaff yaku taken out of the deck before round 1 (not a rule: a study of a shrunken deck; the lowest-numbered chaff)")

    def check(self):
        n = 48 - 3 * (self.removed_brights + self.removed_animals + self.removed_ribbons
                      + self.removed_chaff)
        if n < DEALT:
            raise RuleError(f"the removed_* options leave {n} cards; a deal needs {DEALT}")


# ---------------------------------------------------------------- the deck as masks
_D = TAIPA
BRIGHTS = int(_D.kind_mask(decks.BRIGHT))
ANIMALS = int(_D.kind_mask(decks.ANIMAL))
RIBBONS = int(_D.kind_mask(decks.RIBBON))
CHAFF = int(_D.kind_mask(decks.CHAFF))
ALL = (1 << _D.n) - 1


def _sets(kind_mask):
    """Masks of the suits a kind's cards lie in (three brights: pine, cherry, susuki)."""
    mm = _D.month_masks()
    return [int(m) & kind_mask for m in mm[1:] if int(m) & kind_mask]


BRIGHT_SETS = _sets(BRIGHTS)
ANIMAL_SETS = [int(_D.flag_mask(f)) for f in (decks.BOAR, decks.DEER, decks.BUTTERFLY)]
assert len(BRIGHT_SETS) == 3 and all(ANIMAL_SETS)
#: the eight card classes that decide yaku (pine, cherry, susuki brights; boar, deer,
#: butterflies; ribbons; chaff): every card is in exactly one
CLASSES = BRIGHT_SETS + ANIMAL_SETS + [RIBBONS, CHAFF]
assert sum(bin(m).count("1") for m in CLASSES) == 48
REMOVED_OPTIONS = ("removed_brights", "removed_animals", "removed_ribbons", "removed_chaff")


def _lowest_bits(m: int, k: int) -> int:
    out = 0
    for _ in range(k):
        low = m & -m
        out |= low
        m &= m - 1
    return out


def start_deck(rules: TaipaRules) -> int:
    """Round 1's deck as a card mask: the full deck less the ``removed_*`` yaku (brights and
    animals: the lowest card of each of the yaku's three classes; ribbons, chaff: the
    lowest-numbered cards).  Only the class counts matter for the deal-time odds."""
    out = 0
    for sets, k in ((BRIGHT_SETS, rules.removed_brights), (ANIMAL_SETS, rules.removed_animals)):
        for m in sets:
            out |= _lowest_bits(m, k)
    out |= _lowest_bits(RIBBONS, 3 * rules.removed_ribbons)
    out |= _lowest_bits(CHAFF, 3 * rules.removed_chaff)
    return ALL & ~out


class Tables(NamedTuple):
    group_of: np.ndarray     # int8[48]: a card's suit (its match group)
    group_masks: np.ndarray  # uint64[7]: the cards of each suit (entry 0 empty)
    sets: np.ndarray         # uint64[2, 3]: bright yaku suits, animal yaku kinds
    kinds: np.ndarray        # uint64[4]: brights, animals, ribbons, chaff
    weights: np.ndarray      # float64[48]: greedy's card weights
    params: np.ndarray       # int64[P_N]


(P_COINS, P_ROUNDS, P_UNCAPPED, P_TIE, P_YAKU_MODE, P_KEEP_EXH, P_SHORT_END, P_LAST_STOP,
 P_FIXED_FIRST, P_CHECKED, P_SERIES, P_DECK, P_LOOK_YC) = range(13)
P_N = P_LOOK_YC + N_PLAYERS  # P_LOOK_YC + player
TIE_ALTERNATE, TIE_SAME, TIE_RANDOM = 0, 1, 2
# yaku_cards: which ribbons / chaff leave play (CHOICE: the owner's policy, RANDOM or GREEDY)
YC_RANDOM, YC_FIRST, YC_CHOICE, YC_GREEDY = 0, 1, 2, 3


def lower(rules: TaipaRules, *, fixed_dealer=False, checked=False) -> Tables:
    p = np.zeros(P_N, dtype=np.int64)
    p[P_COINS] = rules.start_coins
    p[P_ROUNDS] = rules.game_rounds
    p[P_UNCAPPED] = rules.coin_cap == "uncapped"
    p[P_TIE] = ("alternate", "same", "random").index(rules.tie_first)
    p[P_YAKU_MODE] = ("random", "first", "choice").index(rules.yaku_cards)
    p[P_KEEP_EXH] = rules.exhausted_removal == "keep"
    p[P_SHORT_END] = rules.short_deck == "end_game"
    p[P_LAST_STOP] = rules.last_turn == "stop"
    p[P_FIXED_FIRST] = bool(fixed_dealer)
    p[P_CHECKED] = bool(checked)
    p[P_SERIES] = SERIES_ROUNDS
    p[P_DECK] = start_deck(rules)
    # yaku_cards=choice by a lookahead player (P_LOOK_YC + player): by lookahead on m * K
    # deals (m = 1), or as greedy (0: the paired measurement's baseline).  Set on the lowered
    # tables by the tests and measurements only; no rule or policy sets it
    p[P_LOOK_YC:P_LOOK_YC + N_PLAYERS] = 1
    # greedy: a card weighs its share of its yaku (points / 3 cards)
    w = np.array([YAKU_POINTS[int(k)] / 3 for k in _D.kind], dtype=np.float64)
    return Tables(_D.month.astype(np.int8), _D.month_masks(),
                  np.array([BRIGHT_SETS, ANIMAL_SETS], dtype=np.uint64),
                  np.array([BRIGHTS, ANIMALS, RIBBONS, CHAFF], dtype=np.uint64), w, p)


# ---------------------------------------------------------------- kernels

@hot(inline="always")
def yaku_counts(pile, tb):
    """(bright, animal, ribbon, chaff) yaku in ``pile``: each card in at most one yaku."""
    s = tb.sets
    nb = min(count(pile & s[0, 0]), count(pile & s[0, 1]), count(pile & s[0, 2]))
    na = min(count(pile & s[1, 0]), count(pile & s[1, 1]), count(pile & s[1, 2]))
    return nb, na, count(pile & tb.kinds[2]) // 3, count(pile & tb.kinds[3]) // 3


@hot
def yaku_points(pile, tb):
    nb, na, nr, nc = yaku_counts(pile, tb)
    return 3 * nb + 2 * na + nr, nb + na + nr + nc


@hot
def cards_missing(pile, tb):
    """The fewest cards ``pile`` lacks for one more yaku (the opponent's view of a decision)."""
    s = tb.sets
    nb, na, nr, nc = yaku_counts(pile, tb)
    mb = 0
    ma = 0
    for j in range(3):
        mb += count(pile & s[0, j]) == nb
        ma += count(pile & s[1, j]) == na
    mr = 3 - count(pile & tb.kinds[2]) % 3
    mc = 3 - count(pile & tb.kinds[3]) % 3
    return min(min(mb, ma), min(mr, mc))


# result slots of one round (seats: 0 the first player)
(R_WINNER, R_SCORE, R_BASE, R_EXHAUSTED, R_TURNS, R_CALLS, R_DECISIONS, R_PILE, R_FIELD,
 R_HANDS, R_TOP, R_YAKU, R_DECK, R_DEALT) = (0, 1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 21, 22)
R_N = 25
# R_YAKU + 4 * seat + kind: yaku of each kind held at the end of the round; R_DEALT + g: the
# yaku kinds (bits) whose cards the dealt group g (hand of seat 0, of seat 1, the field) holds


@hot
def yaku_bits(cards, tb):
    nb, na, nr, nc = yaku_counts(cards, tb)
    return (np.int64(nb > 0) | np.int64(na > 0) << 1 | np.int64(nr > 0) << 2
            | np.int64(nc > 0) << 3)


@hot
def play_round(order, n, rng, tb, policy, decide, first, res, cap_time, st, look):
    """Deal ``order[:n]`` (shuffled by the caller) and play one round; results into ``res``.
    ``cap_time[card]``: when the card was captured this round (2 * turn + step); ``st``: the
    round state (``ST_N`` slots, filled here).  ``look``:
    None, or the lookahead context when a player plays by lookahead (:func:`run_chunks` builds it)."""
    for i in range(R_N):
        res[i] = 0
    res[R_WINNER] = -1
    res[R_DECK] = n
    h0 = ZERO
    h1 = ZERO
    field = ZERO
    for i in range(HAND):
        h0 |= bit(order[i])
        h1 |= bit(order[HAND + i])
        field |= bit(order[2 * HAND + i])
    res[R_DEALT] = yaku_bits(h0, tb)
    res[R_DEALT + 1] = yaku_bits(h1, tb)
    res[R_DEALT + 2] = yaku_bits(field, tb)
    for i in range(ST_N):
        st[i] = ZERO
    st[0] = h0
    st[1] = h1
    st[S_FIELD] = field
    st[S_TOP] = DEALT
    play_from(st, order, n, rng, tb, policy, decide, first, res, cap_time, look)


# The round state: ``engine.state``'s layout for 2 seats (hands, field, piles, the next card
# of the draw pile, the seat to move, no exposed cards), then Taipa's own counters.
S_FIELD = state.field(N_PLAYERS)
S_PILE = state.pile(N_PLAYERS, 0)   # + seat
S_TOP = state.top(N_PLAYERS)
S_SEAT = state.seat(N_PLAYERS)
S_CALLS = state.size(N_PLAYERS)     # + seat: koi-koi calls this round
S_NY = S_CALLS + 2                  # + seat: yaku held at the seat's last decision
S_TURNS = S_NY + 2
S_DECISIONS = S_TURNS + 1
ST_N = S_DECISIONS + 1
#: the decision id of a bare ``lookahead`` player: agari / koi-koi by lookahead
DEC_LOOKAHEAD = 4


@hot(inline="always")
def new_yaku(st, seat, tb):
    """After a capture by ``seat``: whether its pile now holds more yaku than at its last
    decision (then a decision is due: counted, and the count kept)."""
    _, ny = yaku_points(st[S_PILE + seat], tb)
    if ny > np.int64(st[S_NY + seat]):
        st[S_NY + seat] = ny
        st[S_DECISIONS] += 1
        return True
    return False


@hot
def play_from(st, order, n, rng, tb, policy, decide, first, res, cap_time, look):
    """Play the round in state ``st`` (``ST_N`` slots, above; the deck ``order[:n]``) to its
    end, in place; results into ``res``.  Returns ``over``: 0 exhausted, else the agari
    caller's seat + 1.  ``look``: None, or the lookahead context (:func:`run_chunks`)."""
    return _play(st, order, n, rng, tb, policy, decide, first, res, cap_time, look)


@hot
def rollout_from(st, order, n, rng, tb, policy, decide, res, cap_time):
    """:func:`play_from` without lookahead players: a lookahead player copies the state,
    redeals what it cannot see and plays the copy on with this (the same round, ``_play``).
    A dispatcher of its own: play_from compiled for ``look=None`` inside its own compile for a
    context left the rollout a call to an unresolved symbol when loaded from numba's cache."""
    return _play(st, order, n, rng, tb, policy, decide, 0, res, cap_time, None)


def _turn_by_look(st, order, n, seat, rng, k, tb, look):
    """A lookahead player's turn, in kernels only (numba overload below)."""
    raise NotImplementedError("compiled in kernels only (numba overload)")


def _continue_by_look(st, order, n, seat, rng, k, tb, look):
    """A lookahead player's agari (False) or koi-koi (True), in kernels only."""
    raise NotImplementedError("compiled in kernels only (numba overload)")


@overload(_turn_by_look)
def _ov_turn_by_look(st, order, n, seat, rng, k, tb, look):
    """A lookahead turn (:func:`_look_turn`); for ``look=None`` an impl that does not refer
    to it at all (never run), so a kernel without lookahead players never compiles it."""
    if isinstance(look, types.NoneType):
        return lambda st, order, n, seat, rng, k, tb, look: (st[seat], st[S_FIELD], ZERO, ZERO)
    return lambda st, order, n, seat, rng, k, tb, look: _look_turn(st, order, n, seat, rng, k,
                                                                     tb, look)


@overload(_continue_by_look)
def _ov_continue_by_look(st, order, n, seat, rng, k, tb, look):
    if isinstance(look, types.NoneType):
        return lambda st, order, n, seat, rng, k, tb, look: False
    return lambda st, order, n, seat, rng, k, tb, look: _look_continue(st, order, n, seat, rng,
                                                                         k, tb, look)


@hot(inline="always")
def _play(st, order, n, rng, tb, policy, decide, first, res, cap_time, look):
    """The round's turns from ``st`` (:func:`play_from`)."""
    p = tb.params
    over = 0
    while True:
        seat = np.int64(st[S_SEAT])
        hand = st[seat]
        if hand == ZERO:
            break
        q = first ^ seat
        pol = policy[q]
        field = st[S_FIELD]
        top = np.int64(st[S_TOP])
        if look is not None and lookahead.is_lookahead(pol):
            hand, field, a, b = _turn_by_look(st, order, n, seat, rng, lookahead.samples(pol),
                                              tb, look)
            top += 1 if top < n else 0
        else:
            r = next64(rng) if pol == RANDOM else ZERO
            drawn = np.int64(order[top]) if top < n else np.int64(-1)
            top += 1 if top < n else 0
            hand, field, a, b = group_turn(pol, hand, field, drawn, r, tb.group_of,
                                           tb.group_masks, tb.weights)
        turns = np.int64(st[S_TURNS])
        m = a
        while m:
            c = lowest(m)
            m &= m - ONE
            cap_time[c] = 2 * turns
        m = b
        while m:
            c = lowest(m)
            m &= m - ONE
            cap_time[c] = 2 * turns + 1
        st[seat] = hand
        st[S_FIELD] = field
        st[S_PILE + seat] |= a | b
        st[S_TOP] = top
        st[S_TURNS] = turns + 1
        if (a | b) != ZERO and new_yaku(st, seat, tb):
            left = count(hand)
            legal = LEGAL_STOP if (left == 0 and p[P_LAST_STOP] != 0) else LEGAL_BOTH
            if look is not None and decide[q, 0] == DEC_LOOKAHEAD and legal == LEGAL_BOTH:
                go_on = _continue_by_look(st, order, n, seat, rng, lookahead.samples(pol),
                                          tb, look)
            else:
                v, _ = yaku_points(st[S_PILE + seat], tb)
                om = cards_missing(st[S_PILE + (seat ^ 1)], tb)
                go_on = choose_continue(decide[q, 0], decide[q, 1], legal, left, v, om,
                                        rng) == CONTINUE
            if go_on:
                st[S_CALLS + seat] += 1
            else:
                over = seat + 1
                break
        st[S_SEAT] = seat ^ 1
    c0 = st[S_PILE]
    c1 = st[S_PILE + 1]
    res[R_WINNER] = -1
    res[R_BASE] = 0
    res[R_SCORE] = 0
    res[R_EXHAUSTED] = 0
    if over:
        w = over - 1
        v, _ = yaku_points(c0 if w == 0 else c1, tb)
        res[R_WINNER] = w
        res[R_BASE] = v
        res[R_SCORE] = 2 * v if st[S_CALLS + w] > 0 else v
    else:
        res[R_EXHAUSTED] = 1
    res[R_TURNS] = np.int64(st[S_TURNS])
    res[R_CALLS] = np.int64(st[S_CALLS])
    res[R_CALLS + 1] = np.int64(st[S_CALLS + 1])
    res[R_DECISIONS] = np.int64(st[S_DECISIONS])
    res[R_PILE] = np.int64(c0)
    res[R_PILE + 1] = np.int64(c1)
    res[R_FIELD] = np.int64(st[S_FIELD])
    res[R_HANDS] = np.int64(st[0] | st[1])
    res[R_TOP] = min(np.int64(st[S_TOP]), n)
    for s in range(2):
        nb, na, nr, nc = yaku_counts(c0 if s == 0 else c1, tb)
        res[R_YAKU + 4 * s] = nb
        res[R_YAKU + 4 * s + 1] = na
        res[R_YAKU + 4 * s + 2] = nr
        res[R_YAKU + 4 * s + 3] = nc
    return over


# ---------------------------------------------------------------- lookahead
# A lookahead player (engine.lookahead) decides its hand card with the field card it takes,
# the field card its turned card takes, and agari / koi-koi: each choice is scored by the
# mean round result in coins for it (+ the coins it takes when it calls agari, - those it
# pays when the opponent does, 0 exhausted; under coin_cap=capped at most what the payer
# holds, from the coins play_game puts in the context) over K determinisations of the cards
# it cannot see (the opponent's hand and the rest of the round's deck, redealt from the set
# of them), the same K for every choice; every rollout is played by greedy cards and greedy's
# agari at the first new yaku, with this module's own round (play_from, look=None).  A choice
# replaces greedy's own only when its paired mean gain exceeds one standard error
# (engine.lookahead._pick).
#
# The yaku_cards=choice decision between rounds (which of a completed ribbon / chaff yaku's
# cards leave play; the rest go back into the next round's deck) is by lookahead too
# (_look_removals).  Its result is the player's coins at the end of the GAME: a game is the
# unit that pays (the seed: more coins win after three rounds, or when a player runs out),
# each game of a session starts afresh from the full deck and start_coins, so nothing after
# the game depends on the choice, and the coins already held are the same for every choice
# (so the mean final coins compare as the mean coins still to win; a win / loss result would
# be noisier and ignore margins, which the round decisions also value in coins).  Each choice
# (every way up to identical cards: two ribbons, or two chaff, of one suit differ in nothing
# the rules read) is played on from its next deck by greedy with the game's own kernels:
# round after round (rollout_from) until the game ends as play_game ends it (game_rounds,
# coins, short deck), first player, coin_cap and greedy's yaku_cards choice included.  The
# next round's deal is unknown, so a determinisation is a random deal of the shrunk deck:
# the same K shuffles for every choice (common random numbers; the cards all choices keep
# are laid out first, so deals differ only in where the kept ribbons / chaff fall).  Nothing
# is hidden here: the piles, the coins and the deck (every card not out of play) are public.
# Not decided when the game is over anyway (its last round, a player without coins).

#: lookahead scratch slots (``Scratch.aux``): each round seat's coins at the round's start
A_COINS = 0
#: ... and the yaku_cards=choice decisions a chunk's lookahead players made, and how many of
#: them differ from greedy's beyond identical cards (counters C_YC_DECISIONS, C_YC_CHANGED)
A_YC_DECISIONS, A_YC_CHANGED = 2, 3
#: work slots of the yaku_cards choice: a pile's ribbon ways, then its chaff ways (15, 21 at most)
MAX_KEEPS = 32


@hot(inline="always")
def _value(st, over, seat, tb, aux):
    """The round's coin result for ``seat`` when the round ended with ``over`` (play_from):
    the coins the agari caller takes, at most what the payer has under ``coin_cap=capped``
    (``aux[A_COINS + seat]``: each seat's coins at the start of the round, set by
    :func:`play_game`)."""
    if over == 0:
        return 0.0
    w = over - 1
    v, _ = yaku_points(st[S_PILE + w], tb)
    sc = 2 * v if st[S_CALLS + w] > 0 else v
    if tb.params[P_UNCAPPED] == 0:
        sc = min(sc, max(aux[A_COINS + (w ^ 1)], 0))
    return float(sc) if w == seat else -float(sc)


@hot(inline="always")
def _rollout(look, n, seat, hand, field, cap, top):
    """Finish ``seat``'s turn in a copy of the determinised state (its hand, the field, its
    new captures, the next card of the pile) and play the copy out, all greedy: its result.
    A new yaku on this turn: the rollout's greedy calls agari."""
    tb, rres, sc, rcap, rdec, yk = look
    st = sc.st
    for i in range(ST_N):
        st[i] = sc.base[i]
    st[seat] = hand
    st[S_FIELD] = field
    st[S_PILE + seat] |= cap
    st[S_TOP] = top
    st[S_TURNS] += 1
    if cap != ZERO and new_yaku(st, seat, tb):
        return _value(st, seat + 1, seat, tb, sc.aux)
    st[S_SEAT] = seat ^ 1
    over = rollout_from(st, sc.order, n, sc.rng, tb, sc.greedy, rdec, rres, rcap)
    return _value(st, over, seat, tb, sc.aux)


@hot(inline="always")
def _greedy_pick(card, field, tb):
    mm = field & tb.group_masks[tb.group_of[card]]
    return group_pick(GREEDY, mm, ZERO, tb.weights) if mm != ZERO else np.int64(0)


@hot
def _look_turn(st, order, n, seat, rng, k, tb, look):
    """A lookahead player's turn in ``st`` (``seat`` to move): the hand card with the field
    card it takes, then the turned card's take when it matches two or more field cards.
    Returns (hand, field, captured by the hand card, by the turned card); ``rng[0]`` advances
    by the determinisations.  A call, not inlined (as ``engine.play._look_turn``)."""
    if look is None:  # typed, never run: rollouts play with look=None
        return st[seat], st[S_FIELD], ZERO, ZERO
    _, _, sc, _, _, _ = look
    s = rng[0]
    hand = st[seat]
    field = st[S_FIELD]
    top = np.int64(st[S_TOP])
    deck = order[:n]
    ntop = top + 1 if top < n else top
    # the choices: greedy's own first, then every (hand card, field card taken) in card order
    g = group_hand_card(GREEDY, hand, field, ZERO, tb.group_of, tb.group_masks, tb.weights)
    sc.card[0] = g
    sc.high[0] = _greedy_pick(g, field, tb)
    m = 1
    h = hand
    while h:
        c = lowest(h)
        h &= h - ONE
        for i in range(max(count(field & tb.group_masks[tb.group_of[c]]), 1)):
            if c != g or i != np.int64(sc.high[0]):
                sc.card[m] = c
                sc.high[m] = i
                m += 1
    best = 0
    if m > 1:
        for j in range(m):
            sc.total[j] = 0.0
            sc.total2[j] = 0.0
        for _ in range(k):
            s = lookahead.determinise(st, N_PLAYERS, seat, deck, top, s, sc)
            drawn = np.int64(sc.order[top]) if top < n else np.int64(-1)
            v0 = 0.0
            for j in range(m):
                c = sc.card[j]
                f, c1 = capture_one(c, field, tb.group_masks[tb.group_of[c]],
                                    np.int64(sc.high[j]))
                c2 = ZERO
                if drawn >= 0:
                    f, c2 = capture_one(drawn, f, tb.group_masks[tb.group_of[drawn]],
                                        _greedy_pick(drawn, f, tb))
                v = _rollout(look, n, seat, hand & ~bit(c), f, c1 | c2, ntop)
                v0 = lookahead._add_gain(sc, j, v, v0)
        best = lookahead._pick(sc, m, k)
    c = sc.card[best]
    hand &= ~bit(c)
    field, a = capture_one(c, field, tb.group_masks[tb.group_of[c]], np.int64(sc.high[best]))
    b = ZERO
    if top < n:
        drawn = np.int64(order[top])  # turned face up: seen
        gm = tb.group_masks[tb.group_of[drawn]]
        nm = count(field & gm)
        pick = _greedy_pick(drawn, field, tb)
        if nm >= 2:
            pile0 = st[S_PILE + seat]
            st[seat] = hand
            st[S_FIELD] = field
            st[S_PILE + seat] = pile0 | a
            for j in range(nm):
                sc.total[j] = 0.0
                sc.total2[j] = 0.0
                sc.high[j] = pick if j == 0 else (j - 1 if j - 1 < pick else j)
            for _ in range(k):
                s = lookahead.determinise(st, N_PLAYERS, seat, deck, ntop, s, sc)
                v0 = 0.0
                for j in range(nm):
                    f, c2 = capture_one(drawn, field, gm, np.int64(sc.high[j]))
                    v = _rollout(look, n, seat, hand, f, a | c2, ntop)
                    v0 = lookahead._add_gain(sc, j, v, v0)
            pick = np.int64(sc.high[lookahead._pick(sc, nm, k)])
            st[S_PILE + seat] = pile0
        field, b = capture_one(drawn, field, gm, pick)
    rng[0] = s
    return hand, field, a, b


@hot
def _look_continue(st, order, n, seat, rng, k, tb, look):
    """Agari or koi-koi for a lookahead player (``st``: right after its turn, the new yaku
    counted): agari's coins now against the mean result of calling koi-koi and playing on,
    on K determinisations.  Koi-koi (True) only when its mean gain exceeds one standard error
    (agari is greedy's own choice)."""
    if look is None:
        return False
    tb, rres, sc, rcap, rdec, yk = look
    s = rng[0]
    stop = _value(st, seat + 1, seat, tb, sc.aux)
    deck = order[:n]
    top = np.int64(st[S_TOP])
    total = 0.0
    total2 = 0.0
    for _ in range(k):
        s = lookahead.determinise(st, N_PLAYERS, seat, deck, top, s, sc)
        x = sc.st
        for i in range(ST_N):
            x[i] = sc.base[i]
        x[S_CALLS + seat] += 1
        x[S_SEAT] = seat ^ 1
        over = rollout_from(x, sc.order, n, sc.rng, tb, sc.greedy, rdec, rres, rcap)
        d = _value(x, over, seat, tb, sc.aux) - stop
        total += d
        total2 += d * d
    rng[0] = s
    mean = total / k
    var = max(total2 / k - mean * mean, 0.0)
    return mean > 0.0 and mean * mean * k > lookahead.Z * lookahead.Z * var


def _set_coins(look, c0, c1):
    """Each round seat's coins into the lookahead context (``aux[A_COINS + seat]``), in
    kernels only; nothing without one (numba overload below)."""
    raise NotImplementedError("compiled in kernels only (numba overload)")


@overload(_set_coins)
def _ov_set_coins(look, c0, c1):
    if isinstance(look, types.NoneType):
        return lambda look, c0, c1: None

    def impl(look, c0, c1):
        look[2].aux[A_COINS] = c0
        look[2].aux[A_COINS + 1] = c1
    return impl


def _removals(deck, res, tb, policy, first, rng, xrng, cap_time, tmp, coins0, coins1, played,
              look):
    """The cards the round's yaku take out of play: :func:`round_removals`, or with a
    lookahead context :func:`_look_removals` (numba overload below)."""
    raise NotImplementedError("compiled in kernels only (numba overload)")


@overload(_removals)
def _ov_removals(deck, res, tb, policy, first, rng, xrng, cap_time, tmp, coins0, coins1,
                 played, look):
    if isinstance(look, types.NoneType):
        return (lambda deck, res, tb, policy, first, rng, xrng, cap_time, tmp, coins0, coins1,
                played, look: round_removals(deck, res, tb, policy, first, xrng, cap_time, tmp))
    return (lambda deck, res, tb, policy, first, rng, xrng, cap_time, tmp, coins0, coins1,
            played, look: _look_removals(deck, res, tb, policy, first, rng, xrng, cap_time,
                                         tmp, coins0, coins1, played, look))


@hot
def _same_suits(a, b, tb):
    """Whether the removals ``a`` and ``b`` (of one pile's ribbons and chaff) take as many
    ribbons and as many chaff of every suit: the same next deck up to identical cards."""
    for g in range(1, tb.group_masks.shape[0]):
        for kd in range(2, 4):
            km = tb.group_masks[g] & tb.kinds[kd]
            if count(a & km) != count(b & km):
                return False
    return True


@hot
def _removal_options(pk, tb, out, o0):
    """Every way, up to identical cards, that the cards ``pk`` (a pile's ribbons, or its
    chaff) can leave play: the pile keeps ``count % 3`` of them (0, 1 or 2), one of each
    suit kept or two of one suit (the lowest cards of a suit stand for it).  The removals
    into ``out[o0:]``; returns how many (at most 15 for ribbons, 21 for chaff)."""
    n = count(pk)
    if n < 3:
        out[o0] = ZERO
        return 1
    t = n % 3
    if t == 0:
        out[o0] = pk
        return 1
    m = 0
    ng = tb.group_masks.shape[0]
    for g1 in range(1, ng):
        a = pk & tb.group_masks[g1]
        if a == ZERO:
            continue
        la = a & (~a + ONE)
        if t == 1:
            out[o0 + m] = pk & ~la
            m += 1
            continue
        rest = a & ~la
        if rest != ZERO:
            out[o0 + m] = pk & ~(la | (rest & (~rest + ONE)))
            m += 1
        for g2 in range(g1 + 1, ng):
            b = pk & tb.group_masks[g2]
            if b != ZERO:
                out[o0 + m] = pk & ~(la | (b & (~b + ONE)))
                m += 1
    return m


@hot
def _rest_of_game(deck, c0, c1, first, played, q, look, tmp):
    """Play the rest of a game by greedy (cards, agari at the first new yaku, greedy's
    ``yaku_cards`` choice) from ``deck``, whose cards the caller laid out in ``sc.order`` (its
    first round's shuffle starts from them; ``sc.rng``: the rollout's stream), the players
    holding ``c0``, ``c1`` coins after ``played`` rounds, the last one's first player
    ``first``: player ``q``'s final coins.  The game's own rules (:func:`play_game`): the
    first player, ``coin_cap``, the end on coins, rounds or a short deck, what leaves play."""
    tb, rres, sc, rcap, rdec, yk = look
    p = tb.params
    order = sc.order
    st = sc.st
    laid = True
    while True:
        n = count(deck)
        if n < DEALT or (p[P_SHORT_END] != 0 and n < FULL_ROUND):
            break
        if c0 != c1:
            first = 0 if c0 < c1 else 1
        elif p[P_TIE] == TIE_ALTERNATE:
            first ^= 1
        elif p[P_TIE] == TIE_RANDOM:
            first = below(sc.rng, 2)
        if not laid:
            lookahead.gather(order, deck)
        laid = False
        shuffle_first(sc.rng, order, n, 0, min(n, FULL_ROUND))
        for i in range(ST_N):
            st[i] = ZERO
        for i in range(HAND):
            st[0] |= bit(order[i])
            st[1] |= bit(order[HAND + i])
            st[S_FIELD] |= bit(order[2 * HAND + i])
        st[S_TOP] = DEALT
        rollout_from(st, order, n, sc.rng, tb, sc.greedy, rdec, rres, rcap)
        w = rres[R_WINNER]
        if w >= 0:
            winner = w ^ first
            paid = rres[R_SCORE]
            if p[P_UNCAPPED] == 0:
                paid = min(paid, max(c1 if winner == 0 else c0, 0))
            c0 += paid if winner == 0 else -paid
            c1 += paid if winner == 1 else -paid
        played += 1
        if min(c0, c1) <= 0 or played >= p[P_ROUNDS]:
            break
        if w >= 0 or p[P_KEEP_EXH] == 0:
            deck &= ~round_removals(deck, rres, tb, sc.greedy, first, sc.rng, rcap, tmp)
    return c0 if q == 0 else c1


@hot
def _eval_removals(base, pile, m, q, c0, c1, first, played, k, s, tmp, look):
    """Choose among the removals ``sc.high[:m]`` of ``pile``'s ribbons and chaff (greedy's
    first) with the next deck ``base`` less the removal: each choice's result is player
    ``q``'s final coins of the game, played on by greedy (:func:`_rest_of_game`) from K
    random deals of its deck, the same K for every choice (the deck laid out as the cards
    every choice keeps, then the pile's kept cards, in card order, and shuffled on the same
    stream: the deals differ only where the kept cards lie).  Returns (the index chosen by
    ``engine.lookahead._pick``, generator state)."""
    tb, rres, sc, rcap, rdec, yk = look
    v_all = pile & (tb.kinds[2] | tb.kinds[3])
    common = base & ~v_all
    for j in range(m):
        sc.total[j] = 0.0
        sc.total2[j] = 0.0
    for _ in range(k):
        s += GOLDEN
        seed = mix64(s)
        v0 = 0.0
        for j in range(m):
            kept = v_all & ~sc.high[j]
            i = 0
            for part in (common, kept):
                x = part
                while x:
                    sc.order[i] = lowest(x)
                    x &= x - ONE
                    i += 1
            sc.rng[0] = seed
            v = float(_rest_of_game(common | kept, c0, c1, first, played, q, look, tmp))
            v0 = lookahead._add_gain(sc, j, v, v0)
    return lookahead._pick(sc, m, k), s


@hot
def _fill_removals(g, r0, nr, c0, nc, tb, sc, yk):
    """The removal choices into ``sc.high``: ``g`` first, then each ribbon removal
    ``yk[r0:r0 + nr]`` with each chaff removal ``yk[c0:c0 + nc]`` that differs from ``g``
    beyond identical cards; returns how many."""
    sc.high[0] = g
    m = 1
    for i in range(nr):
        for j in range(nc):
            x = yk[r0 + i] | yk[c0 + j]
            if not _same_suits(x, g, tb):
                sc.high[m] = x
                m += 1
    return m


@hot
def _choose_removal(base, pile, g, q, c0, c1, first, played, k, s, tmp, look):
    """A lookahead player's ``yaku_cards=choice``: which of ``pile``'s ribbons and chaff leave
    play (``g``: greedy's choice; ``base``: the next deck before it).  Every way up to
    identical cards (:func:`_removal_options`) is scored by :func:`_eval_removals`; when the
    ribbon ways times the chaff ways exceed ``MAX_CHOICES`` (two kept ribbons and two kept
    chaff of many suits: rare), the ribbons are chosen first with greedy's chaff, then the
    chaff with the chosen ribbons.  Returns (removal, generator state)."""
    tb, rres, sc, rcap, rdec, yk = look
    nr = _removal_options(pile & tb.kinds[2], tb, yk, 0)
    nc = _removal_options(pile & tb.kinds[3], tb, yk, MAX_KEEPS)
    if nr * nc == 1:
        return g, s
    g0 = g
    sc.aux[A_YC_DECISIONS] += 1
    if nr * nc <= lookahead.MAX_CHOICES:
        m = _fill_removals(g, 0, nr, MAX_KEEPS, nc, tb, sc, yk)
        best, s = _eval_removals(base, pile, m, q, c0, c1, first, played, k, s, tmp, look)
        sc.aux[A_YC_CHANGED] += best != 0
        return sc.high[best], s
    yk[2 * MAX_KEEPS - 1] = g & tb.kinds[3]   # greedy's chaff (past the 21 chaff ways)
    m = _fill_removals(g, 0, nr, 2 * MAX_KEEPS - 1, 1, tb, sc, yk)
    best, s = _eval_removals(base, pile, m, q, c0, c1, first, played, k, s, tmp, look)
    g = sc.high[best]
    yk[MAX_KEEPS - 1] = g & tb.kinds[2]       # the chosen ribbons (past the 15 ribbon ways)
    m = _fill_removals(g, MAX_KEEPS - 1, 1, MAX_KEEPS, nc, tb, sc, yk)
    best, s = _eval_removals(base, pile, m, q, c0, c1, first, played, k, s, tmp, look)
    sc.aux[A_YC_CHANGED] += not _same_suits(sc.high[best], g0, tb)
    return sc.high[best], s


@hot
def _look_removals(deck, res, tb, policy, first, rng, xrng, cap_time, tmp, coins0, coins1,
                   played, look):
    """:func:`round_removals` with lookahead players: under ``yaku_cards=choice`` a lookahead
    player's ribbons and chaff leave play as :func:`_choose_removal` says, when the game goes
    on (``played`` rounds of ``game_rounds``, both players with coins: ``coins0``,
    ``coins1`` after the round's payment).  The other pile's cards leave first, by its
    owner's policy (a random owner draws from ``xrng`` as in :func:`round_removals`; another
    lookahead player's counts as greedy's until it has chosen, in seat order): the rule page has
    both players put their yaku aside, no order, and everything the choice reads is public
    (the piles, the coins, the deck: every card not yet out of play)."""
    p = tb.params
    la0 = lookahead.is_lookahead(policy[first]) and p[P_LOOK_YC + first] > 0
    la1 = lookahead.is_lookahead(policy[first ^ 1]) and p[P_LOOK_YC + (first ^ 1)] > 0
    if (p[P_YAKU_MODE] != YC_CHOICE or not (la0 or la1) or played >= p[P_ROUNDS]
            or min(coins0, coins1) <= 0):
        return round_removals(deck, res, tb, policy, first, xrng, cap_time, tmp)
    p0 = np.uint64(res[R_PILE])
    p1 = np.uint64(res[R_PILE + 1])
    sets = set_yaku_cards(p0, tb) | set_yaku_cards(p1, tb)
    nxt = deck & ~sets & (tb.kinds[0] | tb.kinds[1])
    rem0 = ZERO
    rem1 = ZERO
    for s in range(2):
        pile = p0 if s == 0 else p1
        mode = YC_RANDOM if policy[first ^ s] == RANDOM else YC_GREEDY
        x = _take(pile & tb.kinds[2], 3 * (count(pile & tb.kinds[2]) // 3), xrng, mode,
                  cap_time, tmp, tb, nxt)
        x |= _take(pile & tb.kinds[3], 3 * (count(pile & tb.kinds[3]) // 3), xrng, mode,
                   cap_time, tmp, tb, nxt)
        if s == 0:
            rem0 = x
        else:
            rem1 = x
    g = rng[0]
    for s in range(2):
        q = first ^ s
        if (la0 and s == 0) or (la1 and s == 1):
            k = lookahead.samples(policy[q]) * p[P_LOOK_YC + q]
            if s == 0:
                rem0, g = _choose_removal(deck & ~sets & ~rem1, p0, rem0, q, coins0, coins1,
                                          first, played, k, g, tmp, look)
            else:
                rem1, g = _choose_removal(deck & ~sets & ~rem0, p1, rem1, q, coins0, coins1,
                                          first, played, k, g, tmp, look)
    rng[0] = g
    return sets | rem0 | rem1


@hot
def _take(pile_kind, k, rng, mode, cap_time, tmp, tb, nxt):
    """``k`` of the cards of ``pile_kind`` that leave play (``yaku_cards``; ``mode``: YC_*,
    ``nxt``: the next deck's brights and animals, which greedy's choice looks at)."""
    n = count(pile_kind)
    if k >= n:
        return pile_kind
    if k == 0:
        return ZERO
    if mode == YC_FIRST or mode == YC_GREEDY:
        out = ZERO
        for _ in range(k):
            best = np.int64(-1)
            bt = 1e300
            m = pile_kind & ~out
            while m:
                c = lowest(m)
                m &= m - ONE
                if mode == YC_FIRST:
                    key = float(cap_time[c])
                else:  # greedy keeps the cards whose suit holds the most points left in play
                    key = 0.0
                    g = nxt & tb.group_masks[tb.group_of[c]]
                    while g:
                        d = lowest(g)
                        g &= g - ONE
                        key += np.floor(3.0 * tb.weights[d] + 0.5)  # its points
                if key < bt:
                    bt = key
                    best = c
            out |= bit(best)
        return out
    lookahead.gather(tmp, pile_kind)
    shuffle_first(rng, tmp, n, 0, k)
    out = ZERO
    for j in range(k):
        out |= bit(tmp[j])
    return out


@hot
def set_yaku_cards(pile, tb):
    """The cards of ``pile``'s bright and animal yaku (one card of each of a yaku's three
    classes; identical cards of a class: the lowest)."""
    nb, na, nr, nc = yaku_counts(pile, tb)
    out = ZERO
    for j in range(3):
        for g in range(2):
            m = pile & tb.sets[g, j]
            for _ in range(nb if g == 0 else na):
                out |= m & (~m + ONE)
                m &= m - ONE
    return out


@hot
def removed_cards(pile, tb, rng, cap_time, tmp, mode, nxt):
    """The cards of ``pile``'s yaku that leave play: bright and animal yaku by
    :func:`set_yaku_cards`, ribbons and chaff by ``mode`` (``yaku_cards``: YC_RANDOM, YC_FIRST,
    YC_GREEDY; CHOICE is resolved by the caller).  ``nxt``: the cards left in play once both
    players' bright and animal yaku are gone (greedy's view)."""
    nb, na, nr, nc = yaku_counts(pile, tb)
    out = set_yaku_cards(pile, tb)
    out |= _take(pile & tb.kinds[2], 3 * nr, rng, mode, cap_time, tmp, tb, nxt)
    out |= _take(pile & tb.kinds[3], 3 * nc, rng, mode, cap_time, tmp, tb, nxt)
    return out


@hot
def round_removals(deck, res, tb, policy, first, rng, cap_time, tmp):
    """Every card the round's yaku take out of play (both piles; seat 0's ribbons, chaff,
    then seat 1's draw from ``rng`` as needed): :func:`removed_cards` of each pile."""
    p0 = np.uint64(res[R_PILE])
    p1 = np.uint64(res[R_PILE + 1])
    sets = set_yaku_cards(p0, tb) | set_yaku_cards(p1, tb)
    out = sets
    rc = tb.kinds[2] | tb.kinds[3]
    if ((p0 | p1) & rc) == ZERO:
        return out
    nxt = deck & ~sets & (tb.kinds[0] | tb.kinds[1])
    for s in range(2):
        pile = p0 if s == 0 else p1
        mode = tb.params[P_YAKU_MODE]
        if mode == YC_CHOICE:
            mode = YC_RANDOM if policy[first ^ s] == RANDOM else YC_GREEDY
        nr = count(pile & tb.kinds[2]) // 3
        nc = count(pile & tb.kinds[3]) // 3
        out |= _take(pile & tb.kinds[2], 3 * nr, rng, mode, cap_time, tmp, tb, nxt)
        out |= _take(pile & tb.kinds[3], 3 * nc, rng, mode, cap_time, tmp, tb, nxt)
    return out


@hot
def check_round(order, n, deck, res):
    """Checked mode: every card of the round's deck is in exactly one place (hands, field,
    piles, the undrawn pile) and no card outside it is anywhere."""
    places = (np.uint64(res[R_HANDS]), np.uint64(res[R_FIELD]), np.uint64(res[R_PILE]),
              np.uint64(res[R_PILE + 1]))
    seen = ZERO
    for m in places:
        if seen & m:
            raise AssertionError("a card is in two places")
        seen |= m
    for i in range(res[R_TOP], n):
        b = bit(order[i])
        if seen & b:
            raise AssertionError("a card of the draw pile is also elsewhere")
        seen |= b
    if seen != deck:
        raise AssertionError("the places do not hold exactly the round's deck")


# counters
(C_ROUNDS, C_FIRST_WINS, C_SECOND_WINS, C_EXHAUSTED, C_TURNS, C_TURNS_SQ, C_CALLS, C_DECISIONS,
 C_PAID, C_WON_PTS, C_WON_PTS_SQ, C_COINS_MOVED, C_DECK, C_DECK_SQ, C_SHORT_PILE, C_P0_WINS,
 C_P0_NET, C_P0_NET_SQ, C_REMOVED, C_REMOVED_SQ, C_GAMES, C_GAME_ROUNDS, C_GAME_ROUNDS_SQ,
 C_GAME_TURNS, C_GAME_TURNS_SQ, C_EARLY, C_DECK_END, C_FIRST_GAME_WINS, C_GAME_TIES,
 C_P0_GAME_WINS, C_P0_FIRST, C_P0_COINS, C_P0_COINS_SQ, C_FIRST_MARGIN, C_FIRST_MARGIN_SQ,
 C_CAPPED_PAY, C_FIRST_NET, C_FIRST_NET_SQ, C_DEALS) = range(39)
C_DEAL_UNION = 39  # + kind (4: any): deals where a hand or the field holds the yaku's cards
C_YC_DECISIONS = C_DEAL_UNION + len(YAKU) + 1  # lookahead's yaku_cards=choice decisions
C_YC_CHANGED = C_YC_DECISIONS + 1              # ... that differ from greedy's choice
C_N = C_YC_CHANGED + 1
# per round number k: rk[k, RK_*]
(RK_ROUNDS, RK_FIRST_WINS, RK_SECOND_WINS, RK_EXHAUSTED, RK_DECK, RK_DECK_SQ, RK_YAKU,
 RK_TURNS, RK_TURNS_SQ, RK_SHORT, RK_FNET, RK_FNET_SQ, RK_REMOVED, RK_REMOVED_SQ) = range(14)
RK_KIND = 14  # + 2 * kind: player-rounds ending with the kind's yaku (sum, sum of squares)
RK_N = RK_KIND + 2 * len(YAKU)
H_COINS = 0
H_ROUNDS = COIN_BINS
H_N = H_ROUNDS + MAX_ROUNDS + 1


@hot
def tally_round(scal, rk, ycount, dcount, res, k, first, paid):
    w = res[R_WINNER]
    t = res[R_TURNS]
    n = res[R_DECK]
    scal[C_ROUNDS] += 1
    scal[C_FIRST_WINS] += w == 0
    scal[C_SECOND_WINS] += w == 1
    scal[C_EXHAUSTED] += res[R_EXHAUSTED]
    scal[C_TURNS] += t
    scal[C_TURNS_SQ] += t * t
    scal[C_CALLS] += res[R_CALLS] + res[R_CALLS + 1]
    scal[C_DECISIONS] += res[R_DECISIONS]
    scal[C_DECK] += n
    scal[C_DECK_SQ] += n * n
    scal[C_SHORT_PILE] += n < FULL_ROUND
    if w >= 0:
        v = res[R_SCORE]
        scal[C_PAID] += res[R_CALLS + w] > 0
        scal[C_WON_PTS] += v
        scal[C_WON_PTS_SQ] += v * v
        scal[C_COINS_MOVED] += paid
        scal[C_CAPPED_PAY] += paid < v
        scal[C_P0_WINS] += (w ^ first) == 0
    net = 0
    if w >= 0:
        net = paid if (w ^ first) == 0 else -paid
    scal[C_P0_NET] += net
    scal[C_P0_NET_SQ] += net * net
    fnet = 0
    if w >= 0:
        fnet = paid if w == 0 else -paid
    scal[C_FIRST_NET] += fnet
    scal[C_FIRST_NET_SQ] += fnet * fnet
    rk[k, RK_ROUNDS] += 1
    rk[k, RK_FIRST_WINS] += w == 0
    rk[k, RK_SECOND_WINS] += w == 1
    rk[k, RK_EXHAUSTED] += res[R_EXHAUSTED]
    rk[k, RK_DECK] += n
    rk[k, RK_DECK_SQ] += n * n
    rk[k, RK_TURNS] += t
    rk[k, RK_TURNS_SQ] += t * t
    rk[k, RK_SHORT] += n < FULL_ROUND
    rk[k, RK_FNET] += fnet
    rk[k, RK_FNET_SQ] += fnet * fnet
    ha = 0
    hb = 0
    for y in range(4):
        ha |= np.int64(res[R_YAKU + y] > 0) << y
        hb |= np.int64(res[R_YAKU + 4 + y] > 0) << y
        x = np.int64(res[R_YAKU + y] > 0) + np.int64(res[R_YAKU + 4 + y] > 0)
        rk[k, RK_KIND + 2 * y] += x
        rk[k, RK_KIND + 2 * y + 1] += x * x
    rk[k, RK_YAKU] += (ha | hb) != 0
    tally_hits(ycount, ha, hb, 0, 4)
    if k == 0:  # round 1 is dealt from the start deck: the deal-time odds (hanasim exact)
        tally_deal(scal, dcount, res[R_DEALT], res[R_DEALT + 1], res[R_DEALT + 2])


@hot
def tally_deal(scal, dcount, b0, b1, b2):
    """One deal's yaku bits of the two hands and the field: per place (pooled) and the union."""
    scal[C_DEALS] += 1
    tally_hits(dcount, b0, b1, b2, 4)
    u = b0 | b1 | b2
    for y in range(4):
        scal[C_DEAL_UNION + y] += (u >> y) & 1
    scal[C_DEAL_UNION + 4] += u != 0


@hot(inline="always")
def round_stream(rng, key, index):
    rng[0] = stream_state(key, np.uint64(index))


@hot
def play_game(key, i0, rng, xrng, order, tmp, cap_time, st, res, tb, policy, decide, out, deck,
              look):
    """One whole game from round index ``i0`` of session ``key``, round 1 dealt from ``deck``
    (a card mask: the full deck, or a smaller one in the tests); per-round results are
    handed to the caller through ``out[k, :]`` (round k's ``res``, its first player and the
    coins paid) and the game's facts through the return value: (rounds, end reason, coins of
    player 0, coins of player 1, round 1's first player, turns).  End reason: 0 rounds done,
    1 a player ran out of coins, 2 the deck could not be dealt."""
    p = tb.params
    coins0 = p[P_COINS]
    coins1 = p[P_COINS]
    first = 0
    first1 = 0
    r = 0
    turns = 0
    reason = 0
    while True:
        i = i0 + r
        n = count(deck)
        if n < DEALT or (p[P_SHORT_END] != 0 and n < FULL_ROUND):
            reason = 2
            break
        round_stream(xrng, key, 3 * i + 2)
        if r == 0:
            first = 0 if p[P_FIXED_FIRST] != 0 else below(xrng, 2)
            first1 = first
        elif coins0 != coins1:
            first = 0 if coins0 < coins1 else 1
        elif p[P_TIE] == TIE_ALTERNATE:
            first ^= 1
        elif p[P_TIE] == TIE_RANDOM:
            first = below(xrng, 2)
        j = 0
        m = deck
        while m:
            order[j] = lowest(m)
            m &= m - ONE
            j += 1
        round_stream(rng, key, 3 * i)
        shuffle_first(rng, order, n, 0, min(n, FULL_ROUND))
        round_stream(rng, key, 3 * i + 1)
        _set_coins(look, coins0 if first == 0 else coins1, coins1 if first == 0 else coins0)
        play_round(order, n, rng, tb, policy, decide, first, res, cap_time, st, look)
        if p[P_CHECKED]:
            check_round(order, n, deck, res)
        w = res[R_WINNER]
        paid = 0
        if w >= 0:
            winner = w ^ first
            have = coins1 if winner == 0 else coins0
            paid = res[R_SCORE]
            if p[P_UNCAPPED] == 0:
                paid = min(paid, max(have, 0))
            if winner == 0:
                coins0 += paid
                coins1 -= paid
            else:
                coins1 += paid
                coins0 -= paid
        if p[P_CHECKED] and coins0 + coins1 != 2 * p[P_COINS]:
            raise AssertionError("coins are not conserved")
        removed = ZERO
        if w >= 0 or p[P_KEEP_EXH] == 0:
            removed = _removals(deck, res, tb, policy, first, rng, xrng, cap_time, tmp, coins0,
                                coins1, r + 1, look)
        deck &= ~removed
        for c in range(R_N):
            out[r, c] = res[c]
        out[r, R_N] = first
        out[r, R_N + 1] = paid
        out[r, R_N + 2] = count(removed)
        turns += res[R_TURNS]
        r += 1
        if min(coins0, coins1) <= 0:
            reason = 1
            break
        if r >= p[P_ROUNDS]:
            break
    return r, reason, coins0, coins1, first1, turns


@hot
def play_series(key, rng, xrng, order, tmp, cap_time, st, res, out, tb, policy, decide, n_rounds,
                scal, rk, ycount, dcount, hist, look):
    counted = 0
    i = 0
    while counted < n_rounds:
        r, reason, coins0, coins1, first1, turns = play_game(
            key, i, rng, xrng, order, tmp, cap_time, st, res, tb, policy, decide, out,
            np.uint64(tb.params[P_DECK]), look)
        i += max(r, 1)
        for k in range(r):
            if counted < n_rounds:
                counted += 1
                for c in range(R_N):
                    res[c] = out[k, c]
                tally_round(scal, rk, ycount, dcount, res, k, out[k, R_N], out[k, R_N + 1])
                n_rm = out[k, R_N + 2]
                scal[C_REMOVED] += n_rm
                scal[C_REMOVED_SQ] += n_rm * n_rm
                rk[k, RK_REMOVED] += n_rm
                rk[k, RK_REMOVED_SQ] += n_rm * n_rm
        if r == 0:
            counted += 1  # a deck that cannot be dealt at all (never with 48 cards): no loop
        scal[C_GAMES] += 1
        scal[C_GAME_ROUNDS] += r
        scal[C_GAME_ROUNDS_SQ] += r * r
        scal[C_GAME_TURNS] += turns
        scal[C_GAME_TURNS_SQ] += turns * turns
        scal[C_EARLY] += reason == 1
        scal[C_DECK_END] += reason == 2
        margin = coins0 - coins1 if first1 == 0 else coins1 - coins0
        scal[C_FIRST_GAME_WINS] += margin > 0
        scal[C_GAME_TIES] += margin == 0
        scal[C_FIRST_MARGIN] += margin
        scal[C_FIRST_MARGIN_SQ] += margin * margin
        scal[C_P0_GAME_WINS] += coins0 > coins1
        scal[C_P0_FIRST] += first1 == 0
        scal[C_P0_COINS] += coins0
        scal[C_P0_COINS_SQ] += coins0 * coins0
        hist[H_COINS + min(max(coins0 - COIN_LO, 0), COIN_BINS - 1)] += 1
        hist[H_ROUNDS + r] += 1


@njit(cache=True, nogil=True)
def run_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, policy, decide, scal,
               rk, ycount, dcount, hist, look):
    """Sessions ``first_session ..`` in chunks; counters per chunk, summed by the caller.
    ``look``: None, or True when a player plays by lookahead (a kernel of its own, with a
    lookahead context per chunk: (tables, the rollouts' res, the scratch, their cap_time, the
    rollouts' decisions: greedy's agari at once, the yaku_cards choices' work slots))."""
    n_chunks = scal.shape[0]
    for ch in range(n_chunks):
        rng = np.zeros(1, dtype=np.uint64)
        xrng = np.zeros(1, dtype=np.uint64)
        order = np.zeros(48, dtype=np.int8)
        tmp = np.zeros(48, dtype=np.int8)
        cap_time = np.zeros(48, dtype=np.int64)
        st = np.zeros(ST_N, dtype=np.uint64)
        res = np.zeros(R_N, dtype=np.int64)
        out = np.zeros((MAX_ROUNDS, R_N + 3), dtype=np.int64)
        s0 = first_session + ch * chunk
        s1 = min(s0 + chunk, first_session + n_sessions)
        if look is None:
            sessions(seed, s0, s1, total_rounds, rng, xrng, order, tmp, cap_time, st, res, out, tb,
                     policy, decide, scal[ch], rk[ch], ycount[ch], dcount[ch], hist[ch], None)
        else:
            rdec = np.zeros((N_PLAYERS, 2), dtype=np.int64)
            rdec[:, 0] = DEC_STOP
            ctx = (tb, np.zeros(R_N, dtype=np.int64), new_scratch(ST_N, 48, N_PLAYERS),
                   np.zeros(48, dtype=np.int64), rdec, np.zeros(2 * MAX_KEEPS, dtype=np.uint64))
            sessions(seed, s0, s1, total_rounds, rng, xrng, order, tmp, cap_time, st, res, out, tb,
                     policy, decide, scal[ch], rk[ch], ycount[ch], dcount[ch], hist[ch], ctx)
            scal[ch, C_YC_DECISIONS] += ctx[2].aux[A_YC_DECISIONS]
            scal[ch, C_YC_CHANGED] += ctx[2].aux[A_YC_CHANGED]


@hot
def sessions(seed, s0, s1, total_rounds, rng, xrng, order, tmp, cap_time, st, res, out, tb, policy,
             decide, scal, rk, ycount, dcount, hist, look):
    series = tb.params[P_SERIES]
    for s in range(s0, s1):
        key = stream_state(seed, s)
        n_rounds = min(series, total_rounds - s * series)
        play_series(key, rng, xrng, order, tmp, cap_time, st, res, out, tb, policy, decide,
                    n_rounds, scal, rk, ycount, dcount, hist, look)


@njit(cache=True, nogil=True)
def run_deal_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, scal, dcount):
    """Deals only (``--deals-only``): round 1's deal from the start deck, no play; each
    session of :data:`DEALS_PER_SESSION` deals starts from the deck in card order."""
    deck = np.uint64(tb.params[P_DECK])
    n = count(deck)
    for ch in range(scal.shape[0]):
        rng = np.zeros(1, dtype=np.uint64)
        order = np.zeros(48, dtype=np.int8)
        s0 = first_session + ch * chunk
        s1 = min(s0 + chunk, first_session + n_sessions)
        for s in range(s0, s1):
            rng[0] = stream_state(seed, s)
            n_rounds = min(DEALS_PER_SESSION, total_rounds - s * DEALS_PER_SESSION)
            deal_session(rng, order, deck, n, tb, n_rounds, scal[ch], dcount[ch])


@hot
def deal_session(rng, order, deck, n, tb, n_rounds, scal, dcount):
    j = 0
    m = deck
    while m:
        order[j] = lowest(m)
        m &= m - ONE
        j += 1
    for _ in range(n_rounds):
        # a partial shuffle of any arrangement leaves a uniform sample in front
        shuffle_first(rng, order, n, 0, DEALT)
        h0 = ZERO
        h1 = ZERO
        field = ZERO
        for i in range(HAND):
            h0 |= bit(order[i])
            h1 |= bit(order[HAND + i])
            field |= bit(order[2 * HAND + i])
        scal[C_ROUNDS] += 1
        tally_deal(scal, dcount, yaku_bits(h0, tb), yaku_bits(h1, tb), yaku_bits(field, tb))


@njit(cache=True)
def one_game(seed, session, i0, tb, policy, decide, deck):
    """One game for the tests: (per-round rows ``out``, rounds, reason, coins0, coins1, first,
    turns) on the streams of session ``session`` from round index ``i0``, from ``deck``."""
    rng = np.zeros(1, dtype=np.uint64)
    xrng = np.zeros(1, dtype=np.uint64)
    order = np.zeros(48, dtype=np.int8)
    tmp = np.zeros(48, dtype=np.int8)
    cap_time = np.zeros(48, dtype=np.int64)
    st = np.zeros(ST_N, dtype=np.uint64)
    res = np.zeros(R_N, dtype=np.int64)
    out = np.zeros((MAX_ROUNDS, R_N + 3), dtype=np.int64)
    key = stream_state(seed, session)
    r, reason, c0, c1, f, t = play_game(key, i0, rng, xrng, order, tmp, cap_time, st, res, tb, policy,
                                        decide, out, deck, None)
    return out, r, reason, c0, c1, f, t


# ---------------------------------------------------------------- public layer

POLICY_FORMS = ("CARD[/DECISION]", "CARD: random, greedy, lookahead[:K]",
                "DECISION: random, stop, continue[K], threshold[T] (a bare lookahead: by lookahead)")


def parse_taipa_policy(name: str) -> int:
    """``CARD[/DECISION]`` as one int: ``policies.parse_policy``'s packing (card id in bits 0-3,
    decision 4-7, its parameter 8-31) and a lookahead's K in bits 32-47.  A bare
    ``lookahead[:K]`` decides agari / koi-koi by lookahead too (:data:`DEC_LOOKAHEAD`);
    ``lookahead:K/stop`` and the like take that decision policy instead."""
    text = str(name).strip()
    card_name, sep, dec_name = text.partition("/")
    forms = "; ".join(POLICY_FORMS)
    try:
        if card_name.strip().partition(":")[0] != "lookahead":
            return parse_policy(text)
        card = policy_id(card_name.strip())
        if not sep:
            return card | DEC_LOOKAHEAD << 4
        return card | (parse_policy("greedy/" + dec_name) & ~0xF)
    except ValueError as e:
        msg = str(e).replace("'greedy/", f"'{card_name}/").split("; ")[0]
        raise ValueError(f"{msg.split(' (CARD')[0]}; use {forms}") from None


def decode_policies(packed) -> tuple:
    """(card policy ids with a lookahead's K, decision (id, parameter) rows) per player."""
    policy = np.array([(int(x) & 0xF) | (int(x) & (0xFFFF << K_SHIFT)) for x in packed],
                      dtype=np.int64)
    decide = np.array([[(int(x) >> 4) & 0xF, (int(x) >> 8) & 0xFFFFFF] for x in packed],
                      dtype=np.int64)
    return policy, decide


#: the tests' default coins of both seats: more than any round can pay (no cap)
TEST_COINS = 1 << 40


@njit(cache=True)
def _test_look(tb, c0, c1):
    rdec = np.zeros((N_PLAYERS, 2), dtype=np.int64)
    rdec[:, 0] = DEC_STOP
    look = (tb, np.zeros(R_N, dtype=np.int64), new_scratch(ST_N, 48, N_PLAYERS),
            np.zeros(48, dtype=np.int64), rdec, np.zeros(2 * MAX_KEEPS, dtype=np.uint64))
    look[2].aux[A_COINS] = c0
    look[2].aux[A_COINS + 1] = c1
    return look


@njit(cache=True)
def _lookahead_turn(tb, st, order, n, seed, k, c0, c1):
    rng = np.full(1, np.uint64(seed), dtype=np.uint64)
    x = st.copy()
    return _look_turn(x, order, n, np.int64(x[S_SEAT]), rng, k, tb, _test_look(tb, c0, c1))


@njit(cache=True)
def _lookahead_continue(tb, st, order, n, seed, k, c0, c1):
    rng = np.full(1, np.uint64(seed), dtype=np.uint64)
    x = st.copy()
    return _look_continue(x, order, n, np.int64(x[S_SEAT]), rng, k, tb, _test_look(tb, c0, c1))


def lookahead_turn(tb, st, order, n, seed, k, coins=(TEST_COINS, TEST_COINS)):
    """The tests' entry: a lookahead player's turn in state ``st`` (the seat to move in
    ``st``) with the deck ``order[:n]``, its determinisations drawn from ``seed``, the two
    seats holding ``coins``: (hand, field, captured by the hand card, by the turned card)."""
    return _lookahead_turn(tb, st, order, n, seed, k, int(coins[0]), int(coins[1]))


def lookahead_continue(tb, st, order, n, seed, k, coins=(TEST_COINS, TEST_COINS)):
    """The tests' entry: a lookahead player's koi-koi (True) or agari right after its turn in
    ``st`` (the seat that moved in ``st``), the two seats holding ``coins``."""
    return _lookahead_continue(tb, st, order, n, seed, k, int(coins[0]), int(coins[1]))


@njit(cache=True)
def _lookahead_removals(tb, deck, res, policy, first, seed, coins0, coins1, played):
    rng = np.full(1, np.uint64(seed), dtype=np.uint64)
    xrng = np.zeros(1, dtype=np.uint64)
    tmp = np.zeros(48, dtype=np.int8)
    cap_time = np.zeros(48, dtype=np.int64)
    look = _test_look(tb, 0, 0)
    return _look_removals(deck, res, tb, policy, first, rng, xrng, cap_time, tmp, coins0,
                          coins1, played, look)


def lookahead_removals(tb, deck, piles, policy, first=0, seed=1, coins=(10, 10), played=1,
                       res=None):
    """The tests' entry: the cards that leave play after a round (``yaku_cards``), the decks
    and piles as card masks: ``deck`` the round's deck, ``piles`` the two round seats' piles,
    ``policy`` the two players' card policy ids (:func:`decode_policies`), ``first`` the
    round's first player, ``coins`` the players' coins after the round, ``played`` the rounds
    of the game played so far; ``res`` (optional) the round's other result slots."""
    r = np.zeros(R_N, dtype=np.int64) if res is None else np.array(res, dtype=np.int64)
    r[R_PILE], r[R_PILE + 1] = int(piles[0]), int(piles[1])
    return int(_lookahead_removals(tb, np.uint64(deck), r, np.asarray(policy, dtype=np.int64),
                                   int(first), int(seed), int(coins[0]), int(coins[1]),
                                   int(played)))


def play_kernel(tb, seed, rounds, policy, decide, first, n, chunk, out):
    run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, policy, decide, out["scal"],
               out["rk"], out["ycount"], out["dcount"], out["hist"], uses_lookahead(policy))


def deal_kernel(tb, seed, rounds, first, n, chunk, out):
    run_deal_chunks(np.uint64(seed), first, n, chunk, rounds, tb, out["scal"], out["dcount"])


def class_sizes(deck: int) -> tuple:
    """The deck's cards in each of the eight yaku classes (:data:`CLASSES`)."""
    return tuple(count_py(int(deck) & m) for m in CLASSES)


@lru_cache(maxsize=256)
def deal_ways_without(sizes: tuple, kinds: frozenset, places: frozenset) -> int:
    """Ordered deals (hand of seat 0, hand of seat 1, the field: 6 cards each, the rest the
    draw pile) of a deck with ``sizes`` cards per class in which no place of ``places``
    (0, 1: the hands, 2: the field) holds the cards of a yaku of a kind in ``kinds`` (indices
    into :data:`YAKU`).  Exact integers, by dynamic programming over the eight classes: the
    state is the cards each place has received so far and, within the bright (animal) classes,
    which places have had a card of every class so far."""
    pm = sum(1 << g for g in places)
    states = {(0, 0, 0, 7): 1}
    for i, n in enumerate(sizes):
        if i in (0, 3):  # the bright (animal) classes start: every place complete so far
            states = {(u0, u1, u2, 7): w for (u0, u1, u2, _), w in _merge(states).items()}
        nxt = {}
        for (u0, u1, u2, f), w in states.items():
            for k0 in range(min(n, HAND - u0) + 1):
                c0 = w * comb(n, k0)
                for k1 in range(min(n - k0, HAND - u1) + 1):
                    c1 = c0 * comb(n - k0, k1)
                    for k2 in range(min(n - k0 - k1, HAND - u2) + 1):
                        ks = (k0, k1, k2)
                        if (i == 6 and 2 in kinds) or (i == 7 and 3 in kinds):
                            if any(ks[g] >= 3 for g in places):
                                continue  # three ribbons (chaff) in a place
                        g = f
                        if i < 6:
                            g = f & ((k0 > 0) | (k1 > 0) << 1 | (k2 > 0) << 2)
                        key = (u0 + k0, u1 + k1, u2 + k2, g)
                        nxt[key] = nxt.get(key, 0) + c1 * comb(n - k0 - k1, k2)
        states = nxt
        if (i == 2 and 0 in kinds) or (i == 5 and 1 in kinds):
            # a place with a card of each of the three classes holds the yaku
            states = {k: w for k, w in states.items() if not k[3] & pm}
    return sum(w for (u0, u1, u2, _), w in states.items() if u0 == u1 == u2 == HAND)


def _merge(states):
    out = {}
    for (u0, u1, u2, _), w in states.items():
        key = (u0, u1, u2, 0)
        out[key] = out.get(key, 0) + w
    return out


def deal_probabilities(deck: int | None = None, places=(0,)) -> dict:
    """Exact probabilities that at least one of ``places`` (0, 1: the two hands, 2: the
    opening field) holds the cards of each yaku, and of any yaku, in round 1's deal from
    ``deck`` (a card mask; default the full deck).  One place: the chance a given hand (or
    the field) holds it; ``places=(0, 1, 2)``: a hand or the field."""
    sizes = class_sizes(ALL if deck is None else deck)
    if sum(sizes) < DEALT:
        raise ValueError(f"a deck of {sum(sizes)} cards cannot be dealt (a deal needs {DEALT})")
    total = deal_ways_without(sizes, frozenset(), frozenset())
    pl = frozenset(places)
    out = {}
    for i, y in enumerate(YAKU + ("any",)):
        kinds = frozenset(range(4)) if y == "any" else frozenset((i,))
        out[y] = 1 - Fraction(deal_ways_without(sizes, kinds, pl), total)
    return out


def count_py(m: int) -> int:
    return bin(int(m)).count("1")


def deck_condition(rules) -> str:
    """The exact table's condition: ``full_deck`` or the deck the ``removed_*`` rules leave."""
    taken = [f"{y} x{getattr(rules, k)}" for y, k in zip(YAKU, REMOVED_OPTIONS)
             if getattr(rules, k)]
    if not taken:
        return "full_deck"
    return f"deck_{count_py(start_deck(rules))}: removed " + ", ".join(taken)


#: how Taipa's numbers are read (hanasim.reading): coins won minus lost (the opponent loses as
#: much, so 0 is no edge); the seats are the round's first and second player; nobody wins an
#: exhausted round
READING = Reading(
    unit="coins", seats=("first_player", "second_player"),
    seat_words="by the round's first and second player", edge_metric="mean_net",
    edge_quantity="round.first_player.mean_net", edge_title="First-player edge",
    edge_who="the round's first player",
    no_winner=("round.exhausted_rate",), no_winner_words="exhausted",
    won_words="someone won",
    headline=(
        Line("round.first_player.mean_net", "The round's first player wins {value} {unit} a "
             "round net", "signed", verdict=True),
        Line("round.first_player.win_rate", "The round's first player wins {value} of rounds",
             "rate"),
        Line("round.exhausted_rate", "Nobody scores in {value} of rounds (exhausted)", "rate"),
        Line("game.first_player.win_rate", "Round 1's first player wins {value} of games",
             "rate"),
        Line("game.minutes.mean", "A game lasts {value} minutes"),
    ),
    labels={"round.exhausted_rate": "Round: exhausted (nobody scores)",
            "round.first_player.mean_net": "Round's first player: mean coins won a round (net)",
            "round.first_player.win_rate": "Round's first player: win rate",
            "round.second_player.win_rate": "Round's second player: win rate",
            "game.first_player.win_rate": "Round 1's first player: game win rate",
            "game.first_player.mean_margin": "Round 1's first player: mean coin margin",
            "koikoi.call_rate": "Koi-koi: share of chances to collect continued",
            "koikoi.agari_after_call_rate": "Koi-koi: share of won rounds won after a call"})


class Taipa:
    """The registry entry."""

    name = NAME
    title = "Taipa hanafuda (2 players, 6-suit deck that shrinks between rounds)"
    source = sources.dated("taipa")
    n_players = N_PLAYERS
    Rules = TaipaRules
    par = None
    teyaku_names = ()
    presets = {}
    preset_docs = {}
    rounds_per_session = SERIES_ROUNDS
    version = 3  # bump when a rule's behaviour, an option or a policy's play changes
    lookahead = True  # card play, takes, agari / koi-koi and yaku_cards=choice by lookahead
    expose = False  # no teyaku, so no expose decision (the CLI and report leave it out)
    exact_words = "deal-time yaku"  # what the report's exact comparison is about
    exact_note = ("Round 1's deal, from the full deck (or the start deck the removed_* "
                  "rules leave): one_place_holds is the share of places (the two hands and "
                  "the field, pooled) holding a yaku's cards; any_place_holds the share of "
                  "deals where a hand or the field holds them. Later rounds' decks depend on "
                  "play: `hanasim exact taipa --removed ...` gives the odds of a given "
                  "shrunken deck.")
    key_quantities = ("round.first_player.mean_net", "game.first_player.win_rate",
                      "game.minutes.mean", "game.early_end_rate")
    deals_only = True  # round 1's deal only (later decks depend on play: exact --removed)
    reading = READING

    @property
    def main_kernel(self):
        return run_chunks

    def removed_rules(self, spec: str) -> dict:
        """``hanasim exact taipa --removed three_brights,ribbons*2``: the ``removed_*`` rules
        of a deck after those yaku left play (each name once per yaku, or ``NAME*N``)."""
        opts = dict(zip(YAKU, REMOVED_OPTIONS))
        out = {o: 0 for o in REMOVED_OPTIONS}
        for item in str(spec).split(","):
            name, _, times = item.strip().partition("*")
            name = name.strip()
            if name not in opts:
                raise ValueError(f"--removed: unknown yaku {name!r}; give yaku names from "
                                 f"{', '.join(YAKU)}, each once per yaku or as NAME*N")
            if times and not is_digits(times.strip()):  # ASCII digits (hanasim.numtext)
                raise ValueError(f"--removed: {item.strip()!r}: N in NAME*N is a whole number")
            out[opts[name]] += int(times) if times else 1
        return out

    def policy_ids(self, names) -> np.ndarray:
        return np.array([parse_taipa_policy(n) for n in names], dtype=np.int64)

    def exact_table(self, rules):
        """Round 1's deal from the start deck (the full deck unless ``removed_*`` rules take
        yaku out): per place and a hand or the field."""
        from ..stats.exact import rows_table

        deck = start_deck(rules)
        cond = deck_condition(rules)
        rows = []
        for q, places in (("one_place_holds", (0,)), ("any_place_holds", (0, 1, 2))):
            for y, f in deal_probabilities(deck, places).items():
                rows.append((f"deal.{q}.{y}", cond, f))
        return rows_table(rows, NAME)

    def findings(self, by) -> list:
        def has(*qs):
            return all(q in by.index for q in qs)

        def est(q):
            return by.loc[q, "estimate"]

        out = []
        if has("game.rounds.mean", "game.minutes.mean", "game.early_end_rate"):
            out.append(f"A game lasts {est('game.rounds.mean'):.2f} rounds and "
                       f"{est('game.turns.mean'):.1f} turns, about {est('game.minutes.mean'):.1f} "
                       f"minutes at {SECONDS_PER_TURN} s a turn; {est('game.early_end_rate'):.1%} "
                       "of games end early on coins.")
        if has("game.first_player.win_rate"):
            r = by.loc["game.first_player.win_rate"]
            tie = est("game.tie_rate")
            out.append(f"Round 1's first player wins {r.estimate:.1%} of games (99.9% CI "
                       f"{r.ci_low:.1%} to {r.ci_high:.1%}), loses {1 - r.estimate - tie:.1%} "
                       f"and ties {tie:.1%} (in rounds 2 and 3 the player behind on coins "
                       "plays first).")
        ks = [k for k in range(1, MAX_ROUNDS + 1) if has(f"round.{k}.deck_size.mean")
              and by.loc[f"round.{k}.deck_size.mean", "n"] > 0]
        if len(ks) > 1:
            def seq(q, f):
                return " -> ".join(f(est(f"round.{k}.{q}")) for k in ks)

            out.append(
                f"Round by round ({', '.join(str(k) for k in ks)}): the deck holds "
                f"{seq('deck_size.mean', lambda v: f'{v:.1f}')} cards; exhausted rounds "
                f"{seq('exhausted_rate', lambda v: f'{v:.1%}')}; the round's first player "
                f"nets {seq('first_player.mean_net', lambda v: f'{v:+.2f}')} coins a round; "
                "yaku per player (three brights / boar-deer-butterflies / ribbons / chaff) "
                + "; ".join(f"round {k} " + " / ".join(
                    f"{est(f'round.{k}.yaku.{y}'):.0%}" for y in YAKU) for k in ks) + ".")
        if has("deal.any_place_holds.any", "deal.one_place_holds.any"):
            out.append(
                f"At the deal (round 1): a hand or the field already holds a yaku's cards in "
                f"{est('deal.any_place_holds.any'):.1%} of deals (chaff alone "
                f"{est('deal.any_place_holds.chaff'):.1%}, three brights "
                f"{est('deal.any_place_holds.three_brights'):.1%}); a given hand "
                f"{est('deal.one_place_holds.any'):.1%}.")
        return out

    def counters(self, rules, *, rounds, seed, policy, expose=None, session_rounds=1,
                 fixed_dealer=False, checked=False, progress=False, deals_only=False,
                 **run_options):
        from ..engine.runner import run_batches

        if int(session_rounds) != 1:
            raise ValueError("taipa plays whole games (three rounds on a shrinking deck); "
                             "session_rounds does not apply (leave it at 1)")
        tb = lower(rules, fixed_dealer=fixed_dealer, checked=checked)
        if deals_only:
            shapes = dict(scal=(C_N,), dcount=(len(YAKU) + 1, 2))
            totals = run_batches(partial(deal_kernel, tb, seed, rounds),
                                 -(-rounds // DEALS_PER_SESSION), shapes,
                                 rounds_per_session=DEALS_PER_SESSION, progress=progress,
                                 desc=f"{NAME} deals", **run_options)
            totals["deals_only"] = True
            return totals
        card, decide = decode_policies(policy)
        n_sessions = -(-rounds // SERIES_ROUNDS)
        shapes = dict(scal=(C_N,), rk=(MAX_ROUNDS, RK_N), ycount=(len(YAKU) + 1, 2),
                      dcount=(len(YAKU) + 1, 2), hist=(H_N,))
        totals = run_batches(partial(play_kernel, tb, seed, rounds, card, decide),
                             n_sessions, shapes, rounds_per_session=SERIES_ROUNDS,
                             progress=progress, desc=NAME, **run_options)
        totals["game_rounds"] = rules.game_rounds
        return totals

    def quantities(self, c, rules):
        """Round quantities per counted round (yaku per player-round), ``round.k.*`` per round
        of round number k, game quantities per game."""
        from ..stats import table as T

        s = c["scal"]
        r = s[C_ROUNDS]
        g = s[C_GAMES]
        # round 1's deal (from the start deck): pooled over the two hands and the field, and
        # a hand or the field (the union); `hanasim exact taipa` gives both exactly
        nd = s[C_DEALS]
        deal = []
        for i, y in enumerate(YAKU + ("any",)):
            deal.append(T.pooled(f"deal.one_place_holds.{y}", c["dcount"][i, 0],
                                 c["dcount"][i, 1], nd, 3))
        for i, y in enumerate(YAKU + ("any",)):
            deal.append(T.prop(f"deal.any_place_holds.{y}", s[C_DEAL_UNION + i], nd))
        if c.get("deals_only"):
            return deal
        rows = [
            T.prop("round.first_player.win_rate", s[C_FIRST_WINS], r),
            T.prop("round.second_player.win_rate", s[C_SECOND_WINS], r),
            T.prop("round.exhausted_rate", s[C_EXHAUSTED], r),
            # coins the round's first player wins minus loses: the first-player edge per round
            T.mean("round.first_player.mean_net", s[C_FIRST_NET], s[C_FIRST_NET_SQ], r),
            T.mean("round.turns.mean", s[C_TURNS], s[C_TURNS_SQ], r),
            T.mean("round.deck_size.mean", s[C_DECK], s[C_DECK_SQ], r),
            T.prop("round.short_pile_rate", s[C_SHORT_PILE], r),
            T.mean("round.cards_removed.mean", s[C_REMOVED], s[C_REMOVED_SQ], r),
            T.prop("koikoi.call_rate", s[C_CALLS], s[C_DECISIONS]),
            T.prop("koikoi.agari_after_call_rate", s[C_PAID], r - s[C_EXHAUSTED]),
            T.mean("winner_points.mean", s[C_WON_PTS], s[C_WON_PTS_SQ], r - s[C_EXHAUSTED]),
            T.prop("round.capped_payment_rate", s[C_CAPPED_PAY], r - s[C_EXHAUSTED]),
            T.prop("player1.win_rate", s[C_P0_WINS], r),
            T.mean("player1.mean_net", s[C_P0_NET], s[C_P0_NET_SQ], r),
        ]
        for i, y in enumerate(YAKU + ("any",)):
            rows.append(T.pooled(f"yaku.{y}", c["ycount"][i, 0], c["ycount"][i, 1], r, 2))
        for k in range(c["game_rounds"]):
            q = c["rk"][k]
            n = q[RK_ROUNDS]
            rows += [
                T.prop(f"round.{k + 1}.first_player.win_rate", q[RK_FIRST_WINS], n),
                T.prop(f"round.{k + 1}.second_player.win_rate", q[RK_SECOND_WINS], n),
                T.prop(f"round.{k + 1}.exhausted_rate", q[RK_EXHAUSTED], n),
                T.mean(f"round.{k + 1}.deck_size.mean", q[RK_DECK], q[RK_DECK_SQ], n),
                T.prop(f"round.{k + 1}.short_pile_rate", q[RK_SHORT], n),
                T.prop(f"round.{k + 1}.yaku_rate", q[RK_YAKU], n),
                T.mean(f"round.{k + 1}.turns.mean", q[RK_TURNS], q[RK_TURNS_SQ], n),
                T.mean(f"round.{k + 1}.first_player.mean_net", q[RK_FNET], q[RK_FNET_SQ], n),
                T.mean(f"round.{k + 1}.cards_removed.mean", q[RK_REMOVED], q[RK_REMOVED_SQ],
                       n),
            ]
            for i, y in enumerate(YAKU):
                rows.append(T.pooled(f"round.{k + 1}.yaku.{y}", q[RK_KIND + 2 * i],
                                     q[RK_KIND + 2 * i + 1], n, 2))
        f = SECONDS_PER_TURN / 60
        mins = T.mean("game.minutes.mean", s[C_GAME_TURNS], s[C_GAME_TURNS_SQ], g)
        mins = T.scaled(mins, 1 / f)
        h = c["hist"]
        rows += [
            T.mean("game.rounds.mean", s[C_GAME_ROUNDS], s[C_GAME_ROUNDS_SQ], g),
            T.mean("game.turns.mean", s[C_GAME_TURNS], s[C_GAME_TURNS_SQ], g),
            mins,
            T.prop("game.early_end_rate", s[C_EARLY], g),
            T.prop("game.deck_end_rate", s[C_DECK_END], g),
            T.prop("game.first_player.win_rate", s[C_FIRST_GAME_WINS], g),
            T.prop("game.tie_rate", s[C_GAME_TIES], g),
            T.mean("game.first_player.mean_margin", s[C_FIRST_MARGIN], s[C_FIRST_MARGIN_SQ], g),
            T.prop("player1.game.win_rate", s[C_P0_GAME_WINS], g),
            T.prop("player1.first_share", s[C_P0_FIRST], g),
            T.mean("player1.final_coins.mean", s[C_P0_COINS], s[C_P0_COINS_SQ], g),
        ]
        for k in range(1, c["game_rounds"] + 1):
            rows.append(T.prop(f"game.rounds.{k}", h[H_ROUNDS + k], g))
        if s[C_YC_DECISIONS] > 0:  # lookahead players under yaku_cards=choice only
            rows.append(T.prop("lookahead.yaku_cards_changed_rate", s[C_YC_CHANGED],
                               s[C_YC_DECISIONS]))
        top = 2 * rules.start_coins
        for v in range(0, top + 1):
            rows.append(T.prop(f"player1.final_coins.{v}", h[H_COINS + v - COIN_LO], g))
        return rows + deal  # the game's own questions first, the deal odds after


register(Taipa())
