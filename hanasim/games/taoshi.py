"""Taoshi: 3 to 6 players, three of whom play each round, on the mekurifuda deck.

Two sources: the 2022 Taoshi text (``shared/seeds/003_9adff6e6778a6a03.txt``, the rule page as
it stood in 2022, whose "End of Round and Scoring" is Sudaoshi's: a 330-point deck, burdens
100/110/120, hanafuda yaku) and the Taoshi rule page (``shared/rule-pages/
mekurifuda_games_taoshi.md``, revised 2025-09-27: the same game with the mekurifuda deck's
burdens 72/78/84 and its two dekiyaku).  The defaults follow the rule page where it speaks;
every option's text names its source.

The deck is data (``decks.MEKURIFUDA``): 4 suits x numbers 1-12, matched by number, Taoshi's
card points (234 in all), the reds and the two bakefuda as flags.  Nothing here assumes months:
the matching group of a card is its number, and because the deck keeps the four cards of a
number adjacent, the shared turn (``engine.play``) and the nibble masks of ``engine.bits`` apply.

A round
-------
1. Deal (``deal_round``; "Dealing the Cards"): from the dealer's right anticlockwise (seat 1,
   2, ..., the dealer last) 4 cards to each seated player, 3 to the field, 3 more to each, 3
   more to the field: 7 each, 6 on the field, the rest is the draw pile.  Four of one number
   on the field: misdeal, redeal.
2. Join or drop (4-6 players; "Join/Drop Phase"): from the dealer anticlockwise (seat 0, 1,
   ...) each says join or drop after seeing their hand (a policy decision); as soon as three
   have joined, the undecided are forced out; as soon as all but three have dropped, the rest
   are forced in.  ``drop_fee`` / ``forced_out_pay`` (not attested; default 0).  The dropped
   hands go on top of the draw pile, which is then shuffled (``dropped_cards``).  A dropping
   player's round is its fee and any botta it pays (below).
3. Teyaku ("Teyaku", "Teyaku Showdown"): each active player's best teyaku (highest value; ties
   in the teyaku table's order) under ``bakefuda`` and ``reds_overlap``; claiming is a policy
   decision (the ``expose`` choice, default always; a lookahead player's by lookahead).  A
   claim shows cards (``shown_cards``: Group A or C the combination's, Group B the reds);
   "the players hide their cards again", but they have been seen: in runs with a lookahead
   player they are the claimer's known cards in the play's state (``engine.state.known``),
   which a lookahead opponent keeps in that hand when it determinises.  A claimed 100
   ("botta!") ends the round before play: every other seated player, active or not, pays its
   holder 100; the round's other claimed teyaku are not paid (``botta_teyaku=void``: the round
   ends at the declaration) or are (``paid``).  A forced-out player's botta is lost
   (``forced_out_botta=lost``: only the active players claim) or claimed after the active
   players' claims (``claimed``).  Otherwise a claimed teyaku is paid by each other active
   player.
4. Play ("Gameplay"): the active players in turn order from the dealer (the dealer first if
   active), hana-awase capture by number (``engine.play``, from a resumable state that the
   lookahead policy copies and plays on); the hands run out together and the field is then
   empty (every number has four cards), so the 234 points are all captured.
5. Score ("End of Round and Scoring"): captured card points + 2 x own yaku - the other active
   players' yaku - burden, where yaku are the claimed teyaku and the captured dekiyaku
   (``dekiyaku=page``, the rule page's "Dekiyaku": Four '2's, 12, for any player; Four '3's,
   12, only for the dealer's left).  The burdens go to the active players by their place in
   the turn order: the first to play carries the dealer's, the second the right's, the third
   the left's (with three players these are the dealer, right and left seats); the same
   third player is "the player to the dealer's left" of Four '3's.  ``burden=page``
   (72/78/84, the rule page; the 2022 text's 100/110/120 are for Sudaoshi's 330-point deck).
   The highest score among the active players (and a forced-out botta claimer) wins and deals
   next; a tie goes by ``tie_winner`` (default: the first of them in turn order).

Seats are relative to the dealer: seat 0 deals, seat k is k places to the dealer's right
(anticlockwise, the turn order).  Players (who own the policies) are 0..players-1; seat s is
player ``(dealer + s) % players``.  Active "positions" 0, 1, 2 are the active seats in turn
order; their names are the burden seats ``dealer``, ``right``, ``left``.

Simulation unit: a session is ``session_rounds`` rounds; its first dealer is drawn ("Choosing
the Dealer": each player draws a card, the highest number deals, a tie draws again among the
tied), then the round's winner deals.  Round i of a session deals on stream 3i and plays on
stream 3i+1 of the session's key (the first-dealer draw: stream 3 * rounds + 2).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, partial
from typing import ClassVar, NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from ..decks import BAKEFUDA, MEKURIFUDA, RED
from ..engine.bits import (ONE, ZERO, count, has_full_nibble, lowest, nibble_counts,
                           nibbles_equal)
from ..engine.deal import deal
from ..engine.jit import hot
from ..engine import state
from ..engine.lookahead import (_add_gain, _pick, choose_expose, deal_others, determinise,
                                gather, new_scratch, round_value, samples, shuffle, uses_lookahead)
from ..engine.lookahead import play_out
from ..engine.rng import round_stream, below, shuffle_range, stream_state
from ..policies import (EXPOSE_ALWAYS, EXPOSE_RANDOM, K_SHIFT, LOOKAHEAD, POLICIES, RANDOM,
                        greedy_tables, policy_id)
from ..rules import Kind, RuleError, _check_type, number, option
from .. import sources
from .registry import register

NAME = "taoshi"
MAX_PLAYERS = 6
ACTIVE = 3
HAND_SIZE, FIELD_SIZE = 7, 6   # "7 cards are dealt to each player, and 6 cards to the table"
DECK = MEKURIFUDA
DECK_POINTS = int(DECK.points.sum())  # 234
SEATS = ("dealer", "right", "left")    # the burden seats (active positions in turn order)
TABLE_SEATS = ("dealer", "seat1", "seat2", "seat3", "seat4", "seat5")

# The teyaku in the seed's table order (group A, B, C) and their values ("Teyaku").
TEYAKU = ("triplet", "two_triplets", "three_pairs", "four_of_a_kind", "five_of_a_kind",
          "triplet_two_pairs", "four_three", "four_reds", "five_reds", "six_reds",
          "seven_reds", "four_reds_triplet", "five_reds_triplet")
TEYAKU_VALUES = (12, 60, 36, 60, 100, 60, 100, 12, 36, 60, 100, 36, 60)
NONE = len(TEYAKU)  # index of "no teyaku"
SCORE_VALUES = (100, 60, 36, 12, 0)
BOTTA = 100
(T_TRIPLET, T_TWO_TRIPLETS, T_THREE_PAIRS, T_FOUR, T_FIVE, T_TRIPLET_TWO_PAIRS, T_FOUR_THREE,
 T_FOUR_REDS, T_FIVE_REDS, T_SIX_REDS, T_SEVEN_REDS, T_FOUR_REDS_TRIPLET,
 T_FIVE_REDS_TRIPLET) = range(13)

BAKEFUDA_READINGS = ("literal", "in_sets", "everywhere", "no_number")
BURDENS = {  # dealer, right, left
    "page": (72, 78, 84),      # the Taoshi rule page, "End of Round and Scoring"
    "steps10": (68, 78, 88),   # neither source: the 2022 text's 10-point steps, summing to 234
    "equal": (78, 78, 78),     # neither source
    "proportional": (Fraction(100 * 234, 330), Fraction(110 * 234, 330), Fraction(120 * 234, 330)),
    "sudaoshi": (100, 110, 120),  # the 2022 Taoshi text (Sudaoshi's, for its 330-point deck)
}
BURDEN_UNIT = {"proportional": 11}  # 234/330 = 78/110: burdens are whole elevenths

# The dekiyaku (the Taoshi rule page, "Dekiyaku": "There are only 2 dekiyaku in Taoshi"): Four
# '2's ("Four cards with the number 2"), 12, for any player; Four '3's ("Four cards with the
# number 3. Only the player to the dealer's left may avail this dekiyaku"), 12.  They are
# captured: a player scores one when its score pile holds the four cards of that number.
DEKIYAKU = ("four_twos", "four_threes")
DEKIYAKU_NUMBERS = (2, 3)
DEKIYAKU_VALUE = 12
DEKIYAKU_READINGS = ("page", "none")
TIE_READINGS = ("first", "last", "random")


@dataclass(frozen=True)
class BurdenKind(Kind):
    """The ``burden`` option: a named reading or three whole numbers (dealer,right,left)."""

    def coerce(self, name, value, seats=()):
        allowed = self.describe()
        if isinstance(value, (list, tuple)):
            items = list(value)
        else:
            _check_type(name, value, allowed)
            text = str(value).strip()
            if text in BURDENS:
                return text
            items = [v.strip() for v in text.split(",")]
        if len(items) != 3:
            raise RuleError(f"rule {name!r} cannot be {value!r}; allowed values: {allowed}")
        out = []
        for v in items:
            if isinstance(v, bool) or not isinstance(v, (str, int, np.integer)) or not \
                    str(v).strip().lstrip("+-").isdigit():
                raise RuleError(f"rule {name!r} cannot be {value!r}; allowed values: {allowed}")
            x = int(str(v).strip())
            if not 0 <= x <= 500:
                raise RuleError(f"rule {name!r}: each burden must be from 0 to 500, got {x}")
            out.append(x)
        return tuple(out)

    def describe(self):
        return (", ".join(BURDENS) + ", or three whole numbers 0-500 for dealer,right,left "
                "(70,78,86)")


def burden_option(default, doc):
    return dataclasses.field(default=default, metadata={"choices": None, "doc": doc,
                                                         "kind": BurdenKind()})


def burdens_of(rules) -> tuple:
    """(dealer, right, left) burdens as Fractions."""
    b = rules.burden
    vals = BURDENS[b] if isinstance(b, str) else b
    return tuple(Fraction(v) for v in vals)


def burden_unit(rules) -> int:
    """Scores are counted in 1/unit points so that every burden is whole."""
    return BURDEN_UNIT.get(rules.burden, 1) if isinstance(rules.burden, str) else 1


@dataclass(frozen=True)
class TaoshiRules:
    """House rules of Taoshi.  Two sources: the 2022 Taoshi text (the rule page as it stood in
    2022, whose "End of Round and Scoring" is Sudaoshi's) and the Taoshi rule page (its
    2025-09-27 revision, which gives the mekurifuda deck's burdens and dekiyaku).  Each option's
    text says which source its default follows; where neither says, the default is hanasim's
    reading, named as such."""

    game: ClassVar[str] = NAME
    seats: ClassVar[tuple] = SEATS
    players: int = number(3, "players at the table (3 to 6); three play each round ('3 to 6 players, although only 3 players play at once': both sources)", low=3, high=6, readings={3: "three players: no join/drop phase"})
    bakefuda: str = option("literal", BAKEFUDA_READINGS, "where the bakefuda (1 and 12 of clubs) are wild (Bakefuda, both sources: 'can be used as cards of any suit in three of the Teyaku ... Triplet, Four-of-a-kind, and Five-of-a-kind'): literal (default, the text as written: wild only in the stand-alone Triplet, Four and Five of a Kind; elsewhere each counts as its printed number, 1 or 12), in_sets (also wild in the set part of Four-Three, Two Triplets, Triplet + Two Pairs and the Reds + Triplet teyaku; pairs natural), everywhere (also in pairs), no_number (as literal, but outside the wild uses a bakefuda has no number)")
    reds_overlap: str = option("yes", ("yes", "no"), "whether the cards of the triplet also count as reds in Four/Five Reds + Triplet (Group C, both sources: 'Four reds and a Triplet'): yes (default, hanasim's reading: reds are counted over the whole hand), no (the triplet's cards are not counted as reds)")
    burden: object = burden_option("page", "the point burden of the active players by turn order (the first to play carries the dealer's, the second the right's, the third the left's): page (default, 72/78/84: the Taoshi rule page, 'End of Round and Scoring', for the 234-point mekurifuda deck), steps10 (68/78/88: neither source; the 2022 Taoshi text's 10-point steps centred on 78 to sum to 234, hanasim's default before the rule page gave its burdens), equal (78 each: neither source), proportional (the 2022 Taoshi text's 100/110/120 x 234/330, fractional), sudaoshi (100/110/120 as the 2022 Taoshi text writes them: Sudaoshi's burdens for its 330-point hanafuda deck, not zero-sum, every seat loses on average), or three numbers dealer,right,left")
    dekiyaku: str = option("page", DEKIYAKU_READINGS, "the dekiyaku, scored like teyaku (2 x own - the others'): page (default, the Taoshi rule page, 'Dekiyaku': Four '2's, 12, for a player whose captured cards hold all four 2s; Four '3's, 12, the same with the four 3s, only for 'the player to the dealer's left', read as the third active player in turn order, the one who carries the left's burden), none (the 2022 Taoshi text: its yaku section is Sudaoshi's, on hanafuda cards, and names no mekurifuda dekiyaku)")
    dropped_cards: str = option("shuffled", ("shuffled", "on_top"), "the dropped players' hands go on top of the draw pile, which 'should then probably be shuffled' (Join/Drop Phase, both sources): shuffled (default: the whole draw pile is shuffled), on_top (not shuffled: the dropped hands, in seat order, on top)")
    drop_fee: int = number(0, "points each player who chooses to drop pays to each active player (Join/Drop Phase, both sources: 'Dropout penalties were not attested'; forced-out players pay none)", low=0, high=100, readings={0: "not attested: none"})
    forced_out_pay: int = number(0, "points each active player pays to each forced-out player (Join/Drop Phase, both sources: 'Forced-out compensations were not attested')", low=0, high=100, readings={0: "not attested: none"})
    botta_teyaku: str = option("void", ("void", "paid"), "the other claimed teyaku of a round that ends in a botta (Teyaku Showdown, both sources: a botta 'ends the round prematurely'; neither says whether the round's other claims are still paid): void (default, hanasim's reading: the round ends at the declaration, only botta is paid), paid (each other claimed teyaku is still paid by each other active player)")
    forced_out_botta: str = option("lost", ("lost", "claimed"), "a forced-out player's botta teyaku (4-6 players; both sources: a botta is paid by 'all other players, including inactive ones', but the showdown is the active players'): lost (default, hanasim's reading: only active players claim), claimed (a forced-out player may claim its botta after the active players' claims, as its claim choice says; every other player pays it 100 and the round ends)")
    tie_winner: str = option("first", TIE_READINGS, "the round's winner, who deals next, when the greatest score is shared ('The winner of the round is the one whose score ... is the greatest', both sources; no tie-break given): first (default, hanasim's reading: the tied player who plays first, so a tied dealer keeps the deal), last (the tied player who plays last), random (one of the tied, uniformly, a draw on the play stream)")

    def check(self):
        pass


# When an option cannot change the result (``rules.inert_options``): refused when asked for by
# name, named in the notes when a preset or a compare grid sets it.
from ..rules import declare_inert  # noqa: E402  (kept apart: a local block)


def _three_play(r, run):
    return ("with 3 players all three play: nobody drops out or is forced out"
            if r.players == 3 else None)


declare_inert(TaoshiRules, drop_fee=_three_play, forced_out_pay=_three_play,
              dropped_cards=_three_play, forced_out_botta=_three_play)


# ---------------------------------------------------------------- policies
# A player is named CARD[/JOIN[/CLAIM]]: CARD random, greedy (``policies``; greedy weighs a card
# by its Taoshi points) or lookahead[:K] (``engine.lookahead``); JOIN one of join (always),
# random (1/2), thresholdK (join when the hand's card points plus its best teyaku value is at
# least K; default 40), lookahead (``_look_join``); CLAIM, whether to claim a held teyaku:
# expose (as ``--expose`` says) or lookahead (``engine.lookahead.choose_expose``).  Defaults:
# random -> random/random/expose, greedy -> greedy/threshold40/expose, lookahead[:K] ->
# lookahead:K/lookahead/lookahead; each part defaults on its own (``lookahead:16/threshold40``
# claims by lookahead, ``lookahead:16/threshold40/expose`` as --expose says).  JOIN and CLAIM
# lookahead need a lookahead CARD.  The join decision is only asked with 4-6 players.
JOIN_ALWAYS, JOIN_RANDOM, JOIN_THRESHOLD, JOIN_LOOKAHEAD = 0, 1, 2, 3
JOINS = {"join": JOIN_ALWAYS, "random": JOIN_RANDOM, "threshold": JOIN_THRESHOLD,
         "lookahead": JOIN_LOOKAHEAD}
JOIN_DEFAULT_K = 40
CLAIM_EXPOSE, CLAIM_LOOKAHEAD = 0, 1
CLAIMS = {"expose": CLAIM_EXPOSE, "lookahead": CLAIM_LOOKAHEAD}
EXPOSE_LOOKAHEAD = 3  # PC_EXPOSE of a player claiming by lookahead (policies' EXPOSE ids: 0-2)
POLICY_FORMS = ("CARD[/JOIN[/CLAIM]]", "CARD: random, greedy, lookahead[:K]",
                "JOIN: join, random, threshold[K], lookahead (a lookahead CARD's default)",
                "CLAIM: expose (as --expose says), lookahead (a lookahead CARD's default)")
PC_CARD, PC_JOIN, PC_JPARAM, PC_EXPOSE = range(4)
PC_N = 4


def parse_taoshi_policy(name: str) -> int:
    """One packed int: card id in bits 0-3 (a lookahead's K in 32-47), join id 4-7, its
    threshold 8-23, claim id 24-27."""
    text = str(name).strip()
    parts = text.split("/")
    forms = "; ".join(POLICY_FORMS)
    if len(parts) > 3 or (parts[0] not in POLICIES and not parts[0].startswith("lookahead")):
        raise ValueError(f"unknown policy {text!r}; use {forms}")
    card = policy_id(parts[0])  # random, greedy, lookahead[:K] (K in bits 32-47)
    look = card & 0xF == LOOKAHEAD
    join = JOIN_RANDOM if card == RANDOM else JOIN_LOOKAHEAD if look else JOIN_THRESHOLD
    claim = CLAIM_LOOKAHEAD if look else CLAIM_EXPOSE
    k = JOIN_DEFAULT_K
    if len(parts) >= 2:
        word = parts[1].rstrip("0123456789")
        digits = parts[1][len(word):]
        if word not in JOINS or (digits and word != "threshold"):
            raise ValueError(f"unknown join decision {parts[1]!r} in policy {text!r}; "
                             "choose join, random, threshold[K] or lookahead")
        join = JOINS[word]
        if digits:
            k = int(digits)
            if not 0 <= k <= 300:
                raise ValueError(f"join threshold must be 0 to 300, got {k} in {text!r}")
    if len(parts) == 3:
        if parts[2] not in CLAIMS:
            raise ValueError(f"unknown claim decision {parts[2]!r} in policy {text!r}; "
                             "choose expose or lookahead")
        claim = CLAIMS[parts[2]]
    for what, by in (("join", join == JOIN_LOOKAHEAD), ("claim", claim == CLAIM_LOOKAHEAD)):
        if by and not look:
            raise ValueError(f"{what} decision lookahead in policy {text!r} needs a lookahead "
                             "CARD (lookahead[:K]/...)")
    return card | join << 4 | k << 8 | claim << 24


def decode_policies(packed, expose) -> np.ndarray:
    """int64[6, PC_N] kernel policy rows from packed ids and expose ids (one per player); a
    player claiming by lookahead has EXPOSE_LOOKAHEAD in PC_EXPOSE (its --expose is unused)."""
    out = np.zeros((MAX_PLAYERS, PC_N), dtype=np.int64)
    for i, x in enumerate(packed):
        x = int(x)
        card = (x & 0xF) | (x & (0xFFFF << K_SHIFT))
        claim = (x >> 24) & 0xF
        out[i] = (card, (x >> 4) & 0xF, (x >> 8) & 0xFFFF,
                  EXPOSE_LOOKAHEAD if claim == CLAIM_LOOKAHEAD else int(expose[i]))
    return out


# ---------------------------------------------------------------- lowering
class Tables(NamedTuple):
    points: np.ndarray     # int64[48]
    pmask: np.ndarray      # uint64[10]: the cards worth v points
    values: np.ndarray     # int64[14] teyaku values (NONE: 0)
    burden: np.ndarray     # int64[3] burdens in 1/unit points
    deal_to: np.ndarray    # int64[7 n + 6]: deck position -> seat (n = the field)
    params: np.ndarray     # int64[P_N]
    gscore: np.ndarray
    ghigh: np.ndarray


(P_PLAYERS, P_READING, P_OVERLAP_NO, P_ON_TOP, P_DROP_FEE, P_FORCED_PAY, P_UNIT,
 P_FIXED_DEALER, P_SESSION, P_DEALS_ONLY, P_RED, P_BAKE, P_DEKIYAKU, P_BOTTA_PAID,
 P_FORCED_BOTTA, P_TIE, P_TWOS, P_THREES) = range(18)
P_N = 18
TIE_FIRST, TIE_LAST, TIE_RANDOM = range(3)
READ_LITERAL, READ_IN_SETS, READ_EVERYWHERE, READ_NO_NUMBER = range(4)


def deal_sequence(n) -> np.ndarray:
    """Deck position -> seat (``n``: the field): 4 each from seat 1 round to the dealer, 3 to
    the field, 3 each, 3 to the field ("Dealing the Cards")."""
    order = [s % n for s in range(1, n + 1)]
    seq = [s for s in order for _ in range(4)] + [n] * 3 + [s for s in order for _ in range(3)]
    return np.array(seq + [n] * 3, dtype=np.int64)


def lower(rules: TaoshiRules, *, fixed_dealer=False, session_rounds=1, deals_only=False):
    p = np.zeros(P_N, dtype=np.int64)
    p[P_PLAYERS] = rules.players
    p[P_READING] = BAKEFUDA_READINGS.index(rules.bakefuda)
    p[P_OVERLAP_NO] = rules.reds_overlap == "no"
    p[P_ON_TOP] = rules.dropped_cards == "on_top"
    p[P_DROP_FEE] = rules.drop_fee
    p[P_FORCED_PAY] = rules.forced_out_pay
    unit = burden_unit(rules)
    p[P_UNIT] = unit
    p[P_FIXED_DEALER] = bool(fixed_dealer)
    p[P_SESSION] = int(session_rounds)
    p[P_DEALS_ONLY] = bool(deals_only)
    p[P_RED] = np.int64(DECK.flag_mask(RED))
    p[P_BAKE] = np.int64(DECK.flag_mask(BAKEFUDA))
    p[P_DEKIYAKU] = rules.dekiyaku == "page"
    p[P_BOTTA_PAID] = rules.botta_teyaku == "paid"
    p[P_FORCED_BOTTA] = rules.forced_out_botta == "claimed"
    p[P_TIE] = TIE_READINGS.index(rules.tie_winner)
    p[P_TWOS], p[P_THREES] = (np.int64(DECK.mask(np.flatnonzero(DECK.month == m)))
                              for m in DEKIYAKU_NUMBERS)
    burden = np.array([int(b * unit) for b in burdens_of(rules)], dtype=np.int64)
    assert all(Fraction(int(b * unit)) == b * unit for b in burdens_of(rules))
    points = DECK.points.astype(np.int64)
    values = np.array(TEYAKU_VALUES + (0,), dtype=np.int64)
    pmask = np.array([DECK.mask(np.flatnonzero(points == v)) for v in range(10)],
                     dtype=np.uint64)
    assert sum(v * bin(int(m)).count("1") for v, m in enumerate(pmask)) == DECK_POINTS
    return Tables(points, pmask, values, burden, deal_sequence(rules.players), p,
                  *greedy_tables(points.astype(np.float64)))


# ---------------------------------------------------------------- teyaku kernel
_NIB = np.uint64(0xF)


@hot
def _need(k, c):
    return k - c if c < k else 0


@hot
def _pop(k4, k3, k2, k1):
    """The largest count left in a histogram (k4 numbers with 4 cards, ...), and the rest."""
    if k4 > 0:
        return 4, k4 - 1, k3, k2, k1
    if k3 > 0:
        return 3, k4, k3 - 1, k2, k1
    if k2 > 0:
        return 2, k4, k3, k2 - 1, k1
    if k1 > 0:
        return 1, k4, k3, k2, k1 - 1
    return 0, k4, k3, k2, k1


@hot
def teyaku_formed(hand, redm, bakem, reading, overlap_no):
    """Bit t set when ``hand`` forms teyaku t (TEYAKU order), under the bakefuda reading.

    Each bakefuda in the hand is either natural (its printed number; no number under
    no_number) or wild; for every subset of them taken wild, the natural cards' per-number
    counts decide each teyaku: a group of k at a number with c natural cards needs k - c wild
    cards, and wild cards may only fill the parts the reading allows (stand-alone sets always,
    the set parts of the combinations under in_sets and everywhere, pairs under everywhere).
    Groups of one teyaku are at different numbers; sorting the counts gives the cheapest
    placement (the need is convex and decreasing in c)."""
    reds = count(hand & redm)
    bh = hand & bakem
    set_wild = reading == READ_IN_SETS or reading == READ_EVERYWHERE
    pair_wild = reading == READ_EVERYWHERE
    formed = np.int64(0)
    if reds >= 4:
        formed |= np.int64(1) << T_FOUR_REDS
    if reds >= 5:
        formed |= np.int64(1) << T_FIVE_REDS
    if reds >= 6:
        formed |= np.int64(1) << T_SIX_REDS
    if reds >= 7:
        formed |= np.int64(1) << T_SEVEN_REDS
    # subsets of the hand's bakefuda taken wild: w = 0, then each non-empty sub-mask
    w = ZERO
    while True:
        W = count(w)
        nat = hand & ~w
        if reading == READ_NO_NUMBER:
            nat &= ~bakem
        cw = nibble_counts(nat)
        # the histogram of the per-number counts (at most 4 natural cards a number), then the
        # three largest counts
        k4 = nibbles_equal(cw, 4, 12)
        k3 = nibbles_equal(cw, 3, 12)
        k2 = nibbles_equal(cw, 2, 12)
        k1 = nibbles_equal(cw, 1, 12)
        big = k4 + k3
        c1, k4, k3, k2, k1 = _pop(k4, k3, k2, k1)
        c2, k4, k3, k2, k1 = _pop(k4, k3, k2, k1)
        c3, k4, k3, k2, k1 = _pop(k4, k3, k2, k1)
        ws = W if set_wild else 0
        wp = W if pair_wild else 0
        g = c1 + W
        if g >= 3:
            formed |= np.int64(1) << T_TRIPLET
        if g >= 4:
            formed |= np.int64(1) << T_FOUR
        if g >= 5:
            formed |= np.int64(1) << T_FIVE
        if _need(3, c1) + _need(3, c2) <= ws:
            formed |= np.int64(1) << T_TWO_TRIPLETS
        if _need(4, c1) + _need(3, c2) <= ws:
            formed |= np.int64(1) << T_FOUR_THREE
        if _need(2, c1) + _need(2, c2) + _need(2, c3) <= wp:
            formed |= np.int64(1) << T_THREE_PAIRS
        if W == 0:
            # no wild card: closed forms from the histogram
            if big >= 1 and c3 >= 2:
                formed |= np.int64(1) << T_TRIPLET_TWO_PAIRS
            if big >= 1:
                left = reds
                if overlap_no:
                    # the triplet that keeps the most reds outside it
                    nonred = nibble_counts(nat & ~redm)
                    used = 3
                    for t in range(12):
                        if np.int64((cw >> np.uint64(4 * t)) & _NIB) >= 3:
                            nr = np.int64((nonred >> np.uint64(4 * t)) & _NIB)
                            used = min(used, 3 - min(3, nr))
                    left = reds - used
                if left >= 4:
                    formed |= np.int64(1) << T_FOUR_REDS_TRIPLET
                if left >= 5:
                    formed |= np.int64(1) << T_FIVE_REDS_TRIPLET
        else:
            # triplet + two pairs, and reds + triplet: try each number as the triplet's
            nonred = nibble_counts(nat & ~redm)
            for t in range(12):
                c = np.int64((cw >> np.uint64(4 * t)) & _NIB)
                n3 = _need(3, c)
                if n3 > ws:
                    continue
                o1 = 0
                o2 = 0
                for u in range(12):
                    if u != t:
                        d = np.int64((cw >> np.uint64(4 * u)) & _NIB)
                        if d > o1:
                            o2 = o1
                            o1 = d
                        elif d > o2:
                            o2 = d
                rest = W - n3 if pair_wild else 0
                if _need(2, o1) + _need(2, o2) <= rest:
                    formed |= np.int64(1) << T_TRIPLET_TWO_PAIRS
                left = reds
                if overlap_no:
                    nr = np.int64((nonred >> np.uint64(4 * t)) & _NIB)
                    left = reds - (3 - min(3, nr))
                if left >= 4:
                    formed |= np.int64(1) << T_FOUR_REDS_TRIPLET
                if left >= 5:
                    formed |= np.int64(1) << T_FIVE_REDS_TRIPLET
        if w == bh:
            break
        w = (w - bh) & bh  # next sub-mask of bh
    return formed


@hot
def best_teyaku(formed, values):
    """The highest-valued teyaku formed; equal values resolve in table order; NONE if none."""
    best = NONE
    bv = 0
    for t in range(NONE):
        if (formed >> t) & 1 and values[t] > bv:
            bv = values[t]
            best = t
    return best


@hot
def shown_cards(hand, t, redm, bakem, reading, overlap_no):
    """The cards a claim of teyaku ``t`` (formed by ``hand``) shows ("Teyaku Showdown": "For
    teyaku in Group A or C, show all cards that are part of the combination.  For teyaku in
    Group B, only the Red cards need to be shown").

    Group B: the hand's reds (a claimed Four/Five/Six/Seven Reds is the hand's best teyaku,
    so the hand holds exactly that many reds).  Groups A and C: the smallest set of the hand's
    cards that forms ``t`` by itself under the rules' bakefuda reading and ``reds_overlap``
    (``teyaku_formed``); where a hand forms it in more than one way with as few cards (two
    triplets to pick from, a bakefuda or a natural card, which reds go with the triplet), the
    lowest card mask (of two such sets, the one whose highest card not in both is lower).
    Neither text says which cards a player shows then: this is a documented choice."""
    if t >= T_FOUR_REDS and t <= T_SEVEN_REDS:
        return hand & redm
    best = hand
    bn = count(hand) + 1
    sub = hand
    while sub != ZERO:
        k = count(sub)
        if k >= 3 and (k < bn or (k == bn and sub < best)) and \
                (teyaku_formed(sub, redm, bakem, reading, overlap_no) >> t) & 1:
            best = sub
            bn = k
        sub = (sub - ONE) & hand
    return best


# ---------------------------------------------------------------- round kernel
# result slots; per-seat blocks are MAX_PLAYERS wide (seats relative to the dealer), per-position
# blocks ACTIVE wide (active positions in turn order)
R_SCORE, R_RAW, R_CHOICE, R_POS, R_TEY, R_CLAIM = (0, 6, 12, 18, 24, 30)
R_PTS, R_YAKU, R_ACT_SEAT = 36, 39, 42
(R_WINNER, R_BOTTA, R_MISDEALS, R_FIELD, R_TOP, R_PILE0, R_PILE1, R_PILE2, R_HAND0, R_HAND1,
 R_HAND2, R_N_PLAYERS) = range(45, 57)
R_DEKI, R_TIED = 57, 60
R_N = 61
# R_SCORE: score in 1/unit points (burden included); R_RAW: score without the burden (points)
# R_DEKI: per active position, the dekiyaku scored (bit 0 Four '2's, bit 1 Four '3's)
# R_TIED: 1 when the greatest score of the round's candidates for winner is shared
# R_CHOICE: 0 seated (3 players), 1 chose join, 2 chose drop, 3 forced in, 4 forced out
CH_SEATED, CH_JOIN, CH_DROP, CH_FORCED_IN, CH_FORCED_OUT = 0, 1, 2, 3, 4
PBUF = 21  # the draw pile after the drops: 48 - 3 x 7 - 6


@hot(inline="always")
def deal_round(drng, order, tb, hands):
    """Shuffle and deal until the field holds no four of a number; hands[s] and hands[n] (the
    field) are filled; returns the misdeals.  Only the dealt cards are shuffled until the deal
    stands; then the draw pile's order is finished (as every game here)."""
    n = tb.params[P_PLAYERS]
    misdeals = 0
    while True:
        shuffle_range(drng, order, 0, tb.deal_to.shape[0])
        deal(order, tb.deal_to, hands)
        if not has_full_nibble(hands[n]):
            break
        misdeals += 1
    if tb.params[P_DEALS_ONLY] == 0:
        shuffle_range(drng, order, tb.deal_to.shape[0], order.shape[0])
    return misdeals


@hot
def hand_points(hand, pmask):
    """Card points of a set of cards: popcounts by point value."""
    s = 0
    for v in range(1, 10):
        s += v * count(hand & pmask[v])
    return s


@hot
def play_round(drng, rng, order, hands, pbuf, st, pol3, tb, pol, dealer, res, look):
    """Deal and play one round (module docstring, "A round"); results in ``res``.

    ``drng``: the deal stream (the deal, the dropped cards' shuffle); ``rng``: the play stream
    (join, expose, then the card play).  ``pol[player]``: a policy row (PC_* columns)."""
    p = tb.params
    n = p[P_PLAYERS]
    redm = np.uint64(p[P_RED])
    bakem = np.uint64(p[P_BAKE])
    for i in range(R_N):
        res[i] = 0
    res[R_N_PLAYERS] = n
    for s in range(MAX_PLAYERS):
        res[R_POS + s] = -1
        res[R_TEY + s] = NONE
    res[R_MISDEALS] = deal_round(drng, order, tb, hands)
    field = hands[n]
    for s in range(n):
        res[R_TEY + s] = best_teyaku(teyaku_formed(hands[s], redm, bakem, p[P_READING],
                                                   p[P_OVERLAP_NO]), tb.values)
    if p[P_DEALS_ONLY]:
        return
    # join or drop: from the dealer anticlockwise (seats 0, 1, ...)
    joined = 0
    dropped = 0
    for s in range(n):
        q = dealer + s
        q = q - n if q >= n else q
        if n == ACTIVE:
            ch = CH_SEATED
        elif joined == ACTIVE:
            ch = CH_FORCED_OUT
        elif dropped == n - ACTIVE:
            ch = CH_FORCED_IN
        else:
            jp = pol[q, PC_JOIN]
            if jp == JOIN_ALWAYS:
                yes = True
            elif jp == JOIN_RANDOM:
                yes = below(rng, 2) == 1
            else:
                yes = (hand_points(hands[s], tb.pmask) + tb.values[res[R_TEY + s]]
                       >= pol[q, PC_JPARAM])
                if look is not None:  # noqa: SIM102  (pruned with None)
                    if jp == JOIN_LOOKAHEAD:
                        yes = _look_join(rng, hands, s, res, tb, yes, samples(pol[q, PC_CARD]),
                                         look)
            ch = CH_JOIN if yes else CH_DROP
        res[R_CHOICE + s] = ch
        if ch == CH_DROP or ch == CH_FORCED_OUT:
            dropped += 1
        else:
            res[R_POS + s] = joined
            res[R_ACT_SEAT + joined] = s
            joined += 1
    # the draw pile: the dropped hands on top (in seat order, each in dealt order), the rest
    nd = HAND_SIZE * n + FIELD_SIZE
    k = 0
    if n > ACTIVE:
        for s in range(n):
            if res[R_POS + s] < 0:
                for i in range(nd):
                    if tb.deal_to[i] == s:
                        pbuf[k] = order[i]
                        k += 1
    for i in range(nd, order.shape[0]):
        pbuf[k] = order[i]
        k += 1
    if n > ACTIVE and p[P_ON_TOP] == 0:
        shuffle_range(drng, pbuf, 0, PBUF)
    # fees between active and dropped players (not attested; default 0)
    for s in range(n):
        ch = res[R_CHOICE + s]
        if ch == CH_DROP and p[P_DROP_FEE] != 0:
            res[R_RAW + s] -= ACTIVE * p[P_DROP_FEE]
            for j in range(ACTIVE):
                res[R_RAW + res[R_ACT_SEAT + j]] += p[P_DROP_FEE]
        elif ch == CH_FORCED_OUT and p[P_FORCED_PAY] != 0:
            res[R_RAW + s] += ACTIVE * p[P_FORCED_PAY]
            for j in range(ACTIVE):
                res[R_RAW + res[R_ACT_SEAT + j]] -= p[P_FORCED_PAY]
    # the play's state (``engine.state``: the three active hands in turn order), which a claim
    # by lookahead determinises
    for j in range(ACTIVE):
        s = res[R_ACT_SEAT + j]
        pol3[j] = pol[(dealer + s) % n, PC_CARD]
        st[j] = hands[s]
        st[ACTIVE + 1 + j] = ZERO
        st[state.known(ACTIVE, j)] = ZERO
    st[ACTIVE] = field
    st[2 * ACTIVE + 1] = 0
    st[2 * ACTIVE + 2] = 0
    # teyaku showdown, active positions in turn order
    botta = 0
    for j in range(ACTIVE):
        s = res[R_ACT_SEAT + j]
        t = res[R_TEY + s]
        if t != NONE:
            e = pol[(dealer + s) % n, PC_EXPOSE]
            if e == EXPOSE_LOOKAHEAD:
                claim = True  # (a lookahead player always has a context: look is not None)
                if look is not None:
                    r, claim = choose_expose(st, ACTIVE, j, pbuf, rng[0], samples(pol3[j]),
                                             tb.gscore, tb.ghigh, look, R_YAKU + j,
                                             tb.values[t])
                    rng[0] = r
            else:
                claim = e == EXPOSE_ALWAYS or (e == EXPOSE_RANDOM and below(rng, 2) == 1)
            if claim:
                res[R_CLAIM + s] = 1
                res[R_YAKU + j] = tb.values[t]
                if look is not None:
                    # the claim shows cards ("Teyaku Showdown"): hidden again, but seen, so a
                    # lookahead opponent keeps them in this hand when it determinises
                    # (``engine.lookahead.determinise``).  Only the lookahead reads known
                    # masks: runs without it skip this (same tables, no cost).
                    st[state.known(ACTIVE, j)] = shown_cards(hands[s], t, redm, bakem,
                                                             p[P_READING], p[P_OVERLAP_NO])
                if tb.values[t] == BOTTA:
                    botta += 1
    # a forced-out player's botta (forced_out_botta=claimed): after the active players' claims,
    # in seat order, as its claim choice says (a lookahead claimer always claims: the botta is
    # paid by every other player and changes nothing else of its round)
    if p[P_FORCED_BOTTA] != 0 and n > ACTIVE:
        for s in range(n):
            if res[R_CHOICE + s] == CH_FORCED_OUT and tb.values[res[R_TEY + s]] == BOTTA:
                e = pol[(dealer + s) % n, PC_EXPOSE]
                if e == EXPOSE_LOOKAHEAD or e == EXPOSE_ALWAYS or \
                        (e == EXPOSE_RANDOM and below(rng, 2) == 1):
                    res[R_CLAIM + s] = 1
                    botta += 1
    if botta:
        settle_botta(res, n, tb)
        for j in range(ACTIVE):
            res[R_HAND0 + j] = np.int64(hands[res[R_ACT_SEAT + j]])
        res[R_FIELD] = np.int64(field)
    else:
        play_from(st, pbuf, rng, pol3, tb, look)
        settle_play(st, res, n, tb)
    round_winner(res, n, p[P_TIE], rng)


@hot
def settle_botta(res, n, tb):
    """A botta round's scores ("botta!"): every other player, active or not, pays each botta
    holder 100; no play, no burden; under ``botta_teyaku=paid`` the other claimed teyaku are
    paid by each other active player.  ``res``: the round's seats, choices and claims (R_RAW
    holds the fees)."""
    p = tb.params
    res[R_BOTTA] = 1
    for h in range(n):
        if _botta_holder(res, h):
            for s in range(n):
                res[R_RAW + s] += BOTTA * (n - 1) if s == h else -BOTTA
    if p[P_BOTTA_PAID]:
        ysum = 0
        for j in range(ACTIVE):
            ysum += _non_botta(res[R_YAKU + j])
        for j in range(ACTIVE):
            res[R_RAW + res[R_ACT_SEAT + j]] += 3 * _non_botta(res[R_YAKU + j]) - ysum
    for s in range(n):
        res[R_SCORE + s] = p[P_UNIT] * res[R_RAW + s]


@hot
def settle_play(st, res, n, tb):
    """A played round's scores from the final play state ``st`` (the active positions' score
    piles): "(captured card points) + (2 x captured yaku points) - (opponents' captured yaku
    points) - (point burden)" (the Taoshi rule page), where a position's yaku are its claimed
    teyaku (R_YAKU) and its dekiyaku (``dekiyaku_formed``, recorded in R_DEKI)."""
    p = tb.params
    ysum = 0
    for j in range(ACTIVE):
        d = dekiyaku_formed(st[ACTIVE + 1 + j], j, p)
        res[R_DEKI + j] = d
        ysum += res[R_YAKU + j] + dekiyaku_value(d)
    for j in range(ACTIVE):
        s = res[R_ACT_SEAT + j]
        pts = hand_points(st[ACTIVE + 1 + j], tb.pmask)
        res[R_PTS + j] = pts
        y = res[R_YAKU + j] + dekiyaku_value(res[R_DEKI + j])
        res[R_RAW + s] += pts + 3 * y - ysum  # 2 x own yaku - the others'
        res[R_PILE0 + j] = np.int64(st[ACTIVE + 1 + j])
        res[R_HAND0 + j] = np.int64(st[j])
    for s in range(n):
        res[R_SCORE + s] = p[P_UNIT] * res[R_RAW + s]
        if res[R_POS + s] >= 0:
            res[R_SCORE + s] -= tb.burden[res[R_POS + s]]
    res[R_FIELD] = np.int64(st[ACTIVE])
    res[R_TOP] = np.int64(st[2 * ACTIVE + 1])


@hot
def _non_botta(y):
    return 0 if y == BOTTA else y


@hot
def _botta_holder(res, s):
    """Whether seat ``s`` claimed a botta: an active player's claimed 100, or a forced-out
    player's claim (only a botta is ever claimed by one)."""
    j = res[R_POS + s]
    if j >= 0:
        return res[R_YAKU + j] == BOTTA
    return res[R_CHOICE + s] == CH_FORCED_OUT and res[R_CLAIM + s] != 0


@hot
def dekiyaku_formed(pile, j, params):
    """The dekiyaku a score pile scores for active position ``j`` (the Taoshi rule page,
    "Dekiyaku"): bit 0 Four '2's (all four 2s captured; any player), bit 1 Four '3's (all four
    3s; only the dealer's left, the third to play).  None under ``dekiyaku=none``."""
    if params[P_DEKIYAKU] == 0:
        return 0
    d = 0
    twos = np.uint64(params[P_TWOS])
    threes = np.uint64(params[P_THREES])
    if pile & twos == twos:
        d |= 1
    if j == ACTIVE - 1 and pile & threes == threes:
        d |= 2
    return d


@hot
def dekiyaku_value(d):
    return DEKIYAKU_VALUE * ((d & 1) + ((d >> 1) & 1))


@hot
def round_winner(res, n, tie, rng):
    """The round's winner ("End of Round and Scoring": the greatest score): the candidates are
    the active players in turn order, then (a botta round) the forced-out players who claimed a
    botta, in seat order; a shared greatest score goes by ``tie_winner`` (first or last of the
    tied in that order, or one of them uniformly: a draw on the play stream)."""
    best = res[R_SCORE + res[R_ACT_SEAT]]
    k = 0
    for s in range(n):
        if res[R_POS + s] >= 0 or _botta_holder(res, s):
            if res[R_SCORE + s] > best:
                best = res[R_SCORE + s]
    # the tied candidates, in order: actives by turn order, then forced-out claimers by seat
    w = -1
    pick = 0
    for rep in range(2):
        k2 = 0
        for i in range(ACTIVE + n):
            if i < ACTIVE:
                s = res[R_ACT_SEAT + i]
            else:
                s = i - ACTIVE
                if res[R_POS + s] >= 0 or not _botta_holder(res, s):
                    continue
            if res[R_SCORE + s] != best:
                continue
            if rep == 0:
                k += 1
            else:
                if (tie == TIE_FIRST and k2 == 0) or (tie == TIE_LAST and k2 == k - 1) or \
                        (tie == TIE_RANDOM and k2 == pick):
                    w = s
                k2 += 1
        if rep == 0 and tie == TIE_RANDOM and k > 1:
            pick = below(rng, k)
    res[R_TIED] = k > 1
    res[R_WINNER] = w


ST_N = state.size(ACTIVE)


@overload(round_value)
def _round_value(tables, st, seat, res):
    """The lookahead's rollout value for the active player at turn position ``seat``: its card
    points + 3 x its yaku (claimed teyaku and dekiyaku) - every yaku (2 x own - the others') -
    its burden ("End of Round and Scoring"), in the kernel's 1/unit points; with a botta claimed
    in ``res`` (a claim by lookahead scores one), the botta's payments instead (the round ends
    before play: no card points, no dekiyaku, no burden) and, under ``botta_teyaku=paid``, the
    other claims' payments.  Fees are the same whatever it decides, so they are left out."""
    if isinstance(tables, types.BaseNamedTuple) and tables.instance_class is Tables:
        def value(tables, st, seat, res):
            p = tables.params
            paid = 0
            botta = False
            nb = 0
            for j in range(ACTIVE):
                nb += _non_botta(res[R_YAKU + j])
                if res[R_YAKU + j] == BOTTA:
                    botta = True
                    paid += BOTTA * (p[P_PLAYERS] - 1) if j == seat else -BOTTA
            if botta:
                if p[P_BOTTA_PAID]:
                    paid += 3 * _non_botta(res[R_YAKU + seat]) - nb
                return p[P_UNIT] * paid
            ysum = 0
            own = 0
            for j in range(ACTIVE):
                y = res[R_YAKU + j] + dekiyaku_value(dekiyaku_formed(st[ACTIVE + 1 + j], j, p))
                ysum += y
                if j == seat:
                    own = y
            raw = hand_points(st[ACTIVE + 1 + seat], tables.pmask) + 3 * own - ysum
            return p[P_UNIT] * raw - tables.burden[seat]
        return value


@hot
def play_from(st, pbuf, rng, pol3, tb, look):
    """Play the three active hands in state ``st`` (``engine.state``, 3 seats in turn order,
    the draw pile ``pbuf``) to the end of the round: the shared turn (``engine.play``).  A
    lookahead player (``look``: its context, else None) copies ``st`` and plays out a
    determinisation of it with the same turn (``engine.lookahead``)."""
    play_out(st, ACTIVE, pbuf, rng, pol3, 0, tb.gscore, tb.ghigh, look)


# ---------------------------------------------------------------- lookahead (engine.lookahead)
# A lookahead player plays its cards by ``engine.lookahead`` (``play_out``); it claims a held
# teyaku by ``engine.lookahead.choose_expose`` (the mean round score with the claim against
# without it, on K determinisations of the other active hands and the draw pile; a botta's
# value is its payments, ``round_value``), and it joins or drops by ``_look_join``: the round
# dealt again from the cards it cannot see, as Kushiro Toppa's.  A claim's shown cards are
# known to the lookahead opponents (``play_round``), but ``choose_expose``'s rollouts play
# every seat by greedy, which reads no information: the play of a rollout is the same with the
# cards shown or not, so the claim's cost of showing is not seen there, and a lookahead claims
# whenever the claim scores (every teyaku, but a non-botta one after another's botta).
A_TEY, A_STRONG, A_CHOICE, A_ACTIVE = 0, 8, 16, 24   # scratch ``aux`` slots of ``_look_join``
FULL = np.uint64((1 << 48) - 1)


@hot
def _join_value(sc, tb, s, n, res, join, x, r):
    """Seat ``s``'s score (1/unit points) in one determinisation of ``_look_join`` (the other
    seats' hands in ``sc.high``, dealt in order from ``sc.cards``; the undealt cards from
    ``sc.cards[x]``) when it joins (``join``) or drops.  The earlier seats' choices are as
    they spoke, the later seats speak by greedy's threshold (``sc.aux[A_STRONG + o]``), and
    the forced-in/-out rule applies; every active player claims its teyaku (and, under
    ``forced_out_botta=claimed``, a forced-out player its botta); a botta is paid by every
    seat, active or not, and ends the round (``botta_teyaku=paid``: the other claims are
    paid too); otherwise, if ``s`` plays, the round is played by greedy and scored with its
    dekiyaku.  Fees (``drop_fee``, ``forced_out_pay``) count: a dropping seat's
    result is its fee and any botta it pays.  Returns (score, the generator state ``r``)."""
    p = tb.params
    joined = 0
    dropped = 0
    for o in range(n):
        if o < s:
            ch = res[R_CHOICE + o]
        elif joined == ACTIVE:
            ch = CH_FORCED_OUT
        elif dropped == n - ACTIVE:
            ch = CH_FORCED_IN
        elif o == s:
            ch = CH_JOIN if join else CH_DROP
        else:
            ch = CH_JOIN if sc.aux[A_STRONG + o] != 0 else CH_DROP
        sc.aux[A_CHOICE + o] = ch
        if ch == CH_DROP or ch == CH_FORCED_OUT:
            dropped += 1
        else:
            sc.aux[A_ACTIVE + joined] = o
            joined += 1
    # fees ("Join/Drop Phase"; not attested, default 0)
    me = -1
    for j in range(ACTIVE):
        if sc.aux[A_ACTIVE + j] == s:
            me = j
    fee = 0
    mine = sc.aux[A_CHOICE + s]
    if mine == CH_DROP:
        fee -= ACTIVE * p[P_DROP_FEE]
    elif mine == CH_FORCED_OUT:
        fee += ACTIVE * p[P_FORCED_PAY]
    else:
        for o in range(n):
            if sc.aux[A_CHOICE + o] == CH_DROP:
                fee += p[P_DROP_FEE]
            elif sc.aux[A_CHOICE + o] == CH_FORCED_OUT:
                fee -= p[P_FORCED_PAY]
    # claims (all), a botta, and (forced_out_botta=claimed) a forced-out player's botta
    ysum = 0
    nb = 0
    paid = 0
    botta = False
    for j in range(ACTIVE):
        y = sc.aux[A_TEY + sc.aux[A_ACTIVE + j]]
        ysum += y
        nb += _non_botta(y)
        if y == BOTTA:
            botta = True
            paid += BOTTA * (n - 1) if j == me else -BOTTA
    if p[P_FORCED_BOTTA] != 0:
        for o in range(n):
            if sc.aux[A_CHOICE + o] == CH_FORCED_OUT and sc.aux[A_TEY + o] == BOTTA:
                botta = True
                paid += BOTTA * (n - 1) if o == s else -BOTTA
    unit = p[P_UNIT]
    if botta:
        if me >= 0 and p[P_BOTTA_PAID]:
            paid += 3 * _non_botta(sc.aux[A_TEY + s]) - nb
        return unit * (paid + fee), r
    if me < 0:
        return unit * fee, r
    # the draw pile: the dropped hands (in seat order) on top of the undealt cards
    k = 0
    for o in range(n):
        if o != s and sc.aux[A_CHOICE + o] != CH_JOIN and sc.aux[A_CHOICE + o] != CH_FORCED_IN:
            at = HAND_SIZE * (o if o < s else o - 1)
            for i in range(at, at + HAND_SIZE):
                sc.order[k] = sc.cards[i]
                k += 1
    for i in range(x, x + PBUF - k):
        sc.order[k] = sc.cards[i]
        k += 1
    if p[P_ON_TOP] == 0:
        r = shuffle(sc.order, PBUF, r)
    for j in range(ACTIVE):
        sc.st[j] = sc.high[sc.aux[A_ACTIVE + j]]
        sc.st[ACTIVE + 1 + j] = ZERO
        sc.st[state.known(ACTIVE, j)] = ZERO
    sc.st[ACTIVE] = sc.high[n]
    sc.st[2 * ACTIVE + 1] = 0
    sc.st[2 * ACTIVE + 2] = 0
    play_out(sc.st, ACTIVE, sc.order, sc.rng, sc.greedy, 0, tb.gscore, tb.ghigh, None)
    pts = hand_points(sc.st[ACTIVE + 1 + me], tb.pmask)
    y = sc.aux[A_TEY + s]
    for j in range(ACTIVE):
        d = dekiyaku_value(dekiyaku_formed(sc.st[ACTIVE + 1 + j], j, p))
        ysum += d
        if j == me:
            y += d
    return unit * (pts + 3 * y - ysum + fee) - tb.burden[me], r


@hot
def _look_join(rng, hands, s, res, tb, yes, k, look):
    """Join (True) or drop for a lookahead player at seat ``s`` (4-6 players): the JOIN
    policy's own choice ``yes`` (greedy's threshold) unless the other one's mean gain, paired
    on K determinisations, exceeds one standard error (``engine.lookahead._pick``).  A
    determinisation deals the other seats' hands and the draw pile again from the cards the
    seat cannot see (everything but its hand and the field); each choice is then worth
    :func:`_join_value` (joining: the round played by greedy; dropping: the fee and any botta
    paid).  ``res``: the earlier seats' R_CHOICE.  Returns the choice."""
    if look is None:  # typed, not run
        return yes
    _t, _r, sc = look
    p = tb.params
    n = p[P_PLAYERS]
    redm = np.uint64(p[P_RED])
    bakem = np.uint64(p[P_BAKE])
    mine = hands[s]
    field = hands[n]
    m = gather(sc.cards, ~(mine | field) & FULL)
    r = rng[0]
    sc.total[1] = 0.0
    sc.total2[1] = 0.0
    for _ in range(k):
        r = shuffle(sc.cards, m, r)
        x = deal_others(sc.cards, sc.high, 0, n, s, mine, HAND_SIZE)
        for o in range(n):
            h = sc.high[o]
            v = tb.values[best_teyaku(teyaku_formed(h, redm, bakem, p[P_READING],
                                                    p[P_OVERLAP_NO]), tb.values)]
            sc.aux[A_TEY + o] = v
            sc.aux[A_STRONG + o] = hand_points(h, tb.pmask) + v >= JOIN_DEFAULT_K
        sc.high[n] = field
        vj, r = _join_value(sc, tb, s, n, res, True, x, r)
        vd, r = _join_value(sc, tb, s, n, res, False, x, r)
        _add_gain(sc, 1, float(vd if yes else vj), float(vj if yes else vd))
    rng[0] = r
    return yes != (_pick(sc, 2, k) == 1)


@njit(cache=True)
def lookahead_join(tb, hands, s, res, seed, k):
    """A lookahead player's join (True) or drop at seat ``s`` (``hands``: every seat's hand,
    then the field), with ``k`` determinisations on the stream ``seed`` (``res``: the earlier
    seats' R_CHOICE; the JOIN policy's own choice is greedy's threshold 40).  For tests."""
    look = (tb, res, new_scratch(ST_N, PBUF, ACTIVE))
    rng = np.full(1, seed, dtype=np.uint64)
    tey = best_teyaku(teyaku_formed(hands[s], np.uint64(tb.params[P_RED]),
                                    np.uint64(tb.params[P_BAKE]), tb.params[P_READING],
                                    tb.params[P_OVERLAP_NO]), tb.values)
    yes = hand_points(hands[s], tb.pmask) + tb.values[tey] >= JOIN_DEFAULT_K
    return _look_join(rng, hands, s, res, tb, yes, k, look)


@njit(cache=True)
def lookahead_claim(tb, st, pbuf, j, res, seed, k, v):
    """Whether a lookahead player at active position ``j`` of the play state ``st`` (draw pile
    ``pbuf``, unseen) claims a teyaku worth ``v``, with ``k`` determinisations on the stream
    ``seed`` (``res``: the earlier positions' claims in R_YAKU).  For tests."""
    look = (tb, res, new_scratch(ST_N, PBUF, ACTIVE))
    return choose_expose(st, ACTIVE, j, pbuf, np.uint64(seed), k, tb.gscore, tb.ghigh, look,
                         R_YAKU + j, v)[1]


@njit(cache=True)
def lookahead_value(tb, st, j, res):
    """The lookahead's rollout value (``round_value``) of active position ``j`` for the final
    play state ``st`` and the claims in ``res``.  For tests."""
    return round_value(tb, st, j, res)


@njit(cache=True)
def lookahead_views(st, pbuf, j, seed, k):
    """``k`` determinisations of the play state ``st`` (draw pile ``pbuf``) as the lookahead
    player at active position ``j`` deals them (``engine.lookahead.determinise``, as every
    lookahead decision of the play does): (uint64[k, ST_N] states, int64[k, PBUF] draw piles).
    For tests."""
    sc = new_scratch(ST_N, PBUF, ACTIVE)
    states = np.zeros((k, ST_N), np.uint64)
    piles = np.zeros((k, PBUF), np.int64)
    s = np.uint64(seed)
    for i in range(k):
        s = determinise(st, ACTIVE, j, pbuf, np.int64(st[state.top(ACTIVE)]), s, sc)
        for x in range(ST_N):
            states[i, x] = sc.base[x]
        for x in range(PBUF):
            piles[i, x] = sc.order[x]
    return states, piles


@njit(cache=True)
def lookahead_round(tb, pol, dealer, seed):
    """One round (``play_round``, with a lookahead context as ``run_chunks`` gives it) dealt
    on stream 0 and played on stream 1 of the session key of ``seed``: (the dealt hands and
    field, the play state after the round, the results).  For tests."""
    rng = np.zeros(1, dtype=np.uint64)
    drng = np.zeros(1, dtype=np.uint64)
    order = np.arange(48).astype(np.int8)
    hands = np.zeros(MAX_PLAYERS + 1, dtype=np.uint64)
    pbuf = np.zeros(PBUF, dtype=np.int8)
    st = np.zeros(ST_N, dtype=np.uint64)
    pol3 = np.zeros(ACTIVE, dtype=np.int64)
    res = np.zeros(R_N, dtype=np.int64)
    key = stream_state(np.uint64(seed), 0)
    round_stream(drng, key, 0, order)
    rng[0] = stream_state(key, np.uint64(1))
    look = (tb, res, new_scratch(ST_N, PBUF, ACTIVE))
    play_round(drng, rng, order, hands, pbuf, st, pol3, tb, pol, dealer, res, look)
    return hands, st, res


@hot
def first_dealer(drng, order, n):
    """Each player draws one card; the highest number deals; tied players draw again."""
    cand = (1 << n) - 1
    while True:
        shuffle_range(drng, order, 0, n)
        best = -1
        for q in range(n):
            if (cand >> q) & 1:
                best = max(best, order[q] >> 2)
        new = 0
        for q in range(n):
            if (cand >> q) & 1 and (order[q] >> 2) == best:
                new |= 1 << q
        cand = new
        if (cand & (cand - 1)) == 0:
            return lowest(np.uint64(cand))


# counters
(C_DEALS, C_MISDEALS, C_ROUNDS, C_BOTTA, C_PLAYED, C_SESSIONS, C_CLAIMS, C_FIRST_TOTAL,
 C_FIRST_TOTAL_SQ, C_FIRST_WINS, C_SUM_SCORE, C_SUM_SCORE_SQ, C_TWOS, C_THREES,
 C_TIES) = range(15)
C_POS = 16
(K_RAW, K_RAW_SQ, K_SCORE, K_SCORE_SQ, K_PTS, K_PTS_SQ, K_YAKU, K_YAKU_SQ, K_WINS, K_DEKI,
 K_DEKI_SQ) = range(11)
K_N = 11
C_SEAT = C_POS + K_N * ACTIVE
(S_SCORE, S_SCORE_SQ, S_WINS, S_PLAYS, S_JOIN, S_DROP, S_FORCED_IN, S_FORCED_OUT, S_BOTTA_PAID,
 S_JOIN_STRENGTH) = range(10)
S_N = 10
C_PLAYER = C_SEAT + S_N * MAX_PLAYERS
(Q_SCORE, Q_SCORE_SQ, Q_DEALS, Q_WINS, Q_PLAYS) = range(5)
Q_N = 5
C_N = C_PLAYER + Q_N * MAX_PLAYERS


@hot
def tally_deal(scal, tcount, vcount, res, n, values):
    """Per dealt hand: its best teyaku and its value; per round the count k of hands with each
    and k * k (pooled proportions), k * k as k + 2 x the pairs of hands that agree."""
    scal[C_DEALS] += res[R_MISDEALS] + 1
    scal[C_MISDEALS] += res[R_MISDEALS]
    scal[C_ROUNDS] += 1
    for s in range(n):
        t = res[R_TEY + s]
        v = _value_index(values[t])
        tcount[t, 0] += 1
        tcount[t, 1] += 1
        vcount[v, 0] += 1
        vcount[v, 1] += 1
        for s2 in range(s):
            t2 = res[R_TEY + s2]
            if t2 == t:
                tcount[t, 1] += 2
            if _value_index(values[t2]) == v:
                vcount[v, 1] += 2


@hot
def _value_index(v):
    """Index of a teyaku value in SCORE_VALUES (100, 60, 36, 12, 0)."""
    return 0 if v == 100 else 1 if v == 60 else 2 if v == 36 else 3 if v == 12 else 4


@hot
def tally_round(scal, res, dealer, n):
    scal[C_BOTTA] += res[R_BOTTA]
    scal[C_PLAYED] += 1 - res[R_BOTTA]
    w = res[R_WINNER]
    tot = 0
    for j in range(ACTIVE):
        s = res[R_ACT_SEAT + j]
        b = C_POS + K_N * j
        x = res[R_RAW + s]
        scal[b + K_RAW] += x
        scal[b + K_RAW_SQ] += x * x
        x = res[R_SCORE + s]
        scal[b + K_SCORE] += x
        scal[b + K_SCORE_SQ] += x * x
        x = res[R_PTS + j]
        scal[b + K_PTS] += x
        scal[b + K_PTS_SQ] += x * x
        x = res[R_YAKU + j]
        scal[b + K_YAKU] += x
        scal[b + K_YAKU_SQ] += x * x
        scal[b + K_WINS] += w == s
        scal[C_CLAIMS] += res[R_CLAIM + s]
        d = res[R_DEKI + j]
        x = dekiyaku_value(d)
        scal[b + K_DEKI] += x
        scal[b + K_DEKI_SQ] += x * x
        scal[C_TWOS] += d & 1
        scal[C_THREES] += (d >> 1) & 1
    scal[C_TIES] += res[R_TIED]
    for s in range(n):
        x = res[R_SCORE + s]
        tot += x
        b = C_SEAT + S_N * s
        scal[b + S_SCORE] += x
        scal[b + S_SCORE_SQ] += x * x
        scal[b + S_WINS] += w == s
        scal[b + S_PLAYS] += res[R_POS + s] >= 0
        ch = res[R_CHOICE + s]
        scal[b + S_JOIN] += ch == CH_JOIN
        scal[b + S_DROP] += ch == CH_DROP
        scal[b + S_FORCED_IN] += ch == CH_FORCED_IN
        scal[b + S_FORCED_OUT] += ch == CH_FORCED_OUT
        scal[b + S_BOTTA_PAID] += res[R_BOTTA] != 0 and res[R_POS + s] < 0
        q = dealer + s
        q = q - n if q >= n else q
        c2 = C_PLAYER + Q_N * q
        x = res[R_SCORE + s]
        scal[c2 + Q_SCORE] += x
        scal[c2 + Q_SCORE_SQ] += x * x
        scal[c2 + Q_DEALS] += s == 0
        scal[c2 + Q_WINS] += w == s
        scal[c2 + Q_PLAYS] += res[R_POS + s] >= 0
    scal[C_SUM_SCORE] += tot
    scal[C_SUM_SCORE_SQ] += tot * tot


@hot
def play_sessions(seed, s0, s1, total_rounds, rng, drng, order, hands, pbuf, st, pol3, res,
                  totals, tb, pol, scal, tcount, vcount, look):
    p = tb.params
    n = p[P_PLAYERS]
    session = p[P_SESSION]
    for s in range(s0, s1):
        key = stream_state(seed, s)
        n_rounds = min(session, total_rounds - s * session)
        dealer = 0
        if p[P_FIXED_DEALER] == 0:
            round_stream(drng, key, 3 * n_rounds + 2, order)
            dealer = first_dealer(drng, order, n)
        first = dealer
        for q in range(MAX_PLAYERS):
            totals[q] = 0
        for i in range(n_rounds):
            round_stream(drng, key, 3 * i, order)
            rng[0] = stream_state(key, np.uint64(3 * i + 1))
            play_round(drng, rng, order, hands, pbuf, st, pol3, tb, pol, dealer, res, look)
            tally_deal(scal, tcount, vcount, res, n, tb.values)
            if p[P_DEALS_ONLY]:
                continue
            tally_round(scal, res, dealer, n)
            for sx in range(n):
                q = dealer + sx
                q = q - n if q >= n else q
                totals[q] += res[R_SCORE + sx]
            if p[P_FIXED_DEALER] == 0:
                dealer = dealer + res[R_WINNER]
                dealer = dealer - n if dealer >= n else dealer
        if p[P_DEALS_ONLY] or n_rounds < session:
            continue  # deals only, or a session cut off by the end of the run: no session
        scal[C_SESSIONS] += 1
        ft = totals[first]
        scal[C_FIRST_TOTAL] += ft
        scal[C_FIRST_TOTAL_SQ] += ft * ft
        alone = True  # the first dealer's total beats every other player's (a tie: no win)
        for q in range(n):
            if q != first and totals[q] >= totals[first]:
                alone = False
        scal[C_FIRST_WINS] += alone


@njit(cache=True, nogil=True)
def run_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, pol, scal, tcount,
               vcount, look):
    """Sessions in chunks (the runner gives each thread its own chunks); ``look``: None, or
    True when a player plays by lookahead (a kernel of its own)."""
    n_chunks = scal.shape[0]
    for ch in range(n_chunks):
        rng = np.zeros(1, dtype=np.uint64)
        drng = np.zeros(1, dtype=np.uint64)
        order = np.arange(48).astype(np.int8)
        hands = np.zeros(MAX_PLAYERS + 1, dtype=np.uint64)
        pbuf = np.zeros(PBUF, dtype=np.int8)
        st = np.zeros(ST_N, dtype=np.uint64)
        pol3 = np.zeros(ACTIVE, dtype=np.int64)
        res = np.zeros(R_N, dtype=np.int64)
        totals = np.zeros(MAX_PLAYERS, dtype=np.int64)
        s0 = first_session + ch * chunk
        s1 = min(s0 + chunk, first_session + n_sessions)
        if look is None:
            play_sessions(seed, s0, s1, total_rounds, rng, drng, order, hands, pbuf, st, pol3,
                          res, totals, tb, pol, scal[ch], tcount[ch], vcount[ch], None)
        else:
            ctx = (tb, res, new_scratch(ST_N, PBUF, ACTIVE))
            play_sessions(seed, s0, s1, total_rounds, rng, drng, order, hands, pbuf, st, pol3,
                          res, totals, tb, pol, scal[ch], tcount[ch], vcount[ch], ctx)


def play_kernel(tb, seed, rounds, pol, first, n, chunk, out):
    run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, pol, out["scal"], out["tcount"],
               out["vcount"], uses_lookahead(pol[:, PC_CARD]))


# ---------------------------------------------------------------- teyaku, plain Python
# Written from the rules independently of the kernel's bit tricks (used by ``deal_exact`` and by
# the tests as the reference): a hand is a list of cards (number, red, bake); each bakefuda is
# natural or wild *to a given number*; a teyaku is a list of groups (size, part) at distinct
# numbers, searched by brute force.
PARTS = {  # part kinds: "alone" (stand-alone sets), "set" (set part of a combination), "pair"
    "triplet": [(3, "alone")], "two_triplets": [(3, "set"), (3, "set")],
    "three_pairs": [(2, "pair")] * 3, "four_of_a_kind": [(4, "alone")],
    "five_of_a_kind": [(5, "alone")], "triplet_two_pairs": [(3, "set"), (2, "pair"), (2, "pair")],
    "four_three": [(4, "set"), (3, "set")],
}
WILD_PARTS = {"literal": {"alone"}, "no_number": {"alone"}, "in_sets": {"alone", "set"},
              "everywhere": {"alone", "set", "pair"}}
REDS_NEEDED = {"four_reds": 4, "five_reds": 5, "six_reds": 6, "seven_reds": 7}


def _groups_exist(parts, nat, wild, allowed, used=()):
    """Whether groups ``parts`` fit at distinct numbers: a group of k at number m takes the
    natural cards of m first, then cards made wild to m (only in an allowed part)."""
    if not parts:
        return True
    (k, part), rest = parts[0], parts[1:]
    for m in range(1, 13):
        if m in used:
            continue
        if nat.get(m, 0) >= k or (part in allowed and nat.get(m, 0) + wild.get(m, 0) >= k):
            if _groups_exist(rest, nat, wild, allowed, used + (m,)):
                return True
    return False


def teyaku_reference(cards, bakefuda="literal", reds_overlap="yes") -> set:
    """The teyaku a hand forms: ``cards`` is a list of (number, red, bake) tuples."""
    from itertools import product

    reds = sum(1 for _n, r, _b in cards if r)
    out = {t for t, k in REDS_NEEDED.items() if reds >= k}
    allowed = WILD_PARTS[bakefuda]
    bakes = [c for c in cards if c[2]]
    plain = [c for c in cards if not c[2]]
    for roles in product(*[[None] + list(range(1, 13)) for _ in bakes]):
        nat, nonred, wild = {}, {}, {}
        for n, r, _b in plain:
            nat[n] = nat.get(n, 0) + 1
            nonred[n] = nonred.get(n, 0) + (not r)
        for (n, _r, _b), role in zip(bakes, roles):
            if role is None:
                if bakefuda != "no_number":
                    nat[n] = nat.get(n, 0) + 1
            else:
                wild[role] = wild.get(role, 0) + 1
        for t, parts in PARTS.items():
            if t not in out and _groups_exist(parts, nat, wild, allowed):
                out.add(t)
        # reds + triplet: a triplet (a set part) and 4 or 5 reds (outside it under overlap=no)
        for m in range(1, 13):
            c, w = nat.get(m, 0), wild.get(m, 0)
            if not (c >= 3 or ("set" in allowed and c + w >= 3)):
                continue
            # the triplet takes non-red natural cards first; any other card of it is red
            used_reds = 3 - min(3, nonred.get(m, 0)) if reds_overlap == "no" else 0
            for t, k in (("four_reds_triplet", 4), ("five_reds_triplet", 5)):
                if reds - used_reds >= k:
                    out.add(t)
    return out


def best_reference(formed) -> str:
    """The best teyaku name of a set (highest value, then table order), or 'none'."""
    best, bv = "none", 0
    for t, v in zip(TEYAKU, TEYAKU_VALUES):
        if t in formed and v > bv:
            best, bv = t, v
    return best


def cards_of_hand(mask) -> list:
    """(number, red, bake) tuples of a card mask of the mekurifuda deck."""
    m = int(mask)
    return [(int(DECK.month[c]), bool(DECK.flags[c] & RED), bool(DECK.flags[c] & BAKEFUDA))
            for c in range(48) if m >> c & 1]


# ---------------------------------------------------------------- exact deal-time rates

@lru_cache(maxsize=2)
def _deal_states() -> dict:
    """DP over the numbers: for one seated hand (7 cards) and the field (6), the number of
    (hand, field) pairs by the hand's *profile* (a sorted tuple of (natural non-red cards,
    red non-bakefuda cards, bakefuda) per number held) and whether the field holds a four.
    The other hands and the pile take the rest in a number of ways that does not depend on
    which cards they are, so it cancels."""
    from collections import defaultdict
    from itertools import combinations
    from math import comb

    H, F = HAND_SIZE, FIELD_SIZE
    dp = {(0, 0, False, ()): 1}
    for num in range(1, 13):
        ids = range(4 * (num - 1), 4 * num)
        moves = defaultdict(int)  # (cards taken, (nonred, red, bake)) -> subsets of the number
        for x in range(5):
            for sub in combinations(ids, x):
                bake = sum(1 for c in sub if DECK.flags[c] & BAKEFUDA)
                red = sum(1 for c in sub if DECK.flags[c] & RED and not DECK.flags[c] & BAKEFUDA)
                moves[(x, (x - red - bake, red, bake))] += 1
        new = defaultdict(int)
        for (h, f, four, prof), w in dp.items():
            for (x, desc), ways in moves.items():
                if h + x > H:
                    continue
                p2 = tuple(sorted(prof + (desc,))) if x else prof
                for y in range(0, min(4 - x, F - f) + 1):
                    new[(h + x, f + y, four or y == 4, p2)] += w * ways * comb(4 - x, y)
        dp = new
    return {k: v for k, v in dp.items() if k[0] == H and k[1] == F}


def _profile_cards(prof) -> list:
    """A hand of (number, red, bake) tuples with the given profile: numbers are assigned in
    turn (a bakefuda's number is its own: what matters is that its group is one number)."""
    cards = []
    for i, (nonred, red, bake) in enumerate(prof):
        m = i + 1
        cards += [(m, False, False)] * nonred + [(m, True, False)] * red + [(m, True, True)] * bake
    return cards


@lru_cache(maxsize=16)
def deal_exact(bakefuda="literal", reds_overlap="yes") -> list:
    """Exact deal-time rates as ``(quantity, condition, Fraction)`` rows: misdeal_rate, then
    teyaku.<name> (the dealt hand's best teyaku) and teyaku_score.<v>, over all deals and over
    the deals played (no four of a number on the field)."""
    states = _deal_states()
    best_of = {}
    tot = {False: 0, True: 0}
    by = {False: {}, True: {}}
    for (_h, _f, four, prof), w in states.items():
        if prof not in best_of:
            best_of[prof] = best_reference(teyaku_reference(_profile_cards(prof), bakefuda,
                                                            reds_overlap))
        b = best_of[prof]
        tot[four] += w
        by[four][b] = by[four].get(b, 0) + w
    total = tot[False] + tot[True]
    rows = [("misdeal_rate", "all_deals", Fraction(tot[True], total))]
    value = dict(zip(TEYAKU, TEYAKU_VALUES), none=0)
    for cond, keys in (("all_deals", (False, True)), ("no_misdeal", (False,))):
        n = sum(tot[k] for k in keys)
        cnt = {t: sum(by[k].get(t, 0) for k in keys) for t in TEYAKU + ("none",)}
        for t in TEYAKU + ("none",):
            rows.append((f"teyaku.{t}", cond, Fraction(cnt[t], n)))
        for v in SCORE_VALUES:
            rows.append((f"teyaku_score.{v}", cond,
                         Fraction(sum(c for t, c in cnt.items() if value[t] == v), n)))
    return rows


# ---------------------------------------------------------------- public layer
from ..reading import Line, Reading  # noqa: E402  (kept with the declaration it serves)

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


class Taoshi:
    """The registry entry: what the API, the CLI and the statistics layer ask of a game."""

    reading = READING

    name = NAME
    title = "Taoshi (mekurifuda, 3-6 players, three play each round)"
    source = (f"{sources.dated('taoshi_page')} and {sources.title('taoshi_2022')} (its former "
              "version); the mekurifuda and Sudaoshi rule pages")
    seed_file = "003_9adff6e6778a6a03"
    #: policies are given for up to 6 players; with fewer seated the first ``players`` are used
    n_players = MAX_PLAYERS
    seats = SEATS
    Rules = TaoshiRules
    par = None
    teyaku_names = TEYAKU
    lookahead = True  # card play, join/drop and claims by lookahead (engine.lookahead),
    # seeing the cards the other active players' claims showed
    version = 3  # bump when a rule's behaviour, an option or a policy's play changes
    key_quantities = ("dealer.mean_score", "right.mean_score", "left.mean_score",
                      "fair_burden.dealer", "fair_burden.right", "fair_burden.left")

    @property
    def main_kernel(self):
        return run_chunks

    def findings(self, by) -> list:
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
                       f" of played rounds, Four '3's by the dealer's left in "
                       f"{by.loc['dekiyaku.four_threes', 'estimate']:.1%}.")
        return out

    deck_points = DECK_POINTS  # what the burdens must add up to for the game to be zero-sum
    par_word = "burdens"

    def rule_notes(self, rules) -> list:
        """Sentences a table carries about its rules: burdens that are not zero-sum."""
        total = sum(burdens_of(rules))
        if total == DECK_POINTS:
            return []
        return [f"the burdens ({', '.join(f'{float(b):g}' for b in burdens_of(rules))}) add up "
                f"to {float(total):g}, not the deck's {DECK_POINTS} card points: the game is "
                f"not zero-sum (a played round's scores add up to {DECK_POINTS - float(total):+g})"]

    def players_of(self, rules) -> int:
        return int(rules.players)

    def burdens_played(self, rules_text) -> list:
        """The (dealer, right, left) burdens of a table's rules string (charts)."""
        from ..rules import make_rules, parse_rules_string

        rules = make_rules(TaoshiRules, parse_rules_string(rules_text))
        return [float(b) for b in burdens_of(rules)]

    def policy_ids(self, names) -> np.ndarray:
        return np.array([parse_taoshi_policy(x) for x in names], dtype=np.int64)

    def exact_table(self, rules):
        """Exact misdeal and best-teyaku rates of one dealt hand, for every ``bakefuda``
        reading (column ``bakefuda``) under the rules' ``reds_overlap``; the same for any
        number of players."""
        from ..stats.exact import rows_table

        frames = []
        for reading in BAKEFUDA_READINGS:
            df = rows_table(deal_exact(reading, rules.reds_overlap), NAME)
            df.insert(2, "bakefuda", reading)
            frames.append(df)
        import pandas as pd

        df = pd.concat(frames, ignore_index=True)
        # the rules' own reading first
        key = df["bakefuda"].map(lambda r: r != rules.bakefuda)
        return df.iloc[np.argsort(key.values, kind="stable")].reset_index(drop=True)

    def counters(self, rules, *, rounds, seed, policy, expose, session_rounds=1,
                 fixed_dealer=False, checked=False, progress=False, deals_only=False,
                 **run_options):
        from ..engine.runner import run_batches

        tb = lower(rules, fixed_dealer=fixed_dealer, session_rounds=session_rounds,
                   deals_only=deals_only)
        policy = list(policy)
        expose = list(expose)
        if len(policy) == 1:
            policy = policy * MAX_PLAYERS
        if len(expose) == 1:
            expose = expose * MAX_PLAYERS
        if len(policy) < rules.players or len(expose) < rules.players:
            raise ValueError(f"give one policy and one expose choice for each of the "
                             f"{rules.players} players (or one for all)")
        pol = decode_policies(policy, expose)
        n_sessions = -(-rounds // session_rounds)
        shapes = dict(scal=(C_N,), tcount=(NONE + 1, 2), vcount=(len(SCORE_VALUES), 2))
        totals = run_batches(partial(play_kernel, tb, seed, rounds, pol), n_sessions, shapes,
                             rounds_per_session=session_rounds, progress=progress, desc=NAME,
                             **run_options)
        totals["deals_only"] = bool(deals_only)
        totals["players"] = rules.players
        return totals

    def quantities(self, c, rules):
        """Tidy rows: deal-time rates per dealt hand; scores per round (in points, burden
        included); fair burdens; join rates by table seat."""
        from ..stats import table as T

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
                    T.prop(f"{name}.join_rate", s[b + S_JOIN], r),
                    T.prop(f"{name}.drop_rate", s[b + S_DROP], r),
                    T.prop(f"{name}.forced_in_rate", s[b + S_FORCED_IN], r),
                    T.prop(f"{name}.forced_out_rate", s[b + S_FORCED_OUT], r),
                    T.prop(f"{name}.botta_paid_inactive_rate", s[b + S_BOTTA_PAID], r),
                ]
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


register(Taoshi())
