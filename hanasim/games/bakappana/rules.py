"""Bakappana's house-rule options and the deal they imply (the Bakappana rule page).

Every option's text cites the page's section; where the page leaves a point open (the next
dealer on a tied top score) the default is a reading, said so in its text.  Pars and deals are
not options: the page gives them for each number of players (``par``, ``deal_sizes``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...rules import RuleError, no_first_draw, option

NAME = "bakappana"
MAX_PLAYERS = 4
# seat k plays k-th from the dealer: turn order is anticlockwise, to the dealer's right
SEATS = ("dealer", "seat1", "seat2", "seat3")
PAGE = "the rule page's"


def _not_two(r, run):
    return None if run.players == 2 else f"with {run.players} players the hands and the draw " \
        "pile run out together"


def _tie_inert(r, run):
    if run.fixed_dealer:
        return "player 1 deals every round (fixed dealer)"
    return "each game is one round, so the deal never passes" if r.rounds_per_game == 1 else None


@dataclass(frozen=True)
class BakappanaRules:
    """House rules of Bakappana; every default is the Bakappana rule page's main reading."""

    game: ClassVar[str] = NAME
    seats: ClassVar[tuple] = SEATS
    players: int = option(3, (2, 3, 4), "players (2 to 4): 7 cards each and 6 to the field with 3, 8 each and 8 to the field with 2, 5 each and 8 to the field with 4 (Setup, 'Distributing the Initial Cards'; 3 is the version the page describes and pictures first)")
    rounds_per_game: int = option(12, (12, 6, 3, 1), "rounds in a game, the highest total winning it: 12 is traditional, 6 and 3 'options for shorter games' (Setup); 1 plays independent rounds")
    scoring: str = option("zero_sum", ("zero_sum", "additive"), "zero_sum: card points less the par (264 / players: 132, 88, 66), the traditional gambling score; additive: the card points alone, 'much simpler' (End of Round and Scoring)")
    chaff_points: int = option(1, (1, 0), "1: chaff 1 point each, the '88 no bakappana' (a 264-point deck, pars 132/88/66); 0: chaff worthless, the '80 no bakappana' (240 points, pars 120/80/60) (Variations, '88 vs 80')")
    two_player_deal: int = option(8, (8, 10), "2 players: 8 cards each (the page's deal; 8 cards stay in the draw pile) or 10 each, so the hands and the draw pile run out together (Variations, '10-Card Hand')", inert=_not_two)
    two_player_end: str = option("draw_out", ("draw_out", "hands_empty"), "2 players dealt 8 each: draw_out, the players go on turning the 8 cards left in the draw pile, one a turn, until it is exhausted (End of Round and Scoring: required for zero-sum scoring); hands_empty, the round ends when both hands are empty, the 8 cards untouched (only with additive scoring: 'may sometimes specify')", inert=lambda r, run: _not_two(r, run) or ("10-card hands exhaust the draw pile" if r.two_player_deal == 10 else None))
    tie_dealer: str = option("keep", ("keep", "random"), "the highest scorer of a round deals the next; on a tied top score (the page: 'frequently unspecified, and best agreed upon as a house rule') keep: the tied player first in turn order from the dealer deals (the dealer keeps the deal when tied for the top), random: one of the tied players at random (End of Round and Scoring)", inert=_tie_inert)
    first_dealer: str = option("draw", ("draw",), "the first dealer: each player draws a card, the earliest month deals, within a month the higher-ranked card (bright, animal, ribbon, chaff), a remaining tie draws again ('No method is stipulated'; the page's hanafuda-specific method) (Choosing the Dealer)", inert=no_first_draw)

    def check(self):
        if self.scoring == "zero_sum" and self.players == 2 and self.two_player_deal == 8 \
                and self.two_player_end == "hands_empty":
            raise RuleError("rule 'two_player_end' cannot be hands_empty with scoring=zero_sum: "
                            "'the scores will not remain zero-sum unless all cards are played "
                            "and captured' (the Bakappana rule page, End of Round and Scoring)")


def deck_points(rules) -> int:
    """264 with chaff worth 1 (the '88 no bakappana'), 240 with chaff worthless ('80')."""
    return 240 + 24 * rules.chaff_points


def par(rules) -> int:
    """The par value: the deck's points / players (132/88/66, or 120/80/60 for the '80');
    0 under additive scoring."""
    return deck_points(rules) // rules.players if rules.scoring == "zero_sum" else 0


def deal_sizes(rules) -> tuple:
    """(hand size, field size) for the rules' players (Distributing the Initial Cards)."""
    n = rules.players
    if n == 2:
        return rules.two_player_deal, 8
    return (7, 6) if n == 3 else (5, 8)


def draws_out(rules) -> bool:
    """Whether cards are left in the draw pile when the hands are empty, to be turned one a
    turn until it is exhausted (2 players, 8 cards each, ``two_player_end=draw_out``)."""
    hand, field = deal_sizes(rules)
    return (rules.players * hand + field + rules.players * hand < 48
            and rules.two_player_end == "draw_out")


def deal_pattern(n: int, hand: int) -> np.ndarray:
    """The dealing order as groups (seat k's hand is group k, the field group n).

    The page's conventions ("There is no required order for dealing"): two players, 4 to the
    opponent, 4 to the table, 4 to the dealer, twice (packets of 5, 4, 5 for 10-card hands);
    three, 4 to each player anticlockwise from the dealer's right, 3 to the table, 3 to each,
    3 to the table.  None is given for four: 3 to each, 4 to the table, 2 to each, 4 to the
    table.  A uniform shuffle gives every fixed order the same deal distribution."""
    f = n
    if n == 2:
        a, b = (4, 4) if hand == 8 else (5, 5)
        return np.array(([1] * a + [f] * 4 + [0] * b) * 2, dtype=np.int8)
    seats = list(range(1, n)) + [0]  # the dealer's right first, the dealer last
    first, second = (4, 3) if n == 3 else (3, 2)
    tables = (3, 3) if n == 3 else (4, 4)
    out = [s for s in seats for _ in range(first)] + [f] * tables[0]
    out += [s for s in seats for _ in range(second)] + [f] * tables[1]
    return np.array(out, dtype=np.int8)
