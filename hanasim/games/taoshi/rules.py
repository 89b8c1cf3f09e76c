"""Taoshi's house rules: the deck, the teyaku and dekiyaku tables, the burdens, the options
and their documented defaults (each citing the Taoshi rule page or the 2022 Taoshi text, or
named as hanasim's reading), and when an option cannot change the result."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

import numpy as np

from ...decks import MEKURIFUDA
from ...rules import Kind, RuleError, _check_type, declare_inert, number, option

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


def _three_play(r, run):
    return ("with 3 players all three play: nobody drops out or is forced out"
            if r.players == 3 else None)


declare_inert(TaoshiRules, drop_fee=_three_play, forced_out_pay=_three_play,
              dropped_cards=_three_play, forced_out_botta=_three_play)
