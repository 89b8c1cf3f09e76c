"""Kushiro Toppa: 2 to 4 players, two of whom play each round.  Two texts: the 2022 Kushiro
Toppa text (``shared/seeds/001_8b84054184cb1288.txt``, the Kushiro Toppa page as it read in
2022; "the 2022 text"), and its 2026 revision, the Kushiro Toppa rule page
(``shared/rule-pages/hanafuda_games_kushiro-toppa.md``; "the page", "the rule page").
They differ only in the chaff teyaku (``teyaku_reading``).

A koi-koi variant that keeps Toppa's teyaku and dekiyaku and scores in chips only (no card
points, no par).  Toppa's dekiyaku rows come from :func:`toppa.dekiyaku_table` (both texts:
"many Yaku from the 2-player Toppa retained"), valued here in chips; the rows Kushiro Toppa
does not list (Boar-Deer-Butterfly, Real Seven Ribbons, the month rows) are valued 0, so they
stay in the table and never score.  The stop-or-continue decision is koi-koi's
(``policies.choose_continue``), the turn is every fishing game's (``engine.play``).

A round
-------
1. Deal (``deal_round``): 10 cards to each of the ``players`` seated players, 8 to the field,
   the rest is the draw pile (none with 4 players).  Four of a month on the field: misdeal,
   redeal ("Distributing the Initial Cards").
2. The four-in-hand swap: a seated player holding four of a month may lay them face down; the
   next player picks one (uniform random, ``swap_pick``) and swaps it with the top card of the
   draw pile; the four go back to the hand.  Whether to swap is the holder's policy decision
   (SWAP; a lookahead player's by lookahead, ``_look_swap``).
   Each four held at the deal is offered once, seats in turn order from the dealer; with no
   draw pile (4 players) there is nothing to swap with and the swap is not offered.
3. Join or drop (3-4 players): from the dealer's right (seat 1, then 2, ..., the dealer last)
   each says join or drop (a policy decision); once two have joined the rest are forced out;
   ``undecided`` says what happens when too few remain.  The dropped hands go where
   ``dropped_cards`` says.
4. Teyaku (``teyaku_reading``, ``three_pairs``): each of the two players holding some may
   expose them (the ``expose`` decision; a lookahead player's by lookahead, ``_look_expose``);
   ``teyaku_effect`` says what exposing does.  The cards an exposed teyaku shows (Three
   Pairs: three pairs; Group B: the whole hand; ``teyaku_shown``) are face up: a lookahead
   opponent deals them to nobody else when it determinises.  Each
   teyaku held is worth ``teyaku_value`` chips (1: "1 yaku"), paid by the opponent when
   claimed.
5. Play: the playing seat first in turn order from the dealer moves first (the dealer, if
   playing); a turn is a hand card then the top of the draw pile (no draw once the pile is
   empty).  After a turn that forms a new dekiyaku (``decision_on``) the player says "Iku"
   (continue) or "Yoroshii" (stop and claim): ``choose_continue``; with no card left in hand
   only Yoroshii is legal unless ``last_card=free``.  A stop ends the round: the stopper is paid their dekiyaku chips by the
   opponent; a player who had continued gets nothing ("their Dekiyaku is forfeited").  Hands
   run out with nobody stopping: ``exhausted``.  The play runs from a resumable state
   (``play_from``), which the lookahead policy copies, redeals and plays on.  A lookahead
   player decides every decision above by lookahead (the swap, join/drop, exposing, the cards
   and their picks, Iku/Yoroshii): see the "lookahead" section.
6. The next dealer: ``dealer_next``.

Seats inside a round are relative to the dealer: seat 0 deals, seat k is k places to the
dealer's right (turn order).  Players (who own the policies) are 0..players-1; seat s is player
``(dealer + s) % players``.

Simulation unit: a session is ``session_rounds`` rounds; its first dealer is drawn (both texts,
Choosing the Dealer: each player draws a card, the earliest month deals; neither text settles
two cards of one month: the tied players draw again, as the 1997 koi-koi text does for its cut,
``first_dealer``), then ``dealer_next`` passes the deal.  Round i of session s deals on stream 3i and plays on stream 3i+1 of the
session's key (the first-dealer draw: stream 3 * rounds + 2), so variants compared on one seed
see the same deals round by round.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from functools import partial
from types import SimpleNamespace
from typing import ClassVar, NamedTuple

import numpy as np
from numba import njit

from .. import decks
from ..decks import HANAFUDA
from ..engine.bits import ONE, ZERO, bit, count, has_full_nibble, lowest, month_nibble
from ..engine.jit import hot
from ..engine.lookahead import (_add_gain, _pick, card_choices, deal_others, determinise, gather,
                                is_lookahead, new_scratch, samples, shuffle, uses_lookahead)
from ..engine.play import capture, turn_word
from ..engine.rng import GOLDEN, below, mix64, round_stream, shuffle_range, stream_state
from ..engine.yaku import D_BASE, D_COND, D_MIN, D_REQUIRED
from ..policies import (CONTINUE, DEC_STOP, DEC_THRESHOLD, GREEDY, K_SHIFT,
                        LEGAL_BOTH, LEGAL_STOP, LOOKAHEAD, RANDOM, card_weights,
                        choose_continue, choose_expose, greedy_tables, hand_card, parse_policy,
                        policy_id, split_policy, take_high)
from ..rules import number, option, when_zero
from .. import sources
from .registry import register
from . import toppa

NAME = "kushiro_toppa"
MAX_PLAYERS = 4
HAND_SIZE, FIELD_SIZE = 10, 8   # "Ten (10) cards ... to each player, and eight (8) to the table"
SEATS = ("dealer", "seat1", "seat2", "seat3")  # seat k: k places to the dealer's right
TEYAKU = ("three_pairs", "one_ribbon", "one_animal", "one_bright", "empty_hand")
BOTH = "both texts"  # a value the 2022 text and the rule page both give
MAX_REDEALS = 1000  # undecided=redeal: after this many redeals in a row the last are forced in


# When an option cannot change the result (``rules.inert_options``): asked for by name it is
# refused with the reason; set by a compare grid it is named in the table's notes.
def _two_players(r, run):
    return "with 2 players nobody joins or drops out" if r.players == 2 else None


def _no_swap(r, run):
    return ("with 4 players no draw pile is left, so no four-in-hand swap"
            if r.players == MAX_PLAYERS else None)


def _no_teyaku(r, run):
    return "teyaku_reading=off: no teyaku is scored" if r.teyaku_reading == "off" else None


@dataclass(frozen=True)
class KushiroRules:
    """House rules of Kushiro Toppa.  Two texts: the 2022 text (the Kushiro Toppa page as it
    read in 2022) and the Kushiro Toppa rule page (its 2026 revision; "the page").  They agree
    but for the chaff teyaku, written for 8 cards in 2022 and for the 10-card hand on the page:
    the default ``teyaku_reading`` follows the page.  Every other default is what both texts
    say or, where both are silent, a reading named as such in its description."""

    game: ClassVar[str] = NAME
    seats: ClassVar[tuple] = SEATS
    players: int = number(2, "players at the table (2 to 4); two play each round (both texts: 'played by 2 to 4 people, although only 2 people participate in a round at once')", low=2, high=4, readings={2: "two players: no join/drop phase"})
    dealer_next: str = option("scorer", ("scorer", "rotate"), "who deals next, not stated by either text: scorer (a reading, the default: the round's scorer deals next, as in Toppa and koi-koi; a round nobody scores keeps the dealer), rotate (the deal passes to the dealer's right every round)", inert=lambda r, run: run.deal_never_passes())
    swap_pick: str = option("random", ("random", "lowest"), "which of the four laid face down the other player picks (both texts, Distributing the Initial Cards: 'Another player then chooses one card'): random (a reading, the default: uniform, the four lie face down), lowest (the lowest card id; a fixed reading for tests)", inert=_no_swap)
    dropped_cards: str = option("under_pile", ("under_pile", "shuffled", "aside"), "where a dropped player's hand goes, not stated by either text: under_pile (a reading, the default: under the draw pile, unseen, in random order), shuffled (shuffled into the draw pile), aside (out of play; turns after the pile runs out draw nothing)", inert=_two_players)
    undecided: str = option("forced_in", ("forced_in", "redeal"), "when too few players are left undecided for two to play (Join-in / Drop-out Phase: not stated by either text): forced_in (a reading, the default: the last undecided players are forced in so that two play), redeal (if fewer than two join the cards are dealt again; after 1000 redeals in a row the last are forced in)", inert=_two_players)
    teyaku_reading: str = option("ten_card", ("ten_card", "subset", "off"), "the chaff teyaku for a 10-card hand (Checking for Teyaku): ten_card (the default, the Kushiro Toppa rule page: one ribbon + nine chaff, one animal + nine chaff, one bright + nine chaff, ten chaff), subset (the 2022 text's 'one Ribbon card, seven Chaff' and 'Eight Chaff cards', written for 8 cards: some eight of the ten form it, at least one ribbon and at least seven chaff...; eight chaff for Empty Hand), off (no teyaku)")
    three_pairs: str = option("exact", ("exact", "at_least", "pairs_in_sets", "disjoint"), "Three Pairs (both texts: 'Three pairs of cards - a pair being two cards from the same month'): exact (a reading, the default: exactly three months with exactly two cards), at_least (three or more months with exactly two), pairs_in_sets (three or more months with two or more), disjoint (three or more disjoint pairs, a four counting as two)", inert=_no_teyaku)
    teyaku_value: int = number(1, "chips for each teyaku held and exposed; teyaku add up (both texts, Checking for Teyaku: 1 'yaku' each)", low=0, high=20, readings={1: BOTH}, inert=_no_teyaku)
    teyaku_effect: str = option("play_on", ("play_on", "round_ends"), "what exposing a teyaku does (both texts: 'NEEDS MORE DOCUMENTATION', decide before the game): play_on (a reading, the default: claim the chips and play on), round_ends (claim the chips; the round ends)", inert=_no_teyaku)
    decision_on: str = option("new", ("new", "bigger"), "when Iku/Yoroshii is asked: new (the default, both texts: 'as soon as a Dekiyaku is formed': a dekiyaku not held before), bigger (a reading: whenever the chips held grow)")
    last_card: str = option("yoroshii_only", ("yoroshii_only", "free"), "a dekiyaku formed on a player's last card, with no card left in hand (not stated by either text): yoroshii_only (a reading, the default: only Yoroshii, since Iku has no turn of one's own left to pay off), free (Iku or Yoroshii as on any turn: Iku then lets the opponent's last turn forfeit it, or under exhausted=last_caller is paid when the hands run out)")
    exhausted: str = option("nobody", ("nobody", "last_caller"), "hands exhausted with nobody stopping (not stated by either text): nobody (a reading, the default: no dekiyaku chips, as in koi-koi), last_caller (the last player to say Iku is paid the dekiyaku they hold)")
    five_brights: int = number(3, "Five Brights, chips (both texts, Dekiyaku)", low=0, high=50, readings={3: BOTH})
    four_brights: int = number(2, "Four Brights without the rain man, chips (both texts, Dekiyaku)", low=0, high=50, readings={2: BOTH})
    rainy_four_brights: int = number(1, "Rainy Four Brights: the rain man and 3 other brights, chips (both texts, Dekiyaku)", low=0, high=50, readings={1: BOTH})
    poetry_ribbons: int = number(1, "Poetry Ribbons, chips (both texts, Dekiyaku)", low=0, high=50, readings={1: BOTH})
    blue_ribbons: int = number(1, "Blue Ribbons, chips (both texts, Dekiyaku)", low=0, high=50, readings={1: BOTH})
    seven_ribbons: int = number(2, "Seven Ribbons: any 7 ribbon and/or willow cards, chips (both texts, Dekiyaku)", low=0, high=50, readings={2: BOTH})
    seven_ribbons_extra: int = number(1, "Seven Ribbons: chips for each ribbon or willow card beyond the seventh (both texts, Dekiyaku)", low=0, high=20, readings={1: BOTH}, inert=when_zero("seven_ribbons"))
    chaff: int = number(1, "Chaff: 12 chaff cards, chips (both texts, Dekiyaku)", low=0, high=50, readings={1: BOTH})
    chaff_count: int = number(12, "chaff cards the Chaff dekiyaku needs (both texts: 'Any 12 Chaff cards')", low=1, high=27, readings={12: BOTH}, inert=when_zero("chaff"))
    chaff_extra: int = number(1, "Chaff: chips for each chaff card beyond chaff_count (both texts, Dekiyaku)", low=0, high=20, readings={1: BOTH}, inert=when_zero("chaff"))
    willow_chaff: str = option("none", ("none", "lightning", "all"), "which willow cards count towards the Chaff dekiyaku (both texts: willow cards count towards Seven Ribbons; whether also as chaff is not stated): none (a reading, the default: Toppa's main reading), lightning (by its printed type), all", inert=when_zero("chaff"))

    def check(self):
        toppa.check_chaff_count(self)


def _toppa_values(rules):
    """Toppa's dekiyaku_table reads these names: Kushiro's chip values, 0 for the rows
    neither text lists (they stay, never scoring)."""
    return SimpleNamespace(
        five_brights=rules.five_brights, four_brights=rules.four_brights,
        rainy_four_brights=rules.rainy_four_brights, boar_deer_butterfly=0,
        poetry_ribbons=rules.poetry_ribbons, blue_ribbons=rules.blue_ribbons,
        real_seven_ribbons=0, real_seven_ribbons_extra=0, seven_ribbons=rules.seven_ribbons,
        seven_ribbons_extra=rules.seven_ribbons_extra, chaff=rules.chaff,
        chaff_count=rules.chaff_count, chaff_extra=rules.chaff_extra,
        willow_chaff=rules.willow_chaff, wisteria_row=0, iris_row=0, bush_clover_row=0)


# ---------------------------------------------------------------- policies
# A player is named CARD[/DECISION[/JOIN[/SWAP]]]: CARD/DECISION as koi-koi
# (policies.parse_policy), or CARD lookahead[:K] with DECISION, JOIN and SWAP lookahead by
# default (see "lookahead" below), JOIN one of join, random, thresholdK (join when the hand's
# strength, its non-chaff cards plus its cards whose month is on the field, is at least K;
# default 10) or lookahead, SWAP one of always, never, random or lookahead.  Defaults: random ->
# random/random/random/random, greedy -> greedy/stop/threshold10/always, lookahead:K ->
# lookahead:K/lookahead/lookahead/lookahead.  The expose choice (``--expose``) is per player;
# a lookahead CARD player's teyaku are exposed by lookahead instead (as in Toppa and Baka:
# ``EXPOSE_LOOKAHEAD``, set by decode_policies).
JOIN_ALWAYS, JOIN_RANDOM, JOIN_THRESHOLD, JOIN_LOOKAHEAD = 0, 1, 2, 3
JOINS = {"join": JOIN_ALWAYS, "random": JOIN_RANDOM, "threshold": JOIN_THRESHOLD,
         "lookahead": JOIN_LOOKAHEAD}
JOIN_DEFAULT_K = 10
SWAP_NEVER, SWAP_ALWAYS, SWAP_RANDOM, SWAP_LOOKAHEAD = 0, 1, 2, 3
SWAPS = {"never": SWAP_NEVER, "always": SWAP_ALWAYS, "random": SWAP_RANDOM,
         "lookahead": SWAP_LOOKAHEAD}
DEC_LOOKAHEAD = 4  # Iku/Yoroshii by lookahead (policies' DEC_* are 0-3)
EXPOSE_LOOKAHEAD = 3  # a lookahead player's expose column (policies' EXPOSE_* are 0-2)
# The swap decision (``_look_swap``) draws SWAP_SAMPLES_PER_K * K determinisations, at most
# SWAP_MAX_SAMPLES: it is rare (a four in about 1.2% of seated hands) and its gains small, so
# at K = 16 the one standard error gate mostly keeps on noise.  Measured on 150 dealt fours
# (2 players, ``lookahead_swap``, two random streams), against 65,536 determinisations (17
# and 18 keeps): K = 16 keeps 20 and 14, only 8 and 4 of them right; 256 keeps 13 and 15, 11
# and 12 right; 1,024 keeps 14 and 14, 12 and 12 right.  At 256 a decision costs about 0.7
# ms: lookahead:16 against greedy ran at the same speed (about 3,200 rounds/s on one thread).
SWAP_SAMPLES_PER_K = 16
SWAP_MAX_SAMPLES = 4096
POLICY_FORMS = ("CARD[/DECISION[/JOIN[/SWAP]]]", "CARD: random, greedy, lookahead[:K]",
                "DECISION: as koi-koi's, or lookahead (a lookahead CARD's default)",
                "JOIN: join, random, threshold[K], lookahead (a lookahead CARD's default)",
                "SWAP: always, never, random, lookahead (a lookahead CARD's default)")
# decoded policy columns (kernel array int64[4, PC_N])
PC_CARD, PC_DEC, PC_DPARAM, PC_JOIN, PC_JPARAM, PC_SWAP, PC_EXPOSE = range(7)
PC_N = 7


def parse_kushiro_policy(name: str) -> int:
    """One packed int: parse_policy(CARD/DECISION) in bits 0-15, join id 16-19, its
    threshold 20-27, swap id 28-29, a lookahead's K in 32-47.  CARD ``lookahead[:K]`` decides
    Iku/Yoroshii, join/drop and the swap by lookahead too unless those parts are given
    (``lookahead:16/stop/threshold10/always``)."""
    text = str(name).strip()
    parts = text.split("/")
    forms = "; ".join(POLICY_FORMS)
    if len(parts) > 4:
        raise ValueError(f"unknown policy {text!r}; use {forms}")
    if parts[0].partition(":")[0] == "lookahead":
        look = policy_id(parts[0])  # K in bits 32-47; a bad K is one clear error
        if len(parts) == 1 or parts[1] == "lookahead":
            base = LOOKAHEAD | DEC_LOOKAHEAD << 4
        else:
            base = LOOKAHEAD | (parse_policy("greedy/" + parts[1]) & ~0xF)
        base |= look & (0xFFFF << K_SHIFT)
    else:
        try:
            base = parse_policy("/".join(parts[:2]))
        except ValueError as e:  # its own forms, with JOIN and SWAP
            raise ValueError(f"{str(e).split('; choose from')[0]}; use {forms}") from None
    card = base & 0xF
    join = {RANDOM: JOIN_RANDOM, LOOKAHEAD: JOIN_LOOKAHEAD}.get(card, JOIN_THRESHOLD)
    k = JOIN_DEFAULT_K
    if len(parts) >= 3:
        word = parts[2].rstrip("0123456789")
        digits = parts[2][len(word):]
        if word not in JOINS or (digits and word != "threshold"):
            raise ValueError(f"unknown join decision {parts[2]!r} in policy {text!r}; "
                             "choose join, random, threshold[K] or lookahead")
        join = JOINS[word]
        if join == JOIN_LOOKAHEAD and card != LOOKAHEAD:
            raise ValueError(f"join decision lookahead in policy {text!r} needs a lookahead "
                             "CARD (lookahead[:K]/...)")
        if digits:
            k = int(digits)
            if not 0 <= k <= 30:
                raise ValueError(f"join threshold must be 0 to 30, got {k} in {text!r}")
    swap = {RANDOM: SWAP_RANDOM, LOOKAHEAD: SWAP_LOOKAHEAD}.get(card, SWAP_ALWAYS)
    if len(parts) == 4:
        if parts[3] not in SWAPS:
            raise ValueError(f"unknown swap decision {parts[3]!r} in policy {text!r}; "
                             "choose always, never, random or lookahead")
        swap = SWAPS[parts[3]]
        if swap == SWAP_LOOKAHEAD and card != LOOKAHEAD:
            raise ValueError(f"swap decision lookahead in policy {text!r} needs a lookahead "
                             "CARD (lookahead[:K]/...)")
    return base | join << 16 | k << 20 | swap << 28


def decode_policies(packed, expose) -> np.ndarray:
    """int64[4, PC_N] kernel policy rows from packed ids and expose ids (one per player); a
    lookahead CARD player exposes by lookahead (``EXPOSE_LOOKAHEAD``) whatever its expose id,
    as Toppa's and Baka's lookahead players do."""
    out = np.zeros((MAX_PLAYERS, PC_N), dtype=np.int64)
    for i, x in enumerate(packed):
        x = int(x)
        card, dec, dparam = split_policy(x & 0xFFFF)
        e = EXPOSE_LOOKAHEAD if card == LOOKAHEAD else int(expose[i])
        card |= x & (0xFFFF << K_SHIFT)  # a lookahead's K
        out[i] = (card, dec, dparam, (x >> 16) & 0xF, (x >> 20) & 0xFF, (x >> 28) & 0x3, e)
    return out


# ---------------------------------------------------------------- lowering
class Tables(NamedTuple):
    kind_masks: np.ndarray   # uint64[4] by printed kind (willow cards by their own type)
    yaku_masks: np.ndarray   # uint64[Y, 3] Toppa's rows
    yaku_ints: np.ndarray    # int64[Y, 5]
    params: np.ndarray       # int64[P_N]
    gscore: np.ndarray       # greedy's tables (policies.greedy_tables)
    ghigh: np.ndarray


(P_PLAYERS, P_READING, P_PAIRS, P_TEY_VALUE, P_TEY_ENDS, P_DROPPED, P_UNDECIDED,
 P_EXHAUSTED, P_ROTATE, P_PICK_LOWEST, P_BIGGER, P_FIXED_DEALER, P_SESSION, P_DEALS_ONLY,
 P_LAST_FREE) = range(15)
P_N = 15
READ_TEN, READ_SUBSET, READ_OFF = 0, 1, 2
PAIRS_EXACT, PAIRS_AT_LEAST, PAIRS_IN_SETS, PAIRS_DISJOINT = 0, 1, 2, 3
DROP_UNDER, DROP_SHUFFLED, DROP_ASIDE = 0, 1, 2


def lower(rules: KushiroRules, *, fixed_dealer=False, session_rounds=1, deals_only=False):
    """(Tables, dekiyaku names) for the kernels."""
    names, ymasks, yints = toppa.dekiyaku_table(_toppa_values(rules)).build()
    toppa.check_yaku_shapes(names, ymasks, yints)
    kind_masks = np.array([HANAFUDA.kind_mask(k) for k in range(4)], dtype=np.uint64)
    p = np.zeros(P_N, dtype=np.int64)
    p[P_PLAYERS] = rules.players
    p[P_READING] = ("ten_card", "subset", "off").index(rules.teyaku_reading)
    p[P_PAIRS] = ("exact", "at_least", "pairs_in_sets", "disjoint").index(rules.three_pairs)
    p[P_TEY_VALUE] = rules.teyaku_value
    p[P_TEY_ENDS] = rules.teyaku_effect == "round_ends"
    p[P_DROPPED] = ("under_pile", "shuffled", "aside").index(rules.dropped_cards)
    p[P_UNDECIDED] = rules.undecided == "redeal"
    p[P_EXHAUSTED] = rules.exhausted == "last_caller"
    p[P_ROTATE] = rules.dealer_next == "rotate"
    p[P_PICK_LOWEST] = rules.swap_pick == "lowest"
    p[P_BIGGER] = rules.decision_on == "bigger"
    p[P_LAST_FREE] = rules.last_card == "free"
    p[P_FIXED_DEALER] = bool(fixed_dealer)
    p[P_SESSION] = int(session_rounds)
    p[P_DEALS_ONLY] = bool(deals_only)
    # no card points: greedy weighs a card by its share of the dekiyaku it belongs to
    weights = card_weights(np.zeros(48, dtype=np.int64), ymasks, yints)
    return Tables(kind_masks, ymasks, yints, p, *greedy_tables(weights)), names


# ---------------------------------------------------------------- kernels
# result slots of one round; per-seat blocks are 4 wide (seats relative to the dealer)
R_CHIPS, R_PLAYS, R_CHOICE, R_TEY_DEALT, R_FOURS, R_SWAPS, R_TEY_CLAIMED, R_CONT = (
    0, 4, 8, 12, 16, 20, 24, 28)
(R_WINNER, R_END, R_POINTS, R_HITS, R_TURNS, R_DECISIONS, R_MISDEALS, R_REDEALS, R_FIRST,
 R_SECOND, R_PAID, R_FIELD, R_TOP, R_END_PILE, R_PILE_A, R_PILE_B, R_HAND_A, R_HAND_B,
 R_ASIDE, R_STOPPER, R_N_PLAYERS, R_SWAP_IN, R_SWAP_OUT) = range(32, 55)
R_N = 55
# R_SWAP_IN / R_SWAP_OUT: the cards the swaps put into hands / onto the top of the draw pile
# R_CHOICE: 0 seated (2 players), 1 chose join, 2 chose drop, 3 forced in, 4 forced out
CH_SEATED, CH_JOIN, CH_DROP, CH_FORCED_IN, CH_FORCED_OUT = 0, 1, 2, 3, 4
END_STOP, END_EXHAUSTED, END_TEYAKU = 0, 1, 2
PILE_N = 68  # the draw pile buffer: the undealt cards and up to 30 dropped ones


@hot
def month_count(hand, m):
    return count((hand >> np.uint64(4 * m)) & np.uint64(0xF))


@hot
def teyaku_bits(hand, km0, km1, km2, km3, reading, pairs):
    """The teyaku held by ``hand`` as bits in :data:`TEYAKU` order (willow cards by their own
    type, as the page says)."""
    if reading == READ_OFF:
        return np.int64(0)
    exact2 = 0
    ge2 = 0
    halves = 0
    for m in range(12):
        k = month_count(hand, m)
        exact2 += k == 2
        ge2 += k >= 2
        halves += k // 2
    if pairs == PAIRS_EXACT:
        tp = exact2 == 3
    elif pairs == PAIRS_AT_LEAST:
        tp = exact2 >= 3
    elif pairs == PAIRS_IN_SETS:
        tp = ge2 >= 3
    else:
        tp = halves >= 3
    b = count(hand & km0)
    a = count(hand & km1)
    r = count(hand & km2)
    c = count(hand & km3)
    if reading == READ_TEN:
        n = count(hand)
        rib = r == 1 and c == n - 1
        ani = a == 1 and c == n - 1
        bri = b == 1 and c == n - 1
        emp = c == n
    else:
        rib = r >= 1 and c >= 7
        ani = a >= 1 and c >= 7
        bri = b >= 1 and c >= 7
        emp = c >= 8
    return (np.int64(tp) | np.int64(rib) << 1 | np.int64(ani) << 2 | np.int64(bri) << 3
            | np.int64(emp) << 4)


@hot
def teyaku_shown(hand, tey, pairs):
    """The hand cards an exposed teyaku (bits ``tey`` of :data:`TEYAKU`, ``three_pairs`` =
    ``pairs``) puts face up: they become the seat's known mask in the play state
    (``state.known``), so a lookahead opponent's determinisations keep them in its hand.

    Both texts say only that a player holding a teyaku "may choose to expose it" (Exposing the
    Teyaku); what is shown is a reading, as in Toppa (the Toppa rule page, Checking for Teyaku: "put the
    cards that are related to the Teyaku face-up", ``engine.yaku.teyaku_cards``), fixed here,
    not an option (only a lookahead player's view reads it; no other run changes):
    a Group B teyaku (one ribbon/animal/bright with chaff, empty hand) is the make-up of the
    whole hand, so the whole hand is shown (under ``teyaku_reading=subset`` too: which eight
    would be arbitrary); Three Pairs alone shows three pairs, six cards: the months in order
    (earliest first) each give the pairs the reading counts (``exact``/``at_least``: a month of
    exactly two; ``pairs_in_sets``: a month of two or more, its two lowest cards; ``disjoint``:
    a month's cards two by two, lowest first) until three are shown, so a hand with more
    pairs than three shows its three earliest."""
    if tey & ~np.int64(1):
        return hand
    if tey == 0:
        return ZERO
    shown = ZERO
    left = 3
    for m in range(12):
        mm = hand & month_nibble(np.int64(4 * m))
        k = count(mm)
        if pairs == PAIRS_DISJOINT:
            take = k // 2
        elif pairs == PAIRS_IN_SETS:
            take = 1 if k >= 2 else 0
        else:
            take = 1 if k == 2 else 0
        take = min(take, left)
        for _ in range(2 * take):
            low = mm & (~mm + ONE)
            shown |= low
            mm &= ~low
        left -= take
        if left == 0:
            break
    return shown


@hot
def join_strength(hand, field, chaff):
    """The join threshold's view: non-chaff cards in hand plus hand cards whose month is on
    the field."""
    s = count(hand & ~chaff)
    for m in range(12):
        if month_count(field, m) > 0:
            s += month_count(hand, m)
    return s


@hot
def cards_missing(pile, masks, ints):
    """The fewest cards ``pile`` lacks for any dekiyaku played (the threshold policy's view of
    the opponent)."""
    best = 99
    for i in range(masks.shape[0]):
        if ints[i, D_BASE] == 0:
            continue
        cond = masks[i, D_COND]
        need = max(0, ints[i, D_MIN] - count(pile & cond)) + count(
            masks[i, D_REQUIRED] & ~pile & ~cond)
        best = min(best, need)
    return best


@hot
def deal_round(drng, order, n):
    """Shuffle and deal 10 per seated player and 8 to the field until the field holds no four
    of a month; returns the misdeals.  Seat s holds order[10s:10s+10], the field the next 8."""
    n_dealt = HAND_SIZE * n + FIELD_SIZE
    misdeals = 0
    while True:
        shuffle_range(drng, order, 0, n_dealt)
        f = ZERO
        for i in range(HAND_SIZE * n, n_dealt):
            f |= bit(order[i])
        if not has_full_nibble(f):
            break
        misdeals += 1
    shuffle_range(drng, order, n_dealt, order.shape[0])
    return misdeals


@hot
def shuffle_span(rng, cards, lo, hi):
    """Fisher-Yates on ``cards[lo:hi]``: position i takes ``i + below(rng, hi - i)``."""
    for i in range(lo, hi - 1):
        j = i + below(rng, hi - i)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t


@hot
def dealt_hand(order, s):
    h = ZERO
    for i in range(HAND_SIZE * s, HAND_SIZE * s + HAND_SIZE):
        h |= bit(order[i])
    return h


@hot(inline="always")
def _turn(pol, hand, field, pile, top, end, r, gscore, ghigh):
    """One turn: a hand card, then the top of the draw pile if any is left."""
    card = hand_card(pol, hand, field, r, gscore)
    hand &= ~bit(card)
    field, c1 = capture(card, field, take_high(pol, card, field, r, ghigh))
    c2 = ZERO
    if top < end:
        drawn = pile[top]
        field, c2 = capture(drawn, field, take_high(pol, drawn, field, r >> ONE, ghigh))
        top += 1
    return hand, field, c1 | c2, top


# ---------------------------------------------------------------- the play, resumable
# The two players' state (``ks``, uint64[KS_N]): slots 0-8 are engine.state's for 2 seats (seat
# 0 the first mover, seat 1 the other), the rest koi-koi's bookkeeping.  Signed values are
# stored as their uint64 bits; LAST and STOPPER hold seat + 1 (0: none).  K_KNOWN + seat: the
# cards of an exposed teyaku (``teyaku_shown``), which ``determinise`` keeps in that hand.
K_FIELD, K_PA, K_TOP, K_CUR, K_KNOWN = 2, 3, 5, 6, 7   # K_PA/K_KNOWN + seat (state.known)
(K_HELD, K_BEST, K_LAST, K_CALLS, K_END, K_STOPPER, K_POINTS, K_HITS, K_TURNS, K_DECISIONS,
 K_END_PILE, K_N_ALL) = (9, 11, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23)  # HELD, BEST, CALLS + seat
KS_N = 24


@hot
def start_play(ks, ha, hb, field, end, n_all):
    """The state before the first turn: the two hands, the field, the draw pile ``pile[:end]``
    (``pile[end:n_all]``: the cards set aside, unseen)."""
    for i in range(KS_N):
        ks[i] = ZERO
    ks[0] = ha
    ks[1] = hb
    ks[K_FIELD] = field
    ks[K_END] = np.uint64(END_EXHAUSTED)
    ks[K_END_PILE] = np.uint64(end)
    ks[K_N_ALL] = np.uint64(n_all)


@hot(inline="always")
def _end_turn(ks, cur, hand, field, cap, top, ym, yi, bigger):
    """Write ``cur``'s finished turn into ``ks``; returns (a new dekiyaku formed (``decision_on``),
    the pile's chips, its dekiyaku bits)."""
    ks[cur] = hand
    ks[K_FIELD] = field
    ks[K_TOP] = np.uint64(top)
    ks[K_PA + cur] |= cap
    ks[K_TURNS] += ONE
    if cap == ZERO:
        return False, np.int64(0), np.int64(0)
    v, h = toppa.score_pile(ks[K_PA + cur], ym, yi)
    hu = np.uint64(h)
    if bigger != 0:
        improved = v > np.int64(ks[K_BEST + cur])
    else:
        improved = (hu & ~ks[K_HELD + cur]) != ZERO
    ks[K_HELD + cur] |= hu
    ks[K_BEST + cur] = np.uint64(max(np.int64(ks[K_BEST + cur]), v))
    if improved:
        ks[K_DECISIONS] += ONE
    return improved, v, np.int64(h)


@hot(inline="always")
def _decide(ks, cur, go, v, h):
    """Iku (``go``) or Yoroshii for ``cur`` holding dekiyaku ``h`` worth ``v``; False: stopped."""
    if go:
        ks[K_CALLS + cur] += ONE
        ks[K_LAST] = np.uint64(cur + 1)
        return True
    ks[K_END] = np.uint64(END_STOP)
    ks[K_STOPPER] = np.uint64(cur + 1)
    ks[K_POINTS] = np.uint64(v)
    ks[K_HITS] = np.uint64(h)
    return False


@hot
def play_from(ks, pile, rng, tb, pol, qa, qb, look):
    """Play the round in state ``ks`` to its end (a stop, or the hands run out), in place.
    Seat 0 is player ``qa``, seat 1 ``qb`` (``pol`` rows).  ``look``: None, or the lookahead
    context ``(tables, res, scratch, greedy rows)`` when a player plays by lookahead (numba
    prunes the branch with None)."""
    _play(ks, pile, rng, tb, pol, qa, qb, look)


@hot
def rollout(st, order, rng, tb, gpol):
    """The lookahead's rollout: :func:`play_from` by the rows ``gpol`` (greedy/stop), a
    function of its own: one calling itself through its dispatcher (a rollout inside a
    lookahead turn inside ``play_from``) is compiled as recursion, which numba's cache
    cannot reload."""
    _play(st, order, rng, tb, gpol, np.int64(0), np.int64(1), None)


@hot(inline="always")
def _play(ks, pile, rng, tb, pol, qa, qb, look):
    """The loop of :func:`play_from`."""
    ym = tb.yaku_masks
    yi = tb.yaku_ints
    bigger = tb.params[P_BIGGER]
    end = np.int64(ks[K_END_PILE])
    while True:
        cur = np.int64(ks[K_CUR])
        hand = ks[cur]
        if hand == ZERO:
            break
        q = qa if cur == 0 else qb
        cp = pol[q, PC_CARD]
        looked = False
        field = ks[K_FIELD]
        cap = ZERO
        top = np.int64(ks[K_TOP])
        if look is not None:  # noqa: SIM102  (pruned with None: rollouts never type it)
            if is_lookahead(cp):
                hand, field, cap, top = _look_turn(ks, pile, rng, tb, cur, samples(cp), look)
                looked = True
        if not looked:
            sr, word = turn_word(cp, rng[0])
            rng[0] = sr
            hand, field, cap, top = _turn(cp, hand, field, pile, top, end, word, tb.gscore,
                                          tb.ghigh)
        improved, v, h = _end_turn(ks, cur, hand, field, cap, top, ym, yi, bigger)
        if improved:
            # no card left: only Yoroshii, unless last_card=free
            legal = LEGAL_BOTH if hand != ZERO or tb.params[P_LAST_FREE] != 0 else LEGAL_STOP
            dec = pol[q, PC_DEC]
            go = False
            asked = False
            if look is not None:  # noqa: SIM102  (pruned with None)
                if dec == DEC_LOOKAHEAD and legal == LEGAL_BOTH:
                    go = _look_continue(ks, pile, rng, tb, cur, samples(cp), v, h, look)
                    asked = True
            if not asked:
                om = 99
                if dec == DEC_THRESHOLD:
                    om = cards_missing(ks[K_PA + 1 - cur], ym, yi)
                go = choose_continue(dec, pol[q, PC_DPARAM], legal, count(hand), v, om,
                                     rng) == CONTINUE
            if not _decide(ks, cur, go, v, h):
                break
        ks[K_CUR] = np.uint64(cur ^ 1)


@hot
def settle(ks, tb):
    """(end kind, stopper seat or -1, dekiyaku chips, their bits) of the finished play ``ks``:
    a stop, or hands exhausted (``exhausted``: last_caller pays the last to say Iku)."""
    end_kind = np.int64(ks[K_END])
    stopper = np.int64(ks[K_STOPPER]) - 1
    points = np.int64(ks[K_POINTS])
    hits = np.int64(ks[K_HITS])
    last = np.int64(ks[K_LAST]) - 1
    if end_kind == END_EXHAUSTED and tb.params[P_EXHAUSTED] != 0 and last >= 0:
        stopper = last
        points, hits = toppa.score_pile(ks[K_PA + last], tb.yaku_masks, tb.yaku_ints)
    return end_kind, stopper, points, hits


@hot
def play_value(ks, tb, seat):
    """The dekiyaku chips ``seat`` wins (or pays) in the finished play ``ks``: the lookahead's
    rollout value (the teyaku chips are settled before play, the same for every choice)."""
    _e, stopper, points, _h = settle(ks, tb)
    if stopper < 0:
        return 0.0
    return float(points if stopper == seat else -points)


# ---------------------------------------------------------------- lookahead (engine.lookahead)
# A lookahead player decides its hand card (with its two-way pick), the turned card's two-way
# pick and Iku/Yoroshii by determinised rollouts: the cards it cannot see (the other player's
# hand less any exposed teyaku cards, the rest of the draw pile and the cards set aside) are
# redealt at random K times
# (``determinise``), each choice is played on by greedy/stop for both players with this
# game's own play (``play_from``), and ``_pick`` keeps greedy's choice unless another's paired
# mean gain exceeds one standard error.  Join/drop too (``_look_join``: the round dealt again
# from the unseen cards), the four-in-hand swap (``_look_swap``: swap or keep, the other hands
# and the pile dealt again) and exposing teyaku (``_look_expose``: a real choice only when
# exposing ends the round).

@hot(inline="always")
def _rest_of_turn(sc, tb, gpol, cur, hand, field, cap, top, high2, pick):
    """In ``sc.st`` (a determinisation, ``cur``'s hand card played: ``hand``, ``field``,
    ``cap``): the turned card (two-way: ``high2`` when ``pick``, else greedy's), greedy's
    Yoroshii on a new dekiyaku, then the round by greedy/stop; ``cur``'s chips."""
    st = sc.st
    order = sc.order
    if top < np.int64(st[K_END_PILE]):
        drawn = order[top]
        h2 = high2 if pick else take_high(GREEDY, drawn, field, ZERO, tb.ghigh)
        field, c2 = capture(drawn, field, h2)
        cap |= c2
        top += 1
    improved, v, h = _end_turn(st, cur, hand, field, cap, top, tb.yaku_masks, tb.yaku_ints,
                               tb.params[P_BIGGER])
    if improved:
        _decide(st, cur, False, v, h)
    else:
        st[K_CUR] = np.uint64(cur ^ 1)
        rollout(st, order, sc.rng, tb, gpol)
    return play_value(st, tb, cur)


@hot
def _look_turn(ks, pile, rng, tb, cur, k, look):
    """A lookahead player's turn: its hand card (and two-way pick), then the turned card's
    two-way pick, each by lookahead.  Returns (hand, field, captured, top)."""
    if look is None:  # a rollout's play_from never gets here; typed, not run
        return ks[cur], ks[K_FIELD], ZERO, np.int64(ks[K_TOP])
    _t, _r, sc, gpol = look
    s = rng[0]
    hand = ks[cur]
    field = ks[K_FIELD]
    top = np.int64(ks[K_TOP])
    end = np.int64(ks[K_END_PILE])
    seen = pile[:np.int64(ks[K_N_ALL])]
    m = card_choices(sc, hand, field, tb.gscore, tb.ghigh)
    best = 0
    if m > 1:
        for j in range(m):
            sc.total[j] = 0.0
            sc.total2[j] = 0.0
        for _ in range(k):
            s = determinise(ks, 2, cur, seen, top, s, sc)
            v0 = 0.0
            for j in range(m):
                for i in range(KS_N):
                    sc.st[i] = sc.base[i]
                c = sc.card[j]
                f, c1 = capture(c, field, sc.high[j])
                v = _rest_of_turn(sc, tb, gpol, cur, hand & ~bit(c), f, c1, top, ZERO, False)
                v0 = _add_gain(sc, j, v, v0)
        best = _pick(sc, m, k)
    card = sc.card[best]
    hand &= ~bit(card)
    field, cap = capture(card, field, sc.high[best])
    if top < end:
        drawn = pile[top]
        h2 = take_high(GREEDY, drawn, field, ZERO, tb.ghigh)
        if count(field & month_nibble(drawn)) == 2:  # seen now: the turned card
            sc.total[1] = 0.0
            sc.total2[1] = 0.0
            for _ in range(k):
                s = determinise(ks, 2, cur, seen, top + 1, s, sc)
                v0 = 0.0
                for j in range(2):
                    for i in range(KS_N):
                        sc.st[i] = sc.base[i]
                    v = _rest_of_turn(sc, tb, gpol, cur, hand, field, cap, top,
                                      h2 if j == 0 else ~h2, True)
                    v0 = _add_gain(sc, j, v, v0)
            if _pick(sc, 2, k) == 1:
                h2 = ~h2
        field, c2 = capture(drawn, field, h2)
        cap |= c2
        top += 1
    rng[0] = s
    return hand, field, cap, top


@hot
def _look_continue(ks, pile, rng, tb, cur, k, v, h, look):
    """Iku (True) or Yoroshii for a lookahead player ``cur`` who just formed dekiyaku worth
    ``v``: stopping is worth ``v`` now; continuing, the mean chips of greedy/stop play from
    here over K determinisations (taken when the gain exceeds one standard error)."""
    if look is None:  # typed, not run
        return False
    _t, _r, sc, gpol = look
    s = rng[0]
    seen = pile[:np.int64(ks[K_N_ALL])]
    top = np.int64(ks[K_TOP])
    sc.total[1] = 0.0
    sc.total2[1] = 0.0
    for _ in range(k):
        s = determinise(ks, 2, cur, seen, top, s, sc)
        for i in range(KS_N):
            sc.st[i] = sc.base[i]
        _decide(sc.st, cur, True, v, h)
        sc.st[K_CUR] = np.uint64(cur ^ 1)
        rollout(sc.st, sc.order, sc.rng, tb, gpol)
        _add_gain(sc, 1, play_value(sc.st, tb, cur), float(v))
    rng[0] = s
    return _pick(sc, 2, k) == 1


@hot(inline="always")
def _dealt_value(sc, tb, gpol, n, s, j, res, field, x, m):
    """``s``'s chips in a round dealt in a determinisation: the seats' hands in
    ``sc.high[:n]``, the undealt cards ``sc.cards[x:m]`` (the draw pile, top first).  Join or
    drop (3-4 players): the first ``j`` seats to speak as ``res[R_PLAYS]`` says, the ``j``-th
    (``s``) joins (``j < 0``: ``s`` speaks like the others), every other seat by greedy's
    threshold; both teyaku claimed; the play by greedy/stop.  0 when ``s`` does not play (or
    fewer than two join: a redeal)."""
    p = tb.params
    km = tb.kind_masks
    a = 0
    b = 1
    if n > 2:
        a = -1
        b = -1
        joined = 0
        for jj in range(n):
            o = jj + 1 if jj + 1 < n else 0
            if jj < j:
                yes = res[R_PLAYS + o] != 0
            elif jj == j:
                yes = True
            elif joined == 2:
                yes = False
            else:
                forced = p[P_UNDECIDED] == 0 and n - jj <= 2 - joined  # the last ones left
                yes = forced or join_strength(sc.high[o], field, km[3]) >= JOIN_DEFAULT_K
            if yes:
                if a < 0:
                    a = o
                else:
                    b = o
                joined += 1
        if b < 0:
            return 0.0
        if a > b:
            a, b = b, a
    if s != a and s != b:
        return 0.0
    ha = sc.high[a]
    hb = sc.high[b]
    # the draw pile: the undealt cards, then the dropped hands (none if set aside)
    end = 0
    for i in range(x, m):
        sc.order[end] = sc.cards[i]
        end += 1
    if p[P_DROPPED] != DROP_ASIDE:
        for o in range(n):
            if o != a and o != b:
                h = sc.high[o]
                while h != ZERO:
                    sc.order[end] = lowest(h)
                    h &= h - ONE
                    end += 1
    ta = teyaku_bits(ha, km[0], km[1], km[2], km[3], p[P_READING], p[P_PAIRS])
    tbb = teyaku_bits(hb, km[0], km[1], km[2], km[3], p[P_READING], p[P_PAIRS])
    tey = (count(np.uint64(ta)) - count(np.uint64(tbb))) * p[P_TEY_VALUE]
    me = 0 if s == a else 1
    v = float(tey if me == 0 else -tey)
    if p[P_TEY_ENDS] == 0 or (ta | tbb) == 0:
        start_play(sc.st, ha, hb, field, end, end)
        rollout(sc.st, sc.order, sc.rng, tb, gpol)
        v += play_value(sc.st, tb, me)
    return v


@hot
def _look_join(rng, hands, field, s, j, n, res, tb, yes, k, look):
    """Join (True) or drop for a lookahead player at seat ``s``, the ``j``-th to speak: the
    JOIN policy's choice (``yes``, greedy's threshold) unless the other one gains more than one
    standard error over K determinisations.  Dropping is worth 0 chips; joining, the mean
    chips of the round dealt again from the cards the seat cannot see (the other hands and the
    draw pile), the later seats speaking by greedy's threshold, both teyaku claimed, and the
    play by greedy/stop (:func:`_dealt_value`).  Returns the choice."""
    if look is None:  # typed, not run
        return yes
    _t, _r, sc, gpol = look
    mine = hands[s]
    m = gather(sc.cards, ~(mine | field) & np.uint64(0xFFFFFFFFFFFF))
    st = rng[0]
    sc.total[1] = 0.0
    sc.total2[1] = 0.0
    for _ in range(k):
        st = shuffle(sc.cards, m, st)
        x = deal_others(sc.cards, sc.high, 0, n, s, mine, HAND_SIZE)  # then the undealt cards
        v = _dealt_value(sc, tb, gpol, n, s, j, res, field, x, m)
        # choice 0: the JOIN policy's, choice 1 the other; dropping is worth 0
        _add_gain(sc, 1, 0.0 if yes else v, v if yes else 0.0)
    rng[0] = st
    return yes != (_pick(sc, 2, k) == 1)


@hot(inline="always")
def _draw4(st):
    """One of four (a face-down pick) from the stream ``st``: (state, 0..3)."""
    st += GOLDEN
    return st, np.int64(((mix64(st) >> np.uint64(32)) * np.uint64(4)) >> np.uint64(32))


@hot
def _look_swap(rng, hands, field, s, c0, fm, known, n, tb, k, look):
    """Swap (True) or keep the four of ``c0``'s month for a lookahead player at seat ``s``,
    after the deal.  The seat sees its hand and the field (and ``known``, the top of the draw
    pile, when its own earlier swap put it there; else -1): the other hands and the draw pile
    are dealt again from the rest, K times.  In each determinisation, swapping gives a picked
    card of the four (``swap_pick``) for the top of the pile, unseen until it arrives; then
    the seat's later fours (``fm``) and the later seats' are swapped by greedy (always), and
    the round goes on as :func:`_dealt_value` plays it (join/drop by greedy's threshold, both
    teyaku claimed, greedy/stop).  Choice 0 is greedy's (swap); keeping is taken when its
    paired mean gain exceeds one standard error (``_pick``).  The same determinisations and
    the same picks serve both choices."""
    if look is None:  # typed, not run
        return True
    _t, res, sc, gpol = look
    lowest_pick = tb.params[P_PICK_LOWEST] != 0
    mine = hands[s]
    seen = mine | field
    if known >= 0:
        seen |= bit(known)
    m = gather(sc.cards, ~seen & np.uint64(0xFFFFFFFFFFFF))
    st = rng[0]
    sc.total[1] = 0.0
    sc.total2[1] = 0.0
    for _ in range(k):
        st = shuffle(sc.cards, m, st)
        x = deal_others(sc.cards, sc.high, 8, n, s, mine, HAND_SIZE)
        mm = m
        if known >= 0:  # the top of the pile is the card the seat put there
            sc.cards[m] = sc.cards[x]
            sc.cards[x] = known
            mm = m + 1
        top0 = sc.cards[x]
        pk0 = np.int64(0)
        if not lowest_pick:
            st, pk0 = _draw4(st)
        ps = st  # the later swaps' picks: the same for both choices
        st += GOLDEN
        v0 = 0.0
        for j in range(2):
            for o in range(n):
                sc.high[o] = sc.high[8 + o]
            sc.cards[x] = top0
            pst = ps
            if j == 0:
                c = c0 + pk0
                sc.high[s] = (sc.high[s] & ~bit(c)) | bit(sc.cards[x])
                sc.cards[x] = c
            for o in range(s, n):
                h = sc.high[o]
                f = fm if o == s else (h & (h >> ONE) & (h >> np.uint64(2)) & (h >> np.uint64(3))
                                       & np.uint64(0x111111111111))
                while f != ZERO:
                    c1 = lowest(f)
                    f &= f - ONE
                    pk = np.int64(0)
                    if not lowest_pick:
                        pst, pk = _draw4(pst)
                    c = c1 + pk
                    sc.high[o] = (sc.high[o] & ~bit(c)) | bit(sc.cards[x])
                    sc.cards[x] = c
            v = _dealt_value(sc, tb, gpol, n, s, -1, res, field, x, mm)
            v0 = _add_gain(sc, j, v, v0)
        sc.cards[x] = top0
        if known >= 0:
            sc.cards[x] = sc.cards[m]  # the unseen set again in sc.cards[:m]
    rng[0] = st
    return _pick(sc, 2, k) == 0


@hot
def _look_expose(ks, pile, rng, tb, cur, k, mine, opp, look):
    """Expose (True) or hide the teyaku worth ``mine`` chips of a lookahead player, seat
    ``cur`` of the play state ``ks`` (before the first turn).  ``opp``: the teyaku bits the
    opponent claimed, or -1 when it has not decided yet (it then claims any it holds, as
    greedy does).  With ``teyaku_effect=play_on`` exposing pays ``mine``; the cards shown
    become known (``teyaku_shown``), which only a lookahead opponent's determinisations read:
    the rollouts' greedy/stop players never do, so in this model it changes nothing else and
    is always taken; with
    ``round_ends`` exposing ends the round at ``mine`` less the opponent's claim, hiding plays
    on unless the opponent claims: the mean over K determinisations of the opponent's hand
    and the pile, played by greedy/stop; hiding is taken when its paired mean gain exceeds one
    standard error (``_pick``)."""
    p = tb.params
    if look is None or p[P_TEY_ENDS] == 0:
        return True
    _t, _r, sc, gpol = look
    km = tb.kind_masks
    s = rng[0]
    seen = pile[:np.int64(ks[K_N_ALL])]
    sc.total[1] = 0.0
    sc.total2[1] = 0.0
    for _ in range(k):
        s = determinise(ks, 2, cur, seen, 0, s, sc)
        ob = opp
        if opp < 0:
            ob = teyaku_bits(sc.base[1 - cur], km[0], km[1], km[2], km[3], p[P_READING],
                             p[P_PAIRS])
        oc = float(count(np.uint64(ob)) * p[P_TEY_VALUE])
        if ob != 0:
            hide = -oc
        else:
            for i in range(KS_N):
                sc.st[i] = sc.base[i]
            rollout(sc.st, sc.order, sc.rng, tb, gpol)
            hide = play_value(sc.st, tb, cur)
        _add_gain(sc, 1, hide, float(mine) - oc)
    rng[0] = s
    return _pick(sc, 2, k) == 0


@njit(cache=True)
def greedy_rows(pol):
    """The rollouts' policy rows (``pol``'s shape): greedy card play, Yoroshii at once
    (greedy/stop)."""
    g = pol.copy()
    g[:, PC_CARD] = GREEDY
    g[:, PC_DEC] = DEC_STOP
    return g


@hot
def play_round(drng, rng, order, pile, hands, ks, tb, pol, dealer, res, look):
    """Deal and play one round (module docstring, "A round"); results in ``res``.

    ``drng``: the deal stream (shuffles: the deal, the dropped cards); ``rng``: the play stream
    (every decision and random card play).  ``pol[player]``: policy row (PC_* columns)."""
    p = tb.params
    n = p[P_PLAYERS]
    km = tb.kind_masks
    for i in range(R_N):
        res[i] = 0
    res[R_N_PLAYERS] = n
    misdeals = 0
    redeals = 0
    a = -1
    b = -1
    top = HAND_SIZE * n + FIELD_SIZE
    field = ZERO
    while True:
        misdeals += deal_round(drng, order, n)
        top = HAND_SIZE * n + FIELD_SIZE
        field = ZERO
        for i in range(HAND_SIZE * n, top):
            field |= bit(order[i])
        for s in range(MAX_PLAYERS):
            hands[s] = ZERO
        # deal-time facts on the dealt hands, before any swap
        for s in range(n):
            h = dealt_hand(order, s)
            hands[s] = h
            res[R_TEY_DEALT + s] = teyaku_bits(h, km[0], km[1], km[2], km[3], p[P_READING],
                                               p[P_PAIRS])
            fm = h & (h >> np.uint64(1)) & (h >> np.uint64(2)) & (h >> np.uint64(3)) & np.uint64(0x111111111111)
            res[R_FOURS + s] = count(fm)
            res[R_SWAPS + s] = 0
            res[R_CHOICE + s] = CH_SEATED
            res[R_PLAYS + s] = 0
        if p[P_DEALS_ONLY]:
            res[R_MISDEALS] = misdeals
            return
        # the four-in-hand swap, seats in turn order from the dealer
        for s in range(n):
            fm = (hands[s] & (hands[s] >> np.uint64(1)) & (hands[s] >> np.uint64(2))
                  & (hands[s] >> np.uint64(3)) & np.uint64(0x111111111111))
            q = dealer + s
            q = q - n if q >= n else q
            known = -1  # the top of the pile, when this seat's own swap put it there
            while fm != ZERO and top < order.shape[0]:
                c0 = lowest(fm)
                fm &= fm - ONE
                sw = pol[q, PC_SWAP]
                if look is not None:  # noqa: SIM102  (pruned with None)
                    if sw == SWAP_LOOKAHEAD and not _look_swap(
                            rng, hands, field, s, c0, fm, known, n, tb,
                            min(SWAP_SAMPLES_PER_K * samples(pol[q, PC_CARD]),
                                SWAP_MAX_SAMPLES), look):
                        continue
                if sw == SWAP_NEVER or (sw == SWAP_RANDOM and below(rng, 2) == 0):
                    continue
                k = 0 if p[P_PICK_LOWEST] else below(rng, 4)
                c = c0 + k
                res[R_SWAP_IN] |= np.int64(bit(order[top]))
                res[R_SWAP_OUT] |= np.int64(bit(c))
                hands[s] = (hands[s] & ~bit(c)) | bit(order[top])
                order[top] = c
                known = np.int64(c)
                res[R_SWAPS + s] += 1
        # join or drop: seats 1, 2, ..., n-1, then the dealer
        a = -1
        b = -1
        if n == 2:
            a = 0
            b = 1
            res[R_PLAYS] = 1
            res[R_PLAYS + 1] = 1
            break
        joined = 0
        for j in range(n):
            s = j + 1 if j + 1 < n else 0
            q = dealer + s
            q = q - n if q >= n else q
            left = n - j  # undecided, this seat included
            if joined == 2:
                ch = CH_FORCED_OUT
            elif p[P_UNDECIDED] == 0 and left <= 2 - joined:
                ch = CH_FORCED_IN
            elif p[P_UNDECIDED] != 0 and redeals >= MAX_REDEALS and left <= 2 - joined:
                ch = CH_FORCED_IN
            else:
                jp = pol[q, PC_JOIN]
                if jp == JOIN_ALWAYS:
                    yes = True
                elif jp == JOIN_RANDOM:
                    yes = below(rng, 2) == 1
                else:
                    yes = join_strength(hands[s], field, km[3]) >= pol[q, PC_JPARAM]
                if look is not None:  # noqa: SIM102  (pruned with None)
                    if jp == JOIN_LOOKAHEAD:
                        yes = _look_join(rng, hands, field, s, j, n, res, tb, yes,
                                         samples(pol[q, PC_CARD]), look)
                ch = CH_JOIN if yes else CH_DROP
            res[R_CHOICE + s] = ch
            if ch == CH_JOIN or ch == CH_FORCED_IN:
                res[R_PLAYS + s] = 1
                joined += 1
        if joined == 2:
            for s in range(n):
                if res[R_PLAYS + s] != 0:
                    if a < 0:
                        a = s
                    else:
                        b = s
            break
        redeals += 1
    # the dropped hands and the draw pile
    end = 0
    for i in range(top, order.shape[0]):
        pile[end] = order[i]
        end += 1
    aside = ZERO
    under = end
    for s in range(n):
        if res[R_PLAYS + s] == 0:
            if p[P_DROPPED] == DROP_ASIDE:
                aside |= hands[s]
            else:
                m = hands[s]
                while m != ZERO:
                    pile[end] = lowest(m)
                    m &= m - ONE
                    end += 1
            hands[s] = ZERO
    if p[P_DROPPED] == DROP_UNDER:
        shuffle_span(drng, pile, under, end)
    elif p[P_DROPPED] == DROP_SHUFFLED:
        shuffle_span(drng, pile, 0, end)
    qa = dealer + a
    qa = qa - n if qa >= n else qa
    qb = dealer + b
    qb = qb - n if qb >= n else qb
    ha = hands[a]
    hb = hands[b]
    # teyaku: each player holding some may expose (claim) them
    ta = teyaku_bits(ha, km[0], km[1], km[2], km[3], p[P_READING], p[P_PAIRS])
    tbits = teyaku_bits(hb, km[0], km[1], km[2], km[3], p[P_READING], p[P_PAIRS])
    # the play, as a resumable state (the lookahead copies it and plays determinisations on)
    n_all = end
    m = aside  # the cards set aside follow the pile in its buffer: unseen, never drawn
    while m != ZERO:
        pile[n_all] = lowest(m)
        m &= m - ONE
        n_all += 1
    start_play(ks, ha, hb, field, end, n_all)
    ca = 0
    cb = 0
    if ta != 0:
        shown = False
        asked = False
        if look is not None:  # noqa: SIM102  (pruned with None)
            if pol[qa, PC_EXPOSE] == EXPOSE_LOOKAHEAD:
                shown = _look_expose(ks, pile, rng, tb, 0, samples(pol[qa, PC_CARD]),
                                     count(np.uint64(ta)) * p[P_TEY_VALUE], np.int64(-1), look)
                asked = True
        if not asked:
            shown = choose_expose(pol[qa, PC_EXPOSE], rng)
        if shown:  # the cards shown are face up from now on (teyaku_shown)
            res[R_TEY_CLAIMED + a] = ta
            ca = count(np.uint64(ta)) * p[P_TEY_VALUE]
            ks[K_KNOWN] = teyaku_shown(ha, ta, p[P_PAIRS])
    if tbits != 0:
        shown = False
        asked = False
        if look is not None:  # noqa: SIM102  (pruned with None)
            if pol[qb, PC_EXPOSE] == EXPOSE_LOOKAHEAD:
                shown = _look_expose(ks, pile, rng, tb, 1, samples(pol[qb, PC_CARD]),
                                     count(np.uint64(tbits)) * p[P_TEY_VALUE],
                                     res[R_TEY_CLAIMED + a], look)
                asked = True
        if not asked:
            shown = choose_expose(pol[qb, PC_EXPOSE], rng)
        if shown:
            res[R_TEY_CLAIMED + b] = tbits
            cb = count(np.uint64(tbits)) * p[P_TEY_VALUE]
            ks[K_KNOWN + 1] = teyaku_shown(hb, tbits, p[P_PAIRS])
    chips_a = ca - cb
    winner = -1
    stopper = -1
    points = 0
    hits = 0
    paid = 0
    calls_a = 0
    calls_b = 0
    if p[P_TEY_ENDS] != 0 and (res[R_TEY_CLAIMED + a] | res[R_TEY_CLAIMED + b]) != 0:
        end_kind = END_TEYAKU
        winner = a if chips_a > 0 else (b if chips_a < 0 else -1)
    else:
        play_from(ks, pile, rng, tb, pol, qa, qb, look)
        end_kind, stopper, points, hits = settle(ks, tb)
        calls_a = np.int64(ks[K_CALLS])
        calls_b = np.int64(ks[K_CALLS + 1])
        if stopper >= 0:
            paid = calls_a if stopper == 0 else calls_b
            chips_a += points if stopper == 0 else -points
            stopper = a if stopper == 0 else b
            winner = stopper
    field = ks[K_FIELD]
    top = np.int64(ks[K_TOP])
    turns = np.int64(ks[K_TURNS])
    decisions = np.int64(ks[K_DECISIONS])
    pa = ks[K_PA]
    pb = ks[K_PA + 1]
    ha = ks[0]
    hb = ks[1]
    res[R_CHIPS + a] = chips_a
    res[R_CHIPS + b] = -chips_a
    res[R_CONT + a] = calls_a
    res[R_CONT + b] = calls_b
    res[R_WINNER] = winner
    res[R_STOPPER] = stopper
    res[R_END] = end_kind
    res[R_POINTS] = points
    res[R_HITS] = hits
    res[R_TURNS] = turns
    res[R_DECISIONS] = decisions
    res[R_MISDEALS] = misdeals
    res[R_REDEALS] = redeals
    res[R_FIRST] = a
    res[R_SECOND] = b
    res[R_PAID] = paid
    res[R_FIELD] = np.int64(field)
    res[R_TOP] = top
    res[R_END_PILE] = end
    res[R_PILE_A] = np.int64(pa)
    res[R_PILE_B] = np.int64(pb)
    res[R_HAND_A] = np.int64(ha)
    res[R_HAND_B] = np.int64(hb)
    res[R_ASIDE] = np.int64(aside)


@hot
def first_dealer(drng, order, n):
    """The first dealer (both texts, Choosing the Dealer): each player draws one card, the
    earliest month deals.  Neither text settles two cards of one month: the tied players draw
    again (all cards back in the deck, a fresh draw of one card each; the others' cards of the
    redraw are not read), as the 1997 koi-koi text does for its cut."""
    cand = (1 << n) - 1
    while True:
        shuffle_range(drng, order, 0, n)
        best = 99
        for q in range(n):
            if (cand >> q) & 1:
                best = min(best, order[q] >> 2)
        new = 0
        for q in range(n):
            if (cand >> q) & 1 and (order[q] >> 2) == best:
                new |= 1 << q
        cand = new
        if (cand & (cand - 1)) == 0:
            return lowest(np.uint64(cand))


# counters
(C_DEALS, C_MISDEALS, C_ROUNDS, C_REDEALS, C_EXHAUSTED, C_STOPS, C_TEY_ENDS, C_NOBODY,
 C_CALLS, C_CALLS_SQ, C_DECISIONS, C_PAID, C_TURNS, C_TURNS_SQ, C_STOP_N, C_STOP_SUM,
 C_STOP_SQ, C_CONT_N, C_CONT_SUM, C_CONT_SQ, C_WON, C_WON_PTS, C_WON_PTS_SQ, C_SESSIONS,
 C_FIRST_TOTAL, C_FIRST_TOTAL_SQ, C_FIRST_WINS, C_FIRST_TIES, C_FM_CHIPS, C_FM_CHIPS_SQ,
 C_FM_WINS, C_SWAPS, C_FOUR_HANDS, C_HANDS, C_TEY_CLAIMS, C_TEY_CHIPS, C_SWAP_HANDS,
 C_DEALER_PLAYS) = range(38)
C_SEAT = 40
(S_CHIPS, S_CHIPS_SQ, S_WINS, S_PLAYS, S_JOIN, S_DROP, S_FORCED_IN, S_FORCED_OUT, S_FIRST,
 S_LOSSES) = range(10)
S_N = 10
C_PLAYER = C_SEAT + S_N * MAX_PLAYERS
(Q_CHIPS, Q_CHIPS_SQ, Q_DEALS, Q_WINS, Q_PLAYS) = range(5)
Q_N = 5
C_N = C_PLAYER + Q_N * MAX_PLAYERS


@hot
def tally_deal(scal, tcount, res, n):
    scal[C_DEALS] += res[R_MISDEALS] + 1
    scal[C_MISDEALS] += res[R_MISDEALS]
    scal[C_ROUNDS] += 1
    scal[C_HANDS] += n
    anyk = 0
    for t in range(5):
        k = 0
        for s in range(n):
            k += (res[R_TEY_DEALT + s] >> t) & 1
        tcount[t, 0] += k
        tcount[t, 1] += k * k
    for s in range(n):
        anyk += res[R_TEY_DEALT + s] != 0
        scal[C_FOUR_HANDS] += res[R_FOURS + s] > 0
    tcount[5, 0] += anyk
    tcount[5, 1] += anyk * anyk


@hot
def tally_round(scal, ycount, res, dealer, n):
    scal[C_REDEALS] += res[R_REDEALS]
    end = res[R_END]
    w = res[R_WINNER]
    scal[C_EXHAUSTED] += end == END_EXHAUSTED
    scal[C_STOPS] += end == END_STOP
    scal[C_TEY_ENDS] += end == END_TEYAKU
    scal[C_NOBODY] += w < 0
    calls = res[R_CONT] + res[R_CONT + 1] + res[R_CONT + 2] + res[R_CONT + 3]
    scal[C_CALLS] += calls
    scal[C_CALLS_SQ] += calls * calls
    scal[C_DECISIONS] += res[R_DECISIONS]
    scal[C_PAID] += res[R_PAID]
    t = res[R_TURNS]
    scal[C_TURNS] += t
    scal[C_TURNS_SQ] += t * t
    st = res[R_STOPPER]
    if end == END_STOP:
        x = res[R_CHIPS + st]
        scal[C_STOP_N] += 1
        scal[C_STOP_SUM] += x
        scal[C_STOP_SQ] += x * x
        tally_one(ycount, res[R_HITS])
    if st >= 0:
        pts = res[R_POINTS]
        scal[C_WON] += 1
        scal[C_WON_PTS] += pts
        scal[C_WON_PTS_SQ] += pts * pts
    fm = res[R_FIRST]
    x = res[R_CHIPS + fm]
    scal[C_FM_CHIPS] += x
    scal[C_FM_CHIPS_SQ] += x * x
    scal[C_FM_WINS] += w == fm
    scal[C_DEALER_PLAYS] += res[R_PLAYS]
    for s in range(n):
        k = res[R_CONT + s]
        x = res[R_CHIPS + s]
        if k > 0:
            scal[C_CONT_N] += k
            scal[C_CONT_SUM] += k * x
            scal[C_CONT_SQ] += k * x * x
        scal[C_SWAPS] += res[R_SWAPS + s]
        scal[C_SWAP_HANDS] += res[R_SWAPS + s] > 0
        c = res[R_TEY_CLAIMED + s]
        if c != 0:
            scal[C_TEY_CLAIMS] += 1
            scal[C_TEY_CHIPS] += count(np.uint64(c))
        b = C_SEAT + S_N * s
        scal[b + S_CHIPS] += x
        scal[b + S_CHIPS_SQ] += x * x
        scal[b + S_WINS] += w == s
        scal[b + S_LOSSES] += x < 0
        scal[b + S_PLAYS] += res[R_PLAYS + s]
        ch = res[R_CHOICE + s]
        scal[b + S_JOIN] += ch == CH_JOIN
        scal[b + S_DROP] += ch == CH_DROP
        scal[b + S_FORCED_IN] += ch == CH_FORCED_IN
        scal[b + S_FORCED_OUT] += ch == CH_FORCED_OUT
        scal[b + S_FIRST] += fm == s
        q = dealer + s
        q = q - n if q >= n else q
        c2 = C_PLAYER + Q_N * q
        scal[c2 + Q_CHIPS] += x
        scal[c2 + Q_CHIPS_SQ] += x * x
        scal[c2 + Q_DEALS] += s == 0
        scal[c2 + Q_WINS] += w == s
        scal[c2 + Q_PLAYS] += res[R_PLAYS + s]


@hot
def tally_one(ycount, hits):
    m = np.uint64(hits)
    while m != ZERO:
        i = lowest(m)
        m &= m - ONE
        ycount[i, 0] += 1
        ycount[i, 1] += 1
    if hits != 0:
        ycount[ycount.shape[0] - 1, 0] += 1
        ycount[ycount.shape[0] - 1, 1] += 1


@hot
def play_sessions(seed, s0, s1, total_rounds, rng, drng, order, pile, hands, ks, res, totals, tb,
                  pol, scal, tcount, ycount, look):
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
            play_round(drng, rng, order, pile, hands, ks, tb, pol, dealer, res, look)
            tally_deal(scal, tcount, res, n)
            if p[P_DEALS_ONLY]:
                continue
            tally_round(scal, ycount, res, dealer, n)
            for st in range(n):
                q = dealer + st
                q = q - n if q >= n else q
                totals[q] += res[R_CHIPS + st]
            if p[P_FIXED_DEALER] == 0:
                if p[P_ROTATE] != 0:
                    dealer = dealer + 1 if dealer + 1 < n else 0
                elif res[R_WINNER] >= 0:
                    dealer = dealer + res[R_WINNER]
                    dealer = dealer - n if dealer >= n else dealer
        if p[P_DEALS_ONLY] or n_rounds < session:
            continue  # deals only, or a session cut off by the end of the run: no session
        scal[C_SESSIONS] += 1
        ft = totals[first]
        scal[C_FIRST_TOTAL] += ft
        scal[C_FIRST_TOTAL_SQ] += ft * ft
        scal[C_FIRST_WINS] += ft > 0
        scal[C_FIRST_TIES] += ft == 0


@njit(cache=True, nogil=True)
def run_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, pol, scal, tcount,
               ycount, look):
    """Sessions in chunks (the runner gives each thread its own chunks); ``look``: None, or
    True when a player plays by lookahead (a kernel of its own)."""
    n_chunks = scal.shape[0]
    for ch in range(n_chunks):
        rng = np.zeros(1, dtype=np.uint64)
        drng = np.zeros(1, dtype=np.uint64)
        order = np.arange(48).astype(np.int8)
        pile = np.zeros(PILE_N, dtype=np.int8)
        hands = np.zeros(MAX_PLAYERS, dtype=np.uint64)
        res = np.zeros(R_N, dtype=np.int64)
        totals = np.zeros(MAX_PLAYERS, dtype=np.int64)
        ks = np.zeros(KS_N, dtype=np.uint64)
        s0 = first_session + ch * chunk
        s1 = min(s0 + chunk, first_session + n_sessions)
        if look is None:
            play_sessions(seed, s0, s1, total_rounds, rng, drng, order, pile, hands, ks, res,
                          totals, tb, pol, scal[ch], tcount[ch], ycount[ch], None)
        else:
            ctx = (tb, res, new_scratch(KS_N, PILE_N, 2), greedy_rows(pol))
            play_sessions(seed, s0, s1, total_rounds, rng, drng, order, pile, hands, ks, res,
                          totals, tb, pol, scal[ch], tcount[ch], ycount[ch], ctx)


@njit(cache=True)
def lookahead_choice(tb, ks, pile, seed, k, v, h):
    """What a lookahead player decides in state ``ks`` with ``k`` determinisations on the
    random stream ``seed`` (for tests and for inspecting a decision): with ``v < 0`` the seat
    to move plays its turn, returns (hand card, cards captured, 0); else that seat has just
    formed dekiyaku ``h`` worth ``v`` chips, returns (-1, 0, 1 for Iku / 0 for Yoroshii)."""
    res = np.zeros(R_N, dtype=np.int64)
    look = (tb, res, new_scratch(KS_N, PILE_N, 2),
            greedy_rows(np.zeros((MAX_PLAYERS, PC_N), dtype=np.int64)))
    rng = np.full(1, seed, dtype=np.uint64)
    cur = np.int64(ks[K_CUR])
    if v < 0:
        hand = ks[cur]
        after, _f, cap, _t = _look_turn(ks, pile, rng, tb, cur, k, look)
        return lowest(hand & ~after), np.int64(cap), np.int64(0)
    go = _look_continue(ks, pile, rng, tb, cur, k, v, h, look)
    return np.int64(-1), np.int64(0), np.int64(go)


@njit(cache=True)
def lookahead_join(tb, hands, field, s, j, res, seed, k):
    """A lookahead player's join (True) or drop at seat ``s``, the ``j``-th to speak, with
    ``k`` determinisations on the stream ``seed`` (``res``: the earlier seats' R_PLAYS; the
    JOIN policy's own choice is greedy's threshold 10).  For tests."""
    look = (tb, res, new_scratch(KS_N, PILE_N, 2),
            greedy_rows(np.zeros((MAX_PLAYERS, PC_N), dtype=np.int64)))
    rng = np.full(1, seed, dtype=np.uint64)
    yes = join_strength(hands[s], field, tb.kind_masks[3]) >= JOIN_DEFAULT_K
    return _look_join(rng, hands, field, s, j, tb.params[P_PLAYERS], res, tb, yes, k, look)


@njit(cache=True)
def lookahead_swap(tb, hands, field, s, c0, known, seed, k):
    """A lookahead player's swap (True) or keep of the four of ``c0``'s month at seat ``s``
    right after the deal (``hands``: the seats' hands, ``field``; ``known``: the top of the
    draw pile when the seat's own earlier swap put it there, else -1), with ``k``
    determinisations on the stream ``seed``.  For tests."""
    res = np.zeros(R_N, dtype=np.int64)
    look = (tb, res, new_scratch(KS_N, PILE_N, 2),
            greedy_rows(np.zeros((MAX_PLAYERS, PC_N), dtype=np.int64)))
    rng = np.full(1, seed, dtype=np.uint64)
    h = hands[s]
    fm = (h & (h >> ONE) & (h >> np.uint64(2)) & (h >> np.uint64(3))
          & np.uint64(0x111111111111)) & ~bit(c0)
    fm &= ~(bit(c0) - ONE)  # the fours after c0's, as the deal offers them
    return _look_swap(rng, hands, field, s, c0, fm, np.int64(known), tb.params[P_PLAYERS], tb,
                      k, look)


@njit(cache=True)
def lookahead_expose(tb, ks, pile, cur, mine, opp, seed, k):
    """A lookahead player's expose (True) or hide of teyaku worth ``mine`` chips, seat ``cur``
    of the play state ``ks`` before the first turn (``opp``: the opponent's claimed teyaku
    bits, -1 undecided), with ``k`` determinisations on the stream ``seed``.  For tests."""
    res = np.zeros(R_N, dtype=np.int64)
    look = (tb, res, new_scratch(KS_N, PILE_N, 2),
            greedy_rows(np.zeros((MAX_PLAYERS, PC_N), dtype=np.int64)))
    rng = np.full(1, seed, dtype=np.uint64)
    return _look_expose(ks, pile, rng, tb, cur, k, mine, opp, look)


def play_kernel(tb, seed, rounds, pol, first, n, chunk, out):
    run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, pol, out["scal"], out["tcount"],
               out["ycount"], uses_lookahead(pol[:, PC_CARD]))


# ---------------------------------------------------------------- exact deal-time rates

def _tey_from_state(st, hand_size, reading, pairs):
    """Teyaku bits of a hand summarised as the DP state of :func:`deal_exact`."""
    _h, _f, exact2, ge2, halves, _four, b, a, r, nonchaff = st
    if reading == "off":
        return 0
    tp = {"exact": exact2 == 3, "at_least": exact2 >= 3, "pairs_in_sets": ge2 >= 3,
          "disjoint": halves >= 3}[pairs]
    if reading == "ten_card":
        chaff_all = nonchaff == 0
        one = nonchaff == 1
        got = (tp, one and r == 1, one and a == 1, one and b == 1, chaff_all)
    else:
        few = nonchaff <= hand_size - 7  # at least seven chaff
        got = (tp, few and r >= 1, few and a >= 1, few and b >= 1, nonchaff <= hand_size - 8)
    return sum(1 << i for i, g in enumerate(got) if g)


@lru_cache(maxsize=4)
def _deal_states(kinds) -> dict:
    """The DP of :func:`deal_exact` (its final states and their numbers of deals), computed
    once for every reading."""
    from collections import defaultdict
    from itertools import combinations
    from math import comb

    H, F = HAND_SIZE, FIELD_SIZE
    dp = {(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0): 1}  # + the field-four flag
    for m in range(12):
        moves = defaultdict(int)  # (taken, brights, animals, ribbons) -> subsets of the month
        for x in range(5):
            for sub in combinations(range(4 * m, 4 * m + 4), x):
                moves[(x, sum(kinds[c] == decks.BRIGHT for c in sub),
                       sum(kinds[c] == decks.ANIMAL for c in sub),
                       sum(kinds[c] == decks.RIBBON for c in sub))] += 1
        new = defaultdict(int)
        for key, w in dp.items():
            h, f, e2, g2, hv, four, b, a, r, nc, ff = key
            for (x, kb, ka, kr), ways in moves.items():
                if h + x > H:
                    continue
                st = (h + x, min(e2 + (x == 2), 4), min(g2 + (x >= 2), 3),
                      min(hv + x // 2, 3), four | (x == 4), min(b + kb, 2), min(a + ka, 2),
                      min(r + kr, 2), min(nc + kb + ka + kr, 4))
                for y in range(0, min(4 - x, F - f) + 1):
                    new[(st[0], f + y) + st[1:] + (ff | (y == 4),)] += w * ways * comb(4 - x, y)
        dp = new
    return dict(dp)


def deal_exact(reading="ten_card", pairs="exact", deck=HANAFUDA) -> list:
    """Exact deal-time rates as ``(quantity, condition, Fraction)`` rows: the field misdeal
    rate, each teyaku and ``any`` for one given seated hand, and ``four_in_hand_rate``, over
    all deals and over the deals that are played (no four of a month on the field).

    Only one hand and the field matter (the other hands and the draw pile are not checked), so
    a DP over the months picks the hand's cards of each month (by kind: willow cards by their
    own type) and how many of the rest go to the field; the state keeps the hand's and field's
    sizes and just enough of the hand to decide every teyaku (months with exactly two, with
    two or more, disjoint pairs, a four, bright/animal/ribbon counts capped at 2 and non-chaff
    capped at 4).  The other groups take the rest in a number of ways that does not depend on
    which cards they are, so it cancels."""
    from fractions import Fraction

    dp = _deal_states(tuple(int(k) for k in deck.kind))
    H, F = HAND_SIZE, FIELD_SIZE
    total = 0
    played = 0
    counts_all = [0] * 7  # five teyaku, any, four in hand
    counts_ok = [0] * 7
    misdeal = 0
    for key, w in dp.items():
        if key[0] != H or key[1] != F:
            continue
        st = key[:10]
        bitsv = _tey_from_state(st, H, reading, pairs)
        hits = [(bitsv >> i) & 1 for i in range(5)] + [int(bitsv != 0), key[5]]
        total += w
        for i, v in enumerate(hits):
            counts_all[i] += w * v
        if key[10]:
            misdeal += w
        else:
            played += w
            for i, v in enumerate(hits):
                counts_ok[i] += w * v
    names = [f"teyaku.{t}" for t in TEYAKU] + ["teyaku.any", "four_in_hand_rate"]
    rows = [("misdeal_rate", "all_deals", Fraction(misdeal, total))]
    for i, q in enumerate(names):
        rows.append((q, "all_deals", Fraction(counts_all[i], total)))
        rows.append((q, "no_misdeal", Fraction(counts_ok[i], played)))
    return rows


# ---------------------------------------------------------------- public layer
from ..reading import Line, Reading  # noqa: E402  (kept with the declaration it serves)

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


class Kushiro:
    """The registry entry: what the API, the CLI and the statistics layer ask of a game."""

    reading = READING

    name = NAME
    title = "Kushiro Toppa (2-4 players, two play each round)"
    source = (f"{sources.dated('kushiro_page')} and {sources.title('kushiro_2022')}; they "
              "differ only in the chaff teyaku")
    seed_file = "001_8b84054184cb1288"
    #: policies are given for up to 4 players; with fewer seated the first ``players`` are used
    n_players = MAX_PLAYERS
    seats = SEATS
    Rules = KushiroRules
    par = None
    teyaku_names = TEYAKU
    version = 3  # bump when a rule's behaviour, an option or a policy's play changes
    lookahead = True  # every decision: swap, join/drop, expose, cards, picks, Iku/Yoroshii
    key_quantities = ("dealer.mean_chips", "dealer.play_rate", "first_player.mean_chips")

    @property
    def main_kernel(self):
        return run_chunks

    def findings(self, by) -> list:
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

    def players_of(self, rules) -> int:
        """Players seated under ``rules`` (one policy and one expose choice each)."""
        return int(rules.players)

    def policy_ids(self, names) -> np.ndarray:
        return np.array([parse_kushiro_policy(x) for x in names], dtype=np.int64)

    def exact_table(self, rules):
        """Exact field-misdeal rate, teyaku and four-in-hand rates of one seated hand under the
        rules' teyaku_reading and three_pairs (``hanasim exact``); the same for any number of
        players (one hand and the field decide them)."""
        from ..stats.exact import rows_table

        return rows_table(deal_exact(rules.teyaku_reading, rules.three_pairs), NAME)

    def counters(self, rules, *, rounds, seed, policy, expose, session_rounds=1,
                 fixed_dealer=False, checked=False, progress=False, deals_only=False,
                 **run_options):
        """Integer counters of ``rounds`` rounds (dict of arrays), summed over chunks."""
        from ..engine.runner import run_batches

        tb, names = lower(rules, fixed_dealer=fixed_dealer, session_rounds=session_rounds,
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
        shapes = dict(scal=(C_N,), tcount=(len(TEYAKU) + 1, 2), ycount=(len(names) + 1, 2))
        totals = run_batches(partial(play_kernel, tb, seed, rounds, pol), n_sessions, shapes,
                             rounds_per_session=session_rounds, progress=progress, desc=NAME,
                             **run_options)
        totals["dekiyaku_names"] = names
        totals["deals_only"] = bool(deals_only)
        totals["players"] = rules.players
        return totals

    def quantities(self, c, rules):
        """Tidy rows from the counters: per round unless said (teyaku and four-in-hand per
        seated hand, dekiyaku over stopped rounds, stop/continue values per decision)."""
        from ..stats import table as T

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
                rows += [
                    T.prop(f"{name}.join_rate", s[b + S_JOIN], r),
                    T.prop(f"{name}.drop_rate", s[b + S_DROP], r),
                    T.prop(f"{name}.forced_in_rate", s[b + S_FORCED_IN], r),
                    T.prop(f"{name}.forced_out_rate", s[b + S_FORCED_OUT], r),
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


register(Kushiro())
