"""Taipa hanafuda's rules: the options with their documented defaults, and the numbers of a deal.

Rules: the Taipa rule page (``shared/seeds/002_06e64cb5319513a5.txt``; also
``shared/rule-pages/newgames_taipa-hanafuda.md``, the same text).  Every point the rule page
leaves open is an option of :class:`TaipaRules` whose text says what the default does and why.

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
  (``round.play_from``; ``lookahead.py``), and under ``yaku_cards=choice`` which of its
  ribbons and chaff leave play between rounds, by rollouts of the rest of the game
  (``yaku_choice.py``).

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

A game is played by ``game.play_game`` (the first player, the coins, the deck that shrinks);
the cards that leave play by ``removals.py``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...rules import RuleError, number, option

NAME = "taipa"
N_PLAYERS = 2
SERIES_ROUNDS = 120      # counted rounds per session (see "Simulation unit")
HAND = 6                 # seed, "Setup": 6 cards to each hand and 6 to the field
DEALT = 3 * HAND
FULL_ROUND = DEALT + 2 * HAND  # the cards a round uses when every turn draws
MAX_ROUNDS = 6
DEALS_PER_SESSION = 64  # deals-only sessions (as engine.deal_only)
YAKU = ("three_brights", "boar_deer_butterflies", "ribbons", "chaff")
YAKU_POINTS = (3, 2, 1, 0)   # seed, "Yaku"
REMOVED_OPTIONS = ("removed_brights", "removed_animals", "removed_ribbons", "removed_chaff")


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
