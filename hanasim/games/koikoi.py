"""Koi-koi for 2 players.

The default rules are the 1997 Game Cabinet text (Keith Ammann's rules posted to The Game
Cabinet, ``shared/seeds/004_3c58717347331a26.txt``; "the 1997 text"), read literally; the
modern rules and their variations come from the koi-koi rule page
(``shared/rule-pages/hanafuda_games_koi-koi.md``; "the rule page").  Every rule the 1997 text
leaves open is an option of :class:`KoikoiRules` whose text says what the default does and why;
:data:`PRESETS` are named option sets (``game-cabinet-1997``, formerly ``seed004``; ``modern``,
``nintendo``, ``koikoi-japan``).

Three layers, as in every game module: ``KoikoiRules`` (validated at the edge), ``lower`` (the
rules as plain arrays and ints, ``Tables``), and the ``@njit`` kernels: ``deal_round``,
``play_dealt`` (lucky hands, field fours, ``play_from`` a state, settlement) and ``run_chunks``.

A round (the 1997 text: "hand")
-------------------------------
* Deal: four cards to the opponent, four to the dealer, four to the field, twice (the 1997
  text); the 24 left are the draw pile.  Misdeals (redeal) and lucky hands follow the options
  (``misdeal``: the 1997 text names no misdeal; by default a four of a month in a hand or on the
  field is one).
* Turns alternate, the dealer first: a hand card, then the top of the draw pile, each capturing
  as in every fishing game (``engine.play.turn``).  The hand card must capture when one can
  (``must_match``, the 1997 text: "if he can't make a match, he discards one to the table"; the rule
  page's body frees the choice), and every policy, the lookahead's choices and its rollouts
  choose among those cards (:func:`playable`).  After both cards the player's captured pile
  is scored; if it holds a new yaku (or, under ``decision_on=bigger``, more points than before)
  the player collects, ending the round, or continues ("koi-koi"); that choice is a policy
  (``policies.choose_continue``).  Continuing forfeits the points unless the player collects
  later (the 1997 text: "he forfeits his points unless he can score ANOTHER meld before the
  cards run out").
* When both hands are empty the round is exhausted (``exhausted``).
* The collector's points: the yaku points counted (``yaku_counting``), x2 if they are 7 or more
  (``seven_double``), the koi-koi bonus (``koikoi_bonus``), then the field multiplier
  (``field_multiplier``, the 1997 text: x2 for one 20-point card dealt to the field, x3 for two...).
  Lucky hands, the field-four win and the dealer's privilege are fixed amounts, not multiplied.

A game
------
The first dealer is drawn by a cut (``first_dealer``); the round's scorer deals next (a round
nobody scores: ``draw_dealer``).  A game ends at ``target`` points, after ``game_rounds``
rounds, or when a player's ``stake`` runs out, whichever comes first; the player with more
points wins it.  Round ``r`` of a game (from 0) is month ``r mod 12 + 1`` (cards of the month).

Simulation unit
---------------
A session ("series") is :data:`SERIES_ROUNDS` rounds of whole games played back to back; round
i of session s cuts, deals and plays on random streams keyed by (seed, s, i), so variants run
on one seed see the same deals round by round (see :func:`round_stream`).  Round quantities count exactly the session's first ``SERIES_ROUNDS`` rounds, so
``rounds`` is exact; the game in progress when the session's rounds are used up is played to
its end for the game quantities only, so every game a session starts is counted whole (cutting
games off would leave out long games more often than short ones).

Seats: seat 0 is the round's dealer (who plays first), seat 1 the opponent; players 0 and 1 own
the policies and ``dealer ^ seat`` is the player in a seat.

The rule page's variations, line by line
----------------------------------------
Every line of the rule page's "Variations" section that changes the numbers, and the option
value that plays it (the body of the page is the ``modern`` preset):

=======================================================  ======================================
Setup: four of a kind / four pairs are a misdeal,         ``lucky_hands=misdeal``
not lucky hands
Setup: four pairs on the table is not a misdeal           ``field_pairs=ok`` (the body: misdeal)
Setup: a field four: the dealer captures it, four more    ``field_four=dealer_captures``
Setup: ... or the dealer wins the round, 6 points         ``field_four=dealer_wins``
Setup: ten cards to each player                           ``hand_size=10``
Older yaku: boar-deer-butterfly, poetry and blue          ``yaku=older``
ribbons without extras, stacking with the counts
Even older sources: Nintendo's 1960s leaflet lacks        ``omit_yaku=nintendo_1960s`` (with
boar-deer-butterfly and the viewing yaku                  ``viewing=off``)
... "The Flower Card Game" also lacks three brights       ``omit_yaku=flower_card_game``
and rainy four brights ("point values also differ":       (the table's values are kept)
the page gives none)
Sake cup: the viewing yaku are not recognised             ``viewing=off``
Sake cup: viewing only with another yaku                  ``viewing=need_other``
Sake cup: rained off / fogged off by field cards          ``viewing=weather``
Sake cup: animal or chaff, not both                       ``sake_cup=animal_or_chaff``
Sake cup: an animal only, not chaff                       ``sake_cup=animal_only``
The Lightning as a wild card                              ``wild_lightning=on``
... only with an August card dealt to the field           ``wild_lightning=august_field``
Sake cup, Lightning and/or yellow Paulownia as 2 chaff    ``double_chaff=sake|lightning|...``
Turns: after the hands, turns from the draw pile          ``after_hands=draw_pile``
Turns: draw first, then play two hand cards               ``turn_structure=draw_then_two``
Turns: an unmatched turned card goes to the hand and a    ``turn_structure=unmatched_to_hand``
second hand card is played
Draws: the dealer scores (1 or 6) and deals again,        ``exhausted=dealer``,
for an exhausted round or both players' lucky hands       ``both_lucky=privilege``,
                                                          ``dealer_privilege=N``
Draws: the deal passes after a draw                       ``draw_dealer=pass``
Draws: the last to form or improve a yaku scores it       ``exhausted=last_yaku``
and deals
Calling: at least N points to call koi-koi                ``koikoi_min=N``
Calling: koi-koi only on a new yaku, not an improvement   ``improve_call=stop_only`` (with
                                                          ``decision_on=bigger``)
Calling (body): "as many times as they desire"            ``koikoi_calls=N`` limits it
Multipliers: x2 if the collector called                   ``koikoi_bonus=own_x2``
Multipliers: x2 if anyone called                          ``koikoi_bonus=anyone_x2``
Multipliers: x(calls + 1)                                 ``koikoi_bonus=calls_plus_one``
Multipliers: no 7-point doubling                          ``seven_double=off``
Zero-sum scoring                                          ``scoring=zero_sum``
Field multipliers: x2 for a bright dealt to the field     ``field_multiplier=double``
... x(brights + 1)                                        ``field_multiplier=count`` (the 1997 text)
Yaku counting: only the single most valuable yaku         ``yaku_counting=best``
Yaku counting: also the opponent's yaku                   ``yaku_counting=both_players``
=======================================================  ======================================

Lookahead (``lookahead[:K]``)
-----------------------------
A lookahead player (``engine.lookahead``) decides every choice the rules give it, each on K
determinisations of what it cannot see at that moment, played out with this module's own
kernel (``play_from``, ``settle_round``) and picked by ``engine.lookahead._pick`` (greedy's own
choice unless another one's paired mean gain exceeds one standard error):

* its turn (:func:`look_turn`), one choice after another as the player makes them: the hand
  card with its take (two-way matches; the wild Lightning's pick of any field card; only the
  cards ``must_match`` allows, :func:`playable`), the turned card unseen; then, the turned card seen, its take, or (``unmatched_to_hand`` when it takes
  nothing; ``draw_then_two``, whose drawn card is seen from the start) the second hand card
  with its take.  A turn of the draw pile alone (``after_hands=draw_pile``) has only the
  turned card's take.  The choices travel as one forced turn id (:func:`turn_forced`), which
  a rollout plays with the game's own puts before playing on by greedy, so every
  ``turn_structure`` and ``wild_lightning`` is played;
* declaring a lucky hand (:func:`look_declare`; ``expose`` does not apply to a lookahead
  player, as in Toppa and Baka): declared and hidden are finished on the same determinisations
  as :func:`play_dealt` finishes a round; hiding is taken only on a significant gain.  Seat 0
  declares first, so seat 1 knows its declaration; seat 0 takes seat 1's as the rollout's
  (declaring whatever its dealt hand holds, the default ``expose=always``);
* stop or continue (:func:`look_continue`): collecting scores what settling now gives,
  calling is played out.

Rollouts play greedy cards; both players' stop-or-continue in a rollout is
:data:`ROLLOUT_DECISION`: greedy/stop, every player collecting at its first chance (measured
against greedy/continue2 and threshold5 rollouts, modern preset, 20,000 rounds: continue2
rollouts lost 0.86 points a round of advantage against a greedy/stop opponent (99.9% paired
interval -1.14 to -0.57) and threshold5 changed nothing significant (+0.07, -0.16 to +0.29);
against a greedy/continue2 opponent continue2 rollouts gained about +0.3, and in lookahead
against lookahead the gain of calling by lookahead over always collecting was the same, +0.82
(+0.40 to +1.23) with stop rollouts and +0.80 (+0.24 to +1.37) with continue2). LOOK_OFF is for
measuring a decision against the behaviour before it.

The body's own choices are options too (lucky hands ``win6``/``stack12``, ``cards_of_month``,
``game_rounds``, ``first_dealer``).  Not modelled: "sometimes this is done in packets of two"
(the deal order of a shuffled deck changes no number); the wild Lightning's Mushi details that
koi-koi has no use for (the last card drawn capturing everything left, the unpaired cards'
owners at the end: koi-koi scores captured yaku only, and a round ends by a collect or when
the cards run out).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import ClassVar, NamedTuple

import numpy as np
from numba import njit

from .. import decks, sources
from ..decks import HANAFUDA
from ..engine import state
from ..engine.bits import (ONE, ZERO, bit, count, has_full_nibble, lowest, month_nibble,
                           nth_card, pairs_only)
from ..engine.deal import deal
from ..engine.jit import hot
from ..engine.play import capture
from ..engine.rng import round_stream, next64, partial_shuffle, shuffle_range, stream_state
from ..engine.tally import tally_hits
from ..engine.yaku import (D_BASE, D_COND, D_COUNTED, D_EXTRA_FROM, D_MIN, D_PER_EXTRA,
                           D_REQUIRED, NEVER, DekiyakuTable, dekiyaku)
from ..engine import lookahead
from ..policies import (CONTINUE, DEC_LOOKAHEAD, DEC_STOP, FORCED, GREEDY, LEGAL_BOTH,
                        LEGAL_STOP, RANDOM, choose_continue, choose_expose, greedy_hand_card,
                        hand_card, parse_policy, split_policy, take_high)
from ..rules import RuleError, number, option
from .registry import register

NAME = "koikoi"
N_PLAYERS = 2
SERIES_ROUNDS = 128      # counted rounds per session (see "Simulation unit")
MAX_GAME_ROUNDS = 1000   # a game still running after this many rounds is stopped (counted)
LUCKY_POINTS = 6         # rule page, "Checking for Lucky Hands": "scoring 6 points"
FIELD_WIN_POINTS = 6     # rule page, Setup Variations: "the dealer immediately wins ... 6"
MONTH_POINTS = 4         # rule page, "Cards of the Month": 4
FIELD = 2
TEYAKU = ("four_of_a_kind", "four_pairs")
#: the stop-or-continue of every player in a lookahead's rollouts, (decision id, parameter) as
#: in ``policies``: greedy/stop (DEC_STOP, 0) collects at once (the module's "Lookahead" says
#: why it is kept)
ROLLOUT_DECISION = (DEC_STOP, 0)
#: for measuring a lookahead decision against the behaviour before it (0 in every run):
#: LOOK_OFF_DRAWN leaves the turned card's take to greedy, LOOK_OFF_LUCKY the lucky hands to
#: ``expose``
LOOK_OFF = 0
LOOK_OFF_DRAWN, LOOK_OFF_LUCKY = 1, 2
SPECIAL_YAKU = ("flower_viewing", "moon_viewing", "cards_of_the_month")


def deal_pattern(hand_size):
    """"The dealer deals four cards to his opponent, four to himself and four face-up on the
    table, then does the same thing again" (the 1997 text).  Groups: 0 dealer, 1 opponent, 2 field.
    Ten-card hands (a variation of the rule page): five, five and four, twice."""
    h = hand_size // 2
    return np.array(([1] * h + [0] * h + [FIELD] * 4) * 2, dtype=np.int8)


@dataclass(frozen=True)
class KoikoiRules:
    """House rules of koi-koi; every default is the 1997 Game Cabinet text's reading (the
    preset ``game-cabinet-1997``)."""

    game: ClassVar[str] = NAME
    # ---- yaku
    yaku: str = option("game_cabinet", ("game_cabinet", "modern", "nintendo", "older", "koikoi_japan"), "the yaku table: game_cabinet (the 1997 text's melds: three of the four 20-point cards other than November's 8, poetry ribbons 3, blue ribbons 3, five 10-point cards 1, five 5-point cards 1, ten chaff 1), modern (the rule page's table: brights 15/8/7/6, boar-deer-butterfly 5, poetry+blue 10, poetry or blue 5, animals, ribbons and chaff 1, +1 per extra card, one yaku per group), nintendo (modern with five brights 10 and three brights 5: 'Nintendo's rules'), older (the page's 'Older Yaku': boar-deer-butterfly, poetry and blue ribbons without extras, stacking with animals and ribbons), koikoi_japan (the KoiKoi Japan PC game: brights 10/8/7/5, every yaku stacks except the brights, poetry and blue 5 each and 10 more for both)", aliases={"seed": "game_cabinet"})
    meld_growth: str = option("none", ("none", "counts", "all"), "yaku=game_cabinet only: whether a meld grows with extra cards; none (the 1997 text gives each meld one value), counts (five 10-point cards, five 5-point cards and ten chaff score +1 per card beyond), all (also the bright meld: +1 for the fourth bright; five is impossible, November's never counts) (the 1997 text: silent)")
    viewing: str = option("off", ("off", "on", "need_other", "weather"), "flower viewing (sake cup + curtain) and moon viewing (sake cup + moon): off (not in the 1997 text's list of melds), on (the rule page), need_other (only with another yaku), weather (flower viewing rained off while a November card is on the field, moon viewing fogged off while a December card is) (rule page, 'Taming the Sake Cup')")
    viewing_points: int = number(5, low=1, high=20, readings={5: "the rule page", 1: "KoiKoi Japan"}, doc="points of each viewing yaku (rule page 5; KoiKoi Japan 1)")
    viewing_after_call: str = option("same", ("same", "1", "2", "3", "5"), "points of each viewing yaku once its holder has called koi-koi: same (no change), or a value (KoiKoi Japan: 3)")
    sake_cup: str = option("animal_only", ("animal_only", "animal_and_chaff", "animal_or_chaff"), "the sake cup counts as an animal only (the 1997 text: 'I don't think koi-koi is one of them'), as an animal and as chaff (the rule page), or as either, whichever scores more (rule page, 'Taming the Sake Cup')")
    omit_yaku: str = option("none", ("none", "nintendo_1960s", "flower_card_game"), "older sources' missing yaku (rule page, 'Older Yaku' note), the table's values otherwise kept (the page gives no old values): none, nintendo_1960s (Nintendo's 1960s leaflet: no boar-deer-butterfly; the viewing yaku must be off too), flower_card_game ('Hanafuda - The Flower Card Game': also no three brights and no rainy four brights); yaku=game_cabinet has none of these")
    double_chaff: str = option("none", ("none", "sake", "lightning", "paulownia", "sake+lightning", "sake+paulownia", "lightning+paulownia", "sake+lightning+paulownia"), "cards that count as 2 chaff toward the chaff yaku (rule page, 'Additional Card Properties': the sake cup, the Lightning and/or the yellow Paulownia; the deck's paulownia.chaff1 stands for the yellow one): none (the 1997 text); the sake cup only where it counts as chaff (sake_cup=animal_and_chaff or animal_or_chaff)")
    cards_of_month: str = option("off", ("off", "on"), "cards of the month (4 points: the four cards of the round's month, round 1 = January): off (not in the 1997 text), on (rule page, 'typically only used in full 12 round games')")
    yaku_counting: str = option("all", ("all", "best", "both_players"), "what the collector counts: all their yaku (the 1997 text: 'collect his points'), best (only the single most valuable yaku), both_players (also the opponent's yaku) (rule page, 'Yaku Counting')")
    # ---- multipliers and scoring
    field_multiplier: str = option("count", ("count", "double", "off"), "score x(1 + 20-point cards dealt to the field): 'doubled if a 20-point card is dealt to the table in the initial deal, tripled if two' (the 1997 text); double (x2 for any); off (the modern rules)")
    seven_double: str = option("off", ("off", "on"), "double a collected score of 7 or more yaku points: off (not in the 1997 text), on (the rule page)")
    koikoi_bonus: str = option("none", ("none", "opponent_x2", "own_x2", "anyone_x2", "calls_plus_one", "add_per_call"), "what earlier koi-koi calls add to the collector's score: none (the 1997 text names none), opponent_x2 (the rule page: x2 if the opponent called), own_x2, anyone_x2, calls_plus_one (x(calls in the round + 1)) (rule page, 'Multipliers'), add_per_call (KoiKoi Japan: +1 per own call up to 3, with n > 3 calls x(n - 2) instead)")
    scoring: str = option("winner_only", ("winner_only", "zero_sum"), "winner_only: the collector scores and the opponent scores nothing (the 1997 text: the player 'can collect his points'; rule page); zero_sum: the loser pays what the winner scores (rule page, 'Zero-Sum Scoring')")
    # ---- stop or continue
    decision_on: str = option("new", ("new", "bigger"), "when a player may collect or continue: new (on completing a meld not held before: the 1997 text: 'When a player amasses a meld combo ... ANOTHER meld'), bigger (whenever the yaku points rise: the rule page's 'formed a new yaku, or improved an existing one')")
    koikoi_min: int = number(0, low=0, high=20, readings={0: "the 1997 text: no minimum", 3: "the rule page's 'at least 3 points'"}, doc="yaku points needed to call koi-koi; with fewer the player must collect (rule page, 'Calling Koi-Koi': 'at least 3 points'); 0 = no minimum (the 1997 text)")
    last_turn: str = option("choose", ("choose", "stop"), "on a player's last turn a new yaku: choose (collect or continue, as on any turn: the 1997 text makes no exception), stop (collect: KoiKoi Japan)")
    koikoi_calls: int = number(0, low=0, high=16, readings={0: "the 1997 text: no limit", 1: "once a round"}, doc="koi-koi calls a player may make in a round; after that the only choice is to collect (rule page: 'In many rulesets, each player may call koi-koi as many times as they desire'); 0 = no limit (the 1997 text)")
    improve_call: str = option("koikoi_or_stop", ("koikoi_or_stop", "stop_only"), "decision_on=bigger only: an improved yaku (no new one) offers koikoi_or_stop (the rule page's body), or stop_only (rule page, 'Calling Koi-Koi': 'A player may only call koi-koi if they have formed a new yaku; improving an existing one does not count': the improvement lets the player collect but not continue)")
    opponent_stops: str = option("forfeit", ("forfeit", "keeps"), "a player who continued when the opponent collects: forfeit (scores nothing: the 1997 text's 'forfeits his points'), keeps (also collects the yaku they hold, as if both collected)")
    must_match: str = option("yes", ("yes", "no"), "a player holding a hand card that captures something must play one: yes (the 1997 text: 'Player matches a card from his hand with a table card of the same month-suit; if he can't make a match, he discards one to the table'; random then picks uniformly among those cards), no (the rule page, 'Turns': 'there is no obligation to play a card that matches something': any hand card).  A card captures by month, and when the Lightning is wild (wild_lightning) also by the wild capture.  The turned card has no such choice: it captures whenever it can (the 1997 text: 'matches if he can'); which of two field cards it takes is a capture, not a discard")
    turn_structure: str = option("standard", ("standard", "draw_then_two", "unmatched_to_hand"), "a turn: standard (a hand card, then the turned top card of the draw pile: the 1997 text), draw_then_two (draw the top card into the hand, then play two hand cards), unmatched_to_hand (a turned card that captures nothing goes to the hand and a second hand card is played instead) (rule page, 'Turn Structure Variations')")
    after_hands: str = option("end", ("end", "draw_pile"), "when both hands are empty: end (the round is exhausted: the 1997 text), draw_pile (the players keep taking turns, each turning the top card of the draw pile, until it is exhausted: rule page, 'Turn Structure Variations')")
    wild_lightning: str = option("off", ("off", "on", "august_field"), "the November Lightning (willow chaff) as a wild card (rule page, 'Additional Card Properties', after Mushi's rules on the hana-awase page): off (the 1997 text), on, august_field (only in a round whose deal put an August card on the field).  Wild: played or turned with no willow on the field it captures one field card of any month (the player's choice: random uniform, greedy the heaviest); on the field it is captured by a non-willow card that matches nothing by month (greedy's choice of hand card does not foresee the wild capture)")
    exhausted: str = option("nobody", ("nobody", "dealer", "last_yaku"), "a round whose cards run out (the hands; under after_hands=draw_pile also the draw pile): nobody scores (the 1997 text: the continued player forfeits), dealer (the dealer's privilege: dealer_privilege points), last_yaku (the last player to form or improve a yaku collects it) (rule page, 'Draws')")
    dealer_privilege: int = number(1, low=1, high=20, readings={1: "rule page", 6: "rule page"}, doc="points of the dealer's privilege under exhausted=dealer or both_lucky=privilege (rule page: 'typically 1 or 6')")
    draw_dealer: str = option("keep", ("keep", "pass"), "after a round nobody scores the dealer deals again (the 1997 text: silent; rule page), or the deal passes (rule page, 'Draws')")
    # ---- deal
    hand_size: int = option(8, (8, 10), "cards dealt to each player: 8 (the 1997 text: 4 and 4), 10 (rule page, Setup Variations)")
    misdeal: str = option("hand_or_field", ("hand_or_field", "field", "none"), "where a dealt four of a month throws the deal in when no other option gives it an outcome (the 1997 text names no misdeal; the rule page's body throws in a four on the field): hand_or_field (a four in a hand, under lucky_hands=none, or on the field, under field_four=misdeal: the reading that a hand's four is as the field's), field (only on the field: a hand's four is played as an ordinary hand), none (every deal is played, the 1997 text read literally: a hand's four too, and a field four under field_four=misdeal stays on the field, where no card of its month is left to capture it; field_pairs=misdeal and lucky_hands=misdeal contradict it).  A lucky hand (lucky_hands=win6, stack12) or field_four=dealer_captures / dealer_wins gives a four its own outcome instead")
    lucky_hands: str = option("none", ("none", "win6", "stack12", "misdeal"), "four of a kind (teshi) and four pairs (kuttsuki: every month even in the hand; five pairs in a 10-card hand) in a dealt hand: none (the 1997 text names no lucky hands: four of a month in a hand is a misdeal where the option misdeal says so (the default), four pairs an ordinary hand), win6 (declared, the holder wins 6), stack12 (both in one hand: 12), misdeal (either is a misdeal) (rule page, 'Checking for Lucky Hands')")
    both_lucky: str = option("draw", ("draw", "dealer", "privilege"), "both players declare a lucky hand: draw (nobody scores: the rule page), dealer (the dealer's lucky hand wins), privilege (a draw in which the dealer scores dealer_privilege points and deals again: rule page, 'Draws', the dealer's privilege)")
    field_four: str = option("misdeal", ("misdeal", "dealer_captures", "dealer_wins"), "four of a month dealt to the field: misdeal (the rule page; the 1997 text: silent: thrown in unless misdeal=none, under which it stays on the field), dealer_captures (the dealer takes them and four more are dealt to the field), dealer_wins (the dealer wins 6) (rule page, Setup Variations)")
    field_pairs: str = option("ok", ("ok", "misdeal"), "four pairs dealt to the field: ok (the 1997 text: silent), misdeal (the rule page)")
    first_dealer: str = option("later_month", ("later_month", "earlier_month"), "each player cuts a card: the later month deals, a tie cuts again (the 1997 text); earlier_month (rule page; same month: the higher card)")
    # ---- game
    target: int = number(50, low=0, high=500, readings={50: "the 1997 text's 'Play is to 50 points'"}, doc="the game ends when a player has won this many points (the 1997 text: 'Play is to 50 points'); 0 = no target")
    game_rounds: int = number(0, low=0, high=48, readings={0: "the 1997 text: no limit", 12: "rule page: traditional", 6: "rule page", 3: "rule page"}, doc="the game ends after this many rounds (rule page: 12 traditional, 6 or 3); 0 = no limit (the 1997 text)")
    stake: int = number(0, low=0, high=500, readings={0: "the 1997 text: no stake", 30: "KoiKoi Japan"}, doc="each player starts with this many points and the game ends when one runs out (zero_sum only; KoiKoi Japan: 30); 0 = no stake (the 1997 text)")

    def check(self):
        """Combinations that contradict each other: one line naming the options."""
        def bad(text):
            raise RuleError(f"koikoi rules contradict each other: {text}")
        if self.meld_growth != "none" and self.yaku != "game_cabinet":
            bad(f"meld_growth={self.meld_growth} applies to the 1997 text's melds only, not "
                f"yaku={self.yaku} (whose yaku have their own extra-card rules)")
        if self.viewing == "off" and (self.viewing_points != 5 or self.viewing_after_call != "same"):
            bad("viewing_points / viewing_after_call set while the viewing yaku are off (viewing=off)")
        if (self.dealer_privilege != 1 and self.exhausted != "dealer"
                and self.both_lucky != "privilege"):
            bad(f"dealer_privilege={self.dealer_privilege} needs exhausted=dealer or "
                "both_lucky=privilege")
        if self.both_lucky != "draw" and self.lucky_hands not in ("win6", "stack12"):
            bad(f"both_lucky={self.both_lucky} needs lucky hands that score (lucky_hands=win6 or stack12)")
        if self.stake and self.scoring != "zero_sum":
            bad("a stake runs out only when losers pay: stake needs scoring=zero_sum")
        if not (self.target or self.game_rounds or self.stake):
            bad("the game never ends: give target, game_rounds or stake")
        if self.omit_yaku != "none" and self.yaku in ("game_cabinet", "koikoi_japan"):
            bad(f"omit_yaku={self.omit_yaku} removes yaku of the modern tables (modern, nintendo, "
                f"older), not of yaku={self.yaku}")
        if self.omit_yaku != "none" and self.viewing != "off":
            bad(f"omit_yaku={self.omit_yaku}: those sources lack the viewing yaku, but viewing="
                f"{self.viewing}")
        if "sake" in self.double_chaff and self.sake_cup == "animal_only":
            bad(f"double_chaff={self.double_chaff} counts the sake cup as chaff, but sake_cup="
                "animal_only")
        if self.improve_call != "koikoi_or_stop" and self.decision_on != "bigger":
            bad(f"improve_call={self.improve_call} needs decision_on=bigger (under "
                "decision_on=new an improvement offers no decision at all)")
        if (self.draw_dealer == "pass" and self.exhausted == "dealer"
                and (self.both_lucky == "privilege" or self.lucky_hands not in ("win6", "stack12"))):
            bad("draw_dealer=pass never applies: the dealer's privilege (exhausted=dealer) scores "
                "every exhausted round and no lucky-hand draw is left")
        if self.after_hands != "end" and self.hand_size == 10:
            bad("after_hands=draw_pile: 10-card hands leave no draw pile when the hands run out")
        if self.lucky_hands == "misdeal" and self.misdeal != "hand_or_field":
            bad(f"lucky_hands=misdeal throws in a deal with four of a month in a hand, but "
                f"misdeal={self.misdeal} plays it")
        if self.field_pairs == "misdeal" and self.misdeal == "none":
            bad("field_pairs=misdeal throws in a deal with four pairs on the field, but "
                "misdeal=none plays every deal")
        if self.lucky_hands == "misdeal" and self.hand_size != 8:
            bad("lucky_hands=misdeal is written for 8-card hands (four pairs), not hand_size=10")


PRESETS = {
    "game-cabinet-1997": {},
    "seed004": {},  # PRESET_ALIASES: the former name of game-cabinet-1997, still accepted
    # The body of the rule page: any hand card may be played, its yaku table with the viewing
    # yaku and cards of the month (a 12-round game), 7-point doubling, x2 when the opponent
    # called koi-koi, winner-only scoring, lucky hands win 6, a lucky hand dealt to the field
    # is a misdeal, 12 rounds.
    "modern": dict(yaku="modern", must_match="no", viewing="on", sake_cup="animal_and_chaff",
                   cards_of_month="on", field_multiplier="off", seven_double="on",
                   koikoi_bonus="opponent_x2", decision_on="bigger", lucky_hands="win6",
                   field_pairs="misdeal", first_dealer="earlier_month", target=0,
                   game_rounds=12),
    "nintendo": dict(yaku="nintendo", must_match="no", viewing="on",
                     sake_cup="animal_and_chaff", cards_of_month="on", field_multiplier="off",
                     seven_double="on", koikoi_bonus="opponent_x2", decision_on="bigger",
                     lucky_hands="win6", field_pairs="misdeal", first_dealer="earlier_month",
                     target=0, game_rounds=12),
    # The KoiKoi Japan PC game of published koi-koi AI research , on the modern
    # game's free choice of hand card.
    "koikoi-japan": dict(yaku="koikoi_japan", must_match="no", viewing="on",
                         viewing_points=1, viewing_after_call="3", sake_cup="animal_and_chaff",
                         field_multiplier="off", koikoi_bonus="add_per_call",
                         decision_on="bigger", last_turn="stop", exhausted="dealer",
                         dealer_privilege=1, scoring="zero_sum", target=0, game_rounds=8,
                         stake=30),
}
PRESET_DOCS = {
    "game-cabinet-1997": "the 1997 Game Cabinet text's rules, read literally (the defaults): a "
                         "player must match when he can (also accepted as seed004, its former "
                         "name)",
    "modern": "the body of the rule page: any hand card may be played, modern yaku, 7-point "
              "doubling, opponent's koi-koi x2, winner-only scoring, lucky hands win 6, "
              "12 rounds",
    "nintendo": "the modern rules with Nintendo's values (five brights 10, three brights 5)",
    "koikoi-japan": "the KoiKoi Japan PC game used in koi-koi AI research: 8 rounds from 30 "
                    "points each, zero-sum, +1 per own koi-koi call",
}
# Former preset names, still accepted (PRESETS holds them too), never listed.
PRESET_ALIASES = {"seed004": "game-cabinet-1997"}


# When an option cannot change the result (``rules.inert_options``): refused when asked for by
# name, named in the notes when a preset or a compare grid sets it.
from ..rules import declare_inert, no_first_draw  # noqa: E402  (kept apart: a local block)


def _no_meld_grows(r, run):
    """decision_on: new and bigger ask at the same turns when the points rise only with a new
    meld: the 1997 text's melds without growth, no viewing that the weather can take away and give
    back, no call that raises a viewing yaku, no sake cup that may move between melds."""
    if (r.yaku == "game_cabinet" and r.meld_growth == "none" and r.viewing != "weather"
            and r.viewing_after_call == "same" and r.sake_cup != "animal_or_chaff"):
        return ("under yaku=game_cabinet with meld_growth=none no meld grows: the points rise only "
                "with a new meld")
    return None


def _every_four_settled(r, run):
    """misdeal decides only the fours that no other option gives an outcome (misdeal_flags)."""
    if r.lucky_hands != "none" and r.field_four != "misdeal":
        return (f"every dealt four has its own outcome here (lucky_hands={r.lucky_hands}, "
                f"field_four={r.field_four})")
    return None


declare_inert(KoikoiRules, decision_on=_no_meld_grows, first_dealer=no_first_draw,
              misdeal=_every_four_settled,
              draw_dealer=lambda r, run: "player 1 deals every round (fixed dealer)" if (
                  run.fixed_dealer) else None)


# ---------------------------------------------------------------- the deck as masks
_D = HANAFUDA
BRIGHTS = int(_D.kind_mask(decks.BRIGHT))
RAIN = int(_D.flag_mask(decks.RAIN_MAN))
DRY = BRIGHTS & ~RAIN  # the 20-point cards other than November's
ANIMALS = int(_D.kind_mask(decks.ANIMAL))
RIBBONS = int(_D.kind_mask(decks.RIBBON))  # the 5-point cards: "All cards with tanzaku"
CHAFF = int(_D.kind_mask(decks.CHAFF))     # the 1-point "trash" cards, the lightning among them
SAKE = int(_D.flag_mask(decks.SAKE_CUP))
POETRY = int(_D.flag_mask(decks.POETRY))
BLUE = int(_D.flag_mask(decks.BLUE))
BDB = int(_D.flag_mask(decks.BOAR | decks.DEER | decks.BUTTERFLY))
CURTAIN = 1 << _D.card("cherry.curtain")
MOON = 1 << _D.card("susuki.moon")
WILLOW = int(_D.flag_mask(decks.WILLOW))
PAULOWNIA = int(_D.month_masks()[12])
LIGHTNING = 1 << _D.card("willow.lightning")
LIGHTNING_ID = _D.card("willow.lightning")
# "the Yellow Paulownia" (rule page): one of the three paulownia chaff, otherwise alike
YELLOW = 1 << _D.card("paulownia.chaff1")
AUGUST = int(_D.month_masks()[8])

# tb.cards slots (K_CHAFF1/2: the chaff of the first/second table, K_DOUBLE: double_chaff's)
(K_BRIGHTS, K_SAKE, K_FLOWER, K_MOONV, K_WILLOW, K_PAULOWNIA, K_CHAFF1, K_CHAFF2, K_DOUBLE,
 K_AUGUST, K_LIGHTNING) = range(11)


def yaku_table(rules: KoikoiRules, sake_as: str = "default") -> DekiyakuTable:
    """The yaku of ``rules.yaku`` as table rows (viewing yaku and cards of the month are not
    rows: they depend on the field, the calls and the round, see :func:`yaku_now`).

    ``sake_as``: ``animal``, ``chaff`` or ``both`` (default: from ``rules.sake_cup``; the
    ``animal_or_chaff`` rule evaluates an ``animal`` and a ``chaff`` table and keeps the better).
    """
    if sake_as == "default":
        sake_as = {"animal_only": "animal", "animal_and_chaff": "both",
                   "animal_or_chaff": "animal"}[rules.sake_cup]
    animals = ANIMALS if sake_as in ("animal", "both") else ANIMALS & ~SAKE
    chaff = CHAFF | SAKE if sake_as in ("chaff", "both") else CHAFF
    t = DekiyakuTable()
    table = rules.yaku
    if table == "game_cabinet":
        # "three of the five 20-point cards, not including November's (worth eight points); the
        # three ... poetry slips (three points); the three ... blue tanzaku (three points); any
        # five 10-point cards (one point); any five five-point cards (one point); and any 10
        # trash cards (one point)" (seed).
        grow = 1 if rules.meld_growth in ("counts", "all") else 0
        t.add("three_brights", DRY, 3, 8, per_extra=1 if rules.meld_growth == "all" else 0)
        t.add("poetry_ribbons", POETRY, 3, 3)
        t.add("blue_ribbons", BLUE, 3, 3)
        t.add("animals", animals, 5, 1, per_extra=grow)
        t.add("ribbons", RIBBONS, 5, 1, per_extra=grow)
        _chaff_row(t, rules, chaff, grow)
        return t
    five, three = {"modern": (15, 6), "older": (15, 6), "nintendo": (10, 5),
                   "koikoi_japan": (10, 5)}[table]
    # Bright yaku: one per group, the most valuable (rule page, "Bright Yaku").
    t.add("five_brights", BRIGHTS, 5, five, group=0)
    t.add("four_brights", DRY, 4, 8, group=0)
    old = rules.omit_yaku == "flower_card_game"  # no three brights, no rainy four (page)
    bdb = 0 if rules.omit_yaku != "none" else 5   # the 1960s leaflet: no boar-deer-butterfly
    t.add("rainy_four_brights", DRY, 3, 0 if old else 7, required=RAIN, group=0)
    t.add("three_brights", DRY, 3, 0 if old else three, group=0)
    if table in ("modern", "nintendo"):
        # "worth 1 extra point for each additional Animal / Ribbon card"; groups exclusive.
        t.add("boar_deer_butterfly", BDB, 3, bdb, counted=animals, per_extra=1, group=1)
        t.add("animals", animals, 5, 1, per_extra=1, group=1)
        t.add("poetry_blue_ribbons", POETRY | BLUE, 6, 10, counted=RIBBONS, per_extra=1, group=2)
        t.add("poetry_ribbons", POETRY, 3, 5, counted=RIBBONS, per_extra=1, group=2)
        t.add("blue_ribbons", BLUE, 3, 5, counted=RIBBONS, per_extra=1, group=2)
        t.add("ribbons", RIBBONS, 5, 1, per_extra=1, group=2)
    else:
        # older: no extras on the named sets, which stack with the counts; koikoi_japan the
        # same, plus 10 for poetry and blue together ("all three score").
        t.add("boar_deer_butterfly", BDB, 3, bdb)
        t.add("animals", animals, 5, 1, per_extra=1)
        if table == "koikoi_japan":
            t.add("poetry_blue_ribbons", POETRY | BLUE, 6, 10)
        t.add("poetry_ribbons", POETRY, 3, 5)
        t.add("blue_ribbons", BLUE, 3, 5)
        t.add("ribbons", RIBBONS, 5, 1, per_extra=1)
    _chaff_row(t, rules, chaff, 1)
    return t


def _chaff_row(t, rules, chaff, grow):
    """Ten chaff, +``grow`` per extra.  Under ``double_chaff`` the row never scores in the
    table: the kernel counts the chaff itself (:func:`chaff_value`, two for a doubled card)."""
    if rules.double_chaff != "none":
        t.never("chaff")
    else:
        t.add("chaff", chaff, 10, 1, per_extra=grow)


def double_chaff_mask(rules) -> int:
    """The cards ``double_chaff`` counts twice (the sake cup only where it is chaff)."""
    m = 0
    for word, card in (("sake", SAKE), ("lightning", LIGHTNING), ("paulownia", YELLOW)):
        if word in rules.double_chaff.split("+"):
            m |= card
    return m


class Tables(NamedTuple):
    """Everything a koi-koi kernel needs, as arrays and ints."""

    month: np.ndarray        # int8[48]
    yaku_masks: np.ndarray   # uint64[Y, 3]
    yaku_ints: np.ndarray    # int64[Y, 5]
    yaku_masks2: np.ndarray  # the same rows with the sake cup as chaff (animal_or_chaff)
    yaku_ints2: np.ndarray
    cards: np.ndarray        # uint64[6], the K_* card masks
    pattern: np.ndarray      # int8[24 or 28]
    params: np.ndarray       # int64[P_N]
    weights: np.ndarray      # float64[48], greedy's card weights
    gscore: np.ndarray       # float64[48 * 16], greedy's hand-card table
    ghigh: np.ndarray        # uint64[12 * 16], greedy's two-way choice table


# params slots
(P_SAKE_EITHER, P_VIEWING, P_VIEW_PTS, P_VIEW_CALLED, P_MONTH_YAKU, P_COUNTING, P_FIELD_MULT,
 P_SEVEN, P_BONUS, P_ZERO_SUM, P_DECIDE_NEW, P_KOIKOI_MIN, P_LAST_STOP, P_OPP_KEEPS, P_EXHAUSTED,
 P_PRIVILEGE, P_DRAW_PASS, P_HAND, P_LUCKY, P_BOTH_DEALER, P_FIELD_FOUR, P_MIS_FIELD_PAIRS,
 P_MIS_HAND_FOUR, P_MIS_HAND_PAIRS, P_FIRST_EARLIER, P_TARGET, P_GAME_ROUNDS, P_STAKE,
 P_SHUFFLE_STOP, P_FIXED_DEALER, P_CHECKED, P_DEALS_ONLY, P_SERIES, P_CHAFF_ROW, P_CHAFF_GROW,
 P_WILD, P_TURN, P_AFTER_PILE, P_CALLS_MAX, P_IMPROVE_STOP, P_ROLL_DEC, P_ROLL_PARAM,
 P_LOOK_OFF, P_MUST_MATCH, P_MIS_FIELD_FOUR) = range(45)
P_N = 45
VIEW_OFF, VIEW_ON, VIEW_NEED_OTHER, VIEW_WEATHER = 0, 1, 2, 3
COUNT_ALL, COUNT_BEST, COUNT_BOTH = 0, 1, 2
FMULT_COUNT, FMULT_DOUBLE, FMULT_OFF = 0, 1, 2
(BONUS_NONE, BONUS_OPP, BONUS_OWN, BONUS_ANYONE, BONUS_PLUS_ONE, BONUS_ADD) = range(6)
EXH_NOBODY, EXH_DEALER, EXH_LAST = 0, 1, 2
LUCKY_NONE, LUCKY_WIN, LUCKY_STACK, LUCKY_MISDEAL = 0, 1, 2, 3
FIELD4_MISDEAL, FIELD4_CAPTURE, FIELD4_WIN = 0, 1, 2
BOTH_DRAW, BOTH_DEALER, BOTH_PRIVILEGE = 0, 1, 2
WILD_OFF, WILD_ON, WILD_AUGUST = 0, 1, 2
TURN_STANDARD, TURN_DRAW_TWO, TURN_UNMATCHED = 0, 1, 2


def lower(rules: KoikoiRules, *, fixed_dealer=False, checked=False, deals_only=False) -> tuple:
    """(Tables, yaku names) for the kernels; the names are the table's rows then
    :data:`SPECIAL_YAKU` (bits Y, Y+1, Y+2 of a hits mask)."""
    from ..policies import card_weights, greedy_tables

    names, ymasks, yints = yaku_table(rules).build()
    if rules.sake_cup == "animal_or_chaff":
        names2, ymasks2, yints2 = yaku_table(rules, "chaff").build()
        assert names2 == names  # same rows in the same order, only the sake cup moves
    else:
        ymasks2, yints2 = ymasks.copy(), yints.copy()
    p = np.zeros(P_N, dtype=np.int64)
    p[P_SAKE_EITHER] = rules.sake_cup == "animal_or_chaff"
    p[P_VIEWING] = ("off", "on", "need_other", "weather").index(rules.viewing)
    p[P_VIEW_PTS] = rules.viewing_points
    p[P_VIEW_CALLED] = (rules.viewing_points if rules.viewing_after_call == "same"
                        else int(rules.viewing_after_call))
    p[P_MONTH_YAKU] = rules.cards_of_month == "on"
    p[P_COUNTING] = ("all", "best", "both_players").index(rules.yaku_counting)
    p[P_FIELD_MULT] = ("count", "double", "off").index(rules.field_multiplier)
    p[P_SEVEN] = rules.seven_double == "on"
    p[P_BONUS] = ("none", "opponent_x2", "own_x2", "anyone_x2", "calls_plus_one",
                  "add_per_call").index(rules.koikoi_bonus)
    p[P_ZERO_SUM] = rules.scoring == "zero_sum"
    p[P_DECIDE_NEW] = rules.decision_on == "new"
    p[P_KOIKOI_MIN] = rules.koikoi_min
    p[P_LAST_STOP] = rules.last_turn == "stop"
    p[P_OPP_KEEPS] = rules.opponent_stops == "keeps"
    p[P_EXHAUSTED] = ("nobody", "dealer", "last_yaku").index(rules.exhausted)
    p[P_PRIVILEGE] = rules.dealer_privilege
    p[P_DRAW_PASS] = rules.draw_dealer == "pass"
    p[P_HAND] = rules.hand_size
    p[P_LUCKY] = ("none", "win6", "stack12", "misdeal").index(rules.lucky_hands)
    p[P_BOTH_DEALER] = ("draw", "dealer", "privilege").index(rules.both_lucky)
    p[P_FIELD_FOUR] = ("misdeal", "dealer_captures", "dealer_wins").index(rules.field_four)
    flags = misdeal_flags(rules)
    p[P_MIS_HAND_FOUR] = flags["hand_four_misdeal"]
    p[P_MIS_HAND_PAIRS] = flags["hand_pairs_misdeal"]
    p[P_MIS_FIELD_FOUR] = flags["field_four_misdeal"]
    p[P_MIS_FIELD_PAIRS] = flags["field_pairs_misdeal"]
    p[P_MUST_MATCH] = rules.must_match == "yes"
    p[P_FIRST_EARLIER] = rules.first_dealer == "earlier_month"
    p[P_TARGET] = rules.target
    p[P_GAME_ROUNDS] = rules.game_rounds
    p[P_STAKE] = rules.stake
    pattern = deal_pattern(rules.hand_size)
    # Shuffle only the cards a round can draw: both hands' worth of turns, and the cards that
    # may replace captured field fours.
    n_draw = 2 * rules.hand_size + (48 if rules.field_four == "dealer_captures"
                                     or rules.after_hands == "draw_pile" else 0)
    p[P_SHUFFLE_STOP] = min(48, len(pattern) + n_draw)
    p[P_FIXED_DEALER] = bool(fixed_dealer)
    p[P_CHECKED] = bool(checked)
    p[P_DEALS_ONLY] = bool(deals_only)
    p[P_SERIES] = SERIES_ROUNDS
    p[P_CHAFF_ROW] = names.index("chaff") if rules.double_chaff != "none" else -1
    p[P_CHAFF_GROW] = 0 if rules.yaku == "game_cabinet" and rules.meld_growth == "none" else 1
    p[P_WILD] = ("off", "on", "august_field").index(rules.wild_lightning)
    p[P_TURN] = ("standard", "draw_then_two", "unmatched_to_hand").index(rules.turn_structure)
    p[P_AFTER_PILE] = rules.after_hands == "draw_pile"
    p[P_CALLS_MAX] = rules.koikoi_calls
    p[P_IMPROVE_STOP] = rules.improve_call == "stop_only"
    p[P_ROLL_DEC], p[P_ROLL_PARAM] = ROLLOUT_DECISION
    p[P_LOOK_OFF] = LOOK_OFF
    sake_as = {"animal_only": "animal", "animal_and_chaff": "both",
               "animal_or_chaff": "animal"}[rules.sake_cup]
    chaff1 = CHAFF | SAKE if sake_as == "both" else CHAFF
    chaff2 = CHAFF | SAKE if rules.sake_cup != "animal_only" else chaff1
    cards = np.array([BRIGHTS, SAKE, SAKE | CURTAIN, SAKE | MOON, WILLOW, PAULOWNIA, chaff1,
                      chaff2, double_chaff_mask(rules), AUGUST, LIGHTNING], dtype=np.uint64)
    # Greedy's weights: card points do not score in koi-koi, so a card weighs its share of the
    # yaku it belongs to (value / cards needed), the viewing yaku included.
    weights = card_weights(np.zeros(48), ymasks, yints)
    if rules.double_chaff != "none":  # the chaff row is counted by the kernel, not the table
        for c in range(48):
            if chaff1 >> c & 1:
                weights[c] += (2 if cards[K_DOUBLE] >> np.uint64(c) & np.uint64(1) else 1) / 10
    if rules.viewing != "off":
        for c in (SAKE, CURTAIN, MOON):
            weights[lowest_card(c)] += rules.viewing_points / 2 * (2 if c == SAKE else 1)
    tables = Tables(_D.month.astype(np.int8), ymasks, yints, ymasks2, yints2, cards, pattern, p,
                    weights, *greedy_tables(weights))
    return tables, names + SPECIAL_YAKU


def misdeal_flags(rules: KoikoiRules) -> dict:
    """Which dealt fours and pairs throw the deal in (the kernel's and ``hanasim exact``'s):
    a four in a hand under lucky_hands=misdeal, or under lucky_hands=none where ``misdeal``
    reaches the hands; four pairs in a hand under lucky_hands=misdeal; a four on the field
    under field_four=misdeal unless misdeal=none; four pairs on the field under
    field_pairs=misdeal."""
    return dict(
        hand_four_misdeal=(rules.lucky_hands == "misdeal"
                           or (rules.lucky_hands == "none" and rules.misdeal == "hand_or_field")),
        hand_pairs_misdeal=rules.lucky_hands == "misdeal",
        field_four_misdeal=rules.field_four == "misdeal" and rules.misdeal != "none",
        field_pairs_misdeal=rules.field_pairs == "misdeal")


def max_turns(rules: KoikoiRules) -> int:
    """The most turns a round can last: one a hand card, then (after_hands=draw_pile) one a
    card left in the draw pile."""
    if rules.after_hands == "draw_pile":
        return 48 - len(deal_pattern(rules.hand_size))
    return 2 * rules.hand_size


def lowest_card(m: int) -> int:
    return (m & -m).bit_length() - 1


def active_special(rules: KoikoiRules) -> tuple:
    """Which of :data:`SPECIAL_YAKU` the rules play."""
    return (rules.viewing != "off", rules.viewing != "off", rules.cards_of_month == "on")


# ---------------------------------------------------------------- kernels

# extra state slots after engine.state's (hands, field, piles, top, seat)
ST_BASE = state.size(N_PLAYERS)
(KS_CALLS, KS_HITS, KS_BEST) = (ST_BASE, ST_BASE + 2, ST_BASE + 4)   # per seat
KS_LAST, KS_TURNS, KS_DECISIONS, KS_OVER, KS_MONTH, KS_FMULT, KS_WILD = range(ST_BASE + 6,
                                                                            ST_BASE + 13)
KS_N = ST_BASE + 13
# KS_LAST: 1 + the last seat to form or improve a yaku (0: none); KS_OVER: 0 playing, 1 + the
# seat that collected, OVER_EXHAUSTED; KS_MONTH: the round's month mask; KS_FMULT: the field
# multiplier; KS_WILD: 1 when the Lightning is wild this round (wild_lightning).
OVER_EXHAUSTED = 3
ACT_NONE, ACT_CONTINUE, ACT_STOP, ACT_ASK = 0, 1, 2, 3  # ASK: a lookahead player's decision

# result slots of one round (seats relative to the dealer)
(R_SCORE, R_WINNER, R_END, R_BASE, R_POINTS, R_HITS, R_COLLECTED, R_KEPT, R_PAID, R_CALLS,
 R_DECISIONS, R_TURNS, R_FIELD_BRIGHTS, R_LUCKY, R_CAPTURED, R_FIELD, R_TOP, R_HANDS,
 R_MISDEALS) = (0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 17, 19, 20, 21, 22)
R_N = 23
# R_WINNER: the seat that scored the round (-1: nobody); R_END: how it ended (END_*); R_BASE /
# R_POINTS: the winner's yaku points counted / points scored; R_HITS: the yaku rows the
# collector held; R_KEPT: points of a continued opponent under opponent_stops=keeps; R_PAID:
# koi-koi calls of the collector (calls that paid off); R_LUCKY: lucky-hand bits per seat (1
# four of a kind, 2 four pairs).
END_STOP, END_EXHAUSTED, END_LUCKY, END_LUCKY_DRAW, END_FIELD = 0, 1, 2, 3, 4


@hot(inline="always")
def yaku_now(pile, field, calls, month_mask, tb):
    """(points, rows held) of a captured pile now: the table's rows, then the viewing yaku and
    cards of the month as bits Y, Y+1, Y+2 (``calls``: the holder's koi-koi calls so far)."""
    p = tb.params
    v, h = dekiyaku(pile, tb.yaku_masks, tb.yaku_ints)
    crow = p[P_CHAFF_ROW]
    if crow >= 0:
        c = chaff_value(pile, tb.cards[K_CHAFF1], tb)
        v += c
        h |= (np.int64(1) << crow) if c > 0 else 0
    if p[P_SAKE_EITHER] != 0 and (pile & tb.cards[K_SAKE]) != ZERO:
        v2, h2 = dekiyaku(pile, tb.yaku_masks2, tb.yaku_ints2)
        if crow >= 0:
            c = chaff_value(pile, tb.cards[K_CHAFF2], tb)
            v2 += c
            h2 |= (np.int64(1) << crow) if c > 0 else 0
        if v2 > v:  # the sake cup counts where it scores more (animal_or_chaff)
            v = v2
            h = h2
    n = tb.yaku_masks.shape[0]
    if p[P_MONTH_YAKU] != 0 and (pile & month_mask) == month_mask:
        v += MONTH_POINTS
        h |= np.int64(1) << (n + 2)
    view = p[P_VIEWING]
    if view != VIEW_OFF:
        fv = (pile & tb.cards[K_FLOWER]) == tb.cards[K_FLOWER]
        mv = (pile & tb.cards[K_MOONV]) == tb.cards[K_MOONV]
        if view == VIEW_WEATHER:
            fv = fv and (field & tb.cards[K_WILLOW]) == ZERO
            mv = mv and (field & tb.cards[K_PAULOWNIA]) == ZERO
        elif view == VIEW_NEED_OTHER:
            fv = fv and v > 0
            mv = mv and v > 0
        pts = p[P_VIEW_CALLED] if calls > 0 else p[P_VIEW_PTS]
        if fv:
            v += pts
            h |= np.int64(1) << n
        if mv:
            v += pts
            h |= np.int64(1) << (n + 1)
    return v, h


@hot(inline="always")
def chaff_count(pile, chaff, tb):
    """Chaff cards held, a ``double_chaff`` card counting two."""
    return count(pile & chaff) + count(pile & chaff & tb.cards[K_DOUBLE])


@hot(inline="always")
def chaff_value(pile, chaff, tb):
    """The chaff yaku under ``double_chaff``: ten chaff, +P_CHAFF_GROW per extra."""
    n = chaff_count(pile, chaff, tb)
    return 1 + tb.params[P_CHAFF_GROW] * (n - 10) if n >= 10 else 0


@hot
def yaku_value(pile, field, calls, month_mask, tb):
    """:func:`yaku_now` as a call (for the once-a-round scoring, not the turn loop)."""
    return yaku_now(pile, field, calls, month_mask, tb)


@hot(inline="always")
def _best_row(pile, masks, ints):
    _, h = dekiyaku(pile, masks, ints)
    best = 0
    m = np.uint64(h)
    while m != ZERO:
        i = lowest(m)
        m &= m - ONE
        v = ints[i, D_BASE] + ints[i, D_PER_EXTRA] * (count(pile & masks[i, D_COUNTED])
                                                       - ints[i, D_EXTRA_FROM])
        best = max(best, v)
    return best


@hot
def best_single(pile, field, calls, month_mask, tb):
    """The value of the single most valuable yaku held (yaku_counting=best)."""
    p = tb.params
    best = _best_row(pile, tb.yaku_masks, tb.yaku_ints)
    if p[P_SAKE_EITHER] != 0:
        best = max(best, _best_row(pile, tb.yaku_masks2, tb.yaku_ints2))
    if p[P_CHAFF_ROW] >= 0:
        best = max(best, chaff_value(pile, tb.cards[K_CHAFF1], tb),
                   chaff_value(pile, tb.cards[K_CHAFF2], tb))
    _, h = yaku_value(pile, field, calls, month_mask, tb)
    n = tb.yaku_masks.shape[0]
    pts = p[P_VIEW_CALLED] if calls > 0 else p[P_VIEW_PTS]
    if (h >> n) & 3:
        best = max(best, pts)
    if (h >> (n + 2)) & 1:
        best = max(best, MONTH_POINTS)
    return best


@hot
def cards_missing(pile, month_mask, tb):
    """The fewest cards ``pile`` still lacks for any yaku (0: it holds one): the part of a
    player's view the threshold policy reads about the opponent."""
    p = tb.params
    masks = tb.yaku_masks
    ints = tb.yaku_ints
    best = 99
    for i in range(masks.shape[0]):
        cond = masks[i, D_COND]
        if cond == NEVER:  # a yaku the rules do not play
            continue
        need = max(0, ints[i, D_MIN] - count(pile & cond)) + count(
            masks[i, D_REQUIRED] & ~pile & ~cond)
        best = min(best, need)
    if p[P_VIEWING] != VIEW_OFF:
        best = min(best, count(tb.cards[K_FLOWER] & ~pile), count(tb.cards[K_MOONV] & ~pile))
    if p[P_MONTH_YAKU] != 0:
        best = min(best, count(month_mask & ~pile))
    if p[P_CHAFF_ROW] >= 0:
        best = min(best, max(0, 10 - chaff_count(pile, tb.cards[K_CHAFF1], tb)))
    return best


@hot(inline="always")
def wild_target(pol, cands, r, weights):
    """The field card the wild Lightning takes among ``cands`` (non-empty): random uniformly
    from bits 8..23 of the turn's word ``r``, greedy the heaviest (ties: the lowest card)."""
    if pol == RANDOM:
        return nth_card(cands, np.int64((((r >> np.uint64(8)) & np.uint64(0xFFFF))
                                         * np.uint64(count(cands))) >> np.uint64(16)))
    best = np.int64(0)
    best_w = -np.inf
    m = cands
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        if weights[c] > best_w:
            best_w = weights[c]
            best = c
    return best


@hot
def put_wild(pol, card, field, r, tb):
    """:func:`put` when the Lightning is wild this round: a call, not inlined (rare rules
    should not grow the inlined turn loop and its compile time)."""
    cb = bit(card)
    light = tb.cards[K_LIGHTNING]
    willow = tb.cards[K_WILLOW]
    if cb == light:
        if (field & willow) == ZERO and field != ZERO:
            t = bit(wild_target(pol, field, r, tb.weights))
            return field & ~t, cb | t
    elif ((field & light) != ZERO and (cb & willow) == ZERO
          and (field & month_nibble(card)) == ZERO):
        return field & ~light, cb | light
    return capture(card, field, take_high(pol, card, field, r, tb.ghigh))


@hot(inline="always")
def put(pol, card, field, r, wild, tb):
    """``card`` onto the field: (field, captured).  As ``engine.play.capture`` (``r``: the
    word whose bit 0 decides a two-way match), and when the Lightning is ``wild`` this round
    (``wild_lightning``): the Lightning with no willow on the field captures one field card
    of any month; a non-willow card matching nothing by month captures the Lightning."""
    if wild:
        return put_wild(pol, card, field, r, tb)
    return capture(card, field, take_high(pol, card, field, r, tb.ghigh))


MONTH_LOW = np.uint64(0x111111111111)  # the lowest card of every month


@hot(inline="always")
def playable(hand, field, wild, tb):
    """The hand cards a player may play: under ``must_match=yes`` the cards that capture
    something (by month; when the Lightning is ``wild``, also its wild capture and a card
    taking the Lightning), or the whole hand when none does; under ``must_match=no`` the whole
    hand."""
    if tb.params[P_MUST_MATCH] == 0:
        return hand
    x = (field | (field >> ONE) | (field >> np.uint64(2)) | (field >> np.uint64(3))) & MONTH_LOW
    m = hand & (x * np.uint64(15))  # the hand's cards of a month the field holds
    if wild:
        light = tb.cards[K_LIGHTNING]
        if (field & light) != ZERO:
            m |= hand & ~tb.cards[K_WILLOW]  # each takes the Lightning or its own month
        elif (field & tb.cards[K_WILLOW]) == ZERO and field != ZERO:
            m |= hand & light  # the Lightning takes any field card
    return m if m != ZERO else hand


@hot
def turn_variant(pol, hand, field, drawn, r, rng, tb, wild, pile_only):
    """The turns other than the standard one (a call, not inlined: see :func:`put_wild`):
    a pile-only turn, draw_then_two and unmatched_to_hand.  Steps: 0 the first hand card,
    1 the turned card, 2 a second hand card; one call site each for the hand card and the
    put (every inlined call site is compiled again)."""
    mode = -1 if pile_only else tb.params[P_TURN]
    if mode == TURN_DRAW_TWO:
        hand |= bit(drawn)
    cap = ZERO
    for step in range(3):
        if step == 1:
            if mode == TURN_DRAW_TWO:
                continue
            f2, c = put(pol, drawn, field, r >> ONE, wild, tb)
            if c != ZERO or pile_only:
                return hand, f2, cap | c
            hand |= bit(drawn)  # unmatched: into the hand, and a second hand card
            continue
        if step == 0 and pile_only:
            continue
        if step == 2:
            r = next64(rng) if pol == RANDOM else ZERO
        card = hand_card(pol, playable(hand, field, wild, tb), field, r, tb.gscore)
        hand &= ~bit(card)
        field, c = put(pol, card, field, r, wild, tb)
        cap |= c
    return hand, field, cap


# A forced turn (``policies.FORCED``): how a lookahead player's turn is played, and how its
# rollouts play a choice they score.  Koi-koi's own encoding, read only by :func:`turn_forced`:
# each choice of the turn is 7 bits at its shift, 0 = left to greedy, else 1 + a card id:
# the first hand card, the field card it takes, the field card the turned card takes, the
# second hand card (draw_then_two, unmatched_to_hand) and the field card it takes.  A "take"
# is given only where the put offers a choice (:func:`take_options`).
F_CARD1, F_TAKE1, F_DTAKE, F_CARD2, F_TAKE2 = 8, 16, 24, 40, 48


@hot(inline="always")
def given(pol, shift):
    """The card given at ``shift`` of a forced turn, or -1 (left to greedy)."""
    return np.int64((pol >> shift) & 0x7F) - 1


@hot(inline="always")
def give(pol, shift, card):
    return pol | ((np.int64(card) + 1) << shift)


@hot
def take_options(card, field, wild, tb):
    """The field cards ``card`` may take when putting it offers a choice, else ZERO: the two
    cards of a two-way match; the wild Lightning with no willow on the field, any field card
    (when there are two or more)."""
    if wild and bit(card) == tb.cards[K_LIGHTNING] and (field & tb.cards[K_WILLOW]) == ZERO:
        return field if count(field) > 1 else ZERO
    mm = field & month_nibble(card)
    return mm if count(mm) == 2 else ZERO


@hot
def greedy_take(card, field, wild, tb):
    """The field card greedy's put of ``card`` takes among :func:`take_options` (non-empty)."""
    _, c = put(GREEDY, card, field, ZERO, wild, tb)
    return lowest(c & take_options(card, field, wild, tb))


@hot
def put_as(card, field, take, wild, tb):
    """:func:`put` of ``card`` taking the field card ``take`` where the put offers a choice
    (``take`` >= 0, one of :func:`take_options`), else as greedy puts it."""
    if take < 0:
        return put(GREEDY, card, field, ZERO, wild, tb)
    t = bit(take)
    cb = bit(card)
    if wild and cb == tb.cards[K_LIGHTNING] and (field & tb.cards[K_WILLOW]) == ZERO:
        return field & ~t, cb | t
    mm = field & month_nibble(card)
    return capture(card, field, ZERO if t == (mm & (~mm + ONE)) else ~ZERO)


@hot
def turn_forced(pol, hand, field, drawn, tb, wild, pile_only):
    """:func:`kturn` of a forced turn ``pol``: every turn structure, each choice as given,
    the others greedy's (the same steps as :func:`turn_variant`)."""
    mode = -1 if pile_only else tb.params[P_TURN]
    if mode == TURN_DRAW_TWO:
        hand |= bit(drawn)
    cap = ZERO
    for step in range(3):
        if step == 1:
            if mode == TURN_DRAW_TWO:
                continue
            f2, c = put_as(drawn, field, given(pol, F_DTAKE), wild, tb)
            if c != ZERO or mode != TURN_UNMATCHED:
                return hand, f2, cap | c
            hand |= bit(drawn)  # unmatched: into the hand, and a second hand card
            continue
        if step == 0 and pile_only:
            continue
        sh = F_CARD1 if step == 0 else F_CARD2
        card = given(pol, sh)
        if card < 0:
            card = greedy_hand_card(playable(hand, field, wild, tb), field, tb.gscore)
        hand &= ~bit(card)
        field, c = put_as(card, field, given(pol, sh + 8), wild, tb)
        cap |= c
    return hand, field, cap


@hot(inline="always")
def kturn(pol, hand, field, drawn, rng, tb, wild, pile_only):
    """One turn (``turn_structure``): (hand, field, captured).  ``pile_only``: a turn after
    the hands ran out (``after_hands=draw_pile``), the turned card alone.  The standard turn
    draws the same random word as ``engine.play.turn``; draw_then_two and unmatched_to_hand
    draw one more for the second hand card."""
    r = next64(rng) if pol == RANDOM else ZERO
    if (pol & 0xF) == FORCED:
        # a lookahead's choices for this turn (a call: only lookahead runs reach it)
        return turn_forced(pol, hand, field, drawn, tb, wild, pile_only)
    if pile_only or tb.params[P_TURN] != TURN_STANDARD:
        return turn_variant(pol, hand, field, drawn, r, rng, tb, wild, pile_only)
    card = hand_card(pol, playable(hand, field, wild, tb), field, r, tb.gscore)
    hand &= ~bit(card)
    field, c1 = put(pol, card, field, r, wild, tb)
    field, c2 = put(pol, drawn, field, r >> ONE, wild, tb)
    return hand, field, c1 | c2


@hot(inline="always")
def call_koikoi(pile, field, calls, hits, best, month_mask, tb):
    """A koi-koi call: (calls, hits, best) after it."""
    calls += 1
    if tb.params[P_VIEW_CALLED] != tb.params[P_VIEW_PTS]:
        # the call itself raises the viewing yaku (KoiKoi Japan): not an improvement
        v, h = yaku_now(pile, field, calls, month_mask, tb)
        hits |= np.uint64(h)
        best = max(best, v)
    return calls, hits, best


@hot(inline="always")
def _move(pol, dec, dparam, hand, field, pile, opp_pile, drawn, calls, hits, best, month_mask,
          rng, tb, wild, pile_only, extra):
    """One turn and, if the player's yaku improved, their stop-or-continue decision.

    Returns (hand, field, pile, calls, hits, best, action).  ``hits``/``best``: the yaku rows
    and the most points the player has held this round, against which "new" or "bigger" is
    judged (``decision_on``).  ``extra``: the player's turns after the hands run out
    (``after_hands=draw_pile``), counted with the hand as the turns they have left."""
    p = tb.params
    hand, field, cap = kturn(pol, hand, field, drawn, rng, tb, wild, pile_only)
    pile |= cap
    act = ACT_NONE
    # Yaku change only with the player's captures, or with the field under the weather rule.
    if cap != ZERO or p[P_VIEWING] == VIEW_WEATHER:
        v, h = yaku_now(pile, field, calls, month_mask, tb)
        hu = np.uint64(h)
        new = (hu & ~hits) != ZERO
        if p[P_DECIDE_NEW] != 0:
            improved = new
        else:
            improved = v > best
        hits |= hu
        best = max(best, v)
        if improved:
            left = count(hand) + extra
            legal = LEGAL_BOTH
            if ((left == 0 and p[P_LAST_STOP] != 0) or v < p[P_KOIKOI_MIN]
                    or (p[P_CALLS_MAX] > 0 and calls >= p[P_CALLS_MAX])
                    or (p[P_IMPROVE_STOP] != 0 and not new)):
                legal = LEGAL_STOP
            om = cards_missing(opp_pile, month_mask, tb)
            if dec == DEC_LOOKAHEAD and legal == LEGAL_BOTH:
                act = ACT_ASK  # decided by play_from, which holds the whole state
            elif choose_continue(dec, dparam, legal, left, v, om, rng) == CONTINUE:
                act = ACT_CONTINUE
                calls, hits, best = call_koikoi(pile, field, calls, hits, best, month_mask, tb)
            else:
                act = ACT_STOP
    return hand, field, pile, calls, hits, best, act


@hot(inline="always")
def play_from(st, order, rng, tb, policy, decide, dealer, look):
    """Play the round in state ``st`` (``KS_N`` slots) until a player collects or the hands
    run out, updating ``st``.  ``policy``: card policy ids by player; ``decide[player]``:
    (decision id, parameter).  ``look``: None, or the lookahead context ``(tables, res,
    scratch)`` when a player plays by lookahead (``engine.lookahead``): every choice of its
    turn and its stop-or-continue are chosen on determinisations of this state
    (:func:`look_turn`, :func:`look_continue`).  A forced turn (``policies.FORCED``, see
    :func:`turn_forced`) is played once, then the player plays greedy."""
    h0 = st[0]
    h1 = st[1]
    field = st[2]
    c0 = st[3]
    c1 = st[4]
    top = np.int64(st[5])
    seat = np.int64(st[6])
    calls0 = np.int64(st[KS_CALLS])
    calls1 = np.int64(st[KS_CALLS + 1])
    hits0 = st[KS_HITS]
    hits1 = st[KS_HITS + 1]
    best0 = np.int64(st[KS_BEST])
    best1 = np.int64(st[KS_BEST + 1])
    last = np.int64(st[KS_LAST])
    turns = np.int64(st[KS_TURNS])
    decisions = np.int64(st[KS_DECISIONS])
    over = np.int64(st[KS_OVER])
    month_mask = st[KS_MONTH]
    wild = st[KS_WILD] != ZERO
    after = tb.params[P_AFTER_PILE] != 0
    n_cards = order.shape[0]
    while over == 0:
        # one call site for both seats keeps the inlined kernel (and its compile time) small
        first = seat == 0
        hand = h0 if first else h1
        pile_only = hand == ZERO
        extra = 0
        if pile_only:
            # both hands are empty (they empty together); after_hands=draw_pile: turn the pile
            if not after or top >= n_cards:
                over = OVER_EXHAUSTED
                break
            extra = (n_cards - top - 1) // 2
        elif after:
            # the pile left when both hands are empty: the dealer turns first
            rest = n_cards - top - 1 - count(h0) - count(h1) + 1
            extra = (rest + (1 if first else 0)) // 2
        q = dealer ^ seat
        pol = policy[q]
        if look is not None and lookahead.is_lookahead(pol):
            store(st, h0, h1, field, c0, c1, top, seat, calls0, calls1, hits0, hits1, best0,
                  best1, last, turns, decisions, over)
            pol = look_turn(st, order, rng, tb, seat, lookahead.samples(policy[q]), look)
        hand, field, pile, calls, hits, best, act = _move(
            pol, decide[q, 0], decide[q, 1], hand, field, c0 if first else c1,
            c1 if first else c0, order[top], calls0 if first else calls1,
            hits0 if first else hits1, best0 if first else best1, month_mask, rng, tb, wild,
            pile_only, extra)
        if (policy[q] & 0xF) == FORCED:
            policy[q] = GREEDY
        if first:
            h0, c0, calls0, hits0, best0 = hand, pile, calls, hits, best
        else:
            h1, c1, calls1, hits1, best1 = hand, pile, calls, hits, best
        top += 1
        turns += 1
        if act == ACT_ASK:
            act = ACT_STOP
            if look is not None:
                # the state after the turn, the call not made: stop, or call koi-koi?
                store(st, h0, h1, field, c0, c1, top, seat ^ 1, calls0, calls1, hits0, hits1,
                      best0, best1, seat + 1, turns, decisions + 1, over)
                if look_continue(st, order, rng, tb, seat, lookahead.samples(policy[q]), look):
                    act = ACT_CONTINUE
                    calls, hits, best = call_koikoi(pile, field, calls, hits, best, month_mask,
                                                    tb)
                    if first:
                        calls0, hits0, best0 = calls, hits, best
                    else:
                        calls1, hits1, best1 = calls, hits, best
        if act != ACT_NONE:
            last = seat + 1
            decisions += 1
            if act == ACT_STOP:
                over = seat + 1
                break
        seat ^= 1
    store(st, h0, h1, field, c0, c1, top, seat, calls0, calls1, hits0, hits1, best0, best1,
          last, turns, decisions, over)


@hot(inline="always")
def store(st, h0, h1, field, c0, c1, top, seat, calls0, calls1, hits0, hits1, best0, best1,
          last, turns, decisions, over):
    """Write :func:`play_from`'s locals into the state."""
    st[0] = h0
    st[1] = h1
    st[2] = field
    st[3] = c0
    st[4] = c1
    st[5] = top
    st[6] = seat
    st[KS_CALLS] = calls0
    st[KS_CALLS + 1] = calls1
    st[KS_HITS] = hits0
    st[KS_HITS + 1] = hits1
    st[KS_BEST] = best0
    st[KS_BEST + 1] = best1
    st[KS_LAST] = last
    st[KS_TURNS] = turns
    st[KS_DECISIONS] = decisions
    st[KS_OVER] = over


@hot(inline="always")
def look_value(aux, seat, tb):
    """What a lookahead player maximises in a settled round ``aux``: its round score less the
    opponent's, what decides a game (under ``winner_only`` scoring its own score alone would
    count a call that hands the opponent a bigger round as free; under ``zero_sum`` the score
    already is the difference)."""
    if tb.params[P_ZERO_SUM]:
        return np.float64(aux[R_SCORE + seat])
    return np.float64(aux[R_SCORE + seat] - aux[R_SCORE + 1 - seat])


@hot(inline="always")
def rollout(tb, sc, seat):
    """Play the scratch state ``sc.st`` to the end by greedy (the forced turn in ``sc.greedy``
    first), both players deciding stop-or-continue by ``sc.decide`` (``ROLLOUT_DECISION``);
    ``seat``'s value (:func:`look_value`)."""
    play_from(sc.st, sc.order, sc.rng, tb, sc.greedy, sc.decide, 0, None)
    for i in range(R_N):
        sc.aux[i] = 0
    settle_round(sc.st, tb, sc.aux)
    return look_value(sc.aux, seat, tb)


@hot
def look_eval(st, order, rng, tb, seat, k, look, m, seen):
    """Choose among the ``m`` forced turns ``sc.card[:m]`` of ``seat`` to move in ``st`` (0:
    greedy's own): each is played, then the round by the rollout policy, on the same ``k``
    determinisations of the cards ``seat`` cannot see (the other hand and ``order[seen:]``);
    greedy's own is kept unless another gains significantly (``engine.lookahead._pick``)."""
    tables, res, sc = look
    if m == 1:
        return sc.card[0]
    for j in range(m):
        sc.total[j] = 0.0
        sc.total2[j] = 0.0
    s = rng[0]
    for _ in range(k):
        s = lookahead.determinise(st, N_PLAYERS, seat, order, seen, s, sc)
        v0 = 0.0
        for j in range(m):
            for i in range(st.shape[0]):
                sc.st[i] = sc.base[i]
            sc.greedy[seat] = sc.card[j]
            sc.greedy[1 - seat] = GREEDY
            v0 = lookahead._add_gain(sc, j, rollout(tb, sc, seat), v0)
    rng[0] = s
    return sc.card[lookahead._pick(sc, m, k)]


@hot
def card_options(sc, pol, sh, hand, field, wild, tb):
    """Into ``sc.card``: the forced turn ``pol`` with the hand card at shift ``sh`` (and its
    take at ``sh + 8``) left to greedy (choice 0), then every other (hand card, take) the
    rules allow (:func:`playable`); returns how many (at most ``lookahead.MAX_CHOICES``)."""
    hand = playable(hand, field, wild, tb)
    g = greedy_hand_card(hand, field, tb.gscore)
    gt = np.int64(-1)
    if take_options(g, field, wild, tb) != ZERO:
        gt = greedy_take(g, field, wild, tb)
    sc.card[0] = pol
    m = 1
    h = hand
    while h:
        c = lowest(h)
        h &= h - ONE
        o = take_options(c, field, wild, tb)
        if o == ZERO:
            if c != g and m < lookahead.MAX_CHOICES:
                sc.card[m] = give(pol, sh, c)
                m += 1
        while o:
            t = lowest(o)
            o &= o - ONE
            if (c != g or t != gt) and m < lookahead.MAX_CHOICES:
                sc.card[m] = give(give(pol, sh, c), sh + 8, t)
                m += 1
    return m


@hot
def drawn_options(sc, pol, drawn, field, wild, tb):
    """Into ``sc.card``: the forced turn ``pol`` with the turned card's take left to greedy
    (choice 0), then every other take it offers; returns how many."""
    sc.card[0] = pol
    o = take_options(drawn, field, wild, tb)
    if o == ZERO:
        return 1
    gt = greedy_take(drawn, field, wild, tb)
    m = 1
    while o:
        t = lowest(o)
        o &= o - ONE
        if t != gt and m < lookahead.MAX_CHOICES:
            sc.card[m] = give(pol, F_DTAKE, t)
            m += 1
    return m


@hot
def look_turn(st, order, rng, tb, seat, k, look):
    """The lookahead's turn for ``seat`` to move in ``st``, as a forced turn id
    (:func:`turn_forced`): each choice of the turn in the order the player makes it, each by
    :func:`look_eval` on what the player has seen by then.  The first hand card with its take
    (the turned card unseen; under draw_then_two it is drawn first, so seen), then the turned
    card's take (seen), or (unmatched_to_hand, the turned card taking nothing; draw_then_two)
    the second hand card with its take.  A turn of the draw pile alone
    (``after_hands=draw_pile``) has only the turned card's take.  A call: once a turn."""
    tables, res, sc = look
    hand = st[seat]
    field = st[2]
    top = np.int64(st[5])
    wild = st[KS_WILD] != ZERO
    pile_only = hand == ZERO
    mode = -1 if pile_only else tb.params[P_TURN]
    pol = np.int64(FORCED)
    seen = top
    if mode == TURN_DRAW_TWO:
        hand |= bit(order[top])  # drawn into the hand first: seen
        seen = top + 1
    if not pile_only:
        m = card_options(sc, pol, F_CARD1, hand, field, wild, tb)
        pol = look_eval(st, order, rng, tb, seat, k, look, m, seen)
        card = given(pol, F_CARD1)
        if card < 0:
            card = greedy_hand_card(playable(hand, field, wild, tb), field, tb.gscore)
        hand &= ~bit(card)
        field, _ = put_as(card, field, given(pol, F_TAKE1), wild, tb)
    # the turned card is seen from here on
    drawn = np.int64(order[top])
    if mode != TURN_DRAW_TWO:
        _, c = put_as(drawn, field, -1, wild, tb)
        if c != ZERO or mode != TURN_UNMATCHED:
            if tb.params[P_LOOK_OFF] & LOOK_OFF_DRAWN:
                return pol
            m = drawn_options(sc, pol, drawn, field, wild, tb)
            return look_eval(st, order, rng, tb, seat, k, look, m, top + 1)
        hand |= bit(drawn)
    m = card_options(sc, pol, F_CARD2, hand, field, wild, tb)
    return look_eval(st, order, rng, tb, seat, k, look, m, top + 1)


@njit(cache=True)
def lookahead_turn(tb, st, order, seat, seed, k):
    """:func:`look_turn` on the state ``st`` with ``k`` determinisations on the stream
    ``seed``: the forced turn id (for tests and for inspecting a decision; ``forced_choices``
    reads it)."""
    look = (tb, np.zeros(R_N, np.int64), new_look_scratch(tb, order.shape[0]))
    rng = np.zeros(1, np.uint64)
    rng[0] = np.uint64(seed)
    return look_turn(st, order, rng, tb, seat, k, look)


def forced_choices(pol) -> dict:
    """The choices of a forced turn id: {"card1", "take1", "drawn_take", "card2", "take2"},
    each a card id or -1 (greedy's)."""
    pol = int(pol)
    return {name: ((pol >> sh) & 0x7F) - 1 for name, sh in
            (("card1", F_CARD1), ("take1", F_TAKE1), ("drawn_take", F_DTAKE),
             ("card2", F_CARD2), ("take2", F_TAKE2))}


@njit(cache=True)
def new_look_scratch(tb, n_cards):
    """The lookahead's scratch, its rollouts deciding stop-or-continue by the
    ``ROLLOUT_DECISION`` lowered into ``tb`` (``P_ROLL_DEC``, ``P_ROLL_PARAM``)."""
    sc = lookahead.new_scratch(KS_N, n_cards, N_PLAYERS)
    for q in range(N_PLAYERS):
        sc.decide[q, 0] = tb.params[P_ROLL_DEC]
        sc.decide[q, 1] = tb.params[P_ROLL_PARAM]
    return sc


@njit(cache=True)
def lookahead_decision(tb, st, order, seat, seed, k):
    """:func:`look_continue` on the state ``st`` (the turn of ``seat`` just made a yaku; the
    call not made) with ``k`` determinisations on the stream ``seed``: True to call koi-koi
    (for tests and for inspecting a decision)."""
    look = (tb, np.zeros(R_N, np.int64), new_look_scratch(tb, order.shape[0]))
    rng = np.zeros(1, np.uint64)
    rng[0] = np.uint64(seed)
    return look_continue(st, order, rng, tb, seat, k, look)


@hot
def look_continue(st, order, rng, tb, seat, k, look):
    """Call koi-koi (True) or collect: ``st`` is the state after ``seat``'s turn with the call
    not made.  Collecting now scores what settling this state gives (every card it depends on
    is seen); calling is played out by greedy (both collecting at their next chance) on ``k``
    determinisations; it is taken when its mean gain over collecting exceeds one standard
    error (``engine.lookahead``)."""
    tables, res, sc = look
    for i in range(st.shape[0]):
        sc.st[i] = st[i]
    sc.st[KS_OVER] = seat + 1
    for i in range(R_N):
        sc.aux[i] = 0
    settle_round(sc.st, tb, sc.aux)
    stop = look_value(sc.aux, seat, tb)
    sc.total[1] = 0.0
    sc.total2[1] = 0.0
    s = rng[0]
    top = np.int64(st[5])
    for _ in range(k):
        s = lookahead.determinise(st, N_PLAYERS, seat, order, top, s, sc)
        for i in range(st.shape[0]):
            sc.st[i] = sc.base[i]
        calls, hits, best = call_koikoi(sc.st[3 + seat], sc.st[2],
                                        np.int64(sc.st[KS_CALLS + seat]), sc.st[KS_HITS + seat],
                                        np.int64(sc.st[KS_BEST + seat]), sc.st[KS_MONTH], tb)
        sc.st[KS_CALLS + seat] = calls
        sc.st[KS_HITS + seat] = hits
        sc.st[KS_BEST + seat] = best
        sc.greedy[0] = GREEDY
        sc.greedy[1] = GREEDY
        lookahead._add_gain(sc, 1, rollout(tb, sc, seat), stop)
    rng[0] = s
    return lookahead._pick(sc, 2, k) == 1


@hot
def collect(st, tb, s):
    """(points, yaku points counted, rows held) of seat ``s`` collecting now."""
    p = tb.params
    pile = st[3 + s]
    field = st[2]
    month_mask = st[KS_MONTH]
    calls = np.int64(st[KS_CALLS + s])
    other = np.int64(st[KS_CALLS + 1 - s])
    v, h = yaku_value(pile, field, calls, month_mask, tb)
    base = v
    if p[P_COUNTING] == COUNT_BEST:
        base = best_single(pile, field, calls, month_mask, tb)
    elif p[P_COUNTING] == COUNT_BOTH:
        base += yaku_value(st[4 - s], field, other, month_mask, tb)[0]
    pts = base
    if p[P_SEVEN] != 0 and base >= 7:
        pts *= 2
    bonus = p[P_BONUS]
    if bonus == BONUS_ADD:
        pts = pts + calls if calls <= 3 else pts * (calls - 2)
    elif bonus == BONUS_OPP:
        pts *= 2 if other > 0 else 1
    elif bonus == BONUS_OWN:
        pts *= 2 if calls > 0 else 1
    elif bonus == BONUS_ANYONE:
        pts *= 2 if calls + other > 0 else 1
    elif bonus == BONUS_PLUS_ONE:
        pts *= 1 + calls + other
    pts *= np.int64(st[KS_FMULT])
    return pts, base, h


@hot(inline="always")
def _pay(res, s, pts, zero_sum):
    res[R_SCORE + s] += pts
    if zero_sum:
        res[R_SCORE + 1 - s] -= pts


@hot
def settle_round(st, tb, res):
    """Scores of a played round into ``res``."""
    p = tb.params
    zs = p[P_ZERO_SUM] != 0
    over = np.int64(st[KS_OVER])
    res[R_END] = END_STOP if over != OVER_EXHAUSTED else END_EXHAUSTED
    s = -1
    if over != OVER_EXHAUSTED:
        s = over - 1
    elif p[P_EXHAUSTED] == EXH_LAST and st[KS_LAST] != ZERO:
        s = np.int64(st[KS_LAST]) - 1
    elif p[P_EXHAUSTED] == EXH_DEALER:
        _pay(res, 0, p[P_PRIVILEGE], zs)
        res[R_WINNER] = 0
        res[R_POINTS] = p[P_PRIVILEGE]
    if s >= 0:
        pts, base, h = collect(st, tb, s)
        _pay(res, s, pts, zs)
        res[R_WINNER] = s
        res[R_BASE] = base
        res[R_POINTS] = pts
        res[R_HITS] = h
        res[R_COLLECTED] = 1
        res[R_PAID] = np.int64(st[KS_CALLS + s])
        o = 1 - s
        if over != OVER_EXHAUSTED and p[P_OPP_KEEPS] != 0 and st[KS_CALLS + o] != ZERO:
            kept = collect(st, tb, o)[0]
            _pay(res, o, kept, zs)
            res[R_KEPT] = kept


@hot(inline="always")
def lucky_bits(hand):
    """1: four of a kind (teshi), 2: four pairs (kuttsuki: every month in the hand even)."""
    return (1 if has_full_nibble(hand) else 0) | (2 if (hand != ZERO and pairs_only(hand)) else 0)


@hot(inline="always")
def lucky_value(bits, stack):
    if stack:
        return LUCKY_POINTS * ((bits & 1) + (bits >> 1))
    return LUCKY_POINTS if bits != 0 else 0


@hot(inline="always")
def field_multiplier(n_brights, rule):
    if rule == FMULT_COUNT:
        return 1 + n_brights
    if rule == FMULT_DOUBLE:
        return 2 if n_brights > 0 else 1
    return 1


@hot(inline="always")
def start(st, groups, first_undealt, month_mask, fmult):
    """The state right after the deal (``engine.state.start`` plus koi-koi's slots)."""
    state.start(st, groups, N_PLAYERS, first_undealt)
    for i in range(ST_BASE, KS_N):
        st[i] = ZERO
    st[KS_MONTH] = month_mask
    st[KS_FMULT] = fmult


@hot(inline="always")
def play_dealt(rng, order, groups, st, tb, policy, decide, expose, dealer, month_mask, res,
               look):
    """Play one dealt round and settle it into ``res`` (seats relative to the dealer).

    ``groups``: dealer hand, opponent hand, field; the draw pile is ``order[len(pattern):]``.
    Order of events: lucky hands are declared (seat 0 then 1: ``expose``), then a field four
    is resolved (``field_four``), then play."""
    p = tb.params
    for i in range(R_N):
        res[i] = 0
    res[R_WINNER] = -1
    nb = count(groups[FIELD] & tb.cards[K_BRIGHTS])
    res[R_FIELD_BRIGHTS] = nb
    l0 = lucky_bits(groups[0])
    l1 = lucky_bits(groups[1])
    res[R_LUCKY] = l0
    res[R_LUCKY + 1] = l1
    w = p[P_WILD]
    wild = w == WILD_ON or (w == WILD_AUGUST and (groups[FIELD] & tb.cards[K_AUGUST]) != ZERO)
    start(st, groups, tb.pattern.shape[0], month_mask, field_multiplier(nb, p[P_FIELD_MULT]))
    st[KS_WILD] = 1 if wild else 0
    played = True
    mode = p[P_LUCKY]
    if mode == LUCKY_WIN or mode == LUCKY_STACK:
        # seat 0 declares first, seat 1 knowing it; a lookahead player decides by lookahead
        d0 = False
        if l0 != 0:
            if (look is not None and lookahead.is_lookahead(policy[dealer])
                    and (p[P_LOOK_OFF] & LOOK_OFF_LUCKY) == 0):
                d0 = look_declare(st, order, rng, tb, 0, lookahead.samples(policy[dealer]),
                                  look, False, False, 0)
            else:
                d0 = choose_expose(expose[dealer], rng)
        d1 = False
        if l1 != 0:
            if (look is not None and lookahead.is_lookahead(policy[dealer ^ 1])
                    and (p[P_LOOK_OFF] & LOOK_OFF_LUCKY) == 0):
                d1 = look_declare(st, order, rng, tb, 1,
                                  lookahead.samples(policy[dealer ^ 1]), look, True, d0, l0)
            else:
                d1 = choose_expose(expose[dealer ^ 1], rng)
        played = lucky_end(d0, d1, l0, l1, res, tb)
    if played:
        played = field_four(st, order, res, tb)
    if played:
        resume_round(st, order, rng, tb, policy, decide, dealer, res, look)
    else:
        record(st, res)
        if p[P_CHECKED]:
            check_round(order, st, res, p[P_ZERO_SUM] != 0)


@hot(inline="always")
def lucky_end(d0, d1, l0, l1, res, tb):
    """The lucky hands declared (``d0``, ``d1``; ``l0``, ``l1`` the hands' lucky bits) settled
    into ``res``: False when they end the round, True when it is played."""
    p = tb.params
    if not (d0 or d1):
        return True
    zs = p[P_ZERO_SUM] != 0
    if d0 and d1 and p[P_BOTH_DEALER] == BOTH_PRIVILEGE:
        # a draw in which the dealer scores the dealer's privilege (rule page, Draws)
        _pay(res, 0, p[P_PRIVILEGE], zs)
        res[R_WINNER] = 0
        res[R_POINTS] = p[P_PRIVILEGE]
        res[R_END] = END_LUCKY_DRAW
    elif d0 and d1 and p[P_BOTH_DEALER] == BOTH_DRAW:
        res[R_END] = END_LUCKY_DRAW
    else:
        w = 0 if d0 else 1
        v = lucky_value(l0 if w == 0 else l1, p[P_LUCKY] == LUCKY_STACK)
        _pay(res, w, v, zs)
        res[R_WINNER] = w
        res[R_POINTS] = v
        res[R_END] = END_LUCKY
    return False


@hot(inline="always")
def field_four(st, order, res, tb):
    """A four of a month dealt to the field (``field_four``), after the lucky hands: False
    when it ends the round (dealer_wins), True when the round is played (the dealer having
    captured any fours under dealer_captures; under field_four=misdeal a four reaches play
    only under misdeal=none, and stays on the field)."""
    p = tb.params
    if not has_full_nibble(st[2]):
        return True
    if p[P_FIELD_FOUR] == FIELD4_WIN:
        _pay(res, 0, FIELD_WIN_POINTS, p[P_ZERO_SUM] != 0)
        res[R_WINNER] = 0
        res[R_POINTS] = FIELD_WIN_POINTS
        res[R_END] = END_FIELD
        return False
    if p[P_FIELD_FOUR] == FIELD4_MISDEAL:
        return True  # misdeal=none: the deal stands and the four stays on the field
    # "the dealer immediately captures these four cards, and deals four more to the
    # table to replace them" (rule page): from the draw pile, until no four is left.
    # A replacement that would leave the pile short of the turns' draws is not made
    # (it needs three fours in a row: never seen); that four stays on the field.
    top = np.int64(st[5])
    field = st[2]
    n_turns = 2 * p[P_HAND]
    while has_full_nibble(field):
        fours = field & (field >> ONE) & (field >> np.uint64(2)) & (field >> np.uint64(3))
        fours &= np.uint64(0x1111111111111111)
        if top + 4 * count(fours) + n_turns > order.shape[0]:
            break
        quad = fours * np.uint64(15)
        st[3] |= quad
        field &= ~quad
        for _ in range(4 * count(fours)):
            field |= bit(order[top])
            top += 1
    st[2] = field
    st[5] = top
    return True


@hot
def look_declare(st, order, rng, tb, seat, k, look, other_known, other_declared, other_bits):
    """Declare the lucky hand ``seat`` holds (True) or hide it and play, on the state right
    after the deal: the round is finished both ways on the same ``k`` determinisations (the
    other hand and the draw pile dealt again) as :func:`play_dealt` finishes it (the
    declarations settled, a field four, then play by greedy and the rollout decision), and
    hiding is taken only when its mean gain over declaring exceeds one standard error
    (``engine.lookahead._pick``: declaring is what greedy's default ``expose=always`` does).
    The other seat's declaration: known when it declared first (``other_known``: seat 0's,
    ``other_declared`` with its lucky bits ``other_bits``), else the rollout's, which declares
    whatever its determinised hand holds (``expose=always``)."""
    tables, res, sc = look
    mine = lucky_bits(st[seat])
    top = np.int64(st[5])
    sc.total[1] = 0.0
    sc.total2[1] = 0.0
    s = rng[0]
    for _ in range(k):
        s = lookahead.determinise(st, N_PLAYERS, seat, order, top, s, sc)
        if other_known:
            ob = other_bits if other_declared else 0
            od = other_declared
        else:
            ob = lucky_bits(sc.base[1 - seat])
            od = ob != 0
        v0 = 0.0
        for j in range(2):
            for i in range(st.shape[0]):
                sc.st[i] = sc.base[i]
            for i in range(R_N):
                sc.aux[i] = 0
            me = j == 0
            if seat == 0:
                played = lucky_end(me, od, mine, ob, sc.aux, tb)
            else:
                played = lucky_end(od, me, ob, mine, sc.aux, tb)
            if played and field_four(sc.st, sc.order, sc.aux, tb):
                sc.greedy[0] = GREEDY
                sc.greedy[1] = GREEDY
                play_from(sc.st, sc.order, sc.rng, tb, sc.greedy, sc.decide, 0, None)
                settle_round(sc.st, tb, sc.aux)
            v0 = lookahead._add_gain(sc, j, look_value(sc.aux, seat, tb), v0)
    rng[0] = s
    return lookahead._pick(sc, 2, k) == 0


@njit(cache=True)
def lookahead_declare(tb, st, order, seat, seed, k, other_known, other_declared, other_bits):
    """:func:`look_declare` on the state ``st`` right after the deal (for tests)."""
    look = (tb, np.zeros(R_N, np.int64), new_look_scratch(tb, order.shape[0]))
    rng = np.zeros(1, np.uint64)
    rng[0] = np.uint64(seed)
    return look_declare(st, order, rng, tb, seat, k, look, other_known, other_declared,
                        other_bits)


@hot
def resume_round(st, order, rng, tb, policy, decide, dealer, res, look):
    """Play the round from state ``st`` to its end and settle it into ``res`` (whose deal-time
    slots the caller has filled): the entry point for a round resumed from any state (a
    lookahead policy's determinisation, the tests' hand-built positions).  A call, not inlined:
    once a round, and it keeps the chunk kernel small to compile."""
    play_from(st, order, rng, tb, policy, decide, dealer, look)
    settle_round(st, tb, res)
    record(st, res)
    if tb.params[P_CHECKED]:
        check_round(order, st, res, tb.params[P_ZERO_SUM] != 0)


@hot(inline="always")
def record(st, res):
    """The end state's facts into ``res``; checked mode asserts the round invariants."""
    res[R_CALLS] = np.int64(st[KS_CALLS])
    res[R_CALLS + 1] = np.int64(st[KS_CALLS + 1])
    res[R_DECISIONS] = np.int64(st[KS_DECISIONS])
    res[R_TURNS] = np.int64(st[KS_TURNS])
    res[R_CAPTURED] = np.int64(st[3])
    res[R_CAPTURED + 1] = np.int64(st[4])
    res[R_FIELD] = np.int64(st[2])
    res[R_TOP] = np.int64(st[5])
    res[R_HANDS] = np.int64(st[0] | st[1])


@hot
def check_round(order, st, res, zero_sum):
    """Checked mode: every card is in exactly one place (hands, field, piles, the undrawn
    pile); the settlement is zero-sum when the rules are."""
    places = (st[0], st[1], st[2], st[3], st[4])
    seen = ZERO
    for m in places:
        if seen & m:
            raise AssertionError("a card is in two places")
        seen |= m
    for i in range(np.int64(st[5]), order.shape[0]):
        b = bit(order[i])
        if seen & b:
            raise AssertionError("a card of the draw pile is also elsewhere")
        seen |= b
    if seen != np.uint64(0xFFFFFFFFFFFF):
        raise AssertionError("a card is in no place")
    if zero_sum:
        if res[R_SCORE] + res[R_SCORE + 1] != 0:
            raise AssertionError("the settlement is not zero-sum")
    elif res[R_SCORE] < 0 or res[R_SCORE + 1] < 0:
        raise AssertionError("a negative score under winner-only scoring")


@hot(inline="always")
def is_misdeal(groups, p):
    """Four of a month / four pairs in a hand or on the field, as the options make them."""
    f = groups[FIELD]
    bad = p[P_MIS_FIELD_FOUR] != 0 and has_full_nibble(f)
    bad = bad or (p[P_MIS_FIELD_PAIRS] != 0 and pairs_only(f))
    if p[P_MIS_HAND_FOUR] != 0:
        bad = bad or has_full_nibble(groups[0]) or has_full_nibble(groups[1])
    if p[P_MIS_HAND_PAIRS] != 0:
        bad = bad or pairs_only(groups[0]) or pairs_only(groups[1])
    return bad


@hot
def deal_round(rng, order, groups, pattern, params):
    """Shuffle and deal until the deal is not a misdeal; returns the number of misdeals.  Only
    the dealt cards are shuffled until the deal stands, then the cards the round may draw."""
    n_dealt = pattern.shape[0]
    misdeals = 0
    while True:
        shuffle_range(rng, order, 0, n_dealt)
        deal(order, pattern, groups)
        if not is_misdeal(groups, params):
            break
        misdeals += 1
    shuffle_range(rng, order, n_dealt, params[P_SHUFFLE_STOP])
    return misdeals


@hot
def first_dealer(rng, order, earlier):
    """Each player cuts a card (player 0 the first).  The 1997 text: "whoever gets the card of
    the later month is first dealer; repeat the process in the case of a tie".  ``earlier``:
    the earlier month deals, and of one month the higher card (the lower card index) (rule
    page)."""
    while True:
        partial_shuffle(rng, order, 2)
        a = np.int64(order[0])
        b = np.int64(order[1])
        ma = a >> 2
        mb = b >> 2
        if earlier:
            if ma != mb:
                return 0 if ma < mb else 1
            return 0 if a < b else 1
        if ma != mb:
            return 0 if ma > mb else 1


# counters: scalars per chunk
(C_DEALS, C_MISDEALS, C_ROUNDS, C_DEALER_SCORE, C_DEALER_SCORE_SQ, C_OPP_SCORE, C_OPP_SCORE_SQ,
 C_ADV_SQ, C_DEALER_WINS, C_OPP_WINS, C_DRAWS, C_EXHAUSTED, C_LUCKY_END, C_LUCKY_DRAW,
 C_FIELD_END, C_WON, C_WON_PTS, C_WON_PTS_SQ, C_COLLECTS, C_TURNS, C_TURNS_SQ, C_CALLS,
 C_CALLS_SQ, C_PAID, C_DECISIONS, C_P0_SCORE, C_P0_SCORE_SQ, C_P0_DEALS, C_P0_WINS, C_GAMES,
 C_GAME_ROUNDS, C_GAME_ROUNDS_SQ, C_FIRST_WINS, C_GAME_TIES, C_FIRST_MARGIN, C_FIRST_MARGIN_SQ,
 C_CAPPED, C_P0_FIRST, C_KEPT, C_P0_GAME_WINS) = range(40)
C_N = 40
H_FIELD = 0         # hist[0..5]: rounds with k 20-point cards dealt to the field
H_TURNS = 6         # hist[6 + t]: rounds that ended after t turns (0: before play)
H_N = H_TURNS + 25  # at most 24 turns: one a card of the draw pile (8-card hands)


@hot(inline="always")
def tally_deal(scal, tcount, hist, res, mis):
    scal[C_DEALS] += mis + 1
    scal[C_MISDEALS] += mis
    scal[C_ROUNDS] += 1
    tally_hits(tcount, res[R_LUCKY], res[R_LUCKY + 1], 0, 2)
    hist[H_FIELD + res[R_FIELD_BRIGHTS]] += 1


@hot
def tally_round(scal, ycount, hist, res, dealer):
    d = res[R_SCORE]
    o = res[R_SCORE + 1]
    scal[C_DEALER_SCORE] += d
    scal[C_DEALER_SCORE_SQ] += d * d
    scal[C_OPP_SCORE] += o
    scal[C_OPP_SCORE_SQ] += o * o
    scal[C_ADV_SQ] += (d - o) * (d - o)
    w = res[R_WINNER]
    scal[C_DEALER_WINS] += w == 0
    scal[C_OPP_WINS] += w == 1
    scal[C_DRAWS] += w < 0
    end = res[R_END]
    scal[C_EXHAUSTED] += end == END_EXHAUSTED
    scal[C_LUCKY_END] += end == END_LUCKY
    scal[C_LUCKY_DRAW] += end == END_LUCKY_DRAW
    scal[C_FIELD_END] += end == END_FIELD
    if w >= 0:
        pts = res[R_POINTS]
        scal[C_WON] += 1
        scal[C_WON_PTS] += pts
        scal[C_WON_PTS_SQ] += pts * pts
    if res[R_COLLECTED]:
        scal[C_COLLECTS] += 1
        tally_hits(ycount, res[R_HITS], 0, 0, ycount.shape[0] - 1)
    t = res[R_TURNS]
    scal[C_TURNS] += t
    scal[C_TURNS_SQ] += t * t
    hist[H_TURNS + t] += 1
    calls = res[R_CALLS] + res[R_CALLS + 1]
    scal[C_CALLS] += calls
    scal[C_CALLS_SQ] += calls * calls
    scal[C_PAID] += res[R_PAID]
    scal[C_DECISIONS] += res[R_DECISIONS]
    scal[C_KEPT] += res[R_KEPT] > 0
    p0 = d if dealer == 0 else o
    scal[C_P0_SCORE] += p0
    scal[C_P0_SCORE_SQ] += p0 * p0
    scal[C_P0_DEALS] += dealer == 0
    scal[C_P0_WINS] += w >= 0 and (w ^ dealer) == 0


@hot
def play_sessions(seed, s0, s1, total_rounds, rng, drng, order, groups, st, res, tb, policy,
                  decide, expose, scal, tcount, ycount, hist, look):
    """Sessions ``s0 .. s1-1``; session s's streams are keyed by ``stream_state(seed, s)``."""
    series = tb.params[P_SERIES]
    for s in range(s0, s1):
        key = stream_state(seed, s)
        n_rounds = min(series, total_rounds - s * series)
        if tb.params[P_DEALS_ONLY]:
            for i in range(n_rounds):
                round_stream(drng, key, 3 * i, order)
                mis = deal_round(drng, order, groups, tb.pattern, tb.params)
                res[R_LUCKY] = lucky_bits(groups[0])
                res[R_LUCKY + 1] = lucky_bits(groups[1])
                res[R_FIELD_BRIGHTS] = count(groups[FIELD] & tb.cards[K_BRIGHTS])
                tally_deal(scal, tcount, hist, res, mis)
        else:
            play_series(key, rng, drng, order, groups, st, res, tb, policy, decide, expose,
                        n_rounds, scal, tcount, ycount, hist, look)


@hot
def play_series(key, rng, drng, order, groups, st, res, tb, policy, decide, expose, n_rounds,
                scal, tcount, ycount, hist, look):
    """Whole games back to back until ``n_rounds`` rounds are counted (see the module's
    "Simulation unit"): the last game is finished for the game quantities.  Round i of the
    session cuts (when a game starts), deals and plays on streams 3i+2, 3i and 3i+1."""
    p = tb.params
    fixed = p[P_FIXED_DEALER] != 0
    stake = p[P_STAKE]
    target = p[P_TARGET]
    limit = p[P_GAME_ROUNDS]
    counted = 0
    i = 0
    while counted < n_rounds:
        dealer = 0
        if not fixed:
            round_stream(drng, key, 3 * i + 2, order)
            dealer = first_dealer(drng, order, p[P_FIRST_EARLIER])
        first = dealer
        t0 = stake
        t1 = stake
        r = 0
        while True:
            round_stream(drng, key, 3 * i, order)
            mis = deal_round(drng, order, groups, tb.pattern, tb.params)
            rng[0] = stream_state(key, np.uint64(3 * i + 1))
            i += 1
            month_mask = np.uint64(0xF) << np.uint64(4 * (r % 12))
            play_dealt(rng, order, groups, st, tb, policy, decide, expose, dealer, month_mask,
                       res, look)
            if counted < n_rounds:
                counted += 1
                tally_deal(scal, tcount, hist, res, mis)
                tally_round(scal, ycount, hist, res, dealer)
            if dealer == 0:
                t0 += res[R_SCORE]
                t1 += res[R_SCORE + 1]
            else:
                t1 += res[R_SCORE]
                t0 += res[R_SCORE + 1]
            w = res[R_WINNER]
            # The round's scorer deals next; a round nobody scores keeps the dealer (draw_dealer).
            if not fixed:
                if w >= 0:
                    dealer ^= w
                elif p[P_DRAW_PASS]:
                    dealer ^= 1
            r += 1
            done = ((limit > 0 and r >= limit) or (target > 0 and max(t0, t1) - stake >= target)
                    or (stake > 0 and min(t0, t1) <= 0))
            if done or r >= MAX_GAME_ROUNDS:
                scal[C_CAPPED] += not done
                break
        margin = t0 - t1 if first == 0 else t1 - t0
        scal[C_GAMES] += 1
        scal[C_GAME_ROUNDS] += r
        scal[C_GAME_ROUNDS_SQ] += r * r
        scal[C_FIRST_WINS] += margin > 0
        scal[C_GAME_TIES] += margin == 0
        scal[C_FIRST_MARGIN] += margin
        scal[C_FIRST_MARGIN_SQ] += margin * margin
        scal[C_P0_FIRST] += first == 0
        scal[C_P0_GAME_WINS] += t0 > t1


@njit(cache=True, nogil=True)
def run_chunks(seed, first_session, n_sessions, chunk, total_rounds, tb, policy, decide, expose,
               scal, tcount, ycount, hist, look):
    """Sessions ``first_session ..`` in chunks of ``chunk`` sessions, one chunk per
    iteration; counters are per chunk and summed by the caller, so results never depend on
    threads or chunking.  ``look``: None, or True when a player plays by lookahead (a kernel
    of its own)."""
    n_chunks = scal.shape[0]
    for ch in range(n_chunks):
        rng = np.zeros(1, dtype=np.uint64)
        drng = np.zeros(1, dtype=np.uint64)
        order = np.arange(48).astype(np.int8)
        groups = np.zeros(3, dtype=np.uint64)
        st = np.zeros(KS_N, dtype=np.uint64)
        res = np.zeros(R_N, dtype=np.int64)
        s0 = first_session + ch * chunk
        s1 = min(s0 + chunk, first_session + n_sessions)
        if look is None:
            play_sessions(seed, s0, s1, total_rounds, rng, drng, order, groups, st, res, tb,
                          policy, decide, expose, scal[ch], tcount[ch], ycount[ch], hist[ch],
                          None)
        else:
            ctx = (tb, res, new_look_scratch(tb, 48))
            play_sessions(seed, s0, s1, total_rounds, rng, drng, order, groups, st, res, tb,
                          policy, decide, expose, scal[ch], tcount[ch], ycount[ch],
                          hist[ch], ctx)


# ---------------------------------------------------------------- public layer

def play_kernel(tb, seed, rounds, policy, decide, expose, first, n, chunk, out):
    run_chunks(np.uint64(seed), first, n, chunk, rounds, tb, policy, decide, expose,
               out["scal"], out["tcount"], out["ycount"], out["hist"],
               lookahead.uses_lookahead(policy))


def decode_policies(packed) -> tuple:
    """(card policy ids, decisions int64[2, 2]) from :func:`policies.parse_policy` values."""
    parts = [split_policy(int(x)) for x in packed]
    policy = np.array([c for c, _, _ in parts], dtype=np.int64)
    decide = np.array([[d, k] for _, d, k in parts], dtype=np.int64)
    return policy, decide


from ..reading import Line, Reading  # noqa: E402  (kept with the declaration it serves)

#: how koi-koi's numbers are read (hanasim.reading): only the player who collects scores, so a
#: seat's own mean score is never negative: its edge is its score less the opponent's
#: (dealer.mean_advantage, against 0) and win rates are against an equal share of the rounds
#: someone scored; the field-multiplier rows mean something only with the multiplier on
READING = Reading(
    unit="points", seats=("dealer", "opponent"), edge_metric="mean_advantage",
    edge_quantity="dealer.mean_advantage", nonnegative=True,
    no_winner=("round.draw_rate",), no_winner_words="nobody scored",
    won_words="someone scored",
    headline=(
        Line("dealer.mean_advantage", "The dealer scores {value} {unit} a round more than the "
             "opponent", "signed", verdict=True),
        Line("dealer.win_rate", "The dealer collects {value} of rounds", "rate"),
        Line("opponent.win_rate", "The opponent collects {value} of rounds", "rate"),
        Line("round.draw_rate", "Nobody scores in {value} of rounds", "rate"),
        Line("winner_points.mean", "A scored round is worth {value} {unit} on average"),
        Line("game.first_dealer.win_rate", "The first dealer wins {value} of games", "rate"),
    ),
    only_when={"field_brights.": ("field_multiplier", ("count", "double"))},
    labels={"field_brights.{k}": "Field: {k} 20-point cards at the deal",
            "end_turn.{k}": "Round ends at turn {k}",
            "round.draw_rate": "Round: nobody scores",
            "game.first_dealer.mean_margin": "First dealer: a game's points less the "
                                             "opponent's, mean",
            "round.exhausted_rate": "Round: the hands ran out",
            "winner_points.mean": "Points of a scored round: mean",
            "winner_points.sd": "Points of a scored round: standard deviation",
            "koikoi.calls_per_round": "Koi-koi calls per round",
            "koikoi.call_rate": "Koi-koi: share of chances to collect continued",
            "koikoi.paid_off_rate": "Koi-koi: share of calls that paid off",
            "koikoi.opponent_kept_rate": "Koi-koi: opponent kept playing"})


class Koikoi:
    """The registry entry: what the API, the CLI and the statistics layer ask of a game."""

    reading = READING

    name = NAME
    title = "Koi-koi (2 players)"
    source = (f"{sources.dated('koikoi_1997')}; variations: "
              f"{sources.dated('koikoi_page')}")
    n_players = N_PLAYERS
    Rules = KoikoiRules
    par = None
    teyaku_names = TEYAKU
    presets = PRESETS
    preset_docs = PRESET_DOCS
    preset_aliases = PRESET_ALIASES
    rounds_per_session = SERIES_ROUNDS
    # every choice of a turn (hand cards, takes, the turned card's take, under every turn
    # structure and the wild Lightning), lucky-hand declarations and stop-or-continue by
    # lookahead (engine.lookahead; the module's "Lookahead")
    lookahead = True
    version = 4  # bump when a rule's behaviour, an option or a policy's play changes

    #: the dealer's edge: scores need not be zero-sum (winner-only scoring)
    edge_quantity = "dealer.mean_advantage"

    @property
    def main_kernel(self):
        return run_chunks

    def findings(self, by) -> list:
        """Plain sentences for a report, from a simulate table indexed by quantity."""
        def has(*qs):
            return all(q in by.index for q in qs)

        def pct(q):
            return f"{by.loc[q, 'estimate']:.1%}"

        out = []
        if has("dealer.win_rate", "opponent.win_rate", "round.draw_rate", "round.exhausted_rate"):
            out.append(f"Who scores a round: the dealer {pct('dealer.win_rate')}, the opponent "
                       f"{pct('opponent.win_rate')}, nobody {pct('round.draw_rate')} (the hands "
                       f"ran out in {pct('round.exhausted_rate')} of rounds).")
        if has("koikoi.call_rate", "koikoi.paid_off_rate", "winner_points.mean"):
            out.append(f"Koi-koi: players continued at {pct('koikoi.call_rate')} of their chances "
                       f"to collect; {pct('koikoi.paid_off_rate')} of those calls paid off (the "
                       f"caller collected the round later). A scored round is worth "
                       f"{by.loc['winner_points.mean', 'estimate']:.2f} points on average.")
        if has("field_brights.0"):
            out.append(f"Field multiplier: at least one 20-point card is dealt to the field in "
                       f"{1 - by.loc['field_brights.0', 'estimate']:.1%} of rounds.")
        if has("game.rounds.mean", "game.first_dealer.win_rate"):
            r = by.loc["game.first_dealer.win_rate"]
            out.append(f"Games last {by.loc['game.rounds.mean', 'estimate']:.1f} rounds on "
                       f"average; the first dealer wins {r.estimate:.1%} of games (99.9% CI "
                       f"{r.ci_low:.1%} to {r.ci_high:.1%}).")
        return out

    def policy_ids(self, names) -> np.ndarray:
        """One packed id per player: card play and stop-or-continue (``policies.parse_policy``)."""
        return np.array([parse_policy(n) for n in names], dtype=np.int64)

    def exact_table(self, rules):
        """Exact misdeal rate, lucky hands and field 20-point cards (``hanasim exact``)."""
        from ..stats.exact import koikoi_deal_probabilities, rows_table

        tracked = tuple(int(any(_D.kind[4 * m + j] == decks.BRIGHT for j in range(4)))
                        for m in range(12))
        rows = koikoi_deal_probabilities(rules.hand_size, 8, tracked=tracked,
                                         **misdeal_flags(rules))
        return rows_table(rows, NAME)

    def counters(self, rules, *, rounds, seed, policy, expose, session_rounds=1,
                 fixed_dealer=False, checked=False, progress=False, deals_only=False,
                 **run_options):
        """Integer counters of ``rounds`` counted rounds (dict of arrays), summed over chunks.

        Sessions are series of whole games (module docstring); ``session_rounds`` does not
        apply (only 1 is accepted).  ``policy``: packed ids (``policy_ids``)."""
        from ..engine.runner import run_batches

        if int(session_rounds) != 1:
            raise ValueError("koikoi plays whole games (the winner deals next, the game ends by "
                             "its rules); session_rounds does not apply (leave it at 1)")
        tb, names = lower(rules, fixed_dealer=fixed_dealer, checked=checked,
                          deals_only=deals_only)
        card, decide = decode_policies(policy)
        expose = np.ascontiguousarray(expose, dtype=np.int64)
        n_sessions = -(-rounds // SERIES_ROUNDS)
        shapes = dict(scal=(C_N,), tcount=(len(TEYAKU) + 1, 2), ycount=(len(names) + 1, 2),
                      hist=(H_N,))
        totals = run_batches(partial(play_kernel, tb, seed, rounds, card, decide, expose),
                             n_sessions, shapes, rounds_per_session=SERIES_ROUNDS,
                             progress=progress, desc=NAME, **run_options)
        totals["yaku_names"] = names
        totals["deals_only"] = bool(deals_only)
        totals["hand_size"] = rules.hand_size
        return totals

    def quantities(self, c, rules):
        """Tidy rows ``(quantity, stats)`` from the counters.  Per round (n = rounds) unless
        said: yaku at collecting are over collected rounds, the koi-koi call rate over the
        decisions, the paid-off rate over the calls, game quantities over games."""
        from ..stats import table as T

        s = c["scal"]
        r = s[C_ROUNDS]
        h = c["hist"]
        rows = [T.prop("misdeal_rate", s[C_MISDEALS], s[C_DEALS])]
        for i, t in enumerate(TEYAKU + ("any",)):
            rows.append(T.pooled(f"teyaku.{t}", c["tcount"][i, 0], c["tcount"][i, 1], r, 2))
        for k in range(6):
            rows.append(T.prop(f"field_brights.{k}", h[H_FIELD + k], r))
        if c.get("deals_only"):
            return rows
        d, d2, o, o2 = s[C_DEALER_SCORE], s[C_DEALER_SCORE_SQ], s[C_OPP_SCORE], s[C_OPP_SCORE_SQ]
        rows += [
            T.prop("dealer.win_rate", s[C_DEALER_WINS], r),
            T.prop("opponent.win_rate", s[C_OPP_WINS], r),
            T.prop("round.draw_rate", s[C_DRAWS], r),
            T.prop("round.exhausted_rate", s[C_EXHAUSTED], r),
            T.prop("round.lucky_hand_rate", s[C_LUCKY_END], r),
            T.prop("round.lucky_draw_rate", s[C_LUCKY_DRAW], r),
            T.prop("round.field_four_rate", s[C_FIELD_END], r),
            T.mean("dealer.mean_score", d, d2, r),
            T.mean("opponent.mean_score", o, o2, r),
            # dealer's score minus the opponent's: the edge that decides a game of totals
            T.mean("dealer.mean_advantage", d - o, s[C_ADV_SQ], r),
            T.sd("round_score.sd", d, d2, r),
            T.mean("winner_points.mean", s[C_WON_PTS], s[C_WON_PTS_SQ], s[C_WON]),
            T.sd("winner_points.sd", s[C_WON_PTS], s[C_WON_PTS_SQ], s[C_WON]),
            T.mean("round.end_turn.mean", s[C_TURNS], s[C_TURNS_SQ], r),
            T.mean("koikoi.calls_per_round", s[C_CALLS], s[C_CALLS_SQ], r),
            T.prop("koikoi.call_rate", s[C_CALLS], s[C_DECISIONS]),
            T.prop("koikoi.paid_off_rate", s[C_PAID], s[C_CALLS]),
            T.prop("koikoi.opponent_kept_rate", s[C_KEPT], r),
            T.mean("player1.mean_score", s[C_P0_SCORE], s[C_P0_SCORE_SQ], r),
            # player 1's score minus player 2's (their policies may differ)
            T.mean("player1.mean_advantage", 2 * s[C_P0_SCORE] - d - o, s[C_ADV_SQ], r),
            T.prop("player1.win_rate", s[C_P0_WINS], r),
            T.prop("player1.deal_share", s[C_P0_DEALS], r),
        ]
        for t in range(max_turns(rules) + 1):
            rows.append(T.prop(f"end_turn.{t}", h[H_TURNS + t], r))
        active = (True,) * (len(c["yaku_names"]) - 3) + active_special(rules)
        for i, y in enumerate(c["yaku_names"]):
            if active[i]:
                rows.append(T.prop(f"yaku.{y}", c["ycount"][i, 0], s[C_COLLECTS]))
        g = s[C_GAMES]
        rows += [
            T.prop("game.first_dealer.win_rate", s[C_FIRST_WINS], g),
            T.prop("game.tie_rate", s[C_GAME_TIES], g),
            T.mean("game.first_dealer.mean_margin", s[C_FIRST_MARGIN], s[C_FIRST_MARGIN_SQ], g),
            T.mean("game.rounds.mean", s[C_GAME_ROUNDS], s[C_GAME_ROUNDS_SQ], g),
            T.prop("game.capped_rate", s[C_CAPPED], g),
            T.prop("player1.first_dealer_share", s[C_P0_FIRST], g),
            T.prop("player1.game.win_rate", s[C_P0_GAME_WINS], g),
        ]
        return rows


register(Koikoi())
