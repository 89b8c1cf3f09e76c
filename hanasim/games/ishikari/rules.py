"""Ishikari Toppa's options: Bakappana's (card points, par, games, next dealer) plus the table
size, the teyaku list and the chase (the Ishikari Toppa rule page: "Bakappana but with
Teyaku").  Its dealing is Hachi-hachi's (the Hachi-hachi rule page, "Dealing the Cards")."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...rules import no_first_draw, option
from ..bakappana.rules import _tie_inert

NAME = "ishikari_toppa"
MAX_PLAYERS = 6
ACTIVE = 3
HAND, FIELD = 7, 6
SEATS = ("dealer", "seat1", "seat2", "seat3", "seat4", "seat5")
POSITIONS = ("first", "second", "third")  # the active players in turn order
TEYAKU_WARNING = ("the rule page warns: 'The list of Teyaku has not been attested. (NEEDS MORE "
                  "DOCUMENTATION)'")
TEYAKU_LISTS = ("hachihachi", "toppa", "none")


def _three(r, run):
    return "with 3 players nobody joins, drops or chases" if run.players == 3 else None


def _no_teyaku(r, run):
    return "teyaku=none: no teyaku is scored" if r.teyaku == "none" else None


@dataclass(frozen=True)
class IshikariRules:
    """House rules of Ishikari Toppa; defaults cite the Ishikari Toppa rule page (and, where it
    says "the same as", the Bakappana and Hachi-hachi rule pages)."""

    game: ClassVar[str] = NAME
    seats: ClassVar[tuple] = SEATS
    players: int = option(4, (3, 4, 5, 6), "players at the table (3 to 6); three play each round: 'it is assumed the game is played by more than 3 players, but only 3 players participate in the round at once' (the Ishikari Toppa rule page); 4 is the smallest table with the join/drop phase")
    teyaku: str = option("hachihachi", TEYAKU_LISTS, "the teyaku list; " + TEYAKU_WARNING + ". hachihachi: the page's first candidate, Hachi-hachi's list ('The same as in Hachi-hachi, but with differences written below': Three Pairs called 'sanzokuichi'; a Four of a Kind placed face down, one of the four, chosen by another player, exchanged for the top card of the deck, the other three shown as a Triplet), the best of Group A plus the best of Group B, in kan (kan_points); toppa: the second candidate ('a combination of Teyaku in both 2-player Toppa and Kushiro Toppa') read as 2-player Toppa's list for a 7-card hand as Baka scales it (triplet, one ribbon, one animal, one bright with six chaff 20 points each, seven chaff 30; they add up); none: Bakappana's card points alone (Teyaku)")
    kan_points: int = option(12, (12, 10), "points a kan is worth, for Hachi-hachi's teyaku values: 12 ('Traditionally, the game uses a dozenal system') or 10 ('A lot of modern rulesets prefer ... decimal') (the Hachi-hachi rule page, A Note on Scoring)", inert=lambda r, run: None if r.teyaku == "hachihachi" else "only Hachi-hachi's teyaku are valued in kan")
    rounds_per_game: int = option(12, (12, 6, 3, 1), "rounds in a game (Bakappana's: 12 traditional, 6 or 3; the Bakappana rule page, Setup); 1 plays independent rounds")
    chaff_points: int = option(1, (1, 0), "chaff 1 point (the '88 no bakappana', par 88 each) or 0 (the '80', par 80) (the Bakappana rule page, Variations '88 vs 80')")
    tie_dealer: str = option("keep", ("keep", "random"), "the highest scorer deals next; a tied top score goes to the tied player first in turn order from the dealer (keep) or to one at random (the Bakappana rule page, End of Round and Scoring: 'frequently unspecified')", inert=_tie_inert)
    first_dealer: str = option("draw", ("draw",), "the first dealer: one card each, the earliest month deals, within a month the higher-ranked card, a remaining tie draws again (the Bakappana and Hachi-hachi rule pages, Choosing the Dealer)", inert=no_first_draw)
    chase: str = option("on", ("on", "off"), "on: when more than 3 declare to join, 'all payments for the next round will be doubled', tripled after a second chase in a row, and so on; off: no multiplier (Chasing)", inert=_three)
    fewer_join: str = option("forced_in", ("forced_in",), "as soon as all but three players have dropped, the rest must play (Hachi-hachi's 'Some versions of the game require that three people play, no matter what'; the Ishikari Toppa page does not say) (Join-in / Drop-out Phase)", inert=_three)

    def check(self):
        pass


def deal_pattern(n: int) -> np.ndarray:
    """Hachi-hachi's dealing for ``n`` players ("Dealing the Cards"): from the dealer's right
    anticlockwise, the dealer last, 4 cards to each player, 3 to the table, 3 to each, 3 to the
    table.  Seat k's hand is group k, the field group n."""
    seats = list(range(1, n)) + [0]
    out = [s for s in seats for _ in range(4)] + [n] * 3
    out += [s for s in seats for _ in range(3)] + [n] * 3
    return np.array(out, dtype=np.int8)
