"""Koi-koi (seed 004_3c58717347331a26 and the koi-koi rule page): the kernel against the
plain-Python reference ``tests/naive_koikoi.py`` on the same deals and random draws, hand-built
positions for every decision path, multiplier, sake-cup rule and preset yaku table, the deal
(misdeals, lucky hands, field fours) against exact fractions, invariants over random play, the
rules' contradictions, policies, presets and the command line.
"""
from __future__ import annotations

from fractions import Fraction
from math import comb

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import hanasim
import naive_koikoi as NK
from hanasim.cli import main as cli_main
from hanasim.decks import HANAFUDA as D
from hanasim.engine.deal import deal
from hanasim.games import koikoi as K
from hanasim.policies import (DEC_CONTINUE, DEC_RANDOM, DEC_STOP, DEC_THRESHOLD, FORCED, GREEDY,
                              RANDOM, parse_policy, split_policy)
from hanasim.rules import RuleError, make_rules

_TB = {}


def tables(**given):
    key = tuple(sorted(given.items()))
    if key not in _TB:
        rules = make_rules(K.KoikoiRules, given)
        tb, names = K.lower(rules, checked=True)
        _TB[key] = (rules, tb, names)
    return _TB[key]


def month_mask(m):
    return np.uint64(0xF << 4 * (m - 1))


def bits_to_set(x):
    x = int(np.uint64(np.int64(x)))
    return {i for i in range(64) if x >> i & 1}


def res_facts(res, names):
    def hit_names(h):
        return {names[i] for i in range(len(names)) if int(h) >> i & 1}

    return dict(
        score=[int(res[K.R_SCORE]), int(res[K.R_SCORE + 1])],
        winner=int(res[K.R_WINNER]), end=int(res[K.R_END]), base=int(res[K.R_BASE]),
        points=int(res[K.R_POINTS]), hits=hit_names(res[K.R_HITS]),
        collected=int(res[K.R_COLLECTED]), kept=int(res[K.R_KEPT]), paid=int(res[K.R_PAID]),
        calls=[int(res[K.R_CALLS]), int(res[K.R_CALLS + 1])],
        decisions=int(res[K.R_DECISIONS]), turns=int(res[K.R_TURNS]),
        field_brights=int(res[K.R_FIELD_BRIGHTS]),
        lucky=[int(res[K.R_LUCKY]), int(res[K.R_LUCKY + 1])],
        captured=[bits_to_set(res[K.R_CAPTURED]), bits_to_set(res[K.R_CAPTURED + 1])],
        field=bits_to_set(res[K.R_FIELD]), top=int(res[K.R_TOP]),
        hands=bits_to_set(res[K.R_HANDS]),
    )


def kernel_round(tb, order, dealer, rmonth, policy, decide, expose, seed):
    order = np.asarray(order, dtype=np.int8)
    groups = np.zeros(3, np.uint64)
    deal(order, tb.pattern, groups)
    rng = np.array([seed], dtype=np.uint64)
    res = np.zeros(K.R_N, np.int64)
    K.play_dealt(rng, order, groups, np.zeros(K.KS_N, np.uint64), tb,
                 np.array(policy, np.int64), np.array(decide, np.int64),
                 np.array(expose, np.int64), dealer, month_mask(rmonth), res, None)
    return res, int(rng[0])


# ================================================================ the reference, same deals
RULE_SETS = [
    {},
    K.PRESETS["modern"],
    K.PRESETS["nintendo"],
    K.PRESETS["koikoi-japan"],
    dict(yaku="older", viewing="weather", yaku_counting="best", koikoi_bonus="own_x2",
         field_multiplier="double", exhausted="last_yaku", sake_cup="animal_or_chaff",
         misdeal="none"),
    dict(meld_growth="all", scoring="zero_sum", opponent_stops="keeps",
         koikoi_bonus="anyone_x2", exhausted="dealer", dealer_privilege=6, draw_dealer="pass",
         lucky_hands="win6"),
    dict(yaku="modern", lucky_hands="stack12", both_lucky="dealer",
         field_four="dealer_captures", viewing="need_other", koikoi_bonus="calls_plus_one",
         koikoi_min=3, yaku_counting="both_players", cards_of_month="on"),
    dict(yaku="koikoi_japan", field_four="dealer_wins", lucky_hands="win6", scoring="zero_sum",
         sake_cup="animal_or_chaff", yaku_counting="best", viewing="on", viewing_points=3,
         decision_on="bigger", last_turn="stop", seven_double="on"),
    dict(hand_size=10, meld_growth="counts", koikoi_bonus="add_per_call", decision_on="bigger",
         field_pairs="misdeal", sake_cup="animal_and_chaff", misdeal="field"),
    dict(lucky_hands="misdeal", yaku="nintendo", viewing="on", viewing_after_call="3",
         exhausted="last_yaku", opponent_stops="keeps"),
    # the variations added last: turn structures, the wild Lightning, double chaff, old yaku,
    # the call limit, stop-only improvements, the dealer's privilege on a lucky-hand draw
    dict(turn_structure="draw_then_two", wild_lightning="on", double_chaff="lightning+paulownia",
         koikoi_calls=1, yaku="modern", omit_yaku="nintendo_1960s", must_match="no"),
    dict(turn_structure="unmatched_to_hand", after_hands="draw_pile",
         wild_lightning="august_field", decision_on="bigger", improve_call="stop_only",
         yaku="modern", sake_cup="animal_or_chaff", double_chaff="sake+lightning",
         yaku_counting="best", lucky_hands="win6", both_lucky="privilege", dealer_privilege=6,
         scoring="zero_sum"),
    dict(after_hands="draw_pile", last_turn="stop", yaku="older", omit_yaku="flower_card_game",
         double_chaff="sake+lightning+paulownia", sake_cup="animal_and_chaff", koikoi_calls=2,
         exhausted="last_yaku", wild_lightning="on"),
]
POLICY_SETS = [("random", "random"), ("greedy/stop", "greedy"), ("random/continue2", "greedy/threshold5"),
               ("greedy/continue", "random/threshold9"), ("greedy/random", "random/stop"),
               ("greedy/threshold3", "greedy/continue0")]
EXPOSES = [(1, 1), (2, 2), (0, 1), (2, 0)]


def packed(pols):
    ids = [split_policy(parse_policy(p)) for p in pols]
    return [c for c, _, _ in ids], [[d, k] for _, d, k in ids]


def slanted_order(gen, rules):
    """A random deck order, sometimes rearranged so that a hand or the field holds a complete
    month or four pairs (rare in a uniform deal, but every rule about them must be played)."""
    order = [int(c) for c in gen.permutation(48)]
    r = NK.full_rules(rules)
    h = r["hand_size"] // 2
    seats = {"o": list(range(0, h)) + list(range(h + h + 4, 2 * h + h + 4)),
             "d": list(range(h, 2 * h)) + list(range(3 * h + 4, 4 * h + 4)),
             "f": list(range(2 * h, 2 * h + 4)) + list(range(4 * h + 4, 4 * h + 8))}
    if gen.random() < 0.35:
        months = [int(m) for m in gen.permutation(12)]
        # one group, or both hands (both players holding a lucky hand)
        groups = ["odf"[int(gen.integers(3))]] if gen.random() < 0.7 else ["o", "d"]
        for g in groups:
            if gen.random() < 0.6:  # four of a kind
                m = months.pop()
                cards = [4 * m + j for j in range(4)]
            else:  # four pairs
                pair_months = [months.pop() for _ in range(4)]
                cards = [4 * m + j for m in pair_months for j in (0, 1)]
            for pos, card in zip(seats[g], cards):
                i = order.index(card)
                order[i], order[pos] = order[pos], order[i]
    return order


def compare_round(order, dealer, rmonth, rule_idx, pols, expose, seed):
    rules, tb, names = tables(**RULE_SETS[rule_idx])
    card, decide = packed(pols)
    res, k_state = kernel_round(tb, order, dealer, rmonth, card, decide, expose, seed)
    got = res_facts(res, names)
    rng = np.array([seed], dtype=np.uint64)
    want = NK.play_round(order, dealer, rmonth, card, [tuple(x) for x in decide], expose,
                         rules, tb.weights, rng)
    ctx = dict(order=order, dealer=dealer, month=rmonth, rules=RULE_SETS[rule_idx], pols=pols,
               expose=expose, seed=seed)
    for key in want:
        assert got[key] == want[key], (key, got[key], want[key], ctx)
    assert k_state == int(rng[0]), ("random draws consumed differently", ctx)
    # the reference's own sanity: every card in one place
    places = want["captured"][0] | want["captured"][1] | want["field"] | want["hands"]
    assert len(places) + len(set(order[want["top"]:]) - places) == 48
    if NK.full_rules(rules)["scoring"] == "zero_sum":
        assert sum(want["score"]) == 0
    return want


def test_reference_many_deals(full):
    gen = np.random.default_rng(20250110)
    n_deals = 1500 if full else 500
    seen = dict(ends=set(), hits=set(), kept=0, calls=0, paid=0, lucky=0)
    done = 0
    while done < n_deals:
        rule_idx = done % len(RULE_SETS)
        order = slanted_order(gen, RULE_SETS[rule_idx])
        if NK.is_misdeal(order, RULE_SETS[rule_idx]):
            continue
        pols = POLICY_SETS[(done // len(RULE_SETS)) % len(POLICY_SETS)]
        expose = EXPOSES[(done // 3) % len(EXPOSES)]
        want = compare_round(order, int(gen.integers(2)), int(gen.integers(1, 13)), rule_idx,
                             pols, expose, int(gen.integers(0, 2**63)))
        done += 1
        seen["ends"].add(want["end"])
        seen["hits"] |= want["hits"]
        seen["kept"] += want["kept"] > 0
        seen["calls"] += sum(want["calls"])
        seen["paid"] += want["paid"]
    # the sample must reach every way a round ends and the interesting yaku
    assert seen["ends"] == {K.END_STOP, K.END_EXHAUSTED, K.END_LUCKY, K.END_LUCKY_DRAW,
                            K.END_FIELD}
    assert {"three_brights", "poetry_ribbons", "blue_ribbons", "animals", "ribbons", "chaff",
            "boar_deer_butterfly", "flower_viewing", "moon_viewing"} <= seen["hits"]
    assert seen["kept"] > 0 and seen["paid"] > 0 and seen["calls"] > seen["paid"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=st.permutations(list(range(48))), dealer=st.integers(0, 1),
       rmonth=st.integers(1, 12), rule_idx=st.integers(0, len(RULE_SETS) - 1),
       pols=st.sampled_from(POLICY_SETS), expose=st.sampled_from(EXPOSES),
       seed=st.integers(0, 2**64 - 1))
def test_reference_hypothesis(order, dealer, rmonth, rule_idx, pols, expose, seed):
    assume(not NK.is_misdeal(order, RULE_SETS[rule_idx]))
    compare_round(order, dealer, rmonth, rule_idx, pols, expose, seed)


@pytest.mark.parametrize("rule_idx", range(len(RULE_SETS)))
def test_yaku_of_random_piles(rule_idx):
    """The kernel's yaku (rows, viewing, cards of the month) on many random piles and fields,
    against the reference's yaku written by card names."""
    rules, tb, names = tables(**RULE_SETS[rule_idx])
    r = NK.full_rules(rules)
    gen = np.random.default_rng(rule_idx)
    for _ in range(600):
        perm = [int(c) for c in gen.permutation(48)]
        size = int(gen.integers(0, 30))
        pile, field = set(perm[:size]), set(perm[size:size + int(gen.integers(0, 10))])
        calls, m = int(gen.integers(0, 3)), int(gen.integers(1, 13))
        v, h = K.yaku_value(np.uint64(sum(1 << c for c in pile)),
                            np.uint64(sum(1 << c for c in field)), calls, month_mask(m), tb)
        want = NK.yaku(pile, field, calls, m, r)
        got = {names[i] for i in range(len(names)) if int(h) >> i & 1}
        assert (int(v), got) == (sum(want.values()), set(want)), (sorted(pile), sorted(field))
        miss = K.cards_missing(np.uint64(sum(1 << c for c in pile)), month_mask(m), tb)
        assert miss == NK.missing(pile, m, r), sorted(pile)


# ================================================================ hand-built positions
def position(rules, hands, field, piles, draws, calls=(0, 0), rmonth=1, fmult=1, wild=0):
    """A state (seat 0 = the dealer to move) and a deck order holding every card once: the
    placed cards, then the draw pile top first, then the rest."""
    rules, tb, names = tables(**rules)
    placed = [c for g in (*hands, field, *piles) for c in g]
    assert len(set(placed) | set(draws)) == len(placed) + len(draws)
    rest = [c for c in range(48) if c not in placed and c not in draws]
    order = np.array(placed + list(draws) + rest, dtype=np.int8)
    stt = np.zeros(K.KS_N, np.uint64)
    for i, g in enumerate((hands[0], hands[1], field, piles[0], piles[1])):
        stt[i] = np.uint64(sum(1 << c for c in g))
    stt[5] = len(placed)
    stt[K.KS_MONTH] = month_mask(rmonth)
    stt[K.KS_FMULT] = fmult
    stt[K.KS_WILD] = wild
    for s in range(2):
        stt[K.KS_CALLS + s] = calls[s]
        v, h = K.yaku_value(stt[3 + s], stt[2], calls[s], stt[K.KS_MONTH], tb)
        stt[K.KS_HITS + s] = np.uint64(h)
        stt[K.KS_BEST + s] = v
    return tb, names, stt, order


def resume(rules, hands, field, piles, draws, pols, **kw):
    tb, names, stt, order = position(rules, hands, field, piles, draws, **kw)
    card, decide = packed(pols)
    res = np.zeros(K.R_N, np.int64)
    res[K.R_WINNER] = -1
    K.resume_round(stt, order, np.zeros(1, np.uint64), tb, np.array(card, np.int64),
                   np.array(decide, np.int64), 0, res, None)
    return res_facts(res, names)


# Case B: the dealer holds crane, curtain and two poetry ribbons; greedy plays the moon onto
# the susuki chaff (three brights, 8: a new meld with a card left) and, continuing, later the
# cherry poetry ribbon onto the cherry chaff (poetry ribbons, 3, on the last card).
CASE_B = dict(hands=([28, 9], [13, 16]), field=[30, 10], piles=([0, 8, 1, 5], []),
              draws=[47, 36, 40, 19])
# Case C: as B, but the opponent holds two poetry ribbons and completes them on turn 2.
CASE_C = dict(hands=([28, 13], [9, 16]), field=[30, 10], piles=([0, 8], [1, 5]),
              draws=[47, 36, 40, 19])
# Case D: the dealer completes three brights on turn 1, continues, and nothing else is made.
CASE_D = dict(hands=([28, 13], [16, 24]), field=[30], piles=([0, 8], []), draws=[47, 36, 41, 19])
# Case A: one card each: the dealer's only turn completes three brights.
CASE_A = dict(hands=([28], [13]), field=[30], piles=([0, 8], []), draws=[47, 36])
CONT, STOP = ("greedy/continue", "greedy/stop"), ("greedy/stop", "greedy/stop")


def test_stop_collects_the_meld():
    f = resume({}, **CASE_A, pols=STOP)
    assert (f["score"], f["winner"], f["end"], f["base"], f["hits"]) == (
        [8, 0], 0, K.END_STOP, 8, {"three_brights"})
    assert (f["calls"], f["decisions"], f["turns"], f["paid"]) == ([0, 0], 1, 1, 0)
    assert f["captured"][0] == {0, 8, 28, 30} and f["top"] == f["top"]


def test_continue_then_new_meld_then_stop():
    f = resume({}, **CASE_B, pols=CONT)
    assert f["captured"][0] == {0, 1, 5, 8, 9, 10, 28, 30}
    # 8 (three brights) + 3 (poetry ribbons), collected on turn 3 after one koi-koi call
    assert (f["score"], f["winner"], f["base"], f["hits"]) == (
        [11, 0], 0, 11, {"three_brights", "poetry_ribbons"})
    assert (f["calls"], f["paid"], f["decisions"], f["turns"]) == ([1, 0], 1, 2, 3)
    # always collecting takes the 8 on turn 1
    assert resume({}, **CASE_B, pols=STOP)["score"] == [8, 0]


@pytest.mark.parametrize("rules, points", [
    ({}, 11),                                        # seed: no koi-koi bonus
    ({"koikoi_bonus": "own_x2"}, 22),                # the collector called
    ({"koikoi_bonus": "opponent_x2"}, 11),           # ... but the opponent did not
    ({"koikoi_bonus": "anyone_x2"}, 22),
    ({"koikoi_bonus": "calls_plus_one"}, 22),        # one call: x2
    ({"koikoi_bonus": "add_per_call"}, 12),          # +1 per own call
    ({"seven_double": "on"}, 22),                    # 11 >= 7
    ({"seven_double": "on", "koikoi_bonus": "own_x2"}, 44),
    ({"yaku_counting": "best"}, 8),                  # the single best meld
])
def test_multipliers(rules, points):
    assert resume(rules, **CASE_B, pols=CONT)["points"] == points


def test_field_multiplier():
    # seed: x(1 + 20-point cards dealt to the field); double: x2 for any; off: x1
    assert [K.field_multiplier(n, K.FMULT_COUNT) for n in range(4)] == [1, 2, 3, 4]
    assert [K.field_multiplier(n, K.FMULT_DOUBLE) for n in range(4)] == [1, 2, 2, 2]
    assert [K.field_multiplier(n, K.FMULT_OFF) for n in range(4)] == [1, 1, 1, 1]
    assert resume({}, **CASE_B, pols=CONT, fmult=3)["score"] == [33, 0]
    # the multiplier comes from the deal: two brights dealt to the field triple the round
    rules, tb, names = tables()
    order = list(range(48))
    field_pos = [8, 9, 10, 11, 20, 21, 22, 23]
    for pos, card in zip(field_pos[:2], (0, 44)):  # crane and phoenix onto the field
        i = order.index(card)
        order[i], order[pos] = order[pos], order[i]
    res, _ = kernel_round(tb, order, 0, 1, [GREEDY, GREEDY], [[DEC_STOP, 0]] * 2, [1, 1], 5)
    f = res_facts(res, names)
    assert f["field_brights"] == 2
    if f["winner"] >= 0:
        assert f["points"] == 3 * f["base"]


@pytest.mark.parametrize("rules, score", [
    ({}, [0, 3]),                                    # the continued dealer forfeits
    ({"opponent_stops": "keeps"}, [8, 3]),           # ... or keeps his meld too
    ({"opponent_stops": "keeps", "scoring": "zero_sum"}, [5, -5]),
    ({"scoring": "zero_sum"}, [-3, 3]),
    ({"koikoi_bonus": "opponent_x2"}, [0, 6]),       # the dealer called: the opponent doubles
])
def test_continue_then_opponent_collects(rules, score):
    f = resume(rules, **CASE_C, pols=("greedy/continue", "greedy/stop"))
    assert (f["score"], f["winner"], f["calls"], f["paid"]) == (score, 1, [1, 0], 0)


@pytest.mark.parametrize("rules, score, winner", [
    ({}, [0, 0], -1),                                # nobody scores an exhausted round
    ({"exhausted": "last_yaku"}, [8, 0], 0),         # the last to make a meld collects it
    ({"exhausted": "dealer", "dealer_privilege": 6}, [6, 0], 0),
    ({"exhausted": "dealer", "scoring": "zero_sum"}, [1, -1], 0),
])
def test_continue_then_exhausted(rules, score, winner):
    f = resume(rules, **CASE_D, pols=("greedy/continue", "greedy/stop"))
    assert (f["end"], f["score"], f["winner"], f["turns"], f["calls"]) == (
        K.END_EXHAUSTED, score, winner, 4, [1, 0])
    assert not f["hands"]


def test_last_turn_and_minimum_to_call():
    # continuing on the last card forfeits the meld (seed) ...
    f = resume({}, **CASE_A, pols=("greedy/continue0", "greedy/stop"))
    assert (f["end"], f["score"], f["calls"]) == (K.END_EXHAUSTED, [0, 0], [1, 0])
    # ... unless the last turn must collect (KoiKoi Japan)
    assert resume({"last_turn": "stop"}, **CASE_A, pols=("greedy/continue0",) * 2)["score"] == [8, 0]
    # fewer yaku points than the minimum to call koi-koi: the player must collect
    assert resume({"koikoi_min": 3}, **CASE_B, pols=CONT)["score"] == [11, 0]
    assert resume({"koikoi_min": 7}, **CASE_B, pols=CONT)["score"] == [11, 0]
    f = resume({"yaku": "modern", "koikoi_min": 7}, **CASE_B, pols=CONT)
    assert f["calls"] == [0, 0] and f["score"] == [6, 0]  # modern three brights: 6 < 7


def test_new_meld_or_bigger_score():
    """A meld growing by a card is a decision under decision_on=bigger only."""
    chaff = [3, 6, 7, 11, 14, 15, 18, 22, 23, 26]  # ten chaff: one point (1 + extras)
    case = dict(hands=([27], [13]), field=[25], piles=(chaff, []), draws=[47, 36])
    new = resume({"meld_growth": "counts"}, **case, pols=STOP)
    assert (new["decisions"], new["end"], new["score"]) == (0, K.END_EXHAUSTED, [0, 0])
    big = resume({"meld_growth": "counts", "decision_on": "bigger"}, **case, pols=STOP)
    assert (big["decisions"], big["score"], big["hits"]) == (1, [2, 0], {"chaff"})
    # without growth the eleventh chaff adds nothing: no decision either way
    flat = resume({"decision_on": "bigger"}, **case, pols=STOP)
    assert flat["decisions"] == 0


# ================================================================ yaku tables, by hand
def value(rules, pile, field=(), calls=0, rmonth=1):
    _, tb, names = tables(**rules)
    v, h = K.yaku_value(np.uint64(sum(1 << c for c in pile)),
                        np.uint64(sum(1 << c for c in field)), calls, month_mask(rmonth), tb)
    return int(v), {names[i] for i in range(len(names)) if int(h) >> i & 1}


PRESET_RULES = {name: dict(p) for name, p in K.PRESETS.items()}
BRIGHT5, DRY4, THREE = [0, 8, 28, 40, 44], [0, 8, 28, 44], [0, 8, 28]
RIBBONS6 = [1, 5, 9, 21, 33, 37]          # poetry and blue
ANIMALS5 = [24, 36, 20, 4, 12]            # boar, deer, butterflies and two more


@pytest.mark.parametrize("preset, pile, points", [
    ("game-cabinet-1997", BRIGHT5, 8), ("game-cabinet-1997", DRY4, 8),
    ("game-cabinet-1997", THREE, 8),
    ("game-cabinet-1997", [0, 8, 40], 0),       # November's never counts (the 1997 text)
    ("game-cabinet-1997", RIBBONS6, 3 + 3 + 1), ("game-cabinet-1997", ANIMALS5, 1),
    ("modern", BRIGHT5, 15), ("modern", DRY4, 8), ("modern", THREE + [40], 7),
    ("modern", THREE, 6), ("modern", RIBBONS6, 10), ("modern", RIBBONS6 + [13], 11),
    ("modern", [1, 5, 9, 13, 17], 5 + 2), ("modern", ANIMALS5, 5 + 2),
    ("modern", [4, 12, 16, 29, 41], 1),   # five animals, no boar-deer-butterfly
    ("nintendo", BRIGHT5, 10), ("nintendo", THREE, 5), ("nintendo", RIBBONS6, 10),
    ("koikoi-japan", BRIGHT5, 10), ("koikoi-japan", THREE, 5), ("koikoi-japan", THREE + [40], 7),
    ("koikoi-japan", RIBBONS6, 10 + 5 + 5 + 2), ("koikoi-japan", ANIMALS5, 5 + 1),
])
def test_preset_yaku_tables(preset, pile, points):
    rules = PRESET_RULES[preset]
    assert value(rules, pile)[0] == points


def test_older_yaku_stack():
    rules = dict(yaku="older")
    assert value(rules, RIBBONS6) == (5 + 5 + 2, {"poetry_ribbons", "blue_ribbons", "ribbons"})
    assert value(rules, ANIMALS5) == (5 + 1, {"boar_deer_butterfly", "animals"})


def test_seed_meld_growth():
    chaff11 = [2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22]
    assert value({}, chaff11)[0] == 1
    assert value({"meld_growth": "counts"}, chaff11)[0] == 2
    assert value({"meld_growth": "counts"}, DRY4)[0] == 8
    assert value({"meld_growth": "all"}, DRY4)[0] == 9


@pytest.mark.parametrize("rules, pile, field, points", [
    ({}, [32, 8], (), 0),                                       # seed: no viewing yaku
    ({"viewing": "on"}, [32, 8], (), 5),                        # flower viewing
    ({"viewing": "on"}, [32, 8, 28], (), 10),                   # and moon viewing
    ({"viewing": "need_other"}, [32, 8, 28], (), 0),            # no other yaku
    ({"viewing": "need_other"}, [32, 8, 28, 0], (), 8 + 10),    # three brights: both count
    ({"viewing": "weather"}, [32, 8, 28], [43], 5),             # rained off: willow on field
    ({"viewing": "weather"}, [32, 8, 28], [43, 47], 0),         # and fogged off: paulownia
    ({"viewing": "weather"}, [32, 8, 28], [2], 10),
    ({"viewing": "on", "viewing_points": 1, "viewing_after_call": "3"}, [32, 8], (), 1),
])
def test_viewing_rules(rules, pile, field, points):
    assert value(rules, pile, field)[0] == points


def test_viewing_after_a_call():
    rules = {"viewing": "on", "viewing_points": 1, "viewing_after_call": "3"}
    assert value(rules, [32, 8, 28], calls=1)[0] == 6


@pytest.mark.parametrize("sake, points", [
    ("animal_only", 1),          # animals (five with the cup); nine chaff (seed)
    ("animal_and_chaff", 1 + 1),  # chaff (ten with the cup) and animals (five with the cup)
    ("animal_or_chaff", 1),       # one or the other, not both
])
def test_sake_cup_roles(sake, points):
    pile = [2, 3, 6, 7, 10, 11, 14, 15, 18] + [32, 4, 12, 16, 20]  # 9 chaff, cup, 4 animals
    assert value({"sake_cup": sake}, pile)[0] == points
    # the cup with four animals and no chaff: five animals under every rule
    assert value({"sake_cup": sake}, pile[9:]) == (1, {"animals"})


def test_cards_of_the_month():
    assert value({"cards_of_month": "on"}, [4, 5, 6, 7], rmonth=2) == (4, {"cards_of_the_month"})
    assert value({"cards_of_month": "on"}, [4, 5, 6, 7], rmonth=3)[0] == 0
    assert value({}, [4, 5, 6, 7], rmonth=2)[0] == 0


# ================================================================ games: the kernel's sessions
def naive_counters(rules_given, pols, expose, seed, n_sessions, series=K.SERIES_ROUNDS):
    rules, tb, names = tables(**rules_given)
    card, decide = packed(pols)
    c = dict(scal=np.zeros(K.C_N, np.int64), hist=np.zeros(K.H_N, np.int64),
             ycount=np.zeros(len(names) + 1, np.int64))
    s = c["scal"]
    for sess in range(n_sessions):
        rounds, games = NK.play_session(seed, sess, series, rules, card,
                                        [tuple(x) for x in decide], expose, tb.weights)
        for f in rounds:
            d, o = f["score"]
            s[K.C_ROUNDS] += 1
            s[K.C_DEALS] += f["misdeals"] + 1
            s[K.C_MISDEALS] += f["misdeals"]
            s[K.C_DEALER_SCORE] += d
            s[K.C_DEALER_SCORE_SQ] += d * d
            s[K.C_OPP_SCORE] += o
            s[K.C_DEALER_WINS] += f["winner"] == 0
            s[K.C_OPP_WINS] += f["winner"] == 1
            s[K.C_DRAWS] += f["winner"] < 0
            s[K.C_EXHAUSTED] += f["end"] == K.END_EXHAUSTED
            s[K.C_TURNS] += f["turns"]
            s[K.C_CALLS] += sum(f["calls"])
            s[K.C_PAID] += f["paid"]
            s[K.C_DECISIONS] += f["decisions"]
            s[K.C_COLLECTS] += f["collected"]
            p0 = d if f["dealer"] == 0 else o
            s[K.C_P0_SCORE] += p0
            s[K.C_P0_DEALS] += f["dealer"] == 0
            s[K.C_P0_WINS] += f["winner"] >= 0 and f["winner"] ^ f["dealer"] == 0
            c["hist"][K.H_FIELD + f["field_brights"]] += 1
            c["hist"][K.H_TURNS + f["turns"]] += 1
            for y in f["hits"]:
                c["ycount"][names.index(y)] += 1
        for g in games:
            margin = g["totals"][g["first"]] - g["totals"][1 - g["first"]]
            s[K.C_GAMES] += 1
            s[K.C_GAME_ROUNDS] += g["rounds"]
            s[K.C_FIRST_WINS] += margin > 0
            s[K.C_GAME_TIES] += margin == 0
            s[K.C_FIRST_MARGIN] += margin
            s[K.C_CAPPED] += g["capped"]
            s[K.C_P0_FIRST] += g["first"] == 0
            s[K.C_P0_GAME_WINS] += g["totals"][0] > g["totals"][1]
    return c


SESSION_RULES = [{}, K.PRESETS["koikoi-japan"],
                 dict(K.PRESETS["modern"], draw_dealer="pass", game_rounds=3,
                      exhausted="last_yaku"),
                 dict(target=30, scoring="zero_sum", lucky_hands="win6", field_four="dealer_wins"),
                 dict(after_hands="draw_pile", wild_lightning="august_field",
                      turn_structure="unmatched_to_hand", lucky_hands="win6",
                      both_lucky="privilege", draw_dealer="pass")]


@pytest.mark.parametrize("idx", range(len(SESSION_RULES)))
def test_sessions_against_reference(idx):
    """Whole sessions (deals and misdeals, the cut for the first dealer, the scorer dealing
    next, game ends by target, rounds and stake, round months) counted by the kernel and by
    the reference from the same streams."""
    given = SESSION_RULES[idx]
    rules, tb, names = tables(**given)
    pols = POLICY_SETS[idx % len(POLICY_SETS)]
    g = hanasim.games.get_game("koikoi")
    got = g.counters(rules, rounds=2 * K.SERIES_ROUNDS, seed=99 + idx,
                     policy=g.policy_ids(pols), expose=np.array([2, 1]), checked=True)
    want = naive_counters(given, pols, (2, 1), 99 + idx, 2)
    slots = ["C_ROUNDS", "C_DEALS", "C_MISDEALS", "C_DEALER_SCORE", "C_DEALER_SCORE_SQ",
             "C_OPP_SCORE", "C_DEALER_WINS", "C_OPP_WINS", "C_DRAWS", "C_EXHAUSTED", "C_TURNS",
             "C_CALLS", "C_PAID", "C_DECISIONS", "C_COLLECTS", "C_P0_SCORE", "C_P0_DEALS",
             "C_P0_WINS", "C_GAMES", "C_GAME_ROUNDS", "C_FIRST_WINS", "C_GAME_TIES",
             "C_FIRST_MARGIN", "C_CAPPED", "C_P0_FIRST", "C_P0_GAME_WINS"]
    for name in slots:
        i = getattr(K, name)
        assert got["scal"][i] == want["scal"][i], name
    assert np.array_equal(got["hist"], want["hist"])
    assert np.array_equal(got["ycount"][:-1, 0], want["ycount"][:-1])
    assert got["scal"][K.C_GAMES] >= 2 and got["scal"][K.C_ROUNDS] == 2 * K.SERIES_ROUNDS


# ================================================================ the forced match
def mask(cards):
    return np.uint64(sum(1 << c for c in cards))


def played_cards(given, pol, hand, field, drawn, seeds, wild=False):
    """{card: times played} by ``pol`` from ``hand`` onto ``field`` (a standard turn, the
    turned card ``drawn``), one turn per random stream in ``seeds``."""
    _, tb, _ = tables(**given)
    out = {}
    for seed in seeds:
        rng = np.array([seed], np.uint64)
        left, _, _ = K.kturn(pol, mask(hand), mask(field), drawn, rng, tb, wild, False, None)
        (card,) = set(hand) - bits_to_set(left)
        out[card] = out.get(card, 0) + 1
    return out


# pine chaff and plum chaff match the field's pine and plum; the wisteria and the paulownia
# match nothing; the turned card (a maple) matches nothing either
FORCED_HAND, FORCED_FIELD, FORCED_DRAWN = [2, 6, 13, 46], [3, 7, 33], 37


def test_a_forced_match_with_two_matching_hand_cards():
    """Seed: "Player matches a card from his hand with a table card of the same month-suit":
    random plays one of the two matching cards, each half the time; greedy one of them.
    Under must_match=no (the rule page) random plays any of the four."""
    n = 4000
    got = played_cards({}, RANDOM, FORCED_HAND, FORCED_FIELD, FORCED_DRAWN, range(n))
    assert set(got) == {2, 6}
    # uniform: a binomial(4000, 1/2) count is within 4.5 standard deviations of 2000
    assert abs(got[2] - n / 2) < 4.5 * (n / 4) ** 0.5, got
    free = played_cards({"must_match": "no"}, RANDOM, FORCED_HAND, FORCED_FIELD, FORCED_DRAWN,
                        range(n))
    assert set(free) == {2, 6, 13, 46}
    chi2 = sum((free[c] - n / 4) ** 2 / (n / 4) for c in free)
    assert chi2 < 16.3, free  # chi-square, 3 degrees of freedom, p = 0.001
    for given in ({}, {"must_match": "no"}):
        assert set(played_cards(given, GREEDY, FORCED_HAND, FORCED_FIELD, FORCED_DRAWN,
                                [0])) <= {2, 6}


def test_uniform_among_three_matching_cards():
    """Three matching cards among five: each a third of the random plays (chi-square)."""
    n = 6000
    got = played_cards({}, RANDOM, [2, 6, 10, 13, 46], [3, 7, 11, 33], FORCED_DRAWN, range(n))
    assert set(got) == {2, 6, 10}
    assert sum((got[c] - n / 3) ** 2 / (n / 3) for c in got) < 13.8, got  # 2 d.f., p = 0.001


def test_a_discard_only_when_nothing_matches():
    """With no hand card matching the field, every hand card may be discarded (random plays
    each); with one matching card, it is the only card played."""
    n = 2000
    got = played_cards({}, RANDOM, [13, 46, 22], [3, 7, 33], FORCED_DRAWN, range(n))
    assert set(got) == {13, 46, 22}
    got = played_cards({}, RANDOM, [13, 46, 22, 6], [3, 7, 33], FORCED_DRAWN, range(n))
    assert got == {6: n}


def test_the_forced_match_under_the_other_turn_structures():
    """Every hand card a turn plays must match when one can.  unmatched_to_hand: the pine or
    the August card first (each matches), the turned maple matches nothing and goes to the
    hand, then the other match, never a discard.  draw_then_two: both matches."""
    _, tb, _ = tables(turn_structure="unmatched_to_hand")
    for seed in range(200):
        rng = np.array([seed], np.uint64)
        hand, _, cap = K.kturn(RANDOM, mask([2, 13, 46, 32]), mask([3, 34]), 36, rng, tb,
                                   False, False, None)
        assert bits_to_set(cap) == {2, 3, 32, 34} and bits_to_set(hand) == {13, 46, 36}
    _, tb, _ = tables(turn_structure="draw_then_two")
    for seed in range(200):
        rng = np.array([seed], np.uint64)
        hand, _, cap = K.kturn(RANDOM, mask([2, 6, 13, 46]), mask([3, 7]), 37, rng, tb,
                                   False, False, None)
        assert bits_to_set(cap) == {2, 3, 6, 7} and bits_to_set(hand) == {13, 46, 37}


def test_the_forced_match_with_the_wild_lightning():
    """A wild Lightning with no willow on the field captures: it is a match, so with nothing
    else matching it must be played (greedy included); a card taking the Lightning off the
    field is one too."""
    wild = {"wild_lightning": "on"}
    got = played_cards(wild, RANDOM, [43, 13, 46], [3, 33], FORCED_DRAWN, range(300), wild=True)
    assert got == {43: 300}
    assert played_cards(wild, GREEDY, [43, 13, 46], [3, 33], FORCED_DRAWN, [0],
                        wild=True) == {43: 1}
    # not wild this round: the Lightning matches nothing, any card may be discarded
    got = played_cards(wild, RANDOM, [43, 13, 46], [3, 33], FORCED_DRAWN, range(300))
    assert set(got) == {43, 13, 46}
    # the Lightning on the field: every non-willow card takes it
    got = played_cards(wild, RANDOM, [13, 46], [43, 33], FORCED_DRAWN, range(300), wild=True)
    assert set(got) == {13, 46}


@pytest.mark.parametrize("given", [{}, {"turn_structure": "unmatched_to_hand"}])
def test_the_lookahead_chooses_among_matching_cards_only(given):
    """The lookahead's candidate moves are the playable cards: with two matching hand cards
    of four, every candidate plays one of them (and with must_match=no all four appear)."""
    for rules, want in ((given, {2, 6}), (dict(given, must_match="no"), {2, 6, 13, 46})):
        _, tb, _ = tables(**rules)
        sc = K.new_look_scratch(tb, 48)
        m = K.card_options(sc, np.int64(FORCED), K.F_CARD1, mask(FORCED_HAND),
                           mask(FORCED_FIELD), False, tb)
        cards = {K.forced_choices(sc.card[j])["card1"] for j in range(m)}
        greedy = int(K.greedy_hand_card(mask(FORCED_HAND), mask(FORCED_FIELD), tb.gscore))
        assert cards - {-1} | {greedy} == want


# ================================================================ the deal
def test_lucky_hands_and_field_fours_by_hand():
    rules, tb, names = tables(lucky_hands="stack12")
    order = list(range(48))  # dealer: 4-7 and 12-15 (plum, wisteria): four of a kind twice
    res, _ = kernel_round(tb, order, 0, 1, [0, 0], [[0, 0]] * 2, [1, 1], 1)
    f = res_facts(res, names)
    # opponent 0-3, 8-11 (two fours as well): both declare: a draw
    assert f["lucky"] == [3, 3] and f["end"] == K.END_LUCKY_DRAW and f["score"] == [0, 0]
    _, tb2, _ = tables(lucky_hands="stack12", both_lucky="dealer")
    res, _ = kernel_round(tb2, order, 0, 1, [0, 0], [[0, 0]] * 2, [1, 1], 1)
    assert res_facts(res, names)["score"] == [12, 0]   # both kinds in one hand: 6 + 6
    _, tb3, _ = tables(lucky_hands="win6", both_lucky="dealer")
    res, _ = kernel_round(tb3, order, 0, 1, [0, 0], [[0, 0]] * 2, [1, 0], 1)
    assert res_facts(res, names)["score"] == [6, 0]    # only the dealer declares
    res, _ = kernel_round(tb3, order, 0, 1, [0, 0], [[0, 0]] * 2, [0, 1], 1)
    f = res_facts(res, names)
    assert (f["score"], f["winner"]) == ([0, 6], 1)    # only the opponent declares
    # four of a month on the field (positions 8-11: cherry)
    order = list(range(48))
    order[0:4], order[8:12] = [8, 9, 10, 11], [0, 1, 2, 3]
    groups = np.zeros(3, np.uint64)
    deal(np.array(order, np.int8), tb.pattern, groups)
    assert K.lucky_bits(groups[2]) & 1
    _, tbw, _ = tables(field_four="dealer_wins")
    res, _ = kernel_round(tbw, order, 1, 1, [0, 0], [[0, 0]] * 2, [1, 1], 1)
    assert res_facts(res, names)["score"] == [6, 0]
    _, tbc, names_c = tables(field_four="dealer_captures", lucky_hands="win6")
    res, _ = kernel_round(tbc, order, 1, 1, [1, 1], [[1, 0]] * 2, [0, 0], 1)
    f = res_facts(res, names_c)
    assert {0, 1, 2, 3} <= f["captured"][0]           # the dealer took the four
    assert f["turns"] >= 1


@pytest.mark.parametrize("given, hand4, hpairs, f4, fpairs", [
    ({}, True, False, True, False),                       # seed: four of a month misdeals
    ({"lucky_hands": "win6"}, False, False, True, False),  # a lucky hand, not a misdeal
    ({"lucky_hands": "misdeal", "field_pairs": "misdeal"}, True, True, True, True),
    ({"field_four": "dealer_captures"}, True, False, False, False),
    # the option misdeal: only the field's four, or no misdeal at all (the seed, literally)
    ({"misdeal": "field"}, False, False, True, False),
    ({"misdeal": "field", "field_pairs": "misdeal"}, False, False, True, True),
    ({"misdeal": "field", "lucky_hands": "win6"}, False, False, True, False),
    ({"misdeal": "none"}, False, False, False, False),
    ({"misdeal": "none", "lucky_hands": "stack12", "field_four": "dealer_wins"},
     False, False, False, False),
])
def test_misdeal_rules(given, hand4, hpairs, f4, fpairs):
    _, tb, _ = tables(**given)
    four, pairs = np.uint64(0xF), np.uint64(0x33 | 0x3300)  # pine x4; pine, plum, wisteria...
    pairs = np.uint64(sum(3 << 4 * m for m in range(4)))
    plain = np.uint64(sum(1 << 4 * m for m in range(8)))
    for g, want in ((0, hand4), (1, hand4)):
        groups = np.array([plain, plain, plain], np.uint64)
        groups[g] = four | np.uint64(1 << 20)
        assert K.is_misdeal(groups, tb.params) == want
    groups = np.array([pairs, plain, plain], np.uint64)
    assert K.is_misdeal(groups, tb.params) == hpairs
    groups = np.array([plain, plain, four], np.uint64)
    assert K.is_misdeal(groups, tb.params) == f4
    groups = np.array([plain, plain, pairs], np.uint64)
    assert K.is_misdeal(groups, tb.params) == fpairs


def deal_order(opponent, dealer, field):
    """A deck order dealing these 8-card groups (the seed's four to the opponent, four to the
    dealer, four to the field, twice), the other cards after them."""
    order = []
    for half in (slice(0, 4), slice(4, 8)):
        order += opponent[half] + dealer[half] + field[half]
    return order + [c for c in range(48) if c not in order]


# the four pines in the opponent's hand, or on the field; no other four, no four pairs
FOUR = [0, 1, 2, 3, 13, 17, 21, 25]
OTHERS = ([4, 8, 12, 16, 20, 24, 28, 32], [5, 9, 14, 18, 22, 26, 30, 34])
HAND_FOUR_ORDER = deal_order(FOUR, *OTHERS)
FIELD_FOUR_ORDER = deal_order(OTHERS[1], OTHERS[0], FOUR)


@pytest.mark.parametrize("given, order, played", [
    ({}, HAND_FOUR_ORDER, False),
    ({"misdeal": "field"}, HAND_FOUR_ORDER, True),
    ({"misdeal": "field"}, FIELD_FOUR_ORDER, False),
    ({"misdeal": "none"}, FIELD_FOUR_ORDER, True),
    ({"misdeal": "none", "must_match": "no"}, HAND_FOUR_ORDER, True),
])
def test_each_misdeal_value_on_hand_built_deals(given, order, played):
    """A deal the rules throw in is a misdeal; one they keep is played to its end, the same as
    the reference plays it; under misdeal=none a field four stays on the field (no card of
    its month is left to take it)."""
    _, tb, _ = tables(**given)
    assert NK.is_misdeal(order, given) == (not played)
    groups = np.zeros(3, np.uint64)
    deal(np.array(order, np.int8), tb.pattern, groups)
    assert K.is_misdeal(groups, tb.params) == (not played)
    if not played:
        return
    for pols in (("random", "random"), ("greedy/stop", "greedy/continue")):
        want = compare_round_with(given, order, pols, seed=7)
        assert want["turns"] >= 1
        if order is FIELD_FOUR_ORDER:
            assert {0, 1, 2, 3} <= want["field"]


def compare_round_with(given, order, pols, seed, dealer=0, rmonth=1, expose=(1, 1)):
    """The kernel's round against the reference's, field by field (as compare_round)."""
    rules, tb, names = tables(**given)
    card, decide = packed(pols)
    res, k_state = kernel_round(tb, order, dealer, rmonth, card, decide, expose, seed)
    got = res_facts(res, names)
    rng = np.array([seed], dtype=np.uint64)
    want = NK.play_round(order, dealer, rmonth, card, [tuple(x) for x in decide], expose,
                         rules, tb.weights, rng)
    for key in want:
        assert got[key] == want[key], (key, got[key], want[key], given, pols)
    assert k_state == int(rng[0])
    return want


def test_reference_under_both_must_match_values():
    """The kernel equals the reference field by field on the same deals under must_match=yes
    and no, random players (the ones the rule moves) and greedy ones."""
    gen = np.random.default_rng(25)
    moved = 0
    for i in range(160):
        order = [int(c) for c in gen.permutation(48)]
        if NK.is_misdeal(order, {}):
            continue
        pols = POLICY_SETS[i % len(POLICY_SETS)]
        seed = int(gen.integers(0, 2**63))
        yes = compare_round_with({}, order, pols, seed)
        no = compare_round_with({"must_match": "no"}, order, pols, seed)
        moved += yes != no
    assert moved > 10  # the rule changes many random rounds


# ================================================================ exact deal-time values
def test_exact_closed_forms():
    df = hanasim.exact("koikoi", rules={"lucky_hands": "win6"}).set_index(["quantity", "condition"])
    # no 20-point card among the 8 field cards: C(43, 8) / C(48, 8)
    assert Fraction(df.loc[("field_brights.0", "all_deals"), "fraction"]) == Fraction(
        comb(43, 8), comb(48, 8))
    # four of a kind in an 8-card hand, by inclusion-exclusion over the months
    p = sum((-1) ** (k + 1) * comb(12, k) * comb(48 - 4 * k, 8 - 4 * k) for k in (1, 2))
    assert Fraction(df.loc[("teyaku.four_of_a_kind", "all_deals"), "fraction"]) == Fraction(
        p, comb(48, 8))
    # four pairs: every month even: 4 pairs, 4+2+2, 4+4
    n = (comb(12, 4) * 6 ** 4 + 12 * comb(11, 2) * 6 ** 2 + comb(12, 2))
    assert Fraction(df.loc[("teyaku.four_pairs", "all_deals"), "fraction"]) == Fraction(
        n, comb(48, 8))


def test_exact_follows_the_misdeal_option():
    """misdeal=none: no deal is thrown in; misdeal=field: only a four of a month among the 8
    field cards, by inclusion-exclusion over the months."""
    df = hanasim.exact("koikoi", rules={"misdeal": "none"}).set_index(["quantity", "condition"])
    assert Fraction(df.loc[("misdeal_rate", "all_deals"), "fraction"]) == 0
    df = hanasim.exact("koikoi", rules={"misdeal": "field"}).set_index(["quantity", "condition"])
    p = sum((-1) ** (k + 1) * comb(12, k) * comb(48 - 4 * k, 8 - 4 * k) for k in (1, 2))
    assert Fraction(df.loc[("misdeal_rate", "all_deals"), "fraction"]) == Fraction(
        p, comb(48, 8))
    # a hand's four is then dealt and played: its rate among played deals is not zero
    assert Fraction(df.loc[("teyaku.four_of_a_kind", "no_misdeal"), "fraction"]) > 0
    df = hanasim.exact("koikoi").set_index(["quantity", "condition"])
    assert Fraction(df.loc[("teyaku.four_of_a_kind", "no_misdeal"), "fraction"]) == 0


def test_exact_against_the_general_module():
    """Four of a kind and the field-four misdeal rate by the general exact module."""
    from hanasim.stats.exact import DealSpec, TeyakuSpec, deal_probabilities

    spec = DealSpec(month=D.month, kind=D.kind, group_sizes=(8, 8, 8, 24), hand_groups=(0, 1),
                    misdeal_groups=(2,), teyaku=(TeyakuSpec("four_of_a_kind", "month_count",
                                                            count=4),))
    general = {(q, c): p for q, c, p in deal_probabilities(spec)}
    mine = hanasim.exact("koikoi", rules={"lucky_hands": "win6"}).set_index(
        ["quantity", "condition"])
    for key in [("misdeal_rate", "all_deals"), ("teyaku.four_of_a_kind", "all_deals"),
                ("teyaku.four_of_a_kind", "no_misdeal")]:
        assert Fraction(mine.loc[key, "fraction"]) == general[key], key


@pytest.mark.parametrize("flags", [
    dict(hand_four_misdeal=False, hand_pairs_misdeal=True, field_four_misdeal=False,
         field_pairs_misdeal=True),
    dict(hand_four_misdeal=True, hand_pairs_misdeal=False, field_four_misdeal=True,
         field_pairs_misdeal=False),
])
def test_exact_against_brute_force_on_a_small_deck(flags):
    """Three months of four cards (one tracked card in months 1 and 3), hands of 4, field 2:
    every assignment enumerated."""
    from itertools import combinations

    from hanasim.stats.exact import koikoi_deal_probabilities

    tracked = (1, 0, 1)
    cards = list(range(12))
    tracked_cards = {0, 8}
    total = played = 0
    tey = {"all_deals": [0, 0, 0], "no_misdeal": [0, 0, 0]}
    fb = {"all_deals": [0, 0, 0], "no_misdeal": [0, 0, 0]}

    def info(g):
        cnt = [sum(1 for c in g if c // 4 == m) for m in range(3)]
        return 4 in cnt, all(x % 2 == 0 for x in cnt)

    for a in combinations(cards, 4):
        r1 = [c for c in cards if c not in a]
        for b in combinations(r1, 4):
            r2 = [c for c in r1 if c not in b]
            for f in combinations(r2, 2):
                (a4, ap), (b4, bp), (f4, fp) = info(a), info(b), info(f)
                mis = ((flags["hand_four_misdeal"] and (a4 or b4))
                       or (flags["hand_pairs_misdeal"] and (ap or bp))
                       or (flags["field_four_misdeal"] and f4)
                       or (flags["field_pairs_misdeal"] and fp))
                total += 1
                played += not mis
                br = len(set(f) & tracked_cards)
                for cond in ("all_deals",) + (() if mis else ("no_misdeal",)):
                    for four, pr in ((a4, ap), (b4, bp)):
                        tey[cond][0] += four
                        tey[cond][1] += pr
                        tey[cond][2] += four or pr
                    fb[cond][br] += 1
    rows = {(q, c): p for q, c, p in koikoi_deal_probabilities(4, 2, tracked=tracked, **flags)}
    assert rows[("misdeal_rate", "all_deals")] == 1 - Fraction(played, total)
    for j, name in enumerate(("four_of_a_kind", "four_pairs", "any")):
        assert rows[(f"teyaku.{name}", "all_deals")] == Fraction(tey["all_deals"][j], 2 * total)
        assert rows[(f"teyaku.{name}", "no_misdeal")] == Fraction(tey["no_misdeal"][j], 2 * played)
    for k in range(3):
        assert rows[(f"field_brights.{k}", "all_deals")] == Fraction(fb["all_deals"][k], total)
        assert rows[(f"field_brights.{k}", "no_misdeal")] == Fraction(fb["no_misdeal"][k], played)


@pytest.mark.parametrize("preset, rules", [("game-cabinet-1997", None), ("modern", None),
                                           ("game-cabinet-1997", {"misdeal": "field"}),
                                           ("game-cabinet-1997", {"misdeal": "none"})])
def test_deal_time_rates_agree_with_exact(preset, rules, stat_rounds):
    sim = hanasim.simulate("koikoi", rounds=4 * stat_rounds, seed=31, preset=preset,
                           rules=rules, deals_only=True).set_index("quantity")
    ex = hanasim.exact("koikoi", preset=preset, rules=rules)
    want = ex[(ex.condition == "no_misdeal") | (ex.quantity == "misdeal_rate")]
    assert len(want) == 10
    for _, row in want.iterrows():
        s = sim.loc[row.quantity]
        assert s.ci_low <= row.value <= s.ci_high, (row.quantity, row.value, s.ci_low, s.ci_high)
    # played rounds deal the same way as the deals-only path
    played = hanasim.simulate("koikoi", rounds=stat_rounds // 3, seed=32, preset=preset,
                              rules=rules)
    played = played.set_index("quantity")
    for q in ("field_brights.1", "teyaku.four_pairs", "misdeal_rate"):
        s = played.loc[q]
        v = float(want.set_index("quantity").loc[q, "value"])
        assert s.ci_low <= v <= s.ci_high, (q, v, s.ci_low, s.ci_high)


# ================================================================ whole runs
@pytest.mark.parametrize("preset, policy", [("game-cabinet-1997", "random"),
                                            ("modern", "greedy/continue3,random"),
                                            ("nintendo", "random/threshold5,greedy"),
                                            ("koikoi-japan", "greedy,random/continue")])
def test_invariants_over_random_play(preset, policy):
    _invariants(preset, policy)


@pytest.mark.parametrize("given", [
    dict(after_hands="draw_pile", wild_lightning="on", turn_structure="unmatched_to_hand",
         scoring="zero_sum", lucky_hands="win6", both_lucky="privilege"),
    dict(turn_structure="draw_then_two", wild_lightning="august_field", scoring="zero_sum",
         double_chaff="lightning+paulownia", koikoi_calls=1, field_four="dealer_captures"),
])
def test_invariants_under_the_variations(given):
    """The same invariants (every card in one place, zero-sum) with the turn structures, the
    draw-pile turns and the wild Lightning; the round ends on its turn histogram."""
    df = _invariants("modern", "random/continue2,greedy/threshold5", given)
    if given.get("after_hands") == "draw_pile":
        assert df.loc["end_turn.24", "estimate"] > 0  # rounds reach the last pile card
        assert df.loc["round.exhausted_rate", "estimate"] < 0.1


def _invariants(preset, policy, given=None):
    # checked: every card in exactly one place after every round; zero-sum where it is
    df = hanasim.simulate("koikoi", rounds=20_000, seed=3, preset=preset, policy=policy,
                          expose="random", checked=True, rules=given).set_index("quantity")
    wins = df.loc[["dealer.win_rate", "opponent.win_rate", "round.draw_rate"], "estimate"].sum()
    assert wins == pytest.approx(1)
    ends = df.loc[[q for q in df.index if q.startswith("end_turn.")], "estimate"].sum()
    assert ends == pytest.approx(1)
    if preset == "koikoi-japan" or (given or {}).get("scoring") == "zero_sum":
        total = df.loc["dealer.mean_score", "estimate"] + df.loc["opponent.mean_score", "estimate"]
        assert total == pytest.approx(0, abs=1e-12)
    if preset == "koikoi-japan":
        assert df.loc["game.rounds.mean", "estimate"] <= 8
    if preset == "modern":
        assert df.loc["game.rounds.mean", "estimate"] == 12
    if preset == "modern" and not given:
        assert df.loc["dealer.mean_score", "ci_low"] >= 0
    return df


def test_checked_mode_can_fail():
    _, tb, _ = tables()
    order = np.arange(48, dtype=np.int8)
    groups = np.zeros(3, np.uint64)
    deal(order, tb.pattern, groups)
    groups[2] &= ~np.uint64(1 << int(order[8]))  # lose a field card
    res = np.zeros(K.R_N, np.int64)
    with pytest.raises(AssertionError):
        K.play_dealt(np.zeros(1, np.uint64), order, groups, np.zeros(K.KS_N, np.uint64), tb,
                     np.array([0, 0]), np.array([[0, 0], [0, 0]]), np.array([1, 1]), 0,
                     month_mask(1), res, None)


def test_same_seed_same_counters_any_threads_and_chunking():
    g = hanasim.games.get_game("koikoi")
    rules = make_rules(K.KoikoiRules, K.PRESETS["modern"])

    def run(**kw):
        return g.counters(rules, rounds=20_001, seed=8, policy=g.policy_ids(("greedy", "random")),
                          expose=np.array([2, 1]), **kw)
    ref = run()
    n = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run(chunk=7)
    finally:
        numba.set_num_threads(n)
    other = run(chunk=100)
    for k in ("scal", "tcount", "ycount", "hist"):
        assert np.array_equal(ref[k], one[k]) and np.array_equal(ref[k], other[k])
    assert ref["scal"][K.C_ROUNDS] == 20_001


def test_symmetric_players_and_first_dealer():
    df = hanasim.simulate("koikoi", rounds=100_000, seed=4).set_index("quantity")
    for q, v in (("player1.deal_share", 0.5), ("player1.first_dealer_share", 0.5),
                 ("game.first_dealer.win_rate", None)):
        s = df.loc[q]
        if v is not None:
            assert s.ci_low <= v <= s.ci_high, q
    assert df.loc["game.capped_rate", "estimate"] == 0


def test_continuing_is_measured_on_the_same_deals():
    """compare: always collecting against always continuing, paired on the same deals."""
    df = hanasim.compare("koikoi", rounds=20_000, seed=5,
                         policies=["greedy/stop", "greedy/continue"])
    diff = df[(df.kind == "difference")].set_index("quantity")
    assert diff.loc["koikoi.calls_per_round", "estimate"] > 0
    assert diff.loc["round.exhausted_rate", "estimate"] > 0
    assert diff.loc["misdeal_rate", "estimate"] == 0  # same deals


# ================================================================ the variations added last
# Each case is built so that the option changes the result: it would fail if the option did
# nothing.  Cards: 4 * (month - 1) + j (0 crane, 8 curtain, 9/10 cherry poetry/chaff, 13 April
# ribbon, 28 moon, 30 susuki chaff, 43 the Lightning, 44 phoenix, 45-47 paulownia chaff).
CHAFF9 = [2, 3, 6, 7, 11, 14, 15, 18, 22]     # nine plain chaff


@pytest.mark.parametrize("rules, pile, points", [
    ({}, CHAFF9, 0),
    ({}, CHAFF9 + [43], 1),                                   # ten chaff
    ({"double_chaff": "lightning"}, CHAFF9[:8] + [43], 1),    # 8 + the Lightning as 2
    ({"double_chaff": "paulownia"}, CHAFF9[:8] + [43], 0),    # ... not doubled: 9
    ({"double_chaff": "paulownia"}, CHAFF9[:8] + [45], 1),    # the yellow Paulownia
    ({"double_chaff": "paulownia"}, CHAFF9[:8] + [46], 0),    # another paulownia chaff
    ({"double_chaff": "sake", "sake_cup": "animal_and_chaff"}, CHAFF9[:8] + [32], 1),
    ({"sake_cup": "animal_and_chaff"}, CHAFF9[:8] + [32], 0),
    ({"double_chaff": "sake+lightning+paulownia", "yaku": "modern",
      "sake_cup": "animal_and_chaff"}, CHAFF9 + [32, 43, 45], 1 + 5),  # 15 chaff: +1 each
    ({"double_chaff": "lightning", "meld_growth": "counts"}, CHAFF9 + [43], 2),  # 11
    ({"double_chaff": "lightning", "yaku_counting": "best"}, CHAFF9[:8] + [43], 1),
])
def test_double_chaff(rules, pile, points):
    v, names = value(rules, pile)
    assert v == points and (("chaff" in names) == (points > 0))
    if rules.get("yaku_counting") == "best":
        assert resume(rules, hands=([10], [13]), field=[9], piles=(CHAFF9[:7] + [43], []),
                      draws=[47, 36], pols=STOP)["points"] == 1


def test_double_chaff_with_the_cup_as_either():
    # animal_or_chaff: the cup as two chaff makes ten with eight plain ones
    rules = {"double_chaff": "sake", "sake_cup": "animal_or_chaff"}
    assert value(rules, CHAFF9[:8] + [32]) == (1, {"chaff"})
    assert value({"sake_cup": "animal_or_chaff"}, CHAFF9[:8] + [32])[0] == 0


@pytest.mark.parametrize("omit, pile, points", [
    ("none", [24, 36, 20], 5), ("nintendo_1960s", [24, 36, 20], 0),
    ("none", THREE, 6), ("nintendo_1960s", THREE, 6), ("flower_card_game", THREE, 0),
    ("flower_card_game", THREE + [40], 0), ("none", THREE + [40], 7),
    ("flower_card_game", DRY4, 8), ("flower_card_game", BRIGHT5, 15),
])
def test_omitted_old_yaku(omit, pile, points):
    assert value({"yaku": "modern", "omit_yaku": omit}, pile)[0] == points


# Case E: the dealer completes three brights on turn 1 (8); with a turn after it, the cherry
# poetry ribbon takes the cherry chaff (poetry ribbons: 11).
CASE_E = dict(hands=([28], [13]), field=[30, 10], piles=([0, 8, 1, 5], []), draws=[47, 36, 9])


def test_after_hands_draw_pile():
    pols = ("greedy/threshold9", "greedy/stop")
    f = resume({}, **CASE_E, pols=pols)
    # the hands end with turn 2: the dealer's last card made 8 and collects (no turn left)
    assert (f["score"], f["turns"], f["calls"]) == ([8, 0], 1, [0, 0])
    f = resume({"after_hands": "draw_pile"}, **CASE_E, pols=pols)
    # the draw pile is played on: the dealer continues (8 < 9, turns left) and on the first
    # pile turn turns the cherry poetry ribbon onto the cherry chaff: 11 >= 9, collect
    assert (f["score"], f["turns"], f["calls"], f["end"]) == ([11, 0], 3, [1, 0], K.END_STOP)
    assert {9, 10} <= f["captured"][0] and not f["hands"]
    # continuing for ever: the pile runs out, every card is placed, nobody scores
    f = resume({"after_hands": "draw_pile"}, **CASE_E, pols=("greedy/continue0",) * 2)
    assert f["end"] == K.END_EXHAUSTED and f["top"] == 48 and f["score"] == [0, 0]
    assert f["turns"] == 48 - 8  # a turn per card of the pile (the 8 cards placed are not)


@pytest.mark.parametrize("structure, pile, hand", [
    # standard: moon onto susuki chaff (three brights), the turned 45 onto the field
    ("standard", {0, 1, 5, 8, 28, 30}, {9}),
    # draw 45 into the hand, play moon and cherry poetry (three brights + poetry ribbons)
    ("draw_then_two", {0, 1, 5, 8, 9, 10, 28, 30}, {45}),
    # the turned 45 captures nothing: into the hand, and the cherry poetry is played instead
    ("unmatched_to_hand", {0, 1, 5, 8, 9, 10, 28, 30}, {45}),
])
def test_turn_structures(structure, pile, hand):
    case = dict(hands=([28, 9], [13, 16]), field=[30, 10], piles=([0, 8, 1, 5], []),
                draws=[45, 36, 40, 19])
    f = resume({"turn_structure": structure}, **case, pols=STOP)
    assert f["captured"][0] == pile and f["turns"] == 1 and f["winner"] == 0
    assert f["hands"] == hand | {13, 16}
    assert f["score"] == [8 if structure == "standard" else 11, 0]
    # a turned card that captures is played as usual under unmatched_to_hand
    case["draws"] = [11, 36, 40, 19]
    f = resume({"turn_structure": "unmatched_to_hand"}, **case, pols=STOP)
    assert f["captured"][0] == {0, 1, 5, 8, 28, 30, 10, 11} and f["hands"] == {9, 13, 16}


def test_wild_lightning():
    # the Lightning played onto a field without willows takes any card: here the moon
    case = dict(hands=([43], [13]), field=[28], piles=([0, 8], []), draws=[47, 36])
    off = resume({}, **case, pols=STOP)
    assert off["score"] == [0, 0] and 43 in off["field"]
    on = resume({"wild_lightning": "on"}, **case, pols=STOP, wild=1)
    assert (on["score"], on["hits"]) == ([8, 0], {"three_brights"})
    assert {28, 43} <= on["captured"][0]
    # greedy takes the heaviest field card; a willow on the field is matched by month instead
    case = dict(hands=([43], [13]), field=[47, 28, 41], piles=([0, 8], []), draws=[46, 36])
    f = resume({"wild_lightning": "on"}, **case, pols=STOP, wild=1)
    assert {41, 43} <= f["captured"][0] and 28 in f["field"]
    # on the field it is captured by a card that matches nothing by month
    case = dict(hands=([13], [16]), field=[43, 28], piles=([], []), draws=[47, 36])
    f = resume({"wild_lightning": "on"}, **case, pols=STOP, wild=1)
    assert f["captured"][0] == {13, 43} and 28 in f["field"]
    f = resume({"wild_lightning": "on"}, **case, pols=STOP, wild=0)  # not wild this round
    assert f["captured"][0] == set() and 43 in f["field"]


@pytest.mark.parametrize("rule, august, wild", [
    ("off", True, 0), ("on", False, 1), ("august_field", False, 0), ("august_field", True, 1),
])
def test_wild_lightning_needs_august_on_the_field(rule, august, wild):
    _, tb, _ = tables(wild_lightning=rule)
    order = list(range(48))
    # field positions 8-11 and 20-23; no August card there unless moved in
    order[8], order[28] = (28, 8) if august else (8, 28)
    order = np.array(order, np.int8)
    groups = np.zeros(3, np.uint64)
    deal(order, tb.pattern, groups)
    assert bool(groups[2] & np.uint64(K.AUGUST)) == august
    stt = np.zeros(K.KS_N, np.uint64)
    res = np.zeros(K.R_N, np.int64)
    K.play_dealt(np.ones(1, np.uint64), order, groups, stt, tb, np.array([1, 1]),
                 np.array([[DEC_STOP, 0]] * 2), np.array([1, 1]), 0, month_mask(1), res, None)
    assert int(stt[K.KS_WILD]) == wild


def test_koikoi_call_limit_and_stop_only_improvements():
    pols = ("greedy/continue0", "greedy/stop")
    # no limit: the dealer continues twice and the hands run out: nothing scored
    f = resume({}, **CASE_B, pols=pols)
    assert (f["calls"], f["score"], f["end"]) == ([2, 0], [0, 0], K.END_EXHAUSTED)
    # one call a round: the second meld can only be collected
    f = resume({"koikoi_calls": 1}, **CASE_B, pols=pols)
    assert (f["calls"], f["score"], f["end"]) == ([1, 0], [11, 0], K.END_STOP)
    # an improved yaku (a sixth ribbon) with no new one: stop_only makes it a collect
    case = dict(hands=([13], [18]), field=[14], piles=([1, 5, 17, 21, 25], []), draws=[47, 46])
    rules = {"yaku": "modern", "decision_on": "bigger"}
    f = resume(rules, **case, pols=pols)
    assert (f["calls"], f["score"], f["decisions"]) == ([1, 0], [0, 0], 1)
    f = resume({**rules, "improve_call": "stop_only"}, **case, pols=pols)
    assert (f["calls"], f["score"], f["hits"]) == ([0, 0], [2, 0], {"ribbons"})


def test_both_lucky_dealer_privilege():
    order = list(range(48))  # both hands hold two fours (see the test above)
    for given, score, winner in (
            ({}, [0, 0], -1),
            ({"both_lucky": "privilege"}, [1, 0], 0),
            ({"both_lucky": "privilege", "dealer_privilege": 6, "scoring": "zero_sum"}, [6, -6], 0)):
        _, tb, names = tables(lucky_hands="win6", **given)
        res, _ = kernel_round(tb, order, 0, 1, [0, 0], [[0, 0]] * 2, [1, 1], 1)
        f = res_facts(res, names)
        assert (f["end"], f["score"], f["winner"]) == (K.END_LUCKY_DRAW, score, winner)


# ================================================================ rules, presets, policies
@pytest.mark.parametrize("given", [
    dict(meld_growth="counts", yaku="modern"), dict(viewing_points=1),
    dict(dealer_privilege=6), dict(both_lucky="dealer"), dict(stake=30),
    dict(target=0), dict(lucky_hands="misdeal", hand_size=10),
    dict(omit_yaku="nintendo_1960s"), dict(yaku="modern", omit_yaku="flower_card_game", viewing="on"),
    dict(double_chaff="sake"), dict(improve_call="stop_only"),
    dict(after_hands="draw_pile", hand_size=10), dict(dealer_privilege=3, lucky_hands="win6"),
    dict(draw_dealer="pass", exhausted="dealer"),
    dict(lucky_hands="misdeal", misdeal="field"), dict(lucky_hands="misdeal", misdeal="none"),
    dict(field_pairs="misdeal", misdeal="none"),
])
def test_contradictions_are_refused(given):
    with pytest.raises(RuleError, match="contradict"):
        make_rules(K.KoikoiRules, given)


def test_presets_are_valid_and_documented():
    for name, opts in K.PRESETS.items():
        rules = make_rules(K.KoikoiRules, opts)
        # a former name stands for a documented preset with the same options
        assert name in K.PRESET_DOCS or K.PRESETS[K.PRESET_ALIASES[name]] == opts
        for k, v in opts.items():
            assert str(getattr(rules, k)) == str(v)
    table = hanasim.rules_table("koikoi", preset="koikoi-japan").set_index("option")
    assert table.loc["stake", "preset"] == "30" and table.loc["stake", "default"] == "0"
    with pytest.raises(ValueError, match="unknown preset"):
        hanasim.simulate("koikoi", rounds=10, preset="tokyo")
    with pytest.raises(ValueError, match="unknown preset"):
        hanasim.simulate("toppa", rounds=10, preset="modern")
    # a preset and a rule on top of it
    df = hanasim.simulate("koikoi", rounds=2000, seed=1, preset="modern",
                          rules={"game_rounds": 6})
    assert "game_rounds=6" in df.attrs["rules"] and "yaku=modern" in df.attrs["rules"]
    assert df.attrs["preset"] == "modern"


def test_policy_names():
    assert split_policy(parse_policy("random")) == (RANDOM, DEC_RANDOM, 0)
    assert split_policy(parse_policy("greedy")) == (GREEDY, DEC_STOP, 0)
    assert split_policy(parse_policy("greedy/continue")) == (GREEDY, DEC_CONTINUE, 1)
    assert split_policy(parse_policy("random/continue4")) == (RANDOM, DEC_CONTINUE, 4)
    assert split_policy(parse_policy("greedy/threshold")) == (GREEDY, DEC_THRESHOLD, 5)
    assert split_policy(parse_policy(" greedy/threshold12 ")) == (GREEDY, DEC_THRESHOLD, 12)
    for bad in ("smart", "greedy/", "greedy/stop3", "greedy/continue11", "greedy/threshold0",
                "random/maybe"):
        with pytest.raises(ValueError):
            parse_policy(bad)
    with pytest.raises(ValueError, match="unknown policy"):
        hanasim.simulate("toppa", rounds=10, policy="greedy/stop")


@pytest.mark.parametrize("argv, needle", [
    (["simulate", "koikoi", "--rounds", "100", "--rule", "stake=30"], "contradict"),
    (["simulate", "koikoi", "--rounds", "100", "--preset", "nope"], "unknown preset"),
    (["simulate", "koikoi", "--rounds", "100", "--policy", "greedy/later"], "unknown decision"),
    (["simulate", "koikoi", "--rounds", "100", "--session-rounds", "5"], "session_rounds"),
    (["rules", "koikoi", "--preset", "nope"], "unknown preset"),
    (["exact", "koikoi", "--rule", "hand_size=9"], "hand_size"),
])
def test_cli_bad_input_is_one_line(argv, needle, capsys):
    assert cli_main(argv + (["--no-save"] if argv[0] == "simulate" else [])) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_cli_rules_simulate_exact_compare(capfd):
    assert cli_main(["rules", "koikoi"]) == 0
    out = capfd.readouterr().out
    assert "koikoi-japan" in out and "sake_cup" in out
    assert cli_main(["rules", "koikoi", "--preset", "modern"]) == 0
    out = capfd.readouterr().out
    assert "yaku = modern *" in out
    assert cli_main(["exact", "koikoi", "--preset", "modern"]) == 0
    assert "teyaku.four_pairs" in capfd.readouterr().out
    assert cli_main(["simulate", "koikoi", "--rounds", "3000", "--seed", "2", "--preset",
                     "nintendo", "--policy", "greedy/continue3,random", "--no-save",
                     "--format", "csv"]) == 0
    out = capfd.readouterr().out
    assert "koikoi.call_rate" in out and "yaku.five_brights" in out
    assert cli_main(["compare", "koikoi", "--rounds", "2000", "--seed", "2", "--rule",
                     "koikoi_bonus=none,opponent_x2", "--preset", "modern", "--no-save"]) == 0
    assert "koikoi_bonus=opponent_x2" in capfd.readouterr().out


def test_report_with_a_preset(tmp_path):
    """``hanasim report koikoi --preset NAME``: the preset is simulated, named in the report and
    in its reproduce command; a preset with 'all' games is refused before anything is written."""
    from hanasim.report import build_report

    # skill=False: the skill section compiles koi-koi's lookahead kernels (run under --full
    # by tests/test_lookahead.py; Toppa's report checks the section)
    paths = build_report("koikoi", rounds=2000, seed=3, preset="modern", out=tmp_path / "r",
                         skill=False)
    md = open(paths["markdown"]).read()
    assert "--preset modern" in md and "preset='modern'" in md
    assert "yaku=modern" in paths["tables"][0].attrs["rules"]
    with pytest.raises(ValueError, match="a preset belongs to one game"):
        build_report("all", rounds=100, seed=3, preset="modern", out=tmp_path / "all")
    assert not (tmp_path / "all").exists()


def test_the_advice_values_a_turn_as_the_lookahead_does():
    """The position API's advice (``position.advise_kernels.koikoi_turn``) values a turn as
    the lookahead player does (``lookahead.look_eval``): on the same position and stream, the
    advice's values per determinisation, summed into gains over greedy's own choice, pick the
    hand card the lookahead player picks."""
    from hanasim.engine import lookahead as L
    from hanasim.position import advise_kernels as AK

    case = dict(hands=([28, 9, 13, 40, 22, 33], [16, 41, 2, 6, 45, 20]), field=[30, 10, 14, 44],
                piles=([0], [1, 5]), draws=[47, 36, 19, 24, 17, 37, 3, 26, 11, 35])
    tb, _, stt, order = position({"must_match": "no"}, **case)
    sc = K.new_look_scratch(tb, 48)
    m = K.card_options(sc, np.int64(FORCED), K.F_CARD1, stt[0], stt[2], False, tb)
    pols = sc.card[:m].copy()
    assert m >= 4
    k = 24
    for seed in range(6):
        out = np.zeros((k, m))
        AK.koikoi_turn(tb, stt, order, 0, seed, pols, np.int64(stt[5]), out)
        gains = out[:, 1:] - out[:, :1]
        pick = L.new_scratch(1, 1, 1)
        pick.total[1:m] = gains.sum(axis=0)
        pick.total2[1:m] = (gains * gains).sum(axis=0)
        advised = K.forced_choices(pols[int(L._pick(pick, m, k))])["card1"]
        chosen = K.forced_choices(K.lookahead_turn(tb, stt, order, 0, seed, k))["card1"]
        assert advised == chosen, seed
    assert len(set(out[:, 0])) > 1 and len(set(out[0])) > 1  # determinisations, choices differ
