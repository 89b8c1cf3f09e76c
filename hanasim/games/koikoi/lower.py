"""The rules lowered for the kernels: :func:`lower` turns a :class:`KoikoiRules` into
``layout.Tables`` (arrays and ints; the kernels never see the dataclass), and the small facts
of the rules other modules ask for (the deal pattern, which fours are misdeals, how many turns
a round can last, which special yaku are played)."""
from __future__ import annotations

import numpy as np

from ...policies import DEC_STOP
from .layout import (K_DOUBLE, P_AFTER_PILE, P_BONUS, P_BOTH_DEALER, P_CALLS_MAX, P_CHAFF_GROW,
                     P_CHAFF_ROW, P_CHECKED, P_COUNTING, P_DEALS_ONLY, P_DECIDE_NEW,
                     P_DRAW_PASS, P_EXHAUSTED, P_FIELD_FOUR, P_FIELD_MULT, P_FIRST_EARLIER,
                     P_FIXED_DEALER, P_GAME_ROUNDS, P_HAND, P_IMPROVE_STOP, P_KOIKOI_MIN,
                     P_LAST_STOP, P_LOOK_OFF, P_LUCKY, P_MIS_FIELD_FOUR, P_MIS_FIELD_PAIRS,
                     P_MIS_HAND_FOUR, P_MIS_HAND_PAIRS, P_MONTH_YAKU, P_MUST_MATCH, P_N,
                     P_OPP_KEEPS, P_PRIVILEGE, P_ROLL_DEC, P_ROLL_PARAM, P_SAKE_EITHER, P_SERIES,
                     P_SEVEN, P_SHUFFLE_STOP, P_STAKE, P_TARGET, P_TURN, P_VIEW_CALLED,
                     P_VIEW_PTS, P_VIEWING, P_WILD, P_ZERO_SUM, FIELD, Tables)
from .rules import KoikoiRules
from .yaku import (AUGUST, BRIGHTS, CHAFF, CURTAIN, LIGHTNING, MOON, PAULOWNIA, SAKE,
                   SPECIAL_YAKU, WILLOW, _D, double_chaff_mask, yaku_table)

#: counted rounds per session (``session``; lowered into ``P_SERIES``)
SERIES_ROUNDS = 128
#: the stop-or-continue of every player in a lookahead's rollouts, (decision id, parameter) as
#: in ``policies``: greedy/stop (DEC_STOP, 0) collects at once (``lookahead``'s docstring says
#: why it is kept)
ROLLOUT_DECISION = (DEC_STOP, 0)


#: for measuring a lookahead decision against the behaviour before it (0 in every run):
#: LOOK_OFF_DRAWN leaves the turned card's take to greedy, LOOK_OFF_LUCKY the lucky hands to
#: ``expose``
LOOK_OFF = 0


def deal_pattern(hand_size):
    """"The dealer deals four cards to his opponent, four to himself and four face-up on the
    table, then does the same thing again" (the 1997 text).  Groups: 0 dealer, 1 opponent, 2 field.
    Ten-card hands (a variation of the rule page): five, five and four, twice."""
    h = hand_size // 2
    return np.array(([1] * h + [0] * h + [FIELD] * 4) * 2, dtype=np.int8)


def lower(rules: KoikoiRules, *, fixed_dealer=False, checked=False, deals_only=False) -> tuple:
    """(Tables, yaku names) for the kernels; the names are the table's rows then
    :data:`SPECIAL_YAKU` (bits Y, Y+1, Y+2 of a hits mask)."""
    from ...policies import card_weights, greedy_tables

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
