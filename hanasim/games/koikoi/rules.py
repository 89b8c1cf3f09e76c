"""Koi-koi's house rules: the options, their documented defaults, the presets.

The default rules are the 1997 Game Cabinet text (Keith Ammann's rules posted to The Game
Cabinet, ``shared/seeds/004_3c58717347331a26.txt``; "the 1997 text"), read literally; the
modern rules and their variations come from the koi-koi rule page
(``shared/rule-pages/hanafuda_games_koi-koi.md``; "the rule page").  Every rule the 1997 text
leaves open is an option of :class:`KoikoiRules` whose text says what the default does and why;
:data:`PRESETS` are named option sets (``game-cabinet-1997``, formerly ``seed004``; ``modern``,
``nintendo``, ``koikoi-japan``).  Pure Python: the kernels see these rules only as the arrays
and ints of ``lower``.

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

The body's own choices are options too (lucky hands ``win6``/``stack12``, ``cards_of_month``,
``game_rounds``, ``first_dealer``).  Not modelled: "sometimes this is done in packets of two"
(the deal order of a shuffled deck changes no number); the wild Lightning's Mushi details that
koi-koi has no use for (the last card drawn capturing everything left, the unpaired cards'
owners at the end: koi-koi scores captured yaku only, and a round ends by a collect or when
the cards run out).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...rules import RuleError, declare_inert, no_first_draw, number, option

NAME = "koikoi"


N_PLAYERS = 2


LUCKY_POINTS = 6         # rule page, "Checking for Lucky Hands": "scoring 6 points"


FIELD_WIN_POINTS = 6     # rule page, Setup Variations: "the dealer immediately wins ... 6"


MONTH_POINTS = 4         # rule page, "Cards of the Month": 4


TEYAKU = ("four_of_a_kind", "four_pairs")


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
    double_chaff: str = option("none", ("none", "sake", "lightning", "paulownia", "sake+lightning", "sake+paulownia", "lightning+paulownia", "sake+lightning+paulownia"), "cards that count as 2 chaff toward the chaff yaku (rule page, 'Additional Card Properties': the sake cup, the Lightning and/or the yellow Paulownia chaff card): none (the 1997 text); the sake cup only where it counts as chaff (sake_cup=animal_and_chaff or animal_or_chaff)")
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
