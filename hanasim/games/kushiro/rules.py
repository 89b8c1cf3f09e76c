"""Kushiro Toppa's house rules: the options, their documented defaults (each citing the 2022
Kushiro Toppa text or the Kushiro Toppa rule page, or named as hanasim's reading) and when an
option cannot change the result."""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import ClassVar

from ...rules import number, option, when_zero
from .. import toppa

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
